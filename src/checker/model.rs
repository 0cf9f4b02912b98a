//! Finite-model certificates: exhaustive evaluation of every clause under
//! every assignment over the domain `{0..n-1}` of a finite interpretation.

use super::parse::parse_clause;
use super::problem::{CheckError, CheckProblem, Checked, err};
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
                let table = self
                    .funs
                    .get(&(name.as_str(), *arity))
                    .ok_or_else(|| CheckError(format!("model has no table for {name}/{arity}")))?;
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
                        CheckError(format!("model has no table for predicate {name}/{arity}"))
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

    /// The first assignment under which `c` is false, if any.
    pub(super) fn falsifier(
        &self,
        syms: &Syms,
        c: &Clause,
    ) -> Result<Option<Vec<u32>>, CheckError> {
        let k = clause_vars(c) as usize;
        let mut a = vec![0u32; k];
        loop {
            let mut sat = false;
            for l in c {
                if self.holds(syms, l, &a)? {
                    sat = true;
                    break;
                }
            }
            if !sat {
                return Ok(Some(a));
            }
            let mut i = 0;
            while i < k {
                a[i] += 1;
                if a[i] < self.n {
                    break;
                }
                a[i] = 0;
                i += 1;
            }
            if i == k {
                return Ok(None);
            }
        }
    }
}

/// Whether `clause` (TPTP text) is true in the model under every
/// assignment. A clause that uses a symbol the model has no table for is
/// reported as not satisfied (`Ok(false)`): nothing is known about it.
pub fn model_satisfies(m: &FiniteModel, clause: &str) -> Result<bool, CheckError> {
    let interp = interp_of(m)?;
    let mut syms = Syms::default();
    let c = parse_clause(&mut syms, clause)?;
    match interp.falsifier(&syms, &c) {
        Ok(f) => Ok(f.is_none()),
        Err(CheckError(msg)) if msg.starts_with("model has no table") => Ok(false),
        Err(e) => Err(e),
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

pub(super) fn check_model(problem: &CheckProblem, m: &FiniteModel) -> Result<Checked, CheckError> {
    let interp = interp_of(m)?;
    let mut syms = Syms::default();
    for text in &problem.axioms {
        let c = parse_clause(&mut syms, text)?;
        if let Some(a) = interp.falsifier(&syms, &c)? {
            return err(format!("premise `{text}` is false under assignment {a:?}"));
        }
    }
    if let Some(text) = &problem.conjecture {
        let c = parse_clause(&mut syms, text)?;
        let k = clause_vars(&c) as usize;
        // Some assignment must falsify the conjecture: search all of them.
        let negated: Clause = c
            .iter()
            .map(|l| L {
                pos: !l.pos,
                ..l.clone()
            })
            .collect();
        let mut a = vec![0u32; k];
        let mut found = false;
        'outer: loop {
            let mut all = true;
            for l in &negated {
                if !interp.holds(&syms, l, &a)? {
                    all = false;
                    break;
                }
            }
            if all {
                found = true;
                break;
            }
            let mut i = 0;
            while i < k {
                a[i] += 1;
                if a[i] < m.size {
                    continue 'outer;
                }
                a[i] = 0;
                i += 1;
            }
            break;
        }
        if !found {
            return err(format!("the conjecture `{text}` holds in the model"));
        }
    }
    Ok(Checked::Model { size: m.size })
}
