//! The domain run (`saturate --domain SET`) in two stages. Phase 1, per
//! axiom file (rayon over files): saturate, rank the derived clauses, look
//! for a finite model of the axioms, and keep the result as a
//! content-addressed artifact under `<out>/artifacts` (`pipeline::artifact`);
//! a file whose artifact is there is read, not saturated, so reruns, other
//! seeds and counts, and every shard share phase 1. Phase 2: generate the
//! three TPTP task families at every level (rayon over instance slots, one
//! `Prover` per worker), certify every label, and hand the records in slot
//! order over a bounded crossbeam channel to one writer thread that owns the
//! dataset writer. `--stage saturate|generate` runs one phase (a cluster
//! runs phase 1 once per file: `--stage saturate --shard i/N` takes every
//! N-th file). Output: `<out>/<NAME>/saturation/` (derivation dumps linked
//! from the artifacts and `summary.json`) and `<out>/<NAME>/<NAME>-tasks/`
//! (the dataset: Parquet configs, card, manifest), where NAME is the domains
//! joined by `-` (and the shard, if any).
//!
//! Phase 2 is the shared generation loop (`pipeline::generate`) over the
//! TPTP generator (`tasks::tptp::family`): determinism, sharding (whole
//! cells), deduplication (per cell) and the writer thread are the loop's.
//!
//! Robustness: the output folder is checked before any saturation; slots
//! are generated lazily (bounded memory whatever `count`); one instance never
//! ends the run: a prover budget spent, a certificate the checker refuses
//! (drained from `Prover::take_defects` after every attempt) or a generator
//! panic (caught per attempt; the worker's prover is rebuilt) rejects the
//! attempt with its reason counted. Refused certificates and panics are bugs:
//! they go to `<dataset>/rejects/rejects.jsonl` and make the run exit
//! [`super::EXIT_DEFECT`] after writing the dataset, or at once with no
//! dataset under `strict`. `<dataset>/summary.json` holds the deterministic
//! counts; timings go to stderr and `saturation/summary.json` only.

use super::artifact::{self, Saturated};
use super::generate::{LoopSettings, RunSummary, dataset_error, dataset_spec, generate};
use super::library::{self, Survey};
use super::{AxiomSource, Progress, RunError, SaturationReport, Skipped, write_atomic};
use crate::config::Config;
use crate::dataset::{DatasetWriter, Provenance, remove_stale_temporaries};
use crate::interest::Ranking;
use crate::tasks::tptp::family::TptpGenerator;
use crate::tasks::tptp::{Family, GENERATOR_VERSION, Graph, TasksConfig};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which stages a domain run does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// Both: saturate the files that have no artifact yet (reusing those
    /// that have one), then generate.
    #[default]
    All,
    /// Phase 1 only: write the artifact of every axiom file that has none
    /// (with `--shard i/N`: of the files whose ordinal is `i - 1` modulo
    /// N). No dataset.
    Saturate,
    /// Phase 2 only: generate from the artifacts, which must all be there;
    /// nothing is saturated.
    Generate,
}

impl Stage {
    /// The stage named `all`, `saturate` or `generate`.
    pub fn parse(name: &str) -> Result<Stage, RunError> {
        match name {
            "all" => Ok(Stage::All),
            "saturate" => Ok(Stage::Saturate),
            "generate" => Ok(Stage::Generate),
            other => Err(RunError::Input(format!(
                "unknown stage {:?}; expected \"all\", \"saturate\" or \"generate\"",
                crate::tptp::excerpt(other, 40)
            ))),
        }
    }

    /// The stage's name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::All => "all",
            Stage::Saturate => "saturate",
            Stage::Generate => "generate",
        }
    }
}

/// Settings of one domain run.
#[derive(Clone, Debug)]
pub struct TptpRun {
    /// Domains (three-letter codes).
    pub domains: Vec<String>,
    /// TPTP root, if the axioms come from a TPTP library.
    pub tptp: Option<PathBuf>,
    /// The full configuration (seed, saturation, prover, tasks).
    pub config: Config,
    /// Output root (artifacts go to `<out>/artifacts`).
    pub out: PathBuf,
    /// This run is shard `.0` (1-based) of `.1`: of the generation units,
    /// or under [`Stage::Saturate`] of the axiom files.
    pub shard: Option<(u64, u64)>,
    /// Show progress and log lines.
    pub progress: bool,
    /// End the run at the first certificate failure or generator panic,
    /// with no dataset.
    pub strict: bool,
    /// Fail the run, with no dataset, when a cell comes up short.
    pub require_full: bool,
    /// The stages to run.
    pub stage: Stage,
    /// Take each problem file of the domains (`Problems/<DOMAIN>/*.p`) as
    /// a theory, its conjecture left out, rather than the axiom files.
    pub problems: bool,
}

/// What a domain run did: the saturation stage's reports and the
/// generation loop's summary (whose serialisation is `dataset/summary.json`).
#[derive(Clone, Debug, Default)]
pub struct TptpSummary {
    /// Per file saturation reports (in `saturation/summary.json`).
    pub saturation: Vec<SaturationReport>,
    /// Per file (same order): the artifact folder, and whether this run
    /// found it there rather than saturating.
    pub artifacts: Vec<(PathBuf, bool)>,
    /// The generation loop's summary (empty under [`Stage::Saturate`]).
    pub run: RunSummary,
    /// Wall-clock seconds of phase 1 (saturation, ranking and model search,
    /// or reading the artifacts).
    pub saturation_seconds: f64,
    /// The process's peak resident size (KiB) at the end of phase 1, 0 where
    /// unknown (measurement).
    pub saturation_peak_rss_kib: u64,
    /// Where the dataset is (empty under [`Stage::Saturate`]).
    pub dataset: PathBuf,
}

