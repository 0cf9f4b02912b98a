//! A trie over fixed-length feature vectors, the shared skeleton of the
//! fingerprint index (Schulz 2012) and the feature-vector index (Schulz
//! 2013): items are stored at the leaf of their vector, and retrieval walks
//! every branch whose feature is compatible with the query's.

/// A trie node: children by feature value (in insertion order, so walks are
/// deterministic), and the items stored at this node when it is a leaf.
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
            let found = self.nodes[node]
                .children
                .iter()
                .find(|c| c.0 == f)
                .map(|c| c.1);
            node = match found {
                Some(n) => n as usize,
                None if create => {
                    let n = self.nodes.len() as u32;
                    self.nodes.push(Node::default());
                    self.nodes[node].children.push((f, n));
                    n as usize
                }
                None => return None,
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

    /// Calls `f` on every item whose key is compatible with `query`, where
    /// `compatible(stored, queried)` judges one feature. `f` returns false to
    /// stop; the walk then returns false.
    pub fn walk(
        &self,
        query: &[u32],
        compatible: &impl Fn(u32, u32) -> bool,
        f: &mut impl FnMut(P) -> bool,
    ) -> bool {
        self.walk_from(0, query, compatible, f)
    }

    fn walk_from(
        &self,
        node: usize,
        query: &[u32],
        compatible: &impl Fn(u32, u32) -> bool,
        f: &mut impl FnMut(P) -> bool,
    ) -> bool {
        let Some((&q, rest)) = query.split_first() else {
            return self.nodes[node].items.iter().all(|&i| f(i));
        };
        for &(feat, child) in &self.nodes[node].children {
            if compatible(feat, q) && !self.walk_from(child as usize, rest, compatible, f) {
                return false;
            }
        }
        true
    }
}
