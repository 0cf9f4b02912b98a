//! Knuth-Bendix ordering (KBO) on terms, and its multiset extension to
//! literals.
//!
//! Unit symbol and variable weights, a total precedence on symbols. The
//! comparison computes the variable condition once per call and then follows
//! the usual case split (Knuth & Bendix 1970; the implementation strategy of
//! computing weight and variable balance together is from Löchner, "Things to
//! know when implementing KBO", JAR 36, 2006). With all weights equal to 1 the
//! admissibility condition on unary symbols of weight 0 is void.

use super::literal::Literal;
use super::symbol::{SymbolId, SymbolKind};
use super::term::{Head, TermBank, TermId};

/// Result of comparing two terms in a partial order.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TermOrder {
    /// Left is bigger.
    Greater,
    /// Right is bigger.
    Less,
    /// Same term.
    Equal,
    /// Neither is bigger.
    Incomparable,
}

impl TermOrder {
    /// Swaps Greater and Less.
    pub fn reverse(self) -> Self {
        match self {
            TermOrder::Greater => TermOrder::Less,
            TermOrder::Less => TermOrder::Greater,
            o => o,
        }
    }
}

/// A KBO instance: the precedence, as a rank per symbol (higher = bigger).
#[derive(Clone, Debug, Default)]
pub struct Kbo {
    rank: Vec<u32>,
}

impl Kbo {
    /// Precedence by symbol frequency, E's `invfreq` scheme: rarer symbols are
    /// bigger; predicates are above functions; `$true` is the smallest symbol;
    /// ties broken by arity (larger is bigger) and then by id, so the order is
    /// total and deterministic. `freq[s]` is the number of occurrences of `s`.
    pub fn by_frequency(bank: &TermBank, freq: &[u64]) -> Kbo {
        let mut ids: Vec<SymbolId> = bank.sig.ids().collect();
        ids.sort_by_key(|&s| {
            let sym = bank.sig.get(s);
            let class = match sym.kind {
                SymbolKind::True => 0u8,
                SymbolKind::Function if sym.arity == 0 => 1,
                SymbolKind::Function => 2,
                SymbolKind::Predicate => 3,
            };
            let f = freq.get(s.index()).copied().unwrap_or(0);
            (class, std::cmp::Reverse(f), sym.arity, s.0)
        });
        let mut rank = vec![0; ids.len()];
        for (r, s) in ids.into_iter().enumerate() {
            rank[s.index()] = r as u32;
        }
        Kbo { rank }
    }

    /// Precedence given explicitly, smallest first. Symbols not named rank
    /// below all named ones, by id.
    pub fn from_order(bank: &TermBank, order: &[SymbolId]) -> Kbo {
        let n = bank.sig.len();
        let mut rank: Vec<u32> = (0..n as u32).collect();
        let base = n as u32;
        for (i, s) in order.iter().enumerate() {
            rank[s.index()] = base + i as u32;
        }
        Kbo { rank }
    }

    /// The precedence rank of a symbol. Symbols created after the precedence
    /// was fixed (Skolem constants of the prover) rank by id above the rest of
    /// their class, which keeps the order total.
    #[inline]
    pub fn rank(&self, s: SymbolId) -> u64 {
        match self.rank.get(s.index()) {
            Some(&r) => r as u64,
            None => (1u64 << 32) + s.0 as u64,
        }
    }

    /// Extends the precedence to symbols created since it was fixed: each new
    /// symbol is placed just above `$true` and below every old symbol, so the
    /// ordering of existing terms is unchanged (used for Skolem constants).
    pub fn extend_low(&mut self, bank: &TermBank) {
        let old = self.rank.len();
        let added = bank.sig.len().saturating_sub(old) as u32;
        if added == 0 {
            return;
        }
        for r in self.rank.iter_mut() {
            if *r > 0 {
                *r += added;
            }
        }
        for i in 0..added {
            self.rank.push(1 + i);
        }
    }

    /// Compares two terms, in one pass over both (Löchner's linear
    /// algorithm: the variable balance is accumulated while descending,
    /// never recomputed per argument pair).
    pub fn compare(&self, bank: &TermBank, s: TermId, t: TermId) -> TermOrder {
        if s == t {
            return TermOrder::Equal;
        }
        match (bank.head(s), bank.head(t)) {
            (Head::Var(_), Head::Var(_)) => TermOrder::Incomparable,
            (Head::Var(v), _) => {
                if bank.occurs(v, t) {
                    TermOrder::Less
                } else {
                    TermOrder::Incomparable
                }
            }
            (_, Head::Var(v)) => {
                if bank.occurs(v, s) {
                    TermOrder::Greater
                } else {
                    TermOrder::Incomparable
                }
            }
            _ => {
                let n = bank.var_bound(s).max(bank.var_bound(t)) as usize;
                let mut b = Balance {
                    bal: smallvec::smallvec![0; n],
                    pos: 0,
                    neg: 0,
                };
                self.walk(bank, s, t, &mut b)
            }
        }
    }

