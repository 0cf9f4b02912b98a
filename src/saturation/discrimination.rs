//! Perfect discrimination trees: generalization retrieval (the stored terms
//! that match a query) for demodulation, with no false candidates.
//!
//! McCune, "Experiments with discrimination-tree indexing and path indexing
//! for term retrieval", JAR 9(2), 1992; Graf, *Term Indexing*, LNAI 1053,
//! 1996, §5; Schulz, "E – a brainiac theorem prover", AI Communications
//! 15(2-3), 2002 (E rewrites through such trees). A stored term is its
//! pre-order symbol string, variables named by first occurrence but kept
//! apart ("perfect": a repeated variable is checked, not re-bound),
//! and terms sharing a prefix share a path. Retrieval walks the tree and the
//! query together: a symbol edge must equal the query's head symbol, a
//! variable edge binds the whole query subterm, or checks it against the
//! subterm the variable is already bound to. Every entry reached is a true
//! generalization, so the caller never attempts a match that fails; the
//! fingerprint index this replaces for rewriting let about fourteen
//! candidates through per true match on unit-equational problems (BOO001-0).

use crate::logic::{Head, TermBank, TermId};
use smallvec::SmallVec;

/// One edge label: a function symbol or a pattern variable.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Key {
    Sym(u32),
    Var(u32),
}

#[derive(Clone, Debug)]
struct Node<T> {
    /// Symbol edges, sorted by symbol id.
    syms: Vec<(u32, u32)>,
    /// Variable edges, sorted by variable.
    vars: Vec<(u32, u32)>,
    /// At the node reached by a whole term: the terms stored, payloads and
    /// the terms' variables by first occurrence.
    entries: Vec<(TermId, T, Names)>,
}

impl<T> Default for Node<T> {
    fn default() -> Self {
        Node {
            syms: Vec::new(),
            vars: Vec::new(),
            entries: Vec::new(),
        }
    }
}

impl<T> Node<T> {
    fn is_empty(&self) -> bool {
        self.syms.is_empty() && self.vars.is_empty() && self.entries.is_empty()
    }

    fn edges(&self, k: Key) -> &Vec<(u32, u32)> {
        match k {
            Key::Sym(_) => &self.syms,
            Key::Var(_) => &self.vars,
        }
    }

    fn edges_mut(&mut self, k: Key) -> &mut Vec<(u32, u32)> {
        match k {
            Key::Sym(_) => &mut self.syms,
            Key::Var(_) => &mut self.vars,
        }
    }
}

fn label(k: Key) -> u32 {
    match k {
        Key::Sym(s) | Key::Var(s) => s,
    }
}

/// The pre-order key string of `t`, variables renamed 0, 1, ... in order of
/// first occurrence. Terms that differ only in variable names share one
/// path, and at any node at most one variable edge binds a fresh variable
/// (the others re-check a bound one), which keeps retrieval from branching
/// over every variable name the stored terms happen to use.
/// Also returns the variables of `t` in order of first occurrence (key
/// variable `k` is `names[k]`).
fn keys(bank: &TermBank, t: TermId) -> (SmallVec<[Key; 32]>, Names) {
    let mut out = SmallVec::new();
    let mut names = Names::new();
    let mut stack: SmallVec<[TermId; 32]> = SmallVec::new();
    stack.push(t);
    while let Some(s) = stack.pop() {
        match bank.head(s) {
            Head::Var(v) => {
                let k = names.iter().position(|&w| w == v).unwrap_or_else(|| {
                    names.push(v);
                    names.len() - 1
                });
                out.push(Key::Var(k as u32));
            }
            Head::Sym(f) => {
                out.push(Key::Sym(f.0));
                for i in (0..bank.arity(s)).rev() {
                    stack.push(bank.arg(s, i));
                }
            }
        }
    }
    (out, names)
}

/// A stored term's variables in order of first occurrence.
type Names = SmallVec<[u32; 4]>;

/// A perfect discrimination tree mapping terms to payloads `T`.
///
/// Nodes live in one arena; emptied nodes are unlinked on removal and their
/// slots reused, so the tree's size follows what is stored. Child edges are
/// kept sorted, so retrieval order depends only on the stored set, never on
/// insertion history or hashing.
#[derive(Clone, Debug)]
pub struct DiscTree<T> {
    nodes: Vec<Node<T>>,
    free: Vec<u32>,
    len: usize,
    /// Most variables of a stored term (never lowered), so a retrieval
    /// sizes its bindings once.
    max_vars: usize,
}

