//! Boards of stones (Clobber, Cannibal Clobber, NoGo): the notation, the geometry of small
//! boards in 64-bit words, and the canonical keys of components under the plane's symmetries
//! and the swap of the two colours.
//!
//! # Notation
//!
//! A board is its rows, separated by `|` or newlines, each a string of cells: `x` and `o`
//! (stones of the two colours), `.` (an empty point) and `#` (a point off the board). Rows
//! may be given short: `c^n` repeats the cell `c` n times and `(cells)^n` repeats a group
//! (`(xo)^3x` is `xoxoxox`, `x^5` is `xxxxx`). `RxC` names a board of `R` rows and `C`
//! columns, whose cells each game fills in its own way (NoGo: empty; Clobber: a
//! checkerboard with `x` in the top left corner). Upper case `X` and `O` are accepted.
//!
//! ```
//! use grundy_board::stones::Board;
//!
//! let b = Board::parse("(xo)^2x|o^2#..")?;
//! assert_eq!(b.to_string(), "xoxox|oo#..");
//! assert_eq!((b.rows(), b.cols()), (2, 5));
//! # Ok::<(), grundy_board::stones::BoardError>(())
//! ```

use crate::table::Key;
use std::fmt;

/// The most cells a board may have (a row of a million stones).
pub const MAX_CELLS: usize = 1 << 20;

/// The most cells of a board that is not a single row or column: positions of those are
/// words of 64 bits.
pub const MAX_PLANE_CELLS: usize = 64;

/// One point of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    /// A point off the board (`#`).
    Off,
    /// An empty point (`.`).
    Empty,
    /// A stone of the first colour (`x`).
    X,
    /// A stone of the second colour (`o`).
    O,
}

impl Cell {
    fn from_char(ch: char) -> Option<Cell> {
        match ch {
            '#' => Some(Cell::Off),
            '.' => Some(Cell::Empty),
            'x' | 'X' => Some(Cell::X),
            'o' | 'O' => Some(Cell::O),
            _ => None,
        }
    }

    /// The cell's character.
    pub fn char(self) -> char {
        match self {
            Cell::Off => '#',
            Cell::Empty => '.',
            Cell::X => 'x',
            Cell::O => 'o',
        }
    }

    /// True for a stone.
    pub fn is_stone(self) -> bool {
        matches!(self, Cell::X | Cell::O)
    }
}

/// Why a board's text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Nothing but whitespace.
    #[error("empty board")]
    Empty,
    /// A character that is no cell, no `(`, `)`, `^` or digit.
    #[error("row {row}: unexpected character {ch:?} (expected x, o, '.', '#', (cells)^n or c^n)")]
    BadChar {
        /// The row (1-based).
        row: usize,
        /// The character.
        ch: char,
    },
    /// A malformed repetition.
    #[error("row {row}: {what}")]
    BadRepeat {
        /// The row (1-based).
        row: usize,
        /// What is wrong.
        what: String,
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
    /// More cells than the game takes.
    #[error("{cells} cells: {what}")]
    TooLarge {
        /// The board's cells.
        cells: usize,
        /// The limit, in words.
        what: String,
    },
    /// A position the game's rules cannot reach or do not allow.
    #[error("{0}")]
    Illegal(String),
}

/// A board of stones: its size and its cells, row by row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
}

/// What a `RxC` text asks for: a board of that size, filled by the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
}

