//! The grader's verdicts through the real binary: `saturate score` on small
//! generated datasets (TPTP `--domain SET` at smoke limits, PL1 + PL2) with
//! an answers file holding gold, wrong, malformed and cheating answers (and,
//! under a prover without budget, an answer only the prover could judge),
//! must report each row's verdict in its per-row output and the verdict
//! counts per task and level and overall in `--json` and the table.

mod common;

use common::{run, stderr, stdout};
use saturate::pipeline::score::{Row, read_dataset};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

fn json_of(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

/// Answers per verdict name.
type Counts = BTreeMap<&'static str, u64>;

/// The answers file and the verdict each answer must get, by row id.
struct Answers {
    lines: String,
    want: BTreeMap<String, &'static str>,
}

impl Answers {
    fn new() -> Answers {
        Answers {
            lines: String::new(),
            want: BTreeMap::new(),
        }
    }

    fn give(&mut self, row: &Row, answer: &str, verdict: &'static str) {
        self.lines
            .push_str(&(json!({"id": row.id, "answer": answer}).to_string() + "\n"));
        self.want.insert(row.id.clone(), verdict);
    }

    /// Verdict counts per `"task level"` group and overall.
    fn counts(&self, rows: &[Row]) -> (BTreeMap<String, Counts>, Counts) {
        let zero = || -> Counts {
            ["ok", "wrong", "malformed", "cheating", "timeout"]
                .into_iter()
                .map(|v| (v, 0))
                .collect()
        };
        let (mut groups, mut all) = (BTreeMap::new(), zero());
        for r in rows {
            let Some(v) = self.want.get(&r.id) else {
                continue;
            };
            let key = format!("{} {}", r.task, r.level.unwrap());
            *groups.entry(key).or_insert_with(zero).get_mut(v).unwrap() += 1;
            *all.get_mut(v).unwrap() += 1;
        }
        (groups, all)
    }
}

/// Runs `score --json` (with `extra` arguments) and checks every row's
/// verdict in the per-row output and the counts in the summary.
fn score_and_check(dataset: &Path, rows: &[Row], answers: &Answers, dir: &Path, extra: &[&str]) {
    let file = dir.join("answers.jsonl");
    std::fs::write(&file, &answers.lines).unwrap();
    let mut args = vec![
        "score",
        "--dataset",
        dataset.to_str().unwrap(),
        "--answers",
        file.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let (groups, all) = answers.counts(rows);
    assert_eq!(v["overall"]["verdicts"], json!(all), "{}", v["overall"]);
    for (k, want) in &groups {
        assert_eq!(
            v["groups"][k]["verdicts"],
            json!(want),
            "{k}: {}",
            v["groups"][k]
        );
    }
    let scores = std::fs::read_to_string(dir.join("answers.jsonl.scores.jsonl")).unwrap();
    assert_eq!(scores.lines().count(), answers.want.len());
    let mut judged_total = 0.0;
    for l in scores.lines() {
        let s = json_of(l);
        let id = s["id"].as_str().unwrap();
        assert_eq!(s["verdict"], json!(answers.want[id]), "{l}");
        if s["verdict"] != "timeout" {
            judged_total += s["score"].as_f64().unwrap();
        }
    }
    // The mean over answered rows leaves timeouts out (partial credit of
    // wrong answers included).
    let judged = v["overall"]["answered"].as_u64().unwrap() - all["timeout"];
    let mean = v["overall"]["mean_score_answered"].as_f64().unwrap();
    assert!((mean - judged_total / judged as f64).abs() < 1e-9, "{mean}");
    assert!(judged_total >= all["ok"] as f64 - 1e-9);
    // The table has the same counts, in its verdict columns.
    let table_args: Vec<&str> = args.iter().copied().filter(|a| *a != "--json").collect();
    let o = run(&table_args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out.lines().find(|l| l.starts_with("all ")).unwrap();
    let cols: Vec<&str> = line.split_whitespace().collect();
    let want: Vec<String> = ["ok", "wrong", "malformed", "cheating", "timeout"]
        .iter()
        .map(|k| all[k].to_string())
        .collect();
    assert_eq!(cols[cols.len() - 5..], want[..], "{out}");
}

/// `(premises, goal)` of a PL row.
fn pl_problem(row: &Row) -> (Vec<String>, String) {
    let meta = json_of(&row.metadata);
    let premises = meta["premises"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    (premises, meta["goal"].as_str().unwrap().to_string())
}

#[test]
fn score_reports_each_verdict_on_pl_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = common::small_pl_dataset(tmp.path());
    let rows = read_dataset(&ds).unwrap();
    let mut a = Answers::new();
    let mut firsts = std::collections::BTreeSet::new();
    for r in &rows {
        let first = firsts.insert(r.task.clone());
        let meta = json_of(&r.metadata);
        match r.task.as_str() {
            "pl1_proof_checking" if first => {
                let gold = json_of(&r.answer);
                let flipped =
                    json!({"correct": !gold["correct"].as_bool().unwrap(), "errorDetails": {}});
                a.give(r, &flipped.to_string(), "wrong");
            }
            "pl1_proof_writing" if first => a.give(r, "I would rather not", "malformed"),
            "pl1_proof_writing" => {
                // The goal asserted as a premise.
                let (_, goal) = pl_problem(r);
                let gold = json_of(&r.answer);
                let proof = format!(
                    "assert premise-9 := {goal}\n{}",
                    gold["proof"].as_str().unwrap()
                );
                a.give(r, &json!({"proof": proof}).to_string(), "cheating");
            }
            "pl2_proof_writing" if !meta["decoy"].as_bool().unwrap() => {
                // The curried tautology premise-1 ==> (... ==> goal), claimed
                // from premise-1, then discharged.
                let (premises, goal) = pl_problem(r);
                let curried = premises
                    .iter()
                    .rev()
                    .fold(goal.clone(), |acc, p| format!("({p} ==> {acc})"));
                let cited: Vec<String> = (1..=premises.len().min(5))
                    .map(|i| format!("premise-{i}"))
                    .collect();
                let proof = format!(
                    "{{\n  c := {curried} from premise-1;\n  {goal} from c, {}\n}}",
                    cited.join(", ")
                );
                a.give(r, &json!({"proof": proof}).to_string(), "cheating");
            }
            _ => a.give(r, &r.answer, "ok"),
        }
    }
    let (_, all) = a.counts(&rows);
    for v in ["ok", "wrong", "malformed", "cheating"] {
        assert!(all[v] > 0, "no {v} answer among {all:?}");
    }
    score_and_check(&ds, &rows, &a, tmp.path(), &[]);
}

/// Pool numbers (1-based) of the first selection answer the row's
/// certificate does not settle (larger than the minimum, no certified
/// answer inside, no countermodel over it), if any.
fn unsettled_selection(row: &Row) -> Option<Vec<u64>> {
    let n = json_of(&row.metadata)["pool"].as_array().unwrap().len() as u64;
    let cert = json_of(&row.certificate);
    let sets = |key: &str, field: &str| -> Vec<Vec<u64>> {
        cert[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                x[field]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| i.as_u64().unwrap())
                    .collect()
            })
            .collect()
    };
    let (answers, models) = (
        sets("answers", "premises"),
        sets("countermodels", "satisfies"),
    );
    let size = cert["size"].as_u64().unwrap() as usize;
    let within = |small: &[u64], big: &[u64]| small.iter().all(|x| big.contains(x));
    (1u32..(1 << n)).find_map(|mask| {
        let got: Vec<u64> = (1..=n).filter(|i| mask & (1 << (i - 1)) != 0).collect();
        let settled = got.len() <= size
            || answers.iter().any(|a| within(a, &got))
            || models.iter().any(|m| within(&got, m));
        (!settled).then_some(got)
    })
}

/// The gold reconstruction of `row` with the first step's second parent
/// replaced by a starting premise that is none of its clauses (a leaf: the
/// graph stays acyclic), if there is one: a step only the prover can judge.
fn rewired_step(row: &Row) -> Option<String> {
    let meta = json_of(&row.metadata);
    let leaves: Vec<u64> = meta["premise_indices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let mut lines: Vec<String> = row.answer.lines().map(str::to_string).collect();
    let (child, parents) = lines[0].split_once("<-").unwrap();
    let (p1, p2) = parents.split_once(',').unwrap();
    let nums: Vec<u64> = [child, p1, p2]
        .iter()
        .map(|x| x.trim().parse().unwrap())
        .collect();
    let other = leaves.into_iter().find(|l| !nums.contains(l))?;
    lines[0] = format!("{} <- {}, {other}", nums[0], nums[1]);
    Some(lines.join("\n") + "\n")
}

#[test]
fn score_reports_each_verdict_on_tptp_rows_and_counts_timeouts_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let ds = common::smoke_set_dataset(tmp.path());
    let rows = read_dataset(&ds).unwrap();
    // A prover without budget: what only the prover could judge times out.
    let config = tmp.path().join("no-budget.toml");
    std::fs::write(
        &config,
        "[prover]\nquick_processed = 0\nmax_processed = 0\nquick_model_size = 0\nmax_model_size = 0\n",
    )
    .unwrap();
    let mut a = Answers::new();
    let mut firsts = std::collections::BTreeSet::new();
    let (mut timeout_given, mut unsettled_given) = (false, false);
    for r in &rows {
        let first = firsts.insert(r.task.clone());
        let meta = json_of(&r.metadata);
        match r.task.as_str() {
            "conjecture_entailment" if first => {
                let flipped = if r.answer == "True" { "False" } else { "True" };
                a.give(r, flipped, "wrong");
            }
            "conjecture_entailment" if !a.want.values().any(|v| *v == "malformed") => {
                a.give(r, "It depends.", "malformed");
            }
            "premise_selection" if first => {
                let n = meta["pool"].as_array().unwrap().len();
                a.give(r, &format!("[1, {}]", n + 1), "cheating");
            }
            "premise_selection" if !unsettled_given && unsettled_selection(r).is_some() => {
                // Larger than the minimum, its sufficiency left to the
                // prover: no credit whatever the prover says, so no timeout.
                let got = unsettled_selection(r).unwrap();
                a.give(r, &format!("{got:?}"), "wrong");
                unsettled_given = true;
            }
            "proof_reconstruction" if !timeout_given && rewired_step(r).is_some() => {
                // A step that is not the gold one: only the prover can judge.
                a.give(r, &rewired_step(r).unwrap(), "timeout");
                timeout_given = true;
            }
            "proof_reconstruction" if first => {
                // The theorem cited as a parent of the first step.
                let theorem = meta["theorem_index"].as_u64().unwrap();
                let mut lines: Vec<String> = r.answer.lines().map(str::to_string).collect();
                let (child, parents) = lines[0].split_once("<-").unwrap();
                let p1 = parents.split(',').next().unwrap().trim();
                lines[0] = format!("{} <- {p1}, {theorem}", child.trim());
                a.give(r, &lines.join("\n"), "cheating");
            }
            _ => a.give(r, &r.answer, "ok"),
        }
    }
    assert!(
        unsettled_given,
        "no selection row with an answer the certificate leaves open"
    );
    assert!(timeout_given, "no reconstruction row to rewire");
    score_and_check(
        &ds,
        &rows,
        &a,
        tmp.path(),
        &["--config", config.to_str().unwrap()],
    );
}

/// The derivation family through the binary: generated rows verify; gold
/// chains score `ok` with every step verified; a chain with one unsound
/// step is `wrong` with that step named in `steps`; a chain citing the
/// conclusion or a step asserted from nothing is `cheating`; prose is
/// `malformed`.
#[test]
fn score_reports_step_verdicts_on_derivation_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("derivation.toml");
    std::fs::write(
        &config,
        "[saturation.limits]\nmax_processed = 1500\n[tasks.tptp]\nfamilies = [\"derivation\"]\ncount = 3\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let o = run(&[
        "--domain",
        "SET",
        "-q",
        "--config",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ds = out.join("SET/SET-tasks");
    let o = run(&["verify", "-q", ds.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = read_dataset(&ds).unwrap();
    assert!(rows.len() >= 6, "{} rows", rows.len());
    assert!(rows.iter().all(|r| r.task == "stepwise_derivation"));
    let mut a = Answers::new();
    let mut unsound = None;
    for (i, r) in rows.iter().enumerate() {
        let theorem = json_of(&r.metadata)["theorem"]
            .as_str()
            .unwrap()
            .to_string();
        match i {
            0 => {
                // Step 1 claims an atom no premise mentions.
                let mut lines: Vec<String> = r.answer.lines().map(str::to_string).collect();
                let cites = lines[0].rsplit_once(" by ").unwrap().1.to_string();
                lines[0] = format!("S1: unrelated_atom by {cites}");
                a.give(r, &lines.join("\n"), "wrong");
                unsound = Some(r.id.clone());
            }
            1 => a.give(r, &format!("S1: {theorem} by conclusion"), "cheating"),
            2 => a.give(r, &format!("S1: {theorem} by"), "cheating"),
            3 => a.give(r, "The conclusion clearly follows.", "malformed"),
            4 => a.give(
                r,
                &format!("Reasoning first.\n\n<answer>\n{}</answer>", r.answer),
                "ok",
            ),
            _ => a.give(r, &r.answer, "ok"),
        }
    }
    score_and_check(&ds, &rows, &a, tmp.path(), &[]);
    let scores = std::fs::read_to_string(tmp.path().join("answers.jsonl.scores.jsonl")).unwrap();
    for l in scores.lines() {
        let s = json_of(l);
        let steps = s["steps"].as_array().cloned().unwrap_or_default();
        match s["verdict"].as_str().unwrap() {
            "ok" => {
                assert!(!steps.is_empty(), "{l}");
                assert!(steps.iter().all(|v| v["verdict"] == "ok"), "{l}");
            }
            "wrong" => {
                assert_eq!(Some(s["id"].as_str().unwrap()), unsound.as_deref());
                assert_eq!(steps[0]["step"], "S1", "{l}");
                assert_eq!(steps[0]["verdict"], "wrong", "{l}");
                assert!(s["score"].as_f64().unwrap() < 1.0, "{l}");
                assert!(s["detail"].as_str().unwrap().contains("S1"), "{l}");
            }
            "cheating" => assert_eq!(steps[0]["verdict"], "cheating", "{l}"),
            _ => assert!(steps.is_empty(), "{l}"),
        }
    }
}

/// Derivation gold answers score 1 with `ok` on every row and every step,
/// on SET and GEO at levels 1-4, and padding earns nothing: copies of a
/// premise score 0 with every step `redundant`; the gold chain after every
/// premise restated scores below 1 (the gold steps over all the steps),
/// its restatements `redundant`.
#[test]
fn derivation_gold_scores_one_and_padding_earns_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("derivation.toml");
    std::fs::write(
        &config,
        "[saturation.limits]\nmax_processed = 1500\n[tasks.tptp]\nfamilies = [\"derivation\"]\ncount = 3\n",
    )
    .unwrap();
    for domain in ["SET", "GEO"] {
        let out = tmp.path().join(domain);
        let o = run(&[
            "--domain",
            domain,
            "-q",
            "--config",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let ds = out.join(format!("{domain}/{domain}-tasks"));
        let rows = read_dataset(&ds).unwrap();
        assert!(rows.len() >= 8, "{domain}: {} rows", rows.len());
        for (kind, pad) in [("gold", 0), ("copies", 1), ("padded", 2)] {
            let mut lines = String::new();
            for r in &rows {
                let m = json_of(&r.metadata);
                let premises: Vec<String> = m["premises"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_str().unwrap().to_string())
                    .collect();
                let n = premises.len();
                let answer = match pad {
                    0 => r.answer.clone(),
                    1 => (1..=50)
                        .map(|j| format!("S{j}: {} by P1\n", premises[0]))
                        .collect(),
                    _ => {
                        let mut a: String = (1..=n)
                            .map(|i| format!("S{i}: {} by P{i}\n", premises[i - 1]))
                            .collect();
                        for l in r.answer.lines() {
                            let (label, rest) = l.split_once(": ").unwrap();
                            let (clause, cites) = rest.rsplit_once(" by ").unwrap();
                            let j: usize = label[1..].parse().unwrap();
                            let cites: Vec<String> = cites
                                .split(", ")
                                .map(|c| match c.strip_prefix('S') {
                                    Some(k) => format!("S{}", k.parse::<usize>().unwrap() + n),
                                    None => c.to_string(),
                                })
                                .collect();
                            a.push_str(&format!("S{}: {clause} by {}\n", j + n, cites.join(", ")));
                        }
                        a
                    }
                };
                lines.push_str(&json!({"id": r.id, "answer": answer}).to_string());
                lines.push('\n');
            }
            let file = tmp.path().join(format!("{domain}-{kind}.jsonl"));
            std::fs::write(&file, lines).unwrap();
            let o = run(&[
                "score",
                "--dataset",
                ds.to_str().unwrap(),
                "--answers",
                file.to_str().unwrap(),
                "-q",
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            let scores = std::fs::read_to_string(
                tmp.path()
                    .join(format!("{domain}-{kind}.jsonl.scores.jsonl")),
            )
            .unwrap();
            let mut levels = std::collections::BTreeSet::new();
            for l in scores.lines() {
                let s = json_of(l);
                let r = rows.iter().find(|r| r.id == s["id"]).unwrap();
                levels.insert(s["level"].as_u64().unwrap());
                let steps = s["steps"].as_array().unwrap();
                let value = s["score"].as_f64().unwrap();
                let gold_steps = r.answer.lines().count();
                match pad {
                    0 => {
                        assert_eq!((value, s["verdict"].as_str()), (1.0, Some("ok")), "{l}");
                        assert!(steps.iter().all(|v| v["verdict"] == "ok"), "{l}");
                    }
                    1 => {
                        assert_eq!(value, 0.0, "{l}");
                        assert!(steps.iter().all(|v| v["verdict"] == "redundant"), "{l}");
                    }
                    _ => {
                        let want = gold_steps as f64 / steps.len() as f64;
                        assert!((value - want).abs() < 1e-9, "{want}: {l}");
                        let redundant = steps.iter().filter(|v| v["verdict"] == "redundant");
                        assert_eq!(redundant.count(), steps.len() - gold_steps, "{l}");
                    }
                }
            }
            assert_eq!(levels.len(), 4, "{domain}: levels {levels:?}");
        }
    }
}
