//! The wall-making game: pick an empty cell; walls grow from it in the four directions until
//! they meet a wall or the border, splitting the board into up to four rectangles.
//!
//! Cells marked `X` cannot be chosen (walls still pass through them). Every reachable position
//! is a disjoint set of axis-aligned rectangles of the original board, each an independent game,
//! so the value of a position is the XOR of its rectangles' values and only the
//! O(H²W²) sub-rectangles need a value. They are filled smallest first: a cell (r, c) of a
//! rectangle leaves the four corner rectangles, each strictly lower and narrower.
//! A 20×20 board takes milliseconds. [`WallGame`] is the same game for the generic solver. A
//! position (a board, the contest's `H W` line first or not, or a board with walls `#` built)
//! is answered by the catalogue entry ([`WallsEntry`]), the one door of every front end.
//!
//! ```
//! use grundy_games::walls::Board;
//!
//! let board = Board::parse("2 2\nX.\n..\n")?;
//! assert_eq!(board.values().get(&board.full()), 2); // options 0, 1, 1
//! # Ok::<(), grundy_games::GameError>(())
//! ```

use crate::error::{GameError, Result};
use grundy_core::{Game, Move, Outcome};
use serde::Serialize;

/// The largest side accepted (the table has (H+1)²(W+1)² entries).
pub const MAX_SIDE: usize = 40;

/// A board: `true` where a cell may be chosen (`.`), `false` for `X`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    free: Vec<bool>,
}

/// A rectangle of the board: rows `r0..r1`, columns `c0..c1` (half-open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rect {
    /// First row.
    pub r0: u8,
    /// One past the last row.
    pub r1: u8,
    /// First column.
    pub c0: u8,
    /// One past the last column.
    pub c1: u8,
}

impl Rect {
    fn is_empty(&self) -> bool {
        self.r0 >= self.r1 || self.c0 >= self.c1
    }

    /// The (non-empty) rectangles left after choosing cell (r, c) inside this one.
    pub fn split(&self, r: u8, c: u8) -> impl Iterator<Item = Rect> {
        let s = *self;
        [
            Rect {
                r0: s.r0,
                r1: r,
                c0: s.c0,
                c1: c,
            },
            Rect {
                r0: s.r0,
                r1: r,
                c0: c + 1,
                c1: s.c1,
            },
            Rect {
                r0: r + 1,
                r1: s.r1,
                c0: s.c0,
                c1: c,
            },
            Rect {
                r0: r + 1,
                r1: s.r1,
                c0: c + 1,
                c1: s.c1,
            },
        ]
        .into_iter()
        .filter(|q| !q.is_empty())
    }
}

