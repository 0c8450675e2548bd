//! Impartial Clobber and impartial Cannibal Clobber on the [`Search`] engine.
//!
//! **Clobber** (impartial): a move takes a stone next to a stone of the other colour
//! (across a side) and moves it onto that stone, which is removed; either player may move
//! stones of either colour; whoever cannot move loses. **Cannibal Clobber** (impartial): the
//! same, but a stone may capture a neighbour of either colour.
//!
//! Positions are [`Board`]s of stones (`xoxo`, `xo.|ox.`, `(xo)^50`); `RxC` is the
//! checkerboard with `x` in the top left corner. A board of more than one row (and more than
//! one column) has at most [`MAX_PLANE_CELLS`] cells; a single row (or column) may be as long
//! as [`crate::stones::MAX_CELLS`].
//!
//! # Components
//!
//! Stones never move onto an empty point, so two sets of stones not joined across sides
//! never interact: the position is the sum of its connected groups of stones. A group all of
//! one colour has no Clobber move (value 0, left out); a lone stone has no Cannibal move. The
//! games are impartial, so exchanging the colours gives the same game: a component is keyed by
//! its cropped shape under the plane's eight symmetries and the colour swap
//! ([`crate::stones::plane_key`]).
//!
//! In Cannibal Clobber the colours never matter (any stone may capture any neighbour, and
//! the stone that lands keeps the cell occupied), so a move just removes a stone that has a
//! neighbour: the game is played on the set of occupied points. On a row, a run of `n`
//! stones is a heap of `n`, and a move takes one stone from a heap of at least two, leaving
//! one heap or splitting the rest in two: that is the octal game **0.6** (Officers), so
//! `X^n` has the value G₀.₆(n) (docs/results.md gives the proof and the check).
//!
//! # Rows: the line engine
//!
//! On a row, a stone that moved sits next to the point it left, which stays empty: every cell
//! whose colour changed is at an end of its component. So a component is a segment `[a, b)` of
//! the starting row with its two end cells' colours (`Seg`), and only the ends differ
//! from the starting row. Up to the colour swap, a row of stones is its sequence of
//! differences (neighbours of different colours or not); the key of a segment is its length,
//! its two end differences and the class of its inner differences, named exactly in O(1) by
//! the doubling ranks of the starting row's differences and their reverse (two strings of the
//! same length `L` are equal exactly when their first and last `2^k ≤ L` symbols are, `2^k >
//! L / 2`). So the options of a row of `m` stones cost O(m), not O(m²), and `(xo)^n` to
//! thousands of pairs is a matter of seconds. Long rows are valued from short segments up, so
//! that the search never recurses deeper than a few moves.

use crate::engine::{Options, SearchError};
use crate::search::{Search, Sink, Split};
use crate::stones::{
    bits64, crop_key, plane_key, Board, BoardError, Cell, Paths, Plane, MAX_PLANE_CELLS,
};
use crate::table::Key;

/// Which capture rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// A stone captures a neighbour of the other colour.
    Clobber,
    /// A stone captures a neighbour of either colour.
    Cannibal,
}

impl Variant {
    /// The registry name (`clobber`, `cannibal-clobber`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Clobber => "clobber",
            Variant::Cannibal => "cannibal-clobber",
        }
    }

    /// Whether the stone on `from` may capture the stone on `to`.
    #[inline]
    pub fn captures(self, from: Cell, to: Cell) -> bool {
        from.is_stone() && to.is_stone() && (self == Variant::Cannibal || from != to)
    }
}

/// The cells whose neighbour on one side is in a set ([`Plane::from_left`], …).
type Towards = fn(&Plane, u64) -> u64;

/// A component on a board of at most 64 cells: its stones of each colour (Cannibal Clobber:
/// every stone in `x`, `o` empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    /// Stones of the first colour (bit `r * cols + c`).
    pub x: u64,
    /// Stones of the second colour.
    pub o: u64,
}

/// Clobber or Cannibal Clobber on a board of at most 64 cells, as a [`Split`] game.
#[derive(Clone, Copy, Debug)]
pub struct PlaneGame {
    plane: Plane,
    variant: Variant,
    /// Keys without symmetry ([`crate::stones::crop_key`]).
    plain_keys: bool,
}

