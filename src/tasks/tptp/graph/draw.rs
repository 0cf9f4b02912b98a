//! Drawing look-alikes from a graph: clause profiles against a theorem
//! (symbol overlap, length, literals, foreign symbols), profile-matched and
//! weighted draws of distractors, and entailment's swap weights (a
//! Metropolis rule over premise statistics, calibrated by simulation).

use super::*;
use crate::interest::symbols;
use crate::logic::{Literal, SymbolId, TermBank, canonical_clause};
use crate::saturation::{ClauseId, Rule};
use crate::tptp::clause_to_tptp;
use rand::Rng;
use std::borrow::Cow;

/// The farthest an entailment replacement may be from the premise it
/// replaces (`Profile::distance`): about a fifth longer or shorter with
/// the same overlap, literals and foreign symbols, or one foreign symbol
/// and a tenth in length. A premise with nothing that close is not
/// replaced (in a small theory, a long axiom replaced by whatever shorter
/// axiom is nearest made the perturbed rows the short ones). Selection
/// distractors are not bounded: there the bound cost more rows than it
/// removed tells.
pub const MAX_PROFILE_DISTANCE: f64 = 1.0;

/// Entailment premise statistics of one premise depth
/// ([`Graph::premise_weight`]).
#[derive(Clone, Debug, Default)]
pub(in crate::tasks::tptp) struct PremiseStats {
    /// Pool theorems whose depth-d premises exist and are few enough.
    pub(in crate::tasks::tptp) theorems: u32,
    /// Per clause shown among their depth-d premises: in how many of their
    /// premise sets, and among how many of their ancestors.
    pub(in crate::tasks::tptp) clauses: rustc_hash::FxHashMap<ClauseId, (u32, u32)>,
    /// Per pair (a, b): for how many of the theorems a is a background
    /// axiom among the depth-d premises and b one that is not, or a is a
    /// premise that is not an axiom and b a clause some theorem lists that
    /// is not an ancestor ([`Graph::swap_chance`]).
    pub(in crate::tasks::tptp) swaps: rustc_hash::FxHashMap<(ClauseId, ClauseId), u32>,
}

/// The profile distance over which [`Graph::take_weighted`] makes a
/// candidate `e` times less likely (0.25: an eighth longer or shorter).
pub const WEIGHT_SCALE: f64 = 0.25;

/// What the matching reads of one clause: its symbols, printed length,
/// distinct variables and literal keys (a hash of each literal's canonical
/// form, variables renamed per literal; only compared for equality).
#[derive(Clone, Debug)]
pub(in crate::tasks::tptp) struct Surface {
    pub(in crate::tasks::tptp) syms: Vec<SymbolId>,
    pub(in crate::tasks::tptp) chars: usize,
    pub(in crate::tasks::tptp) vars: usize,
    pub(in crate::tasks::tptp) lit_keys: Vec<u64>,
}

impl Surface {
    pub(in crate::tasks::tptp) fn of(bank: &TermBank, lits: &[Literal]) -> Surface {
        let lit_keys = lits
            .iter()
            .map(|l| {
                // The std SipHash with its fixed default keys: deterministic.
                let mut h = std::hash::DefaultHasher::new();
                std::hash::Hash::hash(&canonical_clause(bank, std::slice::from_ref(l)), &mut h);
                std::hash::Hasher::finish(&h)
            })
            .collect();
        let mut vars = Vec::new();
        for l in lits {
            bank.push_vars(l.lhs, &mut vars);
            bank.push_vars(l.rhs, &mut vars);
        }
        vars.sort_unstable();
        vars.dedup();
        Surface {
            syms: symbols(bank, lits),
            chars: clause_to_tptp(bank, lits).len(),
            vars: vars.len(),
            lit_keys,
        }
    }
}

/// What a reader sees of a clause next to a theorem without reasoning:
/// the quantities the shortcut audit measures and that a replacement or
/// distractor must match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::tasks::tptp) struct Profile {
    /// Jaccard overlap of the clause's symbols with the theorem's.
    pub(in crate::tasks::tptp) overlap: f64,
    /// Printed length.
    pub(in crate::tasks::tptp) chars: f64,
    /// Literal count.
    pub(in crate::tasks::tptp) literals: f64,
    /// Literals equal (up to variable names) to a literal of the theorem.
    pub(in crate::tasks::tptp) shared_literals: f64,
    /// Symbols that do not occur in the theorem.
    pub(in crate::tasks::tptp) foreign: f64,
}

