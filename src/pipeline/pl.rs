//! The `saturate pl` run: builds PL1 instances for every task and level
//! (and, with `--families pl2`, PL2 instances for every task, family and
//! size) in parallel (rayon), collects them in index order, drops duplicate
//! problems per task, and writes one dataset config per task through the
//! dataset writer. Output is byte-identical for any thread count.
//!
//! A generator panic is caught per candidate and counted as a rejection; it
//! is a bug, so it also goes to `rejects/rejects.jsonl` and the run exits
//! [`super::EXIT_DEFECT`] after writing the dataset (`strict`: at once, no
//! dataset). `summary.json` in the dataset holds the counts, no timings.

use super::fault::{self, RejectEntry};
use super::{Progress, RunError};
use crate::dataset::{DatasetError, DatasetSpec, DatasetWriter, Record};
use crate::tasks::pl::families::Family;
use crate::tasks::pl::pl2::{self, Pl2Instance, Pl2Options, Pl2Task, Reject};
use crate::tasks::pl::{PlInstance, Skip, Task, build};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

/// Settings of one PL run.
#[derive(Clone, Debug, Serialize)]
pub struct PlConfig {
    /// Instances per task and level.
    pub count: usize,
    /// Run seed.
    pub seed: u64,
    /// Levels to generate (1-4).
    pub levels: Vec<u8>,
    /// Tasks to generate.
    #[serde(serialize_with = "task_names")]
    pub tasks: Vec<Task>,
    /// Rows per Parquet shard.
    pub max_rows_per_shard: usize,
    /// Which problem sets to generate: `pl1`, `pl2` or both.
    #[serde(skip_serializing_if = "pl1_only")]
    pub families: Vec<String>,
    /// PL2 settings (used when `families` contains `pl2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pl2: Option<Pl2RunConfig>,
}

fn pl1_only(f: &[String]) -> bool {
    f == ["pl1"]
}

/// Settings of the PL2 part of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Pl2RunConfig {
    /// Sizes to generate (1-3), the records' level.
    pub sizes: Vec<u8>,
    /// Families to generate.
    #[serde(serialize_with = "family_names")]
    pub families: Vec<Family>,
    /// Generation limits.
    pub options: Pl2Options,
}

impl Default for Pl2RunConfig {
    fn default() -> Self {
        Pl2RunConfig {
            sizes: vec![1, 2, 3],
            families: Family::ALL.to_vec(),
            options: Pl2Options::default(),
        }
    }
}

fn family_names<S: serde::Serializer>(f: &[Family], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(f.iter().map(|f| f.name()))
}

fn task_names<S: serde::Serializer>(t: &[Task], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(t.iter().map(|t| t.config()))
}

impl Default for PlConfig {
    fn default() -> Self {
        PlConfig {
            count: 20,
            seed: 0,
            levels: vec![1, 2, 3, 4],
            tasks: Task::ALL.to_vec(),
            max_rows_per_shard: 10_000,
            families: vec!["pl1".to_string()],
            pl2: None,
        }
    }
}

/// What a run produced, for the end-of-run summary.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlSummary {
    /// (task, level) → instances written.
    pub written: BTreeMap<String, BTreeMap<u8, usize>>,
    /// task → label → count.
    pub labels: BTreeMap<String, BTreeMap<String, usize>>,
    /// task → duplicates skipped.
    pub duplicates: BTreeMap<String, usize>,
    /// task → coordinates with no problem within the attempt budget.
    pub no_problem: BTreeMap<String, usize>,
    /// task → reference proofs over the size cap.
    pub proof_too_large: BTreeMap<String, usize>,
    /// Proof checking: corrupted proofs whose error matched the predicted kind and line / all corrupted.
    pub corruption_predictions: (usize, usize),
    /// Mean reference-proof lines per level.
    pub mean_proof_lines: BTreeMap<u8, f64>,
    /// Instances written.
    pub total: usize,
    /// Candidates whose generator panicked (bugs).
    pub generator_panics: usize,
    /// Wall-clock seconds of generation and writing (timing: not in
    /// `summary.json`).
    #[serde(skip)]
    pub seconds: f64,
    /// The PL2 part, when generated.
    pub pl2: Option<Pl2Summary>,
    /// Generator panics, in candidate order.
    #[serde(skip)]
    pub bugs: Vec<RejectEntry>,
}

