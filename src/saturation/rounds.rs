//! The rounds of iterative saturation (`[saturation.iterate]`, AGInT-style:
//! Puzis, Gao and Sutcliffe, FLAIRS 2006): what each round did, which
//! records it promoted to lemmas, and which records descend from a lemma.
//! The loop itself is `pipeline::saturate_until` (it ranks with
//! `crate::interest`, which sits above this module).

use super::given_clause::Status;
use super::store::ClauseStore;
use serde::{Deserialize, Serialize};

/// One round of iterative saturation (deterministic fields only; its
/// wall-clock time is in `seconds`, reported under `timing`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoundReport {
    /// The round (1-based).
    pub round: u32,
    /// The first record the round created (records below it are earlier
    /// rounds' or the inputs').
    pub first_record: u32,
    /// Given clauses the round selected.
    pub processed: u64,
    /// How the round ended.
    pub status: Status,
    /// The records promoted to lemmas at the end of the round (empty for
    /// the last round), best ranked first.
    pub lemmas: Vec<u32>,
    /// Wall-clock seconds of the round, ranking included (timing).
    #[serde(skip)]
    pub seconds: f64,
}

/// Equal when every deterministic field is (the timing is left out, as it
/// is from `summary.json`).
impl PartialEq for RoundReport {
    fn eq(&self, o: &Self) -> bool {
        (
            self.round,
            self.first_record,
            self.processed,
            self.status,
            &self.lemmas,
        ) == (o.round, o.first_record, o.processed, o.status, &o.lemmas)
    }
}

impl RoundReport {
    /// The round (1-based) that created record `id`, given every round of a
    /// run (1 when there are none).
    pub fn round_of(rounds: &[RoundReport], id: u32) -> u32 {
        rounds
            .iter()
            .rev()
            .find(|r| r.first_record <= id)
            .map_or(1, |r| r.round)
    }
}

/// Per record: it was created in round 2 or later and descends (over
/// parents and simplifiers) from a promoted lemma, i.e. it was reached
/// only through an earlier round's lemma. All false for a one-round run.
pub fn via_lemma(store: &ClauseStore, rounds: &[RoundReport]) -> Vec<bool> {
    let n = store.len();
    let mut lemma = vec![false; n];
    for r in rounds {
        for &id in &r.lemmas {
            if let Some(x) = lemma.get_mut(id as usize) {
                *x = true;
            }
        }
    }
    // Ids grow with creation, premises come first: one forward pass.
    let mut below = vec![false; n];
    for (i, rec) in store.records().iter().enumerate() {
        below[i] = rec.premises().any(|p| lemma[p.index()] || below[p.index()]);
    }
    let second = rounds.get(1).map_or(u32::MAX, |r| r.first_record) as usize;
    (0..n).map(|i| i >= second && below[i]).collect()
}
