//! Demodulation: rewriting with oriented instances of positive unit
//! equations, innermost first, to normal form.
//!
//! A unit `l = r` rewrites `t = lσ` to `rσ` when `lσ > rσ` in the term
//! ordering (always, for an equation oriented `l > r`). At the root of the
//! maximal side `s` of a positive equation `s = t'`, the step must also
//! make the clause smaller (`rσ < t'`; `rσ = t'` is allowed too, as the
//! literal then becomes a tautology and is subsumed by the unit), unless `s`
//! is a strict instance of `l` (encompassment, as in Knuth-Bendix
//! completion), which keeps the calculus complete
//! (Bachmair & Ganzinger 1994; Schulz, E 2002, §3).

use crate::logic::{Kbo, Literal, Matcher, Subst, TermBank, TermId, TermOrder};
use crate::saturation::active::{ActiveSet, UnitEntry};
use crate::saturation::fingerprint::Query;
use crate::saturation::store::{ClauseId, ClauseStore, SimpStep};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Rewrite steps one clause's simplification may take under a finite work
/// limit ([`Rewriter::too_many_steps`]).
pub const MAX_CLAUSE_REWRITES: usize = 100_000;

/// [`Rewriter::too_many_steps`] for a clause that would have `steps`
/// rewrite steps: past [`MAX_CLAUSE_REWRITES`] under a finite work limit,
/// the budget is used up and the answer is true.
fn past_step_cap(work: &mut u64, work_limit: u64, steps: usize) -> bool {
    if work_limit == u64::MAX || steps <= MAX_CLAUSE_REWRITES {
        return false;
    }
    *work = (*work).max(work_limit);
    true
}

/// Rewriting context.
pub struct Rewriter<'a> {
    /// The term bank.
    pub bank: &'a mut TermBank,
    /// The ordering.
    pub kbo: &'a Kbo,
    /// Active set (its unit index holds the rewrite rules).
    pub active: &'a ActiveSet,
    /// Clause arena.
    pub store: &'a ClauseStore,
    /// Scratch matcher.
    pub matcher: &'a mut Matcher,
    /// Scratch substitution for ordering checks on instances.
    pub inst: &'a mut Subst,
    /// Rewrite work so far in the run: index nodes visited plus units
    /// returned, over all redexes.
    pub work: &'a mut u64,
    /// No candidate is tried once `work` reaches this.
    pub work_limit: u64,
    /// Units used, in order of use.
    pub used: &'a mut Vec<SimpStep>,
    /// A clause that must not rewrite (the clause being rewritten, if active).
    pub exclude: Option<ClauseId>,
    /// Normal-form cache, or `None` to bypass it (it must be bypassed when
    /// `exclude` is set, since a cached result may have used that clause).
    pub cache: Option<&'a mut NfCache>,
    /// Literals whose sides' order is known (from
    /// [`crate::logic::orient_known`]), so it is not computed again.
    pub known: &'a [(Literal, TermOrder)],
    /// Where each rewrite acted, when simplification detail is recorded
    /// (one entry per [`SimpStep::Rewrite`] pushed to `used`).
    pub trace: Option<&'a mut RewriteTrace>,
}

/// One rewrite step located in a term: the argument path from the root of
/// the term being normalised, the redex, the contractum and the side of the
/// unit that matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedRewrite {
    /// Argument indices from the root to the redex.
    pub path: Vec<u32>,
    /// The subterm replaced.
    pub redex: TermId,
    /// Its replacement.
    pub contractum: TermId,
    /// The unit's side that matched (0 = `lhs`).
    pub unit_side: u8,
}

/// The located rewrite steps of a [`Rewriter`], in order, each tagged with
/// the literal index and side it acted on.
#[derive(Clone, Debug, Default)]
pub struct RewriteTrace {
    /// `(literal index, right side, step)` per rewrite.
    pub steps: Vec<(u32, bool, TracedRewrite)>,
    path: Vec<u32>,
    lit: u32,
    right: bool,
}

