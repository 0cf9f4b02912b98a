//! Benchmarks of the EQ task generators (divan): one certified instance per
//! iteration (generation, corruption or gap, the checker's certificate, the
//! gold answer passed through its scorer), per task and level, single
//! threaded. Instances per second per core = 1 / the reported time. Also the
//! step checker on its own and the scorers on gold answers.

use saturate::tasks::eq::{Task, build, score};
use std::sync::atomic::{AtomicU64, Ordering};

fn main() {
    divan::main();
}

const LEVELS: [u8; 4] = [1, 2, 3, 4];

fn bench_task(bencher: divan::Bencher, task: Task, level: u8) {
    // A fresh index per iteration: each one is a different instance.
    let next = AtomicU64::new(0);
    bencher.bench(|| {
        let i = next.fetch_add(1, Ordering::Relaxed);
        divan::black_box(build(task, level, 0, i).expect("consistent"))
    });
}

/// EQ-PC: one certified proof-checking instance.
#[divan::bench(args = LEVELS, sample_count = 20, sample_size = 20)]
fn pc_instance(bencher: divan::Bencher, level: u8) {
    bench_task(bencher, Task::ProofChecking, level);
}

/// EQ-ER: one certified equation-recovery instance.
#[divan::bench(args = LEVELS, sample_count = 20, sample_size = 20)]
fn er_instance(bencher: divan::Bencher, level: u8) {
    bench_task(bencher, Task::EquationRecovery, level);
}

/// EQ-GF: one certified gap-filling instance.
#[divan::bench(args = LEVELS, sample_count = 20, sample_size = 20)]
fn gf_instance(bencher: divan::Bencher, level: u8) {
    bench_task(bencher, Task::GapFilling, level);
}

/// Scoring a gold answer (re-parsing the instance, re-checking every step).
#[divan::bench(args = [Task::ProofChecking, Task::EquationRecovery, Task::GapFilling], sample_count = 20)]
fn score_gold(bencher: divan::Bencher, task: Task) {
    let b = build(task, 3, 0, 1).unwrap().unwrap();
    // The row's metadata as stored, the scorer's input.
    let metadata = b.metadata.to_string();
    bencher.bench(|| divan::black_box(score(task, &metadata, &b.answer)));
}
