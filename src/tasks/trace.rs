//! Reasoning traces for training columns: a row's certificate (and the
//! metadata it refers to) rendered as a readable, deterministic derivation
//! a model could learn to write before its answer.
//!
//! What each config's trace is, and its last line:
//!
//! - `conjecture_entailment`, `premise_selection`: the refutation, one
//!   numbered clause per line in TPTP clause notation with its inference
//!   in brackets: inputs first (`[premise 3]`, numbered as in the prompt,
//!   and `[negated conjecture]`), then every derived clause
//!   (`[resolution 2, 4]`, `[superposition 1, 5; rewrite with 3]`), ending
//!   with the line of `$false`. Selection renders the refutation from the
//!   first minimum premise set (the gold answer). A counter-satisfiable
//!   entailment renders its finite countermodel instead: the domain, each
//!   function's table, where each predicate holds, and the closing line
//!   `So the conclusion does not follow from the premises.`
//! - `proof_reconstruction`: the proof graph, one line per clause under
//!   its prompt number: the starting premises (`[premise]`), then each
//!   derived clause with its two parents (`[from 1, 4]`), parents before
//!   children, ending with the theorem.
//! - `stepwise_derivation`: the premises (`[premise]`, numbered `P1..` as
//!   in the prompt), then the certified chain, one step per line with what
//!   it cites (`[from P2, S1]`), ending with the conclusion.
//! - PL1 and PL2 configs: the row's reference natural-deduction proof as
//!   written (the proof the certificate's checker accepted), then the line
//!   `Conclusion: GOAL`. A PL2 non-theorem renders its counterexample and
//!   the line `So the goal does not follow from the premises.`
//! - EQ configs (`eq_pc`, `eq_er`, `eq_gf`): the rewrite chain, one
//!   numbered line per term, each step with the equations the checker used
//!   (`[E3 at [1]: g(a,e) -> g2(a,e)]`) or, for a step that does not hold
//!   (a corrupted proof), the cited equations and the checker's reason.
//!   An unfillable gap (an `eq_gf` decoy) is one line saying why, from the
//!   certificate's countermodel. The last line is the proof's last term.
//! - Equivalence configs (after AutoEval): `equivalence_pl` shows the two
//!   formulas, then either that they agree under every assignment of the
//!   vocabulary or the separating assignment with both values, and the line
//!   `So A and B are (not) equivalent.`; `roundtrip_pl` the formula, the
//!   required form and how it is reached, and the names of the
//!   meaning-keeping laws the gold restatement applied.
//!   The first-order configs read the same, with "A entails B and B
//!   entails A" for a proved equivalence and the countermodel
//!   (`domain {0,1}; a=0; p={1}; ...`) with both values otherwise.
//!
//! Traces are never truncated. Lines measured (median / max per config)
//! on datasets of the seed-0 defaults: TPTP at smoke limits (SET, GRP, LAT;
//! 4-6 rows per cell): entailment 9 / 26, selection 9 / 25,
//! reconstruction 9 / 23; PL (3 rows per cell, every level): pl1 gap
//! filling 87 / 307, checking 131 / 431, masking 87 / 193, writing
//! 45 / 172; pl2 checking 54 / 201, writing 43 / 198; EQ (6 rows per cell):
//! pc 13 / 31, er 12 / 26, gf 12 / 31. The test `trace_sizes_of_given_datasets`
//! (tests/traces.rs) measures any datasets.

