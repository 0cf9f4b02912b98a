//! Run orchestration: finding a domain's axiom files, loading them,
//! saturating them (in parallel over files, each run single-threaded and
//! deterministic), progress reporting and writing results atomically.

pub mod artifact;
pub mod dedup;
mod deepen;
pub mod generate;
pub mod heap;
pub mod library;
pub mod merge;
pub mod present;
mod progress;
pub mod request;
pub mod score;
mod sources;
mod summary;
pub mod tptp;

pub use deepen::{DeepSaturation, Deepened, deepen, deepen_gain, near_nodes, saturate_deepened};
pub use generate::{LoopSettings, RunSummary};
pub use progress::Progress;
pub use request::{FamilyOutcome, FamilyRun, Overrides, StageOptions, run_config, run_family};
pub use sources::{
    ALL_DOMAINS, AxiomSource, EMBEDDED_AXIOMS, Skipped, all_domains, domain_sources,
    problem_sources,
};

use crate::derivation::{DagStats, Derivation, write_dump, write_tstp};
use crate::logic::TermBank;
use crate::saturation::{
    ClauseStore, InputInfo, Inputs, Params, RoundReport, Saturator, Stats, Status,
};
use crate::tptp::{Problem, TptpError};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// An error of a run, split by who must act: the user (bad input, exit 2)
/// or the program/environment (exit 1); the typed sources keep their own
/// error types, and [`RunError::exit_code`] is the one mapping to exit codes.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad input: unknown domain, bad arguments, unreadable answers.
    #[error("{0}")]
    Input(String),
    /// A failure while running (I/O, ...).
    #[error("{0}")]
    Runtime(String),
    /// The run found bugs (certificates the checker refused, generator
    /// panics): either the dataset was written and marked complete with
    /// the failures in `rejects/`, or, under `--strict`, nothing was written.
    #[error("{0}")]
    Defect(String),
    /// Malformed TPTP input (with its file:line:column).
    #[error(transparent)]
    Tptp(#[from] TptpError),
    /// A configuration file that could not be read or understood.
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    /// Writing the dataset failed, or its output folder was refused.
    #[error(transparent)]
    Dataset(#[from] crate::dataset::DatasetError),
    /// A dataset folder that does not read back as its manifest says.
    #[error(transparent)]
    Read(#[from] crate::dataset::ReadError),
}

/// Exit code of a run that found bugs (certificate failures or generator
/// panics); see [`RunError::Defect`].
pub const EXIT_DEFECT: i32 = 4;

impl RunError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        use crate::dataset::DatasetError as D;
        match self {
            RunError::Input(_) | RunError::Tptp(_) | RunError::Config(_) | RunError::Read(_) => 2,
            RunError::Dataset(
                D::NotOurs { .. }
                | D::Empty { .. }
                | D::BadConfigName { .. }
                | D::BadShardSize { .. },
            ) => 2,
            RunError::Runtime(_) | RunError::Dataset(_) => 1,
            RunError::Defect(_) => EXIT_DEFECT,
        }
    }
}

/// Parses an axiom source into a fresh term bank and input clauses.
pub fn load_source(src: &AxiomSource, tptp: Option<&Path>) -> Result<(TermBank, Inputs), RunError> {
    load_source_with(src, tptp, &crate::tptp::IncludePolicy::default())
}

/// [`load_source`] with includes followed under `policy`.
pub fn load_source_with(
    src: &AxiomSource,
    tptp: Option<&Path>,
    policy: &crate::tptp::IncludePolicy,
) -> Result<(TermBank, Inputs), RunError> {
    load_source_full(src, tptp, policy).map(|l| (l.bank, l.inputs))
}

/// A problem file's theory (`--problems`): its includes (resolved against
/// the TPTP root, as [`load_source`] resolves them) and its own formulas,
/// with the conjecture left out: a FOF `conjecture` (whose negation the
/// reader clausifies, every clause of it, definitions included, with role
/// `negated_conjecture`), CNF `negated_conjecture` clauses and any clause
/// of role `conjecture`. What the file says of its status is never read:
/// no label rests on it. The inputs may be empty (a file that is all
/// conjecture); the caller skips such a file.
pub fn load_problem_theory(
    src: &AxiomSource,
    tptp: Option<&Path>,
) -> Result<(TermBank, Inputs), RunError> {
    let mut bank = TermBank::new();
    let policy = crate::tptp::IncludePolicy::default();
    let mut problem = match (&src.path, src.text) {
        (Some(p), _) => crate::tptp::parse_file_with(&mut bank, p, tptp, &policy)?,
        (None, Some(text)) => crate::tptp::parse_str(&mut bank, text, &src.display, tptp)?,
        (None, None) => return Err(RunError::Runtime(format!("{}: no content", src.display))),
    };
    problem.clauses.retain(|c| !is_conjecture(c.role));
    let inputs = inputs_of(&problem);
    Ok((bank, inputs))
}

