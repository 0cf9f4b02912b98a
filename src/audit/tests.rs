//! Tests of the shortcut audit.

use super::*;
use crate::dataset::Record;
use crate::tasks::Score;
use crate::tasks::TaskError;
use crate::tasks::audit::ReaderAnswer;
use crate::tasks::audit::{AuditItem, Exploit};
use crate::tasks::family::ConfigInfo;
use crate::tasks::family::{ScoreContext, TaskFamily};
use crate::tasks::registry::Registry;
use std::collections::BTreeMap;

/// A toy family whose rows are `label:value`; `leak` rows carry the
/// label in the feature, others do not.
struct Toy;
static TOY: Toy = Toy;
impl TaskFamily for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }
    fn configs(&self) -> Vec<ConfigInfo> {
        vec![
            ConfigInfo {
                name: "toy_leak",
                description: "",
            },
            ConfigInfo {
                name: "toy_fair",
                description: "",
            },
            ConfigInfo {
                name: "toy_free",
                description: "",
            },
            ConfigInfo {
                name: "toy_graph",
                description: "",
            },
        ]
    }
    /// Full credit for the gold answer, none otherwise.
    fn score(&self, row: &Record, answer: &str, _: &mut ScoreContext) -> Score {
        if answer == row.answer {
            Score::correct()
        } else {
            Score::wrong("not the gold answer")
        }
    }
    /// The group is the metadata's text when it is not `{}`.
    fn audit_group(&self, row: &Record) -> String {
        if row.metadata == "{}" {
            format!("id:{}", row.id)
        } else {
            row.metadata.clone()
        }
    }
    /// `toy_fair` rows get the two labels and a wrong answer; the
    /// `toy_leak` rows also an answer that copies the gold one.
    fn exploit_answers(&self, row: &Record) -> Vec<Exploit> {
        let mut out = vec![
            Exploit::constant("True", "True"),
            Exploit::constant("False", "False"),
            Exploit::new("nope", "nope"),
        ];
        if row.task == "toy_leak" {
            out.push(Exploit::new("copy", row.answer.clone()));
        }
        out
    }
    fn verify(&self, _: &Record) -> Result<String, TaskError> {
        Ok(String::new())
    }
    fn audit_items(&self, row: &Record) -> Option<Result<Vec<AuditItem>, TaskError>> {
        if row.task == "toy_free" {
            return None;
        }
        let v: f64 = row.prompt.lines().next()?.parse().ok()?;
        Some(Ok(vec![
            AuditItem::new(row.answer.clone()).with("value", v),
        ]))
    }
    /// `toy_graph` rows are read by two readers: `none` gets nothing
    /// right, `some` gets 2 of 3 parts right, or all 3 on a row whose
    /// metadata is `solved`.
    fn audit_readers(&self, row: &Record) -> Option<Result<Vec<ReaderAnswer>, TaskError>> {
        if row.task != "toy_graph" {
            return None;
        }
        let right = if row.metadata == "solved" { 3 } else { 2 };
        Some(Ok(vec![
            ReaderAnswer {
                reader: "none",
                parts: 3,
                right: 0,
            },
            ReaderAnswer {
                reader: "some",
                parts: 3,
                right,
            },
        ]))
    }
}

fn row(task: &str, i: usize, answer: &str, value: f64) -> Record {
    Record {
        id: format!("{task}-{i:05}"),
        task: task.into(),
        domain: None,
        source: None,
        level: Some(1),
        completion: String::new(),
        trace: None,
        prompt: value.to_string(),
        answer: answer.into(),
        metadata: "{}".into(),
        certificate: "{}".into(),
    }
}

#[test]
fn a_leak_fails_a_fair_cell_passes_and_order_does_not_matter() {
    let registry = Registry::new(vec![&TOY]);
    let mut rows = Vec::new();
    for i in 0..120 {
        let label = if (i * 7) % 3 == 0 { "True" } else { "False" };
        rows.push(row(
            "toy_leak",
            i,
            label,
            if label == "True" { 1.0 } else { 0.0 },
        ));
        // The fair value cycles independently of the label.
        rows.push(row("toy_fair", i, label, (i % 5) as f64));
        rows.push(row("toy_free", i, "x", 0.0));
    }
    let mut c = Collector::new();
    for r in &rows {
        c.add(r, &registry).unwrap();
    }
    let report = c.report(&AuditSettings::default());
    let status: Vec<(&str, Status)> = report
        .cells
        .iter()
        .map(|c| (c.config.as_str(), c.status))
        .collect();
    assert_eq!(
        status,
        [("toy_fair", Status::Pass), ("toy_leak", Status::Shortcut)]
    );
    assert_eq!(report.not_audited["toy_free"], 120);
    assert_eq!(report.failures().len(), 1);
    let md = report.markdown();
    assert!(md.contains("| `toy_leak` | 1 | 120 | 120 | 120 |"), "{md}");
    assert!(md.contains("rule: value <= 0.5"), "{md}");
    // Reversed input order gives the same report.
    let mut c = Collector::new();
    for r in rows.iter().rev() {
        c.add(r, &registry).unwrap();
    }
    assert_eq!(c.report(&AuditSettings::default()).markdown(), md);
}

