//! PL2 problems and tasks (seed 000; PL/EQ spec §4, §6): a family candidate
//! goes through the filters (clause cap, SAT label, one-step shallowness,
//! refutation length), gets its certificate (resolution refutation
//! re-checked step by step, or a satisfying assignment for a decoy) and its
//! NDL_f reference proof (checked by the NDL_f checker), and becomes a
//! proof-writing or proof-checking instance with prompt, gold answer and
//! scorer.
//!
//! Data flow per instance: seeded RNG → [`families::generate`] → filters
//! ([`make_problem`]) → [`resolution::refute`] → [`resolution::to_ndlf`] →
//! task construction (PL1's proof-checking builder and scorers over the
//! NDL_f [`ProofSystem`], with PL2's corruption operators) → prompt.

mod corrupt;
#[cfg(test)]
mod tests;

use crate::prop::ProofSystem;
use crate::prop::check::{Mode, named_premises};
use crate::prop::formula::Formula;
use crate::prop::ndl::{Deduction, print};
use crate::prop::ndlf::{NdlfOptions, check_parsed_ndlf, render_assignment};
use crate::prop::problems::families::{self, Family, Prefilter};
use crate::prop::resolution::{self, RefuteError};
use crate::prop::sat;
use crate::tasks::pl::PlInstance;
use crate::tasks::pl::instance::size_features;
use crate::tasks::pl::prompt::{proof_checking, proof_writing};
use crate::tasks::pl::scoring::{self, ScoreInput, strict_steps};
use crate::tasks::pl::tasks::{Built, Task, build_proof_checking};
use crate::tasks::pl::verdict::json_object;
use crate::tasks::{Score, instance_rng};
use corrupt::pl2_corruptor;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Generation limits of PL2.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pl2Options {
    /// Reject theorems whose refutation has this many resolution steps or more (\[P\]: 150).
    pub max_refutation_steps: usize,
    /// Reject instances whose clausal form has more clauses than this.
    pub max_cnf_clauses: usize,
    /// Conflict budget of the proof-logging CDCL solver.
    pub solver_conflicts: usize,
    /// Probability that a proof-writing instance of a family with decoys is a decoy.
    pub decoy_rate: f64,
    /// The NDL_f step limits used by the checker and the scorers.
    #[serde(skip)]
    pub ndlf: NdlfOptions,
}

impl Default for Pl2Options {
    fn default() -> Self {
        Pl2Options {
            max_refutation_steps: 150,
            max_cnf_clauses: 200,
            solver_conflicts: 5_000,
            decoy_rate: 0.25,
            ndlf: pl2_ndlf_options(),
        }
    }
}

impl Pl2Options {
    /// The limits at a size: sizes 1-3 use the configured ones, size `s`
    /// above 3 allows `s - 1` times as many refutation steps, clauses and
    /// solver conflicts (with the defaults: 450 steps and 600 clauses at
    /// size 4, 600 and 800 at size 5), so the larger instances of
    /// [`families::MAX_SIZE`]'s schedule fit.
    pub fn at_size(&self, size: u8) -> Pl2Options {
        let factor = if size <= 3 {
            1
        } else {
            usize::from(size.min(families::MAX_SIZE)) - 1
        };
        Pl2Options {
            max_refutation_steps: self.max_refutation_steps.saturating_mul(factor),
            max_cnf_clauses: self.max_cnf_clauses.saturating_mul(factor),
            solver_conflicts: self.solver_conflicts.saturating_mul(factor),
            ..self.clone()
        }
    }
}

/// NDL_f limits for PL2: at most 5 justifiers, no justifier-free steps
/// (they would prove any tautology in one line), at most 5 premises
/// consolidated into one step.
pub fn pl2_ndlf_options() -> NdlfOptions {
    NdlfOptions {
        max_justifiers: 5,
        allow_empty: false,
        max_premise_conjuncts: Some(5),
    }
}

