//! The task-family abstraction (DESIGN.md §8): what every family of tasks
//! declares, so that one generation loop (`pipeline::generate`), one scorer
//! (`saturate score`) and one verifier (`saturate verify`) serve them all,
//! and a new family is one folder plus one line in [`Registry::builtin`](crate::tasks::registry::Registry::builtin)
//! (`tasks/registry.rs`).
//!
//! A family has two faces:
//!
//! - [`TaskFamily`], static: the dataset configs it writes, how to score a
//!   model answer to one of its rows and how to re-check a stored row. It
//!   needs nothing of a run, so `score` and `verify` find it by the row's
//!   `task` column through the [`Registry`](crate::tasks::registry::Registry).
//! - [`Generator`], one run of it: the cells (config × group × level, each
//!   with a row count and a [`Fill`] policy), a per-worker context (the
//!   TPTP families keep a prover there) and `build`, which turns one
//!   (cell, candidate index) into at most one certified instance. The
//!   generator is made from the configuration by the family's command; for
//!   the TPTP families that is where the saturation stage runs.
//!
//! Determinism is the generator's contract: `build(cell, index, _)` is a
//! pure function of the run seed, the cell and the index (its RNG comes from
//! [`super::instance_rng`] over those coordinates), whatever worker runs it
//! and whatever ran before on that worker.

use super::answer::AnswerShape;
use super::audit::{AuditItem, Exploit, ReaderAnswer};
use super::error::{GeneratorError, MetadataError, RenderError};
use super::fault::RejectEntry;
use super::{Score, TaskError};
use crate::dataset::Record;
use serde_json::Value;

/// A worker's private context, made once per worker by
/// [`Generator::new_worker`] and handed to every `build` it runs: one
/// variant per kind of context the families keep, so a family reads its
/// own by a match the compiler checks (no downcast). A family with a new
/// kind of context adds its variant here.
#[derive(Default)]
pub enum Worker {
    /// No context (the default: PL, EQ, equivalence, toy).
    #[default]
    Empty,
    /// A prover with its verdict cache (the TPTP families label and
    /// certify with it).
    Prover(Box<crate::prover::Prover>),
}

impl Worker {
    /// The worker's prover, made by `make` first when the worker holds
    /// none (a fresh or reset worker).
    pub fn prover(
        &mut self,
        make: impl FnOnce() -> crate::prover::Prover,
    ) -> &mut crate::prover::Prover {
        if !matches!(self, Worker::Prover(_)) {
            *self = Worker::Prover(Box::new(make()));
        }
        match self {
            Worker::Prover(p) => p,
            Worker::Empty => unreachable!("set to a prover above"),
        }
    }
}

/// One dataset config (Hugging Face subset) a family writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfigInfo {
    /// The config name, also the rows' `task` column.
    pub name: &'static str,
    /// One paragraph for the dataset card: what the task asks and how it is
    /// scored.
    pub description: &'static str,
}

/// How the loop fills a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Exactly the candidate indices `0..count`; each yields at most one
    /// row (a family may retry inside `build`, as the TPTP families do with
    /// their attempts); a candidate that yields nothing is given up.
    Slots,
    /// Candidate indices 0, 1, 2, ... in order until `count` rows are
    /// accepted, at most `budget` candidates, and (with `patience`) no more
    /// than that many fruitless candidates in a row.
    UntilFull {
        /// Most candidates tried.
        budget: u64,
        /// Fruitless candidates in a row after which the cell reads no
        /// more (a row held back for its balance is not fruitless; the held
        /// rows are offered once more when it stops).
        patience: Option<u64>,
    },
}

/// One cell of a run: the rows of one config, group and level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Config name (the rows' `task`).
    pub config: &'static str,
    /// Group within the config: the axiom domain (`SET`), the problem
    /// family (`pyramid`), or the family's own name (`PL`, `EQ`).
    pub group: String,
    /// Difficulty level (size for PL2).
    pub level: u8,
    /// Rows wanted.
    pub count: u64,
    /// How candidates are drawn.
    pub fill: Fill,
    /// The family's own index for the cell (e.g. which PL2 problem family).
    pub tag: usize,
}

impl Cell {
    /// The cell's name in summaries: `config group Llevel`.
    pub fn key(&self) -> String {
        format!("{} {} L{}", self.config, self.group, self.level)
    }

    /// The id of the row built from candidate `index`: one scheme for every
    /// family, `config-group-Llevel-index` (index zero-padded to 5 digits).
    pub fn id(&self, index: u64) -> String {
        format!(
            "{}-{}-L{}-{:05}",
            self.config, self.group, self.level, index
        )
    }
}

/// A difficulty feature as JSON: an integer when it is one, so counts read
/// as counts.
fn difficulty_value(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        serde_json::Value::from(x as i64)
    } else {
        serde_json::Value::from((x * 1e6).round() / 1e6)
    }
}

