//! Faster engines for games whose moves leave at most one heap (subtraction-like games).
//!
//! * [`quaternary_sequence`]: codes whose digits are all below 4, finite or with a repeating
//!   tail. This covers finite subtraction sets, all-but games, `sub:odd`, `sub:even`, Nim and
//!   odd-even Nim. A finite code costs O(t) per heap (t = the largest removal). For a tail of
//!   period q starting at r, the heaps reachable through the tail from heap n are all heaps
//!   m <= n - r in certain residue classes mod q, fixed by n mod q; so for each residue of n a
//!   set of values that only grows is kept, with a mex pointer that only moves up: O(q) per heap
//!   amortized instead of O(n).
//! * [`sparse_set_sequence`]: infinite sets that are not periodic (Fibonacci numbers, powers of
//!   two, squares, primes). Still one look per member of S below n, but blocked: heaps are
//!   done 1024 at a time, and each member s >= 1024 reads a contiguous run of earlier values
//!   into per-heap 64-bit masks (values < 64; a heap whose mex reaches 64 is redone by a full
//!   scan). The memory traffic becomes sequential and the inner loop vectorises.
//!
//! Both are tested against the reference engine / a direct scan on random rules.
//!
//! ```
//! use grundy_heap::{rule, subtraction};
//! let sub = rule::parse("sub:1,3,4").unwrap().take_break().unwrap();
//! let v = subtraction::quaternary_sequence(&sub, 9, &mut |_| true).unwrap().unwrap();
//! assert_eq!(v, vec![0, 1, 0, 1, 2, 3, 2, 0, 1, 0]);
//! ```

use crate::code::TakeBreak;
use crate::reference::{alloc_values, EngineError, PROGRESS_STEP, PROGRESS_WORK};
use crate::rule::InfiniteSet;

/// True when [`quaternary_sequence`] handles `code` (all digits below 4, nothing before the point).
pub fn is_quaternary(code: &TakeBreak) -> bool {
    code.digits.first().is_none_or(|d| d.mask == 0) && code.digits.iter().all(|d| d.mask < 4)
}

/// A set of values that only grows, answering "the least absent value >= v" in near O(1)
/// (union-find: an present value points to the next one up).
#[derive(Default, Clone)]
struct NextAbsent(Vec<u32>);

impl NextAbsent {
    fn grow(&mut self, v: u32) {
        let need = v as usize + 2;
        if need > self.0.len() {
            let start = self.0.len() as u32;
            let target = need.max(self.0.len() * 2);
            self.0.extend(start..target as u32);
        }
    }
    fn insert(&mut self, v: u32) {
        self.grow(v);
        self.0[v as usize] = self.0[v as usize].max(v + 1);
    }
    fn find(&mut self, v: u32) -> u32 {
        self.grow(v);
        let mut root = v;
        while self.0[root as usize] != root {
            root = self.0[root as usize];
            self.grow(root);
        }
        let mut x = v;
        while self.0[x as usize] != root {
            let next = self.0[x as usize];
            self.0[x as usize] = root;
            x = next;
        }
        root
    }
}

