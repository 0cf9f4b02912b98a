//! Syntactic target forms of propositional and first-order formulas (the
//! restatement tasks `roundtrip_pl` and `roundtrip_fol`, after AutoEval,
//! seed 002; issue 49): negation normal form, CNF, DNF, prenex form and
//! restricted sets of connectives, each with a check that names the rule a
//! formula breaks and a conversion that records the laws it applies. This
//! module has the forms and the propositional checks and conversions; the
//! first-order ones are in [`crate::fol::forms`].
//!
//! Every form is closed under subformulas (each subformula of a formula in
//! the form is in the form, and swapping the operands of a connective or
//! renaming a bound variable keeps a formula in or out of it), so a formula
//! that contains a formula outside the form as a subformula is outside it
//! too: the argument is written out in `docs/ARCHITECTURE.md`.
//!
//! Conversions: NNF by pushing negations to the atoms with the De Morgan
//! and implication laws; CNF and DNF from the NNF by distribution over
//! clause sets with tautologies and subsumed clauses removed; the
//! restricted connective sets by the standard definitions of the missing
//! connectives (`A | B` as `~(~A & ~B)`, ...). Each records the names of the
//! laws it applied (the row's `rewrites`).

use crate::prop::formula::{Formula, compact};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A target form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// Negation normal form: `~`, `&`, `|` (and quantifiers), `~` on atoms only.
    Nnf,
    /// Conjunctive normal form: a conjunction of clauses of literals.
    Cnf,
    /// Disjunctive normal form: a disjunction of conjunctions of literals.
    Dnf,
    /// Only `~` and `&` (propositional).
    AndNot,
    /// Only `~` and `|` (propositional).
    OrNot,
    /// Only `~` and `==>` (propositional).
    ImpNot,
    /// Prenex form: quantifiers first, then a quantifier-free formula.
    Prenex,
    /// Only `~`, `&` and `?` (first-order).
    AndNotExists,
    /// Only `~`, `|` and `!` (first-order).
    OrNotForall,
}

/// The propositional targets, in draw order.
pub const PL_TARGETS: [Target; 6] = [
    Target::Nnf,
    Target::Cnf,
    Target::Dnf,
    Target::AndNot,
    Target::OrNot,
    Target::ImpNot,
];

/// The first-order targets, in draw order.
pub const FOL_TARGETS: [Target; 4] = [
    Target::Nnf,
    Target::Prenex,
    Target::AndNotExists,
    Target::OrNotForall,
];

/// Most clauses (or terms) kept while distributing: past it the
/// conversion gives up (the result would be far longer than the formula).
const MAX_CLAUSES: usize = 64;

impl Target {
    /// The name in metadata.
    pub fn name(self) -> &'static str {
        match self {
            Target::Nnf => "nnf",
            Target::Cnf => "cnf",
            Target::Dnf => "dnf",
            Target::AndNot => "and_not",
            Target::OrNot => "or_not",
            Target::ImpNot => "imp_not",
            Target::Prenex => "prenex",
            Target::AndNotExists => "and_not_exists",
            Target::OrNotForall => "or_not_forall",
        }
    }

    /// The target of a metadata name.
    pub fn from_name(name: &str) -> Option<Target> {
        PL_TARGETS
            .iter()
            .chain(&FOL_TARGETS)
            .copied()
            .find(|t| t.name() == name)
    }
}

