//! The one-inference check of a derivation step (the `derivation` task
//! family): is a clause, up to variable renaming, literal order, equation
//! symmetry and duplicate literals, the conclusion of exactly one inference
//! of the calculus from the clauses the step cites? The rules are the
//! checker's own ([`super::rules`]), applied without ordering restrictions:
//! with two cited clauses, binary resolution or superposition between them
//! (either way round), rewriting one with the other (a unit equation, one
//! position) or deleting a literal of one that the other (a unit clause)
//! contradicts; with one cited clause, factoring, equality resolution,
//! equality factoring, or resolution or superposition with a renamed copy of
//! itself. Every conclusion may then drop its trivially false disequations
//! `t != t`. No search: the candidates are enumerated once, in time
//! polynomial in the cited clauses (pairs of literals times subterm
//! positions), and compared with the step by the variant test.

use super::parse::parse_clause;
use super::problem::CheckError;
use super::replay::conclusions;
use super::rules::{drop_trivial_disequations, reflections, rewrites};
use super::terms::{Clause, Sub, Syms, T, clause_vars, lit_matches, normal, shift_clause};

/// Most literal matchings one variant test may try. Clauses a step is made
/// of need a few per literal pair; past this the test answers "not a
/// variant" (the step earns nothing), so a hostile answer of many clauses
/// with many alike literals costs at most this much per comparison.
pub const MAX_VARIANT_WORK: usize = 2_000;

/// Subsumption by backtracking literal matching, as `terms::subsumes`, with
/// a work budget: `None` when it runs out.
fn subsumes_within(
    c: &[super::terms::L],
    d: &[super::terms::L],
    m: &Sub,
    work: &mut usize,
) -> Option<bool> {
    let Some((first, rest)) = c.split_first() else {
        return Some(true);
    };
    for t in d {
        *work = work.checked_sub(1)?;
        for m2 in lit_matches(first, t, m) {
            if subsumes_within(rest, d, &m2, work)? {
                return Some(true);
            }
        }
    }
    Some(false)
}

/// Equal up to variable renaming as literal sets, within
/// [`MAX_VARIANT_WORK`] matchings (false past it).
fn variant(c: &Clause, d: &Clause) -> bool {
    let (c, d) = (normal(c.clone()), normal(d.clone()));
    let mut work = MAX_VARIANT_WORK;
    c.len() == d.len()
        && subsumes_within(&c, &d, &Sub::new(), &mut work) == Some(true)
        && subsumes_within(&d, &c, &Sub::new(), &mut work) == Some(true)
}

/// A clause read for step checking (opaque; made by [`StepChecker::parse`]).
#[derive(Clone, Debug)]
pub struct StepClause {
    clause: Clause,
    /// Cheap variant-invariant key: per literal (sign, equation or atom,
    /// head symbol), sorted; two variants have the same key.
    key: Vec<(bool, bool, Option<u32>)>,
}

/// Reads step clauses over one symbol table and checks steps between them.
#[derive(Default)]
pub struct StepChecker {
    syms: Syms,
}

fn head(t: &T) -> Option<u32> {
    match t {
        T::F(f, _) => Some(*f),
        T::V(_) => None,
    }
}

impl StepChecker {
    /// A checker with an empty symbol table.
    pub fn new() -> StepChecker {
        StepChecker::default()
    }

    /// Reads a clause in TPTP CNF notation (`$false` is the empty clause).
    pub fn parse(&mut self, text: &str) -> Result<StepClause, CheckError> {
        let clause = normal(parse_clause(&mut self.syms, text)?);
        let mut key: Vec<(bool, bool, Option<u32>)> = clause
            .iter()
            .map(|l| {
                let h = match &l.b {
                    // The smaller head first, so symmetric equations agree.
                    Some(b) => head(&l.a).min(head(b)),
                    None => head(&l.a),
                };
                (l.pos, l.b.is_some(), h)
            })
            .collect();
        key.sort_unstable();
        Ok(StepClause { clause, key })
    }

    /// True if `a` and `b` are equal up to variable renaming, literal order,
    /// equation symmetry and duplicate literals.
    pub fn variant(&self, a: &StepClause, b: &StepClause) -> bool {
        a.key == b.key && variant(&a.clause, &b.clause)
    }

    /// True if `c` is a tautology: it contains a literal and its complement,
    /// or an equation `t = t`.
    pub fn tautology(&self, c: &StepClause) -> bool {
        c.clause.iter().any(|l| {
            (l.pos && l.b.as_ref() == Some(&l.a))
                || c.clause
                    .iter()
                    .any(|k| k.pos != l.pos && k.a == l.a && k.b == l.b)
        })
    }

