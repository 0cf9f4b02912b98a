//! SZS status values (the SZS ontology of Sutcliffe, "The SZS Ontologies
//! for Automated Reasoning Software", 2008) and the reader for the
//! `% Status : X` line of a TPTP problem header.

use std::fmt;
use std::str::FromStr;

macro_rules! szs_statuses {
    ($($(#[$doc:meta])* $v:ident = $name:literal, $abbr:literal, $success:literal;)*) => {
        /// An SZS status value. [`fmt::Display`] gives the SZS name
        /// (`Unsatisfiable`); [`SzsStatus::abbreviation`] the three-letter form.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub enum SzsStatus {
            $($(#[$doc])* $v,)*
        }

        impl SzsStatus {
            /// Every status, success values first, in ontology order.
            pub const ALL: &'static [SzsStatus] = &[$(SzsStatus::$v,)*];

            /// The SZS name, e.g. `CounterSatisfiable`.
            pub fn name(self) -> &'static str {
                match self { $(SzsStatus::$v => $name,)* }
            }

            /// The three-letter SZS abbreviation, e.g. `CSA`.
            pub fn abbreviation(self) -> &'static str {
                match self { $(SzsStatus::$v => $abbr,)* }
            }

            /// True for the success values (a solution was found), false for
            /// the no-success values (`GaveUp`, `ResourceOut`, `Unknown`, ...).
            pub fn is_success(self) -> bool {
                match self { $(SzsStatus::$v => $success,)* }
            }
        }
    };
}

szs_statuses! {
    /// Some success: a logical property was established.
    Success = "Success", "SUC", true;
    /// If the axioms are unsatisfiable, so is the conclusion.
    UnsatisfiabilityPreserving = "UnsatisfiabilityPreserving", "UNP", true;
    /// If the axioms are satisfiable, so are axioms and conjecture.
    SatisfiabilityPreserving = "SatisfiabilityPreserving", "SAP", true;
    /// Equisatisfiable.
    EquiSatisfiable = "EquiSatisfiable", "ESA", true;
    /// Some interpretation is a model of the axioms (and the conjecture).
    Satisfiable = "Satisfiable", "SAT", true;
    /// Satisfiable in a finite model.
    FinitelySatisfiable = "FinitelySatisfiable", "FSA", true;
    /// Every model of the axioms is a model of the conjecture.
    Theorem = "Theorem", "THM", true;
    /// Axioms and conjecture have the same models.
    Equivalent = "Equivalent", "EQV", true;
    /// The conjecture is a tautology.
    TautologousConclusion = "TautologousConclusion", "TAC", true;
    /// The conjecture is weaker than the axioms.
    WeakerConclusion = "WeakerConclusion", "WEC", true;
    /// Equivalent, and the conjecture is a theorem.
    EquivalentTheorem = "EquivalentTheorem", "ETH", true;
    /// Every interpretation is a model.
    Tautology = "Tautology", "TAU", true;
    /// A weaker tautologous conclusion.
    WeakerTautologousConclusion = "WeakerTautologousConclusion", "WTC", true;
    /// A weaker theorem.
    WeakerTheorem = "WeakerTheorem", "WTH", true;
    /// The axioms have no model.
    ContradictoryAxioms = "ContradictoryAxioms", "CAX", true;
    /// Contradictory axioms, satisfiable conjecture.
    SatisfiableConclusionContradictoryAxioms = "SatisfiableConclusionContradictoryAxioms", "SCA", true;
    /// Contradictory axioms, tautologous conjecture.
    TautologousConclusionContradictoryAxioms = "TautologousConclusionContradictoryAxioms", "TCA", true;
    /// Contradictory axioms, weaker conjecture.
    WeakerConclusionContradictoryAxioms = "WeakerConclusionContradictoryAxioms", "WCA", true;
    /// Counter-unsatisfiability preserving.
    CounterUnsatisfiabilityPreserving = "CounterUnsatisfiabilityPreserving", "CUP", true;
    /// Counter-satisfiability preserving.
    CounterSatisfiabilityPreserving = "CounterSatisfiabilityPreserving", "CSP", true;
    /// Equi-counter-satisfiable.
    EquiCounterSatisfiable = "EquiCounterSatisfiable", "ECS", true;
    /// Some model of the axioms is a model of the negated conjecture.
    CounterSatisfiable = "CounterSatisfiable", "CSA", true;
    /// Every model of the axioms is a model of the negated conjecture.
    CounterTheorem = "CounterTheorem", "CTH", true;
    /// Axioms and negated conjecture have the same models.
    CounterEquivalent = "CounterEquivalent", "CEQ", true;
    /// The conjecture is unsatisfiable.
    UnsatisfiableConclusion = "UnsatisfiableConclusion", "UNC", true;
    /// A weaker counter-conclusion.
    WeakerCounterConclusion = "WeakerCounterConclusion", "WCC", true;
    /// Counter-equivalent, and the negated conjecture is a theorem.
    EquivalentCounterTheorem = "EquivalentCounterTheorem", "ECT", true;
    /// No finite model.
    FinitelyUnsatisfiable = "FinitelyUnsatisfiable", "FUN", true;
    /// No interpretation is a model (of the clause set).
    Unsatisfiable = "Unsatisfiable", "UNS", true;
    /// A weaker unsatisfiable conclusion.
    WeakerUnsatisfiableConclusion = "WeakerUnsatisfiableConclusion", "WUC", true;
    /// A weaker counter-theorem.
    WeakerCounterTheorem = "WeakerCounterTheorem", "WCT", true;
    /// Contradictory axioms, counter-satisfiable conjecture.
    SatisfiableCounterConclusionContradictoryAxioms = "SatisfiableCounterConclusionContradictoryAxioms", "SCCA", true;
    /// Contradictory axioms, unsatisfiable conjecture.
    UnsatisfiableConclusionContradictoryAxioms = "UnsatisfiableConclusionContradictoryAxioms", "UCCA", true;
    /// Neither the conjecture nor its negation follows.
    NoConsequence = "NoConsequence", "NOC", true;
    /// No success.
    NoSuccess = "NoSuccess", "NOS", false;
    /// The problem has never been solved.
    Open = "Open", "OPN", false;
    /// The status is not known.
    Unknown = "Unknown", "UNK", false;
    /// A success value is assumed but not established.
    Assumed = "Assumed", "ASS", false;
    /// The system stopped.
    Stopped = "Stopped", "STP", false;
    /// The system stopped because of an error.
    Error = "Error", "ERR", false;
    /// An operating system error.
    OSError = "OSError", "OSE", false;
    /// An error in the input.
    InputError = "InputError", "INE", false;
    /// An error in the use of the system.
    UsageError = "UsageError", "USE", false;
    /// A syntax error in the input.
    SyntaxError = "SyntaxError", "SYE", false;
    /// A semantic error in the input.
    SemanticError = "SemanticError", "SEE", false;
    /// A type error in the input.
    TypeError = "TypeError", "TYE", false;
    /// The system was forced to stop.
    Forced = "Forced", "FOR", false;
    /// The user stopped the system.
    User = "User", "USR", false;
    /// A resource limit was reached.
    ResourceOut = "ResourceOut", "RSO", false;
    /// The CPU or wall-clock limit was reached.
    Timeout = "Timeout", "TMO", false;
    /// The memory limit was reached.
    MemoryOut = "MemoryOut", "MMO", false;
    /// The system gave up (e.g. saturated under an incomplete strategy).
    GaveUp = "GaveUp", "GUP", false;
    /// The system's strategy was incomplete.
    Incomplete = "Incomplete", "INC", false;
    /// The problem is outside what the system handles.
    Inappropriate = "Inappropriate", "IAP", false;
    /// The system is still running.
    InProgress = "InProgress", "INP", false;
    /// The system did not try.
    NotTried = "NotTried", "NTT", false;
    /// The system has not tried yet.
    NotTriedYet = "NotTriedYet", "NTY", false;
}

impl SzsStatus {
    /// The status with this SZS name or abbreviation (exact spelling).
    pub fn from_name(s: &str) -> Option<SzsStatus> {
        SzsStatus::ALL
            .iter()
            .copied()
            .find(|st| st.name() == s || st.abbreviation() == s)
    }

    /// Reads the status of a TPTP header line `% Status   : Unsatisfiable`;
    /// `None` if the line is not a status line or names no SZS status.
    pub fn from_header_line(line: &str) -> Option<SzsStatus> {
        header_status_word(line).and_then(SzsStatus::from_name)
    }

    /// The line a prover prints for its verdict:
    /// `% SZS status Theorem for PROBLEM`.
    pub fn result_line(self, problem: &str) -> String {
        format!("% SZS status {} for {problem}", self.name())
    }
}

/// The word after `% Status :` in a header line, if the line is one
/// (`% Status (intuit.) : ...` and other variants are not).
pub(crate) fn header_status_word(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('%')?.trim_start();
    let rest = rest.strip_prefix("Status")?.trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

impl fmt::Display for SzsStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error of [`SzsStatus::from_str`]: the text names no SZS status.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown SZS status '{0}'")]
pub struct UnknownSzsStatus(pub String);

impl FromStr for SzsStatus {
    type Err = UnknownSzsStatus;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SzsStatus::from_name(s.trim()).ok_or_else(|| UnknownSzsStatus(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_abbreviations_round_trip() {
        for &s in SzsStatus::ALL {
            assert_eq!(SzsStatus::from_name(s.name()), Some(s));
            assert_eq!(SzsStatus::from_name(s.abbreviation()), Some(s));
            assert_eq!(s.to_string().parse::<SzsStatus>(), Ok(s));
        }
        assert_eq!(SzsStatus::GaveUp.to_string(), "GaveUp");
        assert_eq!(SzsStatus::CounterSatisfiable.abbreviation(), "CSA");
        assert!(SzsStatus::Unsatisfiable.is_success());
        assert!(!SzsStatus::ResourceOut.is_success());
        assert!("Bogus".parse::<SzsStatus>().is_err());
    }

    #[test]
    fn header_lines() {
        assert_eq!(
            SzsStatus::from_header_line("% Status   : Unsatisfiable"),
            Some(SzsStatus::Unsatisfiable)
        );
        assert_eq!(
            SzsStatus::from_header_line("%Status:Satisfiable "),
            Some(SzsStatus::Satisfiable)
        );
        assert_eq!(
            SzsStatus::from_header_line("% Status (intuit.) : Theorem"),
            None
        );
        assert_eq!(SzsStatus::from_header_line("% Statusx : Theorem"), None);
        assert_eq!(SzsStatus::from_header_line("% Rating : 0.5"), None);
        assert_eq!(SzsStatus::from_header_line("% Status : "), None);
        assert_eq!(
            header_status_word("% Status : Frobnicated"),
            Some("Frobnicated")
        );
        assert_eq!(
            SzsStatus::Theorem.result_line("PUZ001-1"),
            "% SZS status Theorem for PUZ001-1"
        );
    }
}
