//! Reading a dataset back (for `score` and `verify`), trusting nothing: the
//! folder must match its `manifest.json` exactly (every listed shard present
//! with its row count and the fingerprint of its decoded rows, or its
//! SHA-256 when the manifest predates fingerprints; no unlisted shard; the
//! nine string columns of saturate's schema; each row's `task` equal to the
//! config that lists its shard; ids present and unique), only regular files
//! are opened (no FIFOs, devices or symbolic links, so nothing hangs and no
//! link loop is followed), and sizes are bounded before anything is
//! allocated. Any codec the Parquet format names as Snappy, LZ4, gzip or
//! zstd is read, so a shard re-saved by another tool still loads.
//!
//! [`read_dataset_checked`] reports shards whose rows do not match the
//! manifest (count, fingerprint) as [`ShardMismatch`]es beside the rows, for
//! `verify` to list as failures; [`read_dataset`] refuses them.

use super::manifest::{COLUMNS, Manifest, RowFingerprint, ShardInfo, messages_json};
use arrow_array::{Array, Int64Array, ListArray, RecordBatch, StringArray, StructArray};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Why a dataset folder was refused: the message names the file (and what
/// is wrong with it). Callers treat it as bad input (exit 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReadError(pub String);

/// One dataset row, as read back.
#[derive(Clone, Debug)]
pub struct Row {
    /// Instance id.
    pub id: String,
    /// Task (config) name.
    pub task: String,
    /// Level, if any.
    pub level: Option<u32>,
    /// Domain, if any.
    pub domain: Option<String>,
    /// Source, if any.
    pub source: Option<String>,
    /// The prompt shown to the model.
    pub prompt: String,
    /// Gold answer.
    pub answer: String,
    /// The gold answer in the dataset's answer format.
    pub completion: String,
    /// The chat turns as stored: (role, content).
    pub messages: Vec<(String, String)>,
    /// The readable derivation, if the run wrote traces.
    pub trace: Option<String>,
    /// Metadata JSON text.
    pub metadata: String,
    /// Certificate JSON text.
    pub certificate: String,
    /// Shard file it came from.
    pub file: PathBuf,
}

impl Row {
    /// The row as the record the writer wrote.
    pub fn to_record(&self) -> crate::dataset::Record {
        crate::dataset::Record {
            id: self.id.clone(),
            task: self.task.clone(),
            domain: self.domain.clone(),
            source: self.source.clone(),
            level: self.level,
            prompt: self.prompt.clone(),
            answer: self.answer.clone(),
            completion: self.completion.clone(),
            trace: self.trace.clone(),
            metadata: self.metadata.clone(),
            certificate: self.certificate.clone(),
        }
    }

    /// A row read from `file` with the stored `messages` turns.
    fn from_record(r: crate::dataset::Record, messages: Vec<(String, String)>, file: &Path) -> Row {
        Row {
            id: r.id,
            task: r.task,
            level: r.level,
            domain: r.domain,
            source: r.source,
            prompt: r.prompt,
            answer: r.answer,
            completion: r.completion,
            messages,
            trace: r.trace,
            metadata: r.metadata,
            certificate: r.certificate,
            file: file.to_path_buf(),
        }
    }
}

/// Reads a dataset's `manifest.json` (checked as `read_dataset` does).
pub fn read_manifest_of(dir: &Path) -> Result<Manifest, ReadError> {
    read_manifest(&dir.join("manifest.json"))
}

/// A shard whose rows do not match its manifest entry (row count, row
/// fingerprint, or file SHA-256 for manifests without fingerprints).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardMismatch {
    /// The shard.
    pub file: PathBuf,
    /// What differs.
    pub reason: String,
}

/// A dataset as read back by [`read_dataset_checked`].
#[derive(Clone, Debug, Default)]
pub struct DatasetRead {
    /// Every row read (those of mismatched shards included).
    pub rows: Vec<Row>,
    /// Shards whose rows do not match the manifest.
    pub mismatches: Vec<ShardMismatch>,
}

/// Largest `manifest.json` read.
const MAX_MANIFEST_BYTES: u64 = 64 << 20;
/// Largest uncompressed column chunk of a shard: a bigger one (a huge string
/// or a lying footer) is refused before it is decoded.
pub const MAX_COLUMN_CHUNK_BYTES: i64 = 512 << 20;
/// Rows decoded at a time.
const BATCH_ROWS: usize = 256;
/// Deepest folder nesting searched for stray shards.
const MAX_DEPTH: usize = 8;

