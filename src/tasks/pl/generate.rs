//! PL1 problem generation (PL/EQ spec §3.1): random premises and goal that
//! meet the five constraints (pairwise distinct; premises entail the goal;
//! every premise necessary; goal atoms among premise atoms; premises
//! satisfiable and goal not a tautology), an exact renaming-invariant
//! canonical form for deduplication, and the conditionalized variant.
//!
//! Candidates are filtered with 64-bit truth vectors (at most 6 atoms), and
//! an accepted problem is certified again through the CDCL back-end
//! ([`crate::prop::sat`]), so every label has two independent derivations.
//!
//! Beyond the spec's constraints, no premise or goal has a degenerate
//! sub-formula ([`degenerate_subformula`]): a binary connective over equal
//! or complementary operands (`(A | A)`, `(A ==> A)`, `(A & (~ A))`), or a
//! non-atomic sub-formula that is valid or unsatisfiable. A reader who
//! simplifies those away would otherwise face a smaller problem than the
//! one shown. The premise count grows with the level ([`level_params`]).

use crate::prop::formula::Formula;
use crate::prop::sat;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Atom names used by PL1 problems.
pub const ATOMS: [&str; 6] = ["A", "B", "C", "D", "E", "F"];

/// Generator parameters of one difficulty level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LevelParams {
    /// Number of atoms available (`A`.. in order).
    pub atoms: usize,
    /// Maximum connective depth of a premise.
    pub depth: usize,
    /// Maximum connective depth of the goal.
    pub goal_depth: usize,
    /// Minimum number of premises.
    pub min_premises: usize,
    /// Maximum number of premises.
    pub max_premises: usize,
}

/// The parameters of levels 1-4. Level `l` has `l + 1` to `l + 2` premises
/// (so at least `l + 1` on average), over 3, 4, 5 and 6 atoms; premises
/// have depth at most 2 at level 1 and 3 above, goals at most 2 at levels
/// 1-2 and 3 above.
pub fn level_params(level: u8) -> LevelParams {
    let l = usize::from(level.clamp(1, 4));
    LevelParams {
        atoms: l + 2,
        depth: if l == 1 { 2 } else { 3 },
        goal_depth: if l <= 2 { 2 } else { 3 },
        min_premises: l + 1,
        max_premises: l + 2,
    }
}

/// Probability that a problem is emitted in conditionalized form.
pub const CONDITIONALIZED_PROBABILITY: f64 = 0.2;

/// A PL1 problem: premises ⊢ goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The premises shown (empty when conditionalized).
    pub premises: Vec<Formula>,
    /// The goal shown.
    pub goal: Formula,
    /// Whether this is the conditionalized form of `source`.
    pub conditionalized: bool,
    /// The underlying problem that meets the five constraints.
    pub source_premises: Vec<Formula>,
    /// The underlying goal.
    pub source_goal: Formula,
}

/// Truth vector of a formula over `atoms` (bit i = value under assignment i).
pub fn truth_vector(f: &Formula, atoms: &[&str]) -> u64 {
    assert!(atoms.len() <= 6);
    let rows = 1u32 << atoms.len();
    let mut v = 0u64;
    for bits in 0..rows {
        let val = f.eval(&|a| {
            let i = atoms.iter().position(|x| *x == a).expect("atom in range");
            bits >> i & 1 == 1
        });
        if val {
            v |= 1 << bits;
        }
    }
    v
}

fn all_rows(atoms: &[&str]) -> u64 {
    if atoms.len() == 6 {
        u64::MAX
    } else {
        (1u64 << (1 << atoms.len())) - 1
    }
}

