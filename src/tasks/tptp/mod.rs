//! The three TPTP task families of seed 001 (`../shared/specs/tptp_tasks.md`):
//! conjecture entailment, minimal premise selection and proof graph
//! reconstruction. Each family generates an instance from one derivation
//! graph (a finished saturation run of one axiom file), renders its prompt
//! and gold answer, certifies the label with the built-in prover, and scores
//! model answers. This module holds what the families share: the
//! configuration, the graph wrapper with its ranked theorem pool, depth-d
//! premises, same-signature distractors and the text forms.

pub mod audit;
pub mod entail;
pub mod exploits;
pub mod family;
pub mod recon;
pub mod select;
pub mod stepwise;
pub mod twin;

use crate::interest::{Ranking, Scored, symbols};
use crate::logic::{Literal, SymbolId, TermBank, canonical_clause};
use crate::prover::{Outcome, Prover, ProverLimits};
use crate::saturation::{ClauseId, ClauseStore, RoundReport, Rule, State};
use crate::tptp::clause_to_tptp;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::HashSet;

/// Version of the TPTP task generators; recorded in the manifest and in
/// every record's `source` so a change of generation is visible.
pub const GENERATOR_VERSION: &str = "tptp-tasks-25";

/// One of the three families.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Does the conclusion follow from the premises? (True / False)
    Entailment,
    /// The smallest set of numbered premises that proves the theorem.
    Selection,
    /// The parent edges of a shuffled binary proof graph.
    Reconstruction,
    /// A chain of cited steps from listed premises to the theorem, every
    /// step checked by the prover (not generated unless listed).
    Derivation,
}

impl Family {
    /// All families, in output order.
    pub const ALL: [Family; 4] = [
        Family::Entailment,
        Family::Selection,
        Family::Reconstruction,
        Family::Derivation,
    ];

    /// The families generated when `[tasks.tptp] families` is not given:
    /// all but `derivation`, whose rows are opt-in (its answers are scored
    /// step by step with the prover, a different use from the others').
    pub const DEFAULT: [Family; 3] = [
        Family::Entailment,
        Family::Selection,
        Family::Reconstruction,
    ];

    /// The dataset config (subset) name, also the `task` column.
    pub fn config(self) -> &'static str {
        match self {
            Family::Entailment => "conjecture_entailment",
            Family::Selection => "premise_selection",
            Family::Reconstruction => "proof_reconstruction",
            Family::Derivation => "stepwise_derivation",
        }
    }

    /// The family of a `task` column value.
    pub fn from_config(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.config() == name)
    }

    /// The short name used in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Family::Entailment => "entailment",
            Family::Selection => "selection",
            Family::Reconstruction => "reconstruction",
            Family::Derivation => "derivation",
        }
    }

    /// One paragraph for the dataset card.
    pub fn description(self) -> &'static str {
        match self {
            Family::Entailment => {
                "Conjecture entailment: premises drawn from the derivation of a ranked theorem at depth d, kept or perturbed k times (each replacement matched to the premise it replaces in size, shape and overlap with the conclusion; a theorem is used only when both its kept and its perturbed version certify, so both labels come from the same theorems); answer `True` or `False`. True labels carry a checked refutation, False labels a checked finite countermodel."
            }
            Family::Selection => {
                "Minimal premise selection: a numbered pool of a minimum premise set plus same-signature distractors (the pool's size drawn per row, apart from the answer's size; near twins of premises exactly as close to the theorem as the premise); answer the sorted indices of a smallest subset that proves the theorem. The certificate proves each minimum answer and covers every smaller subset with a countermodel. Scoring: a minimum answer scores 1; every other answer scores 0, an insufficient one and a sufficient but larger one alike (listing the whole pool earns nothing). Sub-metrics: sufficient, minimal, size_credit (min_size / answer_size for a sufficient answer, else 0)."
            }
            Family::Reconstruction => {
                "Proof graph reconstruction: the shuffled clauses of a binary-inference proof of depth at least d with k to 2k-1 clauses, grown at random from the theorem, the starting premises named; answer one `CHILD <- PARENT_1, PARENT_2` line per derived clause. Every gold step carries a checked refutation of `PARENT_1, PARENT_2 |- CHILD`. Scoring: 1 when every step is sound (gold, or confirmed by the prover), else 0 (a graph with an unsound step is no proof); sub-metrics steps_sound (the share of sound steps, a process reward), edge_precision, edge_recall."
            }
            Family::Derivation => {
                "Step-verified derivation: the starting premises of a binary proof of depth at least d with k to 2k-1 clauses, listed in random order as P1..Pn, and the theorem as the conclusion; answer a chain of lines `S<j>: CLAUSE by REF, REF`, each citing one or two premises or earlier steps, the last one the conclusion. The gold chain is the proof's derived clauses, parents first, each step with a checked refutation of its cited clauses plus its negation. Scoring: every step is checked on its own as exactly one inference of the calculus from what it cites (resolution, superposition, rewriting with a unit equation, unit deletion, factoring, equality resolution or factoring; up to variable names, literal order and equation sides), by the independent checker, with no proof search; a restated, tautological or unused step is `redundant` and earns nothing; the value is the useful steps over the steps written, halved when the chain does not end in the conclusion, so 1 only for a chain of verified inferences, each used on the way to the conclusion, and padding never raises it; per-step verdicts in `steps`, sub-metrics verified_share, useful_share, reaches_conclusion. Citing anything but a premise or an earlier step, or a step that cites nothing, is cheating."
            }
        }
    }
}

/// Per-level parameters of one family: level `l` uses `depth[l-1]` and
/// `k[l-1]` (perturbations for entailment, distractors for selection, the
/// smallest node count for reconstruction and derivation). Levels go on
/// past the lists: beyond the last entry a value grows by the lists' last
/// step (last minus second-to-last, at least 1) per level
/// ([`LevelMap::at`]), so with the defaults level `l` > 4 has depth `l`
/// and
///
/// | family | k at level 4 | step | k at level 8 |
/// |---|---:|---:|---:|
/// | entailment (perturbations) | 6 | 2 | 14 |
/// | selection (distractors) | 8 | 2 | 16 |
/// | reconstruction (nodes) | 16 | 4 | 32 |
/// | derivation (nodes) | 12 | 3 | 24 |
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LevelMap {
    /// Proof depth d from level 1 on (at least one entry).
    pub depth: Vec<u32>,
    /// Perturbations, distractors or node counts k from level 1 on (at
    /// least one entry).
    pub k: Vec<u32>,
}

impl Default for LevelMap {
    fn default() -> Self {
        LevelMap {
            depth: vec![1, 2, 3, 4],
            k: vec![2, 3, 4, 6],
        }
    }
}

impl LevelMap {
    /// (d, k) at `level` (1-based; 0 reads as 1): the listed values, then
    /// the linear continuation described on [`LevelMap`].
    pub fn at(&self, level: u8) -> (u32, u32) {
        (extend(&self.depth, level), extend(&self.k, level))
    }
}

/// The value of a per-level list at `level`: its entry, or past the end
/// the last entry plus the last step (at least 1) per level beyond.
fn extend(values: &[u32], level: u8) -> u32 {
    let i = usize::from(level.max(1)) - 1;
    match values {
        [] => 0,
        _ if i < values.len() => values[i],
        [.., before, last] => {
            let step = last.saturating_sub(*before).max(1);
            last.saturating_add(step.saturating_mul((i + 1 - values.len()) as u32))
        }
        [only] => only.saturating_add((i + 1 - values.len()) as u32),
    }
}

/// How an entailment row states its conclusion (`[tasks.tptp] conclusion`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConclusionForm {
    /// The theorem clause as it was derived (the default).
    #[default]
    Clause,
    /// Its universal closure, a closed FOF formula
    /// ([`conclusion_formula`]), kept in the metadata as
    /// `conclusion_formula`; the label and certificate are the clause's
    /// (the two have the same models).
    Formula,
}

/// The closed FOF formula that states a theorem clause (given as TPTP
/// text): its universal closure ([`crate::tptp::clause_closure_to_tptp`]).
/// `verify` recomputes it from the row's theorem, so a stored formula that
/// is not the theorem's closure fails there.
pub fn conclusion_formula(theorem: &str) -> Result<String, String> {
    let mut bank = crate::logic::TermBank::new();
    let lits = crate::tptp::parse_clause_str(&mut bank, theorem)
        .map_err(|e| format!("theorem {theorem:?}: {e}"))?;
    Ok(crate::tptp::clause_closure_to_tptp(&bank, &lits))
}

