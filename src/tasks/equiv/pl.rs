//! Propositional formulas for the equivalence tasks (after AutoEval, seed
//! 002): formulas drawn from two grammars (3-CNF and general formulas) by
//! descriptive complexity, sound rewritings that keep a formula's meaning,
//! minimal mutations that change it, and the certified equivalence decision
//! (SAT on `~(left <=> right)`, a counterexample assignment when the two
//! differ, re-checked by evaluation; an equivalence re-checked by a truth
//! table up to [`TABLE_ATOMS`] atoms, else by a second SAT call).
//!
//! Level schedule: [`Level::of`] (atoms, binary connectives of a general
//! formula, clauses of a 3-CNF formula, sound rewrite steps), open-ended
//! with the atoms capped at [`MAX_ATOMS`] and nothing growing past
//! [`TOP_LEVEL`].

use crate::prop::formula::Formula;
use crate::prop::sat;
use crate::sat::{Batsat, SatSolver};
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most atoms for which an equivalence is re-checked by a truth table
/// (above it, by a second SAT call).
pub const TABLE_ATOMS: usize = 12;

/// The size parameters of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Level {
    /// Atoms of the vocabulary (every one occurs in the formula).
    pub atoms: usize,
    /// Binary connectives of a general formula.
    pub connectives: usize,
    /// Clauses of a 3-CNF formula.
    pub clauses: usize,
    /// Sound rewrite steps between the shown formula and its restatement.
    pub rewrites: usize,
}

/// Most atoms of a vocabulary: the abstract one has eight names, and
/// formulas stay within a truth table of 256 rows (the re-check of
/// [`recheck_equivalent`] and the reference script's table).
pub const MAX_ATOMS: usize = 8;

/// Level from which the schedule stops growing: every level above it has
/// its parameters (a general formula of 49 binary connectives, 24 rewrite
/// steps).
pub const TOP_LEVEL: u8 = 24;

impl Level {
    /// The parameters of level `l` (any level from 1, `None` for 0): at
    /// level `l`, `m = min(l, TOP_LEVEL)`, `min(m + 2, MAX_ATOMS)` atoms,
    /// `2m + 1` binary connectives, `m + 1` 3-CNF clauses and `m` rewrite
    /// steps (the equivalence pairs take one more). Levels 1-4 are as
    /// before the schedule was opened; from level 6 the atoms stay at 8
    /// while the formulas and rewritings keep growing.
    ///
    /// | level | atoms | connectives | 3-CNF clauses | rewrites |
    /// |---:|---:|---:|---:|---:|
    /// | 1 | 3 | 3 | 2 | 1 |
    /// | 2 | 4 | 5 | 3 | 2 |
    /// | 3 | 5 | 7 | 4 | 3 |
    /// | 4 | 6 | 9 | 5 | 4 |
    /// | 5 | 7 | 11 | 6 | 5 |
    /// | 6 | 8 | 13 | 7 | 6 |
    /// | 7 | 8 | 15 | 8 | 7 |
    /// | 8 | 8 | 17 | 9 | 8 |
    /// | 24 and above | 8 | 49 | 25 | 24 |
    pub fn of(l: u8) -> Option<Level> {
        let i = usize::from(l.min(TOP_LEVEL));
        (i >= 1).then(|| Level {
            atoms: (i + 2).min(MAX_ATOMS),
            connectives: 2 * i + 1,
            clauses: i + 1,
            rewrites: i,
        })
    }
}

/// Which grammar a formula comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// A conjunction of clauses of three literals over distinct atoms.
    Cnf3,
    /// A random tree of `~`, `&`, `|`, `==>`, `<==>` over the atoms.
    General,
}

/// Which vocabulary the atoms are named from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VocabKind {
    /// `P`, `Q`, `R`, ...
    Abstract,
    /// `Rain`, `Cold`, ... each with an English gloss.
    Natural,
}

