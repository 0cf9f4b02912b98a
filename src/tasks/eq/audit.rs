//! Shortcut-audit items of the EQ family ([`crate::tasks::audit`]): one
//! item per row for proof checking (correct/incorrect) and gap filling
//! (fillable/unfillable), with surface features read off the prompt's
//! equation list and proof lines: sizes and size jumps between lines,
//! equations cited per step, and symbol freshness (symbols of a line that
//! neither the line before nor any cited or listed equation shows), the
//! symbol check a reader would try first.

use super::Task;
use crate::tasks::audit::{AuditItem, after, jaccard, max, mean, symbols};
use serde_json::Value;
use std::collections::BTreeSet;

/// One proof line of an EQ prompt: its term and the equations it cites.
struct Line<'a> {
    term: &'a str,
    cites: Vec<&'a str>,
}

/// An EQ prompt read back: its equations (`name → text`) and proof lines,
/// a gap line (`?? ??`) as `None`.
type Shown<'a> = (Vec<(&'a str, &'a str)>, Vec<Option<Line<'a>>>);

/// Reads the equations and proof lines of an EQ prompt.
fn read_prompt(prompt: &str) -> Result<Shown<'_>, String> {
    let eqs_text = after(prompt, "- Equations:").ok_or("prompt has no `- Equations:` section")?;
    let equations: Vec<(&str, &str)> = eqs_text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_once(": "))
        .collect();
    let proof_text = after(prompt, "- Proof:").ok_or("prompt has no `- Proof:` section")?;
    let mut lines = Vec::new();
    for l in proof_text.lines() {
        let l = l.trim();
        if l.is_empty() {
            break;
        }
        if l == "?? ??" {
            lines.push(None);
            continue;
        }
        let l = l.split(" # ").next().unwrap_or(l);
        let l = l.strip_prefix("s = ").unwrap_or(l);
        let (term, cites) = match l.split_once(" by ") {
            Some((t, c)) => (t.trim(), c.split(',').map(str::trim).collect()),
            None => (l.trim(), Vec::new()),
        };
        lines.push(Some(Line { term, cites }));
    }
    if lines.is_empty() {
        return Err("prompt has no proof lines".into());
    }
    Ok((equations, lines))
}

/// The item of an EQ row of `task`, or `None` for a task without a class
/// (elided-equation recovery).
pub fn item(task: Task, prompt: &str, gold: &str) -> Option<Result<AuditItem, String>> {
    let label = |gold: &Value| -> Result<&'static str, String> {
        match task {
            Task::ProofChecking => match gold["correct"].as_bool() {
                Some(true) => Ok("correct"),
                Some(false) => Ok("incorrect"),
                None => Err("gold answer has no boolean `correct`".into()),
            },
            _ => match gold["missingSteps"].as_array() {
                Some(s) if s.is_empty() => Ok("unfillable"),
                Some(_) => Ok("fillable"),
                None => Err("gold answer has no list `missingSteps`".into()),
            },
        }
    };
    if task == Task::EquationRecovery {
        return None;
    }
    Some(
        serde_json::from_str::<Value>(gold)
            .map_err(|e| format!("gold answer: {e}"))
            .and_then(|g| features(AuditItem::new(label(&g)?), prompt)),
    )
}

