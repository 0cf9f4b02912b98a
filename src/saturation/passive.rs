//! The passive clause set: two queues over the same clauses, one by weight
//! and one by age, interleaved at a fixed ratio (the pick-given ratio of
//! Otter and E). Clauses leave lazily: a clause taken from one queue is
//! skipped when met in the other.

use super::store::ClauseId;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Interleaved weight and age queues.
#[derive(Debug, Default)]
pub struct Passive {
    by_weight: BinaryHeap<Reverse<(u32, ClauseId)>>,
    by_age: VecDeque<ClauseId>,
    weight_picks: u32,
    counter: u32,
}

impl Passive {
    /// Empty queues; `weight_picks` picks by weight for each pick by age.
    pub fn new(weight_picks: u32) -> Self {
        Passive {
            weight_picks,
            ..Default::default()
        }
    }

    /// Adds a clause with its selection weight.
    pub fn push(&mut self, id: ClauseId, weight: u32) {
        self.by_weight.push(Reverse((weight, id)));
        self.by_age.push_back(id);
    }

    /// Takes the next clause for which `alive` holds, or `None` when no
    /// live clause is left. Ties in weight go to the older clause.
    pub fn pop(&mut self, alive: impl Fn(ClauseId) -> bool) -> Option<ClauseId> {
        self.counter = self.counter.wrapping_add(1);
        let by_age = self.counter % (self.weight_picks + 1) == 0;
        let first = if by_age {
            self.pop_age(&alive)
        } else {
            self.pop_weight(&alive)
        };
        first.or_else(|| {
            if by_age {
                self.pop_weight(&alive)
            } else {
                self.pop_age(&alive)
            }
        })
    }

    fn pop_weight(&mut self, alive: &impl Fn(ClauseId) -> bool) -> Option<ClauseId> {
        while let Some(Reverse((_, id))) = self.by_weight.pop() {
            if alive(id) {
                return Some(id);
            }
        }
        None
    }

    fn pop_age(&mut self, alive: &impl Fn(ClauseId) -> bool) -> Option<ClauseId> {
        while let Some(id) = self.by_age.pop_front() {
            if alive(id) {
                return Some(id);
            }
        }
        None
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
        let mut taken: Vec<ClauseId> = Vec::new();
        while let Some(c) = p.pop(|c| !taken.contains(&c)) {
            taken.push(c);
        }
        let order: Vec<u32> = taken.iter().map(|c| c.0).collect();
        // weight (1), weight (3), age (0), weight (2): taken entries skipped.
        assert_eq!(order, vec![1, 3, 0, 2]);
    }
}
