//! The built-in prover, the project's label oracle (DESIGN.md §6): decides
//! whether premises entail a conjecture clause (or whether a clause set is
//! unsatisfiable) and returns a verdict with a certificate
//! ([`crate::certificate`]) that [`crate::checker`] re-verifies
//! independently.
//!
//! Schedule, all in work units:
//! 1. saturate the premises plus the negated conjecture for
//!    `quick_processed` given clauses (refutation by superposition);
//! 2. if undecided, search finite models of size 1..=`quick_model_size`
//!    ([`mace`], MACE-style grounding to SAT);
//! 3. continue the saturation up to `max_processed`;
//! 4. search models up to `max_model_size`.
//!
//! The empty clause gives `Theorem` (certificate: the refutation sub-DAG); a
//! model gives `CounterSatisfiable` (certificate: the tables); a saturated
//! set under the complete default strategy, with no model found, gives
//! `CounterSatisfiable` with the saturated set (weaker: the checker cannot
//! re-verify saturation); anything else is `Unknown`.

#[cfg(test)]
mod cert_tests;
#[cfg(test)]
mod clausify_proptests;
pub mod cost;
pub mod equivalence;
pub mod file;
pub mod mace;
pub mod output;
#[cfg(test)]
mod proptests;
pub mod schedule;
#[cfg(test)]
mod schedule_tests;
pub mod sine;
pub mod workload;

pub use crate::certificate::{
    Evidence, FiniteModel, ProofStep, Refutation, SimpUse, Table, Verdict,
};

use crate::checker::{self, CheckProblem};
use crate::derivation::Derivation;
use crate::logic::{Head, Literal, Matcher, TermBank, TermId};
use crate::saturation::store::SimpDetail;
use crate::saturation::{InputInfo, Params, Rule, Saturator, SimpStep, Stats, Status};
use crate::tptp::{clause_to_tptp, term_to_string};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Work limits of one proof attempt (no wall-clock limits anywhere).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProverLimits {
    /// Given clauses of the first, short saturation phase.
    pub quick_processed: u64,
    /// Given clauses in all (both saturation phases).
    pub max_processed: u64,
    /// Largest domain size tried right after the short phase.
    pub quick_model_size: u32,
    /// Largest domain size tried after the long phase.
    pub max_model_size: u32,
    /// Ground clauses allowed per domain size in the quick model search.
    pub quick_ground_clauses: u64,
    /// Ground clauses allowed per domain size; larger groundings are skipped.
    pub max_ground_clauses: u64,
    /// SAT conflicts allowed per domain size in the quick model search.
    pub quick_sat_conflicts: u64,
    /// SAT conflicts allowed per domain size in the final model search.
    pub sat_conflicts: u64,
    /// Goal-directed search: queue weight factor for clauses that do not
    /// descend from the negated conjecture (1 = plain weight order).
    pub goal_weight_factor: u32,
    /// Generated clauses heavier than this are dropped (0 = no limit). A
    /// run that dropped one can no longer end `Saturated`, only find a model
    /// or give up; the bound keeps clause sets whose terms double in size at
    /// every inference (e.g. `~p(X,Y) | p(X,f(Y,g(Y,Z)))`) from exhausting
    /// memory.
    pub max_clause_weight: u32,
    /// Demodulation work of one call (index nodes visited and units tried at
    /// redexes, see
    /// `Limits::max_rewrite_attempts`); past it the call ends `Unknown`
    /// unless a model is found. Keeps one problem whose clauses rewrite with
    /// permutative units from running for minutes.
    pub max_rewrite_attempts: u64,
    /// Re-verify every certificate with the independent checker before
    /// returning it. A certificate that does not check is a bug: the
    /// verdict becomes `Unknown` (no label rests on it) and the failure is
    /// kept in [`Prover::take_defects`] for the caller to report.
    pub check: bool,
    /// `saturate prove` on a problem with a negated conjecture: the SInE
    /// tolerance in hundredths (120 = 1.2, the paper's default; 0 = no
    /// SInE slices) of the schedule's slices that search only the axioms
    /// SInE selects ([`sine`]). Only a refutation ends the run in such a
    /// slice. Dataset runs never use it: their premise sets are chosen by
    /// the task.
    pub sine_tolerance: u32,
    /// `saturate prove`'s strategy schedule ([`schedule`]): `auto` (the
    /// default) runs the slices the problem's features pick from the table,
    /// `off` runs the configured strategy (`[saturation] selection`,
    /// `clause_weight`, or auto mode's choice) on every clause. Dataset
    /// runs never use it.
    pub schedule: ScheduleMode,
    /// A schedule table file to use instead of the embedded
    /// `configs/strategies/schedule.toml` (same format).
    pub schedule_table: Option<std::path::PathBuf>,
    /// Under a `--cpu-limit`: after a round of the schedule at
    /// `max_processed` given clauses, the next round runs with this many
    /// times the budget, until the deadline (1 = one round only).
    pub schedule_growth: u32,
    /// Unfold equational definitions before each search (`f(X1,..,Xn) =
    /// t` replaces every `f`-term of the other clauses by `t`, recorded as
    /// rewrites, and leaves the search; E does the same by default). On
    /// for `saturate prove` and the scorers (a schedule slice may turn it
    /// off); task generation and the equivalence family set it off.
    pub unfold_definitions: bool,
    /// The most by which a definition's body may outweigh the defined term
    /// for it to be unfolded (weight = size as a tree).
    pub unfold_limit: u32,
}

