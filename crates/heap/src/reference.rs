//! The reference engine: G(0..=n) of a take-and-break code by the plain mex method.
//!
//! For every heap it lists every move ([`crate::options::for_each_option`]), XORs the values
//! of the heaps left and takes the least value not among them. Nothing clever, so it is the
//! yardstick every faster engine (here and in `grundy-sparse`) is tested against.
//!
//! ```
//! use grundy_heap::{reference, rule};
//! let kayles = rule::parse_code("0.77").unwrap();
//! assert_eq!(reference::sequence(&kayles, 6), vec![0, 1, 2, 3, 1, 4, 3]);
//! ```
//!
//! Values are `u32` (they pass 255 in long runs); heap sizes are `u64` throughout.

use crate::code::TakeBreak;
use crate::options::for_each_option;

/// How often (in heaps) the progress callback is called, at the latest.
pub const PROGRESS_STEP: u64 = 1 << 12;

/// How often (in moves examined) the progress callback is called, at the latest: about
/// 0.01 s of work, so that a quadratic run (a splitting code to 10^6, where one heap has
/// a million moves) still reports, and can be stopped, promptly.
pub const PROGRESS_WORK: u64 = 1 << 22;

/// Why a sequence could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// G(0..=n) does not fit in memory (or `n + 1` overflows an index).
    #[error("cannot hold {0} + 1 values in memory")]
    TooLarge(u64),
    /// The progress callback asked to stop (returned `false`); the number is how far the run
    /// had got (heaps done, as last reported).
    #[error("stopped at heap {0}")]
    Stopped(u64),
}

/// The least natural number not marked, with marks reset in O(1) by bumping a stamp.
#[derive(Default)]
pub(crate) struct Mex {
    stamp: u32,
    seen: Vec<u32>,
}

impl Mex {
    pub(crate) fn start(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
    }

    pub(crate) fn mark(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.seen.len() {
            self.seen.resize((v + 1).max(2 * self.seen.len()), 0);
        }
        self.seen[v] = self.stamp;
    }

    pub(crate) fn mex(&self) -> u32 {
        self.mex_from(0)
    }

    /// The least unmarked value >= `from`.
    pub(crate) fn mex_from(&self, from: u32) -> u32 {
        let mut v = from as usize;
        while v < self.seen.len() && self.seen[v] == self.stamp {
            v += 1;
        }
        v as u32
    }
}

/// Allocates room for G(0..=n), or says it cannot.
pub(crate) fn alloc_values(n: u64) -> Result<Vec<u32>, EngineError> {
    let len = n
        .checked_add(1)
        .and_then(|l| usize::try_from(l).ok())
        .ok_or(EngineError::TooLarge(n))?;
    if len.checked_mul(4).is_none() {
        return Err(EngineError::TooLarge(n));
    }
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| EngineError::TooLarge(n))?;
    Ok(v)
}

/// G(0..=n) of `code`. Panics only if memory runs out; see [`try_sequence`].
pub fn sequence(code: &TakeBreak, n: u64) -> Vec<u32> {
    try_sequence(code, n, &mut |_| true).expect("sequence fits in memory")
}

/// G(0..=n) of `code`, calling `progress(heaps_done)` every [`PROGRESS_STEP`] heaps or
/// [`PROGRESS_WORK`] moves, whichever comes first, and once at the end (where its answer is
/// ignored: the work is done). When `progress` returns `false` the run stops with
/// [`EngineError::Stopped`].
pub fn try_sequence(
    code: &TakeBreak,
    n: u64,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Vec<u32>, EngineError> {
    let mut values = alloc_values(n)?;
    extend(code, &mut values, n, progress)?;
    Ok(values)
}

/// Extends `values` (G(0..len)) to G(0..=n) of `code`. Used to keep computing in steps.
/// Progress and stopping as in [`try_sequence`]; when stopped, `values` keeps every value
/// computed so far.
pub fn extend(
    code: &TakeBreak,
    values: &mut Vec<u32>,
    n: u64,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<(), EngineError> {
    let mut mex = Mex::default();
    let mut h = values.len() as u64;
    let mut work = 0u64;
    let mut last_report = h;
    while h <= n {
        mex.start();
        for_each_option(code, h, |_, parts| {
            let x = parts.iter().fold(0u32, |acc, &p| acc ^ values[p as usize]);
            mex.mark(x);
            work += 1;
        });
        values.push(mex.mex());
        h += 1;
        if work >= PROGRESS_WORK || h - last_report >= PROGRESS_STEP {
            work = 0;
            last_report = h;
            if !progress(h) {
                return Err(EngineError::Stopped(h));
            }
        }
    }
    // The run is complete: a request to stop now changes nothing, so the values are kept.
    progress(h);
    Ok(())
}

/// G(h) of a heap of `code`, from the values of smaller heaps (`values` must hold G(0..h)).
pub fn value_of(code: &TakeBreak, values: &[u32], h: u64) -> u32 {
    let mut mex = Mex::default();
    mex.start();
    for_each_option(code, h, |_, parts| {
        mex.mark(parts.iter().fold(0u32, |acc, &p| acc ^ values[p as usize]));
    });
    mex.mex()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::parse_code;

    fn seq(code: &str, n: u64) -> Vec<u32> {
        sequence(&parse_code(code).unwrap(), n)
    }

    #[test]
    fn small_games() {
        assert_eq!(seq("0.[3]", 10), (0..=10).collect::<Vec<u32>>());
        // Grundy's game, testdata/cgsuite/heap_sequences.txt
        assert_eq!(
            seq("4!.0", 20)[1..],
            [0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
        );
        // 0.3F: hexadecimal, splits into three heaps
        assert_eq!(
            seq("0.3F", 20)[1..],
            [1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8, 6, 7, 8, 9, 10, 11]
        );
    }

    #[test]
    fn stops_when_asked_and_reports_often() {
        // three moves a heap: reports every PROGRESS_STEP heaps
        let sub = parse_code("0.333").unwrap();
        let mut calls = 0;
        let r = try_sequence(&sub, 1 << 20, &mut |h| {
            calls += 1;
            h < 3 * PROGRESS_STEP
        });
        assert_eq!(r, Err(EngineError::Stopped(3 * PROGRESS_STEP)));
        assert_eq!(calls, 3);
        // a quadratic code reports by work, not only every PROGRESS_STEP heaps
        let mut reports = Vec::new();
        let v = try_sequence(&parse_code("0.137").unwrap(), 10_000, &mut |h| {
            reports.push(h);
            true
        })
        .unwrap();
        assert_eq!(v.len(), 10_001);
        assert!(reports.len() >= 5, "{reports:?}");
        assert!(reports.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn large_values_and_extend() {
        let nim = parse_code("0.[3]").unwrap();
        let mut v = sequence(&nim, 300);
        assert_eq!(v[300], 300);
        extend(&nim, &mut v, 400, &mut |_| true).unwrap();
        assert_eq!(v.len(), 401);
        assert_eq!(v[400], 400);
        assert!(matches!(
            try_sequence(&nim, u64::MAX, &mut |_| true),
            Err(EngineError::TooLarge(_))
        ));
    }
}
