//! Unfolding of equational definitions before a refutation search, as E's
//! preprocessing does (Schulz, "E - a brainiac theorem prover", AI Comm. 15,
//! 2002; `--no-eq-unfolding` turns it off there): an input unit
//! `f(X1,..,Xn) = t` with distinct variables, `f` not in `t` (nor in what the
//! definitions accepted before it unfold `t` to) and every variable of `t`
//! among the `Xi`, defines `f`. Every `f`-term of the other inputs is
//! replaced by the matching instance of `t`, each replacement recorded as a
//! rewrite with the definition (a `simplification` record whose detail the
//! checker replays; rewriting with an equation is sound in either
//! direction), and the definition then takes no part in the search.
//!
//! Why: no ordering orients `square(X) = op(X,X)` towards its right side
//! (the variable occurs twice there), so the search folds `op(X,X)` into
//! `square(X)` and, with associativity, needs superposition where the
//! unfolded problem only rewrites: on 300 task-generation calls the prover
//! left undecided, E proved 143 in 2 s with unfolding and 119 without
//! (`docs/bench/search.md`).
//!
//! Sound and complete: removing clauses keeps a refutation a refutation,
//! and once no other clause mentions `f` the definition is a conservative
//! extension (any model of the rest interprets `f` by `t`), so a saturated
//! remainder still means the whole set is satisfiable.

use super::*;
use crate::logic::{Clause, Head, SymbolId, TermId};
use crate::saturation::params::DEFAULT_MAX_CLAUSE_WEIGHT;
use crate::saturation::store::{Detail, SimpDetail};
use std::collections::HashMap;

/// Rewrite steps one problem's unfolding may take in all; past it nothing
/// is unfolded (terms that grow exponentially under nested definitions).
const MAX_UNFOLD_STEPS: usize = 100_000;

/// An accepted definition: the input that states it and which side of its
/// (normalised) literal is the defined term `f(X1,..,Xn)`.
#[derive(Copy, Clone)]
struct Definition {
    input: usize,
    side: u8,
}

impl Saturator {
    /// Records and queues `inputs` as [`Saturator::add_input`] does, after
    /// unfolding the definitions among them whose defining side is at most
    /// `limit` heavier than the defined term. An unfolded input is kept
    /// even when it is over the weight limit (the clauses it generates obey
    /// it). When there is no definition, or an unfolded side would be
    /// heavier than [`DEFAULT_MAX_CLAUSE_WEIGHT`], or the unfolding would
    /// take more than [`MAX_UNFOLD_STEPS`] rewrites, the inputs are added
    /// as they are.
    pub(super) fn add_inputs_unfolding(&mut self, inputs: Inputs, limit: u32) {
        let ids: Vec<ClauseId> = inputs
            .into_iter()
            .map(|(lits, info)| self.record_input(lits, info))
            .collect();
        let clauses: Vec<Clause> = ids
            .iter()
            .map(|&id| self.store.clause(id).clone())
            .collect();
        let goal: Vec<bool> = ids.iter().map(|&id| self.goal[id.index()]).collect();
        let defs = definitions(&self.bank, &clauses, &goal, limit);
        let mut is_def = vec![false; ids.len()];
        for d in defs.values() {
            is_def[d.input] = true;
        }
        let plans = if defs.is_empty() {
            None
        } else {
            self.plan_unfolding(&clauses, &defs, &is_def)
        };
        let Some(plans) = plans else {
            for id in ids {
                self.admit(id);
            }
            return;
        };
        self.stats.definitions_unfolded = defs.len() as u64;
        for (k, plan) in plans.into_iter().enumerate() {
            let id = ids[k];
            if is_def[k] {
                self.store.set_state(id, State::Deleted);
                continue;
            }
            let Some((lits, steps)) = plan else {
                self.admit(id);
                continue;
            };
            self.store.set_state(id, State::Deleted);
            let simps: Vec<SimpStep> = steps
                .iter()
                .map(|(def, _)| SimpStep::Rewrite(ids[*def]))
                .collect();
            let detail = Detail {
                raw: clauses[k].lits.to_vec(),
                steps: steps.into_iter().map(|(_, d)| d).collect(),
            };
            let clause = normalize_clause(&mut self.bank, &self.kbo, lits);
            let new = self.store.push(
                clause,
                Rule::Simplification,
                smallvec::smallvec![id],
                simps,
                None,
            );
            self.store.set_detail(new, detail);
            self.goal.push(goal[k]);
            self.stats.kept += 1;
            self.stats.rewrites += self.store.get(new).simps.len() as u64;
            // Over the weight limit it is kept all the same (dropping it
            // would lose what it states); what it generates obeys the limit.
            self.admit_over_weight(new);
        }
    }

