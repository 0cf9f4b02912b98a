//! What a TPTP generator returns and reads back: a built instance, the
//! reasons an attempt is rejected, and the metadata and certificate
//! helpers (clause parsing, proof checks with the independent checker).

use crate::logic::{Literal, TermBank};
use crate::prover::Outcome;
use serde::Serialize;

/// Why an attempt produced no instance; each reason is counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    /// The drawn theorem has no premises at exactly depth d.
    TooShallow,
    /// The depth-d premise set exceeds `max_premises`.
    TooManyPremises,
    /// The prover returned Unknown.
    Unknown,
    /// A False label had only saturation evidence (not re-checkable).
    NoModel,
    /// The certified label differs from the slot's target label.
    WrongLabel,
    /// Degenerate: empty premises, or the theorem among them.
    Degenerate,
    /// The premises are inconsistent on their own.
    Inconsistent,
    /// Selection: a subset of the pool smaller than the minimum proves it.
    DistractorEntails,
    /// Reconstruction: no binary proof graph of exactly depth d, or two
    /// nodes are variants.
    NoProofGraph,
    /// Reconstruction: a collapsed step did not certify.
    StepNotCertified,
    /// Not enough distractors with the theorem's symbols.
    NoDistractors,
    /// Selection: more than one premise of the minimum answer has no
    /// distractor of its shape in the pool (see `select::unmatched`).
    UnmatchedPremises,
    /// Reconstruction: the proof graph starts from fewer than
    /// [`recon::MIN_STARTING_PREMISES`](super::recon::MIN_STARTING_PREMISES) clauses.
    FewStartingPremises,
    /// Derivation: a gold step is not one inference of the calculus from
    /// the clauses it cites (see [`stepwise`](super::stepwise)).
    NotOneInference,
    /// Selection: the answer the deletion pass found is one the cell
    /// already has as many rows of as it takes (the walk would skip the
    /// row).
    RepeatedAnswer,
    /// Selection: a clause of the answer the deletion pass found leads on
    /// the answer side of the cell's written and held rows by more than
    /// the hard lead plus the rows the cell may still write
    /// (`TptpGenerator::held_answer`): the row would only add to rows
    /// already built and held back.
    HeldAnswer,
    /// Entailment: an earlier slot of the cell made rows of the drawn
    /// theorem (a short cell's slots read it from the walk).
    Taken,
}

/// A generated, certified instance, ready to become a record.
#[derive(Clone, Debug)]
pub struct Built {
    /// Prompt text.
    pub prompt: String,
    /// Gold answer.
    pub answer: String,
    /// Metadata JSON object.
    pub metadata: serde_json::Value,
    /// Certificate JSON object.
    pub certificate: serde_json::Value,
    /// Canonical key for deduplication.
    pub key: String,
    /// Rows sharing a group are limited per cell (see
    /// [`crate::tasks::family::Built::group`]): selection's minimum answer.
    pub group: Option<String>,
    /// Label class for the summary (`True`, `False`, answer size, ...).
    pub label: String,
    /// Given clauses processed by the prover for this instance.
    pub prover_processed: u64,
}

/// A fresh term bank holding clauses parsed from TPTP text (metadata).
pub fn parse_clauses(texts: &[String]) -> Result<(TermBank, Vec<Vec<Literal>>), String> {
    let mut bank = TermBank::new();
    let mut out = Vec::with_capacity(texts.len());
    for t in texts {
        let lits = crate::tptp::parse_clause_str(&mut bank, t)
            .map_err(|e| format!("clause `{t}`: {e}"))?;
        out.push(lits);
    }
    Ok((bank, out))
}

/// Re-checks with the independent checker that `refutation` proves
/// `conjecture` from `axioms` (all TPTP text); returns the step count.
pub fn check_proof(
    axioms: Vec<String>,
    conjecture: &str,
    refutation: &crate::prover::Refutation,
) -> Result<usize, String> {
    use crate::checker::{self, CheckProblem, Checked};
    let problem = CheckProblem {
        axioms,
        conjecture: Some(conjecture.to_string()),
    };
    let v = crate::prover::Verdict::Theorem {
        refutation: refutation.clone(),
    };
    match checker::check(&problem, &v) {
        Ok(Checked::Refutation { steps }) => Ok(steps),
        Ok(other) => Err(format!("{other:?}")),
        Err(e) => Err(e.to_string()),
    }
}

/// A JSON array of strings from metadata, or an error naming the field.
pub fn str_list(v: &serde_json::Value, field: &str) -> Result<Vec<String>, String> {
    v.get(field)
        .and_then(|x| x.as_array())
        .ok_or_else(|| format!("metadata has no list `{field}`"))?
        .iter()
        .map(|x| {
            x.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("metadata `{field}` holds a non-string"))
        })
        .collect()
}

/// A string field from metadata.
pub fn str_field(v: &serde_json::Value, field: &str) -> Result<String, String> {
    v.get(field)
        .and_then(|x| x.as_str())
        .map(str::to_string)
        .ok_or_else(|| format!("metadata has no string `{field}`"))
}

/// Prover statistics for a record's metadata.
pub fn prover_stats(o: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "verdict": o.verdict.name(),
        "processed": o.stats.processed,
        "generated": o.stats.generated,
        "model_size_tried": o.stats.model_size_tried,
        "sat_conflicts": o.stats.sat_conflicts,
    })
}
