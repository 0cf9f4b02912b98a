//! In-process streaming generation (`saturate.create_dataset`): the rows of
//! one config, made by the engine's one generation loop on a thread of its
//! own (candidates in parallel, the GIL released) and handed to Python one
//! JSON line at a time as they are read. A row is byte for byte the line
//! `saturate generate --format jsonl` writes for it under the same
//! settings: the loop, its deduplication, balance and presentation are the
//! same code; only the writer is replaced by a bounded channel.

use crate::generation::{domains_arg, no_domains, run_overrides, whole};
use crate::*;
use pyo3::exceptions::PyValueError;
use pyo3::types::{PyDict, PyList};
use saturate::config::{Config, MAX_COUNT};
use saturate::pipeline::generate::RowSink;
use saturate::pipeline::tptp::Stage;
use saturate::pipeline::{
    FamilyRun, LoopSettings, RunError, RunSummary, StageOptions, run_config, run_family,
};
use saturate::tasks::generation::Generation;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Rows made ahead of the reader: the loop blocks when this many wait.
const AHEAD: usize = 64;

/// One config `create_dataset` takes.
pub(crate) struct ConfigEntry {
    /// The config's name (its rows' `task`).
    pub name: &'static str,
    /// The task family that writes it ([`saturate::tasks::family::TaskFamily::name`]).
    pub family: &'static str,
    /// The generate command whose run makes it.
    pub command: &'static dyn Generation,
    /// That command's default levels.
    pub levels: Vec<u8>,
    /// Whether the default configuration generates it (PL2's configs need
    /// `tasks.pl.families` to name `pl2`).
    pub default: bool,
}

/// Every config of every registered family, in registry order, with the
/// command that generates it: the command whose default generators write
/// it, the staged command of the same name, or else (a family registered
/// without a command of its own, such as PL2) the previous family's.
pub(crate) fn config_table() -> Vec<ConfigEntry> {
    let cfg = Config::default();
    let mut made: Vec<(&'static str, &'static dyn Generation)> = Vec::new();
    for g in registry().generations() {
        let Some(section) = cfg.tasks.section(g.name()) else {
            continue;
        };
        if g.stage().is_some() {
            continue;
        }
        if let Ok(gens) = g.generators(section, cfg.seed) {
            for x in &gens {
                made.extend(x.family().configs().into_iter().map(|c| (c.name, g)));
            }
        }
    }
    let mut out = Vec::new();
    let mut previous: Option<&'static dyn Generation> = None;
    for f in registry().families() {
        let staged = registry()
            .generation(f.name())
            .filter(|g| g.stage().is_some());
        let configs = f.configs();
        let own = staged.or_else(|| {
            configs
                .iter()
                .find_map(|c| made.iter().find(|m| m.0 == c.name).map(|m| m.1))
        });
        let Some(command) = own.or(previous) else {
            continue;
        };
        previous = Some(command);
        let levels = cfg
            .tasks
            .section(command.name())
            .map(|s| s.rows().levels)
            .unwrap_or_default();
        for c in configs {
            out.push(ConfigEntry {
                name: c.name,
                family: f.name(),
                command,
                levels: levels.clone(),
                default: staged.is_some() || made.iter().any(|m| m.0 == c.name),
            });
        }
    }
    out
}

/// The configs `create_dataset` takes, in registry order: a list of dicts
/// `{"name", "family" (the task family), "command" (the generate command
/// whose run makes it), "levels" (that command's default levels),
/// "staged" (whether it needs an axiom domain and phase 1), "default"
/// (whether the default configuration generates it)}`.
#[pyfunction]
pub(crate) fn configs(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for e in config_table() {
        let d = PyDict::new(py);
        d.set_item("name", e.name)?;
        d.set_item("family", e.family)?;
        d.set_item("command", e.command.name())?;
        d.set_item(
            "levels",
            e.levels.iter().map(|&l| u32::from(l)).collect::<Vec<u32>>(),
        )?;
        d.set_item("staged", e.command.stage().is_some())?;
        d.set_item("default", e.default)?;
        list.append(d)?;
    }
    Ok(list)
}

