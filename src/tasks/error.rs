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

/// Why a generated instance's metadata cannot be written into its record
/// ([`super::family::Built::into_record`]): a generator bug.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetadataError {
    /// The family's struct did not serialize.
    #[error("metadata is not JSON: {0}")]
    NotJson(String),
    /// The metadata is not a JSON object.
    #[error("metadata is not a JSON object")]
    NotObject,
    /// The family wrote a key the loop adds itself.
    #[error("metadata already has a {0} key")]
    Duplicate(&'static str),
}

/// Why a family could not set up or feed a run
/// ([`super::generation::Generation::generators`],
/// [`super::family::Generator::enter_group`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeneratorError {
    /// The section handed over is another family's (a registry bug).
    #[error("not the [tasks.{0}] section")]
    WrongSection(&'static str),
    /// The family's generator is made by its stage hook
    /// ([`super::generation::StageHook`]), not from the section alone.
    #[error("the {0} generator is built by its axiom-saturation stage")]
    Staged(&'static str),
    /// What a group's cells read could not be loaded (an artifact that
    /// does not read back); the message names the file.
    #[error("{0}")]
    Load(String),
}

/// Why a stored row's prompt cannot be rendered again from its metadata
/// ([`super::family::TaskFamily::render_prompt`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The row does not read as one of the family's records (its task or
    /// metadata column).
    #[error(transparent)]
    Row(#[from] TaskError),
    /// The metadata reads but lacks (or garbles) what the prompt shows.
    #[error("{0}")]
    Metadata(String),
}

impl From<String> for RenderError {
    fn from(message: String) -> RenderError {
        RenderError::Metadata(message)
    }
}

impl From<&str> for RenderError {
    fn from(message: &str) -> RenderError {
        RenderError::Metadata(message.to_string())
    }
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

/// A configuration value outside its range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {message}")]
pub struct BadValue {
    /// The dotted key, e.g. `saturation.weight_picks_per_age_pick`.
    pub key: String,
    /// What is wrong with its value.
    pub message: String,
}

impl BadValue {
    /// A value of `key` and what is wrong with it (shown `key: message`).
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> BadValue {
        BadValue {
            key: key.into(),
            message: message.into(),
        }
    }

    /// A value of `key` and a sentence about it that starts with the key
    /// (`key must be ...`): the message is `key rest`.
    pub fn sentence(key: impl Into<String>, rest: &str) -> BadValue {
        let key = key.into();
        let message = format!("{key} {rest}");
        BadValue { key, message }
    }

    /// The error as one line without the key repeated: the message alone
    /// when it starts with the key (a [`BadValue::sentence`]), else
    /// `key: message`.
    pub fn text(&self) -> String {
        if self.message.starts_with(&self.key) {
            self.message.clone()
        } else {
            self.to_string()
        }
    }
}
