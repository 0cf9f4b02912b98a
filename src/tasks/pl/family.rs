//! The PL task families on the shared abstraction ([`crate::tasks::family`]):
//! PL1 (random problems, NDL; task × level cells) and PL2 (eight structured
//! families, NDL_f; task × family × size cells), the `[tasks.pl]` settings,
//! and their scorers and re-checks.

use super::families::Family;
use super::pl2::{self, Pl2Options, Pl2Task};
use super::{Skip, Task};
use crate::dataset::Record;
use crate::prop::ProofSystem;
use crate::tasks::answer::AnswerShape;
use crate::tasks::family::{
    Attempt, Cell, ConfigInfo, Fill, Generator, RejectReason, ScoreContext, TaskFamily, Worker,
    metadata_json,
};
use crate::tasks::{Score, TaskError};
use serde::{Deserialize, Serialize};

/// The generator version in manifests (2: one id scheme for every family,
/// per-cell deduplication, the shared generation loop; 3: the NDL_f prompts
/// state the tautology and hypothesis-gathering rules the checker enforces).
pub const VERSION: &str = "pl-3";

/// Consecutive fruitless PL2 candidates after which a (task, family, size)
/// cell stops: families with few distinct problems at a size (pyramids, De
/// Bruijn) would otherwise spend the whole budget on duplicates.
pub const PL2_PATIENCE: u64 = 100;

/// The `[tasks.pl]` section: what `saturate pl` generates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlConfig {
    /// Instances per PL1 task and level, and per PL2 task, family and size.
    pub count: usize,
    /// PL1 levels (1-4).
    pub levels: Vec<u8>,
    /// PL1 tasks, by config name (default: all four).
    pub tasks: Vec<String>,
    /// Problem sets: `pl1` and/or `pl2`.
    pub families: Vec<String>,
    /// Rows per Parquet shard.
    pub max_rows_per_shard: usize,
    /// The PL2 settings (used when `families` holds `pl2`).
    pub pl2: Pl2Config,
}

/// The `[tasks.pl.pl2]` section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Pl2Config {
    /// Sizes (1-3), the records' level.
    pub sizes: Vec<u8>,
    /// Structured families, by name (default: all eight).
    pub families: Vec<String>,
    /// Reject theorems whose resolution refutation has this many steps or more.
    pub max_refutation_steps: usize,
    /// Reject instances whose clausal form has more clauses than this.
    pub max_cnf_clauses: usize,
}

impl Default for PlConfig {
    fn default() -> Self {
        PlConfig {
            count: 20,
            levels: vec![1, 2, 3, 4],
            tasks: Task::ALL.iter().map(|t| t.config().to_string()).collect(),
            families: vec!["pl1".into()],
            max_rows_per_shard: 10_000,
            pl2: Pl2Config::default(),
        }
    }
}

impl Default for Pl2Config {
    fn default() -> Self {
        let o = Pl2Options::default();
        Pl2Config {
            sizes: vec![1, 2, 3],
            families: Family::ALL.iter().map(|f| f.name().to_string()).collect(),
            max_refutation_steps: o.max_refutation_steps,
            max_cnf_clauses: o.max_cnf_clauses,
        }
    }
}

impl PlConfig {
    /// Checks what the types cannot.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(l) = self.levels.iter().find(|l| !(1..=4).contains(*l)) {
            return Err(format!("tasks.pl.levels: level {l} is not in 1-4"));
        }
        if let Some(t) = self
            .tasks
            .iter()
            .find(|t| !Task::ALL.iter().any(|x| x.config() == t.as_str()))
        {
            return Err(format!(
                "tasks.pl.tasks: unknown PL1 task {t:?} (expected one of {})",
                Task::ALL.map(|t| t.config()).join(", ")
            ));
        }
        if let Some(f) = self.families.iter().find(|f| *f != "pl1" && *f != "pl2") {
            return Err(format!(
                "tasks.pl.families: unknown problem set {f:?} (expected pl1 or pl2)"
            ));
        }
        if self.families.is_empty() {
            return Err("tasks.pl.families: no problem set selected".into());
        }
        let c = &self.pl2;
        if let Some(z) = c.sizes.iter().find(|z| !(1..=3).contains(*z)) {
            return Err(format!("tasks.pl.pl2.sizes: size {z} is not in 1-3"));
        }
        if let Some(f) = c.families.iter().find(|f| Family::from_name(f).is_none()) {
            return Err(format!("tasks.pl.pl2.families: unknown family {f:?}"));
        }
        if self.wants_pl2() && (c.sizes.is_empty() || c.families.is_empty()) {
            return Err("tasks.pl.pl2: no PL2 sizes or families selected".into());
        }
        if c.max_refutation_steps == 0 {
            return Err("tasks.pl.pl2.max_refutation_steps must be at least 1".into());
        }
        if self.max_rows_per_shard == 0 {
            return Err("tasks.pl.max_rows_per_shard must be at least 1".into());
        }
        Ok(())
    }

    /// Whether PL1 is generated.
    pub fn wants_pl1(&self) -> bool {
        self.families.iter().any(|f| f == "pl1")
    }

    /// Whether PL2 is generated.
    pub fn wants_pl2(&self) -> bool {
        self.families.iter().any(|f| f == "pl2")
    }

    fn pl2_options(&self) -> Pl2Options {
        Pl2Options {
            max_refutation_steps: self.pl2.max_refutation_steps,
            max_cnf_clauses: self.pl2.max_cnf_clauses,
            ..Pl2Options::default()
        }
    }
}

