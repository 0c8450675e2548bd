//! Impartial NoGo on the [`Search`] engine.
//!
//! A move places a stone of either colour on an empty point so that afterwards every group
//! (stones of one colour joined across sides) of both colours still has a liberty (an empty
//! point next to it); whoever cannot place loses. Positions are [`Board`]s of at most
//! [`MAX_PLANE_CELLS`] cells (`1x24`, `3x5` for empty boards; `..x|.o.`); a position in which
//! some group has no liberty is refused.
//!
//! # Components
//!
//! Call the empty points' connected regions *regions*, and say a group *touches* a region
//! when one of its liberties lies in it. Join two regions when some group touches both, and
//! close under joining: the classes are the components. A component's game is its regions
//! and the groups that touch them, every other point read as off the board.
//!
//! **Why this is a sum.** (1) A move on a point `p` of region `A` is legal or not by the
//! groups next to `p` and their liberties only: the new stone's group is `p` with the groups
//! of its colour next to `p`, its liberties those groups' liberties and `p`'s empty
//! neighbours (all in `A`, the region being connected); the other groups that lose a liberty
//! are those of the other colour next to `p`. Every one of these groups touches `A`, so
//! their liberties all lie in regions of `A`'s component. (2) After the move the groups are
//! those of before, except that the groups next to `p` merged with `p` into one whose
//! liberties lie in `A`'s component, and the regions are those of before with `A` less `p`
//! (perhaps in pieces): every group still touches regions of one component only, the
//! components of the other regions are unchanged, and `A`'s component is the component of
//! the move's game. By induction on the number of empty points, every play of the position is
//! an interleaving of plays of the components, each move legal in the whole exactly when it
//! is in its component: the position is the disjunctive sum of its components.
//!
//! The rule is exact in the other direction as far as it goes: two regions that a group
//! touches both are joined because a move in one can change what is legal in the other (a
//! group left with one liberty in each region: filling one makes the other a point the other
//! colour may not fill). A component with no legal move now has none ever (a point illegal
//! for a colour stays so while it is empty: the groups that make it illegal keep exactly
//! their liberties until that point is filled), so it is left out (value 0).
//!
//! Keys: a component is drawn as its points (empty, `x`, `o`) in their box, off-board points
//! elsewhere, brought to the least of its images under the plane's symmetries and the colour
//! swap; a component on one line (its box one row or one column) also has each run of stones
//! of one colour shortened to one stone (only the run's two ends touch anything else, so the
//! game is the same) ([`crate::stones::plane_key`]).

use crate::engine::{Options, SearchError};
use crate::search::{Search, Sink, Split};
use crate::stones::{
    bits64, crop_key, plane_key, Board, BoardError, Cell, Paths, Plane, MAX_PLANE_CELLS,
};
use crate::table::Key;

/// A component: its empty points and the stones of the groups that touch them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Area {
    /// Stones of the first colour.
    pub x: u64,
    /// Stones of the second colour.
    pub o: u64,
    /// Empty points.
    pub e: u64,
}

/// The groups and regions of a position, in buffers reused from one position to the next.
#[derive(Default)]
struct Layout {
    /// Each group's stones.
    grp: Vec<u64>,
    /// Each group's liberties.
    libs: Vec<u64>,
    /// Each group's colour (true: `x`).
    isx: Vec<bool>,
    /// The regions of empty points.
    regions: Vec<u64>,
}

impl Layout {
    fn clear(&mut self) {
        self.grp.clear();
        self.libs.clear();
        self.isx.clear();
        self.regions.clear();
    }

    /// The groups and regions of a position, by flood fills.
    fn build(&mut self, plane: &Plane, x: u64, o: u64, e: u64) {
        self.clear();
        for (stones, is_x) in [(x, true), (o, false)] {
            let mut rest = stones;
            while rest != 0 {
                let g = plane.fill(rest & rest.wrapping_neg(), rest);
                rest &= !g;
                self.grp.push(g);
                self.libs.push(plane.near(g) & e);
                self.isx.push(is_x);
            }
        }
        let mut rest = e;
        while rest != 0 {
            let r = plane.fill(rest & rest.wrapping_neg(), rest);
            rest &= !r;
            self.regions.push(r);
        }
    }

