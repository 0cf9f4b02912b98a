//! Proof graph reconstruction (`tptp_tasks.md` §3): the clauses of a
//! binary-inference proof of a ranked theorem are shuffled and numbered;
//! the answer gives each derived clause's two parents as
//! `CHILD <- PARENT_1, PARENT_2`.
//!
//! Size: a level asks for depth at least d and at least n nodes (`k` of the
//! level map, never below 5, so no level is a three-clause graph that
//! "the theorem comes from the other two" solves). The graph is grown at
//! random from the theorem (see `grown_cut`) to a node count drawn from
//! n..=2n-1, with a longest path in d..=d+6: the defaults (n = 5, 8, 12, 16)
//! give 5-9, 8-15, 12-23 and 16-31 nodes, at least the reference
//! implementation's 2^d..2^(d+1)-1 nodes at depth d = level (seed 001 §3,
//! `reference_pipeline.md`, whose graphs also reach past d). A clause
//! reached along two paths is one node: the graph is a DAG.

//! The proof graph is cut from the derivation DAG. A step with exactly two
//! distinct premises (resolution, superposition, or a clause rewritten once
//! by a unit equation) is kept as it is; a step with a single premise
//! (factoring, equality resolution or factoring, deletion of trivial
//! disequations) is collapsed into the step that made its premise, which is
//! sound because the collapsed clause follows from its premise. Clauses
//! made with three or more premises are only used as leaves. Every kept
//! step is certified by the prover (`PARENT_1, PARENT_2 |- CHILD`) and the
//! refutation is stored per step.
//!
//! The prompt names the starting premises and lists no background axioms
//! (issue 16). Which clauses are starting premises is visible from their
//! shape alone (a derived clause is usually bigger than its premises and
//! closer to the theorem; the axioms among the clauses are always
//! premises), so asking for it would reward a guess by size; the task is
//! the part that needs the calculus: which two clauses each derived clause
//! comes from. The background list would only restate which clauses are
//! axioms, so the metadata's `context_axioms` is empty.

use super::{
    Background, Built, Graph, Reject, Scored, TasksConfig, context_block, numbered, str_field,
    str_list,
};
use crate::prover::{Prover, Refutation, Verdict};
use crate::saturation::{ClauseId, ClauseStore, Rule};
use crate::tasks::{Score, StepVerdict, Verdict as Graded};
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// One certified step of the gold proof graph (1-based clause numbers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The derived clause.
    pub child: usize,
    /// Its two parents, increasing.
    pub parents: [usize; 2],
    /// Refutation of the parents plus the negated child.
    pub refutation: Refutation,
}

/// The certificate of a reconstruction instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// Always `proof_graph`.
    pub verdict: String,
    /// Every step, by child number.
    pub steps: Vec<Step>,
}

/// The two premises of `x` after collapsing single-premise steps, if `x`
/// can be shown as a binary step.
fn binary_premises(g: &Graph, x: ClauseId) -> Option<[ClauseId; 2]> {
    binary_step(&g.store, x)
}

/// [`binary_premises`] over a bare store (phase 1 has no [`Graph`] yet).
fn binary_step(store: &ClauseStore, x: ClauseId) -> Option<[ClauseId; 2]> {
    let r = store.get(x);
    if r.rule == Rule::Input {
        return None;
    }
    let mut prem: Vec<ClauseId> = r.premises().collect();
    prem.sort_unstable();
    prem.dedup();
    match prem.len() {
        2 => Some([prem[0], prem[1]]),
        1 if store.get(prem[0]).rule != Rule::Input => binary_step(store, prem[0]),
        _ => None,
    }
}

/// How many of `theorems` could give a reconstruction graph of depth
/// `depth` and `nodes` clauses ([`can_cut`]). Phase 1's depth on demand
/// (`[saturation.deepen]`) reads it.
pub fn proof_graph_supply(
    store: &ClauseStore,
    theorems: impl IntoIterator<Item = ClauseId>,
    depth: u32,
    nodes: usize,
) -> usize {
    cuttable(store, theorems, depth, nodes)
        .into_iter()
        .filter(|&c| c)
        .count()
}

/// [`can_cut`] for each of `theorems`, in order, sharing one memo.
pub fn cuttable(
    store: &ClauseStore,
    theorems: impl IntoIterator<Item = ClauseId>,
    depth: u32,
    nodes: usize,
) -> Vec<bool> {
    let mut memo = HashMap::new();
    theorems
        .into_iter()
        .map(|t| cut_possible(store, t, depth, nodes, &mut memo))
        .collect()
}

/// Whether [`grown_cut`] can cut a graph of depth `d` and `nodes` clauses
/// from `root` at all: a binary path of `d` steps below it
/// (single-premise steps collapsed as in [`binary_premises`]) and at least
/// `nodes` clauses within `d + MAX_EXTRA_DEPTH` binary steps of it, the
/// clauses the cut may reach. Necessary, not sufficient (the cut is random,
/// and a graph with two variant clauses is refused later); reconstruction
/// and derivation cells draw only theorems that pass it, since the others
/// could only be refused as `no_proof_graph`.
pub fn can_cut(store: &ClauseStore, root: ClauseId, d: u32, nodes: usize) -> bool {
    cut_possible(store, root, d, nodes, &mut HashMap::new())
}

