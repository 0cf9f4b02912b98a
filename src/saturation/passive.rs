//! The passive clause set: queues over the same entries, one by weight, one
//! by age and, optionally, one by weight over the goal's descendants only
//! (a set-of-support queue, Wos, Robinson & Carson 1965), interleaved at
//! fixed ratios (the pick-given ratio of Otter and E). An entry leaves
//! lazily: an entry taken from one queue is skipped when met in another.
//!
//! A clause may have several entries. As in E, whose unprocessed set keeps
//! every copy of a re-derived clause until each copy is selected and found
//! redundant, the loop queues one more entry for a clause each time it is
//! derived again (see `Params::requeue_duplicates`); taking such an entry
//! after its clause left the passive set is a selection that is immediately
//! redundant. Records are never duplicated: an entry is an index into a list
//! of clause ids.

use super::store::ClauseId;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Interleaved weight and age queues over entries.
#[derive(Debug, Default)]
pub struct Passive {
    entries: Vec<ClauseId>,
    taken: Vec<bool>,
    by_weight: BinaryHeap<Reverse<(u32, u32)>>,
    goal_by_weight: BinaryHeap<Reverse<(u32, u32)>>,
    by_age: VecDeque<u32>,
    weight_picks: u32,
    goal_picks: u32,
    counter: u64,
    /// A queue mix ([`Passive::with_mix`]): one heap per queue, keyed by
    /// (key, entry), and the cycle of queue indices, each repeated by its
    /// ratio.
    mix: Vec<BinaryHeap<Reverse<(u64, u32)>>>,
    mix_cycle: Vec<u8>,
}

impl Passive {
    /// Empty queues; `weight_picks` picks by weight for each pick by age.
    pub fn new(weight_picks: u32) -> Self {
        Passive {
            weight_picks,
            ..Default::default()
        }
    }

    /// Empty queues with a goal queue: per cycle, `goal_picks` picks of the
    /// lightest goal entry, `weight_picks` picks by weight, one by age.
    pub fn with_goal_queue(weight_picks: u32, goal_picks: u32) -> Self {
        Passive {
            weight_picks,
            goal_picks,
            ..Default::default()
        }
    }

    /// Empty queues of a mix: queue `i` is picked `ratios[i]` times per
    /// cycle, in order; entries come with one key per queue
    /// ([`Passive::push_keyed`]), smaller first, ties to the older entry.
    /// At most 255 queues.
    pub fn with_mix(ratios: &[u32]) -> Self {
        let mut mix_cycle = Vec::new();
        for (i, &r) in ratios.iter().enumerate().take(255) {
            for _ in 0..r.max(1) {
                mix_cycle.push(i as u8);
            }
        }
        Passive {
            mix: ratios.iter().take(255).map(|_| BinaryHeap::new()).collect(),
            mix_cycle,
            ..Default::default()
        }
    }

    /// True for the queues of [`Passive::with_mix`].
    pub fn is_mix(&self) -> bool {
        !self.mix.is_empty()
    }

    /// Adds an entry to a mix with its key in each queue (as many keys as
    /// queues).
    pub fn push_keyed(&mut self, id: ClauseId, keys: &[u64]) {
        debug_assert_eq!(keys.len(), self.mix.len());
        let e = self.entries.len() as u32;
        self.entries.push(id);
        self.taken.push(false);
        for (q, &k) in self.mix.iter_mut().zip(keys) {
            q.push(Reverse((k, e)));
        }
        self.by_age.push_back(e);
    }

    fn pop_mix(&mut self) -> Option<ClauseId> {
        let slot = (self.counter % self.mix_cycle.len() as u64) as usize;
        self.counter = self.counter.wrapping_add(1);
        let first = self.mix_cycle[slot] as usize;
        // Every queue holds every entry: when the chosen one is exhausted,
        // so are the others.
        let n = self.mix.len();
        for k in 0..n {
            let q = &mut self.mix[(first + k) % n];
            while let Some(Reverse((_, e))) = q.pop() {
                if !std::mem::replace(&mut self.taken[e as usize], true) {
                    return Some(self.entries[e as usize]);
                }
            }
        }
        None
    }

    /// Adds an entry for a clause with its selection weight.
    pub fn push(&mut self, id: ClauseId, weight: u32) {
        self.push_entry(id, weight, false);
    }

    /// Adds an entry; a `goal` entry also joins the goal queue.
    pub fn push_entry(&mut self, id: ClauseId, weight: u32, goal: bool) {
        let e = self.entries.len() as u32;
        self.entries.push(id);
        self.taken.push(false);
        self.by_weight.push(Reverse((weight, e)));
        if goal && self.goal_picks > 0 {
            self.goal_by_weight.push(Reverse((weight, e)));
        }
        self.by_age.push_back(e);
    }