/// A row's metadata from the family's `build` until the record is made: a
/// JSON object, serialized once ([`Metadata::write`]), with the keys the
/// generation loop adds (`difficulty`, `group`) appended after the
/// family's own, which keep their order. Nothing reads it back from text
/// during a run.
#[derive(Clone, Debug, PartialEq)]
pub enum Metadata {
    /// Built as a JSON value (PL, TPTP, equivalence, toy): written as
    /// serde_json writes it (object keys in its map order).
    Value(Value),
    /// Serialized from the family's own struct (EQ), whose field order
    /// (`E1`, `E2`, ..., nested structs too) is the text's: the text, made
    /// once, and its top-level keys (`None`: not an object).
    Struct {
        /// The object's JSON text.
        text: String,
        /// Its top-level keys.
        keys: Option<Vec<String>>,
    },
}

impl From<Value> for Metadata {
    fn from(v: Value) -> Metadata {
        Metadata::Value(v)
    }
}

impl From<serde_json::Map<String, Value>> for Metadata {
    fn from(m: serde_json::Map<String, Value>) -> Metadata {
        Metadata::Value(Value::Object(m))
    }
}

impl std::fmt::Display for Metadata {
    /// The JSON text without the loop's keys (what the family built).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Metadata::Value(v) => write!(f, "{v}"),
            Metadata::Struct { text, .. } => f.write_str(text),
        }
    }
}

impl Metadata {
    /// The metadata of a family's struct, its field order kept.
    pub fn of<T: serde::Serialize>(x: &T) -> Result<Metadata, MetadataError> {
        let text = serde_json::to_string(x).map_err(|e| MetadataError::NotJson(e.to_string()))?;
        let keys = match serde_json::to_value(x) {
            Ok(Value::Object(o)) => Some(o.keys().cloned().collect()),
            _ => None,
        };
        Ok(Metadata::Struct { text, keys })
    }

    /// Metadata built as a value, as that value (`None` for a struct's:
    /// nothing in the loop reads those).
    pub fn as_value(&self) -> Option<&Value> {
        match self {
            Metadata::Value(v) => Some(v),
            Metadata::Struct { .. } => None,
        }
    }

    /// Whether the metadata is an object with a top-level `key`; `Err`
    /// when it is not an object.
    fn has_key(&self, key: &str) -> Result<bool, MetadataError> {
        match self {
            Metadata::Value(Value::Object(o)) => Ok(o.contains_key(key)),
            Metadata::Struct {
                keys: Some(keys), ..
            } => Ok(keys.iter().any(|k| k == key)),
            _ => Err(MetadataError::NotObject),
        }
    }

