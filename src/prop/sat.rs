//! Propositional reasoning for PL tasks on top of the project's
//! [`SatSolver`] trait: Tseitin encoding (Tseitin 1968) of formulas into
//! clauses, then entailment, consistency, unsat cores over premises and
//! models. A direct truth-table evaluator gives an independent third answer
//! for tests.

use super::formula::Formula;
use crate::sat::{Batsat, Lit, SatResult, SatSolver};
use std::collections::BTreeMap;

/// Tseitin encoder: one variable per atom, one per compound subformula.
pub struct Encoder<S: SatSolver> {
    solver: S,
    atoms: BTreeMap<String, Lit>,
    top: Option<Lit>,
}

impl<S: SatSolver> Encoder<S> {
    /// An encoder over a fresh solver.
    pub fn new(solver: S) -> Self {
        Encoder {
            solver,
            atoms: BTreeMap::new(),
            top: None,
        }
    }

    /// The solver (for `solve`, `core`, `value`).
    pub fn solver(&mut self) -> &mut S {
        &mut self.solver
    }

    fn top(&mut self) -> Lit {
        if let Some(t) = self.top {
            return t;
        }
        let t = Lit::pos(self.solver.new_var());
        self.solver.add_clause(&[t]);
        self.top = Some(t);
        t
    }

    /// The literal that is true exactly when `f` is.
    pub fn encode(&mut self, f: &Formula) -> Lit {
        match f {
            Formula::True => self.top(),
            Formula::False => !self.top(),
            Formula::Atom(a) => {
                if let Some(&l) = self.atoms.get(a) {
                    return l;
                }
                let l = Lit::pos(self.solver.new_var());
                self.atoms.insert(a.clone(), l);
                l
            }
            Formula::Not(p) => !self.encode(p),
            Formula::And(p, q) => {
                let (a, b) = (self.encode(p), self.encode(q));
                let x = Lit::pos(self.solver.new_var());
                self.solver.add_clause(&[!x, a]);
                self.solver.add_clause(&[!x, b]);
                self.solver.add_clause(&[x, !a, !b]);
                x
            }
            Formula::Or(p, q) => {
                let (a, b) = (self.encode(p), self.encode(q));
                let x = Lit::pos(self.solver.new_var());
                self.solver.add_clause(&[!x, a, b]);
                self.solver.add_clause(&[x, !a]);
                self.solver.add_clause(&[x, !b]);
                x
            }
            Formula::Imp(p, q) => {
                let (a, b) = (self.encode(p), self.encode(q));
                let x = Lit::pos(self.solver.new_var());
                self.solver.add_clause(&[!x, !a, b]);
                self.solver.add_clause(&[x, a]);
                self.solver.add_clause(&[x, !b]);
                x
            }
            Formula::Iff(p, q) => {
                let (a, b) = (self.encode(p), self.encode(q));
                let x = Lit::pos(self.solver.new_var());
                self.solver.add_clause(&[!x, !a, b]);
                self.solver.add_clause(&[!x, a, !b]);
                self.solver.add_clause(&[x, a, b]);
                self.solver.add_clause(&[x, !a, !b]);
                x
            }
        }
    }

    /// The atom values of the last `Sat` answer.
    pub fn model(&self) -> BTreeMap<String, bool> {
        self.atoms
            .iter()
            .map(|(a, l)| (a.clone(), self.solver.value(l.var()) == l.is_pos()))
            .collect()
    }
}

fn definite(r: SatResult) -> bool {
    match r {
        SatResult::Sat => true,
        SatResult::Unsat => false,
        // No budget is set on these solvers, so Unknown cannot happen.
        SatResult::Unknown => unreachable!("SAT call without budget returned Unknown"),
    }
}

/// Whether `premises ⊨ goal`, decided with the given back-end.
pub fn entails_with<S: SatSolver>(solver: S, premises: &[Formula], goal: &Formula) -> bool {
    let mut e = Encoder::new(solver);
    let mut assumptions: Vec<Lit> = premises.iter().map(|p| e.encode(p)).collect();
    let g = e.encode(goal);
    assumptions.push(!g);
    !definite(e.solver().solve(&assumptions))
}

/// Whether the formulas have a common model, decided with the given back-end.
pub fn satisfiable_with<S: SatSolver>(solver: S, fs: &[Formula]) -> bool {
    let mut e = Encoder::new(solver);
    let assumptions: Vec<Lit> = fs.iter().map(|p| e.encode(p)).collect();
    definite(e.solver().solve(&assumptions))
}

/// Whether `premises ⊨ goal` (CDCL back-end).
pub fn entails(premises: &[Formula], goal: &Formula) -> bool {
    entails_with(Batsat::new(), premises, goal)
}

