//! The NDL proof checker (PL/EQ spec §1.3-§1.7): evaluates a proof over an
//! assumption base with scoped names and reports the conclusion or the
//! first error with its kind (syntax / type / logic), 1-based line and
//! description. Strict mode is the label policy for proof checking; lenient
//! mode (used to score model proofs) overlooks a `BY` mismatch up to double
//! negation or a left/right projection swap the annotation disambiguates,
//! and logs each repair.

use super::formula::{Formula, is_atom_name};
use super::ndl::{Arg, Deduction, Dialect, Element, Step, parse_proof_in};
use serde::Serialize;

/// Checking mode (spec §1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Exact AST comparison, nothing repaired.
    Strict,
    /// Cosmetic faults repaired and logged.
    Lenient,
}

/// Error kinds of spec §1.6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// Tokenisation, parse, unknown rule, undefined name.
    Syntax,
    /// Wrong arity or an argument that does not fit the rule's schema.
    Type,
    /// An argument that does not hold, a wrong `BY`, a wrong conclusion.
    Logic,
}

impl ErrorKind {
    /// The kind's name as in the answer format.
    pub fn name(&self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Type => "type",
            ErrorKind::Logic => "logic",
        }
    }
}

/// The first error of a proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckError {
    /// Error kind.
    pub kind: ErrorKind,
    /// 1-based line in the proof text; 0 when every step is valid but the
    /// result is not the goal.
    pub line: usize,
    /// What is wrong.
    pub description: String,
    /// Whether the step breaks a limit that closes a shortcut of the proof
    /// language (NDL_f: more justifiers than allowed, a step without a
    /// justifier, a claimed tautology, more premises gathered than the
    /// premise bound): the proof tries what the task forbids, which
    /// scorers grade `cheating` rather than `wrong`. Not part of the
    /// answer format, so not serialised.
    #[serde(skip)]
    pub forbidden: bool,
}

/// The result of checking a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The proof's conclusion, or the first error.
    pub result: Result<Formula, CheckError>,
    /// Repairs made in lenient mode (empty in strict mode).
    pub repairs: Vec<String>,
    /// Number of rule applications evaluated.
    pub steps: usize,
}

impl Report {
    /// Whether the proof is correct.
    pub fn ok(&self) -> bool {
        self.result.is_ok()
    }
}

/// Arity and which arguments must hold (spec §1.4 table).
pub(crate) struct RuleInfo {
    pub name: &'static str,
    pub must_hold: &'static [bool],
}

/// The 24 rules of spec §1.4.
pub(crate) const RULES: [RuleInfo; 24] = [
    RuleInfo {
        name: "claim",
        must_hold: &[true],
    },
    RuleInfo {
        name: "left-and",
        must_hold: &[true],
    },
    RuleInfo {
        name: "right-and",
        must_hold: &[true],
    },
    RuleInfo {
        name: "both",
        must_hold: &[true, true],
    },
    RuleInfo {
        name: "mp",
        must_hold: &[true, true],
    },
    RuleInfo {
        name: "left-either",
        must_hold: &[true, false],
    },
    RuleInfo {
        name: "right-either",
        must_hold: &[false, true],
    },
    RuleInfo {
        name: "cases",
        must_hold: &[true, true, true],
    },
    RuleInfo {
        name: "absurd",
        must_hold: &[true, true],
    },
    RuleInfo {
        name: "dn",
        must_hold: &[true],
    },
    RuleInfo {
        name: "left-iff",
        must_hold: &[true],
    },
    RuleInfo {
        name: "right-iff",
        must_hold: &[true],
    },
    RuleInfo {
        name: "equiv",
        must_hold: &[true, true],
    },
    RuleInfo {
        name: "ex-middle",
        must_hold: &[false],
    },
    RuleInfo {
        name: "dm",
        must_hold: &[true],
    },
    RuleInfo {
        name: "dsyl",
        must_hold: &[true, true],
    },
    RuleInfo {
        name: "neg-cond",
        must_hold: &[true],
    },
    RuleInfo {
        name: "neg-bicond",
        must_hold: &[true],
    },
    RuleInfo {
        name: "from-false",
        must_hold: &[false],
    },
    RuleInfo {
        name: "mt",
        must_hold: &[true, true],
    },
    RuleInfo {
        name: "cond-def",
        must_hold: &[true],
    },
    RuleInfo {
        name: "bicond-def'",
        must_hold: &[true],
    },
    RuleInfo {
        name: "from-complements",
        must_hold: &[false, true, true],
    },
    RuleInfo {
        name: "by-contradiction",
        must_hold: &[false, true],
    },
];

