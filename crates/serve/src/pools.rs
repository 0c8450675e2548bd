//! Scheduling by cost: every request's work starts small on a pool that is never shed, and only
//! work that outgrows that start moves to the pool of expensive work, which sheds.
//!
//! A request's work is a closure run once or twice, each time as an [`Attempt`]:
//!
//! 1. **The cheap attempt**, on the cheap pool ([`crate::Config::cheap_workers`] permits, a
//!    bounded queue of [`crate::Config::cheap_queue`] waiters: a question waits for a permit
//!    rather than being shed), within [`crate::Config::cheap_budget`] positions and bytes and
//!    [`crate::Config::cheap_time`] of time: at that time its stop flag is raised. Nim, Wythoff,
//!    small Kayles and every closed form end here, in microseconds.
//! 2. **The full attempt**, only when the cheap one outgrew its start — it stopped at the stop
//!    flag or at a cap of its budget ([`ApiError::outgrew`]), or ended past its time with a
//!    limit: run again from the beginning on the expensive pool ([`crate::Config::workers`]
//!    permits) with the full web budget and what is left of the request's time budget
//!    ([`crate::Config::timeout`]); a request that finds no permit within
//!    [`crate::Config::queue_wait`] is answered 503 at once.
//!
//! The cheap attempt of expensive work costs its time (20 ms by default, more on a busy
//! machine) before the restart: a few per cent of a request that then runs for a second
//! (docs/benchmarks.md measures it), and the price of never guessing a question's cost from its
//! endpoint. It is paid once per question a minute: a question that outgrew its cheap attempt
//! (by its [`key`], what the handler read of the request) starts on the expensive pool for
//! [`KNOWN_FOR`], unless its full attempt then took less than a cheap attempt's time (it met a
//! busy machine), so that a page retrying a 503 or many clients asking the same table do not
//! pay it again. This memory of costs (at most [`KNOWN_MAX`] keys) is the only thing the server
//! keeps of a request after it. Work that the library
//! cannot stop and whose size is known up front (a Penney simulation) starts on the expensive
//! pool ([`Start::Expensive`]).
//!
//! Every attempt runs on tokio's blocking threads and serializes its answer there; past the
//! time budget the answer is 422 at once, the stop flag is raised, and the permit is held until
//! the work has really ended.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use grundy::catalogue::{Ask, Budget, Detail, Play};
use grundy::heap::Compute;
use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::errors::{ApiError, ApiResult};
use crate::Config;

/// Where a request's work starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// On the cheap pool, under the small budget (every request the library can stop or
    /// budget).
    Cheap,
    /// On the expensive pool at once, with the full budget (work the library cannot stop,
    /// whose size says it is not small).
    Expensive,
}

/// How long a question that outgrew its cheap attempt starts on the expensive pool.
pub const KNOWN_FOR: Duration = Duration::from_secs(60);

/// The most questions remembered as expensive.
pub const KNOWN_MAX: usize = 4096;

/// The key of a question for the memory of expensive questions: a hash of what the handler
/// reads of its request (the endpoint's name first), never of its answer.
pub fn key(question: &impl Hash) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    question.hash(&mut h);
    h.finish()
}

/// Which attempt of a request's work this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// The first attempt: the cheap pool, the small budget.
    Cheap,
    /// The attempt on the expensive pool, with the full web budget.
    Full,
}

/// What one attempt of a request's work may spend: the work reads its budget and stop flag
/// from here and hands them to the library.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// Which attempt.
    pub tier: Tier,
    /// The positions and bytes a search may take.
    pub budget: Budget,
    /// The time this attempt has, for libraries that take a time limit (scripts).
    pub time: Duration,
    stop: Arc<AtomicBool>,
}

