//! The data the TPTP reader produces and passes between its parts: roles,
//! parsed clauses and problems (`parser.rs`, `read.rs`), FOF formulas
//! before clausification (`clausify.rs`), the entries one file yields and
//! the [`Includer`] interface through which the file parser has `include`
//! directives resolved (`include.rs`). Kept apart so that the parser, the
//! include resolver and the clausifier each import it and none of them
//! imports another that imports it back.

use super::error::TptpError;
use super::szs::SzsStatus;
use crate::logic::{Literal, TermBank};
use std::fmt;
use std::path::{Path, PathBuf};

/// The role of an annotated formula (`<formula_role>` of the BNF).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Role {
    /// `axiom`
    Axiom,
    /// `hypothesis`
    Hypothesis,
    /// `definition`
    Definition,
    /// `assumption`
    Assumption,
    /// `lemma`
    Lemma,
    /// `theorem`
    Theorem,
    /// `corollary`
    Corollary,
    /// `conjecture`
    Conjecture,
    /// `negated_conjecture`
    NegatedConjecture,
    /// `plain`
    Plain,
    /// `type`
    Type,
    /// `interpretation`
    Interpretation,
    /// `fi_domain`
    FiDomain,
    /// `fi_functors`
    FiFunctors,
    /// `fi_predicates`
    FiPredicates,
    /// `unknown`
    Unknown,
}

impl Role {
    /// Every role, in BNF order.
    pub const ALL: [Role; 16] = [
        Role::Axiom,
        Role::Hypothesis,
        Role::Definition,
        Role::Assumption,
        Role::Lemma,
        Role::Theorem,
        Role::Corollary,
        Role::Conjecture,
        Role::NegatedConjecture,
        Role::Plain,
        Role::Type,
        Role::Interpretation,
        Role::FiDomain,
        Role::FiFunctors,
        Role::FiPredicates,
        Role::Unknown,
    ];

    /// The TPTP spelling, e.g. `negated_conjecture`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Axiom => "axiom",
            Role::Hypothesis => "hypothesis",
            Role::Definition => "definition",
            Role::Assumption => "assumption",
            Role::Lemma => "lemma",
            Role::Theorem => "theorem",
            Role::Corollary => "corollary",
            Role::Conjecture => "conjecture",
            Role::NegatedConjecture => "negated_conjecture",
            Role::Plain => "plain",
            Role::Type => "type",
            Role::Interpretation => "interpretation",
            Role::FiDomain => "fi_domain",
            Role::FiFunctors => "fi_functors",
            Role::FiPredicates => "fi_predicates",
            Role::Unknown => "unknown",
        }
    }

    /// The role with this TPTP spelling.
    pub fn from_name(s: &str) -> Option<Role> {
        Role::ALL.iter().copied().find(|r| r.as_str() == s)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where an annotated formula starts (the `cnf` keyword).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SourceInfo {
    /// The file (as resolved, not canonicalised; the origin for strings).
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl fmt::Display for SourceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.col)
    }
}

/// One `cnf` formula as read: literals in the order written, not normalised.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParsedClause {
    /// The formula name; a quoted name whose content is a lower word is
    /// stored without quotes (`'abc'` is `abc`), other quoted names keep them.
    pub name: String,
    /// The role.
    pub role: Role,
    /// The literals, in source order. Variables are `X0, X1, ...` numbered by
    /// first occurrence; `$false` and `~$true` literals are dropped; a `$true`
    /// (or `~$false`) literal is kept as `$true = $true` (only in tautologies).
    pub lits: Vec<Literal>,
    /// Where the formula starts.
    pub source: SourceInfo,
    /// The original variable names: `var_names[i]` is the name of `X<i>`.
    pub var_names: Vec<String>,
    /// The annotations (`<source>` and optional `<useful_info>`) as written,
    /// e.g. `file('x.ax',name)` or `inference(r,[status(thm)],[c1,c2])`.
    pub annotations: Option<String>,
    /// For a clause produced by clausifying a FOF formula: where it came
    /// from. `None` for a clause read as `cnf`.
    pub clausified: Option<Clausified>,
}

