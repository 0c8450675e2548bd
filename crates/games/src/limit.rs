//! A [`Budget`] for the generic solver: searches that would outgrow memory stop early with
//! [`GameError::Limit`] instead of running away.

use crate::error::GameError;
use grundy_core::{Budget, Game};
use std::cell::{Cell, RefCell};

/// How often (in positions) the progress callback is called; a power of two.
const PROGRESS_EVERY: u64 = 1 << 16;

/// A progress callback: called with the number of positions searched so far.
pub type Progress<'a> = &'a mut dyn FnMut(u64);

/// Wraps a game so that the solver opens at most what a [`Budget`] allows: `max_positions`
/// positions, and `max_bytes` of memo at [`Budget::entry_bytes`] of the position type each.
///
/// The solver asks every position it opens for its components exactly once, so counting those
/// calls counts positions. Past the limit every newly opened position reports itself as an
/// empty sum (value 0, no options): the search winds down at once, its values are meaningless
/// and [`Capped::check`] turns the run into an error.
pub(crate) struct Capped<'a, G> {
    inner: G,
    budget: Budget,
    limit: u64,
    opened: Cell<u64>,
    progress: RefCell<Option<Progress<'a>>>,
}

impl<'a, G: Game> Capped<'a, G> {
    /// `inner` under `budget`, with an optional progress callback.
    pub(crate) fn new(inner: G, budget: &Budget, progress: Option<Progress<'a>>) -> Self {
        Capped {
            inner,
            budget: *budget,
            limit: budget.max_entries(Budget::entry_bytes::<G::Position>()),
            opened: Cell::new(0),
            progress: RefCell::new(progress),
        }
    }

    /// An error naming `what` when the budget was exceeded.
    pub(crate) fn check(&self, what: impl FnOnce() -> String) -> Result<(), GameError> {
        if self.opened.get() > self.limit {
            Err(self
                .budget
                .limit(what(), Budget::entry_bytes::<G::Position>())
                .into())
        } else {
            Ok(())
        }
    }
}

impl<G: Game> Game for Capped<'_, G> {
    type Position = G::Position;

    fn options(&self, pos: &G::Position, out: &mut Vec<G::Position>) {
        if self.opened.get() <= self.limit {
            self.inner.options(pos, out);
        }
    }

    fn components(&self, pos: &G::Position, out: &mut Vec<G::Position>) -> bool {
        let n = self.opened.get() + 1;
        self.opened.set(n);
        if n & (PROGRESS_EVERY - 1) == 0 {
            if let Some(f) = self.progress.borrow_mut().as_mut() {
                f(n);
            }
        }
        if n > self.limit {
            return true; // an empty sum: value 0, nothing more to open
        }
        self.inner.components(pos, out)
    }

    fn memoise_sum(&self, pos: &G::Position) -> bool {
        self.inner.memoise_sum(pos)
    }
}