/// Per (family, size) figures of a PL2 run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Pl2Cell {
    /// Instances written, per task.
    pub written: BTreeMap<String, usize>,
    /// Candidates rejected, per filter.
    pub rejected: BTreeMap<String, usize>,
    /// Duplicate problems skipped.
    pub duplicates: usize,
    /// Written instances that are decoys.
    pub decoys: usize,
    /// CNF clause counts of written instances: (min, max, sum).
    pub cnf_clauses: (usize, usize, usize),
    /// Refutation steps of written theorems: (min, max, sum, count).
    pub refutation_steps: (usize, usize, usize, usize),
}

/// What the PL2 part of a run produced.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Pl2Summary {
    /// (family, size) → figures.
    #[serde(serialize_with = "family_size_keys")]
    pub cells: BTreeMap<(String, u8), Pl2Cell>,
    /// task → label → count.
    pub labels: BTreeMap<String, BTreeMap<String, usize>>,
    /// Proof checking: corrupted proofs whose error had the predicted kind / all corrupted.
    pub corruption_predictions: (usize, usize),
    /// Instances written.
    pub total: usize,
}

/// Serialises (family, size) keys as `family/size` (JSON keys are strings).
fn family_size_keys<S: serde::Serializer>(
    cells: &BTreeMap<(String, u8), Pl2Cell>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(cells.iter().map(|((f, z), c)| (format!("{f}/{z}"), c)))
}

/// Counts a caught generator panic (or, under `strict`, ends the run).
fn generator_panic(
    summary_bugs: &mut Vec<RejectEntry>,
    slot: String,
    panic: String,
    strict: bool,
) -> Result<(), RunError> {
    tracing::error!("BUG: generator panic at {slot}: {panic}");
    if strict {
        return Err(RunError::Defect(format!(
            "--strict: generator panic at {slot}: {panic}; no dataset written"
        )));
    }
    summary_bugs.push(RejectEntry::from_panic(slot, panic));
    Ok(())
}

fn record(i: PlInstance) -> Record {
    Record {
        id: i.id,
        task: i.task.config().to_string(),
        domain: Some("PL".to_string()),
        source: Some("pl1-generator".to_string()),
        level: Some(i.level.to_string()),
        prompt: i.prompt,
        answer: i.answer,
        metadata: i.metadata.to_string(),
        certificate: i.certificate.to_string(),
    }
}

fn record2(i: Pl2Instance) -> Record {
    Record {
        id: i.id,
        task: i.task.config().to_string(),
        domain: Some("PL".to_string()),
        source: Some(format!("pl2-{}", i.family.name())),
        level: Some(i.size.to_string()),
        prompt: i.prompt,
        answer: i.answer,
        metadata: i.metadata.to_string(),
        certificate: i.certificate.to_string(),
    }
}

fn dataset_err(e: DatasetError) -> RunError {
    match e {
        DatasetError::NotOurs { .. }
        | DatasetError::Empty { .. }
        | DatasetError::BadConfigName { .. }
        | DatasetError::BadShardSize { .. } => RunError::Input(e.to_string()),
        _ => RunError::Runtime(e.to_string()),
    }
}

const DESCRIPTION: &str = "Propositional natural-deduction tasks in the style of ProofGrid's PL1 \
(seed 000): random problems (premises that jointly and necessarily entail a goal, premises \
satisfiable, goal not a tautology), reference proofs in NDL written by saturate's prover and \
re-verified by its strict checker, and four tasks built from them: proof checking (about half \
the proofs corrupted; labels from re-running the checker), proof writing, proof masking (30-90% \
of the maskable items masked; some unsolvable decoys) and gap filling. Each record's `metadata` \
holds the premises, goal and `conditionalized` flag as formula strings, so every constraint can \
be re-checked independently; `certificate` holds the SAT evidence and the checker's verdicts.";

const DESCRIPTION_PL2: &str = "Structured propositional problems in the style of ProofGrid's PL2 \
(seed 000): eight families (pyramid pebbling, Horn chains, graph 3-colouring, relativized \
pigeonhole, subset cardinality, De Bruijn, Tseitin, counting principle) at three sizes each, with \
the corrected satisfiability conditions of the PL/EQ spec. Every theorem is certified by SAT and by \
a resolution refutation (re-checked step by step, under the step bound) whose NDL_f translation is \
the reference proof; every decoy (a non-theorem) carries a satisfying assignment. Two tasks: proof \
writing in NDL_f (theorems and decoys) and proof checking (about half the proofs corrupted; labels \
from re-running the NDL_f checker). `metadata` holds `family`, its size `params`, the premises and \
goal as formula strings, the clause count and the refutation length.";

