//! EQ-GF, gap filling (spec `pl_eq.md` §5.6): one run of consecutive lines of
//! a correct proof is replaced by `?? ??`; the model supplies the missing
//! lines (each citing at most two equations, read in either direction) or
//! `[]` when the gap cannot be filled. Correct iff the spliced proof checks;
//! for a decoy iff the answer is `[]`.
//!
//! Decoys are certified, never labelled by a failed search. The term after
//! the gap (and the later lines, at the same position) is changed at a
//! position outside every later redex by one of three constructions: another
//! head symbol of the same arity, two arguments swapped, or a subterm
//! replaced by a ground subterm of the line before the gap. Every symbol of
//! the new line already occurs in the equations or in the line before the
//! gap, as in a fillable gap (balanced equations create no symbol), so no
//! symbol-occurrence feature tells decoys apart. The decoy is kept only
//! with a finite countermodel ([`super::countermodel`]): every equation
//! holds in it, the lines before and after the gap differ in it, so no
//! chain of steps links them. The changed position lies outside every later
//! redex, so the rest of the proof still checks.
//!
//! From level 5 (proofs of 31 steps and more, where positions outside every
//! later redex grow rare) every gap, fillable or decoy, ends at the proof's
//! last line, and a decoy is searched by `change_deep`: all changes at a
//! position against one model. Drawing the gap anywhere and keeping the
//! decoys that certify put 46 of 48 level-5 decoys at the end against
//! fillable gaps in the middle (gap position told the label: +9 points).

use super::common::{
    LANGUAGE, as_names, as_str, field, parse_answer, render_equations, render_line, resolve,
    unlisted_equation,
};
use crate::equational::countermodel;
use crate::equational::generate::Proof;
use super::record::{Loaded, ProofData};
use crate::certificate::FiniteModel;
use crate::equational::lang::{Pos, World, disjoint};
use crate::equational::step::check_either;
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

/// How a decoy's line after the gap was changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Construction {
    /// A head symbol replaced by another of the same arity.
    Relabel,
    /// Two arguments of a subterm swapped.
    Swap,
    /// A subterm replaced by a ground subterm of the line before the gap.
    Graft,
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

/// Model searches allowed per decoy instance (each bounded by budgets).
const MAX_SEARCHES: usize = 8;

/// Cuts a gap into a correct proof (generated with balanced equations and
/// at most two redexes per step); with `decoy`, changes the line after the
/// gap as described in the module documentation. With `deep` (level 5 on)
/// the gap, fillable or not, ends at the proof's last line and a decoy is
/// made by `change_deep`. `None` if no gap of the wanted kind was found.
///
/// The gap is placed the same way for both labels: a drawn gap is kept
/// only where a certified decoy can be made, and a fillable gap then
/// leaves the line after it unchanged. A decoy needs a position outside
/// every later redex, which the proof's last line always has and earlier
/// lines often lack, so keeping only the decoys that certify put them at
/// the end far more often than fillable gaps (level 4: "the gap ends
/// before the last line, so it cannot be filled" 0.88 against the 0.80
/// majority). With the same random stream both labels draw the same
/// changes and keep the same gap; only the decoy's line after it differs.
pub fn make_gap(
    p: &Proof,
    decoy: bool,
    deep: bool,
    rng: &mut ChaCha8Rng,
) -> Option<(GfInstance, Option<Construction>)> {
    let n = p.steps();
    if n < 2 {
        return None;
    }
    let mut searches = 0;
    // A decoy needs a position outside every later redex, which long
    // proofs often lack: many gaps are tried (an empty try is cheap).
    for _ in 0..GAP_TRIES {
        let (gap_start, gap_len) = if deep {
            // From level 5 the gap closes the proof, for both kinds.
            let len = rng.random_range(1..=(n - 1).min(4));
            (n - len, len)
        } else {
            let start = rng.random_range(1..n);
            (start, rng.random_range(1..=(n - start).min(4)))
        };
        let mut q = p.clone();
        let Some((model, construction)) =
            change_after_gap(&mut q, gap_start, gap_len, deep, rng, &mut searches)
        else {
            if searches >= MAX_SEARCHES {
                return None;
            }
            continue;
        };
        // A fillable gap keeps the proof as it was.
        let (shown, countermodel) = if decoy { (&q, Some(model)) } else { (p, None) };
        let inst = GfInstance {
            proof: ProofData::from_proof(shown),
            gap_start,
            gap_len,
            decoy,
            countermodel,
        };
        return Some((inst, decoy.then_some(construction)));
    }
    None
}

