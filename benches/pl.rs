//! Benchmarks of PL1 instance generation (divan): certified instances per
//! second per task and level, on one thread. Each iteration builds one
//! complete instance (problem with SAT certificate, reference proof with
//! strict self-check, task construction with its label re-derived by the
//! checker, prompt), cycling through instance indices. PL2 candidates per
//! second per family are measured at size 1.

use saturate::tasks::pl::instance::MAX_PROOF_CHARS;
use saturate::tasks::pl::{Task, build};
use std::sync::atomic::{AtomicU64, Ordering};

fn main() {
    divan::main();
}

const TASKS: [Task; 4] = Task::ALL;

fn bench(bencher: divan::Bencher, task: Task, level: u8) {
    let next = AtomicU64::new(0);
    bencher
        .counter(divan::counter::ItemsCount::new(1usize))
        .bench(|| {
            let i = next.fetch_add(1, Ordering::Relaxed);
            divan::black_box(build(7, task, level, i, MAX_PROOF_CHARS).ok())
        });
}

/// One instance of each task at level 1 (3 atoms, depth 2, 1-2 premises).
#[divan::bench(args = TASKS, sample_count = 20, sample_size = 20)]
fn level1(bencher: divan::Bencher, task: Task) {
    bench(bencher, task, 1);
}

/// One instance of each task at level 4 (5 atoms, depth 3, 3-4 premises).
#[divan::bench(args = TASKS, sample_count = 20, sample_size = 5)]
fn level4(bencher: divan::Bencher, task: Task) {
    bench(bencher, task, 4);
}

/// PL2: one certified instance per family at size 1 (filters, SAT label,
/// refutation and its re-check, NDL_f reference proof checked, task built).
/// Candidates a filter rejects count as iterations too, so this is
/// candidates per second; the run summary reports the acceptance rates.
#[divan::bench(args = saturate::prop::problems::families::Family::ALL, sample_count = 10, sample_size = 5)]
fn pl2_size1(bencher: divan::Bencher, family: saturate::prop::problems::families::Family) {
    use saturate::tasks::pl::pl2::{Pl2Options, Pl2Task, build};
    let opts = Pl2Options::default();
    let next = AtomicU64::new(0);
    bencher
        .counter(divan::counter::ItemsCount::new(1usize))
        .bench(|| {
            let i = next.fetch_add(1, Ordering::Relaxed);
            divan::black_box(build(7, Pl2Task::ProofWriting, family, 1, i, &opts).ok())
        });
}
