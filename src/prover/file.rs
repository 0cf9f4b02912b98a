//! Deciding one TPTP CNF problem file (`saturate prove`): read it with its
//! includes, split off the conjecture clause (TPTP's reading: a clause to be
//! proved from the others, negated and Skolemised by [`Prover::prove`]), run
//! the prover (DESIGN.md §6: saturation, then MACE-style model search), name
//! the verdict as an SZS status, and re-check its certificate with the
//! independent [`crate::checker`]. The caller prints and picks exit codes.

use super::{
    Evidence, InputClause, Outcome, Prover, ProverLimits, ScheduleMode, Verdict, output, schedule,
    sine,
};
use crate::certificate::{Clausification, ClausifiedClause, FormulaStep};
use crate::checker::{self, CheckError, CheckProblem, Checked, ClausificationChecked};
use crate::logic::{Literal, TermBank};
use crate::saturation::{Params, auto};
use crate::tptp::{self, FofLine, IncludePolicy, Role, SzsStatus, TptpError};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Why a problem file could not be decided: bad input, with its location.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// The file (or an include) does not read: TPTP error with file:line:column.
    #[error("{0}")]
    Tptp(#[from] TptpError),
    /// More than one CNF conjecture clause.
    #[error("{0}")]
    SecondConjecture(String),
    /// The `[prover] schedule_table` file does not read or is not a schedule.
    #[error("{0}")]
    Schedule(#[from] schedule::TableError),
}

/// The answer for one problem file.
#[derive(Debug)]
pub struct ProveReport {
    /// The problem's name (file stem, control characters shown as `?`), as
    /// printed on `% SZS` lines.
    pub name: String,
    /// The verdict as an SZS status: `ResourceOut` when undecided at the
    /// work limits (the checker's included: a certificate it could not
    /// confirm within its budget decides nothing), `Timeout` when the
    /// `--cpu-limit` deadline stopped it.
    pub status: SzsStatus,
    /// The verdict, its certificate and the work spent.
    pub outcome: Outcome,
    /// What the independent checker established about the certificate (an
    /// [`CheckError::out_of_budget`] error when it could not decide; the
    /// status is then undecided).
    pub checked: Result<Checked, CheckError>,
    /// The problem's own `% Status` header, when it has one.
    pub expected: Option<SzsStatus>,
    /// Wall time of the proof attempt.
    pub elapsed: Duration,
    /// The TSTP source of each input clause, by the name the prover knows
    /// it under: `file(...)` for a clause read as `cnf`, the `clausify`
    /// inference for one from a FOF formula, `negate_conjecture` over the
    /// conjecture's `file(...)` for a negated CNF conjecture literal.
    pub leaf_sources: HashMap<String, String>,
    /// The FOF derivation lines the clauses from FOF formulas cite (all of
    /// the problem's; [`ProveReport::certificate_text`] prints the ones a
    /// refutation needs).
    pub fof_lines: Vec<FofLine>,
    /// What the independent checker established about the clausification
    /// of the FOF formulas; `None` for a problem without any.
    pub clausification: Option<Result<ClausificationChecked, CheckError>>,
}

impl ProveReport {
    /// The problem's `% Status` when it names a decided status other than
    /// the (decided) verdict: the header is a comment, often stale, so the
    /// certified verdict stands and the disagreement is only reported.
    pub fn disagreement(&self) -> Option<SzsStatus> {
        let expected = self.expected?;
        let decided = matches!(
            expected,
            SzsStatus::Unsatisfiable
                | SzsStatus::Satisfiable
                | SzsStatus::Theorem
                | SzsStatus::CounterSatisfiable
        );
        (self.status.is_success() && expected != self.status && decided).then_some(expected)
    }

    /// The certificate as an SZS output block (`CNFRefutation` as a TSTP
    /// derivation, `FiniteModel` as a TPTP finite interpretation, or the
    /// saturated set); `None` when undecided.
    pub fn certificate_text(&self) -> Option<String> {
        let name = &self.name;
        let (kind, body) = match &self.outcome.verdict {
            Verdict::Theorem { refutation } => {
                let sources: Vec<&str> = refutation
                    .steps
                    .iter()
                    .filter_map(|s| s.name.as_ref())
                    .filter_map(|n| self.leaf_sources.get(n).map(String::as_str))
                    .collect();
                let mut body = String::new();
                for l in tptp::fof_lines_for(&self.fof_lines, sources) {
                    body.push_str(&l.to_tptp());
                    body.push('\n');
                }
                body.push_str(&output::refutation_tstp_with(refutation, |s| {
                    s.name
                        .as_ref()
                        .and_then(|n| self.leaf_sources.get(n))
                        .cloned()
                }));
                ("CNFRefutation", body)
            }
            Verdict::CounterSatisfiable {
                evidence: Evidence::Model { model },
            } => ("FiniteModel", output::model_tptp(model)),
            Verdict::CounterSatisfiable {
                evidence: Evidence::Saturation { clauses },
            } => (
                "Saturation",
                clauses
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("cnf(s{}, plain, ({c})).\n", i + 1))
                    .collect(),
            ),
            Verdict::Unknown => return None,
        };
        Some(format!(
            "% SZS output start {kind} for {name}\n{body}% SZS output end {kind} for {name}\n"
        ))
    }
}

