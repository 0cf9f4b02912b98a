//! Interestingness of derived clauses (DESIGN.md §7, `tptp_tasks.md` §4),
//! computed in process over one whole derivation graph, after the AGInT
//! metrics of Puzis, Gao and Sutcliffe ("Automated generation of
//! interesting theorems", FLAIRS 2006) as used by the saturation pipeline of
//! seed 001. Every component is kept so records can carry it.
//!
//! Candidates: clauses that are in the final active set (selected as given
//! clause and never made redundant), were derived by a step with at least
//! two distinct premises (parents plus the unit equations used to rewrite
//! it), are not tautologies, not empty, and are not a variant of an input
//! clause or of an earlier candidate. After iterative saturation
//! (`[saturation.iterate]`) "the final active set" is each round's: a
//! round's theorems stay candidates after the next round starts.
//!
//! Score (documented here, where it is computed): each component is
//! min-max normalised over the candidates of the graph, components where
//! lower is better are inverted (`1 - x`), a component that is constant
//! over the graph is ignored, an undefined value (for example usefulness of a
//! clause without descendants) is skipped for that clause, and the score is
//! the mean of what remains. Usefulness needs "interesting" descendants: a
//! descendant is interesting when its score over the other components is at
//! least the median of those scores.

use crate::logic::canonical_clause;
use crate::logic::{Head, Literal, SymbolId, TermBank, TermId};
use crate::saturation::{ClauseId, ClauseStore, Rule, State};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashSet};

/// The metrics of one candidate clause.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Components {
    /// Inference and simplification steps in its derivation (non-input
    /// ancestors, itself included) [higher = less obvious = better].
    pub obviousness: f64,
    /// Symbol occurrences, variables included [lower better].
    pub weight: f64,
    /// Distinct non-logical symbols [lower better].
    pub complexity: f64,
    /// Over pairs of distinct non-logical symbols of the clause, the mean of
    /// `1 - |axioms with both| / |axioms with either|`; undefined with fewer
    /// than two symbols [higher better].
    pub surprisingness: Option<f64>,
    /// Total weight of its ancestors divided by its own weight [higher
    /// better: the clause compresses much derivation].
    pub intensity: f64,
    /// Share of its candidate descendants that are interesting; undefined
    /// without candidate descendants [higher better].
    pub usefulness: Option<f64>,
    /// Share of its distinct variables that occur in two or more literals;
    /// undefined for unit or ground clauses [higher better: the literals
    /// are tied together rather than independent].
    pub adaptivity: Option<f64>,
    /// Share of its symbol occurrences taken by its most frequent
    /// non-logical symbol [higher better: the clause is about one thing].
    pub focus: f64,
}

/// Whether a smaller value of a component is better.
const LOWER_BETTER: [bool; 8] = [false, true, true, false, false, false, false, false];

impl Components {
    fn values(&self) -> [Option<f64>; 8] {
        [
            Some(self.obviousness),
            Some(self.weight),
            Some(self.complexity),
            self.surprisingness,
            Some(self.intensity),
            self.usefulness,
            self.adaptivity,
            Some(self.focus),
        ]
    }
}

/// One ranked candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    /// The clause in the graph.
    pub id: ClauseId,
    /// Its metrics.
    pub components: Components,
    /// The combined score in [0, 1].
    pub score: f64,
}

/// Candidates of one graph, best first (ties broken by clause id, so the
/// order is deterministic).
#[derive(Clone, Debug, Default)]
pub struct Ranking {
    /// Ranked candidates.
    pub ranked: Vec<Scored>,
}

/// The non-logical symbols of a literal list with occurrence counts, and the
/// total number of term nodes (variables included, `$true` excluded).
fn symbol_counts(bank: &TermBank, lits: &[Literal]) -> (Vec<(SymbolId, u32)>, u32) {
    fn walk(bank: &TermBank, t: TermId, truth: TermId, out: &mut Vec<SymbolId>, n: &mut u32) {
        if t == truth {
            return;
        }
        *n += 1;
        if let Head::Sym(s) = bank.head(t) {
            out.push(s);
            for &a in bank.args(t) {
                walk(bank, a, truth, out, n);
            }
        }
    }
    let truth = bank.true_term();
    let mut syms = Vec::new();
    let mut nodes = 0;
    for l in lits {
        walk(bank, l.lhs, truth, &mut syms, &mut nodes);
        walk(bank, l.rhs, truth, &mut syms, &mut nodes);
    }
    syms.sort_unstable();
    let mut counts: Vec<(SymbolId, u32)> = Vec::new();
    for s in syms {
        match counts.last_mut() {
            Some((t, c)) if *t == s => *c += 1,
            _ => counts.push((s, 1)),
        }
    }
    (counts, nodes)
}

