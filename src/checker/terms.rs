//! The checker's own first-order terms (trees over interned symbols),
//! literals and clauses, with Robinson unification (occurs check), one-way
//! matching, subterm positions, clause normalisation, and subsumption /
//! variant tests by backtracking literal matching. Shares nothing with
//! `logic/`.

use super::problem::CheckError;
use std::collections::HashMap;

/// A first-order term as a tree.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum T {
    V(u32),
    F(u32, Vec<T>),
}

/// A literal: an equation `a = b` (`b` present) or a predicate atom `a`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct L {
    pub(super) pos: bool,
    pub(super) a: T,
    pub(super) b: Option<T>,
}

pub(super) type Clause = Vec<L>;

/// Symbols by (name, arity, is-predicate).
#[derive(Default)]
pub(super) struct Syms {
    pub(super) names: Vec<(String, u32, bool)>,
    pub(super) map: HashMap<(String, u32, bool), u32>,
}

impl Syms {
    pub(super) fn id(&mut self, name: &str, arity: u32, pred: bool) -> u32 {
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

pub(super) fn max_var(t: &T) -> Option<u32> {
    match t {
        T::V(i) => Some(*i),
        T::F(_, args) => args.iter().filter_map(max_var).max(),
    }
}

pub(super) fn clause_vars(c: &Clause) -> u32 {
    c.iter()
        .flat_map(|l| [max_var(&l.a), l.b.as_ref().and_then(max_var)])
        .flatten()
        .max()
        .map_or(0, |m| m + 1)
}

pub(super) fn shift(t: &T, by: u32) -> T {
    match t {
        T::V(i) => T::V(i + by),
        T::F(f, args) => T::F(*f, args.iter().map(|a| shift(a, by)).collect()),
    }
}

pub(super) fn shift_clause(c: &Clause, by: u32) -> Clause {
    c.iter()
        .map(|l| L {
            pos: l.pos,
            a: shift(&l.a, by),
            b: l.b.as_ref().map(|b| shift(b, by)),
        })
        .collect()
}

pub(super) type Sub = Vec<Option<T>>;

pub(super) fn deref<'a>(mut t: &'a T, s: &'a Sub) -> &'a T {
    while let T::V(i) = t {
        match s.get(*i as usize).and_then(|x| x.as_ref()) {
            Some(u) => t = u,
            None => break,
        }
    }
    t
}

pub(super) fn occurs(v: u32, t: &T, s: &Sub) -> bool {
    match deref(t, s) {
        T::V(i) => *i == v,
        T::F(_, args) => args.iter().any(|a| occurs(v, a, s)),
    }
}

pub(super) fn bind(s: &mut Sub, v: u32, t: T) {
    if s.len() <= v as usize {
        s.resize(v as usize + 1, None);
    }
    s[v as usize] = Some(t);
}

pub(super) fn unify(a: &T, b: &T, s: &mut Sub) -> bool {
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

pub(super) fn apply(t: &T, s: &Sub) -> T {
    match deref(t, s) {
        T::V(i) => T::V(*i),
        T::F(f, args) => T::F(*f, args.iter().map(|a| apply(a, s)).collect()),
    }
}

pub(super) fn apply_lit(l: &L, s: &Sub) -> L {
    L {
        pos: l.pos,
        a: apply(&l.a, s),
        b: l.b.as_ref().map(|b| apply(b, s)),
    }
}

/// One-way matching: binds variables of `pat` only; `t` is rigid.
pub(super) fn matches(pat: &T, t: &T, m: &mut Sub) -> bool {
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
pub(super) fn instantiate(t: &T, m: &Sub) -> Option<T> {
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

pub(super) fn subterm_positions(t: &T, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if let T::F(_, args) = t {
        out.push(path.clone());
        for (i, a) in args.iter().enumerate() {
            path.push(i);
            subterm_positions(a, path, out);
            path.pop();
        }
    }
}

pub(super) fn at<'a>(t: &'a T, path: &[usize]) -> &'a T {
    match path.split_first() {
        None => t,
        Some((&i, rest)) => match t {
            T::F(_, args) => at(&args[i], rest),
            T::V(_) => unreachable!("position below a variable"),
        },
    }
}

pub(super) fn replace_at(t: &T, path: &[usize], by: &T) -> T {
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
pub(super) fn sides(l: &L) -> Vec<(bool, &T)> {
    let mut v = vec![(false, &l.a)];
    if let Some(b) = &l.b {
        v.push((true, b));
    }
    v
}

pub(super) fn with_side(l: &L, right: bool, t: T) -> L {
    let mut n = l.clone();
    if right {
        n.b = Some(t);
    } else {
        n.a = t;
    }
    n
}

/// Orientations `(l, r)` of a positive equation.
pub(super) fn orientations(l: &L) -> Vec<(&T, &T)> {
    match &l.b {
        Some(b) => vec![(&l.a, b), (b, &l.a)],
        None => Vec::new(),
    }
}

pub(super) fn without(c: &Clause, skip: &[usize]) -> Clause {
    c.iter()
        .enumerate()
        .filter(|(i, _)| !skip.contains(i))
        .map(|(_, l)| l.clone())
        .collect()
}

pub(super) fn finish(lits: impl IntoIterator<Item = L>, s: &Sub) -> Clause {
    normal(lits.into_iter().map(|l| apply_lit(&l, s)).collect())
}

/// Canonical literal set: equations with the smaller side first, sorted,
/// duplicates removed.
pub(super) fn normal(mut c: Clause) -> Clause {
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

pub(super) fn lit_matches(p: &L, t: &L, m: &Sub) -> Vec<Sub> {
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

/// Literal matches one [`variant`] test may try (each of its two
/// subsumption searches); past it the test ends out of budget. Variants
/// of the prover's clauses match in a few hundred.
pub(super) const VARIANT_WORK: u64 = 1 << 18;

/// True if some substitution maps every literal of `c` into `d`; `Err`
/// once `budget` literal matches have been tried (backtracking can be
/// exponential in the clause length).
pub(super) fn subsumes(c: &[L], d: &[L], m: &Sub, budget: &mut u64) -> Result<bool, ()> {
    let Some((first, rest)) = c.split_first() else {
        return Ok(true);
    };
    for t in d {
        if *budget == 0 {
            return Err(());
        }
        *budget -= 1;
        for m2 in lit_matches(first, t, m) {
            if subsumes(rest, d, &m2, budget)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// True if every binding of `m` is a variable and no two share one (the
/// matcher so far is an injective renaming).
fn is_renaming(m: &Sub) -> bool {
    let mut seen: Vec<u32> = Vec::new();
    for t in m.iter().flatten() {
        match t {
            T::V(v) if !seen.contains(v) => seen.push(*v),
            _ => return false,
        }
    }
    true
}

/// A renaming of `c`'s variables and a one-to-one map of its literals onto
/// `d`'s (of the same length), by backtracking that always extends the
/// literal of `c` with the fewest partners left (so clauses of many alike
/// literals, such as long Horn clauses over one predicate, resolve their
/// variables from the most constrained literal on). `Err` once `budget`
/// literal matches were tried.
fn renaming_onto(
    c: &[L],
    d: &[L],
    done: &mut [bool],
    used: &mut [bool],
    m: &Sub,
    budget: &mut u64,
) -> Result<bool, ()> {
    let mut best: Option<(usize, Vec<(usize, Sub)>)> = None;
    for (i, l) in c.iter().enumerate() {
        if done[i] {
            continue;
        }
        let mut options = Vec::new();
        for (j, t) in d.iter().enumerate() {
            if used[j] {
                continue;
            }
            *budget = budget.checked_sub(1).ok_or(())?;
            options.extend(
                lit_matches(l, t, m)
                    .into_iter()
                    .filter(is_renaming)
                    .map(|m2| (j, m2)),
            );
        }
        if options.is_empty() {
            return Ok(false);
        }
        let fewer = best.as_ref().is_none_or(|(_, o)| options.len() < o.len());
        if fewer {
            let single = options.len() == 1;
            best = Some((i, options));
            if single {
                break;
            }
        }
    }
    let Some((i, options)) = best else {
        return Ok(true);
    };
    done[i] = true;
    for (j, m2) in options {
        used[j] = true;
        if renaming_onto(c, d, done, used, &m2, budget)? {
            return Ok(true);
        }
        used[j] = false;
    }
    done[i] = false;
    Ok(false)
}

/// Equal up to variable renaming (as literal sets); an out-of-budget
/// error past [`VARIANT_WORK`] literal matches. A renaming is searched
/// most constrained literal first; only when that search runs out of its
/// budget does two-way subsumption decide.
pub(super) fn variant(c: &Clause, d: &Clause) -> Result<bool, CheckError> {
    let (c, d) = (normal(c.clone()), normal(d.clone()));
    if c.len() != d.len() {
        return Ok(false);
    }
    let mut budget = VARIANT_WORK;
    let (mut done, mut used) = (vec![false; c.len()], vec![false; d.len()]);
    // Both sides are duplicate-free and of one length, so a renaming of
    // `c` onto `d` as sets maps literals one to one: a finished search
    // decides.
    if let Ok(found) = renaming_onto(&c, &d, &mut done, &mut used, &Sub::new(), &mut budget) {
        return Ok(found);
    }
    let out = || {
        CheckError::exhausted(format!(
            "a variant test of two {}-literal clauses ran out of its work budget ({VARIANT_WORK} literal matches)",
            c.len()
        ))
    };
    let mut budget = VARIANT_WORK;
    if !subsumes(&c, &d, &Sub::new(), &mut budget).map_err(|()| out())? {
        return Ok(false);
    }
    let mut budget = VARIANT_WORK;
    subsumes(&d, &c, &Sub::new(), &mut budget).map_err(|()| out())
}