/// Why a candidate was rejected (the rows of the filter table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reject {
    /// Graph colouring: greedy colouring settles the candidate's side.
    Greedy,
    /// The clausal form has too many clauses.
    CnfTooLarge,
    /// A theorem candidate that SAT found satisfiable.
    Satisfiable,
    /// A decoy candidate that SAT found unsatisfiable.
    DecoyUnsatisfiable,
    /// The goal follows from at most 5 premises (a one-step proof exists).
    Shallow,
    /// The solver's conflict budget ran out.
    SolverBudget,
    /// The refutation reaches the step bound.
    RefutationTooLong,
    /// Proof checking: no corruption the checker rejects was found.
    NoCorruption,
}

impl Reject {
    /// All reasons, in table order.
    pub const ALL: [Reject; 8] = [
        Reject::Greedy,
        Reject::CnfTooLarge,
        Reject::Satisfiable,
        Reject::DecoyUnsatisfiable,
        Reject::Shallow,
        Reject::SolverBudget,
        Reject::RefutationTooLong,
        Reject::NoCorruption,
    ];
    /// Short name for summaries.
    pub fn name(&self) -> &'static str {
        match self {
            Reject::Greedy => "greedy",
            Reject::CnfTooLarge => "cnf_too_large",
            Reject::Satisfiable => "satisfiable",
            Reject::DecoyUnsatisfiable => "decoy_unsat",
            Reject::Shallow => "shallow",
            Reject::SolverBudget => "solver_budget",
            Reject::RefutationTooLong => "refutation_too_long",
            Reject::NoCorruption => "no_corruption",
        }
    }
}

/// A certified PL2 problem.
#[derive(Clone, Debug)]
pub struct Pl2Problem {
    /// Family.
    pub family: Family,
    /// Size (the record's level; see [`families::MAX_SIZE`]).
    pub size: u8,
    /// The family's size parameters.
    pub params: Value,
    /// Whether the goal does not follow (satisfiable list).
    pub decoy: bool,
    /// The first formula of the list (goal = its complement).
    pub f1: Formula,
    /// Premises f2..fk.
    pub premises: Vec<Formula>,
    /// Goal ¬f1, double negation simplified.
    pub goal: Formula,
    /// Clauses of the clausal form of the whole list.
    pub cnf_clauses: usize,
    /// Theorems: resolution steps of the refutation.
    pub refutation_steps: Option<usize>,
    /// Theorems: input clauses the refutation uses.
    pub refutation_inputs: Option<usize>,
    /// Theorems: size of a deletion-minimal premise set entailing the goal.
    pub core_premises: Option<usize>,
    /// Theorems: the NDL_f reference proof.
    pub proof: Option<Deduction>,
    /// Decoys: an assignment making every premise true and the goal false.
    pub counterexample: Option<BTreeMap<String, bool>>,
}

/// A deletion-minimal subset of premise indices that entails the goal.
fn minimal_core(premises: &[Formula], goal: &Formula) -> Option<Vec<usize>> {
    let mut core = sat::premise_core(premises, goal)?;
    let mut i = 0;
    while i < core.len() {
        let rest: Vec<Formula> = core
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != i)
            .map(|(_, &j)| premises[j].clone())
            .collect();
        if sat::entails(&rest, goal) {
            core.remove(i);
        } else {
            i += 1;
        }
    }
    Some(core)
}

