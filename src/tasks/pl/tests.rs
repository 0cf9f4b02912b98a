//! Tests of the four PL1 tasks: the paper's masked and gap-filled examples,
//! corruption labels, masking decoys, gap fillers, scorers and row
//! verification on generated instances.

use super::instance::{build, score_record};
use super::masking::*;
use super::tasks::*;
use crate::prop::check::*;
use crate::prop::formula::Formula;
use serde_json::{Value, json};

fn f(s: &str) -> Formula {
    Formula::parse(s).unwrap()
}

fn premises(ps: &[&str]) -> Vec<(String, Formula)> {
    named_premises(&ps.iter().map(|p| f(p)).collect::<Vec<_>>())
}

/// The premises of the paper's sample proof (seed 000, §3).
const PAPER_PREMISES: [&str; 3] = ["(A ==> B)", "(~ A ==> C)", "(C ==> D)"];

#[test]
fn paper_masked_proof_with_the_intended_assignment_checks() {
    let masked = "{
  (A | ~ A) BY ex-middle on MASK1;
  assume A {
    MASK2 BY MASK3 on premise-1, MASK4;
    (MASK5 | D) by left-either on MASK6, MASK7
  };
  assume MASK8 {
    MASK9 BY mp on premise-2, MASK10;
    D BY mp on MASK11, MASK12;
    MASK13 BY right-either on B, D
  };
  MASK14 BY cases on (A | ~ A), MASK15, MASK16
}";
    let values: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
        r#"{"MASK1": "A", "MASK2": "B", "MASK3": "mp", "MASK4": "A", "MASK5": "B",
                "MASK6": "B", "MASK7": "D", "MASK8": "(~ A)", "MASK9": "C", "MASK10": "(~ A)",
                "MASK11": "premise-3", "MASK12": "C", "MASK13": "(B | D)", "MASK14": "(B | D)",
                "MASK15": "(A ==> (B | D))", "MASK16": "((~ A) ==> (B | D))"}"#,
    )
    .unwrap();
    let ps = premises(&PAPER_PREMISES);
    let filled = fill_masks(masked, &values).unwrap();
    assert!(check_text(&ps, &f("(B | D)"), &filled, Mode::Strict).ok());
    // MASK3 and MASK6 swapped to wrong rules: a type error on line 4.
    let mut wrong = values.clone();
    wrong.insert("MASK3".into(), "left-and".into());
    let r = check_text(
        &ps,
        &f("(B | D)"),
        &fill_masks(masked, &wrong).unwrap(),
        Mode::Strict,
    );
    let e = r.result.unwrap_err();
    assert_eq!((e.kind, e.line), (ErrorKind::Type, 4));
    // Unfilled, `MASK1` reads as an atom (names resolve first, then atoms),
    // so the masked text itself is not a correct proof.
    assert!(!check_text(&ps, &f("(B | D)"), masked, Mode::Strict).ok());
}

#[test]
fn paper_gap_filling_example_checks_once_filled() {
    let gapped = "{
  left-iff on premise-3;
  GAP-1;
  assume E {
    case1 := assume C {
      mp on premise-2, C
    };
    case2 := assume (A & E) {
      left-and on (A & E);
      mp on (A ==> (E ==> D)), A;
      GAP-2
    };
    GAP-3
  }
}";
    let ps = premises(&["(C | (A & E))", "(C ==> D)", "(A <==> (E ==> D))"]);
    let goal = f("(E ==> D)");
    let fill = |g1: &str| {
        vec![
            ("GAP-1".to_string(), g1.to_string()),
            (
                "GAP-2".to_string(),
                "E BY right-and on (A & E); D BY mp on (E ==> D), E".to_string(),
            ),
            (
                "GAP-3".to_string(),
                "cases on premise-1, case1, case2".to_string(),
            ),
        ]
    };
    // GAP-1 is redundant: any valid filler is accepted (the paper's point).
    for g1 in ["right-iff on premise-3", "claim on premise-2"] {
        let text = splice_gaps(gapped, &fill(g1)).unwrap();
        let r = check_text(&ps, &goal, &text, Mode::Strict);
        assert!(r.ok(), "{g1}: {:?}\n{text}", r.result);
    }
    // A wrong GAP-3 (cases with the conditionals swapped) is a type error.
    let mut bad = fill("claim on premise-2");
    bad[2].1 = "cases on premise-1, case2, case1".into();
    let r = check_text(
        &ps,
        &goal,
        &splice_gaps(gapped, &bad).unwrap(),
        Mode::Strict,
    );
    assert_eq!(r.result.unwrap_err().kind, ErrorKind::Type);
    // An unfilled gap is a syntax error on its line.
    let e = check_text(&ps, &goal, gapped, Mode::Strict)
        .result
        .unwrap_err();
    assert_eq!((e.kind, e.line), (ErrorKind::Syntax, 3));
}

