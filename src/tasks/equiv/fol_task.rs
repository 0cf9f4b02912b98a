//! The first-order equivalence tasks (after AutoEval, seed 002):
//! `equivalence_fol` (are two closed formulas equivalent?) and
//! `roundtrip_fol` (restate a formula over its vocabulary), built, scored
//! and re-checked with [`crate::fol`].
//!
//! Data flow of one instance: vocabulary (abstract or natural by index) →
//! a closed formula of the level's size ([`first_order::random_formula`]),
//! redrawn while degenerate ([`fol::degenerate`]) or not contingent
//! under random interpretations → level + 1 sound rewrites → one minimal
//! mutation of the rewritten form that random interpretations separate
//! ([`fol::mutate`]) and the side the drawn formula is shown on, drawn by
//! both twins (rows 2p True and 2p+1 False share the stream:
//! [`super::twin_index`]) → the row of the index's label (drawn vs
//! rewritten, or drawn vs mutated) decided by the prover in both directions
//! ([`equivalence::decide`]; an undecided pair is redrawn, and a row is kept only
//! when its twin's pair is decided as built too) → prompt, gold,
//! metadata (`left`, `right` in TPTP FOF syntax, the vocabulary with
//! arities), certificate (the work of both proofs, or the countermodel).
//!
//! Roundtrip scoring ([`logic::score_roundtrip`] over [`Fo`]): the answer
//! is read as one TPTP FOF formula
//! ([`fol::parse`]; unreadable or with a free variable: `malformed`); a
//! symbol outside the vocabulary, or the shown formula itself (the same
//! tree: spacing and redundant parentheses do not count, a renamed bound
//! variable does) is `cheating`; an answer not in the row's target form
//! ([`super::forms::Target`], drawn among the forms the shown formula is
//! not in; [`crate::fol::forms::violation`]) is `wrong`, the detail naming the
//! rule broken; random interpretations that separate the
//! two give `wrong` at once; otherwise the prover decides both directions
//! (an answer nesting more than `MAX_EXTRA_DEPTH` quantifiers beyond the
//! formula's, or more than `MAX_ANSWER_DEPTH` in all, is `timeout`
//! unchecked, since evaluation grows as the model size to the nesting
//! depth):
//! `ok` when both are proved, `wrong` with the countermodel when one has a
//! finite model, `timeout` when neither is found within the limits.

use super::Task;
use super::first_order::{self, Symbol};
use super::forms::{self, Target, Wording};
use super::logic::{self, Logic, stored};
use super::pl::VocabKind;
use crate::fol::forms as fol_forms;
use crate::fol::{self, Fol};
use crate::prover::equivalence::{self, Decision};
use crate::tasks::family::Built;
use crate::tasks::{Score, Verdict, instance_rng};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// Quantifiers an answer may nest beyond the shown formula before the
/// scorer declines to evaluate it (the cost grows as the model size to that
/// power).
const MAX_EXTRA_DEPTH: usize = 6;

/// Quantifiers an answer may nest in all, whatever the shown formula's
/// depth: the bound of level 4 (depth 3 + [`MAX_EXTRA_DEPTH`]), so deeper
/// formulas at higher levels do not raise the scorer's worst case. A
/// shown formula nests at most [`first_order::MAX_QUANTIFIERS`], and its prenex
/// form no more, so a plain restatement stays within the bound.
const MAX_ANSWER_DEPTH: usize = 9;

/// Attempts per candidate index (each may cost two prover calls).
const ATTEMPTS: usize = 12;

/// The syntax paragraph of every first-order prompt.
const FOL_SYNTAX: &str = "Syntax (TPTP FOF): variables start with an upper-case letter, predicates and constants with a lower-case one; ~ is not, & is and, | is or, => is implies, <=> is if and only if; ! [X] : F says that F holds for every X and ? [X] : F that F holds for some X (! [X,Y] : F binds two variables at once). ~ and the quantifiers apply to the formula right after them; a binary connective with its two operands is wrapped in parentheses.";