impl Default for ProverLimits {
    fn default() -> Self {
        ProverLimits {
            quick_processed: 60,
            max_processed: 2_000,
            quick_model_size: 3,
            max_model_size: 6,
            quick_ground_clauses: 20_000,
            max_ground_clauses: 2_000_000,
            quick_sat_conflicts: 2_000,
            sat_conflicts: 100_000,
            goal_weight_factor: 1,
            max_clause_weight: 100,
            max_rewrite_attempts: 5_000_000,
            check: true,
            sine_tolerance: 120,
            schedule: ScheduleMode::Auto,
            schedule_table: None,
            schedule_growth: 4,
            unfold_definitions: true,
            unfold_limit: 20,
        }
    }
}

/// Whether `saturate prove` runs the strategy schedule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScheduleMode {
    /// The slices the problem's features pick ([`schedule::Table`]).
    Auto,
    /// The configured strategy on every clause, one slice.
    Off,
}

/// Work spent on one proof attempt.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofStats {
    /// Given clauses processed by the saturation.
    pub processed: u64,
    /// Clauses generated by the saturation.
    pub generated: u64,
    /// Largest domain size the model finder tried (0: not run).
    pub model_size_tried: u32,
    /// SAT conflicts spent by the model finder.
    pub sat_conflicts: u64,
    /// Ground clauses produced by the model finder.
    pub ground_clauses: u64,
    /// True when the verdict came from the cache.
    pub cached: bool,
    /// True when the saturation stopped at [`Prover::deadline`] (never
    /// serialised when false, so certificates without a deadline are
    /// unchanged).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    /// Equational definitions unfolded before the search (never
    /// serialised when 0, so certificates without them are unchanged).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub definitions_unfolded: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A verdict and the work it took.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The verdict with its certificate.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Work spent.
    pub stats: ProofStats,
}

/// One input clause of a refutation problem: literals over the caller's
/// bank, a name and a role (`axiom`, `negated_conjecture`, ...).
#[derive(Clone, Debug)]
pub struct InputClause {
    /// The literals.
    pub lits: Vec<Literal>,
    /// Name used in proofs.
    pub name: String,
    /// TPTP role.
    pub role: String,
}

impl InputClause {
    /// A clause as read from TPTP, under its own name and role (for
    /// [`Prover::refute`] on a whole parsed problem).
    pub fn parsed(c: &crate::tptp::ParsedClause) -> InputClause {
        InputClause {
            lits: c.lits.clone(),
            name: c.name.clone(),
            role: c.role.as_str().to_string(),
        }
    }
}

/// Counters of a [`Prover`] session.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionStats {
    /// Calls to `prove`/`refute`.
    pub calls: u64,
    /// Calls answered from the cache.
    pub cache_hits: u64,
    /// Theorems returned.
    pub theorems: u64,
    /// Counter-satisfiable verdicts returned (with a finite model).
    pub models: u64,
    /// Counter-satisfiable verdicts returned by saturation only.
    pub saturations: u64,
    /// Unknowns returned.
    pub unknowns: u64,
    /// Certificates the independent checker refused (each one a bug; the
    /// verdict was replaced by `Unknown` and the problem kept as a
    /// [`Defect`]).
    pub certificate_failures: u64,
}

/// A certificate the independent checker refused: the problem, the verdict
/// the prover reached and the checker's reason. Every defect is a bug in the
/// prover or the checker; callers report it and never use the verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Defect {
    /// The problem, in TPTP syntax.
    pub problem: CheckProblem,
    /// The refused verdict (`theorem` or `counter_satisfiable`).
    pub verdict: String,
    /// The checker's reason.
    pub reason: String,
    /// The refused certificate, as JSON.
    pub certificate: String,
}

