//! The checker's own reader of the TPTP clause texts in certificates: a
//! lexer (numbers, `$$` words, distinct objects) and a recursive-descent
//! clause parser with bounded nesting ([`MAX_TERM_DEPTH`]).

use super::problem::{CheckError, err};
use super::terms::{Clause, L, Syms, T};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Lower(String),
    Upper(String),
    Dollar(String),
    LParen,
    RParen,
    Comma,
    Bar,
    Tilde,
    Eq,
    Neq,
}

pub(super) fn lex(text: &str) -> Result<Vec<Tok>, CheckError> {
    let cs: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < cs.len() {
        let c = cs[i];
        match c {
            ' ' | '\t' | '\n' | '\r' => i += 1,
            '(' => {
                out.push(Tok::LParen);
                i += 1
            }
            ')' => {
                out.push(Tok::RParen);
                i += 1
            }
            ',' => {
                out.push(Tok::Comma);
                i += 1
            }
            '|' => {
                out.push(Tok::Bar);
                i += 1
            }
            '~' => {
                out.push(Tok::Tilde);
                i += 1
            }
            '=' => {
                out.push(Tok::Eq);
                i += 1
            }
            '!' if cs.get(i + 1) == Some(&'=') => {
                out.push(Tok::Neq);
                i += 2
            }
            '\'' | '"' => {
                let q = c;
                let start = i;
                i += 1;
                while i < cs.len() && cs[i] != q {
                    if cs[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= cs.len() {
                    return err(format!(
                        "unterminated quoted name in `{}`",
                        abbreviate(text)
                    ));
                }
                i += 1;
                out.push(Tok::Lower(cs[start..i].iter().collect()));
            }
            _ if c.is_ascii_digit()
                || ((c == '+' || c == '-')
                    && cs.get(i + 1).is_some_and(|d| d.is_ascii_digit())) =>
            {
                let end = scan_number(&cs, i).ok_or_else(|| {
                    CheckError::refused(format!(
                        "malformed number in clause `{}`",
                        abbreviate(text)
                    ))
                })?;
                out.push(Tok::Lower(cs[i..end].iter().collect()));
                i = end;
            }
            _ if c.is_alphanumeric() || c == '_' || c == '$' => {
                let start = i;
                i += 1;
                if c == '$' && cs.get(i) == Some(&'$') {
                    i += 1;
                }
                while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                    i += 1;
                }
                let w: String = cs[start..i].iter().collect();
                out.push(if c == '$' {
                    Tok::Dollar(w)
                } else if c.is_uppercase() || c == '_' {
                    Tok::Upper(w)
                } else {
                    Tok::Lower(w)
                });
            }
            _ => {
                return err(format!(
                    "unexpected character `{c}` in clause `{}`",
                    abbreviate(text)
                ));
            }
        }
    }
    Ok(out)
}

/// The end of the TPTP number starting at `i` (optional sign, digits, then
/// `/digits`, or `.digits` and/or an exponent), or `None` if malformed. A
/// number must not run into a word character (`1a`).
pub(super) fn scan_number(cs: &[char], mut i: usize) -> Option<usize> {
    let digits = |cs: &[char], mut i: usize| {
        let start = i;
        while i < cs.len() && cs[i].is_ascii_digit() {
            i += 1;
        }
        (i > start).then_some(i)
    };
    if cs[i] == '+' || cs[i] == '-' {
        i += 1;
    }
    i = digits(cs, i)?;
    if cs.get(i) == Some(&'/') {
        i = digits(cs, i + 1)?;
    } else {
        if cs.get(i) == Some(&'.') {
            i = digits(cs, i + 1)?;
        }
        if matches!(cs.get(i), Some('e' | 'E')) {
            let mut j = i + 1;
            if matches!(cs.get(j), Some('+' | '-')) {
                j += 1;
            }
            i = digits(cs, j)?;
        }
    }
    if cs.get(i).is_some_and(|c| c.is_alphanumeric() || *c == '_') {
        return None;
    }
    Some(i)
}

/// Deepest term nesting the checker reads. Deeper certificates are refused
/// with a clear error instead of overflowing the stack in the recursive
/// term functions (the search itself refuses inputs nested deeper than
/// [`crate::tptp::MAX_NESTING`] and bounds clause weights).
pub const MAX_TERM_DEPTH: usize = 2_000;

/// A parsed term before symbols are resolved.
pub(super) enum Pt {
    Var(String),
    App(String, Vec<Pt>),
}

/// At most the first 120 characters of a clause text, for error messages.
pub(super) fn abbreviate(text: &str) -> String {
    match text.char_indices().nth(120) {
        Some((k, _)) => format!("{}...", &text[..k]),
        None => text.to_string(),
    }
}

pub(super) struct Parser {
    pub(super) toks: Vec<Tok>,
    pub(super) i: usize,
    /// The clause text, abbreviated, for error messages.
    pub(super) text: String,
    pub(super) vars: Vec<String>,
}

impl Parser {
    pub(super) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }

    pub(super) fn expect(&mut self, t: Tok) -> Result<(), CheckError> {
        if self.peek() == Some(&t) {
            self.i += 1;
            Ok(())
        } else {
            err(format!("expected {t:?} in clause `{}`", self.text))
        }
    }

    pub(super) fn term(&mut self, depth: usize) -> Result<Pt, CheckError> {
        if depth > MAX_TERM_DEPTH {
            return err(format!(
                "a term is nested deeper than {MAX_TERM_DEPTH} in clause `{}`",
                self.text
            ));
        }
        match self.toks.get(self.i).cloned() {
            Some(Tok::Upper(v)) => {
                self.i += 1;
                Ok(Pt::Var(v))
            }
            Some(Tok::Lower(f)) | Some(Tok::Dollar(f)) => {
                self.i += 1;
                let mut args = Vec::new();
                if self.peek() == Some(&Tok::LParen) {
                    self.i += 1;
                    args.push(self.term(depth + 1)?);
                    while self.peek() == Some(&Tok::Comma) {
                        self.i += 1;
                        args.push(self.term(depth + 1)?);
                    }
                    self.expect(Tok::RParen)?;
                }
                Ok(Pt::App(f, args))
            }
            _ => err(format!("expected a term in clause `{}`", self.text)),
        }
    }

    pub(super) fn resolve(&mut self, syms: &mut Syms, t: &Pt, pred: bool) -> T {
        match t {
            Pt::Var(v) => {
                let i = match self.vars.iter().position(|w| w == v) {
                    Some(i) => i,
                    None => {
                        self.vars.push(v.clone());
                        self.vars.len() - 1
                    }
                };
                T::V(i as u32)
            }
            Pt::App(f, args) => {
                let id = syms.id(f, args.len() as u32, pred);
                T::F(
                    id,
                    args.iter().map(|a| self.resolve(syms, a, false)).collect(),
                )
            }
        }
    }

    /// A literal, or `None` for `$false` (dropped).
    pub(super) fn literal(
        &mut self,
        syms: &mut Syms,
        depth: usize,
    ) -> Result<Option<L>, CheckError> {
        let mut pos = true;
        while self.peek() == Some(&Tok::Tilde) {
            self.i += 1;
            pos = !pos;
        }
        if self.peek() == Some(&Tok::LParen) {
            if depth > MAX_TERM_DEPTH {
                return err(format!(
                    "parentheses nested deeper than {MAX_TERM_DEPTH} in clause `{}`",
                    self.text
                ));
            }
            self.i += 1;
            let l = self.literal(syms, depth + 1)?;
            self.expect(Tok::RParen)?;
            return Ok(l.map(|mut l| {
                l.pos = l.pos == pos;
                l
            }));
        }
        let a = self.term(0)?;
        let (eq, neg) = match self.peek() {
            Some(Tok::Eq) => (true, false),
            Some(Tok::Neq) => (true, true),
            _ => (false, false),
        };
        if eq {
            self.i += 1;
            let b = self.term(0)?;
            return Ok(Some(L {
                pos: pos != neg,
                a: self.resolve(syms, &a, false),
                b: Some(self.resolve(syms, &b, false)),
            }));
        }
        if let Pt::App(f, args) = &a
            && f == "$false"
            && args.is_empty()
        {
            return Ok(if pos {
                None
            } else {
                Some(L {
                    pos: true,
                    a: T::F(syms.id("$true", 0, true), Vec::new()),
                    b: None,
                })
            });
        }
        Ok(Some(L {
            pos,
            a: self.resolve(syms, &a, true),
            b: None,
        }))
    }
}

