//! `saturate audit`, run as a user runs it: a dataset whose labels leak
//! through a surface feature fails (exit 1, the feature named), a fair one
//! passes, the table agrees with the section every generation run writes
//! into its card, and bad input exits 2.

mod common;

use common::{run, saturate, stderr, stdout};
use saturate::dataset::{DatasetSpec, DatasetWriter, Record};
use std::path::Path;

/// Writes a `conjecture_entailment` dataset of `n` level-1 rows. With
/// `leak`, True rows take their premises from the background list and
/// False rows never do; without it, rows 2m (True) and 2m+1 (False) show
/// the very same text, so nothing on the surface tells them apart.
fn entailment_dataset(dir: &Path, n: usize, leak: bool) {
    let background = ["p(X) | q(X)", "~q(X) | r(X)", "s(a)", "~r(b)"];
    let derived = ["p(Y) | r(Y)", "q(a) | s(b)", "r(c) | t(c)", "~s(X) | u(X)"];
    let mut spec = DatasetSpec::new("audit test", 0, serde_json::json!({}));
    spec.description = "synthetic rows".into();
    let mut w = DatasetWriter::create(dir, spec).unwrap();
    for i in 0..n {
        let truth = i % 2 == 0;
        let m = i / 2;
        let from_background = if leak { truth } else { m % 2 == 0 };
        let k = 1 + m % 3;
        let premises: Vec<&str> = (0..k)
            .map(|j| {
                let list = if from_background {
                    &background
                } else {
                    &derived
                };
                list[(m + j) % 4]
            })
            .collect();
        let theorem = format!("r(f{m}(a)) | p(g(X{}))", m % 5);
        let meta = serde_json::json!({
            "context_axioms": background,
            "premises": premises,
            "theorem": theorem,
        });
        w.push(
            "conjecture_entailment",
            Record {
                id: format!("conjecture_entailment-T-L1-{i:05}"),
                task: "conjecture_entailment".into(),
                domain: Some("T".into()),
                source: None,
                level: Some(1),
                prompt: format!("premises {premises:?} conclusion {theorem}"),
                answer: if truth { "True" } else { "False" }.into(),
                completion: if truth { "True" } else { "False" }.into(),
                trace: None,
                metadata: meta.to_string(),
                certificate: "{}".into(),
            },
            &format!("row {i}"),
        )
        .unwrap();
    }
    w.finish().unwrap();
}

