//! Snapshot tests of the rendered PL1 prompts and gold answers: one
//! instance per task, compared with `tests/snapshots/pl1_<task>.txt`.
//! Regenerate intentionally with `UPDATE_SNAPSHOTS=1 cargo test --test pl_snapshots`.

use saturate::tasks::pl::{Task, build};
use std::path::PathBuf;

fn snapshot(task: Task) {
    let inst = build(1, task, 2, 0).expect("instance builds");
    let text = format!(
        "=== problem\n{}\n=== prompt\n{}\n=== answer\n{}\n",
        inst.canonical, inst.prompt, inst.answer
    );
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{}.txt", task.config()));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_SNAPSHOTS=1 to create)",
            path.display()
        )
    });
    assert_eq!(
        text,
        want,
        "{} differs from the rendered prompt",
        path.display()
    );
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
