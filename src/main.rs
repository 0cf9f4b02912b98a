//! Command-line front door of saturate: parses arguments, calls the library,
//! maps errors to exit codes (0 ok, 1 runtime failure, 2 usage or input error,
//! 3 `prove` gave up, 4 a run found bugs: certificate failures or generator
//! panics, dataset written and marked complete, or with `--strict` nothing
//! written).

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use saturate::config::{Config, MAX_COUNT, MAX_JOBS, MAX_MODEL_SIZE, MAX_WORK};
use saturate::dataset::OutputFormat;
use saturate::pipeline::present::SplitBy;
use saturate::pipeline::{self, RunError};
use saturate::tasks::format::AnswerFormat;
use std::path::{Path, PathBuf};

mod dataset_commands;
mod dedup_command;
mod generate_commands;
mod prover_commands;
use dataset_commands::{audit, merge, parse_margin, verify};
use generate_commands::{Generate, run_alias, run_generate, run_generate_command, run_pl};
use prover_commands::{EXIT_GAVE_UP, MAX_CPU_LIMIT, deadline, derive, prove};

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
    /// prover's budget of distinct given clauses, and the most a domain
    /// run's depth on demand saturates a file to).
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
            // A TPTP file may hold no formulas: an empty clause set, which
            // `derive` and `prove` answer Satisfiable (as E does).
            allow_empty: true,
            ..Default::default()
        }
    }
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Domains to process, comma-separated (e.g. SET or ALG,SET), or ALL
    /// (every domain with CNF/FOF axiom files in the TPTP root, or with
    /// --problems every problem folder; without a root, every embedded
    /// domain): every CNF and FOF axiom file of each is saturated and the
    /// TPTP task families are generated from the derivations. Defaults to
    /// the config's `tasks.tptp.domains`.
    #[arg(long, value_name = "DOMAIN,...", value_delimiter = ',')]
    domain: Vec<String>,
    /// Take the domains' problem files (TPTP/Problems/<DOMAIN>/*.p) as the
    /// theories instead of their axiom files: each file's includes and own
    /// formulas, its conjecture left out (TFF/THF files, files with no
    /// axioms and repeats of an earlier file's theory are skipped, each
    /// with its reason in the log and the card). Needs --tptp (or TPTP=).
    #[arg(long)]
    problems: bool,
    /// Output root: writes DIR/artifacts (one saturation artifact per axiom
    /// file, reused by later runs), DIR/<NAME>/saturation and
    /// DIR/<NAME>/<NAME>-tasks (the dataset), NAME being the domains joined
    /// by '-' (plus the shard).
    #[arg(long, value_name = "DIR", default_value = "out")]
    out: PathBuf,
    /// Stages to run: all (saturate the files without an artifact, reuse
    /// the others, generate), saturate (phase 1 only: write the artifacts;
    /// with --shard i/N, of every N-th axiom file) or generate (phase 2
    /// only, from artifacts an earlier `--stage saturate` wrote; never
    /// saturates); or plan: print the run's name, axiom files and
    /// generation units as JSON (what a job array needs) and do nothing.
    #[arg(long, value_name = "STAGE", default_value = "all", value_parser = ["all", "saturate", "generate", "plan"])]
    stage: String,
    #[command(flatten)]
    generation: GenArgs,
    #[command(flatten)]
    common: Common,
}

