//! Target forms of the restatement tasks (`roundtrip_pl`, `roundtrip_fol`;
//! issue 49): each row names one syntactic form (negation normal form,
//! CNF, DNF, prenex, or a restricted set of connectives) that the shown
//! formula is not in; an answer must be in that form and equivalent.
//!
//! Every form is closed under subformulas (each subformula of a formula in
//! the form is in the form, and swapping the operands of a connective or
//! renaming a bound variable keeps a formula in or out of it), so a formula
//! that contains the shown one as a subformula, as every syntactic wrapper
//! does (`~~F`, `F & F`, `F | true`, ...), is never in the form: the
//! argument is written out in `docs/ARCHITECTURE.md`. The forms, their
//! checks and their conversions are the logic's ([`crate::prop::forms`],
//! [`crate::fol::forms`]); this module has what the tasks add: the bound on
//! a gold restatement's length and the wording of each form in prompts and
//! traces.

pub use crate::prop::forms::{FOL_TARGETS, PL_TARGETS, Target, pl_convert, pl_violation};

/// A gold restatement may be at most this many times as long (characters)
/// as the shown formula; a target whose conversion is longer is not drawn
/// for that row (CNF and DNF grow exponentially in the worst case).
pub const MAX_GOLD_GROWTH: usize = 3;

/// How the tasks word a form: in prompts, and in a trace's conversion line.
pub trait Wording {
    /// The form as the prompt states it.
    fn description(self) -> &'static str;
    /// The first-order description (the TPTP connective names).
    fn fol_description(self) -> &'static str;
    /// How the gold restatement was obtained (the trace's line).
    fn method(self) -> &'static str;
}

impl Wording for Target {
    fn description(self) -> &'static str {
        match self {
            Target::Nnf => {
                "negation normal form: the only connectives are ~, & and | (no ==>, no <==>), and ~ is applied to atoms only"
            }
            Target::Cnf => {
                "conjunctive normal form: a conjunction (&) of clauses, each clause a disjunction (|) of literals, a literal being an atom or ~ applied to an atom (one clause, or one literal, also counts)"
            }
            Target::Dnf => {
                "disjunctive normal form: a disjunction (|) of terms, each term a conjunction (&) of literals, a literal being an atom or ~ applied to an atom (one term, or one literal, also counts)"
            }
            Target::AndNot => "the only connectives are ~ and & (no |, no ==>, no <==>)",
            Target::OrNot => "the only connectives are ~ and | (no &, no ==>, no <==>)",
            Target::ImpNot => "the only connectives are ~ and ==> (no &, no |, no <==>)",
            Target::Prenex => {
                "prenex form: every quantifier stands at the front, before any connective (a block of quantifiers followed by a formula without quantifiers; any connectives are allowed after the block)"
            }
            Target::AndNotExists => {
                "the only connectives are ~ and & and the only quantifier is ? (no |, no =>, no <=>, no !)"
            }
            Target::OrNotForall => {
                "the only connectives are ~ and | and the only quantifier is ! (no &, no =>, no <=>, no ?)"
            }
        }
    }

    fn fol_description(self) -> &'static str {
        match self {
            Target::Nnf => {
                "negation normal form: the only connectives are ~, & and | (no =>, no <=>), any quantifiers are allowed, and ~ is applied to atoms only"
            }
            t => t.description(),
        }
    }

    fn method(self) -> &'static str {
        match self {
            Target::Nnf => {
                "implications and biconditionals eliminated, negations pushed to the atoms (De Morgan, quantifier duality)"
            }
            Target::Cnf => {
                "negation normal form, then | distributed over &, tautological and subsumed clauses removed"
            }
            Target::Dnf => {
                "negation normal form, then & distributed over |, contradictory and subsumed terms removed"
            }
            Target::AndNot => {
                "A | B as ~(~A & ~B), A ==> B as ~(A & ~B), A <==> B as ~(A & ~B) & ~(B & ~A)"
            }
            Target::OrNot => {
                "A & B as ~(~A | ~B), A ==> B as ~A | B, A <==> B as ~(~A | ~B) | ~(A | B)"
            }
            Target::ImpNot => {
                "A | B as ~A ==> B, A & B as ~(A ==> ~B), A <==> B as ~((A ==> B) ==> ~(B ==> A))"
            }
            Target::Prenex => {
                "biconditionals over quantified operands split into two implications, bound variables made distinct, quantifiers pulled to the front (dual when leaving a negation or an antecedent)"
            }
            Target::AndNotExists => {
                "A | B as ~(~A & ~B), A => B as ~(A & ~B), A <=> B as ~(A & ~B) & ~(B & ~A), ! [X] : F as ~ ? [X] : ~F"
            }
            Target::OrNotForall => {
                "A & B as ~(~A | ~B), A => B as ~A | B, A <=> B as ~(~A | ~B) | ~(A | B), ? [X] : F as ~ ! [X] : ~F"
            }
        }
    }
}
