//! Selection's distractors: the theorem's dropped premises, the level's
//! popular premises, premise-pool clauses matched in profile, twins and
//! graph axioms, each admitted only when it stands in for no premise (a
//! countermodel of M without that premise satisfies it, or a quick prover
//! call finds one).

use super::super::{Graph, twin};
use crate::checker;
use crate::logic::{Literal, TermBank};
use crate::prover::mace::extend::{Extended, Extender};
use crate::prover::{Evidence, FiniteModel, Prover, Verdict};
use crate::saturation::ClauseId;
use rand::Rng;
use rand::seq::SliceRandom;
use std::collections::HashSet;

/// How much more a foreign symbol (one the theorem lacks) weighs in
/// matching a distractor to a premise than in [`Graph::take_matched`]: a
/// distractor one foreign symbol away but of the same length was otherwise
/// preferred to one with the theorem's symbols only but a little longer.
pub(super) const FOREIGN_WEIGHT: f64 = 1.5;

/// Premises of the minimum answer allowed without a distractor of their
/// shape in the pool ([`unmatched`]).
pub(super) const MAX_UNMATCHED: usize = 1;

/// How many pool clauses with `premise` set have no look-alike among the
/// others: a pool clause with the same number of literals, the same number
/// of symbols the theorem lacks, and a printed length within a quarter (at
/// least 3 characters). On the small embedded theories the premises of a
/// deep theorem include base facts such as `is_open(whole_space)` that
/// neither a twin nor any axiom nor derived clause resembles (every clause
/// of that shape is another premise); a pool with two or more of them let
/// "short and without foreign symbols" pick the answer (TOP level 4:
/// +13.7 points over the majority). One is let through, since a single
/// clause that stands out tells little when the answer has several.
pub(super) fn unmatched(
    bank: &TermBank,
    pool: &[Vec<Literal>],
    texts: &[String],
    premise: &[bool],
    theorem: &[Literal],
) -> usize {
    unmatched_by_class(bank, pool, texts, premise, theorem)
        .values()
        .sum()
}

/// The premises [`unmatched`] counts, per (literal count, foreign-symbol
/// count): a clause can look like premises of one such class only.
fn unmatched_by_class(
    bank: &TermBank,
    pool: &[Vec<Literal>],
    texts: &[String],
    premise: &[bool],
    theorem: &[Literal],
) -> std::collections::BTreeMap<(usize, usize), usize> {
    let tsyms = twin::symbols(bank, theorem);
    let shape = |i: usize| {
        let foreign = twin::symbols(bank, &pool[i])
            .iter()
            .filter(|s| !tsyms.contains(s))
            .count();
        (pool[i].len(), foreign, texts[i].len())
    };
    let shapes: Vec<(usize, usize, usize)> = (0..pool.len()).map(shape).collect();
    let mut classes = std::collections::BTreeMap::new();
    for i in (0..pool.len()).filter(|&i| premise[i]) {
        let (lits, foreign, chars) = shapes[i];
        let slack = (chars / 4).max(3);
        let alike = (0..pool.len()).any(|j| {
            !premise[j]
                && shapes[j].0 == lits
                && shapes[j].1 == foreign
                && shapes[j].2.abs_diff(chars) <= slack
        });
        if !alike {
            *classes.entry((lits, foreign)).or_default() += 1;
        }
    }
    classes
}

/// The fewest premises of `texts` (those marked in `premise`) that can
/// still have no look-alike ([`unmatched`]) once `slots` more clauses join
/// the pool, whatever they are: each clause clears at best the premises of
/// one (literal count, foreign-symbol count) class, so `slots` clauses
/// clear at best the largest `slots` classes. A pool that count already
/// refuses is refused before its twins and matched distractors are drawn
/// and checked (GEO levels 3-4: 225 of 341 such refusals, each after a
/// twin search of up to 12 candidates with their stand-in checks). `None`
/// when a text does not parse.
pub(super) fn unmatched_at_best(
    texts: &[String],
    premise: &[bool],
    theorem: &str,
    slots: usize,
) -> Option<usize> {
    let mut all = texts.to_vec();
    all.push(theorem.to_string());
    let (bank, mut clauses) = super::super::parse_clauses(&all).ok()?;
    let t = clauses.pop()?;
    let mut counts: Vec<usize> = unmatched_by_class(&bank, &clauses, texts, premise, &t)
        .into_values()
        .collect();
    counts.sort_unstable();
    Some(counts.iter().rev().skip(slots).sum())
}

/// The largest countermodel a stand-in check searches. Size 4 found 9 of
/// 658 models on GEO level 3 (38 of 1,050 on SET level 4), and the
/// searches that found none there, grounding GEO's betweenness and
/// equidistance relations over four elements, were 245 checks of 17 ms
/// each: most of a selection row's time. A candidate that would have
/// needed one is set aside like any undecided one.
pub(super) const STAND_IN_MODEL_SIZE: u32 = 3;