/// Why the propositional `f` is not in `target`: `None` when it is. The
/// text names the rule broken and the offending subformula.
pub fn pl_violation(target: Target, f: &Formula) -> Option<String> {
    use Formula as F;
    let mut found = None;
    let mut nodes = Vec::new();
    collect(f, &mut nodes);
    for g in &nodes {
        if matches!(g, F::True | F::False) {
            found = Some(format!(
                "it uses the constant {}, which the form does not allow",
                compact(g)
            ));
            break;
        }
    }
    if found.is_some() {
        return found;
    }
    let connective = |g: &Formula| match g {
        F::Not(_) => Some("~"),
        F::And(..) => Some("&"),
        F::Or(..) => Some("|"),
        F::Imp(..) => Some("==>"),
        F::Iff(..) => Some("<==>"),
        _ => None,
    };
    let allowed: &[&str] = match target {
        Target::Nnf | Target::Cnf | Target::Dnf => &["~", "&", "|"],
        Target::AndNot => &["~", "&"],
        Target::OrNot => &["~", "|"],
        Target::ImpNot => &["~", "==>"],
        _ => return Some(format!("{} is not a propositional form", target.name())),
    };
    for g in &nodes {
        if let Some(c) = connective(g)
            && !allowed.contains(&c)
        {
            return Some(format!(
                "it uses {c} (in {}), which {} does not allow",
                compact(g),
                target.name()
            ));
        }
    }
    if matches!(target, Target::Nnf | Target::Cnf | Target::Dnf) {
        for g in &nodes {
            if let F::Not(x) = g
                && !matches!(**x, F::Atom(_))
            {
                return Some(format!(
                    "~ is applied to {}, which is not an atom",
                    compact(x)
                ));
            }
        }
    }
    let (outer, inner) = match target {
        Target::Cnf => (true, "a clause (a disjunction of literals)"),
        Target::Dnf => (false, "a term (a conjunction of literals)"),
        _ => return None,
    };
    let mut parts = Vec::new();
    split(f, outer, &mut parts);
    for p in parts {
        let mut lits = Vec::new();
        split(p, !outer, &mut lits);
        if lits.iter().any(|l| !is_literal(l)) {
            return Some(format!("{} is not {inner}", compact(p)));
        }
    }
    None
}

fn collect<'a>(f: &'a Formula, out: &mut Vec<&'a Formula>) {
    out.push(f);
    match f {
        Formula::Not(a) => collect(a, out),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Imp(a, b) | Formula::Iff(a, b) => {
            collect(a, out);
            collect(b, out);
        }
        _ => {}
    }
}

/// The operands of a chain of `&` (`and`) or of `|`, however grouped.
fn split<'a>(f: &'a Formula, and: bool, out: &mut Vec<&'a Formula>) {
    match (f, and) {
        (Formula::And(a, b), true) | (Formula::Or(a, b), false) => {
            split(a, and, out);
            split(b, and, out);
        }
        _ => out.push(f),
    }
}

fn is_literal(f: &Formula) -> bool {
    match f {
        Formula::Atom(_) => true,
        Formula::Not(a) => matches!(**a, Formula::Atom(_)),
        _ => false,
    }
}

/// `f` converted to `target` (a propositional one), with the names of the
/// laws applied; `None` when a CNF or DNF would need more than
/// `MAX_CLAUSES` clauses or is empty (a valid or unsatisfiable formula).
pub fn pl_convert(target: Target, f: &Formula) -> Option<(Formula, Vec<&'static str>)> {
    let mut steps = Vec::new();
    let g = match target {
        Target::Nnf => nnf(f, true, &mut steps),
        Target::Cnf => {
            let n = nnf(f, true, &mut steps);
            from_sets(&cnf_sets(&n, &mut steps)?, true)?
        }
        Target::Dnf => {
            // The DNF of f is the CNF of ~f with every literal complemented.
            let n = nnf(f, false, &mut steps);
            from_sets(&cnf_sets(&n, &mut steps)?, false)?
        }
        Target::AndNot | Target::OrNot | Target::ImpNot => restrict(target, f, &mut steps),
        _ => return None,
    };
    Some((g, steps))
}

/// The negation normal form of `f` (of `~f` when `!positive`).
fn nnf(f: &Formula, positive: bool, steps: &mut Vec<&'static str>) -> Formula {
    use Formula as F;
    match (f, positive) {
        (F::Atom(_), true) => f.clone(),
        (F::Atom(_), false) => F::negation(f.clone()),
        (F::True, p) | (F::False, p) => {
            if p == matches!(f, F::True) {
                F::True
            } else {
                F::False
            }
        }
        (F::Not(a), p) => {
            if !p {
                steps.push("double_negation");
            }
            nnf(a, !p, steps)
        }
        (F::And(a, b), true) => F::and(nnf(a, true, steps), nnf(b, true, steps)),
        (F::Or(a, b), true) => F::or(nnf(a, true, steps), nnf(b, true, steps)),
        (F::And(a, b), false) => {
            steps.push("de_morgan");
            F::or(nnf(a, false, steps), nnf(b, false, steps))
        }
        (F::Or(a, b), false) => {
            steps.push("de_morgan");
            F::and(nnf(a, false, steps), nnf(b, false, steps))
        }
        (F::Imp(a, b), true) => {
            steps.push("implication");
            F::or(nnf(a, false, steps), nnf(b, true, steps))
        }
        (F::Imp(a, b), false) => {
            steps.push("negated_implication");
            F::and(nnf(a, true, steps), nnf(b, false, steps))
        }
        (F::Iff(a, b), true) => {
            steps.push("iff_split");
            F::and(
                F::or(nnf(a, false, steps), nnf(b, true, steps)),
                F::or(nnf(a, true, steps), nnf(b, false, steps)),
            )
        }
        (F::Iff(a, b), false) => {
            steps.push("negated_iff_split");
            F::and(
                F::or(nnf(a, true, steps), nnf(b, true, steps)),
                F::or(nnf(a, false, steps), nnf(b, false, steps)),
            )
        }
    }
}

