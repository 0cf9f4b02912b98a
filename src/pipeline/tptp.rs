//! The domain run (`saturate --domain SET`): saturate every axiom file of the
//! domains (rayon over files), rank their theorems, then generate the three
//! TPTP task families at every level (rayon over instance slots, one
//! `Prover` per worker), certify every label, and hand the records in slot
//! order over a bounded crossbeam channel to one writer thread that owns the
//! dataset writer. Output: `<out>/<NAME>/saturation/` (derivation dumps and
//! `summary.json`) and `<out>/<NAME>/dataset/` (Parquet configs, card,
//! manifest), where NAME is the domains joined by `-`.
//!
//! Determinism: slot `i` of (domain, family, level) draws its instance with
//! an RNG seeded from (run seed, domain, file, family, level, attempt, i);
//! results are collected in slot order whatever the thread count, and
//! deduplication runs in that order. `--shard i/N` keeps the slots whose
//! index is `i - 1` modulo N; the other shards' slots are untouched, so the
//! union of the N shards is the unsharded run.
//!
//! Robustness: the output folder is checked before any saturation; slots
//! are generated lazily (bounded memory whatever `count`); one instance never
//! ends the run: a prover budget spent, a certificate the checker refuses
//! (drained from `Prover::take_defects` after every attempt) or a generator
//! panic (caught per attempt; the worker's prover is rebuilt) rejects the
//! attempt with its reason counted. Refused certificates and panics are bugs:
//! they go to `dataset/rejects/rejects.jsonl` and make the run exit
//! [`super::EXIT_DEFECT`] after writing the dataset, or at once with no
//! dataset under `strict`. `dataset/summary.json` holds the deterministic
//! counts; timings go to stderr and `saturation/summary.json` only.

use super::fault::{self, RejectEntry};
use super::{
    AxiomSource, DagFormat, Progress, RunError, SaturationReport, domain_sources, load_source,
    write_atomic,
};
use crate::config::Config;
use crate::dataset::{DatasetError, DatasetSpec, DatasetWriter, Record, remove_stale_temporaries};
use crate::prover::{InputClause, Prover};
use crate::tasks::instance_rng;
use crate::tasks::tptp::{Built, Family, GENERATOR_VERSION, Graph, Reject, entail, recon, select};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Settings of one domain run.
#[derive(Clone, Debug)]
pub struct TptpRun {
    /// Domains (three-letter codes).
    pub domains: Vec<String>,
    /// TPTP root, if the axioms come from a TPTP library.
    pub tptp: Option<PathBuf>,
    /// The full configuration (seed, saturation, prover, tasks).
    pub config: Config,
    /// Output root.
    pub out: PathBuf,
    /// This run is shard `.0` (1-based) of `.1`.
    pub shard: Option<(u64, u64)>,
    /// Show progress and log lines.
    pub progress: bool,
    /// End the run at the first certificate failure or generator panic,
    /// with no dataset.
    pub strict: bool,
}

/// Counts of one (domain, family, level) cell.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Cell {
    /// Records written.
    pub written: usize,
    /// Records per label class (`True`/`False`, answer size, node count).
    pub labels: BTreeMap<String, usize>,
    /// Rejected attempts by reason (Unknown verdicts included).
    pub rejects: BTreeMap<String, usize>,
    /// Instances skipped as duplicates of an earlier one.
    pub duplicates: usize,
    /// Slots given up after `max_attempts`.
    pub gave_up: usize,
    /// Attempts rejected because a certificate did not check (bugs).
    pub certificate_failures: usize,
    /// Attempts rejected because the generator panicked (bugs).
    pub generator_panics: usize,
    /// Worker seconds spent generating and certifying (all attempts);
    /// timing, so not in `summary.json`.
    #[serde(skip)]
    pub seconds: f64,
}