    /// The layout after a stone of colour `is_x` is placed on `q` in `parent` (whose empty
    /// points are `e`): the groups next to `q` of that colour merge with it, the others lose
    /// the liberty `q`, and `q`'s region loses `q` (falling apart only where `q` joined two
    /// or more of its neighbours).
    fn after(&mut self, parent: &Layout, plane: &Plane, e: u64, q: usize, is_x: bool) {
        self.clear();
        let qb = 1u64 << q;
        let near = plane.near(qb);
        let (mut merged, mut mlibs) = (qb, near & e);
        for i in 0..parent.grp.len() {
            let (g, l, gx) = (parent.grp[i], parent.libs[i], parent.isx[i]);
            if gx == is_x && g & near != 0 {
                merged |= g;
                mlibs |= l;
            } else {
                self.grp.push(g);
                self.libs.push(l & !qb);
                self.isx.push(gx);
            }
        }
        self.grp.push(merged);
        self.libs.push(mlibs & !qb);
        self.isx.push(is_x);
        for &r in &parent.regions {
            if r & qb == 0 {
                self.regions.push(r);
                continue;
            }
            let mut rest = r & !qb;
            if (near & rest).count_ones() <= 1 {
                if rest != 0 {
                    self.regions.push(rest);
                }
                continue;
            }
            while rest != 0 {
                let piece = plane.fill(rest & rest.wrapping_neg(), rest);
                rest &= !piece;
                self.regions.push(piece);
            }
        }
    }

    /// Whether a stone of colour `is_x` may be placed on the empty point `p` (`e`: the
    /// empty points).
    #[inline]
    fn legal(&self, plane: &Plane, e: u64, p: usize, is_x: bool) -> bool {
        let pb = 1u64 << p;
        let near = plane.near(pb);
        let mut libs = near & e;
        for i in 0..self.grp.len() {
            if self.grp[i] & near == 0 {
                continue;
            }
            if self.isx[i] == is_x {
                libs |= self.libs[i];
            } else if self.libs[i] & !pb == 0 {
                return false;
            }
        }
        libs & !pb != 0
    }

    /// The points where a stone of each colour may be placed (`x`, `o`), all at once: a
    /// point is barred for a colour when it is the last liberty of a group of the other
    /// colour, or when the stone's group would have no liberty, that is, when the point has
    /// no empty neighbour and every group of the colour next to it has it as its last
    /// liberty. [`Layout::legal`] is the same rule point by point (`e`: the empty points).
    #[inline]
    fn legal_masks(&self, plane: &Plane, e: u64) -> (u64, u64) {
        // The last liberties of the groups in atari, and the stones of the groups with two
        // or more, by colour.
        let (mut last_x, mut last_o, mut free_x, mut free_o) = (0u64, 0u64, 0u64, 0u64);
        for i in 0..self.grp.len() {
            let l = self.libs[i];
            match (l & l.wrapping_sub(1) == 0, self.isx[i]) {
                (true, true) => last_x |= l,
                (true, false) => last_o |= l,
                (false, true) => free_x |= self.grp[i],
                (false, false) => free_o |= self.grp[i],
            }
        }
        let breathes = plane.near(e);
        (
            e & !last_o & (breathes | plane.near(free_x)),
            e & !last_x & (breathes | plane.near(free_o)),
        )
    }

