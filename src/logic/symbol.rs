//! Symbol table: function and predicate symbols with their arities, and the
//! reserved symbols of the equational encoding (`$true`).
//!
//! Every atom `p(t1..tn)` is encoded as the equation `p(t1..tn) = $true`, the
//! standard trick that lets superposition treat predicate and equality literals
//! alike (Bachmair & Ganzinger, "Rewrite-based equational theorem proving with
//! selection and simplification", 1994). The predicate symbols and `$true` are
//! kept apart from function symbols by [`SymbolKind`], so a function term can
//! never unify with an atom.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use rustc_hash::FxHashMap;
use std::fmt;

/// The value a TPTP distinct object (`"a"`) or number (`-1`, `1/2`, `1.5e3`)
/// denotes. Such symbols are interpreted as pairwise different domain
/// elements (TPTP semantics, E's default without `--free-objects` /
/// `--free-numbers`): two symbols whose values differ are unequal.
///
/// Numbers are compared by exact value within their TPTP kind (integer,
/// rational, real), so `1/2` = `2/4` and `1.5` = `1.50` = `15e-1`; the kinds
/// are told apart as in typed TPTP, where `$int`, `$rat` and `$real` are
/// disjoint (so `2`, `2/1` and `2.0` are three different values). Distinct
/// objects are compared by their text.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DistinctValue {
    /// A distinct object, by its text inside the quotes.
    Object(String),
    /// An integer.
    Int(BigInt),
    /// A rational in lowest terms (positive denominator).
    Rat(BigInt, BigUint),
    /// A real `digits × 10^exp`: `digits` has no leading or trailing zeros
    /// (empty for zero, whose sign is positive and exponent 0).
    Real(bool, String, BigInt),
}

