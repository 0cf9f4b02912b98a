//! Auto mode: problem features (equational or not, Horn or not, units,
//! ground, sizes) mapped to a search strategy, in the manner of E's
//! automatic mode (S. Schulz, "E – a brainiac theorem prover", AI
//! Communications 15, 2002: classify the clause set, then use the strategy
//! that did best on the training problems of that class). The table in
//! [`choose`] was chosen from runs on the development sample
//! (`../shared/tptp`, see `docs/bench/search.md`); it is a pure function of
//! the input clauses, so a run stays deterministic.

use super::params::{ClauseWeight, LiteralSelection};
use crate::logic::{Literal, TermBank};
use serde::{Deserialize, Serialize};

/// What auto mode looks at in a clause set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Features {
    /// Input clauses.
    pub clauses: usize,
    /// Some literal is an equation (`s = t` over terms, not an atom).
    pub equational: bool,
    /// Every clause has at most one positive literal.
    pub horn: bool,
    /// Every clause is a unit.
    pub unit: bool,
    /// Every clause is ground.
    pub ground: bool,
    /// Most literals in one clause.
    pub max_literals: usize,
    /// Some clause descends from a `negated_conjecture` input.
    pub has_goal: bool,
}

impl Features {
    /// The features of `clauses` (literal lists over `bank`); `goal[i]`
    /// says whether clause `i` is a negated conjecture.
    pub fn of<'a>(
        bank: &TermBank,
        clauses: impl Iterator<Item = (&'a [Literal], bool)>,
    ) -> Features {
        let mut f = Features {
            horn: true,
            unit: true,
            ground: true,
            ..Features::default()
        };
        for (lits, goal) in clauses {
            f.clauses += 1;
            f.has_goal |= goal;
            f.max_literals = f.max_literals.max(lits.len());
            f.unit &= lits.len() <= 1;
            f.horn &= lits.iter().filter(|l| l.pos).count() <= 1;
            for l in lits {
                f.equational |= l.is_equational(bank);
                f.ground &= bank.is_ground(l.lhs) && bank.is_ground(l.rhs);
            }
        }
        f
    }

    /// A short name of the class, for logs and the documentation table.
    pub fn class(&self) -> &'static str {
        match (self.unit, self.equational, self.horn) {
            (true, true, _) => "unit-equational",
            (true, false, _) => "unit",
            (false, false, true) => "horn-non-equational",
            (false, false, false) => "non-horn-non-equational",
            (false, true, true) => "horn-equational",
            (false, true, false) => "non-horn-equational",
        }
    }
}

/// A strategy: the knobs auto mode sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strategy {
    /// Literal selection.
    pub selection: LiteralSelection,
    /// Clause weight function of the weight queue.
    pub clause_weight: ClauseWeight,
}

/// The strategy for a problem's features (the table of
/// `docs/bench/search.md`):
///
/// | features | selection | clause weight |
/// |---|---|---|
/// | all units | none (nothing to select) | as below |
/// | a negated conjecture | largest_negative | conjecture_relative |
/// | no conjecture, no equation | complex_except_uniq_max_horn | refined |
/// | no conjecture, equational | largest_negative | refined |
///
/// On the 55 sample problems at 2,000 processed, conjecture-relative weight
/// solved 50 against 49 for symbol count (and no problem that symbol count
/// alone solved was lost); the `Complex*` selections solved 43-49. Without
/// a conjecture (saturation of axiom files), leaving Horn clauses with one
/// strictly maximal literal to the ordering cut FLD001-0's generated
/// clauses at 5,000 processed from 1,255,062 to 16,163, and was within
/// 1.3x of largest-negative on SET002-0; on the equational relational
/// group and ring files it generated 2-4x more, so those keep
/// largest_negative. Without a conjecture the refined weight
/// ([`ClauseWeight::Refined`]) takes the place of symbol count: at 20,000
/// processed on the guarded field file of `benches/data` it cut the
/// generated clauses from 485,062 to 194,783 and the CPU time from 1.28 s
/// to 0.46 s (E `--satauto`: 0.60 s), and at 5,000 on LAT001-0 and
/// BOO001-0 it was 1.2-1.7x faster, within 10% on SET002-0.
pub fn choose(f: &Features) -> Strategy {
    let selection = if f.unit {
        LiteralSelection::None
    } else if f.has_goal || f.equational {
        LiteralSelection::LargestNegative
    } else {
        LiteralSelection::ComplexExceptUniqMaxHorn
    };
    let clause_weight = if f.has_goal {
        ClauseWeight::ConjectureRelative
    } else {
        ClauseWeight::Refined
    };
    Strategy {
        selection,
        clause_weight,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Literal;
    use crate::tptp::{Role, parse_str};

    fn features(src: &str) -> Features {
        let mut bank = TermBank::new();
        let p = parse_str(&mut bank, src, "t.p", None).expect("parses");
        let clauses: Vec<(Vec<Literal>, bool)> = p
            .clauses
            .iter()
            .map(|c| (c.lits.clone(), c.role == Role::NegatedConjecture))
            .collect();
        Features::of(&bank, clauses.iter().map(|(l, g)| (l.as_slice(), *g)))
    }

    #[test]
    fn classifies_units_horn_and_equality() {
        let f = features("cnf(a,axiom,f(X)=X). cnf(b,negated_conjecture,f(a)!=a).");
        assert_eq!(f.class(), "unit-equational");
        assert!(f.has_goal && f.unit && !f.ground);
        let f = features("cnf(a,axiom,~p(X)|q(X)). cnf(b,axiom,p(a)).");
        assert_eq!(f.class(), "horn-non-equational");
        assert!(!f.equational && f.horn);
        let f = features("cnf(a,axiom,p(X)|q(X)). cnf(b,axiom,X=a|p(b)).");
        assert_eq!(f.class(), "non-horn-equational");
        assert_eq!(f.max_literals, 2);
    }

    #[test]
    fn units_get_no_selection_and_goals_a_conjecture_weight() {
        let f = features("cnf(a,axiom,f(X)=X). cnf(b,negated_conjecture,f(a)!=a).");
        let s = choose(&f);
        assert_eq!(s.selection, LiteralSelection::None);
        assert_eq!(s.clause_weight, ClauseWeight::ConjectureRelative);
        let f = features("cnf(a,axiom,~p(X)|q(X)). cnf(b,axiom,p(a)).");
        assert_eq!(choose(&f).clause_weight, ClauseWeight::Refined);
        assert_eq!(
            choose(&f).selection,
            LiteralSelection::ComplexExceptUniqMaxHorn
        );
        let f = features("cnf(a,axiom,~p(X)|X=a). cnf(b,negated_conjecture,~p(b)).");
        assert_eq!(choose(&f).selection, LiteralSelection::LargestNegative);
        assert_eq!(choose(&f).clause_weight, ClauseWeight::ConjectureRelative);
    }
}
