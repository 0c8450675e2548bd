//! One budget for every search: [`Budget`] caps the positions a search may value and the bytes
//! its tables may take, and [`Limit`] is the one error a search past either cap returns (a
//! limit, [`crate::catalogue::Error::is_limit`], in every front end).
//!
//! Memory is estimated, not measured: a search that memoises positions of type `P` holds about
//! [`Budget::entry_bytes::<P>()`](Budget::entry_bytes) bytes for each — the position itself plus
//! [`ENTRY_OVERHEAD`] bytes for its value, the hash table's slot and control bytes and its
//! spare capacity. A search whose positions own heap memory (a `Vec` of heaps or tokens)
//! passes its own estimate. The cap on entries is then the smaller of `max_positions` and
//! `max_bytes / entry bytes` ([`Budget::max_entries`]), and the error names whichever cap was
//! the tighter one: positions or memory.
//!
//! ```
//! use grundy_core::budget::{Budget, Resource};
//!
//! let b = Budget::positions(1000);
//! assert_eq!(b.max_entries(64), 1000);
//! let small = Budget::DEFAULT.with_bytes(64 * 100);
//! assert_eq!(small.max_entries(64), 100);
//! let e = small.limit("board 5x5", 64);
//! assert_eq!(e.resource, Resource::Memory);
//! assert!(e.to_string().starts_with("board 5x5: the search needs more than"));
//! ```
//!
//! [`MisereBudget`] wraps a game so that the misère search — misère values do not add, so it
//! runs over whole positions, whose number can explode (four tokens on a star of 1000 leaves
//! reach about 4·10^10) — opens at most a budget's entries; past it the search winds down at
//! once and the caller reports a [`Limit`] instead of running out of memory.
//!
//! ```
//! use grundy_core::budget::{Budget, MisereBudget};
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
//! let mut solver = Solver::new(MisereBudget::new(Subtract12, &Budget::positions(1000)));
//! assert_eq!(solver.misere_outcome(&4), Outcome::P);
//! assert!(solver.game().check("subtract 1, 2").is_ok());
//! let mut tiny = Solver::new(MisereBudget::new(Subtract12, &Budget::positions(3)));
//! tiny.misere_outcome(&100);
//! assert!(tiny.game().check("subtract 1, 2").is_err());
//! ```

use std::cell::Cell;

use serde::Serialize;

use crate::Game;

/// Estimated bytes a memo holds for each entry besides the position itself: the value, the
/// hash table's slot and control bytes and its spare capacity (a table is between half and
/// seven eighths full), rounded up.
pub const ENTRY_OVERHEAD: usize = 48;

/// What a search may hold before it stops with a [`Limit`]: positions valued, and bytes of
/// memory that its tables take (estimated from the entries it holds: see the module's text).
///
/// Every family search takes one; their defaults differ on purpose (a Chomp position has up to
/// rows × cols options, a misère search holds whole positions) and are constants next to the
/// family (`chomp::DEFAULT_BUDGET`, `cram::DEFAULT_BUDGET`, …), all built from this type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Budget {
    /// The most positions a search may value.
    pub max_positions: u64,
    /// The most bytes its tables may take (estimated).
    pub max_bytes: u64,
}

impl Budget {
    /// Ten million positions and 2 GiB: a few seconds of search, and never more memory than a
    /// laptop spares.
    pub const DEFAULT: Budget = Budget {
        max_positions: 10_000_000,
        max_bytes: 2 << 30,
    };

    /// No cap at all.
    pub const UNLIMITED: Budget = Budget {
        max_positions: u64::MAX,
        max_bytes: u64::MAX,
    };

    /// `max_positions` positions and `max_bytes` bytes.
    pub const fn new(max_positions: u64, max_bytes: u64) -> Budget {
        Budget {
            max_positions,
            max_bytes,
        }
    }

    /// `max_positions` positions and the default memory cap (2 GiB).
    pub const fn positions(max_positions: u64) -> Budget {
        Budget::DEFAULT.with_positions(max_positions)
    }

    /// This budget with `max_positions` positions.
    pub const fn with_positions(self, max_positions: u64) -> Budget {
        Budget {
            max_positions,
            ..self
        }
    }

    /// This budget with `max_bytes` bytes.
    pub const fn with_bytes(self, max_bytes: u64) -> Budget {
        Budget { max_bytes, ..self }
    }

    /// The estimated bytes of a memo entry for positions of type `P`: its size plus
    /// [`ENTRY_OVERHEAD`] (positions that own heap memory add their own share).
    pub const fn entry_bytes<P>() -> usize {
        std::mem::size_of::<P>() + ENTRY_OVERHEAD
    }

    /// The most entries of `entry_bytes` bytes each that fit both caps.
    pub fn max_entries(&self, entry_bytes: usize) -> u64 {
        let by_bytes = self.max_bytes / (entry_bytes.max(1) as u64);
        self.max_positions.min(by_bytes)
    }

    /// The cap that binds for entries of `entry_bytes` bytes: positions, or memory when
    /// `max_bytes` allows fewer entries than `max_positions`.
    pub fn binding(&self, entry_bytes: usize) -> Resource {
        if self.max_bytes / (entry_bytes.max(1) as u64) < self.max_positions {
            Resource::Memory
        } else {
            Resource::Positions
        }
    }

