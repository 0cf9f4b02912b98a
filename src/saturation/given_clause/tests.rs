//! Tests of the given-clause loop: saturation and refutation on small
//! problems, limits and their statuses, duplicate handling, the rewrite
//! budget.

use super::*;
use crate::logic::TermId;
use crate::tptp::parse_str;

fn run(text: &str, max: u64) -> Saturator {
    let mut params = Params::default();
    params.limits.max_processed = Some(max);
    run_with(text, params)
}

fn run_with(text: &str, params: Params) -> Saturator {
    let mut s = saturator(text, params);
    s.run(&mut |_| {});
    s
}

/// A saturator over the clauses of `text`, every one an axiom, not yet run.
fn saturator(text: &str, params: Params) -> Saturator {
    saturator_with_roles(text, params, false)
}

/// A saturator over the clauses of `text`, not yet run; with `roles`, each
/// clause keeps its TPTP role (a `negated_conjecture` is a goal), else
/// every one is an axiom.
pub(super) fn saturator_with_roles(text: &str, params: Params, roles: bool) -> Saturator {
    let mut bank = TermBank::new();
    let p = parse_str(&mut bank, text, "test.p", None).unwrap();
    let inputs = p
        .clauses
        .iter()
        .map(|c| {
            let info = InputInfo {
                name: c.name.clone(),
                role: if roles {
                    c.role.as_str().into()
                } else {
                    "axiom".into()
                },
                file: "test.p".into(),
                source: None,
                formula: None,
            };
            (c.lits.clone(), info)
        })
        .collect();
    Saturator::from_inputs(bank, inputs, params)
}

/// Regression: a negative unit `one != zero` must never be used as a
/// rewrite rule (it once rewrote `one` to `zero`).
#[test]
fn negative_units_do_not_rewrite() {
    let s = run(
        "cnf(a, axiom, one != zero).\ncnf(b, axiom, multiply(one, X) = X).\ncnf(c, axiom, X = zero | multiply(X, reciprocal(X)) = one).",
        200,
    );
    for r in s.store.records() {
        assert!(
            !r.simps
                .iter()
                .any(|st| matches!(st, SimpStep::Rewrite(u) if !s.store.clause(*u).lits[0].pos)),
            "rewrite with a negative unit"
        );
    }
    let printed: Vec<String> = s
        .store
        .records()
        .iter()
        .map(|r| crate::tptp::clause_to_tptp(&s.bank, &r.clause.lits))
        .collect();
    assert!(
        !printed.iter().any(|c| c.contains("multiply(zero,X0)=X0")),
        "{printed:?}"
    );
}

#[test]
fn refutes_and_saturates_small_sets() {
    let s = run(
        "cnf(a, axiom, p(a)).\ncnf(b, axiom, ~p(X) | q(X)).\ncnf(c, axiom, ~q(a)).",
        100,
    );
    assert!(s.empty_clause().is_some());
    let s = run("cnf(a, axiom, p(a)).\ncnf(b, axiom, ~p(X) | q(X)).", 100);
    assert!(s.empty_clause().is_none());
    assert_eq!(s.stats.processed, 3);
}

/// A set saturated while copies of a re-derived clause are still queued
/// reports `Saturated` at once, without spending its limit on them.
#[test]
fn queued_copies_do_not_hide_saturation() {
    let text = "cnf(a, axiom, p(a)).\ncnf(b, axiom, q(a)).\n\
                    cnf(c, axiom, ~p(X) | r(X)).\ncnf(d, axiom, ~q(X) | r(X)).";
    let mut s = run(text, 100);
    assert_eq!(s.stats.duplicates, 1, "r(a) is derived twice");
    assert_eq!(s.stats.processed, 5 + s.stats.redundant_copies);
    assert_eq!(s.step(), Some(Status::Saturated));
    // Five distinct clauses: a limit of five selections suffices.
    let mut s = run(text, 5);
    assert_eq!(s.step(), Some(Status::Saturated), "{:?}", s.stats);
    assert_eq!(s.stats.processed, 5);
}

