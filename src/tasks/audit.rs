//! What a family hands the shortcut audit (`saturate audit`, DESIGN.md §9):
//! the rows of a config turned into labelled items, each with a bank of
//! surface features a reader can compute without any reasoning (counts,
//! lengths, verbatim membership, symbol overlap, positions), and the small
//! text helpers the families share to compute them.
//!
//! An item is the unit a shallow baseline predicts: a whole row for a
//! True/False task, one pool clause (gold or distractor) for premise
//! selection, one (derived clause, candidate parent) pair for
//! reconstruction. A task whose answer is a structure also hands over
//! [`ReaderAnswer`]s: fixed shallow readers' whole answers, compared with
//! the gold one part by part. Features see only what the prompt shows; hidden metadata (the generator's
//! own parameters) never becomes a feature, or the audit would measure
//! leakage that no model can use.

use std::collections::BTreeSet;

/// One labelled item of a row, with its surface features.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditItem {
    /// The class a baseline must predict (`True`, `gold`, `derived`, ...).
    pub label: String,
    /// Named feature values, in a fixed order for every item of a config.
    pub features: Vec<(&'static str, f64)>,
    /// The item's own text by section, for the learned text readers
    /// (`crate::audit::text`) when a row gives several items (a selection
    /// row's pool clause). Empty: an item that is the whole row is read
    /// through the prompt's sections
    /// ([`crate::tasks::family::TaskFamily::audit_sections`]); an item of
    /// a row with several and no text of its own is not read.
    pub text: Vec<(&'static str, String)>,
}

impl AuditItem {
    /// An item with no features yet.
    pub fn new(label: impl Into<String>) -> AuditItem {
        AuditItem {
            label: label.into(),
            features: Vec::new(),
            text: Vec::new(),
        }
    }

    /// Adds a section of the item's own text (builder style).
    pub fn with_text(mut self, section: &'static str, text: impl Into<String>) -> AuditItem {
        self.text.push((section, text.into()));
        self
    }

    /// Adds a feature (builder style).
    pub fn with(mut self, name: &'static str, value: f64) -> AuditItem {
        self.features.push((name, value));
        self
    }

    /// Adds a feature.
    pub fn push(&mut self, name: &'static str, value: f64) {
        self.features.push((name, value));
    }
}

/// A shallow reader's whole answer to a row whose answer is a structure
/// (a reconstruction graph), compared with the gold answer part by part.
/// Items judge one choice at a time against easy negatives; a reader
/// judges what a model must produce, the whole answer: a cell fails when
/// a reader solves more rows than the audit's margin allows (a constant
/// answer solves none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReaderAnswer {
    /// The reader's name (a fixed rule, such as `overlap`).
    pub reader: &'static str,
    /// Parts of the gold answer (derived clauses of a graph).
    pub parts: usize,
    /// Parts the reader got exactly right.
    pub right: usize,
}

impl ReaderAnswer {
    /// Whether every part is right: the reader solved the row.
    pub fn solved(&self) -> bool {
        self.parts > 0 && self.right == self.parts
    }
}

/// A canned answer of the exploit suite: what a policy that does not
/// reason could answer every row with (a constant label, the whole pool,
/// the premises repeated, the formula restated trivially, a position or
/// overlap rule). The audit scores it with the family's real scorer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploit {
    /// A short name, the same for every row of a config (`True`,
    /// `whole_pool`, `double_negation`...).
    pub name: String,
    /// The answer, as a model would write it.
    pub answer: String,
    /// Whether it is a constant answer (the same text for every row):
    /// the best constant's mean is the cell's baseline, and the others are
    /// judged against it.
    pub constant: bool,
}

impl Exploit {
    /// A constant answer.
    pub fn constant(name: impl Into<String>, answer: impl Into<String>) -> Exploit {
        Exploit {
            name: name.into(),
            answer: answer.into(),
            constant: true,
        }
    }

