//! The text forms of TPTP prompts: numbered and bulleted clause lists,
//! where a background axiom comes from, and the background block every
//! TPTP prompt shows.

use super::*;
use crate::saturation::ClauseId;

/// The numbered list shown in prompts: `1. clause` per line.
pub fn numbered(texts: &[String]) -> String {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{}. {t}\n", i + 1))
        .collect()
}

/// The bulleted list shown in prompts: `- clause` per line.
pub fn bulleted(texts: &[String]) -> String {
    texts.iter().map(|t| format!("- {t}\n")).collect()
}

/// The formula a background clause was clausified from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The formula's TPTP name.
    pub name: String,
    /// The formula as read (closed TPTP FOF text).
    pub formula: String,
}

/// The background a prompt shows: the context axioms as clauses and, for
/// each one clausified from a FOF formula, that formula (metadata
/// `context_axioms` and `context_formulas`, the latter aligned with the
/// former and absent when every context axiom was read as a clause).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Background {
    /// The context axioms, as clauses.
    pub axioms: Vec<String>,
    /// Per context axiom, the formula it came from (`None`: read as `cnf`).
    pub origins: Vec<Option<Origin>>,
}

impl Background {
    /// A background of clauses read as `cnf`.
    pub fn clauses(axioms: Vec<String>) -> Background {
        let origins = vec![None; axioms.len()];
        Background { axioms, origins }
    }

    /// The background of graph clauses `ids` (their texts and origins).
    pub fn of(g: &Graph, ids: &[ClauseId]) -> Background {
        Background {
            axioms: ids.iter().map(|&c| g.text(c)).collect(),
            origins: ids.iter().map(|&c| g.origin(c)).collect(),
        }
    }

    /// Reads a row's background from its metadata (`context_axioms`, and
    /// `context_formulas` when present).
    pub fn from_metadata(meta: &serde_json::Value) -> Result<Background, String> {
        let axioms = str_list(meta, "context_axioms")?;
        let origins = match meta.get("context_formulas") {
            None => vec![None; axioms.len()],
            Some(v) => {
                let list = v
                    .as_array()
                    .ok_or("metadata field `context_formulas` is not a list")?;
                if list.len() != axioms.len() {
                    return Err(format!(
                        "metadata field `context_formulas` has {} entries for {} context axioms",
                        list.len(),
                        axioms.len()
                    ));
                }
                list.iter()
                    .map(|o| match o {
                        serde_json::Value::Null => Ok(None),
                        o => {
                            match (o["name"].as_str(), o["formula"].as_str()) {
                                (Some(n), Some(f)) => Ok(Some(Origin {
                                    name: n.to_string(),
                                    formula: f.to_string(),
                                })),
                                _ => Err("a `context_formulas` entry lacks `name` or `formula`"
                                    .to_string()),
                            }
                        }
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        Ok(Background { axioms, origins })
    }

    /// Writes the background into a row's metadata: `context_axioms`, and
    /// `context_formulas` only when some axiom came from a FOF formula (so
    /// rows of CNF files keep their metadata).
    pub fn store(&self, meta: &mut serde_json::Value) {
        let obj = meta.as_object_mut().expect("metadata is an object");
        obj.insert("context_axioms".into(), self.axioms.clone().into());
        if self.origins.iter().any(Option::is_some) {
            let list: Vec<serde_json::Value> = self
                .origins
                .iter()
                .map(|o| match o {
                    Some(o) => serde_json::json!({"name": o.name, "formula": o.formula}),
                    None => serde_json::Value::Null,
                })
                .collect();
            obj.insert("context_formulas".into(), list.into());
        } else {
            obj.remove("context_formulas");
        }
    }
}

/// The shared preamble of every prompt: the domain and its background
/// axioms. A context axiom read as a clause is listed as one; those
/// clausified from one FOF formula are listed under that formula, by its
/// TPTP name, as its clausal form (which is what premises and theorems
/// are written in, Skolem symbols included).
pub fn context_block(domain: &str, background: &Background) -> String {
    let mut s = format!(
        "You are working in first-order logic with equality, in the TPTP CNF notation: each clause is a disjunction (`|`) of literals, `~` is negation, `=` and `!=` are equality and disequality, capitalised names are variables (universally quantified, per clause), everything else is a function, constant or predicate symbol.\n\nDomain: {domain}\n"
    );
    if background.axioms.is_empty() {
        return s;
    }
    let from_fof = background.origins.iter().any(Option::is_some);
    if from_fof {
        s.push_str("\nSome background axioms are first-order formulas in TPTP FOF notation (`! [X] :` for all, `? [X] :` there exists, `&` and, `|` or, `=>` implies, `<=>` if and only if, `~` not); each is followed by those clauses of its clausal form that belong to this problem's background (a formula's other clauses are not listed), in which `sk` symbols are Skolem functions and `def` symbols name sub-formulas, both introduced by the translation to clauses.\n");
    }
    s.push_str("\nBackground axioms of the theory (for context only; they are not available as premises):\n");
    let mut shown: Vec<bool> = vec![false; background.axioms.len()];
    for i in 0..background.axioms.len() {
        if shown[i] {
            continue;
        }
        match background.origins.get(i).cloned().flatten() {
            None => {
                s.push_str(&format!("- {}\n", background.axioms[i]));
                shown[i] = true;
            }
            Some(o) => {
                s.push_str(&format!(
                    "- {}: {}\n  clauses of its clausal form used here:\n",
                    o.name, o.formula
                ));
                for (j, axiom) in background.axioms.iter().enumerate().skip(i) {
                    if background
                        .origins
                        .get(j)
                        .is_some_and(|x| x.as_ref() == Some(&o))
                    {
                        s.push_str(&format!("  - {axiom}\n"));
                        shown[j] = true;
                    }
                }
            }
        }
    }
    s
}
