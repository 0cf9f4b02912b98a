//! The plain MACE-style finite model finder (McCune, "MACE 2.0 reference
//! manual and guide", ANL/MCS-TM-249, 2001), kept as the reference the
//! finder of [`super`] is tested and benchmarked against: flatten the
//! clauses so every literal is shallow, ground them over the domain
//! `{0..n-1}` of one sort, add the totality and functionality constraints of
//! the function tables, bound the i-th constant to `0..=i`, and solve a
//! fresh SAT problem per size. Everything is bounded by ground-clause and
//! conflict budgets.

use crate::logic::{Head, Literal, SymbolId, TermBank, TermId};
use crate::prover::{FiniteModel, Table};
use crate::sat::{Batsat, Lit, SatResult, SatSolver, Var};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

/// A shallow literal over clause variables.
#[derive(Clone, Debug, PartialEq, Eq)]
enum FlatLit {
    /// `f(x1..xk) = y` (or `!=`).
    Fun {
        f: SymbolId,
        args: Vec<u32>,
        res: u32,
        pos: bool,
    },
    /// `p(x1..xk)` (or its negation).
    Pred {
        p: SymbolId,
        args: Vec<u32>,
        pos: bool,
    },
    /// `x = y` (or `!=`).
    VarEq { a: u32, b: u32, pos: bool },
    /// `$true` (pos) or `~$true`.
    Const(bool),
}

/// A flattened clause; variables are numbered densely from 0.
#[derive(Clone, Debug)]
struct FlatClause {
    nvars: u32,
    lits: Vec<FlatLit>,
}

struct Flattener<'a> {
    bank: &'a TermBank,
    vars: BTreeMap<u32, u32>,
    memo: Vec<(TermId, u32)>,
    next: u32,
    defs: Vec<FlatLit>,
}

impl Flattener<'_> {
    fn var(&mut self, i: u32) -> u32 {
        let next = &mut self.next;
        *self.vars.entry(i).or_insert_with(|| {
            *next += 1;
            *next - 1
        })
    }

    /// A variable standing for `t`; non-variable terms get a defining
    /// literal `t != v` (so the clause reads "if t = v then ...").
    fn name(&mut self, t: TermId) -> u32 {
        if let Head::Var(i) = self.bank.head(t) {
            return self.var(i);
        }
        if let Some(&(_, v)) = self.memo.iter().find(|(u, _)| *u == t) {
            return v;
        }
        let args = self.args(t);
        let v = self.next;
        self.next += 1;
        self.defs.push(FlatLit::Fun {
            f: self.bank.sym(t),
            args,
            res: v,
            pos: false,
        });
        self.memo.push((t, v));
        v
    }

    fn args(&mut self, t: TermId) -> Vec<u32> {
        let args = self.bank.args(t).to_vec();
        args.into_iter().map(|a| self.name(a)).collect()
    }

    fn literal(&mut self, l: &Literal) -> FlatLit {
        let b = self.bank;
        if l.rhs == b.true_term() {
            if l.lhs == b.true_term() {
                return FlatLit::Const(l.pos);
            }
            return FlatLit::Pred {
                p: b.sym(l.lhs),
                args: self.args(l.lhs),
                pos: l.pos,
            };
        }
        match (b.is_var(l.lhs), b.is_var(l.rhs)) {
            (true, true) => FlatLit::VarEq {
                a: self.name(l.lhs),
                b: self.name(l.rhs),
                pos: l.pos,
            },
            (false, true) => FlatLit::Fun {
                f: b.sym(l.lhs),
                args: self.args(l.lhs),
                res: self.name(l.rhs),
                pos: l.pos,
            },
            (true, false) => FlatLit::Fun {
                f: b.sym(l.rhs),
                args: self.args(l.rhs),
                res: self.name(l.lhs),
                pos: l.pos,
            },
            (false, false) => {
                let res = self.name(l.rhs);
                FlatLit::Fun {
                    f: b.sym(l.lhs),
                    args: self.args(l.lhs),
                    res,
                    pos: l.pos,
                }
            }
        }
    }
}

