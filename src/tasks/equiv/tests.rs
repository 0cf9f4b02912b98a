//! Tests of the equivalence tasks (after AutoEval, seed 002): built rows
//! carry certified labels that `verify` re-checks, labels alternate, and the
//! roundtrip scorers (propositional and first-order) accept equivalent
//! rewritings and reject near misses.

use super::*;
use crate::tasks::Verdict;

fn meta(formula: &str, vocabulary: &[&str], target: &str) -> String {
    json!({"formula": formula, "vocabulary": vocabulary, "target": target}).to_string()
}

#[test]
fn built_rows_verify_and_labels_alternate() {
    for task in Task::ALL {
        for level in 1..=4 {
            let mut labels = Vec::new();
            for index in 0..8 {
                let b = build(task, level, 11, index).unwrap().expect("an instance");
                let checked = verify(task, &b.metadata.to_string(), &b.certificate, &b.answer)
                    .unwrap_or_else(|e| panic!("{task:?} L{level} #{index}: {e}"));
                assert!(!checked.is_empty());
                assert_eq!(render(task, &b.metadata.to_string()).unwrap(), b.prompt);
                // The gold answer scores 1 through the row's scorer.
                let s = score(task, &b.metadata.to_string(), &b.answer, &b.answer);
                assert_eq!(s.verdict, Verdict::Ok, "{}", s.detail);
                labels.push(b.answer.clone());
                // Deterministic.
                assert_eq!(build(task, level, 11, index).unwrap().unwrap(), b);
            }
            if task.is_judgement() {
                let want: Vec<&str> = (0..8)
                    .map(|i| if i % 2 == 0 { "True" } else { "False" })
                    .collect();
                assert_eq!(labels, want);
            }
        }
    }
}

/// Equivalence rows come in twins (issue 49): rows 2p (True) and 2p+1
/// (False) show the same drawn formula on the same side, after the same
/// rewriting, the False row with one mutation on top; they share their
/// split and audit group. Rows drawn apart would let a reader learn which
/// formulas and shapes a sample pairs with one label.
#[test]
fn equivalence_rows_come_in_twins() {
    use crate::tasks::family::TaskFamily;
    for task in [Task::EquivalencePl, Task::EquivalenceFol] {
        for level in 1..=4 {
            for pair in 0..3u64 {
                let t = build(task, level, 7, 2 * pair).unwrap().expect("True twin");
                let f = build(task, level, 7, 2 * pair + 1)
                    .unwrap()
                    .expect("False twin");
                assert_eq!((t.answer.as_str(), f.answer.as_str()), ("True", "False"));
                let (mt, mf): (Value, Value) = (
                    serde_json::from_str(&t.metadata.to_string()).unwrap(),
                    serde_json::from_str(&f.metadata.to_string()).unwrap(),
                );
                let drawn = mt["drawn"].as_str().unwrap();
                let other = if drawn == "left" { "right" } else { "left" };
                assert_eq!(mf["drawn"], mt["drawn"], "{task:?} L{level} #{pair}");
                assert_eq!(mf[drawn], mt[drawn], "{task:?} L{level} #{pair}");
                assert_eq!(mf["rewrites"], mt["rewrites"]);
                assert_ne!(mf[other], mt[other]);
                assert!(mt["mutation"].is_null() && mf["mutation"].is_string());
                let row = |b: &Built| crate::dataset::Record {
                    task: task.config().into(),
                    metadata: b.metadata.to_string(),
                    ..Default::default()
                };
                let group = |b: &Built| family::EQUIV.split_group(&row(b));
                assert!(group(&t).is_some());
                assert_eq!(group(&t), group(&f));
            }
        }
    }
    // Roundtrip rows are not paired: each index draws its own formula.
    let (a, b) = (
        build(Task::RoundtripPl, 2, 7, 0).unwrap().unwrap(),
        build(Task::RoundtripPl, 2, 7, 1).unwrap().unwrap(),
    );
    assert_ne!(a.key, b.key);
}

