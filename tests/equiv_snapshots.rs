//! Snapshot tests of the rendered equivalence prompts (after AutoEval,
//! seed 002): one row per config and vocabulary kind, compared with
//! `tests/snapshots/equiv_<config>_<n>.txt`. Regenerate intentionally with
//! `UPDATE_SNAPSHOTS=1 cargo test --release --test equiv_snapshots`.

use saturate::tasks::equiv::{Task, build};
mod common;

fn snapshot(task: Task, index: u64) {
    let b = build(task, 2, 1, index).unwrap().expect("instance builds");
    let text = format!(
        "=== prompt\n{}\n=== answer\n{}\n=== metadata\n{}\n=== certificate\n{}\n",
        b.prompt, b.answer, b.metadata, b.certificate
    );
    common::assert_snapshot(&format!("equiv_{}_{index}.txt", task.config()), &text);
}

#[test]
fn equivalence_prompt_true_abstract() {
    snapshot(Task::EquivalencePl, 0);
}

#[test]
fn equivalence_prompt_false_natural() {
    snapshot(Task::EquivalencePl, 3);
}

#[test]
fn roundtrip_prompt_natural() {
    snapshot(Task::RoundtripPl, 2);
}

#[test]
fn first_order_equivalence_prompt_true_abstract() {
    snapshot(Task::EquivalenceFol, 0);
}

#[test]
fn first_order_equivalence_prompt_false_natural() {
    snapshot(Task::EquivalenceFol, 3);
}

#[test]
fn first_order_roundtrip_prompt_natural() {
    snapshot(Task::RoundtripFol, 2);
}