/// Gap positions [`make_gap`] draws before giving up on a proof.
const GAP_TRIES: usize = 80;

/// The changes on offer at subterm `u` (`allowed`: the symbols a fillable
/// gap could show; `grafts`: the ground subterms of the line before the
/// gap): other head symbols of `u`'s arity, pairs of different arguments to
/// swap, and grafts at most two symbols larger than `u`.
struct Offers {
    relabels: Vec<SymbolId>,
    swaps: Vec<(usize, usize)>,
    grafts: Vec<TermId>,
}

impl Offers {
    fn at(w: &World, u: TermId, allowed: &[SymbolId], grafts: &[TermId]) -> Offers {
        let f = w.bank.sym(u);
        let args = w.bank.args(u);
        let size = w.bank.weight(u);
        Offers {
            relabels: allowed
                .iter()
                .copied()
                .filter(|&g| g != f && w.arity_of(g) == args.len())
                .collect(),
            swaps: (0..args.len())
                .flat_map(|i| (i + 1..args.len()).map(move |k| (i, k)))
                .filter(|&(i, k)| args[i] != args[k])
                .collect(),
            grafts: grafts
                .iter()
                .copied()
                .filter(|&v| v != u && w.bank.weight(v) <= size + 2)
                .collect(),
        }
    }
}

/// `u`'s arguments with `i` and `k` swapped.
fn swapped(w: &World, u: TermId, (i, k): (usize, usize)) -> Vec<TermId> {
    let mut args = w.bank.args(u).to_vec();
    args.swap(i, k);
    args
}

/// One random change at `u` by construction `c` ([`Offers`]), if one
/// applies.
fn changed(
    p: &mut Proof,
    u: TermId,
    c: Construction,
    allowed: &[SymbolId],
    grafts: &[TermId],
    rng: &mut ChaCha8Rng,
) -> Option<TermId> {
    let w = &mut p.world;
    let offers = Offers::at(w, u, allowed, grafts);
    match c {
        Construction::Relabel => {
            let others = &offers.relabels;
            let g = *others.get(rng.random_range(0..others.len().max(1)))?;
            let args = w.bank.args(u).to_vec();
            Some(w.bank.app(g, &args))
        }
        Construction::Swap => {
            let pairs = &offers.swaps;
            let &pair = pairs.get(rng.random_range(0..pairs.len().max(1)))?;
            let args = swapped(w, u, pair);
            let f = w.bank.sym(u);
            Some(w.bank.app(f, &args))
        }
        Construction::Graft => {
            let near = &offers.grafts;
            near.get(rng.random_range(0..near.len().max(1))).copied()
        }
    }
}

/// Positions of line `j` outside every later redex (so later steps still
/// check), shuffled; those also outside the redexes of the step into line
/// `j` come first, so that line looks as plausible as the others.
fn stable_positions(p: &Proof, j: usize, rng: &mut ChaCha8Rng) -> Vec<Pos> {
    let n = p.steps();
    let mut stable: Vec<(bool, Pos)> = p
        .world
        .positions(p.terms[j])
        .into_iter()
        .filter(|pos| (j + 1..=n).all(|k| p.witnesses[k].iter().all(|x| disjoint(&x.pos, pos))))
        .map(|pos| (!p.witnesses[j].iter().all(|x| disjoint(&x.pos, &pos)), pos))
        .collect();
    stable.shuffle(rng);
    stable.sort_by_key(|(touched, _)| *touched);
    stable.into_iter().map(|(_, pos)| pos).collect()
}

