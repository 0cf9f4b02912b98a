//! Drawing first-order formulas for the equivalence tasks (after AutoEval,
//! seed 002): closed formulas over unary and binary predicates and
//! constants (abstract or natural-language vocabularies) drawn by
//! descriptive complexity. The logic itself (the formula tree, its TPTP
//! reader and printer, rewritings, mutations, the restatement target forms
//! of `roundtrip_fol` and Tarski evaluation) is [`crate::fol`]; the
//! certified decision is
//! [`crate::prover::equivalence`].
//!
//! Level schedule (vocabulary, then sizes of the drawn formula):
//!
//! | level | unary | binary | constants | quantifiers | connectives | rewrites |
//! |---|---|---|---|---|---|---|
//! | 1 | 2 | 1 | 1 | 1 | 2 | 1 |
//! | 2 | 2 | 1 | 2 | 2 | 3 | 2 |
//! | 3 | 3 | 2 | 2 | 2 | 4 | 3 |
//! | 4 | 3 | 2 | 2 | 3 | 5 | 4 |

mod generate;
#[cfg(test)]
mod tests;

pub use generate::{
    Level, MAX_CONNECTIVES, MAX_QUANTIFIERS, Symbol, outside, random_formula, signature_of,
    vocabulary, vocabulary_lines,
};
