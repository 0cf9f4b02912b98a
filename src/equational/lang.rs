//! The EQ language (spec `pl_eq.md` §5.1): the fixed ProofGrid signature,
//! terms in the project's hash-consed [`TermBank`], named variables, named
//! equations, Dewey positions, a tolerant parser and the compact printer.
//!
//! Terms are ordinary bank terms; variables are bank variables `X<i>` whose
//! printed names (`V186772`, `X`) are kept in [`World`]. Positions are stored
//! 0-based (argument indices, as [`TermBank::at`] expects) and shown 1-based
//! (Dewey notation, `[]` = root) at every boundary with the outside world.

use crate::logic::{Head, SymbolId, SymbolKind, TermBank, TermId};
use rustc_hash::FxHashMap;
use std::fmt;

/// The constants of the signature.
pub const CONSTANTS: [&str; 5] = ["a", "b", "c", "d", "e"];
/// Function symbol stems by arity (index = arity - 1); each stem `s` gives
/// `s, s1, ..., s5`.
pub const STEMS: [&str; 4] = ["f", "g", "h", "r"];

/// A position inside a term: 0-based argument indices from the root.
pub type Pos = Vec<u32>;

/// One equation `L = R` with its name (`E1`, ...). Variables are implicitly
/// universally closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equation {
    /// The name cited in proofs.
    pub name: String,
    /// Left-hand side; never a bare variable.
    pub lhs: TermId,
    /// Right-hand side.
    pub rhs: TermId,
}

/// A parse error with the byte offset where it was noticed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset in the input.
    pub at: usize,
    /// What was wrong.
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at offset {}: {}", self.at, self.msg)
    }
}

impl std::error::Error for ParseError {}

/// The world one instance lives in: a term bank over the EQ signature and the
/// names of its variables. Each instance owns one, so generation is
/// independent of thread scheduling.
#[derive(Clone, Debug)]
pub struct World {
    /// The terms.
    pub bank: TermBank,
    by_arity: [Vec<SymbolId>; 5],
    var_names: Vec<String>,
    var_by_name: FxHashMap<String, u32>,
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

impl World {
    /// A world with the whole signature declared (in a fixed order, so symbol
    /// ids are the same in every world).
    pub fn new() -> World {
        let mut bank = TermBank::new();
        let mut by_arity: [Vec<SymbolId>; 5] = Default::default();
        for c in CONSTANTS {
            by_arity[0].push(bank.sig.intern(c, 0, SymbolKind::Function));
        }
        for (i, stem) in STEMS.iter().enumerate() {
            let arity = i as u32 + 1;
            by_arity[i + 1].push(bank.sig.intern(stem, arity, SymbolKind::Function));
            for k in 1..=5 {
                let name = format!("{stem}{k}");
                by_arity[i + 1].push(bank.sig.intern(&name, arity, SymbolKind::Function));
            }
        }
        World {
            bank,
            by_arity,
            var_names: Vec::new(),
            var_by_name: FxHashMap::default(),
        }
    }

    /// The symbols of one arity (0..=4), in signature order.
    pub fn symbols(&self, arity: usize) -> &[SymbolId] {
        &self.by_arity[arity]
    }

    /// Every function symbol and constant, in signature order.
    pub fn all_symbols(&self) -> impl Iterator<Item = SymbolId> + '_ {
        self.by_arity.iter().flatten().copied()
    }

    /// The printed name of a symbol.
    pub fn sym_name(&self, s: SymbolId) -> &str {
        &self.bank.sig.get(s).name
    }

    /// The arity of a symbol.
    pub fn arity_of(&self, s: SymbolId) -> usize {
        self.bank.sig.get(s).arity as usize
    }

    /// The variable with this printed name, created if new.
    pub fn named_var(&mut self, name: &str) -> TermId {
        let i = match self.var_by_name.get(name) {
            Some(&i) => i,
            None => {
                let i = self.var_names.len() as u32;
                self.var_names.push(name.to_string());
                self.var_by_name.insert(name.to_string(), i);
                i
            }
        };
        self.bank.var(i)
    }

    /// The printed name of variable index `i` (`X<i>` if it was never named).
    pub fn var_name(&self, i: u32) -> String {
        self.var_names
            .get(i as usize)
            .cloned()
            .unwrap_or_else(|| format!("X{i}"))
    }

    /// Prints a term without spaces, for example `g(a,f(V1))`.
    pub fn show(&self, t: TermId) -> String {
        let mut s = String::new();
        self.write_term(t, &mut s);
        s
    }

