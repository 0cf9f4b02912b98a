//! Hash-consed term bank: every term is stored once, so term equality is an
//! integer comparison and per-term facts (weight, groundness, variable bound)
//! are computed once and cached beside the term.
//!
//! The design follows E prover's shared term bank (Schulz, "E – a brainiac
//! theorem prover", AI Communications 15(2-3), 2002): a term is a head symbol
//! plus argument ids; the table maps `(head, args)` to its id with a fixed
//! (Fx) hasher, so ids are assigned in a deterministic order.

use super::symbol::{Signature, SymbolId, SymbolKind};
use hashbrown::HashTable;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// Id of a term in a [`TermBank`]. Equal terms have equal ids.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TermId(pub u32);

impl TermId {
    /// The index as a `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The head of a term: a variable (by its clause-local index) or a symbol.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Head {
    /// Variable `X<i>`.
    Var(u32),
    /// Application of a symbol.
    Sym(SymbolId),
}

const VAR_BIT: u32 = 1 << 31;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Symbol id, or `VAR_BIT | index` for a variable.
    head: u32,
    args_start: u32,
    arity: u32,
    /// KBO weight: every symbol and variable weighs 1.
    weight: u32,
    /// One more than the largest variable index occurring (0 when ground).
    var_bound: u32,
    /// Hash of the term's shape with all variables identified; used to sort
    /// literals independently of variable names.
    shape: u32,
}

/// The term bank. Owns the [`Signature`] so that one handle gives both.
#[derive(Clone)]
pub struct TermBank {
    /// The symbols terms are built from.
    pub sig: Signature,
    nodes: Vec<Node>,
    args: Vec<TermId>,
    /// Term ids with the 32-bit hash of their key, so that probing compares
    /// hashes before touching `nodes`/`args` and growing the table rehashes
    /// without reading any term.
    table: HashTable<(TermId, u32)>,
    vars: Vec<TermId>,
    true_term: TermId,
}

impl std::fmt::Debug for TermBank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TermBank({} terms)", self.nodes.len())
    }
}

impl Default for TermBank {
    fn default() -> Self {
        Self::new()
    }
}

/// Hash of a term key. Fx-style mixing per word, then a final avalanche
/// (the MurmurHash3 finaliser) so that the low bits, which pick the bucket,
/// depend on every input bit; plain Fx leaves them weak for small ids.
#[inline]
fn hash_key(head: u32, args: &[TermId]) -> u32 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mut h = (head as u64).wrapping_mul(K);
    for a in args {
        h = (h.rotate_left(26) ^ a.0 as u64).wrapping_mul(K);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h as u32
}

/// The [`TermBank::shape`] of every variable.
pub const VAR_SHAPE: u32 = 0x9e37_79b9;

/// Computes the [`TermBank::shape`] of an application from its head symbol
/// and its arguments' shapes, so that shapes of terms not (yet) in the bank
/// can be computed exactly as the bank would.
pub struct ShapeHasher(FxHasher);

impl ShapeHasher {
    /// Starts the shape of an application of symbol `sym` (its raw id).
    #[inline]
    pub fn new(sym: u32) -> Self {
        let mut h = FxHasher::default();
        sym.hash(&mut h);
        ShapeHasher(h)
    }

    /// Adds the next argument's shape.
    #[inline]
    pub fn arg(&mut self, shape: u32) {
        shape.hash(&mut self.0);
    }

    /// The shape.
    #[inline]
    pub fn finish(&self) -> u32 {
        self.0.finish() as u32
    }
}

/// The table hash of a stored 32-bit key hash: the same bits in the low half
/// (bucket index) and the high half (hashbrown's control tag).
#[inline]
fn table_hash(h: u32) -> u64 {
    (h as u64) | ((h as u64) << 32)
}

impl TermBank {
    /// An empty bank holding only `$true`.
    pub fn new() -> Self {
        Self::with_signature(Signature::new())
    }

