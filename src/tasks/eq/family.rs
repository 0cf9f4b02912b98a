//! The EQ task family on the shared abstraction ([`crate::tasks::family`]):
//! the `[tasks.eq]` settings, the cells (task × level, filled until
//! `count`), instance building through [`super::build`], scoring and
//! re-checking through the step checker.

use super::{GenParams, Task};
use crate::dataset::Record;
use crate::tasks::answer::AnswerShape;
use crate::tasks::audit::AuditItem;
use crate::tasks::error::BadValue;
use crate::tasks::error::{GeneratorError, RenderError};
use crate::tasks::family::{
    Attempt, Cell, ConfigInfo, Fill, Generator, RejectReason, ScoreContext, TaskFamily, Worker,
};
use crate::tasks::generation::{
    FamilyConfig, Generation, GridRow, Section, SectionInfo, cell_grid, section_as,
};
use crate::tasks::{Score, TaskError};
use serde::{Deserialize, Serialize};

/// The generator version in manifests: bumped when a config and seed give
/// other bytes (2: one id scheme for every family, per-cell deduplication;
/// 3: proof-checking corruptions show no fresh symbol; 4: gap-filling decoy
/// indices draw several proofs, so the decoy share holds at every level; 5
/// and 6: see [`super::GENERATOR_VERSION`]).
pub const VERSION: &str = "eq-6";

/// The `[tasks.eq]` section: what `saturate eq` generates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EqConfig {
    /// Instances per task and level.
    pub count: usize,
    /// Difficulty levels (any from 1; the schedule is
    /// [`GenParams::level`]).
    pub levels: Vec<u8>,
    /// Rows per Parquet shard.
    pub max_rows_per_shard: usize,
}

impl Default for EqConfig {
    fn default() -> Self {
        EqConfig {
            count: 50,
            levels: vec![1, 2, 3, 4],
            max_rows_per_shard: 10_000,
        }
    }
}

impl FamilyConfig for EqConfig {
    const NAME: &'static str = "eq";

    crate::rows_fields!();

    fn validate(&self) -> Result<(), BadValue> {
        if let Some(l) = self.levels.iter().find(|&&l| GenParams::level(l).is_none()) {
            return Err(BadValue::new(
                "tasks.eq.levels",
                format!("no EQ level {l} (levels start at 1)"),
            ));
        }
        if self.levels.is_empty() {
            return Err(BadValue::new("tasks.eq.levels", "no level selected"));
        }
        Ok(())
    }
}

/// `saturate eq` (`saturate generate eq`): one generator, no stage.
pub struct EqGeneration;

impl Generation for EqGeneration {
    fn name(&self) -> &'static str {
        "eq"
    }

    fn about(&self) -> &'static str {
        "the equational-logic (EQ) dataset: proof checking, elided equation recovery and gap filling"
    }

    fn section(&self) -> SectionInfo {
        SectionInfo::of::<EqConfig>()
    }

    fn title(&self, _: &dyn Section) -> String {
        "saturate EQ".into()
    }

    fn generators(
        &self,
        section: &dyn Section,
        seed: u64,
    ) -> Result<Vec<Box<dyn Generator>>, GeneratorError> {
        let config = section_as::<EqConfig>(section)
            .ok_or(GeneratorError::WrongSection("eq"))?
            .clone();
        Ok(vec![Box::new(EqGenerator { config, seed })])
    }
}

/// The EQ family (static face).
pub struct EqFamily;

/// The registered EQ family.
pub static EQ: EqFamily = EqFamily;

/// Why an EQ candidate gave no instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EqReject {
    /// The generator found no instance of the wanted kind at this index
    /// (no proof, or no corruption or gap of the wanted kind).
    NoInstance,
}

impl RejectReason for EqReject {
    fn name(&self) -> &'static str {
        match self {
            EqReject::NoInstance => "no_instance",
        }
    }
}

fn task_of(config: &str) -> Result<Task, String> {
    Task::from_config(config).ok_or_else(|| format!("no EQ task {config}"))
}

