//! Sums of heaps of one rule: the value (XOR of the heaps' values), the outcome, and every
//! winning move, phrased as "from the heap of 12, remove 2 and split the rest into 3 + 7".

use std::fmt;

use crate::engine;
use crate::options::for_each_option;
use crate::reference::EngineError;
use crate::rule::{Rule, SubtractionSet};

/// One move in one heap, in the rule's natural heap sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapMove {
    /// Which heap of the position (0-based).
    pub heap_index: usize,
    /// Its size before the move.
    pub heap: u64,
    /// Tokens removed (heap minus the heaps left).
    pub removed: u64,
    /// The heaps left in its place, non-decreasing (empty: the heap is gone).
    pub leaves: Vec<u64>,
}

impl fmt::Display for HeapMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = self
            .leaves
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" + ");
        match (self.removed, self.leaves.len()) {
            (_, 0) => write!(
                f,
                "from the heap of {}, remove all {}",
                self.heap, self.heap
            ),
            (0, _) => write!(f, "split the heap of {} into {}", self.heap, parts),
            (r, 1) => write!(
                f,
                "from the heap of {}, remove {}, leaving {}",
                self.heap, r, parts
            ),
            (r, _) => write!(
                f,
                "from the heap of {}, remove {} and split the rest into {}",
                self.heap, r, parts
            ),
        }
    }
}

/// Who wins a position with best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player to move wins.
    N,
    /// The player to move loses.
    P,
}

impl Outcome {
    /// `"N"` or `"P"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::N => "N",
            Outcome::P => "P",
        }
    }
}

/// Value, outcome and winning moves of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumAnalysis {
    /// The Grundy value of each heap.
    pub heap_values: Vec<u32>,
    /// Their XOR: the value of the position.
    pub grundy: u32,
    pub outcome: Outcome,
    /// Every move to a position of value 0 (empty when the outcome is P), except in the
    /// heaps of `unlisted_heaps`.
    pub winning_moves: Vec<HeapMove>,
    /// Heaps (indices) that have a winning move that was not listed (see [`analyze_with`]).
    pub unlisted_heaps: Vec<usize>,
}

/// Calls `f(removed, leaves)` for every move from a heap of natural size `h` of `rule`,
/// with `leaves` in natural sizes. `base_small` holds G_base(0..=shift) for named games.
pub fn for_each_move(rule: &Rule, h: u64, base_small: &[u32], mut f: impl FnMut(u64, &[u64])) {
    let (base, shift) = rule.base_and_shift();
    if let Rule::Subtraction(SubtractionSet::Infinite(set)) = base {
        for s in set.members_upto(h + shift) {
            let rest = h + shift - s;
            if rest == 0 {
                f(s, &[]);
            } else {
                f(s, &[rest - shift.min(rest)]);
            }
        }
        return;
    }
    let Some(code) = base.take_break() else {
        return;
    };
    let mut natural: Vec<u64> = Vec::with_capacity(4);
    for_each_option(&code, h + shift, |_, parts| {
        natural.clear();
        for &p in parts {
            // A base heap of size <= shift is no natural heap; it is only dropped when it is worth 0.
            if p > shift {
                natural.push(p - shift);
            } else if base_small.get(p as usize).copied().unwrap_or(0) != 0 {
                natural.push(0);
            }
        }
        let left: u64 = natural.iter().sum();
        f(h.saturating_sub(left), &natural);
    });
}

/// Analyses the position `heaps` of `rule`. `values` must hold G(0..=max heap) in natural
/// sizes (as from [`engine::sequence`]).
pub fn analyze(rule: &Rule, heaps: &[u64], values: &[u32]) -> Result<SumAnalysis, EngineError> {
    analyze_with(rule, heaps, |h| values[h as usize], |_| true)
}