/// The SAT conflicts a stand-in check's model search may spend per size.
/// The models found on GEO level 3 took fewer than 100 (681 of 705), and
/// the searches that found none spent 100-2,000 proving that sizes 1-3
/// have no model, for a check that then ended undecided (the candidate
/// set aside) or proved by the saturation after it. At 200, GEO selection
/// levels 3-4 cost 2.1-2.6 s per 10 rows instead of 3.4-3.5, with the
/// same rejects within one or two; SET unchanged.
pub(super) const STAND_IN_SAT_CONFLICTS: u64 = 200;

/// The most countermodels [`StandIns`] keeps per premise: each later
/// candidate is evaluated in all of them before any prover call.
pub(super) const MODELS_PER_PREMISE: usize = 8;

/// Derived candidates a selection instance may find standing in for a
/// premise before the rest are set aside (each costs up to |M| quick
/// prover calls).
pub(super) const MAX_STAND_INS: usize = 6;

/// Whether a clause could stand in for a premise of M: M without premise
/// `q`, plus the clause, proves the theorem. Such a clause is part of a
/// minimum answer, so it cannot be a distractor.
///
/// Each premise `q` comes with a countermodel, when the deletion pass found
/// one, of M without `q` and the negated theorem; a clause true in it
/// cannot stand in for `q`, which settles most questions without a call.
/// The rest go to a prover with the quick budget of the instance's prover:
/// an undecided candidate is set aside, not argued with at full budget (on
/// equational theories those calls were most of the cost of a selection
/// row). The final minimum search certifies the pool whatever was admitted.
///
/// Every check for `q` adds one clause to the same base, M without `q`
/// and the negated theorem. The model search of a check runs on the
/// premise's [`Extender`]: the base is flattened and grounded once per
/// domain size, with the instance prover's full budgets for its own
/// search (a size the base has no model of is never searched again), and
/// each candidate is grounded under an activation literal on the same
/// SAT solver. Searching each candidate's problem from scratch, as a
/// prover call did, was most of a check: GEO selection at levels 2-4
/// made 9,685 such searches that found a model after 9 conflicts on
/// average, at 0.6 ms each, and the searches were 59% of the cells' CPU.
/// A candidate without a model goes on to the quick prover's saturation
/// ([`Prover::prove_models_absent`], its model sizes already searched).
pub(super) struct StandIns {
    /// The premises of M.
    pub(super) texts: Vec<String>,
    /// Per premise, countermodels of the others and the negated theorem:
    /// the deletion pass's, then every model a quick call found (a model
    /// of the others, a candidate and the negated theorem is one of the
    /// others and the negated theorem too), at most
    /// [`MODELS_PER_PREMISE`]. Each later candidate true in one of them is
    /// settled without a call: on GEO level 3 the first model settled a
    /// third of the candidates, and the quick calls, nearly all of them
    /// model searches, were two thirds of a selection row's time.
    pub(super) models: Vec<Vec<FiniteModel>>,
    /// Per premise, once made: the model search of the others and the
    /// negated theorem, extended by one candidate at a time.
    pub(super) finders: Vec<Option<Extender>>,
    /// The premises and the negated theorem over one bank that each
    /// candidate is parsed into, `None` when a text does not parse.
    parsed: Option<Parsed>,
    /// Budgets (ground clauses, conflicts) of the base searches.
    pub(super) base_budgets: (u64, u64),
    pub(super) theorem: String,
    pub(super) quick: Prover,
    pub(super) calls: u64,
    pub(super) processed: u64,
    /// Texts a minimum search found helping to prove the theorem beside
    /// premises of M: never admitted again ([`StandIns::banned`]).
    pub(super) banned: HashSet<String>,
}

/// What [`StandIns::check`] says of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Check {
    /// It stands in for no premise of M.
    Excluded,
    /// It may stand in for one (proved, or undecided at full budget).
    StandsIn,
    /// A quick check set it aside undecided.
    Deferred,
}

/// The SAT conflicts per size of a quick stand-in check's model search
/// ([`StandIns::check`]), against [`STAND_IN_SAT_CONFLICTS`] for a full
/// one. On GEO level 2 (50 rows) the checks' searches on the premises'
/// warm solvers found 1,663 of 1,790 models within 50 conflicts (over all
/// sizes), and the 847 searches undecided at 200 were three quarters of
/// the searches' time.
pub(super) const QUICK_SAT_CONFLICTS: u64 = 50;

impl StandIns {
    pub(super) fn new(
        g: &Graph,
        t: ClauseId,
        m: Vec<(ClauseId, Option<FiniteModel>)>,
        prover: &Prover,
    ) -> Self {
        let (ids, models): (Vec<ClauseId>, Vec<Option<FiniteModel>>) = m.into_iter().unzip();
        let texts: Vec<String> = ids.iter().map(|&c| g.text(c)).collect();
        StandIns::with_models(&texts, &g.text(t), models, prover)
    }

