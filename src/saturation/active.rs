//! The active clause set and its indexes: fingerprint indexes for
//! superposition (from and into), resolution, unit simplification and
//! backward rewriting, and a feature-vector index for subsumption.
//!
//! Insertion and removal go through one function, [`ActiveSet::update`], so
//! that the entries removed are exactly the entries inserted.

use super::feature_vector::{FeatureVector, FvIndex, feature_vector};
use super::fingerprint::FpIndex;
use super::params::LiteralSelection;
use super::selection::Eligibility;
use super::store::ClauseId;
use crate::logic::{Clause, Kbo, TermBank, TermId, TermOrder};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A position inside a term: argument indices from the root.
pub type Position = SmallVec<[u32; 6]>;

/// A subterm of an eligible literal side, a place to superpose into.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct IntoEntry {
    /// The clause.
    pub clause: ClauseId,
    /// Literal index.
    pub lit: u16,
    /// 0 = left side, 1 = right side.
    pub side: u8,
    /// Position id in [`ActiveSet::position`].
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
    /// (demodulation).
    pub demod: FpIndex<UnitEntry>,
    /// Bumped whenever a rewrite rule is added, so cached normal forms know
    /// when they may be stale.
    pub demod_version: u32,
    /// All non-variable subterms of all active clauses (backward rewriting).
    pub subterms: FpIndex<ClauseId>,
    /// Feature vectors (subsumption).
    pub fv: FvIndex,
    info: FxHashMap<ClauseId, ActiveInfo>,
    positions: Vec<Position>,
    position_ids: FxHashMap<Position, u32>,
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

    /// The position behind a position id.
    pub fn position(&self, id: u32) -> &[u32] {
        &self.positions[id as usize]
    }

    /// Active clause ids in activation order (deleted ones filtered out).
    pub fn ids(&self) -> impl Iterator<Item = ClauseId> + '_ {
        self.order
            .iter()
            .copied()
            .filter(|c| self.info.contains_key(c))
    }

    fn position_id(&mut self, p: &[u32]) -> u32 {
        if let Some(&id) = self.position_ids.get(p) {
            return id;
        }
        let id = self.positions.len() as u32;
        let key: Position = p.into();
        self.positions.push(key.clone());
        self.position_ids.insert(key, id);
        id
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
                    let mut subs: Vec<(TermId, Position)> = Vec::new();
                    bank.for_each_nonvar_subterm(t, &mut |s, p| {
                        // The root of an atom is never a superposition target.
                        if eq || !p.is_empty() {
                            subs.push((s, p.into()));
                        }
                    });
                    for (s, p) in subs {
                        let pos = self.position_id(&p);
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
                    oriented: false
                }
            );
            if l.pos && l.is_equational(bank) {
                if ins {
                    self.demod_version += 1;
                }
                let oriented = kbo.compare(bank, l.lhs, l.rhs) == TermOrder::Greater;
                if !bank.is_var(l.lhs) {
                    put!(
                        self.demod,
                        l.lhs,
                        UnitEntry {
                            clause: id,
                            side: 0,
                            oriented
                        }
                    );
                }
                if !oriented && !bank.is_var(l.rhs) {
                    put!(
                        self.demod,
                        l.rhs,
                        UnitEntry {
                            clause: id,
                            side: 1,
                            oriented: false
                        }
                    );
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
