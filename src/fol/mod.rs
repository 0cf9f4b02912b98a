//! First-order logic (untyped TPTP FOF): closed formulas as trees over
//! named symbols and variables, printed and read in TPTP FOF syntax (the
//! `fof_logic_formula` rules of the TPTP BNF, without types); sound
//! rewritings (the propositional laws plus quantifier duality,
//! distribution, miniscoping, swapping like quantifiers and renaming a
//! bound variable) and minimal mutations (one operator, one quantifier,
//! one scope, one argument, one negation); the restatement target forms
//! ([`forms`]: checks and conversions to NNF, prenex form and restricted
//! bases); and Tarski evaluation in finite
//! interpretations ([`eval`]), which re-checks a countermodel on the
//! formulas themselves without the clausifier. The prover decides
//! entailment and equivalence between these formulas
//! ([`crate::prover::equivalence`]); the equivalence tasks draw them
//! (`tasks/equiv/first_order/`). Reading goes through the TPTP reader's
//! FOF formula parser, the crate's one ([`parse()`]); besides `tptp` and
//! `logic` (its scratch term bank) it imports only `certificate` (the
//! finite model type) and `prop::forms` (the target forms, shared with the
//! propositional ones).

pub mod forms;
mod model;
mod parse;
mod rewrite;
#[cfg(test)]
mod tests;

pub use model::{Model, RANDOM_MODELS, contingent, eval, random_model, separate, show_model};
pub use parse::parse;
#[cfg(test)]
pub(crate) use rewrite::{get, mutation_options, positions, replace, rewrites_at};
pub use rewrite::{mutate, rewrite, rewrite_once};

use std::collections::BTreeSet;
use std::fmt;

/// A first-order term: a variable (upper-case initial) or a function
/// symbol applied to arguments (a constant has none).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Term {
    /// A variable.
    Var(String),
    /// `f(t1,...,tn)`; a constant when there are no arguments.
    App(String, Vec<Term>),
}

/// A binary connective.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bin {
    /// `&`
    And,
    /// `|`
    Or,
    /// `=>`
    Imp,
    /// `<=>`
    Iff,
}

/// A quantifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Quant {
    /// `!`
    All,
    /// `?`
    Ex,
}

impl Quant {
    /// The other quantifier (`!` for `?` and back).
    pub fn dual(self) -> Quant {
        match self {
            Quant::All => Quant::Ex,
            Quant::Ex => Quant::All,
        }
    }
}

/// A first-order formula. Identity is tree identity, bound variable names
/// included.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fol {
    /// `$true`
    True,
    /// `$false`
    False,
    /// `p(t1,...,tn)`
    Atom(String, Vec<Term>),
    /// `s = t`
    Eq(Term, Term),
    /// `~ F`
    Not(Box<Fol>),
    /// `(F op G)`
    Bin(Bin, Box<Fol>, Box<Fol>),
    /// `! [X] : F` or `? [X] : F`
    Q(Quant, String, Box<Fol>),
}

