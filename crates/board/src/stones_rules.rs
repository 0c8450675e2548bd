//! Clobber, Cannibal Clobber and NoGo in the game catalogue: one set of [`Rules`] for the
//! three games of stones, on their engines ([`crate::clobber::Solver`],
//! [`crate::nogo::Solver`]) in normal play, and by the catalogue's plain search over whole
//! boards in misère play (the engines' XOR of components holds in normal play only).
//!
//! A position is a [`Board`] in [`crate::stones`]' notation; `RxC` is the game's own board of
//! that size (NoGo: empty; Clobber and Cannibal Clobber: the checkerboard with `x` in the top
//! left corner) and a position equal to it prints back as `RxC`. Kind `"stones"`, field
//! `rows` (strings of `x`, `o`, `.`, `#`). A move's `at`: Clobber `{"from": [r, c], "to":
//! [r, c]}` (the moving stone and the stone it captures), NoGo `{"cell": [r, c], "stone":
//! "x"}`.
//!
//! Questions follow [`crate::ask`]: at [`Detail::Value`] the root alone is valued, at
//! [`Detail::Winning`] each move is asked only whether it leaves a P-position, at
//! [`Detail::All`] every move is valued; the budget caps the search nodes and the memory
//! (table, option lists, a row's rank tables), the stop flag and progress reach the search,
//! and the `table` param keeps the table in a file across sittings.

use std::path::Path;
use std::sync::atomic::Ordering;

use grundy_core::budget::{Limit, Resource};
use grundy_core::catalogue::{
    Ask, Detail, Error, Move as CatMove, Notation, Param, Position, Progress, Report, Result,
    Rules, Solved,
};
use grundy_core::{Game as PlainGame, Outcome};

use crate::clobber::{self, Capture, SolverError, Variant};
use crate::engine::SearchError;
use crate::nogo::{self, Placement};
use crate::stones::{Board, Cell, Size};
use crate::table::SLOT_BYTES;

/// The params of the three games: the search's table file.
pub const PARAMS: [Param; 1] = [crate::ask::TABLE];

/// Which game of stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stones {
    /// Clobber or Cannibal Clobber.
    Clobber(Variant),
    /// NoGo.
    NoGo,
}

impl Stones {
    /// The registry name.
    pub fn name(self) -> &'static str {
        match self {
            Stones::Clobber(v) => v.name(),
            Stones::NoGo => "nogo",
        }
    }

    /// The game's board of `size` (`RxC`).
    pub fn board_of(self, size: Size) -> std::result::Result<Board, crate::stones::BoardError> {
        Board::from_fn(size.rows, size.cols, |r, c| match self {
            Stones::NoGo => Cell::Empty,
            Stones::Clobber(_) if (r + c) % 2 == 0 => Cell::X,
            Stones::Clobber(_) => Cell::O,
        })
    }

    /// Reads a position: the notation or `RxC`, checked for this game (NoGo: at most 64
    /// points, every group with a liberty; Clobber: at most 64 cells unless a single row or
    /// column).
    pub fn read(self, text: &str) -> Result<Board> {
        let input = |e: crate::stones::BoardError| Error::input(format!("{}: {e}", self.name()));
        let board = match Board::parse_or_size(text).map_err(input)? {
            Ok(b) => b,
            Err(size) => self.board_of(size).map_err(input)?,
        };
        match self {
            Stones::NoGo => {
                nogo::check(&board).map_err(input)?;
            }
            Stones::Clobber(_) => {
                let n = board.rows() * board.cols();
                if board.rows() > 1 && board.cols() > 1 && n > crate::stones::MAX_PLANE_CELLS {
                    return Err(input(crate::stones::BoardError::TooLarge {
                        cells: n,
                        what: format!(
                            "a board of more than one row and column takes at most {}",
                            crate::stones::MAX_PLANE_CELLS
                        ),
                    }));
                }
            }
        }
        Ok(board)
    }

    /// The position of `board`: `RxC` when it is the game's board of that size.
    pub fn position(self, board: &Board) -> Position {
        let own = self.board_of(Size {
            rows: board.rows(),
            cols: board.cols(),
        });
        let text = if own.as_ref() == Ok(board) {
            format!("{}x{}", board.rows(), board.cols())
        } else {
            board.to_string()
        };
        Position::text("stones", text).with("rows", board.row_strings())
    }

    /// Every legal move of `board`, in reading order.
    pub fn moves(self, board: &Board) -> Vec<StoneMove> {
        match self {
            Stones::Clobber(v) => clobber::captures(v, board)
                .into_iter()
                .map(StoneMove::Capture)
                .collect(),
            Stones::NoGo => nogo::placements(board)
                .into_iter()
                .map(StoneMove::Place)
                .collect(),
        }
    }
}

