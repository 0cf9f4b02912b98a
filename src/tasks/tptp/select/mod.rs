//! Minimal premise selection (`tptp_tasks.md` §2): a numbered pool holds a
//! minimum-cardinality premise set M of a ranked theorem plus k
//! same-signature distractors; the answer is the sorted indices of a
//! smallest subset that proves the theorem.
//!
//! Distractors look like the premises (issue 16) and are premises
//! themselves where possible (issue 49): first clauses of the level's
//! premise pool ([`Graph::depth_premise_pool`], depth-d premises of the
//! graph's theorems, the theorem's own dropped ones first; from depth 2
//! on, the premises most of the level's theorems need, wherever a row does
//! not need them, whatever their shape; the rest each beside a premise of
//! M with its literal count
//! and literals of the theorem), drawn in proportion to how many theorems
//! it is a premise of, so that a clause text recurring across rows is a
//! distractor about as often as a premise and memorising which texts are
//! premises earns little. Then twins:
//! one-edit perturbations of premises of M ([`twin`](super::twin)), at most one
//! per premise, each checked not to stand in for any premise. Twins have a
//! premise's length, literals, variables and symbols by construction, and
//! a clause with a twin is a premise exactly half the time. The rest are
//! axioms of the file (spare background axioms of the theorem, then its
//! other axioms; derived clauses only when those run short), each the
//! closest in profile (symbol overlap with the theorem, length, literals,
//! literals shared with the theorem, foreign symbols weighted up) to a
//! premise of M. A twin or derived distractor is admitted only when it
//! stands in for no premise (a countermodel of the other premises
//! satisfies it, or a quick prover call finds one). A pool where two or
//! more premises have no distractor of their shape (literals, foreign
//! symbols, length) is redrawn: base facts such as `is_open(whole_space)`
//! that nothing in the theory resembles would otherwise give the answer
//! away by their look. The background the prompt lists leaves out every pool
//! clause, so membership in it tells nothing either. On the small embedded
//! theories, where the premises of a deep theorem are nearly all the
//! axioms that mention its symbols, drawing from the graph alone left the
//! premises the only pool clauses without foreign symbols.
//!
//! Exactness: a subset that does not prove the theorem gets a finite
//! countermodel; the model is then evaluated on every pool clause, and
//! every subset of the clauses it satisfies is known not to prove the
//! theorem (monotonicity of entailment), so one model rules out many
//! subsets at once. Subsets are classified largest first, from one below
//! the irredundant set M found by deletion downwards while proofs remain
//! (a model of a large subset covers all its subsets: the idea of growing
//! each countermodel's satisfied set before enumerating further, as in
//! Liffiton et al., "Fast, flexible MUS enumeration", Constraints 2016).
//! The smallest size with a proof is the minimum; every subset of that size
//! is either proved (another minimum answer, all of them kept) or covered
//! by a model, and so is every smaller subset. The
//! certificate holds the refutations and the models with the pool clauses
//! each satisfies, so `verify` can re-check the whole claim without search.
//! A search that finds a distractor helping to prove the theorem names it;
//! the attempt bans it and draws its distractors again, keeping M, the
//! stand-in checks and every countermodel found ([`MAX_REPAIRS`]).

use super::{Background, Built, Graph, Reject, Scored, TasksConfig};
use crate::prover::mace::extend::Extender;
use crate::prover::{Evidence, FiniteModel, Prover, Refutation, Verdict};
use crate::saturation::ClauseId;
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// A countermodel and the pool clauses (1-based) it satisfies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cover {
    /// Pool indices (1-based, increasing) true in the model.
    pub satisfies: Vec<usize>,
    /// The model; it falsifies the theorem.
    pub model: FiniteModel,
}

/// One minimum answer and its proof.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// Pool indices (1-based, increasing).
    pub premises: Vec<usize>,
    /// Refutation of those premises plus the negated theorem.
    pub refutation: Refutation,
}

