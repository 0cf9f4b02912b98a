//! The one generation loop (DESIGN.md §10): every task family's cells ×
//! candidate indices → parallel batches (rayon, one persistent worker
//! context per thread) → results walked in index order → per-cell
//! deduplication → one id scheme → records over a bounded crossbeam channel
//! to one writer thread → one run summary. Generators are told when the
//! loop enters and leaves a group's cells ([`Generator::enter_group`]), so
//! they hold one group's inputs at a time.
//!
//! Determinism: a candidate's outcome is a pure function of (seed, cell,
//! index) ([`crate::tasks::family`]'s contract); the loop walks each cell's
//! results in index order and decides every stop (count reached, budget,
//! patience) in that order, so batch sizes and thread counts never change a
//! byte. Deduplication is per unit: a cell, or all levels of a (config,
//! group) for generators that ask for it ([`Generator::dedup_across_levels`]).
//! `--shard i/N` keeps the units whose ordinal is `i - 1` modulo N: shards
//! share no unit, so the N shards' rows together are exactly the unsharded
//! run's.
//!
//! Robustness: a panic in `build` is caught per candidate (the worker
//! context is made afresh) and, like a certificate the checker refused,
//! counted and listed in `rejects/rejects.jsonl`; the run writes its dataset
//! and exits [`super::EXIT_DEFECT`], or stops at once with no dataset under
//! `strict`. `SATURATE_FAULT=panic:<n>` (tests) makes candidate `n` of the
//! run panic, counting `count` candidates per cell in cell order.

use super::heap;
use super::present::Presenter;
use super::{Progress, RunError};
use crate::audit::{AuditSettings, Collector};
use crate::dataset::{DatasetError, DatasetSpec, DatasetWriter, Provenance, Record};
use crate::prover::cost::{self, Costs};
use crate::tasks::family::{Attempt, Cell, Fill, Generator, Worker};
use crate::tasks::fault::{self, RejectEntry};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How the loop runs (the same flags on every generator command).
#[derive(Clone, Debug, Default)]
pub struct LoopSettings {
    /// Worker threads (0 = one per core); the output does not depend on it.
    pub jobs: usize,
    /// Run only shard `.0` (1-based) of `.1`: the cells whose ordinal is
    /// `.0 - 1` modulo `.1`.
    pub shard: Option<(u64, u64)>,
    /// Stop at the first bug (certificate failure, generator panic) with
    /// no dataset.
    pub strict: bool,
    /// Fail the run, with no dataset, when a cell comes up short.
    pub require_full: bool,
    /// Show a progress bar or log lines.
    pub progress: bool,
    /// How the shortcut audit written into the card judges cells.
    pub audit: AuditSettings,
    /// Presentation, splits and file format (`[dataset]`).
    pub dataset: crate::config::DatasetOptions,
}

/// Checks a `--shard i/N` value.
pub fn check_shard(shard: Option<(u64, u64)>) -> Result<(), RunError> {
    match shard {
        Some((i, n)) if n == 0 || i == 0 || i > n => Err(RunError::Input(format!(
            "--shard {i}/{n}: expected i/N with 1 <= i <= N"
        ))),
        _ => Ok(()),
    }
}

/// Counts of one cell. Serialised into `summary.json`: only what the same
/// config and seed reproduce byte for byte.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CellSummary {
    /// Rows asked for.
    pub requested: u64,
    /// Rows written.
    pub written: u64,
    /// `requested - written`.
    pub shortfall: u64,
    /// Candidate indices walked.
    pub candidates: u64,
    /// Rows per label class.
    pub labels: BTreeMap<String, u64>,
    /// Rejected attempts by reason (each redrawn or given up).
    pub rejects: BTreeMap<String, u64>,
    /// Candidates that gave no instance.
    pub gave_up: u64,
    /// Instances skipped as duplicates of an earlier one in the cell.
    pub duplicates: u64,
    /// Instances skipped because the cell already holds the most rows one
    /// answer may have ([`Generator::max_per_group`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub repeats: u64,
    /// Refused certificates (bugs).
    pub certificate_failures: u64,
    /// Caught generator panics (bugs).
    pub generator_panics: u64,
    /// Means of the family's numeric features over the written rows that
    /// have them.
    pub stats: BTreeMap<String, f64>,
    /// Means of the rows' difficulty features (`Built::difficulty`, in each
    /// row's metadata as `difficulty`) over the written rows that have them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub difficulty: BTreeMap<String, f64>,
    /// Worker seconds spent on the cell (timing: not in `summary.json`).
    #[serde(skip)]
    pub seconds: f64,
    /// Worker CPU seconds spent on the cell (timing).
    #[serde(skip)]
    pub cpu_seconds: f64,
    /// Of those, the prover's (CPU seconds; timing).
    #[serde(skip)]
    pub cost: crate::prover::cost::Costs,
    /// The process's largest resident size (MiB) from the end of the cell
    /// before to the end of this one, entering its group included
    /// ([`heap::RssSampler`]; measurement, 0 where unknown).
    #[serde(skip)]
    pub peak_rss_mib: u64,
    #[serde(skip)]
    sums: BTreeMap<&'static str, (f64, u64)>,
    #[serde(skip)]
    difficulty_sums: BTreeMap<&'static str, (f64, u64)>,
}

