//! The straightforward misère search over sums of heaps: memoised, with a budget.
//!
//! A position is a multiset of heaps (a non-decreasing `Vec<u16>`, no empty heaps). It is a
//! P-position in misère play when it has at least one move and every move leads to an
//! N-position; a position without moves is an N-position (the player to move has already won).
//! This is the reference the quotient engine is built and tested on.
//!
//! ```
//! use grundy_misere::{heaps::HeapOptions, search::MisereSearch};
//! let nim = HeapOptions::new("0.[3]", 3).unwrap();
//! let mut s = MisereSearch::new(nim, 100_000);
//! assert!(s.is_p(&[1]).unwrap());      // *1: the mover takes the last counter and loses
//! assert!(!s.is_p(&[1, 1]).unwrap());
//! assert!(s.is_p(&[2, 2]).unwrap());
//! ```

use grundy_core::FxHashMap;

use crate::error::MisereError;
use crate::heaps::HeapOptions;

/// A known quotient for the heaps below some size, used to answer those positions at once.
#[derive(Clone, Debug)]
pub(crate) struct Shortcut {
    /// Heaps `< below` are covered.
    pub below: u16,
    /// Φ of each heap `< below`.
    pub phi: Vec<u32>,
    /// The multiplication table, `order * order`.
    pub table: Vec<u32>,
    /// The number of elements.
    pub order: usize,
    /// P-portion membership.
    pub p: Vec<bool>,
}

impl Shortcut {
    fn answer(&self, pos: &[u16]) -> Option<bool> {
        if pos.last().is_some_and(|&h| h >= self.below) {
            return None;
        }
        let mut x = 0u32;
        for &h in pos {
            x = self.table[x as usize * self.order + self.phi[h as usize] as usize];
        }
        Some(self.p[x as usize])
    }
}

/// Memoised misère outcomes of sums of heaps of one rule.
pub struct MisereSearch {
    opts: HeapOptions,
    memo: FxHashMap<Vec<u16>, bool>,
    budget: usize,
    pub(crate) shortcut: Option<Shortcut>,
}

impl MisereSearch {
    /// A search over the heaps of `opts`, remembering at most `budget` positions.
    pub fn new(opts: HeapOptions, budget: usize) -> Self {
        MisereSearch {
            opts,
            memo: FxHashMap::default(),
            budget,
            shortcut: None,
        }
    }

    /// The heap options searched over.
    pub fn options(&self) -> &HeapOptions {
        &self.opts
    }

    /// Replaces the heap options by a table for a larger bound (the same rule: the options of
    /// the heaps already tabulated must not change, so the memo stays valid).
    pub(crate) fn widen(&mut self, opts: HeapOptions) {
        self.opts = opts;
    }

    /// Positions remembered so far.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// True when the sum `heaps` (any order, zeros allowed) is a misère P-position.
    pub fn is_p(&mut self, heaps: &[u16]) -> Result<bool, MisereError> {
        let mut pos: Vec<u16> = heaps.iter().copied().filter(|&h| h > 0).collect();
        pos.sort_unstable();
        if let Some(&h) = pos.last() {
            if h as u64 > self.opts.bound() {
                return Err(MisereError::HeapBeyondBound {
                    heap: h as u64,
                    bound: self.opts.bound(),
                });
            }
        }
        self.p_sorted(&pos)
    }

    pub(crate) fn p_sorted(&mut self, pos: &[u16]) -> Result<bool, MisereError> {
        if let Some(s) = &self.shortcut {
            if let Some(a) = s.answer(pos) {
                return Ok(a);
            }
        }
        if let Some(&v) = self.memo.get(pos) {
            return Ok(v);
        }
        if self.memo.len() >= self.budget {
            return Err(MisereError::Limit {
                what: "misère search positions",
                limit: self.budget,
            });
        }
        let mut has_move = false;
        let mut p = true;
        let mut next: Vec<u16> = Vec::with_capacity(pos.len() + 4);
        'outer: for i in 0..pos.len() {
            if i > 0 && pos[i] == pos[i - 1] {
                continue;
            }
            let h = pos[i] as usize;
            for k in 0..self.opts.of(h).len() {
                has_move = true;
                next.clear();
                next.extend_from_slice(&pos[..i]);
                next.extend_from_slice(&pos[i + 1..]);
                next.extend_from_slice(&self.opts.of(h)[k]);
                next.sort_unstable();
                let child = next.clone();
                if self.p_sorted(&child)? {
                    p = false;
                    break 'outer;
                }
            }
        }
        let v = has_move && p;
        self.memo.insert(pos.to_vec(), v);
        Ok(v)
    }
}
