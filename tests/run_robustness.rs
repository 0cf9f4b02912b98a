//! Runs that die or meet bugs: SIGKILL at deterministic moments leaves no
//! folder that looks like a dataset and a rerun is byte-identical to a clean
//! run; an injected generator panic is a counted rejection with a `rejects/`
//! entry and exit 4 (`--strict`: exit 4, no dataset); a folder with a fake
//! manifest is refused before any work and its files kept; a degenerate
//! configuration that yields no rows fails.

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// A smoke domain run of SET into `out` (embedded axioms).
fn domain_run(out: &Path, jobs: &str) -> std::process::Command {
    let mut c = saturate();
    c.args(["--domain", "SET", "-q", "--jobs", jobs])
        .arg("--config")
        .arg(crate_root().join("configs/smoke.toml"))
        .arg("--out")
        .arg(out);
    c
}

/// The files of a domain run that must be byte-identical across reruns:
/// the whole dataset folder and the derivation dumps
/// (`saturation/summary.json` holds timings and is excluded).
fn reproducible(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut f: BTreeMap<String, Vec<u8>> = files(&root.join("SET/SET-tasks"))
        .into_iter()
        .map(|(k, v)| (format!("SET-tasks/{k}"), v))
        .collect();
    for (k, v) in files(&root.join("SET/saturation")) {
        if k.ends_with(".dag.zst") {
            f.insert(format!("saturation/{k}"), v);
        }
    }
    f
}

/// Every path below `dir` (relative), directories included.
fn all_names(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn sigkill_at_ten_moments_leaves_nothing_whole_and_a_rerun_is_identical() {
    let clean = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let o = domain_run(clean.path(), "1").output().unwrap();
    let clean_time = t.elapsed();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = reproducible(clean.path());
    assert!(want.contains_key("SET-tasks/manifest.json"));
    assert!(want.contains_key("SET-tasks/summary.json"));
    assert_eq!(
        manifest(&clean.path().join("SET/SET-tasks"))["complete"],
        true
    );

    let dir = tempfile::tempdir().unwrap();
    // Ten moments spread over a clean run's duration (deterministic).
    for k in 0..10u32 {
        let delay = clean_time.mul_f64((f64::from(k) + 0.5) / 10.0);
        let mut child = domain_run(dir.path(), "2")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let data = dir.path().join("SET/SET-tasks");
        if data.exists() {
            // Renamed into place, so complete: everything the manifest lists.
            assert_eq!(manifest(&data)["complete"], true, "kill {k} at {delay:?}");
            let got = reproducible(dir.path());
            let ds = |m: &BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
                m.iter()
                    .filter(|(k, _)| k.starts_with("SET-tasks/"))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            };
            assert_eq!(
                ds(&got),
                ds(&want),
                "kill {k}: a dataset folder that is not whole"
            );
        }
        // Nothing else is named like the dataset: only `SET-tasks`
        // (complete, checked above) and staging folders `SET-tasks.tmp-<pid>`.
        for name in all_names(&dir.path().join("SET")) {
            assert!(
                !name.starts_with("SET-tasks")
                    || name == "SET-tasks"
                    || name.starts_with("SET-tasks/")
                    || name.starts_with("SET-tasks.tmp-"),
                "kill {k}: {name}"
            );
        }
    }
    let o = domain_run(dir.path(), "2").output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(reproducible(dir.path()), want);
    let left: Vec<String> = all_names(dir.path())
        .into_iter()
        .filter(|n| n.contains(".tmp-") || n.contains(".old-"))
        .collect();
    assert!(
        left.is_empty(),
        "temporaries of dead runs not removed: {left:?}"
    );
}

