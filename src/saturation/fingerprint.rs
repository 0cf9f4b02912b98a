//! Fingerprint indexing of terms for unification, generalisation (matching)
//! and instance retrieval.
//!
//! Schulz, "Fingerprint Indexing for Paramodulation and Rewriting", IJCAR
//! 2012. A term is summarised by the symbols found at a fixed list of sample
//! positions; each feature is a symbol, `A` (a variable is there), `B` (the
//! position is below a variable) or `N` (the position does not exist). A trie
//! over the feature vectors prunes incompatible terms before any unification
//! or matching is attempted, so retrieval cost does not grow with the number
//! of stored terms that cannot match.

use super::trie::{FeatureTrie, Pick};
use crate::logic::{Head, TermBank, TermId};

/// Sample positions (argument paths from the root, 0-based), E's FP8 layout.
const POSITIONS: [&[u32]; 8] = [&[], &[0], &[1], &[2], &[0, 0], &[0, 1], &[1, 0], &[1, 1]];
const DEPTH: usize = POSITIONS.len();

const F_A: u32 = 0; // a variable at the position
const F_B: u32 = 1; // below a variable
const F_N: u32 = 2; // does not exist
const F_SYM: u32 = 3; // symbol s has feature s + F_SYM

/// A fingerprint: one feature per sample position.
pub type Fingerprint = [u32; DEPTH];

/// Computes the fingerprint of a term.
pub fn fingerprint(bank: &TermBank, t: TermId) -> Fingerprint {
    let mut fp = [F_N; DEPTH];
    for (k, pos) in POSITIONS.iter().enumerate() {
        let mut cur = t;
        let mut feat = None;
        for &i in pos.iter() {
            match bank.head(cur) {
                Head::Var(_) => {
                    feat = Some(F_B);
                    break;
                }
                Head::Sym(_) => {
                    if (i as usize) < bank.arity(cur) {
                        cur = bank.arg(cur, i as usize);
                    } else {
                        feat = Some(F_N);
                        break;
                    }
                }
            }
        }
        fp[k] = feat.unwrap_or(match bank.head(cur) {
            Head::Var(_) => F_A,
            Head::Sym(s) => s.0 + F_SYM,
        });
    }
    fp
}

/// The kind of retrieval.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Query {
    /// Stored terms unifiable with the query.
    Unifiable,
    /// Stored terms that match the query (stored term is more general).
    Generalizations,
    /// Stored terms that are instances of the query.
    Instances,
}

/// Can a stored feature `i` and a query feature `q` belong to terms related
/// as the query asks?
/// The stored features compatible with query feature `q` for a query of
/// kind `kind` (see `compatible` in the tests for the same relation written
/// pairwise): `A`, `B` and `N` are the values below [`Pick::LOW`].
#[inline]
fn pick(kind: Query, q: u32) -> Pick {
    const A: u8 = 1 << F_A;
    const B: u8 = 1 << F_B;
    const N: u8 = 1 << F_N;
    const NONE: (u32, u32) = (1, 0);
    let all_syms = (F_SYM, u32::MAX);
    let (low, (lo, hi)) = match kind {
        Query::Unifiable => match q {
            F_B => (A | B | N, all_syms),
            F_N => (B | N, NONE),
            F_A => (A | B, all_syms),
            _ => (A | B, (q, q)),
        },
        Query::Generalizations => match q {
            F_B => (B, NONE),
            F_N => (B | N, NONE),
            F_A => (A | B, NONE),
            _ => (A | B, (q, q)),
        },
        Query::Instances => match q {
            F_B => (A | B | N, all_syms),
            F_N => (N, NONE),
            F_A => (A, all_syms),
            _ => (0, (q, q)),
        },
    };
    Pick { low, lo, hi }
}

/// A fingerprint index mapping terms to payloads `T`.
#[derive(Clone, Debug)]
pub struct FpIndex<T> {
    trie: FeatureTrie<(TermId, T)>,
}

impl<T: Copy + PartialEq> Default for FpIndex<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + PartialEq> FpIndex<T> {
    /// An empty index.
    pub fn new() -> Self {
        FpIndex {
            trie: FeatureTrie::new(),
        }
    }

    /// Number of stored (term, payload) entries.
    pub fn len(&self) -> usize {
        self.trie.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.trie.is_empty()
    }

    /// Stores `payload` under `term`.
    pub fn insert(&mut self, bank: &TermBank, term: TermId, payload: T) {
        self.trie.insert(&fingerprint(bank, term), (term, payload));
    }

