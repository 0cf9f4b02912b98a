//! What a saturate dataset is on disk, shared by the writer, the card and the
//! reader: `manifest.json` (generator marker, engine version, seed, config,
//! per-config, per-split row counts and shards with their SHA-256 and the
//! fingerprint of their rows) and the nine column names of every shard.
//!
//! The row fingerprint is a hash of the decoded rows, not of the file: a
//! shard re-encoded with another codec or row-group layout (pyarrow's
//! default Snappy, say) keeps its fingerprint, while a changed, added or
//! removed row changes it. It is SHA-256 over `saturate-rows-v1` and then,
//! per row in file order and per column in schema order, a `0` byte for a
//! null or a `1` byte, the value's length as a little-endian `u64` and its
//! UTF-8 bytes.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Marker in `manifest.json` that identifies a directory as ours.
pub(crate) const GENERATOR: &str = "saturate";
/// Column names of every shard, in schema order (all nullable UTF-8).
pub const COLUMNS: [&str; 9] = [
    "id",
    "task",
    "domain",
    "source",
    "level",
    "prompt",
    "answer",
    "metadata",
    "certificate",
];
/// One finished shard as listed in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// Path relative to the dataset directory, `/`-separated.
    pub file: String,
    /// Number of rows.
    pub rows: u64,
    /// Hex SHA-256 of the file's bytes as written. Checked only when the
    /// manifest has no `fingerprint` (datasets written before it existed):
    /// a re-encoded shard changes its bytes, not its rows.
    pub sha256: String,
    /// Hex fingerprint of the shard's decoded rows ([`RowFingerprint`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

/// The content fingerprint of a shard's rows (see the module's definition),
/// computed row by row by the writer and by the reader.
#[derive(Clone)]
pub struct RowFingerprint(Sha256);

impl Default for RowFingerprint {
    fn default() -> Self {
        RowFingerprint::new()
    }
}

impl RowFingerprint {
    /// A fingerprint of no rows yet.
    pub fn new() -> RowFingerprint {
        let mut h = Sha256::new();
        h.update(b"saturate-rows-v1");
        RowFingerprint(h)
    }

    /// Adds one row: its column values in schema order ([`COLUMNS`]),
    /// `None` for a null.
    pub fn add(&mut self, values: [Option<&str>; 9]) {
        for v in values {
            match v {
                None => self.0.update([0u8]),
                Some(s) => {
                    self.0.update([1u8]);
                    self.0.update((s.len() as u64).to_le_bytes());
                    self.0.update(s.as_bytes());
                }
            }
        }
    }

    /// Adds one record as the writer stores it (its optional columns null
    /// when absent).
    pub fn add_record(&mut self, r: &super::Record) {
        self.add([
            Some(&r.id),
            Some(&r.task),
            r.domain.as_deref(),
            r.source.as_deref(),
            r.level.as_deref(),
            Some(&r.prompt),
            Some(&r.answer),
            Some(&r.metadata),
            Some(&r.certificate),
        ]);
    }

    /// The fingerprint in hex.
    pub fn finish(self) -> String {
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The fingerprint of these records, in order.
pub fn fingerprint_records(records: &[super::Record]) -> String {
    let mut f = RowFingerprint::new();
    for r in records {
        f.add_record(r);
    }
    f.finish()
}

/// Rows and shards of one split of one config.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitCounts {
    /// Number of rows.
    pub rows: u64,
    /// The shards, in order.
    pub shards: Vec<ShardInfo>,
}

/// Rows per split of one config (only non-empty splits are listed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigCounts {
    /// Rows over all splits.
    pub rows: u64,
    /// Split name → counts.
    pub splits: BTreeMap<String, SplitCounts>,
}

/// The dataset's `manifest.json`: what made it and what is in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `"saturate"`; marks the directory as ours.
    pub generator: String,
    /// The engine's crate version.
    pub engine_version: String,
    /// Dataset name.
    pub name: String,
    /// Run seed.
    pub seed: u64,
    /// The full run configuration.
    pub config: serde_json::Value,
    /// Rows over all configs.
    pub total_rows: u64,
    /// Config name → counts.
    pub configs: BTreeMap<String, ConfigCounts>,
    /// Other files of the dataset (relative, `/`-separated), such as
    /// `summary.json` and `rejects/rejects.jsonl`.
    #[serde(default)]
    pub extra_files: Vec<String>,
    /// `true`: every file was written and the run finished. The folder is
    /// renamed into place only then, so a folder without it is not ours.
    #[serde(default)]
    pub complete: bool,
}
