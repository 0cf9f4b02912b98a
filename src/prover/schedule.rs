//! `saturate prove`'s strategy schedule: the problem's features
//! ([`auto::Features`]) pick an ordered list of slices, each a search
//! strategy (literal selection, clause weight, goal queue) on every clause
//! or on the axioms SInE selects at some depth, run for a share of the
//! given-clause budget; the first refutation (or, on every clause, any
//! verdict) wins. A portfolio in the manner of E's automatic schedules
//! (S. Schulz, "E – a brainiac theorem prover", AI Communications 15,
//! 2002) and of Vampire's CASC mode, chosen from runs on the development
//! sets (`docs/bench/search.md`); every budget is in work units, so the
//! verdict at a given `max_processed` is reproducible. Under a
//! `--cpu-limit` the schedule runs again with its budget multiplied by
//! `schedule_growth` until the deadline, so the time is used without a
//! budget to guess.
//!
//! The table is `configs/strategies/schedule.toml`, embedded in the binary;
//! `[prover] schedule_table` names another file in the same format.

use crate::saturation::auto::{self, Features};
use crate::saturation::{ClauseWeight, LiteralSelection, QueueSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

/// The embedded schedule table.
pub const EMBEDDED: &str = include_str!("../../configs/strategies/schedule.toml");

/// One slice of a schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slice {
    /// Literal selection.
    pub selection: LiteralSelection,
    /// Clause weight of the weight queue.
    pub clause_weight: ClauseWeight,
    /// Goal-queue picks per age pick (`goal_picks_per_age_pick`; 0 = none).
    #[serde(default)]
    pub goal_picks: u32,
    /// Weight picks per age pick (`weight_picks_per_age_pick`; unset = the
    /// configured value).
    #[serde(default)]
    pub weight_picks: Option<u32>,
    /// Search only the axioms SInE selects at this many trigger steps from
    /// the goal (0: to the fixpoint); unset = every clause. Skipped on a
    /// problem without a goal, and when it would select every axiom or what
    /// an earlier slice of the same strategy searched.
    #[serde(default)]
    pub sine_depth: Option<u32>,
    /// The passive queue mix of this slice, by name from the table's
    /// `[queues]` (`[saturation] queues`); unset = the configured queues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queues: Option<String>,
    /// The queues `queues` names, filled in when the table is read.
    #[serde(skip)]
    pub mix: Vec<QueueSpec>,
    /// Contextual subsumption resolution on given clauses
    /// (`[saturation] subsumption_resolution`; unset = the configured value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subsumption_resolution: Option<bool>,
    /// The first round of the schedule this slice runs in (unset: 1). Under
    /// `--cpu-limit` each round has `schedule_growth` times the budget of
    /// the one before; a slice that only pays off with room to search can
    /// wait for a later round, so that at the default budget (one round)
    /// the slices that run get the whole of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_round: Option<u32>,
    /// Unfold equational definitions before this slice's search (`[prover]
    /// unfold_definitions`; unset = the configured value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfold_definitions: Option<bool>,
    /// Percent of the round's given-clause budget.
    pub share: u32,
}

/// The schedule of one class of problems.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// [`Features::class`] of the problems it is for, or `"*"` for any.
    pub class: String,
    /// When set, only for problems with (true) or without (false) a
    /// negated conjecture.
    #[serde(default)]
    pub goal: Option<bool>,
    /// When set, only for problems with at least this many input clauses.
    #[serde(default)]
    pub min_clauses: Option<usize>,
    /// Why this entry is what it is (measured figures), for the table.
    #[serde(default)]
    pub why: String,
    /// The slices, in order.
    pub slices: Vec<Slice>,
}

/// A schedule table: the first entry whose conditions a problem meets is
/// its schedule; the last must be for any problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// Named passive queue mixes that slices refer to (`queues = "NAME"`).
    #[serde(default)]
    pub queues: BTreeMap<String, Vec<QueueSpec>>,
    /// The entries, most specific first.
    pub schedule: Vec<Entry>,
}

