//! Saturation: the given-clause loop for the superposition calculus, its
//! inference and simplification rules, clause selection, literal selection
//! and term and clause indexes. Limits count work units only.

pub mod active;
pub mod auto;
pub mod discrimination;
pub mod feature_vector;
pub mod fingerprint;
mod given_clause;
pub mod params;
pub mod passive;
pub mod rounds;
pub mod rules;
pub mod selection;
pub mod store;
pub mod trie;

pub use given_clause::{Saturator, Stats, Status, symbol_frequencies};
pub use params::{
    ClauseWeight, Deepen, Iterate, Limits, LiteralSelection, Params, QueuePriority, QueueSpec,
    SymbolWeight,
};
pub use rounds::{RoundReport, via_lemma};
pub use store::{ClauseId, ClauseStore, InputInfo, Inputs, Record, Rule, SimpStep, State};
