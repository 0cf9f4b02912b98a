//! The parallel rewrite-step checker (spec `pl_eq.md` §5.2): decides
//! s ⟹_E t (one redex per cited equation, pairwise disjoint positions, all
//! contracted at once) and returns the witness of every redex; plus the
//! exact search for *some* licensing set, used for minimality, for the
//! `correctEquations` of a citation error and for "no equation licenses this
//! step" answers.
//!
//! Algorithm: for each cited equation, the candidate redexes are the
//! positions p where s|p matches L with θ and t|p exists and matches R
//! extending θ (so equations whose right side has variables of its own, as in
//! a reversed collapse, are handled). The difference frontier of s and t is
//! the set of minimal positions where they differ. A choice of one candidate
//! per equation, pairwise disjoint, with every frontier position at or below a
//! chosen position, rewrites s into exactly t: above the chosen positions s
//! and t agree (a frontier position there would be above a chosen one, and the
//! position covering it would not be disjoint), and at each chosen p the
//! replacement is t|p. Identity rewrites (redex = contractum) cover no
//! frontier position and are legal.

use super::lang::{Equation, Pos, World, disjoint};
use crate::logic::{Matcher, TermId};

/// How one redex of a step was rewritten.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// Index of the equation in the instance's equation list.
    pub eq: usize,
    /// Position of the redex (0-based).
    pub pos: Pos,
    /// The redex s|p.
    pub redex: TermId,
    /// The matching substitution, variable index → term, in order of first
    /// occurrence in L, then R.
    pub theta: Vec<(u32, TermId)>,
    /// The contractum θ(R) = t|p.
    pub contractum: TermId,
}

/// Why a step does not hold for the cited equations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// No equation is cited.
    NoCitation,
    /// An equation is cited twice.
    DuplicateCitation(usize),
    /// This equation has no redex in s whose contractum agrees with t.
    NoRedex(usize),
    /// Every equation has candidate redexes, but no disjoint choice of one
    /// per equation turns s into t.
    NoCombination,
}

impl StepError {
    /// A one-line explanation naming equations by their names.
    pub fn describe(&self, eqs: &[Equation]) -> String {
        match self {
            StepError::NoCitation => "no equation is cited".into(),
            StepError::DuplicateCitation(e) => format!("{} is cited twice", eqs[*e].name),
            StepError::NoRedex(e) => format!(
                "{} has no redex whose contractum agrees with the next term",
                eqs[*e].name
            ),
            StepError::NoCombination => {
                "no choice of one redex per cited equation at disjoint positions yields the next term"
                    .into()
            }
        }
    }
}

/// The candidate redexes of equation `e` for the step s → t.
pub fn candidates(w: &World, eqs: &[Equation], e: usize, s: TermId, t: TermId) -> Vec<Witness> {
    let eq = &eqs[e];
    let bank = &w.bank;
    let mut out = Vec::new();
    let mut m = Matcher::new();
    let mut vars = Vec::new();
    w.vars_of(eq.lhs, &mut vars);
    w.vars_of(eq.rhs, &mut vars);
    for p in w.positions(s) {
        let u = w.subterm(s, &p).expect("own position");
        m.clear();
        if !m.matches(bank, eq.lhs, u) {
            continue;
        }
        let Some(v) = w.subterm(t, &p) else { continue };
        if !m.matches(bank, eq.rhs, v) {
            continue;
        }
        let theta = vars
            .iter()
            .filter_map(|&x| m.get(x).map(|b| (x, b)))
            .collect();
        out.push(Witness {
            eq: e,
            pos: p,
            redex: u,
            theta,
            contractum: v,
        });
    }
    out
}

/// The difference frontier: the minimal positions where s and t differ
/// (different head symbols), in pre-order.
pub fn frontier(w: &World, s: TermId, t: TermId) -> Vec<Pos> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    frontier_rec(w, s, t, &mut cur, &mut out);
    out
}

fn frontier_rec(w: &World, s: TermId, t: TermId, cur: &mut Pos, out: &mut Vec<Pos>) {
    if s == t {
        return;
    }
    let b = &w.bank;
    if b.head_code(s) != b.head_code(t) || b.arity(s) != b.arity(t) {
        out.push(cur.clone());
        return;
    }
    for i in 0..b.arity(s) {
        cur.push(i as u32);
        frontier_rec(w, b.arg(s, i), b.arg(t, i), cur, out);
        cur.pop();
    }
}

