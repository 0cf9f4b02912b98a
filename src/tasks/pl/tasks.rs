//! The PL tasks (PL/EQ spec §3.3-§3.6, §4): PL1's task list, what an
//! instance carries, and the proof-checking builder shared by PL1 (NDL) and
//! PL2 (NDL_f) over a [`ProofSystem`] and a family's corruption operators,
//! plus PL1's proof-writing builder; PL1's operators are in
//! [`crate::prop::corrupt`], masking and gap filling in [`super::masking`], the
//! scorers in [`super::scoring`].

use super::verdict::verdict_json;
use crate::prop::ProofSystem;
use crate::prop::check::{Mode, check_text, named_premises};
use crate::prop::corrupt::{Corruption, corrupt, step_line};
use crate::prop::formula::Formula;
use crate::prop::ndl::{Deduction, parse_proof, print};
use crate::prop::problems::random::Problem;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// A PL1 task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Task {
    /// PL1-PC: is this proof correct, and where is the first error?
    ProofChecking,
    /// PL1-PW: write a proof.
    ProofWriting,
    /// PL1-PM: fill the masks.
    ProofMasking,
    /// PL1-GF: fill the gaps.
    GapFilling,
}

impl Task {
    /// All tasks, in output order.
    pub const ALL: [Task; 4] = [
        Task::ProofChecking,
        Task::ProofWriting,
        Task::ProofMasking,
        Task::GapFilling,
    ];

    /// The dataset config (and `task` column) name.
    pub fn config(&self) -> &'static str {
        match self {
            Task::ProofChecking => "pl1_proof_checking",
            Task::ProofWriting => "pl1_proof_writing",
            Task::ProofMasking => "pl1_proof_masking",
            Task::GapFilling => "pl1_gap_filling",
        }
    }
}

impl std::fmt::Display for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.config())
    }
}

/// Everything a task instance carries besides the prompt.
#[derive(Clone, Debug)]
pub struct Built {
    /// The text shown after the problem (proof, masked proof, gapped proof; empty for writing).
    pub shown: String,
    /// The gold answer.
    pub answer: String,
    /// Task-specific metadata (merged into the record's metadata).
    pub meta: Value,
    /// Label evidence.
    pub certificate: Value,
    /// Balance label for the summary (e.g. "correct"/"incorrect").
    pub label: &'static str,
}

/// How a family's corruption operator predicts the line of the checker's
/// first error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinePrediction {
    /// The error is on this line (0: the result is not the goal).
    Line(usize),
    /// The error cites a deleted result, on some later line.
    CitesDeleted,
    /// The operator predicts the kind only.
    KindOnly,
}

/// One corruption of a correct proof, offered by a family's operators.
pub struct Corrupted {
    /// The corrupted proof.
    pub proof: Deduction,
    /// The operator's name.
    pub operator: &'static str,
    /// The error kind the operator predicts.
    pub predicted_kind: &'static str,
    /// Where the operator predicts the error.
    pub predicted_line: LinePrediction,
}

/// No corruption of the proof was kept within the tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoCorruption;