fn describe2(task: Pl2Task) -> &'static str {
    match task {
        Pl2Task::ProofChecking => {
            "Is the NDL_f proof correct? Answer JSON `{\"correct\", \"errorDetails\"}`; the gold error is the strict NDL_f checker's first error (a logic error's description has a counterexample)."
        }
        Pl2Task::ProofWriting => {
            "Write an NDL_f proof of the goal, or for a non-theorem answer `\"proof\": null` with a counterexample assignment. Scored by the lenient NDL_f checker (at most 5 justifiers per step) or by evaluating the counterexample."
        }
    }
}

fn describe(task: Task) -> &'static str {
    match task {
        Task::ProofChecking => {
            "Is the NDL proof correct? Answer JSON `{\"correct\", \"errorDetails\"}`; the gold error is the strict checker's first error (line, type, description)."
        }
        Task::ProofWriting => {
            "Write an NDL proof of the goal. Answer JSON `{\"description\", \"proof\"}`; scored by the lenient checker; the gold answer is one reference proof."
        }
        Task::ProofMasking => {
            "Fill MASKk tokens so the proof checks, or answer `{\"masks\": {}}` if impossible. Any assignment the checker accepts scores."
        }
        Task::GapFilling => {
            "Fill `GAP-k` placeholders (one or more block elements each) so the proof checks. Any filling the checker accepts scores."
        }
    }
}

/// Runs the PL generator and writes the dataset to `out`. With `strict`, the
/// first generator panic ends the run with no dataset.
pub fn run_pl(
    cfg: &PlConfig,
    jobs: usize,
    out: &Path,
    progress_enabled: bool,
    strict: bool,
) -> Result<PlSummary, RunError> {
    if cfg.count == 0 {
        return Err(RunError::Input("--count must be at least 1".into()));
    }
    if let Some(l) = cfg.levels.iter().find(|l| !(1..=4).contains(*l)) {
        return Err(RunError::Input(format!("level {l} is not in 1..=4")));
    }
    if let Some(f) = cfg.families.iter().find(|f| *f != "pl1" && *f != "pl2") {
        return Err(RunError::Input(format!(
            "unknown problem set '{f}' (expected pl1 or pl2)"
        )));
    }
    let do_pl1 = cfg.families.iter().any(|f| f == "pl1");
    let pl2_cfg = if cfg.families.iter().any(|f| f == "pl2") {
        let c = cfg.pl2.clone().unwrap_or_default();
        if let Some(z) = c.sizes.iter().find(|z| !(1..=3).contains(*z)) {
            return Err(RunError::Input(format!("size {z} is not in 1..=3")));
        }
        if c.sizes.is_empty() || c.families.is_empty() {
            return Err(RunError::Input("no PL2 sizes or families selected".into()));
        }
        if c.options.max_refutation_steps == 0 {
            return Err(RunError::Input(
                "--max-refutation-steps must be at least 1".into(),
            ));
        }
        Some(c)
    } else {
        None
    };
    if !do_pl1 && pl2_cfg.is_none() {
        return Err(RunError::Input("no problem set selected".into()));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| RunError::Runtime(format!("thread pool: {e}")))?;
    let (name, description) = match (do_pl1, pl2_cfg.is_some()) {
        (true, false) => ("saturate PL1", DESCRIPTION.to_string()),
        (false, true) => ("saturate PL2", DESCRIPTION_PL2.to_string()),
        _ => (
            "saturate PL1 + PL2",
            format!("{DESCRIPTION}\n\n{DESCRIPTION_PL2}"),
        ),
    };
    let spec = DatasetSpec {
        name: name.to_string(),
        description,
        seed: cfg.seed,
        config: serde_json::to_value(cfg).expect("config serialises"),
        max_rows_per_shard: cfg.max_rows_per_shard,
    };
    let mut writer = DatasetWriter::create(out, spec).map_err(dataset_err)?;
    let started = Instant::now();
    let count = cfg.count as u64;
    let pl1_total = if do_pl1 {
        count.saturating_mul((cfg.levels.len() * cfg.tasks.len()) as u64)
    } else {
        0
    };
    let pl2_total = pl2_cfg.as_ref().map_or(0, |c| {
        count.saturating_mul((c.sizes.len() * c.families.len() * Pl2Task::ALL.len()) as u64)
    });
    let progress = Progress::new("pl", pl1_total.saturating_add(pl2_total), progress_enabled);
    let mut summary = PlSummary::default();
    let mut done = 0u64;
    if do_pl1 {
        let mut sink = Out {
            writer: &mut writer,
            progress: &progress,
            done: &mut done,
            strict,
        };
        run_pl1_part(cfg, jobs, &pool, &mut sink, &mut summary)?;
    }
    if let Some(c) = &pl2_cfg {
        let mut sink = Out {
            writer: &mut writer,
            progress: &progress,
            done: &mut done,
            strict,
        };
        summary.pl2 = Some(run_pl2_part(
            cfg,
            c,
            jobs,
            &pool,
            &mut sink,
            &mut summary.bugs,
        )?);
    }
    summary.generator_panics = summary.bugs.len();
    if !summary.bugs.is_empty() {
        writer
            .add_file(
                "rejects/rejects.jsonl",
                &fault::rejects_jsonl(&summary.bugs),
            )
            .map_err(dataset_err)?;
    }
    let mut json = serde_json::to_vec_pretty(&summary)
        .map_err(|e| RunError::Runtime(format!("summary.json: {e}")))?;
    json.push(b'\n');
    writer
        .add_file("summary.json", &json)
        .map_err(dataset_err)?;
    writer.finish().map_err(dataset_err)?;
    progress.finish("done");
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// Where a part of a run writes: the dataset, progress, and the strict flag.
struct Out<'a> {
    writer: &'a mut DatasetWriter,
    progress: &'a Progress,
    done: &'a mut u64,
    strict: bool,
}

