//! What a generation run did: per-cell and whole-run summaries (rows,
//! candidates, rejects, repeats, costs, feature means) and their text for
//! the terminal and the dataset card.

use crate::tasks::fault::RejectEntry;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Counts of one cell. Serialised into `summary.json`: only what the same
/// config and seed reproduce byte for byte.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CellSummary {
    /// Rows asked for.
    pub requested: u64,
    /// Rows written.
    pub written: u64,
    /// `requested - written`.
    pub shortfall: u64,
    /// Candidate indices walked.
    pub candidates: u64,
    /// Rows per label class.
    pub labels: BTreeMap<String, u64>,
    /// Rejected attempts by reason (each redrawn or given up).
    pub rejects: BTreeMap<String, u64>,
    /// Candidates that gave no instance.
    pub gave_up: u64,
    /// Instances skipped as duplicates of an earlier one in the cell.
    pub duplicates: u64,
    /// Instances skipped because the cell already holds the most rows one
    /// answer may have ([`Generator::max_per_group`](crate::tasks::family::Generator::max_per_group)).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub repeats: u64,
    /// Refused certificates (bugs).
    pub certificate_failures: u64,
    /// Caught generator panics (bugs).
    pub generator_panics: u64,
    /// Rows written per source (the rows' `source` column: for the TPTP
    /// families the axiom or problem file), for rows that name one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sources: BTreeMap<String, u64>,
    /// Means of the family's numeric features over the written rows that
    /// have them.
    pub stats: BTreeMap<String, f64>,
    /// Means of the rows' difficulty features (`Built::difficulty`, in each
    /// row's metadata as `difficulty`) over the written rows that have them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub difficulty: BTreeMap<String, f64>,
    /// Worker seconds spent on the cell (timing: not in `summary.json`).
    #[serde(skip)]
    pub seconds: f64,
    /// Worker CPU seconds spent on the cell (timing), slots built and
    /// thrown away past the cell's end included.
    #[serde(skip)]
    pub cpu_seconds: f64,
    /// Slots built in the cell's last batch past the row that filled it
    /// (or past its patience), thrown away unread (measurement: the batch
    /// size depends on the thread count).
    #[serde(skip)]
    pub discarded: u64,
    /// Of those, the prover's (CPU seconds; timing).
    #[serde(skip)]
    pub cost: crate::prover::cost::Costs,
    /// CPU seconds of the rejected draws by reason, from generators that
    /// time them ([`Attempt::reject_timed`](crate::tasks::family::Attempt::reject_timed); timing).
    #[serde(skip)]
    pub reject_cpu: BTreeMap<String, f64>,
    /// CPU seconds of the slots that built a row, less their timed
    /// rejected draws (timing): `row_cpu_written` of it went to rows the
    /// cell wrote, the rest to rows built and then skipped (duplicates,
    /// repeated or held answers never written).
    #[serde(skip)]
    pub row_cpu: f64,
    /// Of `row_cpu`, the rows written (timing).
    #[serde(skip)]
    pub row_cpu_written: f64,
    /// The process's largest resident size (MiB) from the end of the cell
    /// before to the end of this one, entering its group included
    /// ([`heap::RssSampler`](crate::pipeline::heap::RssSampler); measurement, 0 where unknown).
    #[serde(skip)]
    pub peak_rss_mib: u64,
    #[serde(skip)]
    pub(super) sums: BTreeMap<&'static str, (f64, u64)>,
    #[serde(skip)]
    pub(super) difficulty_sums: BTreeMap<&'static str, (f64, u64)>,
}

