//! The `saturate eq` run: builds the EQ dataset (one config per task, levels
//! 1-4) through the dataset writer. Instances are built in parallel (rayon)
//! in batches of consecutive indices, collected in index order, deduplicated
//! and pushed in that order, so the output is byte-identical for any thread
//! count.
//!
//! A generator panic is caught per instance and counted as a rejection; it
//! is a bug, so it also goes to `rejects/rejects.jsonl` and the run exits
//! [`super::EXIT_DEFECT`] after writing the dataset (`strict`: at once, no
//! dataset). `summary.json` in the dataset holds the counts, no timings.

use super::fault::{self, RejectEntry};
use super::{Progress, RunError};
use crate::dataset::{DatasetError, DatasetSpec, DatasetWriter, Record};
use crate::tasks::eq::{self, GENERATOR_VERSION, GenParams, Task};
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// Settings of one EQ run.
#[derive(Clone, Debug)]
pub struct EqRun {
    /// Instances per task and level.
    pub count: usize,
    /// Run seed.
    pub seed: u64,
    /// Levels to generate (each 1-4).
    pub levels: Vec<u8>,
    /// Output directory.
    pub out: PathBuf,
    /// Worker threads (0 = one per core).
    pub jobs: usize,
    /// Show progress.
    pub progress: bool,
    /// Rows per Parquet shard.
    pub max_rows_per_shard: usize,
    /// End the run at the first generator panic, with no dataset.
    pub strict: bool,
}

