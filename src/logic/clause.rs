//! Clauses: a normalised, deduplicated list of literals with canonical
//! variable numbering, so that variants print identically and share a key.

use super::kbo::{Kbo, TermOrder};
use super::literal::Literal;
use super::subst::rename;
use super::term::{Head, TermBank, TermId};
use std::cmp::Ordering;

/// A clause: the disjunction of its literals. The empty clause is `false`.
///
/// Invariants (established by [`normalize_clause`]): equations are oriented
/// (`lhs` not smaller than `rhs`); no literal occurs twice; literals are in a
/// variable-blind order; variables are numbered `X0, X1, ...` by first
/// occurrence.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Clause {
    /// The literals.
    pub lits: Box<[Literal]>,
}

impl Clause {
    /// Symbol count of the whole clause.
    pub fn weight(&self, bank: &TermBank) -> u32 {
        self.lits.iter().map(|l| l.weight(bank)).sum()
    }

    /// Number of distinct variables (= one more than the largest index).
    pub fn var_count(&self, bank: &TermBank) -> u32 {
        self.lits
            .iter()
            .map(|l| l.var_bound(bank))
            .max()
            .unwrap_or(0)
    }

    /// True for the empty clause.
    pub fn is_empty(&self) -> bool {
        self.lits.is_empty()
    }

    /// Number of literals.
    pub fn len(&self) -> usize {
        self.lits.len()
    }

    /// True if the clause has exactly one literal.
    pub fn is_unit(&self) -> bool {
        self.lits.len() == 1
    }

    /// True if every literal is ground.
    pub fn is_ground(&self, bank: &TermBank) -> bool {
        self.lits.iter().all(|l| l.is_ground(bank))
    }

    /// True if the clause is a tautology: it has `s = s`, or a literal and
    /// its complement.
    pub fn is_tautology(&self) -> bool {
        self.lits.iter().enumerate().any(|(i, l)| {
            (l.pos && l.lhs == l.rhs)
                || self.lits[i + 1..]
                    .iter()
                    .any(|m| m.pos != l.pos && m.lhs == l.lhs && m.rhs == l.rhs)
        })
    }
}

/// Orients an equation so that `lhs` is not smaller than `rhs`; for
/// incomparable sides, a variable-blind tie break (shape, weight) and then the
/// term id decide, so the orientation is deterministic.
pub fn orient(bank: &TermBank, kbo: &Kbo, l: Literal) -> Literal {
    orient_known(bank, kbo, l).0
}

/// [`orient`], with the order of the oriented literal's sides (`Greater`,
/// `Equal` or `Incomparable`; `Equal` for a non-equational literal), so
/// that callers holding it need not compare the sides again.
pub fn orient_known(bank: &TermBank, kbo: &Kbo, l: Literal) -> (Literal, TermOrder) {
    if !l.is_equational(bank) {
        return (l, TermOrder::Equal);
    }
    let o = kbo.compare(bank, l.lhs, l.rhs);
    let swap = match o {
        TermOrder::Less => true,
        TermOrder::Greater | TermOrder::Equal => false,
        TermOrder::Incomparable => {
            let ka = (bank.weight(l.lhs), bank.shape(l.lhs), l.lhs);
            let kb = (bank.weight(l.rhs), bank.shape(l.rhs), l.rhs);
            ka < kb
        }
    };
    if swap {
        // Less becomes Greater; an incomparable pair stays incomparable.
        let o = if o == TermOrder::Less {
            TermOrder::Greater
        } else {
            o
        };
        (Literal::eq(l.rhs, l.lhs, l.pos), o)
    } else {
        (l, o)
    }
}

fn lit_key(bank: &TermBank, l: &Literal) -> (bool, u32, u32, u32, u32) {
    (
        l.pos,
        bank.weight(l.lhs),
        bank.shape(l.lhs),
        bank.weight(l.rhs),
        bank.shape(l.rhs),
    )
}

/// Normalises a literal list into a [`Clause`]: orients equations, removes
/// duplicate literals, sorts literals by a variable-blind key and renumbers
/// variables by first occurrence. Equations whose sides are incomparable
/// and look alike (same weight and shape) are then flipped while that makes
/// the clause smaller in a structural order, so the result does not depend
/// on term ids: normalisation is idempotent. Tautologies are not removed.
pub fn normalize_clause(bank: &mut TermBank, kbo: &Kbo, lits: Vec<Literal>) -> Clause {
    normalize_clause_known(bank, kbo, lits, &[])
}