    /// The components (classes of regions joined by the groups that touch two of them) that
    /// have a legal move, each given to `push`.
    fn classes(&self, plane: &Plane, mut push: impl FnMut(Area)) {
        let nr = self.regions.len();
        if nr == 0 {
            return;
        }
        let e: u64 = self.regions.iter().fold(0, |a, r| a | r);
        // Union-find over the regions (at most 32 on 64 points).
        let mut parent = [0u8; 64];
        for (i, v) in parent.iter_mut().enumerate().take(nr) {
            *v = i as u8;
        }
        fn root(parent: &mut [u8; 64], mut i: usize) -> usize {
            while parent[i] as usize != i {
                parent[i] = parent[parent[i] as usize];
                i = parent[i] as usize;
            }
            i
        }
        if nr > 1 {
            for &libs in &self.libs {
                let mut first: Option<usize> = None;
                for (j, &r) in self.regions.iter().enumerate() {
                    if r & libs == 0 {
                        continue;
                    }
                    let rj = root(&mut parent, j);
                    match first {
                        None => first = Some(rj),
                        Some(f) if f != rj => parent[rj] = f as u8,
                        Some(_) => {}
                    }
                }
            }
        }
        let mut class_e = [0u64; 64];
        for (j, &r) in self.regions.iter().enumerate() {
            let rt = root(&mut parent, j);
            class_e[rt] |= r;
        }
        let (lx, lo) = self.legal_masks(plane, e);
        for &ce in class_e.iter().take(nr) {
            // A point where neither colour may play stays so: a class without a legal
            // move is 0 for ever, and is left out.
            if ce & (lx | lo) == 0 {
                continue;
            }
            let (mut cx, mut co) = (0u64, 0u64);
            for i in 0..self.grp.len() {
                if self.libs[i] & ce != 0 {
                    if self.isx[i] {
                        cx |= self.grp[i];
                    } else {
                        co |= self.grp[i];
                    }
                }
            }
            push(Area {
                x: cx,
                o: co,
                e: ce,
            });
        }
    }
}

/// NoGo on a board of at most 64 cells, as a [`Split`] game.
pub struct NoGoGame {
    plane: Plane,
    /// Keys without symmetry ([`crate::stones::crop_key`]).
    plain_keys: bool,
    /// The layouts of the component whose options are listed, and of one option.
    scratch: std::cell::RefCell<(Layout, Layout)>,
}

impl NoGoGame {
    /// The game on boards of `plane`'s shape.
    pub fn new(plane: Plane) -> NoGoGame {
        NoGoGame {
            plane,
            plain_keys: false,
            scratch: Default::default(),
        }
    }

    /// The same game keyed without symmetry ([`crate::stones::Paths::plain_keys`]).
    pub fn with_plain_keys(mut self) -> NoGoGame {
        self.plain_keys = true;
        self
    }

    /// The components of the position (stones `x`, `o`, empty points `e`) that have a legal
    /// move.
    pub fn split(&self, x: u64, o: u64, e: u64, out: &mut Vec<Area>) {
        let mut lay = Layout::default();
        lay.build(&self.plane, x, o, e);
        lay.classes(&self.plane, |a| out.push(a));
    }

    /// Whether a stone of colour `is_x` may be placed on `p` in the position.
    pub fn legal(&self, x: u64, o: u64, e: u64, p: usize, is_x: bool) -> bool {
        let mut lay = Layout::default();
        lay.build(&self.plane, x, o, e);
        e >> p & 1 != 0 && lay.legal(&self.plane, e, p, is_x)
    }
}

impl Split for NoGoGame {
    type Part = Area;

    #[inline]
    fn key(&self, a: &Area) -> Key {
        if self.plain_keys {
            return crop_key(a.x | a.e, a.o | a.e, self.plane.cols);
        }
        plane_key(a.x | a.e, a.o | a.e, self.plane.cols, true, true)
    }

    #[inline]
    fn size(&self, a: &Area) -> u32 {
        a.e.count_ones()
    }

    fn bound(&self, a: &Area) -> u32 {
        a.e.count_ones()
    }

    #[inline]
    fn known(&self, a: &Area) -> Option<u32> {
        // A component has a legal move; with one empty point, it is the last.
        (a.e & (a.e - 1) == 0).then_some(1)
    }

