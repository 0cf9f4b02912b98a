//! Unit tests of the dataset writer: Parquet round trip, byte determinism,
//! split stability, shard splitting and the refusal/replacement rules.

use super::*;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sha2::{Digest, Sha256};
use std::path::Path;

fn record(i: usize) -> Record {
    Record {
        id: format!("test-{i}"),
        task: "unit".to_string(),
        domain: if i % 3 == 0 { None } else { Some("SET".into()) },
        source: Some("gen".into()),
        level: Some(1 + (i % 4) as u32),
        prompt: format!("prompt {i} with unicode ⊢ and\nnewlines"),
        answer: format!("{{\"answer\": {i}}}"),
        completion: format!("<answer>{i}</answer>"),
        trace: (i % 5 == 0).then(|| format!("1. step of {i}")),
        metadata: "{}".into(),
        certificate: "{\"verdict\":\"ok\"}".into(),
    }
}

fn spec(rows: usize) -> DatasetSpec {
    let mut s = DatasetSpec::new("unit test", 7, serde_json::json!({"count": 10}));
    s.description = "A dataset for tests.".into();
    s.max_rows_per_shard = rows;
    s
}

/// Records of rows `i` share the group `g{i / 2}`.
fn group(i: usize) -> String {
    format!("g{}", i / 2)
}

fn config_of(i: usize) -> &'static str {
    if i % 2 == 0 { "alpha" } else { "beta" }
}

fn write(dir: &Path, n: usize, rows: usize) -> Manifest {
    let mut w = DatasetWriter::create(dir, spec(rows)).unwrap();
    for i in 0..n {
        let mut r = record(i);
        r.task = config_of(i).into();
        w.push(config_of(i), r, &group(i)).unwrap();
    }
    w.finish().unwrap()
}

/// Every row of a shard, read back through the reader's checks.
fn read_shard(dir: &Path, file: &str) -> Vec<Row> {
    read_dataset(dir)
        .unwrap()
        .into_iter()
        .filter(|r| r.file == dir.join(file))
        .collect()
}

#[test]
fn round_trip_through_parquet_reader() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ds");
    let m = write(&out, 40, 1000);
    assert_eq!(m.total_rows, 40);
    let rows = read_dataset(&out).unwrap();
    assert_eq!(rows.len(), 40);
    let system = &m.presentation.system_prompt;
    for row in &rows {
        let i: usize = row.id.trim_start_matches("test-").parse().unwrap();
        let mut want = record(i);
        want.task = config_of(i).into();
        assert_eq!(row.to_record(), want);
        let turns: Vec<(&str, &str)> = row
            .messages
            .iter()
            .map(|(r, c)| (r.as_str(), c.as_str()))
            .collect();
        assert_eq!(
            turns,
            [
                ("system", system.as_str()),
                ("user", want.prompt.as_str()),
                ("assistant", want.completion.as_str())
            ]
        );
    }
    // Each shard is sorted by id, numbers compared as numbers.
    for counts in m.configs.values() {
        for sc in counts.splits.values() {
            for s in &sc.shards {
                let ids: Vec<String> = read_shard(&out, &s.file)
                    .into_iter()
                    .map(|r| r.id)
                    .collect();
                let mut sorted = ids.clone();
                sorted.sort_by(|a, b| natural_cmp(a, b));
                assert_eq!(ids, sorted);
            }
        }
    }
    let schema = super::writer::schema();
    let names: Vec<_> = schema.fields().iter().map(|f| f.name().clone()).collect();
    assert_eq!(names, COLUMNS);
    let card = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(card.starts_with("---\n"));
    assert!(card.contains("- config_name: alpha\n"));
    assert!(card.contains("- config_name: all\n  default: true\n"));
    assert!(card.contains("    path: beta/train-*.parquet\n"));
    assert!(card.contains(&m.content_fingerprint));
    assert!(card.contains("license: cc-by-4.0\n"));
    let manifest: Manifest =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest, m);
    assert_eq!(m.engine_version, env!("CARGO_PKG_VERSION"));
    // No staging directory or spill is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("ds")]);
    assert!(tree_bytes(&out).iter().all(|(n, _)| !n.contains("spill")));
}

