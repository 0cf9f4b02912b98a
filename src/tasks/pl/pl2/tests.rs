//! Tests of PL2: filters, certificates, NDL_f reference proofs, corruption
//! labels, prompts, scorers and row verification.

use super::*;

fn instances(task: Pl2Task, per_family: u64) -> Vec<PlInstance> {
    let opts = Pl2Options::default();
    let mut out = Vec::new();
    for family in Family::ALL {
        for i in 0..per_family {
            if let Ok(inst) = build(5, task, family, 1 + (i % 2) as u8, i, &opts) {
                out.push(inst);
            }
        }
    }
    out
}

#[test]
fn every_family_yields_checked_reference_proofs_and_gold_scores_one() {
    for task in Pl2Task::ALL {
        let all = instances(task, 6);
        for family in Family::ALL {
            assert!(
                all.iter()
                    .any(|i| i.source == format!("pl2-{}", family.name())),
                "{task}: no {family} instance"
            );
        }
        for inst in &all {
            let s = score_record(task, &inst.metadata, &inst.answer, &inst.answer);
            assert_eq!(s.value, 1.0, "{}: {}", inst.canonical, s.detail);
            if let Some(proof) = inst.metadata["reference_proof"].as_str() {
                // The reference proof re-checks from the metadata strings alone.
                let ans = json!({"description": "", "proof": proof}).to_string();
                let s = score_record(Pl2Task::ProofWriting, &inst.metadata, "", &ans);
                assert_eq!(s.value, 1.0, "{}: {}", inst.canonical, s.detail);
                let steps = inst.metadata["refutation_steps"].as_u64().unwrap();
                assert!(steps < 150, "{steps}");
            }
        }
    }
}

/// `verify` re-certifies every gold answer from the record's text, and
/// rejects a record whose gold answer was tampered with.
#[test]
fn verify_accepts_gold_records_and_rejects_tampered_ones() {
    let mut labels = std::collections::BTreeSet::new();
    for task in Pl2Task::ALL {
        for inst in instances(task, 4) {
            let ok = verify_record(task, &inst.metadata, &inst.answer);
            assert!(ok.is_ok(), "{}: {ok:?}", inst.canonical);
            labels.insert((task, inst.label));
            let mut gold: Value = serde_json::from_str(&inst.answer).unwrap();
            match (task, inst.label) {
                (Pl2Task::ProofChecking, _) => {
                    let c = gold["correct"].as_bool().unwrap();
                    gold["correct"] = Value::Bool(!c);
                }
                (Pl2Task::ProofWriting, "non-theorem") => {
                    gold["counterexample"] = json!({});
                }
                (Pl2Task::ProofWriting, _) => {
                    // Without its final line the proof ends elsewhere.
                    let proof = gold["proof"].as_str().unwrap().to_string();
                    let mut lines: Vec<&str> = proof.lines().collect();
                    let last = lines.pop().unwrap();
                    lines.pop();
                    lines.push(last);
                    gold["proof"] = Value::String(lines.join("\n"));
                }
            }
            let tampered = gold.to_string();
            assert!(
                verify_record(task, &inst.metadata, &tampered).is_err(),
                "{}: tampered gold accepted: {tampered}",
                inst.canonical
            );
            gold["proof"] = Value::Null;
            if inst.label == "theorem" {
                assert!(verify_record(task, &inst.metadata, &gold.to_string()).is_err());
            }
        }
    }
    for want in ["correct", "incorrect"] {
        assert!(
            labels.contains(&(Pl2Task::ProofChecking, want)),
            "no {want}"
        );
    }
    for want in ["theorem", "non-theorem"] {
        assert!(labels.contains(&(Pl2Task::ProofWriting, want)), "no {want}");
    }
}

