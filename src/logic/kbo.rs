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

    /// Compares two terms.
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
                let (s_ge, t_ge) = var_dominance(bank, s, t);
                self.compare_apps(bank, s, t, s_ge, t_ge)
            }
        }
    }

    fn compare_apps(
        &self,
        bank: &TermBank,
        s: TermId,
        t: TermId,
        s_ge: bool,
        t_ge: bool,
    ) -> TermOrder {
        if !s_ge && !t_ge {
            return TermOrder::Incomparable;
        }
        let (ws, wt) = (bank.weight(s), bank.weight(t));
        let pick = |o: TermOrder| match o {
            TermOrder::Greater if s_ge => TermOrder::Greater,
            TermOrder::Less if t_ge => TermOrder::Less,
            _ => TermOrder::Incomparable,
        };
        if ws != wt {
            return pick(if ws > wt {
                TermOrder::Greater
            } else {
                TermOrder::Less
            });
        }
        let (fs, ft) = (bank.sym(s), bank.sym(t));
        if fs != ft {
            let o = if self.rank(fs) > self.rank(ft) {
                TermOrder::Greater
            } else {
                TermOrder::Less
            };
            return pick(o);
        }
        for i in 0..bank.arity(s) {
            let (a, b) = (bank.arg(s, i), bank.arg(t, i));
            if a != b {
                return match self.compare(bank, a, b) {
                    TermOrder::Incomparable | TermOrder::Equal => TermOrder::Incomparable,
                    o => pick(o),
                };
            }
        }
        TermOrder::Equal
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
        let mut m: smallvec::SmallVec<[TermId; 4]> = m.into();
        let mut n: smallvec::SmallVec<[TermId; 4]> = n.into();
        // Remove common elements.
        let mut i = 0;
        while i < m.len() {
            if let Some(j) = n.iter().position(|&x| x == m[i]) {
                n.swap_remove(j);
                m.swap_remove(i);
            } else {
                i += 1;
            }
        }
        if m.is_empty() && n.is_empty() {
            return TermOrder::Equal;
        }
        let dominates = |big: &[TermId], small: &[TermId]| {
            small.iter().all(|&y| {
                big.iter()
                    .any(|&x| self.compare(bank, x, y) == TermOrder::Greater)
            })
        };
        if !m.is_empty() && dominates(&m, &n) {
            TermOrder::Greater
        } else if !n.is_empty() && dominates(&n, &m) {
            TermOrder::Less
        } else {
            TermOrder::Incomparable
        }
    }
}

fn lit_multiset(l: &Literal) -> smallvec::SmallVec<[TermId; 4]> {
    if l.pos {
        smallvec::smallvec![l.lhs, l.rhs]
    } else {
        smallvec::smallvec![l.lhs, l.lhs, l.rhs, l.rhs]
    }
}

/// (every variable occurs in `s` at least as often as in `t`, and vice versa).
fn var_dominance(bank: &TermBank, s: TermId, t: TermId) -> (bool, bool) {
    if bank.is_ground(s) && bank.is_ground(t) {
        return (true, true);
    }
    let n = bank.var_bound(s).max(bank.var_bound(t)) as usize;
    let mut bal: smallvec::SmallVec<[i32; 32]> = smallvec::smallvec![0; n];
    balance(bank, s, 1, &mut bal);
    balance(bank, t, -1, &mut bal);
    (bal.iter().all(|&b| b >= 0), bal.iter().all(|&b| b <= 0))
}

/// Adds `delta` to `bal[v]` for each occurrence of variable `X<v>` in `t`.
fn balance(bank: &TermBank, t: TermId, delta: i32, bal: &mut [i32]) {
    if bank.is_ground(t) {
        return;
    }
    match bank.head(t) {
        Head::Var(v) => bal[v as usize] += delta,
        Head::Sym(_) => {
            for i in 0..bank.arity(t) {
                balance(bank, bank.arg(t, i), delta, bal);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::SymbolKind;

    #[test]
    fn basic_kbo_facts() {
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 2, SymbolKind::Function);
        let g = b.sig.intern("g", 1, SymbolKind::Function);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let kbo = Kbo::from_order(&b, &[a, g, f]);
        let x = b.var(0);
        let y = b.var(1);
        let ta = b.constant(a);
        let gx = b.app(g, &[x]);
        let fxy = b.app(f, &[x, y]);
        let fyx = b.app(f, &[y, x]);
        assert_eq!(kbo.compare(&b, gx, x), TermOrder::Greater);
        assert_eq!(kbo.compare(&b, x, gx), TermOrder::Less);
        assert_eq!(kbo.compare(&b, fxy, fyx), TermOrder::Incomparable);
        assert_eq!(kbo.compare(&b, gx, ta), TermOrder::Greater);
        assert_eq!(kbo.compare(&b, ta, x), TermOrder::Incomparable);
        let ga = b.app(g, &[ta]);
        assert_eq!(kbo.compare(&b, ga, ta), TermOrder::Greater);
        // f(X,a) vs g(g(X)): equal weight 3, f > g in precedence.
        let fxa = b.app(f, &[x, ta]);
        let ggx = b.app(g, &[gx]);
        assert_eq!(kbo.compare(&b, fxa, ggx), TermOrder::Greater);
    }
}