impl Profile {
    /// How far apart two profiles are: overlap difference, twice the
    /// relative difference of length (the most visible of all), the
    /// relative difference of literal count, and half the differences of
    /// shared literals and of foreign symbols.
    pub(in crate::tasks::tptp) fn distance(&self, o: &Profile) -> f64 {
        (self.overlap - o.overlap).abs()
            + 2.0 * (self.chars - o.chars).abs() / o.chars.max(1.0)
            + (self.literals - o.literals).abs() / o.literals.max(1.0)
            + 0.5 * (self.shared_literals - o.shared_literals).abs()
            + 0.5 * (self.foreign - o.foreign).abs()
    }
}

impl Graph {
    /// How many entailment theorems of depth `d` show clause `c` as a
    /// premise, per theorem that does not have `c` among its ancestors
    /// (at least one: the theorem asked about, for a replacement): 0 for a
    /// clause that no True row of depth `d` shows. A replacement drawn in
    /// proportion to it enters False rows about as often as True rows show
    /// it, whether few theorems or most use it: only the theorems that do
    /// not derive from it may take it as a replacement.
    pub fn premise_weight(&self, d: u32, c: ClauseId) -> f64 {
        let Some(st) = d
            .checked_sub(1)
            .and_then(|i| self.premise_stats.get(i as usize))
        else {
            return 0.0;
        };
        st.clauses.get(&c).map_or(0.0, |&(shown, ancestor_of)| {
            f64::from(shown) / f64::from(st.theorems.saturating_sub(ancestor_of).max(1))
        })
    }

    /// The probability that premise `a` of a depth-`d` entailment theorem
    /// may turn into clause `b` in its False row: `min(1, n(b, a) / n(a, b))`
    /// (the Metropolis rule), where `n(a, b)` counts the theorems that list
    /// `a` among their depth-`d` premises and could take `b` in its place:
    /// for a background axiom `a`, those having `b` as an unlisted
    /// background axiom; for any other `a`, those that `b` (a clause some
    /// theorem lists) is not an ancestor of. The
    /// expected number of theorems in which `a` turns into `b` is then
    /// `min(n(a, b), n(b, a))`, the same both ways, so that no clause leaves
    /// True rows' premises for False rows' more often than it comes back.
    ///
    /// Before, a candidate was drawn in proportion to
    /// [`Graph::premise_weight`] among those of its premise, so a premise
    /// took whichever candidates it had: a clause that most premise sets
    /// list left them for clauses that few list and seldom came back. On
    /// LAT level 2 at 200 rows per cell the commutativity axioms left 47
    /// True rows' premises and entered 19 False rows', the absorption laws
    /// left 14 and entered 42 (naive Bayes over the premises' words read
    /// 66-69% over three seeds).
    pub fn swap_chance(&self, d: u32, a: ClauseId, b: ClauseId) -> f64 {
        let Some(st) = d
            .checked_sub(1)
            .and_then(|i| self.premise_stats.get(i as usize))
        else {
            return 0.0;
        };
        let n = |x, y| f64::from(st.swaps.get(&(x, y)).copied().unwrap_or(0));
        (n(b, a) / n(a, b).max(1.0)).min(1.0)
    }

    /// Each clause's weight `w` in the entailment replacement chance
    /// `min(1, swap_chance(a, b) * w(b) / w(a))` of premise `a` turning
    /// into `b` at depth `d` with up to `k` replacements (absent: 1),
    /// calibrated once per (d, k) by [`entail::calibrate`] so that, over
    /// the level's theorems, every clause enters False rows about as often
    /// as it leaves True rows.
    pub fn swap_weights(&self, d: u32, k: u32) -> std::sync::Arc<ClauseWeights> {
        // The map's lock is held only to find the key's cell: levels
        // calibrate in parallel, and a worker wanting a level being
        // calibrated waits for it.
        let cell = self
            .swap_weights
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((d, k))
            .or_default()
            .clone();
        cell.get_or_init(|| {
            let start = std::time::Instant::now();
            let w = entail::calibrate(self, d, k);
            tracing::debug!(
                "{}: entailment swap weights for depth {d}, k {k}: {} clauses in {:.2}s",
                self.name,
                w.len(),
                start.elapsed().as_secs_f64()
            );
            std::sync::Arc::new(w)
        })
        .clone()
    }

