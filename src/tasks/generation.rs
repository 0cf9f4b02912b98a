//! What generation needs of a family (DESIGN.md §8), so that one command
//! (`saturate generate <name>`), one configuration table per family
//! (`[tasks.<name>]`) and one driver (`pipeline::request::run_family`)
//! serve every family without a per-family match outside its folder:
//!
//! - [`FamilyConfig`]: the family's own section struct, parsed from its
//!   `[tasks.<name>]` table, with the shared [`Rows`] block (`count`,
//!   `levels`, `max_rows_per_shard`) that the configuration checks once for
//!   every family and the command-line overrides set.
//! - [`Section`]: that struct behind a trait object, so `Config` holds the
//!   sections of the registered families without naming them.
//! - [`Generation`]: the family's generate command: its section, its
//!   generators for the one generation loop, and an optional
//!   [`StageHook`] that runs before them (the TPTP family's phase 1).
//! - [`cell_grid`]: the one config × levels grid every family's cells are.

use super::error::GeneratorError;
use super::family::{Cell, Fill, Generator};
use crate::tasks::error::BadValue;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::any::Any;
use std::fmt::Debug;

/// Largest instance count, pool size or shard size a configuration
/// accepts (`crate::config::MAX_COUNT`).
pub const MAX_COUNT: u64 = 1_000_000_000;

/// The block every family section has: rows per cell, the difficulty
/// levels and the rows per Parquet shard (`count`, `levels`,
/// `max_rows_per_shard` in the family's table). The fields stay at their
/// place in each section's TOML table; [`FamilyConfig::rows`] and
/// [`FamilyConfig::set_rows`] read and write them as one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rows {
    /// Rows per cell (config, group, level).
    pub count: usize,
    /// Difficulty levels.
    pub levels: Vec<u8>,
    /// Rows per Parquet shard.
    pub max_rows_per_shard: usize,
}

impl Rows {
    /// Checks the ranges every family shares (the family's own
    /// [`FamilyConfig::validate`] checks which levels it has): `count` at
    /// most `max_count`, `max_rows_per_shard` in 1 to `max_count`. `Err`
    /// carries the dotted key (`tasks.<section>.count`) and the message.
    pub fn validate(&self, section: &str, max_count: u64) -> Result<(), (String, String)> {
        let within = |key: &str, v: u64, lo: u64| {
            if v < lo || v > max_count {
                Err((
                    format!("tasks.{section}.{key}"),
                    format!("{v} is not in {lo}-{max_count}"),
                ))
            } else {
                Ok(())
            }
        };
        within("count", self.count as u64, 0)?;
        within("max_rows_per_shard", self.max_rows_per_shard as u64, 1)
    }
}

/// The key of a family's rows per cell in its manifest settings
/// ([`Generator::manifest`], under the manifest's `config.families.<name>`):
/// `count` for every family.
pub const MANIFEST_COUNT: &str = "count";

/// The names datasets written before the key was shared used for it: EQ's
/// `countPerTaskAndLevel` and equivalence's `countPerConfigAndLevel`.
pub const OLD_MANIFEST_COUNTS: [&str; 2] = ["countPerTaskAndLevel", "countPerConfigAndLevel"];

/// A family's rows per cell from its manifest settings, under the shared
/// key or an old one.
pub fn manifest_count(settings: &serde_json::Value) -> Option<u64> {
    std::iter::once(MANIFEST_COUNT)
        .chain(OLD_MANIFEST_COUNTS)
        .find_map(|k| settings.get(k)?.as_u64())
}

/// A manifest's run configuration with every family's old count key
/// renamed to [`MANIFEST_COUNT`], so a dataset written before the rename
/// compares equal with one written after (`merge` checks its shards'
/// configurations so).
pub fn normalize_manifest_counts(config: &mut serde_json::Value) {
    let Some(families) = config
        .get_mut("families")
        .and_then(serde_json::Value::as_object_mut)
    else {
        return;
    };
    for settings in families.values_mut() {
        let Some(o) = settings.as_object_mut() else {
            continue;
        };
        for old in OLD_MANIFEST_COUNTS {
            if let Some(v) = o.remove(old) {
                o.entry(MANIFEST_COUNT).or_insert(v);
            }
        }
    }
}

/// One row of the cell grid: a config and group, and how its cells fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridRow {
    /// Config name (the rows' `task`).
    pub config: &'static str,
    /// Group within the config.
    pub group: String,
    /// The family's own index for the cells.
    pub tag: usize,
    /// How the cells are filled.
    pub fill: Fill,
}

