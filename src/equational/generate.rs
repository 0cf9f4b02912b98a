//! The seeded EQ proof generator of ProofGrid EQ1 (seed 000 §3; spec
//! `pl_eq.md` §5.3): a ground start term, a chain of small perturbations at
//! disjoint positions, the equations that license each step induced by
//! anti-unification, optional distractor
//! equations, then the equations shuffled and renamed with globally fresh
//! `V<n>` variables. Every step is re-verified with the checker (and its
//! cited set checked minimal) after renaming.
//!
//! Difficulty knobs (steps, redexes per step, start depth, distractors, term
//! size cap) are grouped in [`GenParams`] and mapped to any level from 1 by
//! the schedule of [`GenParams::level`].

use crate::equational::lang::{Equation, Pos, World, disjoint};
use crate::equational::step::{Witness, check_step, is_minimal};
use crate::logic::{Head, SymbolId, TermId};
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Difficulty knobs of one generated proof.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GenParams {
    /// Fewest rewrite steps.
    pub min_steps: usize,
    /// Most rewrite steps.
    pub max_steps: usize,
    /// Most redexes (cited equations) in one step, 1-3.
    pub max_redexes: usize,
    /// Depth of the start term (a constant has depth 1).
    pub start_depth: usize,
    /// Number of unused equations added to the list.
    pub distractors: usize,
    /// Cap on the size (symbol count) of every term of the chain.
    pub max_size: u32,
    /// Every equation has the same variables on both sides (needed for the
    /// gap-filling decoy certificate); otherwise the left side may have
    /// variables of its own, as in `g4(X,Y) = f3(X)`.
    pub balanced: bool,
}

/// Level from which the proof length of the EQ schedule stops growing.
pub const STEPS_TOP_LEVEL: u8 = 12;

impl GenParams {
    /// The knobs of difficulty level `level` (any level from 1; `None` for
    /// 0). Levels 1-4 are the original table. From level 5 on the proof
    /// grows by 12 steps a level up to level [`STEPS_TOP_LEVEL`] (115-126
    /// steps, a prompt of tens of thousands of characters), the term size
    /// cap by 10 a level up to 120 (level 10), the distractors by 2 a level
    /// up to 30 (level 16); the start depth is 5 (every term of the chain
    /// stays within depth 8) and the redexes per step 3 (the generator
    /// draws 1-3). Levels above 16 have level 16's knobs.
    ///
    /// | level | steps | redexes per step | start depth | distractors | term size cap |
    /// |---:|---:|---:|---:|---:|---:|
    /// | 1 | 3-5 | 1 | 3 | 0 | 30 |
    /// | 2 | 6-10 | 2 | 3 | 2 | 40 |
    /// | 3 | 11-18 | 2 | 4 | 4 | 50 |
    /// | 4 | 19-30 | 3 | 4 | 6 | 60 |
    /// | 5 | 31-42 | 3 | 5 | 8 | 70 |
    /// | 6 | 43-54 | 3 | 5 | 10 | 80 |
    /// | 7 | 55-66 | 3 | 5 | 12 | 90 |
    /// | 8 | 67-78 | 3 | 5 | 14 | 100 |
    /// | l in 5..=16, m = min(l, 12) | 12(m-4)+19 to 12(m-4)+30 | 3 | 5 | 2(l-1) | min(10(l-4)+60, 120) |
    /// | above 16 | 115-126 | 3 | 5 | 30 | 120 |
    ///
    /// Gap filling caps the redexes per step at 2 (balanced equations).
    pub fn level(level: u8) -> Option<GenParams> {
        let (min_steps, max_steps, max_redexes, start_depth, distractors, max_size) = match level {
            0 => return None,
            1 => (3, 5, 1, 3, 0, 30),
            2 => (6, 10, 2, 3, 2, 40),
            3 => (11, 18, 2, 4, 4, 50),
            4 => (19, 30, 3, 4, 6, 60),
            l => {
                let grown = usize::from(l.min(STEPS_TOP_LEVEL)) - 4;
                let min_steps = 19 + 12 * grown;
                (
                    min_steps,
                    min_steps + 11,
                    3,
                    5,
                    (2 * (usize::from(l) - 1)).min(30),
                    (60 + 10 * grown as u32).min(120),
                )
            }
        };
        Some(GenParams {
            min_steps,
            max_steps,
            max_redexes,
            start_depth,
            distractors,
            max_size,
            balanced: false,
        })
    }
}

