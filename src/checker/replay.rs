//! Refutation replay: every step is re-derived from its parents by its rule
//! (or, for inputs, matched against the problem and the Skolemised negated
//! conjecture), its recorded simplifications are replayed at their recorded
//! positions (search is the fallback for certificates without detail), and
//! the result must be a variant of the recorded clause.

use super::parse::{abbreviate, parse_clause, parse_named, parse_term};
use super::problem::{CheckError, CheckProblem, Checked, err};
use super::rules::{
    drop_trivial_disequations, equality_factoring, equality_resolution, factoring,
    false_distinct_equation, reflections, resolution, rewrites, superposition,
};
use super::terms::{
    Clause, L, Sub, Syms, T, VARIANT_WORK, bind, clause_vars, instantiate, lit_matches, normal,
    replace_at, shift_clause, subsumes, variant, with_side, without,
};
use crate::certificate::{ProofStep, Refutation, SimpUse};
use std::collections::{HashMap, HashSet};

/// Bound on the candidate clauses a simplification replay may produce.
pub(super) const MAX_CANDIDATES: usize = 50_000;

pub(super) fn check_refutation(
    problem: &CheckProblem,
    r: &Refutation,
) -> Result<Checked, CheckError> {
    let mut syms = Syms::default();
    let axioms: Vec<Clause> = problem
        .axioms
        .iter()
        .map(|a| parse_clause(&mut syms, a))
        .collect::<Result<_, _>>()?;
    let conjecture = match &problem.conjecture {
        Some(c) => Some(parse_clause(&mut syms, c)?),
        None => None,
    };
    let original_symbols = syms.names.len() as u32;
    // The negated conjecture inputs are checked together: one injective map
    // from the conjecture's variables to fresh constants must explain all of
    // them (each literal may match in either orientation of an equation, so
    // the choice for one input can depend on the others).
    if let Some(conj) = conjecture.as_ref() {
        let mut negated = Vec::new();
        for step in &r.steps {
            if step.rule == "input" && step.role.as_deref() == Some("negated_conjecture") {
                let c = parse_clause(&mut syms, &step.clause)
                    .map_err(|e| e.context(format!("step {}", step.id)))?;
                negated.push((step.id, c));
            }
        }
        let mut skolem: HashMap<u32, T> = HashMap::new();
        if let Err(at) = check_negated(conj, &negated, 0, &mut skolem, original_symbols) {
            return err(format!(
                "step {}: not the Skolemised complement of a conjecture literal (with fresh, distinct constants)",
                negated[at].0
            ));
        }
    }
    let mut clauses: HashMap<u32, Clause> = HashMap::new();
    let mut names: HashMap<u32, Vec<String>> = HashMap::new();
    let Some(last) = r.steps.last() else {
        return err("empty refutation");
    };
    for step in &r.steps {
        let (c, vars) = parse_named(&mut syms, &step.clause)
            .map_err(|e| e.context(format!("step {}", step.id)))?;
        if clauses.contains_key(&step.id) {
            return err(format!("step {} appears twice", step.id));
        }
        let get = |id: u32| {
            clauses.get(&id).ok_or_else(|| {
                CheckError::refused(format!("step {}: unknown or later premise {id}", step.id))
            })
        };
        let ok = match step.rule.as_str() {
            "input" => {
                if let (Some("negated_conjecture"), Some(_)) =
                    (step.role.as_deref(), conjecture.as_ref())
                {
                    // Checked jointly above.
                    true
                } else {
                    any_variant(axioms.iter(), &c)?
                }
            }
            rule => {
                let parents: Vec<&Clause> = step
                    .parents
                    .iter()
                    .map(|&p| get(p))
                    .collect::<Result<_, _>>()?;
                let units: Vec<Option<&Clause>> = step
                    .simps
                    .iter()
                    .map(|s| s.unit.map(get).transpose())
                    .collect::<Result<_, _>>()?;
                match &step.raw {
                    Some(raw) => {
                        let named: Vec<Option<Named<'_>>> = step
                            .simps
                            .iter()
                            .zip(&units)
                            .map(|(s, u)| {
                                let n = s.unit.and_then(|id| names.get(&id));
                                u.zip(n).map(|(u, n)| (u, n.as_slice()))
                            })
                            .collect();
                        replay(&mut syms, rule, &parents, step, &named, raw, &c)
                            .map_err(|e| e.context(format!("step {}", step.id)))?;
                        true
                    }
                    None => rederive(&syms, rule, &parents, step, &units, &c)
                        .map_err(|e| e.context(format!("step {}", step.id)))?,
                }
            }
        };
        if !ok {
            return err(format!(
                "step {} ({}): `{}` is not a conclusion of its rule and premises",
                step.id,
                step.rule,
                abbreviate(&step.clause)
            ));
        }
        clauses.insert(step.id, c);
        names.insert(step.id, vars);
    }
    if !clauses[&last.id].is_empty() {
        return err(format!(
            "the last step `{}` is not the empty clause",
            last.clause
        ));
    }
    Ok(Checked::Refutation {
        steps: r.steps.len(),
    })
}