use crate::certificate::{FiniteModel, ProofStep, Refutation, SimpUse};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// An equivalence row: the two formulas, then the truth-table agreement of
/// an equivalent pair or the separating assignment of a different one; a
/// restatement row: the formula and the meaning-keeping rewrite steps.
///
/// The equivalence families' renderer (see the module's rules).
pub fn equiv(meta: &Value, cert: &Value) -> Option<Vec<String>> {
    let rewrites = strings(&meta["rewrites"])?.join(", ");
    if let Some(f) = meta["formula"].as_str() {
        let target = meta["target"]
            .as_str()
            .and_then(crate::tasks::equiv::forms::Target::from_name);
        let mut lines = vec![format!("Formula: {f}")];
        if let Some(t) = target {
            lines.push(format!("Required form: {}.", t.name()));
            lines.push(format!(
                "Conversion: {}.",
                crate::tasks::equiv::forms::Wording::method(t)
            ));
        }
        lines.push(format!(
            "Rewrite steps, each keeping the meaning: {rewrites}."
        ));
        lines.push(if target.is_some() {
            "So the rewritten formula is equivalent to the formula and in the required form.".into()
        } else {
            "So the rewritten formula is equivalent to the formula.".into()
        });
        return Some(lines);
    }
    let (l, r) = (meta["left"].as_str()?, meta["right"].as_str()?);
    let mut lines = vec![format!("A: {l}"), format!("B: {r}")];
    let value = |b: &Value| {
        if b.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }
    };
    if meta["logic"].as_str() == Some("fol") {
        if cert["equivalent"].as_bool()? {
            lines.push(
                "A entails B and B entails A: each negated conclusion with its premise refutes to the empty clause."
                    .into(),
            );
            lines.push("So A and B are equivalent.".into());
        } else {
            let model: crate::fol::Model =
                serde_json::from_value(cert["countermodel"].clone()).ok()?;
            lines.push(format!(
                "In the interpretation {}: A is {}, B is {}.",
                crate::fol::show_model(&model),
                value(&cert["left"]),
                value(&cert["right"])
            ));
            lines.push("So A and B are not equivalent.".into());
        }
        return Some(lines);
    }
    if cert["equivalent"].as_bool()? {
        let atoms = strings(&meta["vocabulary"])?.join(", ");
        lines.push(format!(
            "A and B take the same value under every assignment of {atoms}."
        ));
        lines.push("So A and B are equivalent.".into());
    } else {
        let cex = cert["counterexample"].as_object()?;
        let at: Vec<String> = cex
            .iter()
            .map(|(k, v)| format!("{k}={}", u8::from(v.as_bool().unwrap_or(false))))
            .collect();
        lines.push(format!(
            "Under {}: A is {}, B is {}.",
            at.join(", "),
            value(&cert["left"]),
            value(&cert["right"])
        ));
        lines.push("So A and B are not equivalent.".into());
    }
    Some(lines)
}

/// The strings of a JSON array field.
fn strings(v: &Value) -> Option<Vec<&str>> {
    v.as_array()?.iter().map(Value::as_str).collect()
}

/// A conjecture entailment: the refutation of a theorem, the countermodel
/// of a non-theorem.
///
/// Conjecture entailment's renderer (see the module's rules).
pub fn entailment(meta: &Value, cert: &Value) -> Option<Vec<String>> {
    match cert["verdict"].as_str()? {
        "theorem" => {
            let r: Refutation = serde_json::from_value(cert["refutation"].clone()).ok()?;
            refutation(&r, &strings(&meta["premises"]).unwrap_or_default())
        }
        "counter_satisfiable" if cert["evidence"]["kind"] == "model" => {
            let m: FiniteModel = serde_json::from_value(cert["evidence"]["model"].clone()).ok()?;
            let mut lines = countermodel(&m);
            lines.push("So the conclusion does not follow from the premises.".into());
            Some(lines)
        }
        _ => None,
    }
}

/// Premise selection: the refutation from the first minimum answer, its
/// inputs numbered as in the pool.
///
/// Premise selection's renderer (see the module's rules).
pub fn selection(meta: &Value, cert: &Value) -> Option<Vec<String>> {
    let first = cert["answers"].as_array()?.first()?;
    let r: Refutation = serde_json::from_value(first["refutation"].clone()).ok()?;
    refutation(&r, &strings(&meta["pool"]).unwrap_or_default())
}

