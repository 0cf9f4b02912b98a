//! `saturate._native`: the engine's scoring, verification and generation
//! as Python functions, in-process (no subprocess), for training loops
//! (TRL rewards), evaluation harnesses (lm-eval) and scripts. Rows come as
//! the dicts Hugging Face `datasets` yields; answers as strings or chat
//! completions. Every call releases the GIL while the engine works; a panic
//! inside the engine becomes a `RuntimeError`, bad input a `ValueError`
//! with the engine's message.

use pyo3::exceptions::{PyKeyError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;
use saturate::config::MAX_COUNT;
use saturate::pipeline::score::{Row, score_row, verify_row};
use saturate::pipeline::request::family;
use saturate::pipeline::tptp::{Stage, TptpRun};
use saturate::pipeline::{
    FamilyRun, LoopSettings, Overrides, RunError, StageOptions, run_config, run_family,
};
use saturate::prover::Prover;
use saturate::tasks::Score;
use saturate::tasks::family::{Registry, ScoreContext};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The built-in families, built once: every call dispatches through it.
fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::builtin)
}

/// The row columns that must be present (`None` allowed for the text
/// columns, read as empty the way the dataset reader reads a null).
const REQUIRED: [&str; 6] = ["id", "task", "prompt", "answer", "metadata", "certificate"];

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Runs `f`, turning a panic into a `RuntimeError` that says what was
/// being done (`what`): a panic never unwinds into Python.
fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        PyRuntimeError::new_err(format!(
            "saturate: internal error while {what}: {} (a bug; please report it)",
            panic_message(p.as_ref())
        ))
    })
}

/// A run error as the Python exception of the same meaning: bad input
/// (exit code 2) is a `ValueError`, everything else a `RuntimeError`.
fn run_error(e: RunError) -> PyErr {
    if e.exit_code() == 2 {
        PyValueError::new_err(e.to_string())
    } else {
        PyRuntimeError::new_err(e.to_string())
    }
}

/// Column `key` of `row`, `None` when the row lacks it (a mapping without
/// the key); a row that is not subscriptable is a `ValueError`.
fn column<'py>(row: &Bound<'py, PyAny>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    match row.get_item(key) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_instance_of::<PyKeyError>(row.py()) => Ok(None),
        Err(e) => Err(PyValueError::new_err(format!(
            "row must be a mapping of column names to values (a dataset row as `datasets` yields it), got {}: {e}",
            type_name(row)
        ))),
    }
}

/// The Python type name of `v`, for messages.
fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// A text column: a string, or `None` (absent value).
fn text(key: &str, v: Option<Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    match v {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => v.extract::<String>().map(Some).map_err(|_| {
            PyValueError::new_err(format!(
                "row[{key:?}] must be a string or None, got {}",
                type_name(&v)
            ))
        }),
    }
}

/// The `level` column: an integer, its decimal text or `None`.
fn level(v: Option<Bound<'_, PyAny>>) -> PyResult<Option<u32>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let bad = |v: &Bound<'_, PyAny>| {
        PyValueError::new_err(format!(
            "row[\"level\"] must be a level (a whole number 0-4294967295, or its text) or None, got {}",
            type_name(v)
        ))
    };
    if v.is_instance_of::<PyString>() {
        let t = v.extract::<String>()?;
        return t.trim().parse::<u32>().map(Some).map_err(|_| bad(&v));
    }
    if !v.is_instance_of::<PyBool>()
        && let Ok(n) = v.extract::<i64>()
    {
        return u32::try_from(n).map(Some).map_err(|_| bad(&v));
    }
    Err(bad(&v))
}

/// The `messages` column: a list of `{"role", "content"}` mappings, or
/// `None` (then built from the prompt and the completion, with an empty
/// system turn). Scoring never reads it, so a malformed list is not an
/// error here: it reads as no turns, which `verify` then reports.
fn messages(v: Option<Bound<'_, PyAny>>, prompt: &str, completion: &str) -> Vec<(String, String)> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return vec![
            ("system".into(), String::new()),
            ("user".into(), prompt.to_string()),
            ("assistant".into(), completion.to_string()),
        ];
    };
    let turn = |t: &Bound<'_, PyAny>| -> Option<(String, String)> {
        let role: String = t.get_item("role").ok()?.extract().ok()?;
        let content: String = t.get_item("content").ok()?.extract().ok()?;
        Some((role, content))
    };
    let Ok(items) = v.try_iter() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in items {
        match t.ok().as_ref().and_then(turn) {
            Some(x) => out.push(x),
            None => return Vec::new(),
        }
    }
    out
}

