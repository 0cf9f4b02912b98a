//! The four PL1 tasks (PL/EQ spec §3.3-§3.6): the task list, what an
//! instance carries, and the proof-checking and proof-writing builders; the
//! corruption operators are in [`super::corrupt`], masking and gap filling
//! in [`super::masking`], the scorers in [`super::scoring`].

use super::corrupt::{Corruption, corrupt, step_line};
use super::generate::Problem;
use super::verdict::verdict_json;
use crate::prop::check::{Mode, check_parsed, check_text, named_premises};
use crate::prop::ndl::{Deduction, parse_proof, print};
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

/// Builds a proof-checking instance: about half the proofs are corrupted;
/// the label is the strict checker's verdict on the shown text, and a
/// corruption is kept only if the lenient checker rejects it too.
pub fn build_proof_checking(p: &Problem, proof: &Deduction, rng: &mut ChaCha8Rng) -> Built {
    let named = named_premises(&p.premises);
    let correct_text = print(proof);
    if rng.random_bool(0.5) {
        for _ in 0..20 {
            let op = Corruption::ALL[rng.random_range(0..Corruption::ALL.len())];
            let Some((bad, touched)) = corrupt(proof, op, rng, &p.premises) else {
                continue;
            };
            let text = print(&bad);
            let strict = check_text(&named, &p.goal, &text, Mode::Strict);
            let lenient = check_text(&named, &p.goal, &text, Mode::Lenient);
            let (Err(e), false) = (&strict.result, lenient.ok()) else {
                continue;
            };
            let reparsed = parse_proof(&text, false).expect("printed proofs parse");
            let predicted_line = match op {
                Corruption::WrongFinal => Some(0),
                _ => touched.map(|k| step_line(&reparsed, k)),
            };
            let kind_ok = e.kind.name() == op.predicted_kind();
            let line_ok = match predicted_line {
                Some(l) => l == e.line,
                // delete_lemma: the first error cites the deleted result.
                None => e.kind.name() == "logic" && e.line > 0,
            };
            return Built {
                answer: verdict_json(&strict, &text).to_string(),
                certificate: json!({
                    "verdict": "incorrect",
                    "strict": verdict_json(&strict, &text),
                    "lenient_correct": false,
                    "checker_steps": strict.steps,
                }),
                meta: json!({
                    "proof_correct": false,
                    "corruption": op.name(),
                    "predicted_error_type": op.predicted_kind(),
                    "predicted_line": predicted_line,
                    "prediction_matches": kind_ok && line_ok,
                }),
                shown: text,
                label: "incorrect",
            };
        }
    }
    let strict = check_text(&named, &p.goal, &correct_text, Mode::Strict);
    assert!(strict.ok(), "reference proofs check");
    Built {
        answer: verdict_json(&strict, &correct_text).to_string(),
        certificate: json!({
            "verdict": "correct",
            "strict": verdict_json(&strict, &correct_text),
            "lenient_correct": true,
            "checker_steps": strict.steps,
        }),
        meta: json!({"proof_correct": true, "corruption": null}),
        shown: correct_text,
        label: "correct",
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

/// Whether a parsed proof is strictly correct (used by tests and the run's self-check).
pub fn strictly_correct(p: &Problem, d: &Deduction) -> bool {
    check_parsed(&named_premises(&p.premises), &p.goal, d, Mode::Strict).ok()
}