/// What a run did.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RunSummary {
    /// Rows written.
    pub total_rows: u64,
    /// Rows asked for.
    pub requested_rows: u64,
    /// Rows missing over all cells.
    pub shortfall: u64,
    /// Duplicates skipped over all cells.
    pub duplicates: u64,
    /// Repeated answers skipped over all cells.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub repeats: u64,
    /// Refused certificates over all cells (bugs).
    pub certificate_failures: u64,
    /// Generator panics over all cells (bugs).
    pub generator_panics: u64,
    /// Per cell, keyed `config group Llevel`.
    pub cells: BTreeMap<String, CellSummary>,
    /// Wall-clock seconds of generation (timing).
    #[serde(skip)]
    pub generation_seconds: f64,
    /// Seconds the writer thread spent encoding and writing (timing).
    #[serde(skip)]
    pub writing_seconds: f64,
    /// The bugs, in cell and index order (for `rejects/`).
    #[serde(skip)]
    pub bugs: Vec<RejectEntry>,
    /// Cells the shortcut audit fails (`config Llevel`, and `config Llevel
    /// exploit NAME` for the exploit suite; the report is in the card and
    /// `audit.json`).
    pub audit_failures: Vec<String>,
    /// The audit's table for the terminal.
    #[serde(skip)]
    pub audit_text: String,
}

impl RunSummary {
    /// Sets the totals from the cells.
    pub fn sum_cells(&mut self) {
        let cells = self.cells.values();
        self.total_rows = cells.clone().map(|c| c.written).sum();
        self.requested_rows = cells.clone().map(|c| c.requested).sum();
        self.shortfall = cells.clone().map(|c| c.shortfall).sum();
        self.duplicates = cells.clone().map(|c| c.duplicates).sum();
        self.repeats = cells.clone().map(|c| c.repeats).sum();
        self.certificate_failures = cells.clone().map(|c| c.certificate_failures).sum();
        self.generator_panics = cells.map(|c| c.generator_panics).sum();
    }

    /// Bugs found: refused certificates plus generator panics.
    pub fn bugs_found(&self) -> u64 {
        self.certificate_failures + self.generator_panics
    }

    /// Where the run's time went, per cell (`--cost-json`): rows,
    /// candidates, worker wall and CPU seconds and the prover's share of
    /// the CPU seconds
    /// (saturation, model search, checking, and the seconds of calls that
    /// ended undecided), the CPU of rejected draws by reason and of the
    /// slots that built rows, written or not (`reject_cpu`, `row_cpu`,
    /// `row_cpu_written`), and the peak resident size while it ran, plus
    /// generation wall-clock and writer seconds. Measurements: never part of
    /// a dataset.
    pub fn cost_json(&self) -> serde_json::Value {
        let cells: serde_json::Map<String, serde_json::Value> = self
            .cells
            .iter()
            .map(|(k, c)| {
                (
                    k.clone(),
                    serde_json::json!({
                        "rows": c.written,
                        "requested": c.requested,
                        "candidates": c.candidates,
                        "discarded": c.discarded,
                        "seconds": c.seconds,
                        "cpu_seconds": c.cpu_seconds,
                        "saturation": c.cost.saturation,
                        "models": c.cost.models,
                        "checking": c.cost.checking,
                        "undecided": c.cost.undecided,
                        "prover_calls": c.cost.calls,
                        "prover_unknowns": c.cost.unknowns,
                        "reject_cpu": c.reject_cpu,
                        "row_cpu": c.row_cpu,
                        "row_cpu_written": c.row_cpu_written,
                        "peak_rss_mib": c.peak_rss_mib,
                    }),
                )
            })
            .collect();
        serde_json::json!({
            "cells": cells,
            "generation_seconds": self.generation_seconds,
            "writing_seconds": self.writing_seconds,
        })
    }