/// Verdicts a [`Prover`] keeps before it empties its cache.
pub const CACHE_ENTRIES: usize = 4096;

/// A reusable prover: many small problems, one cache of verdicts keyed by
/// the exact text of (premises, conjecture).
pub struct Prover {
    /// Work limits.
    pub limits: ProverLimits,
    /// Saturation parameters (its own `limits` are overridden by `self.limits`).
    pub params: Params,
    /// Session counters.
    pub stats: SessionStats,
    /// A soft CPU-time limit on each saturation (`--cpu-limit`; see
    /// [`Saturator::deadline`]). `None` for every dataset run.
    pub deadline: Option<crate::deadline::Deadline>,
    /// Work budget of the independent checker on each certificate
    /// ([`checker::CHECK_WORK`] unless a caller lowers it, as scoring does
    /// per derivation step); past it the verdict is `Unknown`.
    pub check_work: u64,
    /// Search finite models up to this size (at most `quick_model_size`;
    /// 0: none) before the first saturation phase, the rest of the quick
    /// sizes after it as usual: for callers whose problems mostly have
    /// small models (selection's searches), the saturation a model ends
    /// anyway is skipped.
    pub models_first: u32,
    cache: HashMap<String, Outcome>,
    cache_capacity: usize,
    defects: Vec<Defect>,
}

impl Prover {
    /// A prover with the given limits and the default saturation strategy.
    pub fn new(limits: ProverLimits) -> Prover {
        Prover {
            limits,
            params: Params::default(),
            stats: SessionStats::default(),
            deadline: None,
            check_work: checker::CHECK_WORK,
            models_first: 0,
            cache: HashMap::new(),
            cache_capacity: CACHE_ENTRIES,
            defects: Vec::new(),
        }
    }

    /// The certificate failures since the last call, oldest first. Each is
    /// a bug; the verdicts they concern were returned as `Unknown`.
    pub fn take_defects(&mut self) -> Vec<Defect> {
        std::mem::take(&mut self.defects)
    }

    /// Appends the limits to a cache key: a caller that lowers them for
    /// some calls (selection's cheap attempts) must never be served a
    /// verdict made under other limits, or a row would depend on which
    /// problems its worker had seen.
    fn key_limits(&self, key: &mut String) {
        use std::fmt::Write;
        let _ = write!(key, "\n#limits {:?}", self.limits);
    }

    /// Number of cached verdicts.
    pub fn cache_len(&self) -> usize {
        self.cache.len()
    }

    /// Decides whether `premises` entail `conjecture` (all clauses over
    /// `bank`; variables are universally quantified per clause). The
    /// conjecture is negated: each variable becomes a fresh Skolem constant
    /// and each literal a negated unit clause.
    pub fn prove(
        &mut self,
        bank: &TermBank,
        premises: &[&[Literal]],
        conjecture: &[Literal],
    ) -> Outcome {
        self.prove_models_absent(bank, premises, conjecture, 0)
    }

