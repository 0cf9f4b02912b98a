//! Dataset output (DESIGN.md §9): the record schema every task family
//! emits, stratified and grouped train/validation/test splits
//! ([`splits`]), and a deterministic Parquet (or JSON Lines) writer that
//! produces a directory Hugging Face `datasets` loads as is
//! (`<out>/<config>/<split>-NNNNN-of-NNNNN.parquet`, `README.md` with a
//! YAML `configs:` block, a default `all` config and `dataset_info`,
//! `manifest.json`).
//!
//! Data flow: callers [`DatasetWriter::push`] records with their split
//! group (the theorem, problem or source file that must not cross splits);
//! the writer appends each record to a spill file in a staging directory
//! beside the output and keeps only a small index entry in memory. At
//! [`DatasetWriter::finish`] it assigns splits over the whole index
//! (stratified by config x level, grouped), sorts every (config, split) by
//! id (numbers in ids compared as numbers), writes the shards, the card and
//! the manifest (`"complete": true`), and the staging directory replaces
//! the output. An existing output folder is replaced only when it is a
//! complete saturate dataset holding nothing its manifest does not list.
//! The staging folder `<out>.tmp-<pid>-<k>-<tag>` holds a marker naming its
//! process ([`staging`]); the next run removes such leftovers of ended runs
//! and nothing else, whatever its name.
//!
//! Invariants: the output depends only on the set of pushed (config,
//! record, group) triples, not on their order (so merging the shards of a
//! sharded run gives the unsharded run's bytes); no timestamps, fixed
//! Parquet `created_by`, fixed writer properties; a crash never leaves a
//! directory that looks like a complete dataset.

mod card;
mod jsonl;
mod manifest;
pub mod names;
mod reader;
pub mod splits;
pub mod staging;
mod writer;

pub use manifest::{
    COLUMNS, ConfigCounts, Manifest, RowFingerprint, ShardInfo, SplitCounts, fingerprint_records,
};
pub use reader::{
    DatasetRead, ReadError, Row, ShardMismatch, read_dataset, read_dataset_checked,
    read_manifest_of,
};
pub use writer::{DatasetWriter, natural_cmp, record_batch, remove_stale_temporaries};

/// A row as the JSON Lines shard format writes it (one line, no newline):
/// the same columns and bytes as the row in a `--format jsonl` dataset,
/// with `system` as the system turn of `messages`.
pub fn row_json(record: &Record, system: &str) -> String {
    jsonl::encode(record, system)
}

use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// One row of a dataset: one task instance with its rendered prompt, its
/// gold answer and the evidence for its label. The `messages` column is not
/// stored here: the writer builds it from the dataset's system prompt, the
/// prompt and the completion.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// Stable instance id, unique in the dataset; rows are sorted by it.
    pub id: String,
    /// Task name, e.g. `pl1_proof_checking`.
    pub task: String,
    /// Axiom domain (e.g. `SET`), if the task has one.
    pub domain: Option<String>,
    /// Source file or generator the instance came from.
    pub source: Option<String>,
    /// Difficulty level (1 = easiest), if the task has levels.
    pub level: Option<u32>,
    /// The prompt shown to the model (with the answer format's instruction).
    pub prompt: String,
    /// The gold answer, as the task's scorer reads it.
    pub answer: String,
    /// The gold answer as a model should write it, in the dataset's answer
    /// format (the assistant turn of `messages`).
    pub completion: String,
    /// The certificate rendered as a readable derivation, when the run asked
    /// for traces and the certificate holds one.
    pub trace: Option<String>,
    /// JSON object: parameters, difficulty features, statistics.
    pub metadata: String,
    /// JSON object: the verdict and the evidence that certifies it.
    pub certificate: String,
}

/// A dataset split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Split {
    /// Training rows (80% by default).
    Train,
    /// Validation rows (10% by default).
    Validation,
    /// Test rows (10% by default).
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

