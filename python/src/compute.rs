//! Long library calls from Python: the work runs on a worker thread with the GIL released,
//! while the calling thread wakes every 50 ms to run Python's signal handlers (Ctrl-C raises
//! `KeyboardInterrupt`, which sets the library's stop flag) and, a few times a second, the
//! user's `progress(done, total)` callback. Two Python threads computing at once run in
//! parallel; a panic in the library becomes a `PanicException`, never an abort.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use grundy::catalogue::Ask;

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

/// What the calling thread shares with the worker: the stop flag (set by Ctrl-C or by the
/// progress callback) and the progress counters the worker writes.
#[derive(Clone, Default)]
pub struct Shared {
    /// Set to stop the work.
    pub stop: Arc<AtomicBool>,
    done: Arc<AtomicU64>,
    total: Arc<AtomicU64>,
}

impl Shared {
    fn note(&self, done: u64, total: u64) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
    }

    fn now(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// `ask` with these controls: its stop flag, and progress reported to the calling thread.
    pub fn ask(&self, ask: Ask) -> Ask {
        let me = self.clone();
        ask.stop(self.stop.clone())
            .progress(Arc::new(move |p: grundy::catalogue::Progress| {
                me.note(p.done, p.total);
                true
            }))
    }
}

/// Runs `work` with a [`Compute`] that reports progress and stops on Ctrl-C, the GIL
/// released; returns its result or the Python exception that stopped it.
pub fn run<T: Send>(
    py: Python<'_>,
    settings: Settings,
    work: impl FnOnce(&mut Compute<'_>) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    let (engine, threads) = (settings.engine, settings.threads);
    run_shared(py, settings.progress, move |shared| {
        let mut c = Compute::new()
            .engine(engine)
            .threads(threads)
            .stop_when(&shared.stop)
            .on_progress(|p| shared.note(p.done, p.total));
        work(&mut c)
    })
}

/// Runs `work` on a worker thread with the GIL released, handing it the [`Shared`] controls
/// (a catalogue question takes them through [`Shared::ask`]); the calling thread runs
/// Python's signal handlers and `progress(done, total)` meanwhile.
pub fn run_shared<T: Send>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    work: impl FnOnce(&Shared) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    let shared = Shared::default();
    let stop = shared.stop.clone();
    let slot: (
        Mutex<Option<std::thread::Result<grundy::Result<T>>>>,
        Condvar,
    ) = (Mutex::new(None), Condvar::new());
    let mut pending: Option<PyErr> = None;
    let mut stopped_by_callback = false;
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            let r = catch_unwind(AssertUnwindSafe(|| work(&shared)));
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
                let now = shared.now();
                if pending.is_none() && now.1 > 0 && now != reported && matches!(r, Ok(Ok(_))) {
                    if let Some(cb) = &progress {
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
            let Some(cb) = &progress else {
                continue;
            };
            let now = shared.now();
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
        Ok(Err(e)) if stopped_by_callback && e.kind() == grundy::ErrorKind::Stopped => {
            Err(errors::raise(
                py,
                "StoppedError",
                match e {
                    grundy::Error::Stopped { done: Some(d) } => {
                        format!("stopped by the progress callback at heap {d}")
                    }
                    _ => "stopped by the progress callback".into(),
                },
            ))
        }
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
