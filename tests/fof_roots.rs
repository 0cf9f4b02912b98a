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

/// Tasks from FOF axiom files show the formulas the background clauses
/// came from, by their TPTP names, each with its clausal form; the
/// metadata carries them (`context_formulas`), and `verify` renders the
/// same prompts again from it.
#[test]
fn fof_task_backgrounds_show_the_original_formulas() {
    let r = root("tptp-fof");
    let out = std::env::temp_dir().join(format!("saturate-fof-tasks-{}", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_saturate"))
        .args([
            "--domain", "SET", "--count", "1", "--levels", "1", "--format", "jsonl", "-q", "--tptp",
        ])
        .arg(&r)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ds = out.join("SET/SET-tasks");
    let text = std::fs::read_to_string(ds.join("conjecture_entailment/train-00000-of-00001.jsonl"))
        .expect("entailment shard");
    let mut with_formulas = 0;
    for line in text.lines() {
        let row: serde_json::Value = serde_json::from_str(line).expect("json row");
        let meta: serde_json::Value =
            serde_json::from_str(row["metadata"].as_str().expect("metadata")).expect("json");
        let prompt = row["prompt"].as_str().expect("prompt");
        let Some(formulas) = meta["context_formulas"].as_array() else {
            continue;
        };
        let axioms = meta["context_axioms"].as_array().expect("context axioms");
        assert_eq!(formulas.len(), axioms.len());
        for (f, a) in formulas.iter().zip(axioms) {
            let a = a.as_str().unwrap();
            if f.is_null() {
                assert!(prompt.contains(&format!("\n- {a}\n")), "{prompt}");
                continue;
            }
            let (name, formula) = (f["name"].as_str().unwrap(), f["formula"].as_str().unwrap());
            assert!(formula.contains('!') || formula.contains('?') || formula.contains("=>"));
            assert!(
                prompt.contains(&format!(
                    "\n- {name}: {formula}\n  clauses of its clausal form used here:\n"
                )),
                "{prompt}"
            );
            assert!(prompt.contains(&format!("\n  - {a}\n")), "{prompt}");
            with_formulas += 1;
        }
    }
    assert!(with_formulas > 0, "no FOF-origin background axiom: {text}");
    let v = Command::new(env!("CARGO_BIN_EXE_saturate"))
        .arg("verify")
        .arg(&ds)
        .output()
        .expect("runs");
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
    std::fs::remove_dir_all(&out).ok();
}
