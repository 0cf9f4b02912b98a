//! The four PL1 tasks (PL/EQ spec §3.3-§3.6): building an instance from a
//! problem and its reference proof (corruption for proof checking, masking,
//! gaps), its gold answer and certificate, and scoring a model answer.

use super::generate::Problem;
use crate::prop::check::{
    CheckError, Mode, RULES, Report, apply_schema, check_parsed, check_text, named_premises,
};
use crate::prop::formula::Formula;
use crate::prop::ndl::{
    Arg, Deduction, Element, Slot, Step, parse_proof, print, print_elements, print_with,
    visit_steps,
};
use crate::tasks::Score;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// A PL1 task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Task {
    /// PL1-PC: is this proof correct, and where is the first error?
    ProofChecking,
    /// PL1-PW: write a proof.
    ProofWriting,
    /// PL1-PM: fill the masks.
    ProofMasking,
    /// PL1-GF: fill the gaps.
    GapFilling,
}

impl Task {
    /// All tasks, in output order.
    pub const ALL: [Task; 4] = [
        Task::ProofChecking,
        Task::ProofWriting,
        Task::ProofMasking,
        Task::GapFilling,
    ];

    /// The dataset config (and `task` column) name.
    pub fn config(&self) -> &'static str {
        match self {
            Task::ProofChecking => "pl1_proof_checking",
            Task::ProofWriting => "pl1_proof_writing",
            Task::ProofMasking => "pl1_proof_masking",
            Task::GapFilling => "pl1_gap_filling",
        }
    }
}

impl std::fmt::Display for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.config())
    }
}

/// Everything a task instance carries besides the prompt.
#[derive(Clone, Debug)]
pub struct Built {
    /// The text shown after the problem (proof, masked proof, gapped proof; empty for writing).
    pub shown: String,
    /// The gold answer.
    pub answer: String,
    /// Task-specific metadata (merged into the record's metadata).
    pub meta: Value,
    /// Label evidence.
    pub certificate: Value,
    /// Balance label for the summary (e.g. "correct"/"incorrect").
    pub label: &'static str,
}

/// Corruption operators (spec §3.3 table), with the error kind each predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// Drop or duplicate an argument → type.
    ArityChange,
    /// Replace a rule by one whose schema does not fit → type.
    RuleSwap,
    /// Change a `BY` conclusion → logic.
    ByMutation,
    /// Remove a step whose result is used later → logic.
    DeleteLemma,
    /// Remove the final step, so the result is not the goal → logic, line 0.
    WrongFinal,
    /// Replace the second argument of `mt`/`dsyl`/`absurd` by a premise
    /// that holds but is not a complement → type.
    NonComplement,
}

impl Corruption {
    /// All operators.
    pub const ALL: [Corruption; 6] = [
        Corruption::ArityChange,
        Corruption::RuleSwap,
        Corruption::ByMutation,
        Corruption::DeleteLemma,
        Corruption::WrongFinal,
        Corruption::NonComplement,
    ];
    /// Operator name as in the spec.
    pub fn name(&self) -> &'static str {
        match self {
            Corruption::ArityChange => "arity_change",
            Corruption::RuleSwap => "rule_swap_incompatible",
            Corruption::ByMutation => "by_mutation",
            Corruption::DeleteLemma => "delete_lemma",
            Corruption::WrongFinal => "wrong_final",
            Corruption::NonComplement => "noncomplement",
        }
    }
    /// The error kind the spec predicts.
    pub fn predicted_kind(&self) -> &'static str {
        match self {
            Corruption::ArityChange | Corruption::RuleSwap | Corruption::NonComplement => "type",
            _ => "logic",
        }
    }
}

fn count_steps(d: &Deduction) -> usize {
    let mut n = 0;
    visit_steps(&mut d.clone(), &mut |_| n += 1);
    n
}

/// Applies `f` to the k-th step (evaluation order).
fn with_step(d: &mut Deduction, k: usize, f: &mut dyn FnMut(&mut Step)) {
    let mut i = 0;
    visit_steps(d, &mut |s| {
        if i == k {
            f(s);
        }
        i += 1;
    });
}

fn step_line(d: &Deduction, k: usize) -> usize {
    let mut line = 0;
    with_step(&mut d.clone(), k, &mut |s| line = s.line);
    line
}

/// Lists (block path, element index) of every non-final step element, for
/// lemma deletion. A path is the element indices of the enclosing assumes.
fn deletable(d: &Deduction, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, usize)>) {
    if let Deduction::Block { elems, .. } = d {
        for (i, e) in elems.iter().enumerate() {
            if let Element::Ded { ded, .. } = e {
                match ded {
                    Deduction::Step(_) if i + 1 < elems.len() => out.push((path.clone(), i)),
                    Deduction::Assume { body, .. } | Deduction::SupposeAbsurd { body, .. } => {
                        path.push(i);
                        deletable(body, path, out);
                        path.pop();
                    }
                    _ => {}
                }
            }
        }
    }
}

