//! PL scorers (PL/EQ spec §3.3-§3.6, §4): scoring a model answer against a
//! record, and verifying a stored row's gold answer with the checker of the
//! record's proof language (NDL for PL1, NDL_f for PL2's proof checking and
//! the proofs of its proof writing).

use super::masking::{fill_masks, parse_gap_answer, splice_gaps};
use super::tasks::Task;
use super::verdict::{json_object, verdict_json};
use crate::prop::ProofSystem;
use crate::prop::check::{ErrorKind, Mode, Report, named_premises};
use crate::prop::formula::Formula;
use crate::tasks::{Score, StepVerdict, Verdict};
use serde_json::Value;

/// What a scorer needs besides the answer (all of it is in the record).
pub struct ScoreInput<'a> {
    /// The task.
    pub task: Task,
    /// The proof language the proofs are written and checked in.
    pub system: &'a ProofSystem,
    /// The premises shown.
    pub premises: &'a [Formula],
    /// The goal shown.
    pub goal: &'a Formula,
    /// The shown proof text (checking, masking, gaps).
    pub shown: &'a str,
    /// The gold answer.
    pub gold: &'a str,
}

/// Scores a model answer. Checking: ProofGrid's strict metric is the
/// main value and its lenient metric a sub-metric (see
/// [`score_checking`]). Writing: the proof must pass the lenient checker;
/// `assert` lines in it are refused (see [`assert_lines`]).
/// Masking: the values must make the proof pass the lenient checker; `{}`
/// is right iff the gold is `{}`. Gaps: every gap filled and the whole
/// proof passes leniently.
pub fn score(input: &ScoreInput<'_>, answer: &str) -> Score {
    let named = named_premises(input.premises);
    match input.task {
        Task::ProofChecking => score_checking(input.gold, answer),
        Task::ProofWriting => {
            let Some(v) = json_object(answer) else {
                return Score::malformed("answer is not a JSON object");
            };
            let Some(proof) = v.get("proof").and_then(|p| p.as_str()) else {
                return Score::malformed("missing string field \"proof\"");
            };
            if let Some(s) = assert_lines(input, proof) {
                return s;
            }
            let report = input
                .system
                .check_text(&named, input.goal, proof, Mode::Lenient);
            let steps = line_steps(&report, proof);
            verdict(report).with_steps(steps)
        }
        Task::ProofMasking => {
            let Some(v) = json_object(answer) else {
                return Score::malformed("answer is not a JSON object");
            };
            let Some(masks) = v.get("masks").and_then(|m| m.as_object()) else {
                return Score::malformed("missing object field \"masks\"");
            };
            let gold = json_object(input.gold).expect("gold is JSON");
            let gold_empty = gold["masks"].as_object().is_some_and(|m| m.is_empty());
            if masks.is_empty() {
                return if gold_empty {
                    Score::correct()
                } else {
                    Score::wrong("claimed unsolvable, but the masks can be filled")
                };
            }
            if let Some((k, _)) = masks
                .iter()
                .find(|(_, v)| v.as_str().is_none_or(|s| s.contains("MASK")))
            {
                return Score::malformed(format!("{k}: value must be a string and not a mask"));
            }
            match fill_masks(input.shown, masks) {
                Err(e) => Score::wrong(e),
                Ok(text) => verdict(input.system.check_text(
                    &named,
                    input.goal,
                    &text,
                    Mode::Lenient,
                )),
            }
        }
        Task::GapFilling => {
            let fillers = match parse_gap_answer(answer) {
                Ok(f) => f,
                Err(e) => return Score::malformed(e),
            };
            match splice_gaps(input.shown, &fillers) {
                Err(e) => Score::wrong(e),
                Ok(text) => verdict(input.system.check_text(
                    &named,
                    input.goal,
                    &text,
                    Mode::Lenient,
                )),
            }
        }
    }
}