/// Analyses the position `heaps` of `rule` with G given as a function (for instance from a
/// proven period, for heaps far beyond what memory holds). The winning moves of a heap are
/// listed only when `list(h)` allows (listing walks every move of the heap); the heaps skipped
/// are named in [`SumAnalysis::unlisted_heaps`].
pub fn analyze_with(
    rule: &Rule,
    heaps: &[u64],
    value: impl Fn(u64) -> u32,
    list: impl Fn(u64) -> bool,
) -> Result<SumAnalysis, EngineError> {
    let (base, shift) = rule.base_and_shift();
    let base_small = if shift > 0 {
        engine::sequence(base, shift)?
    } else {
        Vec::new()
    };
    let heap_values: Vec<u32> = heaps.iter().map(|&h| value(h)).collect();
    let grundy = heap_values.iter().fold(0, |a, &v| a ^ v);
    let mut winning_moves = Vec::new();
    let mut unlisted_heaps = Vec::new();
    if grundy != 0 {
        for (i, &h) in heaps.iter().enumerate() {
            let target = grundy ^ heap_values[i];
            if target >= heap_values[i] {
                continue; // mex: a move to `target` exists only if target < G(h)
            }
            if !list(h) {
                unlisted_heaps.push(i);
                continue;
            }
            for_each_move(rule, h, &base_small, |removed, leaves| {
                let x = leaves.iter().fold(0, |a, &p| a ^ value(p));
                if x == target {
                    winning_moves.push(HeapMove {
                        heap_index: i,
                        heap: h,
                        removed,
                        leaves: leaves.to_vec(),
                    });
                }
            });
        }
    }
    let outcome = if grundy == 0 { Outcome::P } else { Outcome::N };
    Ok(SumAnalysis {
        heap_values,
        grundy,
        outcome,
        winning_moves,
        unlisted_heaps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::parse;

    fn run(rule: &str, heaps: &[u64]) -> SumAnalysis {
        let r = parse(rule).unwrap();
        let v = engine::sequence(&r, *heaps.iter().max().unwrap()).unwrap();
        analyze(&r, heaps, &v).unwrap()
    }

    #[test]
    fn nim_and_kayles() {
        let a = run("nim", &[3, 4, 5]);
        assert_eq!((a.grundy, a.outcome), (2, Outcome::N));
        assert_eq!(a.winning_moves.len(), 1);
        assert_eq!(
            a.winning_moves[0].to_string(),
            "from the heap of 3, remove 2, leaving 1"
        );
        let k = run("kayles", &[12]);
        assert_eq!(k.grundy, 4);
        assert!(k
            .winning_moves
            .iter()
            .any(|m| m.leaves.len() == 2 && m.leaves.iter().sum::<u64>() + m.removed == 12));
        assert_eq!(run("nim", &[5, 5]).outcome, Outcome::P);
        let m = HeapMove {
            heap_index: 0,
            heap: 12,
            removed: 2,
            leaves: vec![3, 7],
        };
        assert_eq!(
            m.to_string(),
            "from the heap of 12, remove 2 and split the rest into 3 + 7"
        );
    }

    #[test]
    fn huge_heaps_through_a_proven_period() {
        let r = parse("sub:1,3,4").unwrap();
        let (v, p) = crate::periodicity::until_proven(&r, 64, 1 << 12, &mut |_| {}).unwrap();
        let p = p.unwrap();
        let big = 10_000_000_000_007u64;
        let value = |h: u64| p.value_at(&v, h).unwrap() as u32;
        let a = analyze_with(&r, &[big, 5], value, |_| true).unwrap();
        assert_eq!(a.heap_values[0], v[(big % 7) as usize]);
        for m in &a.winning_moves {
            let rest = a.grundy ^ a.heap_values[m.heap_index];
            assert_eq!(m.leaves.iter().fold(rest, |x, &h| x ^ value(h)), 0);
        }
    }

    #[test]
    fn every_listed_move_wins() {
        for rule in [
            "0.77",
            "0.3F",
            "4!.0",
            "sub:1,3,4",
            "sub:squares",
            "crosses",
            "allbut:2",
        ] {
            let r = parse(rule).unwrap();
            let v = engine::sequence(&r, 40).unwrap();
            for heaps in [vec![7u64, 11, 13], vec![20, 9], vec![33]] {
                let a = analyze(&r, &heaps, &v).unwrap();
                for mv in &a.winning_moves {
                    let rest = a.grundy ^ a.heap_values[mv.heap_index];
                    let after = mv.leaves.iter().fold(rest, |x, &p| x ^ v[p as usize]);
                    assert_eq!(after, 0, "{rule} {mv}");
                }
                assert_eq!(
                    a.outcome == Outcome::N,
                    !a.winning_moves.is_empty(),
                    "{rule} {heaps:?}"
                );
            }
        }
    }
}