    /// Stand-in checks for premises `texts` of `theorem`, with a
    /// countermodel per premise where one is known; the quick prover takes
    /// `prover`'s limits cut to their quick phase.
    pub(super) fn with_models(
        texts: &[String],
        theorem: &str,
        models: Vec<Option<FiniteModel>>,
        prover: &Prover,
    ) -> Self {
        StandIns {
            texts: texts.to_vec(),
            finders: (0..models.len()).map(|_| None).collect(),
            parsed: Parsed::new(texts, theorem),
            models: models
                .into_iter()
                .map(|m| m.into_iter().collect())
                .collect(),
            base_budgets: (
                prover.limits.max_ground_clauses,
                prover.limits.sat_conflicts,
            ),
            theorem: theorem.to_string(),
            quick: {
                let mut limits = quick_limits(&prover.limits);
                limits.max_model_size = limits.max_model_size.min(STAND_IN_MODEL_SIZE);
                limits.quick_model_size = limits.quick_model_size.min(STAND_IN_MODEL_SIZE);
                let mut quick = Prover::new(stand_in_conflicts(limits));
                quick.models_first = STAND_IN_MODEL_SIZE;
                quick
            },
            calls: 0,
            processed: 0,
            banned: HashSet::new(),
        }
    }

    /// Whether `text` is banned from the pool: a minimum search found a
    /// proof of the theorem with it and premises of M.
    pub(super) fn banned(&self, text: &str) -> bool {
        self.banned.contains(text)
    }

    /// True when `text` is known to stand in for no premise of M.
    pub(super) fn excluded(&mut self, text: &str) -> bool {
        self.check(text, false) == Check::Excluded
    }

    /// Whether `text` stands in for no premise of M ([`Check::Excluded`]),
    /// may stand in for one ([`Check::StandsIn`]), or, when `quick`, was
    /// set aside at its first model search that ran out of
    /// [`QUICK_SAT_CONFLICTS`] ([`Check::Deferred`], before the prover's
    /// saturation): its caller may try cheaper candidates first and come
    /// back to it with [`StandIns::excluded`].
    pub(super) fn check(&mut self, text: &str, quick: bool) -> Check {
        if self.banned(text) {
            return Check::StandsIn;
        }
        // The premises whose countermodel does not settle the question.
        let parsed = checker::ModelClause::parse(text).ok();
        let open: Vec<usize> = (0..self.texts.len())
            .filter(|&q| {
                !self.models[q].iter().any(|model| {
                    parsed
                        .as_ref()
                        .is_some_and(|c| c.satisfied_by(model).unwrap_or(false))
                })
            })
            .collect();
        if open.is_empty() {
            return Check::Excluded;
        }
        // The premises, the candidate and the theorem over a bank of their
        // own, for the prover: parsed when a check first needs one.
        let mut problem = None;
        let Some(candidate) = self
            .parsed
            .as_mut()
            .and_then(|p| crate::tptp::parse_clause_str(&mut p.bank, text).ok())
        else {
            return Check::StandsIn;
        };
        let n = self.texts.len();
        // Every model size the quick prover would search is searched here.
        let searched = self.quick.limits.max_model_size;
        let conflicts = if quick {
            QUICK_SAT_CONFLICTS.min(self.quick.limits.quick_sat_conflicts)
        } else {
            self.quick.limits.quick_sat_conflicts
        };
        for q in open {
            self.calls += 1;
            self.finder(q);
            let t = crate::prover::cost::now();
            let found = match (self.finders[q].as_mut(), self.parsed.as_ref()) {
                (Some(finder), Some(p)) => finder.search_within(&p.bank, &candidate, conflicts),
                _ => Extended::Unknown,
            };
            crate::prover::cost::record(|c| c.models += crate::prover::cost::secs(t));
            if quick && matches!(found, Extended::Unknown) {
                return Check::Deferred;
            }
            // A candidate the finder declined gets the prover's own model
            // search, from the sizes the base has none of.
            let searched = match &found {
                Extended::Declined => self.absent_upto(q),
                _ => searched,
            };
            // The model is read back by the independent checker: a check
            // rests only on a model the candidate is true in.
            if let Extended::Model(model) = found {
                let holds = parsed
                    .as_ref()
                    .is_some_and(|c| c.satisfied_by(&model).unwrap_or(false));
                debug_assert!(holds, "{text} in {model:?}");
                if holds {
                    if self.models[q].len() < MODELS_PER_PREMISE {
                        self.models[q].push(model);
                    }
                    continue;
                }
            }
            if problem.is_none() {
                let mut all = self.texts.clone();
                all.push(text.to_string());
                all.push(self.theorem.clone());
                let Ok(parsed) = super::super::parse_clauses(&all) else {
                    return Check::StandsIn;
                };
                problem = Some(parsed);
            }
            let (bank, c) = problem.as_ref().expect("parsed above");
            let refs: Vec<&[Literal]> = (0..=n)
                .filter(|&i| i != q)
                .map(|i| c[i].as_slice())
                .collect();
            let o = self
                .quick
                .prove_models_absent(bank, &refs, &c[n + 1], searched);
            self.processed += o.stats.processed;
            match o.verdict {
                Verdict::CounterSatisfiable {
                    evidence: Evidence::Model { model },
                } => {
                    if self.models[q].len() < MODELS_PER_PREMISE {
                        self.models[q].push(model);
                    }
                }
                Verdict::CounterSatisfiable { .. } => {}
                _ => return Check::StandsIn,
            }
        }
        Check::Excluded
    }

