//! Deciding one TPTP CNF problem file (`saturate prove`): read it with its
//! includes, split off the conjecture clause (TPTP's reading: a clause to be
//! proved from the others, negated and Skolemised by [`Prover::prove`]), run
//! the prover (DESIGN.md §6: saturation, then MACE-style model search), name
//! the verdict as an SZS status, and re-check its certificate with the
//! independent [`crate::checker`]. The caller prints and picks exit codes.

use super::{Evidence, InputClause, Outcome, Prover, ProverLimits, Verdict, output};
use crate::checker::{self, CheckError, CheckProblem, Checked};
use crate::logic::{Literal, TermBank};
use crate::saturation::Params;
use crate::tptp::{self, IncludePolicy, Role, SzsStatus, TptpError};
use std::path::Path;
use std::time::{Duration, Instant};

/// Why a problem file could not be decided: bad input, with its location.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// The file (or an include) does not read: TPTP error with file:line:column.
    #[error("{0}")]
    Tptp(#[from] TptpError),
    /// More than one CNF conjecture clause.
    #[error("{0}")]
    SecondConjecture(String),
}

/// The answer for one problem file.
#[derive(Debug)]
pub struct ProveReport {
    /// The problem's name (file stem, control characters shown as `?`), as
    /// printed on `% SZS` lines.
    pub name: String,
    /// The verdict as an SZS status (`GaveUp` when undecided).
    pub status: SzsStatus,
    /// The verdict, its certificate and the work spent.
    pub outcome: Outcome,
    /// What the independent checker established about the certificate.
    pub checked: Result<Checked, CheckError>,
    /// The problem's own `% Status` header, when it has one.
    pub expected: Option<SzsStatus>,
    /// Wall time of the proof attempt.
    pub elapsed: Duration,
}

impl ProveReport {
    /// The problem's `% Status` when it names a decided status other than
    /// the (decided) verdict: the header is a comment, often stale, so the
    /// certified verdict stands and the disagreement is only reported.
    pub fn disagreement(&self) -> Option<SzsStatus> {
        let expected = self.expected?;
        let decided = matches!(
            expected,
            SzsStatus::Unsatisfiable
                | SzsStatus::Satisfiable
                | SzsStatus::Theorem
                | SzsStatus::CounterSatisfiable
        );
        (self.status != SzsStatus::GaveUp && expected != self.status && decided).then_some(expected)
    }

    /// The certificate as an SZS output block (`CNFRefutation` as a TSTP
    /// derivation, `FiniteModel` as a TPTP finite interpretation, or the
    /// saturated set); `None` when undecided.
    pub fn certificate_text(&self) -> Option<String> {
        let name = &self.name;
        let (kind, body) = match &self.outcome.verdict {
            Verdict::Theorem { refutation } => {
                ("CNFRefutation", output::refutation_tstp(refutation))
            }
            Verdict::CounterSatisfiable {
                evidence: Evidence::Model { model },
            } => ("FiniteModel", output::model_tptp(model)),
            Verdict::CounterSatisfiable {
                evidence: Evidence::Saturation { clauses },
            } => (
                "Saturation",
                clauses
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("cnf(s{}, plain, ({c})).\n", i + 1))
                    .collect(),
            ),
            Verdict::Unknown => return None,
        };
        Some(format!(
            "% SZS output start {kind} for {name}\n{body}% SZS output end {kind} for {name}\n"
        ))
    }
}

