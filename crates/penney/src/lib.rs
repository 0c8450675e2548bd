//! grundy-penney: pattern races (Penney's game) with exact rational answers.
//!
//! A coin (or die, or any alphabet with exact letter probabilities) is tossed until one of
//! several patterns appears. Three independent exact methods answer who wins and when:
//! - [`conway`]: Conway's leading numbers, two patterns, linear time via the prefix function;
//! - [`correlation_system`]: the Guibas–Odlyzko / Li linear system over correlations, any
//!   number of patterns;
//! - [`chain`]: the Aho–Corasick absorbing Markov chain, the reference, which also gives the
//!   variance, the expected length given each winner and the length distribution.
//!
//! [`game`] builds best replies, optimal first patterns and non-transitive cycles on top, and
//! [`simulate`] cross-checks everything by seeded simulation. [`report`] answers each user
//! question in one call (all exact methods run and cross-checked, decimals beside fractions)
//! with a typed result that serializes to the JSON of `grundy penney`. [`strings`] holds the prefix
//! function and the Aho–Corasick automaton, independent of the game; [`linear`] solves exact
//! rational systems (multi-modular with verification, Bareiss as fallback and reference).

#![forbid(unsafe_code)]

pub mod alphabet;
pub mod chain;
pub mod conway;
pub mod correlation;
pub mod correlation_system;
pub mod error;
pub mod game;
pub mod linear;
pub mod race;
pub mod report;
pub mod simulate;
pub mod strings;

/// The big-number crate of the public API, re-exported so users need not depend on it.
pub use dashu;

pub use alphabet::Alphabet;
pub use error::{PenneyError, Result};
pub use race::Race;