/// Generates and certifies one candidate, or says which filter rejected it
/// (under the limits of its size, [`Pl2Options::at_size`]).
pub fn make_problem(
    family: Family,
    size: u8,
    decoy: bool,
    rng: &mut ChaCha8Rng,
    opts: &Pl2Options,
) -> Result<Pl2Problem, Reject> {
    let opts = &opts.at_size(size);
    let raw = families::generate(family, size, decoy, rng).map_err(|p| match p {
        Prefilter::GreedyColourable | Prefilter::GreedyNotColourable => Reject::Greedy,
    })?;
    let f1 = raw.formulas[0].clone();
    let premises = raw.formulas[1..].to_vec();
    let goal = f1.complement();
    let (atoms, inputs) = resolution::clausify_all(&raw.formulas, opts.max_cnf_clauses + 1)
        .ok_or(Reject::CnfTooLarge)?;
    if inputs.len() > opts.max_cnf_clauses {
        return Err(Reject::CnfTooLarge);
    }
    let mut p = Pl2Problem {
        family,
        size,
        params: raw.params,
        decoy: raw.decoy,
        f1,
        premises,
        goal,
        cnf_clauses: inputs.len(),
        refutation_steps: None,
        refutation_inputs: None,
        core_premises: None,
        proof: None,
        counterexample: None,
    };
    if p.decoy {
        let mut fs = p.premises.clone();
        fs.push(Formula::negation(p.goal.clone()));
        let m = sat::model(&fs).ok_or(Reject::DecoyUnsatisfiable)?;
        let v = |a: &str| m.get(a).copied().unwrap_or(false);
        assert!(
            p.premises.iter().all(|f| f.eval(&v)) && !p.goal.eval(&v),
            "SAT model is a counterexample"
        );
        p.counterexample = Some(m);
        return Ok(p);
    }
    let core = minimal_core(&p.premises, &p.goal).ok_or(Reject::Satisfiable)?;
    if core.len() <= opts.ndlf.max_justifiers {
        return Err(Reject::Shallow);
    }
    p.core_premises = Some(core.len());
    let structured = match family {
        Family::Pyramid => p.params["levels"]
            .as_u64()
            .and_then(|l| families::pyramid_refutation(l as usize, &inputs, &atoms)),
        _ => None,
    };
    let refutation = match structured {
        Some(r) => r,
        None => match resolution::refute(&inputs, atoms.atoms.len(), opts.solver_conflicts) {
            Ok(r) => r,
            Err(RefuteError::Budget) => return Err(Reject::SolverBudget),
            Err(RefuteError::Satisfiable) => unreachable!("SAT said unsatisfiable"),
        },
    };
    refutation
        .verify(&inputs)
        .expect("the solver's refutation re-checks");
    if refutation.steps() >= opts.max_refutation_steps {
        return Err(Reject::RefutationTooLong);
    }
    let proof = resolution::to_ndlf(&refutation, &atoms, &p.premises, &p.goal);
    let r = check_parsed_ndlf(
        &named_premises(&p.premises),
        &p.goal,
        &proof,
        Mode::Strict,
        &opts.ndlf,
    );
    assert!(r.ok(), "reference NDL_f proof checks: {:?}", r.result);
    p.refutation_steps = Some(refutation.steps());
    p.refutation_inputs = Some(refutation.inputs());
    p.proof = Some(proof);
    Ok(p)
}

/// A PL2 task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pl2Task {
    /// PL2-PC: is this NDL_f proof correct, and where is the first error?
    ProofChecking,
    /// PL2-PW: write an NDL_f proof, or show that none exists.
    ProofWriting,
}

impl Pl2Task {
    /// Both tasks, in output order.
    pub const ALL: [Pl2Task; 2] = [Pl2Task::ProofChecking, Pl2Task::ProofWriting];

    /// The dataset config (and `task` column) name.
    pub fn config(&self) -> &'static str {
        match self {
            Pl2Task::ProofChecking => "pl2_proof_checking",
            Pl2Task::ProofWriting => "pl2_proof_writing",
        }
    }
}

impl std::fmt::Display for Pl2Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.config())
    }
}