    /// Per input, `None` when it is a definition (`is_def`) or mentions no
    /// defined symbol, else its unfolded literals and the rewrite steps (the
    /// defining input and where it acted). `None` in all when unfolding is
    /// given up.
    #[allow(clippy::type_complexity)]
    fn plan_unfolding(
        &mut self,
        clauses: &[Clause],
        defs: &HashMap<SymbolId, Definition>,
        is_def: &[bool],
    ) -> Option<Vec<Option<(Vec<Literal>, Vec<(usize, SimpDetail)>)>>> {
        let mut budget = MAX_UNFOLD_STEPS;
        let mut plans = Vec::with_capacity(clauses.len());
        for (k, c) in clauses.iter().enumerate() {
            if is_def[k] {
                plans.push(None);
                continue;
            }
            let mut lits = c.lits.to_vec();
            let mut steps: Vec<(usize, SimpDetail)> = Vec::new();
            for (j, lit) in lits.iter_mut().enumerate() {
                let equational = lit.is_equational(&self.bank);
                lit.lhs = self.unfold_side(
                    lit.lhs,
                    !equational,
                    (j, false),
                    defs,
                    clauses,
                    &mut steps,
                    &mut budget,
                )?;
                if equational {
                    lit.rhs = self.unfold_side(
                        lit.rhs,
                        false,
                        (j, true),
                        defs,
                        clauses,
                        &mut steps,
                        &mut budget,
                    )?;
                }
            }
            if steps.is_empty() {
                plans.push(None);
                continue;
            }
            plans.push(Some((lits, steps)));
        }
        Some(plans)
    }

    /// `t` (side `right` of literal `lit`) with every defined term replaced,
    /// outermost-leftmost first, each step appended to `steps`; an atom's
    /// root (`atom`) is never replaced. `None` when the budget runs out.
    #[allow(clippy::too_many_arguments)]
    fn unfold_side(
        &mut self,
        mut t: TermId,
        atom: bool,
        (lit, right): (usize, bool),
        defs: &HashMap<SymbolId, Definition>,
        clauses: &[Clause],
        steps: &mut Vec<(usize, SimpDetail)>,
        budget: &mut usize,
    ) -> Option<TermId> {
        let mut path: Vec<u32> = Vec::new();
        loop {
            path.clear();
            if !find_defined(&self.bank, t, defs, &mut path, atom) {
                return Some(t);
            }
            *budget = budget.checked_sub(1)?;
            let redex = self.bank.at(t, &path);
            let def = defs[&self.bank.sym(redex)];
            let eq = clauses[def.input].lits[0];
            let (defined, body) = if def.side == 0 {
                (eq.lhs, eq.rhs)
            } else {
                (eq.rhs, eq.lhs)
            };
            // `f(X1,..,Xn)` over distinct variables matches every `f`-term.
            self.matcher.clear();
            let matched = self.matcher.matches(&self.bank, defined, redex);
            debug_assert!(matched, "a defined term matches its redex");
            let contractum = self.matcher.apply(&mut self.bank, body);
            t = self.bank.replace_at(t, &path, contractum);
            if self.bank.weight(t) > DEFAULT_MAX_CLAUSE_WEIGHT {
                return None;
            }
            steps.push((
                def.input,
                SimpDetail::Rewrite {
                    lit: lit as u32,
                    right,
                    path: path.clone().into_boxed_slice(),
                    redex,
                    contractum,
                    unit_side: def.side,
                },
            ));
        }
    }
}

/// The definitions among `clauses` (goal clauses excepted), by defined
/// symbol, accepted in input order: a positive unit equation one side of
/// which is `f(X1,..,Xn)` over distinct variables and the other a term `t`
/// with its variables among them, no heavier than `f(X1,..,Xn)` plus
/// `limit`, in which `f` does not occur even after unfolding the
/// definitions accepted before (so unfolding terminates). A symbol gets one
/// definition: a second one is unfolded like any other clause.
fn definitions(
    bank: &TermBank,
    clauses: &[Clause],
    goal: &[bool],
    limit: u32,
) -> HashMap<SymbolId, Definition> {
    let mut defs: HashMap<SymbolId, Definition> = HashMap::new();
    // The symbols each accepted definition's body reaches, unfolded.
    let mut reach: HashMap<SymbolId, Vec<SymbolId>> = HashMap::new();
    for (k, c) in clauses.iter().enumerate() {
        let [eq] = &*c.lits else { continue };
        if goal[k] || !eq.pos || !eq.is_equational(bank) {
            continue;
        }
        for (side, (defined, body)) in [(0u8, (eq.lhs, eq.rhs)), (1, (eq.rhs, eq.lhs))] {
            let Some(f) = defined_symbol(bank, defined, body) else {
                continue;
            };
            if defs.contains_key(&f)
                || bank.weight(body) > bank.weight(defined).saturating_add(limit)
            {
                continue;
            }
            let mut syms: Vec<SymbolId> = Vec::new();
            symbols(bank, body, &mut syms);
            let mut closure: Vec<SymbolId> = Vec::new();
            for s in syms {
                closure.push(s);
                if let Some(r) = reach.get(&s) {
                    closure.extend(r.iter().copied());
                }
            }
            if closure.contains(&f) {
                continue;
            }
            closure.sort_unstable();
            closure.dedup();
            // Definitions accepted before that reach `f` now reach what `f`
            // does.
            for r in reach.values_mut() {
                if r.contains(&f) {
                    r.extend(closure.iter().copied());
                    r.sort_unstable();
                    r.dedup();
                }
            }
            reach.insert(f, closure);
            defs.insert(f, Definition { input: k, side });
            break;
        }
    }
    defs
}

