//! The fuzzing harness's machinery: case counts and seeds from the
//! environment, a deterministic proptest runner per target, a guard that
//! turns a panic or a hang of the code under test into a reported fault, and
//! the list of known faults that are tracked in `tests/fuzz_corpus/`.

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use std::fmt::Debug;
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Duration;

/// Cases per target: `SATURATE_FUZZ_CASES` (or proptest's own
/// `PROPTEST_CASES`) when set, else the target's CI default.
pub fn cases(default: u32) -> u32 {
    for var in ["SATURATE_FUZZ_CASES", "PROPTEST_CASES"] {
        if let Ok(v) = std::env::var(var) {
            return v
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{var}={v:?} is not a number of cases"));
        }
    }
    default
}

/// The run seed: fixed by default (CI is reproducible); `SATURATE_FUZZ_SEED`
/// gives another one, or `random` for a fresh one (printed, so a failure
/// can be replayed with it).
pub fn base_seed() -> u64 {
    match std::env::var("SATURATE_FUZZ_SEED") {
        Err(_) => 0x5a7_u64,
        Ok(v) if v.trim() == "random" => {
            use std::hash::{BuildHasher, RandomState};
            let s = RandomState::new().hash_one(std::time::SystemTime::now());
            eprintln!("fuzz: SATURATE_FUZZ_SEED={s}");
            s
        }
        Ok(v) => v.trim().parse().unwrap_or_else(|_| {
            panic!("SATURATE_FUZZ_SEED={v:?} is neither a number nor `random`")
        }),
    }
}

/// A runner for one target: the base seed mixed with the target name, so
/// targets draw independent streams; no failure files are written.
pub fn runner(target: &str, default_cases: u32) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&base_seed().to_le_bytes());
    for (i, b) in target.bytes().enumerate() {
        bytes[8 + i % 24] ^= b;
    }
    let config = Config {
        cases: cases(default_cases),
        failure_persistence: None,
        max_shrink_iters: 512,
        max_shrink_time: 60_000,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// What went wrong in a guarded call.
#[derive(Debug)]
pub enum Fault {
    /// The code panicked with this message.
    Panic(String),
    /// The code did not return within the guard's limit.
    Hang,
}

/// Time a single fuzz case may take before it is reported as a hang: a
/// generous multiple of what any case takes (milliseconds), so only
/// unbounded work trips it.
pub const HANG_LIMIT: Duration = Duration::from_secs(30);

/// Runs `f` on its own thread (8 MiB of stack, like a main thread) and
/// reports a panic or a hang instead of propagating it.
pub fn guarded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, Fault> {
    install_hook();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(CASE_THREAD.into())
        .stack_size(8 << 20)
        .spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "non-string panic payload".into());
                format!("{}: {msg}", LAST_PANIC_AT.with(|c| c.borrow().clone()))
            });
            let _ = tx.send(r);
        })
        .expect("spawn fuzz case");
    match rx.recv_timeout(HANG_LIMIT) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(msg)) => Err(Fault::Panic(msg)),
        Err(_) => Err(Fault::Hang),
    }
}

/// The name of the threads [`guarded`] runs cases on.
const CASE_THREAD: &str = "fuzz-case";

/// Makes the panic payload carry its location (`file:line:col: message`)
/// on case threads, where the panic is reported by the harness instead of
/// printed; other threads keep the default hook.
fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some(CASE_THREAD) {
                let loc = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                LAST_PANIC_AT.with(|c| *c.borrow_mut() = loc);
            } else {
                default(info);
            }
        }));
    });
}

thread_local! {
    static LAST_PANIC_AT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// A fault that is known and tracked: a reproducer is kept in
/// `tests/fuzz_corpus/<target>/` with an `#[ignore]`d regression test, and
/// the always-on run reports it without failing. Remove the entry when the
/// fault is fixed (the regression test then runs by default).
pub struct Known {
    /// The target it belongs to.
    pub target: &'static str,
    /// A substring of the panic message.
    pub panic: &'static str,
}

/// The known faults, in code this harness does not own. Each entry's
/// `panic` is matched against the finding's message, which for the
/// child-process targets (`score-hostile`, `prove`, `siblings`) starts with
/// the case's description, so an entry names a class of cases; a case of a
/// class known to hang is not run by default (see [`skip_known`]).
pub const KNOWN: &[Known] = &[];

/// What to do with cases of a known fault (`SATURATE_FUZZ_KNOWN`): by
/// default cases of a known class are skipped when they would hang or
/// take seconds (the child-process targets), and other known faults are
/// reported without failing; `run` runs every case and still tolerates
/// known faults; `fail` runs every case and fails on known faults too (to
/// check that a target catches them, or that a fix removed them).
pub fn known_mode() -> &'static str {
    static MODE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    MODE.get_or_init(|| {
        let m = std::env::var("SATURATE_FUZZ_KNOWN").unwrap_or_default();
        match m.trim() {
            "" | "skip" => "skip".to_string(),
            "run" | "fail" => m.trim().to_string(),
            o => panic!("SATURATE_FUZZ_KNOWN={o:?} is none of skip, run, fail"),
        }
    })
}

