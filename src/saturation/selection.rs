//! Literal selection and eligibility: which literals of a clause may take
//! part in inferences (selected literals, or maximal literals when nothing is
//! selected), following the superposition calculus of Bachmair & Ganzinger
//! (1994) with selection functions that pick negative literals only. Any
//! choice of one negative literal keeps the calculus complete, so every
//! strategy here is a search heuristic; the `Complex*` families follow the
//! descriptions of E's selection functions in S. Schulz, "E – a brainiac
//! theorem prover" (AI Communications 15, 2002) and the E manual.

use super::params::LiteralSelection;
use crate::logic::{Clause, Head, Kbo, Literal, TermBank, TermOrder};

/// Eligibility of a clause's literals, as bit masks over literal indices.
/// Literals beyond index 63 are always treated as eligible (conservative:
/// extra inferences, still sound).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Eligibility {
    /// The selected literal (at most one), or 0.
    pub selected: u64,
    /// Literals not smaller than any other literal (valid when nothing is selected).
    pub maximal: u64,
}

#[inline]
fn bit(mask: u64, i: usize) -> bool {
    i >= 64 || mask & (1u64 << i) != 0
}

impl Eligibility {
    /// Computes selection and maximality for a clause.
    pub fn compute(bank: &TermBank, kbo: &Kbo, c: &Clause, strategy: LiteralSelection) -> Self {
        let selected = select(bank, kbo, c, strategy).map_or(0, |i| 1u64 << i);
        let mut maximal = 0u64;
        if selected == 0 {
            for (i, l) in c.lits.iter().enumerate().take(64) {
                let dominated = c
                    .lits
                    .iter()
                    .enumerate()
                    .any(|(j, m)| j != i && kbo.compare_lits(bank, m, l) == TermOrder::Greater);
                if !dominated {
                    maximal |= 1u64 << i;
                }
            }
        }
        Eligibility { selected, maximal }
    }

    /// True if literal `i` is eligible for an inference as a negative
    /// literal (resolution, superposition into it, equality resolution).
    pub fn negative_ok(&self, i: usize) -> bool {
        if self.selected != 0 {
            bit(self.selected, i) && i < 64
        } else {
            bit(self.maximal, i)
        }
    }

    /// True if positive literal `i` is eligible (no selection and maximal).
    pub fn positive_ok(&self, i: usize) -> bool {
        self.selected == 0 && bit(self.maximal, i)
    }

    /// Eligibility of literal `i` with polarity `pos`.
    pub fn ok(&self, i: usize, pos: bool) -> bool {
        if pos {
            self.positive_ok(i)
        } else {
            self.negative_ok(i)
        }
    }
}

/// The "complexity" of a negative literal for the `Complex*` strategies,
/// larger = selected first: ground literals before non-ground ones (a ground
/// literal only resolves with clauses that match it exactly), then the
/// heavier one, then the one with more distinct positions (fewer variable
/// occurrences).
pub fn complexity(bank: &TermBank, l: &Literal) -> (bool, u32, u32) {
    let mut vars = Vec::new();
    bank.push_vars(l.lhs, &mut vars);
    bank.push_vars(l.rhs, &mut vars);
    let n = vars.len() as u32;
    (n == 0, l.weight(bank), u32::MAX - n)
}

/// The most complex of the given literals; among equals the first one.
fn most_complex<'a>(
    bank: &TermBank,
    it: impl Iterator<Item = (usize, &'a Literal)>,
) -> Option<usize> {
    it.max_by_key(|(i, l)| (complexity(bank, l), std::cmp::Reverse(*i)))
        .map(|(i, _)| i)
}

/// True for a range-restricted Horn clause with one positive literal: every
/// variable of the positive literal occurs in a negative one.
fn range_restricted_horn(bank: &TermBank, c: &Clause) -> bool {
    let mut pos = c.lits.iter().filter(|l| l.pos);
    let (Some(head), None) = (pos.next(), pos.next()) else {
        return false;
    };
    let mut body = Vec::new();
    for l in c.lits.iter().filter(|l| !l.pos) {
        bank.push_vars(l.lhs, &mut body);
        bank.push_vars(l.rhs, &mut body);
    }
    let mut head_vars = Vec::new();
    bank.push_vars(head.lhs, &mut head_vars);
    bank.push_vars(head.rhs, &mut head_vars);
    head_vars.iter().all(|v| body.contains(v))
}

