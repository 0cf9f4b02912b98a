//! Command-line front door of saturate: parses arguments, calls the library,
//! maps errors to exit codes (0 ok, 1 runtime failure, 2 usage or input error,
//! 3 `prove` gave up, 4 a run found bugs: certificate failures or generator
//! panics, dataset written and marked complete, or with `--strict` nothing
//! written).

use clap::{Args, Parser, Subcommand};
use saturate::config::{Config, MAX_COUNT, MAX_JOBS, MAX_MODEL_SIZE, MAX_WORK};
use saturate::pipeline::{self, DagFormat, Progress, RunError, write_atomic};
use std::path::{Path, PathBuf};

/// Saturation-driven generator of certified logical reasoning datasets.
#[derive(Parser, Debug)]
#[command(
    name = "saturate",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Args, Debug, Clone)]
struct Common {
    /// TPTP library root, for include('Axioms/...') and --domain.
    #[arg(long, env = "TPTP", value_name = "DIR")]
    tptp: Option<PathBuf>,
    /// TOML configuration file (see configs/default.toml).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Stop after this many given-clause selections, counted as E's
    /// --processed-clauses-limit counts them (overrides the config; also the
    /// prover's budget of distinct given clauses).
    #[arg(long, value_name = "N", value_parser = work_limit)]
    max_processed: Option<u64>,
    /// Stop after this many generated clauses (overrides the config).
    #[arg(long, value_name = "N", value_parser = work_limit)]
    max_generated: Option<u64>,
    /// Stop when this many clauses are kept (overrides the config).
    #[arg(long, value_name = "N", value_parser = work_limit)]
    max_kept: Option<u64>,
    /// No progress bar, progress log lines or run summary on stderr
    /// (errors are still printed).
    #[arg(long, short)]
    quiet: bool,
    /// Refuse includes that resolve (symbolic links followed) outside the
    /// TPTP root and the problem file's folder (`derive`, `prove`).
    #[arg(long)]
    confine_includes: bool,
}

impl Common {
    /// How input files may follow `include` directives.
    fn include_policy(&self) -> saturate::tptp::IncludePolicy {
        saturate::tptp::IncludePolicy {
            confine: self.confine_includes,
            ..Default::default()
        }
    }
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Domains to process, comma-separated (e.g. SET or ALG,SET): every CNF
    /// axiom file of each is saturated and the three TPTP task families are
    /// generated from the derivations. Defaults to the config's
    /// `tasks.domains`.
    #[arg(long, value_name = "DOMAIN,...", value_delimiter = ',')]
    domain: Vec<String>,
    /// Output root: writes DIR/<DOMAINS>/saturation and DIR/<DOMAINS>/dataset.
    #[arg(long, value_name = "DIR", default_value = "out")]
    out: PathBuf,
    /// Worker threads (0 = one per core; overrides the config). The output
    /// does not depend on it.
    #[arg(long, value_name = "N", value_parser = jobs_arg)]
    jobs: Option<usize>,
    /// Run seed (overrides the config).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    seed: Option<u64>,
    /// Instances per domain, task and level (overrides `tasks.count`).
    #[arg(long, value_name = "N", value_parser = count_arg)]
    count: Option<usize>,
    /// Run only shard i of N (1-based): the slots whose index is i-1
    /// modulo N. The N shards together are the unsharded run.
    #[arg(long, value_name = "i/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// End the run at the first certificate the checker refuses or
    /// generator panic (exit 4, no dataset). Without it such instances are
    /// rejected, listed in <dataset>/rejects/, and the run exits 4 after
    /// writing the dataset.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    common: Common,
}

/// `--max-processed` and the other work limits: at most [`MAX_WORK`].
fn work_limit(s: &str) -> Result<u64, String> {
    let v: u64 = s
        .parse()
        .map_err(|e| format!("{e} (expected a whole number 0-{MAX_WORK})"))?;
    if v > MAX_WORK {
        return Err(format!("{v} is above the largest work limit {MAX_WORK}"));
    }
    Ok(v)
}

/// `--jobs`: 0 (one per core) to [`MAX_JOBS`].
fn jobs_arg(s: &str) -> Result<usize, String> {
    let v: usize = s
        .parse()
        .map_err(|e| format!("{e} (expected a whole number 0-{MAX_JOBS})"))?;
    if v as u64 > MAX_JOBS {
        return Err(format!("{v} is not in 0-{MAX_JOBS}"));
    }
    Ok(v)
}

