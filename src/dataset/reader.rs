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

use super::manifest::{COLUMNS, Manifest, RowFingerprint, ShardInfo};
use arrow_array::{Array, RecordBatch, StringArray};
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
    pub level: Option<String>,
    /// Domain, if any.
    pub domain: Option<String>,
    /// Source, if any.
    pub source: Option<String>,
    /// The prompt shown to the model.
    pub prompt: String,
    /// Gold answer.
    pub answer: String,
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
            level: self.level.clone(),
            prompt: self.prompt.clone(),
            answer: self.answer.clone(),
            metadata: self.metadata.clone(),
            certificate: self.certificate.clone(),
        }
    }
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
                    && rel.extension().is_some_and(|e| e == "parquet");
                if !safe {
                    return Err(bad_manifest(
                        &manifest_path,
                        format!(
                            "shard path {:?} of config `{config}` is not <config>/<name>.parquet",
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
    // Every `.parquet` file present must be listed (and be a regular file).
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
        let content = read_shard(&f, config, &mut read.rows)?;
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

/// Collects the `.parquet` files below `dir` (relative, `/`-separated)
/// without following symbolic links; a `.parquet` name that is not a
/// regular file is an error.
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
        } else if p.extension().is_some_and(|x| x == "parquet") {
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
fn read_shard(f: &Path, config: &str, rows: &mut Vec<Row>) -> Result<ShardContent, ReadError> {
    let bad = |m: String| ReadError(format!("{}: {m}", f.display()));
    let (mut file, _) = open_regular(f)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).map_err(|e| bad(e.to_string()))?;
    let sha256: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let (file, _) = open_regular(f)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| bad(format!("unreadable Parquet: {e}")))?;
    let schema = builder.schema().clone();
    let names: Vec<&str> = schema.fields().iter().map(|x| x.name().as_str()).collect();
    let strings = schema
        .fields()
        .iter()
        .all(|x| x.data_type() == &DataType::Utf8);
    if names != COLUMNS || !strings {
        return Err(bad(format!(
            "not a saturate shard: columns {:?}, expected the nine string columns {COLUMNS:?}",
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
    let (id, task, level) = (col("id")?, col("task")?, col("level")?);
    let (domain, source, prompt) = (col("domain")?, col("source")?, col("prompt")?);
    let (answer, metadata, cert) = (col("answer")?, col("metadata")?, col("certificate")?);
    let get = |a: &StringArray, i: usize| (!a.is_null(i)).then(|| a.value(i).to_string());
    fn raw(a: &StringArray, i: usize) -> Option<&str> {
        (!a.is_null(i)).then(|| a.value(i))
    }
    for i in 0..batch.num_rows() {
        fingerprint.add(
            [
                id, task, domain, source, level, prompt, answer, metadata, cert,
            ]
            .map(|a| raw(a, i)),
        );
        let Some(row_id) = get(id, i).filter(|s| !s.is_empty()) else {
            return Err(format!("row {}: null or empty id", rows.len() + 1));
        };
        let row_task = get(task, i).unwrap_or_default();
        if row_task != config {
            return Err(format!(
                "row {:?}: task {:?} in a shard of config `{config}`",
                excerpt(&row_id),
                excerpt(&row_task)
            ));
        }
        for (name, a) in [("answer", answer), ("metadata", metadata)] {
            if a.is_null(i) {
                return Err(format!("row {:?}: null {name}", excerpt(&row_id)));
            }
        }
        rows.push(Row {
            id: row_id,
            task: row_task,
            level: get(level, i),
            domain: get(domain, i),
            source: get(source, i),
            prompt: get(prompt, i).unwrap_or_default(),
            answer: get(answer, i).unwrap_or_default(),
            metadata: get(metadata, i).unwrap_or_default(),
            certificate: get(cert, i).unwrap_or_default(),
            file: f.to_path_buf(),
        });
    }
    Ok(())
}
