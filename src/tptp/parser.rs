//! Recursive-descent parser for TPTP CNF files, coded to the TPTP syntax BNF
//! (<https://www.tptp.org/TPTP/SyntaxBNF.html>, v9): annotated `cnf`
//! formulas, `include` directives and annotations, building literals in a
//! [`TermBank`].
//!
//! Grammar covered (`::=` rules of the BNF, CNF part):
//!
//! ```text
//! <TPTP_file>      ::= <TPTP_input>*        (but a file with no input is an error here)
//! <cnf_annotated>  ::= cnf(<name>,<formula_role>,<cnf_formula><annotations>).
//! <formula_role>   ::= <lower_word> | <lower_word>-<general_term>
//! <cnf_formula>    ::= <disjunction> | (<cnf_formula>)
//! <disjunction>    ::= <cnf_literal> | <disjunction> <vline> <cnf_literal>
//! <cnf_literal>    ::= <fof_atomic_formula> | ~ <fof_atomic_formula>
//!                    | ~ (<fof_atomic_formula>) | <fof_term> != <fof_term>
//! <annotations>    ::= ,<source><optional_info> | <nothing>
//! <include>        ::= include(<file_name><include_optionals>).
//! <include_optionals> ::= <nothing> | ,<formula_selection> | ,<formula_selection>,<space_name>
//! <formula_selection> ::= [<name_list>] | *
//! ```
//!
//! `fof`, `tff`, `thf`, `tcf` and `tpi` inputs are refused with an error.

use super::error::{ErrorKind, TptpError};
use super::include::{FileOutput, IncludePolicy, Reader};
use super::lexer::{Lexer, Tok, Token, is_lower_word};
use super::szs::SzsStatus;
use crate::logic::{Literal, SymbolKind, TermBank, TermId};
use smallvec::SmallVec;
use std::fmt;
use std::path::{Path, PathBuf};

/// Deepest nesting the parser accepts (term depth, parentheses around a
/// clause, annotation terms). Deeper input is refused with
/// [`ErrorKind::TooDeep`] rather than risking a stack overflow here or in
/// the recursive term algorithms downstream.
pub const MAX_NESTING: usize = 1000;

/// The role of an annotated formula (`<formula_role>` of the BNF).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Role {
    /// `axiom`
    Axiom,
    /// `hypothesis`
    Hypothesis,
    /// `definition`
    Definition,
    /// `assumption`
    Assumption,
    /// `lemma`
    Lemma,
    /// `theorem`
    Theorem,
    /// `corollary`
    Corollary,
    /// `conjecture`
    Conjecture,
    /// `negated_conjecture`
    NegatedConjecture,
    /// `plain`
    Plain,
    /// `type`
    Type,
    /// `interpretation`
    Interpretation,
    /// `fi_domain`
    FiDomain,
    /// `fi_functors`
    FiFunctors,
    /// `fi_predicates`
    FiPredicates,
    /// `unknown`
    Unknown,
}

impl Role {
    /// Every role, in BNF order.
    pub const ALL: [Role; 16] = [
        Role::Axiom,
        Role::Hypothesis,
        Role::Definition,
        Role::Assumption,
        Role::Lemma,
        Role::Theorem,
        Role::Corollary,
        Role::Conjecture,
        Role::NegatedConjecture,
        Role::Plain,
        Role::Type,
        Role::Interpretation,
        Role::FiDomain,
        Role::FiFunctors,
        Role::FiPredicates,
        Role::Unknown,
    ];

    /// The TPTP spelling, e.g. `negated_conjecture`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Axiom => "axiom",
            Role::Hypothesis => "hypothesis",
            Role::Definition => "definition",
            Role::Assumption => "assumption",
            Role::Lemma => "lemma",
            Role::Theorem => "theorem",
            Role::Corollary => "corollary",
            Role::Conjecture => "conjecture",
            Role::NegatedConjecture => "negated_conjecture",
            Role::Plain => "plain",
            Role::Type => "type",
            Role::Interpretation => "interpretation",
            Role::FiDomain => "fi_domain",
            Role::FiFunctors => "fi_functors",
            Role::FiPredicates => "fi_predicates",
            Role::Unknown => "unknown",
        }
    }

    /// The role with this TPTP spelling.
    pub fn from_name(s: &str) -> Option<Role> {
        Role::ALL.iter().copied().find(|r| r.as_str() == s)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where an annotated formula starts (the `cnf` keyword).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SourceInfo {
    /// The file (as resolved, not canonicalised; the origin for strings).
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl fmt::Display for SourceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.col)
    }
}

