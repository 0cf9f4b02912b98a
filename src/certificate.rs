//! Certificates: the prover's verdicts and their evidence (refutations as
//! ordered steps with rule, parents and located simplifications; finite
//! models as tables), serialised as JSON in datasets. They are the input of
//! the independent checker ([`crate::checker`]), which depends on this file
//! and nothing else of ours (DESIGN.md §2, §6).

use serde::{Deserialize, Serialize};

/// The answer of the prover.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// The conjecture follows from the premises (the clause set is unsatisfiable).
    Theorem {
        /// The refutation.
        refutation: Refutation,
    },
    /// The conjecture does not follow (the clause set is satisfiable).
    CounterSatisfiable {
        /// The evidence.
        evidence: Evidence,
    },
    /// Undecided within the work limits.
    Unknown,
}

impl Verdict {
    /// `theorem`, `counter_satisfiable` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Theorem { .. } => "theorem",
            Verdict::CounterSatisfiable { .. } => "counter_satisfiable",
            Verdict::Unknown => "unknown",
        }
    }

    /// `Some(true)` for a theorem, `Some(false)` for a counter-satisfiable
    /// conjecture, `None` when undecided.
    pub fn label(&self) -> Option<bool> {
        match self {
            Verdict::Theorem { .. } => Some(true),
            Verdict::CounterSatisfiable { .. } => Some(false),
            Verdict::Unknown => None,
        }
    }
}

/// Why a conjecture is not a theorem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Evidence {
    /// A finite model of the premises and the negated conjecture.
    Model {
        /// The model.
        model: FiniteModel,
    },
    /// The clause set was saturated under the complete default strategy
    /// without deriving the empty clause, and no small model was found.
    Saturation {
        /// The active clauses at the end, in TPTP syntax.
        clauses: Vec<String>,
    },
}

/// One clause of a refutation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofStep {
    /// Step number, unique within the refutation; parents have smaller ids.
    pub id: u32,
    /// The clause in TPTP syntax (`$false` for the empty clause).
    pub clause: String,
    /// The generating rule (`input`, `resolution`, `superposition`, ...).
    pub rule: String,
    /// Premises of the generating rule, by step id.
    pub parents: Vec<u32>,
    /// Simplifications applied after the rule, in order.
    pub simps: Vec<SimpUse>,
    /// The rule's conclusion before the simplifications (TPTP text), when
    /// the step was simplified and the detail was recorded. With it, every
    /// entry of `simps` says where it acted and the checker replays the
    /// steps without search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    /// For inputs: `axiom` or `negated_conjecture`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// For inputs: the name of the input clause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// One simplification step: its kind and the unit clause used, and, in
/// detailed certificates (see [`ProofStep::raw`]), where it acted. Literal
/// indices refer to the clause just before the step: the raw conclusion's
/// literals in printed order, earlier steps applied, deletions in place.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimpUse {
    /// `rewrite`, `simplify_reflect`, `subsumption_resolution`,
    /// `trivial_disequation` or `distinct_values`.
    pub kind: String,
    /// The clause used, by step id (a unit but for
    /// `subsumption_resolution`, whose clause subsumes the simplified clause
    /// with the deleted literal complemented).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<u32>,
    /// Rewrite, simplify-reflect, subsumption resolution, distinct values:
    /// the literal acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lit: Option<u32>,
    /// Rewrite: true for the right side of the (equational) literal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right: Option<bool>,
    /// Rewrite: argument indices from the side's root to the redex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<u32>>,
    /// Rewrite: the side of the unit equation that matched the redex
    /// (0 = as printed left, 1 = right); it is replaced by the other side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_side: Option<u8>,
    /// Rewrite: the matching substitution, unit variable -> term (over the
    /// variables of the raw conclusion), TPTP text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subst: Option<std::collections::BTreeMap<String, String>>,
}

/// A refutation: the sub-DAG from input clauses to the empty clause, in
/// topological order (the last step is `$false`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refutation {
    /// The steps.
    pub steps: Vec<ProofStep>,
}

/// A finite interpretation: domain `{0, ..., size-1}` and a table per symbol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FiniteModel {
    /// Domain size.
    pub size: u32,
    /// Function tables (constants are functions of arity 0).
    pub functions: Vec<Table>,
    /// Predicate tables (values 0 = false, 1 = true).
    pub predicates: Vec<Table>,
}

/// The table of one symbol: `values[i]` is the value at the `i`-th argument
/// tuple in mixed radix, first argument most significant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Symbol name as written in TPTP.
    pub name: String,
    /// Number of arguments.
    pub arity: u32,
    /// `size^arity` values.
    pub values: Vec<u32>,
}

/// The clausification of a problem's FOF formulas as the checker
/// re-checks it ([`crate::checker::check_clausification`]): the derivation
/// lines (TPTP formula texts) and, per clause, the lines it was made from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clausification {
    /// The lines, premises first.
    pub lines: Vec<FormulaStep>,
    /// The clauses made from them.
    pub clauses: Vec<ClausifiedClause>,
}

/// One line of a clausification derivation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormulaStep {
    /// Its name, unique in the derivation.
    pub name: String,
    /// The formula, TPTP FOF text.
    pub formula: String,
    /// How it was obtained: `input`, `definition`, `assume_negation`,
    /// `fof_nnf`, `shift_quantors`, `skolemize` or `variable_rename`.
    pub rule: String,
    /// The lines it was obtained from, by name.
    pub parents: Vec<String>,
}

/// One clause made from a clausification derivation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClausifiedClause {
    /// The clause as the problem states it (TPTP CNF text).
    pub clause: String,
    /// The same clause in the variables of its parent lines (before the
    /// variables were renumbered), so that it follows from them
    /// propositionally.
    pub raw: String,
    /// The lines it was made from: a quantifier-free formula under
    /// universal quantifiers and the definitions introduced for it.
    pub parents: Vec<String>,
}
