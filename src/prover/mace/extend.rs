//! Incremental model search for one base clause set extended by one clause
//! at a time, in the MACE/Paradox style of the parent module (Claessen &
//! Sörensson, "New techniques that improve MACE-style finite model
//! finding", 2003, §4: incremental SAT with activation literals): the
//! selection's stand-in checks ask, candidate after candidate, whether the
//! premises of an answer but one, the negated theorem and the candidate
//! have a small model. The base is flattened and grounded once per domain
//! size, each size on its own SAT solver; a candidate's flattened clauses
//! are grounded with an activation literal, assumed for its one query and
//! retired after it, so what a solver learnt about the base serves every
//! later candidate.
//!
//! The base's inferred sorts stay. A clause joins them when it fits
//! (`Sorts::fit`): its positions take the sorts they meet (one searched at
//! the unsorted size for positions that meet none); two sorts may become
//! one for it only when both are searched at the unsorted size and at most
//! one has constants (whose least-number canonicity then stays sound); and
//! it may not grow a sort searched below the largest size. Any other
//! clause is declined ([`Extended::Declined`]) for a search with sorts of
//! its own. Each candidate's clauses and term definitions are its own (the
//! flattening is reset after it); the symbols it brought stay, with tables
//! that no active clause constrains. A candidate's own constants have no
//! canonicity constraints, which loses only symmetry breaking.
//! Several clauses may be queried together ([`Extender::search_all`]), and
//! a finder may infer its sorts over the base and hint clauses it will be
//! asked about ([`Extender::with_hints`]): sorts of more clauses are sorts
//! of fewer, so every hint then fits.

use super::flat::Growing;
use super::sorts::Sorts;
use super::{FiniteModel, Search, model};
use crate::logic::{Literal, TermBank};
use crate::sat::{Lit, SatResult, SatSolver, Var};

/// What [`Extender::search`] found for the base and one clause.
#[derive(Debug)]
pub enum Extended {
    /// A model of the base and the clause.
    Model(FiniteModel),
    /// No model of any size searched: each size's problem is unsatisfiable.
    NoModel,
    /// A budget ran out (or the clause is beyond what the search takes).
    Unknown,
    /// Not searched: the clause does not fit the base's sorts (it would
    /// merge two, make a new one or change a sort's size).
    Declined,
}

/// One domain size's state.
enum Size {
    /// Not grounded yet.
    Unbuilt,
    /// The base alone has no model of this size.
    Absent,
    /// The size's problem exceeds the ground-clause budget.
    Over,
    /// The base grounded at this size; the activation literal of its
    /// totality clauses, assumed in every query.
    Open(Box<Search>, Var),
}

/// The base's flattening, a solver per domain size, and the budgets of a
/// query; see the module documentation.
pub struct Extender {
    growing: Growing,
    /// The base's inferred sorts, with the sorts of every symbol met since
    /// (those of declined clauses in `free`).
    sorts: Sorts,
    free: u32,
    /// Index `n - 1`: size `n`.
    sizes: Vec<Size>,
    bits: u32,
    max_ground_clauses: u64,
    sat_conflicts: u64,
    max_clause_literals: Option<u32>,
}

impl Extender {
    /// The finder for `base` over `bank`, with sizes `1..=max_size`: the
    /// base is searched at each size in turn, with `base_conflicts` SAT
    /// conflicts per size, until a size has a model or is undecided; the
    /// model found, if any, is returned beside. Each later query may spend
    /// `sat_conflicts` per size; every size's problem is bounded by
    /// `max_ground_clauses` ground clauses, table variables and
    /// functionality clauses.
    pub fn new(
        bank: &TermBank,
        base: &[&[Literal]],
        max_size: u32,
        budgets: (u64, u64),
        sat_conflicts: u64,
    ) -> (Extender, Option<FiniteModel>) {
        Extender::with_hints(bank, base, &[], max_size, budgets, sat_conflicts)
    }

