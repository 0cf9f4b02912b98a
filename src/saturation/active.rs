//! The active clause set and its indexes: fingerprint indexes for
//! superposition (from and into), resolution, unit simplification and
//! backward rewriting, and a feature-vector index for subsumption.
//!
//! Insertion and removal go through one function, `ActiveSet::update`, so
//! that the entries removed are exactly the entries inserted.

use super::discrimination::DiscTree;
use super::feature_vector::{FeatureVector, FvIndex, feature_vector};
use super::fingerprint::FpIndex;
use super::params::LiteralSelection;
use super::selection::Eligibility;
use super::store::ClauseId;
use crate::logic::{Clause, Kbo, Matcher, TermBank, TermId, TermOrder};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A position inside a term: argument indices from the root.
pub type Position = SmallVec<[u32; 6]>;

/// The position id of the root (the empty position).
pub const ROOT_POSITION: u32 = 0;

/// A subterm of an eligible literal side, a place to superpose into.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct IntoEntry {
    /// The clause.
    pub clause: ClauseId,
    /// Literal index.
    pub lit: u16,
    /// 0 = left side, 1 = right side.
    pub side: u8,
    /// Position id, read back with [`ActiveSet::position`].
    pub pos: u32,
    /// The literal is an equation whose side `side` is bigger than the
    /// other in the term ordering (so no ordering check is needed).
    pub oriented: bool,
}

/// A side of an eligible positive equation, a term to superpose from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct FromEntry {
    /// The clause.
    pub clause: ClauseId,
    /// Literal index.
    pub lit: u16,
    /// 0 = rewrite lhs to rhs, 1 = rewrite rhs to lhs.
    pub side: u8,
    /// Side `side` is bigger than the other in the term ordering.
    pub oriented: bool,
}

/// An eligible predicate literal (its atom is the index key).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct LitEntry {
    /// The clause.
    pub clause: ClauseId,
    /// Literal index.
    pub lit: u16,
}

/// A unit clause, keyed by one side of its literal.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct UnitEntry {
    /// The unit clause.
    pub clause: ClauseId,
    /// 0 = keyed by lhs, 1 = keyed by rhs.
    pub side: u8,
    /// In the demodulator index: the key side is bigger than the other in
    /// the term ordering, so every instance rewrites without an ordering
    /// check. Always false in the unit index.
    pub oriented: bool,
    /// In the demodulator index: the two sides are a permutative pair
    /// ([`crate::logic::permutative`]), so the ordering check of an
    /// unoriented unit needs no weights or variable counts
    /// ([`crate::logic::Kbo::compare_matched_permutative`]). Always false
    /// in the unit index and for oriented units.
    pub permutative: bool,
}

/// Cached facts about an active clause.
#[derive(Clone, Debug)]
pub struct ActiveInfo {
    /// Eligible literals.
    pub elig: Eligibility,
    /// Subsumption features.
    pub fv: FeatureVector,
}

/// The active set with all its indexes.
#[derive(Debug, Default)]
pub struct ActiveSet {
    /// Subterms of eligible literal sides (superposition into active clauses).
    pub sup_into: FpIndex<IntoEntry>,
    /// Maximal sides of eligible positive equations (superposition from active clauses).
    pub sup_from: FpIndex<FromEntry>,
    /// Atoms of eligible positive predicate literals.
    pub res_pos: FpIndex<LitEntry>,
    /// Atoms of eligible negative predicate literals.
    pub res_neg: FpIndex<LitEntry>,
    /// Positive unit clauses keyed by their lhs (unit subsumption of
    /// positive literals, simplify-reflect of negative ones).
    pub units_pos: FpIndex<UnitEntry>,
    /// Negative unit clauses keyed by their lhs (the same for the other
    /// polarity). Split by polarity so a lookup never walks the units that
    /// cannot match.
    pub units_neg: FpIndex<UnitEntry>,
    /// Positive unit equations keyed by each side that may be the bigger one
    /// (demodulation; a perfect discrimination tree, so retrieval returns
    /// only units that match).
    pub demod: DiscTree<UnitEntry>,
    /// Bumped whenever a rewrite rule is added, so cached normal forms know
    /// when they may be stale.
    pub demod_version: u32,
    /// Every rule side put in `demod`, in order: `(demod_version after its
    /// unit was added, key side, other side, entry)`. A normal form cached
    /// at version `v` is still one if none of the sides logged after `v`
    /// rewrites it (sides added before `v` could not then, and cannot now).
    pub demod_log: Vec<(u32, TermId, TermId, UnitEntry)>,
    /// All non-variable subterms of all active clauses (backward rewriting).
    pub subterms: FpIndex<ClauseId>,
    /// Feature vectors (subsumption).
    pub fv: FvIndex,
    info: FxHashMap<ClauseId, ActiveInfo>,
    /// Position ids as a tree: entry `id` is (parent id, argument index);
    /// id 0, the root position, is not stored. A subterm's position id is
    /// found from its parent's in O(1), so indexing a clause costs its size,
    /// not the sum of its positions' lengths (quadratic in its depth).
    positions: Vec<(u32, u32)>,
    position_ids: FxHashMap<(u32, u32), u32>,
    order: Vec<ClauseId>,
}

