//! grundy: combinatorial games solved exactly.
//!
//! This crate is the library every front end shares (the `grundy` command, the Python
//! package, the terminal game and the web playground): each question the command line
//! answers is one call here that returns a typed result, and every result serializes itself
//! (`serde::Serialize`) to the one JSON schema documented in `docs/json.md`.
//!
//! | module | what it answers |
//! |---|---|
//! | [`catalogue`] | every game in one registry: list, open by name, analyse any position, list moves for play |
//! | [`nim`] | Nim and misère Nim: nim-sum, outcome, every winning move, explained |
//! | [`nimber`] | the field of nimbers: products, inverses, square roots |
//! | [`game`] | the [`Game`] trait, the memoised solver ([`Solver`]), sums, [`Analysis`] |
//! | [`graph`] | games on directed graphs read from text |
//! | [`heap`] | one-heap rules (take-and-break codes, subtraction sets, named games): sequences with the engine chosen for you, periods with their proof status, sums of heaps, record-scale runs |
//! | [`games`] | the catalogue: Fibonacci Nim, Wythoff, mazes, wall-making, Cram, Chomp, the card game |
//! | [`board`] | the search engine of Node Kayles, Arc Kayles and Cram: boards to 128 cells, a table saved and resumed |
//! | [`penney`] | pattern races (Penney's game) with exact probabilities |
//! | [`script`] | your own games written in Lua: values, outcomes, winning moves, sequences, tables, sums |
//! | [`survey`] | whole families of heap games (`octal:3`, `sub:8`, …) solved into a resumable SQLite table |
//! | [`picture`] | pictures of positions as data: where each vertex of a graph or digraph stands, for every front end to draw |
//! | [`play`] | playing a game against the engine: legal moves, hint, why, the engine's reply, undo |
//! | [`plot`] | pictures of values: a sequence G(n), the grid G(x, y) of a two-heap game, as SVG or PNG bytes |
//!
//! One vocabulary holds everywhere: a position's [`Outcome`] is `"N"` when the player to move
//! wins and `"P"` otherwise; `grundy` is a Sprague–Grundy value; `winning_moves` lists only
//! moves that win; exact fractions are strings such as `"7/8"`; integers that may pass 2^53
//! are strings. Errors of every family are one [`Error`].
//!
//! ```
//! use grundy::heap::{self, Compute};
//!
//! // Kayles: the sequence until its period is proven, then a sum of three rows.
//! let rule = heap::parse("kayles")?;
//! let seq = heap::find_period(&rule, &mut Compute::default())?;
//! let p = seq.period.as_ref().unwrap();
//! assert_eq!((p.period, p.preperiod, p.status), (12, 71, heap::Status::Proven));
//! let sum = heap::analyze_position(&rule, &[7, 9, 12], &mut Compute::default())?;
//! assert_eq!(sum.analysis.grundy, 2 ^ 4 ^ 4);
//! assert_eq!(sum.analysis.winning_moves.len(), 5);
//! # Ok::<(), grundy::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod catalogue;
mod error;
pub mod heap;
pub mod input;
pub mod limits;
pub mod picture;
pub mod play;
pub mod plot;
pub mod survey;

pub use error::{Error, ErrorKind, Result};
pub use grundy_core::game::{Game, Outcome};
pub use grundy_core::solver::{Analysis, Solver};
pub use grundy_core::{Budget, Grundy, Move, Play};

/// The one budget of every search: positions and estimated bytes of its tables
/// ([`Budget`]), and the [`budget::Limit`] a search past either cap returns.
pub mod budget {
    pub use grundy_core::budget::*;
}

/// Nim and misère Nim: the moves and the nim-sum, the Nim game for the generic solver, and the
/// byte parser of millions of heaps. A position's analysis (Bouton's closed form, the textbook
/// explanation, a stream of 10^7 heaps) is the registry's `nim` and `misere-nim`
/// ([`crate::catalogue::Registry::ask`], [`crate::catalogue::Registry::feed`]): one result
/// shape, the report; the core's own analysis type stays behind it.
pub mod nim {
    pub use grundy_core::nim::{
        abbreviated_position, nim_move, nim_sum, parse_heap, parse_heaps, winning_moves, HeapError,
        HeapParser, NimGame, Play, JSON_LISTED_MOVES, JSON_LISTED_SIZES,
    };
}

/// The field of nimbers on `u32`, `u64` and `u128`: nim addition and multiplication, inverse,
/// division and square roots.
pub mod nimber {
    pub use grundy_core::nimber::*;
}

/// The impartial game model: implement [`Game`] for your rules and the
/// memoised [`Solver`] gives values, outcomes, winning moves (normal and
/// misère play) and sums.
pub mod game {
    pub use grundy_core::game::*;
    pub use grundy_core::mex::{mex, Mex};
    pub use grundy_core::solver::*;
    pub use grundy_core::sum::*;
}

/// Text helpers every front end shares: quoting user tokens in one-line errors, exact JSON
/// integers.
pub mod text {
    pub use grundy_core::text::*;
}

/// Games on directed graphs read from text: the value of every vertex, tokens, winning moves.
pub mod graph {
    pub use grundy_core::graph::*;
}

/// The game catalogue: each game a module with its fast algorithm and its oracle.
pub mod games {
    pub use grundy_games::*;
}

/// The search engine for vertex-deletion games on graphs of up to 128 vertices (Node Kayles,
/// Arc Kayles, Cram as Arc Kayles on a grid): [`board::cram::ask`] answers `grundy cram`
/// (a budget, a stop flag, progress, a table file saved and resumed); larger graphs, to 1024
/// vertices (the queens graphs past 11 × 11), by [`board::expand`], the engine under an
/// expansion of the first moves, which the registry's `node-kayles` and `arc-kayles` answer
/// through the same door.
pub mod board {
    pub use grundy_board::*;
}

/// Loopy games: Smith's generalized values (finite, or ∞ with its set K), draws, remoteness,
/// sums of tokens, graphs with cycles, the `windup:N:S` family.
pub mod loopy {
    pub use grundy_loopy::*;
}

/// Misère play beyond search: quotients of heap rules (Plambeck–Siegel), Conway's genus,
/// misère canonical forms.
pub mod misere {
    pub use grundy_misere::*;
}

/// Pattern races (Penney's game) with exact rational answers.
pub mod penney {
    pub use grundy_penney::*;
}

/// Games written in Lua (a sandboxed Luau state per session), solved by the generic solver:
/// load a [`script::Script`] from source text, open a [`script::Session`] per thread, ask for
/// a sum's analysis (normal or misère), a sequence, a 2-D table or an explanation.
pub mod script {
    pub use grundy_script::*;
}