/// The abstract atom names.
pub const ABSTRACT: [&str; 8] = ["P", "Q", "R", "S", "T", "U", "V", "W"];

/// The natural-language atoms and their glosses.
pub const NATURAL: [(&str, &str); 12] = [
    ("Rain", "it rains"),
    ("Cold", "it is cold"),
    ("Wind", "it is windy"),
    ("Snow", "it snows"),
    ("Late", "the train is late"),
    ("Home", "Alice is at home"),
    ("Busy", "Bob is busy"),
    ("Open", "the shop is open"),
    ("Tired", "Carol is tired"),
    ("Hungry", "the dog is hungry"),
    ("Alarm", "the alarm rings"),
    ("Asleep", "Dave is asleep"),
];

/// The gloss of a natural atom, `None` for an abstract one.
pub fn gloss(atom: &str) -> Option<&'static str> {
    NATURAL.iter().find(|(a, _)| *a == atom).map(|(_, g)| *g)
}

/// `n` atoms of the vocabulary `kind`, in the order of its list.
pub fn vocabulary(rng: &mut ChaCha8Rng, kind: VocabKind, n: usize) -> Vec<String> {
    let names: Vec<&str> = match kind {
        VocabKind::Abstract => ABSTRACT.to_vec(),
        VocabKind::Natural => NATURAL.iter().map(|(a, _)| *a).collect(),
    };
    let mut idx: Vec<usize> = (0..names.len()).collect();
    idx.shuffle(rng);
    let mut chosen: Vec<usize> = idx.into_iter().take(n.min(names.len())).collect();
    chosen.sort_unstable();
    chosen.into_iter().map(|i| names[i].to_string()).collect()
}

/// A formula of `form` over `atoms` with the sizes of `level`; every atom
/// occurs. Not checked for degeneracy (see [`contingent`]).
pub fn random_formula(
    rng: &mut ChaCha8Rng,
    form: Form,
    atoms: &[String],
    level: &Level,
) -> Formula {
    match form {
        Form::Cnf3 => {
            let mut clauses = Vec::new();
            for c in 0..level.clauses {
                let mut pick: Vec<&String> = atoms.iter().collect();
                pick.shuffle(rng);
                // The first clauses cover every atom once between them.
                let mut lits: Vec<&String> = pick.into_iter().take(3).collect();
                if c * 3 < atoms.len() {
                    let first = &atoms[(c * 3) % atoms.len()];
                    if !lits.contains(&first) {
                        lits[0] = first;
                    }
                }
                let lit = |a: &String, rng: &mut ChaCha8Rng| {
                    let at = Formula::atom(a);
                    if rng.random_bool(0.5) {
                        Formula::negation(at)
                    } else {
                        at
                    }
                };
                let l0 = lit(lits[0], rng);
                let l1 = lit(lits[1], rng);
                let l2 = lit(lits[2], rng);
                clauses.push(Formula::or(l0, Formula::or(l1, l2)));
            }
            let mut it = clauses.into_iter().rev();
            let last = it.next().expect("at least one clause");
            it.fold(last, |acc, c| Formula::and(c, acc))
        }
        Form::General => {
            let leaves = level.connectives + 1;
            let mut names: Vec<String> = atoms.to_vec();
            while names.len() < leaves {
                names.push(atoms[rng.random_range(0..atoms.len())].clone());
            }
            names.truncate(leaves.max(1));
            // Redrawn while a sub-formula repeats an operand under one
            // connective, such as `(U & U & V)` or `(U <==> U)`: idempotent
            // and trivially tautological pieces (issue 16 on PL1).
            let mut f = Formula::True;
            for _ in 0..MAX_REDRAWS {
                names.shuffle(rng);
                let mut it = names.clone().into_iter();
                f = tree(rng, &mut it, level.connectives);
                if !repeats_an_operand(&f) {
                    break;
                }
            }
            f
        }
    }
}

