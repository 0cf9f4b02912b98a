//! What the three EQ tasks share: the description of the language given to
//! the model (our own words, spec `pl_eq.md` §6), the rendering of equations
//! and proof lines, the reading of JSON answers, and the dedup key.

use super::record::{Loaded, ProofData};
use crate::equational::generate::alpha_key;
use crate::equational::lang::{Pos, from_dewey};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The rules of the game, shared by every EQ prompt.
pub const LANGUAGE: &str = "\
How to read the problem
- Constants: a, b, c, d, e. Function symbols: f, f1, ..., f5 take one argument; g, g1, ..., g5 take two; h, h1, ..., h5 take three; r, r1, ..., r5 take four.
- A name that starts with an upper-case letter (such as V17) is a variable. An equation L = R holds for every choice of terms for its variables.
- A position is a list of argument numbers, counted from 1, that leads from the top of a term down to one of its subterms. [] is the whole term; [2,1] is the first argument of the second argument. In g(a,f(b)) the subterm at [2] is f(b) and the one at [2,1] is b.
- A term u is an instance of L when replacing the variables of L by terms (a substitution) turns L into exactly u. A variable that occurs twice in L must stand for the same subterm both times.
- A proof line `t by Ei, Ej` says that t comes from the term on the line before, s, by one parallel rewrite step: each cited equation L = R is used exactly once, on a subterm of s (its redex) that is an instance of L; the redexes of one step lie at positions none of which is inside another; t is s with every redex replaced by the matching instance of R (its contractum). Equations that are not cited may not be used, and no equation may be used twice in one step. A redex may happen to equal its contractum.
";

/// The `- Equations:` block.
pub fn render_equations(d: &ProofData) -> String {
    let mut s = String::from("- Equations:\n");
    for [name, text] in &d.equations {
        s.push_str(&format!("{name}: {text}\n"));
    }
    s
}

/// Proof line `i` (`s = t0` for the start), optionally with its `by` list
/// and its `# step i` tag.
pub fn render_line(d: &ProofData, i: usize, with_by: bool, numbered: bool) -> String {
    let mut s = if i == 0 {
        format!("s = {}", d.terms[0])
    } else {
        d.terms[i].clone()
    };
    if i > 0 && with_by {
        s.push_str(" by ");
        s.push_str(&d.citations[i].join(", "));
    }
    if numbered {
        s.push_str(&format!(" # step {i}"));
    }
    s
}

/// Reads a model answer as a JSON object. Tolerates surrounding prose and a
/// Markdown code fence: the text from the first `{` to the last `}` is tried
/// when the whole text is not JSON.
pub fn parse_answer(text: &str) -> Result<serde_json::Map<String, Value>, String> {
    let t = text.trim();
    let v: Value = match serde_json::from_str(t) {
        Ok(v) => v,
        Err(e) => {
            let (Some(a), Some(b)) = (t.find('{'), t.rfind('}')) else {
                return Err(format!("not JSON: {e}"));
            };
            if b < a {
                return Err(format!("not JSON: {e}"));
            }
            serde_json::from_str(&t[a..=b]).map_err(|e| format!("not JSON: {e}"))?
        }
    };
    match v {
        Value::Object(m) => Ok(m),
        _ => Err("the answer is not a JSON object".into()),
    }
}

/// A required field.
pub fn field<'a>(m: &'a serde_json::Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    m.get(key).ok_or_else(|| format!("missing field `{key}`"))
}

/// A non-negative integer.
pub fn as_index(v: &Value, what: &str) -> Result<usize, String> {
    v.as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| format!("`{what}` must be a non-negative integer"))
}

/// A string.
pub fn as_str<'a>(v: &'a Value, what: &str) -> Result<&'a str, String> {
    v.as_str()
        .ok_or_else(|| format!("`{what}` must be a string"))
}

/// A list of strings (equation names).
pub fn as_names(v: &Value, what: &str) -> Result<Vec<String>, String> {
    let arr = v
        .as_array()
        .ok_or_else(|| format!("`{what}` must be a list of equation names"))?;
    arr.iter()
        .map(|x| {
            x.as_str()
                .map(|s| s.trim().to_string())
                .ok_or_else(|| format!("`{what}` must be a list of equation names"))
        })
        .collect()
}

