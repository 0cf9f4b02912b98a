//! Propositional formulas for the equivalence tasks (after AutoEval, seed
//! 002): vocabularies and formulas drawn from two grammars (3-CNF and
//! general formulas) by descriptive complexity. The sound rewritings and
//! minimal mutations are [`crate::prop::rewrite`]'s, the certified
//! equivalence decision [`crate::prop::equivalence`]'s.
//!
//! Level schedule: [`Level::of`] (atoms, binary connectives of a general
//! formula, clauses of a 3-CNF formula, sound rewrite steps), open-ended
//! with the atoms capped at [`MAX_ATOMS`] and nothing growing past
//! [`TOP_LEVEL`].

use crate::prop::formula::Formula;
use crate::prop::rewrite::children;
use crate::prop::sat;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

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
/// [`crate::prop::equivalence::recheck_equivalent`] and the reference
/// script's table).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prop::equivalence::{decide, decision_conflicts};
    use crate::prop::formula::compact;
    use crate::prop::rewrite::rewrite;
    use crate::tasks::instance_rng;

    fn p(s: &str) -> Formula {
        Formula::parse(s).unwrap()
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
    fn contingent_formulas_are_neither_valid_nor_unsatisfiable() {
        assert!(!contingent(&p("(P | ~P)")) && contingent(&p("(P & Q)")));
        assert!(!contingent(&p("(P & ~P)")));
    }
}
