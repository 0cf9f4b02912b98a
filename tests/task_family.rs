//! The task-family abstraction end to end with a toy family registered
//! only here: generation, sharding, `--jobs` independence, scoring and
//! verification come from the shared loop and registry with no other change.

use saturate::dataset::Record;
use saturate::pipeline::generate::{LoopSettings, run_generators};
use saturate::pipeline::score::{read_dataset, score_answers_with, verify_dataset_with};
use saturate::prover::ProverLimits;
use saturate::tasks::family::{
    Attempt, Balance, BalanceRule, Built, Cell, ConfigInfo, Fill, Generator, RejectReason,
    SEEN_STRIDE, ScoreContext, Seen, TaskFamily, Worker,
};
use saturate::tasks::instance_rng;
use saturate::tasks::registry::Registry;
use saturate::tasks::{Score, TaskError};
use std::collections::BTreeMap;
use std::path::Path;

mod common;

/// Toy task: is a number's digit sum even? Metadata holds the number, so
/// verification recomputes the label from the row alone.
struct Parity;
static PARITY: Parity = Parity;

struct TooSmall;
impl RejectReason for TooSmall {
    fn name(&self) -> &'static str {
        "too_small"
    }
}

fn label(n: u64) -> &'static str {
    let s: u64 = n.to_string().bytes().map(|b| u64::from(b - b'0')).sum();
    if s % 2 == 0 { "True" } else { "False" }
}

fn number(row: &Record) -> Result<u64, String> {
    let v: serde_json::Value = serde_json::from_str(&row.metadata).map_err(|e| e.to_string())?;
    v["n"].as_u64().ok_or_else(|| "no n".to_string())
}

/// The toy row for `n`: the question, its label, `n` in the metadata.
fn parity_row(n: u64, group: Option<String>, stats: Vec<(&'static str, f64)>) -> Built {
    Built {
        prompt: format!("Is the digit sum of {n} even? Answer True or False."),
        answer: label(n).into(),
        metadata: serde_json::json!({ "n": n }).into(),
        certificate: "{}".into(),
        key: n.to_string(),
        group,
        label: label(n).into(),
        domain: None,
        source: Some("toy".into()),
        stats,
        difficulty: Vec::new(),
    }
}

/// One level-1 cell of `count` rows over up to 200 candidates.
fn toy_cell(count: u64, patience: Option<u64>) -> Vec<Cell> {
    vec![Cell {
        config: "digit_parity",
        group: "TOY".into(),
        level: 1,
        count,
        fill: Fill::UntilFull {
            budget: 200,
            patience,
        },
        tag: 0,
    }]
}

impl TaskFamily for Parity {
    fn name(&self) -> &'static str {
        "digits"
    }
    fn configs(&self) -> Vec<ConfigInfo> {
        vec![ConfigInfo {
            name: "digit_parity",
            description: "Is the digit sum even?",
        }]
    }
    fn score(&self, row: &Record, answer: &str, _: &mut ScoreContext) -> Score {
        match answer.trim() {
            "True" | "False" if answer.trim() == row.answer => Score::correct(),
            "True" | "False" => Score::wrong("wrong label"),
            _ => Score::malformed("expected True or False"),
        }
    }
    fn verify(&self, row: &Record) -> Result<String, TaskError> {
        let n = number(row).map_err(TaskError::Record)?;
        if label(n) == row.answer {
            Ok(format!("digit sum of {n}"))
        } else {
            Err(TaskError::Rejected(format!(
                "label {} is wrong for {n}",
                row.answer
            )))
        }
    }
}

struct ParityRun {
    seed: u64,
    count: u64,
    /// Most rows per label in a cell (the label is the row's group).
    cap: Option<u64>,
}