/// True for the roles a problem's conjecture has once read: `conjecture`
/// (CNF) and `negated_conjecture` (CNF, or a FOF conjecture negated).
fn is_conjecture(role: crate::tptp::Role) -> bool {
    matches!(
        role,
        crate::tptp::Role::Conjecture | crate::tptp::Role::NegatedConjecture
    )
}

/// A source's theory: an axiom file as [`load_source`] reads it, or under
/// `problems` a problem file as [`load_problem_theory`] reads it.
pub fn load_theory(
    src: &AxiomSource,
    tptp: Option<&Path>,
    problems: bool,
) -> Result<(TermBank, Inputs), RunError> {
    if problems {
        load_problem_theory(src, tptp)
    } else {
        load_source(src, tptp)
    }
}

/// An axiom source as loaded for `derive`: the inputs and what a TSTP
/// derivation needs besides them.
pub struct Loaded {
    /// The term bank.
    pub bank: TermBank,
    /// The input clauses with their provenance.
    pub inputs: Inputs,
    /// The FOF derivation lines (formulas as read, definitions and
    /// clausification steps) the inputs from FOF formulas cite.
    pub fof_lines: Vec<crate::tptp::FofLine>,
    /// True when the source had FOF conjectures (negated into the inputs):
    /// the SZS answer is then Theorem / CounterSatisfiable.
    pub has_conjecture: bool,
}

/// [`load_source_with`], keeping the FOF derivation lines.
pub fn load_source_full(
    src: &AxiomSource,
    tptp: Option<&Path>,
    policy: &crate::tptp::IncludePolicy,
) -> Result<Loaded, RunError> {
    let mut bank = TermBank::new();
    let problem = match (&src.path, src.text) {
        (Some(p), _) => crate::tptp::parse_file_with(&mut bank, p, tptp, policy)?,
        (None, Some(text)) => crate::tptp::parse_str(&mut bank, text, &src.display, tptp)?,
        (None, None) => return Err(RunError::Runtime(format!("{}: no content", src.display))),
    };
    // An axiom file is saturated as a clause set: a CNF conjecture in it
    // would be assumed, not proved, so it is refused rather than silently
    // turned into an axiom (`saturate prove` proves CNF conjectures).
    if let Some(c) = problem
        .clauses
        .iter()
        .chain(&problem.tautologies)
        .find(|c| c.role == crate::tptp::Role::Conjecture)
    {
        return Err(RunError::Input(format!(
            "{}: clause {} has role conjecture; axiom files are saturated as clause sets, where a conjecture would be assumed rather than proved (use `saturate prove` for a problem with a conjecture, or give the clause another role)",
            c.source,
            crate::tptp::excerpt(&c.name, 80)
        )));
    }
    Ok(Loaded {
        inputs: inputs_of(&problem),
        bank,
        has_conjecture: !problem.fof_conjectures.is_empty(),
        fof_lines: problem.fof_lines,
    })
}

/// The input clauses of a parsed problem with their provenance.
pub fn inputs_of(problem: &Problem) -> Inputs {
    problem
        .clauses
        .iter()
        .map(|c| {
            (
                c.lits.clone(),
                InputInfo {
                    name: c.name.clone(),
                    role: c.role.as_str().to_string(),
                    file: c.source.file.display().to_string(),
                    source: c.clausified.as_ref().map(|o| o.source.clone()),
                    formula: c.clausified.as_ref().map(|o| o.formula.clone()),
                },
            )
        })
        .collect()
}

