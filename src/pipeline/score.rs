//! `saturate score` and `saturate verify`: read a dataset written by any of
//! saturate's generators back from its Parquet shards, then score model
//! answers or re-check every row, each with the family that writes the
//! row's `task` (found through the [`Registry`]): TPTP-family certificates
//! with the independent checker, PL1/PL2/EQ gold answers with their
//! checkers, every prompt rendered again from its row's metadata, every
//! shard's row count and row fingerprint against the manifest.
//!
//! Scoring takes the answer proper out of each reply with the shared
//! extractor ([`crate::tasks::answer`]) and reports, per task and level and
//! overall, the format-compliance rate (well-formed answers over answers),
//! the count of each grader verdict ([`Verdict`]: ok, wrong, malformed,
//! cheating, timeout), the mean over the answered rows and the mean over
//! all rows (an unanswered row counts 0), and the mean of every named
//! sub-metric the scorers report (`Score::metrics`: lenient and strict
//! proof checking, ER's full and per-step accuracy, selection's
//! sufficiency and minimality), over the answers that report it. Each
//! per-row line holds the row's `score`, `verdict`, `detail`, `metrics`
//! and, for answers made of steps, `steps` (`Score::steps`: a verdict per
//! step, for process rewards).
//!
//! A `timeout` answer (a check the score depends on ran out of the
//! prover's budget) is counted apart: it is an answered row and counts in
//! the verdicts and format compliance, but the mean over answered rows and
//! the sub-metric means leave it out, as it is neither credited nor
//! blamed; the mean over all rows counts it 0, like an unanswered row.

use super::present::{Presenter, SplitBy};
use super::{RunError, write_atomic};
pub use crate::dataset::{Row, read_dataset, read_dataset_checked};
use crate::prover::{Prover, ProverLimits};
use crate::tasks::answer::extract;
use crate::tasks::family::{ScoreContext, prompt_difference};
use crate::tasks::format::AnswerFormat;
use crate::tasks::registry::Registry;
use crate::tasks::{Score, TaskError, Verdict};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Scores one answer with the scorer of the row's task (found through
/// `registry` by the row's `task`). This is the one place where a model's
/// reply becomes an answer: the shared extractor
/// ([`crate::tasks::answer::extract`]) takes the answer proper out of tags,
/// `Answer:` lines, `\boxed{}`, fences, prose and emphasis, by the shape the
/// family declares for the row's config, before the family's scorer runs;
/// an extracted answer longer than
/// [`crate::tasks::limits::answer_byte_bound`] is `malformed` unchecked.
pub fn score_row(row: &Row, answer: &str, registry: &Registry, ctx: &mut ScoreContext) -> Score {
    match registry.family_of(&row.task) {
        Some(f) => {
            let answer = extract(answer, f.answer_shape(&row.task));
            // Longer than the task can need: refused before any check.
            let bound = crate::tasks::limits::answer_byte_bound(&row.prompt, &row.answer);
            if answer.len() > bound {
                return Score::malformed(format!(
                    "answer of {} bytes; at most {bound} are read for this task",
                    answer.len()
                ));
            }
            f.score(&row.to_record(), &answer, ctx)
        }
        None => Score::malformed(format!("no scorer for task `{}`", row.task)),
    }
}

/// Per-instance score line of `score`'s output.
#[derive(Serialize)]
struct Scored<'a> {
    id: &'a str,
    task: &'a str,
    level: Option<u32>,
    score: f64,
    well_formed: bool,
    verdict: Verdict,
    detail: &'a str,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    metrics: BTreeMap<&'a str, f64>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    steps: &'a [crate::tasks::StepVerdict],
}

/// The running sum of one named sub-metric over a group's answers.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct MetricSum {
    /// Sum of the metric's values.
    pub total: f64,
    /// Answers that reported the metric.
    pub answers: usize,
}

impl MetricSum {
    /// Mean over the answers that reported the metric (0 when none did).
    pub fn mean(&self) -> f64 {
        ratio(self.total, self.answers)
    }
}

