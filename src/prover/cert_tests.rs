//! Certificate regression tests: detailed simplification certificates of
//! long permutative rewrite chains, tampered certificates, and inputs with
//! numbers and distinct objects.

use super::{InputClause, Prover, ProverLimits, Refutation, Verdict};
use crate::checker::{CheckProblem, check};
use crate::logic::TermBank;
use crate::tptp::{clause_to_tptp, parse_str};

const MEDIAN: &str = "
cnf(majority, axiom, f(X,X,Y) = X).
cnf(permute1, axiom, f(X,Y,Z) = f(X,Z,Y)).
cnf(permute2, axiom, f(X,Y,Z) = f(Z,Y,X)).
cnf(distributivity, axiom, f(f(X,W,Y),W,Z) = f(X,W,f(Y,W,Z))).
";

fn refute(text: &str) -> (CheckProblem, Verdict, Prover) {
    refute_with(text, Prover::new(ProverLimits::default()))
}

/// `text`'s clauses refuted by `prover`, with the problem to check against.
fn refute_with(text: &str, mut prover: Prover) -> (CheckProblem, Verdict, Prover) {
    let mut bank = TermBank::new();
    let p = parse_str(&mut bank, text, "test.p", None).unwrap();
    let inputs: Vec<InputClause> = p.clauses.iter().map(InputClause::parsed).collect();
    let o = prover.refute(&bank, &inputs);
    let problem = CheckProblem {
        axioms: inputs
            .iter()
            .map(|c| clause_to_tptp(&bank, &c.lits))
            .collect(),
        conjecture: None,
    };
    (problem, o.verdict, prover)
}

/// The certificate without simplification detail, as older certificates are.
fn without_detail(r: &Refutation) -> Refutation {
    let mut r = r.clone();
    for s in &mut r.steps {
        s.raw = None;
        for u in &mut s.simps {
            *u = super::SimpUse {
                kind: u.kind.clone(),
                unit: u.unit,
                ..Default::default()
            };
        }
    }
    r
}

/// A median-algebra goal whose refutation rewrites one clause 18 times
/// with permutative equations: replaying that chain by search overflowed
/// the checker's candidate bound, so the correct certificate was refused.
fn median_refutation() -> (CheckProblem, Refutation) {
    let text =
        format!("{MEDIAN}cnf(goal, negated_conjecture, f(f(a,b,c),b,c) != f(b,c,f(a,b,c))).");
    let (problem, v, mut prover) = refute(&text);
    assert_eq!(prover.take_defects(), Vec::new());
    let Verdict::Theorem { refutation } = v else {
        panic!("expected a theorem, got {}", v.name());
    };
    (problem, refutation)
}

/// The step with the most simplifications.
fn longest(r: &Refutation) -> usize {
    (0..r.steps.len())
        .max_by_key(|&k| (r.steps[k].simps.len(), std::cmp::Reverse(k)))
        .unwrap()
}

fn theorem(r: &Refutation) -> Verdict {
    Verdict::Theorem {
        refutation: r.clone(),
    }
}

#[test]
fn a_long_permutative_rewrite_chain_checks_by_replay() {
    let (problem, r) = median_refutation();
    let k = longest(&r);
    assert!(r.steps[k].simps.len() >= 18, "{:?}", r.steps[k]);
    assert!(r.steps[k].raw.is_some());
    assert!(check(&problem, &theorem(&r)).is_ok());
    // The same certificate without the detail makes the checker search,
    // which hits its candidate bound: what the detail is for.
    let e = check(&problem, &theorem(&without_detail(&r))).unwrap_err();
    assert!(e.message.contains("candidate"), "{e}");
}

/// Applies `tamper` to every rewrite of the longest step in turn; each
/// tampered certificate must be refused with a message naming the step.
fn refused_everywhere(tamper: impl Fn(&mut super::SimpUse, &Refutation)) {
    let (problem, r) = median_refutation();
    let k = longest(&r);
    let id = r.steps[k].id;
    let mut tried = 0;
    for j in 0..r.steps[k].simps.len() {
        if r.steps[k].simps[j].kind != "rewrite" {
            continue;
        }
        let mut bad = r.clone();
        tamper(&mut bad.steps[k].simps[j], &r);
        assert_ne!(bad, r);
        let e = check(&problem, &theorem(&bad)).unwrap_err();
        assert!(e.message.contains(&format!("step {id}:")), "{e}");
        tried += 1;
    }
    assert!(tried > 0);
}

