//! Stopping cleanly: a progress callback returning false stops at the next block boundary
//! with `Error::Stopped`, and a run with a checkpoint keeps everything it computed.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{code, grundys_game};
use grundy_heap::TakeBreak;
use grundy_sparse::{Error, Progress, RunOptions, Saved, Store};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-stop-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn opts(upto: u64, checkpoint: Option<&Path>, save: Option<&Path>) -> RunOptions {
    RunOptions {
        upto,
        threads: 2,
        checkpoint: checkpoint.map(Path::to_path_buf),
        checkpoint_every: Duration::from_secs(3600),
        save: save.map(Path::to_path_buf),
        find_period: true,
        window: false,
        window_depth: None,
    }
}

/// Runs `code` as `o` says, answering true to the first report (before any block) and to the
/// next `blocks - 1`, then false (stop); returns the reports seen and the result.
fn stopped_run(
    code: &TakeBreak,
    o: &RunOptions,
    blocks: usize,
) -> (Vec<Progress>, Result<grundy_sparse::Outcome, Error>) {
    let mut seen = Vec::new();
    let out = grundy_sparse::run(code, o, &mut |p| {
        seen.push(p);
        seen.len() <= blocks
    });
    (seen, out)
}

#[test]
fn values_and_until_proven_stop_with_stopped() {
    let g = grundys_game();
    let mut calls = 0;
    let err = grundy_sparse::values_with_progress(&g, 100_000, 2, &mut |_| {
        calls += 1;
        calls < 3
    })
    .unwrap_err();
    let Error::Stopped { done } = err else {
        panic!("expected Stopped, got {err:?}")
    };
    assert!(done > 0 && done < 100_001, "{done}");
    assert_eq!(err.to_string(), format!("stopped at heap {done}"));
    assert_eq!(calls, 3);

    let err = grundy_sparse::until_proven(&code("0.16"), 1 << 12, 1 << 20, 1, &mut |_| false)
        .unwrap_err();
    assert!(matches!(err, Error::Stopped { done } if done > 0 && done <= 1 << 12));

    // A stop asked with the last block changes nothing.
    let v = grundy_sparse::values_with_progress(&g, 100, 1, &mut |_| false).unwrap();
    assert_eq!(v, grundy_sparse::values(&g, 100, 1).unwrap());
}

/// The checkpoint written at the stop holds exactly what was computed; resuming reports where
/// it starts in its first progress and ends with the values of an uninterrupted run.
#[test]
fn stopped_run_resumes_where_it_stopped() {
    let g = grundys_game();
    let upto = 60_000;
    let dir = fresh_dir("resume");
    let (seen, out) = stopped_run(&g, &opts(upto, Some(&dir), None), 3);
    let Err(Error::Stopped { done }) = out else {
        panic!("expected Stopped, got {:?}", out.map(|o| o.summary))
    };
    // The first report comes before any block; the third block's report said stop.
    assert_eq!(
        seen[0],
        Progress {
            done: 0,
            total: upto + 1,
            resumed_at: 0
        }
    );
    assert_eq!(seen.len(), 4);
    assert_eq!(seen.last().unwrap().done, done);
    assert!(done > 0 && done < upto + 1);
    let (state, tail) = Store::open(&dir, &g, upto)
        .unwrap()
        .read_state()
        .unwrap()
        .unwrap();
    assert_eq!(state.done, done);
    let full = grundy_sparse::values(&g, upto, 1).unwrap();
    assert_eq!(tail, full[..done as usize]);

    let mut first = None;
    let out = grundy_sparse::run(&g, &opts(upto, Some(&dir), None), &mut |p| {
        first.get_or_insert(p);
        true
    })
    .unwrap();
    assert_eq!(
        first,
        Some(Progress {
            done,
            total: upto + 1,
            resumed_at: done
        })
    );
    assert_eq!(out.resumed_at, done);
    assert_eq!(out.engine.values(), full);
    let uninterrupted = grundy_sparse::run(&g, &opts(upto, None, None), &mut |_| true).unwrap();
    assert_eq!(out.summary, uninterrupted.summary);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Stopped twice, then finished: each resume starts where the previous stop wrote.
#[test]
fn repeated_stops_lose_nothing() {
    let c = code("0.161");
    let upto = 40_000;
    let dir = fresh_dir("twice");
    let mut at = 0;
    for _ in 0..2 {
        let (seen, out) = stopped_run(&c, &opts(upto, Some(&dir), None), 2);
        assert_eq!(seen[0].resumed_at, at);
        let Err(Error::Stopped { done }) = out else {
            panic!("expected Stopped")
        };
        assert!(done > at);
        at = done;
    }
    let out = grundy_sparse::run(&c, &opts(upto, Some(&dir), None), &mut |_| true).unwrap();
    assert_eq!(out.resumed_at, at);
    assert_eq!(
        out.engine.values(),
        grundy_sparse::values(&c, upto, 1).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without a checkpoint the stop is the same error; a save directory gets what was computed.
#[test]
fn stop_without_checkpoint_fills_the_save() {
    let g = grundys_game();
    let upto = 50_000;
    let dir = fresh_dir("save");
    let (_, out) = stopped_run(&g, &opts(upto, None, Some(&dir)), 1);
    let Err(Error::Stopped { done }) = out else {
        panic!("expected Stopped")
    };
    let mut saved = Saved::open(&dir, &g).unwrap();
    assert_eq!(saved.len(), done);
    let full = grundy_sparse::values(&g, upto, 1).unwrap();
    for n in [0, 1, done / 2, done - 1] {
        assert_eq!(saved.get(n).unwrap(), Some(full[n as usize]));
    }
    assert_eq!(saved.get(done).unwrap(), None);
    let (_, out) = stopped_run(&g, &opts(upto, None, None), 0);
    assert!(matches!(out, Err(Error::Stopped { done: 0 })));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A huge thread request is capped (no thread-stack exhaustion) and computes the same values.
#[test]
fn huge_thread_counts_are_capped() {
    assert!(grundy_sparse::max_threads(100_000) <= grundy_sparse::MAX_THREADS);
    assert!(grundy_sparse::max_threads(0) >= 1);
    assert_eq!(grundy_sparse::max_threads(1), 1);
    let g = grundys_game();
    assert_eq!(
        grundy_sparse::values(&g, 5000, 100_000).unwrap(),
        grundy_sparse::values(&g, 5000, 1).unwrap()
    );
}