/// A generated (correct) proof: equations `E1..Em`, terms s0..sn, and for each
/// step i ≥ 1 the cited equations and the checker's witnesses.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The terms, variables and signature.
    pub world: World,
    /// The equations, named `E1..Em` in list order.
    pub equations: Vec<Equation>,
    /// s0..sn.
    pub terms: Vec<TermId>,
    /// Cited equations (indices) of step i; `citations[0]` is empty.
    pub citations: Vec<Vec<usize>>,
    /// Witnesses of step i, one per cited equation; `witnesses[0]` is empty.
    pub witnesses: Vec<Vec<Witness>>,
    /// How many equations are distractors (cited by no step).
    pub distractors: usize,
}

impl Proof {
    /// Number of rewrite steps n.
    pub fn steps(&self) -> usize {
        self.terms.len() - 1
    }
}

/// Generates a proof; `None` if no proof meeting the knobs was found within
/// a fixed number of attempts (deterministic for a given RNG state).
pub fn generate(params: &GenParams, rng: &mut ChaCha8Rng) -> Option<Proof> {
    for _ in 0..20 {
        if let Some(p) = attempt(params, rng) {
            return Some(p);
        }
    }
    None
}

struct Draft {
    world: World,
    eqs: Vec<(TermId, TermId)>,
    terms: Vec<TermId>,
    citations: Vec<Vec<usize>>,
    next_var: u32,
}

fn attempt(params: &GenParams, rng: &mut ChaCha8Rng) -> Option<Proof> {
    let mut d = Draft {
        world: World::new(),
        eqs: Vec::new(),
        terms: Vec::new(),
        citations: vec![Vec::new()],
        next_var: 0,
    };
    let start = loop {
        let t = random_term(&mut d.world, params.start_depth, 0.12, rng);
        let w = d.world.bank.weight(t);
        if w >= params.start_depth as u32 + 3 && w <= params.max_size / 2 {
            break t;
        }
    };
    d.terms.push(start);
    let n = rng.random_range(params.min_steps..=params.max_steps);
    for _ in 0..n {
        let s = *d.terms.last().expect("start");
        let mut done = false;
        for _ in 0..40 {
            if let Some((t, cited)) = try_step(&mut d, params, s, rng) {
                d.terms.push(t);
                d.citations.push(cited);
                done = true;
                break;
            }
        }
        if !done {
            return None;
        }
    }
    let used = d.eqs.len();
    let mut tries = 0;
    while d.eqs.len() < used + params.distractors && tries < 100 {
        tries += 1;
        let base = random_term(&mut d.world, 3, 0.15, rng);
        let ps = d.world.positions(base);
        let p = &ps[rng.random_range(0..ps.len())];
        let u = d.world.subterm(base, p).expect("own position");
        let Some(v) = perturb(&mut d.world, u, rng) else {
            continue;
        };
        let Some(eq) = anti_unify(&mut d, u, v, params.balanced, rng) else {
            continue;
        };
        if find_equation(&d, eq).is_none() {
            d.eqs.push(eq);
        }
    }
    finish(d, params, used, rng)
}

/// One step: k disjoint positions, a perturbation at each, one induced (or
/// reused) equation per redex, all distinct.
fn try_step(
    d: &mut Draft,
    params: &GenParams,
    s: TermId,
    rng: &mut ChaCha8Rng,
) -> Option<(TermId, Vec<usize>)> {
    let k = {
        let r: f64 = rng.random();
        let k = if r < 0.55 {
            1
        } else if r < 0.88 {
            2
        } else {
            3
        };
        k.min(params.max_redexes)
    };
    let mut positions = d.world.positions(s);
    positions.shuffle(rng);
    // Prefer inner nodes: constants are chosen only now and then.
    let mut chosen: Vec<Pos> = Vec::new();
    for p in positions {
        if chosen.len() == k {
            break;
        }
        let u = d.world.subterm(s, &p).expect("own position");
        if d.world.bank.arity(u) == 0 && rng.random_bool(0.8) {
            continue;
        }
        if chosen.iter().all(|q| disjoint(q, &p)) {
            chosen.push(p);
        }
    }
    if chosen.is_empty() {
        return None;
    }
    let mut t = s;
    let mut cited = Vec::new();
    for p in &chosen {
        let u = d.world.subterm(s, p).expect("own position");
        let v = perturb(&mut d.world, u, rng)?;
        let (l, r) = anti_unify(d, u, v, params.balanced, rng)?;
        let e = match find_equation(d, (l, r)) {
            Some(e) => e,
            None => {
                d.eqs.push((l, r));
                d.eqs.len() - 1
            }
        };
        if cited.contains(&e) {
            return None;
        }
        cited.push(e);
        t = d.world.bank.replace_at(t, p, v);
    }
    if t == s || d.world.bank.weight(t) > params.max_size || d.world.depth(t) > 8 {
        return None;
    }
    // Re-verify with the checker: the step holds and the cited set is minimal.
    let eqs = draft_equations(d);
    check_step(&d.world, &eqs, s, t, &cited).ok()?;
    if !is_minimal(&d.world, &eqs, s, t, &cited) {
        return None;
    }
    Some((t, cited))
}

