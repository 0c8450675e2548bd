//! grundy-sparse: the rare/common ("sparse space") engine for take-and-break codes.
//!
//! For codes whose moves split a heap in two, the straightforward mex costs O(n) per heap. This
//! crate computes the same values far faster by splitting values into rare and common
//! ([`mask`]), marking only pairs with a rare part and confirming candidates by a short scan
//! ([`core`]), with both cores, durable checkpoints and compressed saves for record-scale runs.
//! By default every value stays in memory (2 bytes a heap while values fit in u16). With a
//! memory window ([`Engine::with_window`], `RunOptions::window` with a checkpoint or save
//! directory) the engine keeps a prefix and a recent run deep enough for the partners of every
//! rare heap, drops durable values in between, and fetches a dropped value from the chunks on
//! disk when it is needed again (a new far rare heap, a deep scan, a mask change).

pub mod core;
pub mod crew;
pub mod engine;
pub mod error;
pub mod kernel;
pub mod mask;
pub mod plan;
pub mod run;
pub mod seq;
pub mod store;

pub use engine::{values, values_with_progress, Engine, GapSource, Loader};
pub use error::Error;
pub use plan::Plan;
pub use run::{run, until_proven, Outcome, Progress, RunOptions, Summary};
pub use store::{Saved, Store};
