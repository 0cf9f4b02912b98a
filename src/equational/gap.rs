//! Gap cutting for ProofGrid EQ1's gap filling (seed 000 §3; spec
//! `pl_eq.md` §5.6), with certified decoys: one run of consecutive lines of
//! a correct proof is to be hidden, and for a decoy the line after the gap
//! is changed so that no chain of steps can fill it.
//!
//! Decoys are certified, never labelled by a failed search. The term after
//! the gap (and the later lines, at the same position) is changed at a
//! position outside every later redex by one of three constructions: another
//! head symbol of the same arity, two arguments swapped, or a subterm
//! replaced by a ground subterm of the line before the gap. Every symbol of
//! the new line already occurs in the equations or in the line before the
//! gap, as in a fillable gap (balanced equations create no symbol), so no
//! symbol-occurrence feature tells decoys apart. The decoy is kept only
//! with a finite countermodel ([`super::countermodel`]): every equation
//! holds in it, the lines before and after the gap differ in it, so no
//! chain of steps links them. The changed position lies outside every later
//! redex, so the rest of the proof still checks.
//!
//! From level 5 (proofs of 31 steps and more, where positions outside every
//! later redex grow rare) every gap, fillable or decoy, ends at the proof's
//! last line, and a decoy is searched by `change_deep`: all changes at a
//! position against one model. Drawing the gap anywhere and keeping the
//! decoys that certify put 46 of 48 level-5 decoys at the end against
//! fillable gaps in the middle (gap position told the label: +9 points).

use super::countermodel;
use super::generate::Proof;
use super::lang::{Pos, World, disjoint};
use crate::certificate::FiniteModel;
use crate::logic::{SymbolId, TermId};
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// How a decoy's line after the gap was changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Construction {
    /// A head symbol replaced by another of the same arity.
    Relabel,
    /// Two arguments of a subterm swapped.
    Swap,
    /// A subterm replaced by a ground subterm of the line before the gap.
    Graft,
}

/// A gap cut into a proof by [`cut_gap`].
#[derive(Clone, Debug)]
pub struct Gap {
    /// The proof as shown: the original for a fillable gap, the changed one
    /// (from the line after the gap on) for a decoy.
    pub proof: Proof,
    /// Index of the first hidden line (≥ 1).
    pub start: usize,
    /// Number of hidden lines (≥ 1); line `start + len` is shown.
    pub len: usize,
    /// A decoy's certificate: a model of the equations in which the lines
    /// before and after the gap differ (`None` for a fillable gap).
    pub countermodel: Option<FiniteModel>,
    /// How a decoy's line after the gap was changed (`None` for a fillable
    /// gap).
    pub construction: Option<Construction>,
}

/// Model searches allowed per decoy instance (each bounded by budgets).
const MAX_SEARCHES: usize = 8;

/// Cuts a gap into a correct proof (generated with balanced equations and
/// at most two redexes per step); with `decoy`, changes the line after the
/// gap as described in the module documentation. With `deep` (level 5 on)
/// the gap, fillable or not, ends at the proof's last line and a decoy is
/// made by `change_deep`. `None` if no gap of the wanted kind was found.
///
/// The gap is placed the same way for both labels: a drawn gap is kept
/// only where a certified decoy can be made, and a fillable gap then
/// leaves the line after it unchanged. A decoy needs a position outside
/// every later redex, which the proof's last line always has and earlier
/// lines often lack, so keeping only the decoys that certify put them at
/// the end far more often than fillable gaps (level 4: "the gap ends
/// before the last line, so it cannot be filled" 0.88 against the 0.80
/// majority). With the same random stream both labels draw the same
/// changes and keep the same gap; only the decoy's line after it differs.
pub fn cut_gap(p: &Proof, decoy: bool, deep: bool, rng: &mut ChaCha8Rng) -> Option<Gap> {
    let n = p.steps();
    if n < 2 {
        return None;
    }
    let mut searches = 0;
    // A decoy needs a position outside every later redex, which long
    // proofs often lack: many gaps are tried (an empty try is cheap).
    for _ in 0..GAP_TRIES {
        let (gap_start, gap_len) = if deep {
            // From level 5 the gap closes the proof, for both kinds.
            let len = rng.random_range(1..=(n - 1).min(4));
            (n - len, len)
        } else {
            let start = rng.random_range(1..n);
            (start, rng.random_range(1..=(n - start).min(4)))
        };
        let mut q = p.clone();
        let Some((model, construction)) =
            change_after_gap(&mut q, gap_start, gap_len, deep, rng, &mut searches)
        else {
            if searches >= MAX_SEARCHES {
                return None;
            }
            continue;
        };
        // A fillable gap keeps the proof as it was.
        let (proof, countermodel) = if decoy {
            (q, Some(model))
        } else {
            (p.clone(), None)
        };
        return Some(Gap {
            proof,
            start: gap_start,
            len: gap_len,
            countermodel,
            construction: decoy.then_some(construction),
        });
    }
    None
}