fn draft_equations(d: &Draft) -> Vec<Equation> {
    d.eqs
        .iter()
        .enumerate()
        .map(|(i, &(lhs, rhs))| Equation {
            name: format!("D{i}"),
            lhs,
            rhs,
        })
        .collect()
}

/// An existing equation equal to `eq` up to renaming of variables.
fn find_equation(d: &Draft, eq: (TermId, TermId)) -> Option<usize> {
    let key = alpha_key(&d.world, eq.0, eq.1);
    d.eqs
        .iter()
        .position(|&(l, r)| alpha_key(&d.world, l, r) == key)
}

/// A printed form of `L = R` with variables numbered by first occurrence,
/// equal for equations that differ only in variable names.
pub fn alpha_key(w: &World, l: TermId, r: TermId) -> String {
    let mut vars = Vec::new();
    w.vars_of(l, &mut vars);
    w.vars_of(r, &mut vars);
    let mut out = String::new();
    alpha_write(w, l, &vars, &mut out);
    out.push('=');
    alpha_write(w, r, &vars, &mut out);
    out
}

fn alpha_write(w: &World, t: TermId, vars: &[u32], out: &mut String) {
    match w.bank.head(t) {
        Head::Var(v) => {
            let i = vars.iter().position(|&x| x == v).unwrap_or(usize::MAX);
            out.push_str(&format!("#{i}"));
        }
        Head::Sym(f) => {
            out.push_str(w.sym_name(f));
            let args = w.bank.args(t);
            if !args.is_empty() {
                out.push('(');
                for (i, &a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    alpha_write(w, a, vars, out);
                }
                out.push(')');
            }
        }
    }
}

/// A random ground term of at most `depth` levels; inner nodes become
/// constants with probability `leaf_p`.
pub fn random_term(w: &mut World, depth: usize, leaf_p: f64, rng: &mut ChaCha8Rng) -> TermId {
    if depth <= 1 || rng.random_bool(leaf_p) {
        return random_constant(w, rng);
    }
    let r: f64 = rng.random();
    let arity = if r < 0.3 {
        1
    } else if r < 0.68 {
        2
    } else if r < 0.88 {
        3
    } else {
        4
    };
    let f = pick(w.symbols(arity), rng);
    let args: Vec<TermId> = (0..arity)
        .map(|_| random_term(w, depth - 1, leaf_p + 0.1, rng))
        .collect();
    w.bank.app(f, &args)
}

fn random_constant(w: &mut World, rng: &mut ChaCha8Rng) -> TermId {
    let c = pick(w.symbols(0), rng);
    w.bank.constant(c)
}

fn pick<T: Copy>(xs: &[T], rng: &mut ChaCha8Rng) -> T {
    xs[rng.random_range(0..xs.len())]
}

/// A small perturbation v ≠ u of a ground term u: rename the head symbol,
/// permute or duplicate arguments, wrap u in a new symbol, collapse u to one
/// of its subterms, or replace a constant.
pub fn perturb(w: &mut World, u: TermId, rng: &mut ChaCha8Rng) -> Option<TermId> {
    for _ in 0..8 {
        let v = perturb_once(w, u, rng);
        if let Some(v) = v.filter(|&v| v != u) {
            return Some(v);
        }
    }
    None
}

