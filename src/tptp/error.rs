//! The error type of the TPTP reader: what went wrong and where
//! (file, 1-based line and column).

use std::path::{Path, PathBuf};

/// A reading error located in a file: `path:line:col: message`.
///
/// `line` and `col` are 1-based; the column counts characters, not bytes.
/// Errors that concern a whole file (unreadable, no formulas) point at 1:1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}:{col}: {kind}", file.display())]
pub struct TptpError {
    /// The file the error is in (the origin name for [`crate::tptp::parse_str`]).
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl TptpError {
    /// An error at `file:line:col`.
    pub fn new(file: &Path, line: u32, col: u32, kind: ErrorKind) -> Self {
        TptpError {
            file: file.to_path_buf(),
            line,
            col,
            kind,
        }
    }

    /// The message without the location prefix.
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

/// Longest excerpt of input text quoted in an error message, in characters.
pub const EXCERPT_CHARS: usize = 80;

/// A bounded excerpt of untrusted text for messages: at most `max`
/// characters, then `...` and the full length, so that a megabyte-long
/// token does not become a megabyte-long error.
pub fn excerpt(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}... ({} characters)", &s[..cut], s.chars().count()),
    }
}

/// [`excerpt`] at [`EXCERPT_CHARS`].
fn ex(s: &str) -> String {
    excerpt(s, EXCERPT_CHARS)
}

