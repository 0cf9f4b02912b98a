//! Finite model finder in the MACE style (McCune, "MACE 2.0 reference manual
//! and guide", ANL/MCS-TM-249, 2001) with the techniques of Paradox
//! (Claessen & Sörensson, "New techniques that improve MACE-style finite
//! model finding", CADE-19 workshop on model computation, 2003): flatten the
//! clauses so every literal is shallow (`flat`: term definitions,
//! variable elimination, clause splitting), infer sorts (`sorts`), ground
//! the clauses over each sort's domain, add the totality and functionality
//! constraints of the function tables and the least-number canonicity
//! constraints on the constants of each sort, and hand the propositional
//! problem to the SAT back-end.
//!
//! Sizes are tried in increasing order on **one** incremental SAT solver
//! (Paradox §4): a ground clause over `{0..n-1}` stays true in every larger
//! domain, so going from size `n` to `n+1` adds only the instances that use
//! the new element; the only clauses that hold at one size alone are the
//! totality clauses `f(c) = 0 | ... | f(c) = n-1`, which carry an activation
//! literal assumed for that size and retired after it. What the solver
//! learnt at size `n` carries over to `n+1`.
//!
//! Symmetry (Paradox §4.1): the constants `c_1, c_2, ...` of a sort take
//! their values in first-occurrence order: `c_i` is one of `0..i-1`, and
//! `c_i = d > 0` only if some earlier `c_j = d-1`. A variable that the
//! flattening binds to `c_i` (`c_i != v | ...`) therefore ranges over `0..i`
//! only, which is how the grounding skips instances the constraint makes
//! true anyway.
//!
//! The model returned is unsorted, of the size searched: sorts that are
//! smaller are padded with copies of element 0 (sound for free sorts only,
//! see `sorts`), symbols made by the flattening are dropped. Every model is
//! re-verified on the input clauses by the independent checker before any
//! label rests on it. Work is bounded by ground-clause and conflict budgets
//! per size, never by time. [`mod@reference`] keeps the plain finder (one SAT
//! problem per size, one sort, constant bounds only) that the tests and the
//! `mace` bench compare against.

pub mod extend;
mod flat;
pub mod reference;
mod sorts;

use super::{FiniteModel, Table};
use crate::logic::{Literal, TermBank};
use crate::sat::{Batsat, Lit, SatResult, SatSolver, Var};
use flat::{Flat, Lit as FlatLit};
use rustc_hash::FxHashMap;
use sorts::Sorts;
use std::ops::RangeInclusive;

/// The model finder; keeps its work counters across calls.
pub struct ModelFinder {
    max_ground_clauses: u64,
    sat_conflicts: u64,
    /// SAT conflicts spent so far.
    pub conflicts: u64,
    /// Ground clauses produced so far.
    pub ground_clauses: u64,
    /// Every size up to this one is known to have no model.
    pub no_model_upto: u32,
    /// Per size tried by the last search: (size, ground clauses of the
    /// whole problem at that size, SAT conflicts spent on it).
    pub trace: Vec<(u32, u64, u64)>,
    /// Input clauses longer than this many literals make the search give
    /// up before flattening (`None`: no bound). The saturation's own bound
    /// (`saturation.max_clause_literals`, default
    /// [`crate::saturation::params::DEFAULT_MAX_CLAUSE_LITERALS`]): a longer
    /// clause is no problem the finder is built for, and splitting one
    /// costs time in its length squared.
    pub max_clause_literals: Option<u32>,
    /// Soft wall-clock deadline (`saturate prove --cpu-limit` only; `None`
    /// for every dataset run): read before flattening and before each
    /// domain size; past it the search gives up.
    pub deadline: Option<crate::deadline::Deadline>,
}

/// The SAT variables of the function and predicate tables, made as the
/// domain grows. A cell's arguments (and a function's value) are packed
/// `bits` bits each into one key.
struct Tables {
    bits: u32,
    vars: FxHashMap<(u32, u128), Var>,
}

impl Tables {
    fn key(&self, s: u32, args: impl Iterator<Item = u32>) -> (u32, u128) {
        let mut k = 0u128;
        for a in args {
            k = (k << self.bits) | a as u128;
        }
        (s, k)
    }