/// The known fault a finding of `target` with message `msg` is, if any
/// (never under `SATURATE_FUZZ_KNOWN=fail`).
pub fn known(target: &str, msg: &str) -> Option<&'static Known> {
    if known_mode() == "fail" {
        return None;
    }
    KNOWN
        .iter()
        .find(|k| k.target == target && msg.contains(k.panic))
}

/// Whether a case of `target` described by `desc` is skipped: it belongs
/// to a known class and `SATURATE_FUZZ_KNOWN` is unset (or `skip`).
pub fn skip_known(target: &str, desc: &str) -> bool {
    known_mode() == "skip" && known(target, desc).is_some()
}

/// The wall-clock safety net of a child-process case: a case still running
/// after this is reported as a hang (and its process killed). Generous:
/// every bounded case takes a small fraction of it.
pub const CHILD_LIMIT: Duration = Duration::from_secs(20);

/// How a child process ended.
#[derive(Debug)]
pub struct ChildRun {
    /// The exit status; `None` when it was killed at the limit.
    pub status: Option<std::process::ExitStatus>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Wall-clock seconds.
    pub secs: f64,
}

impl ChildRun {
    /// A one-line account of an abnormal end (hang, signal, panic), `None`
    /// for an exit with a code other than 101 (Rust's panic exit).
    pub fn fault(&self) -> Option<String> {
        use std::os::unix::process::ExitStatusExt;
        let tail = |s: &str| {
            let t: Vec<&str> = s.lines().rev().take(3).collect();
            t.into_iter().rev().collect::<Vec<_>>().join(" / ")
        };
        match self.status {
            None => Some(format!(
                "hang: still running after {CHILD_LIMIT:?} (killed)"
            )),
            Some(s) if s.signal().is_some() => Some(format!(
                "crash: killed by signal {} ({})",
                s.signal().unwrap(),
                tail(&self.stderr)
            )),
            Some(s) if s.code() == Some(101) || self.stderr.contains("panicked at") => {
                Some(format!("panic: {}", tail(&self.stderr)))
            }
            Some(_) => None,
        }
    }
}

/// Runs `cmd` (output to files, no input), killing it after
/// [`CHILD_LIMIT`].
pub fn run_child(mut cmd: std::process::Command) -> ChildRun {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let (o, e) = (dir.path().join("out"), dir.path().join("err"));
    let start = std::time::Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&o).unwrap())
        .stderr(std::fs::File::create(&e).unwrap())
        .spawn()
        .expect("spawn a child case");
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > CHILD_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let read =
        |p: &std::path::Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    ChildRun {
        status,
        stdout: read(&o),
        stderr: read(&e),
        secs: start.elapsed().as_secs_f64(),
    }
}

/// Runs one target: `property` is called on each generated input and
/// returns `Ok(())` or an assertion failure; panics and hangs are caught by
/// [`guarded`] inside it. Faults matching [`KNOWN`] are counted and
/// printed, not failed. Prints the number of cases run.
pub fn run_target<S>(
    target: &'static str,
    default_cases: u32,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), String> + Sync,
) where
    S: Strategy,
    S::Value: Debug,
{
    let known_hits = Mutex::new(Vec::<String>::new());
    let mut runner = runner(target, default_cases);
    let n = runner.config().cases;
    let result = runner.run(&strategy, |input| match property(input) {
        Ok(()) => Ok(()),
        Err(msg) => {
            if let Some(k) = known(target, &msg) {
                known_hits.lock().unwrap().push(k.panic.to_string());
                return Ok(());
            }
            Err(TestCaseError::fail(msg))
        }
    });
    let mut known = known_hits.into_inner().unwrap();
    let hits = known.len();
    known.sort();
    known.dedup();
    eprintln!(
        "fuzz {target}: {n} cases, {hits} known faults hit{}",
        if known.is_empty() {
            String::new()
        } else {
            format!(" ({})", known.join("; "))
        }
    );
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, input)) => {
            panic!("fuzz {target}: {why}\nminimal input: {input:#?}")
        }
        Err(TestError::Abort(why)) => panic!("fuzz {target}: aborted: {why}"),
    }
}

/// Turns a guarded call's fault into the property's failure message.
pub fn fault_msg(what: &str, f: Fault) -> String {
    match f {
        Fault::Panic(m) => format!("panic in {what}: {m}"),
        Fault::Hang => format!("{what} did not return within {HANG_LIMIT:?}"),
    }
}
