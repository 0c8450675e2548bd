//! A whole long run: resume from a checkpoint, compute with periodic durable checkpoints,
//! save the sequence, and summarise (rare heaps, largest value, histogram, period).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use grundy_heap::json_int;
use grundy_heap::periodicity::{self, Periodicity};
use grundy_heap::TakeBreak;

use crate::engine::{Engine, Loader};
use crate::error::Error;
use crate::store::{ChunkReader, Store};

/// Largest run whose period is looked for at the end (the search holds every value as u32).
pub const PERIOD_SEARCH_LIMIT: u64 = 1 << 26;

/// What a long run should do.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Compute G(0..=upto).
    pub upto: u64,
    /// Threads, the caller's included (0: one per core; capped by [`crate::max_threads`]).
    pub threads: usize,
    /// Directory for durable checkpoints (resumed from when it holds one).
    pub checkpoint: Option<PathBuf>,
    /// Time between checkpoints.
    pub checkpoint_every: Duration,
    /// Directory to save the whole sequence to, in compressed chunks.
    pub save: Option<PathBuf>,
    /// Look for a period at the end.
    pub find_period: bool,
    /// Memory window: keep in the engine's storage only the values the game needs and fetch
    /// the others when a lookup needs them: from the durable chunks with a checkpoint or save
    /// directory, else from a copy in memory of the values it dropped, packed at as many bits as
    /// they need (see [`Engine::with_packed_window`]: 9 bits where values pass 255 but not 511,
    /// instead of the engine's 16; nothing is dropped while values take one byte). The engine's
    /// values are then not all in its storage at the end (see [`Outcome::engine`]); the summary
    /// and its period search are the same.
    pub window: bool,
    /// Test knob: a fixed window depth and prefix length (`None`: what the game needs).
    pub window_depth: Option<u64>,
}

/// Progress report passed to the callback of [`run`]: once before the first block (with
/// `done == resumed_at`, so a front end can say "resuming from heap N" at once), then after
/// each block.
///
/// Serializes as `{"done", "total", "resumed_at"}` (integers above 2^53 as strings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Progress {
    /// Heaps known: G(0..done).
    #[serde(serialize_with = "json_int::serialize")]
    pub done: u64,
    /// Heaps the run computes: upto + 1.
    #[serde(serialize_with = "json_int::serialize")]
    pub total: u64,
    /// Heaps known when this process started (after a resume).
    #[serde(serialize_with = "json_int::serialize")]
    pub resumed_at: u64,
}

/// The summary of a computed sequence G(0..=n).
///
/// Serializes field by field under the same names (`period` as `grundy_heap`'s
/// `Periodicity` object or null; integers above 2^53 as strings), for front ends to build
/// their JSON from.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// The canonical code.
    pub rule: String,
    /// The last heap: values G(0..=n).
    #[serde(serialize_with = "json_int::serialize")]
    pub n: u64,
    /// Rare heaps (heap 0 excluded) under the final mask.
    #[serde(serialize_with = "json_int::serialize")]
    pub rare_count: u64,
    /// The last rare heap, if any.
    #[serde(serialize_with = "json_int::option")]
    pub last_rare: Option<u64>,
    /// The key mask: bit 0 is the heap-parity bit, bit k+1 is value bit k.
    #[serde(serialize_with = "json_int::serialize")]
    pub mask: u64,
    /// Largest value.
    pub max_value: u32,
    /// The first heap where the largest value occurs.
    #[serde(serialize_with = "json_int::serialize")]
    pub max_first: u64,
    /// `histogram[v]`: heaps 0..=n with G = v.
    #[serde(serialize_with = "json_int::seq")]
    pub histogram: Vec<u64>,
    /// The period, when one was found (see `grundy_heap::periodicity`).
    pub period: Option<Periodicity>,
    /// False when the run was too long for the period search.
    pub period_searched: bool,
}

/// The outcome of [`run`].
pub struct Outcome {
    /// What the run computed, summarised.
    pub summary: Summary,
    /// The engine, holding every value (for printing) unless the window was on.
    pub engine: Engine,
    /// Values fetched because the window had dropped them, from disk or from the packed copy
    /// (0 without a window).
    pub gap_fetches: u64,
    /// Heaps that came from a checkpoint (0 for a fresh run): the run resumed from this heap.
    pub resumed_at: u64,
}

