//! The propositional logic core (ProofGrid seed 000; PL/EQ spec §0-§2): the
//! formula language, Tseitin encoding onto the SAT back-end, the NDL proof
//! language and its checker (with the NDL_f step rule of PL2 plugged in
//! through [`check::StepRule`]), tree resolution with a proof-logging CDCL,
//! the natural-deduction reference prover, and the problem generators of
//! ProofGrid's PL datasets ([`problems`]: PL1's random problems, PL2's
//! structured families) with the NDL proof corruptions ([`corrupt`]); and
//! what the equivalence tasks need of the logic: sound rewritings and
//! minimal mutations ([`rewrite`]), the certified equivalence decision
//! ([`equivalence`]) and the restatement target forms ([`forms`]).
//! Nothing here knows about tasks, prompts or datasets: `tasks::pl` builds
//! on it.

pub mod check;
pub mod corrupt;
pub mod equivalence;
pub mod forms;
pub mod formula;
pub mod ndl;
pub mod ndlf;
pub mod problems;
pub mod prover;
pub mod resolution;
pub mod rewrite;
pub mod sat;
pub mod system;

pub use check::{CheckError, ErrorKind, Mode, Report, check_parsed, check_text};
pub use formula::Formula;
pub use ndl::{Deduction, parse_proof};
pub use system::ProofSystem;