    /// [`Prover::prove`] for a problem that contains a clause set known to
    /// have no model of any size in `1..=absent_upto` (with the negated
    /// conjecture): a model of the whole would be one of that part, so a
    /// model search whose sizes all lie in the range is not made (one
    /// that reaches past it runs as usual). The verdict is the one `prove`
    /// returns; only the futile search is saved. The selection's stand-in
    /// checks ask the same premise set with one clause more for every
    /// candidate distractor; `u32::MAX` says the premises are known to
    /// entail the conjecture (the saturation derived it from them), so no
    /// countermodel of any size exists.
    pub fn prove_models_absent(
        &mut self,
        bank: &TermBank,
        premises: &[&[Literal]],
        conjecture: &[Literal],
        absent_upto: u32,
    ) -> Outcome {
        let mut key = problem_key(bank, premises, Some(conjecture));
        if absent_upto > 0 {
            // The verdict is the same, its statistics are not (no search
            // made): a plain call never gets this entry, nor this call a
            // plain one's, so a row's metadata never depends on which
            // calls a worker's cache has seen.
            key.push_str(&format!("\n#absent {absent_upto}"));
        }
        if self.models_first > 0 {
            // Another schedule: the same problem may end with another
            // certificate (a model rather than a saturated set) and other
            // statistics, so the two never share an entry.
            key.push_str(&format!("\n#models-first {}", self.models_first));
        }
        self.key_limits(&mut key);
        if let Some(o) = self.lookup(&key) {
            return o;
        }
        let mut local = TermBank::with_signature(bank.sig.clone());
        let mut inputs = Vec::with_capacity(premises.len() + conjecture.len());
        for (i, p) in premises.iter().enumerate() {
            inputs.push(InputClause {
                lits: p.iter().map(|l| import_lit(&mut local, bank, l)).collect(),
                name: format!("{PREMISE_PREFIX}{}", i + 1),
                role: "axiom".into(),
            });
        }
        let conj: Vec<Literal> = conjecture
            .iter()
            .map(|l| import_lit(&mut local, bank, l))
            .collect();
        for (i, l) in negate_clause(&mut local, &conj).into_iter().enumerate() {
            inputs.push(InputClause {
                lits: vec![l],
                name: format!("negated_conjecture_{}", i + 1),
                role: "negated_conjecture".into(),
            });
        }
        let mut outcome = self.run(local, inputs, absent_upto);
        if self.limits.check {
            let problem = CheckProblem {
                axioms: premises.iter().map(|p| clause_to_tptp(bank, p)).collect(),
                conjecture: Some(clause_to_tptp(bank, conjecture)),
            };
            self.certify(problem, &mut outcome);
        }
        self.store(key, outcome)
    }

    /// Decides whether a clause set is unsatisfiable (`Theorem`) or
    /// satisfiable (`CounterSatisfiable`); the clauses' roles are kept in
    /// the refutation but play no logical part.
    pub fn refute(&mut self, bank: &TermBank, clauses: &[InputClause]) -> Outcome {
        let lits: Vec<&[Literal]> = clauses.iter().map(|c| c.lits.as_slice()).collect();
        let mut key = problem_key(bank, &lits, None);
        self.key_limits(&mut key);
        if let Some(o) = self.lookup(&key) {
            return o;
        }
        let mut local = TermBank::with_signature(bank.sig.clone());
        let inputs = clauses
            .iter()
            .map(|c| InputClause {
                lits: c
                    .lits
                    .iter()
                    .map(|l| import_lit(&mut local, bank, l))
                    .collect(),
                name: c.name.clone(),
                role: c.role.clone(),
            })
            .collect();
        let mut outcome = self.run(local, inputs, 0);
        if self.limits.check {
            let problem = CheckProblem {
                axioms: lits.iter().map(|p| clause_to_tptp(bank, p)).collect(),
                conjecture: None,
            };
            self.certify(problem, &mut outcome);
        }
        self.store(key, outcome)
    }

    /// Runs the independent checker on a fresh outcome (within the
    /// checker's default work budget and the prover's deadline). A refused
    /// certificate is a bug: it is kept as a [`Defect`] and the verdict
    /// becomes `Unknown`, so no label rests on it and one bad instance does
    /// not end a run. A check that runs out of its budget also makes the
    /// verdict `Unknown`, without a defect.
    fn certify(&mut self, problem: CheckProblem, outcome: &mut Outcome) {
        let t = cost::now();
        let mut budget = checker::Budget::new(self.check_work).with_deadline(self.deadline);
        let checked = checker::check_within(&problem, &outcome.verdict, &mut budget);
        cost::record(|c| c.checking += cost::secs(t));
        if let Err(e) = &checked
            && e.out_of_budget
        {
            // Not refused, only not confirmed within the checker's work
            // budget: no label rests on it, and it is no defect.
            tracing::debug!("{} certificate unchecked: {e}", outcome.verdict.name());
            outcome.verdict = Verdict::Unknown;
            return;
        }
        if let Err(e) = checked {
            tracing::error!(
                "prover bug: {} certificate does not check: {e}",
                outcome.verdict.name()
            );
            self.stats.certificate_failures += 1;
            self.defects.push(Defect {
                problem,
                verdict: outcome.verdict.name().to_string(),
                reason: e.to_string(),
                certificate: serde_json::to_string(&outcome.verdict).unwrap_or_default(),
            });
            outcome.verdict = Verdict::Unknown;
        }
    }