fn perturb_once(w: &mut World, u: TermId, rng: &mut ChaCha8Rng) -> Option<TermId> {
    let args: Vec<TermId> = w.bank.args(u).to_vec();
    let n = args.len();
    let op = rng.random_range(0..100);
    match op {
        // Rename the head symbol, usually keeping the arity.
        0..=29 => {
            let m = if n > 0 && rng.random_bool(0.65) {
                n
            } else {
                rng.random_range(0..=4)
            };
            let g = pick(w.symbols(m), rng);
            let new_args: Vec<TermId> = if m == n {
                args
            } else {
                (0..m)
                    .map(|_| {
                        if n > 0 && rng.random_bool(0.75) {
                            args[rng.random_range(0..n)]
                        } else {
                            random_constant(w, rng)
                        }
                    })
                    .collect()
            };
            Some(w.bank.app(g, &new_args))
        }
        // Permute the arguments.
        30..=44 if n >= 2 => {
            let mut a = args;
            a.shuffle(rng);
            let f = w.bank.sym(u);
            Some(w.bank.app(f, &a))
        }
        // Duplicate one argument over another.
        45..=54 if n >= 2 => {
            let i = rng.random_range(0..n);
            let j = rng.random_range(0..n);
            let mut a = args;
            a[j] = a[i];
            let f = w.bank.sym(u);
            Some(w.bank.app(f, &a))
        }
        // Wrap u in a new symbol.
        55..=69 => {
            let m = rng.random_range(1..=3);
            let g = pick(w.symbols(m), rng);
            let at = rng.random_range(0..m);
            let a: Vec<TermId> = (0..m)
                .map(|i| {
                    if i == at {
                        u
                    } else if rng.random_bool(0.3) && n > 0 {
                        args[rng.random_range(0..n)]
                    } else {
                        random_constant(w, rng)
                    }
                })
                .collect();
            Some(w.bank.app(g, &a))
        }
        // Collapse to a proper subterm.
        70..=86 if n >= 1 => {
            let ps = w.positions(u);
            let p = &ps[rng.random_range(1..ps.len())];
            w.subterm(u, p)
        }
        // Replace one constant (u itself, or a leaf inside it).
        _ => {
            let ps: Vec<Pos> = w
                .positions(u)
                .into_iter()
                .filter(|p| w.bank.arity(w.subterm(u, p).expect("own")) == 0)
                .collect();
            let p = &ps[rng.random_range(0..ps.len())];
            let c = random_constant(w, rng);
            Some(w.bank.replace_at(u, p, c))
        }
    }
}

/// Induces `L = R` with θ(L) = u and θ(R) = v: a random set of u's proper
/// subterms that also occur in v is replaced, consistently on both sides, by
/// fresh variables (so repeated subterms give non-linear patterns). Without
/// `balanced`, now and then a subterm of u absent from v is abstracted too,
/// giving a variable of the left side only. Always vars(R) ⊆ vars(L).
fn anti_unify(
    d: &mut Draft,
    u: TermId,
    v: TermId,
    balanced: bool,
    rng: &mut ChaCha8Rng,
) -> Option<(TermId, TermId)> {
    let w = &d.world;
    let mut proper: Vec<TermId> = Vec::new();
    for p in w.positions(u).into_iter().skip(1) {
        let x = w.subterm(u, &p).expect("own");
        if !proper.contains(&x) {
            proper.push(x);
        }
    }
    let in_v: Vec<TermId> = w
        .positions(v)
        .into_iter()
        .map(|p| w.subterm(v, &p).expect("own"))
        .collect();
    // Larger subterms first, so abstraction favours general equations.
    proper.sort_by_key(|&x| std::cmp::Reverse(w.bank.weight(x)));
    let mut chosen: Vec<TermId> = Vec::new();
    let mut left_only = !balanced && rng.random_bool(0.12);
    for &x in &proper {
        if in_v.contains(&x) {
            if rng.random_bool(0.75) {
                chosen.push(x);
            }
        } else if left_only && w.bank.arity(x) > 0 {
            chosen.push(x);
            left_only = false;
        }
    }
    loop {
        let mut l_map = Vec::new();
        abstract_term(d, u, &chosen, &mut l_map);
        let mut r_map = Vec::new();
        abstract_term(d, v, &chosen, &mut r_map);
        let bad: Vec<TermId> = chosen
            .iter()
            .copied()
            .filter(|x| {
                let in_l = l_map.contains(x);
                let in_r = r_map.contains(x);
                // Keep a variable on both sides, or (unbalanced) on the left only.
                let keep = match (in_l, in_r) {
                    (true, true) => true,
                    (true, false) => !balanced,
                    _ => false,
                };
                !keep
            })
            .collect();
        if bad.is_empty() {
            // Number the variables now; `finish` renames them for printing.
            let mut map: Vec<(TermId, TermId)> = Vec::new();
            for &x in &chosen {
                map.push((x, d.world.bank.var(d.next_var)));
                d.next_var += 1;
            }
            let l = substitute(&mut d.world, u, &map);
            let r = substitute(&mut d.world, v, &map);
            return Some((l, r));
        }
        chosen.retain(|x| !bad.contains(x));
    }
}