/// How the engine thread ended.
enum Ended {
    Done(RunSummary),
    Failed(RunError),
    Panicked(String),
}

/// The rows of a streamed run, as JSON lines, in the loop's order; an
/// iterator. Reading blocks (without the GIL) until the next row is made;
/// when the run ends, an error it met is raised (`ValueError` for bad
/// input, `RuntimeError` otherwise, with the engine's message), and
/// `RuntimeError` when the run found bugs (certificates the checker
/// refused, generator panics: such rows are never yielded). Dropping the
/// stream stops the run at its next row.
#[pyclass(module = "saturate._native")]
pub(crate) struct RowStream {
    rx: Mutex<Receiver<String>>,
    engine: Mutex<Option<JoinHandle<Ended>>>,
    /// The run's summary once it has ended (`summary()`).
    summary: Mutex<Option<Vec<u8>>>,
}

#[pymethods]
impl RowStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let next = py.detach(|| {
            self.rx
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .recv()
                .ok()
        });
        if next.is_some() {
            return Ok(next);
        }
        let handle = self.engine.lock().unwrap_or_else(|e| e.into_inner()).take();
        let Some(handle) = handle else {
            return Ok(None);
        };
        let ended = py
            .detach(|| handle.join())
            .unwrap_or_else(|p| Ended::Panicked(panic_message(p.as_ref())));
        match ended {
            Ended::Done(summary) => {
                *self.summary.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(summary.to_json_bytes());
                if summary.bugs_found() > 0 {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                        "the run found bugs: {} certificate(s) the checker refused, {} generator panic(s); those rows were left out (run `saturate generate` on the same settings for the rejects file)",
                        summary.certificate_failures, summary.generator_panics
                    )));
                }
                Ok(None)
            }
            Ended::Failed(e) => Err(run_error(e)),
            Ended::Panicked(m) => Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "saturate: internal error while generating: {m} (a bug; please report it)"
            ))),
        }
    }

    /// The run summary (as `summary.json`: per-cell rows, shortfall,
    /// duplicates) once the stream is exhausted, else None. A stream cut
    /// short by its limit counts the cells walked until then.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let json = self
            .summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        json.map(|j| {
            py.import("json")?
                .call_method1("loads", (String::from_utf8_lossy(&j).as_ref(),))
        })
        .transpose()
    }
}

