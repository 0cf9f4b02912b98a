//! PL1 proof corruption operators of ProofGrid (seed 000; PL/EQ spec §3.3
//! table): each changes one step of a correct NDL proof so that a predicted
//! error kind (type or logic) appears; the label is recomputed by the
//! checker afterwards.

use crate::prop::check::{RULES, apply_schema};
use crate::prop::formula::Formula;
use crate::prop::ndl::{Arg, Deduction, Element, Step, visit_steps};
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Corruption operators (spec §3.3 table), with the error kind each predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// Drop or duplicate an argument → type.
    ArityChange,
    /// Replace a rule by one whose schema does not fit → type.
    RuleSwap,
    /// Change a `BY` conclusion → logic.
    ByMutation,
    /// Remove a step whose result is used later → logic.
    DeleteLemma,
    /// Remove the final step, so the result is not the goal → logic, line 0.
    WrongFinal,
    /// Replace the second argument of `mt`/`dsyl`/`absurd` by a premise
    /// that holds but is not a complement → type.
    NonComplement,
}

impl Corruption {
    /// All operators.
    pub const ALL: [Corruption; 6] = [
        Corruption::ArityChange,
        Corruption::RuleSwap,
        Corruption::ByMutation,
        Corruption::DeleteLemma,
        Corruption::WrongFinal,
        Corruption::NonComplement,
    ];
    /// Operator name as in the spec.
    pub fn name(&self) -> &'static str {
        match self {
            Corruption::ArityChange => "arity_change",
            Corruption::RuleSwap => "rule_swap_incompatible",
            Corruption::ByMutation => "by_mutation",
            Corruption::DeleteLemma => "delete_lemma",
            Corruption::WrongFinal => "wrong_final",
            Corruption::NonComplement => "noncomplement",
        }
    }
    /// The error kind the spec predicts.
    pub fn predicted_kind(&self) -> &'static str {
        match self {
            Corruption::ArityChange | Corruption::RuleSwap | Corruption::NonComplement => "type",
            _ => "logic",
        }
    }
}

/// The number of steps of a proof (every nesting level counted).
pub fn count_steps(d: &Deduction) -> usize {
    let mut n = 0;
    visit_steps(&mut d.clone(), &mut |_| n += 1);
    n
}

/// Applies `f` to the k-th step (evaluation order).
pub fn with_step(d: &mut Deduction, k: usize, f: &mut dyn FnMut(&mut Step)) {
    let mut i = 0;
    visit_steps(d, &mut |s| {
        if i == k {
            f(s);
        }
        i += 1;
    });
}

/// The source line of the k-th step (evaluation order).
pub fn step_line(d: &Deduction, k: usize) -> usize {
    let mut line = 0;
    with_step(&mut d.clone(), k, &mut |s| line = s.line);
    line
}

/// Lists (block path, element index) of every non-final step element, for
/// lemma deletion. A path is the element indices of the enclosing assumes.
fn deletable(d: &Deduction, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, usize)>) {
    if let Deduction::Block { elems, .. } = d {
        for (i, e) in elems.iter().enumerate() {
            if let Element::Ded { ded, .. } = e {
                match ded {
                    Deduction::Step(_) if i + 1 < elems.len() => out.push((path.clone(), i)),
                    Deduction::Assume { body, .. } | Deduction::SupposeAbsurd { body, .. } => {
                        path.push(i);
                        deletable(body, path, out);
                        path.pop();
                    }
                    _ => {}
                }
            }
        }
    }
}

/// The element list of the block at `path` (the element indices of the
/// enclosing assumes, from the top); panics on a path that does not lead
/// through assumes.
pub fn block_at<'a>(d: &'a mut Deduction, path: &[usize]) -> &'a mut Vec<Element> {
    let Deduction::Block { elems, .. } = d else {
        panic!("blocks only")
    };
    match path.split_first() {
        None => elems,
        Some((i, rest)) => match &mut elems[*i] {
            Element::Ded {
                ded: Deduction::Assume { body, .. } | Deduction::SupposeAbsurd { body, .. },
                ..
            } => block_at(body, rest),
            _ => panic!("path through an assume"),
        },
    }
}

