//! TOML configuration: every knob with a default, unknown keys rejected, so a
//! typo in a config file is an error rather than a silently ignored setting.

use crate::dataset::OutputFormat;
use crate::dataset::splits::SplitBy;
use crate::prover::ProverLimits;
use crate::saturation::Params;
use crate::tasks::format::AnswerFormat;
use crate::tasks::generation::{FamilyConfig, Section, SectionInfo, section_as, section_as_mut};
use crate::tasks::registry::Registry;
use serde::{Deserialize, Deserializer, Serialize};
use std::path::Path;
use std::str::FromStr;

/// The whole run configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Run seed (reproducibility: same version + config + seed = same output).
    pub seed: u64,
    /// Worker threads for independent units (0 = one per core).
    pub jobs: usize,
    /// Saturation parameters (limits, selection, queues).
    pub saturation: Params,
    /// Work limits of the built-in prover (label certification, `prove`).
    pub prover: ProverLimits,
    /// Task generation, one section per family.
    pub tasks: TasksSection,
    /// How every generator command writes its dataset (`[dataset]`).
    pub dataset: DatasetOptions,
}

/// The `[dataset]` table: presentation, splits and file format, shared by
/// every generator command (`--domain`, `pl`, `eq`). Its choices are read
/// into their enums here, once; an unknown value is a parse error naming
/// the key and the choices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatasetOptions {
    /// Answer format of prompts and completions: `plain`, `tags`, `json`.
    #[serde(deserialize_with = "answer_format_choice")]
    pub answer_format: AnswerFormat,
    /// The system turn of the `messages` column.
    pub system_prompt: String,
    /// Fill the `trace` column with each certificate as a readable
    /// derivation.
    pub trace: bool,
    /// Percent of rows in train, validation and test (sum 100).
    pub split: [u32; 3],
    /// What must not cross splits: `theorem` (the theorem or problem of a
    /// row) or `source` (its axiom file or generator).
    #[serde(deserialize_with = "split_by_choice")]
    pub split_by: SplitBy,
    /// Shard format: `parquet` or `jsonl`.
    #[serde(deserialize_with = "format_choice")]
    pub format: OutputFormat,
}

/// A `[dataset]` choice read from its string by the type's `FromStr`; an
/// unknown value is an error naming the dotted key and the choices, as
/// the range checks name theirs.
fn choice<'de, D: Deserializer<'de>, T: FromStr<Err = String>>(
    d: D,
    key: &str,
) -> Result<T, D::Error> {
    let s = String::deserialize(d)?;
    s.parse()
        .map_err(|m| serde::de::Error::custom(format!("dataset.{key}: {m}")))
}

fn answer_format_choice<'de, D: Deserializer<'de>>(d: D) -> Result<AnswerFormat, D::Error> {
    choice(d, "answer_format")
}

fn split_by_choice<'de, D: Deserializer<'de>>(d: D) -> Result<SplitBy, D::Error> {
    choice(d, "split_by")
}

fn format_choice<'de, D: Deserializer<'de>>(d: D) -> Result<OutputFormat, D::Error> {
    choice(d, "format")
}

impl Default for DatasetOptions {
    fn default() -> Self {
        DatasetOptions {
            answer_format: AnswerFormat::Plain,
            system_prompt: crate::dataset::DEFAULT_SYSTEM_PROMPT.into(),
            trace: false,
            split: [80, 10, 10],
            split_by: SplitBy::Theorem,
            format: OutputFormat::Parquet,
        }
    }
}

impl DatasetOptions {
    /// Checks the values the types do not constrain (the choices are
    /// enums, checked when read); the error names the key.
    pub fn validate(&self) -> Result<(), BadValue> {
        let bad = |key: &str, message: String| BadValue {
            key: format!("dataset.{key}"),
            message,
        };
        if self.split.iter().sum::<u32>() != 100 || self.split[0] == 0 {
            return Err(bad(
                "split",
                format!(
                    "{:?}: train, validation and test percentages must sum to 100 with train > 0",
                    self.split
                ),
            ));
        }
        if self.system_prompt.len() > 100_000 {
            return Err(bad("system_prompt", "longer than 100000 bytes".to_string()));
        }
        Ok(())
    }
}

