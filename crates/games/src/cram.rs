//! Cram: players alternately cover two adjacent empty cells with a domino (either direction);
//! whoever cannot place one loses.
//!
//! Normal play runs on the board search engine (`grundy-board`'s `cram::ask`, which
//! `grundy cram` calls too); this module holds the registry's `cram` entry ([`CramEntry`]) and
//! the plain searches over [`Shape`]s: [`Cram`], the generic [`grundy_core::Solver`] with three
//! reductions that shrink its memo (cells with no empty neighbour are dropped, the rest is
//! cropped to its bounding box and brought to a canonical orientation among the board's
//! symmetries, and a position whose cells fall apart into several connected pieces is valued
//! as the XOR of its pieces), which answers misère play and is the engine's independent
//! oracle in tests, and [`PlainCram`], the unreduced game.
//!
//! ```
//! use grundy_core::{Outcome, Solver};
//! use grundy_games::cram::{Cram, Shape};
//!
//! // A row of three: either end domino leaves one cell, where nothing fits.
//! let row = Shape::parse("...")?;
//! let mut s = Solver::new(Cram::default());
//! assert_eq!(s.grundy(&row), 1);
//! assert_eq!(s.misere_outcome(&Cram { mirror: false }.reduce(&row)), Outcome::P);
//! # Ok::<(), grundy_games::GameError>(())
//! ```

use crate::error::{GameError, Result};
use grundy_board::cram::{self as engine, Board};
use grundy_core::{Game, Outcome};

/// The most cells a board may have (one bit each in a `u64`).
pub const MAX_CELLS: usize = 64;

/// A set of empty cells in an `h × w` frame, row-major bits; `h ≤ w` once canonical.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    h: u8,
    w: u8,
    bits: u64,
}

fn low_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Bit masks of the first and last column of an `h × w` frame.
fn column_masks(h: usize, w: usize) -> (u64, u64) {
    let mut first = 0u64;
    for r in 0..h {
        first |= 1 << (r * w);
    }
    (first, first << (w - 1))
}

impl Shape {
    /// The empty shape (no cell).
    pub const EMPTY: Shape = Shape {
        h: 0,
        w: 0,
        bits: 0,
    };

    /// An `h × w` frame with the given empty cells (bit r·w + c); the frame must fit 64 cells.
    pub fn new(h: usize, w: usize, bits: u64) -> Result<Self> {
        if h == 0 || w == 0 {
            return Err(GameError::Invalid(format!(
                "board must not be empty ({h}x{w})"
            )));
        }
        match h.checked_mul(w) {
            Some(n) if n <= MAX_CELLS => {}
            _ => {
                return Err(GameError::TooLarge(format!(
                    "board {h}x{w} too large (at most {MAX_CELLS} cells)"
                )))
            }
        }
        Ok(Shape {
            h: h as u8,
            w: w as u8,
            bits: bits & low_mask(h * w),
        })
    }

    /// The empty `h × w` board.
    pub fn rectangle(h: usize, w: usize) -> Result<Self> {
        Shape::new(h, w, u64::MAX)
    }

