//! The derivation graph a TPTP family draws from: one saturated axiom
//! file with its ranked theorem pool (AGInT-style interestingness),
//! depth-d premises, premise pools and per-instance metadata.

use super::*;
use crate::interest::{Ranking, Scored};
use crate::logic::{Literal, SymbolId, TermBank, canonical_clause};
use crate::prover::{Outcome, Prover};
use crate::saturation::{ClauseId, ClauseStore, RoundReport, Rule, State};
use crate::tptp::clause_to_tptp;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

mod draw;
pub use draw::*;

/// Per (depth, premise limit), the premise pool of
/// [`Graph::depth_premise_pool`] and the number of theorems it counts
/// ([`Graph::counted_premise_pool`]).
pub(in crate::tasks::tptp) type PremisePools =
    std::collections::BTreeMap<(u32, usize), (u32, std::sync::Arc<Vec<(ClauseId, u32)>>)>;

/// One saturated axiom file, ready for task generation.
pub struct Graph {
    /// The term bank of the saturation run.
    pub bank: TermBank,
    /// The clause store (derivation DAG) of the run.
    pub store: ClauseStore,
    /// Domain code.
    pub domain: String,
    /// Axiom file stem.
    pub name: String,
    /// Ranked theorem candidates (top `pool_size`, score ≥ `min_score`,
    /// distinct up to variants).
    pub pool: Vec<Scored>,
    /// The ranking's entries after the pool's last (score at least
    /// `min_score`), at most `WIDE_POOL - 1` times `pool_size`: what
    /// [`Graph::more`] is read from, when a cell first asks.
    tail: Vec<Scored>,
    /// [`Graph::more`], once read.
    more: std::sync::OnceLock<Vec<Scored>>,
    /// Clauses usable as distractors: the final active set.
    pub active: Vec<ClauseId>,
    /// What matching reads of each active clause (same order), computed
    /// once: every replacement and distractor draw compares all of them.
    pub(in crate::tasks::tptp) active_surface: Vec<Surface>,
    /// Each active clause's TPTP text and canonical form (same order),
    /// printed once: distractor and replacement draws compare them for
    /// every active clause, and printing them per draw was most of an
    /// entailment cell's time (`entail::calibrate` draws thousands).
    pub(in crate::tasks::tptp) active_texts: Vec<(Box<str>, Box<str>)>,
    /// Position of each active clause in `active` (an Fx map: every
    /// surface, text and canonical-form read looks it up, thousands of
    /// times per entailment draw).
    pub(in crate::tasks::tptp) active_index: rustc_hash::FxHashMap<ClauseId, usize>,
    /// What matching reads of each input clause that is not active (the
    /// axioms a saturation simplified or subsumed): background
    /// replacements are drawn from them, and computing their surface on
    /// every read printed the clause again each time.
    pub(in crate::tasks::tptp) input_surface: rustc_hash::FxHashMap<ClauseId, Surface>,
    /// The greatest premise distance of each pool theorem (same order):
    /// P_d(T) exists exactly for d up to it.
    pub(in crate::tasks::tptp) reach: Vec<u32>,
    /// Per premise depth d (index d - 1), over the pool theorems whose
    /// P_d(T) exists and has at most `max_premises` clauses (the theorems
    /// an entailment row of depth d may ask about): how many there are,
    /// and for each clause among their P_d(T), in how many P_d(T) and
    /// among how many of those theorems' ancestors it is
    /// ([`Graph::premise_weight`]).
    pub(in crate::tasks::tptp) premise_stats: Vec<PremiseStats>,
    /// A finite model of the whole axiom file, when one was found: every
    /// clause of the graph is then true in it, so no premise set drawn from
    /// the graph is inconsistent.
    pub consistent: bool,
    /// The rounds of iterative saturation that made the store (empty for
    /// one round; [`Graph::with_rounds`]).
    pub rounds: Vec<RoundReport>,
    /// Per record: reached only through an earlier round's lemma
    /// ([`crate::saturation::via_lemma`]; empty for one round).
    pub(in crate::tasks::tptp) via_lemma: Vec<bool>,
    /// Per depth and premise limit, once computed:
    /// [`Graph::depth_premise_pool`].
    pub(in crate::tasks::tptp) premise_pools: std::sync::Mutex<PremisePools>,
    /// Per premise depth, once computed: [`Graph::premise_keys`].
    pub(in crate::tasks::tptp) premise_keys: std::sync::Mutex<PremiseKeys>,
    /// Per premise depth, once computed: [`Graph::fits_premises`].
    pub(in crate::tasks::tptp) premise_fits: std::sync::Mutex<PoolFlags<u32>>,
    /// Per (depth, clauses), once computed: [`Graph::cuttable`].
    pub(in crate::tasks::tptp) cuttable: std::sync::Mutex<PoolFlags<(u32, usize)>>,
    /// The same over [`Graph::more`]: [`Graph::cuttable_more`].
    pub(in crate::tasks::tptp) cuttable_more: std::sync::Mutex<PoolFlags<(u32, usize)>>,
    /// Per entailment (depth, replacements) and set of theorems, once
    /// computed: [`Graph::perturbable`].
    pub(in crate::tasks::tptp) perturbable: std::sync::Mutex<PoolFlags<(u32, u32, Theorems)>>,
    /// Per entailment depth and replacement count, once computed:
    /// [`Graph::swap_weights`].
    pub(in crate::tasks::tptp) swap_weights: std::sync::Mutex<SwapWeights>,
    /// `max_premises` of the configuration the graph was made with: the
    /// most depth-d premises a row's theorem may have.
    pub(in crate::tasks::tptp) max_premises: usize,
}

/// The ancestors of a clause (itself included), as a membership mask by
/// clause id: distractor draws test every active clause against it, and a
/// hashed set of a deep theorem's thousands of ancestors cost more than the
/// draw itself.
pub(in crate::tasks::tptp) struct AncestorSet(Vec<bool>);

