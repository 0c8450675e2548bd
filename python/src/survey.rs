//! Surveys (`grundy.survey`): the calls a survey driver needs, each one call of
//! `grundy::survey`: expand a family, plan a survey against its database (recording the
//! equivalent games), solve one game (what a Dask task runs), write rows, report. Rows travel
//! as the JSON of `GameRow` (the table's columns), so a row from a worker is written unchanged.

use std::path::PathBuf;
use std::time::Duration;

use grundy::survey::{self, Db, Family, GameRow, SolveOptions};
use pyo3::prelude::*;

use crate::calls::Count;
use crate::errors::{self, json, LibResult};

fn family(py: Python<'_>, text: &str) -> PyResult<Family> {
    Family::parse(text).map_err(grundy::Error::from).py(py)
}

/// The games of a family as JSON: `[{"rule", "equals", "shift", "why"}, …]`.
#[pyfunction]
fn survey_expand(py: Python<'_>, family_text: &str) -> PyResult<String> {
    let f = family(py, family_text)?;
    let entries = py
        .detach(|| survey::expand(&f))
        .map_err(grundy::Error::from)
        .py(py)?;
    json(&entries)
}

/// Opens (creating) the database and records the family's equivalent games it lacks; returns
/// JSON `{"family", "upto", "todo": [rules to solve], "total", "finished", "equivalent"}`
/// (`family` as the library spells it, `upto` as a number).
#[pyfunction]
fn survey_plan(py: Python<'_>, db: PathBuf, family_text: &str, upto: Count) -> PyResult<String> {
    let f = family(py, family_text)?;
    let upto = if upto.0 == 0 {
        survey::FIRST_TARGET
    } else {
        upto.0
    };
    let name = f.to_string();
    let (plan, total) = py
        .detach(|| -> grundy::Result<_> {
            let entries = survey::expand(&f)?;
            let mut d = Db::open(&db)?;
            let plan = d.plan(&entries, upto, &name)?;
            Ok((plan, entries.len() as u64))
        })
        .py(py)?;
    json(&serde_json::json!({
        "family": name,
        "upto": upto,
        "todo": plan.todo,
        "total": total,
        "finished": plan.finished,
        "equivalent": plan.equivalent,
    }))
}

/// Solves one game (`grundy::survey::solve`) and returns its row as JSON. `budget` in
/// seconds; `save` a directory of saved sequences.
#[pyfunction]
#[pyo3(signature = (rule, upto, budget=None, save=None, threads=1))]
fn survey_solve(
    py: Python<'_>,
    rule: &str,
    upto: Count,
    budget: Option<f64>,
    save: Option<PathBuf>,
    threads: usize,
) -> PyResult<String> {
    let budget = match budget {
        Some(b) if b.is_finite() && b > 0.0 && b < 1e9 => Some(Duration::from_secs_f64(b)),
        Some(b) => {
            return Err(errors::raise(
                py,
                "InputError",
                format!("budget {b} is not a positive number of seconds"),
            ))
        }
        None => None,
    };
    let opts = SolveOptions {
        upto: upto.0,
        budget,
        save,
        threads,
        misere: None,
    };
    let row = py.detach(|| survey::solve(rule, &opts, None)).py(py)?;
    json(&row)
}

/// Writes rows (JSON of `GameRow`s, a list) in one transaction.
#[pyfunction]
fn survey_write(py: Python<'_>, db: PathBuf, rows_json: &str) -> PyResult<()> {
    let rows: Vec<GameRow> = serde_json::from_str(rows_json)
        .map_err(|e| errors::raise(py, "InputError", format!("not survey rows: {e}")))?;
    py.detach(|| -> grundy::Result<()> { Ok(Db::open(&db)?.write_all(&rows)?) })
        .py(py)
}

/// The database's report as JSON (`grundy survey --report --json`).
#[pyfunction]
fn survey_report(py: Python<'_>, db: PathBuf) -> PyResult<String> {
    json(&py.detach(|| survey::report(&db)).py(py)?)
}

/// Registers the survey calls.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(survey_expand, m)?)?;
    m.add_function(wrap_pyfunction!(survey_plan, m)?)?;
    m.add_function(wrap_pyfunction!(survey_solve, m)?)?;
    m.add_function(wrap_pyfunction!(survey_write, m)?)?;
    m.add_function(wrap_pyfunction!(survey_report, m)?)?;
    Ok(())
}