#[test]
fn decoys_have_no_proof_and_a_checked_counterexample() {
    let all = instances(Pl2Task::ProofWriting, 12);
    let decoys: Vec<&PlInstance> = all.iter().filter(|i| i.label == "non-theorem").collect();
    assert!(decoys.len() >= 3, "{}", decoys.len());
    for inst in decoys {
        let premises: Vec<Formula> = inst.metadata["premises"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| Formula::parse(s.as_str().unwrap()).unwrap())
            .collect();
        let goal = Formula::parse(inst.metadata["goal"].as_str().unwrap()).unwrap();
        assert!(!sat::entails(&premises, &goal), "{}", inst.canonical);
        assert!(inst.certificate["problem"]["counterexample"].is_object());
        // Claiming a proof, or a wrong counterexample, scores 0.
        let fake = json!({"description": "", "proof": format!("{{\n  {goal} from premise-1\n}}")});
        let s = score_record(
            Pl2Task::ProofWriting,
            &inst.metadata,
            &inst.answer,
            &fake.to_string(),
        );
        assert_eq!(s.value, 0.0);
        // Every one-atom change of the gold counterexample scores exactly
        // as evaluation says; a partial assignment scores 0.
        let gold: Value = serde_json::from_str(&inst.answer).unwrap();
        let cx = gold["counterexample"].as_object().unwrap();
        for atom in cx.keys() {
            let mut m = cx.clone();
            m[atom] = Value::Bool(!m[atom].as_bool().unwrap());
            let v = |a: &str| m[a].as_bool().unwrap();
            let valid = premises.iter().all(|p| p.eval(&v)) && !goal.eval(&v);
            let ans = json!({"description": "", "proof": null, "counterexample": m});
            let s = score_record(
                Pl2Task::ProofWriting,
                &inst.metadata,
                &inst.answer,
                &ans.to_string(),
            );
            assert_eq!(
                s.value,
                if valid { 1.0 } else { 0.0 },
                "{}: {}",
                inst.canonical,
                s.detail
            );
        }
        let mut partial = cx.clone();
        let first = partial.keys().next().unwrap().clone();
        partial.remove(&first);
        let ans = json!({"description": "", "proof": null, "counterexample": partial});
        let s = score_record(
            Pl2Task::ProofWriting,
            &inst.metadata,
            &inst.answer,
            &ans.to_string(),
        );
        assert_eq!(s.value, 0.0);
    }
}

#[test]
fn one_line_and_consolidating_proofs_are_rejected() {
    for inst in instances(Pl2Task::ProofWriting, 4)
        .iter()
        .filter(|i| i.label == "theorem")
    {
        let n = inst.metadata["premises"].as_array().unwrap().len();
        let goal = inst.metadata["goal"].as_str().unwrap();
        let all: Vec<String> = (1..=n).map(|i| format!("premise-{i}")).collect();
        let one_line = format!("{{\n  {goal} from {}\n}}", all.join(", "));
        let ans = json!({"description": "", "proof": one_line}).to_string();
        let s = score_record(Pl2Task::ProofWriting, &inst.metadata, &inst.answer, &ans);
        assert_eq!(s.value, 0.0, "{}", inst.canonical);
        assert!(s.detail.starts_with("type error"), "{}", s.detail);
        // Five premises at a time is not enough (the goal needs more),
        // and gathering them in conjunctions trips the premise bound.
        let five = format!("{{\n  {goal} from {}\n}}", all[..5].join(", "));
        let ans = json!({"description": "", "proof": five}).to_string();
        let s = score_record(Pl2Task::ProofWriting, &inst.metadata, &inst.answer, &ans);
        assert_eq!(s.value, 0.0, "{}", inst.canonical);
        // No proof at all for a theorem scores 0.
        let s = score_record(
            Pl2Task::ProofWriting,
            &inst.metadata,
            &inst.answer,
            r#"{"description": "", "proof": null, "counterexample": {}}"#,
        );
        assert_eq!(s.value, 0.0);
    }
}

#[test]
fn proof_checking_is_balanced_and_corruptions_score_zero_when_called_correct() {
    let all = instances(Pl2Task::ProofChecking, 8);
    let wrong = all.iter().filter(|i| i.label == "incorrect").count();
    assert!(
        wrong * 4 >= all.len() && wrong * 4 <= all.len() * 3,
        "{wrong}/{}",
        all.len()
    );
    for inst in &all {
        let flipped = if inst.label == "correct" {
            r#"{"correct": false, "errorDetails": {}}"#
        } else {
            r#"{"correct": true, "errorDetails": {}}"#
        };
        let s = score_record(
            Pl2Task::ProofChecking,
            &inst.metadata,
            &inst.answer,
            flipped,
        );
        assert_eq!(s.value, 0.0);
        if inst.label == "incorrect" {
            assert_eq!(inst.prediction_matches(), Some(true), "{}", inst.metadata);
            let gold: Value = serde_json::from_str(&inst.answer).unwrap();
            let d = &gold["errorDetails"];
            if d["errorType"] == "logic" && d["offendingLineNumber"] != 0 {
                let desc = d["errorDescription"].as_str().unwrap();
                assert!(
                    desc.contains("counterexample") || desc.contains("does not hold"),
                    "{desc}"
                );
            }
        }
        let s = score_record(
            Pl2Task::ProofChecking,
            &inst.metadata,
            &inst.answer,
            "nonsense",
        );
        assert!(!s.well_formed);
    }
}

