//! `saturate dedup`, run as a user runs it: a dataset against itself (every
//! row found), against another seed (counts in range, the same as the table),
//! a renamed and reordered copy still found, the card's within-dataset
//! section, and bad input exiting 2.

mod common;

use common::{run, stderr, stdout};
use saturate::dataset::{DatasetSpec, DatasetWriter, Record};
use std::path::Path;

fn eq(dir: &Path, seed: &str) -> String {
    let d = dir.join(format!("eq-{seed}"));
    let o = run(&[
        "eq",
        "--count",
        "8",
        "--levels",
        "1",
        "--seed",
        seed,
        "-q",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    d.to_str().unwrap().to_string()
}

fn report(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["dedup", "--json"];
    a.extend_from_slice(args);
    let o = run(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// A one-config dataset of entailment-like rows with the given prompts.
fn prompts_dataset(dir: &Path, prompts: &[&str]) -> String {
    let spec = DatasetSpec::new("dedup test", 0, serde_json::json!({}));
    let mut w = DatasetWriter::create(dir, spec).unwrap();
    for (i, p) in prompts.iter().enumerate() {
        let r = Record {
            id: format!("t-{i:05}"),
            task: "conjecture_entailment".into(),
            domain: None,
            source: None,
            level: Some(1),
            prompt: p.to_string(),
            answer: "True".into(),
            completion: "True".into(),
            trace: None,
            metadata: "{}".into(),
            certificate: "{}".into(),
        };
        w.push("conjecture_entailment", r, &format!("g{i}"))
            .unwrap();
    }
    w.finish().unwrap();
    dir.to_str().unwrap().to_string()
}

#[test]
fn dedup_counts_rows_found_again() {
    let tmp = tempfile::tempdir().unwrap();
    let a = eq(tmp.path(), "1");
    let b = eq(tmp.path(), "2");
    let alone = report(&[&a]);
    assert_eq!(alone["total"]["rows"], 24);
    assert!(alone["total"]["in_reference"].is_null());
    let itself = report(&[&a, &a]);
    assert_eq!(itself["total"]["in_reference"], 24);
    let across = report(&[&b, &a]);
    assert_eq!(across["total"]["rows"], 24);
    assert!(across["total"]["in_reference"].as_u64().unwrap() < 24);
    // The table says the same.
    let o = run(&["dedup", &a, &a]);
    assert!(o.status.success());
    let table = stdout(&o);
    let total = table.lines().find(|l| l.starts_with("total")).unwrap();
    assert!(total.trim_end().ends_with(" 24"), "{table}");
    // Every run's card carries the within-dataset figure.
    let card = std::fs::read_to_string(Path::new(&a).join("README.md")).unwrap();
    assert!(card.contains("## Repeated problems"), "{card}");
    assert!(card.contains("| eq_pc | 8 |"), "{card}");
}

#[test]
fn renamed_and_reordered_clauses_are_the_same_problem() {
    let tmp = tempfile::tempdir().unwrap();
    let a = prompts_dataset(
        &tmp.path().join("a"),
        &[
            "Premises:\n- p(X0) | q(X0,X1)\n- r(X0)\nConclusion:\ns(a)",
            "Premises:\n- p(X0)\nConclusion:\ns(b)",
        ],
    );
    let b = prompts_dataset(
        &tmp.path().join("b"),
        &[
            // Row 0 of `a` with its clauses swapped and variables renamed.
            "Premises:\n- r(Z)\n- p(A) | q(A,B)\nConclusion:\ns(a)",
            // A variable shared differently: another problem.
            "Premises:\n- r(Z)\n- p(A) | q(B,A)\nConclusion:\ns(a)",
            // The same as the first row of this dataset.
            "Premises:\n- p(U) | q(U,W)\n- r(V)\nConclusion:\ns(a)",
        ],
    );
    let r = report(&[&b, &a]);
    let c = &r["configs"]["conjecture_entailment"];
    assert_eq!(c["rows"], 3);
    assert_eq!(c["in_reference"], 2);
    assert_eq!(c["within"], 1);
}

#[test]
fn bad_input_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&["dedup", tmp.path().join("none").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a folder"), "{}", stderr(&o));
}