    fn options(&self, a: &Area, out: &mut Sink<Area>) {
        let p = &self.plane;
        let mut scratch = self.scratch.borrow_mut();
        let (lay, child) = &mut *scratch;
        lay.build(p, a.x, a.o, a.e);
        let c2 = p.centre2(a.x | a.o | a.e);
        let (lx, lo) = lay.legal_masks(p, a.e);
        for q in bits64(lx | lo) {
            for is_x in [true, false] {
                if (if is_x { lx } else { lo }) >> q & 1 == 0 {
                    continue;
                }
                child.after(lay, p, a.e, q, is_x);
                child.classes(p, |part| out.part(part));
                out.end(p.dist(c2, q, q));
            }
        }
    }

    fn domain(&self) -> String {
        if self.plain_keys {
            "nogo plane plain keys".into()
        } else {
            "nogo plane".into()
        }
    }

    fn narrow(&self) -> bool {
        self.plane.rows * self.plane.cols <= 32
    }
}

/// A component of NoGo on a line: its points in order, two bits each (`01` a stone `x`,
/// `10` a stone `o`, `11` empty), both ends walls (the edge, or a stone of the other colour
/// that is no liberty). Every group is one stone (a run of one colour is one stone: only its
/// ends touch anything), and no two stones are side by side (two of one colour are one group;
/// of two colours, a wall between two components).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strip {
    /// The points, point `i` in bits `2i` and `2i + 1`.
    pub cells: u128,
    /// How many points.
    pub len: u8,
}

const SX: u128 = 1;
const SO: u128 = 2;
const SE: u128 = 3;
/// The low bit of every point.
const LOW_BITS: u128 = 0x5555_5555_5555_5555_5555_5555_5555_5555;

fn low2(n: usize) -> u128 {
    if n >= 64 {
        u128::MAX
    } else {
        (1u128 << (2 * n)) - 1
    }
}

impl Strip {
    /// The point `i` (0 past either end: a wall).
    #[inline]
    fn at(&self, i: isize) -> u128 {
        if i < 0 || i >= self.len as isize {
            0
        } else {
            self.cells >> (2 * i) & 3
        }
    }

    /// Whether a stone of colour `c` (`SX` or `SO`) may be placed on the empty point `i`
    /// (point by point: the oracle of [`Strip::legal_mask`]).
    #[cfg(test)]
    fn legal(&self, i: usize, c: u128) -> bool {
        let i = i as isize;
        let (l, r) = (self.at(i - 1), self.at(i + 1));
        let other = 3 - c;
        // A stone of the other colour next to it must keep its other liberty.
        if (l == other && self.at(i - 2) != SE) || (r == other && self.at(i + 2) != SE) {
            return false;
        }
        // The new group needs a liberty: an empty neighbour, or the far side of a stone of
        // its colour that it joins.
        l == SE || r == SE || (l == c && self.at(i - 2) == SE) || (r == c && self.at(i + 2) == SE)
    }

    /// The points where a stone of colour `c` (`SX` or `SO`) may be placed, as the low bit of
    /// each point ([`Strip::legal`] for every point at once).
    #[inline]
    fn legal_mask(&self, c: u128) -> u128 {
        let v = self.cells;
        let inside = LOW_BITS & low2(self.len as usize);
        let e = v & v >> 1 & LOW_BITS;
        let x = v & !(v >> 1) & LOW_BITS;
        let o = v >> 1 & !v & LOW_BITS;
        let (mine, theirs) = if c == SX { (x, o) } else { (o, x) };
        // Point i sees point i - 1 at `<< 2` and point i + 1 at `>> 2`.
        let (le, re) = (e << 2, e >> 2);
        let (le2, re2) = (e << 4, e >> 4);
        let blocked = (theirs << 2 & !le2) | (theirs >> 2 & !re2);
        let breathes = le | re | (mine << 2 & le2) | (mine >> 2 & re2);
        e & inside & !blocked & breathes
    }

    /// Whether some stone may be placed.
    #[inline]
    fn live(&self) -> bool {
        self.legal_mask(SX) | self.legal_mask(SO) != 0
    }

