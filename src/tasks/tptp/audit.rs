//! Shortcut-audit items of the TPTP families ([`crate::tasks::audit`]):
//! an entailment row is one item (True/False); a selection row gives one
//! item per pool clause (gold/distractor); a reconstruction row, whose
//! prompt names the starting premises, one item per (derived clause, other
//! clause) pair (parent/other), and fixed shallow readers' whole graphs
//! ([`readers`]), by which its cells are judged. Features are
//! what a reader sees without reasoning: sizes, verbatim (up to variable
//! names) membership in the background list, symbol overlap with the
//! conclusion, positions.

use super::{Family, str_field, str_list};
use crate::tasks::TaskError;
use crate::tasks::audit::{
    AuditItem, ReaderAnswer, jaccard, literals, max, mean, nesting, normalize_variables, symbols,
    upper_identifiers,
};
use std::collections::BTreeSet;

/// The audit items of a row of TPTP family `f`.
pub fn items(
    f: Family,
    meta: &serde_json::Value,
    answer: &str,
) -> Result<Vec<AuditItem>, TaskError> {
    let rec = TaskError::Record;
    let background: BTreeSet<String> = str_list(meta, "context_axioms")
        .map_err(rec)?
        .iter()
        .map(|c| normalize_variables(c))
        .collect();
    let theorem = str_field(meta, "theorem").map_err(TaskError::Record)?;
    match f {
        Family::Entailment => {
            let premises = str_list(meta, "premises").map_err(TaskError::Record)?;
            Ok(vec![entailment_item(
                answer.trim(),
                &premises,
                &theorem,
                &background,
            )])
        }
        Family::Selection => {
            let pool = str_list(meta, "pool").map_err(TaskError::Record)?;
            let gold = super::select::parse_answer(answer, pool.len())
                .map_err(|e| TaskError::Record(format!("gold answer: {e}")))?;
            Ok(pool
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let label = if gold.contains(&(i + 1)) {
                        "gold"
                    } else {
                        "distractor"
                    };
                    clause_item(label, c, i, &pool, &theorem, &background)
                        .with_text("clause", c.clone())
                })
                .collect())
        }
        Family::Reconstruction => {
            let clauses = str_list(meta, "clauses").map_err(TaskError::Record)?;
            let leaves = super::recon::premise_indices(meta).map_err(TaskError::Record)?;
            let steps = super::recon::parse_steps(answer)
                .map_err(|e| TaskError::Record(format!("gold answer: {e}")))?;
            Ok(edge_items(&clauses, &leaves, &steps))
        }
        // A chain the prover checks step by step: no class to predict.
        Family::Derivation => Ok(Vec::new()),
    }
}

/// The shallow readers' whole answers to a reconstruction row
/// ([`ReaderAnswer`]); `None` for the other families.
pub fn readers(
    f: Family,
    meta: &serde_json::Value,
    answer: &str,
) -> Option<Result<Vec<ReaderAnswer>, TaskError>> {
    if f != Family::Reconstruction {
        return None;
    }
    let read = || {
        let clauses = str_list(meta, "clauses").map_err(TaskError::Record)?;
        let leaves = super::recon::premise_indices(meta).map_err(TaskError::Record)?;
        let steps = super::recon::parse_steps(answer)
            .map_err(|e| TaskError::Record(format!("gold answer: {e}")))?;
        Ok(recon_readers(&clauses, &leaves, &steps))
    };
    Some(read())
}

/// Two fixed readers of a reconstruction prompt, each answering every
/// derived clause with the two clauses that look most like its parents:
/// most literals shared with it (up to variable names), then fewest
/// symbols it lacks, then the shorter, then the lower number. `overlap`
/// takes parents among the clauses printed before the child in length
/// order only (shorter, or as long and numbered lower), which keeps its
/// graph acyclic; `overlap_any` among all other clauses. A part is right
/// when the two parents are the gold ones.
fn recon_readers(
    clauses: &[String],
    leaves: &[usize],
    steps: &[(usize, [usize; 2])],
) -> Vec<ReaderAnswer> {
    let n = clauses.len();
    let overlap = Overlap::new(clauses);
    let guess = |child: usize, shorter_only: bool| overlap.parents(child, shorter_only);
    let derived: Vec<&(usize, [usize; 2])> = steps
        .iter()
        .filter(|(c, _)| !leaves.contains(c) && (1..=n).contains(c))
        .collect();
    [("overlap", true), ("overlap_any", false)]
        .into_iter()
        .map(|(reader, shorter_only)| {
            let right = if n < 3 {
                0
            } else {
                derived
                    .iter()
                    .filter(|(c, ps)| {
                        let mut gold = *ps;
                        gold.sort_unstable();
                        guess(*c, shorter_only) == gold
                    })
                    .count()
            };
            ReaderAnswer {
                reader,
                parts: derived.len(),
                right,
            }
        })
        .collect()
}