fn resolved(s: &Step) -> Vec<Formula> {
    s.args
        .iter()
        .filter_map(|a| match a {
            Arg::Formula(f) => Some(f.clone()),
            Arg::Ident(_) => None,
        })
        .collect()
}

/// Tries one corruption; returns the corrupted proof and the index of the
/// touched step (for the predicted line), or `None` if it does not apply.
pub fn corrupt(
    proof: &Deduction,
    op: Corruption,
    rng: &mut ChaCha8Rng,
    premises: &[Formula],
) -> Option<(Deduction, Option<usize>)> {
    let mut d = proof.clone();
    let n = count_steps(&d);
    match op {
        Corruption::ArityChange => {
            let k = rng.random_range(0..n);
            with_step(&mut d, k, &mut |s| {
                if s.args.len() >= 2 && rng.random_bool(0.5) {
                    s.args.pop();
                } else {
                    let a = s.args[rng.random_range(0..s.args.len())].clone();
                    s.args.push(a);
                }
            });
            Some((d, Some(k)))
        }
        Corruption::RuleSwap => {
            let k = rng.random_range(0..n);
            let mut ok = false;
            with_step(&mut d, k, &mut |s| {
                let args = resolved(s);
                let old = crate::prop::check::rule_info(&s.rule).expect("own rule");
                let mut cands: Vec<&str> = RULES
                    .iter()
                    .filter(|r| {
                        r.name != old.name
                            && r.must_hold.len() == args.len()
                            && r.must_hold
                                .iter()
                                .zip(old.must_hold)
                                .all(|(n, o)| !*n || *o)
                            && apply_schema(r.name, &args).is_err()
                    })
                    .map(|r| r.name)
                    .collect();
                cands.shuffle(rng);
                if let Some(r) = cands.first() {
                    s.rule = r.to_string();
                    ok = true;
                }
            });
            ok.then_some((d, Some(k)))
        }
        Corruption::ByMutation => {
            let k = rng.random_range(0..n);
            with_step(&mut d, k, &mut |s| {
                if let Some(c) = s.conclusion.take() {
                    s.conclusion = Some(match c {
                        Formula::And(p, q) if p != q && rng.random_bool(0.5) => Formula::And(q, p),
                        Formula::Or(p, q) if p != q && rng.random_bool(0.5) => Formula::Or(q, p),
                        c => Formula::negation(c),
                    });
                }
            });
            Some((d, Some(k)))
        }
        Corruption::DeleteLemma => {
            let mut spots = Vec::new();
            deletable(&d, &mut Vec::new(), &mut spots);
            if spots.is_empty() {
                return None;
            }
            let (path, i) = spots[rng.random_range(0..spots.len())].clone();
            block_at(&mut d, &path).remove(i);
            Some((d, None))
        }
        Corruption::NonComplement => {
            // Steps whose second argument must complement something.
            let mut spots = Vec::new();
            let mut i = 0;
            visit_steps(&mut d, &mut |s| {
                if matches!(s.rule.as_str(), "mt" | "dsyl" | "absurd") && s.args.len() == 2 {
                    spots.push(i);
                }
                i += 1;
            });
            if spots.is_empty() || premises.is_empty() {
                return None;
            }
            let k = spots[rng.random_range(0..spots.len())];
            let mut ok = false;
            with_step(&mut d, k, &mut |s| {
                let first = resolved(s)[0].clone();
                // A premise always holds, so membership passes and the
                // schema check is what fails.
                let mut cands: Vec<&Formula> = premises
                    .iter()
                    .filter(|p| apply_schema(&s.rule, &[first.clone(), (*p).clone()]).is_err())
                    .collect();
                cands.shuffle(rng);
                if let Some(p) = cands.first() {
                    s.args[1] = Arg::Formula((*p).clone());
                    ok = true;
                }
            });
            ok.then_some((d, Some(k)))
        }
        Corruption::WrongFinal => {
            let elems = block_at(&mut d, &[]);
            if elems.len() < 2 {
                return None;
            }
            elems.pop();
            Some((d, None))
        }
    }
}