/// Which chosen subterms survive top-down abstraction of `t` (recorded in
/// `used`); `substitute` does the same walk to build the pattern. The root
/// is never among the chosen (proper) subterms, so L is never a variable.
fn abstract_term(d: &Draft, t: TermId, chosen: &[TermId], used: &mut Vec<TermId>) {
    if chosen.contains(&t) {
        if !used.contains(&t) {
            used.push(t);
        }
        return;
    }
    for &a in d.world.bank.args(t) {
        abstract_term(d, a, chosen, used);
    }
}

fn substitute(w: &mut World, t: TermId, map: &[(TermId, TermId)]) -> TermId {
    if let Some(&(_, x)) = map.iter().find(|(s, _)| *s == t) {
        return x;
    }
    let args: Vec<TermId> = w.bank.args(t).to_vec();
    if args.is_empty() {
        return t;
    }
    let new: Vec<TermId> = args.iter().map(|&a| substitute(w, a, map)).collect();
    let f: SymbolId = w.bank.sym(t);
    w.bank.app(f, &new)
}

/// Shuffles the equations, names them `E1..Em`, renames their variables to
/// globally fresh `V<n>` in printing order, and re-verifies every step.
fn finish(mut d: Draft, params: &GenParams, used: usize, rng: &mut ChaCha8Rng) -> Option<Proof> {
    let m = d.eqs.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.shuffle(rng);
    let mut new_index = vec![0; m];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    let mut counter: u64 = rng.random_range(100..100_000);
    let mut equations = Vec::with_capacity(m);
    for (k, &old) in order.iter().enumerate() {
        let (l, r) = d.eqs[old];
        let mut vars = Vec::new();
        d.world.vars_of(l, &mut vars);
        d.world.vars_of(r, &mut vars);
        let mut map = Vec::new();
        for v in vars {
            let x = d.world.bank.var(v);
            let named = d.world.named_var(&format!("V{counter}"));
            counter += 1;
            map.push((x, named));
        }
        let lhs = substitute(&mut d.world, l, &map);
        let rhs = substitute(&mut d.world, r, &map);
        equations.push(Equation {
            name: format!("E{}", k + 1),
            lhs,
            rhs,
        });
    }
    let citations: Vec<Vec<usize>> = d
        .citations
        .iter()
        .map(|c| c.iter().map(|&e| new_index[e]).collect())
        .collect();
    let mut witnesses = vec![Vec::new()];
    for (i, cited) in citations.iter().enumerate().skip(1) {
        let (s, t) = (d.terms[i - 1], d.terms[i]);
        let ws = check_step(&d.world, &equations, s, t, cited).ok()?;
        if !is_minimal(&d.world, &equations, s, t, cited) {
            return None;
        }
        witnesses.push(ws);
    }
    debug_assert!(params.max_redexes >= citations.iter().map(Vec::len).max().unwrap_or(0));
    Some(Proof {
        world: d.world,
        equations,
        terms: d.terms,
        citations,
        witnesses,
        distractors: m - used,
    })
}

