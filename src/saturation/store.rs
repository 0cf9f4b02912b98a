//! The clause arena: every clause the saturation keeps, with the rule that
//! made it, its parents and the simplifications applied to it. The arena *is*
//! the derivation DAG; `crate::derivation` builds views and exports on top.

use crate::logic::{Clause, Literal, TermId};
use smallvec::SmallVec;
use std::fmt;

/// Index of a clause in the [`ClauseStore`]. Ids grow with creation time, so
/// they double as clause age.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ClauseId(pub u32);

impl ClauseId {
    /// The index as a `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ClauseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}

/// The generating step that produced a clause.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// An input clause (axiom, hypothesis, negated conjecture...).
    Input,
    /// Ordered resolution of a positive and a negative predicate literal.
    Resolution,
    /// Ordered factoring of two positive predicate literals.
    Factoring,
    /// Superposition of a positive equation into a literal.
    Superposition,
    /// Equality resolution: a disequation `s != t` with `s`, `t` unifiable.
    EqualityResolution,
    /// Equality factoring of two positive equations.
    EqualityFactoring,
    /// A clause obtained from a single parent by simplification only (the
    /// steps are in [`Record::simps`]).
    Simplification,
}

impl Rule {
    /// Short rule name used in TSTP output and dumps.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Input => "input",
            Rule::Resolution => "resolution",
            Rule::Factoring => "factoring",
            Rule::Superposition => "superposition",
            Rule::EqualityResolution => "equality_resolution",
            Rule::EqualityFactoring => "equality_factoring",
            Rule::Simplification => "simplification",
        }
    }

    /// All rules, for parsing names back.
    pub const ALL: [Rule; 7] = [
        Rule::Input,
        Rule::Resolution,
        Rule::Factoring,
        Rule::Superposition,
        Rule::EqualityResolution,
        Rule::EqualityFactoring,
        Rule::Simplification,
    ];
}

/// One simplification applied to a clause after it was generated.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SimpStep {
    /// Rewriting (demodulation) with the positive unit equation `ClauseId`.
    Rewrite(ClauseId),
    /// Deletion of a literal contradicted by an instance of the unit clause.
    SimplifyReflect(ClauseId),
    /// Contextual subsumption resolution (contextual literal cutting): a
    /// literal `L` of `L ∨ R` is deleted when the clause subsumes `¬L ∨ R`
    /// (resolving the two gives `R`).
    SubsumptionResolution(ClauseId),
    /// Deletion of trivial disequations `s != s`.
    TrivialDisequation,
    /// Deletion of an equation `v1 = v2` between two distinct objects or
    /// numbers denoting different values (false in every TPTP interpretation).
    DistinctValues,
}

impl SimpStep {
    /// Short name for TSTP output.
    pub fn name(self) -> &'static str {
        match self {
            SimpStep::Rewrite(_) => "rewrite",
            SimpStep::SimplifyReflect(_) => "simplify_reflect",
            SimpStep::SubsumptionResolution(_) => "subsumption_resolution",
            SimpStep::TrivialDisequation => "trivial_disequation",
            SimpStep::DistinctValues => "distinct_values",
        }
    }

    /// The clause used (a unit but for subsumption resolution), if any.
    pub fn partner(self) -> Option<ClauseId> {
        match self {
            SimpStep::Rewrite(c)
            | SimpStep::SimplifyReflect(c)
            | SimpStep::SubsumptionResolution(c) => Some(c),
            SimpStep::TrivialDisequation | SimpStep::DistinctValues => None,
        }
    }
}

/// What one [`SimpStep`] did, in enough detail to replay it without search
/// (kept only when `Params::record_simp_detail` is on). Literal indices are
/// into the clause as it was just before the step: the raw conclusion
/// ([`Detail::raw`]) with the earlier steps applied, deletions in place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimpDetail {
    /// A rewrite of `redex` into `contractum` with the step's unit.
    Rewrite {
        /// Literal index.
        lit: u32,
        /// True for the right side of the literal (`rhs`).
        right: bool,
        /// Argument indices from the side's root to the redex.
        path: Box<[u32]>,
        /// The subterm replaced.
        redex: TermId,
        /// The term it was replaced by.
        contractum: TermId,
        /// The side of the unit that matched the redex (0 = `lhs`).
        unit_side: u8,
    },
    /// Deletion of the literal at `lit` by simplify-reflect.
    Reflect {
        /// Literal index.
        lit: u32,
    },
    /// Deletion of the literal at `lit` by subsumption resolution.
    Cut {
        /// Literal index.
        lit: u32,
    },
    /// Deletion of every trivial disequation `s != s`.
    Trivial,
    /// Deletion of the equation between different distinct values at `lit`.
    Distinct {
        /// Literal index.
        lit: u32,
    },
}

/// The detail of a record's simplifications: the conclusion before them and
/// one [`SimpDetail`] per [`Record::simps`] entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detail {
    /// The literals before simplification (oriented, not renumbered).
    pub raw: Vec<Literal>,
    /// One entry per simplification step, in order.
    pub steps: Vec<SimpDetail>,
}