impl PlaneGame {
    /// The game on boards of `plane`'s shape.
    pub fn new(plane: Plane, variant: Variant) -> PlaneGame {
        PlaneGame {
            plane,
            variant,
            plain_keys: false,
        }
    }

    /// The same game keyed without symmetry ([`crate::stones::Paths::plain_keys`]).
    pub fn with_plain_keys(mut self) -> PlaneGame {
        self.plain_keys = true;
        self
    }

    /// The components of the position `x`, `o` (stones of each colour) that have a move.
    pub fn split(&self, x: u64, o: u64, out: &mut Vec<Group>) {
        let mut rest = x | o;
        while rest != 0 {
            let comp = self.plane.fill(rest & rest.wrapping_neg(), rest);
            rest &= !comp;
            match self.variant {
                Variant::Cannibal => {
                    if comp & (comp - 1) != 0 {
                        out.push(Group { x: comp, o: 0 });
                    }
                }
                Variant::Clobber => {
                    // A connected group holding both colours has two of them side by side.
                    if comp & x != 0 && comp & o != 0 {
                        out.push(Group {
                            x: comp & x,
                            o: comp & o,
                        });
                    }
                }
            }
        }
    }

    fn push_split(&self, x: u64, o: u64, out: &mut Sink<Group>) {
        let mut rest = x | o;
        while rest != 0 {
            let comp = self.plane.fill(rest & rest.wrapping_neg(), rest);
            rest &= !comp;
            match self.variant {
                Variant::Cannibal => {
                    if comp & (comp - 1) != 0 {
                        out.part(Group { x: comp, o: 0 });
                    }
                }
                Variant::Clobber => {
                    if comp & x != 0 && comp & o != 0 {
                        out.part(Group {
                            x: comp & x,
                            o: comp & o,
                        });
                    }
                }
            }
        }
    }
}

impl Split for PlaneGame {
    type Part = Group;

    #[inline]
    fn key(&self, g: &Group) -> Key {
        if self.plain_keys {
            return crop_key(g.x, g.o, self.plane.cols);
        }
        match self.variant {
            Variant::Cannibal => plane_key(g.x, 0, self.plane.cols, false, false),
            Variant::Clobber => plane_key(g.x, g.o, self.plane.cols, true, false),
        }
    }

    #[inline]
    fn size(&self, g: &Group) -> u32 {
        (g.x | g.o).count_ones()
    }

    fn bound(&self, g: &Group) -> u32 {
        self.size(g) - 1
    }

    #[inline]
    fn known(&self, g: &Group) -> Option<u32> {
        // Two stones that can capture: one move, to a lone stone.
        (self.size(g) == 2).then_some(1)
    }

    fn options(&self, g: &Group, out: &mut Sink<Group>) {
        let p = &self.plane;
        let (x, o) = (g.x, g.o);
        let stones = x | o;
        let c2 = p.centre2(stones);
        match self.variant {
            Variant::Cannibal => {
                for s in bits64(stones & p.near(stones)) {
                    self.push_split(stones & !(1 << s), 0, out);
                    out.end(p.dist(c2, s, s));
                }
            }
            Variant::Clobber => {
                // For each side: the stones whose neighbour on that side holds the other
                // colour, and the offset to that neighbour.
                let sides: [(Towards, isize); 4] = [
                    (Plane::from_left, 1),
                    (Plane::from_right, -1),
                    (Plane::from_above, p.cols as isize),
                    (Plane::from_below, -(p.cols as isize)),
                ];
                for (towards, d) in sides {
                    for (mine, theirs, mover_is_x) in [(x, o, true), (o, x, false)] {
                        for s in bits64(mine & towards(p, theirs)) {
                            let t = (s as isize + d) as usize;
                            let (sb, tb) = (1u64 << s, 1u64 << t);
                            let (nx, no) = if mover_is_x {
                                (x & !sb | tb, o & !tb)
                            } else {
                                (x & !tb, o & !sb | tb)
                            };
                            self.push_split(nx, no, out);
                            out.end(p.dist(c2, s, t));
                        }
                    }
                }
            }
        }
    }

    fn domain(&self) -> String {
        let keys = if self.plain_keys { " plain keys" } else { "" };
        format!("{} plane{keys}", self.variant.name())
    }