/// Builds the instance at (seed, task, family, size, index).
pub fn build(
    seed: u64,
    task: Pl2Task,
    family: Family,
    size: u8,
    index: u64,
    opts: &Pl2Options,
) -> Result<PlInstance, Reject> {
    let size_s = size.to_string();
    let mut rng = instance_rng(seed, &["pl2", task.config(), family.name(), &size_s], index);
    let decoy =
        task == Pl2Task::ProofWriting && family.has_decoys() && rng.random_bool(opts.decoy_rate);
    let p = make_problem(family, size, decoy, &mut rng, opts)?;
    let system = ProofSystem::NdlF(opts.ndlf.clone());
    let named = named_premises(&p.premises);
    let reference = p.proof.as_ref().map(print);
    let built = match task {
        Pl2Task::ProofWriting => {
            let answer = match (&reference, &p.counterexample) {
                (Some(text), _) => json!({
                    "description": "Reference proof: assume the negated goal, restate the clauses a resolution refutation uses, derive each resolvent from its two parents, close with false and conclude the goal by contradiction.",
                    "proof": text,
                }),
                (None, Some(m)) => json!({
                    "description": "The goal does not follow: the counterexample makes every premise true and the goal false.",
                    "proof": null,
                    "counterexample": m,
                }),
                (None, None) => unreachable!("a problem is a theorem or a decoy"),
            };
            Built {
                shown: String::new(),
                answer: answer.to_string(),
                meta: json!({}),
                certificate: json!({}),
                label: if p.decoy { "non-theorem" } else { "theorem" },
            }
        }
        Pl2Task::ProofChecking => {
            let proof = p.proof.as_ref().expect("checking uses theorems");
            build_proof_checking(
                &system,
                &p.premises,
                &p.goal,
                proof,
                &mut rng,
                30,
                pl2_corruptor(proof, p.premises.len()),
            )
            .map_err(|_| Reject::NoCorruption)?
        }
    };
    let prompt = match task {
        Pl2Task::ProofWriting => proof_writing(&system, &p.premises, &p.goal, true),
        Pl2Task::ProofChecking => proof_checking(&system, &p.premises, &p.goal, &built.shown),
    };
    let strings = |fs: &[Formula]| fs.iter().map(|f| f.to_string()).collect::<Vec<_>>();
    let mut metadata = json!({
        "generator": "saturate-pl2",
        "generator_version": env!("CARGO_PKG_VERSION"),
        "family": family.name(),
        "size": size,
        "params": p.params,
        "decoy": p.decoy,
        "premises": strings(&p.premises),
        "premise_names": named.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
        "goal": p.goal.to_string(),
        "f1": p.f1.to_string(),
        "cnf_clause_count": p.cnf_clauses,
        "refutation_steps": p.refutation_steps,
        "refutation_input_clauses": p.refutation_inputs,
        "core_premises": p.core_premises,
        "reference_proof": reference,
        "reference_proof_lines": reference.as_ref().map(|r| r.lines().count()),
        "shown_proof": built.shown,
        "ndlf": {"max_justifiers": opts.ndlf.max_justifiers, "allow_empty": opts.ndlf.allow_empty,
                 "max_premise_conjuncts": opts.ndlf.max_premise_conjuncts},
    });
    if let (Some(m), Some(extra)) = (metadata.as_object_mut(), built.meta.as_object()) {
        for (k, v) in extra {
            m.insert(k.clone(), v.clone());
        }
    }
    let mut certificate = built.certificate;
    certificate["problem"] = match &p.counterexample {
        Some(m) => json!({"label": "non-theorem", "sat": "satisfiable",
                          "counterexample": m, "counterexample_text": render_assignment(m)}),
        None => json!({"label": "theorem", "sat": "unsatisfiable",
                       "resolution_refutation": {"steps": p.refutation_steps,
                                                 "input_clauses": p.refutation_inputs,
                                                 "verified": true},
                       "reference_proof_checks": true}),
    };
    let mut stats = vec![
        ("cnf_clauses", p.cnf_clauses as f64),
        ("decoy", f64::from(u8::from(built.label == "non-theorem"))),
    ];
    if let Some(s) = p.refutation_steps {
        stats.push(("refutation_steps", s as f64));
    }
    if let Some(m) = metadata.get("prediction_matches").and_then(|v| v.as_bool()) {
        stats.push(("corruption_prediction_matches", f64::from(u8::from(m))));
    }
    let mut sorted = strings(&p.premises);
    sorted.sort();
    let difficulty = pl2_difficulty(&p);
    Ok(PlInstance {
        prompt,
        answer: built.answer,
        metadata,
        certificate,
        canonical: format!("{} |- {}", sorted.join(" # "), p.goal),
        label: built.label,
        source: format!("pl2-{}", family.name()),
        stats,
        difficulty,
    })
}