    /// Takes the next entry and returns its clause, or `None` when no entry
    /// is left. Ties in weight go to the older entry. A pick whose queue is
    /// empty falls back to the weight queue, then to the age queue.
    pub fn pop(&mut self) -> Option<ClauseId> {
        if self.is_mix() {
            return self.pop_mix();
        }
        self.counter = self.counter.wrapping_add(1);
        // In u64: the cycle length cannot wrap to a zero divisor.
        let goal = u64::from(self.goal_picks);
        let cycle = goal + u64::from(self.weight_picks) + 1;
        let slot = self.counter % cycle;
        let first = if slot == 0 {
            self.pop_age()
        } else if slot <= goal {
            self.pop_goal().or_else(|| self.pop_weight())
        } else {
            self.pop_weight()
        };
        first
            .or_else(|| {
                if slot == 0 {
                    self.pop_weight()
                } else {
                    self.pop_age()
                }
            })
            .map(|e| self.entries[e as usize])
    }

    fn pop_goal(&mut self) -> Option<u32> {
        while let Some(Reverse((_, e))) = self.goal_by_weight.pop() {
            if !std::mem::replace(&mut self.taken[e as usize], true) {
                return Some(e);
            }
        }
        None
    }

    fn pop_weight(&mut self) -> Option<u32> {
        while let Some(Reverse((_, e))) = self.by_weight.pop() {
            if !std::mem::replace(&mut self.taken[e as usize], true) {
                return Some(e);
            }
        }
        None
    }

    fn pop_age(&mut self) -> Option<u32> {
        while let Some(e) = self.by_age.pop_front() {
            if !std::mem::replace(&mut self.taken[e as usize], true) {
                return Some(e);
            }
        }
        None
    }

    /// Entries not yet taken.
    pub fn len(&self) -> usize {
        self.by_age
            .iter()
            .filter(|&&e| !self.taken[e as usize])
            .count()
    }

    /// True when every entry was taken.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaves_weight_and_age() {
        let mut p = Passive::new(2);
        for (i, w) in [9, 1, 5, 3].into_iter().enumerate() {
            p.push(ClauseId(i as u32), w);
        }
        let mut order = Vec::new();
        while let Some(c) = p.pop() {
            order.push(c.0);
        }
        // weight (1), weight (3), age (0), weight (2): taken entries skipped.
        assert_eq!(order, vec![1, 3, 0, 2]);
    }

    #[test]
    fn goal_queue_takes_goal_entries_first_in_its_slots() {
        // Cycle: goal, weight, age.
        let mut p = Passive::with_goal_queue(1, 1);
        p.push_entry(ClauseId(0), 9, false);
        p.push_entry(ClauseId(1), 1, false);
        p.push_entry(ClauseId(2), 7, true);
        p.push_entry(ClauseId(3), 5, true);
        let mut order = Vec::new();
        while let Some(c) = p.pop() {
            order.push(c.0);
        }
        // goal (3, lightest goal), weight (1), age (0), goal (2).
        assert_eq!(order, vec![3, 1, 0, 2]);
    }

    #[test]
    fn without_goal_picks_goal_entries_are_plain() {
        let mut a = Passive::new(2);
        let mut b = Passive::with_goal_queue(2, 0);
        for (i, w) in [4, 2, 8, 1].into_iter().enumerate() {
            a.push(ClauseId(i as u32), w);
            b.push_entry(ClauseId(i as u32), w, i % 2 == 0);
        }
        let drain = |p: &mut Passive| std::iter::from_fn(|| p.pop()).collect::<Vec<_>>();
        assert_eq!(drain(&mut a), drain(&mut b));
    }

    #[test]
    fn a_mix_picks_its_queues_in_turn_by_ratio() {
        // Queue 0 (ratio 2) orders by key, queue 1 (ratio 1) by age.
        let mut p = Passive::with_mix(&[2, 1]);
        for (i, k) in [9, 1, 5, 3, 7].into_iter().enumerate() {
            p.push_keyed(ClauseId(i as u32), &[k, 0]);
        }
        let order: Vec<u32> = std::iter::from_fn(|| p.pop()).map(|c| c.0).collect();
        // Cycle: queue 0, queue 0, queue 1, again -- key 1 (entry 1), key 3
        // (entry 3), the oldest (entry 0), key 5 (entry 2), key 7 (entry 4).
        assert_eq!(order, vec![1, 3, 0, 2, 4]);
        assert!(p.is_empty());
    }

    #[test]
    fn every_entry_of_a_clause_is_taken_once() {
        let mut p = Passive::new(1);
        p.push(ClauseId(0), 4);
        p.push(ClauseId(1), 2);
        p.push(ClauseId(0), 4);
        assert_eq!(p.len(), 3);
        let mut order = Vec::new();
        while let Some(c) = p.pop() {
            order.push(c.0);
        }
        // weight (1), age (0, first entry), weight (0, second entry).
        assert_eq!(order, vec![1, 0, 0]);
        assert!(p.is_empty());
    }
}