/// Rows past level 4 build, verify and carry the difficulty features, in
/// one order per logic; the drawn formulas are larger than at level 4.
#[test]
fn rows_past_level_four_verify_and_carry_difficulty() {
    let pl = [
        "atoms",
        "rewrites",
        "connectives_a",
        "connectives_b",
        "depth",
        "sat_conflicts",
    ];
    let fol = [
        "predicates",
        "constants",
        "quantifiers",
        "quantifier_depth",
        "rewrites",
        "size_a",
        "size_b",
        "prover_given_clauses",
        "prover_sat_conflicts",
    ];
    for task in Task::ALL {
        let want: &[&str] = if task.first_order() { &fol } else { &pl };
        let mut rewrites = Vec::new();
        for level in [4u8, 6, 8] {
            for index in 0..2 {
                let Some(b) = build(task, level, 11, index).unwrap() else {
                    continue;
                };
                let names: Vec<&str> = b.difficulty.iter().map(|d| d.0).collect();
                assert_eq!(names, want, "{task:?}");
                verify(task, &b.metadata.to_string(), &b.certificate, &b.answer)
                    .unwrap_or_else(|e| panic!("{task:?} L{level} #{index}: {e}"));
                assert_eq!(render(task, &b.metadata.to_string()).unwrap(), b.prompt);
                let d: std::collections::BTreeMap<&str, f64> =
                    b.difficulty.iter().copied().collect();
                let m: Value = serde_json::from_str(&b.metadata.to_string()).unwrap();
                assert_eq!(
                    d["rewrites"],
                    m["rewrites"].as_array().unwrap().len() as f64
                );
                if task.first_order() {
                    let lv = first_order::Level::of(level).unwrap();
                    assert_eq!(d["quantifiers"], lv.quantifiers as f64);
                    assert_eq!(d["predicates"], (lv.unary + lv.binary) as f64);
                    // A True pair or a roundtrip row is two proofs.
                    if b.answer != "False" {
                        assert!(d["prover_given_clauses"] >= 2.0, "{d:?}");
                    }
                } else {
                    assert_eq!(d["atoms"], Level::of(level).unwrap().atoms as f64);
                }
                // A restatement's steps depend on its drawn target form;
                // its drawn formula's size grows with the level.
                let growing = if task.is_judgement() {
                    d["rewrites"]
                } else if task.first_order() {
                    d["size_a"]
                } else {
                    d["connectives_a"]
                };
                rewrites.push((level, growing));
            }
        }
        let at = |l: u8| {
            rewrites
                .iter()
                .filter(|r| r.0 == l)
                .map(|r| r.1)
                .fold(0.0, f64::max)
        };
        // A restatement row may be dropped (its gold undecided within the
        // prover's limits), so only the ends are compared there.
        let grows = if task.is_judgement() {
            at(8) > at(6) && at(6) > at(4)
        } else {
            at(8) > at(4)
        };
        assert!(grows, "{task:?}: {rewrites:?}");
    }
}

#[test]
fn a_tampered_label_or_counterexample_is_refused() {
    let b = build(Task::EquivalencePl, 2, 5, 1).unwrap().unwrap();
    assert_eq!(b.answer, "False");
    assert!(
        verify(
            Task::EquivalencePl,
            &b.metadata.to_string(),
            &b.certificate,
            "True"
        )
        .is_err()
    );
    let mut cert: Value = serde_json::from_str(&b.certificate).unwrap();
    // Flip every atom of the counterexample until it no longer separates.
    let cex = cert["counterexample"].as_object().unwrap().clone();
    let mut refused = false;
    for k in cex.keys() {
        let mut c = cert.clone();
        let v = c["counterexample"][k].as_bool().unwrap();
        c["counterexample"][k] = json!(!v);
        refused |= verify(
            Task::EquivalencePl,
            &b.metadata.to_string(),
            &c.to_string(),
            "False",
        )
        .is_err();
    }
    cert["counterexample"] = json!({});
    let _ = verify(
        Task::EquivalencePl,
        &b.metadata.to_string(),
        &cert.to_string(),
        "False",
    );
    assert!(refused, "no single flip made the counterexample fail");
    let t = build(Task::EquivalencePl, 2, 5, 0).unwrap().unwrap();
    assert_eq!(t.answer, "True");
    assert!(
        verify(
            Task::EquivalencePl,
            &t.metadata.to_string(),
            &t.certificate,
            "False"
        )
        .is_err()
    );
}