/// A cached rewrite: `nf` is reachable from the key term by the units
/// `NfCache::used[used.0..used.1]`, and was a normal form when the rule set
/// had version `version`. 20 bytes: the units and the trace live in side
/// vectors, since nearly every entry has neither.
#[derive(Copy, Clone, Debug)]
struct NfEntry {
    nf: TermId,
    version: u32,
    used: (u32, u32),
    /// 1 + index into `NfCache::traces` when the entry was made by a
    /// tracing rewriter (its located steps, paths relative to the key
    /// term); 0 otherwise.
    trace: u32,
}

/// Normal forms of terms, so that shared subterms are normalised once per
/// rule-set version: unguarded ones (non-root positions) by term, and the
/// roots of maximal sides of positive equations, whose rewrites must stay
/// below the other side, by (term, other side). Inferences derive the same
/// conclusion again and again (two in five on an AC lattice theory), and
/// such a repeat then costs a lookup per side. A stale entry is still a
/// valid rewrite; normalisation resumes from it. Units used stay valid
/// premises even if later deleted, since deleted clauses remain in the
/// derivation DAG.
#[derive(Clone, Debug)]
pub struct NfCache {
    /// Indexed by term id: 0 = no entry, otherwise 1 + index into `entries`.
    slot: Vec<u32>,
    /// Guarded entries: `(term, guard)` to 1 + index into `entries`. Only
    /// looked up, never iterated, so the hasher's order reaches nothing.
    guarded: FxHashMap<(TermId, TermId), u32>,
    entries: Vec<NfEntry>,
    /// The units of all entries, each entry's a range (an overwritten
    /// entry's units stay until [`NfCache::clear`]).
    used: Vec<ClauseId>,
    traces: Vec<Box<[TracedRewrite]>>,
    /// Bytes held by `traces` (steps and their paths, allocator overhead
    /// not): a measure of the work stored, the same on every machine, so
    /// clearing by it keeps a run reproducible.
    trace_bytes: usize,
    /// [`NF_CACHE_TRACE_BYTES`] (smaller in tests).
    budget: usize,
    refreshed: u64,
}

impl Default for NfCache {
    fn default() -> Self {
        Self {
            slot: Vec::new(),
            guarded: FxHashMap::default(),
            entries: Vec::new(),
            used: Vec::new(),
            traces: Vec::new(),
            trace_bytes: 0,
            budget: NF_CACHE_TRACE_BYTES,
            refreshed: 0,
        }
    }
}

/// The most bytes of traces (a tracing rewriter's located steps, kept for
/// certificates) an [`NfCache`] holds before [`NfCache::over_budget`] asks
/// for a clear. An entry's trace holds every rewrite below its term, so a
/// deep term's entries repeat its subterms' steps, paths included, along
/// each path: an FLD entailment prover call (2 million traced rewrites)
/// held some 500 MB in its cache while below the entry bound. Untraced
/// entries (saturation runs) are 20 bytes and stay bounded by
/// [`NF_CACHE_ENTRIES`] alone.
pub const NF_CACHE_TRACE_BYTES: usize = 64 << 20;
/// The most entries an [`NfCache`] holds before it asks for a clear.
pub const NF_CACHE_ENTRIES: usize = 4_000_000;

impl NfCache {
    /// Entries stored.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Drops everything (bounds memory on long runs).
    pub fn clear(&mut self) {
        self.slot.clear();
        self.guarded.clear();
        self.entries.clear();
        self.used.clear();
        self.traces.clear();
        self.trace_bytes = 0;
    }

    /// True when the cache holds more than [`NF_CACHE_ENTRIES`] entries or
    /// [`NF_CACHE_TRACE_BYTES`] bytes of traces: the caller clears it
    /// between clauses.
    pub fn over_budget(&self) -> bool {
        self.entries.len() > NF_CACHE_ENTRIES || self.trace_bytes > self.budget
    }

    /// 1 + the index of the entry of `t` under `guard`, or 0.
    fn slot_of(&self, t: TermId, guard: Option<TermId>) -> u32 {
        match guard {
            None => self.slot.get(t.index()).copied().unwrap_or(0),
            Some(u) => self.guarded.get(&(t, u)).copied().unwrap_or(0),
        }
    }

    fn get(&self, t: TermId, guard: Option<TermId>) -> Option<NfEntry> {
        match self.slot_of(t, guard) {
            0 => None,
            i => Some(self.entries[i as usize - 1]),
        }
    }