    fn write_term(&self, t: TermId, out: &mut String) {
        match self.bank.head(t) {
            Head::Var(v) => out.push_str(&self.var_name(v)),
            Head::Sym(f) => {
                out.push_str(self.sym_name(f));
                let args = self.bank.args(t);
                if !args.is_empty() {
                    out.push('(');
                    for (i, &a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        self.write_term(a, out);
                    }
                    out.push(')');
                }
            }
        }
    }

    /// Prints an equation as `L = R`.
    pub fn show_equation(&self, e: &Equation) -> String {
        format!("{} = {}", self.show(e.lhs), self.show(e.rhs))
    }

    /// Parses a term. Spaces are tolerated anywhere between tokens.
    /// With `allow_vars` false, an upper-case identifier is an error (the
    /// terms of a proof are ground).
    pub fn parse_term(&mut self, text: &str, allow_vars: bool) -> Result<TermId, ParseError> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let t = self.parse_rec(&mut p, allow_vars, 0)?;
        p.skip_ws();
        if p.i != p.s.len() {
            return Err(p.err("unexpected text after the term"));
        }
        Ok(t)
    }

    /// Parses `L = R` (the name is given separately). L must not be a bare
    /// variable.
    pub fn parse_equation(&mut self, name: &str, text: &str) -> Result<Equation, ParseError> {
        let Some(eq) = text.find('=') else {
            return Err(ParseError {
                at: 0,
                msg: "expected `L = R`".into(),
            });
        };
        let lhs = self.parse_term(&text[..eq], true)?;
        let rhs = self
            .parse_term(&text[eq + 1..], true)
            .map_err(|e| ParseError {
                at: e.at + eq + 1,
                msg: e.msg,
            })?;
        if self.bank.is_var(lhs) {
            return Err(ParseError {
                at: 0,
                msg: "the left-hand side is a bare variable".into(),
            });
        }
        Ok(Equation {
            name: name.to_string(),
            lhs,
            rhs,
        })
    }

    fn parse_rec(
        &mut self,
        p: &mut Parser<'_>,
        allow_vars: bool,
        depth: usize,
    ) -> Result<TermId, ParseError> {
        if depth > 200 {
            return Err(p.err("term nested too deeply"));
        }
        p.skip_ws();
        let start = p.i;
        let name = p
            .ident()
            .ok_or_else(|| p.err("expected a symbol or variable"))?;
        let first = name.as_bytes()[0];
        if first.is_ascii_uppercase() {
            if !allow_vars {
                return Err(ParseError {
                    at: start,
                    msg: format!("variable `{name}` in a term that must be ground"),
                });
            }
            p.skip_ws();
            if p.peek() == Some(b'(') {
                return Err(p.err("a variable cannot take arguments"));
            }
            return Ok(self.named_var(name));
        }
        let mut args = Vec::new();
        p.skip_ws();
        if p.peek() == Some(b'(') {
            p.i += 1;
            loop {
                args.push(self.parse_rec(p, allow_vars, depth + 1)?);
                p.skip_ws();
                match p.peek() {
                    Some(b',') => p.i += 1,
                    Some(b')') => {
                        p.i += 1;
                        break;
                    }
                    _ => return Err(p.err("expected `,` or `)`")),
                }
            }
        }
        let arity = args.len() as u32;
        let Some(sym) = self.bank.sig.lookup(name, arity, SymbolKind::Function) else {
            return Err(ParseError {
                at: start,
                msg: format!("unknown symbol `{name}` with {arity} argument(s)"),
            });
        };
        Ok(self.bank.app(sym, &args))
    }

    /// The subterm at `pos`, or `None` if the position does not exist.
    pub fn subterm(&self, t: TermId, pos: &[u32]) -> Option<TermId> {
        let mut t = t;
        for &i in pos {
            if i as usize >= self.bank.arity(t) {
                return None;
            }
            t = self.bank.arg(t, i as usize);
        }
        Some(t)
    }

    /// Every position of `t`, in pre-order (root first).
    pub fn positions(&self, t: TermId) -> Vec<Pos> {
        let mut out = Vec::new();
        let mut cur = Vec::new();
        self.positions_rec(t, &mut cur, &mut out);
        out
    }

    fn positions_rec(&self, t: TermId, cur: &mut Pos, out: &mut Vec<Pos>) {
        out.push(cur.clone());
        for i in 0..self.bank.arity(t) {
            cur.push(i as u32);
            self.positions_rec(self.bank.arg(t, i), cur, out);
            cur.pop();
        }
    }

    /// The symbols occurring in `t` (with repetitions), pushed to `out`.
    pub fn symbols_in(&self, t: TermId, out: &mut Vec<SymbolId>) {
        if let Head::Sym(f) = self.bank.head(t) {
            out.push(f);
            for &a in self.bank.args(t) {
                self.symbols_in(a, out);
            }
        }
    }

    /// True if symbol `f` occurs in `t`.
    pub fn contains_symbol(&self, t: TermId, f: SymbolId) -> bool {
        match self.bank.head(t) {
            Head::Var(_) => false,
            Head::Sym(g) => {
                g == f
                    || self
                        .bank
                        .args(t)
                        .iter()
                        .any(|&a| self.contains_symbol(a, f))
            }
        }
    }

    /// The distinct variable indices of `t`, in first-occurrence order.
    pub fn vars_of(&self, t: TermId, out: &mut Vec<u32>) {
        if self.bank.is_ground(t) {
            return;
        }
        match self.bank.head(t) {
            Head::Var(v) => {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            Head::Sym(_) => {
                for &a in self.bank.args(t) {
                    self.vars_of(a, out);
                }
            }
        }
    }

    /// Depth of a term (a constant or variable has depth 1).
    pub fn depth(&self, t: TermId) -> usize {
        1 + self
            .bank
            .args(t)
            .iter()
            .map(|&a| self.depth(a))
            .max()
            .unwrap_or(0)
    }
}