/// The `i`-th balanced proof of `level` with at most two redexes from a
/// fixed stream: the proofs the gap tests (here and in the task's gap
/// filling) cut.
#[cfg(test)]
pub(crate) fn test_proof(level: u8, i: u64) -> Proof {
    let mut params = GenParams::level(level).unwrap();
    params.balanced = true;
    params.max_redexes = params.max_redexes.min(2);
    let mut rng = crate::seed::instance_rng(21, &["eq-gf-test", &level.to_string()], i);
    generate(&params, &mut rng).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::instance_rng;

    #[test]
    fn every_generated_proof_checks_and_is_minimal() {
        for level in 1..=4u8 {
            let params = GenParams::level(level).unwrap();
            for i in 0..15 {
                let mut rng = instance_rng(3, &["eq-test", &level.to_string()], i);
                let p = generate(&params, &mut rng).expect("a proof");
                let n = p.steps();
                assert!(n >= params.min_steps && n <= params.max_steps);
                for k in 1..=n {
                    let (s, t) = (p.terms[k - 1], p.terms[k]);
                    assert!(check_step(&p.world, &p.equations, s, t, &p.citations[k]).is_ok());
                    assert!(is_minimal(&p.world, &p.equations, s, t, &p.citations[k]));
                    assert!(p.citations[k].len() <= params.max_redexes);
                    assert!(p.world.bank.weight(t) <= params.max_size);
                }
                for e in &p.equations {
                    assert!(!p.world.bank.is_var(e.lhs));
                    let (mut vl, mut vr) = (Vec::new(), Vec::new());
                    p.world.vars_of(e.lhs, &mut vl);
                    p.world.vars_of(e.rhs, &mut vr);
                    assert!(vr.iter().all(|v| vl.contains(v)), "vars(R) ⊆ vars(L)");
                }
            }
        }
    }

    #[test]
    fn levels_past_four_keep_growing_up_to_their_caps() {
        assert!(GenParams::level(0).is_none());
        let four = GenParams::level(4).unwrap();
        let mut last = four.clone();
        for level in 5..=8u8 {
            let p = GenParams::level(level).unwrap();
            assert!(p.min_steps > last.max_steps, "level {level}: {p:?}");
            assert!(p.distractors > last.distractors && p.max_size > last.max_size);
            assert!(p.start_depth > four.start_depth && p.max_redexes == 3);
            last = p;
        }
        // Past the caps nothing grows: level 255 is level 16.
        assert_eq!(GenParams::level(255), GenParams::level(16));
        let top = GenParams::level(16).unwrap();
        assert_eq!((top.min_steps, top.max_steps), (115, 126));
        assert_eq!((top.distractors, top.max_size), (30, 120));
        assert_eq!(GenParams::level(12).unwrap().min_steps, 115);
        // Proofs of the new levels are as long as their knobs say.
        for level in [5u8, 8] {
            let params = GenParams::level(level).unwrap();
            let mut rng = instance_rng(3, &["eq-test-high", &level.to_string()], 0);
            let p = generate(&params, &mut rng).expect("a proof");
            assert!((params.min_steps..=params.max_steps).contains(&p.steps()));
            assert!(p.distractors <= params.distractors);
            for k in 1..=p.steps() {
                let (s, t) = (p.terms[k - 1], p.terms[k]);
                assert!(check_step(&p.world, &p.equations, s, t, &p.citations[k]).is_ok());
                assert!(p.world.bank.weight(t) <= params.max_size);
            }
        }
    }

    #[test]
    fn balanced_equations_have_the_same_variables() {
        let mut params = GenParams::level(3).unwrap();
        params.balanced = true;
        for i in 0..10 {
            let mut rng = instance_rng(5, &["eq-bal"], i);
            let p = generate(&params, &mut rng).expect("a proof");
            for e in &p.equations {
                let (mut vl, mut vr) = (Vec::new(), Vec::new());
                p.world.vars_of(e.lhs, &mut vl);
                p.world.vars_of(e.rhs, &mut vr);
                vl.sort();
                vr.sort();
                assert_eq!(vl, vr, "{}", p.world.show_equation(e));
            }
        }
    }

    #[test]
    fn same_seed_same_proof() {
        let params = GenParams::level(2).unwrap();
        let show = |seed| {
            let mut rng = instance_rng(seed, &["eq-det"], 0);
            let p = generate(&params, &mut rng).unwrap();
            let eqs: Vec<String> = p
                .equations
                .iter()
                .map(|e| p.world.show_equation(e))
                .collect();
            let ts: Vec<String> = p.terms.iter().map(|&t| p.world.show(t)).collect();
            (eqs, ts)
        };
        assert_eq!(show(1), show(1));
        assert_ne!(show(1), show(2));
    }
}