/// Which of the five constraints a problem violates first (1-based), via
/// truth vectors; `None` if it meets them all.
pub fn violated_constraint(premises: &[Formula], goal: &Formula) -> Option<u8> {
    let mut atoms_set = goal.atoms();
    let mut premise_atoms = std::collections::BTreeSet::new();
    for p in premises {
        p.collect_atoms(&mut premise_atoms);
    }
    atoms_set.extend(premise_atoms.iter().cloned());
    let atoms: Vec<&str> = atoms_set.iter().map(|s| s.as_str()).collect();
    if atoms.len() > 6 {
        return Some(2); // outside what the truth vectors cover
    }
    let mut all: Vec<&Formula> = premises.iter().collect();
    all.push(goal);
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            if all[i] == all[j] {
                return Some(1);
            }
        }
    }
    let full = all_rows(&atoms);
    let pv: Vec<u64> = premises.iter().map(|p| truth_vector(p, &atoms)).collect();
    let g = truth_vector(goal, &atoms);
    let conj = pv.iter().fold(full, |a, b| a & b);
    if conj & !g & full != 0 {
        return Some(2);
    }
    for i in 0..pv.len() {
        let others = pv
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .fold(full, |a, (_, b)| a & b);
        if others & !g & full == 0 {
            return Some(3);
        }
    }
    if !goal.atoms().is_subset(&premise_atoms) {
        return Some(4);
    }
    if conj == 0 || g & full == full {
        return Some(5);
    }
    None
}

/// Certificate of the five constraints, recomputed with the CDCL back-end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProblemCertificate {
    /// Premises pairwise distinct from each other and from the goal.
    pub distinct: bool,
    /// Premises entail the goal (SAT: premises ∧ ¬goal unsatisfiable).
    pub entailed: bool,
    /// Indices of premises in the solver's unsat core.
    pub core: Vec<usize>,
    /// For each premise: the others alone do not entail the goal.
    pub each_premise_necessary: bool,
    /// Goal atoms among premise atoms.
    pub goal_atoms_covered: bool,
    /// A model of the premises.
    pub premises_model: std::collections::BTreeMap<String, bool>,
    /// A model of the negated goal.
    pub countermodel_of_goal: std::collections::BTreeMap<String, bool>,
}

/// Re-derives the five constraints with the SAT back-end; `None` if any fails.
pub fn certify(premises: &[Formula], goal: &Formula) -> Option<ProblemCertificate> {
    let mut all: Vec<&Formula> = premises.iter().collect();
    all.push(goal);
    let distinct = (0..all.len()).all(|i| (i + 1..all.len()).all(|j| all[i] != all[j]));
    let core = sat::premise_core(premises, goal)?;
    let each_premise_necessary = (0..premises.len()).all(|i| {
        let others: Vec<Formula> = premises
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, p)| p.clone())
            .collect();
        !sat::entails(&others, goal)
    });
    let mut premise_atoms = std::collections::BTreeSet::new();
    for p in premises {
        p.collect_atoms(&mut premise_atoms);
    }
    let goal_atoms_covered = goal.atoms().is_subset(&premise_atoms);
    let premises_model = sat::model(premises)?;
    let countermodel_of_goal = sat::model(&[Formula::negation(goal.clone())])?;
    (distinct && each_premise_necessary && goal_atoms_covered && core.len() == premises.len())
        .then_some(ProblemCertificate {
            distinct,
            entailed: true,
            core,
            each_premise_necessary,
            goal_atoms_covered,
            premises_model,
            countermodel_of_goal,
        })
}

fn random_formula(rng: &mut ChaCha8Rng, atoms: &[&str], depth: usize, root: bool) -> Formula {
    let leaf = depth == 0 || (!root && rng.random_bool(0.3));
    if leaf {
        return Formula::atom(atoms[rng.random_range(0..atoms.len())]);
    }
    let d = depth - 1;
    match rng.random_range(0..9) {
        0 | 1 => Formula::negation(random_formula(rng, atoms, d, false)),
        2 | 3 => Formula::and(
            random_formula(rng, atoms, d, false),
            random_formula(rng, atoms, d, false),
        ),
        4 | 5 => Formula::or(
            random_formula(rng, atoms, d, false),
            random_formula(rng, atoms, d, false),
        ),
        6 | 7 => Formula::imp(
            random_formula(rng, atoms, d, false),
            random_formula(rng, atoms, d, false),
        ),
        _ => Formula::iff(
            random_formula(rng, atoms, d, false),
            random_formula(rng, atoms, d, false),
        ),
    }
}