/// The cells of a run: every grid row (in the order given) at every level
/// (sorted, each once), `count` rows each. Every family's
/// [`Generator::cells`] is this grid.
pub fn cell_grid(rows: impl IntoIterator<Item = GridRow>, levels: &[u8], count: u64) -> Vec<Cell> {
    let mut levels = levels.to_vec();
    levels.sort_unstable();
    levels.dedup();
    rows.into_iter()
        .flat_map(|r| {
            levels.iter().map(move |&level| Cell {
                config: r.config,
                group: r.group.clone(),
                level,
                count,
                fill: r.fill,
                tag: r.tag,
            })
        })
        .collect()
}

/// The [`FamilyConfig::rows`] and [`FamilyConfig::set_rows`] of a section
/// struct whose shared block is its `count`, `levels` and
/// `max_rows_per_shard` fields (every family's: serde's `flatten` cannot
/// embed [`Rows`] in a struct that refuses unknown keys). Used inside
/// `impl FamilyConfig for ...`.
#[macro_export]
macro_rules! rows_fields {
    () => {
        fn rows(&self) -> $crate::tasks::generation::Rows {
            $crate::tasks::generation::Rows {
                count: self.count,
                levels: self.levels.clone(),
                max_rows_per_shard: self.max_rows_per_shard,
            }
        }

        fn set_rows(&mut self, rows: $crate::tasks::generation::Rows) {
            self.count = rows.count;
            self.levels = rows.levels;
            self.max_rows_per_shard = rows.max_rows_per_shard;
        }
    };
}

/// A family's configuration section (`[tasks.<NAME>]`): a serde struct
/// with defaults and unknown keys refused, the [`Rows`] block and the
/// family's own checks.
pub trait FamilyConfig:
    Clone + PartialEq + Debug + Default + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The table name under `[tasks]`, also the generate command's name.
    const NAME: &'static str;

    /// The shared block's values.
    fn rows(&self) -> Rows;

    /// Sets the shared block's values.
    fn set_rows(&mut self, rows: Rows);

    /// Checks what the types and the shared block's ranges cannot (which
    /// levels the family has, its own knobs); the error names the dotted
    /// key (default: nothing to check).
    fn validate(&self) -> Result<(), BadValue> {
        Ok(())
    }

    /// The section's own prover limits (`[tasks.<NAME>.prover]`), range
    /// checked by the configuration as `[prover]` is (default: none).
    fn prover_limits(&self) -> Option<&crate::prover::ProverLimits> {
        None
    }
}

/// A family section behind a trait object (implemented for every
/// [`FamilyConfig`]).
pub trait Section: Any + Send + Sync + Debug {
    /// The table name under `[tasks]`.
    fn name(&self) -> &'static str;
    /// The shared block.
    fn rows(&self) -> Rows;
    /// Sets the shared block.
    fn set_rows(&mut self, rows: Rows);
    /// The family's own checks.
    fn validate(&self) -> Result<(), BadValue>;
    /// The section's own prover limits, if it has them.
    fn prover_limits(&self) -> Option<&crate::prover::ProverLimits>;
    /// The section as a TOML value (for printing the configuration).
    fn to_toml(&self) -> Result<toml::Value, toml::ser::Error>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn Section>;
    /// Whether `other` is the same section with the same values.
    fn same(&self, other: &dyn Section) -> bool;
    /// For the family's typed access ([`section_as`]).
    fn as_any(&self) -> &dyn Any;
    /// For the family's typed access ([`section_as_mut`]).
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: FamilyConfig> Section for T {
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn rows(&self) -> Rows {
        FamilyConfig::rows(self)
    }
    fn set_rows(&mut self, rows: Rows) {
        FamilyConfig::set_rows(self, rows)
    }
    fn validate(&self) -> Result<(), BadValue> {
        FamilyConfig::validate(self)
    }
    fn prover_limits(&self) -> Option<&crate::prover::ProverLimits> {
        FamilyConfig::prover_limits(self)
    }
    fn to_toml(&self) -> Result<toml::Value, toml::ser::Error> {
        toml::Value::try_from(self)
    }
    fn clone_box(&self) -> Box<dyn Section> {
        Box::new(self.clone())
    }
    fn same(&self, other: &dyn Section) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The family's own struct behind a section; `None` when the section is
/// another family's.
pub fn section_as<T: FamilyConfig>(s: &dyn Section) -> Option<&T> {
    s.as_any().downcast_ref()
}

/// [`section_as`], mutable.
pub fn section_as_mut<T: FamilyConfig>(s: &mut dyn Section) -> Option<&mut T> {
    s.as_any_mut().downcast_mut()
}

/// How the configuration makes and reads a family's section.
#[derive(Clone, Copy)]
pub struct SectionInfo {
    /// The table name under `[tasks]`.
    pub name: &'static str,
    /// The section's defaults.
    pub default: fn() -> Box<dyn Section>,
    /// The section read from its TOML table (missing keys take their
    /// defaults; unknown keys are refused).
    pub parse: fn(toml::Value) -> Result<Box<dyn Section>, toml::de::Error>,
}

impl SectionInfo {
    /// The section of the struct `T`.
    pub fn of<T: FamilyConfig>() -> SectionInfo {
        SectionInfo {
            name: T::NAME,
            default: || Box::new(T::default()),
            parse: |v| T::deserialize(v).map(|t| Box::new(t) as Box<dyn Section>),
        }
    }
}

/// Work a family's generator needs done before its cells can be built,
/// run by the generation driver (`pipeline::request::run_family`), which
/// owns the engine that does it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageHook {
    /// Phase 1 of the TPTP family (`pipeline::tptp`): saturate every axiom
    /// file of the run's domains into a content-addressed artifact (or find
    /// it), then build the generator over their derivation graphs. The run
    /// takes `--domain`, `--tptp` and `--stage`, and writes its dataset to
    /// `<out>/<NAME>/<NAME>-tasks`.
    AxiomSaturation,
}

/// A family's generate command (`saturate generate <name>`): its section,
/// its generators and what runs before them.
pub trait Generation: Sync {
    /// The command's name, also its section's (`[tasks.<name>]`).
    fn name(&self) -> &'static str;

