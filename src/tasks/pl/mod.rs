//! PL1 problems of ProofGrid (seed 000; PL/EQ spec §0-§3): the formula
//! language, SAT-backed entailment, the NDL proof language and checker, a
//! problem generator, a reference-proof writer, and the four tasks (proof
//! checking, proof writing, proof masking, gap filling) with their prompts
//! and scorers.
//!
//! Data flow per instance: seeded RNG → [`generate`] (five constraints,
//! truth vectors) → [`generate::certify`] (SAT) → [`prover::prove`]
//! (strict self-check) → [`tasks`] (corrupt / mask / gap, label recomputed
//! by the checker) → [`prompt`] → [`instance::PlInstance`].

pub mod check;
pub mod families;
pub mod family;
pub mod formula;
pub mod generate;
pub mod instance;
pub mod ndl;
pub mod ndlf;
pub mod pl2;
pub mod prompt;
pub mod prover;
pub mod resolution;
pub mod sat;
pub mod tasks;

pub use check::{CheckError, ErrorKind, Mode, Report, check_parsed, check_text};
pub use formula::Formula;
pub use generate::{LevelParams, Problem, generate, level_params};
pub use instance::{PlInstance, Skip, build};
pub use ndl::{Deduction, parse_proof};
pub use tasks::Task;
