//! Where a run's theories come from: a domain's axiom files
//! (`$TPTP/Axioms/<DOMAIN>*-*.ax` and `*+*.ax` when a TPTP root is given,
//! otherwise the project's own axiom sets embedded in the binary at build
//! time), or under `--problems` a domain's problem files
//! (`$TPTP/Problems/<DOMAIN>/*.p`, each read as the theory of its includes
//! and its own formulas, the conjecture left out: `super::load_theory`).
//! `ALL` names every domain the source has.

use super::RunError;
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/embedded_axioms.rs"));

/// The `--domain` value that names every domain of the run's source.
pub const ALL_DOMAINS: &str = "ALL";

/// One axiom file (or, under `--problems`, one problem file) to saturate.
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

/// A file a run leaves out, and why (the card lists them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Its domain code.
    pub domain: String,
    /// Its file stem.
    pub name: String,
    /// Why: its language, no axioms, unreadable, or the same theory as an
    /// earlier file.
    pub reason: String,
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

/// True for a three-letter upper-case TPTP domain code.
fn is_domain_code(s: &str) -> bool {
    s.len() == 3 && s.bytes().all(|b| b.is_ascii_uppercase())
}

/// The domain code of a TPTP file name (`SET004-0.ax`, `LCL026-1.p`):
/// three upper-case letters, digits, then the form mark, `-` (CNF), `+`
/// (FOF), `_` (TFF) or `^` (THF); `None` for any other name.
fn file_domain(name: &str) -> Option<(&str, char)> {
    let code = name.get(..3).filter(|c| is_domain_code(c))?;
    let rest = &name[3..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let mark = rest[digits..].chars().next()?;
    (digits > 0 && matches!(mark, '-' | '+' | '_' | '^')).then_some((code, mark))
}

/// The folder of a TPTP root a run reads (`Axioms` or `Problems`), or the
/// input error saying the root lacks it.
fn root_dir(root: &Path, sub: &str) -> Result<PathBuf, RunError> {
    let dir = root.join(sub);
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(RunError::Input(format!(
            "{}: no {sub} folder; --tptp (or TPTP=) must name a TPTP root, the folder holding Axioms/ and Problems/",
            root.display()
        )))
    }
}

/// The names in a folder, sorted (unreadable entries left out).
fn names_in(dir: &Path) -> Result<Vec<(String, PathBuf)>, RunError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| RunError::Input(format!("{}: cannot list: {e}", dir.display())))?;
    let mut out: Vec<(String, PathBuf)> = entries
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    out.sort();
    Ok(out)
}

/// Every domain of a run's source, sorted: with a TPTP root, the domains
/// of its CNF and FOF axiom files (or under `problems`, its problem
/// folders); without one, the embedded domains (`problems` then needs a
/// root).
pub fn all_domains(tptp: Option<&Path>, problems: bool) -> Result<Vec<String>, RunError> {
    let Some(root) = tptp else {
        if problems {
            return Err(no_root());
        }
        return Ok(embedded_domains().into_iter().map(String::from).collect());
    };
    let mut out: Vec<String> = Vec::new();
    if problems {
        for (name, path) in names_in(&root_dir(root, "Problems")?)? {
            if is_domain_code(&name) && path.is_dir() {
                out.push(name);
            }
        }
    } else {
        for (name, _) in names_in(&root_dir(root, "Axioms")?)? {
            if let Some((code, '-' | '+')) = file_domain(&name)
                && name.ends_with(".ax")
            {
                out.push(code.to_string());
            }
        }
    }
    out.dedup();
    if out.is_empty() {
        return Err(RunError::Input(format!(
            "{}: no {} in this TPTP root",
            root.display(),
            if problems {
                "problem domain folders (Problems/ABC/) "
            } else {
                "CNF or FOF axiom files (Axioms/ABC*-*.ax, Axioms/ABC*+*.ax)"
            }
        )));
    }
    Ok(out)
}

/// The error of `--problems` without a TPTP root.
fn no_root() -> RunError {
    RunError::Input(
        "--problems reads a TPTP library's problem files: give its root with --tptp DIR (or TPTP=DIR)"
            .into(),
    )
}