#[test]
fn instances_are_deterministic() {
    let opts = Pl2Options::default();
    for family in Family::ALL {
        let a = build(3, Pl2Task::ProofChecking, family, 1, 2, &opts);
        let b = build(3, Pl2Task::ProofChecking, family, 1, 2, &opts);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!((a.prompt, a.answer), (b.prompt, b.answer));
                assert_eq!(a.metadata, b.metadata);
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("{family}: one build failed"),
        }
    }
}

/// PL2 checking is scored strictly too: the gold error details name a line
/// and a kind for every incorrect proof, and "always incorrect" earns no
/// more than the lenient share.
#[test]
fn pl2_checking_scores_error_details_strictly() {
    let all = instances(Pl2Task::ProofChecking, 6);
    let always =
        r#"{"correct": false, "errorDetails": {"offendingLineNumber": 1, "errorType": "syntax"}}"#;
    let (mut value, mut lenient) = (0.0, 0.0);
    let mut incorrect = 0;
    for inst in &all {
        let s = score_record(Pl2Task::ProofChecking, &inst.metadata, &inst.answer, always);
        value += s.value;
        lenient += s.metric("lenient").unwrap();
        let gold: Value = serde_json::from_str(&inst.answer).unwrap();
        if gold["correct"] == false {
            incorrect += 1;
            let d = &gold["errorDetails"];
            assert!(
                d["offendingLineNumber"].is_u64() && d["errorType"].is_string(),
                "{gold}"
            );
            let mut wrong_line = gold.clone();
            wrong_line["errorDetails"]["offendingLineNumber"] =
                json!(d["offendingLineNumber"].as_u64().unwrap() + 1);
            let s = score_record(
                Pl2Task::ProofChecking,
                &inst.metadata,
                &inst.answer,
                &wrong_line.to_string(),
            );
            assert_eq!((s.value, s.metric("lenient")), (0.0, Some(1.0)));
        }
    }
    assert!(incorrect > 0);
    assert_eq!(lenient, incorrect as f64);
    assert!(value < lenient, "strict {value} vs lenient {lenient}");
}

