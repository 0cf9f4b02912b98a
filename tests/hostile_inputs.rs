//! Hostile inputs and arguments at the command line: output paths that are
//! devices, links or inputs, out-of-range numbers, bad answer files,
//! corrupted datasets; each must end in a clear error (exit 2) or do the
//! right thing, never a panic, a hang or a replaced system file.

mod common;

use common::{run, saturate, stderr, stdout};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("saturate-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const AXIOMS: &str = "cnf(a, axiom, p(a)).\ncnf(b, axiom, ~p(X) | q(X)).\n";

fn axiom_file(dir: &Path) -> PathBuf {
    let f = dir.join("x.ax");
    std::fs::write(&f, AXIOMS).unwrap();
    f
}

#[test]
fn dev_null_as_out_stays_a_character_device() {
    let d = scratch("devnull");
    let f = axiom_file(&d);
    let o = run(&[
        "derive",
        f.to_str().unwrap(),
        "--out",
        "/dev/null",
        "--stats-json",
        "/dev/null",
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let meta = std::fs::metadata("/dev/null").unwrap();
    assert!(meta.file_type().is_char_device());
    let leftovers: Vec<_> = std::fs::read_dir("/dev")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".null.tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_symlinked_out_replaces_its_target_and_keeps_the_link() {
    let d = scratch("symlink");
    let f = axiom_file(&d);
    let target = d.join("real.p");
    std::fs::write(&target, "old").unwrap();
    let link = d.join("link.p");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = run(&[
        "derive",
        f.to_str().unwrap(),
        "--out",
        link.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read_to_string(&target).unwrap().contains("cnf("));
    // A dangling link is refused rather than replaced.
    let dangling = d.join("dangling.p");
    std::os::unix::fs::symlink(d.join("nowhere/x"), &dangling).unwrap();
    let o = run(&[
        "derive",
        f.to_str().unwrap(),
        "--out",
        dangling.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_fifo_as_out_is_written_not_replaced() {
    let d = scratch("fifo");
    let f = axiom_file(&d);
    let fifo = d.join("pipe.p");
    let st = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(st.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = run(&[
        "derive",
        f.to_str().unwrap(),
        "--out",
        fifo.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(reader.join().unwrap().contains("cnf("));
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn an_out_that_is_the_input_is_refused() {
    let d = scratch("same");
    let f = axiom_file(&d);
    let o = run(&[
        "derive",
        f.to_str().unwrap(),
        "--out",
        f.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), AXIOMS);
    // Through a hard link and a `..` detour too.
    let hard = d.join("hard.ax");
    std::fs::hard_link(&f, &hard).unwrap();
    let detour = d.join("../").join(d.file_name().unwrap()).join("hard.ax");
    let o = run(&[
        "derive",
        f.to_str().unwrap(),
        "--stats-json",
        detour.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), AXIOMS);
}

#[test]
fn out_of_range_numbers_are_input_errors() {
    let repro = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/repro/R09_weight_picks.toml");
    let cfg_arg;
    let mut cases: Vec<Vec<&str>> = vec![
        vec!["print-config", "--max-processed", "9223372036854775808"],
        vec!["print-config", "--max-generated", "18446744073709551615"],
        vec!["--domain", "SET", "--jobs", "100000"],
        vec!["--domain", "SET", "--count", "18446744073709551615"],
        vec!["pl", "--count", "18446744073709551615"],
        vec!["pl", "--jobs", "100000"],
        vec!["eq", "--count", "18446744073709551615"],
        vec!["prove", "--max-model-size", "4000000000", "x.p"],
    ];
    if repro.is_file() {
        cfg_arg = repro.to_str().unwrap().to_string();
        cases.push(vec!["print-config", "--config", &cfg_arg]);
    }
    for args in cases {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
    let d = scratch("cfg");
    let cfg = d.join("bad.toml");
    std::fs::write(
        &cfg,
        "seed = 1\n\n[saturation]\nweight_picks_per_age_pick = 4294967295\n",
    )
    .unwrap();
    let o = run(&["print-config", "--config", cfg.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("bad.toml:4:29:"), "{e}");
    assert!(e.contains("weight_picks_per_age_pick"), "{e}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn a_stale_status_comment_warns_but_does_not_fail() {
    let d = scratch("status");
    let p = d.join("stale.p");
    // Satisfiable, but the header claims Unsatisfiable (R14).
    std::fs::write(&p, "% Status   : Unsatisfiable\ncnf(a, axiom, p).\n").unwrap();
    let o = saturate().arg("prove").arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("SZS status Satisfiable"),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("warning"), "{}", stderr(&o));
    assert!(stderr(&o).contains("% Status"), "{}", stderr(&o));
}

/// A small PL1 dataset (4 rows, one shard per config) to tamper with.
fn small_dataset(name: &str) -> PathBuf {
    let d = scratch(name).join("ds");
    let o = run(&[
        "pl",
        "--count",
        "1",
        "--levels",
        "1",
        "-q",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    d
}

const SHARD: &str = "pl1_gap_filling/train-00000-of-00001.parquet";

/// Replaces a listed shard by a Parquet file of our own making and updates
/// the manifest (hash and row counts; the row fingerprint is dropped, as in
/// a manifest written before fingerprints, so the file hash is what is
/// compared) so that only the content can betray it.
fn forge_shard(ds: &Path, batch: arrow_array::RecordBatch) {
    use sha2::Digest;
    let mut bytes = Vec::new();
    let mut w = parquet::arrow::ArrowWriter::try_new(&mut bytes, batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    std::fs::write(ds.join(SHARD), &bytes).unwrap();
    let sha: String = sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let path = ds.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let rows = batch.num_rows() as u64;
    let cfg = &mut m["configs"]["pl1_gap_filling"];
    let old = cfg["rows"].as_u64().unwrap();
    cfg["rows"] = rows.into();
    cfg["splits"]["train"]["rows"] = rows.into();
    cfg["splits"]["train"]["shards"][0]["rows"] = rows.into();
    cfg["splits"]["train"]["shards"][0]["sha256"] = sha.into();
    let shard = cfg["splits"]["train"]["shards"][0].as_object_mut().unwrap();
    shard.remove("fingerprint");
    let total = m["total_rows"].as_u64().unwrap() - old + rows;
    m["total_rows"] = total.into();
    std::fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
}

fn string_batch(columns: &[&str], rows: &[Vec<Option<&str>>]) -> arrow_array::RecordBatch {
    use arrow_array::{ArrayRef, StringArray};
    use std::sync::Arc;
    let cols: Vec<(&str, ArrayRef)> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let a: ArrayRef = Arc::new(StringArray::from(
                rows.iter().map(|r| r[i]).collect::<Vec<_>>(),
            ));
            (*c, a)
        })
        .collect();
    arrow_array::RecordBatch::try_from_iter(cols).unwrap()
}

fn verify(ds: &Path) -> std::process::Output {
    saturate().arg("verify").arg(ds).output().unwrap()
}

fn assert_refused(ds: &Path, needle: &str) {
    let o = verify(ds);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains(needle), "{needle}: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn verify_checks_the_dataset_against_its_manifest() {
    let ds = small_dataset("verify-clean");
    let o = verify(&ds);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    let ds = small_dataset("verify-deleted");
    std::fs::remove_file(ds.join(SHARD)).unwrap();
    assert_refused(&ds, "is missing");

    let ds = small_dataset("verify-duplicated");
    std::fs::copy(
        ds.join(SHARD),
        ds.join("pl1_gap_filling/train-00001-of-00002.parquet"),
    )
    .unwrap();
    assert_refused(&ds, "not listed");

    let ds = small_dataset("verify-swapped");
    std::fs::copy(
        ds.join(SHARD),
        ds.join("pl1_proof_writing/train-00000-of-00001.parquet"),
    )
    .unwrap();
    // Its rows name another config: refused before any hash is compared.
    assert_refused(&ds, "in a shard of config");

    let ds = small_dataset("verify-lying");
    let m = ds.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    assert!(text.contains("\"total_rows\": 4"), "{text}");
    std::fs::write(&m, text.replace("\"total_rows\": 4", "\"total_rows\": 5")).unwrap();
    assert_refused(&ds, "total_rows");
}

#[test]
fn verify_never_opens_fifos_or_follows_links() {
    let ds = small_dataset("verify-fifo");
    let fifo = ds.join("pl1_gap_filling/extra.parquet");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    // Would block forever if the FIFO were opened for reading.
    assert_refused(&ds, "not a regular file");

    let ds = small_dataset("verify-loop");
    std::os::unix::fs::symlink("..", ds.join("pl1_gap_filling/loop")).unwrap();
    std::os::unix::fs::symlink(ds.join(SHARD), ds.join("pl1_gap_filling/link.parquet")).unwrap();
    assert_refused(&ds, "not a regular file");
    std::fs::remove_file(ds.join("pl1_gap_filling/link.parquet")).unwrap();
    let o = verify(&ds);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn verify_refuses_foreign_shards_and_null_or_duplicate_ids() {
    let ds = small_dataset("verify-foreign");
    forge_shard(
        &ds,
        string_batch(&["a", "b"], &[vec![Some("x"), Some("y")]]),
    );
    assert_refused(&ds, "not a saturate shard");

    // A shard of the nine-string-column schema of older versions.
    let ds = small_dataset("verify-old-schema");
    let nine: Vec<&str> = [
        "id",
        "task",
        "domain",
        "source",
        "level",
        "prompt",
        "answer",
        "metadata",
        "certificate",
    ]
    .to_vec();
    let old_row = vec![
        Some("x"),
        Some("pl1_gap_filling"),
        None,
        None,
        Some("1"),
        Some("p"),
        Some("a"),
        Some("{}"),
        Some("{}"),
    ];
    forge_shard(&ds, string_batch(&nine, &[old_row]));
    assert_refused(&ds, "older saturate");

    let row = |id: &str| saturate::dataset::Record {
        id: id.into(),
        task: "pl1_gap_filling".into(),
        level: Some(1),
        prompt: "p".into(),
        answer: "a".into(),
        completion: "a".into(),
        metadata: "{}".into(),
        certificate: "{}".into(),
        ..Default::default()
    };
    let batch = |rows: &[saturate::dataset::Record]| {
        saturate::dataset::record_batch(rows, "system").unwrap()
    };
    let ds = small_dataset("verify-null-id");
    forge_shard(&ds, batch(&[row("")]));
    assert_refused(&ds, "null or empty id");

    let ds = small_dataset("verify-dup-id");
    forge_shard(&ds, batch(&[row("x"), row("x")]));
    assert_refused(&ds, "more than once");

    let ds = small_dataset("verify-wrong-task");
    let mut r = row("y");
    r.task = "pl1_proof_writing".into();
    forge_shard(&ds, batch(&[r]));
    assert_refused(&ds, "in a shard of config");
}

#[test]
fn score_fails_when_no_answer_line_can_be_read() {
    let ds = small_dataset("score-bad");
    let dir = ds.parent().unwrap();
    let answers = dir.join("answers.jsonl");
    std::fs::write(&answers, "{\"id\": 1}\nnot json\n{\"answer\": \"x\"}\n").unwrap();
    let o = saturate()
        .args(["score", "--dataset"])
        .arg(&ds)
        .arg("--answers")
        .arg(&answers)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(e.contains("no answer could be read"), "{e}");
    for at in [
        "answers.jsonl:1:1:",
        "answers.jsonl:2:2:",
        "answers.jsonl:3:1:",
    ] {
        assert!(e.contains(at), "{at}: {e}");
    }
    // The answers file cannot be the output.
    let o = saturate()
        .args(["score", "--dataset"])
        .arg(&ds)
        .arg("--answers")
        .arg(&answers)
        .arg("--out")
        .arg(&answers)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn tstp_with_unusual_paths_reads_back() {
    let d = scratch("paths").join("caf\u{e9} it's a \\ %41 dir\ttab\u{1}");
    std::fs::create_dir_all(&d).unwrap();
    let f = axiom_file(&d);
    let out = d.join("out.p");
    let o = saturate()
        .arg("derive")
        .arg(&f)
        .arg("--out")
        .arg(&out)
        .arg("-q")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.bytes()
            .all(|b| b == b'\n' || (0x20..=0x7e).contains(&b))
    );
    let mut bank = saturate::logic::TermBank::new();
    let p = saturate::tptp::parse_str(&mut bank, &text, "out.p", None)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut sources = 0;
    for c in &p.clauses {
        let ann = c.annotations.as_deref().unwrap_or("");
        if let Some(rest) = ann.strip_prefix("file(") {
            let atom = &rest[..rest.rfind(',').unwrap()];
            assert_eq!(
                saturate::tptp::unquote(atom).as_deref(),
                Some(f.to_str().unwrap()),
                "{ann}"
            );
            sources += 1;
        }
    }
    assert_eq!(sources, 2, "{text}");
}

#[test]
fn cnf_conjectures_are_proved_not_assumed() {
    let d = scratch("conj");
    let thm = d.join("thm.p");
    std::fs::write(&thm, format!("{AXIOMS}cnf(c, conjecture, q(a)).\n")).unwrap();
    let o = saturate().arg("prove").arg(&thm).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("SZS status Theorem for thm"),
        "{}",
        stdout(&o)
    );
    // Assumed as an axiom, `~q(a)` would make the set unsatisfiable.
    let csa = d.join("csa.p");
    std::fs::write(&csa, format!("{AXIOMS}cnf(c, conjecture, ~q(a)).\n")).unwrap();
    let o = saturate().arg("prove").arg(&csa).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("SZS status CounterSatisfiable for csa"),
        "{}",
        stdout(&o)
    );
    let two = d.join("two.p");
    std::fs::write(
        &two,
        format!("{AXIOMS}cnf(c, conjecture, q(a)).\ncnf(e, conjecture, p(a)).\n"),
    )
    .unwrap();
    let o = saturate().arg("prove").arg(&two).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("two.p:4:1:"), "{}", stderr(&o));
    // In an axiom file it is an error, not a silent axiom.
    let o = saturate()
        .arg("derive")
        .arg(&thm)
        .arg("-q")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("thm.p:3:1:"), "{}", stderr(&o));
    assert!(stderr(&o).contains("role conjecture"), "{}", stderr(&o));
}

#[test]
fn stats_without_timing_are_byte_identical() {
    let d = scratch("stats");
    let f = axiom_file(&d);
    let stats = |name: &str, extra: &[&str]| {
        let p = d.join(name);
        let o = saturate()
            .arg("derive")
            .arg(&f)
            .arg("--out")
            .arg(d.join("o.p"))
            .arg("--stats-json")
            .arg(&p)
            .args(extra)
            .arg("-q")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::read(p).unwrap()
    };
    let (a, b) = (
        stats("a.json", &["--no-timing"]),
        stats("b.json", &["--no-timing"]),
    );
    assert_eq!(a, b);
    let a: serde_json::Value = serde_json::from_slice(&a).unwrap();
    assert!(
        a.get("timing").is_none() && a.get("seconds").is_none(),
        "{a}"
    );
    let t: serde_json::Value = serde_json::from_slice(&stats("t.json", &[])).unwrap();
    assert!(t["timing"]["seconds"].as_f64().is_some(), "{t}");
    assert!(t.get("seconds").is_none(), "{t}");
}

#[test]
fn errors_quote_bounded_excerpts_of_long_tokens() {
    let d = scratch("long");
    let f = d.join("long.p");
    let long = "a".repeat(1 << 20);
    std::fs::write(&f, format!("cnf(x, {long}, p).\n")).unwrap();
    let o = saturate().arg("prove").arg(&f).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("long.p:1:8:"), "{}", &e[..e.len().min(300)]);
    assert!(e.len() < 2_000, "{} bytes of error", e.len());
}