    /// The empty points.
    fn empties(&self) -> u32 {
        let c = self.cells;
        (c & c >> 1 & LOW_BITS).count_ones()
    }

    /// `a` (of `la` points) followed by `b` (of `lb`).
    #[inline]
    fn join(a: Strip, b: Strip) -> Strip {
        Strip {
            cells: a.cells | b.cells.checked_shl(2 * a.len as u32).unwrap_or(0),
            len: a.len + b.len,
        }
    }

    /// The points `from..to`.
    #[inline]
    fn slice(&self, from: usize, to: usize) -> Strip {
        if from >= to {
            return Strip { cells: 0, len: 0 };
        }
        Strip {
            cells: (self.cells >> (2 * from)) & low2(to - from),
            len: (to - from) as u8,
        }
    }

    /// The components left by a stone of colour `c` on the empty point `i` (a legal move),
    /// each given to `push` if it has a move.
    fn after(&self, i: usize, c: u128, mut push: impl FnMut(Strip)) {
        let n = self.len as usize;
        let ii = i as isize;
        let (l, r) = (self.at(ii - 1), self.at(ii + 1));
        let other = 3 - c;
        let lo = self.slice(0, i);
        let hi = self.slice(i + 1, n);
        let stone = Strip { cells: c, len: 1 };
        let mut emit = |s: Strip| {
            if s.len > 0 && s.live() {
                push(s);
            }
        };
        // The part left of the stone, and whether it continues through the stone.
        let mut run = if l == other {
            emit(lo);
            Strip { cells: 0, len: 0 }
        } else {
            lo
        };
        // The stone: a new one unless it joins a neighbour of its colour (a run is one stone).
        let joins_left = l == c;
        let joins_right = r == c;
        if !joins_left && !joins_right {
            run = Strip::join(run, stone);
        }
        if r == other {
            emit(run);
            emit(hi);
        } else if joins_left && joins_right {
            // Both neighbours are `c`: they and the stone are one group, kept as the left one.
            emit(Strip::join(run, hi.slice(1, hi.len as usize)));
        } else {
            emit(Strip::join(run, hi));
        }
    }

    /// The strip's key: the least of its images under reversal and the colour swap.
    #[inline]
    fn key(&self) -> Key {
        let n = 2 * self.len as u32;
        let c = self.cells;
        // Reversing the bits reverses the points and swaps the two bits of each: `x` and
        // `o` exchange, empty stays.
        let rs = if n == 0 {
            0
        } else {
            c.reverse_bits() >> (128 - n)
        };
        let swap = |v: u128| (v & LOW_BITS) << 1 | (v >> 1 & LOW_BITS);
        let best = c.min(rs).min(swap(c)).min(swap(rs));
        Key {
            bits: best,
            tag: 0x100 | u16::from(self.len),
        }
    }
}

/// NoGo on one line of at most 64 points, as a [`Split`] game of [`Strip`]s.
#[derive(Clone, Copy, Debug, Default)]
pub struct LineNoGo {
    /// True when every key fits 64 bits (lines of at most 32 points).
    short: bool,
    /// Keys without the reversal and the colour swap.
    plain_keys: bool,
}

impl LineNoGo {
    /// The components of a row of cells (walls: `#` and the ends).
    pub fn split(row: &[Cell], out: &mut Vec<Strip>) {
        let mut cur = Strip { cells: 0, len: 0 };
        let mut last = Cell::Off;
        let flush = |s: &mut Strip, out: &mut Vec<Strip>| {
            if s.len > 0 && s.live() {
                out.push(*s);
            }
            *s = Strip { cells: 0, len: 0 };
        };
        for &c in row {
            match c {
                Cell::Off => flush(&mut cur, out),
                Cell::Empty => {
                    cur = Strip::join(cur, Strip { cells: SE, len: 1 });
                }
                Cell::X | Cell::O => {
                    let v = if c == Cell::X { SX } else { SO };
                    if last == c {
                        // The same group: one stone.
                    } else {
                        if last.is_stone() {
                            // Stones of two colours side by side: a wall.
                            flush(&mut cur, out);
                        }
                        cur = Strip::join(cur, Strip { cells: v, len: 1 });
                    }
                }
            }
            last = c;
        }
        flush(&mut cur, out);
    }
}

