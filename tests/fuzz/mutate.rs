//! Structure-aware mutations for the fuzzing harness: text is cut into
//! tokens (words, numbers, quoted items, punctuation, blanks, comments) and
//! edited token by token or byte by byte; every edit is a proptest value, so
//! a failing case shrinks to few, simple edits.

use proptest::prelude::*;
use proptest::sample::Index;

/// One edit of a token sequence or of its bytes.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Delete the token at the index.
    Delete(Index),
    /// Repeat the token at the index.
    Duplicate(Index),
    /// Swap two tokens.
    Swap(Index, Index),
    /// Put a token of the dictionary before the token at the index.
    Insert(Index, Index),
    /// Replace the token at the index by a token of the dictionary.
    Replace(Index, Index),
    /// Wrap the token at the index in `depth` applications of `f(...)`.
    Nest(Index, u32),
    /// Put `depth` opening parentheses (without closing ones) at the index.
    OpenParens(Index, u32),
    /// Replace the token at the index by a huge number.
    HugeNumber(Index, Index),
    /// Replace the token at the index by an odd quoted item.
    OddQuote(Index, Index),
    /// Repeat the token at the index `n` times (long tokens, long lists).
    Repeat(Index, u16),
    /// XOR one byte.
    FlipByte(Index, u8),
    /// Insert one byte.
    InsertByte(Index, u8),
    /// Delete a run of bytes.
    DeleteBytes(Index, u8),
    /// Cut the text at a byte.
    Truncate(Index),
}

/// Extra tokens the mutations draw from (besides the text's own): TPTP
/// keywords and connectives, and the includes of the fuzz folder's files.
pub const DICTIONARY: &[&str] = &[
    "cnf",
    "fof",
    "tff",
    "thf",
    "include",
    "(",
    ")",
    "[",
    "]",
    ",",
    ".",
    "|",
    "~",
    "=",
    "!=",
    "&",
    "=>",
    "<=>",
    ":",
    "$true",
    "$false",
    "$$w",
    "$distinct",
    "axiom",
    "conjecture",
    "negated_conjecture",
    "hypothesis",
    "plain",
    "unknown",
    "X",
    "Y1",
    "_",
    "f",
    "g(X)",
    "'q'",
    "\"d\"",
    "-1",
    "1/2",
    "1.5e3",
    "0",
    "%c\n",
    "/* c */",
    "/*",
    "\n",
    " ",
    "\t",
    "\r",
    "include('missing.ax').",
    "include('self.p').",
    "include('loop_a.ax').",
    "include('other.ax',[c1,c2]).",
    "include('other.ax',*).",
    "include('/etc/hostname').",
    "include('').",
    "include('Axioms/SET001-0.ax').",
    "include('main.p').",
    "cnf(x,axiom,p(X)|~q(X,Y)).",
    "cnf(y,axiom,$false).",
    "cnf(z,axiom,a=b).",
];

/// Huge or odd numbers.
pub const NUMBERS: &[&str] = &[
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775808",
    "-9223372036854775809",
    "4294967296",
    "99999999999999999999999999999999999999999999999999",
    "1e999999",
    "-0",
    "0/0",
    "1/0",
    "00000000000000000001",
    "1.",
    ".5",
    "1e",
    "+7",
];

/// Odd quoted items: unterminated, escapes, control characters, unicode.
pub const QUOTES: &[&str] = &[
    "'",
    "\"",
    "'a\\'",
    "'\\",
    "'\\q'",
    "\"\\\"\"",
    "''",
    "\"\"",
    "'a\nb'",
    "'\u{0}'",
    "'\u{7f}'",
    "'é'",
    "\"日本\"",
    "'\u{202e}x'",
    "'a''b'",
    "'\\\\'",
    "\"a\\nb\"",
];

/// Edits, weighted towards token-level ones.
pub fn edit() -> impl Strategy<Value = Edit> {
    edit_nested(200_000)
}

