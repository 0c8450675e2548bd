//! Helper threads for phase 1, and [`Signal`], the one way threads of the engine wait.
//!
//! A block's phase 1 lasts a fraction of a millisecond and the sequential phase 2 between two of
//! them less, so a waiting thread first spins for a few microseconds (the usual wait is shorter
//! than a wake-up), then sleeps until the thread it waits for signals. A waiter never spins for
//! long: on a machine shared with other processes the thread it waits for may not be running,
//! and a spinning waiter would take the core it needs. A [`Crew`]'s helpers park between jobs;
//! the caller works on the job too and returns once every helper has let go of it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A job: called once for each item index.
type Job = dyn Fn(usize) + Sync;

/// How long a waiter spins before it sleeps.
const SPIN: Duration = Duration::from_micros(20);

/// The longest a sleeping waiter goes without looking at its condition again (a safety net: a
/// signal is never lost, see [`Signal::notify`]).
const NAP: Duration = Duration::from_millis(2);

/// Where threads wait for a condition that other threads make true: a short spin, then sleep
/// until [`Signal::notify`]. Notifying costs a fence and a load while nobody sleeps.
#[derive(Default)]
pub(crate) struct Signal {
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    cv: Condvar,
}

impl Signal {
    /// Wakes every sleeping waiter; call after a change that may make a waiter's condition true.
    #[inline]
    pub(crate) fn notify(&self) {
        // Dekker's pattern with `wait_until`: either this load sees the waiter counted, or the
        // waiter's check of its condition (after counting itself) sees the change made before
        // this fence.
        std::sync::atomic::fence(Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            // Taking the lock orders this wake-up after a waiter's check-and-sleep.
            drop(self.lock.lock().unwrap_or_else(|e| e.into_inner()));
            self.cv.notify_all();
        }
    }