/// `f` when `defined` is `f(X1,..,Xn)` over distinct variables, `f` is
/// uninterpreted (not a distinct object or number), and `body` has its
/// variables among them and no `f`.
fn defined_symbol(bank: &TermBank, defined: TermId, body: TermId) -> Option<SymbolId> {
    let Head::Sym(f) = bank.head(defined) else {
        return None;
    };
    // A distinct object or number is interpreted (different values are
    // unequal in every model): `"x" = "y"` is no definition of `"x"`.
    if bank.sig.get(f).value.is_some() {
        return None;
    }
    let mut vars: Vec<u32> = Vec::new();
    for &a in bank.args(defined) {
        let v = bank.var_index(a)?;
        if vars.contains(&v) {
            return None;
        }
        vars.push(v);
    }
    let mut used = Vec::new();
    bank.push_vars(body, &mut used);
    if used.iter().any(|v| !vars.contains(v)) {
        return None;
    }
    let mut syms = Vec::new();
    symbols(bank, body, &mut syms);
    (!syms.contains(&f)).then_some(f)
}

/// Appends the function symbols of `t` (with repeats).
fn symbols(bank: &TermBank, t: TermId, out: &mut Vec<SymbolId>) {
    if let Head::Sym(s) = bank.head(t) {
        out.push(s);
        for &a in bank.args(t) {
            symbols(bank, a, out);
        }
    }
}