/// Group theory: the right identity follows from the left axioms by
/// superposition and rewriting (a classic completion exercise).
#[test]
fn proves_right_identity_in_groups() {
    let s = run(
        "cnf(l_id, axiom, mult(e, X) = X).\ncnf(l_inv, axiom, mult(inv(X), X) = e).\n\
             cnf(assoc, axiom, mult(mult(X, Y), Z) = mult(X, mult(Y, Z))).\ncnf(goal, negated_conjecture, mult(c, e) != c).",
        2000,
    );
    assert!(
        s.empty_clause().is_some(),
        "no refutation after {:?}",
        s.stats
    );
}

fn last_status(s: &mut Saturator) -> Status {
    s.step().expect("the run is over")
}

/// A term that doubles at each step (`p(X) -> p(g(X,X))`) reaches the
/// weight limit after a few steps instead of filling memory: the run
/// ends `ResourceOut` with the heavy conclusions counted.
#[test]
fn doubling_terms_stop_at_the_weight_limit() {
    let text = "cnf(a, axiom, p(a)).\ncnf(b, axiom, ~p(X) | p(g(X,X))).";
    let mut s = run(text, 1_000_000);
    assert_eq!(last_status(&mut s), Status::ResourceOut, "{:?}", s.stats);
    assert!(s.stats.too_heavy >= 1);
    assert!(s.stats.processed < 20, "{:?}", s.stats);
    // Without the limit the same run is cut only by max_processed.
    let mut params = Params {
        max_clause_weight: None,
        ..Params::default()
    };
    params.limits.max_processed = Some(12);
    let mut s = run_with(text, params);
    assert_eq!(last_status(&mut s), Status::ResourceOut);
    assert_eq!(s.stats.too_heavy, 0);
}

/// An input clause over the literal limit is recorded, deleted and makes
/// the run incomplete: this set would saturate without it.
#[test]
fn long_input_clauses_are_dropped() {
    let long: Vec<String> = (0..5).map(|i| format!("q(X{i})")).collect();
    let text = format!("cnf(a, axiom, p(a)).\ncnf(b, axiom, {}).", long.join(" | "));
    let mut params = Params {
        max_clause_literals: Some(4),
        ..Params::default()
    };
    let mut s = run_with(&text, params.clone());
    assert_eq!(last_status(&mut s), Status::ResourceOut);
    assert_eq!(s.stats.too_long, 1);
    assert_eq!(s.store.records().len(), 2, "every input is recorded");
    params.max_clause_literals = Some(5);
    let mut s = run_with(&text, params);
    assert_ne!(last_status(&mut s), Status::ResourceOut, "{:?}", s.stats);
    assert_eq!(s.stats.too_long, 0);
}

/// The per-given budget cuts the factoring of a long clause (39,800
/// conclusions of 199 literals for 200 literals) inside one iteration.
#[test]
fn per_given_budget_cuts_generation() {
    let lits: Vec<String> = (0..40).map(|i| format!("p(X{i})")).collect();
    let text = format!("cnf(m, axiom, {}).", lits.join(" | "));
    let mut params = Params::default();
    params.limits.max_processed = Some(3);
    params.limits.max_generated_literals_per_given = Some(1_000);
    let mut s = run_with(&text, params.clone());
    assert_eq!(last_status(&mut s), Status::ResourceOut);
    assert!(s.stats.budget_cut >= 1);
    // 1,000 literal units: conclusions of 39, 38 and 37 literals, at
    // most ceil(1000/37) = 28 per given clause.
    assert!(s.stats.generated <= 3 * 28, "{:?}", s.stats);
    params.limits.max_generated_literals_per_given = None;
    let s = run_with(&text, params);
    assert_eq!(s.stats.budget_cut, 0);
    assert!(s.stats.generated >= 40 * 39, "{:?}", s.stats);
}

/// The rewrite budget ends a run whose normalisation with permutative
/// units would go on, and leaves an unbounded run unchanged.
#[test]
fn rewrite_budget_ends_the_run() {
    let text = "cnf(c, axiom, f(X,Y) = f(Y,X)).\n\
                    cnf(a, axiom, f(f(X,Y),Z) = f(X,f(Y,Z))).\n\
                    cnf(i, axiom, f(X,i(X)) = e).\n\
                    cnf(u, axiom, f(e,X) = X).";
    let mut params = Params::default();
    params.limits.max_processed = Some(300);
    let free = run_with(text, params.clone());
    assert!(free.rewrite_work > 1_000, "{}", free.rewrite_work);
    params.limits.max_rewrite_attempts = Some(1_000);
    let mut s = run_with(text, params);
    assert_eq!(last_status(&mut s), Status::ResourceOut);
    assert!(s.stats.processed < free.stats.processed, "{:?}", s.stats);
    // Rewriting stops at the budget: at most one root's candidates over.
    assert!(s.rewrite_work < 1_000 + 100, "{}", s.rewrite_work);
}