    fn insert(&mut self, s: u32, args: impl Iterator<Item = u32>, v: Var) {
        let k = self.key(s, args);
        self.vars.insert(k, v);
    }

    fn get(&self, s: u32, args: impl Iterator<Item = u32>) -> Var {
        self.vars[&self.key(s, args)]
    }
}

/// Calls `f` on every tuple `t` with `t[i] < new[i]` for all `i` that is
/// not also below `old` everywhere, each once: for each pivot position `p`,
/// the tuples with `t[p]` new, the positions before `p` old and the ones
/// after it anything. Tuples of length 0 are never new here; the callers
/// handle them.
fn new_tuples(old: &[u32], new: &[u32], buf: &mut Vec<u32>, mut f: impl FnMut(&[u32])) {
    let k = new.len();
    let (mut lo, mut hi) = (vec![0u32; k], vec![0u32; k]);
    for pivot in 0..k {
        for i in 0..k {
            lo[i] = if i == pivot { old[i] } else { 0 };
            hi[i] = if i < pivot { old[i] } else { new[i] };
        }
        if (0..k).any(|i| lo[i] >= hi[i]) {
            continue;
        }
        buf.clear();
        buf.extend_from_slice(&lo);
        'odometer: loop {
            f(buf);
            let mut i = k;
            loop {
                if i == 0 {
                    break 'odometer;
                }
                i -= 1;
                buf[i] += 1;
                if buf[i] < hi[i] {
                    continue 'odometer;
                }
                buf[i] = lo[i];
            }
        }
    }
}

/// One search's state: the flattened problem, its sorts, the solver.
struct Search {
    flat: Flat,
    sorts: Sorts,
    /// Per clause, per variable: the most values it takes (least-number
    /// bound of the constant that names it), `u32::MAX` for none.
    bound: Vec<Vec<u32>>,
    /// Per sort: its constants in rank order.
    constants: Vec<Vec<u32>>,
    /// Pairs of distinct-value constants that denote different values.
    distinct: Vec<(u32, u32)>,
    solver: Batsat,
    tables: Tables,
    /// The size whose clauses are in the solver (0: none yet).
    n: u32,
}

impl Search {
    fn new(bank: &TermBank, flat: Flat, sorts: Sorts, bits: u32) -> Search {
        let mut constants: Vec<Vec<u32>> = vec![Vec::new(); sorts.len()];
        let mut rank = vec![u32::MAX; flat.syms.len()];
        for (s, sym) in flat.syms.iter().enumerate() {
            if sym.fun && sym.arity == 0 {
                let t = sorts.slots[s][0] as usize;
                rank[s] = constants[t].len() as u32;
                constants[t].push(s as u32);
            }
        }
        let bound = flat
            .clauses
            .iter()
            .map(|c| {
                let mut b = vec![u32::MAX; c.nvars as usize];
                for l in &c.lits {
                    if let FlatLit::Fun {
                        f,
                        args,
                        res,
                        pos: false,
                    } = l
                        && args.is_empty()
                    {
                        let r = &mut b[*res as usize];
                        *r = (*r).min(rank[*f as usize] + 1);
                    }
                }
                b
            })
            .collect();
        let values: Vec<u32> = (0..flat.syms.len() as u32)
            .filter(|&s| flat.syms[s as usize].value)
            .collect();
        let mut distinct = Vec::new();
        for (i, &a) in values.iter().enumerate() {
            for &b in &values[i + 1..] {
                let (x, y) = (flat.syms[a as usize].name, flat.syms[b as usize].name);
                if let (Some(x), Some(y)) = (x, y)
                    && bank.sig.distinct_values(x, y)
                {
                    distinct.push((a, b));
                }
            }
        }
        Search {
            flat,
            sorts,
            bound,
            constants,
            distinct,
            solver: Batsat::new(),
            tables: Tables {
                bits,
                vars: FxHashMap::default(),
            },
            n: 0,
        }
    }

    fn ranges(&self, c: usize, n: u32) -> Vec<u32> {
        self.sorts.vars[c]
            .iter()
            .zip(&self.bound[c])
            .map(|(&s, &b)| self.sorts.size(s, n).min(b))
            .collect()
    }