    /// Parses a board: rows of `.` (empty) and `#` (blocked), separated by newlines or `|`
    /// (CGSuite's notation, e.g. `.........|##.######`).
    pub fn parse(text: &str) -> Result<Self> {
        let rows: Vec<&str> = text
            .split(['\n', '|'])
            .map(|r| r.trim())
            .filter(|r| !r.is_empty())
            .collect();
        let Some(first) = rows.first() else {
            return Err(GameError::Parse {
                line: 1,
                message: "no board in the input".into(),
            });
        };
        let w = first.chars().count();
        let h = rows.len();
        if !matches!(h.checked_mul(w), Some(n) if n <= MAX_CELLS) {
            return Err(GameError::TooLarge(format!(
                "board {h}x{w} too large (at most {MAX_CELLS} cells)"
            )));
        }
        let mut bits = 0u64;
        for (r, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != w {
                return Err(GameError::Parse {
                    line: r + 1,
                    message: format!("ragged board: row {} has {len} cells, row 1 has {w}", r + 1),
                });
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' => bits |= 1 << (r * w + c),
                    '#' => {}
                    other => {
                        return Err(GameError::Parse {
                            line: r + 1,
                            message: format!("unknown character {other:?} (use '.' or '#')"),
                        })
                    }
                }
            }
        }
        Shape::new(h, w, bits)
    }

    /// Rows of the frame.
    pub fn height(&self) -> usize {
        self.h as usize
    }

    /// Columns of the frame.
    pub fn width(&self) -> usize {
        self.w as usize
    }

    /// True when cell (r, c) is empty.
    pub fn is_empty_cell(&self, r: usize, c: usize) -> bool {
        r < self.height() && c < self.width() && self.bits >> (r * self.width() + c) & 1 == 1
    }

    /// Number of empty cells.
    pub fn cells(&self) -> u32 {
        self.bits.count_ones()
    }

    /// Empty cells with an empty neighbour in the given direction bit sets.
    fn neighbours(&self, x: u64) -> u64 {
        let (h, w) = (self.height(), self.width());
        if h == 0 {
            return 0;
        }
        let (first, last) = column_masks(h, w);
        let all = low_mask(h * w);
        (((x << 1) & !first) | ((x >> 1) & !last) | (x << w) | (x >> w)) & all
    }

    /// Every placement: (first cell, second cell) as bit indices, horizontal then vertical.
    pub fn placements(&self) -> Vec<(usize, usize)> {
        let (h, w) = (self.height(), self.width());
        let mut out = Vec::new();
        for r in 0..h {
            for c in 0..w {
                if !self.is_empty_cell(r, c) {
                    continue;
                }
                if self.is_empty_cell(r, c + 1) {
                    out.push((r * w + c, r * w + c + 1));
                }
                if self.is_empty_cell(r + 1, c) {
                    out.push((r * w + c, (r + 1) * w + c));
                }
            }
        }
        out
    }

    /// The shape after placing a domino on two cells (bit indices), not canonicalised.
    pub fn place(&self, a: usize, b: usize) -> Shape {
        Shape {
            bits: self.bits & !(1 << a) & !(1 << b),
            ..*self
        }
    }

    /// Drops dead cells, crops to the bounding box and picks the least symmetric image.
    ///
    /// Allocation-free: every image is computed on packed bits.
    pub fn canonical(&self) -> Shape {
        let bits = self.bits & self.neighbours(self.bits);
        if bits == 0 {
            return Shape::EMPTY;
        }
        let (h, w) = (self.height(), self.width());
        let row_mask = low_mask(w);
        let (mut r0, mut r1, mut cols) = (h, 0, 0u64);
        for r in 0..h {
            let row = (bits >> (r * w)) & row_mask;
            if row != 0 {
                r0 = r0.min(r);
                r1 = r + 1;
                cols |= row;
            }
        }
        let c0 = cols.trailing_zeros() as usize;
        let c1 = 64 - cols.leading_zeros() as usize;
        let (mut hh, mut ww) = (r1 - r0, c1 - c0);
        let crop_mask = low_mask(ww);
        let mut x = 0u64;
        for r in r0..r1 {
            x |= ((bits >> (r * w + c0)) & crop_mask) << ((r - r0) * ww);
        }
        if hh > ww {
            x = transpose(x, hh, ww);
            std::mem::swap(&mut hh, &mut ww);
        }
        let n = hh * ww;
        let rot = |y: u64| y.reverse_bits() >> (64 - n); // 180° rotation of the frame
        let fv = flip_v(x, hh, ww);
        let mut best = x.min(rot(x)).min(fv).min(rot(fv));
        if hh == ww {
            let t = transpose(x, hh, ww);
            let tv = flip_v(t, hh, ww);
            best = best.min(t).min(rot(t)).min(tv).min(rot(tv));
        }
        Shape {
            h: hh as u8,
            w: ww as u8,
            bits: best,
        }
    }

    /// True when the second player wins by mirroring: the cells are symmetric under the
    /// half-turn about the frame's centre and no domino can cover a cell together with its
    /// image (the centre cell, or the two central cells, are not all empty). Answering each
    /// domino with its rotated image then always stays legal, so the value is 0.
    pub fn is_mirror_zero(&self) -> bool {
        let (h, w) = (self.height(), self.width());
        if h == 0 {
            return true;
        }
        let n = h * w;
        if self.bits.reverse_bits() >> (64 - n) != self.bits {
            return false;
        }
        match (h % 2, w % 2) {
            (0, 0) => true,
            (1, 0) => !(self.is_empty_cell(h / 2, w / 2 - 1) && self.is_empty_cell(h / 2, w / 2)),
            (0, _) => !(self.is_empty_cell(h / 2 - 1, w / 2) && self.is_empty_cell(h / 2, w / 2)),
            _ => !self.is_empty_cell(h / 2, w / 2),
        }
    }

    /// True when the empty cells form one connected piece (or none).
    pub fn is_connected(&self) -> bool {
        if self.bits == 0 {
            return true;
        }
        self.flood(self.bits & self.bits.wrapping_neg(), self.bits) == self.bits
    }

    /// The cells of `within` connected to `seed`.
    fn flood(&self, mut piece: u64, within: u64) -> u64 {
        loop {
            let grown = (piece | self.neighbours(piece)) & within;
            if grown == piece {
                return piece;
            }
            piece = grown;
        }
    }

    /// The board in the notation of [`Shape::parse`]: rows of `.` (empty) and `#` (blocked or
    /// covered) separated by `|`, e.g. `".#.|.#.|..."`.
    pub fn to_text(&self) -> String {
        let (h, w) = (self.height(), self.width());
        let mut s = String::with_capacity(h * (w + 1));
        for r in 0..h {
            if r > 0 {
                s.push('|');
            }
            for c in 0..w {
                s.push(if self.is_empty_cell(r, c) { '.' } else { '#' });
            }
        }
        s
    }

    /// The connected pieces of the shape (4-neighbour), not canonicalised; one if connected.
    pub fn pieces(&self) -> Vec<Shape> {
        let mut rest = self.bits;
        let mut out = Vec::new();
        while rest != 0 {
            let piece = self.flood(rest & rest.wrapping_neg(), rest);
            rest &= !piece;
            out.push(Shape {
                bits: piece,
                ..*self
            });
        }
        out
    }
}

