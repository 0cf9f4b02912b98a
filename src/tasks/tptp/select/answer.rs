//! Premise selection answers: the prompt, the answer's format and its
//! lenient-but-strict parser, the scorer (exact minimum answers only) and
//! `verify` (the certificate re-checked: refutations by the independent
//! checker, countermodels evaluated on the pool).

use super::super::{Background, context_block, numbered, str_field, str_list};
use super::Certificate;
use super::cover::{indices, subsets};
use crate::checker::{self, CheckProblem};
use crate::prover::{Evidence, Prover, Verdict};
use crate::tasks::Score;

/// `[1, 3, 7]`.
pub fn format_answer(indices: &[usize]) -> String {
    let parts: Vec<String> = indices.iter().map(|i| i.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// The prompt of a selection instance.
pub fn render(domain: &str, context: &Background, theorem: &str, pool: &[String]) -> String {
    let mut s = context_block(domain, context);
    s.push_str(&format!("\nTheorem:\n{theorem}\n"));
    s.push_str("\nNumbered premises:\n");
    s.push_str(&numbered(pool));
    s.push_str(
        "\nQuestion: which is the smallest set of the numbered premises above from which the theorem follows (using those premises only, not the background axioms)?\nAnswer with the premise numbers in increasing order as a list, for example [1, 4].\n",
    );
    s
}

/// Why a selection answer does not read as premise numbers of the pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerError {
    /// Not a list of distinct premise numbers (a part that is no number,
    /// no number at all, a number listed twice).
    Malformed(String),
    /// A number outside `1..=n`: the answer names a premise the pool does
    /// not hold.
    OutsidePool {
        /// The number named.
        number: usize,
        /// The pool's size.
        pool: usize,
    },
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerError::Malformed(m) => f.write_str(m),
            AnswerError::OutsidePool { number, pool } => {
                write!(f, "premise {number} is not in 1-{pool}")
            }
        }
    }
}

/// Parses `[1, 3, 7]` (brackets optional, commas or spaces between
/// numbers) into sorted distinct indices in `1..=n`. A part that is not a
/// number, or no number at all, is malformed before any range is looked
/// at; then a number outside the pool, then a repeated number.
pub fn parse_answer(answer: &str, n: usize) -> Result<Vec<usize>, AnswerError> {
    let a = answer.trim();
    let inner = a
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(a);
    let mut out = Vec::new();
    for part in inner.split(|c: char| c == ',' || c.is_whitespace()) {
        if part.is_empty() {
            continue;
        }
        let i: usize = part
            .parse()
            .map_err(|_| AnswerError::Malformed(format!("`{part}` is not a premise number")))?;
        out.push(i);
    }
    if out.is_empty() {
        return Err(AnswerError::Malformed("no premise numbers".into()));
    }
    if let Some(&i) = out.iter().find(|&&i| i == 0 || i > n) {
        return Err(AnswerError::OutsidePool { number: i, pool: n });
    }
    out.sort_unstable();
    if let Some(w) = out.windows(2).find(|w| w[0] == w[1]) {
        return Err(AnswerError::Malformed(format!(
            "premise {} is listed twice",
            w[0]
        )));
    }
    Ok(out)
}