impl Generator for ParityRun {
    fn family(&self) -> &dyn TaskFamily {
        &PARITY
    }
    fn version(&self) -> &'static str {
        "toy-1"
    }
    fn cells(&self) -> Vec<Cell> {
        (1..=3)
            .map(|level| Cell {
                config: "digit_parity",
                group: "TOY".into(),
                level,
                count: self.count,
                fill: Fill::UntilFull {
                    budget: self.count * 20,
                    patience: None,
                },
                tag: 0,
            })
            .collect()
    }
    fn build(&self, cell: &Cell, index: u64, _: &mut Worker) -> Attempt {
        use rand::Rng;
        let mut rng = instance_rng(self.seed, &["toy", &cell.level.to_string()], index);
        // Small ranges make duplicates, which the loop must skip per cell.
        let n: u64 = rng.random_range(0..10u64.pow(u32::from(cell.level) + 1));
        if n < 3 {
            return Attempt::rejected(&TooSmall);
        }
        Attempt::built(parity_row(
            n,
            self.cap.map(|_| label(n).to_string()),
            vec![("digits", n.to_string().len() as f64)],
        ))
    }
    fn max_per_group(&self, _: &Cell) -> Option<u64> {
        self.cap
    }
    fn manifest(&self) -> serde_json::Value {
        serde_json::json!({ "count": self.count })
    }
}

fn run(dir: &Path, jobs: usize, shard: Option<(u64, u64)>) {
    let g = ParityRun {
        seed: 3,
        count: 40,
        cap: None,
    };
    let settings = LoopSettings {
        jobs,
        shard,
        ..LoopSettings::default()
    };
    let s = run_generators(dir, "toy", 3, &[&g], &settings, 16).unwrap();
    if shard.is_none() {
        assert_eq!(s.total_rows, 120, "{}", s.render());
        assert!(
            s.duplicates > 0,
            "level 1 has only 97 numbers: duplicates expected"
        );
    }
}

/// Rows of a dataset by id (shard files and splits do not matter here).
fn rows(dir: &Path) -> BTreeMap<String, (String, String, String)> {
    read_dataset(dir)
        .unwrap()
        .into_iter()
        .map(|r| (r.id.clone(), (r.prompt, r.answer, r.metadata)))
        .collect()
}

#[test]
fn a_toy_family_gets_generation_sharding_scoring_and_verification() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one");
    let two = tmp.path().join("two");
    run(&one, 1, None);
    run(&two, 2, None);
    assert_eq!(
        common::files(&one),
        common::files(&two),
        "--jobs changed bytes"
    );

    // The shards' rows together are exactly the unsharded run's.
    let mut union = BTreeMap::new();
    for i in 1..=2 {
        let d = tmp.path().join(format!("shard{i}"));
        run(&d, 2, Some((i, 2)));
        let r = rows(&d);
        assert!(!r.is_empty());
        for (k, v) in r {
            assert!(union.insert(k, v).is_none(), "a row in two shards");
        }
    }
    assert_eq!(union, rows(&one));

    // Ids follow the one scheme; the summary counts per cell.
    let all = rows(&one);
    assert!(
        all.keys().all(|id| id.starts_with("digit_parity-TOY-L")),
        "{all:?}"
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(one.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["total_rows"], 120);
    assert_eq!(summary["cells"]["digit_parity TOY L1"]["written"], 40);

    // Verification and scoring go through the registry.
    let registry = Registry::builtin().with(&PARITY);
    let v = verify_dataset_with(&one, &registry).unwrap();
    assert!(v.failures.is_empty(), "{:?}", v.failures);
    assert_eq!(v.checked["digit_parity"], 120);
    let unknown = verify_dataset_with(&one, &Registry::builtin()).unwrap();
    assert_eq!(unknown.skipped["digit_parity"], 120);

    let answers = tmp.path().join("answers.jsonl");
    let mut text = String::new();
    for (i, (id, (_, gold, _))) in all.iter().enumerate() {
        let a = if i % 2 == 0 {
            gold.clone()
        } else {
            "maybe".into()
        };
        text.push_str(&serde_json::json!({ "id": id, "answer": a }).to_string());
        text.push('\n');
    }
    std::fs::write(&answers, text).unwrap();
    let out = tmp.path().join("scores.jsonl");
    let s = score_answers_with(&one, &answers, &out, ProverLimits::default(), &registry).unwrap();
    let perfect: usize = s.groups.values().map(|g| g.perfect).sum();
    let malformed: usize = s.groups.values().map(|g| g.malformed).sum();
    assert_eq!((perfect, malformed), (60, 60));

    // A tampered label fails verification.
    let mut row = read_dataset(&one).unwrap().remove(0).to_record();
    row.answer = if row.answer == "True" {
        "False"
    } else {
        "True"
    }
    .into();
    assert!(PARITY.verify(&row).is_err());
}