/// Starts a streamed run of config `name` (a `task` name such as "eq_pc"
/// or "conjecture_entailment"): its family's run with `count` rows per
/// cell, `levels`, `seed` and the configuration file `config` (default:
/// the built-in defaults), keeping only the cells of `name`, and yielding
/// at most `limit` rows (default: all). TPTP configs take `domain` (default:
/// the config's `tasks.tptp.domains`), `tptp` (a TPTP root; default: the
/// embedded axioms) and `cache`: the folder whose `artifacts/` holds the
/// phase-1 saturations, reused by later calls with the same axioms and
/// saturation settings. `answer_format` and `trace` as for `generate`.
/// Bad arguments raise `ValueError` at once; errors of the run are raised
/// by the stream when it reaches them.
#[pyfunction]
#[pyo3(signature = (name, count, *, seed=None, levels=None, limit=None, domain=None, tptp=None, cache=None, config=None, jobs=0, answer_format=None, trace=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn stream(
    name: &str,
    count: i64,
    seed: Option<i64>,
    levels: Option<&Bound<'_, PyAny>>,
    limit: Option<i64>,
    domain: Option<&Bound<'_, PyAny>>,
    tptp: Option<PathBuf>,
    cache: Option<PathBuf>,
    config: Option<PathBuf>,
    jobs: i64,
    answer_format: Option<String>,
    trace: bool,
) -> PyResult<RowStream> {
    let table = config_table();
    let Some(entry) = table.iter().find(|e| e.name == name) else {
        let names: Vec<&str> = table.iter().map(|e| e.name).collect();
        return Err(PyValueError::new_err(format!(
            "unknown config {:?}; expected one of {}",
            saturate::tptp::excerpt(name, 60),
            names.join(", ")
        )));
    };
    let (config_name, kind) = (entry.name, entry.command);
    let count = whole("size", Some(count), 1, MAX_COUNT as i64)?.unwrap_or(1) as usize;
    let limit = whole("limit", limit, 0, i64::MAX)?.unwrap_or(u64::MAX);
    let domains = domains_arg(domain)?;
    if kind.stage().is_none() && (!domains.is_empty() || tptp.is_some() || cache.is_some()) {
        return Err(PyValueError::new_err(format!(
            "domain, tptp and cache apply to the configs of {} only",
            saturate::pipeline::request::staged_family_names()
        )));
    }
    let overrides = run_overrides(
        jobs,
        seed,
        Some(count),
        levels,
        answer_format.as_deref(),
        trace,
    )?;
    let cfg = run_config(config.as_deref(), kind.name(), &overrides).map_err(run_error)?;
    let stage = if kind.stage().is_some() {
        let domains = saturate::pipeline::tptp::run_domains(&cfg, &domains);
        if domains.is_empty() {
            return Err(run_error(no_domains()));
        }
        StageOptions {
            domains,
            tptp,
            stage: Stage::All,
            problems: false,
        }
    } else {
        StageOptions::default()
    };
    let (tx, rx) = sync_channel::<String>(AHEAD);
    let sent = AtomicU64::new(0);
    let emit = move |_: &'static str, line: String| {
        if limit == 0 || tx.send(line).is_err() {
            return false;
        }
        sent.fetch_add(1, Ordering::Relaxed) + 1 < limit
    };
    let run = FamilyRun {
        family: kind,
        // Phase-1 artifacts go to `<cache>/artifacts` (staged families).
        out: cache.unwrap_or_else(|| std::env::temp_dir().join("saturate-cache")),
        settings: LoopSettings {
            jobs: cfg.jobs,
            stream: Some(RowSink {
                config: Some(config_name.to_string()),
                emit: Arc::new(emit),
            }),
            ..LoopSettings::default()
        },
        stage,
    };
    let engine = std::thread::Builder::new()
        .name(format!("saturate-{config_name}"))
        .spawn(move || {
            let caught =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_family(&cfg, &run)));
            // The sink (and its sender) goes with `run`: the reader sees the
            // end of the rows once the run is over.
            drop(run);
            match caught {
                Ok(Ok(outcome)) => Ended::Done(outcome.run),
                Ok(Err(e)) => Ended::Failed(e),
                Err(p) => Ended::Panicked(panic_message(p.as_ref())),
            }
        })
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("thread: {e}")))?;
    Ok(RowStream {
        rx: Mutex::new(rx),
        engine: Mutex::new(Some(engine)),
        summary: Mutex::new(None),
    })
}

/// The leakage report of `saturate dedup` for the dataset folder
/// `dataset` (and a reference folder): a dict with `configs` (per config:
/// `rows`, `within`, `in_train` per split, `in_reference`), `total` and
/// `examples` ([id, id it repeats, where]). A folder that is not a
/// dataset raises `ValueError`.
#[pyfunction]
#[pyo3(signature = (dataset, reference=None))]
pub(crate) fn dedup<'py>(
    py: Python<'py>,
    dataset: PathBuf,
    reference: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let report = py
        .detach(|| {
            guarded("checking datasets for duplicates", || {
                saturate::pipeline::dedup::dedup(&dataset, reference.as_deref())
            })
        })?
        .map_err(run_error)?;
    let json = serde_json::to_string(&report).expect("a report serialises");
    py.import("json")?.call_method1("loads", (json,))
}

/// The problem key `saturate dedup` compares rows by, as 32 hex digits:
/// a digest of the row's `task` and `prompt`, equal for prompts that
/// differ only in the names of variables and the order of listed clauses.
#[pyfunction]
pub(crate) fn problem_key(task: &str, prompt: &str) -> String {
    saturate::pipeline::dedup::problem_key(task, prompt)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
