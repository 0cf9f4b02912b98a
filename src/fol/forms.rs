//! The first-order target forms of `roundtrip_fol` (after AutoEval, seed
//! 002; issue 49; the forms and the argument why no wrapper of the shown
//! formula is in its form are in [`crate::prop::forms`]): the checks and
//! the conversions to negation normal form, prenex form (after splitting
//! biconditionals over quantified operands and making bound variables
//! distinct, the standard quantifier-pulling laws) and the two restricted
//! bases `~ & ?` and `~ | !`.

use crate::fol::{Bin, Fol, Quant, VARIABLES};
use crate::prop::forms::Target;
use std::collections::BTreeSet;

/// Why `f` is not in `target`: `None` when it is. The text names the rule
/// broken and the offending subformula.
pub fn violation(target: Target, f: &Fol) -> Option<String> {
    let mut nodes = Vec::new();
    f.walk(&mut |g| nodes.push(g.clone()));
    if let Some(c) = nodes.iter().find(|g| matches!(g, Fol::True | Fol::False)) {
        return Some(format!(
            "it uses the constant {c}, which the form does not allow"
        ));
    }
    let symbol = |g: &Fol| match g {
        Fol::Not(_) => Some("~"),
        Fol::Bin(Bin::And, ..) => Some("&"),
        Fol::Bin(Bin::Or, ..) => Some("|"),
        Fol::Bin(Bin::Imp, ..) => Some("=>"),
        Fol::Bin(Bin::Iff, ..) => Some("<=>"),
        Fol::Q(Quant::All, ..) => Some("!"),
        Fol::Q(Quant::Ex, ..) => Some("?"),
        _ => None,
    };
    let allowed: &[&str] = match target {
        Target::Nnf => &["~", "&", "|", "!", "?"],
        Target::Prenex => &["~", "&", "|", "=>", "<=>", "!", "?"],
        Target::AndNotExists => &["~", "&", "?"],
        Target::OrNotForall => &["~", "|", "!"],
        _ => return Some(format!("{} is not a first-order form", target.name())),
    };
    for g in &nodes {
        if let Some(c) = symbol(g)
            && !allowed.contains(&c)
        {
            return Some(format!(
                "it uses {c} (in {g}), which {} does not allow",
                target.name()
            ));
        }
    }
    match target {
        Target::Nnf => nodes.iter().find_map(|g| match g {
            Fol::Not(x) if !matches!(**x, Fol::Atom(..) | Fol::Eq(..)) => {
                Some(format!("~ is applied to {x}, which is not an atom"))
            }
            _ => None,
        }),
        Target::Prenex => {
            let mut m = f;
            while let Fol::Q(_, _, body) = m {
                m = body;
            }
            (m.quantifiers() > 0).then(|| {
                format!("the quantifier-free part after the leading quantifiers, {m}, still has a quantifier")
            })
        }
        _ => None,
    }
}

/// `f` converted to `target` (a first-order one), with the names of the
/// laws applied.
pub fn convert(target: Target, f: &Fol) -> Option<(Fol, Vec<&'static str>)> {
    let mut steps = Vec::new();
    let g = match target {
        Target::Nnf => nnf(f, true, &mut steps),
        Target::Prenex => prenex(f, &mut steps),
        Target::AndNotExists | Target::OrNotForall => restrict(target, f, &mut steps),
        _ => return None,
    };
    Some((g, steps))
}

