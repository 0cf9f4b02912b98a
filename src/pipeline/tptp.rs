//! The domain run (`saturate --domain SET`): saturate every axiom file of the
//! domains (rayon over files), rank their theorems, then generate the three
//! TPTP task families at every level (rayon over instance slots, one
//! `Prover` per worker), certify every label, and hand the records in slot
//! order over a bounded crossbeam channel to one writer thread that owns the
//! dataset writer. Output: `<out>/<NAME>/saturation/` (derivation dumps and
//! `summary.json`) and `<out>/<NAME>/<NAME>-tasks/` (the dataset: Parquet
//! configs, card, manifest), where NAME is the domains joined by `-` (and
//! the shard, if any).
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

use super::generate::{LoopSettings, RunSummary, dataset_error, dataset_spec, generate};
use super::{
    AxiomSource, DagFormat, Progress, RunError, SaturationReport, domain_sources, load_source,
    write_atomic,
};
use crate::config::Config;
use crate::dataset::{DatasetWriter, Provenance, remove_stale_temporaries};
use crate::prover::InputClause;
use crate::tasks::tptp::family::TptpGenerator;
use crate::tasks::tptp::{GENERATOR_VERSION, Graph};
use rayon::prelude::*;
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
    /// Fail the run, with no dataset, when a cell comes up short.
    pub require_full: bool,
}

/// What a domain run did: the saturation stage's reports and the
/// generation loop's summary (whose serialisation is `dataset/summary.json`).
#[derive(Clone, Debug, Default)]
pub struct TptpSummary {
    /// Per file saturation reports (in `saturation/summary.json`).
    pub saturation: Vec<SaturationReport>,
    /// The generation loop's summary.
    pub run: RunSummary,
    /// Wall-clock seconds of the saturation phase (ranking included).
    pub saturation_seconds: f64,
    /// Where the dataset is.
    pub dataset: PathBuf,
}

impl TptpSummary {
    /// Bugs found: refused certificates plus generator panics.
    pub fn bugs(&self) -> u64 {
        self.run.bugs_found()
    }

    /// The end-of-run summary table.
    pub fn render(&self) -> String {
        let mut s = self.run.render();
        if self.bugs() > 0 {
            s.push_str(&format!(
                "rejects: {}/rejects/rejects.jsonl\n",
                self.dataset.display()
            ));
        }
        s.push_str(&format!(
            "time: saturation {:.1}s, generation+proving {:.1}s\n",
            self.saturation_seconds, self.run.generation_seconds
        ));
        s
    }
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
        &cfg.tasks.tptp,
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
    let tasks = &cfg.tasks.tptp;
    tasks.validate().map_err(RunError::Input)?;
    super::generate::check_shard(run.shard)?;
    let mut sources = Vec::new();
    let mut domains = Vec::new();
    for d in &run.domains {
        let s = domain_sources(d, run.tptp.as_deref())?;
        domains.push(s[0].domain.clone());
        sources.extend(s);
    }
    let name = run_name(&domains, run.shard);
    let root = run.out.join(&name);
    let sat_dir = root.join("saturation");
    // Named after what it holds, so two domains' datasets never share a
    // folder name (which caches such as Hugging Face's key on).
    let data_dir = root.join(format!("{name}-tasks"));
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
        serde_json::json!({
            "generator": GENERATOR_VERSION,
            "domains": domains,
            "tptp": run.tptp.as_ref().map(|p| p.display().to_string()),
            "config": config_json,
        }),
    );
    // Rows drawn from TPTP library files carry the TPTP's terms.
    let provenance = if sources.iter().any(|s| s.path.is_some()) {
        Provenance::Tptp
    } else {
        Provenance::Original
    };
    let spec = dataset_spec(
        &format!("saturate TPTP tasks: {}", domains.join(", ")),
        cfg.seed,
        &[&generator],
        run.shard,
        &cfg.dataset,
        tasks.max_rows_per_shard,
        provenance,
    )?;
    // The output folder is checked (and stale temporaries removed) before
    // any saturation starts.
    let writer = DatasetWriter::create(&data_dir, spec).map_err(dataset_error)?;
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
    // Phase 2: the generation loop over the graphs.
    let card = card_text(&domains, &reports, &graphs, run);
    generator.set_graphs(graphs, card);
    let settings = LoopSettings {
        jobs: cfg.jobs,
        shard: run.shard,
        strict: run.strict,
        require_full: run.require_full,
        progress: run.progress,
        dataset: cfg.dataset.clone(),
        ..LoopSettings::default()
    };
    let summary = generate(writer, &[&generator], &settings)?;
    Ok(TptpSummary {
        saturation: reports,
        run: summary,
        saturation_seconds,
        dataset: data_dir,
    })
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
