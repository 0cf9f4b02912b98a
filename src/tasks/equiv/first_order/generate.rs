//! Vocabularies, the level schedule and random closed formulas for the
//! first-order equivalence tasks (after AutoEval, seed 002): formulas drawn
//! by descriptive complexity (quantifiers and connectives per level), and
//! the degeneracy test that keeps idempotent and vacuous shapes out.

use crate::fol::{Bin, Fol, Quant, Signature, Term, VARIABLES};
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// The size parameters of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Level {
    /// Unary predicates of the vocabulary (each occurs in the formula).
    pub unary: usize,
    /// Binary predicates of the vocabulary (each occurs).
    pub binary: usize,
    /// Constants of the vocabulary (may occur).
    pub constants: usize,
    /// Quantifiers of the drawn formula.
    pub quantifiers: usize,
    /// Binary connectives of the drawn formula.
    pub connectives: usize,
    /// Sound rewrite steps between the shown formula and its restatement.
    pub rewrites: usize,
}

/// Most quantifiers of a drawn formula: evaluation in a model of size n
/// costs about n to the nesting depth, and an answer may nest
/// [`crate::tasks::equiv::fol_task`]'s extra depth on top.
pub const MAX_QUANTIFIERS: usize = 6;

/// Most binary connectives of a drawn formula (each direction of the
/// decision is one prover call within fixed work limits; larger formulas
/// mostly come back undecided).
pub const MAX_CONNECTIVES: usize = 12;

/// Level from which the schedule stops growing: every level above it has
/// its parameters.
pub const TOP_LEVEL: u8 = 24;

impl Level {
    /// The parameters of level `l` (any level from 1, `None` for 0).
    /// Levels 1-4 are the original table. Above, the vocabulary takes
    /// every name of the abstract lists (4 unary and 3 binary predicates, 3
    /// constants: the caps), the quantifiers grow by one every two levels
    /// up to [`MAX_QUANTIFIERS`] (level 9), the connectives by one a level
    /// up to [`MAX_CONNECTIVES`] (level 11) and the rewrite steps by one a
    /// level up to `TOP_LEVEL` (the equivalence pairs take one more).
    ///
    /// | level | unary | binary | constants | quantifiers | connectives | rewrites |
    /// |---:|---:|---:|---:|---:|---:|---:|
    /// | 1 | 2 | 1 | 1 | 1 | 2 | 1 |
    /// | 2 | 2 | 1 | 2 | 2 | 3 | 2 |
    /// | 3 | 3 | 2 | 2 | 2 | 4 | 3 |
    /// | 4 | 3 | 2 | 2 | 3 | 5 | 4 |
    /// | 5 | 4 | 2 | 3 | 4 | 6 | 5 |
    /// | 6 | 4 | 3 | 3 | 4 | 7 | 6 |
    /// | 7 | 4 | 3 | 3 | 5 | 8 | 7 |
    /// | 8 | 4 | 3 | 3 | 5 | 9 | 8 |
    /// | l ≥ 5, m = min(l, 24) | 4 | 2 at 5, else 3 | 3 | min(3 + (l-3)/2, 6) | min(l+1, 12) | m |
    pub fn of(l: u8) -> Option<Level> {
        let (unary, binary, constants, quantifiers, connectives) = match l {
            0 => return None,
            1 => (2, 1, 1, 1, 2),
            2 => (2, 1, 2, 2, 3),
            3 => (3, 2, 2, 2, 4),
            4 => (3, 2, 2, 3, 5),
            l => {
                let l = usize::from(l);
                (
                    4,
                    if l == 5 { 2 } else { 3 },
                    3,
                    (3 + (l - 3) / 2).min(MAX_QUANTIFIERS),
                    (l + 1).min(MAX_CONNECTIVES),
                )
            }
        };
        Some(Level {
            unary,
            binary,
            constants,
            quantifiers,
            connectives,
            rewrites: usize::from(l.min(TOP_LEVEL)),
        })
    }
}

