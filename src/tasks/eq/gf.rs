//! EQ-GF, gap filling (spec `pl_eq.md` §5.6): one run of consecutive lines of
//! a correct proof is replaced by `?? ??`; the model supplies the missing
//! lines (each citing at most two equations, read in either direction) or
//! `[]` when the gap cannot be filled. Correct iff the spliced proof checks;
//! for a decoy iff the answer is `[]`.
//!
//! Gaps and their certified decoys are cut by [`crate::equational::gap`];
//! this module shows them to the model and scores the answers.

use super::common::{
    LANGUAGE, as_names, as_str, field, parse_answer, render_equations, render_line, resolve,
    unlisted_equation,
};
use super::record::{Loaded, ProofData};
use crate::certificate::FiniteModel;
use crate::equational::countermodel;
use crate::equational::gap;
pub use crate::equational::gap::Construction;
use crate::equational::generate::Proof;
use crate::equational::step::check_either;
use crate::tasks::Score;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// What a GF scorer needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GfInstance {
    /// The proof: lines `gap_start .. gap_start + gap_len` are hidden; the
    /// lines after the gap are as shown (changed in a decoy).
    pub proof: ProofData,
    /// Index of the first hidden line (≥ 1).
    pub gap_start: usize,
    /// Number of hidden lines (≥ 1); line `gap_start + gap_len` is shown.
    pub gap_len: usize,
    /// True if the gap is certifiably unfillable.
    pub decoy: bool,
    /// A decoy's certificate: a model of the equations in which the lines
    /// before and after the gap differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub countermodel: Option<FiniteModel>,
}

/// The evidence that a decoy gap cannot be filled.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DecoyCertificate {
    /// Domain size of the countermodel (stored in the instance).
    pub model_size: u32,
    /// The value of the line before the gap in the countermodel.
    pub value_before: u32,
    /// The value of the line after the gap (different).
    pub value_after: u32,
}

/// Checks a decoy's countermodel against the loaded instance: `Ok(None)`
/// for a fillable gap, `Ok(Some(certificate))` for a certified decoy, `Err`
/// when the instance says decoy but its model does not certify it.
pub fn decoy_certificate(
    inst: &GfInstance,
    l: &Loaded,
) -> Result<Option<DecoyCertificate>, String> {
    if !inst.decoy {
        return Ok(None);
    }
    let m = inst
        .countermodel
        .as_ref()
        .ok_or("a decoy gap without a countermodel")?;
    let before = l.terms[inst.gap_start - 1];
    let after = l.terms[inst.gap_start + inst.gap_len];
    let (value_before, value_after) = countermodel::check(&l.world, &l.eqs, before, after, m)?;
    Ok(Some(DecoyCertificate {
        model_size: m.size,
        value_before,
        value_after,
    }))
}

