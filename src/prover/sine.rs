//! SInE axiom selection (Hoder and Voronkov, "Sine Qua Non for Large Theory
//! Reasoning", CADE 2011): the axioms reachable from the goal's symbols
//! through each axiom's rarest symbols, for the first slice of the prover's
//! schedule on a TPTP problem ([`crate::prover::file`]).
//!
//! An axiom is a group of input clauses (the clauses of one FOF formula, or
//! one CNF clause). A symbol `s` *triggers* an axiom `A` that contains it
//! when `occ(s) <= tolerance * min { occ(s') : s' in A }`, where `occ`
//! counts the axioms a symbol occurs in: an axiom is pulled in by its
//! rarest symbols only, so a symbol that occurs everywhere (`member`,
//! `subset`) does not drag in the whole theory. Starting from the goal's
//! symbols, every triggered axiom is selected and its symbols become
//! relevant in turn, to a fixpoint.
//!
//! Symbols introduced by clausification (Skolem functions, definition
//! predicates) are not counted: each belongs to one formula, and a symbol
//! of occurrence 1 would make its formula triggerable by that symbol only.
//! Instead they tie their clauses into one axiom: clauses sharing an
//! introduced symbol are grouped together (a definition with the formula
//! that uses it). Axioms without any counted symbol (`X = X`-like laws)
//! are always selected.
//!
//! The selection only narrows the search: a refutation of the selected
//! clauses refutes the problem; anything else about them (saturation, a
//! model) says nothing about the whole problem, so the caller goes on with
//! every clause.

use crate::logic::{Head, Literal, TermBank, TermId};

/// The clauses of a problem to select from.
pub struct Candidates<'a> {
    /// Each clause's literals.
    pub clauses: &'a [&'a [Literal]],
    /// Each clause's formula (clauses with the same key form one axiom
    /// unless an introduced symbol joins them with others).
    pub formula: &'a [u32],
    /// Each clause: part of the goal (a negated conjecture), always kept.
    pub goal: &'a [bool],
    /// Symbols with an index at or above this were introduced by
    /// clausification.
    pub input_symbols: usize,
}

/// What [`select`] kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Per clause: selected (every goal clause is).
    pub keep: Vec<bool>,
    /// Axioms (groups of clauses without a goal clause) in the problem.
    pub axioms: usize,
    /// Axioms selected.
    pub selected: usize,
}

/// SInE selection at `tolerance_percent` / 100 (120 is the paper's 1.2),
/// going at most `depth` trigger steps from the goal (0: to the fixpoint).
/// With no goal clause nothing is relevant, so every clause is kept.
pub fn select(bank: &TermBank, c: &Candidates, tolerance_percent: u32, depth: u32) -> Selection {
    let mut one = select_depths(bank, c, tolerance_percent, &[depth]);
    one.pop().expect("one selection per depth")
}

