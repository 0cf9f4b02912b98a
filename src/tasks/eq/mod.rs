//! Equational-logic (EQ) problems after ProofGrid's EQ1 (seed 000 §3 and
//! appendix C; spec `pl_eq.md` §5-§6) over the equational core of
//! [`crate::equational`] (language, step checker): a seeded proof generator with
//! difficulty levels, corruptions, and three tasks (proof checking, elided
//! equation recovery, gap filling) with semantic scorers.
//!
//! Data flow of one instance: `instance_rng(seed, ["eq", config, level],
//! index)` → [`crate::equational::generate::generate`] (a correct proof, every step checked and
//! minimal) → corruption or gap → [`record::ProofData`] (names and strings) →
//! prompt, gold answer, metadata (the paper's record fields plus ours) and
//! certificate → the gold answer is scored by the task's own scorer before the
//! instance is accepted.

pub mod audit;
pub mod common;
pub mod er;
pub mod exploits;
pub mod family;
pub mod gf;
#[cfg(test)]
mod paper_example;
pub mod pc;
pub mod record;

pub use crate::equational::generate::{GenParams, Proof};

use crate::equational::corrupt::{Corruption, corrupt_citation, corrupt_contractum, first_failure};
use crate::equational::generate;
use crate::equational::lang;
use crate::equational::step::{self, check_step};
use crate::tasks::family::Built;
use crate::tasks::{Score, TaskError, instance_rng};
use rand::Rng;
use record::{Loaded, PaperRecord, ProofData};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Version of the generator; recorded in every record's metadata. Bump it when
/// the output for a given seed changes (2: gap-filling decoys without fresh
/// symbols, certified by a finite countermodel; 3: corruptions without
/// fresh symbols, decoy indices draw several proofs; 4: levels above 4, and
/// from level 5 gap-filling decoys may relabel above later redexes; 5:
/// decoy countermodels by the incremental model finder, and from level 5
/// every gap ends at the proof's last line, its decoys searched by one model
/// per position; 6: a gap-filling gap is kept only where a decoy can be made,
/// for both labels, so its position tells nothing of the label, and every
/// row's metadata names its audit `group`).
pub const GENERATOR_VERSION: &str = "eq-6";

/// The three EQ tasks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Task {
    /// EQ-PC: proof checking.
    ProofChecking,
    /// EQ-ER: elided-equation recovery (ER-G / ER-L).
    EquationRecovery,
    /// EQ-GF: gap filling.
    GapFilling,
}

impl Task {
    /// Every task, in output order.
    pub const ALL: [Task; 3] = [
        Task::ProofChecking,
        Task::EquationRecovery,
        Task::GapFilling,
    ];

    /// The dataset config (subset) name.
    pub fn config(self) -> &'static str {
        match self {
            Task::ProofChecking => "eq_pc",
            Task::EquationRecovery => "eq_er",
            Task::GapFilling => "eq_gf",
        }
    }

    /// The task named by a config name.
    pub fn from_config(name: &str) -> Option<Task> {
        Task::ALL.into_iter().find(|t| t.config() == name)
    }

    /// One paragraph for the dataset card.
    pub fn description(self) -> &'static str {
        match self {
            Task::ProofChecking => {
                "EQ proof checking: decide whether an equational rewrite proof is correct; explain every redex of every step, or describe the first wrong step. Half of the proofs are corrupted (contractum or citation corruption). Scored strictly (verdict and every detail right); the lenient metric (verdict only) is a sub-metric."
            }
            Task::EquationRecovery => {
                "EQ elided-equation recovery: the justifications of a rewrite proof are removed; name a minimal licensing set of equations for every step, or [] when none exists. Scored per proof (ER-G, full accuracy: every step right, the main score and sub-metric full) and per step (ER-L, the share of steps right: sub-metric per_step)."
            }
            Task::GapFilling => {
                "EQ gap filling: a run of lines of a correct proof is hidden; supply lines (at most two equations each, either direction) that make the proof valid, or [] for a decoy gap. A decoy's line after the gap is changed (another head symbol, swapped arguments, or a subterm of the line before) using only symbols a fillable gap could show, and certified unfillable by a finite model of the equations in which the lines around the gap differ."
            }
        }
    }
}