/// The `[tasks.tptp]` section of the configuration: what `saturate --domain`
/// generates after saturation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TasksConfig {
    /// Domains run when `--domain` is not given (e.g. the paper layout).
    pub domains: Vec<String>,
    /// Families to generate (`entailment`, `selection`, `reconstruction`).
    pub families: Vec<Family>,
    /// Difficulty levels to generate (any of 1-255; levels past the
    /// [`LevelMap`] lists continue them, see there).
    pub levels: Vec<u8>,
    /// Instances per (domain, family, level).
    pub count: usize,
    /// Theorems are drawn from this many top-ranked candidates per file.
    pub pool_size: usize,
    /// Candidates with an interestingness score below this are never drawn.
    pub min_score: f64,
    /// Share of True labels in entailment (spread evenly over the indices).
    pub true_share: f64,
    /// Entailment: the conclusion as a clause or as a closed FOF formula.
    pub conclusion: ConclusionForm,
    /// Attempts per instance slot before the slot is given up (each attempt
    /// draws a new theorem or perturbation; all are counted in the summary).
    pub max_attempts: u32,
    /// Largest depth-d premise set used (bigger ones are redrawn): keeps the
    /// exact minimum search of premise selection small.
    pub max_premises: usize,
    /// Selection: the largest share of a cell's rows whose minimum answer
    /// is the same set of clauses (at least 2 rows each; 1.0: no limit).
    /// On a small theory the deep theorems are mostly consequences of the
    /// same few axioms (ALG level 4: one premise set in all 24 rows), and
    /// a reader who learns that set answers without reading the theorem.
    pub max_answer_share: f64,
    /// Selection: how many more rows of a cell a pool clause may be in the
    /// answer of than a distractor, as a share of `count` (at least 4
    /// rows). A row that would take one of its answer's clauses past it is
    /// skipped as a repeat. On a small theory a few clauses are premises
    /// of most deep theorems and cannot stand beside many others without
    /// giving a smaller answer (TOP level 3: `meet(X0,X1)=meet(X1,X0)` in
    /// 33 answers of 200 rows, never a distractor), so a reader that
    /// learns which texts are usually answers, together with how a clause
    /// relates to the theorem, beat the majority by 10.5 points (7.7 with
    /// this limit, the cell still full; it walked 377 slots instead of
    /// 206).
    pub max_answer_lead: f64,
    /// Selection: candidate slots a cell may use per requested row. Rows
    /// over the per-answer limit are skipped as repeats and the cell draws
    /// on, up to `selection_slots` × `count` slots; a small theory, whose
    /// deep theorems share few minimum answers, needs more of them (GEO
    /// level 4 at count 50 used 138). A cell that fills sooner stops there,
    /// so raising it changes only cells that came up short.
    pub selection_slots: u32,
    /// Entailment: depth d and perturbations k per level.
    pub entailment: LevelMap,
    /// Selection: depth d and distractors k per level (each row's pool
    /// size is drawn from `min(2d, max_premises)` plus 2 to plus k, see
    /// `select::pool_sizes`).
    pub selection: LevelMap,
    /// Reconstruction: smallest depth d and node count k per level.
    pub reconstruction: LevelMap,
    /// Derivation: smallest depth d and node count k per level (the
    /// proof graph grown as reconstruction's; its leaves are the premises).
    pub derivation: LevelMap,
    /// Rows per Parquet shard.
    pub max_rows_per_shard: usize,
    /// Work limits of the prover while generating (labels, minimum
    /// searches, steps). Smaller than `[prover]`: a question the prover
    /// cannot settle quickly is redrawn rather than waited for; the
    /// scorers use `[prover]`.
    pub prover: ProverLimits,
}

/// The generation prover's default limits.
fn generation_limits() -> ProverLimits {
    ProverLimits {
        quick_processed: 40,
        max_processed: 200,
        quick_model_size: 4,
        max_model_size: 6,
        quick_ground_clauses: 20_000,
        max_ground_clauses: 400_000,
        quick_sat_conflicts: 2_000,
        sat_conflicts: 10_000,
        max_clause_weight: 60,
        ..ProverLimits::default()
    }
}

impl Default for TasksConfig {
    fn default() -> Self {
        TasksConfig {
            domains: Vec::new(),
            families: Family::DEFAULT.to_vec(),
            levels: vec![1, 2, 3, 4],
            count: 10,
            pool_size: 500,
            min_score: 0.0,
            true_share: 0.5,
            conclusion: ConclusionForm::Clause,
            max_attempts: 12,
            max_premises: 10,
            max_answer_share: 0.1,
            max_answer_lead: 0.04,
            selection_slots: 4,
            entailment: LevelMap::default(),
            selection: LevelMap {
                depth: vec![1, 2, 3, 4],
                k: vec![2, 4, 6, 8],
            },
            reconstruction: LevelMap {
                depth: vec![1, 2, 3, 4],
                k: vec![5, 8, 12, 16],
            },
            derivation: LevelMap {
                depth: vec![1, 2, 3, 4],
                k: vec![5, 6, 9, 12],
            },
            max_rows_per_shard: 10_000,
            prover: generation_limits(),
        }
    }
}

impl TasksConfig {
    /// (d, k) of a family at a level.
    pub fn params(&self, family: Family, level: u8) -> (u32, u32) {
        let m = match family {
            Family::Entailment => &self.entailment,
            Family::Selection => &self.selection,
            Family::Reconstruction => &self.reconstruction,
            Family::Derivation => &self.derivation,
        };
        m.at(level)
    }

    /// Checks the values a TOML file cannot constrain by type.
    pub fn validate(&self) -> Result<(), String> {
        if self.levels.contains(&0) {
            return Err("tasks.tptp.levels: levels start at 1".into());
        }
        if !(0.0..=1.0).contains(&self.true_share) {
            return Err("tasks.tptp.true_share must be in [0, 1]".into());
        }
        for (name, m) in [
            ("entailment", &self.entailment),
            ("selection", &self.selection),
            ("reconstruction", &self.reconstruction),
            ("derivation", &self.derivation),
        ] {
            if m.depth.contains(&0) {
                return Err(format!("tasks.tptp.{name}.depth: depths start at 1"));
            }
            if m.depth.is_empty() || m.k.is_empty() {
                return Err(format!(
                    "tasks.tptp.{name}: depth and k need at least one entry (level 1's)"
                ));
            }
        }
        if !(self.max_answer_share > 0.0 && self.max_answer_share <= 1.0) {
            return Err("tasks.tptp.max_answer_share must be in (0, 1]".into());
        }
        if !(self.max_answer_lead > 0.0 && self.max_answer_lead <= 1.0) {
            return Err("tasks.tptp.max_answer_lead must be in (0, 1]".into());
        }
        if self.selection_slots == 0 || self.selection_slots > 1000 {
            return Err("tasks.tptp.selection_slots must be in 1-1000".into());
        }
        if self.max_premises == 0 || self.max_premises > 20 {
            return Err("tasks.tptp.max_premises must be in 1-20".into());
        }
        if self.max_rows_per_shard == 0 {
            return Err("tasks.tptp.max_rows_per_shard must be at least 1".into());
        }
        if self.max_attempts == 0 {
            return Err("tasks.tptp.max_attempts must be at least 1".into());
        }
        Ok(())
    }
}

/// Why an attempt produced no instance; each reason is counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    /// The drawn theorem has no premises at exactly depth d.
    TooShallow,
    /// The depth-d premise set exceeds `max_premises`.
    TooManyPremises,
    /// The prover returned Unknown.
    Unknown,
    /// A False label had only saturation evidence (not re-checkable).
    NoModel,
    /// The certified label differs from the slot's target label.
    WrongLabel,
    /// Degenerate: empty premises, or the theorem among them.
    Degenerate,
    /// The premises are inconsistent on their own.
    Inconsistent,
    /// Selection: a subset of the pool smaller than the minimum proves it.
    DistractorEntails,
    /// Reconstruction: no binary proof graph of exactly depth d, or two
    /// nodes are variants.
    NoProofGraph,
    /// Reconstruction: a collapsed step did not certify.
    StepNotCertified,
    /// Not enough distractors with the theorem's symbols.
    NoDistractors,
    /// Selection: more than one premise of the minimum answer has no
    /// distractor of its shape in the pool (see `select::unmatched`).
    UnmatchedPremises,
    /// Reconstruction: the proof graph starts from fewer than
    /// [`recon::MIN_STARTING_PREMISES`] clauses.
    FewStartingPremises,
    /// Derivation: a gold step is not one inference of the calculus from
    /// the clauses it cites (see [`stepwise`]).
    NotOneInference,
}

/// A generated, certified instance, ready to become a record.
#[derive(Clone, Debug)]
pub struct Built {
    /// Prompt text.
    pub prompt: String,
    /// Gold answer.
    pub answer: String,
    /// Metadata JSON object.
    pub metadata: serde_json::Value,
    /// Certificate JSON object.
    pub certificate: serde_json::Value,
    /// Canonical key for deduplication.
    pub key: String,
    /// Rows sharing a group are limited per cell (see
    /// [`crate::tasks::family::Built::group`]): selection's minimum answer.
    pub group: Option<String>,
    /// Label class for the summary (`True`, `False`, answer size, ...).
    pub label: String,
    /// Given clauses processed by the prover for this instance.
    pub prover_processed: u64,
}

/// Per (depth, premise limit), the premise pool of
/// [`Graph::depth_premise_pool`] and the number of theorems it counts
/// ([`Graph::counted_premise_pool`]).
type PremisePools =
    std::collections::BTreeMap<(u32, usize), (u32, std::sync::Arc<Vec<(ClauseId, u32)>>)>;

