//! Shortcut-audit items of the PL families ([`crate::tasks::audit`]): one
//! item per row for the tasks with a class to predict (proof checking:
//! correct/incorrect; proof masking: solvable/unsolvable; PL2 proof
//! writing: theorem/non-theorem), with surface features of the premises,
//! the goal and the shown proof (sizes, nesting, rule and justifier
//! counts, repeated lines, whether the last line states the goal).

use crate::tasks::audit::{AuditItem, max, mean, nesting, nesting_of, upper_identifiers};
use serde_json::Value;
use std::collections::BTreeSet;

/// What the row's gold answer classifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `{"correct": bool, ...}`: correct/incorrect.
    Checking,
    /// `{"masks": {...}}`: solvable/unsolvable (empty masks).
    Masking,
    /// `{"proof": string or null, ...}`: theorem/non-theorem.
    Writing,
}

/// The item of a PL row of `kind`, from its metadata (premises, goal,
/// shown proof) and gold answer.
pub fn item(kind: Kind, meta: &Value, gold: &str) -> Result<AuditItem, String> {
    let gold: Value = serde_json::from_str(gold).map_err(|e| format!("gold answer: {e}"))?;
    let label = match kind {
        Kind::Checking => match gold["correct"].as_bool() {
            Some(true) => "correct",
            Some(false) => "incorrect",
            None => return Err("gold answer has no boolean `correct`".into()),
        },
        Kind::Masking => match gold["masks"].as_object() {
            Some(m) if m.is_empty() => "unsolvable",
            Some(_) => "solvable",
            None => return Err("gold answer has no object `masks`".into()),
        },
        Kind::Writing => {
            if gold["proof"].is_null() {
                "non-theorem"
            } else {
                "theorem"
            }
        }
    };
    let premises: Vec<&str> = meta["premises"]
        .as_array()
        .ok_or("metadata has no `premises` list")?
        .iter()
        .map(|p| p.as_str().ok_or("a premise is not a string"))
        .collect::<Result<_, _>>()?;
    let goal = meta["goal"]
        .as_str()
        .ok_or("metadata has no string `goal`")?;
    let mut it = AuditItem::new(label);
    problem_features(&mut it, &premises, goal);
    if kind != Kind::Writing {
        let proof = meta["shown_proof"]
            .as_str()
            .ok_or("metadata has no string `shown_proof`")?;
        proof_features(&mut it, proof, goal);
    }
    Ok(it)
}

/// Sizes of the problem itself.
fn problem_features(it: &mut AuditItem, premises: &[&str], goal: &str) {
    let atoms: BTreeSet<&str> = premises.iter().flat_map(|p| upper_identifiers(p)).collect();
    let goal_atoms = upper_identifiers(goal);
    it.push("premises", premises.len() as f64);
    it.push(
        "premise_chars_mean",
        mean(premises.iter().map(|p| p.len() as f64)),
    );
    it.push(
        "premise_chars_max",
        max(premises.iter().map(|p| p.len() as f64)),
    );
    it.push(
        "premise_nesting_max",
        max(premises.iter().map(|p| nesting(p) as f64)),
    );
    it.push("premise_atoms", atoms.len() as f64);
    it.push("goal_chars", goal.len() as f64);
    it.push("goal_nesting", nesting(goal) as f64);
    it.push("goal_atoms", goal_atoms.len() as f64);
    it.push(
        "goal_atoms_not_in_premises",
        goal_atoms.difference(&atoms).count() as f64,
    );
}