impl Board {
    /// A board from its free-cell mask (row-major); 1 ≤ rows, cols ≤ 40.
    pub fn new(rows: usize, cols: usize, free: Vec<bool>) -> Result<Self> {
        if rows == 0 || cols == 0 {
            return Err(GameError::Invalid(format!(
                "board must not be empty ({rows}x{cols})"
            )));
        }
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(GameError::TooLarge(format!(
                "board {rows}x{cols} too large (sides at most {MAX_SIDE})"
            )));
        }
        if free.len() != rows * cols {
            return Err(GameError::Invalid(format!(
                "mask has {} cells, expected {}",
                free.len(),
                rows * cols
            )));
        }
        Ok(Board { rows, cols, free })
    }

    /// Parses lines of `.` (may be chosen) and `X` (may not), optionally preceded by a line
    /// "H W" giving the size (the contest input format).
    pub fn parse(text: &str) -> Result<Self> {
        let mut lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        let mut declared = None;
        if let Some(&(n, first)) = lines.first() {
            let nums: Vec<&str> = first.split_whitespace().collect();
            if nums.len() == 2 && nums.iter().all(|t| t.chars().all(|c| c.is_ascii_digit())) {
                let parse = |t: &str| {
                    t.parse::<usize>().map_err(|_| GameError::Parse {
                        line: n,
                        message: format!("size '{t}' out of range"),
                    })
                };
                declared = Some((n, parse(nums[0])?, parse(nums[1])?));
                lines.remove(0);
            }
        }
        let Some(&(first_line, first)) = lines.first() else {
            return Err(GameError::Parse {
                line: 1,
                message: "no board in the input".into(),
            });
        };
        let cols = first.chars().count();
        let mut free = Vec::new();
        for &(n, line) in &lines {
            let len = line.chars().count();
            if len != cols {
                return Err(GameError::Parse {
                    line: n,
                    message: format!("ragged board: {len} cells where the first row has {cols}"),
                });
            }
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '.' => free.push(true),
                    'X' | 'x' => free.push(false),
                    other => {
                        return Err(GameError::Parse {
                            line: n,
                            message: format!(
                                "unknown character {other:?} in column {} (use '.' or 'X')",
                                c + 1
                            ),
                        })
                    }
                }
            }
        }
        let rows = lines.len();
        if let Some((n, h, w)) = declared {
            if (h, w) != (rows, cols) {
                return Err(GameError::Parse {
                    line: n,
                    message: format!("header says {h}x{w} but the board is {rows}x{cols}"),
                });
            }
        }
        Board::new(rows, cols, free).map_err(|e| e.at_line(first_line))
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// True when cell (r, c) may be chosen.
    pub fn is_free(&self, r: usize, c: usize) -> bool {
        self.free[r * self.cols + c]
    }

    /// The whole board as a rectangle.
    pub fn full(&self) -> Rect {
        Rect {
            r0: 0,
            r1: self.rows as u8,
            c0: 0,
            c1: self.cols as u8,
        }
    }

    /// Grundy values of every sub-rectangle, smallest first.
    pub fn values(&self) -> RectValues {
        let (h, w) = (self.rows, self.cols);
        let mut t = RectValues {
            h,
            w,
            values: vec![0; (h + 1) * (h + 1) * (w + 1) * (w + 1)],
        };
        let mut seen: Vec<bool> = Vec::new();
        for hh in 1..=h {
            for ww in 1..=w {
                for r0 in 0..=h - hh {
                    for c0 in 0..=w - ww {
                        let rect = Rect {
                            r0: r0 as u8,
                            r1: (r0 + hh) as u8,
                            c0: c0 as u8,
                            c1: (c0 + ww) as u8,
                        };
                        seen.clear();
                        seen.resize(hh * ww + 2, false);
                        for r in r0..r0 + hh {
                            for c in c0..c0 + ww {
                                if !self.is_free(r, c) {
                                    continue;
                                }
                                let v = t.split_value(&rect, r as u8, c as u8) as usize;
                                if v < seen.len() {
                                    seen[v] = true;
                                }
                            }
                        }
                        let g = seen.iter().position(|s| !s).expect("seen has a spare slot");
                        let idx = t.index(&rect);
                        t.values[idx] = g as u32;
                    }
                }
            }
        }
        t
    }
}

/// Grundy values of the sub-rectangles of a board.
#[derive(Clone, Debug)]
pub struct RectValues {
    h: usize,
    w: usize,
    values: Vec<u32>,
}

impl RectValues {
    fn index(&self, q: &Rect) -> usize {
        let (h1, w1) = (self.h + 1, self.w + 1);
        ((q.r0 as usize * h1 + q.r1 as usize) * w1 + q.c0 as usize) * w1 + q.c1 as usize
    }

    /// The value of a rectangle (0 when empty).
    pub fn get(&self, q: &Rect) -> u64 {
        if q.is_empty() {
            0
        } else {
            u64::from(self.values[self.index(q)])
        }
    }

    /// The value after choosing cell (r, c) of rectangle `q`: the XOR of the four pieces.
    pub fn split_value(&self, q: &Rect, r: u8, c: u8) -> u64 {
        q.split(r, c).fold(0, |a, p| a ^ self.get(&p))
    }
}

/// A rectangle left on the board after a move, with its value.
///
/// JSON: `{"row": 0, "col": 1, "rows": 1, "cols": 2, "grundy": 0}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    /// Its top row.
    pub row: usize,
    /// Its left column.
    pub col: usize,
    /// Its height.
    pub rows: usize,
    /// Its width.
    pub cols: usize,
    /// Its Grundy value.
    pub grundy: u64,
}

