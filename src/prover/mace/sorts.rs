//! Sort inference for the finite model finder (Claessen & Sörensson, "New
//! techniques that improve MACE-style finite model finding", 2003, §5):
//! every argument and result position of a symbol and every clause
//! variable gets a sort, positions that share a variable get the same one
//! (union-find), and each sort then has its own domain.
//!
//! Two facts let the finder search the sorts at different sizes and still
//! return an unsorted model of the size it asked for:
//! - a sort into which no function of arity > 0 maps holds only the values
//!   of its constants: restricting a model to them is a substructure, which
//!   keeps every clause true, so the sort needs at most that many elements
//!   (at least one);
//! - a sort none of whose variables is a side of a positive equation in the
//!   input is *free*: adding copies of one of its elements (same rows in
//!   every table, never a function value) keeps every clause true, because
//!   only a positive `X = t` can tell a copy from its original. A free sort
//!   is padded up to the unsorted size; other sorts are searched at exactly
//!   that size.

use super::flat::{Flat, Lit};

/// [`Sorts::fit`]'s answer: the sorts of the new symbols' positions, then
/// of the new clauses' variables.
pub(super) type Fitted = (Vec<Vec<u32>>, Vec<Vec<u32>>);

/// The inferred sorts of a flattened problem.
#[derive(Clone, Debug)]
pub(super) struct Sorts {
    /// Per symbol: the sort of each argument, then (functions) the result.
    pub slots: Vec<Vec<u32>>,
    /// Per clause, per variable: its sort.
    pub vars: Vec<Vec<u32>>,
    /// Per sort: some variable of it is a side of a positive equation.
    pub bounded: Vec<bool>,
    /// Per sort: the most elements it needs, when only constants map into it.
    pub cap: Vec<Option<u32>>,
}

impl Sorts {
    /// Number of sorts.
    pub fn len(&self) -> usize {
        self.bounded.len()
    }

    /// The domain size of sort `s` when the unsorted size is `n`.
    pub fn size(&self, s: u32, n: u32) -> u32 {
        let s = s as usize;
        match self.cap[s] {
            Some(c) if !self.bounded[s] => n.min(c),
            _ => n,
        }
    }

