//! Hostile answers for the scorers: model answers built to cost the scorer
//! as much as possible (very long clauses, clauses of many distinct
//! variables, deeply nested terms, huge numbers, huge step counts, very long
//! lines, many lines, NUL bytes, bytes that are not UTF-8, blown-up JSON),
//! each made from a row's gold answer so that it reaches the family's parser
//! and checker rather than being refused at the first character.

use proptest::prelude::*;
use proptest::sample::Index;

/// One way of making an answer hostile.
#[derive(Clone, Debug)]
pub enum Hostile {
    /// A function or predicate application of the answer (a literal where
    /// one can be found) followed by ` | ` and `lits` copies of itself; with
    /// `fresh`, each copy's variables are renamed apart, so the clause has
    /// `lits` times as many distinct variables.
    Clause {
        /// Which application.
        site: Index,
        /// Copies added.
        lits: u32,
        /// Rename the copies' variables apart.
        fresh: bool,
    },
    /// A word of the answer wrapped in `depth` applications of `f(...)`.
    Deep {
        /// Which word.
        site: Index,
        /// Nesting.
        depth: u32,
    },
    /// Every number replaced by a huge one.
    HugeNumbers(Index),
    /// A line repeated `times` times, the first number of each copy counting
    /// up (step labels `S1`, `S2`, ..., children of a graph, ...).
    Steps {
        /// Which line.
        line: Index,
        /// Copies.
        times: u32,
    },
    /// A line of about `len` bytes (a line of the answer with some content
    /// repeated) put before it; the whole stays within [`MAX_ANSWER`].
    LongLine {
        /// Which line.
        site: Index,
        /// Bytes.
        len: u32,
    },
    /// The answer's lines (their first 40 bytes) cycled to `n` lines.
    ManyLines(u32),
    /// `n` NUL characters put at a character.
    Nul {
        /// Where.
        at: Index,
        /// How many.
        n: u8,
    },
    /// Bytes that are not UTF-8 put at a byte, the whole then read lossily
    /// (as `saturate score` reads its answer file).
    InvalidUtf8(Index),
    /// For a JSON answer, one node blown up: an array cycled to `n`
    /// elements, a string nested `n` deep (at most 10,000), a number made
    /// huge; for other answers, the answer repeated `n` times.
    Json {
        /// Which node.
        node: Index,
        /// Size.
        n: u32,
    },
}

/// The extremes every config is tried with once per run (sites from the
/// given indices): what the issue lists, at its largest sizes.
pub fn extremes(i: &[Index; 4]) -> Vec<Hostile> {
    let [a, b, c, d] = *i;
    vec![
        Hostile::Clause {
            site: a,
            lits: 48,
            fresh: true,
        },
        Hostile::Clause {
            site: b,
            lits: 20_000,
            fresh: false,
        },
        Hostile::Clause {
            site: c,
            lits: 2_000,
            fresh: true,
        },
        Hostile::Deep {
            site: d,
            depth: 10_000,
        },
        Hostile::HugeNumbers(a),
        Hostile::Steps {
            line: b,
            times: 10_000,
        },
        Hostile::LongLine {
            site: c,
            len: 4 << 20,
        },
        Hostile::ManyLines(100_000),
        Hostile::Nul { at: d, n: 8 },
        Hostile::InvalidUtf8(a),
        Hostile::Json { node: b, n: 10_000 },
    ]
}

