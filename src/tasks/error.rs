//! Typed errors at the task layer's boundary (DESIGN.md §8): what
//! `TaskFamily::verify` and the generators report, so that `verify` can
//! tell a row it cannot read from a row whose label does not re-check, and
//! the generation loop can list a generator's failed self-check as a bug.

/// Why a stored row or a generated instance failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    /// The row cannot be read as one of the family's records: a column is
    /// not valid JSON, a field is missing or of the wrong type, or the task
    /// is not the family's.
    #[error("unreadable row: {0}")]
    Record(String),
    /// The row reads, but its label, gold answer or certificate does not
    /// re-check.
    #[error("{0}")]
    Rejected(String),
    /// A generator's internal consistency check failed on an instance it
    /// built (a bug: the instance is rejected and listed).
    #[error("internal check failed: {0}")]
    Check(String),
}

impl TaskError {
    /// The error's text without the kind's prefix.
    pub fn message(&self) -> &str {
        match self {
            TaskError::Record(m) | TaskError::Rejected(m) | TaskError::Check(m) => m,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_apart() {
        let r = TaskError::Record("metadata: EOF".into());
        assert_eq!(r.to_string(), "unreadable row: metadata: EOF");
        assert_eq!(r.message(), "metadata: EOF");
        assert_eq!(TaskError::Rejected("label".into()).to_string(), "label");
        assert!(
            TaskError::Check("x".into())
                .to_string()
                .starts_with("internal")
        );
    }
}
