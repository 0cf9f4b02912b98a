//! A trie over fixed-length feature vectors, the shared skeleton of the
//! fingerprint index (Schulz 2012) and the feature-vector index (Schulz
//! 2013): items are stored at the leaf of their vector, and retrieval walks
//! every branch whose feature is compatible with the query's. Children are
//! kept sorted by feature, so a walk finds the compatible children of a node
//! by binary search instead of testing every child.

/// A trie node: children sorted by feature value (so walks are
/// deterministic and ranges are found by binary search), and the items
/// stored at this node when it is a leaf.
#[derive(Clone, Debug)]
struct Node<P> {
    children: Vec<(u32, u32)>,
    items: Vec<P>,
}

impl<P> Default for Node<P> {
    fn default() -> Self {
        Node {
            children: Vec::new(),
            items: Vec::new(),
        }
    }
}

/// Items of type `P` keyed by feature vectors of one fixed length.
#[derive(Clone, Debug)]
pub struct FeatureTrie<P> {
    nodes: Vec<Node<P>>,
    len: usize,
}

impl<P: Copy + PartialEq> Default for FeatureTrie<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: Copy + PartialEq> FeatureTrie<P> {
    /// An empty trie.
    pub fn new() -> Self {
        FeatureTrie {
            nodes: vec![Node::default()],
            len: 0,
        }
    }

    /// Number of stored items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The leaf of `key`, created on the way when `create` is set.
    fn leaf(&mut self, key: &[u32], create: bool) -> Option<usize> {
        let mut node = 0usize;
        for &f in key {
            let kids = &self.nodes[node].children;
            node = match kids.binary_search_by_key(&f, |c| c.0) {
                Ok(k) => kids[k].1 as usize,
                Err(k) if create => {
                    let n = self.nodes.len() as u32;
                    self.nodes.push(Node::default());
                    self.nodes[node].children.insert(k, (f, n));
                    n as usize
                }
                Err(_) => return None,
            };
        }
        Some(node)
    }

    /// Stores `item` under `key`.
    pub fn insert(&mut self, key: &[u32], item: P) {
        let leaf = self.leaf(key, true).expect("created");
        self.nodes[leaf].items.push(item);
        self.len += 1;
    }

    /// Removes one copy of `item` stored under `key`; returns whether it was there.
    pub fn remove(&mut self, key: &[u32], item: P) -> bool {
        let Some(leaf) = self.leaf(key, false) else {
            return false;
        };
        let items = &mut self.nodes[leaf].items;
        match items.iter().position(|&i| i == item) {
            Some(i) => {
                items.remove(i);
                self.len -= 1;
                true
            }
            None => false,
        }
    }

    /// Calls `f` on every item whose key is compatible with `query`
    /// feature by feature: at depth `d`, a child with feature `x` is
    /// entered when `pick(query[d])` admits `x`. Stops early (returning
    /// false) when `f` returns false.
    pub fn walk(
        &self,
        query: &[u32],
        pick: &impl Fn(u32) -> Pick,
        f: &mut impl FnMut(P) -> bool,
    ) -> bool {
        self.walk_from(0, query, pick, f)
    }

    fn walk_from(
        &self,
        node: usize,
        query: &[u32],
        pick: &impl Fn(u32) -> Pick,
        f: &mut impl FnMut(P) -> bool,
    ) -> bool {
        let Some((&q, rest)) = query.split_first() else {
            return self.nodes[node].items.iter().all(|&i| f(i));
        };
        let p = pick(q);
        let kids = &self.nodes[node].children;
        let mut k = 0;
        while k < kids.len() && kids[k].0 < Pick::LOW {
            let (x, child) = kids[k];
            if p.admits(x) && !self.walk_from(child as usize, rest, pick, f) {
                return false;
            }
            k += 1;
        }
        let start = k.max(kids.partition_point(|c| c.0 < p.lo));
        for &(x, child) in &kids[start..] {
            if x > p.hi {
                break;
            }
            if !self.walk_from(child as usize, rest, pick, f) {
                return false;
            }
        }
        true
    }
}

/// Which feature values a walk enters for one query feature: the values
/// below [`Pick::LOW`] whose bit is set in `low`, and every value in
/// `lo..=hi`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Bit `x` admits the value `x`, for `x < LOW`.
    pub low: u8,
    /// Smallest value of the admitted range.
    pub lo: u32,
    /// Largest value of the admitted range (`lo > hi`: an empty range).
    pub hi: u32,
}

impl Pick {
    /// Values below this may be admitted one by one through `low`.
    pub const LOW: u32 = 3;

    /// Only the range `lo..=hi`.
    pub fn range(lo: u32, hi: u32) -> Pick {
        Pick { low: 0, lo, hi }
    }

    /// True if the value `x` is admitted.
    #[inline]
    pub fn admits(&self, x: u32) -> bool {
        (x < Self::LOW && self.low & (1 << x) != 0) || (self.lo <= x && x <= self.hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A walk yields exactly the items whose keys are admitted feature
        /// by feature, each once, whatever the insertion order.
        #[test]
        fn walk_is_exact(
            keys in proptest::collection::vec(proptest::collection::vec(0u32..6, 3), 0..40),
            query in proptest::collection::vec(0u32..6, 3),
            low in 0u8..8,
            lo in 0u32..7,
            span in 0u32..4,
        ) {
            let mut t = FeatureTrie::new();
            for (i, k) in keys.iter().enumerate() {
                t.insert(k, i);
            }
            // A pick that depends on the query feature, as real ones do.
            let pick = |q: u32| Pick { low: low ^ (q as u8 & 1), lo: lo.min(q + lo), hi: lo + span };
            let mut got = Vec::new();
            t.walk(&query, &pick, &mut |i| { got.push(i); true });
            got.sort_unstable();
            let want: Vec<usize> = keys
                .iter()
                .enumerate()
                .filter(|(_, k)| k.iter().zip(&query).all(|(&x, &q)| pick(q).admits(x)))
                .map(|(i, _)| i)
                .collect();
            prop_assert_eq!(got, want);
        }
    }
}