/// The distinct non-logical symbols of a clause.
pub fn symbols(bank: &TermBank, lits: &[Literal]) -> Vec<SymbolId> {
    symbol_counts(bank, lits)
        .0
        .into_iter()
        .map(|p| p.0)
        .collect()
}

/// Symbol occurrences of a clause (variables included, `$true` excluded):
/// the bank's stored term weights of the literals' sides, so that weighing
/// every record of a graph (hundreds of thousands after a deep saturation)
/// walks no term. `$true` only ever stands as a whole side (an atom's
/// partner), never inside a term.
pub fn clause_weight(bank: &TermBank, lits: &[Literal]) -> u32 {
    let truth = bank.true_term();
    lits.iter()
        .flat_map(|l| [l.lhs, l.rhs])
        .filter(|&t| t != truth)
        .fold(0u32, |w, t| w.saturating_add(bank.weight(t)))
}

fn adaptivity(bank: &TermBank, lits: &[Literal]) -> Option<f64> {
    if lits.len() < 2 {
        return None;
    }
    let mut per_lit: Vec<BTreeSet<u32>> = Vec::with_capacity(lits.len());
    for l in lits {
        let mut vs = Vec::new();
        bank.count_vars(l.lhs, &mut vs);
        bank.count_vars(l.rhs, &mut vs);
        per_lit.push(
            vs.iter()
                .enumerate()
                .filter(|&(_, &n)| n > 0)
                .map(|(v, _)| v as u32)
                .collect(),
        );
    }
    let all: BTreeSet<u32> = per_lit.iter().flatten().copied().collect();
    if all.is_empty() {
        return None;
    }
    let shared = all
        .iter()
        .filter(|v| per_lit.iter().filter(|s| s.contains(v)).count() >= 2)
        .count();
    Some(shared as f64 / all.len() as f64)
}

/// Whether a record is a theorem candidate (see the module documentation).
fn is_candidate(
    bank: &TermBank,
    store: &ClauseStore,
    id: ClauseId,
    input_canon: &HashSet<String>,
) -> bool {
    let r = store.get(id);
    if r.rule == Rule::Input || r.state != State::Active || r.clause.is_empty() {
        return false;
    }
    if r.clause.is_tautology() {
        return false;
    }
    let mut premises: Vec<ClauseId> = r.premises().collect();
    premises.sort_unstable();
    premises.dedup();
    premises.len() >= 2 && !input_canon.contains(&canonical_clause(bank, &r.clause.lits))
}

