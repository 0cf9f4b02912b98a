//! The PL task families of ProofGrid (seed 000; PL/EQ spec §0-§3) over the
//! propositional core of [`crate::prop`] (formulas, SAT, NDL and its
//! checker, the reference prover, the problem generators of
//! [`crate::prop::problems`] and the proof corruptions of
//! [`crate::prop::corrupt`]): the four tasks (proof checking, proof
//! writing, proof masking, gap filling) with their prompts and scorers, and
//! PL2's tasks over the structured families.
//!
//! Data flow per instance: seeded RNG → [`fn@generate`] (five constraints,
//! truth vectors) → [`crate::prop::problems::random::certify`] (SAT) →
//! [`crate::prop::prover::prove`] (strict self-check) → [`tasks`] (corrupt /
//! mask / gap, label recomputed by the checker) → [`prompt`] →
//! [`instance::PlInstance`].

pub mod audit;
pub mod exploits;
pub mod family;
pub mod instance;
pub mod masking;
pub mod pl2;
pub mod prompt;
pub mod scoring;
pub mod tasks;
#[cfg(test)]
mod tests;
pub mod verdict;

pub use crate::prop::problems::random::{LevelParams, Problem, generate, level_params};
pub use instance::{PlInstance, Skip, build};
pub use tasks::Task;
