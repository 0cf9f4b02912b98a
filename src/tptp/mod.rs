//! TPTP input and output: a reader for CNF and FOF problems (with includes) that
//! builds literals in a [`crate::logic::TermBank`], a printer that writes
//! clauses back as TPTP, and the SZS status values.
//!
//! Design choices:
//!
//! - **Coverage.** The CNF part of the TPTP syntax BNF (v9), lexical rules
//!   included: `cnf` formulas, `include` with formula selections (`[names]`
//!   or `*`) and an optional space name, roles (also `role-general_term`),
//!   annotations (kept verbatim as text), `%` and `/* */` comments. `fof`
//!   formulas (`fof.rs`, to the FOF part of the BNF) are clausified once the
//!   whole problem is read (`clausify.rs`), so a [`Problem`] holds clauses
//!   only. `tff`, `thf`, `tcf` and `tpi` inputs are refused with
//!   [`ErrorKind::Unsupported`] ("TFF input is not supported ..."; `prove`
//!   and `derive` answer SZS `Inappropriate`), never skipped.
//! - **Literals.** Atoms `p(..)` become `p(..) = $true` with `p` a
//!   [`crate::logic::SymbolKind::Predicate`]; `s = t` / `s != t` are
//!   equations over [`crate::logic::SymbolKind::Function`] symbols. Literal
//!   order is as written; clauses are not normalised (the caller does that
//!   once a term ordering exists). Variables are `X0, X1, ...` per clause by
//!   first occurrence; the original names are kept in
//!   [`ParsedClause::var_names`].
//! - **`$true` / `$false`.** A false literal (`$false`, `~$true`) is dropped,
//!   so `cnf(c, axiom, $false)` is the empty clause. A clause with a true
//!   literal (`$true`, `~$false`) is a tautology: it goes to
//!   [`Problem::tautologies`], not [`Problem::clauses`], so it cannot be used
//!   by mistake; its true literal is stored as `$true = $true`, which prints
//!   back as `$true` and is a tautology for `Clause::is_tautology`.
//!   `$true`/`$false` as terms (`f($true)`, `$true = a`) are errors.
//! - **Symbol names.** A quoted atom whose content is a lower word is the
//!   same symbol as the bare word (`'abc'` is `abc`, as the BNF says); other
//!   quoted atoms keep their quotes and escapes (`'a b'`), so printing
//!   round-trips. Distinct objects (`"x"`) and numbers (`-1/2`, `2.5e3`) are
//!   constants named by their text, without arithmetic or distinctness
//!   semantics; `$foo` / `$$foo` are ordinary symbols. The same name at two
//!   arities gives two symbols.
//! - **Includes** are resolved against the TPTP root ([`tptp_root`]) first,
//!   then the including file's folder; they nest, cycles are errors.
//! - **Robustness.** Any input gives `Ok` or a located [`TptpError`], never a
//!   panic: non-UTF-8 and control characters are errors, and nesting beyond
//!   [`MAX_NESTING`] is refused. Includes read at most
//!   [`DEFAULT_MAX_INCLUDES`] files and [`DEFAULT_MAX_INCLUDED_CLAUSES`]
//!   clauses, and can be confined to the TPTP root and the problem's folder
//!   ([`IncludePolicy`], `--confine-includes`).

mod ast;
mod clausify;
mod error;
#[cfg(test)]
pub(crate) mod fof_tests;
mod include;
mod lexer;
mod parser;
mod printer;
mod read;
mod szs;

pub use ast::{
    Clausified, ClausifyStats, FofLine, Formula, ParsedClause, Problem, Role, SourceInfo,
    fof_lines_for,
};
pub use clausify::clausify_formula;
pub use error::{ErrorKind, TptpError, UNSUPPORTED_INPUT, excerpt};
pub use include::{DEFAULT_MAX_INCLUDED_CLAUSES, DEFAULT_MAX_INCLUDES, IncludePolicy, tptp_root};
pub use parser::MAX_NESTING;
pub use printer::{
    clause_closure_to_tptp, clause_to_tptp, cnf_line, formula_to_tptp, literal_to_string,
    name_to_tptp, path_to_tptp, symbol_to_tptp, term_to_string, unquote, write_formula,
    write_literal, write_term,
};
pub use read::{
    parse_bytes, parse_clause_str, parse_file, parse_file_with, parse_fof_formula, parse_str,
};
pub use szs::{SzsStatus, UnknownSzsStatus};
