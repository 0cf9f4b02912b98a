//! Nothing a user types can delete or alter a file the run did not create
//! (issue 50): look-alike temporaries beside `--out` are kept, outputs that
//! are, hold or lie inside an input are refused, edited artifacts are never
//! used, duplicate domains and endless answer files are input errors, and
//! `-q` hides the housekeeping lines. Each test runs the real binary.

mod common;

use common::{saturate, stderr};
use std::path::Path;
use std::process::Output;

fn run(args: &[&str], paths: &[&Path]) -> Output {
    let mut c = saturate();
    c.args(args);
    for p in paths {
        c.arg(p);
    }
    c.output().expect("runs")
}

fn pl(out: &Path, extra: &[&str]) -> Output {
    let mut c = saturate();
    c.args(["pl", "-q", "--count", "2", "--levels", "1,2"])
        .args(extra)
        .arg("--out")
        .arg(out);
    c.output().expect("runs")
}

/// Every file under `dir` with its bytes, by relative path.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The marker text of a staging folder made on this machine during an
/// earlier boot: its process has certainly ended.
fn dead_marker() -> String {
    let host: String = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap()
        .trim()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .collect();
    format!("saturate staging folder: test\nhost={host}\nboot=an-earlier-boot\npid=1\nstart=0\n")
}