/// The flags every generator command shares (`generate`, `--domain`, `pl`, `eq`, `equiv`); each
/// overrides the config's value for the family's section.
#[derive(Args, Debug, Clone)]
struct GenArgs {
    /// Worker threads (0 = one per core; overrides the config). The output
    /// does not depend on it.
    #[arg(long, value_name = "N", value_parser = jobs_arg)]
    jobs: Option<usize>,
    /// Run seed (overrides the config).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    seed: Option<u64>,
    /// Rows per cell (config, group, level) (overrides the family's `count`).
    #[arg(long, value_name = "N", value_parser = count_arg)]
    count: Option<usize>,
    /// Difficulty levels, comma-separated (overrides the family's `levels`).
    #[arg(long, value_name = "L,...", value_delimiter = ',',
          value_parser = clap::value_parser!(u8).range(1..=255))]
    levels: Vec<u8>,
    /// Rows per Parquet shard (overrides the family's `max_rows_per_shard`).
    #[arg(long, value_name = "N", alias = "shard-rows", value_parser = count_arg)]
    max_rows_per_shard: Option<usize>,
    /// Run only shard i of N (1-based): the cells whose ordinal is i-1
    /// modulo N. The N shards' rows together are the unsharded run's.
    #[arg(long, value_name = "i/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// End the run at the first certificate the checker refuses or
    /// generator panic (exit 4, no dataset). Without it such instances are
    /// rejected, listed in <dataset>/rejects/, and the run exits 4 after
    /// writing the dataset.
    #[arg(long)]
    strict: bool,
    /// Fail the run (exit 1, no dataset) when a cell comes up short of its
    /// count; without it the shortfall is reported in the summary.
    #[arg(long)]
    require_full: bool,
    /// Answer format of prompts, `completion` and `messages`: plain (the
    /// bare answer), tags (<answer>...</answer>) or json ({"answer": ...})
    /// (overrides `[dataset] answer_format`).
    #[arg(long, value_name = "FORMAT",
          value_parser = PossibleValuesParser::new(["plain", "tags", "json"])
              .try_map(|s| s.parse::<AnswerFormat>()))]
    answer_format: Option<AnswerFormat>,
    /// Fill the `trace` column with each certificate as a readable
    /// derivation (overrides `[dataset] trace`).
    #[arg(long)]
    trace: bool,
    /// Write where the run's time went to FILE as JSON (outside the
    /// dataset): per cell the rows, candidates, worker seconds and the
    /// prover's saturation, model-search, checking and undecided seconds;
    /// for a domain run also each axiom file's phase-1 seconds. Timings
    /// vary between runs; the dataset never does.
    #[arg(long, value_name = "FILE")]
    cost_json: Option<PathBuf>,
    /// Shard format: parquet or jsonl (overrides `[dataset] format`).
    #[arg(long, value_name = "FORMAT",
          value_parser = PossibleValuesParser::new(["parquet", "jsonl"])
              .try_map(|s| s.parse::<OutputFormat>()))]
    format: Option<OutputFormat>,
    /// What never crosses splits: theorem (the row's theorem or problem) or
    /// source (its axiom file) (overrides `[dataset] split_by`).
    #[arg(long, value_name = "WHAT",
          value_parser = PossibleValuesParser::new(["theorem", "source"])
              .try_map(|s| s.parse::<SplitBy>()))]
    split_by: Option<SplitBy>,
    /// Percent of rows in train, validation and test, e.g. 90,5,5
    /// (overrides `[dataset] split`).
    #[arg(long, value_name = "T,V,T", value_parser = parse_split)]
    split: Option<[u32; 3]>,
}

impl GenArgs {
    /// The loop settings of a run.
    fn settings(&self, cfg: &Config, quiet: bool) -> pipeline::LoopSettings {
        pipeline::LoopSettings {
            jobs: cfg.jobs,
            shard: self.shard,
            strict: self.strict,
            require_full: self.require_full,
            progress: !quiet,
            ..pipeline::LoopSettings::default()
        }
    }

