//! TOML configuration: every knob with a default, unknown keys rejected, so a
//! typo in a config file is an error rather than a silently ignored setting.

use crate::prover::ProverLimits;
use crate::saturation::Params;
use serde::{Deserialize, Serialize};
use std::path::Path;

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
    /// TPTP task generation of the domain run.
    pub tasks: crate::tasks::tptp::TasksConfig,
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
    /// Parses a configuration from TOML text; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Config, ConfigError> {
        toml::from_str(text).map_err(|e| {
            let (line, col) = e.span().map(|s| line_col(text, s.start)).unwrap_or((1, 1));
            ConfigError::Parse {
                path: origin.to_string(),
                line,
                col,
                message: e.message().to_string(),
            }
        })
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

    #[test]
    fn unknown_keys_are_errors_with_position() {
        let e = Config::from_toml("seed = 1\n[saturation]\nslection = \"none\"\n", "cfg.toml")
            .unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("cfg.toml:3:"), "{msg}");
        assert!(msg.contains("slection"), "{msg}");
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