/// The prompt of an `equivalence_fol` row.
pub fn equivalence_prompt(vocabulary: &[first_order::Symbol], left: &str, right: &str) -> String {
    format!(
        "Two first-order formulas are given.\n\n{FOL_SYNTAX}\n\n{}\nFormula A:\n{left}\n\nFormula B:\n{right}\n\nQuestion: are A and B logically equivalent, that is, true in exactly the same interpretations (every non-empty domain, every meaning of the predicates and constants)?\nAnswer with exactly one word: True or False.\n",
        first_order::vocabulary_lines(vocabulary)
    )
}

/// The prompt of a `roundtrip_fol` row: restate `formula` in `target`.
pub fn roundtrip_prompt(
    vocabulary: &[first_order::Symbol],
    formula: &str,
    target: Target,
) -> String {
    format!(
        "Restate a first-order formula in a required form.\n\n{FOL_SYNTAX}\n\n{}\nFormula:\n{formula}\n\nRequired form: {}. The constants $true and $false are not used.\n\nTask: write one closed formula in the same syntax that is logically equivalent to the formula above (true in exactly the same interpretations), uses only the predicates and constants of the vocabulary, and is in the required form. The formula above is not in that form, so neither it nor any formula containing it is accepted.\nAnswer with the formula alone, on one line.\n",
        first_order::vocabulary_lines(vocabulary),
        target.fol_description()
    )
}

struct Drawn {
    vocabulary: Vec<Symbol>,
    kind: VocabKind,
    formula: Fol,
}

fn draw(rng: &mut ChaCha8Rng, level: &first_order::Level, index: u64) -> Option<Drawn> {
    let kind = if (index / 2) % 2 == 0 {
        VocabKind::Abstract
    } else {
        VocabKind::Natural
    };
    let vocabulary = first_order::vocabulary(rng, kind, level);
    let formula = first_order::random_formula(rng, &vocabulary, level);
    (!fol::degenerate(&formula) && fol::contingent(rng, &formula)).then_some(Drawn {
        vocabulary,
        kind,
        formula,
    })
}

fn common_meta(d: &Drawn, level: u8) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("generator".into(), json!(super::VERSION));
    m.insert("logic".into(), json!("fol"));
    m.insert("level".into(), json!(level));
    m.insert("form".into(), json!("first_order"));
    m.insert("vocabulary".into(), json!(d.vocabulary));
    m.insert("vocabularyKind".into(), json!(d.kind));
    m
}

/// Builds one first-order instance of `task` at `level` from `rng`:
/// `Ok(None)` when no attempt gave one, `Err` when the prover contradicts
/// the construction (a bug).
pub fn build(
    rng: &mut ChaCha8Rng,
    task: Task,
    level: u8,
    index: u64,
) -> Result<Option<Built>, String> {
    let lv =
        first_order::Level::of(level).ok_or_else(|| format!("no equivalence level {level}"))?;
    for _ in 0..ATTEMPTS {
        let Some(d) = draw(rng, &lv, index) else {
            continue;
        };
        let built = match task {
            Task::EquivalenceFol => build_equivalence(rng, &d, &lv, level, index % 2 == 0)?,
            _ => build_roundtrip(rng, &d, level)?,
        };
        if built.is_some() {
            return Ok(built);
        }
    }
    Ok(None)
}

