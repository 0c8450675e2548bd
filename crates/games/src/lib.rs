//! grundy-games: the game catalogue, each game a module over the core model.
//!
//! Every game comes with its fast algorithm and a documented API; the slow, obviously-correct
//! method (a textbook DP or the generic solver) is kept alongside as the test oracle.

pub mod cards;
pub mod chomp;
pub mod cram;
pub mod error;
pub mod fib;
pub mod maze;
pub mod number;
pub mod walls;
pub mod wythoff;

pub use dashu::integer::UBig;
pub use error::{GameError, Result};
pub use number::{parse_bounded, parse_natural};