    fn narrow(&self) -> bool {
        // Keys take two bits a cell of the box (one for Cannibal Clobber, which plain keys
        // draw in two planes too).
        (self.variant == Variant::Cannibal && !self.plain_keys)
            || self.plane.rows * self.plane.cols <= 32
    }
}

/// A component of a row: the stones of the starting row's cells `a..b`, the first with
/// colour `first` and the last with colour `last` (1 or 2: `x` or `o`); the cells between
/// keep their starting colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seg {
    /// The first cell.
    pub a: u32,
    /// One past the last cell.
    pub b: u32,
    /// The colour of cell `a` (1: `x`, 2: `o`).
    pub first: u8,
    /// The colour of cell `b - 1`.
    pub last: u8,
}

/// Clobber or Cannibal Clobber on one row of any length, as a [`Split`] game whose
/// components are segments of the starting row ([`Seg`]).
pub struct LineGame {
    variant: Variant,
    /// The starting row's colours: 0 no stone, 1 `x`, 2 `o`.
    cells: Vec<u8>,
    /// `diffs[i]`: the number of `j < i` with cells `j` and `j + 1` stones of different
    /// colours.
    diffs: Vec<u32>,
    /// The doubling ranks of `T = D ++ [2] ++ reverse(D)`, `D[j]` whether cells `j` and
    /// `j + 1` differ: `ranks[k][i]` names `T[i .. i + 2^k]` (equal ranks, equal strings).
    ranks: Vec<Vec<u32>>,
    /// `D`'s length (the row's length less one).
    nd: usize,
    /// The starting row in the notation, for the table's domain.
    text: String,
}

impl LineGame {
    /// The bytes [`LineGame::new`] takes for a row of `cells` cells whose longest run of
    /// stones is `longest`: the cells, the counts of differences, and the doubling ranks of
    /// twice the row for each power of two up to the run.
    pub fn bytes_for(cells: usize, longest: usize) -> usize {
        let levels = (usize::BITS - longest.max(1).leading_zeros()) as usize;
        cells * 5 + (2 * cells + 1) * 4 * levels
    }

    /// The longest run of stones of a row.
    pub fn longest_run(row: &[Cell]) -> usize {
        let (mut longest, mut run) = (0, 0);
        for c in row {
            run = if c.is_stone() { run + 1 } else { 0 };
            longest = longest.max(run);
        }
        longest
    }

    /// The game on the row `cells` (a board of one row).
    pub fn new(row: &[Cell], variant: Variant) -> LineGame {
        let cells: Vec<u8> = row
            .iter()
            .map(|c| match c {
                Cell::X => 1,
                Cell::O => 2,
                _ => 0,
            })
            .collect();
        let n = cells.len();
        let nd = n.saturating_sub(1);
        let d: Vec<u32> = (0..nd)
            .map(|j| u32::from(cells[j] != 0 && cells[j + 1] != 0 && cells[j] != cells[j + 1]))
            .collect();
        let mut diffs = Vec::with_capacity(n + 1);
        let mut s = 0;
        diffs.push(0);
        for &v in &d {
            s += v;
            diffs.push(s);
        }
        // The longest run of stones bounds the strings ever compared.
        let mut longest = 0usize;
        let mut run = 0usize;
        for &c in &cells {
            run = if c != 0 { run + 1 } else { 0 };
            longest = longest.max(run);
        }
        let ranks = if variant == Variant::Clobber {
            let mut t = d.clone();
            t.push(2);
            t.extend(d.iter().rev());
            doubling_ranks(&t, longest.saturating_sub(3))
        } else {
            Vec::new()
        };
        let text = crate::stones::short_row(row);
        LineGame {
            variant,
            cells,
            diffs,
            ranks,
            nd,
            text,
        }
    }

    /// The colour of cell `i` in the segment `s`.
    #[inline]
    fn colour(&self, s: &Seg, i: u32) -> u8 {
        if i == s.a {
            s.first
        } else if i + 1 == s.b {
            s.last
        } else {
            self.cells[i as usize]
        }
    }

    /// The class of `T[i .. i + len]` (`len ≥ 1`).
    #[inline]
    fn class(&self, i: usize, len: usize) -> (u32, u32) {
        let k = (usize::BITS - 1 - len.leading_zeros()) as usize;
        let r = &self.ranks[k];
        (r[i], r[i + len - (1 << k)])
    }