/// What a run did.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RunSummary {
    /// Rows written.
    pub total_rows: u64,
    /// Rows asked for.
    pub requested_rows: u64,
    /// Rows missing over all cells.
    pub shortfall: u64,
    /// Duplicates skipped over all cells.
    pub duplicates: u64,
    /// Repeated answers skipped over all cells.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub repeats: u64,
    /// Refused certificates over all cells (bugs).
    pub certificate_failures: u64,
    /// Generator panics over all cells (bugs).
    pub generator_panics: u64,
    /// Per cell, keyed `config group Llevel`.
    pub cells: BTreeMap<String, CellSummary>,
    /// Wall-clock seconds of generation (timing).
    #[serde(skip)]
    pub generation_seconds: f64,
    /// Seconds the writer thread spent encoding and writing (timing).
    #[serde(skip)]
    pub writing_seconds: f64,
    /// The bugs, in cell and index order (for `rejects/`).
    #[serde(skip)]
    pub bugs: Vec<RejectEntry>,
    /// Cells the shortcut audit fails (`config Llevel`, and `config Llevel
    /// exploit NAME` for the exploit suite; the report is in the card and
    /// `audit.json`).
    pub audit_failures: Vec<String>,
    /// The audit's table for the terminal.
    #[serde(skip)]
    pub audit_text: String,
}

impl RunSummary {
    /// Sets the totals from the cells.
    pub fn sum_cells(&mut self) {
        let cells = self.cells.values();
        self.total_rows = cells.clone().map(|c| c.written).sum();
        self.requested_rows = cells.clone().map(|c| c.requested).sum();
        self.shortfall = cells.clone().map(|c| c.shortfall).sum();
        self.duplicates = cells.clone().map(|c| c.duplicates).sum();
        self.repeats = cells.clone().map(|c| c.repeats).sum();
        self.certificate_failures = cells.clone().map(|c| c.certificate_failures).sum();
        self.generator_panics = cells.map(|c| c.generator_panics).sum();
    }

    /// Bugs found: refused certificates plus generator panics.
    pub fn bugs_found(&self) -> u64 {
        self.certificate_failures + self.generator_panics
    }

    /// Where the run's time went, per cell (`--cost-json`): rows,
    /// candidates, worker wall and CPU seconds and the prover's share of
    /// the CPU seconds
    /// (saturation, model search, checking, and the seconds of calls that
    /// ended undecided) and the peak resident size while it ran, plus
    /// generation wall-clock and writer seconds. Measurements: never part of
    /// a dataset.
    pub fn cost_json(&self) -> serde_json::Value {
        let cells: serde_json::Map<String, serde_json::Value> = self
            .cells
            .iter()
            .map(|(k, c)| {
                (
                    k.clone(),
                    serde_json::json!({
                        "rows": c.written,
                        "requested": c.requested,
                        "candidates": c.candidates,
                        "seconds": c.seconds,
                        "cpu_seconds": c.cpu_seconds,
                        "saturation": c.cost.saturation,
                        "models": c.cost.models,
                        "checking": c.cost.checking,
                        "undecided": c.cost.undecided,
                        "prover_calls": c.cost.calls,
                        "prover_unknowns": c.cost.unknowns,
                        "peak_rss_mib": c.peak_rss_mib,
                    }),
                )
            })
            .collect();
        serde_json::json!({
            "cells": cells,
            "generation_seconds": self.generation_seconds,
            "writing_seconds": self.writing_seconds,
        })
    }