/// Why a schedule table is not usable.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file does not read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// TOML or field error (with line and column).
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: String,
        /// What is wrong, where.
        message: String,
    },
    /// A well-formed table that cannot serve as a schedule.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl Table {
    /// Parses and checks a table; `path` names it in errors.
    pub fn parse(text: &str, path: &str) -> Result<Table, TableError> {
        let mut t: Table = toml::from_str(text).map_err(|e| TableError::Parse {
            path: path.to_string(),
            message: e.to_string(),
        })?;
        let invalid = |message: String| TableError::Invalid {
            path: path.to_string(),
            message,
        };
        let classes = [
            "*",
            "unit-equational",
            "unit",
            "horn-non-equational",
            "non-horn-non-equational",
            "horn-equational",
            "non-horn-equational",
        ];
        for (name, mix) in &t.queues {
            if mix.is_empty() || mix.iter().any(|q| q.ratio == 0) || mix.len() > 255 {
                return Err(invalid(format!(
                    "queue mix {name:?} needs 1 to 255 queues, each with a positive ratio"
                )));
            }
        }
        for (i, e) in t.schedule.iter_mut().enumerate() {
            for s in e.slices.iter_mut() {
                if let Some(name) = &s.queues {
                    s.mix = t.queues.get(name).cloned().ok_or_else(|| {
                        invalid(format!(
                            "schedule entry {} names the queue mix {name:?}, which [queues] does not define",
                            i + 1
                        ))
                    })?;
                }
            }
        }
        for (i, e) in t.schedule.iter().enumerate() {
            if !classes.contains(&e.class.as_str()) {
                return Err(invalid(format!(
                    "schedule entry {} has class {:?}; expected one of {}",
                    i + 1,
                    e.class,
                    classes.join(", ")
                )));
            }
            if e.slices.is_empty() {
                return Err(invalid(format!("schedule entry {} has no slices", i + 1)));
            }
            let total: u32 = e.slices.iter().map(|s| s.share).sum();
            if total != 100 || e.slices.iter().any(|s| s.share == 0) {
                return Err(invalid(format!(
                    "schedule entry {} ({}): slice shares must be positive and add up to 100, not {total}",
                    i + 1,
                    e.class
                )));
            }
            if !e
                .slices
                .iter()
                .any(|s| s.sine_depth.is_none() && s.from_round.unwrap_or(1) <= 1)
            {
                return Err(invalid(format!(
                    "schedule entry {} ({}): no slice of the first round searches every clause, so the schedule could never end Saturated or find a model",
                    i + 1,
                    e.class
                )));
            }
        }
        match t.schedule.last() {
            Some(e) if e.class == "*" && e.goal.is_none() && e.min_clauses.is_none() => Ok(t),
            _ => Err(invalid(
                "the last schedule entry must be for any problem (class = \"*\", no goal or min_clauses)".into(),
            )),
        }
    }

    /// Reads a table file.
    pub fn read(path: &Path) -> Result<Table, TableError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| TableError::Read {
            path: shown.clone(),
            source,
        })?;
        Table::parse(&text, &shown)
    }

    /// The embedded table (`configs/strategies/schedule.toml`).
    pub fn embedded() -> &'static Table {
        static T: OnceLock<Table> = OnceLock::new();
        T.get_or_init(|| {
            Table::parse(EMBEDDED, "configs/strategies/schedule.toml")
                .expect("the embedded schedule table is valid (tested)")
        })
    }

    /// The entry for a problem with features `f`.
    pub fn entry(&self, f: &Features) -> &Entry {
        self.schedule
            .iter()
            .find(|e| {
                (e.class == "*" || e.class == f.class())
                    && e.goal.is_none_or(|g| g == f.has_goal)
                    && e.min_clauses.is_none_or(|m| f.clauses >= m)
            })
            .unwrap_or_else(|| self.schedule.last().expect("a checked table has entries"))
    }
}

