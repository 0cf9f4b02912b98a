//! The given-clause loop, DISCOUNT style (Denzinger, Kronenburg & Schulz,
//! "DISCOUNT – a distributed and learning equational prover", JAR 18, 1997;
//! as in E): only active clauses take part in inferences and backward
//! simplification; a passive clause is simplified when it is selected.
//!
//! One iteration: select a given clause by the weight/age queues, simplify it
//! forward (rewriting, simplify-reflect, tautology, subsumption), use it to
//! simplify the active set backward (subsumption, rewriting; rewritten
//! clauses go back to passive), activate it, generate every inference with
//! the active set, and simplify and queue the conclusions. Every kept clause
//! is recorded in the [`ClauseStore`] with its rule and premises.

use super::active::ActiveSet;
use super::auto::{self, Features};
use super::params::{
    ClauseWeight, DEPTH_PENALTY, LENGTH_PENALTY, Params, QueuePriority, QueueSpec, SymbolWeight,
};
use super::passive::Passive;
use super::rules::demodulation::NfCache;
use super::rules::{Conclusion, Infer, generate_all};
use super::store::{ClauseId, ClauseStore, InputInfo, Inputs, Rule, SimpStep, State};
use crate::logic::{Kbo, Literal, Matcher, Subst, TermBank, TermOrder, normalize_clause};
use hashbrown::HashTable;
use rustc_hash::FxHasher;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

/// How a saturation run ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// No passive clause left, and nothing was dropped: the clause set is
    /// saturated (with the complete default strategy, it is satisfiable).
    Saturated,
    /// A work limit was reached (or clauses were dropped by a weight limit).
    ResourceOut,
    /// The empty clause was derived: the input is unsatisfiable.
    Unsatisfiable,
}

impl Status {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Saturated => "Saturated",
            Status::ResourceOut => "ResourceOut",
            Status::Unsatisfiable => "Unsatisfiable",
        }
    }
}

/// Counters of a run. `processed` and `generated` follow E's definitions:
/// passive entries selected (with `requeue_duplicates`, a clause derived
/// several times has several entries, as in E's unprocessed set), and
/// clauses produced by generating inferences.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Passive entries selected (including those then found redundant and
    /// the `redundant_copies`).
    pub processed: u64,
    /// Given clauses that survived forward simplification and became
    /// active (E's "remaining for further processing").
    pub activated: u64,
    /// Conclusions of generating inferences.
    pub generated: u64,
    /// Records in the clause store (inputs, kept conclusions, simplified clauses).
    pub kept: u64,
    /// Conclusions deleted as tautologies.
    pub tautologies: u64,
    /// Conclusions deleted as duplicates of a kept clause.
    pub duplicates: u64,
    /// Selections of a further queue entry of a clause derived more than
    /// once, made after its first entry was processed (counted in
    /// `processed`, as E counts a selected copy it finds subsumed).
    #[serde(default)]
    pub redundant_copies: u64,
    /// Given clauses deleted by forward subsumption.
    pub forward_subsumed: u64,
    /// Active clauses deleted by backward subsumption.
    pub backward_subsumed: u64,
    /// Active clauses rewritten by a new unit equation.
    pub backward_rewritten: u64,
    /// Rewrite steps applied.
    pub rewrites: u64,
    /// Literals deleted by simplify-reflect.
    pub reflect_deletions: u64,
    /// Literals deleted by subsumption resolution.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub subsumption_cuts: u64,
    /// Equational definitions unfolded before the search
    /// (`Params::unfold_definitions`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub definitions_unfolded: u64,
    /// Clauses (conclusions and inputs) dropped for exceeding the weight limit.
    pub too_heavy: u64,
    /// Clauses (conclusions and inputs) dropped for exceeding the literal
    /// limit (`max_clause_literals`).
    #[serde(default)]
    pub too_long: u64,
    /// Given clauses whose inferences were cut short by the per-given work
    /// budget (`max_generated_literals_per_given`).
    #[serde(default)]
    pub budget_cut: u64,
    /// Conclusions of resolution.
    pub resolutions: u64,
    /// Conclusions of superposition.
    pub superpositions: u64,
    /// Conclusions of factoring and equality factoring.
    pub factorings: u64,
    /// Conclusions of equality resolution.
    pub equality_resolutions: u64,
}

