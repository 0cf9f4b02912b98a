//! One PL1 task instance from its coordinates: seeded problem, reference
//! proof, task construction, prompt, gold answer, metadata and certificate.
//! Pure function of (run seed, task, level, index), so instances can be
//! built on any thread in any order.

use super::prompt;
use super::tasks::{self, Task};
use super::{masking, scoring};
use crate::prop::Formula;
use crate::prop::ProofSystem;
use crate::prop::check::named_premises;
use crate::prop::problems::random::{self as generate, Problem, certify, generate, level_params};
use crate::prop::prover::{self, ProofStats, stats};
use crate::tasks::family::Built;
use crate::tasks::instance_rng;
use serde_json::{Value, json};

/// A finished PL1 or PL2 instance, ready to become a dataset record.
#[derive(Clone, Debug)]
pub struct PlInstance {
    /// Prompt text.
    pub prompt: String,
    /// Gold answer.
    pub answer: String,
    /// Metadata JSON.
    pub metadata: Value,
    /// Certificate JSON.
    pub certificate: Value,
    /// Canonical form of the problem, for deduplication.
    pub canonical: String,
    /// Label class, for the balance summary.
    pub label: &'static str,
    /// The record's `source` column (`pl1-generator`, `pl2-<family>`).
    pub source: String,
    /// Numeric features averaged per cell in the run summary.
    pub stats: Vec<(&'static str, f64)>,
    /// Measured difficulty features (the same names in the same order on
    /// every row of a family): [`pl1_difficulty`], or PL2's.
    pub difficulty: Vec<(&'static str, f64)>,
}

/// The size features of a problem as shown: the number of premises, of
/// distinct atoms, and of connectives over the premises and the goal.
pub fn size_features(premises: &[Formula], goal: &Formula) -> [(&'static str, f64); 3] {
    let mut atoms = goal.atoms();
    for p in premises {
        p.collect_atoms(&mut atoms);
    }
    let connectives: usize = premises.iter().map(Formula::size).sum::<usize>() + goal.size();
    [
        ("premises", premises.len() as f64),
        ("atoms", atoms.len() as f64),
        ("connectives", connectives as f64),
    ]
}

/// The difficulty features of a PL1 row, in this order: `premises` (of the
/// underlying problem, which a conditionalized goal folds into its
/// antecedent), `atoms`, `connectives` (premises and goal as shown),
/// `proof_lines`, `proof_steps` (rule applications) and `proof_depth`
/// (block nesting) of the reference proof, `search_steps` (proof elements
/// the reference prover wrote before pruning) and `sat_conflicts` (the CDCL
/// back-end's conflicts deciding the shown entailment). Every one is
/// counted, none timed, so the same row always has the same values.
pub fn pl1_difficulty(
    problem: &Problem,
    proof: &ProofStats,
    search_steps: usize,
) -> Vec<(&'static str, f64)> {
    let [_, atoms, connectives] = size_features(&problem.premises, &problem.goal);
    let conflicts = crate::prop::sat::entailment_conflicts(&problem.premises, &problem.goal);
    vec![
        ("premises", problem.source_premises.len() as f64),
        atoms,
        connectives,
        ("proof_lines", proof.lines as f64),
        ("proof_steps", proof.steps as f64),
        ("proof_depth", proof.depth as f64),
        ("search_steps", search_steps as f64),
        ("sat_conflicts", conflicts as f64),
    ]
}

impl PlInstance {
    /// Proof checking of an incorrect proof: whether the checker's error
    /// matched the corruption operator's prediction.
    pub fn prediction_matches(&self) -> Option<bool> {
        self.metadata
            .get("prediction_matches")
            .and_then(|v| v.as_bool())
    }

    /// The generation loop's view of the instance.
    pub fn into_built(self) -> Built {
        Built {
            prompt: self.prompt,
            answer: self.answer,
            metadata: self.metadata.into(),
            certificate: self.certificate.to_string(),
            key: self.canonical,
            group: None,
            label: self.label.to_string(),
            domain: Some("PL".into()),
            source: Some(self.source),
            difficulty: self.difficulty,
            stats: self.stats,
        }
    }
}

/// Why no instance came out of a coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// No problem met the constraints within the attempt budget.
    NoProblem,
    /// The reference proof exceeded the size cap.
    ProofTooLarge,
    /// Proof checking: no corruption of the proof was found (the problem
    /// is skipped whichever label its slot drew, so that label and problem
    /// stay independent).
    NoCorruption,
}

/// The default cap on a PL1 reference proof's printed length
/// ([`super::family::PlConfig::max_proof_chars`]).
pub const MAX_PROOF_CHARS: usize = 16_000;

/// Builds the instance at (seed, task, level, index); problems whose
/// reference proof prints longer than `max_proof_chars` are skipped
/// (`ProofTooLarge`) before any task-specific draw.
pub fn build(
    seed: u64,
    task: Task,
    level: u8,
    index: u64,
    max_proof_chars: usize,
) -> Result<PlInstance, Skip> {
    let level_s = level.to_string();
    let mut rng = instance_rng(seed, &["pl1", task.config(), &level_s], index);
    let params = level_params(level);
    let problem = generate(&mut rng, &params).ok_or(Skip::NoProblem)?;
    let cert = certify(&problem.source_premises, &problem.source_goal)
        .expect("truth-vector filter and SAT certificate agree");
    let (proof, search_steps) = prover::prove_with_effort(&problem.premises, &problem.goal)
        .map_err(|_| Skip::ProofTooLarge)?;
    let pstats = stats(&proof);
    let difficulty = pl1_difficulty(&problem, &pstats, search_steps);
    let reference = crate::prop::ndl::print(&proof);
    if reference.len() > max_proof_chars {
        return Err(Skip::ProofTooLarge);
    }
    let built = match task {
        Task::ProofChecking => tasks::build_proof_checking(
            &ProofSystem::Ndl,
            &problem.premises,
            &problem.goal,
            &proof,
            &mut rng,
            20,
            tasks::pl1_corruptor(&proof, &problem.premises),
        )
        .map_err(|_| Skip::NoCorruption)?,
        Task::ProofWriting => tasks::build_proof_writing(&problem, &proof),
        Task::ProofMasking => masking::build_proof_masking(&problem, &proof, &mut rng),
        Task::GapFilling => masking::build_gap_filling(&problem, &proof, &mut rng),
    };
    let (ps, goal) = (&problem.premises, &problem.goal);
    let prompt = match task {
        Task::ProofChecking => prompt::proof_checking(&ProofSystem::Ndl, ps, goal, &built.shown),
        Task::ProofWriting => prompt::proof_writing(&ProofSystem::Ndl, ps, goal, false),
        Task::ProofMasking => prompt::proof_masking(ps, goal, &built.shown),
        Task::GapFilling => {
            let labels: Vec<String> = built.meta["gap_labels"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            prompt::gap_filling(ps, goal, &built.shown, &labels)
        }
    };
    let strings =
        |fs: &[crate::prop::Formula]| fs.iter().map(|f| f.to_string()).collect::<Vec<_>>();
    let mut metadata = json!({
        "generator": "saturate-pl1",
        "generator_version": env!("CARGO_PKG_VERSION"),
        "level": level,
        "params": params,
        "premises": strings(&problem.premises),
        "premise_names": named_premises(&problem.premises).into_iter().map(|(n, _)| n).collect::<Vec<_>>(),
        "goal": problem.goal.to_string(),
        "conditionalized": problem.conditionalized,
        "source_premises": strings(&problem.source_premises),
        "source_goal": problem.source_goal.to_string(),
        "proof_stats": pstats,
        "reference_proof": reference,
        "shown_proof": built.shown,
    });
    if let (Some(m), Some(extra)) = (metadata.as_object_mut(), built.meta.as_object()) {
        for (k, v) in extra {
            m.insert(k.clone(), v.clone());
        }
    }
    let mut certificate = built.certificate;
    certificate["problem"] = serde_json::to_value(&cert).expect("serialises");
    let mut stats = vec![("proof_lines", pstats.lines as f64)];
    if let Some(m) = built
        .meta
        .get("prediction_matches")
        .and_then(|v| v.as_bool())
    {
        stats.push(("corruption_prediction_matches", f64::from(u8::from(m))));
    }
    Ok(PlInstance {
        prompt,
        answer: built.answer,
        metadata,
        certificate,
        canonical: generate::canonical_form(&problem),
        label: built.label,
        source: "pl1-generator".into(),
        stats,
        difficulty,
    })
}

/// The problem of an instance's metadata, re-read from its strings (used
/// by scorers and by independent re-checks).
pub fn problem_of(metadata: &Value) -> Option<Problem> {
    let parse = |v: &Value| -> Option<Vec<crate::prop::Formula>> {
        v.as_array()?
            .iter()
            .map(|s| crate::prop::Formula::parse(s.as_str()?).ok())
            .collect()
    };
    let premises = parse(&metadata["premises"])?;
    let goal = crate::prop::Formula::parse(metadata["goal"].as_str()?).ok()?;
    Some(Problem {
        premises,
        goal,
        conditionalized: metadata["conditionalized"].as_bool()?,
        source_premises: parse(&metadata["source_premises"])?,
        source_goal: crate::prop::Formula::parse(metadata["source_goal"].as_str()?).ok()?,
    })
}

/// Scores a model answer against a record's metadata and gold answer.
pub fn score_record(task: Task, metadata: &Value, gold: &str, answer: &str) -> crate::tasks::Score {
    let Some(p) = problem_of(metadata) else {
        return crate::tasks::Score::malformed("record metadata lacks the problem");
    };
    let shown = metadata["shown_proof"].as_str().unwrap_or("");
    scoring::score(
        &scoring::ScoreInput {
            task,
            system: &ProofSystem::Ndl,
            premises: &p.premises,
            goal: &p.goal,
            shown,
            gold,
        },
        answer,
    )
}

/// Re-checks a record from its stored text (`saturate verify`): the source
/// problem meets the five constraints again by SAT (entailed, every premise
/// necessary, goal atoms covered, premises consistent, goal not valid), the
/// shown premises entail the shown goal by SAT (conditionalisation
/// preserves entailment), and the task's gold answer re-checks by
/// [`scoring::verify`]. `Ok` says what was checked.
pub fn verify_record(task: Task, metadata: &Value, gold: &str) -> Result<String, String> {
    let p = problem_of(metadata).ok_or("record metadata lacks the problem")?;
    if certify(&p.source_premises, &p.source_goal).is_none() {
        return Err("the source problem fails the five constraints on re-check".into());
    }
    if !crate::prop::sat::entails(&p.premises, &p.goal) {
        return Err("the premises do not entail the goal".into());
    }
    let shown = metadata["shown_proof"]
        .as_str()
        .ok_or("record metadata lacks shown_proof")?;
    let input = scoring::ScoreInput {
        task,
        system: &ProofSystem::Ndl,
        premises: &p.premises,
        goal: &p.goal,
        shown,
        gold,
    };
    scoring::verify(&input, metadata).map(|s| format!("constraints re-certified by SAT; {s}"))
}