impl Board {
    /// A board of `rows × cols` cells, each `fill(r, c)`.
    pub fn from_fn(
        rows: usize,
        cols: usize,
        mut fill: impl FnMut(usize, usize) -> Cell,
    ) -> Result<Board, BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::BadSize(format!("{rows}x{cols}")));
        }
        let n = rows.saturating_mul(cols);
        if n > MAX_CELLS {
            return Err(too_large(n));
        }
        let mut cells = Vec::with_capacity(n);
        for r in 0..rows {
            for c in 0..cols {
                cells.push(fill(r, c));
            }
        }
        Ok(Board { rows, cols, cells })
    }

    /// Reads a board, or the size of one (`RxC`) for the game to fill.
    pub fn parse_or_size(text: &str) -> Result<Result<Board, Size>, BoardError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(BoardError::Empty);
        }
        if t.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            let short = || BoardError::BadSize(t.chars().take(20).collect());
            let (r, c) = t.split_once(['x', 'X']).ok_or_else(short)?;
            let num = |s: &str| -> Result<usize, BoardError> {
                let s = s.trim();
                if s.is_empty() || s.len() > 7 || !s.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(short());
                }
                s.parse().map_err(|_| short())
            };
            let (rows, cols) = (num(r)?, num(c)?);
            if rows == 0 || cols == 0 {
                return Err(short());
            }
            let n = rows.saturating_mul(cols);
            if n > MAX_CELLS {
                return Err(too_large(n));
            }
            return Ok(Err(Size { rows, cols }));
        }
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        let mut total = 0usize;
        for (i, line) in t.split(['|', '\n']).map(str::trim).enumerate() {
            if line.is_empty() {
                if i == 0 || rows.is_empty() {
                    continue;
                }
                continue;
            }
            let row = parse_row(line, rows.len() + 1, MAX_CELLS - total)?;
            total += row.len();
            rows.push(row);
        }
        if rows.is_empty() {
            return Err(BoardError::Empty);
        }
        let cols = rows[0].len();
        for (i, r) in rows.iter().enumerate() {
            if r.len() != cols {
                return Err(BoardError::Ragged {
                    row: i + 1,
                    len: r.len(),
                    expected: cols,
                });
            }
        }
        Ok(Ok(Board {
            rows: rows.len(),
            cols,
            cells: rows.concat(),
        }))
    }

    /// Reads a board written cell by cell (not `RxC`).
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        match Board::parse_or_size(text)? {
            Ok(b) => Ok(b),
            Err(s) => Err(BoardError::BadSize(format!(
                "{}x{} (this game needs the cells written out)",
                s.rows, s.cols
            ))),
        }
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The cell at row `r`, column `c`.
    pub fn get(&self, r: usize, c: usize) -> Cell {
        self.cells[r * self.cols + c]
    }

    /// The cells, row by row.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The same board with other cells (row by row, as many as the board has).
    pub fn with_cells(&self, cells: Vec<Cell>) -> Board {
        debug_assert_eq!(cells.len(), self.cells.len());
        Board {
            rows: self.rows,
            cols: self.cols,
            cells,
        }
    }

    /// The board turned a quarter (rows become columns): a single column is searched as a
    /// single row.
    pub fn transposed(&self) -> Board {
        let mut cells = Vec::with_capacity(self.cells.len());
        for c in 0..self.cols {
            for r in 0..self.rows {
                cells.push(self.get(r, c));
            }
        }
        Board {
            rows: self.cols,
            cols: self.rows,
            cells,
        }
    }

    /// The rows as strings, each written out in full.
    pub fn row_strings(&self) -> Vec<String> {
        self.cells
            .chunks(self.cols)
            .map(|r| r.iter().map(|c| c.char()).collect())
            .collect()
    }

    /// How many stones the board holds.
    pub fn stones(&self) -> usize {
        self.cells.iter().filter(|c| c.is_stone()).count()
    }
}

fn too_large(n: usize) -> BoardError {
    BoardError::TooLarge {
        cells: n,
        what: format!("at most {MAX_CELLS} are supported"),
    }
}

/// One row of the notation, with its repetitions, of at most `room` cells.
fn parse_row(text: &str, row: usize, room: usize) -> Result<Vec<Cell>, BoardError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let bad = |what: &str| BoardError::BadRepeat {
        row,
        what: what.to_string(),
    };
    while i < chars.len() {
        let ch = chars[i];
        // The unit: one cell or a parenthesised group.
        let unit: Vec<Cell> = if ch == '(' {
            let close = chars[i + 1..]
                .iter()
                .position(|&c| c == ')')
                .ok_or_else(|| bad("'(' without ')'"))?;
            let inner = &chars[i + 1..i + 1 + close];
            if inner.is_empty() {
                return Err(bad("empty group ()"));
            }
            let mut u = Vec::with_capacity(inner.len());
            for &c in inner {
                u.push(Cell::from_char(c).ok_or(BoardError::BadChar { row, ch: c })?);
            }
            i += close + 2;
            if chars.get(i) != Some(&'^') {
                return Err(bad("a group (cells) must be followed by ^n"));
            }
            u
        } else if let Some(c) = Cell::from_char(ch) {
            i += 1;
            vec![c]
        } else if ch.is_whitespace() {
            i += 1;
            continue;
        } else {
            return Err(BoardError::BadChar { row, ch });
        };
        let mut times = 1usize;
        if chars.get(i) == Some(&'^') {
            i += 1;
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            if digits.is_empty() || digits.len() > 7 {
                return Err(bad("^ must be followed by a count (at most 7 digits)"));
            }
            times = digits.parse().map_err(|_| bad("bad count after ^"))?;
        }
        let n = unit.len().saturating_mul(times);
        if out.len().saturating_add(n) > room {
            return Err(too_large(out.len().saturating_add(n)));
        }
        for _ in 0..times {
            out.extend_from_slice(&unit);
        }
    }
    if out.is_empty() {
        return Err(BoardError::Empty);
    }
    Ok(out)
}

