//! Equality resolution: from `C ∨ s != t` with `σ = mgu(s, t)` derive `Cσ`,
//! when `s != t` is selected, or maximal in the premise after `σ`.

use super::Infer;
use crate::logic::Renaming;
use crate::saturation::store::{ClauseId, Rule};

/// All equality resolution conclusions of the given clause.
pub fn generate(cx: &mut Infer<'_>, given: ClauseId) {
    let Some(info) = cx.active.info(given) else {
        return;
    };
    let elig = info.elig;
    let n = cx.store.clause(given).len();
    for i in 0..n {
        let l = cx.store.clause(given).lits[i];
        if cx.exhausted() {
            break;
        }
        if l.pos || !l.is_equational(cx.bank) || !elig.negative_ok(i) {
            continue;
        }
        cx.subst.clear();
        if !cx.subst.unify(cx.bank, l.lhs, 0, l.rhs, 0) {
            continue;
        }
        let mut ren = Renaming::new();
        let mut inst = cx.instantiate(given, 0, &mut ren);
        if cx.still_maximal(given, &inst, i, false) {
            inst.remove(i);
            cx.emit(inst, Rule::EqualityResolution, &[given]);
        }
    }
    cx.subst.clear();
}