/// A saturation run in progress.
pub struct Saturator {
    /// The term bank.
    pub bank: TermBank,
    /// The term ordering.
    pub kbo: Kbo,
    /// Every kept clause and its derivation.
    pub store: ClauseStore,
    /// The active set.
    pub active: ActiveSet,
    /// Parameters.
    pub params: Params,
    /// Counters.
    pub stats: Stats,
    /// A soft CPU-time limit (`--cpu-limit`): the run ends `ResourceOut`
    /// at the first given-clause selection after it. The one limit that is
    /// not reproducible; `None` (the default) for every dataset run.
    pub deadline: Option<crate::deadline::Deadline>,
    /// Set when the run ended because of [`Saturator::deadline`].
    pub timed_out: bool,
    passive: Passive,
    /// Clauses still in the passive set (queued and never selected): when
    /// none is left, the entries still queued are all further copies.
    passive_live: u64,
    /// Kept clauses by their literal hash (stored, so growing the table
    /// rehashes no clause).
    seen: HashTable<(u64, ClauseId)>,
    subst: Subst,
    matcher: Matcher,
    /// Scratch substitution for the rewriter's ordering checks.
    inst: Subst,
    /// Demodulation work so far (see `Limits::max_rewrite_attempts`).
    rewrite_work: u64,
    conclusions: Vec<Conclusion>,
    empty: Option<ClauseId>,
    /// Per record: descends from a negated conjecture input.
    goal: Vec<bool>,
    /// Per symbol: occurs in a `negated_conjecture` input (empty when there
    /// is none); read by [`ClauseWeight::ConjectureRelative`].
    conjecture_symbols: Vec<bool>,
    incomplete: bool,
    /// Unfolded inputs kept over the weight limit
    /// ([`Saturator::admit_over_weight`]): selected, they are simplified
    /// and dropped when still too heavy, so they never generate.
    over_weight: Vec<ClauseId>,
    nf_cache: NfCache,
    /// The oriented literals of the conclusion being kept, with their
    /// sides' order, so rewriting and normalisation do not compare again.
    known: Vec<(Literal, TermOrder)>,
    scratch: bumpalo::Bump,
}

/// Serde skip test: zero counters of optional features are left out, so
/// the statistics of runs without them read as before.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A clause's weight, saturating instead of wrapping (terms that double at
/// each step reach any weight).
fn saturating_weight(bank: &TermBank, lits: &[Literal]) -> u32 {
    lits.iter()
        .map(|l| bank.weight(l.lhs).saturating_add(bank.weight(l.rhs)))
        .fold(0u32, u32::saturating_add)
}

/// Conjecture-relative weight of a term: 1 per occurrence of a symbol in
/// `conj`, 2 per other symbol or variable occurrence.
fn relative_weight(bank: &TermBank, t: crate::logic::TermId, conj: &[bool]) -> u32 {
    match bank.head(t) {
        crate::logic::Head::Var(_) => 2,
        crate::logic::Head::Sym(f) => {
            let own = if conj.get(f.index()).copied().unwrap_or(false) {
                1
            } else {
                2
            };
            bank.args(t)
                .iter()
                .map(|&a| relative_weight(bank, a, conj))
                .fold(own, u32::saturating_add)
        }
    }
}

/// [`ClauseWeight::Refined`] in halves: each literal weighs twice its
/// lighter side plus three times its heavier one (conjecture-relative
/// symbol weights, or symbol count when `conj` is empty), and the
/// heaviest literal counts 3/2 as much as the others.
fn refined_weight(bank: &TermBank, lits: &[Literal], conj: &[bool]) -> u32 {
    let side = |t| {
        if conj.is_empty() {
            bank.weight(t)
        } else {
            relative_weight(bank, t, conj)
        }
    };
    let mut sum = 0u32;
    let mut heaviest = 0u32;
    for l in lits {
        let (a, b) = (side(l.lhs), side(l.rhs));
        let w = a
            .min(b)
            .saturating_mul(2)
            .saturating_add(a.max(b).saturating_mul(3));
        sum = sum.saturating_add(w.saturating_mul(2));
        heaviest = heaviest.max(w);
    }
    sum.saturating_add(heaviest)
}