/// The negation normal form of `f` (of `~f` when `!positive`).
fn nnf(f: &Fol, positive: bool, steps: &mut Vec<&'static str>) -> Fol {
    use Bin::*;
    match (f, positive) {
        (Fol::Atom(..) | Fol::Eq(..), true) => f.clone(),
        (Fol::Atom(..) | Fol::Eq(..), false) => Fol::negation(f.clone()),
        (Fol::True | Fol::False, p) => {
            if p == matches!(f, Fol::True) {
                Fol::True
            } else {
                Fol::False
            }
        }
        (Fol::Not(a), p) => {
            if !p {
                steps.push("double_negation");
            }
            nnf(a, !p, steps)
        }
        (Fol::Bin(op @ (And | Or), a, b), true) => {
            Fol::bin(*op, nnf(a, true, steps), nnf(b, true, steps))
        }
        (Fol::Bin(op @ (And | Or), a, b), false) => {
            steps.push("de_morgan");
            let dual = if *op == And { Or } else { And };
            Fol::bin(dual, nnf(a, false, steps), nnf(b, false, steps))
        }
        (Fol::Bin(Imp, a, b), true) => {
            steps.push("implication");
            Fol::bin(Or, nnf(a, false, steps), nnf(b, true, steps))
        }
        (Fol::Bin(Imp, a, b), false) => {
            steps.push("negated_implication");
            Fol::bin(And, nnf(a, true, steps), nnf(b, false, steps))
        }
        (Fol::Bin(Iff, a, b), p) => {
            steps.push(if p { "iff_split" } else { "negated_iff_split" });
            Fol::bin(
                And,
                Fol::bin(Or, nnf(a, !p, steps), nnf(b, true, steps)),
                Fol::bin(Or, nnf(a, p, steps), nnf(b, false, steps)),
            )
        }
        (Fol::Q(q, x, body), true) => Fol::q(*q, x, nnf(body, true, steps)),
        (Fol::Q(q, x, body), false) => {
            steps.push("quantifier_negation");
            Fol::q(q.dual(), x, nnf(body, false, steps))
        }
    }
}

/// A prenex form of the closed formula `f`.
fn prenex(f: &Fol, steps: &mut Vec<&'static str>) -> Fol {
    let split = split_quantified_iffs(f, steps);
    let mut used = BTreeSet::new();
    let names: BTreeSet<String> = split.var_names();
    let distinct = distinct_bound(&split, &names, &mut used, steps);
    let (prefix, matrix) = pull(&distinct, steps);
    prefix
        .into_iter()
        .rev()
        .fold(matrix, |acc, (q, x)| Fol::q(q, &x, acc))
}

/// `A <=> B` as `(A => B) & (B => A)` wherever `A` or `B` has a quantifier
/// (a quantifier cannot be pulled over `<=>` as it stands).
fn split_quantified_iffs(f: &Fol, steps: &mut Vec<&'static str>) -> Fol {
    match f {
        Fol::Not(a) => Fol::negation(split_quantified_iffs(a, steps)),
        Fol::Q(q, x, a) => Fol::q(*q, x, split_quantified_iffs(a, steps)),
        Fol::Bin(Bin::Iff, a, b) if a.quantifiers() + b.quantifiers() > 0 => {
            steps.push("iff_split");
            let (a, b) = (
                split_quantified_iffs(a, steps),
                split_quantified_iffs(b, steps),
            );
            Fol::bin(
                Bin::And,
                Fol::bin(Bin::Imp, a.clone(), b.clone()),
                Fol::bin(Bin::Imp, b, a),
            )
        }
        Fol::Bin(op, a, b) => Fol::bin(
            *op,
            split_quantified_iffs(a, steps),
            split_quantified_iffs(b, steps),
        ),
        _ => f.clone(),
    }
}

/// `f` with every quantifier binding a name no other quantifier binds
/// (the first use of a name keeps it; later ones take the first name of
/// [`VARIABLES`], then `X<n>`, used nowhere in `names` or `used`).
fn distinct_bound(
    f: &Fol,
    names: &BTreeSet<String>,
    used: &mut BTreeSet<String>,
    steps: &mut Vec<&'static str>,
) -> Fol {
    match f {
        Fol::Not(a) => Fol::negation(distinct_bound(a, names, used, steps)),
        Fol::Bin(op, a, b) => {
            let a = distinct_bound(a, names, used, steps);
            Fol::bin(*op, a, distinct_bound(b, names, used, steps))
        }
        Fol::Q(q, x, body) => {
            if used.insert(x.clone()) {
                return Fol::q(*q, x, distinct_bound(body, names, used, steps));
            }
            let taken = |v: &str| names.contains(v) || used.contains(v);
            let fresh = VARIABLES
                .iter()
                .map(|v| v.to_string())
                .find(|v| !taken(v))
                .unwrap_or_else(|| {
                    (0..)
                        .map(|n| format!("X{n}"))
                        .find(|v| !taken(v))
                        .expect("an unused name")
                });
            used.insert(fresh.clone());
            steps.push("rename_variable");
            let renamed = body.rename_free(x, &fresh);
            Fol::q(*q, &fresh, distinct_bound(&renamed, names, used, steps))
        }
        _ => f.clone(),
    }
}

