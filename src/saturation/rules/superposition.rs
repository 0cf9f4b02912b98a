//! Superposition: from `C ∨ l = r` and `D ∨ L[u]` with `σ = mgu(l, u)`, `u`
//! not a variable, `lσ` not smaller than `rσ`, derive `(C ∨ D ∨ L[r])σ`.
//! Into a positive equation only on its maximal side; `l = r` must be
//! strictly maximal (no selection), `L` selected or (strictly, if positive)
//! maximal (Bachmair & Ganzinger 1994; Nieuwenhuis & Rubio, Handbook of
//! Automated Reasoning ch. 7, 2001).

use super::{Infer, Pending};
use crate::logic::{Bank, Literal, Replace, TermOrder};
use crate::saturation::active::{FromEntry, IntoEntry, Position};
use crate::saturation::fingerprint::Query;
use crate::saturation::store::{ClauseId, Rule};
use smallvec::SmallVec;

/// A superposition partner from an equation: clause, literal, which side is `l`.
#[derive(Copy, Clone, Debug)]
pub struct From {
    /// The clause holding `l = r`.
    pub clause: ClauseId,
    /// The literal index.
    pub lit: usize,
    /// 0 when `l` is the lhs, 1 when it is the rhs.
    pub side: u8,
    /// `l` is bigger than `r` in the term ordering (no check needed).
    pub oriented: bool,
    /// Variable bank.
    pub bank: Bank,
}

/// A superposition target: clause, literal, side and position of `u`.
#[derive(Clone, Debug)]
pub struct Into {
    /// The clause holding `L[u]`.
    pub clause: ClauseId,
    /// The literal index.
    pub lit: usize,
    /// 0 = inside the lhs, 1 = inside the rhs.
    pub side: u8,
    /// Position of `u` within that side.
    pub pos: Position,
    /// The literal is an equation whose side `side` is bigger than the other.
    pub oriented: bool,
    /// Variable bank.
    pub bank: Bank,
}

fn side_terms(l: &Literal, side: u8) -> (crate::logic::TermId, crate::logic::TermId) {
    if side == 0 {
        (l.lhs, l.rhs)
    } else {
        (l.rhs, l.lhs)
    }
}

/// All superpositions between the given clause and the active set, in both
/// directions (the given clause against a copy of itself included once).
pub fn generate(cx: &mut Infer<'_>, given: ClauseId) {
    let Some(info) = cx.active.info(given) else {
        return;
    };
    let elig = info.elig;
    let lits = cx.store.clause(given).lits.clone();
    // Given clause as the equation: into active subterms.
    let bump = cx.bump;
    let mut into_cands: bumpalo::collections::Vec<'_, IntoEntry> =
        bumpalo::collections::Vec::new_in(bump);
    for (i, l) in lits.iter().enumerate() {
        if !l.pos || !l.is_equational(cx.bank) || !elig.positive_ok(i) {
            continue;
        }
        let oriented = cx.kbo.compare(cx.bank, l.lhs, l.rhs) == TermOrder::Greater;
        for side in [0u8, 1] {
            if side == 1 && oriented {
                continue;
            }
            // A variable side (`X = t`, X not in t, so both sides are
            // maximal) superposes into every non-variable term position:
            // completeness needs it, e.g. for `X = a | p(Y)`.
            let (lt, _) = side_terms(l, side);
            into_cands.clear();
            cx.active
                .sup_into
                .candidates(cx.bank, lt, Query::Unifiable, &mut |_, e| {
                    into_cands.push(e)
                });
            for e in into_cands.iter() {
                if cx.exhausted() {
                    break;
                }
                let into = Into {
                    clause: e.clause,
                    lit: e.lit as usize,
                    side: e.side,
                    pos: cx.active.position(e.pos),
                    oriented: e.oriented,
                    bank: 1,
                };
                superpose(
                    cx,
                    From {
                        clause: given,
                        lit: i,
                        side,
                        oriented: side == 0 && oriented,
                        bank: 0,
                    },
                    &into,
                );
            }
        }
    }
    // Active equations into the given clause.
    let mut from_cands: bumpalo::collections::Vec<'_, FromEntry> =
        bumpalo::collections::Vec::new_in(bump);
    for (j, l) in lits.iter().enumerate() {
        if !elig.ok(j, l.pos) {
            continue;
        }
        let eq = l.is_equational(cx.bank);
        let oriented = eq && cx.kbo.compare(cx.bank, l.lhs, l.rhs) == TermOrder::Greater;
        for side in [0u8, 1] {
            if side == 1 && (!eq || oriented) {
                continue;
            }
            let (st, _) = side_terms(l, side);
            // Positions are copied only for subterms some active equation
            // may unify with: copying every position of a deep term costs
            // the square of its depth.
            let mut subs: Vec<(Position, usize)> = Vec::new();
            from_cands.clear();
            {
                let bank: &crate::logic::TermBank = cx.bank;
                let active = cx.active;
                bank.for_each_nonvar_subterm(st, &mut |u, p| {
                    if eq || !p.is_empty() {
                        let start = from_cands.len();
                        active
                            .sup_from
                            .candidates(bank, u, Query::Unifiable, &mut |_, e| from_cands.push(e));
                        if from_cands.len() > start {
                            subs.push((p.into(), start));
                        }
                    }
                });
            }
            let mut ends: Vec<usize> = subs.iter().skip(1).map(|s| s.1).collect();
            ends.push(from_cands.len());
            for ((pos, start), end) in subs.into_iter().zip(ends) {
                let into = Into {
                    clause: given,
                    lit: j,
                    side,
                    pos,
                    oriented: side == 0 && oriented,
                    bank: 0,
                };
                for e in &from_cands[start..end] {
                    if cx.exhausted() {
                        cx.subst.clear();
                        return;
                    }
                    if e.clause == given {
                        continue;
                    }
                    let from = From {
                        clause: e.clause,
                        lit: e.lit as usize,
                        side: e.side,
                        oriented: e.oriented,
                        bank: 1,
                    };
                    superpose(cx, from, &into);
                }
            }
        }
    }
    cx.subst.clear();
}