    /// The end differences and whether the segment has a move.
    #[inline]
    fn ends(&self, s: &Seg) -> (u32, u32) {
        let m = s.b - s.a;
        if m == 2 {
            let d = u32::from(s.first != s.last);
            (d, d)
        } else {
            let (a, b) = (s.a as usize, s.b as usize);
            (
                u32::from(s.first != self.cells[a + 1]),
                u32::from(self.cells[b - 2] != s.last),
            )
        }
    }

    /// Whether the segment has a move (two stones, and for Clobber two of different colours
    /// side by side).
    #[inline]
    fn live(&self, s: &Seg) -> bool {
        let m = s.b - s.a;
        if m < 2 {
            return false;
        }
        if self.variant == Variant::Cannibal {
            return true;
        }
        let (d0, dl) = self.ends(s);
        if d0 | dl != 0 {
            return true;
        }
        // The inner differences, cells a+1 .. b-2.
        m > 3 && self.diffs[s.b as usize - 2] != self.diffs[s.a as usize + 1]
    }

    #[inline]
    fn push(&self, s: Seg, out: &mut Sink<Seg>) {
        if self.live(&s) {
            out.part(s);
        }
    }

    /// The segment of cells `a..b` with their starting colours.
    pub fn seg(&self, a: u32, b: u32) -> Seg {
        Seg {
            a,
            b,
            first: self.cells[a as usize],
            last: self.cells[b as usize - 1],
        }
    }

    /// The components of the starting row: its runs of stones that have a move.
    pub fn split_start(&self, out: &mut Vec<Seg>) {
        let n = self.cells.len() as u32;
        let mut a = 0;
        while a < n {
            if self.cells[a as usize] == 0 {
                a += 1;
                continue;
            }
            let mut b = a;
            while b < n && self.cells[b as usize] != 0 {
                b += 1;
            }
            let s = self.seg(a, b);
            if self.live(&s) {
                out.push(s);
            }
            a = b;
        }
    }

    /// The row's length.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the row is empty (never: a board has a cell).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The components left by the move of the stone on `from` onto `to` (`to = from ± 1`)
    /// inside the component `s`.
    pub fn after_move(&self, s: &Seg, from: u32, to: u32, out: &mut Vec<Seg>) {
        let mut sink = Sink::default();
        self.move_parts(s, from, to, &mut sink);
        sink.end(0);
        for (parts, _) in sink.iter() {
            out.extend_from_slice(parts);
        }
    }

    /// Lists the parts of one move into `out` (without ending the option).
    #[inline]
    fn move_parts(&self, s: &Seg, from: u32, to: u32, out: &mut Sink<Seg>) {
        let c = self.colour(s, from);
        let i = from.min(to);
        if from < to {
            // The stone on i moves right onto i + 1: cells a..i, then i+1..b with i+1 of c.
            if i > s.a {
                self.push(
                    Seg {
                        a: s.a,
                        b: i,
                        first: s.first,
                        last: self.colour(s, i - 1),
                    },
                    out,
                );
            }
            if i + 2 < s.b {
                self.push(
                    Seg {
                        a: i + 1,
                        b: s.b,
                        first: c,
                        last: s.last,
                    },
                    out,
                );
            }
        } else {
            // The stone on i + 1 moves left onto i: cells a..i+1 with i of c, then i+2..b.
            if i > s.a {
                self.push(
                    Seg {
                        a: s.a,
                        b: i + 1,
                        first: s.first,
                        last: c,
                    },
                    out,
                );
            }
            if i + 2 < s.b {
                self.push(
                    Seg {
                        a: i + 2,
                        b: s.b,
                        first: self.colour(s, i + 2),
                        last: s.last,
                    },
                    out,
                );
            }
        }
    }
}

impl Split for LineGame {
    type Part = Seg;

    #[inline]
    fn key(&self, s: &Seg) -> Key {
        let m = (s.b - s.a) as u128;
        if self.variant == Variant::Cannibal {
            return Key { bits: m, tag: 2 };
        }
        let (d0, dl) = self.ends(s);
        let len = (s.b - s.a).saturating_sub(3) as usize;
        let (fwd, rev) = if len == 0 {
            ((0, 0), (0, 0))
        } else {
            let j = s.a as usize + 1;
            (
                self.class(j, len),
                self.class(self.nd + 1 + (self.nd - j - len), len),
            )
        };
        let best = (fwd, d0, dl).min((rev, dl, d0));
        Key {
            bits: m
                | (best.0 .0 as u128) << 24
                | (best.0 .1 as u128) << 48
                | (best.1 as u128) << 72
                | (best.2 as u128) << 73,
            tag: 3,
        }
    }

