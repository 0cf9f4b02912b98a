//! The one answer extractor every task shares: it turns a model's raw reply
//! into the answer proper before the family's scorer reads it.
//!
//! Models wrap answers: `<answer>…</answer>` tags, a final `Answer:` or
//! `Final answer:` line, `\boxed{…}`, a code fence, reasoning with the
//! answer on its last line, Markdown emphasis (`**True**`, `*True*`,
//! `__True__`), quotes and a trailing period. [`extract`] peels these
//! wrappers one at a time until none is left. What counts as "the answer
//! inside prose" depends on the task's [`AnswerShape`], which each family
//! declares per config (`TaskFamily::answer_shape`); `pipeline::score`
//! calls [`extract`] in one place, so no scorer sees the wrappers.
//!
//! Each round removes one wrapper. First the explicit ones:
//!
//! - tags: the last `<answer>` up to the next `</answer>` (an unclosed last
//!   `<answer>` takes the rest of the text);
//! - marker: the last line that starts with `Answer:` or `Final answer:`
//!   (emphasis and heading marks around them allowed); one-line shapes take
//!   the rest of that paragraph, the others everything after the marker;
//! - fence: a code fence that ends the text (its language tag dropped);
//! - boxed: the last `\boxed{…}`, braces balanced;
//! - JSON answer object: the last top-level JSON object whose one key is
//!   `answer` (what [`super::format::AnswerFormat::Json`] asks for): a
//!   string value gives that string, any other value its JSON text as
//!   written (so `{"answer": {"correct": true}}` gives the inner object).
//!
//! Of those found, the outermost wins (one that starts inside another is
//! skipped), and of several in a row the last, so `Answer: \boxed{True}`
//! and `\boxed{Answer: True}` both peel from the outside in. When none is
//! left: a lone fence line at the start or end is dropped; then the prose
//! rule of the shape applies (the last line, or the first after a marker,
//! for a word or a list, with `the answer is X` and the last `[…]` of a
//! line read too; the last JSON object that parses; the last paragraph of
//! graph lines; sections from the last line that opens the first section);
//! last, for a word or a list only, decoration goes: emphasis, backticks,
//! quotes, `\text{…}`, a trailing period.
//!
//! Extraction never fails: when nothing applies, the text is passed on as
//! it is and the scorer decides whether it is well formed. Every rule keeps
//! one part of the reply, chosen by its position and never by how it would
//! score, so a reply that offers several answers gains nothing by it.

/// What an answer of a config looks like, so that [`extract`] knows which
/// part of a reply in prose is the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerShape {
    /// One word, such as `True` or `False`.
    Word,
    /// A list on one line, such as `[1, 4]`.
    List,
    /// One JSON object (it may span lines).
    Json,
    /// Lines without a blank line between them, such as `3 <- 1, 2` per
    /// derived clause: in prose, the last paragraph.
    Lines,
    /// Sections separated by blank lines, the first opened by a line that
    /// starts with the given text (`GAP-1`): in prose, the text from the
    /// last such line on.
    Sections(&'static str),
    /// Free text: only the explicit wrappers (tags, marker, fence, boxed)
    /// are removed.
    Text,
}

impl AnswerShape {
    /// Whether the answer fits on one line (word, list).
    fn one_line(self) -> bool {
        matches!(self, AnswerShape::Word | AnswerShape::List)
    }
}

/// Most peeling rounds; every round shortens the text, so this only bounds
/// work on adversarial input.
const MAX_ROUNDS: usize = 32;

/// The answer proper inside `raw`, for an answer of `shape` (see the
/// module's rules). Surrounding whitespace is trimmed.
pub fn extract(raw: &str, shape: AnswerShape) -> String {
    let mut text = raw.trim().to_string();
    let mut after_marker = false;
    for _ in 0..MAX_ROUNDS {
        match peel(&text, shape, &mut after_marker) {
            Some(next) if next.trim() != text && !next.trim().is_empty() => {
                text = next.trim().to_string();
            }
            _ => break,
        }
    }
    text
}

/// An explicit wrapper found in the text: where it starts and ends (byte
/// offsets) and what it holds.
struct Found {
    start: usize,
    end: usize,
    content: String,
}

