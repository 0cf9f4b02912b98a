//! Independent certificate checker (DESIGN.md §6). It shares no code with
//! the search: its own clause parser (for the TPTP text in certificates), its
//! own tree terms, unification, matching and inference rules. A refutation
//! is checked step by step: each clause must be, up to variable renaming, a
//! conclusion of its rule applied to its parents followed by its recorded
//! simplifications; inputs must be problem clauses (or the Skolemised
//! negation of the conjecture, with fresh, pairwise distinct constants); the
//! last step must be the empty clause. A finite model is evaluated on every
//! clause under every assignment. The rules are checked for soundness only,
//! without the ordering restrictions the search applies, which is all a
//! certificate needs.

use super::{Evidence, FiniteModel, ProofStep, Refutation, Verdict};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// The problem a certificate is about, as TPTP clause texts.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CheckProblem {
    /// Premise clauses (for a refutation problem: every clause).
    pub axioms: Vec<String>,
    /// The conjecture clause, when the question is entailment.
    pub conjecture: Option<String>,
}

/// What a successful check established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// Every step of a refutation was re-derived.
    Refutation {
        /// Number of steps checked.
        steps: usize,
    },
    /// The model satisfies every premise (and falsifies the conjecture).
    Model {
        /// Domain size.
        size: u32,
    },
    /// A saturated-set certificate: it is not re-checkable here (it would
    /// need the redundancy of every inference); callers that need a checked
    /// negative label must require a model.
    SaturationNotCheckable,
    /// An `Unknown` verdict has nothing to check.
    Nothing,
}

/// Why a certificate was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError(pub String);

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CheckError {}

fn err<T>(msg: impl Into<String>) -> Result<T, CheckError> {
    Err(CheckError(msg.into()))
}

/// Checks a verdict's certificate against the problem.
pub fn check(problem: &CheckProblem, verdict: &Verdict) -> Result<Checked, CheckError> {
    match verdict {
        Verdict::Theorem { refutation } => check_refutation(problem, refutation),
        Verdict::CounterSatisfiable {
            evidence: Evidence::Model { model },
        } => check_model(problem, model),
        Verdict::CounterSatisfiable {
            evidence: Evidence::Saturation { clauses },
        } => {
            let mut syms = Syms::default();
            for c in clauses {
                let c = parse_clause(&mut syms, c)?;
                if c.is_empty() {
                    return err("saturated set contains the empty clause");
                }
            }
            Ok(Checked::SaturationNotCheckable)
        }
        Verdict::Unknown => Ok(Checked::Nothing),
    }
}

// ---------------------------------------------------------------- terms

/// A first-order term as a tree.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum T {
    V(u32),
    F(u32, Vec<T>),
}

/// A literal: an equation `a = b` (`b` present) or a predicate atom `a`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct L {
    pos: bool,
    a: T,
    b: Option<T>,
}

type Clause = Vec<L>;

/// Symbols by (name, arity, is-predicate).
#[derive(Default)]
struct Syms {
    names: Vec<(String, u32, bool)>,
    map: HashMap<(String, u32, bool), u32>,
}

impl Syms {
    fn id(&mut self, name: &str, arity: u32, pred: bool) -> u32 {
        let key = (name.to_string(), arity, pred);
        if let Some(&i) = self.map.get(&key) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(key.clone());
        self.map.insert(key, i);
        i
    }
}

fn max_var(t: &T) -> Option<u32> {
    match t {
        T::V(i) => Some(*i),
        T::F(_, args) => args.iter().filter_map(max_var).max(),
    }
}

fn clause_vars(c: &Clause) -> u32 {
    c.iter()
        .flat_map(|l| [max_var(&l.a), l.b.as_ref().and_then(max_var)])
        .flatten()
        .max()
        .map_or(0, |m| m + 1)
}

fn shift(t: &T, by: u32) -> T {
    match t {
        T::V(i) => T::V(i + by),
        T::F(f, args) => T::F(*f, args.iter().map(|a| shift(a, by)).collect()),
    }
}

fn shift_clause(c: &Clause, by: u32) -> Clause {
    c.iter()
        .map(|l| L {
            pos: l.pos,
            a: shift(&l.a, by),
            b: l.b.as_ref().map(|b| shift(b, by)),
        })
        .collect()
}

// ----------------------------------------------------------- unification

type Sub = Vec<Option<T>>;

fn deref<'a>(mut t: &'a T, s: &'a Sub) -> &'a T {
    while let T::V(i) = t {
        match s.get(*i as usize).and_then(|x| x.as_ref()) {
            Some(u) => t = u,
            None => break,
        }
    }
    t
}

fn occurs(v: u32, t: &T, s: &Sub) -> bool {
    match deref(t, s) {
        T::V(i) => *i == v,
        T::F(_, args) => args.iter().any(|a| occurs(v, a, s)),
    }
}

fn bind(s: &mut Sub, v: u32, t: T) {
    if s.len() <= v as usize {
        s.resize(v as usize + 1, None);
    }
    s[v as usize] = Some(t);
}

fn unify(a: &T, b: &T, s: &mut Sub) -> bool {
    let (a, b) = (deref(a, s).clone(), deref(b, s).clone());
    match (&a, &b) {
        (T::V(i), T::V(j)) if i == j => true,
        (T::V(i), _) => {
            if occurs(*i, &b, s) {
                return false;
            }
            bind(s, *i, b);
            true
        }
        (_, T::V(j)) => {
            if occurs(*j, &a, s) {
                return false;
            }
            bind(s, *j, a);
            true
        }
        (T::F(f, xs), T::F(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| unify(x, y, s))
        }
    }
}

fn apply(t: &T, s: &Sub) -> T {
    match deref(t, s) {
        T::V(i) => T::V(*i),
        T::F(f, args) => T::F(*f, args.iter().map(|a| apply(a, s)).collect()),
    }
}

fn apply_lit(l: &L, s: &Sub) -> L {
    L {
        pos: l.pos,
        a: apply(&l.a, s),
        b: l.b.as_ref().map(|b| apply(b, s)),
    }
}

/// One-way matching: binds variables of `pat` only; `t` is rigid.
fn matches(pat: &T, t: &T, m: &mut Sub) -> bool {
    match pat {
        T::V(i) => match m.get(*i as usize).and_then(|x| x.as_ref()) {
            Some(u) => u == t,
            None => {
                bind(m, *i, t.clone());
                true
            }
        },
        T::F(f, xs) => match t {
            T::F(g, ys) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| matches(x, y, m))
            }
            T::V(_) => false,
        },
    }
}

