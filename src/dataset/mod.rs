//! Dataset output (DESIGN.md §9): the record schema every task family
//! emits, the stable train/validation/test split, and a deterministic
//! Parquet writer that produces a directory Hugging Face `datasets` loads as
//! is (`<out>/<config>/<split>-NNNNN-of-NNNNN.parquet`, `README.md` with a
//! YAML `configs:` block, `manifest.json`).
//!
//! Data flow: callers [`DatasetWriter::push`] records in their final order;
//! the writer buffers each (config, split) stream and flushes a shard every
//! `max_rows_per_shard` rows into a staging directory beside the output; at
//! [`DatasetWriter::finish`] shards get their final `-of-N` names, the card
//! and manifest (`"complete": true`) are written, and the staging directory
//! replaces the output. An existing output folder is replaced only when it
//! is a complete saturate dataset holding nothing its manifest does not list;
//! `<out>.tmp-<pid>` leftovers of dead runs are removed by the next run.
//!
//! Invariants: the same sequence of pushes gives byte-identical files (no
//! timestamps, fixed Parquet `created_by`, fixed writer properties); rows of
//! one (config, split) keep push order; a crash never leaves a directory
//! that looks like a complete dataset.

mod card;
mod manifest;
mod reader;
mod writer;

pub use manifest::{
    COLUMNS, ConfigCounts, Manifest, RowFingerprint, ShardInfo, SplitCounts, fingerprint_records,
};
pub use reader::{DatasetRead, ReadError, Row, ShardMismatch, read_dataset, read_dataset_checked};
pub use writer::{DatasetWriter, remove_stale_temporaries};

use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// One row of a dataset: one task instance with its rendered prompt, its
/// gold answer and the evidence for its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Stable instance id; also decides the split (see [`split_of`]).
    pub id: String,
    /// Task name, e.g. `pl1_proof_checking`.
    pub task: String,
    /// Axiom domain (e.g. `SET`), if the task has one.
    pub domain: Option<String>,
    /// Source file or generator the instance came from.
    pub source: Option<String>,
    /// Difficulty level (`"1"`..`"4"`), if the task has levels.
    pub level: Option<String>,
    /// The prompt shown to the model.
    pub prompt: String,
    /// The gold answer.
    pub answer: String,
    /// JSON object: parameters, difficulty features, statistics.
    pub metadata: String,
    /// JSON object: the verdict and the evidence that certifies it.
    pub certificate: String,
}

/// A dataset split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Split {
    /// About 80% of the ids.
    Train,
    /// About 10% of the ids.
    Validation,
    /// About 10% of the ids.
    Test,
}

impl Split {
    /// All splits, in file and card order.
    pub const ALL: [Split; 3] = [Split::Train, Split::Validation, Split::Test];

    /// The split's name as Hugging Face spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Validation => "validation",
            Split::Test => "test",
        }
    }
}

/// The split of an instance id: the first 8 bytes of SHA-256(id) as a
/// little-endian integer, modulo 100; below 80 is train, below 90 validation,
/// the rest test. Depends on the id alone, so it never changes between runs
/// or versions.
pub fn split_of(id: &str) -> Split {
    let digest = Sha256::digest(id.as_bytes());
    let bucket = u64::from_le_bytes(digest[..8].try_into().expect("8 bytes")) % 100;
    match bucket {
        0..80 => Split::Train,
        80..90 => Split::Validation,
        _ => Split::Test,
    }
}

/// What the dataset is and how it was made; copied into the card and the
/// manifest.
#[derive(Clone, Debug)]
pub struct DatasetSpec {
    /// Dataset name (card title).
    pub name: String,
    /// Prose description for the card (Markdown).
    pub description: String,
    /// The run seed.
    pub seed: u64,
    /// The full run configuration, recorded verbatim in the manifest.
    pub config: serde_json::Value,
    /// Rows per Parquet shard (at least 1).
    pub max_rows_per_shard: usize,
}

/// An error while writing a dataset. Every variant names the path involved.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// A file-system operation failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The Parquet/Arrow encoder failed.
    #[error("{}: parquet: {message}", path.display())]
    Parquet {
        /// The shard being written.
        path: PathBuf,
        /// The encoder's message.
        message: String,
    },
    /// The output path exists and is not an empty directory or a complete
    /// saturate dataset (a manifest marked complete, no file it does not
    /// list); it is left untouched.
    #[error(
        "{}: exists and is not a saturate dataset marked complete ({reason}); refusing to replace it (remove it or choose another output folder)",
        path.display()
    )]
    NotOurs {
        /// The output directory.
        path: PathBuf,
        /// Why it is not replaceable.
        reason: String,
    },
    /// The run produced no rows; nothing was written.
    #[error(
        "{}: the run produced no rows (every instance was rejected or the configuration selects nothing); no dataset written",
        path.display()
    )]
    Empty {
        /// The output directory.
        path: PathBuf,
    },
    /// A config (subset) name that cannot be a directory name.
    #[error("{}: invalid config name {name:?} (use letters, digits, '_' and '-')", path.display())]
    BadConfigName {
        /// The output directory.
        path: PathBuf,
        /// The rejected name.
        name: String,
    },
    /// `max_rows_per_shard` was 0.
    #[error("{}: max_rows_per_shard must be at least 1", path.display())]
    BadShardSize {
        /// The output directory.
        path: PathBuf,
    },
}

#[cfg(test)]
mod tests;