/// Reads every row of a dataset folder (all configs and splits) after
/// checking the folder against its manifest; any mismatch is an input
/// error naming the file.
pub fn read_dataset(dir: &Path) -> Result<Vec<Row>, ReadError> {
    let read = read_dataset_checked(dir)?;
    match read.mismatches.first() {
        Some(m) => Err(ReadError(format!("{}: {}", m.file.display(), m.reason))),
        None => Ok(read.rows),
    }
}

/// Reads every row of a dataset folder like [`read_dataset`], but returns
/// shards whose rows differ from the manifest (row count, fingerprint) as
/// mismatches beside the rows instead of refusing the dataset; anything
/// else that does not match (missing or unlisted shards, schema, ids) is
/// still an error.
pub fn read_dataset_checked(dir: &Path) -> Result<DatasetRead, ReadError> {
    let input = |m: String| ReadError(format!("{}: {m}", dir.display()));
    if !dir.is_dir() {
        return Err(input("not a folder; give the dataset folder".into()));
    }
    let manifest_path = dir.join("manifest.json");
    let manifest = read_manifest(&manifest_path)?;
    let ext = manifest.format.extension();
    // Every listed shard, by its path relative to `dir`.
    let mut listed: BTreeMap<String, (String, ShardInfo)> = BTreeMap::new();
    let mut total = 0u64;
    for (config, counts) in &manifest.configs {
        let mut config_rows = 0u64;
        for (split, s) in &counts.splits {
            let mut split_rows = 0u64;
            for shard in &s.shards {
                let rel = Path::new(&shard.file);
                let safe = rel.components().count() >= 2
                    && rel.components().all(|c| matches!(c, Component::Normal(_)))
                    && rel.starts_with(config)
                    && rel.extension().is_some_and(|e| e == ext);
                if !safe {
                    return Err(bad_manifest(
                        &manifest_path,
                        format!(
                            "shard path {:?} of config `{config}` is not <config>/<name>.{ext}",
                            excerpt(&shard.file)
                        ),
                    ));
                }
                if listed
                    .insert(shard.file.clone(), (config.clone(), shard.clone()))
                    .is_some()
                {
                    return Err(bad_manifest(
                        &manifest_path,
                        format!("shard {:?} is listed twice", excerpt(&shard.file)),
                    ));
                }
                split_rows = split_rows.saturating_add(shard.rows);
            }
            if split_rows != s.rows {
                return Err(bad_manifest(
                    &manifest_path,
                    format!(
                        "config `{config}` split `{split}`: {} rows listed, shards sum to {split_rows}",
                        s.rows
                    ),
                ));
            }
            config_rows = config_rows.saturating_add(split_rows);
        }
        if config_rows != counts.rows {
            return Err(bad_manifest(
                &manifest_path,
                format!(
                    "config `{config}`: {} rows listed, splits sum to {config_rows}",
                    counts.rows
                ),
            ));
        }
        total = total.saturating_add(config_rows);
    }
    if total != manifest.total_rows {
        return Err(bad_manifest(
            &manifest_path,
            format!(
                "total_rows is {}, configs sum to {total}",
                manifest.total_rows
            ),
        ));
    }
    // Every shard file present (`.parquet`, `.jsonl`) must be listed (and be
    // a regular file).
    let mut present = BTreeSet::new();
    find_shards(dir, dir, 0, &mut present)?;
    if let Some(extra) = present.iter().find(|p| !listed.contains_key(*p)) {
        return Err(ReadError(format!(
            "{}: shard not listed in {} (a stray or foreign file; remove it or regenerate the dataset)",
            dir.join(extra).display(),
            manifest_path.display()
        )));
    }
    let mut read = DatasetRead::default();
    let mut ids = BTreeSet::new();
    for (rel, (config, info)) in &listed {
        let f = dir.join(rel);
        if !present.contains(rel) {
            return Err(ReadError(format!(
                "{}: shard listed in {} is missing",
                f.display(),
                manifest_path.display()
            )));
        }
        let start = read.rows.len();
        let content = read_shard(&f, config, &mut read.rows, manifest.format)?;
        let got = (read.rows.len() - start) as u64;
        let mut reasons = Vec::new();
        if got != info.rows {
            reasons.push(format!("{got} rows, the manifest lists {}", info.rows));
        }
        match &info.fingerprint {
            Some(fp) if !fp.eq_ignore_ascii_case(&content.fingerprint) => reasons.push(format!(
                "its rows differ from the manifest (row fingerprint {}, the manifest's {:?}): a row was changed, added or removed",
                content.fingerprint,
                excerpt(fp)
            )),
            Some(_) => {}
            None if !info.sha256.eq_ignore_ascii_case(&content.sha256) => reasons.push(format!(
                "SHA-256 {} differs from the manifest's {:?} (the shard was changed or replaced; the manifest has no row fingerprint to compare content with)",
                content.sha256,
                excerpt(&info.sha256)
            )),
            None => {}
        }
        if !reasons.is_empty() {
            read.mismatches.push(ShardMismatch {
                file: f.clone(),
                reason: reasons.join("; "),
            });
        }
        for r in &read.rows[start..] {
            if !ids.insert(r.id.clone()) {
                return Err(ReadError(format!(
                    "{}: id {:?} appears more than once in the dataset",
                    f.display(),
                    excerpt(&r.id)
                )));
            }
        }
    }
    Ok(read)
}

