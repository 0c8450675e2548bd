//! G(0..=n) of any [`Rule`], by the best engine in this crate for it, with the named games'
//! heap-size shift applied.
//!
//! ```
//! use grundy_heap::{engine, rule};
//! let crosses = rule::parse("crosses").unwrap();
//! // BOJ 3596: a 1×6 strip is a second-player win
//! assert_eq!(engine::sequence(&crosses, 6).unwrap()[6], 0);
//! ```

use crate::reference::{self, EngineError};
use crate::rule::{Rule, SubtractionSet};
use crate::subtraction;

/// Bytes of memory a run to `n` needs, roughly (values plus engine bookkeeping).
pub fn memory_estimate(rule: &Rule, n: u64) -> u64 {
    let (base, shift) = rule.base_and_shift();
    let len = n.saturating_add(shift).saturating_add(1);
    // 4 bytes per value; the one-heap engines keep a union-find over values (4 more), the
    // sparse-set engine a position list (8) and a membership bit set.
    let per_heap = match base {
        Rule::Subtraction(SubtractionSet::Infinite(_)) => 4 + 8 + 1,
        _ => 4 + 4,
    };
    len.saturating_mul(per_heap)
}

/// Moves the engines of this crate examine to compute G(0..=n) of `rule`, roughly (an
/// overestimate): about n per digit for moves that leave at most one heap, and for a code whose
/// moves may leave k ≥ 2 heaps, the ways to split each heap into k parts, about n^k / (k·k!·(k−1)!)
/// per digit. Callers that choose how far to compute by themselves (a period search) keep this
/// within a budget, so that a code splitting into three heaps is not searched to 2^22.
///
/// ```
/// use grundy_heap::{engine::work_estimate, rule::parse};
/// assert!(work_estimate(&parse("0.33").unwrap(), 1000) < 10_000); // linear
/// assert!(work_estimate(&parse("0.07").unwrap(), 1000) > 100_000); // quadratic
/// assert!(work_estimate(&parse("0.3F").unwrap(), 1 << 22) > 1 << 60);
/// ```
pub fn work_estimate(rule: &Rule, n: u64) -> u64 {
    let (base, shift) = rule.base_and_shift();
    let m = n.saturating_add(shift).saturating_add(1);
    let Rule::Code(code) = base else {
        // Subtraction sets: one-heap moves, the linear engines.
        return m.saturating_mul(64);
    };
    // Digits that remove at most m tokens, each counted by the most heaps its moves leave.
    let digits = if code.is_finite() {
        code.digits.len() as u64
    } else {
        m
    };
    let most_heaps = (0..digits.min(m).min(1 << 16))
        .map(|i| 8 - code.digit(i).mask.leading_zeros() as u64)
        .max()
        .unwrap_or(0)
        .saturating_sub(1);
    if most_heaps <= 1 {
        return m.saturating_mul(digits.max(1));
    }
    let k = most_heaps as u32;
    let fact = |j: u32| (1..=u64::from(j)).product::<u64>();
    let per_digit = m.saturating_pow(k) / (u64::from(k) * fact(k) * fact(k - 1)).max(1);
    per_digit.max(m).saturating_mul(digits.min(m).max(1))
}

/// G(0..=n) of `rule`, calling `progress(heaps_done)` now and then (at least every
/// [`reference::PROGRESS_STEP`] heaps or [`reference::PROGRESS_WORK`] steps of work, about
/// every 0.01 s). When `progress` returns `false` the run stops and returns
/// [`EngineError::Stopped`] (how a front end stops on Ctrl-C). For named games with a shift
/// the heaps counted are those of the underlying code.
///
/// ```
/// use grundy_heap::{engine, reference::EngineError, rule};
/// let kayles = rule::parse("kayles").unwrap();
/// let stop_early = engine::sequence_with_progress(&kayles, 1 << 20, &mut |done| done < 10_000);
/// assert!(matches!(stop_early, Err(EngineError::Stopped(_))));
/// ```
pub fn sequence_with_progress(
    rule: &Rule,
    n: u64,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Vec<u32>, EngineError> {
    let (base, shift) = rule.base_and_shift();
    let m = n.checked_add(shift).ok_or(EngineError::TooLarge(n))?;
    let mut values = base_sequence(base, m, progress)?;
    values.drain(..shift as usize);
    Ok(values)
}

/// G(0..=n) of `rule`.
pub fn sequence(rule: &Rule, n: u64) -> Result<Vec<u32>, EngineError> {
    sequence_with_progress(rule, n, &mut |_| true)
}

fn base_sequence(
    rule: &Rule,
    n: u64,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Vec<u32>, EngineError> {
    if let Rule::Subtraction(SubtractionSet::Infinite(set)) = rule {
        if let Some(code) = rule.take_break() {
            if let Some(r) = subtraction::quaternary_sequence(&code, n, progress) {
                return r;
            }
        }
        return subtraction::sparse_set_sequence(*set, n, progress);
    }
    let code = rule
        .take_break()
        .expect("every rule but sparse infinite sets is a code");
    if let Some(r) = subtraction::quaternary_sequence(&code, n, progress) {
        return r;
    }
    reference::try_sequence(&code, n, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::parse;

    #[test]
    fn shift_and_dispatch() {
        let crosses = sequence(&parse("crosses").unwrap(), 30).unwrap();
        let code = sequence(&parse("0.007").unwrap(), 32).unwrap();
        assert_eq!(crosses[..], code[2..]);
        assert_eq!(
            sequence(&parse("sub:odd").unwrap(), 9).unwrap(),
            vec![0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
        );
        assert_eq!(
            sequence(&parse("allbut:").unwrap(), 5).unwrap(),
            vec![0, 1, 2, 3, 4, 5]
        );
    }
}
