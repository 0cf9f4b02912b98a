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
    ) -> Option<Result<Formula, (ErrorKind, String)>>;
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
            return r.or_else(|(kind, d)| err(kind, line, d));
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
mod tests {
    use super::super::ndl::parse_proof;
    use super::*;

    fn f(s: &str) -> Formula {
        Formula::parse(s).unwrap()
    }

    fn premises(ps: &[&str]) -> Vec<(String, Formula)> {
        named_premises(&ps.iter().map(|p| f(p)).collect::<Vec<_>>())
    }

    /// The paper's sample proof (seed 000, §3), braces restored, with its
    /// comments, lowercase `by` and compact formulas.
    const PAPER_SAMPLE: &str = "{
  # We prove (B | D) by a case analysis on (A | ~ A),
  # which holds by the law of the excluded middle.
  (A | ~ A) BY ex-middle on A;
  # Case 1: Show that A implies (B | D)
  assume A {
    B BY mp on premise-1, A; # So now (B | D) follows by
    # disjunction introduction:
    (B | D) by left-either on B, D
  };
  # Case 2: Show that (~ A) implies (B | D)
  assume (~ A) {
    C BY mp on premise-2, (~ A);
    D BY mp on premise-3, C;
    (B | D) BY right-either on B, D
  };
  # The case analysis is now complete:
  (B | D) BY cases on (A | ~ A),
                      (A ==> B | D),
                      (~A ==> B | D)
}";

    const PAPER_PREMISES: [&str; 3] = ["(A ==> B)", "(~ A ==> C)", "(C ==> D)"];

    #[test]
    fn paper_sample_proof_checks() {
        let ps = premises(&PAPER_PREMISES);
        for mode in [Mode::Strict, Mode::Lenient] {
            let r = check_text(&ps, &f("(B | D)"), PAPER_SAMPLE, mode);
            assert_eq!(r.result, Ok(f("(B | D)")), "{mode:?}");
            assert_eq!(r.steps, 7);
        }
    }

    fn first_error(ps: &[&str], goal: &str, proof: &str) -> (ErrorKind, usize) {
        let e = check_text(&premises(ps), &f(goal), proof, Mode::Strict)
            .result
            .unwrap_err();
        (e.kind, e.line)
    }

    #[test]
    fn error_kinds_and_lines_follow_the_spec() {
        use ErrorKind::*;
        let ps = ["(A & B)", "(A ==> C)"];
        let g = "C";
        // syntax: unknown rule, undefined name, missing ';', definition last.
        assert_eq!(
            first_error(
                &ps,
                g,
                "{\n  A BY and-elim on premise-1;\n  C BY mp on premise-2, A\n}"
            ),
            (Syntax, 2)
        );
        assert_eq!(
            first_error(
                &ps,
                g,
                "{\n  A BY left-and on premise-9;\n  C BY mp on premise-2, A\n}"
            ),
            (Syntax, 2)
        );
        assert_eq!(
            first_error(
                &ps,
                g,
                "{\n  A BY left-and on premise-1\n  C BY mp on premise-2, A\n}"
            ),
            (Syntax, 3)
        );
        assert_eq!(
            first_error(&ps, g, "{\n  A BY left-and on premise-1;\n  x := C\n}"),
            (Syntax, 3)
        );
        // type: arity, schema, cross-argument mismatch.
        assert_eq!(
            first_error(
                &ps,
                g,
                "{\n  A BY left-and on premise-1, premise-1;\n  C BY mp on premise-2, A\n}"
            ),
            (Type, 2)
        );
        assert_eq!(
            first_error(
                &ps,
                g,
                "{\n  A BY dn on premise-1;\n  C BY mp on premise-2, A\n}"
            ),
            (Type, 2)
        );
        assert_eq!(
            first_error(
                &ps,
                g,
                "{\n  B BY right-and on premise-1;\n  C BY mp on premise-2, B\n}"
            ),
            (Type, 3)
        );
        assert_eq!(
            first_error(
                &ps,
                g,
                "{\n  A BY left-and on premise-1;\n  C BY mp on premise-1, A\n}"
            ),
            (Type, 3)
        );
        // logic: argument does not hold, BY mismatch, wrong final result (line 0).
        assert_eq!(
            first_error(&ps, g, "{\n  C BY mp on premise-2, A\n}"),
            (Logic, 2)
        );
        assert_eq!(
            first_error(
                &ps,
                g,
                "{\n  B BY left-and on premise-1;\n  C BY mp on premise-2, A\n}"
            ),
            (Logic, 2)
        );
        assert_eq!(
            first_error(&ps, g, "{\n  A BY left-and on premise-1\n}"),
            (Logic, 0)
        );
        // logic: a lemma used after its block closed.
        assert_eq!(
            first_error(
                &ps,
                g,
                "{\n  assume D {\n    A BY left-and on premise-1\n  };\n  C BY mp on premise-2, A\n}"
            ),
            (Logic, 5)
        );
        // logic: from-false without false; suppose-absurd not ending in false.
        assert_eq!(
            first_error(&ps, g, "{\n  C BY from-false on C\n}"),
            (Logic, 2)
        );
        assert_eq!(
            first_error(
                &ps,
                "(~ D)",
                "suppose-absurd D {\n  A BY left-and on premise-1\n}"
            ),
            (Logic, 1)
        );
        // syntax: an inline subproof as an argument.
        assert_eq!(
            first_error(&ps, g, "{\n  C BY mp on assume A { claim on A }, A\n}").0,
            Syntax
        );
    }

    #[test]
    fn lenient_mode_repairs_only_cosmetic_faults() {
        // The spec's example: strictly mt yields (~ (~ C)), not C.
        let ps = premises(&["((~ C) ==> B)", "(~ B)"]);
        let proof = "C BY mt on premise-1, premise-2";
        assert_eq!(
            check_text(&ps, &f("C"), proof, Mode::Strict)
                .result
                .unwrap_err()
                .kind,
            ErrorKind::Logic
        );
        let r = check_text(&ps, &f("C"), proof, Mode::Lenient);
        assert!(r.ok());
        assert_eq!(r.repairs.len(), 1);
        // A left/right swap that the annotation disambiguates.
        let ps = premises(&["(A & B)"]);
        let r = check_text(&ps, &f("B"), "B BY left-and on premise-1", Mode::Lenient);
        assert!(r.ok() && r.repairs[0].contains("right-and"));
        assert!(!check_text(&ps, &f("B"), "B BY left-and on premise-1", Mode::Strict).ok());
        // A substantive fault is never excused.
        assert!(!check_text(&ps, &f("C"), "C BY left-and on premise-1", Mode::Lenient).ok());
    }

    #[test]
    fn every_rule_has_a_valid_use() {
        // (premises, goal, proof) per rule; each must check strictly.
        let cases: [(&[&str], &str, &str); 25] = [
            (&["A"], "A", "A BY claim on A"),
            (&["(A & B)"], "A", "A BY left-and on (A & B)"),
            (&["(A & B)"], "B", "B BY right-and on (A & B)"),
            (&["A", "B"], "(A & B)", "(A & B) BY both on A, B"),
            (&["(A ==> B)", "A"], "B", "B BY mp on (A ==> B), A"),
            (&["A"], "(A | C)", "(A | C) BY left-either on A, C"),
            (&["A"], "(C | A)", "(C | A) BY right-either on C, A"),
            (
                &["(A | B)", "(A ==> C)", "(B ==> C)"],
                "C",
                "C BY cases on (A | B), (A ==> C), (B ==> C)",
            ),
            (&["A", "(~ A)"], "false", "false BY absurd on (~ A), A"),
            (&["(~ (~ A))"], "A", "A BY dn on (~ (~ A))"),
            (&["(A <==> B)"], "(A ==> B)", "left-iff on (A <==> B)"),
            (&["(A <==> B)"], "(B ==> A)", "right-iff on (A <==> B)"),
            (
                &["(A ==> B)", "(B ==> A)"],
                "(A <==> B)",
                "equiv on (A ==> B), (B ==> A)",
            ),
            (&[], "(C | (~ C))", "ex-middle on C"),
            (&["(~ (A | B))"], "((~ A) & (~ B))", "dm on (~ (A | B))"),
            (&["(A | B)", "(~ A)"], "B", "dsyl on (A | B), (~ A)"),
            (
                &["(~ (A ==> B))"],
                "(A & (~ B))",
                "neg-cond on (~ (A ==> B))",
            ),
            (
                &["((A & (~ B)) | ((~ A) & B))"],
                "(~ (A <==> B))",
                "neg-bicond on ((A & (~ B)) | ((~ A) & B))",
            ),
            (
                &["(A & (~ A))"],
                "B",
                "{ A BY left-and on (A & (~ A)); (~ A) BY right-and on (A & (~ A)); false BY absurd on A, (~ A); B BY from-false on B }",
            ),
            (&["(A ==> B)", "(~ B)"], "(~ A)", "mt on (A ==> B), (~ B)"),
            (&["((~ A) | B)"], "(A ==> B)", "cond-def on ((~ A) | B)"),
            (
                &["(A <==> B)"],
                "((A & B) | ((~ A) & (~ B)))",
                "bicond-def' on (A <==> B)",
            ),
            (&["A", "(~ A)"], "C", "from-complements on C, A, (~ A)"),
            (
                &["((~ A) ==> false)"],
                "A",
                "by-contradiction on A, ((~ A) ==> false)",
            ),
            (
                &["(A & B)"],
                "(~ (~ A))",
                "suppose-absurd (~ A) { A BY left-and on (A & B); false BY absurd on A, (~ A) }",
            ),
        ];
        let mut used = std::collections::BTreeSet::new();
        for (ps, g, proof) in cases {
            let r = check_text(&premises(ps), &f(g), proof, Mode::Strict);
            assert!(r.ok(), "{proof}: {:?}", r.result);
            let mut d = parse_proof(proof, false).unwrap();
            let mut names = Vec::new();
            super::super::ndl::visit_steps(&mut d, &mut |s| names.push(s.rule.clone()));
            used.extend(names);
        }
        let all: std::collections::BTreeSet<String> =
            RULES.iter().map(|r| r.name.to_string()).collect();
        assert_eq!(used, all);
    }
}
