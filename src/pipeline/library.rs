//! A run over many source files (`--domain ALL`, `--problems`): which of
//! them give a theory of their own. Every source is read (in parallel,
//! before any saturation), its theory keyed up to variable renaming, the
//! order of literals and equation sides, and the order and repetition of
//! its clauses ([`theory_key`]; symbol names are kept), and it is left out
//! when an earlier source in run order has the same key (a common case
//! among problem files: many problems share one axiom include and differ
//! only in their conjecture, which `--problems` leaves out), when its
//! theory is empty (a problem that is all conjecture), or, in a
//! library-wide run, when the reader refuses it (a named domain's
//! unreadable file stays an error). Each file left out is a [`Skipped`]
//! with its reason, for the log and the dataset card.

use super::{AxiomSource, RunError, Skipped, load_theory};
use crate::logic::{TermBank, canonical_clause};
use crate::saturation::Inputs;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The key of a theory: the SHA-256 of its clauses' canonical texts
/// ([`canonical_clause`]: up to variants, literal order and equation
/// sides), sorted and without repeats. Clause names, roles and files are
/// not part of it: two files stating the same clauses are one theory.
pub fn theory_key(bank: &TermBank, inputs: &Inputs) -> [u8; 32] {
    let clauses: BTreeSet<String> = inputs
        .iter()
        .map(|(lits, _)| canonical_clause(bank, lits))
        .collect();
    let mut h = Sha256::new();
    for c in &clauses {
        h.update((c.len() as u64).to_le_bytes());
        h.update(c.as_bytes());
    }
    h.finalize().into()
}

/// The sources of a run that give a theory of their own, in run order,
/// and those left out.
#[derive(Clone, Debug, Default)]
pub struct Survey {
    /// Kept, in run order.
    pub sources: Vec<AxiomSource>,
    /// Left out, in run order (after any the listing left out).
    pub skipped: Vec<Skipped>,
}

/// Reads every source (on `pool`) and keeps those with a theory of their
/// own (see the module notes). `lenient`: a file the reader refuses is
/// skipped with the reader's message rather than ending the run (the first
/// such file in run order is the error otherwise).
pub fn survey(
    sources: Vec<AxiomSource>,
    tptp: Option<&Path>,
    problems: bool,
    lenient: bool,
    pool: &rayon::ThreadPool,
) -> Result<Survey, RunError> {
    let keys: Vec<Result<Option<[u8; 32]>, RunError>> = pool.install(|| {
        sources
            .par_iter()
            .map(|s| {
                let (bank, inputs) = load_theory(s, tptp, problems)?;
                Ok((!inputs.is_empty()).then(|| theory_key(&bank, &inputs)))
            })
            .collect()
    });
    let mut out = Survey::default();
    let mut first: HashMap<[u8; 32], String> = HashMap::new();
    for (src, key) in sources.into_iter().zip(keys) {
        let skip = |reason: String| Skipped {
            domain: src.domain.clone(),
            name: src.name.clone(),
            reason,
        };
        let reason = match key {
            Err(e) if lenient => format!("not read: {}", one_line(&e.to_string())),
            Err(e) => return Err(e),
            Ok(None) => {
                if problems {
                    "no axioms once the conjecture is left out".to_string()
                } else {
                    "no clauses".to_string()
                }
            }
            Ok(Some(k)) => match first.get(&k) {
                Some(earlier) => format!("the same theory as {earlier}"),
                None => {
                    first.insert(k, src.name.clone());
                    out.sources.push(src);
                    continue;
                }
            },
        };
        out.skipped.push(skip(reason));
    }
    Ok(out)
}

/// The first line of a message, at most 160 characters (a reader's error
/// may quote a long excerpt).
fn one_line(s: &str) -> String {
    crate::tptp::excerpt(s.lines().next().unwrap_or(""), 160)
}

