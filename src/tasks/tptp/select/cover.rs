//! The exact minimum search of premise selection: subsets of the pool
//! classified largest first, each either proved or covered by a
//! countermodel of a larger satisfied set (monotonicity of entailment;
//! Liffiton et al., "Fast, flexible MUS enumeration", Constraints 2016).

use super::super::Reject;
use crate::checker;
use crate::logic::{Literal, TermBank};
use crate::prover::{Evidence, FiniteModel, Prover, Refutation, Verdict};

pub(super) struct Search {
    pub(super) size: usize,
    pub(super) answers: Vec<(u32, Refutation)>,
    pub(super) covers: Vec<(u32, FiniteModel)>,
    pub(super) processed: u64,
    pub(super) calls: u64,
}

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
pub(super) fn minimum(
    bank: &TermBank,
    prover: &mut Prover,
    pool: &[Vec<Literal>],
    texts: &[String],
    t: &[Literal],
    max_size: usize,
) -> Result<Search, Reject> {
    let mut st = Search {
        size: 0,
        answers: Vec::new(),
        covers: Vec::new(),
        processed: 0,
        calls: 0,
    };
    // Every subset of size `s` not yet covered: proved (returned) or
    // covered by a new countermodel.
    let mut classify = |s: usize, st: &mut Search| -> Result<Vec<(u32, Refutation)>, Reject> {
        let mut answers = Vec::new();
        for mask in subsets(pool.len(), s) {
            if st.covers.iter().any(|(sat, _)| mask & !sat == 0) {
                continue;
            }
            let subset: Vec<&[Literal]> = indices(mask)
                .into_iter()
                .map(|i| pool[i].as_slice())
                .collect();
            let o = prover.prove(bank, &subset, t);
            st.calls += 1;
            st.processed += o.stats.processed;
            match o.verdict {
                Verdict::Theorem { refutation } => {
                    if s == 0 {
                        return Err(Reject::Degenerate);
                    }
                    answers.push((mask, refutation));
                }
                Verdict::CounterSatisfiable {
                    evidence: Evidence::Model { model },
                } => {
                    let mut sat = 0u32;
                    for (i, text) in texts.iter().enumerate() {
                        if checker::model_satisfies(&model, text).unwrap_or(false) {
                            sat |= 1 << i;
                        }
                    }
                    // The prover's model satisfies the subset it was built for.
                    debug_assert_eq!(mask & !sat, 0);
                    st.covers.push((sat | mask, model));
                }
                Verdict::CounterSatisfiable { .. } => return Err(Reject::NoModel),
                Verdict::Unknown => return Err(Reject::Unknown),
            }
        }
        Ok(answers)
    };
    let mut size = max_size.min(pool.len());
    let mut found = None;
    while size > 0 {
        let below = classify(size - 1, &mut st)?;
        if below.is_empty() {
            break;
        }
        size -= 1;
        found = Some(below);
    }
    let answers = match found {
        Some(a) => a,
        None => classify(size, &mut st)?,
    };
    if answers.is_empty() {
        return Err(Reject::Unknown);
    }
    st.size = size;
    st.answers = answers;
    Ok(st)
}
