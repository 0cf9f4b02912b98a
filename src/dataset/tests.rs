//! Unit tests of the dataset writer: Parquet round trip, byte determinism,
//! split stability, shard splitting and the refusal/replacement rules.

use super::*;
use arrow_array::{Array, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sha2::{Digest, Sha256};
use std::path::Path;

fn record(i: usize) -> Record {
    Record {
        id: format!("test-{i}"),
        task: "unit".to_string(),
        domain: if i % 3 == 0 { None } else { Some("SET".into()) },
        source: Some("gen".into()),
        level: Some(format!("{}", 1 + i % 4)),
        prompt: format!("prompt {i} with unicode ⊢ and\nnewlines"),
        answer: format!("{{\"answer\": {i}}}"),
        metadata: "{}".into(),
        certificate: "{\"verdict\":\"ok\"}".into(),
    }
}

fn spec(rows: usize) -> DatasetSpec {
    DatasetSpec {
        name: "unit test".into(),
        description: "A dataset for tests.".into(),
        seed: 7,
        config: serde_json::json!({"count": 10}),
        max_rows_per_shard: rows,
    }
}

fn write(dir: &Path, n: usize, rows: usize) -> Manifest {
    let mut w = DatasetWriter::create(dir, spec(rows)).unwrap();
    for i in 0..n {
        w.push(if i % 2 == 0 { "alpha" } else { "beta" }, record(i))
            .unwrap();
    }
    w.finish().unwrap()
}

fn read_shard(path: &Path) -> Vec<Vec<Option<String>>> {
    let file = std::fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        assert_eq!(batch.num_columns(), 9);
        for r in 0..batch.num_rows() {
            rows.push(
                (0..9)
                    .map(|c| {
                        let a = batch
                            .column(c)
                            .as_any()
                            .downcast_ref::<StringArray>()
                            .unwrap();
                        (!a.is_null(r)).then(|| a.value(r).to_string())
                    })
                    .collect(),
            );
        }
    }
    rows
}

fn as_row(r: &Record) -> Vec<Option<String>> {
    vec![
        Some(r.id.clone()),
        Some(r.task.clone()),
        r.domain.clone(),
        r.source.clone(),
        r.level.clone(),
        Some(r.prompt.clone()),
        Some(r.answer.clone()),
        Some(r.metadata.clone()),
        Some(r.certificate.clone()),
    ]
}

#[test]
fn round_trip_through_parquet_reader() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ds");
    let m = write(&out, 40, 1000);
    assert_eq!(m.total_rows, 40);
    // Expected rows per (config, split), in push order.
    let mut read = 0;
    for (config, counts) in &m.configs {
        for (split, sc) in &counts.splits {
            let want: Vec<_> = (0..40)
                .filter(|i| (if i % 2 == 0 { "alpha" } else { "beta" }) == config)
                .map(record)
                .filter(|r| split_of(&r.id).name() == split)
                .map(|r| as_row(&r))
                .collect();
            let mut got = Vec::new();
            for s in &sc.shards {
                got.extend(read_shard(&out.join(&s.file)));
            }
            assert_eq!(got, want, "{config}/{split}");
            read += got.len();
        }
    }
    assert_eq!(read, 40);
    let schema = super::writer::schema();
    let names: Vec<_> = schema.fields().iter().map(|f| f.name().clone()).collect();
    assert_eq!(
        names,
        [
            "id",
            "task",
            "domain",
            "source",
            "level",
            "prompt",
            "answer",
            "metadata",
            "certificate"
        ]
    );
    let card = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(card.starts_with("---\n"));
    assert!(card.contains("- config_name: alpha\n"));
    assert!(card.contains("    path: beta/train-*.parquet\n"));
    let manifest: Manifest =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest, m);
    assert_eq!(m.engine_version, env!("CARGO_PKG_VERSION"));
    // No staging directory is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("ds")]);
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
fn splits_are_stable_and_roughly_80_10_10() {
    // Pinned ids: changing split_of would move rows between splits.
    let pinned: Vec<_> = (0..8)
        .map(|i| split_of(&format!("pin-{i}")).name())
        .collect();
    assert_eq!(pinned, PINNED_SPLITS);
    let mut counts = [0usize; 3];
    for i in 0..10_000 {
        counts[split_of(&format!("x{i}")) as usize] += 1;
    }
    assert!((7700..8300).contains(&counts[0]), "{counts:?}");
    assert!((800..1200).contains(&counts[1]), "{counts:?}");
    assert!((800..1200).contains(&counts[2]), "{counts:?}");
}

// Cross-checked with Python: int.from_bytes(sha256(id)[:8], "little") % 100.
const PINNED_SPLITS: [&str; 8] = [
    "train",
    "train",
    "train",
    "train",
    "validation",
    "train",
    "train",
    "train",
];

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
                let rows = read_shard(&out.join(&s.file)).len() as u64;
                assert_eq!(rows, s.rows);
                assert!(s.rows <= 9 && s.rows > 0);
                let bytes = std::fs::read(out.join(&s.file)).unwrap();
                assert_eq!(super::writer::hex(&Sha256::digest(&bytes)), s.sha256);
            }
        }
    }
    // No temporary shard names survive.
    for (name, _) in tree_bytes(&out) {
        assert!(!name.contains(".partial"), "{name}");
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
        w.push("alpha", record(i)).unwrap();
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
            w.push(bad, record(0)),
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
fn stale_temporaries_of_dead_runs_are_removed_live_ones_kept() {
    let tmp = tempfile::tempdir().unwrap();
    // PID 4194304 is above Linux's maximum PID: never alive.
    let dead = tmp.path().join("out.tmp-4194304");
    let dead_old = tmp.path().join("out.old-4194304");
    // PID 1 is always alive.
    let live = tmp.path().join("out.tmp-1");
    let other = tmp.path().join("other.tmp-4194304");
    for d in [&dead, &dead_old, &live, &other] {
        std::fs::create_dir(d).unwrap();
        std::fs::write(d.join("x.parquet"), "partial").unwrap();
    }
    let m = write(&tmp.path().join("out"), 3, 10);
    assert_eq!(m.total_rows, 3);
    assert!(!dead.exists());
    assert!(!dead_old.exists());
    assert!(live.join("x.parquet").exists());
    assert!(other.join("x.parquet").exists());
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
    w.push("alpha", record(0)).unwrap();
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
        w.push("alpha", r).unwrap();
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
    std::fs::write(&shard, writer::encode_shard(&rows).unwrap()).unwrap();
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
    std::fs::write(&shard, writer::encode_shard(&rows).unwrap()).unwrap();
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
        .map(|r| fingerprint_records(std::slice::from_ref(*r)))
        .collect();
    for i in 0..fps.len() {
        for j in i + 1..fps.len() {
            assert_ne!(fps[i], fps[j], "{i} {j}");
        }
    }
    assert_eq!(fps[0], fingerprint_records(&[a]));
}
