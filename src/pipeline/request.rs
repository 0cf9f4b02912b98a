//! A generator run's configuration built outside the command line (the
//! Python package's `saturate.generate`): the configuration file or the
//! defaults, then the overrides every generator command takes (`--jobs`,
//! `--seed`, `--count`, `--levels`, `--max-rows-per-shard`) applied to the
//! family's section, then every value range-checked, exactly as the CLI
//! does before it calls [`super::run_pl`], [`super::run_eq`],
//! [`super::run_equiv`] or
//! [`super::tptp::run_tptp`].

use super::RunError;
use crate::config::Config;
use std::path::Path;

/// Which generator a run is: the families' config sections differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    /// The domain run (`saturate --domain`, `[tasks.tptp]`).
    Tptp,
    /// `saturate pl` (`[tasks.pl]`).
    Pl,
    /// `saturate eq` (`[tasks.eq]`).
    Eq,
    /// `saturate equiv` (`[tasks.equiv]`).
    Equiv,
}

impl RunKind {
    /// The kind named `tptp`, `pl`, `eq` or `equiv`; an input error naming the
    /// choices otherwise.
    pub fn parse(name: &str) -> Result<RunKind, RunError> {
        match name {
            "tptp" => Ok(RunKind::Tptp),
            "pl" => Ok(RunKind::Pl),
            "eq" => Ok(RunKind::Eq),
            "equiv" => Ok(RunKind::Equiv),
            other => Err(RunError::Input(format!(
                "unknown run kind {:?}; expected \"tptp\", \"pl\", \"eq\" or \"equiv\"",
                crate::tptp::excerpt(other, 40)
            ))),
        }
    }
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
    pub answer_format: Option<String>,
    /// `[dataset] trace`: fill the trace column (only turns it on).
    pub trace: bool,
    /// `[dataset] format`: parquet or jsonl.
    pub format: Option<String>,
    /// `[dataset] split_by`: theorem or source.
    pub split_by: Option<String>,
    /// `[dataset] split`: train, validation, test percentages.
    pub split: Option<[u32; 3]>,
}

impl Overrides {
    /// Applies the overrides to `cfg`: `jobs` and `seed` at the top, the
    /// rest to the section of `kind`.
    pub fn apply(&self, cfg: &mut Config, kind: RunKind) {
        if let Some(j) = self.jobs {
            cfg.jobs = j;
        }
        if let Some(s) = self.seed {
            cfg.seed = s;
        }
        let d = &mut cfg.dataset;
        if let Some(f) = &self.answer_format {
            d.answer_format = f.clone();
        }
        if self.trace {
            d.trace = true;
        }
        if let Some(f) = &self.format {
            d.format = f.clone();
        }
        if let Some(b) = &self.split_by {
            d.split_by = b.clone();
        }
        if let Some(p) = self.split {
            d.split = p;
        }
        let t = &mut cfg.tasks;
        let (count, levels, rows) = match kind {
            RunKind::Tptp => (
                &mut t.tptp.count,
                &mut t.tptp.levels,
                &mut t.tptp.max_rows_per_shard,
            ),
            RunKind::Pl => (
                &mut t.pl.count,
                &mut t.pl.levels,
                &mut t.pl.max_rows_per_shard,
            ),
            RunKind::Eq => (
                &mut t.eq.count,
                &mut t.eq.levels,
                &mut t.eq.max_rows_per_shard,
            ),
            RunKind::Equiv => (
                &mut t.equiv.count,
                &mut t.equiv.levels,
                &mut t.equiv.max_rows_per_shard,
            ),
        };
        if let Some(n) = self.count {
            *count = n;
        }
        if !self.levels.is_empty() {
            *levels = self.levels.clone();
        }
        if let Some(n) = self.max_rows_per_shard {
            *rows = n;
        }
    }
}

