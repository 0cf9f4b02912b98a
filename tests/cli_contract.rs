//! Contract tests of the `saturate` binary, complementing tests/cli.rs with
//! stricter checks: TSTP lines that each read back, dumps whose edges and
//! depths match the stats and the TSTP, byte-identical reruns and job counts,
//! domain outputs, limits and config overrides, and for each kind of bad
//! input exit code 2 with the exact `file:line:col` and no file left behind.

mod common;

use common::{crate_root, files, saturate, stderr, stdout, tptp_root};
use saturate::derivation::{DumpRecord, read_dump};
use saturate::logic::TermBank;
use saturate::tptp::parse_str;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn axiom_file(name: &str) -> Option<PathBuf> {
    tptp_root().map(|r| r.join("Axioms").join(name))
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run saturate")
}

fn assert_ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        stderr(o)
    );
}

/// Runs `derive FILE ARGS --out OUT --stats-json STATS` and returns (output bytes, stats).
fn derive(file: &Path, args: &[&str], out: &Path) -> (Vec<u8>, Value) {
    let stats = out.with_extension("stats.json");
    let o = run(saturate()
        .arg("derive")
        .arg(file)
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--stats-json")
        .arg(&stats)
        .arg("-q"));
    assert_ok(&o);
    let bytes = std::fs::read(out).unwrap();
    let stats: Value = serde_json::from_slice(&std::fs::read(&stats).unwrap()).unwrap();
    (bytes, stats)
}

fn u(stats: &Value, key: &str) -> u64 {
    stats[key]
        .as_u64()
        .unwrap_or_else(|| panic!("stats key {key} missing or not a count: {stats}"))
}

/// Checks the stats keys and their mutual consistency.
fn check_stats(stats: &Value, max_processed: Option<u64>) {
    for key in [
        "processed",
        "generated",
        "kept",
        "dag_nodes",
        "dag_edges",
        "max_depth",
        "status",
        "timing",
    ] {
        assert!(stats.get(key).is_some(), "stats lack {key}: {stats}");
    }
    let status = stats["status"].as_str().expect("status is a string");
    assert!(
        ["Saturated", "ResourceOut", "Unsatisfiable"].contains(&status),
        "status {status}"
    );
    assert_eq!(u(stats, "dag_nodes"), u(stats, "kept"));
    assert!(
        stats["timing"]["seconds"]
            .as_f64()
            .is_some_and(|s| s >= 0.0)
    );
    if let Some(limit) = max_processed {
        assert!(u(stats, "processed") <= limit, "{stats}");
        if status == "ResourceOut" {
            assert_eq!(u(stats, "processed"), limit, "{stats}");
        }
    }
    // Every selection is of a kept clause; further copies of a re-derived
    // clause are selections too (E's count) but not records.
    let copies = stats["counters"]["redundant_copies"]
        .as_u64()
        .expect("counters.redundant_copies");
    assert!(copies <= u(stats, "processed"), "{stats}");
    assert!(
        u(stats, "processed") - copies <= u(stats, "kept"),
        "{stats}"
    );
    assert!(u(stats, "max_depth") <= u(stats, "dag_edges"), "{stats}");
}

/// One line of TSTP output.
struct Line {
    role: String,
    annotation: String,
}

/// Parses TSTP output line by line with the library reader, checking each
/// line on its own and that every premise of a derived line is named earlier.
fn check_tstp(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let mut bank = TermBank::new();
        let p = parse_str(&mut bank, line, "out.p", None)
            .unwrap_or_else(|e| panic!("line {}: {e}\n{line}", n + 1));
        assert_eq!(p.clauses.len() + p.tautologies.len(), 1, "{line}");
        let c = p.clauses.first().unwrap_or_else(|| &p.tautologies[0]);
        assert_eq!(
            c.name,
            format!("c{n}"),
            "clauses are named c0, c1, ... in order"
        );
        let annotation = c.annotations.clone().expect("every line has a source");
        if annotation.starts_with("inference(") {
            let names = clause_names(&annotation);
            assert!(!names.is_empty(), "{line}");
            for p in names {
                let i = index
                    .get(&p)
                    .unwrap_or_else(|| panic!("{line}: premise {p} is not an earlier clause"));
                assert!(*i < n);
            }
            assert_eq!(c.role.as_str(), "plain", "{line}");
        } else {
            assert!(annotation.starts_with("file("), "{line}");
        }
        index.insert(c.name.clone(), n);
        lines.push(Line {
            role: c.role.as_str().to_string(),
            annotation,
        });
    }
    lines
}