/// One saturated axiom file, ready for task generation.
pub struct Graph {
    /// The term bank of the saturation run.
    pub bank: TermBank,
    /// The clause store (derivation DAG) of the run.
    pub store: ClauseStore,
    /// Domain code.
    pub domain: String,
    /// Axiom file stem.
    pub name: String,
    /// Ranked theorem candidates (top `pool_size`, score ≥ `min_score`,
    /// distinct up to variants).
    pub pool: Vec<Scored>,
    /// Clauses usable as distractors: the final active set.
    pub active: Vec<ClauseId>,
    /// What matching reads of each active clause (same order), computed
    /// once: every replacement and distractor draw compares all of them.
    active_surface: Vec<Surface>,
    /// Position of each active clause in `active`.
    active_index: std::collections::HashMap<ClauseId, usize>,
    /// The greatest premise distance of each pool theorem (same order):
    /// P_d(T) exists exactly for d up to it.
    reach: Vec<u32>,
    /// Per premise depth d (index d - 1), over the pool theorems whose
    /// P_d(T) exists and has at most `max_premises` clauses (the theorems
    /// an entailment row of depth d may ask about): how many there are,
    /// and for each clause among their P_d(T), in how many P_d(T) and
    /// among how many of those theorems' ancestors it is
    /// ([`Graph::premise_weight`]).
    premise_stats: Vec<PremiseStats>,
    /// A finite model of the whole axiom file, when one was found: every
    /// clause of the graph is then true in it, so no premise set drawn from
    /// the graph is inconsistent.
    pub consistent: bool,
    /// The rounds of iterative saturation that made the store (empty for
    /// one round; [`Graph::with_rounds`]).
    pub rounds: Vec<RoundReport>,
    /// Per record: reached only through an earlier round's lemma
    /// ([`crate::saturation::via_lemma`]; empty for one round).
    via_lemma: Vec<bool>,
    /// Per depth and premise limit, once computed:
    /// [`Graph::depth_premise_pool`].
    premise_pools: std::sync::Mutex<PremisePools>,
    /// Per entailment depth and replacement count, once computed:
    /// [`Graph::swap_weights`].
    swap_weights: std::sync::Mutex<SwapWeights>,
    /// `max_premises` of the configuration the graph was made with: the
    /// most depth-d premises a row's theorem may have.
    max_premises: usize,
}

/// [`Graph::swap_weights`] per (depth, replacement count).
type SwapWeights = std::collections::HashMap<
    (u32, u32),
    std::sync::Arc<std::sync::OnceLock<std::sync::Arc<std::collections::HashMap<ClauseId, f64>>>>,
>;

/// The farthest an entailment replacement may be from the premise it
/// replaces (`Profile::distance`): about a fifth longer or shorter with
/// the same overlap, literals and foreign symbols, or one foreign symbol
/// and a tenth in length. A premise with nothing that close is not
/// replaced (in a small theory, a long axiom replaced by whatever shorter
/// axiom is nearest made the perturbed rows the short ones). Selection
/// distractors are not bounded: there the bound cost more rows than it
/// removed tells.
pub const MAX_PROFILE_DISTANCE: f64 = 1.0;

/// Entailment premise statistics of one premise depth
/// ([`Graph::premise_weight`]).
#[derive(Clone, Debug, Default)]
struct PremiseStats {
    /// Pool theorems whose depth-d premises exist and are few enough.
    theorems: u32,
    /// Per clause shown among their depth-d premises: in how many of their
    /// premise sets, and among how many of their ancestors.
    clauses: std::collections::HashMap<ClauseId, (u32, u32)>,
    /// Per pair (a, b): for how many of the theorems a is a background
    /// axiom among the depth-d premises and b one that is not, or a is a
    /// premise that is not an axiom and b a clause some theorem lists that
    /// is not an ancestor ([`Graph::swap_chance`]).
    swaps: std::collections::HashMap<(ClauseId, ClauseId), u32>,
}

/// The profile distance over which [`Graph::take_weighted`] makes a
/// candidate `e` times less likely (0.25: an eighth longer or shorter).
pub const WEIGHT_SCALE: f64 = 0.25;

/// What the matching reads of one clause: its symbols, printed length and
/// literal keys (a hash of each literal's canonical form, variables renamed
/// per literal; only compared for equality).
#[derive(Clone, Debug)]
struct Surface {
    syms: Vec<SymbolId>,
    chars: usize,
    lit_keys: Vec<u64>,
}

impl Surface {
    fn of(bank: &TermBank, lits: &[Literal]) -> Surface {
        let lit_keys = lits
            .iter()
            .map(|l| {
                // The std SipHash with its fixed default keys: deterministic.
                let mut h = std::hash::DefaultHasher::new();
                std::hash::Hash::hash(&canonical_clause(bank, std::slice::from_ref(l)), &mut h);
                std::hash::Hasher::finish(&h)
            })
            .collect();
        Surface {
            syms: symbols(bank, lits),
            chars: clause_to_tptp(bank, lits).len(),
            lit_keys,
        }
    }
}

/// What a reader sees of a clause next to a theorem without reasoning:
/// the quantities the shortcut audit measures and that a replacement or
/// distractor must match.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Profile {
    /// Jaccard overlap of the clause's symbols with the theorem's.
    overlap: f64,
    /// Printed length.
    chars: f64,
    /// Literal count.
    literals: f64,
    /// Literals equal (up to variable names) to a literal of the theorem.
    shared_literals: f64,
    /// Symbols that do not occur in the theorem.
    foreign: f64,
}

impl Profile {
    /// How far apart two profiles are: overlap difference, twice the
    /// relative difference of length (the most visible of all), the
    /// relative difference of literal count, and half the differences of
    /// shared literals and of foreign symbols.
    fn distance(&self, o: &Profile) -> f64 {
        (self.overlap - o.overlap).abs()
            + 2.0 * (self.chars - o.chars).abs() / o.chars.max(1.0)
            + (self.literals - o.literals).abs() / o.literals.max(1.0)
            + 0.5 * (self.shared_literals - o.shared_literals).abs()
            + 0.5 * (self.foreign - o.foreign).abs()
    }
}

/// The theorem candidates of a ranking, best first: score at least
/// `min_score`, distinct up to variants, at most `pool_size` (a [`Graph`]'s
/// pool).
pub fn theorem_pool(
    bank: &TermBank,
    store: &ClauseStore,
    ranking: &Ranking,
    cfg: &TasksConfig,
) -> Vec<Scored> {
    let mut seen = HashSet::new();
    ranking
        .ranked
        .iter()
        .filter(|s| s.score >= cfg.min_score)
        .filter(|s| seen.insert(canonical_clause(bank, &store.clause(s.id).lits)))
        .take(cfg.pool_size)
        .cloned()
        .collect()
}

impl Graph {
    /// Wraps a finished run (its bank and store, taken out of the
    /// saturator so the graph can be shared between threads) and keeps the
    /// top of its ranking as the theorem pool.
    pub fn new(
        bank: TermBank,
        store: ClauseStore,
        ranking: Ranking,
        domain: &str,
        name: &str,
        cfg: &TasksConfig,
        consistent: bool,
    ) -> Graph {
        let pool = theorem_pool(&bank, &store, &ranking, cfg);
        let active: Vec<ClauseId> = store
            .ids()
            .filter(|&c| store.get(c).state == State::Active && !store.clause(c).is_empty())
            .collect();
        let active_index = active.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let active_surface = active
            .iter()
            .map(|&c| Surface::of(&bank, &store.clause(c).lits))
            .collect();
        let mut g = Graph {
            bank,
            store,
            domain: domain.to_string(),
            name: name.to_string(),
            pool,
            active,
            active_surface,
            active_index,
            reach: Vec::new(),
            premise_stats: Vec::new(),
            consistent,
            rounds: Vec::new(),
            via_lemma: Vec::new(),
            premise_pools: Default::default(),
            swap_weights: Default::default(),
            max_premises: cfg.max_premises,
        };
        let mut stats: Vec<PremiseStats> = Vec::new();
        // A theorem counts at depth d when its P_d(T) holds few enough.
        let fits = |dist: &[(ClauseId, u32)], d: u32| {
            dist.iter()
                .filter(|&&(c, k)| g.is_depth_premise(c, k, d))
                .count()
                <= cfg.max_premises
        };
        let mut reach = Vec::with_capacity(g.pool.len());
        let mut all_dists = Vec::with_capacity(g.pool.len());
        for s in &g.pool {
            let dist = g.distances(s.id);
            let r = dist.iter().map(|p| p.1).max().unwrap_or(0);
            reach.push(r);
            if stats.len() < r as usize {
                stats.resize_with(r as usize, Default::default);
            }
            // P_d(T) as `depth_premises` draws it, for every d it exists at.
            for d in 1..=r {
                let in_premises = |c: ClauseId, k: u32| g.is_depth_premise(c, k, d);
                if !fits(&dist, d) {
                    continue;
                }
                let st = &mut stats[d as usize - 1];
                st.theorems += 1;
                for &(c, k) in dist.iter().filter(|&&(_, k)| k > 0) {
                    let e = st.clauses.entry(c).or_default();
                    e.1 += 1;
                    if in_premises(c, k) {
                        e.0 += 1;
                    }
                }
                // Background axioms listed, and spare (an ancestor axiom
                // not listed): each pair is a possible replacement.
                let (listed, spare): (Vec<_>, Vec<_>) = dist
                    .iter()
                    .filter(|&&(c, k)| k > 0 && g.store.get(c).rule == Rule::Input)
                    .partition(|&&(c, k)| in_premises(c, k));
                for &(a, _) in &listed {
                    for &(b, _) in &spare {
                        *st.swaps.entry((a, b)).or_default() += 1;
                    }
                }
            }
            all_dists.push(dist);
        }
        for st in &mut stats {
            st.clauses.retain(|_, e| e.0 > 0);
        }
        // Plain pairs (a, b): theorems listing a (not an axiom) that b, a
        // clause some theorem lists, is not an ancestor of.
        for (dist, &r) in all_dists.iter().zip(&reach) {
            let ancestors: HashSet<ClauseId> = dist.iter().map(|p| p.0).collect();
            for d in 1..=r {
                if !fits(dist, d) {
                    continue;
                }
                let in_premises = |c: ClauseId, k: u32| g.is_depth_premise(c, k, d);
                let st = &mut stats[d as usize - 1];
                let listed: Vec<ClauseId> = dist
                    .iter()
                    .filter(|&&(c, k)| {
                        k > 0 && in_premises(c, k) && g.store.get(c).rule != Rule::Input
                    })
                    .map(|p| p.0)
                    .collect();
                let takers: Vec<ClauseId> = st
                    .clauses
                    .keys()
                    .copied()
                    .filter(|b| !ancestors.contains(b))
                    .collect();
                for &a in &listed {
                    for &b in &takers {
                        *st.swaps.entry((a, b)).or_default() += 1;
                    }
                }
            }
        }
        g.reach = reach;
        g.premise_stats = stats;
        g
    }