    /// Applies the overrides to the config: the top level, `[dataset]` and
    /// the section of `family` (the library's one override path, which the
    /// Python package uses too).
    fn apply(&self, cfg: &mut Config, family: &str) {
        pipeline::Overrides {
            jobs: self.jobs,
            seed: self.seed,
            count: self.count,
            levels: self.levels.clone(),
            max_rows_per_shard: self.max_rows_per_shard,
            answer_format: self.answer_format,
            trace: self.trace,
            format: self.format,
            split_by: self.split_by,
            split: self.split,
        }
        .apply(cfg, family);
    }
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

/// `--split`: three whole percentages (their sum is checked with the rest
/// of `[dataset]` when the configuration is validated).
fn parse_split(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let [t, v, e] = parts[..] else {
        return Err(format!(
            "expected three percentages like 80,10,10, got {s:?}"
        ));
    };
    let num = |x: &str| {
        x.parse::<u32>()
            .map_err(|_| format!("{x:?} is not a whole percentage in {s:?}"))
    };
    Ok([num(t)?, num(v)?, num(e)?])
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
        /// Soft limit in CPU seconds of the process (as E's `--cpu-limit`), on top of the work limits: the
        /// saturation stops (SZS `Timeout`) at the first given clause after
        /// it. The one limit that is not reproducible; for harnesses only.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_CPU_LIMIT))]
        cpu_limit: Option<u64>,
        #[command(flatten)]
        common: Common,
    },
    /// Decide a TPTP CNF problem with the built-in prover and print an SZS
    /// status line (exit 0 when decided, 3 when out of resources).
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
        /// Soft limit in CPU seconds of the process (as E's `--cpu-limit`), on top of the work limits: the
        /// saturation stops at the first given clause after it (SZS
        /// `Timeout` unless a model is found). The one limit that is not
        /// reproducible; for harnesses only.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_CPU_LIMIT))]
        cpu_limit: Option<u64>,
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
        /// Print the summary as one JSON object on standard output (format
        /// compliance, mean over answered rows and over all rows, the mean
        /// of every scorer sub-metric, per task and level and overall)
        /// instead of the table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Re-check every row of a dataset from its stored text: TPTP
    /// certificates with the independent checker, PL1/PL2/EQ gold answers
    /// with their checkers, every prompt rendered again from the row's
    /// metadata, every shard's row count and row fingerprint against the
    /// manifest; exits 1 if any fails.
    Verify {
        /// The dataset folder (the one holding manifest.json).
        dir: PathBuf,
        /// Print only failures and the final line.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Report leakage and duplicates, per config: the rows of a dataset
    /// whose problem (task and prompt, up to variable renaming and the
    /// order of listed clauses) is already posed by an earlier row of it,
    /// by its train split, or by a reference dataset (another seed,
    /// another release).
    Dedup(dedup_command::DedupArgs),
    /// Merge the shard datasets of one run (`--shard i/N`, all N of them)
    /// into the dataset the unsharded run writes, byte for byte; refuses
    /// shards of different versions, seeds or configurations.
    Merge {
        /// The merged dataset folder to write.
        out: PathBuf,
        /// The shard dataset folders (each holding manifest.json).
        #[arg(required = true, num_args = 1..)]
        dirs: Vec<PathBuf>,
        /// Print only the final line.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Shortcut audit: per config and level, the cross-validated accuracy
    /// of shallow baselines (majority class, best single-feature rule,
    /// shallow tree, logistic regression) over surface features of the
    /// rows, and learned text readers over the prompt's sections, with
    /// folds grouped by theorem or problem (for proof reconstruction, the
    /// share of graphs fixed shallow readers get whole); then the exploit
    /// suite: canned no-reasoning answers (constants, the whole pool,
    /// padding, trivial restatements, position and overlap rules) scored by
    /// each config's real scorer. Exits 1 when a reader beats the majority
    /// by more than the margin on a cell with enough rows, a cell's label
    /// never varies, or an exploit's mean score is more than 0.2 above the
    /// best constant answer's.
    Audit {
        /// The dataset folder (the one holding manifest.json).
        dir: PathBuf,
        /// Largest tolerated lead over the majority class, in points.
        #[arg(long, value_name = "POINTS", default_value_t = 10.0, value_parser = parse_margin)]
        margin: f64,
        /// Cells with fewer rows are reported but never fail.
        #[arg(long, value_name = "N", default_value_t = 50)]
        min_rows: usize,
        /// Rows per cell the exploit suite scores (those whose ids hash
        /// smallest; 0: no exploit suite).
        #[arg(long, value_name = "N", default_value_t = 40)]
        exploit_rows: usize,
        /// Also write every canned answer the exploit suite scored to FILE,
        /// one JSON object per line (`id`, `task`, `level`, `exploit`,
        /// `answer`, `score`), so another scorer can score the same answers
        /// (`saturate score` takes one answer per id: split by `exploit`).
        #[arg(long, value_name = "FILE")]
        exploit_answers: Option<PathBuf>,
        /// Also write the report as JSON to FILE (what `--json` prints), so
        /// one audit gives both the table and the JSON.
        #[arg(long, value_name = "FILE")]
        json_out: Option<PathBuf>,
        /// Run only the exploit suite (no readers, no judged cells): the
        /// readers are most of an audit's time on a large dataset.
        #[arg(long)]
        exploits_only: bool,
        /// Print the report as JSON on stdout instead of the table.
        #[arg(long)]
        json: bool,
        /// Print the report as the Markdown section the dataset card holds.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
    },
    /// Print the effective configuration as TOML.
    PrintConfig {
        #[command(flatten)]
        common: Common,
    },
    /// Generate the equational-logic (EQ) dataset: proof checking, elided
    /// equation recovery and gap filling, one config per task.
    Eq(FamilyArgs),
    /// Generate the equivalence dataset (after AutoEval): pairs of
    /// propositional or first-order formulas to judge equivalent or not
    /// (equivalence_pl, equivalence_fol) and formulas to restate in a
    /// different equivalent form over a given vocabulary (roundtrip_pl,
    /// roundtrip_fol).
    Equiv(FamilyArgs),
    /// Generate the dataset of any registered family (`saturate --domain`,
    /// `pl`, `eq` and `equiv` are this command for `tptp`, `pl`, `eq` and
    /// `equiv`, with their own options and defaults).
    Generate(GenerateArgs),
}

/// The options of `eq` and `equiv` (one family, no options of its own).
#[derive(Args, Debug)]
struct FamilyArgs {
    /// Output folder (default: out/eq for `eq`, out/equiv for `equiv`).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// TOML configuration file (the family's `[tasks.<name>]`; see
    /// configs/default.toml).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// No progress or summary on stderr (errors are still printed).
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    generation: GenArgs,
}

/// `saturate generate <FAMILY>`: any registered family.
#[derive(Args, Debug)]
struct GenerateArgs {
    /// The family to generate (its configuration section is
    /// `[tasks.<FAMILY>]`).
    #[arg(value_name = "FAMILY", value_parser = family_names())]
    family: String,
    /// Output: the dataset folder (default: out/<FAMILY>); for a family
    /// with a stage (tptp) the output root (default: out), as for
    /// `saturate --domain`.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Domains to process, comma-separated, or ALL (families with a stage:
    /// tptp; default: the config's `tasks.tptp.domains`).
    #[arg(long, value_name = "DOMAIN,...", value_delimiter = ',')]
    domain: Vec<String>,
    /// Take the domains' problem files as the theories, their conjectures
    /// left out (families with a stage: tptp), as for `saturate --problems`.
    #[arg(long)]
    problems: bool,
    /// Stages to run (families with a stage: tptp): all, saturate,
    /// generate or plan, as for `saturate --domain`.
    #[arg(long, value_name = "STAGE", default_value = "all", value_parser = ["all", "saturate", "generate", "plan"])]
    stage: String,
    #[command(flatten)]
    generation: GenArgs,
    #[command(flatten)]
    common: Common,
}

/// The registered families' generate commands, for `generate`'s argument.
fn family_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        saturate::tasks::registry::Registry::shared()
            .generations()
            .into_iter()
            .map(|g| clap::builder::PossibleValue::new(g.name()).help(g.about())),
    )
}