/// [`select`] at each of `depths`, from one grouping and one breadth-first
/// pass: an axiom selected in round k is in every selection of depth k or
/// more (or 0).
pub fn select_depths(
    bank: &TermBank,
    c: &Candidates,
    tolerance_percent: u32,
    depths: &[u32],
) -> Vec<Selection> {
    let n = c.clauses.len();
    assert_eq!(n, c.formula.len(), "one formula key per clause");
    assert_eq!(n, c.goal.len(), "one goal flag per clause");
    // Group clauses: by formula key, then by shared introduced symbols.
    let mut uf = UnionFind::new(n);
    let mut first_of_formula: std::collections::BTreeMap<u32, usize> = Default::default();
    let mut first_of_symbol: Vec<Option<usize>> = vec![None; bank.sig.len()];
    let mut syms: Vec<Vec<u32>> = Vec::with_capacity(n);
    for (i, lits) in c.clauses.iter().enumerate() {
        let j = *first_of_formula.entry(c.formula[i]).or_insert(i);
        uf.union(i, j);
        let mut own = Vec::new();
        for l in lits.iter() {
            symbols_of(bank, l.lhs, &mut own);
            symbols_of(bank, l.rhs, &mut own);
        }
        own.sort_unstable();
        own.dedup();
        own.retain(|&s| {
            if (s as usize) < c.input_symbols {
                return true;
            }
            match first_of_symbol[s as usize] {
                Some(k) => uf.union(i, k),
                None => first_of_symbol[s as usize] = Some(i),
            }
            false
        });
        syms.push(own);
    }
    // Axioms: the groups, numbered by their first clause.
    let mut group_of = vec![usize::MAX; n];
    let mut groups: Vec<(Vec<u32>, bool)> = Vec::new();
    let mut root_group: std::collections::BTreeMap<usize, usize> = Default::default();
    for i in 0..n {
        let r = uf.find(i);
        let g = *root_group.entry(r).or_insert_with(|| {
            groups.push((Vec::new(), false));
            groups.len() - 1
        });
        group_of[i] = g;
        groups[g].0.extend_from_slice(&syms[i]);
        groups[g].1 |= c.goal[i];
    }
    for g in groups.iter_mut() {
        g.0.sort_unstable();
        g.0.dedup();
    }
    let axioms = groups.iter().filter(|g| !g.1).count();
    if !groups.iter().any(|g| g.1) {
        let all = Selection {
            keep: vec![true; n],
            axioms,
            selected: axioms,
        };
        return vec![all; depths.len()];
    }
    // Occurrences over the axioms, and each symbol's triggered axioms.
    let mut occ = vec![0u32; c.input_symbols];
    for (s, _) in groups.iter().filter(|g| !g.1) {
        for &x in s {
            occ[x as usize] += 1;
        }
    }
    let mut triggers: Vec<Vec<usize>> = vec![Vec::new(); c.input_symbols];
    // Per group: the round it is selected in (goal and symbol-free
    // axioms 0; never: `u32::MAX`).
    let mut round_of = vec![u32::MAX; groups.len()];
    for (g, (s, goal)) in groups.iter().enumerate() {
        if *goal {
            continue;
        }
        let Some(rarest) = s.iter().map(|&x| occ[x as usize]).min() else {
            // No counted symbol: nothing could trigger it; always kept.
            round_of[g] = 0;
            continue;
        };
        let bound = u64::from(rarest) * u64::from(tolerance_percent);
        for &x in s {
            if u64::from(occ[x as usize]) * 100 <= bound {
                triggers[x as usize].push(g);
            }
        }
    }
    // Relevance from the goal's symbols to a fixpoint.
    let mut relevant = vec![false; c.input_symbols];
    let mut todo: Vec<u32> = Vec::new();
    let mark = |x: u32, relevant: &mut Vec<bool>, todo: &mut Vec<u32>| {
        if !relevant[x as usize] {
            relevant[x as usize] = true;
            todo.push(x);
        }
    };
    for (g, (s, goal)) in groups.iter().enumerate() {
        if *goal {
            round_of[g] = 0;
            for &x in s {
                mark(x, &mut relevant, &mut todo);
            }
        }
    }
    // Breadth first: the axioms of round k are triggered by symbols made
    // relevant in round k - 1 (the goal's are round 0's).
    let mut round = 0u32;
    while !todo.is_empty() {
        round += 1;
        let mut next = Vec::new();
        for x in std::mem::take(&mut todo) {
            for &g in &triggers[x as usize] {
                if round_of[g] == u32::MAX {
                    round_of[g] = round;
                    for &y in &groups[g].0 {
                        mark(y, &mut relevant, &mut next);
                    }
                }
            }
        }
        todo = next;
    }
    depths
        .iter()
        .map(|&depth| {
            let bound = if depth == 0 { u32::MAX - 1 } else { depth };
            let keep: Vec<bool> = (0..n).map(|i| round_of[group_of[i]] <= bound).collect();
            let selected = groups
                .iter()
                .zip(&round_of)
                .filter(|(g, r)| !g.1 && **r <= bound)
                .count();
            Selection {
                keep,
                axioms,
                selected,
            }
        })
        .collect()
}

/// Pushes the symbols of `t` (function and predicate symbols; `$true` and
/// variables are not symbols here).
fn symbols_of(bank: &TermBank, t: TermId, out: &mut Vec<u32>) {
    if let Head::Sym(f) = bank.head(t) {
        if t != bank.true_term() {
            out.push(f.index() as u32);
        }
        for &a in bank.args(t) {
            symbols_of(bank, a, out);
        }
    }
}