/// Looks a rule up by name.
pub(crate) fn rule_info(name: &str) -> Option<&'static RuleInfo> {
    RULES.iter().find(|r| r.name == name)
}

use Formula as F;

/// Applies a rule's schema to resolved arguments (arity and membership are
/// checked before). `Err` is a type error description.
pub(crate) fn apply_schema(rule: &str, a: &[Formula]) -> Result<Formula, String> {
    let bad = |what: &str| Err(format!("{rule} expects {what}"));
    match (rule, a) {
        ("claim", [p]) => Ok(p.clone()),
        ("left-and", [F::And(p, _)]) => Ok((**p).clone()),
        ("left-and", _) => bad("a conjunction"),
        ("right-and", [F::And(_, q)]) => Ok((**q).clone()),
        ("right-and", _) => bad("a conjunction"),
        ("both", [p, q]) => Ok(F::and(p.clone(), q.clone())),
        ("mp", [F::Imp(p, q), r]) if **p == *r => Ok((**q).clone()),
        ("mp", [F::Imp(..), _]) => bad("its second argument to be the antecedent of the first"),
        ("mp", _) => bad("a conditional as first argument"),
        ("left-either" | "right-either", [p, q]) => Ok(F::or(p.clone(), q.clone())),
        ("cases", [F::Or(p, q), F::Imp(p1, r1), F::Imp(q1, r2)]) => {
            if p1 != p || q1 != q {
                bad("conditionals whose antecedents are the two disjuncts, in order")
            } else if r1 != r2 {
                bad("two conditionals with the same consequent")
            } else {
                Ok((**r1).clone())
            }
        }
        ("cases", _) => bad("a disjunction and two conditionals"),
        ("absurd", [p, q]) if p.is_complement_of(q) => Ok(F::False),
        ("absurd", _) => bad("two complementary formulas"),
        ("dn", [F::Not(p)]) if matches!(**p, F::Not(_)) => {
            let F::Not(q) = &**p else { unreachable!() };
            Ok((**q).clone())
        }
        ("dn", _) => bad("a double negation"),
        ("left-iff", [F::Iff(p, q)]) => Ok(F::imp((**p).clone(), (**q).clone())),
        ("right-iff", [F::Iff(p, q)]) => Ok(F::imp((**q).clone(), (**p).clone())),
        ("left-iff" | "right-iff", _) => bad("a biconditional"),
        ("equiv", [F::Imp(p, q), F::Imp(q2, p2)]) if p == p2 && q == q2 => {
            Ok(F::iff((**p).clone(), (**q).clone()))
        }
        ("equiv", _) => bad("two converse conditionals"),
        ("ex-middle", [p]) => Ok(F::or(p.clone(), F::negation(p.clone()))),
        ("dm", [F::Not(x)]) => match &**x {
            F::And(p, q) => Ok(F::or(
                F::negation((**p).clone()),
                F::negation((**q).clone()),
            )),
            F::Or(p, q) => Ok(F::and(
                F::negation((**p).clone()),
                F::negation((**q).clone()),
            )),
            _ => bad("a negated conjunction or disjunction"),
        },
        ("dm", _) => bad("a negated conjunction or disjunction"),
        ("dsyl", [F::Or(p, q), r]) => {
            if r.is_complement_of(p) {
                Ok((**q).clone())
            } else if r.is_complement_of(q) {
                Ok((**p).clone())
            } else {
                bad("a second argument complementary to one disjunct")
            }
        }
        ("dsyl", _) => bad("a disjunction as first argument"),
        ("neg-cond", [F::Not(x)]) if matches!(**x, F::Imp(..)) => {
            let F::Imp(p, q) = &**x else { unreachable!() };
            Ok(F::and((**p).clone(), F::negation((**q).clone())))
        }
        ("neg-cond", [F::And(p, nq)]) if matches!(**nq, F::Not(_)) => {
            let F::Not(q) = &**nq else { unreachable!() };
            Ok(F::negation(F::imp((**p).clone(), (**q).clone())))
        }
        ("neg-cond", _) => bad("(~ (p ==> q)) or (p & (~ q))"),
        ("neg-bicond", [F::Not(x)]) if matches!(**x, F::Iff(..)) => {
            let F::Iff(p, q) = &**x else { unreachable!() };
            let (p, q) = ((**p).clone(), (**q).clone());
            Ok(F::or(
                F::and(p.clone(), F::negation(q.clone())),
                F::and(F::negation(p), q),
            ))
        }
        ("neg-bicond", [f @ F::Or(..)]) => {
            let F::Or(l, r) = f else { unreachable!() };
            match (&**l, &**r) {
                (F::And(p, nq), F::And(np, q))
                    if **nq == F::negation((**q).clone()) && **np == F::negation((**p).clone()) =>
                {
                    Ok(F::negation(F::iff((**p).clone(), (**q).clone())))
                }
                _ => bad("(~ (p <==> q)) or ((p & (~ q)) | ((~ p) & q))"),
            }
        }
        ("neg-bicond", _) => bad("(~ (p <==> q)) or ((p & (~ q)) | ((~ p) & q))"),
        ("from-false", [p]) => Ok(p.clone()),
        ("mt", [F::Imp(p, q), r]) if r.is_complement_of(q) => Ok(F::negation((**p).clone())),
        ("mt", [F::Imp(..), _]) => bad("a second argument complementary to the consequent"),
        ("mt", _) => bad("a conditional as first argument"),
        ("cond-def", [F::Imp(p, q)]) => Ok(F::or(F::negation((**p).clone()), (**q).clone())),
        ("cond-def", [F::Or(np, q)]) if matches!(**np, F::Not(_)) => {
            let F::Not(p) = &**np else { unreachable!() };
            Ok(F::imp((**p).clone(), (**q).clone()))
        }
        ("cond-def", _) => bad("(p ==> q) or ((~ p) | q)"),
        ("bicond-def'", [F::Iff(p, q)]) => {
            let (p, q) = ((**p).clone(), (**q).clone());
            Ok(F::or(
                F::and(p.clone(), q.clone()),
                F::and(F::negation(p), F::negation(q)),
            ))
        }
        ("bicond-def'", [f @ F::Or(..)]) => {
            let F::Or(l, r) = f else { unreachable!() };
            match (&**l, &**r) {
                (F::And(p, q), F::And(np, nq))
                    if **np == F::negation((**p).clone()) && **nq == F::negation((**q).clone()) =>
                {
                    Ok(F::iff((**p).clone(), (**q).clone()))
                }
                _ => bad("(p <==> q) or ((p & q) | ((~ p) & (~ q)))"),
            }
        }
        ("bicond-def'", _) => bad("(p <==> q) or ((p & q) | ((~ p) & (~ q)))"),
        ("from-complements", [p, q, r]) if q.is_complement_of(r) => Ok(p.clone()),
        ("from-complements", _) => bad("complementary second and third arguments"),
        ("by-contradiction", [p, F::Imp(q, f)]) if **f == F::False && q.is_complement_of(p) => {
            Ok(p.clone())
        }
        ("by-contradiction", _) => bad("p and (q ==> false) where q is the complement of p"),
        _ => bad("a different number of arguments"),
    }
}