fn cut_possible(
    store: &ClauseStore,
    root: ClauseId,
    d: u32,
    nodes: usize,
    memo: &mut HashMap<(ClauseId, u32), bool>,
) -> bool {
    /// A binary path of `need` steps below `x` (exact: memoised per need).
    fn reaches(
        store: &ClauseStore,
        x: ClauseId,
        need: u32,
        memo: &mut HashMap<(ClauseId, u32), bool>,
    ) -> bool {
        if need == 0 {
            return true;
        }
        if let Some(&r) = memo.get(&(x, need)) {
            return r;
        }
        let r = binary_step(store, x).is_some_and(|[a, b]| {
            reaches(store, a, need - 1, memo) || reaches(store, b, need - 1, memo)
        });
        memo.insert((x, need), r);
        r
    }
    if !reaches(store, root, d, memo) {
        return false;
    }
    let mut seen: HashSet<ClauseId> = HashSet::from([root]);
    let mut layer = vec![root];
    for _ in 0..d + MAX_EXTRA_DEPTH {
        if seen.len() >= nodes || layer.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for c in layer {
            for p in binary_step(store, c).into_iter().flatten() {
                if seen.insert(p) {
                    next.push(p);
                }
            }
        }
        layer = next;
    }
    seen.len() >= nodes
}

/// Largest depth of a binary proof graph rooted at `x`, capped at `cap`.
fn height(g: &Graph, x: ClauseId, cap: u32, memo: &mut HashMap<ClauseId, u32>) -> u32 {
    if cap == 0 {
        return 0;
    }
    if let Some(&h) = memo.get(&x) {
        return h.min(cap);
    }
    let h = match binary_premises(g, x) {
        None => 0,
        Some([a, b]) => 1 + height(g, a, cap - 1, memo).max(height(g, b, cap - 1, memo)),
    };
    memo.insert(x, h);
    h
}

/// The (child, parent, parent) steps of a proof graph.
pub(super) type Steps = Vec<(ClauseId, [ClauseId; 2])>;

/// How far past the level's depth d the longest path may reach.
pub const MAX_EXTRA_DEPTH: u32 = 6;

/// The fewest starting premises (leaves) a reconstruction graph may have.
/// With two, the first derived clause's parents are forced (they are the
/// two premises) and every later clause descends from the same pair: the
/// audit's overlap reader fixed 11 of 11 such ALG level-1 graphs whole,
/// against 3 of 78 graphs with three or more.
pub const MIN_STARTING_PREMISES: usize = 3;

/// The smallest node count a level asks for: the level's `k`, at least 5.
pub fn min_nodes(k: u32) -> usize {
    (k as usize).max(5)
}

/// Longest path from `root` over `steps` (child -> parents).
fn longest_path(root: ClauseId, steps: &BTreeMap<ClauseId, [ClauseId; 2]>) -> u32 {
    fn go(
        x: ClauseId,
        s: &BTreeMap<ClauseId, [ClauseId; 2]>,
        memo: &mut HashMap<ClauseId, u32>,
    ) -> u32 {
        if let Some(&h) = memo.get(&x) {
            return h;
        }
        let h = s
            .get(&x)
            .map_or(0, |ps| 1 + go(ps[0], s, memo).max(go(ps[1], s, memo)));
        memo.insert(x, h);
        h
    }
    go(root, steps, &mut HashMap::new())
}

/// A binary proof graph of `root` grown at random: first a path of `d`
/// binary steps from the root (so the longest path is at least d), then,
/// until a node count drawn uniformly from `min_nodes(n)..2 * min_nodes(n)`
/// is reached, a uniformly drawn unexpanded node within depth `d +
/// MAX_EXTRA_DEPTH` is expanded into its two premises. Graphs thus vary in
/// shape (leaves at every depth, derived clauses as well as axioms) rather
/// than always being the full expansion to one depth. A leaf both of whose
/// premises are in the graph is expanded too (it would otherwise read as
/// derived). Returns the longest path, the nodes and the steps; `None` when
/// the theorem has no binary path of length d or the graph cannot reach
/// the size.
fn grown_cut(
    g: &Graph,
    root: ClauseId,
    d: u32,
    n: u32,
    rng: &mut impl Rng,
) -> Option<(u32, Vec<ClauseId>, Steps)> {
    let lo = min_nodes(n);
    let target = rng.random_range(lo..2 * lo);
    let cap = d + MAX_EXTRA_DEPTH;
    let mut depth: BTreeMap<ClauseId, u32> = BTreeMap::from([(root, 0)]);
    let mut steps: BTreeMap<ClauseId, [ClauseId; 2]> = BTreeMap::new();
    let expand = |x: ClauseId,
                  depth: &mut BTreeMap<ClauseId, u32>,
                  steps: &mut BTreeMap<ClauseId, [ClauseId; 2]>|
     -> Option<[ClauseId; 2]> {
        let ps = binary_premises(g, x)?;
        let dx = depth[&x];
        steps.insert(x, ps);
        for p in ps {
            depth.entry(p).or_insert(dx + 1);
        }
        Some(ps)
    };
    // The forced path: at each step a premise whose binary height still
    // reaches the rest of the path.
    let mut x = root;
    for i in 0..d {
        let ps = expand(x, &mut depth, &mut steps)?;
        let need = d - i - 1;
        let ok: Vec<ClauseId> = ps
            .into_iter()
            .filter(|&p| height(g, p, need, &mut HashMap::new()) >= need)
            .collect();
        x = *ok.get(rng.random_range(0..ok.len().max(1)))?;
    }
    while depth.len() < target {
        let frontier: Vec<ClauseId> = depth
            .iter()
            .filter(|&(c, &dc)| {
                dc < cap && !steps.contains_key(c) && binary_premises(g, *c).is_some()
            })
            .map(|(&c, _)| c)
            .collect();
        if frontier.is_empty() {
            break;
        }
        let c = frontier[rng.random_range(0..frontier.len())];
        expand(c, &mut depth, &mut steps);
    }
    // Close the graph: no leaf may have both premises listed.
    loop {
        let closable: Vec<ClauseId> = depth
            .keys()
            .copied()
            .filter(|c| !steps.contains_key(c))
            .filter(|&c| {
                binary_premises(g, c).is_some_and(|ps| ps.iter().all(|p| depth.contains_key(p)))
            })
            .collect();
        if closable.is_empty() {
            break;
        }
        for c in closable {
            expand(c, &mut depth, &mut steps);
        }
    }
    if depth.len() < lo || depth.len() >= 2 * lo {
        return None;
    }
    let longest = longest_path(root, &steps);
    if longest > cap {
        return None;
    }
    Some((
        longest,
        depth.into_keys().collect(),
        steps.into_iter().collect(),
    ))
}