/// Shorthand constructors.
impl Fol {
    /// `~ f`.
    pub fn negation(f: Fol) -> Fol {
        Fol::Not(Box::new(f))
    }
    /// `(a op b)`.
    pub fn bin(op: Bin, a: Fol, b: Fol) -> Fol {
        Fol::Bin(op, Box::new(a), Box::new(b))
    }
    /// `Q [x] : f`.
    pub fn q(q: Quant, x: &str, f: Fol) -> Fol {
        Fol::Q(q, x.to_string(), Box::new(f))
    }
    /// `g` if `self = ~g`, else `~self`.
    pub fn complement(&self) -> Fol {
        match self {
            Fol::Not(g) => (**g).clone(),
            _ => Fol::negation(self.clone()),
        }
    }
    /// Number of nodes.
    pub fn size(&self) -> usize {
        match self {
            Fol::True | Fol::False | Fol::Atom(..) | Fol::Eq(..) => 1,
            Fol::Not(f) | Fol::Q(_, _, f) => 1 + f.size(),
            Fol::Bin(_, a, b) => 1 + a.size() + b.size(),
        }
    }
    /// Whether variable `x` occurs free.
    pub fn free(&self, x: &str) -> bool {
        match self {
            Fol::True | Fol::False => false,
            Fol::Atom(_, args) => args.iter().any(|t| t.has_var(x)),
            Fol::Eq(s, t) => s.has_var(x) || t.has_var(x),
            Fol::Not(f) => f.free(x),
            Fol::Bin(_, a, b) => a.free(x) || b.free(x),
            Fol::Q(_, y, f) => y != x && f.free(x),
        }
    }
    /// The number of quantifiers (`! [X,Y]` counts two).
    pub fn quantifiers(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |g| n += usize::from(matches!(g, Fol::Q(..))));
        n
    }
    /// The largest number of quantifiers on one path from the root: the
    /// exponent of the cost of evaluating the formula in a finite model.
    pub fn quantifier_depth(&self) -> usize {
        match self {
            Fol::True | Fol::False | Fol::Atom(..) | Fol::Eq(..) => 0,
            Fol::Not(f) => f.quantifier_depth(),
            Fol::Q(_, _, f) => 1 + f.quantifier_depth(),
            Fol::Bin(_, a, b) => a.quantifier_depth().max(b.quantifier_depth()),
        }
    }
    /// The free variables, sorted.
    pub fn free_vars(&self) -> BTreeSet<String> {
        fn go(f: &Fol, bound: &mut Vec<String>, out: &mut BTreeSet<String>) {
            let mut term = |t: &Term, bound: &Vec<String>| {
                let mut vs = Vec::new();
                t.vars(&mut vs);
                for v in vs {
                    if !bound.contains(&v) {
                        out.insert(v);
                    }
                }
            };
            match f {
                Fol::True | Fol::False => {}
                Fol::Atom(_, args) => args.iter().for_each(|t| term(t, bound)),
                Fol::Eq(s, t) => {
                    term(s, bound);
                    term(t, bound);
                }
                Fol::Not(g) => go(g, bound, out),
                Fol::Bin(_, a, b) => {
                    go(a, bound, out);
                    go(b, bound, out);
                }
                Fol::Q(_, x, g) => {
                    bound.push(x.clone());
                    go(g, bound, out);
                    bound.pop();
                }
            }
        }
        let mut out = BTreeSet::new();
        go(self, &mut Vec::new(), &mut out);
        out
    }
    /// Every variable name, bound or free.
    pub fn var_names(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.walk(&mut |f| match f {
            Fol::Q(_, x, _) => {
                out.insert(x.clone());
            }
            Fol::Atom(_, args) => {
                let mut vs = Vec::new();
                args.iter().for_each(|t| t.vars(&mut vs));
                out.extend(vs);
            }
            Fol::Eq(s, t) => {
                let mut vs = Vec::new();
                s.vars(&mut vs);
                t.vars(&mut vs);
                out.extend(vs);
            }
            _ => {}
        });
        out
    }
    /// Calls `visit` on every subformula, the formula itself first, then
    /// its operands left to right (pre-order).
    pub fn walk(&self, visit: &mut impl FnMut(&Fol)) {
        visit(self);
        match self {
            Fol::Not(f) | Fol::Q(_, _, f) => f.walk(visit),
            Fol::Bin(_, a, b) => {
                a.walk(visit);
                b.walk(visit);
            }
            _ => {}
        }
    }
    /// The signature: predicates and function symbols (constants have
    /// arity 0) with their arities; a symbol used at two arities appears
    /// twice.
    pub fn signature(&self) -> Signature {
        let mut sig = Signature::default();
        self.walk(&mut |f| match f {
            Fol::Atom(p, args) => {
                sig.predicates.insert((p.clone(), args.len()));
                args.iter().for_each(|t| t.functions(&mut sig.functions));
            }
            Fol::Eq(s, t) => {
                s.functions(&mut sig.functions);
                t.functions(&mut sig.functions);
            }
            _ => {}
        });
        sig
    }
    /// The predicate names of the atoms, left to right.
    pub fn atom_sequence(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.walk(&mut |f| {
            if let Fol::Atom(p, _) = f {
                out.push(p.clone());
            }
        });
        out
    }
    /// The formula with free occurrences of `x` renamed to `y` (`y` must
    /// not be bound inside).
    pub fn rename_free(&self, x: &str, y: &str) -> Fol {
        match self {
            Fol::True | Fol::False => self.clone(),
            Fol::Atom(p, args) => {
                Fol::Atom(p.clone(), args.iter().map(|t| t.rename(x, y)).collect())
            }
            Fol::Eq(s, t) => Fol::Eq(s.rename(x, y), t.rename(x, y)),
            Fol::Not(f) => Fol::negation(f.rename_free(x, y)),
            Fol::Bin(op, a, b) => Fol::bin(*op, a.rename_free(x, y), b.rename_free(x, y)),
            Fol::Q(q, z, f) if z == x => Fol::Q(*q, z.clone(), f.clone()),
            Fol::Q(q, z, f) => Fol::Q(*q, z.clone(), Box::new(f.rename_free(x, y))),
        }
    }
}