impl TptpSummary {
    /// Bugs found: refused certificates plus generator panics.
    pub fn bugs(&self) -> u64 {
        self.run.bugs_found()
    }

    /// Files this run saturated (the others came from artifacts).
    pub fn saturated_here(&self) -> usize {
        self.artifacts.iter().filter(|a| !a.1).count()
    }

    /// The end-of-run summary table.
    pub fn render(&self) -> String {
        let mut s = if self.dataset.as_os_str().is_empty() {
            String::new()
        } else {
            self.run.render()
        };
        if self.bugs() > 0 {
            s.push_str(&format!(
                "rejects: {}/rejects/rejects.jsonl\n",
                self.dataset.display()
            ));
        }
        s.push_str(&format!(
            "artifacts: {} saturated here, {} reused\n",
            self.saturated_here(),
            self.artifacts.len() - self.saturated_here()
        ));
        s.push_str(&format!(
            "time: saturation {:.1}s, generation+proving {:.1}s\n",
            self.saturation_seconds, self.run.generation_seconds
        ));
        s
    }
}

/// Phase 1 of one axiom file from its loaded inputs: saturate, rank, look
/// for a finite model of the axioms.
pub(super) fn saturate_file(
    src: &AxiomSource,
    bank: crate::logic::TermBank,
    inputs: crate::saturation::Inputs,
    cfg: &Config,
) -> Saturated {
    let clauses: Vec<Vec<crate::logic::Literal>> = inputs.iter().map(|c| c.0.clone()).collect();
    let progress = Progress::silent();
    let deepen = &cfg.saturation.deepen;
    let targets: Vec<[u32; 2]> = std::iter::once([deepen.depth, deepen.nodes])
        .chain(deepen.targets.iter().copied())
        .collect();
    let supply = |sat: &crate::saturation::Saturator| {
        let ranking = crate::interest::rank(&sat.bank, &sat.store);
        targets
            .iter()
            .map(|&[depth, nodes]| {
                let pool = || {
                    ranking
                        .ranked
                        .iter()
                        .take(deepen.pool as usize)
                        .map(|c| c.id)
                };
                let count = |nodes: u32| {
                    crate::tasks::tptp::recon::proof_graph_supply(
                        &sat.store,
                        pool(),
                        depth,
                        nodes as usize,
                    ) as u64
                };
                // Read only where it can decide: a short target, the rule on.
                let supply = count(nodes);
                let short = supply < u64::from(deepen.theorems);
                let near = if short && deepen.near > 0 {
                    count(super::near_nodes(nodes, deepen.near))
                } else {
                    0
                };
                [supply, near]
            })
            .collect()
    };
    let super::DeepSaturation {
        bank,
        store,
        empty,
        mut report,
    } = super::saturate_deepened(
        &src.display,
        bank,
        inputs,
        &cfg.saturation,
        &progress,
        &supply,
    );
    if let Some(d) = &report.deepened {
        let further: String = deepen
            .targets
            .iter()
            .zip(&d.targets)
            .map(|([depth, nodes], [b, a])| {
                format!(", of depth {depth} and {nodes} clauses {b} -> {a}")
            })
            .collect();
        tracing::info!(
            "{}: depth on demand: {} -> {} processed (tried {}), theorems with proof graphs of depth {} and {} clauses {} -> {}{further} ({})",
            src.name,
            d.from_processed,
            d.to_processed,
            d.tried_processed,
            deepen.depth,
            deepen.nodes,
            d.supply_before,
            d.supply_after,
            d.stopped
        );
    }
    if empty.is_some() {
        return Saturated {
            report,
            bank,
            store,
            ranking: Ranking::default(),
            consistent: false,
            inconsistent: true,
        };
    }
    // A finite model of the axiom file makes every premise set drawn from
    // its graph consistent at once (small sizes, the quick budgets).
    let t = Instant::now();
    let lits: Vec<&[crate::logic::Literal]> = clauses.iter().map(|c| c.as_slice()).collect();
    let mut finder = crate::prover::mace::ModelFinder::new(
        cfg.prover.quick_ground_clauses * 10,
        cfg.prover.quick_sat_conflicts * 10,
    );
    let consistent = finder
        .search(&bank, &lits, 1..=cfg.prover.quick_model_size.max(4))
        .is_some();
    tracing::debug!(
        "{}: model search {:.2}s",
        src.name,
        t.elapsed().as_secs_f64()
    );
    let ranking = crate::interest::rank(&bank, &store);
    report.theorems = Some(super::TheoremStats::of(&store, &ranking, &report.rounds));
    Saturated {
        report,
        bank,
        store,
        ranking,
        consistent,
        inconsistent: false,
    }
}

/// What phase 1 hands phase 2 for one file: where its artifact is and what
/// the card says of it. The graph itself is not kept: phase 2 reads it
/// again, one domain at a time.
struct FileDone {
    report: SaturationReport,
    dir: PathBuf,
    key: String,
    reused: bool,
    /// Theorem candidates and whether the axioms have a finite model, for
    /// a file that gives tasks (not under [`Stage::Saturate`], nor for
    /// inconsistent axioms).
    graph: Option<GraphInfo>,
}

