//! The dataset writer: spills pushed records to a staging directory, then
//! at the end assigns stratified, grouped splits ([`super::splits`]), sorts
//! each (config, split) by id, writes zstd Parquet (or JSON Lines) shards,
//! the dataset card and the manifest, and swaps the staging directory in
//! place of the output directory.

use super::manifest::{
    COLUMNS, ConfigCounts, GENERATOR, Manifest, RowFingerprint, ShardInfo, SplitCounts, messages_of,
};
use super::splits::{SplitKey, assign};
use super::{DatasetError, DatasetSpec, OutputFormat, Record, Split, card, group_hash, jsonl};
use arrow_array::builder::{ListBuilder, StringBuilder, StructBuilder};
use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use sha2::{Digest, Sha256};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Row-group caps: whichever is reached first closes a row group.
const ROW_GROUP_ROWS: usize = 1024;
const ROW_GROUP_BYTES: usize = 64 * 1024 * 1024;
/// Records read back from the spill and encoded at a time.
const ENCODE_BATCH: usize = 256;
/// The spill file inside the staging directory (removed before the swap).
const SPILL: &str = ".records.spill";

/// Where one pushed record lives in the spill, with what the split
/// assignment and the sort need: the writer's only per-row memory (about
/// 100 bytes and the id), so a run's memory does not grow with the rows'
/// text.
struct Entry {
    config: u32,
    level: Option<u32>,
    group: u64,
    id: Box<str>,
    /// The answer when it is a class label (the card's label balance), as
    /// an index into [`DatasetWriter::labels`].
    label: Option<u32>,
    offset: u64,
    len: u64,
}

/// Writes one dataset directory. Create it, push records, then call
/// [`DatasetWriter::finish`]; dropping it unfinished deletes the staging
/// directory and leaves the output directory as it was.
pub struct DatasetWriter {
    out_dir: PathBuf,
    /// The marked staging folder beside the output (`<out>.tmp-<pid>-<k>-<tag>`).
    stage_root: PathBuf,
    /// Where the dataset is written: `dataset/` inside `stage_root`, so the
    /// marker never moves into the output.
    staging: PathBuf,
    spec: DatasetSpec,
    spill: BufWriter<std::fs::File>,
    spilled: u64,
    configs: Vec<String>,
    config_index: HashMap<String, u32>,
    entries: Vec<Entry>,
    /// The first 128 bits of the SHA-256 of every id pushed (duplicate
    /// ids are refused; digests keep the set small).
    ids: HashSet<[u8; 16]>,
    /// The class labels met, indexed by [`Entry::label`].
    labels: Vec<String>,
    descriptions: BTreeMap<String, String>,
    sections: Vec<(String, String)>,
    extra_files: Vec<String>,
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> DatasetError + '_ {
    move |source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    }
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