/// A saturator on a lattice theory (two AC operators and absorption),
/// where rules keep arriving, limited to `processed` given clauses.
fn ac_lattice(processed: u64) -> Saturator {
    let text = "cnf(c1, axiom, meet(X,Y) = meet(Y,X)).\n\
                cnf(c2, axiom, join(X,Y) = join(Y,X)).\n\
                cnf(a1, axiom, meet(meet(X,Y),Z) = meet(X,meet(Y,Z))).\n\
                cnf(a2, axiom, join(join(X,Y),Z) = join(X,join(Y,Z))).\n\
                cnf(b1, axiom, meet(X,join(X,Y)) = X).\n\
                cnf(b2, axiom, join(X,meet(X,Y)) = X).";
    let mut params = Params::default();
    params.limits.max_processed = Some(processed);
    saturator(text, params)
}

/// The literals of the last `n` clauses stored, newest first.
fn recent_literals(s: &Saturator, n: usize) -> Vec<Literal> {
    (0..s.store.len())
        .rev()
        .take(n)
        .flat_map(|i| s.store.clause(ClauseId(i as u32)).lits.to_vec())
        .collect()
}

/// A cached normal form made under an older rule set and kept because no
/// rule added since rewrites it (`Rewriter::still_normal`) is the normal
/// form that rewriting without the cache gives, at every step of an AC
/// lattice run where rules keep arriving.
#[test]
fn revalidated_normal_forms_are_normal_forms() {
    let mut s = ac_lattice(400);
    let mut compared = 0;
    while s.step().is_none() {
        let sides: Vec<crate::logic::TermId> = recent_literals(&s, 40)
            .iter()
            .flat_map(|l| [l.lhs, l.rhs])
            .collect();
        for t in sides {
            let (mut used_a, mut used_b) = (Vec::new(), Vec::new());
            let cached = s.rewriter(&mut used_a, None, None).normal_form(t, None);
            // Excluding a clause that does not exist bypasses the cache
            // and nothing else.
            let none = ClauseId(u32::MAX);
            let mut fresh = s.rewriter(&mut used_b, Some(none), None);
            assert_eq!(cached, fresh.normal_form(t, None));
            compared += 1;
        }
    }
    assert!(compared > 1_000, "{compared}");
    assert!(s.nf_cache.refreshed() > 0, "the recheck never ran");
}