#[test]
fn an_injected_worker_panic_is_a_counted_rejection_and_exit_4() {
    let dir = tempfile::tempdir().unwrap();
    let o = domain_run(dir.path(), "2")
        .env("SATURATE_FAULT", "panic:0")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("generator panic"), "{}", stderr(&o));
    let data = dir.path().join("SET/SET-tasks");
    assert_eq!(manifest(&data)["complete"], true);
    let summary: Value =
        serde_json::from_slice(&std::fs::read(data.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["generator_panics"], 1, "{summary}");
    assert_eq!(summary["certificate_failures"], 0, "{summary}");
    let rejects = std::fs::read_to_string(data.join("rejects/rejects.jsonl")).unwrap();
    let lines: Vec<Value> = rejects
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{rejects}");
    assert_eq!(lines[0]["kind"], "generator_panic");
    assert!(
        lines[0]["reason"]
            .as_str()
            .unwrap()
            .contains("injected fault"),
        "{rejects}"
    );
    // The slot retried with its next attempt; the run is deterministic.
    let again = tempfile::tempdir().unwrap();
    let o = domain_run(again.path(), "1")
        .env("SATURATE_FAULT", "panic:0")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(4));
    assert_eq!(reproducible(again.path()), reproducible(dir.path()));

    // --strict: the first bug ends the run, nothing that looks like a dataset.
    let strict = tempfile::tempdir().unwrap();
    let o = domain_run(strict.path(), "2")
        .arg("--strict")
        .env("SATURATE_FAULT", "panic:0")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("--strict"), "{}", stderr(&o));
    let names = all_names(strict.path());
    assert!(
        names
            .iter()
            .all(|n| !n.rsplit('/').next().unwrap().starts_with("SET-tasks")),
        "{names:?}"
    );
}

#[test]
fn pl_and_eq_count_an_injected_panic_and_honour_strict() {
    for args in [
        vec!["eq", "--count", "3", "--levels", "1", "-q"],
        vec!["pl", "--count", "3", "--levels", "1", "-q"],
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("d");
        let o = saturate()
            .args(&args)
            .arg("--out")
            .arg(&out)
            .env("SATURATE_FAULT", "panic:1")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(4), "{args:?}: {}", stderr(&o));
        assert_eq!(manifest(&out)["complete"], true);
        let rejects = std::fs::read_to_string(out.join("rejects/rejects.jsonl")).unwrap();
        assert!(rejects.contains("generator_panic"), "{rejects}");
        let summary: Value =
            serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
        assert!(
            summary["generator_panics"].as_u64().unwrap() >= 1,
            "{summary}"
        );
        let strict = dir.path().join("s");
        let o = saturate()
            .args(&args)
            .arg("--strict")
            .arg("--out")
            .arg(&strict)
            .env("SATURATE_FAULT", "panic:1")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(4), "{args:?}: {}", stderr(&o));
        assert!(!strict.exists());
        let names = all_names(dir.path());
        assert!(names.iter().all(|n| !n.contains(".tmp-")), "{names:?}");
    }
}

#[test]
fn a_folder_with_a_fake_manifest_is_refused_before_saturation_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("SET/SET-tasks");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("manifest.json"), r#"{"generator": "saturate"}"#).unwrap();
    std::fs::write(data.join("notes.md"), "my notes").unwrap();
    let t = Instant::now();
    let o = domain_run(dir.path(), "2").output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not a saturate dataset marked complete"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(data.join("notes.md")).unwrap(),
        "my notes"
    );
    // Refused before any saturation: nothing was derived.
    assert!(!dir.path().join("SET/saturation").exists());
    assert!(t.elapsed() < Duration::from_secs(30));
    // The same for pl: nothing deleted.
    let o = run(&["pl", "--count", "1", "-q", "--out", data.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(data.join("notes.md").exists());
}

#[test]
fn a_degenerate_config_with_no_rows_fails_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d");
    let o = run(&[
        "pl",
        "--families",
        "pl2",
        "--pl2-families",
        "tseitin",
        "--max-cnf-clauses",
        "1",
        "--count",
        "2",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no rows"), "{}", stderr(&o));
    assert!(!out.exists());
    assert!(all_names(dir.path()).is_empty());
}
