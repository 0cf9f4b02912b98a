//! Feature-vector indexing of clauses for forward and backward subsumption.
//!
//! Schulz, "Simple and Efficient Clause Subsumption with Feature Vector
//! Indexing", in Automated Reasoning and Mathematics (LNCS 7788), 2013. Each
//! clause maps to a vector of counts that can only grow under instantiation
//! and literal addition (literal counts, symbol counts per polarity), so if C
//! subsumes D then `fv(C) <= fv(D)` componentwise. A trie over the vectors
//! finds all candidates without scanning the clause set.

use super::store::ClauseId;
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

#[derive(Clone, Debug, Default)]
struct Node {
    children: Vec<(u32, u32)>,
    clauses: Vec<ClauseId>,
}

/// A trie of clause feature vectors.
#[derive(Clone, Debug)]
pub struct FvIndex {
    nodes: Vec<Node>,
    len: usize,
}

impl Default for FvIndex {
    fn default() -> Self {
        Self::new()
    }
}

impl FvIndex {
    /// An empty index.
    pub fn new() -> Self {
        FvIndex {
            nodes: vec![Node::default()],
            len: 0,
        }
    }

    /// Number of stored clauses.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Stores a clause under its feature vector.
    pub fn insert(&mut self, fv: &FeatureVector, id: ClauseId) {
        let mut node = 0usize;
        for &f in fv.iter() {
            let found = self.nodes[node]
                .children
                .iter()
                .find(|c| c.0 == f)
                .map(|c| c.1);
            node = match found {
                Some(n) => n as usize,
                None => {
                    let n = self.nodes.len() as u32;
                    self.nodes.push(Node::default());
                    self.nodes[node].children.push((f, n));
                    n as usize
                }
            };
        }
        self.nodes[node].clauses.push(id);
        self.len += 1;
    }

    /// Removes a clause; returns whether it was there.
    pub fn remove(&mut self, fv: &FeatureVector, id: ClauseId) -> bool {
        let mut node = 0usize;
        for &f in fv.iter() {
            match self.nodes[node].children.iter().find(|c| c.0 == f) {
                Some(c) => node = c.1 as usize,
                None => return false,
            }
        }
        let v = &mut self.nodes[node].clauses;
        if let Some(i) = v.iter().position(|&c| c == id) {
            v.remove(i);
            self.len -= 1;
            true
        } else {
            false
        }
    }

    /// Clauses that may subsume a clause with vector `fv` (all components <=).
    pub fn subsumer_candidates(&self, fv: &FeatureVector, f: &mut impl FnMut(ClauseId) -> bool) {
        self.walk(0, 0, fv, true, f);
    }

    /// Clauses that a clause with vector `fv` may subsume (all components >=).
    pub fn subsumed_candidates(&self, fv: &FeatureVector, f: &mut impl FnMut(ClauseId) -> bool) {
        self.walk(0, 0, fv, false, f);
    }

    /// Depth-first walk; `f` returns false to stop early. Returns false when stopped.
    fn walk(
        &self,
        node: usize,
        depth: usize,
        fv: &FeatureVector,
        le: bool,
        f: &mut impl FnMut(ClauseId) -> bool,
    ) -> bool {
        if depth == FV_LEN {
            for &c in &self.nodes[node].clauses {
                if !f(c) {
                    return false;
                }
            }
            return true;
        }
        let q = fv[depth];
        for &(feat, child) in &self.nodes[node].children {
            let ok = if le { feat <= q } else { feat >= q };
            if ok && !self.walk(child as usize, depth + 1, fv, le, f) {
                return false;
            }
        }
        true
    }
}
