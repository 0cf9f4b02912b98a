//! Recursive-descent parser for TPTP CNF and FOF files, coded to the TPTP syntax BNF
//! (<https://www.tptp.org/TPTP/SyntaxBNF.html>, v9): annotated `cnf`
//! formulas, `include` directives and annotations, building literals in a
//! [`TermBank`](crate::logic::TermBank).
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
//! `tff`, `thf`, `tcf` and `tpi` inputs are refused with an error.
//!
//! FOF part (`fof` annotated formulas, read into [`Formula`] trees that
//! `clausify.rs` turns into clauses):
//!
//! ```text
//! <fof_annotated>        ::= fof(<name>,<formula_role>,<fof_formula><annotations>).
//! <fof_logic_formula>    ::= <fof_binary_formula> | <fof_unary_formula> | <fof_unitary_formula>
//! <fof_binary_nonassoc>  ::= <fof_unit_formula> <nonassoc_connective> <fof_unit_formula>
//! <fof_or_formula>       ::= <fof_unit_formula> | <fof_unit_formula> | <fof_or_formula> | <fof_unit_formula>
//! <fof_and_formula>      ::= <fof_unit_formula> & <fof_unit_formula> | <fof_and_formula> & <fof_unit_formula>
//! <fof_unit_formula>     ::= <fof_unitary_formula> | <fof_unary_formula>
//! <fof_unary_formula>    ::= ~ <fof_unit_formula> | <fof_term> != <fof_term>
//! <fof_unitary_formula>  ::= <fof_quantified_formula> | <fof_atomic_formula> | (<fof_logic_formula>)
//! <fof_quantified_formula> ::= <fof_quantifier> [<fof_variable_list>] : <fof_unit_formula>
//! <nonassoc_connective>  ::= <=> | => | <= | <~> | ~<vline> | ~&
//! ```
//!
//! So, as the BNF has it: `|` and `&` are associative but do not mix
//! without parentheses, the non-associative connectives join exactly two
//! unit formulas, and `~` and quantifiers bind tighter than any binary
//! connective (`! [X] : p(X) => q` is `(! [X] : p(X)) => q`). Variables are
//! numbered per formula, one index per binding occurrence (so `! [X] : (p(X)
//! & ? [X] : q(X))` has two variables); free variables are read as
//! universally quantified at the top, as E and Vampire do.

use super::ast::{Entry, FofInput, Formula, Includer, ParsedClause, Role, SourceInfo};
use super::error::{ErrorKind, TptpError};
use super::lexer::{Lexer, Tok, Token, is_lower_word};
use crate::logic::{Literal, SymbolKind, TermId};
use smallvec::SmallVec;
use std::path::Path;

mod fof;

/// Deepest nesting the parser accepts (term depth, parentheses around a
/// clause, annotation terms). Deeper input is refused with
/// [`ErrorKind::TooDeep`] rather than risking a stack overflow here or in
/// the recursive term algorithms downstream.
pub const MAX_NESTING: usize = 1000;

/// An atomic formula: a literal, or a truth constant.
pub(super) enum Atomic {
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
pub(crate) struct FileParser<'s, 'x> {
    pub(super) lex: Lexer<'s>,
    pub(super) src: &'s str,
    pub(super) file: &'s Path,
    pub(super) dir: &'s Path,
    pub(super) cur: Token,
    pub(super) prev_end: usize,
    pub(super) reader: &'x mut dyn Includer,
    pub(super) vars: Vec<String>,
    /// The clauses read so far.
    pub entries: Vec<Entry>,
    /// Inside a `fof` formula: the bound variables in scope, innermost
    /// last, each with its index in `vars`.
    pub(super) scope: Option<Vec<(String, u32)>>,
    /// Inside a `fof` formula: the indices of its free variables.
    pub(super) free: Vec<u32>,
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

impl<'s, 'x> FileParser<'s, 'x> {
    /// A parser positioned on the first token of `src`.
    pub fn new(
        src: &'s str,
        file: &'s Path,
        dir: &'s Path,
        reader: &'x mut dyn Includer,
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
            scope: None,
            free: Vec::new(),
        })
    }

    /// The status word of the file's `% Status` line (seen so far).
    pub fn status(&self) -> Option<String> {
        self.lex.status.clone()
    }

    pub(super) fn advance(&mut self) -> Result<Token, TptpError> {
        let t = self.cur;
        self.prev_end = t.end;
        self.cur = self.lex.next_token()?;
        Ok(t)
    }