/// The predicate symbol of a non-equational literal (its atom's head).
fn predicate(bank: &TermBank, l: &Literal) -> Option<Head> {
    (!l.is_equational(bank)).then(|| bank.head(l.lhs))
}

fn select(bank: &TermBank, kbo: &Kbo, c: &Clause, strategy: LiteralSelection) -> Option<usize> {
    let negs = c.lits.iter().enumerate().take(64).filter(|(_, l)| !l.pos);
    match strategy {
        LiteralSelection::None => None,
        LiteralSelection::LargestNegative => max_by_weight(bank, negs),
        LiteralSelection::SmallestNegative => negs
            .min_by_key(|(i, l)| (l.weight(bank), *i))
            .map(|(i, _)| i),
        LiteralSelection::NegativeIfNonUnitPositive => {
            let pos: Vec<&Literal> = c.lits.iter().filter(|l| l.pos).collect();
            let worth = pos.len() > 1 || pos.iter().any(|l| !l.is_equational(bank));
            if worth {
                max_by_weight(bank, negs)
            } else {
                None
            }
        }
        LiteralSelection::ComplexExceptRrHorn => {
            if range_restricted_horn(bank, c) {
                None
            } else {
                most_complex(bank, negs)
            }
        }
        LiteralSelection::ComplexAvoidPosPred => {
            let pos_preds: Vec<_> = c
                .lits
                .iter()
                .filter(|l| l.pos)
                .filter_map(|l| predicate(bank, l))
                .collect();
            let avoiding = negs
                .clone()
                .filter(|(_, l)| predicate(bank, l).is_none_or(|p| !pos_preds.contains(&p)));
            most_complex(bank, avoiding).or_else(|| most_complex(bank, negs))
        }
        LiteralSelection::ComplexExceptUniqMaxHorn => {
            let horn = c.lits.iter().filter(|l| l.pos).count() <= 1;
            if horn && unique_strict_maximum(bank, kbo, c) {
                None
            } else {
                most_complex(bank, negs)
            }
        }
    }
}

/// True if one literal of the clause is greater than every other one.
fn unique_strict_maximum(bank: &TermBank, kbo: &Kbo, c: &Clause) -> bool {
    c.lits.iter().enumerate().any(|(i, l)| {
        c.lits
            .iter()
            .enumerate()
            .all(|(j, m)| j == i || kbo.compare_lits(bank, l, m) == TermOrder::Greater)
    })
}

fn max_by_weight<'a>(
    bank: &TermBank,
    it: impl Iterator<Item = (usize, &'a Literal)>,
) -> Option<usize> {
    // Heaviest first; among equals the first one, for determinism.
    it.max_by_key(|(i, l)| (l.weight(bank), std::cmp::Reverse(*i)))
        .map(|(i, _)| i)
}

