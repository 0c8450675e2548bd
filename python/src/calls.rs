//! The library's calls, one Python function each: arguments in, the result as the CLI's
//! `--json` text out (sequences also hand back their values as a numpy array).

use grundy::heap;
use grundy::penney::report::{self, RaceOptions, SimulationRequest};
use grundy::penney::Alphabet;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::compute::{self, Settings};
use crate::errors::{self, json, LibResult};

/// A count from Python: a non-negative `int`, or text as the CLI takes it (`"2^22"`, `"1e6"`).
pub struct Count(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Count {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let py = ob.py();
        if let Ok(s) = ob.cast::<PyString>() {
            let text = s.to_cow()?;
            return grundy::input::parse_count(&text).map(Count).py(py);
        }
        let n: i128 = ob.extract().map_err(|_| {
            errors::raise(
                py,
                "InputError",
                format!(
                    "{} is not a whole number",
                    ob.repr().map(|r| r.to_string()).unwrap_or_default()
                ),
            )
        })?;
        if n < 0 {
            return Err(errors::raise(
                py,
                "InputError",
                format!("negative number {n}"),
            ));
        }
        u64::try_from(n)
            .map(Count)
            .map_err(|_| errors::raise(py, "InputError", format!("{n} is too large")))
    }
}

/// A nimber calculation (`grundy nimber --json OP A [B]`); operands are decimal text.
#[pyfunction]
fn nimber(py: Python<'_>, op: &str, operands: Vec<String>) -> PyResult<String> {
    let ops: Vec<&str> = operands.iter().map(String::as_str).collect();
    let c = grundy::nimber::calculate(op, &ops).py(py)?;
    json(&c)
}

/// Parses a heap rule: its text as the CLI shows it, its code (if any) and its description.
#[pyfunction]
fn heap_parse(py: Python<'_>, rule: &str) -> PyResult<(String, Option<String>, String)> {
    let r = heap::parse(rule).py(py)?;
    let code = r.take_break().map(|c| heap::format_code(&c));
    Ok((r.to_string(), code, heap::describe_rule(&r)))
}

/// A sequence's JSON without its values, and the values as a numpy array (no copy).
fn split_values(
    py: Python<'_>,
    mut seq: heap::Sequence,
) -> PyResult<(String, Bound<'_, PyArray1<u32>>)> {
    let values = std::mem::take(&mut seq.values);
    Ok((json(&seq)?, values.into_pyarray(py)))
}

/// G(0..=n) (`grundy heap RULE --upto N --json`).
#[pyfunction]
#[pyo3(signature = (rule, n, engine = "auto", threads = 0, progress = None))]
fn heap_sequence<'py>(
    py: Python<'py>,
    rule: &str,
    n: Count,
    engine: &str,
    threads: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<(String, Bound<'py, PyArray1<u32>>)> {
    let r = heap::parse(rule).py(py)?;
    let settings = Settings::new(engine, threads, progress)?;
    let seq = compute::run(py, settings, |c| heap::sequence(&r, n.0, c))?;
    split_values(py, seq)
}

/// Until the period is proven: `grundy heap RULE --period` without bounds, else
/// `--upto START --prove-upto LIMIT`.
#[pyfunction]
#[pyo3(signature = (rule, start = None, limit = None, engine = "auto", threads = 0, progress = None))]
fn heap_until_proven<'py>(
    py: Python<'py>,
    rule: &str,
    start: Option<Count>,
    limit: Option<Count>,
    engine: &str,
    threads: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<(String, Bound<'py, PyArray1<u32>>)> {
    let r = heap::parse(rule).py(py)?;
    let settings = Settings::new(engine, threads, progress)?;
    let seq = match (start, limit) {
        (None, None) => compute::run(py, settings, |c| heap::find_period(&r, c))?,
        (start, limit) => {
            let start = start.map_or(heap::DEFAULT_UPTO, |s| s.0);
            let limit = limit.map_or(heap::DEFAULT_PROOF_LIMIT, |l| l.0).max(start);
            compute::run(py, settings, |c| heap::until_proven(&r, start, limit, c))?
        }
    };
    split_values(py, seq)
}

/// The alphabet of a pattern race: symbols and exact probabilities as the CLI's `--alphabet`
/// and `--prob` take them.
fn alphabet(py: Python<'_>, symbols: Option<&str>, prob: Option<&str>) -> PyResult<Alphabet> {
    Alphabet::from_spec(symbols, prob).py(py)
}

