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
use crate::logic::{Bank, Kbo, Literal, Renaming, Replace, Subst, TermBank, TermId, TermOrder};
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

/// A literal of a conclusion, before the substitution is applied: its
/// variables are in bank `bank`; with `repl = Some((side, r))`, the subterm
/// of side `side` (0 = lhs, 1 = rhs) at `r.pos` is replaced.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Pending<'p> {
    /// The parent's literal.
    pub lit: Literal,
    /// Its variable bank.
    pub bank: Bank,
    /// A replacement inside one side (superposition).
    pub repl: Option<(u8, Replace<'p>)>,
}

/// Weight, and shape when `SHAPE`, of the instance of side `side` (0 = lhs,
/// 1 = rhs, here the term `t`) of a pending literal, its replacement
/// included: what [`Infer::build_conclusion`] will build there.
fn side_weigh<const SHAPE: bool>(
    subst: &Subst,
    bank: &TermBank,
    p: &Pending<'_>,
    side: u8,
    t: TermId,
) -> (u32, u32) {
    match p.repl {
        Some((s, r)) if s == side => subst.weigh_replacing::<SHAPE>(bank, t, p.bank, r),
        _ => subst.weigh::<SHAPE>(bank, t, p.bank),
    }
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
    /// Work left for this given clause, in conclusion literals (see
    /// `Limits::max_generated_literals_per_given`); `None` = unlimited. The
    /// rules stop generating once it is used up ([`Self::exhausted`]).
    pub budget: Option<u64>,
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

    /// The post-unification ordering check on literal `i` of `clause`
    /// (variables in `bank_no`) under the current substitution, as
    /// [`Self::still_maximal`], comparing instances without building them
    /// ([`Kbo::compare_lits_inst`]).
    pub(crate) fn maximal_after_unification(
        &mut self,
        clause: ClauseId,
        bank_no: Bank,
        i: usize,
        strict: bool,
    ) -> bool {
        let lits = &self.store.clause(clause).lits;
        if !self.params.post_unification_checks || lits.len() < 2 {
            return true;
        }
        if self
            .active
            .info(clause)
            .is_some_and(|a| a.elig.selected != 0)
        {
            return true;
        }
        let l = &lits[i];
        lits.iter().enumerate().all(|(j, m)| {
            if j == i {
                return true;
            }
            match self
                .kbo
                .compare_lits_inst(self.bank, self.subst, m, l, bank_no)
            {
                TermOrder::Greater => false,
                TermOrder::Equal => !strict,
                _ => true,
            }
        })
    }

    /// Builds the conclusion made of the instances of `pending` under the
    /// current substitution, directly in the form [`crate::logic::normalize_clause`]
    /// gives it in the usual case: equations with a heavier right side are
    /// flipped, literals are put in the normal order (by polarity, weights
    /// and shapes, which do not depend on variable names and are computed
    /// without building anything), and variables are numbered by first
    /// occurrence in that order. The normalisation of the conclusion then
    /// has nothing left to rebuild, and a conclusion derived again (most
    /// are duplicates) reuses the terms of its first derivation instead of
    /// filling the term bank with differently numbered copies.
    pub(crate) fn build_conclusion(&mut self, pending: &[Pending<'_>]) -> Vec<Literal> {
        type Key = (bool, u32, u32, u32, u32);
        let bank = &*self.bank;
        let subst = &*self.subst;

        let mut keyed: SmallVec<[(Key, usize, bool); 8]> = SmallVec::new();
        if let [p] = pending {
            // One literal: nothing to sort, only its sides to order, by
            // weight alone (no shapes hashed).
            let w = |side, t| side_weigh::<false>(subst, bank, p, side, t).0;
            let swap = p.lit.is_equational(bank) && w(1, p.lit.rhs) > w(0, p.lit.lhs);
            keyed.push(((p.lit.pos, 0, 0, 0, 0), 0, swap));
        } else {
            for (k, p) in pending.iter().enumerate() {
                let (wl, sl) = side_weigh::<true>(subst, bank, p, 0, p.lit.lhs);
                let (wr, sr) = side_weigh::<true>(subst, bank, p, 1, p.lit.rhs);
                let swap = wr > wl && p.lit.is_equational(bank);
                let key = if swap {
                    (p.lit.pos, wr, sr, wl, sl)
                } else {
                    (p.lit.pos, wl, sl, wr, sr)
                };
                keyed.push((key, k, swap));
            }
            keyed.sort_by_key(|e| e.0);
        }
        let mut ren = Renaming::new();
        let mut out = Vec::with_capacity(pending.len());
        for &(_, k, swap) in &keyed {
            let p = &pending[k];
            let mut build = |side: u8, t| match p.repl {
                Some((s, r)) if s == side => self
                    .subst
                    .apply_replacing(self.bank, t, p.bank, r, &mut ren),
                _ => self.subst.apply(self.bank, t, p.bank, &mut ren),
            };
            let lit = if swap {
                let r = build(1, p.lit.rhs);
                let l = build(0, p.lit.lhs);
                Literal::eq(r, l, p.lit.pos)
            } else {
                let l = build(0, p.lit.lhs);
                let r = build(1, p.lit.rhs);
                Literal::eq(l, r, p.lit.pos)
            };
            out.push(lit);
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

    /// True when the work budget of this given clause is used up: the rules
    /// check it inside their loops and generate nothing more.
    pub fn exhausted(&self) -> bool {
        self.budget == Some(0)
    }

    /// Pushes a conclusion and charges its literals (at least 1) to the
    /// budget.
    pub(crate) fn emit(&mut self, lits: Vec<Literal>, rule: Rule, parents: &[ClauseId]) {
        if let Some(b) = self.budget.as_mut() {
            *b = b.saturating_sub((lits.len() as u64).max(1));
        }
        self.out.push(Conclusion {
            lits,
            rule,
            parents: parents.into(),
        });
    }
}

/// Runs every generating rule on the given clause against the active set.
/// Stops early once the work budget is used up ([`Infer::exhausted`]).
pub fn generate_all(cx: &mut Infer<'_>, given: ClauseId) {
    let rules: [fn(&mut Infer<'_>, ClauseId); 5] = [
        equality_resolution::generate,
        factoring::generate,
        equality_factoring::generate,
        resolution::generate,
        superposition::generate,
    ];
    for rule in rules {
        if cx.exhausted() {
            return;
        }
        rule(cx, given);
    }
}
