//! NDL_f, the single-rule proof language of ProofGrid's PL2 (seed 000; PL/EQ
//! spec §2): every step is `p from j1, ..., jn` and is valid when its
//! justifiers hold and jointly entail `p`, decided by the SAT back-end.
//! Blocks, `assume`, names and scoping are NDL's, so the checker is the NDL
//! checker of [`super::check`] with this module's step rule plugged in
//! ([`NdlfOptions`] implements [`StepRule`]).
//!
//! Check order per step (spec §2): names bound (syntax) → n ≤ 5 (type) →
//! every justifier holds (logic) → optional premise bound on the
//! justifiers (type) → without justifier-free steps, the claim is no
//! tautology (type) → with the premise bound, the claim mentions at most
//! that many premises as sub-formulas (type), and premises cited plus
//! premises the claim carries as hypotheses stay within it (type) →
//! `{j1..jn} ⊨ p` (logic, with a counterexample assignment).
//!
//! The premise bound stops a proof from gathering all premises at once,
//! which would let one step do the whole proof. The encodings it closes:
//! - consolidation: a lemma that conjoins premises, cited later; a
//!   justifier counts every premise it carries: a top-level conjunct, or a
//!   premise whose clausal form (without auxiliary atoms) is part of the
//!   justifier's, so grouping, nesting, double negation, `| false` and
//!   rewritten forms of the premises all count one by one;
//! - the curried tautology `p1 ==> (p2 ==> ... ==> goal)` (valid, so it
//!   follows from anything), then discharged a few hypotheses at a time:
//!   tautologies are refused, and premises the claim assumes as
//!   hypotheses (`(p1 & ... & p6) ==> goal`, `(~ p1) | ... | goal`,
//!   `~ (p1 & ... & ~ goal)`, `<==>` forms, equivalent rewrites) count
//!   with the cited ones;
//! - any other position: a claim that mentions more premise formulas than
//!   the bound as sub-formulas is refused outright.

use super::check::{
    ErrorKind, Mode, Report, RuleError, StepRule, check_parsed_with, check_text_with,
};
use super::formula::Formula;
use super::ndl::{Deduction, Dialect, FROM_RULE, Step};
use super::resolution::{AtomTable, Clause, clausify};
use super::sat;
use std::collections::{BTreeMap, BTreeSet};

/// Limits of an NDL_f step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NdlfOptions {
    /// Most justifiers per step (spec §2: 5).
    pub max_justifiers: usize,
    /// Whether `p from` with no justifier (a tautology) is allowed.
    pub allow_empty: bool,
    /// Anti-consolidation bound (spec §2, \[P\]): the premises cited in one
    /// step, counting every premise a justifier carries
    /// ([`carried_premises`]), the premises the claim assumes as hypotheses,
    /// and, separately, the premises the claim mentions as sub-formulas;
    /// `None` turns the checks off.
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

/// Most clauses of a justifier's clausal form looked at by
/// [`carried_premises`]; a larger one is read syntactically.
const CARRY_CLAUSE_CAP: usize = 4096;

/// How many premises a justifier carries: 1 if it is a premise; else every
/// premise that is a top-level conjunct of it, or whose clausal form
/// (without auxiliary atoms, [`clausify`]) is non-empty and contained in
/// the justifier's, so premises merged into one formula count one by one
/// however they are grouped, negated twice or rewritten. A justifier whose
/// clausal form exceeds `CARRY_CLAUSE_CAP` clauses counts, instead, the
/// compound premises it contains as sub-formulas. An honest derived lemma
/// (a clause, a literal) carries a premise only by restating it.
pub fn carried_premises(premises: &[Formula], j: &Formula) -> usize {
    if premises.contains(j) {
        return 1;
    }
    let mut cs = Vec::new();
    conjuncts(j, &mut cs);
    let mut atoms = AtomTable::default();
    let own: Option<BTreeSet<Clause>> =
        clausify(j, &mut atoms, CARRY_CLAUSE_CAP).map(|c| c.into_iter().collect());
    premises
        .iter()
        .filter(|p| {
            cs.contains(p)
                || match &own {
                    Some(own) => clausify(p, &mut atoms, CARRY_CLAUSE_CAP)
                        .is_some_and(|pc| !pc.is_empty() && pc.iter().all(|c| own.contains(c))),
                    None => !is_literal(p) && mentions(j, p),
                }
        })
        .count()
}