/// Sorted, deduplicated.
fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v.dedup();
    v
}

/// The PL1 family (static face).
pub struct Pl1Family;
/// The registered PL1 family.
pub static PL1: Pl1Family = Pl1Family;
/// The PL2 family (static face).
pub struct Pl2Family;
/// The registered PL2 family.
pub static PL2: Pl2Family = Pl2Family;

const DESCRIPTION_PL1: &str = "Propositional natural-deduction tasks in the style of ProofGrid's PL1 \
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

fn describe1(task: Task) -> &'static str {
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

fn describe2(task: Pl2Task) -> &'static str {
    match task {
        Pl2Task::ProofChecking => {
            "Is the NDL_f proof correct? Answer JSON `{\"correct\", \"errorDetails\"}`; the gold error is the strict NDL_f checker's first error (a logic error's description has a counterexample)."
        }
        Pl2Task::ProofWriting => {
            "Write an NDL_f proof of the goal, or for a non-theorem answer `\"proof\": null` with a counterexample assignment. Scored by the lenient NDL_f checker (at most 5 justifiers and 5 premises per step, premises assumed as hypotheses of a claim included; no tautology may be claimed, which closes the shortcut of claiming the curried premises-imply-goal formula) or by evaluating the counterexample."
        }
    }
}

fn task1(config: &str) -> Result<Task, TaskError> {
    Task::ALL
        .into_iter()
        .find(|t| t.config() == config)
        .ok_or_else(|| TaskError::Record(format!("no PL1 task {config}")))
}

fn task2(config: &str) -> Result<Pl2Task, TaskError> {
    Pl2Task::ALL
        .into_iter()
        .find(|t| t.config() == config)
        .ok_or_else(|| TaskError::Record(format!("no PL2 task {config}")))
}

/// Scores a row with `score` once its task and metadata read; a row that
/// does not read scores 0 as malformed.
fn score_with<T>(
    task: Result<T, TaskError>,
    row: &Record,
    score: impl FnOnce(T, &serde_json::Value) -> Score,
) -> Score {
    match task.and_then(|t| Ok((t, metadata_json(row)?))) {
        Ok((t, meta)) => score(t, &meta),
        Err(e) => Score::malformed(format!("record: {e}")),
    }
}

impl TaskFamily for Pl1Family {
    fn name(&self) -> &'static str {
        "pl1"
    }

    fn configs(&self) -> Vec<ConfigInfo> {
        Task::ALL
            .into_iter()
            .map(|t| ConfigInfo {
                name: t.config(),
                description: describe1(t),
            })
            .collect()
    }

    fn score(&self, row: &Record, answer: &str, _: &mut ScoreContext) -> Score {
        score_with(task1(&row.task), row, |t, meta| {
            super::instance::score_record(t, meta, &row.answer, answer)
        })
    }

    fn verify(&self, row: &Record) -> Result<String, TaskError> {
        super::instance::verify_record(task1(&row.task)?, &metadata_json(row)?, &row.answer)
            .map_err(TaskError::Rejected)
    }

    fn answer_shape(&self, config: &str) -> AnswerShape {
        match task1(config) {
            // Plain text, one `GAP-k:` section per gap.
            Ok(Task::GapFilling) => AnswerShape::Sections("GAP-1:"),
            _ => AnswerShape::Json,
        }
    }

    fn render_prompt(&self, row: &Record) -> Option<Result<String, String>> {
        Some(render_pl1(row))
    }
}

