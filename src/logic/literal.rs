//! Literals in the equational encoding: `s = t` or `s != t`, with predicate
//! atoms written `p(..) = $true`.

use super::term::{TermBank, TermId};

/// An equation or disequation. For a predicate literal, `rhs` is `$true`.
///
/// Invariant after [`crate::logic::normalize_clause`]: for an equation,
/// `lhs` is not smaller than `rhs` in the term ordering.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Literal {
    /// Left side (the atom for a predicate literal).
    pub lhs: TermId,
    /// Right side (`$true` for a predicate literal).
    pub rhs: TermId,
    /// Polarity: true for `=`, false for `!=`.
    pub pos: bool,
}

impl Literal {
    /// An equation literal `lhs = rhs` (or `!=` when `pos` is false).
    pub fn eq(lhs: TermId, rhs: TermId, pos: bool) -> Self {
        Literal { lhs, rhs, pos }
    }

    /// A predicate literal `atom` (or `~atom`).
    pub fn atom(bank: &TermBank, atom: TermId, pos: bool) -> Self {
        Literal {
            lhs: atom,
            rhs: bank.true_term(),
            pos,
        }
    }

    /// True if this is a genuine equation (not a predicate literal).
    #[inline]
    pub fn is_equational(&self, bank: &TermBank) -> bool {
        self.rhs != bank.true_term()
    }

    /// The same literal with the opposite polarity.
    pub fn negate(&self) -> Self {
        Literal {
            pos: !self.pos,
            ..*self
        }
    }

    /// Weight: the sum of both sides' weights (`$true` included, as E does).
    pub fn weight(&self, bank: &TermBank) -> u32 {
        bank.weight(self.lhs) + bank.weight(self.rhs)
    }

    /// One more than the largest variable index in the literal.
    pub fn var_bound(&self, bank: &TermBank) -> u32 {
        bank.var_bound(self.lhs).max(bank.var_bound(self.rhs))
    }

    /// True if the literal is ground.
    pub fn is_ground(&self, bank: &TermBank) -> bool {
        bank.is_ground(self.lhs) && bank.is_ground(self.rhs)
    }
}