impl<T: Copy + PartialEq> Default for DiscTree<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + PartialEq> DiscTree<T> {
    /// An empty tree.
    pub fn new() -> Self {
        DiscTree {
            max_vars: 0,
            nodes: vec![Node::default()],
            free: Vec::new(),
            len: 0,
        }
    }

    /// Number of stored (term, payload) entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Stores `payload` under `term`.
    pub fn insert(&mut self, bank: &TermBank, term: TermId, payload: T) {
        let mut node = 0u32;
        let (ks, names) = keys(bank, term);
        for k in ks {
            let edges = self.nodes[node as usize].edges(k);
            node = match edges.binary_search_by_key(&label(k), |e| e.0) {
                Ok(i) => edges[i].1,
                Err(i) => {
                    let child = match self.free.pop() {
                        Some(c) => c,
                        None => {
                            self.nodes.push(Node::default());
                            (self.nodes.len() - 1) as u32
                        }
                    };
                    self.nodes[node as usize]
                        .edges_mut(k)
                        .insert(i, (label(k), child));
                    child
                }
            };
        }
        self.max_vars = self.max_vars.max(names.len());
        self.nodes[node as usize]
            .entries
            .push((term, payload, names));
        self.len += 1;
    }

    /// Removes one entry `(term, payload)`; returns whether it was there.
    /// Nodes left with no entry and no child are unlinked.
    pub fn remove(&mut self, bank: &TermBank, term: TermId, payload: T) -> bool {
        let (ks, _) = keys(bank, term);
        let mut path: SmallVec<[(u32, Key); 32]> = SmallVec::new();
        let mut node = 0u32;
        for &k in &ks {
            let edges = self.nodes[node as usize].edges(k);
            match edges.binary_search_by_key(&label(k), |e| e.0) {
                Ok(i) => {
                    path.push((node, k));
                    node = edges[i].1;
                }
                Err(_) => return false,
            }
        }
        let entries = &mut self.nodes[node as usize].entries;
        let Some(i) = entries.iter().position(|e| (e.0, e.1) == (term, payload)) else {
            return false;
        };
        entries.remove(i);
        self.len -= 1;
        while let Some((parent, k)) = path.pop() {
            if !self.nodes[node as usize].is_empty() {
                break;
            }
            let edges = self.nodes[parent as usize].edges_mut(k);
            let i = edges
                .binary_search_by_key(&label(k), |e| e.0)
                .expect("the path just walked");
            edges.remove(i);
            self.free.push(node);
            node = parent;
        }
        true
    }

    /// Calls `f(term, payload, σ)` for every stored entry whose term matches
    /// `query` (`term`σ = `query`; a pattern variable never binds a
    /// formula), in tree order: at each node the symbol edge before the
    /// variable edges, variables in order of first occurrence. `f` returns
    /// whether to go on; retrieval stops at the first `false`. Returns the
    /// nodes visited, the retrieval's work in units.
    pub fn generalizations(
        &self,
        bank: &TermBank,
        query: TermId,
        f: &mut impl FnMut(TermId, T, &Bindings) -> bool,
    ) -> u64 {
        // A formula (an atom or `$true`) matches no stored term: stored
        // terms are terms, and a variable never binds a formula. Atoms occur
        // only at the root (their arguments are terms), so no subterm
        // reached below needs the check.
        if self.len == 0 || bank.is_formula(query) {
            return 0;
        }
        let (mut todo, mut binds) = SCRATCH.with(|s| s.take());
        todo.clear();
        todo.push(query);
        binds.clear();
        binds.resize(self.max_vars, None);
        let mut walk = Walk {
            bank,
            todo,
            binds,
            visits: 0,
        };
        walk.generalizations(self, 0, f);
        let visits = walk.visits;
        SCRATCH.with(|s| s.set((walk.todo, walk.binds)));
        visits
    }
}

/// The substitution of one retrieved entry: the stored term's variables
/// (by first occurrence) and the query subterms they are bound to.
pub struct Bindings<'w> {
    names: &'w [u32],
    binds: &'w [Option<TermId>],
}

impl Bindings<'_> {
    /// The binding of the stored term's variable `v` (`None` when `v` does
    /// not occur in it).
    #[inline]
    pub fn get(&self, v: u32) -> Option<TermId> {
        let k = self.names.iter().position(|&w| w == v)?;
        self.binds[k]
    }

    /// `(variable of the stored term, its binding)` for every variable.
    pub fn iter(&self) -> impl Iterator<Item = (u32, TermId)> + '_ {
        self.names.iter().zip(self.binds).map(|(&v, b)| {
            (
                v,
                b.expect("a stored term's variables are all bound at its leaf"),
            )
        })
    }
}

