//! `saturate._native`: the engine's scoring, verification and generation
//! as Python functions, in-process (no subprocess), for training loops
//! (TRL rewards), evaluation harnesses (lm-eval) and scripts. Rows come as
//! the dicts Hugging Face `datasets` yields; answers as strings or chat
//! completions. Every call releases the GIL while the engine works; a panic
//! inside the engine becomes a `RuntimeError`, bad input a `ValueError`
//! with the engine's message.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use saturate::pipeline::RunError;
use saturate::tasks::registry::Registry;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

mod generation;
mod rows;
mod scoring;
mod streaming;

use generation::{generate, merge, plan};
use scoring::{score, score_batch, score_detail, verify};
use streaming::{RowStream, configs, dedup, problem_key, stream};

/// The built-in families, built once: every call dispatches through it.
pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::builtin)
}

/// The row columns that must be present (`None` allowed for the text
/// columns, read as empty the way the dataset reader reads a null).
const REQUIRED: [&str; 6] = ["id", "task", "prompt", "answer", "metadata", "certificate"];

/// The message of a caught panic.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Runs `f`, turning a panic into a `RuntimeError` that says what was
/// being done (`what`): a panic never unwinds into Python.
pub(crate) fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        PyRuntimeError::new_err(format!(
            "saturate: internal error while {what}: {} (a bug; please report it)",
            panic_message(p.as_ref())
        ))
    })
}

/// A run error as the Python exception of the same meaning: bad input
/// (exit code 2) is a `ValueError`, everything else a `RuntimeError`.
pub(crate) fn run_error(e: RunError) -> PyErr {
    if e.exit_code() == 2 {
        PyValueError::new_err(e.to_string())
    } else {
        PyRuntimeError::new_err(e.to_string())
    }
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
    m.add_function(wrap_pyfunction!(stream, m)?)?;
    m.add_function(wrap_pyfunction!(configs, m)?)?;
    m.add_function(wrap_pyfunction!(dedup, m)?)?;
    m.add_function(wrap_pyfunction!(problem_key, m)?)?;
    m.add_class::<RowStream>()?;
    Ok(())
}