    /// A finder of M without premise `q` and the negated theorem whose
    /// sorts are inferred with `hints` too ([`Extender::with_hints`]), for
    /// [`StandIns::model_with`]: the minimum search asks it for models of
    /// the pool's subsets without `q`, which a finder with the base's sorts
    /// alone declined most of (GEO level 4: 2,958 of 4,110 queries). The
    /// base's model, when its search finds one, joins the premise's
    /// countermodels. `None` when a text does not parse.
    pub(super) fn finder_with(&mut self, q: usize, hints: &[&str]) -> Option<Extender> {
        let p = self.parsed.as_mut()?;
        let hints = hints
            .iter()
            .map(|text| crate::tptp::parse_clause_str(&mut p.bank, text).ok())
            .collect::<Option<Vec<Vec<Literal>>>>()?;
        let hints: Vec<&[Literal]> = hints.iter().map(|c| c.as_slice()).collect();
        let base: Vec<&[Literal]> = (0..p.premises.len())
            .filter(|&i| i != q)
            .map(|i| p.premises[i].as_slice())
            .chain(p.negated.iter().map(std::slice::from_ref))
            .collect();
        let t = crate::prover::cost::now();
        let (finder, model) = Extender::with_hints(
            &p.bank,
            &base,
            &hints,
            self.quick.limits.max_model_size,
            self.base_budgets,
            self.quick.limits.quick_sat_conflicts,
        );
        crate::prover::cost::record(|c| c.models += crate::prover::cost::secs(t));
        if let Some(model) = model
            && self.models[q].len() < MODELS_PER_PREMISE
        {
            self.models[q].push(model);
        }
        Some(finder)
    }

    /// A countermodel of M without premise `q`, the negated theorem and
    /// every one of `texts`, from one query on `finder` (made by
    /// [`StandIns::finder_with`] for `q`; [`QUICK_SAT_CONFLICTS`] a size).
    /// The minimum search asks for one before its own model search of a
    /// subset without `q`: such a model satisfies the subset and the rest
    /// of M besides, and costs a query on a solver that already holds M
    /// without `q`. `None` when the clauses do not fit the finder's sorts
    /// or no model was found.
    pub(super) fn model_with(
        &mut self,
        finder: &mut Extender,
        texts: &[&str],
    ) -> Option<FiniteModel> {
        let t = crate::prover::cost::now();
        let p = self.parsed.as_mut()?;
        let clauses = texts
            .iter()
            .map(|text| crate::tptp::parse_clause_str(&mut p.bank, text).ok())
            .collect::<Option<Vec<Vec<Literal>>>>()?;
        let all: Vec<&[Literal]> = clauses.iter().map(|c| c.as_slice()).collect();
        let found = match finder.search_all(&p.bank, &all, QUICK_SAT_CONFLICTS) {
            Extended::Model(model) => Some(model),
            _ => None,
        };
        crate::prover::cost::record(|c| c.models += crate::prover::cost::secs(t));
        found
    }

    /// Every countermodel known, premise by premise: each falsifies the
    /// theorem, so the minimum search may start from them.
    pub(super) fn known_models(&self) -> impl Iterator<Item = &FiniteModel> {
        self.models.iter().flatten()
    }

    /// Sizes `1..=n` at which the premises of M but `q`, with the negated
    /// theorem, have no model, searched up to the quick prover's largest
    /// size (0 when nothing is known).
    pub(super) fn absent_upto(&mut self, q: usize) -> u32 {
        self.finder(q).map_or(0, |f| f.no_model_upto())
    }

    /// The model search of premise `q`'s base, made on first use; the
    /// base's own model, when its search finds one, joins the premise's
    /// countermodels.
    fn finder(&mut self, q: usize) -> Option<&mut Extender> {
        if self.finders[q].is_none() {
            let p = self.parsed.as_ref()?;
            let base: Vec<&[Literal]> = (0..p.premises.len())
                .filter(|&i| i != q)
                .map(|i| p.premises[i].as_slice())
                .chain(p.negated.iter().map(std::slice::from_ref))
                .collect();
            let t = crate::prover::cost::now();
            let (finder, model) = Extender::new(
                &p.bank,
                &base,
                self.quick.limits.max_model_size,
                self.base_budgets,
                self.quick.limits.quick_sat_conflicts,
            );
            crate::prover::cost::record(|c| c.models += crate::prover::cost::secs(t));
            if let Some(model) = model
                && self.models[q].len() < MODELS_PER_PREMISE
            {
                self.models[q].push(model);
            }
            self.finders[q] = Some(finder);
        }
        self.finders[q].as_mut()
    }
}