    /// A bank over an existing signature.
    pub fn with_signature(sig: Signature) -> Self {
        let mut bank = TermBank {
            sig,
            nodes: Vec::new(),
            args: Vec::new(),
            table: HashTable::new(),
            vars: Vec::new(),
            true_term: TermId(0),
        };
        bank.true_term = bank.app(SymbolId::TRUE, &[]);
        bank
    }

    /// The constant `$true`.
    #[inline]
    pub fn true_term(&self) -> TermId {
        self.true_term
    }

    /// Number of distinct terms stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the bank holds no term (never: `$true` is always there).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn insert(&mut self, head: u32, args: &[TermId]) -> TermId {
        let h32 = hash_key(head, args);
        let hash = table_hash(h32);
        let nodes = &self.nodes;
        let all_args = &self.args;
        let found = self.table.find(hash, |&(id, h)| {
            if h != h32 {
                return false;
            }
            let n = &nodes[id.index()];
            n.head == head
                && n.arity as usize == args.len()
                && &all_args[n.args_start as usize..(n.args_start + n.arity) as usize] == args
        });
        if let Some(&(id, _)) = found {
            return id;
        }
        let (weight, var_bound, shape) = if head & VAR_BIT != 0 {
            (1, (head & !VAR_BIT) + 1, VAR_SHAPE)
        } else {
            let mut w = 1u32;
            let mut vb = 0u32;
            let mut sh = ShapeHasher::new(head);
            for a in args {
                let n = &self.nodes[a.index()];
                w = w.saturating_add(n.weight);
                vb = vb.max(n.var_bound);
                sh.arg(n.shape);
            }
            (w, vb, sh.finish())
        };
        let id = TermId(self.nodes.len() as u32);
        assert!(id.0 < VAR_BIT, "term bank overflow");
        self.nodes.push(Node {
            head,
            args_start: self.args.len() as u32,
            arity: args.len() as u32,
            weight,
            var_bound,
            shape,
        });
        self.args.extend_from_slice(args);
        self.table
            .insert_unique(hash, (id, h32), |&(_, h)| table_hash(h));
        id
    }

    /// Forgets every term from id `len` on, as if it had never been built:
    /// the ids below `len` stay, and the terms found or built next are
    /// those of the bank when it held `len` terms. Depth on demand goes
    /// back to its first budget with it (`pipeline::saturate_deepened`).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.nodes.len() {
            return;
        }
        assert!(len > self.true_term.index(), "`$true` stays in the bank");
        // Arguments are appended in term order.
        let args_end = self.nodes[len].args_start as usize;
        self.nodes.truncate(len);
        self.args.truncate(args_end);
        self.table.retain(|&mut (id, _)| id.index() < len);
        // Variables are built in index order, so their ids increase.
        while self.vars.last().is_some_and(|t| t.index() >= len) {
            self.vars.pop();
        }
    }

    /// The term `sym(args)`. Panics (debug) if the arity is wrong.
    pub fn app(&mut self, sym: SymbolId, args: &[TermId]) -> TermId {
        debug_assert_eq!(self.sig.get(sym).arity as usize, args.len());
        self.insert(sym.0, args)
    }

    /// The constant `sym`.
    pub fn constant(&mut self, sym: SymbolId) -> TermId {
        self.app(sym, &[])
    }

    /// The variable `X<i>`.
    pub fn var(&mut self, i: u32) -> TermId {
        if let Some(&t) = self.vars.get(i as usize) {
            return t;
        }
        for j in self.vars.len() as u32..=i {
            let t = self.insert(VAR_BIT | j, &[]);
            self.vars.push(t);
        }
        self.vars[i as usize]
    }

    /// The head of `t`.
    #[inline]
    pub fn head(&self, t: TermId) -> Head {
        let h = self.nodes[t.index()].head;
        if h & VAR_BIT != 0 {
            Head::Var(h & !VAR_BIT)
        } else {
            Head::Sym(SymbolId(h))
        }
    }

    /// True if `t` is a variable.
    #[inline]
    pub fn is_var(&self, t: TermId) -> bool {
        self.nodes[t.index()].head & VAR_BIT != 0
    }

    /// The variable index of `t`, if it is a variable.
    #[inline]
    pub fn var_index(&self, t: TermId) -> Option<u32> {
        let h = self.nodes[t.index()].head;
        (h & VAR_BIT != 0).then_some(h & !VAR_BIT)
    }

    /// The head symbol of a non-variable term. Panics on a variable.
    #[inline]
    pub fn sym(&self, t: TermId) -> SymbolId {
        let h = self.nodes[t.index()].head;
        assert!(h & VAR_BIT == 0, "sym() of a variable");
        SymbolId(h)
    }

    /// A raw head code: symbol id, or a value with the top bit set for any
    /// variable. Cheap way to compare heads.
    #[inline]
    pub fn head_code(&self, t: TermId) -> u32 {
        self.nodes[t.index()].head
    }

    /// The arguments of `t` (empty for variables and constants).
    #[inline]
    pub fn args(&self, t: TermId) -> &[TermId] {
        let n = &self.nodes[t.index()];
        &self.args[n.args_start as usize..(n.args_start + n.arity) as usize]
    }

    /// The `i`-th argument of `t`.
    #[inline]
    pub fn arg(&self, t: TermId, i: usize) -> TermId {
        let n = &self.nodes[t.index()];
        self.args[n.args_start as usize + i]
    }

    /// Number of arguments.
    #[inline]
    pub fn arity(&self, t: TermId) -> usize {
        self.nodes[t.index()].arity as usize
    }

    /// KBO weight (symbol count with unit weights).
    #[inline]
    pub fn weight(&self, t: TermId) -> u32 {
        self.nodes[t.index()].weight
    }

    /// True if `t` contains no variable.
    #[inline]
    pub fn is_ground(&self, t: TermId) -> bool {
        self.nodes[t.index()].var_bound == 0
    }

    /// One more than the largest variable index in `t` (0 when ground).
    #[inline]
    pub fn var_bound(&self, t: TermId) -> u32 {
        self.nodes[t.index()].var_bound
    }

    /// Variable-blind structural hash of `t`.
    #[inline]
    pub fn shape(&self, t: TermId) -> u32 {
        self.nodes[t.index()].shape
    }

    /// True if `t` is an atom (its head is a predicate symbol).
    #[inline]
    pub fn is_atom(&self, t: TermId) -> bool {
        match self.head(t) {
            Head::Sym(s) => self.sig.get(s).kind == SymbolKind::Predicate,
            Head::Var(_) => false,
        }
    }

    /// True if `t` is a formula rather than a term: an atom or `$true`.
    /// Variables range over terms only, so unification and matching never
    /// bind a variable to a formula.
    #[inline]
    pub fn is_formula(&self, t: TermId) -> bool {
        match self.head(t) {
            Head::Sym(s) => s == SymbolId::TRUE || self.sig.get(s).kind == SymbolKind::Predicate,
            Head::Var(_) => false,
        }
    }

    /// True if the variable `X<v>` occurs in `t`.
    pub fn occurs(&self, v: u32, t: TermId) -> bool {
        if self.var_bound(t) <= v {
            return false;
        }
        match self.head(t) {
            Head::Var(w) => w == v,
            Head::Sym(_) => self.args(t).iter().any(|&a| self.occurs(v, a)),
        }
    }

    /// Pushes the index of every variable occurrence of `t` onto `out`, left
    /// to right, with repeats.
    pub fn push_vars(&self, t: TermId, out: &mut Vec<u32>) {
        if self.is_ground(t) {
            return;
        }
        match self.head(t) {
            Head::Var(v) => out.push(v),
            Head::Sym(_) => {
                for &a in self.args(t) {
                    self.push_vars(a, out);
                }
            }
        }
    }

    /// Adds to `out[v]` the number of occurrences of each variable `X<v>` in `t`
    /// (`out` grows as needed).
    pub fn count_vars(&self, t: TermId, out: &mut Vec<u32>) {
        if self.is_ground(t) {
            return;
        }
        match self.head(t) {
            Head::Var(v) => {
                if out.len() <= v as usize {
                    out.resize(v as usize + 1, 0);
                }
                out[v as usize] += 1;
            }
            Head::Sym(_) => {
                for i in 0..self.arity(t) {
                    self.count_vars(self.arg(t, i), out);
                }
            }
        }
    }

    /// The term with the subterm at `pos` (argument indices from the root)
    /// replaced by `by`.
    pub fn replace_at(&mut self, t: TermId, pos: &[u32], by: TermId) -> TermId {
        match pos.split_first() {
            None => by,
            Some((&i, rest)) => {
                let child = self.arg(t, i as usize);
                let new_child = self.replace_at(child, rest, by);
                let mut args: smallvec::SmallVec<[TermId; 8]> = self.args(t).into();
                args[i as usize] = new_child;
                let sym = self.sym(t);
                self.app(sym, &args)
            }
        }
    }

    /// The subterm of `t` at position `pos`.
    pub fn at(&self, t: TermId, pos: &[u32]) -> TermId {
        pos.iter().fold(t, |t, &i| self.arg(t, i as usize))
    }

    /// Calls `f(subterm, position)` on every non-variable subterm of `t` in
    /// pre-order (root first, then arguments left to right).
    pub fn for_each_nonvar_subterm(&self, t: TermId, f: &mut impl FnMut(TermId, &[u32])) {
        let mut pos = Vec::new();
        self.walk(t, &mut pos, f);
    }

    fn walk(&self, t: TermId, pos: &mut Vec<u32>, f: &mut impl FnMut(TermId, &[u32])) {
        if self.is_var(t) {
            return;
        }
        f(t, pos);
        for i in 0..self.arity(t) {
            pos.push(i as u32);
            self.walk(self.arg(t, i), pos, f);
            pos.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A truncated bank is the bank it was at that length: the terms
    /// below it keep their ids and every later term is found or built as
    /// it would have been then (variables included).
    #[test]
    fn a_truncated_bank_is_the_bank_it_was() {
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 2, SymbolKind::Function);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let ta = b.constant(a);
        let x = b.var(0);
        let t = b.app(f, &[ta, x]);
        let mark = b.len();
        let before = b.clone();
        let y = b.var(3);
        let u = b.app(f, &[t, y]);
        b.app(f, &[u, u]);
        assert!(b.len() > mark);
        b.truncate(mark);
        assert_eq!(b.len(), mark);
        assert_eq!(b.app(f, &[ta, x]), t);
        let mut fresh = before;
        for bank in [&mut b, &mut fresh] {
            // Variables 1 and 2 are built on the way to 3.
            let y = bank.var(3);
            let u = bank.app(f, &[t, y]);
            let v = bank.app(f, &[u, x]);
            assert_eq!(
                (y.0, u.0, v.0),
                (mark as u32 + 2, mark as u32 + 3, mark as u32 + 4)
            );
            assert_eq!(bank.args(v), &[u, x]);
            assert_eq!(bank.weight(v), 7);
        }
        assert_eq!(b.len(), fresh.len());
    }

    #[test]
    fn hash_consing_shares_equal_terms() {
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 2, SymbolKind::Function);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let ta = b.constant(a);
        let x = b.var(0);
        let t1 = b.app(f, &[ta, x]);
        let t2 = b.app(f, &[ta, x]);
        let t3 = b.app(f, &[x, ta]);
        assert_eq!(t1, t2);
        assert_ne!(t1, t3);
        assert_eq!(b.weight(t1), 3);
        assert!(!b.is_ground(t1));
        assert!(b.is_ground(ta));
        assert_eq!(b.var_bound(t1), 1);
        let x0 = b.var(0);
        let t4 = b.app(f, &[ta, x0]);
        assert_eq!(b.shape(t1), b.shape(t4));
        assert_eq!(b.args(t3), &[x, ta]);
    }

    #[test]
    fn replace_at_and_occurs() {
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 2, SymbolKind::Function);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let ta = b.constant(a);
        let x = b.var(3);
        let t = b.app(f, &[x, ta]);
        let u = b.replace_at(t, &[0], ta);
        assert_eq!(u, b.app(f, &[ta, ta]));
        assert!(b.occurs(3, t));
        assert!(!b.occurs(2, t));
    }
}