/// The `[tasks]` table: one section per registered family
/// (`[tasks.<name>]`, [`crate::tasks::generation::FamilyConfig`]), each
/// the family's own struct with the shared `count`, `levels` and
/// `max_rows_per_shard`. The families come from
/// [`crate::tasks::registry::Registry::builtin`], in its order (which is the
/// order the sections print in); a missing table takes the family's
/// defaults and an unknown table name is refused.
pub struct TasksSection {
    sections: Vec<Box<dyn Section>>,
}

impl TasksSection {
    /// The section of the family whose struct is `T`. Every registered
    /// family's section is present (defaults and parsing fill them all), so
    /// a missing one is a programming error: `T` is not a registered
    /// family's section.
    pub fn get<T: FamilyConfig>(&self) -> &T {
        self.sections
            .iter()
            .find_map(|s| section_as::<T>(s.as_ref()))
            .unwrap_or_else(|| panic!("no registered family has the section [tasks.{}]", T::NAME))
    }

    /// [`TasksSection::get`], mutable.
    pub fn get_mut<T: FamilyConfig>(&mut self) -> &mut T {
        self.sections
            .iter_mut()
            .find_map(|s| section_as_mut::<T>(s.as_mut()))
            .unwrap_or_else(|| panic!("no registered family has the section [tasks.{}]", T::NAME))
    }

    /// The section named `name` (`[tasks.<name>]`).
    pub fn section(&self, name: &str) -> Option<&dyn Section> {
        self.sections
            .iter()
            .find(|s| s.name() == name)
            .map(|s| s.as_ref())
    }

    /// [`TasksSection::section`], mutable.
    pub fn section_mut(&mut self, name: &str) -> Option<&mut dyn Section> {
        match self.sections.iter_mut().find(|s| s.name() == name) {
            Some(s) => Some(s.as_mut()),
            None => None,
        }
    }

    /// Every section, in registry order.
    pub fn sections(&self) -> impl Iterator<Item = &dyn Section> {
        self.sections.iter().map(|s| s.as_ref())
    }
}

impl Default for TasksSection {
    fn default() -> Self {
        TasksSection {
            sections: Registry::shared()
                .sections()
                .iter()
                .map(|s| (s.default)())
                .collect(),
        }
    }
}

impl Clone for TasksSection {
    fn clone(&self) -> Self {
        TasksSection {
            sections: self.sections.iter().map(|s| s.clone_box()).collect(),
        }
    }
}

impl PartialEq for TasksSection {
    fn eq(&self, other: &Self) -> bool {
        self.sections.len() == other.sections.len()
            && self
                .sections
                .iter()
                .zip(&other.sections)
                .all(|(a, b)| a.same(b.as_ref()))
    }
}

impl std::fmt::Debug for TasksSection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.sections.iter().map(|s| (s.name(), s)))
            .finish()
    }
}

impl Serialize for TasksSection {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeMap};
        let mut map = serializer.serialize_map(Some(self.sections.len()))?;
        for s in &self.sections {
            map.serialize_entry(s.name(), &s.to_toml().map_err(S::Error::custom)?)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for TasksSection {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TasksVisitor)
    }
}

/// Reads the `[tasks]` table section by section, each by its family.
struct TasksVisitor;

/// Reads one family's table (an error inside it carries the table's
/// position).
struct SectionSeed(SectionInfo);

impl<'de> serde::de::DeserializeSeed<'de> for SectionSeed {
    type Value = Box<dyn Section>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let value = toml::Value::deserialize(d)?;
        (self.0.parse)(value).map_err(|e| {
            serde::de::Error::custom(format!(
                "tasks.{}{SECTION_MARK}{}",
                self.0.name,
                e.message()
            ))
        })
    }
}

impl<'de> serde::de::Visitor<'de> for TasksVisitor {
    type Value = TasksSection;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a table of family sections")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<TasksSection, A::Error> {
        let infos = Registry::shared().sections();
        let mut read: Vec<Option<Box<dyn Section>>> = infos.iter().map(|_| None).collect();
        while let Some(key) = map.next_key::<String>()? {
            let Some(i) = infos.iter().position(|s| s.name == key) else {
                let names: Vec<String> = infos.iter().map(|s| format!("`{}`", s.name)).collect();
                return Err(serde::de::Error::custom(format!(
                    "unknown field `{key}`, expected one of {}",
                    names.join(", ")
                )));
            };
            if read[i].is_some() {
                return Err(serde::de::Error::custom(format!("duplicate field `{key}`")));
            }
            read[i] = Some(map.next_value_seed(SectionSeed(infos[i]))?);
        }
        Ok(TasksSection {
            sections: infos
                .iter()
                .zip(read)
                .map(|(info, s)| s.unwrap_or_else(info.default))
                .collect(),
        })
    }
}