    #[inline]
    fn size(&self, s: &Seg) -> u32 {
        s.b - s.a
    }

    fn bound(&self, s: &Seg) -> u32 {
        s.b - s.a - 1
    }

    #[inline]
    fn known(&self, s: &Seg) -> Option<u32> {
        (s.b - s.a == 2).then_some(1)
    }

    fn options(&self, s: &Seg, out: &mut Sink<Seg>) {
        let centre = s.a + s.b - 1;
        for i in s.a..s.b - 1 {
            let (ci, cj) = (self.colour(s, i), self.colour(s, i + 1));
            let hint = (2 * i + 1).abs_diff(centre);
            match self.variant {
                Variant::Cannibal => {
                    // Removing stone i: the same as i moving onto i + 1 (or i + 1 onto i
                    // for the last stone).
                    self.move_parts(s, i, i + 1, out);
                    out.end(hint);
                    if i + 2 == s.b {
                        self.move_parts(s, i + 1, i, out);
                        out.end(hint);
                    }
                }
                Variant::Clobber => {
                    if ci != cj {
                        self.move_parts(s, i, i + 1, out);
                        out.end(hint);
                        self.move_parts(s, i + 1, i, out);
                        out.end(hint);
                    }
                }
            }
        }
    }

    fn domain(&self) -> String {
        match self.variant {
            // Keys are lengths alone.
            Variant::Cannibal => "cannibal-clobber line".into(),
            // Keys name classes of this row's strings.
            Variant::Clobber => format!("clobber line {}", self.text),
        }
    }

    fn narrow(&self) -> bool {
        self.variant == Variant::Cannibal
    }
}

/// The doubling ranks of `t` up to blocks of `upto` symbols: `ranks[k][i]` is the same
/// number for equal blocks `t[i .. i + 2^k]` (for `i + 2^k ≤ t.len()`), and different ones
/// for different blocks.
fn doubling_ranks(t: &[u32], upto: usize) -> Vec<Vec<u32>> {
    let n = t.len();
    let mut ranks = vec![t.to_vec()];
    let mut k = 0;
    while (2usize << k) <= upto.max(1) && (2usize << k) <= n {
        let half = 1usize << k;
        let prev = &ranks[k];
        let m = n + 1 - 2 * half;
        let mut idx: Vec<u32> = (0..m as u32).collect();
        idx.sort_unstable_by_key(|&i| (prev[i as usize], prev[i as usize + half]));
        let mut next = vec![0u32; m];
        let mut r = 0u32;
        for w in 0..m {
            let i = idx[w] as usize;
            if w > 0 {
                let j = idx[w - 1] as usize;
                if (prev[i], prev[i + half]) != (prev[j], prev[j + half]) {
                    r += 1;
                }
            }
            next[i] = r;
        }
        ranks.push(next);
        k += 1;
    }
    ranks
}

/// One move of Clobber: the stone on `from` moves onto the stone on `to` (cells as (row,
/// column)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Capture {
    /// The cell of the moving stone.
    pub from: (usize, usize),
    /// The cell of the stone captured.
    pub to: (usize, usize),
}

/// Every move of `variant` on `board`: pairs of stones side by side, the mover first, in
/// reading order of the mover, then right, left, down, up.
pub fn captures(variant: Variant, board: &Board) -> Vec<Capture> {
    let (rows, cols) = (board.rows(), board.cols());
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let from = board.get(r, c);
            if !from.is_stone() {
                continue;
            }
            let mut near = Vec::with_capacity(4);
            if c + 1 < cols {
                near.push((r, c + 1));
            }
            if c > 0 {
                near.push((r, c - 1));
            }
            if r + 1 < rows {
                near.push((r + 1, c));
            }
            if r > 0 {
                near.push((r - 1, c));
            }
            for to in near {
                if variant.captures(from, board.get(to.0, to.1)) {
                    out.push(Capture { from: (r, c), to });
                }
            }
        }
    }
    out
}

