//! Reading a dataset row as Python hands it over (a dict of columns, as
//! Hugging Face `datasets` yields it) and the model's answer (a string or
//! a chat completion) into the engine's types, with a `ValueError` naming
//! the column for anything else.

use crate::*;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use saturate::pipeline::score::Row;
use std::path::PathBuf;

/// Column `key` of `row`, `None` when the row lacks it (a mapping without
/// the key); a row that is not subscriptable is a `ValueError`.
pub(crate) fn column<'py>(
    row: &Bound<'py, PyAny>,
    key: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    match row.get_item(key) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_instance_of::<PyKeyError>(row.py()) => Ok(None),
        Err(e) => Err(PyValueError::new_err(format!(
            "row must be a mapping of column names to values (a dataset row as `datasets` yields it), got {}: {e}",
            type_name(row)
        ))),
    }
}

/// The Python type name of `v`, for messages.
pub(crate) fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// A text column: a string, or `None` (absent value).
pub(crate) fn text(key: &str, v: Option<Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    match v {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => v.extract::<String>().map(Some).map_err(|_| {
            PyValueError::new_err(format!(
                "row[{key:?}] must be a string or None, got {}",
                type_name(&v)
            ))
        }),
    }
}

/// The `level` column: an integer, its decimal text or `None`.
pub(crate) fn level(v: Option<Bound<'_, PyAny>>) -> PyResult<Option<u32>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let bad = |v: &Bound<'_, PyAny>| {
        PyValueError::new_err(format!(
            "row[\"level\"] must be a level (a whole number 0-4294967295, or its text) or None, got {}",
            type_name(v)
        ))
    };
    if v.is_instance_of::<PyString>() {
        let t = v.extract::<String>()?;
        return t.trim().parse::<u32>().map(Some).map_err(|_| bad(&v));
    }
    if !v.is_instance_of::<PyBool>()
        && let Ok(n) = v.extract::<i64>()
    {
        return u32::try_from(n).map(Some).map_err(|_| bad(&v));
    }
    Err(bad(&v))
}

/// The `messages` column: a list of `{"role", "content"}` mappings, or
/// `None` (then built from the prompt and the completion, with an empty
/// system turn). Scoring never reads it, so a malformed list is not an
/// error here: it reads as no turns, which `verify` then reports.
pub(crate) fn messages(
    v: Option<Bound<'_, PyAny>>,
    prompt: &str,
    completion: &str,
) -> Vec<(String, String)> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return vec![
            ("system".into(), String::new()),
            ("user".into(), prompt.to_string()),
            ("assistant".into(), completion.to_string()),
        ];
    };
    let turn = |t: &Bound<'_, PyAny>| -> Option<(String, String)> {
        let role: String = t.get_item("role").ok()?.extract().ok()?;
        let content: String = t.get_item("content").ok()?.extract().ok()?;
        Some((role, content))
    };
    let Ok(items) = v.try_iter() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in items {
        match t.ok().as_ref().and_then(turn) {
            Some(x) => out.push(x),
            None => return Vec::new(),
        }
    }
    out
}

/// Reads a dataset row (a dict with the dataset's columns; other columns
/// are ignored). A missing column or one of the wrong type is a
/// `ValueError` naming it; so is a task no family of this engine writes.
pub(crate) fn row_from(row: &Bound<'_, PyAny>) -> PyResult<Row> {
    let mut got: Vec<Option<String>> = Vec::with_capacity(REQUIRED.len());
    for key in REQUIRED {
        let v = column(row, key)?.ok_or_else(|| {
            PyValueError::new_err(format!(
                "row has no {key:?} column; a saturate row has the columns id, task, domain, source, level, prompt, answer, metadata, certificate"
            ))
        })?;
        got.push(text(key, Some(v))?);
    }
    let [id, task, prompt, answer, metadata, certificate]: [Option<String>; 6] =
        got.try_into().expect("six columns");
    let (Some(id), Some(task)) = (id, task) else {
        return Err(PyValueError::new_err(
            "row[\"id\"] and row[\"task\"] must be strings, not None",
        ));
    };
    if registry().family_of(&task).is_none() {
        let known: Vec<&str> = registry()
            .families()
            .iter()
            .flat_map(|f| f.configs().into_iter().map(|c| c.name))
            .collect();
        return Err(PyValueError::new_err(format!(
            "row[\"task\"] = {task:?} is not a task this saturate ({}) writes; known tasks: {}",
            saturate::VERSION,
            known.join(", ")
        )));
    }
    let prompt = prompt.unwrap_or_default();
    let answer = answer.unwrap_or_default();
    // Rows of older layouts have no completion: the plain gold answer.
    let completion = text("completion", column(row, "completion")?)?.unwrap_or(answer.clone());
    let messages = messages(column(row, "messages")?, &prompt, &completion);
    Ok(Row {
        id,
        task,
        level: level(column(row, "level")?)?,
        domain: text("domain", column(row, "domain")?)?,
        source: text("source", column(row, "source")?)?,
        prompt,
        answer,
        completion,
        messages,
        trace: text("trace", column(row, "trace")?)?,
        metadata: metadata.unwrap_or_default(),
        certificate: certificate.unwrap_or_default(),
        file: PathBuf::new(),
    })
}

/// The text of a message's `content`: a string, `None` (empty), or a list
/// of content parts (`{"type": "text", "text": ...}` or strings), joined.
pub(crate) fn content_text(content: &Bound<'_, PyAny>) -> PyResult<String> {
    if content.is_none() {
        return Ok(String::new());
    }
    if let Ok(s) = content.extract::<String>() {
        return Ok(s);
    }
    if let Ok(parts) = content.cast::<PyList>() {
        let mut out = String::new();
        for part in parts.iter() {
            if let Ok(s) = part.extract::<String>() {
                out.push_str(&s);
            } else if let Some(t) = column(&part, "text")?.filter(|t| !t.is_none()) {
                out.push_str(&t.extract::<String>().map_err(|_| {
                    PyValueError::new_err("a content part's \"text\" must be a string")
                })?);
            }
        }
        return Ok(out);
    }
    Err(PyValueError::new_err(format!(
        "a message's \"content\" must be a string, a list of content parts or None, got {}",
        type_name(content)
    )))
}

/// The reply in a completion: the string itself, or, for a chat
/// completion (a list of `{"role", "content"}` messages, as TRL passes
/// them for conversational datasets, or one such message), the content of
/// the last assistant message.
pub(crate) fn completion_text(completion: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = completion.cast::<PyString>() {
        return Ok(s.to_string());
    }
    let messages: Vec<Bound<'_, PyAny>> = if completion.is_instance_of::<PyDict>() {
        vec![completion.clone()]
    } else if completion.is_instance_of::<PyList>() || completion.is_instance_of::<PyTuple>() {
        completion.try_iter()?.collect::<PyResult<_>>()?
    } else {
        return Err(PyValueError::new_err(format!(
            "completion must be a string or a chat completion (a list of {{\"role\": ..., \"content\": ...}} messages), got {}",
            type_name(completion)
        )));
    };
    for m in messages.iter().rev() {
        let role = column(m, "role")?;
        let is_assistant = match &role {
            Some(r) => r.extract::<String>().is_ok_and(|r| r == "assistant"),
            None => false,
        };
        if is_assistant {
            return match column(m, "content")? {
                Some(c) => content_text(&c),
                None => Ok(String::new()),
            };
        }
    }
    Err(PyValueError::new_err(format!(
        "the chat completion has no assistant message ({} message(s)); the reply scored is the last message with role \"assistant\"",
        messages.len()
    )))
}
