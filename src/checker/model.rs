//! Finite-model certificates: every clause evaluated under every assignment
//! over the domain `{0..n-1}` of a finite interpretation, by a search that
//! prunes (a literal is evaluated as soon as its variables are bound, and a
//! true one ends its branch) within a work [`Budget`].

use super::parse::parse_clause;
use super::problem::{Budget, CheckError, CheckProblem, Checked, err};
use super::rules::distinct_value;
use super::terms::{Clause, L, Syms, T, clause_vars};
use crate::certificate::FiniteModel;
use std::collections::HashMap;

pub(super) struct Interp<'a> {
    pub(super) n: u32,
    pub(super) funs: HashMap<(&'a str, u32), &'a [u32]>,
    pub(super) preds: HashMap<(&'a str, u32), &'a [u32]>,
}

impl Interp<'_> {
    pub(super) fn eval(&self, syms: &Syms, t: &T, a: &[u32]) -> Result<u32, CheckError> {
        match t {
            T::V(i) => Ok(a[*i as usize]),
            T::F(f, args) => {
                let (name, arity, _) = &syms.names[*f as usize];
                let table = self.funs.get(&(name.as_str(), *arity)).ok_or_else(|| {
                    CheckError::refused(format!("model has no table for {name}/{arity}"))
                })?;
                let mut cell = 0u64;
                for x in args {
                    cell = cell * self.n as u64 + self.eval(syms, x, a)? as u64;
                }
                Ok(table[cell as usize])
            }
        }
    }

    pub(super) fn holds(&self, syms: &Syms, l: &L, a: &[u32]) -> Result<bool, CheckError> {
        let v = match &l.b {
            Some(b) => self.eval(syms, &l.a, a)? == self.eval(syms, b, a)?,
            None => {
                let T::F(p, args) = &l.a else {
                    return err("a variable used as an atom");
                };
                let (name, arity, _) = &syms.names[*p as usize];
                if name == "$true" && *arity == 0 {
                    true
                } else {
                    let table = self.preds.get(&(name.as_str(), *arity)).ok_or_else(|| {
                        CheckError::refused(format!(
                            "model has no table for predicate {name}/{arity}"
                        ))
                    })?;
                    let mut cell = 0u64;
                    for x in args {
                        cell = cell * self.n as u64 + self.eval(syms, x, a)? as u64;
                    }
                    table[cell as usize] == 1
                }
            }
        };
        Ok(v == l.pos)
    }

    /// The first assignment under which `c` is false, if any, found by a
    /// search that prunes: variables are assigned one at a time (in the
    /// order they first occur in the literals, fewest-variable literals
    /// first), a literal is evaluated as soon as its variables are bound,
    /// a literal that is true ends the branch (every extension satisfies
    /// the clause), and once every literal is false the variables not yet
    /// bound are free (they stay 0). Each assignment and each literal
    /// evaluation spends one unit of `budget`; past it the search ends with
    /// an out-of-budget error instead of an answer.
    pub(super) fn falsifier(
        &self,
        syms: &Syms,
        c: &Clause,
        budget: &mut Budget,
    ) -> Result<Option<Vec<u32>>, CheckError> {
        let k = clause_vars(c) as usize;
        let mut a = vec![0u32; k];
        // Literals by their number of distinct variables, and the variable
        // order that binds them in that order.
        let vars: Vec<Vec<u32>> = c.iter().map(lit_vars).collect();
        let mut by_size: Vec<usize> = (0..c.len()).collect();
        by_size.sort_by_key(|&i| vars[i].len());
        let mut level = vec![usize::MAX; k];
        let mut order: Vec<usize> = Vec::new();
        // ready[d]: the literals whose last variable is order[d - 1]
        // (ready[0]: the ground literals).
        let mut ready: Vec<Vec<usize>> = vec![Vec::new()];
        for &i in &by_size {
            let mut last = 0;
            for &v in &vars[i] {
                let v = v as usize;
                if level[v] == usize::MAX {
                    order.push(v);
                    level[v] = order.len();
                    ready.push(Vec::new());
                }
                last = last.max(level[v]);
            }
            ready[last].push(i);
        }
        // A literal true at a level ends the branch.
        let any_true = |d: usize, a: &[u32], budget: &mut Budget| {
            for &i in &ready[d] {
                budget.spend(1)?;
                if self.holds(syms, &c[i], a)? {
                    return Ok::<bool, CheckError>(true);
                }
            }
            Ok(false)
        };
        if any_true(0, &a, budget)? {
            return Ok(None);
        }
        if order.is_empty() {
            return Ok(Some(a));
        }
        let mut pos = 0usize;
        loop {
            budget.spend(1)?;
            let pruned = any_true(pos + 1, &a, budget)?;
            if !pruned {
                if pos + 1 == order.len() {
                    return Ok(Some(a));
                }
                pos += 1;
                a[order[pos]] = 0;
                continue;
            }
            // Next value at this level, backtracking over exhausted ones.
            loop {
                let v = order[pos];
                a[v] += 1;
                if a[v] < self.n {
                    break;
                }
                a[v] = 0;
                if pos == 0 {
                    return Ok(None);
                }
                pos -= 1;
            }
        }
    }
}

