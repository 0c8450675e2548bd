//! A position budget for the misère search: misère values do not add, so the search runs over
//! whole positions, whose number can explode (four tokens on a star of 1000 leaves reach about
//! 4·10^10). [`MisereBudget`] wraps a game so that the search opens at most a given number of
//! positions; past it the search winds down at once and the caller reports an error instead of
//! running out of memory.
//!
//! ```
//! use grundy_core::budget::MisereBudget;
//! use grundy_core::{Game, Outcome, Solver};
//!
//! struct Subtract12;
//! impl Game for Subtract12 {
//!     type Position = u64;
//!     fn options(&self, &n: &u64, out: &mut Vec<u64>) {
//!         out.extend([1, 2].into_iter().filter(|&s| s <= n).map(|s| n - s));
//!     }
//! }
//!
//! let mut solver = Solver::new(MisereBudget::new(Subtract12, 1000));
//! assert_eq!(solver.misere_outcome(&4), Outcome::P);
//! assert!(!solver.game().exceeded());
//! let mut tiny = Solver::new(MisereBudget::new(Subtract12, 3));
//! tiny.misere_outcome(&100);
//! assert!(tiny.game().exceeded());
//! ```

use std::cell::Cell;

use crate::Game;

/// `inner` with a budget of positions for the misère search.
///
/// The misère search lists the options of each position once, when it opens it, so counting
/// those calls counts positions. Past the limit every newly opened position offers no move: the
/// search ends quickly, its answer is meaningless and [`MisereBudget::exceeded`] says so.
pub struct MisereBudget<G> {
    inner: G,
    limit: u64,
    opened: Cell<u64>,
}

impl<G: Game> MisereBudget<G> {
    /// `inner`, allowed to open at most `limit` positions.
    pub fn new(inner: G, limit: u64) -> Self {
        MisereBudget {
            inner,
            limit,
            opened: Cell::new(0),
        }
    }

    /// The wrapped game.
    pub fn inner(&self) -> &G {
        &self.inner
    }

    /// Positions opened so far.
    pub fn opened(&self) -> u64 {
        self.opened.get()
    }

    /// True once the search needed more positions than the budget: its answers are void.
    pub fn exceeded(&self) -> bool {
        self.opened.get() > self.limit
    }
}

impl<G: Game> Game for MisereBudget<G> {
    type Position = G::Position;

    fn options(&self, pos: &G::Position, out: &mut Vec<G::Position>) {
        let n = self.opened.get() + 1;
        self.opened.set(n);
        if n <= self.limit {
            self.inner.options(pos, out);
        }
    }
}
