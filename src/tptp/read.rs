//! The public entry points of the TPTP reader: a file, a string or bytes
//! with their includes, to a [`Problem`] whose FOF formulas are clausified
//! (`clausify.rs`) once everything is read, so Skolem and definition
//! symbols are named apart from every input symbol.

use super::ast::{FileOutput, Formula, Problem, dir_of};
use super::clausify::clausify_entries;
use super::error::TptpError;
use super::include::{IncludePolicy, Reader};
use super::lexer::Tok;
use super::parser::FileParser;
use crate::logic::{Literal, TermBank};
use std::path::{Path, PathBuf};

fn problem_from(bank: &mut TermBank, out: FileOutput, files: Vec<PathBuf>) -> Problem {
    let mut p = Problem {
        files,
        status: out.status,
        ..Problem::default()
    };
    p.input_symbols = bank.sig.len();
    clausify_entries(bank, out.entries, &mut p);
    p
}

/// Reads a TPTP CNF/FOF file and everything it includes.
///
/// Includes are resolved against `tptp_root` first (see
/// [`crate::tptp::tptp_root`]) and then against the including file's folder.
pub fn parse_file(
    bank: &mut TermBank,
    path: &Path,
    tptp_root: Option<&Path>,
) -> Result<Problem, TptpError> {
    parse_file_with(bank, path, tptp_root, &IncludePolicy::default())
}

/// [`parse_file`] with includes followed under `policy` (bounds on what
/// they read, confinement).
pub fn parse_file_with(
    bank: &mut TermBank,
    path: &Path,
    tptp_root: Option<&Path>,
    policy: &IncludePolicy,
) -> Result<Problem, TptpError> {
    let mut reader = Reader::with_policy(bank, tptp_root, policy.clone());
    let out = reader.read_top_file(path)?;
    let files = std::mem::take(&mut reader.files);
    Ok(problem_from(bank, out, files))
}

/// Reads TPTP CNF/FOF text. `origin` names the text in errors and source
/// infos; includes fall back to `origin`'s folder (or `.`).
pub fn parse_str(
    bank: &mut TermBank,
    text: &str,
    origin: &str,
    tptp_root: Option<&Path>,
) -> Result<Problem, TptpError> {
    let file = Path::new(origin);
    let mut reader = Reader::new(bank, tptp_root);
    let out = reader.parse_text(text, file, &dir_of(file))?;
    let files = std::mem::take(&mut reader.files);
    Ok(problem_from(bank, out, files))
}

/// Like [`parse_str`] for raw bytes: non-UTF-8 input is an error.
pub fn parse_bytes(
    bank: &mut TermBank,
    bytes: &[u8],
    origin: &str,
    tptp_root: Option<&Path>,
) -> Result<Problem, TptpError> {
    let file = Path::new(origin);
    let mut reader = Reader::new(bank, tptp_root);
    let out = reader.parse_bytes(bytes, file, &dir_of(file))?;
    let files = std::mem::take(&mut reader.files);
    Ok(problem_from(bank, out, files))
}

/// Parses a bare `<cnf_formula>` such as `p(X) | ~q(f(X),a)` (a final `.` is
/// allowed), for tests and tools. Literals are in source order, `$false`
/// literals dropped, `$true` kept as `$true = $true`.
pub fn parse_clause_str(bank: &mut TermBank, text: &str) -> Result<Vec<Literal>, TptpError> {
    let file = Path::new("<clause>");
    let dir = Path::new(".");
    let mut reader = Reader::new(bank, None);
    let mut p = FileParser::new(text, file, dir, &mut reader)?;
    let (lits, _) = p.cnf_formula()?;
    if p.cur.kind == Tok::Dot {
        p.advance()?;
    }
    if p.cur.kind != Tok::Eof {
        return Err(p.expected("'|' or end of input"));
    }
    Ok(lits)
}

/// Parses one bare `<fof_logic_formula>` such as `! [X] : (p(X) => q(X))`
/// (no annotations; a final `.` is not part of it), to the FOF part of the
/// BNF and under the reader's bounds ([`MAX_NESTING`](super::MAX_NESTING)):
/// the crate's one reader of FOF formulas (`fol::parse` reads through it).
/// Returns the formula, its free variables left free (not closed), and the
/// variable names (`names[i]` is bank variable `i`).
pub fn parse_fof_formula(
    bank: &mut TermBank,
    text: &str,
) -> Result<(Formula, Vec<String>), TptpError> {
    let file = Path::new("<formula>");
    let dir = Path::new(".");
    let mut reader = Reader::new(bank, None);
    let mut p = FileParser::new(text, file, dir, &mut reader)?;
    p.bare_fof()
}
