//! NDL_f corruption operators for PL2 proof checking (the PL1 operator idea,
//! PL/EQ spec §3.3, for the single-rule language): each changes one step of
//! a correct NDL_f proof so that a predicted error kind appears; the label
//! is recomputed by the checker afterwards.

use crate::prop::formula::Formula;
use crate::prop::ndl::{Arg, Deduction, Element};
use crate::tasks::pl::tasks::{Corrupted, LinePrediction};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// NDL_f corruption operators (the PL1 operator idea, spec §3.3, for the
/// single-rule language), with the error kind each predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// Drop a justifier of a resolution step → logic (not entailed).
    DropJustifier,
    /// Negate one atom occurrence in a step's claim → logic (not entailed).
    ClaimMutation,
    /// Pad a step to six justifiers, or (on a fair coin) replace its claim
    /// by a tautology over it → type. (The two type errors NDL_f has for
    /// one step, so that a step with six justifiers is not the only sign
    /// of this operator.)
    ExtraJustifiers,
    /// Cite a name that is only defined later → syntax.
    ForwardReference,
    /// Remove a named step that is cited later → syntax.
    DeleteLemma,
    /// Re-point the closing `false from ...` step of the refutation at
    /// another earlier name, so the contradiction it claims does not hold →
    /// logic. (The proof keeps its lines, justifier counts and last line: a
    /// removed final step was visible from those alone.)
    WrongFinal,
}

impl Corruption {
    /// All operators.
    pub const ALL: [Corruption; 6] = [
        Corruption::DropJustifier,
        Corruption::ClaimMutation,
        Corruption::ExtraJustifiers,
        Corruption::ForwardReference,
        Corruption::DeleteLemma,
        Corruption::WrongFinal,
    ];
    /// Operator name.
    pub fn name(&self) -> &'static str {
        match self {
            Corruption::DropJustifier => "drop_justifier",
            Corruption::ClaimMutation => "claim_mutation",
            Corruption::ExtraJustifiers => "extra_justifiers",
            Corruption::ForwardReference => "forward_reference",
            Corruption::DeleteLemma => "delete_lemma",
            Corruption::WrongFinal => "wrong_final",
        }
    }
    /// The error kind the operator predicts.
    pub fn predicted_kind(&self) -> &'static str {
        match self {
            Corruption::ExtraJustifiers => "type",
            Corruption::ForwardReference | Corruption::DeleteLemma => "syntax",
            _ => "logic",
        }
    }
}

/// The body of the reference proof's `assume` (the resolution steps).
fn body_mut(d: &mut Deduction) -> &mut Vec<Element> {
    let Deduction::Block { elems, .. } = d else {
        panic!("reference proofs are blocks")
    };
    let Element::Ded {
        ded: Deduction::Assume { body, .. },
        ..
    } = &mut elems[0]
    else {
        panic!("reference proofs open with assume")
    };
    let Deduction::Block { elems, .. } = &mut **body else {
        panic!("assume bodies are blocks")
    };
    elems
}

fn step_parts(e: &mut Element) -> Option<(&mut Option<String>, &mut crate::prop::ndl::Step)> {
    match e {
        Element::Ded {
            name,
            ded: Deduction::Step(s),
        } => Some((name, s)),
        _ => None,
    }
}

/// Negates the k-th literal occurrence (or removes the negation over it).
fn flip_atom(f: &Formula, k: &mut usize) -> Formula {
    let literal = matches!(f, Formula::Atom(_))
        || matches!(f, Formula::Not(p) if matches!(**p, Formula::Atom(_)));
    if literal {
        if *k == 0 {
            *k = usize::MAX;
            return f.complement();
        }
        *k = k.wrapping_sub(1);
        return f.clone();
    }
    match f {
        Formula::Not(p) => Formula::negation(flip_atom(p, k)),
        Formula::And(p, q) => {
            let p = flip_atom(p, k);
            Formula::and(p, flip_atom(q, k))
        }
        Formula::Or(p, q) => {
            let p = flip_atom(p, k);
            Formula::or(p, flip_atom(q, k))
        }
        Formula::Imp(p, q) => {
            let p = flip_atom(p, k);
            Formula::imp(p, flip_atom(q, k))
        }
        Formula::Iff(p, q) => {
            let p = flip_atom(p, k);
            Formula::iff(p, flip_atom(q, k))
        }
        f => f.clone(),
    }
}

