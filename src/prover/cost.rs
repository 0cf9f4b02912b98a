//! Where a thread's proving time goes: saturation, finite model search,
//! certificate checking, and the share of it spent on calls that ended
//! undecided. Thread-local counters that the generation loop reads before
//! and after each candidate, so the cost of a certified row splits by
//! stage per cell (`scripts/cost_per_row.py`). CPU seconds of the calling
//! thread (`CLOCK_THREAD_CPUTIME_ID`, so other processes on a busy machine
//! do not inflate them; wall-clock where the platform lacks that clock):
//! informational, never a limit, never in a dataset.

pub use crate::deadline::thread_cpu_seconds;
use std::cell::Cell;

/// Seconds and counts of prover work.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Costs {
    /// Seconds in saturation (the refutation search).
    pub saturation: f64,
    /// Seconds in finite model search.
    pub models: f64,
    /// Seconds in the independent checker.
    pub checking: f64,
    /// Seconds of the calls (saturation and model search) that ended
    /// `Unknown`: work that certified nothing.
    pub undecided: f64,
    /// Prover calls that ran (cache hits excluded).
    pub calls: u64,
    /// Of those, the ones that ended `Unknown`.
    pub unknowns: u64,
}

impl Costs {
    /// The work done since `before` (a reading of [`current`] on the same
    /// thread).
    pub fn since(self, before: Costs) -> Costs {
        Costs {
            saturation: self.saturation - before.saturation,
            models: self.models - before.models,
            checking: self.checking - before.checking,
            undecided: self.undecided - before.undecided,
            calls: self.calls - before.calls,
            unknowns: self.unknowns - before.unknowns,
        }
    }

    /// Adds `o` into `self`.
    pub fn add(&mut self, o: Costs) {
        self.saturation += o.saturation;
        self.models += o.models;
        self.checking += o.checking;
        self.undecided += o.undecided;
        self.calls += o.calls;
        self.unknowns += o.unknowns;
    }
}

thread_local! {
    static COSTS: Cell<Costs> = Cell::new(Costs::default());
}

/// This thread's running totals.
pub fn current() -> Costs {
    COSTS.with(|c| c.get())
}

/// Adds to this thread's totals.
pub(crate) fn record(f: impl FnOnce(&mut Costs)) {
    COSTS.with(|c| {
        let mut v = c.get();
        f(&mut v);
        c.set(v);
    });
}

/// A reading of this thread's CPU clock; [`secs`] gives the seconds since.
#[derive(Clone, Copy, Debug)]
pub struct Stamp(f64);

/// This thread's CPU time now.
pub fn now() -> Stamp {
    Stamp(thread_cpu_seconds())
}

/// CPU seconds of this thread since `t`.
pub fn secs(t: Stamp) -> f64 {
    (thread_cpu_seconds() - t.0).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_are_per_thread_and_differences_add_up() {
        let a = current();
        record(|c| {
            c.saturation += 1.5;
            c.calls += 2;
            c.unknowns += 1;
        });
        let d = current().since(a);
        assert_eq!((d.saturation, d.calls, d.unknowns), (1.5, 2, 1));
        let other = std::thread::spawn(current).join().unwrap();
        assert_eq!(other, Costs::default());
        let mut sum = Costs::default();
        sum.add(d);
        sum.add(d);
        assert_eq!((sum.saturation, sum.calls), (3.0, 4));
    }

    #[test]
    fn the_thread_clock_counts_work_not_sleep() {
        let t = now();
        std::thread::sleep(std::time::Duration::from_millis(50));
        let slept = secs(t);
        let t = now();
        let mut x = 0u64;
        for i in 0..30_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let worked = secs(t);
        assert!(worked > 0.0, "{worked}");
        assert!(slept < 0.04, "sleeping cost {slept} CPU seconds");
    }
}