/// Reads a dataset row (a dict with the dataset's columns; other columns
/// are ignored). A missing column or one of the wrong type is a
/// `ValueError` naming it; so is a task no family of this engine writes.
fn row_from(row: &Bound<'_, PyAny>) -> PyResult<Row> {
    let mut got: Vec<Option<String>> = Vec::with_capacity(REQUIRED.len());
    for key in REQUIRED {
        let v = column(row, key)?.ok_or_else(|| {
            PyValueError::new_err(format!(
                "row has no {key:?} column; a saturate row has the columns id, task, domain, source, level, prompt, answer, metadata, certificate"
            ))
        })?;
        got.push(text(key, Some(v))?);
    }
    let [id, task, prompt, answer, metadata, certificate]: [Option<String>; 6] =
        got.try_into().expect("six columns");
    let (Some(id), Some(task)) = (id, task) else {
        return Err(PyValueError::new_err(
            "row[\"id\"] and row[\"task\"] must be strings, not None",
        ));
    };
    if registry().family_of(&task).is_none() {
        let known: Vec<&str> = registry()
            .families()
            .iter()
            .flat_map(|f| f.configs().into_iter().map(|c| c.name))
            .collect();
        return Err(PyValueError::new_err(format!(
            "row[\"task\"] = {task:?} is not a task this saturate ({}) writes; known tasks: {}",
            saturate::VERSION,
            known.join(", ")
        )));
    }
    let prompt = prompt.unwrap_or_default();
    let answer = answer.unwrap_or_default();
    // Rows of older layouts have no completion: the plain gold answer.
    let completion = text("completion", column(row, "completion")?)?.unwrap_or(answer.clone());
    let messages = messages(column(row, "messages")?, &prompt, &completion);
    Ok(Row {
        id,
        task,
        level: level(column(row, "level")?)?,
        domain: text("domain", column(row, "domain")?)?,
        source: text("source", column(row, "source")?)?,
        prompt,
        answer,
        completion,
        messages,
        trace: text("trace", column(row, "trace")?)?,
        metadata: metadata.unwrap_or_default(),
        certificate: certificate.unwrap_or_default(),
        file: PathBuf::new(),
    })
}

/// The text of a message's `content`: a string, `None` (empty), or a list
/// of content parts (`{"type": "text", "text": ...}` or strings), joined.
fn content_text(content: &Bound<'_, PyAny>) -> PyResult<String> {
    if content.is_none() {
        return Ok(String::new());
    }
    if let Ok(s) = content.extract::<String>() {
        return Ok(s);
    }
    if let Ok(parts) = content.cast::<PyList>() {
        let mut out = String::new();
        for part in parts.iter() {
            if let Ok(s) = part.extract::<String>() {
                out.push_str(&s);
            } else if let Some(t) = column(&part, "text")?.filter(|t| !t.is_none()) {
                out.push_str(&t.extract::<String>().map_err(|_| {
                    PyValueError::new_err("a content part's \"text\" must be a string")
                })?);
            }
        }
        return Ok(out);
    }
    Err(PyValueError::new_err(format!(
        "a message's \"content\" must be a string, a list of content parts or None, got {}",
        type_name(content)
    )))
}