    /// The card's yields section: requested and written rows per cell and
    /// the shortfall, so a short cell is never silent.
    pub fn yields_markdown(&self) -> String {
        let mut s = String::from(
            "Rows requested and written per cell (config, group, level); a cell comes up short when its \
             generator cannot certify enough distinct instances within its attempts.\n\n\
             | cell | requested | written | labels |\n|---|---:|---:|---|\n",
        );
        for (key, c) in &self.cells {
            let labels: Vec<String> = c.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            s.push_str(&format!(
                "| {key} | {} | {} | {} |\n",
                c.requested,
                c.written,
                labels.join(" ")
            ));
        }
        if self.repeats > 0 {
            s.push_str(&format!(
                "\n{} certified instances were skipped as repeats: their answer was already that of as many rows of their cell as one answer may have (premise selection: `max_answer_share`), or one of its clauses was already in the answer of more of the cell's rows than it was a distractor in, by the lead allowed (`max_answer_lead`), so no answer and no clause dominates a cell.\n",
                self.repeats
            ));
        }
        if self.shortfall > 0 {
            let short = self.cells.values().filter(|c| c.shortfall > 0).count();
            s.push_str(&format!(
                "\nShortfall: {} of {} rows missing in {short} cell(s) (`--require-full` turns a shortfall into a failed run).\n",
                self.shortfall, self.requested_rows
            ));
        } else {
            s.push_str(&format!(
                "\nEvery cell is full ({} rows).\n",
                self.total_rows
            ));
        }
        s
    }

    /// The card's difficulty section: per config, one line per level with
    /// the mean of each difficulty feature over the level's rows (every
    /// group of the config pooled, weighted by rows). `None` when no row
    /// carries difficulty features.
    pub fn difficulty_markdown(&self) -> Option<String> {
        // config -> level -> feature -> (sum, rows)
        type Levels = BTreeMap<u32, BTreeMap<String, (f64, u64)>>;
        let mut by_config: BTreeMap<String, Levels> = BTreeMap::new();
        for (key, c) in &self.cells {
            if c.difficulty.is_empty() || c.written == 0 {
                continue;
            }
            let (config, level) = cell_config_level(key);
            let features = by_config
                .entry(config.to_string())
                .or_default()
                .entry(level)
                .or_default();
            for (name, mean) in &c.difficulty {
                let e = features.entry(name.clone()).or_default();
                e.0 += mean * c.written as f64;
                e.1 += c.written;
            }
        }
        if by_config.is_empty() {
            return None;
        }
        let mut s = String::from(
            "Means of the measured difficulty features of each row (`metadata.difficulty`) per config and level: how hardness grows \
             with the level. Prover effort is in work units (given clauses, SAT conflicts), never seconds.\n",
        );
        for (config, levels) in &by_config {
            let names: std::collections::BTreeSet<&String> =
                levels.values().flat_map(|f| f.keys()).collect();
            s.push_str(&format!("\n**{config}**\n\n| level | rows |"));
            for n in &names {
                s.push_str(&format!(" {n} |"));
            }
            s.push_str("\n|---:|---:|");
            for _ in &names {
                s.push_str("---:|");
            }
            s.push('\n');
            for (level, features) in levels {
                let rows = features.values().map(|v| v.1).max().unwrap_or(0);
                s.push_str(&format!("| {level} | {rows} |"));
                for n in &names {
                    match features.get(*n) {
                        Some(&(sum, k)) if k > 0 => {
                            s.push_str(&format!(" {:.2} |", sum / k as f64))
                        }
                        _ => s.push_str(" - |"),
                    }
                }
                s.push('\n');
            }
        }
        Some(s)
    }

    /// The deterministic `summary.json` bytes.
    pub fn to_json_bytes(&self) -> Vec<u8> {
        let mut json = serde_json::to_vec_pretty(self).expect("summary serialises");
        json.push(b'\n');
        json
    }

