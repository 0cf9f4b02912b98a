//! The equational logic core behind the EQ tasks (ProofGrid EQ1, seed 000 §3;
//! spec `pl_eq.md` §5.1-§5.2): the EQ language over the project's hash-consed
//! terms (fixed signature, named variables and equations, Dewey positions,
//! parser and printer) and the parallel rewrite-step checker with witnesses
//! and the exact licensing-set search; the seeded proof generator
//! ([`generate`]), the proof corruptions ([`corrupt`]) and the finite
//! countermodels that certify a gap unfillable ([`countermodel`]), with the
//! gap cutting that uses them ([`gap`]). Nothing here knows about tasks:
//! `tasks::eq` builds the EQ tasks' rows, prompts and scorers on top of it.

pub mod corrupt;
pub mod countermodel;
pub mod gap;
pub mod generate;
pub mod lang;
#[cfg(test)]
mod proptests;
pub mod step;

pub use lang::{Equation, Pos, World};
pub use step::{StepError, Witness, check_either, check_step, find_cover, is_minimal};