/// The move that picks (r, c) in the rectangle `q` of `grid`, leaving a position of that
/// outcome and value: the position left is the catalogue's (kind `walls`, the new walls `#`);
/// [`Move::at`] holds `{"cell": [1, 1], "pieces": [..]}`, the cell picked and the
/// rectangles the walls leave of `q` (each a [`Piece`] with its value).
fn pick_move(
    grid: &WallGrid,
    q: &Rect,
    (r, c): (usize, usize),
    values: &RectValues,
    outcome: Outcome,
    grundy: Option<u64>,
) -> Move {
    let pieces: Vec<Piece> = q
        .split(r as u8, c as u8)
        .map(|p| Piece {
            row: p.r0 as usize,
            col: p.c0 as usize,
            rows: (p.r1 - p.r0) as usize,
            cols: (p.c1 - p.c0) as usize,
            grundy: values.get(&p),
        })
        .collect();
    let parts = if pieces.is_empty() {
        "nothing".to_string()
    } else {
        pieces
            .iter()
            .map(|p| format!("{}x{} (value {})", p.rows, p.cols, p.grundy))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!("pick ({r}, {c}); the walls leave {parts}");
    let short = format!("pick ({r}, {c})");
    Move::new(text, &short, grid.pick(q, r, c).position(), outcome, grundy)
        .at("cell", [r, c])
        .at("pieces", pieces)
}

/// The wall-making game for the generic solver: a position is a sorted list of rectangles.
#[derive(Clone, Debug)]
pub struct WallGame {
    board: Board,
}

impl WallGame {
    /// The game on `board`; its starting position is `vec![board.full()]`.
    pub fn new(board: Board) -> Self {
        WallGame { board }
    }
}

impl Game for WallGame {
    type Position = Vec<Rect>;

    fn options(&self, pos: &Vec<Rect>, out: &mut Vec<Vec<Rect>>) {
        for (i, q) in pos.iter().enumerate() {
            for r in q.r0..q.r1 {
                for c in q.c0..q.c1 {
                    if !self.board.is_free(r as usize, c as usize) {
                        continue;
                    }
                    let mut next: Vec<Rect> = pos[..i].to_vec();
                    next.extend_from_slice(&pos[i + 1..]);
                    next.extend(q.split(r, c));
                    next.sort();
                    out.push(next);
                }
            }
        }
    }

    fn components(&self, pos: &Vec<Rect>, out: &mut Vec<Vec<Rect>>) -> bool {
        if pos.len() < 2 {
            return false;
        }
        out.extend(pos.iter().map(|q| vec![*q]));
        true
    }
}

/// The wall-making game in the catalogue: `walls` (alias `wall-making`). A position is a board:
/// rows of `.` (a cell that may be picked), `X` (a cell that may not; walls pass through it)
/// and `#` (a wall already built), separated by newlines or `|`, optionally after a line
/// `H W` (the contest format). The cells that are not walls must form rectangles (each wall
/// runs across a whole region). Kind `walls`: `{"rows": ["...", ".X.", "..."]}`.
#[derive(Clone, Copy, Debug, Default)]
pub struct WallsEntry;

impl grundy_core::catalogue::Entry for WallsEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "walls".into(),
            aliases: vec!["wall-making".into()],
            summary: "The wall-making game: pick a cell; walls grow from it in four directions \
                      and split its rectangle"
                .into(),
            example: "....|.X..|....".into(),
            example_game: None,
            position: format!(
                "the board's rows, separated by newlines or '|': '.' a cell that may be picked, \
                 'X' one that may not, '#' a wall; the open cells form rectangles; at most \
                 {MAX_SIDE}x{MAX_SIDE}"
            ),
            kind: "walls".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        matches!(name, "walls" | "wall-making")
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(WallsRules::default()))
    }
}

/// The most cells (rows × columns) of a board whose misère play is searched: the positions
/// are sets of rectangles, whose number explodes with the board.
pub const MISERE_CELLS: usize = 42;

/// A wall-making position: the cells (`.`, `X`, `#`) of its frame, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
struct WallGrid {
    rows: usize,
    cols: usize,
    cells: Vec<u8>,
}

impl WallGrid {
    fn read(text: &str) -> grundy_core::catalogue::Result<WallGrid> {
        use grundy_core::catalogue::Error;
        let mut rows = crate::catalogue::grid_rows(text, "board")?;
        let nums: Vec<&str> = rows[0].split_whitespace().collect();
        let declared =
            if nums.len() == 2 && nums.iter().all(|t| t.chars().all(|c| c.is_ascii_digit())) {
                rows.remove(0);
                Some((nums[0].parse::<usize>().ok(), nums[1].parse::<usize>().ok()))
            } else {
                None
            };
        if rows.is_empty() {
            return Err(Error::input("no board in the position"));
        }
        let cols = rows[0].chars().count();
        if rows.len() > MAX_SIDE || cols > MAX_SIDE {
            return Err(Error::limit(format!(
                "board {}x{cols} too large (sides at most {MAX_SIDE})",
                rows.len()
            )));
        }
        if let Some((h, w)) = declared {
            if (h, w) != (Some(rows.len()), Some(cols)) {
                return Err(Error::input(format!(
                    "the first line gives a size but the board is {}x{cols}",
                    rows.len()
                )));
            }
        }
        let mut cells = Vec::with_capacity(rows.len() * cols);
        for (i, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != cols {
                return Err(Error::input(format!(
                    "ragged board: row {} has {len} cells, row 1 has {cols}",
                    i + 1
                )));
            }
            for ch in row.chars() {
                cells.push(match ch {
                    '.' => b'.',
                    'X' | 'x' => b'X',
                    '#' => b'#',
                    other => {
                        return Err(Error::input(format!(
                            "unknown character {other:?} in row {} (use '.', 'X' or '#')",
                            i + 1
                        )))
                    }
                });
            }
        }
        let grid = WallGrid {
            rows: rows.len(),
            cols,
            cells,
        };
        grid.pieces()?;
        Ok(grid)
    }