    /// How many entailment theorems of depth `d` show clause `c` as a
    /// premise, per theorem that does not have `c` among its ancestors
    /// (at least one: the theorem asked about, for a replacement): 0 for a
    /// clause that no True row of depth `d` shows. A replacement drawn in
    /// proportion to it enters False rows about as often as True rows show
    /// it, whether few theorems or most use it: only the theorems that do
    /// not derive from it may take it as a replacement.
    pub fn premise_weight(&self, d: u32, c: ClauseId) -> f64 {
        let Some(st) = d
            .checked_sub(1)
            .and_then(|i| self.premise_stats.get(i as usize))
        else {
            return 0.0;
        };
        st.clauses.get(&c).map_or(0.0, |&(shown, ancestor_of)| {
            f64::from(shown) / f64::from(st.theorems.saturating_sub(ancestor_of).max(1))
        })
    }

    /// The probability that premise `a` of a depth-`d` entailment theorem
    /// may turn into clause `b` in its False row: `min(1, n(b, a) / n(a, b))`
    /// (the Metropolis rule), where `n(a, b)` counts the theorems that list
    /// `a` among their depth-`d` premises and could take `b` in its place:
    /// for a background axiom `a`, those having `b` as an unlisted
    /// background axiom; for any other `a`, those that `b` (a clause some
    /// theorem lists) is not an ancestor of. The
    /// expected number of theorems in which `a` turns into `b` is then
    /// `min(n(a, b), n(b, a))`, the same both ways, so that no clause leaves
    /// True rows' premises for False rows' more often than it comes back.
    ///
    /// Before, a candidate was drawn in proportion to
    /// [`Graph::premise_weight`] among those of its premise, so a premise
    /// took whichever candidates it had: a clause that most premise sets
    /// list left them for clauses that few list and seldom came back. On
    /// LAT level 2 at 200 rows per cell the commutativity axioms left 47
    /// True rows' premises and entered 19 False rows', the absorption laws
    /// left 14 and entered 42 (naive Bayes over the premises' words read
    /// 66-69% over three seeds).
    pub fn swap_chance(&self, d: u32, a: ClauseId, b: ClauseId) -> f64 {
        let Some(st) = d
            .checked_sub(1)
            .and_then(|i| self.premise_stats.get(i as usize))
        else {
            return 0.0;
        };
        let n = |x, y| f64::from(st.swaps.get(&(x, y)).copied().unwrap_or(0));
        (n(b, a) / n(a, b).max(1.0)).min(1.0)
    }

    /// Each clause's weight `w` in the entailment replacement chance
    /// `min(1, swap_chance(a, b) * w(b) / w(a))` of premise `a` turning
    /// into `b` at depth `d` with up to `k` replacements (absent: 1),
    /// calibrated once per (d, k) by [`entail::calibrate`] so that, over
    /// the level's theorems, every clause enters False rows about as often
    /// as it leaves True rows.
    pub fn swap_weights(
        &self,
        d: u32,
        k: u32,
    ) -> std::sync::Arc<std::collections::HashMap<ClauseId, f64>> {
        // The map's lock is held only to find the key's cell: levels
        // calibrate in parallel, and a worker wanting a level being
        // calibrated waits for it.
        let cell = self
            .swap_weights
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((d, k))
            .or_default()
            .clone();
        cell.get_or_init(|| {
            let start = std::time::Instant::now();
            let w = entail::calibrate(self, d, k);
            tracing::debug!(
                "{}: entailment swap weights for depth {d}, k {k}: {} clauses in {:.2}s",
                self.name,
                w.len(),
                start.elapsed().as_secs_f64()
            );
            std::sync::Arc::new(w)
        })
        .clone()
    }

    /// The term bank.
    pub fn bank(&self) -> &TermBank {
        &self.bank
    }

    /// The literals of a clause.
    pub fn lits(&self, c: ClauseId) -> &[Literal] {
        &self.store.clause(c).lits
    }

    /// A clause in TPTP syntax.
    pub fn text(&self, c: ClauseId) -> String {
        clause_to_tptp(&self.bank, self.lits(c))
    }

    /// Canonical form (variants compare equal).
    pub fn canon(&self, c: ClauseId) -> String {
        canonical_clause(&self.bank, self.lits(c))
    }

    /// Distances from `t` over premise edges (breadth-first, first
    /// discovery), as (clause, distance) sorted by clause id.
    fn distances(&self, t: ClauseId) -> Vec<(ClauseId, u32)> {
        let mut dist: std::collections::BTreeMap<ClauseId, u32> = Default::default();
        let mut queue = std::collections::VecDeque::new();
        dist.insert(t, 0);
        queue.push_back(t);
        while let Some(x) = queue.pop_front() {
            let d = dist[&x];
            for p in self.store.get(x).premises() {
                if let std::collections::btree_map::Entry::Vacant(e) = dist.entry(p) {
                    e.insert(d + 1);
                    queue.push_back(p);
                }
            }
        }
        dist.into_iter().collect()
    }

    /// The depth-d premises P_d(T): ancestors at exactly distance d, plus
    /// input clauses reached at a smaller distance; `None` when no ancestor
    /// lies at distance d. P_d(T) ⊨ T because every non-input clause closer
    /// than d has all its premises at distance ≤ d (induction on clause id).
    pub fn depth_premises(&self, t: ClauseId, d: u32) -> Option<Vec<ClauseId>> {
        let dist = self.distances(t);
        if !dist.iter().any(|&(_, k)| k == d) {
            return None;
        }
        Some(
            dist.into_iter()
                .filter(|&(c, k)| self.is_depth_premise(c, k, d))
                .map(|(c, _)| c)
                .collect(),
        )
    }

    /// Whether an ancestor `c` at distance `k` of a theorem belongs to its
    /// P_d(T): at exactly distance `d`, or an input clause reached sooner.
    fn is_depth_premise(&self, c: ClauseId, k: u32, d: u32) -> bool {
        k == d || (k < d && self.store.get(c).rule == Rule::Input)
    }

    /// Every clause that is a depth-d premise ([`Graph::depth_premises`])
    /// of a theorem of the pool with at most `limit` of them, one per
    /// variant class, in clause-id order, each with the number of distinct
    /// premise sets of such theorems it belongs to (its popularity: a
    /// cell's rows come from distinct answers far more evenly than from
    /// theorems, since it takes only so many rows of one answer); computed once
    /// per depth and limit. These are the clauses a level of depth d whose
    /// answers hold at most `limit` clauses shows as premises (a theorem
    /// with more rarely makes a row of that level: at depth 1 its
    /// premises are all needed, and its clauses, counted, made FLD's
    /// distractors the clauses that level's rows seldom had as premises):
    /// drawn as selection distractors about as often as they are premises,
    /// a clause's text says nothing about its label.
    pub fn depth_premise_pool(&self, d: u32, limit: usize) -> std::sync::Arc<Vec<(ClauseId, u32)>> {
        self.counted_premise_pool(d, limit).1
    }

    /// [`Graph::depth_premise_pool`] with the number of distinct premise
    /// sets its popularities count over (of the pool theorems with at most
    /// `limit` depth-d premises).
    pub fn counted_premise_pool(
        &self,
        d: u32,
        limit: usize,
    ) -> (u32, std::sync::Arc<Vec<(ClauseId, u32)>>) {
        let mut cache = self.premise_pools.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache.get(&(d, limit)) {
            return p.clone();
        }
        let mut theorems = 0u32;
        // Premise sets (up to variants) already counted: many theorems of
        // a level share one (TOP level 3: 355 theorems, 195 sets), and a
        // cell takes only so many rows of one answer (`max_answer_share`).
        let mut sets_seen: std::collections::HashSet<Vec<String>> = Default::default();
        // Per variant class: its first clause id and its popularity.
        let mut classes: std::collections::BTreeMap<String, (ClauseId, u32)> = Default::default();
        for (s, &reach) in self.pool.iter().zip(&self.reach) {
            if reach < d {
                continue;
            }
            let Some(ps) = self.depth_premises(s.id, d) else {
                continue;
            };
            if ps.len() > limit {
                continue;
            }
            let keys: std::collections::BTreeMap<String, ClauseId> = ps
                .into_iter()
                .filter(|&c| !self.store.clause(c).is_empty())
                .map(|c| (self.canon(c), c))
                .collect();
            if !sets_seen.insert(keys.keys().cloned().collect::<Vec<String>>()) {
                continue;
            }
            theorems += 1;
            for (key, c) in keys {
                let e = classes.entry(key).or_insert((c, 0));
                e.0 = e.0.min(c);
                e.1 += 1;
            }
        }
        let mut pool: Vec<(ClauseId, u32)> = classes.into_values().collect();
        pool.sort_unstable();
        let pool = (theorems, std::sync::Arc::new(pool));
        cache.insert((d, limit), pool.clone());
        pool
    }