/// Conflicts the CDCL back-end spends deciding `premises ⊨ goal` on a fresh
/// solver (premises and the negated goal as assumptions): a deterministic
/// measure of the effort to certify the entailment (or to refute it).
pub fn entailment_conflicts(premises: &[Formula], goal: &Formula) -> u64 {
    let mut e = Encoder::new(Batsat::new());
    let mut assumptions: Vec<Lit> = premises.iter().map(|p| e.encode(p)).collect();
    let g = e.encode(goal);
    assumptions.push(!g);
    definite(e.solver().solve(&assumptions));
    e.solver().conflicts()
}

/// Conflicts one budgeted call ([`model_within`], [`satisfiable_within`],
/// [`entails_within`]) may spend when the formulas come from a model's
/// answer: a proof step's check decides in a handful, while a claim built
/// to be hard (a pigeonhole formula of a few kilobytes) would otherwise
/// run for hours.
pub const ANSWER_CONFLICTS: u64 = 1 << 14;

/// A budgeted SAT call that ran out of conflicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undecided;

fn within(r: SatResult) -> Result<bool, Undecided> {
    match r {
        SatResult::Sat => Ok(true),
        SatResult::Unsat => Ok(false),
        SatResult::Unknown => Err(Undecided),
    }
}

/// [`model`] within `conflicts` conflicts.
pub fn model_within(
    fs: &[Formula],
    conflicts: u64,
) -> Result<Option<BTreeMap<String, bool>>, Undecided> {
    let mut e = Encoder::new(Batsat::new());
    let assumptions: Vec<Lit> = fs.iter().map(|p| e.encode(p)).collect();
    e.solver().set_budget(Some(conflicts));
    Ok(within(e.solver().solve(&assumptions))?.then(|| e.model()))
}

/// [`satisfiable`] within `conflicts` conflicts.
pub fn satisfiable_within(fs: &[Formula], conflicts: u64) -> Result<bool, Undecided> {
    Ok(model_within(fs, conflicts)?.is_some())
}

/// [`entails`] within `conflicts` conflicts.
pub fn entails_within(
    premises: &[Formula],
    goal: &Formula,
    conflicts: u64,
) -> Result<bool, Undecided> {
    let mut e = Encoder::new(Batsat::new());
    let mut assumptions: Vec<Lit> = premises.iter().map(|p| e.encode(p)).collect();
    let g = e.encode(goal);
    assumptions.push(!g);
    e.solver().set_budget(Some(conflicts));
    Ok(!within(e.solver().solve(&assumptions))?)
}

/// Whether the formulas are jointly satisfiable (CDCL back-end).
pub fn satisfiable(fs: &[Formula]) -> bool {
    satisfiable_with(Batsat::new(), fs)
}

/// A model of the formulas (atom → value), or `None` if they are inconsistent.
pub fn model(fs: &[Formula]) -> Option<BTreeMap<String, bool>> {
    let mut e = Encoder::new(Batsat::new());
    let assumptions: Vec<Lit> = fs.iter().map(|p| e.encode(p)).collect();
    definite(e.solver().solve(&assumptions)).then(|| e.model())
}

/// If `premises ⊨ goal`, the indices of a subset of the premises that
/// already entails it (the solver's failed assumptions; not necessarily
/// minimal); `None` if the goal does not follow.
pub fn premise_core(premises: &[Formula], goal: &Formula) -> Option<Vec<usize>> {
    let mut e = Encoder::new(Batsat::new());
    // Selector per premise: s_i ==> p_i, so assuming s_i asserts p_i.
    let mut selectors = Vec::with_capacity(premises.len());
    for p in premises {
        let l = e.encode(p);
        let s = Lit::pos(e.solver().new_var());
        e.solver().add_clause(&[!s, l]);
        selectors.push(s);
    }
    let g = e.encode(goal);
    e.solver().add_clause(&[!g]);
    if definite(e.solver().solve(&selectors)) {
        return None;
    }
    let core = e.solver().core();
    Some(
        selectors
            .iter()
            .enumerate()
            .filter(|(_, s)| core.contains(s))
            .map(|(i, _)| i)
            .collect(),
    )
}

/// Entailment by enumerating every assignment of the atoms (independent of
/// any SAT back-end; exponential, for tests and small problems).
pub fn entails_by_table(premises: &[Formula], goal: &Formula) -> bool {
    let mut atoms = goal.atoms();
    for p in premises {
        p.collect_atoms(&mut atoms);
    }
    let atoms: Vec<String> = atoms.into_iter().collect();
    assert!(atoms.len() <= 20, "truth table over {} atoms", atoms.len());
    (0u32..1 << atoms.len()).all(|bits| {
        let v = |a: &str| {
            let i = atoms.iter().position(|x| x == a).expect("known atom");
            bits >> i & 1 == 1
        };
        !premises.iter().all(|p| p.eval(&v)) || goal.eval(&v)
    })
}