    fn at(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.cols + c]
    }

    /// The rectangles of open cells, sorted; an error when the open cells of a region do not
    /// fill their bounding box.
    fn pieces(&self) -> grundy_core::catalogue::Result<Vec<Rect>> {
        let (h, w) = (self.rows, self.cols);
        let mut seen = vec![false; h * w];
        let mut out = Vec::new();
        for start in 0..h * w {
            if seen[start] || self.cells[start] == b'#' {
                continue;
            }
            let (mut r0, mut r1, mut c0, mut c1) = (h, 0, w, 0);
            let mut stack = vec![start];
            seen[start] = true;
            let mut count = 0;
            while let Some(i) = stack.pop() {
                count += 1;
                let (r, c) = (i / w, i % w);
                (r0, r1, c0, c1) = (r0.min(r), r1.max(r + 1), c0.min(c), c1.max(c + 1));
                let mut visit = |j: usize| {
                    if !seen[j] && self.cells[j] != b'#' {
                        seen[j] = true;
                        stack.push(j);
                    }
                };
                if c > 0 {
                    visit(i - 1);
                }
                if c + 1 < w {
                    visit(i + 1);
                }
                if r > 0 {
                    visit(i - w);
                }
                if r + 1 < h {
                    visit(i + w);
                }
            }
            if count != (r1 - r0) * (c1 - c0) {
                return Err(grundy_core::catalogue::Error::input(format!(
                    "the open cells around ({}, {}) do not form a rectangle (walls run across \
                     whole regions)",
                    start / w,
                    start % w
                )));
            }
            out.push(Rect {
                r0: r0 as u8,
                r1: r1 as u8,
                c0: c0 as u8,
                c1: c1 as u8,
            });
        }
        out.sort();
        Ok(out)
    }

    /// The board whose free cells are every cell but `X`: the values of the open rectangles
    /// depend on their own cells only, and this board stays the same through a game.
    fn board(&self) -> Board {
        let free = self.cells.iter().map(|&c| c != b'X').collect();
        Board::new(self.rows, self.cols, free).expect("sides checked when read")
    }

    /// The grid after picking (r, c) in `q`: a wall across `q` along row r and column c.
    fn pick(&self, q: &Rect, r: usize, c: usize) -> WallGrid {
        let mut g = self.clone();
        for cc in q.c0 as usize..q.c1 as usize {
            g.cells[r * g.cols + cc] = b'#';
        }
        for rr in q.r0 as usize..q.r1 as usize {
            g.cells[rr * g.cols + c] = b'#';
        }
        g
    }

    fn row_strings(&self) -> Vec<String> {
        self.cells
            .chunks(self.cols)
            .map(|r| r.iter().map(|&b| b as char).collect())
            .collect()
    }

    fn position(&self) -> grundy_core::catalogue::Position {
        let rows = self.row_strings();
        grundy_core::catalogue::Position::text("walls", rows.join("|")).with("rows", rows)
    }
}

/// The rules of the wall-making game for the catalogue: the values of every sub-rectangle of
/// the board (kept between calls of one game) answer normal play; misère play is searched over
/// sets of rectangles.
#[derive(Default)]
pub struct WallsRules {
    values: Option<(Board, RectValues)>,
    misere: Option<(Board, crate::catalogue::Search<WallGame>)>,
}

impl WallsRules {
    fn values(&mut self, grid: &WallGrid) -> &RectValues {
        let board = grid.board();
        if self.values.as_ref().is_none_or(|(b, _)| *b != board) {
            let v = board.values();
            self.values = Some((board, v));
        }
        &self.values.as_ref().expect("filled above").1
    }