    /// An answer computed from the row's prompt without reasoning.
    pub fn new(name: impl Into<String>, answer: impl Into<String>) -> Exploit {
        Exploit {
            name: name.into(),
            answer: answer.into(),
            constant: false,
        }
    }
}

/// A prompt cut into its blank-line separated blocks, each named by its
/// header line when it has one (a first line ending in `:`, as
/// `Premises:`: the header's first three words, lower-cased, without the
/// colon and any parenthesis; the block is the lines after it) and
/// `text` otherwise; blocks of one name are joined. In order of first
/// appearance.
pub fn prompt_sections(prompt: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for block in prompt.split("\n\n") {
        let block = block.trim_matches('\n');
        if block.trim().is_empty() {
            continue;
        }
        let (first, rest) = block.split_once('\n').unwrap_or((block, ""));
        let (name, body) = if first.trim_end().ends_with(':') {
            let head = first
                .split('(')
                .next()
                .unwrap_or("")
                .trim()
                .trim_end_matches(':');
            let name: Vec<String> = head
                .split_whitespace()
                .take(3)
                .map(|w| w.to_ascii_lowercase())
                .collect();
            (name.join("_"), rest)
        } else {
            ("text".to_string(), block)
        };
        let name = if name.is_empty() { "text".into() } else { name };
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, b)) => {
                b.push('\n');
                b.push_str(body);
            }
            None => out.push((name, body.to_string())),
        }
    }
    out
}

