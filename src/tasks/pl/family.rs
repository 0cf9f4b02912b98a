//! The PL task families on the shared abstraction ([`crate::tasks::family`]):
//! PL1 (random problems, NDL; task × level cells) and PL2 (eight structured
//! families, NDL_f; task × family × size cells), the `[tasks.pl]` settings,
//! and their scorers and re-checks.

use super::audit::Kind as AuditKind;
use super::pl2::{self, Pl2Options, Pl2Task};
use super::{Skip, Task};
use crate::dataset::Record;
use crate::prop::ProofSystem;
use crate::prop::problems::families::Family;
use crate::tasks::answer::AnswerShape;
use crate::tasks::audit::AuditItem;
use crate::tasks::error::BadValue;
use crate::tasks::error::{GeneratorError, RenderError};
use crate::tasks::family::{
    Attempt, Cell, ConfigInfo, Fill, Generator, RejectReason, ScoreContext, TaskFamily, Worker,
    metadata_json,
};
use crate::tasks::generation::{
    FamilyConfig, Generation, GridRow, MAX_COUNT, Section, SectionInfo, cell_grid, section_as,
};
use crate::tasks::{Score, TaskError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::marker::PhantomData;

/// The generator version in manifests (2: one id scheme for every family,
/// per-cell deduplication, the shared generation loop; 3: the NDL_f prompts
/// state the tautology and hypothesis-gathering rules the checker enforces;
/// 4: PL1 problems without degenerate sub-formulas, `l + 1` to `l + 2`
/// premises at level `l`; 6: PL1 levels beyond 4 and PL2 sizes beyond 3,
/// measured difficulty features in every row's metadata; levels 1-4 and
/// sizes 1-3 give the same prompts and answers as in 5).
pub const VERSION: &str = "pl-7";

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
    /// PL1 levels (any from 1; [`crate::prop::problems::random::level_params`] maps a
    /// level to its parameters, levels above 8 taking level 8's).
    pub levels: Vec<u8>,
    /// PL1 tasks, by config name (default: all four).
    pub tasks: Vec<String>,
    /// Problem sets: `pl1` and/or `pl2`.
    pub families: Vec<String>,
    /// Rows per Parquet shard.
    pub max_rows_per_shard: usize,
    /// PL1: problems whose reference proof prints longer than this many
    /// characters are skipped (`proof_too_large`) for every task, so the
    /// problem distribution stays the same across tasks. The proof is the
    /// bulk of a checking, masking or gap-filling prompt: at 16,000 every
    /// PL1 prompt stays under about 20,000 characters (about 6,000 tokens),
    /// which fits an 8k-token context with room for the answer.
    pub max_proof_chars: usize,
    /// The PL2 settings (used when `families` holds `pl2`).
    pub pl2: Pl2Config,
}