/// Edits whose nesting stays below `max_depth` (for readers with a known
/// depth limit of their own).
pub fn edit_nested(max_depth: u32) -> impl Strategy<Value = Edit> {
    let d = |x: u32| x.min(max_depth);
    prop_oneof![
        3 => any::<Index>().prop_map(Edit::Delete),
        2 => any::<Index>().prop_map(Edit::Duplicate),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        3 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Insert(a, b)),
        3 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Replace(a, b)),
        1 => (any::<Index>(), prop_oneof![1u32..d(64), d(64)..d(4096), Just(d(200_000))])
            .prop_map(|(a, d)| Edit::Nest(a, d)),
        1 => (any::<Index>(), prop_oneof![1u32..d(64), Just(d(100_000))])
            .prop_map(|(a, d)| Edit::OpenParens(a, d)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::HugeNumber(a, b)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::OddQuote(a, b)),
        1 => (any::<Index>(), 2u16..2000).prop_map(|(a, n)| Edit::Repeat(a, n)),
        2 => (any::<Index>(), 1u8..=255).prop_map(|(a, x)| Edit::FlipByte(a, x)),
        1 => (any::<Index>(), any::<u8>()).prop_map(|(a, x)| Edit::InsertByte(a, x)),
        1 => (any::<Index>(), 1u8..64).prop_map(|(a, n)| Edit::DeleteBytes(a, n)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

/// Cuts text into tokens; concatenating them gives the text back.
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let cs: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let start = i;
        let c = cs[i];
        if c.is_alphanumeric() || c == '_' || c == '$' {
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_' || cs[i] == '$') {
                i += 1;
            }
        } else if c == '\'' || c == '"' {
            i += 1;
            while i < cs.len() && cs[i] != c && cs[i] != '\n' {
                if cs[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(cs.len());
        } else if c == '%' {
            while i < cs.len() && cs[i] != '\n' {
                i += 1;
            }
        } else if c.is_whitespace() {
            while i < cs.len() && cs[i].is_whitespace() {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push(cs[start..i].iter().collect());
    }
    out
}

fn pick<'a>(ix: &Index, xs: &'a [&'a str]) -> &'a str {
    xs[ix.index(xs.len())]
}

/// Applies edits to text. Token edits re-cut the current text; byte edits
/// may leave invalid UTF-8, so the result is bytes.
pub fn apply(text: &str, edits: &[Edit]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for e in edits {
        let byte_edit = matches!(
            e,
            Edit::FlipByte(..) | Edit::InsertByte(..) | Edit::DeleteBytes(..) | Edit::Truncate(_)
        );
        if byte_edit {
            apply_bytes(&mut bytes, e);
            continue;
        }
        let cur = String::from_utf8_lossy(&bytes).into_owned();
        let mut t = tokens(&cur);
        if t.is_empty() {
            t.push(String::new());
        }
        let n = t.len();
        match e {
            Edit::Delete(i) => {
                t.remove(i.index(n));
            }
            Edit::Duplicate(i) => {
                let k = i.index(n);
                let x = t[k].clone();
                t.insert(k, x);
            }
            Edit::Swap(a, b) => t.swap(a.index(n), b.index(n)),
            Edit::Insert(i, d) => t.insert(i.index(n), pick(d, DICTIONARY).to_string()),
            Edit::Replace(i, d) => t[i.index(n)] = pick(d, DICTIONARY).to_string(),
            Edit::Nest(i, depth) => {
                let k = i.index(n);
                let d = *depth as usize;
                t[k] = format!("{}{}{}", "f(".repeat(d), t[k], ")".repeat(d));
            }
            Edit::OpenParens(i, depth) => t.insert(i.index(n), "(".repeat(*depth as usize)),
            Edit::HugeNumber(i, d) => t[i.index(n)] = pick(d, NUMBERS).to_string(),
            Edit::OddQuote(i, d) => t[i.index(n)] = pick(d, QUOTES).to_string(),
            Edit::Repeat(i, r) => {
                let k = i.index(n);
                t[k] = t[k].repeat(*r as usize);
            }
            _ => unreachable!("byte edits are handled above"),
        }
        bytes = t.concat().into_bytes();
        bytes.truncate(MAX_LEN);
    }
    bytes
}

/// Mutated inputs are cut at this many bytes, so repeated edits cannot
/// grow them without bound.
pub const MAX_LEN: usize = 4 << 20;

fn apply_bytes(bytes: &mut Vec<u8>, e: &Edit) {
    if bytes.is_empty() {
        if let Edit::InsertByte(_, x) = e {
            bytes.push(*x);
        }
        return;
    }
    let n = bytes.len();
    match e {
        Edit::FlipByte(i, x) => bytes[i.index(n)] ^= x,
        Edit::InsertByte(i, x) => bytes.insert(i.index(n + 1), *x),
        Edit::DeleteBytes(i, k) => {
            let s = i.index(n);
            let end = (s + *k as usize).min(n);
            bytes.drain(s..end);
        }
        Edit::Truncate(i) => bytes.truncate(i.index(n)),
        _ => unreachable!("token edits are handled by apply"),
    }
}

#[test]
fn tokens_cut_text_losslessly() {
    let t = "cnf(a, axiom, p('x y') | ~q(\"s\\\"\", -1/2)). % c\n";
    assert_eq!(tokens(t).concat(), t);
    assert!(tokens(t).contains(&"'x y'".to_string()));
}
