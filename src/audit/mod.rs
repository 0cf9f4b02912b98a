//! The shortcut audit (`saturate audit DIR`, and the report every
//! generation run writes into its dataset card): can a shallow reader
//! predict the labels without reasoning?
//!
//! Each family turns a row into labelled items with surface features
//! ([`crate::tasks::audit`], [`crate::tasks::family::TaskFamily::audit_items`]).
//! Per config and level, [`model::evaluate`] cross-validates the majority
//! class, the best single-feature threshold rule, a shallow tree and a
//! logistic regression over all features. A cell with enough rows fails
//! when a baseline beats the majority by more than the margin (default 10
//! points), or when its label never varies (the answer is then given by the
//! task's form, not by reasoning). A config whose answer is a structure (a
//! reconstruction graph) is judged instead by the share of rows that fixed
//! shallow readers solve outright
//! ([`crate::tasks::family::TaskFamily::audit_readers`]): its items test one
//! edge at a time against easy negatives, and a parent shares literals with
//! its child by the inference rule itself, so their accuracy is reported,
//! not judged.
//!
//! Folds are grouped: a row's fold is a hash of its group
//! ([`TaskFamily::audit_group`]: the theorem or problem), so the True and
//! False twins of one theorem, or the restatements of one formula, are
//! never split between training and test. Besides the feature baselines,
//! learned text readers ([`text`]) read the prompt's sections. The exploit
//! suite scores canned no-reasoning answers
//! ([`TaskFamily::exploit_answers`]) with the family's real scorer on a
//! sample of each cell's rows; a cell fails when one beats the best
//! constant answer by more than [`AuditSettings::exploit_margin`].
//!
//! Determinism: items are sorted by row id inside each cell and the folds
//! come from a hash of the group, so the report depends on the rows alone,
//! not on the order they were written or read in: the card written by a run
//! and `saturate audit` on the same folder agree to the digit.

pub mod model;
pub mod text;

use crate::dataset::Record;
use crate::prover::{Prover, ProverLimits};
use crate::tasks::answer::extract;
use crate::tasks::audit::{AuditItem, Exploit};
use crate::tasks::family::{Registry, ScoreContext, TaskFamily};
use model::{Data, Evaluation, FOLDS};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt::Write;

/// When a cell fails the audit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AuditSettings {
    /// Largest tolerated lead of a baseline over the majority class, in
    /// accuracy points (0-100).
    pub margin_points: f64,
    /// Cells with fewer rows are reported but never fail.
    pub min_rows: usize,
    /// Largest tolerated lead of a no-reasoning answer's mean score over
    /// the best constant answer's, in score units (0-1).
    pub exploit_margin: f64,
    /// Rows per cell the exploit suite scores (those whose ids hash
    /// smallest): scoring a selection or derivation answer calls the
    /// prover.
    pub exploit_rows: usize,
    /// Fewest rows an exploit must be scored on for its cell to be judged.
    pub exploit_min_rows: usize,
    /// Keep every canned answer scored ([`ExploitCell::answers`]), so
    /// another scorer (an older build, a user's own) can score the same
    /// answers.
    pub keep_exploit_answers: bool,
    /// Run only the exploit suite: no readers, no judged cells (the
    /// readers are most of an audit's time on a large dataset).
    pub exploits_only: bool,
}

impl Default for AuditSettings {
    fn default() -> Self {
        AuditSettings {
            margin_points: 10.0,
            min_rows: 50,
            exploit_margin: 0.2,
            exploit_rows: 40,
            exploit_min_rows: 10,
            keep_exploit_answers: false,
            exploits_only: false,
        }
    }
}

/// The verdict on one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every baseline within the margin of the majority.
    Pass,
    /// A baseline beats the majority by more than the margin.
    Shortcut,
    /// One label only: the task's form gives the answer.
    ConstantLabel,
    /// Too few rows to judge (reported, never failing).
    TooFewRows,
}

/// The audit of one (config, level) cell.
#[derive(Clone, Debug, Serialize)]
pub struct CellAudit {
    /// Config (task) name.
    pub config: String,
    /// Level (`-` when the rows have none).
    pub level: String,
    /// Rows of the cell judged (all of them, or the sample of
    /// [`MAX_AUDIT_ROWS`]).
    pub rows: usize,
    /// The cell's rows when it had more than [`MAX_AUDIT_ROWS`] and a
    /// sample was judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampled_from: Option<usize>,
    /// Items (more than rows when a row gives several).
    pub items: usize,
    /// Items per label.
    pub labels: BTreeMap<String, usize>,
    /// Cross-validated accuracies (none for a constant label or too few
    /// rows to cross-validate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub majority: Option<f64>,
    /// Best single-feature threshold rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub single_rule: Option<f64>,
    /// The single rule fitted on all items, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub single_rule_text: Option<String>,
    /// Shallow tree over all features.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<f64>,
    /// Logistic regression over all features.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logistic: Option<f64>,
    /// Distinct groups ([`TaskFamily::audit_group`]) among the rows: the
    /// folds never split one.
    pub groups: usize,
    /// The learned text readers' cross-validated accuracies
    /// ([`text`]): per prompt section (or item text) and over all of them,
    /// logistic regression (`lr:`) and naive Bayes (`nb:`) on hashed
    /// unigrams and bigrams, and `lr:text+features` over all sections and
    /// the surface features. Empty when no text was read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub text_readers: Vec<(String, f64)>,
    /// Rows the text readers read (at most [`MAX_TEXT_ROWS`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub text_rows: usize,
    /// The most predictive features with their own rule's accuracy.
    pub top_features: Vec<(String, f64)>,
    /// For a config whose answer is a structure: the best shallow
    /// reader's whole answers, by which the cell is judged (the accuracies
    /// above are then of its per-part items, reported and not judged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole: Option<WholeAudit>,
    /// The verdict.
    pub status: Status,
}

/// How well the best of a config's fixed shallow readers
/// ([`crate::tasks::audit::ReaderAnswer`]) answers its rows whole.
#[derive(Clone, Debug, Serialize)]
pub struct WholeAudit {
    /// The reader that solves the most rows (ties: the most parts right).
    pub reader: String,
    /// Share of rows it solves outright (every part right).
    pub solved: f64,
    /// Share of all parts it gets right.
    pub parts_right: f64,
}

impl CellAudit {
    /// The best baseline's lead over the majority, in points: for a
    /// structured answer, the share of rows the best reader solves (a
    /// constant answer solves none).
    pub fn excess_points(&self) -> Option<f64> {
        if let Some(w) = &self.whole {
            return Some(100.0 * w.solved);
        }
        let best = self.single_rule?.max(self.tree?).max(self.logistic?);
        let best = self.text_readers.iter().map(|r| r.1).fold(best, f64::max);
        Some(100.0 * (best - self.majority?))
    }