fn block_at<'a>(d: &'a mut Deduction, path: &[usize]) -> &'a mut Vec<Element> {
    let Deduction::Block { elems, .. } = d else {
        panic!("blocks only")
    };
    match path.split_first() {
        None => elems,
        Some((i, rest)) => match &mut elems[*i] {
            Element::Ded {
                ded: Deduction::Assume { body, .. } | Deduction::SupposeAbsurd { body, .. },
                ..
            } => block_at(body, rest),
            _ => panic!("path through an assume"),
        },
    }
}

fn resolved(s: &Step) -> Vec<Formula> {
    s.args
        .iter()
        .filter_map(|a| match a {
            Arg::Formula(f) => Some(f.clone()),
            Arg::Ident(_) => None,
        })
        .collect()
}

/// Tries one corruption; returns the corrupted proof and the index of the
/// touched step (for the predicted line), or `None` if it does not apply.
fn corrupt(
    proof: &Deduction,
    op: Corruption,
    rng: &mut ChaCha8Rng,
    premises: &[Formula],
) -> Option<(Deduction, Option<usize>)> {
    let mut d = proof.clone();
    let n = count_steps(&d);
    match op {
        Corruption::ArityChange => {
            let k = rng.random_range(0..n);
            with_step(&mut d, k, &mut |s| {
                if s.args.len() >= 2 && rng.random_bool(0.5) {
                    s.args.pop();
                } else {
                    let a = s.args[rng.random_range(0..s.args.len())].clone();
                    s.args.push(a);
                }
            });
            Some((d, Some(k)))
        }
        Corruption::RuleSwap => {
            let k = rng.random_range(0..n);
            let mut ok = false;
            with_step(&mut d, k, &mut |s| {
                let args = resolved(s);
                let old = crate::prop::check::rule_info(&s.rule).expect("own rule");
                let mut cands: Vec<&str> = RULES
                    .iter()
                    .filter(|r| {
                        r.name != old.name
                            && r.must_hold.len() == args.len()
                            && r.must_hold
                                .iter()
                                .zip(old.must_hold)
                                .all(|(n, o)| !*n || *o)
                            && apply_schema(r.name, &args).is_err()
                    })
                    .map(|r| r.name)
                    .collect();
                cands.shuffle(rng);
                if let Some(r) = cands.first() {
                    s.rule = r.to_string();
                    ok = true;
                }
            });
            ok.then_some((d, Some(k)))
        }
        Corruption::ByMutation => {
            let k = rng.random_range(0..n);
            with_step(&mut d, k, &mut |s| {
                if let Some(c) = s.conclusion.take() {
                    s.conclusion = Some(match c {
                        Formula::And(p, q) if p != q && rng.random_bool(0.5) => Formula::And(q, p),
                        Formula::Or(p, q) if p != q && rng.random_bool(0.5) => Formula::Or(q, p),
                        c => Formula::negation(c),
                    });
                }
            });
            Some((d, Some(k)))
        }
        Corruption::DeleteLemma => {
            let mut spots = Vec::new();
            deletable(&d, &mut Vec::new(), &mut spots);
            if spots.is_empty() {
                return None;
            }
            let (path, i) = spots[rng.random_range(0..spots.len())].clone();
            block_at(&mut d, &path).remove(i);
            Some((d, None))
        }
        Corruption::NonComplement => {
            // Steps whose second argument must complement something.
            let mut spots = Vec::new();
            let mut i = 0;
            visit_steps(&mut d, &mut |s| {
                if matches!(s.rule.as_str(), "mt" | "dsyl" | "absurd") && s.args.len() == 2 {
                    spots.push(i);
                }
                i += 1;
            });
            if spots.is_empty() || premises.is_empty() {
                return None;
            }
            let k = spots[rng.random_range(0..spots.len())];
            let mut ok = false;
            with_step(&mut d, k, &mut |s| {
                let first = resolved(s)[0].clone();
                // A premise always holds, so membership passes and the
                // schema check is what fails.
                let mut cands: Vec<&Formula> = premises
                    .iter()
                    .filter(|p| apply_schema(&s.rule, &[first.clone(), (*p).clone()]).is_err())
                    .collect();
                cands.shuffle(rng);
                if let Some(p) = cands.first() {
                    s.args[1] = Arg::Formula((*p).clone());
                    ok = true;
                }
            });
            ok.then_some((d, Some(k)))
        }
        Corruption::WrongFinal => {
            let elems = block_at(&mut d, &[]);
            if elems.len() < 2 {
                return None;
            }
            elems.pop();
            Some((d, None))
        }
    }
}