/// Where a clause is in the given-clause loop.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum State {
    /// Waiting to be selected.
    Passive,
    /// Selected and used for inferences.
    Active,
    /// Removed: redundant (subsumed, rewritten, tautology) after it was kept.
    Deleted,
}

/// A kept clause and its derivation.
#[derive(Clone, Debug)]
pub struct Record {
    /// The clause itself.
    pub clause: Clause,
    /// The generating rule.
    pub rule: Rule,
    /// Premises of the generating rule (for `Simplification`, the clause
    /// simplified).
    pub parents: SmallVec<[ClauseId; 2]>,
    /// Simplifications applied after the generating step, in order.
    pub simps: Vec<SimpStep>,
    /// Longest path to an input clause, over parents and simplifiers.
    pub depth: u32,
    /// Loop state.
    pub state: State,
    /// Input name and role for input clauses.
    pub input: Option<InputInfo>,
    /// Simplification detail, when recorded (see [`Detail`]).
    pub detail: Option<Box<Detail>>,
}

/// Provenance of an input clause.
#[derive(Clone, Debug)]
pub struct InputInfo {
    /// The TPTP name of the formula.
    pub name: String,
    /// Its TPTP role (`axiom`, `negated_conjecture`, ...).
    pub role: String,
    /// The file it was read from.
    pub file: String,
    /// For a clause from a FOF formula: its TSTP source (the `clausify`
    /// inference over the formula's derivation lines), printed instead of
    /// `file(...)`. `None` for a clause read as `cnf`.
    pub source: Option<String>,
    /// For a clause from a FOF formula: that formula as read (closed TPTP
    /// text), which task prompts show in the background. `None` for a
    /// clause read as `cnf`.
    pub formula: Option<String>,
}

impl Record {
    /// Every clause this one depends on directly: parents, then simplifiers.
    pub fn premises(&self) -> impl Iterator<Item = ClauseId> + '_ {
        self.parents
            .iter()
            .copied()
            .chain(self.simps.iter().filter_map(|s| s.partner()))
    }
}

/// Input clauses with their provenance, as handed to the saturation.
pub type Inputs = Vec<(Vec<crate::logic::Literal>, InputInfo)>;

/// The arena of records, indexed by [`ClauseId`].
#[derive(Clone, Debug, Default)]
pub struct ClauseStore {
    records: Vec<Record>,
}

impl ClauseStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a record, computing its depth from its premises.
    pub fn push(
        &mut self,
        clause: Clause,
        rule: Rule,
        parents: SmallVec<[ClauseId; 2]>,
        simps: Vec<SimpStep>,
        input: Option<InputInfo>,
    ) -> ClauseId {
        let mut rec = Record {
            clause,
            rule,
            parents,
            simps,
            depth: 0,
            state: State::Passive,
            input,
            detail: None,
        };
        rec.depth = rec
            .premises()
            .map(|p| self.records[p.index()].depth + 1)
            .max()
            .unwrap_or(0);
        let id = ClauseId(self.records.len() as u32);
        self.records.push(rec);
        id
    }

    /// The record of a clause.
    #[inline]
    pub fn get(&self, id: ClauseId) -> &Record {
        &self.records[id.index()]
    }

    /// The clause behind an id.
    #[inline]
    pub fn clause(&self, id: ClauseId) -> &Clause {
        &self.records[id.index()].clause
    }

    /// Attaches the simplification detail of a record.
    pub fn set_detail(&mut self, id: ClauseId, detail: Detail) {
        debug_assert_eq!(detail.steps.len(), self.records[id.index()].simps.len());
        self.records[id.index()].detail = Some(Box::new(detail));
    }

    /// Sets a clause's loop state.
    pub fn set_state(&mut self, id: ClauseId, state: State) {
        self.records[id.index()].state = state;
    }

    /// Every record's loop state, in id order: what [`ClauseStore::rewind`]
    /// needs to come back to this store.
    pub fn states(&self) -> Vec<State> {
        self.records.iter().map(|r| r.state).collect()
    }

    /// Goes back to the store whose [`ClauseStore::states`] were `states`:
    /// the records from `states.len()` on are dropped and the others get
    /// their states back. Nothing else of a record changes once it is
    /// pushed (its simplification detail is attached when it is made).
    pub fn rewind(&mut self, states: &[State]) {
        assert!(states.len() <= self.records.len(), "rewinding forward");
        self.records.truncate(states.len());
        for (r, &s) in self.records.iter_mut().zip(states) {
            r.state = s;
        }
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// All ids in creation order.
    pub fn ids(&self) -> impl Iterator<Item = ClauseId> + use<> {
        (0..self.records.len() as u32).map(ClauseId)
    }

    /// All records in creation order.
    pub fn records(&self) -> &[Record] {
        &self.records
    }
}
