//! Long library calls from Python: the work runs on a worker thread with the GIL released,
//! while the calling thread wakes every 50 ms to run Python's signal handlers (Ctrl-C raises
//! `KeyboardInterrupt`, which sets the library's stop flag) and, a few times a second, the
//! user's `progress(done, total)` callback. Two Python threads computing at once run in
//! parallel; a panic in the library becomes a `PanicException`, never an abort.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use grundy::heap::{Compute, EngineChoice};
use pyo3::exceptions::PyValueError;
use pyo3::panic::PanicException;
use pyo3::prelude::*;

use crate::errors;

/// How often the calling thread checks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);
/// How often the progress callback is called (at most).
const REPORT_EVERY: Duration = Duration::from_millis(250);

/// How a call computes: the library's engine and threads, and the Python progress callback.
pub struct Settings {
    /// The engine.
    pub engine: EngineChoice,
    /// Threads of the record engine (0: one per core).
    pub threads: usize,
    /// `progress(done, total)`; returning `False` stops the call with `StoppedError`.
    pub progress: Option<Py<PyAny>>,
}

impl Settings {
    /// Parses the engine name as the CLI's `--engine` does.
    pub fn new(engine: &str, threads: usize, progress: Option<Py<PyAny>>) -> PyResult<Self> {
        let engine = match engine {
            "auto" => EngineChoice::Auto,
            "reference" => EngineChoice::Reference,
            "sparse" => EngineChoice::Sparse,
            other => {
                return Err(PyValueError::new_err(format!(
                    "engine {other:?}: expected 'auto', 'reference' or 'sparse'"
                )))
            }
        };
        Ok(Settings {
            engine,
            threads,
            progress,
        })
    }
}

/// Runs `work` with a [`Compute`] that reports progress and stops on Ctrl-C, the GIL
/// released; returns its result or the Python exception that stopped it.
pub fn run<T: Send>(
    py: Python<'_>,
    settings: Settings,
    work: impl FnOnce(&mut Compute<'_>) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let done = AtomicU64::new(0);
    let total = AtomicU64::new(0);
    let slot: (
        Mutex<Option<std::thread::Result<grundy::Result<T>>>>,
        Condvar,
    ) = (Mutex::new(None), Condvar::new());
    let (engine, threads) = (settings.engine, settings.threads);
    let mut pending: Option<PyErr> = None;
    let mut stopped_by_callback = false;
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            let r = catch_unwind(AssertUnwindSafe(|| {
                let mut c = Compute::new()
                    .engine(engine)
                    .threads(threads)
                    .stop_when(&stop)
                    .on_progress(|p| {
                        total.store(p.total, Ordering::Relaxed);
                        done.store(p.done, Ordering::Relaxed);
                    });
                work(&mut c)
            }));
            let (lock, cv) = &slot;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            cv.notify_all();
        });
        let mut last_report = Instant::now();
        let mut reported = (0, 0);
        loop {
            let finished = py.detach(|| {
                let (lock, cv) = &slot;
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let (mut guard, _) = cv
                    .wait_timeout_while(guard, POLL, |r| r.is_none())
                    .unwrap_or_else(|e| e.into_inner());
                guard.take()
            });
            if let Some(r) = finished {
                // A last report, so that a bar reaches its end.
                let now = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
                if pending.is_none() && now.1 > 0 && now != reported && matches!(r, Ok(Ok(_))) {
                    if let Some(cb) = &settings.progress {
                        if let Err(e) = cb.call1(py, now) {
                            pending = Some(e);
                        }
                    }
                }
                return r;
            }
            if pending.is_some() || stop.load(Ordering::Relaxed) {
                continue; // stopping: wait for the worker
            }
            if let Err(e) = py.check_signals() {
                pending = Some(e);
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            let Some(cb) = &settings.progress else {
                continue;
            };
            let now = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
            if now.1 == 0 || now == reported || last_report.elapsed() < REPORT_EVERY {
                continue;
            }
            last_report = Instant::now();
            reported = now;
            match cb.call1(py, now) {
                Err(e) => {
                    pending = Some(e);
                    stop.store(true, Ordering::Relaxed);
                }
                Ok(v) if v.bind(py).is(pyo3::types::PyBool::new(py, false)) => {
                    stopped_by_callback = true;
                    stop.store(true, Ordering::Relaxed);
                }
                Ok(_) => {}
            }
        }
    });
    if let Some(e) = pending {
        return Err(e);
    }
    match result {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(grundy::Error::Stopped { done })) if stopped_by_callback => Err(errors::raise(
            py,
            "StoppedError",
            match done {
                Some(d) => format!("stopped by the progress callback at heap {d}"),
                None => "stopped by the progress callback".into(),
            },
        )),
        Ok(Err(e)) => Err(errors::from_lib(py, e)),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic in the grundy library".into());
            Err(PanicException::new_err(msg))
        }
    }
}
