//! Prompt text for the PL tasks (PL/EQ spec §6), written in our own
//! words: a short, self-contained description of the proof language (NDL
//! for PL1, NDL_f for PL2), the problem, and the task's instructions and
//! answer format. Proof checking and proof writing are one template each
//! over the language ([`ProofSystem`]); masking and gap filling are NDL's.

use crate::prop::ProofSystem;
use crate::prop::formula::{Formula, compact};

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

/// The NDL_f language description shared by the PL2 prompts (spec §2).
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
A step cannot gather more than 5 premises, not even by first conjoining them into one formula or by \
assuming them as hypotheses of its claim, as in `(p1 ==> (p2 ==> ...))` (premises count up to \
equivalence); a claim that is true under every assignment (a tautology) is not a valid step. \
Typical moves: `false from q, (~ q)`, and proof by contradiction: `assume (~ p) { ...; false from ... }; p from ((~ p) ==> false)`.";

/// What differs between the languages in the checking and writing prompts.
struct Texts {
    description: &'static str,
    syntax_errors: &'static str,
    type_errors: &'static str,
    logic_errors: &'static str,
    checking_note: &'static str,
    writing_note: &'static str,
}

const NDL_TEXTS: Texts = Texts {
    description: NDL_DESCRIPTION,
    syntax_errors: "unreadable text, unknown rule, undefined name",
    type_errors: "wrong number of arguments, or arguments that do not fit the rule",
    logic_errors: "an argument that does not hold, a wrong `BY` annotation, or a result that is not the goal",
    checking_note: "Be charitable about layout.",
    writing_note: "; cite premises by name or by formula. Comments start with `##`.",
};

const NDLF_TEXTS: Texts = Texts {
    description: NDLF_DESCRIPTION,
    syntax_errors: "unreadable text, or a name that is not defined at that point",
    type_errors: "more than 5 justifiers, more than 5 premises gathered in one step, or a tautology claimed",
    logic_errors: "a justifier that does not hold, a claim that does not follow from its justifiers, or a result that is not the goal",
    checking_note: "When a claim does not follow, give in the description a counterexample: truth values that make the justifiers true and the claim false.",
    writing_note: ".",
};

fn texts(system: &ProofSystem) -> &'static Texts {
    match system {
        ProofSystem::Ndl => &NDL_TEXTS,
        ProofSystem::NdlF(_) => &NDLF_TEXTS,
    }
}

/// The language description a prompt starts with.
pub fn description(system: &ProofSystem) -> &'static str {
    texts(system).description
}

/// The problem block: `assert` lines and `Derive:`, in the language's
/// notation (NDL_f prompts print formulas compactly).
pub fn problem_text(system: &ProofSystem, premises: &[Formula], goal: &Formula) -> String {
    let show = |f: &Formula| match system {
        ProofSystem::Ndl => f.to_string(),
        ProofSystem::NdlF(_) => compact(f),
    };
    let mut s = String::new();
    for (i, p) in premises.iter().enumerate() {
        s.push_str(&format!("assert premise-{} := {}\n", i + 1, show(p)));
    }
    s.push_str(&format!("Derive: {}\n", show(goal)));
    s
}

/// Proof checking prompt: decide whether the shown proof is correct and
/// locate its first error.
pub fn proof_checking(
    system: &ProofSystem,
    premises: &[Formula],
    goal: &Formula,
    proof: &str,
) -> String {
    let t = texts(system);
    format!(
        "{}\n\nTask: decide whether the {} proof below is correct. If it is not, report the \
first error in evaluation order (top to bottom, left to right): the offending line as written, its \
line number counted from 1 at the first line of the proof text, and the error type: \"syntax\" \
({}), \"type\" ({}), or \"logic\" ({}; in the last case use line 0 and an empty line). {}\n\n\
Answer with JSON only: {{\"correct\": true, \"errorDetails\": {{}}}} or \
{{\"correct\": false, \"errorDetails\": {{\"offendingLine\": \"...\", \"offendingLineNumber\": N, \
\"errorType\": \"syntax|type|logic\", \"errorDescription\": \"...\"}}}}\n\n{}\nNDL Proof:\n{proof}\n",
        t.description,
        system.name(),
        t.syntax_errors,
        t.type_errors,
        t.logic_errors,
        t.checking_note,
        problem_text(system, premises, goal)
    )
}

/// Proof writing prompt. With `non_theorems` the goal may not follow, and
/// the answer is then a counterexample instead of a proof.
pub fn proof_writing(
    system: &ProofSystem,
    premises: &[Formula],
    goal: &Formula,
    non_theorems: bool,
) -> String {
    let t = texts(system);
    let name = system.name();
    let (may_fail, alternative) = if non_theorems {
        (
            " The goal may also NOT follow from the premises; in that case give no proof but a \
counterexample: a truth value for every atom that makes all premises true and the goal false.",
            " or, if the goal does not follow, {\"description\": \"...\", \"proof\": null, \
\"counterexample\": {\"A1\": true, \"A2\": false, ...}}",
        )
    } else {
        ("", "")
    };
    format!(
        "{}\n\nTask: write an {name} proof of the goal from the premises. Do not repeat the assert \
lines{}{may_fail}\n\nAnswer with JSON only: {{\"description\": \"<your strategy in a sentence or \
two>\", \"proof\": \"<the {name} proof>\"}}{alternative}\n\n{}",
        t.description,
        t.writing_note,
        problem_text(system, premises, goal)
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
        problem_text(&ProofSystem::Ndl, premises, goal)
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
        problem_text(&ProofSystem::Ndl, premises, goal)
    )
}