/// How many answers met each grader verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VerdictCounts {
    /// Full credit.
    pub ok: usize,
    /// Well formed but wrong (partial credit below 1 included).
    pub wrong: usize,
    /// No answer could be read.
    pub malformed: usize,
    /// The answer used what the task forbids.
    pub cheating: usize,
    /// A check ran out of its work budget (counted apart).
    pub timeout: usize,
}

impl VerdictCounts {
    /// The count of `v`.
    pub fn get(&self, v: Verdict) -> usize {
        match v {
            Verdict::Ok => self.ok,
            Verdict::Wrong => self.wrong,
            Verdict::Malformed => self.malformed,
            Verdict::Cheating => self.cheating,
            Verdict::Timeout => self.timeout,
        }
    }

    fn slot(&mut self, v: Verdict) -> &mut usize {
        match v {
            Verdict::Ok => &mut self.ok,
            Verdict::Wrong => &mut self.wrong,
            Verdict::Malformed => &mut self.malformed,
            Verdict::Cheating => &mut self.cheating,
            Verdict::Timeout => &mut self.timeout,
        }
    }

    fn add(&mut self, other: &VerdictCounts) {
        for v in Verdict::ALL {
            *self.slot(v) += other.get(v);
        }
    }

    fn json(&self) -> serde_json::Value {
        Verdict::ALL
            .iter()
            .map(|&v| (v.name().to_string(), self.get(v).into()))
            .collect::<serde_json::Map<_, _>>()
            .into()
    }
}

/// Aggregates per (task, level).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Group {
    /// Dataset rows of the group, answered or not.
    pub rows: usize,
    /// Answers scored.
    pub answered: usize,
    /// Answers the scorer could read (format compliant): an answer was
    /// extracted and it is well formed.
    pub well_formed: usize,
    /// Sum of scores (timeouts score 0 and add nothing).
    pub total: f64,
    /// Answers scoring 1.
    pub perfect: usize,
    /// Malformed answers.
    pub malformed: usize,
    /// Answers per grader verdict.
    pub verdicts: VerdictCounts,
    /// Named sub-metrics of the scores (`Score::metrics`), summed per name
    /// over the answers that report them, timeouts left out.
    pub metrics: BTreeMap<&'static str, MetricSum>,
}

/// `a / b`, or 0 when `b` is 0.
fn ratio(a: f64, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a / b as f64 }
}

impl Group {
    /// Answers the grader judged: the answered rows but the timeouts.
    pub fn judged(&self) -> usize {
        self.answered - self.verdicts.timeout
    }

    /// Mean score over the answered rows, timeouts left out (they are
    /// neither credited nor blamed).
    pub fn mean_answered(&self) -> f64 {
        ratio(self.total, self.judged())
    }

    /// Mean score over every row of the group (unanswered rows count 0).
    pub fn mean_all(&self) -> f64 {
        ratio(self.total, self.rows)
    }

    /// Share of the answers that were well formed.
    pub fn format_compliance(&self) -> f64 {
        ratio(self.well_formed as f64, self.answered)
    }

    fn add(&mut self, other: &Group) {
        self.rows += other.rows;
        self.answered += other.answered;
        self.well_formed += other.well_formed;
        self.total += other.total;
        self.perfect += other.perfect;
        self.malformed += other.malformed;
        self.verdicts.add(&other.verdicts);
        for (name, m) in &other.metrics {
            let e = self.metrics.entry(name).or_default();
            e.total += m.total;
            e.answers += m.answers;
        }
    }

    /// Counts one scored answer: its verdict always; its value and
    /// sub-metrics unless it is a timeout.
    fn record(&mut self, s: &Score) {
        self.answered += 1;
        *self.verdicts.slot(s.verdict) += 1;
        self.well_formed += usize::from(s.well_formed);
        self.malformed += usize::from(!s.well_formed);
        if s.verdict == Verdict::Timeout {
            return;
        }
        self.total += s.value;
        self.perfect += usize::from(s.value >= 1.0);
        for &(name, v) in &s.metrics {
            let e = self.metrics.entry(name).or_default();
            e.total += v;
            e.answers += 1;
        }
    }