/// Rows that share a group (here: a label) are limited per cell; the rest
/// are counted as repeats, and the cell still fills when the groups allow,
/// with the same bytes at any thread count.
#[test]
fn rows_per_group_are_limited_per_cell() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |jobs: usize, cap: u64, count: u64| {
        let dir = tmp.path().join(format!("cap{cap}-{count}-j{jobs}"));
        let g = ParityRun {
            seed: 3,
            count,
            cap: Some(cap),
        };
        let settings = LoopSettings {
            jobs,
            ..LoopSettings::default()
        };
        let s = run_generators(&dir, "toy", 3, &[&g], &settings, 16).unwrap();
        (dir, s)
    };
    // Two labels, at most 6 rows each: 12 of 20 per cell.
    let (one, s) = run(1, 6, 20);
    assert_eq!(s.total_rows, 36, "{}", s.render());
    assert!(s.repeats > 0);
    for c in s.cells.values() {
        assert_eq!(c.written, 12);
        assert_eq!(c.labels.values().copied().collect::<Vec<_>>(), [6, 6]);
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(one.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["repeats"], s.repeats);
    let (two, _) = run(2, 6, 20);
    assert_eq!(
        common::files(&one),
        common::files(&two),
        "--jobs changed bytes"
    );
    // A limit the cells never reach changes nothing but the absence of
    // repeats.
    let (_, s) = run(1, 40, 20);
    assert_eq!((s.total_rows, s.repeats), (60, 0));
}

/// Every row of a dataset, by id, with all its text.
fn full_rows(dir: &Path) -> BTreeMap<String, Record> {
    read_dataset(dir)
        .unwrap()
        .into_iter()
        .map(|r| (r.id.clone(), r.to_record()))
        .collect()
}

fn records_eq(a: &BTreeMap<String, Record>, b: &BTreeMap<String, Record>) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|((ka, ra), (kb, rb))| {
            ka == kb
                && (ra.prompt == rb.prompt)
                && (ra.answer == rb.answer)
                && (ra.metadata == rb.metadata)
                && (ra.certificate == rb.certificate)
                && (ra.domain == rb.domain)
                && (ra.source == rb.source)
                && (ra.level == rb.level)
        })
}

#[test]
fn shards_and_jobs_for_pl_pl2_and_eq() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, args) in [
        ("eq", vec!["eq", "--count", "3", "--levels", "1,2"]),
        (
            "pl",
            vec![
                "pl",
                "--families",
                "pl1,pl2",
                "--count",
                "2",
                "--levels",
                "1,2",
                "--sizes",
                "1",
                "--pl2-families",
                "pyramid_pebbling,horn_chain",
            ],
        ),
    ] {
        let out = |tag: &str, extra: &[&str]| {
            let d = tmp.path().join(format!("{name}-{tag}"));
            let o = common::saturate()
                .args(&args)
                .args(extra)
                .arg("-q")
                .arg("--out")
                .arg(&d)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{name} {extra:?}: {}",
                common::stderr(&o)
            );
            d
        };
        let one = out("j1", &["--jobs", "1"]);
        let two = out("j2", &["--jobs", "2"]);
        assert_eq!(
            common::files(&one),
            common::files(&two),
            "{name}: --jobs 1 and 2 differ"
        );
        let whole = full_rows(&one);
        assert!(!whole.is_empty());
        let mut union = BTreeMap::new();
        for i in 1..=2 {
            let d = out(
                &format!("s{i}"),
                &["--shard", &format!("{i}/2"), "--jobs", "2"],
            );
            for (k, v) in full_rows(&d) {
                assert!(union.insert(k, v).is_none(), "{name}: a row in two shards");
            }
        }
        assert!(
            records_eq(&union, &whole),
            "{name}: shards differ from the whole run"
        );
    }
}

