//! Helpers shared by the integration tests that run the `saturate` binary.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The crate's root folder.
pub fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared TPTP sample, or `None` (with a note) when it is absent outside
/// CI; under CI its absence is a failure.
pub fn tptp_root() -> Option<PathBuf> {
    shared_root("tptp")
}

/// The shared FOF TPTP sample, as [`tptp_root`].
pub fn fof_root() -> Option<PathBuf> {
    shared_root("tptp-fof")
}

/// The TPTP root `../shared/<name>` beside the checkout, as [`tptp_root`].
pub fn shared_root(name: &str) -> Option<PathBuf> {
    let root = crate_root().join("../shared").join(name);
    if root.join("Axioms").is_dir() {
        return Some(root);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} is missing under CI",
        root.display()
    );
    eprintln!("note: {} is absent; skipping", root.display());
    None
}

/// The binary, with `TPTP` cleared so the caller's environment cannot leak in.
pub fn saturate() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_saturate"));
    c.env_remove("TPTP").env("RUST_LOG", "warn");
    c
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs the binary with these arguments.
pub fn run(args: &[&str]) -> Output {
    saturate().args(args).output().expect("run saturate")
}

/// Every file below `dir`, by relative path, with its bytes (for
/// byte-for-byte comparisons of whole output folders).
pub fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Runs `saturate verify` on a dataset and asserts that it exits 0 and
/// re-checks at least one row of each of `configs`, skipping none.
pub fn assert_verify_rechecks(dataset: &Path, configs: &[&str]) {
    let o = run(&["verify", dataset.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(!out.contains("without a re-checkable"), "{out}");
    for c in configs {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{c}: ")))
            .unwrap_or_else(|| panic!("no verify line for {c}: {out}"));
        let n: usize = line[c.len() + 2..]
            .split_whitespace()
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or(0);
        assert!(n > 0 && line.contains("re-checked"), "{line}");
    }
}

/// Every row of a Parquet shard as its columns' optional strings, in
/// column order (`level` as decimal digits, `messages` as the JSON array of
/// its turns).
pub fn parquet_rows(path: &Path) -> Vec<Vec<Option<String>>> {
    use arrow_array::{Array, Int64Array, ListArray, StringArray, StructArray};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let mut out = Vec::new();
    for b in reader {
        let b = b.unwrap();
        for r in 0..b.num_rows() {
            out.push(
                (0..b.num_columns())
                    .map(|c| {
                        let col = b.column(c).as_any();
                        if let Some(a) = col.downcast_ref::<StringArray>() {
                            return (!a.is_null(r)).then(|| a.value(r).to_string());
                        }
                        if let Some(a) = col.downcast_ref::<Int64Array>() {
                            return (!a.is_null(r)).then(|| a.value(r).to_string());
                        }
                        let a = col.downcast_ref::<ListArray>().expect("a known column type");
                        let turns = a.value(r);
                        let turns = turns.as_any().downcast_ref::<StructArray>().unwrap();
                        let field = |k: usize| {
                            turns
                                .column(k)
                                .as_any()
                                .downcast_ref::<StringArray>()
                                .unwrap()
                                .clone()
                        };
                        let (role, content) = (field(0), field(1));
                        let list: Vec<serde_json::Value> = (0..turns.len())
                            .map(|t| {
                                serde_json::json!({"role": role.value(t), "content": content.value(t)})
                            })
                            .collect();
                        Some(serde_json::Value::Array(list).to_string())
                    })
                    .collect(),
            );
        }
    }
    out
}

/// Compares `text` with the snapshot `tests/snapshots/<file>`; with
/// `UPDATE_SNAPSHOTS` set, writes it first (regenerate on purpose only).
pub fn assert_snapshot(file: &str, text: &str) {
    let path = crate_root().join("tests/snapshots").join(file);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, text).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_SNAPSHOTS=1 to create)",
            path.display()
        )
    });
    assert_eq!(
        text,
        want,
        "{} differs from the rendered prompt",
        path.display()
    );
}

/// A small PL1 + PL2 dataset (one row per cell, level and size 1) in
/// `dir/pl`.
pub fn small_pl_dataset(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let d = dir.join("pl");
    let o = run(&[
        "pl",
        "--families",
        "pl1,pl2",
        "--count",
        "1",
        "--levels",
        "1",
        "--sizes",
        "1",
        "-q",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    d
}

/// A small EQ dataset (`count` rows per cell, level 1) in `dir/eq`.
pub fn small_eq_dataset(dir: &Path, count: usize) -> PathBuf {
    let d = dir.join("eq");
    let n = count.to_string();
    let o = run(&[
        "eq",
        "--count",
        &n,
        "--levels",
        "1",
        "-q",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    d
}

/// The SET dataset at the smoke configuration's limits, under `dir/set`.
pub fn smoke_set_dataset(dir: &Path) -> PathBuf {
    let out = dir.join("set");
    let o = saturate()
        .args(["--domain", "SET", "-q", "--config"])
        .arg(crate_root().join("configs/smoke.toml"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    out.join("SET/SET-tasks")
}
