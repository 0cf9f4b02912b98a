//! Substitutions, unification and one-way matching (with occurs check).
//!
//! Two clauses taking part in an inference keep their own clause-local
//! variable numbering; a variable is addressed as `(index, bank)` with bank 0
//! or 1, so no renaming apart is ever materialised (the "variable banks" of
//! Vampire and E's `DerefType`). Bindings are recorded on a trail so a failed
//! or finished attempt is undone in time proportional to what it bound.
//! Robinson-style recursive unification with occurs check (Robinson, JACM
//! 12(1), 1965).

use super::term::{Head, ShapeHasher, TermBank, TermId, VAR_SHAPE};

/// Which clause (0 or 1) a term's variables belong to.
pub type Bank = u8;

#[inline]
fn slot(v: u32, b: Bank) -> usize {
    ((v as usize) << 1) | b as usize
}

/// A substitution over two variable banks.
#[derive(Clone, Debug, Default)]
pub struct Subst {
    binds: Vec<Option<(TermId, Bank)>>,
    trail: Vec<usize>,
}

impl Subst {
    /// The empty substitution.
    pub fn new() -> Self {
        Self::default()
    }

    /// Removes every binding.
    pub fn clear(&mut self) {
        self.undo(0);
    }

    /// A mark to undo back to.
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Undoes bindings made since `mark`.
    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let s = self.trail.pop().unwrap();
            self.binds[s] = None;
        }
    }

    /// True if no variable is bound.
    pub fn is_empty(&self) -> bool {
        self.trail.is_empty()
    }

    #[inline]
    fn get(&self, v: u32, b: Bank) -> Option<(TermId, Bank)> {
        self.binds.get(slot(v, b)).copied().flatten()
    }

    #[inline]
    fn bind(&mut self, v: u32, b: Bank, t: TermId, tb: Bank) {
        let s = slot(v, b);
        if self.binds.len() <= s {
            self.binds.resize(s + 1, None);
        }
        self.binds[s] = Some((t, tb));
        self.trail.push(s);
    }

    /// Replaces the bindings by those of a matcher: each pattern variable
    /// `v` bound by `m` is bound, in bank `pb`, to its image read in bank
    /// `tb` (where nothing is bound, so the image's variables stay rigid).
    /// Lets the ordering compare instances of a matched pattern
    /// ([`crate::logic::Kbo::compare_inst`]) without building them.
    pub fn load_matcher(&mut self, m: &Matcher, pb: Bank, tb: Bank) {
        debug_assert_ne!(pb, tb);
        self.clear();
        for &v in &m.trail {
            if let Some(t) = m.get(v) {
                self.bind(v, pb, t, tb);
            }
        }
    }

    /// Follows variable bindings until an unbound variable or a non-variable.
    #[inline]
    pub fn deref(&self, bank: &TermBank, mut t: TermId, mut b: Bank) -> (TermId, Bank) {
        while let Some(v) = bank.var_index(t) {
            match self.get(v, b) {
                Some((u, ub)) => {
                    t = u;
                    b = ub;
                }
                None => break,
            }
        }
        (t, b)
    }

    fn occurs(&self, bank: &TermBank, v: u32, vb: Bank, t: TermId, tb: Bank) -> bool {
        let (t, tb) = self.deref(bank, t, tb);
        if bank.is_ground(t) {
            return false;
        }
        match bank.head(t) {
            Head::Var(w) => w == v && tb == vb,
            Head::Sym(_) => {
                (0..bank.arity(t)).any(|i| self.occurs(bank, v, vb, bank.arg(t, i), tb))
            }
        }
    }

    /// Extends the substitution to a most general unifier of `s` (bank `bs`)
    /// and `t` (bank `bt`). On failure the substitution is left unchanged.
    pub fn unify(&mut self, bank: &TermBank, s: TermId, bs: Bank, t: TermId, bt: Bank) -> bool {
        let m = self.mark();
        if self.unify_rec(bank, s, bs, t, bt) {
            true
        } else {
            self.undo(m);
            false
        }
    }

    fn unify_rec(&mut self, bank: &TermBank, s: TermId, bs: Bank, t: TermId, bt: Bank) -> bool {
        let (s, bs) = self.deref(bank, s, bs);
        let (t, bt) = self.deref(bank, t, bt);
        if s == t && (bs == bt || bank.is_ground(s)) {
            return true;
        }
        match (bank.head(s), bank.head(t)) {
            (Head::Var(v), _) => {
                if let Head::Var(w) = bank.head(t) {
                    if v == w && bs == bt {
                        return true;
                    }
                } else if bank.is_formula(t) || self.occurs(bank, v, bs, t, bt) {
                    return false;
                }
                self.bind(v, bs, t, bt);
                true
            }
            (_, Head::Var(w)) => {
                if bank.is_formula(s) || self.occurs(bank, w, bt, s, bs) {
                    return false;
                }
                self.bind(w, bt, s, bs);
                true
            }
            (Head::Sym(f), Head::Sym(g)) => {
                if f != g {
                    return false;
                }
                for i in 0..bank.arity(s) {
                    if !self.unify_rec(bank, bank.arg(s, i), bs, bank.arg(t, i), bt) {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// Applies the substitution to `t` (bank `b`) and builds the result in the
    /// bank. Unbound variables are renamed through `ren`, which numbers them
    /// in order of first occurrence across all calls sharing `ren`.
    pub fn apply(&self, bank: &mut TermBank, t: TermId, b: Bank, ren: &mut Renaming) -> TermId {
        if bank.is_ground(t) {
            return t;
        }
        let (t, b) = self.deref(bank, t, b);
        if bank.is_ground(t) {
            return t;
        }
        match bank.head(t) {
            Head::Var(v) => {
                let i = ren.get(v, b);
                bank.var(i)
            }
            Head::Sym(f) => {
                let n = bank.arity(t);
                let mut args: smallvec::SmallVec<[TermId; 8]> =
                    smallvec::SmallVec::with_capacity(n);
                for i in 0..n {
                    let a = bank.arg(t, i);
                    args.push(self.apply(bank, a, b, ren));
                }
                bank.app(f, &args)
            }
        }
    }
}

/// A replacement inside a term being instantiated: the subterm at `pos`
/// (argument indices from the root of the original, uninstantiated term; a
/// non-variable position) is replaced by `by`, whose variables are in bank
/// `by_bank`. Superposition conclusions are built this way in one pass.
#[derive(Copy, Clone, Debug)]
pub struct Replace<'p> {
    /// Where, in the original term.
    pub pos: &'p [u32],
    /// The replacement.
    pub by: TermId,
    /// The replacement's variable bank.
    pub by_bank: Bank,
}

impl Subst {
    /// [`Subst::apply`] with the subterm at `r.pos` of `t` replaced by the
    /// instance of `r.by`: the same term as applying the substitution and
    /// then replacing, without building the intermediate term.
    pub fn apply_replacing(
        &self,
        bank: &mut TermBank,
        t: TermId,
        b: Bank,
        r: Replace<'_>,
        ren: &mut Renaming,
    ) -> TermId {
        let Some((&i, rest)) = r.pos.split_first() else {
            return self.apply(bank, r.by, r.by_bank, ren);
        };
        let f = bank.sym(t);
        let n = bank.arity(t);
        let mut args: smallvec::SmallVec<[TermId; 8]> = smallvec::SmallVec::with_capacity(n);
        for k in 0..n {
            let a = bank.arg(t, k);
            args.push(if k == i as usize {
                let inner = Replace { pos: rest, ..r };
                self.apply_replacing(bank, a, b, inner, ren)
            } else {
                self.apply(bank, a, b, ren)
            });
        }
        bank.app(f, &args)
    }

    /// Weight and shape ([`TermBank::weight`], [`TermBank::shape`]) of the
    /// instance of `t` (bank `b`), computed without building it. Both are
    /// blind to variable names, so the renaming does not matter.
    pub fn weight_shape(&self, bank: &TermBank, t: TermId, b: Bank) -> (u32, u32) {
        self.weigh::<true>(bank, t, b)
    }

    /// The weight alone of [`Subst::weight_shape`] (no shape is hashed).
    pub fn weight(&self, bank: &TermBank, t: TermId, b: Bank) -> u32 {
        self.weigh::<false>(bank, t, b).0
    }

    /// Weight, and shape when `SHAPE` (0 otherwise), of the instance of `t`:
    /// [`Subst::weight_shape`] or [`Subst::weight`].
    pub fn weigh<const SHAPE: bool>(&self, bank: &TermBank, t: TermId, b: Bank) -> (u32, u32) {
        let cached = |t| (bank.weight(t), if SHAPE { bank.shape(t) } else { 0 });
        if bank.is_ground(t) {
            return cached(t);
        }
        let (t, b) = self.deref(bank, t, b);
        if bank.is_ground(t) {
            return cached(t);
        }
        if bank.is_var(t) {
            return (1, if SHAPE { VAR_SHAPE } else { 0 });
        }
        let mut w = 1u32;
        let mut sh = ShapeHasher::new(bank.head_code(t));
        for &a in bank.args(t) {
            let (wa, sa) = self.weigh::<SHAPE>(bank, a, b);
            w = w.saturating_add(wa);
            if SHAPE {
                sh.arg(sa);
            }
        }
        (w, if SHAPE { sh.finish() } else { 0 })
    }

    /// Weight, and shape when `SHAPE` (0 otherwise), of the term
    /// [`Subst::apply_replacing`] builds: [`Subst::weight_shape`] or
    /// [`Subst::weight`] of that instance, without building it.
    pub fn weigh_replacing<const SHAPE: bool>(
        &self,
        bank: &TermBank,
        t: TermId,
        b: Bank,
        r: Replace<'_>,
    ) -> (u32, u32) {
        let Some((&i, rest)) = r.pos.split_first() else {
            return self.weigh::<SHAPE>(bank, r.by, r.by_bank);
        };
        let mut w = 1u32;
        let mut sh = ShapeHasher::new(bank.head_code(t));
        for (k, &a) in bank.args(t).iter().enumerate() {
            let (wa, sa) = if k == i as usize {
                let inner = Replace { pos: rest, ..r };
                self.weigh_replacing::<SHAPE>(bank, a, b, inner)
            } else {
                self.weigh::<SHAPE>(bank, a, b)
            };
            w = w.saturating_add(wa);
            if SHAPE {
                sh.arg(sa);
            }
        }
        (w, if SHAPE { sh.finish() } else { 0 })
    }
}

/// Assigns fresh consecutive variable indices to `(variable, bank)` pairs.
#[derive(Clone, Debug, Default)]
pub struct Renaming {
    map: Vec<u32>,
    next: u32,
}

impl Renaming {
    /// An empty renaming.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every assignment.
    pub fn clear(&mut self) {
        self.map.clear();
        self.next = 0;
    }

    /// The new index of `(v, b)`, assigned on first request.
    #[inline]
    pub fn get(&mut self, v: u32, b: Bank) -> u32 {
        let s = slot(v, b);
        if self.map.len() <= s {
            self.map.resize(s + 1, 0);
        }
        if self.map[s] == 0 {
            self.next += 1;
            self.map[s] = self.next;
        }
        self.map[s] - 1
    }

    /// Number of variables assigned so far.
    pub fn count(&self) -> u32 {
        self.next
    }
}

/// A one-way matching substitution: binds variables of a pattern to terms of
/// a target, which are taken verbatim (the target's variables are rigid).
#[derive(Clone, Debug, Default)]
pub struct Matcher {
    binds: Vec<Option<TermId>>,
    trail: Vec<u32>,
}

impl Matcher {
    /// The empty matcher.
    pub fn new() -> Self {
        Self::default()
    }

    /// A mark to undo back to.
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Undoes bindings made since `mark`.
    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let v = self.trail.pop().unwrap();
            self.binds[v as usize] = None;
        }
    }

    /// Removes every binding.
    pub fn clear(&mut self) {
        self.undo(0);
    }

    /// Replaces every binding by `bindings` (pattern variable, term): the
    /// matcher of a match found elsewhere (a discrimination tree).
    pub fn set(&mut self, bindings: impl IntoIterator<Item = (u32, TermId)>) {
        self.clear();
        for (v, t) in bindings {
            self.bind(v, t);
        }
    }

    /// Binds the unbound pattern variable `v` to `t` (undone by
    /// [`Matcher::undo`] like a binding made by matching).
    pub fn bind(&mut self, v: u32, t: TermId) {
        let vi = v as usize;
        if self.binds.len() <= vi {
            self.binds.resize(vi + 1, None);
        }
        debug_assert!(self.binds[vi].is_none(), "X{v} is bound already");
        self.binds[vi] = Some(t);
        self.trail.push(v);
    }

    /// The binding of pattern variable `v`.
    #[inline]
    pub fn get(&self, v: u32) -> Option<TermId> {
        self.binds.get(v as usize).copied().flatten()
    }

    /// Extends the matcher so that `pattern`σ = `target`. On failure it is
    /// left unchanged.
    pub fn matches(&mut self, bank: &TermBank, pattern: TermId, target: TermId) -> bool {
        let m = self.mark();
        if self.match_rec(bank, pattern, target) {
            true
        } else {
            self.undo(m);
            false
        }
    }

    fn match_rec(&mut self, bank: &TermBank, p: TermId, t: TermId) -> bool {
        if bank.is_ground(p) {
            return p == t;
        }
        match bank.head(p) {
            Head::Var(v) => match self.get(v) {
                Some(b) => b == t,
                None if bank.is_formula(t) => false,
                None => {
                    let vi = v as usize;
                    if self.binds.len() <= vi {
                        self.binds.resize(vi + 1, None);
                    }
                    self.binds[vi] = Some(t);
                    self.trail.push(v);
                    true
                }
            },
            Head::Sym(f) => {
                if bank.head_code(t) != f.0 || bank.weight(p) > bank.weight(t) {
                    return false;
                }
                for i in 0..bank.arity(p) {
                    if !self.match_rec(bank, bank.arg(p, i), bank.arg(t, i)) {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// True when every variable of `t` is bound (then `t`'s instance has no
    /// variable the matched target lacks).
    pub fn binds_all_vars(&self, bank: &TermBank, t: TermId) -> bool {
        if bank.is_ground(t) {
            return true;
        }
        match bank.head(t) {
            Head::Var(v) => self.get(v).is_some(),
            Head::Sym(_) => (0..bank.arity(t)).all(|i| self.binds_all_vars(bank, bank.arg(t, i))),
        }
    }

    /// The pattern `t` instantiated by the matcher; unbound variables stay as
    /// they are.
    pub fn apply(&self, bank: &mut TermBank, t: TermId) -> TermId {
        if bank.is_ground(t) {
            return t;
        }
        match bank.head(t) {
            Head::Var(v) => self.get(v).unwrap_or(t),
            Head::Sym(f) => {
                let n = bank.arity(t);
                let mut args: smallvec::SmallVec<[TermId; 8]> =
                    smallvec::SmallVec::with_capacity(n);
                for i in 0..n {
                    let a = bank.arg(t, i);
                    args.push(self.apply(bank, a));
                }
                bank.app(f, &args)
            }
        }
    }
}

/// Renames the variables of `t` by `map` (old index -> new index).
pub fn rename(bank: &mut TermBank, t: TermId, map: &[u32]) -> TermId {
    if bank.is_ground(t) {
        return t;
    }
    match bank.head(t) {
        Head::Var(v) => bank.var(map[v as usize]),
        Head::Sym(f) => {
            let n = bank.arity(t);
            let mut args: smallvec::SmallVec<[TermId; 8]> = smallvec::SmallVec::with_capacity(n);
            for i in 0..n {
                let a = bank.arg(t, i);
                args.push(rename(bank, a, map));
            }
            bank.app(f, &args)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::SymbolKind;

    #[test]
    fn unify_across_banks_and_occurs_check() {
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 2, SymbolKind::Function);
        let g = b.sig.intern("g", 1, SymbolKind::Function);
        let x = b.var(0);
        let gx = b.app(g, &[x]);
        let fxx = b.app(f, &[x, x]);
        let fxgx = b.app(f, &[x, gx]);
        let mut s = Subst::new();
        // f(X,X) in bank 0 vs f(X, g(X)) in bank 1: X0 = X1 and X0 = g(X1): fails by occurs.
        assert!(!s.unify(&b, fxx, 0, fxgx, 1));
        assert!(s.is_empty());
        // Same-bank f(X,X) vs f(X,g(X)) fails by occurs check as well.
        assert!(!s.unify(&b, fxx, 0, fxgx, 0));
        // f(X0,X0) vs f(g(X1), Y) in other bank: unifies.
        let y = b.var(1);
        let fgxy = b.app(f, &[gx, y]);
        assert!(s.unify(&b, fxx, 0, fgxy, 1));
        let mut r = Renaming::new();
        let i1 = s.apply(&mut b, fxx, 0, &mut r);
        let i2 = s.apply(&mut b, fgxy, 1, &mut r);
        assert_eq!(i1, i2);
    }

    #[test]
    fn matching_is_one_way() {
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 2, SymbolKind::Function);
        let a = b.sig.intern("a", 0, SymbolKind::Function);
        let ta = b.constant(a);
        let x = b.var(0);
        let y = b.var(1);
        let fxx = b.app(f, &[x, x]);
        let faa = b.app(f, &[ta, ta]);
        let fay = b.app(f, &[ta, y]);
        let mut m = Matcher::new();
        assert!(m.matches(&b, fxx, faa));
        m.clear();
        assert!(!m.matches(&b, fxx, fay));
        assert!(!m.matches(&b, faa, fxx));
        assert!(m.matches(&b, fay, faa));
        assert_eq!(m.apply(&mut b, fay), faa);
    }
}