/// Most redraws of a general formula with a repeated operand; the last
/// draw is kept (then rare: an operand repeats only when atoms are few).
const MAX_REDRAWS: usize = 64;

/// Whether some connective of `f` has two equal operands, up to one
/// negation: a chain of `&` (or of `|`) counts as one connective.
pub fn repeats_an_operand(f: &Formula) -> bool {
    fn strip(f: &Formula) -> &Formula {
        match f {
            Formula::Not(x) => x,
            x => x,
        }
    }
    fn operands<'a>(f: &'a Formula, and: bool, out: &mut Vec<&'a Formula>) {
        match (f, and) {
            (Formula::And(a, b), true) | (Formula::Or(a, b), false) => {
                operands(a, and, out);
                operands(b, and, out);
            }
            _ => out.push(f),
        }
    }
    let here = match f {
        Formula::And(..) | Formula::Or(..) => {
            let mut ops = Vec::new();
            operands(f, matches!(f, Formula::And(..)), &mut ops);
            ops.iter()
                .enumerate()
                .any(|(i, a)| ops[i + 1..].iter().any(|b| strip(a) == strip(b)))
        }
        Formula::Imp(a, b) | Formula::Iff(a, b) => strip(a) == strip(b),
        _ => false,
    };
    here || children(f).into_iter().any(repeats_an_operand)
}

fn tree(rng: &mut ChaCha8Rng, leaves: &mut impl Iterator<Item = String>, n: usize) -> Formula {
    if n == 0 {
        let a = Formula::atom(&leaves.next().expect("one leaf per connective + 1"));
        return if rng.random_bool(0.25) {
            Formula::negation(a)
        } else {
            a
        };
    }
    let left = rng.random_range(0..n);
    let l = tree(rng, leaves, left);
    let r = tree(rng, leaves, n - 1 - left);
    let f = match rng.random_range(0..6) {
        0 | 1 => Formula::and(l, r),
        2 | 3 => Formula::or(l, r),
        4 => Formula::imp(l, r),
        _ => Formula::iff(l, r),
    };
    if rng.random_bool(0.15) {
        Formula::negation(f)
    } else {
        f
    }
}

/// Whether `f` is neither valid nor unsatisfiable.
pub fn contingent(f: &Formula) -> bool {
    sat::satisfiable(std::slice::from_ref(f)) && sat::satisfiable(&[Formula::negation(f.clone())])
}

/// A position in a formula: the child indices from the root (0 = left or
/// only child, 1 = right).
type Path = Vec<u8>;

fn children(f: &Formula) -> Vec<&Formula> {
    match f {
        Formula::Not(p) => vec![p],
        Formula::And(p, q) | Formula::Or(p, q) | Formula::Imp(p, q) | Formula::Iff(p, q) => {
            vec![p, q]
        }
        _ => vec![],
    }
}

/// Every position of `f`, pre-order.
fn positions(f: &Formula) -> Vec<Path> {
    fn go(f: &Formula, at: &mut Path, out: &mut Vec<Path>) {
        out.push(at.clone());
        for (i, c) in children(f).into_iter().enumerate() {
            at.push(i as u8);
            go(c, at, out);
            at.pop();
        }
    }
    let mut out = Vec::new();
    go(f, &mut Vec::new(), &mut out);
    out
}

fn get<'a>(f: &'a Formula, path: &[u8]) -> &'a Formula {
    match path.split_first() {
        None => f,
        Some((&i, rest)) => get(children(f)[usize::from(i)], rest),
    }
}