/// The certificate of a selection instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// Always `minimum_premises`.
    pub verdict: String,
    /// Size of the minimum answers.
    pub size: usize,
    /// Every subset of that size that proves the theorem.
    pub answers: Vec<Answer>,
    /// Countermodels covering every smaller subset and every other subset
    /// of the minimum size.
    pub countermodels: Vec<Cover>,
}

mod answer;
mod cover;
mod distractors;
#[cfg(test)]
mod tests;

pub use answer::{AnswerError, format_answer, parse_answer, render, score, verify};
pub use cover::MODELS_FIRST_SIZE;
use cover::{Search, indices, minimum_detail};
use distractors::{
    MAX_UNMATCHED, StandIns, matched_distractors, pooled_distractors, twins_of, unmatched,
};

/// The background a selection prompt shows: `t`'s context axioms without
/// the pool's clauses (up to variants) and, for an axiom clausified from a
/// FOF formula, without the formula's other clauses (the formula shown
/// would give the pool clause away). Every pool clause is then equally
/// absent from the list, premise or distractor, axiom or derived.
fn shown_background(g: &Graph, t: ClauseId, pool_keys: &HashSet<String>) -> Background {
    let context = g.context_axioms(t);
    let hidden: HashSet<String> = context
        .iter()
        .filter(|&&c| pool_keys.contains(&g.canon(c)))
        .filter_map(|&c| g.origin(c).map(|o| o.name))
        .collect();
    let shown: Vec<ClauseId> = context
        .into_iter()
        .filter(|&c| !pool_keys.contains(&g.canon(c)))
        .filter(|&c| g.origin(c).is_none_or(|o| !hidden.contains(&o.name)))
        .collect();
    Background::of(g, &shown)
}

/// The largest minimum premise set M a level of depth `d` takes, and the
/// pool sizes its rows draw from, for the level's distractor count `k`:
/// M holds at most `cap = min(2d, max_premises)` premises (a depth-d
/// theorem of binary steps has up to 2^d depth-d premises, but the deletion
/// pass leaves few: at most 2, 4, 6 and 6 on SET and GEO at depths 1-4 in
/// 20 rows each), and each row's pool size is drawn uniformly from `cap + 2`
/// to `cap + k` (at least `cap + 2`, at most 31) before the theorem is
/// looked at: every pool has two distractors or more, and the defaults give
/// 4, 6-8, 8-12 and 10-16 clauses at levels 1-4. A theorem whose M is
/// larger than `cap` is redrawn, whatever the pool size, so pool size and
/// answer size are independent. With a fixed k per level the pool size was
/// the answer's size plus k (correlation 0.98-1.00 within a cell), and "the
/// pool minus k clauses" gave the size away.
pub fn pool_sizes(d: u32, k: u32, max_premises: usize) -> (usize, RangeInclusive<usize>) {
    let cap = (2 * d as usize).clamp(1, max_premises.max(1));
    let lo = (cap + 2).min(MAX_POOL);
    let hi = (cap + k as usize).clamp(lo, MAX_POOL);
    (cap, lo..=hi)
}

/// The largest pool: answers and certificates are bit masks of 32 bits.
const MAX_POOL: usize = 31;

/// The note ([`Walk::learned`]) of a theorem the prover did not prove from
/// its depth-d premises: every later attempt on it in the cell is refused
/// as [`Reject::Unknown`] before any call, since it would make the same
/// call (a theorem's answers are noted as JSON arrays, never this).
pub const UNPROVED_NOTE: &str = "unproved";

/// The note's prefix ([`Walk::learned`]) of a deletion pass that ended
/// undecided (a premise whose removal the prover could not decide); each
/// pass notes a value of its own.
pub const UNDECIDED_NOTE: &str = "undecided";

/// Undecided deletion passes of one theorem after which a cell's later
/// attempts on it stop before any call. Another pass, in another order,
/// may decide every removal, but seldom does: on ALG levels 2-4 at 50 rows
/// per cell, stopping after two wrote the same 43, 19 and 8 rows for a
/// quarter less CPU, and no other cell of the paper layout changed.
pub const MAX_UNDECIDED_PASSES: usize = 2;

