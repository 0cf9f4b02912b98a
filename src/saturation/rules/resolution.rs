//! Ordered resolution on predicate literals: from `C ∨ A` and `D ∨ ~B` with
//! `σ = mgu(A, B)` derive `(C ∨ D)σ`, when `A` is strictly maximal (no
//! selection) and `~B` is selected or maximal.

use super::{Infer, Pending};
use crate::logic::Bank;
use crate::saturation::active::LitEntry;
use crate::saturation::store::{ClauseId, Rule};
use smallvec::SmallVec;

/// All resolvents of the given clause with active clauses (itself included).
pub fn generate(cx: &mut Infer<'_>, given: ClauseId) {
    let Some(info) = cx.active.info(given) else {
        return;
    };
    let elig = info.elig;
    let n = cx.store.clause(given).len();
    let mut cands: bumpalo::collections::Vec<'_, LitEntry> =
        bumpalo::collections::Vec::new_in(cx.bump);
    for i in 0..n {
        let l = cx.store.clause(given).lits[i];
        if l.is_equational(cx.bank) || !elig.ok(i, l.pos) {
            continue;
        }
        cands.clear();
        let idx = if l.pos {
            &cx.active.res_neg
        } else {
            &cx.active.res_pos
        };
        idx.candidates(
            cx.bank,
            l.lhs,
            crate::saturation::fingerprint::Query::Unifiable,
            &mut |_, e| cands.push(e),
        );
        for &e in &cands {
            if cx.exhausted() {
                cx.subst.clear();
                return;
            }
            // Self-resolution is found from the positive literal only.
            if !l.pos && e.clause == given {
                continue;
            }
            resolve(cx, (given, i, 0), (e.clause, e.lit as usize, 1));
        }
    }
    cx.subst.clear();
}

/// Resolves literal `a.1` of clause `a.0` (bank `a.2`) with literal `b.1` of
/// clause `b.0` (bank `b.2`); the literals must have opposite polarity.
pub(crate) fn resolve(cx: &mut Infer<'_>, a: (ClauseId, usize, Bank), b: (ClauseId, usize, Bank)) {
    let la = cx.store.clause(a.0).lits[a.1];
    let lb = cx.store.clause(b.0).lits[b.1];
    cx.subst.clear();
    if !cx.subst.unify(cx.bank, la.lhs, a.2, lb.lhs, b.2) {
        return;
    }
    if !cx.maximal_after_unification(a.0, a.2, a.1, la.pos)
        || !cx.maximal_after_unification(b.0, b.2, b.1, lb.pos)
    {
        return;
    }
    let store = cx.store;
    let mut pending: SmallVec<[Pending<'_>; 8]> = SmallVec::new();
    for (c, skip, bank) in [a, b] {
        for (k, &lit) in store.clause(c).lits.iter().enumerate() {
            if k != skip {
                pending.push(Pending {
                    lit,
                    bank,
                    repl: None,
                });
            }
        }
    }
    let lits = cx.build_conclusion(&pending);
    cx.emit(lits, Rule::Resolution, &[a.0, b.0]);
}
