//! Propositional SAT back-end behind a small trait: the finite model finder
//! of the prover and the PL/EQ generators speak to [`SatSolver`], never to a
//! solver crate directly.
//!
//! Two back-ends implement it:
//! - [`Batsat`]: the CDCL solver of the `batsat` crate (a MiniSat port) with
//!   assumptions, failed-assumption cores and a deterministic work budget
//!   counted in conflicts (learnt clauses), never in seconds;
//! - [`TruthTable`]: exhaustive enumeration for tiny problems, the
//!   independent reference the tests cross-check the CDCL solver against.
//!
//! Literals use the DIMACS convention: variable `v` (numbered from 1) as
//! `v` or `-v`, so clause sets can be printed and compared without knowing
//! which back-end produced them.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A propositional variable, numbered from 1 (DIMACS convention).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// A literal: a variable with a sign, stored as a non-zero DIMACS integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(i32);

impl Lit {
    /// The literal of `var` that is true when the variable has value `value`.
    pub fn new(var: Var, value: bool) -> Lit {
        assert!(
            var.0 >= 1 && var.0 <= i32::MAX as u32,
            "variable out of range"
        );
        Lit(if value { var.0 as i32 } else { -(var.0 as i32) })
    }

    /// The positive literal of `var`.
    pub fn pos(var: Var) -> Lit {
        Lit::new(var, true)
    }

    /// The negative literal of `var`.
    pub fn neg(var: Var) -> Lit {
        Lit::new(var, false)
    }

    /// Parses a DIMACS integer (non-zero).
    pub fn from_dimacs(x: i32) -> Lit {
        assert!(x != 0 && x != i32::MIN, "DIMACS literal must be non-zero");
        Lit(x)
    }

    /// The DIMACS integer of this literal.
    pub fn to_dimacs(self) -> i32 {
        self.0
    }

    /// The variable of this literal.
    pub fn var(self) -> Var {
        Var(self.0.unsigned_abs())
    }

    /// True for a positive literal.
    pub fn is_pos(self) -> bool {
        self.0 > 0
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(-self.0)
    }
}

/// The answer of one [`SatSolver::solve`] call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatResult {
    /// A model exists; read it with [`SatSolver::value`].
    Sat,
    /// No model satisfies the clauses together with the assumptions; the
    /// failed assumptions are in [`SatSolver::core`].
    Unsat,
    /// The work budget ran out before an answer.
    Unknown,
}

/// The interface every SAT back-end offers.
pub trait SatSolver {
    /// Creates a fresh variable.
    fn new_var(&mut self) -> Var;
    /// Number of variables created so far.
    fn num_vars(&self) -> u32;
    /// Adds a clause (a disjunction). An empty clause makes the set unsatisfiable.
    /// Every variable must have been created by [`SatSolver::new_var`].
    fn add_clause(&mut self, lits: &[Lit]);
    /// Decides the clauses under the given assumption literals.
    fn solve(&mut self, assumptions: &[Lit]) -> SatResult;
    /// The value of `var` in the model of the last `Sat` answer.
    fn value(&self, var: Var) -> bool;
    /// After an `Unsat` answer: a subset of the assumptions that is already
    /// inconsistent with the clauses (empty when the clauses alone are).
    fn core(&self) -> Vec<Lit>;
    /// Limits every later `solve` call to this many conflicts (`None`: no limit).
    fn set_budget(&mut self, conflicts: Option<u64>);
    /// Conflicts spent by all `solve` calls so far (the work measure).
    fn conflicts(&self) -> u64;

    /// The model of the last `Sat` answer as one value per variable, index 0 = variable 1.
    fn model(&self) -> Vec<bool> {
        (1..=self.num_vars()).map(|v| self.value(Var(v))).collect()
    }
}