/// The outcome of saturating one axiom file, as reported in stats JSON.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SaturationReport {
    /// The file (or embedded name).
    pub source: String,
    /// How the run ended.
    pub status: Status,
    /// Given clauses selected.
    pub processed: u64,
    /// Clauses generated.
    pub generated: u64,
    /// Clauses kept (records in the DAG).
    pub kept: u64,
    /// DAG nodes.
    pub dag_nodes: u64,
    /// DAG edges.
    pub dag_edges: u64,
    /// Largest depth.
    pub max_depth: u32,
    /// Wall-clock seconds of the saturation (informational, never a limit).
    pub seconds: f64,
    /// CPU seconds (informational): `derive`, the process so far; a
    /// domain run, the file's phase 1 on its thread (saturation, ranking and
    /// model search).
    pub cpu_seconds: f64,
    /// Every loop counter.
    pub counters: Stats,
    /// The rounds of iterative saturation (`[saturation.iterate]`), in
    /// order; empty for a one-round run, so its report reads as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<RoundReport>,
    /// The ranked theorem candidates of a domain run's file (phase 1);
    /// `None` from `derive` and for inconsistent axioms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theorems: Option<TheoremStats>,
    /// Depth on demand (`[saturation.deepen]`): how far a domain run's file
    /// was saturated past `limits.max_processed`; `None` when it was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deepened: Option<Deepened>,
}

/// The theorem candidates of one saturated file: how many, how deep
/// (inferences from the original axioms: record depth), and how many are
/// reached only through an earlier round's lemma.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TheoremStats {
    /// Ranked candidates.
    pub candidates: u64,
    /// Their greatest depth.
    pub max_depth: u32,
    /// Their median depth (the lower middle one).
    pub median_depth: u32,
    /// Candidates per round that created them (index 0 = round 1).
    pub per_round: Vec<u64>,
    /// Candidates created in round 2 or later that descend from a lemma.
    pub via_lemma: u64,
}

impl TheoremStats {
    /// The figures of `ranking` over `store`, with the run's `rounds`.
    pub fn of(
        store: &crate::saturation::ClauseStore,
        ranking: &crate::interest::Ranking,
        rounds: &[RoundReport],
    ) -> TheoremStats {
        let via = crate::saturation::via_lemma(store, rounds);
        let mut depths: Vec<u32> = ranking
            .ranked
            .iter()
            .map(|s| store.get(s.id).depth)
            .collect();
        depths.sort_unstable();
        let mut per_round = vec![0u64; rounds.len().max(1)];
        for s in &ranking.ranked {
            // 1 ..= rounds.len() (1 with no rounds recorded).
            per_round[RoundReport::round_of(rounds, s.id.0) as usize - 1] += 1;
        }
        TheoremStats {
            candidates: depths.len() as u64,
            max_depth: depths.last().copied().unwrap_or(0),
            median_depth: depths
                .get(depths.len().saturating_sub(1) / 2)
                .copied()
                .unwrap_or(0),
            per_round,
            via_lemma: ranking.ranked.iter().filter(|s| via[s.id.index()]).count() as u64,
        }
    }
}

impl SaturationReport {
    /// The report as `--stats-json` writes it: every deterministic field at
    /// the top level, and the wall-clock and CPU times (the only fields that
    /// differ between identical runs) in a separate `timing` group, left out
    /// when `timing` is false so that the file is byte-identical across
    /// reruns.
    pub fn stats_json(&self, timing: bool) -> serde_json::Value {
        let mut v = serde_json::to_value(self).expect("report serialises");
        if let Some(obj) = v.as_object_mut() {
            let seconds = obj.remove("seconds");
            let cpu_seconds = obj.remove("cpu_seconds");
            if timing {
                let mut t = serde_json::json!({ "seconds": seconds, "cpu_seconds": cpu_seconds });
                if !self.rounds.is_empty() {
                    t["round_seconds"] = self.rounds.iter().map(|r| r.seconds).collect();
                }
                obj.insert("timing".into(), t);
            }
        }
        v
    }
}

/// Saturates loaded input clauses; `progress` is ticked per given clause.
pub fn saturate(
    source: &str,
    bank: TermBank,
    inputs: Inputs,
    params: &Params,
    progress: &Progress,
) -> (Saturator, SaturationReport) {
    saturate_until(source, bank, inputs, params, progress, None)
}

