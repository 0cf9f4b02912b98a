//! Snapshot tests of the rendered PL1 prompts and gold answers: one
//! instance per task, compared with `tests/snapshots/pl1_<task>.txt`.
//! Regenerate intentionally with `UPDATE_SNAPSHOTS=1 cargo test --test pl_snapshots`.

use saturate::tasks::pl::instance::MAX_PROOF_CHARS;
use saturate::tasks::pl::{Task, build};
mod common;

fn snapshot(task: Task) {
    let inst = build(1, task, 2, 0, MAX_PROOF_CHARS).expect("instance builds");
    let text = format!(
        "=== problem\n{}\n=== prompt\n{}\n=== answer\n{}\n",
        inst.canonical, inst.prompt, inst.answer
    );
    common::assert_snapshot(&format!("{}.txt", task.config()), &text);
}

#[test]
fn proof_checking_prompt() {
    snapshot(Task::ProofChecking);
}

#[test]
fn proof_writing_prompt() {
    snapshot(Task::ProofWriting);
}

#[test]
fn proof_masking_prompt() {
    snapshot(Task::ProofMasking);
}

#[test]
fn gap_filling_prompt() {
    snapshot(Task::GapFilling);
}
