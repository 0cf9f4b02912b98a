//! Tests of the first-order formulas the equivalence tasks draw: sound
//! rewrites, mutations, the level schedule and the prover's two-way
//! decision on them.

use super::*;
use crate::fol::{
    Fol, Term, VARIABLES, degenerate, eval, get, mutate, mutation_options, parse, positions,
    replace, rewrite, rewrites_at, separate, show_model,
};
use crate::prover::equivalence::{Decision, decide};
use crate::tasks::instance_rng;
use std::collections::BTreeSet;

fn p(s: &str) -> Fol {
    parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn every_rewrite_is_sound_and_mutations_differ() {
    let mut rng = instance_rng(3, &["fol-test"], 0);
    let mut seen = BTreeSet::new();
    let mut mutations = BTreeSet::new();
    for i in 0..60u64 {
        let lv = Level::of(1 + (i % 4) as u8).unwrap();
        let kind = if i % 2 == 0 {
            crate::tasks::equiv::pl::VocabKind::Abstract
        } else {
            crate::tasks::equiv::pl::VocabKind::Natural
        };
        let voc = vocabulary(&mut rng, kind, &lv);
        let f = random_formula(&mut rng, &voc, &lv);
        assert!(f.free_vars().is_empty(), "{f}");
        assert_eq!(parse(&f.to_string()).unwrap(), f);
        if degenerate(&f) {
            continue;
        }
        for (name, g) in positions(&f)
            .into_iter()
            .flat_map(|q| {
                rewrites_at(get(&f, &q), "S")
                    .into_iter()
                    .map(move |(n, g)| (n, q.clone(), g))
            })
            .map(|(n, q, g)| (n, replace(&f, &q, g)))
        {
            seen.insert(name);
            assert!(
                separate(&mut rng, &f, &g).is_none(),
                "{name} changed the meaning of {f}: {g}"
            );
        }
        if i < 12 {
            // The prover agrees on one rewrite chain.
            if let Some((_, g)) = rewrite(&mut rng, &f, 2) {
                assert!(
                    matches!(
                        decide(&f, &g).unwrap(),
                        Decision::Equivalent(_) | Decision::Unknown
                    ),
                    "{f} vs {g}"
                );
            }
        }
        if let Some((name, g)) = mutate(&mut rng, &f) {
            mutations.insert(name);
            if i < 12 {
                match decide(&f, &g).unwrap() {
                    Decision::Different { model, left_value } => {
                        assert_eq!(eval(&f, &model), left_value);
                        assert_ne!(eval(&g, &model), left_value);
                    }
                    d => assert_eq!(d, Decision::Unknown, "{f} vs {g}"),
                }
            }
        }
    }
    for r in [
        "commute",
        "de_morgan",
        "quantifier_negation",
        "rename_variable",
        "prenex",
        "miniscope",
    ] {
        assert!(seen.contains(r), "rewrite {r} never applied: {seen:?}");
    }
    assert!(mutations.len() >= 4, "{mutations:?}");
}

#[test]
fn the_prover_decides_both_directions_with_a_checked_model() {
    let (l, r) = (
        p("! [X] : (p(X) & q(X))"),
        p("(! [X] : p(X) & ! [Y] : q(Y))"),
    );
    assert!(matches!(decide(&l, &r).unwrap(), Decision::Equivalent(_)));
    let (l, r) = (
        p("? [X] : (p(X) & q(X))"),
        p("(? [X] : p(X) & ? [X] : q(X))"),
    );
    match decide(&l, &r).unwrap() {
        Decision::Different { model, left_value } => {
            assert!(!left_value, "left implies right");
            assert!(
                eval(&r, &model) && !eval(&l, &model),
                "{}",
                show_model(&model)
            );
        }
        d => panic!("{d:?}"),
    }
}

#[test]
fn degenerate_shapes_are_named() {
    assert!(degenerate(&p("! [X] : p(a)")));
    assert!(degenerate(&p("(p(a) | ~ p(a))")));
    assert!(degenerate(&p("(p(a) & p(a))")));
    assert!(!degenerate(&p("! [X] : (p(X) | ~ q(X))")));
    assert_eq!(
        outside(
            &p("(p(a) & f(a) = b)"),
            &[
                Symbol {
                    name: "p".into(),
                    kind: "predicate".into(),
                    arity: 1,
                    gloss: None
                },
                Symbol {
                    name: "a".into(),
                    kind: "constant".into(),
                    arity: 0,
                    gloss: None
                },
            ]
        ),
        vec!["b/0".to_string(), "f/1".to_string()]
    );
}

#[test]
fn the_level_schedule_grows_past_four_within_its_caps() {
    assert!(Level::of(0).is_none());
    let four = Level::of(4).unwrap();
    let mut last = four;
    for l in 5..=8u8 {
        let lv = Level::of(l).unwrap();
        assert!(lv.connectives > last.connectives && lv.rewrites > last.rewrites);
        assert!(lv.quantifiers >= last.quantifiers && lv.quantifiers > four.quantifiers);
        assert!(lv.unary + lv.binary + lv.constants > four.unary + four.binary + four.constants);
        // Within the abstract vocabulary's names.
        assert!(lv.unary <= 4 && lv.binary <= 3 && lv.constants <= 3);
        last = lv;
    }
    assert_eq!(Level::of(9).unwrap().quantifiers, MAX_QUANTIFIERS);
    assert_eq!(Level::of(11).unwrap().connectives, MAX_CONNECTIVES);
    assert_eq!(Level::of(255), Level::of(24));
    // Drawn formulas have the level's quantifiers, distinct bound names,
    // and every predicate of the vocabulary.
    for l in [5u8, 8, 30] {
        let lv = Level::of(l).unwrap();
        for (i, kind) in [
            crate::tasks::equiv::pl::VocabKind::Abstract,
            crate::tasks::equiv::pl::VocabKind::Natural,
        ]
        .into_iter()
        .enumerate()
        {
            let mut rng = instance_rng(2, &["fol-lv", &l.to_string()], i as u64);
            let voc = vocabulary(&mut rng, kind, &lv);
            assert_eq!(voc.len(), lv.unary + lv.binary + lv.constants);
            let f = random_formula(&mut rng, &voc, &lv);
            assert_eq!(f.quantifiers(), lv.quantifiers, "{f}");
            assert_eq!(f.var_names().len(), lv.quantifiers, "{f}");
            assert_eq!(f.signature().predicates.len(), lv.unary + lv.binary, "{f}");
            assert_eq!(parse(&f.to_string()).unwrap(), f);
        }
    }
}

#[test]
fn renaming_past_the_plain_names_stays_fresh() {
    // Every plain name is taken: a renamed bound variable gets X<n>, used
    // nowhere, and the rewriting stays equivalent.
    let f = p(
        "! [X] : ! [Y] : ! [Z] : ! [W] : ! [V] : ! [U] : ! [T] : ! [S] : (e(X,Y) | (e(Z,W) | (e(V,U) | e(T,S))))",
    );
    let mut renamed = 0;
    for pos in positions(&f) {
        for (name, g) in rewrites_at(get(&f, &pos), "X8") {
            if name == "rename_variable" {
                let whole = replace(&f, &pos, g);
                assert!(whole.var_names().contains("X8"), "{whole}");
                renamed += 1;
            }
        }
    }
    assert_eq!(renamed, 8);
    let mut rng = instance_rng(1, &["fresh"], 0);
    for _ in 0..20 {
        let (_, g) = rewrite(&mut rng, &f, 3).expect("rewrites");
        let names = g.var_names();
        assert!(
            names
                .iter()
                .all(|v| VARIABLES.contains(&v.as_str()) || v.starts_with('X'))
        );
        assert!(!degenerate(&g), "{g}");
    }
}

/// The constant occurrences of a formula, sorted.
fn constants(f: &Fol) -> Vec<String> {
    let mut out = Vec::new();
    f.walk(&mut |g| {
        if let Fol::Atom(_, args) = g {
            for t in args {
                if let Term::App(c, a) = t
                    && a.is_empty()
                {
                    out.push(c.clone());
                }
            }
        }
    });
    out.sort();
    out
}

/// No mutation puts a constant in or takes one out: no sound rewrite does,
/// so such a mutation would tell a False pair by its constants alone
/// (issue 49: the audit's `same_constant_multiset` read 55-57% when
/// `change_argument` could). A variable argument may still become another
/// bound variable.
#[test]
fn mutations_keep_the_constants() {
    let f = p("! [X] : ? [Y] : (e(X,a) & (p(Y) | e(b,Y)))");
    let options = mutation_options(&f);
    let changed: Vec<String> = options
        .iter()
        .filter(|(n, _)| *n == "change_argument")
        .map(|(_, g)| g.to_string())
        .collect();
    assert!(
        changed.contains(&"! [X] : ? [Y] : (e(X,a) & (p(X) | e(b,Y)))".to_string()),
        "{changed:?}"
    );
    let mut rng = instance_rng(5, &["fol-test"], 1);
    let mut checked = 0;
    for i in 0..40u64 {
        let lv = Level::of(1 + (i % 4) as u8).unwrap();
        let voc = vocabulary(&mut rng, crate::tasks::equiv::pl::VocabKind::Abstract, &lv);
        let g = random_formula(&mut rng, &voc, &lv);
        for h in std::iter::once(f.clone()).chain([g]) {
            for (name, m) in mutation_options(&h) {
                assert_eq!(constants(&m), constants(&h), "{name}: {h} became {m}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}