/// G(0..=n) of a quaternary code (see [`is_quaternary`]); `None` when the code is not one.
/// Calls `progress(heaps_done)` every [`PROGRESS_STEP`] heaps or [`PROGRESS_WORK`] steps of
/// work, whichever comes first; when it returns `false` the run stops with
/// [`EngineError::Stopped`].
pub fn quaternary_sequence(
    code: &TakeBreak,
    n: u64,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Option<Result<Vec<u32>, EngineError>> {
    if !is_quaternary(code) {
        return None;
    }
    let mut values = match alloc_values(n) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    values.push(0);
    let (r, q) = match code.repeat_from {
        Some(r) if r < code.digits.len() && r >= 1 => (r as u64, (code.digits.len() - r) as u64),
        _ => (code.digits.len() as u64, 0),
    };
    // Per residue of n mod q: values present among tail options, and how far m is filled.
    let mut present = vec![NextAbsent::default(); q as usize];
    let mut filled = vec![0u64; q as usize];
    let mut empty = NextAbsent::default();
    let mut extras: Vec<u32> = Vec::with_capacity(r as usize + 1);
    let mut work = 0u64;
    let mut last_report = 0u64;
    // The removals of the direct part that have a move at all: a set like {1, 10^6} has two,
    // not a million digits to scan for every heap.
    let direct: Vec<(u64, u8)> = (1..r)
        .map(|i| (i, code.digits[i as usize].mask))
        .filter(|&(_, d)| d & 3 != 0)
        .collect();
    for h in 1..=n {
        extras.clear();
        // Direct part: removals 1..min(r - 1, h).
        let reach = direct.partition_point(|&(i, _)| i <= h);
        work += reach as u64 + 1;
        for &(i, d) in &direct[..reach] {
            if i == h && d & 1 != 0 {
                extras.push(0);
            }
            if i < h && d & 2 != 0 {
                extras.push(values[(h - i) as usize]);
            }
        }
        let set = if q > 0 && h >= r {
            if code.digit(h).mask & 1 != 0 {
                extras.push(0);
            }
            let rho = (h % q) as usize;
            // Heaps m in 1..=h-r reached by removing i = h - m, with i's digit allowing one heap.
            let upto = h - r;
            work += upto.saturating_sub(filled[rho]);
            let mut m = filled[rho] + 1;
            while m <= upto {
                if code.digit(h - m).mask & 2 != 0 {
                    present[rho].insert(values[m as usize]);
                }
                m += 1;
            }
            filled[rho] = upto;
            &mut present[rho]
        } else {
            &mut empty
        };
        let mut v = set.find(0);
        while extras.contains(&v) {
            v = set.find(v + 1);
        }
        values.push(v);
        if work >= PROGRESS_WORK || h - last_report >= PROGRESS_STEP {
            work = 0;
            last_report = h;
            if !progress(h) {
                return Some(Err(EngineError::Stopped(h)));
            }
        }
    }
    progress(n); // done: a request to stop changes nothing now
    Some(Ok(values))
}

/// Heaps per block of [`sparse_set_sequence`].
const BLOCK: u64 = 1024;

/// G(0..=n) of the subtraction game on an infinite non-periodic set. Calls
/// `progress(heaps_done)` after every block of heaps and every [`PROGRESS_WORK`] steps of
/// work inside a block; when it returns `false` the run stops with [`EngineError::Stopped`].
pub fn sparse_set_sequence(
    set: InfiniteSet,
    n: u64,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Vec<u32>, EngineError> {
    let mut values = alloc_values(n)?;
    let members = set.members_upto(n);
    let mut masks = vec![0u64; BLOCK as usize];
    let mut mex = crate::reference::Mex::default();
    let mut h0 = 0u64;
    while h0 <= n {
        let end = n.min(h0 + BLOCK - 1); // the block is h0..=end
        let len = (end - h0 + 1) as usize;
        masks[..len].iter_mut().for_each(|m| *m = 0);
        let mut work = 0u64;
        // Far moves (s >= BLOCK) only reach heaps below the block: contiguous reads.
        for &s in members.iter().filter(|&&s| s >= BLOCK && s <= end) {
            let first = s.max(h0); // heaps h >= s only
            let from = (first - s) as usize;
            let src = &values[from..from + (end - first + 1) as usize];
            let dst = &mut masks[(first - h0) as usize..len];
            for (m, &v) in dst.iter_mut().zip(src) {
                if v < 64 {
                    *m |= 1 << v;
                }
            }
            work += len as u64;
            if work >= PROGRESS_WORK {
                work = 0;
                if !progress(h0) {
                    return Err(EngineError::Stopped(h0));
                }
            }
        }
        for h in h0..=end {
            let j = (h - h0) as usize;
            let mut m = masks[j];
            for &s in members.iter().take_while(|&&s| s < BLOCK && s <= h) {
                let v = values[(h - s) as usize];
                if v < 64 {
                    m |= 1 << v;
                }
            }
            let mut g = m.trailing_ones();
            if g == 64 {
                // Values of 64 and more: mark everything the slow way.
                mex.start();
                for &s in members.iter().take_while(|&&s| s <= h) {
                    mex.mark(values[(h - s) as usize]);
                }
                g = mex.mex();
            }
            values.push(g);
        }
        if end < n && !progress(end + 1) {
            return Err(EngineError::Stopped(end + 1));
        }
        h0 = end + 1;
    }
    progress(n + 1); // done: a request to stop changes nothing now
    Ok(values)
}

/// G(0..=n) of a subtraction game by scanning every member of the set up to each heap
/// (the straightforward method, used to test the engines above).
pub fn direct_sequence(members: &[u64], n: u64) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::with_capacity(n as usize + 1);
    let mut mex = crate::reference::Mex::default();
    for h in 0..=n {
        mex.start();
        for &s in members.iter().take_while(|&&s| s <= h) {
            mex.mark(values[(h - s) as usize]);
        }
        values.push(mex.mex());
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::Digit;
    use crate::reference;
    use proptest::prelude::*;

    fn code(masks: &[u8], repeat_from: Option<usize>) -> TakeBreak {
        let mut digits = vec![Digit::default()];
        digits.extend(masks.iter().map(|&mask| Digit {
            mask,
            ..Digit::default()
        }));
        TakeBreak {
            digits,
            repeat_from,
        }
    }

    proptest! {
        #[test]
        fn quaternary_matches_reference(masks in prop::collection::vec(0u8..4, 1..8),
                                        tail in 0usize..4, n in 0u64..120) {
            let repeat = if tail == 0 { None } else { Some((masks.len() + 1).saturating_sub(tail).max(1)) };
            let c = code(&masks, repeat);
            let fast = quaternary_sequence(&c, n, &mut |_| true).unwrap().unwrap();
            prop_assert_eq!(fast, reference::sequence(&c, n));
        }
    }

    #[test]
    fn sparse_sets_match_direct_scan() {
        for set in [
            InfiniteSet::Fib,
            InfiniteSet::Pow2,
            InfiniteSet::Squares,
            InfiniteSet::Primes,
        ] {
            let n = 20_000;
            let direct = direct_sequence(&set.members_upto(n), n);
            assert_eq!(
                sparse_set_sequence(set, n, &mut |_| true).unwrap(),
                direct,
                "{set:?}"
            );
        }
    }

    #[test]
    fn odd_even_nim_and_nim() {
        let oen = crate::rule::parse_code("0.[12]").unwrap();
        let v = quaternary_sequence(&oen, 40, &mut |_| true)
            .unwrap()
            .unwrap();
        assert_eq!(v, reference::sequence(&oen, 40));
        let nim = crate::rule::parse_code("0.[3]").unwrap();
        let v = quaternary_sequence(&nim, 100_000, &mut |_| true)
            .unwrap()
            .unwrap();
        assert!(v.iter().enumerate().all(|(i, &g)| g as usize == i));
    }
}