/// `--count`: 0 to [`MAX_COUNT`] instances per cell.
fn count_arg(s: &str) -> Result<usize, String> {
    let v: usize = s
        .parse()
        .map_err(|e| format!("{e} (expected a whole number 0-{MAX_COUNT})"))?;
    if v as u64 > MAX_COUNT {
        return Err(format!("{v} is not in 0-{MAX_COUNT}"));
    }
    Ok(v)
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("expected i/N, got {s:?}"))?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("bad shard index in {s:?}"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("bad shard count in {s:?}"))?;
    if n == 0 || i == 0 || i > n {
        return Err(format!("expected 1 <= i <= N, got {s:?}"));
    }
    Ok((i, n))
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Saturate one axiom file and write its full derivation.
    Derive {
        /// The TPTP CNF file.
        file: PathBuf,
        /// Derivation output: `.zst` = zstd JSON Lines dump, otherwise TSTP.
        /// Without it, TSTP goes to stdout.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Write run statistics as JSON here (times in a `timing` group).
        #[arg(long, value_name = "FILE")]
        stats_json: Option<PathBuf>,
        /// Leave the `timing` group out of --stats-json, so that the file is
        /// byte-identical across reruns like every other output.
        #[arg(long)]
        no_timing: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Decide a TPTP CNF problem with the built-in prover and print an SZS
    /// status line (exit 0 when decided, 3 on GaveUp).
    Prove {
        /// The TPTP CNF problem file.
        file: PathBuf,
        /// Largest finite model domain size tried (overrides the config).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=MAX_MODEL_SIZE as i64))]
        max_model_size: Option<u32>,
        /// Print the certificate: the refutation as a TSTP derivation, or
        /// the finite model (TPTP finite interpretation).
        #[arg(long)]
        proof: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Generate the PL1 dataset (ProofGrid-style natural-deduction tasks):
    /// one config per task, Parquet + dataset card + manifest.
    Pl(PlArgs),
    /// Score model answers (JSON Lines of {"id", "answer"}) against a
    /// dataset with each task's scorer; writes per-instance scores as JSON
    /// Lines and prints a summary per task and level.
    Score {
        /// The dataset folder (the one holding manifest.json).
        #[arg(long, value_name = "DIR")]
        dataset: PathBuf,
        /// The answers: one {"id": ..., "answer": ...} per line.
        #[arg(long, value_name = "FILE")]
        answers: PathBuf,
        /// Where per-instance scores go (default: ANSWERS.scores.jsonl).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Re-check every row of a dataset from its stored text: TPTP
    /// certificates with the independent checker, PL1/PL2/EQ gold answers
    /// with their checkers; exits 1 if any fails.
    Verify {
        /// The dataset folder (the one holding manifest.json).
        dir: PathBuf,
        /// Print only failures and the final line.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Print the effective configuration as TOML.
    PrintConfig {
        #[command(flatten)]
        common: Common,
    },
    /// Generate the equational-logic (EQ) dataset: proof checking, elided
    /// equation recovery and gap filling, one config per task.
    Eq(EqArgs),
}

#[derive(Args, Debug)]
struct EqArgs {
    /// Instances per task and level.
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    count: u64,
    /// Run seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Difficulty levels, comma-separated (1-4).
    #[arg(long, value_name = "L,...", value_delimiter = ',', default_value = "1,2,3,4",
          value_parser = clap::value_parser!(u8).range(1..=4))]
    levels: Vec<u8>,
    /// Output folder.
    #[arg(long, value_name = "DIR", default_value = "out/eq")]
    out: PathBuf,
    /// Worker threads (0 = one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = jobs_arg)]
    jobs: usize,
    /// Rows per Parquet shard.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    shard_rows: u64,
    /// No progress or summary on stderr (errors are still printed).
    #[arg(long, short)]
    quiet: bool,
    /// End the run at the first generator panic (exit 4, no dataset).
    #[arg(long)]
    strict: bool,
}

#[derive(Args, Debug)]
struct PlArgs {
    /// Instances per task and level.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = count_arg)]
    count: usize,
    /// Run seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Difficulty levels, comma-separated (1-4).
    #[arg(long, value_name = "L,...", value_delimiter = ',', default_values_t = [1u8, 2, 3, 4],
          value_parser = clap::value_parser!(u8).range(1..=4))]
    levels: Vec<u8>,
    /// Output dataset folder.
    #[arg(long, value_name = "DIR", default_value = "out/pl")]
    out: PathBuf,
    /// Worker threads (0 = one per core). The output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = jobs_arg)]
    jobs: usize,
    /// Rows per Parquet shard.
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    max_rows_per_shard: u64,
    /// No progress or summary on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// End the run at the first generator panic (exit 4, no dataset).
    #[arg(long)]
    strict: bool,
    /// Problem sets, comma-separated: pl1 (random problems, NDL) and/or
    /// pl2 (eight structured families, NDL_f). With pl2, --count is per
    /// task, family and size.
    #[arg(long, value_name = "SET,...", value_delimiter = ',', default_value = "pl1",
          value_parser = ["pl1", "pl2"])]
    families: Vec<String>,
    /// PL2 sizes, comma-separated (1-3).
    #[arg(long, value_name = "Z,...", value_delimiter = ',', default_values_t = [1u8, 2, 3],
          value_parser = clap::value_parser!(u8).range(1..=3))]
    sizes: Vec<u8>,
    /// PL2 families, comma-separated (default: all eight).
    #[arg(long, value_name = "NAME,...", value_delimiter = ',',
          value_parser = clap::builder::PossibleValuesParser::new(
              saturate::tasks::pl::families::Family::ALL.map(|f| f.name())))]
    pl2_families: Vec<String>,
    /// PL2: reject theorems whose resolution refutation has this many steps or more.
    #[arg(long, value_name = "N", default_value_t = 150,
          value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    max_refutation_steps: u64,
    /// PL2: reject instances whose clausal form has more clauses than this.
    #[arg(long, value_name = "N", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    max_cnf_clauses: u64,
}