impl std::fmt::Display for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.config())
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Features {
    steps: usize,
    equations: usize,
    distractors: usize,
    redexes: usize,
    max_redexes_per_step: usize,
    max_term_size: u32,
    start_size: u32,
}

/// The difficulty features of an EQ row, measured on the proof shown (the
/// same names in every config, in this order): rewrite steps, redexes
/// (rewrites) over all steps, equations listed, distractors among them,
/// the largest term of the chain, the symbols of every term and equation,
/// and the licensing candidates: the (equation, position) pairs over all
/// steps that rewrite a step's redex into its contractum
/// ([`step::candidates`]), the search space of the step checker and of a
/// solver naming citations, and the redex options: the (equation side,
/// position) pairs over the terms before each step where a side of a listed
/// equation matches (a variable side excepted), the rewrites a reader
/// weighs.
fn difficulty(p: &Proof) -> Vec<(&'static str, f64)> {
    let w = &p.world;
    let size = |t| f64::from(w.bank.weight(t));
    let symbols: f64 = p.terms.iter().map(|&t| size(t)).sum::<f64>()
        + p.equations
            .iter()
            .map(|e| size(e.lhs) + size(e.rhs))
            .sum::<f64>();
    let candidates: usize = p
        .terms
        .windows(2)
        .map(|st| {
            (0..p.equations.len())
                .map(|e| step::candidates(w, &p.equations, e, st[0], st[1]).len())
                .sum::<usize>()
        })
        .sum();
    // Either side of any equation matching a subterm of the term before a
    // step: the rewrites a reader has to weigh at that step.
    let mut m = crate::logic::Matcher::new();
    let options: usize = p.terms[..p.terms.len() - 1]
        .iter()
        .map(|&s| {
            w.positions(s)
                .iter()
                .map(|pos| {
                    let u = w.subterm(s, pos).expect("own position");
                    p.equations
                        .iter()
                        .flat_map(|e| [e.lhs, e.rhs])
                        .filter(|&side| {
                            m.clear();
                            !w.bank.is_var(side) && m.matches(&w.bank, side, u)
                        })
                        .count()
                })
                .sum::<usize>()
        })
        .sum();
    vec![
        ("proof_steps", p.steps() as f64),
        (
            "redexes",
            p.citations.iter().map(Vec::len).sum::<usize>() as f64,
        ),
        ("equations", p.equations.len() as f64),
        ("distractors", p.distractors as f64),
        (
            "max_term_size",
            p.terms.iter().map(|&t| size(t)).fold(0.0, f64::max),
        ),
        ("symbols", symbols),
        ("licensing_candidates", candidates as f64),
        ("redex_options", options as f64),
    ]
}

fn features(p: &Proof) -> Features {
    let w = &p.world;
    Features {
        steps: p.steps(),
        equations: p.equations.len(),
        distractors: p.distractors,
        redexes: p.citations.iter().map(Vec::len).sum(),
        max_redexes_per_step: p.citations.iter().map(Vec::len).max().unwrap_or(0),
        max_term_size: p.terms.iter().map(|&t| w.bank.weight(t)).max().unwrap_or(0),
        start_size: w.bank.weight(p.terms[0]),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Metadata<'a, I: Serialize> {
    #[serde(flatten)]
    paper: PaperRecord,
    generator_version: &'static str,
    task: &'static str,
    level: u8,
    params: &'a GenParams,
    features: Features,
    details: Value,
    instance: I,
}

/// What every EQ task contributes to a record; [`assemble`] adds the
/// shared metadata (generator version, features) and serialises it.
struct Parts<'a, I: Serialize> {
    task: &'static str,
    level: u8,
    params: &'a GenParams,
    paper: PaperRecord,
    details: Value,
    instance: I,
    prompt: String,
    answer: String,
    certificate: Value,
    key: String,
    label: &'static str,
}

fn assemble<I: Serialize>(proof: &Proof, p: Parts<'_, I>) -> Result<Built, String> {
    let metadata = Metadata {
        paper: p.paper,
        generator_version: GENERATOR_VERSION,
        task: p.task,
        level: p.level,
        params: p.params,
        features: features(proof),
        details: p.details,
        instance: p.instance,
    };
    Ok(Built {
        prompt: p.prompt,
        answer: p.answer,
        metadata: crate::tasks::family::Metadata::of(&metadata).map_err(|e| e.to_string())?,
        certificate: p.certificate.to_string(),
        key: p.key,
        group: None,
        label: p.label.to_string(),
        domain: None,
        source: Some(format!("generator:{GENERATOR_VERSION}")),
        difficulty: difficulty(proof),
        stats: Vec::new(),
    })
}

