//! Truth maintenance and equivalence tasks after AutoEval (seed 002): is a
//! pair of formulas logically equivalent (`equivalence_pl`), and restate a
//! formula in a different but equivalent form over a given vocabulary
//! (`roundtrip_pl`, the formal half of AutoEval's informalise-then-formalise
//! round trip, scored by deciding equivalence with the original).
//!
//! Data flow of one instance: `instance_rng(seed, ["equiv", config,
//! level], twin_index(index))` → vocabulary (abstract or natural, by index)
//! and grammar (3-CNF or general, by index) → a contingent formula of the
//! level's size ([`pl::random_formula`]) → sound rewrites ([`rewrite::rewrite`])
//! → for an equivalence pair one minimal mutation of the rewritten form
//! ([`rewrite::mutate`]) and the side the drawn formula is shown on → the row
//! of the index's label (True: drawn vs rewritten; False: drawn vs
//! mutated) decided by SAT ([`equivalence::decide`]), re-checked by a truth table
//! ([`equivalence::recheck_equivalent`]) or, for False, by evaluating the
//! counterexample → prompt, gold answer, metadata, certificate. Labels
//! alternate by index parity (50/50), and rows 2p and 2p+1 are twins built
//! from one stream ([`twin_index`]): the same drawn formula, rewriting and
//! side, the False row adding the mutation, which keeps the size (one
//! operator, one argument or atom swap) or adds or removes one negation.
//! So every drawn formula comes with both labels, and what tells them
//! apart is the mutation alone (the shortcut audit).
//!
//! Roundtrip (restatement) rows (issue 49): the row draws a target form
//! ([`forms::Target`]) among those the drawn formula is not in and whose
//! converted gold stays within [`forms::MAX_GOLD_GROWTH`] times the
//! formula's length; the prompt names it. Scoring (documented in the
//! prompt): the answer is parsed in the PL language (a complex formula
//! without outer parentheses is read as if it had them); unparsable is
//! `malformed`; an atom outside the given vocabulary is `cheating`, and so
//! is the shown formula itself (the same formula tree: spacing and
//! redundant parentheses do not make it different); an answer not in the
//! target form is `wrong`, the detail naming the rule broken and the
//! offending subformula ([`forms::pl_violation`]); otherwise `ok` when
//! equivalent and `wrong` with a separating assignment when not. Every
//! form is closed under subformulas and the shown formula is not in its
//! form, so no formula containing it (a wrapper such as `~~F`, `F & F`,
//! `F & true`) passes. A PL check never runs out of budget, so no PL
//! answer is a `timeout`.

pub mod audit;
pub mod exploits;
pub mod family;
pub mod first_order;
pub mod fol_task;
pub mod forms;
pub mod logic;
pub mod pl;

use crate::prop::formula::{Formula, compact};
use crate::prop::{equivalence, rewrite};
use crate::tasks::family::Built;
use crate::tasks::{Score, instance_rng};
use forms::{Target, Wording};
use logic::{Logic, stored};
use pl::{Form, Level, VocabKind};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// The generator version in every row's metadata and the manifest; bumped
/// when a config and seed give other bytes.
pub const VERSION: &str = "equiv-6";

/// A formula's text with its atoms (names that start with an upper-case
/// letter) renamed `A0`, `A1`, ... by first occurrence: the deduplication
/// key of the PL tasks, so that two rows whose formulas differ only in the
/// names of their atoms (`(~W | P | S)` and `(~Q | P | U)`) count as one
/// problem and never sit on both sides of a split.
fn atoms_renamed(text: &str) -> String {
    crate::dataset::names::rename_capitalised(text, 'A', &mut std::collections::HashMap::new())
}

/// Attempts per candidate index before it is given up.
const ATTEMPTS: usize = 40;

/// The equivalence tasks (one config each).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Task {
    /// Are two propositional formulas equivalent? True / False.
    EquivalencePl,
    /// Restate a propositional formula in a different, equivalent form.
    RoundtripPl,
    /// Are two first-order formulas equivalent? True / False.
    EquivalenceFol,
    /// Restate a first-order formula in a different, equivalent form.
    RoundtripFol,
}

impl Task {
    /// Every task, in output order.
    pub const ALL: [Task; 4] = [
        Task::EquivalencePl,
        Task::RoundtripPl,
        Task::EquivalenceFol,
        Task::RoundtripFol,
    ];