/// The passive queues `params` asks for: a mix, or the weight, age and
/// goal queues.
fn new_passive(params: &Params) -> Passive {
    if params.queues.is_empty() {
        Passive::with_goal_queue(
            params.weight_picks_per_age_pick,
            params.goal_picks_per_age_pick,
        )
    } else {
        let ratios: Vec<u32> = params.queues.iter().map(|q| q.ratio).collect();
        Passive::with_mix(&ratios)
    }
}

/// Keys past this are clamped (the priority class sits above it).
const MIX_WEIGHT_CAP: u64 = (1 << 40) - 1;

/// A clause's key in a mix queue: its priority class (0 first) above its
/// weight; 0 for a first-in-first-out queue (the entry order breaks ties).
fn mix_key(bank: &TermBank, lits: &[Literal], goal: bool, q: &QueueSpec, conj: &[bool]) -> u64 {
    let Some(w) = &q.weight else { return 0 };
    let class = match q.priority {
        QueuePriority::None => 0,
        QueuePriority::Goal => u64::from(!goal),
        QueuePriority::NonGoal => u64::from(!lits.iter().any(|l| l.pos)),
    };
    (class << 40) | symbol_weight(bank, lits, w, conj).min(MIX_WEIGHT_CAP)
}

/// [`SymbolWeight`] of a clause, in hundredths.
fn symbol_weight(bank: &TermBank, lits: &[Literal], w: &SymbolWeight, conj: &[bool]) -> u64 {
    fn term(bank: &TermBank, t: crate::logic::TermId, w: &SymbolWeight, conj: &[bool]) -> u64 {
        match bank.head(t) {
            crate::logic::Head::Var(_) => u64::from(w.variable) * 100,
            crate::logic::Head::Sym(f) => {
                let pct = if conj.get(f.index()).copied().unwrap_or(false) {
                    w.conjecture_percent
                } else {
                    100
                };
                bank.args(t)
                    .iter()
                    .map(|&a| term(bank, a, w, conj))
                    .fold(u64::from(w.function) * u64::from(pct), u64::saturating_add)
            }
        }
    }
    let mut sum = 0u64;
    let mut heaviest = 0u64;
    for l in lits {
        let a = term(bank, l.lhs, w, conj);
        let b = if l.is_equational(bank) {
            term(bank, l.rhs, w, conj)
        } else {
            0
        };
        let mut lw = a
            .max(b)
            .saturating_mul(u64::from(w.max_term_percent))
            .saturating_add(a.min(b).saturating_mul(100))
            / 100;
        if l.pos {
            lw = lw.saturating_mul(u64::from(w.positive_percent)) / 100;
        }
        sum = sum.saturating_add(lw);
        heaviest = heaviest.max(lw);
    }
    let extra = heaviest.saturating_mul(u64::from(w.max_literal_percent)) / 100;
    sum.saturating_add(extra).saturating_sub(heaviest)
}

/// Depth of a term: 0 for variables and constants.
fn depth(bank: &TermBank, t: crate::logic::TermId) -> u32 {
    bank.args(t)
        .iter()
        .map(|&a| depth(bank, a) + 1)
        .max()
        .unwrap_or(0)
}

fn clause_hash(lits: &[Literal]) -> u64 {
    let mut h = FxHasher::default();
    lits.hash(&mut h);
    h.finish()
}