/// A refutation, renumbered 1, 2, ... in its order; an axiom input is
/// `premise N` with N its position in `premises` (1-based) when its clause
/// is listed there, else its own input name.
fn refutation(r: &Refutation, premises: &[&str]) -> Option<Vec<String>> {
    let last = r.steps.last()?;
    if last.clause != "$false" {
        return None;
    }
    let number: BTreeMap<u32, usize> = r
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id, i + 1))
        .collect();
    let n = |id: u32| number.get(&id).map_or(id.to_string(), |k| k.to_string());
    Some(
        r.steps
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}. {}   [{}]", i + 1, s.clause, inference(s, premises, &n)))
            .collect(),
    )
}

/// A clause's canonical form (up to variants and literal order), `None`
/// when it does not parse.
fn clause_key(text: &str) -> Option<String> {
    let (bank, c) = super::tptp::parse_clauses(&[text.to_string()]).ok()?;
    Some(crate::logic::canonical_clause(&bank, &c[0]))
}

/// The bracketed inference of a refutation step.
fn inference(s: &ProofStep, premises: &[&str], n: &dyn Fn(u32) -> String) -> String {
    if s.rule == "input" {
        if s.role.as_deref() == Some("negated_conjecture") {
            return "negated conjecture".into();
        }
        // The prover prints its inputs its own way (literal order,
        // variable names): a premise is found by text, else up to variants.
        let found = premises.iter().position(|p| *p == s.clause).or_else(|| {
            let key = clause_key(&s.clause)?;
            premises
                .iter()
                .position(|p| clause_key(p).as_deref() == Some(key.as_str()))
        });
        return match found {
            Some(i) => format!("premise {}", i + 1),
            None => s
                .name
                .as_deref()
                .map_or("input".into(), |name| name.replace('_', " ")),
        };
    }
    let parents: Vec<String> = s.parents.iter().map(|&p| n(p)).collect();
    let mut out = s.rule.replace('_', " ");
    if !parents.is_empty() {
        write!(out, " {}", parents.join(", ")).expect("string");
    }
    for u in &s.simps {
        out.push_str("; ");
        out.push_str(&simplification(u, n));
    }
    out
}

/// One simplification after a rule: its kind and the unit clause used.
fn simplification(u: &SimpUse, n: &dyn Fn(u32) -> String) -> String {
    let kind = u.kind.replace('_', " ");
    match u.unit {
        Some(unit) => format!("{kind} with {}", n(unit)),
        None => kind,
    }
}

/// A finite model, as lines: its domain, each function's table and where
/// each predicate holds.
fn countermodel(m: &FiniteModel) -> Vec<String> {
    let domain: Vec<String> = (0..m.size).map(|v| v.to_string()).collect();
    let mut lines = vec![format!(
        "Countermodel of the premises and the negated conclusion, domain {{{}}}:",
        domain.join(", ")
    )];
    for t in &m.functions {
        let entries: Vec<String> = tuples(m.size, t.arity)
            .iter()
            .zip(&t.values)
            .map(|(args, v)| format!("{} = {v}", applied(&t.name, args)))
            .collect();
        lines.push(entries.join(", "));
    }
    for t in &m.predicates {
        let holds: Vec<String> = tuples(m.size, t.arity)
            .iter()
            .zip(&t.values)
            .filter(|(_, v)| **v != 0)
            .map(|(args, _)| applied(&t.name, args))
            .collect();
        lines.push(if holds.is_empty() {
            format!("{} is false everywhere", t.name)
        } else if holds.len() == t.values.len() && t.arity > 0 {
            format!("{} is true everywhere", t.name)
        } else if t.arity == 0 {
            format!("{} is true", t.name)
        } else {
            format!("{} holds exactly for {}", t.name, holds.join(", "))
        });
    }
    lines
}