    /// [`Extender::new`] with the sorts inferred over the base and
    /// `hints` together: a later query of any of the hints (or of several)
    /// then fits them, where sorts of the base alone may decline it. The
    /// hints constrain nothing else: sorts inferred over more clauses are
    /// sorts of fewer too.
    pub fn with_hints(
        bank: &TermBank,
        base: &[&[Literal]],
        hints: &[&[Literal]],
        max_size: u32,
        (max_ground_clauses, base_conflicts): (u64, u64),
        sat_conflicts: u64,
    ) -> (Extender, Option<FiniteModel>) {
        let mut growing = Growing::new(bank, base);
        for h in hints {
            growing.add(bank, h);
        }
        let mut sorts = super::sorts::infer(&growing.out);
        // The hints' clauses go; their symbols and sorts stay.
        sorts.vars.truncate(growing.base_clauses());
        growing.reset();
        let free = sorts.add_free();
        let mut e = Extender {
            growing,
            sorts,
            free,
            sizes: (0..max_size).map(|_| Size::Unbuilt).collect(),
            bits: 32 - (max_size.max(2) - 1).leading_zeros(),
            max_ground_clauses,
            sat_conflicts,
            max_clause_literals: Some(crate::saturation::params::DEFAULT_MAX_CLAUSE_LITERALS),
        };
        if base
            .iter()
            .any(|c| e.max_clause_literals.is_some_and(|m| c.len() > m as usize))
        {
            e.sizes.iter_mut().for_each(|s| *s = Size::Over);
            return (e, None);
        }
        // One solver grows through the sizes the base has no model of, as
        // [`super::ModelFinder::search`] does, and is kept for the first
        // size it has one (or is undecided) at.
        let Some(mut search) = e.fresh(bank) else {
            e.sizes.iter_mut().for_each(|s| *s = Size::Over);
            return (e, None);
        };
        for n in 1..=max_size {
            let i = n as usize - 1;
            let Some(act) = e.grow(&mut search, n) else {
                e.sizes[i..].iter_mut().for_each(|s| *s = Size::Over);
                return (e, None);
            };
            search.solver.set_budget(Some(base_conflicts));
            let result = search.solver.solve(&[Lit::pos(act)]);
            match result {
                SatResult::Sat => {
                    let found = model(bank, &search, n);
                    e.sizes[i] = Size::Open(search, act);
                    return (e, Some(found));
                }
                SatResult::Unknown => {
                    e.sizes[i] = Size::Open(search, act);
                    return (e, None);
                }
                SatResult::Unsat => {
                    // Unsatisfiable without this size's totality clauses:
                    // no larger size has a model either.
                    let all = search.solver.core().is_empty();
                    let upto = if all { e.sizes.len() } else { i + 1 };
                    e.sizes[i..upto].iter_mut().for_each(|s| *s = Size::Absent);
                    if all {
                        return (e, None);
                    }
                    search.solver.add_clause(&[Lit::neg(act)]);
                }
            }
        }
        (e, None)
    }

    /// Sizes `1..=k` at which the base alone has no model: the longest
    /// such prefix.
    pub fn no_model_upto(&self) -> u32 {
        self.sizes
            .iter()
            .take_while(|s| matches!(s, Size::Absent))
            .count() as u32
    }

    /// Size `n`'s solver: the base's flattening (with the symbols of
    /// every earlier candidate) grounded at sizes `1..=n`, the smaller
    /// sizes' totality clauses retired. A distinct value an earlier
    /// candidate brought would be kept distinct from the base's, so such
    /// a size is left to the prover.
    fn build(&mut self, bank: &TermBank, n: u32) -> Size {
        let Some(mut search) = self.fresh(bank) else {
            return Size::Over;
        };
        for k in 1..=n {
            let Some(act) = self.grow(&mut search, k) else {
                return Size::Over;
            };
            if k == n {
                return Size::Open(search, act);
            }
            search.solver.add_clause(&[Lit::neg(act)]);
        }
        unreachable!("the loop returns at size n")
    }

