//! Feature-vector indexing of clauses for forward and backward subsumption.
//!
//! Schulz, "Simple and Efficient Clause Subsumption with Feature Vector
//! Indexing", in Automated Reasoning and Mathematics (LNCS 7788), 2013. Each
//! clause maps to a vector of counts that can only grow under instantiation
//! and literal addition (literal counts, symbol counts per polarity), so if C
//! subsumes D then `fv(C) <= fv(D)` componentwise. A trie over the vectors
//! finds all candidates without scanning the clause set.

use super::store::ClauseId;
use super::trie::{FeatureTrie, Pick};
use crate::logic::{Clause, Head, TermBank, TermId};

/// Symbols are folded into this many buckets per polarity.
const BUCKETS: usize = 6;
/// Vector length: positive and negative literal count, positive and negative
/// weight, then per-bucket symbol counts for each polarity.
pub const FV_LEN: usize = 4 + 2 * BUCKETS;

/// A clause's feature vector.
pub type FeatureVector = [u32; FV_LEN];

/// Computes the feature vector of a clause.
pub fn feature_vector(bank: &TermBank, c: &Clause) -> FeatureVector {
    let mut fv = [0u32; FV_LEN];
    for l in c.lits.iter() {
        let (cnt, w, base) = if l.pos {
            (0, 2, 4)
        } else {
            (1, 3, 4 + BUCKETS)
        };
        fv[cnt] += 1;
        fv[w] += l.weight(bank);
        count_syms(bank, l.lhs, &mut fv[base..base + BUCKETS]);
        count_syms(bank, l.rhs, &mut fv[base..base + BUCKETS]);
    }
    fv
}

fn count_syms(bank: &TermBank, t: TermId, out: &mut [u32]) {
    if let Head::Sym(s) = bank.head(t) {
        out[s.index() % BUCKETS] += 1;
        for i in 0..bank.arity(t) {
            count_syms(bank, bank.arg(t, i), out);
        }
    }
}

/// A trie of clause feature vectors.
#[derive(Clone, Debug, Default)]
pub struct FvIndex {
    trie: FeatureTrie<ClauseId>,
}

impl FvIndex {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of stored clauses.
    pub fn len(&self) -> usize {
        self.trie.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.trie.is_empty()
    }

    /// Stores a clause under its feature vector.
    pub fn insert(&mut self, fv: &FeatureVector, id: ClauseId) {
        self.trie.insert(fv, id);
    }

    /// Removes a clause; returns whether it was there.
    pub fn remove(&mut self, fv: &FeatureVector, id: ClauseId) -> bool {
        self.trie.remove(fv, id)
    }

    /// Clauses that may subsume a clause with vector `fv` (all components
    /// <=); `f` returns false to stop.
    pub fn subsumer_candidates(&self, fv: &FeatureVector, f: &mut impl FnMut(ClauseId) -> bool) {
        self.trie.walk(fv, &|q| Pick::range(0, q), f);
    }

    /// Clauses that a clause with vector `fv` may subsume (all components
    /// >=); `f` returns false to stop.
    pub fn subsumed_candidates(&self, fv: &FeatureVector, f: &mut impl FnMut(ClauseId) -> bool) {
        self.trie.walk(fv, &|q| Pick::range(q, u32::MAX), f);
    }
}