/// The `c<digits>` clause names in an annotation.
fn clause_names(annotation: &str) -> Vec<String> {
    annotation
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|t| t.len() > 1 && t.starts_with('c') && t[1..].bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

fn read_dump_file(path: &Path) -> Vec<DumpRecord> {
    read_dump(std::fs::File::open(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Checks a dump on its own: ids in order, premises earlier, depths as the
/// longest premise path, clause texts that parse.
fn check_dump(recs: &[DumpRecord]) -> (u64, u32) {
    let mut edges = 0u64;
    let mut max_depth = 0;
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r.id as usize, i);
        let premises: Vec<u32> = r
            .parents
            .iter()
            .copied()
            .chain(r.simps.iter().filter_map(|s| s.1))
            .collect();
        edges += premises.len() as u64;
        let depth = premises
            .iter()
            .map(|&p| {
                assert!((p as usize) < i, "record {i}: premise {p} is not earlier");
                recs[p as usize].depth + 1
            })
            .max()
            .unwrap_or(0);
        assert_eq!(r.depth, depth, "record {i}");
        max_depth = max_depth.max(depth);
        assert!(["passive", "active", "deleted"].contains(&r.state.as_str()));
        if r.rule == "input" {
            assert!(r.parents.is_empty() && r.name.is_some() && r.role.is_some());
        } else {
            assert!(
                !r.parents.is_empty(),
                "record {i}: {} without parents",
                r.rule
            );
            assert!(r.name.is_none());
        }
        let mut bank = TermBank::new();
        let line = format!("cnf(x, plain, ({})).", r.clause);
        parse_str(&mut bank, &line, "dump", None).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    (edges, max_depth)
}

#[test]
fn derive_writes_tstp_that_reads_back_with_earlier_premises() {
    let Some(_) = tptp_root() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for name in ["SET002-0.ax", "GRP003-0.ax"] {
        let file = axiom_file(name).unwrap();
        let out = tmp.path().join(format!("{name}.p"));
        let (bytes, stats) = derive(&file, &["--max-processed", "200"], &out);
        check_stats(&stats, Some(200));
        let text = String::from_utf8(bytes).expect("TSTP is UTF-8");
        let lines = check_tstp(&text);
        assert_eq!(lines.len() as u64, u(&stats, "kept"), "{name}");
        let inputs = lines
            .iter()
            .filter(|l| l.annotation.starts_with("file("))
            .count();
        assert!(
            inputs > 0 && inputs < lines.len(),
            "{name}: {inputs} inputs"
        );
        assert!(
            lines[..inputs].iter().all(|l| l.role == "axiom"),
            "inputs come first"
        );
        // The whole file also parses as one problem.
        let mut bank = TermBank::new();
        let p = parse_str(&mut bank, &text, "all.p", None).unwrap();
        assert_eq!(p.clauses.len() + p.tautologies.len(), lines.len());
        assert!(lines.iter().any(|l| l.annotation.contains("inference(")));
    }
}

#[test]
fn stdout_tstp_equals_the_out_file() {
    let Some(file) = axiom_file("GRP003-0.ax") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (bytes, _) = derive(&file, &["--max-processed", "50"], &tmp.path().join("g.p"));
    let o = run(saturate()
        .arg("derive")
        .arg(&file)
        .args(["--max-processed", "50", "-q"]));
    assert_ok(&o);
    // On stdout the derivation is an SZS output block after the status.
    let mut expected = b"% SZS status ResourceOut for GRP003-0\n\
        % SZS output start ListOfCNF for GRP003-0\n"
        .to_vec();
    expected.extend_from_slice(&bytes);
    expected.extend_from_slice(b"% SZS output end ListOfCNF for GRP003-0\n");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&expected)
    );
}

#[test]
fn the_dump_reads_back_and_agrees_with_tstp_and_stats() {
    let Some(file) = axiom_file("GRP003-0.ax") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (_, stats) = derive(
        &file,
        &["--max-processed", "200"],
        &tmp.path().join("g.zst"),
    );
    check_stats(&stats, Some(200));
    let recs = read_dump_file(&tmp.path().join("g.zst"));
    assert_eq!(recs.len() as u64, u(&stats, "kept"));
    let (edges, depth) = check_dump(&recs);
    assert_eq!(edges, u(&stats, "dag_edges"));
    assert_eq!(depth as u64, u(&stats, "max_depth"));
    // The same run as TSTP prints the same clauses in the same order.
    let (tstp, _) = derive(&file, &["--max-processed", "200"], &tmp.path().join("g.p"));
    let tstp = String::from_utf8(tstp).unwrap();
    assert_eq!(tstp.lines().count(), recs.len());
    for (line, r) in tstp.lines().zip(&recs) {
        let body = format!(", ({}), ", r.clause);
        assert!(line.contains(&body), "{line} vs dump clause {}", r.clause);
        assert!(line.starts_with(&format!("cnf(c{},", r.id)));
        for p in r
            .parents
            .iter()
            .chain(r.simps.iter().filter_map(|s| s.1.as_ref()))
        {
            assert!(line.contains(&format!("c{p}")), "{line} lacks premise c{p}");
        }
    }
}

#[test]
fn reruns_are_byte_identical() {
    let Some(file) = axiom_file("SET002-0.ax") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--max-processed", "300"];
    let (a, sa) = derive(&file, &args, &tmp.path().join("a.p"));
    let (b, sb) = derive(&file, &args, &tmp.path().join("b.p"));
    assert!(a == b, "TSTP differs between two identical runs");
    let (za, _) = derive(&file, &args, &tmp.path().join("a.zst"));
    let (zb, _) = derive(&file, &args, &tmp.path().join("b.zst"));
    assert!(za == zb, "dumps differ between two identical runs");
    for key in ["processed", "generated", "kept", "dag_edges", "max_depth"] {
        assert_eq!(sa[key], sb[key], "{key}");
    }
}

#[test]
fn domain_runs_are_identical_with_one_or_two_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let mut outs = Vec::new();
    for jobs in ["1", "2"] {
        let out = tmp.path().join(format!("jobs{jobs}"));
        let o = run(saturate()
            .args([
                "--domain",
                "SET",
                "--max-processed",
                "150",
                "-q",
                "--jobs",
                jobs,
            ])
            .arg("--config")
            .arg(crate_root().join("configs/smoke.toml"))
            .arg("--out")
            .arg(&out));
        assert_ok(&o);
        outs.push(out.join("SET/saturation"));
    }
    // The dataset too: every file byte-identical.
    let data = |o: &Path| files(&o.parent().unwrap().join("SET-tasks"));
    let (d1, d2) = (data(&outs[0]), data(&outs[1]));
    assert!(
        d1.keys().any(|k| k.ends_with(".parquet")),
        "{:?}",
        d1.keys()
    );
    assert!(d1 == d2, "datasets differ between --jobs 1 and --jobs 2");
    let names = dag_files(&outs[0]);
    assert!(!names.is_empty());
    assert_eq!(names, dag_files(&outs[1]));
    for n in &names {
        let a = std::fs::read(outs[0].join(n)).unwrap();
        let b = std::fs::read(outs[1].join(n)).unwrap();
        assert!(a == b, "{n} differs between --jobs 1 and --jobs 2");
    }
}