/// The checker's verdict on every step of a loaded proof.
fn step_report(l: &Loaded) -> Vec<Value> {
    let w = &l.world;
    (1..l.terms.len())
        .map(
            |i| match check_step(w, &l.eqs, l.terms[i - 1], l.terms[i], &l.citations[i]) {
                Ok(ws) => json!({
                    "step": i,
                    "holds": true,
                    "rewrites": ws.iter().map(|x| json!({
                        "equation": l.eqs[x.eq].name,
                        "position": lang::dewey(&x.pos),
                        "redex": w.show(x.redex),
                        "contractum": w.show(x.contractum),
                    })).collect::<Vec<_>>(),
                }),
                Err(e) => json!({"step": i, "holds": false, "reason": e.describe(&l.eqs)}),
            },
        )
        .collect()
}

fn params_for(task: Task, level: u8) -> Option<GenParams> {
    let mut p = GenParams::level(level)?;
    if task == Task::GapFilling {
        p.balanced = true;
        p.max_redexes = p.max_redexes.min(2);
    }
    Some(p)
}

/// Builds instance `index` of `task` at `level` for run seed `run_seed`.
/// `Ok(None)`: the generator found no instance of the wanted kind for this
/// index (counted, skipped). `Err`: an internal consistency check failed (a
/// bug: the loop rejects the instance and lists it).
pub fn build(task: Task, level: u8, run_seed: u64, index: u64) -> Result<Option<Built>, TaskError> {
    build_checked(task, level, run_seed, index).map_err(TaskError::Check)
}

fn build_checked(
    task: Task,
    level: u8,
    run_seed: u64,
    index: u64,
) -> Result<Option<Built>, String> {
    let params = params_for(task, level).ok_or_else(|| format!("no level {level}"))?;
    let lv = level.to_string();
    let mut rng = instance_rng(run_seed, &["eq", task.config(), &lv], index);
    let Some(proof) = generate::generate(&params, &mut rng) else {
        return Ok(None);
    };
    match task {
        Task::ProofChecking => build_pc(proof, &params, level, index, &mut rng),
        Task::EquationRecovery => build_er(proof, &params, level, index, &mut rng),
        Task::GapFilling => build_gf(proof, &params, level, index, &mut rng),
    }
}

fn corruption_json(p: &Proof, c: &Corruption) -> Value {
    let w = &p.world;
    match c {
        Corruption::Contractum {
            step,
            redex,
            correct,
            actual,
        } => json!({
            "corruptionMethod": c.method(), "step": step, "redex": redex + 1,
            "correctContractum": w.show(*correct), "actualContractum": w.show(*actual),
        }),
        Corruption::Citation { step, original } => json!({
            "corruptionMethod": c.method(), "step": step,
            "originalEquations": original.iter().map(|&e| p.equations[e].name.clone()).collect::<Vec<_>>(),
            "givenEquations": p.citations[*step].iter().map(|&e| p.equations[e].name.clone()).collect::<Vec<_>>(),
        }),
    }
}

fn self_check(task: Task, s: &Score) -> Result<(), String> {
    if s.value == 1.0 {
        Ok(())
    } else {
        Err(format!(
            "{}: the gold answer does not pass the scorer: {}",
            task.config(),
            s.detail
        ))
    }
}