/// Instantiates a pattern whose variables are all bound by matching.
fn instantiate(t: &T, m: &Sub) -> Option<T> {
    match t {
        T::V(i) => m.get(*i as usize).and_then(|x| x.clone()),
        T::F(f, args) => Some(T::F(
            *f,
            args.iter()
                .map(|a| instantiate(a, m))
                .collect::<Option<_>>()?,
        )),
    }
}

// ------------------------------------------------------------ positions

fn subterm_positions(t: &T, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if let T::F(_, args) = t {
        out.push(path.clone());
        for (i, a) in args.iter().enumerate() {
            path.push(i);
            subterm_positions(a, path, out);
            path.pop();
        }
    }
}

fn at<'a>(t: &'a T, path: &[usize]) -> &'a T {
    match path.split_first() {
        None => t,
        Some((&i, rest)) => match t {
            T::F(_, args) => at(&args[i], rest),
            T::V(_) => unreachable!("position below a variable"),
        },
    }
}

fn replace_at(t: &T, path: &[usize], by: &T) -> T {
    match path.split_first() {
        None => by.clone(),
        Some((&i, rest)) => match t {
            T::F(f, args) => {
                let mut args = args.clone();
                args[i] = replace_at(&args[i], rest, by);
                T::F(*f, args)
            }
            T::V(_) => unreachable!("position below a variable"),
        },
    }
}

/// The sides of a literal that terms can be rewritten in: both sides of an
/// equation; the arguments of a predicate atom (as the atom itself, whose
/// root never unifies with a function term).
fn sides(l: &L) -> Vec<(bool, &T)> {
    let mut v = vec![(false, &l.a)];
    if let Some(b) = &l.b {
        v.push((true, b));
    }
    v
}

fn with_side(l: &L, right: bool, t: T) -> L {
    let mut n = l.clone();
    if right {
        n.b = Some(t);
    } else {
        n.a = t;
    }
    n
}

/// Orientations `(l, r)` of a positive equation.
fn orientations(l: &L) -> Vec<(&T, &T)> {
    match &l.b {
        Some(b) => vec![(&l.a, b), (b, &l.a)],
        None => Vec::new(),
    }
}

// ----------------------------------------------------------------- rules

fn without(c: &Clause, skip: &[usize]) -> Clause {
    c.iter()
        .enumerate()
        .filter(|(i, _)| !skip.contains(i))
        .map(|(_, l)| l.clone())
        .collect()
}

fn finish(lits: impl IntoIterator<Item = L>, s: &Sub) -> Clause {
    normal(lits.into_iter().map(|l| apply_lit(&l, s)).collect())
}

/// Canonical literal set: equations with the smaller side first, sorted,
/// duplicates removed.
fn normal(mut c: Clause) -> Clause {
    for l in c.iter_mut() {
        if let Some(b) = &l.b
            && *b < l.a
        {
            let a = std::mem::replace(&mut l.a, b.clone());
            l.b = Some(a);
        }
    }
    c.sort();
    c.dedup();
    c
}

fn resolution(p: &Clause, q: &Clause, out: &mut Vec<Clause>) {
    for (i, a) in p.iter().enumerate() {
        if !a.pos || a.b.is_some() {
            continue;
        }
        for (j, b) in q.iter().enumerate() {
            if b.pos || b.b.is_some() {
                continue;
            }
            let mut s = Sub::new();
            if unify(&a.a, &b.a, &mut s) {
                out.push(finish(
                    without(p, &[i]).into_iter().chain(without(q, &[j])),
                    &s,
                ));
            }
        }
    }
}

fn factoring(p: &Clause, out: &mut Vec<Clause>) {
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let (a, b) = (&p[i], &p[j]);
            if a.pos != b.pos || a.b.is_some() != b.b.is_some() {
                continue;
            }
            type Pair<'a> = (&'a T, &'a T, Option<(&'a T, &'a T)>);
            let pairs: Vec<Pair> = match (&a.b, &b.b) {
                (None, None) => vec![(&a.a, &b.a, None)],
                (Some(ab), Some(bb)) => {
                    vec![(&a.a, &b.a, Some((ab, bb))), (&a.a, bb, Some((ab, &b.a)))]
                }
                _ => continue,
            };
            for (x, y, rest) in pairs {
                let mut s = Sub::new();
                if unify(x, y, &mut s) && rest.is_none_or(|(u, v)| unify(u, v, &mut s)) {
                    out.push(finish(without(p, &[j]), &s));
                }
            }
        }
    }
}

fn equality_resolution(p: &Clause, out: &mut Vec<Clause>) {
    for (i, l) in p.iter().enumerate() {
        if let (false, Some(b)) = (l.pos, &l.b) {
            let mut s = Sub::new();
            if unify(&l.a, b, &mut s) {
                out.push(finish(without(p, &[i]), &s));
            }
        }
    }
}

fn equality_factoring(p: &Clause, out: &mut Vec<Clause>) {
    for (i, li) in p.iter().enumerate() {
        for (j, lj) in p.iter().enumerate() {
            if i == j || !li.pos || !lj.pos {
                continue;
            }
            for (s1, t1) in orientations(li) {
                for (s2, t2) in orientations(lj) {
                    let mut s = Sub::new();
                    if unify(s1, s2, &mut s) {
                        let extra = L {
                            pos: false,
                            a: t1.clone(),
                            b: Some(t2.clone()),
                        };
                        out.push(finish(
                            without(p, &[i]).into_iter().chain(std::iter::once(extra)),
                            &s,
                        ));
                    }
                }
            }
        }
    }
}

/// A redex position of a clause: literal index, side (true = right side of
/// an equation), the side's term and the path inside it.
struct Redex<'a> {
    lit: usize,
    right: bool,
    side: &'a T,
    pos: Vec<usize>,
}

/// Every non-variable subterm position of `c`. Variables range over terms,
/// so the root of a predicate atom is never a redex.
fn redexes(c: &Clause) -> Vec<Redex<'_>> {
    let mut out = Vec::new();
    for (lit, target) in c.iter().enumerate() {
        for (right, side) in sides(target) {
            let mut positions = Vec::new();
            subterm_positions(side, &mut Vec::new(), &mut positions);
            for pos in positions {
                if pos.is_empty() && target.b.is_none() {
                    continue;
                }
                out.push(Redex {
                    lit,
                    right,
                    side,
                    pos,
                });
            }
        }
    }
    out
}