#[test]
fn roundtrip_accepts_equivalent_answers_in_the_form_however_written() {
    let cases: [(&str, &[&str]); 6] = [
        (
            "nnf",
            &[
                "(~P | ~Q | R)",
                "~P | ~Q | R",
                "((~Q | ~P) | R)",
                "(R | ~P | ~Q)",
            ],
        ),
        ("cnf", &["(~P | ~Q | R)", " ( ( ~P|~Q ) | R ) "]),
        ("dnf", &["(~P | ~Q | R)", "(R | (~P & ~Q) | ~Q | ~P)"]),
        (
            "and_not",
            &["~(P & Q & ~R)", "~((Q & P) & ~R)", "(~(P & Q & ~R))"],
        ),
        ("or_not", &["(~P | ~Q | R)", "(R | ~P | ~~~Q)"]),
        (
            "imp_not",
            &[
                "(P ==> Q ==> R)",
                "(~(P ==> ~Q) ==> R)",
                "(~R ==> (P ==> ~Q))",
            ],
        ),
    ];
    for (target, answers) in cases {
        let m = meta("((P & Q) ==> R)", &["P", "Q", "R"], target);
        for a in answers {
            let s = score_roundtrip(&m, a);
            assert_eq!(s.verdict, Verdict::Ok, "{target} {a}: {}", s.detail);
            assert_eq!(s.value, 1.0);
        }
    }
}

#[test]
fn roundtrip_rejects_wrappers_swaps_near_misses_copies_and_foreign_symbols() {
    let m = meta("((P & Q) ==> R)", &["P", "Q", "R"], "nnf");
    // Equivalent, or a wrapper of the formula, but not in the form.
    for a in [
        "~~((P & Q) ==> R)",
        "(((P & Q) ==> R) & ((P & Q) ==> R))",
        "(((P & Q) ==> R) | ((P & Q) ==> R))",
        "(((P & Q) ==> R) & true)",
        "(true ==> ((P & Q) ==> R))",
        "((Q & P) ==> R)",
        "(~(P & Q) | R)",
        "(~R ==> ~(P & Q))",
        "~~(~P | ~Q | R)",
        "true",
    ] {
        let s = score_roundtrip(&m, a);
        assert_eq!(s.verdict, Verdict::Wrong, "{a}: {}", s.detail);
        assert!(s.detail.contains("required form (nnf)"), "{}", s.detail);
        assert!(s.consistent());
    }
    // In the form but not equivalent.
    for a in ["(~P | Q | R)", "(~P | ~Q)", "(P & Q & ~R)", "(P | ~P)"] {
        let s = score_roundtrip(&m, a);
        assert_eq!(s.verdict, Verdict::Wrong, "{a}: {}", s.detail);
        assert!(s.detail.contains("P="), "{}", s.detail);
    }
    for a in [
        "((P & Q) ==> R)",
        "(P & Q ==> R)",
        "  ((P&Q)==>R) ",
        "P & Q ==> R",
    ] {
        let s = score_roundtrip(&m, a);
        assert_eq!(s.verdict, Verdict::Cheating, "{a}: {}", s.detail);
    }
    let s = score_roundtrip(&m, "(~P | ~Q | R | (S & ~S))");
    assert_eq!(s.verdict, Verdict::Cheating);
    assert!(s.detail.contains('S'));
    for a in ["", "P and Q imply R", "((P & Q) ==>", "(p & q)"] {
        let s = score_roundtrip(&m, a);
        assert_eq!(s.verdict, Verdict::Malformed, "{a:?}: {}", s.detail);
    }
    // A row without a target (equiv-3) or with an unknown one is refused.
    let old = json!({"formula": "((P & Q) ==> R)", "vocabulary": ["P", "Q", "R"]}).to_string();
    assert_eq!(
        score_roundtrip(&old, "(~P | ~Q | R)").verdict,
        Verdict::Malformed
    );
    let bad = meta("((P & Q) ==> R)", &["P", "Q", "R"], "nice");
    assert_eq!(
        score_roundtrip(&bad, "(~P | ~Q | R)").verdict,
        Verdict::Malformed
    );
}