    /// Marks the entry of `t` under `guard` a normal form at `version` too.
    fn refresh(&mut self, t: TermId, guard: Option<TermId>, version: u32) {
        if let i @ 1.. = self.slot_of(t, guard) {
            self.entries[i as usize - 1].version = version;
            self.refreshed += 1;
        }
    }

    /// Stale entries found still normal by `Rewriter::still_normal` and
    /// kept, without normalising them again.
    pub fn refreshed(&self) -> u64 {
        self.refreshed
    }

    fn used(&self, e: &NfEntry) -> &[ClauseId] {
        &self.used[e.used.0 as usize..e.used.1 as usize]
    }

    fn trace(&self, e: &NfEntry) -> Option<&[TracedRewrite]> {
        (e.trace > 0).then(|| &*self.traces[e.trace as usize - 1])
    }

    fn put(
        &mut self,
        (t, guard): (TermId, Option<TermId>),
        nf: TermId,
        version: u32,
        used: impl Iterator<Item = ClauseId>,
        trace: Option<Box<[TracedRewrite]>>,
    ) {
        let start = self.used.len() as u32;
        self.used.extend(used);
        let trace = match trace {
            Some(tr) => {
                self.trace_bytes += std::mem::size_of::<Box<[TracedRewrite]>>()
                    + tr.iter()
                        .map(|s| {
                            std::mem::size_of::<TracedRewrite>()
                                + std::mem::size_of::<u32>() * s.path.len()
                        })
                        .sum::<usize>();
                self.traces.push(tr);
                self.traces.len() as u32
            }
            None => 0,
        };
        let e = NfEntry {
            nf,
            version,
            used: (start, self.used.len() as u32),
            trace,
        };
        let slot = match guard {
            None => {
                if self.slot.len() <= t.index() {
                    self.slot.resize(t.index() + 1, 0);
                }
                &mut self.slot[t.index()]
            }
            Some(u) => self.guarded.entry((t, u)).or_insert(0),
        };
        match *slot {
            0 => {
                self.entries.push(e);
                *slot = self.entries.len() as u32;
            }
            i => self.entries[i as usize - 1] = e,
        }
    }
}

