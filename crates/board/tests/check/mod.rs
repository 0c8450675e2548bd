//! What the second-path checks of docs/results.md share (`tests/petersen.rs`,
//! `tests/queens.rs`, `tests/expand.rs`, `tests/known.rs`): an OEIS file's terms, the range of a long check from
//! the environment, and one printed line per size. Not every test uses every function.

#![allow(dead_code)]

/// The `n a(n)` pairs of a `testdata/oeis/` file's text (`#` lines are its header).
pub fn terms(text: &str) -> Vec<(usize, u64)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (n, v) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), v.trim().parse().unwrap())
        })
        .collect()
}

/// `(from, upto)` from the environment variables `check` (`N`, required) and `from` (`M`,
/// default `default_from`); `None` without `check`.
pub fn env_range(check: &str, from: &str, default_from: usize) -> Option<(usize, usize)> {
    let upto = std::env::var(check).ok()?;
    let upto = upto.parse().unwrap_or_else(|_| panic!("{check}=N"));
    let from = std::env::var(from)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_from);
    Some((from, upto))
}

/// Values each size of `sizes` by `value` (the value and the positions memoised) and prints
/// `n value positions wall-seconds cpu-seconds`, the CPU seconds of this thread.
pub fn print_runs(sizes: impl Iterator<Item = usize>, value: impl Fn(usize) -> (u64, usize)) {
    for n in sizes {
        let (t, cpu) = (std::time::Instant::now(), thread_cpu());
        let (v, memo) = value(n);
        let spent = thread_cpu().zip(cpu).map(|(b, a)| format!("{:.2}", b - a));
        println!(
            "{n} {v} {memo} {:.2} {}",
            t.elapsed().as_secs_f64(),
            spent.unwrap_or_else(|| "-".into())
        );
    }
}

/// The CPU seconds this thread has run (Linux's `/proc/thread-self/schedstat`, nanoseconds on
/// the CPU), or `None` where that cannot be read: the check's cost on a shared machine, where
/// wall seconds say little.
fn thread_cpu() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}
