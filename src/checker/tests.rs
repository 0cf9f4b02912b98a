//! Unit tests of the certificate checker: every rule on hand-written steps,
//! tampered refutations, parser bounds, numbers and distinct objects, models.

use super::model::check_model;
use super::model::interp_of;
use super::parse::parse_clause;
use super::problem::{Budget, CheckProblem, Checked};
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
    assert!(e.message.contains("step 3"), "{e}");
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
    assert_eq!(
        check_model(&p, &m, &mut Budget::default()),
        Ok(Checked::Model { size: 2 })
    );
    let bad = FiniteModel {
        functions: vec![Table {
            name: "f".into(),
            arity: 1,
            values: vec![0, 1],
        }],
        ..m
    };
    assert!(check_model(&p, &bad, &mut Budget::default()).is_err());
}

/// A clause parsed once answers in every model as `model_satisfies` does,
/// a symbol without a table included (not satisfied).
#[test]
fn parsed_clauses_agree_with_model_satisfies() {
    use super::{ModelClause, ModelTables, model_satisfies};
    let models = [
        pqr_model([0, 1], [1, 0]),
        pqr_model([1, 1], [0, 0]),
        pqr_model([0, 0], [1, 1]),
    ];
    let clauses = [
        "p(X) | q(X)",
        "~p(X) | ~q(X)",
        "p(e)",
        "r(X, Y)",
        "~r(X, e)",
        "s(X)",
        "p(X) | s(X)",
    ];
    let mut seen = std::collections::BTreeSet::new();
    for c in clauses {
        let parsed = ModelClause::parse(c).unwrap();
        for m in &models {
            let want = model_satisfies(m, c);
            assert_eq!(parsed.satisfied_by(m), want, "{c}");
            assert_eq!(parsed.holds_in(&ModelTables::of(m).unwrap()), want, "{c}");
            seen.insert(want.unwrap());
        }
    }
    // Both answers occur.
    assert_eq!(seen.len(), 2);
    assert!(ModelClause::parse("p(X) |").is_err());
}

/// A model of size 2 with unary predicates `p` (values `p`) and `q`
/// (values `q`) and a binary predicate `r` true everywhere.
fn pqr_model(p: [u32; 2], q: [u32; 2]) -> FiniteModel {
    let t = |name: &str, arity, values: Vec<u32>| Table {
        name: name.into(),
        arity,
        values,
    };
    FiniteModel {
        size: 2,
        functions: vec![t("e", 0, vec![0])],
        predicates: vec![
            t("p", 1, p.to_vec()),
            t("q", 1, q.to_vec()),
            t("r", 2, vec![1; 4]),
        ],
    }
}

/// Work units the falsifier spends on `clause`, and its answer.
fn falsify(
    m: &FiniteModel,
    clause: &str,
    work: u64,
) -> (Result<Option<Vec<u32>>, super::CheckError>, u64) {
    let interp = interp_of(m).unwrap();
    let mut syms = Syms::default();
    let c = parse_clause(&mut syms, clause).unwrap();
    let mut budget = Budget::new(work);
    let r = interp.falsifier(&syms, &c, &mut budget);
    (r, budget.spent())
}

/// The 40-variable clause of the score hang (2^40 assignments for a
/// brute-force check) is decided after a few dozen work units, whether it
/// holds (the first literal true ends every branch), fails at once, or
/// fails only after every variable is bound.
#[test]
fn forty_variable_clause_is_decided_in_linear_work() {
    let clause = (0..40)
        .map(|i| format!("p(X{i})"))
        .collect::<Vec<_>>()
        .join(" | ");
    let (holds, w1) = falsify(&pqr_model([1, 1], [0, 0]), &clause, 1_000);
    assert_eq!(holds, Ok(None));
    let (fails, w2) = falsify(&pqr_model([0, 0], [0, 0]), &clause, 1_000);
    assert_eq!(fails, Ok(Some(vec![0; 40])));
    let (late, w3) = falsify(&pqr_model([1, 0], [0, 0]), &clause, 1_000);
    assert_eq!(late, Ok(Some(vec![1; 40])));
    assert!(w1 <= 4 && w2 <= 80 && w3 <= 200, "work {w1}, {w2}, {w3}");
    // The conjecture check is the same search: a 40-variable conjecture
    // with a falsifying assignment is found at once.
    let m = pqr_model([1, 1], [1, 0]);
    let problem = CheckProblem {
        axioms: vec![clause.clone()],
        conjecture: Some(clause.replace('p', "q")),
    };
    let mut budget = Budget::new(1_000);
    assert_eq!(
        check_model(&problem, &m, &mut budget),
        Ok(Checked::Model { size: 2 })
    );
    assert!(budget.spent() < 400, "{}", budget.spent());
}