/// Sorted `.dag.zst` file names of a folder.
fn dag_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".dag.zst"))
        .collect();
    v.sort();
    v
}

/// Checks a domain output folder: one readable dump per expected name, and
/// a summary with one consistent report per dump.
fn check_domain_output(dir: &Path, expected: &[String], max_processed: u64) {
    let want: Vec<String> = expected.iter().map(|n| format!("{n}.dag.zst")).collect();
    assert_eq!(dag_files(dir), want);
    let summary: Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    let reports = summary.as_array().expect("summary is a list");
    assert_eq!(reports.len(), expected.len());
    for (name, r) in expected.iter().zip(reports) {
        let source = r["source"].as_str().unwrap();
        assert!(source.contains(name.as_str()), "{source} vs {name}");
        check_stats(r, Some(max_processed));
        let recs = read_dump_file(&dir.join(format!("{name}.dag.zst")));
        assert_eq!(recs.len() as u64, u(r, "kept"), "{name}");
        let (edges, depth) = check_dump(&recs);
        assert_eq!(edges, u(r, "dag_edges"), "{name}");
        assert_eq!(depth as u64, u(r, "max_depth"), "{name}");
    }
}

#[test]
fn domain_set_on_the_embedded_axioms() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(saturate()
        .args(["--domain", "SET", "-q"])
        .arg("--config")
        .arg(crate_root().join("configs/smoke.toml"))
        .arg("--out")
        .arg(tmp.path()));
    assert_ok(&o);
    let mut expected: Vec<String> = std::fs::read_dir(crate_root().join("axioms/SET"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".ax").map(str::to_string))
        .collect();
    expected.sort();
    assert!(!expected.is_empty());
    // smoke.toml sets max_processed = 1500.
    check_domain_output(&tmp.path().join("SET/saturation"), &expected, 1500);
    let summary = std::fs::read_to_string(tmp.path().join("SET/saturation/summary.json")).unwrap();
    assert!(summary.contains("embedded:axioms/SET/"), "{summary}");
}

