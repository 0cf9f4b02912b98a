//! Sound rewritings and minimal mutations of propositional formulas (drawn
//! by the equivalence tasks, after AutoEval, seed 002; the first-order
//! counterpart is [`crate::fol::rewrite`]): De Morgan, distribution,
//! contraposition, double negation, implication and biconditional laws and
//! reordering, one at a random position; mutations flip one operator, swap
//! an implication's arguments or negate one subformula, and are kept only
//! when the SAT decision ([`super::equivalence::decide`]) separates them.

use super::equivalence::decide;
use super::formula::Formula;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// A position in a formula: the child indices from the root (0 = left or
/// only child, 1 = right).
type Path = Vec<u8>;

/// The immediate subformulas of `f`, left to right.
pub fn children(f: &Formula) -> Vec<&Formula> {
    match f {
        Formula::Not(p) => vec![p],
        Formula::And(p, q) | Formula::Or(p, q) | Formula::Imp(p, q) | Formula::Iff(p, q) => {
            vec![p, q]
        }
        _ => vec![],
    }
}

/// Every position of `f`, pre-order.
fn positions(f: &Formula) -> Vec<Path> {
    fn go(f: &Formula, at: &mut Path, out: &mut Vec<Path>) {
        out.push(at.clone());
        for (i, c) in children(f).into_iter().enumerate() {
            at.push(i as u8);
            go(c, at, out);
            at.pop();
        }
    }
    let mut out = Vec::new();
    go(f, &mut Vec::new(), &mut out);
    out
}

fn get<'a>(f: &'a Formula, path: &[u8]) -> &'a Formula {
    match path.split_first() {
        None => f,
        Some((&i, rest)) => get(children(f)[usize::from(i)], rest),
    }
}

/// `f` with the subformula at `path` replaced by `new`.
fn replace(f: &Formula, path: &[u8], new: Formula) -> Formula {
    let Some((&i, rest)) = path.split_first() else {
        return new;
    };
    let sub = |g: &Formula, j: u8, new: Formula| {
        if i == j {
            replace(g, rest, new)
        } else {
            g.clone()
        }
    };
    match f {
        Formula::Not(p) => Formula::negation(replace(p, rest, new)),
        Formula::And(p, q) => Formula::and(sub(p, 0, new.clone()), sub(q, 1, new)),
        Formula::Or(p, q) => Formula::or(sub(p, 0, new.clone()), sub(q, 1, new)),
        Formula::Imp(p, q) => Formula::imp(sub(p, 0, new.clone()), sub(q, 1, new)),
        Formula::Iff(p, q) => Formula::iff(sub(p, 0, new.clone()), sub(q, 1, new)),
        _ => f.clone(),
    }
}

/// The sound rewrites that apply at the root of `g`: (name, result).
fn rewrites_at(g: &Formula) -> Vec<(&'static str, Formula)> {
    use Formula as F;
    let c = |x: &Formula| x.complement();
    let mut out = Vec::new();
    match g {
        F::And(a, b) => {
            out.push(("commute", F::and((**b).clone(), (**a).clone())));
            out.push(("de_morgan", F::negation(F::or(c(a), c(b)))));
            if let F::Or(x, y) = &**b {
                out.push((
                    "distribute",
                    F::or(
                        F::and((**a).clone(), (**x).clone()),
                        F::and((**a).clone(), (**y).clone()),
                    ),
                ));
            }
            match (&**a, &**b) {
                (F::Or(x1, y), F::Or(x2, z)) if x1 == x2 => out.push((
                    "factor",
                    F::or((**x1).clone(), F::and((**y).clone(), (**z).clone())),
                )),
                _ => {}
            }
        }
        F::Or(a, b) => {
            out.push(("commute", F::or((**b).clone(), (**a).clone())));
            out.push(("de_morgan", F::negation(F::and(c(a), c(b)))));
            out.push(("implication", F::imp(c(a), (**b).clone())));
            if let F::And(x, y) = &**b {
                out.push((
                    "distribute",
                    F::and(
                        F::or((**a).clone(), (**x).clone()),
                        F::or((**a).clone(), (**y).clone()),
                    ),
                ));
            }
            match (&**a, &**b) {
                (F::And(x1, y), F::And(x2, z)) if x1 == x2 => out.push((
                    "factor",
                    F::and((**x1).clone(), F::or((**y).clone(), (**z).clone())),
                )),
                _ => {}
            }
        }
        F::Imp(a, b) => {
            out.push(("contraposition", F::imp(c(b), c(a))));
            out.push(("implication", F::or(c(a), (**b).clone())));
        }
        F::Iff(a, b) => {
            out.push(("commute", F::iff((**b).clone(), (**a).clone())));
            out.push(("iff_negated", F::iff(c(a), c(b))));
            out.push((
                "iff_split",
                F::and(
                    F::imp((**a).clone(), (**b).clone()),
                    F::imp((**b).clone(), (**a).clone()),
                ),
            ));
        }
        F::Not(p) => match &**p {
            F::Not(q) => out.push(("double_negation", (**q).clone())),
            F::And(a, b) => out.push(("de_morgan", F::or(c(a), c(b)))),
            F::Or(a, b) => out.push(("de_morgan", F::and(c(a), c(b)))),
            F::Iff(a, b) => out.push(("iff_negated", F::iff((**a).clone(), c(b)))),
            _ => {}
        },
        _ => {}
    }
    if !matches!(g, F::Not(_)) {
        out.push(("double_negation", F::negation(F::negation(g.clone()))));
    }
    out
}