/// A proof graph of a theorem grown by [`grown_cut`], every step certified.
pub(super) struct CertifiedCut {
    /// Longest path from the theorem.
    pub longest: u32,
    /// The graph's clauses, by id.
    pub nodes: Vec<ClauseId>,
    /// (child, parents) of every derived clause, by child id.
    pub steps: Steps,
    /// Each child's refutation of `PARENT_1, PARENT_2 |- CHILD`.
    pub proofs: HashMap<ClauseId, Refutation>,
    /// Given clauses the prover processed for them.
    pub processed: u64,
    /// Steps whose refutation is the saturation's own derivation
    /// ([`Graph::derived_proof`]); the rest come from a prover search.
    pub derived: usize,
}

/// Grows a proof graph of `root` ([`grown_cut`], depth d, size n), refuses
/// one where two clauses are variants (a step could then cite the clause
/// it derives), and certifies every step with the prover
/// (reconstruction's and derivation's graphs). A graph with fewer than
/// `min_leaves` starting premises is refused before any prover call.
pub(super) fn certified_cut(
    g: &Graph,
    root: ClauseId,
    (d, n, min_leaves): (u32, u32, usize),
    prover: &mut Prover,
    rng: &mut impl Rng,
) -> Result<CertifiedCut, Reject> {
    let (longest, nodes, steps) = grown_cut(g, root, d, n, rng).ok_or(Reject::NoProofGraph)?;
    if nodes.len() - steps.len() < min_leaves {
        return Err(Reject::FewStartingPremises);
    }
    let canon: HashSet<String> = nodes.iter().map(|&c| g.canon(c)).collect();
    if canon.len() != nodes.len() {
        return Err(Reject::NoProofGraph);
    }
    let mut processed = 0;
    let mut derived = 0;
    let mut proofs = HashMap::new();
    for &(child, [a, b]) in &steps {
        // The saturation derived `child` from `a` and `b` (through the
        // single-premise steps collapsed into this one), so no countermodel
        // exists and the prover searches none: the searches that could not
        // succeed were nearly all of GEO's reconstruction time (0.51 of
        // 0.54 CPU-s at level 1, 50 rows), all of it undecided.
        //
        // Three tries, cheapest first. A search within the prover's quick
        // phase proves a plain step faster than the records are checked
        // (FLD level 4 at 50 rows: 14 -> 34 rows once records backed the
        // searches, every other cell unchanged). Past it, the saturation's
        // records are the proof if they use nothing but `a` and `b`,
        // checked by the independent checker ([`Graph::derived_proof`]):
        // one TOP level-2 step of three-deep `meet` terms took the search
        // 178 given clauses and 0.36 CPU-s, half of the cell's CPU, where
        // its records had it. The search with the whole budget comes last.
        // A step none of them gives is refused.
        let quick = quick_step_search(g, prover, [a, b], child);
        processed += quick.stats.processed;
        let o = match quick.verdict {
            Verdict::Theorem { .. } => quick,
            _ => match g.derived_proof(prover, &[a, b], child) {
                Some(d) => {
                    processed += d.stats.processed;
                    derived += 1;
                    d
                }
                None => {
                    // It repeats the quick phase's few given clauses.
                    let full = g.prove_derived(prover, &[a, b], child);
                    processed += full.stats.processed;
                    full
                }
            },
        };
        match o.verdict {
            Verdict::Theorem { refutation } => {
                proofs.insert(child, refutation);
            }
            _ => return Err(Reject::StepNotCertified),
        }
    }
    Ok(CertifiedCut {
        longest,
        nodes,
        steps,
        proofs,
        processed,
        derived,
    })
}

/// The prover's search for `parents |- child` within its quick phase
/// (`quick_processed` given clauses). The worker restores the prover's
/// limits after every attempt; this call restores them itself, since the
/// same attempt searches with the whole budget next.
fn quick_step_search(
    g: &Graph,
    prover: &mut Prover,
    parents: [ClauseId; 2],
    child: ClauseId,
) -> crate::prover::Outcome {
    let whole = prover.limits.max_processed;
    prover.limits.max_processed = whole.min(prover.limits.quick_processed);
    let o = g.prove_derived(prover, &parents, child);
    prover.limits.max_processed = whole;
    o
}

