//! Surveys: solve every game of a family (`octal:3`, `hex:2`, `sub:8`, `allbut:4`,
//! `file:PATH`) into a durable, resumable SQLite table.
//!
//! The families, the equivalences, the table, saved sequences and the report are
//! `grundy-survey`'s (re-exported here); this module adds what needs the engines: [`solve`]
//! (one game until its period is proven, the limit or its time budget) and [`run`] (a whole
//! survey on this machine's cores, the calling thread the only writer of the database).
//! Other drivers (the Python package's Dask driver) call [`solve`] on their workers and
//! [`Db::write`] on the driver.
//!
//! ```
//! use grundy::survey::{self, Family, SolveOptions, Status};
//!
//! // One game: Kayles until the Guy–Smith theorem proves its period.
//! let row = survey::solve("0.77", &SolveOptions { upto: 1 << 12, ..Default::default() }, None)?;
//! assert_eq!((row.status, row.preperiod, row.period, row.proven), (Status::Periodic, Some(71), Some(12), Some(1)));
//!
//! // A whole family into a database.
//! let dir = std::env::temp_dir().join(format!("grundy-survey-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let opts = survey::RunOptions { upto: 1 << 12, jobs: 2, ..Default::default() };
//! let report = survey::run(&Family::parse("octal:1")?, &dir.join("s.sqlite"), &opts, None, &mut |_| {})?;
//! assert_eq!(report.total.games, 7);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), grundy::Error>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

pub use grundy_survey::{
    cousin, expand, family, report, row, seqfile, store, Counts, Db, Entry, Family, GameRow, Plan,
    Report, Status,
};

use crate::heap::{self, periodicity, Rule};
use crate::{Error, Result};

/// The first limit a game is computed to; it doubles until the period is proven or the
/// survey's limit is reached.
pub const FIRST_TARGET: u64 = 1024;

/// How one game is solved.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Compute at most G(0..=upto) (0: [`FIRST_TARGET`]).
    pub upto: u64,
    /// Stop after this long and record the game as unknown up to where it got.
    pub budget: Option<Duration>,
    /// Directory of saved sequences: an unknown game's values are saved there, and a later
    /// solve continues from them.
    pub save: Option<PathBuf>,
    /// Threads of the record engine (0: one per core).
    pub threads: usize,
    /// Also the misère quotient for heaps up to this bound (`grundy survey --misere`; the
    /// row's `misere_*` columns), within [`MISERE_LIMITS`].
    pub misere: Option<u64>,
}

/// The budget of a survey's misère quotient: a quotient larger than `max_order` elements is
/// recorded as not converged, a search or verification past its budget as `budget`.
pub const MISERE_LIMITS: crate::misere::quotient::Limits = crate::misere::quotient::Limits {
    max_order: 400,
    max_search: 2_000_000,
    max_verify: 1_000_000,
};

/// Fills the `misere_*` columns of `row`: the quotient of `rule` up to heap `bound`.
fn solve_misere(rule: &str, bound: u64, row: &mut GameRow) {
    use crate::misere::{quotient::QuotientEngine, MisereError};
    let mut engine = match QuotientEngine::new(rule, MISERE_LIMITS) {
        Ok(e) => e,
        Err(e) => {
            row.misere_status = Some("error".into());
            if row.error.is_none() {
                row.error = Some(format!("misère: {e}"));
            }
            return;
        }
    };
    let result = engine.extend_to(bound);
    let q = engine.quotient();
    row.misere_upto = Some(engine.upto());
    row.misere_order = Some(q.order as u64);
    row.misere_p = Some(q.p_size as u64);
    row.misere_tame = Some(u8::from(q.tame));
    row.misere_status = Some(
        match result {
            Ok(()) => "quotient",
            Err(MisereError::NotConverged { .. }) => "not converged",
            Err(MisereError::Limit { .. }) => "budget",
            Err(_) => "error",
        }
        .into(),
    );
}

/// Solves one game: computes G(0..=n) for n = 1024, 2048, … up to `opts.upto` until a theorem
/// proves the period (the record engine for splitting codes), or, for rules no theorem covers,
/// once up to `opts.upto` and reports what it shows. The budget and `stop` end the computation
/// at the engine's next report: the budget makes the game `unknown` up to where it got,
/// `stop` returns [`Error::Stopped`] (nothing to record; with `opts.save` the values so far
/// are saved first). A game that cannot be computed (the memory limit) is an `error` row.
///
/// Every field of the row but `family` is set; `seconds` is the wall time.
pub fn solve(rule: &str, opts: &SolveOptions, stop: Option<&AtomicBool>) -> Result<GameRow> {
    let started = Instant::now();
    let parsed = heap::parse(rule)?;
    let mut row = match solve_inner(rule, &parsed, opts, stop, started) {
        Ok(row) => row,
        Err(Error::Stopped { done }) => return Err(Error::Stopped { done }),
        Err(e) => {
            let mut r = GameRow::new(rule, Status::Error);
            r.error = Some(e.to_string());
            r
        }
    };
    if let Some(bound) = opts.misere {
        solve_misere(rule, bound, &mut row);
    }
    row.seconds = Some(started.elapsed().as_secs_f64());
    Ok(row)
}

