//! The logic core: symbols, the hash-consed term bank, literals, clauses,
//! substitutions with unification and matching, and the KBO term ordering.

mod clause;
mod kbo;
mod literal;
#[cfg(test)]
mod proptests;
mod subst;
mod symbol;
mod term;
#[cfg(test)]
pub mod testing;

pub use clause::{
    Clause, canonical_clause, normalize_clause, normalize_clause_known, orient, orient_known,
};
pub use kbo::{Kbo, TermOrder, permutative};
pub use literal::Literal;
pub use subst::{Bank, Matcher, Renaming, Replace, Subst, rename};
pub use symbol::{DistinctValue, Signature, Symbol, SymbolId, SymbolKind};
pub use term::{Head, ShapeHasher, TermBank, TermId, VAR_SHAPE};
