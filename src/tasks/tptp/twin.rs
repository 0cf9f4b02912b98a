//! Perturbed copies ("twins") of premise clauses, the selection
//! distractors that look like premises by construction: one edit (two
//! arguments swapped, a symbol replaced by another of the same arity and
//! kind from the clause or the theorem, or, in a clause of two or more
//! literals, one literal negated) keeps a clause's length, literal count,
//! variables and symbols nearly as they were, so neither surface profile
//! nor background membership tells the premise from its twin; only
//! reasoning about which of them the theorem needs does. A premise whose
//! one-edit twins may all stand in for it (a strong law such as
//! associativity, whose permuted forms are as strong) gets a twin two
//! edits away, which changes the same surface as little. The edit is the
//! mutation operator of mutation testing (DeMillo, Lipton and Sayward,
//! "Hints on test data selection", Computer 1978) applied to clauses.
//!
//! Written here: the edit works on the crate's own terms and prints them
//! back as the rest of the prompt prints clauses.

use crate::logic::canonical_clause;
use crate::logic::{Head, Literal, Matcher, SymbolKind, TermBank, TermId};
use crate::tptp::{clause_to_tptp, parse_clause_str};
use rand::Rng;
use rand::seq::IndexedRandom;
use std::collections::HashSet;

/// A twin of `clause` (TPTP text) for theorem `theorem`: a clause `edits`
/// random edits away (at least one), not a tautology, whose canonical form
/// (up to variants) is not in `taken`, exactly as close to the theorem as
/// the clause by every surface measure of [`Closeness`], and with a printed
/// length within a fifth of the clause's (at least two characters either
/// way). A premise one step above the theorem often carries one of its
/// literals unchanged; twins whose edit fell on that literal shared it far
/// less often (FLD selection level 1: 25% of two-literal twins against 69%
/// of two-literal premises, an audit lead of 11 points). Literals and
/// subterms that the theorem instantiates told the same way: keeping from
/// each twin pair the clause with more of them picked the premise in 70 of
/// 78 untied SET pairs (tptp-tasks-18), so they are held equal too, and
/// the edit falls where the theorem does not show it (most often in the
/// literal the inference removed). Variables are renamed by first
/// occurrence, as every clause of the graph prints. `None` when a few
/// random edits give none.
pub fn twin(
    clause: &str,
    theorem: &str,
    taken: &HashSet<String>,
    edits: usize,
    rng: &mut impl Rng,
) -> Option<String> {
    let mut bank = TermBank::new();
    let lits = parse_clause_str(&mut bank, clause).ok()?;
    let tlits = parse_clause_str(&mut bank, theorem).ok()?;
    let tsyms = symbols(&bank, &tlits);
    let want = Closeness::of(&bank, &lits, &tlits);
    let chars = clause.len() as f64;
    let slack = (chars / 5.0).max(2.0);
    // Every symbol of the clause or the theorem, by arity and kind: what a
    // replacement may use.
    let mut pool_syms: Vec<u32> = symbols(&bank, &lits);
    pool_syms.extend(tsyms.iter().copied());
    pool_syms.sort_unstable();
    pool_syms.dedup();
    // Draws: 48 for one edit; four times as many for more, since each edit
    // of a draw may fail on its own (a unit clause over one function symbol
    // has only swaps: one draw in nine gives two). Most edits change how
    // close the clause is to the theorem and are drawn again.
    let draws = if edits <= 1 { 48 } else { 192 };
    'draw: for _ in 0..draws {
        let mut edited = lits.clone();
        for _ in 0..edits.max(1) {
            let Some(next) = edit(&mut bank, &edited, &pool_syms, rng) else {
                continue 'draw;
            };
            edited = next;
        }
        let edited = renumber(&mut bank, &edited);
        if tautology(&bank, &edited) || Closeness::of(&bank, &edited, &tlits) != want {
            continue;
        }
        let text = clause_to_tptp(&bank, &edited);
        if (text.len() as f64 - chars).abs() > slack {
            continue;
        }
        if taken.contains(&canonical_clause(&bank, &edited)) {
            continue;
        }
        return Some(text);
    }
    None
}

