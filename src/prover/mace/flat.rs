//! Flattening for the finite model finder: clauses become shallow literals
//! over clause variables (McCune, MACE 2.0, 2001), with the reductions of
//! Claessen & Sörensson ("New techniques that improve MACE-style finite
//! model finding", 2003, §3-4) that cut the variables per clause and so the
//! ground clauses per domain size:
//!
//! - **term definitions** for ground compound terms: `f(a, g(b))` becomes a
//!   fresh constant `d` with the definition `f(a, d') = d`, `g(b) = d'`, so a
//!   clause pays one variable for it instead of one per subterm;
//! - **variable elimination**: a negative `X != Y` is removed by putting `X`
//!   for `Y`, and two definitions `f(x̄) != v`, `f(x̄) != w` of one term share
//!   their variable;
//! - **clause splitting** (§4, "clause splitting"): a clause `A | B` whose
//!   parts share only the variables `S` becomes `A | ~s(S)` and `s(S) | B`
//!   with a fresh predicate `s`, so the ground count is a sum instead of a
//!   product. Parts are chosen greedily, by variable elimination: the
//!   literals of the variable whose literals have the fewest variables are
//!   split off while that is fewer than the clause has (variable-disjoint
//!   parts are the case `S` empty).
//!
//! Every transformation keeps satisfiability over every domain, and a model
//! of the result restricted to the input symbols is a model of the input.

use crate::logic::{Head, Literal, SymbolId, TermBank, TermId};
use std::collections::BTreeMap;

/// A shallow literal over clause variables; symbols are indices into
/// [`Flat::syms`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Lit {
    /// `f(x1..xk) = y` (or `!=`).
    Fun {
        f: u32,
        args: Vec<u32>,
        res: u32,
        pos: bool,
    },
    /// `p(x1..xk)` (or its negation).
    Pred { p: u32, args: Vec<u32>, pos: bool },
    /// `x = y` (or `!=`).
    Eq { a: u32, b: u32, pos: bool },
}

impl Lit {
    fn vars(&self) -> impl Iterator<Item = u32> + '_ {
        let (args, extra): (&[u32], [Option<u32>; 2]) = match self {
            Lit::Fun { args, res, .. } => (args, [Some(*res), None]),
            Lit::Pred { args, .. } => (args, [None, None]),
            Lit::Eq { a, b, .. } => (&[], [Some(*a), Some(*b)]),
        };
        args.iter().copied().chain(extra.into_iter().flatten())
    }

    fn map(&mut self, f: impl Fn(u32) -> u32) {
        match self {
            Lit::Fun { args, res, .. } => {
                args.iter_mut().for_each(|a| *a = f(*a));
                *res = f(*res);
            }
            Lit::Pred { args, .. } => args.iter_mut().for_each(|a| *a = f(*a)),
            Lit::Eq { a, b, .. } => {
                *a = f(*a);
                *b = f(*b);
            }
        }
    }

    fn negated(&self) -> Lit {
        let mut l = self.clone();
        match &mut l {
            Lit::Fun { pos, .. } | Lit::Pred { pos, .. } | Lit::Eq { pos, .. } => *pos = !*pos,
        }
        l
    }
}

/// A flattened clause; variables are numbered densely from 0.
#[derive(Clone, Debug)]
pub(super) struct Clause {
    pub nvars: u32,
    pub lits: Vec<Lit>,
    /// Per variable: it is a side of a positive equation of the input
    /// clause (`X = t`). Its sort may then not be padded with copies of an
    /// element (see the sort module).
    pub bounded: Vec<bool>,
}

/// A symbol of the flattened problem.
#[derive(Clone, Debug)]
pub(super) struct Sym {
    /// The input symbol, `None` for a definition or split symbol.
    pub name: Option<SymbolId>,
    pub arity: u32,
    pub fun: bool,
    /// A TPTP distinct object or number.
    pub value: bool,
}

/// A flattened problem: symbols in order of first appearance, clauses.
#[derive(Clone, Debug, Default)]
pub(super) struct Flat {
    pub syms: Vec<Sym>,
    pub clauses: Vec<Clause>,
}