/// `c` with the subterm at the redex replaced by `by`, in literal `x.lit`.
fn rewritten(c: &Clause, x: &Redex<'_>, by: &T) -> L {
    with_side(&c[x.lit], x.right, replace_at(x.side, &x.pos, by))
}

/// Superposition of a positive equation of `from` into any non-variable
/// subterm of `into` (both parents already renamed apart).
fn superposition(from: &Clause, into: &Clause, out: &mut Vec<Clause>) {
    let targets = redexes(into);
    for (i, eq) in from.iter().enumerate() {
        if !eq.pos {
            continue;
        }
        for (l, r) in orientations(eq) {
            for x in &targets {
                let mut s = Sub::new();
                if !unify(l, at(x.side, &x.pos), &mut s) {
                    continue;
                }
                let lits = without(from, &[i])
                    .into_iter()
                    .chain(without(into, &[x.lit]))
                    .chain(std::iter::once(rewritten(into, x, r)));
                out.push(finish(lits, &s));
            }
        }
    }
}

/// Every clause obtained by one rewrite with the unit equation `unit`
/// (either direction, an instance of one side replaced by the same
/// instance of the other), at any position of `c`.
fn rewrites(unit: &Clause, c: &Clause, out: &mut Vec<Clause>) {
    let [eq] = unit.as_slice() else { return };
    if !eq.pos {
        return;
    }
    let targets = redexes(c);
    for (l, r) in orientations(eq) {
        for x in &targets {
            let mut m = Sub::new();
            if !matches(l, at(x.side, &x.pos), &mut m) {
                continue;
            }
            let Some(rs) = instantiate(r, &m) else {
                continue;
            };
            let mut n = c.clone();
            n[x.lit] = rewritten(c, x, &rs);
            out.push(normal(n));
        }
    }
}

/// Every clause obtained by deleting one literal whose complement is an
/// instance of the unit clause `unit`.
fn reflections(unit: &Clause, c: &Clause, out: &mut Vec<Clause>) {
    let [u] = unit.as_slice() else { return };
    for (j, l) in c.iter().enumerate() {
        if l.pos == u.pos || l.b.is_some() != u.b.is_some() {
            continue;
        }
        let ok = match (&u.b, &l.b) {
            (None, None) => matches(&u.a, &l.a, &mut Sub::new()),
            (Some(ub), Some(lb)) => {
                let mut m = Sub::new();
                let direct = matches(&u.a, &l.a, &mut m) && matches(ub, lb, &mut m);
                let mut m = Sub::new();
                direct || (matches(&u.a, lb, &mut m) && matches(ub, &l.a, &mut m))
            }
            _ => false,
        };
        if ok {
            out.push(normal(without(c, &[j])));
        }
    }
}

// -------------------------------------------------------- distinct values

/// The value a constant named `name` denotes if it is a distinct object
/// (`"a"`) or a TPTP number, as a canonical text: objects by their quoted
/// text; integers, rationals (in lowest terms) and reals (significant digits
/// and exponent) by exact value, each kind apart from the others (as the
/// disjoint `$int`, `$rat`, `$real` of typed TPTP). `None` for other names.
fn distinct_value(name: &str) -> Option<String> {
    use num_bigint::BigInt;
    use num_integer::Integer;
    if name.starts_with('"') {
        return (name.len() >= 2 && name.ends_with('"')).then(|| format!("o{name}"));
    }
    let (neg, body) = match name.chars().next()? {
        '-' => (true, &name[1..]),
        '+' => (false, &name[1..]),
        c if c.is_ascii_digit() => (false, name),
        _ => return None,
    };
    let num = |t: &str| -> Option<BigInt> {
        (!t.is_empty() && t.chars().all(|c| c.is_ascii_digit()))
            .then(|| t.parse().ok())
            .flatten()
    };
    let signed = |n: BigInt| if neg { -n } else { n };
    if let Some((p, q)) = body.split_once('/') {
        let (p, q) = (num(p)?, num(q)?);
        if q == BigInt::from(0) {
            return None;
        }
        let g = p.gcd(&q);
        return Some(format!("q{}/{}", signed(p / &g), q / &g));
    }
    let (mant, exp) = match body.split_once(['e', 'E']) {
        Some((m, e)) => {
            let (eneg, ed) = match e.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, e.strip_prefix('+').unwrap_or(e)),
            };
            let v = num(ed)?;
            (m, Some(if eneg { -v } else { v }))
        }
        None => (body, None),
    };
    let (int, frac) = match mant.split_once('.') {
        Some((i, f)) => {
            num(f)?;
            (i, Some(f))
        }
        None => (mant, None),
    };
    num(int)?;
    if frac.is_none() && exp.is_none() {
        return Some(format!("i{}", signed(num(int)?)));
    }
    let frac = frac.unwrap_or("");
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    let sig = digits.trim_end_matches('0');
    if sig.is_empty() {
        return Some("r0".to_string());
    }
    let e =
        exp.unwrap_or_default() - BigInt::from(frac.len()) + BigInt::from(digits.len() - sig.len());
    Some(format!("r{}{sig}e{e}", if neg { "-" } else { "" }))
}

/// True if `a` and `b` are constants denoting different distinct values.
fn distinct_constants(syms: &Syms, a: &T, b: &T) -> bool {
    let value = |t: &T| match t {
        T::F(f, args) if args.is_empty() => {
            let (name, _, pred) = &syms.names[*f as usize];
            if *pred { None } else { distinct_value(name) }
        }
        _ => None,
    };
    matches!((value(a), value(b)), (Some(x), Some(y)) if x != y)
}

/// True if `l` is an equation `v1 = v2` between different distinct values.
fn false_distinct_equation(syms: &Syms, l: &L) -> bool {
    l.pos
        && l.b
            .as_ref()
            .is_some_and(|b| distinct_constants(syms, &l.a, b))
}