/// The PL1 part of a run.
fn run_pl1_part(
    cfg: &PlConfig,
    jobs: usize,
    pool: &rayon::ThreadPool,
    out: &mut Out,
    summary: &mut PlSummary,
) -> Result<(), RunError> {
    let strict = out.strict;
    let mut lines: BTreeMap<u8, (usize, usize)> = BTreeMap::new();
    let batch = (jobs.max(1) * 8).max(32) as u64;
    for &task in &cfg.tasks {
        let name = task.config().to_string();
        out.writer.describe_config(task.config(), describe(task));
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for &level in &cfg.levels {
            let mut accepted = 0usize;
            let mut next = 0u64;
            // A generous budget; a level that cannot reach `count` unique
            // problems within it is reported, not looped on forever.
            let limit = (cfg.count as u64).saturating_mul(20).saturating_add(200);
            while accepted < cfg.count && next < limit {
                let end = (next + batch).min(limit);
                let built: Vec<Result<Result<PlInstance, Skip>, String>> = pool.install(|| {
                    (next..end)
                        .into_par_iter()
                        .map(|i| {
                            fault::catch(|| {
                                fault::maybe_panic(i);
                                build(cfg.seed, task, level, i)
                            })
                        })
                        .collect()
                });
                let first = next;
                next = end;
                for (k, r) in built.into_iter().enumerate() {
                    if accepted == cfg.count {
                        break;
                    }
                    let r = match r {
                        Ok(r) => r,
                        Err(panic) => {
                            let slot = format!("{name} L{level} candidate {}", first + k as u64);
                            generator_panic(&mut summary.bugs, slot, panic, strict)?;
                            continue;
                        }
                    };
                    match r {
                        Err(Skip::NoProblem) => {
                            *summary.no_problem.entry(name.clone()).or_default() += 1
                        }
                        Err(Skip::ProofTooLarge) => {
                            *summary.proof_too_large.entry(name.clone()).or_default() += 1
                        }
                        Ok(inst) => {
                            if !seen.insert(inst.canonical.clone()) {
                                *summary.duplicates.entry(name.clone()).or_default() += 1;
                                continue;
                            }
                            accepted += 1;
                            *summary
                                .labels
                                .entry(name.clone())
                                .or_default()
                                .entry(inst.label.to_string())
                                .or_default() += 1;
                            if let Some(m) = inst.prediction_matches {
                                summary.corruption_predictions.1 += 1;
                                summary.corruption_predictions.0 += m as usize;
                            }
                            let e = lines.entry(level).or_default();
                            e.0 += inst.proof_lines;
                            e.1 += 1;
                            out.writer
                                .push(task.config(), record(inst))
                                .map_err(dataset_err)?;
                            *out.done += 1;
                            out.progress.tick(*out.done);
                        }
                    }
                }
            }
            summary
                .written
                .entry(name.clone())
                .or_default()
                .insert(level, accepted);
            summary.total += accepted;
        }
    }
    summary.mean_proof_lines = lines
        .into_iter()
        .map(|(l, (s, n))| (l, s as f64 / n.max(1) as f64))
        .collect();
    Ok(())
}