/// The minimal mutations that apply at the root of `g`: (name, result).
/// A result may still be equivalent; callers check.
fn mutations_at(g: &Formula) -> Vec<(&'static str, Formula)> {
    use Formula as F;
    let mut out = Vec::new();
    match g {
        F::And(a, b) => out.push(("flip_operator", F::or((**a).clone(), (**b).clone()))),
        F::Or(a, b) => out.push(("flip_operator", F::and((**a).clone(), (**b).clone()))),
        F::Imp(a, b) => {
            out.push(("flip_operator", F::iff((**a).clone(), (**b).clone())));
            out.push(("swap_arguments", F::imp((**b).clone(), (**a).clone())));
        }
        F::Iff(a, b) => out.push(("flip_operator", F::imp((**a).clone(), (**b).clone()))),
        _ => {}
    }
    out.push(("negate", g.complement()));
    out
}

/// Whether `g` is small enough to stay readable next to `base`.
fn readable(g: &Formula, base: &Formula) -> bool {
    g.size() <= (2 * base.size()).max(base.size() + 8)
}

/// One sound rewrite at a random position of `f`: (name, result), or `None`
/// when none keeps the formula readable next to `base`.
pub fn rewrite_once(
    rng: &mut ChaCha8Rng,
    f: &Formula,
    base: &Formula,
) -> Option<(&'static str, Formula)> {
    let mut options = Vec::new();
    for p in positions(f) {
        for (name, g) in rewrites_at(get(f, &p)) {
            let whole = replace(f, &p, g);
            if readable(&whole, base) {
                options.push((name, whole));
            }
        }
    }
    if options.is_empty() {
        return None;
    }
    // Pick the rule first, then the place, so frequent patterns (double
    // negation applies everywhere) do not crowd out the others.
    let mut names: Vec<&'static str> = options.iter().map(|o| o.0).collect();
    names.sort_unstable();
    names.dedup();
    let name = names[rng.random_range(0..names.len())];
    let at: Vec<usize> = (0..options.len())
        .filter(|&i| options[i].0 == name)
        .collect();
    Some(options.swap_remove(at[rng.random_range(0..at.len())]))
}

/// `k` sound rewrites of `f`; `None` if some step found nothing to do.
pub fn rewrite(
    rng: &mut ChaCha8Rng,
    f: &Formula,
    k: usize,
) -> Option<(Vec<&'static str>, Formula)> {
    let mut g = f.clone();
    let mut names = Vec::new();
    for _ in 0..k {
        let (n, h) = rewrite_once(rng, &g, f)?;
        names.push(n);
        g = h;
    }
    Some((names, g))
}

/// One minimal mutation of `f` that is not equivalent to it: a flipped
/// operator, an implication's arguments swapped, or one subformula negated.
/// `None` if none is found. (Exchanging two atom occurrences was a fourth
/// kind; it changed the left-to-right atom sequence far more often than the
/// rewrites do, a surface cue the shortcut audit caught.)
pub fn mutate(rng: &mut ChaCha8Rng, f: &Formula) -> Option<(&'static str, Formula)> {
    let mut options: Vec<(&'static str, Formula)> = Vec::new();
    let ps = positions(f);
    for p in &ps {
        // The root is never negated whole: that would only flip every value.
        for (name, g) in mutations_at(get(f, p)) {
            if p.is_empty() && name == "negate" {
                continue;
            }
            options.push((name, replace(f, p, g)));
        }
    }
    let mut names: Vec<&'static str> = options.iter().map(|o| o.0).collect();
    names.sort_unstable();
    names.dedup();
    names.shuffle(rng);
    for name in names {
        let mut at: Vec<usize> = (0..options.len())
            .filter(|&i| options[i].0 == name)
            .collect();
        at.shuffle(rng);
        for i in at {
            if decide(f, &options[i].1).is_err() {
                return Some(options.swap_remove(i));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::equivalence::{eval, recheck_equivalent};
    use super::*;
    use crate::seed::instance_rng;

    fn p(s: &str) -> Formula {
        Formula::parse(s).unwrap()
    }

    #[test]
    fn every_rewrite_is_sound_and_every_mutation_kind_can_differ() {
        let fs = [
            "(~(P & Q) | (R ==> P))",
            "((P | Q) & (P | R))",
            "((P & Q) | (P & R))",
            "(P <==> ~(Q | R))",
            "(~(P <==> Q) & ~~R)",
        ];
        let mut mutated = 0;
        for s in fs {
            let f = p(s);
            for pos in positions(&f) {
                for (name, g) in rewrites_at(get(&f, &pos)) {
                    let whole = replace(&f, &pos, g);
                    assert!(decide(&f, &whole).is_ok(), "{name}: {s} vs {whole}");
                    assert!(recheck_equivalent(&f, &whole).is_ok());
                }
            }
            let mut rng = instance_rng(1, &["t"], 0);
            let (_, m) = mutate(&mut rng, &f).expect("a mutation");
            let cex = decide(&f, &m).unwrap_err();
            assert_ne!(eval(&f, &cex), eval(&m, &cex));
            assert!(recheck_equivalent(&f, &m).is_err());
            mutated += 1;
        }
        assert_eq!(mutated, fs.len());
    }
}
