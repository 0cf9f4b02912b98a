//! Sound rewritings and minimal mutations of first-order formulas (drawn by
//! the equivalence tasks, after AutoEval, seed 002): the propositional laws
//! (De Morgan, distribution, contraposition, double negation, reordering),
//! quantifier duality, distribution, miniscoping and prenexing, swapping
//! like quantifiers and renaming a bound variable; mutations that change
//! one operator, quantifier, scope, argument or negation.

use super::{Bin, Fol, Quant, Term, VARIABLES, degenerate, separate};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// A position: child indices from the root.
type Path = Vec<u8>;

fn children(f: &Fol) -> Vec<&Fol> {
    match f {
        Fol::Not(g) | Fol::Q(_, _, g) => vec![g],
        Fol::Bin(_, a, b) => vec![a, b],
        _ => vec![],
    }
}

pub(crate) fn positions(f: &Fol) -> Vec<Path> {
    fn go(f: &Fol, at: &mut Path, out: &mut Vec<Path>) {
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

pub(crate) fn get<'a>(f: &'a Fol, path: &[u8]) -> &'a Fol {
    match path.split_first() {
        None => f,
        Some((&i, rest)) => get(children(f)[usize::from(i)], rest),
    }
}

/// The variables bound above `path`.
fn bound_at(f: &Fol, path: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut g = f;
    for &i in path {
        if let Fol::Q(_, x, _) = g {
            out.push(x.clone());
        }
        g = children(g)[usize::from(i)];
    }
    out
}

pub(crate) fn replace(f: &Fol, path: &[u8], new: Fol) -> Fol {
    let Some((&i, rest)) = path.split_first() else {
        return new;
    };
    match f {
        Fol::Not(g) => Fol::negation(replace(g, rest, new)),
        Fol::Q(q, x, g) => Fol::Q(*q, x.clone(), Box::new(replace(g, rest, new))),
        Fol::Bin(op, a, b) if i == 0 => Fol::bin(*op, replace(a, rest, new), (**b).clone()),
        Fol::Bin(op, a, b) => Fol::bin(*op, (**a).clone(), replace(b, rest, new)),
        _ => f.clone(),
    }
}

