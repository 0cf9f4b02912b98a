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
use super::subst::{Bank, Matcher, Subst};
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

/// A term under a substitution: the instance of `.0` with variables in
/// bank `.1` (see [`Subst`]).
type Inst = (TermId, Bank);

impl Kbo {
    /// Compares the instances `σ(s)` and `σ(t)` of two terms under `sub`
    /// (variables of `s` in bank `bs`, of `t` in bank `bt`) without building
    /// them: the same answer as [`Kbo::compare`] on the built instances.
    /// The post-unification ordering checks of the calculus use it, so an
    /// inference that fails them leaves nothing in the term bank.
    pub fn compare_inst(
        &self,
        bank: &TermBank,
        sub: &Subst,
        s: TermId,
        bs: Bank,
        t: TermId,
        bt: Bank,
    ) -> TermOrder {
        let (s, bs) = sub.deref(bank, s, bs);
        let (t, bt) = sub.deref(bank, t, bt);
        if s == t && (bs == bt || bank.is_ground(s)) {
            return TermOrder::Equal;
        }
        match (bank.var_index(s), bank.var_index(t)) {
            (Some(v), Some(w)) => {
                if v == w && bs == bt {
                    TermOrder::Equal
                } else {
                    TermOrder::Incomparable
                }
            }
            (Some(v), None) => {
                if occurs_inst(bank, sub, v, bs, t, bt) {
                    TermOrder::Less
                } else {
                    TermOrder::Incomparable
                }
            }
            (None, Some(w)) => {
                if occurs_inst(bank, sub, w, bt, s, bs) {
                    TermOrder::Greater
                } else {
                    TermOrder::Incomparable
                }
            }
            (None, None) => {
                let mut bal: smallvec::SmallVec<[i32; 32]> = smallvec::SmallVec::new();
                let ws = weigh_inst(bank, sub, s, bs, 1, &mut bal);
                let wt = weigh_inst(bank, sub, t, bt, -1, &mut bal);
                let s_ge = bal.iter().all(|&b| b >= 0);
                let t_ge = bal.iter().all(|&b| b <= 0);
                self.decide(
                    ws.cmp(&wt),
                    (bank.sym(s), bank.sym(t)),
                    s_ge,
                    t_ge,
                    bank.arity(s),
                    |i| self.compare_inst(bank, sub, bank.arg(s, i), bs, bank.arg(t, i), bt),
                )
            }
        }
    }

    /// [`Kbo::compare_lits`] on the instances of two literals whose
    /// variables are all in bank `b`, without building them.
    pub fn compare_lits_inst(
        &self,
        bank: &TermBank,
        sub: &Subst,
        a: &Literal,
        b: &Literal,
        bk: Bank,
    ) -> TermOrder {
        if !a.is_equational(bank) && !b.is_equational(bank) {
            // Predicate literals: {A, $true} (twice each when negative),
            // and `$true` is below every atom, so the atoms decide, and
            // between equal atoms the negative literal is bigger.
            if eq_inst(bank, sub, a.lhs, bk, b.lhs, bk) {
                return match (a.pos, b.pos) {
                    (x, y) if x == y => TermOrder::Equal,
                    (false, true) => TermOrder::Greater,
                    _ => TermOrder::Less,
                };
            }
            return match self.compare_inst(bank, sub, a.lhs, bk, b.lhs, bk) {
                TermOrder::Equal => TermOrder::Incomparable,
                o => o,
            };
        }
        let inst = |l: &Literal| -> smallvec::SmallVec<[Inst; 4]> {
            lit_multiset(l).into_iter().map(|t| (t, bk)).collect()
        };
        multiset_order(
            &inst(a),
            &inst(b),
            |(x, xb), (y, yb)| eq_inst(bank, sub, x, xb, y, yb),
            |(x, xb), (y, yb)| self.compare_inst(bank, sub, x, xb, y, yb) == TermOrder::Greater,
        )
    }
}