/// The card's line of one file's graph.
#[derive(Clone)]
struct GraphInfo {
    candidates: usize,
    consistent: bool,
    /// Per premise depth d (index d - 1), the theorems a level of depth d
    /// may draw ([`Graph::theorems_by_depth`]).
    by_depth: Vec<u64>,
}

/// Phase 2's reader of a domain's graphs: every file of the domain that
/// gives tasks, in the run's file order, read back from its artifact.
/// The generation loop's settings of a run: its jobs, shard, strictness,
/// progress and dataset options, and the row sink of a streamed run.
fn loop_settings(
    cfg: &Config,
    run: &TptpRun,
    stream: Option<super::generate::RowSink>,
) -> LoopSettings {
    LoopSettings {
        jobs: cfg.jobs,
        shard: run.shard,
        strict: run.strict,
        require_full: run.require_full,
        progress: run.progress,
        dataset: cfg.dataset.clone(),
        stream,
        ..LoopSettings::default()
    }
}

fn graph_loader(
    files: Vec<(AxiomSource, PathBuf, String)>,
    cfg: &Config,
) -> crate::tasks::tptp::family::GraphLoader {
    let cfg = cfg.clone();
    Box::new(move |domain: &str| {
        let mut graphs = Vec::new();
        for (src, dir, key) in files.iter().filter(|f| f.0.domain == domain) {
            let t = Instant::now();
            let s = artifact::read(dir, key)?;
            graphs.push(
                Graph::new(
                    s.bank,
                    s.store,
                    s.ranking,
                    &src.domain,
                    &src.name,
                    cfg.tasks.get::<TasksConfig>(),
                    s.consistent,
                )
                .with_rounds(&s.report.rounds),
            );
            tracing::debug!(
                "{}: graph read back in {:.2}s",
                src.name,
                t.elapsed().as_secs_f64()
            );
        }
        Ok(graphs)
    })
}

/// Phase 1 of one file: its artifact, read when there (and the stage needs
/// it), written when not (unless the stage is [`Stage::Generate`], where a
/// missing or unreadable artifact is an input error).
fn file_stage(src: &AxiomSource, run: &TptpRun, root: &Path) -> Result<FileDone, RunError> {
    let cfg = &run.config;
    let (bank, inputs) = super::load_theory(src, run.tptp.as_deref(), run.problems)?;
    let key = artifact::key(&bank, &inputs, cfg);
    let dir = artifact::folder(root, &src.name, &key);
    let mut found = None;
    if artifact::exists(&dir) {
        if run.stage == Stage::Saturate {
            // Nothing to do; the report is all the table needs.
            if let Ok(report) = artifact::read_report(&dir, &key) {
                return Ok(FileDone {
                    report,
                    dir,
                    key,
                    reused: true,
                    graph: None,
                });
            }
        }
        match artifact::read(&dir, &key) {
            Ok(s) => found = Some(s),
            Err(e) if run.stage == Stage::Generate => return Err(RunError::Input(e)),
            Err(e) => {
                tracing::warn!("{e}; saturating {} again", src.name);
                std::fs::remove_dir_all(&dir)
                    .map_err(|e| RunError::Runtime(format!("{}: {e}", dir.display())))?;
            }
        }
    } else if run.stage == Stage::Generate {
        return Err(RunError::Input(format!(
            "{}: no saturation artifact {} for this file, engine build and [saturation]/[prover] configuration; run `--stage saturate` (same config and --out) first, or drop `--stage generate`",
            src.name,
            dir.display()
        )));
    }
    let reused = found.is_some();
    let s = match found {
        Some(s) => s,
        None => {
            let cpu = crate::prover::cost::now();
            let mut s = saturate_file(src, bank, inputs, cfg);
            s.report.cpu_seconds = crate::prover::cost::secs(cpu);
            artifact::write(&dir, &key, &s)?;
            s
        }
    };
    let mut report = s.report.clone();
    // The path this run reads the file from (the artifact may have been
    // written from another mount of the same contents).
    report.source = src.display.clone();
    if run.progress {
        tracing::info!(
            "{}: {} ({} processed, {} kept){}",
            src.name,
            report.status.name(),
            report.processed,
            report.kept,
            if reused {
                format!(", from the artifact (saturated in {:.1}s)", report.seconds)
            } else {
                format!(" in {:.1}s", report.seconds)
            }
        );
    }
    if run.stage == Stage::Saturate || s.inconsistent {
        if s.inconsistent && run.stage != Stage::Saturate {
            tracing::warn!(
                "{}: the axioms are inconsistent; no tasks from it",
                src.name
            );
        }
        return Ok(FileDone {
            report,
            dir,
            key,
            reused,
            graph: None,
        });
    }
    // The card's line only: phase 2 builds the graph when it needs it.
    let (candidates, by_depth) = crate::tasks::tptp::pool_depths(
        &s.bank,
        &s.store,
        &s.ranking,
        cfg.tasks.get::<TasksConfig>(),
    );
    let graph = GraphInfo {
        candidates,
        consistent: s.consistent,
        by_depth,
    };
    if run.progress {
        tracing::info!(
            "{}: {} theorem candidates (by premise depth: {}), axioms {}",
            src.name,
            graph.candidates,
            depth_counts(&graph.by_depth),
            if graph.consistent {
                "have a finite model"
            } else {
                "not shown consistent (checked per instance)"
            }
        );
    }
    Ok(FileDone {
        report,
        dir,
        key,
        reused,
        graph: Some(graph),
    })
}

