//! The Parquet shard writer: buffers records per (config, split), writes
//! zstd-compressed shards into a staging directory, and at the end names
//! them, writes the dataset card and manifest, and swaps the staging
//! directory in place of the output directory.

use super::manifest::{COLUMNS, ConfigCounts, GENERATOR, Manifest, ShardInfo, SplitCounts};
use super::{DatasetError, DatasetSpec, Record, Split, card, split_of};
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Row-group caps: whichever is reached first closes a row group.
const ROW_GROUP_ROWS: usize = 4096;
const ROW_GROUP_BYTES: usize = 64 * 1024 * 1024;

/// A shard written under its temporary name.
struct PendingShard {
    tmp: PathBuf,
    rows: u64,
    sha256: String,
    fingerprint: String,
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
    sections: Vec<(String, String)>,
    extra_files: Vec<String>,
    finished: bool,
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> DatasetError + '_ {
    move |source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A sibling of `dir` named `<name>.<tag>-<pid>`: the PID says which run
/// owns it, so a later run can tell a dead run's leftovers from a live one.
fn sibling(dir: &Path, tag: &str) -> PathBuf {
    dir.with_file_name(format!("{}.{tag}-{}", base_name(dir), std::process::id()))
}

/// Why `dir` may not be replaced: `None` when it is a complete saturate
/// dataset (a manifest with our generator and `"complete": true`) holding
/// no file the manifest does not list, so replacing it deletes nothing of
/// the user's.
fn not_replaceable(dir: &Path) -> Option<String> {
    let manifest: Manifest = match std::fs::read_to_string(dir.join("manifest.json")) {
        Err(_) => return Some("no saturate manifest.json".into()),
        Ok(text) => match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(_) => return Some("manifest.json is not a saturate manifest".into()),
        },
    };
    if manifest.generator != GENERATOR || !manifest.complete {
        return Some("manifest.json does not mark a complete saturate dataset".into());
    }
    let mut known: std::collections::BTreeSet<String> =
        ["manifest.json", "README.md"].map(String::from).into();
    known.extend(manifest.extra_files.iter().cloned());
    for c in manifest.configs.values() {
        for s in c.splits.values() {
            known.extend(s.shards.iter().map(|x| x.file.clone()));
        }
    }
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((d, prefix)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            return Some(format!("cannot read {}", d.display()));
        };
        for e in entries {
            let Ok(e) = e else {
                return Some(format!("cannot read {}", d.display()));
            };
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
            if is_dir {
                stack.push((e.path(), format!("{name}/")));
            } else if !known.contains(&name) {
                return Some(format!("{name} is not listed in its manifest.json"));
            }
        }
    }
    None
}

/// Whether process `pid` is alive (Linux `/proc`); `true` when unknown, so
/// nothing of a possibly live run is removed.
fn alive(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes the entries of `dir` named `<prefix><tag>-<pid>` (tag `tmp` or
/// `old`) left by runs that died (process `pid` no longer alive, or this
/// process). Entries of live runs and anything else are left alone.
/// Returns the removed paths.
pub fn remove_stale_temporaries(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return removed;
    };
    let me = std::process::id();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(prefix) else {
            continue;
        };
        let Some(pid) = ["tmp-", "old-"]
            .iter()
            .find_map(|t| rest.strip_prefix(t))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != me && alive(pid) {
            continue;
        }
        let path = e.path();
        let gone = if e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        if gone.is_ok() {
            tracing::info!("removed {} left by an interrupted run", path.display());
            removed.push(path);
        }
    }
    removed
}

