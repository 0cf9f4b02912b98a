//! Bounds on a model's answer, checked before any scorer's check runs
//! (issue 50: nothing a model writes can make scoring hang). An answer
//! longer than its task can need is `malformed` at once: no check is
//! started on it, so its size cannot buy work. Each bound is derived from
//! the row (its prompt and gold answer, or the clauses the task gives), so
//! a right answer of any reasonable form is never cut.
//!
//! - [`answer_byte_bound`]: every family, in `pipeline::score::score_row`,
//!   on the extracted answer;
//! - [`step_literal_bound`] and [`step_variable_bound`]: the stepwise
//!   derivation's step clauses, from the longest clause the task shows;
//! - [`STEP_CHECK_WORK`]: the independent checker's work budget for one
//!   step's certificate when scoring (the default, `checker::CHECK_WORK`,
//!   is for dataset generation).
//!
//! Term depth is bounded by the TPTP readers (`checker::MAX_TERM_DEPTH`
//! and the parser's own bound), and the number of steps of a derivation by
//! `tasks::tptp::stepwise::MAX_STEPS`.

/// Extracted answers are never refused below this many bytes.
pub const ANSWER_FLOOR_BYTES: usize = 1 << 16;

/// Bytes of answer allowed per byte of the row's prompt and gold answer,
/// on top of [`ANSWER_FLOOR_BYTES`].
pub const ANSWER_BYTES_PER_ROW_BYTE: usize = 16;

/// Most bytes an extracted answer to a row with this prompt and gold
/// answer may have: [`ANSWER_FLOOR_BYTES`] plus
/// [`ANSWER_BYTES_PER_ROW_BYTE`] times their lengths. Every answer a task
/// asks for restates at most what the prompt gives, in about the gold
/// answer's size; sixteen times both is far past any right answer.
pub fn answer_byte_bound(prompt: &str, gold: &str) -> usize {
    ANSWER_FLOOR_BYTES.saturating_add(
        ANSWER_BYTES_PER_ROW_BYTE.saturating_mul(prompt.len().saturating_add(gold.len())),
    )
}

/// Most literals a derivation step's clause may have when the longest
/// clause the task shows (premises, conclusion, certified steps) has
/// `longest`: twice that plus four. A resolvent of two clauses has fewer
/// literals than the two together, and a chain that needs longer clauses
/// than that is not one the task asks for.
pub fn step_literal_bound(longest: usize) -> usize {
    longest.saturating_mul(2).saturating_add(4)
}

/// Most distinct variables a derivation step's clause may have when the
/// task's clauses have at most `most` each: twice that plus four (a
/// resolvent's variables are its two parents' together).
pub fn step_variable_bound(most: usize) -> usize {
    most.saturating_mul(2).saturating_add(4)
}

/// The independent checker's work budget for the certificate of one step
/// when scoring (finite-model checks: variable assignments and literal
/// evaluations). A model answer must not buy the generation budget for
/// each of its steps; past it the step is undecided (`timeout`).
pub const STEP_CHECK_WORK: u64 = 1 << 18;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_grow_with_the_row() {
        assert_eq!(answer_byte_bound("", ""), ANSWER_FLOOR_BYTES);
        assert_eq!(
            answer_byte_bound("abc", "d"),
            ANSWER_FLOOR_BYTES + 4 * ANSWER_BYTES_PER_ROW_BYTE
        );
        assert_eq!(step_literal_bound(3), 10);
        assert_eq!(step_variable_bound(usize::MAX), usize::MAX);
    }
}
