//! grundy-games: the game catalogue, each game a module over the core model.
//!
//! Every game comes with its fast algorithm and a documented API; the slow, obviously-correct
//! method (a textbook DP, exhaustive minimax or the generic [`grundy_core::Solver`]) is kept
//! alongside as the test oracle.
//!
//! Each game answers through its catalogue entry ([`grundy_core::catalogue::Entry`], listed by
//! [`entries`]), the one door of every front end: a position read from text, and one
//! [`grundy_core::catalogue::Report`] whose `details` carry what the game computed beyond
//! outcome, value and moves (a Fibonacci pile's representation, a maze's value grids, the card
//! game's totals and line). Every move is a [`grundy_core::Move`] (`to`, the position after the
//! move; `text`, the move in words; `at`, the game's coordinates); `UBig` numbers serialize as
//! decimal strings, machine integers as numbers. The searches (Chomp, the misère searches) take
//! the question's [`grundy_core::Budget`] (positions and estimated memory) and stop past it
//! with a limit error.
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
//! Each entry is defined in its module (`fib::FibEntry`, `cram::CramEntry`, …): positions read
//! from and printed to text, tagged by `kind` for front ends that draw them, legal moves for
//! play, and one report per question, held to the question's budget.

#![forbid(unsafe_code)]

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