/// The file name of `dir` (or `dataset`), the stem of its temporaries.
fn base_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dataset".to_string())
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
    /// Starts a dataset in `out_dir`, staged in the sibling
    /// `<out_dir>.tmp-<pid>`. Refuses an existing path that is not an empty
    /// directory or a complete saturate dataset (see [`DatasetError::NotOurs`]);
    /// a previous dataset is replaced only when [`DatasetWriter::finish`]
    /// succeeds. Removes the temporaries of dead earlier runs.
    pub fn create(out_dir: &Path, spec: DatasetSpec) -> Result<DatasetWriter, DatasetError> {
        if spec.max_rows_per_shard == 0 {
            return Err(DatasetError::BadShardSize {
                path: out_dir.to_path_buf(),
            });
        }
        check_replaceable(out_dir)?;
        let parent = out_dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !out_dir.exists() {
            std::fs::create_dir_all(parent).map_err(io_err(parent))?;
        }
        remove_stale_temporaries(parent, &format!("{}.", base_name(out_dir)));
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
            sections: Vec::new(),
            extra_files: Vec::new(),
            finished: false,
        })
    }

    /// Replaces the card's description (set when it depends on work done
    /// after the output folder was checked).
    pub fn set_description(&mut self, description: String) {
        self.spec.description = description;
    }

    /// Writes an extra file of the dataset (e.g. `summary.json`,
    /// `rejects/rejects.jsonl`) into the staging folder; it is listed in the
    /// manifest and moved into place with the rest.
    pub fn add_file(&mut self, name: &str, bytes: &[u8]) -> Result<(), DatasetError> {
        let ok = !name.is_empty()
            && name.split('/').all(|part| {
                !part.is_empty()
                    && part != "."
                    && part != ".."
                    && !part.starts_with('.')
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
            })
            && !["manifest.json", "README.md"].contains(&name)
            && !self.extra_files.iter().any(|f| f == name);
        if !ok {
            return Err(DatasetError::BadConfigName {
                path: self.out_dir.clone(),
                name: name.to_string(),
            });
        }
        let path = self.staging.join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        }
        std::fs::write(&path, bytes).map_err(io_err(&path))?;
        self.extra_files.push(name.to_string());
        Ok(())
    }

    /// Appends a section (`## title`, then `body` in Markdown) to the end of
    /// the dataset card, after the config descriptions, in call order.
    pub fn add_card_section(&mut self, title: &str, body: &str) {
        self.sections.push((title.to_string(), body.to_string()));
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
            fingerprint: super::manifest::fingerprint_records(&stream.buffer),
        });
        stream.buffer.clear();
        Ok(())
    }

    /// Flushes every stream, names the shards `<split>-NNNNN-of-NNNNN.parquet`,
    /// writes `README.md` and `manifest.json`, and moves the finished dataset
    /// to the output directory (replacing a previous saturate dataset).
    ///
    /// A dataset without rows is refused ([`DatasetError::Empty`]) and
    /// nothing is written.
    pub fn finish(mut self) -> Result<Manifest, DatasetError> {
        if self
            .streams
            .values()
            .all(|s| s.buffer.is_empty() && s.shards.is_empty())
        {
            return Err(DatasetError::Empty {
                path: self.out_dir.clone(),
            });
        }
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
                    fingerprint: Some(s.fingerprint.clone()),
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
            extra_files: {
                let mut f = self.extra_files.clone();
                f.sort();
                f
            },
            complete: true,
        };
        let card_path = self.staging.join("README.md");
        std::fs::write(
            &card_path,
            card::render(&self.spec, &manifest, &self.descriptions, &self.sections),
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
        // Checked again: the folder may have changed since `create`.
        check_replaceable(out)?;
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

/// Refuses an output path that exists and is not an empty directory or a
/// complete saturate dataset; deletes nothing.
fn check_replaceable(out_dir: &Path) -> Result<(), DatasetError> {
    let Ok(meta) = std::fs::symlink_metadata(out_dir) else {
        return Ok(());
    };
    let reason = if !meta.is_dir() {
        Some("it is not a directory".to_string())
    } else if std::fs::read_dir(out_dir)
        .map_err(io_err(out_dir))?
        .next()
        .is_none()
    {
        None
    } else {
        not_replaceable(out_dir)
    };
    match reason {
        None => Ok(()),
        Some(reason) => Err(DatasetError::NotOurs {
            path: out_dir.to_path_buf(),
            reason,
        }),
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