/// `c` without its trivial disequations `s != s`, the negated truth `~$true`
/// included (the search reads atoms as equations with `$true`, so `~$true`
/// is its `$true != $true`).
fn drop_trivial_disequations(syms: &Syms, c: &Clause) -> Clause {
    let truth = syms.map.get(&("$true".to_string(), 0, true)).copied();
    c.iter()
        .filter(|l| {
            let false_truth = matches!((&l.a, &l.b, truth), (T::F(f, args), None, Some(t)) if *f == t && args.is_empty());
            l.pos || (l.b.as_ref() != Some(&l.a) && !false_truth)
        })
        .cloned()
        .collect()
}

// ------------------------------------------------------------ subsumption

fn lit_matches(p: &L, t: &L, m: &Sub) -> Vec<Sub> {
    let mut found = Vec::new();
    if p.pos != t.pos || p.b.is_some() != t.b.is_some() {
        return found;
    }
    match (&p.b, &t.b) {
        (None, None) => {
            let mut m = m.clone();
            if matches(&p.a, &t.a, &mut m) {
                found.push(m);
            }
        }
        (Some(pb), Some(tb)) => {
            for (x, y) in [(&t.a, tb), (tb, &t.a)] {
                let mut m = m.clone();
                if matches(&p.a, x, &mut m) && matches(pb, y, &mut m) {
                    found.push(m);
                }
            }
        }
        _ => {}
    }
    found
}

/// True if some substitution maps every literal of `c` into `d`.
fn subsumes(c: &[L], d: &[L], m: &Sub) -> bool {
    let Some((first, rest)) = c.split_first() else {
        return true;
    };
    d.iter().any(|t| {
        lit_matches(first, t, m)
            .into_iter()
            .any(|m2| subsumes(rest, d, &m2))
    })
}

/// Equal up to variable renaming (as literal sets).
fn variant(c: &Clause, d: &Clause) -> bool {
    let (c, d) = (normal(c.clone()), normal(d.clone()));
    c.len() == d.len() && subsumes(&c, &d, &Sub::new()) && subsumes(&d, &c, &Sub::new())
}

// ----------------------------------------------------------------- parser

