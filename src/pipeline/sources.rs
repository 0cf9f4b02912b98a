//! Where a domain's axiom files come from: `$TPTP/Axioms/<DOMAIN>*-*.ax`
//! when a TPTP root is given, otherwise the project's own axiom sets
//! embedded in the binary at build time.

use super::RunError;
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/embedded_axioms.rs"));

/// One axiom file to saturate.
#[derive(Clone, Debug)]
pub struct AxiomSource {
    /// Domain code (`SET`, `GRP`, ...).
    pub domain: String,
    /// Name for reports and output files (file stem).
    pub name: String,
    /// Display name (path, or `embedded:axioms/SET/x.ax`).
    pub display: String,
    /// On-disk path, when read from a TPTP library.
    pub path: Option<PathBuf>,
    /// Embedded text, when from the project's own axioms.
    pub text: Option<&'static str>,
}

/// The domains that have embedded axiom files.
pub fn embedded_domains() -> Vec<&'static str> {
    let mut d: Vec<&str> = EMBEDDED_AXIOMS.iter().map(|a| a.0).collect();
    d.dedup();
    d
}

/// True if the TPTP text contains a formula in a language the reader does
/// not take (`tff`, `thf`, `tcf`); CNF and FOF files are read (FOF ones
/// clausified).
fn has_non_cnf(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        ["tff(", "thf(", "tcf("].iter().any(|k| l.starts_with(k))
    })
}

/// The axiom files of a domain, sorted by name. With a TPTP root, CNF and
/// FOF files are taken (others are listed in the error if none is left).
pub fn domain_sources(domain: &str, tptp: Option<&Path>) -> Result<Vec<AxiomSource>, RunError> {
    let domain = domain.to_ascii_uppercase();
    if domain.len() != 3 || !domain.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(RunError::Input(format!(
            "unknown domain '{domain}': a TPTP domain is three letters, e.g. SET, GRP"
        )));
    }
    match tptp {
        Some(root) => {
            let dir = root.join("Axioms");
            let entries = std::fs::read_dir(&dir).map_err(|e| {
                RunError::Input(format!("{}: cannot list TPTP axioms: {e}", dir.display()))
            })?;
            let mut out = Vec::new();
            let mut skipped = Vec::new();
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if !(name.starts_with(&domain)
                    && name.ends_with(".ax")
                    && name[3..].contains(['-', '+']))
                {
                    continue;
                }
                let path = e.path();
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if has_non_cnf(&text) {
                    skipped.push(name);
                    continue;
                }
                out.push(AxiomSource {
                    domain: domain.clone(),
                    name: name.trim_end_matches(".ax").to_string(),
                    display: path.display().to_string(),
                    path: Some(path),
                    text: None,
                });
            }
            out.sort_by(|a, b| a.name.cmp(&b.name));
            if !skipped.is_empty() {
                tracing::info!(
                    "skipping axiom files in languages other than CNF/FOF: {}",
                    skipped.join(", ")
                );
            }
            if out.is_empty() {
                return Err(RunError::Input(format!(
                    "no CNF/FOF axiom files {}/{domain}*-*.ax or {domain}*+*.ax{}",
                    dir.display(),
                    if skipped.is_empty() {
                        String::new()
                    } else {
                        format!(" (non-CNF/FOF skipped: {})", skipped.join(", "))
                    }
                )));
            }
            Ok(out)
        }
        None => {
            let out: Vec<AxiomSource> = EMBEDDED_AXIOMS
                .iter()
                .filter(|a| a.0 == domain)
                .map(|&(d, f, text)| AxiomSource {
                    domain: d.to_string(),
                    name: f.trim_end_matches(".ax").to_string(),
                    display: format!("embedded:axioms/{d}/{f}"),
                    path: None,
                    text: Some(text),
                })
                .collect();
            if out.is_empty() {
                return Err(RunError::Input(format!(
                    "unknown domain '{domain}': the embedded axioms cover {}; give --tptp DIR (or TPTP=DIR) for others",
                    embedded_domains().join(", ")
                )));
            }
            Ok(out)
        }
    }
}