    /// Every active clause that may stand in for a premise of `t` without
    /// being one: sharing at least one symbol with `t`, not among `t`'s
    /// ancestors or in `exclude`, not a variant of `t`, of a clause of
    /// `exclude` or of another candidate, and not printed like one of `t`'s
    /// background axioms. In active-set order; [`Graph::take_matched`]
    /// picks from them by profile.
    pub fn plain_distractors(&self, t: ClauseId, exclude: &[ClauseId]) -> Vec<ClauseId> {
        let tsyms = symbols(self.bank(), self.lits(t));
        let ancestors = self.ancestor_set(t);
        let own = self.variant_keys(t, exclude);
        let mut banned: rustc_hash::FxHashSet<&str> = own.iter().map(String::as_str).collect();
        let background: rustc_hash::FxHashSet<String> = self
            .context_axioms(t)
            .into_iter()
            .map(|c| self.text(c))
            .collect();
        self.active
            .iter()
            .zip(&self.active_surface)
            .zip(&self.active_texts)
            .filter(|((c, s), _)| {
                !ancestors.contains(c)
                    && !exclude.contains(c)
                    && s.syms.iter().any(|x| tsyms.contains(x))
            })
            .filter(|(_, (text, _))| !background.contains(text.as_ref()))
            .filter(|(_, (_, key))| banned.insert(key.as_ref()))
            .map(|((&c, _), _)| c)
            .collect()
    }

    /// The background axioms of `t` (its context axioms, shown in every
    /// prompt) that are not in `exclude` and not variants of `t` or of a
    /// clause of `exclude`: replacements and distractors that a reader
    /// cannot tell from genuine premises by background membership.
    pub fn spare_background(&self, t: ClauseId, exclude: &[ClauseId]) -> Vec<ClauseId> {
        let mut banned = self.variant_keys(t, exclude);
        self.context_axioms(t)
            .into_iter()
            .filter(|c| !exclude.contains(c))
            .filter(|&c| banned.insert(self.canon(c)))
            .collect()
    }

    /// The axioms (input clauses) of the file that are not among `t`'s
    /// ancestors, in file order, without variants of `t`, of a clause of
    /// `exclude` or of each other: background axioms a prompt may show
    /// besides `t`'s own.
    pub fn other_axioms(&self, t: ClauseId, exclude: &[ClauseId]) -> Vec<ClauseId> {
        let ancestors = self.ancestor_set(t);
        let mut banned = self.variant_keys(t, exclude);
        self.store
            .ids()
            .filter(|&c| self.store.get(c).rule == Rule::Input && !self.store.clause(c).is_empty())
            .filter(|c| !ancestors.contains(c) && !exclude.contains(c))
            .filter(|&c| banned.insert(self.canon(c)))
            .collect()
    }