/// One generation attempt.
pub fn generate(
    g: &Graph,
    t: &Scored,
    prover: &mut Prover,
    cfg: &TasksConfig,
    level: u8,
    rng: &mut impl Rng,
) -> Result<Built, Reject> {
    let (d, n) = cfg.params(super::Family::Reconstruction, level);
    let CertifiedCut {
        longest: depth,
        nodes,
        steps,
        mut proofs,
        processed,
        derived: from_records,
    } = certified_cut(g, t.id, (d, n, MIN_STARTING_PREMISES), prover, rng)?;
    let mut order = nodes.clone();
    order.sort_unstable();
    order.shuffle(rng);
    let number: HashMap<ClauseId, usize> =
        order.iter().enumerate().map(|(i, &c)| (c, i + 1)).collect();
    let mut cert_steps: Vec<Step> = steps
        .iter()
        .map(|&(child, [a, b])| {
            let (x, y) = (number[&a], number[&b]);
            Step {
                child: number[&child],
                parents: [x.min(y), x.max(y)],
                refutation: proofs.remove(&child).expect("certified"),
            }
        })
        .collect();
    cert_steps.sort_by_key(|s| s.child);
    let answer = format_steps(cert_steps.iter().map(|s| (s.child, s.parents)));
    let texts: Vec<String> = order.iter().map(|&c| g.text(c)).collect();
    let theorem = g.text(t.id);
    let mut meta = g.base_metadata(t, d, n);
    // No background list: it would name the starting premises (the axioms
    // among the clauses) and leave only the rest to reason about.
    Background::default().store(&mut meta);
    let obj = meta.as_object_mut().expect("object");
    obj.insert("clauses".into(), texts.clone().into());
    obj.insert("longest_path".into(), depth.into());
    obj.insert("theorem_index".into(), number[&t.id].into());
    obj.insert("nodes".into(), nodes.len().into());
    obj.insert("derived".into(), cert_steps.len().into());
    let derived: BTreeSet<usize> = cert_steps.iter().map(|s| s.child).collect();
    let leaves: Vec<usize> = (1..=order.len()).filter(|i| !derived.contains(i)).collect();
    obj.insert("premise_indices".into(), leaves.clone().into());
    obj.insert(
        "prover".into(),
        serde_json::json!({ "calls": steps.len(), "processed": processed }),
    );
    obj.insert(
        "certified_by".into(),
        serde_json::json!({
            "saturation derivation": from_records,
            "prover search": steps.len() - from_records,
        }),
    );
    let background = Background::from_metadata(&meta).unwrap_or_default();
    let prompt = render(&g.domain, &background, &theorem, &texts, &leaves);
    let cert = Certificate {
        verdict: "proof_graph".into(),
        steps: cert_steps,
    };
    Ok(Built {
        prompt,
        answer,
        metadata: meta,
        certificate: serde_json::to_value(&cert).expect("serialisable"),
        key: g.instance_key(&order, t.id),
        group: None,
        label: format!("{} nodes", nodes.len()),
        prover_processed: processed,
    })
}

/// `C <- P1, P2` lines, one per step, as given.
pub fn format_steps(steps: impl Iterator<Item = (usize, [usize; 2])>) -> String {
    steps
        .map(|(c, [a, b])| format!("{c} <- {a}, {b}\n"))
        .collect()
}

/// The prompt of a reconstruction instance; `premises` are the 1-based
/// numbers of the starting premises, which the prompt names.
pub fn render(
    domain: &str,
    context: &Background,
    theorem: &str,
    clauses: &[String],
    premises: &[usize],
) -> String {
    let mut s = context_block(domain, context);
    s.push_str(&format!("\nTheorem:\n{theorem}\n"));
    s.push_str(
        "\nThe clauses below, numbered in random order, form a proof of the theorem (the theorem is one of them). Some are starting premises; each of the others was derived from exactly two clauses of the list by one inference of the superposition calculus: resolution (from `L | C` and `~L' | D`, where L and L' unify with most general unifier s, infer `(C | D)s`), superposition or rewriting (from an equation `l = r | C` and a clause containing an instance of `l`, replace that instance by the matching instance of `r` and add the remaining literals), possibly followed by factoring (merging unifiable literals) or by removing a trivially false `t != t`.\n",
    );
    s.push_str("\nClauses:\n");
    s.push_str(&numbered(clauses));
    let names: Vec<String> = premises.iter().map(|i| i.to_string()).collect();
    s.push_str(&format!(
        "\nThe starting premises are clauses {}; every other clause, the theorem included, is derived.\n",
        names.join(", ")
    ));
    s.push_str(
        "\nTask: reconstruct the proof. For every derived clause write one line `CHILD <- PARENT_1, PARENT_2` with the clause numbers, lines sorted by CHILD. Write nothing for starting premises and nothing else.\n",
    );
    s
}

/// The starting-premise numbers of a row (`premise_indices`).
pub fn premise_indices(meta: &serde_json::Value) -> Result<Vec<usize>, String> {
    meta.get("premise_indices")
        .and_then(|v| v.as_array())
        .ok_or("metadata has no list `premise_indices`")?
        .iter()
        .map(|x| {
            x.as_u64()
                .map(|i| i as usize)
                .ok_or_else(|| "metadata `premise_indices` holds a non-number".to_string())
        })
        .collect()
}

/// Parses answer lines; blank lines are ignored.
pub fn parse_steps(answer: &str) -> Result<Vec<(usize, [usize; 2])>, String> {
    let mut out = Vec::new();
    for (i, line) in answer.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = || {
            format!(
                "line {}: expected `CHILD <- PARENT_1, PARENT_2`, got {line:?}",
                i + 1
            )
        };
        let (c, ps) = line.split_once("<-").ok_or_else(bad)?;
        let (a, b) = ps.split_once(',').ok_or_else(bad)?;
        let num = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
        out.push((num(c)?, [num(a)?, num(b)?]));
    }
    Ok(out)
}