/// The premises of M and the negated theorem, parsed into one bank.
struct Parsed {
    bank: TermBank,
    premises: Vec<Vec<Literal>>,
    negated: Vec<Literal>,
}

impl Parsed {
    fn new(texts: &[String], theorem: &str) -> Option<Parsed> {
        let mut all = texts.to_vec();
        all.push(theorem.to_string());
        let (mut bank, mut premises) = super::super::parse_clauses(&all).ok()?;
        let t = premises.pop()?;
        let negated = crate::prover::negate_clause(&mut bank, &t);
        Some(Parsed {
            bank,
            premises,
            negated,
        })
    }
}

/// `limits` cut to their quick phase: the saturation and the model search
/// stop where the full budget would only begin its second phase.
pub(super) fn quick_limits(limits: &crate::prover::ProverLimits) -> crate::prover::ProverLimits {
    crate::prover::ProverLimits {
        max_processed: limits.quick_processed.min(limits.max_processed),
        max_model_size: limits.quick_model_size.min(limits.max_model_size),
        max_ground_clauses: limits.quick_ground_clauses.min(limits.max_ground_clauses),
        sat_conflicts: limits.quick_sat_conflicts.min(limits.sat_conflicts),
        max_rewrite_attempts: limits.max_rewrite_attempts / 10,
        ..limits.clone()
    }
}

/// `limits` with their model searches stopped at
/// [`STAND_IN_SAT_CONFLICTS`] per size: the stand-in checks' and the
/// minimum search's top-down calls, whose undecided calls only set a
/// candidate aside or leave a premise to the search by size.
pub(super) fn stand_in_conflicts(
    limits: crate::prover::ProverLimits,
) -> crate::prover::ProverLimits {
    crate::prover::ProverLimits {
        quick_sat_conflicts: limits.quick_sat_conflicts.min(STAND_IN_SAT_CONFLICTS),
        sat_conflicts: limits.sat_conflicts.min(STAND_IN_SAT_CONFLICTS),
        ..limits
    }
}

/// `k` graph distractors for premise set `m` of theorem `t`, each matched
/// in profile to a premise of `m` (the premises in turn, in a random
/// order): first the depth-d `premises` outside `m` (the deletion pass
/// dropped them), each admitted only when it stands in for no premise of
/// `m` ([`StandIns`]); then the spare background axioms of `t` and the
/// file's other axioms, and the derived clauses of
/// [`Graph::plain_distractors`] only when the axioms are fewer than `k`
/// (fewer when the graph has too few candidates). Axioms first: the
/// premises the twins do not stand beside are mostly axioms at the deeper
/// levels, and a derived clause sharing the theorem's symbols often helps
/// prove it, so each derived one is admitted only when it stands in for no
/// premise ([`StandIns`]). Derived clauses with the theorem's symbols only,
/// offered beside the axioms, made the short premises of TOP's deep
/// theorems stand out more (longer foreign-free distractors; audit lead at
/// TOP levels 3 and 4 up by 2.5 points). The prompt's background leaves out
/// the pool's clauses (`shown_background`), so no pool clause is told
/// apart by being listed there.
#[allow(clippy::too_many_arguments)]
pub(super) fn matched_distractors(
    g: &Graph,
    t: ClauseId,
    premises: &[ClauseId],
    m: &[ClauseId],
    chosen: &[ClauseId],
    k: usize,
    stand_ins: &mut StandIns,
    rng: &mut impl Rng,
) -> Vec<ClauseId> {
    if k == 0 {
        return Vec::new();
    }
    // Neither a premise of M nor a distractor already drawn.
    let exclude: Vec<ClauseId> = m.iter().chain(chosen).copied().collect();
    // The depth-d premises the deletion pass dropped: as deep as the
    // premises and cut from the same proof, the closest look-alikes there
    // are (on the equational theories the file's few axioms are far
    // shorter than derived premises: ALG level 2, "shorter than 33
    // characters is a distractor" led by 10.5 points).
    let mut banned = g.variant_keys(t, &exclude);
    let mut dropped: Vec<ClauseId> = premises
        .iter()
        .copied()
        .filter(|c| !exclude.contains(c))
        .filter(|&c| banned.insert(g.canon(c)))
        .collect();
    let mut cands = g.spare_background(t, &exclude);
    cands.extend(g.other_axioms(t, &exclude));
    cands.retain(|c| !dropped.contains(c));
    let axioms: HashSet<ClauseId> = cands.iter().copied().collect();
    if cands.len() < k {
        let mut seen: HashSet<String> = cands.iter().map(|&c| g.canon(c)).collect();
        let mut shown: Vec<ClauseId> = premises.to_vec();
        shown.extend(chosen);
        cands.extend(
            g.plain_distractors(t, &shown)
                .into_iter()
                .filter(|&c| seen.insert(g.canon(c))),
        );
    }
    let mut likes = m.to_vec();
    let mut out = Vec::with_capacity(k);
    let mut refused = 0;
    'fill: for j in 0..k {
        if j % likes.len() == 0 {
            likes.shuffle(rng);
        }
        let like = likes[j % likes.len()];
        while let Some(c) = g.take_matched_foreign(t, like, &mut dropped, rng, FOREIGN_WEIGHT) {
            if stand_ins.excluded(&g.text(c)) {
                out.push(c);
                continue 'fill;
            }
        }
        loop {
            let Some(c) = g.take_matched_foreign(t, like, &mut cands, rng, FOREIGN_WEIGHT) else {
                break 'fill;
            };
            let text = g.text(c);
            if (axioms.contains(&c) && !stand_ins.banned(&text)) || stand_ins.excluded(&text) {
                out.push(c);
                break;
            }
            refused += 1;
            if refused == MAX_STAND_INS {
                cands.retain(|c| axioms.contains(c));
            }
        }
    }
    out.sort_unstable();
    out
}

