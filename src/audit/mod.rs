//! The shortcut audit (`saturate audit DIR`, and the report every
//! generation run writes into its dataset card): can a shallow reader
//! predict the labels without reasoning?
//!
//! Each family turns a row into labelled items with surface features
//! ([`crate::tasks::audit`], [`crate::tasks::family::TaskFamily::audit_items`]).
//! Per config and level, [`model::evaluate`] cross-validates the majority
//! class, the best single-feature threshold rule, a shallow tree and a
//! logistic regression over all features. A cell with enough rows fails
//! when a baseline beats the majority by more than the margin (default 10
//! points), or when its label never varies (the answer is then given by the
//! task's form, not by reasoning). A config whose answer is a structure (a
//! reconstruction graph) is judged instead by the share of rows that fixed
//! shallow readers solve outright
//! ([`crate::tasks::family::TaskFamily::audit_readers`]): its items test one
//! edge at a time against easy negatives, and a parent shares literals with
//! its child by the inference rule itself, so their accuracy is reported,
//! not judged.
//!
//! Folds are grouped: a row's fold is a hash of its group
//! ([`TaskFamily::audit_group`](crate::tasks::family::TaskFamily::audit_group): the theorem or problem), so the True and
//! False twins of one theorem, or the restatements of one formula, are
//! never split between training and test. Besides the feature baselines,
//! learned text readers ([`text`]) read the prompt's sections. The exploit
//! suite scores canned no-reasoning answers
//! ([`TaskFamily::exploit_answers`](crate::tasks::family::TaskFamily::exploit_answers)) with the family's real scorer on a
//! sample of each cell's rows; a cell fails when one beats the best
//! constant answer by more than [`AuditSettings::exploit_margin`].
//!
//! Determinism: items are sorted by row id inside each cell and the folds
//! come from a hash of the group, so the report depends on the rows alone,
//! not on the order they were written or read in: the card written by a run
//! and `saturate audit` on the same folder agree to the digit.

pub mod model;
pub mod text;
use crate::tasks::registry::Registry;

mod collect;
mod judge;
mod report;
#[cfg(test)]
mod tests;

pub use collect::Collector;
use collect::*;
use judge::*;
pub use report::*;

/// When a cell fails the audit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AuditSettings {
    /// Largest tolerated lead of a baseline over the majority class, in
    /// accuracy points (0-100).
    pub margin_points: f64,
    /// Cells with fewer rows are reported but never fail.
    pub min_rows: usize,
    /// Largest tolerated lead of a no-reasoning answer's mean score over
    /// the best constant answer's, in score units (0-1).
    pub exploit_margin: f64,
    /// Rows per cell the exploit suite scores (those whose ids hash
    /// smallest): scoring a selection or derivation answer calls the
    /// prover.
    pub exploit_rows: usize,
    /// Fewest rows an exploit must be scored on for its cell to be judged.
    pub exploit_min_rows: usize,
    /// Keep every canned answer scored ([`ExploitCell::answers`]), so
    /// another scorer (an older build, a user's own) can score the same
    /// answers.
    pub keep_exploit_answers: bool,
    /// Run only the exploit suite: no readers, no judged cells (the
    /// readers are most of an audit's time on a large dataset).
    pub exploits_only: bool,
}

impl Default for AuditSettings {
    fn default() -> Self {
        AuditSettings {
            margin_points: 10.0,
            min_rows: 50,
            exploit_margin: 0.2,
            exploit_rows: 40,
            exploit_min_rows: 10,
            keep_exploit_answers: false,
            exploits_only: false,
        }
    }
}

/// Reads a dataset folder (checked against its manifest like `score` and
/// `verify` read it) and audits it; an error names the folder, file or row.
/// The items see each prompt as its family renders it from the metadata
/// (without the answer format's instruction), as during generation, so the
/// card and this report agree.
pub fn audit_dataset(
    dir: &std::path::Path,
    registry: &Registry,
    settings: &AuditSettings,
) -> Result<AuditReport, String> {
    let rows = crate::dataset::read_dataset(dir).map_err(|e| e.to_string())?;
    let mut c = Collector::new();
    for row in &rows {
        let mut record = row.to_record();
        if let Some(f) = registry.family_of(&record.task)
            && let Some(Ok(prompt)) = f.render_prompt(&record)
        {
            record.prompt = prompt;
        }
        c.add_with(&record, registry, settings)
            .map_err(|e| format!("{}: {e}", row.file.display()))?;
    }
    Ok(c.report(settings))
}

/// Rows per cell the audit judges. A larger cell is judged on the rows
/// whose ids hash smallest: a uniform sample that depends on the row set
/// alone (never on the order rows arrive in), so a merged run audits as the
/// unsharded one, and the audit's memory stays bounded however many rows a
/// run writes (the items of all rows grew a run's memory by some 30 KB per
/// row).
pub const MAX_AUDIT_ROWS: usize = 5_000;

/// Rows per cell the learned text readers read: the first of the sample
/// (smallest hashes). Their hashed tokens cost some kilobytes a row and
/// their training grows with the rows. 500 is over twice the 200 rows per
/// cell of the release audit, and keeps a run's text store to a few MB per
/// cell.
pub const MAX_TEXT_ROWS: usize = 500;