/// `f` with the subformula at `path` replaced by `new`.
fn replace(f: &Formula, path: &[u8], new: Formula) -> Formula {
    let Some((&i, rest)) = path.split_first() else {
        return new;
    };
    let sub = |g: &Formula, j: u8, new: Formula| {
        if i == j {
            replace(g, rest, new)
        } else {
            g.clone()
        }
    };
    match f {
        Formula::Not(p) => Formula::negation(replace(p, rest, new)),
        Formula::And(p, q) => Formula::and(sub(p, 0, new.clone()), sub(q, 1, new)),
        Formula::Or(p, q) => Formula::or(sub(p, 0, new.clone()), sub(q, 1, new)),
        Formula::Imp(p, q) => Formula::imp(sub(p, 0, new.clone()), sub(q, 1, new)),
        Formula::Iff(p, q) => Formula::iff(sub(p, 0, new.clone()), sub(q, 1, new)),
        _ => f.clone(),
    }
}

/// The sound rewrites that apply at the root of `g`: (name, result).
fn rewrites_at(g: &Formula) -> Vec<(&'static str, Formula)> {
    use Formula as F;
    let c = |x: &Formula| x.complement();
    let mut out = Vec::new();
    match g {
        F::And(a, b) => {
            out.push(("commute", F::and((**b).clone(), (**a).clone())));
            out.push(("de_morgan", F::negation(F::or(c(a), c(b)))));
            if let F::Or(x, y) = &**b {
                out.push((
                    "distribute",
                    F::or(
                        F::and((**a).clone(), (**x).clone()),
                        F::and((**a).clone(), (**y).clone()),
                    ),
                ));
            }
            match (&**a, &**b) {
                (F::Or(x1, y), F::Or(x2, z)) if x1 == x2 => out.push((
                    "factor",
                    F::or((**x1).clone(), F::and((**y).clone(), (**z).clone())),
                )),
                _ => {}
            }
        }
        F::Or(a, b) => {
            out.push(("commute", F::or((**b).clone(), (**a).clone())));
            out.push(("de_morgan", F::negation(F::and(c(a), c(b)))));
            out.push(("implication", F::imp(c(a), (**b).clone())));
            if let F::And(x, y) = &**b {
                out.push((
                    "distribute",
                    F::and(
                        F::or((**a).clone(), (**x).clone()),
                        F::or((**a).clone(), (**y).clone()),
                    ),
                ));
            }
            match (&**a, &**b) {
                (F::And(x1, y), F::And(x2, z)) if x1 == x2 => out.push((
                    "factor",
                    F::and((**x1).clone(), F::or((**y).clone(), (**z).clone())),
                )),
                _ => {}
            }
        }
        F::Imp(a, b) => {
            out.push(("contraposition", F::imp(c(b), c(a))));
            out.push(("implication", F::or(c(a), (**b).clone())));
        }
        F::Iff(a, b) => {
            out.push(("commute", F::iff((**b).clone(), (**a).clone())));
            out.push(("iff_negated", F::iff(c(a), c(b))));
            out.push((
                "iff_split",
                F::and(
                    F::imp((**a).clone(), (**b).clone()),
                    F::imp((**b).clone(), (**a).clone()),
                ),
            ));
        }
        F::Not(p) => match &**p {
            F::Not(q) => out.push(("double_negation", (**q).clone())),
            F::And(a, b) => out.push(("de_morgan", F::or(c(a), c(b)))),
            F::Or(a, b) => out.push(("de_morgan", F::and(c(a), c(b)))),
            F::Iff(a, b) => out.push(("iff_negated", F::iff((**a).clone(), c(b)))),
            _ => {}
        },
        _ => {}
    }
    if !matches!(g, F::Not(_)) {
        out.push(("double_negation", F::negation(F::negation(g.clone()))));
    }
    out
}

/// The minimal mutations that apply at the root of `g`: (name, result).
/// A result may still be equivalent; callers check.
fn mutations_at(g: &Formula) -> Vec<(&'static str, Formula)> {
    use Formula as F;
    let mut out = Vec::new();
    match g {
        F::And(a, b) => out.push(("flip_operator", F::or((**a).clone(), (**b).clone()))),
        F::Or(a, b) => out.push(("flip_operator", F::and((**a).clone(), (**b).clone()))),
        F::Imp(a, b) => {
            out.push(("flip_operator", F::iff((**a).clone(), (**b).clone())));
            out.push(("swap_arguments", F::imp((**b).clone(), (**a).clone())));
        }
        F::Iff(a, b) => out.push(("flip_operator", F::imp((**a).clone(), (**b).clone()))),
        _ => {}
    }
    out.push(("negate", g.complement()));
    out
}

