//! The rounds of iterative saturation (`[saturation.iterate]`, AGInT-style:
//! Puzis, Gao and Sutcliffe, FLAIRS 2006): what each round did, which
//! records it promoted to lemmas, and which records descend from a lemma;
//! and the loop itself ([`Saturator::run_rounds`]), which takes the ranking
//! of theorem candidates as an argument (`crate::interest` ranks; it sits
//! above this module).

use super::given_clause::{Saturator, Stats, Status};
use super::store::{ClauseId, ClauseStore, Rule};
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

/// A ranking of a run's theorem candidates, best first, each with its
/// score: what a round promotes its lemmas from.
pub type Ranker<'a> = &'a mut dyn FnMut(&Saturator) -> Vec<(ClauseId, f64)>;

impl Saturator {
    /// Runs saturation in the rounds of `params.iterate` (one round: a
    /// plain [`Saturator::run`]), `total` given clauses in all (each
    /// round's share by [`super::Iterate::round_budget`]; the first
    /// round's share must already be the saturator's limit, as
    /// `from_inputs` was given it). Between rounds, the candidates `rank`
    /// orders are promoted to lemmas (see [`super::Iterate`]) and the next
    /// round starts from the inputs and every lemma so far. `tick` sees the
    /// counters per given clause. Returns how the last round ended and one
    /// report per round (none for a one-round run); the limit is `total`
    /// again afterwards.
    pub fn run_rounds(
        &mut self,
        source: &str,
        total: Option<u64>,
        rank: Ranker<'_>,
        tick: &mut dyn FnMut(&Stats),
    ) -> (Status, Vec<RoundReport>) {
        let iterate = self.params.iterate.clone();
        let mut status = self.run(tick);
        let mut rounds = Vec::new();
        if iterate.rounds > 1 {
            let inputs: Vec<ClauseId> = self
                .store
                .ids()
                .filter(|&c| self.store.get(c).rule == Rule::Input)
                .collect();
            let mut lemmas: Vec<ClauseId> = Vec::new();
            let mut round_start = std::time::Instant::now();
            let mut before = (0u32, 0u64);
            for round in 1..=iterate.rounds {
                let last =
                    round == iterate.rounds || status == Status::Unsatisfiable || self.timed_out;
                let promoted = if last {
                    Vec::new()
                } else {
                    self.promote(&inputs, &lemmas, rank)
                };
                rounds.push(RoundReport {
                    round,
                    first_record: before.0,
                    processed: self.stats.processed - before.1,
                    status,
                    lemmas: promoted.iter().map(|c| c.0).collect(),
                    seconds: round_start.elapsed().as_secs_f64(),
                });
                tracing::info!(
                    "{source}: round {round}: {} ({} processed{}) in {:.1}s",
                    status.name(),
                    self.stats.processed - before.1,
                    if promoted.is_empty() {
                        String::new()
                    } else {
                        format!(", {} lemmas promoted", promoted.len())
                    },
                    round_start.elapsed().as_secs_f64()
                );
                if last {
                    break;
                }
                lemmas.extend(promoted);
                let carried: Vec<ClauseId> = inputs.iter().chain(&lemmas).copied().collect();
                before = (self.store.len() as u32, self.stats.processed);
                round_start = std::time::Instant::now();
                self.params.limits.max_processed = iterate
                    .round_budget(total, round + 1)
                    .map(|b| self.stats.processed + b);
                self.next_round(&carried);
                status = self.run(tick);
            }
        }
        self.params.limits.max_processed = total;
        (status, rounds)
    }

    /// The lemmas a round promotes (see [`super::Iterate`]): the
    /// best-ranked candidates of the run so far with a score of at least
    /// `min_score`, skipping earlier lemmas and any clause that an input,
    /// an earlier lemma or a lemma chosen before it subsumes (variants
    /// included), at most `promote` of them.
    fn promote(
        &mut self,
        inputs: &[ClauseId],
        lemmas: &[ClauseId],
        rank: Ranker<'_>,
    ) -> Vec<ClauseId> {
        let it = self.params.iterate.clone();
        let ranked = rank(self);
        let mut matcher = crate::logic::Matcher::new();
        let mut kept: Vec<ClauseId> = inputs.iter().chain(lemmas).copied().collect();
        let mut out = Vec::new();
        for &(id, score) in &ranked {
            if out.len() >= it.promote as usize || score < it.min_score {
                break;
            }
            let c = self.store.clause(id);
            if c.is_empty() || c.is_tautology() || lemmas.contains(&id) {
                continue;
            }
            let subsumed = kept.iter().any(|&k| {
                super::rules::subsumption::subsumes(
                    &self.bank,
                    &mut matcher,
                    self.store.clause(k),
                    c,
                )
            });
            if !subsumed {
                kept.push(id);
                out.push(id);
            }
        }
        out
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
