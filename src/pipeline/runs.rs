//! The `saturate pl`, `saturate eq` and `saturate equiv` runs: the
//! families' generators from the configuration (`[tasks.pl]`, `[tasks.eq]`,
//! `[tasks.equiv]`), handed to the one
//! generation loop (`pipeline::generate`). These families need no stage
//! before generation.

use super::RunError;
use super::generate::{LoopSettings, RunSummary, run_generators};
use crate::config::Config;
use crate::tasks::eq::family::EqGenerator;
use crate::tasks::equiv::family::EquivGenerator;
use crate::tasks::family::Generator;
use crate::tasks::pl::family::{Pl1Generator, Pl2Generator};
use std::path::Path;

/// Runs the PL families of `cfg.tasks.pl` (PL1 and/or PL2) into one
/// dataset at `out`.
pub fn run_pl(cfg: &Config, out: &Path, settings: &LoopSettings) -> Result<RunSummary, RunError> {
    let pl = &cfg.tasks.pl;
    pl.validate().map_err(RunError::Input)?;
    if pl.count == 0 {
        return Err(RunError::Input("--count must be at least 1".into()));
    }
    let pl1 = Pl1Generator {
        config: pl.clone(),
        seed: cfg.seed,
    };
    let pl2 = Pl2Generator::new(pl.clone(), cfg.seed);
    let mut generators: Vec<&dyn Generator> = Vec::new();
    if pl.wants_pl1() {
        generators.push(&pl1);
    }
    if pl.wants_pl2() {
        generators.push(&pl2);
    }
    let name = match (pl.wants_pl1(), pl.wants_pl2()) {
        (true, false) => "saturate PL1",
        (false, true) => "saturate PL2",
        _ => "saturate PL1 + PL2",
    };
    run_generators(
        out,
        name,
        cfg.seed,
        &generators,
        &with_dataset(cfg, settings),
        pl.max_rows_per_shard,
    )
}

/// Runs the EQ family of `cfg.tasks.eq` into a dataset at `out`.
pub fn run_eq(cfg: &Config, out: &Path, settings: &LoopSettings) -> Result<RunSummary, RunError> {
    let eq = &cfg.tasks.eq;
    eq.validate().map_err(RunError::Input)?;
    if eq.count == 0 {
        return Err(RunError::Input("--count must be at least 1".into()));
    }
    let generator = EqGenerator {
        config: eq.clone(),
        seed: cfg.seed,
    };
    run_generators(
        out,
        "saturate EQ",
        cfg.seed,
        &[&generator],
        &with_dataset(cfg, settings),
        eq.max_rows_per_shard,
    )
}

/// Runs the equivalence family of `cfg.tasks.equiv` (after AutoEval) into
/// a dataset at `out`.
pub fn run_equiv(
    cfg: &Config,
    out: &Path,
    settings: &LoopSettings,
) -> Result<RunSummary, RunError> {
    let equiv = &cfg.tasks.equiv;
    equiv.validate().map_err(RunError::Input)?;
    if equiv.count == 0 {
        return Err(RunError::Input("--count must be at least 1".into()));
    }
    let generator = EquivGenerator {
        config: equiv.clone(),
        seed: cfg.seed,
    };
    run_generators(
        out,
        "saturate equiv",
        cfg.seed,
        &[&generator],
        &with_dataset(cfg, settings),
        equiv.max_rows_per_shard,
    )
}

/// The loop settings with the configuration's `[dataset]` options (the
/// configuration is what the manifest records, so it decides).
fn with_dataset(cfg: &Config, settings: &LoopSettings) -> LoopSettings {
    LoopSettings {
        dataset: cfg.dataset.clone(),
        ..settings.clone()
    }
}