impl Term {
    fn has_var(&self, x: &str) -> bool {
        match self {
            Term::Var(v) => v == x,
            Term::App(_, args) => args.iter().any(|t| t.has_var(x)),
        }
    }
    fn vars(&self, out: &mut Vec<String>) {
        match self {
            Term::Var(v) => out.push(v.clone()),
            Term::App(_, args) => args.iter().for_each(|t| t.vars(out)),
        }
    }
    fn functions(&self, out: &mut BTreeSet<(String, usize)>) {
        if let Term::App(f, args) = self {
            out.insert((f.clone(), args.len()));
            args.iter().for_each(|t| t.functions(out));
        }
    }
    fn rename(&self, x: &str, y: &str) -> Term {
        match self {
            Term::Var(v) if v == x => Term::Var(y.to_string()),
            Term::Var(_) => self.clone(),
            Term::App(f, args) => {
                Term::App(f.clone(), args.iter().map(|t| t.rename(x, y)).collect())
            }
        }
    }
}

/// The symbols of a formula or vocabulary, with arities.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    /// Predicates (arity 0 = a propositional atom).
    pub predicates: BTreeSet<(String, usize)>,
    /// Function symbols (arity 0 = a constant).
    pub functions: BTreeSet<(String, usize)>,
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Var(v) => write!(f, "{v}"),
            Term::App(c, args) if args.is_empty() => write!(f, "{c}"),
            Term::App(c, args) => {
                write!(f, "{c}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{a}")?;
                }
                write!(f, ")")
            }
        }
    }
}

/// TPTP FOF text: binary formulas and equations in parentheses, a chain of
/// like quantifiers as one variable list (`! [X,Y] : ...`).
impl fmt::Display for Fol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fol::True => write!(f, "$true"),
            Fol::False => write!(f, "$false"),
            Fol::Atom(p, args) => write!(f, "{}", Term::App(p.clone(), args.clone())),
            Fol::Eq(s, t) => write!(f, "({s} = {t})"),
            Fol::Not(g) => write!(f, "~ {g}"),
            Fol::Bin(op, a, b) => {
                let o = match op {
                    Bin::And => "&",
                    Bin::Or => "|",
                    Bin::Imp => "=>",
                    Bin::Iff => "<=>",
                };
                write!(f, "({a} {o} {b})")
            }
            Fol::Q(q, x, body) => {
                let mut vars = vec![x.as_str()];
                let mut body = &**body;
                while let Fol::Q(q2, y, inner) = body {
                    if q2 != q {
                        break;
                    }
                    vars.push(y);
                    body = inner;
                }
                let sym = match q {
                    Quant::All => "!",
                    Quant::Ex => "?",
                };
                write!(f, "{sym} [{}] : {body}", vars.join(","))
            }
        }
    }
}

/// Bound variable names, in the order they are introduced.
pub const VARIABLES: [&str; 8] = ["X", "Y", "Z", "W", "V", "U", "T", "S"];

/// Whether `f` has a degenerate shape: a quantifier whose variable does
/// not occur in its scope, or a binary connective whose two operands are
/// the same formula or one the other's negation (`(A & A)`, `(A | ~A)`).
pub fn degenerate(f: &Fol) -> bool {
    let mut bad = false;
    f.walk(&mut |g| match g {
        Fol::Q(_, x, body) => bad |= !body.free(x),
        Fol::Bin(_, a, b) => bad |= a == b || **a == b.complement(),
        _ => {}
    });
    bad
}
