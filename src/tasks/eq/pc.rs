//! EQ-PC, proof checking (spec `pl_eq.md` §5.6): the model says whether every
//! step of a proof is correct; if so it explains every redex of every step,
//! otherwise it describes the first wrong step. Credit only if every detail
//! is right, verified semantically with the step checker: any valid
//! explanation of a step scores, not only the generator's.

use super::common::{
    LANGUAGE, as_index, as_names, as_position, as_str, field, parse_answer, render_equations,
    render_line, resolve, unlisted_equation,
};
use super::record::{Loaded, ProofData};
use crate::equational::lang::{World, dewey, disjoint};
use crate::equational::step::{check_step, find_cover, frontier, is_minimal};
use crate::logic::{Matcher, TermId};
use crate::tasks::Score;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a PC scorer needs: the proof as shown (equations, terms, citations).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PcInstance {
    /// The proof as shown to the model.
    pub proof: ProofData,
}

/// One redex of a gold explanation.
#[derive(Serialize)]
struct Rewrite {
    equation: String,
    position: Vec<u32>,
    redex: String,
    contractum: String,
}

#[derive(Serialize)]
struct StepExplanation {
    step: usize,
    rewrites: Vec<Rewrite>,
}

#[derive(Serialize)]
struct CorrectAnswer {
    correct: bool,
    explanation: Vec<StepExplanation>,
}