#[test]
fn jsonl_output_reads_back_the_same_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("pq"), tmp.path().join("jl"));
    write(&a, 30, 7);
    let mut s = spec(7);
    s.format = OutputFormat::Jsonl;
    let mut w = DatasetWriter::create(&b, s).unwrap();
    for i in 0..30 {
        let mut r = record(i);
        r.task = config_of(i).into();
        w.push(config_of(i), r, &group(i)).unwrap();
    }
    let m = w.finish().unwrap();
    assert!(
        m.configs["alpha"].splits["train"].shards[0]
            .file
            .ends_with(".jsonl")
    );
    let rows = |d: &Path| {
        let mut v: Vec<Record> = read_dataset(d)
            .unwrap()
            .iter()
            .map(Row::to_record)
            .collect();
        v.sort_by(|x, y| x.id.cmp(&y.id));
        v
    };
    assert_eq!(rows(&a), rows(&b));
    // The same rows have the same fingerprints in either format.
    let fp = |d: &Path| -> Vec<Option<String>> {
        let m: Manifest =
            serde_json::from_str(&std::fs::read_to_string(d.join("manifest.json")).unwrap())
                .unwrap();
        m.configs
            .values()
            .flat_map(|c| c.splits.values())
            .flat_map(|s| s.shards.iter().map(|x| x.fingerprint.clone()))
            .collect()
    };
    assert_eq!(fp(&a), fp(&b));
    let card = std::fs::read_to_string(b.join("README.md")).unwrap();
    assert!(card.contains("path: \"*/train-*.jsonl\""), "{card}");
}

#[test]
fn splits_are_grouped_stratified_and_order_independent() {
    let tmp = tempfile::tempdir().unwrap();
    let push_all = |dir: &Path, order: &mut dyn Iterator<Item = usize>| {
        let mut w = DatasetWriter::create(dir, spec(50)).unwrap();
        for i in order {
            let mut r = record(i);
            r.task = "alpha".into();
            w.push("alpha", r, &group(i)).unwrap();
        }
        w.finish().unwrap()
    };
    let m = push_all(&tmp.path().join("a"), &mut (0..400));
    push_all(&tmp.path().join("b"), &mut (0..400).rev());
    assert_eq!(
        tree_bytes(&tmp.path().join("a")),
        tree_bytes(&tmp.path().join("b"))
    );
    let rows = read_dataset(&tmp.path().join("a")).unwrap();
    let split_of = |r: &Row| {
        r.file
            .file_name()
            .unwrap()
            .to_string_lossy()
            .split('-')
            .next()
            .unwrap()
            .to_string()
    };
    let mut of_group: std::collections::HashMap<String, String> = Default::default();
    let mut per: std::collections::BTreeMap<(u32, String), usize> = Default::default();
    for r in &rows {
        let i: usize = r.id.trim_start_matches("test-").parse().unwrap();
        let s = split_of(r);
        assert_eq!(
            of_group.entry(group(i)).or_insert(s.clone()),
            &s,
            "{}",
            r.id
        );
        *per.entry((r.level.unwrap(), s)).or_default() += 1;
    }
    for level in 1..=4 {
        let n = |s: &str| per.get(&(level, s.to_string())).copied().unwrap_or(0);
        assert_eq!(n("train") + n("validation") + n("test"), 100);
        assert!((76..=84).contains(&n("train")), "{per:?}");
        assert!((6..=14).contains(&n("validation")), "{per:?}");
        assert!((6..=14).contains(&n("test")), "{per:?}");
    }
    assert_eq!(m.split_percent, [80, 10, 10]);
}