    /// The sub-metric means as one table line (empty without metrics).
    fn metrics_line(&self) -> String {
        if self.metrics.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = self
            .metrics
            .iter()
            .map(|(n, m)| format!("{n} {:.3} ({})", m.mean(), m.answers))
            .collect();
        format!(
            "    sub-metrics (mean over answers): {}\n",
            parts.join(", ")
        )
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "rows": self.rows,
            "answered": self.answered,
            "well_formed": self.well_formed,
            "format_compliance": self.format_compliance(),
            "mean_score_answered": self.mean_answered(),
            "mean_score_all_rows": self.mean_all(),
            "perfect": self.perfect,
            "malformed": self.malformed,
            "verdicts": self.verdicts.json(),
            "metrics": self
                .metrics
                .iter()
                .map(|(n, m)| {
                    (
                        n.to_string(),
                        serde_json::json!({"mean": m.mean(), "answers": m.answers}),
                    )
                })
                .collect::<serde_json::Map<_, _>>(),
        })
    }
}

/// What `score` found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ScoreSummary {
    /// Per "task level".
    pub groups: BTreeMap<String, Group>,
    /// Dataset rows without an answer.
    pub unanswered: usize,
    /// Answer lines naming an id that is not in the dataset.
    pub unknown_ids: Vec<String>,
    /// Answer lines that are not `{"id": ..., "answer": ...}` (line: reason).
    pub bad_lines: Vec<String>,
    /// Answer ids given more than once (the first counts).
    pub duplicate_ids: Vec<String>,
}

impl ScoreSummary {
    /// Every group added up.
    pub fn overall(&self) -> Group {
        let mut all = Group::default();
        for g in self.groups.values() {
            all.add(g);
        }
        all
    }

    /// The table printed at the end.
    pub fn render(&self) -> String {
        let mut s = String::from(
            "task                      level    rows  answered  compliant  mean (answered)  mean (all rows)      ok   wrong  malformed  cheating  timeout\n",
        );
        let line = |k: &str, g: &Group| {
            let v = &g.verdicts;
            format!(
                "{k:<32} {:>6}  {:>8}  {:>9.3}  {:>15.3}  {:>15.3}  {:>6}  {:>6}  {:>9}  {:>8}  {:>7}\n",
                g.rows,
                g.answered,
                g.format_compliance(),
                g.mean_answered(),
                g.mean_all(),
                v.ok,
                v.wrong,
                v.malformed,
                v.cheating,
                v.timeout
            )
        };
        for (k, g) in &self.groups {
            s.push_str(&line(k, g));
            s.push_str(&g.metrics_line());
        }
        let all = self.overall();
        s.push_str(&line("all", &all));
        s.push_str(&all.metrics_line());
        s.push_str(
            "verdicts: ok = full credit, wrong = partial or no credit, malformed = no answer read, cheating = uses what the task forbids, timeout = a check ran out of budget (left out of the mean over answered rows)\n",
        );
        s.push_str(&format!(
            "{} unanswered rows, {} unknown ids, {} bad lines, {} duplicate ids\n",
            self.unanswered,
            self.unknown_ids.len(),
            self.bad_lines.len(),
            self.duplicate_ids.len()
        ));
        for l in self.bad_lines.iter().take(10) {
            s.push_str(&format!("  bad line {l}\n"));
        }
        for id in self.unknown_ids.iter().take(10) {
            s.push_str(&format!("  unknown id {id}\n"));
        }
        s
    }