/// Builds a proof-checking instance in `system`: a corruption of the proof
/// is searched by up to `tries` draws of `corruptor` (`None`: the drawn
/// operator does not apply), kept only if the strict and the lenient
/// checker both reject it; then a fair coin shows the corrupted proof (the
/// label is the strict checker's verdict on the shown text) or the correct
/// one. `Err` when no corruption was kept, whatever the coin said: the
/// caller skips the problem, so that which problems are used does not
/// depend on the label.
pub fn build_proof_checking(
    system: &ProofSystem,
    premises: &[Formula],
    goal: &Formula,
    proof: &Deduction,
    rng: &mut ChaCha8Rng,
    tries: usize,
    mut corruptor: impl FnMut(&mut ChaCha8Rng) -> Option<Corrupted>,
) -> Result<Built, NoCorruption> {
    // The corruption is searched for whatever the label: a problem is used
    // only when it has one, so the problems behind correct and incorrect
    // rows come from one distribution (otherwise the problems a corruption
    // fails on, small ones, would all be shown correct, and their size
    // would give the label away).
    let show_correct = !rng.random_bool(0.5);
    let named = named_premises(premises);
    for _ in 0..tries {
        let Some(c) = corruptor(rng) else {
            continue;
        };
        let text = print(&c.proof);
        let strict = system.check_text(&named, goal, &text, Mode::Strict);
        let lenient = system.check_text(&named, goal, &text, Mode::Lenient);
        let (Err(e), false) = (&strict.result, lenient.ok()) else {
            continue;
        };
        if show_correct {
            return Ok(correct_proof_checking(system, premises, goal, proof));
        }
        let kind_ok = e.kind.name() == c.predicted_kind;
        let mut meta = json!({
            "proof_correct": false,
            "corruption": c.operator,
            "predicted_error_type": c.predicted_kind,
        });
        let line_ok = match c.predicted_line {
            LinePrediction::Line(l) => {
                meta["predicted_line"] = json!(l);
                l == e.line
            }
            LinePrediction::CitesDeleted => {
                meta["predicted_line"] = Value::Null;
                e.kind.name() == "logic" && e.line > 0
            }
            LinePrediction::KindOnly => true,
        };
        meta["prediction_matches"] = json!(kind_ok && line_ok);
        return Ok(Built {
            answer: verdict_json(&strict, &text).to_string(),
            certificate: json!({
                "verdict": "incorrect",
                "strict": verdict_json(&strict, &text),
                "lenient_correct": false,
                "checker_steps": strict.steps,
            }),
            meta,
            shown: text,
            label: "incorrect",
        });
    }
    Err(NoCorruption)
}

/// A proof-checking instance that shows the correct proof.
pub fn correct_proof_checking(
    system: &ProofSystem,
    premises: &[Formula],
    goal: &Formula,
    proof: &Deduction,
) -> Built {
    let text = print(proof);
    let strict = system.check_text(&named_premises(premises), goal, &text, Mode::Strict);
    assert!(strict.ok(), "reference proofs check");
    Built {
        answer: verdict_json(&strict, &text).to_string(),
        certificate: json!({
            "verdict": "correct",
            "strict": verdict_json(&strict, &text),
            "lenient_correct": true,
            "checker_steps": strict.steps,
        }),
        meta: json!({"proof_correct": true, "corruption": null}),
        shown: text,
        label: "correct",
    }
}

/// PL1's corruption operators as a [`build_proof_checking`] corruptor: a
/// uniformly drawn operator, its touched step's line as the prediction.
pub fn pl1_corruptor<'p>(
    proof: &'p Deduction,
    premises: &'p [Formula],
) -> impl FnMut(&mut ChaCha8Rng) -> Option<Corrupted> + 'p {
    move |rng| {
        let op = Corruption::ALL[rng.random_range(0..Corruption::ALL.len())];
        let (bad, touched) = corrupt(proof, op, rng, premises)?;
        let predicted_line = match (op, touched) {
            (Corruption::WrongFinal, _) => LinePrediction::Line(0),
            (_, Some(k)) => {
                let reparsed = parse_proof(&print(&bad), false).expect("printed proofs parse");
                LinePrediction::Line(step_line(&reparsed, k))
            }
            // delete_lemma: the first error cites the deleted result.
            (_, None) => LinePrediction::CitesDeleted,
        };
        Some(Corrupted {
            proof: bad,
            operator: op.name(),
            predicted_kind: op.predicted_kind(),
            predicted_line,
        })
    }
}

/// Builds a proof-writing instance: the gold answer is the reference proof.
pub fn build_proof_writing(p: &Problem, proof: &Deduction) -> Built {
    let text = print(proof);
    let r = check_text(&named_premises(&p.premises), &p.goal, &text, Mode::Strict);
    assert!(r.ok());
    Built {
        answer: json!({
            "description": "Reference proof found by goal-directed introduction, forward elimination and case analysis on atoms.",
            "proof": text,
        })
        .to_string(),
        certificate: json!({"verdict": "provable", "reference_proof_strictly_correct": true, "checker_steps": r.steps}),
        meta: json!({}),
        shown: String::new(),
        label: "provable",
    }
}