fn solve_inner(
    text: &str,
    rule: &Rule,
    opts: &SolveOptions,
    stop: Option<&AtomicBool>,
    started: Instant,
) -> Result<GameRow> {
    let upto = if opts.upto == 0 {
        FIRST_TARGET
    } else {
        opts.upto
    };
    crate::limits::check_memory(heap::memory_estimate(rule, upto), &format!("G(0..={upto})"))?;
    let bound = periodicity::rule_bound(rule);
    // Saved values, checked against a fresh computation of their first heaps.
    let mut resume = heap::Resume::default();
    if let Some(dir) = &opts.save {
        if let Some(saved) = seqfile::load(dir, text) {
            let check = (saved.values.len() as u64).min(2048);
            if check > 0 {
                let fresh = grundy_heap::engine::sequence(rule, check - 1)?;
                if saved.values[..check as usize] == fresh[..] {
                    resume = heap::Resume {
                        values: saved.values,
                        state: saved.provenance.map(|how| heap::GrowingState {
                            mask: how.mask,
                            sparse_dropped: how.sparse_dropped,
                        }),
                    };
                }
            }
        }
    }
    // The engine is the heap family's choice (the record engine while it pays, the
    // reference engine extended in place, or recomputed for rules without splits).
    let mut growing = heap::Heaps::new(rule).growing(upto, resume, opts.threads)?;
    let deadline = opts.budget.map(|b| started + b);
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    let stopped = || stop.is_some_and(|f| f.load(Ordering::Relaxed));
    let mut go = || !stopped() && !out_of_time();
    // Rules no theorem covers are computed once, to the limit. The others double their target
    // from FIRST_TARGET; a resumed game joins that schedule where its values end, so it is
    // analysed (and its period proven) at the lengths an uninterrupted run analyses.
    let mut target = if bound.is_none() {
        upto
    } else {
        let have = growing.values().len().saturating_sub(1) as u64;
        let mut t = FIRST_TARGET;
        while t < have && t < upto {
            t = t.saturating_mul(2);
        }
        t.min(upto).max(have)
    };
    let mut found;
    let mut interrupted = false;
    loop {
        if (growing.values().len() as u64) <= target {
            interrupted = !growing.advance(target, &mut go);
        }
        found = periodicity::analyze(rule, growing.values());
        let proven = found.is_some_and(|p| p.status == periodicity::Status::Proven);
        if interrupted || proven || target >= upto {
            break;
        }
        target = target.saturating_mul(2).min(upto);
    }
    // The engine and its rare heaps are the saving run's when the saved values held every one
    // this run needed (`Growing` resumed on its engine and mask): a survey killed between
    // saving and committing resumes to the same table.
    let engine_used = growing.engine();
    let rare = growing.rare_count();
    let state = growing.state();
    let how = seqfile::Provenance {
        mask: state.mask,
        sparse_dropped: state.sparse_dropped,
    };
    let values = growing.into_values();
    if interrupted && stopped() {
        if let Some(dir) = &opts.save {
            seqfile::save(dir, text, &values, &how)?;
        }
        return Err(Error::Stopped {
            done: Some(values.len() as u64),
        });
    }
    let mut row = GameRow::new(text, Status::Unknown);
    row.computed_upto = Some(values.len().saturating_sub(1) as u64);
    row.max_value = Some(values.iter().copied().max().unwrap_or(0).into());
    row.engine = Some(engine_used.to_string());
    row.rare_values = rare;
    // A period counts when proven, or observed for a rule no theorem covers (and computed to
    // the limit): then nothing more can be said.
    let periodic = found
        .filter(|p| p.status == periodicity::Status::Proven || (bound.is_none() && !interrupted));
    match periodic {
        Some(p) => {
            row.status = Status::Periodic;
            row.preperiod = Some(p.preperiod);
            row.period = Some(p.period);
            row.saltus = Some(p.saltus);
            row.proven = Some(u8::from(p.status == periodicity::Status::Proven));
        }
        None => {
            if let Some(dir) = &opts.save {
                seqfile::save(dir, text, &values, &how)?;
            }
        }
    }
    Ok(row)
}