/// [`normalize_clause`] where `known` lists oriented literals with the
/// order of their sides (as [`orient_known`] gave it): a literal found there
/// is neither oriented nor compared again. Same result.
pub fn normalize_clause_known(
    bank: &mut TermBank,
    kbo: &Kbo,
    lits: Vec<Literal>,
    known: &[(Literal, TermOrder)],
) -> Clause {
    // Each literal with whether its sides are incomparable (renaming
    // variables does not change that, so it survives `renumber`).
    let mut tagged: Vec<(Literal, bool)> = lits
        .into_iter()
        .map(|l| {
            let (l, o) = match known.iter().find(|k| k.0 == l) {
                Some(&k) => k,
                None => orient_known(bank, kbo, l),
            };
            (l, o == TermOrder::Incomparable)
        })
        .collect();
    tagged.sort_by_key(|(l, _)| lit_key(bank, l));
    let mut i = 0;
    while i < tagged.len() {
        if tagged[..i].iter().any(|t| t.0 == tagged[i].0) {
            tagged.remove(i);
        } else {
            i += 1;
        }
    }
    let mut lits: Vec<Literal> = tagged.iter().map(|t| t.0).collect();
    renumber(bank, &mut lits);
    let ties: Vec<usize> = (0..lits.len())
        .filter(|&i| {
            let l = lits[i];
            tagged[i].1
                && l.lhs != l.rhs
                && (bank.weight(l.lhs), bank.shape(l.lhs))
                    == (bank.weight(l.rhs), bank.shape(l.rhs))
        })
        .collect();
    if !ties.is_empty() {
        // Local search: flip single tied equations while the clause gets
        // smaller; each accepted flip strictly decreases the key, so this ends.
        let mut improved = true;
        while improved {
            improved = false;
            for &i in &ties {
                let mut cand = lits.clone();
                cand[i] = Literal::eq(cand[i].rhs, cand[i].lhs, cand[i].pos);
                renumber(bank, &mut cand);
                if cmp_lits(bank, &cand, &lits) == Ordering::Less {
                    lits = cand;
                    improved = true;
                }
            }
        }
    }
    Clause {
        lits: lits.into_boxed_slice(),
    }
}

/// Renumbers variables by first occurrence (keeping each equation's
/// orientation: renaming does not change KBO, weight or shape) and restores
/// the literal order.
fn renumber(bank: &mut TermBank, lits: &mut [Literal]) {
    let bound = lits.iter().map(|l| l.var_bound(bank)).max().unwrap_or(0) as usize;
    if bound == 0 {
        return;
    }
    let mut num = Numbering {
        map: vec![u32::MAX; bound],
        next: 0,
        full: 0,
    };
    for l in lits.iter() {
        num.visit(bank, l.lhs);
        num.visit(bank, l.rhs);
    }
    let map = num.map;
    if map
        .iter()
        .enumerate()
        .all(|(i, &m)| m == u32::MAX || m == i as u32)
    {
        return;
    }
    for l in lits.iter_mut() {
        *l = Literal::eq(rename(bank, l.lhs, &map), rename(bank, l.rhs, &map), l.pos);
    }
    lits.sort_by_key(|l| lit_key(bank, l));
}

