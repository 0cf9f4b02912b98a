//! End-to-end tests of the `saturate` binary: derivation output and stats,
//! determinism (runs and thread counts), exit codes and error positions on
//! bad input, and the domain run on embedded and TPTP axioms.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_saturate"));
    c.env_remove("TPTP").env("RUST_LOG", "warn");
    c
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tptp() -> Option<PathBuf> {
    let p = root().join("../shared/tptp");
    if p.join("Axioms").is_dir() {
        Some(p)
    } else {
        eprintln!("note: ../shared/tptp absent; TPTP-sample parts skipped");
        None
    }
}

fn run(c: &mut Command) -> Output {
    c.output().expect("binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn derive_writes_a_readable_tstp_derivation_and_consistent_stats() {
    let Some(t) = tptp() else { return };
    let dir = tempfile::tempdir().unwrap();
    for name in ["SET002-0", "GRP003-0"] {
        let out = dir.path().join(format!("{name}.tstp"));
        let stats = dir.path().join(format!("{name}.json"));
        let o = run(bin()
            .arg("derive")
            .arg(t.join(format!("Axioms/{name}.ax")))
            .args(["--max-processed", "200", "-q", "--out"])
            .arg(&out)
            .arg("--stats-json")
            .arg(&stats));
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(&out).unwrap();
        let mut bank = saturate::logic::TermBank::new();
        let parsed = saturate::tptp::parse_str(&mut bank, &text, "derivation.p", None)
            .expect("TSTP parses back");
        let names: Vec<&str> = parsed.clauses.iter().map(|c| c.name.as_str()).collect();
        for (i, c) in parsed.clauses.iter().enumerate() {
            let ann = c.annotations.as_deref().unwrap_or("");
            if ann.starts_with("inference(") {
                // Every premise named must be an earlier clause.
                for w in ann.split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '_') {
                    if w.len() > 1
                        && w.starts_with('c')
                        && w[1..].chars().all(|d| d.is_ascii_digit())
                    {
                        let pos = names
                            .iter()
                            .position(|n| *n == w)
                            .unwrap_or_else(|| panic!("{w} unknown"));
                        assert!(pos < i, "premise {w} of {} comes later", c.name);
                    }
                }
            } else {
                assert!(ann.starts_with("file("), "input without source: {ann}");
            }
        }
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        for key in [
            "processed",
            "generated",
            "kept",
            "dag_nodes",
            "dag_edges",
            "max_depth",
            "status",
            "seconds",
        ] {
            assert!(s.get(key).is_some(), "stats lack {key}");
        }
        assert_eq!(s["dag_nodes"], s["kept"]);
        assert_eq!(s["kept"].as_u64().unwrap() as usize, parsed.clauses.len());
        assert!(s["processed"].as_u64().unwrap() <= 200);
        assert!(
            ["Saturated", "ResourceOut", "Unsatisfiable"].contains(&s["status"].as_str().unwrap())
        );
    }
}

#[test]
fn runs_are_byte_identical_and_dumps_read_back() {
    let Some(t) = tptp() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ax = t.join("Axioms/GRP003-0.ax");
    let mut outs = Vec::new();
    for (i, ext) in [(1, "tstp"), (2, "tstp"), (1, "zst"), (2, "zst")] {
        let out = dir.path().join(format!("r{i}.{ext}"));
        let stats = dir.path().join(format!("r{i}.{ext}.json"));
        let o = run(bin()
            .arg("derive")
            .arg(&ax)
            .args(["--max-processed", "300", "-q", "--out"])
            .arg(&out)
            .arg("--stats-json")
            .arg(&stats));
        assert!(o.status.success(), "{}", stderr(&o));
        outs.push((std::fs::read(&out).unwrap(), stats));
    }
    assert_eq!(outs[0].0, outs[1].0, "TSTP differs between runs");
    assert_eq!(outs[2].0, outs[3].0, "dump differs between runs");
    let recs = saturate::derivation::read_dump(&outs[2].0[..]).unwrap();
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&outs[2].1).unwrap()).unwrap();
    assert_eq!(recs.len() as u64, s["kept"].as_u64().unwrap());
    assert!(recs.iter().enumerate().all(|(i, r)| r.id as usize == i));
}

