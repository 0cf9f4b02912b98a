//! The exact minimum search of premise selection: subsets of the pool
//! classified largest first, each either proved or covered by a
//! countermodel of a larger satisfied set (monotonicity of entailment;
//! Liffiton et al., "Fast, flexible MUS enumeration", Constraints 2016).

use super::super::Reject;
use crate::checker;
use crate::logic::{Literal, TermBank};
use crate::prover::{Evidence, FiniteModel, Prover, Refutation, Verdict};

/// The largest model selection's searches look for before saturating:
/// nearly every countermodel they find is this small (SET and GEO levels
/// 3-4: 2,990 of 3,010 of size 3 or less), and searching size 4 first
/// made the subsets that do prove the theorem slower (GEO level 4: 2.8 vs
/// 3.4 ms a call); saturating first made SET level 4 40% slower.
pub const MODELS_FIRST_SIZE: u32 = 3;

pub(super) struct Search {
    pub(super) size: usize,
    pub(super) answers: Vec<(u32, Refutation)>,
    pub(super) covers: Vec<(u32, FiniteModel)>,
    pub(super) processed: u64,
    pub(super) calls: u64,
}

/// Why a [`minimum_detail`] search stopped without a certified minimum.
pub(super) struct Failed {
    pub(super) reject: Reject,
    /// For [`Reject::DistractorEntails`]: the pool positions of the
    /// distractors the offending proof used (their whole subset when the
    /// proof names none), so that a caller may draw others in their place.
    pub(super) entailing: u32,
    /// The countermodels the search had found: each falsifies the theorem,
    /// so a search over a pool with other distractors may start from them.
    pub(super) models: Vec<FiniteModel>,
    /// Prover calls the search made, and their given clauses.
    pub(super) calls: u64,
    pub(super) processed: u64,
}

/// A countermodel of M without premise `q` (a pool position of M) and the
/// pool clauses at positions `others` (distractors), when the caller has a
/// warm finder for it ([`minimum_detail`]).
pub(super) type Warm<'a> = &'a mut dyn FnMut(usize, &[usize]) -> Option<FiniteModel>;