/// The first degenerate sub-formula of `f`, if any: a binary connective
/// whose operands are equal or complementary (`(p op p)`, `(p op (~ p))`,
/// `((~ p) op p)`), or a non-atomic sub-formula that is valid or
/// unsatisfiable (by truth vector over its own atoms).
pub fn degenerate_subformula(f: &Formula) -> Option<&Formula> {
    let children: Vec<&Formula> = match f {
        Formula::True | Formula::False | Formula::Atom(_) => return None,
        Formula::Not(p) => vec![p],
        Formula::And(p, q) | Formula::Or(p, q) | Formula::Imp(p, q) | Formula::Iff(p, q) => {
            vec![p, q]
        }
    };
    if let [p, q] = children[..]
        && (p == q || p.is_complement_of(q))
    {
        return Some(f);
    }
    if let Some(d) = children.into_iter().find_map(degenerate_subformula) {
        return Some(d);
    }
    let names = f.atoms();
    let atoms: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let v = truth_vector(f, &atoms);
    (v == 0 || v == all_rows(&atoms)).then_some(f)
}

/// A random formula without degenerate sub-formulas (one of 50 draws), or
/// `None`.
fn clean_formula(
    rng: &mut ChaCha8Rng,
    atoms: &[&str],
    depth: usize,
    root: bool,
) -> Option<Formula> {
    (0..50).find_map(|_| {
        let f = random_formula(rng, atoms, depth, root);
        degenerate_subformula(&f).is_none().then_some(f)
    })
}

/// Premise sets drawn per call, and goals drawn per premise set.
const PREMISE_DRAWS: usize = 1000;
const GOAL_DRAWS: usize = 200;

/// Draws a problem meeting the five constraints, with no degenerate
/// sub-formula, or `None` after the attempt budget (counted by the caller).
/// A premise set is kept only if each premise excludes an assignment that
/// the others allow (else no goal can need it) and their conjunction is
/// satisfiable; goals are then drawn over the premises' atoms.
pub fn generate(rng: &mut ChaCha8Rng, params: &LevelParams) -> Option<Problem> {
    let atoms = &ATOMS[..params.atoms.min(ATOMS.len())];
    let full = all_rows(atoms);
    for _ in 0..PREMISE_DRAWS {
        let n = rng.random_range(params.min_premises..=params.max_premises);
        let Some(premises) = (0..n)
            .map(|_| {
                let root = rng.random_bool(0.85);
                clean_formula(rng, atoms, params.depth, root)
            })
            .collect::<Option<Vec<Formula>>>()
        else {
            continue;
        };
        let pv: Vec<u64> = premises.iter().map(|p| truth_vector(p, atoms)).collect();
        let conj = pv.iter().fold(full, |a, b| a & b);
        let independent = (0..n).all(|i| {
            let others = (0..n).filter(|&j| j != i).fold(full, |a, j| a & pv[j]);
            others & !conj != 0
        });
        if conj == 0 || !independent {
            continue;
        }
        let mut pa = std::collections::BTreeSet::new();
        for p in &premises {
            p.collect_atoms(&mut pa);
        }
        let pa: Vec<&str> = pa.iter().map(|s| s.as_str()).collect();
        for _ in 0..GOAL_DRAWS {
            let root = rng.random_bool(0.7);
            let Some(goal) = clean_formula(rng, &pa, params.goal_depth, root) else {
                continue;
            };
            if violated_constraint(&premises, &goal).is_none() {
                let conditionalized = rng.random_bool(CONDITIONALIZED_PROBABILITY);
                return Some(make_problem(premises, goal, conditionalized));
            }
        }
    }
    None
}