    /// Forgets the cached verdicts (before the same problems are asked
    /// again under other saturation parameters: the cache is keyed by the
    /// problem alone).
    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }

    fn lookup(&mut self, key: &str) -> Option<Outcome> {
        self.stats.calls += 1;
        let mut o = self.cache.get(key)?.clone();
        self.stats.cache_hits += 1;
        o.stats.cached = true;
        self.count(&o.verdict);
        Some(o)
    }

    /// Caches `o` under `key`. A full cache is emptied first: its entries
    /// carry certificates, so a cache that only grew made a long run's
    /// memory grow with its row count (SET at 40 rows per cell: +22 MB over
    /// 5). Repeats come close together (one instance's subsets, one
    /// theorem's attempts), and outputs never depend on the cache.
    fn store(&mut self, key: String, o: Outcome) -> Outcome {
        self.count(&o.verdict);
        if self.cache.len() >= self.cache_capacity {
            self.cache.clear();
        }
        self.cache.insert(key, o.clone());
        o
    }

    fn count(&mut self, v: &Verdict) {
        match v {
            Verdict::Theorem { .. } => self.stats.theorems += 1,
            Verdict::CounterSatisfiable {
                evidence: Evidence::Model { .. },
            } => self.stats.models += 1,
            Verdict::CounterSatisfiable { .. } => self.stats.saturations += 1,
            Verdict::Unknown => self.stats.unknowns += 1,
        }
    }

    /// The schedule of the module documentation, on clauses over `bank`,
    /// its time recorded in this thread's [`cost`] counters; no model of
    /// the inputs has a size in `1..=absent_upto`
    /// ([`Prover::prove_models_absent`]).
    fn run(&self, bank: TermBank, inputs: Vec<InputClause>, absent_upto: u32) -> Outcome {
        let t = cost::now();
        let model_secs = std::cell::Cell::new(0.0);
        let outcome = self.run_timed(bank, inputs, absent_upto, &model_secs);
        let total = cost::secs(t);
        let unknown = matches!(outcome.verdict, Verdict::Unknown);
        cost::record(|c| {
            c.models += model_secs.get();
            c.saturation += total - model_secs.get();
            c.calls += 1;
            if unknown {
                c.undecided += total;
                c.unknowns += 1;
            }
        });
        outcome
    }

    /// [`Prover::run`]'s work; seconds of model search go to `model_secs`.
    fn run_timed(
        &self,
        bank: TermBank,
        inputs: Vec<InputClause>,
        absent_upto: u32,
        model_secs: &std::cell::Cell<f64>,
    ) -> Outcome {
        let lim = &self.limits;
        let mut params = self.params.clone();
        params.limits.max_processed = Some(lim.quick_processed.min(lim.max_processed));
        params.limits.max_generated = None;
        params.limits.max_kept = None;
        params.non_goal_weight_factor = lim.goal_weight_factor;
        // The prover's budgets count distinct given clauses: a re-derived
        // clause is dropped rather than queued again.
        params.requeue_duplicates = false;
        params.limits.max_rewrite_attempts = Some(lim.max_rewrite_attempts);
        // Certificates say where each simplification acted.
        params.record_simp_detail = true;
        params.unfold_definitions = lim.unfold_definitions.then_some(lim.unfold_limit);
        if lim.max_clause_weight > 0 {
            params.max_clause_weight = Some(lim.max_clause_weight);
        }
        let sat_inputs = inputs
            .iter()
            .map(|c| {
                (
                    c.lits.clone(),
                    InputInfo {
                        name: c.name.clone(),
                        role: c.role.clone(),
                        file: String::new(),
                        source: None,
                        formula: None,
                    },
                )
            })
            .collect();
        let mut sat = Saturator::from_inputs(bank, sat_inputs, params);
        sat.deadline = self.deadline;
        let mut stats = ProofStats::default();
        let clauses: Vec<&[Literal]> = inputs.iter().map(|c| c.lits.as_slice()).collect();
        let mut finder = mace::ModelFinder::new(lim.quick_ground_clauses, lim.quick_sat_conflicts);
        finder.max_clause_literals = self.params.max_clause_literals;
        finder.deadline = self.deadline;
        let mut tried = 0u32;
        let mut try_models = |upto: u32, sat: &Saturator, stats: &mut ProofStats| {
            // A size abandoned for lack of conflicts is tried again, with the
            // full budget, after the long saturation.
            if upto <= absent_upto {
                return None;
            }
            if upto > lim.quick_model_size {
                finder.set_budgets(lim.max_ground_clauses, lim.sat_conflicts);
            } else if upto <= tried {
                // The same sizes under the same budgets on the same input
                // clauses (the search never reads the saturation): the
                // search already made found nothing, and a second would
                // repeat it. Limits whose last phase is their quick one
                // (the selection's stand-in checks) asked it twice.
                return None;
            }
            let from = finder.no_model_upto + 1;
            let t = cost::now();
            let found = finder.search(&sat.bank, &clauses, from..=upto);
            model_secs.set(model_secs.get() + cost::secs(t));
            tried = tried.max(upto);
            stats.model_size_tried = tried;
            stats.sat_conflicts = finder.conflicts;
            stats.ground_clauses = finder.ground_clauses;
            found
        };
        if self.models_first > 0
            && let Some(m) = try_models(
                self.models_first.min(lim.quick_model_size),
                &sat,
                &mut stats,
            )
        {
            return finish(&sat, stats, model_verdict(m));
        }
        let mut status = sat.run(&mut |_| {});
        if status == Status::ResourceOut {
            if let Some(m) = try_models(lim.quick_model_size, &sat, &mut stats) {
                return finish(&sat, stats, model_verdict(m));
            }
            if lim.max_processed > lim.quick_processed {
                sat.params.limits.max_processed = Some(lim.max_processed);
                status = sat.run(&mut |_| {});
            }
        }
        let verdict = match status {
            Status::Unsatisfiable => {
                let empty = sat
                    .empty_clause()
                    .expect("unsatisfiable run has an empty clause");
                Verdict::Theorem {
                    refutation: extract_refutation(&sat, empty),
                }
            }
            Status::Saturated => match try_models(lim.max_model_size, &sat, &mut stats) {
                Some(m) => model_verdict(m),
                None => Verdict::CounterSatisfiable {
                    evidence: Evidence::Saturation {
                        clauses: sat
                            .active
                            .ids()
                            .map(|c| clause_to_tptp(&sat.bank, &sat.store.clause(c).lits))
                            .collect(),
                    },
                },
            },
            Status::ResourceOut => match try_models(lim.max_model_size, &sat, &mut stats) {
                Some(m) => model_verdict(m),
                None => Verdict::Unknown,
            },
        };
        finish(&sat, stats, verdict)
    }
}