/// How a survey runs.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Compute each game at most to G(0..=upto) (0: [`FIRST_TARGET`]).
    pub upto: u64,
    /// Time budget per game.
    pub budget: Option<Duration>,
    /// Games at once (0: one per core).
    pub jobs: usize,
    /// Directory of saved sequences (see [`SolveOptions::save`]).
    pub save: Option<PathBuf>,
    /// Also misère quotients up to this heap (see [`SolveOptions::misere`]).
    pub misere: Option<u64>,
}

/// What [`run`] reports while it works.
#[derive(Clone, Debug)]
pub enum Event {
    /// Before the first game: the family's size and what is left to do.
    Planned {
        /// Games in the family.
        total: u64,
        /// Games to solve now.
        todo: u64,
        /// Games finished by an earlier survey.
        finished: u64,
        /// Games equivalent to an earlier one (never solved).
        equivalent: u64,
    },
    /// A game started.
    Started {
        /// Its rule.
        rule: String,
    },
    /// A game was solved and its row committed.
    Finished {
        /// Its row.
        row: Box<GameRow>,
        /// Games solved so far in this run.
        done: u64,
        /// Games to solve in this run.
        todo: u64,
    },
}

/// Surveys `family` into the database at `db` (created if needed): every game not finished
/// there is solved, `opts.jobs` at a time on worker threads, and its row committed by the
/// calling thread (the only writer) as soon as it is done. Games equivalent to an earlier one
/// are recorded as such and not solved. Returns the database's report.
///
/// When `stop` is set, the games in progress stop (their saved sequences are written with
/// `opts.save`), no new game starts, and the call returns [`Error::Stopped`] after every
/// finished row is committed: at most the games in progress are lost.
pub fn run(
    family: &Family,
    db: &Path,
    opts: &RunOptions,
    stop: Option<&AtomicBool>,
    on_event: &mut dyn FnMut(Event),
) -> Result<Report> {
    let entries = expand(family)?;
    let mut db = Db::open(db)?;
    let upto = if opts.upto == 0 {
        FIRST_TARGET
    } else {
        opts.upto
    };
    let family_name = family.to_string();
    let plan = db.plan_with(&entries, upto, &family_name, opts.misere)?;
    let todo = plan.todo.len() as u64;
    on_event(Event::Planned {
        total: entries.len() as u64,
        todo,
        finished: plan.finished,
        equivalent: plan.equivalent,
    });
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = if opts.jobs == 0 { cores } else { opts.jobs }.clamp(1, 256);
    let solve_opts = SolveOptions {
        upto,
        budget: opts.budget,
        save: opts.save.clone(),
        // Cores shared among the games at once.
        threads: (cores / jobs).max(1),
        misere: opts.misere,
    };
    let queue = Arc::new(Mutex::new(plan.todo.into_iter()));
    let quit = AtomicBool::new(false);
    let is_stopped = || stop.is_some_and(|f| f.load(Ordering::Relaxed));
    enum Msg {
        Started(String),
        Done(Box<Result<GameRow>>),
    }
    let mut written = 0u64;
    let mut failure: Option<Error> = None;
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<Msg>();
        for _ in 0..jobs.min(todo.max(1) as usize) {
            let tx = tx.clone();
            let queue = Arc::clone(&queue);
            let solve_opts = &solve_opts;
            let quit = &quit;
            s.spawn(move || loop {
                if quit.load(Ordering::Relaxed) || is_stopped() {
                    break;
                }
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                let Some(rule) = next else { break };
                let _ = tx.send(Msg::Started(rule.clone()));
                let r = solve(&rule, solve_opts, stop);
                let _ = tx.send(Msg::Done(Box::new(r)));
            });
        }
        drop(tx);
        for msg in rx {
            let done = match msg {
                Msg::Started(rule) => {
                    on_event(Event::Started { rule });
                    continue;
                }
                Msg::Done(r) => *r,
            };
            match done {
                Ok(mut row) => {
                    row.family = Some(family_name.clone());
                    if let Err(e) = db.write(&row) {
                        failure.get_or_insert(e.into());
                        quit.store(true, Ordering::Relaxed);
                        continue;
                    }
                    written += 1;
                    on_event(Event::Finished {
                        row: Box::new(row),
                        done: written,
                        todo,
                    });
                }
                Err(Error::Stopped { .. }) => {}
                Err(e) => {
                    failure.get_or_insert(e);
                    quit.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if is_stopped() && written < todo {
        return Err(Error::Stopped {
            done: Some(written),
        });
    }
    Ok(Report::new(db.rows()?))
}

/// The report of the database at `db` (which must exist).
pub fn report(db: &Path) -> Result<Report> {
    Ok(Report::new(Db::open_existing(db)?.rows()?))
}