/// Evaluates a clause under an assignment (index 0 = variable 1).
pub fn clause_satisfied(clause: &[Lit], model: &[bool]) -> bool {
    clause
        .iter()
        .any(|l| model[(l.var().0 - 1) as usize] == l.is_pos())
}

/// Callbacks that stop the CDCL search once the conflict budget is spent.
struct Budget {
    learnt: Arc<AtomicU64>,
    limit: Arc<AtomicU64>,
}

impl batsat::Callbacks for Budget {
    fn on_new_clause(&mut self, _c: &[batsat::Lit], kind: batsat::ClauseKind) {
        if matches!(kind, batsat::ClauseKind::Learnt) {
            self.learnt.fetch_add(1, Relaxed);
        }
    }
    fn stop(&self) -> bool {
        self.learnt.load(Relaxed) >= self.limit.load(Relaxed)
    }
}

/// The CDCL back-end (MiniSat algorithm, via the `batsat` crate).
///
/// Deterministic: the solver's options are fixed (no random decisions), so
/// the same clauses added in the same order give the same model.
pub struct Batsat {
    solver: batsat::Solver<Budget>,
    learnt: Arc<AtomicU64>,
    limit: Arc<AtomicU64>,
    budget: Option<u64>,
    last: SatResult,
    buf: Vec<batsat::Lit>,
}

impl Default for Batsat {
    fn default() -> Self {
        Self::new()
    }
}

impl Batsat {
    /// A solver with no clauses, no variables and no budget.
    pub fn new() -> Batsat {
        let learnt = Arc::new(AtomicU64::new(0));
        let limit = Arc::new(AtomicU64::new(u64::MAX));
        let cb = Budget {
            learnt: learnt.clone(),
            limit: limit.clone(),
        };
        let opts = batsat::SolverOpts {
            random_var_freq: 0.0,
            rnd_pol: false,
            rnd_init_act: false,
            ..Default::default()
        };
        Batsat {
            solver: batsat::Solver::new(opts, cb),
            learnt,
            limit,
            budget: None,
            last: SatResult::Unknown,
            buf: Vec::new(),
        }
    }

    fn lit(&self, l: Lit) -> batsat::Lit {
        let v = batsat::Var::unsafe_from_idx(l.var().0 - 1);
        batsat::Lit::new(v, l.is_pos())
    }

    fn unlit(l: batsat::Lit) -> Lit {
        Lit::new(Var(l.var().idx() + 1), l.sign())
    }
}

impl SatSolver for Batsat {
    fn new_var(&mut self) -> Var {
        use batsat::SolverInterface;
        let v = self.solver.new_var_default();
        Var(v.idx() + 1)
    }

    fn num_vars(&self) -> u32 {
        use batsat::SolverInterface;
        self.solver.num_vars()
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        use batsat::SolverInterface;
        let n = self.num_vars();
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        for &l in lits {
            assert!(l.var().0 <= n, "literal {l:?} uses an unknown variable");
            buf.push(self.lit(l));
        }
        self.solver.add_clause_reuse(&mut buf);
        self.buf = buf;
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        use batsat::SolverInterface;
        let assumps: Vec<batsat::Lit> = assumptions.iter().map(|&l| self.lit(l)).collect();
        self.limit.store(
            match self.budget {
                Some(b) => self.learnt.load(Relaxed).saturating_add(b),
                None => u64::MAX,
            },
            Relaxed,
        );
        let r = self.solver.solve_limited(&assumps);
        self.last = if r == batsat::lbool::TRUE {
            SatResult::Sat
        } else if r == batsat::lbool::FALSE {
            SatResult::Unsat
        } else {
            SatResult::Unknown
        };
        self.last
    }

    fn value(&self, var: Var) -> bool {
        use batsat::SolverInterface;
        assert_eq!(self.last, SatResult::Sat, "value() needs a Sat answer");
        let v = batsat::Var::unsafe_from_idx(var.0 - 1);
        // Unassigned variables (none after a complete Sat answer) read as false.
        self.solver.value_var(v) == batsat::lbool::TRUE
    }