/// Retrieval state: the query subterms still to match (the next on top) and
/// the bindings of the key variables.
struct Walk<'b> {
    bank: &'b TermBank,
    todo: Vec<TermId>,
    binds: Vec<Option<TermId>>,
    visits: u64,
}

thread_local! {
    /// A retrieval's stacks, kept between retrievals of the thread so that
    /// none allocates once they have grown (a retrieval started inside
    /// another's callback finds them taken and starts its own). Capacity
    /// only: each retrieval empties them first.
    static SCRATCH: std::cell::Cell<(Vec<TermId>, Vec<Option<TermId>>)> =
        const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

impl Walk<'_> {
    /// Returns false once `f` asked to stop.
    fn generalizations<T: Copy>(
        &mut self,
        tree: &DiscTree<T>,
        node: u32,
        f: &mut impl FnMut(TermId, T, &Bindings) -> bool,
    ) -> bool {
        self.visits += 1;
        let n = &tree.nodes[node as usize];
        let Some(s) = self.todo.pop() else {
            for (t, p, names) in &n.entries {
                let b = Bindings {
                    names,
                    binds: &self.binds[..names.len()],
                };
                if !f(*t, *p, &b) {
                    return false;
                }
            }
            return true;
        };
        let bank = self.bank;
        let mut go_on = true;
        if !n.syms.is_empty()
            && let Head::Sym(g) = bank.head(s)
            && let Ok(i) = n.syms.binary_search_by_key(&g.0, |e| e.0)
        {
            let args = bank.args(s);
            self.todo.extend(args.iter().rev().copied());
            go_on = self.generalizations(tree, n.syms[i].1, f);
            self.todo.truncate(self.todo.len() - args.len());
        }
        for &(v, child) in &n.vars {
            if !go_on {
                break;
            }
            let vi = v as usize;
            match self.binds[vi] {
                Some(b) => {
                    if b == s {
                        go_on = self.generalizations(tree, child, f);
                    }
                }
                None => {
                    self.binds[vi] = Some(s);
                    go_on = self.generalizations(tree, child, f);
                    self.binds[vi] = None;
                }
            }
        }
        self.todo.push(s);
        go_on
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{Matcher, SymbolKind};
    use proptest::prelude::*;

    /// Terms over f/2, g/1, constants a, c and variables X0..X2, up to depth
    /// 3, non-linear ones included.
    fn pool() -> (TermBank, Vec<TermId>) {
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 2, SymbolKind::Function);
        let g = b.sig.intern("g", 1, SymbolKind::Function);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let c = b.sig.intern("c", 0, SymbolKind::Function);
        let mut terms = vec![b.var(0), b.var(1), b.var(2), b.constant(a), b.constant(c)];
        for _ in 0..2 {
            let cur = terms.clone();
            for &s in &cur {
                terms.push(b.app(g, &[s]));
                for &t in cur.iter().take(7) {
                    terms.push(b.app(f, &[s, t]));
                }
            }
            terms.sort();
            terms.dedup();
        }
        (b, terms)
    }

    /// Retrieval returns exactly the stored terms that match the query, by
    /// brute force over every (stored, query) pair of the pool.
    #[test]
    fn generalizations_are_exactly_the_matching_terms() {
        let (b, terms) = pool();
        let stored: Vec<TermId> = terms.iter().copied().step_by(3).collect();
        let mut tree = DiscTree::new();
        for (i, &t) in stored.iter().enumerate() {
            tree.insert(&b, t, i as u32);
        }
        let mut nonlinear_hits = 0;
        for &q in terms.iter().step_by(5) {
            let mut got = Vec::new();
            tree.generalizations(&b, q, &mut |t, p, _| {
                got.push((t, p));
                true
            });
            got.sort_unstable();
            let mut want: Vec<(TermId, u32)> = stored
                .iter()
                .enumerate()
                .filter(|&(_, &t)| Matcher::new().matches(&b, t, q))
                .map(|(i, &t)| (t, i as u32))
                .collect();
            want.sort_unstable();
            assert_eq!(got, want, "query {q:?}");
            nonlinear_hits += want
                .iter()
                .filter(|(t, _)| {
                    let mut counts = Vec::new();
                    b.count_vars(*t, &mut counts);
                    counts.iter().any(|&n| n > 1)
                })
                .count();
        }
        // The pool exercises the bound-variable check.
        assert!(nonlinear_hits > 0);
    }

    /// The bindings handed out instantiate the stored term to the query,
    /// in the stored term's own variable names.
    #[test]
    fn bindings_instantiate_the_stored_term_to_the_query() {
        let (mut b, terms) = pool();
        let stored: Vec<TermId> = terms.iter().copied().step_by(4).collect();
        let mut tree = DiscTree::new();
        for (i, &t) in stored.iter().enumerate() {
            tree.insert(&b, t, i as u32);
        }
        let mut checked = 0;
        for &q in terms.iter().step_by(3) {
            let mut found = Vec::new();
            tree.generalizations(&b, q, &mut |t, _, sigma| {
                let pairs: Vec<_> = sigma.iter().collect();
                // `get` reads the same bindings, and nothing for a variable
                // the stored term lacks.
                for &(v, u) in &pairs {
                    assert_eq!(sigma.get(v), Some(u));
                }
                assert_eq!(sigma.get(99), None);
                found.push((t, pairs));
                true
            });
            for (t, sigma) in found {
                let mut m = Matcher::new();
                m.set(sigma);
                assert_eq!(m.apply(&mut b, t), q);
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    /// Retrieval stops at the first `false` and visits fewer nodes.
    #[test]
    fn retrieval_stops_when_asked() {
        let (b, terms) = pool();
        let mut tree = DiscTree::new();
        for (i, &t) in terms.iter().enumerate() {
            tree.insert(&b, t, i as u32);
        }
        let q = *terms.iter().max_by_key(|&&t| b.weight(t)).unwrap();
        let mut all = 0;
        let full = tree.generalizations(&b, q, &mut |_, _, _| {
            all += 1;
            true
        });
        let mut seen = 0;
        let first = tree.generalizations(&b, q, &mut |_, _, _| {
            seen += 1;
            false
        });
        assert!(all > 1, "{all}");
        assert_eq!(seen, 1);
        assert!(first < full, "{first} < {full}");
    }

    #[test]
    fn a_variable_never_binds_a_formula() {
        let mut b = TermBank::new();
        let p = b.sig.intern("p", 1, SymbolKind::Predicate);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let ta = b.constant(a);
        let atom = b.app(p, &[ta]);
        let x = b.var(0);
        let mut tree = DiscTree::new();
        tree.insert(&b, x, 7u32);
        let mut got = Vec::new();
        tree.generalizations(&b, atom, &mut |_, p, _| {
            got.push(p);
            true
        });
        assert!(got.is_empty());
        tree.generalizations(&b, ta, &mut |_, p, _| {
            got.push(p);
            true
        });
        assert_eq!(got, vec![7]);
    }

    proptest! {
        /// Inserting and removing in any order keeps the tree equal to a
        /// list model, and emptied paths are unlinked: after removing
        /// everything only the root is live.
        #[test]
        fn insert_remove_round_trip(ops in proptest::collection::vec((0usize..80, any::<bool>()), 1..120)) {
            let (b, terms) = pool();
            let mut tree = DiscTree::new();
            let mut model: Vec<(TermId, u32)> = Vec::new();
            for (k, ins) in ops {
                let t = terms[k % terms.len()];
                let e = (t, (k % 3) as u32);
                if ins {
                    tree.insert(&b, t, e.1);
                    model.push(e);
                } else {
                    let there = model.iter().position(|&m| m == e);
                    prop_assert_eq!(tree.remove(&b, t, e.1), there.is_some());
                    if let Some(i) = there { model.remove(i); }
                }
                prop_assert_eq!(tree.len(), model.len());
            }
            for &q in terms.iter().step_by(11) {
                let mut got = Vec::new();
                tree.generalizations(&b, q, &mut |t, p, _| {
                got.push((t, p));
                true
            });
                got.sort_unstable();
                let mut want: Vec<(TermId, u32)> = model
                    .iter()
                    .copied()
                    .filter(|&(t, _)| Matcher::new().matches(&b, t, q))
                    .collect();
                want.sort_unstable();
                prop_assert_eq!(got, want);
            }
            for (t, p) in model.drain(..) {
                prop_assert!(tree.remove(&b, t, p));
            }
            prop_assert!(tree.is_empty());
            prop_assert_eq!(tree.nodes.len() - tree.free.len(), 1);
        }
    }
}
