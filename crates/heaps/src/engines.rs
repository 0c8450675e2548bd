//! The sequence engines behind [`Heaps`](crate::Heaps), each with the same contract, and the
//! choice among them.
//!
//! An engine computes G(0..=n) of a rule exactly, in the rule's natural heap sizes, reporting
//! progress and stopping through a callback; no result depends on which engine ran. Two
//! exist: [`Reference`] (the plain engines of `grundy-heap`: mex over every option, or the
//! subtraction engines) and [`RecordEngine`] (the rare/common engine of `grundy-sparse`, for
//! take-and-break codes that split heaps). [`Heaps::engine`](crate::Heaps) picks one from the
//! caller's [`EngineChoice`] and the number of heaps.

use grundy_heap::periodicity::{self, Periodicity};
use grundy_heap::rule::Rule;
use grundy_heap::TakeBreak;
use grundy_sparse::Plan;

use crate::compute::{EngineChoice, EngineUsed};
use crate::error::{Error, Result};

/// `Auto` uses the sparse engine from this many heaps on: below, the reference engine is as
/// fast and starts at once.
pub const AUTO_SPARSE_MIN_HEAPS: u64 = 4096;

/// The work a period search chosen by the library (not asked for by the caller) may take:
/// about this many moves examined by the plain engines, a few seconds.
pub const DEFAULT_WORK_BUDGET: u64 = 1 << 30;

/// A progress callback: heaps done; false stops the engine.
pub(crate) type Tick<'t> = &'t mut dyn FnMut(u64) -> bool;

/// One sequence engine: G(0..=n) of the rule it was made for, exactly.
pub(crate) trait SequenceEngine {
    /// Which engine this is, as results report it.
    fn used(&self) -> EngineUsed;
    /// Bytes G(0..=n) takes while computed and handed back, roughly.
    fn memory(&self, n: u64) -> u64;
    /// G(0..=n) in natural heap sizes, or `None` when the engine declines the run (the
    /// rare/common split does not pay for the code, under the automatic choice).
    fn values(&self, n: u64, threads: usize, tick: Tick<'_>) -> Result<Option<Vec<u32>>>;
    /// G(h) for each heap h of `at` (each at most `n`), computed as [`Self::values`] does;
    /// engines with a compact table of their own read it instead of handing G(0..=n) back.
    fn values_at(
        &self,
        n: u64,
        at: &[u64],
        threads: usize,
        tick: Tick<'_>,
    ) -> Result<Option<Vec<u32>>> {
        Ok(self
            .values(n, threads, tick)?
            .map(|v| at.iter().map(|&h| v[h as usize]).collect()))
    }
    /// G(0..=n) for n = `start`, 2·`start`, … up to `limit` until a theorem proves the period
    /// (once, for rules no theorem covers), with the period found.
    fn until_proven(
        &self,
        start: u64,
        limit: u64,
        threads: usize,
        tick: Tick<'_>,
    ) -> Result<(Vec<u32>, Option<Periodicity>)>;
}

/// The plain engines: mex over every option, the subtraction engines for rules whose moves
/// leave at most one heap. The yardstick every faster engine is tested against.
pub(crate) struct Reference<'r> {
    pub(crate) rule: &'r Rule,
}

impl SequenceEngine for Reference<'_> {
    fn used(&self) -> EngineUsed {
        EngineUsed::Reference
    }

    fn memory(&self, n: u64) -> u64 {
        let len = n
            .saturating_add(self.rule.base_and_shift().1)
            .saturating_add(1);
        grundy_heap::engine::memory_estimate(self.rule, n).saturating_add(len.saturating_mul(4))
    }

    fn values(&self, n: u64, _threads: usize, tick: Tick<'_>) -> Result<Option<Vec<u32>>> {
        Ok(Some(grundy_heap::engine::sequence_with_progress(
            self.rule, n, tick,
        )?))
    }

    fn until_proven(
        &self,
        start: u64,
        limit: u64,
        _threads: usize,
        tick: Tick<'_>,
    ) -> Result<(Vec<u32>, Option<Periodicity>)> {
        Ok(periodicity::until_proven(self.rule, start, limit, tick)?)
    }
}

/// The rare/common engine for a take-and-break code: the code of the rule's base, whose values
/// from heap `shift` on are the rule's.
pub(crate) struct RecordEngine {
    pub(crate) code: TakeBreak,
    pub(crate) shift: u64,
    /// Chosen for the caller: declines where the rare/common split does not pay.
    pub(crate) auto: bool,
}

impl SequenceEngine for RecordEngine {
    fn used(&self) -> EngineUsed {
        EngineUsed::Sparse
    }

    fn memory(&self, n: u64) -> u64 {
        // 2 bytes a heap in the engine (u16), 4 in the copy handed back.
        n.saturating_add(self.shift)
            .saturating_add(1)
            .saturating_mul(6)
    }