/// A row written short: runs of a period of 1 to 4 cells repeated at least 4 times (and 8
/// cells or more) become `c^n` or `(cells)^n`; the rest is written cell by cell.
pub fn short_row(row: &[Cell]) -> String {
    let mut s = String::new();
    let mut i = 0;
    while i < row.len() {
        let mut best: Option<(usize, usize)> = None; // (period, repeats)
        for p in 1..=4 {
            if i + p > row.len() {
                break;
            }
            let mut k = 1;
            while i + (k + 1) * p <= row.len() && row[i + k * p..i + (k + 1) * p] == row[i..i + p] {
                k += 1;
            }
            if k >= 4 && k * p >= 8 && best.is_none_or(|(bp, bk)| k * p > bp * bk) {
                best = Some((p, k));
            }
        }
        match best {
            Some((1, k)) => {
                s.push(row[i].char());
                s.push_str(&format!("^{k}"));
                i += k;
            }
            Some((p, k)) => {
                s.push('(');
                s.extend(row[i..i + p].iter().map(|c| c.char()));
                s.push_str(&format!(")^{k}"));
                i += p * k;
            }
            None => {
                s.push(row[i].char());
                i += 1;
            }
        }
    }
    s
}

impl fmt::Display for Board {
    /// The rows joined by `|`; a row longer than 64 cells written short ([`short_row`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in self.cells.chunks(self.cols).enumerate() {
            if r > 0 {
                f.write_str("|")?;
            }
            if row.len() > 64 {
                f.write_str(&short_row(row))?;
            } else {
                for c in row {
                    write!(f, "{}", c.char())?;
                }
            }
        }
        Ok(())
    }
}

/// The shape of a board of at most [`MAX_PLANE_CELLS`] cells, for positions in 64-bit words
/// (bit `r * cols + c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plane {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Every cell but the first column.
    not_first: u64,
    /// Every cell but the last column.
    not_last: u64,
    /// Every cell of the board.
    all: u64,
}

impl Plane {
    /// The shape of a `rows × cols` board (`rows * cols` at most 64).
    pub fn new(rows: usize, cols: usize) -> Plane {
        debug_assert!(rows * cols <= MAX_PLANE_CELLS && rows > 0 && cols > 0);
        let n = rows * cols;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut first = 0u64;
        for r in 0..rows {
            first |= 1u64 << (r * cols);
        }
        Plane {
            rows,
            cols,
            not_first: all & !first,
            not_last: all & !(first << (cols - 1)),
            all,
        }
    }

    /// Every cell.
    pub fn all(&self) -> u64 {
        self.all
    }

    /// The cells next to the cells of `m` across a side.
    #[inline]
    pub fn near(&self, m: u64) -> u64 {
        let sh = self.cols as u32;
        ((m << 1 & self.not_first)
            | (m >> 1 & self.not_last)
            | m.checked_shl(sh).unwrap_or(0)
            | m.checked_shr(sh).unwrap_or(0))
            & self.all
    }

    /// The cells of `within` joined to `seed` by paths inside `within`.
    #[inline]
    pub fn fill(&self, seed: u64, within: u64) -> u64 {
        let mut c = seed & within;
        loop {
            let next = (c | self.near(c)) & within;
            if next == c {
                return c;
            }
            c = next;
        }
    }

