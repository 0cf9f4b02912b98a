//! Scoring and verification from Python: `score`, `score_detail`,
//! `score_batch` (rows in parallel behind the released GIL) and `verify`,
//! each through the family the registry names for the row's task.

use crate::rows::*;
use crate::*;
use pyo3::exceptions::PyValueError;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use saturate::pipeline::score::{Row, score_row, verify_row};
use saturate::prover::Prover;
use saturate::tasks::Score;
use saturate::tasks::family::ScoreContext;

/// A fresh scoring context (the prover with the default `[prover]`
/// limits, as `saturate score` uses without `--config`) that computes
/// every sub-metric (`score_detail`).
pub(crate) fn context() -> ScoreContext {
    ScoreContext::new(Prover::new(Default::default()))
}

/// A context for callers that return the value alone (`score`,
/// `score_batch`, the rewards): no prover work for sub-metrics, so a wrong
/// selection or reconstruction answer costs at most one undecided prover
/// call instead of one per answer or per step. The values are the same.
pub(crate) fn value_context() -> ScoreContext {
    ScoreContext {
        metrics: false,
        ..context()
    }
}

/// Scores one reply, a panic turned into an error.
pub(crate) fn score_one(row: &Row, reply: &str, ctx: &mut ScoreContext) -> PyResult<Score> {
    guarded(&format!("scoring row {:?}", row.id), || {
        score_row(row, reply, registry(), ctx)
    })
}

/// Scores a model's reply to a dataset row: 1.0 for a correct answer, 0
/// for a wrong, malformed or missing one, partial credit where the task
/// gives it.
///
/// `row` is a row as `datasets` yields it (the columns `id`, `task`,
/// `domain`, `source`, `level`, `prompt`, `answer`, `metadata`,
/// `certificate`; other columns are ignored; `level` may be an integer,
/// a string or None). `completion` is the reply: a string, or a chat
/// completion (a list of `{"role", "content"}` messages, whose last
/// assistant message is scored). The answer is taken out of the reply by
/// the engine's extractor (`<answer>` tags, an `Answer:` line, `\boxed{}`,
/// code fences, emphasis) before the task's scorer runs. Only the value is
/// computed: prover work that serves sub-metrics alone (`score_detail`'s
/// `metrics` and `steps`) is skipped, so a wrong answer is as cheap to
/// reward as the value allows.
#[pyfunction]
#[pyo3(signature = (row, completion))]
pub(crate) fn score(
    py: Python<'_>,
    row: &Bound<'_, PyAny>,
    completion: &Bound<'_, PyAny>,
) -> PyResult<f64> {
    let row = row_from(row)?;
    let reply = completion_text(completion)?;
    py.detach(|| score_one(&row, &reply, &mut value_context()))
        .map(|s| s.value)
}

/// Like `score`, with the scorer's whole account: a dict with `score`
/// (float), `well_formed` (whether an answer in the task's format was
/// found), `verdict` (the grader's verdict: "ok", "wrong", "malformed",
/// "cheating" or "timeout"), `detail` (one line: "correct" or the first
/// error found), `metrics` (the task's named sub-metrics, e.g. lenient and
/// strict proof checking; empty for tasks without them) and `steps` (for
/// answers made of steps, such as derivation chains, one dict per step with
/// `step`, `verdict` and `detail`, usable as a process reward; empty for
/// other answers).
#[pyfunction]
#[pyo3(signature = (row, completion))]
pub(crate) fn score_detail<'py>(
    py: Python<'py>,
    row: &Bound<'py, PyAny>,
    completion: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let row = row_from(row)?;
    let reply = completion_text(completion)?;
    let s = py.detach(|| score_one(&row, &reply, &mut context()))?;
    let d = PyDict::new(py);
    d.set_item("score", s.value)?;
    d.set_item("well_formed", s.well_formed)?;
    d.set_item("verdict", s.verdict.name())?;
    d.set_item("detail", s.detail)?;
    let metrics = PyDict::new(py);
    for (name, v) in s.metrics {
        metrics.set_item(name, v)?;
    }
    d.set_item("metrics", metrics)?;
    let steps = PyList::empty(py);
    for st in s.steps {
        let e = PyDict::new(py);
        e.set_item("step", st.step)?;
        e.set_item("verdict", st.verdict.name())?;
        e.set_item("detail", st.detail)?;
        steps.append(e)?;
    }
    d.set_item("steps", steps)?;
    Ok(d)
}

/// Scores `completions[i]` against `rows[i]` for every i, in parallel on
/// the engine's threads with the GIL released (`RAYON_NUM_THREADS` caps
/// them); the scores are those of the one-by-one `score` calls, in order.
/// Both sequences must have the same length; every row and completion is
/// read before any is scored, so a bad one raises before work starts.
#[pyfunction]
#[pyo3(signature = (rows, completions))]
pub(crate) fn score_batch(
    py: Python<'_>,
    rows: &Bound<'_, PyAny>,
    completions: &Bound<'_, PyAny>,
) -> PyResult<Vec<f64>> {
    let rows: Vec<Bound<'_, PyAny>> = rows.try_iter()?.collect::<PyResult<_>>()?;
    let completions: Vec<Bound<'_, PyAny>> = completions.try_iter()?.collect::<PyResult<_>>()?;
    if rows.len() != completions.len() {
        return Err(PyValueError::new_err(format!(
            "score_batch: {} rows but {} completions; give one completion per row",
            rows.len(),
            completions.len()
        )));
    }
    let mut work = Vec::with_capacity(rows.len());
    for (i, (r, c)) in rows.iter().zip(&completions).enumerate() {
        let at = |e: PyErr| PyValueError::new_err(format!("item {i}: {}", e.value(py)));
        work.push((row_from(r).map_err(at)?, completion_text(c).map_err(at)?));
    }
    py.detach(|| {
        work.par_iter()
            .map_init(value_context, |ctx, (row, reply)| {
                score_one(row, reply, ctx).map(|s| s.value)
            })
            .collect()
    })
}

/// Re-checks a row the way `saturate verify` does: the label against its
/// certificate (TPTP rows, with the independent checker) or the gold
/// answer with its checker (PL, EQ), then the prompt rendered again from
/// the row's metadata and compared with the stored one. Returns a dict
/// with `ok` (bool), `problem` (why not, or None) and `detail` (what was
/// checked, or None).
#[pyfunction]
#[pyo3(signature = (row))]
pub(crate) fn verify<'py>(
    py: Python<'py>,
    row: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let row = row_from(row)?;
    let result = py.detach(|| {
        guarded(&format!("verifying row {:?}", row.id), || {
            verify_row(&row, registry())
        })
    })?;
    let (ok, problem, detail) = match result {
        Ok(Some(checked)) => (true, None, Some(checked)),
        Ok(None) => (
            false,
            Some(format!(
                "no family of this engine writes task {:?}",
                row.task
            )),
            None,
        ),
        Err(e) => (false, Some(e.to_string()), None),
    };
    let d = PyDict::new(py);
    d.set_item("ok", ok)?;
    d.set_item("problem", problem)?;
    d.set_item("detail", detail)?;
    Ok(d)
}
