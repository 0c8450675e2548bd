//! Cram on the engine: players alternately cover two adjacent empty cells with a domino;
//! whoever cannot loses. Cram is Arc Kayles on the grid graph of the board's empty cells.
//!
//! # Board notation
//!
//! `RxC` for an empty `R × C` board, or the rows of the board, each a string of `.` (empty)
//! and `#` (filled), separated by `|` or newlines (all rows the same length): `...|.#.` is a
//! 2 × 3 board with its centre bottom cell filled. At most [`MAX_CELLS`] cells.
//!
//! ```
//! use grundy_board::cram::Board;
//! use grundy_board::engine::Options;
//!
//! let b = Board::parse("3x3")?;
//! assert_eq!(b.to_string(), "...|...|...");
//! let a = b.analyze(Options::default()).unwrap();
//! assert_eq!(a.grundy, 0); // 3x3 is a second-player win
//! # Ok::<(), grundy_board::cram::BoardError>(())
//! ```
//!
//! # Analysing a board: [`analyze`]
//!
//! [`analyze`] answers what `grundy cram` prints ([`CramAnalysis`]: the value, the outcome,
//! every winning placement) within a [`Budget`] ([`CramOptions::budget`]: its position cap
//! bounds the search nodes, its memory cap the table), can be stopped from another thread
//! ([`CramOptions::stop`]) and watched (a progress callback), and keeps its table in a file
//! ([`CramOptions::table`]): read back when the file exists, written at the end, also when the
//! search stopped or reached its node limit, so that a long search runs over as many sittings
//! as it needs. A table of another game is refused.
//!
//! ```
//! use grundy_board::cram::{self, Board, CramOptions};
//! use grundy_core::Budget;
//!
//! let a = cram::analyze(&Board::parse("1x3")?, &CramOptions::default(), None).unwrap();
//! assert_eq!(a.grundy, 1);
//! assert_eq!(a.winning_moves[0].text, "place a horizontal domino on (0, 0)-(0, 1)");
//! assert_eq!(a.winning_moves[0].to.text, "##.");
//! assert_eq!(a.winning_moves[0].at["cells"], serde_json::json!([[0, 0], [0, 1]]));
//!
//! // Past the budget's position cap (search nodes): a limit naming the board.
//! let small = CramOptions { budget: Budget::positions(10), ..CramOptions::default() };
//! let e = cram::analyze(&Board::parse("5x6")?, &small, None).unwrap_err();
//! assert!(e.is_limit());
//! assert!(e.to_string().starts_with("board 5x6: the search needs more than 10 positions"));
//! # Ok::<(), grundy_board::cram::BoardError>(())
//! ```

use crate::engine::{Analysis, Engine, Move, Options, Progress, Rules, SearchError};
use crate::graph::{Graph, VertexSet};
use crate::table::SLOT_BYTES;
use grundy_core::budget::{Budget, Limit, Resource};
use grundy_core::catalogue::{Error, ErrorKind};
use grundy_core::Outcome;
use serde::Serialize;
use std::fmt;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The most cells a board may have.
pub const MAX_CELLS: usize = 128;

/// Why a board's text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Nothing but whitespace.
    #[error("empty board")]
    Empty,
    /// A character other than `.` and `#` in a row.
    #[error("row {row}: unexpected character {ch:?} (expected '.' or '#')")]
    BadChar {
        /// The row (1-based).
        row: usize,
        /// The character.
        ch: char,
    },
    /// Rows of different lengths.
    #[error("ragged board: row {row} has {len} cells but row 1 has {expected}")]
    Ragged {
        /// The row (1-based).
        row: usize,
        /// Its length.
        len: usize,
        /// The first row's length.
        expected: usize,
    },
    /// `RxC` with a bad number.
    #[error("bad board size {0:?} (expected RxC with R, C >= 1)")]
    BadSize(String),
    /// More cells than [`MAX_CELLS`].
    #[error("{0} cells: at most 128 are supported")]
    TooLarge(usize),
}

/// A Cram board: its size and its empty cells (bit `r * cols + c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    empty: VertexSet,
}