/// The left/right twin of a projection rule (for lenient repair).
fn twin(rule: &str) -> Option<&'static str> {
    match rule {
        "left-and" => Some("right-and"),
        "right-and" => Some("left-and"),
        "left-either" => Some("right-either"),
        "right-either" => Some("left-either"),
        _ => None,
    }
}

/// A step rule plugged into the checker beside NDL's rule table: NDL_f's
/// `p from j1, ..., jn` (spec §2, implemented in `ndlf.rs`) is one.
/// The checker keeps blocks, `assume`, names and scoping, resolves a step's
/// arguments, and asks the plugged rule first.
pub trait StepRule {
    /// Checks `step` (its arguments already resolved to `args`) if this rule
    /// owns it: `None` when it does not (the checker then looks the rule up
    /// in NDL's table), else the step's conclusion or the error kind and
    /// description. `holds` tells whether a formula holds at this point;
    /// `premises` are the problem's premises.
    fn check_step(
        &self,
        premises: &[Formula],
        holds: &dyn Fn(&Formula) -> bool,
        step: &Step,
        args: &[Formula],
    ) -> Option<Result<Formula, RuleError>>;
}

/// Why a plugged [`StepRule`] refused a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// Error kind.
    pub kind: ErrorKind,
    /// What is wrong.
    pub description: String,
    /// Whether the step breaks a limit that closes a shortcut
    /// ([`CheckError::forbidden`]).
    pub forbidden: bool,
}

impl RuleError {
    /// A step that is wrong (of `kind`) but tries no forbidden shortcut.
    pub fn wrong(kind: ErrorKind, description: impl Into<String>) -> RuleError {
        RuleError {
            kind,
            description: description.into(),
            forbidden: false,
        }
    }