    /// The rule by which `target` is one inference from `parents` (one or
    /// two distinct clauses, see the module's rules), or `None` when it is
    /// not.
    pub fn one_inference(
        &self,
        parents: &[&StepClause],
        target: &StepClause,
    ) -> Option<&'static str> {
        let found = |cands: &[Clause]| {
            cands.iter().any(|c| {
                variant(c, &target.clause)
                    || variant(
                        &normal(drop_trivial_disequations(&self.syms, c)),
                        &target.clause,
                    )
            })
        };
        match parents {
            [p, q] => {
                let (p, q) = (&p.clause, &q.clause);
                for rule in ["resolution", "superposition"] {
                    if found(&conclusions(rule, &[p, q]).unwrap_or_default()) {
                        return Some(rule);
                    }
                }
                let q2 = shift_clause(q, clause_vars(p));
                let mut out = Vec::new();
                rewrites(p, &q2, &mut out);
                rewrites(&q2, p, &mut out);
                if found(&out) {
                    return Some("rewriting");
                }
                out.clear();
                reflections(p, &q2, &mut out);
                reflections(&q2, p, &mut out);
                found(&out).then_some("simplify_reflect")
            }
            [p] => {
                let p = &p.clause;
                for rule in ["factoring", "equality_resolution"] {
                    if found(&conclusions(rule, &[p]).unwrap_or_default()) {
                        return Some(rule);
                    }
                }
                // A clause with a renamed copy of itself.
                for rule in ["resolution", "superposition"] {
                    if found(&conclusions(rule, &[p, p]).unwrap_or_default()) {
                        return Some(rule);
                    }
                }
                // Deleting `t != t` alone is the simplification of one clause.
                let dropped = normal(drop_trivial_disequations(&self.syms, p));
                (dropped.len() < p.len() && variant(&dropped, &target.clause))
                    .then_some("trivial_disequation")
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(parents: &[&str], target: &str) -> Option<&'static str> {
        let mut s = StepChecker::new();
        let ps: Vec<StepClause> = parents.iter().map(|p| s.parse(p).unwrap()).collect();
        let t = s.parse(target).unwrap();
        let refs: Vec<&StepClause> = ps.iter().collect();
        s.one_inference(&refs, &t)
    }

    #[test]
    fn one_inference_of_each_rule_is_accepted_up_to_renaming_and_order() {
        assert_eq!(
            check(&["p(X) | q(X)", "~p(a) | r(Y)"], "r(Z) | q(a)"),
            Some("resolution")
        );
        assert_eq!(
            check(&["f(X) = X", "p(f(a)) | q"], "q | p(a)"),
            Some("superposition")
        );
        // Symmetric equality: the model may write either orientation.
        assert_eq!(
            check(&["f(X) = g(X)", "h(f(b)) = c"], "c = h(g(b))"),
            Some("superposition")
        );
        assert_eq!(check(&["p(X) | p(a) | q"], "p(a) | q"), Some("factoring"));
        assert_eq!(
            check(&["X != f(Y) | p(X, Y)"], "p(f(Z), Z)"),
            Some("equality_resolution")
        );
        assert_eq!(check(&["p(X)", "~p(a) | q"], "q"), Some("resolution"));
        // Superposition leaving `t != t`, which is dropped.
        assert_eq!(
            check(&["f(a) = b", "f(a) != b | q"], "q"),
            Some("superposition")
        );
    }

    #[test]
    fn two_inferences_or_unrelated_clauses_are_refused() {
        // Two resolutions in one step.
        assert_eq!(check(&["p | q", "~p | ~q"], "$false"), None);
        assert_eq!(check(&["p", "~p | q | r"], "q"), None);
        // A restatement is no inference.
        assert_eq!(check(&["p(X) | q"], "p(Y) | q"), None);
        assert_eq!(check(&["p(X) | q", "r"], "p(Y) | q"), None);
        // An instance is no inference of the calculus either.
        assert_eq!(check(&["p(X)", "r"], "p(a)"), None);
        // Sound but not one inference: a weakening.
        assert_eq!(check(&["p", "~p | q"], "q | r"), None);
        // Three clauses are never one step.
        assert_eq!(check(&["p", "~p | q", "~q"], "$false"), None);
    }

    #[test]
    fn tautologies_and_variants() {
        let mut s = StepChecker::new();
        let a = s.parse("p(X) | ~p(X)").unwrap();
        let b = s.parse("X = X | q").unwrap();
        let c = s.parse("p(X) | ~p(a)").unwrap();
        assert!(s.tautology(&a) && s.tautology(&b) && !s.tautology(&c));
        let d = s.parse("q(Y, a) | b = f(Y)").unwrap();
        let e = s.parse("f(Z) = b | q(Z, a)").unwrap();
        let f = s.parse("f(Z) = b | q(W, a)").unwrap();
        assert!(s.variant(&d, &e) && !s.variant(&d, &f));
    }

    #[test]
    fn a_variant_test_of_many_alike_literals_stays_within_its_budget() {
        // An odd cycle of 29 edges (plus one loose edge) against a
        // bipartite graph of 30 edges both ways: no map exists, and naive
        // backtracking would walk 5^28 paths before saying so.
        let mut s = StepChecker::new();
        let mut cycle: Vec<String> = (0..29)
            .map(|i| format!("p(X{i},X{})", (i + 1) % 29))
            .collect();
        cycle.push("p(W0,W1)".into());
        let mut bip: Vec<String> = Vec::new();
        for i in 0..3 {
            for j in 0..5 {
                bip.push(format!("p(a{i},b{j})"));
                bip.push(format!("p(b{j},a{i})"));
            }
        }
        let a = s.parse(&cycle.join(" | ")).unwrap();
        let b = s.parse(&bip.join(" | ")).unwrap();
        // Counted in matchings, not seconds: the search gives up at its
        // budget (None) having spent exactly that budget.
        let (ca, cb) = (normal(a.clause.clone()), normal(b.clause.clone()));
        let mut work = MAX_VARIANT_WORK;
        assert_eq!(subsumes_within(&ca, &cb, &Sub::new(), &mut work), None);
        assert_eq!(work, 0);
        assert!(!s.variant(&a, &b));
        assert!(s.variant(&a, &a.clone()));
    }
}