fn instances(task: Task, n: u64) -> Vec<super::PlInstance> {
    (0..n)
        .flat_map(|i| build(11, task, 1 + (i % 4) as u8, i, usize::MAX).ok())
        .collect()
}

/// The proof-length cap skips exactly the problems whose reference proof
/// prints longer than it, so every prompt that shows a proof stays under
/// the cap plus the fixed text, and the cap is what rejects them.
#[test]
fn proof_length_cap_bounds_prompts() {
    let cap = 3_000;
    let (mut kept, mut skipped) = (0, 0);
    for i in 0..24u64 {
        let free = build(5, Task::ProofChecking, 4, i, usize::MAX);
        let capped = build(5, Task::ProofChecking, 4, i, cap);
        match (free, capped) {
            (Ok(f), Ok(c)) => {
                assert_eq!(f.prompt, c.prompt);
                let reference = c.metadata["reference_proof"].as_str().unwrap();
                assert!(reference.len() <= cap);
                kept += 1;
            }
            (Ok(f), Err(skip)) => {
                assert_eq!(skip, super::Skip::ProofTooLarge);
                assert!(f.metadata["reference_proof"].as_str().unwrap().len() > cap);
                skipped += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            (Err(a), Ok(_)) => panic!("the cap let through a problem skipped without it: {a:?}"),
        }
    }
    assert!(kept > 0 && skipped > 0, "kept {kept}, skipped {skipped}");
}

#[test]
fn gold_answers_score_one_on_every_task() {
    for task in Task::ALL {
        let all = instances(task, 40);
        assert!(all.len() >= 38, "{task:?}: {}", all.len());
        for inst in &all {
            let s = score_record(task, &inst.metadata, &inst.answer, &inst.answer);
            assert_eq!(s.value, 1.0, "{task:?} {}: {}", inst.canonical, s.detail);
        }
    }
}

/// `verify` re-certifies every gold answer from the record's text, and
/// rejects a record whose gold answer was tampered with.
#[test]
fn verify_accepts_gold_records_and_rejects_tampered_ones() {
    use super::instance::verify_record;
    let mut kinds = std::collections::BTreeSet::new();
    for task in Task::ALL {
        for inst in instances(task, 40) {
            let ok = verify_record(task, &inst.metadata, &inst.answer);
            assert!(ok.is_ok(), "{}: {ok:?}", inst.canonical);
            kinds.insert((task, inst.label));
            let mut gold: Value = serde_json::from_str(&inst.answer).unwrap_or(Value::Null);
            let tampered = match (task, inst.label) {
                (Task::ProofChecking, _) => {
                    let c = gold["correct"].as_bool().unwrap();
                    gold["correct"] = Value::Bool(!c);
                    gold.to_string()
                }
                (Task::ProofWriting, _) => {
                    let proof = gold["proof"].as_str().unwrap();
                    let mut lines: Vec<&str> = proof.lines().collect();
                    lines.truncate(lines.len() / 2);
                    gold["proof"] = Value::String(lines.join("\n"));
                    gold.to_string()
                }
                // Claim unsolvable for a solvable one, and give the
                // original (failing) values for a decoy.
                (Task::ProofMasking, "solvable") => r#"{"masks": {}}"#.to_string(),
                (Task::ProofMasking, _) => {
                    json!({"masks": inst.metadata["original_values"]}).to_string()
                }
                // Every gap left empty.
                (Task::GapFilling, _) => inst.metadata["gap_labels"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| format!("{}:\n", l.as_str().unwrap()))
                    .collect(),
            };
            assert!(
                verify_record(task, &inst.metadata, &tampered).is_err(),
                "{}: tampered gold accepted: {tampered}",
                inst.canonical
            );
        }
    }
    for want in [
        (Task::ProofChecking, "correct"),
        (Task::ProofChecking, "incorrect"),
        (Task::ProofMasking, "solvable"),
        (Task::ProofMasking, "unsolvable"),
    ] {
        assert!(kinds.contains(&want), "no {want:?} instance");
    }
}

#[test]
fn proof_checking_is_balanced_and_labels_come_from_the_checker() {
    let all = instances(Task::ProofChecking, 80);
    let wrong = all.iter().filter(|i| i.label == "incorrect").count();
    assert!((25..=55).contains(&wrong), "{wrong} of {}", all.len());
    for inst in &all {
        // The opposite verdict scores 0.
        let flipped = if inst.label == "correct" {
            r#"{"correct": false, "errorDetails": {}}"#
        } else {
            r#"{"correct": true, "errorDetails": {}}"#
        };
        let s = score_record(Task::ProofChecking, &inst.metadata, &inst.answer, flipped);
        assert_eq!(s.value, 0.0);
        assert!(s.well_formed);
        if inst.label == "incorrect" {
            assert_eq!(inst.prediction_matches(), Some(true), "{}", inst.metadata);
        }
    }
}

/// ProofGrid's strict metric is the main value: answering "incorrect" to
/// everything earns the lenient share of incorrect proofs but nothing
/// strictly, and a wrong line or kind costs the point.
#[test]
fn always_incorrect_and_wrong_error_details_lose_strict_credit() {
    let all = instances(Task::ProofChecking, 80);
    let always = r#"{"correct": false, "errorDetails": {"offendingLine": "", "offendingLineNumber": 1, "errorType": "syntax", "errorDescription": ""}}"#;
    let (mut value, mut lenient, mut strict) = (0.0, 0.0, 0.0);
    for inst in &all {
        let s = score_record(Task::ProofChecking, &inst.metadata, &inst.answer, always);
        value += s.value;
        lenient += s.metric("lenient").unwrap();
        strict += s.metric("strict").unwrap();
        assert_eq!(s.value, s.metric("strict").unwrap());
        assert_eq!(s.metric("error_line").is_some(), inst.label == "incorrect");
    }
    let n = all.len() as f64;
    let wrong = all.iter().filter(|i| i.label == "incorrect").count() as f64;
    assert_eq!(lenient, wrong);
    assert!(
        strict / n < 0.15,
        "always incorrect: strict {strict} of {n}"
    );
    assert!(
        value < lenient - 0.25 * n,
        "strict {value} vs lenient {lenient}"
    );
    for inst in all.iter().filter(|i| i.label == "incorrect") {
        let gold: Value = serde_json::from_str(&inst.answer).unwrap();
        let line = gold["errorDetails"]["offendingLineNumber"]
            .as_u64()
            .unwrap();
        let kind = gold["errorDetails"]["errorType"].as_str().unwrap();
        let answer = |line: u64, kind: &str| {
            json!({"correct": false, "errorDetails": {"offendingLine": "", "offendingLineNumber": line, "errorType": kind, "errorDescription": ""}}).to_string()
        };
        let score = |a: &str| score_record(Task::ProofChecking, &inst.metadata, &inst.answer, a);
        // The right verdict, line and kind: 1 on both metrics.
        let s = score(&answer(line, kind));
        assert_eq!(
            (s.value, s.metric("strict"), s.metric("lenient")),
            (1.0, Some(1.0), Some(1.0))
        );
        // The right verdict and kind on the wrong line: strict 0, lenient 1.
        let s = score(&answer(line + 1, kind));
        assert_eq!(
            (s.value, s.metric("strict"), s.metric("lenient")),
            (0.0, Some(0.0), Some(1.0))
        );
        assert_eq!(
            (s.metric("error_line"), s.metric("error_kind")),
            (Some(0.0), Some(1.0))
        );
        // The right line with the wrong kind: strict 0.
        let other = if kind == "logic" { "type" } else { "logic" };
        let s = score(&answer(line, other));
        assert_eq!(
            (s.value, s.metric("error_line"), s.metric("error_kind")),
            (0.0, Some(1.0), Some(0.0))
        );
        // A line number as a string and a kind in capitals still read.
        let s = score(&json!({"correct": false, "errorDetails": {"offendingLineNumber": line.to_string(), "errorType": kind.to_uppercase()}}).to_string());
        assert_eq!(s.value, 1.0, "{}", s.detail);
    }
}

#[test]
fn corrupted_and_malformed_answers_score_zero() {
    for task in Task::ALL {
        for inst in instances(task, 12) {
            let s = score_record(task, &inst.metadata, &inst.answer, "not an answer at all");
            assert_eq!(s.value, 0.0);
            assert!(!s.well_formed, "{task:?}: {}", s.detail);
            assert!(!s.detail.is_empty());
        }
    }
    // Writing: a proof that ends on the wrong formula scores 0.
    for inst in instances(Task::ProofWriting, 8) {
        let bad = serde_json::json!({"description": "", "proof": "{ false BY claim on false }"})
            .to_string();
        let s = score_record(Task::ProofWriting, &inst.metadata, &inst.answer, &bad);
        assert_eq!(s.value, 0.0);
        assert!(s.well_formed);
    }
    // Masking: claiming "unsolvable" on a solvable instance, or a wrong value, scores 0.
    for inst in instances(Task::ProofMasking, 20) {
        let gold: Value = serde_json::from_str(&inst.answer).unwrap();
        let masks = gold["masks"].as_object().unwrap();
        if masks.is_empty() {
            let s = score_record(
                Task::ProofMasking,
                &inst.metadata,
                &inst.answer,
                r#"{"masks": {"MASK1": "A"}}"#,
            );
            assert_eq!(s.value, 0.0);
            continue;
        }
        let s = score_record(
            Task::ProofMasking,
            &inst.metadata,
            &inst.answer,
            r#"{"masks": {}}"#,
        );
        assert_eq!(s.value, 0.0);
        let mut bad = masks.clone();
        for v in bad.values_mut() {
            *v = Value::String("nonsense-rule".into());
        }
        let s = score_record(
            Task::ProofMasking,
            &inst.metadata,
            &inst.answer,
            &json!({"masks": bad}).to_string(),
        );
        assert_eq!(s.value, 0.0);
    }
    // Gaps: a missing gap or a wrong filler scores 0.
    for inst in instances(Task::GapFilling, 12) {
        let first = inst.answer.split("\n\n").next().unwrap();
        if inst.metadata["gap_count"].as_u64().unwrap() > 1 {
            let s = score_record(Task::GapFilling, &inst.metadata, &inst.answer, first);
            assert_eq!(s.value, 0.0, "{}", s.detail);
        }
        let labels = inst.metadata["gap_labels"].as_array().unwrap();
        let wrong: String = labels
            .iter()
            .map(|l| format!("{}:\nfalse BY claim on false\n", l.as_str().unwrap()))
            .collect();
        let s = score_record(Task::GapFilling, &inst.metadata, &inst.answer, &wrong);
        assert_eq!(s.value, 0.0);
    }
}

#[test]
fn masking_fraction_and_decoys() {
    let all = instances(Task::ProofMasking, 60);
    let decoys = all.iter().filter(|i| i.label == "unsolvable").count();
    assert!(decoys > 0 && decoys < all.len() / 2, "{decoys}");
    for inst in &all {
        let f = inst.metadata["mask_fraction"].as_f64().unwrap();
        assert!(f > 0.0 && f <= 0.95, "{f}");
    }
}

/// Every verdict of the PL1 scorers where it should arise: gold answers
/// `ok`, unreadable ones `malformed`, wrong proofs and verdicts `wrong`,
/// and a written proof that asserts the goal as a premise `cheating`
/// (repeating a shown premise gains nothing: `wrong`).
#[test]
fn each_verdict_arises_where_it_should() {
    use crate::tasks::Verdict;
    for task in Task::ALL {
        for inst in instances(task, 6) {
            let v = |a: &str| {
                let s = score_record(task, &inst.metadata, &inst.answer, a);
                assert!(s.consistent(), "{task:?}: {s:?}");
                s.verdict
            };
            assert_eq!(v(&inst.answer), Verdict::Ok, "{task:?}");
            assert_eq!(v("not an answer at all"), Verdict::Malformed, "{task:?}");
        }
    }
    for inst in instances(Task::ProofChecking, 4) {
        let gold: Value = serde_json::from_str(&inst.answer).unwrap();
        let flipped = json!({"correct": !gold["correct"].as_bool().unwrap(), "errorDetails": {}});
        let s = score_record(
            Task::ProofChecking,
            &inst.metadata,
            &inst.answer,
            &flipped.to_string(),
        );
        assert_eq!(s.verdict, Verdict::Wrong, "{}", s.detail);
    }
    for inst in instances(Task::ProofWriting, 8) {
        let goal = inst.metadata["goal"].as_str().unwrap();
        let premise = inst.metadata["premises"][0].as_str().unwrap();
        let gold: Value = serde_json::from_str(&inst.answer).unwrap();
        let proof = gold["proof"].as_str().unwrap();
        let score = |p: String| {
            let a = json!({"description": "", "proof": p}).to_string();
            score_record(Task::ProofWriting, &inst.metadata, &inst.answer, &a)
        };
        let s = score(format!("assert premise-9 := {goal}\n{proof}"));
        assert_eq!(s.verdict, Verdict::Cheating, "{}", s.detail);
        assert!(s.detail.contains("not a premise"), "{}", s.detail);
        let s = score(format!("assert premise-1 := {premise}\n{proof}"));
        assert_eq!(s.verdict, Verdict::Wrong, "{}", s.detail);
        let s = score("{ false BY claim on false }".into());
        assert_eq!(s.verdict, Verdict::Wrong, "{}", s.detail);
    }
}

/// Every PL1 row carries the eight difficulty features in one order, and
/// at levels 5-8 the rows are at least as large as level 4's (premises,
/// atoms, proof lines on average) and the largest level's exceed them; the
/// gold answers of those levels score 1 and verify.
#[test]
fn difficulty_features_are_present_and_grow_beyond_level_four() {
    const NAMES: [&str; 8] = [
        "premises",
        "atoms",
        "connectives",
        "proof_lines",
        "proof_steps",
        "proof_depth",
        "search_steps",
        "sat_conflicts",
    ];
    let means = |level: u8| {
        // Level 8 builds about half its candidates (the rest exceed the
        // reference prover's size cap).
        let rows: Vec<_> = (0..24u64)
            .filter_map(|i| build(21, Task::ProofWriting, level, i, usize::MAX).ok())
            .collect();
        assert!(rows.len() >= 8, "level {level}: {} of 24 built", rows.len());
        let mut sums = [0.0; 8];
        for inst in &rows {
            let names: Vec<&str> = inst.difficulty.iter().map(|(n, _)| *n).collect();
            assert_eq!(names, NAMES);
            let get = |n: &str| inst.difficulty.iter().find(|(k, _)| *k == n).unwrap().1;
            let stats = &inst.metadata["proof_stats"];
            assert_eq!(get("proof_lines"), stats["lines"].as_f64().unwrap());
            assert_eq!(get("proof_depth"), stats["depth"].as_f64().unwrap());
            assert!(get("search_steps") >= get("proof_steps"));
            assert_eq!(
                get("premises"),
                inst.metadata["source_premises"].as_array().unwrap().len() as f64
            );
            for (s, (_, v)) in sums.iter_mut().zip(&inst.difficulty) {
                *s += v;
            }
            if level > 4 {
                let s = score_record(
                    Task::ProofWriting,
                    &inst.metadata,
                    &inst.answer,
                    &inst.answer,
                );
                assert_eq!(s.value, 1.0, "level {level}: {}", s.detail);
                super::instance::verify_record(Task::ProofWriting, &inst.metadata, &inst.answer)
                    .unwrap();
            }
        }
        sums.map(|s| s / rows.len() as f64)
    };
    let base = means(4);
    let mut top = base;
    for level in 5..=crate::prop::problems::random::MAX_LEVEL {
        let m = means(level);
        for k in [0, 1, 3] {
            assert!(
                m[k] >= base[k],
                "level {level} {}: {m:?} vs {base:?}",
                NAMES[k]
            );
        }
        top = m;
    }
    for k in [0, 1, 2, 3] {
        assert!(top[k] > base[k], "{}: {top:?} vs {base:?}", NAMES[k]);
    }
}