    /// The end-of-run table for stderr: one line per cell, the rejection
    /// reasons, the shortfall, throughput and where the time went.
    pub fn render(&self) -> String {
        let mut s = format!(
            "{:<44} {:>9} {:<28} {:>5} {:>7} {:>8}\n",
            "cell", "written", "labels", "dups", "gave-up", "inst/s"
        );
        for (key, c) in &self.cells {
            let labels: Vec<String> = c.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let rate = if c.seconds > 0.0 {
                c.written as f64 / c.seconds
            } else {
                0.0
            };
            s.push_str(&format!(
                "{key:<44} {:>9} {:<28} {:>5} {:>7} {rate:>8.2}\n",
                format!("{}/{}", c.written, c.requested),
                labels.join(" "),
                c.duplicates,
                c.gave_up,
            ));
        }
        if self.cells.values().any(|c| !c.rejects.is_empty()) {
            s.push_str("rejected attempts by reason:\n");
            for (key, c) in &self.cells {
                if !c.rejects.is_empty() {
                    let r: Vec<String> =
                        c.rejects.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    s.push_str(&format!("  {key}: {}\n", r.join(" ")));
                }
            }
        }
        if self.shortfall > 0 {
            let short: Vec<String> = self
                .cells
                .iter()
                .filter(|(_, c)| c.shortfall > 0)
                .map(|(k, c)| format!("{k} ({}/{})", c.written, c.requested))
                .collect();
            s.push_str(&format!(
                "SHORTFALL: {} of {} rows missing in {} cell(s): {}\n",
                self.shortfall,
                self.requested_rows,
                short.len(),
                short.join(", ")
            ));
        }
        if self.bugs_found() > 0 {
            s.push_str(&format!(
                "BUGS FOUND: {} certificate(s) the checker refused, {} generator panic(s); each is in rejects/rejects.jsonl\n",
                self.certificate_failures, self.generator_panics
            ));
        }
        s.push_str(&self.audit_text);
        let total = self.generation_seconds;
        s.push_str(&format!(
            "total: {} rows ({} requested, {} duplicates and {} repeated answers skipped) in {:.1}s ({:.2} certified instances/s); writing {:.2}s (writer thread, overlapped)\n",
            self.total_rows,
            self.requested_rows,
            self.duplicates,
            self.repeats,
            total,
            if total > 0.0 { self.total_rows as f64 / total } else { 0.0 },
            self.writing_seconds
        ));
        s
    }
}

/// The dataset spec of a run of `generators` with the `[dataset]` options
/// `dataset`: the manifest's `config` holds each generator's settings under
/// its family's name, the options and the shard.
pub fn dataset_spec(
    name: &str,
    seed: u64,
    generators: &[&dyn Generator],
    shard: Option<(u64, u64)>,
    dataset: &crate::config::DatasetOptions,
    max_rows_per_shard: usize,
    provenance: Provenance,
) -> Result<DatasetSpec, RunError> {
    let families: serde_json::Map<String, serde_json::Value> = generators
        .iter()
        .map(|g| (g.family().name().to_string(), g.manifest()))
        .collect();
    let config = serde_json::json!({
        "families": families,
        "dataset": dataset,
        "shard": shard.map(|(i, n)| format!("{i}/{n}")),
    });
    super::present::spec(dataset, name, seed, config, max_rows_per_shard, provenance)
        .map_err(RunError::Input)
}

/// Creates the dataset at `out` and runs `generators` into it: the whole
/// run of a family that needs no stage before generation.
pub fn run_generators(
    out: &std::path::Path,
    name: &str,
    seed: u64,
    generators: &[&dyn Generator],
    settings: &LoopSettings,
    max_rows_per_shard: usize,
) -> Result<RunSummary, RunError> {
    check_shard(settings.shard)?;
    let spec = dataset_spec(
        name,
        seed,
        generators,
        settings.shard,
        &settings.dataset,
        max_rows_per_shard,
        Provenance::Original,
    )?;
    let writer = DatasetWriter::create(out, spec).map_err(dataset_error)?;
    generate(writer, generators, settings)
}

/// A dataset error as a run error ([`RunError::exit_code`] decides who
/// must act).
pub fn dataset_error(e: DatasetError) -> RunError {
    RunError::Dataset(e)
}

/// One cell of the run with its position.
struct Planned<'g> {
    generator: usize,
    gen_ref: &'g dyn Generator,
    cell: Cell,
    /// Position of the cell's first candidate in the unsharded run,
    /// counting `count` candidates per cell (fault injection).
    first_ordinal: u64,
    /// The deduplication unit: the cell, or its (config, group) when the
    /// generator deduplicates across levels. Units are what shards split.
    unit: u64,
}