    /// The dataset config name (the rows' `task`).
    pub fn config(self) -> &'static str {
        match self {
            Task::EquivalencePl => "equivalence_pl",
            Task::RoundtripPl => "roundtrip_pl",
            Task::EquivalenceFol => "equivalence_fol",
            Task::RoundtripFol => "roundtrip_fol",
        }
    }

    /// Whether the task is first-order (else propositional).
    pub fn first_order(self) -> bool {
        matches!(self, Task::EquivalenceFol | Task::RoundtripFol)
    }

    /// Whether the answer is a True/False label (else a formula).
    pub fn is_judgement(self) -> bool {
        matches!(self, Task::EquivalencePl | Task::EquivalenceFol)
    }

    /// The task of a config name.
    pub fn from_config(name: &str) -> Option<Task> {
        Task::ALL.into_iter().find(|t| t.config() == name)
    }

    /// The card paragraph.
    pub fn description(self) -> &'static str {
        match self {
            Task::EquivalencePl => {
                "Two propositional formulas over one vocabulary: are they logically equivalent? Answer True or False. Equivalent pairs are sound rewritings (De Morgan, distribution, contraposition, double negation, reordering); non-equivalent ones differ from such a rewriting by one operator, one negation or one swapped argument. Rows come in twins sharing their split: each drawn formula is shown once with its rewriting (True) and once with that rewriting mutated (False), on the same side. Labels decided by SAT on ~(left <=> right), the counterexample assignment of a False label re-checked by evaluation, a True label by a truth table."
            }
            Task::RoundtripPl => {
                "A propositional formula, its vocabulary and a required form drawn per row among those the formula is not in (negation normal form, CNF, DNF, only ~ and &, only ~ and |, only ~ and ==>): write an equivalent formula in that form using only that vocabulary. Scored by a syntactic check of the form (every form is closed under subformulas, so no formula containing the shown one, such as ~~F or F & F, is in it) and SAT equivalence with the original (a separating assignment reported when not equivalent); symbols outside the vocabulary or a verbatim copy are graded cheating. Gold answers are converted by the standard laws and at most 3 times as long as the formula."
            }
            Task::EquivalenceFol => {
                "Two closed first-order formulas (TPTP FOF syntax) over one vocabulary of unary and binary predicates and constants: are they logically equivalent? Answer True or False. Equivalent pairs are sound rewritings (the propositional ones plus quantifier duality, distribution, miniscoping and prenexing, swapped like quantifiers, renamed bound variables); non-equivalent ones differ from such a rewriting by one operator, one quantifier, one scope, one argument (swapped, or a variable for another) or one negation. Rows come in twins sharing their split: each drawn formula is shown once with its rewriting (True) and once with that rewriting mutated (False), on the same side. True labels: the built-in prover proves both directions (refutations and clausification re-checked by the independent checker); False labels: a finite countermodel from the prover, re-checked by evaluating both formulas in it."
            }
            Task::RoundtripFol => {
                "A closed first-order formula (TPTP FOF syntax), its vocabulary and a required form drawn per row among those the formula is not in (negation normal form, prenex form, only ~ & and ?, only ~ | and !): write an equivalent formula in that form using only that vocabulary. Scored by a syntactic check of the form (every form is closed under subformulas, so no formula containing the shown one is in it) and the built-in prover in both directions (a finite countermodel reported when not equivalent, `timeout` when neither is found within the work limits); symbols outside the vocabulary or a copy of the formula are graded cheating. Gold answers are converted by the standard laws and at most 3 times as long as the formula."
            }
        }
    }
}

/// The syntax paragraph of every PL prompt.
const PL_SYNTAX: &str = "Syntax: atoms are the names listed under Vocabulary; ~ is not, & is and, | is or, ==> is implies, <==> is if and only if; true and false are the constants. ~ binds tightest, then &, then |, then ==>, then <==>; binary connectives group to the right, and a formula with a connective at the top is wrapped in parentheses.";

/// The vocabulary block of a prompt: one line per atom, with its gloss
/// when it has one.
fn vocabulary_block(vocabulary: &[String]) -> String {
    let mut s = String::from("Vocabulary:\n");
    for a in vocabulary {
        match pl::gloss(a) {
            Some(g) => s.push_str(&format!("- {a}: {g}\n")),
            None => s.push_str(&format!("- {a}\n")),
        }
    }
    s
}

