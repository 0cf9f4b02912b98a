//! The propositional logic core (ProofGrid seed 000; PL/EQ spec §0-§2): the
//! formula language, Tseitin encoding onto the SAT back-end, the NDL proof
//! language and its checker (with the NDL_f step rule of PL2 plugged in
//! through [`check::StepRule`]), tree resolution with a proof-logging CDCL,
//! and the natural-deduction reference prover. Nothing here knows about
//! tasks, prompts or datasets: `tasks::pl` builds on it.

pub mod check;
pub mod formula;
pub mod ndl;
pub mod ndlf;
pub mod prover;
pub mod resolution;
pub mod sat;
pub mod system;

pub use check::{CheckError, ErrorKind, Mode, Report, check_parsed, check_text};
pub use formula::Formula;
pub use ndl::{Deduction, parse_proof};
pub use system::ProofSystem;
