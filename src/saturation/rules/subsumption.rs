//! Clause subsumption: `C` subsumes `D` if some `σ` maps the literals of `C`
//! injectively onto literals of `D` (multiset subsumption; equations match
//! in both orientations). Candidates come from the feature-vector index.

use crate::logic::{Clause, Literal, Matcher, TermBank};

/// True if `c` subsumes `d`.
pub fn subsumes(bank: &TermBank, matcher: &mut Matcher, c: &Clause, d: &Clause) -> bool {
    if c.len() > d.len() {
        return false;
    }
    // Cheap necessary condition: every literal of `c` has a possible
    // partner in `d` (same polarity, compatible heads, not lighter).
    let partner = |l: &Literal, t: &Literal| {
        let heads = |a: crate::logic::TermId, b: crate::logic::TermId| {
            bank.is_var(a) || bank.head_code(a) == bank.head_code(b)
        };
        l.pos == t.pos
            && l.weight(bank) <= t.weight(bank)
            && (heads(l.lhs, t.lhs) || (l.is_equational(bank) && heads(l.lhs, t.rhs)))
    };
    if !c.lits.iter().all(|l| d.lits.iter().any(|t| partner(l, t))) {
        return false;
    }
    // Heaviest literals first: they have the fewest partners.
    let mut order: smallvec::SmallVec<[usize; 8]> = (0..c.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(c.lits[i].weight(bank)));
    let mut used: smallvec::SmallVec<[bool; 16]> = smallvec::smallvec![false; d.len()];
    matcher.clear();
    search(bank, matcher, &c.lits, &order, &d.lits, &mut used, 0)
}

fn search(
    bank: &TermBank,
    m: &mut Matcher,
    c: &[Literal],
    order: &[usize],
    d: &[Literal],
    used: &mut [bool],
    k: usize,
) -> bool {
    if k == order.len() {
        return true;
    }
    let l = &c[order[k]];
    for (j, t) in d.iter().enumerate() {
        if used[j] || t.pos != l.pos || l.weight(bank) > t.weight(bank) {
            continue;
        }
        for flip in [false, true] {
            if flip && !l.is_equational(bank) {
                break;
            }
            let (a, b) = if flip { (t.rhs, t.lhs) } else { (t.lhs, t.rhs) };
            let mark = m.mark();
            if m.matches(bank, l.lhs, a) && m.matches(bank, l.rhs, b) {
                used[j] = true;
                if search(bank, m, c, order, d, used, k + 1) {
                    return true;
                }
                used[j] = false;
            }
            m.undo(mark);
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{Kbo, SymbolKind, normalize_clause};

    #[test]
    fn subsumption_is_injective_and_orientation_blind() {
        let mut b = TermBank::new();
        let p = b.sig.intern("p", 1, SymbolKind::Predicate);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let c0 = b.sig.intern("c", 0, SymbolKind::Function);
        let kbo = Kbo::by_frequency(&b, &[]);
        let (x, y) = (b.var(0), b.var(1));
        let ta = b.constant(a);
        let tc = b.constant(c0);
        let px = b.app(p, &[x]);
        let py = b.app(p, &[y]);
        let pa = b.app(p, &[ta]);
        let (lpx, lpy, lpa) = (
            Literal::atom(&b, px, true),
            Literal::atom(&b, py, true),
            Literal::atom(&b, pa, true),
        );
        let c = normalize_clause(&mut b, &kbo, vec![lpx, lpy]);
        let d = normalize_clause(&mut b, &kbo, vec![lpa]);
        let mut m = Matcher::new();
        // p(X) | p(Y) does not multiset-subsume p(a).
        assert!(!subsumes(&b, &mut m, &c, &d));
        assert!(subsumes(&b, &mut m, &d, &d));
        // X = a subsumes c = a | p(a) after flipping.
        let e = normalize_clause(&mut b, &kbo, vec![Literal::eq(x, ta, true)]);
        let f = normalize_clause(&mut b, &kbo, vec![Literal::eq(ta, tc, true), lpa]);
        assert!(subsumes(&b, &mut m, &e, &f));
        assert!(!subsumes(&b, &mut m, &f, &e));
    }
}