    /// The best text reader, if any (ties: the first listed).
    pub fn best_text(&self) -> Option<&(String, f64)> {
        self.text_readers
            .iter()
            .fold(None, |best: Option<&(String, f64)>, r| match best {
                Some(b) if b.1 >= r.1 => Some(b),
                _ => Some(r),
            })
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The verdict of the exploit suite on one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExploitStatus {
    /// Every no-reasoning answer within the margin of the best constant.
    Pass,
    /// A no-reasoning answer earns more than the margin above it.
    Exploit,
    /// Too few rows scored to judge.
    TooFewRows,
}

/// One canned answer's results on a cell.
#[derive(Clone, Debug, Serialize)]
pub struct ExploitMean {
    /// The exploit's name ([`crate::tasks::audit::Exploit::name`]).
    pub name: String,
    /// Whether it is a constant answer.
    pub constant: bool,
    /// Rows it was scored on (rows where the family offers it).
    pub rows: usize,
    /// Its mean score under the family's scorer.
    pub mean: f64,
    /// Share of those rows it gets full credit on.
    pub solved: f64,
}

/// The exploit suite on one (config, level) cell: canned answers that take
/// no reasoning, scored by the family's real scorer.
#[derive(Clone, Debug, Serialize)]
pub struct ExploitCell {
    /// Config (task) name.
    pub config: String,
    /// Level (`-` when the rows have none).
    pub level: String,
    /// Rows scored (the sample of [`AuditSettings::exploit_rows`]).
    pub rows: usize,
    /// The cell's rows, when more than were scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampled_from: Option<usize>,
    /// The baseline: the best constant answer's mean score.
    pub baseline: f64,
    /// That constant answer's name.
    pub baseline_answer: String,
    /// Every answer's results, constants first, in the family's order.
    pub exploits: Vec<ExploitMean>,
    /// The verdict.
    pub status: ExploitStatus,
    /// Every canned answer scored, by row id then exploit (only with
    /// [`AuditSettings::keep_exploit_answers`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<ExploitAnswer>,
}

/// One canned answer the exploit suite scored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExploitAnswer {
    /// The row's id.
    pub id: String,
    /// The exploit's name.
    pub exploit: String,
    /// The answer as the suite wrote it (before the shared extractor).
    pub answer: String,
    /// Its score by the config's scorer.
    pub score: f64,
}

impl ExploitCell {
    /// The non-constant answer with the highest mean over enough rows
    /// (ties: the first), if any.
    pub fn best(&self, min_rows: usize) -> Option<&ExploitMean> {
        self.exploits
            .iter()
            .filter(|e| !e.constant && e.rows >= min_rows)
            .fold(None, |best: Option<&ExploitMean>, e| match best {
                Some(b) if b.mean >= e.mean => Some(b),
                _ => Some(e),
            })
    }
}

/// The whole audit of a dataset.
#[derive(Clone, Debug, Serialize)]
pub struct AuditReport {
    /// The margin the cells were judged with, in points.
    pub margin_points: f64,
    /// The fewest rows a cell needs to be judged.
    pub min_rows: usize,
    /// Per (config, level), in config then level order.
    pub cells: Vec<CellAudit>,
    /// Configs with no class to predict (free-text answers), with rows.
    pub not_audited: BTreeMap<String, usize>,
    /// The exploit margin, in score units.
    pub exploit_margin: f64,
    /// The fewest rows an exploit is judged on.
    pub exploit_min_rows: usize,
    /// The exploit suite per (config, level), every config included.
    pub exploits: Vec<ExploitCell>,
}

impl AuditReport {
    /// The cells that fail (shortcut or constant label).
    pub fn failures(&self) -> Vec<&CellAudit> {
        self.cells
            .iter()
            .filter(|c| matches!(c.status, Status::Shortcut | Status::ConstantLabel))
            .collect()
    }

    /// The cells where a no-reasoning answer beats the best constant by
    /// more than the exploit margin.
    pub fn exploit_failures(&self) -> Vec<&ExploitCell> {
        self.exploits
            .iter()
            .filter(|c| c.status == ExploitStatus::Exploit)
            .collect()
    }

    /// Every failing cell, as `config Llevel` (shortcut or constant label)
    /// and `config Llevel exploit NAME`.
    pub fn failing(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .failures()
            .iter()
            .map(|c| format!("{} L{}", c.config, c.level))
            .collect();
        for c in self.exploit_failures() {
            let name = c
                .best(self.exploit_min_rows)
                .map_or("", |e| e.name.as_str());
            out.push(format!("{} L{} exploit {name}", c.config, c.level));
        }
        out
    }

    /// The exploit suite's table as Markdown.
    fn exploits_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "\n**Exploit suite.** Canned answers that take no reasoning (constant labels, the empty \
             answer, the whole pool, repeated premises, trivial restatements, position and overlap \
             rules), each scored by the config's real scorer on at most {} rows per cell (a sample \
             drawn by the row ids' hashes). The baseline is the best constant answer's mean score; a cell fails \
             when another answer's mean, over {}+ rows, is more than {} above it.\n",
            self.exploits.iter().map(|c| c.rows).max().unwrap_or(0),
            self.exploit_min_rows,
            self.exploit_margin
        );
        s.push_str(
            "| config | level | rows | baseline (best constant) | best exploit | lead | status | every answer (mean score) |\n\
             |---|---|---:|---|---|---:|---|---|\n",
        );
        for c in &self.exploits {
            let [config, level, rows, base, best, lead, status, all] = self.exploit_columns(c);
            let _ = writeln!(
                s,
                "| `{config}` | {level} | {rows} | {base} | {best} | {lead} | {status} | {all} |"
            );
        }
        let failures = self.exploit_failures();
        let _ = writeln!(
            s,
            "\n{}",
            if failures.is_empty() {
                "No exploit beats the best constant answer by more than the margin.".to_string()
            } else {
                format!(
                    "{} cell(s) fail the exploit gate: {}.",
                    failures.len(),
                    cell_list(failures.iter().map(|c| (&*c.config, &*c.level)))
                )
            }
        );
        s
    }

    /// One exploit cell's columns: config, level, rows, baseline, best
    /// exploit, lead, status, every answer.
    fn exploit_columns(&self, c: &ExploitCell) -> [String; 8] {
        let best = c.best(self.exploit_min_rows);
        [
            c.config.clone(),
            c.level.clone(),
            match c.sampled_from {
                Some(n) => format!("{} of {n}", c.rows),
                None => c.rows.to_string(),
            },
            format!("{} {:.3}", c.baseline_answer, c.baseline),
            best.map_or("-".into(), |e| format!("{} {:.3}", e.name, e.mean)),
            best.map_or("-".into(), |e| format!("{:+.3}", e.mean - c.baseline)),
            match c.status {
                ExploitStatus::Pass => "pass",
                ExploitStatus::Exploit => "EXPLOIT",
                ExploitStatus::TooFewRows => "too few rows",
            }
            .to_string(),
            c.exploits
                .iter()
                .map(|e| format!("{} {:.2}", e.name, e.mean))
                .collect::<Vec<_>>()
                .join(", "),
        ]
    }

    /// The report as a Markdown section (for the dataset card).
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Can a shallow reader predict the labels without reasoning? Per config and level, \
             five-fold cross-validated accuracy of the majority class, the best single-feature \
             threshold rule, a depth-3 tree and a logistic regression over a bank of surface \
             features (sizes, verbatim membership in the background, symbol overlap, positions), \
             and of learned text readers: L2 logistic regression and naive Bayes over hashed \
             token unigrams and bigrams of each prompt section (or of a pool clause), of all \
             sections, and of all sections with the surface features (column `text`: the best; \
             at most {MAX_TEXT_ROWS} rows). Folds are grouped: rows of one theorem or problem (an \
             entailment's True and False twins, the restatements of one formula) are never split \
             between training and test, so a reader cannot pass by recognising the theorem. A cell \
             with at least {} rows fails when a reader beats the majority by more than {} points \
             or when its label never varies. A config whose answer is a \
             structure (proof reconstruction: a graph) is judged by its whole answers instead: fixed \
             shallow readers (each derived clause's parents taken as the two clauses sharing most \
             literals with it) answer every row, and the lead is the share of rows the best one \
             solves outright (its graph is the gold one; `scripts/recon_baseline.py` also counts \
             other sound graphs, through the scorer), since a constant answer solves none; its accuracies are of per-edge \
             items (a parent against two random other clauses), shown and not judged, as a \
             parent shares literals with its child by the inference rule itself. Re-run with \
             `saturate audit DIR`.\n",
            self.min_rows, self.margin_points
        );
        s.push_str(
            "| config | level | rows | groups | items | majority | single rule | tree | logistic | text | lead | status | most predictive |\n\
             |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n",
        );
        for c in &self.cells {
            let [config, rest @ ..] = columns(c);
            let _ = writeln!(s, "| `{config}` | {} |", rest.join(" | "));
        }
        if self.cells.iter().any(|c| c.sampled_from.is_some()) {
            let _ = writeln!(
                s,
                "\nA cell of more than {MAX_AUDIT_ROWS} rows is judged on the {MAX_AUDIT_ROWS} rows \
                 whose ids hash smallest (\"rows\" reads `judged of all`)."
            );
        }
        if !self.not_audited.is_empty() {
            let names: Vec<String> = self
                .not_audited
                .iter()
                .map(|(k, n)| format!("`{k}` ({n} rows)"))
                .collect();
            let _ = writeln!(
                s,
                "\nNot audited (free-text answers, no class to predict; their scorers check the \
                 answer itself): {}.",
                names.join(", ")
            );
        }
        let failures = self.failures();
        let _ = writeln!(
            s,
            "\n{}",
            if failures.is_empty() {
                "Every judged cell is within the margin of the learned readers.".to_string()
            } else {
                format!(
                    "{} cell(s) fail: {}.",
                    failures.len(),
                    cell_list(failures.iter().map(|c| (&*c.config, &*c.level)))
                )
            }
        );
        s.push_str(&self.exploits_markdown());
        s
    }

    /// The report as a plain-text table (for the terminal).
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<28} {:>3} {:>5} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}  {:<14} most predictive",
            "config",
            "L",
            "rows",
            "groups",
            "items",
            "major",
            "rule",
            "tree",
            "logit",
            "text",
            "lead",
            "status"
        );
        for c in &self.cells {
            let [
                config,
                level,
                rows,
                groups,
                items,
                major,
                rule,
                tree,
                logit,
                text,
                lead,
                status,
                top,
            ] = columns(c);
            let _ = writeln!(
                s,
                "{config:<28} {level:>3} {rows:>5} {groups:>6} {items:>6} {major:>6} {rule:>6} {tree:>6} {logit:>6} {text:>6} {lead:>6}  {status:<14} {top}"
            );
        }
        for (k, n) in &self.not_audited {
            let _ = writeln!(s, "{k:<28} not audited ({n} rows): free-text answers");
        }
        let failures = self.failures().len();
        let _ = writeln!(
            s,
            "audit: {} cell(s) judged, {} failing (margin {} points, cells of {}+ rows)",
            self.cells
                .iter()
                .filter(|c| c.status != Status::TooFewRows)
                .count(),
            failures,
            self.margin_points,
            self.min_rows
        );
        let _ = writeln!(
            s,
            "\n{:<28} {:>3} {:>5} {:<24} {:<28} {:>7}  {:<12} every answer",
            "exploits: config", "L", "rows", "baseline", "best exploit", "lead", "status"
        );
        for c in &self.exploits {
            let [config, level, rows, base, best, lead, status, all] = self.exploit_columns(c);
            let _ = writeln!(
                s,
                "{config:<28} {level:>3} {rows:>5} {base:<24} {best:<28} {lead:>7}  {status:<12} {all}"
            );
        }
        let _ = writeln!(
            s,
            "exploits: {} cell(s) judged, {} failing (an answer more than {} above the best constant, over {}+ rows)",
            self.exploits
                .iter()
                .filter(|c| c.status != ExploitStatus::TooFewRows)
                .count(),
            self.exploit_failures().len(),
            self.exploit_margin,
            self.exploit_min_rows
        );
        s
    }
}