/// Builds a [`Flat`] problem clause by clause.
struct Builder<'a> {
    bank: &'a TermBank,
    out: Flat,
    sym_of: BTreeMap<(SymbolId, bool), u32>,
    /// Ground compound terms and the constant that names them.
    defs: BTreeMap<TermId, u32>,
    /// `saturate prove --cpu-limit`'s deadline, if any.
    deadline: Option<crate::deadline::Deadline>,
    /// The deadline passed while splitting: the output is incomplete.
    stopped: bool,
}

/// The flattening of one clause in progress.
#[derive(Default)]
struct ClauseBuf {
    vars: BTreeMap<u32, u32>,
    memo: Vec<(TermId, u32)>,
    next: u32,
    lits: Vec<Lit>,
    defs: Vec<Lit>,
    bounded: Vec<u32>,
    /// `$true` as a positive literal: the clause is a tautology.
    tautology: bool,
}

impl ClauseBuf {
    fn fresh(&mut self) -> u32 {
        self.next += 1;
        self.next - 1
    }
}

impl Builder<'_> {
    fn sym(&mut self, s: SymbolId, arity: usize, fun: bool) -> u32 {
        let out = &mut self.out;
        let value = fun && self.bank.sig.get(s).value.is_some();
        *self.sym_of.entry((s, fun)).or_insert_with(|| {
            out.syms.push(Sym {
                name: Some(s),
                arity: arity as u32,
                fun,
                value,
            });
            out.syms.len() as u32 - 1
        })
    }

    fn fresh_sym(&mut self, arity: u32, fun: bool) -> u32 {
        self.out.syms.push(Sym {
            name: None,
            arity,
            fun,
            value: false,
        });
        self.out.syms.len() as u32 - 1
    }

    /// The constant that stands for the ground term `t` (its own symbol
    /// when `t` is a constant); a compound term gets a definition clause.
    fn constant(&mut self, t: TermId) -> u32 {
        let b = self.bank;
        if b.args(t).is_empty() {
            return self.sym(b.sym(t), 0, true);
        }
        if let Some(&d) = self.defs.get(&t) {
            return d;
        }
        let args: Vec<u32> = b
            .args(t)
            .to_vec()
            .into_iter()
            .map(|a| self.constant(a))
            .collect();
        let f = self.sym(b.sym(t), args.len(), true);
        let d = self.fresh_sym(0, true);
        self.defs.insert(t, d);
        // f(c1..ck) = d, flat: c1 != v1 | ... | d != v0 | f(v1..vk) = v0.
        let k = args.len() as u32;
        let mut lits: Vec<Lit> = args
            .iter()
            .enumerate()
            .map(|(i, &c)| Lit::Fun {
                f: c,
                args: Vec::new(),
                res: i as u32 + 1,
                pos: false,
            })
            .collect();
        lits.push(Lit::Fun {
            f: d,
            args: Vec::new(),
            res: 0,
            pos: false,
        });
        lits.push(Lit::Fun {
            f,
            args: (1..=k).collect(),
            res: 0,
            pos: true,
        });
        self.push(Clause {
            nvars: k + 1,
            lits,
            bounded: vec![false; k as usize + 1],
        });
        d
    }

    fn var(&mut self, c: &mut ClauseBuf, i: u32) -> u32 {
        if let Some(&v) = c.vars.get(&i) {
            return v;
        }
        let v = c.fresh();
        c.vars.insert(i, v);
        v
    }

    /// A variable standing for `t`; a non-variable term gets a defining
    /// literal `t != v` (the clause reads "if t = v then ...").
    fn name(&mut self, c: &mut ClauseBuf, t: TermId) -> u32 {
        let b = self.bank;
        if let Head::Var(i) = b.head(t) {
            return self.var(c, i);
        }
        if let Some(&(_, v)) = c.memo.iter().find(|(u, _)| *u == t) {
            return v;
        }
        let (f, args) = if b.is_ground(t) {
            (self.constant(t), Vec::new())
        } else {
            let args = self.args(c, t);
            (self.sym(b.sym(t), args.len(), true), args)
        };
        let v = c.fresh();
        c.defs.push(Lit::Fun {
            f,
            args,
            res: v,
            pos: false,
        });
        c.memo.push((t, v));
        v
    }

    fn args(&mut self, c: &mut ClauseBuf, t: TermId) -> Vec<u32> {
        let args = self.bank.args(t).to_vec();
        args.into_iter().map(|a| self.name(c, a)).collect()
    }

    /// The shallow form of `f(args) = res` for a non-variable `t`.
    fn fun_lit(&mut self, c: &mut ClauseBuf, t: TermId, res: u32, pos: bool) -> Lit {
        let b = self.bank;
        if b.is_ground(t) {
            let f = self.constant(t);
            return Lit::Fun {
                f,
                args: Vec::new(),
                res,
                pos,
            };
        }
        let args = self.args(c, t);
        Lit::Fun {
            f: self.sym(b.sym(t), args.len(), true),
            args,
            res,
            pos,
        }
    }

    fn literal(&mut self, c: &mut ClauseBuf, l: &Literal) {
        let b = self.bank;
        if l.rhs == b.true_term() {
            if l.lhs == b.true_term() {
                c.tautology |= l.pos;
                return;
            }
            let args = self.args(c, l.lhs);
            let p = self.sym(b.sym(l.lhs), args.len(), false);
            c.lits.push(Lit::Pred {
                p,
                args,
                pos: l.pos,
            });
            return;
        }
        let lit = match (b.is_var(l.lhs), b.is_var(l.rhs)) {
            (true, true) => {
                let (x, y) = (self.name(c, l.lhs), self.name(c, l.rhs));
                if l.pos {
                    c.bounded.extend([x, y]);
                }
                Lit::Eq {
                    a: x,
                    b: y,
                    pos: l.pos,
                }
            }
            (false, true) | (true, false) => {
                let (t, x) = if b.is_var(l.rhs) {
                    (l.lhs, l.rhs)
                } else {
                    (l.rhs, l.lhs)
                };
                let x = self.name(c, x);
                if l.pos {
                    c.bounded.push(x);
                }
                self.fun_lit(c, t, x, l.pos)
            }
            (false, false) => {
                let res = self.name(c, l.rhs);
                self.fun_lit(c, l.lhs, res, l.pos)
            }
        };
        c.lits.push(lit);
    }

    fn clause(&mut self, lits: &[Literal]) {
        let mut c = ClauseBuf::default();
        for l in lits {
            self.literal(&mut c, l);
        }
        if c.tautology {
            return;
        }
        let mut all = std::mem::take(&mut c.lits);
        all.append(&mut c.defs);
        let mut bounded = vec![false; c.next as usize];
        for v in c.bounded {
            bounded[v as usize] = true;
        }
        self.push(Clause {
            nvars: c.next,
            lits: all,
            bounded,
        });
    }

    /// Simplifies `c`, splits it (see the module notes) and adds the parts.
    fn push(&mut self, c: Clause) {
        let Some(mut c) = simplify(c) else { return };
        let mut splits = 0usize;
        while let Some((part, shared)) = split_off(&c) {
            splits += 1;
            if splits % CLOCK_EVERY == 0 && self.deadline.is_some_and(|d| d.passed()) {
                self.stopped = true;
                return;
            }
            // part | ~s(shared)   and   rest | s(shared).
            let s = self.fresh_sym(shared.len() as u32, false);
            let mut lits = Vec::with_capacity(part.len() + 1);
            let mut rest = Vec::with_capacity(c.lits.len() - part.len() + 1);
            let mut inside = vec![false; c.lits.len()];
            for &i in &part {
                inside[i] = true;
            }
            for (i, l) in c.lits.drain(..).enumerate() {
                if inside[i] {
                    lits.push(l);
                } else {
                    rest.push(l);
                }
            }
            lits.push(Lit::Pred {
                p: s,
                args: shared.clone(),
                pos: false,
            });
            rest.push(Lit::Pred {
                p: s,
                args: shared,
                pos: true,
            });
            self.out.clauses.push(renumber(Clause {
                nvars: c.nvars,
                lits,
                bounded: c.bounded.clone(),
            }));
            c = renumber(Clause {
                nvars: c.nvars,
                lits: rest,
                bounded: c.bounded,
            });
        }
        self.out.clauses.push(c);
    }
}