/// A toy run over groups whose builds read what `enter_group` loaded:
/// the loop must enter a group before building its cells and leave it
/// afterwards, one group at a time, even when the group changes between
/// cells of one config.
struct GroupedRun {
    /// The group entered, if any.
    entered: std::sync::Mutex<Option<String>>,
    /// "enter X" / "leave X" in order.
    log: std::sync::Mutex<Vec<String>>,
}

impl Generator for GroupedRun {
    fn family(&self) -> &dyn TaskFamily {
        &PARITY
    }
    fn version(&self) -> &'static str {
        "toy-grouped-1"
    }
    fn cells(&self) -> Vec<Cell> {
        ["A", "B", "C"]
            .iter()
            .flat_map(|g| {
                (1..=2).map(|level| Cell {
                    config: "digit_parity",
                    group: g.to_string(),
                    level,
                    count: 3,
                    fill: Fill::Slots,
                    tag: 0,
                })
            })
            .collect()
    }
    fn build(&self, cell: &Cell, index: u64, _: &mut Worker) -> Attempt {
        let entered = self.entered.lock().unwrap().clone();
        assert_eq!(entered.as_deref(), Some(cell.group.as_str()));
        let n = 10 + index + 100 * u64::from(cell.level);
        Attempt::built(Built {
            prompt: format!("{} {n}", cell.group),
            answer: label(n).into(),
            metadata: serde_json::json!({ "n": n }).into(),
            certificate: "{}".into(),
            key: n.to_string(),
            group: None,
            label: label(n).into(),
            domain: Some(cell.group.clone()),
            source: None,
            stats: Vec::new(),
            difficulty: Vec::new(),
        })
    }
    fn manifest(&self) -> serde_json::Value {
        serde_json::json!({})
    }
    fn enter_group(&self, group: &str) -> Result<(), saturate::tasks::error::GeneratorError> {
        let mut e = self.entered.lock().unwrap();
        assert!(e.is_none(), "{group} entered while {e:?} is");
        *e = Some(group.to_string());
        self.log.lock().unwrap().push(format!("enter {group}"));
        Ok(())
    }
    fn leave_group(&self, group: &str) {
        let mut e = self.entered.lock().unwrap();
        assert_eq!(e.as_deref(), Some(group));
        *e = None;
        self.log.lock().unwrap().push(format!("leave {group}"));
    }
}

#[test]
fn groups_are_entered_and_left_one_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    for (tag, shard) in [("all", None), ("s2", Some((2, 2)))] {
        let g = GroupedRun {
            entered: std::sync::Mutex::new(None),
            log: std::sync::Mutex::new(Vec::new()),
        };
        let settings = LoopSettings {
            jobs: 2,
            shard,
            ..LoopSettings::default()
        };
        let s = run_generators(&tmp.path().join(tag), "toy", 1, &[&g], &settings, 16).unwrap();
        assert_eq!(s.bugs_found(), 0, "{}", s.render());
        let log = g.log.into_inner().unwrap();
        // Shard 2 of 2 holds each group's level-2 cell only.
        assert_eq!(
            log,
            [
                "enter A", "leave A", "enter B", "leave B", "enter C", "leave C"
            ],
            "{tag}"
        );
        assert_eq!(s.total_rows, if shard.is_none() { 18 } else { 9 });
    }
}

/// The number [`SeeingRun`]'s slot `index` draws.
fn seeing_number(index: u64) -> u64 {
    use rand::Rng;
    instance_rng(5, &["seeing"], index).random_range(10..1000u64)
}