/// A pattern race (`grundy penney P1 P2 … --json`).
#[pyfunction]
#[pyo3(signature = (patterns, alphabet = None, prob = None, distribution = 0, simulate = None, seed = 1))]
fn penney_race(
    py: Python<'_>,
    patterns: Vec<String>,
    alphabet: Option<&str>,
    prob: Option<&str>,
    distribution: usize,
    simulate: Option<u64>,
    seed: u64,
) -> PyResult<String> {
    let al = self::alphabet(py, alphabet, prob)?;
    if distribution > report::DISTRIBUTION_LIMIT {
        return Err(errors::raise(
            py,
            "InputError",
            format!(
                "distribution: {distribution} is more than the limit {}",
                report::DISTRIBUTION_LIMIT
            ),
        ));
    }
    if let Some(t) = simulate {
        if t > report::SIMULATION_TRIALS_LIMIT {
            return Err(errors::raise(
                py,
                "InputError",
                format!(
                    "simulate: {t} is more than the limit {}",
                    report::SIMULATION_TRIALS_LIMIT
                ),
            ));
        }
    }
    let options = RaceOptions {
        distribution,
        simulate: simulate.map(|trials| SimulationRequest { trials, seed }),
    };
    let settings = Settings::new("auto", 0, None)?;
    let r = compute::run(py, settings, |_| {
        Ok(report::race(al, &patterns, &options, &mut |_| {})?)
    })?;
    json(&r)
}

/// The best reply to a pattern (`grundy penney --best-reply P --json`).
#[pyfunction]
#[pyo3(signature = (pattern, alphabet = None, prob = None))]
fn penney_best_reply(
    py: Python<'_>,
    pattern: &str,
    alphabet: Option<&str>,
    prob: Option<&str>,
) -> PyResult<String> {
    let al = self::alphabet(py, alphabet, prob)?;
    json(&py.detach(|| report::best_reply(&al, pattern)).py(py)?)
}

/// The first player's best pattern of a length (`grundy penney --best-first N --json`).
#[pyfunction]
#[pyo3(signature = (length, alphabet = None, prob = None))]
fn penney_best_first(
    py: Python<'_>,
    length: usize,
    alphabet: Option<&str>,
    prob: Option<&str>,
) -> PyResult<String> {
    let al = self::alphabet(py, alphabet, prob)?;
    json(&py.detach(|| report::best_first(&al, length)).py(py)?)
}

/// P(column beats row) for every pair of patterns of a length (`grundy penney --table N`).
#[pyfunction]
#[pyo3(signature = (length, alphabet = None, prob = None))]
fn penney_table(
    py: Python<'_>,
    length: usize,
    alphabet: Option<&str>,
    prob: Option<&str>,
) -> PyResult<String> {
    let al = self::alphabet(py, alphabet, prob)?;
    json(&py.detach(|| report::table(&al, length)).py(py)?)
}

/// A non-transitive cycle of patterns of a length (`grundy penney --cycle N --json`).
#[pyfunction]
#[pyo3(signature = (length, alphabet = None, prob = None))]
fn penney_cycle(
    py: Python<'_>,
    length: usize,
    alphabet: Option<&str>,
    prob: Option<&str>,
) -> PyResult<String> {
    let al = self::alphabet(py, alphabet, prob)?;
    json(&py.detach(|| report::cycle(&al, length)).py(py)?)
}

/// Every game of the catalogue (`grundy games --json`).
#[pyfunction]
fn catalogue_games() -> PyResult<String> {
    json(&serde_json::json!({ "games": grundy::catalogue::games() }))
}

/// The question of a catalogue call: play, budget (the default, or `max_positions`, within the
/// memory this process may use), detail and the game's own settings.
fn question(
    misere: bool,
    max_positions: Option<Count>,
    moves: &str,
    params: Vec<(String, String)>,
) -> grundy::Result<grundy::catalogue::Ask> {
    let budget = grundy::catalogue::within_memory(grundy::Budget::default());
    let budget = max_positions.map_or(budget, |n| budget.with_positions(n.0));
    let detail = moves.parse::<grundy::catalogue::Detail>()?;
    let mut ask = grundy::catalogue::Ask::new(grundy::catalogue::Play::from_misere(misere))
        .budget(budget)
        .detail(detail);
    for (k, v) in params {
        ask.settings.set(k, v);
    }
    Ok(ask)
}