#[test]
fn duplicate_ids_and_bad_splits_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mut w = DatasetWriter::create(&tmp.path().join("d"), spec(5)).unwrap();
    w.push("alpha", record(1), "g").unwrap();
    assert!(matches!(
        w.push("alpha", record(1), "g"),
        Err(DatasetError::DuplicateId { .. })
    ));
    assert!(matches!(
        w.push("all", record(2), "g"),
        Err(DatasetError::BadConfigName { .. })
    ));
    let mut s = spec(5);
    s.split_percent = [0, 50, 50];
    assert!(matches!(
        DatasetWriter::create(&tmp.path().join("e"), s),
        Err(DatasetError::BadSplit { .. })
    ));
}

#[test]
fn natural_order_compares_numbers_as_numbers() {
    let mut ids = vec![
        "x-L2-00010",
        "x-L10-00001",
        "x-L2-00009",
        "x-9",
        "x-10",
        "x-010",
    ];
    ids.sort_by(|a, b| natural_cmp(a, b));
    assert_eq!(
        ids,
        [
            "x-9",
            "x-010",
            "x-10",
            "x-L2-00009",
            "x-L2-00010",
            "x-L10-00001"
        ]
    );
}

fn tree_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn two_writes_are_byte_identical() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a"), 50, 7);
    write(&tmp.path().join("b"), 50, 7);
    let a = tree_bytes(&tmp.path().join("a"));
    let b = tree_bytes(&tmp.path().join("b"));
    assert!(a.len() > 4);
    assert_eq!(a, b);
    // created_by is fixed (no host or time in it).
    let shard = a.iter().find(|(n, _)| n.ends_with(".parquet")).unwrap();
    use parquet::file::reader::FileReader;
    let file = std::fs::File::open(tmp.path().join("a").join(&shard.0)).unwrap();
    let meta = parquet::file::serialized_reader::SerializedFileReader::new(file).unwrap();
    assert_eq!(
        meta.metadata().file_metadata().created_by(),
        Some(format!("saturate {}", env!("CARGO_PKG_VERSION")).as_str())
    );
}

#[test]
fn shards_split_at_max_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ds");
    let m = write(&out, 100, 9);
    for counts in m.configs.values() {
        for (split, sc) in &counts.splits {
            let n = sc.shards.len();
            assert_eq!(n, (sc.rows as usize).div_ceil(9), "{split}");
            for (i, s) in sc.shards.iter().enumerate() {
                assert!(
                    s.file
                        .ends_with(&format!("{split}-{i:05}-of-{n:05}.parquet"))
                );
                assert_eq!(s.bytes, std::fs::metadata(out.join(&s.file)).unwrap().len());
                let rows = read_shard(&out, &s.file).len() as u64;
                assert_eq!(rows, s.rows);
                assert!(s.rows <= 9 && s.rows > 0);
                let bytes = std::fs::read(out.join(&s.file)).unwrap();
                assert_eq!(super::writer::hex(&Sha256::digest(&bytes)), s.sha256);
            }
        }
    }
    // No spill survives.
    for (name, _) in tree_bytes(&out) {
        assert!(!name.contains("spill"), "{name}");
    }
}

#[test]
fn refuses_foreign_directory_and_replaces_our_own() {
    let tmp = tempfile::tempdir().unwrap();
    let foreign = tmp.path().join("foreign");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "keep me").unwrap();
    let err = DatasetWriter::create(&foreign, spec(10)).err().unwrap();
    assert!(matches!(err, DatasetError::NotOurs { .. }));
    assert!(err.to_string().contains("foreign"), "{err}");
    assert_eq!(
        std::fs::read_to_string(foreign.join("notes.txt")).unwrap(),
        "keep me"
    );

    let ours = tmp.path().join("ours");
    write(&ours, 30, 10);
    let m = write(&ours, 6, 10);
    assert_eq!(m.total_rows, 6);
    assert!(m.complete);
    // A file the manifest does not list is the user's: refuse, keep it.
    std::fs::write(ours.join("notes.txt"), "mine").unwrap();
    let err = DatasetWriter::create(&ours, spec(10)).err().unwrap();
    assert!(err.to_string().contains("notes.txt"), "{err}");
    assert_eq!(
        std::fs::read_to_string(ours.join("notes.txt")).unwrap(),
        "mine"
    );
    std::fs::remove_file(ours.join("notes.txt")).unwrap();

    // An unfinished writer leaves the previous dataset untouched.
    let before = tree_bytes(&ours);
    let mut w = DatasetWriter::create(&ours, spec(2)).unwrap();
    for i in 0..5 {
        w.push("alpha", record(i), &group(i)).unwrap();
    }
    drop(w);
    assert_eq!(tree_bytes(&ours), before);
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp-")), "{names:?}");
}

