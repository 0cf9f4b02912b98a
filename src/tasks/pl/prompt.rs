//! Prompt text for the four PL1 tasks (PL/EQ spec §6), written in our own
//! words: a short, self-contained description of the formula language and
//! NDL, the problem, and the task's instructions and answer format.

use crate::prop::formula::Formula;

/// The language and rule description shared by every PL1 prompt.
pub const NDL_DESCRIPTION: &str = "\
Formulas. Atoms are capitalised names (A, B, C, ...); `true` and `false` are constants. \
Connectives, from tightest to loosest binding: `~` (not), `&` (and), `|` (or), `==>` (implies), \
`<==>` (if and only if); every binary connective groups to the right. A formula that is not an \
atom or constant must be enclosed in one outer pair of parentheses wherever it stands alone, \
e.g. `(~ A)` or `(A ==> B)`. Two formulas are the same when they parse to the same tree. \
`p` and `q` are complements when one of them is `(~ x)` of the other.

NDL proofs. A proof is one deduction. A deduction is
- a rule step `p BY rule on a1, ..., an` (the `p BY` annotation is optional; if present it must equal what the rule yields),
- a block `{ D1; D2; ...; Dn }` whose result is the result of Dn; each result is available to the later deductions of the block, and nothing derived inside a block is available after it closes,
- `assume p { ... }`: the block may use p; if it yields q the result is `(p ==> q)`,
- `suppose-absurd p { ... }`: the block may use p and must yield `false`; the result is `(~ p)`.
A result can be named with `I := D` and the name used as an argument later in the same block; premises are named `premise-1`, `premise-2`, ... Arguments are formulas or names; `#` starts a comment.
An argument \"holds\" when it is a premise, an open assumption, or an earlier result in an enclosing open block. Unless noted, every argument must hold.

Rules (arguments -> result):
claim p -> p | left-and (p & q) -> p | right-and (p & q) -> q | both p, q -> (p & q)
mp (p ==> q), p -> q | mt (p ==> q), r -> (~ p) where r is a complement of q
left-either p, q -> (p | q) (only p must hold) | right-either p, q -> (p | q) (only q must hold)
cases (p | q), (p ==> r), (q ==> r) -> r | absurd p, q -> false where p, q are complements
dn (~ (~ p)) -> p | ex-middle p -> (p | (~ p)) (p need not hold)
left-iff (p <==> q) -> (p ==> q) | right-iff (p <==> q) -> (q ==> p) | equiv (p ==> q), (q ==> p) -> (p <==> q)
dm (~ (p & q)) -> ((~ p) | (~ q)); dm (~ (p | q)) -> ((~ p) & (~ q))
dsyl (p | q), r -> q if r is a complement of p, else p if r is a complement of q
neg-cond (~ (p ==> q)) <-> (p & (~ q)) | neg-bicond (~ (p <==> q)) <-> ((p & (~ q)) | ((~ p) & q))
cond-def (p ==> q) <-> ((~ p) | q) | bicond-def' (p <==> q) <-> ((p & q) | ((~ p) & (~ q)))   (<-> : either form gives the other)
from-false p -> p (p need not hold, but false must hold)
from-complements p, q, r -> p where q, r are complements (only q and r must hold)
by-contradiction p, (q ==> false) -> p where q is a complement of p (only the second must hold)
No rule removes double negations other than dn. A proof is correct when every step is valid and its result is exactly the goal.";

/// The problem block: `assert` lines and `Derive:`.
pub fn problem_text(premises: &[Formula], goal: &Formula) -> String {
    let mut s = String::new();
    for (i, p) in premises.iter().enumerate() {
        s.push_str(&format!("assert premise-{} := {p}\n", i + 1));
    }
    s.push_str(&format!("Derive: {goal}\n"));
    s
}

/// Proof checking prompt.
pub fn proof_checking(premises: &[Formula], goal: &Formula, proof: &str) -> String {
    format!(
        "{NDL_DESCRIPTION}\n\nTask: decide whether the NDL proof below is correct. If it is not, report the \
first error in evaluation order (top to bottom, left to right): the offending line as written, its \
line number counted from 1 at the first line of the proof text, and the error type: \"syntax\" \
(unreadable text, unknown rule, undefined name), \"type\" (wrong number of arguments, or arguments \
that do not fit the rule), or \"logic\" (an argument that does not hold, a wrong `BY` annotation, \
or a result that is not the goal; in the last case use line 0 and an empty line). Be charitable \
about layout.\n\nAnswer with JSON only: {{\"correct\": true, \"errorDetails\": {{}}}} or \
{{\"correct\": false, \"errorDetails\": {{\"offendingLine\": \"...\", \"offendingLineNumber\": N, \
\"errorType\": \"syntax|type|logic\", \"errorDescription\": \"...\"}}}}\n\n{}\nNDL Proof:\n{proof}\n",
        problem_text(premises, goal)
    )
}

/// Proof writing prompt.
pub fn proof_writing(premises: &[Formula], goal: &Formula) -> String {
    format!(
        "{NDL_DESCRIPTION}\n\nTask: write an NDL proof of the goal from the premises. Do not repeat \
the assert lines; cite premises by name or by formula. Comments start with `##`.\n\nAnswer with \
JSON only: {{\"description\": \"<your strategy in a sentence or two>\", \"proof\": \"<the NDL \
proof>\"}}\n\n{}",
        problem_text(premises, goal)
    )
}

/// Proof masking prompt.
pub fn proof_masking(premises: &[Formula], goal: &Formula, masked: &str) -> String {
    format!(
        "{NDL_DESCRIPTION}\n\nTask: in the proof below some items were replaced by MASK1, MASK2, ... \
A mask stands for one of: the formula before BY, the rule name, the hypothesis of an assume or \
suppose-absurd, or one argument (a formula or a name). Give a value for every mask so that the \
proof becomes correct. Any assignment that makes the proof correct is accepted. If no assignment \
can make it correct, answer with an empty map.\n\nAnswer with JSON only: {{\"masks\": \
{{\"MASK1\": \"...\", ...}}}} or {{\"masks\": {{}}}}\n\n{}\nMasked Proof:\n{masked}\n",
        problem_text(premises, goal)
    )
}

/// Gap filling prompt.
pub fn gap_filling(
    premises: &[Formula],
    goal: &Formula,
    gapped: &str,
    labels: &[String],
) -> String {
    format!(
        "{NDL_DESCRIPTION}\n\nTask: the proof below is a correct proof with pieces removed; each \
piece is replaced by a line GAP-k ({}). A piece is one or more consecutive elements of a block \
(rule steps or whole assume subproofs). Write NDL text for every gap so that the whole proof is \
correct; several elements in one gap are separated by `;`.\n\nAnswer in plain text, one section \
per gap:\nGAP-1:\n<NDL elements>\n\nGAP-2:\n<NDL elements>\n\n{}\nProof with gaps:\n{gapped}\n",
        labels.join(", "),
        problem_text(premises, goal)
    )
}