/// True if the instances of `s` and `t` are the same term.
fn eq_inst(bank: &TermBank, sub: &Subst, s: TermId, bs: Bank, t: TermId, bt: Bank) -> bool {
    let (s, bs) = sub.deref(bank, s, bs);
    let (t, bt) = sub.deref(bank, t, bt);
    if s == t && (bs == bt || bank.is_ground(s)) {
        return true;
    }
    if bank.head_code(s) != bank.head_code(t) || bank.is_var(s) {
        // Different heads, or two distinct variables.
        return false;
    }
    if bank.is_ground(s) && bank.is_ground(t) {
        // Hash-consed ground terms are equal only if identical.
        return false;
    }
    bank.args(s)
        .iter()
        .zip(bank.args(t))
        .all(|(&a, &b)| eq_inst(bank, sub, a, bs, b, bt))
}

/// True if variable `v` of bank `vb` occurs in the instance of `t`.
fn occurs_inst(bank: &TermBank, sub: &Subst, v: u32, vb: Bank, t: TermId, tb: Bank) -> bool {
    if bank.is_ground(t) {
        return false;
    }
    let (t, tb) = sub.deref(bank, t, tb);
    match bank.var_index(t) {
        Some(w) => w == v && tb == vb,
        None => bank
            .args(t)
            .iter()
            .any(|&a| occurs_inst(bank, sub, v, vb, a, tb)),
    }
}

impl Kbo {
    /// Decides whether `t` > σ(`r`) where `t` = σ(`l`) for the matcher `m`
    /// (pattern variables bound to terms of `bank`, whose own variables are
    /// rigid), without building σ(`r`): the demodulation check for units
    /// the ordering does not orient. `sub` is scratch: it is loaded with
    /// the same bindings (pattern bank 0, target bank 1) only for the rare
    /// cases handed to [`Kbo::compare_inst`].
    ///
    /// `Greater` and `Equal` are exact (`Less` is not told apart from
    /// `Incomparable`). One pass over `l` and `r`: the variable condition is
    /// read off the patterns (when no pattern variable occurs more often in
    /// `r` than in `l`, σ(`l`) has at least the variable occurrences of
    /// σ(`r`)), σ(`r`)'s weight is `r`'s with each variable counted at its
    /// image's cached weight, and the images are walked only where a pattern
    /// variable meets a variable or the pattern condition fails.
    pub fn compare_matched(
        &self,
        bank: &TermBank,
        m: &Matcher,
        sub: &mut Subst,
        t: TermId,
        l: TermId,
        r: TermId,
    ) -> TermOrder {
        let n = bank.var_bound(l).max(bank.var_bound(r)) as usize;
        let mut acc: smallvec::SmallVec<[i32; 16]> = smallvec::smallvec![0; n];
        let mut inst = Instances {
            m,
            sub,
            loaded: false,
        };
        match self.walk_matched(bank, &mut inst, (t, l, r), &mut acc).0 {
            o @ (TermOrder::Greater | TermOrder::Equal) => o,
            _ => TermOrder::Incomparable,
        }
    }

    /// [`Kbo::compare_matched`] for a permutative pair ([`permutative`]):
    /// `l` and `r` hold the same symbols and the same variables, each as
    /// often, so for every σ the instances weigh the same and have the same
    /// variable occurrences. KBO then decides by the heads' precedence, or,
    /// under one head, by the first argument pair whose instances differ
    /// (the lexicographic case of Knuth and Bendix), and the weight and
    /// variable balance of the whole pair is never counted. Commutativity,
    /// associativity and their variants are of this kind; they are most of
    /// the unoriented units of an AC theory. Same answers as
    /// [`Kbo::compare_matched`].
    pub fn compare_matched_permutative(
        &self,
        bank: &TermBank,
        m: &Matcher,
        sub: &mut Subst,
        t: TermId,
        l: TermId,
        r: TermId,
    ) -> TermOrder {
        let from = match self.permutative_prefix(bank, t, l, r, |v| m.get(v)) {
            Ok(o) => return o,
            Err(i) => i,
        };
        if from == usize::MAX {
            return self.compare_matched(bank, m, sub, t, l, r);
        }
        let n = bank.var_bound(l).max(bank.var_bound(r)) as usize;
        let mut acc: smallvec::SmallVec<[i32; 16]> = smallvec::SmallVec::new();
        let mut inst = Instances {
            m,
            sub,
            loaded: false,
        };
        for i in from..bank.arity(l) {
            let (ti, li, ri) = (bank.arg(t, i), bank.arg(l, i), bank.arg(r, i));
            let o = self
                .permutative_pair(bank, ti, li, ri, |v| m.get(v))
                .unwrap_or_else(|| {
                    if acc.is_empty() {
                        acc.resize(n, 0);
                    }
                    self.walk_matched(bank, &mut inst, (ti, li, ri), &mut acc).0
                });
            match o {
                TermOrder::Equal => {}
                TermOrder::Greater => return TermOrder::Greater,
                _ => return TermOrder::Incomparable,
            }
        }
        TermOrder::Equal
    }