/// One cell's row of the report, as the thirteen column texts both tables
/// print: config, level, rows, groups, items, the five accuracies
/// (percent; `text` the best text reader's), the lead (points), the status
/// and the most predictive features.
fn columns(c: &CellAudit) -> [String; 13] {
    let pct = |v: Option<f64>| v.map_or("-".into(), |v| format!("{:.1}", 100.0 * v));
    [
        c.config.clone(),
        c.level.clone(),
        match c.sampled_from {
            Some(n) => format!("{} of {n}", c.rows),
            None => c.rows.to_string(),
        },
        c.groups.to_string(),
        c.items.to_string(),
        pct(c.majority),
        pct(c.single_rule),
        pct(c.tree),
        pct(c.logistic),
        pct(c.best_text().map(|r| r.1)),
        c.excess_points().map_or("-".into(), |v| format!("{v:+.1}")),
        status_name(c.status).to_string(),
        top_text(c),
    ]
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Pass => "pass",
        Status::Shortcut => "SHORTCUT",
        Status::ConstantLabel => "CONSTANT LABEL",
        Status::TooFewRows => "too few rows",
    }
}

fn top_text(c: &CellAudit) -> String {
    if let Some(w) = &c.whole {
        let edges: Vec<String> = c
            .top_features
            .iter()
            .take(2)
            .map(|(n, v)| format!("{n} {:.1}", 100.0 * v))
            .collect();
        let mut t = format!(
            "reader {} solves {:.1}% of rows, {:.1}% of steps",
            w.reader,
            100.0 * w.solved,
            100.0 * w.parts_right,
        );
        if !edges.is_empty() {
            t.push_str(&format!("; edges (not judged): {}", edges.join(", ")));
        }
        return t;
    }
    if c.status == Status::Shortcut {
        let rules = [c.single_rule, c.tree, c.logistic]
            .into_iter()
            .flatten()
            .fold(0.0, f64::max);
        if let Some((name, acc)) = c.best_text()
            && *acc > rules
        {
            return format!("text reader {name} {:.1}", 100.0 * acc);
        }
        if let Some(rule) = &c.single_rule_text {
            return format!("rule: {rule}");
        }
    }
    c.top_features
        .iter()
        .map(|(n, v)| format!("{n} {:.1}", 100.0 * v))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads a dataset folder (checked against its manifest like `score` and
/// `verify` read it) and audits it; an error names the folder, file or row.
/// The items see each prompt as its family renders it from the metadata
/// (without the answer format's instruction), as during generation, so the
/// card and this report agree.
pub fn audit_dataset(
    dir: &std::path::Path,
    registry: &Registry,
    settings: &AuditSettings,
) -> Result<AuditReport, String> {
    let rows = crate::dataset::read_dataset(dir).map_err(|e| e.to_string())?;
    let mut c = Collector::new();
    for row in &rows {
        let mut record = row.to_record();
        if let Some(f) = registry.family_of(&record.task)
            && let Some(Ok(prompt)) = f.render_prompt(&record)
        {
            record.prompt = prompt;
        }
        c.add_with(&record, registry, settings)
            .map_err(|e| format!("{}: {e}", row.file.display()))?;
    }
    Ok(c.report(settings))
}

/// Rows per cell the audit judges. A larger cell is judged on the rows
/// whose ids hash smallest: a uniform sample that depends on the row set
/// alone (never on the order rows arrive in), so a merged run audits as the
/// unsharded one, and the audit's memory stays bounded however many rows a
/// run writes (the items of all rows grew a run's memory by some 30 KB per
/// row).
pub const MAX_AUDIT_ROWS: usize = 5_000;

/// Rows per cell the learned text readers read: the first of the sample
/// (smallest hashes). Their hashed tokens cost some kilobytes a row and
/// their training grows with the rows. 500 is over twice the 200 rows per
/// cell of the release audit, and keeps a run's text store to a few MB per
/// cell.
pub const MAX_TEXT_ROWS: usize = 500;

/// One item as kept: its label's index in the cell's label table and its
/// feature values in the order of the cell's names (a missing feature or
/// a value that is not finite counts 0). Names and labels are stored once
/// per cell, not per item: an item costs its numbers and little more.
struct Item {
    label: u16,
    x: Box<[f64]>,
}

/// An item's text: (section index in the cell's table, hashed tokens).
type ItemText = Vec<(u16, text::Tokens)>;

/// One row's items, kept for its cell.
struct RowItems {
    id: Box<str>,
    /// The sampling key: 64 bits of the id's SHA-256 (not those of the
    /// folds).
    key: u64,
    /// The fold and inner fold of the row's group.
    fold: u8,
    inner: u8,
    /// The group's digest (for counting groups).
    group: u64,
    items: Vec<Item>,
    /// The items' texts (one per item), while the row is among the
    /// [`MAX_TEXT_ROWS`] smallest keys; `None` for a row not read.
    texts: Option<Vec<ItemText>>,
    /// The shallow readers' results on the row: (reader index in the
    /// cell's table, parts, parts right).
    reads: Vec<(u8, u32, u32)>,
}

/// A cell's rows so far: at most [`MAX_AUDIT_ROWS`] and a quarter more kept
/// (pruned to the smallest keys), how many arrived, and the feature names
/// and labels its items index.
#[derive(Default)]
struct CellRows {
    rows: Vec<RowItems>,
    seen: usize,
    /// The feature names, from the cell's first item.
    names: Vec<&'static str>,
    /// The labels met so far, in order of first appearance.
    labels: Vec<String>,
    /// The shallow readers met so far, in order of first appearance.
    readers: Vec<&'static str>,
    /// The text sections met so far, in order of first appearance.
    sections: Vec<String>,
    /// Rows holding texts.
    texts: usize,
    /// Once texts were pruned: the largest key whose row keeps its text.
    text_cut: Option<(u64, Box<str>)>,
}

impl CellRows {
    /// Keeps the [`MAX_AUDIT_ROWS`] rows of smallest (key, id), and the
    /// texts of the [`MAX_TEXT_ROWS`] smallest.
    fn prune(&mut self) {
        if self.rows.len() > MAX_AUDIT_ROWS {
            self.rows
                .sort_unstable_by(|a, b| (a.key, &a.id).cmp(&(b.key, &b.id)));
            self.rows.truncate(MAX_AUDIT_ROWS);
            self.rows.shrink_to(MAX_AUDIT_ROWS + MAX_AUDIT_ROWS / 4);
        }
        self.prune_texts();
    }

    /// Drops the texts of the rows past the [`MAX_TEXT_ROWS`] smallest
    /// (key, id) and remembers the cut.
    fn prune_texts(&mut self) {
        let mut with: Vec<(u64, &str)> = self
            .rows
            .iter()
            .filter(|r| r.texts.is_some())
            .map(|r| (r.key, &*r.id))
            .collect();
        self.texts = with.len();
        if with.len() <= MAX_TEXT_ROWS {
            return;
        }
        with.sort_unstable();
        let cut = (
            with[MAX_TEXT_ROWS - 1].0,
            Box::<str>::from(with[MAX_TEXT_ROWS - 1].1),
        );
        for r in &mut self.rows {
            if (r.key, &r.id) > (cut.0, &cut.1) {
                r.texts = None;
            }
        }
        self.texts = MAX_TEXT_ROWS;
        self.text_cut = Some(cut);
    }

    /// Whether a row of this key would keep its text.
    fn wants_text(&self, key: u64, id: &str) -> bool {
        match &self.text_cut {
            None => true,
            Some((k, i)) => (key, id) <= (*k, &**i),
        }
    }

    /// The index of a section name, interned.
    fn section(&mut self, name: &str) -> u16 {
        let i = match self.sections.iter().position(|s| s == name) {
            Some(i) => i,
            None => {
                self.sections.push(name.to_string());
                self.sections.len() - 1
            }
        };
        u16::try_from(i).unwrap_or(u16::MAX)
    }

    /// The compact form of `it`: features by the cell's names (the first
    /// item's, fixed then), its label interned.
    fn compact(&mut self, it: &AuditItem) -> Item {
        if self.names.is_empty() && self.rows.is_empty() {
            self.names = it.features.iter().map(|f| f.0).collect();
        }
        let fast = it.features.len() == self.names.len()
            && it.features.iter().zip(&self.names).all(|(f, n)| f.0 == *n);
        let clean = |v: f64| if v.is_finite() { v } else { 0.0 };
        let x: Box<[f64]> = if fast {
            it.features.iter().map(|f| clean(f.1)).collect()
        } else {
            self.names
                .iter()
                .map(|n| {
                    it.features
                        .iter()
                        .find(|f| f.0 == *n)
                        .map_or(0.0, |f| clean(f.1))
                })
                .collect()
        };
        let label = match self.labels.iter().position(|l| *l == it.label) {
            Some(i) => i,
            None => {
                self.labels.push(it.label.clone());
                self.labels.len() - 1
            }
        };
        Item {
            label: u16::try_from(label).unwrap_or(u16::MAX),
            x,
        }
    }
}

/// A row the exploit suite scored: its sampling key, its id and its
/// answers' (exploit index, score) pairs.
/// A scored row: its hash key, id, each exploit's score (by index into
/// [`ExploitRows::names`]) and, when kept, each exploit's answer.
type ScoredRow = (u64, Box<str>, Vec<(u16, f64)>, Vec<(u16, Box<str>)>);

/// The rows of one cell the exploit suite scored: at most
/// [`AuditSettings::exploit_rows`] of smallest (key, id) kept, each with
/// its answers' (exploit index, score) pairs.
#[derive(Default)]
struct ExploitRows {
    rows: Vec<ScoredRow>,
    seen: usize,
    /// The exploits met so far: (name, constant), in order of first
    /// appearance.
    names: Vec<(String, bool)>,
    /// Once full: the largest (key, id) kept; rows past it are not scored.
    cut: Option<(u64, Box<str>)>,
}

impl ExploitRows {
    fn prune(&mut self, cap: usize) {
        if self.rows.len() > cap {
            self.rows
                .sort_unstable_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
            self.rows.truncate(cap);
        }
        if self.rows.len() == cap
            && let Some(last) = self
                .rows
                .iter()
                .max_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)))
        {
            self.cut = Some((last.0, last.1.clone()));
        }
    }
}

