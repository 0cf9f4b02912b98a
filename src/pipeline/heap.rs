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
