//! Step-verified derivation (config `stepwise_derivation`, family
//! `derivation`): the structured formal intermediates of PRoSFI (seed 003),
//! on TPTP theorems. The starting premises of a binary proof graph of a
//! ranked theorem are listed in random order as `P1..Pn` with the theorem as
//! the conclusion; the answer is a chain of numbered steps
//! `S<j>: CLAUSE by REF, REF`, each citing one or two premises or earlier
//! steps, the last one the conclusion. The scorer checks every step on its
//! own with the built-in prover under a small work budget
//! ([`STEP_MAX_PROCESSED`] given clauses): a step is verified when it
//! follows from the clauses it cites. It returns a verdict per step, so the
//! score can serve as a process reward: the share of verified steps, 1 only
//! for a fully verified chain that ends in the conclusion.
//!
//! The graph is the one reconstruction grows ([`super::recon`]: a path of d
//! binary steps from the theorem, then random expansion to a node count in
//! k..2k-1, every step certified by the prover as `PARENT_1, PARENT_2 |-
//! CHILD`); its leaves are the premises and its derived clauses, in an
//! order where parents come first, are the gold chain, rendered from the
//! certificate. Citing at most two clauses per step is what keeps the
//! chain a chain: with more, "the conclusion, by every premise" would be one
//! sound step that skips all the reasoning.
//!
//! What the task forbids is `cheating`: citing anything but a listed
//! premise or an earlier step (the conclusion, a background axiom, a later
//! step or the step itself, a premise number out of range), or asserting a
//! clause that cites nothing.

use super::{
    Background, Built, Graph, Reject, Scored, TasksConfig, context_block, str_field, str_list,
};
use crate::logic::{Literal, TermBank};
use crate::prover::{Prover, ProverLimits, Refutation, canonical_clause};
use crate::saturation::ClauseId;
use crate::tasks::{Score, StepVerdict, Verdict};
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Most clauses one step may cite.
pub const MAX_CITATIONS: usize = 2;

/// Given clauses the prover may process to check one step (its other
/// limits are the scoring prover's): a step that needs more is not one
/// inference, and is left undecided (`timeout`) rather than searched for.
/// Every gold step was certified within the generation prover's budget
/// (200 given clauses by default).
pub const STEP_MAX_PROCESSED: u64 = 300;

/// Most steps scored in one answer; a longer answer is `wrong` unread
/// (gold chains have at most 2k - 1 steps, 31 at the default level 4).
pub const MAX_STEPS: usize = 200;

/// One certified step of the gold chain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The derived clause (TPTP text).
    pub clause: String,
    /// What it cites: `P<i>` (a premise) or `S<j>` (an earlier step).
    pub cites: Vec<String>,
    /// Refutation of the cited clauses plus the negated clause.
    pub refutation: Refutation,
}

/// The certificate of a derivation instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// Always `derivation`.
    pub verdict: String,
    /// The gold chain, in order; its last step is the theorem.
    pub steps: Vec<Step>,
}