fn model_verdict(model: FiniteModel) -> Verdict {
    Verdict::CounterSatisfiable {
        evidence: Evidence::Model { model },
    }
}

fn finish(sat: &Saturator, mut stats: ProofStats, verdict: Verdict) -> Outcome {
    let s: &Stats = &sat.stats;
    stats.processed = s.processed;
    stats.generated = s.generated;
    stats.timed_out = sat.timed_out;
    stats.definitions_unfolded = s.definitions_unfolded;
    Outcome { verdict, stats }
}

/// Input name prefix of the premises [`Prover::prove`] is given:
/// `premise_1`, `premise_2`, ... in the order given.
const PREMISE_PREFIX: &str = "premise_";

/// The premises (0-based, in the order [`Prover::prove`] was given them)
/// a refutation it returned uses, in step order.
pub fn premises_used(refutation: &Refutation) -> Vec<usize> {
    refutation
        .steps
        .iter()
        .filter(|s| s.rule == "input" && s.role.as_deref() == Some("axiom"))
        .filter_map(|s| {
            s.name
                .as_deref()?
                .strip_prefix(PREMISE_PREFIX)?
                .parse::<usize>()
                .ok()
        })
        .filter_map(|j| j.checked_sub(1))
        .collect()
}

/// The refutation ending in `empty`: its ancestors in id order, renumbered
/// from 1.
pub fn extract_refutation(sat: &Saturator, empty: crate::saturation::ClauseId) -> Refutation {
    let ids = Derivation::new(&sat.store).ancestors(empty);
    let mut number = HashMap::with_capacity(ids.len());
    let mut steps = Vec::with_capacity(ids.len());
    for (k, &id) in ids.iter().enumerate() {
        let n = k as u32 + 1;
        number.insert(id, n);
        steps.push(record_step(&sat.store, &sat.bank, id, n, &number));
    }
    Refutation { steps }
}