/// The domains of a run: those given, else the configuration's
/// `tasks.tptp.domains` (empty when neither names one).
pub fn run_domains(cfg: &Config, given: &[String]) -> Vec<String> {
    if given.is_empty() {
        cfg.tasks.get::<TasksConfig>().domains.clone()
    } else {
        given.to_vec()
    }
}

/// The dataset directory name of a run: its domains joined by `-` (`ALL`
/// for a run over every domain), `-problems` for a run over problem files,
/// and the shard.
pub fn run_name(domains: &[String], problems: bool, shard: Option<(u64, u64)>) -> String {
    let mut name = domains.join("-");
    if problems {
        name.push_str("-problems");
    }
    if let Some((i, n)) = shard {
        name.push_str(&format!("-shard-{i}-of-{n}"));
    }
    name
}

/// The source files of a run's domains, as listed (before
/// [`library::survey`] reads them).
#[derive(Clone, Debug)]
pub struct RunSources {
    /// The files, in run order (domain by domain, each sorted by name).
    pub sources: Vec<AxiomSource>,
    /// The domain codes as written in the output (upper case), in order.
    pub domains: Vec<String>,
    /// The name the run's folders take ([`run_name`] of this, without the
    /// shard): the codes, or `ALL`.
    pub label: Vec<String>,
    /// Files the listing left out (other languages).
    pub skipped: Vec<Skipped>,
    /// The run covers a whole library (`ALL`, or problem files): a file
    /// the reader refuses is skipped with its reason, not an error.
    pub library: bool,
}

/// The source files of the domains: the axiom files, or under `problems`
/// the problem files; `ALL` (alone) names every domain of the source
/// ([`super::all_domains`]). A domain given twice (in any case, e.g.
/// `SET,set`) is a usage error: it would saturate and generate every file
/// twice under the same names.
pub fn run_sources(
    domains: &[String],
    tptp: Option<&Path>,
    problems: bool,
) -> Result<RunSources, RunError> {
    let is_all = |d: &String| d.trim().eq_ignore_ascii_case(super::ALL_DOMAINS);
    let all = domains.iter().any(is_all);
    if all && domains.len() > 1 {
        return Err(RunError::Input(format!(
            "--domain: {} names every domain; give it alone, not with others ({})",
            super::ALL_DOMAINS,
            domains.join(",")
        )));
    }
    let given = if all {
        super::all_domains(tptp, problems)?
    } else {
        domains.to_vec()
    };
    let mut out = RunSources {
        sources: Vec::new(),
        domains: Vec::new(),
        label: Vec::new(),
        skipped: Vec::new(),
        library: all || problems,
    };
    for d in &given {
        let (s, skipped) = if problems {
            super::problem_sources(d, tptp)?
        } else {
            super::sources::domain_sources_skipping(d, tptp)?
        };
        let code = d.trim().to_ascii_uppercase();
        if out.domains.contains(&code) {
            return Err(RunError::Input(format!(
                "--domain: {code} is given twice ({}); give each domain once",
                domains.join(",")
            )));
        }
        if s.is_empty() && !all {
            return Err(RunError::Input(format!(
                "--domain {code}: no CNF or FOF problem file in {} ({} left out: {})",
                tptp.map_or(String::new(), |t| t
                    .join("Problems")
                    .join(&code)
                    .display()
                    .to_string()),
                skipped.len(),
                skipped
                    .iter()
                    .take(5)
                    .map(|s| format!("{}: {}", s.name, s.reason))
                    .collect::<Vec<_>>()
                    .join("; ")
            )));
        }
        out.domains.push(code);
        out.sources.extend(s);
        out.skipped.extend(skipped);
    }
    // Rows, artifacts, dumps and the card name a file by its stem.
    let mut names: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for src in &out.sources {
        if let Some(other) = names.insert(&src.name, &src.display) {
            return Err(RunError::Input(format!(
                "two source files are named {}: {other} and {}; a run names rows, artifacts and card lines by the file's stem, so stems must be unique",
                src.name, src.display
            )));
        }
    }
    out.label = if all {
        vec![super::ALL_DOMAINS.to_string()]
    } else {
        out.domains.clone()
    };
    Ok(out)
}

/// [`run_sources`] then [`library::survey`]: the files that give a theory
/// of their own, and the domains left with at least one (a domain all of
/// whose files were left out is dropped, with a warning; none left is an
/// input error).
fn surveyed(run: &TptpRun, pool: &rayon::ThreadPool) -> Result<(RunSources, Survey), RunError> {
    let mut listed = run_sources(&run.domains, run.tptp.as_deref(), run.problems)?;
    let sources = std::mem::take(&mut listed.sources);
    let mut survey = library::survey(
        sources,
        run.tptp.as_deref(),
        run.problems,
        listed.library,
        pool,
    )?;
    let mut skipped = std::mem::take(&mut listed.skipped);
    skipped.append(&mut survey.skipped);
    survey.skipped = skipped;
    for s in &survey.skipped {
        tracing::info!("{}: left out: {}", s.name, s.reason);
    }
    let before = listed.domains.len();
    listed
        .domains
        .retain(|d| survey.sources.iter().any(|s| &s.domain == d));
    if listed.domains.len() < before {
        tracing::warn!(
            "{} domain(s) have no file left to saturate and are dropped from the run",
            before - listed.domains.len()
        );
    }
    if survey.sources.is_empty() {
        return Err(RunError::Input(format!(
            "no source file is left to saturate: all {} were left out (first: {})",
            survey.skipped.len(),
            survey
                .skipped
                .first()
                .map_or(String::new(), |s| format!("{}: {}", s.name, s.reason))
        )));
    }
    Ok((listed, survey))
}