/// One generation attempt: a proof graph of `t` grown as reconstruction
/// grows it, its steps certified, its leaves shuffled into the premises.
pub fn generate(
    g: &Graph,
    t: &Scored,
    prover: &mut Prover,
    cfg: &TasksConfig,
    level: u8,
    rng: &mut impl Rng,
) -> Result<Built, Reject> {
    let (d, n) = cfg.params(super::Family::Derivation, level);
    let super::recon::CertifiedCut {
        longest,
        nodes,
        steps,
        mut proofs,
        processed,
    } = super::recon::certified_cut(g, t.id, (d, n, 0), prover, rng)?;
    let parents: BTreeMap<ClauseId, [ClauseId; 2]> = steps.into_iter().collect();
    let mut leaves: Vec<ClauseId> = nodes
        .iter()
        .copied()
        .filter(|c| !parents.contains_key(c))
        .collect();
    leaves.sort_unstable();
    leaves.shuffle(rng);
    let mut name: HashMap<ClauseId, String> = leaves
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, format!("P{}", i + 1)))
        .collect();
    // Parents before children: a post-order walk from the theorem.
    let mut chain: Vec<ClauseId> = Vec::new();
    let mut stack: Vec<(ClauseId, bool)> = vec![(t.id, false)];
    while let Some((x, expanded)) = stack.pop() {
        if name.contains_key(&x) {
            continue;
        }
        if expanded {
            name.insert(x, format!("S{}", chain.len() + 1));
            chain.push(x);
            continue;
        }
        stack.push((x, true));
        let [a, b] = parents[&x];
        stack.push((b, false));
        stack.push((a, false));
    }
    let cert_steps: Vec<Step> = chain
        .iter()
        .map(|&c| Step {
            clause: g.text(c),
            cites: parents[&c].iter().map(|p| name[p].clone()).collect(),
            refutation: proofs.remove(&c).expect("every step is certified"),
        })
        .collect();
    let answer = format_chain(cert_steps.iter().map(|s| (s.clause.as_str(), &s.cites[..])));
    let premises: Vec<String> = leaves.iter().map(|&c| g.text(c)).collect();
    let theorem = g.text(t.id);
    let mut meta = g.base_metadata(t, d, n);
    let obj = meta.as_object_mut().expect("object");
    obj.insert("premises".into(), premises.clone().into());
    obj.insert("longest_path".into(), longest.into());
    obj.insert("nodes".into(), nodes.len().into());
    obj.insert("derived".into(), cert_steps.len().into());
    obj.insert("max_citations".into(), MAX_CITATIONS.into());
    obj.insert(
        "prover".into(),
        serde_json::json!({ "calls": cert_steps.len(), "processed": processed }),
    );
    let background = Background::from_metadata(&meta).unwrap_or_default();
    let prompt = render(&g.domain, &background, &premises, &theorem);
    let derived = cert_steps.len();
    let cert = Certificate {
        verdict: "derivation".into(),
        steps: cert_steps,
    };
    Ok(Built {
        prompt,
        answer,
        metadata: meta,
        certificate: serde_json::to_value(&cert).expect("serialisable"),
        key: g.instance_key(&nodes, t.id),
        group: None,
        label: format!("{derived} steps"),
        prover_processed: processed,
    })
}

/// The chain as answer lines: `S<j>: CLAUSE by REF, REF`.
pub fn format_chain<'a>(steps: impl Iterator<Item = (&'a str, &'a [String])>) -> String {
    steps
        .enumerate()
        .map(|(j, (clause, cites))| format!("S{}: {clause} by {}\n", j + 1, cites.join(", ")))
        .collect()
}

/// The prompt of a derivation instance.
pub fn render(domain: &str, context: &Background, premises: &[String], theorem: &str) -> String {
    let mut s = context_block(domain, context);
    s.push_str("\nPremises:\n");
    for (i, p) in premises.iter().enumerate() {
        s.push_str(&format!("P{}. {p}\n", i + 1));
    }
    s.push_str(&format!("\nConclusion:\n{theorem}\n"));
    const _: () = assert!(MAX_CITATIONS == 2, "the prompt says two");
    s.push_str(
        "\nTask: derive the conclusion from the premises, one inference at a time. Write one line per step, the steps numbered S1, S2, ... in order:\n\
         S<j>: CLAUSE by REF, REF\n\
         where CLAUSE is a clause in the notation above and each REF is a premise (P1, P2, ...) or an earlier step (S1, S2, ...). A step cites one or two clauses and must follow from them alone: by resolution, superposition or rewriting with an equation, factoring, or removing a trivially false `t != t` (a short combination of these is accepted). The last step must be the conclusion, up to renaming its variables. Cite nothing else: the background axioms and the conclusion are not available. Write nothing but the steps.\n",
    );
    s
}

/// One step line of an answer as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepLine {
    /// The clause text.
    pub clause: String,
    /// The citations as written (`P2`, `S1`, or anything else a model
    /// wrote after `by`); `None` when the line has no `by`.
    pub cites: Option<Vec<String>>,
}

/// The step label opening `line` (`S3:`, `S3.`, `Step 3:`, `**S3:**`), as
/// (number, rest of the line).
fn step_label(line: &str) -> Option<(usize, &str)> {
    let l = line.trim_start_matches(['-', '*', ' ', '\t']);
    let rest = if l.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("step")) {
        l[4..].trim_start()
    } else {
        l.strip_prefix(['S', 's'])?
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let number = rest[..digits].parse().ok()?;
    let after = rest[digits..].trim_start_matches('*');
    let after = after.strip_prefix([':', '.', ')'])?;
    Some((number, after.trim_start_matches('*').trim()))
}

