//! The JSON Lines shard format (`--format jsonl`): one JSON object per row,
//! keys in schema order ([`super::COLUMNS`]), `level` a number or null,
//! `messages` an array of `{"role", "content"}` objects, every other value
//! a string or null. Hugging Face `datasets` loads these shards with the
//! same card as the Parquet ones.

use super::Record;
use super::manifest::{messages_json, messages_of};
use serde_json::Value;

/// One row as a JSON object on one line (no trailing newline).
pub(crate) fn encode(r: &Record, system: &str) -> String {
    let s = |v: &str| Value::String(v.to_string()).to_string();
    let opt = |v: &Option<String>| v.as_deref().map_or("null".to_string(), s);
    let level = r.level.map_or("null".to_string(), |l| l.to_string());
    format!(
        "{{\"id\":{},\"task\":{},\"domain\":{},\"source\":{},\"level\":{},\"prompt\":{},\
         \"answer\":{},\"completion\":{},\"messages\":{},\"trace\":{},\"metadata\":{},\
         \"certificate\":{}}}",
        s(&r.id),
        s(&r.task),
        opt(&r.domain),
        opt(&r.source),
        level,
        s(&r.prompt),
        s(&r.answer),
        s(&r.completion),
        messages_json(messages_of(system, r)),
        opt(&r.trace),
        s(&r.metadata),
        s(&r.certificate),
    )
}

/// One chat turn as read back: (role, content).
pub(crate) type Turn = (String, String);

/// Reads one row back: the record and its `messages` turns. Every column
/// must be present with its type; the error says which is not.
pub(crate) fn decode(line: &str) -> Result<(Record, Vec<Turn>), String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(m) = v else {
        return Err("not a JSON object".into());
    };
    for k in m.keys() {
        if !super::COLUMNS.contains(&k.as_str()) {
            return Err(format!("unknown column {k:?}"));
        }
    }
    let text = |k: &str| -> Result<Option<String>, String> {
        match m.get(k) {
            None => Err(format!("missing column `{k}`")),
            Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("column `{k}` is not a string")),
        }
    };
    let need = |k: &str| -> Result<String, String> {
        text(k)?.ok_or_else(|| format!("column `{k}` is null"))
    };
    let level = match m.get("level") {
        None => return Err("missing column `level`".into()),
        Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(
            n.as_u64()
                .and_then(|l| u32::try_from(l).ok())
                .ok_or_else(|| format!("column `level` is not a level: {n}"))?,
        ),
        Some(_) => return Err("column `level` is not a number".into()),
    };
    let turns = match m.get("messages") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|t| {
                let field = |k: &str| t.get(k).and_then(Value::as_str).map(str::to_string);
                field("role")
                    .zip(field("content"))
                    .ok_or_else(|| "a `messages` turn lacks a string role or content".to_string())
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(Value::Null) => Vec::new(),
        None => return Err("missing column `messages`".into()),
        Some(_) => return Err("column `messages` is not a list".into()),
    };
    let record = Record {
        id: need("id")?,
        task: need("task")?,
        domain: text("domain")?,
        source: text("source")?,
        level,
        prompt: need("prompt")?,
        answer: need("answer")?,
        completion: text("completion")?.unwrap_or_default(),
        trace: text("trace")?,
        metadata: need("metadata")?,
        certificate: text("certificate")?.unwrap_or_default(),
    };
    Ok((record, turns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_round_trips_and_keys_keep_schema_order() {
        let r = Record {
            id: "a-1".into(),
            task: "a".into(),
            domain: None,
            source: Some("s".into()),
            level: Some(3),
            prompt: "p \"q\"\nline".into(),
            answer: "True".into(),
            completion: "<answer>True</answer>".into(),
            trace: None,
            metadata: "{}".into(),
            certificate: "{\"v\":1}".into(),
        };
        let line = encode(&r, "sys");
        assert!(!line.contains('\n'));
        let keys: Vec<String> = {
            let v: Value = serde_json::from_str(&line).unwrap();
            let mut ks: Vec<(usize, String)> = v
                .as_object()
                .unwrap()
                .keys()
                .map(|k| (line.find(&format!("\"{k}\":")).unwrap(), k.clone()))
                .collect();
            ks.sort();
            ks.into_iter().map(|(_, k)| k).collect()
        };
        assert_eq!(keys, super::super::COLUMNS);
        let (back, turns) = decode(&line).unwrap();
        assert_eq!(back, r);
        assert_eq!(turns[0], ("system".to_string(), "sys".to_string()));
        assert_eq!(turns[2].1, r.completion);
        assert!(decode("{\"id\": 1}").is_err());
        let mut v: Value = serde_json::from_str(&line).unwrap();
        v["extra"] = Value::Null;
        assert!(
            decode(&v.to_string())
                .unwrap_err()
                .contains("unknown column")
        );
        assert!(decode("[1]").unwrap_err().contains("object"));
        let mut v: Value = serde_json::from_str(&line).unwrap();
        v["level"] = Value::String("3".into());
        assert!(decode(&v.to_string()).unwrap_err().contains("level"));
    }
}
