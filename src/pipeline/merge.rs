//! `saturate merge OUT DIR...`: joins the N shard datasets of one run
//! (`--shard i/N`) into the dataset the unsharded run writes, byte for byte.
//!
//! That works because every output of the writer depends only on the set
//! of rows (splits are assigned over the whole set, rows sorted by id,
//! DESIGN.md §9), and the run's other files are functions of per-cell
//! counts: the merged `summary.json` is the union of the shards' cells
//! (shards share no cell) with the totals summed, the shortcut audit is
//! judged again over all rows (each row read back as the family built it:
//! its prompt rendered again from the metadata, before the answer format's
//! instruction), and the bugs of `rejects/` are sorted by slot as the
//! generation loop sorts them.
//!
//! Refused, with the reason: datasets of another engine version, different
//! seeds or configurations (anything but the shard), a shard given twice,
//! a missing shard, or a folder that does not verify against its manifest.

use super::RunError;
use super::generate::RunSummary;
use super::present::Presenter;
use crate::audit::{AuditSettings, Collector};
use crate::dataset::{
    DatasetSpec, DatasetWriter, Manifest, Record, natural_cmp, read_dataset, read_manifest_of,
};
use crate::tasks::registry::Registry;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a merge wrote.
#[derive(Clone, Debug)]
pub struct MergeSummary {
    /// Rows written.
    pub rows: u64,
    /// Shards merged.
    pub shards: u64,
    /// The merged run's summary (cells, totals, audit failures).
    pub run: RunSummary,
}

/// One shard dataset read back.
struct Part {
    dir: PathBuf,
    manifest: Manifest,
    index: u64,
    of: u64,
}

/// The shard `i/N` a manifest's configuration records.
fn shard_of(dir: &Path, m: &Manifest) -> Result<(u64, u64), RunError> {
    let s = m.config.get("shard").and_then(|v| v.as_str()).ok_or_else(|| {
        RunError::Input(format!(
            "{}: not a shard (its manifest's config has no \"shard\": i/N); only the shards of one sharded run are merged",
            dir.display()
        ))
    })?;
    let parsed = s
        .split_once('/')
        .and_then(|(i, n)| Some((i.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)));
    match parsed {
        Some((i, n)) if i >= 1 && i <= n => Ok((i, n)),
        _ => Err(RunError::Input(format!(
            "{}: manifest shard {s:?} is not i/N",
            dir.display()
        ))),
    }
}

/// The manifest's configuration without its shard (what must agree), the
/// families' old count keys read as `count` (a shard written before the
/// key was shared merges with one written after).
fn config_without_shard(m: &Manifest) -> serde_json::Value {
    let mut c = m.config.clone();
    crate::tasks::generation::normalize_manifest_counts(&mut c);
    if let Some(o) = c.as_object_mut() {
        o.insert("shard".into(), serde_json::Value::Null);
    }
    c
}