impl Board {
    /// The empty `rows × cols` board.
    pub fn rectangle(rows: usize, cols: usize) -> Result<Board, BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::BadSize(format!("{rows}x{cols}")));
        }
        let n = rows.saturating_mul(cols);
        if n > MAX_CELLS {
            return Err(BoardError::TooLarge(n));
        }
        Ok(Board {
            rows,
            cols,
            empty: if n == 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            },
        })
    }

    /// Reads the notation of the module documentation.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(BoardError::Empty);
        }
        if t.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            let short = || BoardError::BadSize(t.chars().take(20).collect());
            let (r, c) = t.split_once(['x', 'X']).ok_or_else(short)?;
            let num = |s: &str| -> Result<usize, BoardError> {
                let s = s.trim();
                if s.is_empty() || s.len() > 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(short());
                }
                s.parse().map_err(|_| short())
            };
            return Board::rectangle(num(r)?, num(c)?);
        }
        let rows: Vec<&str> = t
            .split(['|', '\n'])
            .map(|r| r.trim())
            .filter(|r| !r.is_empty())
            .collect();
        if rows.is_empty() {
            return Err(BoardError::Empty);
        }
        let cols = rows[0].chars().count();
        let mut empty = 0u128;
        let mut n = 0usize;
        for (i, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != cols {
                return Err(BoardError::Ragged {
                    row: i + 1,
                    len,
                    expected: cols,
                });
            }
            for ch in row.chars() {
                match ch {
                    '.' | '#' => {}
                    _ => return Err(BoardError::BadChar { row: i + 1, ch }),
                }
            }
            n += len;
            if n > MAX_CELLS {
                return Err(BoardError::TooLarge(rows.len().saturating_mul(cols)));
            }
            for (j, ch) in row.chars().enumerate() {
                if ch == '.' {
                    empty |= 1u128 << (i * cols + j);
                }
            }
        }
        Ok(Board {
            rows: rows.len(),
            cols,
            empty,
        })
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The empty cells, bit `r * cols + c`.
    pub fn empty(&self) -> VertexSet {
        self.empty
    }

    /// The same board with other empty cells (bits past the board are ignored).
    pub fn with_empty(&self, empty: VertexSet) -> Board {
        let n = self.rows * self.cols;
        let all = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        Board {
            empty: empty & all,
            ..*self
        }
    }

    /// The grid graph of all the board's cells (positions are its empty cells).
    pub fn graph(&self) -> Graph {
        Graph::grid(self.rows, self.cols).expect("a board has at most 128 cells")
    }

    /// The cell `(row, col)` of a vertex.
    pub fn cell(&self, v: usize) -> (usize, usize) {
        (v / self.cols, v % self.cols)
    }

    /// An engine for Cram on boards of this size.
    pub fn engine(&self, opts: Options) -> Result<Engine, SearchError> {
        Engine::new(Rules::ArcKayles, self.graph(), opts)
    }

    /// The board's nim value, outcome and winning moves (as edges between cell numbers
    /// `r * cols + c`).
    pub fn analyze(&self, opts: Options) -> Result<Analysis, SearchError> {
        self.engine(opts)?.analyze(self.empty)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rows {
            if r > 0 {
                f.write_str("|")?;
            }
            for c in 0..self.cols {
                let e = self.empty >> (r * self.cols + c) & 1 != 0;
                f.write_str(if e { "." } else { "#" })?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Board {
    type Err = BoardError;
    fn from_str(s: &str) -> Result<Board, BoardError> {
        Board::parse(s)
    }
}

/// The default budget of [`analyze`]: two million search nodes (a few seconds: 5 × 7 needs
/// about half a million) and a table of at most 1 GiB (it starts at 384 KiB and grows only as
/// it fills). Raise it per call ([`CramOptions::budget`]).
pub const DEFAULT_BUDGET: Budget = Budget::new(2_000_000, 1 << 30);

/// The least memory cap [`analyze`] accepts: a table below 1 MiB would hold too little to
/// search anything but tiny boards, so a smaller cap is refused as a memory [`Limit`].
pub const MIN_MEMORY: u64 = 1 << 20;

/// A progress callback of [`analyze`]: called every [`Options::check_every`] search nodes.
pub type Watch = Box<dyn FnMut(&Progress) + Send>;

/// How [`analyze`] searches.
#[derive(Clone, Debug)]
pub struct CramOptions {
    /// Settle components symmetric under a half-turn (value 0) without searching them
    /// ([`Options::mirror`]).
    pub mirror: bool,
    /// The search's caps: `max_positions` search nodes (past it, a [`Limit`] naming
    /// positions), and `max_bytes` of table (at least [`MIN_MEMORY`], else a [`Limit`] naming
    /// memory; a full table replaces its lightest entries, so memory never stops a search).
    pub budget: Budget,
    /// Raised from anywhere, the search stops with an error of kind
    /// [`ErrorKind::Stopped`] (the table, with [`CramOptions::table`], is saved first).
    pub stop: Option<Arc<AtomicBool>>,
    /// A table file: read when it exists (refused when it is not a Cram table), written when
    /// the search ends, is stopped or reaches its node limit.
    pub table: Option<PathBuf>,
    /// Threads searching large components side by side ([`Options::threads`]); 1 by
    /// default. Two halve the wall time of 5x7 and 5x8 on an idle machine (docs/benchmarks.md)
    /// and gain nothing on a busy one.
    pub threads: usize,
}

impl Default for CramOptions {
    fn default() -> CramOptions {
        CramOptions {
            mirror: true,
            budget: DEFAULT_BUDGET,
            stop: None,
            table: None,
            threads: 1,
        }
    }
}

/// A board analysed by [`analyze`]: what `grundy cram --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CramAnalysis {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Empty cells.
    pub cells: u32,
    /// The Grundy value.
    pub grundy: u64,
    /// `N` when the player to move wins.
    pub outcome: Outcome,
    /// True when the value 0 follows from the half-turn mirror strategy
    /// ([`Board::mirror_zero`]).
    pub mirror_strategy: bool,
    /// Every winning placement (empty in a P-position), each made by [`Board::placement`].
    pub winning_moves: Vec<grundy_core::Move>,
    /// Search nodes of this run (component questions: the engine's measure of work).
    pub positions: u64,
    /// Table entries read from [`CramOptions::table`] before the search (0 without one).
    pub resumed: u64,
    /// Table entries at the end.
    pub table_entries: u64,
}

impl Board {
    /// True when the second player wins by mirroring: the cells that can still be covered
    /// (empty, with an empty neighbour) are symmetric under the half-turn about the centre of
    /// their bounding box, and no domino can cover a cell together with its image (the centre
    /// cell, or the two central cells, are not all empty). Answering each domino with its
    /// rotated image then always stays legal, so the value is 0. False for a board with no
    /// move at all.
    pub fn mirror_zero(&self) -> bool {
        let cols = self.cols;
        let at = |m: VertexSet, r: usize, c: usize| m >> (r * cols + c) & 1 != 0;
        let mut live: VertexSet = 0;
        for v in crate::engine::bits(self.empty) {
            let (r, c) = self.cell(v);
            let near = (c > 0 && at(self.empty, r, c - 1))
                || (c + 1 < cols && at(self.empty, r, c + 1))
                || (r > 0 && at(self.empty, r - 1, c))
                || (r + 1 < self.rows && at(self.empty, r + 1, c));
            if near {
                live |= 1u128 << v;
            }
        }
        if live == 0 {
            return false;
        }
        let cells: Vec<(usize, usize)> = crate::engine::bits(live).map(|v| self.cell(v)).collect();
        let (r0, r1) = (cells[0].0, cells[cells.len() - 1].0);
        let c0 = cells.iter().map(|p| p.1).min().unwrap_or(0);
        let c1 = cells.iter().map(|p| p.1).max().unwrap_or(0);
        if !cells
            .iter()
            .all(|&(r, c)| at(live, r0 + r1 - r, c0 + c1 - c))
        {
            return false;
        }
        let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
        let (mr, mc) = (r0 + h / 2, c0 + w / 2);
        match (h % 2, w % 2) {
            (0, 0) => true,
            (1, 0) => !(at(live, mr, mc - 1) && at(live, mr, mc)),
            (0, _) => !(at(live, mr - 1, mc) && at(live, mr, mc)),
            _ => !at(live, mr, mc),
        }
    }

    /// Every domino that fits: `(a, b)` with `a < b` adjacent empty cells (`r * cols + c`), in
    /// reading order of `a`, the horizontal placement before the vertical one.
    pub fn placements(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for a in crate::engine::bits(self.empty) {
            let (r, c) = self.cell(a);
            if c + 1 < self.cols && self.empty >> (a + 1) & 1 != 0 {
                out.push((a, a + 1));
            }
            if r + 1 < self.rows && self.empty >> (a + self.cols) & 1 != 0 {
                out.push((a, a + self.cols));
            }
        }
        out
    }

    /// The number of regions the empty cells fall into (cells joined across a shared side):
    /// each region is a separate game.
    pub fn regions(&self) -> usize {
        let cols = self.cols;
        let left_edge = (0..self.rows).fold(0u128, |m, r| m | 1u128 << (r * cols));
        let right_edge = left_edge << (cols - 1);
        let mut rest = self.empty;
        let mut n = 0;
        while rest != 0 {
            let mut region = rest & rest.wrapping_neg();
            loop {
                let grown = region
                    | (region & !right_edge) << 1
                    | (region & !left_edge) >> 1
                    | region.checked_shl(cols as u32).unwrap_or(0)
                    | region.checked_shr(cols as u32).unwrap_or(0);
                let grown = grown & rest;
                if grown == region {
                    break;
                }
                region = grown;
            }
            rest &= !region;
            n += 1;
        }
        n
    }

    /// The board as a position of the catalogue's `cram` (kind `board`): its `text` is `RxC`
    /// when every cell is empty, else the rows joined by `|`; its data `rows`, the rows.
    pub fn position(&self) -> grundy_core::catalogue::Position {
        let text = self.to_string();
        let rows: Vec<&str> = text.split('|').collect();
        let full = self.empty.count_ones() as usize == self.rows * self.cols;
        let shown = if full {
            format!("{}x{}", self.rows, self.cols)
        } else {
            text.clone()
        };
        grundy_core::catalogue::Position::text("board", shown).with("rows", rows)
    }

    /// The placement of a domino on the cells `a` and `b` (`r * cols + c`, `a < b`,
    /// adjacent) as the one move type: "place a vertical domino on (0, 1)-(1, 1)", the board
    /// it leaves as [`Board::position`], `outcome` and `grundy` those of that board, and
    /// [`grundy_core::Move::at`] `{"cells": [[0, 1], [1, 1]], "direction": "vertical"}` (the
    /// cells covered, [row, column] from the top left, in reading order).
    pub fn placement(
        &self,
        a: usize,
        b: usize,
        outcome: Outcome,
        grundy: Option<u64>,
    ) -> grundy_core::Move {
        let cells = [self.cell(a), self.cell(b)];
        let direction = if cells[0].0 == cells[1].0 {
            "horizontal"
        } else {
            "vertical"
        };
        let at = format!(
            "({}, {})-({}, {})",
            cells[0].0, cells[0].1, cells[1].0, cells[1].1
        );
        let to = self.with_empty(self.empty & !(1u128 << a | 1u128 << b));
        grundy_core::Move::new(
            format!("place a {direction} domino on {at}"),
            &format!("{direction} {at}"),
            to.position(),
            outcome,
            grundy,
        )
        .at("cells", cells)
        .at("direction", direction)
    }
}

/// `board RxC`: what a limit or a stop names.
fn what(board: &Board) -> String {
    format!("board {}x{}", board.rows, board.cols)
}

/// The engine's options for a Cram search of `board` within `budget` (refused, as a memory
/// [`Limit`], when its memory cap is below [`MIN_MEMORY`]).
pub fn engine_options(board: &Board, budget: &Budget, mirror: bool) -> Result<Options, Error> {
    if budget.max_bytes < MIN_MEMORY {
        return Err(Limit {
            what: what(board),
            resource: Resource::Memory,
            max_positions: budget.max_positions,
            max_bytes: budget.max_bytes,
            entry_bytes: SLOT_BYTES as u64,
        }
        .into());
    }
    Ok(Options {
        max_memory: usize::try_from(budget.max_bytes).unwrap_or(usize::MAX),
        max_nodes: (budget.max_positions != u64::MAX).then_some(budget.max_positions),
        mirror,
        ..Options::default()
    })
}

/// A search's error in the catalogue's vocabulary: the node limit is the budget's position
/// [`Limit`] naming the board, a stop is [`ErrorKind::Stopped`] (`saved` names the table file
/// that keeps what the search learned), a table file that cannot be read is bad input.
pub fn search_error(
    board: &Board,
    budget: &Budget,
    e: SearchError,
    saved: Option<&std::path::Path>,
) -> Error {
    match e {
        SearchError::NodeLimit { .. } => Limit {
            what: what(board),
            resource: Resource::Positions,
            max_positions: budget.max_positions,
            max_bytes: budget.max_bytes,
            entry_bytes: SLOT_BYTES as u64,
        }
        .into(),
        SearchError::Stopped { nodes } => Error {
            kind: ErrorKind::Stopped,
            message: match saved {
                Some(p) => format!(
                    "{}: stopped after {nodes} search nodes; the table in {} keeps what it learned",
                    what(board),
                    p.display()
                ),
                None => format!("{}: stopped after {nodes} search nodes", what(board)),
            },
            parameter: None,
        },
        SearchError::Table(t) => Error::input(format!("table file: {t}")),
        e => Error::input(e.to_string()),
    }
}

/// Analyses `board` within `options`: value, outcome and every winning placement, with the
/// table read from and written to [`CramOptions::table`]; `progress` is called every
/// [`Options::check_every`] search nodes.
pub fn analyze(
    board: &Board,
    options: &CramOptions,
    progress: Option<Watch>,
) -> Result<CramAnalysis, Error> {
    let budget = &options.budget;
    let mut opts = engine_options(board, budget, options.mirror)?;
    opts.threads = options.threads.max(1);
    opts.stop = options.stop.clone();
    let mut e = board
        .engine(opts)
        .map_err(|e| search_error(board, budget, e, None))?;
    if let Some(f) = progress {
        e.set_progress(f);
    }
    let table = options.table.as_deref();
    let resumed = match table {
        Some(p) if p.exists() => e
            .load(p)
            .map_err(|err| Error::input(format!("{}: {}", p.display(), table_words(err))))?,
        _ => 0,
    };
    let result = e.analyze(board.empty);
    if let Some(p) = table {
        if matches!(
            result,
            Ok(_) | Err(SearchError::Stopped { .. } | SearchError::NodeLimit { .. })
        ) {
            e.save(p).map_err(|err| {
                Error::failure(format!(
                    "writing the table {}: {}",
                    p.display(),
                    table_words(err)
                ))
            })?;
        }
    }
    let a: Analysis = result.map_err(|err| search_error(board, budget, err, table))?;
    let winning_moves = a
        .winning_moves
        .iter()
        .filter_map(|m| match *m {
            Move::Edge(u, v) if u != v => Some(board.placement(u, v, Outcome::P, Some(0))),
            _ => None,
        })
        .collect();
    Ok(CramAnalysis {
        rows: board.rows,
        cols: board.cols,
        cells: board.empty.count_ones(),
        grundy: a.grundy,
        outcome: a.outcome,
        mirror_strategy: options.mirror && board.mirror_zero(),
        winning_moves,
        positions: e.nodes(),
        resumed,
        table_entries: e.table().len() as u64,
    })
}

/// A table file's error in words (without the engine's "table file:" prefix).
fn table_words(e: SearchError) -> String {
    match e {
        SearchError::Table(crate::table::LoadError::Io(io))
            if io.kind() == std::io::ErrorKind::UnexpectedEof =>
        {
            "not a saved grundy-board table (it ends early)".into()
        }
        SearchError::Table(crate::table::LoadError::Mismatch { found, .. }) => {
            format!("a table of {found}, not of Cram (arc-kayles lattice)")
        }
        SearchError::Table(t) => t.to_string(),
        e => e.to_string(),
    }
}

impl CramAnalysis {
    /// The analysis as text for a reader, the words every front end shows (`grundy cram`): the
    /// board, the value, the outcome and why, every winning placement.
    ///
    /// ```
    /// use grundy_board::cram::{self, Board, CramOptions};
    ///
    /// let a = cram::analyze(&Board::parse("1x3")?, &CramOptions::default(), None).unwrap();
    /// assert_eq!(a.describe().lines().nth(2), Some("Outcome: N - the player to move wins."));
    /// # Ok::<(), grundy_board::cram::BoardError>(())
    /// ```
    pub fn describe(&self) -> String {
        let mut s = format!(
            "Cram on a {}x{} board with {} empty cells\nGrundy value: {} ({} search nodes)\n",
            self.rows, self.cols, self.cells, self.grundy, self.positions
        );
        match self.outcome {
            Outcome::P if self.mirror_strategy => s.push_str(
                "Outcome: P - the player to move loses: the board is symmetric under a half-turn \
                 and no domino covers a cell and its image, so the second player answers each \
                 domino with its rotated image (the mirror shortcut can be turned off).\n",
            ),
            Outcome::P | Outcome::D => s.push_str(
                "Outcome: P - the player to move loses: every placement leaves a non-zero value.\n",
            ),
            Outcome::N => {
                s.push_str("Outcome: N - the player to move wins.\n");
                for m in &self.winning_moves {
                    let _ = writeln!(s, "Winning move: {}; it leaves value 0.", m.text);
                }
            }
        }
        if self.resumed > 0 {
            let _ = writeln!(
                s,
                "Table: {} entries read back, {} at the end.",
                self.resumed, self.table_entries
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let b = Board::parse(".#.\n...").unwrap();
        assert_eq!((b.rows(), b.cols()), (2, 3));
        assert_eq!(b.to_string(), ".#.|...");
        assert_eq!(Board::parse(&b.to_string()).unwrap(), b);
        assert_eq!(Board::parse("2x3").unwrap().to_string(), "...|...");
        for bad in [
            "",
            "|",
            "|\n|",
            "..|.",
            "..x",
            "0x3",
            "12x12",
            "3x",
            "x3",
            "99999999x9",
        ] {
            let e = Board::parse(bad).unwrap_err();
            assert!(!e.to_string().contains('\n'));
        }
    }
}
