//! Step-verified derivation (config `stepwise_derivation`, family
//! `derivation`): the structured formal intermediates of PRoSFI (seed 003),
//! on TPTP theorems. The starting premises of a binary proof graph of a
//! ranked theorem are listed in random order as `P1..Pn` with the theorem as
//! the conclusion; the answer is a chain of numbered steps
//! `S<j>: CLAUSE by REF, REF`, each citing one or two premises or earlier
//! steps, the last one the conclusion.
//!
//! What a step is: exactly one inference of the calculus from the clauses
//! it cites, checked by the independent checker's rule replay
//! ([`crate::checker::StepChecker`], no search): resolution, superposition,
//! rewriting with a unit equation or deleting a literal a unit clause
//! contradicts (two clauses cited); factoring, equality resolution or
//! equality factoring (one clause); a `t != t` left over may be dropped in
//! the same step; the clause is compared up to variable renaming, literal
//! order, equation symmetry and duplicate literals. A step that restates a
//! premise or an earlier step, a tautology, or an inference the conclusion
//! does not descend from is `redundant`: it earns nothing and counts
//! against the chain ([`step_grades`] has the whole rule). The score is the
//! useful steps over the steps written, times [`INCOMPLETE_FACTOR`] when
//! no verified step is the conclusion: 1 only for a chain of verified
//! inferences, each used, reaching the conclusion; padding never raises it
//! (a property test). Per-step verdicts come with the score, so it can
//! serve as a process reward.
//!
//! The graph is the one reconstruction grows ([`super::recon`]: a path of d
//! binary steps from the theorem, then random expansion to a node count in
//! k..2k-1, every step certified by the prover as `PARENT_1, PARENT_2 |-
//! CHILD`); its leaves are the premises and its derived clauses, in an
//! order where parents come first, are the gold chain, rendered from the
//! certificate. A graph with a step that is not one inference (the
//! saturation also collapses a unary inference or a further simplification
//! into a step) is rejected (`not_one_inference`), so every gold step
//! passes the scorer's own check. Citing at most two clauses per step is
//! what keeps the chain a chain: with more, "the conclusion, by every
//! premise" would be one sound step that skips all the reasoning.
//!
//! What the task forbids is `cheating`: citing anything but a listed
//! premise or an earlier step (the conclusion, a background axiom, a later
//! step or the step itself, a premise number out of range), or asserting a
//! clause that cites nothing. The premises are not repeated among the
//! background axioms, which the prompt calls unavailable.

use super::{
    Background, Built, Graph, Reject, Scored, TasksConfig, context_block, str_field, str_list,
};
use crate::checker::{StepChecker, StepClause};
use crate::prover::{Prover, Refutation};
use crate::saturation::ClauseId;
use crate::tasks::{Score, StepGrade, StepVerdict, Verdict};
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Most clauses one step may cite.
pub const MAX_CITATIONS: usize = 2;

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
        ..
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
    // Every gold step must be what the scorer asks of a step: one
    // inference from what it cites (a step the saturation made with a
    // collapsed unary inference or a further simplification is not).
    gold_checks(&premises, &theorem, &cert_steps).map_err(|_| Reject::NotOneInference)?;
    let mut meta = g.base_metadata(t, d, n);
    // The premises are given: the background lists only the other axioms
    // (it says they are not available).
    let given: HashSet<String> = leaves.iter().map(|&c| g.canon(c)).collect();
    let context: Vec<ClauseId> = g
        .context_axioms(t.id)
        .into_iter()
        .filter(|&c| !given.contains(&g.canon(c)))
        .collect();
    Background::of(g, &context).store(&mut meta);
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
         where CLAUSE is a clause in the notation above and each REF is a premise (P1, P2, ...) or an earlier step (S1, S2, ...). Each step is exactly one inference from the one or two clauses it cites: from two clauses, resolution on a pair of complementary literals, superposition (an equation of one clause replaces, at one position, a subterm of the other that unifies with one of its sides), rewriting one clause at one position with a unit equation, or deleting a literal of one clause that a unit clause contradicts; from one clause, factoring (merging two unifiable literals), equality resolution (deleting a literal `s != t` whose sides unify) or equality factoring. A literal `t != t` the inference leaves may be dropped in the same step. CLAUSE is the conclusion under the most general unifier, up to renaming its variables, the order of its literals and the sides of its equations. The last step must be the conclusion, up to renaming its variables. A step that restates a premise or an earlier step, is a tautology, or is not used on the way to the conclusion earns nothing and costs credit. Cite nothing else: the background axioms and the conclusion are not available. Write nothing but the steps.\n",
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