    /// The cells whose right neighbour is in `m` (and on the board).
    #[inline]
    pub fn from_left(&self, m: u64) -> u64 {
        m >> 1 & self.not_last
    }

    /// The cells whose left neighbour is in `m`.
    #[inline]
    pub fn from_right(&self, m: u64) -> u64 {
        m << 1 & self.not_first
    }

    /// The cells whose lower neighbour is in `m`.
    #[inline]
    pub fn from_above(&self, m: u64) -> u64 {
        m.checked_shr(self.cols as u32).unwrap_or(0)
    }

    /// The cells whose upper neighbour is in `m`.
    #[inline]
    pub fn from_below(&self, m: u64) -> u64 {
        m.checked_shl(self.cols as u32).unwrap_or(0) & self.all
    }

    /// The cell `(row, column)` of bit `v`.
    pub fn cell(&self, v: usize) -> (usize, usize) {
        (v / self.cols, v % self.cols)
    }

    /// Twice the centre of the bounding box of `m` (row, column), for the move order.
    pub fn centre2(&self, m: u64) -> (u32, u32) {
        if m == 0 {
            return (0, 0);
        }
        let first = m.trailing_zeros() as usize / self.cols;
        let last = (63 - m.leading_zeros() as usize) / self.cols;
        let mut or = 0u64;
        let row = if self.cols == 64 {
            u64::MAX
        } else {
            (1u64 << self.cols) - 1
        };
        for r in first..=last {
            or |= m >> (r * self.cols) & row;
        }
        let minc = or.trailing_zeros() as usize;
        let maxc = 63 - or.leading_zeros() as usize;
        ((first + last) as u32, (minc + maxc) as u32)
    }

    /// The distance (Manhattan, in half cells) from twice-centre `c2` to the middle of the
    /// cells `a` and `b` (the same cell twice for a one-cell move), in half cells.
    pub fn dist(&self, c2: (u32, u32), a: usize, b: usize) -> u32 {
        let (ra, ca) = self.cell(a);
        let (rb, cb) = self.cell(b);
        let (r, c) = ((ra + rb) as u32, (ca + cb) as u32);
        r.abs_diff(c2.0) + c.abs_diff(c2.1)
    }
}

/// The bits of `m`, lowest first.
#[inline]
pub fn bits64(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let v = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(v)
        }
    })
}