impl Split for LineNoGo {
    type Part = Strip;

    #[inline]
    fn key(&self, s: &Strip) -> Key {
        if self.plain_keys {
            return Key {
                bits: s.cells,
                tag: 0x8100 | u16::from(s.len),
            };
        }
        s.key()
    }

    #[inline]
    fn size(&self, s: &Strip) -> u32 {
        s.empties()
    }

    fn bound(&self, s: &Strip) -> u32 {
        s.empties()
    }

    #[inline]
    fn known(&self, s: &Strip) -> Option<u32> {
        (s.empties() == 1).then_some(1)
    }

    fn options(&self, s: &Strip, out: &mut Sink<Strip>) {
        let centre = s.len as u32 - 1;
        for c in [SX, SO] {
            let mut m = s.legal_mask(c);
            while m != 0 {
                let i = (m.trailing_zeros() / 2) as usize;
                m &= m - 1;
                s.after(i, c, |p| out.part(p));
                out.end((2 * i as u32).abs_diff(centre));
            }
        }
    }

    fn domain(&self) -> String {
        if self.plain_keys {
            "nogo line plain keys".into()
        } else {
            "nogo line".into()
        }
    }

    fn narrow(&self) -> bool {
        self.short
    }
}

/// One move of NoGo: a stone of colour `x` (or `o`) on the point (row, column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// The point.
    pub at: (usize, usize),
    /// The stone's colour: `Cell::X` or `Cell::O`.
    pub stone: Cell,
}

/// The position of `board` as words: stones `x`, `o`, empty points `e`, on `plane`.
fn words(board: &Board) -> (u64, u64, u64) {
    let (mut x, mut o, mut e) = (0u64, 0u64, 0u64);
    for (i, c) in board.cells().iter().enumerate() {
        match c {
            Cell::X => x |= 1 << i,
            Cell::O => o |= 1 << i,
            Cell::Empty => e |= 1 << i,
            Cell::Off => {}
        }
    }
    (x, o, e)
}

/// Checks that `board` is a NoGo position this engine takes: at most 64 cells, every group
/// with a liberty.
pub fn check(board: &Board) -> Result<Plane, BoardError> {
    let n = board.rows() * board.cols();
    if n > MAX_PLANE_CELLS {
        return Err(BoardError::TooLarge {
            cells: n,
            what: format!("NoGo boards take at most {MAX_PLANE_CELLS}"),
        });
    }
    let plane = Plane::new(board.rows(), board.cols());
    let (x, o, e) = words(board);
    let mut lay = Layout::default();
    lay.build(&plane, x, o, e);
    for i in 0..lay.grp.len() {
        if lay.libs[i] == 0 {
            let (r, c) = plane.cell(lay.grp[i].trailing_zeros() as usize);
            return Err(BoardError::Illegal(format!(
                "the group at ({r}, {c}) has no liberty: not a NoGo position"
            )));
        }
    }
    Ok(plane)
}

/// Every legal placement on `board`, in reading order, `x` before `o` (none on a board of
/// more than 64 cells, which [`check`] refuses).
pub fn placements(board: &Board) -> Vec<Placement> {
    let n = board.rows() * board.cols();
    if n > MAX_PLANE_CELLS {
        return Vec::new();
    }
    let plane = Plane::new(board.rows(), board.cols());
    let (x, o, e) = words(board);
    let mut lay = Layout::default();
    lay.build(&plane, x, o, e);
    let mut out = Vec::new();
    for q in bits64(e) {
        for (is_x, stone) in [(true, Cell::X), (false, Cell::O)] {
            if lay.legal(&plane, e, q, is_x) {
                out.push(Placement {
                    at: plane.cell(q),
                    stone,
                });
            }
        }
    }
    out
}