impl Attempt {
    /// An attempt with a fresh stop flag.
    fn new(tier: Tier, budget: Budget, time: Duration) -> Attempt {
        Attempt {
            tier,
            budget,
            time,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A catalogue question under `play` at `detail`, within this attempt's budget, stopped by
    /// its stop flag.
    pub fn ask(&self, play: Play, detail: Detail) -> Ask {
        Ask::new(play)
            .detail(detail)
            .budget(self.budget)
            .stop(self.stop.clone())
    }

    /// The heap engines' settings: one thread (requests share the cores), stopped by this
    /// attempt's stop flag.
    pub fn compute(&self) -> Compute<'_> {
        Compute::new().threads(1).stop_when(&self.stop)
    }

    /// True once the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The error of work that saw the stop flag between its steps: it outgrew this attempt.
    pub fn stopped_error(&self) -> ApiError {
        ApiError::limit("time budget exceeded").outgrown()
    }

    /// True for the cheap attempt.
    pub fn is_cheap(&self) -> bool {
        self.tier == Tier::Cheap
    }
}

/// Counters of the scheduler since the server started (`GET /api/health`): how many requests
/// each pool answered, how many moved on, were shed, ran out of time, and the time cheap
/// attempts spent on work that then moved (the price of the restart).
#[derive(Debug, Default)]
struct Counters {
    cheap_answered: AtomicU64,
    moved: AtomicU64,
    moved_micros: AtomicU64,
    known: AtomicU64,
    expensive_answered: AtomicU64,
    shed: AtomicU64,
    timed_out: AtomicU64,
}

/// The two pools and their counters.
pub struct Pools {
    config: Arc<Config>,
    /// The budget of a full attempt ([`Config::full_budget`], computed once).
    full_budget: Budget,
    cheap: Arc<Semaphore>,
    expensive: Arc<Semaphore>,
    /// Requests waiting for a cheap permit now.
    cheap_waiting: AtomicUsize,
    /// Questions that outgrew their cheap attempt lately (by [`key`]), and when.
    known: Mutex<HashMap<u64, Instant>>,
    counters: Counters,
}

/// The state of the pools, as `GET /api/health` shows it.
#[derive(Debug, Serialize)]
pub struct PoolsState {
    /// Permits of the cheap pool.
    pub cheap_workers: usize,
    /// Cheap permits held now.
    pub cheap_busy: usize,
    /// Permits of the expensive pool.
    pub workers: usize,
    /// Expensive permits held now.
    pub busy: usize,
    /// Requests answered by their cheap attempt.
    pub cheap_answered: u64,
    /// Requests whose cheap attempt outgrew its budget and moved to the expensive pool.
    pub moved: u64,
    /// Milliseconds the cheap attempts of moved requests spent before they moved.
    pub moved_ms: u64,
    /// Requests that started on the expensive pool because the same question outgrew its
    /// cheap attempt within the last minute.
    pub known: u64,
    /// Requests answered by the expensive pool.
    pub expensive_answered: u64,
    /// Requests answered 503.
    pub shed: u64,
    /// Requests answered 422 at the time budget.
    pub timed_out: u64,
}

impl Pools {
    /// The pools of `config`.
    pub fn new(config: Arc<Config>) -> Pools {
        Pools {
            full_budget: config.full_budget(),
            cheap: Arc::new(Semaphore::new(config.cheap_workers.max(1))),
            expensive: Arc::new(Semaphore::new(config.workers.max(1))),
            cheap_waiting: AtomicUsize::new(0),
            known: Mutex::new(HashMap::new()),
            counters: Counters::default(),
            config,
        }
    }

    /// What `GET /api/health` says of the pools.
    pub fn state(&self) -> PoolsState {
        let c = &self.counters;
        let cheap = self.config.cheap_workers.max(1);
        let workers = self.config.workers.max(1);
        PoolsState {
            cheap_workers: cheap,
            cheap_busy: cheap.saturating_sub(self.cheap.available_permits()),
            workers,
            busy: workers.saturating_sub(self.expensive.available_permits()),
            cheap_answered: c.cheap_answered.load(Ordering::Relaxed),
            moved: c.moved.load(Ordering::Relaxed),
            moved_ms: c.moved_micros.load(Ordering::Relaxed) / 1000,
            known: c.known.load(Ordering::Relaxed),
            expensive_answered: c.expensive_answered.load(Ordering::Relaxed),
            shed: c.shed.load(Ordering::Relaxed),
            timed_out: c.timed_out.load(Ordering::Relaxed),
        }
    }

    /// Runs `work` as the module's text says, starting at `start`, and answers its result as
    /// JSON (serialized on the worker thread) or its error.
    pub async fn run<T, F>(&self, start: Start, key: u64, work: F) -> Response
    where
        T: Serialize,
        F: Fn(&Attempt) -> ApiResult<T> + Send + Sync + 'static,
    {
        let deadline = Instant::now() + self.config.timeout;
        let work = Arc::new(work);
        let start = if start == Start::Cheap && self.known(key) {
            self.counters.known.fetch_add(1, Ordering::Relaxed);
            Start::Expensive
        } else {
            start
        };
        if start == Start::Cheap {
            let Some(permit) = self.cheap_permit(deadline).await else {
                self.counters.shed.fetch_add(1, Ordering::Relaxed);
                return ApiError::busy().into_response();
            };
            let attempt = Attempt::new(
                Tier::Cheap,
                self.config.cheap_budget,
                self.config.cheap_time,
            );
            let began = Instant::now();
            match self.attempt(&work, attempt, permit, deadline).await {
                Err(e)
                    if Instant::now() < deadline
                        && (e.outgrew
                            || (e.is_limit() && began.elapsed() >= self.config.cheap_time)) =>
                {
                    let spent = began.elapsed().as_micros() as u64;
                    self.counters.moved.fetch_add(1, Ordering::Relaxed);
                    self.counters
                        .moved_micros
                        .fetch_add(spent, Ordering::Relaxed);
                }
                r => {
                    self.counters.cheap_answered.fetch_add(1, Ordering::Relaxed);
                    return answer(r);
                }
            }
        }
        let wait = self.config.queue_wait;
        let permit = match tokio::time::timeout(wait, self.expensive.clone().acquire_owned()).await
        {
            Ok(Ok(p)) => p,
            _ => {
                self.remember(key, true);
                self.counters.shed.fetch_add(1, Ordering::Relaxed);
                return ApiError::busy().into_response();
            }
        };
        let left = deadline.saturating_duration_since(Instant::now());
        let attempt = Attempt::new(Tier::Full, self.full_budget, left);
        let began = Instant::now();
        let r = self.attempt(&work, attempt, permit, deadline).await;
        // Work that the full attempt answered within a cheap attempt's time is cheap after all
        // (its cheap attempt met a busy machine): it starts cheap again next time.
        self.remember(key, began.elapsed() >= self.config.cheap_time);
        self.counters
            .expensive_answered
            .fetch_add(1, Ordering::Relaxed);
        answer(r)
    }