/// Gathers audit items row by row (during generation or from a dataset
/// read back), then judges every cell.
#[derive(Default)]
pub struct Collector {
    cells: BTreeMap<(String, String), CellRows>,
    not_audited: BTreeMap<String, usize>,
    exploits: BTreeMap<(String, String), ExploitRows>,
}

/// 64 bits of a SHA-256 digest, from byte `at`.
fn digest_u64(d: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(d[at..at + 8].try_into().expect("8 bytes"))
}

impl Collector {
    /// An empty collector.
    pub fn new() -> Collector {
        Collector::default()
    }

    /// Adds a row through its family in `registry`. An error names the row
    /// (an unreadable row, or a config no family writes).
    pub fn add(&mut self, row: &Record, registry: &Registry) -> Result<(), String> {
        self.add_with(row, registry, &AuditSettings::default())
    }

    /// [`Collector::add`] with the settings the report will use (the
    /// exploit sample's size).
    pub fn add_with(
        &mut self,
        row: &Record,
        registry: &Registry,
        settings: &AuditSettings,
    ) -> Result<(), String> {
        let family = registry
            .family_of(&row.task)
            .ok_or_else(|| format!("row {}: no family writes config {:?}", row.id, row.task))?;
        self.add_family_with(row, family, settings)
    }

    /// Adds a row of `family` (the generation loop knows the family).
    pub fn add_family(&mut self, row: &Record, family: &dyn TaskFamily) -> Result<(), String> {
        self.add_family_with(row, family, &AuditSettings::default())
    }

