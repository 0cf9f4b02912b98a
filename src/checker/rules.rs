//! The inference and simplification rules the checker re-derives steps with,
//! checked for soundness only (no ordering restrictions): resolution,
//! factoring, equality resolution and factoring, superposition, rewriting,
//! simplify-reflect; and the distinct-value semantics of numbers and
//! distinct objects (TPTP: different values denote different elements).

use super::terms::{
    Clause, L, Sub, Syms, T, at, finish, instantiate, matches, normal, orientations, replace_at,
    sides, subterm_positions, unify, with_side, without,
};

pub(super) fn resolution(p: &Clause, q: &Clause, out: &mut Vec<Clause>) {
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

pub(super) fn factoring(p: &Clause, out: &mut Vec<Clause>) {
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

pub(super) fn equality_resolution(p: &Clause, out: &mut Vec<Clause>) {
    for (i, l) in p.iter().enumerate() {
        if let (false, Some(b)) = (l.pos, &l.b) {
            let mut s = Sub::new();
            if unify(&l.a, b, &mut s) {
                out.push(finish(without(p, &[i]), &s));
            }
        }
    }
}

pub(super) fn equality_factoring(p: &Clause, out: &mut Vec<Clause>) {
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
pub(super) struct Redex<'a> {
    pub(super) lit: usize,
    pub(super) right: bool,
    pub(super) side: &'a T,
    pub(super) pos: Vec<usize>,
}

/// Every non-variable subterm position of `c`. Variables range over terms,
/// so the root of a predicate atom is never a redex.
pub(super) fn redexes(c: &Clause) -> Vec<Redex<'_>> {
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
pub(super) fn rewritten(c: &Clause, x: &Redex<'_>, by: &T) -> L {
    with_side(&c[x.lit], x.right, replace_at(x.side, &x.pos, by))
}

/// Superposition of a positive equation of `from` into any non-variable
/// subterm of `into` (both parents already renamed apart).
pub(super) fn superposition(from: &Clause, into: &Clause, out: &mut Vec<Clause>) {
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
pub(super) fn rewrites(unit: &Clause, c: &Clause, out: &mut Vec<Clause>) {
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
pub(super) fn reflections(unit: &Clause, c: &Clause, out: &mut Vec<Clause>) {
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

/// The value a constant named `name` denotes if it is a distinct object
/// (`"a"`) or a TPTP number, as a canonical text: objects by their quoted
/// text; integers, rationals (in lowest terms) and reals (significant digits
/// and exponent) by exact value, each kind apart from the others (as the
/// disjoint `$int`, `$rat`, `$real` of typed TPTP). `None` for other names.
pub(super) fn distinct_value(name: &str) -> Option<String> {
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
pub(super) fn distinct_constants(syms: &Syms, a: &T, b: &T) -> bool {
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
pub(super) fn false_distinct_equation(syms: &Syms, l: &L) -> bool {
    l.pos
        && l.b
            .as_ref()
            .is_some_and(|b| distinct_constants(syms, &l.a, b))
}

/// `c` without its trivial disequations `s != s`, the negated truth `~$true`
/// included (the search reads atoms as equations with `$true`, so `~$true`
/// is its `$true != $true`).
pub(super) fn drop_trivial_disequations(syms: &Syms, c: &Clause) -> Clause {
    let truth = syms.map.get(&("$true".to_string(), 0, true)).copied();
    c.iter()
        .filter(|l| {
            let false_truth = matches!((&l.a, &l.b, truth), (T::F(f, args), None, Some(t)) if *f == t && args.is_empty());
            l.pos || (l.b.as_ref() != Some(&l.a) && !false_truth)
        })
        .cloned()
        .collect()
}