/// The board after `m` (which must be one of [`captures`]'s).
pub fn play(board: &Board, m: Capture) -> Board {
    let mut cells = board.cells().to_vec();
    let cols = board.cols();
    let mover = cells[m.from.0 * cols + m.from.1];
    cells[m.from.0 * cols + m.from.1] = Cell::Empty;
    cells[m.to.0 * cols + m.to.1] = mover;
    board.with_cells(cells)
}

/// The search for one board: its game on the plane (boards of at most 64 cells) or on the
/// line (one row or one column, of any length).
pub enum Solver {
    /// A board of at most 64 cells.
    Plane {
        /// The engine.
        search: Search<PlaneGame>,
        /// The board's shape.
        plane: Plane,
    },
    /// One row (a column is turned into a row).
    Line {
        /// The engine.
        search: Search<LineGame>,
        /// True when the board is a column.
        column: bool,
        /// True once the starting row's long segments were valued from the short ones up
        /// ([`SWEEP_FROM`]).
        swept: bool,
    },
}

/// Rows of at least this many cells are valued from their short segments up
/// ([`Solver::value`]): the search then recurses only a few moves deep.
pub const SWEEP_FROM: u32 = 96;

impl Solver {
    /// A search for `board` under `variant`: on the line when the board is one row or one
    /// column, else on the plane (at most [`MAX_PLANE_CELLS`] cells).
    pub fn new(variant: Variant, board: &Board, opts: Options) -> Result<Solver, SolverError> {
        Solver::with_paths(variant, board, opts, Paths::default())
    }

    /// [`Solver::new`] on the paths `paths` (rows always go to the line engine, whose keys
    /// have no symmetry but the reversal: `paths` applies to the plane).
    pub fn with_paths(
        variant: Variant,
        board: &Board,
        opts: Options,
        paths: Paths,
    ) -> Result<Solver, SolverError> {
        if board.rows() == 1 || board.cols() == 1 {
            let column = board.rows() > 1;
            let row = if column {
                board.transposed()
            } else {
                board.clone()
            };
            let bytes = LineGame::bytes_for(row.cells().len(), LineGame::longest_run(row.cells()));
            if bytes > opts.max_memory / 4 {
                return Err(SolverError::Memory {
                    bytes,
                    cap: opts.max_memory,
                });
            }
            let game = LineGame::new(row.cells(), variant);
            return Ok(Solver::Line {
                search: Search::new(game, opts)?,
                column,
                swept: false,
            });
        }
        let n = board.rows() * board.cols();
        if n > MAX_PLANE_CELLS {
            return Err(SolverError::Board(BoardError::TooLarge {
                cells: n,
                what: format!(
                    "a board of more than one row and column takes at most {MAX_PLANE_CELLS}"
                ),
            }));
        }
        let plane = Plane::new(board.rows(), board.cols());
        let mut game = PlaneGame::new(plane, variant);
        if paths.plain_keys {
            game = game.with_plain_keys();
        }
        Ok(Solver::Plane {
            search: Search::new(game, opts)?,
            plane,
        })
    }

    /// The value of `board` (the board this solver was made for, or one of the same shape
    /// for a plane; on a line, the starting row only).
    pub fn value(&mut self, board: &Board) -> Result<u32, SearchError> {
        match self {
            Solver::Plane { search, plane } => {
                let (x, o) = planes(board, plane);
                let mut parts = Vec::new();
                search.game().split(x, o, &mut parts);
                search.value(&parts)
            }
            Solver::Line { search, swept, .. } => {
                let mut parts = Vec::new();
                search.game().split_start(&mut parts);
                if !*swept {
                    sweep(search, &parts)?;
                    *swept = true;
                }
                search.value(&parts)
            }
        }
    }

    /// Whether the position `m` leaves on `board` (the solver's board) is a P-position.
    pub fn wins(&mut self, board: &Board, m: Capture) -> Result<bool, SearchError> {
        let v = self.value_after(board, m, true)?;
        Ok(v == 0)
    }