    /// Ground clauses of the whole problem at size `n` and the table
    /// variables and functionality clauses, `None` on overflow.
    fn counts(&self, n: u32) -> Option<(u64, u64, u64)> {
        let mut ground = 0u64;
        for c in 0..self.flat.clauses.len() {
            let p = self
                .ranges(c, n)
                .iter()
                .try_fold(1u64, |a, &r| a.checked_mul(r as u64))?;
            ground = ground.checked_add(p)?;
        }
        let (mut vars, mut fclauses) = (0u64, 0u64);
        for (s, sl) in self.flat.syms.iter().zip(&self.sorts.slots) {
            let cells = sl[..s.arity as usize]
                .iter()
                .try_fold(1u64, |a, &t| a.checked_mul(self.sorts.size(t, n) as u64))?;
            if s.fun {
                let m = self.sorts.size(sl[s.arity as usize], n) as u64;
                vars = vars.checked_add(cells.checked_mul(m)?)?;
                let pairs = m * m.saturating_sub(1) / 2 + 1;
                fclauses = fclauses.checked_add(cells.checked_mul(pairs)?)?;
            } else {
                vars = vars.checked_add(cells)?;
            }
            // The unsorted tables of the model returned.
            let out = (n as u64).checked_pow(s.arity)?;
            vars = vars.max(out);
        }
        Some((ground, vars, fclauses))
    }

    /// Adds the tables, constraints and ground clauses of size `n` to those
    /// of the previous size `self.n`; returns the activation literal of
    /// this size's totality clauses and the number of ground clauses made.
    fn grow(&mut self, n: u32) -> (Lit, u64) {
        let old = self.n;
        let act = self.solver.new_var();
        self.tables(0..self.flat.syms.len(), old, n, act);
        let Search {
            sorts,
            constants,
            distinct,
            solver,
            tables,
            ..
        } = self;
        let mut clause: Vec<Lit> = Vec::new();
        // Distinct values on distinct elements (they share one sort).
        for &(a, b) in distinct.iter() {
            let rs = sorts.slots[a as usize][0];
            for e in sorts.size(rs, old)..sorts.size(rs, n) {
                let x = tables.get(a, [e].into_iter());
                let y = tables.get(b, [e].into_iter());
                solver.add_clause(&[Lit::neg(x), Lit::neg(y)]);
            }
        }
        // Least-number canonicity of each sort's constants.
        for (t, cs) in constants.iter().enumerate() {
            let (m_old, m_new) = (sorts.size(t as u32, old), sorts.size(t as u32, n));
            for (i, &c) in cs.iter().enumerate() {
                for e in m_old..m_new {
                    let x = tables.get(c, [e].into_iter());
                    if e as usize > i {
                        solver.add_clause(&[Lit::neg(x)]);
                    } else if e > 0 {
                        clause.clear();
                        clause.push(Lit::neg(x));
                        for &d in &cs[..i] {
                            clause.push(Lit::pos(tables.get(d, [e - 1].into_iter())));
                        }
                        solver.add_clause(&clause);
                    }
                }
            }
        }
        // Ground clauses: the assignments that use a new element.
        let made = self.ground(0..self.flat.clauses.len(), old, n, None);
        self.n = n;
        (Lit::pos(act), made)
    }

