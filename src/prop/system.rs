//! The choice of proof language a PL task is written in (ProofGrid seed
//! 000; PL/EQ spec §1-§2): NDL with its rule set, or NDL_f with its single
//! entailment step and limits. Parsing and checking dispatch on it, so the
//! proof tasks are written once for both languages.

use super::check::{Mode, Report, StepRule, check_parsed_with, check_text_with};
use super::formula::Formula;
use super::ndl::{Deduction, Dialect};
use super::ndlf::NdlfOptions;

/// A proof language with its checker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofSystem {
    /// Full NDL (spec §1).
    Ndl,
    /// NDL_f (spec §2) with its step limits.
    NdlF(NdlfOptions),
}

impl ProofSystem {
    /// The language's name in prompts and messages (`NDL`, `NDL_f`).
    pub fn name(&self) -> &'static str {
        match self {
            ProofSystem::Ndl => "NDL",
            ProofSystem::NdlF(_) => "NDL_f",
        }
    }

    /// The parser dialect of the language.
    pub fn dialect(&self) -> Dialect {
        match self {
            ProofSystem::Ndl => Dialect::Ndl,
            ProofSystem::NdlF(_) => Dialect::NdlF,
        }
    }

    fn rule(&self) -> Option<&dyn StepRule> {
        match self {
            ProofSystem::Ndl => None,
            ProofSystem::NdlF(opts) => Some(opts as &dyn StepRule),
        }
    }

    /// Checks a parsed proof against named premises and a goal.
    pub fn check_parsed(
        &self,
        premises: &[(String, Formula)],
        goal: &Formula,
        proof: &Deduction,
        mode: Mode,
    ) -> Report {
        check_parsed_with(premises, goal, proof, mode, self.rule())
    }

    /// Parses and checks proof text; parse errors are syntax errors at
    /// their line.
    pub fn check_text(
        &self,
        premises: &[(String, Formula)],
        goal: &Formula,
        text: &str,
        mode: Mode,
    ) -> Report {
        check_text_with(premises, goal, text, mode, self.dialect(), self.rule())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prop::check::named_premises;

    fn f(s: &str) -> Formula {
        Formula::parse(s).unwrap()
    }

    #[test]
    fn each_system_reads_its_own_language() {
        let named = named_premises(&[f("(A & B)")]);
        let ndl = "A BY left-and on premise-1";
        let ndlf = "A from premise-1";
        let sys_f = ProofSystem::NdlF(NdlfOptions::default());
        assert!(
            ProofSystem::Ndl
                .check_text(&named, &f("A"), ndl, Mode::Strict)
                .ok()
        );
        assert!(sys_f.check_text(&named, &f("A"), ndlf, Mode::Strict).ok());
        // Each language rejects the other's step syntax.
        assert!(
            !ProofSystem::Ndl
                .check_text(&named, &f("A"), ndlf, Mode::Strict)
                .ok()
        );
        assert!(!sys_f.check_text(&named, &f("A"), ndl, Mode::Strict).ok());
        // A step that does not follow is a logic error in NDL_f.
        let bad = sys_f.check_text(&named, &f("C"), "C from premise-1", Mode::Strict);
        assert_eq!(bad.result.unwrap_err().kind.name(), "logic");
        assert_eq!((ProofSystem::Ndl.name(), sys_f.name()), ("NDL", "NDL_f"));
    }
}