    /// A search of the base's clauses (not those of the clause being
    /// searched) with every symbol met so far, no size grounded yet.
    fn fresh(&self, bank: &TermBank) -> Option<Box<Search>> {
        let mut flat = self.growing.out.clone();
        flat.clauses.truncate(self.growing.base_clauses());
        if flat.syms[self.growing.base_syms()..]
            .iter()
            .any(|s| s.value)
        {
            return None;
        }
        Some(Box::new(Search::new(
            bank,
            flat,
            self.sorts.clone(),
            self.bits,
        )))
    }

    /// Grounds `search` at size `n` after its last size; the activation
    /// literal of size `n`'s totality clauses, `None` when the whole
    /// problem at that size is over the ground-clause budget.
    fn grow(&self, search: &mut Search, n: u32) -> Option<Var> {
        let widest = search
            .flat
            .syms
            .iter()
            .map(|s| s.arity + 1)
            .max()
            .unwrap_or(0);
        if n > 1 && widest as u64 * self.bits as u64 > 128 {
            return None;
        }
        let (ground, vars, fclauses) = search.counts(n)?;
        let budget = self.max_ground_clauses;
        if ground > budget || vars > budget || fclauses > budget || vars >= i32::MAX as u64 {
            return None;
        }
        let (act, _) = search.grow(n);
        Some(act.var())
    }

    /// Searches a model of the base and `clause` (over `bank`, which holds
    /// the base's terms) at each size in turn, smallest first, skipping
    /// the sizes the base has none of.
    pub fn search(&mut self, bank: &TermBank, clause: &[Literal]) -> Extended {
        self.search_within(bank, clause, self.sat_conflicts)
    }

    /// [`Extender::search`] with `sat_conflicts` SAT conflicts per size.
    pub fn search_within(
        &mut self,
        bank: &TermBank,
        clause: &[Literal],
        sat_conflicts: u64,
    ) -> Extended {
        self.search_all(bank, &[clause], sat_conflicts)
    }

    /// A model of the base and every one of `clauses` at once, as
    /// [`Extender::search_within`] searches one: the clauses are grounded
    /// together under one activation literal, retired after the query.
    pub fn search_all(
        &mut self,
        bank: &TermBank,
        clauses: &[&[Literal]],
        sat_conflicts: u64,
    ) -> Extended {
        if clauses.iter().any(|clause| {
            self.max_clause_literals
                .is_some_and(|m| clause.len() > m as usize)
        }) {
            return Extended::Unknown;
        }
        for clause in clauses {
            self.growing.add(bank, clause);
        }
        let out = self.query(bank, sat_conflicts);
        self.growing.reset();
        out
    }