/// The structural check of §3.5(a): numbers in range, two distinct parents
/// other than the child, one line per derived clause, exactly the gold
/// derived clauses (so the leaves are exactly the starting premises), and
/// no cycle.
fn structure(
    steps: &[(usize, [usize; 2])],
    n: usize,
    derived: &BTreeSet<usize>,
) -> Result<(), String> {
    let mut children = BTreeSet::new();
    for &(c, [a, b]) in steps {
        for x in [c, a, b] {
            if x == 0 || x > n {
                return Err(format!("clause {x} is not in 1-{n}"));
            }
        }
        if a == b || a == c || b == c {
            return Err(format!(
                "step {c} <- {a}, {b} needs two distinct other parents"
            ));
        }
        if !children.insert(c) {
            return Err(format!("clause {c} has two lines"));
        }
    }
    if &children != derived {
        return Err("the derived clauses are not the ones of the proof (the leaves must be exactly the starting premises)".into());
    }
    // Kahn's algorithm over child -> parents.
    let parents: HashMap<usize, [usize; 2]> = steps.iter().map(|&(c, p)| (c, p)).collect();
    let mut state = vec![0u8; n + 1];
    fn visit(x: usize, parents: &HashMap<usize, [usize; 2]>, state: &mut [u8]) -> bool {
        match state[x] {
            1 => return false,
            2 => return true,
            _ => {}
        }
        state[x] = 1;
        if let Some(ps) = parents.get(&x) {
            for &p in ps {
                if !visit(p, parents, state) {
                    return false;
                }
            }
        }
        state[x] = 2;
        true
    }
    for &c in derived {
        if !visit(c, &parents, &mut state) {
            return Err("the steps form a cycle".into());
        }
    }
    Ok(())
}

/// Scores an answer: 0 when the structure is invalid; otherwise the share
/// of steps that are sound (a gold step, or one the prover confirms), with
/// a verdict per line in [`Score::steps`] (named by the derived clause's
/// number). Edge
/// precision and recall against the gold graph are the sub-metrics
/// `edge_precision` and `edge_recall` (0 for an unreadable, cheating or
/// invalid graph).
///
/// Verdicts: `malformed` when no step line reads; `cheating` when a line
/// names a clause outside the graph (a number not in `1..=n`), cites the
/// theorem as a parent, or cites a step's own clause as its parent (the
/// step's goal restated as its premise); `wrong` for another structural
/// error or any unsound step; `timeout` when the prover leaves a proposed
/// step undecided within its limits (the value would depend on it); `ok`
/// when every step is sound.
///
/// `values_only` (the audit's exploit suite, which reads the value alone)
/// stops at the first step the prover does not show sound: the value is 0
/// whatever the later steps are, and the sub-metrics and per-step verdicts
/// are left out. Each unsound step costs the prover's whole budget, so a
/// canned graph of wrong steps paid it once per step (97% of the exploit
/// suite's CPU on the paper layout).
pub fn score(
    meta: &serde_json::Value,
    cert: &serde_json::Value,
    answer: &str,
    prover: &mut Prover,
    values_only: bool,
) -> Result<Score, String> {
    let clauses = str_list(meta, "clauses")?;
    let cert: Certificate =
        serde_json::from_value(cert.clone()).map_err(|e| format!("certificate: {e}"))?;
    let none = |s: Score| {
        Ok(s.with_metrics(vec![
            ("steps_sound", 0.0),
            ("edge_precision", 0.0),
            ("edge_recall", 0.0),
        ]))
    };
    let steps = match parse_steps(answer) {
        Ok(s) if !s.is_empty() => s,
        Ok(_) => return none(Score::malformed("no steps")),
        Err(e) => return none(Score::malformed(e)),
    };
    let theorem = meta
        .get("theorem_index")
        .and_then(|v| v.as_u64())
        .ok_or("metadata has no theorem_index")? as usize;
    if let Some(e) = forbidden_citation(&steps, clauses.len(), theorem) {
        return none(Score::cheating(e));
    }
    let derived: BTreeSet<usize> = cert.steps.iter().map(|s| s.child).collect();
    if let Err(e) = structure(&steps, clauses.len(), &derived) {
        return none(Score::wrong(format!("invalid structure: {e}")));
    }
    let gold: HashSet<(usize, usize)> = cert
        .steps
        .iter()
        .flat_map(|s| s.parents.map(|p| (s.child, p)))
        .collect();
    let (bank, parsed) = super::parse_clauses(&clauses)?;
    let mut sound = 0;
    let mut undecided = 0;
    let mut correct_edges = 0;
    let mut verdicts = Vec::with_capacity(steps.len());
    for &(c, [a, b]) in &steps {
        correct_edges += [a, b].iter().filter(|&&p| gold.contains(&(c, p))).count();
        let (x, y) = (a.min(b), a.max(b));
        let is_gold = cert
            .steps
            .iter()
            .any(|s| s.child == c && s.parents == [x, y]);
        let label = if is_gold {
            Some(true)
        } else {
            prover
                .prove(&bank, &[&parsed[a - 1], &parsed[b - 1]], &parsed[c - 1])
                .verdict
                .label()
        };
        if values_only && label != Some(true) {
            return Ok(match label {
                Some(false) => Score::wrong(format!(
                    "step {c} does not follow from its parents (values only: later steps not checked)"
                )),
                _ => Score::timeout(format!(
                    "step {c} undecided by the prover within its limits (values only: later steps not checked)"
                )),
            });
        }
        let (verdict, detail) = match label {
            Some(true) => {
                sound += 1;
                (Graded::Ok, "sound")
            }
            Some(false) => (Graded::Wrong, "does not follow from its parents"),
            None => {
                undecided += 1;
                (Graded::Timeout, "undecided by the prover within its limits")
            }
        };
        verdicts.push(StepVerdict::new(c.to_string(), verdict, detail));
    }
    let share = sound as f64 / steps.len() as f64;
    let precision = correct_edges as f64 / (2 * steps.len()) as f64;
    let recall = correct_edges as f64 / gold.len().max(1) as f64;
    let edges = format!("edge precision {precision:.3}, recall {recall:.3}");
    let unsound = steps.len() - sound - undecided;
    // The main score is the whole graph's: a proof is reconstructed when
    // every step is sound, and one unsound step makes it no proof. Credit
    // per sound step rewarded guessing: "parents = the two clauses sharing
    // most literals with the child" made sound steps often enough to score
    // 0.21-0.30 at every level on SET (tptp-tasks-19) while solving 4% of
    // level-1 graphs and none deeper. The share stays as the sub-metric
    // `steps_sound`, and the per-step verdicts stay, for process rewards.
    let s = if unsound > 0 {
        Score::wrong(format!(
            "{unsound} of {} steps do not follow from their parents ({sound} sound); {edges}",
            steps.len()
        ))
    } else if undecided > 0 {
        Score::timeout(format!(
            "{sound}/{} steps sound, {undecided} undecided by the prover within its limits; {edges}",
            steps.len()
        ))
    } else {
        Score::partial(1.0, format!("all {sound} steps sound; {edges}"))
    };
    Ok(s.with_metrics(vec![
        ("steps_sound", share),
        ("edge_precision", precision),
        ("edge_recall", recall),
    ])
    .with_steps(verdicts))
}