#[test]
fn rejects_bad_config_names_and_shard_size() {
    let tmp = tempfile::tempdir().unwrap();
    let mut w = DatasetWriter::create(&tmp.path().join("d"), spec(5)).unwrap();
    for bad in ["", "../x", "a/b", ".hidden", "with space"] {
        assert!(matches!(
            w.push(bad, record(0), "g"),
            Err(DatasetError::BadConfigName { .. })
        ));
    }
    assert!(matches!(
        DatasetWriter::create(&tmp.path().join("e"), spec(0)),
        Err(DatasetError::BadShardSize { .. })
    ));
}

#[test]
fn a_fake_or_incomplete_manifest_is_refused_and_nothing_deleted() {
    let tmp = tempfile::tempdir().unwrap();
    for manifest in [
        r#"{"generator": "saturate"}"#.to_string(),
        // A real manifest without the completion mark.
        {
            let d = tmp.path().join("real");
            let m = write(&d, 4, 10);
            let mut v = serde_json::to_value(&m).unwrap();
            v.as_object_mut().unwrap().remove("complete");
            v.to_string()
        },
    ] {
        let dir = tmp.path().join("fake");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("manifest.json"), &manifest).unwrap();
        std::fs::write(dir.join("thesis.tex"), "years of work").unwrap();
        let err = DatasetWriter::create(&dir, spec(10)).err().unwrap();
        assert!(matches!(err, DatasetError::NotOurs { .. }), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.join("thesis.tex")).unwrap(),
            "years of work"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("manifest.json")).unwrap(),
            manifest
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // A regular file as the output is refused too.
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    assert!(matches!(
        DatasetWriter::create(&file, spec(10)),
        Err(DatasetError::NotOurs { .. })
    ));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

#[test]
fn stale_staging_of_ended_runs_is_removed_and_nothing_else() {
    use super::staging::{self, MARKER};
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    // What the writer made before this fix recognised by name alone: a
    // user's backup folder and file, and look-alikes of dead pids.
    let user_dir = d.join("out.old-2023");
    let user_file = d.join("out.tmp-31337");
    let unmarked = d.join("out.tmp-4194304");
    std::fs::create_dir(&user_dir).unwrap();
    std::fs::write(user_dir.join("b.txt"), "backup").unwrap();
    std::fs::write(&user_file, "keep").unwrap();
    std::fs::create_dir(&unmarked).unwrap();
    std::fs::write(unmarked.join("x.parquet"), "partial").unwrap();
    // Marked staging folders: one of this (live) process, one of a
    // process from an earlier boot (ended), one of another base name.
    let live = staging::create(d, "out.tmp-").unwrap();
    let dead = staging::create(d, "out.old-").unwrap();
    let other = staging::create(d, "other.tmp-").unwrap();
    for s in [&dead, &other] {
        let text = std::fs::read_to_string(s.join(MARKER)).unwrap();
        let text: String = text
            .lines()
            .map(|l| {
                if l.starts_with("boot=") {
                    "boot=earlier".to_string()
                } else {
                    l.to_string()
                }
            })
            .map(|l| l + "\n")
            .collect();
        std::fs::write(s.join(MARKER), text).unwrap();
        std::fs::write(s.join("x.parquet"), "partial").unwrap();
    }
    let m = write(&d.join("out"), 3, 10);
    assert_eq!(m.total_rows, 3);
    assert!(!dead.exists());
    assert_eq!(
        std::fs::read_to_string(user_dir.join("b.txt")).unwrap(),
        "backup"
    );
    assert_eq!(std::fs::read_to_string(&user_file).unwrap(), "keep");
    assert!(unmarked.join("x.parquet").exists());
    assert!(live.join(MARKER).exists());
    assert!(other.join("x.parquet").exists());
    // Replacing the dataset leaves no staging folder of this run behind,
    // and the marker never reaches the output.
    std::fs::remove_dir_all(&live).unwrap();
    write(&d.join("out"), 4, 10);
    assert!(!d.join("out").join(MARKER).exists());
    let mut names: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            other.file_name().unwrap().to_str().unwrap().to_string(),
            "out".into(),
            "out.old-2023".into(),
            "out.tmp-31337".into(),
            "out.tmp-4194304".into()
        ]
    );
}

