//! A family's generation run, whatever asks for it (`saturate generate
//! <family>` and its aliases `--domain`, `pl`, `eq`, `equiv`, or the Python
//! package's `saturate.generate`): the family found by name in the
//! registry ([`family`]), the configuration file or the defaults with the
//! overrides every generator command takes applied to the family's section
//! ([`run_config`]), then the run ([`run_family`]): the family's
//! [`StageHook`], if it has one, then its generators in the one generation
//! loop.

use super::RunError;
use super::generate::{LoopSettings, RunSummary, run_generators};
use super::present::SplitBy;
use super::tptp::{Stage, TptpRun, TptpSummary};
use crate::config::Config;
use crate::dataset::OutputFormat;
use crate::tasks::family::Generator;
use crate::tasks::format::AnswerFormat;
use crate::tasks::generation::{Generation, StageHook};
use crate::tasks::registry::Registry;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The registered family whose generate command is `name`; an input error
/// naming the choices otherwise.
pub fn family(name: &str) -> Result<&'static dyn Generation, RunError> {
    let registry = Registry::shared();
    registry.generation(name).ok_or_else(|| {
        let names: Vec<String> = registry
            .generations()
            .iter()
            .map(|g| format!("{:?}", g.name()))
            .collect();
        let choices = match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => "nothing".into(),
        };
        RunError::Input(format!(
            "unknown run kind {:?}; expected {choices}",
            crate::tptp::excerpt(name, 40)
        ))
    })
}

