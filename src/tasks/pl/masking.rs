//! PL1 proof masking and gap filling (PL/EQ spec §3.5-§3.6): masks over a
//! correct proof's slots (with decoy instances no assignment can repair),
//! gapped proofs with `GAP-k` elements, and filling masks or gaps back in.

use super::tasks::Built;
use super::verdict::error_json;
use crate::prop::check::{Mode, check_text, named_premises};
use crate::prop::corrupt::{block_at, count_steps, with_step};
use crate::prop::ndl::{Deduction, Element, Slot, print, print_elements, print_with};
use crate::prop::problems::random::Problem;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

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
