//! Finite interpretations for the first-order equivalence tasks (after
//! AutoEval, seed 002): Tarski evaluation of a closed formula, random
//! interpretations (the cheap separation search), and the text shown in
//! score details. Independent of the prover and the clausifier, so it
//! re-checks their countermodels.

use super::{Bin, Fol, Quant, Signature, Term};
use crate::certificate::{FiniteModel, Table};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// A finite interpretation as in certificates: domain `0..size`,
/// constants as arity-0 functions; a symbol with no table reads as 0
/// (functions) or false (predicates).
pub type Model = FiniteModel;

fn table<'a>(tables: &'a [Table], name: &str, arity: usize) -> Option<&'a Table> {
    tables
        .iter()
        .find(|t| t.name == name && t.arity as usize == arity)
}

fn index_of(size: u32, args: &[u32]) -> usize {
    args.iter()
        .fold(0usize, |acc, &a| acc * size as usize + a as usize)
}

fn eval_term(t: &Term, m: &Model, env: &mut Vec<(String, u32)>) -> u32 {
    match t {
        Term::Var(v) => env
            .iter()
            .rev()
            .find(|(x, _)| x == v)
            .map_or(0, |(_, e)| *e),
        Term::App(f, args) => {
            let vals: Vec<u32> = args.iter().map(|a| eval_term(a, m, env)).collect();
            table(&m.functions, f, args.len())
                .and_then(|t| t.values.get(index_of(m.size, &vals)).copied())
                .map_or(0, |v| v.min(m.size.saturating_sub(1)))
        }
    }
}

fn eval_in(f: &Fol, m: &Model, env: &mut Vec<(String, u32)>) -> bool {
    match f {
        Fol::True => true,
        Fol::False => false,
        Fol::Atom(p, args) => {
            let vals: Vec<u32> = args.iter().map(|a| eval_term(a, m, env)).collect();
            table(&m.predicates, p, args.len())
                .and_then(|t| t.values.get(index_of(m.size, &vals)).copied())
                .is_some_and(|v| v == 1)
        }
        Fol::Eq(s, t) => eval_term(s, m, env) == eval_term(t, m, env),
        Fol::Not(g) => !eval_in(g, m, env),
        Fol::Bin(op, a, b) => {
            let (x, y) = (eval_in(a, m, env), eval_in(b, m, env));
            match op {
                Bin::And => x && y,
                Bin::Or => x || y,
                Bin::Imp => !x || y,
                Bin::Iff => x == y,
            }
        }
        Fol::Q(q, x, body) => {
            let mut result = *q == Quant::All;
            for e in 0..m.size.max(1) {
                env.push((x.clone(), e));
                let v = eval_in(body, m, env);
                env.pop();
                if v != result {
                    result = v;
                    break;
                }
            }
            result
        }
    }
}

/// The truth value of a closed formula in `m` (Tarski's definition over the
/// domain `0..size`; free variables read as element 0).
pub fn eval(f: &Fol, m: &Model) -> bool {
    eval_in(f, m, &mut Vec::new())
}

/// A random interpretation of `sig` over a domain of `size` elements.
pub fn random_model(rng: &mut ChaCha8Rng, sig: &Signature, size: u32) -> Model {
    let tables = |rng: &mut ChaCha8Rng, syms: &BTreeSet<(String, usize)>, boolean: bool| {
        syms.iter()
            .map(|(n, a)| Table {
                name: n.clone(),
                arity: *a as u32,
                values: (0..(size as usize).pow(*a as u32))
                    .map(|_| {
                        if boolean {
                            u32::from(rng.random_bool(0.5))
                        } else {
                            rng.random_range(0..size)
                        }
                    })
                    .collect(),
            })
            .collect()
    };
    Model {
        size,
        functions: tables(rng, &sig.functions, false),
        predicates: tables(rng, &sig.predicates, true),
    }
}

/// Random interpretations tried by [`separate`] and [`contingent`].
pub const RANDOM_MODELS: usize = 96;

/// A model (of size 1-3) where `a` and `b` take different values, found by
/// random search; `None` says nothing (they may still differ).
pub fn separate(rng: &mut ChaCha8Rng, a: &Fol, b: &Fol) -> Option<Model> {
    let mut sig = a.signature();
    let sb = b.signature();
    sig.predicates.extend(sb.predicates);
    sig.functions.extend(sb.functions);
    (0..RANDOM_MODELS).find_map(|i| {
        let m = random_model(rng, &sig, 1 + (i % 3) as u32);
        (eval(a, &m) != eval(b, &m)).then_some(m)
    })
}

/// Whether random search finds `f` true in one interpretation and false in
/// another (so it is neither valid nor unsatisfiable).
pub fn contingent(rng: &mut ChaCha8Rng, f: &Fol) -> bool {
    separate(rng, f, &Fol::negation(f.clone())).is_some() && separate(rng, f, &Fol::True).is_some()
}

/// The model as text: `domain {0,1}; a=0; p={0}; e={(0,1)}`.
pub fn show_model(m: &Model) -> String {
    let mut parts = vec![format!(
        "domain {{{}}}",
        (0..m.size)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join(",")
    )];
    for t in &m.functions {
        if t.arity == 0 {
            parts.push(format!(
                "{}={}",
                t.name,
                t.values.first().copied().unwrap_or(0)
            ));
        }
    }
    for t in &m.predicates {
        let tuples: Vec<String> = t
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v == 1)
            .map(|(i, _)| {
                let mut digits = vec![0u32; t.arity as usize];
                let mut k = i;
                for d in digits.iter_mut().rev() {
                    *d = (k % m.size.max(1) as usize) as u32;
                    k /= m.size.max(1) as usize;
                }
                match t.arity {
                    0 => "()".to_string(),
                    1 => digits[0].to_string(),
                    _ => format!(
                        "({})",
                        digits
                            .iter()
                            .map(|d| d.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    ),
                }
            })
            .collect();
        if t.arity == 0 {
            parts.push(format!(
                "{}={}",
                t.name,
                t.values.first().copied().unwrap_or(0) == 1
            ));
        } else {
            parts.push(format!("{}={{{}}}", t.name, tuples.join(",")));
        }
    }
    parts.join("; ")
}