    /// The table variables of symbols `syms` that size `n` adds to size
    /// `old`, with their functionality clauses and (functions) totality
    /// clauses, those of a range that may still grow under `act`.
    fn tables(&mut self, syms: std::ops::Range<usize>, old: u32, n: u32, act: Var) {
        let Search {
            flat,
            sorts,
            solver,
            tables,
            ..
        } = self;
        let mut buf = Vec::new();
        let mut clause: Vec<Lit> = Vec::new();
        // Tables: new cells, new values of old cells.
        for s in syms {
            let (sym, sl) = (&flat.syms[s], &sorts.slots[s]);
            let s = s as u32;
            let a = sym.arity as usize;
            let sizes_old: Vec<u32> = sl[..a].iter().map(|&t| sorts.size(t, old)).collect();
            let sizes_new: Vec<u32> = sl[..a].iter().map(|&t| sorts.size(t, n)).collect();
            if !sym.fun {
                if a == 0 {
                    if old == 0 {
                        let v = solver.new_var();
                        tables.insert(s, [].into_iter(), v);
                    }
                } else {
                    new_tuples(&sizes_old, &sizes_new, &mut buf, |t| {
                        let v = solver.new_var();
                        tables.insert(s, t.iter().copied(), v);
                    });
                }
                continue;
            }
            let rs = sl[a];
            let (m_old, m_new) = (sorts.size(rs, old), sorts.size(rs, n));
            let fin = sorts.is_final(rs, n);
            let mut cell = |t: &[u32], is_new: bool| {
                let from = if is_new { 0 } else { m_old };
                for e in from..m_new {
                    let v = solver.new_var();
                    tables.insert(s, t.iter().copied().chain([e]), v);
                    for e2 in 0..e {
                        let w = tables.get(s, t.iter().copied().chain([e2]));
                        solver.add_clause(&[Lit::neg(v), Lit::neg(w)]);
                    }
                }
                // A final range needs its totality clause once, when the
                // cell is new or its range last grew; others every size.
                if is_new || m_new > m_old || !fin {
                    clause.clear();
                    for e in 0..m_new {
                        clause.push(Lit::pos(tables.get(s, t.iter().copied().chain([e]))));
                    }
                    if !fin {
                        clause.push(Lit::neg(act));
                    }
                    solver.add_clause(&clause);
                }
            };
            if a == 0 {
                cell(&[], old == 0);
            } else {
                new_tuples(&vec![0; a], &sizes_new, &mut buf, |t| {
                    let is_new = t.iter().zip(&sizes_old).any(|(x, o)| x >= o);
                    cell(t, is_new);
                });
            }
        }
    }

    /// The ground instances of clauses `clauses` that size `n` adds to
    /// size `old` (the assignments that use a new element), each with
    /// `!guard` when a guard is given; returns how many were made.
    fn ground(
        &mut self,
        clauses: std::ops::Range<usize>,
        old: u32,
        n: u32,
        guard: Option<Lit>,
    ) -> u64 {
        let Search {
            flat,
            sorts,
            bound,
            solver,
            tables,
            ..
        } = self;
        let mut buf = Vec::new();
        let mut clause: Vec<Lit> = Vec::new();
        let mut made = 0u64;
        for ci in clauses {
            let c = &flat.clauses[ci];
            let mut emit = |a: &[u32]| {
                made += 1;
                clause.clear();
                for l in &c.lits {
                    let lit = match l {
                        FlatLit::Eq { a: x, b: y, pos } => {
                            if (a[*x as usize] == a[*y as usize]) == *pos {
                                return;
                            }
                            continue;
                        }
                        FlatLit::Fun { f, args, res, pos } => Lit::new(
                            tables.get(
                                *f,
                                args.iter()
                                    .map(|&v| a[v as usize])
                                    .chain([a[*res as usize]]),
                            ),
                            *pos,
                        ),
                        FlatLit::Pred { p, args, pos } => {
                            Lit::new(tables.get(*p, args.iter().map(|&v| a[v as usize])), *pos)
                        }
                    };
                    clause.push(lit);
                }
                clause.extend(guard.map(|g| !g));
                solver.add_clause(&clause);
            };
            if c.nvars == 0 {
                if old == 0 {
                    emit(&[]);
                }
                continue;
            }
            let range = |m: u32| -> Vec<u32> {
                sorts.vars[ci]
                    .iter()
                    .zip(&bound[ci])
                    .map(|(&s, &b)| sorts.size(s, m).min(b))
                    .collect()
            };
            new_tuples(&range(old), &range(n), &mut buf, |t| emit(t));
        }
        made
    }
}

impl ModelFinder {
    /// A finder with a ground-clause budget per size and a conflict budget per size.
    pub fn new(max_ground_clauses: u64, sat_conflicts: u64) -> ModelFinder {
        ModelFinder {
            max_ground_clauses,
            sat_conflicts,
            conflicts: 0,
            ground_clauses: 0,
            no_model_upto: 0,
            trace: Vec::new(),
            max_clause_literals: Some(crate::saturation::params::DEFAULT_MAX_CLAUSE_LITERALS),
            deadline: None,
        }
    }