/// Built rows: the shown formula is never in its target form, so no
/// wrapper of it passes, and the gold is at most `MAX_GOLD_GROWTH` times
/// as long.
#[test]
fn built_roundtrip_rows_refuse_every_wrapper_of_the_formula() {
    for task in [Task::RoundtripPl, Task::RoundtripFol] {
        for level in 1..=4 {
            for index in 0..6 {
                let b = build(task, level, 3, index).unwrap().expect("an instance");
                let m: Value = serde_json::from_str(&b.metadata.to_string()).unwrap();
                let f = m["formula"].as_str().unwrap();
                assert!(b.answer.len() <= forms::MAX_GOLD_GROWTH * f.len());
                let wrappers = if task.first_order() {
                    vec![
                        format!("~ ~ {f}"),
                        format!("({f} & {f})"),
                        format!("({f} | {f})"),
                        format!("({f} & $true)"),
                        format!("($true => {f})"),
                    ]
                } else {
                    vec![
                        format!("~~{f}"),
                        format!("({f} & {f})"),
                        format!("({f} | {f})"),
                        format!("({f} & true)"),
                        format!("(true ==> {f})"),
                    ]
                };
                for w in wrappers {
                    let s = score(task, &b.metadata.to_string(), &b.answer, &w);
                    assert_eq!(s.verdict, Verdict::Wrong, "{w}: {}", s.detail);
                    assert!(s.detail.contains("required form"), "{}", s.detail);
                }
            }
        }
    }
}

#[test]
fn equivalence_answers_are_words() {
    let b = build(Task::EquivalencePl, 1, 2, 0).unwrap().unwrap();
    let s = |a: &str| score(Task::EquivalencePl, &b.metadata.to_string(), &b.answer, a).verdict;
    assert_eq!(s("True"), Verdict::Ok);
    assert_eq!(s("false"), Verdict::Wrong);
    assert_eq!(s("maybe"), Verdict::Malformed);
}

fn fol_meta(formula: &str, target: &str) -> String {
    json!({
        "formula": formula,
        "target": target,
        "vocabulary": [
            {"name": "p", "kind": "predicate", "arity": 1},
            {"name": "q", "kind": "predicate", "arity": 1},
            {"name": "e", "kind": "predicate", "arity": 2},
            {"name": "a", "kind": "constant", "arity": 0},
        ],
    })
    .to_string()
}

#[test]
fn fol_roundtrip_accepts_answers_in_the_form_however_written() {
    let f = "! [X] : ((p(X) & q(X)) => ? [Y] : e(X,Y))";
    let cases: [(&str, &[&str]); 4] = [
        (
            "prenex",
            &[
                "! [X] : ? [Y] : ((p(X) & q(X)) => e(X,Y))",
                // Renamed, reordered, De Morgan, no inner parentheses,
                // a final full stop.
                "![Z]: ?[W]: (~p(Z) | ~q(Z) | e(Z,W)).",
                "! [X] : ? [Y] : ~ (q(X) & p(X) & ~ e(X,Y))",
            ],
        ),
        (
            "nnf",
            &[
                "! [X] : ((~ p(X) | ~ q(X)) | ? [Y] : e(X,Y))",
                "! [Z] : (? [W] : e(Z,W) | ~ q(Z) | ~ p(Z))",
            ],
        ),
        (
            "and_not_exists",
            &["~ ? [X] : ((p(X) & q(X)) & ~ ? [Y] : e(X,Y))"],
        ),
        (
            "or_not_forall",
            &["! [X] : (~ p(X) | ~ q(X) | ~ ! [Y] : ~ e(X,Y))"],
        ),
    ];
    for (target, answers) in cases {
        let m = fol_meta(f, target);
        for a in answers {
            let s = fol_task::score_roundtrip(&m, a);
            assert_eq!(s.verdict, Verdict::Ok, "{target} {a}: {}", s.detail);
            assert_eq!(s.value, 1.0);
        }
    }
}

