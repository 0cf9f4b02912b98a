//! The audit's collector: rows turned into each family's labelled items,
//! features and reader texts, kept per cell on a hash-ordered sample
//! (bounded memory, independent of row order and sharding).

use super::*;
use crate::dataset::Record;
use crate::prover::{Prover, ProverLimits};
use crate::tasks::answer::extract;
use crate::tasks::audit::{AuditItem, Exploit};
use crate::tasks::family::{ScoreContext, TaskFamily};
use crate::tasks::registry::Registry;
use model::FOLDS;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// One item as kept: its label's index in the cell's label table and its
/// feature values in the order of the cell's names (a missing feature or
/// a value that is not finite counts 0). Names and labels are stored once
/// per cell, not per item: an item costs its numbers and little more.
pub(super) struct Item {
    pub(super) label: u16,
    pub(super) x: Box<[f64]>,
}

/// An item's text: (section index in the cell's table, hashed tokens).
pub(super) type ItemText = Vec<(u16, text::Tokens)>;

/// One row's items, kept for its cell.
pub(super) struct RowItems {
    pub(super) id: Box<str>,
    /// The sampling key: 64 bits of the id's SHA-256 (not those of the
    /// folds).
    pub(super) key: u64,
    /// The fold and inner fold of the row's group.
    pub(super) fold: u8,
    pub(super) inner: u8,
    /// The group's digest (for counting groups).
    pub(super) group: u64,
    pub(super) items: Vec<Item>,
    /// The items' texts (one per item), while the row is among the
    /// [`MAX_TEXT_ROWS`] smallest keys; `None` for a row not read.
    pub(super) texts: Option<Vec<ItemText>>,
    /// The shallow readers' results on the row: (reader index in the
    /// cell's table, parts, parts right).
    pub(super) reads: Vec<(u8, u32, u32)>,
}

/// A cell's rows so far: at most [`MAX_AUDIT_ROWS`] and a quarter more kept
/// (pruned to the smallest keys), how many arrived, and the feature names
/// and labels its items index.
#[derive(Default)]
pub(super) struct CellRows {
    pub(super) rows: Vec<RowItems>,
    pub(super) seen: usize,
    /// The feature names, from the cell's first item.
    pub(super) names: Vec<&'static str>,
    /// The labels met so far, in order of first appearance.
    pub(super) labels: Vec<String>,
    /// The shallow readers met so far, in order of first appearance.
    pub(super) readers: Vec<&'static str>,
    /// The text sections met so far, in order of first appearance.
    pub(super) sections: Vec<String>,
    /// Rows holding texts.
    pub(super) texts: usize,
    /// Once texts were pruned: the largest key whose row keeps its text.
    pub(super) text_cut: Option<(u64, Box<str>)>,
}

impl CellRows {
    /// Keeps the [`MAX_AUDIT_ROWS`] rows of smallest (key, id), and the
    /// texts of the [`MAX_TEXT_ROWS`] smallest.
    pub(super) fn prune(&mut self) {
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
    pub(super) fn prune_texts(&mut self) {
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
    pub(super) fn wants_text(&self, key: u64, id: &str) -> bool {
        match &self.text_cut {
            None => true,
            Some((k, i)) => (key, id) <= (*k, &**i),
        }
    }

    /// The index of a section name, interned.
    pub(super) fn section(&mut self, name: &str) -> u16 {
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
    pub(super) fn compact(&mut self, it: &AuditItem) -> Item {
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
pub(super) type ScoredRow = (u64, Box<str>, Vec<(u16, f64)>, Vec<(u16, Box<str>)>);

/// The rows of one cell the exploit suite scored: at most
/// [`AuditSettings::exploit_rows`] of smallest (key, id) kept, each with
/// its answers' (exploit index, score) pairs.
#[derive(Default)]
pub(super) struct ExploitRows {
    pub(super) rows: Vec<ScoredRow>,
    pub(super) seen: usize,
    /// The exploits met so far: (name, constant), in order of first
    /// appearance.
    pub(super) names: Vec<(String, bool)>,
    /// Once full: the largest (key, id) kept; rows past it are not scored.
    pub(super) cut: Option<(u64, Box<str>)>,
}

impl ExploitRows {
    pub(super) fn prune(&mut self, cap: usize) {
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
    pub(super) cells: BTreeMap<(String, String), CellRows>,
    pub(super) not_audited: BTreeMap<String, usize>,
    pub(super) exploits: BTreeMap<(String, String), ExploitRows>,
}

/// 64 bits of a SHA-256 digest, from byte `at`.
pub(super) fn digest_u64(d: &[u8], at: usize) -> u64 {
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
    pub(super) fn add_exploits(
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
        // scored before it. Values only: no prover work for sub-metrics.
        let mut ctx = ScoreContext {
            prover: Prover::new(ProverLimits::default()),
            metrics: false,
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
pub(super) fn row_texts(
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