    /// The card's yields section: requested and written rows per cell and
    /// the shortfall, so a short cell is never silent.
    pub fn yields_markdown(&self) -> String {
        let mut s = String::from(
            "Rows requested and written per cell (config, group, level); a cell comes up short when its \
             generator cannot certify enough distinct instances within its attempts.\n\n\
             | cell | requested | written | labels |\n|---|---:|---:|---|\n",
        );
        for (key, c) in &self.cells {
            let labels: Vec<String> = c.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            s.push_str(&format!(
                "| {key} | {} | {} | {} |\n",
                c.requested,
                c.written,
                labels.join(" ")
            ));
        }
        s.push_str(&self.sources_markdown());
        if self.repeats > 0 {
            s.push_str(&format!(
                "\n{} certified instances were skipped as repeats: their answer was already that of as many rows of their cell as one answer may have (premise selection: `max_answer_share`), or one of its clauses was already in the answer of more of the cell's rows than it was a distractor in, by the lead allowed (`max_answer_lead`, twice that from slot 2·count on), or (conjecture entailment) a premise it replaced or its replacement was already in more rows of one label than of the other, by the lead allowed (`max_premise_lead`; both rows of the pair are skipped), so no answer and no clause dominates a cell.\n",
                self.repeats
            ));
        }
        if self.shortfall > 0 {
            let short = self.cells.values().filter(|c| c.shortfall > 0).count();
            s.push_str(&format!(
                "\nShortfall: {} of {} rows missing in {short} cell(s) (`--require-full` turns a shortfall into a failed run).\n",
                self.shortfall, self.requested_rows
            ));
        } else {
            s.push_str(&format!(
                "\nEvery cell is full ({} rows).\n",
                self.total_rows
            ));
        }
        s
    }

    /// The yields per source (the rows' `source` column: a TPTP run's
    /// axiom or problem files): rows written in all and per config, one
    /// line per source, sorted by name; empty when no row names a source.
    pub fn sources_markdown(&self) -> String {
        // source -> config -> rows
        let mut by_source: BTreeMap<&str, BTreeMap<&str, u64>> = BTreeMap::new();
        let mut configs: Vec<&str> = Vec::new();
        for (key, c) in &self.cells {
            let (config, _) = cell_config_level(key);
            for (src, n) in &c.sources {
                *by_source
                    .entry(src.as_str())
                    .or_default()
                    .entry(config)
                    .or_default() += n;
                if !configs.contains(&config) {
                    configs.push(config);
                }
            }
        }
        if by_source.is_empty() {
            return String::new();
        }
        configs.sort_unstable();
        let mut s = format!(
            "\nRows written per source file (the `source` column; {} source(s) gave rows):\n\n| source | rows |",
            by_source.len()
        );
        for c in &configs {
            s.push_str(&format!(" {c} |"));
        }
        s.push_str("\n|---|---:|");
        for _ in &configs {
            s.push_str("---:|");
        }
        s.push('\n');
        for (src, per) in &by_source {
            s.push_str(&format!("| {src} | {} |", per.values().sum::<u64>()));
            for c in &configs {
                s.push_str(&format!(" {} |", per.get(c).copied().unwrap_or(0)));
            }
            s.push('\n');
        }
        s
    }

    /// The card's difficulty section: per config, one line per level with
    /// the mean of each difficulty feature over the level's rows (every
    /// group of the config pooled, weighted by rows). `None` when no row
    /// carries difficulty features.
    pub fn difficulty_markdown(&self) -> Option<String> {
        // config -> level -> feature -> (sum, rows)
        type Levels = BTreeMap<u32, BTreeMap<String, (f64, u64)>>;
        let mut by_config: BTreeMap<String, Levels> = BTreeMap::new();
        for (key, c) in &self.cells {
            if c.difficulty.is_empty() || c.written == 0 {
                continue;
            }
            let (config, level) = cell_config_level(key);
            let features = by_config
                .entry(config.to_string())
                .or_default()
                .entry(level)
                .or_default();
            for (name, mean) in &c.difficulty {
                let e = features.entry(name.clone()).or_default();
                e.0 += mean * c.written as f64;
                e.1 += c.written;
            }
        }
        if by_config.is_empty() {
            return None;
        }
        let mut s = String::from(
            "Means of the measured difficulty features of each row (`metadata.difficulty`) per config and level: how hardness grows \
             with the level. Prover effort is in work units (given clauses, SAT conflicts), never seconds.\n",
        );
        for (config, levels) in &by_config {
            let names: std::collections::BTreeSet<&String> =
                levels.values().flat_map(|f| f.keys()).collect();
            s.push_str(&format!("\n**{config}**\n\n| level | rows |"));
            for n in &names {
                s.push_str(&format!(" {n} |"));
            }
            s.push_str("\n|---:|---:|");
            for _ in &names {
                s.push_str("---:|");
            }
            s.push('\n');
            for (level, features) in levels {
                let rows = features.values().map(|v| v.1).max().unwrap_or(0);
                s.push_str(&format!("| {level} | {rows} |"));
                for n in &names {
                    match features.get(*n) {
                        Some(&(sum, k)) if k > 0 => {
                            s.push_str(&format!(" {:.2} |", sum / k as f64))
                        }
                        _ => s.push_str(" - |"),
                    }
                }
                s.push('\n');
            }
        }
        Some(s)
    }

