//! What a saturate dataset is on disk, shared by the writer, the card and the
//! reader: `manifest.json` (generator marker, engine version, seed, config,
//! per-config, per-split row counts and shards with their SHA-256) and the
//! nine column names of every shard.

use serde::{Deserialize, Serialize};
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
    /// Hex SHA-256 of the file's bytes.
    pub sha256: String,
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
