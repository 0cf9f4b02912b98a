//! The equivalence family (after AutoEval, seed 002) on the shared
//! abstraction ([`crate::tasks::family`]): the `[tasks.equiv]` settings, the
//! cells (task × level, filled until `count`), instance building through
//! [`super::build`], scoring and re-checking.

use super::{Task, pl::Level};
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

/// The `[tasks.equiv]` section: what `saturate equiv` generates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EquivConfig {
    /// Rows per config and level.
    pub count: usize,
    /// Difficulty levels (any from 1; the schedules are [`Level::of`] and
    /// [`super::first_order::Level::of`]).
    pub levels: Vec<u8>,
    /// Rows per Parquet shard.
    pub max_rows_per_shard: usize,
}

impl Default for EquivConfig {
    fn default() -> Self {
        EquivConfig {
            count: 50,
            levels: vec![1, 2, 3, 4],
            max_rows_per_shard: 10_000,
        }
    }
}

impl FamilyConfig for EquivConfig {
    const NAME: &'static str = "equiv";

    crate::rows_fields!();

    fn validate(&self) -> Result<(), BadValue> {
        if let Some(l) = self.levels.iter().find(|&&l| Level::of(l).is_none()) {
            return Err(BadValue::new(
                "tasks.equiv.levels",
                format!("no equivalence level {l} (levels start at 1)"),
            ));
        }
        if self.levels.is_empty() {
            return Err(BadValue::new("tasks.equiv.levels", "no level selected"));
        }
        Ok(())
    }
}

/// `saturate equiv` (`saturate generate equiv`): one generator, no stage.
pub struct EquivGeneration;

impl Generation for EquivGeneration {
    fn name(&self) -> &'static str {
        "equiv"
    }

    fn about(&self) -> &'static str {
        "the equivalence dataset (after AutoEval): equivalence and restatement of propositional and first-order formulas"
    }

    fn section(&self) -> SectionInfo {
        SectionInfo::of::<EquivConfig>()
    }

    fn title(&self, _: &dyn Section) -> String {
        "saturate equiv".into()
    }

    fn generators(
        &self,
        section: &dyn Section,
        seed: u64,
    ) -> Result<Vec<Box<dyn Generator>>, GeneratorError> {
        let config = section_as::<EquivConfig>(section)
            .ok_or(GeneratorError::WrongSection("equiv"))?
            .clone();
        Ok(vec![Box::new(EquivGenerator { config, seed })])
    }
}

/// The equivalence family (static face).
pub struct EquivFamily;

/// The registered equivalence family.
pub static EQUIV: EquivFamily = EquivFamily;

/// Why an equivalence candidate gave no instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EquivReject {
    /// No attempt at this index gave a contingent formula with the wanted
    /// rewriting or mutation.
    NoInstance,
}

impl RejectReason for EquivReject {
    fn name(&self) -> &'static str {
        match self {
            EquivReject::NoInstance => "no_instance",
        }
    }
}

fn task_of(config: &str) -> Result<Task, String> {
    Task::from_config(config).ok_or_else(|| format!("no equivalence task {config}"))
}