pub(super) fn parse_clause(syms: &mut Syms, text: &str) -> Result<Clause, CheckError> {
    parse_named(syms, text).map(|(c, _)| c)
}

/// A clause and the names of its variables, by index.
pub(super) fn parse_named(
    syms: &mut Syms,
    text: &str,
) -> Result<(Clause, Vec<String>), CheckError> {
    let mut p = Parser {
        toks: lex(text)?,
        i: 0,
        text: abbreviate(text),
        vars: Vec::new(),
    };
    // Strip parentheses around the whole clause: pair them in one pass.
    let partner = paren_partners(&p.toks);
    let n = p.toks.len();
    let mut depth = 0;
    while 2 * depth + 1 < n && p.toks[depth] == Tok::LParen && partner[depth] == Some(n - 1 - depth)
    {
        depth += 1;
    }
    p.i = depth;
    p.toks.truncate(n - depth);
    let mut c = Vec::new();
    if let Some(l) = p.literal(syms, 0)? {
        c.push(l);
    }
    while p.peek() == Some(&Tok::Bar) {
        p.i += 1;
        if let Some(l) = p.literal(syms, 0)? {
            c.push(l);
        }
    }
    if p.i != p.toks.len() {
        return err(format!("trailing input in clause `{}`", p.text));
    }
    Ok((c, p.vars))
}

/// A term over the variable names `vars` (new names are appended).
pub(super) fn parse_term(
    syms: &mut Syms,
    text: &str,
    vars: &mut Vec<String>,
) -> Result<T, CheckError> {
    let mut p = Parser {
        toks: lex(text)?,
        i: 0,
        text: abbreviate(text),
        vars: std::mem::take(vars),
    };
    let t = p.term(0);
    let t = t.and_then(|t| {
        if p.i != p.toks.len() {
            return err(format!("trailing input in term `{}`", p.text));
        }
        Ok(p.resolve(syms, &t, false))
    });
    *vars = p.vars;
    t
}

/// For each opening parenthesis, the index of its closing partner.
pub(super) fn paren_partners(toks: &[Tok]) -> Vec<Option<usize>> {
    let mut partner = vec![None; toks.len()];
    let mut open = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        match t {
            Tok::LParen => open.push(k),
            Tok::RParen => {
                if let Some(o) = open.pop() {
                    partner[o] = Some(k);
                }
            }
            _ => {}
        }
    }
    partner
}