/// Reads `file` (includes under `tptp_root`, per `policy`) and decides it
/// with a prover of the given limits and saturation parameters.
pub fn prove_file(
    file: &Path,
    tptp_root: Option<&Path>,
    policy: &IncludePolicy,
    limits: ProverLimits,
    params: Params,
) -> Result<ProveReport, ProveError> {
    prove_file_with(file, tptp_root, policy, limits, params, None)
}

/// [`prove_file`] with a soft wall-clock `deadline` (`--cpu-limit`): the
/// saturation stops at the first given clause after it and the answer is
/// `Timeout` unless a model is found. Not reproducible; never used for
/// datasets.
pub fn prove_file_with(
    file: &Path,
    tptp_root: Option<&Path>,
    policy: &IncludePolicy,
    limits: ProverLimits,
    params: Params,
    deadline: Option<crate::deadline::Deadline>,
) -> Result<ProveReport, ProveError> {
    let mut bank = TermBank::new();
    let problem = tptp::parse_file_with(&mut bank, file, tptp_root, policy)?;
    // Printed on `% SZS` lines: control characters (a newline in a file
    // name) must not break the line structure.
    let name: String = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    // A CNF `conjecture` is what TPTP says it is: a clause to be proved from
    // the others (negated and Skolemised by `Prover::prove`), answered
    // Theorem / CounterSatisfiable. Their conjunction is not split here.
    let mut conjectures = problem
        .clauses
        .iter()
        .chain(&problem.tautologies)
        .filter(|c| c.role == Role::Conjecture);
    let conjecture = conjectures.next();
    if let Some(second) = conjectures.next() {
        return Err(ProveError::SecondConjecture(format!(
            "{}: a second CNF conjecture ({}); `prove` proves one conjecture clause per problem: put each in its own file",
            second.source,
            tptp::excerpt(&second.name, 80)
        )));
    }
    let file_source = |c: &tptp::ParsedClause| {
        format!(
            "file({}, {})",
            tptp::path_to_tptp(&c.source.file.display().to_string()),
            tptp::name_to_tptp(&c.name)
        )
    };
    // The name each input is known under in a refutation, and its source.
    let mut leaf_sources = HashMap::new();
    let inputs: Vec<InputClause> = problem
        .clauses
        .iter()
        .filter(|c| c.role != Role::Conjecture)
        .enumerate()
        .map(|(i, c)| {
            // `prove` names premises by position, `refute` keeps the
            // input's name; a clause from FOF gets its own key, since one
            // formula gives several clauses with different sources.
            let (name, source) = match &c.clausified {
                Some(o) => (format!("{}/{}", c.name, i + 1), o.source.clone()),
                None => (c.name.clone(), file_source(c)),
            };
            let key = if conjecture.is_some() {
                format!("premise_{}", i + 1)
            } else {
                name.clone()
            };
            leaf_sources.insert(key, source);
            InputClause {
                lits: c.lits.clone(),
                name,
                role: c.role.as_str().to_string(),
            }
        })
        .collect();
    if let Some(c) = conjecture {
        for k in 0..c.lits.len() {
            leaf_sources.insert(
                format!("negated_conjecture_{}", k + 1),
                format!(
                    "inference(negate_conjecture,[status(cth)],[{}])",
                    file_source(c)
                ),
            );
        }
    }
    // A weight limit below the problem's own clauses would drop inputs and
    // leave the problem unprovable: the limit is at least twice the heaviest
    // input clause (the 18-literal Horn clauses of TPTP's SYO problems weigh
    // over 100), up to the saturation's own limit (`[saturation]
    // max_clause_weight`), past which clauses are too large to search.
    let mut limits = limits;
    if limits.max_clause_weight > 0 {
        let ceiling = params.max_clause_weight.unwrap_or(u32::MAX);
        let weight = |c: &[Literal]| {
            c.iter()
                .map(|l| l.weight(&bank))
                .fold(0u32, u32::saturating_add)
        };
        let heaviest = inputs
            .iter()
            .map(|c| weight(&c.lits))
            .chain(conjecture.iter().map(|c| weight(&c.lits)))
            .max()
            .unwrap_or(0);
        limits.max_clause_weight = limits
            .max_clause_weight
            .max(heaviest.saturating_mul(2).min(ceiling));
    }
    let start = Instant::now();
    let mut prover = Prover::new(limits);
    prover.params = params;
    prover.deadline = deadline;
    let outcome = match conjecture {
        Some(c) => {
            let premises: Vec<&[Literal]> = inputs.iter().map(|c| c.lits.as_slice()).collect();
            prover.prove(&bank, &premises, &c.lits)
        }
        None => {
            let formula = formula_keys(&problem);
            refute_scheduled(&mut prover, &bank, &inputs, &formula, problem.input_symbols)?
        }
    };
    // FOF conjectures were negated into the clauses (role
    // negated_conjecture) by the clausifier.
    let has_conjecture = conjecture.is_some() || !problem.fof_conjectures.is_empty();
    let status = match (&outcome.verdict, has_conjecture) {
        (Verdict::Theorem { .. }, false) => SzsStatus::Unsatisfiable,
        (Verdict::Theorem { .. }, true) => SzsStatus::Theorem,
        (Verdict::CounterSatisfiable { .. }, false) => SzsStatus::Satisfiable,
        (Verdict::CounterSatisfiable { .. }, true) => SzsStatus::CounterSatisfiable,
        // Undecided only when the saturation stopped at a work limit (or
        // dropped clauses over a size limit) and no model was found within
        // the model limits: out of resources, not a give-up.
        (Verdict::Unknown, _) if outcome.stats.timed_out => SzsStatus::Timeout,
        (Verdict::Unknown, _) => SzsStatus::ResourceOut,
    };
    // The certificate was already checked inside the prover (config
    // `prover.check`); say what the check established.
    let problem_text = CheckProblem {
        axioms: inputs
            .iter()
            .map(|c| tptp::clause_to_tptp(&bank, &c.lits))
            .collect(),
        conjecture: conjecture.map(|c| tptp::clause_to_tptp(&bank, &c.lits)),
    };
    let mut budget = checker::Budget::default().with_deadline(deadline);
    let checked = checker::check_within(&problem_text, &outcome.verdict, &mut budget);
    let clausification = (!problem.fof_lines.is_empty())
        .then(|| checker::check_clausification(&clausification_of(&bank, &problem)));
    // A certificate the checker could not confirm within its budget (or the
    // deadline) decides nothing: out of resources, like an undecided run.
    let unconfirmed = matches!(&checked, Err(e) if e.out_of_budget)
        || matches!(&clausification, Some(Err(e)) if e.out_of_budget);
    let (status, outcome) = if unconfirmed {
        let past = deadline.is_some_and(|d| d.passed());
        let status = if past {
            SzsStatus::Timeout
        } else {
            SzsStatus::ResourceOut
        };
        let mut outcome = outcome;
        outcome.verdict = Verdict::Unknown;
        (status, outcome)
    } else {
        (status, outcome)
    };
    Ok(ProveReport {
        name,
        status,
        checked,
        expected: problem.szs_status(),
        elapsed: start.elapsed(),
        outcome,
        leaf_sources,
        fof_lines: problem.fof_lines,
        clausification,
    })
}