/// True if literal `i` of the instantiated literal list `lits` is maximal
/// (strictly maximal when `strict`): the post-unification check.
pub fn is_maximal_in(bank: &TermBank, kbo: &Kbo, lits: &[Literal], i: usize, strict: bool) -> bool {
    let l = &lits[i];
    lits.iter().enumerate().all(|(j, m)| {
        if j == i {
            return true;
        }
        match kbo.compare_lits(bank, m, l) {
            TermOrder::Greater => false,
            TermOrder::Equal => !strict,
            _ => true,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::normalize_clause;
    use crate::saturation::symbol_frequencies;
    use crate::tptp::parse_clause_str;

    /// The clauses (normalised) and an ordering over their symbols.
    fn clauses(texts: &[&str]) -> (TermBank, Kbo, Vec<Clause>) {
        let mut bank = TermBank::new();
        let lits: Vec<Vec<Literal>> = texts
            .iter()
            .map(|t| parse_clause_str(&mut bank, t).expect("parses"))
            .collect();
        let freq = symbol_frequencies(&bank, lits.iter().map(|l| l.as_slice()));
        let kbo = Kbo::by_frequency(&bank, &freq);
        let cs = lits
            .into_iter()
            .map(|l| normalize_clause(&mut bank, &kbo, l))
            .collect();
        (bank, kbo, cs)
    }

    fn selected(bank: &TermBank, kbo: &Kbo, c: &Clause, s: LiteralSelection) -> Option<String> {
        select(bank, kbo, c, s).map(|i| {
            let l = c.lits[i];
            crate::tptp::clause_to_tptp(bank, &[l])
        })
    }

    #[test]
    fn range_restricted_horn_clauses_are_left_to_the_ordering() {
        let (bank, kbo, cs) = clauses(&[
            "defined(add(X,Y)) | ~defined(X) | ~defined(Y)",
            // Not range-restricted: Z occurs only in the head.
            "p(X,Z) | ~q(X)",
            // Not Horn.
            "p(X,X) | r(X) | ~q(X)",
        ]);
        let s = LiteralSelection::ComplexExceptRrHorn;
        assert_eq!(selected(&bank, &kbo, &cs[0], s), None);
        assert!(selected(&bank, &kbo, &cs[1], s).is_some_and(|l| l.starts_with("~q(")));
        assert!(selected(&bank, &kbo, &cs[2], s).is_some_and(|l| l.starts_with("~q(")));
        // Largest-negative selects in the guard clause: the difference.
        assert!(select(&bank, &kbo, &cs[0], LiteralSelection::LargestNegative).is_some());
    }

    #[test]
    fn complex_prefers_ground_then_heavy_negative_literals() {
        let (bank, kbo, cs) = clauses(&[
            // Not range-restricted (Y), so the ranking decides.
            "~p(f(f(X))) | ~p(a) | q(Y)",
            "~p(X) | ~p(f(f(X))) | q(Y)",
        ]);
        let s = LiteralSelection::ComplexExceptRrHorn;
        assert_eq!(selected(&bank, &kbo, &cs[0], s).as_deref(), Some("~p(a)"));
        assert!(selected(&bank, &kbo, &cs[1], s).is_some_and(|l| l.contains("f(f(")));
    }

    #[test]
    fn avoid_pos_pred_skips_the_conclusions_predicate() {
        let (bank, kbo, cs) = clauses(&[
            "less(X,Z) | ~less(X,Y) | ~less(Y,Z) | ~defined(f(X))",
            "less(X,Z) | ~less(X,Y) | ~less(Y,Z)",
        ]);
        let s = LiteralSelection::ComplexAvoidPosPred;
        assert!(selected(&bank, &kbo, &cs[0], s).is_some_and(|l| l.starts_with("~defined(")));
        // Every negative literal shares the predicate: fall back to them.
        assert!(selected(&bank, &kbo, &cs[1], s).is_some());
    }

    #[test]
    fn unique_maximal_horn_clauses_are_left_to_the_ordering() {
        let (bank, kbo, cs) = clauses(&["p(f(X)) | ~p(X)", "p(X) | ~q(Y)"]);
        let s = LiteralSelection::ComplexExceptUniqMaxHorn;
        // p(f(X)) is greater than p(X): one strictly maximal literal.
        assert_eq!(selected(&bank, &kbo, &cs[0], s), None);
        // p(X) and q(Y) are incomparable (neither has all the other's
        // variables): select.
        assert!(selected(&bank, &kbo, &cs[1], s).is_some_and(|l| l.starts_with("~q(")));
    }

    #[test]
    fn positive_literals_are_never_selected() {
        let (bank, kbo, cs) = clauses(&["p(X) | q(f(X))", "a = b | p(a)"]);
        for s in LiteralSelection::ALL {
            for c in &cs {
                assert_eq!(select(&bank, &kbo, c, s), None, "{s:?}");
            }
        }
    }
}
