//! How a computation runs: which engine, how many threads, progress, stopping, and the two
//! things only the caller knows: how much memory this machine can give, and where proven
//! misère quotients are kept between processes.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::error::{Error, Result};

/// Which engine computes a sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineChoice {
    /// The sparse engine for splitting take-and-break codes from
    /// [`AUTO_SPARSE_MIN_HEAPS`](crate::AUTO_SPARSE_MIN_HEAPS) heaps on, else the fastest plain
    /// engine for the rule; under misère play the rule's quotient where it is found, else the
    /// search over whole positions.
    #[default]
    Auto,
    /// The straightforward engines (mex over every option; the subtraction engines for rules
    /// whose moves leave at most one heap; under misère play the search over whole positions):
    /// the yardstick.
    Reference,
    /// The rare/common engine; refused for rules it cannot compute exactly.
    Sparse,
}

impl EngineChoice {
    /// `"auto"`, `"reference"` or `"sparse"`.
    pub fn as_str(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Reference => "reference",
            EngineChoice::Sparse => "sparse",
        }
    }
}

/// The engine that computed a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineUsed {
    /// The plain engines of `grundy-heap` (mex, or the subtraction engines).
    Reference,
    /// The rare/common engine of `grundy-sparse`.
    Sparse,
}

/// A progress report: heaps known and heaps to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Heaps known (G(0..done)).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub done: u64,
    /// Heaps the computation will know at the end.
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub total: u64,
    /// Heaps that came from a checkpoint (0 unless a record run resumed).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub resumed_at: u64,
}

/// How a computation runs: the engine, the threads, progress and stopping.
///
/// Progress is reported as heaps done out of heaps to do (the sparse engine after each block,
/// the others every few thousand heaps). Setting the stop flag ends the computation at the
/// next report with [`Error::Stopped`]; a record run with a checkpoint writes everything it
/// finished first.
#[derive(Default)]
pub struct Compute<'a> {
    /// The engine to use.
    pub engine: EngineChoice,
    /// Threads of the sparse engine (0: one per core).
    pub threads: usize,
    progress: Option<Box<dyn FnMut(Progress) + 'a>>,
    stop: Option<&'a AtomicBool>,
    memory: Option<u64>,
    quotients: Option<PathBuf>,
}

impl<'a> Compute<'a> {
    /// The defaults: engine chosen for you, every core, no reports, never stops, no memory
    /// cap and no quotient directory (proven quotients are kept in this process only).
    pub fn new() -> Self {
        Compute::default()
    }

    /// Uses `engine`.
    pub fn engine(mut self, engine: EngineChoice) -> Self {
        self.engine = engine;
        self
    }

    /// Uses `threads` threads in the sparse engine (0: one per core).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Calls `f` with each progress report.
    pub fn on_progress(mut self, f: impl FnMut(Progress) + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Stops the computation soon after `flag` becomes true (a Ctrl-C handler sets it).
    pub fn stop_when(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Refuses, before allocating, a computation whose estimated memory passes `bytes` (the
    /// facade gives half of what the machine has available; this crate reads no system
    /// state).
    pub fn memory(mut self, bytes: u64) -> Self {
        self.memory = Some(bytes);
        self
    }

    /// [`Compute::memory`] on a computation already set up.
    pub fn set_memory(&mut self, bytes: u64) {
        self.memory = Some(bytes);
    }

    /// Keeps proven misère quotients in the directory `dir` (read back, checked and extended
    /// by later calls and processes; see [`crate::quotients`]). Without it, and without
    /// [`crate::quotients::set_default_dir`], they are kept in this process only.
    pub fn quotient_cache(mut self, dir: impl Into<PathBuf>) -> Self {
        self.quotients = Some(dir.into());
        self
    }

    /// The directory of proven misère quotients: [`Compute::quotient_cache`]'s, else the
    /// process default.
    pub fn quotient_dir(&self) -> Option<&Path> {
        match &self.quotients {
            Some(d) => Some(d.as_path()),
            None => crate::quotients::default_dir(),
        }
    }

    /// True once the stop flag is set.
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// The stop flag, when there is one.
    pub(crate) fn stop_flag(&self) -> Option<&'a AtomicBool> {
        self.stop
    }

    /// Reports progress; false when the computation should stop.
    pub(crate) fn report(&mut self, p: Progress) -> bool {
        if let Some(f) = self.progress.as_mut() {
            f(p);
        }
        !self.stopped()
    }

    /// A heap-engine callback: reports `done` out of `total`; false once the stop flag is set.
    pub(crate) fn ticker<'s>(&'s mut self, total: u64) -> impl FnMut(u64) -> bool + use<'s, 'a> {
        move |done| {
            self.report(Progress {
                done,
                total,
                resumed_at: 0,
            })
        }
    }

    /// Refuses, in one line naming `what`, a computation that needs `need` bytes when the
    /// memory given by [`Compute::memory`] is smaller.
    pub(crate) fn check_memory(&self, need: u64, what: &str) -> Result<()> {
        match self.memory {
            Some(budget) if need > budget => Err(Error::Invalid(format!(
                "{what} needs about {} MiB, more than the {} MiB this machine can give it (half of what is available)",
                need >> 20,
                budget >> 20
            ))),
            _ => Ok(()),
        }
    }
}