/// The first citation that uses what the task does not give, if any: a
/// clause number outside `1..=n` (not a clause of the graph), the theorem
/// (clause `theorem`) as a parent, or a step's own clause as its parent.
fn forbidden_citation(steps: &[(usize, [usize; 2])], n: usize, theorem: usize) -> Option<String> {
    for &(c, [a, b]) in steps {
        if let Some(x) = [c, a, b].into_iter().find(|&x| x == 0 || x > n) {
            return Some(format!(
                "step {c} <- {a}, {b}: clause {x} is not in the graph (1-{n})"
            ));
        }
        if a == theorem || b == theorem {
            return Some(format!(
                "step {c} <- {a}, {b}: the theorem (clause {theorem}) is cited as a parent"
            ));
        }
        if a == c || b == c {
            return Some(format!(
                "step {c} <- {a}, {b}: the clause is cited as its own parent"
            ));
        }
    }
    None
}

/// Re-checks every step's refutation and that the gold answer lists exactly
/// the certified steps.
pub fn verify(
    meta: &serde_json::Value,
    cert: &serde_json::Value,
    gold: &str,
) -> Result<String, String> {
    let clauses = str_list(meta, "clauses")?;
    let theorem = str_field(meta, "theorem")?;
    let cert: Certificate =
        serde_json::from_value(cert.clone()).map_err(|e| format!("certificate: {e}"))?;
    let gold_steps = parse_steps(gold).map_err(|e| format!("gold answer: {e}"))?;
    let cert_pairs: Vec<(usize, [usize; 2])> =
        cert.steps.iter().map(|s| (s.child, s.parents)).collect();
    if gold_steps != cert_pairs {
        return Err("the gold answer differs from the certified steps".into());
    }
    let derived: BTreeSet<usize> = cert.steps.iter().map(|s| s.child).collect();
    structure(&gold_steps, clauses.len(), &derived)?;
    let leaves: Vec<usize> = (1..=clauses.len())
        .filter(|i| !derived.contains(i))
        .collect();
    if premise_indices(meta)? != leaves {
        return Err("the starting premises the prompt names are not the proof's leaves".into());
    }
    let ti = meta
        .get("theorem_index")
        .and_then(|v| v.as_u64())
        .ok_or("metadata has no theorem_index")? as usize;
    if clauses.get(ti.wrapping_sub(1)) != Some(&theorem) {
        return Err("theorem_index does not point at the theorem".into());
    }
    for s in &cert.steps {
        let parents = s.parents.iter().map(|&p| clauses[p - 1].clone()).collect();
        super::check_proof(parents, &clauses[s.child - 1], &s.refutation)
            .map_err(|e| format!("step {}: {e}", s.child))?;
    }
    Ok(format!("{} steps re-checked", cert.steps.len()))
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::prover::ProverLimits;
    use crate::tasks::Verdict;

    fn instance(level: u8) -> Built {
        first_instance(generate, "reconstruction", level)
    }

    /// `can_cut` is necessary for a cut: every graph `grown_cut` grows is
    /// from a theorem it passes, at every level's size, while it refuses
    /// input clauses and some pool theorems (else the filter would filter
    /// nothing); `proof_graph_supply` counts exactly the theorems it passes.
    #[test]
    fn only_theorems_that_pass_can_cut_give_graphs() {
        let g = graph(SETS, 600);
        let ids: Vec<ClauseId> = g.pool.iter().map(|t| t.id).collect();
        let mut refused = 0;
        for (d, n) in [(1, 5), (2, 8), (3, 12), (4, 16)] {
            let nodes = min_nodes(n);
            let mut cut = 0;
            for (i, &t) in ids.iter().enumerate() {
                let ok = can_cut(&g.store, t, d, nodes);
                refused += usize::from(!ok);
                for draw in 0..4u64 {
                    let mut rng = crate::tasks::instance_rng(3, &["can_cut"], i as u64 * 4 + draw);
                    if let Some((longest, nodes_cut, _)) = grown_cut(&g, t, d, n, &mut rng) {
                        assert!(ok, "a graph from a theorem can_cut refuses");
                        assert!(longest >= d && nodes_cut.len() >= nodes);
                        cut += 1;
                    }
                }
            }
            // This small saturation has graphs up to depth 2 (the check
            // above holds at every depth).
            assert!(d > 2 || cut > 0, "no graph at depth {d}");
            let passing = ids
                .iter()
                .filter(|&&t| can_cut(&g.store, t, d, nodes))
                .count();
            assert_eq!(
                proof_graph_supply(&g.store, ids.iter().copied(), d, nodes),
                passing
            );
        }
        assert!(refused > 0, "can_cut refused no theorem");
        let input = (0..g.store.len() as u32)
            .map(ClauseId)
            .find(|&c| g.store.get(c).rule == Rule::Input)
            .expect("an input clause");
        assert!(!can_cut(&g.store, input, 1, 3));
    }

    /// Every step is a consequence of its parents (the saturation derived
    /// it), so certifying a graph searches no countermodel, whether the
    /// step is proved by a search or, at a budget too small for one, by
    /// the saturation's records; the records' proofs check on their own, as
    /// `verify` checks them.
    #[test]
    fn steps_are_certified_without_a_model_search() {
        let g = graph(SETS, 600);
        for max_processed in [200, 3] {
            let mut prover = Prover::new(ProverLimits {
                max_processed,
                quick_processed: max_processed,
                ..ProverLimits::default()
            });
            let (mut certified, mut from_records, mut searched) = (0, 0, 0);
            for i in 0..40u64 {
                let mut rng = crate::tasks::instance_rng(11, &["cut"], i);
                let t = &g.pool[i as usize % g.pool.len()];
                let models = crate::prover::cost::current().models;
                if let Ok(cut) = certified_cut(&g, t.id, (2, 5, 3), &mut prover, &mut rng) {
                    assert_eq!(cut.proofs.len(), cut.steps.len());
                    certified += 1;
                    from_records += cut.derived;
                    searched += cut.steps.len() - cut.derived;
                    for (child, [a, b]) in &cut.steps {
                        let problem = crate::checker::CheckProblem {
                            axioms: vec![g.text(*a), g.text(*b)],
                            conjecture: Some(g.text(*child)),
                        };
                        let verdict = crate::prover::Verdict::Theorem {
                            refutation: cut.proofs[child].clone(),
                        };
                        crate::checker::check(&problem, &verdict).expect("a step's proof checks");
                    }
                }
                assert_eq!(
                    crate::prover::cost::current().models,
                    models,
                    "a model search"
                );
            }
            assert!(certified > 0, "nothing certified");
            // Both paths taken: searches at the default budget, records
            // where three given clauses prove no step (they still close the
            // records' refutation: the theorem against its negation).
            if max_processed > 3 {
                assert!(searched > from_records, "{searched} searched");
            } else {
                assert!(from_records > 0, "no step proved by its records");
            }
        }
    }

    /// A step the quick phase does not prove is taken from the records
    /// before the whole budget searches for it, and a step neither proves
    /// still gets that search: with a quick phase of three given clauses,
    /// the graphs the whole budget certifies alone are all certified, some
    /// of their steps by the records.
    #[test]
    fn steps_past_the_quick_phase_take_the_records_and_lose_nothing() {
        let g = graph(SETS, 600);
        let cuts = |quick_processed: u64| {
            let mut prover = Prover::new(ProverLimits {
                max_processed: 200,
                quick_processed,
                ..ProverLimits::default()
            });
            (0..40u64)
                .map(|i| {
                    let mut rng = crate::tasks::instance_rng(11, &["cut"], i);
                    let t = &g.pool[i as usize % g.pool.len()];
                    certified_cut(&g, t.id, (2, 5, 3), &mut prover, &mut rng)
                        .ok()
                        .map(|cut| (cut.nodes, cut.derived))
                })
                .collect::<Vec<_>>()
        };
        let (whole, quick) = (cuts(200), cuts(3));
        assert!(whole.iter().flatten().count() > 0, "nothing certified");
        let mut from_records = (0, 0);
        for (w, q) in whole.iter().zip(&quick) {
            if let Some((nodes, derived)) = w {
                let (qnodes, qderived) = q.as_ref().expect("a graph lost to the quick phase");
                assert_eq!(nodes, qnodes);
                from_records.0 += derived;
                from_records.1 += qderived;
            }
        }
        assert!(
            from_records.1 > from_records.0,
            "records used {} -> {}",
            from_records.0,
            from_records.1
        );
    }

    #[test]
    fn gold_verifies_and_scores_one_and_size_is_in_range() {
        let cfg = TasksConfig::default();
        for level in [1, 3] {
            let b = instance(level);
            verify(&b.metadata, &b.certificate, &b.answer).unwrap();
            let nodes = b.metadata["nodes"].as_u64().unwrap() as usize;
            let (d, n) = cfg.params(super::super::Family::Reconstruction, level);
            let lo = min_nodes(n);
            assert!(
                lo >= 5 && nodes >= lo && nodes < 2 * lo,
                "{nodes} nodes at level {level}"
            );
            let longest = b.metadata["longest_path"].as_u64().unwrap() as u32;
            assert!(
                (d..=d + MAX_EXTRA_DEPTH).contains(&longest),
                "longest path {longest}"
            );
            // A binary tree of longest path D has at most 2^(D+1)-1 nodes.
            assert!(nodes < 1 << (longest + 1));
            let starting = b.metadata["premise_indices"].as_array().unwrap().len();
            assert!(
                starting >= MIN_STARTING_PREMISES,
                "{starting} starting premises"
            );
            let mut prover = Prover::new(ProverLimits::default());
            let s = score(&b.metadata, &b.certificate, &b.answer, &mut prover, false).unwrap();
            assert_eq!(s.value, 1.0, "{}", s.detail);
        }
    }

    #[test]
    fn adversarial_answers_score_zero_or_malformed() {
        let b = instance(2);
        let mut prover = Prover::new(ProverLimits::default());
        let sc = |a: &str, p: &mut Prover| score(&b.metadata, &b.certificate, a, p, false).unwrap();
        assert!(!sc("", &mut prover).well_formed);
        assert!(!sc("the proof is obvious", &mut prover).well_formed);
        // A self-loop and a cycle are structurally invalid.
        let steps = parse_steps(&b.answer).unwrap();
        let (c, [a, _]) = steps[0];
        let looped = format_steps(std::iter::once((c, [a, c])));
        assert_eq!(sc(&looped, &mut prover).value, 0.0);
        // Dropping a line leaves a derived clause without parents.
        let fewer = format_steps(steps.iter().skip(1).copied());
        assert_eq!(sc(&fewer, &mut prover).value, 0.0);
        // Tampering with a certified step's parents makes verify fail.
        let mut broken = b.certificate.clone();
        let p = broken["steps"][0]["parents"].clone();
        broken["steps"][0]["parents"] = serde_json::json!([p[1], p[0]]);
        assert!(verify(&b.metadata, &broken, &b.answer).is_err());
    }

    /// One unsound step makes the graph no proof: the main score is 0 and
    /// the share of sound steps is reported apart (`steps_sound`).
    #[test]
    fn one_unsound_step_scores_nothing_and_the_share_is_a_sub_metric() {
        let b = instance(2);
        let mut prover = Prover::new(ProverLimits::default());
        let steps = parse_steps(&b.answer).unwrap();
        let leaves = premise_indices(&b.metadata).unwrap();
        let gold = score(&b.metadata, &b.certificate, &b.answer, &mut prover, false).unwrap();
        assert_eq!((gold.value, gold.metric("steps_sound")), (1.0, Some(1.0)));
        // Values only: the same value for the gold graph, no sub-metrics.
        let bare = score(&b.metadata, &b.certificate, &b.answer, &mut prover, true).unwrap();
        assert_eq!((bare.value, bare.verdict), (1.0, gold.verdict));
        let mut seen = false;
        'search: for (k, &(c, [a, p])) in steps.iter().enumerate() {
            for &l in &leaves {
                if [a, p, c].contains(&l) {
                    continue;
                }
                let mut v = steps.clone();
                v[k] = (c, [a.min(l), a.max(l)]);
                let s = score(
                    &b.metadata,
                    &b.certificate,
                    &format_steps(v.clone().into_iter()),
                    &mut prover,
                    false,
                )
                .unwrap();
                if s.steps[k].verdict == Graded::Wrong {
                    // Values only stops at that step with the same value.
                    let bare = score(
                        &b.metadata,
                        &b.certificate,
                        &format_steps(v.into_iter()),
                        &mut prover,
                        true,
                    )
                    .unwrap();
                    assert_eq!((bare.value, bare.verdict), (0.0, Verdict::Wrong));
                    assert!(
                        bare.detail.contains(&format!("step {c} ")),
                        "{}",
                        bare.detail
                    );
                    assert!(s.consistent(), "{s:?}");
                    assert_eq!(s.value, 0.0, "{}", s.detail);
                    let sound = s.steps.iter().filter(|v| v.verdict == Graded::Ok).count();
                    assert_eq!(sound, steps.len() - 1);
                    let share = (steps.len() - 1) as f64 / steps.len() as f64;
                    assert_eq!(s.metric("steps_sound"), Some(share));
                    seen = true;
                    break 'search;
                }
            }
        }
        assert!(seen, "no swapped parent made a step unsound");
    }

    /// Every verdict of the reconstruction scorer where it should arise.
    #[test]
    fn each_verdict_arises_where_it_should() {
        let b = instance(2);
        let mut prover = Prover::new(ProverLimits::default());
        let mut starved = Prover::new(no_budget());
        let sc = |a: &str, p: &mut Prover| score(&b.metadata, &b.certificate, a, p, false).unwrap();
        let verdict = |a: &str, p: &mut Prover| {
            let s = sc(a, p);
            assert!(s.consistent(), "{s:?}");
            s.verdict
        };
        assert_eq!(verdict(&b.answer, &mut starved), Verdict::Ok);
        assert_eq!(
            verdict("the proof is obvious", &mut prover),
            Verdict::Malformed
        );
        let steps = parse_steps(&b.answer).unwrap();
        let n = b.metadata["clauses"].as_array().unwrap().len();
        let theorem = b.metadata["theorem_index"].as_u64().unwrap() as usize;
        let with_step = |k: usize, step: (usize, [usize; 2])| {
            let mut v = steps.clone();
            v[k] = step;
            format_steps(v.into_iter())
        };
        let (c, [a, p]) = steps[0];
        // A clause outside the graph, the theorem as a parent, the child as
        // its own parent: cheating, and no edge credit.
        for bad in [
            with_step(0, (c, [a, n + 1])),
            with_step(0, (c, [a, 0])),
            with_step(0, (c, [a, c])),
        ] {
            let s = sc(&bad, &mut prover);
            assert_eq!(s.verdict, Verdict::Cheating, "{bad}: {}", s.detail);
            assert_eq!(s.metric("edge_precision"), Some(0.0));
        }
        let leaves = premise_indices(&b.metadata).unwrap();
        if c != theorem {
            let s = sc(&with_step(0, (c, [theorem, p])), &mut prover);
            assert_eq!(s.verdict, Verdict::Cheating, "{}", s.detail);
        }
        // A missing line: invalid structure, wrong.
        let fewer = format_steps(steps.iter().skip(1).copied());
        assert_eq!(verdict(&fewer, &mut prover), Verdict::Wrong);
        // One parent swapped for another starting premise: a step that only
        // the prover can judge; without a budget it is undecided (timeout),
        // with the default budget it is decided or still undecided, never
        // credited as gold.
        let mut seen_timeout = false;
        'search: for (k, &(c, [a, p])) in steps.iter().enumerate() {
            for &l in &leaves {
                if [a, p, c].contains(&l) {
                    continue;
                }
                let swapped = with_step(k, (c, [a, l]));
                let s = sc(&swapped, &mut starved);
                assert!(s.consistent(), "{s:?}");
                if s.verdict == Verdict::Timeout {
                    assert!(s.detail.contains("undecided"), "{}", s.detail);
                    assert_ne!(verdict(&swapped, &mut prover), Verdict::Malformed);
                    seen_timeout = true;
                    break 'search;
                }
            }
        }
        assert!(
            seen_timeout,
            "no swapped step left undecided without a budget"
        );
    }
}
