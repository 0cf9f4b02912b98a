//! KBO against a matcher's instance: the demodulation check that
//! t > σ(r) for t = σ(l), and the permutative-pair test (weights and
//! variable balance computed together, after Löchner, JAR 36, 2006).

use super::super::subst::{Bank, Matcher, Subst};
use super::super::term::{Head, TermBank, TermId};
use super::*;

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
pub(super) fn equal_matched(bank: &TermBank, m: &Matcher, t: TermId, r: TermId) -> bool {
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
pub(super) fn count_pattern_vars(
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
pub(super) struct Instances<'a> {
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
pub(super) fn weigh_matched(
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
pub(super) fn weigh_inst(
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