/// [`saturate`] with a soft CPU-time `deadline` (`derive --cpu-limit`,
/// see [`Saturator::deadline`]): the one limit that is not reproducible.
pub fn saturate_until(
    source: &str,
    bank: TermBank,
    inputs: Inputs,
    params: &Params,
    progress: &Progress,
    deadline: Option<crate::deadline::Deadline>,
) -> (Saturator, SaturationReport) {
    let start = std::time::Instant::now();
    let total = params.limits.max_processed;
    let mut first = params.clone();
    first.limits.max_processed = params.iterate.round_budget(total, 1);
    let mut sat = Saturator::from_inputs(bank, inputs, first);
    sat.deadline = deadline;
    // Rounds promote the candidates the interestingness scorer ranks best.
    let mut rank = |sat: &Saturator| {
        crate::interest::rank(&sat.bank, &sat.store)
            .ranked
            .iter()
            .map(|c| (c.id, c.score))
            .collect()
    };
    let (status, rounds) = sat.run_rounds(source, total, &mut rank, &mut |s| {
        progress.tick(s.processed)
    });
    let seconds = start.elapsed().as_secs_f64();
    let dag: DagStats = Derivation::new(&sat.store).stats();
    let report = SaturationReport {
        source: source.to_string(),
        status,
        processed: sat.stats.processed,
        generated: sat.stats.generated,
        kept: sat.stats.kept,
        dag_nodes: dag.nodes,
        dag_edges: dag.edges,
        max_depth: dag.max_depth,
        seconds,
        cpu_seconds: cpu_seconds(),
        counters: sat.stats.clone(),
        rounds,
        theorems: None,
        deepened: None,
    };
    (sat, report)
}

/// Output format of a derivation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DagFormat {
    /// TSTP derivation text.
    Tstp,
    /// zstd-compressed JSON Lines.
    Dump,
}

impl DagFormat {
    /// The format implied by a file name: `.zst` means a dump, anything else TSTP.
    pub fn from_path(p: &Path) -> DagFormat {
        if p.extension().is_some_and(|e| e == "zst") {
            DagFormat::Dump
        } else {
            DagFormat::Tstp
        }
    }
}

/// Writes the derivation of a finished run.
pub fn write_derivation(
    w: &mut impl Write,
    sat: &Saturator,
    format: DagFormat,
) -> std::io::Result<()> {
    write_derivation_from(w, &sat.bank, &sat.store, format, &[])
}

/// [`write_derivation`] for inputs clausified from FOF formulas: TSTP
/// starts with the `fof` lines their sources cite (the dump records the
/// clauses only).
pub fn write_derivation_from(
    w: &mut impl Write,
    bank: &TermBank,
    store: &ClauseStore,
    format: DagFormat,
    fof_lines: &[crate::tptp::FofLine],
) -> std::io::Result<()> {
    match format {
        DagFormat::Tstp => {
            for l in fof_lines {
                writeln!(w, "{}", l.to_tptp())?;
            }
            write_tstp(w, bank, store, store.ids())
        }
        DagFormat::Dump => write_dump(w, bank, store),
    }
}