/// The shown proof a PL prompt displays, from the metadata.
fn shown_proof(meta: &serde_json::Value) -> Result<&str, String> {
    meta["shown_proof"]
        .as_str()
        .ok_or_else(|| "metadata has no string `shown_proof`".to_string())
}

/// A PL1 row's prompt from its metadata: premises, goal, the shown
/// (corrupted, masked or gapped) proof and the gap labels.
fn render_pl1(row: &Record) -> Result<String, String> {
    let task = task1(&row.task).map_err(|e| e.to_string())?;
    let meta = metadata_json(row).map_err(|e| e.to_string())?;
    let ndl = &ProofSystem::Ndl;
    let p = super::instance::problem_of(&meta).ok_or("metadata lacks the problem")?;
    let (premises, goal) = (&p.premises, &p.goal);
    Ok(match task {
        Task::ProofChecking => {
            super::prompt::proof_checking(ndl, premises, goal, shown_proof(&meta)?)
        }
        Task::ProofWriting => super::prompt::proof_writing(ndl, premises, goal, false),
        Task::ProofMasking => super::prompt::proof_masking(premises, goal, shown_proof(&meta)?),
        Task::GapFilling => {
            let labels: Vec<String> = meta["gap_labels"]
                .as_array()
                .ok_or("metadata has no list `gap_labels`")?
                .iter()
                .map(|v| v.as_str().map(String::from))
                .collect::<Option<_>>()
                .ok_or("metadata `gap_labels` holds a non-string")?;
            super::prompt::gap_filling(premises, goal, shown_proof(&meta)?, &labels)
        }
    })
}

/// A PL2 row's prompt from its metadata: premises, goal and, for proof
/// checking, the shown proof.
fn render_pl2(row: &Record) -> Result<String, String> {
    let task = task2(&row.task).map_err(|e| e.to_string())?;
    let meta = metadata_json(row).map_err(|e| e.to_string())?;
    // The NDL_f prompt texts do not depend on the step limits' values.
    let ndlf = &ProofSystem::NdlF(pl2::pl2_ndlf_options());
    let formula = |v: &serde_json::Value| -> Result<crate::prop::Formula, String> {
        let text = v.as_str().ok_or("metadata holds a non-string formula")?;
        crate::prop::Formula::parse(text).map_err(|e| format!("metadata formula {text:?}: {e}"))
    };
    let premises = meta["premises"]
        .as_array()
        .ok_or("metadata has no list `premises`")?
        .iter()
        .map(formula)
        .collect::<Result<Vec<_>, _>>()?;
    let goal = formula(&meta["goal"])?;
    Ok(match task {
        Pl2Task::ProofWriting => super::prompt::proof_writing(ndlf, &premises, &goal, true),
        Pl2Task::ProofChecking => {
            super::prompt::proof_checking(ndlf, &premises, &goal, shown_proof(&meta)?)
        }
    })
}

impl TaskFamily for Pl2Family {
    fn name(&self) -> &'static str {
        "pl2"
    }

    fn configs(&self) -> Vec<ConfigInfo> {
        Pl2Task::ALL
            .into_iter()
            .map(|t| ConfigInfo {
                name: t.config(),
                description: describe2(t),
            })
            .collect()
    }

    fn score(&self, row: &Record, answer: &str, _: &mut ScoreContext) -> Score {
        score_with(task2(&row.task), row, |t, meta| {
            pl2::score_record(t, meta, &row.answer, answer)
        })
    }

    fn verify(&self, row: &Record) -> Result<String, TaskError> {
        pl2::verify_record(task2(&row.task)?, &metadata_json(row)?, &row.answer)
            .map_err(TaskError::Rejected)
    }

    fn answer_shape(&self, _: &str) -> AnswerShape {
        AnswerShape::Json
    }

    fn render_prompt(&self, row: &Record) -> Option<Result<String, String>> {
        Some(render_pl2(row))
    }
}

impl RejectReason for Skip {
    fn name(&self) -> &'static str {
        match self {
            Skip::NoProblem => "no_problem",
            Skip::ProofTooLarge => "proof_too_large",
        }
    }
}