/// Random hostile edits, sizes from small to the extremes.
pub fn hostile() -> impl Strategy<Value = Hostile> {
    prop_oneof![
        3 => (any::<Index>(), prop_oneof![1u32..64, 64u32..20_000], any::<bool>())
            .prop_map(|(site, lits, fresh)| Hostile::Clause { site, lits, fresh }),
        2 => (any::<Index>(), 40u32..61)
            .prop_map(|(site, lits)| Hostile::Clause { site, lits, fresh: true }),
        2 => (any::<Index>(), prop_oneof![1u32..100, 100u32..=10_000])
            .prop_map(|(site, depth)| Hostile::Deep { site, depth }),
        1 => any::<Index>().prop_map(Hostile::HugeNumbers),
        2 => (any::<Index>(), prop_oneof![2u32..300, 300u32..=10_000])
            .prop_map(|(line, times)| Hostile::Steps { line, times }),
        1 => (any::<Index>(), prop_oneof![1_000u32..(1 << 20), (1u32 << 20)..=(4u32 << 20)])
            .prop_map(|(site, len)| Hostile::LongLine { site, len }),
        1 => (10u32..=100_000).prop_map(Hostile::ManyLines),
        1 => (any::<Index>(), 1u8..16).prop_map(|(at, n)| Hostile::Nul { at, n }),
        1 => any::<Index>().prop_map(Hostile::InvalidUtf8),
        2 => (any::<Index>(), prop_oneof![2u32..100, 100u32..=10_000])
            .prop_map(|(node, n)| Hostile::Json { node, n }),
    ]
}

/// Byte ranges of the applications `name(...)` in `s` (balanced
/// parentheses; a leading `~` included).
fn applications(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    for open in 0..b.len() {
        if b[open] != b'(' || open == 0 || !is_word(b[open - 1]) {
            continue;
        }
        let mut start = open;
        while start > 0 && is_word(b[start - 1]) {
            start -= 1;
        }
        if start > 0 && b[start - 1] == b'~' {
            start -= 1;
        }
        let mut depth = 0usize;
        let mut end = None;
        for (k, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(k + 1);
                        break;
                    }
                }
                b'\n' => break,
                _ => {}
            }
        }
        if let Some(end) = end {
            out.push((start, end));
        }
    }
    out
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Applications that stand where a literal does: followed by ` |`, ` by`,
/// the end of a line or of a quoted string.
fn literal_sites(s: &str) -> Vec<(usize, usize)> {
    let apps = applications(s);
    let lits: Vec<_> = apps
        .iter()
        .copied()
        .filter(|&(_, e)| {
            let rest = &s[e..];
            rest.is_empty()
                || rest.starts_with(" |")
                || rest.starts_with(" by")
                || rest.starts_with('\n')
                || rest.starts_with('"')
        })
        .collect();
    if lits.is_empty() { apps } else { lits }
}

/// Word tokens (identifiers and numbers) of `s`, as byte ranges.
fn words(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if is_word(b[i]) {
            let st = i;
            while i < b.len() && is_word(b[i]) {
                i += 1;
            }
            out.push((st, i));
        } else {
            i += 1;
        }
    }
    out
}

/// `text` with every variable-like word (capital first letter) renamed to
/// `<name>_<k>`.
fn rename_apart(text: &str, k: u32) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut last = 0;
    for (s, e) in words(text) {
        out.push_str(&text[last..s]);
        let w = &text[s..e];
        out.push_str(w);
        if w.as_bytes()[0].is_ascii_uppercase() {
            out.push_str(&format!("_{k}"));
        }
        last = e;
    }
    out.push_str(&text[last..]);
    out
}

/// Distinct variable-like words (capital first letter) of `text`.
pub fn distinct_variables(text: &str) -> usize {
    let mut v: Vec<&str> = words(text)
        .into_iter()
        .map(|(s, e)| &text[s..e])
        .filter(|w| w.as_bytes()[0].is_ascii_uppercase())
        .collect();
    v.sort_unstable();
    v.dedup();
    v.len()
}

/// Huge numbers for [`Hostile::HugeNumbers`].
const HUGE: &[&str] = &[
    "18446744073709551616",
    "340282366920938463463374607431768211457",
    "99999999999999999999999999999999999999999999999999999999999999",
    "4294967296",
    "9223372036854775808",
    "1e999999",
];

/// Hostile answers are cut at this many bytes (a model's answer is
/// bounded by its generation length; work linear in a longer text is not a
/// finding).
pub const MAX_ANSWER: usize = 4 << 20;