/// The board after `m` (one of [`placements`]).
pub fn play(board: &Board, m: Placement) -> Board {
    let mut cells = board.cells().to_vec();
    cells[m.at.0 * board.cols() + m.at.1] = m.stone;
    board.with_cells(cells)
}

/// The search for boards of one shape: on the line ([`LineNoGo`]) for one row or one column,
/// else on the plane ([`NoGoGame`]).
pub enum Solver {
    /// A board of more than one row and column.
    Plane(Box<Search<NoGoGame>>),
    /// One row (a column is read as a row).
    Line(Box<Search<LineNoGo>>),
}

impl Solver {
    /// A search for boards of `board`'s shape (checked by [`check`]).
    pub fn new(board: &Board, opts: Options) -> Result<Solver, crate::clobber::SolverError> {
        Solver::with_paths(board, opts, Paths::default())
    }

    /// [`Solver::new`] on the paths `paths`.
    pub fn with_paths(
        board: &Board,
        opts: Options,
        paths: Paths,
    ) -> Result<Solver, crate::clobber::SolverError> {
        let plane = check(board)?;
        if (board.rows() == 1 || board.cols() == 1) && !paths.plane {
            let game = LineNoGo {
                short: board.rows() * board.cols() <= 32,
                plain_keys: paths.plain_keys,
            };
            return Ok(Solver::Line(Box::new(Search::new(game, opts)?)));
        }
        let mut game = NoGoGame::new(plane);
        if paths.plain_keys {
            game = game.with_plain_keys();
        }
        Ok(Solver::Plane(Box::new(Search::new(game, opts)?)))
    }

    /// The row of a one-row (or one-column) board.
    fn row(board: &Board) -> Vec<Cell> {
        if board.rows() == 1 {
            board.cells().to_vec()
        } else {
            board.transposed().cells().to_vec()
        }
    }

    /// The components of `board` (of this solver's shape), each drawn as a board of its own
    /// (its points; every other point off the board; on a line, its points in a row with
    /// each group one stone).
    pub fn component_boards(&self, board: &Board) -> Vec<Board> {
        match self {
            Solver::Plane(search) => {
                let (x, o, e) = words(board);
                let mut parts = Vec::new();
                search.game().split(x, o, e, &mut parts);
                parts
                    .into_iter()
                    .map(|a| {
                        board.with_cells(
                            (0..board.cells().len())
                                .map(|i| {
                                    if a.x >> i & 1 != 0 {
                                        Cell::X
                                    } else if a.o >> i & 1 != 0 {
                                        Cell::O
                                    } else if a.e >> i & 1 != 0 {
                                        Cell::Empty
                                    } else {
                                        Cell::Off
                                    }
                                })
                                .collect(),
                        )
                    })
                    .collect()
            }
            Solver::Line(_) => {
                let mut parts = Vec::new();
                LineNoGo::split(&Self::row(board), &mut parts);
                parts
                    .into_iter()
                    .map(|s| {
                        Board::from_fn(1, s.len as usize, |_, c| match s.at(c as isize) {
                            SX => Cell::X,
                            SO => Cell::O,
                            _ => Cell::Empty,
                        })
                        .expect("a strip has a point")
                    })
                    .collect()
            }
        }
    }

    /// The value of `board` (of this solver's shape).
    pub fn value(&mut self, board: &Board) -> Result<u32, SearchError> {
        match self {
            Solver::Plane(search) => {
                let (x, o, e) = words(board);
                let mut parts = Vec::new();
                search.game().split(x, o, e, &mut parts);
                search.value(&parts)
            }
            Solver::Line(search) => {
                let mut parts = Vec::new();
                LineNoGo::split(&Self::row(board), &mut parts);
                search.value(&parts)
            }
        }
    }

    /// Whether `board` is a P-position (one question, not the value).
    pub fn is_p(&mut self, board: &Board) -> Result<bool, SearchError> {
        match self {
            Solver::Plane(search) => {
                let (x, o, e) = words(board);
                let mut parts = Vec::new();
                search.game().split(x, o, e, &mut parts);
                search.is_p(&parts, 0)
            }
            Solver::Line(search) => {
                let mut parts = Vec::new();
                LineNoGo::split(&Self::row(board), &mut parts);
                search.is_p(&parts, 0)
            }
        }
    }