    /// The part of [`Kbo::compare_matched_permutative`] that needs only the
    /// images of single pattern variables (`image`): the heads'
    /// precedence, then the argument pairs that are the same pattern or two
    /// variables (commutativity and its variants decide there). `Ok` is the
    /// answer; `Err(i)` means arguments before `i` have equal instances and
    /// pair `i` needs the instance walk (`Err(usize::MAX)`: a side is a
    /// variable, the general comparison decides). Lets a caller holding the
    /// images elsewhere (a discrimination-tree retrieval) skip loading a
    /// [`Matcher`] for the candidates decided here, most of them.
    pub fn permutative_prefix(
        &self,
        bank: &TermBank,
        t: TermId,
        l: TermId,
        r: TermId,
        image: impl Fn(u32) -> Option<TermId>,
    ) -> Result<TermOrder, usize> {
        debug_assert!(permutative(bank, l, r));
        if bank.is_var(l) || bank.is_var(r) {
            return Err(usize::MAX);
        }
        let (f, g) = (bank.sym(l), bank.sym(r));
        if f != g {
            return Ok(if self.rank(f) > self.rank(g) {
                TermOrder::Greater
            } else {
                TermOrder::Incomparable
            });
        }
        for i in 0..bank.arity(l) {
            let pair = (bank.arg(t, i), bank.arg(l, i), bank.arg(r, i));
            match self.permutative_pair(bank, pair.0, pair.1, pair.2, &image) {
                Some(TermOrder::Equal) => {}
                Some(TermOrder::Greater) => return Ok(TermOrder::Greater),
                Some(_) => return Ok(TermOrder::Incomparable),
                None => return Err(i),
            }
        }
        Ok(TermOrder::Equal)
    }

    /// The order of the instances of one argument pair (`ti` = σ(`li`),
    /// σ(`ri`)) of a permutative unit, when it needs no walk: the same
    /// pattern has the same instance, and of two variables the images are
    /// compared (`Greater`, `Equal` or else `Incomparable`). `None` for any
    /// other pair.
    #[inline]
    fn permutative_pair(
        &self,
        bank: &TermBank,
        ti: TermId,
        li: TermId,
        ri: TermId,
        image: impl Fn(u32) -> Option<TermId>,
    ) -> Option<TermOrder> {
        if li == ri {
            return Some(TermOrder::Equal);
        }
        let (true, Some(y)) = (bank.is_var(li), bank.var_index(ri)) else {
            return None;
        };
        Some(match image(y) {
            Some(u) => self.greater_or_equal(bank, ti, u),
            None => TermOrder::Incomparable,
        })
    }

