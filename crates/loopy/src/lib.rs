//! grundy-loopy: impartial games whose play can repeat — Smith's generalized Sprague–Grundy
//! values, draws, remoteness and sums.
//!
//! A position of a loopy game has a finite value `m` or `∞(K)` ([`Grundy`]), `K` the finite
//! values of its options; the outcome ([`Outcome`]) is `P` for 0, `N` for `m > 0` or
//! `∞(K)` with `0 ∈ K`, and `D` (a draw) otherwise. Sums add by Smith's rule (`Grundy + Grundy`).
//!
//! - [`catalogue`]: `windup:N:S` and `loopy-digraph` as entries of the game catalogue.
//! - [`value`]: [`Grundy`], [`Outcome`], the sum rule, text `∞(0,2)` and JSON
//!   `{"infinite": [0, 2]}`.
//! - [`digraph`]: an explicit move graph ([`Digraph`], compressed rows, loops and repeated
//!   edges allowed).
//! - [`label`]: the labelling ([`LabelledGraph`]): every vertex's value, outcome, Smith's
//!   remoteness, winning and drawing moves, one retrograde pass with counters per value.
//! - `sum` (internal): tokens on one graph by Smith's rule, behind
//!   [`LoopyGraph::analyze`]; [`LabelledGraph::sum_value`] is their value.
//! - [`implicit`]: any [`grundy_core::Game`] explored from a start within the catalogue's
//!   [`Budget`](grundy_core::catalogue::Budget)
//!   ([`explore`], [`analyze_game`]).
//! - [`windup`]: the loopy family `windup:N:S` ([`Windup`]).
//! - [`named`]: graph files with cycles ([`LoopyGraph`], [`analyze`]) and explanations in
//!   words ([`LoopyGraph::explain`]).
//!
//! ```
//! use grundy_loopy::{LoopyGraph, Outcome, Grundy};
//!
//! // Each of a and c alone is won (take the exit x or y), but together they are a draw:
//! // whoever takes an exit first hands the opponent the other won game, and the tokens can
//! // wander through b and d (which loop) forever.
//! let g = LoopyGraph::parse("a b\nb a\na x\nc d\nd c\nc y\nb b\nd d\n")?;
//! let a = g.analyze(&["a", "c"])?;
//! let t = a.tokens.unwrap();
//! assert_eq!(g.labelled().outcome(0), Outcome::N);
//! assert_eq!(t.outcome, Outcome::D);
//! assert_eq!(t.grundy, Grundy::infinite([]));
//! # Ok::<(), grundy_loopy::LoopyGraphError>(())
//! ```

#![forbid(unsafe_code)]

mod answer;
pub mod catalogue;
pub mod digraph;
pub mod implicit;
pub mod label;
pub mod named;
mod sum;
pub mod value;
pub mod windup;

pub use digraph::{Digraph, DigraphError};
pub use grundy_core::Outcome;
pub use implicit::{analyze_game, explore, Explored, LimitError, PositionAnalysis, PositionValue};
pub use label::{LabelledGraph, OptionInfo, ValueOf, ValueTable};
pub use named::{
    analyze, explain_vertex, LoopyAnswer, LoopyGraph, LoopyGraphAnalysis, LoopyGraphError,
    LoopyRow, LoopyRows, LoopyTokenReport, LoopyVertex, EXPLAIN_MAX_MOVES,
};
pub use value::Grundy;
pub use windup::{Windup, WindupError, WINDUP_MAX_MOVES, WINDUP_MAX_N};