#[test]
fn domain_set_from_a_tptp_root() {
    let Some(root) = tptp_root() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let o = run(saturate()
        .args([
            "--domain",
            "set",
            "--max-processed",
            "100",
            "--count",
            "1",
            "-q",
        ])
        .arg("--tptp")
        .arg(&root)
        .arg("--out")
        .arg(tmp.path()));
    assert_ok(&o);
    let mut expected: Vec<String> = std::fs::read_dir(root.join("Axioms"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("SET") && n.contains('-') && n.ends_with(".ax"))
        .map(|n| n.trim_end_matches(".ax").to_string())
        .collect();
    expected.sort();
    assert!(expected.len() >= 2);
    check_domain_output(&tmp.path().join("SET/saturation"), &expected, 100);
    // The TPTP environment variable works like --tptp.
    let out2 = tmp.path().join("env");
    let o = run(saturate()
        .args([
            "--domain",
            "SET",
            "--max-processed",
            "100",
            "--count",
            "1",
            "-q",
        ])
        .env("TPTP", &root)
        .arg("--out")
        .arg(&out2));
    assert_ok(&o);
    for n in dag_files(&tmp.path().join("SET/saturation")) {
        let a = std::fs::read(tmp.path().join("SET/saturation").join(&n)).unwrap();
        let b = std::fs::read(out2.join("SET/saturation").join(&n)).unwrap();
        assert!(a == b, "{n}: TPTP=DIR and --tptp DIR differ");
    }
}

#[test]
fn problems_with_includes_resolve_against_the_tptp_root() {
    let Some(root) = tptp_root() else { return };
    let problems = root.join("Problems/SET");
    let Some(problem) = std::fs::read_dir(&problems)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("include('Axioms/")))
        .min()
    else {
        panic!("no problem with an include in {}", problems.display());
    };
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("prob.p");
    std::fs::copy(&problem, &copy).unwrap();
    let out = tmp.path().join("o.p");
    let o = run(saturate()
        .arg("derive")
        .arg(&copy)
        .args(["--max-processed", "20", "-q", "--out"])
        .arg(&out));
    assert_eq!(
        o.status.code(),
        Some(2),
        "include without a root: {}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("cannot find included file"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    let o = run(saturate()
        .arg("derive")
        .arg(&copy)
        .args(["--max-processed", "20", "-q", "--out"])
        .arg(&out)
        .env("TPTP", &root));
    assert_ok(&o);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("Axioms/SET"),
        "included clauses name their file"
    );
}