/// Joins paths for messages: `a, b, c`.
fn join_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The end of the [`ErrorKind::Unsupported`] message ("TFF input is not
/// supported ..."), by which callers holding only the message text answer
/// SZS `Inappropriate`.
pub const UNSUPPORTED_INPUT: &str = "input is not supported (saturate reads CNF and FOF)";

/// The kinds of reading errors.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// A token other than the one the grammar needs here.
    #[error("expected {expected} but found {}", ex(found))]
    Expected {
        /// What the grammar allows at this point, e.g. `')'`.
        expected: String,
        /// The token found, quoted, or `end of file`.
        found: String,
    },
    /// A formula role that is not one of the TPTP roles.
    #[error(
        "bad role '{}' (expected axiom, hypothesis, definition, assumption, lemma, theorem, \
         corollary, conjecture, negated_conjecture, plain, type, interpretation, fi_domain, \
         fi_functors, fi_predicates or unknown)", ex(.0)
    )]
    BadRole(String),
    /// An annotated formula in a language other than CNF and FOF (`TFF`,
    /// `THF`, ...): callers answer SZS `Inappropriate`.
    #[error("{} {UNSUPPORTED_INPUT}", ex(.0))]
    Unsupported(String),
    /// An included file found under none of the searched paths.
    #[error(
        "cannot find included file '{}' (searched {})",
        ex(name),
        join_paths(searched)
    )]
    MissingInclude {
        /// The file name as written in the include directive.
        name: String,
        /// Every path tried, in order.
        searched: Vec<PathBuf>,
    },
    /// A file that (directly or indirectly) includes itself.
    #[error("include cycle: {}", .0.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" -> "))]
    IncludeCycle(Vec<PathBuf>),
    /// A name in an include's formula selection that the included file lacks.
    #[error("formula '{}' selected by the include is not in {}", ex(name), file.display())]
    UnknownSelected {
        /// The selected name.
        name: String,
        /// The included file.
        file: PathBuf,
    },
    /// A file with neither annotated formulas nor includes.
    #[error("no formulas in file")]
    NoFormulas,
    /// A single-quoted atom without its closing quote on the same line.
    #[error("unterminated quoted atom")]
    UnterminatedQuoted,
    /// A distinct object without its closing double quote on the same line.
    #[error("unterminated distinct object")]
    UnterminatedDistinct,
    /// A `/*` comment without `*/`.
    #[error("unterminated block comment")]
    UnterminatedComment,
    /// `''`: single-quoted atoms need at least one character.
    #[error("empty quoted atom ''")]
    EmptyQuoted,
    /// A backslash followed by something other than the quote or a backslash.
    #[error("invalid escape '\\{0}' in a quoted token (only \\\\ and the quote may be escaped)")]
    BadEscape(char),
    /// A malformed number, e.g. with a leading zero.
    #[error("malformed number '{}': {}", ex(.0), .1)]
    BadNumber(String, &'static str),
    /// The input is not UTF-8.
    #[error("invalid UTF-8 (binary file?)")]
    InvalidUtf8,
    /// A control character outside layout (binary garbage).
    #[error("control character U+{0:04X} (binary file?)")]
    ControlChar(u32),
    /// A character that starts no TPTP token, or is not allowed in a quoted token.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// Terms, parentheses or annotations nested beyond the reader's limit.
    #[error("nesting deeper than {0} levels")]
    TooDeep(usize),
    /// `$true` or `$false` where a term is needed.
    #[error("'{0}' is a formula, not a term")]
    TruthAsTerm(String),
    /// Following includes read more clauses or include directives than the
    /// reader allows (an include bomb: ten includes of a file that includes
    /// another ten times, ...).
    #[error(
        "includes read more than {limit} {what} (include chain: {})",
        .chain.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" -> ")
    )]
    IncludeLimit {
        /// What was counted: `"included clauses"`, `"include directives"` or
        /// `"nested include levels"`.
        what: &'static str,
        /// The limit.
        limit: u64,
        /// The files being read when it was exceeded, outermost first.
        chain: Vec<PathBuf>,
    },
    /// With confined includes, an include that resolves (symbolic links
    /// followed) outside the TPTP root and the problem file's folder.
    #[error(
        "include '{name}' resolves to {} outside the allowed folders ({}); includes are confined",
        path.display(),
        join_paths(allowed)
    )]
    IncludeOutside {
        /// The file name as written in the include directive.
        name: String,
        /// Where it resolved to.
        path: PathBuf,
        /// The folders includes may resolve into.
        allowed: Vec<PathBuf>,
    },
    /// A file that cannot be read.
    #[error("cannot read {}: {message}", path.display())]
    Io {
        /// The path tried.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_location_prefix() {
        let e = TptpError::new(
            Path::new("a/b.p"),
            3,
            7,
            ErrorKind::Expected {
                expected: "')'".into(),
                found: "'.'".into(),
            },
        );
        assert_eq!(e.to_string(), "a/b.p:3:7: expected ')' but found '.'");
        assert_eq!(e.message(), "expected ')' but found '.'");
    }

    #[test]
    fn long_tokens_are_cut_in_messages() {
        let long = "a".repeat(1 << 20);
        let e = TptpError::new(
            Path::new("big.p"),
            1,
            5,
            ErrorKind::Expected {
                expected: "'('".into(),
                found: format!("'{long}'"),
            },
        );
        let m = e.to_string();
        assert!(
            m.starts_with("big.p:1:5: expected '(' but found 'aaa"),
            "{m}"
        );
        assert!(m.len() < 200, "{} bytes", m.len());
        assert!(m.contains("... (1048578 characters)"), "{m}");
        for k in [
            ErrorKind::BadRole(long.clone()),
            ErrorKind::Unsupported(long.clone()),
            ErrorKind::BadNumber(long.clone(), "leading zero"),
            ErrorKind::MissingInclude {
                name: long.clone(),
                searched: vec![],
            },
        ] {
            assert!(k.to_string().len() < 400, "{}", k.to_string().len());
        }
        assert_eq!(excerpt("héllo", 3), "hél... (5 characters)");
        assert_eq!(excerpt("short", 80), "short");
    }

    #[test]
    fn include_messages_list_paths() {
        let k = ErrorKind::MissingInclude {
            name: "Axioms/X.ax".into(),
            searched: vec![
                PathBuf::from("/r/Axioms/X.ax"),
                PathBuf::from("d/Axioms/X.ax"),
            ],
        };
        assert_eq!(
            k.to_string(),
            "cannot find included file 'Axioms/X.ax' (searched /r/Axioms/X.ax, d/Axioms/X.ax)"
        );
        let c = ErrorKind::IncludeCycle(vec!["a".into(), "b".into(), "a".into()]);
        assert_eq!(c.to_string(), "include cycle: a -> b -> a");
        assert_eq!(
            ErrorKind::ControlChar(0).to_string(),
            "control character U+0000 (binary file?)"
        );
    }
}
