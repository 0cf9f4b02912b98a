//! The audit's report: per-cell verdicts of the shallow baselines and
//! text readers, the exploit suite's means, and their printing as the
//! table `saturate audit` shows and the JSON `--json-out` writes.

use super::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

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
    /// Distinct groups ([`TaskFamily::audit_group`](crate::tasks::family::TaskFamily::audit_group)) among the rows: the
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