impl TaskFamily for EqFamily {
    fn name(&self) -> &'static str {
        "eq"
    }

    fn trace(
        &self,
        _: &str,
        metadata: &serde_json::Value,
        certificate: &serde_json::Value,
    ) -> Option<Vec<String>> {
        crate::tasks::trace::eq(metadata, certificate)
    }

    fn configs(&self) -> Vec<ConfigInfo> {
        Task::ALL
            .into_iter()
            .map(|t| ConfigInfo {
                name: t.config(),
                description: t.description(),
            })
            .collect()
    }

    fn score(&self, row: &Record, answer: &str, _: &mut ScoreContext) -> Score {
        match task_of(&row.task) {
            Ok(t) => super::score(t, &row.metadata, answer),
            Err(e) => Score::malformed(e),
        }
    }

    fn verify(&self, row: &Record) -> Result<String, TaskError> {
        let task = task_of(&row.task).map_err(TaskError::Record)?;
        super::verify_record(task, &row.metadata, &row.answer).map_err(TaskError::Rejected)
    }

    fn answer_shape(&self, _: &str) -> AnswerShape {
        AnswerShape::Json
    }

    fn render_prompt(&self, row: &Record) -> Option<Result<String, RenderError>> {
        Some(render_prompt(row).map_err(RenderError::Metadata))
    }

    /// The rewriting problem: its equations, start and end terms.
    fn split_group(&self, row: &Record) -> Option<String> {
        let meta: serde_json::Value = serde_json::from_str(&row.metadata).ok()?;
        let part = |k: &str| meta.get(k).map(|v| v.to_string()).unwrap_or_default();
        Some(format!(
            "eq:{}|{}|{}",
            part("equationalAxioms"),
            part("start"),
            part("end")
        ))
    }

    fn exploit_answers(&self, row: &Record) -> Vec<crate::tasks::audit::Exploit> {
        match task_of(&row.task) {
            Ok(_) => super::exploits::answers(&row.task),
            Err(_) => Vec::new(),
        }
    }

    fn audit_items(&self, row: &Record) -> Option<Result<Vec<AuditItem>, TaskError>> {
        let task = task_of(&row.task).ok()?;
        let item = super::audit::item(task, &row.prompt, &row.answer)?;
        Some(item.map(|it| vec![it]).map_err(TaskError::Record))
    }
}

/// The `instance` field of an EQ row's metadata (what the prompt shows).
#[derive(Deserialize)]
struct Shown<I> {
    instance: I,
}

/// An EQ row's prompt from the instance stored in its metadata.
fn render_prompt(row: &Record) -> Result<String, String> {
    fn instance<I: serde::de::DeserializeOwned>(row: &Record) -> Result<I, String> {
        serde_json::from_str::<Shown<I>>(&row.metadata)
            .map(|s| s.instance)
            .map_err(|e| format!("metadata: {e}"))
    }
    Ok(match task_of(&row.task)? {
        Task::ProofChecking => super::pc::prompt(&instance::<super::pc::PcInstance>(row)?.proof),
        Task::EquationRecovery => super::er::prompt(&instance::<super::er::ErInstance>(row)?.proof),
        Task::GapFilling => super::gf::prompt(&instance::<super::gf::GfInstance>(row)?),
    })
}

/// One `saturate eq` run.
pub struct EqGenerator {
    /// The settings.
    pub config: EqConfig,
    /// Run seed.
    pub seed: u64,
}

impl Generator for EqGenerator {
    fn family(&self) -> &dyn TaskFamily {
        &EQ
    }

    fn version(&self) -> &'static str {
        VERSION
    }

    fn cells(&self) -> Vec<Cell> {
        let count = self.config.count as u64;
        let fill = Fill::UntilFull {
            budget: count.saturating_mul(20).saturating_add(100),
            patience: None,
        };
        let rows = Task::ALL.into_iter().map(|t| GridRow {
            config: t.config(),
            group: "EQ".into(),
            tag: 0,
            fill,
        });
        cell_grid(rows, &self.config.levels, count)
    }

    fn build(&self, cell: &Cell, index: u64, _: &mut Worker) -> Attempt {
        let Ok(task) = task_of(cell.config) else {
            return Attempt::rejected(&EqReject::NoInstance);
        };
        match super::build(task, cell.level, self.seed, index) {
            Ok(Some(b)) => Attempt::built(b),
            Ok(None) => Attempt::rejected(&EqReject::NoInstance),
            // An internal consistency check failed: a bug, listed in rejects/.
            Err(e) => Attempt {
                built: None,
                rejects: vec!["certificate_failure"],
                bugs: vec![crate::tasks::fault::RejectEntry::from_check(
                    cell.id(index),
                    e.to_string(),
                )],
                ..Attempt::default()
            },
        }
    }

    fn dedup_across_levels(&self) -> bool {
        true
    }

    fn manifest(&self) -> serde_json::Value {
        let mut levels = self.config.levels.clone();
        levels.sort_unstable();
        levels.dedup();
        let level_params: serde_json::Map<String, serde_json::Value> = levels
            .iter()
            .filter_map(|&l| {
                Some((
                    l.to_string(),
                    serde_json::to_value(GenParams::level(l)?).ok()?,
                ))
            })
            .collect();
        serde_json::json!({
            "generator": VERSION,
            "count": self.config.count,
            "levels": levels,
            "levelParams": level_params,
            "gapFilling": "balanced equations, at most 2 redexes per step",
        })
    }

    fn card(&self) -> String {
        "Equational-logic rewrite proofs after ProofGrid's EQ1 (proof checking, elided-equation recovery, gap filling), generated from a seed; every label certified by the step checker and every gold answer passed through its scorer.".into()
    }
}