fn run_pl(a: &PlArgs) -> Result<(), RunError> {
    let mut levels = a.levels.clone();
    levels.sort_unstable();
    levels.dedup();
    let mut families = a.families.clone();
    families.sort();
    families.dedup();
    let pl2 = families.iter().any(|f| f == "pl2").then(|| {
        let mut sizes = a.sizes.clone();
        sizes.sort_unstable();
        sizes.dedup();
        let fams = saturate::tasks::pl::families::Family::ALL
            .into_iter()
            .filter(|f| a.pl2_families.is_empty() || a.pl2_families.iter().any(|n| n == f.name()))
            .collect();
        let mut c = pipeline::pl::Pl2RunConfig {
            sizes,
            families: fams,
            ..Default::default()
        };
        c.options.max_refutation_steps = a.max_refutation_steps as usize;
        c.options.max_cnf_clauses = a.max_cnf_clauses as usize;
        c
    });
    let cfg = pipeline::pl::PlConfig {
        count: a.count,
        seed: a.seed,
        levels: levels.clone(),
        max_rows_per_shard: a.max_rows_per_shard as usize,
        families,
        pl2,
        ..Default::default()
    };
    let summary = pipeline::pl::run_pl(&cfg, a.jobs, &a.out, !a.quiet, a.strict)?;
    if !a.quiet {
        eprint!("{}", summary.render(&levels));
        eprintln!("dataset written to {}", a.out.display());
    }
    defects(summary.bugs.len(), 0, &a.out)
}

fn load_config(c: &Common) -> Result<Config, RunError> {
    let mut cfg = match &c.config {
        Some(p) => Config::load(p)?,
        None => Config::default(),
    };
    let l = &mut cfg.saturation.limits;
    if let Some(n) = c.max_processed {
        l.max_processed = Some(n);
        cfg.prover.max_processed = n;
    }
    if let Some(n) = c.max_generated {
        l.max_generated = Some(n);
    }
    if let Some(n) = c.max_kept {
        l.max_kept = Some(n);
    }
    cfg.validate()
        .map_err(|e| RunError::Input(format!("command line: {e}")))?;
    Ok(cfg)
}

