//! Finite countermodels that certify an EQ gap unfillable (ProofGrid EQ1's
//! gap filling, seed 000 §3, with certified decoys): an interpretation
//! over `{0..n-1}` in which every equation holds for every assignment of its
//! variables, but the (ground) lines before and after the gap take different
//! values. A proof step replaces an instance of one side of an equation by
//! the same instance of the other side, which keeps the value of the whole
//! term in such a model, so no chain of steps links the two lines
//! (Birkhoff's soundness of equational logic; the search is the MACE-style
//! finder of [`crate::prover::mace`], after McCune 2001).
//!
//! The search flattens clauses into one variable per subterm, so the two
//! (large) ground lines and the ground parts of the equations are first cut
//! into definitions: every non-constant ground subterm gets a helper
//! constant `k = f(k1,..,kn)`. The helpers are
//! dropped from the model returned. [`check`] evaluates a model directly and
//! shares nothing with the search.
//!
//! From level 5 the decoy search asks for a model with a hole
//! ([`find_with_hole`]): the changed position of the line after the gap
//! holds an unknown constant, equal to one of the changed subterms on offer,
//! so one search serves every candidate change at that position, each
//! evaluated in the model ([`value`]) instead of searched for on its own.

use crate::certificate::{FiniteModel, Table};
use crate::equational::lang::{Equation, World};
use crate::logic::{Head, Literal, SymbolId, SymbolKind, TermBank, TermId};
use crate::prover::mace::ModelFinder;
use std::collections::BTreeMap;

/// Ground clauses and SAT conflicts allowed per domain size in a search.
const BUDGET: (u64, u64) = (1_000_000, 20_000);
/// Most assignments [`check`] enumerates for one equation.
const MAX_ASSIGNMENTS: u64 = 1 << 20;
/// Prefix of the helper constants (no EQ symbol starts with it).
const HELPER: &str = "gfdef";

/// A model of `eqs` over 2 or 3 elements in which `before` and `after`
/// differ, or `None` (none found within the budgets).
pub fn find(world: &World, eqs: &[Equation], before: TermId, after: TermId) -> Option<FiniteModel> {
    let m = search(world.bank.clone(), eqs, before, after, |_, _, _| Vec::new())?;
    check(world, eqs, before, after, &m).ok()?;
    Some(m)
}

/// A model of `eqs` over 2 or 3 elements in which `before` differs from
/// `line` with its subterm at `pos` replaced by an unknown element (a hole
/// constant, dropped from the model returned) equal to one of `options`
/// (head symbol and arguments: the changed subterms on offer), or `None`.
/// The options whose line then takes a value other than `before`'s
/// ([`value`]) are certified by this same model; [`check`] confirms it.
pub fn find_with_hole(
    world: &World,
    eqs: &[Equation],
    before: TermId,
    line: TermId,
    pos: &[u32],
    options: &[(SymbolId, Vec<TermId>)],
) -> Option<FiniteModel> {
    let mut bank = world.bank.clone();
    let sym = bank
        .sig
        .intern(&format!("{HELPER}hole"), 0, SymbolKind::Function);
    let hole = bank.constant(sym);
    let after = bank.replace_at(line, pos, hole);
    let options: Vec<TermId> = options.iter().map(|(f, args)| bank.app(*f, args)).collect();
    search(bank, eqs, before, after, |bank, named, defs| {
        options
            .iter()
            .map(|&o| Literal::eq(hole, name_ground(bank, o, named, defs), true))
            .collect()
    })
}

/// The model search shared by [`find`] and [`find_with_hole`], in `bank`
/// (the world's, with whatever the caller added): `extra` gives one more
/// clause (none if empty), made after the lines are named.
fn search(
    mut bank: TermBank,
    eqs: &[Equation],
    before: TermId,
    after: TermId,
    extra: impl FnOnce(
        &mut TermBank,
        &mut BTreeMap<TermId, TermId>,
        &mut Vec<[Literal; 1]>,
    ) -> Vec<Literal>,
) -> Option<FiniteModel> {
    let mut named: BTreeMap<TermId, TermId> = BTreeMap::new();
    let mut defs: Vec<[Literal; 1]> = Vec::new();
    let b = name_ground(&mut bank, before, &mut named, &mut defs);
    let a = name_ground(&mut bank, after, &mut named, &mut defs);
    let mut clauses: Vec<Vec<Literal>> = Vec::new();
    for e in eqs {
        let l = name_ground_parts(&mut bank, e.lhs, &mut named, &mut defs);
        let r = name_ground_parts(&mut bank, e.rhs, &mut named, &mut defs);
        clauses.push(vec![Literal::eq(l, r, true)]);
    }
    let extra = extra(&mut bank, &mut named, &mut defs);
    if !extra.is_empty() {
        clauses.push(extra);
    }
    clauses.extend(defs.iter().map(|d| d.to_vec()));
    clauses.push(vec![Literal::eq(b, a, false)]);
    let refs: Vec<&[Literal]> = clauses.iter().map(|c| c.as_slice()).collect();
    let mut finder = ModelFinder::new(BUDGET.0, BUDGET.1);
    let mut m = finder.search(&bank, &refs, 2..=3)?;
    m.functions.retain(|t| !t.name.starts_with(HELPER));
    Some(m)
}