/// Gap positions [`cut_gap`] draws before giving up on a proof.
const GAP_TRIES: usize = 80;

/// The changes on offer at subterm `u` (`allowed`: the symbols a fillable
/// gap could show; `grafts`: the ground subterms of the line before the
/// gap): other head symbols of `u`'s arity, pairs of different arguments to
/// swap, and grafts at most two symbols larger than `u`.
struct Offers {
    relabels: Vec<SymbolId>,
    swaps: Vec<(usize, usize)>,
    grafts: Vec<TermId>,
}

impl Offers {
    fn at(w: &World, u: TermId, allowed: &[SymbolId], grafts: &[TermId]) -> Offers {
        let f = w.bank.sym(u);
        let args = w.bank.args(u);
        let size = w.bank.weight(u);
        Offers {
            relabels: allowed
                .iter()
                .copied()
                .filter(|&g| g != f && w.arity_of(g) == args.len())
                .collect(),
            swaps: (0..args.len())
                .flat_map(|i| (i + 1..args.len()).map(move |k| (i, k)))
                .filter(|&(i, k)| args[i] != args[k])
                .collect(),
            grafts: grafts
                .iter()
                .copied()
                .filter(|&v| v != u && w.bank.weight(v) <= size + 2)
                .collect(),
        }
    }
}

/// `u`'s arguments with `i` and `k` swapped.
fn swapped(w: &World, u: TermId, (i, k): (usize, usize)) -> Vec<TermId> {
    let mut args = w.bank.args(u).to_vec();
    args.swap(i, k);
    args
}

/// One random change at `u` by construction `c` ([`Offers`]), if one
/// applies.
fn changed(
    p: &mut Proof,
    u: TermId,
    c: Construction,
    allowed: &[SymbolId],
    grafts: &[TermId],
    rng: &mut ChaCha8Rng,
) -> Option<TermId> {
    let w = &mut p.world;
    let offers = Offers::at(w, u, allowed, grafts);
    match c {
        Construction::Relabel => {
            let others = &offers.relabels;
            let g = *others.get(rng.random_range(0..others.len().max(1)))?;
            let args = w.bank.args(u).to_vec();
            Some(w.bank.app(g, &args))
        }
        Construction::Swap => {
            let pairs = &offers.swaps;
            let &pair = pairs.get(rng.random_range(0..pairs.len().max(1)))?;
            let args = swapped(w, u, pair);
            let f = w.bank.sym(u);
            Some(w.bank.app(f, &args))
        }
        Construction::Graft => {
            let near = &offers.grafts;
            near.get(rng.random_range(0..near.len().max(1))).copied()
        }
    }
}

/// Positions of line `j` outside every later redex (so later steps still
/// check), shuffled; those also outside the redexes of the step into line
/// `j` come first, so that line looks as plausible as the others.
fn stable_positions(p: &Proof, j: usize, rng: &mut ChaCha8Rng) -> Vec<Pos> {
    let n = p.steps();
    let mut stable: Vec<(bool, Pos)> = p
        .world
        .positions(p.terms[j])
        .into_iter()
        .filter(|pos| (j + 1..=n).all(|k| p.witnesses[k].iter().all(|x| disjoint(&x.pos, pos))))
        .map(|pos| (!p.witnesses[j].iter().all(|x| disjoint(&x.pos, &pos)), pos))
        .collect();
    stable.shuffle(rng);
    stable.sort_by_key(|(touched, _)| *touched);
    stable.into_iter().map(|(_, pos)| pos).collect()
}

