//! A take-and-break code recast for the sparse engine: which moves split a heap in two (the
//! expensive ones the rare/common method speeds up) and which leave at most one heap or an equal
//! pair (a handful of options per heap, handled directly).

use grundy_heap::{Constraint, TakeBreak};

use crate::error::Error;

/// Moves that remove `remove` tokens and split the rest into two non-empty heaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// Tokens removed before splitting.
    pub remove: u64,
    /// The two heaps must differ (`!` and `?` on a two-heap move).
    pub unequal: bool,
}

/// The moves of a supported code, grouped by how the engine evaluates them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Two-heap moves over every split (or every unequal split).
    pub splits: Vec<Split>,
    /// Removals that may leave one heap (`n - i >= 1`): option `G(n - i)`.
    pub leave_one: Vec<u64>,
    /// Removals that may take the whole heap (`n == i`): option 0.
    pub leave_none: Vec<u64>,
    /// Removals allowed only as an equal two-heap split (`=`): option 0 when `n - i` is even.
    pub equal_split: Vec<u64>,
    /// `Some(q)` when every splitting move removes a number of tokens of parity `q`: the heap's
    /// parity can then join the rare/common classification.
    pub split_parity: Option<u64>,
}

impl Plan {
    /// The largest smaller part `a` of any two-heap split of heap `n` (0 when none splits):
    /// the confirming scan runs over a = 1..=this.
    pub fn max_split_part(&self, n: u64) -> u64 {
        self.splits
            .iter()
            .filter(|s| n >= s.remove + 2)
            .map(|s| (n - s.remove) / 2)
            .max()
            .unwrap_or(0)
    }

    /// The most options heap `n` has: no Grundy value of heap `n` can exceed it (the mex of
    /// k values is at most k). Used to refuse forged values in files.
    pub(crate) fn options_bound(&self, n: u64) -> u64 {
        let splits: u64 = self
            .splits
            .iter()
            .filter(|s| n >= s.remove + 2)
            .map(|s| (n - s.remove) / 2)
            .sum();
        let one = self.leave_one.iter().filter(|&&i| n > i).count() as u64;
        let none = self.leave_none.iter().filter(|&&i| n == i).count() as u64;
        let equal = self
            .equal_split
            .iter()
            .filter(|&&i| n > i && (n - i).is_multiple_of(2))
            .count() as u64;
        splits + one + none + equal
    }

    /// Builds the plan of `code`, or says why the sparse engine cannot run it: a repeating
    /// code (unboundedly many removals) or a move leaving three or more heaps (an odd number of
    /// common parts would give a common value, which the method cannot mark).
    pub fn new(code: &TakeBreak) -> Result<Plan, Error> {
        if !code.is_finite() {
            return Err(Error::Unsupported(
                "repeating codes are left to the reference engine".into(),
            ));
        }
        let mut plan = Plan {
            splits: Vec::new(),
            leave_one: Vec::new(),
            leave_none: Vec::new(),
            equal_split: Vec::new(),
            split_parity: None,
        };
        if code.digits.first().is_some_and(|d| d.mask & 0b011 != 0) {
            return Err(Error::Unsupported(
                "a digit before the point that removes the whole heap".into(),
            ));
        }
        for (i, d) in code.digits.iter().enumerate() {
            let i = i as u64;
            if d.mask & !0b111 != 0 {
                return Err(Error::Unsupported(
                    "moves that leave three or more heaps are left to the reference engine".into(),
                ));
            }
            if d.mask & 0b001 != 0 && i > 0 {
                plan.leave_none.push(i);
            }
            if d.mask & 0b010 != 0 && i > 0 {
                plan.leave_one.push(i);
            }
            if d.mask & 0b100 != 0 {
                match d.constraint {
                    Constraint::AllEqual => plan.equal_split.push(i),
                    Constraint::Any => plan.splits.push(Split {
                        remove: i,
                        unequal: false,
                    }),
                    Constraint::Unequal | Constraint::NotAllEqual => plan.splits.push(Split {
                        remove: i,
                        unequal: true,
                    }),
                }
            }
        }
        let mut parities = plan.splits.iter().map(|s| s.remove & 1);
        if let Some(q) = parities.next() {
            if parities.all(|p| p == q) {
                plan.split_parity = Some(q);
            }
        }
        Ok(plan)
    }

    /// True when the code has splitting moves (otherwise the sparse method buys nothing).
    pub fn has_splits(&self) -> bool {
        !self.splits.is_empty()
    }

    /// The largest number of tokens any move removes.
    pub fn max_removal(&self) -> u64 {
        let all = self.splits.iter().map(|s| s.remove);
        all.chain(self.leave_one.iter().copied())
            .chain(self.leave_none.iter().copied())
            .chain(self.equal_split.iter().copied())
            .max()
            .unwrap_or(0)
    }
}