/// Reads `file` (includes under `tptp_root`, per `policy`) and decides it
/// with a prover of the given limits and saturation parameters.
pub fn prove_file(
    file: &Path,
    tptp_root: Option<&Path>,
    policy: &IncludePolicy,
    limits: ProverLimits,
    params: Params,
) -> Result<ProveReport, ProveError> {
    let mut bank = TermBank::new();
    let problem = tptp::parse_file_with(&mut bank, file, tptp_root, policy)?;
    // Printed on `% SZS` lines: control characters (a newline in a file
    // name) must not break the line structure.
    let name: String = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    // A CNF `conjecture` is what TPTP says it is: a clause to be proved from
    // the others (negated and Skolemised by `Prover::prove`), answered
    // Theorem / CounterSatisfiable. Their conjunction is not split here.
    let mut conjectures = problem
        .clauses
        .iter()
        .chain(&problem.tautologies)
        .filter(|c| c.role == Role::Conjecture);
    let conjecture = conjectures.next();
    if let Some(second) = conjectures.next() {
        return Err(ProveError::SecondConjecture(format!(
            "{}: a second CNF conjecture ({}); `prove` proves one conjecture clause per problem: put each in its own file",
            second.source,
            tptp::excerpt(&second.name, 80)
        )));
    }
    let inputs: Vec<InputClause> = problem
        .clauses
        .iter()
        .filter(|c| c.role != Role::Conjecture)
        .map(|c| InputClause {
            lits: c.lits.clone(),
            name: c.name.clone(),
            role: c.role.as_str().to_string(),
        })
        .collect();
    let start = Instant::now();
    let mut prover = Prover::new(limits);
    prover.params = params;
    let outcome = match conjecture {
        Some(c) => {
            let premises: Vec<&[Literal]> = inputs.iter().map(|c| c.lits.as_slice()).collect();
            prover.prove(&bank, &premises, &c.lits)
        }
        None => prover.refute(&bank, &inputs),
    };
    // FOF conjectures were negated into the clauses (role
    // negated_conjecture) by the clausifier.
    let has_conjecture = conjecture.is_some() || !problem.fof_conjectures.is_empty();
    let status = match (&outcome.verdict, has_conjecture) {
        (Verdict::Theorem { .. }, false) => SzsStatus::Unsatisfiable,
        (Verdict::Theorem { .. }, true) => SzsStatus::Theorem,
        (Verdict::CounterSatisfiable { .. }, false) => SzsStatus::Satisfiable,
        (Verdict::CounterSatisfiable { .. }, true) => SzsStatus::CounterSatisfiable,
        (Verdict::Unknown, _) => SzsStatus::GaveUp,
    };
    // The certificate was already checked inside the prover (config
    // `prover.check`); say what the check established.
    let problem_text = CheckProblem {
        axioms: inputs
            .iter()
            .map(|c| tptp::clause_to_tptp(&bank, &c.lits))
            .collect(),
        conjecture: conjecture.map(|c| tptp::clause_to_tptp(&bank, &c.lits)),
    };
    let checked = checker::check(&problem_text, &outcome.verdict);
    Ok(ProveReport {
        name,
        status,
        checked,
        expected: problem.szs_status(),
        elapsed: start.elapsed(),
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(text: &str) -> Result<ProveReport, ProveError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p1.p");
        std::fs::write(&path, text).unwrap();
        prove_file(
            &path,
            None,
            &IncludePolicy::default(),
            ProverLimits::default(),
            Params::default(),
        )
    }

    #[test]
    fn a_theorem_is_decided_and_its_certificate_checks() {
        let r =
            decide("% Status   : Unsatisfiable\ncnf(a, axiom, p(X)).\ncnf(b, conjecture, p(c)).\n")
                .unwrap();
        assert_eq!(r.name, "p1");
        assert_eq!(r.status, SzsStatus::Theorem);
        assert!(matches!(r.checked, Ok(Checked::Refutation { .. })));
        // The header says Unsatisfiable, the verdict Theorem: reported.
        assert_eq!(r.disagreement(), Some(SzsStatus::Unsatisfiable));
        let text = r.certificate_text().unwrap();
        assert!(text.starts_with("% SZS output start CNFRefutation for p1\n"));
        assert!(text.ends_with("% SZS output end CNFRefutation for p1\n"));
    }

    #[test]
    fn a_countersatisfiable_conjecture_gets_a_checked_model() {
        let r = decide("cnf(a, axiom, p(a)).\ncnf(b, conjecture, p(b)).\n").unwrap();
        assert_eq!(r.status, SzsStatus::CounterSatisfiable);
        assert!(matches!(r.checked, Ok(Checked::Model { .. })));
        assert_eq!(r.disagreement(), None);
        assert!(r.certificate_text().unwrap().contains("FiniteModel for p1"));
    }

    #[test]
    fn two_conjectures_are_refused_with_the_location() {
        let e = decide("cnf(a, conjecture, p(a)).\ncnf(b, conjecture, p(b)).\n").unwrap_err();
        assert!(matches!(e, ProveError::SecondConjecture(_)));
        assert!(e.to_string().contains("a second CNF conjecture (b)"), "{e}");
    }

    #[test]
    fn bad_input_is_a_located_tptp_error() {
        let e = decide("cnf(a, axiom, p(a).\n").unwrap_err();
        assert!(matches!(e, ProveError::Tptp(_)));
        assert!(e.to_string().contains("p1.p:1:"), "{e}");
    }
}