fn build_equivalence(
    rng: &mut ChaCha8Rng,
    d: &Drawn,
    lv: &first_order::Level,
    level: u8,
    equivalent: bool,
) -> Result<Option<Built>, String> {
    // The rows 2p and 2p+1 are twins (super::twin_index): both draw the
    // rewriting, the mutation and the side in this order from one stream,
    // and each is kept only when the other's label is decided as built too,
    // so a cell holds both twins or neither.
    let Some((rewrites, g)) = fol::rewrite(rng, &d.formula, lv.rewrites + 1) else {
        return Ok(None);
    };
    let Some((name, m)) = fol::mutate(rng, &g) else {
        return Ok(None);
    };
    if g == d.formula {
        return Ok(None);
    }
    let drawn_first = rng.random_bool(0.5);
    let shown = |other: &Fol| {
        if drawn_first {
            (d.formula.clone(), other.clone())
        } else {
            (other.clone(), d.formula.clone())
        }
    };
    let (right, mutation, twin) = if equivalent {
        (g, None, &m)
    } else {
        (m, Some(name), &g)
    };
    // The twin's own build reports a decision that contradicts its
    // construction (or a check that failed); here either only withholds
    // this row.
    let (twin_left, twin_right) = shown(twin);
    match (equivalence::decide(&twin_left, &twin_right), equivalent) {
        (Ok(Decision::Different { .. }), true) | (Ok(Decision::Equivalent(_)), false) => {}
        _ => return Ok(None),
    }
    let (left, right) = shown(&right);
    let (left_text, right_text) = (left.to_string(), right.to_string());
    let (decision, effort) = equivalence::decide_measured(&left, &right)?;
    let certificate = match (decision, equivalent) {
        (Decision::Unknown, _) => return Ok(None),
        (Decision::Equivalent(work), true) => json!({
            "equivalent": true,
            "method": "prover: left |= right and right |= left, each refutation and clausification re-checked by the independent checker",
            "processed": {"leftToRight": work[0], "rightToLeft": work[1]},
        }),
        (Decision::Different { model, left_value }, false) => json!({
            "equivalent": false,
            "method": if left_value {
                "prover: a finite model of left & ~right"
            } else {
                "prover: a finite model of right & ~left"
            },
            "countermodel": model,
            "left": left_value,
            "right": !left_value,
        }),
        (Decision::Equivalent(_), false) => {
            return Err(format!(
                "{left_text} vs {right_text}: random interpretations separate them but the prover proves both directions"
            ));
        }
        (Decision::Different { model, .. }, true) => {
            return Err(format!(
                "{left_text} vs {right_text}: built by sound rewrites but the prover finds the countermodel {}",
                fol::show_model(&model)
            ));
        }
    };
    let pair = super::Pair {
        left: &left_text,
        right: &right_text,
        drawn_first,
        rewrites: &rewrites,
        mutation,
        equivalent,
    };
    let mut built = pair.built(
        common_meta(d, level),
        equivalence_prompt(&d.vocabulary, &left_text, &right_text),
        &certificate,
        ("FOL", "first_order".into()),
        vec![
            ("symbols", d.vocabulary.len() as f64),
            ("left_size", left.size() as f64),
            ("right_size", right.size() as f64),
        ],
    );
    built.difficulty = difficulty(d, rewrites.len(), [&left, &right], effort);
    Ok(Some(built))
}

/// The difficulty features of a first-order row (the same names in both
/// configs, in this order): the vocabulary's predicates and constants, the
/// quantifiers of the drawn formula, the deepest quantifier nesting of the
/// two formulas shown or compared, the rewrite steps between them, the
/// size (nodes) of each, and the prover's work on the certifying decision
/// (given clauses, model-finder SAT conflicts).
fn difficulty(
    d: &Drawn,
    rewrites: usize,
    [a, b]: [&Fol; 2],
    effort: equivalence::Effort,
) -> Vec<(&'static str, f64)> {
    let predicates = d.vocabulary.iter().filter(|s| s.arity > 0).count();
    vec![
        ("predicates", predicates as f64),
        ("constants", (d.vocabulary.len() - predicates) as f64),
        ("quantifiers", d.formula.quantifiers() as f64),
        (
            "quantifier_depth",
            a.quantifier_depth().max(b.quantifier_depth()) as f64,
        ),
        ("rewrites", rewrites as f64),
        ("size_a", a.size() as f64),
        ("size_b", b.size() as f64),
        ("prover_given_clauses", effort.given_clauses as f64),
        ("prover_sat_conflicts", effort.sat_conflicts as f64),
    ]
}