/// How close a clause looks to a theorem by the measures a reader who does
/// not reason would compare, each a count: literals of the clause that the
/// theorem instantiates (a theorem literal of the same sign is an instance
/// of it, either side order of an equation), literals equal to a theorem
/// literal up to variable names, non-variable subterm occurrences of the
/// clause that some theorem subterm instantiates, symbols shared with the
/// theorem, and symbols the theorem lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closeness {
    /// Literals some theorem literal instantiates.
    pub general_literals: usize,
    /// Literals equal to a theorem literal up to variable names.
    pub equal_literals: usize,
    /// Non-variable subterm occurrences some theorem subterm instantiates.
    pub general_subterms: usize,
    /// Distinct symbols the theorem also has.
    pub shared_symbols: usize,
    /// Distinct symbols the theorem lacks.
    pub foreign_symbols: usize,
}

impl Closeness {
    /// The closeness of `lits` to `theorem` (both in `bank`).
    pub fn of(bank: &TermBank, lits: &[Literal], theorem: &[Literal]) -> Closeness {
        let tsyms = symbols(bank, theorem);
        let syms = symbols(bank, lits);
        let tkeys: HashSet<String> = theorem.iter().map(|l| literal_key(bank, l)).collect();
        let mut tsubs = Vec::new();
        for l in theorem {
            for side in [l.lhs, l.rhs] {
                bank.for_each_nonvar_subterm(side, &mut |t, _| tsubs.push(t));
            }
        }
        tsubs.retain(|&t| t != bank.true_term());
        let mut m = Matcher::new();
        let general_literals = lits
            .iter()
            .filter(|l| theorem.iter().any(|t| instantiates(bank, &mut m, l, t)))
            .count();
        let mut general = |p: TermId, t: TermId| {
            let ok = m.matches(bank, p, t);
            m.clear();
            ok
        };
        let mut general_subterms = 0;
        for l in lits {
            for side in [l.lhs, l.rhs] {
                bank.for_each_nonvar_subterm(side, &mut |p, _| {
                    if p != bank.true_term() && tsubs.iter().any(|&t| general(p, t)) {
                        general_subterms += 1;
                    }
                });
            }
        }
        Closeness {
            general_literals,
            equal_literals: lits
                .iter()
                .filter(|x| tkeys.contains(&literal_key(bank, x)))
                .count(),
            general_subterms,
            shared_symbols: syms.iter().filter(|s| tsyms.contains(s)).count(),
            foreign_symbols: syms.iter().filter(|s| !tsyms.contains(s)).count(),
        }
    }
}

/// Whether theorem literal `t` is an instance of `l`: the same sign, and
/// one substitution maps `l`'s sides onto `t`'s (either order for an
/// equation). `m` is left empty.
fn instantiates(bank: &TermBank, m: &mut Matcher, l: &Literal, t: &Literal) -> bool {
    if l.pos != t.pos || l.is_equational(bank) != t.is_equational(bank) {
        return false;
    }
    let mut pair = |a: TermId, b: TermId| {
        let ok = m.matches(bank, l.lhs, a) && m.matches(bank, l.rhs, b);
        m.clear();
        ok
    };
    pair(t.lhs, t.rhs) || (l.is_equational(bank) && pair(t.rhs, t.lhs))
}

/// A literal up to variable names.
fn literal_key(bank: &TermBank, l: &Literal) -> String {
    canonical_clause(bank, std::slice::from_ref(l))
}

/// Distinct symbol ids (as raw codes) of a literal list, `$true` left out.
pub(super) fn symbols(bank: &TermBank, lits: &[Literal]) -> Vec<u32> {
    let mut out = Vec::new();
    for l in lits {
        for side in [l.lhs, l.rhs] {
            bank.for_each_nonvar_subterm(side, &mut |t, _| {
                let s = bank.sym(t);
                if bank.sig.get(s).kind != SymbolKind::True && !out.contains(&s.0) {
                    out.push(s.0);
                }
            });
        }
    }
    out
}