/// Decides s ⟹_E t for the cited equations (indices into `eqs`) and returns
/// one witness per cited equation, in citation order.
pub fn check_step(
    w: &World,
    eqs: &[Equation],
    s: TermId,
    t: TermId,
    cited: &[usize],
) -> Result<Vec<Witness>, StepError> {
    if cited.is_empty() {
        return Err(StepError::NoCitation);
    }
    for (i, e) in cited.iter().enumerate() {
        if cited[..i].contains(e) {
            return Err(StepError::DuplicateCitation(*e));
        }
    }
    let mut cands = Vec::with_capacity(cited.len());
    for &e in cited {
        let c = candidates(w, eqs, e, s, t);
        if c.is_empty() {
            return Err(StepError::NoRedex(e));
        }
        cands.push(c);
    }
    let front = frontier(w, s, t);
    let mut chosen: Vec<usize> = Vec::with_capacity(cited.len());
    if choose(&cands, &front, &mut chosen) {
        Ok(chosen
            .iter()
            .enumerate()
            .map(|(i, &c)| cands[i][c].clone())
            .collect())
    } else {
        Err(StepError::NoCombination)
    }
}

fn choose(cands: &[Vec<Witness>], front: &[Pos], chosen: &mut Vec<usize>) -> bool {
    let i = chosen.len();
    if i == cands.len() {
        return front.iter().all(|f| {
            chosen
                .iter()
                .enumerate()
                .any(|(k, &c)| f.starts_with(&cands[k][c].pos))
        });
    }
    for (c, cand) in cands[i].iter().enumerate() {
        let ok = chosen
            .iter()
            .enumerate()
            .all(|(k, &d)| disjoint(&cands[k][d].pos, &cand.pos));
        if !ok {
            continue;
        }
        chosen.push(c);
        if choose(cands, front, chosen) {
            return true;
        }
        chosen.pop();
    }
    false
}

/// Decides the symmetric closure used by gap filling: s ⟹_E t or t ⟹_E s.
/// Returns the witnesses and whether the step was read backwards (then the
/// witnesses describe the rewrite of t into s).
pub fn check_either(
    w: &World,
    eqs: &[Equation],
    s: TermId,
    t: TermId,
    cited: &[usize],
) -> Result<(Vec<Witness>, bool), StepError> {
    match check_step(w, eqs, s, t, cited) {
        Ok(ws) => Ok((ws, false)),
        Err(e) => match check_step(w, eqs, t, s, cited) {
            Ok(ws) => Ok((ws, true)),
            Err(_) => Err(e),
        },
    }
}

/// Searches for a set E' ⊆ `pool` of at most `max_size` equations with
/// s ⟹_E' t and no identity redex (or, when s = t, a single identity
/// redex). The search is exact: it returns `None` only if no such set
/// exists. Any licensing set minus its identity redexes is one of these, so
/// "no licensing subset of the pool" is certified by `None` with
/// `max_size = pool.len()`.
pub fn find_cover(
    w: &World,
    eqs: &[Equation],
    s: TermId,
    t: TermId,
    pool: &[usize],
    max_size: usize,
) -> Option<Vec<Witness>> {
    if max_size == 0 {
        return None;
    }
    if s == t {
        return pool
            .iter()
            .find_map(|&e| candidates(w, eqs, e, s, t).into_iter().next())
            .map(|c| vec![c]);
    }
    let front = frontier(w, s, t);
    let cands: Vec<Witness> = pool
        .iter()
        .flat_map(|&e| candidates(w, eqs, e, s, t))
        .filter(|c| c.redex != c.contractum)
        .collect();
    let mut chosen = Vec::new();
    cover(&cands, &front, max_size, &mut chosen).then(|| {
        let mut ws: Vec<Witness> = chosen.iter().map(|&c| cands[c].clone()).collect();
        ws.sort_by(|a, b| a.pos.cmp(&b.pos));
        ws
    })
}

fn cover(cands: &[Witness], front: &[Pos], max_size: usize, chosen: &mut Vec<usize>) -> bool {
    let Some(f) = front
        .iter()
        .find(|f| !chosen.iter().any(|&c| f.starts_with(&cands[c].pos)))
    else {
        return true;
    };
    if chosen.len() == max_size {
        return false;
    }
    for (c, cand) in cands.iter().enumerate() {
        if !f.starts_with(&cand.pos) {
            continue;
        }
        let ok = chosen
            .iter()
            .all(|&d| cands[d].eq != cand.eq && disjoint(&cands[d].pos, &cand.pos));
        if !ok {
            continue;
        }
        chosen.push(c);
        if cover(cands, front, max_size, chosen) {
            return true;
        }
        chosen.pop();
    }
    false
}

/// For a step that holds with the cited equations: true if no proper
/// nonempty subset of them licenses it too.
pub fn is_minimal(w: &World, eqs: &[Equation], s: TermId, t: TermId, cited: &[usize]) -> bool {
    if cited.len() <= 1 {
        return true;
    }
    if s == t {
        return false;
    }
    find_cover(w, eqs, s, t, cited, cited.len() - 1).is_none()
}

