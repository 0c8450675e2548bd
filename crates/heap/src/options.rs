//! The moves from one heap of a take-and-break game, listed one by one.
//!
//! A move removes `i` tokens (digit `d_i`) and leaves `k` non-empty heaps (bit `k` of the
//! digit). The heaps left are listed once each as a non-decreasing tuple, filtered by the
//! digit's constraint, which only concerns splits into two or more heaps.
//!
//! ```
//! use grundy_heap::{options::for_each_option, rule::parse_code};
//! let mut moves = Vec::new();
//! for_each_option(&parse_code("0.07").unwrap(), 5, |removed, left| moves.push((removed, left.to_vec())));
//! // Dawson's Kayles: remove 2, leaving one heap or two
//! assert_eq!(moves, vec![(2, vec![3]), (2, vec![1, 2])]);
//! ```

use crate::code::{Constraint, TakeBreak};

/// Calls `f(removed, heaps_left)` for every move from a heap of `n` tokens (`heaps_left`
/// is non-decreasing, possibly empty). Loops only, no recursion; at most 4 heaps are left.
pub fn for_each_option(code: &TakeBreak, n: u64, mut f: impl FnMut(u64, &[u64])) {
    let last = match code.max_removal() {
        Some(t) => t.min(n),
        None if code.is_finite() => return,
        None => n,
    };
    for i in 0..=last {
        let d = code.digit(i);
        if d.mask == 0 {
            continue;
        }
        let rest = n - i;
        for k in 0..=4u32 {
            if d.mask & (1 << k) != 0 {
                for_each_split(rest, k, d.constraint, |parts| f(i, parts));
            }
        }
    }
}

/// Calls `f(parts)` for every way to write `rest` as `k` positive non-decreasing parts
/// (`k <= 4`) that satisfies `constraint`. `k = 1` with `rest = n` never occurs for removals
/// of 0 because the parser rejects such digits.
pub fn for_each_split(rest: u64, k: u32, constraint: Constraint, mut f: impl FnMut(&[u64])) {
    let ok = |p: &[u64]| -> bool {
        if p.len() < 2 {
            return true;
        }
        match constraint {
            Constraint::Any => true,
            Constraint::Unequal => p.windows(2).all(|w| w[0] < w[1]),
            Constraint::NotAllEqual => p.windows(2).any(|w| w[0] != w[1]),
            Constraint::AllEqual => p.windows(2).all(|w| w[0] == w[1]),
        }
    };
    match k {
        0 if rest == 0 => {
            f(&[]);
        }
        1 if rest >= 1 => {
            f(&[rest]);
        }
        2 => {
            if constraint == Constraint::AllEqual {
                if rest >= 2 && rest.is_multiple_of(2) {
                    f(&[rest / 2, rest / 2]);
                }
                return;
            }
            if constraint == Constraint::Any {
                for a in 1..=rest / 2 {
                    f(&[a, rest - a]);
                }
                return;
            }
            for a in 1..=rest / 2 {
                let p = [a, rest - a];
                if ok(&p) {
                    f(&p);
                }
            }
        }
        3 => {
            if constraint == Constraint::AllEqual {
                if rest >= 3 && rest.is_multiple_of(3) {
                    f(&[rest / 3; 3]);
                }
                return;
            }
            for a in 1..=rest / 3 {
                for b in a..=(rest - a) / 2 {
                    let p = [a, b, rest - a - b];
                    if ok(&p) {
                        f(&p);
                    }
                }
            }
        }
        4 => {
            if constraint == Constraint::AllEqual {
                if rest >= 4 && rest.is_multiple_of(4) {
                    f(&[rest / 4; 4]);
                }
                return;
            }
            for a in 1..=rest / 4 {
                for b in a..=(rest - a) / 3 {
                    for c in b..=(rest - a - b) / 2 {
                        let p = [a, b, c, rest - a - b - c];
                        if ok(&p) {
                            f(&p);
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::parse_code;

    fn count(code: &str, n: u64) -> usize {
        let c = parse_code(code).unwrap();
        let mut k = 0;
        for_each_option(&c, n, |_, _| k += 1);
        k
    }

    #[test]
    fn option_counts_match_cgsuite() {
        // opts20 in testdata/cgsuite/heap_sequences.txt: CGSuite's own option counts of heap 20.
        assert_eq!(count("0.77", 20), 20);
        assert_eq!(count("0.07", 20), 10);
        assert_eq!(count("4!.0", 20), 9);
        assert_eq!(count("0.0330003", 20), 3);
        assert_eq!(count("0.3F", 20), 38);
        assert_eq!(count("0.[3]", 20), 20);
    }

    #[test]
    fn splits() {
        let mut v = Vec::new();
        for_each_split(9, 3, Constraint::Unequal, |p| v.push(p.to_vec()));
        assert_eq!(v, vec![vec![1, 2, 6], vec![1, 3, 5], vec![2, 3, 4]]);
        let mut n = 0;
        for_each_split(8, 4, Constraint::Any, |_| n += 1);
        assert_eq!(n, 5); // 1115 1124 1133 1223 2222
    }
}