/// The sound rewrites that apply at the root of `g`: (name, result).
/// `fresh` is a variable name used nowhere in the whole formula.
pub(crate) fn rewrites_at(g: &Fol, fresh: &str) -> Vec<(&'static str, Fol)> {
    use Bin::*;
    let c = |x: &Fol| x.complement();
    let cl = |x: &Fol| x.clone();
    let mut out = Vec::new();
    match g {
        Fol::Bin(And, a, b) => {
            out.push(("commute", Fol::bin(And, cl(b), cl(a))));
            out.push(("de_morgan", Fol::negation(Fol::bin(Or, c(a), c(b)))));
            if let Fol::Bin(Or, x, y) = &**b {
                out.push((
                    "distribute",
                    Fol::bin(Or, Fol::bin(And, cl(a), cl(x)), Fol::bin(And, cl(a), cl(y))),
                ));
            }
            if let (Fol::Q(Quant::All, x, p), Fol::Q(Quant::All, y, q)) = (&**a, &**b)
                && x == y
            {
                out.push((
                    "merge_quantifiers",
                    Fol::q(Quant::All, x, Fol::bin(And, cl(p), cl(q))),
                ));
            }
        }
        Fol::Bin(Or, a, b) => {
            out.push(("commute", Fol::bin(Or, cl(b), cl(a))));
            out.push(("de_morgan", Fol::negation(Fol::bin(And, c(a), c(b)))));
            out.push(("implication", Fol::bin(Imp, c(a), cl(b))));
            if let Fol::Bin(And, x, y) = &**b {
                out.push((
                    "distribute",
                    Fol::bin(And, Fol::bin(Or, cl(a), cl(x)), Fol::bin(Or, cl(a), cl(y))),
                ));
            }
            if let (Fol::Q(Quant::Ex, x, p), Fol::Q(Quant::Ex, y, q)) = (&**a, &**b)
                && x == y
            {
                out.push((
                    "merge_quantifiers",
                    Fol::q(Quant::Ex, x, Fol::bin(Or, cl(p), cl(q))),
                ));
            }
        }
        Fol::Bin(Imp, a, b) => {
            out.push(("contraposition", Fol::bin(Imp, c(b), c(a))));
            out.push(("implication", Fol::bin(Or, c(a), cl(b))));
        }
        Fol::Bin(Iff, a, b) => {
            out.push(("commute", Fol::bin(Iff, cl(b), cl(a))));
            out.push(("iff_negated", Fol::bin(Iff, c(a), c(b))));
            out.push((
                "iff_split",
                Fol::bin(
                    And,
                    Fol::bin(Imp, cl(a), cl(b)),
                    Fol::bin(Imp, cl(b), cl(a)),
                ),
            ));
        }
        Fol::Not(p) => match &**p {
            Fol::Not(q) => out.push(("double_negation", cl(q))),
            Fol::Bin(And, a, b) => out.push(("de_morgan", Fol::bin(Or, c(a), c(b)))),
            Fol::Bin(Or, a, b) => out.push(("de_morgan", Fol::bin(And, c(a), c(b)))),
            Fol::Bin(Iff, a, b) => out.push(("iff_negated", Fol::bin(Iff, cl(a), c(b)))),
            Fol::Q(q, x, body) => out.push(("quantifier_negation", Fol::q(q.dual(), x, c(body)))),
            _ => {}
        },
        Fol::Q(q, x, body) => {
            // ! [X] : F  <=>  ~ ? [X] : ~F (a negated body loses its ~).
            out.push((
                "quantifier_negation",
                Fol::negation(Fol::q(q.dual(), x, c(body))),
            ));
            if let Fol::Q(q2, y, inner) = &**body
                && q2 == q
            {
                out.push(("swap_quantifiers", Fol::q(*q, y, Fol::q(*q, x, cl(inner)))));
            }
            if let Fol::Bin(op, a, b) = &**body {
                let (fa, fb) = (a.free(x), b.free(x));
                // ! distributes over &, ? over |.
                if fa && fb && ((*op, *q) == (And, Quant::All) || (*op, *q) == (Or, Quant::Ex)) {
                    out.push((
                        "distribute_quantifier",
                        Fol::bin(*op, Fol::q(*q, x, cl(a)), Fol::q(*q, x, cl(b))),
                    ));
                }
                // Miniscoping: the quantifier moves to the operand that
                // uses its variable (for =>, into the consequent, or into
                // the antecedent as its dual).
                if matches!(op, And | Or) && fa != fb {
                    let moved = if fa {
                        Fol::bin(*op, Fol::q(*q, x, cl(a)), cl(b))
                    } else {
                        Fol::bin(*op, cl(a), Fol::q(*q, x, cl(b)))
                    };
                    out.push(("miniscope", moved));
                }
                if *op == Imp && fa != fb {
                    let moved = if fb {
                        Fol::bin(Imp, cl(a), Fol::q(*q, x, cl(b)))
                    } else {
                        Fol::bin(Imp, Fol::q(q.dual(), x, cl(a)), cl(b))
                    };
                    out.push(("miniscope", moved));
                }
            }
            out.push((
                "rename_variable",
                Fol::q(*q, fresh, body.rename_free(x, fresh)),
            ));
        }
        _ => {}
    }
    // Prenexing, the converse of miniscoping: an operand's quantifier
    // moves over the connective when its variable is not free in the
    // other operand.
    if let Fol::Bin(op, a, b) = g
        && matches!(op, And | Or | Imp)
    {
        if let Fol::Q(q, x, body) = &**b
            && !a.free(x)
        {
            out.push(("prenex", Fol::q(*q, x, Fol::bin(*op, cl(a), cl(body)))));
        }
        if let Fol::Q(q, x, body) = &**a
            && !b.free(x)
        {
            let q2 = if *op == Imp { q.dual() } else { *q };
            out.push(("prenex", Fol::q(q2, x, Fol::bin(*op, cl(body), cl(b)))));
        }
    }
    if !matches!(g, Fol::Not(_)) {
        out.push(("double_negation", Fol::negation(Fol::negation(g.clone()))));
    }
    out
}

/// The minimal mutations that apply at `path` of `f`: (name, result). A
/// result may still be equivalent; callers check.
fn mutations_at(f: &Fol, path: &[u8]) -> Vec<(&'static str, Fol)> {
    use Bin::*;
    let g = get(f, path);
    let cl = |x: &Fol| x.clone();
    let mut out = Vec::new();
    match g {
        Fol::Bin(And, a, b) => out.push(("flip_operator", Fol::bin(Or, cl(a), cl(b)))),
        Fol::Bin(Or, a, b) => out.push(("flip_operator", Fol::bin(And, cl(a), cl(b)))),
        Fol::Bin(Imp, a, b) => {
            out.push(("flip_operator", Fol::bin(Iff, cl(a), cl(b))));
            out.push(("converse", Fol::bin(Imp, cl(b), cl(a))));
        }
        Fol::Bin(Iff, a, b) => out.push(("flip_operator", Fol::bin(Imp, cl(a), cl(b)))),
        Fol::Q(q, x, body) => {
            out.push(("flip_quantifier", Fol::q(q.dual(), x, cl(body))));
            // One scope: ! over | or ? over & split as if it distributed.
            if let Fol::Bin(op, a, b) = &**body
                && a.free(x)
                && b.free(x)
                && ((*op, *q) == (Or, Quant::All) || (*op, *q) == (And, Quant::Ex))
            {
                out.push((
                    "scope",
                    Fol::bin(*op, Fol::q(*q, x, cl(a)), Fol::q(*q, x, cl(b))),
                ));
            }
        }
        Fol::Atom(p, args) => {
            if args.len() == 2 && args[0] != args[1] {
                out.push((
                    "swap_arguments",
                    Fol::Atom(p.clone(), vec![args[1].clone(), args[0].clone()]),
                ));
            }
            // One variable argument replaced by another variable bound at
            // that place. Constants are never put in or taken out: no sound
            // rewrite changes which constants occur, so a mutation that did
            // would tell a False pair by its constants alone (the audit's
            // `same_constant_multiset` read 55-57% at every level, 1000
            // rows per cell, when it did).
            let terms: Vec<Term> = bound_at(f, path).into_iter().map(Term::Var).collect();
            for i in 0..args.len() {
                if !matches!(args[i], Term::Var(_)) {
                    continue;
                }
                for t in &terms {
                    if *t != args[i] {
                        let mut a2 = args.clone();
                        a2[i] = t.clone();
                        out.push(("change_argument", Fol::Atom(p.clone(), a2)));
                    }
                }
            }
        }
        _ => {}
    }
    if !path.is_empty() {
        out.push(("negate", g.complement()));
    }
    out
}