/// The canonical key of a component drawn on a board of `cols` columns in two planes `a`
/// and `b` (a cell of the component is in `a`, in `b` or in both; a cell in neither is
/// outside it): the box around the component, cropped, brought to the least of its images
/// under the plane's symmetries (and, with `swap`, the exchange of the planes). With `runs`,
/// a component whose box is one row (or one column) also has each run of cells in `a` only
/// (or `b` only) shortened to one cell (NoGo's groups on a line: only their ends touch the
/// rest). Keys of different tags never compare equal; within a tag, equal bits are equal
/// components up to those symmetries.
pub fn plane_key(a: u64, b: u64, cols: usize, swap: bool, runs: bool) -> Key {
    let occ = a | b;
    debug_assert!(occ != 0);
    let first = occ.trailing_zeros() as usize / cols;
    let last = (63 - occ.leading_zeros() as usize) / cols;
    let h = last - first + 1;
    let row_mask = if cols == 64 {
        u64::MAX
    } else {
        (1u64 << cols) - 1
    };
    let mut or = 0u64;
    for r in first..=last {
        or |= occ >> (r * cols) & row_mask;
    }
    let minc = or.trailing_zeros() as usize;
    let w = 64 - or.leading_zeros() as usize - minc;
    let wmask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let row = |m: u64, r: usize| m >> ((first + r) * cols + minc) & wmask;
    if h == 1 || w == 1 {
        // One row (a column is read as a row): the row and its reverse.
        let (mut ra, mut rb, mut len) = if h == 1 {
            (row(a, 0), row(b, 0), w)
        } else {
            let (mut ca, mut cb) = (0u64, 0u64);
            for r in 0..h {
                ca |= row(a, r) << r;
                cb |= row(b, r) << r;
            }
            (ca, cb, h)
        };
        if runs {
            (ra, rb, len) = shorten_runs(ra, rb, len);
        }
        let rev = |x: u64| x.reverse_bits() >> (64 - len);
        let mut best = (ra, rb).min((rev(ra), rev(rb)));
        if swap {
            best = best.min((rb, ra)).min((rev(rb), rev(ra)));
        }
        return Key {
            bits: best.0 as u128 | (best.1 as u128) << len,
            tag: (1 << 8 | len) as u16,
        };
    }
    if h <= 8 && w <= 8 {
        let mut sa = 0u64;
        let mut sb = 0u64;
        for r in 0..h {
            sa |= row(a, r) << (8 * r);
            sb |= row(b, r) << (8 * r);
        }
        return key_8x8(sa, sb, h, w, swap);
    }
    // A box wider than 8 (so at most 7 rows, since it has at most 64 cells), or taller:
    // read it with its shorter side as rows, then its four images by flips.
    let (th, tw) = (h.min(w), h.max(w));
    let mut rows_a = [0u64; 8];
    let mut rows_b = [0u64; 8];
    if h <= w {
        for r in 0..h {
            rows_a[r] = row(a, r);
            rows_b[r] = row(b, r);
        }
    } else {
        for r in 0..h {
            let (x, y) = (row(a, r), row(b, r));
            for c in bits64(x) {
                rows_a[c] |= 1 << r;
            }
            for c in bits64(y) {
                rows_b[c] |= 1 << r;
            }
        }
    }
    let rev = |x: u64| x.reverse_bits() >> (64 - tw);
    let pack = |rows: &[u64; 8], flip_rows: bool, flip_cols: bool| -> u64 {
        let mut out = 0u64;
        for r in 0..th {
            let src = if flip_rows { th - 1 - r } else { r };
            let x = if flip_cols { rev(rows[src]) } else { rows[src] };
            out |= x << (r * tw);
        }
        out
    };
    let mut best = (u64::MAX, u64::MAX);
    for (fr, fc) in [(false, false), (true, false), (false, true), (true, true)] {
        let ia = pack(&rows_a, fr, fc);
        let ib = pack(&rows_b, fr, fc);
        best = best.min((ia, ib));
        if swap {
            best = best.min((ib, ia));
        }
    }
    Key {
        bits: best.0 as u128 | (best.1 as u128) << (th * tw),
        tag: (th << 8 | tw) as u16,
    }
}

/// The key of a component drawn in planes `a` and `b` (as [`plane_key`] takes them) with no
/// symmetry folded in: its box, cropped, as it lies. Exact like [`plane_key`], with fewer
/// transpositions found: the key path of the second searches of docs/results.md
/// ([`Paths::plain_keys`]).
pub fn crop_key(a: u64, b: u64, cols: usize) -> Key {
    let occ = a | b;
    let first = occ.trailing_zeros() as usize / cols;
    let last = (63 - occ.leading_zeros() as usize) / cols;
    let row_mask = if cols == 64 {
        u64::MAX
    } else {
        (1u64 << cols) - 1
    };
    let mut or = 0u64;
    for r in first..=last {
        or |= occ >> (r * cols) & row_mask;
    }
    let minc = or.trailing_zeros() as usize;
    let w = 64 - or.leading_zeros() as usize - minc;
    let wmask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let (mut ka, mut kb) = (0u64, 0u64);
    for r in 0..=last - first {
        let sh = (first + r) * cols + minc;
        ka |= (a >> sh & wmask) << (r * w);
        kb |= (b >> sh & wmask) << (r * w);
    }
    let h = last - first + 1;
    Key {
        bits: ka as u128 | (kb as u128) << (h * w),
        tag: 0x8000 | (h << 8 | w) as u16,
    }
}

/// Which of the engine's paths a search of stones takes. The default is the fast one; the
/// others are the second paths that check the values of docs/results.md: the same search
/// with other keys, or on the plane instead of the line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paths {
    /// Key components by their cropped box as it lies ([`crop_key`]), no symmetry folded in
    /// (and on a line, no run shortened).
    pub plain_keys: bool,
    /// Search a row on the plane engine, as a board of one row, not on the line engine.
    pub plane: bool,
}