/// Scores a proof-checking answer against the gold verdict JSON with
/// ProofGrid's two metrics (seed 000 reports the lenient one; the spec's
/// §3.3 leaves the error details to score separately):
///
/// - `lenient`: 1 iff the verdict (`correct`) is right;
/// - `strict`: 1 iff the verdict is right and, for an incorrect proof, the
///   offending line number and the error type are both the gold ones.
///
/// The main value is `strict`, so answering "incorrect" to everything, or
/// naming a wrong line or kind, no longer earns full credit. On an
/// incorrect proof the sub-metrics `error_line` and `error_kind` say which
/// detail was right (0 when the verdict is wrong). The gold error details
/// are the strict checker's first error, which always states both the line
/// and the type (PL1 and PL2 alike; a corruption operator that predicts the
/// kind only does not change what the checker reports). A line number
/// given as a string of digits and a type in any case are accepted.
pub fn score_checking(gold: &str, answer: &str) -> Score {
    let gold = json_object(gold).expect("gold is JSON");
    let truth = gold["correct"].as_bool().expect("gold verdict");
    let metrics = |lenient: bool, line: bool, kind: bool| {
        let one = |b: bool| f64::from(u8::from(b));
        let mut m = vec![
            ("lenient", one(lenient)),
            ("strict", one(lenient && (truth || (line && kind)))),
        ];
        if !truth {
            m.push(("error_line", one(lenient && line)));
            m.push(("error_kind", one(lenient && kind)));
        }
        m
    };
    let Some(v) = json_object(answer) else {
        return Score::malformed("answer is not a JSON object")
            .with_metrics(metrics(false, false, false));
    };
    let Some(said) = v.get("correct").and_then(|c| c.as_bool()) else {
        return Score::malformed("missing boolean field \"correct\"")
            .with_metrics(metrics(false, false, false));
    };
    if said != truth {
        return Score::wrong(format!("verdict {said}, expected {truth}"))
            .with_metrics(metrics(false, false, false));
    }
    if truth {
        return Score::correct().with_metrics(metrics(true, true, true));
    }
    let want = &gold["errorDetails"];
    let got = v.get("errorDetails").cloned().unwrap_or(Value::Null);
    let line = line_number(got.get("offendingLineNumber"))
        .is_some_and(|l| Some(l) == want["offendingLineNumber"].as_u64());
    let kind = got
        .get("errorType")
        .and_then(|k| k.as_str())
        .is_some_and(|k| {
            Some(k.trim().to_ascii_lowercase().as_str()) == want["errorType"].as_str()
        });
    let right = |b: bool| if b { "right" } else { "wrong" };
    let detail = format!(
        "correct verdict; error line {}, error type {}",
        right(line),
        right(kind)
    );
    let s = if line && kind {
        Score {
            detail,
            ..Score::correct()
        }
    } else {
        Score::wrong(detail)
    };
    s.with_metrics(metrics(true, line, kind))
}

/// The verdict on `assert` lines in a written proof, `None` without any.
/// The prompt shows the premises as `assert` lines and asks not to repeat
/// them; the checker takes the premises from the problem, never from the
/// proof. A proof that asserts a formula that is not one of the premises
/// (the goal, a lemma) would assume what it must prove: `cheating`. One
/// that only repeats premises gains nothing and is `wrong`, as is an
/// `assert` line whose formula does not parse.
pub fn assert_lines(input: &ScoreInput<'_>, proof: &str) -> Option<Score> {
    let asserted: Vec<&str> = proof
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("assert "))
        .collect();
    if asserted.is_empty() {
        return None;
    }
    for a in asserted {
        let text = a.split_once(":=").map_or(a, |(_, f)| f).trim();
        let text = text.strip_suffix(';').unwrap_or(text).trim();
        if let Ok(f) = Formula::parse(text)
            && !input.premises.contains(&f)
        {
            return Some(Score::cheating(format!(
                "the proof asserts {text}, which is not a premise"
            )));
        }
    }
    Some(Score::wrong("the proof repeats assert lines"))
}