/// The surface features of an EQ prompt, added to `it`.
fn features(mut it: AuditItem, prompt: &str) -> Result<AuditItem, String> {
    let (equations, lines) = read_prompt(prompt)?;
    let eq_syms: BTreeSet<&str> = equations.iter().flat_map(|(_, e)| symbols(e)).collect();
    let text_of = |name: &str| {
        equations
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, e)| *e)
    };
    let terms: Vec<&str> = lines.iter().flatten().map(|l| l.term).collect();
    let sizes: Vec<f64> = terms.iter().map(|t| t.len() as f64).collect();
    let jumps = sizes.windows(2).map(|w| (w[1] - w[0]).abs());
    it.push("equations", equations.len() as f64);
    it.push("proof_lines", lines.len() as f64);
    it.push("term_chars_mean", mean(sizes.iter().copied()));
    it.push("term_chars_max", max(sizes.iter().copied()));
    it.push("term_chars_jump_max", max(jumps));
    let cited: Vec<f64> = lines
        .iter()
        .flatten()
        .skip(1)
        .map(|l| l.cites.len() as f64)
        .collect();
    it.push("cites_mean", mean(cited.iter().copied()));
    it.push("cites_max", max(cited.iter().copied()));
    // Per step: symbols of the new term that neither the term before
    // nor the cited equations show.
    let mut fresh_steps = 0usize;
    let mut unrelated_citation_steps = 0usize;
    for w in lines.windows(2) {
        let (Some(a), Some(b)) = (&w[0], &w[1]) else {
            continue;
        };
        let before = symbols(a.term);
        let cited: BTreeSet<&str> = b.cites.iter().flat_map(|c| symbols(text_of(c))).collect();
        if symbols(b.term)
            .iter()
            .any(|s| !before.contains(s) && !cited.contains(s))
        {
            fresh_steps += 1;
        }
        if !b.cites.is_empty() && cited.is_disjoint(&before) && cited.is_disjoint(&symbols(b.term))
        {
            unrelated_citation_steps += 1;
        }
    }
    it.push("steps_with_fresh_symbols", fresh_steps as f64);
    it.push(
        "steps_citing_unrelated_equations",
        unrelated_citation_steps as f64,
    );
    // Around the gap (gap filling): what the lines on both sides show.
    let gap = lines.iter().position(Option::is_none);
    let (before, after_gap) = match gap {
        Some(g) => (
            g.checked_sub(1).and_then(|i| lines[i].as_ref()),
            lines.get(g + 1).and_then(Option::as_ref),
        ),
        None => (None, None),
    };
    let b_syms = before.map(|l| symbols(l.term)).unwrap_or_default();
    let a_syms = after_gap.map(|l| symbols(l.term)).unwrap_or_default();
    let nowhere: usize = a_syms
        .iter()
        .filter(|s| !b_syms.contains(*s) && !eq_syms.contains(*s))
        .count();
    it.push(
        "gap_position",
        gap.map_or(0.0, |g| g as f64 / lines.len() as f64),
    );
    it.push(
        "gap_chars_jump",
        match (before, after_gap) {
            (Some(b), Some(a)) => a.term.len() as f64 - b.term.len() as f64,
            _ => 0.0,
        },
    );
    it.push("gap_symbol_jaccard", jaccard(&b_syms, &a_syms));
    it.push("gap_after_symbols_nowhere_else", nowhere as f64);
    it.push(
        "gap_after_symbols_not_before",
        a_syms.difference(&b_syms).count() as f64,
    );
    Ok(it)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GF: &str = "Intro\n\n- Equations:\nE1: g1(b,d) = g1(b,b)\nE2: a = g3(b,e)\n\n- Proof:\ns = h5(g1(a,a),f1(e))\n?? ??\nh5(g1(c,g3(b,e)),f1(e)) by E2\nh5(g1(c,g3(b,b)),f1(e)) by E1\n\nTask text\n";

    fn f(it: &AuditItem, name: &str) -> f64 {
        it.features.iter().find(|(k, _)| *k == name).unwrap().1
    }

    #[test]
    fn gap_items_see_the_fresh_symbol() {
        let it = item(Task::GapFilling, GF, r#"{"missingSteps":[]}"#)
            .unwrap()
            .unwrap();
        assert_eq!(it.label, "unfillable");
        // c occurs after the gap, not before it, in no equation.
        assert_eq!(f(&it, "gap_after_symbols_nowhere_else"), 1.0);
        assert_eq!(f(&it, "equations"), 2.0);
        assert_eq!(f(&it, "proof_lines"), 4.0);
        let fillable = item(Task::GapFilling, GF, r#"{"missingSteps":[{"term":"x"}]}"#)
            .unwrap()
            .unwrap();
        assert_eq!(fillable.label, "fillable");
    }

    #[test]
    fn checking_items_and_errors() {
        let pc = "- Equations:\nE1: b = a\n\n- Proof:\ns = f(b)\nf(a) by E1 # step 1\nf(c) by E1 # step 2\n";
        let it = item(Task::ProofChecking, pc, r#"{"correct":false}"#)
            .unwrap()
            .unwrap();
        assert_eq!(it.label, "incorrect");
        assert_eq!(f(&it, "steps_with_fresh_symbols"), 1.0);
        assert_eq!(f(&it, "cites_max"), 1.0);
        assert!(item(Task::EquationRecovery, pc, "{}").is_none());
        assert!(
            item(Task::ProofChecking, "no sections", r#"{"correct":true}"#)
                .unwrap()
                .is_err()
        );
        assert!(item(Task::ProofChecking, pc, "{}").unwrap().is_err());
    }
}
