//! The TPTP task families' configuration (`[tasks.tptp]`): which
//! families, levels, the depth and distractor count per level, and the
//! generation limits, validated once.

use crate::prover::ProverLimits;
use crate::tasks::error::BadValue;
use serde::{Deserialize, Serialize};

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
                "Conjecture entailment: premises drawn from the derivation of a ranked theorem at depth d, kept or perturbed k times (each replacement matched to the premise it replaces in size, shape and overlap with the conclusion; a theorem is used only when both its kept and its perturbed version certify, so both labels come from the same theorems); answer `True` or `False`. True labels carry a checked refutation (the saturation's own derivation of the theorem from the premises, closed against its negation, where its records check; else the prover's; `metadata.certified_by` says which), False labels a checked finite countermodel."
            }
            Family::Selection => {
                "Minimal premise selection: a numbered pool of a minimum premise set plus same-signature distractors (the pool's size drawn per row, apart from the answer's size; near twins of premises exactly as close to the theorem as the premise); answer the sorted indices of a smallest subset that proves the theorem. The certificate proves each minimum answer and covers every smaller subset with a countermodel. Scoring: a minimum answer scores 1; every other answer scores 0, an insufficient one and a sufficient but larger one alike (listing the whole pool earns nothing). Sub-metrics: sufficient, minimal, size_credit (min_size / answer_size for a sufficient answer, else 0)."
            }
            Family::Reconstruction => {
                "Proof graph reconstruction: the shuffled clauses of a binary-inference proof of depth at least d with k to 2k-1 clauses, grown at random from the theorem, the starting premises named; answer one `CHILD <- PARENT_1, PARENT_2` line per derived clause. Every gold step carries a checked refutation of `PARENT_1, PARENT_2 |- CHILD` (the prover's, or where its budget finds none the saturation's own records of the step, closed against the child's negation; `metadata.certified_by` counts each). Scoring: 1 when every step is sound (gold, or confirmed by the prover), else 0 (a graph with an unsound step is no proof); sub-metrics steps_sound (the share of sound steps, a process reward), edge_precision, edge_recall."
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
pub(super) fn extend(values: &[u32], level: u8) -> u32 {
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
    /// Entailment: the most theorems a slot draws in all, counting the
    /// draws refused before any prover call (`no_distractors`: no
    /// replacement fits the premises), which cost no prover time and do not
    /// use up `max_attempts`. On the small deep theories nearly every draw
    /// is refused so (TOP level 4: 960 of 1,038 rejects), and a slot that
    /// gave up after twelve of them left theorems it could still perturb
    /// undrawn.
    pub max_draws: u32,
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
    /// held back; held rows are offered again from slot 2·count on, where
    /// twice the lead is allowed and a row past that is skipped for good
    /// (ALG level 4 had associativity in all 71 answers and never as a
    /// distractor), so a theory where the lead cannot be kept fills only as
    /// far as twice the lead allows (GEO level 4: 66 of 200 rows). On a
    /// small theory a few clauses are premises of most deep theorems and
    /// cannot stand beside many others without giving a smaller answer (TOP
    /// level 3: `meet(X0,X1)=meet(X1,X0)` in 33 answers of 200 rows, never a
    /// distractor), so a reader that learns which texts are usually
    /// answers, together with how a clause relates to the theorem, beat the
    /// majority by 10.5 points (7.7 with this limit, the cell still full;
    /// it walked 377 slots instead of 206).
    pub max_answer_lead: f64,
    /// Entailment: how many more rows of one label than of the other a
    /// premise may be in, as a share of `count` (at least 3 rows). A pair
    /// whose replaced premise or replacement would pass it is skipped (both
    /// rows), so no premise tells the label by which rows list it. Why: on
    /// a field (FLD level 1, 138 rows) the right-nested associativity
    /// lemmas stood in 11 True rows and 4 False ones and their left-nested
    /// twins the other way round (a replacement certifies False when it is
    /// the weaker of the two), and a reader of the premises' words beat
    /// the majority by 10.9 points.
    pub max_premise_lead: f64,
    /// Selection: candidate slots a cell may use per requested row. Rows
    /// over the per-answer limit are skipped as repeats and the cell draws
    /// on, up to `selection_slots` × `count` slots; a small theory, whose
    /// deep theorems share few minimum answers, needs more of them (GEO
    /// level 4 at count 50 used 138). A cell that fills sooner stops there,
    /// so raising it changes only cells that came up short.
    pub selection_slots: u32,
    /// Reconstruction and derivation: candidate slots a cell may use per
    /// requested row. A draw whose proof graph is one already written is a
    /// duplicate and the cell draws on, up to `reconstruction_slots` ×
    /// `count` slots; a theory with few deep theorems gives each of them
    /// several distinct graphs only over many draws (TOP level 4 at count
    /// 50: 31 rows from 100 draws, 50 from 400). A cell that fills sooner
    /// stops there, so raising it changes only cells that came up short.
    pub reconstruction_slots: u32,
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
    /// scorers use `[prover]`. A section that sets some keys keeps
    /// [`generation_limits`] for the others, not `[prover]`'s defaults.
    #[serde(deserialize_with = "over_generation_limits")]
    pub prover: ProverLimits,
}

/// Reads a `[tasks.tptp.prover]` section over [`generation_limits`]: the
/// keys it sets replace those of the generation defaults, the others stay.
/// A plain `ProverLimits` field filled the missing keys from
/// `ProverLimits::default()` (the scorer's limits), so a section setting
/// only `max_model_size` ran generation at ten times the given clauses and
/// with definitions unfolded. Unknown keys are refused as before.
fn over_generation_limits<'de, D>(de: D) -> Result<ProverLimits, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::Error;
    let given = toml::Table::deserialize(de)?;
    let mut merged = toml::Table::try_from(generation_limits()).map_err(D::Error::custom)?;
    merged.extend(given);
    ProverLimits::deserialize(toml::Value::Table(merged)).map_err(D::Error::custom)
}