/// A literal: an atom and its sign.
type Lit = (String, bool);
/// A clause (or a term of a DNF): a set of literals.
type Clause = BTreeSet<Lit>;

/// The clause set of an NNF formula: tautological clauses dropped, and
/// clauses that another one subsumes. `None` past `MAX_CLAUSES`.
fn cnf_sets(f: &Formula, steps: &mut Vec<&'static str>) -> Option<Vec<Clause>> {
    use Formula as F;
    Some(match f {
        F::Atom(a) => vec![Clause::from([(a.clone(), true)])],
        F::Not(x) => match &**x {
            F::Atom(a) => vec![Clause::from([(a.clone(), false)])],
            _ => return None,
        },
        F::True => vec![],
        F::False => vec![Clause::new()],
        F::And(a, b) => {
            let mut s = cnf_sets(a, steps)?;
            s.extend(cnf_sets(b, steps)?);
            simplify(s)?
        }
        F::Or(a, b) => {
            let (sa, sb) = (cnf_sets(a, steps)?, cnf_sets(b, steps)?);
            if sa.len() > 1 || sb.len() > 1 {
                steps.push("distribute");
            }
            let mut s = Vec::new();
            for x in &sa {
                for y in &sb {
                    let c: Clause = x.union(y).cloned().collect();
                    if !c.iter().any(|(a, v)| c.contains(&(a.clone(), !v))) {
                        s.push(c);
                    }
                }
            }
            simplify(s)?
        }
        _ => return None,
    })
}

fn simplify(mut s: Vec<Clause>) -> Option<Vec<Clause>> {
    s.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    s.dedup();
    let mut kept: Vec<Clause> = Vec::new();
    for c in s {
        if !kept.iter().any(|k| k.is_subset(&c)) {
            kept.push(c);
        }
    }
    (kept.len() <= MAX_CLAUSES).then_some(kept)
}

/// A CNF (`cnf`) from its clauses, or a DNF from the clauses of the
/// negation (each literal complemented, `&` and `|` exchanged). `None`
/// for no clause or an empty clause (a constant).
fn from_sets(s: &[Clause], cnf: bool) -> Option<Formula> {
    if s.is_empty() || s.iter().any(|c| c.is_empty()) {
        return None;
    }
    let join = |parts: Vec<Formula>, and: bool| {
        let mut it = parts.into_iter().rev();
        let last = it.next().expect("non-empty");
        it.fold(last, |acc, p| {
            if and {
                Formula::and(p, acc)
            } else {
                Formula::or(p, acc)
            }
        })
    };
    let parts = s
        .iter()
        .map(|c| {
            let lits = c
                .iter()
                .map(|(a, v)| {
                    if *v == cnf {
                        Formula::atom(a)
                    } else {
                        Formula::negation(Formula::atom(a))
                    }
                })
                .collect();
            join(lits, !cnf)
        })
        .collect();
    Some(join(parts, cnf))
}