    /// The sorts of the symbols `flat.syms[known..]` and of the variables
    /// of `flat.clauses[clauses]`, when those clauses fit these sorts:
    /// - positions they join to no known sort take `free`, a sort searched
    ///   at the unsorted size ([`Sorts::add_free`]);
    /// - positions of two known sorts may be joined only when both are
    ///   searched at the unsorted size and at most one has constants (its
    ///   least-number canonicity then stays sound); the class takes that
    ///   one, and is searched as the unsorted finder would;
    /// - no sort searched below `max_size` elements (one that only
    ///   constants map into, without a positive equation) may grow, by a
    ///   new constant or function into it or a positive equation on it.
    ///
    /// `None` otherwise (and for a new distinct value): a search of the
    /// clauses needs sorts of its own ([`super::extend`]).
    pub fn fit(
        &self,
        flat: &Flat,
        known: usize,
        clauses: std::ops::Range<usize>,
        max_size: u32,
        free: u32,
    ) -> Option<Fitted> {
        let new = &flat.syms[known..];
        if new.iter().any(|s| s.value) {
            return None;
        }
        let mut slot_base = Vec::with_capacity(new.len());
        let mut nodes = 0u32;
        for s in new {
            slot_base.push(nodes);
            nodes += s.arity + s.fun as u32;
        }
        let cs = &flat.clauses[clauses];
        let mut var_base = Vec::with_capacity(cs.len());
        for c in cs {
            var_base.push(nodes);
            nodes += c.nvars;
        }
        let mut p: Vec<u32> = (0..nodes).collect();
        // (node, sort) for each position of a known symbol.
        let mut bound_to: Vec<(u32, u32)> = Vec::new();
        let mut join = |p: &mut Vec<u32>, var: u32, sym: u32, k: usize| {
            let sym = sym as usize;
            if sym < known {
                bound_to.push((var, self.slots[sym][k]));
            } else {
                union(p, var, slot_base[sym - known] + k as u32);
            }
        };
        for (c, &base) in cs.iter().zip(&var_base) {
            for l in &c.lits {
                match l {
                    Lit::Fun { f, args, res, .. } => {
                        for (k, a) in args.iter().enumerate() {
                            join(&mut p, base + a, *f, k);
                        }
                        join(&mut p, base + res, *f, args.len());
                    }
                    Lit::Pred { p: q, args, .. } => {
                        for (k, a) in args.iter().enumerate() {
                            join(&mut p, base + a, *q, k);
                        }
                    }
                    Lit::Eq { a, b, .. } => union(&mut p, base + a, base + b),
                }
            }
        }
        let grows = |s: u32| {
            let s = s as usize;
            !self.bounded[s] && self.cap[s].is_some_and(|c| c < max_size)
        };
        // Sorts with constants: each has its own least-number canonicity.
        let mut constants = vec![false; self.len()];
        for (sym, sl) in flat.syms[..known].iter().zip(&self.slots) {
            if sym.fun && sym.arity == 0 {
                constants[sl[0] as usize] = true;
            }
        }
        // Per class, the known sorts it joins: one with constants, if
        // any, names the class.
        let mut labels: Vec<Vec<u32>> = vec![Vec::new(); nodes as usize];
        for (node, sort) in bound_to {
            let r = find(&mut p, node) as usize;
            if !labels[r].contains(&sort) {
                labels[r].push(sort);
            }
        }
        let mut label = vec![u32::MAX; nodes as usize];
        for (r, ls) in labels.iter().enumerate() {
            match ls.as_slice() {
                [] => {}
                [s] => label[r] = *s,
                _ => {
                    if ls.iter().any(|&s| grows(s))
                        || ls.iter().filter(|&&s| constants[s as usize]).count() > 1
                    {
                        return None;
                    }
                    label[r] = ls
                        .iter()
                        .copied()
                        .find(|&s| constants[s as usize])
                        .unwrap_or(ls[0]);
                }
            }
        }
        let mut sort_of = |n: u32| {
            let s = label[find(&mut p, n) as usize];
            Some(if s == u32::MAX { free } else { s })
        };
        let slots: Vec<Vec<u32>> = new
            .iter()
            .zip(&slot_base)
            .map(|(s, &b)| {
                (0..s.arity + s.fun as u32)
                    .map(|k| sort_of(b + k))
                    .collect()
            })
            .collect::<Option<_>>()?;
        let vars: Vec<Vec<u32>> = cs
            .iter()
            .zip(&var_base)
            .map(|(c, &b)| (0..c.nvars).map(|v| sort_of(b + v)).collect())
            .collect::<Option<_>>()?;
        let into = new
            .iter()
            .zip(&slots)
            .filter(|(s, _)| s.fun)
            .map(|(s, sl)| sl[s.arity as usize]);
        let equated = cs.iter().zip(&vars).flat_map(|(c, vs)| {
            c.bounded
                .iter()
                .zip(vs)
                .filter(|(b, _)| **b)
                .map(|(_, &s)| s)
        });
        if into.chain(equated).any(grows) {
            return None;
        }
        Some((slots, vars))
    }

    /// Adds a sort of its own, searched at the unsorted size, and returns
    /// it: the sort of symbols no clause of a search constrains.
    pub fn add_free(&mut self) -> u32 {
        self.bounded.push(true);
        self.cap.push(None);
        self.bounded.len() as u32 - 1
    }

    /// True when sort `s` has reached its last size at unsorted size `n`.
    pub fn is_final(&self, s: u32, n: u32) -> bool {
        let s = s as usize;
        !self.bounded[s] && self.cap[s].is_some_and(|c| c <= n)
    }
}

fn find(p: &mut [u32], mut i: u32) -> u32 {
    while p[i as usize] != i {
        p[i as usize] = p[p[i as usize] as usize];
        i = p[i as usize];
    }
    i
}

fn union(p: &mut [u32], a: u32, b: u32) {
    let (a, b) = (find(p, a), find(p, b));
    p[a.max(b) as usize] = a.min(b);
}