/// One `cnf` formula as read: literals in the order written, not normalised.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParsedClause {
    /// The formula name; a quoted name whose content is a lower word is
    /// stored without quotes (`'abc'` is `abc`), other quoted names keep them.
    pub name: String,
    /// The role.
    pub role: Role,
    /// The literals, in source order. Variables are `X0, X1, ...` numbered by
    /// first occurrence; `$false` and `~$true` literals are dropped; a `$true`
    /// (or `~$false`) literal is kept as `$true = $true` (only in tautologies).
    pub lits: Vec<Literal>,
    /// Where the formula starts.
    pub source: SourceInfo,
    /// The original variable names: `var_names[i]` is the name of `X<i>`.
    pub var_names: Vec<String>,
    /// The annotations (`<source>` and optional `<useful_info>`) as written,
    /// e.g. `file('x.ax',name)` or `inference(r,[status(thm)],[c1,c2])`.
    pub annotations: Option<String>,
}

/// A parsed problem: the clauses of the file and of everything it includes.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Problem {
    /// The clauses, in reading order (an include's clauses at the include).
    pub clauses: Vec<ParsedClause>,
    /// Clauses with a true literal (`$true` or `~$false`). They are kept out
    /// of `clauses` so that no caller uses them by mistake; each holds its
    /// true literal as `$true = $true` so it still reads as a tautology.
    pub tautologies: Vec<ParsedClause>,
    /// Every file read from disk, in the order first read, without repeats
    /// (for [`parse_str`], only the included files).
    pub files: Vec<PathBuf>,
    /// The word of the top file's `% Status : X` header line, if any.
    pub status: Option<String>,
}

impl Problem {
    /// The header status as an SZS value, if present and known.
    pub fn szs_status(&self) -> Option<SzsStatus> {
        self.status.as_deref().and_then(SzsStatus::from_name)
    }

    fn from_output(out: FileOutput, files: Vec<PathBuf>) -> Problem {
        let mut p = Problem {
            files,
            status: out.status,
            ..Problem::default()
        };
        for e in out.entries {
            if e.tautology {
                p.tautologies.push(e.clause);
            } else {
                p.clauses.push(e.clause);
            }
        }
        p
    }
}

/// Reads a TPTP CNF file and everything it includes.
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
    Ok(Problem::from_output(out, reader.files))
}

/// Reads TPTP CNF text. `origin` names the text in errors and source
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
    Ok(Problem::from_output(out, reader.files))
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
    Ok(Problem::from_output(out, reader.files))
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

/// The folder of `file`, or `.` when it has none.
pub(crate) fn dir_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A clause read from a file, with whether it holds a true literal.
#[derive(Debug)]
pub(crate) struct Entry {
    pub clause: ParsedClause,
    pub tautology: bool,
}

/// An atomic formula: a literal, or a truth constant.
enum Atomic {
    Lit(Literal),
    True,
    False,
}

impl Atomic {
    fn negate(self) -> Atomic {
        match self {
            Atomic::Lit(l) => Atomic::Lit(l.negate()),
            Atomic::True => Atomic::False,
            Atomic::False => Atomic::True,
        }
    }
}

/// Parser over one file's text.
pub(crate) struct FileParser<'s, 'x, 'r> {
    lex: Lexer<'s>,
    src: &'s str,
    file: &'s Path,
    dir: &'s Path,
    cur: Token,
    prev_end: usize,
    reader: &'x mut Reader<'r>,
    vars: Vec<String>,
    /// The clauses read so far.
    pub entries: Vec<Entry>,
}

/// `'text'` for messages, shortened when long.
fn quote_for_message(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() > MAX {
        let short: String = text.chars().take(MAX).collect();
        format!("'{short}...'")
    } else {
        format!("'{text}'")
    }
}