/// Renders per-depth theorem counts as `d1 d2 ...` (`-` for none).
fn depth_counts(by_depth: &[u64]) -> String {
    if by_depth.is_empty() {
        return "-".into();
    }
    by_depth
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a domain run would do, for a scheduler (the Python package's Ray
/// driver): its axiom files in run order (`--stage saturate --shard i/N`
/// deals these out) and its generation units (`--shard i/N` of phase 2
/// deals these out, so N may be at most this many).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunPlan {
    /// The run's name (`<out>/<name>/<name>-tasks` holds the unsharded
    /// dataset).
    pub name: String,
    /// Axiom file stems in run order.
    pub files: Vec<String>,
    /// Generation units.
    pub units: u64,
}

/// `run` with a depth-on-demand target (`[saturation.deepen] targets`) for
/// each reconstruction level it asks for that is deeper than
/// `[saturation.deepen] depth`: its depth and its clause count `k`
/// (`[tasks.tptp.reconstruction]`). A levels 1-4 run at the defaults adds
/// none, so its artifacts and rows are those of before; with levels 5-8,
/// GEO went from 0 to 50 rows at reconstruction levels 6 and 7
/// (`docs/bench/depth.md`). The targets are part of the saturation
/// configuration, hence of the artifact key and the manifest.
pub fn with_deep_targets(run: &TptpRun) -> TptpRun {
    let mut run = run.clone();
    let tasks = run.config.tasks.get::<TasksConfig>();
    let d = &run.config.saturation.deepen;
    if !d.on() || !tasks.families.contains(&Family::Reconstruction) {
        return run;
    }
    let mut targets: Vec<[u32; 2]> = Vec::new();
    for &level in &tasks.levels {
        let (depth, k) = tasks.params(Family::Reconstruction, level);
        let t = [depth, k];
        if depth > d.depth && !d.targets.contains(&t) && !targets.contains(&t) {
            targets.push(t);
        }
    }
    targets.sort_unstable();
    run.config.saturation.deepen.targets.extend(targets);
    run
}

/// The [`RunPlan`] of a run (its `stage` and `shard` are ignored).
pub fn plan(run: &TptpRun) -> Result<RunPlan, RunError> {
    let run = &with_deep_targets(run);
    let tasks = run.config.tasks.get::<TasksConfig>();
    tasks.validate().map_err(|e| RunError::Input(e.text()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.config.jobs)
        .build()
        .map_err(|e| RunError::Runtime(format!("thread pool: {e}")))?;
    let (listed, survey) = surveyed(run, &pool)?;
    let domains = listed.domains;
    let sources = survey.sources;
    let generator = TptpGenerator::new(
        tasks.clone(),
        run.config.saturation.clone(),
        run.config.seed,
        domains.clone(),
        serde_json::Value::Null,
    );
    Ok(RunPlan {
        name: run_name(&listed.label, run.problems, None),
        files: sources.into_iter().map(|s| s.name).collect(),
        units: super::generate::unit_count(&[&generator]),
    })
}

/// Runs the stages of `run.stage` for the domains: phase 1 writes (or
/// finds) one artifact per axiom file under `<out>/artifacts`; phase 2
/// generates the dataset from them.
pub fn run_tptp(run: &TptpRun) -> Result<TptpSummary, RunError> {
    run_tptp_into(run, None)
}

/// [`run_tptp`], with phase 2's rows going to `sink` rather than a
/// dataset when one is given: phase 1 runs (or reuses its artifacts under
/// `<out>/artifacts`) as always, and nothing else is written (no dataset,
/// no `saturation/` view); the summary's `dataset` is then empty.
pub fn run_tptp_into(
    run: &TptpRun,
    sink: Option<&super::generate::RowSink>,
) -> Result<TptpSummary, RunError> {
    let run = &with_deep_targets(run);
    let cfg = &run.config;
    let tasks = cfg.tasks.get::<TasksConfig>();
    tasks.validate().map_err(|e| RunError::Input(e.text()))?;
    super::generate::check_shard(run.shard)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.jobs)
        .build()
        .map_err(|e| RunError::Runtime(format!("thread pool: {e}")))?;
    let (listed, survey) = surveyed(run, &pool)?;
    let domains = listed.domains.clone();
    let skipped = survey.skipped;
    let mut sources = survey.sources;
    let artifacts_root = run.out.join("artifacts");
    if run.stage == Stage::Saturate {
        if let Some((i, n)) = run.shard {
            let all = sources.len();
            sources = sources
                .into_iter()
                .enumerate()
                .filter(|(k, _)| *k as u64 % n == i - 1)
                .map(|x| x.1)
                .collect();
            if sources.is_empty() {
                return Err(RunError::Input(format!(
                    "--stage saturate --shard {i}/{n}: the run has {all} {} file(s), so shard {i} of {n} holds none; use at most {all} shards",
                    if run.problems { "problem" } else { "axiom" }
                )));
            }
        }
    }
    let name = run_name(&listed.label, run.problems, run.shard);
    let root = run.out.join(&name);
    let sat_dir = root.join("saturation");
    // Named after what it holds, so two domains' datasets never share a
    // folder name (which caches such as Hugging Face's key on).
    let data_dir = root.join(format!("{name}-tasks"));
    // No output may be, hold, or lie inside the TPTP library read.
    if let Some(t) = &run.tptp {
        for out in [&data_dir, &sat_dir, &artifacts_root] {
            super::check_output_dir(out, [("the TPTP library", t.as_path())])?;
        }
    }
    // What the output depends on: `jobs` and the other families' sections
    // are left out.
    let config_json = serde_json::json!({
        "seed": cfg.seed,
        "saturation": cfg.saturation,
        "prover": cfg.prover,
        "tasks": { "tptp": tasks },
    });
    let mut generator = TptpGenerator::new(
        tasks.clone(),
        cfg.saturation.clone(),
        cfg.seed,
        domains.clone(),
        {
            let mut m = serde_json::json!({
                "generator": GENERATOR_VERSION,
                "domains": domains,
                "tptp": run.tptp.as_ref().map(|p| p.display().to_string()),
                "config": config_json,
            });
            // Only a run over problem files says so, so the manifests of
            // axiom-file runs read as before.
            if run.problems {
                m["sources"] = "problems".into();
            }
            m
        },
    );
    // Rows drawn from TPTP library files carry the TPTP's terms.
    let provenance = if sources.iter().any(|s| s.path.is_some()) {
        Provenance::Tptp
    } else {
        Provenance::Original
    };
    // The output folder is checked (and stale temporaries removed) before
    // any saturation starts.
    let writer = if run.stage == Stage::Saturate || sink.is_some() {
        None
    } else {
        let spec = dataset_spec(
            &format!("saturate TPTP tasks: {}", domains.join(", ")),
            cfg.seed,
            &[&generator],
            run.shard,
            &cfg.dataset,
            tasks.max_rows_per_shard,
            provenance,
        )?;
        let writer = DatasetWriter::create(&data_dir, spec).map_err(dataset_error)?;
        remove_stale_temporaries(&sat_dir, ".summary.json.");
        for src in &sources {
            remove_stale_temporaries(&sat_dir, &format!(".{}.dag.zst.", src.name));
        }
        Some(writer)
    };
    // Phase 1: one artifact per file, files in parallel.
    if run.stage != Stage::Generate {
        artifact::remove_stale(&artifacts_root);
    }
    let t0 = Instant::now();
    if run.progress {
        tracing::info!(
            "{name}: phase 1 over {} {} file(s) from {} ({} left out; max_processed = {:?}; artifacts in {})",
            sources.len(),
            if run.problems { "problem" } else { "axiom" },
            run.tptp
                .as_ref()
                .map_or("the embedded axioms".to_string(), |p| p
                    .display()
                    .to_string()),
            skipped.len(),
            cfg.saturation.limits.max_processed,
            artifacts_root.display()
        );
    }
    let done: Vec<Result<FileDone, RunError>> = pool.install(|| {
        sources
            .par_iter()
            .map(|s| file_stage(s, run, &artifacts_root))
            .collect()
    });
    let mut reports = Vec::new();
    let mut artifacts = Vec::new();
    let mut graphs = Vec::new();
    let mut files = Vec::new();
    for (src, d) in sources.iter().zip(done) {
        let d = match d {
            Ok(d) => d,
            Err(e) => {
                // Leave no empty run folder behind (the writer made it).
                drop(writer);
                let _ = std::fs::remove_dir(&root);
                return Err(e);
            }
        };
        if let Some(info) = d.graph {
            graphs.push((src.name.clone(), info));
            files.push((src.clone(), d.dir.clone(), d.key));
        }
        reports.push(d.report);
        artifacts.push((d.dir, d.reused));
    }
    let saturation_seconds = t0.elapsed().as_secs_f64();
    let saturation_peak_rss_kib = super::heap::peak_rss_kib();
    if run.progress {
        tracing::info!(
            "{name}: phase 1 done in {saturation_seconds:.1}s (peak RSS {} MiB)",
            saturation_peak_rss_kib / 1024
        );
    }
    if let Some(sink) = sink
        && run.stage != Stage::Saturate
    {
        let card = card_text(&domains, &sources, &reports, &graphs, &skipped, run);
        generator.set_loader(graph_loader(files, cfg), card);
        let settings = loop_settings(cfg, run, Some(sink.clone()));
        let summary = super::generate::stream(&[&generator], &settings)?;
        return Ok(TptpSummary {
            saturation: reports,
            artifacts,
            run: summary,
            saturation_seconds,
            saturation_peak_rss_kib,
            dataset: PathBuf::new(),
        });
    }
    let Some(writer) = writer else {
        return Ok(TptpSummary {
            saturation: reports,
            artifacts,
            run: RunSummary::default(),
            saturation_seconds,
            saturation_peak_rss_kib,
            dataset: PathBuf::new(),
        });
    };
    // The run's view of its saturations: every file's dump (linked from
    // its artifact) and the reports.
    std::fs::create_dir_all(&sat_dir)
        .map_err(|e| RunError::Runtime(format!("{}: {e}", sat_dir.display())))?;
    for (src, (dir, _)) in sources.iter().zip(&artifacts) {
        link_or_copy(
            &dir.join(artifact::DUMP_FILE),
            &sat_dir.join(format!("{}.dag.zst", src.name)),
        )?;
    }
    // The same layout as `derive --stats-json`: timings in a `timing` group.
    let report_json: Vec<serde_json::Value> = reports.iter().map(|r| r.stats_json(true)).collect();
    write_atomic(&sat_dir.join("summary.json"), |w| {
        serde_json::to_writer_pretty(&mut *w, &report_json)?;
        std::io::Write::write_all(w, b"\n")
    })?;
    // Phase 2: the generation loop over the graphs, read back from the
    // artifacts one domain at a time (cells are domain-major).
    let card = card_text(&domains, &sources, &reports, &graphs, &skipped, run);
    generator.set_loader(graph_loader(files, cfg), card);
    let summary = generate(writer, &[&generator], &loop_settings(cfg, run, None))?;
    Ok(TptpSummary {
        saturation: reports,
        artifacts,
        run: summary,
        saturation_seconds,
        saturation_peak_rss_kib,
        dataset: data_dir,
    })
}

/// Puts `from` at `to` as a hard link (the artifact and the run's view share
/// the bytes), or a copy where linking is refused (another file system);
/// whatever was at `to` is replaced.
fn link_or_copy(from: &Path, to: &Path) -> Result<(), RunError> {
    let err = |e: std::io::Error| RunError::Runtime(format!("{}: {e}", to.display()));
    match std::fs::remove_file(to) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(err(e)),
    }
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    std::fs::copy(from, to).map(|_| ()).map_err(err)
}

