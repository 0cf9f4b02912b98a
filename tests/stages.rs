//! The two stages of a domain run through the binary: artifacts written
//! once and reused by reruns, other seeds and shards; `--stage saturate`
//! (dealt out by `--shard`) then `--stage generate` is byte-identical to
//! the one-process run; a missing or damaged artifact is a clear error
//! under `--stage generate` and is rebuilt otherwise; `--stage plan`.

mod common;

use common::*;
use serde_json::Value;
use std::path::Path;

/// A smoke domain run of SET into `out` with extra arguments.
fn domain_run(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut c = saturate();
    c.args(["--domain", "SET", "--jobs", "2"])
        .arg("--config")
        .arg(crate_root().join("configs/smoke.toml"))
        .arg("--out")
        .arg(out)
        .args(extra);
    c.output().unwrap()
}

/// The artifact folders under `out/artifacts` (names, sorted).
fn artifacts(out: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(out.join("artifacts"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn artifacts_are_written_once_and_reused_by_reruns_and_other_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let o = domain_run(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("artifacts: 3 saturated here, 0 reused"),
        "{}",
        stdout(&o)
    );
    let names = artifacts(dir.path());
    assert_eq!(names.len(), 3, "{names:?}");
    for n in &names {
        let a = dir.path().join("artifacts").join(n);
        for f in ["state.bin.zst", "derivation.dag.zst", "report.json"] {
            assert!(a.join(f).is_file(), "{n}/{f}");
        }
    }
    let first = files(&dir.path().join("SET/SET-tasks"));
    // The run's saturation folder still has every dump.
    let dumps = files(&dir.path().join("SET/saturation"));
    assert_eq!(
        dumps.keys().filter(|k| k.ends_with(".dag.zst")).count(),
        3,
        "{:?}",
        dumps.keys()
    );

    // A rerun saturates nothing and writes the same bytes.
    let o = domain_run(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("artifacts: 0 saturated here, 3 reused"),
        "{}",
        stdout(&o)
    );
    assert_eq!(files(&dir.path().join("SET/SET-tasks")), first);
    assert_eq!(files(&dir.path().join("SET/saturation")).len(), dumps.len());

    // Another seed and count reuse phase 1 too, and match a cold run.
    let o = domain_run(dir.path(), &["--seed", "7", "--count", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("3 reused"), "{}", stdout(&o));
    let cold = tempfile::tempdir().unwrap();
    let o = domain_run(cold.path(), &["--seed", "7", "--count", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        files(&dir.path().join("SET/SET-tasks")),
        files(&cold.path().join("SET/SET-tasks"))
    );
    // Another saturation limit is another artifact.
    let cfg = dir.path().join("other.toml");
    std::fs::write(
        &cfg,
        "[saturation.limits]\nmax_processed = 1000\n[tasks.tptp]\ncount = 1\n",
    )
    .unwrap();
    let mut c = saturate();
    c.args(["--domain", "SET", "--jobs", "2", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(dir.path());
    let o = c.output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(artifacts(dir.path()).len(), 6);
}

#[test]
fn saturate_then_generate_in_shards_is_the_one_process_run() {
    let one = tempfile::tempdir().unwrap();
    let o = domain_run(one.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = files(&one.path().join("SET/SET-tasks"));

    let dir = tempfile::tempdir().unwrap();
    // Phase 2 before phase 1: a clear input error, nothing saturated.
    let o = domain_run(dir.path(), &["--stage", "generate"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no saturation artifact") && stderr(&o).contains("--stage saturate"),
        "{}",
        stderr(&o)
    );
    assert!(artifacts(dir.path()).is_empty());
    // Phase 1 dealt out over three jobs, one file each.
    for i in 1..=3 {
        let o = domain_run(
            dir.path(),
            &["--stage", "saturate", "--shard", &format!("{i}/3")],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("1 saturated here"), "{}", stdout(&o));
        assert_eq!(artifacts(dir.path()).len(), i);
    }
    assert!(
        !dir.path().join("SET").exists(),
        "phase 1 writes no dataset"
    );
    let o = domain_run(dir.path(), &["--stage", "saturate", "--shard", "4/4"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("3 axiom file(s)"), "{}", stderr(&o));
    // Phase 2 in one go, and in shards merged: both the one-process bytes.
    let o = domain_run(dir.path(), &["--stage", "generate"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(files(&dir.path().join("SET/SET-tasks")), want);
    let mut shards = Vec::new();
    for i in 1..=2 {
        let o = domain_run(
            dir.path(),
            &["--stage", "generate", "--shard", &format!("{i}/2")],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        shards.push(
            dir.path()
                .join(format!("SET-shard-{i}-of-2/SET-shard-{i}-of-2-tasks")),
        );
    }
    let merged = dir.path().join("merged");
    let o = saturate()
        .arg("merge")
        .arg(&merged)
        .args(&shards)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(files(&merged), want);
}

#[test]
fn damaged_artifacts_are_named_under_generate_and_rebuilt_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let o = domain_run(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = files(&dir.path().join("SET/SET-tasks"));
    let name = artifacts(dir.path()).remove(0);
    let state = dir
        .path()
        .join("artifacts")
        .join(&name)
        .join("state.bin.zst");
    let bytes = std::fs::read(&state).unwrap();
    std::fs::write(&state, &bytes[..bytes.len() / 3]).unwrap();
    let o = domain_run(dir.path(), &["--stage", "generate"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&name) && stderr(&o).contains("state.bin.zst differs from its SHA-256"),
        "{}",
        stderr(&o)
    );
    let o = domain_run(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("1 saturated here, 2 reused"),
        "{}",
        stdout(&o)
    );
    assert_eq!(files(&dir.path().join("SET/SET-tasks")), want);
    assert_eq!(std::fs::read(&state).unwrap(), bytes);
}

#[test]
fn stage_plan_prints_files_and_units() {
    let dir = tempfile::tempdir().unwrap();
    let o = domain_run(dir.path(), &["--stage", "plan", "--levels", "1,2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["name"], "SET");
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "{v}");
    assert!(files.iter().all(|f| f.as_str().unwrap().starts_with("SET")));
    // Three families at two levels, each level its own unit.
    assert!(v["units"].as_u64().unwrap() >= 3, "{v}");
    assert!(!dir.path().join("artifacts").exists());
    let o = domain_run(dir.path(), &["--stage", "sideways"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