/// One round: the outermost explicit wrapper (tags, marker, fence, boxed)
/// that is not inside another one, the last such when several follow each
/// other; else the shape's prose rule; else decoration.
fn peel(text: &str, shape: AnswerShape, after_marker: &mut bool) -> Option<String> {
    let found = [
        answer_tags(text),
        marker(text, shape),
        final_fence(text),
        boxed(text),
        json_answer(text),
    ];
    let inside = |c: &Found| {
        found
            .iter()
            .flatten()
            .any(|d| d.start < c.start && c.start < d.end)
    };
    let pick = found
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.as_ref().map(|f| (i, f)))
        .filter(|(_, f)| !inside(f))
        .max_by_key(|(_, f)| f.start);
    if let Some((i, f)) = pick {
        if i == 1 {
            *after_marker = true;
        }
        return Some(f.content.clone());
    }
    if let Some(t) = lone_fence(text) {
        return Some(t);
    }
    if let Some(t) = prose(text, shape, *after_marker) {
        return Some(t);
    }
    if shape.one_line() {
        return decoration(text);
    }
    None
}

/// Non-empty trimmed text, or `None`.
fn nonempty(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// The lines of `text` with their byte offsets.
fn lines_at(text: &str) -> Vec<(usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n')
        .map(|l| {
            let start = at;
            at += l.len();
            (start, l.trim_end_matches(['\n', '\r']))
        })
        .collect()
}

/// The last `<answer>` up to the next `</answer>` (tag names in any case);
/// an unclosed last `<answer>` takes the rest of the text.
fn answer_tags(text: &str) -> Option<Found> {
    const OPEN: &str = "<answer>";
    const CLOSE: &str = "</answer>";
    // ASCII lower-casing keeps byte offsets, so positions index `text`.
    let lower = text.to_ascii_lowercase();
    let start = lower.rfind(OPEN)?;
    let body = start + OPEN.len();
    // The first closing tag after the last opening one: nested pairs give
    // the innermost answer.
    let (content, end) = match lower[body..].find(CLOSE) {
        Some(close) => (&text[body..body + close], body + close + CLOSE.len()),
        None => (&text[body..], text.len()),
    };
    Some(Found {
        start,
        end,
        content: nonempty(content)?,
    })
}

/// What follows `Answer:` / `Final answer:` at the start of a line, with
/// emphasis, heading and quote marks around the words allowed.
fn marker_rest(line: &str) -> Option<&str> {
    let s = line.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '#' | '*' | '_' | '>' | '-')
    });
    let lower = s.to_ascii_lowercase();
    let after = if lower.starts_with("final answer") {
        &s["final answer".len()..]
    } else if lower.starts_with("answer") {
        &s["answer".len()..]
    } else {
        return None;
    };
    let after = after.trim_start_matches([' ', '*', '_']);
    let after = after.strip_prefix(':')?;
    if after.starts_with('=') {
        // `answer := ...` names a result in a proof; it is not a marker.
        return None;
    }
    Some(after.trim_start_matches(['*', '_']))
}

/// The answer after the last marker line: the rest of its paragraph for a
/// one-line shape, everything after the marker for the others.
fn marker(text: &str, shape: AnswerShape) -> Option<Found> {
    let lines = lines_at(text);
    let (i, rest) = lines
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, (_, l))| marker_rest(l).map(|r| (i, r)))?;
    let mut out = vec![rest];
    let mut end = lines[i].0 + lines[i].1.len();
    if shape.one_line() {
        let mut started = !rest.trim().is_empty();
        for (at, l) in &lines[i + 1..] {
            if l.trim().is_empty() {
                if started {
                    break;
                }
                continue;
            }
            started = true;
            out.push(l);
            end = at + l.len();
        }
    } else {
        out.extend(lines[i + 1..].iter().map(|(_, l)| *l));
        end = text.len();
    }
    Some(Found {
        start: lines[i].0,
        end,
        content: nonempty(&out.join("\n"))?,
    })
}

/// Whether a line opens or closes a code fence: three backticks and at
/// most a language tag.
fn is_fence(line: &str) -> bool {
    line.trim().strip_prefix("```").is_some_and(|tag| {
        tag.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+'))
    })
}

/// The content of a code fence that ends the text (only whitespace after
/// it); a fence written on one line (```` ```True``` ````) counts.
fn final_fence(text: &str) -> Option<Found> {
    let lines = lines_at(text);
    let last = lines.len().checked_sub(1)?;
    let l = lines[last].1.trim();
    let whole = |content: &str| {
        Some(Found {
            start: 0,
            end: text.len(),
            content: nonempty(content)?,
        })
    };
    if lines.len() == 1 && l.len() > 6 && l.starts_with("```") && l.ends_with("```") {
        return whole(&l[3..l.len() - 3]);
    }
    if !is_fence(l) {
        return None;
    }
    let fences: Vec<usize> = (0..lines.len()).filter(|&i| is_fence(lines[i].1)).collect();
    let body =
        |from: usize, to: usize| -> Vec<&str> { lines[from..to].iter().map(|(_, l)| *l).collect() };
    if fences.len() < 2 {
        return None;
    }
    let open = fences[fences.len() - 2];
    Some(Found {
        start: lines[open].0,
        end: text.len(),
        content: nonempty(&body(open + 1, last).join("\n"))?,
    })
}