/// Builds the shown problem from an underlying one.
pub fn make_problem(premises: Vec<Formula>, goal: Formula, conditionalized: bool) -> Problem {
    if conditionalized {
        let conj = premises
            .iter()
            .rev()
            .cloned()
            .reduce(|acc, p| Formula::and(p, acc))
            .expect("at least one premise");
        Problem {
            premises: Vec::new(),
            goal: Formula::imp(conj, goal.clone()),
            conditionalized: true,
            source_premises: premises,
            source_goal: goal,
        }
    } else {
        Problem {
            premises: premises.clone(),
            goal: goal.clone(),
            conditionalized: false,
            source_premises: premises,
            source_goal: goal,
        }
    }
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// Exact canonical form (spec §3.1): the minimum, over all renamings of the
/// problem's atoms onto `A`, `B`, ..., of the sorted premise strings plus
/// the goal string, and the conditionalized flag. Two problems have the
/// same form iff they are equal up to atom renaming and premise order.
pub fn canonical_form(p: &Problem) -> String {
    let mut atoms = p.source_goal.atoms();
    for f in &p.source_premises {
        f.collect_atoms(&mut atoms);
    }
    let atoms: Vec<String> = atoms.into_iter().collect();
    let mut best: Option<String> = None;
    for perm in permutations(atoms.len()) {
        let map = |a: &str| {
            let i = atoms.iter().position(|x| x == a).expect("atom");
            format!("P{}", perm[i])
        };
        let mut ps: Vec<String> = p
            .source_premises
            .iter()
            .map(|f| f.rename(&map).to_string())
            .collect();
        ps.sort();
        let s = format!(
            "{}|{} # {}",
            p.conditionalized,
            ps.join(" # "),
            p.source_goal.rename(&map)
        );
        if best.as_ref().is_none_or(|b| s < *b) {
            best = Some(s);
        }
    }
    best.expect("at least one permutation")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn generated_problems_meet_all_five_constraints() {
        for level in 1..=4 {
            let params = level_params(level);
            for i in 0..40 {
                let mut rng = ChaCha8Rng::seed_from_u64(i * 10 + level as u64);
                let p = generate(&mut rng, &params).expect("generator succeeds");
                assert_eq!(
                    violated_constraint(&p.source_premises, &p.source_goal),
                    None
                );
                let cert = certify(&p.source_premises, &p.source_goal).expect("SAT agrees");
                assert!(cert.entailed && cert.each_premise_necessary);
                assert!(sat::entails_by_table(&p.premises, &p.goal));
                if p.conditionalized {
                    assert!(p.premises.is_empty());
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Any seed, any level: the problem meets the five constraints by
        /// truth vectors, by SAT (both back-ends) and by a plain truth table,
        /// and the reference proof passes the strict checker.
        #[test]
        fn every_problem_meets_the_constraints_and_is_proved(seed in 0u64..u64::MAX, level in 1u8..=4) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let p = generate(&mut rng, &level_params(level)).expect("generator succeeds");
            proptest::prop_assert_eq!(violated_constraint(&p.source_premises, &p.source_goal), None);
            proptest::prop_assert!(certify(&p.source_premises, &p.source_goal).is_some());
            let sp = &p.source_premises;
            proptest::prop_assert!(sat::entails_by_table(sp, &p.source_goal));
            // The truth-table back-end takes at most 24 variables.
            let too_big = sp.iter().map(|f| f.size()).sum::<usize>() + p.source_goal.size() + 7 > 24;
            proptest::prop_assert!(too_big || sat::entails_with(crate::sat::TruthTable::new(), sp, &p.source_goal));
            for i in 0..sp.len() {
                let mut others = sp.clone();
                others.remove(i);
                proptest::prop_assert!(!sat::entails_by_table(&others, &p.source_goal));
            }
            proptest::prop_assert!(sat::satisfiable(sp));
            proptest::prop_assert!(sat::satisfiable(&[Formula::negation(p.source_goal.clone())]));
            // A proof over the size cap is a documented outcome (the
            // pipeline skips the problem); any proof returned is correct.
            if let Ok(d) = crate::prop::prover::prove(&p.premises, &p.goal) {
                proptest::prop_assert!(super::super::tasks::strictly_correct(&p, &d));
            }
        }
    }

    /// The proof size cap is rare: on 500 fixed level-4 seeds (the largest
    /// problems: five or six premises) at most 2% of the problems get no
    /// reference proof. Measured: 7 in 500.
    #[test]
    fn reference_proofs_rarely_exceed_the_cap() {
        let params = level_params(4);
        let mut too_large = 0;
        for i in 0..500u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let p = generate(&mut rng, &params).expect("generator succeeds");
            match crate::prop::prover::prove(&p.premises, &p.goal) {
                Ok(d) => assert!(super::super::tasks::strictly_correct(&p, &d)),
                Err(_) => too_large += 1,
            }
        }
        assert!(
            too_large <= 10,
            "{too_large} of 500 level-4 problems over the cap"
        );
    }

    #[test]
    fn degenerate_subformulas_are_found() {
        let f = |s: &str| Formula::parse(s).unwrap();
        for d in [
            "(A | A)",
            "(A ==> A)",
            "(B & (A | (~ A)))",
            "((~ A) & A)",
            "(C ==> ((A & B) <==> (A & B)))",
            "((A & B) ==> A)",
            "(~ (A | (~ (B ==> B))))",
        ] {
            assert!(degenerate_subformula(&f(d)).is_some(), "{d}");
        }
        for c in ["A", "(A ==> B)", "(~ (A & B))", "((A | B) <==> (~ C))"] {
            assert_eq!(degenerate_subformula(&f(c)), None, "{c}");
        }
        assert_eq!(
            degenerate_subformula(&f("(B | (A ==> A))")),
            Some(&f("(A ==> A)"))
        );
    }

    /// The premise schedule: level `l` draws `l + 1` to `l + 2` premises,
    /// and no formula of a problem has a degenerate sub-formula.
    #[test]
    fn premises_grow_with_the_level_and_no_formula_is_degenerate() {
        for level in 1..=4u8 {
            let params = level_params(level);
            let mut total = 0;
            for i in 0..30u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(77 * i + level as u64);
                let p = generate(&mut rng, &params).expect("generator succeeds");
                let n = p.source_premises.len();
                assert!((params.min_premises..=params.max_premises).contains(&n));
                total += n;
                for f in p.source_premises.iter().chain([&p.source_goal]) {
                    assert_eq!(degenerate_subformula(f), None, "{f}");
                }
            }
            assert!(total as f64 / 30.0 >= f64::from(level) + 1.0);
        }
    }

    #[test]
    fn constraint_violations_are_caught() {
        let f = |s: &str| Formula::parse(s).unwrap();
        assert_eq!(violated_constraint(&[f("A"), f("A")], &f("A")), Some(1));
        assert_eq!(violated_constraint(&[f("A")], &f("B")), Some(2));
        assert_eq!(
            violated_constraint(&[f("A"), f("(A ==> B)"), f("C")], &f("B")),
            Some(3)
        );
        assert_eq!(violated_constraint(&[f("(A & (~ A))")], &f("B")), Some(4));
        assert_eq!(
            violated_constraint(&[f("(A & (~ A))")], &f("(~ A)")),
            Some(5)
        );
        assert_eq!(violated_constraint(&[f("A")], &f("(A | (~ A))")), Some(3));
        assert_eq!(
            violated_constraint(&[f("(A ==> B)"), f("A")], &f("B")),
            None
        );
    }

    #[test]
    fn canonical_form_is_renaming_and_order_invariant() {
        let f = |s: &str| Formula::parse(s).unwrap();
        let a = make_problem(vec![f("(A ==> B)"), f("A")], f("B"), false);
        let b = make_problem(vec![f("C"), f("(C ==> A)")], f("A"), false);
        let c = make_problem(vec![f("(A ==> B)"), f("B")], f("A"), false);
        assert_eq!(canonical_form(&a), canonical_form(&b));
        assert_ne!(canonical_form(&a), canonical_form(&c));
        let a2 = make_problem(vec![f("(A ==> B)"), f("A")], f("B"), true);
        assert_ne!(canonical_form(&a), canonical_form(&a2));
    }

    #[test]
    fn every_generated_problem_gets_a_strictly_checked_proof() {
        for level in 1..=4u8 {
            for i in 0..60u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(1000 * level as u64 + i);
                let p = generate(&mut rng, &level_params(level)).unwrap();
                // Over the size cap (rare at level 4, see above): skipped.
                let Ok(d) = crate::prop::prover::prove(&p.premises, &p.goal) else {
                    assert_eq!(level, 4, "{:?} ⊢ {}", p.premises, p.goal);
                    continue;
                };
                let r = crate::prop::check::check_parsed(
                    &crate::prop::check::named_premises(&p.premises),
                    &p.goal,
                    &d,
                    crate::prop::Mode::Strict,
                );
                assert!(r.ok(), "{:?}", r.result);
                assert!(crate::prop::prover::stats(&d).steps >= 1);
            }
        }
    }
}