/// The prompt of an `equivalence_pl` row.
pub fn equivalence_prompt(vocabulary: &[String], left: &str, right: &str) -> String {
    format!(
        "Two propositional formulas are given.\n\n{PL_SYNTAX}\n\n{}\nFormula A:\n{left}\n\nFormula B:\n{right}\n\nQuestion: are A and B logically equivalent, that is, true under exactly the same assignments of truth values to the atoms?\nAnswer with exactly one word: True or False.\n",
        vocabulary_block(vocabulary)
    )
}

/// The prompt of a `roundtrip_pl` row: restate `formula` in `target`.
pub fn roundtrip_prompt(vocabulary: &[String], formula: &str, target: Target) -> String {
    format!(
        "Restate a propositional formula in a required form.\n\n{PL_SYNTAX}\n\n{}\nFormula:\n{formula}\n\nRequired form: {}. The constants true and false are not used.\n\nTask: write one formula that is logically equivalent to the formula above (true under exactly the same assignments of truth values to the atoms), uses only the atoms of the vocabulary, and is in the required form. The formula above is not in that form, so neither it nor any formula containing it is accepted.\nAnswer with the formula alone, on one line.\n",
        vocabulary_block(vocabulary),
        target.description()
    )
}

/// What every row's metadata shares: the vocabulary and how the formula
/// was drawn.
struct Drawn {
    vocabulary: Vec<String>,
    kind: VocabKind,
    form: Form,
    formula: Formula,
}

fn draw(rng: &mut ChaCha8Rng, level: &Level, index: u64) -> Option<Drawn> {
    let kind = if (index / 2) % 2 == 0 {
        VocabKind::Abstract
    } else {
        VocabKind::Natural
    };
    let form = if (index / 4) % 2 == 0 {
        Form::General
    } else {
        Form::Cnf3
    };
    let vocabulary = pl::vocabulary(rng, kind, level.atoms);
    let formula = pl::random_formula(rng, form, &vocabulary, level);
    (formula.atoms().len() == vocabulary.len() && pl::contingent(&formula)).then_some(Drawn {
        vocabulary,
        kind,
        form,
        formula,
    })
}

fn common_meta(d: &Drawn, level: u8) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("generator".into(), json!(VERSION));
    m.insert("logic".into(), json!("pl"));
    m.insert("level".into(), json!(level));
    m.insert("form".into(), json!(d.form));
    m.insert("vocabulary".into(), json!(d.vocabulary));
    m.insert("vocabularyKind".into(), json!(d.kind));
    m
}

/// Builds the instance at `index` of (`task`, `level`) for run seed
/// `seed`: `Ok(None)` when no attempt gave one, `Err` when a label failed
/// its own re-check (a bug).
pub fn build(task: Task, level: u8, seed: u64, index: u64) -> Result<Option<Built>, String> {
    let lv = Level::of(level).ok_or_else(|| format!("no equivalence level {level}"))?;
    // Equivalence rows come in twins: rows 2p (True) and 2p+1 (False) are
    // built from one random stream, so they share the drawn formula, its
    // rewriting and the side it is shown on ([`twin_index`]).
    let mut rng = instance_rng(
        seed,
        &["equiv", task.config(), &level.to_string()],
        twin_index(task, index),
    );
    if task.first_order() {
        return fol_task::build(&mut rng, task, level, index);
    }
    for _ in 0..ATTEMPTS {
        let Some(d) = draw(&mut rng, &lv, index) else {
            continue;
        };
        let built = match task {
            Task::EquivalencePl => build_equivalence(&mut rng, &d, &lv, level, index % 2 == 0)?,
            _ => build_roundtrip(&mut rng, &d, level)?,
        };
        if built.is_some() {
            return Ok(built);
        }
    }
    Ok(None)
}

/// The index of the random stream a row is built from: for an
/// equivalence config the twin pair's (`index / 2`: the True row `2p` and
/// the False row `2p + 1` share the drawn formula, its rewriting and the
/// side it is shown on, and differ only by the False row's mutation), for
/// a roundtrip config the row's own.
///
/// Why twins (issue 49): a reader that learns which formulas, tokens or
/// shapes happen to come with which label in a sample finds nothing when
/// every formula comes with both; what is left to read is the mutation,
/// that is the task. The twins share their audit and split group (the
/// drawn formula: [`family`]'s `split_group`), so no fold or split
/// separates them.
pub fn twin_index(task: Task, index: u64) -> u64 {
    if task.is_judgement() {
        index / 2
    } else {
        index
    }
}