fn main() {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
    let result = match cli.command {
        Some(Command::Derive {
            file,
            out,
            stats_json,
            no_timing,
            common,
        }) => derive(
            &file,
            out.as_deref(),
            stats_json.as_deref(),
            !no_timing,
            &common,
        ),
        Some(Command::Prove {
            file,
            max_model_size,
            proof,
            common,
        }) => prove(&file, max_model_size, proof, &common),
        Some(Command::Pl(args)) => run_pl(&args),
        Some(Command::PrintConfig { common }) => {
            load_config(&common).map(|c| print!("{}", c.to_toml()))
        }
        Some(Command::Eq(args)) => run_eq(&args),
        Some(Command::Score {
            dataset,
            answers,
            out,
            common,
        }) => score(&dataset, &answers, out, &common),
        Some(Command::Verify { dir, quiet }) => verify(&dir, quiet),
        None => run_domain(&cli.run),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}

/// The run's outcome when it found bugs: the dataset is written, the exit
/// code says so (4).
fn defects(panics: usize, certificate_failures: usize, dataset: &Path) -> Result<(), RunError> {
    if panics + certificate_failures == 0 {
        return Ok(());
    }
    Err(RunError::Defect(format!(
        "the run found bugs: {certificate_failures} certificate(s) the checker refused, {panics} generator panic(s); the dataset was written to {} without them, and each is listed in {}",
        dataset.display(),
        dataset.join("rejects/rejects.jsonl").display()
    )))
}

/// A problem's name as printed on `% SZS` lines: control characters (a
/// newline in a file name) must not break the line structure.
fn szs_name(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// Input in a TPTP language saturate does not read (TFF, THF, ...) is
/// answered `% SZS status Inappropriate` on stdout before the error (exit 2).
fn inappropriate(name: &str, e: RunError) -> RunError {
    if let RunError::Input(m) = &e
        && m.ends_with(saturate::tptp::UNSUPPORTED_INPUT)
    {
        println!("% SZS status Inappropriate for {name}");
    }
    e
}

/// Exit code of `prove` when the prover gives up (0 = decided).
const EXIT_GAVE_UP: i32 = 3;

fn prove(
    file: &Path,
    max_model_size: Option<u32>,
    proof: bool,
    common: &Common,
) -> Result<(), RunError> {
    use saturate::prover::{Evidence, InputClause, Prover, Verdict, check, output};
    use saturate::tptp::SzsStatus;
    let mut cfg = load_config(common)?;
    if let Some(n) = max_model_size {
        cfg.prover.max_model_size = n;
    }
    let mut bank = saturate::logic::TermBank::new();
    let name = szs_name(file);
    let problem = saturate::tptp::parse_file_with(
        &mut bank,
        file,
        common.tptp.as_deref(),
        &common.include_policy(),
    )
    .map_err(|e| inappropriate(&name, e.into()))?;
    // A CNF `conjecture` is what TPTP says it is: a clause to be proved from
    // the others (negated and Skolemised by `Prover::prove`), answered
    // Theorem / CounterSatisfiable. Their conjunction is not split here.
    let mut conjectures = problem
        .clauses
        .iter()
        .chain(&problem.tautologies)
        .filter(|c| c.role == saturate::tptp::Role::Conjecture);
    let conjecture = conjectures.next();
    if let Some(second) = conjectures.next() {
        return Err(RunError::Input(format!(
            "{}: a second CNF conjecture ({}); `prove` proves one conjecture clause per problem: put each in its own file",
            second.source,
            saturate::tptp::excerpt(&second.name, 80)
        )));
    }
    let inputs: Vec<InputClause> = problem
        .clauses
        .iter()
        .filter(|c| c.role != saturate::tptp::Role::Conjecture)
        .map(|c| InputClause {
            lits: c.lits.clone(),
            name: c.name.clone(),
            role: c.role.as_str().to_string(),
        })
        .collect();
    let start = std::time::Instant::now();
    let mut prover = Prover::new(cfg.prover.clone());
    prover.params = cfg.saturation.clone();
    let outcome = match conjecture {
        Some(c) => {
            let premises: Vec<&[saturate::logic::Literal]> =
                inputs.iter().map(|c| c.lits.as_slice()).collect();
            prover.prove(&bank, &premises, &c.lits)
        }
        None => prover.refute(&bank, &inputs),
    };
    // FOF conjectures were negated into the clauses (role
    // negated_conjecture) by the clausifier.
    let has_conjecture = conjecture.is_some() || !problem.fof_conjectures.is_empty();
    let status = match (&outcome.verdict, has_conjecture) {
        (Verdict::Theorem { .. }, false) => SzsStatus::Unsatisfiable,
        (Verdict::Theorem { .. }, true) => SzsStatus::Theorem,
        (Verdict::CounterSatisfiable { .. }, false) => SzsStatus::Satisfiable,
        (Verdict::CounterSatisfiable { .. }, true) => SzsStatus::CounterSatisfiable,
        (Verdict::Unknown, _) => SzsStatus::GaveUp,
    };
    println!("% SZS status {} for {name}", status.name());
    // The certificate was already checked inside the prover (config
    // `prover.check`); say what the check established.
    let problem_text = check::CheckProblem {
        axioms: inputs
            .iter()
            .map(|c| saturate::tptp::clause_to_tptp(&bank, &c.lits))
            .collect(),
        conjecture: conjecture.map(|c| saturate::tptp::clause_to_tptp(&bank, &c.lits)),
    };
    let checked = check::check(&problem_text, &outcome.verdict)
        .map_err(|e| RunError::Runtime(format!("certificate does not check: {e}")))?;
    if proof {
        match &outcome.verdict {
            Verdict::Theorem { refutation } => {
                println!("% SZS output start CNFRefutation for {name}");
                print!("{}", output::refutation_tstp(refutation));
                println!("% SZS output end CNFRefutation for {name}");
            }
            Verdict::CounterSatisfiable {
                evidence: Evidence::Model { model },
            } => {
                println!("% SZS output start FiniteModel for {name}");
                print!("{}", output::model_tptp(model));
                println!("% SZS output end FiniteModel for {name}");
            }
            Verdict::CounterSatisfiable {
                evidence: Evidence::Saturation { clauses },
            } => {
                println!("% SZS output start Saturation for {name}");
                for (i, c) in clauses.iter().enumerate() {
                    println!("cnf(s{}, plain, ({c})).", i + 1);
                }
                println!("% SZS output end Saturation for {name}");
            }
            Verdict::Unknown => {}
        }
    }
    if !common.quiet {
        let s = &outcome.stats;
        tracing::info!(
            "{name}: {} in {:.3}s; {} processed, {} generated; model sizes tried up to {}, {} ground clauses, {} SAT conflicts; certificate: {checked:?}",
            status.name(),
            start.elapsed().as_secs_f64(),
            s.processed,
            s.generated,
            s.model_size_tried,
            s.ground_clauses,
            s.sat_conflicts
        );
    }
    if let Some(expected) = problem.szs_status()
        && status != SzsStatus::GaveUp
        && expected != status
        && matches!(
            expected,
            SzsStatus::Unsatisfiable
                | SzsStatus::Satisfiable
                | SzsStatus::Theorem
                | SzsStatus::CounterSatisfiable
        )
    {
        // The header is a comment, often stale or wrong; the verdict is
        // certified, so the disagreement is reported, not fatal.
        eprintln!(
            "warning: {}: certified verdict {} disagrees with the problem's % Status {} (the comment may be stale; the verdict stands)",
            file.display(),
            status.name(),
            expected.name()
        );
    }
    if status == SzsStatus::GaveUp {
        std::process::exit(EXIT_GAVE_UP);
    }
    Ok(())
}

fn derive(
    file: &Path,
    out: Option<&Path>,
    stats_json: Option<&Path>,
    timing: bool,
    common: &Common,
) -> Result<(), RunError> {
    let cfg = load_config(common)?;
    let src = pipeline::AxiomSource {
        domain: String::new(),
        name: file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        display: file.display().to_string(),
        path: Some(file.to_path_buf()),
        text: None,
    };
    let (bank, inputs) =
        pipeline::load_source_with(&src, common.tptp.as_deref(), &common.include_policy())
            .map_err(|e| inappropriate(&szs_name(file), e))?;
    let outputs: Vec<&Path> = out.iter().chain(stats_json.iter()).copied().collect();
    pipeline::check_outputs(
        &outputs,
        std::iter::once(file).chain(inputs.iter().map(|(_, i)| Path::new(&i.file))),
    )?;
    let total = cfg.saturation.limits.max_processed.unwrap_or(0);
    let progress = Progress::new(&src.name, total, !common.quiet);
    let (sat, report) = pipeline::saturate(&src.display, bank, inputs, &cfg.saturation, &progress);
    progress.finish(report.status.name());
    match out {
        Some(path) => write_atomic(path, |w| {
            pipeline::write_derivation(w, &sat, DagFormat::from_path(path))
        })?,
        None => {
            let stdout = std::io::stdout();
            let mut lock = std::io::BufWriter::new(stdout.lock());
            pipeline::write_derivation(&mut lock, &sat, DagFormat::Tstp)
                .and_then(|_| std::io::Write::flush(&mut lock))
                .map_err(|e| RunError::Runtime(format!("stdout: {e}")))?;
        }
    }
    if let Some(path) = stats_json {
        write_atomic(path, |w| {
            serde_json::to_writer_pretty(&mut *w, &report.stats_json(timing))?;
            std::io::Write::write_all(w, b"\n")
        })?;
    }
    if common.quiet {
        return Ok(());
    }
    tracing::info!(
        "{}: {} after {} processed, {} generated, {} kept, DAG {} nodes / {} edges, depth {}",
        src.name,
        report.status.name(),
        report.processed,
        report.generated,
        report.kept,
        report.dag_nodes,
        report.dag_edges,
        report.max_depth
    );
    Ok(())
}

fn run_domain(args: &RunArgs) -> Result<(), RunError> {
    let mut cfg = load_config(&args.common)?;
    if let Some(j) = args.jobs {
        cfg.jobs = j;
    }
    if let Some(seed) = args.seed {
        cfg.seed = seed;
    }
    if let Some(n) = args.count {
        cfg.tasks.count = n;
    }
    let domains = if args.domain.is_empty() {
        cfg.tasks.domains.clone()
    } else {
        args.domain.clone()
    };
    if domains.is_empty() {
        return Err(RunError::Input(
            "nothing to do: give --domain DOMAIN (e.g. --domain SET) or a subcommand; see --help"
                .into(),
        ));
    }
    let quiet = args.common.quiet;
    let summary = pipeline::tptp::run_tptp(&pipeline::tptp::TptpRun {
        domains,
        tptp: args.common.tptp.clone(),
        config: cfg,
        out: args.out.clone(),
        shard: args.shard,
        progress: !quiet,
        strict: args.strict,
    })?;
    println!(
        "{:<28} {:>13} {:>9} {:>10} {:>9} {:>9} {:>6}",
        "file", "status", "processed", "generated", "kept", "dag_edges", "depth"
    );
    for r in &summary.saturation {
        let name = Path::new(&r.source)
            .file_stem()
            .map_or(r.source.clone(), |s| s.to_string_lossy().into_owned());
        println!(
            "{:<28} {:>13} {:>9} {:>10} {:>9} {:>9} {:>6}",
            name,
            r.status.name(),
            r.processed,
            r.generated,
            r.kept,
            r.dag_edges,
            r.max_depth
        );
    }
    print!("{}", summary.render());
    println!("dataset written to {}", summary.dataset.display());
    defects(
        summary.generator_panics,
        summary.certificate_failures,
        &summary.dataset,
    )
}

fn run_eq(a: &EqArgs) -> Result<(), RunError> {
    let summary = pipeline::run_eq(&pipeline::EqRun {
        count: a.count as usize,
        seed: a.seed,
        levels: a.levels.clone(),
        out: a.out.clone(),
        jobs: a.jobs,
        progress: !a.quiet,
        max_rows_per_shard: a.shard_rows as usize,
        strict: a.strict,
    })?;
    if !a.quiet {
        eprint!("{}", summary.render());
        eprintln!("dataset written to {}", a.out.display());
    }
    defects(summary.bugs.len(), 0, &a.out)
}

fn score(
    dataset: &Path,
    answers: &Path,
    out: Option<PathBuf>,
    common: &Common,
) -> Result<(), RunError> {
    let cfg = load_config(common)?;
    let out = out.unwrap_or_else(|| {
        let mut p = answers.as_os_str().to_owned();
        p.push(".scores.jsonl");
        PathBuf::from(p)
    });
    let summary = pipeline::score::score_answers(dataset, answers, &out, cfg.prover)?;
    print!("{}", summary.render());
    println!("per-instance scores written to {}", out.display());
    Ok(())
}

fn verify(dir: &Path, quiet: bool) -> Result<(), RunError> {
    let s = pipeline::score::verify_dataset(dir)?;
    if !quiet {
        for (task, n) in &s.checked {
            println!("{task}: {n} certificates re-checked");
        }
        for (task, n) in &s.skipped {
            println!("{task}: {n} rows without a re-checkable certificate (checked at generation)");
        }
    }
    for (id, file, e) in &s.failures {
        eprintln!("FAIL {id} ({file}): {e}");
    }
    let total: usize = s.checked.values().sum();
    if s.failures.is_empty() {
        println!("verify: all {total} certificates check");
        Ok(())
    } else {
        Err(RunError::Runtime(format!(
            "verify: {} of {} certificates do not check",
            s.failures.len(),
            total + s.failures.len()
        )))
    }
}
