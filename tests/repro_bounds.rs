//! The resource reproducers of the robustness review (tests/repro/, copies
//! of the shared reproducers) run on the real binary: each must end within a
//! few seconds with a clear error or `ResourceOut`, with a peak resident set
//! under 2 GB (measured with `wait4`), never a panic, an abort or a hang;
//! and a run's peak memory grows far less than the text of its rows.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Peak RSS allowed to a reproducer run.
const MAX_RSS_BYTES: u64 = 2 << 30;
/// Wall-clock safety net of the test harness only (the binary's limits are
/// work units): a run still going after this is a hang.
const HANG_SECS: u64 = 60;

struct Outcome {
    code: Option<i32>,
    signal: Option<i32>,
    max_rss_bytes: u64,
    secs: f64,
    stdout: String,
    stderr: String,
}

fn repro(name: &str) -> PathBuf {
    common::crate_root().join("tests/repro").join(name)
}

/// Runs the binary with `args` in `dir`, waiting with `wait4` to read the
/// child's own peak RSS. The address space is capped at 3 GiB so that a
/// regression fails this test instead of exhausting the machine.
// The child is reaped by `wait4` (std's `wait` would lose its rusage).
#[allow(clippy::zombie_processes)]
fn measure(dir: &Path, args: &[&str]) -> Outcome {
    use std::os::unix::process::CommandExt;
    let out_path = dir.join(".stdout");
    let err_path = dir.join(".stderr");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_saturate"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("TPTP")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap());
    // SAFETY: setrlimit is async-signal-safe and touches no parent state.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 3 << 30,
                rlim_max: 3 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let child = cmd.spawn().expect("spawn saturate");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waiting on our own child, which std will not wait on.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(r >= 0, "wait4: {}", std::io::Error::last_os_error());
        if r == pid {
            break;
        }
        if start.elapsed() > Duration::from_secs(HANG_SECS) {
            // SAFETY: signalling our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("saturate {args:?} hangs (> {HANG_SECS} s)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let secs = start.elapsed().as_secs_f64();
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else {
        (None, Some(libc::WTERMSIG(status)))
    };
    Outcome {
        code,
        signal,
        // ru_maxrss is in KiB on Linux.
        max_rss_bytes: usage.ru_maxrss as u64 * 1024,
        secs,
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
    }
}

/// No panic, no abort or signal, bounded memory; returns the outcome.
fn assert_bounded(dir: &Path, args: &[&str]) -> Outcome {
    let o = measure(dir, args);
    eprintln!(
        "{args:?}: exit {:?} signal {:?}, {:.2} s, max RSS {} MiB",
        o.code,
        o.signal,
        o.secs,
        o.max_rss_bytes >> 20
    );
    assert_eq!(o.signal, None, "{args:?} killed by a signal\n{}", o.stderr);
    assert_ne!(o.code, Some(101), "{args:?} panicked\n{}", o.stderr);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    assert!(
        o.max_rss_bytes < MAX_RSS_BYTES,
        "{args:?}: peak RSS {} MiB",
        o.max_rss_bytes >> 20
    );
    o
}

/// `derive FILE --stats-json` with extra arguments; returns the run status.
fn derive_status(file: &Path, extra: &[&str]) -> (Outcome, serde_json::Value) {
    let tmp = tempfile::tempdir().unwrap();
    let stats = tmp.path().join("stats.json");
    let out = tmp.path().join("o.tstp");
    let mut args = vec![
        "derive",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--stats-json",
        stats.to_str().unwrap(),
        "-q",
    ];
    args.extend_from_slice(extra);
    let o = assert_bounded(tmp.path(), &args);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    (o, v)
}

/// A config file with auto mode off (largest-negative selection), the
/// strategy under which the R02 and R07 inputs grow without end; the
/// directory guard keeps it.
fn fixed_strategy() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fixed.toml");
    std::fs::write(&path, "[saturation]\nauto = false\n").unwrap();
    let path = path.to_str().unwrap().to_string();
    (dir, path)
}

#[test]
fn r02_doubling_terms_end_resource_out() {
    let (_dir, cfg) = fixed_strategy();
    for extra in [
        &["--max-processed", "30", "--config", &cfg][..],
        &["--config", &cfg],
    ] {
        let (_, v) = derive_status(&repro("R02_double.ax"), extra);
        assert_eq!(v["status"], "ResourceOut", "{v}");
        assert!(v["counters"]["too_heavy"].as_u64().unwrap() >= 1, "{v}");
    }
    // Auto mode (the default for `derive`) leaves `~p(X) | p(g(X,X))` to
    // the ordering: nothing resolves with p(a), and the set saturates.
    let (_, v) = derive_status(&repro("R02_double.ax"), &[]);
    assert_eq!(v["status"], "Saturated", "{v}");
}

#[test]
fn r05_huge_arity_model_search_gives_up_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["R05_arity31.p", "R05_arity32.p"] {
        let f = repro(name);
        let o = assert_bounded(tmp.path(), &["prove", f.to_str().unwrap()]);
        assert!(
            matches!(o.code, Some(0 | 3)),
            "{name}: {:?}\n{}",
            o.code,
            o.stderr
        );
        assert!(o.stdout.contains("SZS status"), "{name}: {}", o.stdout);
    }
}