    /// Changes the ground-clause and conflict budgets per size for later searches.
    pub fn set_budgets(&mut self, max_ground_clauses: u64, sat_conflicts: u64) {
        self.max_ground_clauses = max_ground_clauses;
        self.sat_conflicts = sat_conflicts;
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| d.passed())
    }

    /// Searches a model of `clauses` with a domain size in `sizes`, smallest
    /// first. `None` when none exists in the range or the budgets ran out:
    /// a size whose whole problem has more ground clauses, table variables
    /// or functionality clauses than the ground-clause budget ends the
    /// search, as does a size whose SAT call runs out of conflicts, an
    /// input clause over [`ModelFinder::max_clause_literals`], or the
    /// [`ModelFinder::deadline`].
    pub fn search(
        &mut self,
        bank: &TermBank,
        clauses: &[&[Literal]],
        sizes: RangeInclusive<u32>,
    ) -> Option<FiniteModel> {
        self.trace.clear();
        let (&first, &last) = (sizes.start(), sizes.end());
        if sizes.is_empty() || first == 0 || self.past_deadline() {
            return None;
        }
        if let Some(max) = self.max_clause_literals
            && clauses.iter().any(|c| c.len() > max as usize)
        {
            return None;
        }
        let flat = flat::flatten_until(bank, clauses, self.deadline)?;
        let sorts = sorts::infer(&flat);
        // Cell keys pack each argument and value in `bits` bits; a symbol
        // too wide for 128 bits only fits the budget at size 1.
        let bits = 32 - (last.max(2) - 1).leading_zeros();
        let widest = flat.syms.iter().map(|s| s.arity + 1).max().unwrap_or(0);
        let mut search = Search::new(bank, flat, sorts, bits);
        for n in first..=last {
            if self.past_deadline() {
                return None;
            }
            let (ground, vars, fclauses) = search.counts(n)?;
            if ground > self.max_ground_clauses
                || vars > self.max_ground_clauses
                || fclauses > self.max_ground_clauses
                || vars >= i32::MAX as u64
                || (n > 1 && widest as u64 * bits as u64 > 128)
            {
                return None;
            }
            let (act, made) = search.grow(n);
            self.ground_clauses += made;
            search.solver.set_budget(Some(self.sat_conflicts));
            let before = search.solver.conflicts();
            let result = search.solver.solve(&[act]);
            let spent = search.solver.conflicts() - before;
            self.conflicts += spent;
            self.trace.push((n, ground, spent));
            match result {
                SatResult::Sat => return Some(model(bank, &search, n)),
                SatResult::Unknown => return None,
                SatResult::Unsat => {
                    if n == self.no_model_upto + 1 {
                        self.no_model_upto = n;
                    }
                    if search.solver.core().is_empty() {
                        // Unsatisfiable without this size's totality
                        // clauses: every instance stays in the larger sizes,
                        // so none of them has a model either.
                        if self.no_model_upto == n {
                            self.no_model_upto = last;
                        }
                        return None;
                    }
                    search.solver.add_clause(&[!act]);
                }
            }
        }
        None
    }
}

/// The unsorted model of size `n` read from the solver's answer: each
/// argument of sort `s` outside `s`'s domain reads as element 0 (a copy of
/// it), symbols made by the flattening are left out.
fn model(bank: &TermBank, search: &Search, n: u32) -> FiniteModel {
    let (flat, sorts) = (&search.flat, &search.sorts);
    let mut functions = Vec::new();
    let mut predicates = Vec::new();
    for (s, (sym, sl)) in flat.syms.iter().zip(&sorts.slots).enumerate() {
        let Some(name) = sym.name else { continue };
        let s = s as u32;
        let a = sym.arity as usize;
        let sizes: Vec<u32> = sl[..a].iter().map(|&t| sorts.size(t, n)).collect();
        let cells = (n as u64).pow(sym.arity) as usize;
        let mut args = vec![0u32; a];
        let mut values = Vec::with_capacity(cells);
        for cell in 0..cells {
            let mut rest = cell as u64;
            for i in (0..a).rev() {
                let d = (rest % n as u64) as u32;
                rest /= n as u64;
                args[i] = if d < sizes[i] { d } else { 0 };
            }
            let value = if sym.fun {
                let m = sorts.size(sl[a], n);
                (0..m)
                    .find(|&e| {
                        search
                            .solver
                            .value(search.tables.get(s, args.iter().copied().chain([e])))
                    })
                    .expect("function tables are total")
            } else {
                search
                    .solver
                    .value(search.tables.get(s, args.iter().copied())) as u32
            };
            values.push(value);
        }
        let t = Table {
            name: bank.sig.get(name).name.clone(),
            arity: sym.arity,
            values,
        };
        if sym.fun {
            functions.push(t);
        } else {
            predicates.push(t);
        }
    }
    FiniteModel {
        size: n,
        functions,
        predicates,
    }
}