impl Rewriter<'_> {
    /// Rewrites every literal of `lits` to normal form; returns true if
    /// anything changed.
    pub fn rewrite_literals(&mut self, lits: &mut [Literal]) -> bool {
        let mut changed = false;
        for (k, l) in lits.iter_mut().enumerate() {
            if let Some(tr) = self.trace.as_deref_mut() {
                tr.lit = k as u32;
                tr.right = false;
                tr.path.clear();
            }
            let eq = l.is_equational(self.bank);
            let o = eq.then(|| match self.known.iter().find(|k| k.0 == *l) {
                Some(k) => k.1,
                None => self.kbo.compare(self.bank, l.lhs, l.rhs),
            });
            let lhs_max = o.is_some_and(|o| o != TermOrder::Less);
            let rhs_max = o.is_some_and(|o| o != TermOrder::Greater);
            // Restriction at the root of a maximal side of a positive equation.
            let guard_l = (l.pos && lhs_max).then_some(l.rhs);
            let guard_r = (l.pos && rhs_max).then_some(l.lhs);
            let nl = self.normal_form(l.lhs, guard_l);
            if let Some(tr) = self.trace.as_deref_mut() {
                tr.right = true;
            }
            let nr = if eq {
                self.normal_form(l.rhs, guard_r)
            } else {
                l.rhs
            };
            if nl != l.lhs || nr != l.rhs {
                *l = Literal::eq(nl, nr, l.pos);
                changed = true;
            }
        }
        changed
    }

    /// True, with the work budget used up, when `more` steps would take
    /// the clause being rewritten past [`MAX_CLAUSE_REWRITES`] under a
    /// finite work limit: a rewrite chain that long (ordered rewriting with
    /// a permutative unit on a large term can take exponentially many
    /// steps) ends the run as the work limit does, before its record (each
    /// step, and its location when traced) outgrows memory. Runs without a
    /// work limit are left as they are.
    fn too_many_steps(&mut self, more: usize) -> bool {
        past_step_cap(self.work, self.work_limit, self.used.len() + more)
    }

    /// Normal form of `t`. When `guard` is `Some(u)`, a rewrite at the root
    /// of `t` must produce a term smaller than `u`.
    pub fn normal_form(&mut self, t: TermId, guard: Option<TermId>) -> TermId {
        if self.bank.is_var(t) || self.active.demod.is_empty() {
            return t;
        }
        let version = self.active.demod_version;
        let before = self.used.len();
        let trace_before = self.trace.as_deref().map_or(0, |tr| tr.steps.len());
        let mut cur = t;
        if let Some(cache) = self.cache.as_deref()
            && let Some(e) = cache.get(t, guard)
            // A tracing rewriter can only reuse entries that carry a trace.
            && (self.trace.is_none() || e.trace > 0)
        {
            // `too_many_steps`, with the cache still borrowed.
            if past_step_cap(
                self.work,
                self.work_limit,
                self.used.len() + cache.used(&e).len(),
            ) {
                return t;
            }
            for &u in cache.used(&e) {
                self.used.push(SimpStep::Rewrite(u));
            }
            if let Some(tr) = self.trace.as_deref_mut() {
                for step in cache.trace(&e).into_iter().flatten() {
                    let mut path = tr.path.clone();
                    path.extend_from_slice(&step.path);
                    let located = TracedRewrite {
                        path,
                        ..step.clone()
                    };
                    tr.steps.push((tr.lit, tr.right, located));
                }
            }
            if e.version == version {
                return e.nf;
            }
            // Normal without a guard is normal with one too.
            if self.still_normal(e.nf, e.version) {
                if let Some(cache) = self.cache.as_deref_mut() {
                    cache.refresh(t, guard, version);
                }
                return e.nf;
            }
            cur = e.nf;
        }
        let nf = self.normalise_from(cur, guard);
        if let Some(cache) = self.cache.as_deref_mut() {
            let used = self.used[before..].iter().filter_map(|s| s.partner());
            let trace = self.trace.as_deref().map(|tr| {
                let depth = tr.path.len();
                tr.steps[trace_before..]
                    .iter()
                    .map(|(_, _, s)| TracedRewrite {
                        path: s.path[depth..].to_vec(),
                        ..s.clone()
                    })
                    .collect()
            });
            cache.put((t, guard), nf, version, used, trace);
        }
        nf
    }

    /// True when `nf`, a normal form under the rules of version `since`,
    /// is one still: no rule side added after `since` rewrites any of its
    /// subterms (the rules there before could not, and deleting rules adds
    /// none). Checked only when at most [`RECHECK_RULES`] sides came since,
    /// by matching each against each subterm with the same head; otherwise
    /// `false`, and the caller normalises again. Each match tried counts as
    /// rewrite work.
    fn still_normal(&mut self, nf: TermId, since: u32) -> bool {
        let log = &self.active.demod_log;
        let recent = &log[log.partition_point(|e| e.0 <= since)..];
        if recent.len() > RECHECK_RULES {
            return false;
        }
        let (bank, kbo) = (&*self.bank, self.kbo);
        let mut tried = 0u64;
        let mut todo: SmallVec<[TermId; 16]> = SmallVec::new();
        todo.push(nf);
        let mut normal = true;
        'terms: while let Some(s) = todo.pop() {
            if bank.is_var(s) {
                continue;
            }
            for &(_, l, r, e) in recent {
                if bank.head_code(l) != bank.head_code(s) || bank.weight(l) > bank.weight(s) {
                    continue;
                }
                tried += 1;
                self.matcher.clear();
                if !self.matcher.matches(bank, l, s) {
                    continue;
                }
                let order = if e.oriented {
                    TermOrder::Greater
                } else if e.permutative {
                    kbo.compare_matched_permutative(bank, self.matcher, self.inst, s, l, r)
                } else {
                    kbo.compare_matched(bank, self.matcher, self.inst, s, l, r)
                };
                if order == TermOrder::Greater {
                    normal = false;
                    break 'terms;
                }
            }
            todo.extend(bank.args(s).iter().copied());
        }
        *self.work += tried;
        normal
    }

    fn normalise_from(&mut self, t: TermId, guard: Option<TermId>) -> TermId {
        let mut cur = t;
        loop {
            let n = self.bank.arity(cur);
            if n > 0 {
                let mut args: smallvec::SmallVec<[TermId; 8]> =
                    smallvec::SmallVec::with_capacity(n);
                let mut changed = false;
                for i in 0..n {
                    let a = self.bank.arg(cur, i);
                    if let Some(tr) = self.trace.as_deref_mut() {
                        tr.path.push(i as u32);
                    }
                    let b = self.normal_form(a, None);
                    if let Some(tr) = self.trace.as_deref_mut() {
                        tr.path.pop();
                    }
                    changed |= a != b;
                    args.push(b);
                }
                if changed {
                    let f = self.bank.sym(cur);
                    cur = self.bank.app(f, &args);
                }
            }
            match self.rewrite_root(cur, guard) {
                Some(next) => cur = next,
                None => return cur,
            }
        }
    }

    /// One rewrite step at the root of `t`, if some unit applies.
    pub(crate) fn rewrite_root(&mut self, t: TermId, guard: Option<TermId>) -> Option<TermId> {
        if self.bank.is_var(t) || *self.work >= self.work_limit || self.too_many_steps(1) {
            return None;
        }
        // The first unit in tree order that matches (the tree returns
        // nothing else, with the matcher), passes the ordering check and,
        // under a guard, rewrites below it. Both checks read the instance
        // through the matcher, so a failed candidate builds nothing and the
        // walk stops at the first that passes.
        let mut found: Option<(UnitEntry, Sigma)> = None;
        let mut returned = 0u64;
        let (bank, kbo, store, exclude) = (&*self.bank, self.kbo, self.store, self.exclude);
        let (matcher, inst) = (&mut *self.matcher, &mut *self.inst);
        let visits = self
            .active
            .demod
            .generalizations(bank, t, &mut |_, e, sigma| {
                returned += 1;
                if Some(e.clause) == exclude {
                    return true;
                }
                if e.oriented && guard.is_none() {
                    found = Some((e, sigma.iter().collect()));
                    return false;
                }
                let (l, r) = unit_sides(bank, store, e);
                // An unoriented unit rewrites only instances it orients: rσ must
                // be smaller (the index holds only sides with every variable of
                // the other side, so rσ has no variable t lacks). Most checks
                // fail with permutative units such as commutativity, and most
                // of those are decided from the retrieval's bindings alone,
                // before the matcher is loaded.
                let mut loaded = false;
                if !e.oriented {
                    let quick = e
                        .permutative
                        .then(|| kbo.permutative_prefix(bank, t, l, r, |v| sigma.get(v)));
                    let order = match quick {
                        Some(Ok(o)) => o,
                        _ => {
                            matcher.set(sigma.iter());
                            loaded = true;
                            if e.permutative {
                                kbo.compare_matched_permutative(bank, matcher, inst, t, l, r)
                            } else {
                                kbo.compare_matched(bank, matcher, inst, t, l, r)
                            }
                        }
                    };
                    if order != TermOrder::Greater {
                        return true;
                    }
                }
                // rσ = u makes the literal a tautology that the unit subsumes
                // anyway; a strict instance of l may always be rewritten (the
                // encompassment condition of completion).
                if let Some(u) = guard {
                    if !loaded {
                        matcher.set(sigma.iter());
                    }
                    if !strict_instance(bank, matcher, l) {
                        inst.load_matcher(matcher, 0, 1);
                        if !matches!(
                            kbo.compare_inst(bank, inst, r, 0, u, 1),
                            TermOrder::Less | TermOrder::Equal
                        ) {
                            return true;
                        }
                    }
                }
                found = Some((e, sigma.iter().collect()));
                false
            });
        *self.work += visits + returned;
        let (e, sigma) = found?;
        let (_, r) = unit_sides(self.bank, self.store, e);
        self.matcher.set(sigma);
        debug_assert!(self.matcher.binds_all_vars(self.bank, r));
        let rs = self.matcher.apply(self.bank, r);
        self.used.push(SimpStep::Rewrite(e.clause));
        if let Some(tr) = self.trace.as_deref_mut() {
            let step = TracedRewrite {
                path: tr.path.clone(),
                redex: t,
                contractum: rs,
                unit_side: e.side,
            };
            tr.steps.push((tr.lit, tr.right, step));
        }
        Some(rs)
    }
}