#[test]
fn tiny_satisfiable_input_saturates() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("sat.p");
    std::fs::write(
        &file,
        "cnf(a, axiom, p(a)).\ncnf(b, axiom, ~p(X) | q(X)).\ncnf(c, axiom, ~q(b)).\n",
    )
    .unwrap();
    let (bytes, stats) = derive(&file, &[], &tmp.path().join("o.p"));
    check_stats(&stats, None);
    assert_eq!(stats["status"], "Saturated");
    let text = String::from_utf8(bytes).unwrap();
    check_tstp(&text);
    // Auto mode (on for `derive`) leaves the Horn clause with one strictly
    // maximal literal, q(X), to the ordering: it resolves with ~q(b) only.
    assert!(text.contains("(~p(b))"), "{text}");
    assert!(!text.contains("(q(a))"), "{text}");
    assert!(!text.contains("$false"), "{text}");
    // `auto = false`: largest-negative selection resolves p(a) into it.
    let cfg = tmp.path().join("fixed.toml");
    std::fs::write(&cfg, "[saturation]\nauto = false\n").unwrap();
    let cfg = cfg.to_str().unwrap();
    let (bytes, stats) = derive(&file, &["--config", cfg], &tmp.path().join("f.p"));
    assert_eq!(stats["status"], "Saturated");
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.contains("(q(a))"), "{text}");
}

#[test]
fn tiny_inconsistent_input_ends_unsatisfiable_with_false() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("unsat.p");
    std::fs::write(&file, "cnf(a, axiom, p(a)).\ncnf(b, axiom, ~p(X)).\n").unwrap();
    let (bytes, stats) = derive(&file, &[], &tmp.path().join("o.p"));
    check_stats(&stats, None);
    assert_eq!(stats["status"], "Unsatisfiable");
    let text = String::from_utf8(bytes).unwrap();
    let lines = check_tstp(&text);
    let last = text.lines().last().unwrap();
    assert!(last.contains(", ($false), inference("), "{text}");
    assert_eq!(lines.len(), 3, "{text}");
    // An equational contradiction as well.
    std::fs::write(
        &file,
        "cnf(a, axiom, f(X) = X).\ncnf(b, axiom, f(f(c)) != c).\n",
    )
    .unwrap();
    let (bytes, stats) = derive(&file, &[], &tmp.path().join("o2.p"));
    assert_eq!(stats["status"], "Unsatisfiable");
    assert!(String::from_utf8(bytes).unwrap().contains("($false)"));
}

#[test]
fn limits_are_respected() {
    let Some(file) = axiom_file("GRP003-0.ax") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for n in [1u64, 10, 77] {
        let (_, stats) = derive(
            &file,
            &["--max-processed", &n.to_string()],
            &tmp.path().join("o.p"),
        );
        assert_eq!(u(&stats, "processed"), n);
        assert_eq!(stats["status"], "ResourceOut");
    }
    // The command line overrides the config file.
    let (_, stats) = derive(
        &file,
        &[
            "--config",
            crate_root().join("configs/smoke.toml").to_str().unwrap(),
            "--max-processed",
            "40",
        ],
        &tmp.path().join("o.p"),
    );
    assert_eq!(u(&stats, "processed"), 40);
}

#[test]
fn print_config_reflects_overrides() {
    let o = run(saturate().args(["print-config", "--max-processed", "7"]));
    assert_ok(&o);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("max_processed = 7"), "{text}");
    // The printed configuration is itself a valid config file.
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("c.toml");
    std::fs::write(&cfg, &text).unwrap();
    let o = run(saturate().args(["print-config", "--config"]).arg(&cfg));
    assert_ok(&o);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), text);
}

// ---------------------------------------------------------------------------
// Bad input: exit code 2, a located message, no output left behind.

