//! The proving commands of the binary: `saturate prove` (decide one TPTP
//! problem with the built-in prover and print its SZS status line, after
//! the SZS ontology of Sutcliffe, "The SZS Ontologies for Automated
//! Reasoning Software", LPAR 2008) and `saturate derive` (saturate one
//! axiom file and write its full derivation); kept apart from `main.rs`,
//! which parses arguments and dispatches.

use crate::{Common, load_config};
use saturate::pipeline::{self, DagFormat, Progress, RunError, write_atomic};
use std::path::Path;

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
    if e.to_string().ends_with(saturate::tptp::UNSUPPORTED_INPUT) {
        println!("% SZS status Inappropriate for {name}");
    }
    e
}

/// Exit code of `prove` when undecided (`ResourceOut`, `Timeout`; 0 =
/// decided).
pub const EXIT_GAVE_UP: i32 = 3;

/// Largest `--cpu-limit`, in seconds (a million: eleven days).
pub const MAX_CPU_LIMIT: u64 = 1_000_000;

/// The deadline of a `--cpu-limit` of `seconds` from now.
pub fn deadline(seconds: Option<u64>) -> Option<saturate::deadline::Deadline> {
    seconds.map(|s| saturate::deadline::Deadline::after_secs(s as f64))
}

/// `saturate prove`: decides the file in the library, prints the SZS status
/// line (and the certificate with `--proof`), and returns the status; the
/// caller turns an undecided status (`ResourceOut`, `Timeout`) into exit
/// code 3.
pub fn prove(
    file: &Path,
    max_model_size: Option<u32>,
    proof: bool,
    deadline: Option<saturate::deadline::Deadline>,
    common: &Common,
) -> Result<saturate::tptp::SzsStatus, RunError> {
    let mut cfg = load_config(common)?;
    // Auto mode is on for the single-file commands unless configured.
    cfg.saturation.auto.get_or_insert(true);
    if let Some(n) = max_model_size {
        cfg.prover.max_model_size = n;
    }
    let report = saturate::prover::file::prove_file_with(
        file,
        common.tptp.as_deref(),
        &common.include_policy(),
        cfg.prover.clone(),
        cfg.saturation.clone(),
        deadline,
    )
    .map_err(|e| inappropriate(&szs_name(file), RunError::Input(e.to_string())))?;
    let (name, status) = (&report.name, report.status);
    println!("% SZS status {} for {name}", status.name());
    let checked = match &report.checked {
        // Undecided (the status already says so): reported, not an error.
        Err(e) if e.out_of_budget => {
            eprintln!("warning: {name}: certificate not confirmed: {e}");
            &saturate::checker::Checked::Nothing
        }
        r => r
            .as_ref()
            .map_err(|e| RunError::Runtime(format!("certificate does not check: {e}")))?,
    };
    let clausification = match &report.clausification {
        Some(Err(e)) if e.out_of_budget => {
            eprintln!("warning: {name}: clausification not confirmed: {e}");
            String::new()
        }
        Some(Err(e)) => {
            return Err(RunError::Runtime(format!(
                "clausification does not check: {e}"
            )));
        }
        Some(Ok(c)) => format!(
            "; clausification: {} clauses certified, trusted {:?}",
            c.clauses, c.trusted
        ),
        None => String::new(),
    };
    if proof && let Some(text) = report.certificate_text() {
        print!("{text}");
    }
    if !common.quiet {
        let s = &report.outcome.stats;
        tracing::info!(
            "{name}: {} in {:.3}s; {} processed, {} generated{}; model sizes tried up to {}, {} ground clauses, {} SAT conflicts; certificate: {checked:?}{clausification}",
            status.name(),
            report.elapsed.as_secs_f64(),
            s.processed,
            s.generated,
            match s.definitions_unfolded {
                0 => String::new(),
                n => format!(", {n} definitions unfolded"),
            },
            s.model_size_tried,
            s.ground_clauses,
            s.sat_conflicts
        );
    }
    if let Some(expected) = report.disagreement() {
        // The header is a comment, often stale or wrong; the verdict is
        // certified, so the disagreement is reported, not fatal.
        eprintln!(
            "warning: {}: certified verdict {} disagrees with the problem's % Status {} (the comment may be stale; the verdict stands)",
            file.display(),
            status.name(),
            expected.name()
        );
    }
    Ok(status)
}