/// Symbol occurrence counts over literal lists, for the precedence.
pub fn symbol_frequencies<'a>(
    bank: &TermBank,
    clauses: impl Iterator<Item = &'a [Literal]>,
) -> Vec<u64> {
    let mut freq = vec![0u64; bank.sig.len()];
    fn walk(bank: &TermBank, t: crate::logic::TermId, freq: &mut [u64]) {
        if let crate::logic::Head::Sym(s) = bank.head(t) {
            freq[s.index()] += 1;
            for i in 0..bank.arity(t) {
                walk(bank, bank.arg(t, i), freq);
            }
        }
    }
    for c in clauses {
        for l in c {
            walk(bank, l.lhs, &mut freq);
            walk(bank, l.rhs, &mut freq);
        }
    }
    freq
}

impl Saturator {
    /// A run over `bank` with ordering `kbo`. Add input with [`Self::add_input`].
    pub fn new(bank: TermBank, kbo: Kbo, params: Params) -> Self {
        let passive = new_passive(&params);
        Saturator {
            bank,
            kbo,
            store: ClauseStore::new(),
            active: ActiveSet::new(),
            params,
            stats: Stats::default(),
            passive,
            passive_live: 0,
            seen: HashTable::new(),
            subst: Subst::new(),
            matcher: Matcher::new(),
            inst: Subst::new(),
            rewrite_work: 0,
            conclusions: Vec::new(),
            empty: None,
            goal: Vec::new(),
            conjecture_symbols: Vec::new(),
            incomplete: false,
            over_weight: Vec::new(),
            deadline: None,
            timed_out: false,
            nf_cache: NfCache::default(),
            known: Vec::new(),
            scratch: bumpalo::Bump::new(),
        }
    }

    /// The run's terms and derivation, for writing once the search is over:
    /// the indexes, queues and caches are dropped here, so that what is
    /// allocated for the writing does not come on top of them.
    pub fn into_derivation(self) -> (TermBank, ClauseStore) {
        (self.bank, self.store)
    }

    /// A run over input clauses, with the precedence chosen from their symbol
    /// frequencies.
    ///
    /// With `params.auto`, the literal selection and clause weight are
    /// chosen from the inputs' [`Features`] ([`auto::choose`]).
    pub fn from_inputs(bank: TermBank, inputs: Inputs, mut params: Params) -> Self {
        let freq = symbol_frequencies(&bank, inputs.iter().map(|(l, _)| l.as_slice()));
        let kbo = Kbo::by_frequency(&bank, &freq);
        let is_goal = |info: &InputInfo| info.role == "negated_conjecture";
        if params.auto_or(false) {
            let f = Features::of(
                &bank,
                inputs.iter().map(|(l, i)| (l.as_slice(), is_goal(i))),
            );
            let strategy = auto::choose(&f);
            params.selection = strategy.selection;
            params.clause_weight = strategy.clause_weight;
        }
        let conjecture_symbols = if inputs.iter().any(|(_, i)| is_goal(i)) {
            let goal_freq = symbol_frequencies(
                &bank,
                inputs
                    .iter()
                    .filter(|(_, i)| is_goal(i))
                    .map(|(l, _)| l.as_slice()),
            );
            goal_freq.iter().map(|&n| n > 0).collect()
        } else {
            Vec::new()
        };
        let unfold = params.unfold_definitions;
        let mut s = Saturator::new(bank, kbo, params);
        s.conjecture_symbols = conjecture_symbols;
        match unfold {
            Some(limit) => s.add_inputs_unfolding(inputs, limit),
            None => {
                for (lits, info) in inputs {
                    s.add_input(lits, info);
                }
            }
        }
        s
    }

    /// Adds an input clause. Tautologies and duplicates are recorded (so the
    /// DAG lists every input) but deleted at once.
    ///
    /// An input over the weight or literal limit is recorded and deleted
    /// too; the run is then incomplete (it can end `Unsatisfiable` or
    /// `ResourceOut`, never `Saturated`).
    pub fn add_input(&mut self, lits: Vec<Literal>, info: InputInfo) -> ClauseId {
        let id = self.record_input(lits, info);
        self.admit(id);
        id
    }

    /// Records an input clause (normalised) without queueing it.
    fn record_input(&mut self, lits: Vec<Literal>, info: InputInfo) -> ClauseId {
        let clause = normalize_clause(&mut self.bank, &self.kbo, lits);
        let goal = info.role == "negated_conjecture";
        let id = self
            .store
            .push(clause, Rule::Input, SmallVec::new(), Vec::new(), Some(info));
        self.goal.push(goal);
        self.stats.kept += 1;
        id
    }

