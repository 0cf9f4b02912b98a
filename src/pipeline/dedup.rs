//! Leakage and duplicates between datasets (`saturate dedup`): which rows
//! of a dataset pose a problem that another dataset (or an earlier row, or
//! the train split of the same dataset) already poses, up to the renaming
//! of variables and the order of listed clauses.
//!
//! A row's problem is its `task` and its prompt, brought to a canonical
//! text ([`canonical_prompt`]): every maximal run of listed lines (`- `,
//! `* `, `3. `, `E3: `, the form every family lists clauses, premises,
//! equations and vocabularies in) loses its markers, each item gets its
//! variables (names that start with an upper-case letter, the TPTP
//! convention) renamed by first occurrence within the item (clause-scoped
//! variables), and the items are sorted; every other line keeps its place,
//! with its upper-case names renamed by first occurrence across those
//! lines (names shared between formulas, such as propositional atoms, stay
//! shared). Two rows match when the SHA-256 of their canonical texts
//! agree. The answer is not part of the key: the same question is a leak
//! whatever its gold answer.

use super::RunError;
use crate::dataset::names::rename_capitalised;
use crate::dataset::{Row, read_dataset};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

/// A canonical problem key: the first 128 bits of the SHA-256 of the
/// task name and the canonical prompt.
pub type Key = [u8; 16];

/// The text after a list marker (`- `, `* `, `12. `, `3) `, `E4: `,
/// `[2] `), or `None` for a line that is not a list item.
fn list_item(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        return Some(rest);
    }
    let bytes = t.as_bytes();
    let mut i = 0;
    if bytes.first() == Some(&b'[') {
        i = 1;
    }
    // Up to three letters of a label (E, c, ax), then digits.
    let letters = bytes[i..]
        .iter()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    if letters > 3 {
        return None;
    }
    i += letters;
    let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    i += digits;
    match bytes.get(i) {
        Some(b'.' | b':' | b')' | b']') if bytes.get(i + 1) == Some(&b' ') => Some(&t[i + 2..]),
        _ => None,
    }
}

/// The canonical text of a prompt (see the module documentation).
pub fn canonical_prompt(prompt: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut block: Vec<String> = Vec::new();
    let mut shared: HashMap<String, usize> = HashMap::new();
    let flush = |block: &mut Vec<String>, out: &mut Vec<String>| {
        block.sort();
        out.extend(block.drain(..).map(|item| format!("- {item}")));
    };
    for line in prompt.lines() {
        match list_item(line) {
            Some(item) => block.push(rename_capitalised(item.trim(), 'V', &mut HashMap::new())),
            None => {
                flush(&mut block, &mut out);
                out.push(rename_capitalised(line.trim_end(), 'V', &mut shared));
            }
        }
    }
    flush(&mut block, &mut out);
    out.join("\n")
}

/// The key of a row's problem: its task and canonical prompt.
pub fn problem_key(task: &str, prompt: &str) -> Key {
    let mut h = Sha256::new();
    h.update(task.as_bytes());
    h.update([0u8]);
    h.update(canonical_prompt(prompt).as_bytes());
    let d = h.finalize();
    let mut k = [0u8; 16];
    k.copy_from_slice(&d[..16]);
    k
}

/// The split a row was read from (its shard file's name up to the first
/// `-`: `train`, `validation`, `test`).
fn split_of(row: &Row) -> String {
    row.file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .and_then(|n| n.split('-').next().map(str::to_string))
        .unwrap_or_default()
}

/// The figures of one config.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ConfigDedup {
    /// Rows of the dataset in this config.
    pub rows: u64,
    /// Rows whose problem an earlier row of the dataset (same config, any
    /// split, in id order) already poses.
    pub within: u64,
    /// Per split other than train: its rows whose problem a train row
    /// poses (leakage between the splits).
    pub in_train: BTreeMap<String, u64>,
    /// With a reference dataset: rows whose problem it poses.
    pub in_reference: Option<u64>,
}

/// What `saturate dedup` reports.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DedupReport {
    /// Per config of the dataset.
    pub configs: BTreeMap<String, ConfigDedup>,
    /// Totals over the configs (`in_reference` when a reference was given).
    pub total: ConfigDedup,
    /// Up to ten matches: (row id, the id of the row it repeats, where:
    /// `dataset`, `train` or `reference`).
    pub examples: Vec<(String, String, String)>,
}

/// Most examples a report lists.
const EXAMPLES: usize = 10;