/// Runs `code` as `opts` says, calling `progress` once before the first block (reporting where
/// a resumed run starts) and after each block.
///
/// When `progress` returns false the run stops at that block boundary: with a checkpoint
/// directory it first writes a checkpoint of everything computed (running again resumes
/// there), a save directory gets G(0..done) too, and then it returns
/// [`Error::Stopped`]` { done }`. A stop after the last block changes nothing.
///
/// ```
/// let code = grundy_heap::rule::parse_code("0.16").unwrap();
/// let opts = grundy_sparse::RunOptions {
///     upto: 1000,
///     threads: 1,
///     checkpoint: None,
///     checkpoint_every: std::time::Duration::from_secs(300),
///     save: None,
///     find_period: true,
///     window: false,
///     window_depth: None,
/// };
/// let out = grundy_sparse::run(&code, &opts, &mut |_| true).unwrap();
/// assert_eq!(out.summary.n, 1000);
/// assert_eq!(out.engine.len(), 1001);
/// ```
pub fn run(
    code: &TakeBreak,
    opts: &RunOptions,
    progress: &mut dyn FnMut(Progress) -> bool,
) -> Result<Outcome, Error> {
    let total = opts
        .upto
        .checked_add(1)
        .filter(|&t| usize::try_from(t).is_ok())
        .ok_or_else(|| Error::TooLarge(format!("{} heaps do not fit this machine", opts.upto)))?;
    let mut store = match &opts.checkpoint {
        Some(dir) => Some(Store::open(dir, code, opts.upto)?),
        None => None,
    };
    let chunk_dir = opts.checkpoint.as_ref().or(opts.save.as_ref());
    let windowed = opts.window && chunk_dir.is_some();
    let mut save = match &opts.save {
        Some(dir) => Some(Store::open(dir, code, opts.upto)?),
        None => None,
    };
    // A directory of another rule, or holding more heaps than this run keeps, is refused before
    // anything is written (its chunks would otherwise mix with this run's).
    let checkpointed = match store.as_ref() {
        Some(s) => s.read_state()?.is_some(),
        None => false,
    };
    let saved = match save.as_ref() {
        Some(s) => s.read_state()?.is_some(),
        None => false,
    };
    // Resume from the checkpoint, else from a saved run (extending it to this target).
    let from_save = !checkpointed && saved;
    // A windowed resume holds only what the window starts from, not every value; not with a
    // save directory written from the start, which needs every value again.
    let partial = windowed && (save.is_none() || (from_save && store.is_none()));
    let mut loader: Option<Result<Loader, Error>> = None;
    let source = if from_save {
        save.as_mut()
    } else {
        store.as_mut()
    };
    let resumed = match source {
        Some(s) => s.load_each(&mut |state, chunk| {
            let loader = loader.get_or_insert_with(|| {
                if partial {
                    Loader::windowed(code, state.mask, state.done, crate::store::CHUNK)
                } else {
                    let mut all = Loader::default();
                    all.reserve(state.done);
                    Ok(all)
                }
            });
            if let Ok(loader) = loader {
                loader.push(chunk);
            }
        })?,
        None => None,
    };
    let mut engine = match (resumed, loader) {
        (Some(state), Some(loader)) => loader?.finish(code, state.mask)?,
        _ => Engine::new(code)?,
    }
    .with_threads(opts.threads);
    // A value the window cannot read back ends the run with this error before anything
    // computed after it is written.
    let gap_failure: GapFailure = Default::default();
    if let (true, Some(dir)) = (windowed, chunk_dir) {
        engine = engine.with_window(
            gap_source(dir, code, gap_failure.clone()),
            opts.window_depth,
        );
    }
    if opts.window && chunk_dir.is_none() {
        // Without a directory, the window's dropped values live packed in memory.
        engine = engine.with_packed_window(opts.window_depth);
    }
    let resumed_at = engine.len();
    let mut last_checkpoint = Instant::now();
    let failure: std::cell::RefCell<Option<Error>> = std::cell::RefCell::new(None);
    let take_gap_failure = || gap_failure.lock().unwrap_or_else(|e| e.into_inner()).take();
    let mut stopped = false;
    let mut report = |e: &Engine| -> bool {
        if let Some(err) = take_gap_failure().or_else(|| e.take_gap_error()) {
            *failure.borrow_mut() = Some(err);
            return false;
        }
        let go = progress(Progress {
            done: e.len(),
            total,
            resumed_at,
        });
        if windowed {
            // Write whole chunks as soon as they are complete, so the window may drop them.
            let mut upto = u64::MAX;
            for s in [store.as_mut(), save.as_mut()].into_iter().flatten() {
                match s.write_chunks(e.len(), &|a, b| e.values_range(a, b)) {
                    Ok(d) => upto = upto.min(d),
                    Err(err) => {
                        *failure.borrow_mut() = Some(err);
                        return false;
                    }
                }
            }
            e.set_durable(upto);
        }
        if !go {
            // The final checkpoint is written below, once the engine is back.
            stopped = true;
            return false;
        }
        if let Some(store) = store.as_mut() {
            if last_checkpoint.elapsed() >= opts.checkpoint_every && e.len() < total {
                if let Err(err) = store.write(e.len(), e.mask(), &|a, b| e.values_range(a, b)) {
                    *failure.borrow_mut() = Some(err);
                    return false;
                }
                last_checkpoint = Instant::now();
            }
        }
        true
    };
    // Before the first block every value is in memory: report where the run starts, write
    // what is whole (after a resume into a new save directory) and tell the engine what it may
    // drop.
    if report(&engine) {
        engine.advance(total, &mut report);
    }
    if let Some(err) = failure
        .into_inner()
        .or_else(take_gap_failure)
        .or_else(|| engine.take_gap_error())
    {
        return Err(err);
    }
    if stopped && engine.len() < total {
        // Keep everything computed: a checkpoint to resume from, and what a save holds.
        let done = engine.len();
        for s in [store.as_mut(), save.as_mut()].into_iter().flatten() {
            s.write(done, engine.mask(), &|a, b| engine.values_range(a, b))?;
        }
        return Err(Error::Stopped { done });
    }
    if let Some(store) = store.as_mut() {
        if resumed_at < total {
            store.write(engine.len(), engine.mask(), &|a, b| {
                engine.values_range(a, b)
            })?;
        }
    }
    if let Some(save) = save.as_mut() {
        save.write(engine.len(), engine.mask(), &|a, b| {
            engine.values_range(a, b)
        })?;
    }
    let period_values = match (windowed, chunk_dir) {
        (true, Some(dir)) if opts.find_period && engine.len() <= PERIOD_SEARCH_LIMIT => {
            // Free the chunks the gap source cached before holding every value.
            engine.set_gap_source(gap_source(dir, code, gap_failure.clone()));
            let mut s = Store::open(dir, code, opts.upto)?;
            s.load()?.map(|(_, v)| v)
        }
        _ => None,
    };
    let summary = match &period_values {
        Some(v) => summarize_with(code, &engine, opts.find_period, Some(&|i| v[i as usize])),
        None => summarize_with(code, &engine, opts.find_period, None),
    };
    Ok(Outcome {
        summary,
        gap_fetches: engine.gap_fetches(),
        engine,
        resumed_at,
    })
}