    /// The context axioms A(T): the input clauses among T's ancestors.
    pub fn context_axioms(&self, t: ClauseId) -> Vec<ClauseId> {
        crate::derivation::Derivation::new(&self.store).leaves(t)
    }

    /// The ids of `t`'s ancestors in the derivation (membership only).
    fn ancestor_set(&self, t: ClauseId) -> HashSet<ClauseId> {
        crate::derivation::Derivation::new(&self.store)
            .ancestors(t)
            .into_iter()
            .collect()
    }

    /// The variant keys (canonical texts) of `t` and of every clause of
    /// `exclude`: a candidate whose key is among them is not drawn.
    fn variant_keys(&self, t: ClauseId, exclude: &[ClauseId]) -> HashSet<String> {
        let mut keys: HashSet<String> = exclude.iter().map(|&c| self.canon(c)).collect();
        keys.insert(self.canon(t));
        keys
    }

    /// Every active clause that may stand in for a premise of `t` without
    /// being one: sharing at least one symbol with `t`, not among `t`'s
    /// ancestors or in `exclude`, not a variant of `t`, of a clause of
    /// `exclude` or of another candidate, and not printed like one of `t`'s
    /// background axioms. In active-set order; [`Graph::take_matched`]
    /// picks from them by profile.
    pub fn plain_distractors(&self, t: ClauseId, exclude: &[ClauseId]) -> Vec<ClauseId> {
        let tsyms = symbols(self.bank(), self.lits(t));
        let ancestors = self.ancestor_set(t);
        let mut banned = self.variant_keys(t, exclude);
        let background: HashSet<String> = self
            .context_axioms(t)
            .into_iter()
            .map(|c| self.text(c))
            .collect();
        self.active
            .iter()
            .zip(&self.active_surface)
            .filter(|(c, s)| {
                !ancestors.contains(c)
                    && !exclude.contains(c)
                    && s.syms.iter().any(|x| tsyms.contains(x))
            })
            .map(|(&c, _)| c)
            .filter(|&c| !background.contains(&self.text(c)))
            .filter(|&c| banned.insert(self.canon(c)))
            .collect()
    }

    /// The background axioms of `t` (its context axioms, shown in every
    /// prompt) that are not in `exclude` and not variants of `t` or of a
    /// clause of `exclude`: replacements and distractors that a reader
    /// cannot tell from genuine premises by background membership.
    pub fn spare_background(&self, t: ClauseId, exclude: &[ClauseId]) -> Vec<ClauseId> {
        let mut banned = self.variant_keys(t, exclude);
        self.context_axioms(t)
            .into_iter()
            .filter(|c| !exclude.contains(c))
            .filter(|&c| banned.insert(self.canon(c)))
            .collect()
    }

    /// The axioms (input clauses) of the file that are not among `t`'s
    /// ancestors, in file order, without variants of `t`, of a clause of
    /// `exclude` or of each other: background axioms a prompt may show
    /// besides `t`'s own.
    pub fn other_axioms(&self, t: ClauseId, exclude: &[ClauseId]) -> Vec<ClauseId> {
        let ancestors = self.ancestor_set(t);
        let mut banned = self.variant_keys(t, exclude);
        self.store
            .ids()
            .filter(|&c| self.store.get(c).rule == Rule::Input && !self.store.clause(c).is_empty())
            .filter(|c| !ancestors.contains(c) && !exclude.contains(c))
            .filter(|&c| banned.insert(self.canon(c)))
            .collect()
    }