/// Runs `derive` on `text` written to a temp file and checks the failure:
/// exit code 2, stderr `error: <path>:<line>:<col>: ...` with the given
/// position (`None` = any), a message containing `needle`, and neither the
/// output nor the stats file (nor a temporary file) left behind.
fn assert_input_error(text: &[u8], pos: Option<(u32, u32)>, needle: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("bad.p");
    std::fs::write(&file, text).unwrap();
    let out_dir = tmp.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    for out_name in ["o.p", "o.zst"] {
        let out = out_dir.join(out_name);
        let stats = out_dir.join("s.json");
        let o = run(saturate()
            .arg("derive")
            .arg(&file)
            .arg("--out")
            .arg(&out)
            .arg("--stats-json")
            .arg(&stats));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        let prefix = format!("error: {}:", file.display());
        let line = err
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' line in: {err}"));
        let rest = &line[prefix.len()..];
        let mut it = rest.splitn(3, ':');
        let l: u32 = it
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("{line}"));
        let c: u32 = it
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("{line}"));
        if let Some(p) = pos {
            assert_eq!((l, c), p, "{line}");
        }
        assert!(line.contains(needle), "{line} lacks '{needle}'");
        assert_eq!(
            std::fs::read_dir(&out_dir).unwrap().count(),
            0,
            "output left behind after an input error"
        );
    }
}

#[test]
fn unbalanced_parentheses() {
    assert_input_error(b"cnf(a, axiom, p(X).\n", Some((1, 19)), "expected");
    assert_input_error(b"cnf(a, axiom, (p(X) | q(X)).\n", Some((1, 28)), "expected");
}

#[test]
fn bad_role() {
    assert_input_error(
        b"cnf(a, axiom, p).\ncnf(b, lemmas, q).\n",
        Some((2, 8)),
        "bad role 'lemmas'",
    );
}

#[test]
fn missing_include() {
    assert_input_error(
        b"cnf(a, axiom, p).\ninclude('Axioms/NOPE-0.ax').\n",
        Some((2, 9)),
        "cannot find included file 'Axioms/NOPE-0.ax'",
    );
}

#[test]
fn binary_garbage() {
    // Deterministic pseudo-random bytes (xorshift), no newline, after a
    // valid first line and an invalid UTF-8 sequence at line 2, column 1.
    let mut bytes = b"cnf(a, axiom, p).\n\xc3\x28".to_vec();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..500 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let b = (x >> 24) as u8;
        bytes.push(if b == b'\n' { 0xff } else { b });
    }
    assert_input_error(&bytes, Some((2, 1)), "UTF-8");
    // Garbage from the first byte, control characters and invalid UTF-8
    // mixed (which of the two is reported first is the reader's choice).
    let mut elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
    elf.extend(&bytes[20..]);
    assert_input_error(&elf, None, "binary file");
    assert_input_error(
        b"\x7fELF\x02\x01\x01\x00",
        Some((1, 1)),
        "control character U+007F",
    );
}

/// A TPTP file with no formulas is an empty clause set: `derive` and
/// `prove` answer Satisfiable (as E does), and what `derive` writes reads
/// back the same way.
#[test]
fn empty_file() {
    let tmp = tempfile::tempdir().unwrap();
    for (k, text) in ["", "% only a comment\n\n", "cnf(t, axiom, $true).\n"]
        .iter()
        .enumerate()
    {
        let file = tmp.path().join(format!("e{k}.p"));
        std::fs::write(&file, text).unwrap();
        let out = tmp.path().join(format!("e{k}.out.p"));
        let again = tmp.path().join(format!("e{k}.again.p"));
        for (input, output) in [(&file, &out), (&out, &again)] {
            let o = run(saturate()
                .arg("derive")
                .arg("-q")
                .arg(input)
                .arg("--out")
                .arg(output));
            assert_ok(&o);
            assert!(
                stdout(&o).starts_with("% SZS status Satisfiable"),
                "{text:?}: {}",
                stdout(&o)
            );
            let o = run(saturate().arg("prove").arg("-q").arg(input));
            assert_ok(&o);
            assert!(
                stdout(&o).starts_with("% SZS status Satisfiable"),
                "{text:?}: {}",
                stdout(&o)
            );
        }
    }
}

