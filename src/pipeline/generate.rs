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
pub use super::summary::{CellSummary, RunSummary};
use super::{Progress, RunError};
use crate::audit::{AuditSettings, Collector};
use crate::dataset::{DatasetError, DatasetSpec, DatasetWriter, Provenance, Record};
use crate::prover::cost::{self, Costs};
use crate::tasks::family::{
    Attempt, BalanceRule, Built, Cell, Fill, Generator, SEEN_STRIDE, Seen, Worker, key_digest,
};
use crate::tasks::fault::{self, RejectEntry};
use rayon::prelude::*;
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
    /// Rows go to this sink, as they are made, instead of a dataset folder
    /// ([`stream`]); `None` for a run that writes a dataset.
    pub stream: Option<RowSink>,
}

/// Where a streamed run's rows go (the Python package's `create_dataset`):
/// each row as the JSON line `--format jsonl` writes for it, in the loop's
/// order (cells in run order, each cell's rows by index), with nothing
/// written to disk. A row is the one the same run writes to its dataset:
/// the same walk, deduplication, balance and presentation.
#[derive(Clone)]
pub struct RowSink {
    /// Run only the cells of this config (all when `None`); the cells kept
    /// stay in their units, so their rows are those of the whole run.
    pub config: Option<String>,
    /// Takes a row's config and JSON line; returning false ends the run
    /// (the reader has what it wants, or is gone).
    pub emit: std::sync::Arc<dyn Fn(&'static str, String) -> bool + Send + Sync>,
}

impl std::fmt::Debug for RowSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowSink")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
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
        .map_err(|e| RunError::Input(e.to_string()))
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
/// A row on offer to its cell: a fresh attempt (with its wall and CPU
/// seconds and its costs), or a built row held back for the lead of
/// [`Generator::balanced_items`] and offered again once the walk ends
/// short.
enum Offer {
    Fresh(Attempt, f64, Costs, f64),
    Again(Built),
}

struct Workers(Vec<Mutex<Option<Worker>>>);

/// Runs every cell of `generators` into `writer` and finishes the dataset
/// (shards, card, manifest, `summary.json`, `rejects/`). The writer must
/// have been created by the caller (before any expensive stage, so that a
/// refused output folder costs nothing). With [`LoopSettings::stream`] set,
/// the rows go to the sink instead and the writer is dropped unfinished
/// (its staging folder removed), as by [`stream`].
pub fn generate(
    writer: DatasetWriter,
    generators: &[&dyn Generator],
    settings: &LoopSettings,
) -> Result<RunSummary, RunError> {
    if settings.stream.is_some() {
        drop(writer);
        return run_loop(None, generators, settings);
    }
    run_loop(Some(writer), generators, settings)
}

/// Runs the cells of `generators` (those of the sink's config) into the
/// sink of `settings.stream`, writing nothing: the rows are those a run of
/// the same settings writes to its dataset, in the loop's order. The
/// summary counts what was walked until the run ended or the sink said
/// stop; bugs found (certificates refused, generator panics) are in it, as
/// in a written run. An error when `settings.stream` is `None`.
pub fn stream(
    generators: &[&dyn Generator],
    settings: &LoopSettings,
) -> Result<RunSummary, RunError> {
    if settings.stream.is_none() {
        return Err(RunError::Runtime(
            "stream: no row sink given (LoopSettings::stream)".into(),
        ));
    }
    run_loop(None, generators, settings)
}

/// The loop of [`generate`] (rows to `writer`) and [`stream`] (rows to the
/// sink; `writer` is `None`).
fn run_loop(
    writer: Option<DatasetWriter>,
    generators: &[&dyn Generator],
    settings: &LoopSettings,
) -> Result<RunSummary, RunError> {
    check_shard(settings.shard)?;
    let presenter =
        Presenter::from_options(&settings.dataset).map_err(|e| RunError::Input(e.to_string()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs)
        .build()
        .map_err(|e| RunError::Runtime(format!("thread pool: {e}")))?;
    let (mut planned, units) = plan(generators, settings.shard);
    let sink = settings.stream.as_ref();
    if let Some(only) = sink.and_then(|s| s.config.as_deref()) {
        planned.retain(|p| p.cell.config == only);
    }
    if let Some((i, n)) = settings.shard
        && planned.is_empty()
        && units > 0
    {
        return Err(RunError::Input(format!(
            "--shard {i}/{n}: this run has only {units} unit(s) (cells, or a config's levels together), so shard {i} of {n} holds none; use at most {units} shards"
        )));
    }
    // A streamed run has no writer: its rows go to the sink, and nothing
    // else is written.
    let mut writer = writer;
    let cards: Vec<String> = generators
        .iter()
        .map(|g| g.card())
        .filter(|c| !c.is_empty())
        .collect();
    if let Some(writer) = writer.as_mut()
        && !cards.is_empty()
    {
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
                && let Some(writer) = writer.as_mut()
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
    let writer_thread = writer.map(|mut writer| {
        std::thread::spawn(move || -> Result<_, DatasetError> {
            let mut busy = Duration::ZERO;
            for (config, record, group) in rx {
                let t = Instant::now();
                writer.push(config, record, &group)?;
                busy += t.elapsed();
            }
            Ok((writer, busy))
        })
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
    // The card's within-dataset figure (rows posing one problem).
    let mut problems = super::dedup::ProblemTally::default();
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
        // Rows held back because an item of their answer was past its
        // lead, in index order: offered again within the hard lead (a row
        // less balanced beats a row missing) at the first lenient slot.
        let mut held: Vec<(u64, Built)> = Vec::new();
        // A streamed cell's rows wait here until no held row with a smaller
        // index is pending, so the sink gets them in index (id) order, as
        // the dataset lists them.
        let mut reorder: BTreeMap<u64, String> = BTreeMap::new();
        // Held rows offered again whose turn has not come yet (pending
        // like `held` for the order above).
        let mut offered: BTreeSet<u64> = BTreeSet::new();
        // Rows skipped with the other row of their pair
        // ([`BalanceRule::BothSidesSkipped`]).
        let mut skip: HashSet<u64> = HashSet::new();
        // From this slot on only the hard lead is kept
        // (`BalanceRule::AnswerSideHeld { hard }`): the held rows are
        // offered first, then every row as it comes. Twice `count` (or the
        // budget): a cell the lead lets fill in that many slots is kept
        // balanced; one it does not is kept within the hard lead.
        let lenient_from = budget.min(cell.count.saturating_mul(2));
        // The state a seeing generator's slots read ([`Seen`]), taken at
        // each multiple of SEEN_STRIDE; batches end there.
        // Deciding may cost work its slots would otherwise do (a short TPTP
        // entailment cell's test reads its graphs' calibration), so its time
        // is the cell's too.
        let (t_sees, cpu_sees) = (Instant::now(), cost::now());
        let sees = gen_ref.sees_walk(cell);
        // The keys the cell's slots built, for a generator that reads them
        // ([`Generator::sees_keys`]; [`Seen::has_key`]).
        let sees_keys = sees && gen_ref.sees_keys(cell);
        cs.seconds += t_sees.elapsed().as_secs_f64();
        cs.cpu_seconds += cost::secs(cpu_sees);
        let mut cell_keys: HashSet<[u8; 16]> = HashSet::new();
        // CPU seconds of each built row's slot until it is written or
        // dropped (`CellSummary::row_cpu_written`; measurement only).
        let mut row_cpu: HashMap<u64, f64> = HashMap::new();
        let mut snapshot = Seen::default();
        // The candidates' notes so far, per key (distinct values, in slot
        // order), for the snapshot.
        let mut notes: HashMap<String, Vec<String>> = HashMap::new();
        // Set once `patience` fruitless slots in a row have been read: no
        // slot is read after that, but the held rows are still offered.
        let mut out_of_patience = false;
        'walk: loop {
            out_of_patience |= patience.is_some_and(|k| misses >= k);
            let walking = cs.written < cell.count && next < budget && !out_of_patience;
            // Held rows go back on offer once the walk reaches the lenient
            // slots (or ends), before any slot past that point is read.
            let flush =
                !held.is_empty() && cs.written < cell.count && (next >= lenient_from || !walking);
            let (items, end): (Vec<(u64, Offer)>, Option<u64>) = if flush {
                let items: Vec<(u64, Offer)> = std::mem::take(&mut held)
                    .into_iter()
                    .map(|(index, built)| (index, Offer::Again(built)))
                    .collect();
                offered.extend(items.iter().map(|(index, _)| *index));
                (items, None)
            } else if walking {
                // A streamed run's reader waits for the batch: it stays one
                // chunk long (the rows never depend on the batch size).
                // Otherwise a batch holds about the slots the rows still
                // missing need at the cell's yield so far (at least one per
                // thread): every slot built past the last row is thrown
                // away, and a fixed chunk of 8 per thread built a fifth to a
                // third more selection slots than a cell used (SET level 4
                // at 20 rows: 28 slots built, 21 read).
                let want = match cell.fill {
                    Fill::Slots => chunk,
                    Fill::UntilFull { .. } if sink.is_some() => chunk,
                    Fill::UntilFull { .. } => {
                        let left = cell.count - cs.written;
                        let needed = if cs.written == 0 || cs.candidates == 0 {
                            left
                        } else {
                            (left * cs.candidates).div_ceil(cs.written)
                        };
                        needed.max(threads.max(1) as u64)
                    }
                };
                // A batch ends at the first lenient slot, so the held
                // rows are offered there whatever the batch size.
                let stop_at = if next < lenient_from {
                    lenient_from
                } else {
                    budget
                };
                let mut end = next.saturating_add(want).min(stop_at);
                if sees {
                    if next % SEEN_STRIDE == 0 {
                        // The snapshot is the walk as it will stand once the
                        // rows held back are offered again.
                        let now = tallies.clone();
                        let walk = Walk {
                            written: cs.written,
                            groups: groups.clone(),
                            tallies: now.clone(),
                        };
                        let walk = walk.after_held(gen_ref, cell, &held, group_cap);
                        snapshot = Seen::new(
                            walk.groups,
                            notes.clone(),
                            walk.tallies,
                            walk.written,
                            now,
                            if sees_keys {
                                cell_keys.clone()
                            } else {
                                HashSet::new()
                            },
                        );
                    }
                    end = end.min((next / SEEN_STRIDE + 1) * SEEN_STRIDE);
                }
                let snapshot = &snapshot;
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
                                if sees {
                                    gen_ref.build_seeing(cell, index, worker, snapshot)
                                } else {
                                    gen_ref.build(cell, index, worker)
                                }
                            });
                            let attempt = caught.unwrap_or_else(|panic| {
                                // The context may be half-updated: start afresh.
                                *guard = None;
                                Attempt {
                                    built: None,
                                    rejects: vec!["generator_panic"],
                                    bugs: vec![RejectEntry::from_panic(cell.id(index), panic)],
                                    ..Attempt::default()
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
                let items = results
                    .into_iter()
                    .enumerate()
                    .map(|(k, (a, secs, spent, cpu))| {
                        (next + k as u64, Offer::Fresh(a, secs, spent, cpu))
                    })
                    .collect();
                (items, Some(end))
            } else {
                break;
            };
            let mut items = items.into_iter();
            while let Some((index, offer)) = items.next() {
                let again = matches!(offer, Offer::Again(_));
                offered.remove(&index);
                if cs.written == cell.count || (!again && patience.is_some_and(|k| misses >= k)) {
                    // Slots built past the end are thrown away; their CPU
                    // is still the cell's cost (measurement only).
                    for (_, offer) in std::iter::once((index, offer)).chain(items) {
                        if let Offer::Fresh(_, secs, spent, cpu) = offer {
                            cs.discarded += 1;
                            cs.seconds += secs;
                            cs.cpu_seconds += cpu;
                            cs.cost.add(spent);
                        }
                    }
                    if cs.written == cell.count {
                        break 'walk;
                    }
                    // Out of patience: the held rows are offered once more
                    // (the loop's top flushes them), and no slot is read.
                    out_of_patience = true;
                    continue 'walk;
                }
                let built = match offer {
                    Offer::Again(built) => {
                        cs.repeats -= 1;
                        built
                    }
                    Offer::Fresh(attempt, secs, spent, cpu) => {
                        cs.candidates += 1;
                        cs.seconds += secs;
                        cs.cpu_seconds += cpu;
                        cs.cost.add(spent);
                        // Draws timed by the generator (measurement only).
                        let timed = attempt.reject_cpu.len() == attempt.rejects.len();
                        let mut rejected_cpu = 0.0;
                        for (i, r) in attempt.rejects.iter().enumerate() {
                            *cs.rejects.entry(r.to_string()).or_default() += 1;
                            if timed {
                                *cs.reject_cpu.entry(r.to_string()).or_default() +=
                                    attempt.reject_cpu[i];
                                rejected_cpu += attempt.reject_cpu[i];
                            }
                        }
                        for (key, value) in attempt.notes {
                            let values = notes.entry(key).or_default();
                            if !values.contains(&value) {
                                values.push(value);
                            }
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
                            if attempt.held && index < lenient_from {
                                misses = 0;
                            } else {
                                misses += 1;
                            }
                            continue;
                        };
                        let built_cpu = (cpu - rejected_cpu).max(0.0);
                        cs.row_cpu += built_cpu;
                        row_cpu.insert(index, built_cpu);
                        let digest = key_digest(&built.key);
                        if !seen.insert(digest) {
                            cs.duplicates += 1;
                            misses += 1;
                            continue;
                        }
                        if sees_keys {
                            cell_keys.insert(digest);
                        }
                        built
                    }
                };
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
                if skip.remove(&index) {
                    cs.repeats += 1;
                    misses += 1;
                    continue;
                }
                let balance = gen_ref.balanced_items(cell, index, &built);
                if let Some(b) = &balance {
                    match b.rule {
                        BalanceRule::AnswerSideHeld { hard } => {
                            if !again && index < lenient_from && b.over(&tallies, b.lead) {
                                cs.repeats += 1;
                                // Not fruitless for `patience`: the row may
                                // still be written when the held rows are
                                // offered again.
                                misses = 0;
                                held.push((index, built));
                                continue;
                            }
                            if b.over(&tallies, hard) {
                                // Past even the lenient lead: skipped for
                                // good (a held row counts as a repeat
                                // again).
                                cs.repeats += 1;
                                misses += 1;
                                continue;
                            }
                        }
                        BalanceRule::BothSidesSkipped { partner } => {
                            if b.over(&tallies, b.lead) {
                                cs.repeats += 1;
                                misses += 1;
                                skip.extend(partner);
                                continue;
                            }
                        }
                    }
                }
                if let Some(d) = group {
                    *groups.entry(d).or_insert(0u64) += 1;
                }
                tally(&mut tallies, balance.map(|b| b.items).unwrap_or_default());
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
                cs.row_cpu_written += row_cpu.remove(&index).unwrap_or(0.0);
                if let Some(src) = &built.source {
                    *cs.sources.entry(src.clone()).or_default() += 1;
                }
                // The metadata is written here, once.
                let mut record = match built.into_record(cell, index) {
                    Ok(r) => r,
                    Err(e) => {
                        stop = Some(RunError::Defect(format!(
                            "{} row {index}: {e}; no dataset written",
                            cell.key()
                        )));
                        break 'cells;
                    }
                };
                // The row's group (its theorem or problem), for evaluators
                // that keep one row per group.
                let group = crate::tasks::family::group_id(gen_ref.family(), &record);
                crate::tasks::family::with_group(&mut record.metadata, &group);
                if let Err(e) = audit.add_family(&record, gen_ref.family()) {
                    stop = Some(RunError::Defect(format!(
                        "the shortcut audit cannot read a generated row: {e}; no dataset written"
                    )));
                    break 'cells;
                }
                presenter.present(&mut record);
                let group = presenter.group(&record, Some(gen_ref.family()));
                if let Some(sink) = sink {
                    reorder.insert(
                        index,
                        crate::dataset::row_json(&record, &presenter.system_prompt),
                    );
                    let before = held
                        .iter()
                        .map(|h| h.0)
                        .chain(offered.first().copied())
                        .min()
                        .unwrap_or(u64::MAX);
                    while let Some(entry) = reorder.first_entry().filter(|e| *e.key() < before) {
                        if !(sink.emit)(cell.config, entry.remove()) {
                            break 'cells;
                        }
                    }
                } else {
                    problems.add(&record.task, &record.prompt);
                    if tx.send((cell.config, record, group)).is_err() {
                        // The writer thread failed; its error is reported below.
                        break 'cells;
                    }
                }
            }
            if let Some(end) = end {
                next = end;
                trimmer.maybe();
            }
        }
        if let Some(sink) = sink {
            for (_, line) in std::mem::take(&mut reorder) {
                if !(sink.emit)(cell.config, line) {
                    break 'cells;
                }
            }
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
    let Some(writer_thread) = writer_thread else {
        if let Some(e) = stop {
            return Err(e);
        }
        summary.sum_cells();
        return Ok(summary);
    };
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
    write_run_files(&mut writer, &mut summary, &report, &problems, rejects)?;
    let manifest = writer.finish().map_err(dataset_error)?;
    debug_assert_eq!(manifest.total_rows, summary.total_rows);
    busy += t.elapsed();
    summary.writing_seconds = busy.as_secs_f64();
    Ok(summary)
}

/// Writes what a run adds beside its rows, the same for a run and for a
/// merge of its shards: the audit's verdicts into `summary`, the yields,
/// repeated problems (`problems`, over the rows written) and audit
/// sections of the card, `audit.json`, `rejects/rejects.jsonl` (when there
/// are bugs) and `summary.json`.
pub(crate) fn write_run_files(
    writer: &mut DatasetWriter,
    summary: &mut RunSummary,
    report: &crate::audit::AuditReport,
    problems: &super::dedup::ProblemTally,
    rejects: Option<Vec<u8>>,
) -> Result<(), RunError> {
    summary.audit_failures = report.failing();
    summary.audit_text = report.text();
    writer.add_card_section("Yields", &summary.yields_markdown());
    writer.add_card_section("Repeated problems", &problems.markdown());
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

/// Counts a written row's balanced items: each on its answer side or on
/// the other.
fn tally(tallies: &mut HashMap<String, (u64, u64)>, items: Vec<(String, bool)>) {
    for (text, answer) in items {
        let e = tallies.entry(text).or_insert((0, 0));
        if answer {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }
}

/// What a cell's walk has written: rows, rows per answer group (digests)
/// and, per balanced item, rows with it on the answer side and on the other.
struct Walk {
    written: u64,
    groups: HashMap<[u8; 16], u64>,
    tallies: HashMap<String, (u64, u64)>,
}

impl Walk {
    /// The walk once its `held` rows have been offered again, in order, as
    /// the loop offers them: a row whose group is at `group_cap`, or that
    /// takes an item past the hard lead, is skipped; any other is written.
    /// Each row skipped for an item's lead counts for that item on the
    /// answer side all the same: a built row waiting for the item. What a
    /// selection slot reads ([`Seen`]) to stop a candidate whose row would
    /// add nothing to them (`TptpGenerator::held_answer`).
    fn after_held(
        mut self,
        generator: &dyn Generator,
        cell: &Cell,
        held: &[(u64, Built)],
        group_cap: Option<u64>,
    ) -> Walk {
        let mut waiting: HashMap<String, u64> = HashMap::new();
        for (index, built) in held {
            let group = built.group.as_deref().map(key_digest);
            if let (Some(d), Some(cap)) = (group, group_cap)
                && self.groups.get(&d).is_some_and(|&n| n >= cap)
            {
                continue;
            }
            let Some(b) = generator.balanced_items(cell, *index, built) else {
                continue;
            };
            if let BalanceRule::AnswerSideHeld { hard } = b.rule
                && b.over(&self.tallies, hard)
            {
                for (text, _) in b.items.iter().filter(|(_, answer)| *answer) {
                    if let Some(&(a, o)) = self.tallies.get(text)
                        && a + 1 > o + hard
                    {
                        *waiting.entry(text.clone()).or_insert(0) += 1;
                    }
                }
                continue;
            }
            self.written += 1;
            if let Some(d) = group {
                *self.groups.entry(d).or_insert(0) += 1;
            }
            tally(&mut self.tallies, b.items);
        }
        for (text, n) in waiting {
            self.tallies.entry(text).or_insert((0, 0)).0 += n;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::super::summary::cell_config_level;
    use super::*;

    #[test]
    fn sources_table_sums_each_file_over_cells_per_config() {
        let mut run = RunSummary::default();
        assert!(run.sources_markdown().is_empty());
        let cell = |pairs: &[(&str, u64)]| CellSummary {
            written: pairs.iter().map(|p| p.1).sum(),
            sources: pairs.iter().map(|(s, n)| (s.to_string(), *n)).collect(),
            ..CellSummary::default()
        };
        run.cells.insert(
            "premise_selection LCL L1".into(),
            cell(&[("LCL001-1", 2), ("LCL002-1", 1)]),
        );
        run.cells
            .insert("premise_selection LCL L2".into(), cell(&[("LCL001-1", 3)]));
        run.cells.insert(
            "conjecture_entailment LCL L1".into(),
            cell(&[("LCL002-1", 4)]),
        );
        let t = run.sources_markdown();
        assert!(t.contains("2 source(s) gave rows"), "{t}");
        assert!(
            t.contains("| source | rows | conjecture_entailment | premise_selection |"),
            "{t}"
        );
        assert!(t.contains("| LCL001-1 | 5 | 0 | 5 |"), "{t}");
        assert!(t.contains("| LCL002-1 | 5 | 4 | 1 |"), "{t}");
        assert!(run.yields_markdown().contains("| LCL001-1 | 5 |"));
    }

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