/// How a clause was made from FOF formulas.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Clausified {
    /// Its TSTP source, an `inference(clausify,[status(thm)],[...])`
    /// record citing lines of [`Problem::fof_lines`].
    pub source: String,
    /// The lines it cites.
    pub parents: Vec<String>,
    /// The clause in the variables of those lines (repeated literals
    /// merged, variables not yet renumbered): it follows from their
    /// matrices propositionally, which the checker confirms.
    pub raw: String,
    /// The formula the clause comes from, as read (closed TPTP text; for
    /// a conjecture, its negation): what a prompt shows a reader in place
    /// of the clausification.
    pub formula: String,
}

/// One line of the clausification derivation: a FOF formula as read (a
/// leaf citing `file(...)`), an introduced definition, or the formula after
/// one clausification step (an `inference(...)` record over earlier lines).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FofLine {
    /// The line's name, `f<N>` with a prefix no formula of the problem
    /// starts (followed by a digit) with, unique within the problem.
    pub name: String,
    /// The role: the input's for a leaf, `negated_conjecture` for the
    /// negated conjecture and what follows from it, `definition` for
    /// introduced definitions, `plain` otherwise.
    pub role: Role,
    /// The formula as TPTP text (closed).
    pub formula: String,
    /// The TSTP source: `file(...)`, `introduced(definition,...)` or
    /// `inference(rule,[status(..)...],[parents])`.
    pub source: String,
    /// The names of the lines this one is inferred from (empty for leaves
    /// and definitions).
    pub parents: Vec<String>,
}

impl FofLine {
    /// The rule that made the line: `input` for a `file(...)` leaf,
    /// `definition` for an introduced definition, else the inference's.
    pub fn rule(&self) -> &str {
        if self.source.starts_with("file(") {
            "input"
        } else if self.source.starts_with("introduced(") {
            "definition"
        } else {
            let rest = self.source.strip_prefix("inference(").unwrap_or("");
            rest.split(',').next().unwrap_or("")
        }
    }

    /// The annotated formula: `fof(name, role, formula, source).`
    pub fn to_tptp(&self) -> String {
        format!(
            "fof({}, {}, {}, {}).",
            self.name, self.role, self.formula, self.source
        )
    }
}

/// A parsed problem: the clauses of the file and of everything it includes.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Problem {
    /// The clauses, in reading order (an include's clauses at the include).
    pub clauses: Vec<ParsedClause>,
    /// Clauses with a true literal (`$true` or `~$false`). They are kept out
    /// of `clauses` so that no caller uses them by mistake; each holds its
    /// true literal as `$true = $true` so it still reads as a tautology.
    pub tautologies: Vec<ParsedClause>,
    /// Every file read from disk, in the order first read, without repeats
    /// (for [`parse_str`](super::parse_str), only the included files).
    pub files: Vec<PathBuf>,
    /// The word of the top file's `% Status : X` header line, if any.
    pub status: Option<String>,
    /// The names of the FOF conjectures, whose conjunction was negated and
    /// clausified into `clauses` (role `negated_conjecture`); empty if none.
    /// A problem with one is answered Theorem / CounterSatisfiable.
    pub fof_conjectures: Vec<String>,
    /// What clausifying the FOF formulas introduced.
    pub clausify: ClausifyStats,
    /// Symbols of the bank with an index below this were there before
    /// clausification (read from the input, or the bank's own); the rest
    /// were introduced by it (Skolem functions, definition predicates).
    pub input_symbols: usize,
    /// The clausification derivation of the FOF formulas, premises first:
    /// the lines that [`ParsedClause::clausified`] sources cite, and theirs.
    pub fof_lines: Vec<FofLine>,
}

/// The lines of `lines` (a problem's [`Problem::fof_lines`]) that the
/// sources `cited` (TSTP source texts) name, with their ancestors, in
/// derivation order.
pub fn fof_lines_for<'a, 'b>(
    lines: &'a [FofLine],
    cited: impl IntoIterator<Item = &'b str>,
) -> Vec<&'a FofLine> {
    let mut need: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for src in cited {
        for l in lines {
            if cites(src, &l.name) {
                need.insert(&l.name);
            }
        }
    }
    for l in lines.iter().rev() {
        if need.contains(l.name.as_str()) {
            for p in &l.parents {
                need.insert(p);
            }
        }
    }
    lines
        .iter()
        .filter(|l| need.contains(l.name.as_str()))
        .collect()
}

/// Whether the TSTP source text `src` names `name` as a parent (a whole
/// word between `[`, `,` and `]`).
fn cites(src: &str, name: &str) -> bool {
    src.match_indices(name).any(|(i, _)| {
        let before = src[..i].chars().next_back();
        let after = src[i + name.len()..].chars().next();
        matches!(before, Some('[' | ',')) && matches!(after, Some(']' | ','))
    })
}

