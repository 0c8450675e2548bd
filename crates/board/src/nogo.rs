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
use crate::stones::{bits64, plane_key, Board, BoardError, Cell, Plane, MAX_PLANE_CELLS};
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

/// The groups of a position: stones, liberties, colour (true: `x`).
struct Groups {
    list: [(u64, u64, bool); 64],
    n: usize,
}

impl Groups {
    fn new(plane: &Plane, x: u64, o: u64, e: u64) -> Groups {
        let mut g = Groups {
            list: [(0, 0, false); 64],
            n: 0,
        };
        for (stones, is_x) in [(x, true), (o, false)] {
            let mut rest = stones;
            while rest != 0 {
                let grp = plane.fill(rest & rest.wrapping_neg(), rest);
                rest &= !grp;
                g.list[g.n] = (grp, plane.near(grp) & e, is_x);
                g.n += 1;
            }
        }
        g
    }

    fn iter(&self) -> impl Iterator<Item = &(u64, u64, bool)> {
        self.list[..self.n].iter()
    }

    /// Whether a stone of colour `is_x` may be placed on the empty point `p`.
    #[inline]
    fn legal(&self, plane: &Plane, e: u64, p: usize, is_x: bool) -> bool {
        let pb = 1u64 << p;
        let near = plane.near(pb);
        let mut libs = near & e;
        for &(grp, l, gx) in self.iter() {
            if grp & near == 0 {
                continue;
            }
            if gx == is_x {
                libs |= l;
            } else if l & !pb == 0 {
                return false;
            }
        }
        libs & !pb != 0
    }
}

/// NoGo on a board of at most 64 cells, as a [`Split`] game.
#[derive(Clone, Copy, Debug)]
pub struct NoGoGame {
    plane: Plane,
}

impl NoGoGame {
    /// The game on boards of `plane`'s shape.
    pub fn new(plane: Plane) -> NoGoGame {
        NoGoGame { plane }
    }

    /// The components of the position (stones `x`, `o`, empty points `e`) that have a legal
    /// move, each with [`Sink::part`] or pushed to a vector by `push`.
    fn split_with(&self, x: u64, o: u64, e: u64, mut push: impl FnMut(Area)) {
        let p = &self.plane;
        // Regions.
        let mut regions = [0u64; 64];
        let mut nr = 0;
        let mut rest = e;
        while rest != 0 {
            let r = p.fill(rest & rest.wrapping_neg(), rest);
            rest &= !r;
            regions[nr] = r;
            nr += 1;
        }
        if nr == 0 {
            return;
        }
        let groups = Groups::new(p, x, o, e);
        // Join the regions a group touches (union-find over region indices).
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
        for &(_, libs, _) in groups.iter() {
            let mut first: Option<usize> = None;
            for (j, &r) in regions.iter().enumerate().take(nr) {
                if r & libs != 0 {
                    match first {
                        None => first = Some(root(&mut parent, j)),
                        Some(f) => {
                            let rj = root(&mut parent, j);
                            if rj != f {
                                parent[rj] = f as u8;
                            }
                        }
                    }
                }
            }
        }
        // Each class: its empty points, then the groups touching them.
        let mut class_e = [0u64; 64];
        for (j, &r) in regions.iter().enumerate().take(nr) {
            let rt = root(&mut parent, j);
            class_e[rt] |= r;
        }
        for (j, &ce) in class_e.iter().enumerate().take(nr) {
            if ce == 0 || root(&mut parent, j) != j {
                continue;
            }
            let (mut cx, mut co) = (0u64, 0u64);
            for &(grp, libs, gx) in groups.iter() {
                if libs & ce != 0 {
                    if gx {
                        cx |= grp;
                    } else {
                        co |= grp;
                    }
                }
            }
            // A point where neither colour may play stays so: a class without a legal
            // move is 0 for ever.
            let live =
                bits64(ce).any(|q| groups.legal(p, e, q, true) || groups.legal(p, e, q, false));
            if live {
                push(Area {
                    x: cx,
                    o: co,
                    e: ce,
                });
            }
        }
    }