/// The cells of `generators` in output order with their units, the shard
/// keeping the units whose ordinal is `i - 1` modulo N; and the number of
/// units of the whole run.
fn plan<'g>(
    generators: &[&'g dyn Generator],
    shard: Option<(u64, u64)>,
) -> (Vec<Planned<'g>>, u64) {
    let mut planned = Vec::new();
    let mut ordinal = 0u64;
    let mut unit = 0u64;
    let mut last_unit: Option<(usize, &'static str, String, Option<u8>)> = None;
    for (g, gen_ref) in generators.iter().enumerate() {
        for cell in gen_ref.cells() {
            let first = ordinal;
            ordinal = ordinal.saturating_add(cell.count);
            let level = (!gen_ref.dedup_across_levels()).then_some(cell.level);
            let key = (g, cell.config, cell.group.clone(), level);
            if last_unit.as_ref().is_some_and(|k| *k != key) {
                unit += 1;
            }
            last_unit = Some(key);
            if shard.is_none_or(|(i, n)| unit % n == i - 1) {
                planned.push(Planned {
                    generator: g,
                    gen_ref: *gen_ref,
                    cell,
                    first_ordinal: first,
                    unit,
                });
            }
        }
    }
    let units = if last_unit.is_some() && ordinal > 0 {
        unit + 1
    } else {
        0
    };
    (planned, units)
}

/// How many units (the pieces `--shard i/N` deals out) a run of
/// `generators` has: `N` may be at most this.
pub fn unit_count(generators: &[&dyn Generator]) -> u64 {
    plan(generators, None).1
}

/// The per-thread worker contexts of one generator.
struct Workers(Vec<Mutex<Option<Worker>>>);

/// Runs every cell of `generators` into `writer` and finishes the dataset
/// (shards, card, manifest, `summary.json`, `rejects/`). The writer must
/// have been created by the caller (before any expensive stage, so that a
/// refused output folder costs nothing).
pub fn generate(
    mut writer: DatasetWriter,
    generators: &[&dyn Generator],
    settings: &LoopSettings,
) -> Result<RunSummary, RunError> {
    check_shard(settings.shard)?;
    let presenter = Presenter::from_options(&settings.dataset).map_err(RunError::Input)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs)
        .build()
        .map_err(|e| RunError::Runtime(format!("thread pool: {e}")))?;
    let (planned, units) = plan(generators, settings.shard);
    if let Some((i, n)) = settings.shard
        && planned.is_empty()
        && units > 0
    {
        return Err(RunError::Input(format!(
            "--shard {i}/{n}: this run has only {units} unit(s) (cells, or a config's levels together), so shard {i} of {n} holds none; use at most {units} shards"
        )));
    }
    let cards: Vec<String> = generators
        .iter()
        .map(|g| g.card())
        .filter(|c| !c.is_empty())
        .collect();
    if !cards.is_empty() {
        writer.set_description(cards.join("\n\n"));
    }
    // Card paragraphs for the configs this run writes, in first-cell order.
    let mut described = BTreeSet::new();
    for p in &planned {
        if described.insert(p.cell.config) {
            let family = p.gen_ref.family();
            if let Some(info) = family
                .configs()
                .into_iter()
                .find(|c| c.name == p.cell.config)
            {
                writer.describe_config(info.name, info.description);
            }
        }
    }
    let total: u64 = planned
        .iter()
        .map(|p| p.cell.count)
        .fold(0u64, u64::saturating_add);
    let progress = Progress::new("tasks", total, settings.progress);
    let threads = pool.current_num_threads();
    let workers: Vec<Workers> = generators
        .iter()
        .map(|_| Workers((0..threads.max(1)).map(|_| Mutex::new(None)).collect()))
        .collect();
    let (tx, rx) = crossbeam_channel::bounded::<(&'static str, Record, String)>(256);
    let writer_thread = std::thread::spawn(move || -> Result<_, DatasetError> {
        let mut busy = Duration::ZERO;
        for (config, record, group) in rx {
            let t = Instant::now();
            writer.push(config, record, &group)?;
            busy += t.elapsed();
        }
        Ok((writer, busy))
    });
    let started = Instant::now();
    let mut summary = RunSummary::default();
    let mut done = 0u64;
    let mut stop: Option<RunError> = None;
    let chunk = (threads * 8).max(8) as u64;
    // Keys already written in this unit, as 128-bit digests: a run's
    // memory must not grow with the text of every key it has written (a
    // first-order pair's key is some 200 bytes; at 10^6 rows the strings
    // alone were hundreds of MB). A digest collision would skip one
    // candidate as a duplicate, with odds near 2^-100 per run.
    let mut seen: HashSet<[u8; 16]> = HashSet::new();
    let mut audit = Collector::new();
    let mut seen_unit = None;
    // The (generator, group) whose inputs are loaded: entered before its
    // first cell, left after its last (generators release them then).
    let mut entered: Option<(usize, &str)> = None;
    // Freed prover and graph memory goes back to the system between batches
    // (see `heap`): the resident size follows the live heap, not the run's
    // length.
    let mut trimmer = heap::Trimmer::default();
    // Which cell the run's memory peak belongs to (`--cost-json`).
    let rss = heap::RssSampler::start();
    'cells: for p in &planned {
        let cell = &p.cell;
        if seen_unit != Some(p.unit) {
            seen.clear();
            seen_unit = Some(p.unit);
        }
        if entered != Some((p.generator, cell.group.as_str())) {
            if let Some((g, group)) = entered.take() {
                generators[g].leave_group(group);
                // A worker's state (a prover's verdict cache) serves one
                // group's problems; a fresh worker is made on first use.
                for w in &workers[g].0 {
                    *w.lock().unwrap_or_else(|e| e.into_inner()) = None;
                }
                trimmer.now();
            }
            if let Err(e) = p.gen_ref.enter_group(&cell.group) {
                stop = Some(RunError::Runtime(format!(
                    "{} {}: {e}; no dataset written",
                    cell.config, cell.group
                )));
                break 'cells;
            }
            entered = Some((p.generator, cell.group.as_str()));
        }
        let gen_ref = p.gen_ref;
        let mut cs = CellSummary {
            requested: cell.count,
            ..CellSummary::default()
        };
        let (budget, patience) = match cell.fill {
            Fill::Slots => (cell.count, None),
            Fill::UntilFull { budget, patience } => (budget, patience),
        };
        let mut misses = 0u64;
        let mut next = 0u64;
        // Rows written per answer group in this cell (digests, as `seen`).
        let group_cap = gen_ref.max_per_group(cell);
        let mut groups: HashMap<[u8; 16], u64> = HashMap::new();
        // Per balanced item: rows of this cell with it in the answer, and
        // with it outside ([`Generator::balanced_items`]).
        let mut tallies: HashMap<String, (u64, u64)> = HashMap::new();
        'walk: while cs.written < cell.count && next < budget && patience.is_none_or(|k| misses < k)
        {
            let want = match cell.fill {
                Fill::Slots => chunk,
                Fill::UntilFull { .. } => (cell.count - cs.written).max(chunk),
            };
            let end = next.saturating_add(want).min(budget);
            let ws = &workers[p.generator];
            let results: Vec<(Attempt, f64, Costs, f64)> = pool.install(|| {
                (next..end)
                    .into_par_iter()
                    .map(|index| {
                        let t = Instant::now();
                        let (c0, cpu) = (cost::current(), cost::now());
                        let slot = rayon::current_thread_index().unwrap_or(0) % ws.0.len();
                        let mut guard = ws.0[slot].lock().unwrap_or_else(|e| e.into_inner());
                        let worker = guard.get_or_insert_with(|| gen_ref.new_worker());
                        let caught = fault::catch(|| {
                            fault::maybe_panic(p.first_ordinal.saturating_add(index));
                            gen_ref.build(cell, index, worker)
                        });
                        let attempt = caught.unwrap_or_else(|panic| {
                            // The context may be half-updated: start afresh.
                            *guard = None;
                            Attempt {
                                built: None,
                                rejects: vec!["generator_panic"],
                                bugs: vec![RejectEntry::from_panic(cell.id(index), panic)],
                            }
                        });
                        (
                            attempt,
                            t.elapsed().as_secs_f64(),
                            cost::current().since(c0),
                            cost::secs(cpu),
                        )
                    })
                    .collect()
            });
            for (k, (attempt, secs, spent, cpu)) in results.into_iter().enumerate() {
                if cs.written == cell.count || patience.is_some_and(|k| misses >= k) {
                    break 'walk;
                }
                let index = next + k as u64;
                cs.candidates += 1;
                cs.seconds += secs;
                cs.cpu_seconds += cpu;
                cs.cost.add(spent);
                for r in attempt.rejects {
                    *cs.rejects.entry(r.to_string()).or_default() += 1;
                }
                for b in attempt.bugs {
                    match b.kind {
                        "generator_panic" => cs.generator_panics += 1,
                        _ => cs.certificate_failures += 1,
                    }
                    tracing::error!("BUG: {} at {}: {}", b.kind, b.slot, b.reason);
                    if settings.strict && stop.is_none() {
                        stop = Some(RunError::Defect(format!(
                            "--strict: {} at {}: {}{}; no dataset written",
                            b.kind,
                            b.slot,
                            b.reason,
                            b.problem_tptp
                                .as_ref()
                                .map_or(String::new(), |p| format!("\nproblem:\n{p}"))
                        )));
                    }
                    summary.bugs.push(b);
                }
                if stop.is_some() {
                    break 'cells;
                }
                done += 1;
                progress.tick(done.min(total));
                let Some(built) = attempt.built else {
                    cs.gave_up += 1;
                    misses += 1;
                    continue;
                };
                if !seen.insert(key_digest(&built.key)) {
                    cs.duplicates += 1;
                    misses += 1;
                    continue;
                }
                let group = match (&built.group, group_cap) {
                    (Some(group), Some(cap)) => {
                        let d = key_digest(group);
                        if groups.get(&d).is_some_and(|&n| n >= cap) {
                            cs.repeats += 1;
                            misses += 1;
                            continue;
                        }
                        Some(d)
                    }
                    _ => None,
                };
                let balance = gen_ref.balanced_items(cell, &built);
                if let Some((lead, items)) = &balance {
                    let over = |(text, answer): &(String, bool)| {
                        let (a, o) = tallies.get(text).copied().unwrap_or((0, 0));
                        *answer && a + 1 > o + lead
                    };
                    if items.iter().any(over) {
                        cs.repeats += 1;
                        misses += 1;
                        continue;
                    }
                }
                if let Some(d) = group {
                    *groups.entry(d).or_insert(0u64) += 1;
                }
                for (text, answer) in balance.map(|b| b.1).unwrap_or_default() {
                    let e = tallies.entry(text).or_insert((0, 0));
                    if answer {
                        e.0 += 1;
                    } else {
                        e.1 += 1;
                    }
                }
                misses = 0;
                *cs.labels.entry(built.label.clone()).or_default() += 1;
                for (name, v) in &built.stats {
                    let e = cs.sums.entry(name).or_default();
                    e.0 += v;
                    e.1 += 1;
                }
                for (name, v) in &built.difficulty {
                    let e = cs.difficulty_sums.entry(name).or_default();
                    e.0 += v;
                    e.1 += 1;
                }
                cs.written += 1;
                let metadata = match built.metadata_with_difficulty() {
                    Ok(m) => m,
                    Err(e) => {
                        stop = Some(RunError::Defect(format!(
                            "{} row {index}: {e}; no dataset written",
                            cell.key()
                        )));
                        break 'cells;
                    }
                };
                let mut record = built.into_record(cell, index);
                record.metadata = metadata;
                // The row's group (its theorem or problem), for evaluators
                // that keep one row per group.
                let group = crate::tasks::family::group_id(gen_ref.family(), &record);
                match crate::tasks::family::metadata_with_group(&record.metadata, &group) {
                    Ok(m) => record.metadata = m,
                    Err(e) => {
                        stop = Some(RunError::Defect(format!(
                            "{} row {index}: {e}; no dataset written",
                            cell.key()
                        )));
                        break 'cells;
                    }
                }
                if let Err(e) = audit.add_family(&record, gen_ref.family()) {
                    stop = Some(RunError::Defect(format!(
                        "the shortcut audit cannot read a generated row: {e}; no dataset written"
                    )));
                    break 'cells;
                }
                presenter.present(&mut record);
                let group = presenter.group(&record, Some(gen_ref.family()));
                if tx.send((cell.config, record, group)).is_err() {
                    // The writer thread failed; its error is reported below.
                    break 'cells;
                }
            }
            next = end;
            trimmer.maybe();
        }
        cs.shortfall = cell.count - cs.written;
        cs.peak_rss_mib = rss.take().unwrap_or(0) / 1024;
        cs.stats = means(std::mem::take(&mut cs.sums));
        cs.difficulty = means(std::mem::take(&mut cs.difficulty_sums));
        summary.cells.insert(cell.key(), cs);
    }
    if let Some((g, group)) = entered {
        generators[g].leave_group(group);
    }
    drop(tx);
    progress.finish("done");
    summary.generation_seconds = started.elapsed().as_secs_f64();
    let (mut writer, mut busy) = writer_thread
        .join()
        .map_err(|_| RunError::Runtime("the writer thread panicked".into()))?
        .map_err(dataset_error)?;
    if let Some(e) = stop {
        // Dropping the unfinished writer removes its staging folder.
        drop(writer);
        return Err(e);
    }
    summary.sum_cells();
    if settings.require_full && summary.shortfall > 0 {
        drop(writer);
        return Err(RunError::Runtime(format!(
            "--require-full: {} of {} rows missing; no dataset written\n{}",
            summary.shortfall,
            summary.requested_rows,
            summary.render()
        )));
    }
    let t = Instant::now();
    let report = audit.report(&settings.audit);
    // Sorted by slot, so the merge of a sharded run's rejects is the same
    // file.
    summary
        .bugs
        .sort_by(|a, b| crate::dataset::natural_cmp(&a.slot, &b.slot));
    let rejects = (!summary.bugs.is_empty()).then(|| fault::rejects_jsonl(&summary.bugs));
    write_run_files(&mut writer, &mut summary, &report, rejects)?;
    let manifest = writer.finish().map_err(dataset_error)?;
    debug_assert_eq!(manifest.total_rows, summary.total_rows);
    busy += t.elapsed();
    summary.writing_seconds = busy.as_secs_f64();
    Ok(summary)
}