    fn core(&self) -> Vec<Lit> {
        use batsat::SolverInterface;
        assert_eq!(self.last, SatResult::Unsat, "core() needs an Unsat answer");
        // batsat reports the negations of the failed assumptions.
        let mut core: Vec<Lit> = self
            .solver
            .unsat_core()
            .iter()
            .map(|&l| !Self::unlit(l))
            .collect();
        core.sort_unstable();
        core.dedup();
        core
    }

    fn set_budget(&mut self, conflicts: Option<u64>) {
        self.budget = conflicts;
    }

    fn conflicts(&self) -> u64 {
        self.learnt.load(Relaxed)
    }
}

/// Exhaustive back-end for at most [`TruthTable::MAX_VARS`] variables: the
/// reference the CDCL solver is tested against. Finds the lexicographically
/// first model (variable 1 most significant, false before true).
#[derive(Default, Clone, Debug)]
pub struct TruthTable {
    vars: u32,
    clauses: Vec<Vec<Lit>>,
    model: Vec<bool>,
    core: Vec<Lit>,
    last: Option<SatResult>,
    work: u64,
}

impl TruthTable {
    /// Largest variable count it accepts.
    pub const MAX_VARS: u32 = 24;

    /// An empty problem.
    pub fn new() -> TruthTable {
        TruthTable::default()
    }

    fn first_model(&mut self, assumptions: &[Lit]) -> Option<Vec<bool>> {
        let n = self.vars;
        assert!(
            n <= Self::MAX_VARS,
            "truth table limited to {} variables",
            Self::MAX_VARS
        );
        let mut model = vec![false; n as usize];
        for bits in 0u64..(1u64 << n) {
            self.work += 1;
            for (i, m) in model.iter_mut().enumerate() {
                *m = bits >> (n as usize - 1 - i) & 1 == 1;
            }
            let ok = assumptions.iter().all(|l| clause_satisfied(&[*l], &model))
                && self.clauses.iter().all(|c| clause_satisfied(c, &model));
            if ok {
                return Some(model);
            }
        }
        None
    }
}

impl SatSolver for TruthTable {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var(self.vars)
    }

    fn num_vars(&self) -> u32 {
        self.vars
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        for l in lits {
            assert!(
                l.var().0 <= self.vars,
                "literal {l:?} uses an unknown variable"
            );
        }
        self.clauses.push(lits.to_vec());
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        let r = match self.first_model(assumptions) {
            Some(m) => {
                self.model = m;
                SatResult::Sat
            }
            None => {
                // Shrink the assumptions to a minimal failing subset.
                let mut core: Vec<Lit> = assumptions.to_vec();
                let mut i = 0;
                while i < core.len() {
                    let mut without = core.clone();
                    without.remove(i);
                    if self.first_model(&without).is_none() {
                        core = without;
                    } else {
                        i += 1;
                    }
                }
                core.sort_unstable();
                core.dedup();
                self.core = core;
                SatResult::Unsat
            }
        };
        self.last = Some(r);
        r
    }

    fn value(&self, var: Var) -> bool {
        assert_eq!(
            self.last,
            Some(SatResult::Sat),
            "value() needs a Sat answer"
        );
        self.model[(var.0 - 1) as usize]
    }

    fn core(&self) -> Vec<Lit> {
        assert_eq!(
            self.last,
            Some(SatResult::Unsat),
            "core() needs an Unsat answer"
        );
        self.core.clone()
    }

    fn set_budget(&mut self, _conflicts: Option<u64>) {}

    fn conflicts(&self) -> u64 {
        self.work
    }
}

#[cfg(test)]
mod tests {
    fn _send<T: Send>() {}
    #[test]
    fn backends_are_send() {
        _send::<Batsat>();
        _send::<TruthTable>();
    }

