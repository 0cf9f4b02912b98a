//! Re-checking a clausification derivation (FOF formulas to clauses) with
//! the checker's own formula reader. What is certified and what is not:
//!
//! - **`clausify` steps are certified exactly.** Each clause must be a
//!   variant of its recorded `raw` form, and `raw` must follow
//!   propositionally from its parent lines with their leading universal
//!   quantifiers removed (they share variable names): the parents' matrices
//!   together with the negation of `raw` must be propositionally
//!   unsatisfiable, atoms compared as text (equations unordered). That
//!   covers distribution, the definitions introduced for it, and the merging
//!   of repeated literals; a universal closure of a propositional
//!   consequence is a first-order consequence.
//! - **Structure is certified**: names are unique, every parent is an
//!   earlier line, every formula reads, every rule is known.
//! - **Only equisatisfiable, and not re-checked: `skolemize` and
//!   `definition` lines.** A Skolemised formula is not a consequence of its
//!   premise, and an introduced definition is no consequence at all; both
//!   extend the signature conservatively (every model of the premise
//!   expands to one of the result), which a checker cannot confirm from the
//!   texts without re-doing the transformation. They are counted as trusted.
//! - **Equivalences not re-checked: `fof_nnf`, `shift_quantors`,
//!   `variable_rename`, `assume_negation`.** They are first-order
//!   equivalences (negation normal form, quantifier scope, renaming, the
//!   negated conjecture) whose check would need first-order reasoning;
//!   they are counted as trusted too.

use super::problem::{CheckError, err};
use crate::certificate::Clausification;
use std::collections::HashMap;

/// What a clausification check established.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClausificationChecked {
    /// Clauses certified (variant of `raw`, `raw` a propositional
    /// consequence of its parents).
    pub clauses: usize,
    /// Lines taken on trust, by rule (see the module notes).
    pub trusted: Vec<(String, usize)>,
}

/// Most propositional branches explored per clause before giving up.
const MAX_BRANCHES: usize = 1 << 16;

const RULES: [&str; 7] = [
    "input",
    "definition",
    "assume_negation",
    "fof_nnf",
    "shift_quantors",
    "skolemize",
    "variable_rename",
];

/// A formula over atoms named by their text.
#[derive(Clone, Debug, PartialEq)]
enum F {
    Const(bool),
    Atom(String),
    Not(Box<F>),
    And(Vec<F>),
    Or(Vec<F>),
    Imp(Box<F>, Box<F>),
    Iff(Box<F>, Box<F>),
    Quant(bool, Box<F>),
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Sym(&'static str),
}

fn lex(text: &str) -> Result<Vec<Tok>, CheckError> {
    const SYMS: [&str; 18] = [
        "<~>", "<=>", "=>", "<=", "~|", "~&", "!=", "(", ")", "[", "]", ",", ":", "&", "|", "~",
        "=", "!",
    ];
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c == '?' {
            out.push(Tok::Sym("?"));
            i += 1;
        } else if let Some(s) = SYMS.iter().find(|s| text[i..].starts_with(**s)) {
            out.push(Tok::Sym(s));
            i += s.len();
        } else if c == '\'' || c == '"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != c as u8 {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            if i >= b.len() {
                return err(format!("unterminated quoted name in `{}`", short(text)));
            }
            i += 1;
            out.push(Tok::Word(text[start..i].to_string()));
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '-' || c == '+' {
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b"_$./+-".contains(&b[i])) {
                i += 1;
            }
            out.push(Tok::Word(text[start..i].to_string()));
        } else {
            return err(format!("unexpected `{c}` in formula `{}`", short(text)));
        }
    }
    Ok(out)
}

fn short(text: &str) -> String {
    text.chars().take(80).collect()
}