/// Cuts a gap into a correct proof ([`gap::cut_gap`], which see): the
/// instance shown to the model, and a decoy's construction. `None` if no gap
/// of the wanted kind was found.
pub fn make_gap(
    p: &Proof,
    decoy: bool,
    deep: bool,
    rng: &mut ChaCha8Rng,
) -> Option<(GfInstance, Option<Construction>)> {
    let g = gap::cut_gap(p, decoy, deep, rng)?;
    let inst = GfInstance {
        proof: ProofData::from_proof(&g.proof),
        gap_start: g.start,
        gap_len: g.len,
        decoy,
        countermodel: g.countermodel,
    };
    Some((inst, g.construction))
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
                "There is an interpretation over {} elements in which every equation holds for all values of its variables, but the line before the gap has value {} and the line after the gap value {}. Each step replaces a term by one of equal value, so no chain of steps links the two lines: the gap cannot be filled.",
                c.model_size, c.value_before, c.value_after
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

/// Scores a GF answer: `malformed` when it does not read; `cheating` when
/// a missing step names an equation the problem does not list or cites
/// more than the two equations a line may cite; `wrong` when the fill
/// fails (or a decoy is filled, or a fillable gap is called unfillable);
/// `ok` otherwise.
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
    if let Some(name) = steps.iter().find_map(|e| unlisted_equation(&l, e)) {
        return Score::cheating(format!(
            "a missing step names {name}, which is not one of the equations"
        ));
    }
    if let Some(k) = fill.iter().position(|(_, names)| names.len() > 2) {
        return Score::cheating(format!(
            "missing step {} cites {} equations; a line cites at most two",
            k + 1,
            fill[k].1.len()
        ));
    }
    match decoy_certificate(inst, &l) {
        Err(e) => return Score::malformed(format!("decoy certificate: {e}")),
        Ok(Some(_)) if fill.is_empty() => return Score::correct(),
        Ok(Some(_)) => {
            return Score::wrong(
                "the gap cannot be filled (a finite model of the equations separates the lines around it)",
            );
        }
        Ok(None) => {}
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
        if cited.is_empty() {
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
    use crate::equational::generate::test_proof as proof;
    use crate::equational::step::check_step;
    use crate::logic::TermId;
    use crate::seed::instance_rng;

    #[test]
    fn fillable_gaps_are_filled_by_the_removed_steps() {
        let mut made = 0;
        for level in 1..=4 {
            for i in 0..8 {
                let p = proof(level, i);
                let mut rng = instance_rng(22, &["gap"], i);
                let Some((inst, c)) = make_gap(&p, false, false, &mut rng) else {
                    continue;
                };
                made += 1;
                assert_eq!(c, None);
                assert_eq!(
                    inst.proof,
                    ProofData::from_proof(&p),
                    "the proof is shown as it is"
                );
                let l = inst.proof.load().unwrap();
                assert_eq!(decoy_certificate(&inst, &l), Ok(None));
                let g = gold(&inst, None);
                assert_eq!(score(&inst, &g), Score::correct(), "{g}");
                let empty = "{\"explanation\": \"\", \"missingSteps\": [], \"confidence\": 3}";
                assert_eq!(score(&inst, empty).value, 0.0);
            }
        }
        assert!(made >= 20, "only {made} fillable gaps");
    }

    /// The symbols of `t` that occur neither in `before` nor in an equation.
    fn unseen_symbols(l: &Loaded, before: TermId, t: TermId) -> Vec<String> {
        let mut known = Vec::new();
        l.world.symbols_in(before, &mut known);
        for e in &l.eqs {
            l.world.symbols_in(e.lhs, &mut known);
            l.world.symbols_in(e.rhs, &mut known);
        }
        let mut syms = Vec::new();
        l.world.symbols_in(t, &mut syms);
        syms.into_iter()
            .filter(|s| !known.contains(s))
            .map(|s| l.world.sym_name(s).to_string())
            .collect()
    }

    #[test]
    fn decoys_are_certified_and_only_empty_answers_score() {
        let mut made = 0;
        let mut kinds = std::collections::BTreeSet::new();
        for level in 1..=4 {
            for i in 0..8 {
                let p = proof(level, i);
                let mut rng = instance_rng(23, &["decoy"], i);
                let Some((inst, c)) = make_gap(&p, true, false, &mut rng) else {
                    continue;
                };
                made += 1;
                kinds.insert(format!("{:?}", c.expect("a decoy's construction")));
                let l = inst.proof.load().unwrap();
                let cert = decoy_certificate(&inst, &l).unwrap().expect("certified");
                assert_ne!(cert.value_before, cert.value_after);
                // No symbol after the gap is new to the problem.
                let (before, after) = (
                    l.terms[inst.gap_start - 1],
                    l.terms[inst.gap_start + inst.gap_len],
                );
                assert_eq!(unseen_symbols(&l, before, after), Vec::<String>::new());
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
                // Without its model, or with a model that fails, the
                // instance is refused rather than scored.
                let mut bare = inst.clone();
                bare.countermodel = None;
                assert!(!score(&bare, &g).well_formed);
                let mut broken = inst.clone();
                broken.countermodel.as_mut().unwrap().functions.clear();
                assert!(!score(&broken, &g).well_formed);
            }
        }
        assert!(made >= 20, "only {made} decoys");
        assert!(kinds.len() >= 2, "constructions used: {kinds:?}");
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
            countermodel: None,
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

    #[test]
    fn each_verdict_arises_where_it_should() {
        use crate::tasks::Verdict;
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
            countermodel: None,
        };
        let verdict = |a: &str| {
            let s = score(&inst, a);
            assert!(s.consistent(), "{s:?}");
            (s.verdict, s.detail)
        };
        let step = |names: &str| {
            format!(
                r#"{{"explanation": "", "missingSteps": [{{"term": "g(f(a),b)", "supportingEquations": [{names}]}}], "confidence": 3}}"#
            )
        };
        assert_eq!(verdict(&step(r#""E1""#)).0, Verdict::Ok);
        assert_eq!(verdict(&step(r#""E2""#)).0, Verdict::Wrong);
        assert_eq!(verdict(&step("")).0, Verdict::Wrong);
        assert_eq!(verdict(r#"{"missingSteps": 3}"#).0, Verdict::Malformed);
        // The gap called unfillable when it can be filled: wrong.
        assert_eq!(verdict(r#"{"missingSteps": []}"#).0, Verdict::Wrong);
        // An equation the problem does not list, or more than the two
        // equations a line may cite: cheating.
        let (v, detail) = verdict(&step(r#""E1", "E9""#));
        assert_eq!(v, Verdict::Cheating, "{detail}");
        assert!(detail.contains("E9"), "{detail}");
        let (v, detail) = verdict(&step(r#""E1", "E2", "E1""#));
        assert_eq!(v, Verdict::Cheating, "{detail}");
        assert!(detail.contains("at most two"), "{detail}");
    }
}
