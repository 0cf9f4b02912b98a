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
