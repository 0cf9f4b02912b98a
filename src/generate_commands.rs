//! The generate commands of the binary: `saturate generate <FAMILY>` and
//! its aliases (`saturate --domain`, `pl`, `eq`, `equiv`), each a family
//! of the registry run through `pipeline::run_family` with the flags
//! applied to its configuration section; kept apart from `main.rs`, which
//! parses arguments and dispatches.

use super::{Common, FamilyArgs, GenArgs, GenerateArgs, PlArgs, load_config, validated};
use saturate::config::Config;
use saturate::pipeline::{self, RunError};
use std::path::{Path, PathBuf};

/// `Common` of a command that takes only a config file and `-q`.
fn file_only(config: Option<&Path>, quiet: bool) -> Common {
    Common {
        tptp: None,
        config: config.map(Path::to_path_buf),
        max_processed: None,
        max_generated: None,
        max_kept: None,
        quiet,
        confine_includes: false,
    }
}

/// `saturate pl`: the `pl` family with its own options.
pub fn run_pl(a: &PlArgs) -> Result<(), RunError> {
    let request = Generate {
        family: "pl",
        out: a.out.clone(),
        domains: Vec::new(),
        stage: "all",
        problems: false,
        generation: &a.generation,
        common: file_only(a.config.as_deref(), a.quiet),
    };
    run_generate(&request, |cfg| {
        let pl = cfg.tasks.get_mut::<saturate::tasks::pl::family::PlConfig>();
        if !a.families.is_empty() {
            pl.families = a.families.clone();
        }
        if !a.sizes.is_empty() {
            pl.pl2.sizes = a.sizes.clone();
        }
        if !a.pl2_families.is_empty() {
            pl.pl2.families = a.pl2_families.clone();
        }
        if let Some(n) = a.max_refutation_steps {
            pl.pl2.max_refutation_steps = n as usize;
        }
        if let Some(n) = a.max_cnf_clauses {
            pl.pl2.max_cnf_clauses = n as usize;
        }
    })
}

/// `eq` and `equiv`: the family's generate command with its defaults.
pub fn run_alias(family: &'static str, a: &FamilyArgs) -> Result<(), RunError> {
    run_generate(
        &Generate {
            family,
            out: a
                .out
                .clone()
                .unwrap_or_else(|| PathBuf::from("out").join(family)),
            domains: Vec::new(),
            stage: "all",
            problems: false,
            generation: &a.generation,
            common: file_only(a.config.as_deref(), a.quiet),
        },
        |_| {},
    )
}

/// `saturate generate <FAMILY>`.
pub fn run_generate_command(a: &GenerateArgs) -> Result<(), RunError> {
    let family = pipeline::request::family(&a.family)?;
    let out = a.out.clone().unwrap_or_else(|| {
        if family.stage().is_some() {
            PathBuf::from("out")
        } else {
            PathBuf::from("out").join(family.name())
        }
    });
    run_generate(
        &Generate {
            family: family.name(),
            out,
            domains: a.domain.clone(),
            stage: &a.stage,
            problems: a.problems,
            generation: &a.generation,
            common: a.common.clone(),
        },
        |_| {},
    )
}

/// One generate command, whichever way it was asked for.
pub struct Generate<'a> {
    /// The family's generate command (`tptp`, `pl`, ...).
    pub family: &'a str,
    /// The dataset folder, or a staged family's output root.
    pub out: PathBuf,
    /// `--domain` (staged families only).
    pub domains: Vec<String>,
    /// `--stage` (staged families only; `all` otherwise).
    pub stage: &'a str,
    /// `--problems` (staged families only): the domains' problem files are
    /// the sources, not their axiom files.
    pub problems: bool,
    /// The flags every generator command shares.
    pub generation: &'a GenArgs,
    /// The config file, `-q`, and for staged families the TPTP root and
    /// work limits.
    pub common: Common,
}

/// Runs a family's generate command: the configuration with the flags
/// applied (then `edit`, a command's own options), the family's stage if
/// it has one, its generators, the summary, the cost file and the defects.
pub fn run_generate(r: &Generate, edit: impl FnOnce(&mut Config)) -> Result<(), RunError> {
    let family = pipeline::request::family(r.family)?;
    if family.stage().is_some() {
        return run_staged(family, r, edit);
    }
    if !r.domains.is_empty() || r.stage != "all" || r.problems {
        return Err(RunError::Input(format!(
            "--domain, --stage and --problems apply to {} only",
            pipeline::request::staged_family_names()
        )));
    }
    let out = r.out.as_path();
    pipeline::check_output_dir(
        out,
        r.common
            .config
            .iter()
            .map(|c| ("the config file", c.as_path())),
    )?;
    let mut cfg = load_config(&r.common)?;
    r.generation.apply(&mut cfg, family.name());
    edit(&mut cfg);
    let cfg = validated(cfg)?;
    let quiet = r.common.quiet;
    let outcome = pipeline::run_family(
        &cfg,
        &pipeline::FamilyRun {
            family,
            out: out.to_path_buf(),
            settings: r.generation.settings(&cfg, quiet),
            stage: pipeline::StageOptions::default(),
        },
    )?;
    let summary = outcome.run;
    if !quiet {
        eprint!("{}", summary.render());
        eprintln!("dataset written to {}", out.display());
    }
    write_cost(
        r.generation.cost_json.as_deref(),
        &summary,
        Default::default(),
    )?;
    defects(&summary, out)
}

