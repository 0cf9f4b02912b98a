//! The proof-checking answer format shared by PL1 and PL2 (spec §3.3): the
//! checker's verdict as `{"correct", "errorDetails"}` JSON, and reading a
//! JSON object out of a model answer (bare or fenced).

use crate::prop::check::{CheckError, Report};
use serde_json::{Value, json};

pub(super) fn error_json(e: &CheckError, text: &str) -> Value {
    let line_text = if e.line == 0 {
        String::new()
    } else {
        text.lines()
            .nth(e.line - 1)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    json!({
        "offendingLine": line_text,
        "offendingLineNumber": e.line,
        "errorType": e.kind.name(),
        "errorDescription": e.description,
    })
}

pub(super) fn verdict_json(r: &Report, text: &str) -> Value {
    match &r.result {
        Ok(_) => json!({"correct": true, "errorDetails": {}}),
        Err(e) => json!({"correct": false, "errorDetails": error_json(e, text)}),
    }
}

/// Extracts a JSON object from a model answer (bare, or inside a fenced block).
pub(super) fn json_object(answer: &str) -> Option<Value> {
    let s = answer.trim();
    let s = s
        .strip_prefix("```json")
        .or_else(|| s.strip_prefix("```"))
        .map(|r| r.trim_end().trim_end_matches("```"))
        .unwrap_or(s);
    let v: Value = serde_json::from_str(s.trim()).ok()?;
    v.is_object().then_some(v)
}