    /// A step past a limit that closes a shortcut (of `kind`).
    pub fn forbidden(kind: ErrorKind, description: impl Into<String>) -> RuleError {
        RuleError {
            kind,
            description: description.into(),
            forbidden: true,
        }
    }
}

struct Checker<'o> {
    /// The plugged step rule (NDL_f, spec §2); `None` for plain NDL.
    rule: Option<&'o dyn StepRule>,
    /// The premises, for the NDL_f premise-conjunct bound.
    premises: Vec<Formula>,
    mode: Mode,
    base: Vec<Formula>,
    env: Vec<(String, Formula)>,
    repairs: Vec<String>,
    steps: usize,
}

fn err<T>(kind: ErrorKind, line: usize, description: impl Into<String>) -> Result<T, CheckError> {
    Err(CheckError {
        kind,
        line,
        description: description.into(),
        forbidden: false,
    })
}

impl Checker<'_> {
    fn holds(&self, f: &Formula) -> bool {
        self.base.iter().rev().any(|b| b == f)
    }

    fn resolve(&self, a: &Arg, line: usize) -> Result<Formula, CheckError> {
        match a {
            Arg::Formula(f) => Ok(f.clone()),
            Arg::Ident(s) => {
                if let Some((_, f)) = self.env.iter().rev().find(|(n, _)| n == s) {
                    Ok(f.clone())
                } else if is_atom_name(s) {
                    Ok(Formula::atom(s))
                } else {
                    err(
                        ErrorKind::Syntax,
                        line,
                        format!("'{s}' is not defined at this point"),
                    )
                }
            }
        }
    }

    fn step(&mut self, s: &Step) -> Result<Formula, CheckError> {
        self.steps += 1;
        let line = s.line;
        let args = s
            .args
            .iter()
            .map(|a| self.resolve(a, line))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(rule) = self.rule
            && let Some(r) = rule.check_step(&self.premises, &|f| self.holds(f), s, &args)
        {
            return r.map_err(|e| CheckError {
                kind: e.kind,
                line,
                description: e.description,
                forbidden: e.forbidden,
            });
        }
        let Some(info) = rule_info(&s.rule) else {
            return err(
                ErrorKind::Syntax,
                line,
                format!("unknown rule '{}'", s.rule),
            );
        };
        if args.len() != info.must_hold.len() {
            return err(
                ErrorKind::Type,
                line,
                format!(
                    "{} takes {} argument(s), given {}",
                    info.name,
                    info.must_hold.len(),
                    args.len()
                ),
            );
        }
        for (i, (a, &must)) in args.iter().zip(info.must_hold).enumerate() {
            if must && !self.holds(a) {
                return err(
                    ErrorKind::Logic,
                    line,
                    format!("argument {} of {}, {a}, does not hold", i + 1, info.name),
                );
            }
        }
        if info.name == "from-false" && !self.holds(&Formula::False) {
            return err(
                ErrorKind::Logic,
                line,
                "from-false needs false in the assumption base",
            );
        }
        let c = apply_schema(info.name, &args).or_else(|e| err(ErrorKind::Type, line, e))?;
        if let Some(p) = &s.conclusion
            && *p != c
        {
            if self.mode == Mode::Lenient {
                if p.strip_double_negations() == c.strip_double_negations() {
                    self.repairs.push(format!(
                        "line {line}: BY conclusion accepted up to double negation"
                    ));
                    return Ok(p.clone());
                }
                if let Some(t) = twin(info.name)
                    && apply_schema(t, &args).ok().as_ref() == Some(p)
                    && args
                        .iter()
                        .zip(rule_info(t).expect("twin exists").must_hold)
                        .all(|(a, &m)| !m || self.holds(a))
                {
                    self.repairs
                        .push(format!("line {line}: {} read as {t}", info.name));
                    return Ok(p.clone());
                }
            }
            return err(
                ErrorKind::Logic,
                line,
                format!("{} yields {c}, not the annotated {p}", info.name),
            );
        }
        Ok(c)
    }

    fn deduction(&mut self, d: &Deduction) -> Result<Formula, CheckError> {
        match d {
            Deduction::Step(s) => self.step(s),
            Deduction::Block { elems, .. } => {
                let (b, e) = (self.base.len(), self.env.len());
                let r = self.block(elems);
                self.base.truncate(b);
                self.env.truncate(e);
                r
            }
            Deduction::Assume {
                name, hyp, body, ..
            }
            | Deduction::SupposeAbsurd {
                name, hyp, body, ..
            } => {
                let (b, e) = (self.base.len(), self.env.len());
                self.base.push(hyp.clone());
                if let Some(n) = name {
                    self.env.push((n.clone(), hyp.clone()));
                }
                let r = self.deduction(body);
                self.base.truncate(b);
                self.env.truncate(e);
                let q = r?;
                if let Deduction::SupposeAbsurd { line, .. } = d {
                    if q != Formula::False {
                        return err(
                            ErrorKind::Logic,
                            *line,
                            format!("the body of suppose-absurd must end in false, not {q}"),
                        );
                    }
                    return Ok(Formula::negation(hyp.clone()));
                }
                Ok(Formula::imp(hyp.clone(), q))
            }
        }
    }

    fn block(&mut self, elems: &[Element]) -> Result<Formula, CheckError> {
        let mut last = None;
        for (i, e) in elems.iter().enumerate() {
            match e {
                Element::Ded { name, ded } => {
                    let r = self.deduction(ded)?;
                    self.base.push(r.clone());
                    if let Some(n) = name {
                        self.env.push((n.clone(), r.clone()));
                    }
                    last = Some(r);
                }
                Element::Def {
                    line,
                    name,
                    formula,
                } => {
                    if i + 1 == elems.len() {
                        return err(
                            ErrorKind::Syntax,
                            *line,
                            "a definition cannot be the last element of a block",
                        );
                    }
                    self.env.push((name.clone(), formula.clone()));
                }
                Element::Gap { line, label } => {
                    return err(ErrorKind::Syntax, *line, format!("unfilled gap {label}"));
                }
            }
        }
        Ok(last.expect("blocks are non-empty"))
    }
}

