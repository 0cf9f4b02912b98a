//! The equational logic core behind the EQ tasks (ProofGrid EQ1, seed 000
//! §3; spec `pl_eq.md` §5.1-§5.2): the EQ language over the project's
//! hash-consed terms (fixed signature, named variables and equations, Dewey
//! positions, parser and printer) and the parallel rewrite-step checker with
//! witnesses and the exact licensing-set search. Nothing here knows about
//! tasks: `tasks::eq` generates, corrupts and scores proofs on top of it.

pub mod lang;
#[cfg(test)]
mod proptests;
pub mod step;

pub use lang::{Equation, Pos, World};
pub use step::{StepError, Witness, check_either, check_step, find_cover, is_minimal};