/// Per input clause (the problem's clauses but a CNF conjecture, in order):
/// the formula it comes from, as a number. The clauses of one FOF formula
/// share theirs; every CNF clause has its own.
fn formula_keys(problem: &tptp::Problem) -> Vec<u32> {
    let mut named: HashMap<&str, u32> = HashMap::new();
    let mut next = 0u32;
    let mut fresh = || {
        next += 1;
        next - 1
    };
    problem
        .clauses
        .iter()
        .filter(|c| c.role != Role::Conjecture)
        .map(|c| match c.clausified {
            Some(_) => *named.entry(c.name.as_str()).or_insert_with(&mut fresh),
            None => fresh(),
        })
        .collect()
}

/// `prove`'s schedule ([`schedule`]) on a clause set with its goal among
/// the clauses. The problem's features pick the table entry; each slice
/// runs its strategy for its share of `max_processed` given clauses, on
/// every clause or on the axioms SInE selects at its depth. A refutation
/// ends the run in any slice (one of selected clauses refutes the set, and
/// its certificate is checked against the clauses it uses); a model or a
/// saturation ends it only in a slice on every clause, since of a subset
/// they say nothing. The model search runs once, in the first slice on
/// every clause. A SInE slice is skipped without a goal, when it would
/// select every axiom, or when a slice of the same strategy already
/// searched that selection. With a deadline (`--cpu-limit`), an undecided
/// round is followed by another with `schedule_growth` times the budget
/// until the deadline stops it. Counters add up every slice.
fn refute_scheduled(
    prover: &mut Prover,
    bank: &TermBank,
    inputs: &[InputClause],
    formula: &[u32],
    input_symbols: usize,
) -> Result<Outcome, schedule::TableError> {
    let lim = prover.limits.clone();
    let lits: Vec<&[Literal]> = inputs.iter().map(|c| c.lits.as_slice()).collect();
    let goal: Vec<bool> = inputs
        .iter()
        .map(|c| c.role == "negated_conjecture")
        .collect();
    let features = auto::Features::of(bank, lits.iter().copied().zip(goal.iter().copied()));
    let own_table;
    let slices: Vec<schedule::Slice> = match lim.schedule {
        ScheduleMode::Off => vec![schedule::configured(&prover.params, &features)],
        ScheduleMode::Auto => {
            let table = match &lim.schedule_table {
                Some(path) => {
                    own_table = schedule::Table::read(path)?;
                    &own_table
                }
                None => schedule::Table::embedded(),
            };
            let entry = table.entry(&features);
            tracing::debug!(
                "schedule for class {} (goal: {}): {} slices",
                features.class(),
                features.has_goal,
                entry.slices.len()
            );
            entry.slices.clone()
        }
    };
    let candidates = sine::Candidates {
        clauses: &lits,
        formula,
        goal: &goal,
        input_symbols,
    };
    // The SInE selection of each depth a slice asks for, made once.
    let mut depths: Vec<u32> = slices.iter().filter_map(|s| s.sine_depth).collect();
    depths.sort_unstable();
    depths.dedup();
    let use_sine = lim.sine_tolerance > 0 && features.has_goal;
    let selections: Vec<sine::Selection> = if use_sine {
        sine::select_depths(bank, &candidates, lim.sine_tolerance, &depths)
    } else {
        Vec::new()
    };
    let (mut processed, mut generated) = (0u64, 0u64);
    let mut budget = lim.max_processed.max(1);
    let mut models_done = false;
    let mut last: Option<Outcome> = None;
    // The slices this problem runs, each with its clauses (`None`: every
    // one) and saturation parameters: a SInE slice without a goal,
    // selecting every axiom, or repeating what a slice of the same strategy
    // searched is dropped, and its share goes to the others in proportion.
    let strategy = |s: &schedule::Slice| {
        (
            s.selection,
            s.clause_weight,
            s.goal_picks,
            s.weight_picks,
            s.queues.clone(),
            s.subsumption_resolution,
            s.unfold_definitions,
        )
    };
    let mut active: Vec<ActiveSlice> = Vec::new();
    for slice in &slices {
        let keep = match slice.sine_depth {
            None => None,
            Some(_) if !use_sine => continue,
            Some(d) => {
                let at = depths
                    .binary_search(&d)
                    .expect("every slice depth was selected");
                let sel = &selections[at];
                if sel.selected >= sel.axioms {
                    continue;
                }
                Some(sel.keep.as_slice())
            }
        };
        if active
            .iter()
            .any(|a| strategy(a.slice) == strategy(slice) && a.keep == keep)
        {
            continue;
        }
        active.push(ActiveSlice {
            slice,
            keep,
            clauses: keep.map(|keep| {
                inputs
                    .iter()
                    .zip(keep)
                    .filter(|(_, k)| **k)
                    .map(|(c, _)| c.clone())
                    .collect()
            }),
            params: schedule::params_for(&prover.params, slice),
        });
    }
    // Slices that stopped short of their budget undecided (out of rewrite
    // work, or saturated but for clauses over the weight limit): a larger
    // budget would repeat them step for step, so later rounds skip them.
    let mut spent = vec![false; active.len()];
    let mut round = 1u32;
    loop {
        // The shares of the slices this round runs (a slice may start at a
        // later round, `from_round`) divide the round's budget.
        let runs = |a: &ActiveSlice<'_>| a.slice.from_round.unwrap_or(1) <= round;
        let total_share: u64 = active
            .iter()
            .filter(|a| runs(a))
            .map(|a| u64::from(a.slice.share))
            .sum();
        for (i, a) in active.iter().enumerate() {
            if spent[i] || !runs(a) {
                continue;
            }
            let given =
                (budget.saturating_mul(u64::from(a.slice.share)) / total_share.max(1)).max(1);
            let whole = a.clauses.is_none();
            let models = whole && !models_done;
            models_done |= models;
            tracing::debug!(
                "slice {}: {:?} / {:?}, {given} given clauses{}",
                i + 1,
                a.slice.selection,
                a.slice.clause_weight,
                match &a.clauses {
                    Some(s) => format!(" on {} of {} clauses (SInE)", s.len(), inputs.len()),
                    None => String::new(),
                }
            );
            let mut out = run_slice(
                prover,
                bank,
                a.clauses.as_deref().unwrap_or(inputs),
                ProverLimits {
                    unfold_definitions: a
                        .slice
                        .unfold_definitions
                        .unwrap_or(lim.unfold_definitions),
                    ..slice_limits(&lim, given, models)
                },
                Some(&a.params),
            );
            processed += out.stats.processed;
            generated += out.stats.generated;
            let decided = match out.verdict {
                Verdict::Theorem { .. } => true,
                Verdict::CounterSatisfiable { .. } => whole,
                Verdict::Unknown => false,
            };
            if decided || out.stats.timed_out {
                out.stats.processed = processed;
                out.stats.generated = generated;
                return Ok(out);
            }
            spent[i] = out.stats.processed < given;
            if whole {
                last = Some(out);
            }
        }
        let again = lim.schedule_growth > 1
            && prover.deadline.is_some()
            && !crate::deadline::Deadline::reached(prover.deadline)
            && spent.iter().any(|s| !s);
        if !again {
            break;
        }
        budget = budget.saturating_mul(u64::from(lim.schedule_growth));
        round += 1;
        tracing::debug!("schedule round {round} with {budget} given clauses");
    }
    let mut rest = last.expect("a checked schedule has a slice on every clause");
    rest.stats.processed = processed;
    rest.stats.generated = generated;
    Ok(rest)
}