/// The answer a selection row will most likely have, known after the
/// deletion pass: the irredundant premise set M (the minimum search finds
/// a smaller answer only when one exists, and a row whose answer holds a
/// distractor is refused).
pub struct Predicted {
    /// M's clauses as the pool prints them.
    pub texts: Vec<String>,
    /// M's canonical forms, sorted, one per line: the row's
    /// [`Built::group`] when the answer is M.
    pub group: String,
}

impl Predicted {
    /// The note a later slot reads back with [`Predicted::from_note`]: the
    /// texts as a JSON array.
    fn note(&self) -> String {
        serde_json::to_string(&self.texts).expect("strings serialise")
    }

    fn from_note(note: &str) -> Option<Predicted> {
        Predicted::of(serde_json::from_str(note).ok()?).ok()
    }

    fn of(texts: Vec<String>) -> Result<Predicted, Reject> {
        let (bank, clauses) = super::parse_clauses(&texts).map_err(|_| Reject::Degenerate)?;
        let mut keys: Vec<String> = clauses
            .iter()
            .map(|c| crate::logic::canonical_clause(&bank, c))
            .collect();
        keys.sort_unstable();
        Ok(Predicted {
            texts,
            group: keys.join("\n"),
        })
    }
}

/// The deletion pass of one theorem: the irredundant premise set M, a
/// countermodel for each premise kept because leaving it out has one, and
/// the prover work it took.
struct Deletion {
    m: Vec<ClauseId>,
    /// A refutation of M and the negated theorem: the first call's or the
    /// last removal's.
    proof: Refutation,
    kept_by: Vec<(ClauseId, FiniteModel)>,
    calls: u64,
    processed: u64,
}

/// Drops each premise the theorem does not need, in a random order, once
/// the caller's prover call proved `t` from all of `premises` (its
/// refutation and given clauses come in the last argument); the result M
/// is irredundant. The exact search over the pool then finds the
/// true minimum, which may be a proper subset of M (the rest of M then acts
/// as further distractors). [`Reject::Unknown`] when the prover leaves the
/// removal of a premise undecided; [`Reject::TooManyPremises`] as soon as
/// more than `cap` premises are kept (a premise kept stays in M, so M would be larger than
/// the level takes: the caller refused such an M after the whole pass, and
/// on ALG level 2 that was 379 passes of up to 10 calls).
fn deletion_pass(
    g: &Graph,
    t: ClauseId,
    premises: &[ClauseId],
    cap: usize,
    prover: &mut Prover,
    rng: &mut impl Rng,
    (mut proof, first_processed): (Refutation, u64),
) -> Result<Deletion, Reject> {
    let (mut m, mut calls, mut processed) = (premises.to_vec(), 1u64, first_processed);
    // A premise kept because its removal has a countermodel keeps the
    // model: it satisfies the final M without that premise too (a subset).
    let mut order: Vec<ClauseId> = premises.to_vec();
    order.shuffle(rng);
    let mut kept_by: Vec<(ClauseId, FiniteModel)> = Vec::new();
    // Small models first, as in the minimum search: a premise the theorem
    // needs has one (SET level 4: 0.48 -> 0.35 s of deletion per 20 rows).
    let was = std::mem::replace(&mut prover.models_first, cover::MODELS_FIRST_SIZE);
    // Models no larger than the quick size, in every attempt: the larger
    // sizes after the long phase decided few removals and cost most of
    // the undecided ones (ALG levels 2-4 at count 50: the same 39, 19 and
    // 8 rows for 21% less CPU; GEO's shards unchanged).
    let quick = prover
        .limits
        .quick_model_size
        .min(prover.limits.max_model_size);
    let was_max = std::mem::replace(&mut prover.limits.max_model_size, quick);
    let pass = || {
        for p in order {
            if m.len() == 1 {
                break;
            }
            let rest: Vec<ClauseId> = m.iter().copied().filter(|&x| x != p).collect();
            let o = g.prove(prover, &rest, t);
            calls += 1;
            processed += o.stats.processed;
            match o.verdict {
                Verdict::Theorem { refutation } => {
                    m = rest;
                    proof = refutation;
                }
                Verdict::CounterSatisfiable {
                    evidence: Evidence::Model { model },
                } => kept_by.push((p, model)),
                // Undecided: M - p must still be classified by the minimum
                // search, under the same limits, and nearly always stays
                // undecided there (ALG and GEO at 50 rows per cell: the
                // same rows but one, for 21% less CPU).
                _ => return Err(Reject::Unknown),
            }
            if kept_by.len() > cap {
                return Err(Reject::TooManyPremises);
            }
        }
        Ok(())
    };
    let passed = pass();
    prover.models_first = was;
    prover.limits.max_model_size = was_max;
    passed?;
    Ok(Deletion {
        m,
        proof,
        kept_by,
        calls,
        processed,
    })
}