    /// The summary as JSON (`saturate score --json`): the overall figures,
    /// one entry per task and level, and the answer file's problems.
    pub fn to_json(&self) -> serde_json::Value {
        let groups: serde_json::Map<String, serde_json::Value> = self
            .groups
            .iter()
            .map(|(k, g)| {
                let mut v = g.json();
                let (task, level) = k.split_once(' ').unwrap_or((k, "-"));
                v["task"] = task.trim().into();
                v["level"] = level.trim().into();
                (format!("{} {}", task.trim(), level.trim()), v)
            })
            .collect();
        serde_json::json!({
            "overall": self.overall().json(),
            "groups": groups,
            "unanswered": self.unanswered,
            "unknown_ids": self.unknown_ids,
            "bad_lines": self.bad_lines,
            "duplicate_ids": self.duplicate_ids,
        })
    }
}

/// Longest line of an answers file (one answer with its id).
pub const MAX_ANSWER_LINE_BYTES: u64 = 16 << 20;
/// Largest answers file read.
pub const MAX_ANSWERS_BYTES: u64 = 1 << 30;

/// The lines of an answers file (invalid UTF-8 replaced), read with bounds:
/// a line longer than `max_line` bytes or a file past `max_total` bytes
/// (`/dev/zero`, a runaway model output) is an input error naming the
/// line, never a read until memory runs out.
fn read_answer_lines(path: &Path, max_line: u64, max_total: u64) -> Result<Vec<String>, RunError> {
    use std::io::{BufRead, Read};
    let input = |m: String| RunError::Input(format!("{}: {m}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| input(e.to_string()))?;
    let mut r = std::io::BufReader::with_capacity(1 << 16, file);
    let mut lines = Vec::new();
    let mut total = 0u64;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut r)
            .take(max_line + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| input(e.to_string()))?;
        if n == 0 {
            return Ok(lines);
        }
        let line = lines.len() + 1;
        if buf.last() != Some(&b'\n') && n as u64 > max_line {
            return Err(input(format!(
                "line {line} is longer than {max_line} bytes; an answers file holds one {{\"id\", \"answer\"}} object per line"
            )));
        }
        total += n as u64;
        if total > max_total {
            return Err(input(format!(
                "more than {max_total} bytes by line {line}; split the answers file"
            )));
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        lines.push(String::from_utf8_lossy(&buf).into_owned());
    }
}

/// Scores a JSON Lines answer file against a dataset with the built-in
/// families; writes one JSON line per scored answer to `out` (atomically)
/// and returns the summary.
pub fn score_answers(
    dataset: &Path,
    answers: &Path,
    out: &Path,
    limits: ProverLimits,
) -> Result<ScoreSummary, RunError> {
    score_answers_with(dataset, answers, out, limits, &Registry::builtin())
}

/// [`score_answers`] with the families of `registry`.
pub fn score_answers_with(
    dataset: &Path,
    answers: &Path,
    out: &Path,
    limits: ProverLimits,
    registry: &Registry,
) -> Result<ScoreSummary, RunError> {
    let rows = read_dataset(dataset)?;
    let manifest = dataset.join("manifest.json");
    let shards: std::collections::BTreeSet<&Path> = rows.iter().map(|r| r.file.as_path()).collect();
    super::check_outputs(
        &[out],
        [answers, manifest.as_path()].into_iter().chain(shards),
    )?;
    let by_id: BTreeMap<&str, &Row> = rows.iter().map(|r| (r.id.as_str(), r)).collect();
    let lines = read_answer_lines(answers, MAX_ANSWER_LINE_BYTES, MAX_ANSWERS_BYTES)?;
    let mut summary = ScoreSummary::default();
    let mut given: BTreeMap<String, String> = BTreeMap::new();
    for (n, line) in lines.iter().enumerate() {
        let line = line.as_str();
        let at = format!("{}:{}", answers.display(), n + 1);
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                summary.bad_lines.push(format!("{at}:{}: {e}", e.column()));
                continue;
            }
        };
        let (Some(id), Some(answer)) = (v.get("id").and_then(|x| x.as_str()), v.get("answer"))
        else {
            summary.bad_lines.push(format!(
                "{at}:1: expected {{\"id\": string, \"answer\": ...}}"
            ));
            continue;
        };
        let answer = match answer {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        if !by_id.contains_key(id) {
            summary.unknown_ids.push(crate::tptp::excerpt(id, 80));
            continue;
        }
        if given.contains_key(id) {
            summary.duplicate_ids.push(crate::tptp::excerpt(id, 80));
            continue;
        }
        given.insert(id.to_string(), answer);
    }
    if given.is_empty() {
        let mut m = format!(
            "{}: no answer could be read ({} bad lines, {} unknown ids); expected one {{\"id\": string, \"answer\": ...}} per line",
            answers.display(),
            summary.bad_lines.len(),
            summary.unknown_ids.len()
        );
        for l in summary.bad_lines.iter().take(20) {
            m.push_str(&format!("\n  {l}"));
        }
        for id in summary.unknown_ids.iter().take(20) {
            m.push_str(&format!("\n  unknown id {id:?}"));
        }
        return Err(RunError::Input(m));
    }
    let mut ctx = ScoreContext::new(Prover::new(limits));
    let mut lines = String::new();
    for row in &rows {
        let level = row.level.map_or_else(|| "-".to_string(), |l| l.to_string());
        let key = format!("{:<26} {level}", row.task);
        let g = summary.groups.entry(key).or_default();
        g.rows += 1;
        let Some(answer) = given.get(&row.id) else {
            summary.unanswered += 1;
            continue;
        };
        let s = score_row(row, answer, registry, &mut ctx);
        g.record(&s);
        lines.push_str(
            &serde_json::to_string(&Scored {
                id: &row.id,
                task: &row.task,
                level: row.level,
                score: s.value,
                well_formed: s.well_formed,
                verdict: s.verdict,
                detail: &s.detail,
                metrics: s.metrics.iter().copied().collect(),
                steps: &s.steps,
            })
            .expect("serialisable"),
        );
        lines.push('\n');
    }
    write_atomic(out, |w| std::io::Write::write_all(w, lines.as_bytes()))?;
    Ok(summary)
}