/// The difficulty features of a PL2 row, in this order: `premises`,
/// `atoms`, `connectives` (premises and goal as shown), `cnf_clauses` (the
/// clausal form of the whole list), `proof_lines` and `proof_steps` of the
/// NDL_f reference proof, `refutation_steps` (resolution inferences of the
/// certifying refutation) and `sat_conflicts` (the CDCL back-end's
/// conflicts deciding premises ⊨ goal). A decoy has no proof: its three
/// proof features are 0. Every one is counted, none timed.
pub fn pl2_difficulty(p: &Pl2Problem) -> Vec<(&'static str, f64)> {
    let proof = p.proof.as_ref().map(crate::prop::prover::stats);
    let mut features = size_features(&p.premises, &p.goal).to_vec();
    features.extend([
        ("cnf_clauses", p.cnf_clauses as f64),
        ("proof_lines", proof.as_ref().map_or(0, |s| s.lines) as f64),
        ("proof_steps", proof.as_ref().map_or(0, |s| s.steps) as f64),
        ("refutation_steps", p.refutation_steps.unwrap_or(0) as f64),
        (
            "sat_conflicts",
            sat::entailment_conflicts(&p.premises, &p.goal) as f64,
        ),
    ]);
    features
}

/// The premises, goal and NDL_f limits stored in a record's metadata.
pub fn record_problem(metadata: &Value) -> Option<(Vec<Formula>, Formula, NdlfOptions)> {
    let premises = metadata["premises"]
        .as_array()?
        .iter()
        .map(|s| Formula::parse(s.as_str()?).ok())
        .collect::<Option<Vec<_>>>()?;
    let goal = Formula::parse(metadata["goal"].as_str()?).ok()?;
    let opts = NdlfOptions {
        max_justifiers: metadata["ndlf"]["max_justifiers"].as_u64().unwrap_or(5) as usize,
        allow_empty: metadata["ndlf"]["allow_empty"].as_bool().unwrap_or(false),
        max_premise_conjuncts: metadata["ndlf"]["max_premise_conjuncts"]
            .as_u64()
            .map(|m| m as usize),
    };
    Some((premises, goal, opts))
}

/// The scorer's view of a PL2 record: its problem in NDL_f.
fn score_input<'a>(
    task: Task,
    system: &'a ProofSystem,
    premises: &'a [Formula],
    goal: &'a Formula,
    metadata: &'a Value,
    gold: &'a str,
) -> ScoreInput<'a> {
    ScoreInput {
        task,
        system,
        premises,
        goal,
        shown: metadata["shown_proof"].as_str().unwrap_or(""),
        gold,
    }
}