#[test]
fn fol_roundtrip_rejects_near_misses_copies_foreign_symbols_and_junk() {
    let m = fol_meta("! [X] : ((p(X) & q(X)) => ? [Y] : e(X,Y))", "prenex");
    // Equivalent, or a wrapper, but not prenex.
    for a in [
        "! [Z] : ((p(Z) & q(Z)) => ? [W] : e(Z,W))",
        "! [X] : ((q(X) & p(X)) => ? [Y] : e(X,Y))",
        "~ ~ ! [X] : ((p(X) & q(X)) => ? [Y] : e(X,Y))",
        "(! [X] : ((p(X) & q(X)) => ? [Y] : e(X,Y)) & $true)",
        "($true => ! [X] : ((p(X) & q(X)) => ? [Y] : e(X,Y)))",
        "~ ? [X] : ((p(X) & q(X)) & ! [Y] : ~ e(X,Y))",
    ] {
        let s = fol_task::score_roundtrip(&m, a);
        assert_eq!(s.verdict, Verdict::Wrong, "{a}: {}", s.detail);
        assert!(s.detail.contains("required form (prenex)"), "{}", s.detail);
    }
    for a in [
        // One quantifier.
        "? [X] : ? [Y] : ((p(X) & q(X)) => e(X,Y))",
        "! [X] : ! [Y] : ((p(X) & q(X)) => e(X,Y))",
        // One operator.
        "! [X] : ? [Y] : ((p(X) | q(X)) => e(X,Y))",
        // One argument.
        "! [X] : ? [Y] : ((p(X) & q(X)) => e(Y,X))",
        // The converse.
        "! [X] : ! [Y] : (e(X,Y) => (p(X) & q(X)))",
    ] {
        let s = fol_task::score_roundtrip(&m, a);
        assert_eq!(s.verdict, Verdict::Wrong, "{a}: {}", s.detail);
        assert!(s.detail.contains("domain {"), "{}", s.detail);
        assert!(s.consistent());
    }
    for a in [
        "! [X] : ((p(X) & q(X)) => ? [Y] : e(X,Y))",
        "![X]:(((p(X)&q(X)))=>?[Y]:e(X,Y))",
        "! [X] : (p(X) & q(X) => ? [Y] : e(X,Y))",
    ] {
        let s = fol_task::score_roundtrip(&m, a);
        // The third mixes & and => without parentheses: not TPTP.
        let want = if a.contains("q(X) =>") {
            Verdict::Malformed
        } else {
            Verdict::Cheating
        };
        assert_eq!(s.verdict, want, "{a}: {}", s.detail);
    }
    for a in [
        "! [X] : ? [Y] : ((p(X) & q(X)) => (e(X,Y) & r(Y)))",
        "! [X] : ? [Y] : ((p(X) & q(b)) => e(X,Y))",
        "! [X] : ? [Y] : ((p(f(X)) & q(X)) => e(X,Y))",
    ] {
        let s = fol_task::score_roundtrip(&m, a);
        assert_eq!(s.verdict, Verdict::Cheating, "{a}: {}", s.detail);
    }
    // Quantifiers nested far beyond the formula's are not evaluated.
    let deep = format!(
        "! [X] : {}? [Y] : ((p(X) & q(X)) => e(X,Y))",
        "! [Z] : ".repeat(12)
    );
    let s = fol_task::score_roundtrip(&m, &deep);
    assert_eq!(s.verdict, Verdict::Timeout, "{}", s.detail);
    // Past a shown depth of 3 the bound is 9 in all, not 6 more.
    let five = json!({
        "formula": "! [X] : ! [Y] : ! [Z] : ! [W] : ! [V] : (e(X,Y) | e(Z,W) | p(V))",
        "target": "and_not_exists",
        "vocabulary": [
            {"name": "p", "kind": "predicate", "arity": 1},
            {"name": "e", "kind": "predicate", "arity": 2},
        ],
    })
    .to_string();
    let nest = |n: usize| {
        format!(
            "~ {}? [X] : ? [Y] : ? [Z] : ? [W] : ? [V] : (~ e(X,Y) & ~ e(Z,W) & ~ p(V))",
            ["A", "B", "C", "D", "E", "F"][..n]
                .iter()
                .map(|v| format!("? [{v}] : "))
                .collect::<String>()
        )
    };
    let s = fol_task::score_roundtrip(&five, &nest(5));
    assert_eq!(s.verdict, Verdict::Timeout, "{}", s.detail);
    assert!(s.detail.contains("more than 9"), "{}", s.detail);
    let s = fol_task::score_roundtrip(&five, &nest(0));
    assert_eq!(s.verdict, Verdict::Ok, "{}", s.detail);
    for a in [
        "",
        "for all x, p and q imply some e",
        "! [X] : (p(X) &",
        "((p(X) & q(X)) => ? [Y] : e(X,Y))",
    ] {
        let s = fol_task::score_roundtrip(&m, a);
        assert_eq!(s.verdict, Verdict::Malformed, "{a:?}: {}", s.detail);
    }
}

