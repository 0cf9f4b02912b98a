//! Property tests: the step checker and the cover search against brute-force
//! rewriting on random small instances (every way to pick one redex per
//! equation at disjoint positions, contracted at once).

use super::lang::{Equation, World, disjoint};
use super::step::{check_step, find_cover};
use crate::logic::{Matcher, TermId};
use proptest::prelude::*;
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// A random term over a, b, f/1, g/2 with variables X0, X1 when `vars`.
fn term(w: &mut World, depth: usize, vars: bool, rng: &mut ChaCha8Rng) -> TermId {
    let r = rng.random_range(0..10);
    if depth == 0 || r < 3 {
        if vars && rng.random_bool(0.5) {
            let v = rng.random_range(0..2);
            return w.named_var(["X", "Y"][v]);
        }
        let c = w.symbols(0)[rng.random_range(0..2)];
        return w.bank.constant(c);
    }
    if r < 6 {
        let f = w.symbols(1)[0];
        let a = term(w, depth - 1, vars, rng);
        w.bank.app(f, &[a])
    } else {
        let g = w.symbols(2)[0];
        let a = term(w, depth - 1, vars, rng);
        let b = term(w, depth - 1, vars, rng);
        w.bank.app(g, &[a, b])
    }
}

fn equation(w: &mut World, name: &str, rng: &mut ChaCha8Rng) -> Equation {
    loop {
        let lhs = term(w, 2, true, rng);
        let rhs = term(w, 2, true, rng);
        let (mut vl, mut vr) = (Vec::new(), Vec::new());
        w.vars_of(lhs, &mut vl);
        w.vars_of(rhs, &mut vr);
        if !w.bank.is_var(lhs) && vr.iter().all(|v| vl.contains(v)) {
            return Equation {
                name: name.into(),
                lhs,
                rhs,
            };
        }
    }
}

/// Every t with s ⟹_E t for exactly the equations `cited`.
fn brute(w: &mut World, eqs: &[Equation], s: TermId, cited: &[usize]) -> BTreeSet<TermId> {
    let mut per_eq: Vec<Vec<(Vec<u32>, TermId)>> = Vec::new();
    for &e in cited {
        let mut v = Vec::new();
        for p in w.positions(s) {
            let u = w.subterm(s, &p).unwrap();
            let mut m = Matcher::new();
            if m.matches(&w.bank, eqs[e].lhs, u) {
                let c = m.apply(&mut w.bank, eqs[e].rhs);
                v.push((p, c));
            }
        }
        per_eq.push(v);
    }
    let mut out = BTreeSet::new();
    let mut choice: Vec<(Vec<u32>, TermId)> = Vec::new();
    combos(w, &per_eq, s, &mut choice, &mut out);
    out
}

fn combos(
    w: &mut World,
    per_eq: &[Vec<(Vec<u32>, TermId)>],
    s: TermId,
    choice: &mut Vec<(Vec<u32>, TermId)>,
    out: &mut BTreeSet<TermId>,
) {
    if choice.len() == per_eq.len() {
        let t = choice
            .iter()
            .fold(s, |acc, (p, c)| w.bank.replace_at(acc, p, *c));
        out.insert(t);
        return;
    }
    for (p, c) in per_eq[choice.len()].clone() {
        if choice.iter().all(|(q, _)| disjoint(q, &p)) {
            choice.push((p, c));
            combos(w, per_eq, s, choice, out);
            choice.pop();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn checker_agrees_with_brute_force(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut w = World::new();
        let eqs: Vec<Equation> = (0..3).map(|i| equation(&mut w, &format!("E{i}"), &mut rng)).collect();
        let s = term(&mut w, 4, false, &mut rng);
        let all_sets: [&[usize]; 7] = [&[0], &[1], &[2], &[0, 1], &[0, 2], &[1, 2], &[0, 1, 2]];
        // Candidate targets: everything reachable with any set, plus noise.
        let mut targets = BTreeSet::new();
        let mut reach: Vec<BTreeSet<TermId>> = Vec::new();
        for set in all_sets {
            let r = brute(&mut w, &eqs, s, set);
            targets.extend(r.iter().copied());
            reach.push(r);
        }
        for _ in 0..4 {
            targets.insert(term(&mut w, 3, false, &mut rng));
        }
        targets.insert(s);
        for &t in &targets {
            for (k, set) in all_sets.iter().enumerate() {
                let ok = check_step(&w, &eqs, s, t, set).is_ok();
                prop_assert_eq!(ok, reach[k].contains(&t), "set {:?} t {}", set, w.show(t));
            }
            // The cover search finds a licensing subset iff one exists.
            let any = reach.iter().any(|r| r.contains(&t));
            let found = find_cover(&w, &eqs, s, t, &[0, 1, 2], 3);
            prop_assert_eq!(found.is_some(), any, "cover for {}", w.show(t));
            if let Some(ws) = found {
                let set: Vec<usize> = ws.iter().map(|x| x.eq).collect();
                prop_assert!(check_step(&w, &eqs, s, t, &set).is_ok());
            }
        }
    }
}
