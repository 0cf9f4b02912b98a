//! Equational-logic (EQ) problems after ProofGrid's EQ1 (seed 000 §3 and
//! appendix C; spec `pl_eq.md` §5-§6): rewrite proofs over a fixed signature,
//! a parallel-step checker with witnesses, a seeded proof generator with
//! difficulty levels, corruptions, and three tasks (proof checking, elided
//! equation recovery, gap filling) with semantic scorers.

pub mod lang;
pub mod generate;
pub mod step;

pub use lang::{Equation, Pos, World};
pub use step::{StepError, Witness, check_either, check_step, find_cover, is_minimal};