/// What the overlap readers know of a reconstruction row's clauses: each
/// clause's literals (up to variable names) and symbols.
pub(super) struct Overlap<'a> {
    clauses: &'a [String],
    lits: Vec<BTreeSet<String>>,
    syms: Vec<BTreeSet<&'a str>>,
}

impl<'a> Overlap<'a> {
    /// The readers' view of `clauses`.
    pub(super) fn new(clauses: &'a [String]) -> Overlap<'a> {
        Overlap {
            clauses,
            lits: literal_sets(clauses),
            syms: clauses.iter().map(|c| symbols(c)).collect(),
        }
    }

    /// The two clauses (numbers from 1, sorted) that look most like the
    /// parents of clause `child`: most literals shared with it, then fewest
    /// symbols it lacks, then the shorter, then the lower number; with
    /// `shorter_only` among the clauses before it in length order only
    /// (all others when fewer than two are).
    pub(super) fn parents(&self, child: usize, shorter_only: bool) -> [usize; 2] {
        let n = self.clauses.len();
        let size = |i: usize| (self.clauses[i - 1].len(), i);
        let mut cands: Vec<usize> = (1..=n)
            .filter(|&p| p != child && (!shorter_only || size(p) < size(child)))
            .collect();
        if cands.len() < 2 {
            cands = (1..=n).filter(|&p| p != child).collect();
        }
        if cands.is_empty() {
            return [child, child];
        }
        cands.sort_by_key(|&p| {
            let shared = self.lits[p - 1].intersection(&self.lits[child - 1]).count();
            let missing = self.syms[p - 1].difference(&self.syms[child - 1]).count();
            (std::cmp::Reverse(shared), missing, size(p))
        });
        let mut pair = [cands[0], cands.get(1).copied().unwrap_or(cands[0])];
        pair.sort_unstable();
        pair
    }
}

/// Each clause's literals, up to variable names.
fn literal_sets(clauses: &[String]) -> Vec<BTreeSet<String>> {
    clauses
        .iter()
        .map(|c| literals(c).into_iter().map(normalize_variables).collect())
        .collect()
}

/// The items of a reconstruction row: the prompt names the starting
/// premises, so what is asked is which two clauses each derived clause
/// comes from. Per derived clause, one item for each parent and for two
/// other clauses (balanced classes), labelled `parent` or `other`, with
/// what a reader sees of the pair: symbol and literal overlap, sizes,
/// whether the candidate is a starting premise.
fn edge_items(
    clauses: &[String],
    leaves: &[usize],
    steps: &[(usize, [usize; 2])],
) -> Vec<AuditItem> {
    let n = clauses.len();
    let lits = literal_sets(clauses);
    let mut out = Vec::new();
    for &(child, parents) in steps {
        let c = &clauses[child - 1];
        let csyms = symbols(c);
        // Both parents and as many other clauses, the next ones after the
        // child in the (random) numbering, so the classes are balanced and
        // the majority baseline is a coin.
        let others = (1..n)
            .map(|j| (child - 1 + j) % n + 1)
            .filter(|p| !parents.contains(p))
            .take(2);
        for p in parents.into_iter().chain(others) {
            let label = if parents.contains(&p) {
                "parent"
            } else {
                "other"
            };
            let text = &clauses[p - 1];
            let psyms = symbols(text);
            let shared = lits[p - 1].intersection(&lits[child - 1]).count() as f64;
            out.push(
                AuditItem::new(label)
                    .with("symbol_jaccard", jaccard(&csyms, &psyms))
                    .with(
                        "symbols_not_in_child",
                        psyms.difference(&csyms).count() as f64,
                    )
                    .with("shared_literals", shared)
                    .with("shared_share", shared / lits[p - 1].len().max(1) as f64)
                    .with("chars_ratio", text.len() as f64 / c.len().max(1) as f64)
                    .with("literals", lits[p - 1].len() as f64)
                    .with(
                        "literal_difference",
                        lits[child - 1].len() as f64 - lits[p - 1].len() as f64,
                    )
                    .with("nesting", nesting(text) as f64)
                    .with("variables", upper_identifiers(text).len() as f64)
                    .with("is_premise", f64::from(u8::from(leaves.contains(&p))))
                    .with("clauses", n as f64),
            );
        }
    }
    out
}

/// The item of an entailment row.
fn entailment_item(
    label: &str,
    premises: &[String],
    conclusion: &str,
    background: &BTreeSet<String>,
) -> AuditItem {
    let in_bg = premises
        .iter()
        .filter(|p| background.contains(&normalize_variables(p)))
        .count() as f64;
    let n = premises.len() as f64;
    let concl_syms = symbols(conclusion);
    let prem_syms: BTreeSet<&str> = premises.iter().flat_map(|p| symbols(p)).collect();
    let concl_lits: Vec<String> = literals(conclusion)
        .into_iter()
        .map(normalize_variables)
        .collect();
    let prem_lits: BTreeSet<String> = premises
        .iter()
        .flat_map(|p| literals(p).into_iter().map(normalize_variables))
        .collect();
    let shared_lits = concl_lits.iter().filter(|l| prem_lits.contains(*l)).count() as f64;
    AuditItem::new(label)
        .with("premises", n)
        .with("premises_in_background", in_bg)
        .with("share_in_background", if n > 0.0 { in_bg / n } else { 0.0 })
        .with(
            "premise_chars_mean",
            mean(premises.iter().map(|p| p.len() as f64)),
        )
        .with(
            "premise_chars_max",
            max(premises.iter().map(|p| p.len() as f64)),
        )
        .with(
            "premise_literals_mean",
            mean(premises.iter().map(|p| literals(p).len() as f64)),
        )
        .with(
            "premise_chars_total",
            premises.iter().map(|p| p.len()).sum::<usize>() as f64,
        )
        .with("conclusion_chars", conclusion.len() as f64)
        .with("conclusion_literals", concl_lits.len() as f64)
        .with(
            "conclusion_variables",
            upper_identifiers(conclusion).len() as f64,
        )
        .with("conclusion_nesting", nesting(conclusion) as f64)
        .with("conclusion_symbols", concl_syms.len() as f64)
        .with(
            "conclusion_symbols_not_in_premises",
            concl_syms.difference(&prem_syms).count() as f64,
        )
        .with("symbol_jaccard", jaccard(&concl_syms, &prem_syms))
        .with("conclusion_literals_in_premises", shared_lits)
        .with(
            "conclusion_in_background",
            f64::from(u8::from(
                background.contains(&normalize_variables(conclusion)),
            )),
        )
        .with("background_size", background.len() as f64)
}

/// The item of one clause of a list (a selection pool or a reconstruction
/// listing) at position `i`.
fn clause_item(
    label: &str,
    clause: &str,
    i: usize,
    list: &[String],
    theorem: &str,
    background: &BTreeSet<String>,
) -> AuditItem {
    let syms = symbols(clause);
    let thm_syms = symbols(theorem);
    let thm_lits: BTreeSet<String> = literals(theorem)
        .into_iter()
        .map(normalize_variables)
        .collect();
    let lits = literals(clause);
    let shared_lits = lits
        .iter()
        .filter(|l| thm_lits.contains(&normalize_variables(l)))
        .count();
    let n = list.len() as f64;
    let mean_chars = mean(list.iter().map(|c| c.len() as f64));
    AuditItem::new(label)
        .with(
            "in_background",
            f64::from(u8::from(background.contains(&normalize_variables(clause)))),
        )
        .with("chars", clause.len() as f64)
        .with("chars_vs_list_mean", clause.len() as f64 - mean_chars)
        .with(
            "chars_vs_theorem",
            clause.len() as f64 / theorem.len().max(1) as f64,
        )
        .with("literals", lits.len() as f64)
        .with("variables", upper_identifiers(clause).len() as f64)
        .with("nesting", nesting(clause) as f64)
        .with("symbols", syms.len() as f64)
        .with("symbol_jaccard_theorem", jaccard(&syms, &thm_syms))
        .with(
            "symbols_not_in_theorem",
            syms.difference(&thm_syms).count() as f64,
        )
        .with("literals_in_theorem", shared_lits as f64)
        .with("position", i as f64 / n.max(1.0))
        .with("list_size", n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entailment_items_see_background_membership() {
        let meta = json!({
            "context_axioms": ["p(X) | q(X)", "r(a)"],
            "premises": ["p(Y) | q(Y)", "s(a)"],
            "theorem": "q(b) | p(b)",
        });
        let items = items(Family::Entailment, &meta, "True\n").unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].label, "True");
        let f = |n: &str| items[0].features.iter().find(|(k, _)| *k == n).unwrap().1;
        assert_eq!(f("premises_in_background"), 1.0);
        assert_eq!(f("share_in_background"), 0.5);
        assert_eq!(f("conclusion_symbols_not_in_premises"), 1.0); // b
    }

