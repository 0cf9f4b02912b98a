//! Unit tests of the NDL checker (`check.rs`): every rule, scoping, error
//! kinds and lines, strict and lenient modes.

use super::super::ndl::parse_proof;
use super::*;

fn f(s: &str) -> Formula {
    Formula::parse(s).unwrap()
}

fn premises(ps: &[&str]) -> Vec<(String, Formula)> {
    named_premises(&ps.iter().map(|p| f(p)).collect::<Vec<_>>())
}

/// The paper's sample proof (seed 000, §3), braces restored, with its
/// comments, lowercase `by` and compact formulas.
const PAPER_SAMPLE: &str = "{
  # We prove (B | D) by a case analysis on (A | ~ A),
  # which holds by the law of the excluded middle.
  (A | ~ A) BY ex-middle on A;
  # Case 1: Show that A implies (B | D)
  assume A {
    B BY mp on premise-1, A; # So now (B | D) follows by
    # disjunction introduction:
    (B | D) by left-either on B, D
  };
  # Case 2: Show that (~ A) implies (B | D)
  assume (~ A) {
    C BY mp on premise-2, (~ A);
    D BY mp on premise-3, C;
    (B | D) BY right-either on B, D
  };
  # The case analysis is now complete:
  (B | D) BY cases on (A | ~ A),
                      (A ==> B | D),
                      (~A ==> B | D)
}";

const PAPER_PREMISES: [&str; 3] = ["(A ==> B)", "(~ A ==> C)", "(C ==> D)"];

#[test]
fn paper_sample_proof_checks() {
    let ps = premises(&PAPER_PREMISES);
    for mode in [Mode::Strict, Mode::Lenient] {
        let r = check_text(&ps, &f("(B | D)"), PAPER_SAMPLE, mode);
        assert_eq!(r.result, Ok(f("(B | D)")), "{mode:?}");
        assert_eq!(r.steps, 7);
    }
}

fn first_error(ps: &[&str], goal: &str, proof: &str) -> (ErrorKind, usize) {
    let e = check_text(&premises(ps), &f(goal), proof, Mode::Strict)
        .result
        .unwrap_err();
    (e.kind, e.line)
}

#[test]
fn error_kinds_and_lines_follow_the_spec() {
    use ErrorKind::*;
    let ps = ["(A & B)", "(A ==> C)"];
    let g = "C";
    // syntax: unknown rule, undefined name, missing ';', definition last.
    assert_eq!(
        first_error(
            &ps,
            g,
            "{\n  A BY and-elim on premise-1;\n  C BY mp on premise-2, A\n}"
        ),
        (Syntax, 2)
    );
    assert_eq!(
        first_error(
            &ps,
            g,
            "{\n  A BY left-and on premise-9;\n  C BY mp on premise-2, A\n}"
        ),
        (Syntax, 2)
    );
    assert_eq!(
        first_error(
            &ps,
            g,
            "{\n  A BY left-and on premise-1\n  C BY mp on premise-2, A\n}"
        ),
        (Syntax, 3)
    );
    assert_eq!(
        first_error(&ps, g, "{\n  A BY left-and on premise-1;\n  x := C\n}"),
        (Syntax, 3)
    );
    // type: arity, schema, cross-argument mismatch.
    assert_eq!(
        first_error(
            &ps,
            g,
            "{\n  A BY left-and on premise-1, premise-1;\n  C BY mp on premise-2, A\n}"
        ),
        (Type, 2)
    );
    assert_eq!(
        first_error(
            &ps,
            g,
            "{\n  A BY dn on premise-1;\n  C BY mp on premise-2, A\n}"
        ),
        (Type, 2)
    );
    assert_eq!(
        first_error(
            &ps,
            g,
            "{\n  B BY right-and on premise-1;\n  C BY mp on premise-2, B\n}"
        ),
        (Type, 3)
    );
    assert_eq!(
        first_error(
            &ps,
            g,
            "{\n  A BY left-and on premise-1;\n  C BY mp on premise-1, A\n}"
        ),
        (Type, 3)
    );
    // logic: argument does not hold, BY mismatch, wrong final result (line 0).
    assert_eq!(
        first_error(&ps, g, "{\n  C BY mp on premise-2, A\n}"),
        (Logic, 2)
    );
    assert_eq!(
        first_error(
            &ps,
            g,
            "{\n  B BY left-and on premise-1;\n  C BY mp on premise-2, A\n}"
        ),
        (Logic, 2)
    );
    assert_eq!(
        first_error(&ps, g, "{\n  A BY left-and on premise-1\n}"),
        (Logic, 0)
    );
    // logic: a lemma used after its block closed.
    assert_eq!(
        first_error(
            &ps,
            g,
            "{\n  assume D {\n    A BY left-and on premise-1\n  };\n  C BY mp on premise-2, A\n}"
        ),
        (Logic, 5)
    );
    // logic: from-false without false; suppose-absurd not ending in false.
    assert_eq!(
        first_error(&ps, g, "{\n  C BY from-false on C\n}"),
        (Logic, 2)
    );
    assert_eq!(
        first_error(
            &ps,
            "(~ D)",
            "suppose-absurd D {\n  A BY left-and on premise-1\n}"
        ),
        (Logic, 1)
    );
    // syntax: an inline subproof as an argument.
    assert_eq!(
        first_error(&ps, g, "{\n  C BY mp on assume A { claim on A }, A\n}").0,
        Syntax
    );
}