/// A toy run whose candidates read the walk ([`Seen`]): each row's group
/// is its number's last digit (ten groups, at most two rows each), a
/// candidate whose group the state at its stride's start already has two
/// rows of stops early, and every candidate notes its group. The prompt
/// records what the candidate read, so the test can check it against the
/// rows written before the stride began.
struct SeeingRun;

struct Repeat;
impl RejectReason for Repeat {
    fn name(&self) -> &'static str {
        "repeat"
    }
}

impl Generator for SeeingRun {
    fn family(&self) -> &dyn TaskFamily {
        &PARITY
    }
    fn version(&self) -> &'static str {
        "toy-seeing-1"
    }
    fn cells(&self) -> Vec<Cell> {
        toy_cell(20, None)
    }
    fn build(&self, cell: &Cell, index: u64, worker: &mut Worker) -> Attempt {
        self.build_seeing(cell, index, worker, &Seen::default())
    }
    fn sees_walk(&self, _: &Cell) -> bool {
        true
    }
    fn sees_keys(&self, _: &Cell) -> bool {
        true
    }
    fn build_seeing(&self, _: &Cell, index: u64, _: &mut Worker, seen: &Seen) -> Attempt {
        let n = seeing_number(index);
        let group = (n % 10).to_string();
        let rows = seen.group_rows(&group);
        let noted = seen.notes("digit").len();
        // The keys (numbers) earlier strides built.
        let keys: Vec<u64> = (10..1000u64)
            .filter(|k| seen.has_key(&k.to_string()))
            .collect();
        let mut out = if rows >= 2 {
            Attempt::rejected(&Repeat)
        } else {
            Attempt::built(Built {
                prompt: format!("{n} {index} {rows} {noted}"),
                answer: label(n).into(),
                metadata: serde_json::json!({
                    "n": n, "index": index, "rows": rows, "noted": noted, "keys": keys
                })
                .into(),
                certificate: "{}".into(),
                key: n.to_string(),
                group: Some(group.clone()),
                label: label(n).into(),
                domain: None,
                source: Some("toy".into()),
                stats: Vec::new(),
                difficulty: Vec::new(),
            })
        };
        out.notes.push(("digit".into(), group));
        out
    }
    fn max_per_group(&self, _: &Cell) -> Option<u64> {
        Some(2)
    }
    fn manifest(&self) -> serde_json::Value {
        serde_json::json!({})
    }
}