impl Problem {
    /// The header status as an SZS value, if present and known.
    pub fn szs_status(&self) -> Option<SzsStatus> {
        self.status.as_deref().and_then(SzsStatus::from_name)
    }
}

/// A first-order formula over the literals of a [`crate::logic::TermBank`].
/// Variables are bank variables; a quantifier binds the indices it lists.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Formula {
    /// `$true`
    True,
    /// `$false`
    False,
    /// An atom or (dis)equation, with its sign.
    Lit(Literal),
    /// `~F`
    Not(Box<Formula>),
    /// `F1 & ... & Fn`
    And(Vec<Formula>),
    /// `F1 | ... | Fn`
    Or(Vec<Formula>),
    /// `F => G` (`G <= F` is read as this)
    Imp(Box<Formula>, Box<Formula>),
    /// `F <=> G` (`F <~> G` is read as `~(F <=> G)`)
    Iff(Box<Formula>, Box<Formula>),
    /// `! [X1,...,Xn] : F`
    Forall(Vec<u32>, Box<Formula>),
    /// `? [X1,...,Xn] : F`
    Exists(Vec<u32>, Box<Formula>),
}

impl Formula {
    /// `~self`.
    pub fn negated(self) -> Formula {
        Formula::Not(Box::new(self))
    }

    /// Number of nodes (for size bounds and tests).
    pub fn size(&self) -> usize {
        match self {
            Formula::True | Formula::False | Formula::Lit(_) => 1,
            Formula::Not(f) | Formula::Forall(_, f) | Formula::Exists(_, f) => 1 + f.size(),
            Formula::And(fs) | Formula::Or(fs) => 1 + fs.iter().map(Formula::size).sum::<usize>(),
            Formula::Imp(a, b) | Formula::Iff(a, b) => 1 + a.size() + b.size(),
        }
    }
}

/// One `fof` annotated formula as read, before clausification.
#[derive(Clone, Debug)]
pub(crate) struct FofInput {
    /// The formula name (quoted lower words unquoted, as for `cnf`).
    pub name: String,
    /// The role.
    pub role: Role,
    /// The formula, closed (free variables universally quantified).
    pub formula: Formula,
    /// Where the formula starts.
    pub source: SourceInfo,
    /// `var_names[i]` is the name of bank variable `i` in the formula.
    pub var_names: Vec<String>,
}

/// One annotated formula read from a file, before clausification.
#[derive(Debug)]
pub(crate) enum Entry {
    /// A `cnf` clause, with whether it holds a true literal.
    Clause {
        clause: ParsedClause,
        tautology: bool,
    },
    /// A `fof` formula, clausified once the whole problem is read.
    Fof(FofInput),
}

impl Entry {
    /// The formula name (what include selections match).
    pub fn name(&self) -> &str {
        match self {
            Entry::Clause { clause, .. } => &clause.name,
            Entry::Fof(f) => &f.name,
        }
    }
}

/// What one file yielded.
pub(crate) struct FileOutput {
    pub entries: Vec<Entry>,
    pub status: Option<String>,
}

/// What the file parser needs from whoever reads files: the term bank to
/// build in and the resolution of `include` directives.
pub(crate) trait Includer {
    /// The bank terms are built in.
    fn bank(&mut self) -> &mut TermBank;
    /// Reads the file an `include('name')` at `from:line:col` refers to and
    /// returns its entries and the path it was found at.
    fn include(
        &mut self,
        name: &str,
        from: &Path,
        from_dir: &Path,
        line: u32,
        col: u32,
    ) -> Result<(Vec<Entry>, PathBuf), TptpError>;
    /// Whether a file with no formulas reads as an empty clause set
    /// (`IncludePolicy::allow_empty`) rather than an error.
    fn allow_empty(&self) -> bool {
        false
    }
}

/// The folder of `file`, or `.` when it has none.
pub(crate) fn dir_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Counts of what clausification introduced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClausifyStats {
    /// Clauses produced (definitions included, tautologies not).
    pub clauses: usize,
    /// Skolem symbols introduced.
    pub skolems: usize,
    /// Definition predicates introduced (for `<=>` operands and for
    /// distribution).
    pub definitions: usize,
    /// Clauses dropped as tautologies (complementary literals).
    pub tautologies: usize,
}
