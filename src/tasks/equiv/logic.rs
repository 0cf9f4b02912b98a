//! What the equivalence tasks need of a logic, as one trait ([`Logic`]),
//! and the parts of the tasks written once over it: reading a row's
//! metadata, the restatement scorer up to the equivalence check
//! ([`score_roundtrip`]) and the prompts of stored rows ([`render`]).
//! Propositional logic (`super::Pl`, SAT) and first-order logic
//! (`super::fol_task::Fo`, the prover) implement it.

use super::Task;
use super::forms::Target;
use crate::tasks::Score;
use serde_json::Value;

/// A logic of the equivalence tasks: its formulas, how they are read and
/// checked against a vocabulary and a target form, its prompts, and how
/// it decides that an answer restates a formula.
pub trait Logic {
    /// A formula. Equality is tree equality: an answer equal to the shown
    /// formula is a copy.
    type Formula: PartialEq;
    /// One entry of a vocabulary.
    type Symbol;
    /// The work a decision took (what difficulty features record).
    type Effort: Default;
    /// What an unreadable answer is said not to be ("a formula").
    const ANSWER_LANGUAGE: &'static str;

    /// A formula stored in a row (the logic's own printing).
    fn parse_stored(text: &str) -> Result<Self::Formula, String>;
    /// A model's answer.
    fn parse_answer(text: &str) -> Result<Self::Formula, String>;
    /// The row's vocabulary from its metadata.
    fn vocabulary_of(meta: &Value) -> Result<Vec<Self::Symbol>, String>;
    /// The `cheating` detail of an answer using symbols outside the
    /// vocabulary, `None` when it uses none.
    fn outside(f: &Self::Formula, vocabulary: &[Self::Symbol]) -> Option<String>;
    /// Why `f` is not in `target` (`None` when it is).
    fn violation(target: Target, f: &Self::Formula) -> Option<String>;
    /// The score of an answer `f` that passed the syntactic checks: is it
    /// equivalent to `original`? With the work the decision took.
    fn judge(original: &Self::Formula, f: &Self::Formula) -> (Score, Self::Effort);
    /// The prompt of an equivalence row.
    fn equivalence_prompt(vocabulary: &[Self::Symbol], left: &str, right: &str) -> String;
    /// The prompt of a roundtrip row.
    fn roundtrip_prompt(vocabulary: &[Self::Symbol], formula: &str, target: Target) -> String;
}

/// A metadata field as text.
pub(crate) fn field<'a>(meta: &'a Value, key: &str) -> Result<&'a str, String> {
    meta[key]
        .as_str()
        .ok_or_else(|| format!("metadata has no string `{key}`"))
}

/// The metadata's target form.
pub(crate) fn target_of(meta: &Value) -> Result<Target, String> {
    let name = field(meta, "target")
        .map_err(|e| format!("{e} (rows of equiv-3 and before have none: regenerate)"))?;
    Target::from_name(name).ok_or_else(|| format!("metadata `target`: unknown form {name:?}"))
}

/// A stored formula, parsed.
pub(crate) fn stored<L: Logic>(meta: &Value, key: &str) -> Result<L::Formula, String> {
    L::parse_stored(field(meta, key)?).map_err(|e| format!("metadata `{key}`: {e}"))
}

/// Scores a roundtrip answer against the row's metadata: `malformed` for
/// unreadable metadata or an unreadable answer, `cheating` for symbols
/// outside the vocabulary or the shown formula itself, `wrong` for an
/// answer outside the target form (the detail naming the rule broken),
/// then the logic's equivalence check ([`Logic::judge`]). With the work
/// the check took (none when the answer was settled before it).
pub fn score_roundtrip<L: Logic>(metadata: &str, answer: &str) -> (Score, L::Effort) {
    let none = L::Effort::default;
    let meta: Value = match serde_json::from_str(metadata) {
        Ok(m) => m,
        Err(e) => return (Score::malformed(format!("row metadata: {e}")), none()),
    };
    let (original, vocabulary, target) = match (
        stored::<L>(&meta, "formula"),
        L::vocabulary_of(&meta),
        target_of(&meta),
    ) {
        (Ok(f), Ok(v), Ok(t)) => (f, v, t),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            return (Score::malformed(format!("row metadata: {e}")), none());
        }
    };
    let f = match L::parse_answer(answer) {
        Ok(f) => f,
        Err(e) => {
            let s = Score::malformed(format!("the answer is not {}: {e}", L::ANSWER_LANGUAGE));
            return (s, none());
        }
    };
    if let Some(why) = L::outside(&f, &vocabulary) {
        return (Score::cheating(why), none());
    }
    if f == original {
        let s = Score::cheating("the shown formula copied, not restated");
        return (s, none());
    }
    if let Some(why) = L::violation(target, &f) {
        let s = Score::wrong(format!(
            "not in the required form ({}): {why}",
            target.name()
        ));
        return (s, none());
    }
    L::judge(&original, &f)
}

/// The prompt of a stored row of `task` (a task of logic `L`), from its
/// metadata.
pub fn render<L: Logic>(task: Task, metadata: &str) -> Result<String, String> {
    let meta: Value = serde_json::from_str(metadata).map_err(|e| format!("metadata: {e}"))?;
    let vocabulary = L::vocabulary_of(&meta)?;
    Ok(if task.is_judgement() {
        L::equivalence_prompt(&vocabulary, field(&meta, "left")?, field(&meta, "right")?)
    } else {
        L::roundtrip_prompt(&vocabulary, field(&meta, "formula")?, target_of(&meta)?)
    })
}