/// One random edit of `lits`, or `None` when the drawn kind of edit has
/// nothing to act on.
fn edit(
    bank: &mut TermBank,
    lits: &[Literal],
    pool_syms: &[u32],
    rng: &mut impl Rng,
) -> Option<Vec<Literal>> {
    // Every non-variable subterm position: (literal, side, path, term).
    let mut sites: Vec<(usize, bool, Vec<u32>, TermId)> = Vec::new();
    for (i, l) in lits.iter().enumerate() {
        let sides: &[(bool, TermId)] = if l.is_equational(bank) {
            &[(false, l.lhs), (true, l.rhs)]
        } else {
            &[(false, l.lhs)]
        };
        for &(right, side) in sides {
            bank.for_each_nonvar_subterm(side, &mut |t, p| sites.push((i, right, p.to_vec(), t)));
        }
    }
    let mut out = lits.to_vec();
    match rng.random_range(0..3u8) {
        0 => {
            // Swap two different arguments of one application.
            let cands: Vec<&(usize, bool, Vec<u32>, TermId)> =
                sites.iter().filter(|s| bank.arity(s.3) >= 2).collect();
            let &&(i, right, ref path, t) = cands.choose(rng)?;
            let n = bank.arity(t);
            let a = rng.random_range(0..n);
            let b = (a + rng.random_range(1..n)) % n;
            let mut args = bank.args(t).to_vec();
            if args[a] == args[b] {
                return None;
            }
            args.swap(a, b);
            let sym = bank.sym(t);
            let new = bank.app(sym, &args);
            set_side(bank, &mut out[i], right, path, new);
        }
        1 => {
            // Replace a symbol by another of the same arity and kind.
            let &(i, right, ref path, t) = sites.choose(rng)?;
            let s = bank.sym(t);
            let (arity, kind) = (bank.sig.get(s).arity, bank.sig.get(s).kind);
            let others: Vec<u32> = pool_syms
                .iter()
                .copied()
                .filter(|&o| o != s.0)
                .filter(|&o| {
                    let x = bank.sig.get(crate::logic::SymbolId(o));
                    x.arity == arity && x.kind == kind
                })
                .collect();
            let &o = others.choose(rng)?;
            let args = bank.args(t).to_vec();
            let new = bank.app(crate::logic::SymbolId(o), &args);
            set_side(bank, &mut out[i], right, path, new);
        }
        _ => {
            // Negate one literal of a clause with two or more.
            if lits.len() < 2 {
                return None;
            }
            let i = rng.random_range(0..lits.len());
            out[i] = out[i].negate();
        }
    }
    Some(out)
}

fn set_side(bank: &mut TermBank, l: &mut Literal, right: bool, path: &[u32], new: TermId) {
    if right {
        l.rhs = bank.replace_at(l.rhs, path, new);
    } else {
        l.lhs = bank.replace_at(l.lhs, path, new);
    }
}

/// Variables renamed `X0, X1, ...` by first occurrence in printing order.
fn renumber(bank: &mut TermBank, lits: &[Literal]) -> Vec<Literal> {
    fn order(bank: &TermBank, t: TermId, seen: &mut Vec<u32>) {
        match bank.head(t) {
            Head::Var(v) => {
                if !seen.contains(&v) {
                    seen.push(v);
                }
            }
            Head::Sym(_) => {
                for &a in bank.args(t) {
                    order(bank, a, seen);
                }
            }
        }
    }
    fn rename(bank: &mut TermBank, t: TermId, seen: &[u32]) -> TermId {
        match bank.head(t) {
            Head::Var(v) => {
                let k = seen.iter().position(|&x| x == v).expect("collected") as u32;
                bank.var(k)
            }
            Head::Sym(s) => {
                if bank.arity(t) == 0 {
                    return t;
                }
                let args: Vec<TermId> = bank.args(t).to_vec();
                let args: Vec<TermId> = args.into_iter().map(|a| rename(bank, a, seen)).collect();
                bank.app(s, &args)
            }
        }
    }
    let mut seen = Vec::new();
    for l in lits {
        order(bank, l.lhs, &mut seen);
        order(bank, l.rhs, &mut seen);
    }
    lits.iter()
        .map(|l| Literal {
            lhs: rename(bank, l.lhs, &seen),
            rhs: rename(bank, l.rhs, &seen),
            pos: l.pos,
        })
        .collect()
}

