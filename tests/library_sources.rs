//! The whole library as a source, through the binary: `--problems` over a
//! small TPTP root made in a temporary folder (problem files with an
//! include, a FOF problem with its own axioms, a repeated theory, a TFF
//! file and a file that is all conjecture), `--domain ALL` over the axiom
//! files of a small root and over the embedded axioms, and the input
//! errors of both.

mod common;

use common::*;
use serde_json::Value;
use std::path::Path;

/// Writes `files` (path, text) under `root`.
fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// The project's equational group axioms (a theory that saturates into
/// deep theorems within a small budget).
fn group_axioms() -> String {
    std::fs::read_to_string(crate_root().join("axioms/GRP/GRP-equational.ax")).unwrap()
}

/// A TPTP root with two problem domains: GRP (three CNF problems on one
/// axiom include, two of them the same theory once the conjecture is
/// left out, and one that is all conjecture) and LAT (a FOF problem with
/// its own axioms and a conjecture, and a TFF file).
fn problem_root(root: &Path) {
    let ax = group_axioms();
    write_files(
        root,
        &[
            ("Axioms/GRP900-0.ax", ax.as_str()),
            (
                "Problems/GRP/GRP901-1.p",
                "% Status : Unsatisfiable\ninclude('Axioms/GRP900-0.ax').\ncnf(goal, negated_conjecture, multiply(a, identity) != a).\n",
            ),
            (
                "Problems/GRP/GRP902-1.p",
                "% Status : Unsatisfiable\ninclude('Axioms/GRP900-0.ax').\ncnf(goal, negated_conjecture, multiply(a, inverse(a)) != identity).\n",
            ),
            (
                "Problems/GRP/GRP903-1.p",
                "% Status : Unsatisfiable\ninclude('Axioms/GRP900-0.ax').\ncnf(extra, hypothesis, multiply(b, b) = identity).\ncnf(goal, negated_conjecture, goalsym(b) != b).\n",
            ),
            (
                "Problems/GRP/GRP904-1.p",
                "cnf(goal, negated_conjecture, multiply(a, b) != multiply(b, a)).\n",
            ),
            (
                "Problems/LAT/LAT901+1.p",
                "% Status : Theorem\nfof(idem, axiom, ![X]: meet(X, X) = X).\nfof(comm, axiom, ![X, Y]: meet(X, Y) = meet(Y, X)).\nfof(assoc, axiom, ![X, Y, Z]: meet(meet(X, Y), Z) = meet(X, meet(Y, Z))).\nfof(absorb, axiom, ![X, Y]: meet(X, join(X, Y)) = X).\nfof(absorb2, axiom, ![X, Y]: join(X, meet(X, Y)) = X).\nfof(goal, conjecture, ![X]: conjsym(X) = meet(X, X)).\n",
            ),
            (
                "Problems/LAT/LAT902_1.p",
                "tff(t, type, a: $i).\ntff(goal, conjecture, a = a).\n",
            ),
        ],
    );
}

/// `saturate` over the root with small limits and extra arguments.
fn library_run(root: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut c = saturate();
    c.args(["--jobs", "2", "--count", "1", "--levels", "1,2"])
        .args(["--max-processed", "400"])
        .arg("--tptp")
        .arg(root)
        .arg("--out")
        .arg(out)
        .args(extra);
    c.output().unwrap()
}

/// The rows of a JSON Lines dataset folder.
fn rows(dir: &Path) -> Vec<Value> {
    let mut out = Vec::new();
    for f in files(dir).keys().filter(|k| k.ends_with(".jsonl")) {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        out.extend(
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()),
        );
    }
    out
}

