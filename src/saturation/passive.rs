//! The passive clause set: two queues over the same entries, one by weight
//! and one by age, interleaved at a fixed ratio (the pick-given ratio of
//! Otter and E). An entry leaves lazily: an entry taken from one queue is
//! skipped when met in the other.
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
    by_age: VecDeque<u32>,
    weight_picks: u32,
    counter: u64,
}

impl Passive {
    /// Empty queues; `weight_picks` picks by weight for each pick by age.
    pub fn new(weight_picks: u32) -> Self {
        Passive {
            weight_picks,
            ..Default::default()
        }
    }

    /// Adds an entry for a clause with its selection weight.
    pub fn push(&mut self, id: ClauseId, weight: u32) {
        let e = self.entries.len() as u32;
        self.entries.push(id);
        self.taken.push(false);
        self.by_weight.push(Reverse((weight, e)));
        self.by_age.push_back(e);
    }

    /// Takes the next entry and returns its clause, or `None` when no entry
    /// is left. Ties in weight go to the older entry.
    pub fn pop(&mut self) -> Option<ClauseId> {
        self.counter = self.counter.wrapping_add(1);
        // In u64: `weight_picks + 1` cannot wrap to a zero divisor.
        let by_age = self.counter % (u64::from(self.weight_picks) + 1) == 0;
        let first = if by_age {
            self.pop_age()
        } else {
            self.pop_weight()
        };
        first
            .or_else(|| {
                if by_age {
                    self.pop_weight()
                } else {
                    self.pop_age()
                }
            })
            .map(|e| self.entries[e as usize])
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