#[test]
fn a_leaking_dataset_fails_with_the_feature_named_and_a_fair_one_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let leaky = tmp.path().join("leaky");
    entailment_dataset(&leaky, 120, true);
    let o = run(&["audit", leaky.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("SHORTCUT"), "{out}");
    assert!(out.contains("background"), "{out}");
    assert!(stderr(&o).contains("without reasoning"), "{}", stderr(&o));

    let fair = tmp.path().join("fair");
    entailment_dataset(&fair, 120, false);
    let o = run(&["audit", fair.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("pass"), "{}", stdout(&o));

    // A margin of 100 points never fails; cells under --min-rows never do.
    let o = run(&["audit", leaky.to_str().unwrap(), "--margin", "100"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = run(&["audit", leaky.to_str().unwrap(), "--min-rows", "500"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("too few rows"), "{}", stdout(&o));
}

#[test]
fn the_card_holds_the_audit_that_saturate_audit_prints() {
    let tmp = tempfile::tempdir().unwrap();
    let d = common::small_eq_dataset(tmp.path(), 60);
    let o = run(&["audit", d.to_str().unwrap(), "--markdown"]);
    let code = o.status.code();
    assert!(code == Some(0) || code == Some(1), "{}", stderr(&o));
    let card = std::fs::read_to_string(d.join("README.md")).unwrap();
    let section = card
        .split("## Shortcut audit\n\n")
        .nth(1)
        .expect("card has the audit section")
        .split("\n## ")
        .next()
        .unwrap();
    assert_eq!(section.trim_end(), stdout(&o).trim_end());
    assert!(card.contains("## Yields"), "{card}");

    let o = run(&["audit", d.to_str().unwrap(), "--json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let cells = report["cells"].as_array().unwrap();
    let configs: Vec<&str> = cells
        .iter()
        .map(|c| c["config"].as_str().unwrap())
        .collect();
    assert_eq!(configs, ["eq_gf", "eq_pc"]);
    for c in cells {
        assert_eq!(c["rows"], 60);
        assert_eq!(c["level"], "1");
        for k in ["majority", "single_rule", "tree", "logistic"] {
            let v = c[k].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&v), "{k} {v}");
        }
    }
    assert_eq!(report["not_audited"]["eq_er"], 60);
    // The exit code says whether a cell failed, as the report does.
    let failing = cells
        .iter()
        .any(|c| c["status"] == "shortcut" || c["status"] == "constant_label")
        || report["exploits"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["status"] == "exploit");
    assert_eq!(code == Some(1), failing);
    // `audit.json` in the dataset is the same report.
    let stored: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("audit.json")).unwrap()).unwrap();
    assert_eq!(stored, report);
    // `--json-out FILE` writes that report while the table is printed.
    let out = tmp.path().join("report.json");
    let o = run(&[
        "audit",
        d.to_str().unwrap(),
        "--json-out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), code, "{}", stderr(&o));
    assert!(stdout(&o).contains("eq_gf"), "{}", stdout(&o));
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(written, report);
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nothing");
    let o = run(&["audit", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nothing"), "{}", stderr(&o));
    let o = saturate()
        .args(["audit", ".", "--margin", "250"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("0 to 100"), "{}", stderr(&o));
}

/// Proof reconstruction is judged by whole graphs: every cell carries the
/// best shallow reader's share of rows solved, and its lead and status
/// follow from that share, not from its per-edge items.
#[test]
fn reconstruction_cells_are_judged_by_whole_graphs() {
    let tmp = tempfile::tempdir().unwrap();
    let d = common::smoke_set_dataset(tmp.path());
    let o = run(&["audit", d.to_str().unwrap(), "--json", "--min-rows", "1"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let cells = report["cells"].as_array().unwrap();
    let recon: Vec<&serde_json::Value> = cells
        .iter()
        .filter(|c| c["config"] == "proof_reconstruction")
        .collect();
    assert_eq!(recon.len(), 4, "{report}");
    for c in recon {
        let w = &c["whole"];
        assert!(
            ["overlap", "overlap_any"].contains(&w["reader"].as_str().unwrap()),
            "{c}"
        );
        let solved = w["solved"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&solved), "{c}");
        assert!((0.0..=1.0).contains(&w["parts_right"].as_f64().unwrap()));
        let status = c["status"].as_str().unwrap();
        assert_eq!(status == "shortcut", 100.0 * solved > 10.0, "{c}");
    }
    // The other families' cells have no reader.
    assert!(
        cells
            .iter()
            .filter(|c| c["config"] != "proof_reconstruction")
            .all(|c| c.get("whole").is_none())
    );
    let o = run(&["audit", d.to_str().unwrap(), "--min-rows", "1"]);
    assert!(stdout(&o).contains("% of rows"), "{}", stdout(&o));
}

/// The exploit suite runs on every config of tiny generated datasets (the
/// free-text ones included), scores the empty answer and the family's
/// canned answers with the real scorers, and its verdicts follow the gate:
/// a cell fails exactly when a non-constant answer's mean, over enough
/// rows, is more than the margin above the best constant's. The card
/// carries the table. Every row's metadata names its group, and the
/// entailment twins of one theorem share it.
#[test]
fn the_exploit_suite_scores_canned_answers_on_every_config() {
    let tmp = tempfile::tempdir().unwrap();
    let set = common::smoke_set_dataset(tmp.path());
    let pl = common::small_pl_dataset(tmp.path());
    let eq = common::small_eq_dataset(tmp.path(), 12);
    for d in [&set, &pl, &eq] {
        let o = run(&["audit", d.to_str().unwrap(), "--json", "--min-rows", "1"]);
        let code = o.status.code();
        assert!(code == Some(0) || code == Some(1), "{}", stderr(&o));
        let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let margin = report["exploit_margin"].as_f64().unwrap();
        let min_rows = report["exploit_min_rows"].as_u64().unwrap();
        assert_eq!(margin, 0.2);
        let exploits = report["exploits"].as_array().unwrap();
        assert!(!exploits.is_empty(), "{report}");
        let manifest: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join("manifest.json")).unwrap()).unwrap();
        let configs: std::collections::BTreeSet<&str> = exploits
            .iter()
            .map(|c| c["config"].as_str().unwrap())
            .collect();
        for (c, counts) in manifest["configs"].as_object().unwrap() {
            if counts["rows"].as_u64().unwrap() > 0 {
                assert!(
                    configs.contains(c.as_str()),
                    "no exploit cell for {c}: {report}"
                );
            }
        }
        for c in exploits {
            let answers = c["exploits"].as_array().unwrap();
            assert!(answers.iter().any(|e| e["name"] == "empty"), "{c}");
            let baseline = c["baseline"].as_f64().unwrap();
            let best_constant = answers
                .iter()
                .filter(|e| e["constant"] == true && e["rows"].as_u64().unwrap() > 0)
                .map(|e| e["mean"].as_f64().unwrap())
                .fold(0.0, f64::max);
            assert_eq!(baseline, best_constant, "{c}");
            let over = answers.iter().any(|e| {
                e["constant"] == false
                    && e["rows"].as_u64().unwrap() >= min_rows
                    && e["mean"].as_f64().unwrap() > baseline + margin + 1e-12
            });
            assert_eq!(c["status"] == "exploit", over, "{c}");
            if c["config"] == "premise_selection" {
                assert!(answers.iter().any(|e| e["name"] == "whole_pool"), "{c}");
            }
            if c["config"] == "conjecture_entailment" {
                assert!(answers.iter().any(|e| e["name"] == "True"), "{c}");
            }
        }
        let card = std::fs::read_to_string(d.join("README.md")).unwrap();
        assert!(card.contains("**Exploit suite.**"), "{card}");
    }
    // Every generated row names its group; an entailment's twins share one.
    let rows = saturate::dataset::read_dataset(&set).unwrap();
    let mut by_theorem: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for r in &rows {
        let m: serde_json::Value = serde_json::from_str(&r.metadata).unwrap();
        let g = m["group"]
            .as_str()
            .unwrap_or_else(|| panic!("no group: {}", r.metadata));
        assert_eq!(g.len(), 16, "{g}");
        if r.task == "conjecture_entailment" {
            by_theorem
                .entry(m["theorem"].as_str().unwrap().to_string())
                .or_default()
                .insert(g.to_string());
        }
    }
    assert!(!by_theorem.is_empty());
    assert!(by_theorem.values().all(|g| g.len() == 1), "{by_theorem:?}");
}

/// `--exploit-answers FILE` writes every canned answer the suite scored,
/// and `saturate score` gives each the score the audit gave it: the file
/// is what another scorer (an older build) is run on.
#[test]
fn the_exploit_answers_file_rescores_to_the_suites_means() {
    let tmp = tempfile::tempdir().unwrap();
    let eq = common::small_eq_dataset(tmp.path(), 12);
    let file = tmp.path().join("exploits.jsonl");
    let audit = |extra: &[&str]| {
        let mut args = vec!["audit", eq.to_str().unwrap(), "--json", "--min-rows", "1"];
        args.extend_from_slice(extra);
        run(&args)
    };
    let o = audit(&["--exploit-answers", file.to_str().unwrap()]);
    let code = o.status.code();
    assert!(code == Some(0) || code == Some(1), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // One line per (row, exploit) scored, and the report stays as without
    // the flag (no answers in it).
    let scored: u64 = report["exploits"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["exploits"].as_array().unwrap())
        .map(|e| e["rows"].as_u64().unwrap())
        .sum();
    assert_eq!(lines.len() as u64, scored);
    assert!(report["exploits"][0].get("answers").is_none());
    // `--exploits-only` gives the same exploit cells and judges no reader.
    let o = audit(&["--exploits-only"]);
    let only: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(only["exploits"], report["exploits"]);
    assert_eq!(only["cells"].as_array().map(Vec::len), Some(0));
    assert!(!report["cells"].as_array().unwrap().is_empty());
    // Each exploit's answers, scored by `saturate score`, get the audit's
    // scores.
    let names: std::collections::BTreeSet<&str> = lines
        .iter()
        .map(|l| l["exploit"].as_str().unwrap())
        .collect();
    assert!(names.len() > 2, "{names:?}");
    for name in names {
        let answers = tmp.path().join(format!("{name}.jsonl"));
        let mine: Vec<&serde_json::Value> = lines.iter().filter(|l| l["exploit"] == name).collect();
        let text: String = mine
            .iter()
            .map(|l| serde_json::json!({"id": l["id"], "answer": l["answer"]}).to_string() + "\n")
            .collect();
        std::fs::write(&answers, text).unwrap();
        let o = run(&[
            "score",
            "--dataset",
            eq.to_str().unwrap(),
            "--answers",
            answers.to_str().unwrap(),
            "--json",
            "-q",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mut scores = answers.clone().into_os_string();
        scores.push(".scores.jsonl");
        let got: std::collections::BTreeMap<String, f64> = std::fs::read_to_string(&scores)
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["id"].as_str().unwrap().to_string(),
                    v["score"].as_f64().unwrap(),
                )
            })
            .collect();
        for l in mine {
            assert_eq!(
                got[l["id"].as_str().unwrap()],
                l["score"].as_f64().unwrap(),
                "{name}: {l}"
            );
        }
    }
}
