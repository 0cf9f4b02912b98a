//! TSTP/SZS conformance of what `derive` and `prove --proof` print: SZS
//! status lines and output blocks, leaves citing `file(...)`, FOF
//! derivations before the clauses they explain, and every line accepted by
//! the TPTP grammar that the `tptp-lark-parser` Python package generates
//! from the official BNF (skipped, with a note, when Python or the package
//! is absent; `.ci/run` installs it).

mod common;

use common::{run, saturate, stderr, stdout};
use std::path::PathBuf;
use std::process::Command;

/// The outputs to check: (what, text), from a CNF and a FOF file each.
fn outputs() -> Option<Vec<(String, String)>> {
    let cnf = common::tptp_root()?;
    let fof = common::fof_root()?;
    let mut out = Vec::new();
    let mut go = |what: &str, args: Vec<String>, codes: &[i32]| {
        let o = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(
            codes.contains(&o.status.code().unwrap_or(-1)),
            "{what}: exit {:?}: {}",
            o.status.code(),
            stderr(&o)
        );
        out.push((what.to_string(), stdout(&o)));
    };
    let path = |p: PathBuf| p.display().to_string();
    go(
        "derive CNF",
        vec![
            "derive".into(),
            path(cnf.join("Axioms/GRP003-0.ax")),
            "--max-processed".into(),
            "30".into(),
            "-q".into(),
        ],
        &[0],
    );
    go(
        "derive FOF",
        vec![
            "derive".into(),
            path(fof.join("Axioms/SET006+1.ax")),
            "--tptp".into(),
            path(fof.clone()),
            "--max-processed".into(),
            "30".into(),
            "-q".into(),
        ],
        &[0],
    );
    go(
        "prove --proof CNF",
        vec![
            "prove".into(),
            path(cnf.join("Problems/GRP/GRP003-1.p")),
            "--tptp".into(),
            path(cnf.clone()),
            "--proof".into(),
            "-q".into(),
        ],
        &[0],
    );
    go(
        "prove --proof FOF",
        vec![
            "prove".into(),
            path(fof.join("Problems/SET/SET705+4.p")),
            "--tptp".into(),
            path(fof.clone()),
            "--proof".into(),
            "-q".into(),
        ],
        &[0],
    );
    go(
        "derive CNF refutation",
        vec![
            "derive".into(),
            path(cnf.join("Problems/GRP/GRP003-1.p")),
            "--tptp".into(),
            path(cnf.clone()),
            "-q".into(),
        ],
        &[0],
    );
    Some(out)
}

#[test]
fn szs_lines_blocks_and_leaves() {
    let Some(outs) = outputs() else {
        return;
    };
    for (what, text) in &outs {
        let first = text.lines().next().unwrap_or("");
        assert!(first.starts_with("% SZS status "), "{what}: {first}");
        let start = text.lines().find(|l| l.starts_with("% SZS output start "));
        let end = text.lines().find(|l| l.starts_with("% SZS output end "));
        let (Some(start), Some(end)) = (start, end) else {
            panic!("{what}: no SZS output block:\n{text}");
        };
        assert_eq!(
            start.replace("start", ""),
            end.replace("end", ""),
            "{what}: block lines differ"
        );
        assert!(
            !text.contains("introduced(input"),
            "{what}: an input leaf without file(...)"
        );
        assert!(text.contains(", file('"), "{what}: no file(...) leaf");
    }
    let (_, derive_cnf) = &outs[0];
    assert!(derive_cnf.starts_with("% SZS status ResourceOut for GRP003-0\n"));
    assert!(derive_cnf.contains("% SZS output start ListOfCNF for GRP003-0\n"));
    let (_, derive_fof) = &outs[1];
    assert!(derive_fof.starts_with("% SZS status ResourceOut for SET006+1\n"));
    // The formulas come first, the clauses cite them.
    let first_cnf = derive_fof.find("\ncnf(").unwrap();
    assert!(derive_fof.rfind("\nfof(").unwrap() < first_cnf);
    assert!(derive_fof.contains("inference(clausify,[status(thm)],[f"));
    assert!(derive_fof.contains("inference(skolemize,[status(esa),new_symbols(skolem,["));
    let (_, prove_fof) = &outs[3];
    assert!(prove_fof.starts_with("% SZS status Theorem for SET705+4\n"));
    assert!(prove_fof.contains(", conjecture, "));
    assert!(prove_fof.contains("inference(assume_negation,[status(cth)],"));
    // The empty clause ends a derive block named as the refutation it is,
    // every line it rests on above it.
    let (_, derive_ref) = &outs[4];
    assert!(
        derive_ref.contains("% SZS output start CNFRefutation for GRP003-1\n"),
        "{derive_ref}"
    );
    let lines: Vec<&str> = derive_ref.lines().collect();
    let end = lines
        .iter()
        .position(|l| l.starts_with("% SZS output end CNFRefutation"))
        .expect("block end");
    assert!(
        lines[end - 1].contains("$false"),
        "the empty clause is not the block's last line: {}",
        lines[end - 1]
    );
}

