//! Integration tests of `saturate pl`: the dataset layout, the records'
//! self-consistency (every gold answer scores 1 by the library scorer, every
//! problem re-checks), byte-identical output for --jobs 1 and 2, the summary,
//! and exit code 2 with nothing written for bad arguments.

mod common;

use common::{files, parquet_rows, run};
use saturate::prop::problems::random as generate;
use saturate::tasks::pl::Task;
use saturate::tasks::pl::instance::{problem_of, score_record};
use serde_json::Value;
use std::path::PathBuf;

fn task_of(config: &str) -> Task {
    *Task::ALL.iter().find(|t| t.config() == config).unwrap()
}

#[test]
fn writes_a_consistent_dataset_identically_for_any_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let a: PathBuf = tmp.path().join("a");
    let b: PathBuf = tmp.path().join("b");
    let o = run(&[
        "pl",
        "--count",
        "6",
        "--seed",
        "9",
        "--jobs",
        "1",
        "--out",
        a.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("instances/s") && err.contains("pl1_proof_checking"),
        "{err}"
    );
    let o = run(&[
        "pl",
        "--count",
        "6",
        "--seed",
        "9",
        "--jobs",
        "2",
        "-q",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(
        o.stderr.is_empty(),
        "quiet run printed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let fa = files(&a);
    assert_eq!(fa, files(&b), "--jobs 1 and --jobs 2 differ");

    let manifest: Value =
        serde_json::from_slice(&std::fs::read(a.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["total_rows"], 4 * 4 * 6);
    assert_eq!(manifest["seed"], 9);
    let card = std::fs::read_to_string(a.join("README.md")).unwrap();
    let mut seen = 0;
    for task in Task::ALL {
        assert!(card.contains(&format!("- config_name: {}", task.config())));
        let cfg = &manifest["configs"][task.config()];
        assert_eq!(cfg["rows"], 24);
        for (_, split) in cfg["splits"].as_object().unwrap() {
            for shard in split["shards"].as_array().unwrap() {
                let file = shard["file"].as_str().unwrap();
                assert!(file.ends_with(".parquet") && file.contains("-of-"));
                for row in parquet_rows(&a.join(file)) {
                    seen += 1;
                    let [id, t, _, _, level, prompt, answer, _, _, _, meta, cert] = &row[..] else {
                        panic!("12 columns")
                    };
                    assert_eq!(t.as_deref(), Some(task.config()));
                    assert!(id.as_ref().unwrap().starts_with(task.config()));
                    assert!(level.is_some() && prompt.as_ref().unwrap().contains("Derive:"));
                    let meta: Value = serde_json::from_str(meta.as_ref().unwrap()).unwrap();
                    let _: Value = serde_json::from_str(cert.as_ref().unwrap()).unwrap();
                    // The problem re-checks from the metadata strings alone.
                    let p = problem_of(&meta).unwrap();
                    assert_eq!(
                        generate::violated_constraint(&p.source_premises, &p.source_goal),
                        None
                    );
                    let s = score_record(
                        task_of(t.as_ref().unwrap()),
                        &meta,
                        answer.as_ref().unwrap(),
                        answer.as_ref().unwrap(),
                    );
                    assert_eq!(s.value, 1.0, "{}: {}", id.as_ref().unwrap(), s.detail);
                }
            }
        }
    }
    assert_eq!(seen, 96);
    common::assert_verify_rechecks(
        &a,
        &[
            "pl1_proof_checking",
            "pl1_proof_writing",
            "pl1_proof_masking",
            "pl1_gap_filling",
        ],
    );

    // Rerunning into our own dataset replaces it.
    let o = run(&[
        "pl",
        "--count",
        "2",
        "--levels",
        "1",
        "-q",
        "--out",
        a.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let m: Value =
        serde_json::from_slice(&std::fs::read(a.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["total_rows"], 8);
}

#[test]
fn bad_arguments_exit_2_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ds");
    let o = out.to_str().unwrap();
    for args in [
        vec!["pl", "--levels", "0", "--out", o],
        vec!["pl", "--levels", "x", "--out", o],
        vec!["pl", "--count", "0", "--out", o],
        vec!["pl", "--count", "-3", "--out", o],
        vec!["pl", "--max-rows-per-shard", "0", "--out", o],
        vec!["pl", "--bogus", "--out", o],
    ] {
        let r = run(&args);
        assert_eq!(
            r.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert!(!r.stderr.is_empty());
        assert!(!out.exists(), "{args:?} left {}", out.display());
    }
    // A foreign non-empty directory is refused and left alone.
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("mine.txt"), "x").unwrap();
    let r = run(&["pl", "--count", "1", "--out", o]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("not a saturate dataset"));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}