    /// True when the question `key` outgrew its cheap attempt within [`KNOWN_FOR`].
    fn known(&self, key: u64) -> bool {
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known.get(&key).is_some_and(|t| t.elapsed() < KNOWN_FOR)
    }

    /// Remembers the question `key` as expensive (or forgets it). At most [`KNOWN_MAX`]
    /// questions are kept: when full, the stale ones go, and if none is stale, all of them.
    fn remember(&self, key: u64, expensive: bool) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if !expensive {
            known.remove(&key);
            return;
        }
        if known.len() >= KNOWN_MAX && !known.contains_key(&key) {
            known.retain(|_, t| t.elapsed() < KNOWN_FOR);
            if known.len() >= KNOWN_MAX {
                known.clear();
            }
        }
        known.insert(key, Instant::now());
    }

    /// A cheap permit, waited for until `deadline`; `None` when the queue is full or the
    /// deadline passes.
    async fn cheap_permit(&self, deadline: Instant) -> Option<OwnedSemaphorePermit> {
        if let Ok(p) = self.cheap.clone().try_acquire_owned() {
            return Some(p);
        }
        if self.cheap_waiting.fetch_add(1, Ordering::Relaxed) >= self.config.cheap_queue {
            self.cheap_waiting.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        let got =
            tokio::time::timeout_at(deadline.into(), self.cheap.clone().acquire_owned()).await;
        self.cheap_waiting.fetch_sub(1, Ordering::Relaxed);
        got.ok().and_then(Result::ok)
    }

    /// Runs one attempt of `work` on a blocking thread holding `permit` until the work ends.
    /// The stop flag is raised at the attempt's time (a cheap attempt) or at `deadline`, when
    /// the answer is a 422 at once.
    async fn attempt<T, F>(
        &self,
        work: &Arc<F>,
        attempt: Attempt,
        permit: OwnedSemaphorePermit,
        deadline: Instant,
    ) -> ApiResult<Vec<u8>>
    where
        T: Serialize,
        F: Fn(&Attempt) -> ApiResult<T> + Send + Sync + 'static,
    {
        let stop = attempt.stop.clone();
        let cheap = attempt.is_cheap();
        let time = attempt.time;
        let w = work.clone();
        let mut task = tokio::task::spawn_blocking(move || {
            let _permit = permit; // held until the work is really done, even after a timeout
            let r = w(&attempt)?;
            serde_json::to_vec(&r).map_err(|e| ApiError::internal(e.to_string()))
        });
        if cheap {
            // At the cheap attempt's time, the stop flag; then the work's own answer (a stop,
            // or what it finished), still within the request's deadline.
            if let Ok(r) = tokio::time::timeout(time, &mut task).await {
                return joined(r);
            }
            stop.store(true, Ordering::Relaxed);
        }
        match tokio::time::timeout_at(deadline.into(), &mut task).await {
            Ok(r) => joined(r),
            Err(_) => {
                stop.store(true, Ordering::Relaxed);
                self.counters.timed_out.fetch_add(1, Ordering::Relaxed);
                Err(ApiError::limit(format!(
                    "time budget exceeded: more than {} ms of work",
                    self.config.timeout.as_millis()
                )))
            }
        }
    }
}

/// The result of a joined worker thread.
fn joined(r: Result<ApiResult<Vec<u8>>, tokio::task::JoinError>) -> ApiResult<Vec<u8>> {
    r.unwrap_or_else(|join| Err(ApiError::internal(format!("internal error: {join}"))))
}

/// The answer of an attempt: its JSON, or its error.
fn answer(r: ApiResult<Vec<u8>>) -> Response {
    match r {
        Ok(bytes) => json_bytes(bytes),
        Err(e) => e.into_response(),
    }
}

/// A JSON answer from bytes already serialized.
pub fn json_bytes(bytes: Vec<u8>) -> Response {
    let mut r = Response::new(Body::from(bytes));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}
