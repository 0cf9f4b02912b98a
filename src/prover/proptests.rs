//! Property tests of the prover against a brute-force oracle. Clause sets are
//! drawn from the Bernays–Schönfinkel class (constants `a b c`, variables,
//! `p/1`, `r/2`, equality, no functions): such a set is satisfiable iff it
//! has a model whose domain is at most the number of constants, so
//! enumerating every interpretation of size 1..=3 decides it exactly.
//! Every verdict must agree, and its certificate must pass the checker
//! (`check = true` makes the prover panic otherwise).

use super::{InputClause, Prover, ProverLimits, Verdict};
use crate::logic::{Literal, TermBank};
use crate::tptp::parse_clause_str;
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Tm {
    C(u8),
    V(u8),
}

#[derive(Clone, Copy, Debug)]
enum At {
    P(Tm),
    R(Tm, Tm),
    Eq(Tm, Tm),
}

type Lit = (bool, At);

fn tm() -> impl Strategy<Value = Tm> {
    prop_oneof![(0u8..3).prop_map(Tm::C), (0u8..2).prop_map(Tm::V)]
}

fn lit() -> impl Strategy<Value = Lit> {
    let atom = prop_oneof![
        tm().prop_map(At::P),
        (tm(), tm()).prop_map(|(x, y)| At::R(x, y)),
        (tm(), tm()).prop_map(|(x, y)| At::Eq(x, y)),
    ];
    (any::<bool>(), atom)
}

fn clauses() -> impl Strategy<Value = Vec<Vec<Lit>>> {
    prop::collection::vec(prop::collection::vec(lit(), 1..=3), 1..=7)
}

fn tm_text(t: Tm) -> String {
    match t {
        Tm::C(i) => ["a", "b", "c"][i as usize].to_string(),
        Tm::V(i) => ["X", "Y"][i as usize].to_string(),
    }
}

fn clause_text(c: &[Lit]) -> String {
    let lits: Vec<String> = c
        .iter()
        .map(|(pos, a)| match a {
            At::P(x) => format!("{}p({})", if *pos { "" } else { "~" }, tm_text(*x)),
            At::R(x, y) => format!(
                "{}r({},{})",
                if *pos { "" } else { "~" },
                tm_text(*x),
                tm_text(*y)
            ),
            At::Eq(x, y) => format!(
                "{} {} {}",
                tm_text(*x),
                if *pos { "=" } else { "!=" },
                tm_text(*y)
            ),
        })
        .collect();
    lits.join(" | ")
}

