//! KBO on instances under a substitution, without building them: the
//! post-unification ordering checks of the superposition calculus
//! (Löchner, "Things to know when implementing KBO", JAR 36, 2006).

use super::super::literal::Literal;
use super::super::subst::{Bank, Subst};
use super::super::term::{TermBank, TermId};
use super::*;

/// A term under a substitution: the instance of `.0` with variables in
/// bank `.1` (see [`Subst`]).
pub(super) type Inst = (TermId, Bank);

impl Kbo {
    /// Compares the instances `σ(s)` and `σ(t)` of two terms under `sub`
    /// (variables of `s` in bank `bs`, of `t` in bank `bt`) without building
    /// them: the same answer as [`Kbo::compare`] on the built instances.
    /// The post-unification ordering checks of the calculus use it, so an
    /// inference that fails them leaves nothing in the term bank.
    pub fn compare_inst(
        &self,
        bank: &TermBank,
        sub: &Subst,
        s: TermId,
        bs: Bank,
        t: TermId,
        bt: Bank,
    ) -> TermOrder {
        let (s, bs) = sub.deref(bank, s, bs);
        let (t, bt) = sub.deref(bank, t, bt);
        if s == t && (bs == bt || bank.is_ground(s)) {
            return TermOrder::Equal;
        }
        match (bank.var_index(s), bank.var_index(t)) {
            (Some(v), Some(w)) => {
                if v == w && bs == bt {
                    TermOrder::Equal
                } else {
                    TermOrder::Incomparable
                }
            }
            (Some(v), None) => {
                if occurs_inst(bank, sub, v, bs, t, bt) {
                    TermOrder::Less
                } else {
                    TermOrder::Incomparable
                }
            }
            (None, Some(w)) => {
                if occurs_inst(bank, sub, w, bt, s, bs) {
                    TermOrder::Greater
                } else {
                    TermOrder::Incomparable
                }
            }
            (None, None) => {
                let mut bal: smallvec::SmallVec<[i32; 32]> = smallvec::SmallVec::new();
                let ws = weigh_inst(bank, sub, s, bs, 1, &mut bal);
                let wt = weigh_inst(bank, sub, t, bt, -1, &mut bal);
                let s_ge = bal.iter().all(|&b| b >= 0);
                let t_ge = bal.iter().all(|&b| b <= 0);
                self.decide(
                    ws.cmp(&wt),
                    (bank.sym(s), bank.sym(t)),
                    s_ge,
                    t_ge,
                    bank.arity(s),
                    |i| self.compare_inst(bank, sub, bank.arg(s, i), bs, bank.arg(t, i), bt),
                )
            }
        }
    }

    /// [`Kbo::compare_lits`] on the instances of two literals whose
    /// variables are all in bank `b`, without building them.
    pub fn compare_lits_inst(
        &self,
        bank: &TermBank,
        sub: &Subst,
        a: &Literal,
        b: &Literal,
        bk: Bank,
    ) -> TermOrder {
        if !a.is_equational(bank) && !b.is_equational(bank) {
            // Predicate literals: {A, $true} (twice each when negative),
            // and `$true` is below every atom, so the atoms decide, and
            // between equal atoms the negative literal is bigger.
            if eq_inst(bank, sub, a.lhs, bk, b.lhs, bk) {
                return match (a.pos, b.pos) {
                    (x, y) if x == y => TermOrder::Equal,
                    (false, true) => TermOrder::Greater,
                    _ => TermOrder::Less,
                };
            }
            return match self.compare_inst(bank, sub, a.lhs, bk, b.lhs, bk) {
                TermOrder::Equal => TermOrder::Incomparable,
                o => o,
            };
        }
        let inst = |l: &Literal| -> smallvec::SmallVec<[Inst; 4]> {
            lit_multiset(l).into_iter().map(|t| (t, bk)).collect()
        };
        multiset_order(
            &inst(a),
            &inst(b),
            |(x, xb), (y, yb)| eq_inst(bank, sub, x, xb, y, yb),
            |(x, xb), (y, yb)| self.compare_inst(bank, sub, x, xb, y, yb) == TermOrder::Greater,
        )
    }
}

/// True if the instances of `s` and `t` are the same term.
pub(super) fn eq_inst(
    bank: &TermBank,
    sub: &Subst,
    s: TermId,
    bs: Bank,
    t: TermId,
    bt: Bank,
) -> bool {
    let (s, bs) = sub.deref(bank, s, bs);
    let (t, bt) = sub.deref(bank, t, bt);
    if s == t && (bs == bt || bank.is_ground(s)) {
        return true;
    }
    if bank.head_code(s) != bank.head_code(t) || bank.is_var(s) {
        // Different heads, or two distinct variables.
        return false;
    }
    if bank.is_ground(s) && bank.is_ground(t) {
        // Hash-consed ground terms are equal only if identical.
        return false;
    }
    bank.args(s)
        .iter()
        .zip(bank.args(t))
        .all(|(&a, &b)| eq_inst(bank, sub, a, bs, b, bt))
}

/// True if variable `v` of bank `vb` occurs in the instance of `t`.
pub(super) fn occurs_inst(
    bank: &TermBank,
    sub: &Subst,
    v: u32,
    vb: Bank,
    t: TermId,
    tb: Bank,
) -> bool {
    if bank.is_ground(t) {
        return false;
    }
    let (t, tb) = sub.deref(bank, t, tb);
    match bank.var_index(t) {
        Some(w) => w == v && tb == vb,
        None => bank
            .args(t)
            .iter()
            .any(|&a| occurs_inst(bank, sub, v, vb, a, tb)),
    }
}
