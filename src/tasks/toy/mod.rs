//! A toy task family, compiled only with the `toy-family` feature: the
//! proof that a family is one folder plus one registry line
//! (`tasks/registry.rs`) and its `[tasks.toy]` section. Nothing outside
//! this folder names it: the configuration reads its section, `saturate
//! generate toy` runs it, and `verify`, `score`, `audit`, `merge` and the
//! trace column find it through the registry. `tests/toy_family.rs` runs
//! it through all of them with the real binary
//! (`cargo test --release --features toy-family --test toy_family`).
//!
//! The task (config `toy_parity`): is the sum of a few numbers even? The
//! level is how many numbers (level + 1), each below 100; the label is
//! certified by summing again, which is all `verify` has to do.

use crate::dataset::Record;
use crate::tasks::answer::AnswerShape;
use crate::tasks::error::BadValue;
use crate::tasks::error::{GeneratorError, RenderError};
use crate::tasks::family::{
    Attempt, Built, Cell, ConfigInfo, Fill, Generator, ScoreContext, TaskFamily, Worker,
    metadata_json,
};
use crate::tasks::generation::{
    FamilyConfig, Generation, GridRow, Section, SectionInfo, cell_grid, section_as,
};
use crate::tasks::{Score, TaskError};
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The generator version in manifests.
pub const VERSION: &str = "toy-1";

/// The one config the toy family writes.
const CONFIG: &str = "toy_parity";

/// The `[tasks.toy]` section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ToyConfig {
    /// Rows per level.
    pub count: usize,
    /// Levels (level `l` sums `l + 1` numbers).
    pub levels: Vec<u8>,
    /// Rows per Parquet shard.
    pub max_rows_per_shard: usize,
}

impl Default for ToyConfig {
    fn default() -> Self {
        ToyConfig {
            count: 4,
            levels: vec![1, 2],
            max_rows_per_shard: 10_000,
        }
    }
}

impl FamilyConfig for ToyConfig {
    const NAME: &'static str = "toy";

    crate::rows_fields!();

    fn validate(&self) -> Result<(), BadValue> {
        match self.levels.iter().find(|&&l| !(1..=9).contains(&l)) {
            Some(l) => Err(BadValue::new(
                "tasks.toy.levels",
                format!("no toy level {l} (levels 1-9)"),
            )),
            None if self.levels.is_empty() => {
                Err(BadValue::new("tasks.toy.levels", "no level selected"))
            }
            None => Ok(()),
        }
    }
}

/// The toy family.
pub struct ToyFamily;

/// The registered toy family.
pub static TOY: ToyFamily = ToyFamily;

/// The prompt of a row from its numbers.
fn prompt(numbers: &[u64]) -> String {
    let list: Vec<String> = numbers.iter().map(u64::to_string).collect();
    format!(
        "Numbers: {}\n\nIs the sum of the numbers even? Answer yes or no.\n",
        list.join(" + ")
    )
}

/// The gold answer of a row from its numbers.
fn label(numbers: &[u64]) -> &'static str {
    if numbers.iter().sum::<u64>() % 2 == 0 {
        "yes"
    } else {
        "no"
    }
}

/// A row's numbers, read from its metadata.
fn numbers(row: &Record) -> Result<Vec<u64>, TaskError> {
    let meta = metadata_json(row)?;
    meta["numbers"]
        .as_array()
        .and_then(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>())
        .filter(|n| !n.is_empty() && n.len() <= 10)
        .ok_or_else(|| TaskError::Record("metadata: numbers is not a list of 1-10 counts".into()))
}