/// What a selection attempt reads from its cell's walk and leaves for
/// later slots.
pub struct Walk<'a> {
    /// Whether a row with the predicted answer would be skipped by the
    /// cell as a repeat: such an attempt stops after the deletion pass
    /// ([`Reject::RepeatedAnswer`]).
    pub repeated: &'a dyn Fn(&Predicted) -> bool,
    /// Whether a row with the predicted answer would be held back for a
    /// clause's lead and then skipped: such an attempt stops after the
    /// deletion pass too ([`Reject::HeldAnswer`]).
    pub held: &'a dyn Fn(&Predicted) -> bool,
    /// The answers earlier deletion passes of a theorem gave (by
    /// [`Walk::theorem_key`]), as noted in `learned` ([`Predicted::note`]),
    /// or [`UNDECIDED_NOTE`] or [`UNPROVED_NOTE`].
    pub earlier: &'a dyn Fn(&str) -> Vec<String>,
    /// How many rows past the cell's lead a pool clause (its text) is on
    /// the answer side (0 within it): rows whose answer needs it are held
    /// back until as many rows show it as a distractor, so the pool draw
    /// offers such clauses first ([`pooled_distractors`]).
    pub leading: &'a dyn Fn(&str) -> u64,
    /// (theorem key, noted answer) of each deletion pass this attempt ran,
    /// (theorem key, [`UNDECIDED_NOTE`] and an id) of each that ended
    /// undecided, and (theorem key, [`UNPROVED_NOTE`]) of each theorem it
    /// found the prover does not prove from its premises.
    pub learned: Vec<(String, String)>,
}

impl Walk<'_> {
    /// A walk that skips nothing and knows nothing (tests, one-off calls).
    pub fn none() -> Walk<'static> {
        Walk {
            repeated: &|_| false,
            held: &|_| false,
            earlier: &|_| Vec::new(),
            leading: &|_| 0,
            learned: Vec::new(),
        }
    }

    /// How the walk would skip a row with answer `p`, if it would.
    fn skip(&self, p: &Predicted) -> Option<Reject> {
        if (self.repeated)(p) {
            Some(Reject::RepeatedAnswer)
        } else if (self.held)(p) {
            Some(Reject::HeldAnswer)
        } else {
            None
        }
    }

    /// The key a theorem's notes go under: its graph and canonical form.
    pub fn theorem_key(graph: &str, canon: &str) -> String {
        format!("{graph}\n{canon}")
    }
}

/// How many times one selection attempt may draw its distractors again
/// after a minimum search found some of them helping to prove the theorem
/// (each time without those).
pub const MAX_REPAIRS: u32 = 2;

