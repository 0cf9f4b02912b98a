//! The Parquet shard writer: buffers records per (config, split), writes
//! zstd-compressed shards into a staging directory, and at the end names
//! them, writes the dataset card and manifest, and swaps the staging
//! directory in place of the output directory.

use super::{DatasetError, DatasetSpec, Record, Split, card, split_of};
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Marker in `manifest.json` that identifies a directory as ours.
pub(crate) const GENERATOR: &str = "saturate";
/// Column names, in schema order.
pub(crate) const COLUMNS: [&str; 9] = [
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
/// Row-group caps: whichever is reached first closes a row group.
const ROW_GROUP_ROWS: usize = 4096;
const ROW_GROUP_BYTES: usize = 64 * 1024 * 1024;

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
}

/// A shard written under its temporary name.
struct PendingShard {
    tmp: PathBuf,
    rows: u64,
    sha256: String,
}

#[derive(Default)]
struct Stream {
    buffer: Vec<Record>,
    shards: Vec<PendingShard>,
}

/// Writes one dataset directory. Create it, push records, then call
/// [`DatasetWriter::finish`]; dropping it unfinished deletes the staging
/// directory and leaves the output directory as it was.
pub struct DatasetWriter {
    out_dir: PathBuf,
    staging: PathBuf,
    spec: DatasetSpec,
    streams: BTreeMap<(String, Split), Stream>,
    descriptions: BTreeMap<String, String>,
    finished: bool,
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> DatasetError + '_ {
    move |source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A sibling of `dir` named `<name>.<tag>-<pid>`.
fn sibling(dir: &Path, tag: &str) -> PathBuf {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dataset".to_string());
    dir.with_file_name(format!("{name}.{tag}-{}", std::process::id()))
}

/// Whether `dir` holds a `manifest.json` written by us.
fn is_our_dataset(dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("manifest.json")) else {
        return false;
    };
    serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| {
            v.get("generator")
                .and_then(|g| g.as_str())
                .map(|g| g == GENERATOR)
        })
        .unwrap_or(false)
}

fn valid_config_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The Arrow schema of every shard: nine nullable UTF-8 columns.
pub(crate) fn schema() -> Arc<Schema> {
    Arc::new(Schema::new(
        COLUMNS
            .iter()
            .map(|c| Field::new(*c, DataType::Utf8, true))
            .collect::<Vec<_>>(),
    ))
}

/// Fixed writer properties: nothing in them depends on time or host.
fn properties() -> WriterProperties {
    WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_1_0)
        .set_compression(Compression::ZSTD(
            ZstdLevel::try_new(3).expect("valid zstd level"),
        ))
        .set_created_by(format!("saturate {}", env!("CARGO_PKG_VERSION")))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_max_row_group_bytes(Some(ROW_GROUP_BYTES))
        .build()
}

/// Encodes records as one Parquet file in memory.
pub(crate) fn encode_shard(records: &[Record]) -> Result<Vec<u8>, parquet::errors::ParquetError> {
    let schema = schema();
    let col = |f: &dyn Fn(&Record) -> Option<&str>| -> ArrayRef {
        Arc::new(records.iter().map(f).collect::<StringArray>())
    };
    let columns: Vec<ArrayRef> = vec![
        col(&|r| Some(r.id.as_str())),
        col(&|r| Some(r.task.as_str())),
        col(&|r| r.domain.as_deref()),
        col(&|r| r.source.as_deref()),
        col(&|r| r.level.as_deref()),
        col(&|r| Some(r.prompt.as_str())),
        col(&|r| Some(r.answer.as_str())),
        col(&|r| Some(r.metadata.as_str())),
        col(&|r| Some(r.certificate.as_str())),
    ];
    let batch = RecordBatch::try_new(schema.clone(), columns)?;
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, schema, Some(properties()))?;
    w.write(&batch)?;
    w.close()?;
    Ok(out)
}