/// The generation prover's default limits.
pub(super) fn generation_limits() -> ProverLimits {
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
        // Measured at count 50 on the paper layout: unfolding decided most
        // of ALG's undecided entailment calls, but as `wrong_label` (the
        // perturbed premises proved the theorem too) and selection lost
        // rows (2,598 -> 2,587 in all) for 56% more CPU, so generation
        // searches the definitions as the theory states them.
        unfold_definitions: false,
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
            max_draws: 96,
            max_premises: 10,
            max_answer_share: 0.1,
            max_answer_lead: 0.04,
            max_premise_lead: 0.015,
            selection_slots: 4,
            reconstruction_slots: 8,
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
    pub fn validate(&self) -> Result<(), BadValue> {
        if self.levels.contains(&0) {
            return Err(BadValue::new("tasks.tptp.levels", "levels start at 1"));
        }
        if !(0.0..=1.0).contains(&self.true_share) {
            return Err(BadValue::sentence(
                "tasks.tptp.true_share",
                "must be in [0, 1]",
            ));
        }
        for (name, m) in [
            ("entailment", &self.entailment),
            ("selection", &self.selection),
            ("reconstruction", &self.reconstruction),
            ("derivation", &self.derivation),
        ] {
            if m.depth.contains(&0) {
                return Err(BadValue::new(
                    format!("tasks.tptp.{name}.depth"),
                    "depths start at 1",
                ));
            }
            if m.depth.is_empty() || m.k.is_empty() {
                return Err(BadValue::new(
                    format!("tasks.tptp.{name}"),
                    "depth and k need at least one entry (level 1's)",
                ));
            }
        }
        if !(self.max_answer_share > 0.0 && self.max_answer_share <= 1.0) {
            return Err(BadValue::sentence(
                "tasks.tptp.max_answer_share",
                "must be in (0, 1]",
            ));
        }
        if !(self.max_answer_lead > 0.0 && self.max_answer_lead <= 1.0) {
            return Err(BadValue::sentence(
                "tasks.tptp.max_answer_lead",
                "must be in (0, 1]",
            ));
        }
        if !(self.max_premise_lead > 0.0 && self.max_premise_lead <= 1.0) {
            return Err(BadValue::sentence(
                "tasks.tptp.max_premise_lead",
                "must be in (0, 1]",
            ));
        }
        if self.selection_slots == 0 || self.selection_slots > 1000 {
            return Err(BadValue::sentence(
                "tasks.tptp.selection_slots",
                "must be in 1-1000",
            ));
        }
        if self.reconstruction_slots == 0 || self.reconstruction_slots > 1000 {
            return Err(BadValue::sentence(
                "tasks.tptp.reconstruction_slots",
                "must be in 1-1000",
            ));
        }
        if self.max_premises == 0 || self.max_premises > 20 {
            return Err(BadValue::sentence(
                "tasks.tptp.max_premises",
                "must be in 1-20",
            ));
        }
        if self.max_rows_per_shard == 0 {
            return Err(BadValue::sentence(
                "tasks.tptp.max_rows_per_shard",
                "must be at least 1",
            ));
        }
        if self.max_attempts == 0 {
            return Err(BadValue::sentence(
                "tasks.tptp.max_attempts",
                "must be at least 1",
            ));
        }
        if self.max_draws < self.max_attempts {
            return Err(BadValue::new(
                "tasks.tptp.max_draws",
                format!(
                    "{} is less than max_attempts ({})",
                    self.max_draws, self.max_attempts
                ),
            ));
        }
        Ok(())
    }
}