/// Re-checks one row on its own, the presentation (answer format, system
/// prompt) read off the row itself: the format whose rendering of the gold
/// answer is the stored completion, the system prompt of its first turn.
/// [`verify_row_with`] checks against a manifest's presentation instead.
pub fn verify_row(row: &Row, registry: &Registry) -> Result<Option<String>, TaskError> {
    let format = AnswerFormat::ALL
        .into_iter()
        .find(|f| f.render(&row.answer) == row.completion)
        .ok_or_else(|| {
            TaskError::Rejected("the completion is not the gold answer in any answer format".into())
        })?;
    let presenter = Presenter {
        format,
        system_prompt: row
            .messages
            .first()
            .map(|(_, c)| c.clone())
            .unwrap_or_default(),
        trace: false,
        split_by: SplitBy::Theorem,
    };
    verify_row_with(row, registry, &presenter)
}

/// Re-checks one row through its family's verifier, renders its prompt
/// again from the metadata (with the answer format's instruction) and
/// compares it with the stored prompt (what the model sees must be what
/// the certificate speaks of), and checks the completion and `messages`
/// against the presentation; `Ok(None)` when no registered family writes
/// the row's task.
pub fn verify_row_with(
    row: &Row,
    registry: &Registry,
    presenter: &Presenter,
) -> Result<Option<String>, TaskError> {
    let Some(f) = registry.family_of(&row.task) else {
        return Ok(None);
    };
    let record = row.to_record();
    let checked = f.verify(&record)?;
    presenter.check(row).map_err(TaskError::Rejected)?;
    match f.render_prompt(&record) {
        None => Ok(Some(checked)),
        Some(Err(e)) => Err(TaskError::Record(format!(
            "cannot render the prompt from the metadata: {e}"
        ))),
        Some(Ok(rendered)) => {
            match prompt_difference(&row.prompt, &presenter.prompt_for(&rendered)) {
                Some(d) => Err(TaskError::Rejected(d)),
                None => Ok(Some(format!("{checked}; prompt re-rendered"))),
            }
        }
    }
}