/// Reads a checkpoint or save directory of `code` back, without writing anything: its state
/// and an engine holding G(0..=upto) (every value the directory holds without `upto`), ready
/// for [`summarize`] or [`Engine::values`].
///
/// A directory of another rule is [`Error::BadFile`] naming both rules; an `upto` past what
/// the directory holds is [`Error::TooLarge`] naming what it holds. Every chunk is checked as
/// a resume checks it.
///
/// ```
/// let code = grundy_heap::rule::parse_code("0.07").unwrap();
/// let dir = std::env::temp_dir().join(format!("grundy-load-doc-{}", std::process::id()));
/// let opts = grundy_sparse::RunOptions {
///     upto: 500,
///     threads: 1,
///     checkpoint: None,
///     checkpoint_every: std::time::Duration::from_secs(300),
///     save: Some(dir.clone()),
///     find_period: false,
///     window: false,
///     window_depth: None,
/// };
/// grundy_sparse::run(&code, &opts, &mut |_| true).unwrap();
/// let (state, engine) = grundy_sparse::load(&dir, &code, Some(100)).unwrap();
/// assert_eq!((state.done, engine.len()), (501, 101));
/// assert_eq!(engine.values(), grundy_sparse::values(&code, 100, 1).unwrap());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn load(
    dir: &std::path::Path,
    code: &TakeBreak,
    upto: Option<u64>,
) -> Result<(crate::store::State, Engine), Error> {
    let state = crate::store::inspect(dir)?;
    let rule = grundy_heap::rule::format_code(code);
    if state.rule != rule {
        return Err(Error::BadFile(format!(
            "{} holds a run of rule {}, not {rule}",
            dir.display(),
            state.rule
        )));
    }
    let len = match upto {
        Some(u) if u >= state.done => {
            return Err(Error::TooLarge(format!(
                "{} holds G(0..={}) of rule {rule}, not heap {u}",
                dir.display(),
                state.done.saturating_sub(1)
            )))
        }
        Some(u) => u + 1,
        None => state.done,
    };
    let mut store = Store::open(dir, code, state.target)?;
    let mut loader = Loader::default();
    loader.reserve(len);
    let mut pushed = 0u64;
    let read = store.load_each(&mut |_, chunk| {
        let take = (len - pushed).min(chunk.len() as u64) as usize;
        loader.push(&chunk[..take]);
        pushed += take as u64;
    })?;
    let state = read.ok_or_else(|| Error::BadFile(format!("{} vanished", dir.display())))?;
    let engine = loader.finish(code, state.mask)?;
    Ok((state, engine))
}

