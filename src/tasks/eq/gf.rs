//! EQ-GF, gap filling (spec `pl_eq.md` §5.6): one run of consecutive lines of
//! a correct proof is replaced by `?? ??`; the model supplies the missing
//! lines (each citing at most two equations, read in either direction) or
//! `[]` when the gap cannot be filled. Correct iff the spliced proof checks;
//! for a decoy iff the answer is `[]`.
//!
//! Decoys are certified, never labelled by a failed search: one head symbol
//! of the term after the gap (and of the later lines, at the same position) is
//! replaced by a symbol z that occurs in no equation and not in the term
//! before the gap (same arity when one is free, else any function symbol over
//! the old arguments), and every equation has the same variables on both
//! sides. A rewrite in either direction then neither creates z (the
//! contractum's symbols come from the equation or from the redex) nor removes
//! it (a z inside a redex sits in the binding of a variable, which the other
//! side also has), so every term reachable from the term before the gap lacks
//! z, and none of them is, or rewrites in one step with the cited equations
//! to or from, the term after the gap. The renamed position lies outside
//! every later redex, so the rest of the proof still checks.

use super::common::{
    LANGUAGE, as_names, as_str, field, parse_answer, render_equations, render_line, resolve,
};
use super::generate::Proof;
use super::record::{Loaded, ProofData};
use crate::equational::lang::{Pos, disjoint};
use crate::equational::step::{check_either, check_step};
use crate::logic::{SymbolId, TermId};
use crate::tasks::Score;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// What a GF scorer needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GfInstance {
    /// The proof: lines `gap_start .. gap_start + gap_len` are hidden; the
    /// lines after the gap are as shown (renamed in a decoy).
    pub proof: ProofData,
    /// Index of the first hidden line (≥ 1).
    pub gap_start: usize,
    /// Number of hidden lines (≥ 1); line `gap_start + gap_len` is shown.
    pub gap_len: usize,
    /// True if the gap is certifiably unfillable.
    pub decoy: bool,
}

/// The evidence that a decoy gap cannot be filled.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DecoyCertificate {
    /// The symbol of the term after the gap that no fill can produce.
    pub fresh_symbol: String,
    /// Every equation has the same variables on both sides.
    pub equations_balanced: bool,
    /// The symbol occurs in no equation.
    pub absent_from_equations: bool,
    /// The symbol occurs not in the term before the gap.
    pub absent_before_gap: bool,
    /// The symbol occurs in the term after the gap.
    pub present_after_gap: bool,
}

/// The decoy certificate of a gap, if one holds: a symbol of the term after
/// the gap absent from every equation and from the term before the gap, with
/// balanced equations.
pub fn decoy_certificate(l: &Loaded, gap_start: usize, gap_len: usize) -> Option<DecoyCertificate> {
    let w = &l.world;
    let balanced = l.eqs.iter().all(|e| {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        w.vars_of(e.lhs, &mut a);
        w.vars_of(e.rhs, &mut b);
        a.sort();
        b.sort();
        a == b
    });
    if !balanced {
        return None;
    }
    let before = l.terms[gap_start - 1];
    let after = l.terms[gap_start + gap_len];
    let mut syms = Vec::new();
    w.symbols_in(after, &mut syms);
    syms.sort();
    syms.dedup();
    let z = syms.into_iter().find(|&z| {
        !w.contains_symbol(before, z)
            && l.eqs
                .iter()
                .all(|e| !w.contains_symbol(e.lhs, z) && !w.contains_symbol(e.rhs, z))
    })?;
    Some(DecoyCertificate {
        fresh_symbol: w.sym_name(z).to_string(),
        equations_balanced: true,
        absent_from_equations: true,
        absent_before_gap: true,
        present_after_gap: true,
    })
}

/// Cuts a gap into a correct proof (generated with balanced equations and
/// at most two redexes per step); with `decoy`, renames a symbol after the
/// gap as described in the module documentation. `None` if no gap of the
/// wanted kind was found.
pub fn make_gap(p: &Proof, decoy: bool, rng: &mut ChaCha8Rng) -> Option<GfInstance> {
    let n = p.steps();
    if n < 2 {
        return None;
    }
    for _ in 0..20 {
        let gap_start = rng.random_range(1..n);
        let gap_len = rng.random_range(1..=(n - gap_start).min(4));
        let mut q = p.clone();
        if decoy && !rename_after_gap(&mut q, gap_start, gap_len, rng) {
            continue;
        }
        let inst = GfInstance {
            proof: ProofData::from_proof(&q),
            gap_start,
            gap_len,
            decoy,
        };
        return Some(inst);
    }
    None
}