#[test]
fn problems_mode_takes_each_problem_theory_without_its_conjecture() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("tptp");
    problem_root(&root);
    let out = t.path().join("out");
    // The plan lists the files that give a theory of their own.
    let o = library_run(
        &root,
        &out,
        &["--problems", "--domain", "ALL", "--stage", "plan"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(plan["name"], "ALL-problems");
    assert_eq!(
        plan["files"],
        serde_json::json!(["GRP901-1", "GRP903-1", "LAT901+1"]),
        "{plan}"
    );

    let o = library_run(
        &root,
        &out,
        &["--problems", "--domain", "ALL", "--format", "jsonl"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ds = out.join("ALL-problems/ALL-problems-tasks");
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(ds.join("manifest.json")).unwrap()).unwrap();
    let run_config = manifest["config"]["families"]["tptp"].clone();
    assert_eq!(run_config["sources"], "problems", "{manifest}");
    assert_eq!(run_config["domains"], serde_json::json!(["GRP", "LAT"]));
    let card = std::fs::read_to_string(ds.join("README.md")).unwrap();
    for want in [
        "| problem file | status |",
        "| GRP901-1 |",
        "| GRP903-1 |",
        "| LAT901+1 |",
        "3 source file(s) were left out",
        "the same theory as an earlier file",
        "(GRP902-1)",
        "no axioms once the conjecture is left out: 1 (GRP904-1)",
        "TFF (typed first-order), not read: 1 (LAT902_1)",
        "Rows written per source file",
    ] {
        assert!(card.contains(want), "card lacks {want:?}:\n{card}");
    }
    let rows = rows(&ds);
    assert!(!rows.is_empty());
    let mut sources = std::collections::BTreeSet::new();
    for r in &rows {
        let prompt = r["prompt"].as_str().unwrap();
        // The conjectures' own symbols never reach a row: they were left
        // out of the theories.
        assert!(
            !prompt.contains("goalsym") && !prompt.contains("conjsym"),
            "{prompt}"
        );
        sources.insert(r["source"].as_str().unwrap().to_string());
    }
    // Every row comes from a file kept, and the card counts them per file.
    for s in &sources {
        assert!(
            ["GRP901-1", "GRP903-1", "LAT901+1"].contains(&s.as_str()),
            "{s}"
        );
        let n = rows.iter().filter(|r| r["source"] == s.as_str()).count();
        assert!(card.contains(&format!("| {s} | {n} |")), "{s} {n}:\n{card}");
    }
    let summary: Value =
        serde_json::from_slice(&std::fs::read(ds.join("summary.json")).unwrap()).unwrap();
    let per_cell: u64 = summary["cells"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|c| c["sources"].as_object().into_iter().flatten())
        .map(|(_, n)| n.as_u64().unwrap())
        .sum();
    assert_eq!(per_cell, rows.len() as u64);
    // The rows verify, and no row repeats another.
    let o = run(&["verify", ds.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let o = run(&["dedup", ds.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let d: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(d["total"]["within"], 0, "{d}");

    // Phase 1 per file: a rerun reuses every artifact, and a shard of the
    // saturation stage takes every other file.
    let o = library_run(
        &root,
        &out,
        &["--problems", "--domain", "GRP", "--stage", "saturate"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("artifacts: 0 saturated here, 2 reused"),
        "{}",
        stdout(&o)
    );
    let o = library_run(
        &root,
        &out,
        &[
            "--problems",
            "--domain",
            "GRP,LAT",
            "--stage",
            "saturate",
            "--shard",
            "2/2",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("GRP903-1"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("GRP901-1"), "{}", stdout(&o));
}

#[test]
fn the_artifact_key_covers_the_included_file() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("tptp");
    problem_root(&root);
    let out = t.path().join("out");
    let args = ["--problems", "--domain", "GRP", "--stage", "saturate"];
    let o = library_run(&root, &out, &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The include changes: the problems that read it are saturated again.
    let ax = group_axioms().replace("multiply(identity, X) = X", "multiply(identity, X) = X | p");
    std::fs::write(root.join("Axioms/GRP900-0.ax"), ax).unwrap();
    let o = library_run(&root, &out, &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("artifacts: 2 saturated here, 0 reused"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn domain_all_takes_every_axiom_domain_of_a_root_or_the_embedded_ones() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("tptp");
    let ax = group_axioms();
    write_files(
        &root,
        &[
            ("Axioms/GRP900-0.ax", ax.as_str()),
            (
                "Axioms/LAT900+0.ax",
                "fof(idem, axiom, ![X]: meet(X, X) = X).\nfof(comm, axiom, ![X, Y]: meet(X, Y) = meet(Y, X)).\nfof(assoc, axiom, ![X, Y, Z]: meet(meet(X, Y), Z) = meet(X, meet(Y, Z))).\n",
            ),
            ("Axioms/TYP900_1.ax", "tff(t, type, a: $i).\n"),
        ],
    );
    let out = t.path().join("out");
    let o = library_run(&root, &out, &["--domain", "all", "--format", "jsonl"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ds = out.join("ALL/ALL-tasks");
    let domains: std::collections::BTreeSet<String> = rows(&ds)
        .iter()
        .map(|r| r["domain"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        domains.into_iter().collect::<Vec<_>>(),
        ["GRP", "LAT"],
        "{}",
        stderr(&o)
    );
    let card = std::fs::read_to_string(ds.join("README.md")).unwrap();
    assert!(card.contains("| axiom file | status |"), "{card}");
    assert!(card.contains("| LAT900+0 |"), "{card}");

    // Without a root, ALL is every embedded domain.
    let o = run(&["--domain", "ALL", "--stage", "plan"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(plan["name"], "ALL");
    let files: Vec<&str> = plan["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let embedded = std::fs::read_dir(crate_root().join("axioms"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .flat_map(|e| std::fs::read_dir(e.path()).unwrap().flatten())
        .filter(|e| e.path().extension().is_some_and(|x| x == "ax"))
        .count();
    assert_eq!(files.len(), embedded, "{files:?}");
    assert!(files.contains(&"GRP-equational"), "{files:?}");
}

#[test]
fn library_runs_refuse_bad_requests_with_a_clear_message() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("tptp");
    problem_root(&root);
    let out = t.path().join("out");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--domain", "ALL,GRP"], "give it alone"),
        (
            vec!["--problems", "--domain", "XYZ"],
            "unknown domain 'XYZ'",
        ),
        (vec!["--problems", "--domain", "GRPX"], "three letters"),
        (vec!["--domain", "XYZ"], "no CNF/FOF axiom files"),
        (vec!["--problems", "--domain", "GRP,grp"], "given twice"),
    ];
    for (args, want) in cases {
        let o = library_run(&root, &out, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    // --problems without a root, and a root that is not one.
    let o = run(&[
        "--problems",
        "--domain",
        "ALL",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--tptp"), "{}", stderr(&o));
    let empty = t.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    for args in [
        vec!["--domain", "ALL"],
        vec!["--problems", "--domain", "ALL"],
    ] {
        let o = library_run(&empty, &out, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("must name a TPTP root"),
            "{}",
            stderr(&o)
        );
    }
    // A domain whose files are all left out.
    write_files(
        &root,
        &[("Problems/SYN/SYN901_1.p", "tff(t, type, a: $i).\n")],
    );
    let o = library_run(&root, &out, &["--problems", "--domain", "SYN"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("SYN901_1: TFF"), "{}", stderr(&o));
    // Families without a stage take no --problems.
    let o = run(&[
        "generate",
        "pl",
        "--problems",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--problems"), "{}", stderr(&o));
    // Nothing was written by any of them.
    assert!(!out.join("ALL-problems").exists());
}