#[cfg(test)]
mod tests {
    use super::reference::ReferenceFinder;
    use super::*;
    use crate::checker;
    use crate::logic::testing::{TermShape, TestSig, build_literal, literal_shape};
    use crate::tptp::{clause_to_tptp, parse_clause_str};
    use proptest::prelude::*;

    fn clauses(bank: &mut TermBank, text: &[&str]) -> Vec<Vec<Literal>> {
        text.iter()
            .map(|t| parse_clause_str(bank, t).expect("clause parses"))
            .collect()
    }

    /// The model found for `text` with sizes `1..=upto`, checked on every
    /// input clause by the independent checker.
    fn find(text: &[&str], upto: u32) -> Option<FiniteModel> {
        let mut bank = TermBank::new();
        let cs = clauses(&mut bank, text);
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let m = ModelFinder::new(1_000_000, 100_000).search(&bank, &refs, 1..=upto)?;
        for t in text {
            assert_eq!(checker::model_satisfies(&m, t), Ok(true), "{t} in {m:?}");
        }
        Some(m)
    }

    #[test]
    fn two_distinct_constants_need_two_elements() {
        let m = find(&["a != b"], 4).expect("model");
        assert_eq!(m.size, 2);
    }

    #[test]
    fn distinct_values_get_distinct_elements() {
        // Without the constraint one element would do.
        let m = find(&["q(\"a\")", "q(\"b\")", "q(1/2)", "q(2/4)"], 4).unwrap();
        assert_eq!(m.size, 3);
        let value = |name: &str| m.functions.iter().find(|t| t.name == name).unwrap().values[0];
        assert_ne!(value("\"a\""), value("\"b\""));
        assert_ne!(value("\"a\""), value("1/2"));
        // Three distinct values and a two-element domain: no model.
        assert!(
            find(
                &["X = Y | X = Z | Y = Z", "q(\"a\") | q(\"b\") | q(\"c\")"],
                2
            )
            .is_none()
        );
    }

    #[test]
    fn involution_without_fixed_point() {
        // f(f(X)) = X, f(X) != X: needs an even domain.
        let m = find(&["f(f(X)) = X", "f(X) != X"], 4).expect("model");
        assert_eq!(m.size, 2);
        assert_eq!(m.functions[0].values, vec![1, 0]);
    }

    #[test]
    fn contradictory_set_has_no_model() {
        assert!(find(&["p(X)", "~p(a)"], 4).is_none());
        // Injective non-surjective function: only infinite models.
        assert!(find(&["f(X) != a", "f(X) != f(Y) | X = Y"], 5).is_none());
    }

    /// A set unsatisfiable without the totality clauses of any size is
    /// known to have no model at every size of the range after one call.
    #[test]
    fn unsatisfiable_instances_close_the_whole_range() {
        let mut bank = TermBank::new();
        let cs = clauses(&mut bank, &["p(X)", "~p(a)"]);
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let mut f = ModelFinder::new(1_000_000, 100_000);
        assert!(f.search(&bank, &refs, 1..=6).is_none());
        assert_eq!(f.no_model_upto, 6);
        assert_eq!(f.trace.len(), 1);
    }

    #[test]
    fn huge_arities_exceed_the_budget_without_overflow() {
        for arity in [31usize, 32, 64] {
            let args = vec!["a"; arity].join(",");
            let atom = format!("p({args})");
            assert!(
                find(&[atom.as_str(), "q(a)", "~q(b)"], 4).is_none(),
                "{arity}"
            );
        }
        let m = find(&["p(a,a,a,a)", "q(a)", "~q(b)"], 4).expect("model");
        assert_eq!(m.size, 2);
    }