#[derive(Clone, Debug, PartialEq)]
enum Tok {
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

fn lex(text: &str) -> Result<Vec<Tok>, CheckError> {
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
                    CheckError(format!("malformed number in clause `{}`", abbreviate(text)))
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
fn scan_number(cs: &[char], mut i: usize) -> Option<usize> {
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
enum Pt {
    Var(String),
    App(String, Vec<Pt>),
}

/// At most the first 120 characters of a clause text, for error messages.
fn abbreviate(text: &str) -> String {
    match text.char_indices().nth(120) {
        Some((k, _)) => format!("{}...", &text[..k]),
        None => text.to_string(),
    }
}

struct Parser {
    toks: Vec<Tok>,
    i: usize,
    /// The clause text, abbreviated, for error messages.
    text: String,
    vars: Vec<String>,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }

    fn expect(&mut self, t: Tok) -> Result<(), CheckError> {
        if self.peek() == Some(&t) {
            self.i += 1;
            Ok(())
        } else {
            err(format!("expected {t:?} in clause `{}`", self.text))
        }
    }

    fn term(&mut self, depth: usize) -> Result<Pt, CheckError> {
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

    fn resolve(&mut self, syms: &mut Syms, t: &Pt, pred: bool) -> T {
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
    fn literal(&mut self, syms: &mut Syms, depth: usize) -> Result<Option<L>, CheckError> {
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

fn parse_clause(syms: &mut Syms, text: &str) -> Result<Clause, CheckError> {
    parse_named(syms, text).map(|(c, _)| c)
}

/// A clause and the names of its variables, by index.
fn parse_named(syms: &mut Syms, text: &str) -> Result<(Clause, Vec<String>), CheckError> {
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
fn parse_term(syms: &mut Syms, text: &str, vars: &mut Vec<String>) -> Result<T, CheckError> {
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
fn paren_partners(toks: &[Tok]) -> Vec<Option<usize>> {
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

// ------------------------------------------------------------ refutations

/// Bound on the candidate clauses a simplification replay may produce.
const MAX_CANDIDATES: usize = 50_000;

fn check_refutation(problem: &CheckProblem, r: &Refutation) -> Result<Checked, CheckError> {
    let mut syms = Syms::default();
    let axioms: Vec<Clause> = problem
        .axioms
        .iter()
        .map(|a| parse_clause(&mut syms, a))
        .collect::<Result<_, _>>()?;
    let conjecture = match &problem.conjecture {
        Some(c) => Some(parse_clause(&mut syms, c)?),
        None => None,
    };
    let original_symbols = syms.names.len() as u32;
    // The negated conjecture inputs are checked together: one injective map
    // from the conjecture's variables to fresh constants must explain all of
    // them (each literal may match in either orientation of an equation, so
    // the choice for one input can depend on the others).
    if let Some(conj) = conjecture.as_ref() {
        let mut negated = Vec::new();
        for step in &r.steps {
            if step.rule == "input" && step.role.as_deref() == Some("negated_conjecture") {
                let c = parse_clause(&mut syms, &step.clause)
                    .map_err(|e| CheckError(format!("step {}: {e}", step.id)))?;
                negated.push((step.id, c));
            }
        }
        let mut skolem: HashMap<u32, T> = HashMap::new();
        if let Err(at) = check_negated(conj, &negated, 0, &mut skolem, original_symbols) {
            return err(format!(
                "step {}: not the Skolemised complement of a conjecture literal (with fresh, distinct constants)",
                negated[at].0
            ));
        }
    }
    let mut clauses: HashMap<u32, Clause> = HashMap::new();
    let mut names: HashMap<u32, Vec<String>> = HashMap::new();
    let Some(last) = r.steps.last() else {
        return err("empty refutation");
    };
    for step in &r.steps {
        let (c, vars) = parse_named(&mut syms, &step.clause)
            .map_err(|e| CheckError(format!("step {}: {e}", step.id)))?;
        if clauses.contains_key(&step.id) {
            return err(format!("step {} appears twice", step.id));
        }
        let get = |id: u32| {
            clauses.get(&id).ok_or_else(|| {
                CheckError(format!("step {}: unknown or later premise {id}", step.id))
            })
        };
        let ok = match step.rule.as_str() {
            "input" => {
                if let (Some("negated_conjecture"), Some(_)) =
                    (step.role.as_deref(), conjecture.as_ref())
                {
                    // Checked jointly above.
                    true
                } else {
                    axioms.iter().any(|a| variant(a, &c))
                }
            }
            rule => {
                let parents: Vec<&Clause> = step
                    .parents
                    .iter()
                    .map(|&p| get(p))
                    .collect::<Result<_, _>>()?;
                let units: Vec<Option<&Clause>> = step
                    .simps
                    .iter()
                    .map(|s| s.unit.map(get).transpose())
                    .collect::<Result<_, _>>()?;
                match &step.raw {
                    Some(raw) => {
                        let named: Vec<Option<Named<'_>>> = step
                            .simps
                            .iter()
                            .zip(&units)
                            .map(|(s, u)| {
                                let n = s.unit.and_then(|id| names.get(&id));
                                u.zip(n).map(|(u, n)| (u, n.as_slice()))
                            })
                            .collect();
                        replay(&mut syms, rule, &parents, step, &named, raw, &c)
                            .map_err(|e| CheckError(format!("step {}: {e}", step.id)))?;
                        true
                    }
                    None => rederive(&syms, rule, &parents, step, &units, &c)
                        .map_err(|e| CheckError(format!("step {}: {e}", step.id)))?,
                }
            }
        };
        if !ok {
            return err(format!(
                "step {} ({}): `{}` is not a conclusion of its rule and premises",
                step.id,
                step.rule,
                abbreviate(&step.clause)
            ));
        }
        clauses.insert(step.id, c);
        names.insert(step.id, vars);
    }
    if !clauses[&last.id].is_empty() {
        return err(format!(
            "the last step `{}` is not the empty clause",
            last.clause
        ));
    }
    Ok(Checked::Refutation {
        steps: r.steps.len(),
    })
}

/// A negated-conjecture input must be the complement of a conjecture
/// literal under one substitution of fresh, pairwise distinct constants
/// (symbols that occur in no premise and not in the conjecture).
/// Backtracking search for one injective Skolem map explaining the negated
/// conjecture inputs `negated[k..]`; on failure, the index of the input
/// that could not be explained.
fn check_negated(
    conj: &Clause,
    negated: &[(u32, Clause)],
    k: usize,
    skolem: &mut HashMap<u32, T>,
    original_symbols: u32,
) -> Result<(), usize> {
    let Some((_, c)) = negated.get(k) else {
        return Ok(());
    };
    let [l] = c.as_slice() else {
        return Err(k);
    };
    let mut deepest = k;
    for cand in conj {
        let complement = L {
            pos: !cand.pos,
            ..cand.clone()
        };
        let mut m: Sub = Vec::new();
        for (&v, t) in skolem.iter() {
            bind(&mut m, v, t.clone());
        }
        for found in lit_matches(&complement, l, &m) {
            let mut fresh = true;
            let mut images: Vec<&T> = Vec::new();
            for t in found.iter().flatten() {
                match t {
                    T::F(f, args) if args.is_empty() && *f >= original_symbols => {
                        if images.contains(&t) {
                            fresh = false;
                        }
                        images.push(t);
                    }
                    _ => fresh = false,
                }
            }
            if !fresh {
                continue;
            }
            let saved = skolem.clone();
            for (v, t) in found.iter().enumerate() {
                if let Some(t) = t {
                    skolem.insert(v as u32, t.clone());
                }
            }
            match check_negated(conj, negated, k + 1, skolem, original_symbols) {
                Ok(()) => return Ok(()),
                Err(at) => deepest = deepest.max(at),
            }
            *skolem = saved;
        }
    }
    Err(deepest)
}

/// Every conclusion of `rule` applied to `parents` (before simplification),
/// deduplicated. Polynomial in the parents' size.
fn conclusions(rule: &str, parents: &[&Clause]) -> Result<Vec<Clause>, CheckError> {
    let mut cands: Vec<Clause> = Vec::new();
    match (rule, parents) {
        ("resolution", [p, q]) | ("superposition", [p, q]) => {
            let p = (*p).clone();
            let q = shift_clause(q, clause_vars(&p));
            if rule == "resolution" {
                resolution(&p, &q, &mut cands);
                resolution(&q, &p, &mut cands);
            } else {
                superposition(&p, &q, &mut cands);
                superposition(&q, &p, &mut cands);
            }
        }
        ("factoring", [p]) | ("equality_factoring", [p]) => {
            factoring(p, &mut cands);
            equality_factoring(p, &mut cands);
        }
        ("equality_resolution", [p]) => equality_resolution(p, &mut cands),
        ("simplification", [p]) => cands.push(normal((*p).clone())),
        _ => {
            return err(format!(
                "rule `{rule}` with {} premises is not a known inference",
                parents.len()
            ));
        }
    }
    let mut seen: HashSet<Clause> = HashSet::new();
    cands.retain(|c| seen.insert(c.clone()));
    Ok(cands)
}

/// Re-derives a step without simplification detail: every conclusion of the
/// rule, then every way of applying each recorded simplification (bounded
/// by [`MAX_CANDIDATES`]).
fn rederive(
    syms: &Syms,
    rule: &str,
    parents: &[&Clause],
    step: &ProofStep,
    units: &[Option<&Clause>],
    target: &Clause,
) -> Result<bool, CheckError> {
    let mut cands = conclusions(rule, parents)?;
    for (s, unit) in step.simps.iter().zip(units) {
        let mut next: Vec<Clause> = Vec::new();
        for c in &cands {
            let before = next.len();
            match (s.kind.as_str(), unit) {
                ("rewrite", Some(u)) => rewrites(u, c, &mut next),
                ("simplify_reflect", Some(u)) => reflections(u, c, &mut next),
                ("trivial_disequation", None) => {
                    next.push(normal(drop_trivial_disequations(syms, c)))
                }
                ("distinct_values", None) => {
                    for (j, l) in c.iter().enumerate() {
                        if false_distinct_equation(syms, l) {
                            next.push(normal(without(c, &[j])));
                        }
                    }
                }
                (k, _) => return err(format!("unknown simplification `{k}`")),
            }
            // The search simplifies before merging duplicate literals, so a
            // step can act on a copy the checker has already merged: the
            // candidate itself stays (the identity is trivially sound).
            if next.len() == before {
                next.push(c.clone());
            }
        }
        let mut seen: HashSet<Clause> = HashSet::new();
        next.retain(|c| seen.insert(c.clone()));
        if next.len() > MAX_CANDIDATES {
            return err(format!(
                "more than {MAX_CANDIDATES} candidate clauses while replaying simplifications"
            ));
        }
        cands = next;
    }
    Ok(cands.iter().any(|c| variant(c, target)))
}

/// A premise of a detailed step: its clause and variable names.
type Named<'a> = (&'a Clause, &'a [String]);

/// Checks a step that carries its raw conclusion and located
/// simplifications: the raw conclusion must be a conclusion of the rule;
/// each simplification is then replayed at the position it names, in time
/// linear in the clause; the result must be the step's clause (up to
/// variable renaming and duplicate literals).
fn replay(
    syms: &mut Syms,
    rule: &str,
    parents: &[&Clause],
    step: &ProofStep,
    units: &[Option<Named<'_>>],
    raw: &str,
    target: &Clause,
) -> Result<(), CheckError> {
    let (mut cur, mut vars) = parse_named(syms, raw)?;
    if !conclusions(rule, parents)?.iter().any(|c| variant(c, &cur)) {
        return err(format!(
            "the raw conclusion `{}` is not a conclusion of {rule} from its premises",
            abbreviate(raw)
        ));
    }
    for (k, (s, unit)) in step.simps.iter().zip(units).enumerate() {
        let at = |msg: String| CheckError(format!("simplification {} ({}): {msg}", k + 1, s.kind));
        match s.kind.as_str() {
            "rewrite" => {
                let (u, unames) = unit.ok_or_else(|| at("no unit clause".into()))?;
                apply_rewrite(syms, &mut cur, &mut vars, s, u, unames).map_err(at)?;
            }
            "simplify_reflect" => {
                let (u, _) = unit.ok_or_else(|| at("no unit clause".into()))?;
                let lit = s.lit.ok_or_else(|| at("no literal index".into()))? as usize;
                let l = cur
                    .get(lit)
                    .ok_or_else(|| at(format!("no literal {lit}")))?;
                if !refutes(u, l) {
                    return Err(at(format!(
                        "literal {lit} is not the complement of an instance of the unit"
                    )));
                }
                cur.remove(lit);
            }
            "trivial_disequation" => cur = drop_trivial_disequations(syms, &cur),
            "distinct_values" => {
                let lit = s.lit.ok_or_else(|| at("no literal index".into()))? as usize;
                let l = cur
                    .get(lit)
                    .ok_or_else(|| at(format!("no literal {lit}")))?;
                if !false_distinct_equation(syms, l) {
                    return Err(at(format!(
                        "literal {lit} is not an equation between different distinct values"
                    )));
                }
                cur.remove(lit);
            }
            kind => return Err(at(format!("unknown simplification `{kind}`"))),
        }
    }
    if !variant(&cur, target) {
        return err(format!(
            "the simplifications turn the raw conclusion into `{}`, not the step's clause",
            abbreviate(&show(syms, &vars, &cur))
        ));
    }
    Ok(())
}

/// Replays one located rewrite on `cur`: the unit's matched side under the
/// substitution must be the subterm at the position, which is replaced by
/// the other side under the same substitution (all its variables bound).
fn apply_rewrite(
    syms: &mut Syms,
    cur: &mut Clause,
    vars: &mut Vec<String>,
    s: &super::SimpUse,
    unit: &Clause,
    unames: &[String],
) -> Result<(), String> {
    let [eq] = unit.as_slice() else {
        return Err("the unit is not a unit clause".into());
    };
    let (true, Some(eq_b)) = (eq.pos, &eq.b) else {
        return Err("the unit is not a positive equation".into());
    };
    let (Some(lit), Some(right), Some(path), Some(side), Some(subst)) =
        (s.lit, s.right, &s.path, s.unit_side, &s.subst)
    else {
        return Err("position, orientation or substitution missing".into());
    };
    let (l, r) = match side {
        0 => (&eq.a, eq_b),
        1 => (eq_b, &eq.a),
        _ => return Err(format!("unit side {side} is neither 0 nor 1")),
    };
    let mut m = Sub::new();
    for (name, text) in subst {
        let v = unames
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| format!("the unit has no variable {name}"))?;
        let t = parse_term(syms, text, vars).map_err(|e| e.0)?;
        bind(&mut m, v as u32, t);
    }
    let target = cur
        .get(lit as usize)
        .ok_or_else(|| format!("no literal {lit}"))?;
    let whole = match (right, &target.b) {
        (false, _) => &target.a,
        (true, Some(b)) => b,
        (true, None) => return Err(format!("literal {lit} has no right side")),
    };
    if path.is_empty() && target.b.is_none() {
        return Err("a rewrite at the root of an atom".into());
    }
    let path: Vec<usize> = path.iter().map(|&i| i as usize).collect();
    let redex = checked_at(whole, &path).ok_or_else(|| {
        format!(
            "literal {lit} has no subterm at {path:?} (side {})",
            right as u8
        )
    })?;
    let lhs = instantiate(l, &m)
        .ok_or("a variable of the matched side is not bound by the substitution")?;
    if lhs != *redex {
        return Err(format!(
            "the unit's side {side} under the substitution is not the subterm at {path:?} of literal {lit}"
        ));
    }
    let rhs = instantiate(r, &m)
        .ok_or("a variable of the replacing side is not bound by the substitution")?;
    let new_side = replace_at(whole, &path, &rhs);
    cur[lit as usize] = with_side(&cur[lit as usize], right, new_side);
    Ok(())
}

/// The subterm at `path`, if the path exists.
fn checked_at<'a>(mut t: &'a T, path: &[usize]) -> Option<&'a T> {
    for &i in path {
        match t {
            T::F(_, args) => t = args.get(i)?,
            T::V(_) => return None,
        }
    }
    Some(t)
}

/// True if `l` is the complement of an instance of the unit clause `unit`.
fn refutes(unit: &Clause, l: &L) -> bool {
    let mut out = Vec::new();
    reflections(unit, &vec![l.clone()], &mut out);
    !out.is_empty()
}

/// A clause as text (for error messages).
fn show(syms: &Syms, vars: &[String], c: &Clause) -> String {
    fn term(syms: &Syms, vars: &[String], t: &T, out: &mut String) {
        match t {
            T::V(i) => match vars.get(*i as usize) {
                Some(n) => out.push_str(n),
                None => out.push_str(&format!("_{i}")),
            },
            T::F(f, args) => {
                out.push_str(&syms.names[*f as usize].0);
                if !args.is_empty() {
                    out.push('(');
                    for (k, a) in args.iter().enumerate() {
                        if k > 0 {
                            out.push(',');
                        }
                        term(syms, vars, a, out);
                    }
                    out.push(')');
                }
            }
        }
    }
    if c.is_empty() {
        return "$false".into();
    }
    let mut out = String::new();
    for (k, l) in c.iter().enumerate() {
        if k > 0 {
            out.push_str(" | ");
        }
        if l.b.is_none() && !l.pos {
            out.push('~');
        }
        term(syms, vars, &l.a, &mut out);
        if let Some(b) = &l.b {
            out.push_str(if l.pos { " = " } else { " != " });
            term(syms, vars, b, &mut out);
        }
    }
    out
}

// ----------------------------------------------------------------- models

struct Interp<'a> {
    n: u32,
    funs: HashMap<(&'a str, u32), &'a [u32]>,
    preds: HashMap<(&'a str, u32), &'a [u32]>,
}

impl Interp<'_> {
    fn eval(&self, syms: &Syms, t: &T, a: &[u32]) -> Result<u32, CheckError> {
        match t {
            T::V(i) => Ok(a[*i as usize]),
            T::F(f, args) => {
                let (name, arity, _) = &syms.names[*f as usize];
                let table = self
                    .funs
                    .get(&(name.as_str(), *arity))
                    .ok_or_else(|| CheckError(format!("model has no table for {name}/{arity}")))?;
                let mut cell = 0u64;
                for x in args {
                    cell = cell * self.n as u64 + self.eval(syms, x, a)? as u64;
                }
                Ok(table[cell as usize])
            }
        }
    }

    fn holds(&self, syms: &Syms, l: &L, a: &[u32]) -> Result<bool, CheckError> {
        let v = match &l.b {
            Some(b) => self.eval(syms, &l.a, a)? == self.eval(syms, b, a)?,
            None => {
                let T::F(p, args) = &l.a else {
                    return err("a variable used as an atom");
                };
                let (name, arity, _) = &syms.names[*p as usize];
                if name == "$true" && *arity == 0 {
                    true
                } else {
                    let table = self.preds.get(&(name.as_str(), *arity)).ok_or_else(|| {
                        CheckError(format!("model has no table for predicate {name}/{arity}"))
                    })?;
                    let mut cell = 0u64;
                    for x in args {
                        cell = cell * self.n as u64 + self.eval(syms, x, a)? as u64;
                    }
                    table[cell as usize] == 1
                }
            }
        };
        Ok(v == l.pos)
    }

    /// The first assignment under which `c` is false, if any.
    fn falsifier(&self, syms: &Syms, c: &Clause) -> Result<Option<Vec<u32>>, CheckError> {
        let k = clause_vars(c) as usize;
        let mut a = vec![0u32; k];
        loop {
            let mut sat = false;
            for l in c {
                if self.holds(syms, l, &a)? {
                    sat = true;
                    break;
                }
            }
            if !sat {
                return Ok(Some(a));
            }
            let mut i = 0;
            while i < k {
                a[i] += 1;
                if a[i] < self.n {
                    break;
                }
                a[i] = 0;
                i += 1;
            }
            if i == k {
                return Ok(None);
            }
        }
    }
}

/// Whether `clause` (TPTP text) is true in the model under every
/// assignment. A clause that uses a symbol the model has no table for is
/// reported as not satisfied (`Ok(false)`): nothing is known about it.
pub fn model_satisfies(m: &FiniteModel, clause: &str) -> Result<bool, CheckError> {
    let interp = interp_of(m)?;
    let mut syms = Syms::default();
    let c = parse_clause(&mut syms, clause)?;
    match interp.falsifier(&syms, &c) {
        Ok(f) => Ok(f.is_none()),
        Err(CheckError(msg)) if msg.starts_with("model has no table") => Ok(false),
        Err(e) => Err(e),
    }
}

/// The interpretation of a model's tables, after checking their shapes.
fn interp_of(m: &FiniteModel) -> Result<Interp<'_>, CheckError> {
    if m.size == 0 {
        return err("a model needs a non-empty domain");
    }
    let mut interp = Interp {
        n: m.size,
        funs: HashMap::new(),
        preds: HashMap::new(),
    };
    for (tables, is_pred) in [(&m.functions, false), (&m.predicates, true)] {
        for t in tables {
            let cells = (m.size as u64).checked_pow(t.arity).unwrap_or(u64::MAX);
            if t.values.len() as u64 != cells {
                return err(format!(
                    "table of {}/{} has {} entries, expected {cells}",
                    t.name,
                    t.arity,
                    t.values.len()
                ));
            }
            let bound = if is_pred { 2 } else { m.size };
            if t.values.iter().any(|&v| v >= bound) {
                return err(format!(
                    "table of {}/{} has a value out of range",
                    t.name, t.arity
                ));
            }
            let map = if is_pred {
                &mut interp.preds
            } else {
                &mut interp.funs
            };
            if map.insert((t.name.as_str(), t.arity), &t.values).is_some() {
                return err(format!("two tables for {}/{}", t.name, t.arity));
            }
        }
    }
    // Distinct objects and numbers of different values must denote
    // different elements.
    let mut holder: HashMap<u32, (String, &str)> = HashMap::new();
    for t in m.functions.iter().filter(|t| t.arity == 0) {
        let Some(v) = distinct_value(&t.name) else {
            continue;
        };
        if let Some((w, other)) = holder.get(&t.values[0])
            && *w != v
        {
            return err(format!(
                "the model maps the distinct values {other} and {} to the same element",
                t.name
            ));
        }
        holder.insert(t.values[0], (v, &t.name));
    }
    Ok(interp)
}

fn check_model(problem: &CheckProblem, m: &FiniteModel) -> Result<Checked, CheckError> {
    let interp = interp_of(m)?;
    let mut syms = Syms::default();
    for text in &problem.axioms {
        let c = parse_clause(&mut syms, text)?;
        if let Some(a) = interp.falsifier(&syms, &c)? {
            return err(format!("premise `{text}` is false under assignment {a:?}"));
        }
    }
    if let Some(text) = &problem.conjecture {
        let c = parse_clause(&mut syms, text)?;
        let k = clause_vars(&c) as usize;
        // Some assignment must falsify the conjecture: search all of them.
        let negated: Clause = c
            .iter()
            .map(|l| L {
                pos: !l.pos,
                ..l.clone()
            })
            .collect();
        let mut a = vec![0u32; k];
        let mut found = false;
        'outer: loop {
            let mut all = true;
            for l in &negated {
                if !interp.holds(&syms, l, &a)? {
                    all = false;
                    break;
                }
            }
            if all {
                found = true;
                break;
            }
            let mut i = 0;
            while i < k {
                a[i] += 1;
                if a[i] < m.size {
                    continue 'outer;
                }
                a[i] = 0;
                i += 1;
            }
            break;
        }
        if !found {
            return err(format!("the conjecture `{text}` holds in the model"));
        }
    }
    Ok(Checked::Model { size: m.size })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::{ProofStep, SimpUse, Table};

    fn step(id: u32, clause: &str, rule: &str, parents: &[u32]) -> ProofStep {
        ProofStep {
            id,
            clause: clause.into(),
            rule: rule.into(),
            parents: parents.to_vec(),
            simps: Vec::new(),
            raw: None,
            role: (rule == "input").then(|| "axiom".into()),
            name: None,
        }
    }

    fn problem(axioms: &[&str]) -> CheckProblem {
        CheckProblem {
            axioms: axioms.iter().map(|s| s.to_string()).collect(),
            conjecture: None,
        }
    }

    #[test]
    fn parses_printed_clauses() {
        let mut s = Syms::default();
        let c = parse_clause(&mut s, "~p(X0,f(X1)) | X0 = 'a b' | X1 != c").unwrap();
        assert_eq!(c.len(), 3);
        assert!(!c[0].pos && c[0].b.is_none());
        assert!(c[1].pos && c[1].b.is_some());
        assert!(!c[2].pos);
        assert!(parse_clause(&mut s, "$false").unwrap().is_empty());
        assert_eq!(parse_clause(&mut s, "(p | q)").unwrap().len(), 2);
        assert!(parse_clause(&mut s, "p(").is_err());
    }

    #[test]
    fn accepts_a_correct_resolution_refutation() {
        let r = Refutation {
            steps: vec![
                step(1, "p(X0) | q(X0)", "input", &[]),
                step(2, "~p(a)", "input", &[]),
                step(3, "~q(X0)", "input", &[]),
                step(4, "q(a)", "resolution", &[1, 2]),
                step(5, "$false", "resolution", &[4, 3]),
            ],
        };
        let p = problem(&["p(X) | q(X)", "~p(a)", "~q(Y)"]);
        assert_eq!(
            check_refutation(&p, &r),
            Ok(Checked::Refutation { steps: 5 })
        );
    }

    #[test]
    fn rejects_an_unsound_step() {
        let r = Refutation {
            steps: vec![
                step(1, "p(X0) | q(X0)", "input", &[]),
                step(2, "~p(a)", "input", &[]),
                step(3, "q(b)", "resolution", &[1, 2]),
            ],
        };
        let p = problem(&["p(X) | q(X)", "~p(a)"]);
        let e = check_refutation(&p, &r).unwrap_err();
        assert!(e.0.contains("step 3"), "{e}");
        // An input that is not in the problem.
        let r = Refutation {
            steps: vec![step(1, "$false", "input", &[])],
        };
        assert!(check_refutation(&p, &r).is_err());
    }

    #[test]
    fn replays_rewriting_and_superposition() {
        let mut s4 = step(4, "p(b)", "simplification", &[3]);
        s4.simps = vec![
            SimpUse {
                kind: "rewrite".into(),
                unit: Some(1),
                ..SimpUse::default()
            },
            SimpUse {
                kind: "rewrite".into(),
                unit: Some(2),
                ..SimpUse::default()
            },
        ];
        let r = Refutation {
            steps: vec![
                step(1, "f(X0) = g(X0)", "input", &[]),
                step(2, "g(a) = b", "input", &[]),
                step(3, "p(f(a))", "input", &[]),
                s4,
                step(5, "~p(b)", "input", &[]),
                step(6, "$false", "resolution", &[4, 5]),
            ],
        };
        let p = problem(&["f(X) = g(X)", "g(a) = b", "p(f(a))", "~p(b)"]);
        assert!(check_refutation(&p, &r).is_ok());
        let r2 = Refutation {
            steps: vec![
                step(1, "f(X0) = g(X0)", "input", &[]),
                step(2, "p(f(a))", "input", &[]),
                step(3, "p(g(a))", "superposition", &[1, 2]),
            ],
        };
        let p2 = problem(&["f(X) = g(X)", "p(f(a))"]);
        assert!(
            check_refutation(&p2, &r2).is_err(),
            "last step is not $false"
        );
    }

    #[test]
    fn negated_conjecture_needs_fresh_distinct_constants() {
        let p = CheckProblem {
            axioms: vec!["r(X,Y)".into()],
            conjecture: Some("r(X,Y)".into()),
        };
        let mut neg = step(2, "~r(sk0,sk1)", "input", &[]);
        neg.role = Some("negated_conjecture".into());
        let ok = Refutation {
            steps: vec![
                step(1, "r(X0,X1)", "input", &[]),
                neg.clone(),
                step(3, "$false", "resolution", &[1, 2]),
            ],
        };
        assert!(check_refutation(&p, &ok).is_ok());
        // The same constant for both variables proves only r(X,X).
        let mut bad = ok.clone();
        bad.steps[1].clause = "~r(sk0,sk0)".into();
        assert!(check_refutation(&p, &bad).is_err());
    }

    #[test]
    fn model_evaluation() {
        let m = FiniteModel {
            size: 2,
            functions: vec![Table {
                name: "f".into(),
                arity: 1,
                values: vec![1, 0],
            }],
            predicates: vec![],
        };
        let p = CheckProblem {
            axioms: vec!["f(f(X)) = X".into(), "f(X) != X".into()],
            conjecture: Some("f(X) = X".into()),
        };
        assert_eq!(check_model(&p, &m), Ok(Checked::Model { size: 2 }));
        let bad = FiniteModel {
            functions: vec![Table {
                name: "f".into(),
                arity: 1,
                values: vec![0, 1],
            }],
            ..m
        };
        assert!(check_model(&p, &bad).is_err());
    }
}