fn bad_manifest(path: &Path, m: String) -> ReadError {
    ReadError(format!(
        "{}: manifest does not describe the folder: {m}",
        path.display()
    ))
}

/// A bounded excerpt of untrusted text for error messages.
fn excerpt(s: &str) -> String {
    crate::tptp::excerpt(s, 80)
}

/// Opens a file only if it is a regular file (not following a symbolic
/// link), so a FIFO or device named like a shard cannot block or stream.
fn open_regular(path: &Path) -> Result<(std::fs::File, u64), ReadError> {
    let bad = |m: String| ReadError(format!("{}: {m}", path.display()));
    let meta = std::fs::symlink_metadata(path).map_err(|e| bad(e.to_string()))?;
    if !meta.file_type().is_file() {
        return Err(bad(
            "not a regular file (symbolic links, FIFOs and devices are not read)".into(),
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
    // The file may have been swapped between the two calls: check again on
    // the open handle.
    let meta = file.metadata().map_err(|e| bad(e.to_string()))?;
    if !meta.file_type().is_file() {
        return Err(bad("not a regular file".into()));
    }
    Ok((file, meta.len()))
}

fn read_manifest(path: &Path) -> Result<Manifest, ReadError> {
    let bad = |m: String| ReadError(format!("{}: {m}", path.display()));
    if !path.exists() && std::fs::symlink_metadata(path).is_err() {
        return Err(ReadError(format!(
            "{}: not a saturate dataset (no manifest.json); give the dataset folder",
            path.parent().unwrap_or(path).display()
        )));
    }
    let (file, len) = open_regular(path)?;
    if len > MAX_MANIFEST_BYTES {
        return Err(bad(format!(
            "{len} bytes; a manifest is at most {MAX_MANIFEST_BYTES}"
        )));
    }
    let mut text = String::new();
    file.take(MAX_MANIFEST_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| bad(e.to_string()))?;
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
        ReadError(format!(
            "{}:{}:{}: not a saturate manifest: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    if manifest.generator != "saturate" {
        return Err(bad(format!(
            "not a saturate manifest (generator {:?})",
            excerpt(&manifest.generator)
        )));
    }
    Ok(manifest)
}

/// Collects the shard files (`.parquet`, `.jsonl`) below `dir` (relative,
/// `/`-separated) without following symbolic links; a shard name that is
/// not a regular file is an error.
fn find_shards(
    root: &Path,
    dir: &Path,
    depth: usize,
    out: &mut BTreeSet<String>,
) -> Result<(), ReadError> {
    let bad = |p: &Path, m: String| ReadError(format!("{}: {m}", p.display()));
    if depth > MAX_DEPTH {
        return Err(bad(dir, format!("folders nested deeper than {MAX_DEPTH}")));
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .and_then(|r| r.collect::<Result<_, _>>())
        .map_err(|e| bad(dir, e.to_string()))?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        let t = e.file_type().map_err(|err| bad(&p, err.to_string()))?;
        if t.is_dir() {
            find_shards(root, &p, depth + 1, out)?;
        } else if p
            .extension()
            .is_some_and(|x| x == "parquet" || x == "jsonl")
        {
            if !t.is_file() {
                return Err(bad(
                    &p,
                    "not a regular file (symbolic links, FIFOs and devices are not read)".into(),
                ));
            }
            let rel = p.strip_prefix(root).unwrap_or(&p);
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.insert(rel.join("/"));
        }
    }
    Ok(())
}

/// What a shard's content hashes to: the file's SHA-256 and the
/// fingerprint of its decoded rows.
struct ShardContent {
    sha256: String,
    fingerprint: String,
}

/// Reads one shard after checking its schema and its column sizes; appends
/// its rows and returns its hashes (compared with the manifest by the
/// caller).
fn read_shard(
    f: &Path,
    config: &str,
    rows: &mut Vec<Row>,
    format: super::OutputFormat,
) -> Result<ShardContent, ReadError> {
    let bad = |m: String| ReadError(format!("{}: {m}", f.display()));
    let (mut file, _) = open_regular(f)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).map_err(|e| bad(e.to_string()))?;
    let sha256: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if format == super::OutputFormat::Jsonl {
        return read_jsonl_shard(f, config, rows, sha256);
    }
    let (file, _) = open_regular(f)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| bad(format!("unreadable Parquet: {e}")))?;
    let schema = builder.schema().clone();
    let names: Vec<&str> = schema.fields().iter().map(|x| x.name().as_str()).collect();
    let typed = schema.fields().iter().all(|x| match x.name().as_str() {
        "level" => x.data_type() == &DataType::Int64,
        "messages" => matches!(x.data_type(), DataType::List(item)
            if matches!(item.data_type(), DataType::Struct(fs)
                if fs.len() == 2
                    && fs.iter().all(|f| f.data_type() == &DataType::Utf8)
                    && fs[0].name() == "role"
                    && fs[1].name() == "content")),
        _ => x.data_type() == &DataType::Utf8,
    });
    if names.len() == 9 && names.iter().all(|n| COLUMNS.contains(n)) {
        return Err(bad(
            "a shard of an older saturate (nine string columns, no completion, messages or \
             trace): regenerate the dataset with this version"
                .into(),
        ));
    }
    if names != COLUMNS || !typed {
        return Err(bad(format!(
            "not a saturate shard: columns {:?}, expected {COLUMNS:?} (level an integer, \
             messages a list of {{role, content}}, the rest strings)",
            names
                .iter()
                .take(20)
                .map(|n| excerpt(n))
                .collect::<Vec<_>>()
        )));
    }
    for rg in builder.metadata().row_groups() {
        for c in rg.columns() {
            if c.uncompressed_size() > MAX_COLUMN_CHUNK_BYTES || c.uncompressed_size() < 0 {
                return Err(bad(format!(
                    "column chunk of {} bytes (at most {MAX_COLUMN_CHUNK_BYTES} are read)",
                    c.uncompressed_size()
                )));
            }
        }
    }
    let reader = builder
        .with_batch_size(BATCH_ROWS)
        .build()
        .map_err(|e| bad(format!("unreadable Parquet: {e}")))?;
    let mut fingerprint = RowFingerprint::new();
    for batch in reader {
        let batch = batch.map_err(|e| bad(format!("unreadable Parquet: {e}")))?;
        push_rows(&batch, f, config, rows, &mut fingerprint).map_err(bad)?;
    }
    Ok(ShardContent {
        sha256,
        fingerprint: fingerprint.finish(),
    })
}

fn push_rows(
    batch: &RecordBatch,
    f: &Path,
    config: &str,
    rows: &mut Vec<Row>,
    fingerprint: &mut RowFingerprint,
) -> Result<(), String> {
    let col = |name: &str| -> Result<&StringArray, String> {
        batch
            .column_by_name(name)
            .and_then(|c| c.as_any().downcast_ref::<StringArray>())
            .ok_or_else(|| format!("no string column `{name}`"))
    };
    let (id, task) = (col("id")?, col("task")?);
    let level = batch
        .column_by_name("level")
        .and_then(|c| c.as_any().downcast_ref::<Int64Array>())
        .ok_or("no integer column `level`")?;
    let messages = batch
        .column_by_name("messages")
        .and_then(|c| c.as_any().downcast_ref::<ListArray>())
        .ok_or("no list column `messages`")?;
    let (domain, source, prompt) = (col("domain")?, col("source")?, col("prompt")?);
    let (answer, completion, trace) = (col("answer")?, col("completion")?, col("trace")?);
    let (metadata, cert) = (col("metadata")?, col("certificate")?);
    let get = |a: &StringArray, i: usize| (!a.is_null(i)).then(|| a.value(i).to_string());
    for i in 0..batch.num_rows() {
        let turns: Vec<(String, String)> = if messages.is_null(i) {
            Vec::new()
        } else {
            let list = messages.value(i);
            let turns = list
                .as_any()
                .downcast_ref::<StructArray>()
                .ok_or("`messages` items are not structs")?;
            let field = |k: usize| -> Result<&StringArray, String> {
                turns
                    .column(k)
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .ok_or_else(|| "`messages` fields are not strings".to_string())
            };
            let (role, content) = (field(0)?, field(1)?);
            (0..turns.len())
                .map(|t| {
                    (
                        get(role, t).unwrap_or_default(),
                        get(content, t).unwrap_or_default(),
                    )
                })
                .collect()
        };
        let level_value = if level.is_null(i) {
            None
        } else {
            let l = level.value(i);
            Some(
                u32::try_from(l)
                    .map_err(|_| format!("row {}: level {l} out of range", rows.len() + 1))?,
            )
        };
        let level_text = level_value.map(|l| l.to_string());
        let messages_text = (!messages.is_null(i))
            .then(|| messages_json(turns.iter().map(|(r, c)| (r.as_str(), c.as_str()))));
        fn raw(a: &StringArray, i: usize) -> Option<&str> {
            (!a.is_null(i)).then(|| a.value(i))
        }
        fingerprint.add([
            raw(id, i),
            raw(task, i),
            raw(domain, i),
            raw(source, i),
            level_text.as_deref(),
            raw(prompt, i),
            raw(answer, i),
            raw(completion, i),
            messages_text.as_deref(),
            raw(trace, i),
            raw(metadata, i),
            raw(cert, i),
        ]);
        let record = crate::dataset::Record {
            id: get(id, i).unwrap_or_default(),
            task: get(task, i).unwrap_or_default(),
            domain: get(domain, i),
            source: get(source, i),
            level: level_value,
            prompt: get(prompt, i).unwrap_or_default(),
            answer: get(answer, i).unwrap_or_default(),
            completion: get(completion, i).unwrap_or_default(),
            trace: get(trace, i),
            metadata: get(metadata, i).unwrap_or_default(),
            certificate: get(cert, i).unwrap_or_default(),
        };
        for (name, a) in [("answer", answer), ("metadata", metadata)] {
            if a.is_null(i) {
                return Err(format!("row {:?}: null {name}", excerpt(&record.id)));
            }
        }
        check_row(&record, config, rows.len())?;
        rows.push(Row::from_record(record, turns, f));
    }
    Ok(())
}

/// The checks every row passes whatever its format: a non-empty id and the
/// task of the config whose shard holds it.
fn check_row(r: &crate::dataset::Record, config: &str, n: usize) -> Result<(), String> {
    if r.id.is_empty() {
        return Err(format!("row {}: null or empty id", n + 1));
    }
    if r.task != config {
        return Err(format!(
            "row {:?}: task {:?} in a shard of config `{config}`",
            excerpt(&r.id),
            excerpt(&r.task)
        ));
    }
    Ok(())
}

/// Largest JSON Lines shard read.
const MAX_JSONL_BYTES: u64 = 4 << 30;

/// Reads a JSON Lines shard: one row object per line; errors name the
/// line.
fn read_jsonl_shard(
    f: &Path,
    config: &str,
    rows: &mut Vec<Row>,
    sha256: String,
) -> Result<ShardContent, ReadError> {
    let bad = |m: String| ReadError(format!("{}: {m}", f.display()));
    let (file, len) = open_regular(f)?;
    if len > MAX_JSONL_BYTES {
        return Err(bad(format!(
            "{len} bytes; a JSON Lines shard is at most {MAX_JSONL_BYTES}"
        )));
    }
    let mut text = String::new();
    file.take(MAX_JSONL_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| bad(format!("not UTF-8 text: {e}")))?;
    let mut fingerprint = RowFingerprint::new();
    for (n, line) in text.lines().enumerate() {
        let at = |m: String| ReadError(format!("{}:{}: {m}", f.display(), n + 1));
        let (record, turns) = super::jsonl::decode(line).map_err(at)?;
        let messages = messages_json(turns.iter().map(|(r, c)| (r.as_str(), c.as_str())));
        fingerprint.add_with_messages(&record, Some(&messages));
        check_row(&record, config, rows.len()).map_err(at)?;
        rows.push(Row::from_record(record, turns, f));
    }
    Ok(ShardContent {
        sha256,
        fingerprint: fingerprint.finish(),
    })
}