/// Ranks the candidates of a finished saturation run (its bank and store).
pub fn rank(bank: &TermBank, store: &ClauseStore) -> Ranking {
    let n = store.len();
    let inputs: Vec<ClauseId> = store
        .ids()
        .filter(|&c| store.get(c).rule == Rule::Input)
        .collect();
    let input_canon: HashSet<String> = inputs
        .iter()
        .map(|&c| canonical_clause(bank, &store.get(c).clause.lits))
        .collect();
    // A clause derived again in a later round of iterative saturation is a
    // candidate once, under its first record (within one round, forward
    // subsumption already keeps variants out of the active set).
    let mut seen_canon: HashSet<String> = HashSet::new();
    let cands: Vec<ClauseId> = store
        .ids()
        .filter(|&c| is_candidate(bank, store, c, &input_canon))
        .filter(|&c| seen_canon.insert(canonical_clause(bank, &store.get(c).clause.lits)))
        .collect();
    let m = cands.len();
    if m == 0 {
        return Ranking::default();
    }
    // Symbol co-occurrence over the input clauses, for surprisingness.
    let input_syms: Vec<Vec<SymbolId>> = inputs
        .iter()
        .map(|&c| symbols(bank, &store.get(c).clause.lits))
        .collect();
    let holds = |s: SymbolId| -> Vec<usize> {
        (0..input_syms.len())
            .filter(|&i| input_syms[i].binary_search(&s).is_ok())
            .collect()
    };
    // Ancestor walks share one stamp array.
    let weights: Vec<u32> = store
        .records()
        .iter()
        .map(|r| clause_weight(bank, &r.clause.lits))
        .collect();
    let mut stamp = vec![0u32; n];
    let mut stack = Vec::new();
    let mut comps: Vec<Components> = Vec::with_capacity(m);
    for (k, &c) in cands.iter().enumerate() {
        let mark = k as u32 + 1;
        let (mut steps, mut anc_weight) = (0u64, 0u64);
        stack.clear();
        stack.push(c);
        stamp[c.index()] = mark;
        while let Some(x) = stack.pop() {
            let r = store.get(x);
            if x != c {
                anc_weight += weights[x.index()] as u64;
            }
            if r.rule != Rule::Input {
                steps += 1;
            }
            for p in r.premises() {
                if stamp[p.index()] != mark {
                    stamp[p.index()] = mark;
                    stack.push(p);
                }
            }
        }
        let lits = &store.get(c).clause.lits;
        let (counts, nodes) = symbol_counts(bank, lits);
        let w = nodes.max(1) as f64;
        let surprisingness = (counts.len() >= 2).then(|| {
            let occ: Vec<Vec<usize>> = counts.iter().map(|&(s, _)| holds(s)).collect();
            let mut sum = 0.0;
            let mut pairs = 0usize;
            for i in 0..occ.len() {
                for j in i + 1..occ.len() {
                    let both = occ[i].iter().filter(|x| occ[j].contains(x)).count();
                    let either = occ[i].len() + occ[j].len() - both;
                    sum += if either == 0 {
                        1.0
                    } else {
                        1.0 - both as f64 / either as f64
                    };
                    pairs += 1;
                }
            }
            sum / pairs as f64
        });
        let top = counts.iter().map(|p| p.1).max().unwrap_or(0);
        comps.push(Components {
            obviousness: steps as f64,
            weight: w,
            complexity: counts.len() as f64,
            surprisingness,
            intensity: anc_weight as f64 / w,
            usefulness: None,
            adaptivity: adaptivity(bank, lits),
            focus: top as f64 / w,
        });
    }
    // Interesting = base score (usefulness not yet known) at least the median.
    let base = combine(&comps);
    let mut sorted = base.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[m / 2];
    // Candidate descendants as bit sets, pushed from children to premises
    // in decreasing id order (ids are topological).
    let words = m.div_ceil(64);
    let mut cand_index = vec![u32::MAX; n];
    for (k, &c) in cands.iter().enumerate() {
        cand_index[c.index()] = k as u32;
    }
    let mut interesting = vec![0u64; words];
    for (j, &b) in base.iter().enumerate() {
        if b >= median {
            interesting[j / 64] |= 1 << (j % 64);
        }
    }
    let mut desc: Vec<Option<Vec<u64>>> = vec![None; n];
    for x in (0..n).rev() {
        let r = &store.records()[x];
        if r.state == State::Passive {
            continue;
        }
        let mut mine = desc[x].take();
        if cand_index[x] != u32::MAX {
            let k = cand_index[x] as usize;
            let set = mine.get_or_insert_with(|| vec![0; words]);
            // Record x's own descendants for x, then add x for its premises.
            let count: u32 = set.iter().map(|w| w.count_ones()).sum();
            if count > 0 {
                let good: u32 = set
                    .iter()
                    .zip(&interesting)
                    .map(|(a, b)| (a & b).count_ones())
                    .sum();
                comps[k].usefulness = Some(good as f64 / count as f64);
            }
            set[k / 64] |= 1 << (k % 64);
        }
        if let Some(set) = &mine {
            for p in r.premises() {
                let ps = desc[p.index()].get_or_insert_with(|| vec![0; words]);
                for (a, b) in ps.iter_mut().zip(set) {
                    *a |= b;
                }
            }
        }
    }
    let scores = combine(&comps);
    let mut ranked: Vec<Scored> = cands
        .into_iter()
        .zip(comps)
        .zip(scores)
        .map(|((id, components), score)| Scored {
            id,
            components,
            score,
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
    Ranking { ranked }
}

/// Mean of min-max normalised components (see the module documentation).
fn combine(comps: &[Components]) -> Vec<f64> {
    let vals: Vec<[Option<f64>; 8]> = comps.iter().map(Components::values).collect();
    let mut lo = [f64::INFINITY; 8];
    let mut hi = [f64::NEG_INFINITY; 8];
    for v in &vals {
        for j in 0..8 {
            if let Some(x) = v[j] {
                lo[j] = lo[j].min(x);
                hi[j] = hi[j].max(x);
            }
        }
    }
    vals.iter()
        .map(|v| {
            let (mut sum, mut k) = (0.0, 0);
            for j in 0..8 {
                let Some(x) = v[j] else { continue };
                if hi[j] <= lo[j] {
                    continue;
                }
                let t = (x - lo[j]) / (hi[j] - lo[j]);
                sum += if LOWER_BETTER[j] { 1.0 - t } else { t };
                k += 1;
            }
            if k == 0 { 0.0 } else { sum / k as f64 }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::saturation::{InputInfo, Params, Saturator};

    /// Saturates TPTP text (every clause an axiom) for `processed` given
    /// clauses; shared with the task family tests.
    pub(crate) fn run(text: &str, processed: u64) -> Saturator {
        let mut bank = TermBank::new();
        let p = crate::tptp::parse_str(&mut bank, text, "t.p", None).unwrap();
        let inputs = p
            .clauses
            .iter()
            .map(|c| {
                (
                    c.lits.clone(),
                    InputInfo {
                        name: c.name.clone(),
                        role: "axiom".into(),
                        file: "t.p".into(),
                        source: None,
                        formula: None,
                    },
                )
            })
            .collect();
        let mut params = Params::default();
        params.limits.max_processed = Some(processed);
        let mut s = Saturator::from_inputs(bank, inputs, params);
        s.run(&mut |_| {});
        s
    }

    const GROUP: &str = "cnf(a, axiom, mult(e, X) = X).\n\
        cnf(b, axiom, mult(inv(X), X) = e).\n\
        cnf(c, axiom, mult(mult(X, Y), Z) = mult(X, mult(Y, Z))).\n";

    #[test]
    fn scores_are_normalised_sorted_and_candidates_are_derived() {
        let sat = run(GROUP, 60);
        let r = rank(&sat.bank, &sat.store);
        assert!(!r.ranked.is_empty());
        for w in r.ranked.windows(2) {
            assert!(w[0].score >= w[1].score);
        }
        for s in &r.ranked {
            assert!((0.0..=1.0).contains(&s.score), "{}", s.score);
            let rec = sat.store.get(s.id);
            assert_ne!(rec.rule, Rule::Input);
            assert_eq!(rec.state, State::Active);
            assert!(s.components.obviousness >= 1.0);
            assert!(s.components.intensity > 0.0);
            if let Some(u) = s.components.usefulness {
                assert!((0.0..=1.0).contains(&u));
            }
        }
        // Deterministic.
        let again = run(GROUP, 60);
        let again = rank(&again.bank, &again.store);
        assert_eq!(r.ranked, again.ranked);
    }

    #[test]
    fn clause_weight_counts_what_the_symbol_walk_counts() {
        // The stored-weight shortcut must agree with walking every term,
        // on every record a saturation keeps (equations and atoms, ground
        // and not, input and derived).
        let out = run(GROUP, 60);
        let mut checked = 0;
        for r in out.store.records() {
            let lits = &r.clause.lits;
            assert_eq!(
                clause_weight(&out.bank, lits),
                symbol_counts(&out.bank, lits).1,
            );
            checked += 1;
        }
        assert!(checked > 40, "only {checked} records");
    }

    #[test]
    fn combine_inverts_lower_better_and_ignores_constants() {
        let a = Components {
            weight: 3.0,
            complexity: 1.0,
            focus: 0.5,
            ..Default::default()
        };
        let b = Components {
            weight: 9.0,
            complexity: 1.0,
            focus: 0.5,
            ..Default::default()
        };
        // Only weight varies: the lighter clause scores 1, the heavier 0.
        assert_eq!(combine(&[a, b]), vec![1.0, 0.0]);
    }

    #[test]
    fn surprisingness_and_adaptivity_follow_their_definitions() {
        let mut bank = TermBank::new();
        let p = crate::tptp::parse_str(
            &mut bank,
            "cnf(x, axiom, p(X) | q(X, Y)).\ncnf(y, axiom, r(a)).",
            "t.p",
            None,
        )
        .unwrap();
        let c = &p.clauses[0].lits;
        // X in both literals, Y only in one.
        assert_eq!(adaptivity(&bank, c), Some(0.5));
        assert_eq!(adaptivity(&bank, &p.clauses[1].lits), None);
        assert_eq!(symbols(&bank, c).len(), 2);
        assert_eq!(clause_weight(&bank, c), 5);
    }
}