    /// [`Collector::add_family`] with the report's settings.
    pub fn add_family_with(
        &mut self,
        row: &Record,
        family: &dyn TaskFamily,
        settings: &AuditSettings,
    ) -> Result<(), String> {
        let level = row.level.map_or_else(|| "-".into(), |l| l.to_string());
        let d = Sha256::digest(row.id.as_bytes());
        let key = digest_u64(&d, 8);
        self.add_exploits(row, family, &level, key, settings);
        if settings.exploits_only {
            return Ok(());
        }
        match family.audit_items(row) {
            None => *self.not_audited.entry(row.task.clone()).or_default() += 1,
            Some(Err(e)) => return Err(format!("row {}: {e}", row.id)),
            Some(Ok(items)) => {
                let answers = match family.audit_readers(row) {
                    None => Vec::new(),
                    Some(Err(e)) => return Err(format!("row {}: {e}", row.id)),
                    Some(Ok(a)) => a,
                };
                let g = Sha256::digest(family.audit_group(row).as_bytes());
                let cell = self.cells.entry((row.task.clone(), level)).or_default();
                let texts = cell
                    .wants_text(key, &row.id)
                    .then(|| row_texts(row, family, &items, cell));
                let compact = items.iter().map(|it| cell.compact(it)).collect();
                let reads = answers
                    .into_iter()
                    .map(|a| {
                        let i = match cell.readers.iter().position(|r| *r == a.reader) {
                            Some(i) => i,
                            None => {
                                cell.readers.push(a.reader);
                                cell.readers.len() - 1
                            }
                        };
                        let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
                        (u8::try_from(i).unwrap_or(u8::MAX), n(a.parts), n(a.right))
                    })
                    .collect();
                cell.texts += usize::from(texts.is_some());
                cell.rows.push(RowItems {
                    id: row.id.as_str().into(),
                    key,
                    fold: (digest_u64(&g, 0) % FOLDS as u64) as u8,
                    inner: (digest_u64(&g, 8) % 4) as u8,
                    group: digest_u64(&g, 16),
                    items: compact,
                    texts,
                    reads,
                });
                cell.seen += 1;
                if cell.rows.len() >= MAX_AUDIT_ROWS + MAX_AUDIT_ROWS / 4 {
                    cell.prune();
                } else if cell.texts >= MAX_TEXT_ROWS + MAX_TEXT_ROWS / 4 {
                    cell.prune_texts();
                }
            }
        }
        Ok(())
    }

    /// Scores the family's exploits (and the empty answer) on a row, when
    /// the row falls in its cell's sample.
    fn add_exploits(
        &mut self,
        row: &Record,
        family: &dyn TaskFamily,
        level: &str,
        key: u64,
        settings: &AuditSettings,
    ) {
        let cap = settings.exploit_rows;
        let cell = self
            .exploits
            .entry((row.task.clone(), level.to_string()))
            .or_default();
        cell.seen += 1;
        if cap == 0 {
            return;
        }
        if let Some((k, i)) = &cell.cut
            && (key, row.id.as_str()) > (*k, &**i)
        {
            return;
        }
        let mut answers = vec![Exploit::constant("empty", "")];
        answers.extend(family.exploit_answers(row));
        // A fresh prover per row: a row's scores never depend on the rows
        // scored before it.
        let mut ctx = ScoreContext {
            prover: Prover::new(ProverLimits::default()),
        };
        let shape = family.answer_shape(&row.task);
        let mut scores = Vec::with_capacity(answers.len());
        let mut kept = Vec::new();
        for e in answers {
            let i = match cell.names.iter().position(|(n, _)| *n == e.name) {
                Some(i) => i,
                None => {
                    cell.names.push((e.name.clone(), e.constant));
                    cell.names.len() - 1
                }
            };
            if scores.iter().any(|&(j, _)| usize::from(j) == i) {
                continue;
            }
            let v = family
                .score(row, &extract(&e.answer, shape), &mut ctx)
                .value;
            let i = u16::try_from(i).unwrap_or(u16::MAX);
            scores.push((i, v));
            if settings.keep_exploit_answers {
                kept.push((i, e.answer.into_boxed_str()));
            }
        }
        cell.rows.push((key, row.id.as_str().into(), scores, kept));
        if cell.rows.len() >= 2 * cap {
            cell.prune(cap);
        }
    }

    /// Judges every cell.
    pub fn report(mut self, settings: &AuditSettings) -> AuditReport {
        let mut cells = Vec::new();
        for ((config, level), cell) in &mut self.cells {
            cell.prune();
            cell.rows.sort_by(|a, b| a.id.cmp(&b.id));
            let mut judged = judge(config, level, cell, settings);
            if cell.seen > cell.rows.len() {
                judged.sampled_from = Some(cell.seen);
            }
            cells.push(judged);
        }
        let exploits = self
            .exploits
            .iter_mut()
            .map(|((config, level), e)| judge_exploits(config, level, e, settings))
            .collect();
        AuditReport {
            margin_points: settings.margin_points,
            min_rows: settings.min_rows,
            cells,
            not_audited: self.not_audited,
            exploit_margin: settings.exploit_margin,
            exploit_min_rows: settings.exploit_min_rows,
            exploits,
        }
    }
}

/// The texts of a row's items: a lone item reads the prompt's sections
/// ([`TaskFamily::audit_sections`]), an item of several its own text.
fn row_texts(
    row: &Record,
    family: &dyn TaskFamily,
    items: &[AuditItem],
    cell: &mut CellRows,
) -> Vec<ItemText> {
    if items.len() == 1 && items[0].text.is_empty() {
        let t = family
            .audit_sections(row)
            .into_iter()
            .map(|(name, body)| (cell.section(&name), text::hash_text(&body)))
            .collect();
        return vec![t];
    }
    items
        .iter()
        .map(|it| {
            it.text
                .iter()
                .map(|(name, body)| (cell.section(name), text::hash_text(body)))
                .collect()
        })
        .collect()
}

fn judge_exploits(
    config: &str,
    level: &str,
    e: &mut ExploitRows,
    settings: &AuditSettings,
) -> ExploitCell {
    e.prune(settings.exploit_rows.max(1));
    let rows = e.rows.len();
    let exploits: Vec<ExploitMean> = e
        .names
        .iter()
        .enumerate()
        .map(|(i, (name, constant))| {
            // Summed in id order, so the mean is the same bits whatever
            // order the rows came in.
            let mut scores: Vec<(&str, f64)> = e
                .rows
                .iter()
                .filter_map(|(_, id, s, _)| {
                    s.iter()
                        .find(|(j, _)| usize::from(*j) == i)
                        .map(|&(_, v)| (&**id, v))
                })
                .collect();
            scores.sort_by(|a, b| a.0.cmp(b.0));
            let n = scores.len();
            let sum: f64 = scores.iter().map(|s| s.1).sum();
            let solved = scores.iter().filter(|s| s.1 >= 1.0).count();
            ExploitMean {
                name: name.clone(),
                constant: *constant,
                rows: n,
                mean: if n == 0 { 0.0 } else { sum / n as f64 },
                solved: if n == 0 {
                    0.0
                } else {
                    solved as f64 / n as f64
                },
            }
        })
        .collect();
    // Constants first (stable: the family's order within each kind).
    let mut exploits = exploits;
    exploits.sort_by_key(|x| !x.constant);
    let (baseline_answer, baseline) = exploits.iter().filter(|x| x.constant && x.rows > 0).fold(
        ("empty".to_string(), 0.0),
        |best, x| {
            if x.mean > best.1 {
                (x.name.clone(), x.mean)
            } else {
                best
            }
        },
    );
    let names = &e.names;
    let mut ordered: Vec<&ScoredRow> = e.rows.iter().collect();
    ordered.sort_by(|a, b| a.1.cmp(&b.1));
    let answers = ordered
        .into_iter()
        .flat_map(|(_, id, scores, kept)| {
            kept.iter().map(move |(i, answer)| ExploitAnswer {
                id: id.to_string(),
                exploit: names[usize::from(*i)].0.clone(),
                answer: answer.to_string(),
                score: scores.iter().find(|(j, _)| j == i).map_or(0.0, |&(_, v)| v),
            })
        })
        .collect();
    let mut cell = ExploitCell {
        config: config.to_string(),
        level: level.to_string(),
        rows,
        sampled_from: (e.seen > rows).then_some(e.seen),
        baseline,
        baseline_answer,
        exploits,
        status: ExploitStatus::TooFewRows,
        answers,
    };
    if let Some(best) = cell.best(settings.exploit_min_rows) {
        cell.status = if best.mean > cell.baseline + settings.exploit_margin + 1e-12 {
            ExploitStatus::Exploit
        } else {
            ExploitStatus::Pass
        };
    } else if rows >= settings.exploit_min_rows {
        cell.status = ExploitStatus::Pass;
    }
    cell
}

