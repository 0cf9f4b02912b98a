//! Unit tests of the certificate checker: every rule on hand-written steps,
//! tampered refutations, parser bounds, numbers and distinct objects, models.

use super::model::check_model;
use super::parse::parse_clause;
use super::problem::{CheckProblem, Checked};
use super::replay::check_refutation;
use super::terms::Syms;
use crate::certificate::{FiniteModel, ProofStep, Refutation, SimpUse, Table};

fn step(id: u32, clause: &str, rule: &str, parents: &[u32]) -> ProofStep {
    ProofStep {
        id,
        clause: clause.into(),
        rule: rule.into(),
        parents: parents.to_vec(),
        simps: Vec::new(),
        raw: None,
        role: (rule == "input").then(|| "axiom".into()),
        name: None,
    }
}

fn problem(axioms: &[&str]) -> CheckProblem {
    CheckProblem {
        axioms: axioms.iter().map(|s| s.to_string()).collect(),
        conjecture: None,
    }
}

#[test]
fn parses_printed_clauses() {
    let mut s = Syms::default();
    let c = parse_clause(&mut s, "~p(X0,f(X1)) | X0 = 'a b' | X1 != c").unwrap();
    assert_eq!(c.len(), 3);
    assert!(!c[0].pos && c[0].b.is_none());
    assert!(c[1].pos && c[1].b.is_some());
    assert!(!c[2].pos);
    assert!(parse_clause(&mut s, "$false").unwrap().is_empty());
    assert_eq!(parse_clause(&mut s, "(p | q)").unwrap().len(), 2);
    assert!(parse_clause(&mut s, "p(").is_err());
}

#[test]
fn accepts_a_correct_resolution_refutation() {
    let r = Refutation {
        steps: vec![
            step(1, "p(X0) | q(X0)", "input", &[]),
            step(2, "~p(a)", "input", &[]),
            step(3, "~q(X0)", "input", &[]),
            step(4, "q(a)", "resolution", &[1, 2]),
            step(5, "$false", "resolution", &[4, 3]),
        ],
    };
    let p = problem(&["p(X) | q(X)", "~p(a)", "~q(Y)"]);
    assert_eq!(
        check_refutation(&p, &r),
        Ok(Checked::Refutation { steps: 5 })
    );
}

#[test]
fn rejects_an_unsound_step() {
    let r = Refutation {
        steps: vec![
            step(1, "p(X0) | q(X0)", "input", &[]),
            step(2, "~p(a)", "input", &[]),
            step(3, "q(b)", "resolution", &[1, 2]),
        ],
    };
    let p = problem(&["p(X) | q(X)", "~p(a)"]);
    let e = check_refutation(&p, &r).unwrap_err();
    assert!(e.0.contains("step 3"), "{e}");
    // An input that is not in the problem.
    let r = Refutation {
        steps: vec![step(1, "$false", "input", &[])],
    };
    assert!(check_refutation(&p, &r).is_err());
}

#[test]
fn replays_rewriting_and_superposition() {
    let mut s4 = step(4, "p(b)", "simplification", &[3]);
    s4.simps = vec![
        SimpUse {
            kind: "rewrite".into(),
            unit: Some(1),
            ..SimpUse::default()
        },
        SimpUse {
            kind: "rewrite".into(),
            unit: Some(2),
            ..SimpUse::default()
        },
    ];
    let r = Refutation {
        steps: vec![
            step(1, "f(X0) = g(X0)", "input", &[]),
            step(2, "g(a) = b", "input", &[]),
            step(3, "p(f(a))", "input", &[]),
            s4,
            step(5, "~p(b)", "input", &[]),
            step(6, "$false", "resolution", &[4, 5]),
        ],
    };
    let p = problem(&["f(X) = g(X)", "g(a) = b", "p(f(a))", "~p(b)"]);
    assert!(check_refutation(&p, &r).is_ok());
    let r2 = Refutation {
        steps: vec![
            step(1, "f(X0) = g(X0)", "input", &[]),
            step(2, "p(f(a))", "input", &[]),
            step(3, "p(g(a))", "superposition", &[1, 2]),
        ],
    };
    let p2 = problem(&["f(X) = g(X)", "p(f(a))"]);
    assert!(
        check_refutation(&p2, &r2).is_err(),
        "last step is not $false"
    );
}

#[test]
fn negated_conjecture_needs_fresh_distinct_constants() {
    let p = CheckProblem {
        axioms: vec!["r(X,Y)".into()],
        conjecture: Some("r(X,Y)".into()),
    };
    let mut neg = step(2, "~r(sk0,sk1)", "input", &[]);
    neg.role = Some("negated_conjecture".into());
    let ok = Refutation {
        steps: vec![
            step(1, "r(X0,X1)", "input", &[]),
            neg.clone(),
            step(3, "$false", "resolution", &[1, 2]),
        ],
    };
    assert!(check_refutation(&p, &ok).is_ok());
    // The same constant for both variables proves only r(X,X).
    let mut bad = ok.clone();
    bad.steps[1].clause = "~r(sk0,sk0)".into();
    assert!(check_refutation(&p, &bad).is_err());
}

#[test]
fn model_evaluation() {
    let m = FiniteModel {
        size: 2,
        functions: vec![Table {
            name: "f".into(),
            arity: 1,
            values: vec![1, 0],
        }],
        predicates: vec![],
    };
    let p = CheckProblem {
        axioms: vec!["f(f(X)) = X".into(), "f(X) != X".into()],
        conjecture: Some("f(X) = X".into()),
    };
    assert_eq!(check_model(&p, &m), Ok(Checked::Model { size: 2 }));
    let bad = FiniteModel {
        functions: vec![Table {
            name: "f".into(),
            arity: 1,
            values: vec![0, 1],
        }],
        ..m
    };
    assert!(check_model(&p, &bad).is_err());
}
