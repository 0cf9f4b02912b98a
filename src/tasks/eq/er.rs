//! EQ-ER, elided-equation recovery (spec `pl_eq.md` §5.6): the `by` lists are
//! removed and the model names, for every step, a set of equations that
//! licenses it (minimal), or `[]` when none does. A step is right iff the
//! checker confirms the set and its minimality, or, for `[]`, the exact cover
//! search finds no licensing set. ER-G = every step right; ER-L = the share of
//! steps right.

use super::common::{
    LANGUAGE, as_index, as_names, field, parse_answer, render_equations, render_line, resolve,
    unlisted_equation,
};
use super::record::{Loaded, ProofData};
use crate::equational::lang::dewey;
use crate::equational::step::{check_step, find_cover, is_minimal};
use crate::tasks::Score;
use serde::{Deserialize, Serialize};

/// What an ER scorer needs: the equations and terms (the citations in
/// `proof` are the generator's, which the prompt hides).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErInstance {
    /// The proof; `citations` are not shown to the model.
    pub proof: ProofData,
}

/// An ER score: the proof-level credit (ER-G) plus the step counts (ER-L).
#[derive(Clone, Debug, PartialEq)]
pub struct ErScore {
    /// ER-G credit: 1 iff every step is right.
    pub score: Score,
    /// Steps answered right.
    pub steps_right: usize,
    /// Steps in the proof.
    pub steps: usize,
}

impl ErScore {
    /// The ER-L share of steps right.
    pub fn local(&self) -> f64 {
        if self.steps == 0 {
            0.0
        } else {
            self.steps_right as f64 / self.steps as f64
        }
    }