/// Whether `g` is small enough to stay readable next to `base`.
fn readable(g: &Fol, base: &Fol) -> bool {
    g.size() <= (2 * base.size()).max(base.size() + 8)
}

/// Every sound rewrite of `f` at any position that stays readable next
/// to `base` and is not degenerate: (rule, result).
fn rewrite_options(f: &Fol, base: &Fol) -> Vec<(&'static str, Fol)> {
    let used: BTreeSet<String> = f.var_names().into_iter().chain(base.var_names()).collect();
    // Past the eight plain names (long rewritings at high levels rename
    // often), the first `X<n>` no formula uses.
    let fresh = VARIABLES.iter().find(|v| !used.contains(**v)).map_or_else(
        || {
            (used.len()..)
                .map(|n| format!("X{n}"))
                .find(|v| !used.contains(v))
                .expect("an unused name")
        },
        |v| v.to_string(),
    );
    let mut options = Vec::new();
    for p in positions(f) {
        for (name, g) in rewrites_at(get(f, &p), &fresh) {
            let whole = replace(f, &p, g);
            if readable(&whole, base) && !degenerate(&whole) {
                options.push((name, whole));
            }
        }
    }
    options
}

/// Every minimal mutation of `f` that is not degenerate (it may still be
/// equivalent): (kind, result).
pub(crate) fn mutation_options(f: &Fol) -> Vec<(&'static str, Fol)> {
    let mut options = Vec::new();
    for p in positions(f) {
        for (name, g) in mutations_at(f, &p) {
            let whole = replace(f, &p, g);
            if !degenerate(&whole) {
                options.push((name, whole));
            }
        }
    }
    options
}

/// Picks the rule first, then the place, so that frequent patterns
/// (double negation applies everywhere) do not crowd out the others;
/// `accept` filters the candidates of the chosen rule.
fn pick(
    rng: &mut ChaCha8Rng,
    mut options: Vec<(&'static str, Fol)>,
    accept: &mut dyn FnMut(&mut ChaCha8Rng, &Fol) -> bool,
) -> Option<(&'static str, Fol)> {
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
            if accept(rng, &options[i].1) {
                return Some(options.swap_remove(i));
            }
        }
    }
    None
}

/// One sound rewrite at a random position of `f`: (name, result), or
/// `None` when none keeps the formula readable next to `base`.
pub fn rewrite_once(rng: &mut ChaCha8Rng, f: &Fol, base: &Fol) -> Option<(&'static str, Fol)> {
    pick(rng, rewrite_options(f, base), &mut |_, _| true)
}

/// `k` sound rewrites of `f`; `None` if some step found nothing to do.
pub fn rewrite(rng: &mut ChaCha8Rng, f: &Fol, k: usize) -> Option<(Vec<&'static str>, Fol)> {
    let mut g = f.clone();
    let mut names = Vec::new();
    for _ in 0..k {
        let (n, h) = rewrite_once(rng, &g, f)?;
        names.push(n);
        g = h;
    }
    Some((names, g))
}

/// One minimal mutation of `f` that random interpretations separate from
/// it (the prover confirms later): a flipped operator or quantifier, an
/// implication's converse, a quantifier split over a connective it does
/// not distribute over, the arguments of one atom swapped or one
/// variable argument replaced by another bound variable, or one
/// subformula negated. `None` if none is found.
pub fn mutate(rng: &mut ChaCha8Rng, f: &Fol) -> Option<(&'static str, Fol)> {
    let g = f.clone();
    pick(rng, mutation_options(f), &mut |rng, h| {
        separate(rng, &g, h).is_some()
    })
}
