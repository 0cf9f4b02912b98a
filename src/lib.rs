//! saturate: a superposition saturation engine that turns TPTP axioms into
//! certified, reproducible datasets of logical reasoning tasks.
#![warn(missing_docs)]

pub mod logic;