impl ActiveSet {
    /// The unit clauses of polarity `pos`, keyed by their lhs.
    pub fn units(&self, pos: bool) -> &FpIndex<UnitEntry> {
        if pos {
            &self.units_pos
        } else {
            &self.units_neg
        }
    }

    /// An empty active set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of active clauses.
    pub fn len(&self) -> usize {
        self.info.len()
    }

    /// True if no clause is active.
    pub fn is_empty(&self) -> bool {
        self.info.is_empty()
    }

    /// Facts about an active clause.
    pub fn info(&self, id: ClauseId) -> Option<&ActiveInfo> {
        self.info.get(&id)
    }

    /// True if the clause is active.
    pub fn contains(&self, id: ClauseId) -> bool {
        self.info.contains_key(&id)
    }

    /// The position behind a position id (argument indices from the root).
    pub fn position(&self, id: u32) -> Position {
        let mut p = Position::new();
        let mut cur = id;
        while cur != ROOT_POSITION {
            let (parent, arg) = self.positions[cur as usize - 1];
            p.push(arg);
            cur = parent;
        }
        p.reverse();
        p
    }

    /// Number of distinct positions stored (they are shared by all clauses).
    pub fn position_count(&self) -> usize {
        self.positions.len()
    }

    /// Active clause ids in activation order (deleted ones filtered out).
    pub fn ids(&self) -> impl Iterator<Item = ClauseId> + '_ {
        self.order
            .iter()
            .copied()
            .filter(|c| self.info.contains_key(c))
    }

    /// The id of argument `arg` below the position with id `parent`.
    fn child_position(&mut self, parent: u32, arg: u32) -> u32 {
        if let Some(&id) = self.position_ids.get(&(parent, arg)) {
            return id;
        }
        self.positions.push((parent, arg));
        let id = u32::try_from(self.positions.len()).expect("position ids fit in u32");
        self.position_ids.insert((parent, arg), id);
        id
    }

    /// Calls `f` on every non-variable subterm of `t` with its position id,
    /// in pre-order (the order of [`TermBank::for_each_nonvar_subterm`]).
    fn nonvar_subterms_with_ids(
        &mut self,
        bank: &TermBank,
        t: TermId,
        out: &mut Vec<(TermId, u32)>,
    ) {
        // Explicit stack: terms are as deep as the weight limit allows.
        let mut stack: Vec<(TermId, u32)> = vec![(t, ROOT_POSITION)];
        while let Some((s, id)) = stack.pop() {
            if bank.is_var(s) {
                continue;
            }
            out.push((s, id));
            for i in (0..bank.arity(s)).rev() {
                let child = self.child_position(id, i as u32);
                stack.push((bank.arg(s, i), child));
            }
        }
    }

    /// Activates a clause: computes its eligibility and indexes it.
    pub fn insert(
        &mut self,
        bank: &TermBank,
        kbo: &Kbo,
        sel: LiteralSelection,
        id: ClauseId,
        c: &Clause,
    ) {
        let info = ActiveInfo {
            elig: Eligibility::compute(bank, kbo, c, sel),
            fv: feature_vector(bank, c),
        };
        self.update(bank, kbo, id, c, &info, true);
        self.info.insert(id, info);
        self.order.push(id);
    }

    /// Removes an active clause from every index.
    pub fn remove(&mut self, bank: &TermBank, kbo: &Kbo, id: ClauseId, c: &Clause) {
        if let Some(info) = self.info.remove(&id) {
            self.update(bank, kbo, id, c, &info, false);
        }
        if self.order.len() > 64 && self.order.len() > 2 * self.info.len() {
            let info = &self.info;
            self.order.retain(|c| info.contains_key(c));
        }
    }

    fn update(
        &mut self,
        bank: &TermBank,
        kbo: &Kbo,
        id: ClauseId,
        c: &Clause,
        info: &ActiveInfo,
        ins: bool,
    ) {
        macro_rules! put {
            ($idx:expr, $t:expr, $p:expr) => {
                if ins {
                    $idx.insert(bank, $t, $p);
                } else {
                    let removed = $idx.remove(bank, $t, $p);
                    debug_assert!(removed, "index entry missing on removal");
                }
            };
        }
        let elig = info.elig;
        for (i, l) in c.lits.iter().enumerate() {
            let li = i as u16;
            let eq = l.is_equational(bank);
            let oriented = eq && kbo.compare(bank, l.lhs, l.rhs) == TermOrder::Greater;
            if elig.ok(i, l.pos) {
                // Sides to superpose into: the lhs always; the rhs of an
                // equation only when it may be maximal.
                let mut sides: SmallVec<[(u8, TermId); 2]> = SmallVec::new();
                sides.push((0, l.lhs));
                if eq && !oriented {
                    sides.push((1, l.rhs));
                }
                for (side, t) in sides {
                    let mut subs: Vec<(TermId, u32)> = Vec::new();
                    self.nonvar_subterms_with_ids(bank, t, &mut subs);
                    for (s, pos) in subs {
                        // The root of an atom is never a superposition target.
                        if !eq && pos == ROOT_POSITION {
                            continue;
                        }
                        put!(
                            self.sup_into,
                            s,
                            IntoEntry {
                                clause: id,
                                lit: li,
                                side,
                                pos,
                                oriented: side == 0 && oriented
                            }
                        );
                    }
                }
                if !eq {
                    let e = LitEntry {
                        clause: id,
                        lit: li,
                    };
                    if l.pos {
                        put!(self.res_pos, l.lhs, e);
                    } else {
                        put!(self.res_neg, l.lhs, e);
                    }
                }
            }
            if eq && l.pos && elig.positive_ok(i) {
                // Variable sides are indexed too (their fingerprint is all
                // `A`): superposition from `X = t` is needed for completeness.
                put!(
                    self.sup_from,
                    l.lhs,
                    FromEntry {
                        clause: id,
                        lit: li,
                        side: 0,
                        oriented
                    }
                );
                if !oriented {
                    put!(
                        self.sup_from,
                        l.rhs,
                        FromEntry {
                            clause: id,
                            lit: li,
                            side: 1,
                            oriented: false
                        }
                    );
                }
            }
        }
        if c.lits.len() == 1 {
            let l = c.lits[0];
            put!(
                if l.pos {
                    &mut self.units_pos
                } else {
                    &mut self.units_neg
                },
                l.lhs,
                UnitEntry {
                    clause: id,
                    side: 0,
                    oriented: false,
                    permutative: false,
                }
            );
            if l.pos && l.is_equational(bank) {
                if ins {
                    self.demod_version += 1;
                }
                let oriented = kbo.compare(bank, l.lhs, l.rhs) == TermOrder::Greater;
                let permutative = !oriented && crate::logic::permutative(bank, l.lhs, l.rhs);
                // A side rewrites only to instances of the other side with
                // no variable of their own, so a side lacking a variable of
                // the other is never a rewrite rule and is not indexed.
                let covers = |a: TermId, b: TermId| {
                    let mut vars = Vec::new();
                    bank.push_vars(b, &mut vars);
                    vars.iter().all(|&v| bank.occurs(v, a))
                };
                if !bank.is_var(l.lhs) && (oriented || covers(l.lhs, l.rhs)) {
                    let e = UnitEntry {
                        clause: id,
                        side: 0,
                        oriented,
                        permutative,
                    };
                    put!(self.demod, l.lhs, e);
                    if ins {
                        self.demod_log.push((self.demod_version, l.lhs, l.rhs, e));
                    }
                }
                if !oriented
                    && !bank.is_var(l.rhs)
                    && covers(l.rhs, l.lhs)
                    && !swapped_variant(bank, l.lhs, l.rhs)
                {
                    let e = UnitEntry {
                        clause: id,
                        side: 1,
                        oriented: false,
                        permutative,
                    };
                    put!(self.demod, l.rhs, e);
                    if ins {
                        self.demod_log.push((self.demod_version, l.rhs, l.lhs, e));
                    }
                }
            }
        }
        let mut subs: Vec<TermId> = Vec::new();
        for l in c.lits.iter() {
            bank.for_each_nonvar_subterm(l.lhs, &mut |s, _| subs.push(s));
            bank.for_each_nonvar_subterm(l.rhs, &mut |s, _| subs.push(s));
        }
        subs.sort_unstable();
        subs.dedup();
        for s in subs {
            if s != bank.true_term() {
                put!(self.subterms, s, id);
            }
        }
        if ins {
            self.fv.insert(&info.fv, id);
        } else {
            self.fv.remove(&info.fv, id);
        }
    }
}