/// One rewrite step at the root (`Rewriter::rewrite_root`), with and
/// without a guard, happens exactly when some active unit `l = r` matches
/// `t` with σ, orients the instance (`t > rσ`) and, under a guard `u`,
/// stays below it (`rσ ≤ u`) unless `t` is a strict instance of `l`; its
/// result is one of those `rσ`. The rewriter checks instances through the
/// matcher without building them; this builds every candidate and compares
/// the built terms, at every step of an AC lattice run.
#[test]
fn root_rewrites_are_exactly_the_allowed_ones() {
    let mut s = ac_lattice(300);
    let (mut checked, mut guarded_rewrites, mut refused) = (0, 0, 0);
    while s.step().is_none() {
        let units: Vec<(TermId, TermId)> = s
            .active
            .ids()
            .map(|id| s.store.clause(id).lits.to_vec())
            .filter(|lits| lits.len() == 1 && lits[0].pos && lits[0].is_equational(&s.bank))
            .flat_map(|lits| [(lits[0].lhs, lits[0].rhs), (lits[0].rhs, lits[0].lhs)])
            .collect();
        let pairs: Vec<(TermId, TermId)> = recent_literals(&s, 10)
            .iter()
            .filter(|l| l.pos && !s.bank.is_var(l.lhs))
            .flat_map(|l| [(l.lhs, l.rhs), (l.rhs, l.lhs)])
            .collect();
        for (t, u) in pairs {
            let mut unguarded = None;
            for guard in [None, Some(u)] {
                let mut allowed = Vec::new();
                for &(l, r) in &units {
                    let (mut vl, mut vr) = (Vec::new(), Vec::new());
                    s.bank.count_vars(l, &mut vl);
                    s.bank.count_vars(r, &mut vr);
                    let covered = vr
                        .iter()
                        .enumerate()
                        .all(|(v, &n)| n == 0 || vl.get(v).is_some_and(|&m| m > 0));
                    let mut m = Matcher::new();
                    if s.bank.is_var(l) || !covered || !m.matches(&s.bank, l, t) {
                        continue;
                    }
                    let rs = m.apply(&mut s.bank, r);
                    if s.kbo.compare(&s.bank, t, rs) != TermOrder::Greater {
                        continue;
                    }
                    // t is a variant of l when l is an instance of t too.
                    let strict = !Matcher::new().matches(&s.bank, t, l);
                    let below = matches!(
                        s.kbo.compare(&s.bank, rs, u),
                        TermOrder::Less | TermOrder::Equal
                    );
                    if guard.is_none() || strict || below {
                        allowed.push(rs);
                    }
                }
                let mut used = Vec::new();
                let got = s.rewriter(&mut used, None, None).rewrite_root(t, guard);
                match got {
                    Some(x) => {
                        assert!(allowed.contains(&x), "{t:?} -> {x:?} not allowed");
                        guarded_rewrites += usize::from(guard.is_some());
                    }
                    None => assert!(allowed.is_empty(), "{t:?}: {allowed:?} allowed"),
                }
                // The guard refused every unit that rewrites without it.
                refused += usize::from(guard.is_some() && unguarded.is_some() && got.is_none());
                unguarded = unguarded.or(got);
                checked += 1;
            }
        }
    }
    assert!(checked > 1_000, "{checked}");
    assert!(
        guarded_rewrites > 0 && refused > 0,
        "{guarded_rewrites} {refused}"
    );
}

/// A guarded normal form (the root of a maximal side, whose rewrites must
/// stay below the other side) comes from the cache when asked again, and
/// whether fresh or made under an older rule set, no rule applies to it
/// under the same guard: rewriting it again without the cache leaves it.
#[test]
fn guarded_normal_forms_are_cached_and_normal() {
    let mut s = ac_lattice(400);
    let (mut compared, mut repeated) = (0, 0);
    while s.step().is_none() {
        let pairs: Vec<(crate::logic::TermId, crate::logic::TermId)> = recent_literals(&s, 40)
            .iter()
            .filter(|l| l.pos && !s.bank.is_var(l.lhs))
            .flat_map(|l| [(l.lhs, l.rhs), (l.rhs, l.lhs)])
            .collect();
        for (t, u) in pairs {
            let mut used = Vec::new();
            let cached = s.rewriter(&mut used, None, None).normal_form(t, Some(u));
            let work = s.rewrite_work;
            let again = s.rewriter(&mut used, None, None).normal_form(t, Some(u));
            assert_eq!(cached, again);
            if s.rewrite_work == work {
                repeated += 1;
            }
            let none = ClauseId(u32::MAX);
            let mut fresh = s.rewriter(&mut used, Some(none), None);
            assert_eq!(fresh.normal_form(cached, Some(u)), cached);
            compared += 1;
        }
    }
    assert!(compared > 1_000, "{compared}");
    // The second ask costs no rewrite work: it is answered by the cache.
    assert_eq!(repeated, compared);
}