/// The text without its one fence line when that line is the first or the
/// last (the other half of the pair was left behind by a marker that
/// opened the fence on its own line).
fn lone_fence(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let fences: Vec<usize> = (0..lines.len()).filter(|&i| is_fence(lines[i])).collect();
    match fences[..] {
        [0] => nonempty(&lines[1..].join("\n")),
        [i] if i + 1 == lines.len() => nonempty(&lines[..i].join("\n")),
        _ => None,
    }
}

/// The content of the last `\boxed{…}`, braces balanced (outside double
/// quotes); `None` when the braces never close.
fn boxed(text: &str) -> Option<Found> {
    const OPEN: &str = "\\boxed{";
    let start = text.rfind(OPEN)?;
    let body = start + OPEN.len();
    let mut depth = 1usize;
    // Braces inside a JSON string (`"offendingLine": "assume A {"`) do not
    // count.
    let (mut in_string, mut escaped) = (false, false);
    for (i, c) in text[body..].char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(Found {
                        start,
                        end: body + i + 1,
                        content: nonempty(&text[body..body + i])?,
                    });
                }
            }
            _ => {}
        }
    }
    None
}

/// The last top-level JSON object of the text whose only key is `answer`:
/// a string value is unescaped, any other value is kept as the text written
/// between the colon and the closing brace (so an inner object keeps its key
/// order and spacing).
fn json_answer(text: &str) -> Option<Found> {
    json_objects(text)
        .filter_map(|(a, b, map)| {
            let value = map.get("answer").filter(|_| map.len() == 1)?;
            let content = match value {
                serde_json::Value::String(s) => s.clone(),
                v => written_value(&text[a..b]).map_or_else(|| v.to_string(), str::to_string),
            };
            Some(Found {
                start: a,
                end: b,
                content: nonempty(&content)?,
            })
        })
        .last()
}

/// The top-level JSON objects of `text` that parse, in order, with their
/// byte spans: each scan resumes after the object it found, or one byte
/// after a `{` that starts none.
fn json_objects(
    text: &str,
) -> impl Iterator<Item = (usize, usize, serde_json::Map<String, serde_json::Value>)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while let Some(off) = text[i..].find('{') {
            let a = i + off;
            let mut stream =
                serde_json::Deserializer::from_str(&text[a..]).into_iter::<serde_json::Value>();
            if let Some(Ok(serde_json::Value::Object(map))) = stream.next() {
                let b = a + stream.byte_offset();
                i = b;
                return Some((a, b, map));
            }
            i = a + 1;
        }
        None
    })
}

/// The value of a one-key object `{"answer": VALUE}` as written: the text
/// after the key's colon up to the closing brace; `None` when the key is
/// not written plainly (escapes).
fn written_value(object: &str) -> Option<&str> {
    let inner = object.strip_prefix('{')?.strip_suffix('}')?.trim_start();
    let rest = inner.strip_prefix("\"answer\"")?.trim_start();
    Some(rest.strip_prefix(':')?.trim())
}

/// The shape-specific part of a reply in prose.
fn prose(text: &str, shape: AnswerShape, after_marker: bool) -> Option<String> {
    match shape {
        AnswerShape::Word | AnswerShape::List => {
            let mut lines = text.lines().filter(|l| !l.trim().is_empty());
            let line = if after_marker {
                lines.next()?
            } else {
                lines.next_back()?
            };
            if line.trim() != text {
                return nonempty(line);
            }
            if shape == AnswerShape::List {
                if let Some(list) = last_bracket_group(line) {
                    return (list != line.trim()).then_some(list);
                }
            }
            let lower = line.to_ascii_lowercase();
            let at = lower.rfind("answer is ")?;
            nonempty(&line[at + "answer is ".len()..])
        }
        AnswerShape::Json => {
            let (a, b) = last_json_object(text)?;
            (a > 0 || b < text.len()).then(|| text[a..b].to_string())
        }
        AnswerShape::Lines => {
            let lines: Vec<&str> = text.lines().collect();
            let blank = lines.iter().rposition(|l| l.trim().is_empty())?;
            nonempty(&lines[blank + 1..].join("\n"))
        }
        AnswerShape::Sections(head) => {
            let lines: Vec<&str> = text.lines().collect();
            let at = lines
                .iter()
                .rposition(|l| l.trim_start().starts_with(head))?;
            (at > 0).then(|| lines[at..].join("\n"))
        }
        AnswerShape::Text => None,
    }
}