/// The symbols a fillable gap's line after could show (those of `before`
/// and the equations), and the ground subterms of `before` (graft sources).
fn allowed_and_grafts(p: &Proof, before: TermId) -> (Vec<SymbolId>, Vec<TermId>) {
    let mut allowed = Vec::new();
    p.world.symbols_in(before, &mut allowed);
    for e in &p.equations {
        p.world.symbols_in(e.lhs, &mut allowed);
        p.world.symbols_in(e.rhs, &mut allowed);
    }
    allowed.sort();
    allowed.dedup();
    let mut grafts: Vec<TermId> = p
        .world
        .positions(before)
        .iter()
        .filter_map(|pos| p.world.subterm(before, pos))
        .collect();
    grafts.sort();
    grafts.dedup();
    (allowed, grafts)
}

/// `q` with the subterm at `pos` of lines `j..` replaced by `new` (a term
/// of `q`'s bank).
fn replaced(mut q: Proof, j: usize, pos: &Pos, new: TermId) -> Proof {
    for k in j..=q.steps() {
        let t = q.terms[k];
        q.terms[k] = q.world.bank.replace_at(t, pos, new);
    }
    q
}

/// Changes the line after the gap (and the later lines) into a certified
/// decoy; the countermodel and construction, or `None`. With `deep` (level
/// 5 on) the search is [`change_deep`]'s; otherwise one random change per
/// position outside every later redex, each searched for a countermodel.
fn change_after_gap(
    p: &mut Proof,
    gap_start: usize,
    gap_len: usize,
    deep: bool,
    rng: &mut ChaCha8Rng,
    searches: &mut usize,
) -> Option<(FiniteModel, Construction)> {
    if deep {
        return change_deep(
            p,
            p.terms[gap_start - 1],
            gap_start + gap_len,
            rng,
            searches,
        );
    }
    let j = gap_start + gap_len;
    let before = p.terms[gap_start - 1];
    let stable = stable_positions(p, j, rng);
    let (allowed, grafts) = allowed_and_grafts(p, before);
    let mut kinds = [
        Construction::Relabel,
        Construction::Swap,
        Construction::Graft,
    ];
    for pos in stable {
        if *searches >= MAX_SEARCHES {
            return None;
        }
        kinds.shuffle(rng);
        let u = p.world.subterm(p.terms[j], &pos).expect("own position");
        let Some((c, new)) = kinds
            .iter()
            .find_map(|&c| changed(p, u, c, &allowed, &grafts, rng).map(|t| (c, t)))
        else {
            continue;
        };
        let q = replaced(p.clone(), j, &pos, new);
        if let Some(m) = certify(&q, j, before, searches) {
            *p = q;
            return Some((m, c));
        }
    }
    None
}