/// The schedule's choice of saturation parameters for a slice: `base`
/// with the slice's selection, weight and queues (auto mode off).
pub fn params_for(base: &crate::saturation::Params, s: &Slice) -> crate::saturation::Params {
    crate::saturation::Params {
        auto: Some(false),
        selection: s.selection,
        clause_weight: s.clause_weight,
        goal_picks_per_age_pick: s.goal_picks,
        weight_picks_per_age_pick: s.weight_picks.unwrap_or(base.weight_picks_per_age_pick),
        subsumption_resolution: s
            .subsumption_resolution
            .unwrap_or(base.subsumption_resolution),
        queues: if s.queues.is_some() {
            s.mix.clone()
        } else {
            base.queues.clone()
        },
        ..base.clone()
    }
}

/// The single slice of `schedule = "off"`: the configured strategy (auto
/// mode's choice when it is on) on every clause.
pub fn configured(base: &crate::saturation::Params, f: &Features) -> Slice {
    let (selection, clause_weight) = if base.auto_or(false) {
        let s = auto::choose(f);
        (s.selection, s.clause_weight)
    } else {
        (base.selection, base.clause_weight)
    };
    Slice {
        selection,
        clause_weight,
        goal_picks: base.goal_picks_per_age_pick,
        weight_picks: None,
        sine_depth: None,
        queues: None,
        mix: Vec::new(),
        subsumption_resolution: None,
        from_round: None,
        unfold_definitions: None,
        share: 100,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_is_valid_and_covers_every_class() {
        let t = Table::embedded();
        for (unit, equational, horn, has_goal) in
            (0..16).map(|b| (b & 1 != 0, b & 2 != 0, b & 4 != 0, b & 8 != 0))
        {
            let f = Features {
                clauses: 10,
                unit,
                equational,
                horn,
                has_goal,
                ..Features::default()
            };
            let e = t.entry(&f);
            assert!(e.class == "*" || e.class == f.class());
        }
    }

    /// Horn non-equational problems with a goal get their own entry: the
    /// general goal entry's first round, each slice's share of it within
    /// a point (so the default budget, one round, searches as before), and
    /// from the second round the Horn queue mix.
    #[test]
    fn the_horn_entry_keeps_the_general_first_round_and_adds_the_horn_mix() {
        let t = Table::embedded();
        let goal = |horn| Features {
            clauses: 10,
            horn,
            has_goal: true,
            ..Features::default()
        };
        let horn = t.entry(&goal(true));
        let general = t.entry(&goal(false));
        assert_eq!(horn.class, "horn-non-equational");
        assert_eq!(general.class, "*");
        let late = horn
            .slices
            .iter()
            .find(|s| s.queues.as_deref() == Some("horn_mix"))
            .expect("a horn_mix slice");
        assert_eq!(late.from_round, Some(2));
        assert!(
            !general
                .slices
                .iter()
                .any(|s| s.queues.as_deref() == Some("horn_mix"))
        );
        let first = |e: &Entry| -> Vec<(LiteralSelection, ClauseWeight, Option<u32>, f64)> {
            let total: u32 = e
                .slices
                .iter()
                .filter(|s| s.from_round.is_none())
                .map(|s| s.share)
                .sum();
            e.slices
                .iter()
                .filter(|s| s.from_round.is_none())
                .map(|s| {
                    let pct = 100.0 * f64::from(s.share) / f64::from(total);
                    (s.selection, s.clause_weight, s.sine_depth, pct)
                })
                .collect()
        };
        let (h, g) = (first(horn), first(general));
        assert_eq!(h.len(), g.len());
        for (a, b) in h.iter().zip(&g) {
            assert_eq!((a.0, a.1, a.2), (b.0, b.1, b.2));
            assert!((a.3 - b.3).abs() <= 1.0, "{a:?} against {b:?}");
        }
    }

    #[test]
    fn tables_that_cannot_schedule_are_refused_with_the_reason() {
        let bad = [
            ("[[schedule]]\nclass = \"*\"\nslices = []\n", "no slices"),
            (
                "[[schedule]]\nclass = \"*\"\nslices = [{ selection = \"none\", clause_weight = \"symbols\", share = 60 }]\n",
                "add up to 100",
            ),
            (
                "[[schedule]]\nclass = \"*\"\nslices = [{ selection = \"none\", clause_weight = \"symbols\", sine_depth = 1, share = 100 }]\n",
                "searches every clause",
            ),
            (
                "[[schedule]]\nclass = \"unit\"\nslices = [{ selection = \"none\", clause_weight = \"symbols\", share = 100 }]\n",
                "last schedule entry",
            ),
            (
                "[[schedule]]\nclass = \"horn\"\nslices = []\n",
                "expected one of",
            ),
            ("[[schedule]]\nclass = \"*\"\nslicez = 1\n", "unknown field"),
            (
                "[[schedule]]\nclass = \"*\"\nslices = [{ selection = \"none\", clause_weight = \"symbols\", queues = \"mix\", share = 100 }]\n",
                "does not define",
            ),
            (
                "[queues]\nmix = [{ ratio = 0 }]\n[[schedule]]\nclass = \"*\"\nslices = [{ selection = \"none\", clause_weight = \"symbols\", share = 100 }]\n",
                "positive ratio",
            ),
        ];
        for (text, want) in bad {
            let e = Table::parse(text, "t.toml").unwrap_err().to_string();
            assert!(e.starts_with("t.toml: ") && e.contains(want), "{e}");
        }
    }

    #[test]
    fn a_slice_takes_its_named_queue_mix_and_cutting() {
        let t = Table::parse(
            r#"
[queues]
mix = [{ ratio = 2, priority = "goal", weight = { conjecture_percent = 10 } }, { ratio = 1 }]

[[schedule]]
class = "*"
slices = [
  { selection = "none", clause_weight = "symbols", queues = "mix", subsumption_resolution = true, share = 50 },
  { selection = "none", clause_weight = "symbols", share = 50 },
]
"#,
            "t.toml",
        )
        .unwrap();
        let base = crate::saturation::Params::default();
        let slices = &t.schedule[0].slices;
        let mixed = params_for(&base, &slices[0]);
        assert_eq!(mixed.queues.len(), 2);
        assert_eq!(mixed.queues[0].ratio, 2);
        assert_eq!(
            mixed.queues[0]
                .weight
                .as_ref()
                .map(|w| w.conjecture_percent),
            Some(10)
        );
        assert!(mixed.queues[1].weight.is_none());
        assert!(mixed.subsumption_resolution);
        let plain = params_for(&base, &slices[1]);
        assert!(plain.queues.is_empty() && !plain.subsumption_resolution);
    }

    #[test]
    fn entries_match_by_class_goal_and_size() {
        let t = Table::parse(
            r#"
[[schedule]]
class = "unit"
goal = true
slices = [{ selection = "none", clause_weight = "refined", share = 100 }]
[[schedule]]
class = "*"
min_clauses = 100
slices = [{ selection = "largest_negative", clause_weight = "symbols", share = 100 }]
[[schedule]]
class = "*"
slices = [{ selection = "none", clause_weight = "symbols", share = 100 }]
"#,
            "t.toml",
        )
        .unwrap();
        let f = |unit, has_goal, clauses| Features {
            clauses,
            unit,
            has_goal,
            horn: true,
            ..Features::default()
        };
        let weight = |f: &Features| t.entry(f).slices[0].clause_weight;
        assert_eq!(weight(&f(true, true, 5)), ClauseWeight::Refined);
        assert_eq!(weight(&f(true, false, 5)), ClauseWeight::Symbols);
        assert_eq!(
            t.entry(&f(true, false, 500)).slices[0].selection,
            LiteralSelection::LargestNegative
        );
    }
}