/// The last `[…]` group of a line (no nesting).
fn last_bracket_group(line: &str) -> Option<String> {
    let close = line.rfind(']')?;
    let open = line[..close].rfind('[')?;
    Some(line[open..=close].to_string())
}

/// Byte span of the last top-level JSON object in `text` that parses.
fn last_json_object(text: &str) -> Option<(usize, usize)> {
    json_objects(text).last().map(|(a, b, _)| (a, b))
}

/// Emphasis, backticks, quotes, `\text{…}` and a trailing period around a
/// one-line answer.
fn decoration(text: &str) -> Option<String> {
    let mut s = text.trim();
    for wrap in ["\\text{", "\\textbf{", "\\mathrm{", "\\mathbf{"] {
        if let Some(inner) = s.strip_prefix(wrap).and_then(|r| r.strip_suffix('}')) {
            return nonempty(inner);
        }
    }
    s = s.trim_end_matches(['.', '!']);
    let marks = |c: char| matches!(c, '*' | '_' | '`' | '"' | '\'' | '“' | '”' | '‘' | '’');
    s = s.trim_start_matches(marks).trim_end_matches(marks);
    let s = s.trim();
    (s != text.trim() && !s.is_empty()).then(|| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::AnswerShape::*;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_issue_formats_give_the_word() {
        for raw in [
            "True",
            "True.",
            "Answer: True",
            "Final answer: True",
            "**Final Answer:** True",
            "**True**",
            "*True*",
            "__True__",
            "`True`",
            "\"True\"",
            "<answer>True</answer>",
            "<ANSWER> True </ANSWER>",
            "Let me check the premises.\nThey entail the conclusion.\n\nTrue",
            "```\nTrue\n```",
            "\\boxed{True}",
            "\\boxed{\\text{True}}",
            "The answer is **True**.",
            "Answer: True\n\nBecause every premise is used.",
            "<answer>False</answer> is what I first thought; no:\n<answer>True</answer>",
        ] {
            assert_eq!(extract(raw, Word), "True", "{raw:?}");
        }
    }

    #[test]
    fn prose_without_an_answer_is_passed_on() {
        assert_eq!(extract("I am not sure.", Word), "I am not sure");
        assert_eq!(extract("", Word), "");
        // A word not on the last line is not guessed at.
        assert_eq!(extract("True\nor maybe not", Word), "or maybe not");
    }

    #[test]
    fn lists_are_read_from_prose() {
        for raw in [
            "[1, 4]",
            "[1, 4].",
            "So the smallest set is [1, 4].",
            "Answer: **[1, 4]**",
            "<answer>[1, 4]</answer>",
            "\\boxed{[1, 4]}",
            "reasoning [2] is not enough\n\n[1, 4]",
        ] {
            assert_eq!(extract(raw, List), "[1, 4]", "{raw:?}");
        }
    }

    #[test]
    fn json_objects_are_found() {
        let j = r#"{"correct": false, "errorDetails": {"step": 2}}"#;
        for raw in [
            j.to_string(),
            format!("```json\n{j}\n```"),
            format!("I check each step {{like this}}.\n\n{j}"),
            format!("<answer>{j}</answer>"),
            format!("\\boxed{{{j}}}"),
            format!("Final answer:\n```json\n{j}\n```"),
            format!("{{\"draft\": 1}}\nOn reflection:\n{j}"),
        ] {
            assert_eq!(extract(&raw, Json), j, "{raw:?}");
        }
    }

    #[test]
    fn braces_in_json_strings_do_not_close_a_box() {
        let k = r#"{"correct": false, "errorDetails": {"offendingLine": "assume A {"}}"#;
        assert_eq!(extract(&format!("\\boxed{{{k}}}"), Json), k);
        let k = r#"{"proof": "say \"}\" then"}"#;
        assert_eq!(extract(&format!("\\boxed{{{k}}}"), Json), k);
    }

    #[test]
    fn graph_lines_and_sections_survive() {
        let g = "3 <- 1, 2\n5 <- 3, 4";
        assert_eq!(extract(&format!("I start at 3.\n\n{g}\n"), Lines), g);
        assert_eq!(extract(&format!("Answer:\n{g}"), Lines), g);
        assert_eq!(extract(&format!("```\n{g}\n```"), Lines), g);
        let s = "GAP-1:\nA from premise-1\n\nGAP-2:\nB from A";
        let shape = Sections("GAP-1:");
        assert_eq!(extract(s, shape), s);
        assert_eq!(extract(&format!("First GAP-1 then.\n\n{s}"), shape), s);
        assert_eq!(extract(&format!("<answer>\n{s}\n</answer>"), shape), s);
        // A proof that names a result `answer` is not cut at it.
        let p = "answer := (A & B) from premise-1\nB from answer";
        assert_eq!(extract(p, Text), p);
    }

    #[test]
    fn wrong_answers_stay_wrong() {
        assert_eq!(extract("**False**", Word), "False");
        assert_eq!(extract("Answer: [2, 3]", List), "[2, 3]");
        assert_eq!(extract("Not true.", Word), "Not true");
    }

    /// A reply of `shape` around `answer`: inline decorations first (one-line
    /// shapes), then outer wrappers in the order drawn.
    fn wrap(answer: &str, shape: AnswerShape, inline: &[u8], outer: &[u8]) -> String {
        let mut t = answer.to_string();
        if shape.one_line() {
            for &d in inline {
                t = match d % 6 {
                    0 => format!("**{t}**"),
                    1 => format!("*{t}*"),
                    2 => format!("__{t}__"),
                    3 => format!("\"{t}\""),
                    4 => format!("{t}."),
                    _ => format!("`{t}`"),
                };
            }
        }
        let mut had_prose = false;
        for &w in outer {
            t = match w % 8 {
                0 => format!("<answer>{t}</answer>"),
                1 if !(shape.one_line() && had_prose) => format!("Answer: {t}"),
                2 if !(shape.one_line() && had_prose) => format!("**Final Answer:**\n{t}"),
                // Markdown fences do not nest.
                3 if !t.contains("```") => format!("```\n{t}\n```"),
                4 if !t.contains("```") => format!("```json\n{t}\n```"),
                5 => format!("\\boxed{{{t}}}"),
                6 => {
                    had_prose = true;
                    format!("Let me think step by step.\nThe premises are short.\n\n{t}")
                }
                7 if shape.one_line() && !t.contains('\n') => format!("**{t}**"),
                _ => t,
            };
        }
        t
    }

    fn shape_and_answer() -> impl Strategy<Value = (AnswerShape, String)> {
        prop_oneof![
            prop_oneof![Just("True"), Just("False")].prop_map(|a| (Word, a.to_string())),
            proptest::collection::vec(1usize..20, 1..5).prop_map(|v| {
                let parts: Vec<String> = v.iter().map(|i| i.to_string()).collect();
                (List, format!("[{}]", parts.join(", ")))
            }),
            (any::<bool>(), 0u32..9).prop_map(|(b, n)| (
                Json,
                format!(r#"{{"correct": {b}, "errorDetails": {{"line": {n}, "kind": "logic"}}}}"#)
            )),
            proptest::collection::vec((1usize..30, 1usize..30, 1usize..30), 1..4).prop_map(|v| {
                let lines: Vec<String> = v
                    .iter()
                    .map(|(c, a, b)| format!("{c} <- {a}, {b}"))
                    .collect();
                (Lines, lines.join("\n"))
            }),
            (1usize..4).prop_map(|n| {
                let secs: Vec<String> = (1..=n)
                    .map(|i| format!("GAP-{i}:\nA{i} from premise-{i}"))
                    .collect();
                (Sections("GAP-1:"), secs.join("\n\n"))
            }),
        ]
    }

    proptest! {
        #[test]
        fn any_wrapping_gives_the_answer_back(
            (shape, answer) in shape_and_answer(),
            inline in proptest::collection::vec(0u8..6, 0..3),
            outer in proptest::collection::vec(0u8..8, 0..5),
        ) {
            let raw = wrap(&answer, shape, &inline, &outer);
            prop_assert_eq!(extract(&raw, shape), answer, "{:?}", raw);
        }

        #[test]
        fn never_panics_on_any_text(s in "\\PC{0,200}", k in 0u8..6) {
            let shape = [Word, List, Json, Lines, Sections("GAP-1:"), Text][k as usize];
            let _ = extract(&s, shape);
        }
    }
}