/// A negated-conjecture input must be the complement of a conjecture
/// literal under one substitution of fresh, pairwise distinct constants
/// (symbols that occur in no premise and not in the conjecture).
/// Backtracking search for one injective Skolem map explaining the negated
/// conjecture inputs `negated[k..]`; on failure, the index of the input
/// that could not be explained.
pub(super) fn check_negated(
    conj: &Clause,
    negated: &[(u32, Clause)],
    k: usize,
    skolem: &mut HashMap<u32, T>,
    original_symbols: u32,
) -> Result<(), usize> {
    let Some((_, c)) = negated.get(k) else {
        return Ok(());
    };
    let [l] = c.as_slice() else {
        return Err(k);
    };
    let mut deepest = k;
    for cand in conj {
        let complement = L {
            pos: !cand.pos,
            ..cand.clone()
        };
        let mut m: Sub = Vec::new();
        for (&v, t) in skolem.iter() {
            bind(&mut m, v, t.clone());
        }
        for found in lit_matches(&complement, l, &m) {
            let mut fresh = true;
            let mut images: Vec<&T> = Vec::new();
            for t in found.iter().flatten() {
                match t {
                    T::F(f, args) if args.is_empty() && *f >= original_symbols => {
                        if images.contains(&t) {
                            fresh = false;
                        }
                        images.push(t);
                    }
                    _ => fresh = false,
                }
            }
            if !fresh {
                continue;
            }
            let saved = skolem.clone();
            for (v, t) in found.iter().enumerate() {
                if let Some(t) = t {
                    skolem.insert(v as u32, t.clone());
                }
            }
            match check_negated(conj, negated, k + 1, skolem, original_symbols) {
                Ok(()) => return Ok(()),
                Err(at) => deepest = deepest.max(at),
            }
            *skolem = saved;
        }
    }
    Err(deepest)
}

/// Every conclusion of `rule` applied to `parents` (before simplification),
/// deduplicated. Polynomial in the parents' size.
pub(super) fn conclusions(rule: &str, parents: &[&Clause]) -> Result<Vec<Clause>, CheckError> {
    let mut cands: Vec<Clause> = Vec::new();
    match (rule, parents) {
        ("resolution", [p, q]) | ("superposition", [p, q]) => {
            let p = (*p).clone();
            let q = shift_clause(q, clause_vars(&p));
            if rule == "resolution" {
                resolution(&p, &q, &mut cands);
                resolution(&q, &p, &mut cands);
            } else {
                superposition(&p, &q, &mut cands);
                superposition(&q, &p, &mut cands);
            }
        }
        ("factoring", [p]) | ("equality_factoring", [p]) => {
            factoring(p, &mut cands);
            equality_factoring(p, &mut cands);
        }
        ("equality_resolution", [p]) => equality_resolution(p, &mut cands),
        ("simplification", [p]) => cands.push(normal((*p).clone())),
        _ => {
            return err(format!(
                "rule `{rule}` with {} premises is not a known inference",
                parents.len()
            ));
        }
    }
    let mut seen: HashSet<Clause> = HashSet::new();
    cands.retain(|c| seen.insert(c.clone()));
    Ok(cands)
}

/// Re-derives a step without simplification detail: every conclusion of the
/// rule, then every way of applying each recorded simplification (bounded
/// by [`MAX_CANDIDATES`]).
pub(super) fn rederive(
    syms: &Syms,
    rule: &str,
    parents: &[&Clause],
    step: &ProofStep,
    units: &[Option<&Clause>],
    target: &Clause,
) -> Result<bool, CheckError> {
    let mut cands = conclusions(rule, parents)?;
    for (s, unit) in step.simps.iter().zip(units) {
        let mut next: Vec<Clause> = Vec::new();
        for c in &cands {
            let before = next.len();
            match (s.kind.as_str(), unit) {
                ("rewrite", Some(u)) => rewrites(u, c, &mut next),
                ("simplify_reflect", Some(u)) => reflections(u, c, &mut next),
                ("subsumption_resolution", Some(d)) => {
                    for j in 0..c.len() {
                        if cuts(d, c, j)? {
                            next.push(normal(without(c, &[j])));
                        }
                    }
                }
                ("trivial_disequation", None) => {
                    next.push(normal(drop_trivial_disequations(syms, c)))
                }
                ("distinct_values", None) => {
                    for (j, l) in c.iter().enumerate() {
                        if false_distinct_equation(syms, l) {
                            next.push(normal(without(c, &[j])));
                        }
                    }
                }
                (k, _) => return err(format!("unknown simplification `{k}`")),
            }
            // The search simplifies before merging duplicate literals, so a
            // step can act on a copy the checker has already merged: the
            // candidate itself stays (the identity is trivially sound).
            if next.len() == before {
                next.push(c.clone());
            }
        }
        let mut seen: HashSet<Clause> = HashSet::new();
        next.retain(|c| seen.insert(c.clone()));
        if next.len() > MAX_CANDIDATES {
            return err(format!(
                "more than {MAX_CANDIDATES} candidate clauses while replaying simplifications"
            ));
        }
        cands = next;
    }
    any_variant(cands.iter(), target)
}

