//! `saturate prove` end to end: the verdict on every problem of the shared
//! TPTP sample agrees with its `% Status` line (the binary also re-checks
//! every certificate and fails on a contradiction), proofs and models are
//! printed in TSTP, ResourceOut has its own exit code, bad input exits 2.

mod common;

use common::{saturate, stderr, stdout, tptp_root};
use saturate::logic::TermBank;
use saturate::tptp::parse_str;
use std::path::{Path, PathBuf};
use std::process::Output;

/// `saturate prove ROOT/REL --tptp ROOT ARGS`.
fn prove(root: &Path, rel: &str, args: &[&str]) -> Output {
    saturate()
        .arg("prove")
        .args(args)
        .arg(root.join(rel))
        .arg("--tptp")
        .arg(root)
        .output()
        .unwrap()
}

fn problems(root: &std::path::Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dom in std::fs::read_dir(root.join("Problems")).unwrap() {
        for f in std::fs::read_dir(dom.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "p") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

fn expected_status(p: &std::path::Path) -> String {
    let text = std::fs::read_to_string(p).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("% Status"))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("Unknown")
        .to_string()
}

#[test]
fn verdicts_agree_with_status_lines_on_the_whole_sample() {
    let Some(root) = tptp_root() else { return };
    let files = problems(&root);
    assert!(files.len() >= 50, "sample has {} problems", files.len());
    let mut solved = 0;
    let mut wrong = Vec::new();
    for f in &files {
        let o = prove(&root, f.to_str().unwrap(), &["-q"]);
        let out = stdout(&o);
        let status = out
            .lines()
            .find_map(|l| l.strip_prefix("% SZS status "))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or("none")
            .to_string();
        match (o.status.code(), status.as_str()) {
            (Some(0), "Unsatisfiable" | "Satisfiable") => {
                solved += 1;
                if status != expected_status(f) {
                    wrong.push(format!("{}: {status}", f.display()));
                }
            }
            (Some(3), "ResourceOut") => {}
            (code, s) => wrong.push(format!(
                "{}: exit {code:?}, status {s}: {}",
                f.display(),
                stderr(&o)
            )),
        }
    }
    assert!(wrong.is_empty(), "disagreements: {wrong:#?}");
    // 49 of 55 at the default limit when this test was written; a drop is a
    // regression of the search.
    assert!(solved >= 47, "only {solved} of {} solved", files.len());
}

#[test]
fn proof_output_is_a_tstp_refutation_that_reads_back() {
    let Some(root) = tptp_root() else { return };
    let o = prove(&root, "Problems/SET/SET003-1.p", &["--proof", "-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("% SZS status Unsatisfiable for SET003-1\n"),
        "{out}"
    );
    let start = out.find("% SZS output start CNFRefutation").expect("start");
    let end = out.find("% SZS output end CNFRefutation").expect("end");
    let body: String = out[start..end]
        .lines()
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect();
    let mut bank = TermBank::new();
    let p = parse_str(&mut bank, &body, "proof", None).expect("proof lines are TPTP");
    assert!(p.clauses.len() >= 3);
    let last = body.lines().last().unwrap();
    assert!(last.contains("($false)"), "{last}");
}

#[test]
fn satisfiable_problem_prints_a_finite_model() {
    let Some(root) = tptp_root() else { return };
    let o = prove(&root, "Problems/GRP/GRP131-1.005.p", &["--proof", "-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("% SZS status Satisfiable"), "{out}");
    assert!(out.contains("% SZS output start FiniteModel"), "{out}");
    // A quasigroup of order 5 needs five elements.
    assert!(
        out.contains("fi_domain, ! [X] : (X = e0 | X = e1 | X = e2 | X = e3 | X = e4))"),
        "{out}"
    );
}

#[test]
fn gave_up_has_its_own_exit_code() {
    let Some(root) = tptp_root() else { return };
    let f = root.join("Problems/SET/SET013-2.p");
    let o = saturate()
        .args([
            "prove",
            "-q",
            "--max-processed",
            "5",
            "--max-model-size",
            "1",
        ])
        .arg(&f)
        .arg("--tptp")
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    // Out of work units is ResourceOut (SZS), not GaveUp.
    assert!(stdout(&o).starts_with("% SZS status ResourceOut for SET013-2"));
}

#[test]
fn inline_problems_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let sat = dir.path().join("sat.p");
    std::fs::write(
        &sat,
        "cnf(a, axiom, f(f(X)) = X).\ncnf(b, axiom, f(X) != X).\n",
    )
    .unwrap();
    let o = saturate()
        .args(["prove", "--proof"])
        .arg(&sat)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("% SZS status Satisfiable for sat"), "{out}");
    assert!(out.contains("f(e0) = e1 & f(e1) = e0"), "{out}");

    let unsat = dir.path().join("unsat.p");
    std::fs::write(
        &unsat,
        "cnf(a, axiom, p(X) | q(X)).\ncnf(b, axiom, ~p(a)).\ncnf(c, negated_conjecture, ~q(a)).\n",
    )
    .unwrap();
    let o = saturate()
        .args(["prove", "-q"])
        .arg(&unsat)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "% SZS status Unsatisfiable for unsat\n");

    let bad = dir.path().join("bad.p");
    std::fs::write(&bad, "cnf(a, axiom, p(X) | ).\n").unwrap();
    let o = saturate().args(["prove"]).arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.p:1:"), "{}", stderr(&o));

    let o = saturate()
        .args(["prove"])
        .arg(dir.path().join("missing.p"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// Numbers in a problem (`/work/shared/repro/R03_number.p`): the checker
/// reads them as the parser does, so the certificate checks.
#[test]
fn a_problem_with_numbers_is_proved() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("R03_number.p");
    std::fs::write(
        &file,
        "cnf(a, axiom, p(-1)).\ncnf(b, negated_conjecture, ~p(-1)).\n",
    )
    .unwrap();
    let o = saturate().arg("prove").arg(&file).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("SZS status Unsatisfiable"),
        "{}",
        stdout(&o)
    );
}

/// `saturate prove` on one problem text: exit code, stdout, stderr.
fn prove_text(text: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.p");
    std::fs::write(&file, text).unwrap();
    let o = saturate().arg("prove").arg(&file).output().unwrap();
    (o.status.code(), stdout(&o), stderr(&o))
}

/// Distinct objects and numbers denote pairwise different values: the
/// proofs and models are certified (the binary re-checks them and reports
/// a certificate that does not check as a prover bug).
#[test]
fn distinct_values_are_pairwise_different() {
    for (text, status) in [
        ("cnf(a, axiom, \"x\" = \"y\").\n", "Unsatisfiable"),
        ("cnf(a, axiom, 1 = 2).\n", "Unsatisfiable"),
        (
            "cnf(a, axiom, f(X) = \"a\" | f(X) = \"b\").\n\
             cnf(b, axiom, f(c) != \"a\").\ncnf(c, axiom, f(c) != \"b\").\n",
            "Unsatisfiable",
        ),
        (
            "cnf(a, axiom, p(\"a\")).\ncnf(b, axiom, ~p(\"b\")).\n",
            "Satisfiable",
        ),
        (
            "cnf(a, axiom, q(\"a\")).\ncnf(b, axiom, q(\"b\")).\n",
            "Satisfiable",
        ),
        ("cnf(a, axiom, 1/2 = 2/4).\n", "Satisfiable"),
    ] {
        let (code, out, err) = prove_text(text);
        assert!(
            out.contains(&format!("SZS status {status}")),
            "{text}: {out}{err}"
        );
        assert!(!err.contains("does not check"), "{text}: {err}");
        assert_eq!(code, Some(0), "{text}: {err}");
    }
}

/// A CNF conjecture with a `$true` literal is a theorem; the checker reads
/// its negation `~$true` as the trivial disequation it is.
#[test]
fn a_conjecture_with_true_is_a_checked_theorem() {
    let (code, out, err) = prove_text("cnf(a, axiom, p(a)).\ncnf(c, conjecture, q(X) | $true).\n");
    assert!(out.contains("SZS status Theorem"), "{out}{err}");
    assert!(!err.contains("does not check"), "{err}");
    assert_eq!(code, Some(0), "{err}");
}
