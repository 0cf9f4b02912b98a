//! Reach of the finite model finder on the clause sets the TPTP selection
//! generator hands it (issue 19 item 3): the premise subsets plus negated
//! theorem of the TOP and GEO selection runs (`--count 10`, levels 1-4,
//! seed 0) that reached the final model search, recorded in
//! `benches/data/mace_selection.jsonl` (one JSON object a line: `domain`,
//! `clauses` in TPTP syntax): every such set on which the reference finder
//! found no model (85 of 6,796) and every 20th of the others.
//!
//! For the reference finder (`prover::mace::reference`: one sort, a fresh SAT
//! problem per size) and the finder (`prover::mace`: sorts, incremental SAT,
//! term definitions, splitting, canonicity), at the generation prover's
//! budgets per size (400,000 ground clauses, 10,000 conflicts), sizes 1..=8:
//! per clause set the largest size settled (a model, or no model up to
//! there), the ground clauses and the time per size; then per domain the
//! models found, the mean largest size settled and the total time.
//! Time is reported, never asserted. Run: `cargo bench --bench mace`
//! (`-- --verbose` for every clause set).

use saturate::logic::{Literal, TermBank};
use saturate::prover::mace::ModelFinder;
use saturate::prover::mace::reference::ReferenceFinder;
use saturate::tptp::parse_clause_str;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

const MAX_SIZE: u32 = 8;
const GROUND: u64 = 400_000;
const CONFLICTS: u64 = 10_000;

/// One finder's result on one clause set.
#[derive(Default, Clone)]
struct Run {
    model: Option<u32>,
    /// Largest size settled: the model's, or the last size shown empty.
    settled: u32,
    ground: u64,
    secs: f64,
    /// (size, seconds) per size tried.
    per_size: Vec<(u32, f64)>,
}

/// The reference on one size per call (it keeps nothing between sizes).
fn run_reference(bank: &TermBank, cs: &[&[Literal]]) -> Run {
    let mut r = Run::default();
    let mut f = ReferenceFinder::new(GROUND, CONFLICTS);
    for n in 1..=MAX_SIZE {
        let t = Instant::now();
        let g0 = f.ground_clauses;
        let found = f.search(bank, cs, n..=n);
        let dt = t.elapsed().as_secs_f64();
        r.secs += dt;
        if found.is_none() && f.no_model_upto < n && f.ground_clauses == g0 {
            break; // over the ground-clause budget: not tried
        }
        r.per_size.push((n, dt));
        r.ground = f.ground_clauses;
        if let Some(m) = found {
            r.model = Some(m.size);
            r.settled = m.size;
            break;
        }
        if f.no_model_upto < n {
            break; // conflicts ran out
        }
        r.settled = n;
    }
    r
}

/// The finder keeps one solver across the sizes of a call, so the time of
/// size `n` is that of the call on `1..=n` less that of the call on
/// `1..=n-1`; the result is that of the last call.
fn run_finder(bank: &TermBank, cs: &[&[Literal]]) -> Run {
    let mut r = Run::default();
    let mut before = 0.0;
    for n in 1..=MAX_SIZE {
        let mut f = ModelFinder::new(GROUND, CONFLICTS);
        let t = Instant::now();
        let found = f.search(bank, cs, 1..=n);
        let secs = t.elapsed().as_secs_f64();
        if f.trace.last().is_none_or(|&(m, _, _)| m < n) {
            // Size n not tried (over budget) or the range already closed.
            r.settled = f.no_model_upto.min(MAX_SIZE);
            if f.no_model_upto >= n {
                r.settled = MAX_SIZE;
            }
            break;
        }
        r.per_size.push((n, secs - before));
        before = secs;
        r.secs = secs;
        r.ground = f.ground_clauses;
        if let Some(m) = found {
            r.model = Some(m.size);
            r.settled = m.size;
            break;
        }
        if f.no_model_upto < n {
            break; // conflicts ran out
        }
        r.settled = n;
    }
    r
}