/// Re-checks a record from its stored text (`saturate verify`), without
/// the generator's certificate. A theorem's label rests on an NDL_f proof
/// that passes the strict checker under the record's limits (the gold
/// proof for writing, the reference proof for checking); a non-theorem's on
/// the gold counterexample, evaluated on every premise and the goal.
/// Checking re-runs the strict checker on the shown proof and compares its
/// verdict with the gold one; an incorrect proof must fail the lenient
/// checker too (PL1's checks, [`scoring::verify`], in NDL_f). `Ok` says
/// what was checked.
pub fn verify_record(task: Pl2Task, metadata: &Value, gold: &str) -> Result<String, String> {
    let (premises, goal, opts) =
        record_problem(metadata).ok_or("record metadata lacks the problem")?;
    let system = ProofSystem::NdlF(opts);
    let gold_v = json_object(gold).ok_or("gold answer is not a JSON object")?;
    let input = |task| score_input(task, &system, &premises, &goal, metadata, gold);
    match task {
        Pl2Task::ProofWriting => {
            match &gold_v["proof"] {
                Value::String(_) => scoring::verify(&input(Task::ProofWriting), metadata)
                    .map(|s| format!("theorem: {s}")),
                Value::Null => {
                    if !metadata["decoy"].as_bool().unwrap_or(false) {
                        return Err("no gold proof, but the record is not a decoy".into());
                    }
                    let s = score_record(task, metadata, gold, gold);
                    if s.value < 1.0 {
                        return Err(format!("gold counterexample: {}", s.detail));
                    }
                    Ok("non-theorem: the counterexample makes every premise true and the goal false"
                    .into())
                }
                _ => Err("gold \"proof\" is neither a string nor null".into()),
            }
        }
        Pl2Task::ProofChecking => {
            let reference = metadata["reference_proof"]
                .as_str()
                .ok_or("record metadata lacks reference_proof")?;
            let named = named_premises(&premises);
            strict_steps(&system, &named, &goal, reference, "reference proof")?;
            metadata["shown_proof"]
                .as_str()
                .ok_or("record metadata lacks shown_proof")?;
            scoring::verify(&input(Task::ProofChecking), metadata).map(|s| format!("theorem; {s}"))
        }
    }
}

/// Scores a model answer against a record's metadata and gold answer.
/// Checking: PL1's scorer in NDL_f (strict: the verdict and, for an
/// incorrect proof, the error line and type; lenient, the verdict alone, as
/// a sub-metric). Writing: a
/// theorem needs a proof the lenient NDL_f checker accepts under the
/// record's limits (PL1's proof-writing scorer in NDL_f); a non-theorem
/// needs `"proof": null` and a counterexample that assigns every atom and
/// makes every premise true and the goal false.
pub fn score_record(task: Pl2Task, metadata: &Value, gold: &str, answer: &str) -> Score {
    let Some((premises, goal, opts)) = record_problem(metadata) else {
        return Score::malformed("record metadata lacks the problem");
    };
    let system = ProofSystem::NdlF(opts);
    let input = |task| score_input(task, &system, &premises, &goal, metadata, gold);
    match task {
        Pl2Task::ProofChecking => scoring::score(&input(Task::ProofChecking), answer),
        Pl2Task::ProofWriting => {
            let Some(v) = json_object(answer) else {
                return Score::malformed("answer is not a JSON object");
            };
            match v.get("proof") {
                Some(Value::String(_)) => scoring::score(&input(Task::ProofWriting), answer),
                Some(Value::Null) | None => {
                    if !metadata["decoy"].as_bool().unwrap_or(false) {
                        return Score::wrong("no proof given, but the goal follows");
                    }
                    score_counterexample(&premises, &goal, &v)
                }
                Some(_) => Score::malformed("\"proof\" must be a string or null"),
            }
        }
    }
}

/// A non-theorem answer: a counterexample object that gives every atom a
/// boolean and makes every premise true and the goal false.
fn score_counterexample(premises: &[Formula], goal: &Formula, answer: &Value) -> Score {
    let Some(cx) = answer.get("counterexample").and_then(|c| c.as_object()) else {
        return Score::wrong("no proof and no counterexample object");
    };
    let mut atoms = goal.atoms();
    for p in premises {
        p.collect_atoms(&mut atoms);
    }
    let mut m = BTreeMap::new();
    for a in &atoms {
        match cx.get(a).and_then(|b| b.as_bool()) {
            Some(b) => {
                m.insert(a.clone(), b);
            }
            None => return Score::wrong(format!("the counterexample gives no boolean for {a}")),
        }
    }
    let val = |a: &str| m.get(a).copied().unwrap_or(false);
    if let Some(i) = premises.iter().position(|p| !p.eval(&val)) {
        return Score::wrong(format!("the counterexample falsifies premise-{}", i + 1));
    }
    if goal.eval(&val) {
        return Score::wrong("the counterexample makes the goal true");
    }
    Score::correct()
}
