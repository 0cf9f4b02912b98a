//! Small entailment problems of the size the task generators pose, drawn
//! from a saturation run: 5-20 premise clauses (the input clauses a derived
//! clause depends on, plus other kept clauses as distractors) and a
//! conjecture that is either the derived clause itself (a theorem by
//! construction) or a perturbation of it (usually not a theorem). Used by
//! the prover benchmark and tests; deterministic for a seed.

use crate::derivation::Derivation;
use crate::logic::{Head, Literal, TermBank, TermId};
use crate::saturation::{ClauseId, Rule, Saturator};
use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// How the conjecture was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConjectureKind {
    /// A derived clause: entailed by its premises.
    Derived,
    /// A derived clause with one literal negated or one constant replaced.
    Perturbed,
}

/// One problem: premises and conjecture over the saturation's term bank.
#[derive(Clone, Debug)]
pub struct SmallProblem {
    /// Premise clauses.
    pub premises: Vec<Vec<Literal>>,
    /// The conjecture clause.
    pub conjecture: Vec<Literal>,
    /// How the conjecture was made.
    pub kind: ConjectureKind,
}

fn constants(bank: &TermBank, t: TermId, out: &mut Vec<TermId>) {
    if let Head::Sym(_) = bank.head(t) {
        if bank.arity(t) == 0 && !bank.is_formula(t) {
            out.push(t);
        }
        for &a in bank.args(t) {
            constants(bank, a, out);
        }
    }
}

fn replace(bank: &mut TermBank, t: TermId, from: TermId, to: TermId) -> TermId {
    if t == from {
        return to;
    }
    match bank.head(t) {
        Head::Var(_) => t,
        Head::Sym(s) => {
            let args: Vec<TermId> = bank.args(t).to_vec();
            let args: Vec<TermId> = args
                .into_iter()
                .map(|a| replace(bank, a, from, to))
                .collect();
            bank.app(s, &args)
        }
    }
}

/// Draws `count` problems from a finished saturation run (half derived,
/// half perturbed conjectures). Needs at least one derived clause.
pub fn small_problems(
    sat: &mut Saturator,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<SmallProblem> {
    let dag = Derivation::new(&sat.store);
    let derived: Vec<ClauseId> = sat
        .store
        .ids()
        .filter(|&c| {
            let r = sat.store.get(c);
            r.rule != Rule::Input && !r.clause.is_empty()
        })
        .collect();
    let pool: Vec<ClauseId> = sat
        .store
        .ids()
        .filter(|&c| !sat.store.clause(c).is_empty())
        .collect();
    let mut all_constants = Vec::new();
    for &c in &pool {
        for l in sat.store.clause(c).lits.iter() {
            constants(&sat.bank, l.lhs, &mut all_constants);
            constants(&sat.bank, l.rhs, &mut all_constants);
        }
    }
    all_constants.sort_unstable();
    all_constants.dedup();
    let mut out = Vec::with_capacity(count);
    if derived.is_empty() {
        return out;
    }
    let plans: Vec<(ClauseId, Vec<ClauseId>)> = (0..count)
        .map(|_| {
            let t = *derived.choose(rng).expect("non-empty");
            (t, dag.leaves(t))
        })
        .collect();
    for (i, (t, leaves)) in plans.into_iter().enumerate() {
        let target = rng.random_range(5..=20usize).max(leaves.len());
        let mut premises: Vec<ClauseId> = leaves;
        let mut guard = 0;
        while premises.len() < target && guard < 1000 {
            guard += 1;
            let c = *pool.choose(rng).expect("non-empty");
            if c != t && !premises.contains(&c) {
                premises.push(c);
            }
        }
        let theorem: Vec<Literal> = sat.store.clause(t).lits.to_vec();
        let (conjecture, kind) = if i % 2 == 0 {
            (theorem, ConjectureKind::Derived)
        } else {
            let mut c = theorem;
            let k = rng.random_range(0..c.len());
            let mut consts = Vec::new();
            constants(&sat.bank, c[k].lhs, &mut consts);
            constants(&sat.bank, c[k].rhs, &mut consts);
            if !consts.is_empty() && all_constants.len() > 1 && rng.random_bool(0.5) {
                let from = *consts.choose(rng).expect("non-empty");
                let to = *all_constants.choose(rng).expect("non-empty");
                let l = c[k];
                c[k] = Literal::eq(
                    replace(&mut sat.bank, l.lhs, from, to),
                    replace(&mut sat.bank, l.rhs, from, to),
                    l.pos,
                );
            } else {
                c[k] = c[k].negate();
            }
            (c, ConjectureKind::Perturbed)
        };
        out.push(SmallProblem {
            premises: premises
                .iter()
                .map(|&p| sat.store.clause(p).lits.to_vec())
                .collect(),
            conjecture,
            kind,
        });
    }
    out
}