    /// KBO of two terms (weights are cached in the bank; only the variable
    /// balance is accumulated).
    ///
    /// `b` must be zero on entry; on return it holds the variable balance of
    /// the pair (occurrences in `s` minus those in `t`). Arguments are
    /// compared up to the first pair that differs, which is walked
    /// recursively from a zero balance (the equal pairs before it add
    /// nothing); the remaining pairs are only counted, so every position of
    /// both terms is visited once (Löchner, JAR 36, 2006).
    fn walk(&self, bank: &TermBank, s: TermId, t: TermId, b: &mut Balance) -> TermOrder {
        if s == t {
            return TermOrder::Equal;
        }
        if bank.is_ground(s) && bank.is_ground(t) {
            // No variable to count: the cached weights decide at once,
            // unless they tie.
            return self.compare_ground(bank, s, t);
        }
        match (bank.var_index(s), bank.var_index(t)) {
            (Some(x), Some(y)) => {
                b.add(x, 1);
                b.add(y, -1);
                TermOrder::Incomparable
            }
            (Some(x), None) => {
                b.add(x, 1);
                b.add_term(bank, t, -1);
                if b.get(x) <= 0 {
                    TermOrder::Less
                } else {
                    TermOrder::Incomparable
                }
            }
            (None, Some(y)) => {
                b.add_term(bank, s, 1);
                b.add(y, -1);
                if b.get(y) >= 0 {
                    TermOrder::Greater
                } else {
                    TermOrder::Incomparable
                }
            }
            (None, None) => {
                let (f, g) = (bank.sym(s), bank.sym(t));
                let mut first = TermOrder::Incomparable;
                if f == g {
                    let n = bank.arity(s);
                    let mut i = 0;
                    while i < n {
                        let o = self.walk(bank, bank.arg(s, i), bank.arg(t, i), b);
                        i += 1;
                        if o != TermOrder::Equal {
                            first = o;
                            break;
                        }
                    }
                    for j in i..n {
                        b.add_term(bank, bank.arg(s, j), 1);
                        b.add_term(bank, bank.arg(t, j), -1);
                    }
                } else {
                    b.add_term(bank, s, 1);
                    b.add_term(bank, t, -1);
                }
                let weight = bank.weight(s).cmp(&bank.weight(t));
                self.decide(weight, (f, g), b.neg == 0, b.pos == 0, 1, |_| first)
            }
        }
    }

    /// KBO of two ground terms: weight, then precedence, then the first
    /// argument pair that differs. Ground pairs add nothing to a variable
    /// balance, so a pair whose weights differ is decided without a walk.
    fn compare_ground(&self, bank: &TermBank, s: TermId, t: TermId) -> TermOrder {
        if s == t {
            return TermOrder::Equal;
        }
        // The variable condition holds both ways: `decide`'s case split.
        let weight = bank.weight(s).cmp(&bank.weight(t));
        let heads = (bank.sym(s), bank.sym(t));
        self.decide(weight, heads, true, true, bank.arity(s), |i| {
            self.compare_ground(bank, bank.arg(s, i), bank.arg(t, i))
        })
    }

    /// The KBO case split once the variable condition is known: `s_ge`
    /// (every variable occurs in `s` at least as often as in `t`) and
    /// `t_ge`; then weight, then precedence of the head symbols, then the
    /// first argument pair `arg(i)` that is not `Equal` (same heads only).
    fn decide(
        &self,
        weight: std::cmp::Ordering,
        (fs, ft): (SymbolId, SymbolId),
        s_ge: bool,
        t_ge: bool,
        arity: usize,
        mut arg: impl FnMut(usize) -> TermOrder,
    ) -> TermOrder {
        if !s_ge && !t_ge {
            return TermOrder::Incomparable;
        }
        let pick = |o: TermOrder| match o {
            TermOrder::Greater if s_ge => TermOrder::Greater,
            TermOrder::Less if t_ge => TermOrder::Less,
            _ => TermOrder::Incomparable,
        };
        match weight {
            std::cmp::Ordering::Greater => return pick(TermOrder::Greater),
            std::cmp::Ordering::Less => return pick(TermOrder::Less),
            std::cmp::Ordering::Equal => {}
        }
        if fs != ft {
            return pick(if self.rank(fs) > self.rank(ft) {
                TermOrder::Greater
            } else {
                TermOrder::Less
            });
        }
        for i in 0..arity {
            match arg(i) {
                TermOrder::Equal => continue,
                TermOrder::Incomparable => return TermOrder::Incomparable,
                o => return pick(o),
            }
        }
        TermOrder::Equal
    }