fn build_equivalence(
    rng: &mut ChaCha8Rng,
    d: &Drawn,
    lv: &Level,
    level: u8,
    equivalent: bool,
) -> Result<Option<Built>, String> {
    // Both twins draw the rewriting, the mutation and the side in this
    // order and keep the pair only when both rows can be built, so they
    // stay twins.
    let Some((rewrites, g)) = rewrite::rewrite(rng, &d.formula, lv.rewrites + 1) else {
        return Ok(None);
    };
    let Some((name, m)) = rewrite::mutate(rng, &g) else {
        return Ok(None);
    };
    if compact(&d.formula) == compact(&g) {
        return Ok(None);
    }
    let (right, mutation) = if equivalent {
        (g, None)
    } else {
        (m, Some(name))
    };
    // The drawn formula is shown first or second at random, so no side is
    // always the rewritten one.
    let drawn_first = rng.random_bool(0.5);
    let (left, right) = if drawn_first {
        (d.formula.clone(), right)
    } else {
        (right, d.formula.clone())
    };
    let (left_text, right_text) = (compact(&left), compact(&right));
    let decided = equivalence::decide(&left, &right);
    if decided.is_ok() != equivalent {
        return Err(format!(
            "{left_text} vs {right_text}: built as {} but SAT says otherwise",
            if equivalent {
                "equivalent"
            } else {
                "different"
            }
        ));
    }
    let certificate = match &decided {
        Ok(()) => {
            let how = equivalence::recheck_equivalent(&left, &right).map_err(|a| {
                format!(
                    "{left_text} vs {right_text}: SAT unsat but the re-check separates them at {}",
                    equivalence::show_assignment(&a)
                )
            })?;
            json!({"equivalent": true, "method": "sat: ~(left <=> right) unsatisfiable", "recheck": how})
        }
        Err(cex) => json!({
            "equivalent": false,
            "method": "sat: ~(left <=> right) satisfiable",
            "counterexample": cex,
            "left": equivalence::eval(&left, cex),
            "right": equivalence::eval(&right, cex),
        }),
    };
    let pair = Pair {
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
        ("PL", format!("{:?}", d.form).to_lowercase()),
        vec![
            ("atoms", d.vocabulary.len() as f64),
            ("left_connectives", left.size() as f64),
            ("right_connectives", right.size() as f64),
        ],
    );
    built.difficulty = difficulty(d, rewrites.len(), [&left, &right]);
    Ok(Some(built))
}

/// The difficulty features of a propositional row (the same names in both
/// configs, in this order): the atoms, the rewrite steps between the two
/// formulas shown or compared, the connectives (negations included) of
/// each, the deeper nesting of the two, and the SAT conflicts of deciding
/// their equivalence ([`equivalence::decision_conflicts`]).
fn difficulty(d: &Drawn, rewrites: usize, [a, b]: [&Formula; 2]) -> Vec<(&'static str, f64)> {
    vec![
        ("atoms", d.vocabulary.len() as f64),
        ("rewrites", rewrites as f64),
        ("connectives_a", a.size() as f64),
        ("connectives_b", b.size() as f64),
        ("depth", a.depth().max(b.depth()) as f64),
        (
            "sat_conflicts",
            equivalence::decision_conflicts(a, b) as f64,
        ),
    ]
}

/// What the row of an equivalence pair holds beyond its logic: the two
/// shown formulas, which one was drawn, the rewrite steps, the mutation
/// of a False pair and the label. Shared by both logics.
pub(crate) struct Pair<'a> {
    /// The formula shown as A.
    pub left: &'a str,
    /// The formula shown as B.
    pub right: &'a str,
    /// Whether A is the drawn formula (else B is).
    pub drawn_first: bool,
    /// The sound rewrite steps between the drawn formula and the other.
    pub rewrites: &'a [&'static str],
    /// The mutation of a False pair.
    pub mutation: Option<&'static str>,
    /// The label.
    pub equivalent: bool,
}

impl Pair<'_> {
    /// The row: `meta` (the logic's common fields) completed with the
    /// pair's, the label as answer, `domain_source` as the row's domain and
    /// source.
    pub(crate) fn built(
        &self,
        mut meta: serde_json::Map<String, Value>,
        prompt: String,
        certificate: &Value,
        domain_source: (&str, String),
        stats: Vec<(&'static str, f64)>,
    ) -> Built {
        meta.insert("left".into(), json!(self.left));
        meta.insert("right".into(), json!(self.right));
        meta.insert(
            "drawn".into(),
            json!(if self.drawn_first { "left" } else { "right" }),
        );
        meta.insert("rewrites".into(), json!(self.rewrites));
        meta.insert("mutation".into(), json!(self.mutation));
        let label = if self.equivalent { "True" } else { "False" };
        Built {
            prompt,
            answer: label.into(),
            metadata: meta.into(),
            certificate: certificate.to_string(),
            key: atoms_renamed(&format!("{}|{}", self.left, self.right)),
            group: None,
            label: label.into(),
            domain: Some(domain_source.0.into()),
            source: Some(domain_source.1),
            difficulty: Vec::new(),
            stats,
        }
    }
}