    fn list(
        &mut self,
        grid: &WallGrid,
        play: grundy_core::catalogue::Play,
        budget: &grundy_core::catalogue::Budget,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let pieces = grid.pieces()?;
        let mut picks = Vec::new();
        for (i, q) in pieces.iter().enumerate() {
            for r in q.r0 as usize..q.r1 as usize {
                for c in q.c0 as usize..q.c1 as usize {
                    if grid.at(r, c) == b'.' {
                        picks.push((i, r, c));
                    }
                }
            }
        }
        let misere = if play.is_misere() {
            let cells = grid.rows * grid.cols;
            if cells > MISERE_CELLS {
                return Err(grundy_core::catalogue::Error::limit(format!(
                    "board {}x{}: misère play is searched for boards of at most {MISERE_CELLS} \
                     cells",
                    grid.rows, grid.cols
                )));
            }
            let board = grid.board();
            if self.misere.as_ref().is_none_or(|(b, _)| *b != board) {
                let search = crate::catalogue::Search::new(WallGame::new(board.clone()));
                self.misere = Some((board, search));
            }
            let search = &mut self.misere.as_mut().expect("filled above").1;
            let children: Vec<Vec<Rect>> = picks
                .iter()
                .map(|&(i, r, c)| {
                    let mut next: Vec<Rect> = pieces[..i].to_vec();
                    next.extend_from_slice(&pieces[i + 1..]);
                    next.extend(pieces[i].split(r as u8, c as u8));
                    next.sort();
                    next
                })
                .collect();
            let what = format!("board {}x{}", grid.rows, grid.cols);
            Some(search.run(budget, &what, |s| {
                children
                    .iter()
                    .map(|p| (s.misere_outcome(p), None))
                    .collect::<Vec<(Outcome, Option<u64>)>>()
            })?)
        } else {
            None
        };
        let values = self.values(grid);
        let total = pieces.iter().fold(0, |a, q| a ^ values.get(q));
        let results = match misere {
            Some(results) => results,
            None => picks
                .iter()
                .map(|&(i, r, c)| {
                    let q = &pieces[i];
                    let g = total ^ values.get(q) ^ values.split_value(q, r as u8, c as u8);
                    (Outcome::from_grundy(g), Some(g))
                })
                .collect(),
        };
        Ok(picks
            .iter()
            .zip(results)
            .map(|(&(i, r, c), (outcome, g))| {
                pick_move(grid, &pieces[i], (r, c), values, outcome, g)
            })
            .collect())
    }
}

impl grundy_core::catalogue::Rules for WallsRules {
    fn name(&self) -> String {
        "walls".into()
    }

    fn parse(
        &self,
        text: &str,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Position> {
        Ok(WallGrid::read(text)?.position())
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let play = ask.play;
        let budget = &ask.budget;
        let grid = WallGrid::read(&pos.text)?;
        self.list(&grid, play, budget)
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        let play = ask.play;
        let budget = &ask.budget;
        use grundy_core::catalogue::{Grundy, Report};
        let grid = WallGrid::read(&pos.text)?;
        let moves = self.list(&grid, play, budget)?;
        let mut r = if play.is_misere() {
            let outcome = crate::catalogue::misere_from_options(&moves);
            let mut r = Report::new("walls", grid.position(), play, outcome, None);
            r.explanation = grundy_core::catalogue::explain_misere(outcome, &moves);
            r
        } else {
            let pieces = grid.pieces()?;
            let values = self.values(&grid);
            let list: Vec<Piece> = pieces
                .iter()
                .map(|q| Piece {
                    row: q.r0 as usize,
                    col: q.c0 as usize,
                    rows: (q.r1 - q.r0) as usize,
                    cols: (q.c1 - q.c0) as usize,
                    grundy: values.get(q),
                })
                .collect();
            let g = list.iter().fold(0, |a, p| a ^ p.grundy);
            let mut r = Report::new(
                "walls",
                grid.position(),
                play,
                Outcome::from_grundy(g),
                Some(Grundy::Finite(g)),
            );
            let mut lines = Vec::new();
            if list.len() > 1 {
                let vals: Vec<String> = list.iter().map(|p| p.grundy.to_string()).collect();
                lines.push(format!(
                    "The walls leave {} rectangles, separate games: the value is the XOR of \
                     their values {} = {g}.",
                    list.len(),
                    vals.join(" XOR ")
                ));
            }
            lines.push(
                "A pick splits its rectangle into up to four; a rectangle's value is the mex \
                 of the XORs of the pieces its picks leave."
                    .to_string(),
            );
            lines.extend(grundy_core::catalogue::explain_by_options(g, &moves));
            r.explanation = lines;
            // Who wins, in the contest's words, and the rectangles the walls have left.
            let winner = if g != 0 { "First" } else { "Second" };
            r.details = serde_json::json!({ "winner": winner, "pieces": list });
            r
        };
        r.detail = ask.detail;
        Ok(r.with_moves(moves))
    }
}