/// Surface features of a shown proof (NDL or NDL_f text).
fn proof_features(it: &mut AuditItem, proof: &str, goal: &str) {
    let lines: Vec<&str> = proof
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let steps: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains(" BY ") || l.contains(" from"))
        .collect();
    let justifiers = |l: &str| -> f64 {
        let args = l
            .split_once(" on ")
            .or_else(|| l.split_once(" from"))
            .map_or("", |(_, a)| a.trim().trim_end_matches(';'));
        if args.is_empty() {
            0.0
        } else {
            (top_level_commas(args) + 1) as f64
        }
    };
    let rules: BTreeSet<&str> = steps
        .iter()
        .filter_map(|l| l.split_once(" BY ")?.1.split_whitespace().next())
        .collect();
    let distinct: BTreeSet<&str> = lines.iter().copied().collect();
    let last_step = steps.last().copied().unwrap_or("");
    let states_goal = last_step
        .split_once(" BY ")
        .map(|(c, _)| c)
        .or_else(|| last_step.split_once(" from").map(|(c, _)| c))
        .is_some_and(|c| {
            let c = c.rsplit(":=").next().unwrap_or(c).trim();
            c == goal.trim()
        });
    let max_depth = nesting_of(proof, '{', '}');
    it.push("proof_lines", lines.len() as f64);
    it.push("proof_chars", proof.len() as f64);
    it.push("proof_steps", steps.len() as f64);
    it.push(
        "proof_assumes",
        lines.iter().filter(|l| l.starts_with("assume")).count() as f64,
    );
    it.push("proof_block_depth", max_depth as f64);
    it.push("proof_rules", rules.len() as f64);
    it.push(
        "proof_justifiers_mean",
        mean(steps.iter().map(|l| justifiers(l))),
    );
    it.push(
        "proof_justifiers_max",
        max(steps.iter().map(|l| justifiers(l))),
    );
    it.push(
        "proof_repeated_lines",
        (lines.len() - distinct.len()) as f64,
    );
    it.push("proof_last_step_is_goal", f64::from(u8::from(states_goal)));
    it.push("proof_masks", proof.matches("MASK").count() as f64);
    it.push(
        "proof_mentions_false",
        proof.matches("false").count() as f64,
    );
}

/// Commas outside parentheses.
fn top_level_commas(text: &str) -> usize {
    let mut depth = 0i32;
    text.chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            c == ',' && depth == 0
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn f(it: &AuditItem, name: &str) -> f64 {
        it.features.iter().find(|(k, _)| *k == name).unwrap().1
    }

    #[test]
    fn checking_items_read_the_shown_proof() {
        let meta = json!({
            "premises": ["(A ==> B)", "A"],
            "goal": "B",
            "shown_proof": "{\n  B BY mp on (A ==> B), A;\n  B BY claim on B\n}",
        });
        let it = item(
            Kind::Checking,
            &meta,
            r#"{"correct":true,"errorDetails":{}}"#,
        )
        .unwrap();
        assert_eq!(it.label, "correct");
        assert_eq!(f(&it, "proof_steps"), 2.0);
        assert_eq!(f(&it, "proof_justifiers_max"), 2.0);
        assert_eq!(f(&it, "proof_rules"), 2.0);
        assert_eq!(f(&it, "proof_last_step_is_goal"), 1.0);
        assert_eq!(f(&it, "premises"), 2.0);
        let bad = item(Kind::Checking, &meta, r#"{"correct":false}"#).unwrap();
        assert_eq!(bad.label, "incorrect");
        assert!(item(Kind::Checking, &meta, "{}").is_err());
        assert!(item(Kind::Checking, &json!({}), r#"{"correct":true}"#).is_err());
    }

    #[test]
    fn masking_and_writing_labels() {
        let meta =
            json!({"premises": ["A"], "goal": "A", "shown_proof": "{ MASK1 BY claim on A }"});
        assert_eq!(
            item(Kind::Masking, &meta, r#"{"masks":{}}"#).unwrap().label,
            "unsolvable"
        );
        let m = item(Kind::Masking, &meta, r#"{"masks":{"MASK1":"A"}}"#).unwrap();
        assert_eq!((m.label.as_str(), f(&m, "proof_masks")), ("solvable", 1.0));
        let w = item(Kind::Writing, &meta, r#"{"proof":null}"#).unwrap();
        assert_eq!(w.label, "non-theorem");
        assert!(w.features.iter().all(|(k, _)| !k.starts_with("proof_")));
    }
}