/// True, with `path` extended to it, when `t` has a subterm whose head is a
/// defined symbol (the outermost-leftmost one); with `skip_root`, `t`
/// itself (an atom) is not one.
fn find_defined(
    bank: &TermBank,
    t: TermId,
    defs: &HashMap<SymbolId, Definition>,
    path: &mut Vec<u32>,
    skip_root: bool,
) -> bool {
    let Head::Sym(s) = bank.head(t) else {
        return false;
    };
    if !skip_root && defs.contains_key(&s) {
        return true;
    }
    for (i, &a) in bank.args(t).iter().enumerate() {
        path.push(i as u32);
        if find_defined(bank, a, defs, path, false) {
            return true;
        }
        path.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::tests::saturator_with_roles;
    use super::*;
    use crate::tptp::clause_to_tptp;

    /// A saturator over `text` (roles kept) with unfolding at `limit`, and
    /// the weight limit `weight`.
    fn unfolding(text: &str, limit: u32, weight: Option<u32>) -> Saturator {
        let params = Params {
            unfold_definitions: Some(limit),
            max_clause_weight: weight,
            ..Params::default()
        };
        saturator_with_roles(text, params, true)
    }

    /// The clauses the search starts from (queued), as text.
    fn queued(s: &Saturator) -> Vec<String> {
        (0..s.store.len() as u32)
            .map(ClauseId)
            .filter(|&c| s.store.get(c).state == State::Passive)
            .map(|c| clause_to_tptp(&s.bank, &s.store.clause(c).lits))
            .collect()
    }

    /// The names of the inputs deleted before the search.
    fn deleted_inputs(s: &Saturator) -> Vec<String> {
        (0..s.store.len() as u32)
            .map(ClauseId)
            .filter(|&c| s.store.get(c).state == State::Deleted)
            .filter_map(|c| s.store.get(c).input.as_ref().map(|i| i.name.clone()))
            .collect()
    }

    const MONOID: &str = "
        cnf(assoc, axiom, op(op(X,Y),Z) = op(X,op(Y,Z))).
        cnf(square, axiom, op(X,X) = square(X)).
        cnf(cube, axiom, op(X,square(X)) = cube(X)).
        cnf(goal, negated_conjecture, op(square(a),a) != cube(a)).
    ";

    #[test]
    fn definitions_leave_the_search_and_their_symbols_with_them() {
        let mut s = unfolding(MONOID, 20, None);
        let q = queued(&s);
        assert!(
            q.iter()
                .all(|c| !c.contains("square") && !c.contains("cube")),
            "{q:?}"
        );
        assert_eq!(q.len(), 2, "{q:?}");
        let mut d = deleted_inputs(&s);
        d.sort();
        assert_eq!(d, ["cube", "goal", "square"]);
        // The goal's replacement records one rewrite per unfolded term,
        // each with a definition.
        let last = ClauseId(s.store.len() as u32 - 1);
        let r = s.store.get(last);
        assert_eq!(r.rule, Rule::Simplification);
        assert_eq!(r.simps.len(), 3, "square, cube, then cube's square");
        assert_eq!(r.detail.as_ref().unwrap().steps.len(), 3);
        assert!(s.is_goal(last));
        // Associativity alone now rewrites both sides to one normal form.
        assert_eq!(s.run(&mut |_| {}), Status::Unsatisfiable);
        assert!(s.stats.processed <= 2, "{}", s.stats.processed);
    }

    #[test]
    fn only_acyclic_definitions_over_distinct_variables_are_accepted() {
        let text = "
            cnf(repeated, axiom, f(X,X) = c).
            cnf(extra, axiom, h(X) = k(X,b,Y)).
            cnf(itself, axiom, s(X) = t(s(X))).
            cnf(first, axiom, u(X) = v(X)).
            cnf(back, axiom, v(X) = u(X)).
            cnf(heavy, axiom, w(X) = m(m(m(m(m(m(m(X)))))))).
            cnf(pair, axiom, q(X,Y) = m(Y)).
            cnf(objects, axiom, \"x\" = \"y\").
            cnf(numbers, axiom, 1 = n(2)).
            cnf(goal, negated_conjecture, c = d).
        ";
        let mut plain = unfolding(text, 4, None);
        plain.params.unfold_definitions = None;
        let ids: Vec<ClauseId> = (0..plain.store.len() as u32).map(ClauseId).collect();
        let clauses: Vec<Clause> = ids.iter().map(|&c| plain.store.clause(c).clone()).collect();
        let goal: Vec<bool> = ids.iter().map(|&c| plain.is_goal(c)).collect();
        let defs = definitions(&plain.bank, &clauses, &goal, 4);
        let mut accepted: Vec<String> = defs
            .values()
            .map(|d| {
                plain
                    .store
                    .get(ids[d.input])
                    .input
                    .as_ref()
                    .unwrap()
                    .name
                    .clone()
            })
            .collect();
        accepted.sort();
        // Repeated or extra variables, a symbol in its own body, a body 6
        // heavier than the limit of 4, distinct objects and numbers (they
        // are interpreted), a goal, and `back` once `first` defines one of
        // its symbols by the other: none is a definition.
        assert_eq!(accepted, ["first", "pair"]);
        // Unfolded, `back` is a tautology and leaves with the definitions.
        let s = unfolding(text, 4, None);
        let mut d = deleted_inputs(&s);
        d.sort();
        assert_eq!(d, ["back", "first", "pair"]);
    }

    #[test]
    fn unfolded_inputs_over_the_weight_limit_are_kept_and_the_limit_stays() {
        let text = "
            cnf(d, axiom, f(X) = g(X,g(X,X))).
            cnf(c, axiom, p(f(f(a)))).
        ";
        // Unfolded, `p(f(f(a))) = $true` weighs 19 (each `f(a)` becomes
        // `g(a,g(a,a))`): over a limit of 10, kept all the same.
        let s = unfolding(text, 20, Some(10));
        assert_eq!(s.params.max_clause_weight, Some(10));
        let q = queued(&s);
        assert_eq!(q.len(), 1, "{q:?}");
        assert!(!q[0].contains("f("), "{q:?}");
        assert_eq!(s.stats.too_heavy, 0);
        // Selected, such a clause is simplified and, still too heavy,
        // dropped before it generates anything.
        let mut s = unfolding(text, 20, Some(10));
        assert_eq!(s.run(&mut |_| {}), Status::ResourceOut);
        assert_eq!((s.stats.generated, s.stats.too_heavy), (0, 1));
        // What simplification brings under the limit takes part: the
        // goal unfolds to weight 14, over 10, and rewrites to `t != t`.
        let monoid = MONOID.replace(
            "op(square(a),a) != cube(a)",
            "square(square(a)) != op(a,cube(a))",
        );
        let mut s = unfolding(&monoid, 20, Some(10));
        assert!(s.over_weight.len() == 1);
        assert_eq!(s.run(&mut |_| {}), Status::Unsatisfiable);
        // An input over the limit that unfolds nothing is dropped as before.
        let s = unfolding("cnf(c, axiom, p(g(a,g(a,g(a,g(a,a)))))).", 20, Some(10));
        assert!(queued(&s).is_empty());
        assert_eq!(s.stats.too_heavy, 1);
    }
}