fn flatten(bank: &TermBank, lits: &[Literal]) -> FlatClause {
    let mut fl = Flattener {
        bank,
        vars: BTreeMap::new(),
        memo: Vec::new(),
        next: 0,
        defs: Vec::new(),
    };
    let mut out: Vec<FlatLit> = lits.iter().map(|l| fl.literal(l)).collect();
    out.append(&mut fl.defs);
    FlatClause {
        nvars: fl.next,
        lits: out,
    }
}

/// The symbols of a flattened problem with their SAT variable blocks.
struct Layout {
    n: u32,
    /// (symbol, arity, is_function, first SAT variable)
    blocks: BTreeMap<SymbolId, (u32, bool, u32)>,
}

/// The SAT variables and function-table clauses of domain size `n` for
/// the symbols `order`, or `None` if a count overflows `u64`. A predicate
/// of arity `a` has `n^a` cells (one variable each), a function `n^a` cells
/// of `n` variables and `1 + n(n-1)/2` clauses each.
fn table_sizes(order: &[(SymbolId, u32, bool)], n: u32) -> Option<(u64, u64)> {
    let n = n as u64;
    let per_cell_clauses = n.checked_mul(n.saturating_sub(1))? / 2 + 1;
    let (mut vars, mut clauses) = (0u64, 0u64);
    for &(_, arity, fun) in order {
        let cells = n.checked_pow(arity)?;
        if fun {
            vars = vars.checked_add(cells.checked_mul(n)?)?;
            clauses = clauses.checked_add(cells.checked_mul(per_cell_clauses)?)?;
        } else {
            vars = vars.checked_add(cells)?;
        }
    }
    Some((vars, clauses))
}

impl Layout {
    /// `n^arity`; [`table_sizes`] checked that it fits before a layout of
    /// this size is built.
    fn cells(&self, arity: u32) -> u64 {
        (self.n as u64).pow(arity)
    }

    fn cell(&self, args: &[u32], assignment: &[u32]) -> u32 {
        args.iter()
            .fold(0, |c, &a| c * self.n + assignment[a as usize])
    }

    fn fun_var(&self, f: SymbolId, cell: u32, value: u32) -> Var {
        let (_, _, base) = self.blocks[&f];
        Var(base + cell * self.n + value)
    }

    fn pred_var(&self, p: SymbolId, cell: u32) -> Var {
        let (_, _, base) = self.blocks[&p];
        Var(base + cell)
    }
}

/// The reference finder; keeps its work counters across calls.
pub struct ReferenceFinder {
    max_ground_clauses: u64,
    sat_conflicts: u64,
    /// SAT conflicts spent so far.
    pub conflicts: u64,
    /// Ground clauses produced so far.
    pub ground_clauses: u64,
    /// Every size up to this one is known to have no model.
    pub no_model_upto: u32,
}

impl ReferenceFinder {
    /// A finder with a ground-clause budget per size and a conflict budget per size.
    pub fn new(max_ground_clauses: u64, sat_conflicts: u64) -> ReferenceFinder {
        ReferenceFinder {
            max_ground_clauses,
            sat_conflicts,
            conflicts: 0,
            ground_clauses: 0,
            no_model_upto: 0,
        }
    }

    /// Changes the ground-clause and conflict budgets per size for later searches.
    pub fn set_budgets(&mut self, max_ground_clauses: u64, sat_conflicts: u64) {
        self.max_ground_clauses = max_ground_clauses;
        self.sat_conflicts = sat_conflicts;
    }