/// The symbols a fillable gap's line after could show (those of `before`
/// and the equations), and the ground subterms of `before` (graft sources).
fn allowed_and_grafts(p: &Proof, before: TermId) -> (Vec<SymbolId>, Vec<TermId>) {
    let mut allowed = Vec::new();
    p.world.symbols_in(before, &mut allowed);
    for e in &p.equations {
        p.world.symbols_in(e.lhs, &mut allowed);
        p.world.symbols_in(e.rhs, &mut allowed);
    }
    allowed.sort();
    allowed.dedup();
    let mut grafts: Vec<TermId> = p
        .world
        .positions(before)
        .iter()
        .filter_map(|pos| p.world.subterm(before, pos))
        .collect();
    grafts.sort();
    grafts.dedup();
    (allowed, grafts)
}

/// `q` with the subterm at `pos` of lines `j..` replaced by `new` (a term
/// of `q`'s bank).
fn replaced(mut q: Proof, j: usize, pos: &Pos, new: TermId) -> Proof {
    for k in j..=q.steps() {
        let t = q.terms[k];
        q.terms[k] = q.world.bank.replace_at(t, pos, new);
    }
    q
}

/// Changes the line after the gap (and the later lines) into a certified
/// decoy; the countermodel and construction, or `None`. With `deep` (level
/// 5 on) the search is [`change_deep`]'s; otherwise one random change per
/// position outside every later redex, each searched for a countermodel.
fn change_after_gap(
    p: &mut Proof,
    gap_start: usize,
    gap_len: usize,
    deep: bool,
    rng: &mut ChaCha8Rng,
    searches: &mut usize,
) -> Option<(FiniteModel, Construction)> {
    if deep {
        return change_deep(
            p,
            p.terms[gap_start - 1],
            gap_start + gap_len,
            rng,
            searches,
        );
    }
    let j = gap_start + gap_len;
    let before = p.terms[gap_start - 1];
    let stable = stable_positions(p, j, rng);
    let (allowed, grafts) = allowed_and_grafts(p, before);
    let mut kinds = [
        Construction::Relabel,
        Construction::Swap,
        Construction::Graft,
    ];
    for pos in stable {
        if *searches >= MAX_SEARCHES {
            return None;
        }
        kinds.shuffle(rng);
        let u = p.world.subterm(p.terms[j], &pos).expect("own position");
        let Some((c, new)) = kinds
            .iter()
            .find_map(|&c| changed(p, u, c, &allowed, &grafts, rng).map(|t| (c, t)))
        else {
            continue;
        };
        let q = replaced(p.clone(), j, &pos, new);
        if let Some(m) = certify(&q, j, before, searches) {
            *p = q;
            return Some((m, c));
        }
    }
    None
}

