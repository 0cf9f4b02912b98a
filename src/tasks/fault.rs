//! Fault injection for tests, and the record of rejected instances that are
//! bugs (generator panics, refused certificates) written to `rejects/`.
//!
//! `SATURATE_FAULT=panic:<n>` (read once per process; for tests only)
//! makes the build of the run's `n`-th candidate panic (0-based, counting
//! `count` candidates per cell in cell order; see `pipeline::generate`).
//! The run must then count a generator panic and go on.

use serde::Serialize;
use std::sync::OnceLock;

/// The slot whose build panics, from `SATURATE_FAULT` (tests only).
pub fn panic_slot() -> Option<u64> {
    static SLOT: OnceLock<Option<u64>> = OnceLock::new();
    *SLOT.get_or_init(|| {
        let v = std::env::var("SATURATE_FAULT").ok()?;
        let slot = v.strip_prefix("panic:").and_then(|n| n.parse().ok());
        if slot.is_none() {
            tracing::warn!("SATURATE_FAULT={v:?} ignored (expected panic:<slot>)");
        }
        slot
    })
}

/// Panics if `slot` is the injected fault's slot.
pub fn maybe_panic(slot: u64) {
    if panic_slot() == Some(slot) {
        panic!("injected fault (SATURATE_FAULT=panic:{slot})");
    }
}

/// The message of a caught panic.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".to_string()
    }
}

/// One rejected instance that is a bug, as a line of `rejects/rejects.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RejectEntry {
    /// `certificate_failure` or `generator_panic`.
    pub kind: &'static str,
    /// Where: the instance id the slot would have had, and the attempt.
    pub slot: String,
    /// The checker's reason or the panic message.
    pub reason: String,
    /// The problem in TPTP: the premises as `axiom` clauses and the
    /// conjecture clause, if any, with role `conjecture` (for
    /// `saturate prove`), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem_tptp: Option<String>,
    /// The refused verdict and certificate (certificate failures).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// The refused certificate as JSON (certificate failures).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<String>,
}

impl RejectEntry {
    /// The entry of a refused certificate.
    pub fn from_defect(slot: String, d: crate::prover::Defect) -> RejectEntry {
        let mut tptp = String::new();
        for (i, a) in d.problem.axioms.iter().enumerate() {
            tptp.push_str(&format!("cnf(a{}, axiom, {a}).\n", i + 1));
        }
        if let Some(c) = &d.problem.conjecture {
            tptp.push_str(&format!("cnf(goal, conjecture, {c}).\n"));
        }
        RejectEntry {
            kind: "certificate_failure",
            slot,
            reason: d.reason,
            problem_tptp: Some(tptp),
            verdict: Some(d.verdict),
            certificate: Some(d.certificate),
        }
    }

    /// The entry of a failed self-check: a generator's own certification
    /// of an instance it built did not hold (a bug, like a refused
    /// certificate).
    pub fn from_check(slot: String, reason: String) -> RejectEntry {
        RejectEntry {
            kind: "certificate_failure",
            slot,
            reason,
            problem_tptp: None,
            verdict: None,
            certificate: None,
        }
    }

    /// The entry of a generator panic.
    pub fn from_panic(slot: String, message: String) -> RejectEntry {
        RejectEntry {
            kind: "generator_panic",
            slot,
            reason: message,
            problem_tptp: None,
            verdict: None,
            certificate: None,
        }
    }
}

/// The bytes of `rejects/rejects.jsonl`, one JSON object per line in slot
/// order.
pub fn rejects_jsonl(entries: &[RejectEntry]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in entries {
        out.extend(serde_json::to_vec(e).expect("reject entry serialises"));
        out.push(b'\n');
    }
    out
}

/// Runs `f`, turning a panic into `Err(message)`. For builders that own all
/// their state (nothing shared can be left half-updated).
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| panic_message(p.as_ref()))
}