/// A recursive-descent reader of TPTP FOF formulas (the BNF's unitary /
/// binary structure), atoms kept as canonical text.
struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn is(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Sym(t)) if *t == s)
    }

    fn expect(&mut self, s: &str) -> Result<(), CheckError> {
        if self.is(s) {
            self.pos += 1;
            Ok(())
        } else {
            err(format!("expected `{s}` at token {}", self.pos))
        }
    }

    fn formula(&mut self) -> Result<F, CheckError> {
        let first = self.unit()?;
        for op in ["&", "|"] {
            if self.is(op) {
                let mut fs = vec![first];
                while self.is(op) {
                    self.pos += 1;
                    fs.push(self.unit()?);
                }
                return Ok(if op == "&" { F::And(fs) } else { F::Or(fs) });
            }
        }
        let op = match self.peek() {
            Some(Tok::Sym(s @ ("=>" | "<=" | "<=>" | "<~>" | "~|" | "~&"))) => *s,
            _ => return Ok(first),
        };
        self.pos += 1;
        let second = self.unit()?;
        let (a, b) = (Box::new(first), Box::new(second));
        Ok(match op {
            "=>" => F::Imp(a, b),
            "<=" => F::Imp(b, a),
            "<=>" => F::Iff(a, b),
            "<~>" => F::Not(Box::new(F::Iff(a, b))),
            "~|" => F::Not(Box::new(F::Or(vec![*a, *b]))),
            _ => F::Not(Box::new(F::And(vec![*a, *b]))),
        })
    }

    fn unit(&mut self) -> Result<F, CheckError> {
        self.depth += 1;
        if self.depth > super::MAX_TERM_DEPTH {
            return err("formula nested too deeply");
        }
        let f = self.unit_inner();
        self.depth -= 1;
        f
    }

    fn unit_inner(&mut self) -> Result<F, CheckError> {
        match self.peek().cloned() {
            Some(Tok::Sym("~")) => {
                self.pos += 1;
                Ok(F::Not(Box::new(self.unit()?)))
            }
            Some(Tok::Sym(q @ ("!" | "?"))) => {
                self.pos += 1;
                self.expect("[")?;
                loop {
                    match self.peek() {
                        Some(Tok::Word(_)) => self.pos += 1,
                        _ => return err("expected a variable in a quantifier list"),
                    }
                    if self.is(",") {
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                self.expect("]")?;
                self.expect(":")?;
                Ok(F::Quant(q == "!", Box::new(self.unit()?)))
            }
            Some(Tok::Sym("(")) => {
                self.pos += 1;
                let f = self.formula()?;
                self.expect(")")?;
                Ok(f)
            }
            Some(Tok::Word(_)) => self.atom(),
            _ => err(format!("expected a formula at token {}", self.pos)),
        }
    }

    fn term(&mut self, out: &mut String) -> Result<(), CheckError> {
        self.depth += 1;
        if self.depth > super::MAX_TERM_DEPTH {
            return err("term nested too deeply");
        }
        let Some(Tok::Word(w)) = self.peek().cloned() else {
            return err(format!("expected a term at token {}", self.pos));
        };
        self.pos += 1;
        out.push_str(&w);
        if self.is("(") {
            self.pos += 1;
            out.push('(');
            loop {
                self.term(out)?;
                if self.is(",") {
                    self.pos += 1;
                    out.push(',');
                } else {
                    break;
                }
            }
            self.expect(")")?;
            out.push(')');
        }
        self.depth -= 1;
        Ok(())
    }

    fn atom(&mut self) -> Result<F, CheckError> {
        let mut lhs = String::new();
        self.term(&mut lhs)?;
        let neg = match self.peek() {
            Some(Tok::Sym("=")) => false,
            Some(Tok::Sym("!=")) => true,
            _ => {
                return Ok(match lhs.as_str() {
                    "$true" => F::Const(true),
                    "$false" => F::Const(false),
                    _ => F::Atom(lhs),
                });
            }
        };
        self.pos += 1;
        let mut rhs = String::new();
        self.term(&mut rhs)?;
        // Equations are unordered.
        let (a, b) = if lhs <= rhs { (lhs, rhs) } else { (rhs, lhs) };
        let eq = F::Atom(format!("{a}={b}"));
        Ok(if neg { F::Not(Box::new(eq)) } else { eq })
    }
}

fn parse(text: &str) -> Result<F, CheckError> {
    let mut p = Parser {
        toks: lex(text)?,
        pos: 0,
        depth: 0,
    };
    let f = p.formula()?;
    if p.pos != p.toks.len() {
        return err(format!("trailing text in formula `{}`", short(text)));
    }
    Ok(f)
}

/// The matrix under leading universal quantifiers; `None` if a quantifier
/// remains inside.
fn matrix(f: &F) -> Option<&F> {
    let mut f = f;
    while let F::Quant(true, g) = f {
        f = g;
    }
    fn qfree(f: &F) -> bool {
        match f {
            F::Const(_) | F::Atom(_) => true,
            F::Not(g) => qfree(g),
            F::And(fs) | F::Or(fs) => fs.iter().all(qfree),
            F::Imp(a, b) | F::Iff(a, b) => qfree(a) && qfree(b),
            F::Quant(..) => false,
        }
    }
    qfree(f).then_some(f)
}

/// Three-valued evaluation under a partial assignment.
fn eval(f: &F, a: &HashMap<String, bool>) -> Option<bool> {
    match f {
        F::Const(b) => Some(*b),
        F::Atom(x) => a.get(x.as_str()).copied(),
        F::Not(g) => eval(g, a).map(|b| !b),
        F::And(fs) => {
            let mut unknown = false;
            for g in fs {
                match eval(g, a) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            (!unknown).then_some(true)
        }
        F::Or(fs) => {
            let mut unknown = false;
            for g in fs {
                match eval(g, a) {
                    Some(true) => return Some(true),
                    None => unknown = true,
                    Some(false) => {}
                }
            }
            (!unknown).then_some(false)
        }
        F::Imp(x, y) => match (eval(x, a), eval(y, a)) {
            (Some(false), _) | (_, Some(true)) => Some(true),
            (Some(true), Some(false)) => Some(false),
            _ => None,
        },
        F::Iff(x, y) => Some(eval(x, a)? == eval(y, a)?),
        F::Quant(..) => None,
    }
}

/// Negation normal form of a quantifier-free formula (negated when
/// `!pos`): only atoms, negated atoms, constants, `And` and `Or` remain.
fn nnf(f: &F, pos: bool) -> F {
    match f {
        F::Const(b) => F::Const(*b == pos),
        F::Atom(_) if pos => f.clone(),
        F::Atom(_) => F::Not(Box::new(f.clone())),
        F::Not(g) => nnf(g, !pos),
        F::And(fs) | F::Or(fs) => {
            let gs = fs.iter().map(|g| nnf(g, pos)).collect();
            if matches!(f, F::And(_)) == pos {
                F::And(gs)
            } else {
                F::Or(gs)
            }
        }
        F::Imp(x, y) => nnf(&F::Or(vec![F::Not(x.clone()), (**y).clone()]), pos),
        F::Iff(x, y) => {
            let (nx, ny) = (F::Not(x.clone()), F::Not(y.clone()));
            let (x, y) = ((**x).clone(), (**y).clone());
            let g = if pos {
                F::And(vec![F::Or(vec![nx, y]), F::Or(vec![x, ny])])
            } else {
                F::And(vec![F::Or(vec![x, y]), F::Or(vec![nx, ny])])
            };
            nnf(&g, true)
        }
        // Not reached: callers pass matrices.
        F::Quant(..) => F::Const(!pos),
    }
}

/// The atom and sign of a literal of an NNF formula.
fn literal(f: &F) -> Option<(&str, bool)> {
    match f {
        F::Atom(x) => Some((x, true)),
        F::Not(g) => match g.as_ref() {
            F::Atom(x) => Some((x, false)),
            _ => None,
        },
        _ => None,
    }
}

/// Some atom of `f` without a value in `a`.
fn unassigned<'a>(f: &'a F, a: &HashMap<String, bool>) -> Option<&'a str> {
    match f {
        F::Atom(x) => (!a.contains_key(x)).then_some(x.as_str()),
        F::Not(g) => unassigned(g, a),
        F::And(fs) | F::Or(fs) => fs.iter().find_map(|g| unassigned(g, a)),
        _ => None,
    }
}