    /// [`Kbo::compare_matched`] on the pair (`t` = σ(`l`), σ(`r`)) with
    /// w(`t`) − w(σ(`r`)); adds the pair's pattern-variable balance
    /// (occurrences in `l` minus those in `r`) to `acc`. Arguments are
    /// compared up to the first pair that is not `Equal`, the rest only
    /// counted; each level decides from its own balance, so the pattern
    /// condition is exact per level and every pattern position is visited
    /// once.
    fn walk_matched(
        &self,
        bank: &TermBank,
        inst: &mut Instances,
        (t, l, r): (TermId, TermId, TermId),
        acc: &mut smallvec::SmallVec<[i32; 16]>,
    ) -> (TermOrder, i64) {
        let m = inst.m;
        if let Some(y) = bank.var_index(r) {
            // σ(r) is a built term: compare exactly.
            count_pattern_vars(bank, l, 1, acc);
            acc[y as usize] -= 1;
            return match m.get(y) {
                Some(u) => (
                    self.greater_or_equal(bank, t, u),
                    bank.weight(t) as i64 - bank.weight(u) as i64,
                ),
                None => (TermOrder::Incomparable, 0),
            };
        }
        if let Some(x) = bank.var_index(l) {
            acc[x as usize] += 1;
            let wr = weigh_matched(bank, m, r, -1, acc);
            if equal_matched(bank, m, t, r) {
                return (TermOrder::Equal, 0);
            }
            let o = match self.compare_inst(bank, inst.sub(), l, 0, r, 0) {
                TermOrder::Greater => TermOrder::Greater,
                _ => TermOrder::Incomparable,
            };
            return (o, bank.weight(t) as i64 - wr);
        }
        let mut local: smallvec::SmallVec<[i32; 16]> = smallvec::smallvec![0; acc.len()];
        let (f, g) = (bank.sym(l), bank.sym(r));
        let mut first = TermOrder::Incomparable;
        let mut wd = 0;
        if f == g {
            let k = bank.arity(l);
            let mut i = 0;
            first = TermOrder::Equal;
            while i < k {
                let pair = (bank.arg(t, i), bank.arg(l, i), bank.arg(r, i));
                let (o, d) = self.walk_matched(bank, inst, pair, &mut local);
                wd += d;
                i += 1;
                if o != TermOrder::Equal {
                    first = o;
                    break;
                }
            }
            if first == TermOrder::Equal {
                for (a, d) in acc.iter_mut().zip(&local) {
                    *a += d;
                }
                return (TermOrder::Equal, 0);
            }
            for j in i..k {
                count_pattern_vars(bank, bank.arg(l, j), 1, &mut local);
                wd += bank.weight(bank.arg(t, j)) as i64
                    - weigh_matched(bank, m, bank.arg(r, j), -1, &mut local);
            }
        } else {
            count_pattern_vars(bank, l, 1, &mut local);
            wd = bank.weight(t) as i64 - weigh_matched(bank, m, r, -1, &mut local);
        }
        let pattern_ge = local.iter().all(|&d| d >= 0);
        for (a, d) in acc.iter_mut().zip(&local) {
            *a += d;
        }
        let greater_if_vars = match wd.cmp(&0) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal if f != g => self.rank(f) > self.rank(g),
            std::cmp::Ordering::Equal => first == TermOrder::Greater,
        };
        let o = if !greater_if_vars {
            TermOrder::Incomparable
        } else if pattern_ge {
            TermOrder::Greater
        } else {
            // The pattern condition is only sufficient: decide exactly.
            match self.compare_inst(bank, inst.sub(), l, 0, r, 0) {
                TermOrder::Greater => TermOrder::Greater,
                _ => TermOrder::Incomparable,
            }
        };
        (o, wd)
    }
}

