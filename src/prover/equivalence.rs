//! The certified equivalence decision for closed first-order formulas
//! ([`crate::fol::Fol`]; used by the equivalence tasks, after AutoEval,
//! seed 002): the built-in prover on `premise |= conclusion` in both
//! directions (DESIGN.md §6), each refutation and the clausification
//! re-checked by the independent checker, a countermodel re-checked by
//! Tarski evaluation ([`crate::fol::eval`]).

use super::file::clausification_of;
use super::{Evidence, InputClause, ProofStats, Prover, ProverLimits, Verdict};
use crate::certificate::Table;
use crate::checker;
use crate::fol::{Fol, Model, eval, show_model};
use crate::logic::TermBank;
use std::collections::BTreeSet;

/// The prover's work limits for one direction: a short saturation, small
/// models, a longer saturation, models up to size 4.
pub fn limits() -> ProverLimits {
    ProverLimits {
        max_processed: 1_000,
        max_model_size: 4,
        // The family's rows were certified without it; nothing measured
        // says its formulas gain from it.
        unfold_definitions: false,
        ..ProverLimits::default()
    }
}

/// What the prover established about `premise |= conclusion`.
#[derive(Clone, Debug, PartialEq)]
pub enum Entails {
    /// A refutation of `premise & ~conclusion`, checked; with the given
    /// clauses it took.
    Yes {
        /// Given clauses processed.
        processed: u64,
        /// Steps of the refutation.
        steps: usize,
    },
    /// A finite model of `premise & ~conclusion`, restricted to the two
    /// formulas' symbols and re-checked by [`eval`].
    No(Model),
    /// Neither within the work limits.
    Unknown,
}

/// Decides `premise |= conclusion` with the built-in prover on the TPTP
/// problem `fof(premise, axiom, P). fof(conclusion, conjecture, C).`,
/// clausified by the project's clausifier (re-checked by the independent
/// checker), refuted or given a finite model (the certificate re-checked
/// by the checker inside the prover). `Err` is a bug: a clausification
/// the checker refuses, or a model that does not separate the formulas.
pub fn entails(prover: &mut Prover, premise: &Fol, conclusion: &Fol) -> Result<Entails, String> {
    entails_measured(prover, premise, conclusion).map(|(e, _)| e)
}

/// The prover's work on a decision, in deterministic units, summed over
/// its calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Prover calls (one per direction tried).
    pub calls: u64,
    /// Given clauses processed by the saturations.
    pub given_clauses: u64,
    /// SAT conflicts spent by the model finder.
    pub sat_conflicts: u64,
}

impl Effort {
    fn add(&mut self, s: &ProofStats) {
        self.calls += 1;
        self.given_clauses += s.processed;
        self.sat_conflicts += s.sat_conflicts;
    }
}

/// [`entails`] with the work the call took.
pub fn entails_measured(
    prover: &mut Prover,
    premise: &Fol,
    conclusion: &Fol,
) -> Result<(Entails, ProofStats), String> {
    let text =
        format!("fof(premise, axiom, {premise}).\nfof(conclusion, conjecture, {conclusion}).\n");
    let mut bank = TermBank::new();
    let problem = crate::tptp::parse_str(&mut bank, &text, "<equivalence>", None)
        .map_err(|e| format!("the printed problem does not read: {e}\n{text}"))?;
    checker::check_clausification(&clausification_of(&bank, &problem))
        .map_err(|e| format!("clausification refused by the checker: {e}\n{text}"))?;
    let inputs: Vec<InputClause> = problem.clauses.iter().map(InputClause::parsed).collect();
    let outcome = prover.refute(&bank, &inputs);
    if let Some(d) = prover.take_defects().into_iter().next() {
        return Err(format!("certificate refused by the checker: {}", d.reason));
    }
    let stats = outcome.stats;
    let entails = match outcome.verdict {
        Verdict::Theorem { refutation } => Entails::Yes {
            processed: stats.processed,
            steps: refutation.steps.len(),
        },
        Verdict::CounterSatisfiable {
            evidence: Evidence::Model { model },
        } => {
            let mut sig = premise.signature();
            let sc = conclusion.signature();
            sig.predicates.extend(sc.predicates);
            sig.functions.extend(sc.functions);
            let keep = |t: &Table, syms: &BTreeSet<(String, usize)>| {
                syms.contains(&(t.name.clone(), t.arity as usize))
            };
            let m = Model {
                size: model.size,
                functions: model
                    .functions
                    .into_iter()
                    .filter(|t| keep(t, &sig.functions))
                    .collect(),
                predicates: model
                    .predicates
                    .into_iter()
                    .filter(|t| keep(t, &sig.predicates))
                    .collect(),
            };
            if !eval(premise, &m) || eval(conclusion, &m) {
                return Err(format!(
                    "the prover's model ({}) is not a model of {premise} and ~{conclusion}",
                    show_model(&m)
                ));
            }
            Entails::No(m)
        }
        // A saturated set is not a certificate the checker re-verifies.
        _ => Entails::Unknown,
    };
    Ok((entails, stats))
}

/// The decision on a pair of formulas.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Both directions proved: given clauses processed for left |= right
    /// and right |= left.
    Equivalent([u64; 2]),
    /// A model where `left` has the value `left_value` and `right` the
    /// other.
    Different {
        /// The separating model.
        model: Model,
        /// `left`'s value in it.
        left_value: bool,
    },
    /// Undecided within the limits.
    Unknown,
}

/// Decides `left ≡ right` with the prover in both directions
/// ([`entails`]); `Err` is a bug.
pub fn decide(left: &Fol, right: &Fol) -> Result<Decision, String> {
    decide_measured(left, right).map(|(d, _)| d)
}

/// [`decide`] with the prover's work over the calls it made (the second
/// direction only when the first was proved).
pub fn decide_measured(left: &Fol, right: &Fol) -> Result<(Decision, Effort), String> {
    let mut prover = Prover::new(limits());
    let mut effort = Effort::default();
    let (first, stats) = entails_measured(&mut prover, left, right)?;
    effort.add(&stats);
    let lr = match first {
        Entails::No(model) => {
            let d = Decision::Different {
                model,
                left_value: true,
            };
            return Ok((d, effort));
        }
        Entails::Unknown => return Ok((Decision::Unknown, effort)),
        Entails::Yes { processed, .. } => processed,
    };
    let (second, stats) = entails_measured(&mut prover, right, left)?;
    effort.add(&stats);
    let d = match second {
        Entails::No(model) => Decision::Different {
            model,
            left_value: false,
        },
        Entails::Unknown => Decision::Unknown,
        Entails::Yes { processed, .. } => Decision::Equivalent([lr, processed]),
    };
    Ok((d, effort))
}
