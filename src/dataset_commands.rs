//! The dataset commands of the binary: `saturate verify` (every label,
//! certificate, prompt and shard re-checked), `saturate audit` (the
//! shortcut audit of [`saturate::audit`]) and `saturate merge` (shards of
//! one run joined into the unsharded dataset); kept apart from `main.rs`,
//! which parses arguments and runs the generators.

use saturate::pipeline::{self, RunError};
use saturate::tasks::registry::Registry;
use std::path::Path;

/// A margin in accuracy points, 0-100.
pub fn parse_margin(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=100.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected a number of points from 0 to 100, got {s:?}"
        )),
    }
}

/// What `saturate audit` was asked for.
pub struct AuditOptions<'a> {
    /// Largest tolerated lead over the majority, in points.
    pub margin: f64,
    /// Cells with fewer rows are reported but never fail.
    pub min_rows: usize,
    /// Rows per cell the exploit suite scores.
    pub exploit_rows: usize,
    /// Where to write every canned answer scored, if anywhere.
    pub exploit_answers: Option<&'a Path>,
    /// Where to write the report as JSON besides printing it, if anywhere.
    pub json_out: Option<&'a Path>,
    /// Only the exploit suite.
    pub exploits_only: bool,
    /// Print JSON instead of the table.
    pub json: bool,
    /// Print the card's Markdown section instead of the table.
    pub markdown: bool,
}

pub fn audit(dir: &Path, o: &AuditOptions<'_>) -> Result<(), RunError> {
    let (exploit_answers, json, markdown) = (o.exploit_answers, o.json, o.markdown);
    let settings = saturate::audit::AuditSettings {
        margin_points: o.margin,
        min_rows: o.min_rows,
        exploit_rows: o.exploit_rows,
        keep_exploit_answers: exploit_answers.is_some(),
        exploits_only: o.exploits_only,
        ..saturate::audit::AuditSettings::default()
    };
    let mut report = saturate::audit::audit_dataset(dir, &Registry::builtin(), &settings)
        .map_err(RunError::Input)?;
    if let Some(path) = exploit_answers {
        pipeline::write_atomic(path, |w| {
            use std::io::Write;
            for c in &report.exploits {
                for a in &c.answers {
                    let line = serde_json::json!({
                        "id": a.id,
                        "task": c.config,
                        "level": c.level,
                        "exploit": a.exploit,
                        "answer": a.answer,
                        "score": a.score,
                    });
                    writeln!(w, "{line}")?;
                }
            }
            Ok(())
        })?;
        // The answers went to the file; the report stays as without them.
        for c in &mut report.exploits {
            c.answers.clear();
        }
    }
    if let Some(path) = o.json_out {
        pipeline::write_atomic(path, |w| {
            serde_json::to_writer_pretty(&mut *w, &report)?;
            std::io::Write::write_all(w, b"\n")
        })?;
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("report serialises")
        );
    } else if markdown {
        print!("{}", report.markdown());
    } else {
        print!("{}", report.text());
    }
    match (report.failures().len(), report.exploit_failures().len()) {
        (0, 0) => Ok(()),
        (n, e) => Err(RunError::Runtime(format!(
            "audit: {n} cell(s) can be predicted without reasoning, {e} cell(s) reward a no-reasoning answer (see the tables)"
        ))),
    }
}

pub fn verify(dir: &Path, quiet: bool) -> Result<(), RunError> {
    let s = pipeline::score::verify_dataset(dir)?;
    if !quiet {
        for (task, n) in &s.checked {
            println!("{task}: {n} certificates re-checked");
        }
        for (task, n) in &s.skipped {
            println!("{task}: {n} rows without a re-checkable certificate (checked at generation)");
        }
    }
    for (file, e) in &s.shard_failures {
        eprintln!("FAIL shard {file}: {e}");
    }
    for (id, file, e) in &s.failures {
        eprintln!("FAIL {id} ({file}): {e}");
    }
    let total: usize = s.checked.values().sum();
    if s.failures.is_empty() && s.shard_failures.is_empty() {
        println!("verify: all {total} certificates check; prompts and shards match");
        Ok(())
    } else {
        Err(RunError::Runtime(format!(
            "verify: {} of {} rows do not check (certificate or prompt), {} shards do not match the manifest",
            s.failures.len(),
            total + s.failures.len(),
            s.shard_failures.len()
        )))
    }
}

/// `saturate merge OUT DIR...`: the shards of one run joined into the
/// unsharded dataset.
pub fn merge(out: &Path, dirs: &[std::path::PathBuf], quiet: bool) -> Result<(), RunError> {
    let s = pipeline::merge::merge(out, dirs, &Registry::builtin())?;
    if !quiet {
        print!("{}", s.run.audit_text);
    }
    println!(
        "merge: {} rows of {} shards written to {}",
        s.rows,
        s.shards,
        out.display()
    );
    Ok(())
}