/// A wrong closing step keeps the proof's shape: the same lines, the same
/// last line and justifier counts, and one justifier of the `false from`
/// step changed; the checker finds a logic error in it (a removed final
/// step was visible from the last line and the closing brackets alone).
#[test]
fn wrong_final_keeps_the_proof_shape_and_fails_on_logic() {
    use crate::prop::ndl::{Dialect, parse_proof_in};
    use rand::SeedableRng;
    let opts = Pl2Options::default();
    let system = ProofSystem::NdlF(opts.ndlf.clone());
    let mut checked = 0;
    for inst in instances(Pl2Task::ProofChecking, 4) {
        let text = inst.metadata["reference_proof"].as_str().unwrap();
        let proof = parse_proof_in(text, false, Dialect::NdlF).unwrap();
        let premises: Vec<Formula> = inst.metadata["premises"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| Formula::parse(p.as_str().unwrap()).unwrap())
            .collect();
        let goal = Formula::parse(inst.metadata["goal"].as_str().unwrap()).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(checked);
        let Some(bad) = corrupt::corrupt(
            &proof,
            corrupt::Corruption::WrongFinal,
            &mut rng,
            premises.len(),
        ) else {
            continue;
        };
        let (old, new) = (print(&proof), print(&bad));
        let (old_lines, new_lines): (Vec<&str>, Vec<&str>) =
            (old.lines().collect(), new.lines().collect());
        assert_eq!(old_lines.len(), new_lines.len());
        let changed: Vec<usize> = (0..old_lines.len())
            .filter(|&i| old_lines[i] != new_lines[i])
            .collect();
        assert_eq!(changed.len(), 1, "{new}");
        let line = new_lines[changed[0]].trim();
        assert!(line.starts_with("false from "), "{line}");
        assert_eq!(
            line.matches(',').count(),
            old_lines[changed[0]].matches(',').count()
        );
        let r = system.check_text(&named_premises(&premises), &goal, &new, Mode::Strict);
        if let Err(e) = r.result {
            assert_eq!(e.kind.name(), "logic", "{new}");
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
}

/// Both forms of the extra-justifier operator are type errors: six
/// justifiers, or a tautology as the claim.
#[test]
fn extra_justifiers_is_a_type_error_in_both_forms() {
    use crate::prop::ndl::{Dialect, parse_proof_in};
    use rand::SeedableRng;
    let opts = Pl2Options::default();
    let system = ProofSystem::NdlF(opts.ndlf.clone());
    let (mut six, mut tautology) = (0, 0);
    for inst in instances(Pl2Task::ProofChecking, 3) {
        let text = inst.metadata["reference_proof"].as_str().unwrap();
        let proof = parse_proof_in(text, false, Dialect::NdlF).unwrap();
        let premises: Vec<Formula> = inst.metadata["premises"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| Formula::parse(p.as_str().unwrap()).unwrap())
            .collect();
        let goal = Formula::parse(inst.metadata["goal"].as_str().unwrap()).unwrap();
        for seed in 0..12 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let Some(bad) = corrupt::corrupt(
                &proof,
                corrupt::Corruption::ExtraJustifiers,
                &mut rng,
                premises.len(),
            ) else {
                continue;
            };
            let new = print(&bad);
            let r = system.check_text(&named_premises(&premises), &goal, &new, Mode::Strict);
            let e = r.result.expect_err("the corruption is caught");
            assert_eq!(e.kind.name(), "type", "{new}");
            if e.description.contains("tautology") {
                tautology += 1;
            } else {
                six += 1;
            }
        }
    }
    assert!(six > 0 && tautology > 0, "{six} {tautology}");
}

/// Every verdict of PL2 proof writing where it should arise: the gold
/// answer `ok`; no answer `malformed`; no proof for a theorem `wrong`; and
/// the shortcuts NDL_f forbids `cheating`: the curried tautology
/// `premise-1 ==> (premise-2 ==> ... ==> goal)` claimed and then
/// discharged, every premise cited in one step past the justifier limit,
/// and the goal asserted as a premise.
#[test]
fn writing_verdicts_and_the_curried_tautology_exploit_is_cheating() {
    use crate::tasks::Verdict;
    let mut exploits = 0;
    for inst in instances(Pl2Task::ProofWriting, 4)
        .iter()
        .filter(|i| i.label == "theorem")
    {
        let v = |a: &str| {
            let s = score_record(Pl2Task::ProofWriting, &inst.metadata, &inst.answer, a);
            assert!(s.consistent(), "{}: {s:?}", inst.canonical);
            (s.verdict, s.detail)
        };
        let proof = |p: String| json!({"description": "", "proof": p}).to_string();
        assert_eq!(v(&inst.answer).0, Verdict::Ok, "{}", inst.canonical);
        assert_eq!(v("I cannot find a proof").0, Verdict::Malformed);
        assert_eq!(v(r#"{"proof": 7}"#).0, Verdict::Malformed);
        let none = r#"{"description": "", "proof": null, "counterexample": {}}"#;
        assert_eq!(v(none).0, Verdict::Wrong);
        let premises: Vec<&str> = inst.metadata["premises"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let goal = inst.metadata["goal"].as_str().unwrap();
        // The curried tautology: valid, so it "follows" from premise-1.
        let curried = premises
            .iter()
            .rev()
            .fold(goal.to_string(), |acc, p| format!("({p} ==> {acc})"));
        let cited: Vec<String> = (1..=premises.len().min(5))
            .map(|i| format!("premise-{i}"))
            .collect();
        let exploit = format!(
            "{{\n  c := {curried} from premise-1;\n  {goal} from c, {}\n}}",
            cited.join(", ")
        );
        let (verdict, detail) = v(&proof(exploit));
        assert_eq!(verdict, Verdict::Cheating, "{}: {detail}", inst.canonical);
        assert!(detail.contains("line 2"), "{detail}");
        exploits += 1;
        // Every premise cited at once: past the justifier limit.
        let all: Vec<String> = (1..=premises.len())
            .map(|i| format!("premise-{i}"))
            .collect();
        if all.len() > 5 {
            let one_line = format!("{{\n  {goal} from {}\n}}", all.join(", "));
            assert_eq!(v(&proof(one_line)).0, Verdict::Cheating);
        }
        // The goal asserted as a premise.
        let gold: Value = serde_json::from_str(&inst.answer).unwrap();
        let with_goal = format!(
            "assert premise-0 := {goal}\n{}",
            gold["proof"].as_str().unwrap()
        );
        assert_eq!(v(&proof(with_goal)).0, Verdict::Cheating);
    }
    assert!(exploits >= 4, "{exploits}");
}

/// The limits scale only beyond size 3, and sizes above the schedule's
/// last take its limits.
#[test]
fn limits_grow_beyond_size_three() {
    let o = Pl2Options::default();
    for size in 1..=3 {
        assert_eq!(o.at_size(size), o);
    }
    let four = o.at_size(4);
    assert_eq!(
        (four.max_refutation_steps, four.max_cnf_clauses),
        (450, 600)
    );
    let five = o.at_size(5);
    assert_eq!(
        (five.max_refutation_steps, five.max_cnf_clauses),
        (600, 800)
    );
    assert_eq!(o.at_size(9), five);
}

/// Every PL2 row carries the difficulty features in one order; theorems of
/// sizes 4 and 5 exist for the pebbling families, check and score 1, and
/// their refutations and proofs are longer than size 3's.
#[test]
fn difficulty_features_are_present_and_sizes_four_and_five_grow() {
    const NAMES: [&str; 8] = [
        "premises",
        "atoms",
        "connectives",
        "cnf_clauses",
        "proof_lines",
        "proof_steps",
        "refutation_steps",
        "sat_conflicts",
    ];
    let opts = Pl2Options::default();
    for family in [Family::Pyramid, Family::HornChain] {
        let mut previous = 0.0;
        for size in 3..=5u8 {
            let rows: Vec<PlInstance> = (0..6)
                .filter_map(|i| build(7, Pl2Task::ProofWriting, family, size, i, &opts).ok())
                .collect();
            assert!(!rows.is_empty(), "{family} size {size}: nothing built");
            let mut lines = 0.0;
            for inst in &rows {
                let names: Vec<&str> = inst.difficulty.iter().map(|(n, _)| *n).collect();
                assert_eq!(names, NAMES);
                let get = |n: &str| inst.difficulty.iter().find(|(k, _)| *k == n).unwrap().1;
                assert_eq!(
                    get("refutation_steps"),
                    inst.metadata["refutation_steps"].as_f64().unwrap()
                );
                assert_eq!(
                    get("proof_lines"),
                    inst.metadata["reference_proof_lines"].as_f64().unwrap()
                );
                assert_eq!(
                    get("cnf_clauses"),
                    inst.metadata["cnf_clause_count"].as_f64().unwrap()
                );
                let s = score_record(
                    Pl2Task::ProofWriting,
                    &inst.metadata,
                    &inst.answer,
                    &inst.answer,
                );
                assert_eq!(s.value, 1.0, "{family} size {size}: {}", s.detail);
                verify_record(Pl2Task::ProofWriting, &inst.metadata, &inst.answer).unwrap();
                lines += get("proof_lines");
            }
            let mean = lines / rows.len() as f64;
            assert!(
                mean > previous,
                "{family} size {size}: {mean} vs {previous}"
            );
            previous = mean;
        }
    }
    // A decoy has no proof: its proof features are 0.
    let decoy = (0..40)
        .filter_map(|i| build(7, Pl2Task::ProofWriting, Family::Tseitin, 4, i, &opts).ok())
        .find(|i| i.label == "non-theorem")
        .expect("a size-4 Tseitin decoy");
    let get = |n: &str| decoy.difficulty.iter().find(|(k, _)| *k == n).unwrap().1;
    assert_eq!((get("proof_lines"), get("refutation_steps")), (0.0, 0.0));
    assert!(get("premises") > 0.0 && get("cnf_clauses") > 0.0);
}