/// A position of any catalogue game analysed (`grundy analyze GAME POSITION --json`): `moves`
/// is the detail (`value`, `winning`, `all`), `params` the game's own options by name (as
/// text, checked against the entry's declaration); `progress(done, total)` and Ctrl-C as in
/// every long call (the question's stop flag).
#[pyfunction]
#[pyo3(signature = (game, position, misere = false, max_positions = None, moves = "winning", params = Vec::new(), progress = None))]
#[allow(clippy::too_many_arguments)]
fn catalogue_analyze(
    py: Python<'_>,
    game: &str,
    position: &str,
    misere: bool,
    max_positions: Option<Count>,
    moves: &str,
    params: Vec<(String, String)>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let ask = question(misere, max_positions, moves, params).py(py)?;
    let r = compute::run_shared(py, progress, |shared| {
        grundy::catalogue::Registry::new().ask(game, position, &shared.ask(ask))
    })?;
    json(&r)
}

/// The value of every position 0..=upto of a game (a two-heap game's grid of values):
/// `grundy analyze GAME --upto N --json`.
#[pyfunction]
#[pyo3(signature = (game, upto, misere = false, max_positions = None, params = Vec::new(), progress = None))]
fn catalogue_values(
    py: Python<'_>,
    game: &str,
    upto: Count,
    misere: bool,
    max_positions: Option<Count>,
    params: Vec<(String, String)>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let ask = question(misere, max_positions, "value", params).py(py)?;
    let v = compute::run_shared(py, progress, |shared| {
        grundy::catalogue::Registry::new().values(game, upto.0, &shared.ask(ask))
    })?;
    json(&v)
}

/// The picture of a table of values (`grundy::plot::values`): `cells` are each position's
/// value (or none) and outcome, in order; `side` makes them a grid. SVG or PNG bytes.
#[pyfunction]
#[pyo3(signature = (game, misere, side, cells, format = "svg"))]
fn plot_values(
    py: Python<'_>,
    game: String,
    misere: bool,
    side: Option<u64>,
    cells: Vec<(Option<u64>, String)>,
    format: &str,
) -> PyResult<Py<pyo3::types::PyBytes>> {
    use grundy::catalogue::{Grundy, Value, Values};
    let format = format.parse::<grundy::plot::Format>().py(py)?;
    let values = cells
        .into_iter()
        .map(|(g, o)| {
            let outcome = match o.as_str() {
                "P" => grundy::Outcome::P,
                "D" => grundy::Outcome::D,
                _ => grundy::Outcome::N,
            };
            Value {
                position: String::new(),
                outcome,
                grundy: g.map(Grundy::Finite),
            }
        })
        .collect();
    let table = Values {
        game,
        misere,
        side,
        values,
    };
    let bytes = py.detach(|| grundy::plot::values(&table, format)).py(py)?;
    Ok(pyo3::types::PyBytes::new(py, &bytes).unbind())
}

/// Everything about a position in play (`GET /api/play`): moves, hint, why, the engine's
/// reply.
#[pyfunction]
fn play_turn(py: Python<'_>, game: &str, position: &str) -> PyResult<String> {
    let turn = py.detach(|| -> Result<grundy::play::Turn, grundy::play::PlayError> {
        let mut g = grundy::play::Game::new(game, position)?;
        let start = g.start().clone();
        g.turn(&start)
    });
    json(&turn.py(py)?)
}

/// Where each vertex of a `graph` or `digraph` position stands (`grundy::picture::drawing`,
/// the `drawing` of a play turn) as JSON text, or `None` for other kinds and graphs too large to
/// draw: what a notebook draws a position from, without analysing it.
#[pyfunction]
fn picture_drawing(py: Python<'_>, game: &str, position: &str) -> PyResult<Option<String>> {
    let pos = py
        .detach(|| {
            grundy::catalogue::Registry::new()
                .open(game)
                .and_then(|rules| rules.parse(position).map_err(Into::into))
        })
        .py(py)?;
    grundy::picture::drawing(&pos).map(|d| json(&d)).transpose()
}

/// Adds this file's functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(catalogue_games, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue_analyze, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue_values, m)?)?;
    m.add_function(wrap_pyfunction!(plot_values, m)?)?;
    m.add_function(wrap_pyfunction!(play_turn, m)?)?;
    m.add_function(wrap_pyfunction!(picture_drawing, m)?)?;
    m.add_function(wrap_pyfunction!(nimber, m)?)?;
    m.add_function(wrap_pyfunction!(heap_parse, m)?)?;
    m.add_function(wrap_pyfunction!(heap_sequence, m)?)?;
    m.add_function(wrap_pyfunction!(heap_until_proven, m)?)?;
    m.add_function(wrap_pyfunction!(penney_race, m)?)?;
    m.add_function(wrap_pyfunction!(penney_best_reply, m)?)?;
    m.add_function(wrap_pyfunction!(penney_best_first, m)?)?;
    m.add_function(wrap_pyfunction!(penney_table, m)?)?;
    m.add_function(wrap_pyfunction!(penney_cycle, m)?)?;
    Ok(())
}