/// Consecutive fruitless PL2 candidates after which a (task, family, size) cell stops.
const PL2_PATIENCE: u64 = 100;

/// The PL2 part of a run: for each task, family and size, instances in
/// index order until `count` unique ones are accepted or the budget is spent.
fn run_pl2_part(
    cfg: &PlConfig,
    c: &Pl2RunConfig,
    jobs: usize,
    pool: &rayon::ThreadPool,
    out: &mut Out,
    bugs: &mut Vec<RejectEntry>,
) -> Result<Pl2Summary, RunError> {
    let strict = out.strict;
    let mut summary = Pl2Summary::default();
    let batch = (jobs.max(1) * 8).max(32) as u64;
    for task in Pl2Task::ALL {
        out.writer.describe_config(task.config(), describe2(task));
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for &family in &c.families {
            for &size in &c.sizes {
                let cell = summary
                    .cells
                    .entry((family.name().to_string(), size))
                    .or_default();
                let mut accepted = 0usize;
                let mut next = 0u64;
                let limit = (cfg.count as u64).saturating_mul(20).saturating_add(200);
                // Families with few distinct problems at a size (pyramids, De
                // Bruijn) stop after this many candidates in a row give nothing.
                let mut misses = 0u64;
                while accepted < cfg.count && next < limit && misses < PL2_PATIENCE {
                    let end = (next + batch).min(limit);
                    let built: Vec<Result<Result<Pl2Instance, Reject>, String>> =
                        pool.install(|| {
                            (next..end)
                                .into_par_iter()
                                .map(|i| {
                                    fault::catch(|| {
                                        fault::maybe_panic(i);
                                        pl2::build(cfg.seed, task, family, size, i, &c.options)
                                    })
                                })
                                .collect()
                        });
                    let first = next;
                    next = end;
                    for (k, r) in built.into_iter().enumerate() {
                        if accepted == cfg.count || misses >= PL2_PATIENCE {
                            break;
                        }
                        let r = match r {
                            Ok(r) => r,
                            Err(panic) => {
                                let slot = format!(
                                    "{} {} size {size} candidate {}",
                                    task.config(),
                                    family.name(),
                                    first + k as u64
                                );
                                generator_panic(bugs, slot, panic, strict)?;
                                *cell.rejected.entry("generator_panic".into()).or_default() += 1;
                                misses += 1;
                                continue;
                            }
                        };
                        let inst = match r {
                            Err(reason) => {
                                *cell.rejected.entry(reason.name().to_string()).or_default() += 1;
                                misses += 1;
                                continue;
                            }
                            Ok(inst) => inst,
                        };
                        if !seen.insert(inst.canonical.clone()) {
                            cell.duplicates += 1;
                            misses += 1;
                            continue;
                        }
                        misses = 0;
                        accepted += 1;
                        *summary
                            .labels
                            .entry(task.config().to_string())
                            .or_default()
                            .entry(inst.label.to_string())
                            .or_default() += 1;
                        if let Some(m) = inst.prediction_matches {
                            summary.corruption_predictions.1 += 1;
                            summary.corruption_predictions.0 += m as usize;
                        }
                        if inst.label == "non-theorem" {
                            cell.decoys += 1;
                        }
                        let k = inst.cnf_clauses;
                        let first = cell.written.values().sum::<usize>() == 0;
                        cell.cnf_clauses = if first {
                            (k, k, k)
                        } else {
                            let (lo, hi, sum) = cell.cnf_clauses;
                            (lo.min(k), hi.max(k), sum + k)
                        };
                        if let Some(st) = inst.refutation_steps {
                            let (lo, hi, sum, n) = cell.refutation_steps;
                            cell.refutation_steps = if n == 0 {
                                (st, st, st, 1)
                            } else {
                                (lo.min(st), hi.max(st), sum + st, n + 1)
                            };
                        }
                        *cell.written.entry(task.config().to_string()).or_default() += 1;
                        out.writer
                            .push(task.config(), record2(inst))
                            .map_err(dataset_err)?;
                        *out.done += 1;
                        out.progress.tick(*out.done);
                    }
                }
                summary.total += accepted;
            }
        }
    }
    Ok(summary)
}