/// Structural order on terms that sees variable indices and symbol ids but
/// not term ids.
fn cmp_terms(bank: &TermBank, a: TermId, b: TermId) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let key = |t: TermId| match bank.head(t) {
        Head::Var(v) => (0u8, v),
        Head::Sym(s) => (1u8, s.0),
    };
    key(a).cmp(&key(b)).then_with(|| {
        (0..bank.arity(a))
            .map(|i| cmp_terms(bank, bank.arg(a, i), bank.arg(b, i)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    })
}

fn cmp_lits(bank: &TermBank, a: &[Literal], b: &[Literal]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            x.pos
                .cmp(&y.pos)
                .then_with(|| cmp_terms(bank, x.lhs, y.lhs))
                .then_with(|| cmp_terms(bank, x.rhs, y.rhs))
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// Variables numbered in order of first occurrence.
struct Numbering {
    /// Old index -> new index (`u32::MAX`: not seen yet).
    map: Vec<u32>,
    next: u32,
    /// Every variable below this index is numbered already, so a subterm
    /// whose variables all lie below it ([`TermBank::var_bound`]) is
    /// skipped without a walk: conclusions repeat their variables, and the
    /// second side rarely holds one the first lacks.
    full: u32,
}

impl Numbering {
    fn visit(&mut self, bank: &TermBank, t: TermId) {
        if bank.var_bound(t) <= self.full {
            return;
        }
        if let Some(v) = bank.var_index(t) {
            let m = &mut self.map;
            if m[v as usize] == u32::MAX {
                m[v as usize] = self.next;
                self.next += 1;
                while (self.full as usize) < m.len() && m[self.full as usize] != u32::MAX {
                    self.full += 1;
                }
            }
            return;
        }
        for i in 0..bank.arity(t) {
            self.visit(bank, bank.arg(t, i));
        }
    }
}

/// The canonical text of a clause: literals printed with variables blinded,
/// sorted, then variables renamed by first occurrence in that order; equal
/// for clauses that are equal up to variable renaming, literal order and
/// equation symmetry (up to ties between literals that differ only in
/// variable names, which at worst costs a cache miss).
pub fn canonical_clause(bank: &TermBank, lits: &[Literal]) -> String {
    fn write(bank: &TermBank, t: TermId, blind: bool, names: &mut Vec<u32>, out: &mut String) {
        match bank.head(t) {
            Head::Var(i) => {
                if blind {
                    out.push('_');
                } else {
                    let k = match names.iter().position(|&v| v == i) {
                        Some(k) => k,
                        None => {
                            names.push(i);
                            names.len() - 1
                        }
                    };
                    out.push('X');
                    out.push_str(&k.to_string());
                }
            }
            Head::Sym(s) => {
                out.push_str(&bank.sig.get(s).name);
                out.push('/');
                out.push_str(&bank.sig.get(s).arity.to_string());
                let args = bank.args(t);
                if !args.is_empty() {
                    out.push('(');
                    for (k, &a) in args.iter().enumerate() {
                        if k > 0 {
                            out.push(',');
                        }
                        write(bank, a, blind, names, out);
                    }
                    out.push(')');
                }
            }
        }
    }
    let lit_text = |l: &Literal, blind: bool, names: &mut Vec<u32>| {
        let (mut a, mut b) = (String::new(), String::new());
        write(bank, l.lhs, blind, names, &mut a);
        write(bank, l.rhs, blind, names, &mut b);
        (a, b)
    };
    // Orient each literal by its blinded sides, then sort by blinded text.
    let mut keyed: Vec<(String, Literal)> = lits
        .iter()
        .map(|l| {
            let (a, b) = lit_text(l, true, &mut Vec::new());
            let (l, a, b) = if b < a {
                (Literal::eq(l.rhs, l.lhs, l.pos), b, a)
            } else {
                (*l, a, b)
            };
            (format!("{}{a}={b}", if l.pos { '+' } else { '-' }), l)
        })
        .collect();
    keyed.sort_by(|x, y| x.0.cmp(&y.0));
    keyed.dedup_by(|x, y| x.0 == y.0 && x.1 == y.1);
    let mut names = Vec::new();
    let mut out = String::new();
    for (k, (_, l)) in keyed.iter().enumerate() {
        if k > 0 {
            out.push('|');
        }
        out.push(if l.pos { '+' } else { '-' });
        let (a, b) = lit_text(l, false, &mut names);
        out.push_str(&a);
        out.push('=');
        out.push_str(&b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::SymbolKind;

    #[test]
    fn variants_normalise_identically() {
        let mut b = TermBank::new();
        let p = b.sig.intern("p", 2, SymbolKind::Predicate);
        let q = b.sig.intern("q", 1, SymbolKind::Predicate);
        let kbo = Kbo::by_frequency(&b, &[]);
        let (x0, x1, x5) = (b.var(0), b.var(1), b.var(5));
        let pa = b.app(p, &[x5, x1]);
        let qa = b.app(q, &[x5]);
        let c1 = vec![Literal::atom(&b, qa, false), Literal::atom(&b, pa, true)];
        let pb = b.app(p, &[x1, x0]);
        let qb = b.app(q, &[x1]);
        let c2 = vec![
            Literal::atom(&b, pb, true),
            Literal::atom(&b, qb, false),
            Literal::atom(&b, qb, false),
        ];
        let n1 = normalize_clause(&mut b, &kbo, c1);
        let n2 = normalize_clause(&mut b, &kbo, c2);
        assert_eq!(n1, n2);
        assert_eq!(n1.len(), 2);
        assert_eq!(n1.var_count(&b), 2);
    }

    #[test]
    fn tautologies_are_detected() {
        let mut b = TermBank::new();
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let p = b.sig.intern("p", 0, SymbolKind::Predicate);
        let ta = b.constant(a);
        let tp = b.constant(p);
        let c = Clause {
            lits: vec![Literal::eq(ta, ta, true)].into(),
        };
        assert!(c.is_tautology());
        let d = Clause {
            lits: vec![Literal::atom(&b, tp, true), Literal::atom(&b, tp, false)].into(),
        };
        assert!(d.is_tautology());
        let e = Clause {
            lits: vec![Literal::eq(ta, ta, false)].into(),
        };
        assert!(!e.is_tautology());
    }
}