/// A literal is evaluated once its last variable is bound: with `p` false
/// everywhere only `r(X0, Xk)` decides, at the last level, so every
/// assignment is visited. Past its budget the search ends with an
/// out-of-budget error (neither accepted nor refused); within a larger
/// one the clause holds.
#[test]
fn exhausted_budget_is_an_out_of_budget_error() {
    let clause = |k: usize| {
        let mut lits: Vec<String> = (0..=k).map(|i| format!("p(X{i})")).collect();
        lits.push(format!("r(X0,X{k})"));
        lits.join(" | ")
    };
    let m = pqr_model([0, 0], [0, 0]);
    let (r, spent) = falsify(&m, &clause(20), 10_000);
    let e = r.unwrap_err();
    assert!(e.out_of_budget, "{e}");
    assert_eq!(spent, 10_000);
    let (r, spent) = falsify(&m, &clause(8), 10_000);
    assert_eq!(r, Ok(None));
    assert!(spent > 512, "{spent}");
    // Through the public entry: the error keeps its kind.
    let problem = CheckProblem {
        axioms: vec![clause(20)],
        conjecture: None,
    };
    let v = crate::certificate::Verdict::CounterSatisfiable {
        evidence: crate::certificate::Evidence::Model { model: m },
    };
    let e = super::check_within(&problem, &v, &mut Budget::new(10_000)).unwrap_err();
    assert!(e.out_of_budget);
    // A wrong model is still refused, not out of budget.
    let wrong = CheckProblem {
        axioms: vec!["p(X)".into()],
        conjecture: None,
    };
    let e = super::check(&wrong, &v).unwrap_err();
    assert!(!e.out_of_budget, "{e}");
}

/// Variant tests are bounded too: two long clauses of one predicate that
/// are no variants of each other end out of budget or `false`, never hang.
#[test]
fn variant_tests_are_bounded() {
    let mut syms = Syms::default();
    let chain = |n: usize, close: bool| {
        let mut lits: Vec<String> = (0..n).map(|i| format!("p(X{i},X{})", i + 1)).collect();
        if close {
            lits.push(format!("p(X{n},X0)"));
        } else {
            lits.push(format!("p(X{n},X{n})"));
        }
        lits.join(" | ")
    };
    let a = parse_clause(&mut syms, &chain(60, true)).unwrap();
    let b = parse_clause(&mut syms, &chain(60, false)).unwrap();
    match super::terms::variant(&a, &b) {
        Ok(v) => assert!(!v),
        Err(e) => assert!(e.out_of_budget),
    }
    assert_eq!(super::terms::variant(&a, &a.clone()), Ok(true));
}

/// Long clauses of many alike literals (17-literal Horn clauses over two
/// predicates, as in TPTP's SYO problems) are recognised as variants under
/// any renaming and literal order, and told apart when one literal
/// differs, within the work budget: the renaming search extends the most
/// constrained literal first.
#[test]
fn long_clauses_of_alike_literals_are_decided_within_budget() {
    let mut syms = Syms::default();
    let clause = |rename: &dyn Fn(usize) -> usize, broken: bool| {
        let v = |i: usize| format!("X{}", rename(i));
        let mut lits: Vec<String> = (0..8).map(|i| format!("~e(c,f({}))", v(i))).collect();
        for i in 0..8 {
            let j = if broken && i == 7 { 0 } else { i + 1 };
            lits.push(format!("~le(s({}),s({}))", v(i), v(j)));
        }
        lits.push(format!("e(f({}),f(s({})))", v(8), v(0)));
        lits.reverse();
        lits.join(" | ")
    };
    let a = parse_clause(&mut syms, &clause(&|i| i, false)).unwrap();
    let b = parse_clause(&mut syms, &clause(&|i| (i * 4 + 3) % 9, false)).unwrap();
    let c = parse_clause(&mut syms, &clause(&|i| (i * 4 + 3) % 9, true)).unwrap();
    assert_eq!(super::terms::variant(&a, &b), Ok(true));
    assert_eq!(super::terms::variant(&a, &c), Ok(false));
}