/// The decoy search from level 5, where the gap ends at the proof's last
/// line `j`, so every position of it may change. Over the many equations
/// of long proofs a random change is almost always one the equations undo
/// (level 8, before: 4 of 542 searches for a model separating one random
/// change succeeded; sizes up to 5 found no more), so one model search per
/// position serves every change there: the position holds an unknown
/// element equal to one of the changed subterms
/// ([`countermodel::find_with_hole`]), each change (every other head symbol
/// of the same arity, every swap of two different arguments, every graft of
/// a ground subterm of the line before at most two symbols larger) is
/// evaluated in the model, and one whose line takes another value than the
/// line before is drawn.
fn change_deep(
    p: &mut Proof,
    before: TermId,
    j: usize,
    rng: &mut ChaCha8Rng,
    searches: &mut usize,
) -> Option<(FiniteModel, Construction)> {
    // The gap ends at the last line: no later step to keep checking.
    debug_assert_eq!(j, p.steps());
    let (allowed, grafts) = allowed_and_grafts(p, before);
    for pos in stable_positions(p, j, rng) {
        if *searches >= MAX_SEARCHES {
            return None;
        }
        let u = p.world.subterm(p.terms[j], &pos).expect("own position");
        let w = &p.world;
        let offers = Offers::at(w, u, &allowed, &grafts);
        // Each change: its construction and the new subterm (head and
        // arguments).
        let (f, args) = (w.bank.sym(u), w.bank.args(u).to_vec());
        let changes: Vec<(Construction, SymbolId, Vec<TermId>)> = (offers.relabels.iter())
            .map(|&g| (Construction::Relabel, g, args.clone()))
            .chain(
                offers
                    .swaps
                    .iter()
                    .map(|&pair| (Construction::Swap, f, swapped(w, u, pair))),
            )
            .chain(
                offers
                    .grafts
                    .iter()
                    .map(|&v| (Construction::Graft, w.bank.sym(v), w.bank.args(v).to_vec())),
            )
            .collect();
        if changes.is_empty() {
            continue;
        }
        *searches += 1;
        let options: Vec<(SymbolId, Vec<TermId>)> =
            changes.iter().map(|c| (c.1, c.2.clone())).collect();
        let Some(m) = countermodel::find_with_hole(
            &p.world,
            &p.equations,
            before,
            p.terms[j],
            &pos,
            &options,
        ) else {
            continue;
        };
        let Ok(vb) = countermodel::value(&p.world, &m, before) else {
            continue;
        };
        // Each changed line is evaluated in one scratch world; only the
        // change drawn is built into a proof.
        let mut scratch = p.world.clone();
        let apart: Vec<usize> = (0..changes.len())
            .filter(|&i| {
                let (_, g, args) = &changes[i];
                let new = scratch.bank.app(*g, args);
                let line = scratch.bank.replace_at(p.terms[j], &pos, new);
                countermodel::value(&scratch, &m, line).is_ok_and(|v| v != vb)
            })
            .collect();
        if apart.is_empty() {
            continue;
        }
        let (c, g, args) = &changes[apart[rng.random_range(0..apart.len())]];
        let mut q = p.clone();
        let new = q.world.bank.app(*g, args);
        let q = replaced(q, j, &pos, new);
        if countermodel::check(&q.world, &q.equations, before, q.terms[j], &m).is_ok() {
            *p = q;
            return Some((m, *c));
        }
    }
    None
}

/// The countermodel of changed proof `q` (line `j` after the gap, `before`
/// the line before it), when the rest of the proof still checks and a model
/// search (counted in `searches`) finds one.
fn certify(q: &Proof, j: usize, before: TermId, searches: &mut usize) -> Option<FiniteModel> {
    if super::corrupt::first_failure_from(q, j + 1).is_some() {
        return None;
    }
    *searches += 1;
    countermodel::find(&q.world, &q.equations, before, q.terms[j])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::equational::generate::test_proof as proof;
    use crate::seed::instance_rng;

    /// Both labels place the gap alike: from the same proof and random
    /// stream a fillable gap and a decoy sit at the same lines (a gap is
    /// kept only where a decoy certifies, whichever is asked for), so the
    /// position tells nothing of the label. Before, decoys were drawn until
    /// one certified and fillable gaps anywhere: decoys ended at the last
    /// line far more often.
    #[test]
    fn both_labels_place_the_gap_alike() {
        let (mut same, mut at_end) = (0, 0);
        for level in 2..=4 {
            for i in 0..12 {
                let p = proof(level, i);
                let draw = |decoy: bool| {
                    let mut rng = instance_rng(24, &["alike"], i);
                    cut_gap(&p, decoy, false, &mut rng)
                };
                let (Some(fill), Some(dec)) = (draw(false), draw(true)) else {
                    assert!(draw(false).is_none() && draw(true).is_none());
                    continue;
                };
                assert_eq!((fill.start, fill.len), (dec.start, dec.len));
                assert!(fill.countermodel.is_none() && fill.construction.is_none());
                assert!(dec.countermodel.is_some() && dec.construction.is_some());
                assert_eq!(fill.proof.terms, p.terms, "a fillable gap shows the proof");
                // The decoy differs only from the line after the gap on.
                let j = dec.start + dec.len;
                let show = |q: &Proof, k: usize| q.world.show(q.terms[k]);
                for k in 0..j {
                    assert_eq!(show(&fill.proof, k), show(&dec.proof, k));
                }
                assert_ne!(show(&fill.proof, j), show(&dec.proof, j));
                same += 1;
                at_end += usize::from(j == p.steps());
            }
        }
        assert!(same >= 20, "only {same} gaps");
        assert!(at_end < same, "every gap at the end");
    }
}