/// All subsets of `0..n` with `s` elements, as bit masks in increasing order.
pub(super) fn subsets(n: usize, s: usize) -> Vec<u32> {
    if s == 0 {
        return vec![0];
    }
    if s > n {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut m: u32 = (1u32 << s) - 1;
    let limit = 1u32 << n;
    while m < limit {
        out.push(m);
        // Gosper's hack: the next larger integer with the same popcount.
        let c = m & m.wrapping_neg();
        let r = m + c;
        m = (((r ^ m) >> 2) / c) | r;
    }
    out
}

/// The number of `s`-element subsets of `n` (`subsets(n, s).len()`,
/// without listing them), saturating.
pub(super) fn binomial(n: usize, s: usize) -> u64 {
    if s > n {
        return 0;
    }
    let s = s.min(n - s) as u64;
    let mut c = 1u64;
    for i in 0..s {
        // Exact at each step: c * (n - i) is divisible by i + 1.
        c = c.saturating_mul(n as u64 - i) / (i + 1);
    }
    c
}

/// The pool clauses of `mask`.
fn subset(pool: &[Vec<Literal>], mask: u32) -> Vec<&[Literal]> {
    indices(mask)
        .into_iter()
        .map(|i| pool[i].as_slice())
        .collect()
}

pub(super) fn indices(mask: u32) -> Vec<usize> {
    (0..32).filter(|i| mask >> i & 1 == 1).collect()
}

/// Exact minimum search over `pool` for theorem `t`, which some subset of
/// `max_size` clauses (the irredundant set M) is known to prove.
///
/// Largest uncovered subsets first: every subset of size `max_size - 1`
/// is classified (proved, or covered by a countermodel), then, while that
/// size still has proofs, the size below, and so on; the smallest size
/// with proofs is the minimum (every subset one smaller has a countermodel,
/// and so, by monotonicity, has every smaller subset), and its subsets are
/// classified last when no smaller size had a proof. A model of a large
/// subset satisfies all of its subsets, so one prover call covers far more
/// than a model of a small one: searching sizes upwards from 0 asked for
/// models of every small subset the larger models then covered anyway.
///
/// `required` holds the pool positions of M's premises, and `proved` a
/// refutation of them with the negated theorem when one is known (the
/// deletion pass's): M's own subset then needs no prover call. `known` are
/// countermodels found before the pool was drawn (the deletion
/// pass's and the stand-in checks'): each is evaluated on the pool, and a
/// subset one of them covers needs no prover call; a known model enters
/// the certificate only when it covers a subset no earlier cover did.
///
/// The prover searches models up to [`MODELS_FIRST_SIZE`] before
/// saturating ([`Prover::models_first`]) for subsets smaller than M: most
/// of them have one (SET level 4: four in five calls), and the saturation
/// before it was most of their cost.
///
/// `warm`, when given, answers for a subset without premise `q` of M with
/// a model from the caller's finder of the rest of M (see [`Warm`]),
/// asked before each model search of the prover's: the model also
/// satisfies the rest of M, so it covers more, for the price of a query on
/// a solver that already holds M without `q` (GEO level 4 at count 50:
/// 10,090 prover calls without it, 5,509 with it, and the same rows).
///
/// On failure it says which distractors entailed the theorem and which
/// countermodels were found ([`Failed`]), so that the caller may draw other
/// distractors and search again from those models.
#[allow(clippy::too_many_arguments)]
pub(super) fn minimum_detail<'m>(
    bank: &TermBank,
    prover: &mut Prover,
    pool: &[Vec<Literal>],
    texts: &[String],
    theorem: &str,
    t: &[Literal],
    max_size: usize,
    required: u32,
    proved: Option<&Refutation>,
    known: impl IntoIterator<Item = &'m FiniteModel>,
    warm: Option<Warm<'_>>,
) -> Result<Search, Failed> {
    let was = std::mem::replace(&mut prover.models_first, MODELS_FIRST_SIZE);
    let mut st = Search {
        size: 0,
        answers: Vec::new(),
        covers: Vec::new(),
        processed: 0,
        calls: 0,
    };
    let out = search(
        bank, prover, pool, texts, theorem, t, max_size, required, proved, known, warm, &mut st,
    );
    prover.models_first = was;
    match out {
        Ok(()) => Ok(st),
        Err((reject, entailing)) => Err(Failed {
            reject,
            entailing,
            models: st.covers.into_iter().map(|(_, m)| m).collect(),
            calls: st.calls,
            processed: st.processed,
        }),
    }
}