/// Whether `g` is small enough to stay readable next to `base`.
fn readable(g: &Formula, base: &Formula) -> bool {
    g.size() <= (2 * base.size()).max(base.size() + 8)
}

/// One sound rewrite at a random position of `f`: (name, result), or `None`
/// when none keeps the formula readable next to `base`.
pub fn rewrite_once(
    rng: &mut ChaCha8Rng,
    f: &Formula,
    base: &Formula,
) -> Option<(&'static str, Formula)> {
    let mut options = Vec::new();
    for p in positions(f) {
        for (name, g) in rewrites_at(get(f, &p)) {
            let whole = replace(f, &p, g);
            if readable(&whole, base) {
                options.push((name, whole));
            }
        }
    }
    if options.is_empty() {
        return None;
    }
    // Pick the rule first, then the place, so frequent patterns (double
    // negation applies everywhere) do not crowd out the others.
    let mut names: Vec<&'static str> = options.iter().map(|o| o.0).collect();
    names.sort_unstable();
    names.dedup();
    let name = names[rng.random_range(0..names.len())];
    let at: Vec<usize> = (0..options.len())
        .filter(|&i| options[i].0 == name)
        .collect();
    Some(options.swap_remove(at[rng.random_range(0..at.len())]))
}

/// `k` sound rewrites of `f`; `None` if some step found nothing to do.
pub fn rewrite(
    rng: &mut ChaCha8Rng,
    f: &Formula,
    k: usize,
) -> Option<(Vec<&'static str>, Formula)> {
    let mut g = f.clone();
    let mut names = Vec::new();
    for _ in 0..k {
        let (n, h) = rewrite_once(rng, &g, f)?;
        names.push(n);
        g = h;
    }
    Some((names, g))
}