/// The identifiers of a text (maximal runs of ASCII letters, digits and
/// `_`, starting with a letter), in order, repeats kept.
pub fn identifiers(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(&text[start..i]);
        } else if bytes[i].is_ascii_digit() || bytes[i] == b'_' {
            // A run of digits glued to nothing: skip it whole.
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The symbols of a first-order text in TPTP notation: identifiers that
/// start with a lower-case letter (functions, constants, predicates).
pub fn symbols(text: &str) -> BTreeSet<&str> {
    identifiers(text)
        .into_iter()
        .filter(|s| s.starts_with(|c: char| c.is_ascii_lowercase()))
        .collect()
}

/// The variables of a first-order text in TPTP notation (identifiers that
/// start with an upper-case letter), or the atoms of a propositional one.
pub fn upper_identifiers(text: &str) -> BTreeSet<&str> {
    identifiers(text)
        .into_iter()
        .filter(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
        .collect()
}

/// The top-level literals of a clause in TPTP CNF notation (split at `|`
/// outside parentheses), trimmed.
pub fn literals(clause: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in clause.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '|' if depth == 0 => {
                out.push(clause[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(clause[start..].trim());
    out.retain(|l| !l.is_empty());
    out
}

/// The deepest parenthesis nesting of a text.
pub fn nesting(text: &str) -> usize {
    nesting_of(text, '(', ')')
}

/// The deepest nesting of a text in the brackets `open` … `close`.
pub fn nesting_of(text: &str, open: char, close: char) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for c in text.chars() {
        if c == open {
            depth += 1;
            max = max.max(depth);
        } else if c == close {
            depth = depth.saturating_sub(1);
        }
    }
    max
}

/// |a ∩ b| / |a ∪ b|, 0 for two empty sets.
pub fn jaccard(a: &BTreeSet<&str>, b: &BTreeSet<&str>) -> f64 {
    let both = a.intersection(b).count();
    let either = a.len() + b.len() - both;
    if either == 0 {
        0.0
    } else {
        both as f64 / either as f64
    }
}

/// The mean of some values, 0 for none.
pub fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for v in values {
        sum += v;
        n += 1;
    }
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// The largest of some values, 0 for none.
pub fn max(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(0.0, f64::max)
}

/// A clause text with its variables renamed in order of first occurrence
/// (`X0`, `X1`, ...), so that two clauses equal up to variable names compare
/// equal: what a reader does when matching a clause against a list.
pub fn normalize_variables(clause: &str) -> String {
    let mut names: Vec<&str> = Vec::new();
    let mut out = String::with_capacity(clause.len());
    let bytes = clause.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let starts_ident = b.is_ascii_alphabetic() && (i == 0 || !is_ident_byte(bytes[i - 1]));
        if starts_ident {
            let start = i;
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
            let id = &clause[start..i];
            if b.is_ascii_uppercase() {
                let k = names.iter().position(|n| *n == id).unwrap_or_else(|| {
                    names.push(id);
                    names.len() - 1
                });
                out.push_str(&format!("X{k}"));
            } else {
                out.push_str(id);
            }
        } else {
            if !b.is_ascii_whitespace() {
                out.push(b as char);
            }
            i += 1;
        }
    }
    out
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The lines of a prompt after the line `header` up to the next blank
/// line (or the end), trimmed; empty when the header is missing.
pub fn section<'a>(prompt: &'a str, header: &str) -> Vec<&'a str> {
    let mut lines = prompt.lines();
    if !lines.by_ref().any(|l| l.trim_end() == header) {
        return Vec::new();
    }
    lines
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect()
}

/// The text of a prompt from the line after `header` to the end, or
/// `None` when the header is missing.
pub fn after<'a>(prompt: &'a str, header: &str) -> Option<&'a str> {
    let mut offset = 0;
    for line in prompt.split_inclusive('\n') {
        offset += line.len();
        if line.trim_end() == header {
            return Some(&prompt[offset..]);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_symbols_and_variables() {
        let c = "~member(X0,union_of(X1,a2)) | X0=f(X1)";
        assert_eq!(
            identifiers(c),
            vec!["member", "X0", "union_of", "X1", "a2", "X0", "f", "X1"]
        );
        assert_eq!(
            symbols(c).into_iter().collect::<Vec<_>>(),
            vec!["a2", "f", "member", "union_of"]
        );
        assert_eq!(upper_identifiers(c).len(), 2);
        assert_eq!(literals(c), vec!["~member(X0,union_of(X1,a2))", "X0=f(X1)"]);
        assert_eq!(nesting(c), 2);
    }

    #[test]
    fn variables_are_normalized_by_first_occurrence() {
        assert_eq!(
            normalize_variables("p(Y, X) | q(X)"),
            normalize_variables("p(A,B)|q(B)")
        );
        assert_ne!(normalize_variables("p(Y,X)"), normalize_variables("p(X,X)"));
        // Symbols that contain upper-case letters keep their names.
        assert_eq!(normalize_variables("aB(X)"), "aB(X0)");
    }

    #[test]
    fn prompts_are_cut_at_headers() {
        let p = "Intro text.\n\nPremises:\n- a\n- b\n\nBackground axioms (context only):\n- c\n\nAnswer True or False.\n";
        let s = prompt_sections(p);
        let names: Vec<&str> = s.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["text", "premises", "background_axioms"]);
        assert_eq!(s[0].1, "Intro text.\nAnswer True or False.");
        assert_eq!(s[1].1, "- a\n- b");
        assert_eq!(s[2].1, "- c");
    }

    #[test]
    fn sections_and_overlap() {
        let p = "Intro\n\nPremises:\n- a\n- b\n\nConclusion:\nc\n";
        assert_eq!(section(p, "Premises:"), vec!["- a", "- b"]);
        assert!(section(p, "Missing:").is_empty());
        assert_eq!(after(p, "Conclusion:"), Some("c\n"));
        let (a, b) = (symbols("f(a,b)"), symbols("f(c)"));
        assert!((jaccard(&a, &b) - 0.25).abs() < 1e-12);
        assert_eq!(mean([1.0, 3.0]), 2.0);
        assert_eq!(mean([]), 0.0);
        assert_eq!(max([1.0, 3.0]), 3.0);
    }
}