/// [`minimum_detail`]'s search.
#[allow(clippy::too_many_arguments)]
fn search<'m>(
    bank: &TermBank,
    prover: &mut Prover,
    pool: &[Vec<Literal>],
    texts: &[String],
    theorem: &str,
    t: &[Literal],
    max_size: usize,
    required: u32,
    proved: Option<&Refutation>,
    known: impl IntoIterator<Item = &'m FiniteModel>,
    mut warm: Option<Warm<'_>>,
    st: &mut Search,
) -> Result<(), (Reject, u32)> {
    // Each pool clause parsed once, evaluated in every model.
    let parsed: Vec<Option<checker::ModelClause>> = texts
        .iter()
        .map(|text| checker::ModelClause::parse(text).ok())
        .collect();
    let satisfied = |model: &FiniteModel| -> u32 {
        let Ok(tables) = checker::ModelTables::of(model) else {
            return 0;
        };
        let mut sat = 0u32;
        for (i, c) in parsed.iter().enumerate() {
            if c.as_ref()
                .is_some_and(|c| c.holds_in(&tables).unwrap_or(false))
            {
                sat |= 1 << i;
            }
        }
        sat
    };
    // Known models that falsify the theorem, with the pool clauses each
    // satisfies (those satisfying none cover only the empty set, which the
    // search asks the prover about anyway).
    let mut spare: Vec<(u32, FiniteModel)> = known
        .into_iter()
        .filter(|m| checker::model_satisfies(m, theorem) == Ok(false))
        .map(|m| (satisfied(m), m.clone()))
        .filter(|(sat, _)| *sat != 0)
        .collect();
    // Top down first: a countermodel of the whole pool but premise `q` of
    // M covers every subset without `q`. When each premise of M has one,
    // every subset but those holding all of M is covered, and the search
    // below asks the prover about M alone: |M| + 1 calls where classifying
    // subsets by size made dozens (SET level 4: 32 model searches per
    // row). A premise whose call proves the theorem (another answer may
    // exist) or is undecided is left to that search.
    let full: u32 = if pool.len() >= 32 {
        u32::MAX
    } else {
        (1u32 << pool.len()) - 1
    };
    // At the quick budget: an undecided call here only sends the premise
    // to the search below, so it must cost little (at the full budget the
    // undecided ones cost 30 ms each on SET level 4, two thirds of the
    // phase). Its model search stops at the stand-in checks' conflicts:
    // the models these calls find take few, and with the quick budget's
    // the undecided ones were 7.0 of their 8.4 CPU-s on GEO levels 2-4 at
    // count 50 (552 of 1,518 calls), nearly all in model search; at 200
    // conflicts 4.7 s, with 9 more undecided and 14 more calls below.
    // It searches models only, to `MODELS_FIRST_SIZE`: the saturation
    // after a failed search (40 given clauses) was most of the cost of the
    // undecided calls (GEO levels 2-4 at count 50: 502 calls of 5.5 ms,
    // against 585 that found a model at 1.8 ms), and its proofs only
    // refused a pool early that the search below refuses too (selection
    // on four sources at count 50: ×1.03 and ×1.09 in two paired runs).
    let mut quick = Prover::new(super::distractors::stand_in_conflicts(
        super::distractors::quick_limits(&prover.limits),
    ));
    quick.params = prover.params.clone();
    quick.check_work = prover.check_work;
    quick.models_first = MODELS_FIRST_SIZE;
    quick.limits.quick_processed = 0;
    quick.limits.max_processed = 0;
    quick.limits.quick_model_size = quick.limits.quick_model_size.min(MODELS_FIRST_SIZE);
    quick.limits.max_model_size = quick.limits.max_model_size.min(MODELS_FIRST_SIZE);
    // Only where it can save calls: with |M| subsets or fewer one below M
    // (level 1: a pool of 4, M of 2), classifying them costs no more.
    let m = required.count_ones() as usize;
    let below = binomial(pool.len(), m.saturating_sub(1));
    let top_down = if below > m as u64 { required } else { 0 };
    // The premises whose top-down call ended undecided: `classify` searches
    // models first for the subsets of M's size without one of them.
    let mut undecided = 0u32;
    for q in indices(top_down) {
        let mask = full & !(1u32 << q);
        if st.covers.iter().any(|(sat, _)| mask & !sat == 0) {
            continue;
        }
        if let Some(j) = spare.iter().position(|(sat, _)| mask & !sat == 0) {
            st.covers.push(spare.swap_remove(j));
            continue;
        }
        let o = quick.prove(bank, &subset(pool, mask), t);
        st.calls += 1;
        st.processed += o.stats.processed;
        match o.verdict {
            Verdict::CounterSatisfiable {
                evidence: Evidence::Model { model },
            } => {
                let sat = satisfied(&model);
                st.covers.push((sat | mask, model));
            }
            Verdict::Theorem { refutation } => {
                // Without a saturation, only from the input's own
                // contradictions. The pool clauses the proof uses: without
                // `q`, so at least one is not in M (no proper subset of the
                // irredundant M proves the theorem). If they are no more
                // than M, the minimum answers are that small and each holds
                // a clause outside M: the row would be refused as
                // `distractor_entails` after the whole search.
                let used = used_mask(&refutation, mask);
                if used != 0 && used.count_ones() <= required.count_ones() {
                    return Err((Reject::DistractorEntails, used & !required));
                }
            }
            _ => undecided |= 1 << q,
        }
    }
    // Every subset of size `s` not yet covered: proved (returned) or
    // covered by a new countermodel.
    let mut classify =
        |s: usize, st: &mut Search| -> Result<Vec<(u32, Refutation)>, (Reject, u32)> {
            let mut answers = Vec::new();
            // Below M's size most subsets have a countermodel; at M's size the
            // ones left are mostly proofs, whose model search first (UNSAT at
            // every size, with the full budgets) only costs: GEO level 1 cell
            // CPU 0.10 s saturating first there, 0.24 s searching first. But
            // a subset of M's size without a premise whose top-down call was
            // undecided is one that call would have covered, and nearly all
            // of them have a small model (GEO levels 2-4 at count 50: 3,986
            // of 4,085 such calls found one, at 1.36 ms each saturating
            // first, 0.51 searching first).
            for mask in subsets(pool.len(), s) {
                prover.models_first = if s < max_size || mask & undecided != undecided {
                    MODELS_FIRST_SIZE
                } else {
                    0
                };
                if st.covers.iter().any(|(sat, _)| mask & !sat == 0) {
                    continue;
                }
                // The known model covering the most, among those that cover it.
                if let Some(j) = (0..spare.len())
                    .filter(|&j| mask & !spare[j].0 == 0)
                    .max_by_key(|&j| (spare[j].0.count_ones(), usize::MAX - j))
                {
                    st.covers.push(spare.swap_remove(j));
                    continue;
                }
                if let Some(r) = proved.filter(|_| mask == required && s > 0) {
                    answers.push((mask, r.clone()));
                    continue;
                }
                // A subset without a premise of M whose top-down call was
                // undecided (or, below M's size, without any premise)
                // first asks the caller's warm finder of the rest of M for
                // a model of it: one that satisfies the rest of M too
                // covers more, and the query costs less than a search.
                let lacking = match required & !mask & undecided {
                    0 => required & !mask,
                    l => l,
                };
                if prover.models_first > 0
                    && lacking != 0
                    && let Some(model) = warm.as_mut().and_then(|w| {
                        w(
                            lacking.trailing_zeros() as usize,
                            &indices(mask & !required),
                        )
                    })
                {
                    // Read back by the checker: used only as a
                    // countermodel of this subset.
                    let sat = satisfied(&model);
                    if mask & !sat == 0 && checker::model_satisfies(&model, theorem) == Ok(false) {
                        st.covers.push((sat, model));
                        continue;
                    }
                }
                let o = prover.prove(bank, &subset(pool, mask), t);
                st.calls += 1;
                st.processed += o.stats.processed;
                match o.verdict {
                    Verdict::Theorem { refutation } => {
                        if s == 0 {
                            return Err((Reject::Degenerate, 0));
                        }
                        if mask & !required != 0 {
                            // A proof with a clause outside M, of M's size or
                            // less: it, or a smaller proof below it (M is
                            // irredundant, so any proof smaller than M holds a
                            // distractor too), is a minimum answer with a
                            // distractor, and the row would be refused once
                            // the search ended (GEO level 4: 71 of 134 searches
                            // run to the end were).
                            let used = used_mask(&refutation, mask) & !required;
                            let entailing = if used == 0 { mask & !required } else { used };
                            return Err((Reject::DistractorEntails, entailing));
                        }
                        answers.push((mask, refutation));
                    }
                    Verdict::CounterSatisfiable {
                        evidence: Evidence::Model { model },
                    } => {
                        let sat = satisfied(&model);
                        // The prover's model satisfies the subset it was built for.
                        debug_assert_eq!(mask & !sat, 0);
                        st.covers.push((sat | mask, model));
                    }
                    Verdict::CounterSatisfiable { .. } => return Err((Reject::NoModel, 0)),
                    Verdict::Unknown => return Err((Reject::Unknown, 0)),
                }
            }
            Ok(answers)
        };
    let mut size = max_size.min(pool.len());
    let mut found = None;
    while size > 0 {
        let below = classify(size - 1, st)?;
        if below.is_empty() {
            break;
        }
        size -= 1;
        found = Some(below);
    }
    let answers = match found {
        Some(a) => a,
        None => classify(size, st)?,
    };
    if answers.is_empty() {
        return Err((Reject::Unknown, 0));
    }
    st.size = size;
    st.answers = answers;
    Ok(())
}

/// The pool positions (within `mask`, whose clauses the prover was given
/// in increasing position) of the premises `refutation` uses.
fn used_mask(refutation: &Refutation, mask: u32) -> u32 {
    let within = indices(mask);
    crate::prover::premises_used(refutation)
        .into_iter()
        .filter_map(|j| within.get(j))
        .fold(0u32, |acc, &i| acc | 1 << i)
}