/// Every argument tuple of `arity` over `0..size`, in the tables' mixed
/// radix order (first argument most significant).
fn tuples(size: u32, arity: u32) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = vec![Vec::new()];
    for _ in 0..arity {
        out = out
            .into_iter()
            .flat_map(|t| {
                (0..size).map(move |v| {
                    let mut t = t.clone();
                    t.push(v);
                    t
                })
            })
            .collect();
    }
    out
}

/// `name(a,b)`, or `name` for no arguments.
fn applied(name: &str, args: &[u32]) -> String {
    if args.is_empty() {
        return name.to_string();
    }
    let a: Vec<String> = args.iter().map(|v| v.to_string()).collect();
    format!("{name}({})", a.join(","))
}

/// A proof graph: the premises, then the derived clauses parents first
/// (among those ready, the smallest number), ending with the theorem.
///
/// Proof reconstruction's renderer (see the module's rules).
pub fn reconstruction(meta: &Value, cert: &Value) -> Option<Vec<String>> {
    let clauses = strings(&meta["clauses"])?;
    let clause = |k: usize| clauses.get(k.checked_sub(1)?).copied();
    let mut parents: BTreeMap<usize, [usize; 2]> = BTreeMap::new();
    for s in cert["steps"].as_array()? {
        let child = s["child"].as_u64()? as usize;
        let p = s["parents"].as_array()?;
        let (a, b) = (p.first()?.as_u64()?, p.get(1)?.as_u64()?);
        parents.insert(child, [a as usize, b as usize]);
    }
    if parents.is_empty() {
        return None;
    }
    let mut lines = Vec::new();
    let mut done: BTreeSet<usize> = BTreeSet::new();
    let mut premises: BTreeSet<usize> = parents
        .values()
        .flatten()
        .copied()
        .filter(|p| !parents.contains_key(p))
        .collect();
    if let Some(listed) = meta["premise_indices"].as_array() {
        premises.extend(listed.iter().filter_map(|v| v.as_u64().map(|v| v as usize)));
    }
    for &p in &premises {
        lines.push(format!("{p}. {}   [premise]", clause(p)?));
        done.insert(p);
    }
    while done.len() < premises.len() + parents.len() {
        let (&child, [a, b]) = parents
            .iter()
            .find(|(c, ps)| !done.contains(c) && ps.iter().all(|p| done.contains(p)))?;
        lines.push(format!("{child}. {}   [from {a}, {b}]", clause(child)?));
        done.insert(child);
    }
    Some(lines)
}

/// A step-verified derivation: the premises (`P1. clause   [premise]`),
/// then the certified chain, one step per line with what it cites
/// (`S1. clause   [from P2, P5]`), ending with the conclusion.
///
/// Stepwise derivation's renderer (see the module's rules).
pub fn derivation(meta: &Value, cert: &Value) -> Option<Vec<String>> {
    let premises = strings(&meta["premises"])?;
    let mut lines: Vec<String> = premises
        .iter()
        .enumerate()
        .map(|(i, p)| format!("P{}. {p}   [premise]", i + 1))
        .collect();
    let steps = cert["steps"].as_array()?;
    if steps.is_empty() {
        return None;
    }
    for (j, s) in steps.iter().enumerate() {
        let cites = strings(&s["cites"])?;
        lines.push(format!(
            "S{}. {}   [from {}]",
            j + 1,
            s["clause"].as_str()?,
            cites.join(", ")
        ));
    }
    Some(lines)
}

