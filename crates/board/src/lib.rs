//! grundy-board: a search engine for decomposable impartial games on small graphs and boards.
//!
//! - [`graph`]: graphs in one line of text (`path:N`, `cycle:N`, `grid:RxC`, `ladder:N`,
//!   `star:K`, `complete:N`, `complete:M,N`, `petersen:N,K`, `queens:N`, edge lists `0-1,1-2`),
//!   held as the engine's [`graph::Graph`] to 128 vertices.
//! - [`ask`]: a catalogue question answered on the engine or the expansion (one `search`).
//! - [`engine`]: the [`Engine`]: Node Kayles and Arc Kayles on a graph, valued by component
//!   decomposition, canonical component keys (the lattice's symmetries folded in), the
//!   Lemoine–Viennot question "is G + *n a P-position?", pruning by known values and value
//!   bounds, move ordering, a fixed-size transposition [`table`] that can be saved and resumed,
//!   a stop flag and progress reports.
//! - [`expand`]: graphs past 128 vertices, to 1024 (the queens graphs past 11 × 11): their
//!   first moves expanded until every position left fits the engine.
//! - [`catalogue`]: `node-kayles`, `arc-kayles`, `clobber`, `cannibal-clobber` and `nogo` as
//!   entries of the game catalogue.
//! - [`cram`]: Cram boards (`5x7`, `..#|...`), Arc Kayles on their grid graph.
//!
//! ```
//! use grundy_board::engine::{Engine, Options, Rules};
//! use grundy_board::graph::Graph;
//!
//! // Node Kayles on the 3 x 4 grid (OEIS A316632: 0).
//! let g = Graph::parse("grid:3x4")?;
//! let all = g.all();
//! let mut e = Engine::new(Rules::NodeKayles, g, Options::default()).unwrap();
//! assert_eq!(e.grundy(all).unwrap(), 0);
//! # Ok::<(), grundy_board::graph::GraphError>(())
//! ```

#![forbid(unsafe_code)]

pub mod ask;
pub mod catalogue;
pub mod clobber;
pub mod cram;
pub mod engine;
pub mod expand;
pub mod graph;
pub mod nogo;
pub mod search;
pub mod stones;
pub mod stones_rules;
pub mod table;

pub use engine::{Analysis, Engine, Move, Options, Progress, Rules, SearchError};
pub use graph::{Graph, GraphError, VertexSet};