/// Most rule sides added since a cached normal form was made for which
/// [`Rewriter::still_normal`] checks it instead of normalising it again.
const RECHECK_RULES: usize = 8;

/// A matcher as `(pattern variable, binding)` pairs.
type Sigma = SmallVec<[(u32, TermId); 4]>;

/// The indexed side of a unit equation and the side it rewrites to.
fn unit_sides(bank: &TermBank, store: &ClauseStore, e: UnitEntry) -> (TermId, TermId) {
    let unit = store.clause(e.clause).lits[0];
    assert!(
        unit.pos && unit.is_equational(bank),
        "demodulator index holds a clause that is not a positive unit equation"
    );
    if e.side == 0 {
        (unit.lhs, unit.rhs)
    } else {
        (unit.rhs, unit.lhs)
    }
}

/// True if the matcher does not merely rename the variables of `l`: some
/// variable is bound to a non-variable, or two to the same variable. Then the
/// matched term is a strict instance of `l`.
fn strict_instance(bank: &TermBank, m: &Matcher, l: TermId) -> bool {
    let mut counts = Vec::new();
    bank.count_vars(l, &mut counts);
    let mut images: SmallVec<[TermId; 8]> = SmallVec::new();
    for (v, &n) in counts.iter().enumerate() {
        if n == 0 {
            continue;
        }
        match m.get(v as u32) {
            Some(t) if bank.is_var(t) && !images.contains(&t) => images.push(t),
            _ => return true,
        }
    }
    false
}

