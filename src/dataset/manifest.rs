//! What a saturate dataset is on disk, shared by the writer, the card and the
//! reader: `manifest.json` (generator marker, engine version, seed, config,
//! per-config, per-split row counts and shards with their SHA-256 and the
//! fingerprint of their rows, the presentation and split settings) and the
//! column names of every shard.
//!
//! The row fingerprint is a hash of the decoded rows, not of the file: a
//! shard re-encoded with another codec or row-group layout (pyarrow's
//! default Snappy, say) keeps its fingerprint, while a changed, added or
//! removed row changes it. It is SHA-256 over `saturate-rows-v2` and then,
//! per row in file order and per column in schema order, a `0` byte for a
//! null or a `1` byte, the value's length as a little-endian `u64` and its
//! UTF-8 bytes; `level` counts as its decimal digits and `messages` as the
//! compact JSON array of its `{"role", "content"}` objects.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Marker in `manifest.json` that identifies a directory as ours.
pub(crate) const GENERATOR: &str = "saturate";
/// Column names of every shard, in schema order: `level` is an integer,
/// `messages` a list of `{role, content}` structs, the rest UTF-8 strings.
pub const COLUMNS: [&str; 12] = [
    "id",
    "task",
    "domain",
    "source",
    "level",
    "prompt",
    "answer",
    "completion",
    "messages",
    "trace",
    "metadata",
    "certificate",
];

/// The chat turns of a row: the system prompt, the prompt as the user turn
/// and the completion as the assistant turn.
pub fn messages_of<'a>(system: &'a str, r: &'a super::Record) -> [(&'static str, &'a str); 3] {
    [
        ("system", system),
        ("user", r.prompt.as_str()),
        ("assistant", r.completion.as_str()),
    ]
}

/// `messages` as the fingerprint and the JSON Lines format spell it: a
/// compact JSON array of `{"role": .., "content": ..}` objects.
pub fn messages_json<'a>(turns: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let list: Vec<serde_json::Value> = turns
        .into_iter()
        .map(|(role, content)| serde_json::json!({"role": role, "content": content}))
        .collect();
    serde_json::Value::Array(list).to_string()
}
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
    /// The file's size as written, in bytes (the card's `num_bytes`).
    #[serde(default)]
    pub bytes: u64,
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
        h.update(b"saturate-rows-v2");
        RowFingerprint(h)
    }

    /// Adds one row: its column values in schema order ([`COLUMNS`]),
    /// `None` for a null (`level` as decimal digits, `messages` as
    /// `messages_json`).
    pub fn add(&mut self, values: [Option<&str>; 12]) {
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
    /// when absent), with the dataset's system prompt.
    pub fn add_record(&mut self, r: &super::Record, system: &str) {
        self.add_with_messages(r, Some(&messages_json(messages_of(system, r))));
    }

    /// Adds one record whose `messages` column is `messages` (its JSON
    /// text, `None` for a null), as a reader found it.
    pub fn add_with_messages(&mut self, r: &super::Record, messages: Option<&str>) {
        let level = r.level.map(|l| l.to_string());
        self.add([
            Some(&r.id),
            Some(&r.task),
            r.domain.as_deref(),
            r.source.as_deref(),
            level.as_deref(),
            Some(&r.prompt),
            Some(&r.answer),
            Some(&r.completion),
            messages,
            r.trace.as_deref(),
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

/// The fingerprint of these records, in order, with the dataset's system
/// prompt.
pub fn fingerprint_records(records: &[super::Record], system: &str) -> String {
    let mut f = RowFingerprint::new();
    for r in records {
        f.add_record(r, system);
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
    /// The shard format.
    #[serde(default)]
    pub format: super::OutputFormat,
    /// The answer format, its instruction and the system prompt.
    #[serde(default)]
    pub presentation: super::Presentation,
    /// Percent of rows per split (train, validation, test).
    #[serde(default = "default_percent")]
    pub split_percent: [u32; 3],
    /// What a split group is (`theorem`, `source`).
    #[serde(default)]
    pub split_group: String,
    /// Where the content comes from.
    #[serde(default)]
    pub provenance: super::Provenance,
    /// Rows per shard the writer was given.
    #[serde(default)]
    pub max_rows_per_shard: usize,
    /// The card's description (the families' text), as the run set it.
    #[serde(default)]
    pub description: String,
    /// The card's paragraph per config, as the run set them.
    #[serde(default)]
    pub config_descriptions: BTreeMap<String, String>,
    /// A fingerprint of the whole dataset's content: SHA-256 over every
    /// shard's row fingerprint in config, split and shard order. The card's
    /// `dataset_info` carries it, so a cache keyed on the card tells two
    /// datasets apart.
    #[serde(default)]
    pub content_fingerprint: String,
}

fn default_percent() -> [u32; 3] {
    [80, 10, 10]
}