/// How far in profile ([`Graph::take_matched_by`], foreign symbols
/// weighted by [`FOREIGN_WEIGHT`]) a distractor from the depth's premise
/// pool may be from the premise it stands beside; farther premises get a
/// twin instead.
pub(super) const MAX_POOLED_DISTANCE: f64 = 1.0;

/// The share (percent, rounded up) of a row's pooled distractor slots
/// left after its dropped premises that, from depth 2 on, may go to the
/// level's most used premises: every pool clause that at least a share b
/// of the level's distinct premise sets hold (b = the row's share of
/// answer clauses) and that this row does not need is offered, in a
/// random order, when it stands in for no premise of the row; one that a
/// share s < b holds, with chance s / (1 - s), so that it is offered in
/// about as many pools as it is needed in (counted over theorems, shares
/// followed the level's trivial theorems, such as the many
/// `is_open(union2(..))` of TOP, and a clause in 20% of level-3 answers
/// counted 11%. Seeds 0 and 1, grouped text reader over the majority:
/// TOP level 3 +7.8/+10.5 and level 4 +10.9/+11.6 before; shares over
/// premise sets alone 10.4/8.1 and 9.5/7.5; with the offers below b,
/// 10.5/7.6 and 5.8/6.4; with `max_answer_lead` as well, 7.7/8.5 and
/// 7.0/6.5, and 6.5/5.3 and 6.0/7.5 at seeds 2 and 3). Such a
/// clause then sits in pools that do not need it often enough that being
/// in a pool says about as little of its label as any clause's does. On a
/// small theory a few clauses are premises of most deep theorems (TOP
/// level 4: `~open_family(X0) | is_open(big_union(X0))` was in 130 of 200
/// pools and the answer in 128 of them) and profile-matched draws seldom
/// offered them where they were not needed: the grouped text reader led
/// by 13.8-14.6 points over three seeds; with this rule 10.9 and 11.6
/// (seeds 0 and 1). Tried and dropped: drawing those slots in proportion
/// to popularity squared, unmatched, brought TOP level 4 to 5.5-7.8 but
/// made the most used clauses the usual distractors of CNF SET
/// (`../shared/tptp`; levels 2-4: +15.6, +13.0, +10.1, from 3.6, 8.2,
/// 9.5; with this rule 4.1, 7.4, 7.7); the same draw matched in profile
/// to a premise of M did neither (TOP level 4 +10.2 to +11.7). Depth 1
/// keeps matched draws only: its premises are the theorem's parents, and
/// popular clauses beside them stood out by profile (SET level 1: +21.6).
pub(super) const POPULAR_SHARE_PERCENT: usize = 75;

