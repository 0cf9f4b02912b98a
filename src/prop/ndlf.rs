//! NDL_f, the single-rule proof language of ProofGrid's PL2 (seed 000; PL/EQ
//! spec §2): every step is `p from j1, ..., jn` and is valid when its
//! justifiers hold and jointly entail `p`, decided by the SAT back-end.
//! Blocks, `assume`, names and scoping are NDL's, so the checker is the NDL
//! checker of [`super::check`] with this module's step rule plugged in
//! ([`NdlfOptions`] implements [`StepRule`]).
//!
//! Check order per step (spec §2): names bound (syntax) → n ≤ 5 (type) →
//! every justifier holds (logic) → optional premise-conjunct bound (type) →
//! `{j1..jn} ⊨ p` (logic, with a counterexample assignment).

use super::check::{ErrorKind, Mode, Report, StepRule, check_parsed_with, check_text_with};
use super::formula::Formula;
use super::ndl::{Deduction, Dialect, FROM_RULE, Step};
use super::sat;
use std::collections::BTreeMap;

/// Limits of an NDL_f step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NdlfOptions {
    /// Most justifiers per step (spec §2: 5).
    pub max_justifiers: usize,
    /// Whether `p from` with no justifier (a tautology) is allowed.
    pub allow_empty: bool,
    /// Anti-consolidation bound (spec §2, [P]): the premises cited in one
    /// step, counting every premise that is a justifier or a top-level
    /// conjunct of one; `None` turns the check off.
    pub max_premise_conjuncts: Option<usize>,
}

impl Default for NdlfOptions {
    fn default() -> Self {
        NdlfOptions {
            max_justifiers: 5,
            allow_empty: true,
            max_premise_conjuncts: Some(5),
        }
    }
}