/// Counts of one (task, level) cell of the run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct CellStats {
    /// Records written.
    pub written: usize,
    /// Records per label class.
    pub labels: BTreeMap<&'static str, usize>,
    /// Instances skipped as duplicates of an earlier one.
    pub duplicates: usize,
    /// Indices for which the generator found no instance of the wanted kind.
    pub gave_up: usize,
    /// Indices whose generator panicked (bugs).
    pub generator_panics: usize,
    /// Wall-clock seconds spent building (generation and certification);
    /// timing, so not in `summary.json`.
    #[serde(skip)]
    pub seconds: f64,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct EqSummary {
    /// Per (task config, level).
    pub cells: BTreeMap<(&'static str, u8), CellStats>,
    /// Wall-clock seconds of the whole run, writing included.
    pub seconds: f64,
    /// Rows in the dataset.
    pub total_rows: u64,
    /// Generator panics (bugs), in index order.
    pub bugs: Vec<RejectEntry>,
}

impl EqSummary {
    /// The deterministic part of the summary, as written to `summary.json`.
    pub fn to_json(&self) -> serde_json::Value {
        let cells: serde_json::Map<String, serde_json::Value> = self
            .cells
            .iter()
            .map(|((task, level), c)| {
                (
                    format!("{task} L{level}"),
                    serde_json::to_value(c).expect("cell serialises"),
                )
            })
            .collect();
        serde_json::json!({
            "total_rows": self.total_rows,
            "generator_panics": self.bugs.len(),
            "cells": cells,
        })
    }

    /// The end-of-run summary, one line per task and level plus totals.
    pub fn render(&self) -> String {
        let mut s = String::from(
            "task   level  written  labels                          dups  gave-up  inst/s\n",
        );
        let mut per_task: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
        for ((task, level), c) in &self.cells {
            let labels: Vec<String> = c.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let rate = if c.seconds > 0.0 {
                c.written as f64 / c.seconds
            } else {
                0.0
            };
            s.push_str(&format!(
                "{task:<6} {level:>5}  {:>7}  {:<30}  {:>4}  {:>7}  {:>6.0}\n",
                c.written,
                labels.join(" "),
                c.duplicates,
                c.gave_up,
                rate
            ));
            let e = per_task.entry(task).or_default();
            e.0 += c.written;
            e.1 += c.seconds;
        }
        for (task, (n, secs)) in per_task {
            let rate = if secs > 0.0 { n as f64 / secs } else { 0.0 };
            s.push_str(&format!(
                "{task}: {n} instances, {rate:.0} certified instances/s\n"
            ));
        }
        let dups: usize = self.cells.values().map(|c| c.duplicates).sum();
        s.push_str(&format!(
            "total: {} rows, {} duplicates skipped, {:.2}s, {:.0} instances/s overall\n",
            self.total_rows,
            dups,
            self.seconds,
            if self.seconds > 0.0 {
                self.total_rows as f64 / self.seconds
            } else {
                0.0
            }
        ));
        s
    }
}

fn dataset_error(e: DatasetError) -> RunError {
    match e {
        DatasetError::NotOurs { .. }
        | DatasetError::Empty { .. }
        | DatasetError::BadConfigName { .. }
        | DatasetError::BadShardSize { .. } => RunError::Input(e.to_string()),
        _ => RunError::Runtime(e.to_string()),
    }
}

/// Runs the EQ generation and writes the dataset.
pub fn run_eq(run: &EqRun) -> Result<EqSummary, RunError> {
    let start = Instant::now();
    if run.count == 0 {
        return Err(RunError::Input("--count must be at least 1".into()));
    }
    let mut levels = run.levels.clone();
    levels.sort();
    levels.dedup();
    let mut level_params = serde_json::Map::new();
    for &l in &levels {
        let p = GenParams::level(l)
            .ok_or_else(|| RunError::Input(format!("no EQ level {l} (levels are 1-4)")))?;
        level_params.insert(
            l.to_string(),
            serde_json::to_value(p).expect("serialisable"),
        );
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.jobs)
        .build()
        .map_err(|e| RunError::Runtime(format!("thread pool: {e}")))?;
    let spec = DatasetSpec {
        name: "saturate EQ".into(),
        description: "Equational-logic rewrite proofs after ProofGrid's EQ1 (proof checking, elided-equation recovery, gap filling), generated from a seed; every label certified by the step checker and every gold answer passed through its scorer.".into(),
        seed: run.seed,
        config: serde_json::json!({
            "generator": GENERATOR_VERSION,
            "countPerTaskAndLevel": run.count,
            "levels": levels,
            "levelParams": level_params,
            "gapFilling": "balanced equations, at most 2 redexes per step",
        }),
        max_rows_per_shard: run.max_rows_per_shard,
    };
    let mut writer = DatasetWriter::create(&run.out, spec).map_err(dataset_error)?;
    for task in Task::ALL {
        writer.describe_config(task.config(), task.description());
    }
    let mut summary = EqSummary::default();
    let total = (run.count as u64).saturating_mul((levels.len() * Task::ALL.len()) as u64);
    let progress = Progress::new("eq", total, run.progress);
    let mut done: u64 = 0;
    for task in Task::ALL {
        let mut seen: FxHashSet<String> = FxHashSet::default();
        for &level in &levels {
            let label = format!("{} L{level}", task.config());
            let mut cell = CellStats::default();
            let t0 = Instant::now();
            let mut next: u64 = 0;
            let limit = (run.count as u64).saturating_mul(20).saturating_add(100);
            while cell.written < run.count {
                if next >= limit {
                    return Err(RunError::Runtime(format!(
                        "{label}: only {} distinct instances in {next} attempts",
                        cell.written
                    )));
                }
                let want = (run.count - cell.written) as u64;
                let batch = want.max(8).min(limit - next);
                let results: Vec<_> = pool.install(|| {
                    (next..next + batch)
                        .into_par_iter()
                        .map(|i| {
                            fault::catch(|| {
                                fault::maybe_panic(i);
                                eq::build(task, level, run.seed, i)
                            })
                        })
                        .collect()
                });
                for (k, r) in results.into_iter().enumerate() {
                    if cell.written == run.count {
                        break;
                    }
                    let index = next + k as u64;
                    let r = match r {
                        Ok(r) => r,
                        Err(panic) => {
                            let slot = format!("{}-L{level}-{index:06}", task.config());
                            tracing::error!("BUG: generator panic at {slot}: {panic}");
                            if run.strict {
                                return Err(RunError::Defect(format!(
                                    "--strict: generator panic at {slot}: {panic}; no dataset written"
                                )));
                            }
                            cell.generator_panics += 1;
                            summary.bugs.push(RejectEntry::from_panic(slot, panic));
                            continue;
                        }
                    };
                    let built = match r {
                        Err(e) => return Err(RunError::Runtime(format!("{label} #{index}: {e}"))),
                        Ok(None) => {
                            cell.gave_up += 1;
                            continue;
                        }
                        Ok(Some(b)) => b,
                    };
                    if !seen.insert(built.key.clone()) {
                        cell.duplicates += 1;
                        continue;
                    }
                    *cell.labels.entry(built.label).or_default() += 1;
                    let record = Record {
                        id: format!("{}-L{level}-{index:06}", task.config()),
                        task: task.config().to_string(),
                        domain: None,
                        source: Some(format!("generator:{GENERATOR_VERSION}")),
                        level: Some(level.to_string()),
                        prompt: built.prompt,
                        answer: built.answer,
                        metadata: built.metadata,
                        certificate: built.certificate,
                    };
                    writer.push(task.config(), record).map_err(dataset_error)?;
                    cell.written += 1;
                    done += 1;
                    progress.tick(done);
                }
                next += batch;
            }
            cell.seconds = t0.elapsed().as_secs_f64();
            summary.cells.insert((task.config(), level), cell);
        }
    }
    progress.finish("done");
    summary.total_rows = summary.cells.values().map(|c| c.written as u64).sum();
    if !summary.bugs.is_empty() {
        writer
            .add_file(
                "rejects/rejects.jsonl",
                &fault::rejects_jsonl(&summary.bugs),
            )
            .map_err(dataset_error)?;
    }
    let mut json = serde_json::to_vec_pretty(&summary.to_json()).expect("summary serialises");
    json.push(b'\n');
    writer
        .add_file("summary.json", &json)
        .map_err(dataset_error)?;
    let manifest = writer.finish().map_err(dataset_error)?;
    summary.total_rows = manifest.total_rows;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}