    /// [`Kbo::compare`] where only `Greater` and `Equal` matter: anything
    /// else is `Incomparable`. Decided without a walk when `s` weighs less
    /// (it cannot be greater), or when `t` is ground and weighs less (the
    /// variable condition holds at once).
    pub fn greater_or_equal(&self, bank: &TermBank, s: TermId, t: TermId) -> TermOrder {
        if s == t {
            return TermOrder::Equal;
        }
        let (ws, wt) = (bank.weight(s), bank.weight(t));
        if ws < wt || bank.is_var(s) {
            return TermOrder::Incomparable;
        }
        if ws > wt && bank.is_ground(t) {
            return TermOrder::Greater;
        }
        match self.compare(bank, s, t) {
            o @ (TermOrder::Greater | TermOrder::Equal) => o,
            _ => TermOrder::Incomparable,
        }
    }

    /// True if `s > t`.
    #[inline]
    pub fn greater(&self, bank: &TermBank, s: TermId, t: TermId) -> bool {
        self.compare(bank, s, t) == TermOrder::Greater
    }

    /// Compares two literals by the multiset extension of KBO, with a positive
    /// literal `s = t` read as `{s, t}` and a negative one as `{s, s, t, t}`.
    pub fn compare_lits(&self, bank: &TermBank, a: &Literal, b: &Literal) -> TermOrder {
        if a == b {
            return TermOrder::Equal;
        }
        let ma = lit_multiset(a);
        let mb = lit_multiset(b);
        self.compare_multisets(bank, &ma, &mb)
    }

    /// Multiset extension: M > N iff M != N and every element of N - M is
    /// dominated by some element of M - N.
    pub fn compare_multisets(&self, bank: &TermBank, m: &[TermId], n: &[TermId]) -> TermOrder {
        multiset_order(
            m,
            n,
            |x, y| x == y,
            |x, y| self.compare(bank, x, y) == TermOrder::Greater,
        )
    }
}

/// The multiset extension of an order given by `eq` and `gt`: M > N iff
/// M != N and every element of N - M is below some element of M - N.
pub(super) fn multiset_order<T: Copy>(
    m: &[T],
    n: &[T],
    eq: impl Fn(T, T) -> bool,
    gt: impl Fn(T, T) -> bool,
) -> TermOrder {
    let mut m: smallvec::SmallVec<[T; 4]> = m.into();
    let mut n: smallvec::SmallVec<[T; 4]> = n.into();
    // Remove common elements.
    let mut i = 0;
    while i < m.len() {
        if let Some(j) = n.iter().position(|&y| eq(m[i], y)) {
            n.swap_remove(j);
            m.swap_remove(i);
        } else {
            i += 1;
        }
    }
    if m.is_empty() && n.is_empty() {
        return TermOrder::Equal;
    }
    let dominates = |big: &[T], small: &[T]| small.iter().all(|&y| big.iter().any(|&x| gt(x, y)));
    if !m.is_empty() && dominates(&m, &n) {
        TermOrder::Greater
    } else if !n.is_empty() && dominates(&n, &m) {
        TermOrder::Less
    } else {
        TermOrder::Incomparable
    }
}

pub(super) fn lit_multiset(l: &Literal) -> smallvec::SmallVec<[TermId; 4]> {
    if l.pos {
        smallvec::smallvec![l.lhs, l.rhs]
    } else {
        smallvec::smallvec![l.lhs, l.lhs, l.rhs, l.rhs]
    }
}

/// The variable balance of Löchner's linear KBO: for each variable, its
/// occurrences on the left minus those on the right, with the number of
/// variables whose balance is positive and negative kept up to date, so the
/// variable condition in either direction is read in O(1).
pub(super) struct Balance {
    bal: smallvec::SmallVec<[i32; 32]>,
    pos: u32,
    neg: u32,
}

impl Balance {
    #[inline]
    fn add(&mut self, v: u32, d: i32) {
        let v = v as usize;
        if self.bal.len() <= v {
            self.bal.resize(v + 1, 0);
        }
        let old = self.bal[v];
        let new = old + d;
        self.bal[v] = new;
        match old.cmp(&0) {
            std::cmp::Ordering::Greater => self.pos -= 1,
            std::cmp::Ordering::Less => self.neg -= 1,
            std::cmp::Ordering::Equal => {}
        }
        match new.cmp(&0) {
            std::cmp::Ordering::Greater => self.pos += 1,
            std::cmp::Ordering::Less => self.neg += 1,
            std::cmp::Ordering::Equal => {}
        }
    }

    #[inline]
    fn get(&self, v: u32) -> i32 {
        self.bal.get(v as usize).copied().unwrap_or(0)
    }

    /// Adds `d` for each variable occurrence of `t`.
    fn add_term(&mut self, bank: &TermBank, t: TermId, d: i32) {
        if bank.is_ground(t) {
            return;
        }
        match bank.var_index(t) {
            Some(x) => self.add(x, d),
            None => {
                for &a in bank.args(t) {
                    self.add_term(bank, a, d);
                }
            }
        }
    }
}

mod inst;
mod matched;
#[cfg(test)]
mod tests;

pub use matched::permutative;
use matched::*;