    /// The JSON text of the record: the family's object with `appended`
    /// (in order) after its keys. Metadata that is not an object, or that
    /// has one of the appended keys or a `reserved` one itself, is an error
    /// (a generator bug).
    pub fn write(
        &self,
        appended: &[(&'static str, Value)],
        reserved: &[&'static str],
    ) -> Result<String, MetadataError> {
        for k in reserved {
            if self.has_key(k)? {
                return Err(MetadataError::Duplicate(k));
            }
        }
        for (k, _) in appended {
            if self.has_key(k)? {
                return Err(MetadataError::Duplicate(k));
            }
        }
        let text = self.to_string();
        if appended.is_empty() {
            return Ok(text);
        }
        let body = text.trim_end();
        let inner = &body[..body.len() - 1];
        let mut out = inner.to_string();
        let mut first = self.is_empty_object();
        for (k, v) in appended {
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(&Value::from(*k).to_string());
            out.push(':');
            out.push_str(&v.to_string());
        }
        out.push('}');
        Ok(out)
    }

    /// Whether the metadata is the empty object.
    fn is_empty_object(&self) -> bool {
        match self {
            Metadata::Value(Value::Object(o)) => o.is_empty(),
            Metadata::Struct { keys, .. } => keys.as_ref().is_some_and(Vec::is_empty),
            _ => false,
        }
    }
}

/// A generated, certified instance, ready to become a record.
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    /// Prompt text.
    pub prompt: String,
    /// Gold answer.
    pub answer: String,
    /// Metadata: a JSON object until the record is written.
    pub metadata: Metadata,
    /// Certificate JSON text.
    pub certificate: String,
    /// Canonical form for deduplication within the cell.
    pub key: String,
    /// What rows of one answer share (e.g. a selection's minimum premise
    /// set, canonical): at most [`Generator::max_per_group`] of a cell's
    /// rows may share one; the rest are skipped as repeats. `None`: no
    /// limit.
    pub group: Option<String>,
    /// Label class for the summary (`True`, `correct`, an answer size, ...).
    pub label: String,
    /// The record's `domain` column.
    pub domain: Option<String>,
    /// The record's `source` column (axiom file, generator).
    pub source: Option<String>,
    /// Numeric features averaged per cell in the summary (proof lines,
    /// prover effort, ...), in a fixed order.
    pub stats: Vec<(&'static str, f64)>,
    /// Measured difficulty features of the instance (proof depth,
    /// inferences, premises, symbols, prover effort in work units...), in a
    /// fixed order. The generation loop writes them into the row's metadata
    /// as the object `difficulty` ([`Built::into_record`]) and the card
    /// tabulates their means per config and level.
    pub difficulty: Vec<(&'static str, f64)>,
}

impl Built {
    /// The dataset record of this instance at `index` of `cell`, its
    /// metadata written once: the family's keys, then the difficulty
    /// features as the object `difficulty` (when there are any). Metadata
    /// that is not a JSON object, or that has a `difficulty` key (when
    /// there are features) or a `group` key of its own (the loop appends
    /// the row's group with [`with_group`]), is an error: a generator bug.
    pub fn into_record(self, cell: &Cell, index: u64) -> Result<Record, MetadataError> {
        let mut appended = Vec::new();
        if !self.difficulty.is_empty() {
            // A map: the features are written in key order.
            let features: serde_json::Map<String, Value> = self
                .difficulty
                .iter()
                .map(|(k, x)| ((*k).to_string(), difficulty_value(*x)))
                .collect();
            appended.push(("difficulty", Value::Object(features)));
        }
        // `group` comes after (with_group): refused here already.
        let metadata = self.metadata.write(&appended, &["group"])?;
        Ok(Record {
            id: cell.id(index),
            task: cell.config.to_string(),
            domain: self.domain,
            source: self.source,
            level: Some(u32::from(cell.level)),
            prompt: self.prompt,
            answer: self.answer,
            completion: String::new(),
            trace: None,
            metadata,
            certificate: self.certificate,
        })
    }
}

/// A typed reason for rejecting a candidate; families keep their own enums
/// and the loop counts them by [`RejectReason::name`].
pub trait RejectReason {
    /// The snake_case name counted in the run summary.
    fn name(&self) -> &'static str;
}

/// What one candidate index gave: at most one instance, the reasons of the
/// attempts rejected on the way (each counted), and the bugs met (refused
/// certificates, caught panics: listed in `rejects/`).
#[derive(Debug, Default)]
pub struct Attempt {
    /// The instance, if one was certified.
    pub built: Option<Built>,
    /// Names of the rejected attempts' reasons, in order.
    pub rejects: Vec<&'static str>,
    /// Thread CPU seconds of each rejected attempt, in the order of
    /// `rejects`, from generators that time their draws
    /// ([`Attempt::reject_timed`]); empty otherwise. Measurement only
    /// (`--cost-json`): never read by the walk.
    pub reject_cpu: Vec<f64>,
    /// Bugs met, in order.
    pub bugs: Vec<RejectEntry>,
    /// What the candidate learned that later slots of its cell may read
    /// ([`Seen::notes`]), as (key, value) pairs: selection notes each
    /// theorem it ran a deletion pass on with the answer that pass gave.
    pub notes: Vec<(String, String)>,
    /// The candidate stopped because the walk would have held its row back
    /// for an answer's lead and skipped it later: before the lenient slots
    /// the walk counts the slot as one that held a row (not fruitless for
    /// `patience`), as it counted the row it no longer builds.
    pub held: bool,
}

impl Attempt {
    /// A candidate that gave an instance at the first try.
    pub fn built(b: Built) -> Attempt {
        Attempt {
            built: Some(b),
            ..Attempt::default()
        }
    }

    /// Records a rejected draw of this candidate and the thread CPU
    /// seconds it took. A generator that times its draws records every one
    /// this way, so that `reject_cpu` stays aligned with `rejects`.
    pub fn reject_timed(&mut self, reason: &'static str, cpu: f64) {
        self.rejects.push(reason);
        self.reject_cpu.push(cpu);
    }

    /// A candidate rejected for `reason`.
    pub fn rejected(reason: &dyn RejectReason) -> Attempt {
        Attempt {
            rejects: vec![reason.name()],
            ..Attempt::default()
        }
    }
}

/// What scorers may need besides the row: the prover, for families whose
/// answers are checked by proving (selection, reconstruction).
pub struct ScoreContext {
    /// The prover (limits of `[prover]`).
    pub prover: crate::prover::Prover,
    /// Whether sub-metrics that cost prover work the score's value does
    /// not need are computed (selection's `sufficient` and `size_credit`
    /// for an answer larger than the minimum, reconstruction's steps after
    /// the first one not shown sound). On for `saturate score` and Python's
    /// `score_detail`; the audit's exploit suite and Python's `score` and
    /// `score_batch`, which return values only, turn it off.
    pub metrics: bool,
}

impl ScoreContext {
    /// A context with `prover` that computes every sub-metric.
    pub fn new(prover: crate::prover::Prover) -> ScoreContext {
        ScoreContext {
            prover,
            metrics: true,
        }
    }
}

/// The static face of a family: its configs, its scorer and its verifier.
pub trait TaskFamily: Sync {
    /// The family's name (`tptp`, `pl1`, `pl2`, `eq`).
    fn name(&self) -> &'static str;

    /// Every config the family can write.
    fn configs(&self) -> Vec<ConfigInfo>;

    /// Scores `answer` against a row of one of the family's configs.
    fn score(&self, row: &Record, answer: &str, ctx: &mut ScoreContext) -> Score;

    /// Re-checks a stored row (its label and certificate, from the row's
    /// own text); `Ok` carries a one-line account of what was checked.
    fn verify(&self, row: &Record) -> Result<String, TaskError>;

    /// What an answer to `config` looks like: the shared extractor
    /// ([`super::answer::extract`]) takes the answer proper out of a model's
    /// reply by it before [`TaskFamily::score`] sees the reply (default:
    /// free text, only explicit wrappers such as tags and fences removed).
    fn answer_shape(&self, config: &str) -> AnswerShape {
        let _ = config;
        AnswerShape::Text
    }

    /// The prompt of a stored row rendered again from its metadata alone,
    /// with the generator's own renderer: `verify` compares it with the
    /// stored prompt, so what the model is shown is checked as well as the
    /// label. `None` when the family cannot re-render (default); `Err` when
    /// the metadata lacks what the prompt needs.
    fn render_prompt(&self, row: &Record) -> Option<Result<String, RenderError>> {
        let _ = row;
        None
    }

    /// What must not cross splits for this row (the theorem or problem it
    /// is about, in a canonical text form), so that no test row's problem
    /// was seen in training. `None` (default) makes the row its own group.
    fn split_group(&self, row: &Record) -> Option<String> {
        let _ = row;
        None
    }

    /// The row as labelled items with surface features for the shortcut
    /// audit (`saturate audit`, [`super::audit`]): what a shallow baseline
    /// would try to predict without reasoning. `None` for configs whose
    /// answer is free text with no class to predict (proof writing, gap
    /// filling: the default); `Err` when the row cannot be read.
    fn audit_items(&self, row: &Record) -> Option<Result<Vec<AuditItem>, TaskError>> {
        let _ = row;
        None
    }

    /// For a config whose answer is a structure (a reconstruction graph):
    /// the whole answers of fixed shallow readers, compared with the gold
    /// answer part by part. The audit judges such a cell by the share of
    /// rows a reader solves outright rather than by its items, which test
    /// one choice at a time against easy negatives. `None` (default) for
    /// every other config.
    fn audit_readers(&self, row: &Record) -> Option<Result<Vec<ReaderAnswer>, TaskError>> {
        let _ = row;
        None
    }

    /// The group whose rows the audit's cross-validation never splits
    /// between training and test: rows that share a theorem or problem
    /// (entailment's True and False twins of one theorem, the restatements
    /// of one formula, the tasks made from one source problem) would let a
    /// reader that memorises the theorem pass for one that reasons, or
    /// score below chance. Default: [`TaskFamily::split_group`], else the
    /// row's id (a group of its own).
    fn audit_group(&self, row: &Record) -> String {
        self.split_group(row)
            .unwrap_or_else(|| format!("id:{}", row.id))
    }

    /// The prompt cut into named sections (the premises, the conclusion, a
    /// pool...) for the audit's learned text readers
    /// ([`crate::audit::text`]), which read each section alone and all of
    /// them together. Default: [`super::audit::prompt_sections`], blocks
    /// named by their header line.
    fn audit_sections(&self, row: &Record) -> Vec<(String, String)> {
        super::audit::prompt_sections(&row.prompt)
    }

    /// Canned answers that take no reasoning, for the audit's exploit
    /// suite: each is scored by [`TaskFamily::score`] like a model's
    /// answer, and a cell fails when one earns more than the best constant
    /// answer by the exploit margin. Constants are marked
    /// ([`Exploit::constant`]); the empty answer is always tried by the
    /// audit itself. Default: none.
    fn exploit_answers(&self, row: &Record) -> Vec<Exploit> {
        let _ = row;
        Vec::new()
    }

    /// The reasoning trace of a row of `config` (the `trace` column, see
    /// [`super::trace`]) from its parsed metadata and certificate, one
    /// line per element; `None` when the config has no trace or the row
    /// lacks what it needs (default: no traces).
    fn trace(&self, config: &str, metadata: &Value, certificate: &Value) -> Option<Vec<String>> {
        let _ = (config, metadata, certificate);
        None
    }
}

/// A row's group as written into its metadata (key `group`): 16 hex
/// digits of the SHA-256 of [`TaskFamily::audit_group`], the same for
/// every row of one theorem or problem (an entailment's True and False
/// twins, a formula's restatements and mutations, the tasks made from one
/// source problem), so that an evaluator can keep one row per group.
pub fn group_id(family: &dyn TaskFamily, row: &Record) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(family.audit_group(row).as_bytes());
    d[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// Appends the key `group` to the metadata text of a record made by
/// [`Built::into_record`] (a JSON object without a `group` key, as that
/// checked), its other keys kept in order.
pub fn with_group(metadata: &mut String, group: &str) {
    let body = metadata.trim_end();
    let inner = body[..body.len() - 1].trim_end();
    let sep = if inner.ends_with('{') { "" } else { "," };
    let text = format!("{inner}{sep}\"group\":{}}}", Value::from(group));
    *metadata = text;
}

/// Where two prompts first differ, for `verify`'s message: `None` when
/// they are equal.
pub fn prompt_difference(stored: &str, rendered: &str) -> Option<String> {
    if stored == rendered {
        return None;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (stored.lines().collect(), rendered.lines().collect());
    let excerpt = |l: Option<&&str>| match l {
        Some(l) => format!("{:?}", crate::tptp::excerpt(l, 80)),
        None => "(end of prompt)".to_string(),
    };
    let at = (0..a.len().max(b.len()))
        .find(|&i| a.get(i) != b.get(i))
        .unwrap_or(a.len().min(b.len()));
    Some(format!(
        "the stored prompt differs from the one rendered from the metadata at line {} ({} lines stored, {} rendered): stored {}, rendered {}",
        at + 1,
        a.len(),
        b.len(),
        excerpt(a.get(at)),
        excerpt(b.get(at))
    ))
}

/// The balance a cell keeps over the items of its rows
/// ([`Generator::balanced_items`]): per item text, how many of the cell's
/// rows have it on the answer side (in the answer, or in a True row) and
/// how many on the other side. A reader that learns which texts usually
/// sit on which side then learns little.
#[derive(Clone, Debug, PartialEq)]
pub struct Balance {
    /// How many more rows an item may be on one side of than on the other.
    pub lead: u64,
    /// The row's items, each with its side (`true`: the answer side).
    pub items: Vec<(String, bool)>,
    /// Which sides are kept and what happens to a row past the lead.
    pub rule: BalanceRule,
}

/// How a cell keeps its [`Balance`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BalanceRule {
    /// Only the answer side may not lead by more than the lead. A row
    /// that would take an item past it is held back and offered again
    /// once the walk reaches its lenient slots, where the lead allowed is
    /// `hard` (a row less balanced beats a row missing, but not a row
    /// whose answer is told by its words: premise selection).
    AnswerSideHeld {
        /// The lead allowed in the lenient slots; a row past it is
        /// skipped for good.
        hard: u64,
    },
    /// Neither side may lead by more than the lead. A row that would take
    /// an item past it is skipped for good, and so is the row at
    /// `partner` (the other row of its minimal pair), so that pairs stay
    /// whole (conjecture entailment).
    BothSidesSkipped {
        /// The index of the row that shares this row's fate.
        partner: Option<u64>,
    },
}

impl Balance {
    /// Whether adding this row to `tallies` (per item: rows on the answer
    /// side, rows on the other) would take an item past `lead`.
    pub fn over(&self, tallies: &std::collections::HashMap<String, (u64, u64)>, lead: u64) -> bool {
        self.over_by(|text| tallies.get(text).copied().unwrap_or((0, 0)), lead)
    }

    /// [`Balance::over`] with each item's tally read through `tally` (rows
    /// on the answer side, rows on the other), such as [`Seen::tally`]: a
    /// generator asks it of a row before building it.
    pub fn over_by(&self, tally: impl Fn(&str) -> (u64, u64), lead: u64) -> bool {
        self.items.iter().any(|(text, answer)| {
            let (a, o) = tally(text);
            match (self.rule, *answer) {
                (_, true) => Balance::past_lead((a, o), lead) > 0,
                (BalanceRule::BothSidesSkipped { .. }, false) => {
                    Balance::past_lead((o, a), lead) > 0
                }
                (BalanceRule::AnswerSideHeld { .. }, false) => false,
            }
        })
    }

    /// How many rows past `lead` one more row on an item's side would take
    /// it, given its tally (rows on that side, rows on the other); 0 within
    /// the lead. [`Balance::over_by`]'s test, and what a generator reads to
    /// tell how far behind its rows an item is.
    pub fn past_lead((side, other): (u64, u64), lead: u64) -> u64 {
        (side + 1).saturating_sub(other + lead)
    }
}

/// How many slots of a cell share one [`Seen`]: the walk's state is read
/// at every multiple of it, and no batch of slots crosses one (for
/// generators that ask, [`Generator::sees_walk`]). A fixed number, so a
/// slot reads the same state whatever the thread count or batch size.
pub const SEEN_STRIDE: u64 = 32;

/// The first 128 bits of the SHA-256 of a text: how the loop keys a row's
/// dedup key and its [`Built::group`].
pub fn key_digest(key: &str) -> [u8; 16] {
    use sha2::Digest;
    let d = sha2::Sha256::digest(key.as_bytes());
    let mut out = [0u8; 16];
    out.copy_from_slice(&d[..16]);
    out
}

/// What a cell's walk had decided when slot `index / SEEN_STRIDE *
/// SEEN_STRIDE` began ([`SEEN_STRIDE`]), as it will stand once the rows it
/// holds back for their balance are offered again: rows written, rows per
/// answer group ([`Built::group`]), the balanced items' tallies (each held
/// row that would be skipped counting on its leading item's answer side),
/// the tallies of the rows written so far alone, the notes the earlier
/// candidates left ([`Attempt::notes`]) and the dedup keys of the rows
/// built so far ([`Built::key`], as [`key_digest`]s). A generator reads it to stop a
/// candidate early whose row would add nothing to the cell (the walk still
/// decides). A pure function of the cell's earlier slots, so reading it
/// keeps candidates a function of (seed, cell, index).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seen {
    groups: std::collections::HashMap<[u8; 16], u64>,
    notes: std::collections::HashMap<String, Vec<String>>,
    tallies: std::collections::HashMap<String, (u64, u64)>,
    written: u64,
    written_tallies: std::collections::HashMap<String, (u64, u64)>,
    keys: std::sync::Arc<std::collections::HashSet<[u8; 16]>>,
}

impl Seen {
    /// The state of a walk: rows per group digest ([`key_digest`]), the
    /// candidates' notes per key (distinct values, in slot order) and, per
    /// balanced item ([`Generator::balanced_items`]), the rows written with
    /// it on the answer side and on the other; the rows written; and the
    /// tallies of the rows written so far, without the held rows; and the
    /// digests of the keys of the rows built so far.
    pub fn new(
        groups: std::collections::HashMap<[u8; 16], u64>,
        notes: std::collections::HashMap<String, Vec<String>>,
        tallies: std::collections::HashMap<String, (u64, u64)>,
        written: u64,
        written_tallies: std::collections::HashMap<String, (u64, u64)>,
        keys: std::collections::HashSet<[u8; 16]>,
    ) -> Seen {
        Seen {
            groups,
            notes,
            tallies,
            written,
            written_tallies,
            keys: std::sync::Arc::new(keys),
        }
    }

    /// Whether an earlier slot built a row with dedup key `key`: a row of
    /// this key would be a duplicate.
    pub fn has_key(&self, key: &str) -> bool {
        self.keys.contains(&key_digest(key))
    }

    /// [`Seen::tally`] over the rows written so far only, without the held
    /// rows: whether a row would be held back at its turn.
    pub fn written_tally(&self, text: &str) -> (u64, u64) {
        self.written_tallies.get(text).copied().unwrap_or((0, 0))
    }

    /// Rows of the cell written.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Rows written with answer group `group`.
    pub fn group_rows(&self, group: &str) -> u64 {
        self.groups.get(&key_digest(group)).copied().unwrap_or(0)
    }

    /// Rows written with the balanced item `text` on the answer side and on
    /// the other side.
    pub fn tally(&self, text: &str) -> (u64, u64) {
        self.tallies.get(text).copied().unwrap_or((0, 0))
    }

    /// The values earlier candidates noted under `key`, distinct, in slot
    /// order.
    pub fn notes(&self, key: &str) -> &[String] {
        self.notes.get(key).map_or(&[], Vec::as_slice)
    }
}

/// One run of a family: its cells and how to build an instance.
pub trait Generator: Sync {
    /// The family this run belongs to.
    fn family(&self) -> &dyn TaskFamily;

    /// The generator version recorded in the manifest; bumped whenever the
    /// same config and seed would give other bytes.
    fn version(&self) -> &'static str;

    /// The cells of the run, in output order.
    fn cells(&self) -> Vec<Cell>;

    /// A fresh worker context (default: none).
    fn new_worker(&self) -> Worker {
        Worker::Empty
    }

    /// Builds the instance at `index` of `cell` (see the module's
    /// determinism contract). A panic is caught by the loop and counted.
    fn build(&self, cell: &Cell, index: u64, worker: &mut Worker) -> Attempt;

    /// Whether the candidates of `cell` read the walk's state ([`Seen`];
    /// default: no). The loop then ends its batches at multiples of
    /// [`SEEN_STRIDE`] and calls [`Generator::build_seeing`].
    fn sees_walk(&self, _cell: &Cell) -> bool {
        false
    }

    /// Whether the [`Seen`] of a cell that [`Generator::sees_walk`] holds
    /// the keys its earlier slots built ([`Seen::has_key`]; default: no):
    /// copied at every [`SEEN_STRIDE`], so only for cells that read them.
    fn sees_keys(&self, _cell: &Cell) -> bool {
        false
    }

    /// [`Generator::build`] for a cell that [`Generator::sees_walk`]:
    /// `seen` is the walk's state when the slot's stride began (default:
    /// ignored).
    fn build_seeing(&self, cell: &Cell, index: u64, worker: &mut Worker, _seen: &Seen) -> Attempt {
        self.build(cell, index, worker)
    }

    /// Most rows of `cell` that may share one [`Built::group`] (default: no
    /// limit). A row over the limit is skipped as a repeat and the cell
    /// walks on, as after a duplicate.
    fn max_per_group(&self, _cell: &Cell) -> Option<u64> {
        None
    }

    /// What the built row at `index` adds to the balance its cell keeps
    /// ([`Balance`]):
    /// items (texts) whose sides a reader must not be able to learn, with
    /// the lead allowed and what happens to a row past it (default: no
    /// balance kept).
    fn balanced_items(&self, _cell: &Cell, _index: u64, _built: &Built) -> Option<Balance> {
        None
    }

    /// The run's settings for `manifest.json` (the configs' knobs, without
    /// anything that does not change the output, such as `jobs`).
    fn manifest(&self) -> Value;

    /// Whether duplicates are looked for across the levels of a (config,
    /// group), not only within a cell: for families whose generators can
    /// give the same problem at two levels (PL2 sizes overlap). Such cells
    /// are then also sharded together (default: per cell).
    fn dedup_across_levels(&self) -> bool {
        false
    }

    /// Paragraphs for the dataset card's description (default: none).
    fn card(&self) -> String {
        String::new()
    }

    /// Called by the loop before the first cell of a run of consecutive
    /// cells of `group` (cells come in output order, so a generator whose
    /// cells are group-major sees each group entered once): the place to
    /// load what the group's cells read. An error ends the run (default:
    /// nothing to load).
    fn enter_group(&self, _group: &str) -> Result<(), GeneratorError> {
        Ok(())
    }

    /// Called after the last cell of that run of `group`'s cells, also when
    /// the loop stops early: what was loaded for it may be released, so a
    /// run holds one group's inputs at a time (default: nothing held).
    fn leave_group(&self, _group: &str) {}
}

/// Reads a row's metadata as a JSON value (an error names the column).
pub fn metadata_json(row: &Record) -> Result<Value, TaskError> {
    serde_json::from_str(&row.metadata).map_err(|e| TaskError::Record(format!("metadata: {e}")))
}

/// Reads a row's certificate as a JSON value (an error names the column).
pub fn certificate_json(row: &Record) -> Result<Value, TaskError> {
    serde_json::from_str(&row.certificate)
        .map_err(|e| TaskError::Record(format!("certificate: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_differences_name_the_line() {
        assert_eq!(prompt_difference("a\nb\n", "a\nb\n"), None);
        let d = prompt_difference("a\nc\n", "a\nb\nc\n").unwrap();
        assert!(
            d.contains("line 2") && d.contains("\"c\"") && d.contains("\"b\""),
            "{d}"
        );
        let d = prompt_difference("a\n", "a\nb\n").unwrap();
        assert!(d.contains("(end of prompt)"), "{d}");
        // A difference in line endings alone is still a difference.
        assert!(prompt_difference("a\n", "a").is_some());
    }

    #[test]
    fn a_balance_is_past_its_lead_on_the_sides_it_keeps() {
        let tallies: std::collections::HashMap<String, (u64, u64)> =
            [("a".to_string(), (5, 2)), ("b".to_string(), (1, 4))].into();
        let row = |items: &[(&str, bool)], rule| Balance {
            lead: 3,
            items: items.iter().map(|&(t, s)| (t.to_string(), s)).collect(),
            rule,
        };
        let held = BalanceRule::AnswerSideHeld { hard: 6 };
        let pair = BalanceRule::BothSidesSkipped { partner: Some(1) };
        // "a" leads by 3 on the answer side: one more row passes the lead,
        // not the hard one; a new text starts at zero.
        assert!(row(&[("a", true)], held).over(&tallies, 3));
        assert!(!row(&[("a", true)], held).over(&tallies, 6));
        assert!(!row(&[("c", true), ("a", false)], held).over(&tallies, 3));
        // Only the pair rule keeps the other side: "b" leads there by 3.
        assert!(!row(&[("b", false)], held).over(&tallies, 3));
        assert!(row(&[("b", false)], pair).over(&tallies, 3));
        // A row that narrows a lead is never past it.
        assert!(!row(&[("a", false), ("b", true)], pair).over(&tallies, 3));
    }

    #[test]
    fn one_id_scheme() {
        let c = Cell {
            config: "conjecture_entailment",
            group: "SET".into(),
            level: 3,
            count: 10,
            fill: Fill::Slots,
            tag: 0,
        };
        assert_eq!(c.id(7), "conjecture_entailment-SET-L3-00007");
        assert_eq!(c.key(), "conjecture_entailment SET L3");
    }

    #[test]
    fn the_group_goes_last_into_the_metadata() {
        let mut m = r#"{"a":1,"difficulty":{"x":2}}"#.to_string();
        with_group(&mut m, "0f");
        assert_eq!(m, r#"{"a":1,"difficulty":{"x":2},"group":"0f"}"#);
        let mut m = "{}".to_string();
        with_group(&mut m, "0f");
        assert_eq!(m, r#"{"group":"0f"}"#);
    }

    fn built(metadata: Metadata) -> Built {
        Built {
            prompt: String::new(),
            answer: String::new(),
            metadata,
            certificate: String::new(),
            key: String::new(),
            group: None,
            label: String::new(),
            domain: None,
            source: None,
            stats: Vec::new(),
            difficulty: Vec::new(),
        }
    }

    fn cell() -> Cell {
        Cell {
            config: "c",
            group: "G".into(),
            level: 1,
            count: 1,
            fill: Fill::Slots,
            tag: 0,
        }
    }

    #[test]
    fn difficulty_goes_into_the_metadata() {
        let write = |b: &Built| b.clone().into_record(&cell(), 0).map(|r| r.metadata);
        let mut b = built(serde_json::json!({"theorem": "p(X)", "z": 1}).into());
        assert_eq!(write(&b).unwrap(), r#"{"theorem":"p(X)","z":1}"#);
        b.difficulty = vec![("prover_effort", 2.5), ("proof_depth", 3.0)];
        let m: serde_json::Value = serde_json::from_str(&write(&b).unwrap()).unwrap();
        assert_eq!(m["theorem"], "p(X)");
        assert_eq!(m["difficulty"]["proof_depth"], serde_json::json!(3));
        assert_eq!(m["difficulty"]["prover_effort"], serde_json::json!(2.5));
        // The family's keys come first; the features last, in key order.
        assert_eq!(
            write(&b).unwrap(),
            r#"{"theorem":"p(X)","z":1,"difficulty":{"proof_depth":3,"prover_effort":2.5}}"#
        );
        b.metadata = serde_json::json!({}).into();
        assert_eq!(
            write(&b).unwrap(),
            r#"{"difficulty":{"proof_depth":3,"prover_effort":2.5}}"#
        );
        b.metadata = serde_json::json!([1]).into();
        assert_eq!(write(&b), Err(MetadataError::NotObject));
        b.metadata = serde_json::json!({"difficulty": 1}).into();
        assert_eq!(write(&b), Err(MetadataError::Duplicate("difficulty")));
        // A family's own `difficulty` is refused only when the loop adds
        // one; its `group` always (the loop adds that to every row).
        b.difficulty.clear();
        assert_eq!(write(&b).unwrap(), r#"{"difficulty":1}"#);
        b.metadata = serde_json::json!({"group": 1}).into();
        assert_eq!(write(&b), Err(MetadataError::Duplicate("group")));
    }

    /// A struct's metadata keeps its field order (serde_json's map would
    /// sort the keys), at every depth, with the loop's keys after it.
    #[test]
    fn struct_metadata_keeps_its_field_order() {
        #[derive(serde::Serialize)]
        struct Inner {
            z: u8,
            a: u8,
        }
        #[derive(serde::Serialize)]
        struct Outer {
            y: Inner,
            b: &'static str,
        }
        let m = Metadata::of(&Outer {
            y: Inner { z: 1, a: 2 },
            b: "x",
        })
        .unwrap();
        assert_eq!(m.to_string(), r#"{"y":{"z":1,"a":2},"b":"x"}"#);
        assert!(m.as_value().is_none());
        let mut b = built(m);
        b.difficulty = vec![("steps", 4.0)];
        assert_eq!(
            b.into_record(&cell(), 0).unwrap().metadata,
            r#"{"y":{"z":1,"a":2},"b":"x","difficulty":{"steps":4}}"#
        );
        #[derive(serde::Serialize)]
        struct Clash {
            group: u8,
        }
        let b = built(Metadata::of(&Clash { group: 1 }).unwrap());
        assert_eq!(
            b.into_record(&cell(), 0).unwrap_err().to_string(),
            "metadata already has a group key"
        );
        let b = built(Metadata::of(&[1, 2]).unwrap());
        assert_eq!(
            b.into_record(&cell(), 0).unwrap_err().to_string(),
            "metadata is not a JSON object"
        );
    }
}