    pub(super) fn text(&self, t: Token) -> &'s str {
        &self.src[t.start..t.end]
    }

    pub(super) fn err_at(&self, t: Token, kind: ErrorKind) -> TptpError {
        TptpError::new(self.file, t.line, t.col, kind)
    }

    pub(super) fn expected(&self, what: &str) -> TptpError {
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

    pub(super) fn expect(&mut self, kind: Tok, what: &str) -> Result<Token, TptpError> {
        if self.cur.kind == kind {
            self.advance()
        } else {
            Err(self.expected(what))
        }
    }

    pub(super) fn at_op(&self, op: &str) -> bool {
        self.cur.kind == Tok::Op && self.text(self.cur) == op
    }

    /// After an item of a bracketed list: consumes `,` (more items
    /// follow, `false`) or `]` (the list ends, `true`).
    pub(super) fn list_end(&mut self) -> Result<bool, TptpError> {
        match self.cur.kind {
            Tok::Comma => {
                self.advance()?;
                Ok(false)
            }
            Tok::RBrack => {
                self.advance()?;
                Ok(true)
            }
            _ => Err(self.expected("',' or ']'")),
        }
    }

    pub(super) fn too_deep(&self) -> TptpError {
        self.err_at(self.cur, ErrorKind::TooDeep(MAX_NESTING))
    }

    /// `<TPTP_file>`: annotated formulas and includes up to the end.
    pub fn parse_file(&mut self) -> Result<(), TptpError> {
        let mut inputs = 0usize;
        while self.cur.kind != Tok::Eof {
            if self.cur.kind != Tok::Lower {
                return Err(self.expected("'cnf(', 'fof(' or 'include('"));
            }
            match self.text(self.cur) {
                "cnf" => self.cnf()?,
                "fof" => self.fof()?,
                "include" => self.include()?,
                w @ ("tff" | "thf" | "tcf" | "tpi") => {
                    return Err(self.err_at(self.cur, ErrorKind::Unsupported(w.to_uppercase())));
                }
                _ => return Err(self.expected("'cnf(', 'fof(' or 'include('")),
            }
            inputs += 1;
        }
        if inputs == 0 && !self.reader.allow_empty() {
            return Err(TptpError::new(self.file, 1, 1, ErrorKind::NoFormulas));
        }
        Ok(())
    }

    /// `<name> ::= <atomic_word> | <integer>`.
    pub(super) fn name(&mut self, what: &str) -> Result<String, TptpError> {
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
            clausified: None,
        };
        self.entries.push(Entry::Clause { clause, tautology });
        Ok(())
    }

    /// `<formula_role> ::= <lower_word> | <lower_word>-<general_term>`.
    pub(super) fn role(&mut self) -> Result<Role, TptpError> {
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
    pub(super) fn cnf_formula(&mut self) -> Result<(Vec<Literal>, bool), TptpError> {
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
                    let bank = self.reader.bank();
                    let t = bank.true_term();
                    lits.push(Literal::atom(bank, t, true));
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
    pub(super) fn atomic(&mut self, allow_neq: bool) -> Result<Atomic, TptpError> {
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
                let bank = self.reader.bank();
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
    pub(super) fn variable(&mut self, name: &str) -> TermId {
        if let Some(scope) = &self.scope {
            let i = match scope.iter().rev().find(|(n, _)| n == name) {
                Some(&(_, i)) => i,
                None => match self.free.iter().find(|&&i| self.vars[i as usize] == name) {
                    Some(&i) => i,
                    None => {
                        let i = self.vars.len() as u32;
                        self.vars.push(name.to_string());
                        self.free.push(i);
                        i
                    }
                },
            };
            return self.reader.bank().var(i);
        }
        let i = match self.vars.iter().position(|v| v == name) {
            Some(i) => i,
            None => {
                self.vars.push(name.to_string());
                self.vars.len() - 1
            }
        };
        self.reader.bank().var(i as u32)
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
                    let bank = self.reader.bank();
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
                    let bank = self.reader.bank();
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
                        let bank = self.reader.bank();
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
    pub(super) fn general_term(&mut self) -> Result<(), TptpError> {
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
                    if self.list_end()? {
                        break;
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
                if !entries.iter().any(|e| e.name() == n) {
                    return Err(self.err_at(
                        *nt,
                        ErrorKind::UnknownSelected {
                            name: n.clone(),
                            file: resolved,
                        },
                    ));
                }
            }
            entries.retain(|e| names.iter().any(|(n, _)| n == e.name()));
        }
        self.entries.extend(entries);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