/// Where the gap source leaves the first error it meets.
type GapFailure = std::sync::Arc<std::sync::Mutex<Option<Error>>>;

/// The window's gap source: values read back from the whole chunks in `dir`. The window only
/// drops values already written in checked chunks, so a chunk that cannot be read back now is
/// a damaged run directory: the error goes to `failure` and a placeholder 0 keeps the engine
/// going until the end of the block, after which the run stops without writing anything.
fn gap_source(
    dir: &std::path::Path,
    code: &TakeBreak,
    failure: GapFailure,
) -> crate::engine::GapSource {
    let mut reader = ChunkReader::new(dir, code);
    Box::new(move |i: u64| -> u32 {
        reader.get(i).unwrap_or_else(|e| {
            let mut slot = failure.lock().unwrap_or_else(|p| p.into_inner());
            slot.get_or_insert(Error::BadFile(format!(
                "memory window: cannot read back heap {i}: {e}"
            )));
            0
        })
    })
}

/// The summary of everything `engine` computed.
pub fn summarize(code: &TakeBreak, engine: &Engine, find_period: bool) -> Summary {
    summarize_with(code, engine, find_period, None)
}

/// [`summarize`], with every value G(i) given for the period search (a windowed engine lacks
/// some).
pub(crate) fn summarize_with(
    code: &TakeBreak,
    engine: &Engine,
    find_period: bool,
    values: Option<&dyn Fn(u64) -> u32>,
) -> Summary {
    let (max_value, max_first) = engine.max_value();
    let n = engine.len().saturating_sub(1);
    let searched = find_period && engine.len() <= PERIOD_SEARCH_LIMIT;
    let period = if searched {
        engine.find_period(periodicity::code_bound(code), values)
    } else {
        None
    };
    Summary {
        rule: grundy_heap::rule::format_code(code),
        n,
        rare_count: engine.rare_count() as u64,
        last_rare: engine.last_rare(),
        mask: engine.mask(),
        max_value,
        max_first,
        histogram: engine.histogram(),
        period,
        period_searched: searched,
    }
}

/// Computes G(0..=n) for n = `start`, 2·`start`, … (at most `limit`) until a period is proven
/// (or, for codes no theorem covers, once); the engine continues where it stopped, so the
/// doubling costs nothing extra. Returns the values and the last analysis.
///
/// `progress(heaps_done)` is called after each block; when it returns false the computation
/// stops there with [`Error::Stopped`].
///
/// ```
/// let code = grundy_heap::rule::parse_code("0.07").unwrap(); // Dawson's Kayles
/// let (values, period) = grundy_sparse::until_proven(&code, 64, 1 << 12, 1, &mut |_| true).unwrap();
/// assert_eq!(period.unwrap().period, 34);
/// assert!(values.len() > 64);
/// ```
pub fn until_proven(
    code: &TakeBreak,
    start: u64,
    limit: u64,
    threads: usize,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<(Vec<u32>, Option<Periodicity>), Error> {
    let limit_len = limit
        .checked_add(1)
        .filter(|&t| usize::try_from(t).is_ok())
        .ok_or_else(|| Error::TooLarge(format!("{limit} heaps do not fit this machine")))?;
    let bound = periodicity::code_bound(code);
    let mut engine = Engine::new(code)?.with_threads(threads);
    let mut target = start.clamp(1, limit).saturating_add(1);
    loop {
        engine.advance(target, &mut |e| progress(e.len()));
        if engine.len() < target {
            return Err(Error::Stopped { done: engine.len() });
        }
        let values = engine.values();
        let found = periodicity::find(&values, bound);
        let proven = found.is_some_and(|p| p.status == periodicity::Status::Proven);
        if proven || bound.is_none() || target >= limit_len {
            return Ok((values, found));
        }
        target = target.saturating_mul(2).min(limit_len);
    }
}