/// One minimal mutation of `f` that is not equivalent to it: a flipped
/// operator, an implication's arguments swapped, or one subformula negated.
/// `None` if none is found. (Exchanging two atom occurrences was a fourth
/// kind; it changed the left-to-right atom sequence far more often than the
/// rewrites do, a surface cue the shortcut audit caught.)
pub fn mutate(rng: &mut ChaCha8Rng, f: &Formula) -> Option<(&'static str, Formula)> {
    let mut options: Vec<(&'static str, Formula)> = Vec::new();
    let ps = positions(f);
    for p in &ps {
        // The root is never negated whole: that would only flip every value.
        for (name, g) in mutations_at(get(f, p)) {
            if p.is_empty() && name == "negate" {
                continue;
            }
            options.push((name, replace(f, p, g)));
        }
    }
    let mut names: Vec<&'static str> = options.iter().map(|o| o.0).collect();
    names.sort_unstable();
    names.dedup();
    names.shuffle(rng);
    for name in names {
        let mut at: Vec<usize> = (0..options.len())
            .filter(|&i| options[i].0 == name)
            .collect();
        at.shuffle(rng);
        for i in at {
            if decide(f, &options[i].1).is_err() {
                return Some(options.swap_remove(i));
            }
        }
    }
    None
}

/// An assignment of the atoms (missing atoms read as false).
pub type Assignment = BTreeMap<String, bool>;

/// Evaluates `f` under `a` (atoms not in `a` are false).
pub fn eval(f: &Formula, a: &Assignment) -> bool {
    f.eval(&|x| a.get(x).copied().unwrap_or(false))
}

/// Decides `left ≡ right` by SAT on `~(left <=> right)`: `Ok` when
/// unsatisfiable (equivalent), else the satisfying assignment over the atoms
/// of both (a counterexample), checked by evaluation before it is returned.
pub fn decide(left: &Formula, right: &Formula) -> Result<(), Assignment> {
    let goal = Formula::negation(Formula::iff(left.clone(), right.clone()));
    match sat::model(&[goal]) {
        None => Ok(()),
        Some(m) => {
            assert!(
                eval(left, &m) != eval(right, &m),
                "SAT model of ~(l <=> r) does not separate l and r"
            );
            Err(m)
        }
    }
}

/// The SAT conflicts of deciding `left ≡ right` ([`decide`]'s problem,
/// `~(left <=> right)` Tseitin-encoded, on a fresh CDCL solver): the
/// deterministic work of the decision.
pub fn decision_conflicts(left: &Formula, right: &Formula) -> u64 {
    let goal = Formula::negation(Formula::iff(left.clone(), right.clone()));
    let mut e = sat::Encoder::new(Batsat::new());
    let g = e.encode(&goal);
    let _ = e.solver().solve(&[g]);
    e.solver().conflicts()
}

/// Re-checks an equivalence without the generator's SAT call: every
/// assignment when the two have at most [`TABLE_ATOMS`] atoms, else a
/// second, fresh SAT call. `Err` with a separating assignment if they differ.
pub fn recheck_equivalent(left: &Formula, right: &Formula) -> Result<&'static str, Assignment> {
    let mut atoms = left.atoms();
    right.collect_atoms(&mut atoms);
    let atoms: Vec<String> = atoms.into_iter().collect();
    if atoms.len() <= TABLE_ATOMS {
        for bits in 0u32..1 << atoms.len() {
            let a: Assignment = atoms
                .iter()
                .enumerate()
                .map(|(i, x)| (x.clone(), bits >> i & 1 == 1))
                .collect();
            if eval(left, &a) != eval(right, &a) {
                return Err(a);
            }
        }
        return Ok("truth table");
    }
    decide(left, right).map(|()| "second SAT call")
}