    fn query(&mut self, bank: &TermBank, conflicts: u64) -> Extended {
        let base = self.growing.base_clauses();
        let known = self.sorts.slots.len();
        let out = &self.growing.out;
        let max_size = self.sizes.len() as u32;
        let Some((slots, vars)) =
            self.sorts
                .fit(out, known, base..out.clauses.len(), max_size, self.free)
        else {
            let free = self.free;
            self.sorts.slots.extend(
                out.syms[known..]
                    .iter()
                    .map(|s| vec![free; (s.arity + s.fun as u32) as usize]),
            );
            return Extended::Declined;
        };
        self.sorts.slots.extend(slots);
        for n in 1..=max_size {
            let (bits, budget) = (self.bits, self.max_ground_clauses);
            let i = n as usize - 1;
            if matches!(self.sizes[i], Size::Unbuilt) {
                self.sizes[i] = self.build(bank, n);
            }
            let added = &self.growing.out;
            let (search, act) = match &mut self.sizes[i] {
                Size::Absent => continue,
                Size::Over | Size::Unbuilt => return Extended::Unknown,
                Size::Open(search, act) => (search, *act),
            };
            // The symbols met since this solver was built, with tables.
            let have = search.flat.syms.len();
            let widest = added.syms[have..].iter().map(|s| s.arity + 1).max();
            if n > 1 && widest.is_some_and(|w| w as u64 * bits as u64 > 128) {
                return Extended::Unknown;
            }
            search.flat.syms.extend_from_slice(&added.syms[have..]);
            search
                .sorts
                .slots
                .extend_from_slice(&self.sorts.slots[have..]);
            search.tables(have..search.flat.syms.len(), 0, n, act);
            // The candidate's clauses, grounded under their own literal.
            let extra = &added.clauses[base..];
            let ground = extra.iter().zip(&vars).try_fold(0u64, |acc, (_, vs)| {
                vs.iter()
                    .try_fold(1u64, |p, &s| p.checked_mul(search.sorts.size(s, n) as u64))
                    .and_then(|p| acc.checked_add(p))
            });
            if ground.is_none_or(|g| g > budget) {
                return Extended::Unknown;
            }
            let first = search.flat.clauses.len();
            search.flat.clauses.extend_from_slice(extra);
            search.sorts.vars.extend_from_slice(&vars);
            search
                .bound
                .extend(extra.iter().map(|c| vec![u32::MAX; c.nvars as usize]));
            let guard = search.solver.new_var();
            search.ground(
                first..search.flat.clauses.len(),
                0,
                n,
                Some(Lit::pos(guard)),
            );
            search.flat.clauses.truncate(first);
            search.sorts.vars.truncate(first);
            search.bound.truncate(first);
            search.solver.set_budget(Some(conflicts));
            let result = search.solver.solve(&[Lit::pos(act), Lit::pos(guard)]);
            let found = matches!(result, SatResult::Sat).then(|| model(bank, search, n));
            // The candidate's clauses are retired for good.
            search.solver.add_clause(&[Lit::neg(guard)]);
            match result {
                SatResult::Sat => return Extended::Model(found.expect("read above")),
                SatResult::Unknown => return Extended::Unknown,
                SatResult::Unsat => {}
            }
        }
        Extended::NoModel
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference::ReferenceFinder;
    use super::super::tests::clause_texts;
    use super::*;
    use crate::checker;
    use crate::logic::testing::{TestSig, literal_shape};
    use crate::tptp::parse_clause_str;
    use proptest::prelude::*;

    fn parse(bank: &mut TermBank, text: &[String]) -> Vec<Vec<Literal>> {
        text.iter()
            .map(|t| parse_clause_str(bank, t).expect("clause parses"))
            .collect()
    }

    /// Whether the reference finder has a model of `text` of a size in
    /// `1..=upto` (`None` when its budget ran out).
    fn reference_has_model(text: &[String], upto: u32) -> Option<bool> {
        let mut bank = TermBank::new();
        let cs = parse(&mut bank, text);
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let mut r = ReferenceFinder::new(1_000_000, 1_000_000);
        if r.search(&bank, &refs, 1..=upto).is_some() {
            return Some(true);
        }
        (r.no_model_upto >= upto).then_some(false)
    }

    /// A base, then candidates one after another on the same finder: a
    /// model is one of the base and that candidate (the independent
    /// checker reads it), `NoModel` agrees with the reference finder, and
    /// no earlier candidate's clauses constrain a later query.
    fn agree(base: &[String], candidates: &[String], upto: u32) -> Result<(), TestCaseError> {
        let mut bank = TermBank::new();
        let cs = parse(&mut bank, base);
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let (mut e, base_model) =
            Extender::new(&bank, &refs, upto, (1_000_000, 1_000_000), 1_000_000);
        if let Some(m) = &base_model {
            for t in base {
                prop_assert_eq!(checker::model_satisfies(m, t), Ok(true), "{} in {:?}", t, m);
            }
        }
        for cand in candidates {
            let lits = parse_clause_str(&mut bank, cand).expect("clause parses");
            let got = e.search(&bank, &lits);
            let mut all = base.to_vec();
            all.push(cand.clone());
            let expected = reference_has_model(&all, upto);
            match got {
                Extended::Model(m) => {
                    prop_assert!(m.size <= upto);
                    for t in &all {
                        prop_assert_eq!(
                            checker::model_satisfies(&m, t),
                            Ok(true),
                            "{} in {:?}",
                            t,
                            m
                        );
                    }
                    prop_assert_ne!(expected, Some(false), "model where the reference has none");
                }
                Extended::NoModel => {
                    prop_assert_ne!(
                        expected,
                        Some(true),
                        "no model where the reference has one: {}",
                        cand
                    );
                }
                Extended::Unknown => prop_assert!(false, "budgets are ample"),
                Extended::Declined => {}
            }
        }
        Ok(())
    }

    #[test]
    fn each_candidate_is_searched_on_its_own() {
        let base: Vec<String> = ["p(a) | q(a)", "~p(X) | r(X)"].map(String::from).to_vec();
        // `~q(a)` forces p(a) and r(a); `~r(a)` then has no model with
        // `~q(a)` but does without it: a retired candidate must not stay.
        let cands: Vec<String> = ["~q(a)", "~r(a)", "~p(a) | ~q(a)", "a != b", "f(a) != a"]
            .map(String::from)
            .to_vec();
        agree(&base, &cands, 3).unwrap();
        let mut bank = TermBank::new();
        let cs = parse(&mut bank, &base);
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let (mut e, m) = Extender::new(&bank, &refs, 3, (1_000_000, 1_000_000), 1_000);
        assert_eq!(m.map(|m| m.size), Some(1));
        let no = parse_clause_str(&mut bank, "~p(a)").unwrap();
        let no2 = parse_clause_str(&mut bank, "~q(a)").unwrap();
        assert!(matches!(e.search(&bank, &no), Extended::Model(_)));
        assert!(matches!(e.search(&bank, &no2), Extended::Model(_)));
        // Each alone has a model; both would not, and they never meet.
        let two = parse_clause_str(&mut bank, "X = Y").unwrap();
        match e.search(&bank, &two) {
            Extended::Model(m) => assert_eq!(m.size, 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn sizes_the_base_has_no_model_of_are_skipped() {
        let base: Vec<String> = ["a != b", "a != c", "b != c", "p(a)"]
            .map(String::from)
            .to_vec();
        let mut bank = TermBank::new();
        let cs = parse(&mut bank, &base);
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let (mut e, m) = Extender::new(&bank, &refs, 4, (1_000_000, 1_000_000), 1_000);
        assert_eq!(m.map(|m| m.size), Some(3));
        assert_eq!(e.no_model_upto(), 2);
        // A positive equation on the constants' sort, searched at three
        // elements only while nothing else maps into it, would need it to
        // grow: the clause is left to a search with sorts of its own.
        let equation = parse_clause_str(&mut bank, "X = a | X = b").unwrap();
        assert!(matches!(e.search(&bank, &equation), Extended::Declined));
        let none = parse_clause_str(&mut bank, "~p(X)").unwrap();
        assert!(matches!(e.search(&bank, &none), Extended::NoModel));
        let fresh = parse_clause_str(&mut bank, "f(d) != d").unwrap();
        assert!(matches!(e.search(&bank, &fresh), Extended::Model(m) if m.size == 3));
    }

    #[test]
    fn hints_make_a_clause_fit_that_the_bases_sorts_decline() {
        let base: Vec<String> = ["a != b", "a != c", "b != c", "p(a)"]
            .map(String::from)
            .to_vec();
        let mut bank = TermBank::new();
        let cs = parse(&mut bank, &base);
        let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
        let equation = parse_clause_str(&mut bank, "X = a | X = b").unwrap();
        let loose = parse_clause_str(&mut bank, "X = a | X = b | X = c").unwrap();
        let budgets = (1_000_000, 1_000_000);
        let (mut plain, _) = Extender::new(&bank, &refs, 4, budgets, 1_000);
        assert!(matches!(plain.search(&bank, &equation), Extended::Declined));
        let hints: [&[Literal]; 2] = [&equation, &loose];
        let (mut hinted, m) = Extender::with_hints(&bank, &refs, &hints, 4, budgets, 1_000);
        assert_eq!(m.map(|m| m.size), Some(3));
        // Three distinct constants cannot all be a or b; they can be a, b
        // or c, in a model of three elements only.
        assert!(matches!(hinted.search(&bank, &equation), Extended::NoModel));
        match hinted.search_all(&bank, &[&loose], 1_000) {
            Extended::Model(m) => {
                assert_eq!(m.size, 3);
                for t in base
                    .iter()
                    .map(String::as_str)
                    .chain(["X = a | X = b | X = c"])
                {
                    assert_eq!(checker::model_satisfies(&m, t), Ok(true), "{t}");
                }
            }
            other => panic!("{other:?}"),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn agrees_with_the_reference_finder(
            base in prop::collection::vec(prop::collection::vec(literal_shape(3), 1..=3), 1..=4),
            cands in prop::collection::vec(prop::collection::vec(literal_shape(3), 1..=3), 1..=4),
            upto in 1u32..=3,
        ) {
            let mut bank = TermBank::new();
            let sig = TestSig::new(&mut bank);
            let base = clause_texts(&mut bank, &sig, &base);
            let cands = clause_texts(&mut bank, &sig, &cands);
            agree(&base, &cands, upto)?;
        }

        /// Several candidates at once, on a finder that has answered one
        /// of them alone before: a model is one of the base and all of
        /// them, `NoModel` agrees with the reference finder, and the
        /// single query after the joint one is not constrained by it.
        #[test]
        fn joint_queries_agree_with_the_reference_finder(
            base in prop::collection::vec(prop::collection::vec(literal_shape(3), 1..=3), 1..=4),
            cands in prop::collection::vec(prop::collection::vec(literal_shape(3), 1..=3), 2..=4),
            upto in 1u32..=3,
        ) {
            let mut bank = TermBank::new();
            let sig = TestSig::new(&mut bank);
            let base = clause_texts(&mut bank, &sig, &base);
            let cands = clause_texts(&mut bank, &sig, &cands);
            let cs = parse(&mut bank, &base);
            let refs: Vec<&[Literal]> = cs.iter().map(|c| c.as_slice()).collect();
            let (mut e, _) = Extender::new(&bank, &refs, upto, (1_000_000, 1_000_000), 1_000_000);
            let lits: Vec<Vec<Literal>> = parse(&mut bank, &cands);
            let _ = e.search(&bank, &lits[0]);
            let joint: Vec<&[Literal]> = lits.iter().map(|c| c.as_slice()).collect();
            let mut all = base.clone();
            all.extend(cands.iter().cloned());
            let expected = reference_has_model(&all, upto);
            match e.search_all(&bank, &joint, 1_000_000) {
                Extended::Model(m) => {
                    for t in &all {
                        prop_assert_eq!(checker::model_satisfies(&m, t), Ok(true), "{} in {:?}", t, m);
                    }
                    prop_assert_ne!(expected, Some(false), "model where the reference has none");
                }
                Extended::NoModel => prop_assert_ne!(expected, Some(true), "no model where the reference has one"),
                Extended::Unknown | Extended::Declined => {}
            }
            let mut one = base.clone();
            one.push(cands[1].clone());
            if let Extended::NoModel = e.search(&bank, &lits[1]) {
                prop_assert_ne!(reference_has_model(&one, upto), Some(true), "a joint query's clauses stayed");
            }
        }
    }
}