fn error_json(e: &CheckError, text: &str) -> Value {
    let line_text = if e.line == 0 {
        String::new()
    } else {
        text.lines()
            .nth(e.line - 1)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    json!({
        "offendingLine": line_text,
        "offendingLineNumber": e.line,
        "errorType": e.kind.name(),
        "errorDescription": e.description,
    })
}

fn verdict_json(r: &Report, text: &str) -> Value {
    match &r.result {
        Ok(_) => json!({"correct": true, "errorDetails": {}}),
        Err(e) => json!({"correct": false, "errorDetails": error_json(e, text)}),
    }
}

/// Builds a proof-checking instance: about half the proofs are corrupted;
/// the label is the strict checker's verdict on the shown text, and a
/// corruption is kept only if the lenient checker rejects it too.
pub fn build_proof_checking(p: &Problem, proof: &Deduction, rng: &mut ChaCha8Rng) -> Built {
    let named = named_premises(&p.premises);
    let correct_text = print(proof);
    if rng.random_bool(0.5) {
        for _ in 0..20 {
            let op = Corruption::ALL[rng.random_range(0..Corruption::ALL.len())];
            let Some((bad, touched)) = corrupt(proof, op, rng, &p.premises) else {
                continue;
            };
            let text = print(&bad);
            let strict = check_text(&named, &p.goal, &text, Mode::Strict);
            let lenient = check_text(&named, &p.goal, &text, Mode::Lenient);
            let (Err(e), false) = (&strict.result, lenient.ok()) else {
                continue;
            };
            let reparsed = parse_proof(&text, false).expect("printed proofs parse");
            let predicted_line = match op {
                Corruption::WrongFinal => Some(0),
                _ => touched.map(|k| step_line(&reparsed, k)),
            };
            let kind_ok = e.kind.name() == op.predicted_kind();
            let line_ok = match predicted_line {
                Some(l) => l == e.line,
                // delete_lemma: the first error cites the deleted result.
                None => e.kind.name() == "logic" && e.line > 0,
            };
            return Built {
                answer: verdict_json(&strict, &text).to_string(),
                certificate: json!({
                    "verdict": "incorrect",
                    "strict": verdict_json(&strict, &text),
                    "lenient_correct": false,
                    "checker_steps": strict.steps,
                }),
                meta: json!({
                    "proof_correct": false,
                    "corruption": op.name(),
                    "predicted_error_type": op.predicted_kind(),
                    "predicted_line": predicted_line,
                    "prediction_matches": kind_ok && line_ok,
                }),
                shown: text,
                label: "incorrect",
            };
        }
    }
    let strict = check_text(&named, &p.goal, &correct_text, Mode::Strict);
    assert!(strict.ok(), "reference proofs check");
    Built {
        answer: verdict_json(&strict, &correct_text).to_string(),
        certificate: json!({
            "verdict": "correct",
            "strict": verdict_json(&strict, &correct_text),
            "lenient_correct": true,
            "checker_steps": strict.steps,
        }),
        meta: json!({"proof_correct": true, "corruption": null}),
        shown: correct_text,
        label: "correct",
    }
}

/// Builds a proof-writing instance: the gold answer is the reference proof.
pub fn build_proof_writing(p: &Problem, proof: &Deduction) -> Built {
    let text = print(proof);
    let r = check_text(&named_premises(&p.premises), &p.goal, &text, Mode::Strict);
    assert!(r.ok());
    Built {
        answer: json!({
            "description": "Reference proof found by goal-directed introduction, forward elimination and case analysis on atoms.",
            "proof": text,
        })
        .to_string(),
        certificate: json!({"verdict": "provable", "reference_proof_strictly_correct": true, "checker_steps": r.steps}),
        meta: json!({}),
        shown: String::new(),
        label: "provable",
    }
}

const DECOY_SENTINEL: &str = "DECOY-RULE";

/// Builds a masking instance: 30-90% of the maskable items are masked; a
/// quarter of the instances are decoys whose proof keeps a visible arity
/// error, so no assignment works and the gold answer is the empty map.
pub fn build_proof_masking(p: &Problem, proof: &Deduction, rng: &mut ChaCha8Rng) -> Built {
    let named = named_premises(&p.premises);
    let decoy = rng.random_bool(0.25);
    let mut d = proof.clone();
    let mut real_rule = String::new();
    if decoy {
        let k = rng.random_range(0..count_steps(&d));
        with_step(&mut d, k, &mut |s| {
            if s.args.len() >= 2 && rng.random_bool(0.5) {
                s.args.pop();
            } else {
                let a = s.args[0].clone();
                s.args.push(a);
            }
            real_rule = std::mem::replace(&mut s.rule, DECOY_SENTINEL.to_string());
        });
    }
    // Slots, and the ones on the decoy step (never masked).
    let mut slots: Vec<(Slot, String)> = Vec::new();
    let mut protected = std::collections::BTreeSet::new();
    let mut pending_conclusion: Option<usize> = None;
    let mut in_decoy = false;
    print_with(&d, &mut |i, kind, text| {
        match kind {
            Slot::Conclusion => pending_conclusion = Some(i),
            Slot::Rule if text == DECOY_SENTINEL => {
                in_decoy = true;
                protected.insert(i);
                if let Some(c) = pending_conclusion {
                    protected.insert(c);
                }
            }
            Slot::Argument if in_decoy => {
                protected.insert(i);
            }
            _ => {
                in_decoy = false;
                pending_conclusion = None;
            }
        }
        if kind == Slot::Rule && text != DECOY_SENTINEL {
            in_decoy = false;
        }
        slots.push((kind, text.to_string()));
        text.to_string()
    });
    let candidates: Vec<usize> = (0..slots.len())
        .filter(|i| !protected.contains(i))
        .collect();
    let fraction = rng.random_range(0.3..=0.9);
    let m = ((fraction * slots.len() as f64).round() as usize).clamp(1, candidates.len().max(1));
    let mut chosen = candidates.clone();
    chosen.shuffle(rng);
    chosen.truncate(m.min(candidates.len()));
    chosen.sort_unstable();
    let mut masks = serde_json::Map::new();
    let mut next = 1;
    let masked = print_with(&d, &mut |i, _, text| {
        let text = if text == DECOY_SENTINEL {
            real_rule.as_str()
        } else {
            text
        };
        if chosen.binary_search(&i).is_ok() {
            let name = format!("MASK{next}");
            next += 1;
            masks.insert(name.clone(), Value::String(text.to_string()));
            name
        } else {
            text.to_string()
        }
    });
    // Certify the label: the gold assignment checks (solvable), or the
    // original proof fails on a step whose rule and arity are visible.
    let original_text = fill_masks(&masked, &masks).expect("gold values fill every mask");
    let original = check_text(&named, &p.goal, &original_text, Mode::Lenient);
    assert_eq!(original.ok(), !decoy, "mask label certification");
    let answer_masks = if decoy {
        serde_json::Map::new()
    } else {
        masks.clone()
    };
    Built {
        answer: json!({"masks": answer_masks}).to_string(),
        certificate: json!({
            "verdict": if decoy { "unsolvable" } else { "solvable" },
            "original_proof_correct": !decoy,
            "original_error": original.result.as_ref().err().map(|e| error_json(e, &original_text)),
            "gold_assignment_checks": !decoy,
        }),
        meta: json!({
            "masked_proof": masked,
            "mask_count": masks.len(),
            "maskable_items": slots.len(),
            "mask_fraction": masks.len() as f64 / slots.len() as f64,
            "original_proof_correct": !decoy,
            "original_values": masks,
        }),
        shown: masked,
        label: if decoy { "unsolvable" } else { "solvable" },
    }
}

/// Replaces every `MASKk` token by its value; `Err` names a missing mask.
pub fn fill_masks(text: &str, values: &serde_json::Map<String, Value>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("MASK") {
        let after = &rest[i + 4..];
        let digits = after.bytes().take_while(|b| b.is_ascii_digit()).count();
        let prev_ok = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
        if digits == 0 || !prev_ok {
            out.push_str(&rest[..i + 4]);
            rest = after;
            continue;
        }
        let name = &rest[i..i + 4 + digits];
        let v = values
            .get(name)
            .and_then(|v| v.as_str())
            .ok_or_else(|| format!("no string value for {name}"))?;
        out.push_str(&rest[..i]);
        out.push_str(v);
        rest = &after[digits..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Lists every block as (path, number of elements).
fn blocks(d: &Deduction, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, usize)>) {
    if let Deduction::Block { elems, .. } = d {
        out.push((path.clone(), elems.len()));
        for (i, e) in elems.iter().enumerate() {
            if let Element::Ded {
                ded: Deduction::Assume { body, .. } | Deduction::SupposeAbsurd { body, .. },
                ..
            } = e
            {
                path.push(i);
                blocks(body, path, out);
                path.pop();
            }
        }
    }
}

/// Builds a gap-filling instance from a correct proof: non-overlapping runs
/// of 1-3 consecutive block elements become `GAP-k` lines until about half
/// of the lines are removed; labels are numbered in shuffled order.
pub fn build_gap_filling(p: &Problem, proof: &Deduction, rng: &mut ChaCha8Rng) -> Built {
    let total_lines = print(proof).lines().count();
    let mut bl = Vec::new();
    blocks(proof, &mut Vec::new(), &mut bl);
    // Chosen ranges: (path, start, len).
    let mut ranges: Vec<(Vec<usize>, usize, usize)> = Vec::new();
    let overlaps = |a: &(Vec<usize>, usize, usize), b: &(Vec<usize>, usize, usize)| {
        let inside = |outer: &(Vec<usize>, usize, usize), path: &[usize]| {
            path.len() > outer.0.len()
                && path.starts_with(&outer.0)
                && (outer.1..outer.1 + outer.2).contains(&path[outer.0.len()])
        };
        (a.0 == b.0 && a.1 < b.1 + b.2 && b.1 < a.1 + a.2) || inside(a, &b.0) || inside(b, &a.0)
    };
    let mut removed = 0usize;
    let mut work = proof.clone();
    for _ in 0..40 {
        if removed * 2 >= total_lines {
            break;
        }
        let (path, len) = bl[rng.random_range(0..bl.len())].clone();
        let max_run = if path.is_empty() {
            (len - 1).min(3)
        } else {
            len.min(3)
        };
        if max_run == 0 {
            continue;
        }
        let run = rng.random_range(1..=max_run);
        let start = rng.random_range(0..=len - run);
        let cand = (path, start, run);
        if ranges.iter().any(|r| overlaps(r, &cand)) {
            continue;
        }
        let elems = block_at(&mut work, &cand.0);
        removed += print_elements(&elems[cand.1..cand.1 + cand.2], 0)
            .lines()
            .count();
        ranges.push(cand);
    }
    if ranges.is_empty() {
        // A one-element proof: the gap is its single step.
        ranges.push((Vec::new(), 0, 1));
    }
    // Shuffled labels.
    let mut numbers: Vec<usize> = (1..=ranges.len()).collect();
    numbers.shuffle(rng);
    // Replace from the deepest paths and highest starts, so indices stay valid.
    let mut order: Vec<usize> = (0..ranges.len()).collect();
    order.sort_by(|&a, &b| {
        (ranges[b].0.len(), &ranges[b].0, ranges[b].1).cmp(&(
            ranges[a].0.len(),
            &ranges[a].0,
            ranges[a].1,
        ))
    });
    let mut fillers: Vec<(usize, String)> = Vec::new();
    for &ri in &order {
        let (path, start, len) = &ranges[ri];
        let elems = block_at(&mut work, path);
        let removed: Vec<Element> = elems.drain(*start..*start + *len).collect();
        let label = format!("GAP-{}", numbers[ri]);
        fillers.push((numbers[ri], print_elements(&removed, 0)));
        elems.insert(*start, Element::Gap { line: 0, label });
    }
    fillers.sort();
    let gapped = print(&work);
    let answer: String = fillers
        .iter()
        .map(|(k, f)| format!("GAP-{k}:\n{f}\n"))
        .collect::<Vec<_>>()
        .join("\n");
    let labels: Vec<String> = fillers.iter().map(|(k, _)| format!("GAP-{k}")).collect();
    // Certify: the gold fillers restore a strictly correct proof.
    let filled =
        splice_gaps(&gapped, &parse_gap_answer(&answer).expect("gold parses")).expect("gold fills");
    let r = check_text(&named_premises(&p.premises), &p.goal, &filled, Mode::Strict);
    assert!(r.ok(), "gold gap fillers restore the proof: {:?}", r.result);
    let gap_lines: usize = fillers.iter().map(|(_, f)| f.lines().count()).sum();
    Built {
        answer,
        certificate: json!({"verdict": "fillable", "gold_filled_proof_strictly_correct": true, "checker_steps": r.steps}),
        meta: json!({
            "gap_labels": labels,
            "gap_count": labels.len(),
            "gap_fraction": gap_lines as f64 / total_lines as f64,
            "proof_with_gaps": gapped,
        }),
        shown: gapped,
        label: "fillable",
    }
}

/// Reads a gap-filling answer: `GAP-k:` headers (at line start) followed by
/// the filler text, up to the next header.
pub fn parse_gap_answer(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("GAP-")
            && let Some(colon) = rest.find(':')
            && colon > 0
            && rest[..colon].bytes().all(|b| b.is_ascii_digit())
        {
            let label = format!("GAP-{}", &rest[..colon]);
            if out.iter().any(|(l, _)| *l == label) {
                return Err(format!("{label} answered twice"));
            }
            out.push((label, rest[colon + 1..].trim().to_string()));
            continue;
        }
        match out.last_mut() {
            Some((_, body)) => {
                if !body.is_empty() {
                    body.push('\n');
                }
                body.push_str(line);
            }
            None if t.is_empty() => {}
            None => return Err("text before the first GAP-k: header".into()),
        }
    }
    if out.is_empty() {
        return Err("no GAP-k: sections".into());
    }
    Ok(out)
}

/// Puts fillers in place of the `GAP-k` lines; `Err` names a gap with no filler.
pub fn splice_gaps(gapped: &str, fillers: &[(String, String)]) -> Result<String, String> {
    let mut out = String::new();
    for line in gapped.lines() {
        let t = line.trim();
        let (label, semi) = match t.strip_suffix(';') {
            Some(l) => (l, ";"),
            None => (t, ""),
        };
        if label.starts_with("GAP-") {
            let filler = fillers
                .iter()
                .find(|(l, _)| l == label)
                .map(|(_, f)| f.trim().trim_end_matches(';').trim_end())
                .ok_or_else(|| format!("no filler for {label}"))?;
            if filler.is_empty() {
                return Err(format!("empty filler for {label}"));
            }
            out.push_str(filler);
            out.push_str(semi);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    Ok(out)
}

/// Extracts a JSON object from a model answer (bare, or inside a fenced block).
fn json_object(answer: &str) -> Option<Value> {
    let s = answer.trim();
    let s = s
        .strip_prefix("```json")
        .or_else(|| s.strip_prefix("```"))
        .map(|r| r.trim_end().trim_end_matches("```"))
        .unwrap_or(s);
    let v: Value = serde_json::from_str(s.trim()).ok()?;
    v.is_object().then_some(v)
}

/// What a scorer needs besides the answer (all of it is in the record).
pub struct ScoreInput<'a> {
    /// The task.
    pub task: Task,
    /// The premises shown.
    pub premises: &'a [Formula],
    /// The goal shown.
    pub goal: &'a Formula,
    /// The shown proof text (checking, masking, gaps).
    pub shown: &'a str,
    /// The gold answer.
    pub gold: &'a str,
}

/// Scores a model answer. Checking: the verdict must match the gold one
/// (error details are reported in the reason, not scored, as in [P]).
/// Writing: the proof must pass the lenient checker. Masking: the values
/// must make the proof pass the lenient checker; `{}` is right iff the gold
/// is `{}`. Gaps: every gap filled and the whole proof passes leniently.
pub fn score(input: &ScoreInput<'_>, answer: &str) -> Score {
    let named = named_premises(input.premises);
    match input.task {
        Task::ProofChecking => {
            let Some(v) = json_object(answer) else {
                return Score::malformed("answer is not a JSON object");
            };
            let Some(said) = v.get("correct").and_then(|c| c.as_bool()) else {
                return Score::malformed("missing boolean field \"correct\"");
            };
            let gold = json_object(input.gold).expect("gold is JSON");
            let truth = gold["correct"].as_bool().expect("gold verdict");
            if said != truth {
                return Score::wrong(format!("verdict {said}, expected {truth}"));
            }
            if truth {
                return Score::correct();
            }
            let want = &gold["errorDetails"];
            let got = v.get("errorDetails").cloned().unwrap_or(Value::Null);
            let line = got.get("offendingLineNumber") == Some(&want["offendingLineNumber"]);
            let kind = got.get("errorType") == Some(&want["errorType"]);
            let mut s = Score::correct();
            s.detail = format!(
                "correct verdict; error line {}, error type {}",
                if line { "right" } else { "wrong" },
                if kind { "right" } else { "wrong" }
            );
            s
        }
        Task::ProofWriting => {
            let Some(v) = json_object(answer) else {
                return Score::malformed("answer is not a JSON object");
            };
            let Some(proof) = v.get("proof").and_then(|p| p.as_str()) else {
                return Score::malformed("missing string field \"proof\"");
            };
            if proof.lines().any(|l| l.trim_start().starts_with("assert ")) {
                return Score::wrong("the proof repeats assert lines");
            }
            verdict(check_text(&named, input.goal, proof, Mode::Lenient))
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
                Ok(text) => verdict(check_text(&named, input.goal, &text, Mode::Lenient)),
            }
        }
        Task::GapFilling => {
            let fillers = match parse_gap_answer(answer) {
                Ok(f) => f,
                Err(e) => return Score::malformed(e),
            };
            match splice_gaps(input.shown, &fillers) {
                Err(e) => Score::wrong(e),
                Ok(text) => verdict(check_text(&named, input.goal, &text, Mode::Lenient)),
            }
        }
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
    let strict = |text: &str, what: &str| -> Result<usize, String> {
        let r = check_text(&named, input.goal, text, Mode::Strict);
        match r.result {
            Ok(_) => Ok(r.steps),
            Err(e) => Err(format!(
                "{what} fails the strict checker: {} error at line {}: {}",
                e.kind.name(),
                e.line,
                e.description
            )),
        }
    };
    match input.task {
        Task::ProofChecking => {
            let gold = gold.ok_or("gold answer is not a JSON object")?;
            let r = check_text(&named, input.goal, input.shown, Mode::Strict);
            let want = verdict_json(&r, input.shown);
            if gold != want {
                return Err(format!(
                    "gold verdict {gold} but the strict checker says {want}"
                ));
            }
            if r.ok() {
                return Ok(format!("shown proof correct ({} steps)", r.steps));
            }
            if check_text(&named, input.goal, input.shown, Mode::Lenient).ok() {
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
            let r = check_text(&named, input.goal, &text, Mode::Lenient);
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

fn verdict(r: Report) -> Score {
    match r.result {
        Ok(_) => Score::correct(),
        Err(e) => Score::wrong(format!(
            "{} error at line {}: {}",
            e.kind.name(),
            e.line,
            e.description
        )),
    }
}

/// Whether a parsed proof is strictly correct (used by tests and the run's self-check).
pub fn strictly_correct(p: &Problem, d: &Deduction) -> bool {
    check_parsed(&named_premises(&p.premises), &p.goal, d, Mode::Strict).ok()
}

#[cfg(test)]
mod tests {
    use super::super::instance::{build, score_record};
    use super::*;
    use crate::prop::check::ErrorKind;

    fn f(s: &str) -> Formula {
        Formula::parse(s).unwrap()
    }

    fn premises(ps: &[&str]) -> Vec<(String, Formula)> {
        named_premises(&ps.iter().map(|p| f(p)).collect::<Vec<_>>())
    }

    /// The premises of the paper's sample proof (seed 000, §3).
    const PAPER_PREMISES: [&str; 3] = ["(A ==> B)", "(~ A ==> C)", "(C ==> D)"];

    #[test]
    fn paper_masked_proof_with_the_intended_assignment_checks() {
        let masked = "{
  (A | ~ A) BY ex-middle on MASK1;
  assume A {
    MASK2 BY MASK3 on premise-1, MASK4;
    (MASK5 | D) by left-either on MASK6, MASK7
  };
  assume MASK8 {
    MASK9 BY mp on premise-2, MASK10;
    D BY mp on MASK11, MASK12;
    MASK13 BY right-either on B, D
  };
  MASK14 BY cases on (A | ~ A), MASK15, MASK16
}";
        let values: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
            r#"{"MASK1": "A", "MASK2": "B", "MASK3": "mp", "MASK4": "A", "MASK5": "B",
                "MASK6": "B", "MASK7": "D", "MASK8": "(~ A)", "MASK9": "C", "MASK10": "(~ A)",
                "MASK11": "premise-3", "MASK12": "C", "MASK13": "(B | D)", "MASK14": "(B | D)",
                "MASK15": "(A ==> (B | D))", "MASK16": "((~ A) ==> (B | D))"}"#,
        )
        .unwrap();
        let ps = premises(&PAPER_PREMISES);
        let filled = fill_masks(masked, &values).unwrap();
        assert!(check_text(&ps, &f("(B | D)"), &filled, Mode::Strict).ok());
        // MASK3 and MASK6 swapped to wrong rules: a type error on line 4.
        let mut wrong = values.clone();
        wrong.insert("MASK3".into(), "left-and".into());
        let r = check_text(
            &ps,
            &f("(B | D)"),
            &fill_masks(masked, &wrong).unwrap(),
            Mode::Strict,
        );
        let e = r.result.unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Type, 4));
        // Unfilled, `MASK1` reads as an atom (names resolve first, then atoms),
        // so the masked text itself is not a correct proof.
        assert!(!check_text(&ps, &f("(B | D)"), masked, Mode::Strict).ok());
    }

    #[test]
    fn paper_gap_filling_example_checks_once_filled() {
        let gapped = "{
  left-iff on premise-3;
  GAP-1;
  assume E {
    case1 := assume C {
      mp on premise-2, C
    };
    case2 := assume (A & E) {
      left-and on (A & E);
      mp on (A ==> (E ==> D)), A;
      GAP-2
    };
    GAP-3
  }
}";
        let ps = premises(&["(C | (A & E))", "(C ==> D)", "(A <==> (E ==> D))"]);
        let goal = f("(E ==> D)");
        let fill = |g1: &str| {
            vec![
                ("GAP-1".to_string(), g1.to_string()),
                (
                    "GAP-2".to_string(),
                    "E BY right-and on (A & E); D BY mp on (E ==> D), E".to_string(),
                ),
                (
                    "GAP-3".to_string(),
                    "cases on premise-1, case1, case2".to_string(),
                ),
            ]
        };
        // GAP-1 is redundant: any valid filler is accepted (the paper's point).
        for g1 in ["right-iff on premise-3", "claim on premise-2"] {
            let text = splice_gaps(gapped, &fill(g1)).unwrap();
            let r = check_text(&ps, &goal, &text, Mode::Strict);
            assert!(r.ok(), "{g1}: {:?}\n{text}", r.result);
        }
        // A wrong GAP-3 (cases with the conditionals swapped) is a type error.
        let mut bad = fill("claim on premise-2");
        bad[2].1 = "cases on premise-1, case2, case1".into();
        let r = check_text(
            &ps,
            &goal,
            &splice_gaps(gapped, &bad).unwrap(),
            Mode::Strict,
        );
        assert_eq!(r.result.unwrap_err().kind, ErrorKind::Type);
        // An unfilled gap is a syntax error on its line.
        let e = check_text(&ps, &goal, gapped, Mode::Strict)
            .result
            .unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Syntax, 3));
    }

    fn instances(task: Task, n: u64) -> Vec<super::super::PlInstance> {
        (0..n)
            .flat_map(|i| build(11, task, 1 + (i % 4) as u8, i).ok())
            .collect()
    }

    #[test]
    fn gold_answers_score_one_on_every_task() {
        for task in Task::ALL {
            let all = instances(task, 40);
            assert!(all.len() >= 38, "{task:?}: {}", all.len());
            for inst in &all {
                let s = score_record(task, &inst.metadata, &inst.answer, &inst.answer);
                assert_eq!(s.value, 1.0, "{task:?} {}: {}", inst.id, s.detail);
            }
        }
    }

    /// `verify` re-certifies every gold answer from the record's text, and
    /// rejects a record whose gold answer was tampered with.
    #[test]
    fn verify_accepts_gold_records_and_rejects_tampered_ones() {
        use super::super::instance::verify_record;
        let mut kinds = std::collections::BTreeSet::new();
        for task in Task::ALL {
            for inst in instances(task, 40) {
                let ok = verify_record(task, &inst.metadata, &inst.answer);
                assert!(ok.is_ok(), "{}: {ok:?}", inst.id);
                kinds.insert((task, inst.label));
                let mut gold: Value = serde_json::from_str(&inst.answer).unwrap_or(Value::Null);
                let tampered = match (task, inst.label) {
                    (Task::ProofChecking, _) => {
                        let c = gold["correct"].as_bool().unwrap();
                        gold["correct"] = Value::Bool(!c);
                        gold.to_string()
                    }
                    (Task::ProofWriting, _) => {
                        let proof = gold["proof"].as_str().unwrap();
                        let mut lines: Vec<&str> = proof.lines().collect();
                        lines.truncate(lines.len() / 2);
                        gold["proof"] = Value::String(lines.join("\n"));
                        gold.to_string()
                    }
                    // Claim unsolvable for a solvable one, and give the
                    // original (failing) values for a decoy.
                    (Task::ProofMasking, "solvable") => r#"{"masks": {}}"#.to_string(),
                    (Task::ProofMasking, _) => {
                        json!({"masks": inst.metadata["original_values"]}).to_string()
                    }
                    // Every gap left empty.
                    (Task::GapFilling, _) => inst.metadata["gap_labels"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|l| format!("{}:\n", l.as_str().unwrap()))
                        .collect(),
                };
                assert!(
                    verify_record(task, &inst.metadata, &tampered).is_err(),
                    "{}: tampered gold accepted: {tampered}",
                    inst.id
                );
            }
        }
        for want in [
            (Task::ProofChecking, "correct"),
            (Task::ProofChecking, "incorrect"),
            (Task::ProofMasking, "solvable"),
            (Task::ProofMasking, "unsolvable"),
        ] {
            assert!(kinds.contains(&want), "no {want:?} instance");
        }
    }

    #[test]
    fn proof_checking_is_balanced_and_labels_come_from_the_checker() {
        let all = instances(Task::ProofChecking, 80);
        let wrong = all.iter().filter(|i| i.label == "incorrect").count();
        assert!((25..=55).contains(&wrong), "{wrong} of {}", all.len());
        for inst in &all {
            // The opposite verdict scores 0.
            let flipped = if inst.label == "correct" {
                r#"{"correct": false, "errorDetails": {}}"#
            } else {
                r#"{"correct": true, "errorDetails": {}}"#
            };
            let s = score_record(Task::ProofChecking, &inst.metadata, &inst.answer, flipped);
            assert_eq!(s.value, 0.0);
            assert!(s.well_formed);
            if inst.label == "incorrect" {
                assert_eq!(inst.prediction_matches, Some(true), "{}", inst.metadata);
            }
        }
    }

    #[test]
    fn corrupted_and_malformed_answers_score_zero() {
        for task in Task::ALL {
            for inst in instances(task, 12) {
                let s = score_record(task, &inst.metadata, &inst.answer, "not an answer at all");
                assert_eq!(s.value, 0.0);
                assert!(!s.well_formed, "{task:?}: {}", s.detail);
                assert!(!s.detail.is_empty());
            }
        }
        // Writing: a proof that ends on the wrong formula scores 0.
        for inst in instances(Task::ProofWriting, 8) {
            let bad =
                serde_json::json!({"description": "", "proof": "{ false BY claim on false }"})
                    .to_string();
            let s = score_record(Task::ProofWriting, &inst.metadata, &inst.answer, &bad);
            assert_eq!(s.value, 0.0);
            assert!(s.well_formed);
        }
        // Masking: claiming "unsolvable" on a solvable instance, or a wrong value, scores 0.
        for inst in instances(Task::ProofMasking, 20) {
            let gold: Value = serde_json::from_str(&inst.answer).unwrap();
            let masks = gold["masks"].as_object().unwrap();
            if masks.is_empty() {
                let s = score_record(
                    Task::ProofMasking,
                    &inst.metadata,
                    &inst.answer,
                    r#"{"masks": {"MASK1": "A"}}"#,
                );
                assert_eq!(s.value, 0.0);
                continue;
            }
            let s = score_record(
                Task::ProofMasking,
                &inst.metadata,
                &inst.answer,
                r#"{"masks": {}}"#,
            );
            assert_eq!(s.value, 0.0);
            let mut bad = masks.clone();
            for v in bad.values_mut() {
                *v = Value::String("nonsense-rule".into());
            }
            let s = score_record(
                Task::ProofMasking,
                &inst.metadata,
                &inst.answer,
                &json!({"masks": bad}).to_string(),
            );
            assert_eq!(s.value, 0.0);
        }
        // Gaps: a missing gap or a wrong filler scores 0.
        for inst in instances(Task::GapFilling, 12) {
            let first = inst.answer.split("\n\n").next().unwrap();
            if inst.metadata["gap_count"].as_u64().unwrap() > 1 {
                let s = score_record(Task::GapFilling, &inst.metadata, &inst.answer, first);
                assert_eq!(s.value, 0.0, "{}", s.detail);
            }
            let labels = inst.metadata["gap_labels"].as_array().unwrap();
            let wrong: String = labels
                .iter()
                .map(|l| format!("{}:\nfalse BY claim on false\n", l.as_str().unwrap()))
                .collect();
            let s = score_record(Task::GapFilling, &inst.metadata, &inst.answer, &wrong);
            assert_eq!(s.value, 0.0);
        }
    }

    #[test]
    fn masking_fraction_and_decoys() {
        let all = instances(Task::ProofMasking, 60);
        let decoys = all.iter().filter(|i| i.label == "unsolvable").count();
        assert!(decoys > 0 && decoys < all.len() / 2, "{decoys}");
        for inst in &all {
            let f = inst.metadata["mask_fraction"].as_f64().unwrap();
            assert!(f > 0.0 && f <= 0.95, "{f}");
        }
    }
}