/// A line number given as a JSON number or a string of digits.
fn line_number(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Re-checks a record's gold answer from the shown text alone, without
/// the generator's certificate: checking re-runs the strict checker on the
/// shown proof (and, for an incorrect one, requires the lenient checker to
/// reject it too); writing, masking and gaps require the gold proof, filled
/// masks or spliced gaps to pass the strict checker. An unsolvable masking
/// instance needs a type error on a line that carries no mask: such an
/// error depends only on that line's visible text, so no assignment of the
/// masks repairs it. `Ok` says what was checked.
pub fn verify(input: &ScoreInput<'_>, metadata: &Value) -> Result<String, String> {
    let named = named_premises(input.premises);
    let gold = json_object(input.gold);
    let strict =
        |text: &str, what: &str| strict_steps(input.system, &named, input.goal, text, what);
    match input.task {
        Task::ProofChecking => {
            let gold = gold.ok_or("gold answer is not a JSON object")?;
            let r = input
                .system
                .check_text(&named, input.goal, input.shown, Mode::Strict);
            let want = verdict_json(&r, input.shown);
            if gold != want {
                return Err(format!(
                    "gold verdict {gold} but the strict checker says {want}"
                ));
            }
            if r.ok() {
                return Ok(format!("shown proof correct ({} steps)", r.steps));
            }
            if input
                .system
                .check_text(&named, input.goal, input.shown, Mode::Lenient)
                .ok()
            {
                return Err("labelled incorrect, but the lenient checker accepts it".into());
            }
            Ok(format!(
                "shown proof incorrect: {} error at line {}",
                want["errorDetails"]["errorType"], want["errorDetails"]["offendingLineNumber"]
            ))
        }
        Task::ProofWriting => {
            let gold = gold.ok_or("gold answer is not a JSON object")?;
            let proof = gold["proof"].as_str().ok_or("gold answer has no proof")?;
            let steps = strict(proof, "gold proof")?;
            Ok(format!("gold proof strictly correct ({steps} steps)"))
        }
        Task::ProofMasking => {
            let gold = gold.ok_or("gold answer is not a JSON object")?;
            let masks = gold["masks"]
                .as_object()
                .ok_or("gold answer has no masks")?;
            if !masks.is_empty() {
                let text = fill_masks(input.shown, masks)?;
                let steps = strict(&text, "proof with the gold masks")?;
                return Ok(format!(
                    "{} gold masks give a strictly correct proof ({steps} steps)",
                    masks.len()
                ));
            }
            let original = metadata["original_values"]
                .as_object()
                .ok_or("metadata has no original_values")?;
            let text = fill_masks(input.shown, original)?;
            let r = input
                .system
                .check_text(&named, input.goal, &text, Mode::Lenient);
            let e = match r.result {
                Ok(_) => {
                    return Err("labelled unsolvable, but the original values check".into());
                }
                Err(e) => e,
            };
            let line = input
                .shown
                .lines()
                .nth(e.line.wrapping_sub(1))
                .unwrap_or("");
            if e.kind.name() != "type" || e.line == 0 || line.contains("MASK") {
                return Err(format!(
                    "labelled unsolvable, but the original error ({} at line {}) is not a \
                     type error on a line without masks",
                    e.kind.name(),
                    e.line
                ));
            }
            Ok(format!(
                "unsolvable: type error on unmasked line {}",
                e.line
            ))
        }
        Task::GapFilling => {
            let fillers = parse_gap_answer(input.gold)?;
            let text = splice_gaps(input.shown, &fillers)?;
            let steps = strict(&text, "proof with the gold fillers")?;
            Ok(format!(
                "{} gold fillers restore a strictly correct proof ({steps} steps)",
                fillers.len()
            ))
        }
    }
}

/// The steps of a proof that passes the strict checker of `system`, or
/// what fails, naming the proof `what`.
pub fn strict_steps(
    system: &ProofSystem,
    named: &[(String, Formula)],
    goal: &Formula,
    text: &str,
    what: &str,
) -> Result<usize, String> {
    let r = system.check_text(named, goal, text, Mode::Strict);
    match r.result {
        Ok(_) => Ok(r.steps),
        Err(e) => Err(format!(
            "{what} fails the strict {} checker: {} error at line {}: {}",
            system.name(),
            e.kind.name(),
            e.line,
            e.description
        )),
    }
}

/// The score of a checked proof: `ok`; `cheating` when the first error
/// is a step past a limit that closes a shortcut (NDL_f's justifier
/// limit, a claimed tautology, the premise bound: [`CheckError::forbidden`]);
/// else `wrong`.
///
/// [`CheckError::forbidden`]: crate::prop::CheckError::forbidden
/// The per-line verdicts of a written proof. The checker evaluates the
/// proof in order and stops at its first error, so after a type or logic
/// error every step line (a line with more than braces) above the error
/// line was verified (`ok`), the error line gets the error's verdict
/// (`wrong`, or `cheating` past a shortcut-closing limit), and the lines
/// below it were never checked and are not listed. A syntax error may be
/// found before any step is evaluated, so it lists only its own line
/// (`malformed`). A proof whose steps all hold but whose result is not the
/// goal lists every line as `ok`.
fn line_steps(r: &Report, proof: &str) -> Vec<StepVerdict> {
    let lines: Vec<(usize, &str)> = proof
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.chars().all(|c| c.is_whitespace() || c == '{' || c == '}'))
        .collect();
    let name = |n: usize| format!("line {n}");
    let ok = |n: usize| StepVerdict::new(name(n), Verdict::Ok, "holds");
    match &r.result {
        Ok(_) => lines.iter().map(|&(n, _)| ok(n)).collect(),
        Err(e) if e.line == 0 => lines.iter().map(|&(n, _)| ok(n)).collect(),
        Err(e) if e.kind == ErrorKind::Syntax => vec![StepVerdict::new(
            name(e.line),
            Verdict::Malformed,
            &e.description,
        )],
        Err(e) => {
            let failed = if e.forbidden {
                Verdict::Cheating
            } else {
                Verdict::Wrong
            };
            let mut out: Vec<StepVerdict> = lines
                .iter()
                .take_while(|&&(n, _)| n < e.line)
                .map(|&(n, _)| ok(n))
                .collect();
            out.push(StepVerdict::new(name(e.line), failed, &e.description));
            out
        }
    }
}