#[cfg(test)]
mod tests {
    use super::super::formula::tests::arb_formula_sized;
    use super::*;
    use crate::sat::TruthTable;
    use proptest::prelude::*;

    /// The pigeonhole formula for `n` pigeons in `n - 1` holes
    /// (unsatisfiable, and hard for resolution).
    fn pigeonhole(n: usize) -> Formula {
        let p = |i: usize, j: usize| Formula::atom(&format!("h{i}_{j}"));
        let mut parts = Vec::new();
        for i in 0..n {
            let some = (1..n - 1).fold(p(i, 0), |acc, j| Formula::or(acc, p(i, j)));
            parts.push(some);
        }
        for j in 0..n - 1 {
            for a in 0..n {
                for b in a + 1..n {
                    parts.push(Formula::negation(Formula::and(p(a, j), p(b, j))));
                }
            }
        }
        parts.into_iter().reduce(Formula::and).unwrap()
    }

    /// Budgeted calls decide easy formulas and end `Undecided` past their
    /// conflicts on a hard one, instead of running on.
    #[test]
    fn budgeted_calls_end_undecided_past_their_conflicts() {
        assert_eq!(satisfiable_within(&[pigeonhole(4)], 10_000), Ok(false));
        assert_eq!(satisfiable_within(&[pigeonhole(9)], 50), Err(Undecided));
        let hard = Formula::negation(pigeonhole(9));
        assert_eq!(entails_within(&[], &hard, 50), Err(Undecided));
        assert_eq!(model_within(&[pigeonhole(9)], 50), Err(Undecided));
        let a = Formula::atom("a");
        assert_eq!(entails_within(std::slice::from_ref(&a), &a, 50), Ok(true));
    }

    #[test]
    fn basic_entailments() {
        let p = |s: &str| Formula::parse(s).unwrap();
        assert!(entails(&[p("(A ==> B)"), p("A")], &p("B")));
        assert!(!entails(&[p("(A ==> B)")], &p("B")));
        assert!(entails(&[], &p("(A | (~ A))")));
        assert!(!satisfiable(&[p("A"), p("(~ A)")]));
        let m = model(&[p("(A & (~ B))")]).unwrap();
        assert!(m["A"]);
        assert!(!m["B"]);
        let core = premise_core(&[p("C"), p("(A ==> B)"), p("A")], &p("B")).unwrap();
        assert_eq!(core, vec![1, 2]);
        assert_eq!(premise_core(&[p("C")], &p("B")), None);
    }

    /// The conflict count is the same on every call, and a pigeonhole
    /// problem (four pigeons, three holes) costs the solver conflicts.
    #[test]
    fn entailment_conflicts_are_deterministic_and_grow_with_hardness() {
        let x = |i: usize, j: usize| Formula::atom(&format!("P{i}_{j}"));
        let mut premises = Vec::new();
        for i in 1..=4 {
            premises.push(Formula::or(x(i, 1), Formula::or(x(i, 2), x(i, 3))));
        }
        for j in 1..=3 {
            for i in 1..=4 {
                for k in i + 1..=4 {
                    premises.push(Formula::negation(Formula::and(x(i, j), x(k, j))));
                }
            }
        }
        let hard = entailment_conflicts(&premises, &Formula::False);
        assert!(hard > 0);
        assert_eq!(entailment_conflicts(&premises, &Formula::False), hard);
        let p = |s: &str| Formula::parse(s).unwrap();
        let easy = entailment_conflicts(&[p("(A ==> B)"), p("A")], &p("B"));
        assert!(easy < hard, "{easy} vs {hard}");
    }

    proptest! {
        #[test]
        fn three_deciders_agree(
            ps in prop::collection::vec(arb_formula_sized(3, 6), 0..4),
            g in arb_formula_sized(3, 6),
        ) {
            // The truth-table back-end takes at most 24 variables (atoms,
            // one per connective, one for the constants).
            let vars: usize = ps.iter().chain([&g]).map(|f| f.size()).sum::<usize>() + 5 + 1;
            prop_assume!(vars <= 24);
            let a = entails_with(Batsat::new(), &ps, &g);
            let b = entails_with(TruthTable::new(), &ps, &g);
            let c = entails_by_table(&ps, &g);
            prop_assert_eq!(a, b);
            prop_assert_eq!(a, c);
            let s1 = satisfiable_with(Batsat::new(), &ps);
            let s2 = satisfiable_with(TruthTable::new(), &ps);
            prop_assert_eq!(s1, s2);
            if let Some(m) = model(&ps) {
                prop_assert!(ps.iter().all(|p| p.eval(&|x| m.get(x).copied().unwrap_or(false))));
            }
        }
    }
}
