//! grundy-core: nimbers, the impartial game model and the generic solver.
//!
//! The core does no I/O and keeps no global state: every function takes what it needs and
//! returns its answer, so game families and the CLI can build on it freely.

mod fxhash;
pub mod game;
pub mod graph;
pub mod mex;
pub mod nim;
pub mod nimber;
pub mod solver;
pub mod sum;

pub use fxhash::{FxHashMap, FxHasher};
pub use game::{Game, Outcome};
pub use mex::{mex, Mex};
pub use nimber::{NimWord, Nimber};
pub use solver::{CycleError, Solver, SumMove};
pub use sum::{SideMove, Sum, SumPos};
