//! The `--cpu-limit` deadline of `prove` and `derive`: a point in the
//! process's CPU time (`CLOCK_PROCESS_CPUTIME_ID`), so a run on a busy
//! machine gets the CPU seconds it was given, as E's `--cpu-limit` does,
//! rather than losing them to other processes. The one limit that is not
//! reproducible; dataset runs never set one. The CPU clocks (process and
//! thread, the latter for `prover::cost`) are read here.

/// A CPU-time deadline of this process.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Deadline {
    /// Process CPU seconds at which the deadline passes.
    at: f64,
}

impl Deadline {
    /// The deadline `seconds` CPU seconds from now.
    pub fn after_secs(seconds: f64) -> Deadline {
        Deadline {
            at: process_cpu_seconds() + seconds.max(0.0),
        }
    }

    /// A deadline that has already passed.
    pub fn passed_already() -> Deadline {
        Deadline { at: f64::MIN }
    }

    /// True once the process has used the CPU time up to the deadline.
    pub fn passed(&self) -> bool {
        process_cpu_seconds() >= self.at
    }

    /// True when `d` is set and has passed.
    pub fn reached(d: Option<Deadline>) -> bool {
        d.is_some_and(|d| d.passed())
    }
}

/// CPU seconds the whole process has used (every thread).
pub fn process_cpu_seconds() -> f64 {
    cpu_seconds(false)
}

/// CPU seconds the calling thread has used (other processes and threads
/// on a busy machine do not count).
pub fn thread_cpu_seconds() -> f64 {
    cpu_seconds(true)
}

/// The calling thread's (`thread`) or the process's CPU time in seconds;
/// wall-clock seconds if the clock cannot be read.
#[cfg(unix)]
fn cpu_seconds(thread: bool) -> f64 {
    let clock = if thread {
        libc::CLOCK_THREAD_CPUTIME_ID
    } else {
        libc::CLOCK_PROCESS_CPUTIME_ID
    };
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a
    // constant the platform defines.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    if rc != 0 {
        return wall_seconds();
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// CPU seconds (wall-clock on this platform).
#[cfg(not(unix))]
fn cpu_seconds(_thread: bool) -> f64 {
    wall_seconds()
}

/// Seconds since the first call in this process (the fallback clock).
fn wall_seconds() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_passes_once_the_process_has_spent_the_cpu_time() {
        assert!(Deadline::passed_already().passed());
        assert!(!Deadline::reached(None));
        let d = Deadline::after_secs(0.05);
        assert!(!d.passed(), "no CPU spent yet");
        // Spin until the CPU clock passes it: sleeping would not.
        let mut x = 0u64;
        while !d.passed() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        assert!(Deadline::reached(Some(d)));
    }
}