/// A move of a game of stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoneMove {
    /// Clobber: a stone captures a neighbour.
    Capture(Capture),
    /// NoGo: a stone placed.
    Place(Placement),
}

impl StoneMove {
    /// The board after the move.
    pub fn play(self, board: &Board) -> Board {
        match self {
            StoneMove::Capture(m) => clobber::play(board, m),
            StoneMove::Place(m) => nogo::play(board, m),
        }
    }

    /// The move in words: `(text, short)`.
    pub fn words(self, board: &Board) -> (String, String) {
        match self {
            StoneMove::Capture(m) => {
                let (from, to) = (
                    board.get(m.from.0, m.from.1).char(),
                    board.get(m.to.0, m.to.1).char(),
                );
                (
                    format!(
                        "move the {from} on ({}, {}) onto the {to} on ({}, {}), capturing it",
                        m.from.0, m.from.1, m.to.0, m.to.1
                    ),
                    format!(
                        "{from} ({},{}) → ({},{})",
                        m.from.0, m.from.1, m.to.0, m.to.1
                    ),
                )
            }
            StoneMove::Place(m) => (
                format!("place an {} on ({}, {})", m.stone.char(), m.at.0, m.at.1),
                format!("{} on ({}, {})", m.stone.char(), m.at.0, m.at.1),
            ),
        }
    }

    /// The catalogue's move: words, the position left with its outcome and value, `at`.
    fn to_move(self, game: Stones, board: &Board, v: u64) -> CatMove {
        let (text, short) = self.words(board);
        let m = CatMove::new(
            text,
            &short,
            game.position(&self.play(board)),
            Outcome::from_grundy(v),
            Some(v),
        );
        match self {
            StoneMove::Capture(c) => m
                .at("from", [c.from.0, c.from.1])
                .at("to", [c.to.0, c.to.1]),
            StoneMove::Place(p) => m
                .at("cell", [p.at.0, p.at.1])
                .at("stone", p.stone.char().to_string()),
        }
    }
}

/// A search for one board, on its game's engine.
enum Solver {
    Clobber(Box<clobber::Solver>),
    NoGo(nogo::Solver),
}

impl Solver {
    fn value(&mut self, board: &Board) -> std::result::Result<u32, SearchError> {
        match self {
            Solver::Clobber(s) => s.value(board),
            Solver::NoGo(s) => s.value(board),
        }
    }

    /// The value the move leaves, or with `p_only` 0 exactly when it leaves a P-position.
    fn after(
        &mut self,
        board: &Board,
        m: StoneMove,
        p_only: bool,
    ) -> std::result::Result<u32, SearchError> {
        match (self, m) {
            (Solver::Clobber(s), StoneMove::Capture(c)) => s.value_after(board, c, p_only),
            (Solver::NoGo(s), StoneMove::Place(p)) => {
                let to = nogo::play(board, p);
                if p_only {
                    Ok(u32::from(!s.is_p(&to)?))
                } else {
                    s.value(&to)
                }
            }
            _ => unreachable!("a move of the solver's own game"),
        }
    }

    fn nodes(&self) -> u64 {
        match self {
            Solver::Clobber(s) => s.nodes(),
            Solver::NoGo(s) => s.nodes(),
        }
    }

