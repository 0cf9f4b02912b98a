//! Simplification in the given-clause loop: forward (rewriting by the
//! active unit equations, simplify-reflect, tautology deletion, forward
//! subsumption) and backward (subsumption and rewriting of the active set)
//! with the rewrite traces recorded for the derivation (DISCOUNT style, as
//! in E: Schulz, "E - a brainiac theorem prover", AI Comm. 15, 2002).

use super::super::feature_vector::feature_vector;
use super::super::fingerprint::Query;
use super::super::rules::demodulation::{RewriteTrace, Rewriter, backward_candidates};
use super::super::rules::simplify_reflect;
use super::super::rules::subsumption::subsumes;
use super::super::store::{ClauseId, Detail, Rule, SimpDetail, SimpStep, State};
use super::*;
use crate::logic::{
    Clause, Literal, TermOrder, normalize_clause, normalize_clause_known, orient_known,
};
use smallvec::SmallVec;

impl Saturator {
    /// A rewriter over the active unit equations. The normal-form cache is
    /// used unless a clause is excluded (backward rewriting of that clause):
    /// a cached normal form may have been reached with it.
    pub(super) fn rewriter<'a>(
        &'a mut self,
        used: &'a mut Vec<SimpStep>,
        exclude: Option<ClauseId>,
        trace: Option<&'a mut RewriteTrace>,
    ) -> Rewriter<'a> {
        Rewriter {
            bank: &mut self.bank,
            kbo: &self.kbo,
            active: &self.active,
            store: &self.store,
            matcher: &mut self.matcher,
            inst: &mut self.inst,
            work: &mut self.rewrite_work,
            work_limit: self.params.limits.max_rewrite_attempts.unwrap_or(u64::MAX),
            used,
            exclude,
            cache: if exclude.is_none() {
                Some(&mut self.nf_cache)
            } else {
                None
            },
            known: &self.known,
            trace,
        }
    }

    /// Rewrites and reflect-simplifies literals against the active set;
    /// with `detail`, also records where each step acted.
    pub(super) fn simplify_lits(
        &mut self,
        lits: &mut Vec<Literal>,
        simps: &mut Vec<SimpStep>,
        exclude: Option<ClauseId>,
        mut detail: Option<&mut Vec<SimpDetail>>,
    ) {
        if self.nf_cache.over_budget() {
            self.nf_cache.clear();
        }
        let before = simps.len();
        let mut trace = detail.is_some().then(RewriteTrace::default);
        let mut rw = self.rewriter(simps, exclude, trace.as_mut());
        rw.rewrite_literals(lits);
        let rewrites = simps.len() - before;
        if let (Some(d), Some(trace)) = (detail.as_deref_mut(), trace) {
            d.extend(rewrite_details(trace));
        }
        let before_reflect = simps.len();
        simplify_reflect::simplify(
            &self.bank,
            &self.active,
            &self.store,
            &mut self.matcher,
            lits,
            simps,
            exclude,
            detail,
        );
        self.stats.rewrites += rewrites as u64;
        self.stats.reflect_deletions += (simps.len() - before_reflect) as u64;
    }

    /// Normalises, filters and records a new clause; queues it as passive.
    pub(super) fn keep_conclusion(
        &mut self,
        mut lits: Vec<Literal>,
        rule: Rule,
        parents: SmallVec<[ClauseId; 2]>,
        mut simps: Vec<SimpStep>,
        simplify: bool,
        mut detail: Option<Detail>,
    ) -> Option<ClauseId> {
        if simplify && self.params.simplify_new_clauses {
            // Orient first so that rewriting sees which side is maximal; the
            // canonical renumbering is done once, after rewriting.
            self.known.clear();
            for l in lits.iter_mut() {
                let (o, order) = orient_known(&self.bank, &self.kbo, *l);
                *l = o;
                self.known.push((o, order));
            }
            let oriented = Clause {
                lits: lits.into_boxed_slice(),
            };
            if self.is_tautology(&oriented) {
                self.stats.tautologies += 1;
                self.known.clear();
                return None;
            }
            lits = oriented.lits.into_vec();
            if self.params.record_simp_detail {
                let mut d = detail.take().unwrap_or_else(|| Detail {
                    raw: lits.clone(),
                    steps: Vec::new(),
                });
                self.simplify_lits(&mut lits, &mut simps, None, Some(&mut d.steps));
                detail = Some(d);
            } else {
                self.simplify_lits(&mut lits, &mut simps, None, None);
            }
        }
        let clause = normalize_clause_known(&mut self.bank, &self.kbo, lits, &self.known);
        self.known.clear();
        if self.is_tautology(&clause) {
            self.stats.tautologies += 1;
            return None;
        }
        if self.over_limits(&clause.lits) {
            return None;
        }
        let weight = self.clause_weight(&clause.lits);
        let goal = self.derives_from_goal(&parents, &simps);
        if let Some(first) = self.find_duplicate(&clause.lits) {
            self.stats.duplicates += 1;
            if self.params.requeue_duplicates {
                self.enqueue(first, weight, goal);
            }
            return None;
        }
        let empty = clause.is_empty();
        let simplified = !simps.is_empty();
        let id = self.store.push(clause, rule, parents, simps, None);
        if let Some(d) = detail
            && simplified
        {
            self.store.set_detail(id, d);
        }
        self.goal.push(goal);
        self.stats.kept += 1;
        self.remember(id);
        self.enqueue(id, weight, goal);
        self.passive_live += 1;
        if empty && self.empty.is_none() {
            self.empty = Some(id);
        }
        Some(id)
    }

    /// True if the clause is a tautology: syntactically
    /// ([`Clause::is_tautology`]) or by a disequation between different
    /// distinct values.
    pub(super) fn is_tautology(&self, clause: &Clause) -> bool {
        clause.is_tautology() || simplify_reflect::distinct_tautology(&self.bank, &clause.lits)
    }

    /// Forward-simplifies a selected clause. Returns the clause to process
    /// (a new record if it changed), or `None` if it was deleted.
    pub(super) fn simplify_given(&mut self, given: ClauseId) -> Option<ClauseId> {
        let mut lits = self.store.clause(given).lits.to_vec();
        let mut simps = Vec::new();
        let mut detail = self.params.record_simp_detail.then(|| Detail {
            raw: lits.clone(),
            steps: Vec::new(),
        });
        self.simplify_lits(
            &mut lits,
            &mut simps,
            None,
            detail.as_mut().map(|d| &mut d.steps),
        );
        if self.params.subsumption_resolution {
            self.cut_literals(&mut lits, &mut simps, detail.as_mut().map(|d| &mut d.steps));
        }
        if simps.is_empty() {
            return Some(given);
        }
        self.store.set_state(given, State::Deleted);
        let clause = normalize_clause(&mut self.bank, &self.kbo, lits);
        if self.is_tautology(&clause) {
            self.stats.tautologies += 1;
            return None;
        }
        if self.find_duplicate(&clause.lits).is_some() {
            self.stats.duplicates += 1;
            return None;
        }
        let parents = smallvec::smallvec![given];
        let goal = self.derives_from_goal(&parents, &simps);
        let id = self
            .store
            .push(clause, Rule::Simplification, parents, simps, None);
        if let Some(d) = detail {
            self.store.set_detail(id, d);
        }
        self.goal.push(goal);
        self.stats.kept += 1;
        self.remember(id);
        Some(id)
    }

    /// Contextual subsumption resolution: deletes each literal `L` of
    /// `L ∨ R` for which an active clause of two literals or more subsumes
    /// `¬L ∨ R` (a unit that does is simplify-reflect, already applied), and
    /// records the step with that clause. After a deletion the same position
    /// is tried again, since the shorter clause may admit further cuts.
    pub(super) fn cut_literals(
        &mut self,
        lits: &mut Vec<Literal>,
        simps: &mut Vec<SimpStep>,
        mut detail: Option<&mut Vec<SimpDetail>>,
    ) {
        if lits.len() < 2 {
            return;
        }
        let mut i = 0;
        while i < lits.len() && lits.len() >= 2 {
            let mut flipped = lits.clone();
            flipped[i].pos = !flipped[i].pos;
            let c = Clause {
                lits: flipped.into_boxed_slice(),
            };
            let fv = feature_vector(&self.bank, &c);
            let (bank, store, matcher) = (&self.bank, &self.store, &mut self.matcher);
            let mut cutter = None;
            self.active.fv.subsumer_candidates(&fv, &mut |d| {
                let dc = store.clause(d);
                if dc.len() > 1 && subsumes(bank, matcher, dc, &c) {
                    cutter = Some(d);
                    return false;
                }
                true
            });
            match cutter {
                Some(d) => {
                    simps.push(SimpStep::SubsumptionResolution(d));
                    if let Some(steps) = detail.as_deref_mut() {
                        steps.push(SimpDetail::Cut { lit: i as u32 });
                    }
                    lits.remove(i);
                    self.stats.subsumption_cuts += 1;
                }
                None => i += 1,
            }
        }
    }

    /// True if an active clause subsumes `c`. Unit subsumers are looked up
    /// first through the unit index (generalisations of each side of each
    /// literal), which is much more selective than feature vectors; the
    /// feature-vector walk then only tries clauses of two literals or more.
    pub(super) fn forward_subsumed(&mut self, c: &Clause) -> bool {
        let (bank, store, matcher) = (&self.bank, &self.store, &mut self.matcher);
        let mut found = false;
        for l in c.lits.iter() {
            let sides = [l.lhs, l.rhs];
            let n = if l.is_equational(bank) { 2 } else { 1 };
            for &t in &sides[..n] {
                self.active.units(l.pos).candidates(
                    bank,
                    t,
                    Query::Generalizations,
                    &mut |_, e| {
                        if !found && subsumes(bank, matcher, store.clause(e.clause), c) {
                            found = true;
                        }
                    },
                );
                if found {
                    return true;
                }
            }
        }
        if c.len() < 2 {
            return false;
        }
        let fv = feature_vector(bank, c);
        self.active.fv.subsumer_candidates(&fv, &mut |d| {
            let dc = store.clause(d);
            if dc.len() > 1 && subsumes(bank, matcher, dc, c) {
                found = true;
                return false;
            }
            true
        });
        found
    }

    pub(super) fn backward_subsume(&mut self, given: ClauseId, c: &Clause) {
        let fv = feature_vector(&self.bank, c);
        let mut victims = Vec::new();
        {
            let (bank, store, matcher) = (&self.bank, &self.store, &mut self.matcher);
            self.active.fv.subsumed_candidates(&fv, &mut |d| {
                if d != given && subsumes(bank, matcher, c, store.clause(d)) {
                    victims.push(d);
                }
                true
            });
        }
        for d in victims {
            let dc = self.store.clause(d).clone();
            self.active.remove(&self.bank, &self.kbo, d, &dc);
            self.store.set_state(d, State::Deleted);
            self.stats.backward_subsumed += 1;
        }
    }

    pub(super) fn backward_rewrite(&mut self, given: ClauseId, unit: Literal) {
        let oriented = self.kbo.compare(&self.bank, unit.lhs, unit.rhs) == TermOrder::Greater;
        let mut victims = backward_candidates(&self.bank, &self.active, unit.lhs);
        if !oriented {
            victims.extend(backward_candidates(&self.bank, &self.active, unit.rhs));
            victims.sort_unstable();
            victims.dedup();
        }
        for d in victims {
            if d == given || !self.active.contains(d) {
                continue;
            }
            let mut lits = self.store.clause(d).lits.to_vec();
            let mut simps = Vec::new();
            let mut trace = self.params.record_simp_detail.then(RewriteTrace::default);
            let raw = trace.as_ref().map(|_| lits.clone());
            let mut rw = self.rewriter(&mut simps, Some(d), trace.as_mut());
            if !rw.rewrite_literals(&mut lits) {
                continue;
            }
            let detail = raw.zip(trace).map(|(raw, trace)| Detail {
                raw,
                steps: rewrite_details(trace).collect(),
            });
            self.stats.rewrites += simps.len() as u64;
            self.stats.backward_rewritten += 1;
            let dc = self.store.clause(d).clone();
            self.active.remove(&self.bank, &self.kbo, d, &dc);
            self.store.set_state(d, State::Deleted);
            self.keep_conclusion(
                lits,
                Rule::Simplification,
                smallvec::smallvec![d],
                simps,
                false,
                detail,
            );
        }
    }
}

/// The located rewrites of a trace as simplification details.
fn rewrite_details(trace: RewriteTrace) -> impl Iterator<Item = SimpDetail> {
    trace
        .steps
        .into_iter()
        .map(|(lit, right, step)| SimpDetail::Rewrite {
            lit,
            right,
            path: step.path.into_boxed_slice(),
            redex: step.redex,
            contractum: step.contractum,
            unit_side: step.unit_side,
        })
}