/// Record `id` of `store` (over `bank`) as certificate step `n`: its
/// clause, rule, parents and simplifications by their step numbers in
/// `number` (which must hold every premise of the record), the positions of
/// the simplifications when the record kept their detail, and an input's
/// role and name.
pub fn record_step(
    store: &crate::saturation::ClauseStore,
    bank: &TermBank,
    id: crate::saturation::ClauseId,
    n: u32,
    number: &HashMap<crate::saturation::ClauseId, u32>,
) -> ProofStep {
    let r = store.get(id);
    let input = (r.rule == Rule::Input)
        .then_some(r.input.as_ref())
        .flatten();
    let detail = r.detail.as_deref();
    let simps = r
        .simps
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let mut u = SimpUse {
                kind: s.name().to_string(),
                unit: s.partner().map(|p| number[&p]),
                ..SimpUse::default()
            };
            if let Some(d) = detail.and_then(|d| d.steps.get(k)) {
                locate(store, bank, *s, d, &mut u);
            }
            u
        })
        .collect();
    ProofStep {
        id: n,
        clause: clause_to_tptp(bank, &r.clause.lits),
        rule: r.rule.name().to_string(),
        parents: r.parents.iter().map(|p| number[p]).collect(),
        simps,
        raw: detail.map(|d| clause_to_tptp(bank, &d.raw)),
        role: input.map(|i| i.role.clone()),
        name: input.map(|i| i.name.clone()),
    }
}

/// Fills the location fields of a certificate's simplification from the
/// recorded detail: literal, side and path of a rewrite, the unit side that
/// matched and the matching substitution (over the unit's printed
/// variables `X<i>`).
fn locate(
    store: &crate::saturation::ClauseStore,
    bank: &TermBank,
    step: SimpStep,
    d: &SimpDetail,
    u: &mut SimpUse,
) {
    match (step, d) {
        (
            SimpStep::Rewrite(unit),
            SimpDetail::Rewrite {
                lit,
                right,
                path,
                redex,
                unit_side,
                ..
            },
        ) => {
            let eq = store.clause(unit).lits[0];
            let side = if *unit_side == 0 { eq.lhs } else { eq.rhs };
            let mut m = Matcher::new();
            let mut subst = std::collections::BTreeMap::new();
            if m.matches(bank, side, *redex) {
                let mut counts = Vec::new();
                bank.count_vars(eq.lhs, &mut counts);
                bank.count_vars(eq.rhs, &mut counts);
                for (v, &n) in counts.iter().enumerate() {
                    if let (true, Some(t)) = (n > 0, m.get(v as u32)) {
                        subst.insert(format!("X{v}"), term_to_string(bank, t));
                    }
                }
            }
            u.lit = Some(*lit);
            u.right = Some(*right);
            u.path = Some(path.to_vec());
            u.unit_side = Some(*unit_side);
            u.subst = Some(subst);
        }
        (SimpStep::SimplifyReflect(_), SimpDetail::Reflect { lit })
        | (SimpStep::SubsumptionResolution(_), SimpDetail::Cut { lit })
        | (SimpStep::DistinctValues, SimpDetail::Distinct { lit }) => u.lit = Some(*lit),
        _ => {}
    }
}

fn import(dst: &mut TermBank, src: &TermBank, t: TermId) -> TermId {
    match src.head(t) {
        Head::Var(i) => dst.var(i),
        Head::Sym(s) => {
            let args: smallvec::SmallVec<[TermId; 8]> =
                src.args(t).iter().map(|&a| import(dst, src, a)).collect();
            dst.app(s, &args)
        }
    }
}

fn import_lit(dst: &mut TermBank, src: &TermBank, l: &Literal) -> Literal {
    Literal::eq(import(dst, src, l.lhs), import(dst, src, l.rhs), l.pos)
}

fn ground(bank: &mut TermBank, t: TermId, sk: &[TermId]) -> TermId {
    match bank.head(t) {
        Head::Var(i) => sk[i as usize],
        Head::Sym(s) => {
            let args: smallvec::SmallVec<[TermId; 8]> = bank
                .args(t)
                .to_vec()
                .into_iter()
                .map(|a| ground(bank, a, sk))
                .collect();
            bank.app(s, &args)
        }
    }
}

/// The negation of a clause: one unit clause per literal, complemented, with
/// every variable replaced by a fresh Skolem constant (`sk<N>`).
pub fn negate_clause(bank: &mut TermBank, clause: &[Literal]) -> Vec<Literal> {
    let nvars = clause
        .iter()
        .map(|l| bank.var_bound(l.lhs).max(bank.var_bound(l.rhs)))
        .max()
        .unwrap_or(0);
    let sk: Vec<TermId> = (0..nvars)
        .map(|_| {
            let s = bank.sig.fresh_skolem("sk");
            bank.constant(s)
        })
        .collect();
    clause
        .iter()
        .map(|l| {
            let lhs = ground(bank, l.lhs, &sk);
            let rhs = ground(bank, l.rhs, &sk);
            Literal::eq(lhs, rhs, !l.pos)
        })
        .collect()
}

