//! grundy-core: nimbers, the impartial game model and the generic solver.
//!
//! The core does no I/O and keeps no global state: every function takes what it needs and
//! returns its answer, so game families and the CLI can build on it freely.
//!
//! - [`game`]: the [`Game`] trait (options, optional split into components) and [`Outcome`].
//! - [`solver`]: Sprague–Grundy values, outcomes and winning moves of any [`Game`], normal and
//!   misère, memoised, on an explicit stack.
//! - [`sum`]: the disjunctive sum of two different games.
//! - [`mod@mex`]: the minimum excludant, one 64-bit word at a time.
//! - [`nimber`]: nim addition, multiplication, inverse and square root (`u32`, `u64`, `u128`).
//! - [`nim`]: Nim and misère Nim in closed form, streaming, with the textbook explanation.
//! - [`graph`]: games on a directed graph read from text.
//! - [`budget`]: the one [`Budget`] of every search (positions and estimated bytes) and its
//!   [`budget::Limit`] error.
//! - [`text`]: tokens quoted for one-line errors, integers for JSON.
//! - [`catalogue`]: the vocabulary of the game registry ([`catalogue::Entry`], [`catalogue::Rules`],
//!   [`catalogue::Report`], [`catalogue::Move`]) and [`catalogue::Solved`], any game as catalogue rules.
//!
//! Plugging in a game: subtract 1, 3 or 4 counters from a heap.
//!
//! ```
//! use grundy_core::{Game, Outcome, Solver};
//!
//! struct Subtract134;
//!
//! impl Game for Subtract134 {
//!     type Position = u64;
//!     fn options(&self, &n: &u64, out: &mut Vec<u64>) {
//!         out.extend([1, 3, 4].into_iter().filter(|&s| s <= n).map(|s| n - s));
//!     }
//! }
//!
//! let mut solver = Solver::new(Subtract134);
//! let values: Vec<u64> = (0..10).map(|n| solver.grundy(&n)).collect();
//! assert_eq!(values, [0, 1, 0, 1, 2, 3, 2, 0, 1, 0]);
//! assert_eq!(solver.outcome(&7), Outcome::P);
//! assert_eq!(solver.winning_moves(&8), vec![7]);
//! // Heaps of 5 and 6 side by side: values 3 and 2, nim-sum 1.
//! assert_eq!(solver.sum_grundy(&[5, 6]), 1);
//! assert_eq!(solver.misere_outcome(&1), Outcome::P);
//! ```

#![forbid(unsafe_code)]

pub mod budget;
pub mod catalogue;
pub mod count;
mod fxhash;
pub mod game;
pub mod graph;
pub mod grundy;
pub mod mex;
pub mod nim;
pub mod nimber;
pub mod solver;
pub mod sum;
pub mod text;

pub use budget::Budget;
pub use catalogue::Move;
pub use fxhash::{FxHashMap, FxHasher};
pub use game::{Game, Outcome, Play};
pub use grundy::Grundy;
pub use mex::{mex, Mex};
pub use nimber::{NimWord, Nimber};
pub use solver::{Analysis, CycleError, Solver, SumMove};
pub use sum::{SideMove, Sum, SumPos};