/// Parses an answer into its step lines. The chain starts at the last line
/// labelled as step 1 (a draft earlier in the reasoning is not the answer)
/// and runs while lines are steps (blank lines skipped); the first other
/// line ends it, and what follows is prose. Steps not numbered 1, 2, ... in
/// order make the answer unreadable.
pub fn parse_chain(answer: &str) -> Result<Vec<StepLine>, String> {
    let lines: Vec<(usize, &str)> = answer
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let start = lines
        .iter()
        .rposition(|(_, l)| step_label(l).is_some_and(|(n, _)| n == 1))
        .ok_or("no step line `S1: CLAUSE by REF, REF`")?;
    let mut out = Vec::new();
    for &(no, line) in &lines[start..] {
        let Some((number, body)) = step_label(line) else {
            break;
        };
        if number != out.len() + 1 {
            return Err(format!(
                "line {}: step S{number} where S{} was expected (steps are numbered S1, S2, ... in order)",
                no + 1,
                out.len() + 1
            ));
        }
        let body = body.trim_end_matches(['.', ' ']);
        let lower = body.to_ascii_lowercase();
        let step = match lower.rfind(" by ").or_else(|| lower.rfind(" by")) {
            Some(at) if lower[at..].trim() == "by" || lower[at..].starts_with(" by ") => {
                let cites = body[at + 3..]
                    .trim()
                    .trim_start_matches([':', '['])
                    .trim_end_matches(']')
                    .split([',', ' ', ';'])
                    .map(|c| c.trim().trim_matches('*').to_string())
                    .filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case("and"))
                    .collect();
                StepLine {
                    clause: body[..at].trim().to_string(),
                    cites: Some(cites),
                }
            }
            _ => StepLine {
                clause: body.trim().to_string(),
                cites: None,
            },
        };
        out.push(step);
    }
    Ok(out)
}

/// A citation: premise `P<i>` or step `S<j>` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Cite {
    Premise(usize),
    Step(usize),
}

fn parse_cite(c: &str) -> Option<Cite> {
    let (kind, num) = c.split_at_checked(1)?;
    let n: usize = num.parse().ok()?;
    match kind {
        "P" | "p" => Some(Cite::Premise(n)),
        "S" | "s" => Some(Cite::Step(n)),
        _ => None,
    }
}

/// The citations of step `j` (1-based) of a chain over `n` premises, or
/// the verdict that ends its check: `cheating` for a citation of anything
/// but a premise in range or an earlier step, or for a step that cites
/// nothing; `wrong` for more than [`MAX_CITATIONS`] clauses.
fn citations(j: usize, cites: &[String], n: usize) -> Result<Vec<Cite>, (Verdict, String)> {
    if cites.is_empty() {
        return Err((
            Verdict::Cheating,
            "cites nothing: a clause asserted without premises adds an axiom".into(),
        ));
    }
    let mut out = BTreeSet::new();
    for c in cites {
        let cite = parse_cite(c).ok_or_else(|| {
            (
                Verdict::Cheating,
                format!("cites `{c}`: only the premises P1-P{n} and earlier steps may be cited"),
            )
        })?;
        match cite {
            Cite::Premise(i) if i == 0 || i > n => {
                return Err((
                    Verdict::Cheating,
                    format!("cites P{i}: the premises are P1-P{n}"),
                ));
            }
            Cite::Step(k) if k == 0 || k >= j => {
                return Err((
                    Verdict::Cheating,
                    format!("cites S{k}: a step may cite only earlier steps"),
                ));
            }
            _ => {}
        }
        out.insert(cite);
    }
    if out.len() > MAX_CITATIONS {
        return Err((
            Verdict::Wrong,
            format!(
                "cites {} clauses; a step cites at most {MAX_CITATIONS}",
                out.len()
            ),
        ));
    }
    Ok(out.into_iter().collect())
}

/// The per-step prover: the scoring prover's limits and strategy with at
/// most [`STEP_MAX_PROCESSED`] given clauses.
fn step_prover(scoring: &Prover) -> Prover {
    let limits = ProverLimits {
        max_processed: scoring.limits.max_processed.min(STEP_MAX_PROCESSED),
        quick_processed: scoring.limits.quick_processed.min(STEP_MAX_PROCESSED),
        ..scoring.limits.clone()
    };
    let mut p = Prover::new(limits);
    p.params = scoring.params.clone();
    p.check_work = crate::tasks::limits::STEP_CHECK_WORK;
    p
}