    /// The value of the position `m` leaves on `board` (the solver's board); with `p_only`,
    /// 0 exactly when it is a P-position, and otherwise any non-zero number (one question
    /// asked, not the value).
    pub fn value_after(
        &mut self,
        board: &Board,
        m: Capture,
        p_only: bool,
    ) -> Result<u32, SearchError> {
        match self {
            Solver::Plane { search, plane } => {
                let (x, o) = planes(&play(board, m), plane);
                let mut parts = Vec::new();
                search.game().split(x, o, &mut parts);
                if p_only {
                    Ok(u32::from(!search.is_p(&parts, 0)?))
                } else {
                    search.value(&parts)
                }
            }
            Solver::Line {
                search,
                column,
                swept,
            } => {
                let (from, to) = if *column {
                    (m.from.0 as u32, m.to.0 as u32)
                } else {
                    (m.from.1 as u32, m.to.1 as u32)
                };
                let mut start = Vec::new();
                search.game().split_start(&mut start);
                if !*swept {
                    sweep(search, &start)?;
                    *swept = true;
                }
                let mut parts = Vec::new();
                for s in &start {
                    if (s.a..s.b).contains(&from) {
                        search.game().after_move(s, from, to, &mut parts);
                    } else {
                        parts.push(*s);
                    }
                }
                if p_only {
                    Ok(u32::from(!search.is_p(&parts, 0)?))
                } else {
                    search.value(&parts)
                }
            }
        }
    }

    /// Search nodes so far.
    pub fn nodes(&self) -> u64 {
        match self {
            Solver::Plane { search, .. } => search.nodes(),
            Solver::Line { search, .. } => search.nodes(),
        }
    }

    /// Table entries in use.
    pub fn entries(&self) -> usize {
        match self {
            Solver::Plane { search, .. } => search.table().len(),
            Solver::Line { search, .. } => search.table().len(),
        }
    }

    /// Saves the table ([`Search::save`]).
    pub fn save(&self, path: &std::path::Path) -> Result<(), SearchError> {
        match self {
            Solver::Plane { search, .. } => search.save(path),
            Solver::Line { search, .. } => search.save(path),
        }
    }

    /// Loads a saved table ([`Search::load`]); the entries read.
    pub fn load(&mut self, path: &std::path::Path) -> Result<u64, SearchError> {
        match self {
            Solver::Plane { search, .. } => search.load(path),
            Solver::Line { search, .. } => search.load(path),
        }
    }

    /// Calls `f` every [`Options::check_every`] nodes.
    pub fn set_progress(&mut self, f: impl FnMut(&crate::engine::Progress) + Send + 'static) {
        match self {
            Solver::Plane { search, .. } => search.set_progress(f),
            Solver::Line { search, .. } => search.set_progress(f),
        }
    }
}

/// Values every segment of the rows `parts` from the shortest up (those of at least
/// [`SWEEP_FROM`] stones), so that no question recurses deeper than a few moves.
fn sweep(search: &mut Search<LineGame>, parts: &[Seg]) -> Result<(), SearchError> {
    for s in parts {
        let m = s.b - s.a;
        if m < SWEEP_FROM {
            continue;
        }
        for len in 2..m {
            for a in s.a..=s.b - len {
                if a % 1024 == 0 {
                    // The limits and the stop flag hold during the sweep too.
                    search.poll()?;
                }
                let seg = search.game().seg(a, a + len);
                if search.game().live(&seg) && search.cached(&seg).is_none() {
                    search.value(&[seg])?;
                }
            }
        }
    }
    Ok(())
}

/// The stones of each colour of `board` as words on `plane`.
fn planes(board: &Board, plane: &Plane) -> (u64, u64) {
    let (mut x, mut o) = (0u64, 0u64);
    for (i, c) in board.cells().iter().enumerate() {
        match c {
            Cell::X => x |= 1 << i,
            Cell::O => o |= 1 << i,
            _ => {}
        }
    }
    debug_assert_eq!((x | o) & !plane.all(), 0);
    (x, o)
}

/// Why a [`Solver`] could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    /// The board does not fit.
    #[error("{0}")]
    Board(#[from] BoardError),
    /// The engine refused (memory).
    #[error("{0}")]
    Search(#[from] SearchError),
    /// The row's rank tables would take more than a quarter of the memory cap.
    #[error("the row's tables need {bytes} bytes, more than a quarter of max_memory ({cap})")]
    Memory {
        /// What they need.
        bytes: usize,
        /// The memory cap.
        cap: usize,
    },
}