/// The content of a single-quoted token with `\\` and `\'` resolved.
fn unescape_quoted(text: &str) -> String {
    let inner = &text[1..text.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(d) = chars.next() {
                out.push(d);
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl<'s, 'x, 'r> FileParser<'s, 'x, 'r> {
    /// A parser positioned on the first token of `src`.
    pub fn new(
        src: &'s str,
        file: &'s Path,
        dir: &'s Path,
        reader: &'x mut Reader<'r>,
    ) -> Result<Self, TptpError> {
        let mut lex = Lexer::new(src, file);
        let cur = lex.next_token()?;
        Ok(FileParser {
            lex,
            src,
            file,
            dir,
            cur,
            prev_end: 0,
            reader,
            vars: Vec::new(),
            entries: Vec::new(),
        })
    }

    /// The status word of the file's `% Status` line (seen so far).
    pub fn status(&self) -> Option<String> {
        self.lex.status.clone()
    }

    fn advance(&mut self) -> Result<Token, TptpError> {
        let t = self.cur;
        self.prev_end = t.end;
        self.cur = self.lex.next_token()?;
        Ok(t)
    }

    fn text(&self, t: Token) -> &'s str {
        &self.src[t.start..t.end]
    }

    fn err_at(&self, t: Token, kind: ErrorKind) -> TptpError {
        TptpError::new(self.file, t.line, t.col, kind)
    }

    fn expected(&self, what: &str) -> TptpError {
        let found = if self.cur.kind == Tok::Eof {
            "end of file".to_string()
        } else {
            quote_for_message(self.text(self.cur))
        };
        self.err_at(
            self.cur,
            ErrorKind::Expected {
                expected: what.to_string(),
                found,
            },
        )
    }

    fn expect(&mut self, kind: Tok, what: &str) -> Result<Token, TptpError> {
        if self.cur.kind == kind {
            self.advance()
        } else {
            Err(self.expected(what))
        }
    }

    fn at_op(&self, op: &str) -> bool {
        self.cur.kind == Tok::Op && self.text(self.cur) == op
    }

    fn too_deep(&self) -> TptpError {
        self.err_at(self.cur, ErrorKind::TooDeep(MAX_NESTING))
    }

    /// `<TPTP_file>`: annotated formulas and includes up to the end.
    pub fn parse_file(&mut self) -> Result<(), TptpError> {
        let mut inputs = 0usize;
        while self.cur.kind != Tok::Eof {
            if self.cur.kind != Tok::Lower {
                return Err(self.expected("'cnf(' or 'include('"));
            }
            match self.text(self.cur) {
                "cnf" => self.cnf()?,
                "include" => self.include()?,
                w @ ("fof" | "tff" | "thf" | "tcf" | "tpi") => {
                    return Err(self.err_at(self.cur, ErrorKind::Unsupported(w.to_uppercase())));
                }
                _ => return Err(self.expected("'cnf(' or 'include('")),
            }
            inputs += 1;
        }
        if inputs == 0 {
            return Err(TptpError::new(self.file, 1, 1, ErrorKind::NoFormulas));
        }
        Ok(())
    }

    /// `<name> ::= <atomic_word> | <integer>`.
    fn name(&mut self, what: &str) -> Result<String, TptpError> {
        let t = self.cur;
        let text = self.text(t);
        let name = match t.kind {
            Tok::Lower => text.to_string(),
            Tok::SingleQuoted => self.symbol_name(t),
            Tok::Number
                if text
                    .trim_start_matches(['+', '-'])
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
            {
                text.to_string()
            }
            _ => return Err(self.expected(what)),
        };
        self.advance()?;
        Ok(name)
    }

    /// The symbol name of a functor token: quoted atoms whose content is a
    /// lower word lose their quotes; everything else is kept as written.
    fn symbol_name(&self, t: Token) -> String {
        let text = self.text(t);
        if t.kind == Tok::SingleQuoted {
            let inner = &text[1..text.len() - 1];
            if is_lower_word(inner) {
                return inner.to_string();
            }
        }
        text.to_string()
    }

    /// `<cnf_annotated>`, the `cnf` keyword being the current token.
    fn cnf(&mut self) -> Result<(), TptpError> {
        let head = self.advance()?;
        self.expect(Tok::LParen, "'('")?;
        let name = self.name("a formula name")?;
        self.expect(Tok::Comma, "','")?;
        let role = self.role()?;
        self.expect(Tok::Comma, "','")?;
        self.vars.clear();
        let parenthesized = self.cur.kind == Tok::LParen;
        let (lits, tautology) = self.cnf_formula()?;
        let annotations = match self.cur.kind {
            Tok::Comma => {
                self.advance()?;
                let start = self.cur.start;
                self.general_term()?;
                if self.cur.kind == Tok::Comma {
                    self.advance()?;
                    if self.cur.kind != Tok::LBrack {
                        return Err(self.expected("'[' (useful info is a list)"));
                    }
                    self.general_term()?;
                }
                Some(self.src[start..self.prev_end].to_string())
            }
            Tok::RParen => None,
            _ if parenthesized => return Err(self.expected("',' or ')'")),
            _ => return Err(self.expected("'|', ',' or ')'")),
        };
        self.expect(Tok::RParen, "')'")?;
        self.expect(Tok::Dot, "'.'")?;
        let clause = ParsedClause {
            name,
            role,
            lits,
            source: SourceInfo {
                file: self.file.to_path_buf(),
                line: head.line,
                col: head.col,
            },
            var_names: std::mem::take(&mut self.vars),
            annotations,
        };
        self.entries.push(Entry { clause, tautology });
        Ok(())
    }

    /// `<formula_role> ::= <lower_word> | <lower_word>-<general_term>`.
    fn role(&mut self) -> Result<Role, TptpError> {
        if self.cur.kind != Tok::Lower {
            return Err(self.expected("a formula role"));
        }
        let text = self.text(self.cur);
        let role = Role::from_name(text)
            .ok_or_else(|| self.err_at(self.cur, ErrorKind::BadRole(text.to_string())))?;
        self.advance()?;
        if self.at_op("-") {
            self.advance()?;
            self.general_term()?;
        } else if self.cur.kind == Tok::Number && self.text(self.cur).starts_with('-') {
            // `axiom-1`: the lexer read `-1` as a number.
            self.advance()?;
        }
        Ok(role)
    }

    /// `<cnf_formula>`: a disjunction in any number of parentheses. Returns
    /// the literals and whether a true literal occurred.
    fn cnf_formula(&mut self) -> Result<(Vec<Literal>, bool), TptpError> {
        let mut opens = 0usize;
        while self.cur.kind == Tok::LParen {
            if opens >= MAX_NESTING {
                return Err(self.too_deep());
            }
            self.advance()?;
            opens += 1;
        }
        let mut lits = Vec::new();
        let mut tautology = false;
        loop {
            match self.literal()? {
                Atomic::Lit(l) => lits.push(l),
                Atomic::True => {
                    tautology = true;
                    let t = self.reader.bank.true_term();
                    lits.push(Literal::atom(self.reader.bank, t, true));
                }
                Atomic::False => {}
            }
            if self.cur.kind == Tok::Pipe {
                self.advance()?;
            } else {
                break;
            }
        }
        for _ in 0..opens {
            self.expect(Tok::RParen, "')'")?;
        }
        Ok((lits, tautology))
    }

    /// `<cnf_literal>`.
    fn literal(&mut self) -> Result<Atomic, TptpError> {
        if self.cur.kind != Tok::Tilde {
            return self.atomic(true);
        }
        self.advance()?;
        let a = if self.cur.kind == Tok::LParen {
            self.advance()?;
            let a = self.atomic(false)?;
            self.expect(Tok::RParen, "')'")?;
            a
        } else {
            self.atomic(false)?
        };
        Ok(a.negate())
    }

    fn is_truth(&self, t: Token) -> bool {
        t.kind == Tok::Dollar && matches!(self.text(t), "$true" | "$false")
    }

    /// `<fof_atomic_formula>`, or with `allow_neq` also `t1 != t2`.
    fn atomic(&mut self, allow_neq: bool) -> Result<Atomic, TptpError> {
        let t = self.cur;
        match t.kind {
            _ if self.is_truth(t) => {
                self.advance()?;
                if matches!(self.cur.kind, Tok::Eq | Tok::Neq) {
                    return Err(self.err_at(t, ErrorKind::TruthAsTerm(self.text(t).to_string())));
                }
                Ok(if self.text(t) == "$true" {
                    Atomic::True
                } else {
                    Atomic::False
                })
            }
            Tok::Upper | Tok::Number | Tok::Distinct => {
                let lhs = self.term(0)?;
                self.equation(lhs, allow_neq)
            }
            Tok::Lower | Tok::SingleQuoted | Tok::Dollar | Tok::DollarDollar => {
                let name = self.symbol_name(t);
                self.advance()?;
                let args = if self.cur.kind == Tok::LParen {
                    self.args()?
                } else {
                    SmallVec::new()
                };
                let arity = args.len() as u32;
                let bank = &mut *self.reader.bank;
                if matches!(self.cur.kind, Tok::Eq | Tok::Neq) {
                    let f = bank.sig.intern(&name, arity, SymbolKind::Function);
                    let lhs = bank.app(f, &args);
                    self.equation(lhs, allow_neq)
                } else {
                    let p = bank.sig.intern(&name, arity, SymbolKind::Predicate);
                    let atom = bank.app(p, &args);
                    Ok(Atomic::Lit(Literal::atom(bank, atom, true)))
                }
            }
            _ => Err(self.expected("a literal")),
        }
    }

    /// The rest of `lhs = rhs` or `lhs != rhs`.
    fn equation(&mut self, lhs: TermId, allow_neq: bool) -> Result<Atomic, TptpError> {
        let pos = match self.cur.kind {
            Tok::Eq => true,
            Tok::Neq if allow_neq => false,
            Tok::Neq => return Err(self.expected("'=' ('~' cannot be applied to '!=')")),
            _ => return Err(self.expected("'=' or '!='")),
        };
        self.advance()?;
        let rhs = self.term(0)?;
        Ok(Atomic::Lit(Literal::eq(lhs, rhs, pos)))
    }

    /// The variable `X<i>` for the clause variable called `name`.
    fn variable(&mut self, name: &str) -> TermId {
        let i = match self.vars.iter().position(|v| v == name) {
            Some(i) => i,
            None => {
                self.vars.push(name.to_string());
                self.vars.len() - 1
            }
        };
        self.reader.bank.var(i as u32)
    }

    /// `<fof_term>`, read with an explicit stack (no recursion), at nesting
    /// `depth` (the number of enclosing argument lists).
    fn term(&mut self, depth: usize) -> Result<TermId, TptpError> {
        // Open applications: symbol name and the arguments read so far.
        let mut open: Vec<(String, SmallVec<[TermId; 4]>)> = Vec::new();
        loop {
            let t = self.cur;
            let mut done = match t.kind {
                Tok::Upper => {
                    self.advance()?;
                    self.variable(self.text(t))
                }
                Tok::Number | Tok::Distinct => {
                    self.advance()?;
                    let name = self.text(t);
                    let bank = &mut *self.reader.bank;
                    let c = bank.sig.intern(name, 0, SymbolKind::Function);
                    bank.constant(c)
                }
                _ if self.is_truth(t) => {
                    return Err(self.err_at(t, ErrorKind::TruthAsTerm(self.text(t).to_string())));
                }
                Tok::Lower | Tok::SingleQuoted | Tok::Dollar | Tok::DollarDollar => {
                    let name = self.symbol_name(t);
                    self.advance()?;
                    if self.cur.kind == Tok::LParen {
                        if depth + open.len() >= MAX_NESTING {
                            return Err(self.too_deep());
                        }
                        self.advance()?;
                        open.push((name, SmallVec::new()));
                        continue;
                    }
                    let bank = &mut *self.reader.bank;
                    let c = bank.sig.intern(&name, 0, SymbolKind::Function);
                    bank.constant(c)
                }
                _ => return Err(self.expected("a term")),
            };
            // Close the applications that `done` completes.
            loop {
                let Some(top) = open.last_mut() else {
                    return Ok(done);
                };
                top.1.push(done);
                match self.cur.kind {
                    Tok::Comma => {
                        self.advance()?;
                        break;
                    }
                    Tok::RParen => {
                        self.advance()?;
                        let (name, args) = open.pop().unwrap_or_default();
                        let bank = &mut *self.reader.bank;
                        let f = bank
                            .sig
                            .intern(&name, args.len() as u32, SymbolKind::Function);
                        done = bank.app(f, &args);
                    }
                    _ => return Err(self.expected("',' or ')'")),
                }
            }
        }
    }

    /// `(<fof_arguments>)` of an atom or a top-level term.
    fn args(&mut self) -> Result<SmallVec<[TermId; 4]>, TptpError> {
        self.expect(Tok::LParen, "'('")?;
        let mut args = SmallVec::new();
        loop {
            args.push(self.term(1)?);
            match self.cur.kind {
                Tok::Comma => {
                    self.advance()?;
                }
                Tok::RParen => {
                    self.advance()?;
                    return Ok(args);
                }
                _ => return Err(self.expected("',' or ')'")),
            }
        }
    }

    /// `<general_term>`, read with an explicit stack of pending closers:
    ///
    /// ```text
    /// <general_term> ::= <general_data> | <general_data>:<general_term> | <general_list>
    /// <general_list> ::= [] | [<general_terms>]
    /// <general_data> ::= <atomic_word> | <atomic_word>(<general_terms>) | <variable>
    ///                  | <number> | <distinct_object> | <formula_data>
    /// ```
    ///
    /// Formula data (`$fof(...)`, `$cnf(...)`, ...) is skipped with balanced
    /// brackets.
    fn general_term(&mut self) -> Result<(), TptpError> {
        let mut open: Vec<Tok> = Vec::new();
        'term: loop {
            // Read the start of one general term.
            match self.cur.kind {
                Tok::LBrack => {
                    self.advance()?;
                    if self.cur.kind == Tok::RBrack {
                        self.advance()?;
                    } else {
                        if open.len() >= MAX_NESTING {
                            return Err(self.too_deep());
                        }
                        open.push(Tok::RBrack);
                        continue 'term;
                    }
                }
                Tok::Lower | Tok::SingleQuoted => {
                    self.advance()?;
                    if self.cur.kind == Tok::LParen {
                        if open.len() >= MAX_NESTING {
                            return Err(self.too_deep());
                        }
                        self.advance()?;
                        open.push(Tok::RParen);
                        continue 'term;
                    }
                    if self.cur.kind == Tok::Colon {
                        self.advance()?;
                        continue 'term;
                    }
                }
                Tok::Upper | Tok::Number | Tok::Distinct | Tok::Dollar | Tok::DollarDollar => {
                    let formula_data = matches!(self.cur.kind, Tok::Dollar | Tok::DollarDollar);
                    self.advance()?;
                    if formula_data && self.cur.kind == Tok::LParen {
                        self.skip_balanced()?;
                    }
                    if self.cur.kind == Tok::Colon {
                        self.advance()?;
                        continue 'term;
                    }
                }
                _ => return Err(self.expected("a general term")),
            }
            // One general term is complete: continue or close enclosing lists.
            loop {
                let Some(&close) = open.last() else {
                    return Ok(());
                };
                if self.cur.kind == Tok::Comma {
                    self.advance()?;
                    continue 'term;
                }
                if self.cur.kind != close {
                    return Err(self.expected(if close == Tok::RParen {
                        "',' or ')'"
                    } else {
                        "',' or ']'"
                    }));
                }
                self.advance()?;
                open.pop();
                // A general function may be followed by `:<general_term>`.
                if close == Tok::RParen && self.cur.kind == Tok::Colon {
                    self.advance()?;
                    continue 'term;
                }
            }
        }
    }

    /// Skips a parenthesised token sequence with balanced `()` and `[]`.
    fn skip_balanced(&mut self) -> Result<(), TptpError> {
        let mut stack = vec![Tok::RParen];
        self.advance()?;
        while let Some(&close) = stack.last() {
            match self.cur.kind {
                Tok::LParen => stack.push(Tok::RParen),
                Tok::LBrack => stack.push(Tok::RBrack),
                k @ (Tok::RParen | Tok::RBrack) if k == close => {
                    stack.pop();
                }
                Tok::RParen | Tok::RBrack | Tok::Eof => {
                    return Err(self.expected(if close == Tok::RParen { "')'" } else { "']'" }));
                }
                _ => {}
            }
            self.advance()?;
        }
        Ok(())
    }

    /// `<include>`, the `include` keyword being the current token.
    fn include(&mut self) -> Result<(), TptpError> {
        self.advance()?;
        self.expect(Tok::LParen, "'('")?;
        let t = self.cur;
        let file_name = match t.kind {
            Tok::SingleQuoted => unescape_quoted(self.text(t)),
            Tok::Lower => self.text(t).to_string(),
            _ => return Err(self.expected("a file name")),
        };
        self.advance()?;
        let mut selection: Option<Vec<(String, Token)>> = None;
        if self.cur.kind == Tok::Comma {
            self.advance()?;
            if self.at_op("*") {
                self.advance()?;
            } else if self.cur.kind == Tok::LBrack {
                self.advance()?;
                let mut names = Vec::new();
                loop {
                    let nt = self.cur;
                    names.push((self.name("a formula name")?, nt));
                    match self.cur.kind {
                        Tok::Comma => {
                            self.advance()?;
                        }
                        Tok::RBrack => {
                            self.advance()?;
                            break;
                        }
                        _ => return Err(self.expected("',' or ']'")),
                    }
                }
                selection = Some(names);
            } else {
                return Err(self.expected("'[' or '*'"));
            }
            if self.cur.kind == Tok::Comma {
                self.advance()?;
                self.name("a space name")?;
            }
        }
        self.expect(Tok::RParen, "')'")?;
        self.expect(Tok::Dot, "'.'")?;
        let (mut entries, resolved) = self
            .reader
            .include(&file_name, self.file, self.dir, t.line, t.col)?;
        if let Some(names) = selection {
            for (n, nt) in &names {
                if !entries.iter().any(|e| &e.clause.name == n) {
                    return Err(self.err_at(
                        *nt,
                        ErrorKind::UnknownSelected {
                            name: n.clone(),
                            file: resolved,
                        },
                    ));
                }
            }
            entries.retain(|e| names.iter().any(|(n, _)| n == &e.clause.name));
        }
        self.entries.extend(entries);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Head;

    fn parse(text: &str) -> (TermBank, Problem) {
        let mut bank = TermBank::new();
        let p = parse_str(&mut bank, text, "t.p", None).unwrap_or_else(|e| panic!("{e}"));
        (bank, p)
    }

    fn err(text: &str) -> TptpError {
        let mut bank = TermBank::new();
        parse_str(&mut bank, text, "t.p", None).unwrap_err()
    }

    fn name_of(bank: &TermBank, t: TermId) -> String {
        match bank.head(t) {
            Head::Var(i) => format!("X{i}"),
            Head::Sym(s) => bank.sig.get(s).name.clone(),
        }
    }

    #[test]
    fn reads_a_clause_in_source_order() {
        let (bank, p) =
            parse("cnf(c1, axiom, ( ~ member(Element,Subset) | f(Y) = Element | g(Y) != a )).\n");
        assert_eq!(p.clauses.len(), 1);
        let c = &p.clauses[0];
        assert_eq!((c.name.as_str(), c.role), ("c1", Role::Axiom));
        assert_eq!(c.var_names, vec!["Element", "Subset", "Y"]);
        assert_eq!(c.lits.len(), 3);
        let l0 = c.lits[0];
        assert!(!l0.pos && !l0.is_equational(&bank));
        assert_eq!(name_of(&bank, l0.lhs), "member");
        assert_eq!(bank.sig.get(bank.sym(l0.lhs)).kind, SymbolKind::Predicate);
        assert_eq!(bank.var_index(bank.arg(l0.lhs, 0)), Some(0));
        assert_eq!(bank.var_index(bank.arg(l0.lhs, 1)), Some(1));
        let l1 = c.lits[1];
        assert!(l1.pos && l1.is_equational(&bank));
        assert_eq!(name_of(&bank, l1.lhs), "f");
        assert_eq!(bank.var_index(l1.rhs), Some(0));
        let l2 = c.lits[2];
        assert!(!l2.pos);
        assert_eq!(name_of(&bank, l2.rhs), "a");
        assert_eq!(c.source.line, 1);
        assert_eq!(c.source.col, 1);
        assert_eq!(c.annotations, None);
    }

    #[test]
    fn truth_constants() {
        let (bank, p) = parse(
            "cnf(a, axiom, p | $false).\ncnf(b, axiom, ~$true | q).\n\
             cnf(c, axiom, p | $true).\ncnf(d, axiom, ~ $false).\ncnf(e, axiom, $false).",
        );
        let names: Vec<_> = p.clauses.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "e"]);
        assert_eq!(p.clauses[0].lits.len(), 1);
        assert_eq!(p.clauses[1].lits.len(), 1);
        assert!(p.clauses[2].lits.is_empty());
        let t: Vec<_> = p.tautologies.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(t, ["c", "d"]);
        let tt = bank.true_term();
        assert_eq!(p.tautologies[0].lits[1], Literal::eq(tt, tt, true));
        assert_eq!(p.tautologies[1].lits, vec![Literal::eq(tt, tt, true)]);
        let e = err("cnf(a, axiom, f($true) = a).");
        assert_eq!(
            (e.col, e.kind),
            (17, ErrorKind::TruthAsTerm("$true".into()))
        );
        let e = err("cnf(a, axiom, $false = a).");
        assert_eq!(e.kind, ErrorKind::TruthAsTerm("$false".into()));
    }

    #[test]
    fn quoted_names_numbers_and_distinct_objects() {
        let (bank, p) = parse(
            "cnf('abc', axiom, 'p'('a b', \"d o\", -1/2, 2.5e3, $$sys, $sum(1,2)) | 'Q').\n\
             cnf(17, plain, 'it\\'s' = abc).",
        );
        assert_eq!(p.clauses[0].name, "abc");
        assert_eq!(p.clauses[1].name, "17");
        let atom = p.clauses[0].lits[0].lhs;
        assert_eq!(name_of(&bank, atom), "p");
        let args: Vec<String> = bank.args(atom).iter().map(|&a| name_of(&bank, a)).collect();
        assert_eq!(args, ["'a b'", "\"d o\"", "-1/2", "2.5e3", "$$sys", "$sum"]);
        assert_eq!(name_of(&bank, p.clauses[0].lits[1].lhs), "'Q'");
        let l = p.clauses[1].lits[0];
        assert_eq!(name_of(&bank, l.lhs), "'it\\'s'");
        assert_eq!(name_of(&bank, l.rhs), "abc");
        // `'abc'` and `abc` are the same symbol.
        let (bank, p) = parse("cnf(x, axiom, f('abc') = f(abc)).");
        let l = p.clauses[0].lits[0];
        assert_eq!(l.lhs, l.rhs);
        assert_eq!(name_of(&bank, bank.arg(l.lhs, 0)), "abc");
    }

    #[test]
    fn same_name_different_arities_are_different_symbols() {
        let (bank, p) = parse("cnf(x, axiom, p(f(a), f) | p | f(a,a) = a).");
        let c = &p.clauses[0];
        assert_ne!(bank.sym(c.lits[0].lhs), bank.sym(c.lits[1].lhs));
        let inner = bank.args(c.lits[0].lhs);
        assert_ne!(bank.sym(inner[0]), bank.sym(inner[1]));
        assert_ne!(bank.sym(inner[0]), bank.sym(c.lits[2].lhs));
    }

    #[test]
    fn parentheses_negation_forms_and_roles() {
        let (_, p) = parse(
            "cnf(a, negated_conjecture, (((p)))).\ncnf(b, hypothesis, ~ (p)).\n\
             cnf(c, axiom-derived(x, [y]), ~ a = b).\ncnf(d, lemma-1, p).",
        );
        assert_eq!(p.clauses.len(), 4);
        assert_eq!(p.clauses[0].role, Role::NegatedConjecture);
        assert!(p.clauses[0].lits[0].pos);
        assert!(!p.clauses[1].lits[0].pos);
        assert!(!p.clauses[2].lits[0].pos);
        assert_eq!(p.clauses[3].role, Role::Lemma);
        for r in Role::ALL {
            assert_eq!(Role::from_name(r.as_str()), Some(r));
            assert_eq!(r.to_string(), r.as_str());
        }
    }

    #[test]
    fn annotations_are_kept_verbatim() {
        let (_, p) = parse(
            "cnf(a, plain, p(X), inference(res, [status(thm), a:b:[c]], [c1, 'c 2', 3])).\n\
             cnf(b, axiom, p, file('x.ax', name), [description(\"d\"), $fof(! [X] : (p(X) => q)), iquote(X)]).\n\
             cnf(c, axiom, p, introduced(definition)).",
        );
        assert_eq!(
            p.clauses[0].annotations.as_deref(),
            Some("inference(res, [status(thm), a:b:[c]], [c1, 'c 2', 3])")
        );
        assert_eq!(
            p.clauses[1].annotations.as_deref(),
            Some("file('x.ax', name), [description(\"d\"), $fof(! [X] : (p(X) => q)), iquote(X)]")
        );
        assert_eq!(
            p.clauses[2].annotations.as_deref(),
            Some("introduced(definition)")
        );
        let e = err("cnf(a, axiom, p, file('x', n), other).");
        assert_eq!(
            e.message(),
            "expected '[' (useful info is a list) but found 'other'"
        );
        let e = err("cnf(a, axiom, p, $fof((p ]).");
        assert_eq!(e.message(), "expected ')' but found ']'");
    }

    #[test]
    fn syntax_errors_say_what_was_expected() {
        let e = err("cnf(a, axiom, p(X.");
        assert_eq!(e.to_string(), "t.p:1:18: expected ',' or ')' but found '.'");
        let e = err("cnf(a, axiom, p(X).");
        assert_eq!(
            e.to_string(),
            "t.p:1:19: expected '|', ',' or ')' but found '.'"
        );
        let e = err("cnf(a, axiom, (p(X)).");
        assert_eq!(e.to_string(), "t.p:1:21: expected ',' or ')' but found '.'");
        let e = err("cnf(a, axiom, ((p | q).");
        assert_eq!(e.message(), "expected ')' but found '.'");
        let e = err("cnf(a, axiom, p(X)) ");
        assert_eq!(e.message(), "expected '.' but found end of file");
        let e = err("cnf(a, axiom, X).");
        assert_eq!(e.message(), "expected '=' or '!=' but found ')'");
        let e = err("cnf(a, axiom, ~ a != b).");
        assert_eq!(e.col, 19);
        let e = err("cnf(a, axiom, p()).");
        assert_eq!(e.message(), "expected a term but found ')'");
        let e = err("cnf(a, axiom, p & q).");
        assert_eq!(e.message(), "expected '|', ',' or ')' but found '&'");
        let e = err("cnf(a, axiom, p).\nfoo(b).");
        assert_eq!(
            e.to_string(),
            "t.p:2:1: expected 'cnf(' or 'include(' but found 'foo'"
        );
        let e = err("cnf(a, axoim, p).");
        assert_eq!(
            (e.line, e.col, e.kind),
            (1, 8, ErrorKind::BadRole("axoim".into()))
        );
        let e = err("cnf(A, axiom, p).");
        assert_eq!(e.message(), "expected a formula name but found 'A'");
    }

    #[test]
    fn other_languages_are_refused() {
        for (lang, up) in [
            ("fof", "FOF"),
            ("tff", "TFF"),
            ("thf", "THF"),
            ("tcf", "TCF"),
        ] {
            let e = err(&format!(
                "cnf(a, axiom, p).\n  {lang}(b, axiom, ![X]: p(X))."
            ));
            assert_eq!((e.line, e.col), (2, 3));
            assert_eq!(
                e.message(),
                format!("{up} input is not supported yet; convert to CNF")
            );
        }
    }

    #[test]
    fn empty_inputs_are_errors() {
        for text in ["", "  % only a comment\n", "/* block */"] {
            let e = err(text);
            assert_eq!(e.kind, ErrorKind::NoFormulas);
            assert_eq!(e.to_string(), "t.p:1:1: no formulas in file");
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!(
            "cnf(a, axiom, p({}a{})).",
            "f(".repeat(5000),
            ")".repeat(5000)
        );
        assert_eq!(err(&deep).kind, ErrorKind::TooDeep(MAX_NESTING));
        let ok = format!(
            "cnf(a, axiom, p({}a{})).",
            "f(".repeat(900),
            ")".repeat(900)
        );
        parse(&ok);
        let parens = format!("cnf(a, axiom, {}p{}).", "(".repeat(5000), ")".repeat(5000));
        assert_eq!(err(&parens).kind, ErrorKind::TooDeep(MAX_NESTING));
        let ann = format!(
            "cnf(a, axiom, p, {}a{}).",
            "[".repeat(5000),
            "]".repeat(5000)
        );
        assert_eq!(err(&ann).kind, ErrorKind::TooDeep(MAX_NESTING));
    }

    #[test]
    fn status_header_is_read() {
        let (_, p) = parse("% File : x\n% Status   : Unsatisfiable\ncnf(a, axiom, p).");
        assert_eq!(p.status.as_deref(), Some("Unsatisfiable"));
        assert_eq!(p.szs_status(), Some(SzsStatus::Unsatisfiable));
    }

    #[test]
    fn clause_strings() {
        let mut bank = TermBank::new();
        let lits = parse_clause_str(&mut bank, "p(X) | ~q(X, Y) | X = f(Y).").unwrap();
        assert_eq!(lits.len(), 3);
        let lits2 = parse_clause_str(&mut bank, "(p(X))").unwrap();
        assert_eq!(lits2[0], lits[0]);
        let e = parse_clause_str(&mut bank, "p(X) q").unwrap_err();
        assert_eq!(e.message(), "expected '|' or end of input but found 'q'");
    }
}