fn build_roundtrip(rng: &mut ChaCha8Rng, d: &Drawn, level: u8) -> Result<Option<Built>, String> {
    let shown = compact(&d.formula);
    // The targets the drawn formula is not in and whose conversion stays
    // within forms::MAX_GOLD_GROWTH of its length; one drawn at random.
    let mut options = Vec::new();
    for t in forms::PL_TARGETS {
        if forms::pl_violation(t, &d.formula).is_none() {
            continue;
        }
        if let Some((g, steps)) = forms::pl_convert(t, &d.formula)
            && compact(&g).len() <= forms::MAX_GOLD_GROWTH * shown.len()
        {
            options.push((t, g, steps));
        }
    }
    if options.is_empty() {
        return Ok(None);
    }
    let (target, gold, rewrites) = options.swap_remove(rng.random_range(0..options.len()));
    let gold_text = compact(&gold);
    let mut meta = common_meta(d, level);
    meta.insert("formula".into(), json!(shown));
    meta.insert("target".into(), json!(target));
    meta.insert("rewrites".into(), json!(rewrites));
    let metadata = Value::Object(meta);
    // The gold is scored on the text the row will hold, as a model's
    // answer is.
    let text = metadata.to_string();
    // The gold answer must pass the scorer (form and equivalence), or the
    // row is a bug.
    let s = score_roundtrip(&text, &gold_text);
    if s.verdict != crate::tasks::Verdict::Ok {
        return Err(format!(
            "gold restatement {gold_text} of {shown} scores {}: {}",
            s.verdict, s.detail
        ));
    }
    let how = equivalence::recheck_equivalent(&d.formula, &gold).map_err(|a| {
        format!(
            "gold {gold_text} differs from {shown} at {}",
            equivalence::show_assignment(&a)
        )
    })?;
    Ok(Some(Built {
        prompt: roundtrip_prompt(&d.vocabulary, &shown, target),
        answer: gold_text,
        metadata: metadata.into(),
        certificate: json!({"goldEquivalent": true, "goldInForm": target, "method": "sat: ~(formula <=> gold) unsatisfiable", "recheck": how}).to_string(),
        key: atoms_renamed(&shown),
        group: None,
        label: format!("{:?}", d.form).to_lowercase(),
        domain: Some("PL".into()),
        source: Some(format!("{:?}", d.form).to_lowercase()),
        difficulty: difficulty(d, rewrites.len(), [&d.formula, &gold]),
        stats: vec![
            ("atoms", d.vocabulary.len() as f64),
            ("connectives", d.formula.size() as f64),
        ],
    }))
}

/// The metadata's vocabulary.
fn vocabulary_of(meta: &Value) -> Result<Vec<String>, String> {
    meta["vocabulary"]
        .as_array()
        .ok_or("metadata has no `vocabulary` list")?
        .iter()
        .map(|v| {
            v.as_str()
                .map(String::from)
                .ok_or_else(|| "a vocabulary entry is not a string".to_string())
        })
        .collect()
}

/// A model's formula: the PL language, also without the outer parentheses
/// of a complex formula.
pub fn parse_answer(answer: &str) -> Result<Formula, String> {
    let a = answer.trim();
    Formula::parse(a).or_else(|e| Formula::parse(&format!("({a})")).map_err(|_| e))
}

/// Propositional logic for the equivalence tasks: formulas in the PL
/// language, atoms as the vocabulary, equivalence decided by SAT.
pub struct Pl;

impl Logic for Pl {
    type Formula = Formula;
    type Symbol = String;
    type Effort = ();
    const ANSWER_LANGUAGE: &'static str = "a formula";