/// The configuration of a run: the file at `file` (or the defaults), with
/// `overrides` applied to the section of `kind`, range-checked. A file that
/// does not read or parse is a [`RunError::Config`]; an override out of
/// range an input error naming the key.
pub fn run_config(
    file: Option<&Path>,
    kind: RunKind,
    overrides: &Overrides,
) -> Result<Config, RunError> {
    let mut cfg = match file {
        Some(p) => Config::load(p)?,
        None => Config::default(),
    };
    overrides.apply(&mut cfg, kind);
    cfg.validate().map_err(|e| {
        // A family's own check already names the key in its message.
        let text = if e.message.starts_with(&e.key) {
            e.message
        } else {
            e.to_string()
        };
        RunError::Input(format!("overrides: {text}"))
    })?;
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_reach_only_the_section_of_the_kind() {
        let o = Overrides {
            jobs: Some(3),
            seed: Some(9),
            count: Some(2),
            levels: vec![1, 2],
            max_rows_per_shard: Some(7),
            answer_format: Some("tags".into()),
            trace: true,
            format: Some("jsonl".into()),
            split_by: Some("source".into()),
            split: Some([70, 20, 10]),
        };
        let cfg = run_config(None, RunKind::Eq, &o).unwrap();
        let d = Config::default();
        assert_eq!((cfg.jobs, cfg.seed), (3, 9));
        assert_eq!(
            (cfg.tasks.eq.count, &cfg.tasks.eq.levels[..]),
            (2, &[1u8, 2][..])
        );
        assert_eq!(cfg.tasks.eq.max_rows_per_shard, 7);
        assert_eq!(
            (
                &cfg.dataset.answer_format[..],
                cfg.dataset.trace,
                &cfg.dataset.format[..],
                &cfg.dataset.split_by[..],
                cfg.dataset.split
            ),
            ("tags", true, "jsonl", "source", [70, 20, 10])
        );
        assert_eq!(cfg.tasks.pl, d.tasks.pl);
        assert_eq!(cfg.tasks.tptp, d.tasks.tptp);
        // Nothing given: the defaults, untouched.
        assert_eq!(
            run_config(None, RunKind::Pl, &Overrides::default()).unwrap(),
            d
        );
    }

    #[test]
    fn bad_kinds_values_and_files_are_input_errors() {
        let e = RunKind::parse("fol").unwrap_err();
        assert!(
            e.to_string()
                .contains("\"tptp\", \"pl\", \"eq\" or \"equiv\""),
            "{e}"
        );
        assert_eq!(e.exit_code(), 2);
        assert_eq!(RunKind::parse("equiv").unwrap(), RunKind::Equiv);
        let o = Overrides {
            seed: Some(u64::MAX),
            ..Overrides::default()
        };
        let e = run_config(None, RunKind::Pl, &o).unwrap_err();
        assert!(e.to_string().contains("seed"), "{e}");
        assert_eq!(e.exit_code(), 2);
        // EQ and equivalence levels are open-ended: 9 is taken, 0 refused
        // naming the key.
        let o = Overrides {
            levels: vec![9],
            ..Overrides::default()
        };
        for kind in [RunKind::Eq, RunKind::Equiv] {
            let cfg = run_config(None, kind, &o).unwrap();
            let levels = match kind {
                RunKind::Eq => &cfg.tasks.eq.levels,
                _ => &cfg.tasks.equiv.levels,
            };
            assert_eq!(levels, &[9]);
        }
        let o = Overrides {
            levels: vec![2, 0],
            ..Overrides::default()
        };
        let e = run_config(None, RunKind::Eq, &o).unwrap_err();
        assert_eq!(
            e.to_string(),
            "overrides: tasks.eq.levels: no EQ level 0 (levels start at 1)"
        );
        let e = run_config(None, RunKind::Equiv, &o).unwrap_err();
        assert_eq!(
            e.to_string(),
            "overrides: tasks.equiv.levels: no equivalence level 0 (levels start at 1)"
        );
        let o2 = Overrides {
            answer_format: Some("xml".into()),
            ..Overrides::default()
        };
        let e = run_config(None, RunKind::Eq, &o2).unwrap_err();
        assert!(e.to_string().contains("answer_format"), "{e}");
        let e = run_config(Some(Path::new("/no/such/file.toml")), RunKind::Tptp, &o).unwrap_err();
        assert!(e.to_string().contains("/no/such/file.toml"), "{e}");
        assert_eq!(e.exit_code(), 2);
    }
}