    /// The matching surface of a clause: cached for active clauses,
    /// computed for the others (premises, axioms).
    pub(in crate::tasks::tptp) fn surface(&self, c: ClauseId) -> Cow<'_, Surface> {
        if let Some(&i) = self.active_index.get(&c) {
            return Cow::Borrowed(&self.active_surface[i]);
        }
        match self.input_surface.get(&c) {
            Some(s) => Cow::Borrowed(s),
            None => Cow::Owned(Surface::of(self.bank(), self.lits(c))),
        }
    }

    /// The surface profile of clause `c` against theorem `t` (its symbols
    /// `tsyms`, its literal keys `tlits`): what a reader sees without
    /// reasoning. See [`Profile`].
    /// Each clause's [`Profile`] against theorem `t` (its surface read
    /// once for all the clauses asked about).
    pub(in crate::tasks::tptp) fn profiles_against(
        &self,
        t: ClauseId,
    ) -> impl Fn(ClauseId) -> Profile + '_ {
        let ts = self.surface(t).into_owned();
        let tlits: rustc_hash::FxHashSet<u64> = ts.lit_keys.iter().copied().collect();
        move |c| self.profile(c, &ts.syms, &tlits)
    }

    pub(in crate::tasks::tptp) fn profile(
        &self,
        c: ClauseId,
        tsyms: &[SymbolId],
        tlits: &rustc_hash::FxHashSet<u64>,
    ) -> Profile {
        let s = self.surface(c);
        let both = s.syms.iter().filter(|x| tsyms.contains(x)).count();
        let either = (s.syms.len() + tsyms.len() - both).max(1);
        let shared = s.lit_keys.iter().filter(|k| tlits.contains(k)).count();
        Profile {
            overlap: both as f64 / either as f64,
            chars: s.chars as f64,
            literals: s.lit_keys.len() as f64,
            shared_literals: shared as f64,
            foreign: (s.syms.len() - both) as f64,
        }
    }

    /// Removes from `cands` and returns the candidate most like `like` in
    /// its profile against `t` (symbol overlap with `t`, printed length,
    /// literal count, literals shared with `t`; at random between the two
    /// closest, so instances vary): a replacement or distractor that
    /// overlap, size and shape do not give away. Candidates should be many
    /// (every eligible clause, not a top-overlap shortlist), or the closest
    /// one is still far.
    pub fn take_matched(
        &self,
        t: ClauseId,
        like: ClauseId,
        cands: &mut Vec<ClauseId>,
        rng: &mut impl Rng,
    ) -> Option<ClauseId> {
        self.take_matched_by(t, like, cands, rng, f64::INFINITY, |_| Some(0.0))
    }

    /// [`Graph::take_matched`] among the candidates `admit` accepts, with
    /// the penalty it returns added to their profile distance; `None` when
    /// no candidate is within `max_distance`.
    pub fn take_matched_by(
        &self,
        t: ClauseId,
        like: ClauseId,
        cands: &mut Vec<ClauseId>,
        rng: &mut impl Rng,
        max_distance: f64,
        admit: impl Fn(ClauseId) -> Option<f64>,
    ) -> Option<ClauseId> {
        let profile = self.profiles_against(t);
        let target = profile(like);
        let mut scored: Vec<(u64, usize)> = cands
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| {
                let penalty = admit(c)?;
                let d = profile(c).distance(&target) + penalty;
                (d <= max_distance).then_some(((d * 1e6) as u64, i))
            })
            .collect();
        if scored.is_empty() {
            return None;
        }
        scored.sort_unstable();
        let pick = scored[rng.random_range(0..scored.len().min(2))].1;
        Some(cands.remove(pick))
    }

    /// Removes from `cands` and returns a candidate with as many literals,
    /// variables and literals of `t` (up to variable names) as `like`, within
    /// `max_distance` of `like` in profile against `t` (plus the `penalty`
    /// it returns; `None` refuses a candidate), drawn at random with
    /// probability proportional to its `weight` times `exp(-distance /`
    /// [`WEIGHT_SCALE`]`)`: the nearer, the likelier. `None` when no
    /// candidate qualifies.
    #[allow(clippy::too_many_arguments)]
    pub fn take_weighted(
        &self,
        t: ClauseId,
        like: ClauseId,
        cands: &mut Vec<ClauseId>,
        rng: &mut impl Rng,
        max_distance: f64,
        penalty: impl Fn(ClauseId) -> Option<f64>,
        weight: impl Fn(ClauseId) -> f64,
    ) -> Option<ClauseId> {
        let profile = self.profiles_against(t);
        let target = profile(like);
        let variables = self.store.clause(like).var_count(&self.bank);
        let near: Vec<(usize, f64)> = cands
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| {
                let p = profile(c);
                if p.literals != target.literals
                    || p.shared_literals != target.shared_literals
                    || self.store.clause(c).var_count(&self.bank) != variables
                {
                    return None;
                }
                let d = p.distance(&target) + penalty(c)?;
                let w = weight(c) * (-d / WEIGHT_SCALE).exp();
                (d <= max_distance && w > 0.0).then_some((i, w))
            })
            .collect();
        let total: f64 = near.iter().map(|p| p.1).sum();
        if near.is_empty() || total <= 0.0 {
            return None;
        }
        let mut x = rng.random::<f64>() * total;
        let mut pick = near[near.len() - 1].0;
        for &(i, w) in &near {
            if x < w {
                pick = i;
                break;
            }
            x -= w;
        }
        Some(cands.remove(pick))
    }

    /// [`Graph::take_matched`] with each foreign symbol (one `t` lacks)
    /// counting `weight` more in the profile distance.
    pub fn take_matched_foreign(
        &self,
        t: ClauseId,
        like: ClauseId,
        cands: &mut Vec<ClauseId>,
        rng: &mut impl Rng,
        weight: f64,
    ) -> Option<ClauseId> {
        let tsyms = self.symbols_of(t).into_owned();
        let foreign = |c: ClauseId| {
            self.symbols_of(c)
                .iter()
                .filter(|x| !tsyms.contains(x))
                .count() as f64
        };
        let target = foreign(like);
        self.take_matched_by(t, like, cands, rng, f64::INFINITY, |c| {
            Some(weight * (foreign(c) - target).abs())
        })
    }
}