/// Checks a parsed proof against named premises and a goal.
pub fn check_parsed(
    premises: &[(String, Formula)],
    goal: &Formula,
    proof: &Deduction,
    mode: Mode,
) -> Report {
    check_parsed_with(premises, goal, proof, mode, None)
}

/// [`check_parsed`] with a step rule plugged in (`None`: plain NDL; NDL_f
/// passes its options, see [`StepRule`]).
pub fn check_parsed_with(
    premises: &[(String, Formula)],
    goal: &Formula,
    proof: &Deduction,
    mode: Mode,
    rule: Option<&dyn StepRule>,
) -> Report {
    let mut c = Checker {
        rule,
        premises: premises.iter().map(|(_, f)| f.clone()).collect(),
        mode,
        base: premises.iter().map(|(_, f)| f.clone()).collect(),
        env: premises.to_vec(),
        repairs: Vec::new(),
        steps: 0,
    };
    let result = c.deduction(proof).and_then(|r| {
        if r == *goal {
            Ok(r)
        } else if mode == Mode::Lenient
            && r.strip_double_negations() == goal.strip_double_negations()
        {
            c.repairs
                .push("final conclusion accepted up to double negation".into());
            Ok(goal.clone())
        } else {
            err(
                ErrorKind::Logic,
                0,
                format!("the proof concludes {r}, not the goal {goal}"),
            )
        }
    });
    Report {
        result,
        repairs: c.repairs,
        steps: c.steps,
    }
}

/// Parses and checks NDL proof text. Parse errors are syntax errors at
/// their line.
pub fn check_text(
    premises: &[(String, Formula)],
    goal: &Formula,
    text: &str,
    mode: Mode,
) -> Report {
    check_text_with(premises, goal, text, mode, Dialect::Ndl, None)
}

/// [`check_text`] in a parser dialect with a step rule plugged in (NDL_f
/// passes its dialect and options). Lenient mode reads a brace-less
/// top-level sequence as a block and accepts a final result equal to the
/// goal up to double negation.
pub fn check_text_with(
    premises: &[(String, Formula)],
    goal: &Formula,
    text: &str,
    mode: Mode,
    dialect: Dialect,
    rule: Option<&dyn StepRule>,
) -> Report {
    match parse_proof_in(text, mode == Mode::Lenient, dialect) {
        Ok(d) => check_parsed_with(premises, goal, &d, mode, rule),
        Err(e) => Report {
            result: Err(CheckError {
                kind: ErrorKind::Syntax,
                line: e.line,
                description: e.message,
                forbidden: false,
            }),
            repairs: Vec::new(),
            steps: 0,
        },
    }
}

/// Premise names as in the prompts: `premise-1`, `premise-2`, ...
pub fn named_premises(premises: &[Formula]) -> Vec<(String, Formula)> {
    premises
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("premise-{}", i + 1), p.clone()))
        .collect()
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