/// True when `l` and `r` hold the same symbols and the same variables, each
/// as often (a permutative pair: commutativity, associativity, and their
/// variants). Then, whatever σ, σ(`l`) and σ(`r`) weigh the same and have
/// the same variable occurrences: see [`Kbo::compare_matched_permutative`].
pub fn permutative(bank: &TermBank, l: TermId, r: TermId) -> bool {
    fn heads(bank: &TermBank, t: TermId, out: &mut Vec<u64>) {
        match bank.head(t) {
            Head::Var(v) => out.push(1 << 32 | u64::from(v)),
            Head::Sym(f) => {
                out.push(f.index() as u64);
                for &a in bank.args(t) {
                    heads(bank, a, out);
                }
            }
        }
    }
    if bank.weight(l) != bank.weight(r) {
        return false;
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    heads(bank, l, &mut a);
    heads(bank, r, &mut b);
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// True when `t` = σ(`r`) for the matcher `m`.
fn equal_matched(bank: &TermBank, m: &Matcher, t: TermId, r: TermId) -> bool {
    if bank.is_ground(r) {
        return t == r;
    }
    match bank.var_index(r) {
        Some(x) => m.get(x) == Some(t),
        None => {
            bank.head_code(t) == bank.head_code(r)
                && !bank.is_var(t)
                && (0..bank.arity(r))
                    .all(|i| equal_matched(bank, m, bank.arg(t, i), bank.arg(r, i)))
        }
    }
}

/// Adds `delta` to `counts[x]` for each occurrence of variable `x` in `t`.
fn count_pattern_vars(
    bank: &TermBank,
    t: TermId,
    delta: i32,
    counts: &mut smallvec::SmallVec<[i32; 16]>,
) {
    if bank.is_ground(t) {
        return;
    }
    match bank.var_index(t) {
        Some(x) => {
            let x = x as usize;
            if counts.len() <= x {
                counts.resize(x + 1, 0);
            }
            counts[x] += delta;
        }
        None => {
            for &a in bank.args(t) {
                count_pattern_vars(bank, a, delta, counts);
            }
        }
    }
}

/// A matcher's instances for [`Kbo::compare_inst`]: the substitution is
/// loaded from the matcher the first time it is asked for.
struct Instances<'a> {
    m: &'a Matcher,
    sub: &'a mut Subst,
    loaded: bool,
}

impl Instances<'_> {
    fn sub(&mut self) -> &Subst {
        if !self.loaded {
            self.sub.load_matcher(self.m, 0, 1);
            self.loaded = true;
        }
        self.sub
    }
}

/// The weight of σ(`t`) for the matcher `m`, from the images' cached
/// weights, adding `delta` to `counts[x]` for each occurrence of a pattern
/// variable `x` in `t`.
fn weigh_matched(
    bank: &TermBank,
    m: &Matcher,
    t: TermId,
    delta: i32,
    counts: &mut smallvec::SmallVec<[i32; 16]>,
) -> i64 {
    if bank.is_ground(t) {
        return bank.weight(t) as i64;
    }
    match bank.var_index(t) {
        Some(x) => {
            counts[x as usize] += delta;
            m.get(x).map_or(bank.weight(t), |u| bank.weight(u)) as i64
        }
        None => {
            let mut w = 1;
            for &a in bank.args(t) {
                w += weigh_matched(bank, m, a, delta, counts);
            }
            w
        }
    }
}

/// The weight of the instance of `t`, adding `delta` to the balance of each
/// of its (unbound) variable occurrences; variable `(v, b)` is at `2v + b`.
fn weigh_inst(
    bank: &TermBank,
    sub: &Subst,
    t: TermId,
    b: Bank,
    delta: i32,
    bal: &mut smallvec::SmallVec<[i32; 32]>,
) -> u32 {
    if bank.is_ground(t) {
        return bank.weight(t);
    }
    let (t, b) = sub.deref(bank, t, b);
    if bank.is_ground(t) {
        return bank.weight(t);
    }
    match bank.var_index(t) {
        Some(v) => {
            let k = ((v as usize) << 1) | b as usize;
            if bal.len() <= k {
                bal.resize(k + 1, 0);
            }
            bal[k] += delta;
            bank.weight(t)
        }
        None => {
            // Unit weights: the head symbol weighs 1.
            let mut w = 1u32;
            for &a in bank.args(t) {
                w = w.saturating_add(weigh_inst(bank, sub, a, b, delta, bal));
            }
            w
        }
    }
}

/// The multiset extension of an order given by `eq` and `gt`: M > N iff
/// M != N and every element of N - M is below some element of M - N.
fn multiset_order<T: Copy>(
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

fn lit_multiset(l: &Literal) -> smallvec::SmallVec<[TermId; 4]> {
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
struct Balance {
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