#[test]
fn a_wrong_position_is_refused() {
    // The root of the side instead of the redex below it, or a subterm of
    // the redex: neither can equal the redex.
    refused_everywhere(|s, _| {
        let p = s.path.as_mut().unwrap();
        if p.is_empty() {
            p.push(0);
        } else {
            p.clear();
        }
    });
}

#[test]
fn a_wrong_substitution_is_refused() {
    refused_everywhere(|s, _| {
        let subst = s.subst.as_mut().unwrap();
        let (_, t) = subst.iter_mut().next().expect("a non-ground unit");
        *t = format!("f({t},{t},{t})");
    });
}

#[test]
fn a_wrong_unit_is_refused() {
    // The negated conjecture is a unit, but not a positive equation.
    refused_everywhere(|s, r| {
        let goal = r
            .steps
            .iter()
            .find(|s| s.name.as_deref() == Some("goal"))
            .unwrap();
        s.unit = Some(goal.id);
    });
}

#[test]
fn a_wrong_orientation_is_refused() {
    // A rewrite never replaces a term by itself, so the other side of the
    // unit under the substitution is never the redex.
    refused_everywhere(|s, _| s.unit_side = Some(1 - s.unit_side.unwrap()));
}

#[test]
fn numbers_and_distinct_objects_are_proved_and_checked() {
    // /work/shared/repro/R03_number.p, and the other kinds of names.
    for text in [
        "cnf(a, axiom, p(-1)).\ncnf(b, negated_conjecture, ~p(-1)).",
        "cnf(a, axiom, p(1/2, 1.5, -2.5E-3, $$w, \"d o\", 'q r')).
         cnf(b, negated_conjecture, ~p(X, 1.5, Y, $$w, \"d o\", Z)).",
    ] {
        let (problem, v, mut prover) = refute(text);
        assert_eq!(prover.take_defects(), Vec::new());
        assert_eq!(v.name(), "theorem");
        assert!(check(&problem, &v).is_ok());
    }
}

#[test]
fn a_deeply_nested_term_is_refused_cleanly() {
    let (problem, mut r) = median_refutation();
    let deep = format!("p({}a{})", "f(".repeat(50_000), ")".repeat(50_000));
    r.steps[0].clause = deep.clone();
    let e = check(&problem, &theorem(&r)).unwrap_err();
    assert!(e.message.contains("nested deeper"), "{e}");
    // Deep parentheses around a literal, and a huge flat clause.
    r.steps[0].clause = format!("{}p{}", "(~".repeat(50_000), ")".repeat(50_000));
    let e = check(&problem, &theorem(&r)).unwrap_err();
    assert!(e.message.contains("nested deeper"), "{e}");
    r.steps[0].clause = vec!["p(a)"; 100_000].join(" | ");
    let e = check(&problem, &theorem(&r)).unwrap_err();
    assert!(
        e.message.len() < 1_000,
        "the message abbreviates the clause"
    );
}

fn model_of(v: &Verdict) -> super::FiniteModel {
    match v {
        Verdict::CounterSatisfiable {
            evidence: super::Evidence::Model { model },
        } => model.clone(),
        _ => panic!("expected a model, got {}", v.name()),
    }
}

#[test]
fn different_distinct_values_are_unequal() {
    for text in [
        "cnf(a, axiom, \"x\" = \"y\").",
        "cnf(a, axiom, 1 = 2).",
        "cnf(a, axiom, 1/2 = 3/4).",
        "cnf(a, axiom, f(X) = \"a\" | f(X) = \"b\").
         cnf(b, axiom, f(c) != \"a\").
         cnf(c, axiom, f(c) != \"b\" | p).
         cnf(d, axiom, ~p | \"a\" = 1.5).",
    ] {
        let (problem, v, mut prover) = refute(text);
        assert_eq!(prover.take_defects(), Vec::new(), "{text}");
        let Verdict::Theorem { refutation } = &v else {
            panic!("{text}: expected a theorem, got {}", v.name());
        };
        assert!(
            refutation
                .steps
                .iter()
                .any(|s| s.simps.iter().any(|u| u.kind == "distinct_values")),
            "{text}"
        );
        assert_eq!(
            check(&problem, &v),
            Ok(crate::checker::Checked::Refutation {
                steps: refutation.steps.len()
            })
        );
        // Without detail the checker finds the deleted literal itself.
        assert!(check(&problem, &theorem(&without_detail(refutation))).is_ok());
    }
}

#[test]
fn equal_values_are_not_distinct() {
    // The same value written twice: `1/2 = 2/4` is not refutable, nor is an
    // equation with a free constant.
    for text in ["cnf(a, axiom, 1/2 = 2/4).", "cnf(a, axiom, \"x\" = c)."] {
        let (_, v, mut prover) = refute(text);
        assert_eq!(prover.take_defects(), Vec::new(), "{text}");
        assert_eq!(v.name(), "counter_satisfiable", "{text}");
    }
}

#[test]
fn a_distinct_values_step_on_equal_values_is_refused() {
    let (problem, v, _) = refute("cnf(a, axiom, \"x\" = \"y\").");
    let Verdict::Theorem { refutation } = v else {
        panic!("expected a theorem");
    };
    // The same certificate about `"x" = "x"`, and about `x = "y"` (a free
    // constant): the step is unsound there and must be refused.
    for (from, to) in [("\"y\"", "\"x\""), ("\"x\"", "x")] {
        let mut bad = refutation.clone();
        for s in &mut bad.steps {
            s.clause = s.clause.replace(from, to);
            s.raw = s.raw.as_ref().map(|r| r.replace(from, to));
        }
        let problem = CheckProblem {
            axioms: problem.axioms.iter().map(|a| a.replace(from, to)).collect(),
            conjecture: None,
        };
        assert!(check(&problem, &theorem(&bad)).is_err(), "{from} -> {to}");
        assert!(check(&problem, &theorem(&without_detail(&bad))).is_err());
    }
}

#[test]
fn models_keep_distinct_values_apart() {
    let (problem, v, mut prover) = refute("cnf(a, axiom, q(\"a\")).\ncnf(b, axiom, q(\"b\")).");
    assert_eq!(prover.take_defects(), Vec::new());
    let m = model_of(&v);
    assert_eq!(m.size, 2);
    assert!(check(&problem, &v).is_ok());
    let (problem, v, _) = refute("cnf(a, axiom, p(\"a\")).\ncnf(b, axiom, ~p(\"b\")).");
    assert!(check(&problem, &v).is_ok());
    // Tampered: both values on one element (the premises still hold in
    // the first problem's model then).
    let (problem, v, _) = refute("cnf(a, axiom, q(\"a\")).\ncnf(b, axiom, q(\"b\")).");
    let mut m = model_of(&v);
    for t in &mut m.functions {
        t.values = vec![0];
    }
    let bad = Verdict::CounterSatisfiable {
        evidence: super::Evidence::Model { model: m },
    };
    let e = check(&problem, &bad).unwrap_err();
    assert!(e.message.contains("distinct values"), "{e}");
}

/// The same clauses asked over two signatures (two axiom files' graphs)
/// are two problems: the second answer is the one a fresh prover gives,
/// not the first one's certificate with its Skolem numbering. (A shared
/// cache entry made a paper run's FLD certificates depend on which worker
/// had seen the other file's problem first.)
#[test]
fn cached_answers_never_cross_signatures() {
    let axioms = "cnf(c, axiom, plus(X,Y) = plus(Y,X)).";
    let parse = |extra: &str| {
        let mut bank = TermBank::new();
        let p = parse_str(&mut bank, &format!("{extra}{axioms}"), "t.p", None).unwrap();
        let lits: Vec<_> = p.clauses.iter().map(|c| c.lits.clone()).collect();
        (bank, lits)
    };
    let (small, a) = parse("");
    let (large, b) = parse("cnf(e, axiom, q(e1, e2, e3)).\n");
    let goal = |bank: &TermBank, lits: &[Vec<crate::logic::Literal>]| {
        assert_eq!(
            clause_to_tptp(bank, &lits[lits.len() - 1]),
            "plus(X0,X1)=plus(X1,X0)"
        );
    };
    goal(&small, &a);
    goal(&large, &b);
    let ask = |prover: &mut Prover, bank: &TermBank, lits: &[Vec<crate::logic::Literal>]| {
        let last = &lits[lits.len() - 1];
        serde_json::to_string(&prover.prove(bank, &[last], last).verdict).unwrap()
    };
    let mut shared = Prover::new(ProverLimits::default());
    let first = ask(&mut shared, &small, &a);
    let second = ask(&mut shared, &large, &b);
    let fresh = ask(&mut Prover::new(ProverLimits::default()), &large, &b);
    assert_eq!(second, fresh);
    assert_ne!(
        first, fresh,
        "the Skolem constants are numbered per signature"
    );
}

/// `p(Y) | q(Y)` given after `~p(X) | q(X)` is active: subsumption
/// resolution cuts `p(Y)` (the active clause subsumes `~p(Y) | q(Y)`),
/// and `q(Y)` refutes `~q(a)`.
const CUT: &str = "
cnf(rule, axiom, ~p(X) | q(X)).
cnf(fact, axiom, p(Y) | q(Y)).
cnf(goal, negated_conjecture, ~q(a)).
";

fn cut_refutation(cut: bool) -> (CheckProblem, Refutation) {
    let mut prover = Prover::new(ProverLimits::default());
    prover.params.subsumption_resolution = cut;
    let (problem, v, mut prover) = refute_with(CUT, prover);
    assert_eq!(prover.take_defects(), Vec::new());
    let Verdict::Theorem { refutation } = v else {
        panic!("expected a theorem, got {}", v.name());
    };
    (problem, refutation)
}

fn cuts(r: &Refutation) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (k, s) in r.steps.iter().enumerate() {
        for (j, u) in s.simps.iter().enumerate() {
            if u.kind == "subsumption_resolution" {
                out.push((k, j));
            }
        }
    }
    out
}

#[test]
fn a_subsumption_resolution_step_checks_with_and_without_detail() {
    let (problem, r) = cut_refutation(true);
    let found = cuts(&r);
    assert_eq!(found.len(), 1, "{r:?}");
    let (k, j) = found[0];
    assert!(r.steps[k].simps[j].lit.is_some());
    assert!(check(&problem, &theorem(&r)).is_ok());
    assert!(check(&problem, &theorem(&without_detail(&r))).is_ok());
    // Off (the default), the same problem is refuted without the rule.
    let (_, plain) = cut_refutation(false);
    assert!(cuts(&plain).is_empty());
}

#[test]
fn a_subsumption_resolution_by_a_clause_that_does_not_subsume_is_refused() {
    let (problem, r) = cut_refutation(true);
    let (k, j) = cuts(&r)[0];
    // The negated conjecture `~q(a)` subsumes nothing with `p(Y)` negated.
    let goal = r
        .steps
        .iter()
        .find(|s| s.name.as_deref() == Some("goal"))
        .unwrap()
        .id;
    let mut bad = r.clone();
    bad.steps[k].simps[j].unit = Some(goal);
    let e = check(&problem, &theorem(&bad)).unwrap_err();
    assert!(e.message.contains("does not subsume"), "{e}");
    // Without detail the checker finds no literal to cut.
    assert!(check(&problem, &theorem(&without_detail(&bad))).is_err());
}

/// A monoid goal that holds by unfolding `square` and `cube` and
/// rewriting with associativity alone.
const UNFOLD: &str = "
cnf(assoc, axiom, op(op(X,Y),Z) = op(X,op(Y,Z))).
cnf(square, axiom, op(X,X) = square(X)).
cnf(cube, axiom, op(X,square(X)) = cube(X)).
cnf(goal, negated_conjecture, op(square(a),cube(a)) != op(a,square(square(a)))).
";

#[test]
fn an_unfolded_refutation_checks_and_a_tampered_unfolding_is_refused() {
    let (problem, v, mut prover) = refute(UNFOLD);
    assert_eq!(prover.take_defects(), Vec::new());
    let Verdict::Theorem { refutation: r } = v else {
        panic!("expected a theorem, got {}", v.name());
    };
    // The goal's replacement rewrites with both definitions.
    let unfolded = r
        .steps
        .iter()
        .find(|s| s.rule == "simplification" && s.simps.len() >= 3)
        .expect("an unfolding step");
    let defs: Vec<u32> = unfolded.simps.iter().filter_map(|u| u.unit).collect();
    let name = |id: u32| {
        r.steps
            .iter()
            .find(|s| s.id == id)
            .and_then(|s| s.name.clone())
    };
    let mut names: Vec<String> = defs.iter().filter_map(|&d| name(d)).collect();
    names.sort();
    names.dedup();
    assert_eq!(names, ["cube", "square"]);
    assert!(check(&problem, &theorem(&r)).is_ok());
    // The same rewrite at the other side of the definition (folding where
    // the step unfolds) does not match the subterm: refused.
    let mut bad = r.clone();
    let k = bad.steps.iter().position(|s| s.id == unfolded.id).unwrap();
    let u = &mut bad.steps[k].simps[0];
    u.unit_side = u.unit_side.map(|s| 1 - s);
    assert!(check(&problem, &theorem(&bad)).is_err());
    // Off, the search proves it too, the definitions taking part in it.
    let off = Prover::new(ProverLimits {
        unfold_definitions: false,
        ..ProverLimits::default()
    });
    let (_, v, _) = refute_with(UNFOLD, off);
    assert!(matches!(v, Verdict::Theorem { .. }));
}