/// A PL row: its reference proof and the goal, or a non-theorem's
/// counterexample.
///
/// The PL1 and PL2 renderer (see the module's rules).
pub fn pl(meta: &Value, cert: &Value) -> Option<Vec<String>> {
    let goal = meta["goal"].as_str()?;
    if let Some(proof) = meta["reference_proof"]
        .as_str()
        .filter(|p| !p.trim().is_empty())
    {
        let mut lines: Vec<String> = proof.trim_end().lines().map(str::to_string).collect();
        lines.push(format!("Conclusion: {goal}"));
        return Some(lines);
    }
    let problem = &cert["problem"];
    // The generator's own text keeps its atom order; else the table.
    let assignment = match problem["counterexample_text"].as_str() {
        Some(t) => t.to_string(),
        None => {
            let ce = problem["counterexample"].as_object()?;
            let atoms: Vec<String> = ce
                .iter()
                .map(|(atom, v)| format!("{atom} = {}", v.as_bool().unwrap_or(false)))
                .collect();
            atoms.join(", ")
        }
    };
    Some(vec![
        format!("Counterexample (every premise true, the goal {goal} false): {assignment}"),
        "So the goal does not follow from the premises.".into(),
    ])
}

/// An EQ row: the rewrite chain, each step with what the checker found.
///
/// The EQ renderer (see the module's rules).
pub fn eq(meta: &Value, cert: &Value) -> Option<Vec<String>> {
    let proof = &meta["instance"]["proof"];
    let terms = strings(&proof["terms"])?;
    if terms.is_empty() {
        return None;
    }
    let citations: Vec<Vec<&str>> = proof["citations"]
        .as_array()
        .map(|c| c.iter().map(|l| strings(l).unwrap_or_default()).collect())
        .unwrap_or_default();
    let checked: BTreeMap<u64, &Value> = cert["steps"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter_map(|s| Some((s["step"].as_u64()?, s)))
                .collect()
        })
        .unwrap_or_default();
    let gap = meta["instance"]["decoy"]
        .as_bool()
        .unwrap_or(false)
        .then(|| {
            let start = meta["instance"]["gapStart"].as_u64()? as usize;
            let len = meta["instance"]["gapLen"].as_u64()? as usize;
            Some((start, len))
        })
        .flatten();
    let mut lines = vec![format!("0. {}", terms[0])];
    let mut k = 1;
    while k < terms.len() {
        if let Some((start, len)) = gap.filter(|(s, _)| *s == k) {
            lines.push(unfillable(cert, start, len));
            k = start + len;
            // The line after the gap has no step from a shown line.
            lines.push(format!("{k}. {}", terms.get(k)?));
            k += 1;
            continue;
        }
        let cited = citations.get(k).cloned().unwrap_or_default();
        let why = match checked.get(&(k as u64)) {
            Some(s) => step_note(s, &cited),
            None => format!("by {}", cited.join(", ")),
        };
        lines.push(format!("{k}. {}   [{why}]", terms[k]));
        k += 1;
    }
    Some(lines)
}

/// A checked EQ step: each rewrite (equation, position, redex and
/// contractum), or the cited equations and why the step does not hold.
fn step_note(s: &Value, cited: &[&str]) -> String {
    if s["holds"].as_bool() == Some(true) {
        if let Some(rw) = s["rewrites"].as_array().filter(|r| !r.is_empty()) {
            let parts: Vec<String> = rw
                .iter()
                .map(|r| {
                    let pos: Vec<String> = r["position"]
                        .as_array()
                        .map(|p| p.iter().map(|v| v.to_string()).collect())
                        .unwrap_or_default();
                    format!(
                        "{} at [{}]: {} -> {}",
                        r["equation"].as_str().unwrap_or("?"),
                        pos.join(","),
                        r["redex"].as_str().unwrap_or("?"),
                        r["contractum"].as_str().unwrap_or("?")
                    )
                })
                .collect();
            return parts.join("; ");
        }
        return format!("by {}", cited.join(", "));
    }
    let reason = s["reason"].as_str().unwrap_or("the step does not hold");
    if cited.is_empty() {
        format!("does not hold: {reason}")
    } else {
        format!("by {}: does not hold: {reason}", cited.join(", "))
    }
}