#[test]
fn r06_many_literals_end_resource_out() {
    let (_, v) = derive_status(&repro("R06_manylits200.ax"), &["--max-processed", "50"]);
    assert_eq!(v["status"], "ResourceOut", "{v}");
    assert_eq!(v["counters"]["too_long"], 1, "{v}");
}

/// A generated clause of 20,000 literals (once 42 minutes).
#[test]
fn twenty_thousand_literals_end_resource_out() {
    let tmp = tempfile::tempdir().unwrap();
    let lits: Vec<String> = (0..20_000).map(|i| format!("p(X{i})")).collect();
    let f = tmp.path().join("long.ax");
    std::fs::write(
        &f,
        format!(
            "cnf(m, axiom, {}).\ncnf(n, axiom, q(a)).\n",
            lits.join(" | ")
        ),
    )
    .unwrap();
    let (_, v) = derive_status(&f, &[]);
    assert_eq!(v["status"], "ResourceOut", "{v}");
}

#[test]
fn r07_chain_and_ac_finish_at_the_default_limits() {
    let (_dir, cfg) = fixed_strategy();
    let (_, v) = derive_status(&repro("R07_chain.ax"), &["--config", &cfg]);
    assert_eq!(v["status"], "ResourceOut", "{v}");
    let (_, v) = derive_status(&repro("R07_ac.ax"), &["--max-processed", "1000"]);
    assert_eq!(v["status"], "ResourceOut", "{v}");
}

/// The include bomb of `R08_include_bomb.sh`, built here: L7 would expand to
/// 10^7 clauses. Reading stops at the include bound: exit 2 with the chain.
#[test]
fn r08_include_bomb_is_an_input_error() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("L0.ax"), "cnf(leaf, axiom, p(a)).\n").unwrap();
    for i in 1..=7 {
        let body = format!("include('L{}.ax').\n", i - 1).repeat(10);
        std::fs::write(d.join(format!("L{i}.ax")), body).unwrap();
    }
    let o = assert_bounded(
        d,
        &[
            "derive",
            "L7.ax",
            "--max-processed",
            "10",
            "--out",
            "o.tstp",
        ],
    );
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(o.stderr.contains("includes read more than"), "{}", o.stderr);
    assert!(o.stderr.contains("L7.ax -> ./L6.ax -> "), "{}", o.stderr);
    assert!(!d.join("o.tstp").exists());
    let o = assert_bounded(d, &["prove", "L7.ax"]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
}

#[test]
fn confine_includes_refuses_files_outside() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::create_dir_all(d.join("probs")).unwrap();
    std::fs::write(d.join("outside.ax"), "cnf(o, axiom, p(a)).\n").unwrap();
    std::fs::write(
        d.join("probs/P.p"),
        "include('../outside.ax').\ncnf(g, negated_conjecture, ~p(a)).\n",
    )
    .unwrap();
    let o = assert_bounded(d, &["prove", "probs/P.p"]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let o = assert_bounded(d, &["prove", "probs/P.p", "--confine-includes"]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(
        o.stderr.contains("probs/P.p:1:9") && o.stderr.contains("confined"),
        "{}",
        o.stderr
    );
    let o = assert_bounded(d, &["derive", "probs/P.p", "--confine-includes", "-q"]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
}

/// A run's peak memory must not grow with the text of the rows it writes:
/// `saturate equiv` at twice the count (8,000 more rows, about 3 KB of
/// prompt, metadata and certificate each) may add at most 2 KB of peak RSS
/// per extra row. Kept per row: the writer's index entry and id digest, the
/// dedup digest and (up to `MAX_AUDIT_ROWS` per cell) the audit's numbers;
/// the Parquet row group in progress grows until its 1,024 rows. The
/// audit's learned text readers keep the hashed tokens of at most
/// `MAX_TEXT_ROWS` (500) rows per cell, some kilobytes each: both counts
/// here fill that store, so it is the same on both sides (from count 50 to
/// 500 it added about 1.4 KB per extra row). Measured before the text
/// readers: 1.4 KB per extra row between counts 50 and 500 (0.8 KB between
/// 200 and 2,000, where the row groups are full on both sides).
#[test]
fn peak_memory_grows_by_less_than_the_rows_text() {
    let tmp = tempfile::tempdir().unwrap();
    let rss = |count: &str| {
        let out = tmp.path().join(format!("equiv-{count}"));
        let o = assert_bounded(
            tmp.path(),
            &[
                "equiv",
                "--count",
                count,
                "--jobs",
                "2",
                "-q",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(o.code, Some(0), "{}", o.stderr);
        o.max_rss_bytes
    };
    let (small, large) = (rss("500"), rss("1000"));
    let extra_rows = 16 * 500;
    let per_row = large.saturating_sub(small) / extra_rows;
    assert!(
        per_row < 2048,
        "peak RSS {} MiB at count 500, {} MiB at count 1000: {per_row} bytes per extra row",
        small >> 20,
        large >> 20
    );
}