/// Distinct variables of a clause read by the TPTP parser (numbered
/// densely from 0).
fn clause_vars(bank: &TermBank, lits: &[Literal]) -> usize {
    lits.iter().map(|l| l.var_bound(bank)).max().unwrap_or(0) as usize
}

/// Scores a chain (see the module's rules). The value is the verified
/// steps over the steps written, plus one step owed when the chain does not
/// end in the conclusion, so it is 1 only for a fully verified chain that
/// reaches the conclusion. Sub-metrics: `verified_share` (verified steps
/// over steps) and `reaches_conclusion` (the last step is the conclusion, up
/// to variable names, or implies it). Per-step verdicts are returned in
/// [`Score::steps`].
///
/// Verdicts: `malformed` when no chain can be read; `cheating` when a step
/// cites what the task does not give; `ok` for a fully verified chain;
/// `timeout` when every decided check passed but one ran out of its
/// budget; `wrong` otherwise.
pub fn score(
    meta: &serde_json::Value,
    cert: &serde_json::Value,
    answer: &str,
    scoring: &Prover,
) -> Result<Score, String> {
    let premises = str_list(meta, "premises")?;
    let theorem = str_field(meta, "theorem")?;
    let cert: Certificate =
        serde_json::from_value(cert.clone()).map_err(|e| format!("certificate: {e}"))?;
    let none =
        |s: Score| s.with_metrics(vec![("verified_share", 0.0), ("reaches_conclusion", 0.0)]);
    let chain = match parse_chain(answer) {
        Ok(c) => c,
        Err(e) => return Ok(none(Score::malformed(e))),
    };
    if chain.len() > MAX_STEPS {
        return Ok(none(Score::wrong(format!(
            "{} steps; at most {MAX_STEPS} are read",
            chain.len()
        ))));
    }
    let mut bank = TermBank::new();
    let mut parse = |text: &str| crate::tptp::parse_clause_str(&mut bank, text);
    let premise_lits: Vec<Vec<Literal>> = premises
        .iter()
        .map(|p| parse(p).map_err(|e| format!("premise `{p}`: {e}")))
        .collect::<Result<_, _>>()?;
    let goal = parse(&theorem).map_err(|e| format!("theorem: {e}"))?;
    let step_lits: Vec<Result<Vec<Literal>, String>> = chain
        .iter()
        .map(|s| parse(&s.clause).map_err(|e| e.to_string()))
        .collect();
    let canon = |lits: &[Literal]| canonical_clause(&bank, lits);
    // Size guard (crate::tasks::limits): a step clause far larger than
    // any clause the task shows is malformed before any check.
    let (max_lits, max_vars) = {
        let shown = premise_lits.iter().chain(std::iter::once(&goal));
        let longest = shown.clone().map(|c| c.len()).max().unwrap_or(0);
        let most = shown.map(|c| clause_vars(&bank, c)).max().unwrap_or(0);
        let longest = cert
            .steps
            .iter()
            .fold(longest, |m, s| m.max(s.clause.split('|').count()));
        (
            crate::tasks::limits::step_literal_bound(longest),
            crate::tasks::limits::step_variable_bound(most),
        )
    };
    // Gold steps, by the canonical forms of the clause and of what it
    // cites (in any order): those are verified without a search.
    let gold: HashSet<(String, Vec<String>)> = {
        let mut texts: Vec<String> = Vec::new();
        let mut g = HashSet::new();
        let mut b = TermBank::new();
        let key = |t: &str, b: &mut TermBank| {
            crate::tptp::parse_clause_str(b, t)
                .map(|l| canonical_clause(b, &l))
                .map_err(|e| format!("certificate clause `{t}`: {e}"))
        };
        for s in &cert.steps {
            let mut cited = Vec::new();
            for c in &s.cites {
                let text = match parse_cite(c) {
                    Some(Cite::Premise(i)) => i.checked_sub(1).and_then(|i| premises.get(i)),
                    Some(Cite::Step(k)) => k.checked_sub(1).and_then(|k| texts.get(k)),
                    None => None,
                }
                .ok_or_else(|| format!("certificate cites {c}"))?;
                cited.push(key(text, &mut b)?);
            }
            cited.sort();
            g.insert((key(&s.clause, &mut b)?, cited));
            texts.push(s.clause.clone());
        }
        g
    };
    let mut prover = step_prover(scoring);
    let mut verdicts: Vec<StepVerdict> = Vec::with_capacity(chain.len());
    for (i, step) in chain.iter().enumerate() {
        let j = i + 1;
        let name = format!("S{j}");
        let v = |verdict, detail: String| StepVerdict::new(&name, verdict, detail);
        let lits = match &step_lits[i] {
            Ok(l) => l,
            Err(e) => {
                verdicts.push(v(Verdict::Malformed, format!("clause: {e}")));
                continue;
            }
        };
        if lits.len() > max_lits || clause_vars(&bank, lits) > max_vars {
            verdicts.push(v(
                Verdict::Malformed,
                format!(
                    "clause of {} literals and {} variables; this task's steps have at most {max_lits} and {max_vars}",
                    lits.len(),
                    clause_vars(&bank, lits)
                ),
            ));
            continue;
        }
        let Some(cites) = &step.cites else {
            verdicts.push(v(
                Verdict::Malformed,
                "no `by` naming the clauses it follows from".into(),
            ));
            continue;
        };
        let cites = match citations(j, cites, premises.len()) {
            Ok(c) => c,
            Err((verdict, detail)) => {
                verdicts.push(v(verdict, detail));
                continue;
            }
        };
        let mut cited: Vec<&[Literal]> = Vec::new();
        let mut unreadable = None;
        for c in &cites {
            match *c {
                Cite::Premise(p) => cited.push(&premise_lits[p - 1]),
                Cite::Step(k) => match &step_lits[k - 1] {
                    Ok(l) => cited.push(l),
                    Err(_) => unreadable = Some(k),
                },
            }
        }
        if let Some(k) = unreadable {
            verdicts.push(v(
                Verdict::Wrong,
                format!("cites S{k}, whose clause could not be read"),
            ));
            continue;
        }
        let names: Vec<String> = cites
            .iter()
            .map(|c| match c {
                Cite::Premise(p) => format!("P{p}"),
                Cite::Step(k) => format!("S{k}"),
            })
            .collect();
        let mut key: Vec<String> = cited.iter().map(|l| canon(l)).collect();
        key.sort();
        if gold.contains(&(canon(lits), key)) {
            verdicts.push(v(Verdict::Ok, "a step of the certified chain".into()));
            continue;
        }
        let from = names.join(", ");
        verdicts.push(match prover.prove(&bank, &cited, lits).verdict.label() {
            Some(true) => v(Verdict::Ok, format!("follows from {from}")),
            Some(false) => v(Verdict::Wrong, format!("does not follow from {from}")),
            None => v(
                Verdict::Timeout,
                format!("undecided from {from} within {STEP_MAX_PROCESSED} given clauses"),
            ),
        });
    }
    let m = chain.len();
    let ok = verdicts.iter().filter(|s| s.verdict == Verdict::Ok).count();
    // Does the chain end in the conclusion? A variant of it, or a clause
    // the prover shows implies it.
    let reaches = match &step_lits[m - 1] {
        Err(_) => Some(false),
        Ok(last) if canon(last) == canon(&goal) => Some(true),
        Ok(last) => prover.prove(&bank, &[last], &goal).verdict.label(),
    };
    let share = ok as f64 / m as f64;
    let reached = reaches == Some(true);
    let value = ok as f64 / (m + usize::from(!reached)) as f64;
    let metrics = vec![
        ("verified_share", share),
        ("reaches_conclusion", f64::from(u8::from(reached))),
    ];
    let summary = format!(
        "{ok}/{m} steps verified; {}",
        match reaches {
            Some(true) => "ends in the conclusion",
            Some(false) => "does not end in the conclusion",
            None => "whether the last step gives the conclusion is undecided",
        }
    );
    let first = |verdict: Verdict| {
        verdicts
            .iter()
            .find(|s| s.verdict == verdict)
            .map(|s| format!("{}: {}", s.step, s.detail))
    };
    let s = if let Some(e) = first(Verdict::Cheating) {
        Score::cheating(e).with_metrics(vec![("verified_share", 0.0), ("reaches_conclusion", 0.0)])
    } else if value >= 1.0 {
        Score::correct().with_metrics(metrics)
    } else if let Some(e) = first(Verdict::Wrong).or_else(|| first(Verdict::Malformed)) {
        Score::partial(value, format!("{summary}; first failure {e}")).with_metrics(metrics)
    } else if reaches == Some(false) {
        Score::partial(value, summary).with_metrics(metrics)
    } else {
        // Every decided check passed; a step or the ending is undecided.
        Score::timeout(summary).with_metrics(metrics)
    };
    Ok(s.with_steps(verdicts))
}