/// Up to `k` distractors for premise set `m` of theorem `t` that are
/// themselves premises: first the depth-d `premises` outside `m` (the
/// deletion pass dropped them), then clauses of the depth's premise pool
/// ([`Graph::depth_premise_pool`]: depth-d premises of the theorems a
/// row of the level may come from: with at most `cap`, the level's largest
/// answer, at depth 1, at most `max_premises` deeper),
/// each matched in profile to a premise of `m` (the premises in turn, in a
/// random order; within [`MAX_POOLED_DISTANCE`]) and admitted only when it
/// stands in for no premise ([`StandIns`]). A clause that recurs across a
/// level's rows is then a premise in some and a distractor in others:
/// with twins first, a premise's text recurred only as a premise and its
/// twins' only as distractors, and a reader memorising which texts are
/// premises (the audit's grouped text reader) beat the majority by 12-35
/// points at level 1 (SET, TOP, CNF and FOF SET; exact-text memory alone
/// 70-81% against 50%). From depth 2 on, after the dropped premises, up
/// to [`POPULAR_SHARE_PERCENT`] of the slots left first take the clauses
/// the cell's walk has on the answer side past its lead (`leading`, the
/// farthest first), then the level's most used premises, unmatched.
#[allow(clippy::too_many_arguments)]
pub(super) fn pooled_distractors(
    g: &Graph,
    t: ClauseId,
    (d, cap, max_premises): (u32, usize, usize),
    premises: &[ClauseId],
    m: &[ClauseId],
    k: usize,
    stand_ins: &mut StandIns,
    rng: &mut impl Rng,
    leading: &dyn Fn(&str) -> u64,
) -> Vec<ClauseId> {
    if k == 0 {
        return Vec::new();
    }
    let mut banned = g.variant_keys(t, m);
    let mut dropped: Vec<ClauseId> = premises
        .iter()
        .copied()
        .filter(|c| !m.contains(c))
        .filter(|&c| banned.insert(g.canon(c)))
        .collect();
    // The theorems a row of this level can come from: at depth 1 the
    // deletion pass keeps every premise, so one with more than `cap` is
    // redrawn; deeper, one with more than `max_premises` is.
    let limit = if d == 1 { cap } else { max_premises };
    let (theorems, pool) = g.counted_premise_pool(d, limit);
    let popularity: std::collections::HashMap<ClauseId, u32> = pool.iter().copied().collect();
    let mut cands: Vec<ClauseId> = pool
        .iter()
        .map(|p| p.0)
        .filter(|&c| banned.insert(g.canon(c)))
        .collect();
    let tsyms = g.symbols_of(t).into_owned();
    let foreign = |c: ClauseId| {
        g.symbols_of(c)
            .iter()
            .filter(|x| !tsyms.contains(x))
            .count() as f64
    };
    // Whether a clause shares a symbol with the theorem. From depth 2 on,
    // when every premise of M does, so does every distractor drawn here:
    // FLD level 2 drew 31% of its most used premises and 14% of its other
    // pool distractors with no symbol of the theorem, against none of the
    // answers, and the grouped reader of text and features beat the
    // majority by 10.0 points (5.5 with the rule). Depth 1 keeps its
    // draws: there the pool's texts recur across rows as premises and as
    // distractors only if the clauses sharing no symbol stay in.
    let shares = |c: ClauseId| g.symbols_of(c).iter().any(|x| tsyms.contains(x));
    let must_share = d >= 2 && m.iter().all(|&p| shares(p));
    // Beside premise `like`: each foreign symbol more or fewer than it has
    // counts FOREIGN_WEIGHT in the profile distance.
    let penalty_beside = |like: ClauseId| {
        let target = foreign(like);
        move |c: ClauseId| {
            (!must_share || shares(c)).then(|| FOREIGN_WEIGHT * (foreign(c) - target).abs())
        }
    };
    let mut likes = m.to_vec();
    let mut out = Vec::with_capacity(k);
    let mut refused = 0;
    // The theorem's own dropped premises first, each beside a premise of M
    // it matches in profile.
    likes.shuffle(rng);
    let mut placed = true;
    while placed && out.len() < k && !dropped.is_empty() {
        placed = false;
        for &like in &likes {
            if out.len() == k {
                break;
            }
            let penalty = penalty_beside(like);
            if let Some(c) =
                g.take_matched_by(t, like, &mut dropped, rng, MAX_POOLED_DISTANCE, penalty)
            {
                if stand_ins.excluded(&g.text(c)) {
                    out.push(c);
                } else {
                    refused += 1;
                }
                placed = true;
            }
        }
    }
    // Then the level's most used premises (see POPULAR_SHARE_PERCENT): a
    // clause that a share s of the level's theorems need, offered in every
    // pool that does not need it, is an answer in a share s of the pools
    // it sits in; at s >= b it would take more than every such pool to
    // bring that down to b, so each is offered wherever it may be.
    let popular_slots = if d >= 2 {
        out.len() + ((k - out.len()) * POPULAR_SHARE_PERCENT).div_ceil(100)
    } else {
        0
    };
    let b = m.len() as f64 / (m.len() + k) as f64;
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.shuffle(rng);
    let mut offered: Vec<usize> = Vec::new();
    // First the clauses the cell's walk has on the answer side past its
    // lead (`leading`), the farthest first: every row that needs one is
    // held back until enough rows show it as a distractor, and a held row
    // that never is was built for nothing (GEO levels 2-4 at count 50: 119
    // of 269 rows built, 44%; with these offers 78 of 228).
    if d >= 2 {
        let mut ahead: Vec<(u64, usize)> = order
            .iter()
            .map(|&i| (leading(&g.text_ref(cands[i])), i))
            .filter(|&(excess, i)| excess > 0 && (!must_share || shares(cands[i])))
            .collect();
        ahead.sort_by_key(|&(excess, _)| std::cmp::Reverse(excess));
        for (_, i) in ahead {
            if out.len() + offered.len() >= popular_slots {
                break;
            }
            if stand_ins.excluded(&g.text(cands[i])) {
                offered.push(i);
            }
        }
        order.retain(|i| !offered.contains(i));
    }
    for i in order {
        if out.len() + offered.len() >= popular_slots {
            break;
        }
        let c = cands[i];
        let share =
            f64::from(popularity.get(&c).copied().unwrap_or(0)) / f64::from(theorems.max(1));
        // At s >= b everywhere; below, with chance s / (1 - s), so that a
        // clause a share s of the level's answers need is offered in about
        // as many pools as it is needed in.
        if must_share && !shares(c) {
            continue;
        }
        let offer = share >= b || rng.random_bool((share / (1.0 - share)).clamp(0.0, 1.0));
        if offer && stand_ins.excluded(&g.text(c)) {
            offered.push(i);
        }
    }
    offered.sort_unstable();
    for &i in offered.iter().rev() {
        out.push(cands.remove(i));
    }
    // The rest from the pool, each beside a premise of M in turn (the
    // dropped premises are spent: none is near any of them any more).
    let k = k - out.len();
    'slots: for j in 0..k {
        if j % likes.len() == 0 {
            likes.shuffle(rng);
        }
        let like = likes[j % likes.len()];
        while refused < MAX_STAND_INS {
            let Some(c) = g.take_weighted(
                t,
                like,
                &mut cands,
                rng,
                MAX_POOLED_DISTANCE,
                penalty_beside(like),
                |c| f64::from(popularity.get(&c).copied().unwrap_or(0)),
            ) else {
                continue 'slots;
            };
            if stand_ins.excluded(&g.text(c)) {
                out.push(c);
                continue 'slots;
            }
            refused += 1;
        }
    }
    out
}