impl TaskFamily for EquivFamily {
    fn name(&self) -> &'static str {
        "equiv"
    }

    fn trace(
        &self,
        _: &str,
        metadata: &serde_json::Value,
        certificate: &serde_json::Value,
    ) -> Option<Vec<String>> {
        crate::tasks::trace::equiv(metadata, certificate)
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
            Ok(t) => super::score(t, &row.metadata, &row.answer, answer),
            Err(e) => Score::malformed(e),
        }
    }

    fn verify(&self, row: &Record) -> Result<String, TaskError> {
        let task = task_of(&row.task).map_err(TaskError::Record)?;
        super::verify(task, &row.metadata, &row.certificate, &row.answer)
            .map_err(TaskError::Rejected)
    }

    /// A label is one word; a restatement is one formula, taken as the
    /// text left once the explicit wrappers are removed.
    fn answer_shape(&self, config: &str) -> AnswerShape {
        match Task::from_config(config) {
            Some(t) if t.is_judgement() => AnswerShape::Word,
            _ => AnswerShape::Text,
        }
    }

    fn render_prompt(&self, row: &Record) -> Option<Result<String, RenderError>> {
        Some(
            task_of(&row.task)
                .and_then(|t| super::render(t, &row.metadata))
                .map_err(RenderError::Metadata),
        )
    }

    /// The drawn formula (of a pair, the side `drawn` names; of a
    /// roundtrip row, the shown one): its restatements and mutations stay
    /// in one split.
    fn split_group(&self, row: &Record) -> Option<String> {
        let meta: serde_json::Value = serde_json::from_str(&row.metadata).ok()?;
        let side = meta
            .get("drawn")
            .and_then(|s| s.as_str())
            .unwrap_or("formula");
        let f = meta.get(side)?.as_str()?;
        Some(format!("equiv:{f}"))
    }

    fn exploit_answers(&self, row: &Record) -> Vec<crate::tasks::audit::Exploit> {
        task_of(&row.task).map_or_else(|_| Vec::new(), |t| super::exploits::answers(t, row))
    }

    fn audit_items(&self, row: &Record) -> Option<Result<Vec<AuditItem>, TaskError>> {
        match task_of(&row.task).ok()? {
            Task::EquivalencePl => Some(
                super::audit::item(&row.metadata, &row.answer)
                    .map(|it| vec![it])
                    .map_err(TaskError::Record),
            ),
            Task::EquivalenceFol => Some(
                super::audit::fol_item(&row.metadata, &row.answer)
                    .map(|it| vec![it])
                    .map_err(TaskError::Record),
            ),
            Task::RoundtripPl | Task::RoundtripFol => None,
        }
    }
}

/// One `saturate equiv` run.
pub struct EquivGenerator {
    /// The settings.
    pub config: EquivConfig,
    /// Run seed.
    pub seed: u64,
}

impl EquivGenerator {
    fn levels(&self) -> Vec<u8> {
        let mut levels = self.config.levels.clone();
        levels.sort_unstable();
        levels.dedup();
        levels
    }
}

impl Generator for EquivGenerator {
    fn family(&self) -> &dyn TaskFamily {
        &EQUIV
    }

    fn version(&self) -> &'static str {
        super::VERSION
    }

    fn cells(&self) -> Vec<Cell> {
        let count = self.config.count as u64;
        let fill = Fill::UntilFull {
            budget: count.saturating_mul(20).saturating_add(100),
            patience: None,
        };
        let rows = Task::ALL.into_iter().map(|t| GridRow {
            config: t.config(),
            group: if t.first_order() { "FOL" } else { "PL" }.into(),
            tag: 0,
            fill,
        });
        cell_grid(rows, &self.config.levels, count)
    }

    fn build(&self, cell: &Cell, index: u64, _: &mut Worker) -> Attempt {
        let Ok(task) = task_of(cell.config) else {
            return Attempt::rejected(&EquivReject::NoInstance);
        };
        match super::build(task, cell.level, self.seed, index) {
            Ok(Some(b)) => Attempt::built(b),
            Ok(None) => Attempt::rejected(&EquivReject::NoInstance),
            // A label failed its own re-check: a bug, listed in rejects/.
            Err(e) => Attempt {
                built: None,
                rejects: vec!["certificate_failure"],
                bugs: vec![crate::tasks::fault::RejectEntry::from_check(
                    cell.id(index),
                    e,
                )],
                ..Attempt::default()
            },
        }
    }

    fn manifest(&self) -> serde_json::Value {
        let levels = self.levels();
        let schedule = |f: &dyn Fn(u8) -> Option<serde_json::Value>| {
            levels
                .iter()
                .filter_map(|&l| Some((l.to_string(), f(l)?)))
                .collect::<serde_json::Map<String, serde_json::Value>>()
        };
        let pl = schedule(&|l| serde_json::to_value(Level::of(l)?).ok());
        let fol = schedule(&|l| serde_json::to_value(super::first_order::Level::of(l)?).ok());
        serde_json::json!({
            "generator": super::VERSION,
            "count": self.config.count,
            "levels": levels,
            "levelParams": pl,
            "levelParamsFol": fol,
        })
    }

    fn card(&self) -> String {
        "Equivalence and restatement of propositional and first-order formulas after AutoEval (seed 002): pairs of formulas to judge equivalent or not, and formulas to restate over a fixed vocabulary. Propositional labels are decided by SAT and re-checked by a truth table or a counterexample; first-order labels by the built-in prover in both directions (refutations and clausification re-checked by the independent checker) or a finite countermodel re-checked by evaluation; every gold restatement is scored by the task's own scorer.".into()
    }
}