#[test]
fn candidates_read_the_walk_as_it_stood_at_their_stride() {
    let tmp = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for jobs in [1, 3] {
        let dir = tmp.path().join(format!("j{jobs}"));
        let settings = LoopSettings {
            jobs,
            ..LoopSettings::default()
        };
        let s = run_generators(&dir, "toy", 1, &[&SeeingRun], &settings, 16).unwrap();
        assert_eq!(s.bugs_found(), 0, "{}", s.render());
        runs.push(dir);
    }
    assert_eq!(
        common::files(&runs[0]),
        common::files(&runs[1]),
        "--jobs changed bytes"
    );
    // (index, group, rows read, notes read) of every row written, in
    // index order.
    let mut written: Vec<(u64, u64, u64, u64)> = read_dataset(&runs[0])
        .unwrap()
        .iter()
        .map(|r| {
            let v: serde_json::Value = serde_json::from_str(&r.metadata).unwrap();
            (
                v["index"].as_u64().unwrap(),
                v["n"].as_u64().unwrap() % 10,
                v["rows"].as_u64().unwrap(),
                v["noted"].as_u64().unwrap(),
            )
        })
        .collect();
    written.sort_unstable();
    // Ten groups of at most two rows: the cell fills to 20 only if every
    // group does, and the walk skips what the early stops miss.
    assert!(written.len() <= 20 && written.len() >= 10, "{written:?}");
    assert!(
        written.iter().any(|w| w.0 >= SEEN_STRIDE),
        "the cell must run past its first stride: {written:?}"
    );
    for &(index, group, rows, noted) in &written {
        let start = index / SEEN_STRIDE * SEEN_STRIDE;
        let before = written
            .iter()
            .filter(|w| w.0 < start && w.1 == group)
            .count() as u64;
        assert_eq!(
            rows, before,
            "row {index} read {rows}, {before} written before its stride"
        );
        // Every candidate before the stride noted its group (written or
        // not): at least the groups written there, at most all ten, and
        // none from the stride itself.
        let groups: std::collections::BTreeSet<u64> = written
            .iter()
            .filter(|w| w.0 < start)
            .map(|w| w.1)
            .collect();
        assert!(
            noted >= groups.len() as u64 && noted <= 10,
            "row {index} read {noted} notes"
        );
        if start == 0 {
            assert_eq!(noted, 0, "row {index} of the first stride read notes");
        }
    }
    // The keys a candidate read: every row written before its stride, and
    // nothing no slot before the stride drew.
    let rows = read_dataset(&runs[0]).unwrap();
    for r in &rows {
        let v: serde_json::Value = serde_json::from_str(&r.metadata).unwrap();
        let index = v["index"].as_u64().unwrap();
        let start = index / SEEN_STRIDE * SEEN_STRIDE;
        let keys: std::collections::BTreeSet<u64> = v["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_u64().unwrap())
            .collect();
        let drawn: std::collections::BTreeSet<u64> = (0..start).map(seeing_number).collect();
        for &(i, ..) in written.iter().filter(|w| w.0 < start) {
            assert!(keys.contains(&seeing_number(i)), "row {index} missed {i}");
        }
        assert!(
            keys.is_subset(&drawn),
            "row {index} read keys of its stride"
        );
        if start > 0 {
            assert!(!keys.is_empty(), "row {index} read no keys");
        }
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(runs[0].join("summary.json")).unwrap()).unwrap();
    assert!(
        summary["cells"]["digit_parity TOY L1"]["rejects"]["repeat"]
            .as_u64()
            .is_some_and(|n| n > 0),
        "{summary}"
    );
}

/// A cell whose first rows are held back for their balance, then whose
/// slots all fail: `patience` fruitless slots end the walk, and the held
/// rows are offered once more (a held row is not fruitless, and is not
/// lost when the walk stops).
struct HeldRun {
    patience: u64,
}

impl Generator for HeldRun {
    fn family(&self) -> &dyn TaskFamily {
        &PARITY
    }
    fn version(&self) -> &'static str {
        "toy-held-1"
    }
    fn cells(&self) -> Vec<Cell> {
        toy_cell(10, Some(self.patience))
    }
    fn build(&self, _: &Cell, index: u64, _: &mut Worker) -> Attempt {
        if index >= 6 {
            return Attempt::rejected(&TooSmall);
        }
        Attempt::built(parity_row(10 + index, None, Vec::new()))
    }
    fn balanced_items(&self, _: &Cell, _: u64, _: &Built) -> Option<Balance> {
        // Every row has item "x" on its answer side: two rows within the
        // lead, two more within the lenient one.
        Some(Balance {
            lead: 2,
            items: vec![("x".into(), true)],
            rule: BalanceRule::AnswerSideHeld { hard: 4 },
        })
    }
    fn manifest(&self) -> serde_json::Value {
        serde_json::json!({ "patience": self.patience })
    }
}

#[test]
fn patience_ends_the_walk_and_the_held_rows_are_offered_once_more() {
    let tmp = tempfile::tempdir().unwrap();
    let settings = LoopSettings {
        jobs: 1,
        ..LoopSettings::default()
    };
    let s = run_generators(
        tmp.path(),
        "toy",
        3,
        &[&HeldRun { patience: 5 }],
        &settings,
        16,
    )
    .unwrap();
    let c = s.cells.values().next().unwrap();
    // Rows 0 and 1 are written, 2-5 held; slots 6-10 are fruitless, so
    // the walk stops there (the lenient slots start at 20) and offers the
    // held rows under the lenient lead: 2 and 3 are written, 4 and 5 not.
    assert_eq!(c.written, 4, "{}", s.render());
    // Slots 0-10 read: the held rows 2-5 did not count as fruitless.
    assert_eq!(c.candidates, 11, "{}", s.render());
    let ids: Vec<String> = rows(tmp.path()).into_keys().collect();
    assert_eq!(ids.len(), 4);
    for i in 0..4 {
        assert!(
            ids.iter().any(|id| id.ends_with(&format!("-{i:05}"))),
            "row {i} missing: {ids:?}"
        );
    }
}