/// The `[tasks.pl.pl2]` section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Pl2Config {
    /// Sizes (any from 1; above [`crate::prop::problems::families::MAX_SIZE`], its
    /// parameters), the records' level.
    pub sizes: Vec<u8>,
    /// Structured families, by name (default: all eight).
    pub families: Vec<String>,
    /// Reject theorems whose resolution refutation has this many steps or
    /// more (at sizes 1-3; larger sizes scale it, [`Pl2Options::at_size`]).
    pub max_refutation_steps: usize,
    /// Reject instances whose clausal form has more clauses than this (at
    /// sizes 1-3; scaled as `max_refutation_steps`).
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
            max_proof_chars: super::instance::MAX_PROOF_CHARS,
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
    pub fn validate(&self) -> Result<(), BadValue> {
        if self.levels.contains(&0) {
            return Err(BadValue::new(
                "tasks.pl.levels",
                "level 0 is not a level (levels start at 1)",
            ));
        }
        if let Some(t) = self
            .tasks
            .iter()
            .find(|t| !Task::ALL.iter().any(|x| x.config() == t.as_str()))
        {
            return Err(BadValue::new(
                "tasks.pl.tasks",
                format!(
                    "unknown PL1 task {t:?} (expected one of {})",
                    Task::ALL.map(|t| t.config()).join(", ")
                ),
            ));
        }
        if let Some(f) = self.families.iter().find(|f| *f != "pl1" && *f != "pl2") {
            return Err(BadValue::new(
                "tasks.pl.families",
                format!("unknown problem set {f:?} (expected pl1 or pl2)"),
            ));
        }
        if self.families.is_empty() {
            return Err(BadValue::new(
                "tasks.pl.families",
                "no problem set selected",
            ));
        }
        let c = &self.pl2;
        if c.sizes.contains(&0) {
            return Err(BadValue::new(
                "tasks.pl.pl2.sizes",
                "size 0 is not a size (sizes start at 1)",
            ));
        }
        if let Some(f) = c.families.iter().find(|f| Family::from_name(f).is_none()) {
            return Err(BadValue::new(
                "tasks.pl.pl2.families",
                format!("unknown family {f:?}"),
            ));
        }
        if self.wants_pl2() && (c.sizes.is_empty() || c.families.is_empty()) {
            return Err(BadValue::new(
                "tasks.pl.pl2",
                "no PL2 sizes or families selected",
            ));
        }
        if c.max_refutation_steps == 0 {
            return Err(BadValue::sentence(
                "tasks.pl.pl2.max_refutation_steps",
                "must be at least 1",
            ));
        }
        if self.max_rows_per_shard == 0 {
            return Err(BadValue::sentence(
                "tasks.pl.max_rows_per_shard",
                "must be at least 1",
            ));
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

impl FamilyConfig for PlConfig {
    const NAME: &'static str = "pl";

    crate::rows_fields!();

    fn validate(&self) -> Result<(), BadValue> {
        for (key, v, hi) in [
            ("max_proof_chars", self.max_proof_chars, 100_000_000),
            (
                "pl2.max_refutation_steps",
                self.pl2.max_refutation_steps,
                MAX_COUNT,
            ),
            ("pl2.max_cnf_clauses", self.pl2.max_cnf_clauses, MAX_COUNT),
        ] {
            if v == 0 || v as u64 > hi {
                return Err(BadValue::new(
                    format!("tasks.pl.{key}"),
                    format!("{v} is not in 1-{hi}"),
                ));
            }
        }
        PlConfig::validate(self)
    }
}

/// `saturate pl` (`saturate generate pl`): PL1 and/or PL2 (the section's
/// `families`), no stage.
pub struct PlGeneration;

impl Generation for PlGeneration {
    fn name(&self) -> &'static str {
        "pl"
    }

    fn about(&self) -> &'static str {
        "the PL1 and PL2 datasets (ProofGrid-style natural-deduction tasks)"
    }

    fn section(&self) -> SectionInfo {
        SectionInfo::of::<PlConfig>()
    }

    fn title(&self, section: &dyn Section) -> String {
        let (pl1, pl2) = section_as::<PlConfig>(section)
            .map_or((true, false), |c| (c.wants_pl1(), c.wants_pl2()));
        match (pl1, pl2) {
            (true, false) => "saturate PL1",
            (false, true) => "saturate PL2",
            _ => "saturate PL1 + PL2",
        }
        .into()
    }

    fn generators(
        &self,
        section: &dyn Section,
        seed: u64,
    ) -> Result<Vec<Box<dyn Generator>>, GeneratorError> {
        let config = section_as::<PlConfig>(section).ok_or(GeneratorError::WrongSection("pl"))?;
        let mut generators: Vec<Box<dyn Generator>> = Vec::new();
        if config.wants_pl1() {
            generators.push(Box::new(Pl1Generator {
                config: config.clone(),
                seed,
            }));
        }
        if config.wants_pl2() {
            generators.push(Box::new(Pl2Generator::new(config.clone(), seed)));
        }
        Ok(generators)
    }
}

