//! Tests of the prover's schedule of model searches (module documentation
//! of [`super`]): a search under the same budget is never made twice, and
//! sizes known to have no model are not searched again
//! ([`Prover::prove_models_absent`]).

use super::mace::ModelFinder;
use super::{Prover, ProverLimits, Verdict, negate_clause};
use crate::logic::{Literal, TermBank};
use crate::tptp::parse_clause_str;

/// A strict order with a successor: satisfiable, but by no finite model,
/// and the saturation never ends (`less(X, s(s(X)))`, ...), so every run
/// ends `Unknown` after its whole model search.
const NO_FINITE_MODEL: [&str; 3] = [
    "less(X,s(X))",
    "~less(X,Y) | ~less(Y,Z) | less(X,Z)",
    "~less(X,X)",
];

/// SAT conflicts per size: so few that a search gives up (a size neither
/// with nor without a model) rather than proving every size empty.
const CONFLICTS: u64 = 1;

/// Limits whose last phase is their quick one (as the selection's stand-in
/// checks use): at most `size` elements, the quick budgets throughout.
fn quick_only(size: u32) -> ProverLimits {
    let d = ProverLimits::default();
    ProverLimits {
        quick_processed: 30,
        max_processed: 30,
        quick_model_size: size,
        max_model_size: size,
        max_ground_clauses: d.quick_ground_clauses,
        quick_sat_conflicts: CONFLICTS,
        sat_conflicts: CONFLICTS,
        ..d
    }
}

fn problem() -> (TermBank, Vec<Vec<Literal>>, Vec<Literal>) {
    let mut bank = TermBank::new();
    let premises = NO_FINITE_MODEL
        .iter()
        .map(|t| parse_clause_str(&mut bank, t).unwrap())
        .collect();
    let goal = parse_clause_str(&mut bank, "p(a)").unwrap();
    (bank, premises, goal)
}

/// One search of sizes `1..=size` under the quick budgets, on the clauses
/// the prover searches (the premises and the negated goal): its ground
/// clause count.
fn one_search(size: u32) -> u64 {
    let (mut bank, premises, goal) = problem();
    let negated = negate_clause(&mut bank, &goal);
    let mut refs: Vec<&[Literal]> = premises.iter().map(|c| c.as_slice()).collect();
    refs.extend(negated.iter().map(std::slice::from_ref));
    let mut finder = ModelFinder::new(ProverLimits::default().quick_ground_clauses, CONFLICTS);
    assert!(finder.search(&bank, &refs, 1..=size).is_none());
    assert!(finder.ground_clauses > 0);
    assert!(
        finder.no_model_upto < size,
        "the search gave up, at a size it would try again"
    );
    finder.ground_clauses
}

#[test]
fn a_model_search_is_not_repeated_under_the_same_budget() {
    let (bank, premises, goal) = problem();
    let refs: Vec<&[Literal]> = premises.iter().map(|c| c.as_slice()).collect();
    let o = Prover::new(quick_only(3)).prove(&bank, &refs, &goal);
    assert!(matches!(o.verdict, Verdict::Unknown), "{:?}", o.verdict);
    assert_eq!(o.stats.model_size_tried, 3);
    // Once after the quick saturation; the search the schedule would make
    // after the long one has the same sizes and budgets, so it is left out.
    assert_eq!(o.stats.ground_clauses, one_search(3));
}

#[test]
fn known_absent_sizes_are_not_searched_again() {
    let (bank, premises, goal) = problem();
    let refs: Vec<&[Literal]> = premises.iter().map(|c| c.as_slice()).collect();
    let plain = Prover::new(quick_only(3)).prove(&bank, &refs, &goal);
    let known = Prover::new(quick_only(3)).prove_models_absent(&bank, &refs, &goal, 3);
    assert!(matches!(known.verdict, Verdict::Unknown));
    assert_eq!(known.stats.processed, plain.stats.processed);
    assert_eq!(known.stats.model_size_tried, 0, "no search at all");
    assert_eq!(known.stats.ground_clauses, 0);
    // A range that reaches past what is known is searched as usual.
    let partly = Prover::new(quick_only(3)).prove_models_absent(&bank, &refs, &goal, 2);
    assert_eq!(partly.stats.model_size_tried, 3);
    assert_eq!(partly.stats.ground_clauses, plain.stats.ground_clauses);
}

/// A problem with a model is unaffected by a bound below the model's size:
/// the model is still found and certified.
#[test]
fn a_model_past_the_known_sizes_is_still_found() {
    let mut bank = TermBank::new();
    // Three distinct constants: the smallest model has 3 elements.
    let premises: Vec<Vec<Literal>> = ["a != b", "b != c", "a != c"]
        .iter()
        .map(|t| parse_clause_str(&mut bank, t).unwrap())
        .collect();
    let goal = parse_clause_str(&mut bank, "a = c").unwrap();
    let refs: Vec<&[Literal]> = premises.iter().map(|c| c.as_slice()).collect();
    let d = ProverLimits::default();
    let limits = ProverLimits {
        quick_sat_conflicts: d.quick_sat_conflicts,
        sat_conflicts: d.quick_sat_conflicts,
        ..quick_only(4)
    };
    let o = Prover::new(limits).prove_models_absent(&bank, &refs, &goal, 2);
    match o.verdict {
        Verdict::CounterSatisfiable {
            evidence: super::Evidence::Model { model },
        } => assert_eq!(model.size, 3),
        v => panic!("{v:?}"),
    }
}