    /// The components of the position (stones `x`, `o`, empty points `e`) that have a legal
    /// move.
    pub fn split(&self, x: u64, o: u64, e: u64, out: &mut Vec<Area>) {
        self.split_with(x, o, e, |a| out.push(a));
    }

    /// Whether a stone of colour `is_x` may be placed on `p` in the position.
    pub fn legal(&self, x: u64, o: u64, e: u64, p: usize, is_x: bool) -> bool {
        e >> p & 1 != 0 && Groups::new(&self.plane, x, o, e).legal(&self.plane, e, p, is_x)
    }
}

impl Split for NoGoGame {
    type Part = Area;

    #[inline]
    fn key(&self, a: &Area) -> Key {
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
        let groups = Groups::new(p, a.x, a.o, a.e);
        let c2 = p.centre2(a.x | a.o | a.e);
        for q in bits64(a.e) {
            let qb = 1u64 << q;
            for is_x in [true, false] {
                if !groups.legal(p, a.e, q, is_x) {
                    continue;
                }
                let (nx, no) = if is_x {
                    (a.x | qb, a.o)
                } else {
                    (a.x, a.o | qb)
                };
                self.split_with(nx, no, a.e & !qb, |part| out.part(part));
                out.end(p.dist(c2, q, q));
            }
        }
    }

    fn domain(&self) -> String {
        "nogo plane".into()
    }

    fn narrow(&self) -> bool {
        self.plane.rows * self.plane.cols <= 32
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
    for (grp, libs, _) in Groups::new(&plane, x, o, e).iter() {
        if *libs == 0 {
            let (r, c) = plane.cell(grp.trailing_zeros() as usize);
            return Err(BoardError::Illegal(format!(
                "the group at ({r}, {c}) has no liberty: not a NoGo position"
            )));
        }
    }
    Ok(plane)
}

/// Every legal placement on `board`, in reading order, `x` before `o`.
pub fn placements(board: &Board) -> Vec<Placement> {
    let n = board.rows() * board.cols();
    if n > MAX_PLANE_CELLS {
        return Vec::new();
    }
    let plane = Plane::new(board.rows(), board.cols());
    let (x, o, e) = words(board);
    let groups = Groups::new(&plane, x, o, e);
    let mut out = Vec::new();
    for q in bits64(e) {
        for (is_x, stone) in [(true, Cell::X), (false, Cell::O)] {
            if groups.legal(&plane, e, q, is_x) {
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

/// The search for boards of one shape.
pub struct Solver {
    search: Search<NoGoGame>,
}

impl Solver {
    /// A search for boards of `board`'s shape (checked by [`check`]).
    pub fn new(board: &Board, opts: Options) -> Result<Solver, crate::clobber::SolverError> {
        let plane = check(board)?;
        Ok(Solver {
            search: Search::new(NoGoGame::new(plane), opts)?,
        })
    }

    /// The engine.
    pub fn search(&mut self) -> &mut Search<NoGoGame> {
        &mut self.search
    }

    /// The components of `board` (of this solver's shape).
    pub fn parts(&self, board: &Board) -> Vec<Area> {
        let (x, o, e) = words(board);
        let mut parts = Vec::new();
        self.search.game().split(x, o, e, &mut parts);
        parts
    }

    /// The value of `board` (of this solver's shape).
    pub fn value(&mut self, board: &Board) -> Result<u32, SearchError> {
        let parts = self.parts(board);
        self.search.value(&parts)
    }

    /// Whether `board` is a P-position (one question, not the value).
    pub fn is_p(&mut self, board: &Board) -> Result<bool, SearchError> {
        let parts = self.parts(board);
        self.search.is_p(&parts, 0)
    }
}
