//! Snapshot tests of the rendered PL2 prompts and gold answers: one
//! proof-writing instance per family, and one proof-checking instance,
//! compared with `tests/snapshots/pl2_<task>_<family>.txt`.
//! Regenerate intentionally with `UPDATE_SNAPSHOTS=1 cargo test --test pl2_snapshots`.

use saturate::prop::problems::families::Family;
use saturate::tasks::pl::pl2::{Pl2Options, Pl2Task, build};
mod common;

fn snapshot(task: Pl2Task, family: Family) {
    let opts = Pl2Options::default();
    let inst = (0..50)
        .find_map(|i| build(1, task, family, 1, i, &opts).ok())
        .expect("an instance builds");
    let text = format!(
        "=== problem\n{}\n=== prompt\n{}\n=== answer\n{}\n",
        inst.canonical, inst.prompt, inst.answer
    );
    common::assert_snapshot(&format!("{}_{}.txt", task.config(), family.name()), &text);
}

#[test]
fn proof_writing_prompt_per_family() {
    for family in Family::ALL {
        snapshot(Pl2Task::ProofWriting, family);
    }
}

#[test]
fn proof_checking_prompt() {
    snapshot(Pl2Task::ProofChecking, Family::HornChain);
}
