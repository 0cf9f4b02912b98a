//! EQ proof corruptions of ProofGrid EQ1 (seed 000 §3; spec `pl_eq.md`
//! §5.4): `contractumCorruption` changes
//! one constant inside one contractum of a step (later terms are left as in
//! the original chain, as in ProofGrid's data); citation corruption replaces
//! one cited equation by another. After corrupting, the checker must reject
//! the step, and `incorrectStep` is the first step the checker rejects.
//!
//! Neither corruption may leave a surface tell: a correct step never shows a
//! symbol that neither the line before nor its cited equations show (the
//! contractum is an instance of a cited right-hand side over subterms of the
//! line before), so a corrupted proof must not either ([`shows_fresh_symbol`]),
//! and a replaced citation must be an equation whose left-hand side's head
//! occurs in the line it claims to rewrite. Otherwise a symbol check, not
//! the rewriting, would tell corrupted proofs apart (the shortcut audit
//! measured 70-76% for that check against a 50% majority).

use super::generate::Proof;
use crate::equational::step::{StepError, check_step};
use crate::logic::{Head, TermId};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// What was changed, for the record and the gold answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// One contractum of `step` was replaced.
    Contractum {
        /// The corrupted step (≥ 1).
        step: usize,
        /// Index of the redex in the step's witness list (0-based).
        redex: usize,
        /// The contractum the equation produces.
        correct: TermId,
        /// The contractum written in the corrupted term.
        actual: TermId,
    },
    /// One cited equation of `step` was replaced by another.
    Citation {
        /// The corrupted step (≥ 1).
        step: usize,
        /// The citation before corruption (a minimal licensing set).
        original: Vec<usize>,
    },
}

impl Corruption {
    /// The corrupted step.
    pub fn step(&self) -> usize {
        match self {
            Corruption::Contractum { step, .. } | Corruption::Citation { step, .. } => *step,
        }
    }

    /// The paper's name of the method.
    pub fn method(&self) -> &'static str {
        match self {
            Corruption::Contractum { .. } => "contractumCorruption",
            Corruption::Citation { .. } => "citationCorruption",
        }
    }
}

/// The first step the checker rejects, with the reason.
pub fn first_failure(p: &Proof) -> Option<(usize, StepError)> {
    first_failure_from(p, 1)
}

/// The first step from step `from` on that the checker rejects, with the
/// reason.
pub fn first_failure_from(p: &Proof, from: usize) -> Option<(usize, StepError)> {
    (from..p.terms.len()).find_map(|i| {
        check_step(
            &p.world,
            &p.equations,
            p.terms[i - 1],
            p.terms[i],
            &p.citations[i],
        )
        .err()
        .map(|e| (i, e))
    })
}

/// The symbols of `t`.
fn symbols_of(p: &Proof, t: TermId) -> BTreeSet<crate::logic::SymbolId> {
    let mut v = Vec::new();
    p.world.symbols_in(t, &mut v);
    v.into_iter().collect()
}

/// The symbols a reader sees when checking a step: those of the line
/// before and of the cited equations' two sides.
fn visible_symbols(p: &Proof, before: TermId, cited: &[usize]) -> BTreeSet<crate::logic::SymbolId> {
    let mut seen = symbols_of(p, before);
    for &e in cited {
        seen.extend(symbols_of(p, p.equations[e].lhs));
        seen.extend(symbols_of(p, p.equations[e].rhs));
    }
    seen
}

/// Whether line `step` of `p` (with `terms` and `citations` in place of the
/// proof's own) shows a symbol that neither the line before nor the step's
/// cited equations show.
pub fn shows_fresh_symbol(
    p: &Proof,
    terms: &[TermId],
    citations: &[Vec<usize>],
    step: usize,
) -> bool {
    let seen = visible_symbols(p, terms[step - 1], &citations[step]);
    symbols_of(p, terms[step]).iter().any(|s| !seen.contains(s))
}

/// Whether any line of the proof shows a fresh symbol.
fn any_fresh_symbol(p: &Proof, terms: &[TermId], citations: &[Vec<usize>]) -> bool {
    (1..terms.len()).any(|i| shows_fresh_symbol(p, terms, citations, i))
}

