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

/// Why a certificate was not accepted: refused (it is wrong), or the check
/// ran out of its work budget ([`Budget`]) before deciding, which says
/// nothing about the certificate ([`CheckError::out_of_budget`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    /// What was wrong, or which budget ran out.
    pub message: String,
    /// True when the check gave up at its work budget (or deadline)
    /// instead of refusing: callers map it to "undecided" (the `timeout`
    /// verdict when scoring, `ResourceOut` for `prove`), never to wrong.
    pub out_of_budget: bool,
}

impl CheckError {
    /// A refusal: the certificate is wrong.
    pub fn refused(message: impl Into<String>) -> CheckError {
        CheckError {
            message: message.into(),
            out_of_budget: false,
        }
    }

    /// The check stopped at its work budget or deadline, undecided.
    pub fn exhausted(message: impl Into<String>) -> CheckError {
        CheckError {
            message: message.into(),
            out_of_budget: true,
        }
    }

    /// The same error with `prefix: ` in front of its message (its kind kept).
    pub fn context(self, prefix: impl fmt::Display) -> CheckError {
        CheckError {
            message: format!("{prefix}: {}", self.message),
            out_of_budget: self.out_of_budget,
        }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CheckError {}

pub(super) fn err<T>(msg: impl Into<String>) -> Result<T, CheckError> {
    Err(CheckError::refused(msg))
}

/// Default work budget of one certificate check ([`crate::checker::check`]):
/// work units are variable assignments and literal evaluations of the
/// finite-model check and literal matches of the subsumption tests. About a
/// second of work; the finite-model checks of the prover's own models take
/// a few thousand units.
pub const CHECK_WORK: u64 = 1 << 23;

/// How often (in work units) a [`Budget`] with a deadline reads the clock.
const CLOCK_EVERY: u64 = 1 << 12;

/// The work a check may still do, and an optional wall-clock deadline
/// (`saturate prove --cpu-limit`; never set for dataset runs, so their
/// outcomes stay reproducible). Past either, the check ends with an
/// [`CheckError::out_of_budget`] error.
#[derive(Clone, Debug)]
pub struct Budget {
    left: u64,
    spent: u64,
    deadline: Option<crate::deadline::Deadline>,
}

impl Budget {
    /// A budget of `work` units without a deadline.
    pub fn new(work: u64) -> Budget {
        Budget {
            left: work,
            spent: 0,
            deadline: None,
        }
    }

    /// The same budget that also ends at `deadline` (when one is given).
    pub fn with_deadline(mut self, deadline: Option<crate::deadline::Deadline>) -> Budget {
        self.deadline = deadline;
        self
    }

    /// Work units spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Spends `units`; an out-of-budget error once the work or the time is
    /// used up.
    pub(super) fn spend(&mut self, units: u64) -> Result<(), CheckError> {
        if units > self.left {
            self.spent += self.left;
            self.left = 0;
            return Err(CheckError::exhausted(format!(
                "the check ran out of its work budget ({} units)",
                self.spent
            )));
        }
        let before = self.spent;
        self.left -= units;
        self.spent += units;
        if let Some(d) = self.deadline
            && before / CLOCK_EVERY != self.spent / CLOCK_EVERY
            && d.passed()
        {
            self.left = 0;
            return Err(CheckError::exhausted(
                "the check stopped at the --cpu-limit deadline",
            ));
        }
        Ok(())
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new(CHECK_WORK)
    }
}