fn rename_after_gap(p: &mut Proof, gap_start: usize, gap_len: usize, rng: &mut ChaCha8Rng) -> bool {
    let j = gap_start + gap_len;
    let n = p.steps();
    let before = p.terms[gap_start - 1];
    let w = &p.world;
    // Positions outside every later redex (so later steps still check);
    // those also outside the redexes of the step into the term after the
    // gap come first, so that line looks as plausible as the others.
    let mut stable: Vec<(bool, Pos)> = w
        .positions(p.terms[j])
        .into_iter()
        .filter(|pos| (j + 1..=n).all(|k| p.witnesses[k].iter().all(|x| disjoint(&x.pos, pos))))
        .map(|pos| (!p.witnesses[j].iter().all(|x| disjoint(&x.pos, &pos)), pos))
        .collect();
    stable.shuffle(rng);
    stable.sort_by_key(|(touched, _)| *touched);
    let in_eqs = |z: SymbolId| {
        p.equations
            .iter()
            .any(|e| w.contains_symbol(e.lhs, z) || w.contains_symbol(e.rhs, z))
    };
    let fresh_of = |pos: &Pos, same_arity: bool| {
        let u = w.subterm(p.terms[j], pos).expect("own position");
        let f = w.bank.sym(u);
        let fresh: Vec<SymbolId> = w
            .all_symbols()
            .filter(|&z| {
                z != f
                    && (w.arity_of(z) == w.arity_of(f)) == same_arity
                    && (same_arity || w.arity_of(z) > 0)
                    && !in_eqs(z)
                    && !w.contains_symbol(before, z)
            })
            .collect();
        (!fresh.is_empty()).then(|| (pos.clone(), u, fresh))
    };
    // A symbol of the same arity keeps the shape; otherwise any unused
    // function symbol over the old arguments (or over the old constant).
    let choice = stable
        .iter()
        .find_map(|(_, pos)| fresh_of(pos, true))
        .or_else(|| stable.iter().find_map(|(_, pos)| fresh_of(pos, false)));
    let Some((pos, u, fresh)) = choice else {
        return false;
    };
    let z = fresh[rng.random_range(0..fresh.len())];
    let old: Vec<TermId> = p.world.bank.args(u).to_vec();
    let args: Vec<TermId> = (0..p.world.arity_of(z))
        .map(|k| {
            if old.is_empty() {
                u
            } else {
                old[k % old.len()]
            }
        })
        .collect();
    let renamed = p.world.bank.app(z, &args);
    for k in j..=n {
        let t = p.terms[k];
        p.terms[k] = p.world.bank.replace_at(t, &pos, renamed);
    }
    // The rest of the proof still checks.
    (j + 1..=n).all(|k| {
        check_step(
            &p.world,
            &p.equations,
            p.terms[k - 1],
            p.terms[k],
            &p.citations[k],
        )
        .is_ok()
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MissingStep {
    term: String,
    supporting_equations: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    explanation: String,
    missing_steps: Vec<MissingStep>,
    confidence: u8,
}

/// The gold answer: the removed lines, or `[]` for a decoy.
pub fn gold(inst: &GfInstance, cert: Option<&DecoyCertificate>) -> String {
    let a = match cert {
        Some(c) => Answer {
            explanation: format!(
                "The line after the gap contains {}, which occurs in no equation and not in the line before the gap. Every equation has the same variables on both sides, so rewriting in either direction never creates or removes {}: the gap cannot be filled.",
                c.fresh_symbol, c.fresh_symbol
            ),
            missing_steps: Vec::new(),
            confidence: 5,
        },
        None => Answer {
            explanation: "The missing lines rewrite the line before the gap step by step into the term that the line after the gap rewrites.".into(),
            missing_steps: (inst.gap_start..inst.gap_start + inst.gap_len)
                .map(|k| MissingStep {
                    term: inst.proof.terms[k].clone(),
                    supporting_equations: inst.proof.citations[k].clone(),
                })
                .collect(),
            confidence: 5,
        },
    };
    serde_json::to_string(&a).expect("serialisable")
}

/// The prompt.
pub fn prompt(inst: &GfInstance) -> String {
    let d = &inst.proof;
    let mut s = String::new();
    s.push_str("You are given a list of equations and an equational proof with a gap: the line `?? ??` stands for one or more missing lines. Fill the gap, or say that it cannot be filled.\n\n");
    s.push_str(LANGUAGE);
    s.push_str(
        "
Two differences in this task: a line cites at most two equations, and a line may also be read backwards: `t by E` is correct when t follows from the line before, s, as described above, or when s follows from t in that way with the same equations.

What to answer
Reply with one JSON object and nothing else: {\"explanation\": \"...\", \"missingSteps\": [{\"term\": \"...\", \"supportingEquations\": [\"E2\"]}, ...], \"confidence\": 4}.
- missingSteps are the lines that replace `?? ??`, in order. Each term must follow from the line before it with its supportingEquations (one or two equations), and the line after the gap must then follow from your last term with the equations that line cites. Any number of lines that achieves this is accepted.
- If no lines can fill the gap, give \"missingSteps\": [].
- confidence runs from 1 (a guess) to 5 (certain).

",
    );
    s.push_str(&render_equations(d));
    s.push_str("\n- Proof:\n");
    for i in 0..d.terms.len() {
        if i == inst.gap_start {
            s.push_str("?? ??\n");
        }
        if i >= inst.gap_start && i < inst.gap_start + inst.gap_len {
            continue;
        }
        s.push_str(&render_line(d, i, true, false));
        s.push('\n');
    }
    s
}

/// Scores a GF answer.
pub fn score(inst: &GfInstance, answer: &str) -> Score {
    let mut l = match inst.proof.load() {
        Ok(l) => l,
        Err(e) => return Score::malformed(format!("instance does not load: {e}")),
    };
    let (i, g) = (inst.gap_start, inst.gap_len);
    if i == 0 || g == 0 || i + g >= l.terms.len() {
        return Score::malformed("instance has no valid gap".to_string());
    }
    let m = match parse_answer(answer) {
        Ok(m) => m,
        Err(e) => return Score::malformed(e),
    };
    if let Some(c) = m.get("confidence")
        && !c.as_u64().is_some_and(|c| (1..=5).contains(&c))
    {
        return Score::malformed("`confidence` must be an integer from 1 to 5");
    }
    let steps = match field(&m, "missingSteps").map(|v| v.as_array()) {
        Ok(Some(a)) => a,
        Ok(None) => return Score::malformed("`missingSteps` must be a list"),
        Err(e) => return Score::malformed(e),
    };
    let mut fill = Vec::new();
    for st in steps {
        let Some(o) = st.as_object() else {
            return Score::malformed("each missing step must be an object");
        };
        let term = match field(o, "term").and_then(|v| as_str(v, "term")) {
            Ok(t) => t,
            Err(e) => return Score::malformed(e),
        };
        let names = match field(o, "supportingEquations")
            .and_then(|v| as_names(v, "supportingEquations"))
        {
            Ok(n) => n,
            Err(e) => return Score::malformed(e),
        };
        let t = match l.world.parse_term(term, false) {
            Ok(t) => t,
            Err(e) => return Score::malformed(format!("`{term}` is not a term: {e}")),
        };
        fill.push((t, names));
    }
    let cert = decoy_certificate(&l, i, g);
    if cert.is_some() {
        return if fill.is_empty() {
            Score::correct()
        } else {
            Score::wrong("the gap cannot be filled (a symbol after the gap is unreachable)")
        };
    }
    if fill.is_empty() {
        return Score::wrong("the gap can be filled");
    }
    let mut prev = l.terms[i - 1];
    for (k, (t, names)) in fill.iter().enumerate() {
        let cited = match resolve(&l, names) {
            Ok(c) => c,
            Err(e) => return Score::wrong(format!("missing step {}: {e}", k + 1)),
        };
        if cited.is_empty() || cited.len() > 2 {
            return Score::wrong(format!(
                "missing step {}: a step must cite one or two equations",
                k + 1
            ));
        }
        if let Err(e) = check_either(&l.world, &l.eqs, prev, *t, &cited) {
            return Score::wrong(format!("missing step {}: {}", k + 1, e.describe(&l.eqs)));
        }
        prev = *t;
    }
    let j = i + g;
    if let Err(e) = check_either(&l.world, &l.eqs, prev, l.terms[j], &l.citations[j]) {
        return Score::wrong(format!(
            "the line after the gap does not follow from the last missing step: {}",
            e.describe(&l.eqs)
        ));
    }
    Score::correct()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::eq::generate::{GenParams, generate};
    use crate::tasks::instance_rng;

    fn proof(level: u8, i: u64) -> Proof {
        let mut params = GenParams::level(level).unwrap();
        params.balanced = true;
        params.max_redexes = params.max_redexes.min(2);
        let mut rng = instance_rng(21, &["eq-gf-test", &level.to_string()], i);
        generate(&params, &mut rng).unwrap()
    }

    #[test]
    fn fillable_gaps_are_filled_by_the_removed_steps() {
        for level in 1..=4 {
            for i in 0..8 {
                let p = proof(level, i);
                let mut rng = instance_rng(22, &["gap"], i);
                let inst = make_gap(&p, false, &mut rng).unwrap();
                let l = inst.proof.load().unwrap();
                assert!(decoy_certificate(&l, inst.gap_start, inst.gap_len).is_none());
                let g = gold(&inst, None);
                assert_eq!(score(&inst, &g), Score::correct(), "{g}");
                let empty = "{\"explanation\": \"\", \"missingSteps\": [], \"confidence\": 3}";
                assert_eq!(score(&inst, empty).value, 0.0);
            }
        }
    }

    #[test]
    fn decoys_are_certified_and_only_empty_answers_score() {
        let mut made = 0;
        for level in 1..=4 {
            for i in 0..8 {
                let p = proof(level, i);
                let mut rng = instance_rng(23, &["decoy"], i);
                let Some(inst) = make_gap(&p, true, &mut rng) else {
                    continue;
                };
                made += 1;
                let l = inst.proof.load().unwrap();
                let cert = decoy_certificate(&l, inst.gap_start, inst.gap_len).expect("certified");
                // The rest of the proof still checks.
                for k in inst.gap_start + inst.gap_len + 1..l.terms.len() {
                    assert!(
                        check_step(
                            &l.world,
                            &l.eqs,
                            l.terms[k - 1],
                            l.terms[k],
                            &l.citations[k]
                        )
                        .is_ok()
                    );
                }
                let g = gold(&inst, Some(&cert));
                assert_eq!(score(&inst, &g), Score::correct());
                // The original removed steps no longer fill it.
                let orig = gold(&inst, None);
                assert_eq!(score(&inst, &orig).value, 0.0);
            }
        }
        assert!(made >= 20, "only {made} decoys");
    }

    #[test]
    fn backwards_steps_and_malformed_answers() {
        let d = ProofData {
            equations: vec![
                ["E1".into(), "f(X) = f1(X)".into()],
                ["E2".into(), "g(X,Y) = g(Y,X)".into()],
            ],
            terms: vec!["g(f1(a),b)".into(), "g(f(a),b)".into(), "g(b,f(a))".into()],
            citations: vec![vec![], vec!["E1".into()], vec!["E2".into()]],
        };
        let inst = GfInstance {
            proof: d,
            gap_start: 1,
            gap_len: 1,
            decoy: false,
        };
        // g(f1(a),b) follows from g(f(a),b) by E1: a backwards line is accepted.
        let a = r#"{"explanation": "", "missingSteps": [{"term": "g(f(a),b)", "supportingEquations": ["E1"]}], "confidence": 2}"#;
        assert_eq!(score(&inst, a), Score::correct());
        let a = r#"{"explanation": "", "missingSteps": [{"term": "g(b,f1(a))", "supportingEquations": ["E1"]}], "confidence": 2}"#;
        assert_eq!(score(&inst, a).value, 0.0);
        let a = r#"{"missingSteps": [{"term": "g(b", "supportingEquations": ["E2"]}]}"#;
        assert!(!score(&inst, a).well_formed);
        let a = r#"{"missingSteps": [], "confidence": 9}"#;
        assert!(!score(&inst, a).well_formed);
        let a = r#"{"missingSteps": [{"term": "g(f1(a),b)", "supportingEquations": ["E1","E2","E3"]}]}"#;
        assert_eq!(score(&inst, a).value, 0.0);
    }
}
