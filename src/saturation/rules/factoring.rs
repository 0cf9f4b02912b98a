//! Ordered factoring of positive predicate literals: from `C ∨ A ∨ B` with
//! `σ = mgu(A, B)` and `A` maximal derive `(C ∨ A)σ`. (Factoring of positive
//! equations is equality factoring.)

use super::Infer;
use crate::logic::Renaming;
use crate::saturation::store::{ClauseId, Rule};

/// All factors of the given clause.
pub fn generate(cx: &mut Infer<'_>, given: ClauseId) {
    let Some(info) = cx.active.info(given) else {
        return;
    };
    let elig = info.elig;
    let lits = cx.store.clause(given).lits.clone();
    for (i, a) in lits.iter().enumerate() {
        if !a.pos || a.is_equational(cx.bank) || !elig.positive_ok(i) {
            continue;
        }
        for (j, b) in lits.iter().enumerate() {
            if cx.exhausted() {
                cx.subst.clear();
                return;
            }
            if j == i
                || !b.pos
                || b.is_equational(cx.bank)
                || cx.bank.head_code(a.lhs) != cx.bank.head_code(b.lhs)
            {
                continue;
            }
            cx.subst.clear();
            if !cx.subst.unify(cx.bank, a.lhs, 0, b.lhs, 0) {
                continue;
            }
            let mut ren = Renaming::new();
            let mut inst = cx.instantiate(given, 0, &mut ren);
            if cx.still_maximal(given, &inst, i, false) {
                inst.remove(j);
                cx.emit(inst, Rule::Factoring, &[given]);
            }
        }
    }
    cx.subst.clear();
}