#[test]
fn an_empty_dataset_is_refused_and_nothing_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("empty");
    let w = DatasetWriter::create(&out, spec(10)).unwrap();
    assert!(matches!(w.finish(), Err(DatasetError::Empty { .. })));
    assert!(!out.exists());
    let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn extra_files_are_listed_and_the_card_says_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("d");
    let mut w = DatasetWriter::create(&out, spec(10)).unwrap();
    w.push("alpha", record(0), "g").unwrap();
    w.add_file("summary.json", b"{}\n").unwrap();
    w.add_file("rejects/rejects.jsonl", b"{}\n").unwrap();
    for bad in ["../x", "manifest.json", ".hidden", "summary.json", "a//b"] {
        assert!(w.add_file(bad, b"").is_err(), "{bad}");
    }
    let m = w.finish().unwrap();
    assert_eq!(m.extra_files, ["rejects/rejects.jsonl", "summary.json"]);
    assert!(out.join("rejects/rejects.jsonl").is_file());
    let card = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(card.contains("This folder is complete"), "{card}");
    // Its own output, extra files included, is replaceable.
    write(&out, 2, 10);
}

/// A dataset of one config whose rows name it, as `read_dataset` wants.
fn write_alpha(dir: &Path, n: usize) -> Manifest {
    let mut w = DatasetWriter::create(dir, spec(100)).unwrap();
    for i in 0..n {
        let mut r = record(i);
        r.task = "alpha".into();
        w.push("alpha", r, &group(i)).unwrap();
    }
    w.finish().unwrap()
}

/// Rewrites a shard with `codec` (rows unchanged, bytes different).
fn reencode(path: &Path, codec: parquet::basic::Compression) {
    let file = std::fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<_> = reader.map(|b| b.unwrap()).collect();
    let props = parquet::file::properties::WriterProperties::builder()
        .set_compression(codec)
        .set_max_row_group_row_count(Some(2))
        .build();
    let mut out = Vec::new();
    let mut w =
        parquet::arrow::ArrowWriter::try_new(&mut out, writer::schema(), Some(props)).unwrap();
    for b in &batches {
        w.write(b).unwrap();
    }
    w.close().unwrap();
    std::fs::write(path, out).unwrap();
}

fn shard_paths(dir: &Path, m: &Manifest) -> Vec<std::path::PathBuf> {
    m.configs
        .values()
        .flat_map(|c| c.splits.values())
        .flat_map(|s| s.shards.iter().map(|x| dir.join(&x.file)))
        .collect()
}

#[test]
fn shards_reencoded_with_any_codec_still_read_and_match() {
    use parquet::basic::{Compression, GzipLevel};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    let m = write_alpha(&out, 7);
    let records = |rows: Vec<Row>| rows.iter().map(Row::to_record).collect::<Vec<_>>();
    let before = records(read_dataset(&out).unwrap());
    for codec in [
        Compression::SNAPPY,
        Compression::LZ4,
        Compression::LZ4_RAW,
        Compression::GZIP(GzipLevel::default()),
        Compression::UNCOMPRESSED,
    ] {
        for p in shard_paths(&out, &m) {
            reencode(&p, codec);
            let sha = super::writer::hex(&Sha256::digest(std::fs::read(&p).unwrap()));
            let listed = m.configs["alpha"]
                .splits
                .values()
                .flat_map(|s| &s.shards)
                .any(|s| s.sha256 == sha);
            assert!(!listed, "{codec:?}: the bytes did not change");
        }
        let read = read_dataset_checked(&out).unwrap();
        assert!(
            read.mismatches.is_empty(),
            "{codec:?}: {:?}",
            read.mismatches
        );
        assert_eq!(records(read.rows), before, "{codec:?}");
    }
}

