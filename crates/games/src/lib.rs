//! grundy-games: the game catalogue, each game a module over the core model.
//!
//! Every game comes with its fast algorithm and a documented API; the slow, obviously-correct
//! method (a textbook DP, exhaustive minimax or the generic [`grundy_core::Solver`]) is kept
//! alongside as the test oracle.
//!
//! Each game answers one question with one call that returns a serializable result
//! (`serde::Serialize`): [`fib::analyze`], [`wythoff::analyze`], [`maze::analyze`],
//! [`walls::analyze`], [`cram::analyze`], [`chomp::analyze`] and [`cards::solve`]. Every move
//! in a result has the fields `to` (the position after the move) and `text` (the move in
//! words) besides its own; `UBig` numbers serialize as decimal strings, machine integers as
//! numbers. The Cram and Chomp searches stop at a position budget
//! ([`cram::DEFAULT_MAX_POSITIONS`], [`chomp::DEFAULT_MAX_POSITIONS`] unless raised) with
//! [`GameError::PositionLimit`].
//!
//! | module | game | fast method |
//! |---|---|---|
//! | [`fib`] | Fibonacci Nim, k-multiplier Nim | greedy (Zeckendorf) representation, any size |
//! | [`wythoff`] | Wythoff's game, r-Wythoff | exact Beatty pairs ⌊jφ⌋, ⌊jφ²⌋; bitset Grundy table |
//! | [`maze`] | maze games and their sums | row/column value bitsets |
//! | [`walls`] | the wall-making game | one value per sub-rectangle |
//! | [`cram`] | Cram | generic solver on canonical pieces (crop, symmetry, split, mirror) |
//! | [`chomp`] | Chomp | generic solver on staircases |
//! | [`cards`] | take-from-the-ends card game | O(N²) margin DP with an optimal line |
//! | [`hackenbush`] | green Hackenbush on any graph | fusion (bridges, 2-edge-connected parts) and colon principles, linear time |
//! | [`turning`] | coin-turning games (CGSuite's turning codes) | heap representation: single-coin values by bitset mex; misère by search |

#![forbid(unsafe_code)]

pub mod cards;
pub mod chomp;
pub mod cram;
pub mod error;
pub mod fib;
pub mod hackenbush;
mod limit;
pub mod maze;
pub mod number;
pub mod turning;
pub mod walls;
pub mod wythoff;

pub use dashu::integer::UBig;
pub use error::{GameError, Result};
pub use limit::Progress;
pub use number::{parse_bounded, parse_natural};
