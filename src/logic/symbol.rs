//! Symbol table: function and predicate symbols with their arities, and the
//! reserved symbols of the equational encoding (`$true`).
//!
//! Every atom `p(t1..tn)` is encoded as the equation `p(t1..tn) = $true`, the
//! standard trick that lets superposition treat predicate and equality literals
//! alike (Bachmair & Ganzinger, "Rewrite-based equational theorem proving with
//! selection and simplification", 1994). The predicate symbols and `$true` are
//! kept apart from function symbols by [`SymbolKind`], so a function term can
//! never unify with an atom.

use rustc_hash::FxHashMap;
use std::fmt;

/// Index of a symbol in the [`Signature`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct SymbolId(pub u32);

impl SymbolId {
    /// The reserved constant `$true`, right-hand side of every predicate literal.
    pub const TRUE: SymbolId = SymbolId(0);

    /// The index of this symbol as a `usize`, for arena lookups.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Whether a symbol builds terms or atoms.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SymbolKind {
    /// A function symbol (constants are functions of arity 0).
    Function,
    /// A predicate symbol; its applications are atoms.
    Predicate,
    /// The reserved constant `$true`.
    True,
}

/// One entry of the signature.
#[derive(Clone, Debug)]
pub struct Symbol {
    /// The name as written in TPTP (quoted names keep their quotes).
    pub name: String,
    /// Number of arguments.
    pub arity: u32,
    /// Function, predicate or `$true`.
    pub kind: SymbolKind,
    /// True for Skolem constants introduced by the prover (printed as such).
    pub skolem: bool,
}

/// The signature: all symbols in order of creation, looked up by (name, arity, kind).
///
/// Creation order is deterministic (the order the input mentions symbols), so
/// `SymbolId`s, and everything derived from them, are reproducible.
#[derive(Clone, Debug)]
pub struct Signature {
    symbols: Vec<Symbol>,
    by_name: FxHashMap<(String, u32, bool), SymbolId>,
}

impl Default for Signature {
    fn default() -> Self {
        Self::new()
    }
}

impl Signature {
    /// A signature holding only `$true`.
    pub fn new() -> Self {
        let mut sig = Signature {
            symbols: Vec::new(),
            by_name: FxHashMap::default(),
        };
        sig.symbols.push(Symbol {
            name: "$true".to_string(),
            arity: 0,
            kind: SymbolKind::True,
            skolem: false,
        });
        sig
    }

    /// The symbol with this name, arity and kind, created if new.
    ///
    /// The same name may be used with different arities (TPTP allows it in
    /// CNF); each (name, arity, kind) is a distinct symbol.
    pub fn intern(&mut self, name: &str, arity: u32, kind: SymbolKind) -> SymbolId {
        let key = (name.to_string(), arity, kind == SymbolKind::Predicate);
        if let Some(&id) = self.by_name.get(&key) {
            return id;
        }
        let id = SymbolId(self.symbols.len() as u32);
        self.symbols.push(Symbol {
            name: name.to_string(),
            arity,
            kind,
            skolem: false,
        });
        self.by_name.insert(key, id);
        id
    }

    /// A fresh Skolem constant whose name does not clash with any symbol.
    pub fn fresh_skolem(&mut self, stem: &str) -> SymbolId {
        let mut n = self.symbols.len();
        loop {
            let name = format!("{stem}{n}");
            if !self.by_name.contains_key(&(name.clone(), 0, false)) {
                let id = self.intern(&name, 0, SymbolKind::Function);
                self.symbols[id.index()].skolem = true;
                return id;
            }
            n += 1;
        }
    }

    /// Looks a symbol up without creating it.
    pub fn lookup(&self, name: &str, arity: u32, kind: SymbolKind) -> Option<SymbolId> {
        self.by_name
            .get(&(name.to_string(), arity, kind == SymbolKind::Predicate))
            .copied()
    }

    /// The symbol behind an id.
    #[inline]
    pub fn get(&self, id: SymbolId) -> &Symbol {
        &self.symbols[id.index()]
    }

    /// Number of symbols, `$true` included.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Always false: `$true` is always present.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// All symbol ids in creation order.
    pub fn ids(&self) -> impl Iterator<Item = SymbolId> + '_ {
        (0..self.symbols.len() as u32).map(SymbolId)
    }
}

impl fmt::Display for SymbolId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intern_is_idempotent_and_arity_sensitive() {
        let mut sig = Signature::new();
        let f1 = sig.intern("f", 1, SymbolKind::Function);
        let f2 = sig.intern("f", 2, SymbolKind::Function);
        let p1 = sig.intern("f", 1, SymbolKind::Predicate);
        assert_eq!(f1, sig.intern("f", 1, SymbolKind::Function));
        assert_ne!(f1, f2);
        assert_ne!(f1, p1);
        assert_eq!(sig.get(SymbolId::TRUE).kind, SymbolKind::True);
        assert_eq!(sig.len(), 4);
    }

    #[test]
    fn skolems_do_not_clash() {
        let mut sig = Signature::new();
        sig.intern("sk1", 0, SymbolKind::Function);
        let s = sig.fresh_skolem("sk");
        assert_ne!(sig.get(s).name, "sk1");
        assert!(sig.get(s).skolem);
    }
}