fn judge(config: &str, level: &str, cell_rows: &CellRows, settings: &AuditSettings) -> CellAudit {
    let rows = &cell_rows.rows;
    let mut labels: BTreeMap<String, usize> = BTreeMap::new();
    for it in rows.iter().flat_map(|r| &r.items) {
        *labels
            .entry(cell_rows.labels[usize::from(it.label)].clone())
            .or_default() += 1;
    }
    let items = labels.values().sum();
    let groups: std::collections::BTreeSet<u64> = rows.iter().map(|r| r.group).collect();
    let mut cell = CellAudit {
        config: config.to_string(),
        level: level.to_string(),
        rows: rows.len(),
        sampled_from: None,
        items,
        labels: labels.clone(),
        majority: None,
        single_rule: None,
        single_rule_text: None,
        tree: None,
        logistic: None,
        groups: groups.len(),
        text_readers: Vec::new(),
        text_rows: 0,
        top_features: Vec::new(),
        whole: whole(cell_rows),
        status: Status::TooFewRows,
    };
    let enough = rows.len() >= settings.min_rows;
    if labels.len() < 2 {
        if enough {
            cell.status = Status::ConstantLabel;
        }
        return cell;
    }
    let folds: std::collections::BTreeSet<u8> = rows.iter().map(|r| r.fold).collect();
    if folds.len() < 2 {
        return cell;
    }
    let e = evaluate_rows(cell_rows, &labels);
    cell.majority = Some(e.majority);
    cell.single_rule = Some(e.single_rule);
    cell.single_rule_text = Some(e.single_rule_text.clone());
    cell.tree = Some(e.tree);
    cell.logistic = Some(e.logistic);
    cell.top_features = e
        .top_features
        .iter()
        .map(|(n, v)| (n.to_string(), *v))
        .collect();
    (cell.text_readers, cell.text_rows) = text_readers(cell_rows, &labels);
    if enough {
        let lead = match &cell.whole {
            Some(w) => w.solved,
            None => cell.excess_points().unwrap_or(0.0) / 100.0,
        };
        cell.status = if 100.0 * lead > settings.margin_points {
            Status::Shortcut
        } else {
            Status::Pass
        };
    }
    cell
}

/// The learned text readers of a cell ([`text`]), over the items of the
/// rows that kept their texts: per section, over all sections, and over
/// all sections with the surface features. A section whose text is the
/// same on every item is skipped (nothing to learn). Returns the readers'
/// accuracies and the rows read.
fn text_readers(cell: &CellRows, labels: &BTreeMap<String, usize>) -> (Vec<(String, f64)>, usize) {
    let classes: Vec<&String> = labels.keys().collect();
    let class_of: Vec<usize> = cell
        .labels
        .iter()
        .map(|l| classes.iter().position(|c| *c == l).unwrap_or(0))
        .collect();
    let (mut texts, mut y, mut fold, mut inner, mut feats) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut read = 0;
    for r in &cell.rows {
        let Some(t) = &r.texts else { continue };
        read += 1;
        for (it, tx) in r.items.iter().zip(t) {
            if tx.is_empty() {
                continue;
            }
            texts.push(tx);
            y.push(class_of[usize::from(it.label)]);
            fold.push(usize::from(r.fold));
            inner.push(usize::from(r.inner));
            feats.push(&it.x);
        }
    }
    let distinct_y: std::collections::BTreeSet<usize> = y.iter().copied().collect();
    if distinct_y.len() < 2 {
        return (Vec::new(), read);
    }
    let salts: Vec<u64> = cell.sections.iter().map(|s| text::salt(s)).collect();
    let mut out = Vec::new();
    let run = |x: &[text::Sparse], dense: usize| {
        text::evaluate(&text::TextData {
            x,
            dense,
            y: &y,
            classes: classes.len(),
            fold: &fold,
            inner: &inner,
            folds: FOLDS,
        })
    };
    let mut varying = Vec::new();
    for (s, name) in cell.sections.iter().enumerate() {
        let first = section_of(texts[0], s);
        if texts.iter().all(|t| section_of(t, s) == first) {
            continue;
        }
        varying.push(s);
        let x: Vec<text::Sparse> = texts
            .iter()
            .map(|t| match section_of(t, s) {
                Some(toks) => text::vector(&[(salts[s], toks)], &[]),
                None => Vec::new(),
            })
            .collect();
        let (lr, nb) = run(&x, 0);
        out.push((format!("lr:{name}"), lr));
        out.push((format!("nb:{name}"), nb));
    }
    if varying.is_empty() {
        return (out, read);
    }
    if varying.len() > 1 {
        let x: Vec<text::Sparse> = texts
            .iter()
            .map(|t| text::vector(&all_sections(t, &varying, &salts), &[]))
            .collect();
        let (lr, nb) = run(&x, 0);
        out.push(("lr:all_sections".to_string(), lr));
        out.push(("nb:all_sections".to_string(), nb));
    }
    // The surface features standardised over the items read (no label
    // seen), scaled so that together they weigh as much as the text.
    let d = cell.names.len();
    if d > 0 {
        let n = feats.len() as f64;
        let mean: Vec<f64> = (0..d)
            .map(|j| feats.iter().map(|x| x[j]).sum::<f64>() / n)
            .collect();
        let sd: Vec<f64> = (0..d)
            .map(|j| {
                let v = feats.iter().map(|x| (x[j] - mean[j]).powi(2)).sum::<f64>() / n;
                if v > 1e-12 { v.sqrt() } else { 1.0 }
            })
            .collect();
        let k = 1.0 / (d as f64).sqrt();
        let x: Vec<text::Sparse> = texts
            .iter()
            .zip(&feats)
            .map(|(t, f)| {
                let dense: Vec<f64> = (0..d).map(|j| k * (f[j] - mean[j]) / sd[j]).collect();
                text::vector(&all_sections(t, &varying, &salts), &dense)
            })
            .collect();
        let (lr, _) = run(&x, d);
        out.push(("lr:text+features".to_string(), lr));
    }
    (out, read)
}

/// An item's tokens of section `s`.
fn section_of(tx: &ItemText, s: usize) -> Option<&text::Tokens> {
    tx.iter().find(|(i, _)| usize::from(*i) == s).map(|p| &p.1)
}

/// An item's tokens of the sections `keep`, with their salts.
fn all_sections<'a>(
    t: &'a ItemText,
    keep: &[usize],
    salts: &[u64],
) -> Vec<(u64, &'a text::Tokens)> {
    t.iter()
        .filter(|(i, _)| keep.contains(&usize::from(*i)))
        .map(|(i, toks)| (salts[usize::from(*i)], toks))
        .collect()
}

/// The best shallow reader of a cell's rows (`None` when no row was read):
/// the one solving the most rows, then getting the most parts right, then
/// the first met. A row the reader did not answer counts unsolved.
fn whole(cell: &CellRows) -> Option<WholeAudit> {
    if cell.readers.is_empty() || cell.rows.is_empty() {
        return None;
    }
    let rows = cell.rows.len() as f64;
    (0..cell.readers.len())
        .map(|i| {
            let (mut solved, mut parts, mut right) = (0usize, 0u64, 0u64);
            for r in &cell.rows {
                for &(reader, p, ok) in &r.reads {
                    if usize::from(reader) == i {
                        parts += u64::from(p);
                        right += u64::from(ok);
                        solved += usize::from(p > 0 && ok == p);
                    }
                }
            }
            WholeAudit {
                reader: cell.readers[i].to_string(),
                solved: solved as f64 / rows,
                parts_right: if parts == 0 {
                    0.0
                } else {
                    right as f64 / parts as f64
                },
            }
        })
        .fold(None, |best: Option<WholeAudit>, w| match best {
            Some(b) if (b.solved, b.parts_right) >= (w.solved, w.parts_right) => Some(b),
            _ => Some(w),
        })
}