impl RejectReason for pl2::Reject {
    fn name(&self) -> &'static str {
        pl2::Reject::name(self)
    }
}

/// The PL1 part of a `saturate pl` run.
pub struct Pl1Generator {
    /// The settings.
    pub config: PlConfig,
    /// Run seed.
    pub seed: u64,
}

impl Generator for Pl1Generator {
    fn family(&self) -> &dyn TaskFamily {
        &PL1
    }

    fn version(&self) -> &'static str {
        VERSION
    }

    fn cells(&self) -> Vec<Cell> {
        let count = self.config.count as u64;
        let levels = sorted(&self.config.levels);
        Task::ALL
            .into_iter()
            .filter(|t| self.config.tasks.iter().any(|n| n == t.config()))
            .flat_map(|t| {
                levels.iter().map(move |&level| Cell {
                    config: t.config(),
                    group: "PL".into(),
                    level,
                    count,
                    fill: Fill::UntilFull {
                        budget: count.saturating_mul(20).saturating_add(200),
                        patience: None,
                    },
                    tag: 0,
                })
            })
            .collect()
    }

    fn build(&self, cell: &Cell, index: u64, _: &mut Worker) -> Attempt {
        let task = match task1(cell.config) {
            Ok(t) => t,
            Err(_) => return Attempt::rejected(&Skip::NoProblem),
        };
        match super::build(self.seed, task, cell.level, index) {
            Err(skip) => Attempt::rejected(&skip),
            Ok(i) => Attempt::built(i.into_built()),
        }
    }

    fn dedup_across_levels(&self) -> bool {
        true
    }

    fn manifest(&self) -> serde_json::Value {
        serde_json::json!({
            "generator": VERSION,
            "count": self.config.count,
            "levels": sorted(&self.config.levels),
            "tasks": self.config.tasks,
        })
    }

    fn card(&self) -> String {
        DESCRIPTION_PL1.into()
    }
}

/// The PL2 part of a `saturate pl` run.
pub struct Pl2Generator {
    /// The settings.
    pub config: PlConfig,
    /// Run seed.
    pub seed: u64,
    options: Pl2Options,
    families: Vec<Family>,
}

impl Pl2Generator {
    /// The PL2 run of `config` (validated) with `seed`.
    pub fn new(config: PlConfig, seed: u64) -> Pl2Generator {
        let options = config.pl2_options();
        let families = Family::ALL
            .into_iter()
            .filter(|f| config.pl2.families.iter().any(|n| n == f.name()))
            .collect();
        Pl2Generator {
            config,
            seed,
            options,
            families,
        }
    }
}

impl Generator for Pl2Generator {
    fn family(&self) -> &dyn TaskFamily {
        &PL2
    }

    fn version(&self) -> &'static str {
        VERSION
    }

    fn cells(&self) -> Vec<Cell> {
        let count = self.config.count as u64;
        let sizes = sorted(&self.config.pl2.sizes);
        let mut cells = Vec::new();
        for task in Pl2Task::ALL {
            for (tag, family) in self.families.iter().enumerate() {
                for &size in &sizes {
                    cells.push(Cell {
                        config: task.config(),
                        group: family.name().to_string(),
                        level: size,
                        count,
                        fill: Fill::UntilFull {
                            budget: count.saturating_mul(20).saturating_add(200),
                            patience: Some(PL2_PATIENCE),
                        },
                        tag,
                    });
                }
            }
        }
        cells
    }

    fn build(&self, cell: &Cell, index: u64, _: &mut Worker) -> Attempt {
        let (Ok(task), Some(&family)) = (task2(cell.config), self.families.get(cell.tag)) else {
            return Attempt::rejected(&pl2::Reject::NoCorruption);
        };
        match pl2::build(self.seed, task, family, cell.level, index, &self.options) {
            Err(r) => Attempt::rejected(&r),
            Ok(i) => Attempt::built(i.into_built()),
        }
    }

    fn dedup_across_levels(&self) -> bool {
        true
    }

    fn manifest(&self) -> serde_json::Value {
        serde_json::json!({
            "generator": VERSION,
            "count": self.config.count,
            "sizes": sorted(&self.config.pl2.sizes),
            "families": self.families.iter().map(|f| f.name()).collect::<Vec<_>>(),
            "options": self.options,
        })
    }

    fn card(&self) -> String {
        DESCRIPTION_PL2.into()
    }
}