impl DistinctValue {
    /// The value a symbol name denotes, if it is a distinct object
    /// (double-quoted) or a TPTP number; `None` for any other name.
    pub fn of_name(name: &str) -> Option<DistinctValue> {
        if let Some(inner) = name.strip_prefix('"') {
            return inner
                .strip_suffix('"')
                .map(|t| DistinctValue::Object(t.to_string()));
        }
        let first = name.bytes().next()?;
        if !(first.is_ascii_digit() || first == b'+' || first == b'-') {
            return None;
        }
        let (neg, body) = match name.as_bytes()[0] {
            b'-' => (true, &name[1..]),
            b'+' => (false, &name[1..]),
            _ => (false, name),
        };
        if !body.bytes().next()?.is_ascii_digit() {
            return None;
        }
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
        let sign = |n: BigInt| if neg { -n } else { n };
        if let Some((p, q)) = body.split_once('/') {
            if !digits(p) || !digits(q) {
                return None;
            }
            let p: BigInt = p.parse().ok()?;
            let q: BigInt = q.parse().ok()?;
            if q.sign() != Sign::Plus {
                return None;
            }
            let g = p.gcd(&q);
            let q = (q / &g).to_biguint()?;
            return Some(DistinctValue::Rat(sign(p / &g), q));
        }
        let (mant, exp) = match body.find(['e', 'E']) {
            Some(k) => {
                let e = &body[k + 1..];
                let e_digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if !digits(e_digits) {
                    return None;
                }
                let e_val: BigInt = e_digits.parse().ok()?;
                (
                    &body[..k],
                    Some(if e.starts_with('-') { -e_val } else { e_val }),
                )
            }
            None => (body, None),
        };
        let (int, frac) = match mant.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (mant, None),
        };
        if !digits(int) || frac.is_some_and(|f| !digits(f)) {
            return None;
        }
        if frac.is_none() && exp.is_none() {
            return Some(DistinctValue::Int(sign(int.parse().ok()?)));
        }
        let frac = frac.unwrap_or("");
        let mut e = exp.unwrap_or_default() - BigInt::from(frac.len());
        let all = format!("{int}{frac}");
        let all = all.trim_start_matches('0');
        let trimmed = all.trim_end_matches('0');
        if trimmed.is_empty() {
            return Some(DistinctValue::Real(false, String::new(), BigInt::default()));
        }
        e += BigInt::from(all.len() - trimmed.len());
        Some(DistinctValue::Real(neg, trimmed.to_string(), e))
    }
}

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
    /// For a constant named as a distinct object or a number, the value it
    /// denotes (see [`DistinctValue`]).
    pub value: Option<DistinctValue>,
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
            value: None,
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
        let value = (arity == 0 && kind == SymbolKind::Function)
            .then(|| DistinctValue::of_name(name))
            .flatten();
        self.symbols.push(Symbol {
            name: name.to_string(),
            arity,
            kind,
            skolem: false,
            value,
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

    /// Marks an existing symbol as a prover-introduced Skolem constant (as
    /// [`Signature::fresh_skolem`] does), so a signature rebuilt symbol by
    /// symbol (a saturation artifact) prints and orders exactly as the
    /// original.
    pub fn mark_skolem(&mut self, id: SymbolId) {
        self.symbols[id.index()].skolem = true;
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

    /// True if `a` and `b` are distinct objects or numbers denoting different
    /// values, so that `a = b` is false in every TPTP interpretation.
    pub fn distinct_values(&self, a: SymbolId, b: SymbolId) -> bool {
        match (&self.get(a).value, &self.get(b).value) {
            (Some(x), Some(y)) => x != y,
            _ => false,
        }
    }

    /// Number of symbols, `$true` included.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// A 128-bit fingerprint of the whole signature (every symbol's name,
    /// arity, kind, Skolem flag and value, in id order): two signatures
    /// with the same fingerprint give every term the same symbol ids, so
    /// precedences and fresh names agree. Deterministic (fixed-key
    /// hashing); for in-process keys such as the prover's verdict cache.
    pub fn fingerprint(&self) -> u128 {
        use std::hash::{Hash, Hasher};
        let mut lo = std::hash::DefaultHasher::new();
        let mut hi = std::hash::DefaultHasher::new();
        0xa5u8.hash(&mut hi);
        for s in &self.symbols {
            for h in [&mut lo, &mut hi] {
                s.name.hash(h);
                s.arity.hash(h);
                s.kind.hash(h);
                s.skolem.hash(h);
                s.value.hash(h);
            }
        }
        (u128::from(hi.finish()) << 64) | u128::from(lo.finish())
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
    fn distinct_values_compare_by_value_within_a_kind() {
        let v = |s: &str| DistinctValue::of_name(s);
        assert_eq!(v("1/2"), v("2/4"));
        assert_eq!(v("-1/2"), v("-3/6"));
        assert_eq!(v("1.5"), v("1.50"));
        assert_eq!(v("1.5"), v("15e-1"));
        assert_eq!(v("150.0"), v("1.5E2"));
        assert_eq!(v("0.0"), v("-0.0e5"));
        assert_eq!(v("007"), v("+7"));
        assert_eq!(v("0"), v("-0"));
        assert_ne!(v("1"), v("2"));
        assert_ne!(v("1"), v("-1"));
        assert_ne!(v("2"), v("2/1"));
        assert_ne!(v("2"), v("2.0"));
        assert_ne!(v("\"a\""), v("\"b\""));
        assert_eq!(v("\"a\""), Some(DistinctValue::Object("a".into())));
        assert_eq!(v("a"), None);
        assert_eq!(v("'1'"), None);
        let mut sig = Signature::new();
        let a = sig.intern("\"a\"", 0, SymbolKind::Function);
        let b = sig.intern("\"b\"", 0, SymbolKind::Function);
        let one = sig.intern("1", 0, SymbolKind::Function);
        let c = sig.intern("c", 0, SymbolKind::Function);
        assert!(sig.distinct_values(a, b) && sig.distinct_values(a, one));
        assert!(!sig.distinct_values(a, a) && !sig.distinct_values(a, c));
    }

    #[test]
    fn fingerprints_follow_symbols_and_their_order() {
        let mut a = Signature::new();
        a.intern("f", 1, SymbolKind::Function);
        a.intern("c", 0, SymbolKind::Function);
        let mut b = Signature::new();
        b.intern("c", 0, SymbolKind::Function);
        b.intern("f", 1, SymbolKind::Function);
        assert_eq!(a.fingerprint(), a.clone().fingerprint());
        assert_ne!(a.fingerprint(), b.fingerprint(), "same symbols, other ids");
        let before = a.fingerprint();
        a.fresh_skolem("sk");
        assert_ne!(a.fingerprint(), before);
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