/// The quantifier prefix and matrix of `f`, whose bound variables are
/// distinct and whose `<=>` have quantifier-free operands.
fn pull(f: &Fol, steps: &mut Vec<&'static str>) -> (Vec<(Quant, String)>, Fol) {
    let dual = |p: Vec<(Quant, String)>| -> Vec<(Quant, String)> {
        p.into_iter().map(|(q, x)| (q.dual(), x)).collect()
    };
    match f {
        Fol::Q(q, x, body) => {
            let (mut p, m) = pull(body, steps);
            p.insert(0, (*q, x.clone()));
            (p, m)
        }
        Fol::Not(a) => {
            let (p, m) = pull(a, steps);
            if !p.is_empty() {
                steps.push("quantifier_negation");
            }
            (dual(p), Fol::negation(m))
        }
        Fol::Bin(op, a, b) if *op != Bin::Iff => {
            let ((pa, ma), (pb, mb)) = (pull(a, steps), pull(b, steps));
            if !pa.is_empty() || !pb.is_empty() {
                steps.push("prenex");
            }
            let mut p = if *op == Bin::Imp { dual(pa) } else { pa };
            p.extend(pb);
            (p, Fol::bin(*op, ma, mb))
        }
        _ => (Vec::new(), f.clone()),
    }
}

/// `f` over `~ & ?` or `~ | !`, each missing connective or quantifier by
/// its definition; negations are complemented (no double negation built).
fn restrict(target: Target, f: &Fol, steps: &mut Vec<&'static str>) -> Fol {
    use Bin::*;
    let and_basis = target == Target::AndNotExists;
    let mut t = |g: &Fol| restrict(target, g, steps);
    let not = |g: Fol| g.complement();
    match f {
        Fol::Not(a) => not(t(a)),
        Fol::Bin(op, a, b) => {
            let (x, y) = (t(a), t(b));
            match (op, and_basis) {
                (And, true) => Fol::bin(And, x, y),
                (Or, false) => Fol::bin(Or, x, y),
                (And, false) => {
                    steps.push("de_morgan");
                    not(Fol::bin(Or, not(x), not(y)))
                }
                (Or, true) => {
                    steps.push("de_morgan");
                    not(Fol::bin(And, not(x), not(y)))
                }
                (Imp, true) => {
                    steps.push("implication_as_and");
                    not(Fol::bin(And, x, not(y)))
                }
                (Imp, false) => {
                    steps.push("implication");
                    Fol::bin(Or, not(x), y)
                }
                (Iff, true) => {
                    steps.push("iff_split");
                    Fol::bin(
                        And,
                        not(Fol::bin(And, x.clone(), not(y.clone()))),
                        not(Fol::bin(And, y, not(x))),
                    )
                }
                (Iff, false) => {
                    steps.push("iff_split");
                    Fol::bin(
                        Or,
                        not(Fol::bin(Or, not(x.clone()), not(y.clone()))),
                        not(Fol::bin(Or, x, y)),
                    )
                }
            }
        }
        Fol::Q(q, x, body) => {
            let b = t(body);
            let keep = if and_basis { Quant::Ex } else { Quant::All };
            if *q == keep {
                Fol::q(*q, x, b)
            } else {
                steps.push("quantifier_negation");
                not(Fol::q(keep, x, not(b)))
            }
        }
        _ => f.clone(),
    }
}

#[cfg(test)]
#[path = "forms_tests.rs"]
mod tests;