#[test]
fn changed_or_missing_rows_are_mismatches_naming_the_shard() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    let m = write_alpha(&out, 20);
    let shard = out.join(&m.configs["alpha"].splits["train"].shards[0].file);
    let mut rows: Vec<Record> = read_dataset(&out)
        .unwrap()
        .into_iter()
        .filter(|r| r.file == shard)
        .map(|r| r.to_record())
        .collect();
    assert!(rows.len() >= 2, "{}", rows.len());
    // Same row count, one prompt changed: only the fingerprint tells.
    let original = rows[0].prompt.clone();
    rows[0].prompt.push_str(" (edited)");
    std::fs::write(
        &shard,
        writer::encode_shard(&rows, &m.presentation.system_prompt).unwrap(),
    )
    .unwrap();
    let read = read_dataset_checked(&out).unwrap();
    assert_eq!(read.mismatches.len(), 1, "{:?}", read.mismatches);
    assert_eq!(read.mismatches[0].file, shard);
    assert!(
        read.mismatches[0].reason.contains("differ"),
        "{:?}",
        read.mismatches
    );
    let e = read_dataset(&out).unwrap_err().0;
    assert!(e.contains("train-00000-of-00001.parquet"), "{e}");
    // A row dropped: the count and the fingerprint both differ.
    rows.pop();
    rows[0].prompt = original;
    std::fs::write(
        &shard,
        writer::encode_shard(&rows, &m.presentation.system_prompt).unwrap(),
    )
    .unwrap();
    let read = read_dataset_checked(&out).unwrap();
    let why = &read.mismatches[0].reason;
    assert!(
        why.contains("rows, the manifest lists") && why.contains("fingerprint"),
        "{why}"
    );
}

#[test]
fn manifests_without_fingerprints_fall_back_to_the_file_hash() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    let m = write_alpha(&out, 3);
    let path = out.join("manifest.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for split in v["configs"]["alpha"]["splits"]
        .as_object_mut()
        .unwrap()
        .values_mut()
    {
        for s in split["shards"].as_array_mut().unwrap() {
            s.as_object_mut().unwrap().remove("fingerprint");
        }
    }
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    assert!(read_dataset(&out).is_ok());
    let shard = shard_paths(&out, &m).remove(0);
    reencode(&shard, parquet::basic::Compression::SNAPPY);
    let e = read_dataset(&out).unwrap_err().0;
    assert!(
        e.contains("SHA-256") && e.contains("no row fingerprint"),
        "{e}"
    );
}

#[test]
fn the_fingerprint_covers_nulls_and_boundaries() {
    let a = record(1);
    let mut b = a.clone();
    b.domain = Some(String::new());
    let mut c = a.clone();
    c.domain = None;
    // "ab" + "c" and "a" + "bc" differ.
    let mut d = a.clone();
    d.id = "test-1x".into();
    d.task = "unit".into();
    let mut e = a.clone();
    e.id = "test-1".into();
    e.task = "xunit".into();
    let fps: Vec<String> = [&a, &b, &c, &d, &e]
        .iter()
        .map(|r| fingerprint_records(std::slice::from_ref(*r), "sys"))
        .collect();
    for i in 0..fps.len() {
        for j in i + 1..fps.len() {
            assert_ne!(fps[i], fps[j], "{i} {j}");
        }
    }
    assert_eq!(fps[0], fingerprint_records(std::slice::from_ref(&a), "sys"));
    // The system prompt is part of `messages`, so of the fingerprint.
    assert_ne!(fps[0], fingerprint_records(&[a], "other"));
}