/// A premise of a detailed step: its clause and variable names.
pub(super) type Named<'a> = (&'a Clause, &'a [String]);

/// Checks a step that carries its raw conclusion and located
/// simplifications: the raw conclusion must be a conclusion of the rule;
/// each simplification is then replayed at the position it names, in time
/// linear in the clause; the result must be the step's clause (up to
/// variable renaming and duplicate literals).
pub(super) fn replay(
    syms: &mut Syms,
    rule: &str,
    parents: &[&Clause],
    step: &ProofStep,
    units: &[Option<Named<'_>>],
    raw: &str,
    target: &Clause,
) -> Result<(), CheckError> {
    let (mut cur, mut vars) = parse_named(syms, raw)?;
    if !any_variant(conclusions(rule, parents)?.iter(), &cur)? {
        return err(format!(
            "the raw conclusion `{}` is not a conclusion of {rule} from its premises",
            abbreviate(raw)
        ));
    }
    for (k, (s, unit)) in step.simps.iter().zip(units).enumerate() {
        let at = |msg: String| {
            CheckError::refused(format!("simplification {} ({}): {msg}", k + 1, s.kind))
        };
        match s.kind.as_str() {
            "rewrite" => {
                let (u, unames) = unit.ok_or_else(|| at("no unit clause".into()))?;
                apply_rewrite(syms, &mut cur, &mut vars, s, u, unames)
                    .map_err(|e| at(e.message))?;
            }
            "simplify_reflect" => {
                let (u, _) = unit.ok_or_else(|| at("no unit clause".into()))?;
                let lit = s.lit.ok_or_else(|| at("no literal index".into()))? as usize;
                let l = cur
                    .get(lit)
                    .ok_or_else(|| at(format!("no literal {lit}")))?;
                if !refutes(u, l) {
                    return Err(at(format!(
                        "literal {lit} is not the complement of an instance of the unit"
                    )));
                }
                cur.remove(lit);
            }
            "subsumption_resolution" => {
                let (d, _) = unit.ok_or_else(|| at("no cutting clause".into()))?;
                let lit = s.lit.ok_or_else(|| at("no literal index".into()))? as usize;
                if lit >= cur.len() {
                    return Err(at(format!("no literal {lit}")));
                }
                if !cuts(d, &cur, lit).map_err(|e| at(e.message))? {
                    return Err(at(format!(
                        "the clause does not subsume the step's clause with literal {lit} complemented"
                    )));
                }
                cur.remove(lit);
            }
            "trivial_disequation" => cur = drop_trivial_disequations(syms, &cur),
            "distinct_values" => {
                let lit = s.lit.ok_or_else(|| at("no literal index".into()))? as usize;
                let l = cur
                    .get(lit)
                    .ok_or_else(|| at(format!("no literal {lit}")))?;
                if !false_distinct_equation(syms, l) {
                    return Err(at(format!(
                        "literal {lit} is not an equation between different distinct values"
                    )));
                }
                cur.remove(lit);
            }
            kind => return Err(at(format!("unknown simplification `{kind}`"))),
        }
    }
    if !variant(&cur, target)? {
        return err(format!(
            "the simplifications turn the raw conclusion into `{}`, not the step's clause",
            abbreviate(&show(syms, &vars, &cur))
        ));
    }
    Ok(())
}

/// Replays one located rewrite on `cur`: the unit's matched side under the
/// substitution must be the subterm at the position, which is replaced by
/// the other side under the same substitution (all its variables bound).
pub(super) fn apply_rewrite(
    syms: &mut Syms,
    cur: &mut Clause,
    vars: &mut Vec<String>,
    s: &SimpUse,
    unit: &Clause,
    unames: &[String],
) -> Result<(), CheckError> {
    let [eq] = unit.as_slice() else {
        return err("the unit is not a unit clause");
    };
    let (true, Some(eq_b)) = (eq.pos, &eq.b) else {
        return err("the unit is not a positive equation");
    };
    let (Some(lit), Some(right), Some(path), Some(side), Some(subst)) =
        (s.lit, s.right, &s.path, s.unit_side, &s.subst)
    else {
        return err("position, orientation or substitution missing");
    };
    let (l, r) = match side {
        0 => (&eq.a, eq_b),
        1 => (eq_b, &eq.a),
        _ => return err(format!("unit side {side} is neither 0 nor 1")),
    };
    let mut m = Sub::new();
    for (name, text) in subst {
        let v = unames
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| CheckError::refused(format!("the unit has no variable {name}")))?;
        let t = parse_term(syms, text, vars).map_err(|e| CheckError::refused(e.message))?;
        bind(&mut m, v as u32, t);
    }
    let target = cur
        .get(lit as usize)
        .ok_or_else(|| CheckError::refused(format!("no literal {lit}")))?;
    let whole = match (right, &target.b) {
        (false, _) => &target.a,
        (true, Some(b)) => b,
        (true, None) => return err(format!("literal {lit} has no right side")),
    };
    if path.is_empty() && target.b.is_none() {
        return err("a rewrite at the root of an atom");
    }
    let path: Vec<usize> = path.iter().map(|&i| i as usize).collect();
    let redex = checked_at(whole, &path).ok_or_else(|| {
        CheckError::refused(format!(
            "literal {lit} has no subterm at {path:?} (side {})",
            right as u8
        ))
    })?;
    let lhs = instantiate(l, &m).ok_or_else(|| {
        CheckError::refused("a variable of the matched side is not bound by the substitution")
    })?;
    if lhs != *redex {
        return err(format!(
            "the unit's side {side} under the substitution is not the subterm at {path:?} of literal {lit}"
        ));
    }
    let rhs = instantiate(r, &m).ok_or_else(|| {
        CheckError::refused("a variable of the replacing side is not bound by the substitution")
    })?;
    let new_side = replace_at(whole, &path, &rhs);
    cur[lit as usize] = with_side(&cur[lit as usize], right, new_side);
    Ok(())
}

