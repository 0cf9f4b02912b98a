//! Throughput of the built-in prover on problems of the size the task
//! generators pose (5-20 premises drawn from a saturation run of a TPTP
//! axiom file; conjecture = a derived clause or a perturbation of one).
//! Before the divan timings it prints, per axiom file, the verdict counts,
//! decided problems per second for each outcome and the share of Unknowns,
//! with the independent certificate check on (the default) and off.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use saturate::logic::{Literal, TermBank};
use saturate::pipeline::{AxiomSource, load_source};
use saturate::prover::workload::{SmallProblem, small_problems};
use saturate::prover::{Prover, ProverLimits, Verdict};
use saturate::saturation::{Params, Saturator};
use std::path::PathBuf;
use std::time::Instant;

const FILES: [&str; 3] = ["SET002-0", "GRP003-0", "SET001-0"];
const PROBLEMS: usize = 400;

fn tptp() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/tptp")
}

/// The problems of one axiom file, with the bank they live in.
fn workload(name: &str) -> Option<(TermBank, Vec<SmallProblem>)> {
    let path = tptp().join(format!("Axioms/{name}.ax"));
    if !path.is_file() {
        eprintln!("skip: {} not found", path.display());
        return None;
    }
    let src = AxiomSource {
        domain: name[..3].to_string(),
        name: name.to_string(),
        display: path.display().to_string(),
        path: Some(path),
        text: None,
    };
    let (bank, inputs) = load_source(&src, Some(&tptp())).expect("axioms load");
    let mut params = Params::default();
    params.limits.max_processed = Some(200);
    let mut sat = Saturator::from_inputs(bank, inputs, params);
    sat.run(&mut |_| {});
    let mut rng = ChaCha8Rng::seed_from_u64(20261123);
    let problems = small_problems(&mut sat, PROBLEMS, &mut rng);
    Some((sat.bank, problems))
}

/// The default limits, or `PROVER_LIMITS` (TOML of a `[prover]` section, e.g.
/// `PROVER_LIMITS='quick_model_size = 0'`) to compare settings.
fn limits(check: bool) -> ProverLimits {
    let base: ProverLimits = match std::env::var("PROVER_LIMITS") {
        Ok(t) => toml::from_str(&t).expect("PROVER_LIMITS is a [prover] TOML table"),
        Err(_) => ProverLimits::default(),
    };
    ProverLimits { check, ..base }
}

fn solve_all(bank: &TermBank, problems: &[SmallProblem], check: bool) -> Vec<(Verdict, f64, u64)> {
    let limits = limits(check);
    problems
        .iter()
        .map(|p| {
            // A fresh prover per problem: no cache hits in the figures.
            let mut prover = Prover::new(limits.clone());
            let refs: Vec<&[Literal]> = p.premises.iter().map(|c| c.as_slice()).collect();
            let t = Instant::now();
            let out = prover.prove(bank, &refs, &p.conjecture);
            (out.verdict, t.elapsed().as_secs_f64(), out.stats.processed)
        })
        .collect()
}

fn report(name: &str, check: bool, results: &[(Verdict, f64, u64)]) {
    let mut line = format!("{name:<9} check={:<5} n={}", check, results.len());
    let total: f64 = results.iter().map(|r| r.1).sum();
    for kind in ["theorem", "counter_satisfiable", "unknown"] {
        let (n, secs, processed) = results
            .iter()
            .filter(|r| r.0.name() == kind)
            .fold((0usize, 0f64, 0u64), |(n, s, p), r| {
                (n + 1, s + r.1, p + r.2)
            });
        let rate = if secs > 0.0 { n as f64 / secs } else { 0.0 };
        let mean = processed as f64 / n.max(1) as f64;
        line.push_str(&format!("  {kind}: {n} ({rate:.0}/s, {mean:.0} given)"));
    }
    let decided = results.iter().filter(|r| r.0.label().is_some()).count();
    let unknown = results.len() - decided;
    line.push_str(&format!(
        "  decided/s overall: {:.0}  unknown share: {:.1}%",
        decided as f64 / total.max(1e-9),
        100.0 * unknown as f64 / results.len().max(1) as f64
    ));
    println!("{line}");
}

fn main() {
    println!("prover throughput ({PROBLEMS} problems per file, one core, wall time per call):");
    // PROVER_BENCH_FILES=SET002-0,GRP003-0 restricts the files.
    let only = std::env::var("PROVER_BENCH_FILES").ok();
    for name in FILES {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|f| f == name))
        {
            continue;
        }
        if let Some((bank, problems)) = workload(name) {
            for check in [true, false] {
                let results = solve_all(&bank, &problems, check);
                report(name, check, &results);
            }
        }
    }
    if std::env::var_os("PROVER_BENCH_SKIP_DIVAN").is_none() {
        divan::main();
    }
}

/// The whole SET002-0 workload, certificates checked.
#[divan::bench(sample_count = 3)]
fn prove_set002_workload(bencher: divan::Bencher) {
    let Some((bank, problems)) = workload("SET002-0") else {
        return;
    };
    bencher.bench(|| divan::black_box(solve_all(&bank, &problems, true).len()));
}