    /// Queues a recorded clause, or marks it deleted when it is over the
    /// limits, a tautology or a duplicate of one queued before.
    fn admit(&mut self, id: ClauseId) {
        self.admit_checked(id, true);
    }

    /// [`Saturator::admit`] without the weight limit (the literal limit
    /// still applies).
    fn admit_over_weight(&mut self, id: ClauseId) {
        self.admit_checked(id, false);
        if self.store.get(id).state == State::Passive
            && self
                .params
                .max_clause_weight
                .is_some_and(|m| saturating_weight(&self.bank, &self.store.clause(id).lits) > m)
        {
            self.over_weight.push(id);
        }
    }

    fn admit_checked(&mut self, id: ClauseId, weight_limit: bool) {
        let clause = self.store.clause(id).clone();
        let over = if weight_limit {
            self.over_limits(&clause.lits)
        } else {
            self.over_literal_limit(&clause.lits)
        };
        if over || self.is_tautology(&clause) || self.find_duplicate(&clause.lits).is_some() {
            self.store.set_state(id, State::Deleted);
            return;
        }
        let weight = self.clause_weight(&clause.lits);
        self.remember(id);
        self.enqueue(id, weight, self.goal[id.index()]);
        self.passive_live += 1;
        if clause.is_empty() && self.empty.is_none() {
            self.empty = Some(id);
        }
    }

    /// Starts another round of iterative saturation on the same bank and
    /// store: the loop state (active set and its indexes, passive queues,
    /// duplicate table, normal-form cache) is emptied, and `carried` (the
    /// input records, then the lemmas promoted from the rounds so far, in
    /// that order) are queued again as they are, under their own ids. So
    /// every clause of the new round descends, through the carried records,
    /// from the original inputs, and record depths keep counting inferences
    /// from them. Records that are not carried keep their state as the
    /// rounds before left it (an earlier round's theorems stay `Active` in
    /// the store, outside the new active set). A carried clause that is a
    /// tautology, a duplicate of one queued before it, or over the weight or
    /// literal limits is not queued.
    ///
    /// The limits keep counting over the whole run; a round's own budget is
    /// the caller's to set (`params.limits`) before [`Saturator::run`].
    pub fn next_round(&mut self, carried: &[ClauseId]) {
        self.active = ActiveSet::new();
        self.passive = new_passive(&self.params);
        self.passive_live = 0;
        self.seen = HashTable::new();
        self.nf_cache.clear();
        self.conclusions.clear();
        self.incomplete = false;
        for &id in carried {
            let clause = self.store.clause(id).clone();
            if self.over_limits(&clause.lits)
                || self.is_tautology(&clause)
                || self.find_duplicate(&clause.lits).is_some()
            {
                continue;
            }
            if clause.is_empty() && self.empty.is_none() {
                self.empty = Some(id);
            }
            self.store.set_state(id, State::Passive);
            self.remember(id);
            let goal = self.goal[id.index()];
            let weight = self.clause_weight(&clause.lits);
            self.enqueue(id, weight, goal);
            self.passive_live += 1;
        }
    }

    /// True (and counted, and the run marked incomplete) if a non-empty
    /// clause exceeds `max_clause_weight` or `max_clause_literals`.
    fn over_limits(&mut self, lits: &[Literal]) -> bool {
        if lits.is_empty() {
            return false;
        }
        if self.over_literal_limit(lits) {
            return true;
        }
        if self
            .params
            .max_clause_weight
            .is_some_and(|max| saturating_weight(&self.bank, lits) > max)
        {
            self.stats.too_heavy += 1;
            self.incomplete = true;
            return true;
        }
        false
    }

    /// True (and counted, and the run marked incomplete) if the clause has
    /// more than `max_clause_literals` literals.
    fn over_literal_limit(&mut self, lits: &[Literal]) -> bool {
        if self
            .params
            .max_clause_literals
            .is_some_and(|max| lits.len() > max as usize)
        {
            self.stats.too_long += 1;
            self.incomplete = true;
            return true;
        }
        false
    }

