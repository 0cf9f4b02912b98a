//! Independent certificate checker (DESIGN.md §6). It shares no code with
//! the search: its own clause parser (for the TPTP text in certificates), its
//! own tree terms, unification, matching and inference rules. A refutation
//! is checked step by step: each clause must be, up to variable renaming, a
//! conclusion of its rule applied to its parents followed by its recorded
//! simplifications; inputs must be problem clauses (or the Skolemised
//! negation of the conjecture, with fresh, pairwise distinct constants); the
//! last step must be the empty clause. A finite model is evaluated on every
//! clause under every assignment, by a pruning search within a work
//! [`Budget`] (past it the check is undecided, never accepted). The rules are checked for soundness only,
//! without the ordering restrictions the search applies, which is all a
//! certificate needs.
//!
//! The clausification of FOF formulas is checked apart
//! ([`check_clausification`]): `clausify` steps exactly (propositionally),
//! Skolemisation and definitions only structurally (they are merely
//! equisatisfiable; `clausify.rs` says what is trusted and why).
//!
//! Files, bottom up: [`problem`] (interface types), `terms` (trees,
//! unification, matching, normalisation, subsumption), `rules` (inference
//! rules, distinct values), `parse` (certificate clause texts), `replay`
//! (refutations), `model` (finite models), `step` (the one-inference check
//! of a derivation step).

mod clausify;
mod model;
mod parse;
pub mod problem;
mod replay;
mod rules;
mod step;
mod terms;
#[cfg(test)]
mod tests;

pub use clausify::{ClausificationChecked, check_clausification};
pub use model::{ModelClause, ModelTables, model_satisfies};
pub use parse::MAX_TERM_DEPTH;
pub use problem::{Budget, CHECK_WORK, CheckError, CheckProblem, Checked};
pub use step::{StepChecker, StepClause};

use crate::certificate::{Evidence, Verdict};
use model::check_model;
use parse::parse_clause;
use problem::err;
use replay::check_refutation;
use terms::Syms;

/// Checks a verdict's certificate against the problem within the default
/// work budget ([`CHECK_WORK`]); see [`check_within`].
pub fn check(problem: &CheckProblem, verdict: &Verdict) -> Result<Checked, CheckError> {
    check_within(problem, verdict, &mut Budget::default())
}

/// Checks a verdict's certificate against the problem, spending at most
/// `budget` on the finite-model check (each variant test of a refutation
/// has its own bound, `VARIANT_WORK` in `terms`). A check that runs out
/// ends with an error whose [`CheckError::out_of_budget`] is set: the
/// certificate is then neither accepted nor refused.
pub fn check_within(
    problem: &CheckProblem,
    verdict: &Verdict,
    budget: &mut Budget,
) -> Result<Checked, CheckError> {
    match verdict {
        Verdict::Theorem { refutation } => check_refutation(problem, refutation),
        Verdict::CounterSatisfiable {
            evidence: Evidence::Model { model },
        } => check_model(problem, model, budget),
        Verdict::CounterSatisfiable {
            evidence: Evidence::Saturation { clauses },
        } => {
            let mut syms = Syms::default();
            for c in clauses {
                let c = parse_clause(&mut syms, c)?;
                if c.is_empty() {
                    return err("saturated set contains the empty clause");
                }
            }
            Ok(Checked::SaturationNotCheckable)
        }
        Verdict::Unknown => Ok(Checked::Nothing),
    }
}