/// Share of credit a chain that does not reach the conclusion keeps at
/// most: its score is this times the share of its useful steps, so the
/// best incomplete chain scores at most half of a complete one.
pub const INCOMPLETE_FACTOR: f64 = 0.5;

/// The local grade of one step, before usefulness is known.
enum Local {
    /// One inference (by the named rule) from what it cites, new and not a
    /// tautology.
    Inference(&'static str),
    /// Anything else: the final verdict and its reason.
    Failed(StepGrade, String),
}

/// Scores a chain (see the module's rules). Each step is checked on its
/// own by [`step_grades`]; the value is then the useful steps over the
/// steps written for a chain that reaches the conclusion, and
/// [`INCOMPLETE_FACTOR`] times that share for one that does not, so it is 1
/// only for a chain in which every step is one verified inference used on
/// the way to the conclusion. A restated or tautological step, or an
/// inference the conclusion does not descend from, earns nothing and adds
/// to the steps written: padding never raises the score. Sub-metrics:
/// `verified_share` (steps that are one inference, new and not a
/// tautology, over steps), `useful_share` (the steps that count, over
/// steps) and `reaches_conclusion`. Per-step verdicts are returned in
/// [`Score::steps`].
///
/// Verdicts: `malformed` when no chain can be read; `cheating` when a step
/// cites what the task does not give; `ok` for a complete chain of useful
/// verified steps; `wrong` otherwise.
pub fn score(meta: &serde_json::Value, answer: &str) -> Result<Score, String> {
    let premises = str_list(meta, "premises")?;
    let theorem = str_field(meta, "theorem")?;
    let none = |s: Score| {
        s.with_metrics(vec![
            ("verified_share", 0.0),
            ("useful_share", 0.0),
            ("reaches_conclusion", 0.0),
        ])
    };
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
    let graded = step_grades(&premises, &theorem, &chain)?;
    let m = chain.len();
    let useful = graded.useful;
    let verified = graded.verified;
    let reached = graded.reached;
    let share = useful as f64 / m as f64;
    let value = if reached {
        share
    } else {
        INCOMPLETE_FACTOR * share
    };
    let metrics = vec![
        ("verified_share", verified as f64 / m as f64),
        ("useful_share", share),
        ("reaches_conclusion", f64::from(u8::from(reached))),
    ];
    let verdicts = graded.steps;
    let first = |grade: StepGrade| {
        verdicts
            .iter()
            .find(|s| s.verdict == grade)
            .map(|s| format!("{}: {}", s.step, s.detail))
    };
    let summary = format!(
        "{useful}/{m} steps verified and used; {}",
        if reached {
            "reaches the conclusion"
        } else {
            "does not reach the conclusion"
        }
    );
    let s = if let Some(e) = first(StepGrade::Cheating) {
        none(Score::cheating(e))
    } else if value >= 1.0 {
        Score::correct().with_metrics(metrics)
    } else {
        let failure = first(StepGrade::Wrong)
            .or_else(|| first(StepGrade::Malformed))
            .or_else(|| first(StepGrade::Redundant));
        let detail = match failure {
            Some(e) => format!("{summary}; first failure {e}"),
            None => summary,
        };
        Score::partial(value, detail).with_metrics(metrics)
    };
    Ok(s.with_steps(verdicts))
}

/// The per-step verdicts of a chain and what the score is made of.
pub struct Graded {
    /// One verdict per step, in order.
    pub steps: Vec<StepVerdict>,
    /// Steps that are one inference, new and not a tautology.
    pub verified: usize,
    /// Verified steps the conclusion (or, in a chain that does not reach
    /// it, the last step) descends from: the steps that earn credit.
    pub useful: usize,
    /// Some verified step is the conclusion (up to renaming its variables).
    pub reached: bool,
}

/// Grades every step of `chain` over `premises` towards `theorem`.
///
/// The rule for a step: it must cite one or two of the premises and
/// earlier steps (anything else is `cheating`; more is `wrong`), and its
/// clause must be, up to variable renaming, literal order, equation
/// symmetry and duplicate literals, the conclusion of exactly one inference
/// of the calculus from the clauses cited ([`StepChecker::one_inference`]:
/// resolution, superposition, rewriting with a unit equation, deletion of
/// a literal contradicted by a unit clause, factoring, equality resolution
/// or factoring, each possibly followed by deleting `t != t`); otherwise it
/// is `wrong`. A step whose clause is a tautology, or a variant of a
/// premise or of an earlier step, is `redundant` whatever it cites. The
/// conclusion is reached by the first verified step that is a variant of
/// the theorem; the useful steps are the verified steps it descends from
/// through the citations of verified and wrong steps (a redundant step
/// passes nothing on), and every other verified step is `redundant` too.
/// In a chain that does not reach the conclusion the last step stands in
/// for it. No search: every check is a bounded enumeration of one
/// inference's conclusions.
pub fn step_grades(
    premises: &[String],
    theorem: &str,
    chain: &[StepLine],
) -> Result<Graded, String> {
    let mut checker = StepChecker::new();
    let premise_cl: Vec<StepClause> = premises
        .iter()
        .map(|p| checker.parse(p).map_err(|e| format!("premise `{p}`: {e}")))
        .collect::<Result<_, _>>()?;
    let goal = checker
        .parse(theorem)
        .map_err(|e| format!("theorem: {e}"))?;
    let step_cl: Vec<Result<StepClause, String>> = chain
        .iter()
        .map(|s| checker.parse(&s.clause).map_err(|e| e.to_string()))
        .collect();
    let n = premises.len();
    let mut local: Vec<Local> = Vec::with_capacity(chain.len());
    let mut cited_steps: Vec<Vec<usize>> = Vec::with_capacity(chain.len());
    for (i, step) in chain.iter().enumerate() {
        let j = i + 1;
        let mut my_steps = Vec::new();
        let grade = (|| {
            let clause = step_cl[i]
                .as_ref()
                .map_err(|e| (StepGrade::Malformed, format!("clause: {e}")))?;
            let cites = step.cites.as_ref().ok_or((
                StepGrade::Malformed,
                "no `by` naming the clauses it follows from".to_string(),
            ))?;
            let cites = citations(j, cites, n).map_err(|(v, d)| (v.into(), d))?;
            let mut cited: Vec<&StepClause> = Vec::new();
            for c in &cites {
                match *c {
                    Cite::Premise(p) => cited.push(&premise_cl[p - 1]),
                    Cite::Step(k) => {
                        my_steps.push(k - 1);
                        match &step_cl[k - 1] {
                            Ok(l) => cited.push(l),
                            Err(_) => {
                                return Err((
                                    StepGrade::Wrong,
                                    format!("cites S{k}, whose clause could not be read"),
                                ));
                            }
                        }
                    }
                }
            }
            if checker.tautology(clause) {
                return Err((StepGrade::Redundant, "a tautology".into()));
            }
            if let Some(p) = premise_cl.iter().position(|p| checker.variant(p, clause)) {
                return Err((StepGrade::Redundant, format!("restates P{}", p + 1)));
            }
            if let Some(k) = step_cl[..i]
                .iter()
                .position(|s| s.as_ref().is_ok_and(|s| checker.variant(s, clause)))
            {
                return Err((StepGrade::Redundant, format!("restates S{}", k + 1)));
            }
            let names: Vec<String> = cites
                .iter()
                .map(|c| match c {
                    Cite::Premise(p) => format!("P{p}"),
                    Cite::Step(k) => format!("S{k}"),
                })
                .collect();
            checker.one_inference(&cited, clause).ok_or_else(|| {
                (
                    StepGrade::Wrong,
                    format!(
                        "not one inference from {} (resolution, superposition, rewriting, factoring, equality resolution or factoring)",
                        names.join(", ")
                    ),
                )
            })
        })();
        local.push(match grade {
            Ok(rule) => Local::Inference(rule),
            Err((g, d)) => Local::Failed(g, d),
        });
        cited_steps.push(my_steps);
    }
    let m = chain.len();
    let is_inference = |i: usize| matches!(local[i], Local::Inference(_));
    let conclusion = (0..m)
        .find(|&i| is_inference(i) && step_cl[i].as_ref().is_ok_and(|c| checker.variant(c, &goal)));
    let root = conclusion.unwrap_or(m - 1);
    // The steps the root descends from, through verified and wrong steps.
    let passes = |i: usize| {
        matches!(
            local[i],
            Local::Inference(_) | Local::Failed(StepGrade::Wrong, _)
        )
    };
    let mut ancestor = vec![false; m];
    let mut stack = vec![root];
    ancestor[root] = true;
    while let Some(i) = stack.pop() {
        if !passes(i) {
            continue;
        }
        for &k in &cited_steps[i] {
            if !ancestor[k] {
                ancestor[k] = true;
                stack.push(k);
            }
        }
    }
    let mut steps = Vec::with_capacity(m);
    let (mut verified, mut useful) = (0, 0);
    for (i, l) in local.into_iter().enumerate() {
        let name = format!("S{}", i + 1);
        steps.push(match l {
            Local::Inference(rule) => {
                verified += 1;
                if ancestor[i] {
                    useful += 1;
                    StepVerdict::new(name, StepGrade::Ok, format!("one {rule} inference"))
                } else {
                    let towards = if conclusion.is_some() {
                        "the conclusion"
                    } else {
                        "the last step"
                    };
                    StepVerdict::new(
                        name,
                        StepGrade::Redundant,
                        format!("one {rule} inference, but {towards} does not use it"),
                    )
                }
            }
            Local::Failed(g, d) => StepVerdict::new(name, g, d),
        });
    }
    Ok(Graded {
        steps,
        verified,
        useful,
        reached: conclusion.is_some(),
    })
}

/// True if every step of the gold chain `steps` (clause and citations) is
/// one inference from what it cites, new and used (see [`step_grades`]).
fn gold_checks(premises: &[String], theorem: &str, steps: &[Step]) -> Result<(), String> {
    let chain: Vec<StepLine> = steps
        .iter()
        .map(|s| StepLine {
            clause: s.clause.clone(),
            cites: Some(s.cites.clone()),
        })
        .collect();
    let g = step_grades(premises, theorem, &chain)?;
    match g.steps.iter().find(|s| s.verdict != StepGrade::Ok) {
        Some(s) => Err(format!("gold {} is {}: {}", s.step, s.verdict, s.detail)),
        None if !g.reached => Err("the gold chain does not reach the theorem".into()),
        None => Ok(()),
    }
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
    gold_checks(&premises, &theorem, &cert.steps)?;
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
        let s = score(&b.metadata, answer).unwrap();
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

    /// A chain as (clause, citations) pairs.
    type Lines = Vec<(String, Vec<String>)>;

    fn lines_of(answer: &str) -> Lines {
        parse_chain(answer)
            .unwrap()
            .into_iter()
            .map(|s| (s.clause, s.cites.unwrap_or_default()))
            .collect()
    }

    fn text(lines: &Lines) -> String {
        format_chain(lines.iter().map(|(c, r)| (c.as_str(), &r[..])))
    }

    /// `lines` with `step` inserted before index `at` (0-based), later
    /// step citations renumbered; `step`'s own citations are as written.
    fn insert(lines: &Lines, at: usize, step: (String, Vec<String>)) -> Lines {
        let shift = |c: &String| match parse_cite(c) {
            Some(Cite::Step(k)) if k > at => format!("S{}", k + 1),
            _ => c.clone(),
        };
        let mut out: Lines = lines
            .iter()
            .map(|(c, r)| (c.clone(), r.iter().map(shift).collect()))
            .collect();
        out.insert(at, step);
        out
    }

    #[test]
    fn padding_earns_nothing_and_costs_credit() {
        let b = instance(2);
        let premises = str_list(&b.metadata, "premises").unwrap();
        let theorem = str_field(&b.metadata, "theorem").unwrap();
        let gold = lines_of(&b.answer);
        // 199 copies of `P1 by P1`.
        let copies: Lines = (0..199)
            .map(|_| (premises[0].clone(), vec!["P1".to_string()]))
            .collect();
        let s = sc(&b, &text(&copies));
        assert_eq!(s.value, 0.0, "{}", s.detail);
        assert!(s.steps.iter().all(|v| v.verdict == StepGrade::Redundant));
        // Twenty tautologies, then the conclusion claimed from them.
        let mut tauts: Lines = (0..20)
            .map(|_| ("p(X) | ~p(X)".to_string(), vec!["P1".to_string()]))
            .collect();
        tauts.push((theorem.clone(), vec!["S19".into(), "S20".into()]));
        let s = sc(&b, &text(&tauts));
        assert_eq!(s.value, 0.0, "{}", s.detail);
        assert_eq!(s.steps[0].verdict, StepGrade::Redundant);
        assert_eq!(s.steps[20].verdict, StepGrade::Wrong);
        // Every premise restated.
        let restated: Lines = (1..=premises.len())
            .map(|i| (premises[i - 1].clone(), vec![format!("P{i}")]))
            .collect();
        assert_eq!(sc(&b, &text(&restated)).value, 0.0);
        // Every premise restated before the gold chain: credit for the gold
        // steps only.
        let mut padded = restated.clone();
        for (c, r) in &gold {
            let r = r
                .iter()
                .map(|x| match parse_cite(x) {
                    Some(Cite::Step(k)) => format!("S{}", k + premises.len()),
                    _ => x.clone(),
                })
                .collect();
            padded.push((c.clone(), r));
        }
        let s = sc(&b, &text(&padded));
        let expect = gold.len() as f64 / (gold.len() + premises.len()) as f64;
        assert!((s.value - expect).abs() < 1e-9, "{} {}", s.value, s.detail);
        assert_eq!(s.metric("reaches_conclusion"), Some(1.0));
        // The gold chain without its last step: at most half.
        let cut: Lines = gold[..gold.len() - 1].to_vec();
        let s = sc(&b, &text(&cut));
        assert!(s.value <= INCOMPLETE_FACTOR, "{}", s.value);
        assert!(s.value > 0.0);
        // A verified inference the conclusion does not use: redundant.
        let extra = insert(&gold, gold.len() - 1, gold[0].clone());
        let s = sc(&b, &text(&extra));
        assert_eq!(s.steps[gold.len() - 1].verdict, StepGrade::Redundant);
        assert!(s.value < 1.0);
    }

    #[test]
    fn a_step_of_two_inferences_is_wrong() {
        // A gold step citing, instead of a derived parent, that parent's own
        // premises (when that still makes at most two citations): two
        // inferences in one step, sound but not what a step is.
        let mut merged_cases = 0;
        for level in 1..=4 {
            let b = instance(level);
            let gold = lines_of(&b.answer);
            for (i, (clause, cites)) in gold.iter().enumerate() {
                for c in cites {
                    let Some(Cite::Step(k)) = parse_cite(c) else {
                        continue;
                    };
                    let mut merged: Vec<String> =
                        cites.iter().filter(|x| *x != c).cloned().collect();
                    merged.extend(gold[k - 1].1.iter().cloned());
                    merged.sort();
                    merged.dedup();
                    if merged.len() > MAX_CITATIONS {
                        continue;
                    }
                    let mut two = gold.clone();
                    two[i] = (clause.clone(), merged);
                    let s = sc(&b, &text(&two));
                    assert_eq!(s.steps[i].verdict, StepGrade::Wrong, "{}", text(&two));
                    assert!(s.value < 1.0);
                    merged_cases += 1;
                }
            }
        }
        assert!(merged_cases > 0, "no step to merge with its parent");
    }

    #[test]
    fn premises_are_not_listed_as_unavailable_background() {
        for level in 1..=4 {
            let b = instance(level);
            let premises: HashSet<String> = str_list(&b.metadata, "premises")
                .unwrap()
                .into_iter()
                .collect();
            for a in str_list(&b.metadata, "context_axioms").unwrap() {
                assert!(!premises.contains(&a), "{a} is a premise and background");
            }
        }
    }

    /// One redundant step for `lines` at `at`, from `pick`: a restated
    /// premise, a restated earlier step, or a tautology, citing something
    /// that exists.
    fn redundant_step(
        premises: &[String],
        lines: &Lines,
        at: usize,
        pick: usize,
    ) -> (String, Vec<String>) {
        let n = premises.len();
        let cite = |x: usize| {
            if at > 0 && x % 2 == 1 {
                format!("S{}", x % at + 1)
            } else {
                format!("P{}", x % n + 1)
            }
        };
        match pick % 3 {
            0 => (premises[pick % n].clone(), vec![cite(pick / 3)]),
            1 if at > 0 => (lines[pick % at].0.clone(), vec![cite(pick / 3)]),
            _ => (
                "member(X0,X1) | ~member(X0,X1)".to_string(),
                vec![cite(pick / 3)],
            ),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Padding never raises a score: inserting a restated premise or
        /// step, or a tautology, anywhere into an answer (the gold chain,
        /// cut, reordered and mixed with its own steps and premises)
        /// leaves the score where it was or lowers it.
        #[test]
        fn padding_never_raises_a_score(
            level in 1u8..=3,
            keep in proptest::collection::vec(0usize..40, 1..12),
            at in 0usize..40,
            pick in 0usize..1000,
        ) {
            let b = instance(level);
            let premises = str_list(&b.metadata, "premises").unwrap();
            let gold = lines_of(&b.answer);
            // A base answer: gold steps picked by `keep` (their citations
            // as in the gold chain when they exist, else P1).
            let base: Lines = keep
                .iter()
                .enumerate()
                .map(|(j, &x)| {
                    let (c, r) = &gold[x % gold.len()];
                    let r = r
                        .iter()
                        .map(|c| match parse_cite(c) {
                            Some(Cite::Step(k)) if k > j => "P1".to_string(),
                            _ => c.clone(),
                        })
                        .collect();
                    (c.clone(), r)
                })
                .collect();
            let at = at % (base.len() + 1);
            let padded = insert(&base, at, redundant_step(&premises, &base, at, pick));
            let before = sc(&b, &text(&base));
            let after = sc(&b, &text(&padded));
            proptest::prop_assert_eq!(after.steps[at].verdict, StepGrade::Redundant);
            proptest::prop_assert!(
                after.value <= before.value,
                "{} -> {}\n{}\n{}",
                before.value,
                after.value,
                text(&base),
                text(&padded)
            );
            // And the full gold chain padded anywhere drops below 1.
            let at = at % (gold.len() + 1);
            let padded = insert(&gold, at, redundant_step(&premises, &gold, at, pick));
            proptest::prop_assert!(sc(&b, &text(&padded)).value < 1.0);
        }
    }
}