/// A cell whose first 32 rows all have item "x" on their answer side
/// (lead 2, hard lead 4): rows 0-1 are written, 2-31 held. Slot 32 reads
/// the walk ([`Seen`]) as it will stand once the held rows are offered
/// again: rows 2-3 written (four in all), the 28 others still waiting on
/// "x"'s answer side; its own row has item "y" and records what it read.
/// Slots 33-39 stop as a row the walk would hold and skip
/// ([`Attempt::held`]): not fruitless before the lenient slots (from 40),
/// so patience 5 does not end the walk there.
struct WaitingRun;

impl Generator for WaitingRun {
    fn family(&self) -> &dyn TaskFamily {
        &PARITY
    }
    fn version(&self) -> &'static str {
        "toy-waiting-1"
    }
    fn cells(&self) -> Vec<Cell> {
        toy_cell(20, Some(5))
    }
    fn build(&self, cell: &Cell, index: u64, worker: &mut Worker) -> Attempt {
        self.build_seeing(cell, index, worker, &Seen::default())
    }
    fn sees_walk(&self, _: &Cell) -> bool {
        true
    }
    fn build_seeing(&self, _: &Cell, index: u64, _: &mut Worker, seen: &Seen) -> Attempt {
        match index {
            0..=31 => Attempt::built(parity_row(100 + index, None, Vec::new())),
            32 => {
                let (a, o) = seen.tally("x");
                let mut row = parity_row(100 + index, None, Vec::new());
                row.metadata =
                    serde_json::json!({ "a": a, "o": o, "written": seen.written() }).into();
                Attempt::built(row)
            }
            33..=39 => Attempt {
                held: true,
                ..Attempt::rejected(&Repeat)
            },
            _ => Attempt::rejected(&TooSmall),
        }
    }
    fn balanced_items(&self, _: &Cell, index: u64, _: &Built) -> Option<Balance> {
        let item = if index == 32 { "y" } else { "x" };
        Some(Balance {
            lead: 2,
            items: vec![(item.into(), true)],
            rule: BalanceRule::AnswerSideHeld { hard: 4 },
        })
    }
    fn manifest(&self) -> serde_json::Value {
        serde_json::json!({})
    }
}

#[test]
fn slots_read_the_walk_after_its_held_rows_and_held_stops_are_not_fruitless() {
    let tmp = tempfile::tempdir().unwrap();
    let settings = LoopSettings {
        jobs: 2,
        ..LoopSettings::default()
    };
    let s = run_generators(tmp.path(), "toy", 3, &[&WaitingRun], &settings, 16).unwrap();
    let c = s.cells.values().next().unwrap();
    // Rows 0-3 and 32. The seven held stops (33-39) did not end the walk
    // at patience 5 (it would have stopped after slot 37); at the lenient
    // slots the 28 held rows skipped for good are fruitless, and no slot
    // is read after them.
    assert_eq!(c.written, 5, "{}", s.render());
    assert_eq!(c.candidates, 40, "{}", s.render());
    let read: Vec<serde_json::Value> = read_dataset(tmp.path())
        .unwrap()
        .iter()
        .map(|r| serde_json::from_str(&r.metadata).unwrap())
        .filter(|v: &serde_json::Value| v.get("written").is_some())
        .map(|v| serde_json::json!({ "a": v["a"], "o": v["o"], "written": v["written"] }))
        .collect();
    assert_eq!(
        read,
        vec![serde_json::json!({ "a": 32, "o": 0, "written": 4 })],
        "slot 32 read the walk as it stands after the held rows"
    );
}
