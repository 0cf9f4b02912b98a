//! PL2 prompts in our own words (PL/EQ spec §2, §4): the NDL_f language
//! description, the problem statement, and the proof-writing and
//! proof-checking prompts.

use crate::prop::formula::{Formula, compact};

/// The NDL_f description shared by the PL2 prompts (our own words, spec §2).
pub const NDLF_DESCRIPTION: &str = "\
Formulas. Atoms are capitalised names with digits and underscores (A1, X3_2, ...); `true` and \
`false` are constants. Connectives, from tightest to loosest binding: `~` (not), `&` (and), `|` \
(or), `==>` (implies), `<==>` (if and only if); every binary connective groups to the right, so \
`(A & B ==> C | D)` is `((A & B) ==> (C | D))`. A formula that is not an atom or constant must be \
enclosed in one outer pair of parentheses wherever it stands alone, e.g. `(~ A)`.

NDL_f proofs. A proof is one deduction. A deduction is
- a step `p from j1, ..., jn`: the justifiers j1..jn (1 to 5 of them) are formulas or names, each must hold, and together they must logically imply p (every assignment of truth values that makes all of them true makes p true); the step's result is p,
- a block `{ D1; D2; ...; Dn }` whose result is the result of Dn; each result is available to the later deductions of the block, and nothing derived inside a block is available after it closes,
- `assume p { ... }`: the block may use p; if it yields q the result is `(p ==> q)`.
A result can be named with `I := D` and the name used later in the same block (also inside nested blocks); `assume I := p { ... }` names the hypothesis. Premises are named `premise-1`, `premise-2`, ... A justifier \"holds\" when it is a premise, an open assumption, or an earlier result in an enclosing open block. `#` starts a comment. \
A step cannot gather more than 5 premises, not even by first conjoining them into one formula. \
Typical moves: `false from q, (~ q)`, and proof by contradiction: `assume (~ p) { ...; false from ... }; p from ((~ p) ==> false)`.";

/// The problem block: `assert` lines (compact notation) and `Derive:`.
pub fn problem_text(premises: &[Formula], goal: &Formula) -> String {
    let mut s = String::new();
    for (i, p) in premises.iter().enumerate() {
        s.push_str(&format!("assert premise-{} := {}\n", i + 1, compact(p)));
    }
    s.push_str(&format!("Derive: {}\n", compact(goal)));
    s
}

/// Proof writing prompt.
pub fn proof_writing_prompt(premises: &[Formula], goal: &Formula) -> String {
    format!(
        "{NDLF_DESCRIPTION}\n\nTask: write an NDL_f proof of the goal from the premises. Do not repeat \
the assert lines. The goal may also NOT follow from the premises; in that case give no proof but \
a counterexample: a truth value for every atom that makes all premises true and the goal false.\n\n\
Answer with JSON only: {{\"description\": \"<your strategy in a sentence or two>\", \"proof\": \
\"<the NDL_f proof>\"}} or, if the goal does not follow, {{\"description\": \"...\", \"proof\": \
null, \"counterexample\": {{\"A1\": true, \"A2\": false, ...}}}}\n\n{}",
        problem_text(premises, goal)
    )
}

/// Proof checking prompt.
pub fn proof_checking_prompt(premises: &[Formula], goal: &Formula, proof: &str) -> String {
    format!(
        "{NDLF_DESCRIPTION}\n\nTask: decide whether the NDL_f proof below is correct. If it is not, \
report the first error in evaluation order (top to bottom, left to right): the offending line as \
written, its line number counted from 1 at the first line of the proof text, and the error type: \
\"syntax\" (unreadable text, or a name that is not defined at that point), \"type\" (more than 5 \
justifiers, or more than 5 premises gathered in one step), or \"logic\" (a justifier that does not \
hold, a claim that does not follow from its justifiers, or a result that is not the goal; in the \
last case use line 0 and an empty line). When a claim does not follow, give in the description a \
counterexample: truth values that make the justifiers true and the claim false.\n\nAnswer with \
JSON only: {{\"correct\": true, \"errorDetails\": {{}}}} or {{\"correct\": false, \"errorDetails\": \
{{\"offendingLine\": \"...\", \"offendingLineNumber\": N, \"errorType\": \"syntax|type|logic\", \
\"errorDescription\": \"...\"}}}}\n\n{}\nNDL Proof:\n{proof}\n",
        problem_text(premises, goal)
    )
}