/// Infers the sorts of `flat`. Distinct values share one sort, so the
/// finder can keep them on distinct elements.
pub(super) fn infer(flat: &Flat) -> Sorts {
    // Nodes: symbol slots first, then every clause's variables.
    let mut slot_base = Vec::with_capacity(flat.syms.len());
    let mut nodes = 0u32;
    for s in &flat.syms {
        slot_base.push(nodes);
        nodes += s.arity + s.fun as u32;
    }
    let mut var_base = Vec::with_capacity(flat.clauses.len());
    for c in &flat.clauses {
        var_base.push(nodes);
        nodes += c.nvars;
    }
    let mut p: Vec<u32> = (0..nodes).collect();
    let mut first_value: Option<u32> = None;
    for (i, s) in flat.syms.iter().enumerate() {
        if s.value {
            let r = slot_base[i] + s.arity;
            match first_value {
                None => first_value = Some(r),
                Some(v) => union(&mut p, v, r),
            }
        }
    }
    for (c, base) in flat.clauses.iter().zip(&var_base) {
        for l in &c.lits {
            match l {
                Lit::Fun { f, args, res, .. } => {
                    let sb = slot_base[*f as usize];
                    for (k, a) in args.iter().enumerate() {
                        union(&mut p, base + a, sb + k as u32);
                    }
                    union(&mut p, base + res, sb + args.len() as u32);
                }
                Lit::Pred { p: q, args, .. } => {
                    let sb = slot_base[*q as usize];
                    for (k, a) in args.iter().enumerate() {
                        union(&mut p, base + a, sb + k as u32);
                    }
                }
                Lit::Eq { a, b, .. } => union(&mut p, base + a, base + b),
            }
        }
    }
    // Sorts numbered by first node.
    let mut id = vec![u32::MAX; nodes as usize];
    let mut count = 0u32;
    let mut sort_of = |p: &mut Vec<u32>, n: u32| {
        let r = find(p, n) as usize;
        if id[r] == u32::MAX {
            id[r] = count;
            count += 1;
        }
        id[r]
    };
    let slots: Vec<Vec<u32>> = flat
        .syms
        .iter()
        .zip(&slot_base)
        .map(|(s, &b)| {
            (0..s.arity + s.fun as u32)
                .map(|k| sort_of(&mut p, b + k))
                .collect()
        })
        .collect();
    let vars: Vec<Vec<u32>> = flat
        .clauses
        .iter()
        .zip(&var_base)
        .map(|(c, &b)| (0..c.nvars).map(|v| sort_of(&mut p, b + v)).collect())
        .collect();
    let n = count as usize;
    let mut bounded = vec![false; n];
    for (c, vs) in flat.clauses.iter().zip(&vars) {
        for (v, &b) in c.bounded.iter().enumerate() {
            if b {
                bounded[vs[v] as usize] = true;
            }
        }
    }
    let mut constants = vec![0u32; n];
    let mut open = vec![false; n];
    for (s, sl) in flat.syms.iter().zip(&slots) {
        if s.fun {
            let r = sl[s.arity as usize] as usize;
            if s.arity == 0 {
                constants[r] += 1;
            } else {
                open[r] = true;
            }
        }
    }
    let cap = (0..n)
        .map(|s| (!open[s]).then(|| constants[s].max(1)))
        .collect();
    Sorts {
        slots,
        vars,
        bounded,
        cap,
    }
}

#[cfg(test)]
mod tests {
    use super::super::flat::flatten;
    use super::*;
    use crate::logic::{Literal, TermBank};
    use crate::tptp::parse_clause_str;

    fn sorts(text: &[&str]) -> (Flat, Sorts) {
        sorts_in(text).1
    }

    /// The bank, and the flattening and sorts of `text`.
    fn sorts_in(text: &[&str]) -> (TermBank, (Flat, Sorts)) {
        let mut bank = TermBank::new();
        let cs: Vec<Vec<Literal>> = text
            .iter()
            .map(|t| parse_clause_str(&mut bank, t).expect("clause parses"))
            .collect();
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let f = flatten(&bank, &refs);
        let s = infer(&f);
        (bank, (f, s))
    }

    #[test]
    fn member_separates_points_from_sets() {
        // member(E, S) with E only a point and S only a set; the sets are
        // made by union2, the points only by constant a. T, union2's second
        // argument, meets no other position: a third sort.
        let (bank, (f, s)) = sorts_in(&["member(a, union2(S, T)) | ~member(a, S)"]);
        assert_eq!(s.len(), 3);
        // member's slots: point, set.
        let member = f
            .syms
            .iter()
            .position(|y| y.name.is_some_and(|n| bank.sig.get(n).name == "member"))
            .unwrap();
        let slots = &s.slots[member];
        assert_ne!(slots[0], slots[1]);
        let point = slots[0] as usize;
        assert_eq!(s.cap[point], Some(1));
        assert!(!s.bounded[point]);
        assert_eq!(s.size(point as u32, 5), 1);
    }

    #[test]
    fn positive_variable_equations_bound_their_sort() {
        let (_, s) = sorts(&["X = a | X = b", "p(c)"]);
        // X, a, b share a sort with c (through nothing): p's sort differs.
        let xs = s.vars[0][0] as usize;
        assert!(s.bounded[xs]);
        assert_eq!(s.size(xs as u32, 5), 5);
        assert!(!s.is_final(xs as u32, 5));
    }

    #[test]
    fn distinct_values_share_a_sort() {
        let (f, s) = sorts(&["p(\"a\")", "q(\"b\")"]);
        let values: Vec<u32> = f
            .syms
            .iter()
            .zip(&s.slots)
            .filter(|(y, _)| y.value)
            .map(|(_, sl)| sl[0])
            .collect();
        assert_eq!(values.len(), 2);
        assert_eq!(values[0], values[1]);
        assert_eq!(s.cap[values[0] as usize], Some(2));
    }
}