#[test]
fn big_cells_are_judged_on_a_bounded_sample_that_ignores_order() {
    let registry = Registry::new(vec![&TOY]);
    let n = 2 * MAX_AUDIT_ROWS + 700;
    let rows: Vec<Record> = (0..n)
        .map(|i| {
            let label = if i % 3 == 0 { "True" } else { "False" };
            row(
                "toy_leak",
                i,
                label,
                if label == "True" { 1.0 } else { 0.0 },
            )
        })
        .collect();
    let mut c = Collector::new();
    for r in &rows {
        c.add(r, &registry).unwrap();
        // Never more than twice the cap kept.
        assert!(c.cells.values().all(|k| k.rows.len() < 2 * MAX_AUDIT_ROWS));
    }
    let report = c.report(&AuditSettings::default());
    let cell = &report.cells[0];
    assert_eq!((cell.rows, cell.sampled_from), (MAX_AUDIT_ROWS, Some(n)));
    assert_eq!(cell.status, Status::Shortcut);
    let md = report.markdown();
    assert!(md.contains(&format!("| {MAX_AUDIT_ROWS} of {n} |")), "{md}");
    assert!(md.contains("hash smallest"), "{md}");
    // The sample depends on the row set only.
    let mut c = Collector::new();
    for r in rows.iter().rev() {
        c.add(r, &registry).unwrap();
    }
    assert_eq!(c.report(&AuditSettings::default()).markdown(), md);
    // A cell at the cap is not sampled and says nothing about it.
    let mut c = Collector::new();
    for r in &rows[..MAX_AUDIT_ROWS] {
        c.add(r, &registry).unwrap();
    }
    let small = c.report(&AuditSettings::default());
    assert_eq!(small.cells[0].sampled_from, None);
    assert!(!small.markdown().contains("hash smallest"));
}

/// A structured answer is judged by its readers' whole answers, not by
/// its items: leaking items pass while no reader solves more than the
/// margin's share of rows, and a reader that does fails the cell.
#[test]
fn structured_answers_are_judged_by_whole_readers() {
    let registry = Registry::new(vec![&TOY]);
    let report = |every: usize| {
        let mut c = Collector::new();
        for i in 0..100 {
            let label = if i % 2 == 0 { "parent" } else { "other" };
            let mut r = row("toy_graph", i, label, (i % 2) as f64);
            if i % every == 0 {
                r.metadata = "solved".into();
            }
            c.add(&r, &registry).unwrap();
        }
        c.report(&AuditSettings::default())
    };
    let fair = report(20);
    let cell = &fair.cells[0];
    let w = cell.whole.as_ref().unwrap();
    assert_eq!((w.reader.as_str(), w.solved), ("some", 0.05));
    assert!((w.parts_right - (5.0 * 3.0 + 95.0 * 2.0) / 300.0).abs() < 1e-12);
    // The items alone would fail the cell (the value is the label).
    assert!(cell.single_rule.unwrap() > 0.99);
    assert_eq!(cell.status, Status::Pass);
    assert_eq!(cell.excess_points(), Some(5.0));
    assert!(fair.text().contains("reader some solves 5.0% of rows"));
    assert!(fair.markdown().contains("judged by its whole answers"));
    let leaky = report(5);
    assert_eq!(leaky.cells[0].status, Status::Shortcut);
    assert_eq!(leaky.cells[0].excess_points(), Some(20.0));
}

#[test]
fn an_exploit_that_earns_credit_fails_the_gate() {
    let registry = Registry::new(vec![&TOY]);
    let mut c = Collector::new();
    for i in 0..60 {
        let label = if i % 3 == 0 { "True" } else { "False" };
        c.add(&row("toy_leak", i, label, 0.0), &registry).unwrap();
        c.add(&row("toy_fair", i, label, 0.0), &registry).unwrap();
    }
    let report = c.report(&AuditSettings::default());
    let cell = |name: &str| report.exploits.iter().find(|e| e.config == name).unwrap();
    let leak = cell("toy_leak");
    assert_eq!(leak.rows, AuditSettings::default().exploit_rows);
    assert_eq!(leak.sampled_from, Some(60));
    assert_eq!(leak.baseline_answer, "False");
    assert!(leak.baseline > 0.5 && leak.baseline < 0.8, "{leak:?}");
    assert_eq!(leak.best(10).unwrap().name, "copy");
    assert_eq!(leak.status, ExploitStatus::Exploit);
    let fair = cell("toy_fair");
    assert_eq!(fair.status, ExploitStatus::Pass);
    assert_eq!(fair.best(10).unwrap().name, "nope");
    assert_eq!(report.exploit_failures().len(), 1);
    assert!(
        report
            .failing()
            .iter()
            .any(|f| f == "toy_leak L1 exploit copy"),
        "{:?}",
        report.failing()
    );
    assert!(report.text().contains("EXPLOIT"));
    assert!(
        report
            .markdown()
            .contains("fail the exploit gate: `toy_leak` level 1")
    );
    // The sample and its means ignore the order rows come in.
    let mut c = Collector::new();
    for i in (0..60).rev() {
        let label = if i % 3 == 0 { "True" } else { "False" };
        c.add(&row("toy_fair", i, label, 0.0), &registry).unwrap();
        c.add(&row("toy_leak", i, label, 0.0), &registry).unwrap();
    }
    assert_eq!(
        c.report(&AuditSettings::default()).markdown(),
        report.markdown()
    );
}

