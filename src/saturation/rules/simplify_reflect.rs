//! Simplify-reflect (unit-resulting literal deletion): a literal whose
//! complement is an instance of a unit clause is deleted, e.g. `C ∨ s != t`
//! with a unit `l = r` and `lσ = s`, `rσ = t` simplifies to `C`. Also deletes
//! trivial disequations `s != s` and equations `v1 = v2` between distinct
//! objects or numbers of different values (see
//! [`crate::logic::DistinctValue`]).

use crate::logic::{Head, Literal, Matcher, TermBank};
use crate::saturation::active::ActiveSet;
use crate::saturation::fingerprint::Query;
use crate::saturation::store::{ClauseId, ClauseStore, SimpDetail, SimpStep};

/// Deletes literals refuted by active units; records the steps (and, when
/// `detail` is given, which literal each step deleted). Returns true if
/// something was deleted.
#[allow(clippy::too_many_arguments)]
pub fn simplify(
    bank: &TermBank,
    active: &ActiveSet,
    store: &ClauseStore,
    matcher: &mut Matcher,
    lits: &mut Vec<Literal>,
    used: &mut Vec<SimpStep>,
    exclude: Option<ClauseId>,
    mut detail: Option<&mut Vec<SimpDetail>>,
) -> bool {
    let before = lits.len();
    let mut trivial = false;
    lits.retain(|l| {
        let t = !l.pos && l.lhs == l.rhs;
        trivial |= t;
        !t
    });
    if trivial {
        used.push(SimpStep::TrivialDisequation);
        if let Some(d) = detail.as_deref_mut() {
            d.push(SimpDetail::Trivial);
        }
    }
    let mut i = 0;
    while i < lits.len() {
        if lits[i].pos && distinct_pair(bank, &lits[i]) {
            used.push(SimpStep::DistinctValues);
            if let Some(d) = detail.as_deref_mut() {
                d.push(SimpDetail::Distinct { lit: i as u32 });
            }
            lits.remove(i);
        } else {
            i += 1;
        }
    }
    if !active.units_pos.is_empty() || !active.units_neg.is_empty() {
        let mut i = 0;
        while i < lits.len() {
            match refuting_unit(bank, active, store, matcher, &lits[i], exclude) {
                Some(u) => {
                    used.push(SimpStep::SimplifyReflect(u));
                    if let Some(d) = detail.as_deref_mut() {
                        d.push(SimpDetail::Reflect { lit: i as u32 });
                    }
                    lits.remove(i);
                }
                None => i += 1,
            }
        }
    }
    lits.len() != before
}

/// True if the literal's sides are two distinct objects or numbers of
/// different values (the literal is false if positive, true if negative).
pub fn distinct_pair(bank: &TermBank, l: &Literal) -> bool {
    match (bank.head(l.lhs), bank.head(l.rhs)) {
        (Head::Sym(a), Head::Sym(b)) => bank.sig.distinct_values(a, b),
        _ => false,
    }
}

/// True if the clause has a disequation between different distinct values,
/// making it a tautology.
pub fn distinct_tautology(bank: &TermBank, lits: &[Literal]) -> bool {
    lits.iter().any(|l| !l.pos && distinct_pair(bank, l))
}

/// A unit clause whose literal, instantiated, is the complement of `l`.
pub fn refuting_unit(
    bank: &TermBank,
    active: &ActiveSet,
    store: &ClauseStore,
    matcher: &mut Matcher,
    l: &Literal,
    exclude: Option<ClauseId>,
) -> Option<ClauseId> {
    let eq = l.is_equational(bank);
    let keys: &[_] = if eq { &[l.lhs, l.rhs] } else { &[l.lhs] };
    let mut found = None;
    for &k in keys {
        active
            .units(!l.pos)
            .candidates(bank, k, Query::Generalizations, &mut |_, e| {
                if found.is_some() || Some(e.clause) == exclude || e.side != 0 {
                    return;
                }
                let u = store.clause(e.clause).lits[0];
                if u.pos == l.pos || u.is_equational(bank) != eq {
                    return;
                }
                let mut try_pair = |a, b| {
                    matcher.clear();
                    matcher.matches(bank, u.lhs, a) && matcher.matches(bank, u.rhs, b)
                };
                if try_pair(l.lhs, l.rhs) || (eq && try_pair(l.rhs, l.lhs)) {
                    found = Some(e.clause);
                }
            });
        if found.is_some() {
            break;
        }
    }
    found
}