/// A clause true in every interpretation: `s = s`, or a literal beside its
/// own negation (either orientation of an equation).
fn tautology(bank: &TermBank, lits: &[Literal]) -> bool {
    lits.iter()
        .any(|l| l.pos && l.lhs == l.rhs && l.is_equational(bank))
        || lits.iter().any(|a| {
            lits.iter().any(|b| {
                a.pos != b.pos
                    && ((a.lhs == b.lhs && a.rhs == b.rhs) || (a.lhs == b.rhs && a.rhs == b.lhs))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn canon(text: &str) -> String {
        let mut bank = TermBank::new();
        let lits = parse_clause_str(&mut bank, text).unwrap();
        canonical_clause(&bank, &lits)
    }

    #[test]
    fn twins_are_one_edit_away_and_print_like_graph_clauses() {
        let clause = "~subset(X0,X1) | ~member(X2,X0) | member(X2,X1)";
        let theorem = "~subset(X0,X1) | member(f(X0),X1)";
        let taken: HashSet<String> = [canon(clause), canon(theorem)].into_iter().collect();
        let mut kinds = HashSet::new();
        for seed in 0..40 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let t = twin(clause, theorem, &taken, 1, &mut rng).expect("a twin");
            assert!(
                !taken.contains(&canon(&t)),
                "{t} is a variant of a taken clause"
            );
            // Same literal count; variables named by first occurrence.
            assert_eq!(t.matches(" | ").count(), 2, "{t}");
            let first: Vec<usize> = ["X0", "X1", "X2"]
                .iter()
                .filter_map(|v| t.find(v))
                .collect();
            assert!(first.windows(2).all(|w| w[0] < w[1]), "{t}");
            assert!((t.len() as i64 - clause.len() as i64).abs() <= 9, "{t}");
            kinds.insert(t);
        }
        // Fewer than before: an edit of `member(X2,X1)` (which `member(f(X0),X1)`
        // instantiates) or of `~subset(X0,X1)` changes the closeness.
        assert!(kinds.len() >= 2, "too few distinct twins: {kinds:?}");
    }

    #[test]
    fn two_edits_reach_twins_one_edit_cannot() {
        // Associativity's one-swap twins are the permuted associativity
        // laws; two swaps also reach `op(op(X0,X1),X2)=op(op(X0,X2),X1)`
        // and its kind. Every twin keeps the law's surface: one symbol,
        // three variables, the same length.
        let clause = "op(op(X0,X1),X2)=op(X0,op(X1,X2))";
        let theorem = "op(square(X0),X0)=op(X0,square(X0))";
        let taken: HashSet<String> = [canon(clause), canon(theorem)].into_iter().collect();
        let draws = |edits: usize| -> HashSet<String> {
            (0..60)
                .filter_map(|seed| {
                    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                    twin(clause, theorem, &taken, edits, &mut rng)
                })
                .inspect(|t| {
                    assert_eq!(t.len(), clause.len(), "{t}");
                    assert_eq!(t.matches("op(").count(), 4, "{t}");
                    assert!(t.contains("X2") && !t.contains("X3"), "{t}");
                })
                .map(|t| canon(&t))
                .collect()
        };
        let one = draws(1);
        let two = draws(2);
        assert!(!one.is_empty());
        let right_commutative = canon("op(op(X0,X1),X2)=op(op(X0,X2),X1)");
        assert!(!one.contains(&right_commutative), "{one:?}");
        assert!(two.contains(&right_commutative), "{two:?}");
        assert!(two.difference(&one).count() >= 2, "{two:?} vs {one:?}");
    }

    #[test]
    fn twins_keep_the_literals_shared_with_the_theorem() {
        // `q(X0)` is a literal of the theorem: a twin may edit `~r(X0,X1)`
        // (swap, replace `r`, negate) but never `q(X0)` (negated or
        // turned into `p(X0)` it would share nothing with the theorem).
        let theorem = "p(a) | q(X0)";
        let clause = "~r(X0,X1) | q(X0)";
        let taken: HashSet<String> = [canon(clause)].into_iter().collect();
        let mut found = 0;
        for seed in 0..40 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let Some(t) = twin(clause, theorem, &taken, 1, &mut rng) else {
                continue;
            };
            found += 1;
            let keeps = t
                .split(" | ")
                .any(|l| l.starts_with("q(") && canon(l) == canon("q(X0)"));
            assert!(keeps, "{t} lost the theorem's literal");
        }
        assert!(found >= 20, "only {found} twins");
    }

    fn closeness(clause: &str, theorem: &str) -> Closeness {
        let mut bank = TermBank::new();
        let c = parse_clause_str(&mut bank, clause).unwrap();
        let t = parse_clause_str(&mut bank, theorem).unwrap();
        Closeness::of(&bank, &c, &t)
    }

    #[test]
    fn closeness_counts_what_the_theorem_instantiates() {
        let theorem = "~member(X0,pair_set(X1,X2)) | X0=X1 | X0=X2";
        // Both equations are instantiated (either side order), and so is
        // the membership literal; subterms: member(..), pair_set(..).
        let c = closeness("~member(X0,pair_set(X1,X2)) | X1=X0 | X0=X2", theorem);
        assert_eq!(
            (c.general_literals, c.equal_literals, c.general_subterms),
            (3, 3, 2)
        );
        // A negated equation no longer matches a theorem literal.
        let c = closeness("~member(X0,pair_set(X1,X2)) | X0=X1 | X0!=X2", theorem);
        assert_eq!((c.general_literals, c.equal_literals), (2, 2));
        // One substitution for both sides: f(X,X) does not generalise
        // member(a, b) through X = a and X = b.
        let c = closeness("~member(X0,X0)", "~member(a,b)");
        assert_eq!((c.general_literals, c.general_subterms), (0, 0));
        let c = closeness("~member(X0,X1)", "~member(a,b)");
        assert_eq!((c.general_literals, c.equal_literals), (1, 0));
        assert_eq!((c.shared_symbols, c.foreign_symbols), (1, 0));
    }

    /// The premise/twin pairs of SET selection rows told the premise by
    /// literals and subterms the theorem instantiates: a twin now ties
    /// its clause on every closeness measure.
    #[test]
    fn twins_are_as_close_to_the_theorem_as_their_clause() {
        let theorem = "pair_set(X0,X1)=empty_set | separator(pair_set(X0,X1),empty_set)=X0 | separator(pair_set(X0,X1),empty_set)=X1";
        for clause in [
            "~member(X0,pair_set(X1,X2)) | X0=X1 | X0=X2",
            "X0=empty_set | member(separator(X0,empty_set),X0)",
        ] {
            let want = closeness(clause, theorem);
            let taken: HashSet<String> = [canon(clause)].into_iter().collect();
            let mut found = 0;
            for seed in 0..30 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                for edits in 1..=2 {
                    if let Some(t) = twin(clause, theorem, &taken, edits, &mut rng) {
                        assert_eq!(closeness(&t, theorem), want, "{t} vs {clause}");
                        found += 1;
                    }
                }
            }
            assert!(found >= 10, "{clause}: only {found} twins");
        }
    }

    #[test]
    fn twins_never_are_tautologies_or_add_foreign_symbols() {
        // `r` is foreign to the theorem. Replacing it by `q` would drop the
        // foreign symbol, and replacing `p` by `r` (or `r` by `p`) would give
        // a tautology; `q(X0) | ~r(X0)` and `~p(X0) | ~r(X0)` no longer have
        // a literal the theorem instantiates (`p(X0)` has): only negating
        // `~r(X0)` remains.
        let theorem = "p(a) | ~q(a)";
        let clause = "p(X0) | ~r(X0)";
        let taken: HashSet<String> = [canon(clause)].into_iter().collect();
        let allowed: HashSet<String> = ["p(X0) | r(X0)"].iter().map(|t| canon(t)).collect();
        let mut seen = HashSet::new();
        for seed in 0..60 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            if let Some(t) = twin(clause, theorem, &taken, 1, &mut rng) {
                assert!(allowed.contains(&canon(&t)), "{t}");
                seen.insert(canon(&t));
            }
        }
        assert_eq!(seen, allowed);
        // A unit clause has no literal to negate and nothing of its arity to
        // swap in: no twin.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert_eq!(twin("p(b)", "q(c)", &HashSet::new(), 1, &mut rng), None);
    }
}