    /// The matching surface of a clause: cached for active clauses,
    /// computed for the others (premises, axioms).
    fn surface(&self, c: ClauseId) -> Cow<'_, Surface> {
        match self.active_index.get(&c) {
            Some(&i) => Cow::Borrowed(&self.active_surface[i]),
            None => Cow::Owned(Surface::of(self.bank(), self.lits(c))),
        }
    }

    /// The surface profile of clause `c` against theorem `t` (its symbols
    /// `tsyms`, its literal keys `tlits`): what a reader sees without
    /// reasoning. See [`Profile`].
    /// Each clause's [`Profile`] against theorem `t` (its surface read
    /// once for all the clauses asked about).
    fn profiles_against(&self, t: ClauseId) -> impl Fn(ClauseId) -> Profile + '_ {
        let ts = self.surface(t).into_owned();
        let tlits: HashSet<u64> = ts.lit_keys.iter().copied().collect();
        move |c| self.profile(c, &ts.syms, &tlits)
    }

    fn profile(&self, c: ClauseId, tsyms: &[SymbolId], tlits: &HashSet<u64>) -> Profile {
        let s = self.surface(c);
        let both = s.syms.iter().filter(|x| tsyms.contains(x)).count();
        let either = (s.syms.len() + tsyms.len() - both).max(1);
        let shared = s.lit_keys.iter().filter(|k| tlits.contains(k)).count();
        Profile {
            overlap: both as f64 / either as f64,
            chars: s.chars as f64,
            literals: s.lit_keys.len() as f64,
            shared_literals: shared as f64,
            foreign: (s.syms.len() - both) as f64,
        }
    }

    /// Removes from `cands` and returns the candidate most like `like` in
    /// its profile against `t` (symbol overlap with `t`, printed length,
    /// literal count, literals shared with `t`; at random between the two
    /// closest, so instances vary): a replacement or distractor that
    /// overlap, size and shape do not give away. Candidates should be many
    /// (every eligible clause, not a top-overlap shortlist), or the closest
    /// one is still far.
    pub fn take_matched(
        &self,
        t: ClauseId,
        like: ClauseId,
        cands: &mut Vec<ClauseId>,
        rng: &mut impl Rng,
    ) -> Option<ClauseId> {
        self.take_matched_by(t, like, cands, rng, f64::INFINITY, |_| Some(0.0))
    }

    /// [`Graph::take_matched`] among the candidates `admit` accepts, with
    /// the penalty it returns added to their profile distance; `None` when
    /// no candidate is within `max_distance`.
    pub fn take_matched_by(
        &self,
        t: ClauseId,
        like: ClauseId,
        cands: &mut Vec<ClauseId>,
        rng: &mut impl Rng,
        max_distance: f64,
        admit: impl Fn(ClauseId) -> Option<f64>,
    ) -> Option<ClauseId> {
        let profile = self.profiles_against(t);
        let target = profile(like);
        let mut scored: Vec<(u64, usize)> = cands
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| {
                let penalty = admit(c)?;
                let d = profile(c).distance(&target) + penalty;
                (d <= max_distance).then_some(((d * 1e6) as u64, i))
            })
            .collect();
        if scored.is_empty() {
            return None;
        }
        scored.sort_unstable();
        let pick = scored[rng.random_range(0..scored.len().min(2))].1;
        Some(cands.remove(pick))
    }

    /// Removes from `cands` and returns a candidate with as many literals,
    /// variables and literals of `t` (up to variable names) as `like`, within
    /// `max_distance` of `like` in profile against `t` (plus the `penalty`
    /// it returns; `None` refuses a candidate), drawn at random with
    /// probability proportional to its `weight` times `exp(-distance /`
    /// [`WEIGHT_SCALE`]`)`: the nearer, the likelier. `None` when no
    /// candidate qualifies.
    #[allow(clippy::too_many_arguments)]
    pub fn take_weighted(
        &self,
        t: ClauseId,
        like: ClauseId,
        cands: &mut Vec<ClauseId>,
        rng: &mut impl Rng,
        max_distance: f64,
        penalty: impl Fn(ClauseId) -> Option<f64>,
        weight: impl Fn(ClauseId) -> f64,
    ) -> Option<ClauseId> {
        let profile = self.profiles_against(t);
        let target = profile(like);
        let variables = self.store.clause(like).var_count(&self.bank);
        let near: Vec<(usize, f64)> = cands
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| {
                let p = profile(c);
                if p.literals != target.literals
                    || p.shared_literals != target.shared_literals
                    || self.store.clause(c).var_count(&self.bank) != variables
                {
                    return None;
                }
                let d = p.distance(&target) + penalty(c)?;
                let w = weight(c) * (-d / WEIGHT_SCALE).exp();
                (d <= max_distance && w > 0.0).then_some((i, w))
            })
            .collect();
        let total: f64 = near.iter().map(|p| p.1).sum();
        if near.is_empty() || total <= 0.0 {
            return None;
        }
        let mut x = rng.random::<f64>() * total;
        let mut pick = near[near.len() - 1].0;
        for &(i, w) in &near {
            if x < w {
                pick = i;
                break;
            }
            x -= w;
        }
        Some(cands.remove(pick))
    }

    /// [`Graph::take_matched`] with each foreign symbol (one `t` lacks)
    /// counting `weight` more in the profile distance.
    pub fn take_matched_foreign(
        &self,
        t: ClauseId,
        like: ClauseId,
        cands: &mut Vec<ClauseId>,
        rng: &mut impl Rng,
        weight: f64,
    ) -> Option<ClauseId> {
        let tsyms = self.symbols_of(t).into_owned();
        let foreign = |c: ClauseId| {
            self.symbols_of(c)
                .iter()
                .filter(|x| !tsyms.contains(x))
                .count() as f64
        };
        let target = foreign(like);
        self.take_matched_by(t, like, cands, rng, f64::INFINITY, |c| {
            Some(weight * (foreign(c) - target).abs())
        })
    }

    /// The printed length of a clause.
    pub fn chars(&self, c: ClauseId) -> usize {
        self.surface(c).chars
    }

    /// The symbols of a clause (borrowed from the cache for active ones).
    pub fn symbols_of(&self, c: ClauseId) -> Cow<'_, [SymbolId]> {
        match self.surface(c) {
            Cow::Borrowed(s) => Cow::Borrowed(&s.syms),
            Cow::Owned(s) => Cow::Owned(s.syms),
        }
    }

    /// The deduplication key of an instance: its clauses' canonical forms,
    /// sorted, then the theorem's.
    pub fn instance_key(&self, clauses: &[ClauseId], t: ClauseId) -> String {
        let mut parts: Vec<String> = clauses.iter().map(|&c| self.canon(c)).collect();
        parts.sort();
        format!("{}\n?{}", parts.join("\n"), self.canon(t))
    }

    /// Asks the prover whether `premises` entail `t`.
    pub fn prove(&self, prover: &mut Prover, premises: &[ClauseId], t: ClauseId) -> Outcome {
        let ps: Vec<&[Literal]> = premises.iter().map(|&p| self.lits(p)).collect();
        prover.prove(self.bank(), &ps, self.lits(t))
    }

    /// Asks the prover for a proof of `t` from premises the saturation
    /// derived it from (a superset of its depth-d premises, which entail it:
    /// [`Graph::depth_premises`]). No countermodel exists, so the prover
    /// makes no model search ([`Prover::prove_models_absent`]): one that
    /// cannot succeed was most of an undecided call's work. The verdict is
    /// the one [`Graph::prove`] gives: a proof, or `Unknown` when the
    /// budget does not find it again.
    pub fn prove_derived(
        &self,
        prover: &mut Prover,
        premises: &[ClauseId],
        t: ClauseId,
    ) -> Outcome {
        let ps: Vec<&[Literal]> = premises.iter().map(|&p| self.lits(p)).collect();
        prover.prove_models_absent(self.bank(), &ps, self.lits(t), u32::MAX)
    }

    /// The FOF formula input clause `c` was clausified from (`None` for a
    /// clause read as `cnf` or a derived clause).
    pub fn origin(&self, c: ClauseId) -> Option<Origin> {
        let info = self.store.get(c).input.as_ref()?;
        Some(Origin {
            name: info.name.clone(),
            formula: info.formula.clone()?,
        })
    }

    /// The graph with the rounds of iterative saturation that made it, so
    /// rows can say which round their theorem comes from.
    pub fn with_rounds(mut self, rounds: &[RoundReport]) -> Graph {
        self.via_lemma = crate::saturation::via_lemma(&self.store, rounds);
        self.rounds = rounds.to_vec();
        self
    }

    /// The measured difficulty features of an instance (its row's
    /// `metadata.difficulty`), from its metadata and certificate and the
    /// graph: `proof_depth` (the theorem's depth: inferences from the
    /// original axioms, through every round), `derivation_size` (inference
    /// records among the theorem's ancestors, itself included),
    /// `premises` (the premises of the task: shown, or the gold answer's
    /// leaves), `clauses_shown` (every clause of the prompt's problem, the
    /// conclusion included), `symbols` (distinct symbols over them),
    /// `certificate_steps` (inference steps in the stored certificate),
    /// `prover_effort` (given clauses the generation prover processed to
    /// certify it), `round` (the saturation round of the theorem) and
    /// `via_lemma` (1 when the theorem is reached only through an earlier
    /// round's lemma). `t` is the instance's theorem, a clause of this
    /// graph; the graph features are 0 for an id outside it.
    pub fn difficulty(&self, t: ClauseId, b: &Built) -> Vec<(&'static str, f64)> {
        let m = &b.metadata;
        let theorem = Some(t).filter(|c| c.index() < self.store.len());
        let texts = |key: &str| -> Vec<&str> {
            m[key]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default()
        };
        let premises = texts("premises");
        let pool = texts("pool");
        let clauses = texts("clauses");
        let n_premises = if premises.is_empty() {
            m["premise_indices"].as_array().map_or(0, |a| a.len())
        } else {
            premises.len()
        };
        let theorem_text = m["theorem"].as_str().unwrap_or("");
        let shown: Vec<&str> = if !clauses.is_empty() {
            clauses
        } else if !pool.is_empty() {
            pool.into_iter().chain([theorem_text]).collect()
        } else {
            premises.into_iter().chain([theorem_text]).collect()
        };
        let symbols: std::collections::BTreeSet<&str> = shown
            .iter()
            .flat_map(|c| crate::tasks::audit::symbols(c))
            .collect();
        let (depth, size, round, via) = match theorem {
            Some(t) => {
                let size = crate::derivation::Derivation::new(&self.store)
                    .ancestors(t)
                    .into_iter()
                    .filter(|&c| self.store.get(c).rule != Rule::Input)
                    .count();
                (
                    self.store.get(t).depth,
                    size,
                    RoundReport::round_of(&self.rounds, t.0),
                    self.via_lemma.get(t.index()).copied().unwrap_or(false),
                )
            }
            None => (0, 0, 1, false),
        };
        vec![
            ("proof_depth", f64::from(depth)),
            ("derivation_size", size as f64),
            ("premises", n_premises as f64),
            ("clauses_shown", shown.len() as f64),
            ("symbols", symbols.len() as f64),
            ("certificate_steps", count_steps(&b.certificate) as f64),
            ("prover_effort", b.prover_processed as f64),
            ("round", f64::from(round)),
            ("via_lemma", f64::from(u8::from(via))),
        ]
    }

    /// The metadata every family shares: the theorem, its interestingness,
    /// the axiom file, the context axioms (with `context_formulas` when
    /// some came from FOF formulas, see [`Background`]).
    pub fn base_metadata(&self, t: &Scored, d: u32, k: u32) -> serde_json::Value {
        let mut meta = serde_json::json!({
            "generator": GENERATOR_VERSION,
            "domain": self.domain,
            "axiom_file": self.name,
            "d": d,
            "k": k,
            "theorem_id": t.id.to_string(),
            "theorem": self.text(t.id),
            "interestingness": {
                "score": t.score,
                "components": t.components,
            },
        });
        Background::of(self, &self.context_axioms(t.id)).store(&mut meta);
        meta
    }
}

/// Inference steps in a certificate: the elements of every `steps` array
/// in it, however deep (refutations, step lists, per-answer proofs).
fn count_steps(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Object(o) => o
            .iter()
            .map(|(k, x)| match (k.as_str(), x) {
                ("steps", serde_json::Value::Array(a)) => {
                    a.len() + a.iter().map(count_steps).sum::<usize>()
                }
                _ => count_steps(x),
            })
            .sum(),
        serde_json::Value::Array(a) => a.iter().map(count_steps).sum(),
        _ => 0,
    }
}

/// The theorem order of a (family, level) cell of a domain: every pool
/// theorem of every graph of the domain whose premises reach distance
/// `reach` (0: all), as (graph index, pool index), in a fixed seeded
/// permutation. Draw `j` of the cell takes entry `j mod len`, so the first
/// `len` draws get distinct theorems wherever they come from, and a file
/// contributes in proportion to its usable theorems (a file with a handful
/// of them is not asked for as many as a rich one, which would only repeat
/// them).
pub fn theorem_order(
    graphs: &[Graph],
    seed: u64,
    domain: &str,
    cell: &[&str],
    reach: u32,
) -> Vec<(usize, usize)> {
    let mut order: Vec<(usize, usize)> = graphs
        .iter()
        .enumerate()
        .flat_map(|(gi, g)| {
            (0..g.pool.len())
                .filter(move |&i| g.reach[i] >= reach)
                .map(move |i| (gi, i))
        })
        .collect();
    let mut coords = vec![domain];
    coords.extend_from_slice(cell);
    let mut rng = crate::tasks::instance_rng(seed, &coords, u64::MAX);
    rand::seq::SliceRandom::shuffle(order.as_mut_slice(), &mut rng);
    order
}

/// A fresh term bank holding clauses parsed from TPTP text (metadata).
pub fn parse_clauses(texts: &[String]) -> Result<(TermBank, Vec<Vec<Literal>>), String> {
    let mut bank = TermBank::new();
    let mut out = Vec::with_capacity(texts.len());
    for t in texts {
        let lits = crate::tptp::parse_clause_str(&mut bank, t)
            .map_err(|e| format!("clause `{t}`: {e}"))?;
        out.push(lits);
    }
    Ok((bank, out))
}

/// Re-checks with the independent checker that `refutation` proves
/// `conjecture` from `axioms` (all TPTP text); returns the step count.
pub fn check_proof(
    axioms: Vec<String>,
    conjecture: &str,
    refutation: &crate::prover::Refutation,
) -> Result<usize, String> {
    use crate::checker::{self, CheckProblem, Checked};
    let problem = CheckProblem {
        axioms,
        conjecture: Some(conjecture.to_string()),
    };
    let v = crate::prover::Verdict::Theorem {
        refutation: refutation.clone(),
    };
    match checker::check(&problem, &v) {
        Ok(Checked::Refutation { steps }) => Ok(steps),
        Ok(other) => Err(format!("{other:?}")),
        Err(e) => Err(e.to_string()),
    }
}