/// Whether some extension of `a` makes every NNF formula of `goals` true:
/// DPLL over formulas, with the unit rule (a disjunction with one
/// undecided member makes it a goal) and conjunctions split into goals.
/// `Err` when the branch budget runs out.
fn satisfiable(
    mut goals: Vec<F>,
    mut a: HashMap<String, bool>,
    budget: &mut usize,
) -> Result<bool, ()> {
    if *budget == 0 {
        return Err(());
    }
    *budget -= 1;
    loop {
        let mut changed = false;
        let mut next = Vec::with_capacity(goals.len());
        for g in goals {
            match eval(&g, &a) {
                Some(false) => return Ok(false),
                Some(true) => changed = true,
                None => {
                    if let Some((x, pos)) = literal(&g) {
                        a.insert(x.to_string(), pos);
                        changed = true;
                    } else {
                        match g {
                            F::And(fs) => {
                                next.extend(fs);
                                changed = true;
                            }
                            F::Or(fs) => {
                                let mut open: Vec<F> = fs
                                    .into_iter()
                                    .filter(|h| eval(h, &a) != Some(false))
                                    .collect();
                                if open.len() == 1 {
                                    next.push(open.pop().unwrap_or(F::Const(false)));
                                    changed = true;
                                } else {
                                    next.push(F::Or(open));
                                }
                            }
                            g => next.push(g),
                        }
                    }
                }
            }
        }
        goals = next;
        if !changed {
            break;
        }
    }
    let Some(x) = goals
        .iter()
        .find_map(|g| unassigned(g, &a))
        .map(str::to_string)
    else {
        return Ok(goals.iter().all(|g| eval(g, &a) == Some(true)));
    };
    for v in [true, false] {
        let mut b = a.clone();
        b.insert(x.clone(), v);
        if satisfiable(goals.clone(), b, budget)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Checks a clausification derivation (see the module notes).
pub fn check_clausification(c: &Clausification) -> Result<ClausificationChecked, CheckError> {
    let mut formulas: HashMap<&str, F> = HashMap::new();
    let mut trusted: Vec<(String, usize)> = Vec::new();
    for l in &c.lines {
        if formulas.contains_key(l.name.as_str()) {
            return err(format!("line {} is defined twice", l.name));
        }
        if !RULES.contains(&l.rule.as_str()) {
            return err(format!("line {}: unknown rule {}", l.name, l.rule));
        }
        let leaf = matches!(l.rule.as_str(), "input" | "definition");
        if leaf != l.parents.is_empty() {
            return err(format!(
                "line {}: rule {} with {} parent(s)",
                l.name,
                l.rule,
                l.parents.len()
            ));
        }
        if let Some(p) = l
            .parents
            .iter()
            .find(|p| !formulas.contains_key(p.as_str()))
        {
            return err(format!(
                "line {}: parent {p} is not an earlier line",
                l.name
            ));
        }
        let f =
            parse(&l.formula).map_err(|e| CheckError::refused(format!("line {}: {e}", l.name)))?;
        formulas.insert(&l.name, f);
        if l.rule != "input" {
            match trusted.iter_mut().find(|(r, _)| *r == l.rule) {
                Some((_, n)) => *n += 1,
                None => trusted.push((l.rule.clone(), 1)),
            }
        }
    }
    let mut syms = super::terms::Syms::default();
    for (i, cl) in c.clauses.iter().enumerate() {
        let what = || format!("clause {} ({})", i + 1, short(&cl.clause));
        let stated = super::parse::parse_clause(&mut syms, &cl.clause)?;
        let raw_clause = super::parse::parse_clause(&mut syms, &cl.raw)?;
        if !super::terms::variant(&stated, &raw_clause)? {
            return err(format!(
                "{}: not a variant of its raw form {}",
                what(),
                cl.raw
            ));
        }
        let raw = parse(&cl.raw)?;
        let mut premises = Vec::new();
        for p in &cl.parents {
            let f = formulas
                .get(p.as_str())
                .ok_or_else(|| CheckError::refused(format!("{}: unknown parent {p}", what())))?;
            let m = matrix(f).ok_or_else(|| {
                CheckError::refused(format!(
                    "{}: parent {p} is not quantifier-free under universal quantifiers",
                    what()
                ))
            })?;
            premises.push(m);
        }
        // Assume the clause false: every literal of `raw` false.
        let lits: Vec<&F> = match &raw {
            F::Or(ls) => ls.iter().collect(),
            F::Const(false) => Vec::new(),
            l => vec![l],
        };
        let mut a: HashMap<String, bool> = HashMap::new();
        let mut tautology = false;
        for l in lits {
            let (atom, pos) = match l {
                F::Atom(x) => (x.as_str(), true),
                F::Not(g) => match g.as_ref() {
                    F::Atom(x) => (x.as_str(), false),
                    _ => return err(format!("{}: raw form is not a clause", what())),
                },
                _ => return err(format!("{}: raw form is not a clause", what())),
            };
            // Complementary literals: a tautology, implied by anything.
            tautology |= a.insert(atom.to_string(), !pos).is_some_and(|v| v == pos);
        }
        if tautology {
            continue;
        }
        let goals: Vec<F> = premises.iter().map(|m| nnf(m, true)).collect();
        let mut budget = MAX_BRANCHES;
        match satisfiable(goals, a, &mut budget) {
            Ok(false) => {}
            Ok(true) => {
                return err(format!(
                    "{}: does not follow propositionally from {}",
                    what(),
                    cl.parents.join(", ")
                ));
            }
            Err(()) => {
                return Err(CheckError::exhausted(format!(
                    "{}: propositional check over {MAX_BRANCHES} branches",
                    what()
                )));
            }
        }
    }
    Ok(ClausificationChecked {
        clauses: c.clauses.len(),
        trusted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificate::{ClausifiedClause, FormulaStep};

    fn step(name: &str, formula: &str, rule: &str, parents: &[&str]) -> FormulaStep {
        FormulaStep {
            name: name.into(),
            formula: formula.into(),
            rule: rule.into(),
            parents: parents.iter().map(|p| p.to_string()).collect(),
        }
    }

    fn clause(clause: &str, raw: &str, parents: &[&str]) -> ClausifiedClause {
        ClausifiedClause {
            clause: clause.into(),
            raw: raw.into(),
            parents: parents.iter().map(|p| p.to_string()).collect(),
        }
    }

    /// `p(X) <=> (q(X) & r(X))`, Skolem-free, with a named conjunction.
    fn derivation() -> Clausification {
        Clausification {
            lines: vec![
                step("f1", "! [X0] : ((p(X0) <=> (q(X0) & r(X0))))", "input", &[]),
                step(
                    "f2",
                    "! [X0] : (((~p(X0) | (q(X0) & r(X0))) & (p(X0) | (~q(X0) | ~r(X0)))))",
                    "fof_nnf",
                    &["f1"],
                ),
                step(
                    "f3",
                    "! [X0] : ((def1(X0) <=> (q(X0) & r(X0))))",
                    "definition",
                    &[],
                ),
            ],
            clauses: vec![
                clause("~p(X3) | q(X3)", "~p(X0) | q(X0)", &["f2"]),
                clause(
                    "p(X1) | ~q(X1) | ~r(X1)",
                    "p(X0) | ~q(X0) | ~r(X0)",
                    &["f2"],
                ),
                clause("~def1(X0) | r(X0)", "~def1(X0) | r(X0)", &["f3"]),
                clause(
                    "~q(X0) | ~r(X0) | def1(X0)",
                    "def1(X0) | ~q(X0) | ~r(X0)",
                    &["f3"],
                ),
            ],
        }
    }

    #[test]
    fn a_correct_clausification_is_certified_and_trust_is_counted() {
        // Stated clauses may name variables their own way; raw forms share
        // the parents' variable names.
        let c = check_clausification(&derivation()).unwrap();
        assert_eq!(c.clauses, 4);
        assert_eq!(
            c.trusted,
            [("fof_nnf".to_string(), 1), ("definition".to_string(), 1)]
        );
    }

    #[test]
    fn a_clause_that_does_not_follow_is_refused() {
        let mut d = derivation();
        d.clauses[0] = clause("~p(X0)", "~p(X0)", &["f2"]);
        let e = check_clausification(&d).unwrap_err();
        assert!(e.message.contains("does not follow propositionally"), "{e}");
        // Variable names matter: X1 is not the parents' X0.
        let mut d = derivation();
        d.clauses[0] = clause("~p(X0) | q(X1)", "~p(X0) | q(X1)", &["f2"]);
        assert!(check_clausification(&d).is_err());
    }

    #[test]
    fn a_stated_clause_must_be_a_variant_of_its_raw_form() {
        let mut d = derivation();
        d.clauses[0] = clause("~p(X0) | q(a)", "~p(X0) | q(X0)", &["f2"]);
        let e = check_clausification(&d).unwrap_err();
        assert!(e.message.contains("not a variant"), "{e}");
    }

    #[test]
    fn structure_is_checked() {
        let mut d = derivation();
        d.lines[1].parents = vec!["f9".into()];
        assert!(
            check_clausification(&d)
                .unwrap_err()
                .message
                .contains("not an earlier line")
        );
        let mut d = derivation();
        d.lines[1].rule = "magic".into();
        assert!(
            check_clausification(&d)
                .unwrap_err()
                .message
                .contains("unknown rule")
        );
        let mut d = derivation();
        d.lines[0].formula = "! [X0] : (p(X0) &".into();
        assert!(check_clausification(&d).is_err());
        // A clause cannot rest on a formula with quantifiers inside.
        let mut d = derivation();
        d.lines[2].formula = "! [X0] : (? [X1] : (def1(X0) <=> q(X1)))".into();
        assert!(
            check_clausification(&d)
                .unwrap_err()
                .message
                .contains("quantifier-free")
        );
    }

    #[test]
    fn formulas_read_to_the_bnf_connectives() {
        for (text, ok) in [
            ("(p <~> q)", true),
            ("(p ~| q)", true),
            ("(p ~& q)", true),
            ("(q <= p)", true),
            ("~ ~ p", true),
            ("a != b", true),
            ("(p & q | r)", false),
            ("p q", false),
        ] {
            assert_eq!(parse(text).is_ok(), ok, "{text}");
        }
        assert_eq!(parse("a = b").unwrap(), parse("b = a").unwrap());
    }
}