/// The names of the registered families that have a stage before their
/// generators, quoted (what `--domain`, `--tptp` and `--stage` apply to).
pub fn staged_family_names() -> String {
    Registry::shared()
        .generations()
        .iter()
        .filter(|g| g.stage().is_some())
        .map(|g| format!("{:?}", g.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The overrides every generator command takes; `None` (or no levels)
/// keeps the configuration's value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// Worker threads (0 = one per core).
    pub jobs: Option<usize>,
    /// Run seed.
    pub seed: Option<u64>,
    /// Rows per cell (the family's `count`).
    pub count: Option<usize>,
    /// Difficulty levels (the family's `levels`).
    pub levels: Vec<u8>,
    /// Rows per Parquet shard (the family's `max_rows_per_shard`).
    pub max_rows_per_shard: Option<usize>,
    /// `[dataset] answer_format`: plain, tags or json.
    pub answer_format: Option<AnswerFormat>,
    /// `[dataset] trace`: fill the trace column (only turns it on).
    pub trace: bool,
    /// `[dataset] format`: parquet or jsonl.
    pub format: Option<OutputFormat>,
    /// `[dataset] split_by`: theorem or source.
    pub split_by: Option<SplitBy>,
    /// `[dataset] split`: train, validation, test percentages.
    pub split: Option<[u32; 3]>,
}

impl Overrides {
    /// A `[dataset]` choice given as text by a caller that has no parser of
    /// its own (the Python package), read into its enum once; an unknown
    /// value is an input error naming the key and the choices.
    pub fn choice<T: FromStr<Err = String>>(
        key: &str,
        value: Option<&str>,
    ) -> Result<Option<T>, RunError> {
        value
            .map(|v| {
                v.parse()
                    .map_err(|m| RunError::Input(format!("overrides: dataset.{key}: {m}")))
            })
            .transpose()
    }

    /// Applies the overrides to `cfg`: `jobs` and `seed` at the top,
    /// `[dataset]`, and the shared block of the section of `family` (a
    /// family without a section takes none).
    pub fn apply(&self, cfg: &mut Config, family: &str) {
        if let Some(j) = self.jobs {
            cfg.jobs = j;
        }
        if let Some(s) = self.seed {
            cfg.seed = s;
        }
        let d = &mut cfg.dataset;
        if let Some(f) = self.answer_format {
            d.answer_format = f;
        }
        if self.trace {
            d.trace = true;
        }
        if let Some(f) = self.format {
            d.format = f;
        }
        if let Some(b) = self.split_by {
            d.split_by = b;
        }
        if let Some(p) = self.split {
            d.split = p;
        }
        let Some(section) = cfg.tasks.section_mut(family) else {
            return;
        };
        let mut rows = section.rows();
        if let Some(n) = self.count {
            rows.count = n;
        }
        if !self.levels.is_empty() {
            rows.levels = self.levels.clone();
        }
        if let Some(n) = self.max_rows_per_shard {
            rows.max_rows_per_shard = n;
        }
        section.set_rows(rows);
    }
}

/// The configuration of a run: the file at `file` (or the defaults), with
/// `overrides` applied to the section of `family`, range-checked. A file
/// that does not read or parse is a [`RunError::Config`]; an override out
/// of range an input error naming the key.
pub fn run_config(
    file: Option<&Path>,
    family: &str,
    overrides: &Overrides,
) -> Result<Config, RunError> {
    let mut cfg = match file {
        Some(p) => Config::load(p)?,
        None => Config::default(),
    };
    overrides.apply(&mut cfg, family);
    cfg.validate()
        .map_err(|e| RunError::Input(format!("overrides: {}", e.text())))?;
    Ok(cfg)
}

/// What a stage hook of [`StageHook::AxiomSaturation`] reads besides the
/// configuration (`--domain`, `--tptp`, `--stage`).
#[derive(Clone, Debug, Default)]
pub struct StageOptions {
    /// Domains (three-letter codes); the caller has resolved the
    /// configuration's default.
    pub domains: Vec<String>,
    /// TPTP root, if the axioms come from a TPTP library.
    pub tptp: Option<PathBuf>,
    /// The stages to run.
    pub stage: Stage,
    /// Take the domains' problem files as theories, not their axiom files
    /// (`--problems`).
    pub problems: bool,
}

/// One generation run of a family.
pub struct FamilyRun {
    /// The family.
    pub family: &'static dyn Generation,
    /// For a family without a stage, the dataset folder; with
    /// [`StageHook::AxiomSaturation`], the output root.
    pub out: PathBuf,
    /// How the loop runs (its `dataset` options are taken from the
    /// configuration, which the manifest records).
    pub settings: LoopSettings,
    /// The stage's options (a family without a stage takes none).
    pub stage: StageOptions,
}

/// What a family's run did.
#[derive(Debug, Default)]
pub struct FamilyOutcome {
    /// The generation loop's summary (empty when only a stage ran).
    pub run: RunSummary,
    /// Where the dataset is (`None` when only a stage ran).
    pub dataset: Option<PathBuf>,
    /// The stage's report, for a family with a stage.
    pub staged: Option<TptpSummary>,
}

/// Runs `run.family` with `cfg` (checked by [`run_config`] or the caller):
/// its stage, if it has one, then its generators in the one generation
/// loop. Stage options given to a family without a stage are an input
/// error.
pub fn run_family(cfg: &Config, run: &FamilyRun) -> Result<FamilyOutcome, RunError> {
    let family = run.family;
    let section = cfg.tasks.section(family.name()).ok_or_else(|| {
        RunError::Input(format!(
            "the configuration has no [tasks.{}]",
            family.name()
        ))
    })?;
    section.validate().map_err(|e| RunError::Input(e.text()))?;
    match family.stage() {
        Some(StageHook::AxiomSaturation) => {
            let s = super::tptp::run_tptp_into(
                &TptpRun {
                    domains: run.stage.domains.clone(),
                    tptp: run.stage.tptp.clone(),
                    config: cfg.clone(),
                    out: run.out.clone(),
                    shard: run.settings.shard,
                    progress: run.settings.progress,
                    strict: run.settings.strict,
                    require_full: run.settings.require_full,
                    stage: run.stage.stage,
                    problems: run.stage.problems,
                },
                run.settings.stream.as_ref(),
            )?;
            let dataset = (run.stage.stage != Stage::Saturate && run.settings.stream.is_none())
                .then(|| s.dataset.clone());
            Ok(FamilyOutcome {
                run: s.run.clone(),
                dataset,
                staged: Some(s),
            })
        }
        None => {
            if !run.stage.domains.is_empty()
                || run.stage.tptp.is_some()
                || run.stage.stage != Stage::All
                || run.stage.problems
            {
                return Err(RunError::Input(format!(
                    "domain, tptp, stage and problems apply to kind {} only",
                    staged_family_names()
                )));
            }
            if section.rows().count == 0 {
                return Err(RunError::Input("--count must be at least 1".into()));
            }
            let generators = family
                .generators(section, cfg.seed)
                .map_err(|e| RunError::Input(e.to_string()))?;
            let refs: Vec<&dyn Generator> = generators.iter().map(|g| g.as_ref()).collect();
            let settings = LoopSettings {
                dataset: cfg.dataset.clone(),
                ..run.settings.clone()
            };
            if settings.stream.is_some() {
                return Ok(FamilyOutcome {
                    run: super::generate::stream(&refs, &settings)?,
                    dataset: None,
                    staged: None,
                });
            }
            let summary = run_generators(
                &run.out,
                &family.title(section),
                cfg.seed,
                &refs,
                &settings,
                section.rows().max_rows_per_shard,
            )?;
            Ok(FamilyOutcome {
                run: summary,
                dataset: Some(run.out.clone()),
                staged: None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::eq::family::EqConfig;
    use crate::tasks::pl::family::PlConfig;
    use crate::tasks::tptp::TasksConfig;

    #[test]
    fn overrides_reach_only_the_section_of_the_kind() {
        let o = Overrides {
            jobs: Some(3),
            seed: Some(9),
            count: Some(2),
            levels: vec![1, 2],
            max_rows_per_shard: Some(7),
            answer_format: Some(AnswerFormat::Tags),
            trace: true,
            format: Some(OutputFormat::Jsonl),
            split_by: Some(SplitBy::Source),
            split: Some([70, 20, 10]),
        };
        let cfg = run_config(None, "eq", &o).unwrap();
        let d = Config::default();
        assert_eq!((cfg.jobs, cfg.seed), (3, 9));
        let eq = cfg.tasks.get::<EqConfig>();
        assert_eq!((eq.count, &eq.levels[..]), (2, &[1u8, 2][..]));
        assert_eq!(eq.max_rows_per_shard, 7);
        assert_eq!(
            (
                cfg.dataset.answer_format,
                cfg.dataset.trace,
                cfg.dataset.format,
                cfg.dataset.split_by,
                cfg.dataset.split
            ),
            (
                AnswerFormat::Tags,
                true,
                OutputFormat::Jsonl,
                SplitBy::Source,
                [70, 20, 10]
            )
        );
        assert_eq!(cfg.tasks.get::<PlConfig>(), d.tasks.get::<PlConfig>());
        assert_eq!(cfg.tasks.get::<TasksConfig>(), d.tasks.get::<TasksConfig>());
        // Nothing given: the defaults, untouched.
        assert_eq!(run_config(None, "pl", &Overrides::default()).unwrap(), d);
    }

    #[test]
    fn bad_kinds_values_and_files_are_input_errors() {
        let e = family("fol").map(|_| ()).unwrap_err();
        // Every registered command is named (a test build may register
        // the toy family too).
        for name in ["\"tptp\"", "\"pl\"", "\"eq\"", "\"equiv\""] {
            assert!(e.to_string().contains(name), "{e}");
        }
        assert_eq!(e.exit_code(), 2);
        assert_eq!(family("equiv").unwrap().name(), "equiv");
        let o = Overrides {
            seed: Some(u64::MAX),
            ..Overrides::default()
        };
        let e = run_config(None, "pl", &o).unwrap_err();
        assert!(e.to_string().contains("seed"), "{e}");
        assert_eq!(e.exit_code(), 2);
        // EQ and equivalence levels are open-ended: 9 is taken, 0 refused
        // naming the key.
        let o = Overrides {
            levels: vec![9],
            ..Overrides::default()
        };
        for kind in ["eq", "equiv"] {
            let cfg = run_config(None, kind, &o).unwrap();
            assert_eq!(cfg.tasks.section(kind).unwrap().rows().levels, [9]);
        }
        let o = Overrides {
            levels: vec![2, 0],
            ..Overrides::default()
        };
        let e = run_config(None, "eq", &o).unwrap_err();
        assert_eq!(
            e.to_string(),
            "overrides: tasks.eq.levels: no EQ level 0 (levels start at 1)"
        );
        let e = run_config(None, "equiv", &o).unwrap_err();
        assert_eq!(
            e.to_string(),
            "overrides: tasks.equiv.levels: no equivalence level 0 (levels start at 1)"
        );
        // A choice given as text is read once, the error naming the key.
        let e = Overrides::choice::<AnswerFormat>("answer_format", Some("xml")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "overrides: dataset.answer_format: unknown answer format `xml`: expected one of plain, tags, json"
        );
        assert_eq!(e.exit_code(), 2);
        assert_eq!(
            Overrides::choice::<SplitBy>("split_by", Some("source")).unwrap(),
            Some(SplitBy::Source)
        );
        assert_eq!(
            Overrides::choice::<OutputFormat>("format", None).unwrap(),
            None
        );
        let e = run_config(Some(Path::new("/no/such/file.toml")), "tptp", &o).unwrap_err();
        assert!(e.to_string().contains("/no/such/file.toml"), "{e}");
        assert_eq!(e.exit_code(), 2);
    }
}