/// s with every witness's redex replaced by its contractum.
pub fn apply_witnesses(w: &mut World, s: TermId, ws: &[Witness]) -> TermId {
    ws.iter()
        .fold(s, |acc, x| w.bank.replace_at(acc, &x.pos, x.contractum))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(eqs: &[&str]) -> (World, Vec<Equation>) {
        let mut w = World::new();
        let es = eqs
            .iter()
            .enumerate()
            .map(|(i, e)| w.parse_equation(&format!("E{}", i + 1), e).unwrap())
            .collect();
        (w, es)
    }

    #[test]
    fn single_parallel_and_identity_steps() {
        let (mut w, eqs) = world(&["f(X) = g(X,f(X))", "g1(X,Y) = g1(Y,X)", "f4(X) = X"]);
        let s = w.parse_term("h(a,f(b),c)", false).unwrap();
        let t = w.parse_term("h(a,g(b,f(b)),c)", false).unwrap();
        let ws = check_step(&w, &eqs, s, t, &[0]).unwrap();
        assert_eq!(ws[0].pos, vec![1]);
        assert_eq!(w.show(ws[0].contractum), "g(b,f(b))");
        assert_eq!(apply_witnesses(&mut w, s, &ws), t);
        // Identity rewrite: commutativity on g1(b,b), in parallel with E3.
        let s = w.parse_term("g(g1(b,b),f4(a))", false).unwrap();
        let t = w.parse_term("g(g1(b,b),a)", false).unwrap();
        assert!(check_step(&w, &eqs, s, t, &[1, 2]).is_ok());
        assert!(!is_minimal(&w, &eqs, s, t, &[1, 2]));
        assert!(is_minimal(&w, &eqs, s, t, &[2]));
        assert_eq!(check_step(&w, &eqs, s, t, &[0]), Err(StepError::NoRedex(0)));
        assert_eq!(
            check_step(&w, &eqs, s, t, &[2, 2]),
            Err(StepError::DuplicateCitation(2))
        );
        assert_eq!(check_step(&w, &eqs, s, t, &[]), Err(StepError::NoCitation));
    }

    #[test]
    fn one_redex_per_equation() {
        let (w, eqs) = world(&["f4(X) = X"]);
        let mut w = w;
        let s = w.parse_term("g(f4(a),f4(b))", false).unwrap();
        let t = w.parse_term("g(a,b)", false).unwrap();
        // Two redexes need the equation twice: not one step.
        assert_eq!(
            check_step(&w, &eqs, s, t, &[0]),
            Err(StepError::NoCombination)
        );
        assert!(find_cover(&w, &eqs, s, t, &[0], 1).is_none());
    }

    #[test]
    fn nonlinear_patterns_need_equal_subterms() {
        let (mut w, eqs) = world(&["h(V,V2,V) = g2(V,V2)"]);
        let s = w.parse_term("h(a,c,a)", false).unwrap();
        let t = w.parse_term("g2(a,c)", false).unwrap();
        assert!(check_step(&w, &eqs, s, t, &[0]).is_ok());
        let s = w.parse_term("h(a,c,b)", false).unwrap();
        assert!(check_step(&w, &eqs, s, t, &[0]).is_err());
    }

    #[test]
    fn right_side_variables_are_bound_from_the_next_term() {
        // Reversed collapse: f3(X) = g4(X,Y) has Y only on the right.
        let (mut w, eqs) = world(&["f3(X) = g4(X,Y)"]);
        let s = w.parse_term("g(f3(a),b)", false).unwrap();
        let t = w.parse_term("g(g4(a,f(c)),b)", false).unwrap();
        let ws = check_step(&w, &eqs, s, t, &[0]).unwrap();
        assert_eq!(ws[0].theta.len(), 2);
        // And the symmetric closure reads it backwards.
        let (_, back) = check_either(&w, &eqs, t, s, &[0]).unwrap();
        assert!(back);
    }

    #[test]
    fn cover_search_finds_alternative_sets() {
        let (mut w, eqs) = world(&["f(X) = f1(X)", "f(a) = f1(a)", "g(X,Y) = g(Y,X)"]);
        let s = w.parse_term("g(f(a),b)", false).unwrap();
        let t = w.parse_term("g(f1(a),b)", false).unwrap();
        let c = find_cover(&w, &eqs, s, t, &[0, 1, 2], 3).unwrap();
        assert_eq!(c.len(), 1);
        assert!(find_cover(&w, &eqs, s, t, &[2], 1).is_none());
    }
}
