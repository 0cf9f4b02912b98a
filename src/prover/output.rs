//! Text forms of certificates: a refutation as a TSTP derivation (nested
//! `inference(...)` records, as E and Vampire print them) and a finite model
//! in the TPTP finite-interpretation format (`fi_domain`, `fi_functors`,
//! `fi_predicates`).

use super::{FiniteModel, ProofStep, Refutation};
use crate::tptp::name_to_tptp;
use std::fmt::Write;

fn step_name(id: u32) -> String {
    format!("c{id}")
}

/// The source annotation of a step: for inputs, `leaf`'s source when it
/// has one, else an `introduced(input,...)` marker; otherwise the rule
/// applied to its parents, wrapped once per simplification.
fn annotation(s: &ProofStep, leaf: &impl Fn(&ProofStep) -> Option<String>) -> String {
    if s.rule == "input" {
        if let Some(src) = leaf(s) {
            return src;
        }
        return match &s.name {
            Some(n) => format!("introduced(input,[name({})])", name_to_tptp(n)),
            None => "introduced(input)".to_string(),
        };
    }
    let parents: Vec<String> = s.parents.iter().map(|&p| step_name(p)).collect();
    let mut inner = if s.rule == "simplification" && parents.len() == 1 {
        parents[0].clone()
    } else {
        format!(
            "inference({},[status(thm)],[{}])",
            s.rule,
            parents.join(",")
        )
    };
    for simp in &s.simps {
        inner = match simp.unit {
            Some(u) => format!(
                "inference({},[status(thm)],[{inner},{}])",
                simp.kind,
                step_name(u)
            ),
            None => format!("inference({},[status(thm)],[{inner}])", simp.kind),
        };
    }
    inner
}

/// The refutation as TSTP `cnf` lines, one per step, inputs marked
/// `introduced(input,[name(..)])` (for certificates without files).
pub fn refutation_tstp(r: &Refutation) -> String {
    refutation_tstp_with(r, |_| None)
}

/// The refutation as TSTP `cnf` lines, one per step, each input citing the
/// source `leaf` gives it (`file('F.p', name)`, or the inference that made
/// it from a FOF formula, the step's role then `plain` unless it is
/// `negated_conjecture`).
pub fn refutation_tstp_with(r: &Refutation, leaf: impl Fn(&ProofStep) -> Option<String>) -> String {
    let mut out = String::new();
    for s in &r.steps {
        let inferred =
            s.rule == "input" && leaf(s).is_some_and(|src| src.starts_with("inference("));
        let role = match s.role.as_deref().unwrap_or("plain") {
            "negated_conjecture" => "negated_conjecture",
            _ if inferred => "plain",
            role => role,
        };
        let _ = writeln!(
            out,
            "cnf({}, {role}, ({}), {}).",
            step_name(s.id),
            s.clause,
            annotation(s, &leaf)
        );
    }
    out
}

/// A prefix for domain element names that no symbol of the model uses.
fn element_prefix(m: &FiniteModel) -> String {
    let names: Vec<&str> = m
        .functions
        .iter()
        .chain(&m.predicates)
        .map(|t| t.name.as_str())
        .collect();
    let mut prefix = "e".to_string();
    while names.iter().any(|n| {
        n.strip_prefix(prefix.as_str())
            .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()))
    }) {
        prefix.push('e');
    }
    prefix
}

fn args_of(cell: usize, arity: u32, n: u32) -> Vec<u32> {
    let mut v = vec![0u32; arity as usize];
    let mut c = cell as u64;
    for k in (0..arity as usize).rev() {
        v[k] = (c % n as u64) as u32;
        c /= n as u64;
    }
    v
}

/// The model in the TPTP finite-interpretation format.
pub fn model_tptp(m: &FiniteModel) -> String {
    let e = element_prefix(m);
    let el = |i: u32| format!("{e}{i}");
    let apply = |name: &str, args: &[u32]| {
        if args.is_empty() {
            name.to_string()
        } else {
            let a: Vec<String> = args.iter().map(|&x| el(x)).collect();
            format!("{name}({})", a.join(","))
        }
    };
    let mut out = String::new();
    let dom: Vec<String> = (0..m.size).map(|i| format!("X = {}", el(i))).collect();
    let _ = writeln!(
        out,
        "fof(domain, fi_domain, ! [X] : ({})).",
        dom.join(" | ")
    );
    if m.size > 1 {
        let mut distinct = Vec::new();
        for i in 0..m.size {
            for j in i + 1..m.size {
                distinct.push(format!("{} != {}", el(i), el(j)));
            }
        }
        let _ = writeln!(
            out,
            "fof(distinct_elements, fi_domain, ({})).",
            distinct.join(" & ")
        );
    }
    for t in &m.functions {
        let eqs: Vec<String> = t
            .values
            .iter()
            .enumerate()
            .map(|(cell, &v)| {
                format!(
                    "{} = {}",
                    apply(&t.name, &args_of(cell, t.arity, m.size)),
                    el(v)
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "fof({}, fi_functors, ({})).",
            name_to_tptp(&format!("{}_{}", t.name.trim_matches('\''), t.arity)),
            eqs.join(" & ")
        );
    }
    for t in &m.predicates {
        let lits: Vec<String> = t
            .values
            .iter()
            .enumerate()
            .map(|(cell, &v)| {
                let a = apply(&t.name, &args_of(cell, t.arity, m.size));
                if v == 1 { a } else { format!("~{a}") }
            })
            .collect();
        let _ = writeln!(
            out,
            "fof({}, fi_predicates, ({})).",
            name_to_tptp(&format!("{}_{}", t.name.trim_matches('\''), t.arity)),
            lits.join(" & ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::{SimpUse, Table};

    #[test]
    fn refutation_lines_nest_simplifications() {
        let r = Refutation {
            steps: vec![
                ProofStep {
                    id: 1,
                    clause: "p(a)".into(),
                    rule: "input".into(),
                    parents: vec![],
                    simps: vec![],
                    raw: None,
                    role: Some("axiom".into()),
                    name: Some("ax1".into()),
                },
                ProofStep {
                    id: 2,
                    clause: "$false".into(),
                    rule: "resolution".into(),
                    parents: vec![1, 1],
                    simps: vec![SimpUse {
                        kind: "rewrite".into(),
                        unit: Some(1),
                        ..SimpUse::default()
                    }],
                    raw: None,
                    role: None,
                    name: None,
                },
            ],
        };
        let text = refutation_tstp(&r);
        assert_eq!(
            text,
            "cnf(c1, axiom, (p(a)), introduced(input,[name(ax1)])).\n\
             cnf(c2, plain, ($false), inference(rewrite,[status(thm)],[inference(resolution,[status(thm)],[c1,c1]),c1])).\n"
        );
    }

    #[test]
    fn model_text_avoids_symbol_names() {
        let m = FiniteModel {
            size: 2,
            functions: vec![Table {
                name: "e1".into(),
                arity: 0,
                values: vec![1],
            }],
            predicates: vec![Table {
                name: "p".into(),
                arity: 1,
                values: vec![0, 1],
            }],
        };
        let text = model_tptp(&m);
        assert!(text.contains("e1 = ee1"), "{text}");
        assert!(text.contains("(~p(ee0) & p(ee1))"), "{text}");
    }
}