/// What `verify` found.
#[derive(Clone, Debug, Default)]
pub struct VerifySummary {
    /// Rows re-checked per task.
    pub checked: BTreeMap<String, usize>,
    /// Rows of tasks without a re-checkable certificate, per task.
    pub skipped: BTreeMap<String, usize>,
    /// Failures: (id, file, reason).
    pub failures: Vec<(String, String, String)>,
    /// Shards whose rows do not match the manifest (row count or row
    /// fingerprint): (file, reason).
    pub shard_failures: Vec<(String, String)>,
}

/// Re-checks every row of a dataset with the built-in families.
pub fn verify_dataset(dir: &Path) -> Result<VerifySummary, RunError> {
    verify_dataset_with(dir, &Registry::builtin())
}

/// Re-checks every row of a dataset with the families of `registry`, and
/// every shard's row count and row fingerprint against the manifest.
pub fn verify_dataset_with(dir: &Path, registry: &Registry) -> Result<VerifySummary, RunError> {
    let read = read_dataset_checked(dir)?;
    let manifest = crate::dataset::read_manifest_of(dir)?;
    let presenter = Presenter::from_manifest(&manifest)
        .map_err(|e| RunError::Input(format!("{}: manifest.json: {e}", dir.display())))?;
    let mut s = VerifySummary {
        shard_failures: read
            .mismatches
            .iter()
            .map(|m| (m.file.display().to_string(), m.reason.clone()))
            .collect(),
        ..VerifySummary::default()
    };
    for row in &read.rows {
        match verify_row_with(row, registry, &presenter) {
            Ok(Some(_)) => *s.checked.entry(row.task.clone()).or_default() += 1,
            Ok(None) => *s.skipped.entry(row.task.clone()).or_default() += 1,
            Err(e) => s.failures.push((
                row.id.clone(),
                row.file.display().to_string(),
                e.to_string(),
            )),
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    #[test]
    fn answer_lines_are_bounded_and_name_the_line() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("a.jsonl");
        std::fs::write(&p, "one\r\ntwo\n\nthree").unwrap();
        let lines = read_answer_lines(&p, 8, 100).unwrap();
        assert_eq!(lines, ["one", "two", "", "three"]);
        std::fs::write(&p, "short\n123456789\nx\n").unwrap();
        let e = read_answer_lines(&p, 8, 100).unwrap_err().to_string();
        assert!(e.contains("line 2 is longer than 8 bytes"), "{e}");
        assert!(read_answer_lines(&p, 9, 100).is_ok());
        let e = read_answer_lines(&p, 9, 12).unwrap_err().to_string();
        assert!(e.contains("by line 2"), "{e}");
        // An endless file without newlines stops at the first limit.
        let e = read_answer_lines(Path::new("/dev/zero"), 1 << 10, 1 << 20)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1 is longer"), "{e}");
    }

    use super::*;

    #[test]
    fn means_count_unanswered_rows_as_zero() {
        let mut s = ScoreSummary::default();
        s.groups.insert(
            "t                          1".into(),
            Group {
                rows: 4,
                answered: 2,
                well_formed: 1,
                total: 1.0,
                perfect: 1,
                malformed: 1,
                verdicts: VerdictCounts {
                    ok: 1,
                    malformed: 1,
                    ..VerdictCounts::default()
                },
                metrics: BTreeMap::new(),
            },
        );
        s.groups.insert(
            "t                          2".into(),
            Group {
                rows: 2,
                ..Group::default()
            },
        );
        let all = s.overall();
        assert_eq!((all.rows, all.answered, all.well_formed), (6, 2, 1));
        assert_eq!(all.mean_answered(), 0.5);
        assert!((all.mean_all() - 1.0 / 6.0).abs() < 1e-12);
        assert_eq!(all.format_compliance(), 0.5);
        // A group nobody answered: no division by zero.
        let none = &s.groups["t                          2"];
        assert_eq!((none.mean_answered(), none.format_compliance()), (0.0, 0.0));
        let j = s.to_json();
        assert_eq!(j["groups"]["t 1"]["mean_score_all_rows"], 0.25);
        assert_eq!(j["groups"]["t 1"]["level"], "1");
        assert_eq!(j["overall"]["rows"], 6);
        let table = s.render();
        assert!(table.lines().any(|l| l.starts_with("all ")), "{table}");
    }

    #[test]
    fn sub_metrics_are_averaged_per_group_over_the_answers_reporting_them() {
        let mut g = Group::default();
        let both =
            |v: f64, l, s| Score::partial(v, "x").with_metrics(vec![("lenient", l), ("strict", s)]);
        g.record(&both(0.0, 1.0, 0.0));
        g.record(&both(1.0, 1.0, 1.0));
        g.record(&Score::malformed("x").with_metrics(vec![("lenient", 0.0), ("strict", 0.0)]));
        g.record(&Score::correct().with_metrics(vec![("error_line", 1.0)]));
        g.rows = 5;
        assert_eq!(g.metrics["lenient"].answers, 3);
        assert!((g.metrics["lenient"].mean() - 2.0 / 3.0).abs() < 1e-12);
        assert!((g.metrics["strict"].mean() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(g.metrics["error_line"].mean(), 1.0);
        let mut s = ScoreSummary::default();
        s.groups
            .insert("pl1_proof_checking         1".into(), g.clone());
        s.groups.insert("pl1_proof_checking         2".into(), g);
        let j = s.to_json();
        assert_eq!(
            j["groups"]["pl1_proof_checking 1"]["metrics"]["strict"]["answers"],
            3
        );
        assert_eq!(j["overall"]["metrics"]["lenient"]["answers"], 6);
        let table = s.render();
        assert!(table.contains("lenient 0.667 (3)"), "{table}");
        assert!(table.contains("strict 0.333 (6)"), "{table}");
    }

    #[test]
    fn verdicts_are_counted_and_timeouts_left_out_of_the_means() {
        let mut g = Group {
            rows: 6,
            ..Group::default()
        };
        let m = |s: Score, v: f64| s.with_metrics(vec![("strict", v)]);
        g.record(&m(Score::correct(), 1.0));
        g.record(&m(Score::partial(0.5, "half"), 0.0));
        g.record(&m(Score::malformed("m"), 0.0));
        g.record(&m(Score::cheating("c"), 0.0));
        g.record(&m(Score::timeout("t"), 0.0));
        let want = VerdictCounts {
            ok: 1,
            wrong: 1,
            malformed: 1,
            cheating: 1,
            timeout: 1,
        };
        assert_eq!(g.verdicts, want);
        assert_eq!((g.answered, g.judged(), g.well_formed), (5, 4, 4));
        // 1.5 over the four judged answers; over all six rows.
        assert_eq!(g.mean_answered(), 1.5 / 4.0);
        assert_eq!(g.mean_all(), 1.5 / 6.0);
        assert_eq!(g.metrics["strict"].answers, 4);
        // A group whose every answer timed out: no division by zero.
        let mut t = Group::default();
        t.record(&Score::timeout("t"));
        assert_eq!((t.mean_answered(), t.verdicts.timeout), (0.0, 1));
        let mut s = ScoreSummary::default();
        s.groups.insert("premise_selection          1".into(), g);
        s.groups.insert("premise_selection          2".into(), t);
        let j = s.to_json();
        assert_eq!(
            j["groups"]["premise_selection 1"]["verdicts"],
            serde_json::json!({"ok": 1, "wrong": 1, "malformed": 1, "cheating": 1, "timeout": 1})
        );
        assert_eq!(j["overall"]["verdicts"]["timeout"], 2);
        assert_eq!(j["overall"]["verdicts"]["cheating"], 1);
        let table = s.render();
        let all = table.lines().find(|l| l.starts_with("all ")).unwrap();
        let cols: Vec<&str> = all.split_whitespace().collect();
        assert_eq!(cols[cols.len() - 5..], ["1", "1", "1", "1", "2"], "{table}");
        assert!(table.contains("cheating  timeout"), "{table}");
    }
}
