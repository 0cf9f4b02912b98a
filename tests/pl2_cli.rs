//! Integration tests of `saturate pl --families pl2`: the dataset layout,
//! every record's self-consistency (gold answers score 1 by the library
//! scorer; theorems' reference proofs re-check; decoys' counterexamples
//! re-evaluate), byte-identical output for --jobs 1 and 2, the filter
//! table in the summary, and exit code 2 with nothing written for bad
//! PL2 arguments.

mod common;

use common::{files, parquet_rows, run, stderr};
use saturate::prop::Formula;
use saturate::prop::problems::families::Family;
use saturate::tasks::pl::pl2::{Pl2Task, score_record};
use serde_json::Value;
use std::path::Path;

fn formulas(v: &Value) -> Vec<Formula> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| Formula::parse(s.as_str().unwrap()).unwrap())
        .collect()
}

#[test]
fn writes_a_consistent_pl2_dataset_identically_for_any_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let args = |out: &Path, jobs: &str| {
        vec![
            "pl".to_string(),
            "--families".into(),
            "pl2".into(),
            "--count".into(),
            "2".into(),
            "--sizes".into(),
            "1,2".into(),
            "--seed".into(),
            "4".into(),
            "--jobs".into(),
            jobs.into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ]
    };
    let o = run(&args(&a, "1").iter().map(|s| s.as_str()).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("rejected attempts by reason") && err.contains("refutation_too_long"),
        "{err}"
    );
    assert!(!err.contains("pl1_proof_checking"), "{err}");
    let o = run(&args(&b, "2").iter().map(|s| s.as_str()).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&a), files(&b), "--jobs 1 and --jobs 2 differ");

    let manifest: Value =
        serde_json::from_slice(&std::fs::read(a.join("manifest.json")).unwrap()).unwrap();
    let mut families_seen = std::collections::BTreeSet::new();
    let mut decoys = 0;
    for task in Pl2Task::ALL {
        let cfg = &manifest["configs"][task.config()];
        assert!(
            cfg["rows"].as_u64().unwrap() >= 16,
            "{task}: {}",
            cfg["rows"]
        );
        for (_, split) in cfg["splits"].as_object().unwrap() {
            for shard in split["shards"].as_array().unwrap() {
                for row in parquet_rows(&a.join(shard["file"].as_str().unwrap())) {
                    let [
                        id,
                        t,
                        domain,
                        source,
                        level,
                        prompt,
                        answer,
                        _,
                        _,
                        _,
                        meta,
                        cert,
                    ] = &row[..]
                    else {
                        panic!("12 columns")
                    };
                    let id = id.as_deref().unwrap();
                    assert_eq!(t.as_deref(), Some(task.config()));
                    assert_eq!(domain.as_deref(), Some("PL"));
                    assert!(source.as_deref().unwrap().starts_with("pl2-"));
                    assert!(matches!(level.as_deref(), Some("1" | "2")));
                    assert!(prompt.as_deref().unwrap().contains("NDL_f"));
                    let meta: Value = serde_json::from_str(meta.as_deref().unwrap()).unwrap();
                    let cert: Value = serde_json::from_str(cert.as_deref().unwrap()).unwrap();
                    let family = Family::from_name(meta["family"].as_str().unwrap()).unwrap();
                    families_seen.insert(family);
                    assert!(meta["params"].is_object());
                    let answer = answer.as_deref().unwrap();
                    let s = score_record(task, &meta, answer, answer);
                    assert_eq!(s.value, 1.0, "{id}: {}", s.detail);
                    let premises = formulas(&meta["premises"]);
                    let goal = Formula::parse(meta["goal"].as_str().unwrap()).unwrap();
                    if meta["decoy"].as_bool().unwrap() {
                        decoys += 1;
                        // The certificate's assignment makes every premise
                        // true and the goal false.
                        let cx = cert["problem"]["counterexample"].as_object().unwrap();
                        let v = |x: &str| cx[x].as_bool().unwrap();
                        assert!(
                            premises.iter().all(|p| p.eval(&v)) && !goal.eval(&v),
                            "{id}"
                        );
                    } else {
                        assert_eq!(cert["problem"]["sat"], "unsatisfiable");
                        assert!(meta["refutation_steps"].as_u64().unwrap() < 150);
                        let proof = meta["reference_proof"].as_str().unwrap();
                        let ans = serde_json::json!({"description": "", "proof": proof});
                        let s = score_record(Pl2Task::ProofWriting, &meta, "", &ans.to_string());
                        assert_eq!(s.value, 1.0, "{id}: {}", s.detail);
                    }
                }
            }
        }
    }
    assert_eq!(families_seen.len(), 8, "{families_seen:?}");
    assert!(decoys > 0);
    common::assert_verify_rechecks(&a, &["pl2_proof_checking", "pl2_proof_writing"]);
}

#[test]
fn bad_pl2_arguments_exit_2_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ds");
    let o = out.to_str().unwrap();
    for args in [
        vec!["pl", "--families", "pl3", "--out", o],
        vec!["pl", "--families", "pl2", "--sizes", "0", "--out", o],
        vec![
            "pl",
            "--families",
            "pl2",
            "--pl2-families",
            "sudoku",
            "--out",
            o,
        ],
        vec![
            "pl",
            "--families",
            "pl2",
            "--max-refutation-steps",
            "0",
            "--out",
            o,
        ],
        vec![
            "pl",
            "--families",
            "pl2",
            "--max-cnf-clauses",
            "x",
            "--out",
            o,
        ],
    ] {
        let r = run(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
        assert!(!r.stderr.is_empty());
        assert!(!out.exists(), "{args:?} left {}", out.display());
    }
}