/// A configuration file that could not be read or understood.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: cannot read config: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid TOML for this schema.
    #[error("{path}:{line}:{col}: bad config: {message}")]
    Parse {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What was wrong.
        message: String,
    },
}

impl Config {
    /// Parses a configuration from TOML text and checks every value's range
    /// ([`Config::validate`]); `origin` names it in errors, which carry the
    /// line and column of the offending value.
    pub fn from_toml(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let cfg: Config = toml::from_str(text).map_err(|e| {
            // An error inside a family section comes back without a span,
            // its message prefixed with the section (`SectionSeed`): the
            // position is found from the key it names.
            let (located, message) = match e.message().split_once(SECTION_MARK) {
                Some((section, rest)) => (section_error_offset(text, section, rest), rest),
                None => (None, e.message()),
            };
            let (line, col) = located
                .or(e.span().map(|s| s.start))
                .map(|at| line_col(text, at))
                .unwrap_or((1, 1));
            ConfigError::Parse {
                path: origin.to_string(),
                line,
                col,
                message: message.to_string(),
            }
        })?;
        cfg.validate().map_err(|bad| {
            let (line, col) = key_span(text, &bad.key)
                .map(|at| line_col(text, at))
                .unwrap_or((1, 1));
            ConfigError::Parse {
                path: origin.to_string(),
                line,
                col,
                message: bad.to_string(),
            }
        })?;
        Ok(cfg)
    }