fn verdict(r: Report) -> Score {
    match r.result {
        Ok(_) => Score::correct(),
        Err(e) => {
            let d = format!(
                "{} error at line {}: {}",
                e.kind.name(),
                e.line,
                e.description
            );
            if e.forbidden {
                Score::cheating(format!(
                    "{d} (the step is past a limit that closes a shortcut)"
                ))
            } else {
                Score::wrong(d)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prop::check::check_text;
    use crate::tasks::StepGrade;

    fn f(s: &str) -> Formula {
        Formula::parse(s).unwrap()
    }

    /// Lines above a logic error are verified, the error line is wrong, the
    /// lines below are not listed; a valid proof lists every line.
    #[test]
    fn written_proofs_get_a_verdict_per_checked_line() {
        let named = named_premises(&[f("(A & B)")]);
        let good =
            "A BY left-and on premise-1;\n\nB BY right-and on premise-1;\n(A & B) BY both on A, B";
        let r = check_text(&named, &f("(A & B)"), good, Mode::Lenient);
        let steps = line_steps(&r, good);
        assert!(r.ok(), "{:?}", r.result);
        let names: Vec<&str> = steps.iter().map(|s| s.step.as_str()).collect();
        assert_eq!(names, ["line 1", "line 3", "line 4"]);
        assert!(steps.iter().all(|s| s.verdict == Verdict::Ok));
        let bad = "A BY left-and on premise-1;\nC BY mp on premise-1, A;\n(A & B) BY both on A, B";
        let r = check_text(&named, &f("(A & B)"), bad, Mode::Lenient);
        let steps = line_steps(&r, bad);
        let got: Vec<(&str, StepGrade)> =
            steps.iter().map(|s| (s.step.as_str(), s.verdict)).collect();
        assert_eq!(
            got,
            [("line 1", StepGrade::Ok), ("line 2", StepGrade::Wrong)],
            "{:?}",
            r.result
        );
    }
}
