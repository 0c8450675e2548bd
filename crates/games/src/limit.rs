//! A position budget for the generic solver: searches that would outgrow memory stop early
//! with [`GameError::PositionLimit`] instead of running away.

use crate::error::GameError;
use grundy_core::Game;
use std::cell::{Cell, RefCell};

/// The default number of positions a Cram search may memoise: about 2.5 seconds and 160 MB
/// (5×6, 1.6 million positions, fits; 7×5 does not). Raise it per call (`max_positions`).
/// Chomp has its own, lower default ([`crate::chomp::DEFAULT_MAX_POSITIONS`]).
pub const DEFAULT_MAX_POSITIONS: u64 = 2_000_000;

/// How often (in positions) the progress callback is called; a power of two.
const PROGRESS_EVERY: u64 = 1 << 16;

/// A progress callback: called with the number of positions searched so far.
pub type Progress<'a> = &'a mut dyn FnMut(u64);

/// Wraps a game so that the solver opens at most `limit` positions.
///
/// The solver asks every position it opens for its components exactly once, so counting those
/// calls counts positions. Past the limit every newly opened position reports itself as an
/// empty sum (value 0, no options): the search winds down at once, its values are meaningless
/// and [`Capped::check`] turns the run into an error.
pub(crate) struct Capped<'a, G> {
    inner: G,
    limit: u64,
    opened: Cell<u64>,
    progress: RefCell<Option<Progress<'a>>>,
}

impl<'a, G: Game> Capped<'a, G> {
    /// `inner` with a budget of `limit` positions and an optional progress callback.
    pub(crate) fn new(inner: G, limit: u64, progress: Option<Progress<'a>>) -> Self {
        Capped {
            inner,
            limit,
            opened: Cell::new(0),
            progress: RefCell::new(progress),
        }
    }

    /// An error naming `what` when the budget was exceeded.
    pub(crate) fn check(&self, what: impl FnOnce() -> String) -> Result<(), GameError> {
        if self.opened.get() > self.limit {
            Err(GameError::PositionLimit {
                what: what(),
                limit: self.limit,
            })
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