/// Replaces one constant inside one contractum of a random step. Returns
/// `None` (proof untouched) if no attempt gave a step the checker rejects.
pub fn corrupt_contractum(p: &mut Proof, rng: &mut ChaCha8Rng) -> Option<Corruption> {
    let n = p.steps();
    for _ in 0..30 {
        let step = rng.random_range(1..=n);
        let redex = rng.random_range(0..p.witnesses[step].len());
        let wit = &p.witnesses[step][redex];
        let (pos, correct) = (wit.pos.clone(), wit.contractum);
        let leaves: Vec<_> = p
            .world
            .positions(correct)
            .into_iter()
            .filter(|q| {
                p.world
                    .bank
                    .arity(p.world.subterm(correct, q).expect("own"))
                    == 0
            })
            .collect();
        let q = &leaves[rng.random_range(0..leaves.len())];
        let old = p.world.subterm(correct, q).expect("own");
        // Only constants the reader already sees at this step: in the line
        // before or in the cited equations.
        let visible = visible_symbols(p, p.terms[step - 1], &p.citations[step]);
        let consts: Vec<_> = p
            .world
            .symbols(0)
            .iter()
            .copied()
            .filter(|c| visible.contains(c))
            .collect();
        if consts.is_empty() {
            continue;
        }
        let c = consts[rng.random_range(0..consts.len())];
        let new = p.world.bank.constant(c);
        if new == old {
            continue;
        }
        let actual = p.world.bank.replace_at(correct, q, new);
        let term = p.world.bank.replace_at(p.terms[step], &pos, actual);
        let cited = &p.citations[step];
        if check_step(&p.world, &p.equations, p.terms[step - 1], term, cited).is_ok() {
            continue;
        }
        let mut terms = p.terms.clone();
        terms[step] = term;
        if any_fresh_symbol(p, &terms, &p.citations) {
            continue;
        }
        p.terms[step] = term;
        debug_assert_eq!(first_failure(p).map(|f| f.0), Some(step));
        return Some(Corruption::Contractum {
            step,
            redex,
            correct,
            actual,
        });
    }
    None
}

/// Replaces one cited equation of a random step by an equation the step does
/// not cite. Returns `None` (proof untouched) if no attempt gave a step the
/// checker rejects (or there is no other equation).
pub fn corrupt_citation(p: &mut Proof, rng: &mut ChaCha8Rng) -> Option<Corruption> {
    let n = p.steps();
    let m = p.equations.len();
    for _ in 0..30 {
        let step = rng.random_range(1..=n);
        let original = p.citations[step].clone();
        // Equations that could plausibly rewrite the line before: the head
        // of their left-hand side occurs in it.
        let before = symbols_of(p, p.terms[step - 1]);
        let others: Vec<usize> = (0..m)
            .filter(|e| !original.contains(e))
            .filter(|&e| match p.world.bank.head(p.equations[e].lhs) {
                Head::Sym(f) => before.contains(&f),
                Head::Var(_) => false,
            })
            .collect();
        if others.is_empty() {
            continue;
        }
        let j = rng.random_range(0..original.len());
        let mut cited = original.clone();
        cited[j] = others[rng.random_range(0..others.len())];
        let (s, t) = (p.terms[step - 1], p.terms[step]);
        if check_step(&p.world, &p.equations, s, t, &cited).is_ok() {
            continue;
        }
        let mut citations = p.citations.clone();
        citations[step] = cited.clone();
        if any_fresh_symbol(p, &p.terms, &citations) {
            continue;
        }
        p.citations[step] = cited;
        debug_assert_eq!(first_failure(p).map(|f| f.0), Some(step));
        return Some(Corruption::Citation { step, original });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::equational::generate::{GenParams, generate};
    use crate::seed::instance_rng;

    #[test]
    fn corrupted_proofs_fail_exactly_at_the_corrupted_step() {
        let mut made = 0;
        for level in 1..=4u8 {
            let params = GenParams::level(level).unwrap();
            for i in 0..12 {
                let mut rng = instance_rng(11, &["eq-corrupt", &level.to_string()], i);
                let proof = generate(&params, &mut rng).unwrap();
                assert_eq!(first_failure(&proof), None);
                let mut a = proof.clone();
                assert!(!any_fresh_symbol(&proof, &proof.terms, &proof.citations));
                if let Some(c) = corrupt_contractum(&mut a, &mut rng) {
                    assert_eq!(first_failure(&a).map(|f| f.0), Some(c.step()));
                    assert!(!any_fresh_symbol(&a, &a.terms, &a.citations));
                    made += 1;
                }
                let mut b = proof.clone();
                if let Some(c) = corrupt_citation(&mut b, &mut rng) {
                    assert_eq!(first_failure(&b).map(|f| f.0), Some(c.step()));
                    assert_eq!(b.terms, proof.terms);
                    assert!(!any_fresh_symbol(&b, &b.terms, &b.citations));
                }
            }
        }
        // Visible constants still leave most proofs a corruption.
        assert!(
            made >= 36,
            "{made} of 48 proofs got a contractum corruption"
        );
    }
}