#[test]
fn look_alike_temporaries_beside_out_are_kept_marked_dead_ones_removed() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::create_dir(d.join("data.old-2024")).unwrap();
    std::fs::write(d.join("data.old-2024/b.txt"), "backup").unwrap();
    std::fs::write(d.join("data.tmp-31337"), "keep").unwrap();
    std::fs::create_dir(d.join("data.tmp-4194304")).unwrap();
    let dead = d.join("data.tmp-4194304-0");
    std::fs::create_dir(&dead).unwrap();
    std::fs::write(dead.join(".saturate-staging"), dead_marker()).unwrap();
    std::fs::write(dead.join("x.parquet"), "partial").unwrap();
    // Without RUST_LOG (the tests' helper sets it), as a user runs it.
    let o = saturate()
        .env_remove("RUST_LOG")
        .args(["pl", "-q", "--count", "2", "--levels", "1,2", "--out"])
        .arg(d.join("data"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // `-q`: not a line on stderr, not even the removal.
    assert_eq!(stderr(&o), "", "-q printed housekeeping lines");
    assert_eq!(
        std::fs::read_to_string(d.join("data.old-2024/b.txt")).unwrap(),
        "backup"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("data.tmp-31337")).unwrap(),
        "keep"
    );
    assert!(d.join("data.tmp-4194304").is_dir());
    assert!(!dead.exists());
    // Without -q the removal is said.
    std::fs::create_dir(&dead).unwrap();
    std::fs::write(dead.join(".saturate-staging"), dead_marker()).unwrap();
    let o = saturate()
        .env_remove("RUST_LOG")
        .args(["pl", "--count", "2", "--levels", "1,2", "--out"])
        .arg(d.join("data"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("left by an interrupted run"),
        "{}",
        stderr(&o)
    );
    assert!(!dead.exists());
    // A second run over the first leaves no staging folder of its own.
    let names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
}

#[test]
fn merge_refuses_an_output_that_is_holds_or_lies_inside_an_input_shard() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let (s1, s2) = (d.join("s1"), d.join("s2"));
    for (i, s) in [(1, &s1), (2, &s2)] {
        let o = pl(s, &["--shard", &format!("{i}/2")]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let before = tree(&s1);
    std::os::unix::fs::symlink(&s1, d.join("link")).unwrap();
    let cases = [
        (s1.clone(), "is the input shard"),
        (d.join("link"), "is the input shard"),
        (s1.join("sub/merged"), "lies inside the input shard"),
        (d.join("s2/../s1/x"), "lies inside the input shard"),
        (d.to_path_buf(), "holds the input shard"),
    ];
    for (out, why) in cases {
        let o = run(&["merge", "-q"], &[&out, &s1, &s2]);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{}: {}",
            out.display(),
            stderr(&o)
        );
        assert!(
            stderr(&o).contains(why),
            "{}: {}",
            out.display(),
            stderr(&o)
        );
        assert_eq!(tree(&s1), before, "{} altered s1", out.display());
        let o = run(&["verify", "-q"], &[&s1]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    // A separate output is fine.
    let o = run(&["merge", "-q"], &[&d.join("m"), &s1, &s2]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn generators_refuse_an_output_holding_their_config_or_the_tptp_library() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let cfg = d.join("c.toml");
    std::fs::write(&cfg, "").unwrap();
    for cmd in ["pl", "eq", "equiv"] {
        for out in [cfg.clone(), d.to_path_buf()] {
            let o = run(
                &[cmd, "-q", "--count", "1", "--config"],
                &[&cfg, Path::new("--out"), &out],
            );
            assert_eq!(
                o.status.code(),
                Some(2),
                "{cmd} {}: {}",
                out.display(),
                stderr(&o)
            );
            assert!(stderr(&o).contains("the config file"), "{}", stderr(&o));
        }
    }
    assert_eq!(std::fs::read_to_string(&cfg).unwrap(), "");
    // A domain run whose output lies inside the TPTP library read, or
    // whose artifacts folder would hold it.
    let inside = d.join("tptp");
    let holds = d.join("o/artifacts/tptp");
    for lib in [&inside, &holds] {
        std::fs::create_dir_all(lib.join("Axioms")).unwrap();
        std::fs::write(lib.join("Axioms/SET001-0.ax"), "cnf(a, axiom, p(X)).\n").unwrap();
    }
    for (lib, out, why) in [
        (&inside, inside.join("out"), "lies inside"),
        (&holds, d.join("o"), "holds"),
    ] {
        let o = run(
            &["--domain", "SET", "-q", "--count", "1", "--tptp"],
            &[lib, Path::new("--out"), &out],
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("{why} the TPTP library")),
            "{}",
            stderr(&o)
        );
        assert_eq!(tree(lib).len(), 1);
    }
    assert!(!inside.join("out").exists());
}

#[test]
fn a_domain_given_twice_is_a_usage_error_up_front() {
    let t = tempfile::tempdir().unwrap();
    for domains in ["SET,SET", "SET,set"] {
        let o = run(
            &["--domain", domains, "-q", "--count", "1", "--out"],
            &[&t.path().join("o")],
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("given twice"), "{}", stderr(&o));
        assert!(!t.path().join("o").exists());
    }
}

/// Edits a file of one artifact: `report.json` gets a number changed (still
/// valid JSON), the other files a flipped byte.
fn tamper(path: &Path) {
    let mut b = std::fs::read(path).unwrap();
    if path.extension().is_some_and(|e| e == "json") {
        let text = String::from_utf8(b.clone()).unwrap();
        let at = text.find("\"processed\": ").unwrap() + "\"processed\": ".len();
        b.insert(at, b'1');
    } else {
        let at = b.len() / 2;
        b[at] ^= 1;
    }
    std::fs::write(path, b).unwrap();
}

#[test]
fn edited_artifacts_are_saturated_again_or_refused_by_stage_generate() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("o");
    let domain = |extra: &[&str]| {
        let mut c = saturate();
        c.args([
            "--domain",
            "SET",
            "--max-processed",
            "200",
            "--count",
            "1",
            "--levels",
            "1",
        ])
        .args(extra)
        .arg("--out")
        .arg(&out);
        c.output().expect("runs")
    };
    let o = domain(&["-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = std::fs::read(out.join("SET/SET-tasks/manifest.json")).unwrap();
    let artifact = std::fs::read_dir(out.join("artifacts"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("SET-boolean-")
        })
        .unwrap();
    for file in ["report.json", "derivation.dag.zst", "state.bin.zst"] {
        let path = artifact.join(file);
        let good = std::fs::read(&path).unwrap();
        tamper(&path);
        // `--stage generate` never saturates: the edit is an input error.
        let o = domain(&["-q", "--stage", "generate"]);
        assert_eq!(o.status.code(), Some(2), "{file}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(file) && stderr(&o).contains("SHA-256"),
            "{file}: {}",
            stderr(&o)
        );
        // A full run warns (even with -q) and saturates again: the same
        // engine state and dump come back (the report's timings differ),
        // and `--stage generate` accepts the artifact again.
        let o = domain(&["-q"]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("saturating SET-boolean again"),
            "{}",
            stderr(&o)
        );
        if file != "report.json" {
            assert_eq!(std::fs::read(&path).unwrap(), good, "{file} not made again");
        }
        let o = domain(&["-q", "--stage", "generate"]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        assert_eq!(
            std::fs::read(out.join("SET/SET-tasks/manifest.json")).unwrap(),
            want
        );
        assert_eq!(
            std::fs::read(out.join("SET/saturation/SET-boolean.dag.zst")).unwrap(),
            std::fs::read(artifact.join("derivation.dag.zst")).unwrap()
        );
    }
}

#[test]
fn an_endless_answers_file_is_an_input_error_naming_the_line() {
    let t = tempfile::tempdir().unwrap();
    let ds = t.path().join("d");
    let o = pl(&ds, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(
        &["score", "-q", "--answers", "/dev/zero", "--dataset"],
        &[&ds, Path::new("--out"), &t.path().join("s.jsonl")],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 1 is longer than"),
        "{}",
        stderr(&o)
    );
}