pub fn derive(
    file: &Path,
    out: Option<&Path>,
    stats_json: Option<&Path>,
    timing: bool,
    deadline: Option<saturate::deadline::Deadline>,
    common: &Common,
) -> Result<(), RunError> {
    let mut cfg = load_config(common)?;
    // Auto mode is on for the single-file commands unless configured.
    cfg.saturation.auto.get_or_insert(true);
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
    let name = szs_name(file);
    let loaded = pipeline::load_source_full(&src, common.tptp.as_deref(), &common.include_policy())
        .map_err(|e| inappropriate(&name, e))?;
    let (bank, inputs, fof_lines) = (loaded.bank, loaded.inputs, loaded.fof_lines);
    let outputs: Vec<&Path> = out.iter().chain(stats_json.iter()).copied().collect();
    pipeline::check_outputs(
        &outputs,
        std::iter::once(file).chain(inputs.iter().map(|(_, i)| Path::new(&i.file))),
    )?;
    let total = cfg.saturation.limits.max_processed.unwrap_or(0);
    let progress = Progress::new(&src.name, total, !common.quiet);
    let (sat, report) = pipeline::saturate_until(
        &src.display,
        bank,
        inputs,
        &cfg.saturation,
        &progress,
        deadline,
    );
    progress.finish(report.status.name());
    let szs = derive_status(report.status, sat.timed_out, loaded.has_conjecture);
    // Only the derivation is written from here on: the search's indexes,
    // queues and caches are freed first, so the writer's buffers (the dump's
    // compressor) come on top of the terms and clauses alone.
    let (bank, store) = sat.into_derivation();
    // The SZS status goes to stdout; the derivation is the SZS output block
    // there, or the plain TSTP file of --out.
    let stdout = std::io::stdout();
    let mut lock = std::io::BufWriter::new(stdout.lock());
    let to_stdout = |e: std::io::Error| RunError::Runtime(format!("stdout: {e}"));
    std::io::Write::write_fmt(
        &mut lock,
        format_args!("% SZS status {} for {name}\n", szs.name()),
    )
    .map_err(to_stdout)?;
    match out {
        Some(path) => {
            std::io::Write::flush(&mut lock).map_err(to_stdout)?;
            write_atomic(path, |w| {
                pipeline::write_derivation_from(
                    w,
                    &bank,
                    &store,
                    DagFormat::from_path(path),
                    &fof_lines,
                )
            })?
        }
        None => {
            // Saturation: a saturated set; a refutation when the empty
            // clause was derived (the loop stops on it, so it is the
            // block's last line and every line it rests on is above it);
            // otherwise the clauses kept so far.
            let form = derive_output_form(report.status, !fof_lines.is_empty());
            std::io::Write::write_fmt(
                &mut lock,
                format_args!("% SZS output start {form} for {name}\n"),
            )
            .and_then(|_| {
                pipeline::write_derivation_from(
                    &mut lock,
                    &bank,
                    &store,
                    DagFormat::Tstp,
                    &fof_lines,
                )
            })
            .and_then(|_| {
                std::io::Write::write_fmt(
                    &mut lock,
                    format_args!("% SZS output end {form} for {name}\n"),
                )
            })
            .and_then(|_| std::io::Write::flush(&mut lock))
            .map_err(to_stdout)?;
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

/// The SZS output form of `derive`'s block: `Saturation` for a saturated
/// set, `CNFRefutation` (`Refutation` when FOF formulas were read) when the
/// empty clause was derived, and the list of what was kept so far
/// (`ListOfCNF`, or `ListOfFormulae` with FOF lines) when a limit stopped
/// the run.
fn derive_output_form(status: saturate::saturation::Status, fof: bool) -> &'static str {
    use saturate::saturation::Status;
    match (status, fof) {
        (Status::Saturated, _) => "Saturation",
        (Status::Unsatisfiable, false) => "CNFRefutation",
        (Status::Unsatisfiable, true) => "Refutation",
        (Status::ResourceOut, false) => "ListOfCNF",
        (Status::ResourceOut, true) => "ListOfFormulae",
    }
}

/// The SZS status of a `derive` run: a saturated set is satisfiable (the
/// default strategy is complete), the empty clause makes it unsatisfiable;
/// with a FOF conjecture negated into the inputs these are CounterSatisfiable
/// and Theorem. A run stopped by a work limit is `ResourceOut`, by
/// `--cpu-limit` `Timeout`.
fn derive_status(
    status: saturate::saturation::Status,
    timed_out: bool,
    conjecture: bool,
) -> saturate::tptp::SzsStatus {
    use saturate::saturation::Status;
    use saturate::tptp::SzsStatus as S;
    match (status, conjecture) {
        (Status::Saturated, false) => S::Satisfiable,
        (Status::Saturated, true) => S::CounterSatisfiable,
        (Status::Unsatisfiable, false) => S::Unsatisfiable,
        (Status::Unsatisfiable, true) => S::Theorem,
        (Status::ResourceOut, _) if timed_out => S::Timeout,
        (Status::ResourceOut, _) => S::ResourceOut,
    }
}