/// True when `r` is `l` with variables swapped in pairs (a renaming that is
/// its own inverse: commutativity, `f(X,f(Y,Z)) = f(Y,f(X,Z))`). Then a
/// term matching one side matches the other, and rewriting with `r -> l`
/// asks and gives exactly what `l -> r` does, so one side is indexed.
fn swapped_variant(bank: &TermBank, l: TermId, r: TermId) -> bool {
    let (mut there, mut back) = (Matcher::new(), Matcher::new());
    if !there.matches(bank, l, r) || !back.matches(bank, r, l) {
        return false;
    }
    let mut vars = Vec::new();
    bank.push_vars(l, &mut vars);
    vars.iter().all(|&v| there.get(v) == back.get(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_ids_round_trip_and_are_shared() {
        let mut a = ActiveSet::new();
        assert!(a.position(ROOT_POSITION).is_empty());
        let p1 = a.child_position(ROOT_POSITION, 1);
        let p10 = a.child_position(p1, 0);
        assert_eq!(a.position(p10).as_slice(), &[1, 0]);
        assert_eq!(a.child_position(ROOT_POSITION, 1), p1);
        assert_eq!(a.child_position(p1, 0), p10);
        assert_eq!(a.position_count(), 2);
    }

    /// Which sides of a positive unit equation become rewrite rules: an
    /// oriented unit its bigger side; an unoriented one each side holding
    /// every variable of the other, except the right side of a pairwise
    /// variable swap (it asks what the left side asks).
    #[test]
    fn rewrite_rules_are_the_sides_that_can_rewrite() {
        use crate::logic::{Literal, SymbolKind};
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 2, SymbolKind::Function);
        let h = b.sig.intern("h", 3, SymbolKind::Function);
        let g = b.sig.intern("g", 1, SymbolKind::Function);
        let kbo = Kbo::from_order(&b, &[g, f, h]);
        let (x, y, z) = (b.var(0), b.var(1), b.var(2));
        let fxy = b.app(f, &[x, y]);
        let fyx = b.app(f, &[y, x]);
        let fyz = b.app(f, &[y, z]);
        let fxz = b.app(f, &[x, z]);
        let fx_fyz = b.app(f, &[x, fyz]);
        let fy_fxz = b.app(f, &[y, fxz]);
        let hxyz = b.app(h, &[x, y, z]);
        let hyzx = b.app(h, &[y, z, x]);
        let gx = b.app(g, &[x]);
        let gy = b.app(g, &[y]);
        let gfxy = b.app(g, &[fxy]);
        let cases = [
            // commutativity, and a permutation that swaps X and Y
            (fxy, fyx, 1),
            (fx_fyz, fy_fxz, 1),
            // a 3-cycle of variables: each side asks its own question
            (hxyz, hyzx, 2),
            // g(X) = g(Y): neither side holds the other's variable
            (gx, gy, 0),
            // oriented: g(f(X,Y)) > f(X,Y) rewrites left to right only
            (gfxy, fxy, 1),
        ];
        for (k, &(l, r, want)) in cases.iter().enumerate() {
            let mut a = ActiveSet::new();
            let c = Clause {
                lits: vec![Literal::eq(l, r, true)].into_boxed_slice(),
            };
            a.insert(&b, &kbo, LiteralSelection::None, ClauseId(k as u32), &c);
            assert_eq!(a.demod.len(), want, "case {k}");
            a.remove(&b, &kbo, ClauseId(k as u32), &c);
            assert!(a.demod.is_empty(), "case {k}");
        }
    }

    /// A term of depth n stores n positions of O(1) size each: the old
    /// layout stored each position as a path, O(n^2) for one chain term.
    #[test]
    fn deep_terms_are_indexed_in_linear_space() {
        use crate::logic::SymbolKind;
        let mut b = TermBank::new();
        let f = b.sig.intern("f", 1, SymbolKind::Function);
        let c = b.sig.intern("a", 0, SymbolKind::Function);
        let mut t = b.constant(c);
        for _ in 0..3000 {
            t = b.app(f, &[t]);
        }
        let mut a = ActiveSet::new();
        let mut subs = Vec::new();
        a.nonvar_subterms_with_ids(&b, t, &mut subs);
        assert_eq!(subs.len(), 3001);
        assert_eq!(a.position_count(), 3000);
        let (deepest, id) = *subs.last().unwrap();
        assert_eq!(deepest, b.constant(c));
        assert_eq!(a.position(id).len(), 3000);
        // Pre-order, as TermBank::for_each_nonvar_subterm visits.
        let mut pre = Vec::new();
        b.for_each_nonvar_subterm(t, &mut |s, _| pre.push(s));
        assert_eq!(pre, subs.iter().map(|e| e.0).collect::<Vec<_>>());
    }
}