/// Reverses the order of the rows of an `h × w` frame.
fn flip_v(x: u64, h: usize, w: usize) -> u64 {
    let mask = low_mask(w);
    (0..h).fold(0, |acc, r| {
        acc | ((x >> (r * w)) & mask) << ((h - 1 - r) * w)
    })
}

/// Transposes an `h × w` frame into a `w × h` one.
fn transpose(x: u64, h: usize, w: usize) -> u64 {
    let mut out = 0u64;
    let mut rest = x;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        let (r, c) = (i / w, i % w);
        out |= 1 << (c * h + r);
        rest &= rest - 1;
    }
    out
}

/// The rules of Cram over [`Shape`] positions, canonicalised (dead cells, crop, symmetry) and
/// split into pieces; with `mirror`, positions that [`Shape::is_mirror_zero`] are replaced by
/// the empty board (same value 0), which cuts the search without changing any value.
#[derive(Clone, Copy, Debug)]
pub struct Cram {
    /// Apply the half-turn mirror strategy as a shortcut.
    pub mirror: bool,
}

impl Default for Cram {
    fn default() -> Self {
        Cram { mirror: true }
    }
}

impl Cram {
    /// The canonical form of `s`, or the empty board when the mirror shortcut applies.
    pub fn reduce(&self, s: &Shape) -> Shape {
        let c = s.canonical();
        if self.mirror && c != Shape::EMPTY && c.is_mirror_zero() {
            Shape::EMPTY
        } else {
            c
        }
    }
}

impl Game for Cram {
    type Position = Shape;

    fn options(&self, pos: &Shape, out: &mut Vec<Shape>) {
        let start = out.len();
        let (h, w) = (pos.height(), pos.width());
        if h == 0 {
            return;
        }
        let (_, last) = column_masks(h, w);
        let b = pos.bits;
        // Bit i set: cells i and i + 1 (or i + w) are both empty.
        let horizontal = b & (b >> 1) & !last;
        let vertical = b & (b >> w);
        for (pairs, step) in [(horizontal, 1), (vertical, w)] {
            let mut rest = pairs;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                out.push(self.reduce(&pos.place(i, i + step)));
                rest &= rest - 1;
            }
        }
        out[start..].sort_unstable();
        let mut kept = start;
        for i in start..out.len() {
            if kept == start || out[i] != out[kept - 1] {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    fn components(&self, pos: &Shape, out: &mut Vec<Shape>) -> bool {
        if pos.is_connected() {
            return false;
        }
        out.extend(pos.pieces().into_iter().map(|p| self.reduce(&p)));
        true
    }
}

/// Cram without any reduction: plain cell sets in the original frame, no symmetry, no
/// splitting, no dead-cell removal. The test oracle for [`Cram`].
#[derive(Clone, Copy, Debug, Default)]
pub struct PlainCram;

impl Game for PlainCram {
    type Position = Shape;

    fn options(&self, pos: &Shape, out: &mut Vec<Shape>) {
        out.extend(pos.placements().into_iter().map(|(a, b)| pos.place(a, b)));
    }
}

/// Cram in the catalogue: `cram`. A position is a board: `RxC` (empty, at most
/// [`engine::MAX_CELLS`] = 128 cells) or its rows of `.` (empty) and `#` (covered or blocked),
/// separated by newlines or `|`. Kind `board`: `{"rows": ["..#", "..."]}`; an empty rectangle
/// prints as `RxC`. Normal play runs on the board engine up to 128 cells; misère play, a
/// plain search over [`Shape`]s, takes boards of at most [`MAX_CELLS`] = 64 cells.
#[derive(Clone, Copy, Debug, Default)]
pub struct CramEntry;

impl grundy_core::catalogue::Entry for CramEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "cram".into(),
            aliases: Vec::new(),
            summary: "Cram: place a domino on two adjacent empty cells, either direction".into(),
            example: "3x4".into(),
            example_game: None,
            position: format!(
                "a board 'RxC' or its rows, separated by newlines or '|': '.' empty, '#' \
                 covered; at most {} cells ({MAX_CELLS} in misère play)",
                engine::MAX_CELLS
            ),
            kind: "board".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: engine::PARAMS.to_vec(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "cram"
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(CramRules::default()))
    }
}