    /// The deterministic `summary.json` bytes.
    pub fn to_json_bytes(&self) -> Vec<u8> {
        let mut json = serde_json::to_vec_pretty(self).expect("summary serialises");
        json.push(b'\n');
        json
    }

    /// The end-of-run table for stderr: one line per cell, the rejection
    /// reasons, the shortfall, throughput and where the time went.
    pub fn render(&self) -> String {
        let mut s = format!(
            "{:<44} {:>9} {:<28} {:>5} {:>7} {:>8}\n",
            "cell", "written", "labels", "dups", "gave-up", "inst/s"
        );
        for (key, c) in &self.cells {
            let labels: Vec<String> = c.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let rate = if c.seconds > 0.0 {
                c.written as f64 / c.seconds
            } else {
                0.0
            };
            s.push_str(&format!(
                "{key:<44} {:>9} {:<28} {:>5} {:>7} {rate:>8.2}\n",
                format!("{}/{}", c.written, c.requested),
                labels.join(" "),
                c.duplicates,
                c.gave_up,
            ));
        }
        if self.cells.values().any(|c| !c.rejects.is_empty()) {
            s.push_str("rejected attempts by reason:\n");
            for (key, c) in &self.cells {
                if !c.rejects.is_empty() {
                    let r: Vec<String> =
                        c.rejects.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    s.push_str(&format!("  {key}: {}\n", r.join(" ")));
                }
            }
        }
        if self.shortfall > 0 {
            let short: Vec<String> = self
                .cells
                .iter()
                .filter(|(_, c)| c.shortfall > 0)
                .map(|(k, c)| format!("{k} ({}/{})", c.written, c.requested))
                .collect();
            s.push_str(&format!(
                "SHORTFALL: {} of {} rows missing in {} cell(s): {}\n",
                self.shortfall,
                self.requested_rows,
                short.len(),
                short.join(", ")
            ));
        }
        if self.bugs_found() > 0 {
            s.push_str(&format!(
                "BUGS FOUND: {} certificate(s) the checker refused, {} generator panic(s); each is in rejects/rejects.jsonl\n",
                self.certificate_failures, self.generator_panics
            ));
        }
        s.push_str(&self.audit_text);
        let total = self.generation_seconds;
        s.push_str(&format!(
            "total: {} rows ({} requested, {} duplicates and {} repeated answers skipped) in {:.1}s ({:.2} certified instances/s); writing {:.2}s (writer thread, overlapped)\n",
            self.total_rows,
            self.requested_rows,
            self.duplicates,
            self.repeats,
            total,
            if total > 0.0 { self.total_rows as f64 / total } else { 0.0 },
            self.writing_seconds
        ));
        s
    }
}

/// Serde helper: counters that are zero are left out of `summary.json`.
pub(super) fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The config and level of a cell key (`config group Llevel`,
/// [`crate::tasks::family::Cell::key`]).
pub(super) fn cell_config_level(key: &str) -> (&str, u32) {
    let config = key.split(' ').next().unwrap_or(key);
    let level = key
        .rsplit(' ')
        .next()
        .and_then(|l| l.strip_prefix('L'))
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    (config, level)
}