/// The line standing for an unfillable gap: why no chain of steps links
/// the lines around it (the certificate's countermodel).
fn unfillable(cert: &Value, start: usize, len: usize) -> String {
    let d = &cert["decoy"];
    let (before, after) = (start - 1, start + len);
    match (
        d["countermodelSize"].as_u64(),
        d["valueBefore"].as_u64(),
        d["valueAfter"].as_u64(),
    ) {
        (Some(size), Some(vb), Some(va)) => format!(
            "?? The gap cannot be filled: in an interpretation over {size} elements where every equation holds, line {before} has value {vb} and line {after} value {va}, and a step never changes the value."
        ),
        _ => format!("?? The gap between lines {before} and {after} cannot be filled."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::registry::Registry;
    use serde_json::json;

    /// The registry's dispatch, as the trace column gets it.
    fn trace(task: &str, metadata: &Value, certificate: &Value) -> Option<String> {
        Registry::shared().trace(task, metadata, certificate)
    }

    /// Each family renders its own configs (tests/traces.rs renders a row
    /// of every shipped config); a config no family writes has no trace.
    #[test]
    fn traces_dispatch_through_the_registry() {
        assert_eq!(trace("no_such_task", &json!({}), &json!({})), None);
        let pl = Registry::builtin().family_of("pl2_proof_writing").unwrap();
        let meta = json!({"reference_proof": "1. A  premise", "goal": "A"});
        let lines = pl.trace("pl2_proof_writing", &meta, &json!({})).unwrap();
        assert_eq!(lines, ["1. A  premise", "Conclusion: A"]);
    }

    #[test]
    fn equivalence_traces_end_with_the_verdict() {
        let meta = json!({"left": "(P ==> Q)", "right": "(Q ==> P)", "vocabulary": ["P", "Q"], "rewrites": ["commute"]});
        let cert = json!({"equivalent": false, "counterexample": {"P": true, "Q": false}, "left": false, "right": true});
        assert_eq!(
            trace("equivalence_pl", &meta, &cert).unwrap(),
            "A: (P ==> Q)\nB: (Q ==> P)\nUnder P=1, Q=0: A is false, B is true.\nSo A and B are not equivalent."
        );
        let cert = json!({"equivalent": true});
        assert!(
            trace("equivalence_pl", &meta, &cert)
                .unwrap()
                .ends_with("every assignment of P, Q.\nSo A and B are equivalent.")
        );
        let meta = json!({"logic": "fol", "left": "! [X] : p(X)", "right": "? [X] : p(X)", "rewrites": ["flip_quantifier"]});
        let cert = json!({"equivalent": false, "left": false, "right": true, "countermodel": {"size": 2, "functions": [], "predicates": [{"name": "p", "arity": 1, "values": [0, 1]}]}});
        assert_eq!(
            trace("equivalence_fol", &meta, &cert).unwrap(),
            "A: ! [X] : p(X)\nB: ? [X] : p(X)\nIn the interpretation domain {0,1}; p={1}: A is false, B is true.\nSo A and B are not equivalent."
        );
        let meta = json!({"formula": "(P ==> Q)", "rewrites": ["contraposition"]});
        assert!(
            trace("roundtrip_pl", &meta, &json!({}))
                .unwrap()
                .contains("contraposition")
        );
    }

    #[test]
    fn a_derivation_trace_lists_the_premises_then_the_chain() {
        let meta = json!({"premises": ["p(X0)", "~p(X0) | q(X0)", "~q(a) | r"]});
        let cert = json!({"verdict": "derivation", "steps": [
            {"clause": "q(X0)", "cites": ["P1", "P2"], "refutation": {}},
            {"clause": "r", "cites": ["S1", "P3"], "refutation": {}},
        ]});
        assert_eq!(
            trace("stepwise_derivation", &meta, &cert).unwrap(),
            "P1. p(X0)   [premise]\nP2. ~p(X0) | q(X0)   [premise]\nP3. ~q(a) | r   [premise]\nS1. q(X0)   [from P1, P2]\nS2. r   [from S1, P3]"
        );
        let empty = json!({"verdict": "derivation", "steps": []});
        assert_eq!(trace("stepwise_derivation", &meta, &empty), None);
    }

    fn step(id: u32, clause: &str, rule: &str, parents: &[u32]) -> Value {
        json!({"id": id, "clause": clause, "rule": rule, "parents": parents, "simps": []})
    }

    #[test]
    fn a_refutation_is_numbered_with_rules_and_parents() {
        let mut s1 = step(1, "~p(X0) | q(X0)", "input", &[]);
        s1["role"] = json!("axiom");
        s1["name"] = json!("premise_1");
        let mut s2 = step(2, "p(a)", "input", &[]);
        s2["role"] = json!("axiom");
        s2["name"] = json!("premise_2");
        let mut s3 = step(3, "~q(a)", "input", &[]);
        s3["role"] = json!("negated_conjecture");
        let s4 = step(7, "q(a)", "resolution", &[1, 2]);
        let mut s5 = step(9, "$false", "simplification", &[7]);
        s5["simps"] = json!([{"kind": "simplify_reflect", "lit": 0, "unit": 3}]);
        let cert = json!({"verdict": "theorem", "refutation": {"steps": [s1, s2, s3, s4, s5]}});
        // The premises in the prompt's order: `p(a)` is premise 1.
        let meta = json!({"premises": ["p(a)", "~p(X0) | q(X0)"]});
        let t = trace("conjecture_entailment", &meta, &cert).unwrap();
        assert_eq!(
            t,
            "1. ~p(X0) | q(X0)   [premise 2]\n\
             2. p(a)   [premise 1]\n\
             3. ~q(a)   [negated conjecture]\n\
             4. q(a)   [resolution 1, 2]\n\
             5. $false   [simplification 4; simplify reflect with 3]"
        );
        // Selection reads the pool and the first answer.
        let sel = json!({"answers": [{"premises": [2], "refutation": cert["refutation"]}]});
        let pool = json!({"pool": ["x", "~p(X0) | q(X0)", "p(a)"]});
        let t = trace("premise_selection", &pool, &sel).unwrap();
        assert!(t.starts_with("1. ~p(X0) | q(X0)   [premise 2]\n2. p(a)   [premise 3]"));
        // A refutation that does not end in $false is not one.
        let mut bad = cert.clone();
        bad["refutation"]["steps"].as_array_mut().unwrap().pop();
        assert_eq!(trace("conjecture_entailment", &meta, &bad), None);
    }

    #[test]
    fn a_countermodel_is_described() {
        let cert = json!({"verdict": "counter_satisfiable", "evidence": {"kind": "model", "model": {
            "size": 2,
            "functions": [{"name": "a", "arity": 0, "values": [1]},
                          {"name": "f", "arity": 1, "values": [1, 0]}],
            "predicates": [{"name": "p", "arity": 2, "values": [0, 1, 0, 0]},
                           {"name": "q", "arity": 1, "values": [0, 0]},
                           {"name": "r", "arity": 0, "values": [1]}]}}});
        let t = trace("conjecture_entailment", &json!({}), &cert).unwrap();
        assert_eq!(
            t,
            "Countermodel of the premises and the negated conclusion, domain {0, 1}:\n\
             a = 1\n\
             f(0) = 1, f(1) = 0\n\
             p holds exactly for p(0,1)\n\
             q is false everywhere\n\
             r is true\n\
             So the conclusion does not follow from the premises."
        );
        let sat = json!({"verdict": "counter_satisfiable",
                         "evidence": {"kind": "saturation", "clauses": ["p(a)"]}});
        assert_eq!(trace("conjecture_entailment", &json!({}), &sat), None);
    }

    #[test]
    fn a_proof_graph_lists_parents_before_children() {
        let meta = json!({"clauses": ["p(X0) | q(X0)", "r(a)", "q(a)", "~p(X0)", "s"],
                          "premise_indices": [1, 4, 5]});
        let cert = json!({"verdict": "proof_graph", "steps": [
            {"child": 2, "parents": [3, 5], "refutation": {"steps": []}},
            {"child": 3, "parents": [1, 4], "refutation": {"steps": []}}]});
        assert_eq!(
            trace("proof_reconstruction", &meta, &cert).unwrap(),
            "1. p(X0) | q(X0)   [premise]\n\
             4. ~p(X0)   [premise]\n\
             5. s   [premise]\n\
             3. q(a)   [from 1, 4]\n\
             2. r(a)   [from 3, 5]"
        );
        // A cycle has no order: nothing is rendered.
        let cyc =
            json!({"steps": [{"child": 2, "parents": [3, 1]}, {"child": 3, "parents": [2, 1]}]});
        assert_eq!(trace("proof_reconstruction", &meta, &cyc), None);
    }

    #[test]
    fn pl_rows_give_their_proof_or_counterexample() {
        let meta = json!({"goal": "(A | B)", "reference_proof": "{\n  (A | B) BY right-either on A, B\n}"});
        assert_eq!(
            trace("pl1_proof_writing", &meta, &json!({})).unwrap(),
            "{\n  (A | B) BY right-either on A, B\n}\nConclusion: (A | B)"
        );
        let decoy = json!({"goal": "(~ A)", "reference_proof": null});
        let cert = json!({"problem": {"counterexample": {"A": true, "B": false}}});
        assert_eq!(
            trace("pl2_proof_writing", &decoy, &cert).unwrap(),
            "Counterexample (every premise true, the goal (~ A) false): A = true, B = false\n\
             So the goal does not follow from the premises."
        );
        assert_eq!(trace("pl2_proof_writing", &decoy, &json!({})), None);
    }

    fn eq_meta(terms: &[&str], citations: Value, extra: Value) -> Value {
        let mut inst = json!({"proof": {"equations": [], "terms": terms, "citations": citations}});
        for (k, v) in extra.as_object().unwrap() {
            inst[k] = v.clone();
        }
        json!({ "instance": inst })
    }

    #[test]
    fn an_eq_chain_names_each_rewrite_or_why_it_fails() {
        let meta = eq_meta(
            &["f(a)", "f(b)", "g(b)"],
            json!([[], ["E1"], ["E2"]]),
            json!({}),
        );
        let cert = json!({"steps": [
            {"step": 1, "holds": true, "rewrites": [
                {"equation": "E1", "position": [1], "redex": "a", "contractum": "b"}]},
            {"step": 2, "holds": false, "reason": "E2 has no redex"}]});
        assert_eq!(
            trace("eq_pc", &meta, &cert).unwrap(),
            "0. f(a)\n\
             1. f(b)   [E1 at [1]: a -> b]\n\
             2. g(b)   [by E2: does not hold: E2 has no redex]"
        );
        // Without checked steps, the citations.
        assert_eq!(
            trace("eq_er", &meta, &json!({})).unwrap(),
            "0. f(a)\n1. f(b)   [by E1]\n2. g(b)   [by E2]"
        );
        let decoy = eq_meta(
            &["f(a)", "f(b)", "g(c)", "g(d)"],
            json!([[], ["E1"], ["E2"], ["E3"]]),
            json!({"decoy": true, "gapStart": 1, "gapLen": 1}),
        );
        let cert = json!({"decoy": {"countermodelSize": 2, "valueBefore": 1, "valueAfter": 0},
            "steps": [{"step": 3, "holds": true, "rewrites": [
                {"equation": "E3", "position": [1], "redex": "c", "contractum": "d"}]}]});
        assert_eq!(
            trace("eq_gf", &decoy, &cert).unwrap(),
            "0. f(a)\n\
             ?? The gap cannot be filled: in an interpretation over 2 elements where every equation holds, line 0 has value 1 and line 2 value 0, and a step never changes the value.\n\
             2. g(c)\n\
             3. g(d)   [E3 at [1]: c -> d]"
        );
    }
}