impl AncestorSet {
    /// True if `c` is an ancestor (or the clause itself).
    pub(in crate::tasks::tptp) fn contains(&self, c: &ClauseId) -> bool {
        self.0.get(c.index()).copied().unwrap_or(false)
    }
}

/// Which theorems [`Graph::perturbable`] tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Theorems {
    /// An evenly spaced sample of the pool's theorems whose premises fit.
    Sample,
    /// Every theorem of the pool.
    Pool,
    /// Every theorem of [`Graph::more`].
    More,
}

/// A yes or no per pool theorem, per key ([`Graph::fits_premises`] per
/// depth, [`Graph::cuttable`] per depth and clause count).
pub(in crate::tasks::tptp) type PoolFlags<K> =
    std::collections::BTreeMap<K, std::sync::Arc<Vec<bool>>>;

/// The flags of `key` in `cache`, computed by `compute` the first time.
/// Pool theorems per (depth, replacements) that [`Graph::perturbable`]
/// tests to estimate how many an entailment cell could perturb: testing
/// every one cost more than the cells it decided about (the paper layout's
/// entailment cells, 3.5-12 times their CPU on ALG and TOP).
pub const PERTURB_SAMPLE: usize = 40;

fn pool_flags<K: Ord>(
    cache: &std::sync::Mutex<PoolFlags<K>>,
    key: K,
    compute: impl FnOnce() -> Vec<bool>,
) -> std::sync::Arc<Vec<bool>> {
    if let Some(f) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return f.clone();
    }
    // Computed outside the lock: two threads may both compute it, and the
    // results are equal.
    let flags = std::sync::Arc::new(compute());
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, flags.clone());
    flags
}

/// [`Graph::premise_keys`] per depth.
pub(in crate::tasks::tptp) type PremiseKeys =
    std::collections::BTreeMap<u32, std::sync::Arc<Vec<u64>>>;

/// [`Graph::swap_weights`] per (depth, replacement count).
pub(in crate::tasks::tptp) type SwapWeights = std::collections::BTreeMap<
    (u32, u32),
    std::sync::Arc<std::sync::OnceLock<std::sync::Arc<ClauseWeights>>>,
>;

/// Per-clause entailment replacement weights ([`Graph::swap_weights`]),
/// read for every candidate of every draw; never iterated into output.
pub(in crate::tasks::tptp) type ClauseWeights = rustc_hash::FxHashMap<ClauseId, f64>;

/// Per depth d (index d - 1), how many of `reach` (each theorem's
/// greatest premise distance) are at least d.
fn depth_counts(reach: &[u32]) -> Vec<u64> {
    let max = reach.iter().copied().max().unwrap_or(0);
    (1..=max)
        .map(|d| reach.iter().filter(|&&r| r >= d).count() as u64)
        .collect()
}

/// The pool size and [`Graph::theorems_by_depth`] of a finished run,
/// without building the graph: phase 1 reports them for the card, and a
/// graph (surfaces, printed texts, premise statistics) cost it a tenth
/// more CPU on the embedded SET files.
pub fn pool_depths(
    bank: &TermBank,
    store: &ClauseStore,
    ranking: &Ranking,
    cfg: &TasksConfig,
) -> (usize, Vec<u64>) {
    let pool = theorem_pool(bank, store, ranking, cfg);
    let mut seen: Vec<u32> = Vec::new();
    let mut queue = std::collections::VecDeque::new();
    let reach: Vec<u32> = pool
        .iter()
        .map(|t| {
            // Breadth-first over premise edges, as `Graph::distances`.
            seen.clear();
            seen.resize(t.id.index() + 1, u32::MAX);
            seen[t.id.index()] = 0;
            queue.push_back(t.id);
            let mut far = 0;
            while let Some(x) = queue.pop_front() {
                let d = seen[x.index()];
                far = far.max(d);
                for p in store.get(x).premises() {
                    if seen[p.index()] == u32::MAX {
                        seen[p.index()] = d + 1;
                        queue.push_back(p);
                    }
                }
            }
            far
        })
        .collect();
    (pool.len(), depth_counts(&reach))
}

/// How many times `pool_size` of the ranking's entries a [`Graph`]'s pool
/// and [`Graph::more`] are read from together. On ALG-monoid (323,438 records) the theorems a depth-3 graph
/// of 12 clauses can be cut from are 11 of the best 500 candidates and 23
/// of the best 2,000, and no more among the best 100,000.
pub const WIDE_POOL: usize = 8;

/// The theorem candidates of a ranking, best first: score at least
/// `min_score`, distinct up to variants, at most `pool_size` (a [`Graph`]'s
/// pool).
pub fn theorem_pool(
    bank: &TermBank,
    store: &ClauseStore,
    ranking: &Ranking,
    cfg: &TasksConfig,
) -> Vec<Scored> {
    candidates(bank, store, ranking, cfg, cfg.pool_size).0
}

/// The first `n` candidates of a ranking by [`theorem_pool`]'s rules, and
/// how many of the ranking's entries they took.
fn candidates(
    bank: &TermBank,
    store: &ClauseStore,
    ranking: &Ranking,
    cfg: &TasksConfig,
    n: usize,
) -> (Vec<Scored>, usize) {
    let mut seen = HashSet::new();
    let mut taken = Vec::new();
    let mut read = 0;
    for s in &ranking.ranked {
        if taken.len() >= n {
            break;
        }
        read += 1;
        if s.score >= cfg.min_score && seen.insert(canonical_clause(bank, &store.clause(s.id).lits))
        {
            taken.push(s.clone());
        }
    }
    (taken, read)
}