    /// Search nodes so far.
    pub fn nodes(&self) -> u64 {
        match self {
            Solver::Plane(s) => s.nodes(),
            Solver::Line(s) => s.nodes(),
        }
    }

    /// A snapshot of the search's progress.
    pub fn progress(&self) -> crate::engine::Progress {
        match self {
            Solver::Plane(s) => s.progress(),
            Solver::Line(s) => s.progress(),
        }
    }

    /// Saves the table ([`Search::save`]).
    pub fn save(&self, path: &std::path::Path) -> Result<(), SearchError> {
        match self {
            Solver::Plane(s) => s.save(path),
            Solver::Line(s) => s.save(path),
        }
    }

    /// Loads a saved table ([`Search::load`]); the entries read.
    pub fn load(&mut self, path: &std::path::Path) -> Result<u64, SearchError> {
        match self {
            Solver::Plane(s) => s.load(path),
            Solver::Line(s) => s.load(path),
        }
    }

    /// Calls `f` every [`Options::check_every`] nodes.
    pub fn set_progress(&mut self, f: impl FnMut(&crate::engine::Progress) + Send + 'static) {
        match self {
            Solver::Plane(s) => s.set_progress(f),
            Solver::Line(s) => s.set_progress(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_mask_matches_the_point_by_point_rule() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = 1 + (seed % 40) as usize;
            let mut cells = 0u128;
            let mut r = seed;
            for i in 0..len {
                r = r.rotate_left(7).wrapping_mul(0x2545_f491_4f6c_dd1d);
                let v = match r % 4 {
                    0 => SX,
                    1 => SO,
                    _ => SE,
                };
                cells |= v << (2 * i);
            }
            let s = Strip {
                cells,
                len: len as u8,
            };
            for c in [SX, SO] {
                let m = s.legal_mask(c);
                for i in 0..len {
                    let want = s.at(i as isize) == SE && s.legal(i, c);
                    assert_eq!(m >> (2 * i) & 1 != 0, want, "{cells:b} {len} at {i}");
                }
            }
        }
    }

    proptest::proptest! {
        /// The plane's legal points, found all at once, are those of the point-by-point
        /// rule, on boards of any shape with stones, empty points and points off the board,
        /// and so are those of every position one move on (the layout updated in place).
        #[test]
        fn plane_legal_masks_match_the_point_by_point_rule(
            rows in 1usize..=8,
            cols in 1usize..=8,
            cells in proptest::collection::vec(0u8..4, 64),
        ) {
            let plane = Plane::new(rows, cols);
            let (mut x, mut o, mut e) = (0u64, 0u64, 0u64);
            for (i, c) in cells.iter().take(rows * cols).enumerate() {
                match c {
                    0 => x |= 1 << i,
                    1 => o |= 1 << i,
                    2 => e |= 1 << i,
                    _ => {}
                }
            }
            let check = |lay: &Layout, e: u64| {
                let (lx, lo) = lay.legal_masks(&plane, e);
                for p in bits64(plane.all()) {
                    for (is_x, m) in [(true, lx), (false, lo)] {
                        let want = e >> p & 1 != 0 && lay.legal(&plane, e, p, is_x);
                        proptest::prop_assert_eq!(m >> p & 1 != 0, want, "point {} x {}", p, is_x);
                    }
                }
                Ok(())
            };
            let mut lay = Layout::default();
            lay.build(&plane, x, o, e);
            check(&lay, e)?;
            let mut child = Layout::default();
            for q in bits64(e) {
                for is_x in [true, false] {
                    if lay.legal(&plane, e, q, is_x) {
                        child.after(&lay, &plane, e, q, is_x);
                        check(&child, e & !(1 << q))?;
                    }
                }
            }
        }
    }
}