    #[test]
    fn selection_items_label_the_pool() {
        let meta = json!({
            "context_axioms": ["p(X)"],
            "pool": ["p(X)", "q(a)", "r(b)"],
            "theorem": "q(a) | p(a)",
        });
        let items = items(Family::Selection, &meta, "[1, 2]").unwrap();
        let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
        assert_eq!(labels, ["gold", "gold", "distractor"]);
        assert_eq!(items[0].features[0], ("in_background", 1.0));
        assert_eq!(items[2].features[0], ("in_background", 0.0));
        // Every item of a config has the same feature names in one order.
        let names = |i: &AuditItem| i.features.iter().map(|f| f.0).collect::<Vec<_>>();
        assert_eq!(names(&items[0]), names(&items[2]));
    }

    #[test]
    fn reconstruction_items_are_candidate_parents() {
        let meta = json!({
            "context_axioms": [],
            "clauses": ["p(a)", "q(a)", "~p(X) | r(X)", "r(a)"],
            "theorem": "q(a)",
            "theorem_index": 2,
            "premise_indices": [1, 3],
        });
        let got = items(Family::Reconstruction, &meta, "2 <- 1, 4\n4 <- 1, 3\n").unwrap();
        // Two derived clauses, each with its two parents and the one clause
        // that is neither it nor a parent (3 for child 2, 2 for child 4).
        assert_eq!(got.len(), 6);
        let parents = got.iter().filter(|i| i.label == "parent").count();
        assert_eq!(parents, 4);
        assert!(items(Family::Reconstruction, &json!({}), "").is_err());
    }

    #[test]
    fn readers_answer_whole_graphs() {
        let meta = json!({
            "context_axioms": [],
            "clauses": ["p(a) | r", "~r | q(b)", "p(a) | q(b)", "s(c)"],
            "theorem": "p(a) | q(b)",
            "premise_indices": [1, 2, 4],
        });
        // Each parent shares one literal with the child: both readers
        // find them.
        let got = readers(Family::Reconstruction, &meta, "3 <- 2, 1\n")
            .unwrap()
            .unwrap();
        let summary: Vec<(&str, usize, usize, bool)> = got
            .iter()
            .map(|a| (a.reader, a.parts, a.right, a.solved()))
            .collect();
        assert_eq!(
            summary,
            [("overlap", 1, 1, true), ("overlap_any", 1, 1, true)]
        );
        // Against another gold graph they are wrong.
        let got = readers(Family::Reconstruction, &meta, "3 <- 1, 4\n")
            .unwrap()
            .unwrap();
        assert!(got.iter().all(|a| a.right == 0 && !a.solved()));
        assert!(readers(Family::Selection, &meta, "[1]").is_none());
        assert!(
            readers(Family::Reconstruction, &json!({}), "")
                .unwrap()
                .is_err()
        );
    }
}