/// Active clauses that contain an instance of `l` (candidates for backward
/// rewriting by the unit `l = r`), in index order, deduplicated.
pub fn backward_candidates(bank: &TermBank, active: &ActiveSet, l: TermId) -> Vec<ClauseId> {
    let mut out = Vec::new();
    if bank.is_var(l) {
        return out;
    }
    let mut m = Matcher::new();
    active
        .subterms
        .candidates(bank, l, Query::Instances, &mut |t, c| {
            m.clear();
            if m.matches(bank, l, t) {
                out.push(c);
            }
        });
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(path_len: usize) -> TracedRewrite {
        TracedRewrite {
            path: vec![0; path_len],
            redex: TermId(1),
            contractum: TermId(2),
            unit_side: 0,
        }
    }

    /// Traces count their steps and paths; past the budget the cache
    /// asks for a clear, and a clear starts the count afresh. Untraced
    /// entries count nothing (the entry bound covers them).
    #[test]
    fn cache_counts_its_trace_bytes_and_asks_to_be_cleared_past_its_budget() {
        let mut c = NfCache {
            budget: 4096,
            ..NfCache::default()
        };
        let units = [ClauseId(1), ClauseId(2), ClauseId(3)];
        c.put((TermId(5), None), TermId(6), 1, units.into_iter(), None);
        assert_eq!(c.trace_bytes, 0);
        let trace: Box<[TracedRewrite]> = vec![step(10), step(0)].into();
        c.put(
            (TermId(7), Some(TermId(8))),
            TermId(9),
            1,
            units.into_iter(),
            Some(trace),
        );
        let traced = std::mem::size_of::<Box<[TracedRewrite]>>()
            + 2 * std::mem::size_of::<TracedRewrite>()
            + 10 * std::mem::size_of::<u32>();
        assert_eq!(c.trace_bytes, traced);
        assert!(!c.over_budget());
        let long: Box<[TracedRewrite]> = vec![step(1000)].into();
        c.put(
            (TermId(10), None),
            TermId(11),
            1,
            std::iter::empty(),
            Some(long),
        );
        assert!(
            c.over_budget(),
            "{} bytes over a 4096-byte budget",
            c.trace_bytes
        );
        c.clear();
        assert_eq!(c.trace_bytes, 0);
        assert!(!c.over_budget());
        assert!(c.get(TermId(5), None).is_none());
    }
}