/// The best part of `c` to split off, with the variables it shares with
/// the rest: for each variable `x`, the literals containing `x` (for `x`
/// occurring nowhere, nothing); the candidate with the fewest variables
/// wins (ties: smallest `x`) if it has fewer than the whole clause and is
/// not all of it. Each split removes at least `x` from the rest, so
/// splitting ends. Time: linear in the clause's size times its largest
/// literal's variable count (one index of the literals by variable, and a
/// stamp per variable to count a candidate's variables), so that splitting
/// a clause of `n` literals costs about `n` times its size, not `n^3`.
fn split_off(c: &Clause) -> Option<(Vec<usize>, Vec<u32>)> {
    if c.lits.len() < 2 {
        return None;
    }
    let nvars = c.nvars as usize;
    // Literals by variable (each literal once per variable), as one array
    // sliced by offsets: `at[x]..at[x + 1]` holds the literals of `x`.
    let mut at = vec![0usize; nvars + 1];
    let mut stamp = vec![usize::MAX; nvars];
    for (i, l) in c.lits.iter().enumerate() {
        for v in l.vars() {
            if stamp[v as usize] != i {
                stamp[v as usize] = i;
                at[v as usize + 1] += 1;
            }
        }
    }
    for x in 0..nvars {
        at[x + 1] += at[x];
    }
    let mut fill = at.clone();
    let mut index = vec![0usize; at[nvars]];
    stamp.fill(usize::MAX);
    for (i, l) in c.lits.iter().enumerate() {
        for v in l.vars() {
            if stamp[v as usize] != i {
                stamp[v as usize] = i;
                index[fill[v as usize]] = i;
                fill[v as usize] += 1;
            }
        }
    }
    let lits_of = |x: usize| &index[at[x]..at[x + 1]];
    let all = (0..nvars).filter(|&x| at[x + 1] > at[x]).count();
    stamp.fill(usize::MAX);
    let mut best: Option<(usize, u32)> = None;
    for x in 0..c.nvars {
        let part = lits_of(x as usize);
        if part.is_empty() || part.len() == c.lits.len() {
            continue;
        }
        let mut n = 0;
        for &i in part {
            for v in c.lits[i].vars() {
                if stamp[v as usize] != x as usize {
                    stamp[v as usize] = x as usize;
                    n += 1;
                }
            }
        }
        if n < all && best.is_none_or(|(m, _)| n < m) {
            best = Some((n, x));
        }
    }
    let (_, x) = best?;
    let part = lits_of(x as usize).to_vec();
    let mut inside = vec![false; c.lits.len()];
    for &i in &part {
        inside[i] = true;
    }
    let mut in_part = vec![false; nvars];
    for &i in &part {
        for v in c.lits[i].vars() {
            in_part[v as usize] = true;
        }
    }
    let mut shared_mask = vec![false; nvars];
    for (i, l) in c.lits.iter().enumerate() {
        if !inside[i] {
            for v in l.vars() {
                shared_mask[v as usize] |= in_part[v as usize];
            }
        }
    }
    let shared = (0..c.nvars).filter(|&v| shared_mask[v as usize]).collect();
    Some((part, shared))
}