/// Dewey notation of a position: 1-based, for example `[2,1]`.
pub fn dewey(pos: &[u32]) -> Vec<u32> {
    pos.iter().map(|&i| i + 1).collect()
}

/// The 0-based position of a Dewey list; `None` if an index is 0.
pub fn from_dewey(d: &[u32]) -> Option<Pos> {
    d.iter().map(|&i| i.checked_sub(1)).collect()
}

/// True if neither position is a prefix of the other.
pub fn disjoint(p: &[u32], q: &[u32]) -> bool {
    !(p.starts_with(q) || q.starts_with(p))
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ident(&mut self) -> Option<&'a str> {
        let start = self.i;
        if !self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            return None;
        }
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).ok()
    }

    fn err(&self, msg: &str) -> ParseError {
        ParseError {
            at: self.i,
            msg: msg.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_print_round_trip_with_spaces_and_vars() {
        let mut w = World::new();
        let t = w.parse_term(" g( a , f4( V186772 ) ) ", true).unwrap();
        assert_eq!(w.show(t), "g(a,f4(V186772))");
        let u = w.parse_term("g(a,f4(V186772))", true).unwrap();
        assert_eq!(t, u);
        let e = w.parse_equation("E1", "h(V,V2,V) = g2(V,V2)").unwrap();
        assert_eq!(w.show_equation(&e), "h(V,V2,V) = g2(V,V2)");
    }

    #[test]
    fn parse_errors_are_reported() {
        let mut w = World::new();
        assert!(w.parse_term("g(a)", false).is_err(), "wrong arity");
        assert!(w.parse_term("q(a)", false).is_err(), "unknown symbol");
        assert!(
            w.parse_term("f(X)", false).is_err(),
            "variable in ground term"
        );
        assert!(w.parse_term("f(a", false).is_err());
        assert!(w.parse_term("f(a) b", false).is_err());
        assert!(w.parse_term("X(a)", true).is_err());
        assert!(w.parse_equation("E1", "X = f(X)").is_err());
        assert!(w.parse_equation("E1", "f(X)").is_err());
    }

    #[test]
    fn positions_are_dewey_at_the_boundary() {
        let mut w = World::new();
        let t = w.parse_term("g(g4(f3(d),b),h5(b,c,e))", false).unwrap();
        let p = from_dewey(&[1, 1]).unwrap();
        assert_eq!(w.show(w.subterm(t, &p).unwrap()), "f3(d)");
        assert_eq!(dewey(&p), vec![1, 1]);
        assert!(w.subterm(t, &[1, 3]).is_none());
        assert_eq!(from_dewey(&[0]), None);
        assert!(disjoint(&[0, 1], &[1]));
        assert!(!disjoint(&[0], &[0, 1]));
        assert!(!disjoint(&[], &[0]));
        assert_eq!(w.positions(t).len(), w.bank.weight(t) as usize);
    }
}