/// The reply in a completion: the string itself, or, for a chat
/// completion (a list of `{"role", "content"}` messages, as TRL passes
/// them for conversational datasets, or one such message), the content of
/// the last assistant message.
fn completion_text(completion: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = completion.cast::<PyString>() {
        return Ok(s.to_string());
    }
    let messages: Vec<Bound<'_, PyAny>> = if completion.is_instance_of::<PyDict>() {
        vec![completion.clone()]
    } else if completion.is_instance_of::<PyList>() || completion.is_instance_of::<PyTuple>() {
        completion.try_iter()?.collect::<PyResult<_>>()?
    } else {
        return Err(PyValueError::new_err(format!(
            "completion must be a string or a chat completion (a list of {{\"role\": ..., \"content\": ...}} messages), got {}",
            type_name(completion)
        )));
    };
    for m in messages.iter().rev() {
        let role = column(m, "role")?;
        let is_assistant = match &role {
            Some(r) => r.extract::<String>().is_ok_and(|r| r == "assistant"),
            None => false,
        };
        if is_assistant {
            return match column(m, "content")? {
                Some(c) => content_text(&c),
                None => Ok(String::new()),
            };
        }
    }
    Err(PyValueError::new_err(format!(
        "the chat completion has no assistant message ({} message(s)); the reply scored is the last message with role \"assistant\"",
        messages.len()
    )))
}

/// A fresh scoring context (the prover with the default `[prover]`
/// limits, as `saturate score` uses without `--config`).
fn context() -> ScoreContext {
    ScoreContext {
        prover: Prover::new(Default::default()),
    }
}