    /// True if the clause descends from a `negated_conjecture` input.
    pub fn is_goal(&self, id: ClauseId) -> bool {
        self.goal[id.index()]
    }

    fn derives_from_goal(&self, parents: &[ClauseId], simps: &[SimpStep]) -> bool {
        parents.iter().any(|p| self.goal[p.index()])
            || simps
                .iter()
                .filter_map(|s| s.partner())
                .any(|p| self.goal[p.index()])
    }

    /// The clause weight function of `params.clause_weight` on a clause.
    fn clause_weight(&self, lits: &[Literal]) -> u32 {
        match self.params.clause_weight {
            ClauseWeight::Symbols => saturating_weight(&self.bank, lits),
            ClauseWeight::ConjectureRelative if self.conjecture_symbols.is_empty() => {
                saturating_weight(&self.bank, lits)
            }
            ClauseWeight::ConjectureRelative => lits
                .iter()
                .map(|l| {
                    relative_weight(&self.bank, l.lhs, &self.conjecture_symbols).saturating_add(
                        relative_weight(&self.bank, l.rhs, &self.conjecture_symbols),
                    )
                })
                .fold(0u32, u32::saturating_add),
            ClauseWeight::DepthLength => {
                let depth = lits
                    .iter()
                    .map(|l| depth(&self.bank, l.lhs).max(depth(&self.bank, l.rhs)))
                    .max()
                    .unwrap_or(0);
                let extra = lits.len().saturating_sub(1) as u32;
                saturating_weight(&self.bank, lits)
                    .saturating_add(DEPTH_PENALTY.saturating_mul(depth))
                    .saturating_add(LENGTH_PENALTY.saturating_mul(extra))
            }
            ClauseWeight::Refined => refined_weight(&self.bank, lits, &self.conjecture_symbols),
        }
    }

    /// Queues an entry for the kept clause `id` (whose `clause_weight` is
    /// `weight`): in the weight, age and goal queues, or with one key per
    /// queue of the mix (`params.queues`).
    pub(super) fn enqueue(&mut self, id: ClauseId, weight: u32, goal: bool) {
        if self.passive.is_mix() {
            let lits = &self.store.clause(id).lits;
            let keys: SmallVec<[u64; 8]> = self
                .params
                .queues
                .iter()
                .map(|q| mix_key(&self.bank, lits, goal, q, &self.conjecture_symbols))
                .collect();
            self.passive.push_keyed(id, &keys);
        } else {
            let weight = self.queue_weight(weight, goal);
            self.passive.push_entry(id, weight, goal);
        }
    }

    /// The passive-queue weight: clauses outside the goal's descendants are
    /// made heavier by `non_goal_weight_factor` (goal-directed search).
    fn queue_weight(&self, weight: u32, goal: bool) -> u32 {
        if goal {
            weight
        } else {
            weight.saturating_mul(self.params.non_goal_weight_factor.max(1))
        }
    }

    /// The empty clause, if one was derived.
    pub fn empty_clause(&self) -> Option<ClauseId> {
        self.empty
    }

    fn find_duplicate(&self, lits: &[Literal]) -> Option<ClauseId> {
        let h = clause_hash(lits);
        self.seen
            .find(h, |&(hc, id)| {
                hc == h && &*self.store.clause(id).lits == lits
            })
            .map(|&(_, id)| id)
    }

    fn remember(&mut self, id: ClauseId) {
        let h = clause_hash(&self.store.clause(id).lits);
        self.seen.insert_unique(h, (h, id), |&(hc, _)| hc);
    }

    fn limit_reached(&self) -> bool {
        let l = &self.params.limits;
        let over = |lim: Option<u64>, v: u64| lim.is_some_and(|m| v >= m);
        over(l.max_processed, self.stats.processed)
            || over(l.max_generated, self.stats.generated)
            || over(l.max_kept, self.stats.kept)
            || over(l.max_terms, self.bank.len() as u64)
            || over(l.max_rewrite_attempts, self.rewrite_work)
    }