fn main() {
    let verbose = std::env::args().any(|a| a == "--verbose");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data/mace_selection.jsonl");
    let text = std::fs::read_to_string(&path).expect("corpus readable");
    // domain -> (sets, ref models, new models, ref settled sum, new settled sum,
    // ref secs, new secs, ref ground, new ground, size histogram new)
    let mut sum: BTreeMap<String, [f64; 9]> = BTreeMap::new();
    let mut hist: BTreeMap<String, BTreeMap<(u32, u32), u32>> = BTreeMap::new();
    // (domain, finder, size) -> (sets that tried the size, seconds).
    let mut per_size: BTreeMap<(String, &str, u32), (u32, f64)> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).expect("corpus line is JSON");
        let domain = v["domain"].as_str().unwrap_or("?").to_string();
        let mut bank = TermBank::new();
        let cs: Vec<Vec<Literal>> = v["clauses"]
            .as_array()
            .expect("clauses")
            .iter()
            .map(|c| parse_clause_str(&mut bank, c.as_str().unwrap()).expect("clause parses"))
            .collect();
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let a = run_reference(&bank, &refs);
        let b = run_finder(&bank, &refs);
        if let (Some(x), Some(y)) = (a.model, b.model) {
            assert_eq!(
                x,
                y,
                "line {}: both settled the sizes below their models",
                i + 1
            );
        }
        let s = sum.entry(domain.clone()).or_default();
        s[0] += 1.0;
        s[1] += a.model.is_some() as u32 as f64;
        s[2] += b.model.is_some() as u32 as f64;
        s[3] += a.settled as f64;
        s[4] += b.settled as f64;
        s[5] += a.secs;
        s[6] += b.secs;
        s[7] += a.ground as f64;
        s[8] += b.ground as f64;
        for (which, run) in [("reference", &a), ("finder", &b)] {
            for &(n, secs) in &run.per_size {
                let e = per_size.entry((domain.clone(), which, n)).or_default();
                e.0 += 1;
                e.1 += secs;
            }
        }
        *hist
            .entry(domain.clone())
            .or_default()
            .entry((a.model.unwrap_or(0), b.model.unwrap_or(0)))
            .or_default() += 1;
        if verbose {
            let sizes = |r: &Run, unit: &str| {
                r.per_size
                    .iter()
                    .map(|(n, x)| format!("{n}:{x:.3}{unit}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            println!(
                "{domain} #{:<3} {:>2} clauses | reference model {:?} settled {} ground {} {:.3}s [{}] | finder model {:?} settled {} ground {} {:.3}s [{}]",
                i + 1,
                cs.len(),
                a.model,
                a.settled,
                a.ground,
                a.secs,
                sizes(&a, "s"),
                b.model,
                b.settled,
                b.ground,
                b.secs,
                sizes(&b, "s"),
            );
        }
    }
    println!(
        "{:<6} {:>5} {:>14} {:>14} {:>12} {:>12} {:>10} {:>10} {:>12} {:>12}",
        "domain",
        "sets",
        "models ref",
        "models new",
        "settled ref",
        "settled new",
        "secs ref",
        "secs new",
        "ground ref",
        "ground new"
    );
    for (d, s) in &sum {
        println!(
            "{:<6} {:>5} {:>14} {:>14} {:>12.2} {:>12.2} {:>10.2} {:>10.2} {:>12} {:>12}",
            d,
            s[0],
            s[1],
            s[2],
            s[3] / s[0],
            s[4] / s[0],
            s[5],
            s[6],
            s[7],
            s[8]
        );
    }
    for (d, h) in &hist {
        let cells: Vec<String> = h
            .iter()
            .map(|((a, b), k)| format!("{a}->{b}: {k}"))
            .collect();
        println!(
            "{d} model size reference->finder (0 = none): {}",
            cells.join(", ")
        );
    }
    println!(
        "per size: sets that tried it, seconds in all (finder: the increment over the size below)"
    );
    for ((d, which, n), (k, secs)) in &per_size {
        println!("{d} {which:<9} size {n}: {k:>5} sets {secs:>8.3}s");
    }
}