    fn entries(&self) -> u64 {
        match self {
            Solver::Clobber(s) => s.entries() as u64,
            Solver::NoGo(s) => s.progress().entries as u64,
        }
    }

    fn save(&self, p: &Path) -> std::result::Result<(), SearchError> {
        match self {
            Solver::Clobber(s) => s.save(p),
            Solver::NoGo(s) => s.save(p),
        }
    }

    fn load(&mut self, p: &Path) -> std::result::Result<u64, SearchError> {
        match self {
            Solver::Clobber(s) => s.load(p),
            Solver::NoGo(s) => s.load(p),
        }
    }

    fn set_progress(&mut self, f: impl FnMut(&crate::engine::Progress) + Send + 'static) {
        match self {
            Solver::Clobber(s) => s.set_progress(f),
            Solver::NoGo(s) => s.set_progress(f),
        }
    }
}

/// What a question found.
#[derive(Default)]
struct Found {
    grundy: u32,
    count: usize,
    winning: Vec<StoneMove>,
    all: Vec<(StoneMove, u32)>,
    nodes: u64,
    resumed: u64,
    entries: u64,
}

/// The error of a solver that could not be made: a memory limit, or bad input.
fn solver_error(e: SolverError, ask: &Ask, what: &str) -> Error {
    match e {
        SolverError::Board(b) => Error::input(format!("{what}: {b}")),
        SolverError::Search(s) => search_error(s, ask, what, None),
        SolverError::Memory { .. } => memory_limit(ask, what),
    }
}

fn memory_limit(ask: &Ask, what: &str) -> Error {
    Limit {
        what: what.to_string(),
        resource: Resource::Memory,
        max_positions: ask.budget.max_positions,
        max_bytes: ask.budget.max_bytes,
        entry_bytes: SLOT_BYTES as u64,
    }
    .into()
}

/// A search's error in the catalogue's words ([`crate::ask::search_error`], with the option
/// lists' memory limit a memory [`Limit`]).
fn search_error(e: SearchError, ask: &Ask, what: &str, saved: Option<&Path>) -> Error {
    match e {
        SearchError::Buffers { .. } => memory_limit(ask, what),
        e => crate::ask::search_error(e, ask, what, saved),
    }
}

/// Answers `ask` about `board` of `game`.
fn answer(game: Stones, board: &Board, ask: &Ask, what: &str) -> Result<Found> {
    let opts = crate::ask::options(ask, &PARAMS, what)?;
    let stop = opts.stop.clone();
    let mut solver = match game {
        Stones::Clobber(v) => {
            clobber::Solver::new(v, board, opts).map(|s| Solver::Clobber(Box::new(s)))
        }
        Stones::NoGo => nogo::Solver::new(board, opts).map(Solver::NoGo),
    }
    .map_err(|e| solver_error(e, ask, what))?;
    if let Some(watch) = ask.progress.clone() {
        let total = ask.budget.max_positions;
        let total = if total == u64::MAX { 0 } else { total };
        solver.set_progress(move |p| {
            let go = watch(Progress {
                done: p.nodes,
                total,
                unit: "search nodes",
            });
            if !go {
                if let Some(s) = &stop {
                    s.store(true, Ordering::Relaxed);
                }
            }
        });
    }
    let table = ask.settings.text(crate::ask::TABLE.name).map(Path::new);
    let resumed = match table {
        Some(p) if p.exists() => solver
            .load(p)
            .map_err(|e| Error::input(format!("{}: {}", p.display(), table_words(e, game))))?,
        _ => 0,
    };
    let result = search(&mut solver, game, board, ask.detail);
    if let Some(p) = table {
        if crate::ask::keeps_table(&result) {
            solver.save(p).map_err(|e| {
                Error::failure(format!(
                    "writing the table {}: {}",
                    p.display(),
                    table_words(e, game)
                ))
            })?;
        }
    }
    let mut found = result.map_err(|e| search_error(e, ask, what, table))?;
    found.nodes = solver.nodes();
    found.resumed = resumed;
    found.entries = solver.entries();
    Ok(found)
}