/// The report for the rows of `dataset` against themselves, their train
/// split, and (when given) the rows of `reference`.
pub fn dedup_rows(dataset: &[Row], reference: Option<&[Row]>) -> DedupReport {
    let mut report = DedupReport::default();
    let mut rows: Vec<&Row> = dataset.iter().collect();
    rows.sort_by(|a, b| {
        a.task
            .cmp(&b.task)
            .then_with(|| crate::dataset::natural_cmp(&a.id, &b.id))
    });
    let keyed: Vec<(&Row, Key, String)> = rows
        .iter()
        .map(|r| (*r, problem_key(&r.task, &r.prompt), split_of(r)))
        .collect();
    let mut first: HashMap<Key, &str> = HashMap::new();
    let mut train: HashMap<Key, &str> = HashMap::new();
    for (r, k, split) in &keyed {
        if split == "train" {
            train.entry(*k).or_insert(&r.id);
        }
    }
    let refs: Option<HashMap<Key, &str>> = reference.map(|rs| {
        let mut m = HashMap::new();
        for r in rs {
            m.entry(problem_key(&r.task, &r.prompt))
                .or_insert(r.id.as_str());
        }
        m
    });
    let example = |report: &mut DedupReport, id: &str, other: &str, what: &str| {
        if report.examples.len() < EXAMPLES {
            report
                .examples
                .push((id.to_string(), other.to_string(), what.to_string()));
        }
    };
    for (r, k, split) in &keyed {
        let c = report.configs.entry(r.task.clone()).or_default();
        c.rows += 1;
        match first.get(k) {
            Some(other) => {
                c.within += 1;
                example(&mut report, &r.id, other, "dataset");
            }
            None => {
                first.insert(*k, &r.id);
            }
        }
        let c = report.configs.entry(r.task.clone()).or_default();
        if split != "train" {
            let n = c.in_train.entry(split.clone()).or_default();
            if let Some(other) = train.get(k) {
                *n += 1;
                example(&mut report, &r.id, other, "train");
            }
        }
        if let Some(m) = &refs {
            let c = report.configs.entry(r.task.clone()).or_default();
            let n = c.in_reference.get_or_insert(0);
            if let Some(other) = m.get(k) {
                *n += 1;
                example(&mut report, &r.id, other, "reference");
            }
        }
    }
    let mut total = ConfigDedup {
        in_reference: refs.as_ref().map(|_| 0),
        ..ConfigDedup::default()
    };
    for c in report.configs.values() {
        total.rows += c.rows;
        total.within += c.within;
        for (s, n) in &c.in_train {
            *total.in_train.entry(s.clone()).or_default() += n;
        }
        if let (Some(t), Some(n)) = (total.in_reference.as_mut(), c.in_reference) {
            *t += n;
        }
    }
    report.total = total;
    report
}

/// [`dedup_rows`] on the dataset folders `dataset` and `reference`.
pub fn dedup(dataset: &Path, reference: Option<&Path>) -> Result<DedupReport, RunError> {
    let rows = read_dataset(dataset)?;
    let refs = reference.map(read_dataset).transpose()?;
    Ok(dedup_rows(&rows, refs.as_deref()))
}

impl DedupReport {
    /// The report as a table: one line per config and the total.
    pub fn render(&self) -> String {
        let with_ref = self.total.in_reference.is_some();
        let splits: Vec<String> = {
            let mut s: HashSet<&String> = HashSet::new();
            for c in self.configs.values() {
                s.extend(c.in_train.keys());
            }
            let mut v: Vec<String> = s.into_iter().cloned().collect();
            v.sort();
            v
        };
        let mut head = format!("{:<28} {:>8} {:>12}", "config", "rows", "dup-within");
        for s in &splits {
            head.push_str(&format!(" {:>16}", format!("{s}-in-train")));
        }
        if with_ref {
            head.push_str(&format!(" {:>14}", "in-reference"));
        }
        let line = |name: &str, c: &ConfigDedup| {
            let mut l = format!("{:<28} {:>8} {:>12}", name, c.rows, c.within);
            for s in &splits {
                l.push_str(&format!(" {:>16}", c.in_train.get(s).copied().unwrap_or(0)));
            }
            if let Some(n) = c.in_reference {
                l.push_str(&format!(" {n:>14}"));
            }
            l
        };
        let mut out = vec![head];
        for (name, c) in &self.configs {
            out.push(line(name, c));
        }
        out.push(line("total", &self.total));
        for (id, other, what) in &self.examples {
            out.push(format!("  {id} repeats {other} ({what})"));
        }
        out.join("\n")
    }
}