/// An assignment as `P=1, Q=0` text.
pub fn show_assignment(a: &Assignment) -> String {
    a.iter()
        .map(|(k, v)| format!("{k}={}", u8::from(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prop::formula::compact;
    use crate::tasks::instance_rng;

    fn p(s: &str) -> Formula {
        Formula::parse(s).unwrap()
    }

    #[test]
    fn every_rewrite_is_sound_and_every_mutation_kind_can_differ() {
        let fs = [
            "(~(P & Q) | (R ==> P))",
            "((P | Q) & (P | R))",
            "((P & Q) | (P & R))",
            "(P <==> ~(Q | R))",
            "(~(P <==> Q) & ~~R)",
        ];
        let mut mutated = 0;
        for s in fs {
            let f = p(s);
            for pos in positions(&f) {
                for (name, g) in rewrites_at(get(&f, &pos)) {
                    let whole = replace(&f, &pos, g);
                    assert!(decide(&f, &whole).is_ok(), "{name}: {s} vs {whole}");
                    assert!(recheck_equivalent(&f, &whole).is_ok());
                }
            }
            let mut rng = instance_rng(1, &["t"], 0);
            let (_, m) = mutate(&mut rng, &f).expect("a mutation");
            let cex = decide(&f, &m).unwrap_err();
            assert_ne!(eval(&f, &cex), eval(&m, &cex));
            assert!(recheck_equivalent(&f, &m).is_err());
            mutated += 1;
        }
        assert_eq!(mutated, fs.len());
    }

    #[test]
    fn general_formulas_repeat_no_operand_under_one_connective() {
        assert!(repeats_an_operand(&p("((U & U) | V)")));
        assert!(repeats_an_operand(&p("(U & (V & ~U))")));
        assert!(repeats_an_operand(&p("(V ==> (U <==> U))")));
        assert!(!repeats_an_operand(&p("((U & V) | (U & W))")));
        let mut rng = crate::tasks::instance_rng(0, &["twins"], 0);
        for l in 1..=4 {
            let lv = Level::of(l).unwrap();
            let atoms: Vec<String> = ["P", "Q", "R", "S", "T", "U"][..lv.atoms]
                .iter()
                .map(|a| a.to_string())
                .collect();
            let twins = (0..200)
                .filter(|_| {
                    repeats_an_operand(&random_formula(&mut rng, Form::General, &atoms, &lv))
                })
                .count();
            assert_eq!(twins, 0, "level {l}");
        }
    }

    #[test]
    fn levels_grow_and_formulas_use_every_atom() {
        assert!(Level::of(0).is_none());
        for l in 1..=8 {
            let lv = Level::of(l).unwrap();
            for (i, form) in [Form::Cnf3, Form::General].into_iter().enumerate() {
                let mut rng = instance_rng(3, &["lv"], u64::from(l) * 10 + i as u64);
                let atoms = vocabulary(&mut rng, VocabKind::Abstract, lv.atoms);
                let f = random_formula(&mut rng, form, &atoms, &lv);
                assert_eq!(f.atoms().len(), lv.atoms, "{}", compact(&f));
                assert_eq!(Formula::parse(&compact(&f)).unwrap(), f);
            }
        }
        assert!(Level::of(4).unwrap().atoms > Level::of(1).unwrap().atoms);
    }

    #[test]
    fn the_schedule_grows_past_level_four_within_its_caps() {
        let mut last = Level::of(4).unwrap();
        for l in 5..=8 {
            let lv = Level::of(l).unwrap();
            assert!(lv.connectives > last.connectives && lv.clauses > last.clauses);
            assert!(lv.rewrites > last.rewrites && lv.atoms >= last.atoms);
            assert!(lv.atoms <= MAX_ATOMS);
            last = lv;
        }
        assert_eq!(Level::of(6).unwrap().atoms, MAX_ATOMS);
        assert_eq!(Level::of(255), Level::of(TOP_LEVEL));
        assert_eq!(Level::of(TOP_LEVEL).unwrap().connectives, 49);
        // A level-8 formula and its rewriting: eight atoms, the conflicts
        // of the decision counted.
        let lv = Level::of(8).unwrap();
        let mut rng = instance_rng(4, &["lv8"], 0);
        let atoms = vocabulary(&mut rng, VocabKind::Natural, lv.atoms);
        let f = random_formula(&mut rng, Form::General, &atoms, &lv);
        assert_eq!(f.size() - count_negations(&f), lv.connectives);
        let (_, g) = rewrite(&mut rng, &f, lv.rewrites).expect("rewrites");
        assert!(decide(&f, &g).is_ok());
        assert_eq!(decision_conflicts(&f, &g), decision_conflicts(&f, &g));
        // Three pigeons, two holes: no unit propagation alone refutes it.
        let php = p(
            "((P | Q) & (R | S) & (T | U) & (~P | ~R) & (~P | ~T) & (~R | ~T) & (~Q | ~S) & (~Q | ~U) & (~S | ~U))",
        );
        assert!(decide(&php, &Formula::False).is_ok());
        assert!(decision_conflicts(&php, &Formula::False) >= 1);
    }

    fn count_negations(f: &Formula) -> usize {
        let here = usize::from(matches!(f, Formula::Not(_)));
        here + children(f).into_iter().map(count_negations).sum::<usize>()
    }

    #[test]
    fn decide_separates_and_the_table_agrees() {
        assert!(decide(&p("(P ==> Q)"), &p("(~Q ==> ~P)")).is_ok());
        let cex = decide(&p("(P ==> Q)"), &p("(Q ==> P)")).unwrap_err();
        assert_ne!(cex["P"], cex["Q"]);
        assert_eq!(show_assignment(&cex).len(), 8);
        assert!(!contingent(&p("(P | ~P)")) && contingent(&p("(P & Q)")));
    }
}