/// The subterm at `path`, if the path exists.
pub(super) fn checked_at<'a>(mut t: &'a T, path: &[usize]) -> Option<&'a T> {
    for &i in path {
        match t {
            T::F(_, args) => t = args.get(i)?,
            T::V(_) => return None,
        }
    }
    Some(t)
}

/// True if `l` is the complement of an instance of the unit clause `unit`.
/// Subsumption resolution: true if `d` subsumes `c` with its literal `j`
/// complemented (then `d` and `c` resolve to `c` without literal `j`).
pub(super) fn cuts(d: &Clause, c: &Clause, j: usize) -> Result<bool, CheckError> {
    let mut flipped = c.clone();
    flipped[j].pos = !flipped[j].pos;
    let mut budget = VARIANT_WORK;
    subsumes(d, &flipped, &Sub::new(), &mut budget).map_err(|()| {
        CheckError::exhausted(format!(
            "a subsumption test of a {}-literal clause ran out of its work budget ({VARIANT_WORK} literal matches)",
            d.len()
        ))
    })
}

pub(super) fn refutes(unit: &Clause, l: &L) -> bool {
    let mut out = Vec::new();
    reflections(unit, &vec![l.clone()], &mut out);
    !out.is_empty()
}

/// A clause as text (for error messages).
pub(super) fn show(syms: &Syms, vars: &[String], c: &Clause) -> String {
    fn term(syms: &Syms, vars: &[String], t: &T, out: &mut String) {
        match t {
            T::V(i) => match vars.get(*i as usize) {
                Some(n) => out.push_str(n),
                None => out.push_str(&format!("_{i}")),
            },
            T::F(f, args) => {
                out.push_str(&syms.names[*f as usize].0);
                if !args.is_empty() {
                    out.push('(');
                    for (k, a) in args.iter().enumerate() {
                        if k > 0 {
                            out.push(',');
                        }
                        term(syms, vars, a, out);
                    }
                    out.push(')');
                }
            }
        }
    }
    if c.is_empty() {
        return "$false".into();
    }
    let mut out = String::new();
    for (k, l) in c.iter().enumerate() {
        if k > 0 {
            out.push_str(" | ");
        }
        if l.b.is_none() && !l.pos {
            out.push('~');
        }
        term(syms, vars, &l.a, &mut out);
        if let Some(b) = &l.b {
            out.push_str(if l.pos { " = " } else { " != " });
            term(syms, vars, b, &mut out);
        }
    }
    out
}

/// Whether some clause of `cands` is a variant of `target`.
fn any_variant<'a>(
    cands: impl IntoIterator<Item = &'a Clause>,
    target: &Clause,
) -> Result<bool, CheckError> {
    for c in cands {
        if variant(c, target)? {
            return Ok(true);
        }
    }
    Ok(false)
}