/// Per config, the rows written and the distinct problems among them:
/// the within-dataset figure of the dataset card, the same for a run and
/// for the merge of its shards (it does not depend on the order rows are
/// added in).
#[derive(Clone, Debug, Default)]
pub struct ProblemTally {
    configs: BTreeMap<String, (u64, HashSet<Key>)>,
}

impl ProblemTally {
    /// Counts one written row.
    pub fn add(&mut self, task: &str, prompt: &str) {
        let e = self.configs.entry(task.to_string()).or_default();
        e.0 += 1;
        e.1.insert(problem_key(task, prompt));
    }

    /// Per config: (rows, distinct problems).
    pub fn counts(&self) -> BTreeMap<String, (u64, u64)> {
        self.configs
            .iter()
            .map(|(k, (n, set))| (k.clone(), (*n, set.len() as u64)))
            .collect()
    }

    /// The card section: one line per config.
    pub fn markdown(&self) -> String {
        let mut s = String::from(
            "Rows whose problem (task and prompt, up to variable renaming and the order of listed clauses) an earlier row of the same config already poses; `saturate dedup` lists them, and checks the splits and other datasets.\n\n| config | rows | distinct problems | repeated rows |\n|---|---|---|---|\n",
        );
        for (config, (rows, distinct)) in self.counts() {
            s.push_str(&format!(
                "| {config} | {rows} | {distinct} | {} |\n",
                rows - distinct
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renaming_and_clause_order_do_not_change_the_key() {
        let a = "Premises:\n- p(X0,X1) | q(X1)\n- r(X0)\nConclusion:\np(a,b)\n";
        let b = "Premises:\n- r(Y)\n- p(A,B) | q(B)\nConclusion:\np(a,b)\n";
        assert_eq!(problem_key("t", a), problem_key("t", b));
        // Numbered lists too.
        let c = "Clauses:\n1. r(Z)\n2. p(U,W) | q(W)\nTheorem: p(a,b)\n";
        let d = "Clauses:\n1. p(X,Y) | q(Y)\n2. r(X)\nTheorem: p(a,b)\n";
        assert_eq!(problem_key("t", c), problem_key("t", d));
    }

    #[test]
    fn different_problems_differ() {
        let a = "Premises:\n- p(X0,X1) | q(X1)\nConclusion:\np(a,b)\n";
        // A variable shared differently is another clause.
        let b = "Premises:\n- p(X0,X1) | q(X0)\nConclusion:\np(a,b)\n";
        assert_ne!(problem_key("t", a), problem_key("t", b));
        // Another task is another problem.
        assert_ne!(problem_key("t", a), problem_key("u", a));
        // A clause moved out of the list is another problem.
        let c = "Premises:\nConclusion:\np(a,b)\n- p(X0,X1) | q(X1)\n";
        assert_ne!(problem_key("t", a), problem_key("t", c));
        // Atoms shared between formulas outside lists stay shared.
        let d = "premise := (A & B)\nDerive: A\n";
        let e = "premise := (A & B)\nDerive: B\n";
        assert_ne!(problem_key("t", d), problem_key("t", e));
    }

    #[test]
    fn tally_counts_repeats_in_any_order() {
        let mut a = ProblemTally::default();
        let mut b = ProblemTally::default();
        let rows = [
            ("t", "- p(X)\n- q(Y)"),
            ("t", "- q(A)\n- p(B)"),
            ("t", "- r(X)"),
            ("u", "- r(X)"),
        ];
        for (t, p) in rows {
            a.add(t, p);
        }
        for (t, p) in rows.iter().rev() {
            b.add(t, p);
        }
        assert_eq!(a.counts(), b.counts());
        assert_eq!(a.counts()["t"], (3, 2));
        assert_eq!(a.counts()["u"], (1, 1));
        assert!(
            a.markdown().contains("| t | 3 | 2 | 1 |"),
            "{}",
            a.markdown()
        );
    }

    #[test]
    fn list_markers() {
        assert_eq!(list_item("- a"), Some("a"));
        assert_eq!(list_item("12. a"), Some("a"));
        assert_eq!(list_item("E4: f(X) = X"), Some("f(X) = X"));
        assert_eq!(list_item("[3] a"), Some("a"));
        assert_eq!(list_item("Question: x"), None);
        assert_eq!(list_item("3.5 is a number"), None);
    }
}
