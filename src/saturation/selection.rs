//! Literal selection and eligibility: which literals of a clause may take
//! part in inferences (selected literals, or maximal literals when nothing is
//! selected), following the superposition calculus of Bachmair & Ganzinger
//! (1994) with selection functions that pick negative literals only.

use super::params::LiteralSelection;
use crate::logic::{Clause, Kbo, Literal, TermBank, TermOrder};

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
        let selected = select(bank, c, strategy).map_or(0, |i| 1u64 << i);
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

fn select(bank: &TermBank, c: &Clause, strategy: LiteralSelection) -> Option<usize> {
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
    }
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