/// A slice of [`refute_scheduled`] as it runs on one problem.
struct ActiveSlice<'a> {
    /// The table's slice.
    slice: &'a schedule::Slice,
    /// The SInE selection it searches (`None`: every clause).
    keep: Option<&'a [bool]>,
    /// Those clauses (`None`: every clause).
    clauses: Option<Vec<InputClause>>,
    /// Its saturation parameters.
    params: Params,
}

/// `lim` with a budget of `given` given clauses (the quick phase at most
/// that), and with its model search only when `models`.
fn slice_limits(lim: &ProverLimits, given: u64, models: bool) -> ProverLimits {
    ProverLimits {
        max_processed: given,
        quick_processed: lim.quick_processed.min(given),
        quick_model_size: if models { lim.quick_model_size } else { 0 },
        max_model_size: if models { lim.max_model_size } else { 0 },
        ..lim.clone()
    }
}

/// One run of the schedule: `clauses` under `limits` and, when given, the
/// saturation parameters `strategy` instead of the prover's own. The
/// prover's verdict cache is keyed by the problem alone, so it is emptied
/// around a run under other parameters. The prover's limits and parameters
/// are left as they were.
fn run_slice(
    prover: &mut Prover,
    bank: &TermBank,
    clauses: &[InputClause],
    limits: ProverLimits,
    strategy: Option<&Params>,
) -> Outcome {
    let own_limits = std::mem::replace(&mut prover.limits, limits);
    let own_params = strategy.map(|p| {
        prover.clear_cache();
        std::mem::replace(&mut prover.params, p.clone())
    });
    let out = prover.refute(bank, clauses);
    prover.limits = own_limits;
    if let Some(p) = own_params {
        prover.params = p;
        prover.clear_cache();
    }
    out
}

