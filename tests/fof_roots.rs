//! Every file of the two TPTP sample roots (`../shared/tptp-fof`, FOF, and
//! `../shared/tptp`, CNF) reads, clausifies and starts saturating through
//! the real binary (`derive` with no given clause processed), and `prove`
//! answers a FOF problem with a conjecture `Theorem`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(name)
}

fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.join("Axioms"), root.join("Problems")];
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if matches!(p.extension().and_then(|x| x.to_str()), Some("p" | "ax")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_file_of_both_roots_reads_and_clausifies() {
    for name in ["tptp-fof", "tptp"] {
        let r = root(name);
        let fs = files(&r);
        assert!(!fs.is_empty(), "no files under {}", r.display());
        for f in fs {
            let out = Command::new(env!("CARGO_BIN_EXE_saturate"))
                .args(["derive", "-q", "--max-processed", "0", "--tptp"])
                .arg(&r)
                .arg(&f)
                .output()
                .expect("runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{}: {}",
                f.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            // An input clause cites its file, or (from FOF) the
            // clausification of a formula line that does.
            let cites_file = |l: &str| l.contains("file(");
            let from_fof = |l: &str| {
                l.contains("inference(clausify,")
                    && stdout
                        .lines()
                        .any(|m| m.starts_with("fof(") && cites_file(m))
            };
            assert!(
                stdout
                    .lines()
                    .any(|l| l.starts_with("cnf(") && (cites_file(l) || from_fof(l))),
                "{}: no input clause",
                f.display()
            );
        }
    }
}

#[test]
fn prove_answers_a_fof_conjecture_theorem() {
    let r = root("tptp-fof");
    let out = Command::new(env!("CARGO_BIN_EXE_saturate"))
        .args(["prove", "-q", "--tptp"])
        .arg(&r)
        .arg(r.join("Problems/SET/SET705+4.p"))
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("% SZS status Theorem for SET705+4"),
        "{stdout}"
    );
}

#[test]
fn other_dialects_are_inappropriate() {
    let dir = std::env::temp_dir().join(format!("saturate-fof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("T.p");
    std::fs::write(&f, "tff(t, type, a: $i).\n").expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_saturate"))
        .args(["prove", "-q"])
        .arg(&f)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("% SZS status Inappropriate for T"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}
