//! A whole problem's clausification (part of `clausify.rs`, Nonnengart and
//! Weidenbach's scheme): CNF clauses as read, FOF formulas clausified in
//! reading order with their provenance lines, the FOF conjectures joined
//! (variables put apart) and negated as one formula.

use super::*;

/// Renumbers the variables of `f` by adding `offset` (to put several
/// formulas' variables apart before joining them).
fn shift(bank: &mut TermBank, f: Formula, offset: u32) -> Formula {
    if offset == 0 {
        return f;
    }
    let sh = |bank: &mut TermBank, t: TermId| {
        let bound = bank.var_bound(t);
        let map: Vec<u32> = (0..bound).map(|v| v + offset).collect();
        rename(bank, t, &map)
    };
    let shv = |vs: Vec<u32>| vs.into_iter().map(|v| v + offset).collect();
    match f {
        Formula::Lit(l) => {
            let (lhs, rhs) = (sh(bank, l.lhs), sh(bank, l.rhs));
            Formula::Lit(Literal::eq(lhs, rhs, l.pos))
        }
        Formula::Not(g) => shift(bank, *g, offset).negated(),
        Formula::And(fs) => Formula::And(fs.into_iter().map(|g| shift(bank, g, offset)).collect()),
        Formula::Or(fs) => Formula::Or(fs.into_iter().map(|g| shift(bank, g, offset)).collect()),
        Formula::Imp(a, b) => Formula::Imp(
            Box::new(shift(bank, *a, offset)),
            Box::new(shift(bank, *b, offset)),
        ),
        Formula::Iff(a, b) => Formula::Iff(
            Box::new(shift(bank, *a, offset)),
            Box::new(shift(bank, *b, offset)),
        ),
        Formula::Forall(vs, g) => Formula::Forall(shv(vs), Box::new(shift(bank, *g, offset))),
        Formula::Exists(vs, g) => Formula::Exists(shv(vs), Box::new(shift(bank, *g, offset))),
        f => f,
    }
}

/// Moves the entries of a whole problem into `p`: CNF clauses as read, FOF
/// formulas clausified in reading order. The FOF conjectures are joined
/// and negated as one formula, clausified where the first one was read;
/// their names go to [`Problem::fof_conjectures`].
pub(crate) fn clausify_entries(bank: &mut TermBank, entries: Vec<Entry>, p: &mut Problem) {
    let mut c = Clausifier::new(bank);
    let conjectures: Vec<&FofInput> = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Fof(f) if f.role == Role::Conjecture => Some(f),
            _ => None,
        })
        .collect();
    let joined = if conjectures.is_empty() {
        None
    } else {
        let mut names = Vec::new();
        let mut parts = Vec::new();
        let mut var_names: Vec<String> = Vec::new();
        for f in &conjectures {
            let offset = var_names.len() as u32;
            parts.push(shift(bank, f.formula.clone(), offset));
            var_names.extend(f.var_names.iter().cloned());
            names.push(f.name.clone());
        }
        let body = if parts.len() == 1 {
            parts.pop().unwrap_or(Formula::True)
        } else {
            Formula::And(parts)
        };
        p.fof_conjectures = names;
        Some((body.negated(), var_names))
    };
    let mut joined = joined;
    let leaf = |f: &FofInput| {
        format!(
            "file({}, {})",
            path_to_tptp(&f.source.file.display().to_string()),
            name_to_tptp(&f.name)
        )
    };
    let conjecture_leaves: Vec<(Formula, String)> = conjectures
        .iter()
        .map(|f| (f.formula.clone(), leaf(f)))
        .collect();
    for e in entries {
        match e {
            Entry::Clause { clause, tautology } => {
                if tautology {
                    p.tautologies.push(clause);
                } else {
                    p.clauses.push(clause);
                }
            }
            Entry::Fof(f) => {
                let (formula, names, role, from) = if f.role == Role::Conjecture {
                    let Some((g, n)) = joined.take() else {
                        continue;
                    };
                    let leaves: Vec<String> = conjecture_leaves
                        .iter()
                        .map(|(h, src)| c.line(bank, Role::Conjecture, h, src.clone(), vec![]))
                        .collect();
                    let src = inference("assume_negation", "cth", &leaves);
                    let from = c.line(bank, Role::NegatedConjecture, &g, src, leaves);
                    (g, n, Role::NegatedConjecture, from)
                } else {
                    let from = c.line(bank, f.role, &f.formula, leaf(&f), vec![]);
                    (f.formula, f.var_names, f.role, from)
                };
                let chain = if role == Role::NegatedConjecture {
                    Role::NegatedConjecture
                } else {
                    Role::Plain
                };
                let annotations = Some(format!(
                    "inference(clausify,[status(esa)],[{}])",
                    name_to_tptp(&f.name)
                ));
                let text = c
                    .lines
                    .iter()
                    .find(|l| l.name == from)
                    .map(|l| l.formula.clone())
                    .unwrap_or_default();
                for (lits, var_names, mut src) in c.clausify(bank, formula, &names, &from, chain) {
                    src.formula = text.clone();
                    p.clauses.push(ParsedClause {
                        name: f.name.clone(),
                        role,
                        lits,
                        source: f.source.clone(),
                        var_names,
                        annotations: annotations.clone(),
                        clausified: Some(src),
                    });
                }
            }
        }
    }
    p.clausify = c.stats;
    p.fof_lines = c.lines;
}