/// Renumbers the variables of `c` densely in order of first occurrence.
fn renumber(mut c: Clause) -> Clause {
    let mut map = vec![u32::MAX; c.nvars as usize];
    let mut next = 0u32;
    for l in &c.lits {
        for v in l.vars() {
            if map[v as usize] == u32::MAX {
                map[v as usize] = next;
                next += 1;
            }
        }
    }
    let mut bounded = vec![false; next as usize];
    for (v, &m) in map.iter().enumerate() {
        if m != u32::MAX && c.bounded.get(v).copied().unwrap_or(false) {
            bounded[m as usize] = true;
        }
    }
    for l in &mut c.lits {
        l.map(|v| map[v as usize]);
    }
    c.nvars = next;
    c.bounded = bounded;
    c
}

/// Removes `X != Y` by substitution, merges two definitions of one term,
/// drops `X != X` and duplicate literals; `None` for a tautology
/// (`X = X`, or a literal and its negation).
fn simplify(mut c: Clause) -> Option<Clause> {
    loop {
        let mut subst: Option<(u32, u32)> = None;
        for (i, l) in c.lits.iter().enumerate() {
            if let Lit::Eq { a, b, pos: false } = *l
                && a != b
            {
                subst = Some((a.max(b), a.min(b)));
                break;
            }
            if let Lit::Fun {
                f,
                args,
                res,
                pos: false,
            } = l
            {
                let twin = c.lits[i + 1..].iter().find_map(|m| match m {
                    Lit::Fun {
                        f: g,
                        args: bs,
                        res: r,
                        pos: false,
                    } if g == f && bs == args && r != res => Some(*r),
                    _ => None,
                });
                if let Some(r) = twin {
                    subst = Some((r.max(*res), r.min(*res)));
                    break;
                }
            }
        }
        let Some((from, to)) = subst else { break };
        for l in &mut c.lits {
            l.map(|v| if v == from { to } else { v });
        }
        if c.bounded.get(from as usize).copied().unwrap_or(false) {
            c.bounded[to as usize] = true;
        }
    }
    let mut lits: Vec<Lit> = Vec::with_capacity(c.lits.len());
    // Literals kept so far, for the repeat and complement tests (a linear
    // scan per literal made long clauses quadratic).
    let mut seen: std::collections::HashSet<Lit> = std::collections::HashSet::new();
    for l in c.lits.drain(..) {
        match l {
            Lit::Eq { a, b, pos } if a == b => {
                if pos {
                    return None;
                }
                continue;
            }
            _ => {}
        }
        if seen.contains(&l) {
            continue;
        }
        if seen.contains(&l.negated()) {
            return None;
        }
        seen.insert(l.clone());
        lits.push(l);
    }
    c.lits = lits;
    Some(renumber(c))
}

