//! Graph views of the clause store: ancestors, proof extraction, depth and a
//! petgraph graph for analysis. Parents always have smaller ids than their
//! children, so ascending id order is a topological order.

use crate::saturation::{ClauseId, ClauseStore, Rule};
use petgraph::graph::{DiGraph, NodeIndex};
use serde::{Deserialize, Serialize};

/// How a premise enters a clause's derivation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// A premise of the generating inference.
    Parent,
    /// A unit clause used to simplify the conclusion.
    Simplifier,
}

/// Size facts of a DAG.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DagStats {
    /// Clauses recorded.
    pub nodes: u64,
    /// Premise edges (parents and simplifiers).
    pub edges: u64,
    /// Largest depth of any clause.
    pub max_depth: u32,
}

/// A read-only view of a clause store as a DAG.
#[derive(Clone, Copy)]
pub struct Derivation<'a> {
    store: &'a ClauseStore,
}

impl<'a> Derivation<'a> {
    /// Wraps a store.
    pub fn new(store: &'a ClauseStore) -> Self {
        Derivation { store }
    }

    /// Node, edge and depth counts.
    pub fn stats(&self) -> DagStats {
        let mut s = DagStats::default();
        for r in self.store.records() {
            s.nodes += 1;
            s.edges += r.premises().count() as u64;
            s.max_depth = s.max_depth.max(r.depth);
        }
        s
    }

    /// `id` and its ancestors as a mask by clause index (length
    /// `id.index() + 1`): membership tests without a hashed set.
    pub fn ancestor_mask(&self, id: ClauseId) -> Vec<bool> {
        let mut seen = vec![false; id.index() + 1];
        let mut stack = vec![id];
        seen[id.index()] = true;
        while let Some(c) = stack.pop() {
            for p in self.store.get(c).premises() {
                if !seen[p.index()] {
                    seen[p.index()] = true;
                    stack.push(p);
                }
            }
        }
        seen
    }

    /// Every clause `id` depends on, `id` included, in ascending (topological) order.
    pub fn ancestors(&self, id: ClauseId) -> Vec<ClauseId> {
        self.ancestor_mask(id)
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s)
            .map(|(i, _)| ClauseId(i as u32))
            .collect()
    }

    /// The input clauses `id` depends on.
    pub fn leaves(&self, id: ClauseId) -> Vec<ClauseId> {
        self.ancestors(id)
            .into_iter()
            .filter(|&c| self.store.get(c).rule == Rule::Input)
            .collect()
    }

    /// Number of inference and simplification steps in the derivation of `id`
    /// (ancestors that are not inputs).
    pub fn proof_size(&self, id: ClauseId) -> usize {
        self.ancestors(id)
            .into_iter()
            .filter(|&c| self.store.get(c).rule != Rule::Input)
            .count()
    }

    /// A petgraph graph of the sub-DAG below `roots` (all clauses when
    /// `roots` is empty), edges from premise to conclusion. Node weights are
    /// clause ids.
    pub fn graph(&self, roots: &[ClauseId]) -> DiGraph<ClauseId, EdgeKind> {
        let ids: Vec<ClauseId> = if roots.is_empty() {
            self.store.ids().collect()
        } else {
            let mut all: Vec<ClauseId> = roots.iter().flat_map(|&r| self.ancestors(r)).collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        let mut g = DiGraph::with_capacity(ids.len(), ids.len() * 2);
        let mut node: Vec<Option<NodeIndex>> = vec![None; self.store.len()];
        for &c in &ids {
            node[c.index()] = Some(g.add_node(c));
        }
        for &c in &ids {
            let r = self.store.get(c);
            let to = node[c.index()].unwrap();
            for &p in r.parents.iter() {
                g.add_edge(node[p.index()].unwrap(), to, EdgeKind::Parent);
            }
            for p in r.simps.iter().filter_map(|s| s.partner()) {
                g.add_edge(node[p.index()].unwrap(), to, EdgeKind::Simplifier);
            }
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Clause;
    use crate::saturation::{InputInfo, SimpStep};
    use smallvec::smallvec;

    fn empty() -> Clause {
        Clause { lits: Box::new([]) }
    }

    #[test]
    fn ancestors_depth_and_graph() {
        let mut s = ClauseStore::new();
        let info = || {
            Some(InputInfo {
                name: "a".into(),
                role: "axiom".into(),
                file: "f".into(),
                source: None,
                formula: None,
            })
        };
        let a = s.push(empty(), Rule::Input, smallvec![], vec![], info());
        let b = s.push(empty(), Rule::Input, smallvec![], vec![], info());
        let u = s.push(empty(), Rule::Input, smallvec![], vec![], info());
        let c = s.push(
            empty(),
            Rule::Resolution,
            smallvec![a, b],
            vec![SimpStep::Rewrite(u)],
            None,
        );
        let d = s.push(empty(), Rule::Factoring, smallvec![c], vec![], None);
        let dv = Derivation::new(&s);
        assert_eq!(dv.ancestors(d), vec![a, b, u, c, d]);
        assert_eq!(dv.leaves(d), vec![a, b, u]);
        assert_eq!(dv.proof_size(d), 2);
        assert_eq!(s.get(d).depth, 2);
        let st = dv.stats();
        assert_eq!((st.nodes, st.edges, st.max_depth), (5, 4, 2));
        let g = dv.graph(&[c]);
        assert_eq!(g.node_count(), 4);
        assert_eq!(g.edge_count(), 3);
        assert!(petgraph::algo::toposort(&g, None).is_ok());
    }
}
