//! End-to-end test of `saturate equiv` (after AutoEval, seed 002) through
//! the real binary: a small dataset is byte-identical for --jobs 1 and 2,
//! `saturate verify` re-checks every row, `saturate score` gives gold,
//! wrong, malformed and cheating answers their verdicts with the right
//! counts (a roundtrip_fol answer nesting as deep as the answer bound
//! allows included), and bad arguments exit 2 without writing anything.

mod common;

use common::{files, run, stderr};
use saturate::pipeline::score::read_dataset;
use serde_json::{Value, json};
use std::collections::BTreeMap;

#[test]
fn equiv_dataset_verifies_and_scores_every_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for (dir, jobs) in [(&a, "1"), (&b, "2")] {
        let o = run(&[
            "equiv",
            "--count",
            "3",
            "--levels",
            "1,3",
            "--seed",
            "4",
            "--jobs",
            jobs,
            "--out",
            dir.to_str().unwrap(),
            "-q",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(files(&a), files(&b), "--jobs 1 and --jobs 2 differ");
    common::assert_verify_rechecks(
        &a,
        &[
            "equivalence_pl",
            "roundtrip_pl",
            "equivalence_fol",
            "roundtrip_fol",
        ],
    );

    let rows = read_dataset(&a).unwrap();
    assert_eq!(rows.len(), 24);
    let mut lines = String::new();
    let mut want: BTreeMap<&str, u64> = BTreeMap::new();
    let mut give = |id: &str, answer: &str, verdict: &'static str| {
        lines.push_str(&(json!({"id": id, "answer": answer}).to_string() + "\n"));
        *want.entry(verdict).or_default() += 1;
    };
    for (i, r) in rows.iter().enumerate() {
        let meta: Value = serde_json::from_str(&r.metadata).unwrap();
        match (r.task.as_str(), i % 4) {
            (_, 0) => give(&r.id, &r.answer, "ok"),
            ("equivalence_pl" | "equivalence_fol", 1) => give(
                &r.id,
                if r.answer == "True" { "False" } else { "True" },
                "wrong",
            ),
            ("equivalence_pl" | "equivalence_fol", 2) => give(&r.id, "Perhaps", "malformed"),
            ("equivalence_pl" | "equivalence_fol", _) => {
                give(&r.id, &format!("Answer: {}", r.answer), "ok")
            }
            ("roundtrip_fol", 1) => {
                let f = meta["formula"].as_str().unwrap();
                give(&r.id, &format!("~ {f}"), "wrong")
            }
            ("roundtrip_fol", 2) => give(&r.id, "! [X] : (p(X) &", "malformed"),
            ("roundtrip_fol", _) => give(&r.id, meta["formula"].as_str().unwrap(), "cheating"),
            ("roundtrip_pl", 1) => {
                // The negation of a contingent formula is never equivalent.
                let f = meta["formula"].as_str().unwrap();
                give(&r.id, &format!("(~{f})"), "wrong")
            }
            ("roundtrip_pl", 2) => give(&r.id, "(P & ", "malformed"),
            ("roundtrip_pl", _) => give(&r.id, meta["formula"].as_str().unwrap(), "cheating"),
            _ => unreachable!(),
        }
    }
    for v in ["ok", "wrong", "malformed", "cheating", "timeout"] {
        want.entry(v).or_default();
    }
    assert!(want["cheating"] > 0 && want["wrong"] > 0 && want["malformed"] > 0);
    let answers = tmp.path().join("answers.jsonl");
    std::fs::write(&answers, lines).unwrap();
    let o = run(&[
        "score",
        "--dataset",
        a.to_str().unwrap(),
        "--answers",
        answers.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["overall"]["verdicts"], json!(want), "{}", v["overall"]);

    // A formula answer as deep as the answer bound allows is refused by
    // the reader's nesting bound: read recursively, such an answer
    // overflowed the stack and aborted `saturate score`.
    let mut deep = String::new();
    let mut n = 0;
    for r in rows.iter().filter(|r| r.task == "roundtrip_fol") {
        let bound = saturate::tasks::limits::answer_byte_bound(&r.prompt, &r.answer);
        let answer = format!("{}p(a)", "~".repeat(bound - 4));
        deep.push_str(&(json!({"id": r.id, "answer": answer}).to_string() + "\n"));
        n += 1;
    }
    std::fs::write(&answers, deep).unwrap();
    let o = run(&[
        "score",
        "--dataset",
        a.to_str().unwrap(),
        "--answers",
        answers.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["overall"]["verdicts"]["malformed"],
        json!(n),
        "{}",
        v["overall"]
    );
}

#[test]
fn bad_equiv_arguments_exit_2_and_touch_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let o = out.to_str().unwrap();
    for args in [
        vec!["equiv", "--levels", "256", "--out", o],
        vec!["equiv", "--levels", "0,1", "--out", o],
        vec!["equiv", "--count", "0", "--out", o],
        vec!["equiv", "--count", "lots", "--out", o],
        vec!["equiv", "--seed", "-3", "--out", o],
        vec!["equiv", "--jobs", "x", "--out", o],
        vec!["equiv", "--frobnicate", "--out", o],
    ] {
        let r = run(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        assert!(!r.stderr.is_empty(), "{args:?}");
        assert!(!out.exists(), "{args:?} wrote output");
    }
}
