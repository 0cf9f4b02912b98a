//! The certified equivalence decision for propositional formulas (used by
//! the equivalence tasks, after AutoEval, seed 002): SAT on
//! `~(left <=> right)` through the Tseitin encoder of [`super::sat`], a
//! counterexample assignment when the two differ (re-checked by
//! evaluation), and an independent re-check of an equivalence by a truth
//! table up to [`TABLE_ATOMS`] atoms, else by a second SAT call.

use super::formula::Formula;
use super::sat;
use crate::sat::{Batsat, SatSolver};
use std::collections::BTreeMap;

/// Most atoms for which an equivalence is re-checked by a truth table
/// (above it, by a second SAT call).
pub const TABLE_ATOMS: usize = 12;

/// An assignment of the atoms (missing atoms read as false).
pub type Assignment = BTreeMap<String, bool>;

/// Evaluates `f` under `a` (atoms not in `a` are false).
pub fn eval(f: &Formula, a: &Assignment) -> bool {
    f.eval(&|x| a.get(x).copied().unwrap_or(false))
}

/// Decides `left ≡ right` by SAT on `~(left <=> right)`: `Ok` when
/// unsatisfiable (equivalent), else the satisfying assignment over the atoms
/// of both (a counterexample), checked by evaluation before it is returned.
pub fn decide(left: &Formula, right: &Formula) -> Result<(), Assignment> {
    let goal = Formula::negation(Formula::iff(left.clone(), right.clone()));
    match sat::model(&[goal]) {
        None => Ok(()),
        Some(m) => {
            assert!(
                eval(left, &m) != eval(right, &m),
                "SAT model of ~(l <=> r) does not separate l and r"
            );
            Err(m)
        }
    }
}

/// The SAT conflicts of deciding `left ≡ right` ([`decide`]'s problem,
/// `~(left <=> right)` Tseitin-encoded, on a fresh CDCL solver): the
/// deterministic work of the decision.
pub fn decision_conflicts(left: &Formula, right: &Formula) -> u64 {
    let goal = Formula::negation(Formula::iff(left.clone(), right.clone()));
    let mut e = sat::Encoder::new(Batsat::new());
    let g = e.encode(&goal);
    let _ = e.solver().solve(&[g]);
    e.solver().conflicts()
}

/// Re-checks an equivalence without the generator's SAT call: every
/// assignment when the two have at most [`TABLE_ATOMS`] atoms, else a
/// second, fresh SAT call. `Err` with a separating assignment if they differ.
pub fn recheck_equivalent(left: &Formula, right: &Formula) -> Result<&'static str, Assignment> {
    let mut atoms = left.atoms();
    right.collect_atoms(&mut atoms);
    let atoms: Vec<String> = atoms.into_iter().collect();
    if atoms.len() <= TABLE_ATOMS {
        for bits in 0u32..1 << atoms.len() {
            let a: Assignment = atoms
                .iter()
                .enumerate()
                .map(|(i, x)| (x.clone(), bits >> i & 1 == 1))
                .collect();
            if eval(left, &a) != eval(right, &a) {
                return Err(a);
            }
        }
        return Ok("truth table");
    }
    decide(left, right).map(|()| "second SAT call")
}

/// An assignment as `P=1, Q=0` text.
pub fn show_assignment(a: &Assignment) -> String {
    a.iter()
        .map(|(k, v)| format!("{k}={}", u8::from(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Formula {
        Formula::parse(s).unwrap()
    }

    #[test]
    fn decide_separates_and_the_table_agrees() {
        assert!(decide(&p("(P ==> Q)"), &p("(~Q ==> ~P)")).is_ok());
        let cex = decide(&p("(P ==> Q)"), &p("(Q ==> P)")).unwrap_err();
        assert_ne!(cex["P"], cex["Q"]);
        assert_eq!(show_assignment(&cex).len(), 8);
    }
}