fn build_pc(
    mut proof: Proof,
    params: &GenParams,
    level: u8,
    index: u64,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Result<Option<Built>, String> {
    let corruption = if index % 2 == 1 {
        let c = if rng.random_bool(0.6) {
            corrupt_contractum(&mut proof, rng).or_else(|| corrupt_citation(&mut proof, rng))
        } else {
            corrupt_citation(&mut proof, rng).or_else(|| corrupt_contractum(&mut proof, rng))
        };
        match c {
            Some(c) => Some(c),
            None => return Ok(None),
        }
    } else {
        None
    };
    let incorrect = first_failure(&proof).map(|f| f.0);
    if incorrect != corruption.as_ref().map(Corruption::step) {
        return Err(format!(
            "eq_pc: first failing step {incorrect:?} is not the corrupted step"
        ));
    }
    let data = ProofData::from_proof(&proof);
    let l = data.load()?;
    let w = &proof.world;
    let answer = match &corruption {
        None => pc::gold_correct(&l)?,
        Some(Corruption::Contractum {
            step,
            redex,
            correct,
            actual,
        }) => {
            let x = &proof.witnesses[*step][*redex];
            pc::gold_contractum(
                *step,
                &proof.equations[x.eq].name,
                &x.pos,
                &w.show(*actual),
                &w.show(*correct),
            )
        }
        Some(Corruption::Citation { step, original }) => pc::gold_citation(
            *step,
            data.citations[*step].clone(),
            original
                .iter()
                .map(|&e| proof.equations[e].name.clone())
                .collect(),
        ),
    };
    let inst = pc::PcInstance { proof: data };
    self_check(Task::ProofChecking, &pc::score(&inst, &answer))?;
    let details = json!({
        "corruption": corruption.as_ref().map(|c| corruption_json(&proof, c)),
    });
    let certificate = json!({
        "verdict": if incorrect.is_none() { "correct" } else { "incorrect" },
        "incorrectStep": incorrect.map_or(-1, |s| s as i64),
        "steps": step_report(&l),
        "goldAnswerScore": 1.0,
    });
    let key = common::canonical_key("eq_pc", &l, "");
    let paper = PaperRecord::new(&proof, corruption.as_ref(), incorrect);
    assemble(
        &proof,
        Parts {
            task: "eq_pc",
            level,
            params,
            paper,
            details,
            instance: &inst,
            prompt: pc::prompt(&inst.proof),
            answer,
            certificate,
            key,
            label: if incorrect.is_none() {
                "correct"
            } else {
                "incorrect"
            },
        },
    )
    .map(Some)
}

fn build_er(
    mut proof: Proof,
    params: &GenParams,
    level: u8,
    index: u64,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Result<Option<Built>, String> {
    let corruption = if index % 4 == 3 {
        match corrupt_contractum(&mut proof, rng) {
            Some(c) => Some(c),
            None => return Ok(None),
        }
    } else {
        None
    };
    let incorrect = first_failure(&proof).map(|f| f.0);
    let data = ProofData::from_proof(&proof);
    let l = data.load()?;
    let answer = er::gold(&l);
    let inst = er::ErInstance { proof: data };
    let s = er::score(&inst, &answer);
    self_check(Task::EquationRecovery, &s.score)?;
    let details = json!({
        "corruption": corruption.as_ref().map(|c| corruption_json(&proof, c)),
    });
    let certificate = json!({
        "verdict": if incorrect.is_none() { "every step licensed by its citation" } else { "corrupted" },
        "steps": step_report(&l),
        "goldAnswerScore": 1.0,
        "unlicensedStepsCertifiedBy": "exhaustive cover search over all equations (step::find_cover)",
    });
    let key = common::canonical_key("eq_er", &l, "");
    let paper = PaperRecord::new(&proof, corruption.as_ref(), incorrect);
    assemble(
        &proof,
        Parts {
            task: "eq_er",
            level,
            params,
            paper,
            details,
            instance: &inst,
            prompt: er::prompt(&inst.proof),
            answer,
            certificate,
            key,
            label: if corruption.is_none() {
                "correct"
            } else {
                "corrupted"
            },
        },
    )
    .map(Some)
}

/// Proofs a gap-filling index may draw before giving up.
const DECOY_PROOFS: usize = 6;

/// The same from level 5: decoys per 200 rows at levels 5-8 were
/// 46/39/29/32 with 6 draws and are 49/48/46/44 with 16.
const DECOY_PROOFS_DEEP: usize = 16;

fn build_gf(
    proof: Proof,
    params: &GenParams,
    level: u8,
    index: u64,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Result<Option<Built>, String> {
    let decoy = index % 4 == 3;
    // A gap is kept only where a decoy can be made, fillable or not
    // (gf::make_gap), which long proofs rarely allow: every index draws up
    // to DECOY_PROOFS proofs, so the decoy share stays near one in four at
    // every level instead of falling with proof length (before: 25/22/16/5.5%
    // at levels 1-4, so "always fillable" scored 94.5% at level 4), and both
    // labels come from proofs drawn the same way.
    let mut proof = proof;
    // Long proofs (level 5 on) rarely leave a position outside every later
    // redex or a random change the equations cannot undo: there every gap
    // ends at the proof's last line and every change at a position is tried
    // against one model (gf::change_deep).
    let deep = level >= 5;
    let mut found = gf::make_gap(&proof, decoy, deep, rng);
    let draws = if deep {
        DECOY_PROOFS_DEEP
    } else {
        DECOY_PROOFS
    };
    for _ in 1..draws {
        if found.is_some() {
            break;
        }
        let Some(p) = generate::generate(params, rng) else {
            break;
        };
        proof = p;
        found = gf::make_gap(&proof, decoy, deep, rng);
    }
    let Some((inst, construction)) = found else {
        return Ok(None);
    };
    let l = inst.proof.load()?;
    let cert = gf::decoy_certificate(&inst, &l).map_err(|e| format!("eq_gf: {e}"))?;
    if cert.is_some() != decoy {
        return Err(format!(
            "eq_gf: decoy certificate {} for a {} gap",
            if cert.is_some() { "holds" } else { "fails" },
            if decoy { "decoy" } else { "fillable" }
        ));
    }
    let answer = gf::gold(&inst, cert.as_ref());
    self_check(Task::GapFilling, &gf::score(&inst, &answer))?;
    let details = json!({
        "gap": {"gapStart": inst.gap_start, "gapLength": inst.gap_len, "decoy": decoy},
    });
    let certificate = json!({
        "verdict": if decoy { "unfillable" } else { "fillable" },
        "decoy": cert.as_ref().map(|c| json!({
            "construction": construction,
            "countermodelSize": c.model_size,
            "valueBefore": c.value_before,
            "valueAfter": c.value_after,
            "checkedBy": "every equation evaluated under every assignment in the countermodel stored in the instance",
        })),
        "fill": if decoy { Value::Null } else {
            json!({"steps": (inst.gap_start..=inst.gap_start + inst.gap_len).collect::<Vec<_>>(),
                   "checkedBy": "step checker on the removed lines"})
        },
        "steps": step_report(&l),
        "goldAnswerScore": 1.0,
    });
    let key = common::canonical_key(
        "eq_gf",
        &l,
        &format!("{}/{}/{decoy}", inst.gap_start, inst.gap_len),
    );
    let paper = PaperRecord::new(&proof, None, None);
    assemble(
        &proof,
        Parts {
            task: "eq_gf",
            level,
            params,
            paper,
            details,
            instance: &inst,
            prompt: gf::prompt(&inst),
            answer,
            certificate,
            key,
            label: if decoy { "decoy" } else { "fillable" },
        },
    )
    .map(|mut b| {
        b.difficulty.push(("gap_lines", inst.gap_len as f64));
        Some(b)
    })
}

#[derive(Deserialize)]
struct WithInstance<I> {
    instance: I,
}

/// Scores a model answer against a record's metadata. For EQ-ER the value is
/// the ER-G credit; use [`score_er`] for ER-L too.
pub fn score(task: Task, metadata: &str, answer: &str) -> Score {
    let bad = |e: serde_json::Error| Score::malformed(format!("record metadata: {e}"));
    match task {
        Task::ProofChecking => match serde_json::from_str::<WithInstance<pc::PcInstance>>(metadata)
        {
            Ok(m) => pc::score_row(&m.instance, answer),
            Err(e) => bad(e),
        },
        Task::EquationRecovery => match score_er(metadata, answer) {
            Ok(s) => s.into_score(),
            Err(e) => Score::malformed(e),
        },
        Task::GapFilling => match serde_json::from_str::<WithInstance<gf::GfInstance>>(metadata) {
            Ok(m) => gf::score(&m.instance, answer),
            Err(e) => bad(e),
        },
    }
}

/// Scores an EQ-ER answer against a record's metadata (ER-G and ER-L).
pub fn score_er(metadata: &str, answer: &str) -> Result<er::ErScore, String> {
    let m: WithInstance<er::ErInstance> =
        serde_json::from_str(metadata).map_err(|e| format!("record metadata: {e}"))?;
    Ok(er::score(&m.instance, answer))
}

/// Re-checks a record from its stored text (`saturate verify`): the gold
/// answer is scored against the instance in the metadata. Every EQ scorer
/// derives the truth from the instance itself with the step checker (which
/// steps hold, which citations license them, whether a gap has a fill or a
/// decoy certificate), never from the gold answer, so full credit for the
/// gold answer re-certifies its label. EQ-ER needs full ER-G and ER-L
/// credit. `Ok` says what was checked.
pub fn verify_record(task: Task, metadata: &str, gold: &str) -> Result<String, String> {
    let s = match task {
        Task::EquationRecovery => {
            let er = score_er(metadata, gold)?;
            if er.steps_right != er.steps {
                return Err(format!(
                    "gold recovers {} of {} steps: {}",
                    er.steps_right, er.steps, er.score.detail
                ));
            }
            er.score
        }
        _ => score(task, metadata, gold),
    };
    if !s.well_formed || s.value < 1.0 {
        return Err(format!("gold answer re-scored {}: {}", s.value, s.detail));
    }
    Ok(format!(
        "gold answer re-scored 1 by the step checker ({})",
        task.config()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn built_instances_score_their_gold_and_keep_paper_fields() {
        for task in Task::ALL {
            for level in 1..=4 {
                let mut labels = std::collections::BTreeSet::new();
                // Certified GF decoys are rare at levels 3-4 (long proofs
                // leave few positions outside every later redex): more
                // indices there.
                let indices = if task == Task::GapFilling { 48 } else { 8 };
                for index in 0..indices {
                    let Some(b) = build(task, level, 9, index).unwrap() else {
                        continue;
                    };
                    labels.insert(b.label.clone());
                    let s = score(task, &b.metadata.to_string(), &b.answer);
                    assert_eq!((s.value, s.well_formed), (1.0, true), "{}", s.detail);
                    // The gold answer is right on every sub-metric too
                    // (gap filling reports none).
                    assert_eq!(s.metrics.is_empty(), matches!(task, Task::GapFilling));
                    assert!(s.metrics.iter().all(|m| m.1 == 1.0), "{:?}", s.metrics);
                    let m: Value = serde_json::from_str(&b.metadata.to_string()).unwrap();
                    for k in [
                        "start",
                        "end",
                        "equationalAxioms",
                        "numberOfProofSteps",
                        "correctProof",
                        "incorrectStep",
                        "proof",
                    ] {
                        assert!(m.get(k).is_some(), "{k} missing");
                    }
                    let s = score(task, &b.metadata.to_string(), "not json");
                    assert!(!s.well_formed && s.value == 0.0);
                    assert_eq!(b, build(task, level, 9, index).unwrap().unwrap());
                }
                assert!(labels.len() == 2, "{task:?} level {level}: {labels:?}");
            }
        }
    }

    /// `verify_record` re-certifies every gold answer from the record, and
    /// rejects a flipped verdict or another instance's answer.
    #[test]
    fn verify_accepts_gold_records_and_rejects_tampered_ones() {
        for task in Task::ALL {
            for level in 1..=4 {
                let built: Vec<Built> = (0..6)
                    .filter_map(|i| build(task, level, 9, i).unwrap())
                    .collect();
                assert!(built.len() >= 2, "{task:?} level {level}");
                for (k, b) in built.iter().enumerate() {
                    let ok = verify_record(task, &b.metadata.to_string(), &b.answer);
                    assert!(ok.is_ok(), "{task:?} level {level}: {ok:?}");
                    let other = &built[(k + 1) % built.len()];
                    assert!(
                        verify_record(task, &b.metadata.to_string(), &other.answer).is_err(),
                        "{task:?} level {level}: another instance's answer accepted"
                    );
                    if task == Task::ProofChecking {
                        let mut g: Value = serde_json::from_str(&b.answer).unwrap();
                        let c = g["correct"].as_bool().unwrap();
                        g["correct"] = Value::Bool(!c);
                        assert!(
                            verify_record(task, &b.metadata.to_string(), &g.to_string()).is_err()
                        );
                    }
                }
            }
        }
    }

    /// Every row carries the difficulty features, in one order, measured
    /// on its proof; they grow from level 4 to level 6.
    #[test]
    fn rows_carry_difficulty_features_that_grow_with_the_level() {
        let names = |b: &Built| b.difficulty.iter().map(|d| d.0).collect::<Vec<_>>();
        let common = [
            "proof_steps",
            "redexes",
            "equations",
            "distractors",
            "max_term_size",
            "symbols",
            "licensing_candidates",
            "redex_options",
        ];
        let mut steps = BTreeMap::new();
        for task in Task::ALL {
            for level in [4u8, 6] {
                let b = (0..4)
                    .find_map(|i| build(task, level, 9, i).unwrap())
                    .expect("a row");
                let mut want = common.to_vec();
                if task == Task::GapFilling {
                    want.push("gap_lines");
                }
                assert_eq!(names(&b), want, "{task:?}");
                let m: Value = serde_json::from_str(&b.metadata.to_string()).unwrap();
                let d: BTreeMap<&str, f64> = b.difficulty.iter().copied().collect();
                assert_eq!(
                    d["proof_steps"],
                    m["numberOfProofSteps"].as_f64().unwrap(),
                    "{task:?}"
                );
                assert_eq!(d["equations"], m["features"]["equations"].as_f64().unwrap());
                assert!(d["redexes"] >= d["proof_steps"]);
                // Every step of a correct proof has a licensing candidate
                // per redex at least.
                if b.label == "correct" || b.label == "fillable" {
                    assert!(d["licensing_candidates"] >= d["redexes"], "{d:?}");
                }
                // Each redex's own equation side matches where it is used.
                assert!(d["redex_options"] >= d["licensing_candidates"].min(d["redexes"]));
                assert!(verify_record(task, &b.metadata.to_string(), &b.answer).is_ok());
                steps.insert((task, level), d["proof_steps"]);
            }
            assert!(steps[&(task, 6)] > steps[&(task, 4)], "{task:?}: {steps:?}");
        }
    }

    /// From level 5 every gap ends at the proof's last line, whatever its
    /// kind, and indices of either kind mostly find a gap where a decoy
    /// certifies (at level 8, 11 of the 50 decoy indices of 200 rows did
    /// before the one-model-per-position search; fillable indices need one
    /// too since eq-6).
    #[test]
    fn deep_gaps_close_the_proof_and_decoys_keep_their_share() {
        let (mut decoys, mut fillable) = (0, 0);
        for index in 0..40u64 {
            let Some(b) = build(Task::GapFilling, 8, 9, index).unwrap() else {
                continue;
            };
            let m: Value = serde_json::from_str(&b.metadata.to_string()).unwrap();
            let inst = &m["instance"];
            let lines = inst["proof"]["terms"].as_array().unwrap().len() as u64;
            let end = inst["gapStart"].as_u64().unwrap() + inst["gapLen"].as_u64().unwrap();
            assert_eq!(
                end,
                lines - 1,
                "index {index}: the gap ends before the last line"
            );
            assert_eq!(b.label == "decoy", index % 4 == 3);
            assert!(verify_record(Task::GapFilling, &b.metadata.to_string(), &b.answer).is_ok());
            if b.label == "decoy" {
                decoys += 1;
            } else {
                fillable += 1;
            }
        }
        assert!(
            fillable >= 24,
            "{fillable} of 30 fillable indices found a gap"
        );
        assert!(decoys >= 7, "{decoys} of 10 decoy indices found a decoy");
    }

    #[test]
    fn both_corruption_methods_occur() {
        let mut methods = std::collections::BTreeSet::new();
        for i in (1..60).step_by(2) {
            let b = build(Task::ProofChecking, 2, 4, i).unwrap().unwrap();
            let m: Value = serde_json::from_str(&b.metadata.to_string()).unwrap();
            let c = &m["details"]["corruption"];
            methods.insert(c["corruptionMethod"].as_str().unwrap().to_string());
            assert_eq!(m["incorrectStep"], c["step"]);
        }
        assert_eq!(methods.len(), 2, "{methods:?}");
    }

    #[test]
    fn pc_labels_are_balanced_by_index() {
        let b0 = build(Task::ProofChecking, 2, 1, 0).unwrap().unwrap();
        let b1 = build(Task::ProofChecking, 2, 1, 1).unwrap().unwrap();
        assert_eq!(b0.label, "correct");
        assert_eq!(b1.label, "incorrect");
        let m: Value = serde_json::from_str(&b1.metadata.to_string()).unwrap();
        assert_eq!(m["correctProof"], json!(false));
        assert!(m["incorrectStep"].as_i64().unwrap() >= 1);
    }
}