/// One superposition inference, if its unifier and ordering conditions hold.
pub fn superpose(cx: &mut Infer<'_>, from: From, into: &Into) {
    let fl = cx.store.clause(from.clause).lits[from.lit];
    let il = cx.store.clause(into.clause).lits[into.lit];
    let (l, r) = side_terms(&fl, from.side);
    let (s, t) = side_terms(&il, into.side);
    let u = cx.bank.at(s, &into.pos);
    cx.subst.clear();
    if !cx.subst.unify(cx.bank, l, from.bank, u, into.bank) {
        return;
    }
    // The ordering conditions, on instances compared without building them,
    // and only when the literal is not oriented already.
    debug_assert_eq!(
        from.oriented,
        from.side == 0 && cx.kbo.compare(cx.bank, fl.lhs, fl.rhs) == TermOrder::Greater
    );
    if !from.oriented
        && matches!(
            cx.kbo
                .compare_inst(cx.bank, cx.subst, l, from.bank, r, from.bank),
            TermOrder::Less | TermOrder::Equal
        )
    {
        return;
    }
    if il.is_equational(cx.bank) {
        debug_assert_eq!(
            into.oriented,
            into.side == 0 && cx.kbo.compare(cx.bank, il.lhs, il.rhs) == TermOrder::Greater
        );
        if !into.oriented {
            let o = cx
                .kbo
                .compare_inst(cx.bank, cx.subst, s, into.bank, t, into.bank);
            if o == TermOrder::Less || (il.pos && o == TermOrder::Equal) {
                return;
            }
        }
    }
    if !cx.maximal_after_unification(from.clause, from.bank, from.lit, true)
        || !cx.maximal_after_unification(into.clause, into.bank, into.lit, il.pos)
    {
        return;
    }
    let store = cx.store;
    let mut pending: SmallVec<[Pending<'_>; 8]> = SmallVec::new();
    for (k, &lit) in store.clause(from.clause).lits.iter().enumerate() {
        if k != from.lit {
            pending.push(Pending {
                lit,
                bank: from.bank,
                repl: None,
            });
        }
    }
    for (k, &lit) in store.clause(into.clause).lits.iter().enumerate() {
        let repl = (k == into.lit).then_some((
            into.side,
            Replace {
                pos: &into.pos,
                by: r,
                by_bank: from.bank,
            },
        ));
        pending.push(Pending {
            lit,
            bank: into.bank,
            repl,
        });
    }
    let lits = cx.build_conclusion(&pending);
    cx.emit(lits, Rule::Superposition, &[from.clause, into.clause]);
}