    use super::*;
    use proptest::prelude::*;

    fn load<S: SatSolver>(s: &mut S, vars: u32, clauses: &[Vec<i32>]) {
        for _ in 0..vars {
            s.new_var();
        }
        for c in clauses {
            let lits: Vec<Lit> = c.iter().map(|&x| Lit::from_dimacs(x)).collect();
            s.add_clause(&lits);
        }
    }

    fn pigeonhole(holes: u32) -> (u32, Vec<Vec<i32>>) {
        let pigeons = holes + 1;
        let var = |p: u32, h: u32| (p * holes + h + 1) as i32;
        let mut cs = Vec::new();
        for p in 0..pigeons {
            cs.push((0..holes).map(|h| var(p, h)).collect());
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    cs.push(vec![-var(p, h), -var(q, h)]);
                }
            }
        }
        (pigeons * holes, cs)
    }

    #[test]
    fn pigeonhole_is_unsat_and_budget_gives_unknown() {
        let (n, cs) = pigeonhole(7);
        let mut s = Batsat::new();
        load(&mut s, n, &cs);
        s.set_budget(Some(10));
        assert_eq!(s.solve(&[]), SatResult::Unknown);
        s.set_budget(None);
        assert_eq!(s.solve(&[]), SatResult::Unsat);
        assert!(s.core().is_empty());
    }

    #[test]
    fn core_is_a_subset_of_failed_assumptions() {
        // x1 -> x2, x2 -> x3; assuming x1, ~x3 and x4 fails without x4.
        let mut s = Batsat::new();
        load(&mut s, 4, &[vec![-1, 2], vec![-2, 3]]);
        let a = [
            Lit::from_dimacs(1),
            Lit::from_dimacs(-3),
            Lit::from_dimacs(4),
        ];
        assert_eq!(s.solve(&a), SatResult::Unsat);
        let core = s.core();
        assert!(core.iter().all(|l| a.contains(l)), "{core:?}");
        assert!(!core.contains(&Lit::from_dimacs(4)));
        assert_eq!(s.solve(&a[1..]), SatResult::Sat);
        assert!(!s.value(Var(3)) && s.value(Var(4)));
    }

    fn cnf() -> impl Strategy<Value = (u32, Vec<Vec<i32>>)> {
        (1u32..=8).prop_flat_map(|n| {
            let lit = (1..=n as i32, any::<bool>()).prop_map(|(v, s)| if s { v } else { -v });
            (
                Just(n),
                prop::collection::vec(prop::collection::vec(lit, 0..4), 0..24),
            )
        })
    }

    proptest! {
        #[test]
        fn batsat_agrees_with_truth_table((n, cs) in cnf(), assume in prop::collection::vec(any::<bool>(), 0..3)) {
            let mut a = Batsat::new();
            let mut b = TruthTable::new();
            load(&mut a, n, &cs);
            load(&mut b, n, &cs);
            let assumptions: Vec<Lit> = assume
                .iter()
                .enumerate()
                .filter(|&(i, _)| (i as u32) < n)
                .map(|(i, &v)| Lit::new(Var(i as u32 + 1), v))
                .collect();
            let ra = a.solve(&assumptions);
            let rb = b.solve(&assumptions);
            prop_assert_eq!(ra, rb);
            if ra == SatResult::Sat {
                let m = a.model();
                for c in &cs {
                    let lits: Vec<Lit> = c.iter().map(|&x| Lit::from_dimacs(x)).collect();
                    prop_assert!(clause_satisfied(&lits, &m));
                }
                for l in &assumptions {
                    prop_assert!(clause_satisfied(&[*l], &m));
                }
            } else {
                // The core alone is still inconsistent with the clauses.
                let core = a.core();
                prop_assert!(core.iter().all(|l| assumptions.contains(l)));
                prop_assert_eq!(b.solve(&core), SatResult::Unsat);
            }
        }
    }
}