/// A domain code as given, upper-cased, or the input error for one that
/// is not three letters.
fn domain_code(domain: &str) -> Result<String, RunError> {
    let domain = domain.trim().to_ascii_uppercase();
    if domain.len() != 3 || !domain.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(RunError::Input(format!(
            "unknown domain '{}': a TPTP domain is three letters, e.g. SET, GRP (or ALL for every domain)",
            crate::tptp::excerpt(&domain, 40)
        )));
    }
    Ok(domain)
}

/// The axiom files of a domain, sorted by name. With a TPTP root, CNF and
/// FOF files are taken (others are listed in the error if none is left).
pub fn domain_sources(domain: &str, tptp: Option<&Path>) -> Result<Vec<AxiomSource>, RunError> {
    domain_sources_skipping(domain, tptp).map(|s| s.0)
}

/// [`domain_sources`], with the files of the domain it leaves out (other
/// languages).
pub fn domain_sources_skipping(
    domain: &str,
    tptp: Option<&Path>,
) -> Result<(Vec<AxiomSource>, Vec<Skipped>), RunError> {
    let domain = domain_code(domain)?;
    match tptp {
        Some(root) => {
            let dir = root_dir(root, "Axioms")?;
            let mut out = Vec::new();
            let mut skipped = Vec::new();
            for (name, path) in names_in(&dir)? {
                if !(name.starts_with(&domain)
                    && name.ends_with(".ax")
                    && name[3..].contains(['-', '+']))
                {
                    continue;
                }
                let stem = name.trim_end_matches(".ax").to_string();
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if has_non_cnf(&text) {
                    skipped.push(Skipped {
                        domain: domain.clone(),
                        name: stem,
                        reason: "a language other than CNF/FOF".into(),
                    });
                    continue;
                }
                out.push(AxiomSource {
                    domain: domain.clone(),
                    name: stem,
                    display: path.display().to_string(),
                    path: Some(path),
                    text: None,
                });
            }
            if !skipped.is_empty() {
                tracing::info!(
                    "skipping axiom files in languages other than CNF/FOF: {}",
                    skipped
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            if out.is_empty() {
                return Err(RunError::Input(format!(
                    "no CNF/FOF axiom files {}/{domain}*-*.ax or {domain}*+*.ax{}",
                    dir.display(),
                    if skipped.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " (non-CNF/FOF skipped: {})",
                            skipped
                                .iter()
                                .map(|s| s.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                )));
            }
            Ok((out, skipped))
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
            Ok((out, Vec::new()))
        }
    }
}

/// The problem files of a domain (`<root>/Problems/<DOMAIN>/*.p`), sorted
/// by name, with those left out for their language (TFF and THF, by
/// their name's form mark `_`/`^` or a `tff(`/`thf(`/`tcf(` line). A
/// domain with no problem folder is an input error; one whose files are
/// all left out gives no source (the caller decides).
pub fn problem_sources(
    domain: &str,
    tptp: Option<&Path>,
) -> Result<(Vec<AxiomSource>, Vec<Skipped>), RunError> {
    let domain = domain_code(domain)?;
    let root = tptp.ok_or_else(no_root)?;
    let dir = root_dir(root, "Problems")?.join(&domain);
    if !dir.is_dir() {
        return Err(RunError::Input(format!(
            "unknown domain '{domain}': {} is not a folder of this TPTP root's problems",
            dir.display()
        )));
    }
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for (name, path) in names_in(&dir)? {
        let Some(stem) = name.strip_suffix(".p") else {
            continue;
        };
        if !path.is_file() {
            continue;
        }
        let skip = |reason: &str| Skipped {
            domain: domain.clone(),
            name: stem.to_string(),
            reason: reason.to_string(),
        };
        match file_domain(stem) {
            Some((_, '_')) => {
                skipped.push(skip("TFF (typed first-order), not read"));
                continue;
            }
            Some((_, '^')) => {
                skipped.push(skip("THF (higher-order), not read"));
                continue;
            }
            _ => {}
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if has_non_cnf(&text) {
            skipped.push(skip("a language other than CNF/FOF"));
            continue;
        }
        out.push(AxiomSource {
            domain: domain.clone(),
            name: stem.to_string(),
            display: path.display().to_string(),
            path: Some(path),
            text: None,
        });
    }
    Ok((out, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A TPTP root in a temporary folder with the given files.
    fn root(files: &[(&str, &str)]) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = t.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        t
    }

    #[test]
    fn file_names_give_domain_and_form() {
        assert_eq!(file_domain("SET004-0.ax"), Some(("SET", '-')));
        assert_eq!(file_domain("LCL026+1"), Some(("LCL", '+')));
        assert_eq!(file_domain("SWV123_1"), Some(("SWV", '_')));
        assert_eq!(file_domain("SYO001^5"), Some(("SYO", '^')));
        assert_eq!(file_domain("set004-0.ax"), None);
        assert_eq!(file_domain("SET-0.ax"), None);
        assert_eq!(file_domain("README"), None);
    }

    #[test]
    fn all_lists_axiom_domains_or_problem_folders() {
        let t = root(&[
            ("Axioms/SET001-0.ax", "cnf(a, axiom, p)."),
            ("Axioms/GRP002+1.ax", "fof(a, axiom, p)."),
            ("Axioms/SET002-0.ax", "cnf(a, axiom, q)."),
            ("Axioms/TYP001_1.ax", "tff(a, axiom, p)."),
            ("Axioms/notes.txt", ""),
            ("Problems/LCL/LCL001-1.p", "cnf(a, axiom, p)."),
            ("Problems/SET/SET001-1.p", "cnf(a, axiom, p)."),
            ("Problems/xx/y.p", ""),
        ]);
        assert_eq!(all_domains(Some(t.path()), false).unwrap(), ["GRP", "SET"]);
        assert_eq!(all_domains(Some(t.path()), true).unwrap(), ["LCL", "SET"]);
        assert_eq!(
            all_domains(None, false).unwrap(),
            embedded_domains()
                .into_iter()
                .map(String::from)
                .collect::<Vec<_>>()
        );
        let e = all_domains(None, true).unwrap_err().to_string();
        assert!(e.contains("--tptp"), "{e}");
    }

    #[test]
    fn a_root_without_its_folder_is_named() {
        let t = root(&[("Problems/LCL/LCL001-1.p", "cnf(a, axiom, p).")]);
        let e = all_domains(Some(t.path()), false).unwrap_err().to_string();
        assert!(e.contains("no Axioms folder"), "{e}");
        let e = domain_sources("SET", Some(t.path()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no Axioms folder"), "{e}");
        let t = root(&[("Axioms/SET001-0.ax", "cnf(a, axiom, p).")]);
        let e = problem_sources("SET", Some(t.path()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no Problems folder"), "{e}");
    }

    #[test]
    fn problem_files_skip_other_languages_with_a_reason() {
        let t = root(&[
            ("Problems/LCL/LCL001-1.p", "cnf(a, axiom, p)."),
            ("Problems/LCL/LCL001+1.p", "fof(a, axiom, p)."),
            ("Problems/LCL/LCL001_1.p", "tff(a, axiom, p)."),
            ("Problems/LCL/LCL001^1.p", "thf(a, axiom, p)."),
            (
                "Problems/LCL/LCL002-1.p",
                "cnf(a, axiom, p).\ntff(b, axiom, q).",
            ),
            ("Problems/LCL/LCL003-1.rm", "cnf(a, axiom, p)."),
        ]);
        let (srcs, skipped) = problem_sources("lcl", Some(t.path())).unwrap();
        let names: Vec<&str> = srcs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["LCL001+1", "LCL001-1"]);
        assert!(srcs.iter().all(|s| s.domain == "LCL"));
        let skipped: Vec<(&str, &str)> = skipped
            .iter()
            .map(|s| (s.name.as_str(), s.reason.as_str()))
            .collect();
        assert_eq!(skipped.len(), 3, "{skipped:?}");
        assert!(skipped[0].1.contains("THF"), "{skipped:?}");
        assert!(skipped[1].1.contains("TFF"), "{skipped:?}");
        assert_eq!(skipped[2].0, "LCL002-1");
        let e = problem_sources("GRP", Some(t.path()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown domain 'GRP'"), "{e}");
        let e = problem_sources("GRPX", Some(t.path()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("three letters"), "{e}");
    }
}