/// The dataset card's description: what the tasks are and where they came
/// from (one line per source file, `reports` in `sources` order), and the
/// files left out. The same for every shard of a run (it depends on phase
/// 1 only), so `saturate merge` keeps it.
fn card_text(
    domains: &[String],
    sources: &[AxiomSource],
    reports: &[SaturationReport],
    graphs: &[(String, GraphInfo)],
    skipped: &[Skipped],
    run: &TptpRun,
) -> String {
    let mut s = format!(
        "Reasoning tasks generated from the derivation graphs of superposition saturation runs over the {} {} of {} (seed {}). Every label is certified by the built-in prover and its certificate (refutations, finite countermodels) is stored in the `certificate` column; `saturate verify` re-checks them with an independent checker. The `metadata` column holds each instance in TPTP syntax (`premises`, `theorem`, `context_axioms`, `pool`, `clauses`) so that any other prover can re-check it, plus the interestingness components of the theorem and the prover's statistics.\n\n",
        if run.tptp.is_some() {
            "TPTP"
        } else {
            "embedded"
        },
        if run.problems {
            "problem files (each file's includes and own formulas, its conjecture left out)"
        } else {
            "axiom files"
        },
        domains.join(", "),
        run.config.seed
    );
    let lim = &run.config.tasks.get::<TasksConfig>().prover;
    s.push_str(&format!(
        "Every prover call behind a label ran one fixed strategy: largest-negative literal selection and symbol-count clause weight for at most {} given clauses{}, then a finite-model search up to domain size {}. The strategy schedule of `saturate prove` (`[prover] schedule`) is not used in task generation: on generation's calls a second slice decided more calls but no more rows, for more CPU.\n\n",
        lim.max_processed,
        if lim.unfold_definitions {
            ", with equational definitions unfolded first"
        } else {
            ""
        },
        lim.max_model_size
    ));
    s.push_str(&format!(
        "Per source file: its saturation, its theorem candidates, and how many of them a level of premise depth d can draw (those whose premises at distance d exist; d = 1, 2, ... in order). The rows each file gave are in the Yields section. Rows are deduplicated within each cell (config, domain, level) across all the domain's files, up to variable renaming; files whose theory repeats an earlier file's (up to variable renaming and clause order; symbols are not renamed) are left out.\n\n| {} | status | processed | kept | theorem candidates | theorems by premise depth | finite model of the axioms |\n|---|---|---|---|---|---|---|\n",
        if run.problems { "problem file" } else { "axiom file" }
    ));
    let graphs: std::collections::HashMap<&str, &GraphInfo> =
        graphs.iter().map(|g| (g.0.as_str(), &g.1)).collect();
    for (src, r) in sources.iter().zip(reports) {
        let g = graphs.get(src.name.as_str());
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            src.name,
            r.status.name(),
            r.processed,
            r.kept,
            g.map_or(0, |g| g.candidates),
            g.map_or("-".to_string(), |g| depth_counts(&g.by_depth)),
            g.is_some_and(|g| g.consistent)
        ));
    }
    let deepened: Vec<(&AxiomSource, &crate::pipeline::Deepened)> = sources
        .iter()
        .zip(reports)
        .filter_map(|(src, r)| Some((src, r.deepened.as_ref()?)))
        .collect();
    if !deepened.is_empty() {
        let d = &run.config.saturation.deepen;
        let further: String = d
            .targets
            .iter()
            .map(|[depth, nodes]| format!(", or of depth {depth} with {nodes}"))
            .collect();
        let near = if d.near == 0 {
            String::new()
        } else {
            format!(
                " and some short graph size had {} theorems near it (a graph of its depth with {}% of its clauses; `far` when none had)",
                super::deepen_gain(d),
                d.near
            )
        };
        s.push_str(&format!(
            "\nDepth on demand (`[saturation.deepen]`): files with fewer than {} of their {} best-ranked theorem candidates able to give a proof graph of depth {} with {} clauses{further} were saturated further, doubling the given-clause budget up to {} while the store stayed under {} records{near}; a deeper saturation with fewer than {} more such theorems (for each of those graph sizes) was dropped and the file saturated again at its budget (`no_gain`).\n\n| file | processed before | processed after | tried | such theorems before | after | stopped by |\n|---|---|---|---|---|---|---|\n",
            d.theorems,
            d.pool,
            d.depth,
            d.nodes,
            d.max_processed,
            d.max_kept,
            super::deepen_gain(d)
        ));
        for (src, x) in deepened {
            let (before, after) = x.targets.iter().fold(
                (x.supply_before.to_string(), x.supply_after.to_string()),
                |(b, a), [tb, ta]| (format!("{b} / {tb}"), format!("{a} / {ta}")),
            );
            s.push_str(&format!(
                "| {} | {} | {} | {} | {before} | {after} | {} |\n",
                src.name, x.from_processed, x.to_processed, x.tried_processed, x.stopped
            ));
        }
    }
    let left_out = library::skipped_markdown(skipped);
    if !left_out.is_empty() {
        s.push('\n');
        s.push_str(&left_out);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(levels: &[u8], families: &[Family], depth: u32) -> TptpRun {
        let mut config = Config::default();
        config.saturation.deepen.depth = depth;
        let t = config.tasks.get_mut::<TasksConfig>();
        t.levels = levels.to_vec();
        t.families = families.to_vec();
        TptpRun {
            domains: vec!["SET".into()],
            tptp: None,
            config,
            out: PathBuf::from("out"),
            shard: None,
            progress: false,
            strict: false,
            require_full: false,
            stage: Stage::All,
            problems: false,
        }
    }

    #[test]
    fn reconstruction_levels_past_the_deepen_depth_become_targets() {
        let all = &Family::DEFAULT[..];
        let deep = with_deep_targets(&run_with(&[8, 2, 6, 5, 6], all, 4));
        let t = deep.config.tasks.get::<TasksConfig>();
        let want: Vec<[u32; 2]> = [5u8, 6, 8]
            .iter()
            .map(|&l| {
                let (d, k) = t.params(Family::Reconstruction, l);
                [d, k]
            })
            .collect();
        assert_eq!(deep.config.saturation.deepen.targets, want);
        assert!(want.iter().all(|&[d, _]| d > 4));
        // Levels 1-4, no reconstruction, or depth on demand off: none, so
        // the configuration (and the artifact key) is the one given.
        for run in [
            run_with(&[1, 2, 3, 4], all, 4),
            run_with(&[8], &[Family::Entailment, Family::Selection], 4),
            run_with(&[8], all, 0),
        ] {
            let same = with_deep_targets(&run);
            assert!(same.config.saturation.deepen.targets.is_empty());
            assert_eq!(
                serde_json::to_string(&same.config.saturation).unwrap(),
                serde_json::to_string(&run.config.saturation).unwrap()
            );
        }
    }

    fn root(files: &[&str]) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        for path in files {
            let p = t.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "cnf(a, axiom, p(X)).\n").unwrap();
        }
        t
    }

    fn names(s: &RunSources) -> Vec<&str> {
        s.sources.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn run_sources_resolve_all_lists_and_problem_files() {
        let t = root(&[
            "Axioms/GRP001-0.ax",
            "Axioms/SET001+1.ax",
            "Problems/LCL/LCL002-1.p",
            "Problems/LCL/LCL001-1.p",
            "Problems/SET/SET001-1.p",
            "Problems/SET/SET002_1.p",
        ]);
        let root = Some(t.path());
        let all = run_sources(&["all".into()], root, false).unwrap();
        assert_eq!(all.domains, ["GRP", "SET"]);
        assert_eq!(all.label, ["ALL"]);
        assert!(all.library);
        assert_eq!(names(&all), ["GRP001-0", "SET001+1"]);
        assert_eq!(
            run_name(&all.label, false, Some((1, 2))),
            "ALL-shard-1-of-2"
        );
        let named = run_sources(&["set".into(), "GRP".into()], root, false).unwrap();
        assert_eq!(named.label, ["SET", "GRP"]);
        assert!(!named.library);
        let p = run_sources(&["ALL".into()], root, true).unwrap();
        assert_eq!(p.domains, ["LCL", "SET"]);
        assert_eq!(names(&p), ["LCL001-1", "LCL002-1", "SET001-1"]);
        assert_eq!(p.skipped.len(), 1);
        assert!(p.library);
        assert_eq!(run_name(&p.label, true, None), "ALL-problems");
        let e = run_sources(&["ALL".into(), "SET".into()], root, true).unwrap_err();
        assert!(e.to_string().contains("give it alone"), "{e}");
    }

    #[test]
    fn two_sources_with_one_stem_are_refused() {
        let t = root(&["Problems/LCL/LCL001-1.p", "Problems/SET/LCL001-1.p"]);
        let e = run_sources(&["ALL".into()], Some(t.path()), true).unwrap_err();
        assert!(
            e.to_string()
                .contains("two source files are named LCL001-1"),
            "{e}"
        );
        assert_eq!(e.exit_code(), 2);
    }
}