    /// Searches a model of `clauses` with a domain size in `sizes`, smallest
    /// first. `None` when none exists in the range or the budgets ran out.
    pub fn search(
        &mut self,
        bank: &TermBank,
        clauses: &[&[Literal]],
        sizes: RangeInclusive<u32>,
    ) -> Option<FiniteModel> {
        if sizes.is_empty() {
            return None;
        }
        let flat: Vec<FlatClause> = clauses.iter().map(|c| flatten(bank, c)).collect();
        let mut order: Vec<(SymbolId, u32, bool)> = Vec::new();
        let mut note = |s: SymbolId, arity: usize, fun: bool| {
            if !order.iter().any(|&(t, _, _)| t == s) {
                order.push((s, arity as u32, fun));
            }
        };
        for c in &flat {
            for l in &c.lits {
                match l {
                    FlatLit::Fun { f, args, .. } => note(*f, args.len(), true),
                    FlatLit::Pred { p, args, .. } => note(*p, args.len(), false),
                    _ => {}
                }
            }
        }
        for n in sizes {
            let estimate: u64 = flat
                .iter()
                .map(|c| (n as u64).saturating_pow(c.nvars))
                .fold(0u64, |a, b| a.saturating_add(b));
            if n == 0 || estimate > self.max_ground_clauses {
                return None;
            }
            // The tables themselves are bounded by the same budget (a
            // predicate of arity 31 has 2^31 cells at size 2), and their
            // variables must be numbered in `u32` below `i32::MAX`.
            match table_sizes(&order, n) {
                Some((vars, clauses))
                    if vars <= self.max_ground_clauses
                        && clauses <= self.max_ground_clauses
                        && vars < i32::MAX as u64 => {}
                _ => return None,
            }
            match self.try_size(bank, &flat, &order, n) {
                Some(Some(m)) => return Some(m),
                Some(None) => {
                    if n == self.no_model_upto + 1 {
                        self.no_model_upto = n;
                    }
                    continue;
                }
                None => return None,
            }
        }
        None
    }