    /// Checks the range of every numeric knob (and the other constraints
    /// the types cannot express), so that no value can make a run panic,
    /// wrap around or ask for absurd resources. Work limits are at most
    /// [`MAX_WORK`]; every value must also be representable in TOML (signed
    /// 64-bit), since the configuration is printed and recorded.
    pub fn validate(&self) -> Result<(), BadValue> {
        let bad = |key: &str, message: String| {
            Err(BadValue {
                key: key.to_string(),
                message,
            })
        };
        let work = |key: &str, v: u64| {
            if v > MAX_WORK {
                bad(
                    key,
                    format!("{v} is above the largest work limit {MAX_WORK}"),
                )
            } else {
                Ok(())
            }
        };
        let within = |key: &str, v: u64, lo: u64, hi: u64| {
            if v < lo || v > hi {
                bad(key, format!("{v} is not in {lo}-{hi}"))
            } else {
                Ok(())
            }
        };
        if self.seed > i64::MAX as u64 {
            bad("seed", format!("{} is above {}", self.seed, i64::MAX))?;
        }
        within("jobs", self.jobs as u64, 0, MAX_JOBS)?;
        let s = &self.saturation;
        let l = &s.limits;
        for (key, v) in [
            ("saturation.limits.max_processed", l.max_processed),
            ("saturation.limits.max_generated", l.max_generated),
            ("saturation.limits.max_kept", l.max_kept),
            ("saturation.limits.max_terms", l.max_terms),
            (
                "saturation.limits.max_generated_literals_per_given",
                l.max_generated_literals_per_given,
            ),
            (
                "saturation.limits.max_rewrite_attempts",
                l.max_rewrite_attempts,
            ),
        ] {
            if let Some(v) = v {
                work(key, v)?;
            }
        }
        within(
            "saturation.weight_picks_per_age_pick",
            s.weight_picks_per_age_pick.into(),
            0,
            1_000_000,
        )?;
        within(
            "saturation.goal_picks_per_age_pick",
            s.goal_picks_per_age_pick.into(),
            0,
            1_000_000,
        )?;
        within(
            "saturation.non_goal_weight_factor",
            s.non_goal_weight_factor.into(),
            1,
            1_000_000,
        )?;
        if let Some(w) = s.max_clause_weight {
            within("saturation.max_clause_weight", w.into(), 1, 1_000_000_000)?;
        }
        if let Some(n) = s.max_clause_literals {
            within("saturation.max_clause_literals", n.into(), 1, 1_000_000)?;
        }
        within("saturation.iterate.rounds", s.iterate.rounds.into(), 1, 100)?;
        within(
            "saturation.iterate.promote",
            s.iterate.promote.into(),
            1,
            1_000_000,
        )?;
        if !(0.0..=1.0).contains(&s.iterate.min_score) {
            bad(
                "saturation.iterate.min_score",
                format!("{} is not in 0-1", s.iterate.min_score),
            )?;
        }
        // Depth on demand: graph sizes within what levels 1-255 ask,
        // budgets within the work limits, `near` a share.
        let d = &s.deepen;
        within("saturation.deepen.depth", d.depth.into(), 0, 255)?;
        within("saturation.deepen.nodes", d.nodes.into(), 0, 1_000_000)?;
        within(
            "saturation.deepen.theorems",
            d.theorems.into(),
            0,
            1_000_000,
        )?;
        within("saturation.deepen.pool", d.pool.into(), 0, 1_000_000)?;
        work("saturation.deepen.max_processed", d.max_processed)?;
        work("saturation.deepen.max_kept", d.max_kept)?;
        within("saturation.deepen.near", d.near.into(), 0, 100)?;
        for &[depth, nodes] in &d.targets {
            within("saturation.deepen.targets", depth.into(), 1, 255)?;
            within("saturation.deepen.targets", nodes.into(), 1, 1_000_000)?;
        }
        // `[prover]` and every family section's own generation limits.
        let limits = std::iter::once(("prover".to_string(), &self.prover)).chain(
            self.tasks
                .sections()
                .filter_map(|s| Some((format!("tasks.{}.prover", s.name()), s.prover_limits()?))),
        );
        for (section, p) in limits {
            let key = |k: &str| format!("{section}.{k}");
            work(&key("quick_processed"), p.quick_processed)?;
            work(&key("max_processed"), p.max_processed)?;
            work(&key("quick_ground_clauses"), p.quick_ground_clauses)?;
            work(&key("max_ground_clauses"), p.max_ground_clauses)?;
            work(&key("quick_sat_conflicts"), p.quick_sat_conflicts)?;
            work(&key("sat_conflicts"), p.sat_conflicts)?;
            work(&key("max_rewrite_attempts"), p.max_rewrite_attempts)?;
            within(
                &key("quick_model_size"),
                p.quick_model_size.into(),
                0,
                MAX_MODEL_SIZE,
            )?;
            within(
                &key("max_model_size"),
                p.max_model_size.into(),
                0,
                MAX_MODEL_SIZE,
            )?;
            within(&key("schedule_growth"), p.schedule_growth.into(), 1, 1_000)?;
            within(&key("unfold_limit"), p.unfold_limit.into(), 0, 1_000)?;
            if let Some(path) = &p.schedule_table {
                if let Err(e) = crate::prover::schedule::Table::read(path) {
                    bad(&key("schedule_table"), e.to_string())?;
                }
            }
            within(
                &key("goal_weight_factor"),
                p.goal_weight_factor.into(),
                1,
                1_000_000,
            )?;
            within(
                &key("max_clause_weight"),
                p.max_clause_weight.into(),
                0,
                1_000_000_000,
            )?;
        }
        // The shared block of every family, then the family's own checks
        // (which name their key themselves).
        for section in self.tasks.sections() {
            section
                .rows()
                .validate(section.name(), MAX_COUNT)
                .map_err(|(key, message)| BadValue { key, message })?;
            section.validate()?;
        }
        self.dataset.validate()
    }

    /// Reads a configuration file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_toml(&text, &path.display().to_string())
    }

    /// The configuration as TOML (for manifests and `--print-config`).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("config serialises")
    }
}

/// Largest work limit a configuration accepts (processed, generated or
/// kept clauses, terms, ground clauses, SAT conflicts): far beyond any
/// feasible run, and small enough that sums of limits cannot overflow.
pub const MAX_WORK: u64 = 1_000_000_000_000_000;
/// Largest worker count accepted (`jobs`, `--jobs`).
pub const MAX_JOBS: u64 = 1024;
/// Largest instance count, pool size or shard size accepted.
pub use crate::tasks::generation::MAX_COUNT;
/// Largest finite-model domain size accepted.
pub const MAX_MODEL_SIZE: u64 = 64;