    /// Returns once `cond()` holds: spins for a few microseconds, then sleeps between checks.
    pub(crate) fn wait_until(&self, cond: impl Fn() -> bool) {
        // Most waits are over before they start: no clock read for those.
        if cond() {
            return;
        }
        let begin = Instant::now();
        let mut spins = 0u32;
        while !cond() {
            spins += 1;
            if spins < 64 || begin.elapsed() < SPIN {
                std::hint::spin_loop();
                continue;
            }
            self.sleepers.fetch_add(1, Ordering::SeqCst);
            let guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            if !cond() {
                drop(self.cv.wait_timeout(guard, NAP));
            } else {
                drop(guard);
            }
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

struct Shared {
    /// Bumped for each job (and to stop).
    epoch: AtomicU64,
    /// The current job, valid while helpers are `pending`.
    job: Mutex<Option<JobPtr>>,
    items: AtomicUsize,
    next: AtomicUsize,
    /// Helpers that have not yet let go of the current job.
    pending: AtomicUsize,
    panicked: AtomicBool,
    stop: AtomicBool,
    /// Signalled when a helper lets go of a job.
    released: Signal,
}

/// The job's address with its lifetime erased; [`Crew::run_with`] keeps the job alive until no helper
/// holds it.
#[derive(Clone, Copy)]
struct JobPtr(*const Job);

// SAFETY: a `JobPtr` only carries the address to helper threads, which use it as a shared
// `&Job`; `Job` is `Sync`, so sharing it across threads is sound. That the pointee outlives
// every use is the lifetime-erasure contract of `Crew::run_with`, not a question of threads.
unsafe impl Send for JobPtr {}

/// Helper threads that run [`Crew::run_with`] jobs with the calling thread.
pub(crate) struct Crew {
    shared: Arc<Shared>,
    helpers: Vec<JoinHandle<()>>,
}

impl Crew {
    /// A crew of `helpers` threads besides the caller's (None when they cannot be started).
    pub(crate) fn new(helpers: usize) -> Option<Crew> {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            job: Mutex::new(None),
            items: AtomicUsize::new(0),
            next: AtomicUsize::new(0),
            pending: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            released: Signal::default(),
        });
        let mut handles = Vec::new();
        for k in 0..helpers {
            let shared = Arc::clone(&shared);
            let handle = std::thread::Builder::new()
                .name(format!("grundy-sparse-{k}"))
                .spawn(move || helper(&shared))
                .ok()?;
            handles.push(handle);
        }
        Some(Crew {
            shared,
            helpers: handles,
        })
    }

    /// Threads working on a job, the caller's included.
    pub(crate) fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Calls `f(i)` for every i in `0..items`, spread over the caller and the helpers; returns
    /// when all calls are done. A panic in any call is raised again here.
    #[cfg(test)]
    pub(crate) fn run(&self, items: usize, f: &(dyn Fn(usize) + Sync)) {
        self.run_with(items, f, |claim| {
            while let Some(i) = claim(usize::MAX) {
                f(i);
            }
        });
    }

    /// Like `Crew::run`, but the caller runs `main` instead: `main` gets `claim`, which hands
    /// out the next unclaimed item in order if it is below the limit given (None once all are
    /// taken, or when the next one is not below it), and calls `f` itself on the items it
    /// claims, doing other work in between. Returns what `main` returns, once every helper is
    /// done too (helpers take the items `main` leaves, with no limit).
    pub(crate) fn run_with<R>(
        &self,
        items: usize,
        f: &(dyn Fn(usize) + Sync),
        main: impl FnOnce(&dyn Fn(usize) -> Option<usize>) -> R,
    ) -> R {
        let s = &*self.shared;
        // SAFETY: the two pointer types differ only in the trait object's lifetime bound (same
        // layout, same vtable). Erasing it is sound because of the contract kept below: helpers
        // dereference the pointer only while counted in `pending` (set before the epoch bump
        // that hands it out), this function returns or unwinds only after `pending` is back
        // to 0 (every path runs the wait loop: `main`'s panic is caught first), and it clears
        // `job` before returning, so no dangling pointer outlives `f`'s borrow.
        let ptr: *const Job = unsafe { std::mem::transmute(f as *const (dyn Fn(usize) + Sync)) };
        *s.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(JobPtr(ptr));
        s.items.store(items, Ordering::Relaxed);
        s.next.store(0, Ordering::Relaxed);
        s.pending.store(self.helpers.len(), Ordering::Relaxed);
        s.epoch.fetch_add(1, Ordering::Release);
        for h in &self.helpers {
            h.thread().unpark();
        }
        let claim = |limit: usize| {
            let mut i = s.next.load(Ordering::Relaxed);
            loop {
                if i >= items.min(limit) {
                    return None;
                }
                match s
                    .next
                    .compare_exchange_weak(i, i + 1, Ordering::Relaxed, Ordering::Relaxed)
                {
                    Ok(_) => return Some(i),
                    Err(now) => i = now,
                }
            }
        };
        let mine = catch_unwind(AssertUnwindSafe(|| main(&claim)));
        s.released
            .wait_until(|| s.pending.load(Ordering::Acquire) == 0);
        *s.job.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let out = match mine {
            Ok(out) => out,
            Err(p) => std::panic::resume_unwind(p),
        };
        if s.panicked.swap(false, Ordering::Relaxed) {
            panic!("a phase 1 helper thread panicked");
        }
        out
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.shared.epoch.fetch_add(1, Ordering::Release);
        for h in self.helpers.drain(..) {
            h.thread().unpark();
            let _ = h.join();
        }
    }
}

/// Takes items of the current job until none is left.
fn claim(s: &Shared, f: &(dyn Fn(usize) + Sync + '_)) {
    let items = s.items.load(Ordering::Relaxed);
    loop {
        let i = s.next.fetch_add(1, Ordering::Relaxed);
        if i >= items {
            return;
        }
        f(i);
    }
}

fn helper(s: &Shared) {
    let mut seen = 0;
    loop {
        // Jobs come a block apart: a short spin, then park until `run_with` unparks this thread.
        let idle = Instant::now();
        let mut spins = 0u32;
        loop {
            let epoch = s.epoch.load(Ordering::Acquire);
            if epoch != seen {
                seen = epoch;
                break;
            }
            spins += 1;
            if spins < 64 || idle.elapsed() < SPIN {
                std::hint::spin_loop();
            } else {
                std::thread::park_timeout(Duration::from_millis(50));
            }
        }
        if s.stop.load(Ordering::Acquire) {
            return;
        }
        let job = *s.job.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(JobPtr(ptr)) = job {
            // SAFETY: `run_with` stored this pointer to a live `&Job` and keeps that borrow alive
            // until `pending` is 0; this helper is counted in `pending` for this epoch and
            // decrements it (Release) only after its last use of `f` below. The job is `Sync`,
            // so a shared reference from this thread is sound.
            let f = unsafe { &*ptr };
            if catch_unwind(AssertUnwindSafe(|| claim(s, f))).is_err() {
                s.panicked.store(true, Ordering::Relaxed);
            }
        }
        s.pending.fetch_sub(1, Ordering::Release);
        s.released.notify();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_runs_once() {
        let crew = Crew::new(2).expect("threads");
        for items in [0, 1, 5, 100] {
            let hits: Vec<AtomicUsize> = (0..items).map(|_| AtomicUsize::new(0)).collect();
            crew.run(items, &|i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        }
    }

    #[test]
    fn main_claims_only_below_its_limit() {
        let crew = Crew::new(1).expect("threads");
        let ran: Vec<AtomicUsize> = (0..50).map(|_| AtomicUsize::new(0)).collect();
        let f = |i: usize| {
            ran[i].fetch_add(1, Ordering::Relaxed);
        };
        let mine = crew.run_with(50, &f, |claim| {
            let mut mine = Vec::new();
            while let Some(i) = claim(10) {
                assert!(i < 10);
                f(i);
                mine.push(i);
            }
            assert_eq!(claim(0), None);
            while let Some(i) = claim(usize::MAX) {
                f(i);
                mine.push(i);
            }
            mine
        });
        assert!(mine.windows(2).all(|w| w[0] < w[1]), "claimed in order");
        assert!(ran.iter().all(|r| r.load(Ordering::Relaxed) == 1));
    }

    #[test]
    fn a_panic_in_a_job_reaches_the_caller_and_the_crew_goes_on() {
        let crew = Crew::new(1).expect("threads");
        let r = catch_unwind(AssertUnwindSafe(|| {
            crew.run(64, &|i| assert!(i != 40, "item 40"));
        }));
        assert!(r.is_err());
        let count = AtomicUsize::new(0);
        crew.run(10, &|_| {
            count.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(count.load(Ordering::Relaxed), 10);
    }
}