/// Writes `--cost-json` (when given): the run's cost per cell, plus
/// `extra` keys (a domain run's phase 1).
fn write_cost(
    path: Option<&Path>,
    summary: &pipeline::RunSummary,
    extra: serde_json::Map<String, serde_json::Value>,
) -> Result<(), RunError> {
    let Some(path) = path else {
        return Ok(());
    };
    let mut v = summary.cost_json();
    if let Some(o) = v.as_object_mut() {
        o.extend(extra);
    }
    pipeline::write_atomic(path, |w| {
        serde_json::to_writer_pretty(&mut *w, &v)?;
        std::io::Write::write_all(w, b"\n")
    })
}

/// The run's outcome when it found bugs: the dataset is written, the exit
/// code says so (4).
fn defects(summary: &pipeline::RunSummary, dataset: &Path) -> Result<(), RunError> {
    let (panics, certificate_failures) = (summary.generator_panics, summary.certificate_failures);
    if panics + certificate_failures == 0 {
        return Ok(());
    }
    Err(RunError::Defect(format!(
        "the run found bugs: {certificate_failures} certificate(s) the checker refused, {panics} generator panic(s); the dataset was written to {} without them, and each is listed in {}",
        dataset.display(),
        dataset.join("rejects/rejects.jsonl").display()
    )))
}

/// A family with a stage (tptp): `saturate --domain` and `saturate
/// generate tptp`.
fn run_staged(
    family: &'static dyn saturate::tasks::generation::Generation,
    args: &Generate,
    edit: impl FnOnce(&mut Config),
) -> Result<(), RunError> {
    let mut cfg = load_config(&args.common)?;
    args.generation.apply(&mut cfg, family.name());
    edit(&mut cfg);
    let cfg = validated(cfg)?;
    let domains = pipeline::tptp::run_domains(&cfg, &args.domains);
    if domains.is_empty() {
        return Err(RunError::Input(
            "nothing to do: give --domain DOMAIN (e.g. --domain SET, --domain ALL, or --problems --domain ALL) or a subcommand; see --help"
                .into(),
        ));
    }
    let quiet = args.common.quiet;
    let settings = args.generation.settings(&cfg, quiet);
    let planning = args.stage == "plan";
    let stage = if planning {
        pipeline::tptp::Stage::All
    } else {
        pipeline::tptp::Stage::parse(args.stage)?
    };
    if planning {
        let p = pipeline::tptp::plan(&pipeline::tptp::TptpRun {
            domains,
            tptp: args.common.tptp.clone(),
            config: cfg,
            out: args.out.clone(),
            shard: settings.shard,
            progress: settings.progress,
            strict: settings.strict,
            require_full: settings.require_full,
            stage,
            problems: args.problems,
        })?;
        println!(
            "{}",
            serde_json::json!({ "name": p.name, "files": p.files, "units": p.units })
        );
        return Ok(());
    }
    let outcome = pipeline::run_family(
        &cfg,
        &pipeline::FamilyRun {
            family,
            out: args.out.clone(),
            settings,
            stage: pipeline::StageOptions {
                domains,
                tptp: args.common.tptp.clone(),
                stage,
                problems: args.problems,
            },
        },
    )?;
    let summary = outcome
        .staged
        .ok_or_else(|| RunError::Runtime("the stage gave no report".into()))?;
    println!(
        "{:<28} {:>13} {:>9} {:>10} {:>9} {:>9} {:>6}  artifact",
        "file", "status", "processed", "generated", "kept", "dag_edges", "depth"
    );
    for (r, (dir, reused)) in summary.saturation.iter().zip(&summary.artifacts) {
        let name = Path::new(&r.source)
            .file_stem()
            .map_or(r.source.clone(), |s| s.to_string_lossy().into_owned());
        println!(
            "{:<28} {:>13} {:>9} {:>10} {:>9} {:>9} {:>6}  {} ({})",
            name,
            r.status.name(),
            r.processed,
            r.generated,
            r.kept,
            r.dag_edges,
            r.max_depth,
            dir.display(),
            if *reused { "reused" } else { "written" }
        );
    }
    print!("{}", summary.render());
    let mut phase1 = serde_json::Map::new();
    phase1.insert(
        "phase1_seconds".into(),
        serde_json::json!(summary.saturation_seconds),
    );
    phase1.insert(
        "phase1_peak_rss_mib".into(),
        serde_json::json!(summary.saturation_peak_rss_kib / 1024),
    );
    phase1.insert(
        "files".into(),
        summary
            .saturation
            .iter()
            .zip(&summary.artifacts)
            .map(|(r, (dir, reused))| {
                serde_json::json!({
                    "source": r.source,
                    "artifact": dir,
                    "reused": reused,
                    "saturation_seconds": r.seconds,
                    "phase1_cpu_seconds": r.cpu_seconds,
                    "processed": r.processed,
                })
            })
            .collect(),
    );
    write_cost(args.generation.cost_json.as_deref(), &summary.run, phase1)?;
    if stage == pipeline::tptp::Stage::Saturate {
        println!("phase 1 done: generate with --stage generate (same config and --out)");
        return Ok(());
    }
    println!("dataset written to {}", summary.dataset.display());
    defects(&summary.run, &summary.dataset)
}