/// Exhaustive satisfiability over domains of size 1..=3.
fn brute_force_sat(cs: &[Vec<Lit>]) -> bool {
    for n in 1u32..=3 {
        for consts in 0..n.pow(3) {
            let c = [consts % n, consts / n % n, consts / (n * n) % n];
            for p in 0u32..(1 << n) {
                for r in 0u64..(1u64 << (n * n)) {
                    let holds = |cl: &Vec<Lit>, x: u32, y: u32| {
                        let v = |t: Tm| match t {
                            Tm::C(i) => c[i as usize],
                            Tm::V(0) => x,
                            Tm::V(_) => y,
                        };
                        cl.iter().any(|(pos, a)| {
                            let val = match a {
                                At::P(t) => p >> v(*t) & 1 == 1,
                                At::R(s, t) => r >> (v(*s) * n + v(*t)) & 1 == 1,
                                At::Eq(s, t) => v(*s) == v(*t),
                            };
                            val == *pos
                        })
                    };
                    let model = cs
                        .iter()
                        .all(|cl| (0..n).all(|x| (0..n).all(|y| holds(cl, x, y))));
                    if model {
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn parse(bank: &mut TermBank, cs: &[Vec<Lit>]) -> Vec<Vec<Literal>> {
    cs.iter()
        .map(|c| parse_clause_str(bank, &clause_text(c)).expect("generated clause parses"))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn refute_agrees_with_brute_force(cs in clauses()) {
        let mut bank = TermBank::new();
        let lits = parse(&mut bank, &cs);
        let inputs: Vec<InputClause> = lits
            .iter()
            .enumerate()
            .map(|(i, l)| InputClause { lits: l.clone(), name: format!("c{i}"), role: "axiom".into() })
            .collect();
        let mut prover = Prover::new(ProverLimits::default());
        let out = prover.refute(&bank, &inputs);
        let expected_sat = brute_force_sat(&cs);
        match out.verdict {
            Verdict::Theorem { .. } => prop_assert!(!expected_sat, "refuted a satisfiable set"),
            Verdict::CounterSatisfiable { .. } => prop_assert!(expected_sat, "model for an unsatisfiable set"),
            Verdict::Unknown => prop_assert!(false, "undecided on a decidable set"),
        }
    }

    #[test]
    fn entailment_agrees_with_brute_force(cs in clauses(), goal in prop::collection::vec(ground_lit(), 1..=2)) {
        // premises ⊨ goal  iff  premises ∧ ¬goal is unsatisfiable; with a
        // ground goal that set stays in the class, so brute force decides it.
        let mut bank = TermBank::new();
        let lits = parse(&mut bank, &cs);
        let conj = parse_clause_str(&mut bank, &clause_text(&goal)).unwrap();
        let refs: Vec<&[Literal]> = lits.iter().map(|c| c.as_slice()).collect();
        let mut prover = Prover::new(ProverLimits::default());
        let out = prover.prove(&bank, &refs, &conj);
        let mut with_negation = cs.clone();
        with_negation.extend(goal.iter().map(|&(pos, a)| vec![(!pos, a)]));
        let entailed = !brute_force_sat(&with_negation);
        prop_assert_eq!(out.verdict.label(), Some(entailed));
        // The same question again comes from the cache.
        let again = prover.prove(&bank, &refs, &conj);
        prop_assert!(again.stats.cached);
        prop_assert_eq!(again.verdict, out.verdict);
    }
}

fn ground_lit() -> impl Strategy<Value = Lit> {
    let c = || (0u8..3).prop_map(Tm::C);
    let atom = prop_oneof![
        c().prop_map(At::P),
        (c(), c()).prop_map(|(x, y)| At::R(x, y)),
        (c(), c()).prop_map(|(x, y)| At::Eq(x, y)),
    ];
    (any::<bool>(), atom)
}

/// Terms with function symbols for the planted-model test.
#[derive(Clone, Debug)]
enum Ft {
    C(u8),
    V(u8),
    F(Box<Ft>),
    G(Box<Ft>, Box<Ft>),
}

fn ft() -> impl Strategy<Value = Ft> {
    let leaf = prop_oneof![(0u8..2).prop_map(Ft::C), (0u8..3).prop_map(Ft::V)];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| Ft::F(Box::new(t))),
            (inner.clone(), inner).prop_map(|(a, b)| Ft::G(Box::new(a), Box::new(b))),
        ]
    })
}

fn ft_text(t: &Ft) -> String {
    match t {
        Ft::C(i) => ["a", "b"][*i as usize].to_string(),
        Ft::V(i) => ["X", "Y", "Z"][*i as usize].to_string(),
        Ft::F(a) => format!("f({})", ft_text(a)),
        Ft::G(a, b) => format!("g({},{})", ft_text(a), ft_text(b)),
    }
}

/// A planted interpretation over {0..n-1}.
#[derive(Clone, Debug)]
struct Planted {
    n: u32,
    consts: [u32; 2],
    f: Vec<u32>,
    g: Vec<u32>,
    p: Vec<bool>,
}

fn planted() -> impl Strategy<Value = Planted> {
    (1u32..=3).prop_flat_map(|n| {
        (
            prop::array::uniform2(0..n),
            prop::collection::vec(0..n, n as usize),
            prop::collection::vec(0..n, (n * n) as usize),
            prop::collection::vec(any::<bool>(), n as usize),
        )
            .prop_map(move |(consts, f, g, p)| Planted { n, consts, f, g, p })
    })
}

impl Planted {
    fn eval(&self, t: &Ft, a: &[u32; 3]) -> u32 {
        match t {
            Ft::C(i) => self.consts[*i as usize],
            Ft::V(i) => a[*i as usize],
            Ft::F(x) => self.f[self.eval(x, a) as usize],
            Ft::G(x, y) => self.g[(self.eval(x, a) * self.n + self.eval(y, a)) as usize],
        }
    }

    fn holds(&self, c: &[(bool, bool, Ft, Ft)]) -> bool {
        let n = self.n;
        (0..n.pow(3)).all(|k| {
            let a = [k % n, k / n % n, k / (n * n) % n];
            c.iter().any(|(pos, eq, s, t)| {
                let v = if *eq {
                    self.eval(s, &a) == self.eval(t, &a)
                } else {
                    self.p[self.eval(s, &a) as usize]
                };
                v == *pos
            })
        })
    }
}

fn planted_lit() -> impl Strategy<Value = (bool, bool, Ft, Ft)> {
    (any::<bool>(), any::<bool>(), ft(), ft())
}

fn planted_text(c: &[(bool, bool, Ft, Ft)]) -> String {
    let lits: Vec<String> = c
        .iter()
        .map(|(pos, eq, s, t)| {
            if *eq {
                format!(
                    "{} {} {}",
                    ft_text(s),
                    if *pos { "=" } else { "!=" },
                    ft_text(t)
                )
            } else {
                format!("{}p({})", if *pos { "" } else { "~" }, ft_text(s))
            }
        })
        .collect();
    lits.join(" | ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Clauses true in a planted model form a satisfiable set: the prover
    /// must never refute it, and any model it returns passes the checker.
    #[test]
    fn never_refutes_a_set_with_a_planted_model(
        m in planted(),
        cands in prop::collection::vec(prop::collection::vec(planted_lit(), 1..=3), 1..=12),
    ) {
        let kept: Vec<&Vec<(bool, bool, Ft, Ft)>> = cands.iter().filter(|c| m.holds(c)).collect();
        let mut bank = TermBank::new();
        let inputs: Vec<InputClause> = kept
            .iter()
            .enumerate()
            .map(|(i, c)| InputClause {
                lits: parse_clause_str(&mut bank, &planted_text(c)).expect("parses"),
                name: format!("c{i}"),
                role: "axiom".into(),
            })
            .collect();
        let limits = ProverLimits { max_processed: 300, max_model_size: 3, ..ProverLimits::default() };
        let out = Prover::new(limits).refute(&bank, &inputs);
        prop_assert!(!matches!(out.verdict, Verdict::Theorem { .. }), "refuted a set true in {m:?}");
        // With a model of size <= 3 planted, the finder must find one.
        prop_assert!(out.verdict.label() == Some(false), "no model found for a set true in {m:?}");
    }
}

/// A definition body over `X`, `a`, `b` and `g` (no `f`).
fn body() -> impl Strategy<Value = Ft> {
    let leaf = prop_oneof![(0u8..2).prop_map(Ft::C), Just(Ft::V(0))];
    leaf.prop_recursive(2, 6, 2, |inner| {
        (inner.clone(), inner).prop_map(|(a, b)| Ft::G(Box::new(a), Box::new(b)))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Unfolding a definition `f(X) = body` before the search never turns
    /// a decided verdict around, and every certificate it gives checks
    /// (the prover re-checks each one; a refused one is a defect).
    #[test]
    fn unfolding_a_definition_keeps_the_verdict(
        def in body(),
        cs in prop::collection::vec(prop::collection::vec(planted_lit(), 1..=3), 1..=8),
    ) {
        let mut bank = TermBank::new();
        let mut inputs: Vec<InputClause> = vec![InputClause {
            lits: parse_clause_str(&mut bank, &format!("f(X) = {}", ft_text(&def))).expect("parses"),
            name: "def".into(),
            role: "axiom".into(),
        }];
        for (i, c) in cs.iter().enumerate() {
            inputs.push(InputClause {
                lits: parse_clause_str(&mut bank, &planted_text(c)).expect("parses"),
                name: format!("c{i}"),
                role: "axiom".into(),
            });
        }
        let verdict = |unfold: bool| {
            let limits = ProverLimits {
                max_processed: 300,
                max_model_size: 3,
                unfold_definitions: unfold,
                ..ProverLimits::default()
            };
            let mut p = Prover::new(limits);
            let label = p.refute(&bank, &inputs).verdict.label();
            prop_assert_eq!(p.take_defects(), Vec::new());
            Ok(label)
        };
        let (on, off) = (verdict(true)?, verdict(false)?);
        if let (Some(a), Some(b)) = (on, off) {
            prop_assert_eq!(a, b, "unfolding {} changed the verdict", ft_text(&def));
        }
    }
}