/// A configuration value outside its range (defined beside the task
/// errors, which the families' config checks return).
pub use crate::tasks::error::BadValue;

/// Separates the section from the message in a family section's parse
/// error (`Config::from_toml` locates it by the section and strips it).
const SECTION_MARK: &str = "\u{1f}: ";

/// Byte offset of what a family section's parse error names: the unknown
/// or ill-typed key (`unknown field `x``, `invalid type ... for key `x``)
/// in the table `section`, else the table itself.
fn section_error_offset(text: &str, section: &str, message: &str) -> Option<usize> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let mut item = doc.as_item();
    for part in section.split('.') {
        item = item.get(part)?;
    }
    let named = message.split('`').nth(1);
    if let (Some(name), Some(table)) = (named, item.as_table_like()) {
        if let Some((key, _)) = table.get_key_value(name) {
            if let Some(span) = key.span() {
                return Some(span.start);
            }
        }
    }
    item.span().map(|s| s.start)
}

/// Byte offset of the value of a dotted key in TOML text, if it is written
/// there (a value set by default has no position).
fn key_span(text: &str, key: &str) -> Option<usize> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let mut item = doc.as_item();
    for part in key.split('.') {
        item = item.get(part)?;
    }
    item.span().map(|s| s.start)
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_and_partial_files_work() {
        let c = Config::default();
        assert_eq!(Config::from_toml(&c.to_toml(), "x").unwrap(), c);
        let p =
            Config::from_toml("seed = 7\n[saturation.limits]\nmax_processed = 10\n", "x").unwrap();
        assert_eq!(p.seed, 7);
        assert_eq!(p.saturation.limits.max_processed, Some(10));
        assert_eq!(p.saturation.selection, c.saturation.selection);
    }

    /// A generation prover section that sets one key keeps the generation
    /// defaults for the rest (it once took `[prover]`'s: 2,000 given
    /// clauses instead of 200, definitions unfolded).
    #[test]
    fn a_partial_generation_prover_section_keeps_the_generation_defaults() {
        let c = Config::from_toml("[tasks.tptp.prover]\nmax_model_size = 7\n", "x").unwrap();
        let d = Config::default();
        let limits = |c: &Config| {
            c.tasks
                .section("tptp")
                .unwrap()
                .prover_limits()
                .unwrap()
                .clone()
        };
        let (got, mut want) = (limits(&c), limits(&d));
        assert_eq!(got.max_model_size, 7);
        want.max_model_size = 7;
        assert_eq!(got, want);
        assert_ne!(want.max_processed, d.prover.max_processed);
        assert!(!got.unfold_definitions);
        let e = Config::from_toml(
            "[tasks.tptp.prover]
max_modl_size = 7
",
            "c.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("c.toml:"), "{e}");
        assert!(e.contains("max_modl_size"), "{e}");
    }

    #[test]
    fn unknown_keys_are_errors_with_position() {
        let e = Config::from_toml("seed = 1\n[saturation]\nslection = \"none\"\n", "cfg.toml")
            .unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("cfg.toml:3:"), "{msg}");
        assert!(msg.contains("slection"), "{msg}");
    }

    #[test]
    fn out_of_range_values_are_errors_with_position() {
        // R09: 2^32-1 weight picks made the age/weight counter divide by zero.
        let e = Config::from_toml(
            "seed = 1\n[saturation]\nweight_picks_per_age_pick = 4294967295\n",
            "cfg.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("cfg.toml:3:29:"), "{e}");
        assert!(e.contains("saturation.weight_picks_per_age_pick"), "{e}");
        for (text, key) in [
            ("seed = 9223372036854775807\njobs = 100000\n", "jobs"),
            (
                "[saturation.limits]\nmax_processed = 9223372036854775807\n",
                "max_processed",
            ),
            (
                "[tasks.tptp]\ncount = 9223372036854775807\n",
                "tasks.tptp.count",
            ),
            (
                "[tasks.tptp.prover]\nmax_model_size = 1000\n",
                "tasks.tptp.prover.max_model_size",
            ),
            ("[tasks.tptp]\nlevels = [0]\n", "tasks.tptp.levels"),
            (
                "[saturation.iterate]\nrounds = 0\n",
                "saturation.iterate.rounds",
            ),
            (
                "[saturation.iterate]\nmin_score = 1.5\n",
                "saturation.iterate.min_score",
            ),
            (
                "[saturation]\nmax_clause_literals = 0\n",
                "saturation.max_clause_literals",
            ),
            (
                "[saturation.limits]\nmax_generated_literals_per_given = 9223372036854775807\n",
                "max_generated_literals_per_given",
            ),
            (
                "[tasks.tptp.selection]\ndepth = [1, 0, 3, 4]\n",
                "tasks.tptp.selection.depth",
            ),
            ("[prover]\nschedule_growth = 0\n", "prover.schedule_growth"),
            (
                "[saturation.deepen]\nnear = 101\n",
                "saturation.deepen.near",
            ),
            (
                "[saturation.deepen]\nmax_processed = 9223372036854775807\n",
                "saturation.deepen.max_processed",
            ),
            (
                "[saturation.deepen]\ntargets = [[0, 16]]\n",
                "saturation.deepen.targets",
            ),
            (
                "[tasks.tptp.prover]\nunfold_limit = 5000\n",
                "tasks.tptp.prover.unfold_limit",
            ),
            (
                "[prover]\nschedule_table = \"/nonexistent/t.toml\"\n",
                "prover.schedule_table",
            ),
        ] {
            let e = Config::from_toml(text, "c.toml").unwrap_err().to_string();
            assert!(e.contains(key), "{text}: {e}");
            assert!(
                !e.starts_with("c.toml:1:1:") || text.starts_with("seed"),
                "{e}"
            );
        }
        let big = Config {
            seed: 1 << 63,
            ..Config::default()
        };
        assert_eq!(big.validate().unwrap_err().key, "seed");
        assert!(Config::default().validate().is_ok());
    }

    #[test]
    fn default_toml_holds_every_default() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/default.toml");
        assert_eq!(Config::load(&path).unwrap(), Config::default());
        let text = std::fs::read_to_string(&path).unwrap();
        for section in [
            "[tasks.tptp]",
            "[tasks.pl]",
            "[tasks.pl.pl2]",
            "[tasks.eq]",
            "[tasks.equiv]",
        ] {
            assert!(text.contains(section), "{section} missing");
        }
    }

    #[test]
    fn section_parse_errors_name_the_key_where_it_is() {
        let e = Config::from_toml("seed = 1\n[tasks.eq]\ncount = 2\nbogus = 1\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("c.toml:4:1: bad config: unknown field `bogus`"),
            "{e}"
        );
        let e = Config::from_toml("[tasks.pl.pl2]\nsizes = \"big\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("c.toml:") && !e.starts_with("c.toml:1:1"),
            "{e}"
        );
        assert!(!e.contains('\u{1f}'), "{e}");
        let e = Config::from_toml("[tasks.fol]\ncount = 2\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `fol`"), "{e}");
    }

    #[test]
    fn the_tasks_sections_print_in_field_order() {
        let text = Config::default().to_toml();
        let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s} missing"));
        assert!(at("[tasks.tptp]") < at("[tasks.pl]"));
        assert!(at("[tasks.pl]") < at("[tasks.eq]") && at("[tasks.eq]") < at("[tasks.equiv]"));
        // Within a section, the struct's order (domains first, as written).
        let tptp = &text[at("[tasks.tptp]")..];
        assert!(tptp.find("domains").unwrap() < tptp.find("pool_size").unwrap());
    }

    #[test]
    fn family_sections_are_checked_with_positions() {
        let e = Config::from_toml("[tasks.eq]\nlevels = [0]\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:2:"), "{e}");
        let e = Config::from_toml("[tasks.pl]\nfamilies = [\"pl3\"]\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("tasks.pl.families"), "{e}");
        let e = Config::from_toml("[tasks.pl]\nlevels = [0]\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("tasks.pl.levels") && e.contains("level 0"),
            "{e}"
        );
        Config::from_toml("[tasks.pl]\nlevels = [9]\n", "c.toml").unwrap();
        // The TPTP knobs moved to [tasks.tptp]: the old place is refused.
        let e = Config::from_toml("[tasks]\ncount = 3\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("count") && e.contains("tptp"), "{e}");
    }

    #[test]
    fn the_shipped_configs_parse() {
        for name in ["default.toml", "smoke.toml", "paper.toml"] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("configs")
                .join(name);
            Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