/// The 8-byte hash of a split group: the first 8 bytes of SHA-256 as a
/// little-endian integer. Groups are visited in this order when splits are
/// assigned, so the order depends on the group alone.
pub fn group_hash(group: &str) -> u64 {
    let digest = Sha256::digest(group.as_bytes());
    u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// How rows are laid out on disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// zstd-compressed Parquet shards (the default).
    #[default]
    Parquet,
    /// JSON Lines shards, one row object per line.
    Jsonl,
}

impl OutputFormat {
    /// The shard file extension.
    pub fn extension(&self) -> &'static str {
        match self {
            OutputFormat::Parquet => "parquet",
            OutputFormat::Jsonl => "jsonl",
        }
    }

    /// Parses `parquet` or `jsonl` (the [`std::str::FromStr`] of the
    /// type).
    pub fn parse(s: &str) -> Result<OutputFormat, String> {
        match s {
            "parquet" => Ok(OutputFormat::Parquet),
            "jsonl" => Ok(OutputFormat::Jsonl),
            _ => Err(format!(
                "unknown output format {s:?} (expected \"parquet\" or \"jsonl\")"
            )),
        }
    }
}

impl std::str::FromStr for OutputFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<OutputFormat, String> {
        OutputFormat::parse(s)
    }
}

/// Where the rows' content comes from, for the card's licence and
/// attribution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provenance {
    /// Generated from scratch or from the project's own axiom files:
    /// released under CC BY 4.0.
    #[default]
    Original,
    /// Derived from TPTP library files: the TPTP's terms apply and the
    /// library is cited as it asks.
    Tptp,
}

/// How the rows are presented to a model: the answer format and the system
/// prompt of the `messages` column.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Presentation {
    /// The answer format's name (`plain`, `tags`, `json`).
    pub answer_format: String,
    /// The instruction appended to every prompt for that format (empty for
    /// `plain`).
    pub instruction: String,
    /// The system turn of `messages`.
    pub system_prompt: String,
}

impl Default for Presentation {
    fn default() -> Self {
        Presentation {
            answer_format: "plain".into(),
            instruction: String::new(),
            system_prompt: DEFAULT_SYSTEM_PROMPT.into(),
        }
    }
}

/// The system turn of `messages` unless the configuration sets another.
pub const DEFAULT_SYSTEM_PROMPT: &str = "You are an expert in formal logic and automated \
reasoning. Solve the task exactly as stated, using only the formulas it gives, and end \
your reply with the answer in the format the task asks for.";

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
    /// Percent of rows per split (train, validation, test), summing to 100.
    pub split_percent: [u32; 3],
    /// What a split group is (`theorem`, `source`), for the card.
    pub split_group: String,
    /// The answer format and the system prompt.
    pub presentation: Presentation,
    /// Parquet or JSON Lines.
    pub format: OutputFormat,
    /// Where the content comes from (licence and attribution).
    pub provenance: Provenance,
}

impl DatasetSpec {
    /// A spec with the defaults: 80/10/10 splits grouped by theorem, plain
    /// answers with the default system prompt, Parquet, original content,
    /// 100,000 rows per shard.
    pub fn new(name: &str, seed: u64, config: serde_json::Value) -> DatasetSpec {
        DatasetSpec {
            name: name.to_string(),
            description: String::new(),
            seed,
            config,
            max_rows_per_shard: 100_000,
            split_percent: [80, 10, 10],
            split_group: "theorem".into(),
            presentation: Presentation::default(),
            format: OutputFormat::Parquet,
            provenance: Provenance::Original,
        }
    }
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
    /// Two records with the same id, or an empty id.
    #[error("{}: duplicate or empty row id {id:?}", path.display())]
    DuplicateId {
        /// The output directory.
        path: PathBuf,
        /// The id.
        id: String,
    },
    /// `max_rows_per_shard` was 0.
    #[error("{}: max_rows_per_shard must be at least 1", path.display())]
    BadShardSize {
        /// The output directory.
        path: PathBuf,
    },
    /// The split percentages do not sum to 100 or give train nothing.
    #[error(
        "{}: split percentages {percent:?} must sum to 100 with train > 0",
        path.display()
    )]
    BadSplit {
        /// The output directory.
        path: PathBuf,
        /// The rejected percentages.
        percent: [u32; 3],
    },
}

#[cfg(test)]
mod tests;