/// Removes the staging folders in `dir` named `<prefix>...tmp-`/`old-`
/// that ended runs left (see [`super::staging::remove_stale`]: only
/// folders holding a staging marker are ever removed). Returns the removed
/// paths.
pub fn remove_stale_temporaries(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    super::staging::remove_stale(dir, prefix)
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

/// The struct of one chat turn in `messages`.
fn message_fields() -> Fields {
    Fields::from(vec![
        Field::new("role", DataType::Utf8, true),
        Field::new("content", DataType::Utf8, true),
    ])
}

/// The Arrow schema of every shard: `level` Int64, `messages` a list of
/// `{role, content}` structs, every other column UTF-8; all nullable.
pub(crate) fn schema() -> Arc<Schema> {
    Arc::new(Schema::new(
        COLUMNS
            .iter()
            .map(|c| match *c {
                "level" => Field::new(*c, DataType::Int64, true),
                "messages" => Field::new(
                    *c,
                    DataType::List(Arc::new(Field::new(
                        "item",
                        DataType::Struct(message_fields()),
                        true,
                    ))),
                    true,
                ),
                _ => Field::new(*c, DataType::Utf8, true),
            })
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

/// The records as one Arrow batch of the shard schema; `system` is the
/// system turn of `messages`. Public so that tools and tests can write
/// shards with other Parquet settings (codecs, row groups).
pub fn record_batch(
    records: &[Record],
    system: &str,
) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let schema = schema();
    let col = |f: &dyn Fn(&Record) -> Option<&str>| -> ArrayRef {
        Arc::new(records.iter().map(f).collect::<StringArray>())
    };
    let mut messages = ListBuilder::new(StructBuilder::from_fields(
        message_fields(),
        records.len() * 3,
    ))
    .with_field(Arc::new(Field::new(
        "item",
        DataType::Struct(message_fields()),
        true,
    )));
    for r in records {
        let turns = messages.values();
        for (role, content) in messages_of(system, r) {
            turns
                .field_builder::<StringBuilder>(0)
                .expect("role column")
                .append_value(role);
            turns
                .field_builder::<StringBuilder>(1)
                .expect("content column")
                .append_value(content);
            turns.append(true);
        }
        messages.append(true);
    }
    let columns: Vec<ArrayRef> = vec![
        col(&|r| Some(r.id.as_str())),
        col(&|r| Some(r.task.as_str())),
        col(&|r| r.domain.as_deref()),
        col(&|r| r.source.as_deref()),
        Arc::new(
            records
                .iter()
                .map(|r| r.level.map(i64::from))
                .collect::<Int64Array>(),
        ),
        col(&|r| Some(r.prompt.as_str())),
        col(&|r| Some(r.answer.as_str())),
        col(&|r| Some(r.completion.as_str())),
        Arc::new(messages.finish()),
        col(&|r| r.trace.as_deref()),
        col(&|r| Some(r.metadata.as_str())),
        col(&|r| Some(r.certificate.as_str())),
    ];
    RecordBatch::try_new(schema, columns)
}

/// Encodes records as one Parquet file in memory (tests).
#[cfg(test)]
pub(crate) fn encode_shard(
    records: &[Record],
    system: &str,
) -> Result<Vec<u8>, parquet::errors::ParquetError> {
    let batch = record_batch(records, system)?;
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, batch.schema(), Some(properties()))?;
    w.write(&batch)?;
    w.close()?;
    Ok(out)
}

/// Orders ids with their digit runs compared as numbers, so `x-L2-00010`
/// follows `x-L2-00009` and `x-9` precedes `x-10`; equal-valued runs with
/// different zero padding fall back to byte order, so the order is total.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let run = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
                let (n, m) = (run(x), run(y));
                fn strip(s: &[u8]) -> &[u8] {
                    &s[s.iter().take_while(|&&c| c == b'0').count()..]
                }
                let (u, v) = (strip(&x[..n]), strip(&y[..m]));
                let by_value = u.len().cmp(&v.len()).then_with(|| u.cmp(v));
                if by_value != Ordering::Equal {
                    return by_value;
                }
                x = &x[n..];
                y = &y[m..];
            }
            (Some(p), Some(q)) => {
                if p != q {
                    return p.cmp(q);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

impl DatasetWriter {
    /// Starts a dataset in `out_dir`, staged in the sibling
    /// `<out_dir>.tmp-<pid>-<k>-<tag>`. Refuses an existing path that is not an empty
    /// directory or a complete saturate dataset (see [`DatasetError::NotOurs`]);
    /// a previous dataset is replaced only when [`DatasetWriter::finish`]
    /// succeeds. Removes the temporaries of dead earlier runs.
    pub fn create(out_dir: &Path, spec: DatasetSpec) -> Result<DatasetWriter, DatasetError> {
        if spec.max_rows_per_shard == 0 {
            return Err(DatasetError::BadShardSize {
                path: out_dir.to_path_buf(),
            });
        }
        if spec.split_percent.iter().sum::<u32>() != 100 || spec.split_percent[0] == 0 {
            return Err(DatasetError::BadSplit {
                path: out_dir.to_path_buf(),
                percent: spec.split_percent,
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
        let stage_root = super::staging::create(parent, &format!("{}.tmp-", base_name(out_dir)))
            .map_err(io_err(parent))?;
        let staging = stage_root.join("dataset");
        if let Err(e) = std::fs::create_dir(&staging) {
            let _ = super::staging::remove(&stage_root);
            return Err(io_err(&staging)(e));
        }
        let spill_path = staging.join(SPILL);
        let spill = std::fs::File::create(&spill_path).map_err(io_err(&spill_path))?;
        Ok(DatasetWriter {
            out_dir: out_dir.to_path_buf(),
            stage_root,
            staging,
            spec,
            spill: BufWriter::with_capacity(1 << 20, spill),
            spilled: 0,
            configs: Vec::new(),
            config_index: HashMap::new(),
            entries: Vec::new(),
            ids: HashSet::new(),
            labels: Vec::new(),
            descriptions: BTreeMap::new(),
            sections: Vec::new(),
            extra_files: Vec::new(),
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

    /// Adds a record to `config` (a subset name such as
    /// `pl1_proof_checking`). `group` is what must not cross splits (the
    /// theorem, the problem, the axiom file): every record of a group lands
    /// in one split. The order of pushes does not matter.
    pub fn push(&mut self, config: &str, record: Record, group: &str) -> Result<(), DatasetError> {
        if !valid_config_name(config) || config == "all" {
            return Err(DatasetError::BadConfigName {
                path: self.out_dir.clone(),
                name: config.to_string(),
            });
        }
        let digest = {
            let d = Sha256::digest(record.id.as_bytes());
            let mut out = [0u8; 16];
            out.copy_from_slice(&d[..16]);
            out
        };
        if record.id.is_empty() || !self.ids.insert(digest) {
            return Err(DatasetError::DuplicateId {
                path: self.out_dir.clone(),
                id: record.id,
            });
        }
        let config = match self.config_index.get(config) {
            Some(&i) => i,
            None => {
                let i = self.configs.len() as u32;
                self.configs.push(config.to_string());
                self.config_index.insert(config.to_string(), i);
                i
            }
        };
        let bytes = serde_json::to_vec(&record).expect("a record serialises");
        let spill_path = self.staging.join(SPILL);
        self.spill.write_all(&bytes).map_err(io_err(&spill_path))?;
        self.entries.push(Entry {
            config,
            level: record.level,
            group: group_hash(group),
            label: card::label_of(&record.answer).map(|l| {
                match self.labels.iter().position(|x| *x == l) {
                    Some(i) => i as u32,
                    None => {
                        self.labels.push(l);
                        (self.labels.len() - 1) as u32
                    }
                }
            }),
            id: record.id.into_boxed_str(),
            offset: self.spilled,
            len: bytes.len() as u64,
        });
        self.spilled += bytes.len() as u64;
        Ok(())
    }

    /// Assigns the splits, writes every shard (sorted by id), names them
    /// `<split>-NNNNN-of-NNNNN.<ext>`, writes `README.md` and
    /// `manifest.json`, and moves the finished dataset to the output
    /// directory (replacing a previous saturate dataset).
    ///
    /// A dataset without rows is refused ([`DatasetError::Empty`]) and
    /// nothing is written.
    pub fn finish(mut self) -> Result<Manifest, DatasetError> {
        if self.entries.is_empty() {
            return Err(DatasetError::Empty {
                path: self.out_dir.clone(),
            });
        }
        let spill_path = self.staging.join(SPILL);
        self.spill.flush().map_err(io_err(&spill_path))?;
        let keys: Vec<SplitKey<'_>> = self
            .entries
            .iter()
            .map(|e| SplitKey {
                config: &self.configs[e.config as usize],
                level: e.level,
                group: e.group,
            })
            .collect();
        let splits = assign(&keys, self.spec.split_percent);
        let mut streams: BTreeMap<(&str, Split), Vec<usize>> = BTreeMap::new();
        let mut stats = card::CardStats::default();
        for (i, (e, s)) in self.entries.iter().zip(&splits).enumerate() {
            let config = &self.configs[e.config as usize];
            streams.entry((config, *s)).or_default().push(i);
            let split = Split::ALL.iter().position(|x| x == s).expect("a split");
            stats
                .levels
                .entry(config.clone())
                .or_default()
                .entry(e.level)
                .or_default()[split] += 1;
            if let Some(label) = e.label.map(|i| &self.labels[i as usize]) {
                *stats
                    .labels
                    .entry(config.clone())
                    .or_default()
                    .entry(e.level)
                    .or_default()
                    .entry(label.clone())
                    .or_default() += 1;
            }
        }
        let mut spill = std::fs::File::open(&spill_path).map_err(io_err(&spill_path))?;
        let mut configs: BTreeMap<String, ConfigCounts> = BTreeMap::new();
        let mut total_rows = 0;
        let mut content = Sha256::new();
        content.update(b"saturate-content-v1");
        // One example per config for the card: the first row of its first
        // split (train when it has one).
        let mut examples: BTreeMap<String, Record> = BTreeMap::new();
        for ((config, split), mut rows) in streams {
            rows.sort_by(|&a, &b| natural_cmp(&self.entries[a].id, &self.entries[b].id));
            if !examples.contains_key(config) {
                if let Some(r) = self.read_back(&rows[..1], &mut spill, &spill_path)?.pop() {
                    examples.insert(config.to_string(), r);
                }
            }
            let per = self.spec.max_rows_per_shard;
            let n = rows.len().div_ceil(per);
            let dir = self.staging.join(config);
            std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
            let mut shards = Vec::with_capacity(n);
            for (i, chunk) in rows.chunks(per).enumerate() {
                let file = format!(
                    "{}-{:05}-of-{:05}.{}",
                    split.name(),
                    i,
                    n,
                    self.spec.format.extension()
                );
                let path = dir.join(&file);
                let info =
                    self.write_shard(&path, chunk, &mut spill, &spill_path, config, &file)?;
                content.update(info.fingerprint.as_deref().unwrap_or_default().as_bytes());
                shards.push(info);
            }
            let rows: u64 = shards.iter().map(|s| s.rows).sum();
            total_rows += rows;
            let entry = configs.entry(config.to_string()).or_insert(ConfigCounts {
                rows: 0,
                splits: BTreeMap::new(),
            });
            entry.rows += rows;
            entry
                .splits
                .insert(split.name().to_string(), SplitCounts { rows, shards });
        }
        drop(spill);
        std::fs::remove_file(&spill_path).map_err(io_err(&spill_path))?;
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
            format: self.spec.format,
            presentation: self.spec.presentation.clone(),
            split_percent: self.spec.split_percent,
            split_group: self.spec.split_group.clone(),
            provenance: self.spec.provenance,
            max_rows_per_shard: self.spec.max_rows_per_shard,
            description: self.spec.description.clone(),
            config_descriptions: self.descriptions.clone(),
            content_fingerprint: hex(&content.finalize()),
        };
        let card_path = self.staging.join("README.md");
        std::fs::write(
            &card_path,
            card::render(
                &self.spec,
                &manifest,
                &self.descriptions,
                &self.sections,
                &examples,
                &stats,
            ),
        )
        .map_err(io_err(&card_path))?;
        let manifest_path = self.staging.join("manifest.json");
        let mut json = serde_json::to_string_pretty(&manifest).expect("manifest serialises");
        json.push('\n');
        std::fs::write(&manifest_path, json).map_err(io_err(&manifest_path))?;
        self.swap_in()?;
        Ok(manifest)
    }

    /// Reads the records of `rows` (entry indices) back from the spill.
    fn read_back(
        &self,
        rows: &[usize],
        spill: &mut std::fs::File,
        spill_path: &Path,
    ) -> Result<Vec<Record>, DatasetError> {
        let mut out = Vec::with_capacity(rows.len());
        let mut buf = Vec::new();
        for &i in rows {
            let e = &self.entries[i];
            buf.resize(e.len as usize, 0);
            spill
                .seek(SeekFrom::Start(e.offset))
                .map_err(io_err(spill_path))?;
            spill.read_exact(&mut buf).map_err(io_err(spill_path))?;
            let r: Record = serde_json::from_slice(&buf).map_err(|err| DatasetError::Io {
                path: spill_path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidData, err),
            })?;
            out.push(r);
        }
        Ok(out)
    }

    /// Writes one shard of `rows` (entry indices, in order) at `path`.
    fn write_shard(
        &self,
        path: &Path,
        rows: &[usize],
        spill: &mut std::fs::File,
        spill_path: &Path,
        config: &str,
        file: &str,
    ) -> Result<ShardInfo, DatasetError> {
        let system = &self.spec.presentation.system_prompt;
        let parquet_err = |e: &dyn std::fmt::Display| DatasetError::Parquet {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let out = std::fs::File::create(path).map_err(io_err(path))?;
        let mut hashing = HashingWriter {
            inner: BufWriter::new(out),
            hash: Sha256::new(),
            bytes: 0,
        };
        let mut fingerprint = RowFingerprint::new();
        match self.spec.format {
            OutputFormat::Parquet => {
                let mut w = ArrowWriter::try_new(&mut hashing, schema(), Some(properties()))
                    .map_err(|e| parquet_err(&e))?;
                for chunk in rows.chunks(ENCODE_BATCH) {
                    let records = self.read_back(chunk, spill, spill_path)?;
                    for r in &records {
                        fingerprint.add_record(r, system);
                    }
                    let batch = record_batch(&records, system).map_err(|e| parquet_err(&e))?;
                    w.write(&batch).map_err(|e| parquet_err(&e))?;
                }
                w.close().map_err(|e| parquet_err(&e))?;
            }
            OutputFormat::Jsonl => {
                for chunk in rows.chunks(ENCODE_BATCH) {
                    for r in self.read_back(chunk, spill, spill_path)? {
                        fingerprint.add_record(&r, system);
                        let mut line = jsonl::encode(&r, system);
                        line.push('\n');
                        hashing.write_all(line.as_bytes()).map_err(io_err(path))?;
                    }
                }
            }
        }
        hashing.flush().map_err(io_err(path))?;
        Ok(ShardInfo {
            file: format!("{config}/{file}"),
            rows: rows.len() as u64,
            fingerprint: Some(fingerprint.finish()),
            bytes: hashing.bytes,
            sha256: hex(&hashing.hash.finalize()),
        })
    }

    /// Replaces the output directory by the staging directory. The old
    /// dataset is first moved into a marked `<out>.old-<pid>-<k>` folder, so
    /// at no point does the output path hold a mix of old and new files; if
    /// the new one cannot be moved in, the old one is moved back.
    fn swap_in(&self) -> Result<(), DatasetError> {
        let out = &self.out_dir;
        // Checked again: the folder may have changed since `create`.
        check_replaceable(out)?;
        let mut old = None;
        if out.exists() {
            let parent = self.stage_root.parent().unwrap_or(Path::new("."));
            let aside = super::staging::create(parent, &format!("{}.old-", base_name(out)))
                .map_err(io_err(parent))?;
            let inside = aside.join("dataset");
            if let Err(e) = std::fs::rename(out, &inside) {
                let _ = super::staging::remove(&aside);
                return Err(io_err(out)(e));
            }
            old = Some((aside, inside));
        }
        if let Err(e) = std::fs::rename(&self.staging, out) {
            if let Some((aside, inside)) = &old
                && std::fs::rename(inside, out).is_ok()
            {
                let _ = super::staging::remove(aside);
            }
            return Err(io_err(out)(e));
        }
        if let Some((aside, _)) = old {
            super::staging::remove(&aside).map_err(io_err(&aside))?;
        }
        Ok(())
    }
}

impl Drop for DatasetWriter {
    /// Removes the staging folder: the unfinished dataset, or after a
    /// successful swap only its marker.
    fn drop(&mut self) {
        let _ = super::staging::remove(&self.stage_root);
    }
}

/// A writer that hashes what passes through it (the shard's SHA-256).
struct HashingWriter<W: Write> {
    inner: W,
    hash: Sha256,
    bytes: u64,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
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