    /// The row's score: the ER-G credit as the main value (full accuracy:
    /// every elided equation set right), with the sub-metrics `full` (the
    /// same) and `per_step` (ER-L, the share of steps right; 0 for a
    /// malformed answer).
    pub fn into_score(self) -> Score {
        let metrics = vec![("full", self.score.value), ("per_step", self.local())];
        self.score.with_metrics(metrics)
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Justification {
    step: usize,
    supporting_equations: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    explanation: String,
    step_justifications: Vec<Justification>,
}

/// The gold answer: the generator's citation where it still licenses the
/// step, otherwise a set found by the exact cover search, or `[]`.
pub fn gold(l: &Loaded) -> String {
    let w = &l.world;
    let all = l.all_eqs();
    let mut just = Vec::new();
    let mut notes = Vec::new();
    for i in 1..l.terms.len() {
        let (s, t) = (l.terms[i - 1], l.terms[i]);
        let ws = match check_step(w, &l.eqs, s, t, &l.citations[i]) {
            Ok(ws) if is_minimal(w, &l.eqs, s, t, &l.citations[i]) => Some(ws),
            _ => find_cover(w, &l.eqs, s, t, &all, all.len()),
        };
        match ws {
            Some(ws) => {
                let parts: Vec<String> = ws
                    .iter()
                    .map(|x| format!("{} at {:?}", l.eqs[x.eq].name, dewey(&x.pos)))
                    .collect();
                notes.push(format!("step {i}: {}", parts.join(", ")));
                just.push(Justification {
                    step: i,
                    supporting_equations: ws.iter().map(|x| l.eqs[x.eq].name.clone()).collect(),
                });
            }
            None => {
                notes.push(format!("step {i}: no set of equations yields this term"));
                just.push(Justification {
                    step: i,
                    supporting_equations: Vec::new(),
                });
            }
        }
    }
    serde_json::to_string(&Answer {
        explanation: notes.join("; "),
        step_justifications: just,
    })
    .expect("serialisable")
}

/// The prompt.
pub fn prompt(d: &ProofData) -> String {
    let mut s = String::new();
    s.push_str("You are given a list of equations and an equational proof whose justifications have been removed: each line shows only the new term. Recover, for every step, the equations that justify it.\n\n");
    s.push_str(LANGUAGE);
    s.push_str(
        "
What to answer
Reply with one JSON object and nothing else: {\"explanation\": \"...\", \"stepJustifications\": [{\"step\": 1, \"supportingEquations\": [\"E4\"]}, {\"step\": 2, \"supportingEquations\": [\"E1\", \"E7\"]}, ...]}.
- The explanation is free text (for example the redex and position of each rewrite).
- Give exactly one entry per step, from step 1 to the last. supportingEquations must be a set of equations with which the line follows from the line before in one step as described above, with none of them superfluous (each one rewrites its own redex, so every equation you list must actually be used).
- If no set of equations produces a line from the line before, give [] for that step.

A small illustration (not part of your problem). With E1: f(X) = g(X,X), E2: g1(X,Y) = g1(Y,X) and E3: f(a) = c, the lines
s = h(f(a),g1(c,b),c) # step 0
h(g(a,a),g1(b,c),c) # step 1
h(g(a,a),g1(b,c),a) # step 2
are answered with {\"explanation\": \"step 1: E1 at [1], E2 at [2]; step 2: no equation turns c into a\", \"stepJustifications\": [{\"step\": 1, \"supportingEquations\": [\"E1\", \"E2\"]}, {\"step\": 2, \"supportingEquations\": []}]}.

",
    );
    s.push_str(&render_equations(d));
    s.push_str("\n- Proof:\n");
    for i in 0..d.terms.len() {
        s.push_str(&render_line(d, i, false, true));
        s.push('\n');
    }
    s
}

/// Scores an ER answer: `score.value` is the ER-G credit, `local()` ER-L
/// ([`ErScore::into_score`] makes both a row's score). Verdicts:
/// `malformed` when the answer does not read, `cheating` (no step right)
/// when a justification names an equation the problem does not list,
/// `wrong` when a step's set is wrong, `ok` when every step's is right.
pub fn score(inst: &ErInstance, answer: &str) -> ErScore {
    let l = match inst.proof.load() {
        Ok(l) => l,
        Err(e) => {
            return ErScore {
                score: Score::malformed(format!("instance does not load: {e}")),
                steps_right: 0,
                steps: 0,
            };
        }
    };
    let n = l.terms.len() - 1;
    let malformed = |m: String| ErScore {
        score: Score::malformed(m),
        steps_right: 0,
        steps: n,
    };
    let m = match parse_answer(answer) {
        Ok(m) => m,
        Err(e) => return malformed(e),
    };
    let arr = match field(&m, "stepJustifications").map(|v| v.as_array()) {
        Ok(Some(a)) => a,
        Ok(None) => return malformed("`stepJustifications` must be a list".into()),
        Err(e) => return malformed(e),
    };
    let mut given: Vec<Option<Vec<String>>> = vec![None; n + 1];
    for e in arr {
        let Some(o) = e.as_object() else {
            return malformed("each step justification must be an object".into());
        };
        let step = match field(o, "step").and_then(|v| as_index(v, "step")) {
            Ok(s) => s,
            Err(e) => return malformed(e),
        };
        let names = match field(o, "supportingEquations")
            .and_then(|v| as_names(v, "supportingEquations"))
        {
            Ok(x) => x,
            Err(e) => return malformed(e),
        };
        if step == 0 || step > n {
            return malformed(format!("there is no step {step}"));
        }
        if given[step].is_some() {
            return malformed(format!("step {step} is justified twice"));
        }
        given[step] = Some(names);
    }
    if let Some(name) = arr.iter().find_map(|e| unlisted_equation(&l, e)) {
        return ErScore {
            score: Score::cheating(format!(
                "a justification names {name}, which is not one of the equations"
            )),
            steps_right: 0,
            steps: n,
        };
    }
    let mut right = 0;
    let mut first_wrong = None;
    for (i, g) in given.iter().enumerate().skip(1) {
        let verdict = match g {
            None => Err("missing".to_string()),
            Some(names) => step_right(&l, i, names),
        };
        match verdict {
            Ok(()) => right += 1,
            Err(e) => {
                first_wrong.get_or_insert(format!("step {i}: {e}"));
            }
        }
    }
    let score = match first_wrong {
        None => Score::correct(),
        Some(e) => Score::wrong(format!("{right}/{n} steps right; first wrong: {e}")),
    };
    ErScore {
        score,
        steps_right: right,
        steps: n,
    }
}

fn step_right(l: &Loaded, i: usize, names: &[String]) -> Result<(), String> {
    let (s, t) = (l.terms[i - 1], l.terms[i]);
    let w = &l.world;
    if names.is_empty() {
        let all = l.all_eqs();
        return match find_cover(w, &l.eqs, s, t, &all, all.len()) {
            None => Ok(()),
            Some(ws) => {
                let n: Vec<&str> = ws.iter().map(|x| l.eqs[x.eq].name.as_str()).collect();
                Err(format!("the step follows, for example by {}", n.join(", ")))
            }
        };
    }
    let cited = resolve(l, names)?;
    check_step(w, &l.eqs, s, t, &cited).map_err(|e| e.describe(&l.eqs))?;
    if !is_minimal(w, &l.eqs, s, t, &cited) {
        return Err("a listed equation is superfluous".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::eq::paper_example::appendix_c;

    #[test]
    fn paper_example_gold_and_variants() {
        let d = appendix_c();
        let l = d.load().unwrap();
        let inst = ErInstance { proof: d };
        let g = gold(&l);
        // Step 9 (the corrupted one) has no licensing set: gold gives [].
        assert!(g.contains("{\"step\":9,\"supportingEquations\":[]}"), "{g}");
        let s = score(&inst, &g);
        assert_eq!(s.score, Score::correct());
        assert_eq!((s.steps_right, s.steps), (9, 9));
        // One step wrong: ER-G 0, ER-L 8/9.
        let bad = g.replace(
            "\"step\":4,\"supportingEquations\":[\"E12\"]",
            "\"step\":4,\"supportingEquations\":[\"E2\"]",
        );
        let s = score(&inst, &bad);
        assert_eq!(s.score.value, 0.0);
        assert!(s.score.well_formed);
        assert_eq!(s.steps_right, 8);
        let row = s.into_score();
        assert_eq!(row.value, 0.0);
        assert_eq!(row.metric("full"), Some(0.0));
        assert!((row.metric("per_step").unwrap() - 8.0 / 9.0).abs() < 1e-12);
        let row = score(&inst, &g).into_score();
        assert_eq!(
            (row.value, row.metric("full"), row.metric("per_step")),
            (1.0, Some(1.0), Some(1.0))
        );
        // A superfluous equation is wrong even though every redex is there.
        let sup = g.replace("[\"E12\"]", "[\"E12\",\"E1\"]");
        assert_eq!(score(&inst, &sup).steps_right, 8);
        // Malformed.
        let s = score(&inst, "{\"stepJustifications\": 3}");
        assert!(!s.score.well_formed);
        let row = s.into_score();
        assert_eq!(
            (row.metric("full"), row.metric("per_step")),
            (Some(0.0), Some(0.0))
        );
        let s = score(
            &inst,
            "{\"stepJustifications\": [{\"step\": 12, \"supportingEquations\": []}]}",
        );
        assert!(!s.score.well_formed);
    }

    #[test]
    fn each_verdict_arises_where_it_should() {
        use crate::tasks::Verdict;
        let d = appendix_c();
        let l = d.load().unwrap();
        let inst = ErInstance { proof: d };
        let g = gold(&l);
        let verdict = |a: &str| {
            let s = score(&inst, a).into_score();
            assert!(s.consistent(), "{s:?}");
            s.verdict
        };
        assert_eq!(verdict(&g), Verdict::Ok);
        let wrong = g.replace("[\"E12\"]", "[\"E2\"]");
        assert_eq!(verdict(&wrong), Verdict::Wrong);
        assert_eq!(verdict("{\"stepJustifications\": 3}"), Verdict::Malformed);
        // A justification naming an equation the problem does not list:
        // cheating, with no step credited.
        let unlisted = g.replace("[\"E12\"]", "[\"E12\",\"E77\"]");
        let s = score(&inst, &unlisted);
        assert_eq!(s.score.verdict, Verdict::Cheating, "{}", s.score.detail);
        assert!(s.score.detail.contains("E77"), "{}", s.score.detail);
        assert_eq!(s.into_score().metric("per_step"), Some(0.0));
    }

    #[test]
    fn alternative_sets_score() {
        let d = ProofData {
            equations: vec![
                ["E1".into(), "f(X) = f1(X)".into()],
                ["E2".into(), "f(a) = f1(a)".into()],
            ],
            terms: vec!["g(f(a),b)".into(), "g(f1(a),b)".into()],
            citations: vec![vec![], vec!["E1".into()]],
        };
        let inst = ErInstance { proof: d };
        for e in ["E1", "E2"] {
            let a = format!(
                "{{\"explanation\": \"\", \"stepJustifications\": [{{\"step\": 1, \"supportingEquations\": [\"{e}\"]}}]}}"
            );
            assert_eq!(score(&inst, &a).score, Score::correct());
        }
        let a = "{\"explanation\": \"\", \"stepJustifications\": [{\"step\": 1, \"supportingEquations\": []}]}";
        assert_eq!(score(&inst, a).score.value, 0.0);
    }
}