fn build_roundtrip(rng: &mut ChaCha8Rng, d: &Drawn, level: u8) -> Result<Option<Built>, String> {
    let shown = d.formula.to_string();
    // The targets the drawn formula is not in and whose conversion stays
    // within forms::MAX_GOLD_GROWTH of its length; one drawn at random.
    let mut options = Vec::new();
    for t in forms::FOL_TARGETS {
        if fol_forms::violation(t, &d.formula).is_none() {
            continue;
        }
        if let Some((g, steps)) = fol_forms::convert(t, &d.formula)
            && g.to_string().len() <= forms::MAX_GOLD_GROWTH * shown.len()
        {
            options.push((t, g, steps));
        }
    }
    if options.is_empty() {
        return Ok(None);
    }
    let (target, gold, rewrites) = options.swap_remove(rng.random_range(0..options.len()));
    let gold_text = gold.to_string();
    let mut meta = common_meta(d, level);
    meta.insert("formula".into(), json!(shown));
    meta.insert("target".into(), json!(target));
    meta.insert("rewrites".into(), json!(rewrites));
    let metadata = Value::Object(meta);
    // The gold is scored on the text the row will hold, as a model's
    // answer is.
    let text = metadata.to_string();
    // The gold answer must pass the scorer (form and equivalence), or the
    // row is dropped (the prover left it undecided) or is a bug.
    let (s, effort) = score_roundtrip_measured(&text, &gold_text);
    let work = match s.verdict {
        Verdict::Ok => s.detail.clone(),
        Verdict::Timeout => return Ok(None),
        _ => {
            return Err(format!(
                "gold restatement {gold_text} of {shown} scores {}: {}",
                s.verdict, s.detail
            ));
        }
    };
    Ok(Some(Built {
        prompt: roundtrip_prompt(&d.vocabulary, &shown, target),
        answer: gold_text,
        metadata: metadata.into(),
        certificate: json!({
            "goldEquivalent": true,
            "goldInForm": target,
            "method": "prover: formula |= gold and gold |= formula, each refutation and clausification re-checked by the independent checker",
            "scored": work,
        })
        .to_string(),
        key: shown,
        group: None,
        label: "first_order".into(),
        domain: Some("FOL".into()),
        source: Some("first_order".into()),
        difficulty: difficulty(d, rewrites.len(), [&d.formula, &gold], effort),
        stats: vec![
            ("symbols", d.vocabulary.len() as f64),
            ("size", d.formula.size() as f64),
        ],
    }))
}

/// The metadata's vocabulary.
fn vocabulary_of(meta: &Value) -> Result<Vec<Symbol>, String> {
    serde_json::from_value(meta["vocabulary"].clone())
        .map_err(|e| format!("metadata `vocabulary`: {e}"))
}

/// First-order logic for the equivalence tasks: closed TPTP FOF formulas
/// ([`crate::fol`]), predicates and constants with arities as the
/// vocabulary, equivalence decided by the prover in both directions.
pub struct Fo;

impl Logic for Fo {
    type Formula = Fol;
    type Symbol = Symbol;
    type Effort = equivalence::Effort;
    const ANSWER_LANGUAGE: &'static str = "a TPTP FOF formula";

    fn parse_stored(text: &str) -> Result<Fol, String> {
        fol::parse(text)
    }
    fn parse_answer(text: &str) -> Result<Fol, String> {
        fol::parse(text)
    }
    fn vocabulary_of(meta: &Value) -> Result<Vec<Symbol>, String> {
        vocabulary_of(meta)
    }
    fn outside(f: &Fol, vocabulary: &[Symbol]) -> Option<String> {
        let outside = first_order::outside(f, vocabulary);
        (!outside.is_empty())
            .then(|| format!("symbols outside the vocabulary: {}", outside.join(", ")))
    }
    fn violation(target: Target, f: &Fol) -> Option<String> {
        fol_forms::violation(target, f)
    }
    fn judge(original: &Fol, f: &Fol) -> (Score, equivalence::Effort) {
        judge(original, f)
    }
    fn equivalence_prompt(vocabulary: &[Symbol], left: &str, right: &str) -> String {
        equivalence_prompt(vocabulary, left, right)
    }
    fn roundtrip_prompt(vocabulary: &[Symbol], formula: &str, target: Target) -> String {
        roundtrip_prompt(vocabulary, formula, target)
    }
}

/// Scores a `roundtrip_fol` answer against the row's metadata (see the
/// module notes for the verdicts). The detail of an `ok` names the work of
/// both proofs.
pub fn score_roundtrip(metadata: &str, answer: &str) -> Score {
    score_roundtrip_measured(metadata, answer).0
}

/// [`score_roundtrip`] with the prover's work (none when the answer was
/// settled before the prover ran).
fn score_roundtrip_measured(metadata: &str, answer: &str) -> (Score, equivalence::Effort) {
    logic::score_roundtrip::<Fo>(metadata, answer)
}