/// Whether `p` occurs in `f` as a sub-formula (`f` itself included).
fn mentions(f: &Formula, p: &Formula) -> bool {
    if f == p {
        return true;
    }
    match f {
        Formula::Not(x) => mentions(x, p),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Imp(a, b) | Formula::Iff(a, b) => {
            mentions(a, p) || mentions(b, p)
        }
        _ => false,
    }
}

/// How many compound premises occur in `claim` as sub-formulas, in any
/// position (literal premises are left out: clauses mention atoms freely).
pub fn mentioned_premises(premises: &[Formula], claim: &Formula) -> usize {
    let mut seen: Vec<&Formula> = Vec::new();
    for p in premises {
        if !is_literal(p) && !seen.contains(&p) && mentions(claim, p) {
            seen.push(p);
        }
    }
    seen.len()
}

/// The hypotheses of a claim: the formulas it assumes rather than asserts.
/// `(a ==> b)` assumes a's conjuncts and b's hypotheses; a disjunct `(~ x)`
/// assumes x's conjuncts (the disjunction says x implies the rest), other
/// compound disjuncts and conjuncts their own hypotheses; `(~ (x & y))`
/// assumes x and y; `(a <==> b)` assumes what either direction of the
/// implication does; `(~ (~ x))` what x does. A claim that restates the
/// premises this way carries them into the proof without citing them.
fn hypotheses<'f>(f: &'f Formula, out: &mut Vec<&'f Formula>) {
    match f {
        Formula::Imp(a, b) => {
            conjuncts(a, out);
            hypotheses(b, out);
        }
        Formula::Or(a, b) => {
            for d in [a, b] {
                match &**d {
                    Formula::Not(x) => conjuncts(x, out),
                    other => hypotheses(other, out),
                }
            }
        }
        Formula::And(a, b) => {
            hypotheses(a, out);
            hypotheses(b, out);
        }
        Formula::Iff(a, b) => {
            conjuncts(a, out);
            hypotheses(b, out);
            conjuncts(b, out);
            hypotheses(a, out);
        }
        Formula::Not(x) => match &**x {
            Formula::And(..) => conjuncts(x, out),
            Formula::Not(y) => hypotheses(y, out),
            _ => {}
        },
        _ => {}
    }
}

fn is_literal(f: &Formula) -> bool {
    match f {
        Formula::Not(x) => matches!(**x, Formula::Atom(_)),
        Formula::Atom(_) | Formula::True | Formula::False => true,
        _ => false,
    }
}

/// How many compound premises, not cited as justifiers, a claim carries
/// as hypotheses: those its compound hypotheses together entail (so a
/// premise restated verbatim or rewritten into an equivalent form counts).
/// Literals are left out on both sides: a clause or a restated Horn rule
/// assumes atoms (`(P1 & P2) ==> P3`) without gathering anything, and a
/// unit premise is as cheap to cite as to assume.
fn hypothesis_premises(premises: &[Formula], args: &[Formula], claim: &Formula) -> usize {
    let mut hyps = Vec::new();
    hypotheses(claim, &mut hyps);
    let compound: Vec<Formula> = hyps
        .iter()
        .filter(|h| !is_literal(h))
        .map(|h| (*h).clone())
        .collect();
    if compound.is_empty() {
        return 0;
    }
    premises
        .iter()
        .filter(|p| {
            // Undecided within the budget: counted as gathered.
            !is_literal(p)
                && !args.contains(p)
                && sat::entails_within(&compound, p, sat::ANSWER_CONFLICTS).unwrap_or(true)
        })
        .count()
}