/// A row of `len` cells in planes `a`, `b` with each run of cells of `a` only (or of `b`
/// only) shortened to its first cell.
fn shorten_runs(a: u64, b: u64, len: usize) -> (u64, u64, usize) {
    let xa = a & !b;
    let xb = b & !a;
    // A cell whose lower neighbour (the previous cell) is of the same single plane.
    let dup = (xa & xa << 1) | (xb & xb << 1);
    if dup == 0 {
        return (a, b, len);
    }
    let (mut na, mut nb, mut k) = (0u64, 0u64, 0usize);
    for i in 0..len {
        if dup >> i & 1 != 0 {
            continue;
        }
        na |= (a >> i & 1) << k;
        nb |= (b >> i & 1) << k;
        k += 1;
    }
    (na, nb, k)
}

/// [`plane_key`] of a box of `h × w` cells (both at most 8, neither 1) given in the 8 × 8
/// layout (row `r` in byte `r`): the images are a few word operations there (a byte swap
/// flips the rows, a bit reversal inside the bytes the columns, three delta swaps
/// transpose), and the least image in that layout is the least in the dense one too (every
/// image of one orientation has the same rows, compared top row first).
fn key_8x8(sa: u64, sb: u64, h: usize, w: usize, swap: bool) -> Key {
    let vflip = |x: u64, rows: usize| x.swap_bytes() >> (8 * (8 - rows));
    let hflip = |x: u64, width: usize| {
        const K1: u64 = 0x5555_5555_5555_5555;
        const K2: u64 = 0x3333_3333_3333_3333;
        const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        let x = (x >> 1 & K1) | (x & K1) << 1;
        let x = (x >> 2 & K2) | (x & K2) << 2;
        let x = (x >> 4 & K4) | (x & K4) << 4;
        x >> (8 - width)
    };
    let mut best = (u64::MAX, u64::MAX);
    let mut consider = |x: u64, y: u64| {
        best = best.min((x, y));
        if swap {
            best = best.min((y, x));
        }
    };
    if h <= w {
        for (x, y) in [
            (sa, sb),
            (vflip(sa, h), vflip(sb, h)),
            (hflip(sa, w), hflip(sb, w)),
            (vflip(hflip(sa, w), h), vflip(hflip(sb, w), h)),
        ] {
            consider(x, y);
        }
    }
    if h >= w {
        let (ta, tb) = (transpose_8x8(sa), transpose_8x8(sb));
        for (x, y) in [
            (ta, tb),
            (vflip(ta, w), vflip(tb, w)),
            (hflip(ta, h), hflip(tb, h)),
            (vflip(hflip(ta, h), w), vflip(hflip(tb, h), w)),
        ] {
            consider(x, y);
        }
    }
    let (th, tw) = if h <= w { (h, w) } else { (w, h) };
    let dense = |s: u64| {
        let mut out = 0u64;
        for r in 0..th {
            out |= (s >> (8 * r) & 0xFF) << (r * tw);
        }
        out
    };
    Key {
        bits: dense(best.0) as u128 | (dense(best.1) as u128) << (th * tw),
        tag: (th << 8 | tw) as u16,
    }
}