/// The value of ground term `t` in `m` (an error names a missing or
/// malformed table, or a variable).
pub fn value(world: &World, m: &FiniteModel, t: TermId) -> Result<u32, String> {
    let tables: BTreeMap<&str, &Table> = m.functions.iter().map(|t| (t.name.as_str(), t)).collect();
    eval(world, &tables, m.size, t, &BTreeMap::new())
}

/// The helper constant naming ground term `t` (a constant names itself).
fn name_ground(
    bank: &mut TermBank,
    t: TermId,
    named: &mut BTreeMap<TermId, TermId>,
    defs: &mut Vec<[Literal; 1]>,
) -> TermId {
    if bank.args(t).is_empty() {
        return t;
    }
    if let Some(&k) = named.get(&t) {
        return k;
    }
    let args: Vec<TermId> = bank.args(t).to_vec();
    let flat: Vec<TermId> = args
        .into_iter()
        .map(|x| name_ground(bank, x, named, defs))
        .collect();
    let f = bank.sym(t);
    let lhs = bank.app(f, &flat);
    let sym = bank
        .sig
        .intern(&format!("{HELPER}{}", named.len()), 0, SymbolKind::Function);
    let k = bank.constant(sym);
    named.insert(t, k);
    defs.push([Literal::eq(lhs, k, true)]);
    k
}

/// `t` with every ground subterm replaced by its helper constant.
fn name_ground_parts(
    bank: &mut TermBank,
    t: TermId,
    named: &mut BTreeMap<TermId, TermId>,
    defs: &mut Vec<[Literal; 1]>,
) -> TermId {
    if bank.is_ground(t) {
        return name_ground(bank, t, named, defs);
    }
    if bank.is_var(t) {
        return t;
    }
    let args: Vec<TermId> = bank.args(t).to_vec();
    let args: Vec<TermId> = args
        .into_iter()
        .map(|x| name_ground_parts(bank, x, named, defs))
        .collect();
    let f = bank.sym(t);
    bank.app(f, &args)
}

/// The value of `t` under `vars` (variable index → element).
fn eval(
    world: &World,
    tables: &BTreeMap<&str, &Table>,
    size: u32,
    t: TermId,
    vars: &BTreeMap<u32, u32>,
) -> Result<u32, String> {
    match world.bank.head(t) {
        Head::Var(v) => vars
            .get(&v)
            .copied()
            .ok_or_else(|| format!("unassigned variable {}", world.var_name(v))),
        Head::Sym(f) => {
            let name = world.sym_name(f);
            let table = tables
                .get(name)
                .ok_or_else(|| format!("the model has no table for {name}"))?;
            let args = world.bank.args(t);
            if table.arity as usize != args.len() {
                return Err(format!("the table of {name} has the wrong arity"));
            }
            let mut cell = 0usize;
            for &x in args {
                cell = cell * size as usize + eval(world, tables, size, x, vars)? as usize;
            }
            match table.values.get(cell) {
                Some(&v) if v < size => Ok(v),
                _ => Err(format!("the table of {name} is malformed")),
            }
        }
    }
}