#[test]
fn other_dialects_are_located_input_errors_and_fof_is_read() {
    assert_input_error(
        b"cnf(a, axiom, p).\ntff(b, axiom, ![X: $i]: q(X)).\n",
        Some((2, 1)),
        "TFF input is not supported",
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("f.p");
    std::fs::write(&file, "cnf(a, axiom, p).\nfof(b, axiom, ![X]: q(X)).\n").unwrap();
    let o = run(saturate().arg("derive").arg(&file).arg("-q"));
    assert_ok(&o);
    assert!(stdout(&o).contains("q(X"), "{}", stdout(&o));
}

#[test]
fn nonexistent_file() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("missing.ax");
    let out = tmp.path().join("o.p");
    let o = run(saturate()
        .arg("derive")
        .arg(&missing)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("error: {}:1:1: ", missing.display())),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

#[test]
fn unknown_domain() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = run(saturate()
        .args(["--domain", "XYZ", "-q", "--out"])
        .arg(&out));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("unknown domain 'XYZ'"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    let o = run(saturate()
        .args(["--domain", "S3T", "-q", "--out"])
        .arg(&out));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    if let Some(root) = tptp_root() {
        let o = run(saturate()
            .args(["--domain", "XYZ", "-q", "--tptp"])
            .arg(&root)
            .arg("--out")
            .arg(&out));
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("XYZ"), "{}", stderr(&o));
    }
    assert!(!out.exists());
    // No domain and no subcommand is a usage error too.
    let o = run(saturate().args(["--out"]).arg(&out));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!out.exists());
}

#[test]
fn bad_config() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("bad.toml");
    std::fs::write(&cfg, "seed = 1\n[saturation]\nslection = \"none\"\n").unwrap();
    let input = tmp.path().join("in.p");
    std::fs::write(&input, "cnf(a, axiom, p(a)).\n").unwrap();
    let out = tmp.path().join("o.p");
    let want = format!("error: {}:3:1: ", cfg.display());
    let o = run(saturate()
        .arg("derive")
        .arg(&input)
        .arg("--config")
        .arg(&cfg)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert!(stderr(&o).contains("slection"), "{}", stderr(&o));
    assert!(!out.exists());
    let dir = tmp.path().join("dom");
    let o = run(saturate()
        .args(["--domain", "SET", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(&dir));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert!(!dir.exists());
    // A value of the wrong type is located as well.
    std::fs::write(&cfg, "[saturation.limits]\nmax_processed = \"many\"\n").unwrap();
    let o = run(saturate().arg("print-config").arg("--config").arg(&cfg));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("error: {}:2:", cfg.display())),
        "{}",
        stderr(&o)
    );
    // A missing config file is an input error naming the file.
    let o = run(saturate()
        .arg("print-config")
        .arg("--config")
        .arg(tmp.path().join("none.toml")));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("none.toml"), "{}", stderr(&o));
}

#[test]
fn unwritable_output_is_a_runtime_error() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.p");
    std::fs::write(&input, "cnf(a, axiom, p(a)).\n").unwrap();
    // The output's folder would have to be created under a regular file.
    let out = tmp.path().join("in.p/sub/o.p");
    let o = run(saturate().arg("derive").arg(&input).arg("--out").arg(&out));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
}

/// A reader that stops early (`saturate derive F | head -1`) ends the run
/// quietly, by SIGPIPE as for any Unix tool, never with a panic message.
#[test]
fn closed_stdout_ends_the_run_without_a_panic() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let file = crate_root().join("axioms/SET/SET-boolean.ax");
    let mut child = saturate()
        .args(["derive", "-q", "--max-processed", "3000"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("saturate runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the rest of the derivation meets a
    // closed pipe.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!first.is_empty());
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGPIPE),
        "{:?} {err}",
        out.status
    );
}