/// Sorted, deduplicated.
fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v.dedup();
    v
}

/// What a PL task list (PL1's [`Task`], PL2's [`Pl2Task`]) gives the one
/// [`TaskFamily`] implementation the two families share.
pub trait PlTasks: Copy + Send + Sync + 'static {
    /// The family's name (`pl1`, `pl2`).
    const FAMILY: &'static str;
    /// Every task, in output order.
    fn all() -> Vec<Self>;
    /// The dataset config (and `task` column) name.
    fn config(self) -> &'static str;
    /// The config's card paragraph.
    fn describe(self) -> &'static str;
    /// What an answer looks like (for the shared extractor).
    fn answer_shape(self) -> AnswerShape;
    /// Scores `answer` against a row's metadata and gold answer.
    fn score_record(self, metadata: &Value, gold: &str, answer: &str) -> Score;
    /// Re-checks a row's gold answer from its metadata.
    fn verify_record(self, metadata: &Value, gold: &str) -> Result<String, String>;
    /// The row's prompt rendered again from its metadata.
    fn render_prompt(self, metadata: &Value) -> Result<String, String>;
    /// What the shortcut audit predicts for the task, if it has a class
    /// (proof writing and gap filling answers are free text).
    fn audit_kind(self) -> Option<AuditKind>;
}

/// A PL family (static face) over its task list.
pub struct PlFamily<T>(PhantomData<fn() -> T>);
/// The registered PL1 family.
pub static PL1: PlFamily<Task> = PlFamily(PhantomData);
/// The registered PL2 family.
pub static PL2: PlFamily<Pl2Task> = PlFamily(PhantomData);

const DESCRIPTION_PL1: &str = "Propositional natural-deduction tasks in the style of ProofGrid's PL1 \
(seed 000): random problems (premises that jointly and necessarily entail a goal, premises \
satisfiable, goal not a tautology; no sub-formula with equal or complementary operands such as \
`(A | A)` or `(A & (~ A))` and no valid or unsatisfiable sub-formula; level l has l+1 to l+2 \
premises over min(l+2, 8) atoms, premise depth 2 at level 1, 3 at levels 2-7 and 4 at level 8, \
goal depth 2 at levels 1-2, 3 at levels 3-6 and 4 from level 7; levels above 8 take level 8's \
parameters), reference proofs in NDL written by saturate's prover and \
re-verified by its strict checker, and four tasks built from them: proof checking (about half \
the proofs corrupted; labels from re-running the checker), proof writing, proof masking (30-90% \
of the maskable items masked; some unsolvable decoys) and gap filling. Each record's `metadata` \
holds the premises, goal and `conditionalized` flag as formula strings, so every constraint can \
be re-checked independently; `certificate` holds the SAT evidence and the checker's verdicts.";

const DESCRIPTION_PL2: &str = "Structured propositional problems in the style of ProofGrid's PL2 \
(seed 000): eight families (pyramid pebbling, Horn chains, graph 3-colouring, relativized \
pigeonhole, subset cardinality, De Bruijn, Tseitin, counting principle) at ProofGrid's three sizes \
and two larger ones (4 and 5, under proportionally larger clause and refutation limits; larger \
sizes take size 5's parameters), with \
the corrected satisfiability conditions of the PL/EQ spec. Every theorem is certified by SAT and by \
a resolution refutation (re-checked step by step, under the step bound) whose NDL_f translation is \
the reference proof; every decoy (a non-theorem) carries a satisfying assignment. Two tasks: proof \
writing in NDL_f (theorems and decoys) and proof checking (about half the proofs corrupted; labels \
from re-running the NDL_f checker). `metadata` holds `family`, its size `params`, the premises and \
goal as formula strings, the clause count and the refutation length.";

/// The task of list `T` whose config is `config`.
fn task_of<T: PlTasks>(config: &str) -> Result<T, TaskError> {
    T::all()
        .into_iter()
        .find(|t| t.config() == config)
        .ok_or_else(|| TaskError::Record(format!("no {} task {config}", T::FAMILY)))
}