#[derive(Args, Debug)]
struct PlArgs {
    /// Output dataset folder.
    #[arg(long, value_name = "DIR", default_value = "out/pl")]
    out: PathBuf,
    /// TOML configuration file (`[tasks.pl]`; see configs/default.toml).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// No progress or summary on stderr.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    generation: GenArgs,
    /// Problem sets, comma-separated: pl1 (random problems, NDL) and/or
    /// pl2 (eight structured families, NDL_f). With pl2, --count is per
    /// task, family and size (default: the config's, pl1).
    #[arg(long, value_name = "SET,...", value_delimiter = ',',
          value_parser = ["pl1", "pl2"])]
    families: Vec<String>,
    /// PL2 sizes, comma-separated (from 1; 1-3 are ProofGrid's, 4-5 larger,
    /// above 5 size 5's parameters).
    #[arg(long, value_name = "Z,...", value_delimiter = ',',
          value_parser = clap::value_parser!(u8).range(1..=255))]
    sizes: Vec<u8>,
    /// PL2 families, comma-separated (default: all eight).
    #[arg(long, value_name = "NAME,...", value_delimiter = ',',
          value_parser = clap::builder::PossibleValuesParser::new(
              saturate::prop::problems::families::Family::ALL.map(|f| f.name())))]
    pl2_families: Vec<String>,
    /// PL2: reject theorems whose resolution refutation has this many steps or more.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    max_refutation_steps: Option<u64>,
    /// PL2: reject instances whose clausal form has more clauses than this.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    max_cnf_clauses: Option<u64>,
}