/// The search itself, at `detail`.
fn search(
    solver: &mut Solver,
    game: Stones,
    board: &Board,
    detail: Detail,
) -> std::result::Result<Found, SearchError> {
    let grundy = solver.value(board)?;
    let mut found = Found {
        grundy,
        ..Found::default()
    };
    if detail == Detail::Value {
        return Ok(found);
    }
    let moves = game.moves(board);
    found.count = moves.len();
    for m in moves {
        if detail == Detail::All {
            let v = solver.after(board, m, false)?;
            if v == 0 {
                found.winning.push(m);
            }
            found.all.push((m, v));
        } else if grundy != 0 && solver.after(board, m, true)? == 0 {
            found.winning.push(m);
        }
    }
    Ok(found)
}

/// A table file's error in words ([`crate::ask::table_words`], of this game's boards).
fn table_words(e: SearchError, game: Stones) -> String {
    crate::ask::table_words(e, &format!("this {} board", game.name()))
}

/// The rules of one game of stones.
pub struct StoneRules {
    game: Stones,
    misere: Solved<Whole>,
}

impl StoneRules {
    /// The rules of `game`.
    pub fn new(game: Stones) -> StoneRules {
        StoneRules {
            game,
            misere: Solved::new(game.name(), Whole(game)),
        }
    }
}

/// `game board` for limits and errors, the board cut to 40 columns.
fn what(game: Stones, board: &Board) -> String {
    let text = game.position(board).text;
    format!(
        "{} {}",
        game.name(),
        grundy_core::catalogue::shorten(&text, 40)
    )
}

impl Rules for StoneRules {
    fn name(&self) -> String {
        self.game.name().into()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(self.game.position(&self.game.read(text)?))
    }

    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<CatMove>> {
        if ask.play.is_misere() {
            return self.misere.moves(pos, ask);
        }
        let all = ask.clone().detail(Detail::All);
        Ok(self.analyze(pos, &all)?.all_moves)
    }

    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report> {
        if ask.play.is_misere() {
            return self.misere.analyze(pos, ask);
        }
        let game = self.game;
        let board = game.read(&pos.text)?;
        let what = what(game, &board);
        let found = answer(game, &board, ask, &what)?;
        let value = u64::from(found.grundy);
        let outcome = Outcome::from_grundy(value);
        let mut r = Report::new(
            game.name(),
            game.position(&board),
            ask.play,
            outcome,
            Some(value.into()),
        )
        .at(ask.detail);
        r.winning_moves = found
            .winning
            .iter()
            .map(|m| m.to_move(game, &board, 0))
            .collect();
        r.all_moves = found
            .all
            .iter()
            .map(|&(m, v)| m.to_move(game, &board, v.into()))
            .collect();
        crate::ask::finish_report(
            &mut r,
            ask.detail,
            value,
            found.count,
            found.winning.len(),
            (found.nodes, found.resumed, found.entries),
        );
        Ok(r)
    }
}

/// A game of stones over whole boards, for misère play (and the tests' brute force): every
/// move, no component.
#[derive(Clone, Copy)]
pub struct Whole(pub Stones);

impl PlainGame for Whole {
    type Position = Board;

    fn options(&self, b: &Board, out: &mut Vec<Board>) {
        for m in self.0.moves(b) {
            out.push(m.play(b));
        }
    }
}

impl Notation for Whole {
    const KIND: &'static str = "stones";

    fn parse(&self, text: &str) -> Result<Board> {
        self.0.read(text)
    }

    fn print(&self, b: &Board) -> String {
        self.0.position(b).text
    }

    fn data(&self, b: &Board) -> serde_json::Map<String, serde_json::Value> {
        self.0.position(b).data
    }

    fn move_text(&self, from: &Board, to: &Board) -> (String, String) {
        match self.0.moves(from).into_iter().find(|m| m.play(from) == *to) {
            Some(m) => m.words(from),
            None => (format!("move to {to}"), format!("to {to}")),
        }
    }
}