impl Graph {
    /// Wraps a finished run (its bank and store, taken out of the
    /// saturator so the graph can be shared between threads) and keeps the
    /// top of its ranking as the theorem pool.
    pub fn new(
        bank: TermBank,
        store: ClauseStore,
        ranking: Ranking,
        domain: &str,
        name: &str,
        cfg: &TasksConfig,
        consistent: bool,
    ) -> Graph {
        let (pool, read) = candidates(&bank, &store, &ranking, cfg, cfg.pool_size);
        let tail = ranking.ranked[read..]
            .iter()
            .filter(|s| s.score >= cfg.min_score)
            .take(cfg.pool_size.saturating_mul(WIDE_POOL - 1))
            .cloned()
            .collect();
        let active: Vec<ClauseId> = store
            .ids()
            .filter(|&c| store.get(c).state == State::Active && !store.clause(c).is_empty())
            .collect();
        let active_index = active.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let active_surface = active
            .iter()
            .map(|&c| Surface::of(&bank, &store.clause(c).lits))
            .collect();
        let input_surface = store
            .ids()
            .filter(|&c| {
                store.get(c).rule == Rule::Input
                    && store.get(c).state != State::Active
                    && !store.clause(c).is_empty()
            })
            .map(|c| (c, Surface::of(&bank, &store.clause(c).lits)))
            .collect();
        let active_texts = active
            .iter()
            .map(|&c| {
                let lits = &store.clause(c).lits;
                (
                    clause_to_tptp(&bank, lits).into_boxed_str(),
                    canonical_clause(&bank, lits).into_boxed_str(),
                )
            })
            .collect();
        let mut g = Graph {
            bank,
            store,
            domain: domain.to_string(),
            name: name.to_string(),
            pool,
            tail,
            more: Default::default(),
            active,
            active_surface,
            active_texts,
            active_index,
            input_surface,
            reach: Vec::new(),
            premise_stats: Vec::new(),
            consistent,
            rounds: Vec::new(),
            via_lemma: Vec::new(),
            premise_pools: Default::default(),
            premise_keys: Default::default(),
            premise_fits: Default::default(),
            cuttable: Default::default(),
            cuttable_more: Default::default(),
            perturbable: Default::default(),
            swap_weights: Default::default(),
            max_premises: cfg.max_premises,
        };
        let mut stats: Vec<PremiseStats> = Vec::new();
        // A theorem counts at depth d when its P_d(T) holds few enough.
        let fits = |dist: &[(ClauseId, u32)], d: u32| {
            dist.iter()
                .filter(|&&(c, k)| g.is_depth_premise(c, k, d))
                .count()
                <= cfg.max_premises
        };
        let mut reach = Vec::with_capacity(g.pool.len());
        let mut all_dists = Vec::with_capacity(g.pool.len());
        for s in &g.pool {
            let dist = g.distances(s.id);
            let r = dist.iter().map(|p| p.1).max().unwrap_or(0);
            reach.push(r);
            if stats.len() < r as usize {
                stats.resize_with(r as usize, Default::default);
            }
            // P_d(T) as `depth_premises` draws it, for every d it exists at.
            for d in 1..=r {
                let in_premises = |c: ClauseId, k: u32| g.is_depth_premise(c, k, d);
                if !fits(&dist, d) {
                    continue;
                }
                let st = &mut stats[d as usize - 1];
                st.theorems += 1;
                for &(c, k) in dist.iter().filter(|&&(_, k)| k > 0) {
                    let e = st.clauses.entry(c).or_default();
                    e.1 += 1;
                    if in_premises(c, k) {
                        e.0 += 1;
                    }
                }
                // Background axioms listed, and spare (an ancestor axiom
                // not listed): each pair is a possible replacement.
                let (listed, spare): (Vec<_>, Vec<_>) = dist
                    .iter()
                    .filter(|&&(c, k)| k > 0 && g.store.get(c).rule == Rule::Input)
                    .partition(|&&(c, k)| in_premises(c, k));
                for &(a, _) in &listed {
                    for &(b, _) in &spare {
                        *st.swaps.entry((a, b)).or_default() += 1;
                    }
                }
            }
            all_dists.push(dist);
        }
        for st in &mut stats {
            st.clauses.retain(|_, e| e.0 > 0);
        }
        // Plain pairs (a, b): theorems listing a (not an axiom) that b, a
        // clause some theorem lists, is not an ancestor of.
        for (dist, &r) in all_dists.iter().zip(&reach) {
            let ancestors: HashSet<ClauseId> = dist.iter().map(|p| p.0).collect();
            for d in 1..=r {
                if !fits(dist, d) {
                    continue;
                }
                let in_premises = |c: ClauseId, k: u32| g.is_depth_premise(c, k, d);
                let st = &mut stats[d as usize - 1];
                let listed: Vec<ClauseId> = dist
                    .iter()
                    .filter(|&&(c, k)| {
                        k > 0 && in_premises(c, k) && g.store.get(c).rule != Rule::Input
                    })
                    .map(|p| p.0)
                    .collect();
                let takers: Vec<ClauseId> = st
                    .clauses
                    .keys()
                    .copied()
                    .filter(|b| !ancestors.contains(b))
                    .collect();
                for &a in &listed {
                    for &b in &takers {
                        *st.swaps.entry((a, b)).or_default() += 1;
                    }
                }
            }
        }
        g.reach = reach;
        g.premise_stats = stats;
        g
    }

    /// The term bank.
    pub fn bank(&self) -> &TermBank {
        &self.bank
    }

    /// The literals of a clause.
    pub fn lits(&self, c: ClauseId) -> &[Literal] {
        &self.store.clause(c).lits
    }

    /// A clause in TPTP syntax.
    pub fn text(&self, c: ClauseId) -> String {
        self.text_ref(c).into_owned()
    }

    /// Canonical form (variants compare equal).
    pub fn canon(&self, c: ClauseId) -> String {
        self.canon_ref(c).into_owned()
    }