/// Checks a configuration after command-line overrides.
fn validated(cfg: Config) -> Result<Config, RunError> {
    cfg.validate()
        .map_err(|e| RunError::Input(format!("command line: {e}")))?;
    Ok(cfg)
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
        // A budget given on the command line is the file's budget: depth
        // on demand does not saturate past it.
        let d = &mut cfg.saturation.deepen;
        d.max_processed = d.max_processed.min(n);
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

/// Whether the command was given `-q`: then only warnings and errors are
/// logged (no progress or housekeeping lines such as removed leftovers).
fn quiet(cli: &Cli) -> bool {
    match &cli.command {
        Some(Command::Derive { common, .. })
        | Some(Command::Prove { common, .. })
        | Some(Command::Score { common, .. }) => common.quiet,
        Some(Command::Pl(a)) => a.quiet,
        Some(Command::Eq(a)) => a.quiet,
        Some(Command::Equiv(a)) => a.quiet,
        Some(Command::Generate(a)) => a.common.quiet,
        Some(Command::Verify { quiet, .. }) | Some(Command::Merge { quiet, .. }) => *quiet,
        Some(Command::PrintConfig { .. })
        | Some(Command::Audit { .. })
        | Some(Command::Dedup(_)) => false,
        None => cli.run.common.quiet,
    }
}

fn main() {
    // A closed pipe ends the process quietly, as it does any Unix tool
    // (`saturate derive F | head`): the Rust runtime ignores SIGPIPE, so a
    // write to a closed stdout would panic instead.
    // SAFETY: the first statement, before any thread exists; it restores the
    // default action of one signal and touches no Rust state.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let level = if quiet(&cli) { "warn" } else { "info" };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level)),
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
            cpu_limit,
            common,
        }) => derive(
            &file,
            out.as_deref(),
            stats_json.as_deref(),
            !no_timing,
            deadline(cpu_limit),
            &common,
        ),
        Some(Command::Prove {
            file,
            max_model_size,
            proof,
            cpu_limit,
            common,
        }) => match prove(&file, max_model_size, proof, deadline(cpu_limit), &common) {
            Ok(s) if !s.is_success() => std::process::exit(EXIT_GAVE_UP),
            r => r.map(|_| ()),
        },
        Some(Command::Pl(args)) => run_pl(&args),
        Some(Command::PrintConfig { common }) => {
            load_config(&common).map(|c| print!("{}", c.to_toml()))
        }
        Some(Command::Eq(args)) => run_alias("eq", &args),
        Some(Command::Equiv(args)) => run_alias("equiv", &args),
        Some(Command::Generate(args)) => run_generate_command(&args),
        Some(Command::Score {
            dataset,
            answers,
            out,
            json,
            common,
        }) => score(&dataset, &answers, out, json, &common),
        Some(Command::Verify { dir, quiet }) => verify(&dir, quiet),
        Some(Command::Merge { out, dirs, quiet }) => merge(&out, &dirs, quiet),
        Some(Command::Dedup(args)) => dedup_command::run(&args),
        Some(Command::Audit {
            dir,
            margin,
            min_rows,
            exploit_rows,
            exploit_answers,
            json_out,
            exploits_only,
            json,
            markdown,
        }) => audit(
            &dir,
            &dataset_commands::AuditOptions {
                margin,
                min_rows,
                exploit_rows,
                exploit_answers: exploit_answers.as_deref(),
                json_out: json_out.as_deref(),
                exploits_only,
                json,
                markdown,
            },
        ),
        None => run_generate(
            &Generate {
                family: "tptp",
                out: cli.run.out.clone(),
                domains: cli.run.domain.clone(),
                stage: &cli.run.stage,
                problems: cli.run.problems,
                generation: &cli.run.generation,
                common: cli.run.common.clone(),
            },
            |_| {},
        ),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}

fn score(
    dataset: &Path,
    answers: &Path,
    out: Option<PathBuf>,
    json: bool,
    common: &Common,
) -> Result<(), RunError> {
    let cfg = load_config(common)?;
    let out = out.unwrap_or_else(|| {
        let mut p = answers.as_os_str().to_owned();
        p.push(".scores.jsonl");
        PathBuf::from(p)
    });
    let summary = pipeline::score::score_answers(dataset, answers, &out, cfg.prover)?;
    if json {
        println!("{}", summary.to_json());
        eprintln!("per-instance scores written to {}", out.display());
    } else {
        print!("{}", summary.render());
        println!("per-instance scores written to {}", out.display());
    }
    Ok(())
}