/// The rules of Cram for the catalogue: the board search engine (`grundy-board`) for normal
/// play, the plain search over canonical positions ([`Cram`] without the mirror shortcut, kept
/// between calls) for misère play, each held to the caller's budget.
#[derive(Default)]
pub struct CramRules {
    misere: Option<crate::catalogue::Search<Cram>>,
}

/// A board's text refused by the engine's reader, as the games' error.
fn board_error(e: engine::BoardError) -> GameError {
    match e {
        engine::BoardError::TooLarge(n) => GameError::TooLarge(format!(
            "board of {n} cells too large (at most {} cells)",
            engine::MAX_CELLS
        )),
        e => GameError::Invalid(format!("board: {e}")),
    }
}

impl CramRules {
    fn read(text: &str) -> grundy_core::catalogue::Result<Board> {
        if let Some(dims) = crate::catalogue::dimensions(text, true) {
            let (r, c) = dims?;
            return Ok(Board::rectangle(r, c).map_err(board_error)?);
        }
        let rows = crate::catalogue::grid_rows(text, "board")?;
        Ok(Board::parse(&rows.join("|")).map_err(board_error)?)
    }

    /// The misère outcome of the board and of every placement, by the plain search over
    /// canonical shapes (boards of at most [`MAX_CELLS`] cells).
    fn misere(
        &mut self,
        b: &Board,
        budget: &grundy_core::catalogue::Budget,
    ) -> grundy_core::catalogue::Result<(Outcome, Vec<grundy_core::catalogue::Move>)> {
        let cells = b.rows() * b.cols();
        if cells > MAX_CELLS {
            return Err(GameError::TooLarge(format!(
                "board {}x{} too large for misère play (at most {MAX_CELLS} cells; normal \
                 play takes {})",
                b.rows(),
                b.cols(),
                engine::MAX_CELLS
            ))
            .into());
        }
        // The same cells as a `Shape` (bit r * cols + c in both).
        let shape = Shape::new(b.rows(), b.cols(), b.empty() as u64)?;
        let search = self
            .misere
            .get_or_insert_with(|| crate::catalogue::Search::new(Cram { mirror: false }));
        let game = *search.game();
        let what = format!("board {}x{}", b.rows(), b.cols());
        let placements = b.placements();
        let (root, values) = search.run(budget, &what, |s| {
            let root = s.misere_outcome(&game.reduce(&shape));
            let values = placements
                .iter()
                .map(|&(a, b)| s.misere_outcome(&game.reduce(&shape.place(a, b))))
                .collect::<Vec<_>>();
            (root, values)
        })?;
        let moves = placements
            .iter()
            .zip(values)
            .map(|(&(x, y), outcome)| b.placement(x, y, outcome, None))
            .collect();
        Ok((root, moves))
    }
}

impl grundy_core::catalogue::Rules for CramRules {
    fn name(&self) -> String {
        "cram".into()
    }

    fn parse(
        &self,
        text: &str,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Position> {
        Ok(Self::read(text)?.position())
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let board = Self::read(&pos.text)?;
        if ask.play.is_misere() {
            return Ok(self.misere(&board, &ask.budget)?.1);
        }
        let all = ask.clone().detail(grundy_core::catalogue::Detail::All);
        Ok(engine::ask(&board, &all)?.all_moves)
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        use grundy_core::catalogue::Report;
        let b = Self::read(&pos.text)?;
        if !ask.play.is_misere() {
            return engine::ask(&b, ask);
        }
        let (outcome, moves) = self.misere(&b, &ask.budget)?;
        let mut r = Report::new("cram", b.position(), ask.play, outcome, None).at(ask.detail);
        r.explanation = grundy_core::catalogue::explain_misere(outcome, &moves);
        Ok(r.with_moves(moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_is_symmetry_invariant() {
        let s = Shape::parse("..#\n.##\n...\n#..").unwrap();
        let c = s.canonical();
        assert!(c.height() <= c.width());
        // Rotating s by 90° (clockwise): rows become columns read bottom-up.
        let rows = ["..#", ".##", "...", "#.."];
        let rot: Vec<String> = (0..3)
            .map(|c| rows.iter().rev().map(|r| r.as_bytes()[c] as char).collect())
            .collect();
        let r = Shape::parse(&rot.join("\n")).unwrap();
        assert_eq!(r.canonical(), c);
    }

    #[test]
    fn pieces_split() {
        let s = Shape::parse("..#..\n..#..").unwrap();
        assert_eq!(s.pieces().len(), 2);
        assert_eq!(s.pieces()[0].canonical(), s.pieces()[1].canonical());
    }
}