    /// Sorts: seven distinct points need seven elements, while the sets
    /// (made by a binary function) are searched at the same size but the
    /// colour sort, only two constants, stays at two elements; the model is
    /// padded to one domain of size 7 and still checks.
    #[test]
    fn sorts_let_a_small_sort_stay_small() {
        let mut text: Vec<String> = Vec::new();
        let points = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"];
        for (i, a) in points.iter().enumerate() {
            for b in &points[i + 1..] {
                text.push(format!("{a} != {b}"));
            }
        }
        text.push("colour(X, red) | colour(X, blue)".into());
        text.push("~colour(X, red) | ~colour(X, blue)".into());
        text.push("colour(p1, red)".into());
        let refs: Vec<&str> = text.iter().map(|s| s.as_str()).collect();
        let m = find(&refs, 8).expect("model");
        assert_eq!(m.size, 7);
        let mut bank = TermBank::new();
        let cs = clauses(&mut bank, &refs);
        let lits: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let mut f = ModelFinder::new(1_000_000, 100_000);
        f.search(&bank, &lits, 1..=8).expect("model");
        let mut r = ReferenceFinder::new(1_000_000, 100_000);
        r.search(&bank, &lits, 1..=8).expect("model");
        // The colour variable X ranges over the points, `red`/`blue` over
        // a sort of two: fewer ground clauses than one sort of seven.
        assert!(
            f.ground_clauses < r.ground_clauses,
            "{} vs {}",
            f.ground_clauses,
            r.ground_clauses
        );
    }

    /// Least-number bounds on constants make the grounding skip what
    /// symmetry breaking rules out, and sorts keep apart what never meets.
    #[test]
    fn constants_bound_the_variables_that_name_them() {
        let mut bank = TermBank::new();
        let text = [
            "r(a, b, c)",
            "X = Y | X = Z | Y = Z | X = W | Y = W | Z = W",
            "~r(X, X, Y)",
        ];
        let cs = clauses(&mut bank, &text);
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let mut f = ModelFinder::new(1_000_000, 100_000);
        let m = f.search(&bank, &refs, 3..=3).expect("model");
        assert_eq!(m.size, 3);
        for t in text {
            assert_eq!(checker::model_satisfies(&m, t), Ok(true));
        }
        // Sorts: {a, b, r.1, r.2} (two constants: two elements) and
        // {c, r.3} (one), apart from the four-variable clause's own sort
        // of three. r(a,b,c): a in {0}, b in {0,1}, c in {0}: 2 instances;
        // ~r(X,X,Y): 2 x 1; the four variables 3^4.
        assert_eq!(f.trace[0].1, 2 + 2 + 81);
    }

    /// The finder on one size at a time agrees with the reference: a model
    /// where the reference has one, none where it proves there is none.
    fn agree(texts: &[String], n: u32) -> Result<(), TestCaseError> {
        let mut bank = TermBank::new();
        let refs_text: Vec<&str> = texts.iter().map(|s| s.as_str()).collect();
        let cs = clauses(&mut bank, &refs_text);
        let lits: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let mut r = ReferenceFinder::new(200_000, 1_000_000);
        let mut f = ModelFinder::new(200_000, 1_000_000);
        let expected = r.search(&bank, &lits, n..=n);
        let got = f.search(&bank, &lits, n..=n);
        if let Some(m) = &got {
            prop_assert_eq!(m.size, n);
            for t in texts {
                prop_assert_eq!(checker::model_satisfies(m, t), Ok(true), "{} in {:?}", t, m);
            }
        }
        if expected.is_some() {
            prop_assert!(
                got.is_some() || f.trace.is_empty(),
                "reference found a model at {}",
                n
            );
        }
        if r.no_model_upto >= n {
            prop_assert!(got.is_none(), "model at {} where the reference has none", n);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]
        #[test]
        fn agrees_with_the_reference_finder(
            shapes in prop::collection::vec(prop::collection::vec(literal_shape(3), 1..=3), 1..=5),
            n in 1u32..=3,
        ) {
            let mut bank = TermBank::new();
            let sig = TestSig::new(&mut bank);
            agree(&clause_texts(&mut bank, &sig, &shapes), n)?;
        }
    }

    /// The TPTP texts of clauses drawn as literal shapes.
    pub(super) fn clause_texts(
        bank: &mut TermBank,
        sig: &TestSig,
        shapes: &[Vec<(bool, bool, TermShape, TermShape)>],
    ) -> Vec<String> {
        shapes
            .iter()
            .map(|c| {
                let lits: Vec<Literal> = c.iter().map(|l| build_literal(bank, sig, l)).collect();
                clause_to_tptp(bank, &lits)
            })
            .collect()
    }
}