/// The cell's items as numbers (features by the first item's names; an
/// item lacking a feature counts it 0) and their evaluation.
fn evaluate_rows(cell: &CellRows, labels: &BTreeMap<String, usize>) -> Evaluation {
    let classes: Vec<String> = labels.keys().cloned().collect();
    // The cell's label table, as class indices.
    let class_of: Vec<usize> = cell
        .labels
        .iter()
        .map(|l| classes.iter().position(|c| c == l).unwrap_or(0))
        .collect();
    let mut data = Data {
        classes,
        names: cell.names.clone(),
        ..Data::default()
    };
    for r in &cell.rows {
        for it in &r.items {
            data.x.push(it.x.to_vec());
            data.y.push(class_of[usize::from(it.label)]);
            data.fold.push(usize::from(r.fold));
        }
    }
    model::evaluate(&data)
}

/// Failing cells named for the card: `` `config` level L``, comma-separated.
fn cell_list<'a>(cells: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    cells
        .map(|(config, level)| format!("`{config}` level {level}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Score;
    use crate::tasks::TaskError;
    use crate::tasks::audit::ReaderAnswer;
    use crate::tasks::family::ConfigInfo;

    /// A toy family whose rows are `label:value`; `leak` rows carry the
    /// label in the feature, others do not.
    struct Toy;
    static TOY: Toy = Toy;
    impl TaskFamily for Toy {
        fn name(&self) -> &'static str {
            "toy"
        }
        fn configs(&self) -> Vec<ConfigInfo> {
            vec![
                ConfigInfo {
                    name: "toy_leak",
                    description: "",
                },
                ConfigInfo {
                    name: "toy_fair",
                    description: "",
                },
                ConfigInfo {
                    name: "toy_free",
                    description: "",
                },
                ConfigInfo {
                    name: "toy_graph",
                    description: "",
                },
            ]
        }
        /// Full credit for the gold answer, none otherwise.
        fn score(&self, row: &Record, answer: &str, _: &mut ScoreContext) -> Score {
            if answer == row.answer {
                Score::correct()
            } else {
                Score::wrong("not the gold answer")
            }
        }
        /// The group is the metadata's text when it is not `{}`.
        fn audit_group(&self, row: &Record) -> String {
            if row.metadata == "{}" {
                format!("id:{}", row.id)
            } else {
                row.metadata.clone()
            }
        }
        /// `toy_fair` rows get the two labels and a wrong answer; the
        /// `toy_leak` rows also an answer that copies the gold one.
        fn exploit_answers(&self, row: &Record) -> Vec<Exploit> {
            let mut out = vec![
                Exploit::constant("True", "True"),
                Exploit::constant("False", "False"),
                Exploit::new("nope", "nope"),
            ];
            if row.task == "toy_leak" {
                out.push(Exploit::new("copy", row.answer.clone()));
            }
            out
        }
        fn verify(&self, _: &Record) -> Result<String, TaskError> {
            Ok(String::new())
        }
        fn audit_items(&self, row: &Record) -> Option<Result<Vec<AuditItem>, TaskError>> {
            if row.task == "toy_free" {
                return None;
            }
            let v: f64 = row.prompt.lines().next()?.parse().ok()?;
            Some(Ok(vec![
                AuditItem::new(row.answer.clone()).with("value", v),
            ]))
        }
        /// `toy_graph` rows are read by two readers: `none` gets nothing
        /// right, `some` gets 2 of 3 parts right, or all 3 on a row whose
        /// metadata is `solved`.
        fn audit_readers(&self, row: &Record) -> Option<Result<Vec<ReaderAnswer>, TaskError>> {
            if row.task != "toy_graph" {
                return None;
            }
            let right = if row.metadata == "solved" { 3 } else { 2 };
            Some(Ok(vec![
                ReaderAnswer {
                    reader: "none",
                    parts: 3,
                    right: 0,
                },
                ReaderAnswer {
                    reader: "some",
                    parts: 3,
                    right,
                },
            ]))
        }
    }

    fn row(task: &str, i: usize, answer: &str, value: f64) -> Record {
        Record {
            id: format!("{task}-{i:05}"),
            task: task.into(),
            domain: None,
            source: None,
            level: Some(1),
            completion: String::new(),
            trace: None,
            prompt: value.to_string(),
            answer: answer.into(),
            metadata: "{}".into(),
            certificate: "{}".into(),
        }
    }

    #[test]
    fn a_leak_fails_a_fair_cell_passes_and_order_does_not_matter() {
        let registry = Registry::new(vec![&TOY]);
        let mut rows = Vec::new();
        for i in 0..120 {
            let label = if (i * 7) % 3 == 0 { "True" } else { "False" };
            rows.push(row(
                "toy_leak",
                i,
                label,
                if label == "True" { 1.0 } else { 0.0 },
            ));
            // The fair value cycles independently of the label.
            rows.push(row("toy_fair", i, label, (i % 5) as f64));
            rows.push(row("toy_free", i, "x", 0.0));
        }
        let mut c = Collector::new();
        for r in &rows {
            c.add(r, &registry).unwrap();
        }
        let report = c.report(&AuditSettings::default());
        let status: Vec<(&str, Status)> = report
            .cells
            .iter()
            .map(|c| (c.config.as_str(), c.status))
            .collect();
        assert_eq!(
            status,
            [("toy_fair", Status::Pass), ("toy_leak", Status::Shortcut)]
        );
        assert_eq!(report.not_audited["toy_free"], 120);
        assert_eq!(report.failures().len(), 1);
        let md = report.markdown();
        assert!(md.contains("| `toy_leak` | 1 | 120 | 120 | 120 |"), "{md}");
        assert!(md.contains("rule: value <= 0.5"), "{md}");
        // Reversed input order gives the same report.
        let mut c = Collector::new();
        for r in rows.iter().rev() {
            c.add(r, &registry).unwrap();
        }
        assert_eq!(c.report(&AuditSettings::default()).markdown(), md);
    }

    #[test]
    fn big_cells_are_judged_on_a_bounded_sample_that_ignores_order() {
        let registry = Registry::new(vec![&TOY]);
        let n = 2 * MAX_AUDIT_ROWS + 700;
        let rows: Vec<Record> = (0..n)
            .map(|i| {
                let label = if i % 3 == 0 { "True" } else { "False" };
                row(
                    "toy_leak",
                    i,
                    label,
                    if label == "True" { 1.0 } else { 0.0 },
                )
            })
            .collect();
        let mut c = Collector::new();
        for r in &rows {
            c.add(r, &registry).unwrap();
            // Never more than twice the cap kept.
            assert!(c.cells.values().all(|k| k.rows.len() < 2 * MAX_AUDIT_ROWS));
        }
        let report = c.report(&AuditSettings::default());
        let cell = &report.cells[0];
        assert_eq!((cell.rows, cell.sampled_from), (MAX_AUDIT_ROWS, Some(n)));
        assert_eq!(cell.status, Status::Shortcut);
        let md = report.markdown();
        assert!(md.contains(&format!("| {MAX_AUDIT_ROWS} of {n} |")), "{md}");
        assert!(md.contains("hash smallest"), "{md}");
        // The sample depends on the row set only.
        let mut c = Collector::new();
        for r in rows.iter().rev() {
            c.add(r, &registry).unwrap();
        }
        assert_eq!(c.report(&AuditSettings::default()).markdown(), md);
        // A cell at the cap is not sampled and says nothing about it.
        let mut c = Collector::new();
        for r in &rows[..MAX_AUDIT_ROWS] {
            c.add(r, &registry).unwrap();
        }
        let small = c.report(&AuditSettings::default());
        assert_eq!(small.cells[0].sampled_from, None);
        assert!(!small.markdown().contains("hash smallest"));
    }

    /// A structured answer is judged by its readers' whole answers, not by
    /// its items: leaking items pass while no reader solves more than the
    /// margin's share of rows, and a reader that does fails the cell.
    #[test]
    fn structured_answers_are_judged_by_whole_readers() {
        let registry = Registry::new(vec![&TOY]);
        let report = |every: usize| {
            let mut c = Collector::new();
            for i in 0..100 {
                let label = if i % 2 == 0 { "parent" } else { "other" };
                let mut r = row("toy_graph", i, label, (i % 2) as f64);
                if i % every == 0 {
                    r.metadata = "solved".into();
                }
                c.add(&r, &registry).unwrap();
            }
            c.report(&AuditSettings::default())
        };
        let fair = report(20);
        let cell = &fair.cells[0];
        let w = cell.whole.as_ref().unwrap();
        assert_eq!((w.reader.as_str(), w.solved), ("some", 0.05));
        assert!((w.parts_right - (5.0 * 3.0 + 95.0 * 2.0) / 300.0).abs() < 1e-12);
        // The items alone would fail the cell (the value is the label).
        assert!(cell.single_rule.unwrap() > 0.99);
        assert_eq!(cell.status, Status::Pass);
        assert_eq!(cell.excess_points(), Some(5.0));
        assert!(fair.text().contains("reader some solves 5.0% of rows"));
        assert!(fair.markdown().contains("judged by its whole answers"));
        let leaky = report(5);
        assert_eq!(leaky.cells[0].status, Status::Shortcut);
        assert_eq!(leaky.cells[0].excess_points(), Some(20.0));
    }

    #[test]
    fn an_exploit_that_earns_credit_fails_the_gate() {
        let registry = Registry::new(vec![&TOY]);
        let mut c = Collector::new();
        for i in 0..60 {
            let label = if i % 3 == 0 { "True" } else { "False" };
            c.add(&row("toy_leak", i, label, 0.0), &registry).unwrap();
            c.add(&row("toy_fair", i, label, 0.0), &registry).unwrap();
        }
        let report = c.report(&AuditSettings::default());
        let cell = |name: &str| report.exploits.iter().find(|e| e.config == name).unwrap();
        let leak = cell("toy_leak");
        assert_eq!(leak.rows, AuditSettings::default().exploit_rows);
        assert_eq!(leak.sampled_from, Some(60));
        assert_eq!(leak.baseline_answer, "False");
        assert!(leak.baseline > 0.5 && leak.baseline < 0.8, "{leak:?}");
        assert_eq!(leak.best(10).unwrap().name, "copy");
        assert_eq!(leak.status, ExploitStatus::Exploit);
        let fair = cell("toy_fair");
        assert_eq!(fair.status, ExploitStatus::Pass);
        assert_eq!(fair.best(10).unwrap().name, "nope");
        assert_eq!(report.exploit_failures().len(), 1);
        assert!(
            report
                .failing()
                .iter()
                .any(|f| f == "toy_leak L1 exploit copy"),
            "{:?}",
            report.failing()
        );
        assert!(report.text().contains("EXPLOIT"));
        assert!(
            report
                .markdown()
                .contains("fail the exploit gate: `toy_leak` level 1")
        );
        // The sample and its means ignore the order rows come in.
        let mut c = Collector::new();
        for i in (0..60).rev() {
            let label = if i % 3 == 0 { "True" } else { "False" };
            c.add(&row("toy_fair", i, label, 0.0), &registry).unwrap();
            c.add(&row("toy_leak", i, label, 0.0), &registry).unwrap();
        }
        assert_eq!(
            c.report(&AuditSettings::default()).markdown(),
            report.markdown()
        );
    }

    /// A word only True rows' prompts carry, in a section of its own,
    /// with features that say nothing: the text readers find it.
    #[test]
    fn a_text_reader_finds_a_planted_tell() {
        let registry = Registry::new(vec![&TOY]);
        let words = ["alpha", "beta", "gamma", "delta", "eps", "zeta"];
        let report = |tell: bool| {
            let mut c = Collector::new();
            let mut state = 7u64;
            let mut next = |n: u64| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                ((state >> 33) % n) as usize
            };
            for i in 0..120usize {
                let label = if next(5) < 2 { "True" } else { "False" };
                let value = next(5);
                let mut r = row("toy_fair", i, label, value as f64);
                let mut noise: Vec<&str> = (0..8).map(|_| words[next(6)]).collect();
                if tell && label == "True" {
                    noise.push("tell");
                }
                r.prompt = format!(
                    "{value}\n\nPremises:\n{}\n\nQuestion:\nsame",
                    noise.join(" ")
                );
                c.add(&r, &registry).unwrap();
            }
            c.report(&AuditSettings::default())
        };
        let planted = report(true);
        let cell = &planted.cells[0];
        assert_eq!(cell.status, Status::Shortcut, "{cell:?}");
        assert!(cell.single_rule.unwrap() < 0.7, "{cell:?}");
        let (name, acc) = cell.best_text().unwrap();
        assert!(name.ends_with("premises") && *acc > 0.95, "{cell:?}");
        // The constant section is not read.
        assert!(cell.text_readers.iter().all(|r| !r.0.ends_with("question")));
        assert!(
            planted.text().contains("text reader lr:premises"),
            "{}",
            planted.text()
        );
        let clean = report(false);
        assert_eq!(clean.cells[0].status, Status::Pass, "{:?}", clean.cells[0]);
    }

    proptest::proptest! {
        /// Rows of one group always share a fold (and the report counts
        /// the groups), whatever the ids and the order rows come in.
        #[test]
        fn grouped_folds_never_split_a_group(
            groups in proptest::collection::vec(0u8..12, 20..80),
            reverse in proptest::bool::ANY,
        ) {
            let registry = Registry::new(vec![&TOY]);
            let mut rows: Vec<Record> = groups
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let mut r = row("toy_fair", i, if i % 2 == 0 { "a" } else { "b" }, 0.0);
                    r.metadata = format!("g{g}");
                    r
                })
                .collect();
            if reverse {
                rows.reverse();
            }
            let mut c = Collector::new();
            for r in &rows {
                c.add(r, &registry).unwrap();
            }
            let cell = &c.cells[&("toy_fair".to_string(), "1".to_string())];
            let mut fold_of_group: BTreeMap<u64, u8> = BTreeMap::new();
            for r in &cell.rows {
                let f = *fold_of_group.entry(r.group).or_insert(r.fold);
                proptest::prop_assert_eq!(f, r.fold);
            }
            let distinct: std::collections::BTreeSet<u8> = groups.iter().copied().collect();
            proptest::prop_assert_eq!(fold_of_group.len(), distinct.len());
            let report = c.report(&AuditSettings::default());
            proptest::prop_assert_eq!(report.cells[0].groups, distinct.len());
        }
    }

    #[test]
    fn constant_labels_and_small_cells() {
        let registry = Registry::new(vec![&TOY]);
        let mut c = Collector::new();
        for i in 0..60 {
            c.add(&row("toy_fair", i, "premise", i as f64), &registry)
                .unwrap();
        }
        for i in 0..10 {
            let label = if i % 2 == 0 { "a" } else { "b" };
            c.add(&row("toy_leak", i, label, (i % 2) as f64), &registry)
                .unwrap();
        }
        let r = c.report(&AuditSettings::default());
        assert_eq!(r.cells[0].status, Status::ConstantLabel);
        assert_eq!(r.cells[1].status, Status::TooFewRows);
        assert!(r.text().contains("CONSTANT LABEL"));
        let mut c = Collector::new();
        let err = c.add(&row("unknown", 0, "a", 0.0), &registry).unwrap_err();
        assert!(err.contains("unknown-00000"), "{err}");
    }
}
