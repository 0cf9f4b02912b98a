//! saturate: a superposition saturation engine that turns TPTP axioms into
//! certified, reproducible datasets of logical reasoning tasks.
//!
//! The engine reads TPTP ([`tptp`]), saturates a clause set with a
//! given-clause superposition loop ([`Saturator`], after Bachmair &
//! Ganzinger's calculus as E runs it) and records the derivation DAG;
//! the [`Prover`] decides problems with certificates an independent
//! [`checker`] re-verifies. Task families ([`TaskFamily`], listed by the
//! [`Registry`]) turn derivations into rows ([`Record`]), score answers and
//! audit datasets; a run's settings are a [`Config`].
//!
//! Deciding a problem file, as `saturate prove` does:
//!
//! ```
//! use saturate::{ProverLimits, prove_file, tptp::{IncludePolicy, SzsStatus}};
//!
//! let dir = std::env::temp_dir().join(format!("saturate-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let file = dir.join("MINI.p");
//! std::fs::write(
//!     &file,
//!     "cnf(a, axiom, p(a)).\n\
//!      cnf(r, axiom, ~p(X) | q(X)).\n\
//!      cnf(goal, negated_conjecture, ~q(a)).\n",
//! )
//! .unwrap();
//! let report = prove_file(
//!     &file,
//!     None,
//!     &IncludePolicy::default(),
//!     ProverLimits::default(),
//!     Default::default(),
//! )
//! .unwrap();
//! assert_eq!(report.status, SzsStatus::Unsatisfiable);
//! assert!(report.checked.is_ok()); // the checker confirmed the refutation
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
#![warn(missing_docs)]

pub mod audit;
pub mod certificate;
pub mod checker;
pub mod config;
pub mod dataset;
pub mod deadline;
pub mod derivation;
pub mod equational;
pub mod fol;
pub mod interest;
pub mod logic;
pub mod pipeline;
pub mod prop;
pub mod prover;
pub mod sat;
pub mod saturation;
pub mod seed;
pub mod tasks;
pub mod tptp;

/// The engine's version (the `saturate` crate's), as recorded in every
/// manifest's `engine_version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub use config::Config;
pub use dataset::Record;
pub use prover::file::{ProveReport, prove_file};
pub use prover::{Prover, ProverLimits};
pub use saturation::Saturator;
pub use tasks::family::TaskFamily;
pub use tasks::registry::Registry;