    fn values(&self, n: u64, threads: usize, tick: Tick<'_>) -> Result<Option<Vec<u32>>> {
        let m = n
            .checked_add(self.shift)
            .ok_or_else(|| Error::Invalid(format!("{n} heaps is too many")))?;
        let v = if self.auto {
            // Where the rare/common split does not pay, the reference engine is as fast.
            grundy_sparse::values_if_it_pays(&self.code, m, threads, tick)?
        } else {
            Some(grundy_sparse::values_with_progress(
                &self.code, m, threads, tick,
            )?)
        };
        Ok(v.map(|mut v| {
            v.drain(..self.shift as usize);
            v
        }))
    }

    fn values_at(
        &self,
        n: u64,
        at: &[u64],
        threads: usize,
        tick: Tick<'_>,
    ) -> Result<Option<Vec<u32>>> {
        let m = n
            .checked_add(self.shift)
            .ok_or_else(|| Error::Invalid(format!("{n} heaps is too many")))?;
        let shifted: Vec<u64> = at.iter().map(|&h| h + self.shift).collect();
        Ok(grundy_sparse::values_at(
            &self.code, m, &shifted, threads, self.auto, tick,
        )?)
    }

    fn until_proven(
        &self,
        start: u64,
        limit: u64,
        threads: usize,
        tick: Tick<'_>,
    ) -> Result<(Vec<u32>, Option<Periodicity>)> {
        // Only chosen for codes without a shift (see `Heaps::proving_engine`).
        Ok(grundy_sparse::until_proven(
            &self.code, start, limit, threads, tick,
        )?)
    }
}

/// The code the sparse engine should run for `rule` under `choice` at `n` heaps, if any.
pub(crate) fn sparse_code(rule: &Rule, choice: EngineChoice, n: u64) -> Option<TakeBreak> {
    let Rule::Code(code) = rule.base_and_shift().0 else {
        return None;
    };
    match choice {
        EngineChoice::Reference => None,
        EngineChoice::Sparse => Some(code.clone()),
        EngineChoice::Auto => match Plan::new(code) {
            Ok(p) if p.has_splits() && n >= AUTO_SPARSE_MIN_HEAPS => Some(code.clone()),
            _ => None,
        },
    }
}

/// Refuses `EngineChoice::Sparse` for a rule the sparse engine cannot run, naming the rule.
pub(crate) fn check_sparse(rule: &Rule, choice: EngineChoice) -> Result<()> {
    if choice != EngineChoice::Sparse {
        return Ok(());
    }
    match rule.base_and_shift().0 {
        Rule::Code(code) => Plan::new(code)
            .map(|_| ())
            .map_err(|e| Error::Invalid(format!("'{rule}': {e}"))),
        _ => Err(Error::Invalid(format!(
            "'{rule}': the sparse engine runs take-and-break codes only"
        ))),
    }
}

/// The engine that computes G(0..=n) of `rule` under `choice`.
pub(crate) fn engine_for<'r>(
    rule: &'r Rule,
    choice: EngineChoice,
    n: u64,
) -> Box<dyn SequenceEngine + 'r> {
    let shift = rule.base_and_shift().1;
    match sparse_code(rule, choice, n.saturating_add(shift)) {
        Some(code) => Box::new(RecordEngine {
            code,
            shift,
            auto: choice == EngineChoice::Auto,
        }),
        None => Box::new(Reference { rule }),
    }
}

/// The engine that computes until the period is proven: the record engine for splitting codes
/// without a shift (it continues where it stopped, so the doubling costs nothing extra), else
/// the plain engines.
pub(crate) fn proving_engine<'r>(
    rule: &'r Rule,
    choice: EngineChoice,
    limit: u64,
) -> Box<dyn SequenceEngine + 'r> {
    if let (Some(code), 0) = (sparse_code(rule, choice, limit), rule.base_and_shift().1) {
        if Plan::new(&code).is_ok_and(|p| p.has_splits()) {
            return Box::new(RecordEngine {
                code,
                shift: 0,
                auto: false,
            });
        }
    }
    Box::new(Reference { rule })
}

/// Bytes a sequence G(0..=n) of `rule` needs while it is computed and held, roughly: the
/// engine's own storage plus the returned values (4 bytes a heap).
pub fn memory_estimate(rule: &Rule, n: u64) -> u64 {
    engine_for(rule, EngineChoice::Auto, n).memory(n)
}

/// How far a period search of `rule` that the caller did not bound goes: `limit`, or less
/// where the plain engines would need more than [`DEFAULT_WORK_BUDGET`] to get there (a code
/// that splits a heap into three is cubic). The sparse engine's rules keep `limit`.
pub(crate) fn proof_limit(rule: &Rule, engine: EngineChoice, limit: u64) -> u64 {
    let sparse = proving_engine(rule, engine, limit).used() == EngineUsed::Sparse;
    let work = |n| grundy_heap::engine::work_estimate(rule, n);
    if sparse || work(limit) <= DEFAULT_WORK_BUDGET {
        return limit;
    }
    // The largest n within the budget, by bisection (the estimate grows with n).
    let (mut lo, mut hi) = (0, limit);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if work(mid) <= DEFAULT_WORK_BUDGET {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo.max(1)
}