    /// The error of a search of `what` that needed more than [`Budget::max_entries`] entries
    /// of `entry_bytes` bytes.
    pub fn limit(&self, what: impl Into<String>, entry_bytes: usize) -> Limit {
        Limit {
            what: what.into(),
            resource: self.binding(entry_bytes),
            max_positions: self.max_positions,
            max_bytes: self.max_bytes,
            entry_bytes: entry_bytes as u64,
        }
    }

    /// `Ok` when `entries` entries of `entry_bytes` bytes fit, else the [`Limit`] for `what`.
    pub fn check(
        &self,
        what: impl FnOnce() -> String,
        entries: u64,
        entry_bytes: usize,
    ) -> Result<(), Limit> {
        if entries > self.max_entries(entry_bytes) {
            Err(self.limit(what(), entry_bytes))
        } else {
            Ok(())
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// Which cap of a [`Budget`] a search reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Resource {
    /// `max_positions`.
    Positions,
    /// `max_bytes`.
    Memory,
}

impl Resource {
    /// The budget's field that raises this cap: `"max_positions"` or `"max_bytes"`.
    pub fn parameter(self) -> &'static str {
        match self {
            Resource::Positions => "max_positions",
            Resource::Memory => "max_bytes",
        }
    }
}

/// A search that needed more than its [`Budget`] allows. Its message is one line naming what
/// was searched and the cap reached (positions or memory), in the library's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct Limit {
    /// What was being searched, e.g. "board 7x5".
    pub what: String,
    /// The cap reached.
    pub resource: Resource,
    /// The budget's position cap.
    pub max_positions: u64,
    /// The budget's memory cap, in bytes.
    pub max_bytes: u64,
    /// The estimated bytes of one entry of the search.
    pub entry_bytes: u64,
}

impl Limit {
    fn message(&self) -> String {
        match self.resource {
            Resource::Positions => format!(
                "{}: the search needs more than {} positions (the position limit)",
                self.what, self.max_positions
            ),
            Resource::Memory => format!(
                "{}: the search needs more than {} of memory (the memory limit: {} positions of \
                 about {} bytes)",
                self.what,
                bytes_text(self.max_bytes),
                self.max_bytes / self.entry_bytes.max(1),
                self.entry_bytes
            ),
        }
    }

    /// The budget's field that raises the cap reached: `"max_positions"` or `"max_bytes"`.
    pub fn parameter(&self) -> &'static str {
        self.resource.parameter()
    }
}

/// A limit in the catalogue's vocabulary: [`crate::catalogue::ErrorKind::Limit`].
impl From<Limit> for crate::catalogue::Error {
    fn from(e: Limit) -> Self {
        let mut out = crate::catalogue::Error::limit(e.to_string());
        out.parameter = Some(e.parameter());
        out
    }
}

/// `n` bytes for a reader: `512 bytes`, `64 KiB`, `2 GiB` (rounded down).
fn bytes_text(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// `inner` with a [`Budget`] for the misère search.
///
/// The misère search lists the options of each position once, when it opens it, so counting
/// those calls counts positions. Past the budget's entries every newly opened position offers
/// no move: the search ends quickly, its answer is meaningless and [`MisereBudget::check`] says
/// so.
pub struct MisereBudget<G> {
    inner: G,
    budget: Budget,
    entry_bytes: usize,
    limit: u64,
    opened: Cell<u64>,
}

impl<G: Game> MisereBudget<G> {
    /// `inner`, allowed to open what `budget` allows of entries of
    /// [`Budget::entry_bytes::<G::Position>()`](Budget::entry_bytes).
    pub fn new(inner: G, budget: &Budget) -> Self {
        MisereBudget::with_entry_bytes(inner, budget, Budget::entry_bytes::<G::Position>())
    }

    /// `inner` under `budget`, each position estimated at `entry_bytes` bytes (for positions
    /// that own heap memory).
    pub fn with_entry_bytes(inner: G, budget: &Budget, entry_bytes: usize) -> Self {
        MisereBudget {
            inner,
            budget: *budget,
            entry_bytes,
            limit: budget.max_entries(entry_bytes),
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

    /// True once the search needed more than the budget: its answers are void.
    pub fn exceeded(&self) -> bool {
        self.opened.get() > self.limit
    }

    /// `Ok` while within the budget, else the [`Limit`] naming `what`.
    pub fn check(&self, what: &str) -> Result<(), Limit> {
        if self.exceeded() {
            Err(self.budget.limit(what, self.entry_bytes))
        } else {
            Ok(())
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tighter_cap_is_named() {
        let b = Budget::new(1000, 64 * 2000);
        assert_eq!(b.max_entries(64), 1000);
        let e = b.limit("x", 64);
        assert_eq!(e.resource, Resource::Positions);
        assert_eq!(
            e.to_string(),
            "x: the search needs more than 1000 positions (the position limit)"
        );
        let e = b.limit("x", 256);
        assert_eq!(e.resource, Resource::Memory);
        assert_eq!(b.max_entries(256), 500);
        assert_eq!(
            e.to_string(),
            "x: the search needs more than 125 KiB of memory (the memory limit: 500 positions \
             of about 256 bytes)"
        );
        assert!(crate::catalogue::Error::from(e).is_limit());
        assert_eq!(bytes_text(2 << 30), "2 GiB");
        assert!(b.check(|| "x".into(), 1000, 64).is_ok());
        assert!(b.check(|| "x".into(), 1001, 64).is_err());
    }
}