/// Union-find over clause indices (path halving, union by index so the
/// grouping does not depend on anything but the input order).
struct UnionFind(Vec<usize>);

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind((0..n).collect())
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            self.0[hi] = lo;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tptp;
    use proptest::prelude::*;

    /// The selection on a TPTP text: the names of the kept clauses' formulas.
    fn kept(text: &str, tolerance: u32, depth: u32) -> (Vec<String>, Selection) {
        let mut bank = TermBank::new();
        let p = tptp::parse_str(&mut bank, text, "t.p", None).unwrap();
        let lits: Vec<&[Literal]> = p.clauses.iter().map(|c| c.lits.as_slice()).collect();
        let mut keys: Vec<String> = Vec::new();
        let formula: Vec<u32> = p
            .clauses
            .iter()
            .map(|c| match keys.iter().position(|k| *k == c.name) {
                Some(i) => i as u32,
                None => {
                    keys.push(c.name.clone());
                    keys.len() as u32 - 1
                }
            })
            .collect();
        let goal: Vec<bool> = p
            .clauses
            .iter()
            .map(|c| c.role.as_str() == "negated_conjecture")
            .collect();
        let c = Candidates {
            clauses: &lits,
            formula: &formula,
            goal: &goal,
            input_symbols: p.input_symbols,
        };
        let sel = select(&bank, &c, tolerance, depth);
        let mut names: Vec<String> = p
            .clauses
            .iter()
            .zip(&sel.keep)
            .filter(|(_, k)| **k)
            .map(|(c, _)| c.name.clone())
            .collect();
        names.dedup();
        (names, sel)
    }

    /// A goal about `p(a)`; a chain `p <- q <- r`; an unrelated theory on
    /// `s`, `t`; a symbol `m` in three axioms; a symbol-free law.
    const CHAIN: &str = "
        fof(pq, axiom, ![X]: (q(X) => p(X))).
        fof(qr, axiom, ![X]: (r(X) => q(X))).
        fof(r, axiom, ![X]: (m(X) => r(X))).
        fof(st, axiom, ![X]: (s(X) => t(X))).
        fof(ts, axiom, ![X]: ((m(X) & t(X)) => s(X))).
        fof(ms, axiom, ![X]: (m(X) | s(X) | u(X))).
        fof(two, axiom, ![X, Y, Z]: (X = Y | X = Z | Y = Z)).
        fof(goal, conjecture, p(a)).
    ";

    #[test]
    fn follows_rare_symbols_from_the_goal_not_common_ones() {
        // Occurrences: p 1, q 2, r 2, t 2, m 3, s 3, u 1. Each axiom is
        // triggered by its symbols within 1.2 times its rarest one's
        // count: `r` by r, not by m, so the goal never reaches s and t.
        let (names, sel) = kept(CHAIN, 120, 0);
        assert_eq!(names, ["pq", "qr", "r", "two", "goal"], "{sel:?}");
        assert_eq!((sel.selected, sel.axioms), (4, 7));
    }

    #[test]
    fn depth_bounds_the_trigger_steps() {
        assert_eq!(kept(CHAIN, 120, 1).0, ["pq", "two", "goal"]);
        assert_eq!(kept(CHAIN, 120, 2).0, ["pq", "qr", "two", "goal"]);
        assert_eq!(kept(CHAIN, 120, 3).0, kept(CHAIN, 120, 0).0);
    }

    #[test]
    fn a_large_tolerance_lets_common_symbols_trigger() {
        // At 1.5, m (3 axioms) triggers `r` and `ts` (rarest 2), and t then
        // `st`; `ms` (rarest u, 1) only from 3.0.
        assert_eq!(
            kept(CHAIN, 150, 0).0,
            ["pq", "qr", "r", "st", "ts", "two", "goal"]
        );
        assert_eq!(kept(CHAIN, 300, 0).1.selected, 7);
    }

    #[test]
    fn without_a_goal_everything_is_kept() {
        let text = "fof(a, axiom, p(a)). fof(b, axiom, q(b)).";
        let (names, sel) = kept(text, 120, 0);
        assert_eq!(names, ["a", "b"]);
        assert!(sel.keep.iter().all(|&k| k));
    }

    #[test]
    fn introduced_symbols_tie_a_formula_to_its_definitions() {
        // The existential gives a Skolem shared by the clauses of `ex`; with
        // `<=>` under a disjunction the clausifier may name subformulas:
        // whatever it introduces, a formula's clauses stay together.
        let text = "
            fof(ex, axiom, ![X]: (p(X) => ?[Y]: (q(X, Y) & r(Y)))).
            fof(other, axiom, ![X]: (s(X) => t(X))).
            fof(goal, conjecture, ?[Z]: r(Z)).
        ";
        let mut bank = TermBank::new();
        let p = tptp::parse_str(&mut bank, text, "t.p", None).unwrap();
        assert!(p.clausify.skolems > 0);
        let (names, sel) = kept(text, 120, 0);
        assert_eq!(names, ["ex", "goal"]);
        let ex_clauses = p.clauses.iter().filter(|c| c.name == "ex").count();
        assert!(ex_clauses > 1);
        let kept_ex = p
            .clauses
            .iter()
            .zip(&sel.keep)
            .filter(|(c, k)| c.name == "ex" && **k)
            .count();
        assert_eq!(kept_ex, ex_clauses);
    }

    /// Random axiom sets over p0..p5 with a goal on p0: goal clauses and
    /// symbol-free axioms are always kept, and more tolerance or more depth
    /// never selects less.
    fn axioms() -> impl Strategy<Value = Vec<Vec<u8>>> {
        proptest::collection::vec(proptest::collection::vec(0u8..6, 0..4), 1..10)
    }

    proptest! {
        #[test]
        fn selection_is_monotone_and_keeps_the_goal(ax in axioms(), t in 100u32..300, d in 0u32..4) {
            let mut text = String::new();
            for (i, a) in ax.iter().enumerate() {
                let body = if a.is_empty() {
                    "X = Y".to_string()
                } else {
                    a.iter().map(|s| format!("p{s}(X)")).collect::<Vec<_>>().join(" | ")
                };
                text += &format!("fof(a{i}, axiom, ![X, Y]: ({body})).\n");
            }
            text += "fof(goal, conjecture, p0(c)).\n";
            let (names, sel) = kept(&text, t, d);
            prop_assert!(names.iter().any(|n| n == "goal"));
            for (i, a) in ax.iter().enumerate() {
                let name = format!("a{i}");
                prop_assert!(!a.is_empty() || names.contains(&name));
            }
            let wider = kept(&text, t + 50, d).1;
            let deeper = kept(&text, t, if d == 0 { 0 } else { d + 1 }).1;
            for (small, big) in [(&sel, &wider), (&sel, &deeper)] {
                for (k, b) in small.keep.iter().zip(&big.keep) {
                    prop_assert!(!k || *b);
                }
            }
        }
    }
}
