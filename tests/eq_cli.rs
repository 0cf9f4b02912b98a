//! End-to-end tests of `saturate eq`: the dataset files exist, every record's
//! gold answer scores 1 through the library scorer (and a wrong one 0), the
//! output is byte-identical for --jobs 1 and 2, bad arguments exit 2 without
//! touching anything; plus snapshot tests of one rendered prompt per task.

use arrow_array::{Array, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
mod common;

use common::{files, run};
use saturate::tasks::eq::{Task, build};
use std::collections::BTreeMap;
use std::path::Path;

/// (id, metadata, answer) of every row of one parquet file.
fn rows(path: &Path) -> Vec<(String, String, String)> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let mut out = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let col = |name: &str| {
            batch
                .column_by_name(name)
                .unwrap()
                .as_any()
                .downcast_ref::<StringArray>()
                .unwrap()
                .clone()
        };
        let (id, meta, ans) = (col("id"), col("metadata"), col("answer"));
        for r in 0..batch.num_rows() {
            assert!(!id.is_null(r));
            out.push((
                id.value(r).into(),
                meta.value(r).into(),
                ans.value(r).into(),
            ));
        }
    }
    out
}

#[test]
fn writes_a_dataset_whose_answers_score_and_is_deterministic_across_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    for (dir, jobs) in [(&a, "1"), (&b, "2")] {
        let o = run(&[
            "eq",
            "--count",
            "6",
            "--levels",
            "1,3",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--out",
            dir.to_str().unwrap(),
            "-q",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let fa = files(&a);
    assert_eq!(fa, files(&b), "--jobs 1 and --jobs 2 differ");
    assert!(fa.contains_key("manifest.json"));
    assert!(fa.contains_key("README.md"));
    common::assert_verify_rechecks(&a, &["eq_pc", "eq_er", "eq_gf"]);
    let mut per_task = BTreeMap::new();
    for task in Task::ALL {
        let dir = format!("{}/", task.config());
        let parquet: Vec<&String> = fa
            .keys()
            .filter(|p| p.starts_with(&dir) && p.ends_with(".parquet"))
            .collect();
        assert!(!parquet.is_empty(), "{} has no shard", task.config());
        for p in parquet {
            for (id, meta, ans) in rows(&a.join(p)) {
                let s = saturate::tasks::eq::score(task, &meta, &ans);
                assert_eq!(s.value, 1.0, "{id}: {}", s.detail);
                let s = saturate::tasks::eq::score(task, &meta, "{\"correct\": 3}");
                assert_eq!(s.value, 0.0);
                *per_task.entry(task.config()).or_insert(0) += 1;
            }
        }
    }
    assert_eq!(
        per_task.values().copied().collect::<Vec<_>>(),
        vec![12, 12, 12]
    );
    // A different seed gives a different dataset.
    let c = tmp.path().join("c");
    let o = run(&[
        "eq",
        "--count",
        "6",
        "--levels",
        "1,3",
        "--seed",
        "6",
        "--out",
        c.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success());
    assert_ne!(fa, files(&c));
}

#[test]
fn bad_arguments_exit_2_and_touch_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let o = out.to_str().unwrap();
    for args in [
        vec!["eq", "--levels", "256", "--out", o],
        vec!["eq", "--levels", "0,1", "--out", o],
        vec!["eq", "--count", "0", "--out", o],
        vec!["eq", "--count", "many", "--out", o],
        vec!["eq", "--seed", "-1", "--out", o],
        vec!["eq", "--frobnicate", "--out", o],
    ] {
        let r = run(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        assert!(!r.stderr.is_empty());
        assert!(!out.exists(), "{args:?} wrote output");
    }
    // An existing folder that is not a dataset is refused, and left alone.
    let foreign = tmp.path().join("mine");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "keep me").unwrap();
    let r = run(&[
        "eq",
        "--count",
        "1",
        "--out",
        foreign.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(foreign.join("notes.txt")).unwrap(),
        "keep me"
    );
    assert_eq!(std::fs::read_dir(&foreign).unwrap().count(), 1);
}

fn snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} missing; run with UPDATE_SNAPSHOTS=1", path.display()));
    assert_eq!(
        actual,
        expected,
        "rendered prompt differs from {}",
        path.display()
    );
}

#[test]
fn prompt_snapshots() {
    // PC: an incorrect proof (odd index); ER: a proof; GF: a decoy (index 3).
    let pc = build(Task::ProofChecking, 1, 0, 1).unwrap().unwrap();
    snapshot("eq_pc_L1_1.txt", &pc.prompt);
    let er = build(Task::EquationRecovery, 1, 0, 0).unwrap().unwrap();
    snapshot("eq_er_L1_0.txt", &er.prompt);
    let gf = build(Task::GapFilling, 2, 0, 3).unwrap().unwrap();
    snapshot("eq_gf_L2_3.txt", &gf.prompt);
}

/// `saturate merge` of the shards of an EQ run (JSON Lines, tagged answers)
/// writes exactly the unsharded run's files.
#[test]
fn merged_shards_are_the_unsharded_run() {
    let tmp = tempfile::tempdir().unwrap();
    let args = |out: &Path, shard: Option<&str>| {
        let mut a: Vec<String> = [
            "eq",
            "--count",
            "3",
            "--levels",
            "1,2",
            "--format",
            "jsonl",
            "--answer-format",
            "tags",
            "-q",
            "--out",
        ]
        .map(String::from)
        .to_vec();
        a.push(out.display().to_string());
        if let Some(s) = shard {
            a.push("--shard".into());
            a.push(s.into());
        }
        a
    };
    let run_args = |a: Vec<String>| {
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = run(&refs);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let whole = tmp.path().join("whole");
    run_args(args(&whole, None));
    let mut parts = Vec::new();
    for i in 1..=3 {
        let d = tmp.path().join(format!("part{i}"));
        run_args(args(&d, Some(&format!("{i}/3"))));
        parts.push(d.display().to_string());
    }
    let merged = tmp.path().join("merged");
    let mut a = vec!["merge".to_string(), merged.display().to_string()];
    a.extend(parts.iter().rev().cloned());
    run_args(a);
    let (w, m) = (files(&whole), files(&merged));
    // More shards than units: a shard with nothing to do says so.
    let o = run(&[
        "eq", "--count", "1", "--levels", "1", "-q", "--shard", "4/4", "--out",
    ]
    .into_iter()
    .chain([tmp.path().join("empty").to_str().unwrap()])
    .collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("only 3 unit(s)"), "{err}");
    assert!(w.keys().any(|k| k.ends_with(".jsonl")), "{:?}", w.keys());
    assert!(w == m, "merged {:?} vs whole {:?}", m.keys(), w.keys());
}