/// The decoy search from level 5, where the gap ends at the proof's last
/// line `j`, so every position of it may change. Over the many equations
/// of long proofs a random change is almost always one the equations undo
/// (level 8, before: 4 of 542 searches for a model separating one random
/// change succeeded; sizes up to 5 found no more), so one model search per
/// position serves every change there: the position holds an unknown
/// element equal to one of the changed subterms
/// ([`countermodel::find_with_hole`]), each change (every other head symbol
/// of the same arity, every swap of two different arguments, every graft of
/// a ground subterm of the line before at most two symbols larger) is
/// evaluated in the model, and one whose line takes another value than the
/// line before is drawn.
fn change_deep(
    p: &mut Proof,
    before: TermId,
    j: usize,
    rng: &mut ChaCha8Rng,
    searches: &mut usize,
) -> Option<(FiniteModel, Construction)> {
    // The gap ends at the last line: no later step to keep checking.
    debug_assert_eq!(j, p.steps());
    let (allowed, grafts) = allowed_and_grafts(p, before);
    for pos in stable_positions(p, j, rng) {
        if *searches >= MAX_SEARCHES {
            return None;
        }
        let u = p.world.subterm(p.terms[j], &pos).expect("own position");
        let w = &p.world;
        let offers = Offers::at(w, u, &allowed, &grafts);
        // Each change: its construction and the new subterm (head and
        // arguments).
        let (f, args) = (w.bank.sym(u), w.bank.args(u).to_vec());
        let changes: Vec<(Construction, SymbolId, Vec<TermId>)> = (offers.relabels.iter())
            .map(|&g| (Construction::Relabel, g, args.clone()))
            .chain(
                offers
                    .swaps
                    .iter()
                    .map(|&pair| (Construction::Swap, f, swapped(w, u, pair))),
            )
            .chain(
                offers
                    .grafts
                    .iter()
                    .map(|&v| (Construction::Graft, w.bank.sym(v), w.bank.args(v).to_vec())),
            )
            .collect();
        if changes.is_empty() {
            continue;
        }
        *searches += 1;
        let options: Vec<(SymbolId, Vec<TermId>)> =
            changes.iter().map(|c| (c.1, c.2.clone())).collect();
        let Some(m) = countermodel::find_with_hole(
            &p.world,
            &p.equations,
            before,
            p.terms[j],
            &pos,
            &options,
        ) else {
            continue;
        };
        let Ok(vb) = countermodel::value(&p.world, &m, before) else {
            continue;
        };
        // Each changed line is evaluated in one scratch world; only the
        // change drawn is built into a proof.
        let mut scratch = p.world.clone();
        let apart: Vec<usize> = (0..changes.len())
            .filter(|&i| {
                let (_, g, args) = &changes[i];
                let new = scratch.bank.app(*g, args);
                let line = scratch.bank.replace_at(p.terms[j], &pos, new);
                countermodel::value(&scratch, &m, line).is_ok_and(|v| v != vb)
            })
            .collect();
        if apart.is_empty() {
            continue;
        }
        let (c, g, args) = &changes[apart[rng.random_range(0..apart.len())]];
        let mut q = p.clone();
        let new = q.world.bank.app(*g, args);
        let q = replaced(q, j, &pos, new);
        if countermodel::check(&q.world, &q.equations, before, q.terms[j], &m).is_ok() {
            *p = q;
            return Some((m, *c));
        }
    }
    None
}

/// The countermodel of changed proof `q` (line `j` after the gap, `before`
/// the line before it), when the rest of the proof still checks and a model
/// search (counted in `searches`) finds one.
fn certify(q: &Proof, j: usize, before: TermId, searches: &mut usize) -> Option<FiniteModel> {
    if crate::equational::corrupt::first_failure_from(q, j + 1).is_some() {
        return None;
    }
    *searches += 1;
    countermodel::find(&q.world, &q.equations, before, q.terms[j])
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
    use crate::equational::step::check_step;
    use crate::equational::generate::{GenParams, generate};
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

    /// Both labels place the gap alike: from the same proof and random
    /// stream a fillable gap and a decoy sit at the same lines (a gap is
    /// kept only where a decoy certifies, whichever is asked for), so the
    /// position tells nothing of the label. Before, decoys were drawn until
    /// one certified and fillable gaps anywhere: decoys ended at the last
    /// line far more often.
    #[test]
    fn both_labels_place_the_gap_alike() {
        let (mut same, mut at_end) = (0, 0);
        for level in 2..=4 {
            for i in 0..12 {
                let p = proof(level, i);
                let draw = |decoy: bool| {
                    let mut rng = instance_rng(24, &["alike"], i);
                    make_gap(&p, decoy, false, &mut rng)
                };
                let (Some((fill, _)), Some((dec, _))) = (draw(false), draw(true)) else {
                    assert!(draw(false).is_none() && draw(true).is_none());
                    continue;
                };
                assert_eq!((fill.gap_start, fill.gap_len), (dec.gap_start, dec.gap_len));
                assert!(!fill.decoy && dec.decoy && fill.countermodel.is_none());
                // The decoy differs only from the line after the gap on.
                let j = dec.gap_start + dec.gap_len;
                assert_eq!(fill.proof.terms[..j], dec.proof.terms[..j]);
                assert_ne!(fill.proof.terms[j], dec.proof.terms[j]);
                same += 1;
                at_end += usize::from(j == p.steps());
            }
        }
        assert!(same >= 20, "only {same} gaps");
        assert!(at_end < same, "every gap at the end");
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