    /// [`Graph::text`], borrowed from the cache for active clauses.
    pub fn text_ref(&self, c: ClauseId) -> Cow<'_, str> {
        match self.active_index.get(&c) {
            Some(&i) => Cow::Borrowed(&self.active_texts[i].0),
            None => Cow::Owned(clause_to_tptp(&self.bank, self.lits(c))),
        }
    }

    /// [`Graph::canon`], borrowed from the cache for active clauses.
    pub fn canon_ref(&self, c: ClauseId) -> Cow<'_, str> {
        match self.active_index.get(&c) {
            Some(&i) => Cow::Borrowed(&self.active_texts[i].1),
            None => Cow::Owned(canonical_clause(&self.bank, self.lits(c))),
        }
    }

    /// Distances from `t` over premise edges (breadth-first, first
    /// discovery), as (clause, distance) sorted by clause id.
    pub(in crate::tasks::tptp) fn distances(&self, t: ClauseId) -> Vec<(ClauseId, u32)> {
        let mut dist: std::collections::BTreeMap<ClauseId, u32> = Default::default();
        let mut queue = std::collections::VecDeque::new();
        dist.insert(t, 0);
        queue.push_back(t);
        while let Some(x) = queue.pop_front() {
            let d = dist[&x];
            for p in self.store.get(x).premises() {
                if let std::collections::btree_map::Entry::Vacant(e) = dist.entry(p) {
                    e.insert(d + 1);
                    queue.push_back(p);
                }
            }
        }
        dist.into_iter().collect()
    }

    /// Per pool theorem (same order), a digest of its depth-`d` premises
    /// ([`Graph::depth_premises`], 0 when there are none): theorems with
    /// the same premises mostly share a selection answer. Computed once per
    /// depth.
    pub fn premise_keys(&self, d: u32) -> std::sync::Arc<Vec<u64>> {
        if let Some(k) = self
            .premise_keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&d)
        {
            return k.clone();
        }
        let keys: Vec<u64> = self
            .pool
            .iter()
            .map(|t| {
                self.depth_premises(t.id, d).map_or(0, |mut ps| {
                    use std::hash::{Hash, Hasher};
                    ps.sort_unstable();
                    let mut h = rustc_hash::FxHasher::default();
                    ps.hash(&mut h);
                    h.finish() | 1
                })
            })
            .collect();
        let keys = std::sync::Arc::new(keys);
        self.premise_keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(d, keys.clone());
        keys
    }

    /// Per pool theorem (same order), whether it has depth-`d` premises
    /// ([`Graph::depth_premises`]) and at most `max_premises` of them: the
    /// theorems a level of depth d of entailment or selection can use (the
    /// others are refused `too_many_premises` or `too_shallow` before any
    /// prover call). Computed once per depth.
    pub fn fits_premises(&self, d: u32) -> std::sync::Arc<Vec<bool>> {
        pool_flags(&self.premise_fits, d, || {
            self.pool
                .iter()
                .map(|t| {
                    self.depth_premises(t.id, d)
                        .is_some_and(|ps| ps.len() <= self.max_premises)
                })
                .collect()
        })
    }

    /// Per pool theorem (same order), whether a proof graph of depth `d`
    /// and `nodes` clauses can be cut from it
    /// ([`super::recon::can_cut`]): the theorems reconstruction and
    /// derivation cells draw. Computed once per (depth, clauses), not per
    /// slot (per slot it doubled GEO's reconstruction cells).
    pub fn cuttable(&self, d: u32, nodes: usize) -> std::sync::Arc<Vec<bool>> {
        pool_flags(&self.cuttable, (d, nodes), || {
            super::recon::cuttable(&self.store, self.pool.iter().map(|t| t.id), d, nodes)
        })
    }

    /// The ranking's next candidates after the pool, by the pool's rules
    /// (distinct up to variants from the pool and each other), read from
    /// at most `WIDE_POOL - 1` times `pool_size` further entries the first
    /// time it is asked: reconstruction and derivation cells whose pool
    /// holds too few theorems a graph of their size can be cut from draw
    /// on them ([`Graph::theorem`] numbers them after the pool's).
    pub fn more(&self) -> &[Scored] {
        self.more.get_or_init(|| {
            let key = |t: &Scored| canonical_clause(&self.bank, &self.store.clause(t.id).lits);
            let mut seen: HashSet<String> = self.pool.iter().map(key).collect();
            self.tail
                .iter()
                .filter(|t| seen.insert(key(t)))
                .cloned()
                .collect()
        })
    }

    /// [`Graph::cuttable`] over [`Graph::more`] (same order).
    pub fn cuttable_more(&self, d: u32, nodes: usize) -> std::sync::Arc<Vec<bool>> {
        pool_flags(&self.cuttable_more, (d, nodes), || {
            super::recon::cuttable(&self.store, self.more().iter().map(|t| t.id), d, nodes)
        })
    }

    /// Whether an entailment False row perturbs the depth-`d` premises of
    /// a theorem with up to `k` replacements, per theorem of `set`: over
    /// an evenly spaced sample of at most [`PERTURB_SAMPLE`] of the pool's
    /// theorems with such premises, the necessary condition
    /// [`super::entail::can_perturb`], from which
    /// [`Graph::perturbable_estimate`] estimates how many the pool has;
    /// over every theorem of the pool (false for those with more than
    /// `max_premises` premises), which a short entailment cell draws alone,
    /// or of [`Graph::more`] (same order), which such a cell draws on past
    /// the pool, [`super::entail::perturbs`]. Computed once per (depth,
    /// replacements, set).
    pub fn perturbable(&self, d: u32, k: u32, set: Theorems) -> std::sync::Arc<Vec<bool>> {
        pool_flags(&self.perturbable, (d, k, set), || {
            let weights = self.swap_weights(d, k);
            let test = |t: ClauseId| super::entail::perturbs(self, t, d, k, &weights);
            match set {
                Theorems::More => self.more().iter().map(|t| test(t.id)).collect(),
                Theorems::Pool => {
                    let fits = self.fits_premises(d);
                    self.pool
                        .iter()
                        .zip(fits.iter())
                        .map(|(t, &f)| f && test(t.id))
                        .collect()
                }
                Theorems::Sample => {
                    let fits = self.fits_premises(d);
                    let usable: Vec<ClauseId> = self
                        .pool
                        .iter()
                        .zip(fits.iter())
                        .filter(|&(_, &f)| f)
                        .map(|(t, _)| t.id)
                        .collect();
                    let step = usable.len().div_ceil(PERTURB_SAMPLE).max(1);
                    usable
                        .into_iter()
                        .step_by(step)
                        .map(|t| super::entail::can_perturb(self, t, d, k, &weights))
                        .collect()
                }
            }
        })
    }

    /// How many of the pool's theorems with at most `max_premises` premises
    /// at depth `d` pass the necessary condition of a False row perturbing
    /// them, estimated from a sample ([`Graph::perturbable`]): the share of
    /// the sample times their number. Exact when the pool has at most
    /// [`PERTURB_SAMPLE`] such theorems. The full test on the sample made
    /// FLD level 3 a short cell, and its wider draws tripled its CPU for
    /// the same 50 rows.
    pub fn perturbable_estimate(&self, d: u32, k: u32) -> f64 {
        let sample = self.perturbable(d, k, Theorems::Sample);
        if sample.is_empty() {
            return 0.0;
        }
        let fitting = self.fits_premises(d).iter().filter(|&&f| f).count();
        let able = sample.iter().filter(|&&f| f).count();
        able as f64 / sample.len() as f64 * fitting as f64
    }

    /// Theorem candidate `i`: the pool's, then [`Graph::more`]'s.
    pub fn theorem(&self, i: usize) -> &Scored {
        self.pool
            .get(i)
            .unwrap_or_else(|| &self.more()[i - self.pool.len()])
    }

    /// The depth-d premises P_d(T): ancestors at exactly distance d, plus
    /// input clauses reached at a smaller distance; `None` when no ancestor
    /// lies at distance d. P_d(T) ⊨ T because every non-input clause closer
    /// than d has all its premises at distance ≤ d (induction on clause id).
    pub fn depth_premises(&self, t: ClauseId, d: u32) -> Option<Vec<ClauseId>> {
        let dist = self.distances(t);
        if !dist.iter().any(|&(_, k)| k == d) {
            return None;
        }
        Some(
            dist.into_iter()
                .filter(|&(c, k)| self.is_depth_premise(c, k, d))
                .map(|(c, _)| c)
                .collect(),
        )
    }

    /// Whether an ancestor `c` at distance `k` of a theorem belongs to its
    /// P_d(T): at exactly distance `d`, or an input clause reached sooner.
    pub(in crate::tasks::tptp) fn is_depth_premise(&self, c: ClauseId, k: u32, d: u32) -> bool {
        k == d || (k < d && self.store.get(c).rule == Rule::Input)
    }

    /// Every clause that is a depth-d premise ([`Graph::depth_premises`])
    /// of a theorem of the pool with at most `limit` of them, one per
    /// variant class, in clause-id order, each with the number of distinct
    /// premise sets of such theorems it belongs to (its popularity: a
    /// cell's rows come from distinct answers far more evenly than from
    /// theorems, since it takes only so many rows of one answer); computed once
    /// per depth and limit. These are the clauses a level of depth d whose
    /// answers hold at most `limit` clauses shows as premises (a theorem
    /// with more rarely makes a row of that level: at depth 1 its
    /// premises are all needed, and its clauses, counted, made FLD's
    /// distractors the clauses that level's rows seldom had as premises):
    /// drawn as selection distractors about as often as they are premises,
    /// a clause's text says nothing about its label.
    pub fn depth_premise_pool(&self, d: u32, limit: usize) -> std::sync::Arc<Vec<(ClauseId, u32)>> {
        self.counted_premise_pool(d, limit).1
    }

    /// [`Graph::depth_premise_pool`] with the number of distinct premise
    /// sets its popularities count over (of the pool theorems with at most
    /// `limit` depth-d premises).
    pub fn counted_premise_pool(
        &self,
        d: u32,
        limit: usize,
    ) -> (u32, std::sync::Arc<Vec<(ClauseId, u32)>>) {
        let mut cache = self.premise_pools.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache.get(&(d, limit)) {
            return p.clone();
        }
        let mut theorems = 0u32;
        // Premise sets (up to variants) already counted: many theorems of
        // a level share one (TOP level 3: 355 theorems, 195 sets), and a
        // cell takes only so many rows of one answer (`max_answer_share`).
        let mut sets_seen: std::collections::HashSet<Vec<String>> = Default::default();
        // Per variant class: its first clause id and its popularity.
        let mut classes: std::collections::BTreeMap<String, (ClauseId, u32)> = Default::default();
        for (s, &reach) in self.pool.iter().zip(&self.reach) {
            if reach < d {
                continue;
            }
            let Some(ps) = self.depth_premises(s.id, d) else {
                continue;
            };
            if ps.len() > limit {
                continue;
            }
            let keys: std::collections::BTreeMap<String, ClauseId> = ps
                .into_iter()
                .filter(|&c| !self.store.clause(c).is_empty())
                .map(|c| (self.canon(c), c))
                .collect();
            if !sets_seen.insert(keys.keys().cloned().collect::<Vec<String>>()) {
                continue;
            }
            theorems += 1;
            for (key, c) in keys {
                let e = classes.entry(key).or_insert((c, 0));
                e.0 = e.0.min(c);
                e.1 += 1;
            }
        }
        let mut pool: Vec<(ClauseId, u32)> = classes.into_values().collect();
        pool.sort_unstable();
        let pool = (theorems, std::sync::Arc::new(pool));
        cache.insert((d, limit), pool.clone());
        pool
    }

    /// The context axioms A(T): the input clauses among T's ancestors.
    pub fn context_axioms(&self, t: ClauseId) -> Vec<ClauseId> {
        crate::derivation::Derivation::new(&self.store).leaves(t)
    }

    /// The ids of `t`'s ancestors in the derivation (membership only).
    pub(in crate::tasks::tptp) fn ancestor_set(&self, t: ClauseId) -> AncestorSet {
        AncestorSet(crate::derivation::Derivation::new(&self.store).ancestor_mask(t))
    }

    /// The variant keys (canonical texts) of `t` and of every clause of
    /// `exclude`: a candidate whose key is among them is not drawn.
    pub(in crate::tasks::tptp) fn variant_keys(
        &self,
        t: ClauseId,
        exclude: &[ClauseId],
    ) -> rustc_hash::FxHashSet<String> {
        let mut keys: rustc_hash::FxHashSet<String> =
            exclude.iter().map(|&c| self.canon(c)).collect();
        keys.insert(self.canon(t));
        keys
    }

    /// The printed length of a clause.
    pub fn chars(&self, c: ClauseId) -> usize {
        self.surface(c).chars
    }

    /// The number of distinct variables of a clause.
    pub fn vars(&self, c: ClauseId) -> usize {
        self.surface(c).vars
    }

    /// The symbols of a clause (borrowed from the cache for active ones).
    pub fn symbols_of(&self, c: ClauseId) -> Cow<'_, [SymbolId]> {
        match self.surface(c) {
            Cow::Borrowed(s) => Cow::Borrowed(&s.syms),
            Cow::Owned(s) => Cow::Owned(s.syms),
        }
    }

    /// The deduplication key of an instance: its clauses' canonical forms,
    /// sorted, then the theorem's.
    pub fn instance_key(&self, clauses: &[ClauseId], t: ClauseId) -> String {
        let mut parts: Vec<String> = clauses.iter().map(|&c| self.canon(c)).collect();
        parts.sort();
        format!("{}\n?{}", parts.join("\n"), self.canon(t))
    }

    /// Asks the prover whether `premises` entail `t`.
    pub fn prove(&self, prover: &mut Prover, premises: &[ClauseId], t: ClauseId) -> Outcome {
        let ps: Vec<&[Literal]> = premises.iter().map(|&p| self.lits(p)).collect();
        prover.prove(self.bank(), &ps, self.lits(t))
    }

    /// Asks the prover for a proof of `t` from premises the saturation
    /// derived it from (a superset of its depth-d premises, which entail it:
    /// [`Graph::depth_premises`]). No countermodel exists, so the prover
    /// makes no model search ([`Prover::prove_models_absent`]): one that
    /// cannot succeed was most of an undecided call's work. The verdict is
    /// the one [`Graph::prove`] gives: a proof, or `Unknown` when the
    /// budget does not find it again.
    ///
    /// Selection's deletion pass asks this first and redraws the theorem
    /// when it is `Unknown`: a theorem whose proof the prover does not find
    /// again mostly has subsets it cannot decide either. With the
    /// saturation's own proof ([`Graph::derived_proof`]) in its place, an
    /// ALG and GEO run at 50 rows per cell wrote 9 rows fewer for 3 times
    /// the selection CPU (ALG level 4: 50 -> 516 s), every extra second in
    /// undecided subset calls.
    pub fn prove_derived(
        &self,
        prover: &mut Prover,
        premises: &[ClauseId],
        t: ClauseId,
    ) -> Outcome {
        let ps: Vec<&[Literal]> = premises.iter().map(|&p| self.lits(p)).collect();
        prover.prove_models_absent(self.bank(), &ps, self.lits(t), u32::MAX)
    }

    /// A refutation of `premises` and the negated `t` made of the
    /// saturation's records: every derived ancestor of `t` that reaches
    /// `t` without passing through a premise, each step with its recorded
    /// rule, parents and simplifications (without their positions: the
    /// checker finds them), then the prover's refutation of `t` alone with
    /// its negation, whose input `t` is the derived one. `None` when some
    /// such ancestor is an input clause outside `premises` (the records
    /// then prove `t` from other clauses), when the closing refutation is
    /// not found, or when the independent checker refuses the whole.
    ///
    /// A record simplified more than [`MAX_DERIVED_SIMPS`] times gives no
    /// proof: the checker finds where each step acted by search, and on an
    /// FLD record rewritten six times that took 1.9 s and 450 MB.
    ///
    /// Entailment's True side uses it ([`super::entail`]): the prover's
    /// search for a proof the saturation already made (200 given clauses)
    /// missed 1,829 of 4,053 such calls in an ALG and GEO run at 50 rows
    /// per cell, and each miss redrew the theorem.
    pub fn derived_proof(
        &self,
        prover: &mut Prover,
        premises: &[ClauseId],
        t: ClauseId,
    ) -> Option<Outcome> {
        use crate::certificate::ProofStep;
        use crate::prover::Verdict;
        let given: HashSet<ClauseId> = premises.iter().copied().collect();
        if given.contains(&t) {
            return None;
        }
        // The clauses between the premises and `t`, and the premises they
        // use: walk up from `t`, stopping at premises.
        let mut between: std::collections::BTreeSet<ClauseId> = Default::default();
        let mut used: std::collections::BTreeSet<ClauseId> = Default::default();
        let mut stack = vec![t];
        while let Some(c) = stack.pop() {
            if given.contains(&c) {
                used.insert(c);
                continue;
            }
            if !between.insert(c) {
                continue;
            }
            let r = self.store.get(c);
            if r.rule == Rule::Input || r.simps.len() > MAX_DERIVED_SIMPS {
                return None;
            }
            stack.extend(r.premises());
        }
        // Parents precede children in the store: ids in increasing order
        // are a topological order, premises first.
        let mut number: HashMap<ClauseId, u32> = HashMap::new();
        let mut steps: Vec<ProofStep> = Vec::new();
        for (i, &p) in used.iter().enumerate() {
            let id = i as u32 + 1;
            number.insert(p, id);
            steps.push(ProofStep {
                id,
                clause: self.text(p),
                rule: "input".into(),
                parents: Vec::new(),
                simps: Vec::new(),
                raw: None,
                role: Some("axiom".into()),
                name: Some(format!("premise_{id}")),
            });
        }
        for &c in &between {
            let id = steps.len() as u32 + 1;
            number.insert(c, id);
            steps.push(crate::prover::record_step(
                &self.store,
                self.bank(),
                c,
                id,
                &number,
            ));
        }
        // The last steps: `t` against its negation, as the prover finds
        // them (a few given clauses), `t`'s input step replaced by the
        // derived `t`.
        let tl = self.lits(t);
        // No weight limit: `t` is an input here, whatever its weight.
        let weight = std::mem::replace(&mut prover.limits.max_clause_weight, 0);
        let close = prover.prove_models_absent(self.bank(), &[tl], tl, u32::MAX);
        prover.limits.max_clause_weight = weight;
        let Verdict::Theorem { refutation } = close.verdict else {
            return None;
        };
        let t_step = number[&t];
        let mut next = steps.len() as u32;
        let mut renumber: HashMap<u32, u32> = HashMap::new();
        for step in &refutation.steps {
            if step.rule == "input" && step.role.as_deref() != Some("negated_conjecture") {
                // The derived `t` as the prover printed it: its later steps
                // name `t`'s variables that way (rewrite substitutions).
                steps[t_step as usize - 1].clause = step.clause.clone();
                renumber.insert(step.id, t_step);
                continue;
            }
            next += 1;
            let id = next;
            renumber.insert(step.id, id);
            let mut s = step.clone();
            s.id = id;
            s.parents = step.parents.iter().map(|p| renumber[p]).collect();
            for u in &mut s.simps {
                u.unit = u.unit.map(|p| renumber[&p]);
            }
            steps.push(s);
        }
        let refutation = crate::certificate::Refutation { steps };
        let verdict = Verdict::Theorem { refutation };
        let problem = crate::checker::CheckProblem {
            axioms: premises.iter().map(|&p| self.text(p)).collect(),
            conjecture: Some(self.text(t)),
        };
        let mut budget = crate::checker::Budget::new(prover.check_work);
        if let Err(e) = crate::checker::check_within(&problem, &verdict, &mut budget) {
            tracing::debug!("{}: derived proof of a theorem refused: {e}", self.name);
            return None;
        }
        Some(Outcome {
            verdict,
            stats: close.stats,
        })
    }

    /// The FOF formula input clause `c` was clausified from (`None` for a
    /// clause read as `cnf` or a derived clause).
    pub fn origin(&self, c: ClauseId) -> Option<Origin> {
        let info = self.store.get(c).input.as_ref()?;
        Some(Origin {
            name: info.name.clone(),
            formula: info.formula.clone()?,
        })
    }

    /// Per premise depth d (index d - 1), how many pool theorems have
    /// premises at distance d (P_d(T) exists: the theorems a level of
    /// depth d draws from, [`theorem_order`]); empty for an empty pool.
    pub fn theorems_by_depth(&self) -> Vec<u64> {
        depth_counts(&self.reach)
    }

    /// The graph with the rounds of iterative saturation that made it, so
    /// rows can say which round their theorem comes from.
    pub fn with_rounds(mut self, rounds: &[RoundReport]) -> Graph {
        self.via_lemma = crate::saturation::via_lemma(&self.store, rounds);
        self.rounds = rounds.to_vec();
        self
    }

    /// The measured difficulty features of an instance (its row's
    /// `metadata.difficulty`), from its metadata and certificate and the
    /// graph: `proof_depth` (the theorem's depth: inferences from the
    /// original axioms, through every round), `derivation_size` (inference
    /// records among the theorem's ancestors, itself included),
    /// `premises` (the premises of the task: shown, or the gold answer's
    /// leaves), `clauses_shown` (every clause of the prompt's problem, the
    /// conclusion included), `symbols` (distinct symbols over them),
    /// `certificate_steps` (inference steps in the stored certificate),
    /// `prover_effort` (given clauses the generation prover processed to
    /// certify it), `round` (the saturation round of the theorem) and
    /// `via_lemma` (1 when the theorem is reached only through an earlier
    /// round's lemma). `t` is the instance's theorem, a clause of this
    /// graph; the graph features are 0 for an id outside it.
    pub fn difficulty(&self, t: ClauseId, b: &Built) -> Vec<(&'static str, f64)> {
        let m = &b.metadata;
        let theorem = Some(t).filter(|c| c.index() < self.store.len());
        let texts = |key: &str| -> Vec<&str> {
            m[key]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default()
        };
        let premises = texts("premises");
        let pool = texts("pool");
        let clauses = texts("clauses");
        let n_premises = if premises.is_empty() {
            m["premise_indices"].as_array().map_or(0, |a| a.len())
        } else {
            premises.len()
        };
        let theorem_text = m["theorem"].as_str().unwrap_or("");
        let shown: Vec<&str> = if !clauses.is_empty() {
            clauses
        } else if !pool.is_empty() {
            pool.into_iter().chain([theorem_text]).collect()
        } else {
            premises.into_iter().chain([theorem_text]).collect()
        };
        let symbols: std::collections::BTreeSet<&str> = shown
            .iter()
            .flat_map(|c| crate::tasks::audit::symbols(c))
            .collect();
        let (depth, size, round, via) = match theorem {
            Some(t) => {
                let size = crate::derivation::Derivation::new(&self.store)
                    .ancestors(t)
                    .into_iter()
                    .filter(|&c| self.store.get(c).rule != Rule::Input)
                    .count();
                (
                    self.store.get(t).depth,
                    size,
                    RoundReport::round_of(&self.rounds, t.0),
                    self.via_lemma.get(t.index()).copied().unwrap_or(false),
                )
            }
            None => (0, 0, 1, false),
        };
        vec![
            ("proof_depth", f64::from(depth)),
            ("derivation_size", size as f64),
            ("premises", n_premises as f64),
            ("clauses_shown", shown.len() as f64),
            ("symbols", symbols.len() as f64),
            ("certificate_steps", count_steps(&b.certificate) as f64),
            ("prover_effort", b.prover_processed as f64),
            ("round", f64::from(round)),
            ("via_lemma", f64::from(u8::from(via))),
        ]
    }

    /// The metadata every family shares: the theorem, its interestingness,
    /// the axiom file, the context axioms (with `context_formulas` when
    /// some came from FOF formulas, see [`Background`]).
    pub fn base_metadata(&self, t: &Scored, d: u32, k: u32) -> serde_json::Value {
        let mut meta = serde_json::json!({
            "generator": GENERATOR_VERSION,
            "domain": self.domain,
            "axiom_file": self.name,
            "d": d,
            "k": k,
            "theorem_id": t.id.to_string(),
            "theorem": self.text(t.id),
            "interestingness": {
                "score": t.score,
                "components": t.components,
            },
        });
        Background::of(self, &self.context_axioms(t.id)).store(&mut meta);
        meta
    }
}