/// The cache key of a problem: the fingerprint of the signature the run
/// starts from, the premises' TPTP text in the given order, then the
/// conjecture. Exact text rather than a canonical form, so that a cached
/// certificate is the one a fresh run on this very problem would produce:
/// outputs never depend on what the prover was asked before. The signature
/// belongs in it because the run depends on it (symbol precedence, the
/// numbering of fresh Skolem constants): the same clauses asked over two
/// axiom files' graphs are two problems.
fn problem_key(bank: &TermBank, premises: &[&[Literal]], conjecture: Option<&[Literal]>) -> String {
    let mut key = format!("{:032x}\n", bank.sig.fingerprint());
    for p in premises {
        key.push_str(&clause_to_tptp(bank, p));
        key.push('\n');
    }
    match conjecture {
        Some(c) => {
            key.push('?');
            key.push_str(&clause_to_tptp(bank, c));
        }
        None => key.push('!'),
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tptp::parse_str;

    fn problem(bank: &mut TermBank) -> (Vec<Vec<Literal>>, Vec<Literal>) {
        let p = parse_str(
            bank,
            "cnf(a, axiom, p(a)). cnf(b, axiom, ~p(X) | q(X)). cnf(c, axiom, r(b)).",
            "t.p",
            None,
        )
        .unwrap();
        let mut c: Vec<Vec<Literal>> = p.clauses.iter().map(|c| c.lits.clone()).collect();
        let t = c.pop().unwrap();
        (c, t)
    }

    /// A verdict is cached per limits and schedule: a call under other
    /// limits, or searching models first, is never served another's entry.
    #[test]
    fn the_cache_keys_on_limits_and_schedule() {
        let mut bank = TermBank::new();
        let (c, t) = problem(&mut bank);
        let refs: Vec<&[Literal]> = c.iter().map(|c| c.as_slice()).collect();
        let mut prover = Prover::new(ProverLimits::default());
        assert!(!prover.prove(&bank, &refs, &t).stats.cached);
        assert!(prover.prove(&bank, &refs, &t).stats.cached);
        prover.limits.max_model_size = 2;
        assert!(!prover.prove(&bank, &refs, &t).stats.cached);
        prover.models_first = 2;
        assert!(!prover.prove(&bank, &refs, &t).stats.cached);
        assert!(prover.prove(&bank, &refs, &t).stats.cached);
    }

    /// A refutation names the premises it uses by their place in the call.
    #[test]
    fn premises_used_are_the_refutations_inputs() {
        let mut bank = TermBank::new();
        let p = parse_str(
            &mut bank,
            "cnf(c, axiom, r(b)). cnf(a, axiom, p(a)). cnf(b, axiom, ~p(X) | q(X)). cnf(g, axiom, q(a)).",
            "t.p",
            None,
        )
        .unwrap();
        let c: Vec<&[Literal]> = p.clauses.iter().map(|c| c.lits.as_slice()).collect();
        let Verdict::Theorem { refutation } = Prover::new(ProverLimits::default())
            .prove(&bank, &c[..3], c[3])
            .verdict
        else {
            panic!("q(a) follows");
        };
        let mut used = premises_used(&refutation);
        used.sort_unstable();
        assert_eq!(used, [1, 2]);
    }

    /// Searching small models first finds the countermodel without the
    /// saturation, and a theorem is proved either way.
    #[test]
    fn models_first_skips_the_saturation_a_model_ends() {
        let mut bank = TermBank::new();
        let (c, t) = problem(&mut bank);
        let refs: Vec<&[Literal]> = c.iter().map(|c| c.as_slice()).collect();
        let mut first = Prover::new(ProverLimits::default());
        first.models_first = 3;
        let o = first.prove(&bank, &refs, &t);
        assert!(matches!(o.verdict, Verdict::CounterSatisfiable { .. }));
        assert_eq!(o.stats.processed, 0, "no given clause before the model");
        let mut plain = Prover::new(ProverLimits::default());
        let p = plain.prove(&bank, &refs, &t);
        assert!(matches!(p.verdict, Verdict::CounterSatisfiable { .. }));
        assert!(p.stats.processed > 0);
        // p(a) and the rule prove q(a) under both schedules.
        let q = parse_str(&mut bank, "cnf(g, axiom, q(a)).", "g.p", None).unwrap();
        let goal = q.clauses[0].lits.clone();
        assert_eq!(
            first.prove(&bank, &refs[..2], &goal).verdict.label(),
            Some(true)
        );
        assert_eq!(
            plain.prove(&bank, &refs[..2], &goal).verdict.label(),
            Some(true)
        );
    }
}