/// Scores one reply, a panic turned into an error.
fn score_one(row: &Row, reply: &str, ctx: &mut ScoreContext) -> PyResult<Score> {
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
/// code fences, emphasis) before the task's scorer runs.
#[pyfunction]
#[pyo3(signature = (row, completion))]
fn score(py: Python<'_>, row: &Bound<'_, PyAny>, completion: &Bound<'_, PyAny>) -> PyResult<f64> {
    let row = row_from(row)?;
    let reply = completion_text(completion)?;
    py.detach(|| score_one(&row, &reply, &mut context()))
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
fn score_detail<'py>(
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
fn score_batch(
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
            .map_init(context, |ctx, (row, reply)| {
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
fn verify<'py>(py: Python<'py>, row: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
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

/// An optional whole-number argument within `lo..=hi`, as a `ValueError`
/// naming the argument otherwise.
fn whole(name: &str, v: Option<i64>, lo: i64, hi: i64) -> PyResult<Option<u64>> {
    match v {
        Some(n) if n < lo || n > hi => Err(PyValueError::new_err(format!(
            "{name}={n} is not in {lo}-{hi}"
        ))),
        Some(n) => Ok(Some(n as u64)),
        None => Ok(None),
    }
}

/// The `levels` argument: a list of levels (1-255), one level, or the
/// CLI's comma-separated text.
fn levels_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u8>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    let items: Vec<i64> = if let Ok(s) = v.extract::<String>() {
        s.split(',')
            .map(|x| {
                x.trim().parse::<i64>().map_err(|_| {
                    PyValueError::new_err(format!("levels={s:?}: {x:?} is not a whole number"))
                })
            })
            .collect::<PyResult<_>>()?
    } else if let Ok(n) = v.extract::<i64>() {
        vec![n]
    } else {
        v.extract::<Vec<i64>>().map_err(|_| {
            PyValueError::new_err(format!(
                "levels must be a list of whole numbers, got {}",
                type_name(v)
            ))
        })?
    };
    if items.is_empty() {
        return Err(PyValueError::new_err(
            "levels is empty; give at least one level or None for the config's",
        ));
    }
    items
        .into_iter()
        .map(|n| {
            u8::try_from(n)
                .ok()
                .filter(|&l| l >= 1)
                .ok_or_else(|| PyValueError::new_err(format!("levels: {n} is not in 1-255")))
        })
        .collect()
}

/// The `shard` argument: `"i/N"` or a pair `(i, N)`, 1 <= i <= N.
fn shard_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(u64, u64)>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let (i, n) = if let Ok(s) = v.extract::<String>() {
        let parsed = s
            .split_once('/')
            .and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
        parsed.ok_or_else(|| PyValueError::new_err(format!("shard={s:?}: expected \"i/N\"")))?
    } else {
        v.extract::<(u64, u64)>().map_err(|_| {
            PyValueError::new_err(format!(
                "shard must be \"i/N\" or a pair (i, N) of whole numbers, got {}",
                type_name(v)
            ))
        })?
    };
    if i == 0 || n == 0 || i > n {
        return Err(PyValueError::new_err(format!(
            "shard {i}/{n}: expected 1 <= i <= N"
        )));
    }
    Ok(Some((i, n)))
}

/// The `domain` argument: `"SET"`, `"ALG,SET"` or a list of codes.
fn domains_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    let items: Vec<String> = if let Ok(s) = v.extract::<String>() {
        s.split(',').map(|d| d.trim().to_string()).collect()
    } else {
        v.extract::<Vec<String>>().map_err(|_| {
            PyValueError::new_err(format!(
                "domain must be a string (\"SET\", \"ALG,SET\") or a list of strings, got {}",
                type_name(v)
            ))
        })?
    };
    if items.iter().any(|d| d.is_empty()) || items.is_empty() {
        return Err(PyValueError::new_err(
            "domain names an empty domain; give codes such as \"SET\" or [\"ALG\", \"SET\"]",
        ));
    }
    Ok(items)
}

/// Generates a dataset in-process, as `saturate generate KIND` (`saturate
/// --domain D`, `saturate pl`, `saturate eq`, `saturate equiv`) would:
/// `kind` is a registered family's generate command ("tptp", "pl", "eq",
/// "equiv"), found through the registry like everything after it. The
/// configuration file `config` (default: the built-in defaults), then the
/// overrides `count` (rows per cell), `seed`, `levels` (a list or "1,2"),
/// `jobs` (worker threads; 0 keeps the config's, whose default is one per
/// core; the output never depends on it) and `shard` ("i/N" or (i, N)),
/// exactly as the CLI's flags override the family's config section.
///
/// For "tptp", `domain` ("SET", "ALG,SET" or a list; default: the
/// config's `tasks.tptp.domains`) and `tptp` (a TPTP library root; default:
/// the embedded axioms) choose the axioms, and `out` is the output root:
/// the dataset goes to `out/<DOMAINS>/<DOMAINS>-tasks`. For "pl", "eq" and "equiv",
/// `out` is the dataset folder. `answer_format` ("plain", "tags", "json"),
/// `trace`, `format` ("parquet", "jsonl"), `split_by` ("theorem",
/// "source") and `split` ([train, validation, test] percentages) override
/// the config's `[dataset]` section, as the CLI flags of the same names do.
/// `stage` ("all", "saturate", "generate"; "tptp" only) runs both phases,
/// phase 1 only (a saturation artifact per axiom file under
/// `out/artifacts`; with `shard` "i/N", of every N-th file) or phase 2 only
/// (from those artifacts), as `--stage` does.
///
/// Returns the run summary (the dataset's `summary.json`: rows written and
/// requested, shortfall, duplicates, per-cell counts, audit failures) as
/// a dict, with `dataset` added: the dataset folder. Bad input (unknown
/// kind or domain, a config file that does not parse, an override out of
/// range, an output folder that is not a saturate dataset) raises
/// `ValueError` with the engine's message; a run that found bugs (a
/// certificate the checker refused, a generator panic) raises
/// `RuntimeError` after writing the dataset, naming its rejects file.
/// For "tptp" the dict also has `artifacts` (per axiom file: `file`,
/// `artifact` folder, `reused`, `status`, `processed`, `seconds` of its
/// saturation) and `saturation_seconds`; under stage "saturate" that is
/// all it has besides `stage`, and `dataset` is None.
#[pyfunction]
#[pyo3(signature = (kind, out, *, domain=None, count=None, seed=None, levels=None, config=None, jobs=0, shard=None, tptp=None, answer_format=None, trace=false, format=None, split_by=None, split=None, stage="all"))]
#[allow(clippy::too_many_arguments)]
fn generate<'py>(
    py: Python<'py>,
    kind: &str,
    out: PathBuf,
    domain: Option<&Bound<'py, PyAny>>,
    count: Option<i64>,
    seed: Option<i64>,
    levels: Option<&Bound<'py, PyAny>>,
    config: Option<PathBuf>,
    jobs: i64,
    shard: Option<&Bound<'py, PyAny>>,
    tptp: Option<PathBuf>,
    answer_format: Option<String>,
    trace: bool,
    format: Option<String>,
    split_by: Option<String>,
    split: Option<Vec<u32>>,
    stage: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let kind = family(kind).map_err(run_error)?;
    let domains = domains_arg(domain)?;
    let stage = Stage::parse(stage).map_err(run_error)?;
    if kind.stage().is_none() && (!domains.is_empty() || tptp.is_some() || stage != Stage::All) {
        return Err(PyValueError::new_err(format!(
            "domain, tptp and stage apply to kind {} only",
            saturate::pipeline::request::staged_family_names()
        )));
    }
    let overrides = Overrides {
        jobs: whole("jobs", Some(jobs), 0, saturate::config::MAX_JOBS as i64)?
            .filter(|&j| j > 0)
            .map(|j| j as usize),
        seed: whole("seed", seed, 0, i64::MAX)?,
        count: whole("count", count, 0, MAX_COUNT as i64)?.map(|n| n as usize),
        levels: levels_arg(levels)?,
        max_rows_per_shard: None,
        answer_format,
        trace,
        format,
        split_by,
        split: match split {
            None => None,
            Some(p) => Some(<[u32; 3]>::try_from(p).map_err(|p| {
                PyValueError::new_err(format!(
                    "split must be three percentages (train, validation, test), got {p:?}"
                ))
            })?),
        },
    };
    let shard = shard_arg(shard)?;
    let result: Result<Generated, RunError> = py.detach(|| {
        guarded("generating a dataset", || {
            let cfg = run_config(config.as_deref(), kind.name(), &overrides)?;
            let settings = LoopSettings {
                jobs: cfg.jobs,
                shard,
                ..LoopSettings::default()
            };
            let stage_options = if kind.stage().is_some() {
                let domains = saturate::pipeline::tptp::run_domains(&cfg, &domains);
                if domains.is_empty() {
                    return Err(no_domains());
                }
                StageOptions {
                    domains,
                    tptp,
                    stage,
                }
            } else {
                StageOptions::default()
            };
            let outcome = run_family(
                &cfg,
                &FamilyRun {
                    family: kind,
                    out,
                    settings,
                    stage: stage_options,
                },
            )?;
            let artifacts = outcome.staged.as_ref().map(|s| {
                (
                    s.saturation_seconds,
                    s.saturation
                        .iter()
                        .zip(&s.artifacts)
                        .map(|(r, (dir, reused))| ArtifactInfo {
                            file: dir
                                .file_name()
                                .map(|n| n.to_string_lossy().into_owned())
                                .and_then(|n| n.rsplit_once('-').map(|x| x.0.to_string()))
                                .unwrap_or_default(),
                            dir: dir.clone(),
                            reused: *reused,
                            status: r.status.name(),
                            processed: r.processed,
                            seconds: r.seconds,
                        })
                        .collect(),
                )
            });
            let Some(dataset) = outcome.dataset else {
                return Ok(Generated {
                    json: None,
                    dataset: None,
                    artifacts,
                });
            };
            let summary = outcome.run;
            if summary.bugs_found() > 0 {
                return Err(RunError::Defect(format!(
                    "the run found bugs: {} certificate(s) the checker refused, {} generator panic(s); the dataset was written to {} without them, and each is listed in {}",
                    summary.certificate_failures,
                    summary.generator_panics,
                    dataset.display(),
                    dataset.join("rejects/rejects.jsonl").display()
                )));
            }
            Ok(Generated {
                json: Some(summary.to_json_bytes()),
                dataset: Some(dataset),
                artifacts,
            })
        })
    })?;
    let g = result.map_err(run_error)?;
    let summary = match &g.json {
        Some(json) => py
            .import("json")?
            .call_method1("loads", (String::from_utf8_lossy(json).as_ref(),))?,
        None => PyDict::new(py).into_any(),
    };
    summary.set_item("dataset", g.dataset.map(|d| d.into_os_string()))?;
    if let Some((seconds, list)) = g.artifacts {
        summary.set_item("stage", stage.name())?;
        summary.set_item("saturation_seconds", seconds)?;
        let items = PyList::empty(py);
        for a in list {
            let d = PyDict::new(py);
            d.set_item("file", a.file)?;
            d.set_item("artifact", a.dir.into_os_string())?;
            d.set_item("reused", a.reused)?;
            d.set_item("status", a.status)?;
            d.set_item("processed", a.processed)?;
            d.set_item("seconds", a.seconds)?;
            items.append(d)?;
        }
        summary.set_item("artifacts", items)?;
    }
    Ok(summary)
}

/// What `generate` hands back from the engine.
struct Generated {
    /// The run summary's JSON (none under stage "saturate").
    json: Option<Vec<u8>>,
    dataset: Option<PathBuf>,
    /// TPTP runs: phase 1 seconds and one entry per axiom file.
    artifacts: Option<(f64, Vec<ArtifactInfo>)>,
}

/// One axiom file's artifact, as `generate` reports it.
struct ArtifactInfo {
    file: String,
    dir: PathBuf,
    reused: bool,
    status: &'static str,
    processed: u64,
    seconds: f64,
}

/// The error of a domain run that names no domain.
fn no_domains() -> RunError {
    RunError::Input(
        "nothing to do: give domain=\"SET\" (or a config whose tasks.tptp.domains is set)".into(),
    )
}

/// What a domain run would do, for a scheduler: `{"name": run name,
/// "files": axiom file stems in run order, "units": generation units}`.
/// Phase 1 of the run can be dealt out as `stage="saturate"` with
/// `shard=(i, len(files))`, one file each; phase 2 as `stage="generate"`
/// with `shard=(i, N)` for any N up to `units`. `domain`, `config`,
/// `tptp`, `count`, `levels` and `seed` as for `generate`.
#[pyfunction]
#[pyo3(signature = (*, domain=None, config=None, tptp=None, count=None, levels=None, seed=None))]
fn plan<'py>(
    py: Python<'py>,
    domain: Option<&Bound<'py, PyAny>>,
    config: Option<PathBuf>,
    tptp: Option<PathBuf>,
    count: Option<i64>,
    levels: Option<&Bound<'py, PyAny>>,
    seed: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let domains = domains_arg(domain)?;
    let overrides = Overrides {
        seed: whole("seed", seed, 0, i64::MAX)?,
        count: whole("count", count, 0, MAX_COUNT as i64)?.map(|n| n as usize),
        levels: levels_arg(levels)?,
        ..Overrides::default()
    };
    let p = py
        .detach(|| {
            guarded("planning a run", || {
                let cfg = run_config(config.as_deref(), "tptp", &overrides)?;
                let domains = saturate::pipeline::tptp::run_domains(&cfg, &domains);
                if domains.is_empty() {
                    return Err(no_domains());
                }
                saturate::pipeline::tptp::plan(&TptpRun {
                    domains,
                    tptp,
                    config: cfg,
                    out: PathBuf::new(),
                    shard: None,
                    progress: false,
                    strict: false,
                    require_full: false,
                    stage: Stage::All,
                })
            })
        })?
        .map_err(run_error)?;
    let d = PyDict::new(py);
    d.set_item("name", p.name)?;
    d.set_item("files", p.files)?;
    d.set_item("units", p.units)?;
    Ok(d)
}