#[test]
fn domain_run_is_independent_of_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let smoke = root().join("configs/smoke.toml");
    let mut files = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.path().join(format!("j{jobs}"));
        let o = run(bin()
            .args(["--domain", "SET", "-q", "--jobs", jobs, "--config"])
            .arg(&smoke)
            .arg("--out")
            .arg(&out));
        assert!(o.status.success(), "{}", stderr(&o));
        let sat = out.join("SET/saturation");
        assert!(sat.join("summary.json").is_file());
        let mut dumps: Vec<(String, Vec<u8>)> = std::fs::read_dir(&sat)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".dag.zst"))
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        dumps.sort();
        files.push(dumps);
    }
    let embedded = std::fs::read_dir(root().join("axioms/SET"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "ax"))
        .count();
    assert_eq!(
        files[0].len(),
        embedded,
        "one derivation per embedded SET file"
    );
    assert_eq!(files[0], files[1], "--jobs changed the output");
}

#[test]
fn domain_run_reads_the_tptp_library() {
    let Some(t) = tptp() else { return };
    let dir = tempfile::tempdir().unwrap();
    let o = run(bin()
        .args(["--domain", "SET", "-q", "--max-processed", "50", "--out"])
        .arg(dir.path())
        .env("TPTP", &t));
    assert!(o.status.success(), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    for name in ["SET001-0", "SET002-0", "SET003-0"] {
        assert!(
            stdout.contains(name),
            "{name} missing from report:\n{stdout}"
        );
        assert!(
            dir.path()
                .join(format!("SET/saturation/{name}.dag.zst"))
                .is_file()
        );
    }
}

#[test]
fn small_inputs_saturate_or_refute() {
    let dir = tempfile::tempdir().unwrap();
    let sat = write(
        dir.path(),
        "sat.p",
        b"cnf(a, axiom, p(a)).\ncnf(b, axiom, ~p(X) | q(X)).\n",
    );
    let o = run(bin()
        .arg("derive")
        .arg(&sat)
        .arg("--stats-json")
        .arg(dir.path().join("s.json"))
        .arg("-q"));
    assert!(o.status.success(), "{}", stderr(&o));
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("s.json")).unwrap()).unwrap();
    assert_eq!(s["status"], "Saturated");
    let uns = write(
        dir.path(),
        "uns.p",
        b"cnf(a, axiom, p(a)).\ncnf(b, negated_conjecture, ~p(X)).\n",
    );
    let o = run(bin().arg("derive").arg(&uns).arg("-q"));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.lines().any(|l| l.contains("($false)")),
        "no empty clause:\n{text}"
    );
}

/// Each bad input exits 2, names `file:line:col` where it has one, and
/// leaves no output file.
#[test]
fn bad_input_is_reported_with_position_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: Vec<(PathBuf, &str)> = vec![
        (
            write(d, "unbal.p", b"cnf(a, axiom, (p(X) | q(X)).\n"),
            "unbal.p:1:",
        ),
        (write(d, "role.p", b"cnf(a, axiomm, p(X)).\n"), "role.p:1:"),
        (
            write(d, "inc.p", b"% header\ninclude('Axioms/NOPE-0.ax').\n"),
            "inc.p:2:",
        ),
        (
            write(d, "bin.p", &[0xff, 0xfe, 0x00, 0x81, 0x13, 0x37, 0xc3]),
            "bin.p:1:",
        ),
        (write(d, "empty.p", b""), "empty.p:1:1"),
        (
            write(d, "fof.p", b"fof(a, axiom, ![X]: p(X)).\n"),
            "fof.p:1:1",
        ),
        (d.join("does-not-exist.p"), "does-not-exist.p"),
    ];
    for (file, expect) in cases {
        let out = d.join("out.tstp");
        let o = run(bin()
            .arg("derive")
            .arg(&file)
            .arg("--out")
            .arg(&out)
            .arg("-q"));
        assert_eq!(
            o.status.code(),
            Some(2),
            "{}: {}",
            file.display(),
            stderr(&o)
        );
        let err = stderr(&o);
        assert!(
            err.contains(expect),
            "{}: expected '{expect}' in: {err}",
            file.display()
        );
        assert!(!out.exists(), "output left behind for {}", file.display());
    }
    let o = run(bin().args(["--domain", "XYZ"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown domain"));
    let cfg = write(
        d,
        "bad.toml",
        b"seed = 1\n[saturation]\nselecton = \"none\"\n",
    );
    let o = run(bin().args(["--domain", "SET", "--config"]).arg(&cfg));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.toml:3:"), "{}", stderr(&o));
    let o = run(bin().args(["derive", "--max-processed", "many", "x.p"]));
    assert_eq!(o.status.code(), Some(2));
}