/// The gold answer for a correct proof: the checker's witnesses.
pub fn gold_correct(l: &Loaded) -> Result<String, String> {
    let w = &l.world;
    let mut explanation = Vec::new();
    for i in 1..l.terms.len() {
        let ws = check_step(w, &l.eqs, l.terms[i - 1], l.terms[i], &l.citations[i])
            .map_err(|e| format!("step {i}: {}", e.describe(&l.eqs)))?;
        explanation.push(StepExplanation {
            step: i,
            rewrites: ws
                .iter()
                .map(|x| Rewrite {
                    equation: l.eqs[x.eq].name.clone(),
                    position: dewey(&x.pos),
                    redex: w.show(x.redex),
                    contractum: w.show(x.contractum),
                })
                .collect(),
        });
    }
    Ok(serde_json::to_string(&CorrectAnswer {
        correct: true,
        explanation,
    })
    .expect("serialisable"))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContractumError {
    step: usize,
    equation: String,
    position: Vec<u32>,
    actual_contractum: String,
    expected_contractum: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CitationError {
    step: usize,
    given_equations: Vec<String>,
    correct_equations: Vec<String>,
}

#[derive(Serialize)]
struct IncorrectAnswer<T> {
    correct: bool,
    explanation: T,
}

/// The gold answer for a contractum error at `step`.
pub fn gold_contractum(
    step: usize,
    equation: &str,
    pos: &[u32],
    actual: &str,
    expected: &str,
) -> String {
    serde_json::to_string(&IncorrectAnswer {
        correct: false,
        explanation: ContractumError {
            step,
            equation: equation.to_string(),
            position: dewey(pos),
            actual_contractum: actual.to_string(),
            expected_contractum: expected.to_string(),
        },
    })
    .expect("serialisable")
}

/// The gold answer for a citation error at `step`.
pub fn gold_citation(step: usize, given: Vec<String>, correct: Vec<String>) -> String {
    serde_json::to_string(&IncorrectAnswer {
        correct: false,
        explanation: CitationError {
            step,
            given_equations: given,
            correct_equations: correct,
        },
    })
    .expect("serialisable")
}

/// The prompt.
pub fn prompt(d: &ProofData) -> String {
    let mut s = String::new();
    s.push_str("You are given a list of equations and an equational proof that uses them. Check the proof step by step.\n\n");
    s.push_str(LANGUAGE);
    s.push_str(
        "
What to answer
Reply with one JSON object and nothing else.
- If every step is correct: {\"correct\": true, \"explanation\": [...]}, where the list holds one entry per step, from step 1 to the last, of the form {\"step\": k, \"rewrites\": [{\"equation\": \"E2\", \"position\": [1,2], \"redex\": \"...\", \"contractum\": \"...\"}, ...]}. List every redex of the step: the cited equation used on it, its position in the term of the previous line, the redex itself and its contractum.
- Otherwise describe only the first wrong step k, in one of two forms:
  - {\"correct\": false, \"explanation\": {\"step\": k, \"equation\": \"E3\", \"position\": [2], \"actualContractum\": \"...\", \"expectedContractum\": \"...\"}} when a cited equation does apply at that position of the previous term but line k shows something other than its contractum there: actualContractum is what line k has at that position, expectedContractum is what the equation gives, and with expectedContractum put in its place the step would be correct;
  - {\"correct\": false, \"explanation\": {\"step\": k, \"givenEquations\": [...], \"correctEquations\": [...]}} when the cited equations cannot produce line k: givenEquations are the equations line k cites, and correctEquations is a set of equations that does produce line k in one step with none of them superfluous, or [] if there is no such set.

A small illustration (not part of your problem). With E1: f(X) = g(X,X) and E2: g1(X,Y) = g1(Y,X), the lines
s = h(f(a),g1(c,b),c) # step 0
h(g(a,a),g1(b,c),c) by E1, E2 # step 1
are explained by {\"step\": 1, \"rewrites\": [{\"equation\": \"E1\", \"position\": [1], \"redex\": \"f(a)\", \"contractum\": \"g(a,a)\"}, {\"equation\": \"E2\", \"position\": [2], \"redex\": \"g1(c,b)\", \"contractum\": \"g1(b,c)\"}]}. Had line 1 been h(g(a,b),g1(b,c),c) by E1, E2, the answer would be {\"correct\": false, \"explanation\": {\"step\": 1, \"equation\": \"E1\", \"position\": [1], \"actualContractum\": \"g(a,b)\", \"expectedContractum\": \"g(a,a)\"}}.

",
    );
    s.push_str(&render_equations(d));
    s.push_str("\n- Proof:\n");
    for i in 0..d.terms.len() {
        s.push_str(&render_line(d, i, true, true));
        s.push('\n');
    }
    s
}

/// The first step the checker rejects.
pub fn first_bad_step(l: &Loaded) -> Option<usize> {
    (1..l.terms.len()).find(|&i| {
        check_step(
            &l.world,
            &l.eqs,
            l.terms[i - 1],
            l.terms[i],
            &l.citations[i],
        )
        .is_err()
    })
}

enum Fail {
    Malformed(String),
    Wrong(String),
    Cheating(String),
}

fn malformed(s: String) -> Fail {
    Fail::Malformed(s)
}

/// Scores a PC answer: `malformed` when it does not read, `cheating` when
/// its explanation names an equation the problem does not list, `wrong`
/// for a wrong verdict or explanation, `ok` when both are right.
pub fn score(inst: &PcInstance, answer: &str) -> Score {
    let mut l = match inst.proof.load() {
        Ok(l) => l,
        Err(e) => return Score::malformed(format!("instance does not load: {e}")),
    };
    match score_inner(&mut l, answer) {
        Ok(()) => Score::correct(),
        Err(Fail::Malformed(m)) => Score::malformed(m),
        Err(Fail::Wrong(m)) => Score::wrong(m),
        Err(Fail::Cheating(m)) => Score::cheating(m),
    }
}

/// Scores a PC answer for a dataset row: [`score`] as the main value (the
/// strict metric: verdict and every detail right), with the sub-metrics
/// `lenient` (the verdict `correct` alone is right, ProofGrid's lenient
/// metric) and `strict` (the main value). A malformed or cheating answer
/// reports 0 on both.
pub fn score_row(inst: &PcInstance, answer: &str) -> Score {
    let s = score(inst, answer);
    let verdict = parse_answer(answer)
        .ok()
        .filter(|_| s.verdict != crate::tasks::Verdict::Cheating)
        .and_then(|m| m.get("correct").and_then(|c| c.as_bool()));
    let lenient = match (verdict, inst.proof.load()) {
        (Some(said), Ok(l)) => said == first_bad_step(&l).is_none(),
        _ => false,
    };
    let strict = s.value;
    s.with_metrics(vec![
        ("lenient", f64::from(u8::from(lenient))),
        ("strict", strict),
    ])
}

fn score_inner(l: &mut Loaded, answer: &str) -> Result<(), Fail> {
    let m = parse_answer(answer).map_err(malformed)?;
    let correct = field(&m, "correct")
        .map_err(malformed)?
        .as_bool()
        .ok_or_else(|| malformed("`correct` must be true or false".into()))?;
    let expl = field(&m, "explanation").map_err(malformed)?;
    if let Some(n) = unlisted_equation(l, expl) {
        return Err(Fail::Cheating(format!(
            "the explanation names {n}, which is not one of the equations"
        )));
    }
    let bad = first_bad_step(l);
    match (correct, bad) {
        (true, Some(k)) => Err(Fail::Wrong(format!(
            "the proof is not correct: step {k} fails"
        ))),
        (false, None) => Err(Fail::Wrong("the proof is correct".into())),
        (true, None) => check_explanations(l, expl),
        (false, Some(k)) => check_error(l, expl, k),
    }
}

fn check_explanations(l: &mut Loaded, expl: &Value) -> Result<(), Fail> {
    let arr = expl
        .as_array()
        .ok_or_else(|| malformed("`explanation` must be a list of steps".into()))?;
    let n = l.terms.len() - 1;
    let mut seen = vec![false; n + 1];
    let mut entries = Vec::new();
    for e in arr {
        let o = e
            .as_object()
            .ok_or_else(|| malformed("each explanation entry must be an object".into()))?;
        let step = as_index(field(o, "step").map_err(malformed)?, "step").map_err(malformed)?;
        let rw = field(o, "rewrites")
            .map_err(malformed)?
            .as_array()
            .ok_or_else(|| malformed("`rewrites` must be a list".into()))?;
        let mut rewrites = Vec::new();
        for r in rw {
            let r = r
                .as_object()
                .ok_or_else(|| malformed("each rewrite must be an object".into()))?;
            let eq =
                as_str(field(r, "equation").map_err(malformed)?, "equation").map_err(malformed)?;
            let pos = as_position(field(r, "position").map_err(malformed)?, "position")
                .map_err(malformed)?;
            let redex =
                as_str(field(r, "redex").map_err(malformed)?, "redex").map_err(malformed)?;
            let con = as_str(field(r, "contractum").map_err(malformed)?, "contractum")
                .map_err(malformed)?;
            rewrites.push((eq.to_string(), pos, redex.to_string(), con.to_string()));
        }
        if step == 0 || step > n {
            return Err(Fail::Wrong(format!("there is no step {step}")));
        }
        if std::mem::replace(&mut seen[step], true) {
            return Err(Fail::Wrong(format!("step {step} is explained twice")));
        }
        entries.push((step, rewrites));
    }
    if let Some(k) = (1..=n).find(|&k| !seen[k]) {
        return Err(Fail::Wrong(format!("step {k} is not explained")));
    }
    for (step, rewrites) in entries {
        verify_rewrites(l, step, &rewrites)
            .map_err(|e| Fail::Wrong(format!("step {step}: {e}")))?;
    }
    Ok(())
}

/// A claimed rewrite: (equation name, position, redex text, contractum text).
type Claim = (String, Vec<u32>, String, String);

/// True if the claimed rewrites are a valid witness of step `step`: the
/// cited equations each used once, each redex an instance of its left side
/// at the claimed position, each contractum the matching instance of the
/// right side and present in the next term, positions disjoint, and every
/// difference between the terms inside a claimed redex.
fn verify_rewrites(l: &mut Loaded, step: usize, rewrites: &[Claim]) -> Result<(), String> {
    let (s, t) = (l.terms[step - 1], l.terms[step]);
    let names: Vec<String> = rewrites.iter().map(|r| r.0.clone()).collect();
    let mut used = resolve(l, &names)?;
    used.sort();
    let mut cited = l.citations[step].clone();
    cited.sort();
    if used != cited {
        return Err("the rewrites do not use each cited equation exactly once".into());
    }
    let mut positions: Vec<Vec<u32>> = Vec::new();
    for (name, pos, redex, con) in rewrites {
        let e = l.eq_index(name).expect("resolved");
        let shown = format!(
            "[{}]",
            crate::equational::lang::dewey(pos)
                .iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        let at_s = l
            .world
            .subterm(s, pos)
            .ok_or_else(|| format!("position {shown} does not exist in the previous term"))?;
        let r = parse_ground(&mut l.world, redex, "redex")?;
        if r != at_s {
            return Err(format!("the subterm at {shown} is not {redex}"));
        }
        let at_t = l
            .world
            .subterm(t, pos)
            .ok_or_else(|| format!("position {shown} does not exist in the next term"))?;
        let c = parse_ground(&mut l.world, con, "contractum")?;
        if c != at_t {
            return Err(format!("the next term does not have {con} at {shown}"));
        }
        let mut m = Matcher::new();
        if !m.matches(&l.world.bank, l.eqs[e].lhs, r) || !m.matches(&l.world.bank, l.eqs[e].rhs, c)
        {
            return Err(format!(
                "{con} is not what {name} gives for the redex {redex}"
            ));
        }
        if positions.iter().any(|q| !disjoint(q, pos)) {
            return Err("two redexes overlap".into());
        }
        positions.push(pos.clone());
    }
    for f in frontier(&l.world, s, t) {
        if !positions.iter().any(|p| f.starts_with(p)) {
            return Err("the rewrites do not account for every change".into());
        }
    }
    Ok(())
}

fn parse_ground(w: &mut World, text: &str, what: &str) -> Result<TermId, String> {
    w.parse_term(text, false)
        .map_err(|e| format!("{what} `{text}` is not a term: {e}"))
}

fn check_error(l: &mut Loaded, expl: &Value, k: usize) -> Result<(), Fail> {
    let o = expl
        .as_object()
        .ok_or_else(|| malformed("`explanation` of an incorrect proof must be an object".into()))?;
    let step = as_index(field(o, "step").map_err(malformed)?, "step").map_err(malformed)?;
    let wrong = |s: String| Fail::Wrong(format!("step {k}: {s}"));
    if o.contains_key("givenEquations") {
        let given = as_names(
            field(o, "givenEquations").map_err(malformed)?,
            "givenEquations",
        )
        .map_err(malformed)?;
        let correct = as_names(
            field(o, "correctEquations").map_err(malformed)?,
            "correctEquations",
        )
        .map_err(malformed)?;
        if step != k {
            return Err(Fail::Wrong(format!(
                "the first wrong step is {k}, not {step}"
            )));
        }
        let mut g = resolve(l, &given).map_err(wrong)?;
        g.sort();
        g.dedup();
        let mut cited = l.citations[k].clone();
        cited.sort();
        cited.dedup();
        if g != cited {
            return Err(wrong(
                "givenEquations are not the equations the step cites".into(),
            ));
        }
        let c = resolve(l, &correct).map_err(wrong)?;
        let (s, t) = (l.terms[k - 1], l.terms[k]);
        if c.is_empty() {
            let all = l.all_eqs();
            if let Some(ws) = find_cover(&l.world, &l.eqs, s, t, &all, all.len()) {
                let names: Vec<&str> = ws.iter().map(|x| l.eqs[x.eq].name.as_str()).collect();
                return Err(wrong(format!(
                    "the step can be produced, for example by {}",
                    names.join(", ")
                )));
            }
        } else {
            check_step(&l.world, &l.eqs, s, t, &c)
                .map_err(|e| wrong(format!("correctEquations: {}", e.describe(&l.eqs))))?;
            if !is_minimal(&l.world, &l.eqs, s, t, &c) {
                return Err(wrong("correctEquations has a superfluous equation".into()));
            }
        }
        Ok(())
    } else if o.contains_key("actualContractum") || o.contains_key("expectedContractum") {
        let name =
            as_str(field(o, "equation").map_err(malformed)?, "equation").map_err(malformed)?;
        let pos =
            as_position(field(o, "position").map_err(malformed)?, "position").map_err(malformed)?;
        let actual = as_str(
            field(o, "actualContractum").map_err(malformed)?,
            "actualContractum",
        )
        .map_err(malformed)?;
        let expected = as_str(
            field(o, "expectedContractum").map_err(malformed)?,
            "expectedContractum",
        )
        .map_err(malformed)?;
        if step != k {
            return Err(Fail::Wrong(format!(
                "the first wrong step is {k}, not {step}"
            )));
        }
        let e = l
            .eq_index(name)
            .ok_or_else(|| wrong(format!("unknown equation `{name}`")))?;
        if !l.citations[k].contains(&e) {
            return Err(wrong(format!("{name} is not cited by the step")));
        }
        let (s, t) = (l.terms[k - 1], l.terms[k]);
        let redex = l
            .world
            .subterm(s, &pos)
            .ok_or_else(|| wrong("the position does not exist in the previous term".into()))?;
        let at_t = l
            .world
            .subterm(t, &pos)
            .ok_or_else(|| wrong("the position does not exist in the step's term".into()))?;
        let a = parse_ground(&mut l.world, actual, "actualContractum").map_err(wrong)?;
        let x = parse_ground(&mut l.world, expected, "expectedContractum").map_err(wrong)?;
        if a != at_t {
            return Err(wrong(
                "actualContractum is not what the step's term has there".into(),
            ));
        }
        if a == x {
            return Err(wrong(
                "actualContractum and expectedContractum are the same".into(),
            ));
        }
        let mut m = Matcher::new();
        if !m.matches(&l.world.bank, l.eqs[e].lhs, redex)
            || !m.matches(&l.world.bank, l.eqs[e].rhs, x)
        {
            return Err(wrong(format!(
                "expectedContractum is not what {name} gives at that position"
            )));
        }
        let repaired = l.world.bank.replace_at(t, &pos, x);
        let cited = l.citations[k].clone();
        if check_step(&l.world, &l.eqs, s, repaired, &cited).is_err() {
            return Err(wrong(
                "putting expectedContractum in place does not make the step correct".into(),
            ));
        }
        Ok(())
    } else {
        Err(malformed(
            "the explanation of an incorrect proof needs givenEquations/correctEquations or actualContractum/expectedContractum".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::eq::paper_example::appendix_c;

    #[test]
    fn paper_example_is_incorrect_at_step_9() {
        let d = appendix_c();
        let l = d.load().unwrap();
        assert_eq!(first_bad_step(&l), Some(9));
        let inst = PcInstance { proof: d };
        let gold = gold_contractum(9, "E13", &[0, 0], "f1(f4(b))", "f1(f4(d))");
        assert_eq!(score(&inst, &gold), Score::correct());
        // The wrong expected contractum, a wrong step, a wrong verdict.
        let bad = gold_contractum(9, "E13", &[0, 0], "f1(f4(b))", "f1(f4(e))");
        assert_eq!(score(&inst, &bad).value, 0.0);
        let bad = gold_contractum(8, "E5", &[0], "x", "y");
        assert_eq!(score(&inst, &bad).value, 0.0);
        // The right verdict with a wrong step: lenient 1, strict 0.
        let row = score_row(&inst, &bad);
        assert_eq!(
            (row.value, row.metric("lenient"), row.metric("strict")),
            (0.0, Some(1.0), Some(0.0))
        );
        let row = score_row(&inst, &gold);
        assert_eq!(
            (row.value, row.metric("lenient"), row.metric("strict")),
            (1.0, Some(1.0), Some(1.0))
        );
        let row = score_row(&inst, "{\"correct\": true, \"explanation\": []}");
        assert_eq!(
            (row.metric("lenient"), row.metric("strict")),
            (Some(0.0), Some(0.0))
        );
        assert_eq!(score_row(&inst, "correct: no").metric("lenient"), Some(0.0));
        assert_eq!(
            score(&inst, "{\"correct\": true, \"explanation\": []}").value,
            0.0
        );
        // A citation-form diagnosis is also true here: nothing licenses step 9.
        let alt = gold_citation(9, vec!["E13".into()], vec![]);
        assert_eq!(score(&inst, &alt), Score::correct());
        // Malformed answers get a reason.
        let s = score(&inst, "correct: no");
        assert!(!s.well_formed && s.value == 0.0 && !s.detail.is_empty());
        let s = score(
            &inst,
            "{\"correct\": false, \"explanation\": {\"step\": 9}}",
        );
        assert!(!s.well_formed);
    }

    #[test]
    fn each_verdict_arises_where_it_should() {
        use crate::tasks::Verdict;
        let inst = PcInstance {
            proof: appendix_c(),
        };
        let verdict = |a: &str| {
            let s = score_row(&inst, a);
            assert!(s.consistent(), "{s:?}");
            s.verdict
        };
        let gold = gold_contractum(9, "E13", &[0, 0], "f1(f4(b))", "f1(f4(d))");
        assert_eq!(verdict(&gold), Verdict::Ok);
        let bad = gold_contractum(9, "E13", &[0, 0], "f1(f4(b))", "f1(f4(e))");
        assert_eq!(verdict(&bad), Verdict::Wrong);
        assert_eq!(verdict("correct: no"), Verdict::Malformed);
        // Naming an equation the problem does not list: cheating, and no
        // lenient credit for the verdict beside it.
        let unlisted = gold_contractum(9, "E999", &[0, 0], "f1(f4(b))", "f1(f4(d))");
        let s = score_row(&inst, &unlisted);
        assert_eq!(s.verdict, Verdict::Cheating, "{}", s.detail);
        assert!(s.detail.contains("E999"), "{}", s.detail);
        assert_eq!(
            (s.metric("lenient"), s.metric("strict")),
            (Some(0.0), Some(0.0))
        );
        let unlisted = gold_citation(9, vec!["E13".into()], vec!["E42".into()]);
        assert_eq!(verdict(&unlisted), Verdict::Cheating);
    }

    #[test]
    fn repaired_paper_example_explanations() {
        let mut d = appendix_c();
        d.terms[9] = "g(g3(f1(f4(d)),d),f2(f5(g1(e,b))))".into();
        let l = d.load().unwrap();
        assert_eq!(first_bad_step(&l), None);
        let inst = PcInstance { proof: d };
        let gold = gold_correct(&l).unwrap();
        assert_eq!(score(&inst, &gold), Score::correct());
        // Drop one step's explanation: wrong.
        let mut v: Value = serde_json::from_str(&gold).unwrap();
        v["explanation"].as_array_mut().unwrap().pop();
        assert_eq!(score(&inst, &v.to_string()).value, 0.0);
        // A wrong position: wrong.
        let mut v: Value = serde_json::from_str(&gold).unwrap();
        v["explanation"][0]["rewrites"][0]["position"] = serde_json::json!([1]);
        assert_eq!(score(&inst, &v.to_string()).value, 0.0);
        // Claiming an error in a correct proof: wrong.
        let g = gold_citation(3, vec!["E4".into()], vec![]);
        assert_eq!(score(&inst, &g).value, 0.0);
    }

    #[test]
    fn alternative_witnesses_score() {
        // E2 is an identity rewrite that can sit on g1(b,b) or on g1(c,c):
        // both explanations are valid and both score.
        let d = ProofData {
            equations: vec![
                ["E1".into(), "f(X) = f1(X)".into()],
                ["E2".into(), "g1(X,Y) = g1(Y,X)".into()],
            ],
            terms: vec![
                "h(f(a),g1(b,b),g1(c,c))".into(),
                "h(f1(a),g1(b,b),g1(c,c))".into(),
            ],
            citations: vec![vec![], vec!["E1".into(), "E2".into()]],
        };
        let inst = PcInstance { proof: d };
        let answer = |p: u32, r: &str| {
            format!(
                r#"{{"correct": true, "explanation": [{{"step": 1, "rewrites": [{{"equation": "E1", "position": [1], "redex": "f(a)", "contractum": "f1(a)"}}, {{"equation": "E2", "position": [{p}], "redex": "{r}", "contractum": "{r}"}}]}}]}}"#
            )
        };
        assert_eq!(score(&inst, &answer(2, "g1(b,b)")), Score::correct());
        assert_eq!(score(&inst, &answer(3, "g1(c,c)")), Score::correct());
        assert_eq!(score(&inst, &answer(3, "g1(b,b)")).value, 0.0);
        // Omitting the E2 redex leaves a cited equation unused: wrong.
        let short = r#"{"correct": true, "explanation": [{"step": 1, "rewrites": [{"equation": "E1", "position": [1], "redex": "f(a)", "contractum": "f1(a)"}]}]}"#;
        assert_eq!(score(&inst, short).value, 0.0);
    }
}