/// What a run did. Serialised (as `dataset/summary.json`) it holds only
/// what the same config and seed reproduce byte for byte: no timings, no
/// paths.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TptpSummary {
    /// Per file saturation reports (in `saturation/summary.json`).
    #[serde(skip)]
    pub saturation: Vec<SaturationReport>,
    /// Rows written.
    pub total_rows: u64,
    /// Refused certificates over all cells (bugs).
    pub certificate_failures: usize,
    /// Generator panics over all cells (bugs).
    pub generator_panics: usize,
    /// Per (domain, family config, level).
    pub cells: BTreeMap<String, Cell>,
    /// Wall-clock seconds of the saturation phase (ranking included).
    #[serde(skip)]
    pub saturation_seconds: f64,
    /// Wall-clock seconds of task generation and certification.
    #[serde(skip)]
    pub generation_seconds: f64,
    /// Seconds the writer thread spent encoding and writing.
    #[serde(skip)]
    pub writing_seconds: f64,
    /// Where the dataset is.
    #[serde(skip)]
    pub dataset: PathBuf,
}

impl TptpSummary {
    /// Bugs found: refused certificates plus generator panics.
    pub fn bugs(&self) -> usize {
        self.certificate_failures + self.generator_panics
    }

    /// The end-of-run summary table.
    pub fn render(&self) -> String {
        let mut s = String::from(
            "domain config                level written labels                      unknown dropped dups gave-up inst/s\n",
        );
        for (key, c) in &self.cells {
            // Keys are `DOMAIN config Ln`; the table pads each part.
            let parts: Vec<&str> = key.split(' ').collect();
            let key = match parts.as_slice() {
                [d, f, l] => format!("{d:<6} {f:<22} {l}"),
                _ => key.clone(),
            };
            let labels: Vec<String> = c.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let unknown = c.rejects.get("unknown").copied().unwrap_or(0);
            let dropped: usize = c.rejects.values().sum::<usize>() - unknown;
            let rate = if c.seconds > 0.0 {
                c.written as f64 / c.seconds
            } else {
                0.0
            };
            s.push_str(&format!(
                "{key:<34} {:>7} {:<27} {unknown:>7} {dropped:>7} {:>4} {:>7} {rate:>6.2}\n",
                c.written,
                labels.join(" "),
                c.duplicates,
                c.gave_up,
            ));
        }
        s.push_str("rejected attempts by reason (each redrawn):\n");
        for (key, c) in &self.cells {
            let parts: Vec<&str> = key.split(' ').collect();
            let key = match parts.as_slice() {
                [d, f, l] => format!("{d:<6} {f:<22} {l}"),
                _ => key.clone(),
            };
            if !c.rejects.is_empty() {
                let r: Vec<String> = c.rejects.iter().map(|(k, v)| format!("{k}={v}")).collect();
                s.push_str(&format!("  {key}: {}\n", r.join(" ")));
            }
        }
        let total = self.saturation_seconds + self.generation_seconds;
        if self.bugs() > 0 {
            s.push_str(&format!(
                "BUGS FOUND: {} certificate(s) the checker refused, {} generator panic(s); each is in {}/rejects/rejects.jsonl\n",
                self.certificate_failures,
                self.generator_panics,
                self.dataset.display()
            ));
        }
        s.push_str(&format!(
            "total: {} rows in {:.1}s ({:.2} certified instances/s); time: saturation {:.1}s, generation+proving {:.1}s, writing {:.2}s (writer thread, overlapped)\n",
            self.total_rows,
            total,
            if total > 0.0 { self.total_rows as f64 / total } else { 0.0 },
            self.saturation_seconds,
            self.generation_seconds,
            self.writing_seconds
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

/// One instance slot.
#[derive(Clone, Debug)]
struct Slot {
    domain: String,
    family: Family,
    level: u8,
    index: u64,
    /// Position in the unsharded slot order (for fault injection).
    ordinal: u64,
}

impl Slot {
    /// The record id of the slot's instance.
    fn id(&self) -> String {
        format!(
            "{}-{}-L{}-{:05}",
            self.family.config(),
            self.domain,
            self.level,
            self.index
        )
    }
}

/// The slots of a run in order, generated lazily: (domain, family, level,
/// index), keeping this shard's indices.
fn slots<'a>(
    domains: &'a [String],
    families: &'a [Family],
    levels: &'a [u8],
    count: u64,
    shard: Option<(u64, u64)>,
) -> impl Iterator<Item = Slot> + 'a {
    let per_cell = count;
    let cells = domains.iter().flat_map(move |d| {
        families
            .iter()
            .flat_map(move |&f| levels.iter().map(move |&l| (d, f, l)))
    });
    cells.enumerate().flat_map(move |(c, (d, family, level))| {
        (0..per_cell)
            .filter(move |index| shard.is_none_or(|(i, n)| index % n == i - 1))
            .map(move |index| Slot {
                domain: d.clone(),
                family,
                level,
                index,
                ordinal: (c as u64).saturating_mul(per_cell).saturating_add(index),
            })
    })
}

/// The result of one slot.
struct Done {
    built: Option<(Built, String)>,
    rejects: BTreeMap<String, usize>,
    /// Refused certificates and panics, in attempt order.
    bugs: Vec<RejectEntry>,
    seconds: f64,
}

/// The summary name of a rejection reason.
fn reject_name(r: Reject) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_else(|| format!("{r:?}"))
}

/// A worker's prover.
fn new_prover(cfg: &Config) -> Prover {
    let mut p = Prover::new(cfg.tasks.prover.clone());
    p.params = cfg.saturation.clone();
    p
}

/// Saturates, ranks and checks the consistency of one axiom file.
fn prepare(
    src: &AxiomSource,
    run: &TptpRun,
    dir: &Path,
) -> Result<(SaturationReport, Option<Graph>), RunError> {
    let cfg = &run.config;
    let (bank, inputs) = load_source(src, run.tptp.as_deref())?;
    let clauses: Vec<InputClause> = inputs
        .iter()
        .map(|(lits, info)| InputClause {
            lits: lits.clone(),
            name: info.name.clone(),
            role: info.role.clone(),
        })
        .collect();
    let progress = Progress::silent();
    let (sat, report) = super::saturate(&src.display, bank, inputs, &cfg.saturation, &progress);
    write_atomic(&dir.join(format!("{}.dag.zst", src.name)), |w| {
        super::write_derivation(w, &sat, DagFormat::Dump)
    })?;
    if sat.empty_clause().is_some() {
        tracing::warn!(
            "{}: the axioms are inconsistent; no tasks from it",
            src.name
        );
        return Ok((report, None));
    }
    // A finite model of the axiom file makes every premise set drawn from
    // its graph consistent at once (small sizes, the quick budgets).
    let t = Instant::now();
    let lits: Vec<&[crate::logic::Literal]> = clauses.iter().map(|c| c.lits.as_slice()).collect();
    let mut finder = crate::prover::mace::ModelFinder::new(
        cfg.prover.quick_ground_clauses * 10,
        cfg.prover.quick_sat_conflicts * 10,
    );
    let consistent = finder
        .search(&sat.bank, &lits, 1..=cfg.prover.quick_model_size.max(4))
        .is_some();
    tracing::debug!(
        "{}: model search {:.2}s",
        src.name,
        t.elapsed().as_secs_f64()
    );
    let ranking = crate::interest::rank(&sat.bank, &sat.store);
    let mut sat = sat;
    let bank = std::mem::take(&mut sat.bank);
    let store = std::mem::take(&mut sat.store);
    drop(sat);
    let graph = Graph::new(
        bank,
        store,
        ranking,
        &src.domain,
        &src.name,
        &cfg.tasks,
        consistent,
    );
    if run.progress {
        tracing::info!(
            "{}: {} ({} processed, {} kept), {} theorem candidates, axioms {}",
            src.name,
            report.status.name(),
            report.processed,
            report.kept,
            graph.pool.len(),
            if consistent {
                "have a finite model"
            } else {
                "not shown consistent (checked per instance)"
            }
        );
    }
    Ok((report, Some(graph)))
}

fn run_slot(slot: &Slot, graphs: &[&Graph], run: &TptpRun, prover: &mut Prover) -> Done {
    let cfg = &run.config.tasks;
    let start = Instant::now();
    let mut rejects: BTreeMap<String, usize> = BTreeMap::new();
    let mut bugs = Vec::new();
    let n = graphs.len() as u64;
    let want_true = {
        let s = cfg.true_share;
        ((slot.index + 1) as f64 * s).floor() > (slot.index as f64 * s).floor()
    };
    for attempt in 0..cfg.max_attempts as u64 {
        let g = graphs[((slot.index + attempt) % n) as usize];
        let level = slot.level.to_string();
        let attempt_s = attempt.to_string();
        let where_ = format!("{} attempt {attempt} ({})", slot.id(), g.name);
        let mut rng = instance_rng(
            run.config.seed,
            &[
                &slot.domain,
                &g.name,
                slot.family.name(),
                &level,
                &attempt_s,
            ],
            slot.index,
        );
        // Slot i, attempt a of a file takes the cell's draw i*A + a: distinct
        // slots of a cell never draw the same theorem of the same file.
        let draw = slot.index * cfg.max_attempts as u64 + attempt;
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if attempt == 0 {
                fault::maybe_panic(slot.ordinal);
            }
            let t = g.theorem(run.config.seed, &[slot.family.name(), &level], draw)?;
            Some(match slot.family {
                Family::Entailment => {
                    entail::generate(g, t, prover, cfg, slot.level, want_true, &mut rng)
                }
                Family::Selection => select::generate(g, t, prover, cfg, slot.level, &mut rng),
                Family::Reconstruction => recon::generate(g, t, prover, cfg, slot.level, &mut rng),
            })
        }));
        let r = match caught {
            Err(payload) => {
                // The prover may be mid-update: start the worker afresh.
                *prover = new_prover(&run.config);
                *rejects.entry("generator_panic".into()).or_default() += 1;
                bugs.push(RejectEntry::from_panic(
                    where_,
                    fault::panic_message(payload.as_ref()),
                ));
                continue;
            }
            Ok(None) => {
                *rejects.entry(reject_name(Reject::TooShallow)).or_default() += 1;
                continue;
            }
            Ok(Some(r)) => r,
        };
        let defects = prover.take_defects();
        if !defects.is_empty() {
            // No label may rest on an attempt that met a refused certificate.
            // A fresh prover keeps the refused problem's cached `Unknown`
            // from other slots, so the rejects do not depend on scheduling.
            *prover = new_prover(&run.config);
            *rejects.entry("certificate_failure".into()).or_default() += 1;
            bugs.extend(
                defects
                    .into_iter()
                    .map(|d| RejectEntry::from_defect(where_.clone(), d)),
            );
            continue;
        }
        tracing::debug!(
            "{} {} L{} #{} attempt {attempt} on {}: {:?} after {:.2}s",
            slot.domain,
            slot.family.name(),
            slot.level,
            slot.index,
            g.name,
            r.as_ref().map(|b| b.label.clone()),
            start.elapsed().as_secs_f64()
        );
        match r {
            Ok(b) => {
                return Done {
                    built: Some((b, g.name.clone())),
                    rejects,
                    bugs,
                    seconds: start.elapsed().as_secs_f64(),
                };
            }
            Err(e) => *rejects.entry(reject_name(e)).or_default() += 1,
        }
    }
    Done {
        built: None,
        rejects,
        bugs,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The dataset directory name of a run.
pub fn run_name(domains: &[String], shard: Option<(u64, u64)>) -> String {
    let mut name = domains.join("-");
    if let Some((i, n)) = shard {
        name.push_str(&format!("-shard-{i}-of-{n}"));
    }
    name
}

/// Runs saturation and task generation for the domains and writes the
/// dataset.
pub fn run_tptp(run: &TptpRun) -> Result<TptpSummary, RunError> {
    let cfg = &run.config;
    cfg.tasks.validate().map_err(RunError::Input)?;
    if let Some((i, n)) = run.shard
        && (n == 0 || i == 0 || i > n)
    {
        return Err(RunError::Input(format!(
            "--shard {i}/{n}: expected i/N with 1 <= i <= N"
        )));
    }
    let mut sources = Vec::new();
    let mut domains = Vec::new();
    for d in &run.domains {
        let s = domain_sources(d, run.tptp.as_deref())?;
        domains.push(s[0].domain.clone());
        sources.extend(s);
    }
    let tasks = &cfg.tasks;
    let mut levels = tasks.levels.clone();
    levels.sort_unstable();
    levels.dedup();
    let mut families = tasks.families.clone();
    families.sort();
    families.dedup();
    let count = tasks.count as u64;
    let per_shard = match run.shard {
        Some((i, n)) => count / n + u64::from(count % n >= i),
        None => count,
    };
    let total_slots = (domains.len() as u64)
        .checked_mul(families.len() as u64)
        .and_then(|x| x.checked_mul(levels.len() as u64))
        .and_then(|x| x.checked_mul(per_shard))
        .ok_or_else(|| RunError::Input(format!("tasks.count = {count}: too many slots")))?;
    let name = run_name(&domains, run.shard);
    let root = run.out.join(&name);
    let sat_dir = root.join("saturation");
    let data_dir = root.join("dataset");
    // `jobs` is left out of the manifest: the output does not depend on it.
    let mut config_json = serde_json::to_value(cfg).expect("serialisable");
    if let Some(o) = config_json.as_object_mut() {
        o.remove("jobs");
    }
    let spec = DatasetSpec {
        name: format!("saturate TPTP tasks: {}", domains.join(", ")),
        description: String::new(),
        seed: cfg.seed,
        config: serde_json::json!({
            "generator": GENERATOR_VERSION,
            "domains": domains,
            "tptp": run.tptp.as_ref().map(|p| p.display().to_string()),
            "shard": run.shard.map(|(i, n)| format!("{i}/{n}")),
            "config": config_json,
        }),
        max_rows_per_shard: tasks.max_rows_per_shard,
    };
    // The output folder is checked (and stale temporaries removed) before
    // any saturation starts.
    let mut writer = DatasetWriter::create(&data_dir, spec).map_err(dataset_error)?;
    remove_stale_temporaries(&sat_dir, ".summary.json.");
    for src in &sources {
        remove_stale_temporaries(&sat_dir, &format!(".{}.dag.zst.", src.name));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.jobs)
        .build()
        .map_err(|e| RunError::Runtime(format!("thread pool: {e}")))?;
    // Phase 1: saturation, one file per task.
    let t0 = Instant::now();
    if run.progress {
        tracing::info!(
            "{name}: saturating {} axiom file(s) from {} (max_processed = {:?})",
            sources.len(),
            run.tptp
                .as_ref()
                .map_or("the embedded axioms".to_string(), |p| p
                    .display()
                    .to_string()),
            cfg.saturation.limits.max_processed
        );
    }
    let prepared: Vec<Result<(SaturationReport, Option<Graph>), RunError>> = pool.install(|| {
        sources
            .par_iter()
            .map(|s| prepare(s, run, &sat_dir))
            .collect()
    });
    let mut reports = Vec::new();
    let mut graphs = Vec::new();
    for p in prepared {
        let (r, g) = p?;
        reports.push(r);
        graphs.extend(g);
    }
    // The same layout as `derive --stats-json`: timings in a `timing` group.
    let report_json: Vec<serde_json::Value> = reports.iter().map(|r| r.stats_json(true)).collect();
    write_atomic(&sat_dir.join("summary.json"), |w| {
        serde_json::to_writer_pretty(&mut *w, &report_json)?;
        std::io::Write::write_all(w, b"\n")
    })?;
    let saturation_seconds = t0.elapsed().as_secs_f64();
    if run.progress {
        tracing::info!(
            "{name}: saturation done in {saturation_seconds:.1}s (peak RSS {} MiB)",
            super::peak_rss_kib() / 1024
        );
    }
    // Phase 2: slots.
    let by_domain: BTreeMap<&str, Vec<&Graph>> = domains
        .iter()
        .map(|d| {
            (
                d.as_str(),
                graphs
                    .iter()
                    .filter(|g| &g.domain == d && !g.pool.is_empty())
                    .collect(),
            )
        })
        .collect();
    writer.set_description(card_text(&domains, &reports, &graphs, run));
    for f in &families {
        writer.describe_config(f.config(), f.description());
    }
    let t1 = Instant::now();
    let progress = Progress::new("tasks", total_slots, run.progress);
    let (tx, rx) = crossbeam_channel::bounded::<(String, Record)>(256);
    let writer_thread = std::thread::spawn(move || -> Result<_, DatasetError> {
        let mut busy = std::time::Duration::ZERO;
        for (config, record) in rx {
            let t = Instant::now();
            writer.push(&config, record)?;
            busy += t.elapsed();
        }
        Ok((writer, busy))
    });
    let mut cells: BTreeMap<String, Cell> = BTreeMap::new();
    let mut bugs: Vec<RejectEntry> = Vec::new();
    let mut seen: HashSet<(Family, String)> = HashSet::new();
    let mut done = 0u64;
    let chunk = (pool.current_num_threads() * 8).max(8);
    let mut send_error = None;
    let mut strict_stop = None;
    let mut slot_iter = slots(&domains, &families, &levels, count, run.shard);
    loop {
        let batch: Vec<Slot> = slot_iter.by_ref().take(chunk).collect();
        if batch.is_empty() {
            break;
        }
        let results: Vec<Done> = pool.install(|| {
            batch
                .par_iter()
                .map_init(
                    || new_prover(cfg),
                    |prover, slot| {
                        let gs = &by_domain[slot.domain.as_str()];
                        if gs.is_empty() {
                            return Done {
                                built: None,
                                rejects: BTreeMap::from([(reject_name(Reject::TooShallow), 1)]),
                                bugs: Vec::new(),
                                seconds: 0.0,
                            };
                        }
                        run_slot(slot, gs, run, prover)
                    },
                )
                .collect()
        });
        for (slot, r) in batch.iter().zip(results) {
            let cell = cells
                .entry(format!(
                    "{} {} L{}",
                    slot.domain,
                    slot.family.config(),
                    slot.level
                ))
                .or_default();
            cell.seconds += r.seconds;
            for (k, v) in r.rejects {
                *cell.rejects.entry(k).or_default() += v;
            }
            for b in r.bugs {
                match b.kind {
                    "generator_panic" => cell.generator_panics += 1,
                    _ => cell.certificate_failures += 1,
                }
                tracing::error!("BUG: {} at {}: {}", b.kind, b.slot, b.reason);
                bugs.push(b);
            }
            if run.strict && !bugs.is_empty() {
                strict_stop = Some(bugs[0].clone());
                break;
            }
            done += 1;
            progress.tick(done);
            let Some((b, file)) = r.built else {
                cell.gave_up += 1;
                continue;
            };
            if !seen.insert((slot.family, b.key.clone())) {
                cell.duplicates += 1;
                continue;
            }
            *cell.labels.entry(b.label.clone()).or_default() += 1;
            cell.written += 1;
            let record = Record {
                id: slot.id(),
                task: slot.family.config().to_string(),
                domain: Some(slot.domain.clone()),
                source: Some(file),
                level: Some(slot.level.to_string()),
                prompt: b.prompt,
                answer: b.answer,
                metadata: b.metadata.to_string(),
                certificate: b.certificate.to_string(),
            };
            if tx.send((slot.family.config().to_string(), record)).is_err() {
                send_error = Some(());
                break;
            }
        }
        if send_error.is_some() || strict_stop.is_some() {
            break;
        }
    }
    drop(tx);
    progress.finish("done");
    let generation_seconds = t1.elapsed().as_secs_f64();
    let (mut writer, mut busy) = writer_thread
        .join()
        .map_err(|_| RunError::Runtime("the writer thread panicked".into()))?
        .map_err(dataset_error)?;
    if let Some(first) = strict_stop {
        // Dropping the unfinished writer removes its staging folder.
        drop(writer);
        return Err(RunError::Defect(format!(
            "--strict: {} at {}: {}{}; no dataset written",
            first.kind,
            first.slot,
            first.reason,
            first
                .problem_tptp
                .as_ref()
                .map_or(String::new(), |p| format!("\nproblem:\n{p}"))
        )));
    }
    let mut summary = TptpSummary {
        saturation: reports,
        certificate_failures: cells.values().map(|c| c.certificate_failures).sum(),
        generator_panics: cells.values().map(|c| c.generator_panics).sum(),
        cells,
        saturation_seconds,
        generation_seconds,
        writing_seconds: 0.0,
        total_rows: 0,
        dataset: data_dir,
    };
    let t = Instant::now();
    summary.total_rows = summary.cells.values().map(|c| c.written as u64).sum();
    if !bugs.is_empty() {
        writer
            .add_file("rejects/rejects.jsonl", &fault::rejects_jsonl(&bugs))
            .map_err(dataset_error)?;
    }
    let mut json = serde_json::to_vec_pretty(&summary).expect("summary serialises");
    json.push(b'\n');
    writer
        .add_file("summary.json", &json)
        .map_err(dataset_error)?;
    let manifest = writer.finish().map_err(dataset_error)?;
    debug_assert_eq!(manifest.total_rows, summary.total_rows);
    busy += t.elapsed();
    summary.writing_seconds = busy.as_secs_f64();
    Ok(summary)
}

/// The dataset card's description: what the tasks are and where they came
/// from (one line per axiom file).
fn card_text(
    domains: &[String],
    reports: &[SaturationReport],
    graphs: &[Graph],
    run: &TptpRun,
) -> String {
    let mut s = format!(
        "Reasoning tasks generated from the derivation graphs of superposition saturation runs over the {} axiom files of {} (seed {}). Every label is certified by the built-in prover and its certificate (refutations, finite countermodels) is stored in the `certificate` column; `saturate verify` re-checks them with an independent checker. The `metadata` column holds each instance in TPTP syntax (`premises`, `theorem`, `context_axioms`, `pool`, `clauses`) so that any other prover can re-check it, plus the interestingness components of the theorem and the prover's statistics.\n\n",
        if run.tptp.is_some() {
            "TPTP"
        } else {
            "embedded"
        },
        domains.join(", "),
        run.config.seed
    );
    s.push_str("| axiom file | status | processed | kept | theorem candidates | finite model of the axioms |\n|---|---|---|---|---|---|\n");
    for r in reports {
        let stem = Path::new(&r.source)
            .file_stem()
            .map_or(r.source.clone(), |x| x.to_string_lossy().into_owned());
        let g = graphs.iter().find(|g| g.name == stem);
        s.push_str(&format!(
            "| {stem} | {} | {} | {} | {} | {} |\n",
            r.status.name(),
            r.processed,
            r.kept,
            g.map_or(0, |g| g.pool.len()),
            g.is_some_and(|g| g.consistent)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_generated_lazily_in_order_with_shards() {
        let domains = vec!["SET".to_string(), "ALG".to_string()];
        let families = [Family::Entailment, Family::Selection];
        let levels = [1u8, 2];
        // A huge count costs nothing until slots are drawn.
        let first: Vec<Slot> = slots(&domains, &families, &levels, u64::MAX / 2, None)
            .take(3)
            .collect();
        assert_eq!(
            first
                .iter()
                .map(|s| (s.index, s.ordinal))
                .collect::<Vec<_>>(),
            [(0, 0), (1, 1), (2, 2)]
        );
        let all: Vec<Slot> = slots(&domains, &families, &levels, 3, None).collect();
        assert_eq!(all.len(), 2 * 2 * 2 * 3);
        assert!(all.iter().enumerate().all(|(i, s)| s.ordinal == i as u64));
        assert_eq!(
            (all[3].domain.as_str(), all[3].level, all[3].index),
            ("SET", 2, 0)
        );
        // Shards partition the slots and keep their ordinals.
        let mut union: Vec<u64> = (1..=2)
            .flat_map(|i| slots(&domains, &families, &levels, 3, Some((i, 2))))
            .map(|s| s.ordinal)
            .collect();
        union.sort_unstable();
        assert_eq!(union, (0..24).collect::<Vec<u64>>());
    }
}