impl PlSummary {
    /// The end-of-run summary as text lines.
    pub fn render(&self, levels: &[u8]) -> String {
        let mut s = String::new();
        if !self.written.is_empty() {
            s.push_str(&self.render_pl1(levels));
        }
        if let Some(p) = &self.pl2 {
            s.push_str(&p.render());
        }
        s.push_str(&format!(
            "{} instances in {:.2}s ({:.0} instances/s)\n",
            self.total + self.pl2.as_ref().map_or(0, |p| p.total),
            self.seconds,
            (self.total + self.pl2.as_ref().map_or(0, |p| p.total)) as f64 / self.seconds.max(1e-9)
        ));
        s
    }

    fn render_pl1(&self, levels: &[u8]) -> String {
        let mut s = String::new();
        s.push_str(&format!("{:<22}", "task"));
        for l in levels {
            s.push_str(&format!(" {:>6}", format!("L{l}")));
        }
        s.push_str(&format!(
            " {:>6} {:>5} {:>7}  labels\n",
            "total", "dups", "gaveup"
        ));
        for (task, per) in &self.written {
            s.push_str(&format!("{task:<22}"));
            for l in levels {
                s.push_str(&format!(" {:>6}", per.get(l).copied().unwrap_or(0)));
            }
            let labels = self.labels.get(task).map_or(String::new(), |m| {
                m.iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            let gave_up = self.no_problem.get(task).copied().unwrap_or(0)
                + self.proof_too_large.get(task).copied().unwrap_or(0);
            s.push_str(&format!(
                " {:>6} {:>5} {:>7}  {labels}\n",
                per.values().sum::<usize>(),
                self.duplicates.get(task).copied().unwrap_or(0),
                gave_up
            ));
        }
        let (m, n) = self.corruption_predictions;
        s.push_str(&format!(
            "corruptions detected with the predicted error type and line: {m}/{n}\n"
        ));
        let mean: Vec<String> = self
            .mean_proof_lines
            .iter()
            .map(|(l, v)| format!("L{l} {v:.1}"))
            .collect();
        s.push_str(&format!(
            "mean reference-proof lines: {}\n",
            mean.join(", ")
        ));
        s
    }
}

impl Pl2Summary {
    /// The PL2 tables as text: per family and size, instances written per
    /// task, decoys, CNF clauses and refutation steps (min/mean/max), then
    /// the candidates each filter rejected.
    pub fn render(&self) -> String {
        let mut s = String::from(
            "\nPL2                      size  check  write decoys  clauses min/mean/max  refutation min/mean/max\n",
        );
        for ((family, size), c) in &self.cells {
            let w = |t: Pl2Task| c.written.get(t.config()).copied().unwrap_or(0);
            let n = c.written.values().sum::<usize>().max(1);
            let (lo, hi, sum) = c.cnf_clauses;
            let (rlo, rhi, rsum, rn) = c.refutation_steps;
            s.push_str(&format!(
                "{family:<24} {size:>4} {:>6} {:>6} {:>6}  {:>20}  {:>23}\n",
                w(Pl2Task::ProofChecking),
                w(Pl2Task::ProofWriting),
                c.decoys,
                format!("{lo}/{:.1}/{hi}", sum as f64 / n as f64),
                if rn == 0 {
                    "-".to_string()
                } else {
                    format!("{rlo}/{:.1}/{rhi}", rsum as f64 / rn as f64)
                },
            ));
        }
        s.push_str("\nPL2 candidates rejected   size");
        for r in Reject::ALL {
            s.push_str(&format!(" {:>w$}", r.name(), w = r.name().len().max(5)));
        }
        s.push_str(&format!(" {:>10}\n", "duplicate"));
        for ((family, size), c) in &self.cells {
            s.push_str(&format!("{family:<24} {size:>5}"));
            for r in Reject::ALL {
                s.push_str(&format!(
                    " {:>w$}",
                    c.rejected.get(r.name()).copied().unwrap_or(0),
                    w = r.name().len().max(5)
                ));
            }
            s.push_str(&format!(" {:>10}\n", c.duplicates));
        }
        for (task, labels) in &self.labels {
            let l: Vec<String> = labels.iter().map(|(k, v)| format!("{k} {v}")).collect();
            s.push_str(&format!("{task}: {}\n", l.join(", ")));
        }
        let (m, n) = self.corruption_predictions;
        s.push_str(&format!(
            "PL2 corruptions detected with the predicted error type: {m}/{n}\n"
        ));
        s
    }
}
