//! Benchmarks of the saturation core (divan): a bounded saturation of TPTP
//! axiom files through the library API, and the TPTP reader on a large file.
//! Figures are for comparing builds side by side on one machine; the
//! comparison against E prover is `scripts/bench_vs_eprover.sh`.

use saturate::logic::TermBank;
use saturate::pipeline::{AxiomSource, Progress, load_source, saturate};
use saturate::saturation::Params;
use std::path::PathBuf;

fn main() {
    divan::main();
}

fn tptp() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/tptp")
}

fn source(name: &str) -> Option<AxiomSource> {
    let path = tptp().join(format!("Axioms/{name}.ax"));
    path.is_file().then(|| AxiomSource {
        domain: name[..3].to_string(),
        name: name.to_string(),
        display: path.display().to_string(),
        path: Some(path),
        text: None,
    })
}

/// Saturation with `max_processed = 500`, full DAG recorded.
#[divan::bench(args = ["SET002-0", "GRP003-0"], sample_count = 5)]
fn saturate_500(bencher: divan::Bencher, name: &str) {
    let Some(src) = source(name) else {
        eprintln!("skip: {name} not in ../shared/tptp");
        return;
    };
    let mut params = Params::default();
    params.limits.max_processed = Some(500);
    bencher
        .with_inputs(|| load_source(&src, Some(&tptp())).expect("axioms load"))
        .bench_values(|(bank, inputs)| {
            let (sat, report) = saturate(name, bank, inputs, &params, &Progress::silent());
            divan::black_box((sat.store.len(), report.generated))
        });
}

/// Parsing 20,000 clauses of TPTP text.
#[divan::bench(sample_count = 5)]
fn parse_20k_clauses(bencher: divan::Bencher) {
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!(
            "cnf(c{i}, axiom, (~product(X,Y,U) | ~product(Y,Z,V) | product(multiply(X,f{}(U)),V,W) | W = inverse(Z))).\n",
            i % 50
        ));
    }
    bencher.bench(|| {
        let mut bank = TermBank::new();
        let p = saturate::tptp::parse_str(&mut bank, &text, "bench.p", None).unwrap();
        divan::black_box(p.clauses.len())
    });
}
