//! Property tests of the logic core: hash-consing, unification, matching,
//! KBO and clause normalisation, over the shared strategies of
//! [`super::testing`].

use super::testing::{TestSig, build_literal, ground_shape, literal_shape, term_shape};
use super::*;
use proptest::prelude::*;

/// A substitution (variable i -> ground term) applied by rebuilding.
fn ground_instance(bank: &mut TermBank, t: TermId, g: &[TermId]) -> TermId {
    match bank.head(t) {
        Head::Var(v) => g[v as usize % g.len()],
        Head::Sym(f) => {
            let args: Vec<TermId> = bank.args(t).to_vec();
            let new: Vec<TermId> = args
                .into_iter()
                .map(|a| ground_instance(bank, a, g))
                .collect();
            bank.app(f, &new)
        }
    }
}

/// KBO as its definition reads (Knuth & Bendix 1970, unit weights): the
/// variable condition counted afresh for every pair, weight, precedence,
/// then the arguments left to right. Quadratic, and the oracle for the
/// one-pass [`Kbo::compare`].
fn kbo_by_definition(kbo: &Kbo, bank: &TermBank, s: TermId, t: TermId) -> TermOrder {
    fn count(bank: &TermBank, t: TermId, d: i32, out: &mut std::collections::BTreeMap<u32, i32>) {
        match bank.head(t) {
            Head::Var(v) => *out.entry(v).or_default() += d,
            Head::Sym(_) => bank.args(t).iter().for_each(|&a| count(bank, a, d, out)),
        }
    }
    fn greater(kbo: &Kbo, bank: &TermBank, s: TermId, t: TermId) -> bool {
        let mut bal = std::collections::BTreeMap::new();
        count(bank, s, 1, &mut bal);
        count(bank, t, -1, &mut bal);
        if s == t || bal.values().any(|&b| b < 0) {
            return false;
        }
        let (ws, wt) = (bank.weight(s), bank.weight(t));
        if ws != wt {
            return ws > wt;
        }
        match (bank.head(s), bank.head(t)) {
            // Equal weights and a variable side: s = X cannot be bigger; t =
            // X below s with the same weight only if s = X.
            (Head::Var(_), _) | (_, Head::Var(_)) => false,
            (Head::Sym(f), Head::Sym(g)) if f != g => kbo.rank(f) > kbo.rank(g),
            _ => {
                let (a, b) = (bank.args(s), bank.args(t));
                match a.iter().zip(b).find(|(x, y)| x != y) {
                    Some((&x, &y)) => greater(kbo, bank, x, y),
                    None => false,
                }
            }
        }
    }
    if s == t {
        TermOrder::Equal
    } else if greater(kbo, bank, s, t) {
        TermOrder::Greater
    } else if greater(kbo, bank, t, s) {
        TermOrder::Less
    } else {
        TermOrder::Incomparable
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Building the same shape twice gives the same id; weight counts symbols.
    #[test]
    fn hash_consing_is_structural(s in term_shape(3)) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let a = s.build(&mut bank, &sig);
        let n = bank.len();
        let b = s.build(&mut bank, &sig);
        prop_assert_eq!(a, b);
        prop_assert_eq!(bank.len(), n);
        // Weight = symbol occurrences, counted by walking the term tree.
        fn symbols(bank: &TermBank, t: crate::logic::TermId) -> usize {
            1 + bank.args(t).iter().map(|&x| symbols(bank, x)).sum::<usize>()
        }
        prop_assert_eq!(bank.weight(a) as usize, symbols(&bank, a));
    }

    /// A unifier makes both sides equal, and it is undone completely.
    #[test]
    fn unifiers_unify(s in term_shape(3), t in term_shape(3)) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let (a, b) = (s.build(&mut bank, &sig), t.build(&mut bank, &sig));
        let mut sub = Subst::new();
        if sub.unify(&bank, a, 0, b, 1) {
            let mut ren = Renaming::new();
            let ia = sub.apply(&mut bank, a, 0, &mut ren);
            let ib = sub.apply(&mut bank, b, 1, &mut ren);
            prop_assert_eq!(ia, ib);
        } else {
            prop_assert!(sub.is_empty());
        }
    }

    /// Weight and shape of an instance computed without building it agree
    /// with the bank's; building with a replacement equals building and
    /// then replacing.
    #[test]
    fn virtual_instances_agree_with_built_ones(s in term_shape(3), t in term_shape(3), pick in 0usize..64) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let (a, b) = (s.build(&mut bank, &sig), t.build(&mut bank, &sig));
        let mut sub = Subst::new();
        if sub.unify(&bank, a, 0, b, 1) {
            let mut ren = Renaming::new();
            let ia = sub.apply(&mut bank, a, 0, &mut ren);
            prop_assert_eq!(sub.weight_shape(&bank, a, 0), (bank.weight(ia), bank.shape(ia)));
            let mut positions: Vec<Vec<u32>> = Vec::new();
            bank.for_each_nonvar_subterm(a, &mut |_, p| positions.push(p.to_vec()));
            if let Some(pos) = positions.get(pick % positions.len().max(1)) {
                let r = Replace { pos, by: b, by_bank: 1 };
                let mut ren2 = ren.clone();
                let ib = sub.apply(&mut bank, b, 1, &mut ren);
                let expected = bank.replace_at(ia, pos, ib);
                let got = sub.apply_replacing(&mut bank, a, 0, r, &mut ren2);
                prop_assert_eq!(got, expected);
                prop_assert_eq!(sub.weigh_replacing::<true>(&bank, a, 0, r), (bank.weight(got), bank.shape(got)));
            }
        }
    }

    /// Unification is complete on instances: a term and a ground instance of
    /// a renamed copy always unify.
    #[test]
    fn term_unifies_with_its_instances(s in term_shape(3), g in proptest::collection::vec(ground_shape(), 3)) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let a = s.build(&mut bank, &sig);
        let gs: Vec<TermId> = g.iter().map(|x| x.build(&mut bank, &sig)).collect();
        let inst = ground_instance(&mut bank, a, &gs);
        prop_assert!(Subst::new().unify(&bank, a, 0, inst, 1));
        let mut m = Matcher::new();
        prop_assert!(m.matches(&bank, a, inst));
        prop_assert_eq!(m.apply(&mut bank, a), inst);
    }

    /// Matching succeeds iff the pattern instantiated by the matcher is the target.
    #[test]
    fn matching_is_sound(s in term_shape(2), t in term_shape(3)) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let (p, u) = (s.build(&mut bank, &sig), t.build(&mut bank, &sig));
        let mut m = Matcher::new();
        if m.matches(&bank, p, u) {
            prop_assert_eq!(m.apply(&mut bank, p), u);
        }
    }

    /// KBO: irreflexive, antisymmetric, a proper superterm is bigger, and
    /// `s > t` is stable under ground substitution.
    #[test]
    fn kbo_is_a_simplification_order(s in term_shape(3), t in term_shape(3), g in proptest::collection::vec(ground_shape(), 3)) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let kbo = Kbo::by_frequency(&bank, &[]);
        let (a, b) = (s.build(&mut bank, &sig), t.build(&mut bank, &sig));
        prop_assert_eq!(kbo.compare(&bank, a, a), TermOrder::Equal);
        prop_assert_eq!(kbo.compare(&bank, a, b), kbo.compare(&bank, b, a).reverse());
        let fa = bank.app(sig.f, &[a, b]);
        prop_assert_eq!(kbo.compare(&bank, fa, a), TermOrder::Greater);
        if kbo.compare(&bank, a, b) == TermOrder::Greater {
            let gs: Vec<TermId> = g.iter().map(|x| x.build(&mut bank, &sig)).collect();
            let (ia, ib) = (ground_instance(&mut bank, a, &gs), ground_instance(&mut bank, b, &gs));
            prop_assert_eq!(kbo.compare(&bank, ia, ib), TermOrder::Greater);
        }
    }

    /// The one-pass KBO gives the definition's answer on every pair, with
    /// non-linear terms and shared variables included.
    #[test]
    fn kbo_compare_is_the_definition(s in term_shape(4), t in term_shape(4)) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let kbo = Kbo::by_frequency(&bank, &[]);
        let (a, b) = (s.build(&mut bank, &sig), t.build(&mut bank, &sig));
        let fab = bank.app(sig.f, &[a, b]);
        let fba = bank.app(sig.f, &[b, a]);
        for (x, y) in [(a, b), (fab, fba), (fab, a), (b, fba)] {
            let o = kbo_by_definition(&kbo, &bank, x, y);
            prop_assert_eq!(kbo.compare(&bank, x, y), o);
            // The shortcut for callers that only ask "greater or equal?".
            let ge = match o {
                TermOrder::Greater | TermOrder::Equal => o,
                _ => TermOrder::Incomparable,
            };
            prop_assert_eq!(kbo.greater_or_equal(&bank, x, y), ge);
        }
    }

    /// KBO on instances under a substitution (`compare_inst`,
    /// `compare_lits_inst`) agrees with KBO on the built instances.
    #[test]
    fn kbo_on_virtual_instances_agrees_with_built_ones(
        u in term_shape(3), v in term_shape(3), s in term_shape(3), t in term_shape(3),
        la in literal_shape(3), lb in literal_shape(3),
    ) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let kbo = Kbo::by_frequency(&bank, &[]);
        let (u, v) = (u.build(&mut bank, &sig), v.build(&mut bank, &sig));
        let (s, t) = (s.build(&mut bank, &sig), t.build(&mut bank, &sig));
        let (la, lb) = (build_literal(&mut bank, &sig, &la), build_literal(&mut bank, &sig, &lb));
        let mut sub = Subst::new();
        // Any outcome is fine: without a unifier the substitution is empty.
        sub.unify(&bank, u, 0, v, 1);
        let mut ren = Renaming::new();
        let is = sub.apply(&mut bank, s, 0, &mut ren);
        let it = sub.apply(&mut bank, t, 1, &mut ren);
        prop_assert_eq!(kbo.compare_inst(&bank, &sub, s, 0, t, 1), kbo.compare(&bank, is, it));
        prop_assert_eq!(kbo.compare_inst(&bank, &sub, s, 0, s, 0), TermOrder::Equal);
        let mut inst = |l: Literal, bank: &mut TermBank| {
            let lhs = sub.apply(bank, l.lhs, 0, &mut ren);
            let rhs = sub.apply(bank, l.rhs, 0, &mut ren);
            Literal::eq(lhs, rhs, l.pos)
        };
        let (ia, ib) = (inst(la, &mut bank), inst(lb, &mut bank));
        prop_assert_eq!(kbo.compare_lits_inst(&bank, &sub, &la, &lb, 0), kbo.compare_lits(&bank, &ia, &ib));
    }

    /// The demodulation check on a matched pattern agrees with KBO on the
    /// built instances: `Greater` and `Equal` exactly, nothing else claimed.
    #[test]
    fn kbo_on_matched_instances_agrees_with_built_ones(
        l in term_shape(3), r in term_shape(3), images in proptest::collection::vec(term_shape(3), 3),
    ) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let kbo = Kbo::by_frequency(&bank, &[]);
        let (l, r) = (l.build(&mut bank, &sig), r.build(&mut bank, &sig));
        let images: Vec<TermId> = images.iter().map(|i| i.build(&mut bank, &sig)).collect();
        // σ binds the pattern's variables X_i to the images; t = σ(l).
        let mut m = Matcher::new();
        let pattern_vars: Vec<TermId> = (0..3).map(|i| bank.var(i)).collect();
        for (x, &img) in pattern_vars.iter().zip(&images) {
            prop_assume!(m.matches(&bank, *x, img));
        }
        let t = m.apply(&mut bank, l);
        let rs = m.apply(&mut bank, r);
        let fast = kbo.compare_matched(&bank, &m, &mut Subst::new(), t, l, r);
        let slow = kbo.compare(&bank, t, rs);
        prop_assert_eq!(fast == TermOrder::Greater, slow == TermOrder::Greater, "{:?} vs {:?}", fast, slow);
        prop_assert_eq!(fast == TermOrder::Equal, slow == TermOrder::Equal);
    }

    /// The permutative shortcut gives `compare_matched`'s answer on every
    /// permutative pair: `l` against `r` = `l` with its variables permuted
    /// and, under one head, its arguments swapped (commutativity- and
    /// associativity-like pairs), for images with variables and without.
    #[test]
    fn kbo_permutative_shortcut_agrees_with_compare_matched(
        l in term_shape(3), images in proptest::collection::vec(term_shape(3), 3), perm in 0usize..3,
    ) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let kbo = Kbo::by_frequency(&bank, &[]);
        let l = l.build(&mut bank, &sig);
        let images: Vec<TermId> = images.iter().map(|i| i.build(&mut bank, &sig)).collect();
        // r: l with its variables of equal occurrence counts rotated, then
        // (perm 1, 2) the arguments of its binary nodes swapped everywhere or
        // at the root only.
        let mut counts = Vec::new();
        bank.count_vars(l, &mut counts);
        let renamed: Vec<TermId> = (0..3u32)
            .map(|v| {
                let c = counts.get(v as usize).copied().unwrap_or(0);
                let same: Vec<u32> = (0..counts.len() as u32).filter(|&w| counts[w as usize] == c).collect();
                match same.iter().position(|&w| w == v) {
                    Some(k) if c > 0 => bank.var(same[(k + 1) % same.len()]),
                    _ => bank.var(v),
                }
            })
            .collect();
        let r = ground_instance(&mut bank, l, &renamed);
        fn mirror(bank: &mut TermBank, t: TermId, deep: bool) -> TermId {
            match bank.head(t) {
                Head::Var(_) => t,
                Head::Sym(f) => {
                    let mut args = bank.args(t).to_vec();
                    if deep {
                        args = args.into_iter().map(|a| mirror(bank, a, true)).collect();
                    }
                    args.reverse();
                    bank.app(f, &args)
                }
            }
        }
        let r = if perm == 0 { r } else { mirror(&mut bank, r, perm == 1) };
        let (fl, fr) = (bank.app(sig.f, &[l, r]), bank.app(sig.f, &[r, l]));
        let mut m = Matcher::new();
        let pattern_vars: Vec<TermId> = (0..3).map(|i| bank.var(i)).collect();
        for (x, &img) in pattern_vars.iter().zip(&images) {
            prop_assume!(m.matches(&bank, *x, img));
        }
        for (l, r) in [(l, r), (fl, fr), (fr, fl)] {
            prop_assert!(permutative(&bank, l, r));
            let t = m.apply(&mut bank, l);
            let fast = kbo.compare_matched_permutative(&bank, &m, &mut Subst::new(), t, l, r);
            let slow = kbo.compare_matched(&bank, &m, &mut Subst::new(), t, l, r);
            prop_assert_eq!(fast, slow);
        }
        // Not permutative: a pair of different weights.
        let g = bank.app(sig.g, &[l]);
        prop_assert!(!permutative(&bank, g, r));
    }

    /// KBO is total on ground terms.
    #[test]
    fn kbo_is_total_on_ground_terms(s in ground_shape(), t in ground_shape()) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let kbo = Kbo::by_frequency(&bank, &[]);
        let (a, b) = (s.build(&mut bank, &sig), t.build(&mut bank, &sig));
        let o = kbo.compare(&bank, a, b);
        prop_assert!(o != TermOrder::Incomparable);
        prop_assert_eq!(o == TermOrder::Equal, a == b);
    }

    /// `orient_known` orients as `orient` does and reports the oriented
    /// sides' order; normalising with those orders known gives the clause
    /// normalising from scratch gives.
    #[test]
    fn known_orders_change_nothing(lits in proptest::collection::vec(literal_shape(3), 1..4)) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let kbo = Kbo::by_frequency(&bank, &[]);
        let ls: Vec<Literal> = lits.iter().map(|l| build_literal(&mut bank, &sig, l)).collect();
        let mut known = Vec::new();
        for &l in &ls {
            let (o, order) = orient_known(&bank, &kbo, l);
            prop_assert_eq!(o, orient(&bank, &kbo, l));
            if o.is_equational(&bank) {
                prop_assert_eq!(order, kbo.compare(&bank, o.lhs, o.rhs));
            }
            known.push((o, order));
        }
        let oriented: Vec<Literal> = known.iter().map(|k| k.0).collect();
        let plain = normalize_clause(&mut bank, &kbo, ls.clone());
        let with = normalize_clause_known(&mut bank, &kbo, oriented, &known);
        prop_assert_eq!(plain, with);
    }

    /// Normalisation is idempotent, invariant under variable renaming and
    /// literal order, and numbers variables densely.
    #[test]
    fn normalisation_is_canonical_for_renamings(lits in proptest::collection::vec(literal_shape(3), 1..4), shift in 1u32..5) {
        let mut bank = TermBank::new();
        let sig = TestSig::new(&mut bank);
        let kbo = Kbo::by_frequency(&bank, &[]);
        let ls: Vec<Literal> = lits.iter().map(|l| build_literal(&mut bank, &sig, l)).collect();
        let c1 = normalize_clause(&mut bank, &kbo, ls.clone());
        let again = normalize_clause(&mut bank, &kbo, c1.lits.to_vec());
        prop_assert_eq!(&again, &c1);
        // Rename X_i -> X_{(i + shift) mod 3 + 3} and reverse the literals.
        let map: Vec<u32> = (0..3).map(|i| (i + shift) % 3 + 3).collect();
        let mut renamed: Vec<Literal> = ls
            .iter()
            .map(|l| Literal::eq(rename(&mut bank, l.lhs, &map), rename(&mut bank, l.rhs, &map), l.pos))
            .collect();
        renamed.reverse();
        let c2 = normalize_clause(&mut bank, &kbo, renamed);
        prop_assert_eq!(c1.len(), c2.len());
        prop_assert_eq!(c1.weight(&bank), c2.weight(&bank));
        let n = c1.var_count(&bank);
        let mut seen = vec![0u32; n as usize];
        for l in c1.lits.iter() {
            bank.count_vars(l.lhs, &mut seen);
            bank.count_vars(l.rhs, &mut seen);
        }
        prop_assert!(seen.iter().all(|&k| k > 0), "variables are not dense");
    }
}
