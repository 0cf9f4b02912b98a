//! Property tests of clausification (`tptp/clausify.rs`), kept beside the
//! model finder they use so that `tptp` never imports `prover`: on random FOF formulas
//! over `p/1`, `q/2`, `r/0`, `a`, `b` and `=`, the formula has a model with
//! `n` elements (found by brute force over every interpretation) exactly
//! when its clause set has one (found by the finite model finder,
//! `crate::prover::mace`), for `n = 1, 2`. Skolemisation and definitions
//! preserve satisfiability per domain size, so any NNF, miniscoping,
//! Skolemisation or distribution error that changes the meaning shows up.

use crate::logic::{Head, Literal, TermBank, TermId};
use crate::prover::mace::ModelFinder;
use crate::tptp::{Formula, clausify_formula, parse_str};
use proptest::prelude::*;

/// Random formula text (free variables are closed universally by the reader).
fn formula_text() -> impl Strategy<Value = String> {
    let term = prop_oneof![
        Just("X".to_string()),
        Just("Y".to_string()),
        Just("a".to_string()),
        Just("b".to_string()),
    ];
    let atom = (0..5u8, term.clone(), term).prop_map(|(k, s, t)| match k {
        0 => format!("p({s})"),
        1 => format!("q({s},{t})"),
        2 => "r".to_string(),
        3 => format!("{s} = {t}"),
        _ => format!("{s} != {t}"),
    });
    let leaf = prop_oneof![
        6 => atom,
        1 => Just("$true".to_string()),
        1 => Just("$false".to_string()),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|f| format!("~ ({f})")),
            (
                inner.clone(),
                inner.clone(),
                prop::sample::select(vec!["&", "|", "=>", "<=", "<=>", "<~>", "~|", "~&"])
            )
                .prop_map(|(f, g, op)| format!("({f}) {op} ({g})")),
            (inner, any::<bool>(), any::<bool>()).prop_map(|(f, all, x)| format!(
                "{} [{}] : ({f})",
                if all { "!" } else { "?" },
                if x { "X" } else { "Y" }
            )),
        ]
    })
}

/// An interpretation over `0..n`: tables of `p`, `q`, `r`, `a`, `b`.
struct Interp {
    n: u32,
    p: u32,
    q: u32,
    r: bool,
    a: u32,
    b: u32,
}

fn term_value(bank: &TermBank, t: TermId, i: &Interp, env: &[u32]) -> u32 {
    match bank.head(t) {
        Head::Var(v) => env[v as usize],
        Head::Sym(s) => match bank.sig.get(s).name.as_str() {
            "a" => i.a,
            "b" => i.b,
            other => panic!("unexpected function {other}"),
        },
    }
}

fn lit_value(bank: &TermBank, l: &Literal, i: &Interp, env: &[u32]) -> bool {
    let v = if l.is_equational(bank) {
        term_value(bank, l.lhs, i, env) == term_value(bank, l.rhs, i, env)
    } else {
        let args: Vec<u32> = bank
            .args(l.lhs)
            .iter()
            .map(|&t| term_value(bank, t, i, env))
            .collect();
        match bank.sig.get(bank.sym(l.lhs)).name.as_str() {
            "p" => i.p >> args[0] & 1 == 1,
            "q" => i.q >> (args[0] * i.n + args[1]) & 1 == 1,
            "r" => i.r,
            other => panic!("unexpected predicate {other}"),
        }
    };
    v == l.pos
}

fn eval(bank: &TermBank, f: &Formula, i: &Interp, env: &mut Vec<u32>) -> bool {
    match f {
        Formula::True => true,
        Formula::False => false,
        Formula::Lit(l) => lit_value(bank, l, i, env),
        Formula::Not(g) => !eval(bank, g, i, env),
        Formula::And(fs) => fs.iter().all(|g| eval(bank, g, i, env)),
        Formula::Or(fs) => fs.iter().any(|g| eval(bank, g, i, env)),
        Formula::Imp(a, b) => !eval(bank, a, i, env) || eval(bank, b, i, env),
        Formula::Iff(a, b) => eval(bank, a, i, env) == eval(bank, b, i, env),
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
            let all = matches!(f, Formula::Forall(..));
            // Every assignment of the bound variables.
            let k = vs.len() as u32;
            let saved: Vec<u32> = vs.iter().map(|&v| env[v as usize]).collect();
            let mut result = all;
            for code in 0..i.n.pow(k) {
                let mut c = code;
                for &v in vs {
                    env[v as usize] = c % i.n;
                    c /= i.n;
                }
                if eval(bank, g, i, env) != all {
                    result = !all;
                    break;
                }
            }
            for (&v, s) in vs.iter().zip(saved) {
                env[v as usize] = s;
            }
            result
        }
    }
}

/// Whether `f` (closed, with `nvars` variables) has a model of size `n`.
fn brute_force_sat(bank: &TermBank, f: &Formula, nvars: usize, n: u32) -> bool {
    let mut env = vec![0; nvars];
    for p in 0..1u32 << n {
        for q in 0..1u32 << (n * n) {
            for r in [false, true] {
                for a in 0..n {
                    for b in 0..n {
                        let i = Interp { n, p, q, r, a, b };
                        if eval(bank, f, &i, &mut env) {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Clausification preserves satisfiability at domain sizes 1 and 2.
    #[test]
    fn clause_set_has_a_model_exactly_when_the_formula_has(text in formula_text()) {
        let mut bank = TermBank::new();
        // Make every symbol exist so parsing and the evaluator agree.
        let src = format!("fof(f, axiom, {text}).\n");
        let p = parse_str(&mut bank, &src, "t.p", None).map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Re-read the formula itself to evaluate it.
        let mut b2 = TermBank::new();
        let f = crate::tptp::fof_tests::parse_formula_for_tests(&mut b2, &text)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (again, _) = clausify_formula(&mut b2, &f.0);
        prop_assert_eq!(again.len(), p.clauses.len());
        let clauses: Vec<&[Literal]> = p.clauses.iter().map(|c| c.lits.as_slice()).collect();
        for n in 1..=2u32 {
            let expected = brute_force_sat(&b2, &f.0, f.1, n);
            let found = ModelFinder::new(10_000_000, 10_000_000)
                .search(&bank, &clauses, n..=n)
                .is_some();
            prop_assert_eq!(found, expected, "size {} for {} gives clauses {:?}", n, text,
                p.clauses.iter().map(|c| crate::tptp::clause_to_tptp(&bank, &c.lits)).collect::<Vec<_>>());
        }
    }
}
