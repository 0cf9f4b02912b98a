//! Traces (`tasks::trace`, dispatched by `Registry::trace`) on rows the real binary generates: every row of
//! small datasets of every family (TPTP `--domain SET` at smoke limits,
//! PL1 + PL2, EQ) whose certificate holds a proof or a countermodel gets a
//! trace, and its last line is the one its kind ends with (`$false`, the
//! theorem, the goal, the last term). One trace per config (the shortest,
//! ties by id) is kept as a snapshot per family; regenerate intentionally
//! with `UPDATE_SNAPSHOTS=1 cargo test --test traces`.

mod common;

use saturate::pipeline::score::{Row, read_dataset};
use saturate::tasks::registry::Registry;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// A row's trace as the trace column gets it (the registry's dispatch).
fn trace(task: &str, metadata: &Value, certificate: &Value) -> Option<String> {
    Registry::shared().trace(task, metadata, certificate)
}

fn json(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

/// The trace of a row, checked against what its certificate holds; `None`
/// only where the certificate has nothing to render.
fn checked_trace(row: &Row) -> Option<String> {
    let (meta, cert) = (json(&row.metadata), json(&row.certificate));
    let t = trace(&row.task, &meta, &cert);
    let id = &row.id;
    let last = t.as_deref().map(|t| t.lines().last().unwrap().to_string());
    let last = last.as_deref().unwrap_or("");
    let numbered = |l: &str| {
        l.split_once(". ")
            .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
    };
    match row.task.as_str() {
        "conjecture_entailment" => match cert["verdict"].as_str().unwrap() {
            "theorem" => {
                assert!(
                    numbered(last) && last.contains(". $false   ["),
                    "{id}: {last}"
                );
                assert_eq!(row.answer, "True", "{id}");
            }
            _ if cert["evidence"]["kind"] == "model" => {
                assert_eq!(last, "So the conclusion does not follow from the premises.");
            }
            _ => assert!(t.is_none(), "{id}"),
        },
        "premise_selection" => {
            assert!(
                numbered(last) && last.contains(". $false   ["),
                "{id}: {last}"
            );
            // The inputs are the gold premises, numbered as in the pool.
            let gold: Vec<u64> = cert["answers"][0]["premises"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            for k in gold {
                assert!(
                    t.as_ref().unwrap().contains(&format!("[premise {k}]")),
                    "{id}"
                );
            }
        }
        "proof_reconstruction" => {
            let theorem = meta["theorem"].as_str().unwrap();
            assert!(
                numbered(last) && last.contains(&format!(". {theorem}   [from ")),
                "{id}: {last} / {theorem}"
            );
            let derived = t.as_ref().unwrap().matches("   [from ").count();
            assert_eq!(derived, cert["steps"].as_array().unwrap().len(), "{id}");
        }
        task if task.starts_with("pl") => {
            let goal = meta["goal"].as_str().unwrap();
            if meta["reference_proof"].as_str().is_some() {
                assert_eq!(last, format!("Conclusion: {goal}"), "{id}");
            } else {
                assert_eq!(
                    last, "So the goal does not follow from the premises.",
                    "{id}"
                );
            }
        }
        task if task.starts_with("eq") => {
            let terms = meta["instance"]["proof"]["terms"].as_array().unwrap();
            let end = terms.last().unwrap().as_str().unwrap();
            // A decoy changes the lines after its gap, the end included.
            if meta["instance"]["decoy"] != true {
                assert_eq!(end, meta["end"].as_str().unwrap(), "{id}");
            }
            let want = format!("{}. {end}", terms.len() - 1);
            assert!(last.starts_with(&want), "{id}: {last} / {want}");
        }
        other => panic!("no expectation for {other}"),
    }
    t
}

/// Per config: (traces, rows, line counts, shortest trace by (lines, id)).
type Stats = BTreeMap<String, (usize, usize, Vec<usize>, Option<(usize, String, String)>)>;

fn collect(dataset: &Path, stats: &mut Stats) {
    for row in read_dataset(dataset).unwrap() {
        let t = checked_trace(&row);
        let e = stats.entry(row.task.clone()).or_default();
        e.1 += 1;
        if let Some(t) = t {
            // Deterministic: the same row renders the same trace.
            let again = trace(&row.task, &json(&row.metadata), &json(&row.certificate));
            assert_eq!(again.as_deref(), Some(t.as_str()));
            let n = t.lines().count();
            e.0 += 1;
            e.2.push(n);
            let key = (n, row.id.clone(), t);
            if e.3.as_ref().is_none_or(|b| (b.0, &b.1) > (key.0, &key.1)) {
                e.3 = Some(key);
            }
        }
    }
}

/// Median and maximum lines per config, printed for the record.
fn print_sizes(stats: &Stats) {
    println!("config                     traces/rows  median  max lines");
    for (task, (n, rows, lines, _)) in stats {
        let mut l = lines.clone();
        l.sort_unstable();
        let median = l.get(l.len() / 2).copied().unwrap_or(0);
        let max = l.last().copied().unwrap_or(0);
        println!("{task:<26} {n:>5}/{rows:<5} {median:>7} {max:>5}");
    }
}

/// The snapshot text of a family: the shortest trace of each config.
fn snapshot(stats: &Stats, configs: &[&str]) -> String {
    let mut s = String::new();
    for c in configs {
        let (_, _, _, best) = &stats[*c];
        let (_, id, t) = best.as_ref().unwrap_or_else(|| panic!("no trace of {c}"));
        s.push_str(&format!("== {id}\n{t}\n\n"));
    }
    s
}

#[test]
fn every_generated_row_gets_a_trace_ending_as_its_kind_does() {
    let tmp = tempfile::tempdir().unwrap();
    let mut stats = Stats::new();
    collect(&common::smoke_set_dataset(tmp.path()), &mut stats);
    collect(&common::small_pl_dataset(tmp.path()), &mut stats);
    collect(&common::small_eq_dataset(tmp.path(), 4), &mut stats);
    print_sizes(&stats);
    for (task, (n, rows, _, _)) in &stats {
        // Only saturation-evidence entailments may go without a trace.
        if task != "conjecture_entailment" {
            assert_eq!(n, rows, "{task}: {n} traces for {rows} rows");
        }
        assert!(*n > 0, "{task}");
    }
    assert!(stats.len() >= 12, "{:?}", stats.keys());
    common::assert_snapshot(
        "traces_tptp.txt",
        &snapshot(
            &stats,
            &[
                "conjecture_entailment",
                "premise_selection",
                "proof_reconstruction",
            ],
        ),
    );
    common::assert_snapshot(
        "traces_pl.txt",
        &snapshot(
            &stats,
            &[
                "pl1_proof_checking",
                "pl1_proof_writing",
                "pl1_proof_masking",
                "pl1_gap_filling",
                "pl2_proof_checking",
                "pl2_proof_writing",
            ],
        ),
    );
    common::assert_snapshot(
        "traces_eq.txt",
        &snapshot(&stats, &["eq_pc", "eq_er", "eq_gf"]),
    );
}

/// Trace sizes over datasets of your own: `TRACE_DATASETS=dir1:dir2 cargo
/// test --release --test traces -- --ignored --nocapture`.
#[test]
#[ignore]
fn trace_sizes_of_given_datasets() {
    let dirs = std::env::var("TRACE_DATASETS").expect("TRACE_DATASETS=dir1:dir2");
    let mut stats = Stats::new();
    for d in dirs.split(':') {
        collect(Path::new(d), &mut stats);
    }
    print_sizes(&stats);
}