#[test]
fn a_time_limit_is_a_timeout_and_bounds_are_checked() {
    let Some(root) = common::fof_root() else {
        return;
    };
    let file = root.join("Axioms/SET006+1.ax");
    // A work limit far away and a one-second wall: the run stops as
    // Timeout (the SZS status for a time limit), still exit 0.
    let o = saturate()
        .arg("derive")
        .arg(&file)
        .arg("--tptp")
        .arg(&root)
        .args([
            "--max-processed",
            "100000000",
            "--cpu-limit",
            "1",
            "-q",
            "--out",
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "% SZS status Timeout for SET006+1\n");
    let o = saturate()
        .arg("derive")
        .arg(&file)
        .args(["--cpu-limit", "0", "-q"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// The Python interpreter, when it has the grammar package.
fn python_with_grammar() -> Option<String> {
    for py in ["python3", "python"] {
        let ok = Command::new(py)
            .args(["-c", "import lark, tptp_lark_parser"])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(py.to_string());
        }
    }
    eprintln!(
        "note: python3 with the tptp-lark-parser package is absent (pip install tptp-lark-parser); skipping the grammar check"
    );
    None
}

const GRAMMAR_CHECK: &str = r#"
import os, sys, lark, tptp_lark_parser
grammar = open(os.path.join(os.path.dirname(tptp_lark_parser.__file__), "resources", "TPTP.lark")).read()
parser = lark.Lark(grammar, start="tptp_file")
bad = 0
for path in sys.argv[1:]:
    for n, line in enumerate(open(path), 1):
        try:
            parser.parse(line)
        except lark.exceptions.LarkError as e:
            bad += 1
            print(f"{path}:{n}: {line.strip()[:200]}\n  {str(e)[:300]}")
sys.exit(1 if bad else 0)
"#;

#[test]
fn every_line_is_accepted_by_the_tptp_grammar() {
    let Some(outs) = outputs() else {
        return;
    };
    let Some(py) = python_with_grammar() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (i, (_, text)) in outs.iter().enumerate() {
        let p = dir.path().join(format!("out{i}.p"));
        std::fs::write(&p, text).unwrap();
        paths.push(p);
    }
    // The checker must be able to fail: a line outside the grammar.
    let broken = dir.path().join("broken.p");
    std::fs::write(&broken, "cnf(c1, plain, (p(X0) | ), file('x.p', a)).\n").unwrap();
    let o = Command::new(&py)
        .arg("-c")
        .arg(GRAMMAR_CHECK)
        .arg(&broken)
        .output()
        .unwrap();
    assert!(!o.status.success(), "the grammar accepted a broken line");
    let o = Command::new(&py)
        .arg("-c")
        .arg(GRAMMAR_CHECK)
        .args(&paths)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "lines outside the TPTP grammar:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}