/// Merges the shard datasets of one run (`dirs`: every `i/N` once) into
/// `out`, byte for byte the dataset the unsharded run writes, as `saturate
/// merge` does. Returns `{"rows", "shards", "summary"}` (the merged run's
/// summary dict). Shards of different versions, seeds or configurations,
/// a missing or repeated shard, or an `out` that is not a dataset folder
/// raise `ValueError`.
#[pyfunction]
fn merge<'py>(py: Python<'py>, out: PathBuf, dirs: Vec<PathBuf>) -> PyResult<Bound<'py, PyDict>> {
    let m = py
        .detach(|| {
            guarded("merging shards", || {
                saturate::pipeline::merge::merge(&out, &dirs, &Registry::builtin())
            })
        })?
        .map_err(run_error)?;
    let d = PyDict::new(py);
    d.set_item("rows", m.rows)?;
    d.set_item("shards", m.shards)?;
    let summary = py.import("json")?.call_method1(
        "loads",
        (String::from_utf8_lossy(&m.run.to_json_bytes()).as_ref(),),
    )?;
    d.set_item("summary", summary)?;
    Ok(d)
}

/// The Python module `saturate._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", saturate::VERSION)?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(score_detail, m)?)?;
    m.add_function(wrap_pyfunction!(score_batch, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    Ok(())
}
