//! Equality factoring: from `C ∨ s = t ∨ s' = t'` with `σ = mgu(s, s')`,
//! `sσ` not smaller than `tσ` and `s = t` maximal, derive
//! `(C ∨ t != t' ∨ s' = t')σ` (Bachmair & Ganzinger 1994).

use super::Infer;
use crate::logic::{Literal, Renaming, TermOrder};
use crate::saturation::store::{ClauseId, Rule};

/// All equality factoring conclusions of the given clause.
pub fn generate(cx: &mut Infer<'_>, given: ClauseId) {
    let Some(info) = cx.active.info(given) else {
        return;
    };
    let elig = info.elig;
    let lits = cx.store.clause(given).lits.clone();
    if lits.len() < 2 {
        return;
    }
    for (i, a) in lits.iter().enumerate() {
        if !a.pos || !a.is_equational(cx.bank) || !elig.positive_ok(i) {
            continue;
        }
        let a_oriented = cx.kbo.compare(cx.bank, a.lhs, a.rhs) == TermOrder::Greater;
        let a_sides: &[(u8, u8)] = if a_oriented {
            &[(0, 1)]
        } else {
            &[(0, 1), (1, 0)]
        };
        for (j, b) in lits.iter().enumerate() {
            if j == i || !b.pos || !b.is_equational(cx.bank) {
                continue;
            }
            for &(sa, ta) in a_sides {
                for (sb, tb) in [(0u8, 1u8), (1, 0)] {
                    if cx.exhausted() {
                        cx.subst.clear();
                        return;
                    }
                    let side = |l: &Literal, k: u8| if k == 0 { l.lhs } else { l.rhs };
                    let (s, t, s2, t2) = (side(a, sa), side(a, ta), side(b, sb), side(b, tb));
                    cx.subst.clear();
                    if !cx.subst.unify(cx.bank, s, 0, s2, 0) {
                        continue;
                    }
                    let mut ren = Renaming::new();
                    let ss = cx.subst.apply(cx.bank, s, 0, &mut ren);
                    let ts = cx.subst.apply(cx.bank, t, 0, &mut ren);
                    if matches!(
                        cx.kbo.compare(cx.bank, ss, ts),
                        TermOrder::Less | TermOrder::Equal
                    ) {
                        continue;
                    }
                    let mut inst = cx.instantiate(given, 0, &mut ren);
                    if !cx.still_maximal(given, &inst, i, false) {
                        continue;
                    }
                    let t2s = cx.subst.apply(cx.bank, t2, 0, &mut ren);
                    inst[i] = Literal::eq(ts, t2s, false);
                    cx.emit(inst, Rule::EqualityFactoring, &[given]);
                }
            }
        }
    }
    cx.subst.clear();
}