#[test]
fn lenient_mode_repairs_only_cosmetic_faults() {
    // The spec's example: strictly mt yields (~ (~ C)), not C.
    let ps = premises(&["((~ C) ==> B)", "(~ B)"]);
    let proof = "C BY mt on premise-1, premise-2";
    assert_eq!(
        check_text(&ps, &f("C"), proof, Mode::Strict)
            .result
            .unwrap_err()
            .kind,
        ErrorKind::Logic
    );
    let r = check_text(&ps, &f("C"), proof, Mode::Lenient);
    assert!(r.ok());
    assert_eq!(r.repairs.len(), 1);
    // A left/right swap that the annotation disambiguates.
    let ps = premises(&["(A & B)"]);
    let r = check_text(&ps, &f("B"), "B BY left-and on premise-1", Mode::Lenient);
    assert!(r.ok() && r.repairs[0].contains("right-and"));
    assert!(!check_text(&ps, &f("B"), "B BY left-and on premise-1", Mode::Strict).ok());
    // A substantive fault is never excused.
    assert!(!check_text(&ps, &f("C"), "C BY left-and on premise-1", Mode::Lenient).ok());
}

#[test]
fn every_rule_has_a_valid_use() {
    // (premises, goal, proof) per rule; each must check strictly.
    let cases: [(&[&str], &str, &str); 25] = [
        (&["A"], "A", "A BY claim on A"),
        (&["(A & B)"], "A", "A BY left-and on (A & B)"),
        (&["(A & B)"], "B", "B BY right-and on (A & B)"),
        (&["A", "B"], "(A & B)", "(A & B) BY both on A, B"),
        (&["(A ==> B)", "A"], "B", "B BY mp on (A ==> B), A"),
        (&["A"], "(A | C)", "(A | C) BY left-either on A, C"),
        (&["A"], "(C | A)", "(C | A) BY right-either on C, A"),
        (
            &["(A | B)", "(A ==> C)", "(B ==> C)"],
            "C",
            "C BY cases on (A | B), (A ==> C), (B ==> C)",
        ),
        (&["A", "(~ A)"], "false", "false BY absurd on (~ A), A"),
        (&["(~ (~ A))"], "A", "A BY dn on (~ (~ A))"),
        (&["(A <==> B)"], "(A ==> B)", "left-iff on (A <==> B)"),
        (&["(A <==> B)"], "(B ==> A)", "right-iff on (A <==> B)"),
        (
            &["(A ==> B)", "(B ==> A)"],
            "(A <==> B)",
            "equiv on (A ==> B), (B ==> A)",
        ),
        (&[], "(C | (~ C))", "ex-middle on C"),
        (&["(~ (A | B))"], "((~ A) & (~ B))", "dm on (~ (A | B))"),
        (&["(A | B)", "(~ A)"], "B", "dsyl on (A | B), (~ A)"),
        (
            &["(~ (A ==> B))"],
            "(A & (~ B))",
            "neg-cond on (~ (A ==> B))",
        ),
        (
            &["((A & (~ B)) | ((~ A) & B))"],
            "(~ (A <==> B))",
            "neg-bicond on ((A & (~ B)) | ((~ A) & B))",
        ),
        (
            &["(A & (~ A))"],
            "B",
            "{ A BY left-and on (A & (~ A)); (~ A) BY right-and on (A & (~ A)); false BY absurd on A, (~ A); B BY from-false on B }",
        ),
        (&["(A ==> B)", "(~ B)"], "(~ A)", "mt on (A ==> B), (~ B)"),
        (&["((~ A) | B)"], "(A ==> B)", "cond-def on ((~ A) | B)"),
        (
            &["(A <==> B)"],
            "((A & B) | ((~ A) & (~ B)))",
            "bicond-def' on (A <==> B)",
        ),
        (&["A", "(~ A)"], "C", "from-complements on C, A, (~ A)"),
        (
            &["((~ A) ==> false)"],
            "A",
            "by-contradiction on A, ((~ A) ==> false)",
        ),
        (
            &["(A & B)"],
            "(~ (~ A))",
            "suppose-absurd (~ A) { A BY left-and on (A & B); false BY absurd on A, (~ A) }",
        ),
    ];
    let mut used = std::collections::BTreeSet::new();
    for (ps, g, proof) in cases {
        let r = check_text(&premises(ps), &f(g), proof, Mode::Strict);
        assert!(r.ok(), "{proof}: {:?}", r.result);
        let mut d = parse_proof(proof, false).unwrap();
        let mut names = Vec::new();
        super::super::ndl::visit_steps(&mut d, &mut |s| names.push(s.rule.clone()));
        used.extend(names);
    }
    let all: std::collections::BTreeSet<String> =
        RULES.iter().map(|r| r.name.to_string()).collect();
    assert_eq!(used, all);
}