/// A JSON array of strings from metadata, or an error naming the field.
pub fn str_list(v: &serde_json::Value, field: &str) -> Result<Vec<String>, String> {
    v.get(field)
        .and_then(|x| x.as_array())
        .ok_or_else(|| format!("metadata has no list `{field}`"))?
        .iter()
        .map(|x| {
            x.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("metadata `{field}` holds a non-string"))
        })
        .collect()
}

/// A string field from metadata.
pub fn str_field(v: &serde_json::Value, field: &str) -> Result<String, String> {
    v.get(field)
        .and_then(|x| x.as_str())
        .map(str::to_string)
        .ok_or_else(|| format!("metadata has no string `{field}`"))
}

/// The numbered list shown in prompts: `1. clause` per line.
pub fn numbered(texts: &[String]) -> String {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{}. {t}\n", i + 1))
        .collect()
}

/// The bulleted list shown in prompts: `- clause` per line.
pub fn bulleted(texts: &[String]) -> String {
    texts.iter().map(|t| format!("- {t}\n")).collect()
}

/// The formula a background clause was clausified from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The formula's TPTP name.
    pub name: String,
    /// The formula as read (closed TPTP FOF text).
    pub formula: String,
}

/// The background a prompt shows: the context axioms as clauses and, for
/// each one clausified from a FOF formula, that formula (metadata
/// `context_axioms` and `context_formulas`, the latter aligned with the
/// former and absent when every context axiom was read as a clause).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Background {
    /// The context axioms, as clauses.
    pub axioms: Vec<String>,
    /// Per context axiom, the formula it came from (`None`: read as `cnf`).
    pub origins: Vec<Option<Origin>>,
}

impl Background {
    /// A background of clauses read as `cnf`.
    pub fn clauses(axioms: Vec<String>) -> Background {
        let origins = vec![None; axioms.len()];
        Background { axioms, origins }
    }

    /// The background of graph clauses `ids` (their texts and origins).
    pub fn of(g: &Graph, ids: &[ClauseId]) -> Background {
        Background {
            axioms: ids.iter().map(|&c| g.text(c)).collect(),
            origins: ids.iter().map(|&c| g.origin(c)).collect(),
        }
    }