/// `f` over a restricted set of connectives, each missing one by its
/// definition; negations are complemented (no double negation is built).
fn restrict(target: Target, f: &Formula, steps: &mut Vec<&'static str>) -> Formula {
    use Formula as F;
    let mut t = |g: &Formula| restrict(target, g, steps);
    let not = |g: Formula| g.complement();
    match f {
        F::True | F::False | F::Atom(_) => f.clone(),
        F::Not(a) => not(t(a)),
        F::And(a, b) => {
            let (x, y) = (t(a), t(b));
            match target {
                Target::AndNot => F::and(x, y),
                Target::OrNot => {
                    steps.push("de_morgan");
                    not(F::or(not(x), not(y)))
                }
                _ => {
                    steps.push("and_as_implication");
                    not(F::imp(x, not(y)))
                }
            }
        }
        F::Or(a, b) => {
            let (x, y) = (t(a), t(b));
            match target {
                Target::AndNot => {
                    steps.push("de_morgan");
                    not(F::and(not(x), not(y)))
                }
                Target::OrNot => F::or(x, y),
                _ => {
                    steps.push("implication");
                    F::imp(not(x), y)
                }
            }
        }
        F::Imp(a, b) => {
            let (x, y) = (t(a), t(b));
            match target {
                Target::AndNot => {
                    steps.push("implication_as_and");
                    not(F::and(x, not(y)))
                }
                Target::OrNot => {
                    steps.push("implication");
                    F::or(not(x), y)
                }
                _ => F::imp(x, y),
            }
        }
        F::Iff(a, b) => {
            let (x, y) = (t(a), t(b));
            steps.push("iff_split");
            match target {
                Target::AndNot => F::and(
                    not(F::and(x.clone(), not(y.clone()))),
                    not(F::and(y, not(x))),
                ),
                Target::OrNot => {
                    F::or(not(F::or(not(x.clone()), not(y.clone()))), not(F::or(x, y)))
                }
                _ => not(F::imp(F::imp(x.clone(), y.clone()), not(F::imp(y, x)))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prop::equivalence::decide;

    /// Reads `s` as the restatement scorer reads an answer: a complex
    /// formula without outer parentheses as if it had them.
    fn p(s: &str) -> Formula {
        Formula::parse(s)
            .or_else(|_| Formula::parse(&format!("({s})")))
            .unwrap()
    }

    #[test]
    fn conversions_are_equivalent_and_in_their_form() {
        // A valid formula has no CNF (no clause) here: the rows' formulas
        // are contingent.
        assert!(pl_convert(Target::Cnf, &p("(~(P & Q) | (R ==> P))")).is_none());
        let fs = [
            "(~(P & Q) | (R ==> S))",
            "((P | Q) & (P | R))",
            "(P <==> ~(Q | R))",
            "(~(P <==> Q) & ~~R)",
            "((P | ~Q | R) & (~P | Q | S))",
            "~((P ==> Q) <==> (R | ~S))",
        ];
        for s in fs {
            let f = p(s);
            for t in PL_TARGETS {
                let (g, _) = pl_convert(t, &f).unwrap_or_else(|| panic!("{t:?} of {s}"));
                assert_eq!(pl_violation(t, &g), None, "{t:?} of {s}: {}", compact(&g));
                assert!(decide(&f, &g).is_ok(), "{t:?} of {s}: {}", compact(&g));
            }
        }
    }

    #[test]
    fn forms_are_checked_on_the_tree() {
        let cnf = p("((P | ~Q) & R & (~R | Q))");
        assert_eq!(pl_violation(Target::Cnf, &cnf), None);
        assert_eq!(pl_violation(Target::Nnf, &cnf), None);
        assert!(
            pl_violation(Target::Dnf, &cnf)
                .unwrap()
                .contains("not a term")
        );
        assert!(
            pl_violation(Target::AndNot, &cnf)
                .unwrap()
                .contains("uses |")
        );
        // Left-grouped chains are read the same as right-grouped ones.
        assert_eq!(pl_violation(Target::Cnf, &p("(((P | Q) | R) & S)")), None);
        assert!(
            pl_violation(Target::Nnf, &p("~~P"))
                .unwrap()
                .contains("not an atom")
        );
        assert!(pl_violation(Target::Cnf, &p("(P | (Q & R))")).is_some());
        assert!(
            pl_violation(Target::OrNot, &p("(P | true)"))
                .unwrap()
                .contains("constant")
        );
        assert_eq!(pl_violation(Target::ImpNot, &p("(~P ==> ~~Q)")), None);
    }

    /// Every wrapper of a formula not in a form stays out of it: the forms
    /// are closed under subformulas.
    #[test]
    fn wrappers_of_a_formula_outside_the_form_stay_outside() {
        let f = p("((P ==> Q) | ~(R & P))");
        let wrappers = |f: &Formula| {
            vec![
                Formula::negation(Formula::negation(f.clone())),
                Formula::and(f.clone(), f.clone()),
                Formula::or(f.clone(), f.clone()),
                Formula::and(f.clone(), Formula::True),
                Formula::imp(Formula::True, f.clone()),
                Formula::or(
                    f.clone(),
                    Formula::and(Formula::atom("P"), Formula::negation(Formula::atom("P"))),
                ),
            ]
        };
        for t in PL_TARGETS {
            assert!(pl_violation(t, &f).is_some());
            for w in wrappers(&f) {
                assert!(pl_violation(t, &w).is_some(), "{t:?}: {}", compact(&w));
            }
        }
    }
}