impl<T: PlTasks> TaskFamily for PlFamily<T> {
    fn name(&self) -> &'static str {
        T::FAMILY
    }

    fn trace(&self, _: &str, metadata: &Value, certificate: &Value) -> Option<Vec<String>> {
        crate::tasks::trace::pl(metadata, certificate)
    }

    fn configs(&self) -> Vec<ConfigInfo> {
        T::all()
            .into_iter()
            .map(|t| ConfigInfo {
                name: t.config(),
                description: t.describe(),
            })
            .collect()
    }

    /// A row that does not read scores 0 as malformed.
    fn score(&self, row: &Record, answer: &str, _: &mut ScoreContext) -> Score {
        match task_of::<T>(&row.task).and_then(|t| Ok((t, metadata_json(row)?))) {
            Ok((t, meta)) => t.score_record(&meta, &row.answer, answer),
            Err(e) => Score::malformed(format!("record: {e}")),
        }
    }

    fn verify(&self, row: &Record) -> Result<String, TaskError> {
        task_of::<T>(&row.task)?
            .verify_record(&metadata_json(row)?, &row.answer)
            .map_err(TaskError::Rejected)
    }

    fn answer_shape(&self, config: &str) -> AnswerShape {
        task_of::<T>(config).map_or(AnswerShape::Json, |t| t.answer_shape())
    }

    fn exploit_answers(&self, row: &Record) -> Vec<crate::tasks::audit::Exploit> {
        match task_of::<T>(&row.task) {
            Ok(_) => super::exploits::answers(&row.task, row),
            Err(_) => Vec::new(),
        }
    }

    fn audit_items(&self, row: &Record) -> Option<Result<Vec<AuditItem>, TaskError>> {
        let kind = task_of::<T>(&row.task).ok()?.audit_kind()?;
        Some(metadata_json(row).and_then(|meta| {
            super::audit::item(kind, &meta, &row.answer)
                .map(|it| vec![it])
                .map_err(TaskError::Record)
        }))
    }

    /// The underlying problem (premises and goal before any rewriting),
    /// shared by every task made from it.
    fn split_group(&self, row: &Record) -> Option<String> {
        let meta = metadata_json(row).ok()?;
        let premises = meta
            .get("source_premises")
            .or_else(|| meta.get("premises"))?;
        let goal = meta.get("source_goal").or_else(|| meta.get("goal"))?;
        Some(format!("pl:{premises}|{goal}"))
    }

    fn render_prompt(&self, row: &Record) -> Option<Result<String, RenderError>> {
        let read = task_of::<T>(&row.task).and_then(|t| Ok((t, metadata_json(row)?)));
        Some(match read {
            Ok((t, meta)) => t.render_prompt(&meta).map_err(RenderError::Metadata),
            Err(e) => Err(RenderError::Row(e)),
        })
    }
}

/// The shown proof a PL prompt displays, from the metadata.
fn shown_proof(meta: &Value) -> Result<&str, String> {
    meta["shown_proof"]
        .as_str()
        .ok_or_else(|| "metadata has no string `shown_proof`".to_string())
}

impl PlTasks for Task {
    const FAMILY: &'static str = "pl1";

    fn all() -> Vec<Task> {
        Task::ALL.to_vec()
    }