/// Edits a twin may be from its premise: one first, two when every
/// one-edit twin drawn may stand in for a premise.
pub(super) const TWIN_EDITS: usize = 2;

/// Up to `k` twins ([`twin::twin`]) of the premises of M, at most one
/// per premise (a premise with two twins would sit at their centre, one
/// edit from each, where the twins are two apart). However many twins
/// there are, a clause with a twin is a premise exactly as often as not,
/// and one without is a premise as often as the pool's majority says, so
/// having a twin tells nothing. A twin that may stand in for a premise
/// ([`StandIns`]) would be part of a minimum answer; another is drawn, up
/// to six per premise one edit away, then six two edits away. Strong laws
/// need the second round: every one-edit twin of associativity
/// `op(op(X0,X1),X2)=op(X0,op(X1,X2))` is itself a permuted associativity
/// law (`op(op(X0,X1),X2)=op(X0,op(X2,X1))`, ...) that proves the deep
/// monoid theorems with the other premises, so the law, in every answer at
/// ALG level 4 and the pool's only clause with one symbol, stood out by its
/// symbol count; two swaps reach the weaker `op(op(X0,X1),X2)=op(op(X0,X2),X1)`
/// and its kind, which the quick model search clears there.
///
/// Each twin gets a quick check first ([`StandIns::check`]); one left
/// undecided there is set aside, and the premise's set-aside twins are
/// checked in full, in the order drawn, only when none of its twelve
/// passes the quick one (see [`QUICK_SAT_CONFLICTS`]). Quick checks for
/// every candidate, each undecided one going on to the saturation, made
/// TOP selection slower than tptp-tasks-50 (×0.84 and ×0.94 in two
/// pairs); with quick twins only, set aside as here, ×1.03 and ×1.10.
///
/// `taken` holds the canonical forms no twin may have (the depth-d
/// premises and the theorem); each twin drawn joins it.
pub(super) fn twins_of(
    mut taken: HashSet<String>,
    k: usize,
    stand_ins: &mut StandIns,
    rng: &mut impl Rng,
) -> Vec<String> {
    let mut twins = Vec::new();
    let mut order: Vec<usize> = (0..stand_ins.texts.len()).collect();
    order.shuffle(rng);
    for p in order {
        if twins.len() == k {
            break;
        }
        // Twins whose quick check was undecided, checked in full only when
        // no other twin of the premise passes.
        let mut deferred: Vec<String> = Vec::new();
        let mut found = None;
        'premise: for edits in 1..=TWIN_EDITS {
            for _ in 0..6 {
                let Some(text) =
                    twin::twin(&stand_ins.texts[p], &stand_ins.theorem, &taken, edits, rng)
                else {
                    break;
                };
                let Some(key) = text_key(&text) else {
                    break;
                };
                taken.insert(key);
                match stand_ins.check(&text, true) {
                    Check::Excluded => {
                        found = Some(text);
                        break 'premise;
                    }
                    Check::Deferred => deferred.push(text),
                    Check::StandsIn => {}
                }
            }
        }
        let found = found.or_else(|| deferred.into_iter().find(|t| stand_ins.excluded(t)));
        twins.extend(found);
    }
    twins
}

/// The canonical form (up to variants) of one clause given as TPTP text,
/// `None` when it does not parse.
pub(super) fn text_key(text: &str) -> Option<String> {
    let (bank, c) = super::super::parse_clauses(&[text.to_string()]).ok()?;
    Some(crate::logic::canonical_clause(&bank, &c[0]))
}