    fn parse_stored(text: &str) -> Result<Formula, String> {
        Formula::parse(text)
    }
    fn parse_answer(text: &str) -> Result<Formula, String> {
        parse_answer(text)
    }
    fn vocabulary_of(meta: &Value) -> Result<Vec<String>, String> {
        vocabulary_of(meta)
    }
    fn outside(f: &Formula, vocabulary: &[String]) -> Option<String> {
        let outside: Vec<String> = f
            .atoms()
            .into_iter()
            .filter(|a| !vocabulary.contains(a))
            .collect();
        (!outside.is_empty())
            .then(|| format!("atoms outside the vocabulary: {}", outside.join(", ")))
    }
    fn violation(target: Target, f: &Formula) -> Option<String> {
        forms::pl_violation(target, f)
    }
    fn judge(original: &Formula, f: &Formula) -> (Score, ()) {
        let s = match equivalence::decide(original, f) {
            Ok(()) => Score::correct(),
            Err(cex) => Score::wrong(format!(
                "not equivalent: at {} the formula is {} and the answer {}",
                equivalence::show_assignment(&cex),
                equivalence::eval(original, &cex),
                equivalence::eval(f, &cex)
            )),
        };
        (s, ())
    }
    fn equivalence_prompt(vocabulary: &[String], left: &str, right: &str) -> String {
        equivalence_prompt(vocabulary, left, right)
    }
    fn roundtrip_prompt(vocabulary: &[String], formula: &str, target: Target) -> String {
        roundtrip_prompt(vocabulary, formula, target)
    }
}

/// Scores a roundtrip answer against the row's metadata (see the module
/// notes for the verdicts).
pub fn score_roundtrip(metadata: &str, answer: &str) -> Score {
    logic::score_roundtrip::<Pl>(metadata, answer).0
}

/// Scores an answer to a row of `task`.
pub fn score(task: Task, metadata: &str, gold: &str, answer: &str) -> Score {
    match task {
        Task::EquivalencePl | Task::EquivalenceFol => {
            crate::tasks::tptp::entail::score(gold, answer)
        }
        Task::RoundtripPl => score_roundtrip(metadata, answer),
        Task::RoundtripFol => fol_task::score_roundtrip(metadata, answer),
    }
}

/// Re-checks a stored row from its own text: the label of an equivalence
/// row (a True label by a truth table or a second SAT call, a False label
/// by evaluating the stored counterexample), a roundtrip row's gold answer
/// (equivalent, in the vocabulary, not a copy). `Ok` says what was checked.
pub fn verify(task: Task, metadata: &str, certificate: &str, gold: &str) -> Result<String, String> {
    if task.first_order() {
        return fol_task::verify(task, metadata, certificate, gold);
    }
    let meta: Value = serde_json::from_str(metadata).map_err(|e| format!("metadata: {e}"))?;
    let cert: Value = serde_json::from_str(certificate).map_err(|e| format!("certificate: {e}"))?;
    match task {
        Task::EquivalencePl => {
            let (l, r) = (stored::<Pl>(&meta, "left")?, stored::<Pl>(&meta, "right")?);
            match gold.trim() {
                "True" => equivalence::recheck_equivalent(&l, &r)
                    .map(|how| format!("equivalent ({how})"))
                    .map_err(|a| {
                        format!(
                            "labelled True but {} separates the formulas",
                            equivalence::show_assignment(&a)
                        )
                    }),
                "False" => {
                    let cex: equivalence::Assignment =
                        serde_json::from_value(cert["counterexample"].clone())
                            .map_err(|e| format!("certificate counterexample: {e}"))?;
                    if equivalence::eval(&l, &cex) == equivalence::eval(&r, &cex) {
                        return Err(format!(
                            "labelled False but the counterexample {} gives both formulas the same value",
                            equivalence::show_assignment(&cex)
                        ));
                    }
                    Ok(format!(
                        "not equivalent (counterexample {} evaluated)",
                        equivalence::show_assignment(&cex)
                    ))
                }
                other => Err(format!("gold label {other:?} is not True or False")),
            }
        }
        _ => {
            let s = score_roundtrip(metadata, gold);
            if s.verdict != crate::tasks::Verdict::Ok {
                return Err(format!("gold answer scores {}: {}", s.verdict, s.detail));
            }
            let (f, g) = (stored::<Pl>(&meta, "formula")?, parse_answer(gold)?);
            equivalence::recheck_equivalent(&f, &g)
                .map(|how| format!("gold restatement equivalent ({how})"))
                .map_err(|a| format!("gold differs at {}", equivalence::show_assignment(&a)))
        }
    }
}

/// The prompt of a stored row, from its metadata.
pub fn render(task: Task, metadata: &str) -> Result<String, String> {
    if task.first_order() {
        logic::render::<fol_task::Fo>(task, metadata)
    } else {
        logic::render::<Pl>(task, metadata)
    }
}

#[cfg(test)]
mod tests;
