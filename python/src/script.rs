//! Lua game scripts from Python: `grundy.script("kayles.lua")`, backed by the library's
//! script engine (`grundy::script`, sandboxed Luau).
//!
//! A Lua state cannot move between threads, so each script object owns one worker thread that
//! holds its `Session` (Lua state and memo) and answers requests in turn. The calling thread
//! waits with the GIL released, and every 50 ms runs Python's signal handlers: Ctrl-C sets the
//! session's stop flag and raises `KeyboardInterrupt`. Results are the CLI's `--json` text
//! (`grundy script FILE … --json`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use grundy::script::{Limits, Play, Position, Script, ScriptError, Session};
use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};

use crate::errors;
use crate::game::Sum;

/// A question for the session's thread.
enum Request {
    /// A sum of positions (`grundy script FILE P… [--misere]`).
    Analyze(Vec<Position>, Play),
    /// Positions 0..=n (`--upto N`).
    Sequence(u64),
    /// Positions `{a, b}` (`--table A B`).
    Table(u64, u64),
    /// One position's options (`--explain P`).
    Explain(Position),
    /// The value of each position.
    Values(Vec<Position>),
}

/// Its answer: JSON, or values.
enum Reply {
    Json(String),
    Sequence(String, Vec<u64>),
    Values(Vec<u64>),
}

type Job = (Request, mpsc::Sender<Result<Reply, ScriptError>>);

/// A Lua game script, solved on its own thread (see the module documentation).
#[pyclass(module = "grundy._grundy")]
pub struct ScriptGame {
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    stop: Arc<AtomicBool>,
    title: String,
}

/// Answers one request on the session.
fn answer(s: &mut Session, req: Request) -> Result<Reply, ScriptError> {
    match req {
        Request::Analyze(parts, play) => Ok(Reply::Json(to_json(&s.analyze(&parts, play)?))),
        Request::Sequence(n) => {
            let mut seq = s.sequence(n)?;
            // Finite values go apart as a numpy array; a loopy game's (some `∞(K)`) stay in
            // the JSON, and the array is empty.
            match seq.finite_values() {
                Some(values) => {
                    seq.values.clear();
                    Ok(Reply::Sequence(to_json(&seq), values))
                }
                None => Ok(Reply::Sequence(to_json(&seq), Vec::new())),
            }
        }
        Request::Table(a, b) => Ok(Reply::Json(to_json(&s.table(a, b)?))),
        Request::Explain(p) => Ok(Reply::Json(to_json(&s.explain(&p)?))),
        Request::Values(ps) => {
            let mut out = Vec::with_capacity(ps.len());
            for p in ps {
                let a = s.analyze(std::slice::from_ref(&p), Play::Normal)?;
                match a.grundy.as_ref().map(|g| g.finite()) {
                    Some(None) => {
                        return Err(ScriptError::Input(format!(
                            "{} has the infinite value {} (a loopy game): use analyze",
                            a.texts.join(" + "),
                            a.grundy.unwrap_or(grundy::script::Grundy::Finite(0))
                        )))
                    }
                    g => out.push(g.flatten().unwrap_or(0)),
                }
            }
            Ok(Reply::Values(out))
        }
    }
}

/// A reply's JSON text (serializing a library result cannot fail: no maps with non-string
/// keys, no failing `Serialize` impls).
fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// A Python value as a script position: int, str, bool, a list or tuple of positions, or a
/// `grundy.Sum`.
fn position(ob: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(b) = ob.cast::<PyBool>() {
        return Ok(Position::Bool(b.is_true()));
    }
    if ob.cast::<PyInt>().is_ok() {
        let n: i64 = ob.extract()?;
        return Ok(Position::Int(n));
    }
    if let Ok(s) = ob.cast::<PyString>() {
        return Ok(Position::Str(s.to_cow()?.into_owned()));
    }
    if let Ok(s) = ob.cast::<Sum>() {
        let parts = s.get().parts_of(ob.py());
        return Ok(Position::sum(
            parts
                .iter()
                .map(|p| position(&p))
                .collect::<PyResult<_>>()?,
        ));
    }
    if ob.cast::<PyList>().is_ok() || ob.cast::<PyTuple>().is_ok() {
        return Ok(Position::List(
            ob.try_iter()?
                .map(|p| position(&p?))
                .collect::<PyResult<_>>()?,
        ));
    }
    Err(PyTypeError::new_err(format!(
        "a script position is an int, a str, a bool, a list of positions or a grundy.Sum, not {}",
        ob.get_type().name()?
    )))
}

