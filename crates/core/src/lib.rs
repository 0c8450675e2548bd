//! grundy-core: nimbers, the impartial game model and the generic solver.
//!
//! The core does no I/O and keeps no global state: every function takes what it needs and
//! returns its answer, so game families and the CLI can build on it freely.

pub mod game;

pub use game::{Game, Outcome};
