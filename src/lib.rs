//! saturate: a superposition saturation engine that turns TPTP axioms into
//! certified, reproducible datasets of logical reasoning tasks.
#![warn(missing_docs)]

pub mod audit;
pub mod certificate;
pub mod checker;
pub mod config;
pub mod dataset;
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
pub mod tasks;
pub mod tptp;

/// The engine's version (the `saturate` crate's), as recorded in every
/// manifest's `engine_version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