/// Inference steps in a certificate: the elements of every `steps` array
/// in it, however deep (refutations, step lists, per-answer proofs).
pub(in crate::tasks::tptp) fn count_steps(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Object(o) => o
            .iter()
            .map(|(k, x)| match (k.as_str(), x) {
                ("steps", serde_json::Value::Array(a)) => {
                    a.len() + a.iter().map(count_steps).sum::<usize>()
                }
                _ => count_steps(x),
            })
            .sum(),
        serde_json::Value::Array(a) => a.iter().map(count_steps).sum(),
        _ => 0,
    }
}

/// `order` with theorems of distinct depth-`d` premises first: each
/// theorem's rank is the number of theorems before it in `order` (same
/// graph) with the same premises ([`Graph::premise_keys`]), and the order
/// is sorted by rank, stably. Selection draws in this order: theorems
/// with the same premises mostly share a minimum answer, and a cell keeps
/// at most `max_answer_share` of its rows per answer, so drawing them
/// again built whole rows only to skip them as repeats (GEO level 3 at 50
/// rows: 146 repeats for 46 rows).
pub fn spread_by_premises(
    graphs: &[Graph],
    order: Vec<(usize, usize)>,
    d: u32,
) -> Vec<(usize, usize)> {
    let keys: Vec<std::sync::Arc<Vec<u64>>> = graphs.iter().map(|g| g.premise_keys(d)).collect();
    let mut seen: std::collections::HashMap<(usize, u64), u32> = Default::default();
    let mut ranked: Vec<(u32, usize, (usize, usize))> = order
        .into_iter()
        .enumerate()
        .map(|(pos, (gi, ti))| {
            let r = seen.entry((gi, keys[gi][ti])).or_insert(0);
            *r += 1;
            (*r, pos, (gi, ti))
        })
        .collect();
    ranked.sort_unstable_by_key(|&(r, pos, _)| (r, pos));
    ranked.into_iter().map(|x| x.2).collect()
}