/// Builds the hostile answer and a short description of it (its class
/// first: `many variables`, `long clause`, `deep term`, ...; the known-fault
/// list matches on it).
pub fn build(gold: &str, h: &Hostile) -> (String, String) {
    let (mut a, mut d) = build_uncut(gold, h);
    if a.len() > MAX_ANSWER {
        let mut k = MAX_ANSWER;
        while !a.is_char_boundary(k) {
            k -= 1;
        }
        a.truncate(k);
        d.push_str(" (cut at 4 MiB)");
    }
    (a, d)
}

fn build_uncut(gold: &str, h: &Hostile) -> (String, String) {
    match h {
        Hostile::Clause { site, lits, fresh } => {
            let sites = literal_sites(gold);
            let (at, lit) = match sites.get(site.index(sites.len().max(1))) {
                Some(&(s, e)) if !sites.is_empty() => (e, gold[s..e].to_string()),
                _ => (gold.len(), "p(X)".to_string()),
            };
            let lit = lit.trim_start_matches('~');
            let mut extra = String::with_capacity((lit.len() + 8) * *lits as usize);
            for k in 0..*lits {
                extra.push_str(" | ");
                if *fresh {
                    extra.push_str(&rename_apart(lit, k));
                } else {
                    extra.push_str(lit);
                }
            }
            let answer = format!("{}{extra}{}", &gold[..at], &gold[at..]);
            let vars = distinct_variables(&extra);
            let class = if vars >= 24 {
                "many variables"
            } else if *lits >= 100 {
                "long clause"
            } else {
                "clause"
            };
            let d = format!("{class}: {lits} literals added ({vars} distinct variables)");
            (answer, d)
        }
        Hostile::Deep { site, depth } => {
            let ws = words(gold);
            let (s, e) = ws
                .get(site.index(ws.len().max(1)))
                .copied()
                .unwrap_or((0, 0));
            let d = *depth as usize;
            let inner = if s == e { "a" } else { &gold[s..e] };
            let answer = format!(
                "{}{}{inner}{}{}",
                &gold[..s],
                "f(".repeat(d),
                ")".repeat(d),
                &gold[e..]
            );
            (answer, format!("deep term: nesting {depth}"))
        }
        Hostile::HugeNumbers(i) => {
            let big = HUGE[i.index(HUGE.len())];
            let mut out = String::new();
            let mut in_num = false;
            for c in gold.chars() {
                if c.is_ascii_digit() {
                    if !in_num {
                        out.push_str(big);
                    }
                    in_num = true;
                } else {
                    in_num = false;
                    out.push(c);
                }
            }
            (out, format!("huge numbers: every number {big}"))
        }
        Hostile::Steps { line, times } => {
            let lines: Vec<&str> = gold.lines().filter(|l| !l.trim().is_empty()).collect();
            let l = lines
                .get(line.index(lines.len().max(1)))
                .copied()
                .unwrap_or("S1: p(X) by P1");
            let mut out = gold.trim_end().to_string();
            for k in 1..=*times {
                out.push('\n');
                out.push_str(&bump_first_number(l, k));
            }
            out.push('\n');
            (out, format!("huge step count: {times} more lines"))
        }
        Hostile::LongLine { site, len } => {
            let lines: Vec<&str> = gold.split('\n').collect();
            // A line with content (a step, not a heading or a blank) where
            // there is one.
            let full: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].len() >= 8).collect();
            let k = if full.is_empty() {
                site.index(lines.len())
            } else {
                full[site.index(full.len())]
            };
            let unit = if lines[k].is_empty() { "a" } else { lines[k] };
            // Within the cap, so that the rest of the answer stays whole.
            let len = (*len as usize).min(MAX_ANSWER.saturating_sub(gold.len() + unit.len() + 2));
            let reps = len.div_ceil(unit.len() + 1).max(1);
            let long = vec![unit; reps].join(" ");
            let mut out: Vec<&str> = lines.clone();
            out.insert(k, &long);
            (out.join("\n"), format!("long line: {} bytes", long.len()))
        }
        Hostile::ManyLines(n) => {
            // Lines of at most 40 bytes, so that many fit.
            let lines: Vec<&str> = gold
                .lines()
                .map(|l| {
                    let mut k = l.len().min(40);
                    while !l.is_char_boundary(k) {
                        k -= 1;
                    }
                    &l[..k]
                })
                .collect();
            let lines = if lines.is_empty() { vec![""] } else { lines };
            let out: Vec<&str> = (0..*n as usize).map(|i| lines[i % lines.len()]).collect();
            (out.join("\n"), format!("many lines: {n}"))
        }
        Hostile::Nul { at, n } => {
            let cs: Vec<char> = gold.chars().collect();
            let k = at.index(cs.len() + 1);
            let out = format!(
                "{}{}{}",
                cs[..k].iter().collect::<String>(),
                "\0".repeat(*n as usize),
                cs[k..].iter().collect::<String>()
            );
            (out, format!("NUL bytes: {n}"))
        }
        Hostile::InvalidUtf8(at) => {
            let mut b = gold.as_bytes().to_vec();
            let k = at.index(b.len() + 1);
            b.splice(k..k, [0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]);
            (
                String::from_utf8_lossy(&b).into_owned(),
                "invalid UTF-8 (read lossily)".into(),
            )
        }
        Hostile::Json { node, n } => json_blowup(gold, node, *n),
    }
}

