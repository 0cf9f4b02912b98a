//! Generation from Python: `generate` (any registered family, the
//! configuration and overrides the CLI takes), `plan` (a TPTP run's units
//! for a job array) and `merge` (shard datasets into the unsharded one).

use crate::rows::type_name;
use crate::*;
use pyo3::exceptions::PyValueError;
use pyo3::types::{PyDict, PyList};
use saturate::config::MAX_COUNT;
use saturate::pipeline::request::family;
use saturate::pipeline::tptp::{Stage, TptpRun};
use saturate::pipeline::{
    FamilyRun, LoopSettings, Overrides, RunError, StageOptions, run_config, run_family,
};
use saturate::tasks::registry::Registry;
use std::path::PathBuf;

/// An optional whole-number argument within `lo..=hi`, as a `ValueError`
/// naming the argument otherwise.
pub(crate) fn whole(name: &str, v: Option<i64>, lo: i64, hi: i64) -> PyResult<Option<u64>> {
    match v {
        Some(n) if n < lo || n > hi => Err(PyValueError::new_err(format!(
            "{name}={n} is not in {lo}-{hi}"
        ))),
        Some(n) => Ok(Some(n as u64)),
        None => Ok(None),
    }
}

/// The run options `generate` and `create_dataset` share, checked: `jobs`
/// (0 = one per core), `seed`, rows per cell, `levels`, `answer_format`,
/// `trace`; the rest left to the configuration.
pub(crate) fn run_overrides(
    jobs: i64,
    seed: Option<i64>,
    count: Option<usize>,
    levels: Option<&Bound<'_, PyAny>>,
    answer_format: Option<&str>,
    trace: bool,
) -> PyResult<Overrides> {
    Ok(Overrides {
        jobs: whole("jobs", Some(jobs), 0, saturate::config::MAX_JOBS as i64)?
            .filter(|&j| j > 0)
            .map(|j| j as usize),
        seed: whole("seed", seed, 0, i64::MAX)?,
        count,
        levels: levels_arg(levels)?,
        answer_format: Overrides::choice("answer_format", answer_format).map_err(run_error)?,
        trace,
        ..Overrides::default()
    })
}

/// The `levels` argument: a list of levels (1-255), one level, or the
/// CLI's comma-separated text.
pub(crate) fn levels_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u8>> {
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
pub(crate) fn shard_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(u64, u64)>> {
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
pub(crate) fn domains_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
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
/// (from those artifacts), as `--stage` does. `problems=True` ("tptp"
/// only) takes each problem file of the domains as a theory (its includes
/// and its own axioms; `domain="ALL"` for every problem folder of `tptp`),
/// as `--problems` does.
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
#[pyo3(signature = (kind, out, *, domain=None, count=None, seed=None, levels=None, config=None, jobs=0, shard=None, tptp=None, answer_format=None, trace=false, format=None, split_by=None, split=None, stage="all", problems=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn generate<'py>(
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
    problems: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let kind = family(kind).map_err(run_error)?;
    let domains = domains_arg(domain)?;
    let stage = Stage::parse(stage).map_err(run_error)?;
    if kind.stage().is_none()
        && (!domains.is_empty() || tptp.is_some() || stage != Stage::All || problems)
    {
        return Err(PyValueError::new_err(format!(
            "domain, tptp, stage and problems apply to kind {} only",
            saturate::pipeline::request::staged_family_names()
        )));
    }
    let count = whole("count", count, 0, MAX_COUNT as i64)?.map(|n| n as usize);
    let overrides = Overrides {
        format: Overrides::choice("format", format.as_deref()).map_err(run_error)?,
        split_by: Overrides::choice("split_by", split_by.as_deref()).map_err(run_error)?,
        split: match split {
            None => None,
            Some(p) => Some(<[u32; 3]>::try_from(p).map_err(|p| {
                PyValueError::new_err(format!(
                    "split must be three percentages (train, validation, test), got {p:?}"
                ))
            })?),
        },
        ..run_overrides(jobs, seed, count, levels, answer_format.as_deref(), trace)?
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
                    problems,
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
pub(crate) struct Generated {
    /// The run summary's JSON (none under stage "saturate").
    json: Option<Vec<u8>>,
    dataset: Option<PathBuf>,
    /// TPTP runs: phase 1 seconds and one entry per axiom file.
    artifacts: Option<(f64, Vec<ArtifactInfo>)>,
}

/// One axiom file's artifact, as `generate` reports it.
pub(crate) struct ArtifactInfo {
    file: String,
    dir: PathBuf,
    reused: bool,
    status: &'static str,
    processed: u64,
    seconds: f64,
}

/// The error of a domain run that names no domain.
pub(crate) fn no_domains() -> RunError {
    RunError::Input(
        "nothing to do: give domain=\"SET\" (or a config whose tasks.tptp.domains is set)".into(),
    )
}

/// What a domain run would do, for a scheduler: `{"name": run name,
/// "files": axiom file stems in run order, "units": generation units}`.
/// Phase 1 of the run can be dealt out as `stage="saturate"` with
/// `shard=(i, len(files))`, one file each; phase 2 as `stage="generate"`
/// with `shard=(i, N)` for any N up to `units`. `domain`, `config`,
/// `tptp`, `count`, `levels`, `seed` and `problems` as for `generate`.
#[pyfunction]
#[pyo3(signature = (*, domain=None, config=None, tptp=None, count=None, levels=None, seed=None, problems=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan<'py>(
    py: Python<'py>,
    domain: Option<&Bound<'py, PyAny>>,
    config: Option<PathBuf>,
    tptp: Option<PathBuf>,
    count: Option<i64>,
    levels: Option<&Bound<'py, PyAny>>,
    seed: Option<i64>,
    problems: bool,
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
                    problems,
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
pub(crate) fn merge<'py>(
    py: Python<'py>,
    out: PathBuf,
    dirs: Vec<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
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