/// Whether an answer `f` that passed the syntactic checks is equivalent
/// to `original`: too deep to check (`timeout`), separated by random
/// interpretations, or decided by the prover in both directions.
fn judge(original: &Fol, f: &Fol) -> (Score, equivalence::Effort) {
    let none = equivalence::Effort::default();
    // Evaluating in a model of size n costs about n^depth: an answer that
    // nests quantifiers far beyond the shown formula's is not checked.
    let depth_limit = (original.quantifier_depth() + MAX_EXTRA_DEPTH).min(MAX_ANSWER_DEPTH);
    if f.quantifier_depth() > depth_limit {
        let s = Score::timeout(format!(
            "the answer nests {} quantifiers; answers nesting more than {depth_limit} are not checked",
            f.quantifier_depth()
        ));
        return (s, none);
    }
    let not_equivalent = |m: &fol::Model| {
        Score::wrong(format!(
            "not equivalent: in the interpretation {} the formula is {} and the answer {}",
            fol::show_model(m),
            fol::eval(original, m),
            fol::eval(f, m)
        ))
    };
    // Cheap first: random interpretations (seeded, so scores repeat).
    let mut rng = instance_rng(0, &["roundtrip_fol", "score"], 0);
    if let Some(m) = fol::separate(&mut rng, original, f) {
        return (not_equivalent(&m), none);
    }
    let (decision, effort) = match equivalence::decide_measured(original, f) {
        Ok((d, effort)) => (Ok(d), effort),
        Err(e) => (Err(e), none),
    };
    let s = match decision {
        Ok(Decision::Equivalent(work)) => Score {
            detail: format!(
                "equivalent: both directions proved ({} and {} given clauses)",
                work[0], work[1]
            ),
            ..Score::correct()
        },
        Ok(Decision::Different { model, .. }) => not_equivalent(&model),
        Ok(Decision::Unknown) => Score::timeout(format!(
            "the prover decided neither direction within {} given clauses and models up to size {}",
            equivalence::limits().max_processed,
            equivalence::limits().max_model_size
        )),
        Err(e) => Score::timeout(format!("the check failed: {e}")),
    };
    (s, effort)
}

/// Re-checks a stored first-order row: a True label by proving both
/// directions again, a False label by evaluating both formulas in the
/// stored countermodel, a roundtrip gold answer through the scorer.
pub fn verify(task: Task, metadata: &str, certificate: &str, gold: &str) -> Result<String, String> {
    let meta: Value = serde_json::from_str(metadata).map_err(|e| format!("metadata: {e}"))?;
    let cert: Value = serde_json::from_str(certificate).map_err(|e| format!("certificate: {e}"))?;
    if task == Task::RoundtripFol {
        let s = score_roundtrip(metadata, gold);
        return if s.verdict == Verdict::Ok {
            Ok(format!("gold restatement {}", s.detail))
        } else {
            Err(format!("gold answer scores {}: {}", s.verdict, s.detail))
        };
    }
    let (l, r) = (stored::<Fo>(&meta, "left")?, stored::<Fo>(&meta, "right")?);
    match gold.trim() {
        "True" => match equivalence::decide(&l, &r)? {
            Decision::Equivalent(w) => Ok(format!(
                "equivalent (both directions proved again: {} and {} given clauses)",
                w[0], w[1]
            )),
            Decision::Different { model, .. } => Err(format!(
                "labelled True but the interpretation {} separates the formulas",
                fol::show_model(&model)
            )),
            Decision::Unknown => Err("labelled True but the proofs were not found again".into()),
        },
        "False" => {
            let m: fol::Model = serde_json::from_value(cert["countermodel"].clone())
                .map_err(|e| format!("certificate countermodel: {e}"))?;
            if fol::eval(&l, &m) == fol::eval(&r, &m) {
                return Err(format!(
                    "labelled False but the countermodel {} gives both formulas the same value",
                    fol::show_model(&m)
                ));
            }
            Ok(format!(
                "not equivalent (countermodel {} evaluated)",
                fol::show_model(&m)
            ))
        }
        other => Err(format!("gold label {other:?} is not True or False")),
    }
}
