//! Gives freed heap pages back to the operating system between batches of
//! slots (glibc `malloc_trim`, see mallopt(3) and malloc_trim(3)).
//!
//! glibc's malloc gives each worker thread its own arena and, on `free`,
//! returns to the system only the free space at an arena's top. A prover
//! call's clauses are freed when it ends, but a verdict cached or a row
//! built after them sits above them, so their pages stay resident. Over a
//! long run the resident size of each arena creeps towards the largest
//! total the arena ever held: `configs/paper.toml` at 500 rows per cell
//! sat at 1.77 GB from its 37th minute on; trimming between batches keeps
//! it at 150-450 MB. `malloc_trim(0)` walks every arena and releases each
//! whole free page. Other allocators and
//! platforms return memory their own way, and [`release`] does nothing
//! there.
//!
//! [`RssSampler`] reads the resident size (`/proc/self/statm`, proc(5))
//! every few milliseconds on its own thread, so a run can say which cell
//! its memory peak came from (`--cost-json`, `peak_rss_mib`) without
//! resetting the kernel's high-water mark, which `getrusage` and
//! `/usr/bin/time` report ([`peak_rss_kib`] reads that mark).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Releases the free pages of every malloc arena to the operating system.
/// Outputs never depend on it: only the resident size changes.
pub fn release() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only reads and updates malloc's own state, under
    // each arena's lock; it may be called from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Calls [`release`] at most once per [`Trimmer::EVERY`]: a trim costs a
/// walk over the free chunks and page faults when the pages are used again,
/// so a run of short batches trims as often as a run of long ones.
#[derive(Debug)]
pub struct Trimmer {
    last: Instant,
}

impl Default for Trimmer {
    fn default() -> Self {
        Self {
            last: Instant::now(),
        }
    }
}

impl Trimmer {
    /// The least time between two trims.
    pub const EVERY: Duration = Duration::from_secs(2);

    /// Trims when [`Trimmer::EVERY`] has passed since the last trim; true if
    /// it did.
    pub fn maybe(&mut self) -> bool {
        if self.last.elapsed() < Self::EVERY {
            return false;
        }
        release();
        self.last = Instant::now();
        true
    }

    /// Trims now (after a large structure was dropped).
    pub fn now(&mut self) {
        release();
        self.last = Instant::now();
    }
}

/// The process's resident size in KiB now (`/proc/self/statm`), `None`
/// where there is no such file.
pub fn rss_kib() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages.saturating_mul(page_kib()))
}

/// Peak resident memory of this process in KiB (`VmHWM`, the kernel's
/// high-water mark that `getrusage` reports too), 0 if unknown.
pub fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn page_kib() -> u64 {
    #[cfg(unix)]
    {
        // SAFETY: sysconf reads a constant of the system; no memory is
        // touched.
        let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if size > 0 {
            return size as u64 / 1024;
        }
    }
    4
}

/// Tracks the largest resident size between two [`RssSampler::take`]s by
/// reading it every [`RssSampler::EVERY`] on a thread of its own. A burst
/// shorter than the interval can be missed; one that holds a gigabyte for
/// longer cannot. Measurements only: never part of a dataset.
#[derive(Debug)]
pub struct RssSampler {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Debug, Default)]
struct Shared {
    max_kib: AtomicU64,
    stop: Mutex<bool>,
    wake: Condvar,
}

impl RssSampler {
    /// The time between two readings.
    pub const EVERY: Duration = Duration::from_millis(20);

    /// Starts sampling; a sampler that cannot read the resident size (no
    /// `/proc`) starts no thread and its [`RssSampler::take`] gives `None`.
    pub fn start() -> Self {
        let shared = Arc::new(Shared::default());
        let Some(now) = rss_kib() else {
            return Self {
                shared,
                thread: None,
            };
        };
        shared.max_kib.store(now, Ordering::Relaxed);
        let s = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("rss-sampler".into())
            .spawn(move || {
                let mut stop = s.stop.lock().unwrap_or_else(|e| e.into_inner());
                while !*stop {
                    if let Some(kib) = rss_kib() {
                        s.max_kib.fetch_max(kib, Ordering::Relaxed);
                    }
                    stop = s
                        .wake
                        .wait_timeout(stop, Self::EVERY)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
            })
            .ok();
        Self { shared, thread }
    }

    /// The largest resident size (KiB) seen since the last call (or since
    /// the start), the current one included; the next period starts now.
    pub fn take(&self) -> Option<u64> {
        self.thread.as_ref()?;
        let now = rss_kib().unwrap_or(0);
        Some(self.shared.max_kib.swap(now, Ordering::Relaxed).max(now))
    }
}

impl Drop for RssSampler {
    fn drop(&mut self) {
        *self.shared.stop.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.shared.wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trimmer waits out its interval, then trims again.
    #[test]
    fn trims_at_most_once_per_interval() {
        let mut t = Trimmer::default();
        assert!(!t.maybe(), "a fresh trimmer has just trimmed");
        t.last = Instant::now() - Trimmer::EVERY;
        assert!(t.maybe());
        assert!(!t.maybe());
    }
}