/// The clausification of a problem's FOF formulas as the checker reads it.
pub fn clausification_of(bank: &TermBank, problem: &tptp::Problem) -> Clausification {
    Clausification {
        lines: problem
            .fof_lines
            .iter()
            .map(|l| FormulaStep {
                name: l.name.clone(),
                formula: l.formula.clone(),
                rule: l.rule().to_string(),
                parents: l.parents.clone(),
            })
            .collect(),
        clauses: problem
            .clauses
            .iter()
            .filter_map(|c| {
                let o = c.clausified.as_ref()?;
                Some(ClausifiedClause {
                    clause: tptp::clause_to_tptp(bank, &c.lits),
                    raw: o.raw.clone(),
                    parents: o.parents.clone(),
                })
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` written to the problem file `name` in a fresh temporary
    /// folder (kept while the returned guard lives).
    fn problem_file(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    fn decide(text: &str) -> Result<ProveReport, ProveError> {
        let (_dir, path) = problem_file("p1.p", text);
        prove_file(
            &path,
            None,
            &IncludePolicy::default(),
            ProverLimits::default(),
            Params::default(),
        )
    }

    /// `prove` on a file under `limits`, the default saturation.
    fn prove_with(path: &Path, limits: ProverLimits) -> ProveReport {
        prove_file(
            path,
            None,
            &IncludePolicy::default(),
            limits,
            Params::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_theorem_is_decided_and_its_certificate_checks() {
        let r =
            decide("% Status   : Unsatisfiable\ncnf(a, axiom, p(X)).\ncnf(b, conjecture, p(c)).\n")
                .unwrap();
        assert_eq!(r.name, "p1");
        assert_eq!(r.status, SzsStatus::Theorem);
        assert!(matches!(r.checked, Ok(Checked::Refutation { .. })));
        // The header says Unsatisfiable, the verdict Theorem: reported.
        assert_eq!(r.disagreement(), Some(SzsStatus::Unsatisfiable));
        let text = r.certificate_text().unwrap();
        assert!(text.starts_with("% SZS output start CNFRefutation for p1\n"));
        assert!(text.ends_with("% SZS output end CNFRefutation for p1\n"));
    }

    #[test]
    fn inputs_heavier_than_the_weight_limit_are_kept() {
        // An axiom of weight 122 against the prover's default limit of 100:
        // the limit rises to twice the heaviest input, so the axiom is
        // searched and the theorem proved.
        let deep = |x: &str| format!("{}{x}{}", "f(".repeat(120), ")".repeat(120));
        let text = format!(
            "cnf(a, axiom, p({})).\ncnf(b, conjecture, p({})).\n",
            deep("X"),
            deep("c")
        );
        assert!(ProverLimits::default().max_clause_weight < 122);
        let r = decide(&text).unwrap();
        assert_eq!(r.status, SzsStatus::Theorem);
        assert!(matches!(r.checked, Ok(Checked::Refutation { .. })));
    }

    #[test]
    fn a_countersatisfiable_conjecture_gets_a_checked_model() {
        let r = decide("cnf(a, axiom, p(a)).\ncnf(b, conjecture, p(b)).\n").unwrap();
        assert_eq!(r.status, SzsStatus::CounterSatisfiable);
        assert!(matches!(r.checked, Ok(Checked::Model { .. })));
        assert_eq!(r.disagreement(), None);
        assert!(r.certificate_text().unwrap().contains("FiniteModel for p1"));
    }

    #[test]
    fn two_conjectures_are_refused_with_the_location() {
        let e = decide("cnf(a, conjecture, p(a)).\ncnf(b, conjecture, p(b)).\n").unwrap_err();
        assert!(matches!(e, ProveError::SecondConjecture(_)));
        assert!(e.to_string().contains("a second CNF conjecture (b)"), "{e}");
    }

    #[test]
    fn bad_input_is_a_located_tptp_error() {
        let e = decide("cnf(a, axiom, p(a).\n").unwrap_err();
        assert!(matches!(e, ProveError::Tptp(_)));
        assert!(e.to_string().contains("p1.p:1:"), "{e}");
    }

    #[test]
    fn refutation_leaves_cite_the_file_or_the_clausification() {
        // CNF: the leaf cites `file(...)`, the negated conjecture its
        // negation of the conjecture's `file(...)`.
        let r = decide("cnf(a, axiom, p(X)).\ncnf(b, conjecture, p(c)).\n").unwrap();
        let text = r.certificate_text().unwrap();
        assert!(!text.contains("introduced(input"), "{text}");
        assert!(text.contains("p1.p', a))."), "{text}");
        assert!(
            text.contains("inference(negate_conjecture,[status(cth)],[file("),
            "{text}"
        );
        // FOF: the formula lines come first, the clauses cite them.
        let r = decide(
            "fof(ax, axiom, ! [X] : (p(X) => q(X))).\nfof(h, axiom, p(a)).\nfof(g, conjecture, ? [Y] : q(Y)).\n",
        )
        .unwrap();
        assert_eq!(r.status, SzsStatus::Theorem);
        let text = r.certificate_text().unwrap();
        assert!(
            text.contains("fof(f1, axiom, ! [X0] : ((p(X0) => q(X0))), file("),
            "{text}"
        );
        assert!(
            text.contains(", conjecture, ? [X0] : (q(X0)), file("),
            "{text}"
        );
        assert!(
            text.contains("inference(assume_negation,[status(cth)]"),
            "{text}"
        );
        assert!(
            text.contains("inference(clausify,[status(thm)],[f"),
            "{text}"
        );
        assert!(!text.contains("introduced(input"), "{text}");
        let fof_end = text.rfind("fof(").unwrap();
        assert!(fof_end < text.find("cnf(").unwrap(), "{text}");
        let c = r.clausification.unwrap().unwrap();
        assert_eq!(c.clauses, 3);
    }

    /// A goal three resolution steps from its facts: too long for one or
    /// two given clauses.
    const CHAIN: &str = "cnf(a, axiom, p(a)).\n\
                         cnf(pq, axiom, ~p(X) | q(X)).\n\
                         cnf(qr, axiom, ~q(X) | r(X)).\n\
                         cnf(rs, axiom, ~r(X) | s(X)).\n\
                         cnf(goal, negated_conjecture, ~s(a)).\n";

    /// A schedule table of `slices` (TOML inline tables) for any problem,
    /// written beside a problem file; the limits that use it.
    fn scheduled(dir: &Path, slices: &[&str], max_processed: u64) -> ProverLimits {
        let path = dir.join(format!("schedule-{}.toml", slices.len()));
        let text = format!(
            "[[schedule]]\nclass = \"*\"\nslices = [\n{}\n]\n",
            slices.join(",\n")
        );
        std::fs::write(&path, text).unwrap();
        ProverLimits {
            schedule_table: Some(path),
            max_processed,
            ..ProverLimits::default()
        }
    }

    /// Łukasiewicz's CN calculus (condensed detachment and three axiom
    /// schemata) with the goal `((~~x -> y) -> z) -> ((x -> y) -> z)`.
    const CN_42: &str = "cnf(cd, axiom, ~t(i(X,Y)) | ~t(X) | t(Y)).\n\
                         cnf(cn1, axiom, t(i(i(X,Y),i(i(Y,Z),i(X,Z))))).\n\
                         cnf(cn2, axiom, t(i(i(n(X),X),X))).\n\
                         cnf(cn3, axiom, t(i(X,i(n(X),Y)))).\n\
                         cnf(goal, negated_conjecture, ~t(i(i(i(n(n(x)),y),z),i(i(x,y),z)))).\n";

    /// The embedded table's `horn_mix` queue mix (its Horn entry's slice
    /// from the second round) proves CN-42 within 2,000 given clauses,
    /// where the default strategy's largest-negative selection with symbol
    /// count does not; the refutation checks.
    #[test]
    fn the_horn_mix_reaches_a_condensed_detachment_proof() {
        let (dir, path) = problem_file("cn42.p", CN_42);
        let queues = &schedule::EMBEDDED[..schedule::EMBEDDED.find("[[schedule]]").unwrap()];
        let table = |slice: &str| {
            let file = dir.path().join(format!("t{}.toml", slice.len()));
            std::fs::write(
                &file,
                format!("{queues}\n[[schedule]]\nclass = \"*\"\nslices = [{slice}]\n"),
            )
            .unwrap();
            ProverLimits {
                schedule_table: Some(file),
                max_processed: 2_000,
                max_model_size: 0,
                quick_model_size: 0,
                ..ProverLimits::default()
            }
        };
        let mix = prove_with(
            &path,
            table(
                r#"{ selection = "complex_except_uniq_max_horn", clause_weight = "symbols", queues = "horn_mix", share = 100 }"#,
            ),
        );
        assert_eq!(
            mix.status,
            SzsStatus::Unsatisfiable,
            "{:?}",
            mix.outcome.stats
        );
        assert!(matches!(mix.checked, Ok(Checked::Refutation { .. })));
        let plain = prove_with(
            &path,
            table(r#"{ selection = "largest_negative", clause_weight = "symbols", share = 100 }"#),
        );
        assert_eq!(plain.status, SzsStatus::ResourceOut);
    }

    /// A later slice runs on the whole problem after the first has used
    /// its share: with 2% of 50 given clauses the first gets one, too few
    /// for this chain, and the proof is the second's; both slices' work is
    /// counted. Undecided, the slices' work adds up to the budget, not past
    /// it.
    #[test]
    fn a_later_slice_gets_its_share_of_the_whole_problem() {
        let (dir, path) = problem_file("chain.p", CHAIN);
        let first = r#"{ selection = "none", clause_weight = "symbols", share = 2 }"#;
        let second = r#"{ selection = "complex_except_uniq_max_horn", clause_weight = "conjecture_relative", share = 98 }"#;
        let alone = r#"{ selection = "complex_except_uniq_max_horn", clause_weight = "conjecture_relative", share = 100 }"#;
        let two = prove_with(&path, scheduled(dir.path(), &[first, second], 50));
        assert_eq!(two.status, SzsStatus::Unsatisfiable);
        assert!(matches!(two.checked, Ok(Checked::Refutation { .. })));
        let one = prove_with(&path, scheduled(dir.path(), &[alone], 50));
        assert_eq!(one.status, SzsStatus::Unsatisfiable);
        assert_eq!(two.outcome.stats.processed, one.outcome.stats.processed + 1);
        let short = prove_with(&path, scheduled(dir.path(), &[first, second], 2));
        assert_eq!(short.status, SzsStatus::ResourceOut);
        assert!(
            short.outcome.stats.processed <= 2,
            "{:?}",
            short.outcome.stats
        );
        // `schedule = "off"`: the configured strategy alone.
        let off = ProverLimits {
            schedule: ScheduleMode::Off,
            max_processed: 50,
            ..ProverLimits::default()
        };
        assert_eq!(prove_with(&path, off).status, SzsStatus::Unsatisfiable);
    }

    /// Under a deadline, an undecided round is followed by one with
    /// `schedule_growth` times the budget: a chain too long for 2 given
    /// clauses is proved when a (distant) deadline is set, and not without
    /// one; growth 1 keeps one round.
    #[test]
    fn under_a_deadline_the_schedule_grows_its_budget() {
        let (_dir, path) = problem_file("chain.p", CHAIN);
        let run = |growth: u32, deadline: Option<crate::deadline::Deadline>| {
            let limits = ProverLimits {
                max_processed: 2,
                schedule_growth: growth,
                ..ProverLimits::default()
            };
            prove_file_with(
                &path,
                None,
                &IncludePolicy::default(),
                limits,
                Params::default(),
                deadline,
            )
            .unwrap()
        };
        let far = Some(crate::deadline::Deadline::after_secs(3600.0));
        assert_eq!(run(4, None).status, SzsStatus::ResourceOut);
        let grown = run(4, far);
        assert_eq!(grown.status, SzsStatus::Unsatisfiable);
        assert!(matches!(grown.checked, Ok(Checked::Refutation { .. })));
        assert!(grown.outcome.stats.processed > 2);
        assert_eq!(run(1, far).status, SzsStatus::ResourceOut);
    }

    /// Slices that stop short of their budget undecided would repeat
    /// themselves in every later round: here each saturates without the
    /// one clause over the literal limit (which the refutation needs), so
    /// the rounds end at once with ResourceOut instead of running until
    /// the deadline (which would answer Timeout).
    #[test]
    fn rounds_end_when_every_slice_stopped_short_of_its_budget() {
        let n = 101;
        let long: Vec<String> = (0..n).map(|i| format!("p{i}(a)")).collect();
        let mut text = format!("cnf(long, axiom, {}).\n", long.join(" | "));
        for i in 0..n {
            text.push_str(&format!("cnf(u{i}, negated_conjecture, ~p{i}(a)).\n"));
        }
        let (_dir, path) = problem_file("long.p", &text);
        let r = prove_file_with(
            &path,
            None,
            &IncludePolicy::default(),
            ProverLimits::default(),
            Params::default(),
            Some(crate::deadline::Deadline::after_secs(120.0)),
        )
        .unwrap();
        assert_eq!(r.status, SzsStatus::ResourceOut);
        assert!(!r.outcome.stats.timed_out);
    }

    /// The SInE slices: a goal that needs an axiom two trigger steps away
    /// is not proved by a depth-1 slice; the whole set proves it after,
    /// counting both slices' work. Only a refutation ends a slice: the
    /// slice's clauses are satisfiable, and that is not reported.
    #[test]
    fn sine_slices_end_only_on_a_refutation() {
        let (dir, path) = problem_file(
            "p3.p",
            "fof(pq, axiom, ![X]: (q(X) => p(X))).\n\
             fof(q, axiom, ![X]: q(X)).\n\
             fof(u1, axiom, ![X]: (s(X) => t(X))).\n\
             fof(u2, axiom, ![X]: (t(X) => s(X))).\n\
             fof(goal, conjecture, p(a)).\n",
        );
        let whole = r#"{ selection = "largest_negative", clause_weight = "symbols", share = 50 }"#;
        let sine = |d: u32| {
            format!(
                r#"{{ selection = "largest_negative", clause_weight = "symbols", sine_depth = {d}, share = 50 }}"#
            )
        };
        let run = |slices: &[&str]| prove_with(&path, scheduled(dir.path(), slices, 2000));
        let plain =
            run(&[r#"{ selection = "largest_negative", clause_weight = "symbols", share = 100 }"#]);
        let (one, fix) = (sine(1), sine(0));
        let shallow = run(&[&one, whole]);
        let deep = run(&[&fix, whole]);
        for r in [&plain, &shallow, &deep] {
            assert_eq!(r.status, SzsStatus::Theorem);
            assert!(matches!(r.checked, Ok(Checked::Refutation { .. })));
        }
        // The failed depth-1 slice's given clauses are counted.
        assert!(shallow.outcome.stats.processed > plain.outcome.stats.processed);
        // The fixpoint slice proves it on pq and q alone.
        let text = deep.certificate_text().unwrap();
        assert!(!text.contains("u1") && !text.contains("u2"), "{text}");
    }

    #[test]
    fn undecided_is_resource_out() {
        // A run that cannot finish within one given clause.
        let (_dir, path) = problem_file(
            "p2.p",
            "cnf(a, axiom, f(f(X))=f(X) | p(X)).\ncnf(b, axiom, ~p(f(X)) | p(X)).\ncnf(c, conjecture, p(f(f(a)))).\n",
        );
        let limits = ProverLimits {
            max_processed: 1,
            quick_processed: 1,
            max_model_size: 0,
            quick_model_size: 0,
            ..ProverLimits::default()
        };
        let r = prove_with(&path, limits);
        assert_eq!(r.status, SzsStatus::ResourceOut);
        // A deadline already past stops it as a timeout.
        let limits = ProverLimits {
            max_model_size: 0,
            quick_model_size: 0,
            ..ProverLimits::default()
        };
        let r = prove_file_with(
            &path,
            None,
            &IncludePolicy::default(),
            limits,
            Params::default(),
            Some(crate::deadline::Deadline::passed_already()),
        )
        .unwrap();
        assert_eq!(r.status, SzsStatus::Timeout);
    }
}