/// The card's paragraph on the files a run left out: how many for each
/// reason (a theory repeated counts under one reason whatever file it
/// repeats), and the first names of each; empty when none was.
pub fn skipped_markdown(skipped: &[Skipped]) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let mut by_reason: Vec<(String, Vec<&str>)> = Vec::new();
    for s in skipped {
        let reason = if s.reason.starts_with("the same theory as ") {
            "the same theory as an earlier file (up to variable renaming and clause order)"
                .to_string()
        } else if s.reason.starts_with("not read: ") {
            // The messages are in the log: one per file would make the
            // card as long as the library.
            "not read (the reader refused it; the run's log has the message)".to_string()
        } else {
            s.reason.clone()
        };
        match by_reason.iter_mut().find(|r| r.0 == reason) {
            Some(r) => r.1.push(&s.name),
            None => by_reason.push((reason, vec![&s.name])),
        }
    }
    let mut out = format!(
        "{} source file(s) were left out, each giving no rows:\n\n",
        skipped.len()
    );
    for (reason, names) in &by_reason {
        const SHOWN: usize = 20;
        let more = names.len().saturating_sub(SHOWN);
        out.push_str(&format!(
            "- {reason}: {} ({}{})\n",
            names.len(),
            names[..names.len().min(SHOWN)].join(", "),
            if more > 0 {
                format!(", and {more} more")
            } else {
                String::new()
            }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(dir: &Path, name: &str, text: &str) -> AxiomSource {
        let path = dir.join(format!("{name}.p"));
        std::fs::write(&path, text).unwrap();
        AxiomSource {
            domain: "TST".into(),
            name: name.into(),
            display: path.display().to_string(),
            path: Some(path),
            text: None,
        }
    }

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    #[test]
    fn theories_equal_up_to_renaming_and_order_are_kept_once() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let srcs = vec![
            source(
                d,
                "TST001-1",
                "cnf(a, axiom, p(X, f(X))).\ncnf(b, axiom, ~p(a, Y) | q(Y)).\ncnf(c, negated_conjecture, ~q(f(a))).",
            ),
            // The same clauses renamed, reordered and repeated, another
            // conjecture: the same theory.
            source(
                d,
                "TST002-1",
                "cnf(x, hypothesis, q(Z) | ~p(a, Z)).\ncnf(y, axiom, p(U, f(U))).\ncnf(z, axiom, p(V, f(V))).\ncnf(g, negated_conjecture, ~q(a)).",
            ),
            // Another symbol: another theory.
            source(
                d,
                "TST003-1",
                "cnf(a, axiom, p(X, g(X))).\ncnf(b, axiom, ~p(a, Y) | q(Y)).",
            ),
            // All conjecture.
            source(d, "TST004+1", "fof(c, conjecture, ![X]: (p(X) => p(X)))."),
            source(d, "TST005-1", "cnf(a, axiom, p(X)"),
        ];
        let s = survey(srcs.clone(), None, true, true, &pool()).unwrap();
        let kept: Vec<&str> = s.sources.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(kept, ["TST001-1", "TST003-1"]);
        let reasons: Vec<(&str, &str)> = s
            .skipped
            .iter()
            .map(|s| (s.name.as_str(), s.reason.as_str()))
            .collect();
        assert_eq!(reasons[0], ("TST002-1", "the same theory as TST001-1"));
        assert_eq!(
            reasons[1],
            ("TST004+1", "no axioms once the conjecture is left out")
        );
        assert_eq!(reasons[2].0, "TST005-1");
        assert!(reasons[2].1.starts_with("not read: "), "{reasons:?}");
        // Not lenient: the unreadable file is the run's error.
        let e = survey(srcs, None, true, false, &pool()).unwrap_err();
        assert!(matches!(e, RunError::Tptp(_)), "{e}");
        let md = skipped_markdown(&s.skipped);
        assert!(md.starts_with("3 source file(s) were left out"), "{md}");
        assert!(md.contains("- the same theory as an earlier file"), "{md}");
        assert!(skipped_markdown(&[]).is_empty());
    }

    #[test]
    fn the_conjecture_is_left_out_of_a_problem_theory() {
        let t = tempfile::tempdir().unwrap();
        let s = source(
            t.path(),
            "TST006+1",
            "fof(a, axiom, ![X]: (p(X) => q(X))).\nfof(h, hypothesis, p(c)).\nfof(c, conjecture, ?[Y]: (q(Y) & r(Y))).",
        );
        let (bank, inputs) = super::super::load_problem_theory(&s, None).unwrap();
        assert_eq!(inputs.len(), 2);
        assert!(inputs.iter().all(|(_, i)| i.role != "negated_conjecture"));
        let text: Vec<String> = inputs
            .iter()
            .map(|(l, _)| crate::tptp::clause_to_tptp(&bank, l))
            .collect();
        assert!(text.iter().all(|c| !c.contains("r(")), "{text:?}");
        // Read as an axiom file, the negated conjecture is among the inputs.
        let (_, all) = super::super::load_source(&s, None).unwrap();
        assert!(all.len() > inputs.len());
    }
}