/// Writes what a run adds beside its rows, the same for a run and for a
/// merge of its shards: the audit's verdicts into `summary`, the yields
/// and audit sections of the card, `audit.json`, `rejects/rejects.jsonl`
/// (when there are bugs) and `summary.json`.
pub(crate) fn write_run_files(
    writer: &mut DatasetWriter,
    summary: &mut RunSummary,
    report: &crate::audit::AuditReport,
    rejects: Option<Vec<u8>>,
) -> Result<(), RunError> {
    summary.audit_failures = report.failing();
    summary.audit_text = report.text();
    writer.add_card_section("Yields", &summary.yields_markdown());
    if let Some(table) = summary.difficulty_markdown() {
        writer.add_card_section("Difficulty by level", &table);
    }
    writer.add_card_section("Shortcut audit", &report.markdown());
    let mut audit_json = serde_json::to_vec_pretty(report).expect("report serialises");
    audit_json.push(b'\n');
    writer
        .add_file("audit.json", &audit_json)
        .map_err(dataset_error)?;
    if let Some(bytes) = rejects {
        writer
            .add_file("rejects/rejects.jsonl", &bytes)
            .map_err(dataset_error)?;
    }
    writer
        .add_file("summary.json", &summary.to_json_bytes())
        .map_err(dataset_error)
}

