//! Reading a dataset back (for `score` and `verify`), trusting nothing: the
//! folder must match its `manifest.json` exactly (every listed shard present
//! with its SHA-256 and row count, no unlisted shard, the nine string
//! columns of saturate's schema, each row's `task` equal to the config that
//! lists its shard, ids present and unique), only regular files are opened
//! (no FIFOs, devices or symbolic links, so nothing hangs and no link loop
//! is followed), and sizes are bounded before anything is allocated.

use super::manifest::{COLUMNS, Manifest};
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
    let input = |m: String| ReadError(format!("{}: {m}", dir.display()));
    if !dir.is_dir() {
        return Err(input("not a folder; give the dataset folder".into()));
    }
    let manifest_path = dir.join("manifest.json");
    let manifest = read_manifest(&manifest_path)?;
    // Every listed shard, by its path relative to `dir`.
    let mut listed: BTreeMap<String, (String, u64, String)> = BTreeMap::new();
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
                    .insert(
                        shard.file.clone(),
                        (
                            config.clone(),
                            shard.rows,
                            shard.sha256.to_ascii_lowercase(),
                        ),
                    )
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
    let mut rows = Vec::new();
    let mut ids = BTreeSet::new();
    for (rel, (config, n, sha)) in &listed {
        let f = dir.join(rel);
        if !present.contains(rel) {
            return Err(ReadError(format!(
                "{}: shard listed in {} is missing",
                f.display(),
                manifest_path.display()
            )));
        }
        let start = rows.len();
        read_shard(&f, sha, config, &mut rows)?;
        let got = (rows.len() - start) as u64;
        if got != *n {
            return Err(ReadError(format!(
                "{}: {got} rows, the manifest lists {n}",
                f.display()
            )));
        }
        for r in &rows[start..] {
            if !ids.insert(r.id.clone()) {
                return Err(ReadError(format!(
                    "{}: id {:?} appears more than once in the dataset",
                    f.display(),
                    excerpt(&r.id)
                )));
            }
        }
    }
    Ok(rows)
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

/// Reads one shard after checking its SHA-256, its schema and its column
/// sizes; appends its rows.
fn read_shard(f: &Path, sha: &str, config: &str, rows: &mut Vec<Row>) -> Result<(), ReadError> {
    let bad = |m: String| ReadError(format!("{}: {m}", f.display()));
    let (mut file, _) = open_regular(f)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).map_err(|e| bad(e.to_string()))?;
    let digest: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if digest != sha {
        return Err(bad(format!(
            "SHA-256 {digest} differs from the manifest's {:?} (the shard was changed or replaced)",
            excerpt(sha)
        )));
    }
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
    for batch in reader {
        let batch = batch.map_err(|e| bad(format!("unreadable Parquet: {e}")))?;
        push_rows(&batch, f, config, rows).map_err(bad)?;
    }
    Ok(())
}

fn push_rows(
    batch: &RecordBatch,
    f: &Path,
    config: &str,
    rows: &mut Vec<Row>,
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
    for i in 0..batch.num_rows() {
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