/// Tries one corruption; `None` if it does not apply.
pub(super) fn corrupt(
    proof: &Deduction,
    op: Corruption,
    rng: &mut ChaCha8Rng,
    n_premises: usize,
) -> Option<Deduction> {
    let mut d = proof.clone();
    let body = body_mut(&mut d);
    let n = body.len();
    let names: Vec<Option<String>> = body
        .iter_mut()
        .map(|e| step_parts(e).and_then(|(n, _)| n.clone()))
        .collect();
    let cited_later = |i: usize, body: &mut Vec<Element>| {
        let Some(name) = &names[i] else { return false };
        body[i + 1..]
            .iter_mut()
            .any(|e| step_parts(e).is_some_and(|(_, s)| s.args.contains(&Arg::Ident(name.clone()))))
    };
    match op {
        Corruption::DropJustifier => {
            let cands: Vec<usize> = (0..n)
                .filter(|&i| step_parts(&mut body[i]).is_some_and(|(_, s)| s.args.len() == 2))
                .collect();
            let i = *cands.get(rng.random_range(0..cands.len().max(1)))?;
            let (_, s) = step_parts(&mut body[i])?;
            s.args.remove(rng.random_range(0..2));
        }
        Corruption::ClaimMutation => {
            let i = rng.random_range(0..n);
            let (_, s) = step_parts(&mut body[i])?;
            let c = s.conclusion.as_ref()?;
            let atoms = c.atoms().len();
            if atoms == 0 {
                return None;
            }
            let mut k = rng.random_range(0..atoms);
            s.conclusion = Some(flip_atom(c, &mut k));
        }
        Corruption::ExtraJustifiers => {
            let i = rng.random_range(0..n);
            let (_, s) = step_parts(&mut body[i])?;
            if rng.random_bool(0.5) {
                while s.args.len() < 6 {
                    let p = rng.random_range(1..=n_premises);
                    s.args.push(Arg::Ident(format!("premise-{p}")));
                }
            } else {
                let c = s.conclusion.clone()?;
                s.conclusion = Some(Formula::or(c.clone(), Formula::negation(c)));
            }
        }
        Corruption::ForwardReference => {
            // A step citing a name, re-pointed at a name defined after it.
            let cands: Vec<(usize, usize)> = (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .filter(|&(i, j)| {
                    names[j].is_some()
                        && step_parts(&mut body[i].clone()).is_some_and(|(_, s)| {
                            s.args
                                .iter()
                                .any(|a| matches!(a, Arg::Ident(x) if x.starts_with('c')))
                        })
                })
                .collect();
            let &(i, j) = cands.get(rng.random_range(0..cands.len().max(1)))?;
            let later = names[j].clone()?;
            let (_, s) = step_parts(&mut body[i])?;
            let slots: Vec<usize> = (0..s.args.len())
                .filter(|&k| matches!(&s.args[k], Arg::Ident(x) if x.starts_with('c')))
                .collect();
            let k = slots[rng.random_range(0..slots.len())];
            s.args[k] = Arg::Ident(later);
        }
        Corruption::DeleteLemma => {
            let cands: Vec<usize> = (0..n).filter(|&i| cited_later(i, body)).collect();
            let i = *cands.get(rng.random_range(0..cands.len().max(1)))?;
            body.remove(i);
        }
        Corruption::WrongFinal => {
            // The closing step is the body's last; it cites two earlier
            // names, one of which is swapped for another earlier name.
            let last = n.checked_sub(1)?;
            let earlier: Vec<String> = names[..last].iter().flatten().cloned().collect();
            let (_, s) = step_parts(&mut body[last])?;
            let slots: Vec<usize> = (0..s.args.len())
                .filter(|&k| matches!(&s.args[k], Arg::Ident(_)))
                .collect();
            let k = *slots.get(rng.random_range(0..slots.len().max(1)))?;
            let others: Vec<&String> = earlier
                .iter()
                .filter(|x| !s.args.contains(&Arg::Ident((*x).clone())))
                .collect();
            let pick = others.get(rng.random_range(0..others.len().max(1)))?;
            s.args[k] = Arg::Ident((*pick).clone());
        }
    }
    Some(d)
}

/// PL2's operators as a proof-checking corruptor: a uniformly drawn
/// operator, predicting the error kind only.
pub(super) fn pl2_corruptor(
    proof: &Deduction,
    n_premises: usize,
) -> impl FnMut(&mut ChaCha8Rng) -> Option<Corrupted> + '_ {
    move |rng| {
        let op = Corruption::ALL[rng.random_range(0..Corruption::ALL.len())];
        Some(Corrupted {
            proof: corrupt(proof, op, rng, n_premises)?,
            operator: op.name(),
            predicted_kind: op.predicted_kind(),
            predicted_line: LinePrediction::KindOnly,
        })
    }
}