/// `line` with its first number increased by `k` (unchanged when it has no
/// number that fits in a u64).
fn bump_first_number(line: &str, k: u32) -> String {
    let b = line.as_bytes();
    let Some(s) = b.iter().position(u8::is_ascii_digit) else {
        return line.to_string();
    };
    let e = s + b[s..].iter().take_while(|c| c.is_ascii_digit()).count();
    match line[s..e].parse::<u64>() {
        Ok(x) => format!(
            "{}{}{}",
            &line[..s],
            x.saturating_add(u64::from(k)),
            &line[e..]
        ),
        Err(_) => line.to_string(),
    }
}

fn json_blowup(gold: &str, node: &Index, n: u32) -> (String, String) {
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(gold.trim()) else {
        let out = vec![gold; n as usize].join("\n");
        return (out, format!("repeated answer: {n} copies"));
    };
    let mut ptrs = vec![String::new()];
    pointers(&doc, String::new(), &mut ptrs);
    let p = &ptrs[node.index(ptrs.len())];
    let node = doc.pointer_mut(p).expect("a pointer of the document");
    let what = match std::mem::take(node) {
        serde_json::Value::Array(a) if !a.is_empty() => {
            let len = a.len();
            *node = serde_json::Value::Array((0..n as usize).map(|i| a[i % len].clone()).collect());
            format!("JSON array at {p:?} cycled to {n} elements")
        }
        serde_json::Value::String(s) => {
            let d = n.min(10_000) as usize;
            *node = format!("{}{s}{}", "f(".repeat(d), ")".repeat(d)).into();
            format!("JSON string at {p:?} nested {d} deep")
        }
        serde_json::Value::Number(_) => {
            *node = serde_json::Value::from(1e308);
            format!("JSON number at {p:?} made 1e308")
        }
        other => {
            *node = serde_json::Value::Array(vec![other; n as usize]);
            format!("JSON node at {p:?} repeated {n} times")
        }
    };
    (doc.to_string(), format!("blown-up JSON: {what}"))
}

fn pointers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        _ => {}
    }
}

#[test]
fn hostile_clauses_have_many_variables() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut ix = || any::<Index>().new_tree(&mut runner).unwrap().current();
    let gold = "S1: member(X0,X1) | subset(X1,X2) by P1, P2\n";
    let h = Hostile::Clause {
        site: ix(),
        lits: 48,
        fresh: true,
    };
    let (a, d) = build(gold, &h);
    assert!(d.starts_with("many variables"), "{d}");
    let line = a.lines().next().unwrap();
    assert!(distinct_variables(line) >= 40, "{line}");
    assert!(line.ends_with(" by P1, P2"), "{line}");
    let (a, _) = build(
        gold,
        &Hostile::Steps {
            line: ix(),
            times: 3,
        },
    );
    assert!(a.contains("\nS4: member"), "{a}");
}