/// Writes an output file without ever leaving a truncated file that looks
/// whole, and without replacing what is not ours to replace:
///
/// - a regular file (or a new name) is written to a temporary name beside it
///   (inside a marked staging folder `.<name>.tmp-<pid>-<k>-<tag>/`) and renamed
///   into place, so an interrupted run leaves the old file;
/// - a symbolic link is followed: the file it points to is replaced (the
///   link stays a link); a dangling link is refused;
/// - a character device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe) is
///   written directly, never replaced by a regular file;
/// - a directory, block device or socket is refused.
pub fn write_atomic(
    path: &Path,
    f: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), RunError> {
    use std::os::unix::fs::FileTypeExt;
    let io = |e: std::io::Error| RunError::Runtime(format!("{}: {e}", path.display()));
    let input = |m: &str| RunError::Input(format!("{}: {m}", path.display()));
    let mut target = path.to_path_buf();
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && meta.file_type().is_symlink()
    {
        target = std::fs::canonicalize(path).map_err(|e| {
            input(&format!(
                "output is a symbolic link that cannot be followed: {e}"
            ))
        })?;
    }
    match std::fs::metadata(&target) {
        Ok(meta) => {
            let t = meta.file_type();
            if t.is_char_device() || t.is_fifo() {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .map_err(io)?;
                let mut w = std::io::BufWriter::new(file);
                return f(&mut w)
                    .and_then(|_| std::io::Write::flush(&mut w))
                    .map_err(io);
            }
            if !t.is_file() {
                return Err(input(
                    "output exists and is not a regular file, character device or FIFO",
                ));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    let path = target.as_path();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The new bytes go to a marked staging folder beside the file (so a
    // killed run's leftover is recognised by its marker, never by name),
    // then are renamed into place.
    let parent = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let stage = crate::dataset::staging::create(parent, &format!(".{name}.tmp-")).map_err(io)?;
    let tmp: PathBuf = stage.join(&name);
    let result = (|| {
        let file = std::fs::File::create_new(&tmp)?;
        let mut w = std::io::BufWriter::new(file);
        f(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    let _ = crate::dataset::staging::remove(&stage);
    result.map_err(io)
}

/// `path` made absolute with symbolic links resolved, even when it does
/// not exist yet: its longest existing ancestor is canonicalised and the
/// rest appended (`..` in the rest taken lexically).
pub fn canonical_path(path: &Path) -> std::io::Result<PathBuf> {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()?.join(path)
    };
    let mut rest = Vec::new();
    let mut base = abs.as_path();
    loop {
        match std::fs::canonicalize(base) {
            Ok(mut c) => {
                for part in rest.iter().rev() {
                    match part {
                        std::path::Component::ParentDir => {
                            c.pop();
                        }
                        std::path::Component::CurDir => {}
                        other => c.push(other.as_os_str()),
                    }
                }
                return Ok(c);
            }
            Err(e) => {
                let (Some(parent), Some(last)) = (base.parent(), base.components().next_back())
                else {
                    return Err(e);
                };
                rest.push(last);
                base = parent;
            }
        }
    }
}

/// Refuses an output folder that is one of the `inputs` (named for the
/// message), lies inside one, or holds one: writing or replacing it would
/// change or delete that input (`saturate merge s1 s1 s2` replacing shard
/// `s1`). Paths are compared canonicalised (symbolic links and `..`
/// resolved; an output that does not exist yet by its existing ancestor).
pub fn check_output_dir<'a>(
    out: &Path,
    inputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
) -> Result<(), RunError> {
    let canon =
        |p: &Path| canonical_path(p).map_err(|e| RunError::Input(format!("{}: {e}", p.display())));
    let o = canon(out)?;
    for (what, input) in inputs {
        let i = canon(input)?;
        let relation = if o == i {
            "is"
        } else if o.starts_with(&i) {
            "lies inside"
        } else if i.starts_with(&o) {
            "holds"
        } else {
            continue;
        };
        return Err(RunError::Input(format!(
            "output {} {relation} {what} {}; an output may not be, hold or lie inside an input (choose another output folder)",
            out.display(),
            input.display()
        )));
    }
    Ok(())
}

/// Refuses an output path that names one of the inputs (the same regular
/// file, compared by device and inode, so links and `..` do not hide it):
/// writing it would destroy the input. Also refuses two outputs that are
/// the same file. Outputs that do not exist yet are always fine.
pub fn check_outputs<'a>(
    outputs: &[&Path],
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), RunError> {
    use std::os::unix::fs::MetadataExt;
    let id = |p: &Path| {
        std::fs::metadata(p)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| (m.dev(), m.ino()))
    };
    let ins: Vec<(&Path, (u64, u64))> = inputs
        .into_iter()
        .filter_map(|p| id(p).map(|i| (p, i)))
        .collect();
    for (k, out) in outputs.iter().enumerate() {
        let Some(o) = id(out) else { continue };
        if let Some((p, _)) = ins.iter().find(|(_, i)| *i == o) {
            return Err(RunError::Input(format!(
                "{}: output is the input {}; refusing to overwrite it",
                out.display(),
                p.display()
            )));
        }
        if let Some(other) = outputs[..k].iter().find(|p| id(p) == Some(o)) {
            return Err(RunError::Input(format!(
                "{}: the same file is given as two outputs ({})",
                out.display(),
                other.display()
            )));
        }
    }
    Ok(())
}

/// CPU time (user + system) consumed by this process, in seconds.
pub fn cpu_seconds() -> f64 {
    // /proc/self/stat fields 14 and 15 are utime and stime in clock ticks.
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some(rest) = stat.rsplit(')').next() else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}