/// The distinct variables of a literal.
fn lit_vars(l: &L) -> Vec<u32> {
    fn walk(t: &T, out: &mut Vec<u32>) {
        match t {
            T::V(i) => out.push(*i),
            T::F(_, args) => args.iter().for_each(|x| walk(x, out)),
        }
    }
    let mut out = Vec::new();
    walk(&l.a, &mut out);
    if let Some(b) = &l.b {
        walk(b, &mut out);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether `clause` (TPTP text) is true in the model under every
/// assignment. A clause that uses a symbol the model has no table for is
/// reported as not satisfied (`Ok(false)`): nothing is known about it. The
/// check has the default [`Budget`]; past it the answer is an
/// out-of-budget error.
pub fn model_satisfies(m: &FiniteModel, clause: &str) -> Result<bool, CheckError> {
    ModelClause::parse(clause)?.satisfied_by(m)
}

/// A clause parsed once to be evaluated in many models: what
/// [`model_satisfies`] does per call, without its parse. The selection
/// generator evaluates each pool clause in every countermodel it finds,
/// and parsing the text each time was most of that work (5% of GEO
/// selection's CPU at levels 3-4).
pub struct ModelClause {
    syms: Syms,
    clause: Clause,
}

impl ModelClause {
    /// Parses `clause` (TPTP text).
    pub fn parse(clause: &str) -> Result<ModelClause, CheckError> {
        let mut syms = Syms::default();
        let clause = parse_clause(&mut syms, clause)?;
        Ok(ModelClause { syms, clause })
    }

    /// [`model_satisfies`] for this clause.
    pub fn satisfied_by(&self, m: &FiniteModel) -> Result<bool, CheckError> {
        self.holds_in(&ModelTables::of(m)?)
    }

    /// [`ModelClause::satisfied_by`] for a model whose tables are read
    /// already.
    pub fn holds_in(&self, m: &ModelTables<'_>) -> Result<bool, CheckError> {
        match m
            .0
            .falsifier(&self.syms, &self.clause, &mut Budget::default())
        {
            Ok(f) => Ok(f.is_none()),
            Err(e) if e.message.starts_with("model has no table") => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// A model's tables, checked and indexed once for evaluating many
/// [`ModelClause`]s in it.
pub struct ModelTables<'a>(Interp<'a>);

impl<'a> ModelTables<'a> {
    /// Reads `m`'s tables (refused when malformed, as the checker refuses
    /// them).
    pub fn of(m: &'a FiniteModel) -> Result<ModelTables<'a>, CheckError> {
        Ok(ModelTables(interp_of(m)?))
    }
}

/// The interpretation of a model's tables, after checking their shapes.
pub(super) fn interp_of(m: &FiniteModel) -> Result<Interp<'_>, CheckError> {
    if m.size == 0 {
        return err("a model needs a non-empty domain");
    }
    let mut interp = Interp {
        n: m.size,
        funs: HashMap::new(),
        preds: HashMap::new(),
    };
    for (tables, is_pred) in [(&m.functions, false), (&m.predicates, true)] {
        for t in tables {
            let cells = (m.size as u64).checked_pow(t.arity).unwrap_or(u64::MAX);
            if t.values.len() as u64 != cells {
                return err(format!(
                    "table of {}/{} has {} entries, expected {cells}",
                    t.name,
                    t.arity,
                    t.values.len()
                ));
            }
            let bound = if is_pred { 2 } else { m.size };
            if t.values.iter().any(|&v| v >= bound) {
                return err(format!(
                    "table of {}/{} has a value out of range",
                    t.name, t.arity
                ));
            }
            let map = if is_pred {
                &mut interp.preds
            } else {
                &mut interp.funs
            };
            if map.insert((t.name.as_str(), t.arity), &t.values).is_some() {
                return err(format!("two tables for {}/{}", t.name, t.arity));
            }
        }
    }
    // Distinct objects and numbers of different values must denote
    // different elements.
    let mut holder: HashMap<u32, (String, &str)> = HashMap::new();
    for t in m.functions.iter().filter(|t| t.arity == 0) {
        let Some(v) = distinct_value(&t.name) else {
            continue;
        };
        if let Some((w, other)) = holder.get(&t.values[0])
            && *w != v
        {
            return err(format!(
                "the model maps the distinct values {other} and {} to the same element",
                t.name
            ));
        }
        holder.insert(t.values[0], (v, &t.name));
    }
    Ok(interp)
}

/// Checks a finite model: every premise true under every assignment, the
/// conjecture (if any) false under some, all within `budget`.
pub(super) fn check_model(
    problem: &CheckProblem,
    m: &FiniteModel,
    budget: &mut Budget,
) -> Result<Checked, CheckError> {
    let interp = interp_of(m)?;
    let mut syms = Syms::default();
    for text in &problem.axioms {
        let c = parse_clause(&mut syms, text)?;
        if let Some(a) = interp.falsifier(&syms, &c, budget)? {
            return err(format!("premise `{text}` is false under assignment {a:?}"));
        }
    }
    if let Some(text) = &problem.conjecture {
        // Some assignment must falsify the conjecture.
        let c = parse_clause(&mut syms, text)?;
        if interp.falsifier(&syms, &c, budget)?.is_none() {
            return err(format!("the conjecture `{text}` holds in the model"));
        }
    }
    Ok(Checked::Model { size: m.size })
}