/// One generation attempt. A theorem whose earlier deletion passes in
/// the cell gave only answers it would skip ([`Walk::earlier`],
/// [`Walk::repeated`]) is skipped before its pass: a cell draws each
/// theorem several times (GEO level 4 at 50 rows: 2,009 attempts on about
/// 460 theorems), and those passes were a third of the cell's CPU once
/// the repeats stopped after them. The deletion order is the slot's, so
/// a theorem whose pass can give another answer may still give it.
pub fn generate(
    g: &Graph,
    t: &Scored,
    prover: &mut Prover,
    cfg: &TasksConfig,
    level: u8,
    rng: &mut impl Rng,
    walk: &mut Walk,
) -> Result<Built, Reject> {
    let (d, k) = cfg.params(super::Family::Selection, level);
    // The pool's size, drawn before anything about the theorem is known:
    // it says nothing about the answer's size (see `pool_sizes`).
    let (cap, sizes) = pool_sizes(d, k, cfg.max_premises);
    let pool_size = rng.random_range(sizes);
    let premises = g.depth_premises(t.id, d).ok_or(Reject::TooShallow)?;
    if premises.len() > cfg.max_premises {
        return Err(Reject::TooManyPremises);
    }
    let tcanon = g.canon(t.id);
    if premises.iter().any(|&p| g.canon(p) == tcanon) {
        return Err(Reject::Degenerate);
    }
    let key = Walk::theorem_key(&g.name, &tcanon);
    let earlier = (walk.earlier)(&key);
    let undecided = earlier
        .iter()
        .filter(|n| n.starts_with(UNDECIDED_NOTE))
        .count();
    if earlier.iter().any(|n| n == UNPROVED_NOTE) || undecided >= MAX_UNDECIDED_PASSES {
        return Err(Reject::Unknown);
    }
    // Every answer earlier passes gave is skipped by the walk: a repeat,
    // or (when any is only held) a held answer.
    let skips: Option<Vec<Reject>> = earlier
        .iter()
        .map(|a| Predicted::from_note(a).and_then(|p| walk.skip(&p)))
        .collect();
    if let Some(skips) = skips.filter(|s| !s.is_empty()) {
        return Err(if skips.contains(&Reject::HeldAnswer) {
            Reject::HeldAnswer
        } else {
            Reject::RepeatedAnswer
        });
    }
    // The prover proves `t` from all its premises first. The call is the
    // same in every attempt on the theorem (the same premises and limits;
    // no model search), so one that fails is noted and a later attempt
    // stops before it: on ALG levels 2-4 at 50 rows per cell 2,292 of
    // 2,874 undecided attempts ended at this call, nearly all of them on
    // theorems an earlier slot had drawn.
    let first = g.prove_derived(prover, &premises, t.id);
    let Verdict::Theorem { refutation } = first.verdict else {
        walk.learned.push((key, UNPROVED_NOTE.to_string()));
        return Err(Reject::Unknown);
    };
    let deletion = match deletion_pass(
        g,
        t.id,
        &premises,
        cap,
        prover,
        rng,
        (refutation, first.stats.processed),
    ) {
        Ok(d) => d,
        Err(Reject::Unknown) => {
            // A value of its own per pass (notes keep distinct values), so
            // later attempts can count the theorem's undecided passes.
            let id: u64 = rng.random();
            walk.learned
                .push((key, format!("{UNDECIDED_NOTE} {id:016x}")));
            return Err(Reject::Unknown);
        }
        Err(e) => return Err(e),
    };
    let Deletion {
        m,
        proof,
        kept_by,
        mut calls,
        mut processed,
    } = deletion;
    if m.len() > cap {
        return Err(Reject::TooManyPremises);
    }
    let predicted = Predicted::of(m.iter().map(|&c| g.text(c)).collect())?;
    walk.learned.push((key, predicted.note()));
    if let Some(reject) = walk.skip(&predicted) {
        return Err(reject);
    }
    let k = pool_size - m.len();
    let with_models: Vec<(ClauseId, Option<FiniteModel>)> = m
        .iter()
        .map(|&q| {
            let model = kept_by.iter().find(|(p, _)| *p == q);
            (q, model.map(|(_, model)| model.clone()))
        })
        .collect();
    // Premise-pool clauses first, then twins, then graph distractors for
    // the rest.
    let theorem = g.text(t.id);
    let mut stand_ins = StandIns::new(g, t.id, with_models, prover);
    // Countermodels of the searches a pool failed: each falsifies the
    // theorem, so the next pool's search starts from them.
    let mut spare_models: Vec<FiniteModel> = Vec::new();
    let mut repairs = 0;
    let (entries, pool_texts, mut keys, second) = loop {
        let mut taken: HashSet<String> = premises.iter().map(|&c| g.canon(c)).collect();
        taken.insert(tcanon.clone());
        let mut distractors = pooled_distractors(
            g,
            t.id,
            (d, cap, cfg.max_premises),
            &premises,
            &m,
            k,
            &mut stand_ins,
            rng,
            walk.leading,
        );
        taken.extend(distractors.iter().map(|&c| g.canon(c)));
        // A pool that will have two premises without a look-alike whatever
        // fills its last slots is refused now, before the twin search and
        // its stand-in checks (`unmatched_at_best`).
        let slots = k - distractors.len();
        let mut texts = stand_ins.texts.clone();
        texts.extend(distractors.iter().map(|&c| g.text(c)));
        let premise: Vec<bool> = (0..texts.len()).map(|i| i < m.len()).collect();
        if distractors::unmatched_at_best(&texts, &premise, &theorem, slots)
            .is_some_and(|n| n > MAX_UNMATCHED)
        {
            return Err(Reject::UnmatchedPremises);
        }
        let twins = twins_of(taken, slots, &mut stand_ins, rng);
        let pooled = distractors.clone();
        distractors.extend(matched_distractors(
            g,
            t.id,
            &premises,
            &m,
            &pooled,
            k - distractors.len() - twins.len(),
            &mut stand_ins,
            rng,
        ));
        distractors.sort_unstable();
        if distractors.len() + twins.len() < k {
            return Err(Reject::NoDistractors);
        }
        // Pool entries: the premises of M, then the graph distractors,
        // then the twins (in that order before the shuffle).
        let mut entries: Vec<(String, bool, bool)> = m
            .iter()
            .map(|&c| (g.text(c), true, false))
            .chain(distractors.iter().map(|&c| (g.text(c), false, false)))
            .chain(twins.into_iter().map(|x| (x, false, true)))
            .collect();
        entries.shuffle(rng);
        let pool_texts: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
        let mut all = pool_texts.clone();
        all.push(theorem.clone());
        let (bank, mut clauses) = super::parse_clauses(&all).map_err(|_| Reject::Degenerate)?;
        let tlits = clauses.pop().expect("theorem");
        // Canonical forms of the pool (variants compare equal): what the
        // background must not list, and the instance's deduplication key.
        let keys: Vec<String> = clauses
            .iter()
            .map(|c| crate::logic::canonical_clause(&bank, c))
            .collect();
        let premise: Vec<bool> = entries.iter().map(|e| e.1).collect();
        if unmatched(&bank, &clauses, &pool_texts, &premise, &tlits) > MAX_UNMATCHED {
            return Err(Reject::UnmatchedPremises);
        }
        let required = entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.1)
            .fold(0u32, |acc, (i, _)| acc | 1 << i);
        let known: Vec<FiniteModel> = stand_ins
            .known_models()
            .chain(&spare_models)
            .cloned()
            .collect();
        // Per premise of M, made when the search first asks: a finder of
        // the rest of M with sorts that fit the pool's distractors.
        let hints: Vec<&str> = entries
            .iter()
            .filter(|e| !e.1)
            .map(|e| e.0.as_str())
            .collect();
        let mut finders: Vec<Option<Option<Extender>>> = (0..m.len()).map(|_| None).collect();
        let mut warm = |q: usize, others: &[usize]| {
            let q = stand_ins.texts.iter().position(|p| *p == pool_texts[q])?;
            let others: Vec<&str> = others.iter().map(|&i| pool_texts[i].as_str()).collect();
            let finder = finders[q].get_or_insert_with(|| stand_ins.finder_with(q, &hints));
            stand_ins.model_with(finder.as_mut()?, &others)
        };
        let found = minimum_detail(
            &bank,
            prover,
            &clauses,
            &pool_texts,
            &theorem,
            &tlits,
            m.len(),
            required,
            Some(&proof),
            &known,
            Some(&mut warm),
        );
        // Every minimum answer must come from the depth-d premises: a
        // distractor that helps prove the theorem is not a distractor.
        let (entailing, models) = match found {
            Ok(second) => {
                let outside = second
                    .answers
                    .iter()
                    .fold(0u32, |acc, (mask, _)| acc | (mask & !required));
                if outside == 0 {
                    break (entries, pool_texts, keys, second);
                }
                calls += second.calls;
                processed += second.processed;
                (outside, second.covers.into_iter().map(|(_, m)| m).collect())
            }
            Err(f) => {
                calls += f.calls;
                processed += f.processed;
                if f.reject != Reject::DistractorEntails || f.entailing == 0 {
                    return Err(f.reject);
                }
                (f.entailing, f.models)
            }
        };
        // The distractors that helped are banned and the pool is drawn
        // again, the premises, their stand-in checks and every countermodel
        // found kept: a distractor that entails was a third of GEO
        // selection's CPU at levels 3-4, each refused after its whole
        // minimum search.
        if repairs == MAX_REPAIRS {
            return Err(Reject::DistractorEntails);
        }
        repairs += 1;
        for i in indices(entailing) {
            stand_ins.banned.insert(pool_texts[i].clone());
        }
        spare_models.extend(models);
    };
    calls += stand_ins.calls;
    processed += stand_ins.processed;
    let pool_keys: HashSet<String> = keys.iter().cloned().collect();
    let first = Search {
        size: m.len(),
        answers: Vec::new(),
        covers: Vec::new(),
        processed,
        calls,
    };
    let one_based = |mask: u32| indices(mask).into_iter().map(|i| i + 1).collect::<Vec<_>>();
    let cert = Certificate {
        verdict: "minimum_premises".into(),
        size: second.size,
        answers: second
            .answers
            .iter()
            .map(|(mask, r)| Answer {
                premises: one_based(*mask),
                refutation: r.clone(),
            })
            .collect(),
        countermodels: second
            .covers
            .iter()
            .map(|(sat, model)| Cover {
                satisfies: one_based(*sat),
                model: model.clone(),
            })
            .collect(),
    };
    let gold = cert.answers[0].premises.clone();
    // The answer's clauses, canonical and sorted: rows that share them are
    // limited per cell (`max_answer_share`).
    let group = {
        let mut g: Vec<&str> = gold.iter().map(|&i| keys[i - 1].as_str()).collect();
        g.sort_unstable();
        g.join("\n")
    };
    let answer = format_answer(&gold);
    let mut meta = g.base_metadata(t, d, k as u32);
    shown_background(g, t.id, &pool_keys).store(&mut meta);
    let obj = meta.as_object_mut().expect("object");
    obj.insert(
        "premises".into(),
        premises
            .iter()
            .map(|&p| g.text(p))
            .collect::<Vec<_>>()
            .into(),
    );
    obj.insert("pool".into(), pool_texts.clone().into());
    obj.insert(
        "perturbed".into(),
        (1..=entries.len())
            .filter(|&i| entries[i - 1].2)
            .collect::<Vec<_>>()
            .into(),
    );
    obj.insert("answer_size".into(), gold.len().into());
    obj.insert("minimum_answers".into(), cert.answers.len().into());
    obj.insert(
        "prover".into(),
        serde_json::json!({
            "calls": first.calls + second.calls,
            "processed": first.processed + second.processed,
            "countermodels": cert.countermodels.len(),
        }),
    );
    let background = Background::from_metadata(&meta).unwrap_or_default();
    let prompt = render(&g.domain, &background, &g.text(t.id), &pool_texts);
    Ok(Built {
        prompt,
        answer,
        metadata: meta,
        certificate: serde_json::to_value(&cert).expect("serialisable"),
        key: {
            keys.sort();
            format!("{}\n?{}", keys.join("\n"), tcanon)
        },
        group: Some(group),
        label: format!("size {}", gold.len()),
        prover_processed: first.processed + second.processed,
    })
}