#[test]
fn a_tampered_fol_label_or_countermodel_is_refused() {
    let f = build(Task::EquivalenceFol, 2, 5, 1).unwrap().unwrap();
    assert_eq!(f.answer, "False");
    assert!(
        verify(
            Task::EquivalenceFol,
            &f.metadata.to_string(),
            &f.certificate,
            "False"
        )
        .is_ok()
    );
    assert!(
        verify(
            Task::EquivalenceFol,
            &f.metadata.to_string(),
            &f.certificate,
            "True"
        )
        .is_err()
    );
    let mut cert: Value = serde_json::from_str(&f.certificate).unwrap();
    // Some single predicate-table entry flip makes the model fail.
    let mut refused = false;
    let preds = cert["countermodel"]["predicates"]
        .as_array()
        .unwrap()
        .clone();
    for (i, t) in preds.iter().enumerate() {
        for j in 0..t["values"].as_array().unwrap().len() {
            let mut c = cert.clone();
            let v = c["countermodel"]["predicates"][i]["values"][j]
                .as_u64()
                .unwrap();
            c["countermodel"]["predicates"][i]["values"][j] = json!(1 - v);
            refused |= verify(
                Task::EquivalenceFol,
                &f.metadata.to_string(),
                &c.to_string(),
                "False",
            )
            .is_err();
        }
    }
    assert!(refused, "no single flip made the countermodel fail");
    cert["countermodel"] = json!("none");
    assert!(
        verify(
            Task::EquivalenceFol,
            &f.metadata.to_string(),
            &cert.to_string(),
            "False"
        )
        .is_err()
    );
    let t = build(Task::EquivalenceFol, 2, 5, 0).unwrap().unwrap();
    assert_eq!(t.answer, "True");
    assert!(
        verify(
            Task::EquivalenceFol,
            &t.metadata.to_string(),
            &t.certificate,
            "False"
        )
        .is_err()
    );
}

/// Formulas that differ only in the names of their atoms share a
/// deduplication key; other formulas do not.
#[test]
fn atom_renamings_share_a_dedup_key() {
    let a = super::atoms_renamed("((~W | P | S) & (~S | P | ~W))");
    let b = super::atoms_renamed("((~Q | P | U) & (~U | P | ~Q))");
    assert_eq!(a, b);
    assert_eq!(a, "((~A0 | A1 | A2) & (~A2 | A1 | ~A0))");
    let c = super::atoms_renamed("((~Q | P | U) & (~Q | P | ~U))");
    assert_ne!(a, c);
    // Longer names and constants: `true` stays, `Late` is one atom.
    assert_eq!(
        super::atoms_renamed("(Late | true) & ~Late_2"),
        "(A0 | true) & ~A1"
    );
}