/// Merges the shard datasets `dirs` into `out` (see the module's rules).
pub fn merge(out: &Path, dirs: &[PathBuf], registry: &Registry) -> Result<MergeSummary, RunError> {
    if dirs.is_empty() {
        return Err(RunError::Input(
            "merge: give the shard dataset folders to merge".into(),
        ));
    }
    // The output may not be an input shard, lie inside one or hold one:
    // writing it would replace or alter that shard.
    super::check_output_dir(out, dirs.iter().map(|d| ("the input shard", d.as_path())))?;
    let mut parts = Vec::new();
    for d in dirs {
        let manifest = read_manifest_of(d)?;
        let (index, of) = shard_of(d, &manifest)?;
        parts.push(Part {
            dir: d.clone(),
            manifest,
            index,
            of,
        });
    }
    parts.sort_by_key(|p| p.index);
    let first = &parts[0];
    let ours = env!("CARGO_PKG_VERSION");
    for p in &parts {
        let m = &p.manifest;
        let differs = |what: &str| {
            RunError::Input(format!(
                "{}: its {what} differs from {}'s; only the shards of one run are merged",
                p.dir.display(),
                first.dir.display()
            ))
        };
        if m.engine_version != ours {
            return Err(RunError::Input(format!(
                "{}: written by saturate {}, this is {ours}; merge with the version that wrote it",
                p.dir.display(),
                m.engine_version
            )));
        }
        if m.seed != first.manifest.seed {
            return Err(differs("seed"));
        }
        if config_without_shard(m) != config_without_shard(&first.manifest) {
            return Err(differs("configuration"));
        }
        if m.name != first.manifest.name || m.description != first.manifest.description {
            return Err(differs("name or description"));
        }
        if m.format != first.manifest.format
            || m.presentation != first.manifest.presentation
            || m.split_percent != first.manifest.split_percent
            || m.split_group != first.manifest.split_group
            || m.provenance != first.manifest.provenance
            || m.max_rows_per_shard != first.manifest.max_rows_per_shard
        {
            return Err(differs(
                "dataset settings (format, answer format, splits, shard size)",
            ));
        }
        if p.of != first.of {
            return Err(RunError::Input(format!(
                "{}: shard {}/{} of a run split {} ways, {} is of {} ways",
                p.dir.display(),
                p.index,
                p.of,
                p.of,
                first.dir.display(),
                first.of
            )));
        }
    }
    for w in parts.windows(2) {
        if w[0].index == w[1].index {
            return Err(RunError::Input(format!(
                "{} and {} are both shard {}/{}",
                w[0].dir.display(),
                w[1].dir.display(),
                w[0].index,
                w[0].of
            )));
        }
    }
    let n = first.of;
    let missing: Vec<String> = (1..=n)
        .filter(|i| !parts.iter().any(|p| p.index == *i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(RunError::Input(format!(
            "merge: shard(s) {} missing; the merge of all {n} shards is the unsharded run",
            missing.join(", ")
        )));
    }
    let m0 = &first.manifest;
    let presenter = Presenter::from_manifest(m0)
        .map_err(|e| RunError::Input(format!("{}: manifest.json: {e}", first.dir.display())))?;
    let mut spec = DatasetSpec::new(&m0.name, m0.seed, config_without_shard(m0));
    spec.description = m0.description.clone();
    spec.max_rows_per_shard = m0.max_rows_per_shard.max(1);
    spec.split_percent = m0.split_percent;
    spec.split_group = m0.split_group.clone();
    spec.presentation = m0.presentation.clone();
    spec.format = m0.format;
    spec.provenance = m0.provenance;
    // The output folder is checked before anything is read.
    let mut writer = DatasetWriter::create(out, spec).map_err(super::generate::dataset_error)?;
    let mut descriptions: BTreeMap<String, String> = BTreeMap::new();
    let mut summary = RunSummary::default();
    let mut audit = Collector::new();
    let mut bugs: Vec<(String, String)> = Vec::new();
    let mut rows_total = 0u64;
    let mut problems = super::dedup::ProblemTally::default();
    for p in &parts {
        for (config, text) in &p.manifest.config_descriptions {
            if let Some(other) = descriptions.insert(config.clone(), text.clone())
                && other != *text
            {
                return Err(RunError::Input(format!(
                    "{}: config `{config}` is described differently than in another shard",
                    p.dir.display()
                )));
            }
        }
        let part = read_part_summary(&p.dir)?;
        for (key, cell) in part.cells {
            if summary.cells.insert(key.clone(), cell).is_some() {
                return Err(RunError::Input(format!(
                    "{}: cell {key} is also in another shard",
                    p.dir.display()
                )));
            }
        }
        bugs.extend(read_rejects(&p.dir)?);
        for row in read_dataset(&p.dir)? {
            let family = registry.family_of(&row.task);
            let record = row.to_record();
            // The audit sees the row as the family built it.
            if let Some(f) = family {
                let mut built: Record = record.clone();
                if let Some(Ok(prompt)) = f.render_prompt(&record) {
                    built.prompt = prompt;
                }
                audit
                    .add_family(&built, f)
                    .map_err(|e| RunError::Input(format!("{}: {e}", p.dir.display())))?;
            }
            let group = presenter.group(&record, family);
            let config = record.task.clone();
            problems.add(&record.task, &record.prompt);
            writer
                .push(&config, record, &group)
                .map_err(super::generate::dataset_error)?;
            rows_total += 1;
        }
    }
    for (config, text) in &descriptions {
        writer.describe_config(config, text);
    }
    summary.sum_cells();
    if summary.total_rows != rows_total {
        return Err(RunError::Input(format!(
            "merge: the shards' summaries count {} rows, their folders hold {rows_total}",
            summary.total_rows
        )));
    }
    let report = audit.report(&AuditSettings::default());
    bugs.sort_by(|a, b| natural_cmp(&a.0, &b.0));
    let rejects = (!bugs.is_empty()).then(|| {
        let mut bytes = Vec::new();
        for (_, line) in &bugs {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        bytes
    });
    super::generate::write_run_files(&mut writer, &mut summary, &report, &problems, rejects)?;
    let manifest = writer.finish().map_err(super::generate::dataset_error)?;
    Ok(MergeSummary {
        rows: manifest.total_rows,
        shards: n,
        run: summary,
    })
}

/// A shard's `summary.json`.
fn read_part_summary(dir: &Path) -> Result<RunSummary, RunError> {
    let path = dir.join("summary.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| RunError::Input(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        RunError::Input(format!(
            "{}:{}:{}: not a saturate run summary: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })
}

/// A shard's `rejects/rejects.jsonl` lines with their slots.
fn read_rejects(dir: &Path) -> Result<Vec<(String, String)>, RunError> {
    let path = dir.join("rejects/rejects.jsonl");
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| RunError::Input(format!("{}: {e}", path.display())))?;
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let v: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| RunError::Input(format!("{}:{}: {e}", path.display(), i + 1)))?;
            let slot = v["slot"].as_str().unwrap_or_default().to_string();
            Ok((slot, line.to_string()))
        })
        .collect()
}