    /// One line for the command's help.
    fn about(&self) -> &'static str;

    /// The family's configuration section.
    fn section(&self) -> SectionInfo;

    /// The dataset's name in its card and manifest (`saturate EQ`).
    fn title(&self, section: &dyn Section) -> String;

    /// The generators of one run from the family's section and the run
    /// seed, in output order, for the one generation loop. An error is an
    /// input error (a section that does not fit the family).
    fn generators(
        &self,
        section: &dyn Section,
        seed: u64,
    ) -> Result<Vec<Box<dyn Generator>>, GeneratorError>;

    /// What runs before the generators (default: nothing). A family with a
    /// hook has its generator built by the hook's stage instead of
    /// [`Generation::generators`].
    fn stage(&self) -> Option<StageHook> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_is_rows_by_sorted_levels() {
        let fill = Fill::Slots;
        let cells = cell_grid(
            [
                GridRow {
                    config: "b",
                    group: "G".into(),
                    tag: 1,
                    fill,
                },
                GridRow {
                    config: "a",
                    group: "H".into(),
                    tag: 0,
                    fill,
                },
            ],
            &[3, 1, 3],
            4,
        );
        let keys: Vec<String> = cells.iter().map(Cell::key).collect();
        assert_eq!(keys, ["b G L1", "b G L3", "a H L1", "a H L3"]);
        assert!(cells.iter().all(|c| c.count == 4));
        assert_eq!(cells[0].tag, 1);
    }

    #[test]
    fn old_manifest_count_keys_read_as_count() {
        let old = serde_json::json!({"families": {"eq": {"countPerTaskAndLevel": 3, "generator": "eq-6"},
            "equiv": {"countPerConfigAndLevel": 2}}});
        assert_eq!(manifest_count(&old["families"]["eq"]), Some(3));
        assert_eq!(manifest_count(&old["families"]["equiv"]), Some(2));
        assert_eq!(manifest_count(&serde_json::json!({"count": 5})), Some(5));
        let mut normalized = old.clone();
        normalize_manifest_counts(&mut normalized);
        assert_eq!(
            normalized,
            serde_json::json!({"families": {"eq": {"count": 3, "generator": "eq-6"},
                "equiv": {"count": 2}}})
        );
        // A configuration without families is left alone.
        let mut other = serde_json::json!({"seed": 1});
        normalize_manifest_counts(&mut other);
        assert_eq!(other, serde_json::json!({"seed": 1}));
    }

    #[test]
    fn the_shared_block_is_range_checked() {
        let r = Rows {
            count: 0,
            levels: vec![],
            max_rows_per_shard: 1,
        };
        assert!(r.validate("eq", 10).is_ok());
        let e = Rows {
            max_rows_per_shard: 0,
            ..r.clone()
        }
        .validate("eq", 10)
        .unwrap_err();
        assert_eq!(e.0, "tasks.eq.max_rows_per_shard");
        let e = Rows { count: 11, ..r }.validate("pl", 10).unwrap_err();
        assert_eq!(e, ("tasks.pl.count".into(), "11 is not in 0-10".into()));
    }
}