/// The config and level of a cell key (`config group Llevel`,
/// [`crate::tasks::family::Cell::key`]).
fn cell_config_level(key: &str) -> (&str, u32) {
    let config = key.split(' ').next().unwrap_or(key);
    let level = key
        .rsplit(' ')
        .next()
        .and_then(|l| l.strip_prefix('L'))
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    (config, level)
}

/// Per feature, the mean of its sums (rounded by [`round6`]).
fn means(sums: BTreeMap<&'static str, (f64, u64)>) -> BTreeMap<String, f64> {
    sums.into_iter()
        .map(|(k, (sum, n))| (k.to_string(), round6(sum / n.max(1) as f64)))
        .collect()
}

/// Rounds a mean to 6 decimals, so summaries print stable short numbers.
fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The first 128 bits of the SHA-256 of a candidate's dedup key.
fn key_digest(key: &str) -> [u8; 16] {
    use sha2::Digest;
    let d = sha2::Sha256::digest(key.as_bytes());
    let mut out = [0u8; 16];
    out.copy_from_slice(&d[..16]);
    out
}

/// Serde helper: counters that are zero are left out of `summary.json`.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn difficulty_table_pools_groups_by_config_and_level() {
        let mut run = RunSummary::default();
        assert!(run.difficulty_markdown().is_none());
        let cell = |written: u64, depth: f64| CellSummary {
            written,
            difficulty: [("proof_depth".to_string(), depth)].into(),
            ..CellSummary::default()
        };
        run.cells.insert("entailment SET L1".into(), cell(1, 1.0));
        run.cells.insert("entailment GEO L1".into(), cell(3, 3.0));
        run.cells.insert("entailment SET L12".into(), cell(2, 12.0));
        let t = run.difficulty_markdown().unwrap();
        // (1 * 1 + 3 * 3) / 4 = 2.5 at level 1; level 12 after level 1.
        assert!(t.contains("| 1 | 4 | 2.50 |"), "{t}");
        assert!(t.contains("| 12 | 2 | 12.00 |"), "{t}");
        assert!(t.find("| 1 | 4").unwrap() < t.find("| 12 | 2").unwrap());
        assert_eq!(cell_config_level("a b c L7"), ("a", 7));
    }
}