impl DatasetWriter {
    /// Starts a dataset in `out_dir`. Refuses an existing non-empty
    /// directory that is not a saturate dataset; a previous saturate dataset
    /// is replaced only when [`DatasetWriter::finish`] succeeds.
    pub fn create(out_dir: &Path, spec: DatasetSpec) -> Result<DatasetWriter, DatasetError> {
        if spec.max_rows_per_shard == 0 {
            return Err(DatasetError::BadShardSize {
                path: out_dir.to_path_buf(),
            });
        }
        if out_dir.exists() {
            let empty = out_dir.is_dir()
                && std::fs::read_dir(out_dir)
                    .map_err(io_err(out_dir))?
                    .next()
                    .is_none();
            if !empty && !is_our_dataset(out_dir) {
                return Err(DatasetError::NotOurs {
                    path: out_dir.to_path_buf(),
                });
            }
        } else if let Some(parent) = out_dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(io_err(parent))?;
        }
        let staging = sibling(out_dir, "tmp");
        if staging.exists() {
            std::fs::remove_dir_all(&staging).map_err(io_err(&staging))?;
        }
        std::fs::create_dir(&staging).map_err(io_err(&staging))?;
        Ok(DatasetWriter {
            out_dir: out_dir.to_path_buf(),
            staging,
            spec,
            streams: BTreeMap::new(),
            descriptions: BTreeMap::new(),
            finished: false,
        })
    }

    /// Sets a prose description of one config, shown in the dataset card.
    pub fn describe_config(&mut self, config: &str, description: &str) {
        self.descriptions
            .insert(config.to_string(), description.to_string());
    }

    /// Appends a record to `config` (a subset name such as
    /// `pl1_proof_checking`), in the split its id hashes to.
    pub fn push(&mut self, config: &str, record: Record) -> Result<(), DatasetError> {
        if !valid_config_name(config) {
            return Err(DatasetError::BadConfigName {
                path: self.out_dir.clone(),
                name: config.to_string(),
            });
        }
        let split = split_of(&record.id);
        let key = (config.to_string(), split);
        let stream = self.streams.entry(key.clone()).or_default();
        stream.buffer.push(record);
        if stream.buffer.len() >= self.spec.max_rows_per_shard {
            self.flush(&key)?;
        }
        Ok(())
    }

    /// Writes the buffered rows of one stream as a shard under a temporary name.
    fn flush(&mut self, key: &(String, Split)) -> Result<(), DatasetError> {
        let stream = self.streams.get_mut(key).expect("stream exists");
        if stream.buffer.is_empty() {
            return Ok(());
        }
        let dir = self.staging.join(&key.0);
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let tmp = dir.join(format!(
            ".{}-{:05}.parquet.partial",
            key.1.name(),
            stream.shards.len()
        ));
        let bytes = encode_shard(&stream.buffer).map_err(|e| DatasetError::Parquet {
            path: tmp.clone(),
            message: e.to_string(),
        })?;
        std::fs::write(&tmp, &bytes).map_err(io_err(&tmp))?;
        stream.shards.push(PendingShard {
            tmp,
            rows: stream.buffer.len() as u64,
            sha256: hex(&Sha256::digest(&bytes)),
        });
        stream.buffer.clear();
        Ok(())
    }

    /// Flushes every stream, names the shards `<split>-NNNNN-of-NNNNN.parquet`,
    /// writes `README.md` and `manifest.json`, and moves the finished dataset
    /// to the output directory (replacing a previous saturate dataset).
    pub fn finish(mut self) -> Result<Manifest, DatasetError> {
        let keys: Vec<(String, Split)> = self.streams.keys().cloned().collect();
        for key in &keys {
            self.flush(key)?;
        }
        let mut configs: BTreeMap<String, ConfigCounts> = BTreeMap::new();
        let mut total_rows = 0;
        for ((config, split), stream) in &self.streams {
            let n = stream.shards.len();
            let mut shards = Vec::with_capacity(n);
            for (i, s) in stream.shards.iter().enumerate() {
                let file = format!("{}-{:05}-of-{:05}.parquet", split.name(), i, n);
                let path = self.staging.join(config).join(&file);
                std::fs::rename(&s.tmp, &path).map_err(io_err(&path))?;
                shards.push(ShardInfo {
                    file: format!("{config}/{file}"),
                    rows: s.rows,
                    sha256: s.sha256.clone(),
                });
            }
            let rows: u64 = shards.iter().map(|s| s.rows).sum();
            total_rows += rows;
            let entry = configs.entry(config.clone()).or_insert(ConfigCounts {
                rows: 0,
                splits: BTreeMap::new(),
            });
            entry.rows += rows;
            entry
                .splits
                .insert(split.name().to_string(), SplitCounts { rows, shards });
        }
        let manifest = Manifest {
            generator: GENERATOR.to_string(),
            engine_version: env!("CARGO_PKG_VERSION").to_string(),
            name: self.spec.name.clone(),
            seed: self.spec.seed,
            config: self.spec.config.clone(),
            total_rows,
            configs,
        };
        let card_path = self.staging.join("README.md");
        std::fs::write(
            &card_path,
            card::render(&self.spec, &manifest, &self.descriptions),
        )
        .map_err(io_err(&card_path))?;
        let manifest_path = self.staging.join("manifest.json");
        let mut json = serde_json::to_string_pretty(&manifest).expect("manifest serialises");
        json.push('\n');
        std::fs::write(&manifest_path, json).map_err(io_err(&manifest_path))?;
        self.swap_in()?;
        self.finished = true;
        Ok(manifest)
    }

    /// Replaces the output directory by the staging directory. The old
    /// dataset is first renamed aside, so at no point does the output path
    /// hold a mix of old and new files.
    fn swap_in(&self) -> Result<(), DatasetError> {
        let out = &self.out_dir;
        let mut old = None;
        if out.exists() {
            let aside = sibling(out, "old");
            if aside.exists() {
                std::fs::remove_dir_all(&aside).map_err(io_err(&aside))?;
            }
            std::fs::rename(out, &aside).map_err(io_err(out))?;
            old = Some(aside);
        }
        std::fs::rename(&self.staging, out).map_err(io_err(out))?;
        if let Some(aside) = old {
            std::fs::remove_dir_all(&aside).map_err(io_err(&aside))?;
        }
        Ok(())
    }
}

impl Drop for DatasetWriter {
    fn drop(&mut self) {
        if !self.finished {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
