//! The `saturate pl` run: builds PL1 instances for every task and level in
//! parallel (rayon), collects them in index order, drops duplicate problems
//! per task, and writes one dataset config per task through the dataset
//! writer. Output is byte-identical for any thread count.

use super::{Progress, RunError};
use crate::dataset::{DatasetError, DatasetSpec, DatasetWriter, Record};
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
    /// Wall-clock seconds of generation and writing.
    pub seconds: f64,
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

fn dataset_err(e: DatasetError) -> RunError {
    match e {
        DatasetError::NotOurs { .. }
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

/// Runs the PL generator and writes the dataset to `out`.
pub fn run_pl(
    cfg: &PlConfig,
    jobs: usize,
    out: &Path,
    progress_enabled: bool,
) -> Result<PlSummary, RunError> {
    if cfg.count == 0 {
        return Err(RunError::Input("--count must be at least 1".into()));
    }
    if let Some(l) = cfg.levels.iter().find(|l| !(1..=4).contains(*l)) {
        return Err(RunError::Input(format!("level {l} is not in 1..=4")));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| RunError::Runtime(format!("thread pool: {e}")))?;
    let spec = DatasetSpec {
        name: "saturate PL1".to_string(),
        description: DESCRIPTION.to_string(),
        seed: cfg.seed,
        config: serde_json::to_value(cfg).expect("config serialises"),
        max_rows_per_shard: cfg.max_rows_per_shard,
    };
    let mut writer = DatasetWriter::create(out, spec).map_err(dataset_err)?;
    let started = Instant::now();
    let total = (cfg.count * cfg.levels.len() * cfg.tasks.len()) as u64;
    let progress = Progress::new("pl", total, progress_enabled);
    let mut summary = PlSummary::default();
    let mut lines: BTreeMap<u8, (usize, usize)> = BTreeMap::new();
    let mut done = 0u64;
    let batch = (jobs.max(1) * 8).max(32) as u64;
    for &task in &cfg.tasks {
        let name = task.config().to_string();
        writer.describe_config(task.config(), describe(task));
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for &level in &cfg.levels {
            let mut accepted = 0usize;
            let mut next = 0u64;
            // A generous budget; a level that cannot reach `count` unique
            // problems within it is reported, not looped on forever.
            let limit = (cfg.count as u64) * 20 + 200;
            while accepted < cfg.count && next < limit {
                let end = (next + batch).min(limit);
                let built: Vec<Result<PlInstance, Skip>> = pool.install(|| {
                    (next..end)
                        .into_par_iter()
                        .map(|i| build(cfg.seed, task, level, i))
                        .collect()
                });
                next = end;
                for r in built {
                    if accepted == cfg.count {
                        break;
                    }
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
                            writer
                                .push(task.config(), record(inst))
                                .map_err(dataset_err)?;
                            done += 1;
                            progress.tick(done);
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
    writer.finish().map_err(dataset_err)?;
    progress.finish("done");
    summary.mean_proof_lines = lines
        .into_iter()
        .map(|(l, (s, n))| (l, s as f64 / n.max(1) as f64))
        .collect();
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

impl PlSummary {
    /// The end-of-run summary as text lines.
    pub fn render(&self, levels: &[u8]) -> String {
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
        s.push_str(&format!(
            "{} instances in {:.2}s ({:.0} instances/s)\n",
            self.total,
            self.seconds,
            self.total as f64 / self.seconds.max(1e-9)
        ));
        s
    }
}