/// The transpose of an 8 x 8 bit matrix (bit `8 r + c` to bit `8 c + r`).
fn transpose_8x8(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let t = K4 & (x ^ x << 28);
    x ^= t ^ t >> 28;
    let t = K2 & (x ^ x << 14);
    x ^= t ^ t >> 14;
    let t = K1 & (x ^ x << 7);
    x ^= t ^ t >> 7;
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn parse_and_print() {
        let b = Board::parse("(xo)^3x|o^7").unwrap();
        assert_eq!(b.to_string(), "xoxoxox|ooooooo");
        assert_eq!(Board::parse(&b.to_string()).unwrap(), b);
        let long = Board::parse("(xo)^100").unwrap();
        assert_eq!(long.to_string(), "(xo)^100");
        assert_eq!(Board::parse(&long.to_string()).unwrap(), long);
        let mixed = Board::parse("x.(xxo)^40o#").unwrap();
        assert_eq!(Board::parse(&mixed.to_string()).unwrap(), mixed);
        assert_eq!(
            Board::parse_or_size("3x4").unwrap(),
            Err(Size { rows: 3, cols: 4 })
        );
        for bad in [
            "",
            "|",
            "xo|x",
            "xz",
            "(xo",
            "(xo)",
            "()^3",
            "x^",
            "x^99999999",
            "0x3",
            "3x",
            "x^2000000",
            "1x9999999",
        ] {
            let e = Board::parse_or_size(bad).unwrap_err();
            assert!(!e.to_string().contains('\n'), "{bad}: {e}");
        }
    }

    /// A shape written out: rows, columns, cells.
    type Plain = (usize, usize, Vec<u8>);

    /// The plain key: every image of the cropped shape written cell by cell, the least.
    fn slow_key(cells: &[(usize, usize, u8)], swap: bool) -> Plain {
        let r0 = cells.iter().map(|c| c.0).min().unwrap();
        let c0 = cells.iter().map(|c| c.1).min().unwrap();
        let h = cells.iter().map(|c| c.0).max().unwrap() - r0 + 1;
        let w = cells.iter().map(|c| c.1).max().unwrap() - c0 + 1;
        let mut best: Option<Plain> = None;
        for t in 0..8 {
            for s in [false, true] {
                if s && !swap {
                    continue;
                }
                let (th, tw) = if t >= 4 { (w, h) } else { (h, w) };
                if th > tw {
                    continue;
                }
                let mut grid = vec![0u8; th * tw];
                for &(r, c, v) in cells {
                    let (r, c) = (r - r0, c - c0);
                    let (mut rr, mut cc) = if t >= 4 { (c, r) } else { (r, c) };
                    if t & 1 != 0 {
                        rr = th - 1 - rr;
                    }
                    if t & 2 != 0 {
                        cc = tw - 1 - cc;
                    }
                    let v = if s && v != 3 { 3 - v } else { v };
                    grid[rr * tw + cc] = v;
                }
                let cand = (th, tw, grid);
                if best.as_ref().is_none_or(|b| cand < *b) {
                    best = Some(cand);
                }
            }
        }
        best.unwrap()
    }

    #[test]
    fn keys_are_canonical() {
        // Random shapes on boards of several widths: two shapes get the same key exactly
        // when the plain key (every image written out) says they are images of each other.
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (rows, cols) in [
            (1, 20),
            (2, 9),
            (3, 5),
            (4, 4),
            (5, 5),
            (8, 8),
            (6, 10),
            (2, 30),
        ] {
            let mut seen: HashSet<(bool, Key, Plain)> = HashSet::new();
            let mut by_key: std::collections::HashMap<(bool, Key), Plain> = Default::default();
            for _ in 0..3000 {
                let (mut a, mut b) = (0u64, 0u64);
                let n = rows * cols;
                let k = 1 + next() as usize % 6;
                let mut cells = Vec::new();
                for _ in 0..k {
                    let v = next() as usize % n;
                    let col = 1 + next() as u8 % 3;
                    if (a | b) >> v & 1 != 0 {
                        continue;
                    }
                    if col & 1 != 0 {
                        a |= 1 << v;
                    }
                    if col & 2 != 0 {
                        b |= 1 << v;
                    }
                    cells.push((v / cols, v % cols, col));
                }
                for swap in [false, true] {
                    let key = plane_key(a, b, cols, swap, false);
                    let slow = slow_key(&cells, swap);
                    if let Some(prev) = by_key.get(&(swap, key)) {
                        assert_eq!(*prev, slow, "{rows}x{cols}: {cells:?}");
                    }
                    by_key.insert((swap, key), slow.clone());
                    seen.insert((swap, key, slow));
                }
            }
            // Distinct plain keys get distinct keys.
            let mut back: std::collections::HashMap<(bool, Plain), Key> = Default::default();
            for (swap, k, s) in &seen {
                if let Some(prev) = back.insert((*swap, s.clone()), *k) {
                    assert_eq!(prev, *k);
                }
            }
        }
    }

    #[test]
    fn runs_shortened_on_a_line() {
        // x . o o . x  and  x . o . x: the same NoGo component on a line.
        let k1 = plane_key(0b100001 | 0b010010, 0b001100 | 0b010010, 8, true, true);
        let k2 = plane_key(0b10001 | 0b01010, 0b00100 | 0b01010, 8, true, true);
        assert_eq!(k1, k2);
    }
}