/// A Dewey position (list of positive integers), as a 0-based [`Pos`].
pub fn as_position(v: &Value, what: &str) -> Result<Pos, String> {
    let arr = v
        .as_array()
        .ok_or_else(|| format!("`{what}` must be a list of positive integers"))?;
    let d: Option<Vec<u32>> = arr
        .iter()
        .map(|x| x.as_u64().and_then(|n| u32::try_from(n).ok()))
        .collect();
    d.and_then(|d| from_dewey(&d))
        .ok_or_else(|| format!("`{what}` must be a list of positive integers"))
}

/// Resolves equation names; `Err` names the first unknown one.
pub fn resolve(l: &Loaded, names: &[String]) -> Result<Vec<usize>, String> {
    names
        .iter()
        .map(|n| {
            l.eq_index(n)
                .ok_or_else(|| format!("unknown equation `{n}`"))
        })
        .collect()
}

/// The answer fields that name equations: a single name (`equation`) or
/// a list of names (the others).
const EQUATION_FIELDS: [&str; 4] = [
    "equation",
    "givenEquations",
    "correctEquations",
    "supportingEquations",
];

/// The first equation name an answer gives that the problem's list does
/// not hold, if any, found in every field that names equations
/// (`EQUATION_FIELDS`) at any depth of the answer `v`. Citing an
/// equation the task does not give uses what is forbidden (the grader's
/// `cheating`); a field of the wrong type is left to the scorer's own
/// reading (malformed).
pub fn unlisted_equation(l: &Loaded, v: &Value) -> Option<String> {
    match v {
        Value::Object(o) => o.iter().find_map(|(k, x)| {
            let names: Vec<&str> = if !EQUATION_FIELDS.contains(&k.as_str()) {
                Vec::new()
            } else if let Some(name) = x.as_str() {
                vec![name]
            } else {
                x.as_array()
                    .map(|a| a.iter().filter_map(|n| n.as_str()).collect())
                    .unwrap_or_default()
            };
            names
                .into_iter()
                .find(|n| l.eq_index(n).is_none())
                .map(|n| n.trim().to_string())
                .or_else(|| unlisted_equation(l, x))
        }),
        Value::Array(a) => a.iter().find_map(|x| unlisted_equation(l, x)),
        _ => None,
    }
}

/// A dedup key: SHA-256 of the equations (variables numbered by first
/// occurrence, sorted, so names and order do not matter), the chain with each
/// step's citation as equation texts, and task-specific `extra` text.
pub fn canonical_key(task: &str, l: &Loaded, extra: &str) -> String {
    let w = &l.world;
    let mut eqs: Vec<String> = l.eqs.iter().map(|e| alpha_key(w, e.lhs, e.rhs)).collect();
    eqs.sort();
    let mut h = Sha256::new();
    h.update(task.as_bytes());
    for e in &eqs {
        h.update(b"\x00");
        h.update(e.as_bytes());
    }
    for (i, &t) in l.terms.iter().enumerate() {
        h.update(b"\x01");
        h.update(w.show(t).as_bytes());
        let mut cited: Vec<String> = l.citations[i]
            .iter()
            .map(|&e| alpha_key(w, l.eqs[e].lhs, l.eqs[e].rhs))
            .collect();
        cited.sort();
        for c in cited {
            h.update(b"\x02");
            h.update(c.as_bytes());
        }
    }
    h.update(b"\x03");
    h.update(extra.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_prose_or_fences_are_read() {
        assert!(parse_answer("{\"correct\": true}").is_ok());
        assert!(parse_answer("Here:\n```json\n{\"correct\": true}\n```").is_ok());
        assert!(parse_answer("no json").is_err());
        assert!(parse_answer("[1,2]").is_err());
        assert!(parse_answer("} {").is_err());
    }

    #[test]
    fn positions_must_be_positive() {
        let v: Value = serde_json::from_str("[2,1]").unwrap();
        assert_eq!(as_position(&v, "p").unwrap(), vec![1, 0]);
        let v: Value = serde_json::from_str("[0]").unwrap();
        assert!(as_position(&v, "p").is_err());
        let v: Value = serde_json::from_str("[\"1\"]").unwrap();
        assert!(as_position(&v, "p").is_err());
    }
}
