//! Inference and simplification rules of the superposition calculus, one
//! file per rule. Generating rules share the [`Infer`] context and push
//! [`Conclusion`]s; the given-clause loop does not know the rules one by one
//! beyond calling [`generate_all`].

pub mod demodulation;
pub mod equality_factoring;
pub mod equality_resolution;
pub mod factoring;
pub mod resolution;
pub mod simplify_reflect;
pub mod subsumption;
pub mod superposition;

use super::active::ActiveSet;
use super::params::Params;
use super::selection::is_maximal_in;
use super::store::{ClauseId, ClauseStore, Rule};
use crate::logic::{Bank, Kbo, Literal, Renaming, Subst, TermBank};
use smallvec::SmallVec;

/// A clause produced by a generating inference, before normalisation.
#[derive(Clone, Debug)]
pub struct Conclusion {
    /// The literals (not yet normalised).
    pub lits: Vec<Literal>,
    /// The rule that produced it.
    pub rule: Rule,
    /// Its premises, in rule order.
    pub parents: SmallVec<[ClauseId; 2]>,
}

/// Everything a generating rule needs.
pub struct Infer<'a> {
    /// The term bank (conclusions are built in it).
    pub bank: &'a mut TermBank,
    /// The term ordering.
    pub kbo: &'a Kbo,
    /// The clause arena.
    pub store: &'a ClauseStore,
    /// The active set and its indexes (the given clause is already in it).
    pub active: &'a ActiveSet,
    /// Parameters.
    pub params: &'a Params,
    /// Scratch substitution.
    pub subst: &'a mut Subst,
    /// Where conclusions go.
    pub out: &'a mut Vec<Conclusion>,
    /// Per-iteration scratch arena (candidate lists); reset by the loop
    /// after every given clause.
    pub bump: &'a bumpalo::Bump,
}

impl Infer<'_> {
    /// Instantiates every literal of `clause` (variables in `bank_no`) with
    /// the current substitution.
    pub(crate) fn instantiate(
        &mut self,
        clause: ClauseId,
        bank_no: Bank,
        ren: &mut Renaming,
    ) -> Vec<Literal> {
        let lits = &self.store.clause(clause).lits;
        let mut out = Vec::with_capacity(lits.len());
        for l in lits.iter() {
            let lhs = self.subst.apply(self.bank, l.lhs, bank_no, ren);
            let rhs = self.subst.apply(self.bank, l.rhs, bank_no, ren);
            out.push(Literal::eq(lhs, rhs, l.pos));
        }
        out
    }

    /// The post-unification ordering check: is literal `i` of the
    /// instantiated clause still (strictly) maximal? Clauses with a selected
    /// literal, and unit clauses, pass trivially.
    pub(crate) fn still_maximal(
        &self,
        clause: ClauseId,
        inst: &[Literal],
        i: usize,
        strict: bool,
    ) -> bool {
        if !self.params.post_unification_checks || inst.len() < 2 {
            return true;
        }
        let selected = self
            .active
            .info(clause)
            .is_some_and(|a| a.elig.selected != 0);
        selected || is_maximal_in(self.bank, self.kbo, inst, i, strict)
    }

    /// Pushes a conclusion.
    pub(crate) fn emit(&mut self, lits: Vec<Literal>, rule: Rule, parents: &[ClauseId]) {
        self.out.push(Conclusion {
            lits,
            rule,
            parents: parents.into(),
        });
    }
}

/// Runs every generating rule on the given clause against the active set.
pub fn generate_all(cx: &mut Infer<'_>, given: ClauseId) {
    equality_resolution::generate(cx, given);
    factoring::generate(cx, given);
    equality_factoring::generate(cx, given);
    resolution::generate(cx, given);
    superposition::generate(cx, given);
}
