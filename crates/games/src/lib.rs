//! grundy-games: the game catalogue, each game a module over the core model.
//!
//! Every game comes with its fast algorithm and a documented API; the slow, obviously-correct
//! method (a textbook DP, exhaustive minimax or the generic [`grundy_core::Solver`]) is kept
//! alongside as the test oracle.
//!
//! Each game answers one question with one call that returns a serializable result
//! (`serde::Serialize`): [`fib::analyze`], [`wythoff::analyze`], [`maze::analyze`],
//! [`walls::analyze`], [`chomp::analyze`] and [`cards::analyze`] (Cram's is
//! `grundy_board::cram::ask`, on the board search engine). Every move
//! in a result has the fields `to` (the position after the move) and `text` (the move in
//! words) besides its own; `UBig` numbers serialize as decimal strings, machine integers as
//! numbers. The Chomp search takes a [`grundy_core::Budget`] (positions and estimated
//! memory; [`chomp::DEFAULT_BUDGET`] by default) and stops past it with
//! [`GameError::Limit`].
//!
//! | module | game | fast method |
//! |---|---|---|
//! | [`fib`] | Fibonacci Nim, k-multiplier Nim | greedy (Zeckendorf) representation, any size |
//! | [`wythoff`] | Wythoff's game, r-Wythoff | exact Beatty pairs ⌊jφ⌋, ⌊jφ²⌋; bitset Grundy table |
//! | [`maze`] | maze games and their sums | row/column value bitsets |
//! | [`walls`] | the wall-making game | one value per sub-rectangle |
//! | [`cram`] | Cram | the board search engine (`grundy-board`); misère play and the oracle: generic solver on canonical pieces |
//! | [`chomp`] | Chomp | generic solver on staircases |
//! | [`cards`] | take-from-the-ends card game | O(N²) margin DP with an optimal line |
//! | [`hackenbush`] | green Hackenbush on any graph | fusion (bridges, 2-edge-connected parts) and colon principles, linear time |
//! | [`turning`] | coin-turning games (CGSuite's turning codes) | heap representation: single-coin values by bitset mex; misère by search |
//!
//! Every game is also a catalogue entry ([`grundy_core::catalogue::Entry`]), defined in its
//! module (`fib::FibEntry`, `cram::CramEntry`, …) and listed by [`entries`]: positions read
//! from and printed to text, tagged by `kind` for front ends that draw them, legal moves for
//! play, and one [`grundy_core::catalogue::Report`] per analysis, held to a
//! [`grundy_core::catalogue::Budget`].

#![forbid(unsafe_code)]

mod answer;
pub mod cards;
pub mod catalogue;
pub mod chomp;
pub mod cram;
pub mod error;
pub mod fib;
pub mod hackenbush;
pub mod maze;
pub mod node_kayles;
pub mod number;
pub mod turning;
pub mod walls;
pub mod wythoff;

pub use dashu::integer::UBig;
pub use error::{GameError, Result};
pub use number::{parse_bounded, parse_count};

/// Every game of this crate as a catalogue entry (the facade's registry lists them with the
/// other families' entries): adding a game here touches its module, this list and a test.
pub fn entries() -> Vec<Box<dyn grundy_core::catalogue::Entry>> {
    vec![
        Box::new(fib::FibEntry),
        Box::new(fib::FibFamilyEntry),
        Box::new(wythoff::WythoffEntry),
        Box::new(maze::MazeEntry),
        Box::new(walls::WallsEntry),
        Box::new(cram::CramEntry),
        Box::new(chomp::ChompEntry),
        Box::new(cards::CardsEntry),
        Box::new(hackenbush::HackenbushEntry),
        Box::new(turning::TurningEntry),
    ]
}