    /// Reads a row's background from its metadata (`context_axioms`, and
    /// `context_formulas` when present).
    pub fn from_metadata(meta: &serde_json::Value) -> Result<Background, String> {
        let axioms = str_list(meta, "context_axioms")?;
        let origins = match meta.get("context_formulas") {
            None => vec![None; axioms.len()],
            Some(v) => {
                let list = v
                    .as_array()
                    .ok_or("metadata field `context_formulas` is not a list")?;
                if list.len() != axioms.len() {
                    return Err(format!(
                        "metadata field `context_formulas` has {} entries for {} context axioms",
                        list.len(),
                        axioms.len()
                    ));
                }
                list.iter()
                    .map(|o| match o {
                        serde_json::Value::Null => Ok(None),
                        o => {
                            match (o["name"].as_str(), o["formula"].as_str()) {
                                (Some(n), Some(f)) => Ok(Some(Origin {
                                    name: n.to_string(),
                                    formula: f.to_string(),
                                })),
                                _ => Err("a `context_formulas` entry lacks `name` or `formula`"
                                    .to_string()),
                            }
                        }
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        Ok(Background { axioms, origins })
    }

    /// Writes the background into a row's metadata: `context_axioms`, and
    /// `context_formulas` only when some axiom came from a FOF formula (so
    /// rows of CNF files keep their metadata).
    pub fn store(&self, meta: &mut serde_json::Value) {
        let obj = meta.as_object_mut().expect("metadata is an object");
        obj.insert("context_axioms".into(), self.axioms.clone().into());
        if self.origins.iter().any(Option::is_some) {
            let list: Vec<serde_json::Value> = self
                .origins
                .iter()
                .map(|o| match o {
                    Some(o) => serde_json::json!({"name": o.name, "formula": o.formula}),
                    None => serde_json::Value::Null,
                })
                .collect();
            obj.insert("context_formulas".into(), list.into());
        } else {
            obj.remove("context_formulas");
        }
    }
}

/// The shared preamble of every prompt: the domain and its background
/// axioms. A context axiom read as a clause is listed as one; those
/// clausified from one FOF formula are listed under that formula, by its
/// TPTP name, as its clausal form (which is what premises and theorems
/// are written in, Skolem symbols included).
pub fn context_block(domain: &str, background: &Background) -> String {
    let mut s = format!(
        "You are working in first-order logic with equality, in the TPTP CNF notation: each clause is a disjunction (`|`) of literals, `~` is negation, `=` and `!=` are equality and disequality, capitalised names are variables (universally quantified, per clause), everything else is a function, constant or predicate symbol.\n\nDomain: {domain}\n"
    );
    if background.axioms.is_empty() {
        return s;
    }
    let from_fof = background.origins.iter().any(Option::is_some);
    if from_fof {
        s.push_str("\nSome background axioms are first-order formulas in TPTP FOF notation (`! [X] :` for all, `? [X] :` there exists, `&` and, `|` or, `=>` implies, `<=>` if and only if, `~` not); each is followed by those clauses of its clausal form that belong to this problem's background (a formula's other clauses are not listed), in which `sk` symbols are Skolem functions and `def` symbols name sub-formulas, both introduced by the translation to clauses.\n");
    }
    s.push_str("\nBackground axioms of the theory (for context only; they are not available as premises):\n");
    let mut shown: Vec<bool> = vec![false; background.axioms.len()];
    for i in 0..background.axioms.len() {
        if shown[i] {
            continue;
        }
        match background.origins.get(i).cloned().flatten() {
            None => {
                s.push_str(&format!("- {}\n", background.axioms[i]));
                shown[i] = true;
            }
            Some(o) => {
                s.push_str(&format!(
                    "- {}: {}\n  clauses of its clausal form used here:\n",
                    o.name, o.formula
                ));
                for (j, axiom) in background.axioms.iter().enumerate().skip(i) {
                    if background
                        .origins
                        .get(j)
                        .is_some_and(|x| x.as_ref() == Some(&o))
                    {
                        s.push_str(&format!("  - {axiom}\n"));
                        shown[j] = true;
                    }
                }
            }
        }
    }
    s
}

/// Prover statistics for a record's metadata.
pub fn prover_stats(o: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "verdict": o.verdict.name(),
        "processed": o.stats.processed,
        "generated": o.stats.generated,
        "model_size_tried": o.stats.model_size_tried,
        "sat_conflicts": o.stats.sat_conflicts,
    })
}

#[cfg(test)]
pub(crate) mod testing {
    //! A small graph shared by the family tests.
    use super::*;

    /// Membership-style set theory without equality.
    pub const SETS: &str = "cnf(ui, axiom, ~member(E, union(A, B)) | member(E, A) | member(E, B)).\n\
        cnf(ul, axiom, ~member(E, A) | member(E, union(A, B))).\n\
        cnf(ur, axiom, ~member(E, B) | member(E, union(A, B))).\n\
        cnf(il, axiom, ~member(E, inter(A, B)) | member(E, A)).\n\
        cnf(ir, axiom, ~member(E, inter(A, B)) | member(E, B)).\n\
        cnf(ii, axiom, ~member(E, A) | ~member(E, B) | member(E, inter(A, B))).\n\
        cnf(sub, axiom, ~subset(A, B) | ~member(E, A) | member(E, B)).\n\
        cnf(sub2, axiom, subset(A, B) | member(w(A, B), A)).\n\
        cnf(sub3, axiom, subset(A, B) | ~member(w(A, B), B)).\n";

    /// Prover limits without a work budget: no given clause, no model
    /// size, so any question that needs search ends `Unknown` (to force a
    /// scorer's `timeout`).
    pub fn no_budget() -> crate::prover::ProverLimits {
        crate::prover::ProverLimits {
            quick_processed: 0,
            max_processed: 0,
            quick_model_size: 0,
            max_model_size: 0,
            ..crate::prover::ProverLimits::default()
        }
    }

    /// A graph of `text` saturated for `processed` given clauses.
    pub fn graph(text: &str, processed: u64) -> Graph {
        let s = crate::interest::tests::run(text, processed);
        let r = crate::interest::rank(&s.bank, &s.store);
        Graph::new(
            s.bank,
            s.store,
            r,
            "TST",
            "t",
            &TasksConfig::default(),
            false,
        )
    }

    /// A family's generator, as the tests call it.
    pub type Generate = fn(
        &Graph,
        &Scored,
        &mut Prover,
        &TasksConfig,
        u8,
        &mut rand_chacha::ChaCha8Rng,
    ) -> Result<Built, Reject>;

    /// The first instance `generate` builds at `level` on the [`SETS`]
    /// graph under the default config, trying up to 60 theorems with the
    /// streams of `tag`.
    pub fn first_instance(generate: Generate, tag: &str, level: u8) -> Built {
        let g = graph(SETS, 600);
        let cfg = TasksConfig::default();
        let mut prover = Prover::new(crate::prover::ProverLimits::default());
        (0..60u64)
            .find_map(|i| {
                let mut rng = crate::tasks::instance_rng(11, &[tag], i);
                let t = &g.pool[i as usize % g.pool.len()];
                generate(&g, t, &mut prover, &cfg, level, &mut rng).ok()
            })
            .unwrap_or_else(|| panic!("no {tag} instance at level {level}"))
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;

    fn origin(name: &str, formula: &str) -> Option<Origin> {
        Some(Origin {
            name: name.into(),
            formula: formula.into(),
        })
    }

    #[test]
    fn backgrounds_group_clauses_under_their_formula() {
        let b = Background {
            axioms: vec![
                "p(X0) | ~q(X0)".into(),
                "r(a)".into(),
                "q(X0) | ~p(X0)".into(),
            ],
            origins: vec![
                origin("pq", "! [X0] : (p(X0) <=> q(X0))"),
                None,
                origin("pq", "! [X0] : (p(X0) <=> q(X0))"),
            ],
        };
        let s = context_block("SET", &b);
        assert!(s.contains("Some background axioms are first-order formulas"));
        assert!(s.ends_with(
            "- pq: ! [X0] : (p(X0) <=> q(X0))\n  clauses of its clausal form used here:\n  - p(X0) | ~q(X0)\n  - q(X0) | ~p(X0)\n- r(a)\n"
        ), "{s}");
        // Round trip through metadata; CNF-only backgrounds add no field
        // and print as before.
        let mut meta = serde_json::json!({"context_formulas": "stale"});
        b.store(&mut meta);
        assert_eq!(Background::from_metadata(&meta).unwrap(), b);
        let cnf = Background::clauses(vec!["r(a)".into()]);
        let mut meta = serde_json::json!({});
        cnf.store(&mut meta);
        assert!(meta.get("context_formulas").is_none());
        assert_eq!(Background::from_metadata(&meta).unwrap(), cnf);
        let s = context_block("SET", &cnf);
        assert!(!s.contains("first-order formulas"));
        assert!(s.ends_with("(for context only; they are not available as premises):\n- r(a)\n"));
        // Misaligned or malformed metadata is refused, not misread.
        let bad = serde_json::json!({"context_axioms": ["r(a)"], "context_formulas": []});
        assert!(
            Background::from_metadata(&bad)
                .unwrap_err()
                .contains("0 entries for 1")
        );
        let bad =
            serde_json::json!({"context_axioms": ["r(a)"], "context_formulas": [{"name": "x"}]});
        assert!(Background::from_metadata(&bad).is_err());
    }
    use crate::prover::ProverLimits;

    #[test]
    fn depth_premises_entail_the_theorem() {
        let g = graph(SETS, 600);
        let mut prover = Prover::new(ProverLimits::default());
        let (mut checked, mut proved) = (0, 0);
        for s in g.pool.iter().take(25) {
            for d in 1..=3 {
                let Some(p) = g.depth_premises(s.id, d) else {
                    continue;
                };
                assert!(!p.contains(&s.id));
                let o = g.prove(&mut prover, &p, s.id);
                assert_ne!(o.verdict.label(), Some(false), "P_{d} must entail T");
                // Without the model search: the same verdict, no search.
                let derived = g.prove_derived(&mut prover, &p, s.id);
                assert_eq!(derived.verdict.label(), o.verdict.label());
                assert!(!derived.stats.cached, "its own cache entry");
                assert_eq!(derived.stats.model_size_tried, 0);
                proved += usize::from(o.verdict.label() == Some(true));
                checked += 1;
            }
        }
        assert!(checked > 10, "only {checked} checked");
        assert!(proved > 10, "only {proved} proved");
    }

    #[test]
    fn distractors_share_symbols_and_avoid_ancestors() {
        let g = graph(SETS, 600);
        let t = g.pool[0].id;
        let anc = crate::derivation::Derivation::new(&g.store).ancestors(t);
        let ds = g.plain_distractors(t, &[]);
        assert!(!ds.is_empty());
        let keys: HashSet<String> = ds.iter().map(|&c| g.canon(c)).collect();
        assert_eq!(keys.len(), ds.len(), "no two candidates are variants");
        let ts = symbols(g.bank(), g.lits(t));
        for d in ds {
            assert!(!anc.contains(&d));
            assert!(symbols(g.bank(), g.lits(d)).iter().any(|s| ts.contains(s)));
        }
    }

    /// The premise pool holds one clause per variant class of the depth-d
    /// premises of the pool theorems that have at most `limit` of them,
    /// each counted once per distinct premise set (up to variants).
    #[test]
    fn the_premise_pool_counts_premise_sets_per_premise() {
        let g = graph(SETS, 600);
        let pool = g.depth_premise_pool(1, 2);
        assert!(pool.len() >= 5, "{} premises", pool.len());
        let mut want: std::collections::BTreeMap<String, u32> = Default::default();
        let mut sets: HashSet<std::collections::BTreeSet<String>> = HashSet::new();
        let mut theorems = 0;
        for s in &g.pool {
            let ps = g.depth_premises(s.id, 1).unwrap_or_default();
            if ps.len() > 2 {
                continue;
            }
            theorems += 1;
            let keys: std::collections::BTreeSet<String> = ps.iter().map(|&c| g.canon(c)).collect();
            if !sets.insert(keys.clone()) {
                continue;
            }
            for k in keys {
                *want.entry(k).or_default() += 1;
            }
        }
        assert!(
            sets.len() < theorems,
            "{} sets of {theorems} theorems",
            sets.len()
        );
        assert_eq!(g.counted_premise_pool(1, 2).0 as usize, sets.len());
        let got: std::collections::BTreeMap<String, u32> =
            pool.iter().map(|&(c, n)| (g.canon(c), n)).collect();
        assert_eq!(got.len(), pool.len(), "one clause per variant class");
        assert_eq!(got, want);
        // Cached: the same list again.
        assert!(std::sync::Arc::ptr_eq(&pool, &g.depth_premise_pool(1, 2)));
        // A larger limit counts more theorems.
        let all = g.depth_premise_pool(1, usize::MAX);
        let (few, many) = (
            pool.iter().map(|p| p.1).sum::<u32>(),
            all.iter().map(|p| p.1).sum::<u32>(),
        );
        assert!(few <= many, "{few} {many}");
    }

    /// A weighted draw keeps the literal count and the literals shared
    /// with the theorem, never takes a weightless candidate, and takes the
    /// only weighted one.
    #[test]
    fn weighted_draws_keep_the_shape_and_follow_the_weights() {
        use rand::SeedableRng;
        let g = graph(SETS, 600);
        let t = g.pool[0].id;
        let like = g.depth_premises(t, 1).unwrap()[0];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let all: Vec<ClauseId> = g.active.clone();
        let mut cands = all.clone();
        let none = g.take_weighted(t, like, &mut cands, &mut rng, 1.0, |_| Some(0.0), |_| 0.0);
        assert_eq!(none, None);
        assert_eq!(cands.len(), all.len(), "nothing removed");
        let lits = g.lits(like).len();
        let mut drawn = 0;
        while let Some(c) =
            g.take_weighted(t, like, &mut cands, &mut rng, 1.0, |_| Some(0.0), |_| 1.0)
        {
            assert_eq!(g.lits(c).len(), lits, "{}", g.text(c));
            drawn += 1;
        }
        assert!(drawn >= 2, "{drawn} drawn");
        // One candidate of weight 1 among weightless ones.
        let first = all
            .iter()
            .copied()
            .find(|&c| {
                let mut one = vec![c];
                g.take_weighted(t, like, &mut one, &mut rng, 1.0, |_| Some(0.0), |_| 1.0)
                    .is_some()
            })
            .expect("a candidate of the premise's shape");
        for _ in 0..5 {
            let mut cands = all.clone();
            let w = |c: ClauseId| if c == first { 1.0 } else { 0.0 };
            let got = g.take_weighted(t, like, &mut cands, &mut rng, 1.0, |_| Some(0.0), w);
            assert_eq!(got, Some(first));
        }
    }

    #[test]
    fn config_validation_names_the_field() {
        let c = TasksConfig {
            levels: vec![0],
            ..Default::default()
        };
        assert!(c.validate().unwrap_err().contains("tasks.tptp.levels"));
        let deep = TasksConfig {
            levels: vec![5, 8, 255],
            ..Default::default()
        };
        assert!(deep.validate().is_ok());
        let empty = TasksConfig {
            selection: LevelMap {
                depth: vec![],
                k: vec![1],
            },
            ..Default::default()
        };
        assert!(
            empty
                .validate()
                .unwrap_err()
                .contains("tasks.tptp.selection")
        );
        for lead in [0.0, -0.5, 1.5, f64::NAN] {
            let c = TasksConfig {
                max_answer_lead: lead,
                ..Default::default()
            };
            assert!(
                c.validate()
                    .unwrap_err()
                    .contains("tasks.tptp.max_answer_lead"),
                "{lead}"
            );
        }
        assert!(TasksConfig::default().validate().is_ok());
        assert_eq!(TasksConfig::default().params(Family::Selection, 4), (4, 8));
    }

    #[test]
    fn levels_go_on_past_the_lists() {
        let c = TasksConfig::default();
        // The documented table: k at level 8, and depth = level.
        assert_eq!(c.params(Family::Entailment, 8), (8, 14));
        assert_eq!(c.params(Family::Selection, 8), (8, 16));
        assert_eq!(c.params(Family::Reconstruction, 8), (8, 32));
        assert_eq!(c.params(Family::Derivation, 8), (8, 24));
        assert_eq!(c.params(Family::Entailment, 5), (5, 8));
        // Levels 1-4 are the lists.
        assert_eq!(c.params(Family::Reconstruction, 2), (2, 8));
        // A one-entry list grows by 1; a flat tail still grows by 1.
        let m = LevelMap {
            depth: vec![3],
            k: vec![4, 4],
        };
        assert_eq!(m.at(1), (3, 4));
        assert_eq!(m.at(3), (5, 5));
        assert_eq!(m.at(255).0, 257);
    }
}