    /// `Some(Some(model))`, `Some(None)` when no model of size `n` exists,
    /// `None` when the conflict budget ran out.
    fn try_size(
        &mut self,
        bank: &TermBank,
        flat: &[FlatClause],
        order: &[(SymbolId, u32, bool)],
        n: u32,
    ) -> Option<Option<FiniteModel>> {
        let mut solver = Batsat::new();
        let mut layout = Layout {
            n,
            blocks: BTreeMap::new(),
        };
        for &(s, arity, fun) in order {
            let cells = layout.cells(arity) as u32;
            let count = if fun { cells * n } else { cells };
            let base = solver.num_vars() + 1;
            for _ in 0..count {
                solver.new_var();
            }
            layout.blocks.insert(s, (arity, fun, base));
        }
        // Function tables are total and single-valued.
        let mut clause: Vec<Lit> = Vec::new();
        for &(s, arity, fun) in order {
            if !fun {
                continue;
            }
            for cell in 0..layout.cells(arity) as u32 {
                clause.clear();
                clause.extend((0..n).map(|e| Lit::pos(layout.fun_var(s, cell, e))));
                solver.add_clause(&clause);
                for a in 0..n {
                    for b in a + 1..n {
                        solver.add_clause(&[
                            Lit::neg(layout.fun_var(s, cell, a)),
                            Lit::neg(layout.fun_var(s, cell, b)),
                        ]);
                    }
                }
            }
        }
        // Distinct objects and numbers of different values denote different
        // elements (TPTP semantics).
        let values: Vec<SymbolId> = order
            .iter()
            .filter(|&&(s, arity, fun)| fun && arity == 0 && bank.sig.get(s).value.is_some())
            .map(|&(s, _, _)| s)
            .collect();
        for (i, &a) in values.iter().enumerate() {
            for &b in &values[i + 1..] {
                if bank.sig.distinct_values(a, b) {
                    for e in 0..n {
                        solver.add_clause(&[
                            Lit::neg(layout.fun_var(a, 0, e)),
                            Lit::neg(layout.fun_var(b, 0, e)),
                        ]);
                    }
                }
            }
        }
        // Least-number symmetry breaking: the i-th constant is one of 0..=i.
        let mut k = 0u32;
        for &(s, arity, fun) in order {
            if fun && arity == 0 {
                for e in (k + 1)..n {
                    solver.add_clause(&[Lit::neg(layout.fun_var(s, 0, e))]);
                }
                k += 1;
            }
        }
        // Ground every flattened clause over every assignment.
        let mut assignment: Vec<u32> = Vec::new();
        for c in flat {
            assignment.clear();
            assignment.resize(c.nvars as usize, 0);
            loop {
                self.ground_clauses += 1;
                clause.clear();
                let mut satisfied = false;
                for l in &c.lits {
                    match l {
                        FlatLit::Const(v) => satisfied |= *v,
                        FlatLit::VarEq { a, b, pos } => {
                            satisfied |=
                                (assignment[*a as usize] == assignment[*b as usize]) == *pos
                        }
                        FlatLit::Fun { f, args, res, pos } => {
                            let cell = layout.cell(args, &assignment);
                            let v = layout.fun_var(*f, cell, assignment[*res as usize]);
                            clause.push(Lit::new(v, *pos));
                        }
                        FlatLit::Pred { p, args, pos } => {
                            let cell = layout.cell(args, &assignment);
                            clause.push(Lit::new(layout.pred_var(*p, cell), *pos));
                        }
                    }
                    if satisfied {
                        break;
                    }
                }
                if !satisfied {
                    solver.add_clause(&clause);
                }
                // Next assignment (odometer).
                let mut i = 0;
                loop {
                    if i == assignment.len() {
                        break;
                    }
                    assignment[i] += 1;
                    if assignment[i] < n {
                        break;
                    }
                    assignment[i] = 0;
                    i += 1;
                }
                if i == assignment.len() {
                    break;
                }
            }
        }
        solver.set_budget(Some(self.sat_conflicts));
        let before = solver.conflicts();
        let result = solver.solve(&[]);
        self.conflicts += solver.conflicts() - before;
        match result {
            SatResult::Unsat => Some(None),
            SatResult::Unknown => None,
            SatResult::Sat => {
                let mut functions = Vec::new();
                let mut predicates = Vec::new();
                for &(s, arity, fun) in order {
                    let cells = layout.cells(arity) as u32;
                    let values: Vec<u32> = (0..cells)
                        .map(|cell| {
                            if fun {
                                (0..n)
                                    .find(|&e| solver.value(layout.fun_var(s, cell, e)))
                                    .expect("function tables are total")
                            } else {
                                solver.value(layout.pred_var(s, cell)) as u32
                            }
                        })
                        .collect();
                    let t = Table {
                        name: bank.sig.get(s).name.clone(),
                        arity,
                        values,
                    };
                    if fun {
                        functions.push(t);
                    } else {
                        predicates.push(t);
                    }
                }
                Some(Some(FiniteModel {
                    size: n,
                    functions,
                    predicates,
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tptp::parse_clause_str;

    fn clauses(bank: &mut TermBank, text: &[&str]) -> Vec<Vec<Literal>> {
        text.iter()
            .map(|t| parse_clause_str(bank, t).expect("clause parses"))
            .collect()
    }

    fn find(text: &[&str], upto: u32) -> Option<FiniteModel> {
        let mut bank = TermBank::new();
        let cs = clauses(&mut bank, text);
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        ReferenceFinder::new(1_000_000, 100_000).search(&bank, &refs, 1..=upto)
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

    /// Predicates of arity 31, 32 and 64 have 2^arity cells at size 2: the
    /// search gives up within its budget instead of allocating or
    /// overflowing the variable numbering.
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
        assert_eq!(table_sizes(&[(SymbolId(0), 64, false)], 2), None);
        assert_eq!(
            table_sizes(&[(SymbolId(0), 2, true), (SymbolId(1), 3, false)], 3),
            Some((27 + 27, 9 * 4))
        );
        // A small arity still finds its model.
        let m = find(&["p(a,a,a,a)", "q(a)", "~q(b)"], 4).expect("model");
        assert_eq!(m.size, 2);
    }
}
