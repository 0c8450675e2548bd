//! grundy-sparse: the rare/common ("sparse space") engine for take-and-break codes.
//!
//! For codes whose moves split a heap in two, the straightforward mex costs O(n) per heap. This
//! crate computes the same values far faster by splitting values into rare and common (a key
//! mask chosen from the histogram), marking only pairs with a rare part and confirming
//! candidates by a short scan (a pipeline of tiles of 32 heaps), with every core, durable
//! checkpoints and compressed saves for record-scale runs.
//! By default every value stays in memory (1 byte a heap while values stay below 256, then 2).
//! With a memory window ([`Engine::with_window`], [`Engine::with_packed_window`],
//! [`RunOptions::window`]) the engine keeps a prefix and a recent run deep enough for the
//! partners of every rare heap, drops values in between, and fetches a dropped value when it is
//! needed again (a new far rare heap, a deep scan, a mask change): from the chunks on disk with
//! a checkpoint or save directory (values are dropped once durable there), else from a copy in
//! memory of what it dropped, packed at as many bits as the values need (9 bits a heap for games
//! whose values pass 255 but not 511, instead of 16).
//!
//! Entry points: [`values`] (G(0..=n) in memory), [`until_proven`] (double until a period is
//! proven), [`run()`] (a long run with checkpoints, saves and a [`Summary`]) and [`Engine`] (step
//! by step). Every progress callback may return `false` to stop at the next block boundary
//! ([`Error::Stopped`]; [`run()`] first writes a checkpoint of everything computed).
//!
//! ```
//! let grundys_game = grundy_heap::rule::parse_code("4!.0").unwrap();
//! let g = grundy_sparse::values(&grundys_game, 10, 1).unwrap();
//! assert_eq!(g, [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0]);
//! ```

#![deny(missing_docs)]

mod crew;
mod engine;
mod error;
mod kernel;
mod mask;
mod pace;
mod packed;
mod plan;
mod run;
mod seq;
mod store;
mod tiles;

pub use engine::{
    max_threads, pays, values, values_at, values_if_it_pays, values_with_progress, Engine,
    GapSource, Loader, MAX_THREADS, PAYS_AFTER,
};
pub use error::Error;
pub use plan::{Plan, Split};
pub use run::{
    load, run, summarize, until_proven, Outcome, Progress, RunOptions, Summary, PERIOD_SEARCH_LIMIT,
};
pub use store::{
    inspect, Saved, State, Store, CHUNK, FORMAT_VERSION, MAX_FILE_BYTES, MAX_VALUE, STATE_FILE,
};
pub use tiles::{Stats, Tuning};