/// Re-checks a row: the gold answer is the certified chain, every step's
/// refutation checks with the independent checker, the chain cites only
/// premises and earlier steps (at most [`MAX_CITATIONS`] each), uses every
/// premise, and ends in the theorem.
pub fn verify(
    meta: &serde_json::Value,
    cert: &serde_json::Value,
    gold: &str,
) -> Result<String, String> {
    let premises = str_list(meta, "premises")?;
    let theorem = str_field(meta, "theorem")?;
    let cert: Certificate =
        serde_json::from_value(cert.clone()).map_err(|e| format!("certificate: {e}"))?;
    let chain = parse_chain(gold).map_err(|e| format!("gold answer: {e}"))?;
    let written: Vec<(String, Vec<String>)> = chain
        .iter()
        .map(|s| (s.clause.clone(), s.cites.clone().unwrap_or_default()))
        .collect();
    let certified: Vec<(String, Vec<String>)> = cert
        .steps
        .iter()
        .map(|s| (s.clause.clone(), s.cites.clone()))
        .collect();
    if written != certified {
        return Err("the gold answer differs from the certified chain".into());
    }
    if cert.steps.last().map(|s| &s.clause) != Some(&theorem) {
        return Err("the chain does not end in the theorem".into());
    }
    let mut used = BTreeSet::new();
    for (i, s) in cert.steps.iter().enumerate() {
        let j = i + 1;
        let cites = citations(j, &s.cites, premises.len()).map_err(|(_, e)| format!("S{j} {e}"))?;
        let texts: Vec<String> = cites
            .iter()
            .map(|c| match *c {
                Cite::Premise(p) => {
                    used.insert(p);
                    premises[p - 1].clone()
                }
                Cite::Step(k) => cert.steps[k - 1].clause.clone(),
            })
            .collect();
        super::check_proof(texts, &s.clause, &s.refutation).map_err(|e| format!("S{j}: {e}"))?;
    }
    if used.len() != premises.len() {
        return Err(format!(
            "the chain uses {} of the {} premises",
            used.len(),
            premises.len()
        ));
    }
    Ok(format!("{} steps re-checked", cert.steps.len()))
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    fn instance(level: u8) -> Built {
        first_instance(generate, "derivation", level)
    }

    fn sc(b: &Built, answer: &str) -> Score {
        let s = score(
            &b.metadata,
            &b.certificate,
            answer,
            &Prover::new(ProverLimits::default()),
        )
        .unwrap();
        assert!(s.consistent(), "{s:?}");
        s
    }

    #[test]
    fn gold_verifies_and_scores_one_with_every_step_verified() {
        for level in [1, 2] {
            let b = instance(level);
            let checked = verify(&b.metadata, &b.certificate, &b.answer).unwrap();
            assert!(checked.ends_with("steps re-checked"), "{checked}");
            let s = sc(&b, &b.answer);
            assert_eq!((s.value, s.verdict), (1.0, Verdict::Ok), "{}", s.detail);
            let n = parse_chain(&b.answer).unwrap().len();
            assert_eq!(s.steps.len(), n);
            assert!(s.steps.iter().all(|v| v.verdict == Verdict::Ok));
            assert_eq!(s.metric("verified_share"), Some(1.0));
            // Reasoning before the chain and a closing remark are prose.
            let wrapped = format!("Let me work it out.\n\n{}\nDone.\n", b.answer);
            assert_eq!(sc(&b, &wrapped).value, 1.0);
            assert!(b.prompt.contains("\nP1. "));
        }
    }

    #[test]
    fn the_last_step_must_be_the_conclusion() {
        let b = instance(2);
        let chain = parse_chain(&b.answer).unwrap();
        let cut: Vec<(&str, &[String])> = chain[..chain.len() - 1]
            .iter()
            .map(|s| (s.clause.as_str(), s.cites.as_deref().unwrap()))
            .collect();
        let s = sc(&b, &format_chain(cut.into_iter()));
        assert_eq!(s.verdict, Verdict::Wrong, "{}", s.detail);
        assert!(s.value < 1.0);
        assert_eq!(s.metric("reaches_conclusion"), Some(0.0));
        assert_eq!(s.metric("verified_share"), Some(1.0));
    }

    #[test]
    fn an_unsound_step_is_named_and_cheap_answers_fail() {
        let b = instance(2);
        let chain = parse_chain(&b.answer).unwrap();
        let premises = str_list(&b.metadata, "premises").unwrap();
        let theorem = str_field(&b.metadata, "theorem").unwrap();
        let lines: Vec<String> = b.answer.lines().map(str::to_string).collect();
        // Step 1 claims a fresh atom, which its premises do not give.
        let mut bad = lines.clone();
        bad[0] = format!(
            "S1: fresh_atom_q by {}",
            chain[0].cites.as_ref().unwrap().join(", ")
        );
        let s = sc(&b, &bad.join("\n"));
        assert_eq!(s.verdict, Verdict::Wrong, "{}", s.detail);
        assert_eq!(s.steps[0].verdict, Verdict::Wrong);
        assert!(s.detail.contains("S1"), "{}", s.detail);
        assert!(s.value < 1.0);
        // One leap: the conclusion from every premise.
        let all: Vec<String> = (1..=premises.len()).map(|i| format!("P{i}")).collect();
        let leap = format!("S1: {theorem} by {}", all.join(", "));
        if premises.len() > MAX_CITATIONS {
            let s = sc(&b, &leap);
            assert_ne!(s.verdict, Verdict::Ok, "{}", s.detail);
            assert_eq!(s.value, 0.0);
        }
        // The conclusion asserted, citing nothing or itself or a background
        // axiom: cheating.
        for cheat in [
            format!("S1: {theorem} by"),
            format!("S1: {theorem} by S1"),
            format!("S1: {theorem} by conclusion"),
            format!("S1: {theorem} by P{}", premises.len() + 1),
            format!("S1: {theorem} by A1"),
        ] {
            let s = sc(&b, &cheat);
            assert_eq!(s.verdict, Verdict::Cheating, "{cheat}: {}", s.detail);
            assert_eq!(s.value, 0.0);
        }
        // Prose only, or steps out of order: malformed.
        assert_eq!(
            sc(&b, "The conclusion follows.").verdict,
            Verdict::Malformed
        );
        let skipped = format!("S1: {theorem} by P1\nS3: {theorem} by P2");
        assert_eq!(sc(&b, &skipped).verdict, Verdict::Malformed);
        // A tampered certificate or gold answer fails verify.
        let mut broken = b.certificate.clone();
        broken["steps"][0]["cites"] = serde_json::json!(["P1", "P1"]);
        assert!(verify(&b.metadata, &broken, &b.answer).is_err());
        assert!(verify(&b.metadata, &b.certificate, &bad.join("\n")).is_err());
    }

    #[test]
    fn step_lines_read_in_the_formats_models_write() {
        let c =
            parse_chain("S1: p(X) by P1, P2\n**S2:** q(a) | r by S1 and P3.\nStep 3. s by [S2]")
                .unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].clause, "p(X)");
        assert_eq!(
            c[1].cites.as_deref(),
            Some(&["S1".to_string(), "P3".to_string()][..])
        );
        assert_eq!(c[1].clause, "q(a) | r");
        assert_eq!(c[2].cites.as_deref(), Some(&["S2".to_string()][..]));
        // A symbol named `by` is not the citation keyword.
        let c = parse_chain("S1: p(by(X)) | by by P1").unwrap();
        assert_eq!(c[0].clause, "p(by(X)) | by");
        // Prose after the chain ends it; the last chain from S1 is the answer.
        assert_eq!(
            parse_chain("S1: p by P1\nso then\nS2: q by S1")
                .unwrap()
                .len(),
            1
        );
        let redone = parse_chain("S1: p by P1\nS2: q by S1\nNo, again:\nS1: r by P2").unwrap();
        assert_eq!((redone.len(), redone[0].clause.as_str()), (1, "r"));
        assert!(parse_chain("S1: p by P1\nS3: q by S1").is_err());
        assert!(parse_chain("nothing here").is_err());
        assert_eq!(parse_chain("S1: p").unwrap()[0].cites, None);
    }
}