/// Scores an answer: 1 for a certified minimum answer, 0 for any other,
/// so that neither listing the whole pool nor a superset of an answer
/// earns anything (a partial credit of `min_size / answer_size` for a
/// sufficient superset gave the whole pool 0.25-0.50 and the gold answer
/// plus one clause 0.5-0.8):
///
/// - a certified minimum answer scores 1 (`ok`);
/// - every other well-formed answer scores 0 (`wrong`): an insufficient
///   one (inside the clauses a certified countermodel satisfies, every
///   subset of the minimum size or smaller that is not a minimum answer
///   is, or one the prover refutes), and a sufficient but larger one;
/// - an answer naming a number outside the pool is `cheating` (it names a
///   premise the task does not give); one that does not read is
///   `malformed`.
///
/// Sub-metrics, apart from the main value: `sufficient` (1 iff the answer
/// is known to prove the theorem: a superset of a certified answer, or
/// proved by the prover), `minimal` (1 iff it is a minimum answer) and
/// `size_credit` (`min_size / answer_size` for a sufficient answer, else
/// 0: the partial credit the main value no longer gives); all 0 for a
/// malformed or cheating answer. An answer larger than the minimum whose
/// sufficiency the prover leaves undecided is `wrong` as any non-minimum
/// answer is (the value does not depend on it) and reports `minimal`
/// only. With no `prover` (a caller that reads the value alone, such as
/// the audit's exploit suite) the sufficiency the certificate does not
/// settle is not searched for either: the value is the same, and the
/// search, a full prover call per answer, was a quarter of a selection
/// run's CPU at GEO level 4.
pub fn score(
    meta: &serde_json::Value,
    cert: &serde_json::Value,
    answer: &str,
    prover: Option<&mut Prover>,
) -> Result<Score, String> {
    let pool = str_list(meta, "pool")?;
    let cert: Certificate =
        serde_json::from_value(cert.clone()).map_err(|e| format!("certificate: {e}"))?;
    let metrics = |sufficient: bool, minimal: bool, credit: f64| {
        vec![
            ("sufficient", f64::from(u8::from(sufficient))),
            ("minimal", f64::from(u8::from(minimal))),
            ("size_credit", credit),
        ]
    };
    let got = match parse_answer(answer, pool.len()) {
        Ok(g) => g,
        Err(e @ AnswerError::Malformed(_)) => {
            return Ok(Score::malformed(e.to_string()).with_metrics(metrics(false, false, 0.0)));
        }
        Err(e @ AnswerError::OutsidePool { .. }) => {
            return Ok(Score::cheating(format!("{e}: not a premise of the pool"))
                .with_metrics(metrics(false, false, 0.0)));
        }
    };
    if cert.answers.iter().any(|a| a.premises == got) {
        return Ok(Score::correct().with_metrics(metrics(true, true, 1.0)));
    }
    let within = |small: &[usize], big: &[usize]| small.iter().all(|x| big.contains(x));
    let size = format!("{} premises, minimum {}", got.len(), cert.size);
    let sufficient = if cert.answers.iter().any(|a| within(&a.premises, &got)) {
        Some(true)
    } else if got.len() <= cert.size
        || cert
            .countermodels
            .iter()
            .any(|c| within(&got, &c.satisfies))
    {
        Some(false)
    } else if let Some(prover) = prover {
        let theorem = str_field(meta, "theorem")?;
        let mut texts: Vec<String> = got.iter().map(|&i| pool[i - 1].clone()).collect();
        texts.push(theorem);
        let (bank, clauses) = super::super::parse_clauses(&texts)?;
        let (t, ps) = clauses.split_last().expect("theorem");
        let refs: Vec<&[crate::logic::Literal]> = ps.iter().map(|c| c.as_slice()).collect();
        prover.prove(&bank, &refs, t).verdict.label()
    } else {
        return Ok(
            Score::wrong(format!("not minimal ({size}); sufficiency not checked"))
                .with_metrics(vec![("minimal", 0.0)]),
        );
    };
    Ok(match sufficient {
        Some(true) => {
            let credit = cert.size as f64 / got.len() as f64;
            Score::wrong(format!(
                "sufficient but not minimal ({size}): no credit (size credit {credit:.3})"
            ))
            .with_metrics(metrics(true, false, credit))
        }
        Some(false) => Score::wrong(format!("not sufficient ({size})"))
            .with_metrics(metrics(false, false, 0.0)),
        None => Score::wrong(format!(
            "not minimal ({size}); sufficiency undecided by the prover within its limits"
        ))
        .with_metrics(vec![("minimal", 0.0)]),
    })
}

/// Re-checks a selection certificate against the record's metadata and
/// gold answer with the independent checker; returns what was checked.
pub fn verify(
    meta: &serde_json::Value,
    cert: &serde_json::Value,
    gold: &str,
) -> Result<String, String> {
    let pool = str_list(meta, "pool")?;
    let theorem = str_field(meta, "theorem")?;
    let cert: Certificate =
        serde_json::from_value(cert.clone()).map_err(|e| format!("certificate: {e}"))?;
    if pool.len() > 31 {
        return Err("pool larger than 31".into());
    }
    let mask_of = |ix: &[usize]| -> Result<u32, String> {
        let mut m = 0u32;
        for &i in ix {
            if i == 0 || i > pool.len() {
                return Err(format!("index {i} outside the pool"));
            }
            m |= 1 << (i - 1);
        }
        Ok(m)
    };
    let gold = parse_answer(gold, pool.len()).map_err(|e| format!("gold answer: {e}"))?;
    if !cert.answers.iter().any(|a| a.premises == gold) {
        return Err("the gold answer is not among the certified answers".into());
    }
    let mut answer_masks = Vec::new();
    for a in &cert.answers {
        if a.premises.len() != cert.size {
            return Err(format!(
                "answer {:?} is not of size {}",
                a.premises, cert.size
            ));
        }
        let premises = a.premises.iter().map(|&i| pool[i - 1].clone()).collect();
        super::super::check_proof(premises, &theorem, &a.refutation)
            .map_err(|e| format!("answer {:?}: {e}", a.premises))?;
        answer_masks.push(mask_of(&a.premises)?);
    }
    let mut covers = Vec::new();
    for c in &cert.countermodels {
        let problem = CheckProblem {
            axioms: c.satisfies.iter().map(|&i| pool[i - 1].clone()).collect(),
            conjecture: Some(theorem.clone()),
        };
        let v = Verdict::CounterSatisfiable {
            evidence: Evidence::Model {
                model: c.model.clone(),
            },
        };
        checker::check(&problem, &v).map_err(|e| format!("countermodel: {e}"))?;
        covers.push(mask_of(&c.satisfies)?);
    }
    let mut subsets_checked = 0;
    for s in 0..=cert.size {
        for mask in subsets(pool.len(), s) {
            subsets_checked += 1;
            if s == cert.size && answer_masks.contains(&mask) {
                continue;
            }
            if !covers.iter().any(|sat| mask & !sat == 0) {
                return Err(format!(
                    "subset {:?} is neither a certified answer nor covered by a countermodel",
                    indices(mask).iter().map(|i| i + 1).collect::<Vec<_>>()
                ));
            }
        }
    }
    Ok(format!(
        "{} answer(s), {} countermodel(s), {subsets_checked} subsets covered",
        cert.answers.len(),
        cert.countermodels.len()
    ))
}