/// One vocabulary symbol: name, arity (predicates) or `None` (constants),
/// and the English gloss of a natural-language symbol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Symbol {
    /// The TPTP name.
    pub name: String,
    /// `"predicate"` or `"constant"`.
    pub kind: String,
    /// Arity (0 for a constant).
    pub arity: usize,
    /// What it means, for natural-language vocabularies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gloss: Option<String>,
}

const ABSTRACT_UNARY: [&str; 4] = ["p", "q", "r", "s"];
const ABSTRACT_BINARY: [&str; 3] = ["e", "g", "h"];
const ABSTRACT_CONSTANTS: [&str; 3] = ["a", "b", "c"];
const NATURAL_UNARY: [(&str, &str); 6] = [
    ("student", "X is a student"),
    ("teacher", "X is a teacher"),
    ("tired", "X is tired"),
    ("happy", "X is happy"),
    ("rich", "X is rich"),
    ("musician", "X is a musician"),
];
const NATURAL_BINARY: [(&str, &str); 4] = [
    ("likes", "X likes Y"),
    ("knows", "X knows Y"),
    ("helps", "X helps Y"),
    ("admires", "X admires Y"),
];
const NATURAL_CONSTANTS: [(&str, &str); 3] =
    [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol")];

/// A vocabulary of `kind` with the sizes of `level`, symbols in list
/// order within each kind.
pub fn vocabulary(
    rng: &mut ChaCha8Rng,
    kind: crate::tasks::equiv::pl::VocabKind,
    level: &Level,
) -> Vec<Symbol> {
    let natural = kind == crate::tasks::equiv::pl::VocabKind::Natural;
    let pick = |rng: &mut ChaCha8Rng,
                names: Vec<(&str, Option<&str>)>,
                n: usize,
                arity: usize,
                k: &str| {
        let mut idx: Vec<usize> = (0..names.len()).collect();
        idx.shuffle(rng);
        let mut chosen: Vec<usize> = idx.into_iter().take(n).collect();
        chosen.sort_unstable();
        chosen
            .into_iter()
            .map(|i| Symbol {
                name: names[i].0.to_string(),
                kind: k.to_string(),
                arity,
                gloss: names[i].1.map(String::from),
            })
            .collect::<Vec<_>>()
    };
    let (u, b, c): (Vec<_>, Vec<_>, Vec<_>) = if natural {
        (
            NATURAL_UNARY.iter().map(|(n, g)| (*n, Some(*g))).collect(),
            NATURAL_BINARY.iter().map(|(n, g)| (*n, Some(*g))).collect(),
            NATURAL_CONSTANTS
                .iter()
                .map(|(n, g)| (*n, Some(*g)))
                .collect(),
        )
    } else {
        (
            ABSTRACT_UNARY.iter().map(|n| (*n, None)).collect(),
            ABSTRACT_BINARY.iter().map(|n| (*n, None)).collect(),
            ABSTRACT_CONSTANTS.iter().map(|n| (*n, None)).collect(),
        )
    };
    let mut v = pick(rng, u, level.unary, 1, "predicate");
    v.extend(pick(rng, b, level.binary, 2, "predicate"));
    v.extend(pick(rng, c, level.constants, 0, "constant"));
    v
}

/// The vocabulary as a signature.
pub fn signature_of(vocabulary: &[Symbol]) -> Signature {
    let mut sig = Signature::default();
    for s in vocabulary {
        if s.kind == "constant" {
            sig.functions.insert((s.name.clone(), 0));
        } else {
            sig.predicates.insert((s.name.clone(), s.arity));
        }
    }
    sig
}

/// A closed formula over `vocabulary` with the sizes of `level`: every
/// predicate occurs, every quantifier binds a variable that occurs in its
/// scope, and no two quantifiers bind the same name. Not checked for
/// degeneracy (see [`degenerate`](crate::fol::degenerate) and [`contingent`](crate::fol::contingent)).
pub fn random_formula(rng: &mut ChaCha8Rng, vocabulary: &[Symbol], level: &Level) -> Fol {
    let preds: Vec<&Symbol> = vocabulary
        .iter()
        .filter(|s| s.kind == "predicate")
        .collect();
    let consts: Vec<&str> = vocabulary
        .iter()
        .filter(|s| s.kind == "constant")
        .map(|s| s.name.as_str())
        .collect();
    // Every predicate once, then random ones, in random order.
    let mut leaves: Vec<&Symbol> = preds.clone();
    while leaves.len() < level.connectives + 1 {
        leaves.push(preds[rng.random_range(0..preds.len())]);
    }
    leaves.shuffle(rng);
    let mut g = Gen {
        rng,
        leaves: leaves.into_iter(),
        consts,
        scope: Vec::new(),
        fresh: 0,
    };
    g.formula(level.connectives, level.quantifiers)
}

struct Gen<'a, 'r> {
    rng: &'r mut ChaCha8Rng,
    leaves: std::vec::IntoIter<&'a Symbol>,
    consts: Vec<&'a str>,
    scope: Vec<String>,
    fresh: usize,
}

impl Gen<'_, '_> {
    fn formula(&mut self, conn: usize, quants: usize) -> Fol {
        let quantify =
            quants > 0 && (conn == 0 || self.rng.random_range(0..conn + quants) < quants);
        if quantify {
            let x = VARIABLES[self.fresh % VARIABLES.len()].to_string();
            self.fresh += 1;
            let q = if self.rng.random_bool(0.5) {
                Quant::All
            } else {
                Quant::Ex
            };
            self.scope.push(x.clone());
            let body = self.formula(conn, quants - 1);
            self.scope.pop();
            return Fol::Q(q, x, Box::new(body));
        }
        if conn == 0 {
            return self.atom();
        }
        let op = match self.rng.random_range(0..9) {
            0..=2 => Bin::And,
            3..=5 => Bin::Or,
            6..=7 => Bin::Imp,
            _ => Bin::Iff,
        };
        let lc = self.rng.random_range(0..conn);
        let lq = self.rng.random_range(0..=quants);
        let a = self.child(lc, lq);
        let b = self.child(conn - 1 - lc, quants - lq);
        Fol::bin(op, a, b)
    }

    fn child(&mut self, conn: usize, quants: usize) -> Fol {
        let f = self.formula(conn, quants);
        if self.rng.random_bool(0.2) {
            Fol::negation(f)
        } else {
            f
        }
    }

    fn atom(&mut self) -> Fol {
        let p = self.leaves.next().expect("one leaf per atom");
        let args = (0..p.arity)
            .map(|_| {
                if !self.scope.is_empty() && (self.consts.is_empty() || self.rng.random_bool(0.8)) {
                    Term::Var(self.scope[self.rng.random_range(0..self.scope.len())].clone())
                } else if self.consts.is_empty() {
                    Term::App("a".into(), vec![])
                } else {
                    Term::App(
                        self.consts[self.rng.random_range(0..self.consts.len())].into(),
                        vec![],
                    )
                }
            })
            .collect();
        Fol::Atom(p.name.clone(), args)
    }
}

/// The vocabulary rows of a prompt.
pub fn vocabulary_lines(vocabulary: &[Symbol]) -> String {
    let mut s = String::from("Vocabulary:\n");
    for v in vocabulary {
        let head = match v.arity {
            0 => format!("{} (constant)", v.name),
            1 => format!("{}(X) (predicate, 1 argument)", v.name),
            n => format!(
                "{}({}) (predicate, {n} arguments)",
                v.name,
                VARIABLES[..n].join(",")
            ),
        };
        match &v.gloss {
            Some(g) => s.push_str(&format!("- {head}: {g}\n")),
            None => s.push_str(&format!("- {head}\n")),
        }
    }
    s
}

/// Symbols of `f` outside `vocabulary`: predicates and constants by name
/// and arity, and any function symbol of arity above 0.
pub fn outside(f: &Fol, vocabulary: &[Symbol]) -> Vec<String> {
    let voc = signature_of(vocabulary);
    let sig = f.signature();
    let mut out: Vec<String> = sig
        .predicates
        .iter()
        .filter(|s| !voc.predicates.contains(*s))
        .map(|(n, a)| format!("{n}/{a}"))
        .collect();
    out.extend(
        sig.functions
            .iter()
            .filter(|s| !voc.functions.contains(*s))
            .map(|(n, a)| format!("{n}/{a}")),
    );
    out
}
