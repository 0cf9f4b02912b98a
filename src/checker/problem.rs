//! The checker's interface types: the problem a certificate is about (TPTP
//! clause texts), what a successful check established, and why a
//! certificate was refused.

use std::fmt;

/// The problem a certificate is about, as TPTP clause texts.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CheckProblem {
    /// Premise clauses (for a refutation problem: every clause).
    pub axioms: Vec<String>,
    /// The conjecture clause, when the question is entailment.
    pub conjecture: Option<String>,
}

/// What a successful check established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// Every step of a refutation was re-derived.
    Refutation {
        /// Number of steps checked.
        steps: usize,
    },
    /// The model satisfies every premise (and falsifies the conjecture).
    Model {
        /// Domain size.
        size: u32,
    },
    /// A saturated-set certificate: it is not re-checkable here (it would
    /// need the redundancy of every inference); callers that need a checked
    /// negative label must require a model.
    SaturationNotCheckable,
    /// An `Unknown` verdict has nothing to check.
    Nothing,
}

/// Why a certificate was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError(pub String);

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CheckError {}

pub(super) fn err<T>(msg: impl Into<String>) -> Result<T, CheckError> {
    Err(CheckError(msg.into()))
}
