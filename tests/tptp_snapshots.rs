//! Snapshot tests of the rendered TPTP task prompts (entailment, premise
//! selection, proof reconstruction, step-verified derivation) on fixed clause lists, compared with
//! `tests/snapshots/tptp_<family>.txt`. Fixed inputs keep the snapshots
//! independent of the saturation strategy. Regenerate intentionally with
//! `UPDATE_SNAPSHOTS=1 cargo test --test tptp_snapshots`.

use saturate::tasks::tptp::{Background, entail, recon, select, stepwise};
mod common;

fn check(name: &str, text: &str) {
    common::assert_snapshot(&format!("tptp_{name}.txt"), text);
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

const CONTEXT: &[&str] = &[
    "~member(X0,union_of(X1,X2)) | member(X0,X1) | member(X0,X2)",
    "~member(X0,X1) | member(X0,union_of(X1,X2))",
];

const PREMISES: &[&str] = &[
    "member(X0,union_of(X1,X2)) | ~member(X0,X2)",
    "~member(X0,empty)",
];

#[test]
fn entailment_prompt() {
    let p = entail::render(
        "SET",
        &Background::clauses(s(CONTEXT)),
        &s(PREMISES),
        "~member(X0,union_of(empty,X1)) | member(X0,X1)",
        None,
    );
    check("entailment", &format!("{p}=== answer\nTrue\n"));
}

#[test]
fn entailment_prompt_with_a_formula_conclusion() {
    let theorem = "~member(X0,union_of(empty,X1)) | member(X0,X1)";
    let formula = saturate::tasks::tptp::conclusion_formula(theorem).unwrap();
    let p = entail::render(
        "SET",
        &Background::clauses(s(CONTEXT)),
        &s(PREMISES),
        theorem,
        Some(&formula),
    );
    check("entailment_formula", &format!("{p}=== answer\nTrue\n"));
}

#[test]
fn selection_prompt() {
    let pool = s(&[
        "~member(X0,empty)",
        "member(X0,union_of(X1,X2)) | ~member(X0,X2)",
        "~member(X0,union_of(X1,X2)) | member(X0,X1) | member(X0,X2)",
        "subset(X0,X0)",
    ]);
    let p = select::render(
        "SET",
        &Background::clauses(s(CONTEXT)),
        "~member(X0,union_of(empty,X1)) | member(X0,X1)",
        &pool,
    );
    check(
        "selection",
        &format!("{p}=== answer\n{}\n", select::format_answer(&[1, 3])),
    );
}

#[test]
fn reconstruction_prompt() {
    let clauses = s(&[
        "mult(inv(X0),mult(X0,X1))=X1",
        "mult(e,X0)=X0",
        "mult(mult(X0,X1),X2)=mult(X0,mult(X1,X2))",
        "mult(inv(X0),X0)=e",
        "mult(inv(inv(X0)),e)=X0",
    ]);
    let p = recon::render(
        "GRP",
        &Background::default(),
        "mult(inv(inv(X0)),e)=X0",
        &clauses,
        &[1, 2, 3, 4],
    );
    let answer = recon::format_steps([(5, [1, 4])].into_iter());
    check("reconstruction", &format!("{p}=== answer\n{answer}"));
}

#[test]
fn derivation_prompt() {
    let premises = s(&[
        "mult(inv(X0),X0)=e",
        "mult(mult(X0,X1),X2)=mult(X0,mult(X1,X2))",
        "mult(e,X0)=X0",
    ]);
    let p = stepwise::render(
        "GRP",
        &Background::clauses(s(&["mult(X0,e)=X0", "mult(X0,inv(X0))=e"])),
        &premises,
        "mult(inv(X0),mult(X0,X1))=X1",
    );
    let steps = [
        (
            "mult(inv(X0),mult(X0,X1))=mult(e,X1)".to_string(),
            s(&["P1", "P2"]),
        ),
        ("mult(inv(X0),mult(X0,X1))=X1".to_string(), s(&["S1", "P3"])),
    ];
    let answer = stepwise::format_chain(steps.iter().map(|(c, r)| (c.as_str(), &r[..])));
    check("derivation", &format!("{p}=== answer\n{answer}"));
}