/// Checks that `m` certifies `before` and `after` apart: every equation holds
/// in `m` under every assignment of its variables, and the two terms take
/// different values. `Ok` gives the two values.
pub fn check(
    world: &World,
    eqs: &[Equation],
    before: TermId,
    after: TermId,
    m: &FiniteModel,
) -> Result<(u32, u32), String> {
    if m.size < 2 {
        return Err("the model has fewer than two elements".into());
    }
    let tables: BTreeMap<&str, &Table> = m.functions.iter().map(|t| (t.name.as_str(), t)).collect();
    for e in eqs {
        let mut vs = Vec::new();
        world.vars_of(e.lhs, &mut vs);
        world.vars_of(e.rhs, &mut vs);
        let count = u64::from(m.size).checked_pow(vs.len() as u32);
        let count = count
            .filter(|&c| c <= MAX_ASSIGNMENTS)
            .ok_or_else(|| format!("{} has too many assignments to check", e.name))?;
        for code in 0..count {
            let mut rest = code;
            let vars: BTreeMap<u32, u32> = vs
                .iter()
                .map(|&v| {
                    let x = (rest % u64::from(m.size)) as u32;
                    rest /= u64::from(m.size);
                    (v, x)
                })
                .collect();
            let l = eval(world, &tables, m.size, e.lhs, &vars)?;
            let r = eval(world, &tables, m.size, e.rhs, &vars)?;
            if l != r {
                return Err(format!("{} fails in the model", e.name));
            }
        }
    }
    let none = BTreeMap::new();
    let vb = eval(world, &tables, m.size, before, &none)?;
    let va = eval(world, &tables, m.size, after, &none)?;
    if vb == va {
        return Err("the lines before and after the gap have the same value".into());
    }
    Ok((vb, va))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(eqs: &[&str], before: &str, after: &str) -> (World, Vec<Equation>, TermId, TermId) {
        let mut w = World::new();
        let eqs: Vec<Equation> = eqs
            .iter()
            .enumerate()
            .map(|(i, e)| w.parse_equation(&format!("E{}", i + 1), e).unwrap())
            .collect();
        let b = w.parse_term(before, false).unwrap();
        let a = w.parse_term(after, false).unwrap();
        (w, eqs, b, a)
    }

    #[test]
    fn separable_terms_get_a_checked_model() {
        // Commutativity cannot swap f and f1: a model tells g(f(a),b) from g(f1(a),b).
        let (w, eqs, b, a) = setup(&["g(X,Y) = g(Y,X)"], "g(f(a),b)", "g(b,f1(a))");
        let m = find(&w, &eqs, b, a).expect("a countermodel");
        let (vb, va) = check(&w, &eqs, b, a, &m).unwrap();
        assert_ne!(vb, va);
        assert!(m.functions.iter().all(|t| !t.name.starts_with(HELPER)));
        // The same model does not separate terms the equation links.
        let linked = w.clone().parse_term("g(f(a),b)", false).unwrap();
        assert!(check(&w, &eqs, b, linked, &m).is_err());
    }

    #[test]
    fn a_hole_takes_the_value_of_an_offered_change() {
        // f(X) = f1(X): relabelling f(a) to f1(a) changes nothing, changing
        // it to f(b) may. The hole must equal an offered subterm, so a model
        // exists only when some offer can differ from the line before (an
        // unconstrained hole took a value no term has).
        let (mut w, eqs, before, line) = setup(&["f(X) = f1(X)"], "f(a)", "f(a)");
        let f1 = w.parse_term("f1(a)", false).unwrap();
        let fb = w.parse_term("f(b)", false).unwrap();
        let sym = |w: &World, t: TermId| (w.bank.sym(t), w.bank.args(t).to_vec());
        assert!(find_with_hole(&w, &eqs, before, line, &[], &[sym(&w, f1)]).is_none());
        let m = find_with_hole(&w, &eqs, before, line, &[], &[sym(&w, f1), sym(&w, fb)])
            .expect("f(b) can differ from f(a)");
        assert!(m.functions.iter().all(|t| !t.name.starts_with(HELPER)));
        // The offer that differs is certified by the same model.
        assert_ne!(value(&w, &m, before).unwrap(), value(&w, &m, fb).unwrap());
        assert!(check(&w, &eqs, before, fb, &m).is_ok());
        assert!(check(&w, &eqs, before, f1, &m).is_err());
    }

    #[test]
    fn equal_terms_get_no_model_and_tampering_is_caught() {
        let (w, eqs, b, a) = setup(
            &["g(X,Y) = g(Y,X)", "f(X) = f1(X)"],
            "g(f(a),b)",
            "g(b,f1(a))",
        );
        assert!(find(&w, &eqs, b, a).is_none());
        let (w, eqs, b, a) = setup(&["f(X) = f1(X)"], "f(a)", "f1(b)");
        let mut m = find(&w, &eqs, b, a).expect("a countermodel");
        assert!(check(&w, &eqs, b, a, &m).is_ok());
        let more = w.clone();
        let mut w2 = more;
        let e2 = w2.parse_equation("E2", "a = b").unwrap();
        let eqs2 = vec![eqs[0].clone(), e2];
        assert!(check(&w2, &eqs2, b, a, &m).is_err());
        m.functions.retain(|t| t.name != "f1");
        assert!(check(&w, &eqs, b, a, &m).is_err());
    }
}
