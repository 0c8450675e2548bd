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

use crate::engine::{Analysis, Engine, Options, Rules, SearchError};
use crate::graph::{Graph, VertexSet};
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
    #[error("row {row} has {len} cells but row 1 has {expected}")]
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