/// The refined weight puts a clause whose bulk sits on one side of one
/// literal behind a flatter clause of the same symbol count, and the
/// conjecture's symbols count half; the sum over literals is symmetric.
#[test]
fn the_refined_weight_penalises_lopsided_literals() {
    let params = Params {
        clause_weight: ClauseWeight::Refined,
        ..Params::default()
    };
    let s = saturator(
        "cnf(a, axiom, g(a,b) = g(b,a)).\ncnf(b, axiom, g(g(a,b),a) = c).\ncnf(c, axiom, p(a) | q(b,b)).\n",
        params.clone(),
    );
    let lits = |i: usize| s.store.clause(ClauseId(i as u32)).lits.to_vec();
    let (flat, lopsided, two) = (lits(0), lits(1), lits(2));
    assert_eq!(
        saturating_weight(&s.bank, &flat),
        saturating_weight(&s.bank, &lopsided)
    );
    let w = |l: &[Literal]| s.clause_weight(l);
    assert!(w(&flat) < w(&lopsided), "{} {}", w(&flat), w(&lopsided));
    // Every literal counts twice, the heaviest once more.
    let single = |l: &Literal| refined_weight(&s.bank, std::slice::from_ref(l), &[]) / 3;
    assert_eq!(
        w(&two),
        2 * (single(&two[0]) + single(&two[1])) + single(&two[0]).max(single(&two[1]))
    );
    // With a negated conjecture, its symbols weigh less.
    let g = saturator_with_roles(
        "cnf(a, axiom, p(f(a))).\ncnf(b, axiom, p(h(a))).\ncnf(c, negated_conjecture, ~p(f(b))).\n",
        params,
        true,
    );
    let gl = |i: usize| g.store.clause(ClauseId(i as u32)).lits.to_vec();
    assert!(g.clause_weight(&gl(0)) < g.clause_weight(&gl(1)));
}

#[test]
fn subsumption_resolution_cuts_the_given_clause() {
    // `p(Y) | q(Y)` is given after `~p(X) | q(X)`: the active clause
    // subsumes `~p(Y) | q(Y)`, so `p(Y)` is cut and `q(Y)` meets `~q(a)`.
    let text = "cnf(r, axiom, ~p(X) | q(X)).\ncnf(f, axiom, p(Y) | q(Y)).\ncnf(g, axiom, ~q(a)).\n";
    let mut params = Params {
        subsumption_resolution: true,
        ..Params::default()
    };
    params.limits.max_processed = Some(100);
    let s = run_with(text, params.clone());
    assert!(s.empty_clause().is_some());
    assert_eq!(s.stats.subsumption_cuts, 1);
    let cut = s
        .store
        .records()
        .iter()
        .find(|r| {
            r.simps
                .iter()
                .any(|x| matches!(x, SimpStep::SubsumptionResolution(_)))
        })
        .expect("a record made by the cut");
    assert_eq!(cut.clause.lits.len(), 1);
    // Off, nothing is cut.
    params.subsumption_resolution = false;
    let plain = run_with(text, params);
    assert_eq!(plain.stats.subsumption_cuts, 0);
}

#[test]
fn mix_weights_follow_their_multipliers() {
    // p(f(X), a) with a and p the goal's symbols: p, f, X, a.
    let mut bank = TermBank::new();
    let p = parse_str(&mut bank, "cnf(c, axiom, p(f(X),a)).\n", "t.p", None).unwrap();
    let lits = p.clauses[0].lits.clone();
    let pa = bank
        .sig
        .lookup("p", 2, crate::logic::SymbolKind::Predicate)
        .unwrap();
    let a = bank
        .sig
        .lookup("a", 0, crate::logic::SymbolKind::Function)
        .unwrap();
    let mut conj = vec![false; bank.sig.len()];
    conj[pa.index()] = true;
    conj[a.index()] = true;
    let plain = SymbolWeight::default();
    assert_eq!(symbol_weight(&bank, &lits, &plain, &[]), 400);
    let relative = SymbolWeight {
        conjecture_percent: 50,
        ..SymbolWeight::default()
    };
    // p and a at half weight: 50 + 100 + 100 + 50.
    assert_eq!(symbol_weight(&bank, &lits, &relative, &conj), 300);
    let positive = SymbolWeight {
        positive_percent: 150,
        ..SymbolWeight::default()
    };
    assert_eq!(symbol_weight(&bank, &lits, &positive, &[]), 600);
    // The priority class sits above every weight.
    let goal_first = QueueSpec {
        ratio: 1,
        priority: QueuePriority::Goal,
        weight: Some(plain),
    };
    assert!(
        mix_key(&bank, &lits, true, &goal_first, &[]) + (1 << 39)
            < mix_key(&bank, &lits, false, &goal_first, &[])
    );
    let fifo = QueueSpec {
        ratio: 1,
        priority: QueuePriority::None,
        weight: None,
    };
    assert_eq!(mix_key(&bank, &lits, false, &fifo, &[]), 0);
}