impl TaskFamily for ToyFamily {
    fn name(&self) -> &'static str {
        "toy"
    }

    fn configs(&self) -> Vec<ConfigInfo> {
        vec![ConfigInfo {
            name: CONFIG,
            description: "Toy parity: is the sum of a few numbers even (the registry's test family).",
        }]
    }

    fn score(&self, row: &Record, answer: &str, _: &mut ScoreContext) -> Score {
        match answer.trim().to_ascii_lowercase().as_str() {
            a @ ("yes" | "no") if a == row.answer => Score::correct(),
            "yes" | "no" => Score::wrong("the other parity"),
            _ => Score::malformed("expected yes or no"),
        }
    }

    fn verify(&self, row: &Record) -> Result<String, TaskError> {
        let n = numbers(row)?;
        if label(&n) != row.answer {
            return Err(TaskError::Rejected(format!(
                "the sum {} does not give {:?}",
                n.iter().sum::<u64>(),
                row.answer
            )));
        }
        Ok(format!("sum {} re-added", n.iter().sum::<u64>()))
    }

    fn answer_shape(&self, _: &str) -> AnswerShape {
        AnswerShape::Word
    }

    fn render_prompt(&self, row: &Record) -> Option<Result<String, RenderError>> {
        Some(numbers(row).map(|n| prompt(&n)).map_err(RenderError::Row))
    }

    fn trace(&self, _: &str, metadata: &Value, _: &Value) -> Option<Vec<String>> {
        let n: Vec<u64> = metadata["numbers"]
            .as_array()?
            .iter()
            .map(Value::as_u64)
            .collect::<Option<_>>()?;
        let sum: u64 = n.iter().sum();
        Some(vec![
            format!("Sum: {sum}."),
            format!("So the answer is {}.", label(&n)),
        ])
    }
}

/// `saturate generate toy`.
pub struct ToyGeneration;

impl Generation for ToyGeneration {
    fn name(&self) -> &'static str {
        "toy"
    }

    fn about(&self) -> &'static str {
        "the toy parity family (feature toy-family; the registry's test)"
    }

    fn section(&self) -> SectionInfo {
        SectionInfo::of::<ToyConfig>()
    }

    fn title(&self, _: &dyn Section) -> String {
        "saturate toy".into()
    }

    fn generators(
        &self,
        section: &dyn Section,
        seed: u64,
    ) -> Result<Vec<Box<dyn Generator>>, GeneratorError> {
        let config = section_as::<ToyConfig>(section)
            .ok_or(GeneratorError::WrongSection("toy"))?
            .clone();
        Ok(vec![Box::new(ToyGenerator { config, seed })])
    }
}

/// One toy run.
pub struct ToyGenerator {
    config: ToyConfig,
    seed: u64,
}

impl Generator for ToyGenerator {
    fn family(&self) -> &dyn TaskFamily {
        &TOY
    }

    fn version(&self) -> &'static str {
        VERSION
    }

    fn cells(&self) -> Vec<Cell> {
        let count = self.config.count as u64;
        let row = GridRow {
            config: CONFIG,
            group: "TOY".into(),
            tag: 0,
            fill: Fill::UntilFull {
                budget: count.saturating_mul(20).saturating_add(20),
                patience: None,
            },
        };
        cell_grid([row], &self.config.levels, count)
    }

    fn build(&self, cell: &Cell, index: u64, _: &mut Worker) -> Attempt {
        let level = cell.level.to_string();
        let mut rng = super::instance_rng(self.seed, &[CONFIG, &level], index);
        let numbers: Vec<u64> = (0..=cell.level).map(|_| rng.random_range(0..100)).collect();
        let answer = label(&numbers);
        Attempt::built(Built {
            prompt: prompt(&numbers),
            answer: answer.into(),
            metadata: json!({ "numbers": numbers }).into(),
            certificate: json!({ "sum": numbers.iter().sum::<u64>() }).to_string(),
            key: format!("{numbers:?}"),
            group: None,
            label: answer.into(),
            domain: None,
            source: Some("toy".into()),
            stats: Vec::new(),
            difficulty: vec![("numbers", numbers.len() as f64)],
        })
    }

    fn manifest(&self) -> Value {
        json!({
            "generator": VERSION,
            "count": self.config.count,
            "levels": self.config.levels,
        })
    }
}