    /// Removes one entry `(term, payload)`; returns whether it was there.
    pub fn remove(&mut self, bank: &TermBank, term: TermId, payload: T) -> bool {
        self.trie.remove(&fingerprint(bank, term), (term, payload))
    }

    /// Calls `f(term, payload)` for every stored entry whose fingerprint is
    /// compatible with `query` under `kind`. These are candidates: the caller
    /// still unifies or matches.
    pub fn candidates(
        &self,
        bank: &TermBank,
        query: TermId,
        kind: Query,
        f: &mut impl FnMut(TermId, T),
    ) {
        let fp = fingerprint(bank, query);
        self.trie.walk(&fp, &|q| pick(kind, q), &mut |(t, p)| {
            f(t, p);
            true
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{Matcher, Subst, SymbolKind};
    use proptest::prelude::*;

    fn setup() -> (TermBank, Vec<TermId>) {
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 2, SymbolKind::Function);
        let g = b.sig.intern("g", 1, SymbolKind::Function);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let c = b.sig.intern("c", 0, SymbolKind::Function);
        let (x, y) = (b.var(0), b.var(1));
        let ta = b.constant(a);
        let tc = b.constant(c);
        let mut terms = vec![x, y, ta, tc];
        // Build a pool of terms up to depth 3.
        for _ in 0..2 {
            let cur = terms.clone();
            for &s in &cur {
                terms.push(b.app(g, &[s]));
                for &t in cur.iter().take(6) {
                    terms.push(b.app(f, &[s, t]));
                }
            }
            terms.sort();
            terms.dedup();
        }
        (b, terms)
    }

    /// The index never loses a true answer: every unifiable / matching /
    /// instance pair found by brute force is among the candidates.
    /// The compatibility relation of Schulz's fingerprints, pairwise:
    /// stored feature `i` against query feature `q`.
    fn compatible(kind: Query, i: u32, q: u32) -> bool {
        match kind {
            Query::Unifiable => match (i, q) {
                (F_B, _) | (_, F_B) => true,
                (F_N, F_N) => true,
                (F_N, _) | (_, F_N) => false,
                (F_A, _) | (_, F_A) => true,
                _ => i == q,
            },
            Query::Generalizations => match i {
                F_B => true,
                F_A => q == F_A || q >= F_SYM,
                F_N => q == F_N,
                _ => q == i,
            },
            Query::Instances => match q {
                F_B => true,
                F_A => i == F_A || i >= F_SYM,
                F_N => i == F_N,
                _ => i == q,
            },
        }
    }

    #[test]
    fn pick_admits_exactly_the_compatible_features() {
        for kind in [Query::Unifiable, Query::Generalizations, Query::Instances] {
            for q in 0..12 {
                for i in 0..12 {
                    assert_eq!(
                        pick(kind, q).admits(i),
                        compatible(kind, i, q),
                        "{kind:?} i={i} q={q}"
                    );
                }
            }
        }
    }

    #[test]
    fn index_is_complete_for_all_query_kinds() {
        let (b, terms) = setup();
        let mut idx = FpIndex::new();
        for (i, &t) in terms.iter().enumerate() {
            idx.insert(&b, t, i as u32);
        }
        for &q in terms.iter().step_by(7) {
            for kind in [Query::Unifiable, Query::Generalizations, Query::Instances] {
                let mut cands = Vec::new();
                idx.candidates(&b, q, kind, &mut |_, p| cands.push(p));
                for (i, &t) in terms.iter().enumerate() {
                    let truth = match kind {
                        Query::Unifiable => Subst::new().unify(&b, t, 1, q, 0),
                        Query::Generalizations => Matcher::new().matches(&b, t, q),
                        Query::Instances => Matcher::new().matches(&b, q, t),
                    };
                    if truth {
                        assert!(cands.contains(&(i as u32)), "{kind:?} lost a candidate");
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn insert_remove_round_trip(ops in proptest::collection::vec((0usize..60, any::<bool>()), 1..80)) {
            let (b, terms) = setup();
            let mut idx = FpIndex::new();
            let mut model: Vec<(TermId, u32)> = Vec::new();
            for (k, ins) in ops {
                let t = terms[k % terms.len()];
                if ins {
                    idx.insert(&b, t, k as u32);
                    model.push((t, k as u32));
                } else {
                    let there = model.iter().position(|&e| e == (t, k as u32));
                    prop_assert_eq!(idx.remove(&b, t, k as u32), there.is_some());
                    if let Some(i) = there { model.remove(i); }
                }
            }
            prop_assert_eq!(idx.len(), model.len());
        }
    }
}