/// A word only True rows' prompts carry, in a section of its own,
/// with features that say nothing: the text readers find it.
#[test]
fn a_text_reader_finds_a_planted_tell() {
    let registry = Registry::new(vec![&TOY]);
    let words = ["alpha", "beta", "gamma", "delta", "eps", "zeta"];
    let report = |tell: bool| {
        let mut c = Collector::new();
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % n) as usize
        };
        for i in 0..120usize {
            let label = if next(5) < 2 { "True" } else { "False" };
            let value = next(5);
            let mut r = row("toy_fair", i, label, value as f64);
            let mut noise: Vec<&str> = (0..8).map(|_| words[next(6)]).collect();
            if tell && label == "True" {
                noise.push("tell");
            }
            r.prompt = format!(
                "{value}\n\nPremises:\n{}\n\nQuestion:\nsame",
                noise.join(" ")
            );
            c.add(&r, &registry).unwrap();
        }
        c.report(&AuditSettings::default())
    };
    let planted = report(true);
    let cell = &planted.cells[0];
    assert_eq!(cell.status, Status::Shortcut, "{cell:?}");
    assert!(cell.single_rule.unwrap() < 0.7, "{cell:?}");
    let (name, acc) = cell.best_text().unwrap();
    assert!(name.ends_with("premises") && *acc > 0.95, "{cell:?}");
    // The constant section is not read.
    assert!(cell.text_readers.iter().all(|r| !r.0.ends_with("question")));
    assert!(
        planted.text().contains("text reader lr:premises"),
        "{}",
        planted.text()
    );
    let clean = report(false);
    assert_eq!(clean.cells[0].status, Status::Pass, "{:?}", clean.cells[0]);
}

proptest::proptest! {
    /// Rows of one group always share a fold (and the report counts
    /// the groups), whatever the ids and the order rows come in.
    #[test]
    fn grouped_folds_never_split_a_group(
        groups in proptest::collection::vec(0u8..12, 20..80),
        reverse in proptest::bool::ANY,
    ) {
        let registry = Registry::new(vec![&TOY]);
        let mut rows: Vec<Record> = groups
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let mut r = row("toy_fair", i, if i % 2 == 0 { "a" } else { "b" }, 0.0);
                r.metadata = format!("g{g}");
                r
            })
            .collect();
        if reverse {
            rows.reverse();
        }
        let mut c = Collector::new();
        for r in &rows {
            c.add(r, &registry).unwrap();
        }
        let cell = &c.cells[&("toy_fair".to_string(), "1".to_string())];
        let mut fold_of_group: BTreeMap<u64, u8> = BTreeMap::new();
        for r in &cell.rows {
            let f = *fold_of_group.entry(r.group).or_insert(r.fold);
            proptest::prop_assert_eq!(f, r.fold);
        }
        let distinct: std::collections::BTreeSet<u8> = groups.iter().copied().collect();
        proptest::prop_assert_eq!(fold_of_group.len(), distinct.len());
        let report = c.report(&AuditSettings::default());
        proptest::prop_assert_eq!(report.cells[0].groups, distinct.len());
    }
}

#[test]
fn constant_labels_and_small_cells() {
    let registry = Registry::new(vec![&TOY]);
    let mut c = Collector::new();
    for i in 0..60 {
        c.add(&row("toy_fair", i, "premise", i as f64), &registry)
            .unwrap();
    }
    for i in 0..10 {
        let label = if i % 2 == 0 { "a" } else { "b" };
        c.add(&row("toy_leak", i, label, (i % 2) as f64), &registry)
            .unwrap();
    }
    let r = c.report(&AuditSettings::default());
    assert_eq!(r.cells[0].status, Status::ConstantLabel);
    assert_eq!(r.cells[1].status, Status::TooFewRows);
    assert!(r.text().contains("CONSTANT LABEL"));
    let mut c = Collector::new();
    let err = c.add(&row("unknown", 0, "a", 0.0), &registry).unwrap_err();
    assert!(err.contains("unknown-00000"), "{err}");
}