/// Renders an assignment as `A = true, B = false` (sorted by atom).
pub fn render_assignment(m: &BTreeMap<String, bool>) -> String {
    m.iter()
        .map(|(a, v)| format!("{a} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn conjuncts<'f>(f: &'f Formula, out: &mut Vec<&'f Formula>) {
    match f {
        Formula::And(p, q) => {
            conjuncts(p, out);
            conjuncts(q, out);
        }
        f => out.push(f),
    }
}

/// How many premises a justifier cites: 1 if it is a premise, else the
/// number of its top-level conjuncts that are premises.
pub fn premise_conjuncts(premises: &[Formula], j: &Formula) -> usize {
    if premises.contains(j) {
        return 1;
    }
    let mut cs = Vec::new();
    conjuncts(j, &mut cs);
    cs.iter().filter(|c| premises.contains(c)).count()
}

/// Checks one step `claim from args` whose names are already resolved.
/// `Err` carries the error kind and description.
pub(crate) fn check_from_step(
    opts: &NdlfOptions,
    premises: &[Formula],
    holds: &dyn Fn(&Formula) -> bool,
    claim: &Formula,
    args: &[Formula],
) -> Result<(), (ErrorKind, String)> {
    if args.len() > opts.max_justifiers {
        return Err((
            ErrorKind::Type,
            format!(
                "a step may cite at most {} justifiers, this one cites {}",
                opts.max_justifiers,
                args.len()
            ),
        ));
    }
    if args.is_empty() && !opts.allow_empty {
        return Err((ErrorKind::Type, "a step must cite a justifier".into()));
    }
    for (i, a) in args.iter().enumerate() {
        if !holds(a) {
            return Err((
                ErrorKind::Logic,
                format!("justifier {}, {a}, does not hold at this point", i + 1),
            ));
        }
    }
    if let Some(m) = opts.max_premise_conjuncts {
        let n: usize = args.iter().map(|a| premise_conjuncts(premises, a)).sum();
        if n > m {
            return Err((
                ErrorKind::Type,
                format!(
                    "the justifiers consolidate {n} premises, more than {m} (premises merged into one formula still count one by one)"
                ),
            ));
        }
    }
    let mut fs = args.to_vec();
    fs.push(Formula::negation(claim.clone()));
    match sat::model(&fs) {
        None => Ok(()),
        Some(m) => Err((
            ErrorKind::Logic,
            format!(
                "{claim} does not follow from the justifiers; counterexample: {}",
                render_assignment(&m)
            ),
        )),
    }
}

/// NDL_f's `from` step as the checker's plugged rule; other rule names are
/// left to NDL's table (which refuses them as unknown rules).
impl StepRule for NdlfOptions {
    fn check_step(
        &self,
        premises: &[Formula],
        holds: &dyn Fn(&Formula) -> bool,
        step: &Step,
        args: &[Formula],
    ) -> Option<Result<Formula, (ErrorKind, String)>> {
        if step.rule != FROM_RULE {
            return None;
        }
        let claim = step
            .conclusion
            .as_ref()
            .expect("NDL_f steps have a conclusion");
        Some(check_from_step(self, premises, holds, claim, args).map(|()| claim.clone()))
    }
}

/// Checks a parsed NDL_f proof against named premises and a goal.
pub fn check_parsed_ndlf(
    premises: &[(String, Formula)],
    goal: &Formula,
    proof: &Deduction,
    mode: Mode,
    opts: &NdlfOptions,
) -> Report {
    check_parsed_with(premises, goal, proof, mode, Some(opts as &dyn StepRule))
}

/// Parses and checks NDL_f proof text; parse errors are syntax errors at
/// their line.
pub fn check_ndlf_text(
    premises: &[(String, Formula)],
    goal: &Formula,
    text: &str,
    mode: Mode,
    opts: &NdlfOptions,
) -> Report {
    check_text_with(premises, goal, text, mode, Dialect::NdlF, Some(opts))
}

#[cfg(test)]
mod tests {
    use super::super::check::named_premises;
    use super::super::formula::tests::arb_formula_sized;
    use super::super::ndl::{parse_proof_in, print};
    use super::*;
    use proptest::prelude::*;

    fn f(s: &str) -> Formula {
        Formula::parse(s).unwrap()
    }

    fn check(ps: &[&str], goal: &str, proof: &str) -> Report {
        let named = named_premises(&ps.iter().map(|p| f(p)).collect::<Vec<_>>());
        check_ndlf_text(
            &named,
            &f(goal),
            proof,
            Mode::Strict,
            &NdlfOptions::default(),
        )
    }

    const PS: [&str; 3] = ["(A ==> B)", "(B ==> C)", "A"];

    #[test]
    fn a_correct_proof_with_names_assume_and_reductio_checks() {
        let proof = "{\n  b := B from premise-1, premise-3;\n  C from b, premise-2\n}";
        assert_eq!(check(&PS, "C", proof).result, Ok(f("C")));
        let reductio = "{\n  assume (~ C) {\n    B from premise-1, A;\n    C from B, premise-2;\n    false from C, (~ C)\n  };\n  C from ((~ C) ==> false)\n}";
        let r = check(&PS, "C", reductio);
        assert_eq!(r.result, Ok(f("C")));
        assert_eq!(r.steps, 4);
        // FROM in capitals is accepted, and a step may have no justifier.
        let taut = "{\n  (A | (~ A)) FROM\n}";
        assert!(check(&[], "(A | (~ A))", taut).ok());
        // The round trip through the printer keeps the proof.
        let d = parse_proof_in(reductio, false, Dialect::NdlF).unwrap();
        assert_eq!(print(&d), reductio);
    }

    #[test]
    fn the_three_error_kinds_of_the_checking_prompt() {
        // A non-entailed step: logic, with a counterexample.
        let e = check(&PS, "C", "{\n  C from premise-2, premise-3\n}")
            .result
            .unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Logic, 2));
        assert!(
            e.description.contains("counterexample"),
            "{}",
            e.description
        );
        assert!(e.description.contains("B = false") && e.description.contains("C = false"));
        // An undefined name: syntax.
        let e = check(&PS, "C", "{\n  B from premise-1, lemma-5\n}")
            .result
            .unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Syntax, 2));
        // Six justifiers: type, before membership is looked at.
        let e = check(&PS, "C", "{\n  C from A, A, A, A, A, (~ A)\n}")
            .result
            .unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Type, 2));
        // A justifier that does not hold: logic.
        let e = check(&PS, "C", "{\n  C from B, premise-2\n}")
            .result
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Logic);
        assert!(e.description.contains("does not hold"));
        // A hypothesis is gone once its block closes.
        let e = check(
            &PS,
            "C",
            "{\n  assume D {\n    D from D\n  };\n  C from D, premise-3, premise-1, premise-2\n}",
        )
        .result
        .unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Logic, 5));
        // The result must be the goal.
        let e = check(&PS, "C", "{\n  B from premise-1, premise-3\n}")
            .result
            .unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Logic, 0));
        // NDL syntax is not NDL_f.
        for bad in [
            "{\n  C BY mp on premise-2, B\n}",
            "{\n  mp on premise-1, A\n}",
        ] {
            assert_eq!(
                check(&PS, "C", bad).result.unwrap_err().kind,
                ErrorKind::Syntax
            );
        }
    }

    #[test]
    fn consolidated_premises_are_counted_one_by_one() {
        let ps: Vec<String> = (1..=7).map(|i| format!("A{i}")).collect();
        let refs: Vec<&str> = ps.iter().map(|s| s.as_str()).collect();
        let goal = "(A1 & (A2 & (A3 & (A4 & (A5 & (A6 & A7))))))";
        let cheat = "{\n  x := (A1 & (A2 & (A3 & A4))) from A1, A2, A3, A4;\n  y := (A5 & (A6 & A7)) from A5, A6, A7;\n  (A1 & (A2 & (A3 & (A4 & (A5 & (A6 & A7)))))) from x, y\n}";
        let e = check(&refs, goal, cheat).result.unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Type, 4));
        let named = named_premises(&refs.iter().map(|p| f(p)).collect::<Vec<_>>());
        let off = NdlfOptions {
            max_premise_conjuncts: None,
            ..NdlfOptions::default()
        };
        assert!(check_ndlf_text(&named, &f(goal), cheat, Mode::Strict, &off).ok());
    }

    proptest! {
        /// A one-step NDL_f proof checks exactly when its justifiers entail
        /// its claim by truth table (independent of the SAT back-end).
        #[test]
        fn single_steps_agree_with_brute_force(
            js in prop::collection::vec(arb_formula_sized(3, 8), 0..4),
            claim in arb_formula_sized(3, 8),
        ) {
            let named: Vec<(String, Formula)> = js
                .iter()
                .enumerate()
                .map(|(i, j)| (format!("p{i}"), j.clone()))
                .collect();
            let cites: Vec<String> = named.iter().map(|(n, _)| n.clone()).collect();
            let text = format!("{{\n  {claim} from {}\n}}", cites.join(", "));
            let opts = NdlfOptions { max_premise_conjuncts: None, ..NdlfOptions::default() };
            let r = check_ndlf_text(&named, &claim, &text, Mode::Strict, &opts);
            let truth = sat::entails_by_table(&js, &claim);
            prop_assert_eq!(r.ok(), truth, "{}", text);
            if let Err(e) = r.result {
                // The counterexample makes every justifier true and the claim false.
                let cx = e.description.split("counterexample: ").nth(1).unwrap_or("");
                let m: BTreeMap<&str, bool> = cx
                    .split(", ")
                    .filter(|s| !s.is_empty())
                    .map(|kv| {
                        let (k, v) = kv.split_once(" = ").unwrap();
                        (k, v == "true")
                    })
                    .collect();
                let v = |a: &str| m.get(a).copied().unwrap_or(false);
                prop_assert!(js.iter().all(|j| j.eval(&v)) && !claim.eval(&v), "{}", e.description);
            }
        }
    }
}