    /// Runs until the empty clause, saturation or a work limit. `progress` is
    /// called after each given clause.
    pub fn run(&mut self, progress: &mut dyn FnMut(&Stats)) -> Status {
        loop {
            if let Some(s) = self.step() {
                return s;
            }
            progress(&self.stats);
        }
    }

    /// One given-clause iteration; `Some(status)` when the run is over.
    pub fn step(&mut self) -> Option<Status> {
        if self.empty.is_some() {
            return Some(Status::Unsatisfiable);
        }
        // Only further copies left (or nothing): the set is saturated, and
        // selecting the copies would change nothing but the count.
        if self.passive_live == 0 {
            return Some(if self.incomplete {
                Status::ResourceOut
            } else {
                Status::Saturated
            });
        }
        if self.limit_reached() {
            return Some(Status::ResourceOut);
        }
        if self.deadline.is_some_and(|d| d.passed()) {
            self.timed_out = true;
            return Some(Status::ResourceOut);
        }
        let mut given = self.passive.pop().expect("a live clause is queued");
        self.stats.processed += 1;
        if self.store.get(given).state != State::Passive {
            // A further copy of a clause derived more than once: redundant
            // as soon as it is selected (its first copy was processed).
            self.stats.redundant_copies += 1;
            return None;
        }
        self.passive_live -= 1;

        // Forward simplification.
        let heavy = !self.over_weight.is_empty() && self.over_weight.contains(&given);
        match self.simplify_given(given) {
            None => return None,
            Some(g) => given = g,
        }
        // An unfolded input kept over the weight limit takes part only as
        // what its simplification leaves under the limit.
        if heavy && self.over_limits(&self.store.clause(given).lits.clone()) {
            self.store.set_state(given, State::Deleted);
            return None;
        }
        let clause = self.store.clause(given).clone();
        if clause.is_empty() {
            self.store.set_state(given, State::Active);
            self.empty = Some(given);
            return Some(Status::Unsatisfiable);
        }
        if self.forward_subsumed(&clause) {
            self.stats.forward_subsumed += 1;
            self.store.set_state(given, State::Deleted);
            return None;
        }

        // Backward subsumption, then activation, then backward rewriting.
        self.backward_subsume(given, &clause);
        self.active
            .insert(&self.bank, &self.kbo, self.params.selection, given, &clause);
        self.store.set_state(given, State::Active);
        self.stats.activated += 1;
        if clause.is_unit() && clause.lits[0].pos && clause.lits[0].is_equational(&self.bank) {
            self.backward_rewrite(given, clause.lits[0]);
        }
        if !self.active.contains(given) {
            return None;
        }

        // Generating inferences.
        let mut out = std::mem::take(&mut self.conclusions);
        {
            let mut cx = Infer {
                bank: &mut self.bank,
                kbo: &self.kbo,
                store: &self.store,
                active: &self.active,
                params: &self.params,
                subst: &mut self.subst,
                out: &mut out,
                bump: &self.scratch,
                budget: self.params.limits.max_generated_literals_per_given,
            };
            generate_all(&mut cx, given);
            if cx.exhausted() {
                // Inferences of this given clause were skipped: incomplete.
                self.stats.budget_cut += 1;
                self.incomplete = true;
            }
        }
        self.scratch.reset();
        for c in out.drain(..) {
            self.stats.generated += 1;
            match c.rule {
                Rule::Resolution => self.stats.resolutions += 1,
                Rule::Superposition => self.stats.superpositions += 1,
                Rule::Factoring | Rule::EqualityFactoring => self.stats.factorings += 1,
                Rule::EqualityResolution => self.stats.equality_resolutions += 1,
                Rule::Input | Rule::Simplification => {}
            }
            self.keep_conclusion(c.lits, c.rule, c.parents, Vec::new(), true, None);
            if self.empty.is_some() {
                break;
            }
        }
        out.clear();
        self.conclusions = out;
        None
    }
}

mod simplify;
#[cfg(test)]
mod tests;
mod unfold;