/// Flattens `clauses` over `bank`.
#[cfg(test)]
pub(super) fn flatten(bank: &TermBank, clauses: &[&[Literal]]) -> Flat {
    flatten_until(bank, clauses, None).expect("no deadline")
}

/// Flattens `clauses` over `bank`; `None` once `deadline` has passed (read
/// between clauses and every [`CLOCK_EVERY`] splits).
pub(super) fn flatten_until(
    bank: &TermBank,
    clauses: &[&[Literal]],
    deadline: Option<crate::deadline::Deadline>,
) -> Option<Flat> {
    let mut b = Builder {
        bank,
        out: Flat::default(),
        sym_of: BTreeMap::new(),
        defs: BTreeMap::new(),
        deadline,
        stopped: false,
    };
    for c in clauses {
        if b.stopped || deadline.is_some_and(|d| d.passed()) {
            return None;
        }
        b.clause(c);
    }
    (!b.stopped).then_some(b.out)
}

/// A flattening kept open: a base set of clauses, then one extension at a
/// time over a bank that may have grown in between ([`super::extend`]).
/// Symbols stay numbered as first met across every extension; an
/// extension's clauses, its term definitions among them, are dropped by
/// [`Growing::reset`], so each extension reads as the base plus itself.
pub(super) struct Growing {
    pub out: Flat,
    sym_of: BTreeMap<(SymbolId, bool), u32>,
    defs: BTreeMap<TermId, u32>,
    base_clauses: usize,
    base_syms: usize,
    base_defs: BTreeMap<TermId, u32>,
}

impl Growing {
    /// The flattening of `base` over `bank`.
    pub fn new(bank: &TermBank, base: &[&[Literal]]) -> Growing {
        let mut g = Growing {
            out: Flat::default(),
            sym_of: BTreeMap::new(),
            defs: BTreeMap::new(),
            base_clauses: 0,
            base_syms: 0,
            base_defs: BTreeMap::new(),
        };
        for c in base {
            g.add(bank, c);
        }
        g.base_clauses = g.out.clauses.len();
        g.base_syms = g.out.syms.len();
        g.base_defs = g.defs.clone();
        g
    }

    /// Flattens `lits` over `bank` after the clauses so far.
    pub fn add(&mut self, bank: &TermBank, lits: &[Literal]) {
        let mut b = Builder {
            bank,
            out: std::mem::take(&mut self.out),
            sym_of: std::mem::take(&mut self.sym_of),
            defs: std::mem::take(&mut self.defs),
            deadline: None,
            stopped: false,
        };
        b.clause(lits);
        self.out = b.out;
        self.sym_of = b.sym_of;
        self.defs = b.defs;
    }