impl ScriptGame {
    /// Sends `req` to the session's thread and waits for the answer, GIL released, stopping
    /// on Ctrl-C.
    fn ask(&self, py: Python<'_>, req: Request) -> PyResult<Reply> {
        let (tx, mut rx) = mpsc::channel();
        {
            let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
            let Some(jobs) = jobs.as_ref() else {
                return Err(PyRuntimeError::new_err("the script's thread has ended"));
            };
            self.stop.store(false, Ordering::Relaxed);
            jobs.send((req, tx))
                .map_err(|_| PyRuntimeError::new_err("the script's thread has ended"))?;
        }
        let mut pending: Option<PyErr> = None;
        loop {
            let (r, back) = py.detach(move || {
                let r = rx.recv_timeout(Duration::from_millis(50));
                (r, rx)
            });
            rx = back;
            match r {
                Ok(reply) => {
                    if let Some(e) = pending {
                        return Err(e);
                    }
                    return reply.map_err(|e| errors::from_lib(py, e.into()));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(pending.unwrap_or_else(|| {
                        PyRuntimeError::new_err("the script's thread has ended")
                    }))
                }
                Err(RecvTimeoutError::Timeout) => {
                    if pending.is_none() {
                        if let Err(e) = py.check_signals() {
                            pending = Some(e);
                            self.stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        }
    }

    fn json(&self, py: Python<'_>, req: Request) -> PyResult<String> {
        match self.ask(py, req)? {
            Reply::Json(j) => Ok(j),
            _ => Err(PyRuntimeError::new_err("unexpected reply")),
        }
    }
}

#[pymethods]
impl ScriptGame {
    /// Loads `source` (named `name` in messages) with the limits given (None: the library's
    /// defaults, as the CLI's flags).
    #[new]
    #[pyo3(signature = (name, source, max_steps = None, max_memory_mb = None, max_positions = None, time_limit = None))]
    fn new(
        py: Python<'_>,
        name: &str,
        source: &str,
        max_steps: Option<u64>,
        max_memory_mb: Option<u64>,
        max_positions: Option<u64>,
        time_limit: Option<f64>,
    ) -> PyResult<Self> {
        let mut limits = Limits::default();
        if let Some(s) = max_steps {
            limits.steps_per_call = s;
            limits.setup_steps = s;
        }
        if let Some(mb) = max_memory_mb {
            if !(1..=1 << 20).contains(&mb) {
                return Err(errors::raise(
                    py,
                    "InputError",
                    format!("max_memory_mb {mb}: give megabytes from 1 to 1048576"),
                ));
            }
            limits.memory = (mb as usize) << 20;
        }
        if let Some(p) = max_positions {
            limits.budget.max_positions = p;
        }
        if let Some(t) = time_limit {
            if !(t.is_finite() && t > 0.0) {
                return Err(errors::raise(
                    py,
                    "InputError",
                    format!("time_limit {t}: give a positive number of seconds"),
                ));
            }
            limits.time_limit = Some(Duration::from_secs_f64(t));
        }
        let script = py
            .detach(|| Script::load(name, source, limits))
            .map_err(|e| errors::from_lib(py, e.into()))?;
        let title = script.title().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let (jobs, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel();
        let flag = stop.clone();
        std::thread::Builder::new()
            .name("grundy-script".into())
            .spawn(move || {
                let mut session = match script.session() {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                session.stop_when(flag);
                let _ = ready_tx.send(Ok(()));
                for (req, reply) in rx {
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        answer(&mut session, req)
                    }))
                    .unwrap_or_else(|_| {
                        Err(ScriptError::Internal("a panic in the script engine".into()))
                    });
                    let _ = reply.send(r);
                }
            })
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        match py.detach(move || ready_rx.recv()) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(errors::from_lib(py, e.into())),
            Err(_) => return Err(PyRuntimeError::new_err("the script's thread has ended")),
        }
        Ok(ScriptGame {
            jobs: Mutex::new(Some(jobs)),
            stop,
            title,
        })
    }

    /// The game's name (`name = "…"` in the script, else the file name).
    #[getter]
    fn title(&self) -> &str {
        &self.title
    }

    /// A sum of positions as `grundy script FILE P… [--misere] --json`.
    #[pyo3(signature = (positions, misere = false))]
    fn analyze(
        &self,
        py: Python<'_>,
        positions: Vec<Bound<'_, PyAny>>,
        misere: bool,
    ) -> PyResult<String> {
        let parts = positions.iter().map(position).collect::<PyResult<_>>()?;
        self.json(py, Request::Analyze(parts, Play::from_misere(misere)))
    }

    /// Positions 0..=n as `--upto N --json`, the values apart as a numpy array.
    fn sequence<'py>(
        &self,
        py: Python<'py>,
        n: u64,
    ) -> PyResult<(String, Bound<'py, PyArray1<u64>>)> {
        match self.ask(py, Request::Sequence(n))? {
            Reply::Sequence(j, values) => Ok((j, values.into_pyarray(py))),
            _ => Err(PyRuntimeError::new_err("unexpected reply")),
        }
    }

    /// Positions `{a, b}` for a < rows, b < cols as `--table A B --json`.
    fn table(&self, py: Python<'_>, rows: u64, cols: u64) -> PyResult<String> {
        self.json(py, Request::Table(rows, cols))
    }

    /// A position's options and their values as `--explain P --json`.
    fn explain(&self, py: Python<'_>, pos: &Bound<'_, PyAny>) -> PyResult<String> {
        self.json(py, Request::Explain(position(pos)?))
    }

    /// The value of each position.
    fn values<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let ps = positions
            .try_iter()?
            .map(|p| position(&p?))
            .collect::<PyResult<Vec<_>>>()?;
        match self.ask(py, Request::Values(ps))? {
            Reply::Values(v) => Ok(v.into_pyarray(py)),
            _ => Err(PyRuntimeError::new_err("unexpected reply")),
        }
    }
}

impl Drop for ScriptGame {
    fn drop(&mut self) {
        // Ends the session's thread once its queue is empty.
        self.stop.store(true, Ordering::Relaxed);
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

/// Adds `ScriptGame` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ScriptGame>()?;
    Ok(())
}