    fn config(self) -> &'static str {
        Task::config(&self)
    }

    fn describe(self) -> &'static str {
        match self {
            Task::ProofChecking => {
                "Is the NDL proof correct? Answer JSON `{\"correct\", \"errorDetails\"}`; the gold error is the strict checker's first error (line, type, description). Scored strictly (ProofGrid's strict metric): 1 iff the verdict is right and, for an incorrect proof, the offending line number and the error type are both right; the lenient metric (verdict only) and, on incorrect proofs, error_line and error_kind are sub-metrics."
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

    fn audit_kind(self) -> Option<AuditKind> {
        match self {
            Task::ProofChecking => Some(AuditKind::Checking),
            Task::ProofMasking => Some(AuditKind::Masking),
            Task::ProofWriting | Task::GapFilling => None,
        }
    }

    fn answer_shape(self) -> AnswerShape {
        match self {
            // Plain text, one `GAP-k:` section per gap.
            Task::GapFilling => AnswerShape::Sections("GAP-1:"),
            _ => AnswerShape::Json,
        }
    }

    fn score_record(self, metadata: &Value, gold: &str, answer: &str) -> Score {
        super::instance::score_record(self, metadata, gold, answer)
    }

    fn verify_record(self, metadata: &Value, gold: &str) -> Result<String, String> {
        super::instance::verify_record(self, metadata, gold)
    }

    /// Premises, goal, the shown (corrupted, masked or gapped) proof and
    /// the gap labels, from the metadata.
    fn render_prompt(self, meta: &Value) -> Result<String, String> {
        let ndl = &ProofSystem::Ndl;
        let p = super::instance::problem_of(meta).ok_or("metadata lacks the problem")?;
        let (premises, goal) = (&p.premises, &p.goal);
        Ok(match self {
            Task::ProofChecking => {
                super::prompt::proof_checking(ndl, premises, goal, shown_proof(meta)?)
            }
            Task::ProofWriting => super::prompt::proof_writing(ndl, premises, goal, false),
            Task::ProofMasking => super::prompt::proof_masking(premises, goal, shown_proof(meta)?),
            Task::GapFilling => {
                let labels: Vec<String> = meta["gap_labels"]
                    .as_array()
                    .ok_or("metadata has no list `gap_labels`")?
                    .iter()
                    .map(|v| v.as_str().map(String::from))
                    .collect::<Option<_>>()
                    .ok_or("metadata `gap_labels` holds a non-string")?;
                super::prompt::gap_filling(premises, goal, shown_proof(meta)?, &labels)
            }
        })
    }
}

impl PlTasks for Pl2Task {
    const FAMILY: &'static str = "pl2";

    fn all() -> Vec<Pl2Task> {
        Pl2Task::ALL.to_vec()
    }

    fn config(self) -> &'static str {
        Pl2Task::config(&self)
    }

    fn describe(self) -> &'static str {
        match self {
            Pl2Task::ProofChecking => {
                "Is the NDL_f proof correct? Answer JSON `{\"correct\", \"errorDetails\"}`; the gold error is the strict NDL_f checker's first error (a logic error's description has a counterexample). Scored strictly: 1 iff the verdict is right and, for an incorrect proof, the offending line number and the error type are both right (the description is not scored); the lenient metric (verdict only) and, on incorrect proofs, error_line and error_kind are sub-metrics."
            }
            Pl2Task::ProofWriting => {
                "Write an NDL_f proof of the goal, or for a non-theorem answer `\"proof\": null` with a counterexample assignment. Scored by the lenient NDL_f checker (at most 5 justifiers and 5 premises per step, premises assumed as hypotheses of a claim included; no tautology may be claimed, which closes the shortcut of claiming the curried premises-imply-goal formula) or by evaluating the counterexample."
            }
        }
    }

    fn answer_shape(self) -> AnswerShape {
        AnswerShape::Json
    }

    fn audit_kind(self) -> Option<AuditKind> {
        Some(match self {
            Pl2Task::ProofChecking => AuditKind::Checking,
            Pl2Task::ProofWriting => AuditKind::Writing,
        })
    }

    fn score_record(self, metadata: &Value, gold: &str, answer: &str) -> Score {
        pl2::score_record(self, metadata, gold, answer)
    }

    fn verify_record(self, metadata: &Value, gold: &str) -> Result<String, String> {
        pl2::verify_record(self, metadata, gold)
    }

    /// Premises, goal and, for proof checking, the shown proof, in the
    /// record's NDL_f, from the metadata.
    fn render_prompt(self, meta: &Value) -> Result<String, String> {
        let (premises, goal, opts) =
            pl2::record_problem(meta).ok_or("record metadata lacks the problem")?;
        let ndlf = &ProofSystem::NdlF(opts);
        Ok(match self {
            Pl2Task::ProofWriting => super::prompt::proof_writing(ndlf, &premises, &goal, true),
            Pl2Task::ProofChecking => {
                super::prompt::proof_checking(ndlf, &premises, &goal, shown_proof(meta)?)
            }
        })
    }
}