/// The theorem order of a (family, level) cell of a domain: every pool
/// theorem of every graph of the domain whose premises reach distance
/// `reach` (0: all), as (graph index, pool index), in a fixed seeded
/// permutation. Draw `j` of the cell takes entry `j mod len`, so the first
/// `len` draws get distinct theorems wherever they come from, and a file
/// contributes in proportion to its usable theorems (a file with a handful
/// of them is not asked for as many as a rich one, which would only repeat
/// them).
pub fn theorem_order(
    graphs: &[Graph],
    seed: u64,
    domain: &str,
    cell: &[&str],
    reach: u32,
) -> Vec<(usize, usize)> {
    let mut coords = vec![domain];
    coords.extend_from_slice(cell);
    seeded_order(graphs, seed, &coords, |g| {
        (0..g.pool.len()).filter(|&i| g.reach[i] >= reach).collect()
    })
}

/// Every graph's `usable` theorems (their [`Graph::theorem`] indices), as
/// (graph, index) pairs in the order `seed` and `coords` shuffle them to.
pub(in crate::tasks::tptp) fn seeded_order(
    graphs: &[Graph],
    seed: u64,
    coords: &[&str],
    usable: impl Fn(&Graph) -> Vec<usize>,
) -> Vec<(usize, usize)> {
    let mut order: Vec<(usize, usize)> = graphs
        .iter()
        .enumerate()
        .flat_map(|(gi, g)| usable(g).into_iter().map(move |i| (gi, i)))
        .collect();
    let mut rng = crate::tasks::instance_rng(seed, coords, u64::MAX);
    rand::seq::SliceRandom::shuffle(order.as_mut_slice(), &mut rng);
    order
}

/// The most simplifications a record of [`Graph::derived_proof`] may have:
/// in an entailment run over the five embedded domains at 50 rows per cell,
/// 962 derived proofs whose records had at most 5 checked in 0.3 s in all
/// (at most 0.021 s each); of 68 with more, one took 1.9 s.
const MAX_DERIVED_SIMPS: usize = 5;