    /// How many clauses the base flattened to.
    pub fn base_clauses(&self) -> usize {
        self.base_clauses
    }

    /// How many symbols the base has.
    pub fn base_syms(&self) -> usize {
        self.base_syms
    }

    /// Drops every clause and term definition made after the base; the
    /// symbols stay.
    pub fn reset(&mut self) {
        self.out.clauses.truncate(self.base_clauses);
        self.defs.clone_from(&self.base_defs);
    }
}

/// Splits between two reads of the clock when flattening has a deadline.
const CLOCK_EVERY: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tptp::parse_clause_str;

    fn flat(text: &[&str]) -> Flat {
        let mut bank = TermBank::new();
        let cs: Vec<Vec<Literal>> = text
            .iter()
            .map(|t| parse_clause_str(&mut bank, t).expect("clause parses"))
            .collect();
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        flatten(&bank, &refs)
    }

    #[test]
    fn negative_variable_equations_are_substituted() {
        let f = flat(&["X != Y | p(X, Y, Z)"]);
        assert_eq!(f.clauses.len(), 1);
        assert_eq!(f.clauses[0].nvars, 2);
        assert_eq!(
            f.clauses[0].lits,
            vec![Lit::Pred {
                p: 0,
                args: vec![0, 0, 1],
                pos: true
            }]
        );
    }

    #[test]
    fn tautologies_vanish() {
        assert!(flat(&["X = X | p(X)"]).clauses.is_empty());
        assert!(flat(&["p(X) | ~p(X)"]).clauses.is_empty());
        assert!(flat(&["$true | p(X)"]).clauses.is_empty());
    }

    #[test]
    fn ground_terms_get_one_definition() {
        // p(X, f(g(a))) and q(f(g(a))): f(g(a)) and g(a) named once.
        let f = flat(&["p(X, f(g(a)))", "q(f(g(a)))"]);
        let defs = f.syms.iter().filter(|s| s.name.is_none()).count();
        assert_eq!(defs, 2);
        // The clause p(X, d) has two variables: X and the name of d.
        let p = f
            .clauses
            .iter()
            .find(|c| {
                c.lits
                    .iter()
                    .any(|l| matches!(l, Lit::Pred { args, .. } if args.len() == 2))
            })
            .unwrap();
        assert_eq!(p.nvars, 2);
    }

    #[test]
    fn variable_disjoint_literals_are_split() {
        let f = flat(&["p(X) | q(Y)"]);
        // p(X) | ~s, q(Y) | s.
        assert_eq!(f.clauses.len(), 2);
        assert!(f.clauses.iter().all(|c| c.nvars == 1 && c.lits.len() == 2));
        assert_eq!(f.syms.iter().filter(|s| s.name.is_none()).count(), 1);
    }

    /// A chain of literals linked by one variable each splits into parts of
    /// two variables, whatever its length.
    #[test]
    fn chains_split_into_small_parts() {
        let f = flat(&["~r(X1, X2) | ~r(X2, X3) | ~r(X3, X4) | ~r(X4, X5) | r(X5, X1)"]);
        assert!(f.clauses.len() > 1);
        assert!(f.clauses.iter().all(|c| c.nvars <= 3), "{:?}", f.clauses);
        // The products of the parts' domains are far below 5^5 at size 5.
        let ground: u64 = f.clauses.iter().map(|c| 5u64.pow(c.nvars)).sum();
        assert!(ground < 5u64.pow(5) / 4, "{ground}");
    }

    /// Nested terms of a TOP axiom: nine flat variables, parts of at most
    /// six after splitting.
    #[test]
    fn nested_terms_split_by_variable_elimination() {
        let f = flat(&[
            "meet(interior(X0), meet(interior(X1), X2)) = meet(interior(meet(X1, X0)), X2)",
        ]);
        let widest = f.clauses.iter().map(|c| c.nvars).max().unwrap();
        assert!(widest <= 6, "{widest}");
    }

    #[test]
    fn positive_variable_equations_mark_their_variables() {
        let f = flat(&["f(X) = Y | p(Y)", "f(X) != Y | p(X)"]);
        assert_eq!(f.clauses[0].bounded, vec![false, true]);
        assert!(f.clauses[1].bounded.iter().all(|b| !b));
    }
}