impl RejectReason for Skip {
    fn name(&self) -> &'static str {
        match self {
            Skip::NoProblem => "no_problem",
            Skip::ProofTooLarge => "proof_too_large",
            Skip::NoCorruption => "no_corruption",
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
        let fill = Fill::UntilFull {
            budget: count.saturating_mul(20).saturating_add(200),
            patience: None,
        };
        let rows = Task::ALL
            .into_iter()
            .filter(|t| self.config.tasks.iter().any(|n| n == t.config()))
            .map(|t| GridRow {
                config: t.config(),
                group: "PL".into(),
                tag: 0,
                fill,
            });
        cell_grid(rows, &self.config.levels, count)
    }

    fn build(&self, cell: &Cell, index: u64, _: &mut Worker) -> Attempt {
        let task = match task_of::<Task>(cell.config) {
            Ok(t) => t,
            Err(_) => return Attempt::rejected(&Skip::NoProblem),
        };
        match super::build(
            self.seed,
            task,
            cell.level,
            index,
            self.config.max_proof_chars,
        ) {
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
            "max_proof_chars": self.config.max_proof_chars,
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
        let fill = Fill::UntilFull {
            budget: count.saturating_mul(20).saturating_add(200),
            patience: Some(PL2_PATIENCE),
        };
        let rows = Pl2Task::ALL.into_iter().flat_map(|task| {
            self.families
                .iter()
                .enumerate()
                .map(move |(tag, family)| GridRow {
                    config: task.config(),
                    group: family.name().to_string(),
                    tag,
                    fill,
                })
        });
        cell_grid(rows, &self.config.pl2.sizes, count)
    }

    fn build(&self, cell: &Cell, index: u64, _: &mut Worker) -> Attempt {
        let (Ok(task), Some(&family)) =
            (task_of::<Pl2Task>(cell.config), self.families.get(cell.tag))
        else {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Any level and size from 1 is accepted (the schedules cap them); 0 is
    /// refused, naming the key.
    #[test]
    fn levels_and_sizes_from_one_are_accepted_and_zero_is_refused() {
        let mut c = PlConfig {
            levels: vec![1, 4, 5, 9, 255],
            families: vec!["pl1".into(), "pl2".into()],
            ..PlConfig::default()
        };
        c.pl2.sizes = vec![1, 3, 4, 9];
        assert_eq!(c.validate(), Ok(()));
        c.levels = vec![2, 0];
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "tasks.pl.levels: level 0 is not a level (levels start at 1)"
        );
        c.levels = vec![9];
        c.pl2.sizes = vec![0];
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "tasks.pl.pl2.sizes: size 0 is not a size (sizes start at 1)"
        );
    }

    /// A level-9 PL1 cell and a size-9 PL2 cell are made, with the level
    /// as asked.
    #[test]
    fn cells_beyond_the_schedules_keep_their_level() {
        let mut c = PlConfig {
            levels: vec![9],
            tasks: vec!["pl1_proof_writing".into()],
            ..PlConfig::default()
        };
        c.pl2.sizes = vec![9];
        c.pl2.families = vec!["horn_chain".into()];
        let pl1 = Pl1Generator {
            config: c.clone(),
            seed: 0,
        };
        assert_eq!(pl1.cells().iter().map(|c| c.level).collect::<Vec<_>>(), [9]);
        let pl2 = Pl2Generator::new(c, 0);
        assert!(pl2.cells().iter().all(|c| c.level == 9));
    }
}