/// Checks one step `claim from args` whose names are already resolved.
/// `Err` carries the error kind and description, and whether the step
/// breaks a limit that closes a shortcut ([`RuleError::forbidden`]): the
/// justifier limit, a step without justifier, a claimed tautology and the
/// premise bound are; a justifier that does not hold and a claim that does
/// not follow are plain errors.
pub(crate) fn check_from_step(
    opts: &NdlfOptions,
    premises: &[Formula],
    holds: &dyn Fn(&Formula) -> bool,
    claim: &Formula,
    args: &[Formula],
) -> Result<(), RuleError> {
    if args.len() > opts.max_justifiers {
        return Err(RuleError::forbidden(
            ErrorKind::Type,
            format!(
                "a step may cite at most {} justifiers, this one cites {}",
                opts.max_justifiers,
                args.len()
            ),
        ));
    }
    if args.is_empty() && !opts.allow_empty {
        return Err(RuleError::forbidden(
            ErrorKind::Type,
            "a step must cite a justifier",
        ));
    }
    for (i, a) in args.iter().enumerate() {
        if !holds(a) {
            return Err(RuleError::wrong(
                ErrorKind::Logic,
                format!("justifier {}, {a}, does not hold at this point", i + 1),
            ));
        }
    }
    let cited: usize = match opts.max_premise_conjuncts {
        Some(_) => args.iter().map(|a| carried_premises(premises, a)).sum(),
        None => 0,
    };
    if let Some(m) = opts.max_premise_conjuncts
        && cited > m
    {
        return Err(RuleError::forbidden(
            ErrorKind::Type,
            format!(
                "the justifiers consolidate {cited} premises, more than {m} (premises merged into one formula still count one by one)"
            ),
        ));
    }
    let undecided = || {
        RuleError::wrong(
            ErrorKind::Logic,
            format!(
                "the check of {claim} was not decided within {} SAT conflicts",
                sat::ANSWER_CONFLICTS
            ),
        )
    };
    if !opts.allow_empty
        && !sat::satisfiable_within(&[Formula::negation(claim.clone())], sat::ANSWER_CONFLICTS)
            .map_err(|_| undecided())?
    {
        return Err(RuleError::forbidden(
            ErrorKind::Type,
            format!(
                "{claim} is a tautology: it would follow from any justifier, and steps without justifiers are not allowed"
            ),
        ));
    }
    if let Some(m) = opts.max_premise_conjuncts {
        let mentioned = mentioned_premises(premises, claim);
        if mentioned > m {
            return Err(RuleError::forbidden(
                ErrorKind::Type,
                format!(
                    "the claim mentions {mentioned} premises as sub-formulas, more than {m}: a step may not gather that many premises in any position"
                ),
            ));
        }
        let gathered = hypothesis_premises(premises, args, claim);
        if cited + gathered > m {
            return Err(RuleError::forbidden(
                ErrorKind::Type,
                format!(
                    "the step gathers {} premises, more than {m}: {cited} in its justifiers and {gathered} as hypotheses of its claim",
                    cited + gathered
                ),
            ));
        }
    }
    let mut fs = args.to_vec();
    fs.push(Formula::negation(claim.clone()));
    match sat::model_within(&fs, sat::ANSWER_CONFLICTS).map_err(|_| undecided())? {
        None => Ok(()),
        Some(m) => Err(RuleError::wrong(
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
    ) -> Option<Result<Formula, RuleError>> {
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

    /// PL2's limits: 5 justifiers, no justifier-free steps, 5 premises.
    fn pl2_opts() -> NdlfOptions {
        NdlfOptions {
            max_justifiers: 5,
            allow_empty: false,
            max_premise_conjuncts: Some(5),
        }
    }

    /// A chain `P0, P0 ==> P1, ..., P6 ==> P7` proving `P7`: eight premises.
    fn chain() -> Vec<Formula> {
        let mut ps = vec![f("P0")];
        ps.extend((0..7).map(|i| f(&format!("(P{i} ==> P{})", i + 1))));
        ps
    }

    fn check_pl2(proof: &str) -> Report {
        let named = named_premises(&chain());
        check_ndlf_text(&named, &f("P7"), proof, Mode::Strict, &pl2_opts())
    }

    /// Right-nested `h1 ==> (h2 ==> ... ==> last)`.
    fn curried(hyps: &[String], last: &str) -> String {
        hyps.iter()
            .rev()
            .fold(last.to_string(), |acc, h| format!("({h} ==> {acc})"))
    }

    fn implications() -> Vec<String> {
        chain()[1..].iter().map(|p| p.to_string()).collect()
    }

    fn assert_gathering_refused(r: &Report, what: &str) {
        let e = r.result.as_ref().expect_err(what);
        assert_eq!((e.kind, e.line), (ErrorKind::Type, 2), "{what}: {e:?}");
        assert!(
            e.forbidden,
            "{what}: a shortcut is forbidden, not merely wrong"
        );
    }

    #[test]
    fn an_honest_chain_proof_passes_the_pl2_limits() {
        let mut lines = vec!["P1 from premise-1, premise-2".to_string()];
        for i in 1..7 {
            lines.push(format!("P{} from P{i}, premise-{}", i + 1, i + 2));
        }
        let proof = format!("{{\n  {}\n}}", lines.join(";\n  "));
        assert!(check_pl2(&proof).ok(), "{:?}", check_pl2(&proof).result);
    }

    #[test]
    fn the_curried_tautology_shortcut_is_refused() {
        // Every premise as a hypothesis: valid, so it "follows" from anything.
        let mut all = vec!["P0".to_string()];
        all.extend(implications());
        let taut = curried(&all, "P7");
        let r = check_pl2(&format!(
            "{{\n  c := {taut} from premise-1;\n  P7 from c, premise-1\n}}"
        ));
        assert_gathering_refused(&r, "curried tautology");
        assert!(format!("{:?}", r.result).contains("tautology"));
        // Leaving out the cited premise: not valid, but it carries seven.
        let rest = curried(&implications(), "P7");
        let r = check_pl2(&format!(
            "{{\n  c := {rest} from premise-1;\n  P7 from c\n}}"
        ));
        assert_gathering_refused(&r, "curried, cited premise left out");
        assert!(format!("{:?}", r.result).contains("mentions 7 premises"));
        // Stripping a few hypotheses at a time still carries the rest.
        let tail = curried(&implications()[2..], "P7");
        let r = check_pl2(&format!(
            "{{\n  c := {tail} from premise-1, premise-2, premise-3;\n  P7 from c\n}}"
        ));
        assert_gathering_refused(&r, "stripped");
    }

    #[test]
    fn grouped_disjunctive_and_rewritten_encodings_are_refused() {
        let imps = implications();
        // Grouped: the hypotheses conjoined in threes.
        let group = |hs: &[String]| {
            hs.iter()
                .rev()
                .cloned()
                .reduce(|acc, h| format!("({h} & {acc})"))
                .unwrap()
        };
        let grouped = format!(
            "({} ==> ({} ==> {}))",
            group(&imps[..3]),
            group(&imps[3..6]),
            curried(&imps[6..], "P7")
        );
        let r = check_pl2(&format!(
            "{{\n  c := {grouped} from premise-1;\n  P7 from c\n}}"
        ));
        assert_gathering_refused(&r, "grouped");
        // Disjunctive: (~ h1) | ((~ h2) | ... | goal).
        let disj = imps
            .iter()
            .rev()
            .fold("P7".to_string(), |acc, h| format!("((~ {h}) | {acc})"));
        let r = check_pl2(&format!(
            "{{\n  c := {disj} from premise-1;\n  P7 from c\n}}"
        ));
        assert_gathering_refused(&r, "disjunctive");
        // Negated conjunction: ~ (h1 & ... & h7 & ~ goal).
        let neg = format!("(~ ({} & (~ P7)))", group(&imps));
        let r = check_pl2(&format!(
            "{{\n  c := {neg} from premise-1;\n  P7 from c\n}}"
        ));
        assert_gathering_refused(&r, "negated conjunction");
        // Premises rewritten into equivalent forms still count.
        let rewritten: Vec<String> = (0..7).map(|i| format!("((~ P{i}) | P{})", i + 1)).collect();
        let r = check_pl2(&format!(
            "{{\n  c := {} from premise-1;\n  P7 from c\n}}",
            curried(&rewritten, "P7")
        ));
        assert_gathering_refused(&r, "rewritten");
        // Rewritten premises are not mentioned verbatim: the hypothesis
        // count is what refuses them.
        assert!(format!("{:?}", r.result).contains("as hypotheses"), "{r:?}");
    }

    /// `h1 & (h2 & ...)`, right-nested.
    fn conj(hs: &[String]) -> String {
        hs.iter()
            .rev()
            .cloned()
            .reduce(|acc, h| format!("({h} & {acc})"))
            .unwrap()
    }

    #[test]
    fn premises_gathered_in_groups_across_steps_are_refused() {
        let imps = implications();
        // Each group is derived honestly from at most five premises; the
        // last step would then use all eight premises at once.
        let grouped = |wrap: &dyn Fn(String) -> String| {
            format!(
                "{{\n  g1 := {} from premise-2, premise-3, premise-4;\n  g2 := {} from premise-5, premise-6, premise-7, premise-8;\n  P7 from g1, g2, premise-1\n}}",
                wrap(conj(&imps[..3])),
                wrap(conj(&imps[3..]))
            )
        };
        let rewritten = |hs: std::ops::Range<usize>| {
            conj(
                &hs.map(|i| format!("((~ P{i}) | P{})", i + 1))
                    .collect::<Vec<_>>(),
            )
        };
        let cases: Vec<(&str, String)> = vec![
            ("plain groups", grouped(&|g| g)),
            ("double negation", grouped(&|g| format!("(~ (~ {g}))"))),
            ("or false", grouped(&|g| format!("({g} | false)"))),
            ("true implies", grouped(&|g| format!("(true ==> {g})"))),
            (
                "rewritten groups",
                format!(
                    "{{\n  g1 := {} from premise-2, premise-3, premise-4;\n  g2 := {} from premise-5, premise-6, premise-7, premise-8;\n  P7 from g1, g2, premise-1\n}}",
                    rewritten(0..3),
                    rewritten(3..7)
                ),
            ),
        ];
        for (what, proof) in cases {
            let r = check_pl2(&proof);
            let e = r.result.as_ref().expect_err(what);
            assert_eq!(
                (e.kind, e.line),
                (ErrorKind::Type, 4),
                "{what}: {e:?}\n{proof}"
            );
            assert!(e.description.contains("consolidate 8"), "{what}: {e:?}");
            // Without the bound the same proof checks: the refusal is the
            // bound's doing, not a slip in the proof.
            let named = named_premises(&chain());
            let off = NdlfOptions {
                max_premise_conjuncts: None,
                ..pl2_opts()
            };
            assert!(
                check_ndlf_text(&named, &f("P7"), &proof, Mode::Strict, &off).ok(),
                "{what}"
            );
        }
    }

    #[test]
    fn all_premises_in_one_claim_are_refused_in_any_position() {
        let imps = implications();
        let cases: Vec<(&str, String)> = vec![
            // The conjunction of premises as one antecedent.
            (
                "conjoined antecedent",
                format!("({} ==> (P6 ==> P7)) from premise-8", conj(&imps[..6])),
            ),
            // The disjunctive form ~p1 | ... | goal.
            (
                "disjunctive",
                format!(
                    "{} from premise-1",
                    imps.iter()
                        .rev()
                        .fold("P7".to_string(), |acc, h| format!("((~ {h}) | {acc})"))
                ),
            ),
            // Six premises as a disjunct that asserts nothing.
            (
                "idle disjunct",
                format!("(P0 | {}) from premise-1", conj(&imps[..6])),
            ),
            // An equivalence that restates the curried form.
            (
                "equivalence",
                format!("({g} <==> ({g} & P7)) from premise-1", g = conj(&imps)),
            ),
        ];
        for (what, step) in cases {
            let proof = format!("{{\n  c := {step};\n  P7 from c, premise-1\n}}");
            let r = check_pl2(&proof);
            let e = r.result.as_ref().expect_err(what);
            assert_eq!((e.kind, e.line), (ErrorKind::Type, 2), "{what}: {e:?}");
        }
        // Counted premises: compound ones only, each once.
        let ps = chain();
        let claim = f(&format!(
            "(P0 | ({} & {}))",
            conj(&imps[..3]),
            conj(&imps[..3])
        ));
        assert_eq!(mentioned_premises(&ps, &claim), 3);
        assert_eq!(mentioned_premises(&ps, &f("(P0 & P1)")), 0);
    }

    #[test]
    fn honest_lemmas_carry_only_the_premises_they_restate() {
        let ps = chain();
        // A derived literal or clause carries nothing, even when it entails
        // a premise (P3 entails P2 ==> P3).
        assert_eq!(carried_premises(&ps, &f("P3")), 0);
        assert_eq!(carried_premises(&ps, &f("((~ P0) | P2)")), 0);
        // A premise, or a rewrite of it, counts once.
        assert_eq!(carried_premises(&ps, &f("(P0 ==> P1)")), 1);
        assert_eq!(carried_premises(&ps, &f("((~ P0) | P1)")), 1);
        // Grouped premises count one by one, however they are wrapped.
        let g = "(P0 & ((P0 ==> P1) & (P1 ==> P2)))";
        assert_eq!(carried_premises(&ps, &f(g)), 3);
        assert_eq!(carried_premises(&ps, &f(&format!("(~ (~ {g}))"))), 3);
    }

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
            !e.forbidden,
            "a step that does not follow is wrong, not forbidden"
        );
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
        assert!(!e.forbidden);
        // Six justifiers: type, before membership is looked at.
        let e = check(&PS, "C", "{\n  C from A, A, A, A, A, (~ A)\n}")
            .result
            .unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Type, 2));
        assert!(e.forbidden, "past the justifier limit");
        // A justifier that does not hold: logic.
        let e = check(&PS, "C", "{\n  C from B, premise-2\n}")
            .result
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Logic);
        assert!(e.description.contains("does not hold"));
        assert!(!e.forbidden);
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
