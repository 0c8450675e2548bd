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
//! # Answering a question: [`ask`]
//!
//! [`ask`] answers a catalogue question about a board under normal play on the engine (the
//! call behind `grundy cram`, `grundy analyze cram` and every other door): the value, the
//! winning placements or every placement valued, as the question's detail asks; within its
//! budget (search nodes, table memory), stopped by its stop flag, watched by its progress
//! callback, with its table kept in a file when the `table` param names one.

use crate::engine::{Analysis, Engine, Move, Options, Rules, SearchError};
use crate::graph::{Graph, VertexSet};
use grundy_core::budget::Budget;
use grundy_core::catalogue::{
    explain_by_options, explain_value, explain_winning, Ask, Detail, Error, Grundy, Param, Report,
};
use grundy_core::Outcome;
use serde::Serialize;
use std::fmt;

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

/// The default budget of a Cram search where one is needed (a server, a notebook): two
/// million search nodes (a few seconds: 5 × 7 needs about half a million) and a table of at
/// most 1 GiB (it starts at 384 KiB and grows only as it fills).
pub const DEFAULT_BUDGET: Budget = Budget::new(2_000_000, 1 << 30);

pub use crate::ask::MIN_MEMORY;

/// The params of `cram`: the engine's threads, table file and mirror shortcut.
pub const PARAMS: [Param; 3] = [
    crate::ask::THREADS,
    crate::ask::TABLE,
    crate::ask::NO_MIRROR,
];

/// What a Cram report's `details` hold besides the value: the board's size, the shortcut
/// that settled it, the search's work.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CramDetails {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Empty cells.
    pub cells: u32,
    /// True when the value 0 follows from the half-turn mirror strategy
    /// ([`Board::mirror_zero`]).
    pub mirror_strategy: bool,
    /// Search nodes of this question (component questions: the engine's measure of work).
    pub positions: u64,
    /// Table entries read back from the `table` file before the search (0 without one).
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

/// Answers `ask` about `board` under normal play on the engine ([`crate::ask::search`]): the
/// root alone for the value, P-questions on the placements for the winning moves, every
/// placement valued for all of them; the params of [`PARAMS`] (threads, table file, mirror).
/// The catalogue's `cram` calls it.
///
/// ```
/// use grundy_board::cram::{self, Board};
/// use grundy_core::catalogue::{Ask, Budget, Play};
///
/// let r = cram::ask(&Board::parse("1x3")?, &Ask::new(Play::Normal)).unwrap();
/// assert_eq!(r.grundy, Some(1u64.into()));
/// assert_eq!(r.winning_moves[0].text, "place a horizontal domino on (0, 0)-(0, 1)");
/// assert_eq!(r.winning_moves[0].to.text, "##.");
/// assert_eq!(r.winning_moves[0].at["cells"], serde_json::json!([[0, 0], [0, 1]]));
///
/// // Past the budget's position cap (search nodes): a limit naming the board.
/// let small = Ask::new(Play::Normal).budget(Budget::positions(10));
/// let e = cram::ask(&Board::parse("5x6")?, &small).unwrap_err();
/// assert!(e.is_limit());
/// assert!(e.to_string().starts_with("board 5x6: the search needs more than 10 positions"));
/// # Ok::<(), grundy_board::cram::BoardError>(())
/// ```
pub fn ask(board: &Board, ask: &Ask) -> Result<Report, Error> {
    let what = what(board);
    let opts = crate::ask::options(ask, &PARAMS, &what)?;
    let mirror = opts.mirror && board.mirror_zero();
    let mut e = board
        .engine(opts)
        .map_err(|err| crate::ask::search_error(err, ask, &what, None))?;
    let found = crate::ask::search(&mut e, board.empty, ask, &what)?;
    let g = u64::from(found.grundy);
    let outcome = Outcome::from_grundy(g);
    let mut r = Report::new(
        "cram",
        board.position(),
        ask.play,
        outcome,
        Some(Grundy::Finite(g)),
    )
    .at(ask.detail);
    let placement = |m: Move, outcome: Outcome, v: Option<u64>| match m {
        Move::Edge(a, b) if a != b => Some(board.placement(a, b, outcome, v)),
        _ => None,
    };
    r.winning_moves = found
        .winning
        .iter()
        .filter_map(|&(m, _)| placement(m, Outcome::P, Some(0)))
        .collect();
    r.all_moves = found
        .all
        .iter()
        .filter_map(|&(m, _, v)| placement(m, Outcome::from_grundy(v.into()), Some(v.into())))
        .collect();
    if ask.detail.wants_winning() {
        r.moves = Some(found.count as u64);
    }
    r.explanation = if mirror {
        vec![
            "The board is symmetric under a half-turn and no domino covers a cell and its \
             image: the second player answers each domino with its rotated image and wins \
             (value 0)."
                .to_string(),
        ]
    } else {
        match ask.detail {
            Detail::Value => explain_value(Some(g), outcome),
            Detail::Winning => explain_winning(outcome, found.winning.len(), found.count),
            Detail::All => explain_by_options(g, &r.all_moves),
        }
    };
    if !mirror && board.regions() > 1 {
        r.explanation.push(
            "The empty cells fall apart into regions, separate games whose values XOR.".into(),
        );
    }
    r.details = serde_json::to_value(CramDetails {
        rows: board.rows,
        cols: board.cols,
        cells: board.empty.count_ones(),
        mirror_strategy: mirror,
        positions: found.nodes,
        resumed: found.resumed,
        table_entries: found.entries,
    })
    .unwrap_or_default();
    Ok(r)
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
