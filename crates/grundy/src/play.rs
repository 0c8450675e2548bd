//! Playing a game against the engine: the one game-session model behind `grundy play` (the
//! terminal) and `grundy serve` (the web playground).
//!
//! A [`Game`] is a game's rules with a starting position, read from text the way a user types
//! it (`Game::new("kayles", "5 7 9")`). At any position, [`Game::turn`] answers everything a
//! player may ask: every legal move (each with `to`, `text` and the position it leaves as
//! text), the outcome and value, the winning moves, a *hint* (a winning move, or "every move
//! loses"), *why* (the values of the options; the nim-sum in binary for Nim) and the engine's
//! reply (a winning move when there is one, else the move that keeps the most play). A
//! [`Session`] adds the players: who moves, your move checked against the legal ones, the
//! engine's move, undo, and who won. Every answer comes from the engines of this library
//! (`nim`, `heap`, `games::*`); front ends only render.
//!
//! The playable games, by name:
//!
//! | name | position text | example |
//! |---|---|---|
//! | `nim`, `misere-nim` | heap sizes | `3 4 5` |
//! | any heap rule (`kayles`, `0.137`, `sub:1,3,4`, …) | heap sizes | `5 7 9` |
//! | `wythoff` | two heaps | `3 5` |
//! | `fib` (`fib:K` for the K-multiplier game) | a pile (the opening) or `pile limit` | `20` |
//! | `chomp` | `RxC` or the row lengths, top row first | `4x5`, `5 5 3` |
//! | `maze` | the maze: `.` floor, `#` wall, `@` the figure | `...\n.#.\n..@` |
//!
//! Positions are kept small enough to list every move ([`MAX_MOVES`]) and to value each
//! option at once; a larger one is refused with [`PlayError::TooLarge`].
//!
//! ```
//! use grundy::play::{Game, Player, Session};
//!
//! let mut game = Game::new("nim", "3 4 5")?;
//! let start = game.start().clone();
//! let turn = game.turn(&start)?;
//! assert_eq!(turn.outcome, grundy::Outcome::N);
//! assert_eq!(turn.hint, "heap 0: take 2 from the heap of 3, leaving 1");
//! assert_eq!(turn.why.binary.as_ref().unwrap().nim_sum, "010");
//!
//! let mut s = Session::new(game, Player::You);
//! s.play("1 4 5")?;                      // your move: the position it leaves
//! let reply = s.engine_move()?;          // the engine answers from an N-position
//! assert_eq!(s.turn()?.outcome, grundy::Outcome::N);
//! s.undo();                              // back to your move
//! assert_eq!(s.position_text(), "3 4 5");
//! # let _ = reply;
//! # Ok::<(), grundy::play::PlayError>(())
//! ```

use std::fmt::Write as _;

use serde::Serialize;

use crate::games::{chomp, fib, maze, wythoff, UBig};
use crate::heap::{self, Compute, HeapMove, Rule};
use crate::nim::{self, Play};
use crate::Outcome;

/// The most legal moves a playable position may have (every one is listed and valued).
pub const MAX_MOVES: usize = 20_000;
/// The largest heap of Nim and heap-rule games in play.
pub const MAX_HEAP: u64 = 5_000;
/// The most heaps in a position.
pub const MAX_HEAPS: usize = 32;
/// The largest Wythoff heap in play (the Grundy table of the board is built at once).
pub const MAX_WYTHOFF: u64 = 200;
/// The largest Fibonacci Nim pile in play.
pub const MAX_PILE: u64 = 10_000;
/// The most positions a Chomp board in play may reach (every one may be valued).
pub const MAX_CHOMP_POSITIONS: u64 = 200_000;
/// The most cells of a maze in play.
pub const MAX_MAZE_CELLS: usize = 4_096;

/// Why a game, position or move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game or position text is not understood.
    #[error("{0}")]
    Invalid(String),
    /// The position is larger than play allows (the limits of this module).
    #[error("{0}")]
    TooLarge(String),
    /// The move is not one of the legal moves.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// A move was asked of the player who is not to move.
    #[error("it is not {0}'s turn")]
    NotYourTurn(Player),
    /// The game is over: no move is left.
    #[error("the game is over")]
    GameOver,
}

impl PlayError {
    /// True when the position is too large for play (a limit), false for bad input.
    pub fn is_limit(&self) -> bool {
        matches!(self, PlayError::TooLarge(_))
    }
}

impl From<crate::Error> for PlayError {
    fn from(e: crate::Error) -> Self {
        if e.is_input() {
            PlayError::Invalid(e.to_string())
        } else {
            PlayError::TooLarge(e.to_string())
        }
    }
}

impl From<crate::games::GameError> for PlayError {
    fn from(e: crate::games::GameError) -> Self {
        match e {
            crate::games::GameError::TooLarge(_)
            | crate::games::GameError::PositionLimit { .. } => PlayError::TooLarge(e.to_string()),
            _ => PlayError::Invalid(e.to_string()),
        }
    }
}

/// Results of this module.
pub type Result<T> = std::result::Result<T, PlayError>;

/// A position of a playable game. Serializes as the game's natural JSON: heap sizes
/// `[3, 4, 5]`, a Wythoff pair `[3, 5]`, `{"pile", "limit"}`, Chomp's row lengths, a maze
/// cell `[row, column]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum Position {
    /// Heap sizes (Nim, misère Nim, heap rules), in order.
    Heaps(Vec<u64>),
    /// Wythoff's two heaps.
    Pair([u64; 2]),
    /// Fibonacci Nim: the pile and the most the player to move may take.
    Pile {
        /// Counters in the pile.
        pile: u64,
        /// The most the player to move may take.
        limit: u64,
    },
    /// Chomp: the lengths of the rows left, top (poison) row first.
    Rows(Vec<usize>),
    /// A maze: the figure's cell, (row, column) from the top-left corner.
    Cell([usize; 2]),
    /// A Lua script game's position (a Lua literal).
    Script(crate::script::Position),
}

/// One legal move and what it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayMove {
    /// The position after the move.
    pub to: Position,
    /// The move in words.
    pub text: String,
    /// The position after the move, as text (what to type, or to send back).
    pub position: String,
    /// The outcome of the position the move leaves: `P` means the move wins.
    pub outcome: Outcome,
    /// The Sprague–Grundy value of the position the move leaves, where it has one (not in
    /// misère Nim; Wythoff and Fibonacci Nim within their tables).
    pub grundy: Option<u64>,
}

impl PlayMove {
    /// True when the move wins (it leaves a P-position).
    pub fn wins(&self) -> bool {
        self.outcome == Outcome::P
    }
}

/// Nim's explanation in binary: each heap, the nim-sum, aligned in columns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NimBinary {
    /// Each heap in binary, all of one width.
    pub heaps: Vec<String>,
    /// Their XOR in binary, same width.
    pub nim_sum: String,
}

/// Why the position is won or lost: the values of its options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Why {
    /// The explanation in words, several lines.
    pub text: String,
    /// For Nim (normal and misère): the heaps and nim-sum in binary.
    pub binary: Option<NimBinary>,
}

/// Everything about one position: what `GET /api/play` returns and what the terminal shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// The game's name (`nim`, `kayles`, `wythoff`, …).
    pub game: String,
    /// The position.
    pub position: Position,
    /// The position as text (parseable by [`Game::position`]).
    pub position_text: String,
    /// `N` if the player to move wins.
    pub outcome: Outcome,
    /// The Sprague–Grundy value, where the game has one (not misère Nim).
    pub grundy: Option<u64>,
    /// Every legal move, in a fixed order.
    pub moves: Vec<PlayMove>,
    /// The moves that win (to a P-position); empty in a P-position.
    pub winning_moves: Vec<PlayMove>,
    /// The hint: the first winning move in words, or "every move loses" (or "no move left").
    pub hint: String,
    /// Why: the values of the options.
    pub why: Why,
    /// The engine's move here: a winning move, else the legal move that takes least (None
    /// when the game is over).
    pub reply: Option<PlayMove>,
    /// True when no move is left: the player to move has lost (normal play) or won (misère).
    pub game_over: bool,
    /// Misère play: the player who cannot move wins.
    pub misere: bool,
}

/// A game's rules and what is precomputed for them.
enum Rules {
    Nim {
        play: Play,
    },
    Heap {
        rule: Rule,
        /// G(0..) in natural sizes, at least up to the largest heap of the start.
        values: Vec<u32>,
        /// G_base(0..=shift) of a named game's base rule.
        base_small: Vec<u32>,
    },
    Wythoff {
        table: wythoff::GrundyTable,
    },
    Fib {
        k: u64,
        moves: fib::MoveTable,
        grundy: Option<fib::GrundyTable>,
    },
    Chomp {
        solver: crate::Solver<chomp::Chomp>,
    },
    Maze {
        maze: maze::Maze,
        values: maze::Values,
    },
    /// A Lua script game: its session (a Lua state and a memo), borrowed per query.
    Script {
        session: Box<std::cell::RefCell<crate::script::Session>>,
    },
}

/// A playable game: its rules, its name and its starting position.
pub struct Game {
    name: String,
    rules: Rules,
    start: Position,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("name", &self.name)
            .field("start", &self.start)
            .finish()
    }
}

/// The names [`Game::new`] knows besides heap rules, for help texts.
pub const GAMES: &[&str] = &["nim", "misere-nim", "wythoff", "fib", "chomp", "maze"];

impl Game {
    /// The game `name` from the position `position` (see the module's table). Any name that
    /// is not one of [`GAMES`] is read as a heap rule (`kayles`, `0.137`, `sub:1,3,4`).
    pub fn new(name: &str, position: &str) -> Result<Game> {
        let name = name.trim();
        let lower = name.to_ascii_lowercase();
        let (rules, start) = match lower.as_str() {
            "nim" | "misere-nim" | "misère-nim" => {
                let heaps = parse_heaps(position)?;
                let play = Play::from_misere(lower != "nim");
                (Rules::Nim { play }, Position::Heaps(heaps))
            }
            "wythoff" => {
                let [x, y] = parse_pair(position)?;
                let side = x.max(y) as usize + 1;
                let table = wythoff::GrundyTable::new(side)?;
                (Rules::Wythoff { table }, Position::Pair([x, y]))
            }
            "chomp" => {
                let rows = parse_chomp(position)?;
                let solver = crate::Solver::new(chomp::Chomp);
                (Rules::Chomp { solver }, Position::Rows(rows))
            }
            "maze" => {
                let (maze, cell) = parse_maze(position)?;
                let values = maze.grundy_values();
                (Rules::Maze { maze, values }, Position::Cell(cell))
            }
            _ if lower == "fib" || lower.starts_with("fib:") => {
                let k = match lower.strip_prefix("fib:") {
                    Some(k) => {
                        crate::games::parse_bounded(k, "multiplier", 1, fib::MAX_MULTIPLIER)?
                    }
                    None => 2,
                };
                let pos = parse_pile(position, None)?;
                let Position::Pile { pile, .. } = pos else {
                    unreachable!("parse_pile returns a pile")
                };
                let game = fib::MultiplierNim::new(k)?;
                let moves = fib::MoveTable::new(game, pile)?;
                let grundy = if pile <= fib::GRUNDY_UP_TO {
                    Some(fib::GrundyTable::new(game, pile)?)
                } else {
                    None
                };
                (Rules::Fib { k, moves, grundy }, pos)
            }
            _ => {
                let rule = heap::parse(name).map_err(|e| {
                    PlayError::Invalid(format!(
                        "unknown game {}: not one of {} nor a heap rule ({e})",
                        crate::text::quote(name),
                        GAMES.join(", ")
                    ))
                })?;
                let heaps = parse_heaps(position)?;
                let max = heaps.iter().copied().max().unwrap_or(0);
                let values = heap::sequence(&rule, max, &mut Compute::default())?.values;
                let (base, shift) = rule.base_and_shift();
                let base_small = if shift > 0 {
                    heap::engine::sequence(base, shift)
                        .map_err(|e| PlayError::Invalid(e.to_string()))?
                } else {
                    Vec::new()
                };
                (
                    Rules::Heap {
                        rule,
                        values,
                        base_small,
                    },
                    Position::Heaps(heaps),
                )
            }
        };
        let mut game = Game {
            name: lower,
            rules,
            start,
        };
        let start = game.start.clone();
        game.check(&start)?;
        // Listing the start's moves checks the size of the first move list.
        game.moves(&start)?;
        Ok(game)
    }

    /// A game written in Lua (see [`crate::script`]): `name` names the script in messages,
    /// `position` is a Lua literal (`7`, `{3, 3, 3}`). The script runs under `limits`.
    pub fn script(
        name: &str,
        source: &str,
        position: &str,
        limits: crate::script::Limits,
    ) -> Result<Game> {
        let script = crate::script::Script::load(name, source, limits).map_err(script_error)?;
        let start = crate::script::parse_position(position)
            .map_err(|e| PlayError::Invalid(e.to_string()))?;
        let session = script.session().map_err(script_error)?;
        let mut game = Game {
            name: script.title().to_string(),
            rules: Rules::Script {
                session: Box::new(std::cell::RefCell::new(session)),
            },
            start: Position::Script(start),
        };
        let start = game.start.clone();
        game.moves(&start)?;
        Ok(game)
    }

    /// The game's name, in lower case.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// True under misère play (misère Nim).
    pub fn misere(&self) -> bool {
        matches!(self.rules, Rules::Nim { play: Play::Misere })
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Reads a position of this game from text (the same form as [`Turn::position_text`]). A
    /// position must be reachable by the rules' limits: never larger than the start.
    pub fn position(&self, text: &str) -> Result<Position> {
        let pos = match &self.rules {
            Rules::Nim { .. } | Rules::Heap { .. } => Position::Heaps(parse_heaps(text)?),
            Rules::Wythoff { .. } => Position::Pair(parse_pair(text)?),
            Rules::Fib { .. } => parse_pile(text, None)?,
            Rules::Chomp { .. } => Position::Rows(parse_chomp(text)?),
            Rules::Script { .. } => Position::Script(
                crate::script::parse_position(text)
                    .map_err(|e| PlayError::Invalid(e.to_string()))?,
            ),
            Rules::Maze { maze, .. } => {
                let (m, cell) = parse_maze(text)?;
                if (m.rows(), m.cols()) != (maze.rows(), maze.cols())
                    || (0..m.rows())
                        .any(|r| (0..m.cols()).any(|c| m.is_wall((r, c)) != maze.is_wall((r, c))))
                {
                    return Err(PlayError::Invalid(
                        "the maze's walls differ from the game's".into(),
                    ));
                }
                Position::Cell(cell)
            }
        };
        self.check(&pos)?;
        Ok(pos)
    }

    /// Checks that `pos` is a position of this game within what was precomputed.
    fn check(&self, pos: &Position) -> Result<()> {
        match (&self.rules, pos) {
            (Rules::Nim { .. }, Position::Heaps(_)) => Ok(()),
            (Rules::Heap { values, .. }, Position::Heaps(h)) => {
                let max = h.iter().copied().max().unwrap_or(0);
                if max as usize >= values.len() {
                    return Err(PlayError::TooLarge(format!(
                        "heap {max} is larger than the game's start allows ({})",
                        values.len() - 1
                    )));
                }
                Ok(())
            }
            (Rules::Wythoff { table }, Position::Pair([x, y])) => {
                if x.max(y) >= &(table.side() as u64) {
                    return Err(PlayError::TooLarge(format!(
                        "heap {} is larger than the game's start allows",
                        x.max(y)
                    )));
                }
                Ok(())
            }
            (Rules::Fib { moves, .. }, Position::Pile { pile, .. }) => {
                if *pile > moves.max_pile() {
                    return Err(PlayError::TooLarge(format!(
                        "pile {pile} is larger than the game's start allows"
                    )));
                }
                Ok(())
            }
            (Rules::Chomp { .. }, Position::Rows(_)) => Ok(()),
            (Rules::Script { .. }, Position::Script(_)) => Ok(()),
            (Rules::Maze { maze, .. }, Position::Cell([r, c])) => {
                if *r >= maze.rows() || *c >= maze.cols() || maze.is_wall((*r, *c)) {
                    return Err(PlayError::Invalid(format!(
                        "({r}, {c}) is not a floor cell"
                    )));
                }
                Ok(())
            }
            _ => Err(PlayError::Invalid(format!(
                "not a position of {}",
                self.name
            ))),
        }
    }

    /// The position as text, in the form [`Game::position`] reads.
    pub fn position_text(&self, pos: &Position) -> String {
        match pos {
            Position::Rows(r) => join(r.iter()),
            Position::Heaps(h) => join(h.iter()),
            Position::Pair([x, y]) => format!("{x} {y}"),
            Position::Pile { pile, limit } => format!("{pile} {limit}"),
            Position::Script(p) => p.to_string(),
            Position::Cell([r, c]) => match &self.rules {
                Rules::Maze { maze, .. } => {
                    let mut s = String::new();
                    for row in 0..maze.rows() {
                        for col in 0..maze.cols() {
                            s.push(if (row, col) == (*r, *c) {
                                '@'
                            } else if maze.is_wall((row, col)) {
                                '#'
                            } else {
                                '.'
                            });
                        }
                        s.push('\n');
                    }
                    s
                }
                _ => format!("{r} {c}"),
            },
        }
    }

    /// Value and outcome of a position: `(outcome, grundy)`.
    fn value(&mut self, pos: &Position) -> Result<(Outcome, Option<u64>)> {
        Ok(match (&mut self.rules, pos) {
            (Rules::Nim { play }, Position::Heaps(h)) => {
                let a = nim::analyze(h, *play);
                let g = (*play == Play::Normal).then_some(a.nim_sum);
                (a.outcome, g)
            }
            (Rules::Heap { values, .. }, Position::Heaps(h)) => {
                let g = h.iter().fold(0u64, |a, &x| a ^ values[x as usize] as u64);
                (Outcome::from_grundy(g), Some(g))
            }
            (Rules::Wythoff { table }, Position::Pair([x, y])) => {
                let g = table.value(*x as usize, *y as usize).map(u64::from);
                let o = wythoff::outcome(&UBig::from(*x), &UBig::from(*y));
                (o, g)
            }
            (Rules::Fib { moves, grundy, .. }, Position::Pile { pile, limit }) => {
                let o = if *pile == 0 || moves.is_losing(*pile, *limit) {
                    Outcome::P
                } else {
                    Outcome::N
                };
                let g = grundy
                    .as_ref()
                    .and_then(|t| t.value(*pile, *limit))
                    .map(u64::from);
                (o, g)
            }
            (Rules::Chomp { solver }, Position::Rows(r)) => {
                let s = staircase(r).expect("checked rows");
                let g = solver.grundy(&s);
                (Outcome::from_grundy(g), Some(g))
            }
            (Rules::Maze { values, .. }, Position::Cell([r, c])) => {
                let g = values.get((*r, *c)).unwrap_or(0) as u64;
                (Outcome::from_grundy(g), Some(g))
            }
            (Rules::Script { session }, Position::Script(p)) => {
                let e = session.borrow_mut().explain(p).map_err(script_error)?;
                (e.outcome, Some(e.grundy))
            }
            _ => unreachable!("positions are checked against their game"),
        })
    }

    /// Every legal move from `pos` (the position after it, and the move in words), in a
    /// fixed order; refused beyond [`MAX_MOVES`].
    fn options(&self, pos: &Position) -> Result<Vec<(Position, String)>> {
        let mut out = Vec::new();
        let too_many = || {
            PlayError::TooLarge(format!(
                "the position has more than {MAX_MOVES} moves: too large to play"
            ))
        };
        match (&self.rules, pos) {
            (Rules::Nim { .. }, Position::Heaps(h)) => {
                let total: u64 = h.iter().sum();
                if total > MAX_MOVES as u64 {
                    return Err(too_many());
                }
                for (i, &x) in h.iter().enumerate() {
                    for left in (0..x).rev() {
                        let m = nim::NimMove {
                            heap: i,
                            from: x,
                            left,
                        };
                        out.push((Position::Heaps(m.to(h)), m.text()));
                    }
                }
            }
            (
                Rules::Heap {
                    rule, base_small, ..
                },
                Position::Heaps(h),
            ) => {
                let mut seen = std::collections::HashSet::new();
                for (i, &x) in h.iter().enumerate() {
                    let mut err = false;
                    heap::sum::for_each_move(rule, x, base_small, |removed, leaves| {
                        if err || !seen.insert((i, leaves.to_vec())) {
                            return;
                        }
                        if out.len() >= MAX_MOVES {
                            err = true;
                            return;
                        }
                        let mut to = Vec::with_capacity(h.len() + leaves.len());
                        to.extend_from_slice(&h[..i]);
                        to.extend_from_slice(leaves);
                        to.extend_from_slice(&h[i + 1..]);
                        let m = HeapMove {
                            heap_index: i,
                            heap: x,
                            removed,
                            leaves: leaves.to_vec(),
                            to: to.clone(),
                        };
                        out.push((Position::Heaps(to), format!("heap {i}: {m}")));
                    });
                    if err {
                        return Err(too_many());
                    }
                }
            }
            (Rules::Wythoff { .. }, Position::Pair([x, y])) => {
                let mut push = |a: u64, b: u64, what: String| {
                    out.push((
                        Position::Pair([x - a, y - b]),
                        format!("{what}: ({x}, {y}) -> ({}, {})", x - a, y - b),
                    ))
                };
                for t in 1..=*x {
                    push(t, 0, format!("take {t} from the first heap"));
                }
                for t in 1..=*y {
                    push(0, t, format!("take {t} from the second heap"));
                }
                for t in 1..=*x.min(y) {
                    push(t, t, format!("take {t} from both heaps"));
                }
            }
            (Rules::Fib { k, .. }, Position::Pile { pile, limit }) => {
                for t in 1..=*limit.min(pile) {
                    let to = pile - t;
                    let text = if to == 0 {
                        format!("take all {t} counters")
                    } else {
                        format!("take {t} from the pile of {pile}, leaving {to}")
                    };
                    let next = t.saturating_mul(*k).min(to);
                    out.push((
                        Position::Pile {
                            pile: to,
                            limit: next,
                        },
                        text,
                    ));
                }
            }
            (Rules::Chomp { .. }, Position::Rows(rows)) => {
                let s = staircase(rows).expect("checked rows");
                for (r, c) in s.bites() {
                    let next = s.bite(r, c).expect("listed bites are legal");
                    out.push((
                        Position::Rows(next.rows()),
                        format!("bite at row {r}, column {c}"),
                    ));
                }
            }
            (Rules::Script { session }, Position::Script(p)) => {
                let e = session.borrow_mut().explain(p).map_err(script_error)?;
                if e.options.len() > MAX_MOVES {
                    return Err(too_many());
                }
                for o in e.options {
                    out.push((Position::Script(o.to), format!("move to {}", o.text)));
                }
            }
            (Rules::Maze { maze, .. }, Position::Cell([r, c])) => {
                for (tr, tc) in maze.moves_from((*r, *c)) {
                    let text = if tr == *r {
                        format!("move left {} to ({tr}, {tc})", c - tc)
                    } else {
                        format!("move up {} to ({tr}, {tc})", r - tr)
                    };
                    out.push((Position::Cell([tr, tc]), text));
                }
            }
            _ => unreachable!("positions are checked against their game"),
        }
        Ok(out)
    }

    /// Every legal move from `pos`, each with the outcome and value of what it leaves.
    pub fn moves(&mut self, pos: &Position) -> Result<Vec<PlayMove>> {
        self.check(pos)?;
        let options = self.options(pos)?;
        let mut out = Vec::with_capacity(options.len());
        for (to, text) in options {
            let (outcome, grundy) = self.value(&to)?;
            let position = self.position_text(&to);
            out.push(PlayMove {
                to,
                text,
                position,
                outcome,
                grundy,
            });
        }
        // Misère Nim: the outcome of a position with no move is P for its mover's opponent…
        // `nim::analyze` already reports misère outcomes, so nothing to adjust here.
        Ok(out)
    }

    /// Everything about `pos`: moves, outcome, hint, why and the engine's reply.
    pub fn turn(&mut self, pos: &Position) -> Result<Turn> {
        let moves = self.moves(pos)?;
        let (outcome, grundy) = self.value(pos)?;
        let winning_moves: Vec<PlayMove> = moves.iter().filter(|m| m.wins()).cloned().collect();
        let game_over = moves.is_empty();
        let hint = match (winning_moves.first(), game_over) {
            (_, true) => "no move left: the game is over".to_string(),
            (Some(m), _) => m.text.clone(),
            (None, _) => "every move loses".to_string(),
        };
        // The engine: the first winning move, else (a P-position) the move that takes least,
        // which is the first listed in every game but a heap rule's.
        let reply = winning_moves
            .first()
            .cloned()
            .or_else(|| moves.first().cloned());
        let why = self.why(pos, outcome, grundy, &moves);
        Ok(Turn {
            game: self.name.clone(),
            position: pos.clone(),
            position_text: self.position_text(pos),
            outcome,
            grundy,
            moves,
            winning_moves,
            hint,
            why,
            reply,
            game_over,
            misere: self.misere(),
        })
    }

    /// The explanation of `pos`'s value from its options.
    fn why(
        &self,
        pos: &Position,
        outcome: Outcome,
        grundy: Option<u64>,
        moves: &[PlayMove],
    ) -> Why {
        let mut text = String::new();
        let mut binary = None;
        match (&self.rules, pos) {
            (Rules::Nim { play }, Position::Heaps(h)) => {
                let sum = nim::nim_sum(h);
                let width = h
                    .iter()
                    .chain([&sum])
                    .map(|&x| 64 - x.leading_zeros() as usize)
                    .max()
                    .unwrap_or(1)
                    .max(1);
                let bin = |x: u64| format!("{x:0width$b}");
                let b = NimBinary {
                    heaps: h.iter().map(|&x| bin(x)).collect(),
                    nim_sum: bin(sum),
                };
                for (i, (x, s)) in h.iter().zip(&b.heaps).enumerate() {
                    let _ = writeln!(text, "heap {i}: {s}  ({x})");
                }
                let _ = writeln!(text, "nim-sum: {}  ({sum})", b.nim_sum);
                if *play == Play::Misere {
                    let _ = writeln!(
                        text,
                        "Misère: play as in Nim (leave nim-sum 0) until your move would leave only \
                         heaps of 1; then leave an odd number of them."
                    );
                }
                match outcome {
                    Outcome::N if *play == Play::Normal => {
                        let _ = writeln!(
                            text,
                            "The nim-sum is not 0: a move that makes every column even wins."
                        );
                    }
                    Outcome::N => {
                        let _ = writeln!(text, "The player to move wins.");
                    }
                    Outcome::P if *play == Play::Normal => {
                        let _ = writeln!(
                            text,
                            "The nim-sum is 0: every move changes one heap, so it leaves a \
                             nonzero nim-sum, and the opponent can restore 0."
                        );
                    }
                    Outcome::P => {
                        let _ = writeln!(text, "Every move leaves a position the opponent wins.");
                    }
                    Outcome::D => {
                        let _ = writeln!(text, "Neither player can force a win.");
                    }
                }
                binary = Some(b);
            }
            _ => {
                if let (Rules::Heap { values, .. }, Position::Heaps(h)) = (&self.rules, pos) {
                    let vals: Vec<String> =
                        h.iter().map(|&x| values[x as usize].to_string()).collect();
                    let _ = writeln!(
                        text,
                        "heaps {} have values {}; the position's value is their XOR",
                        join(h.iter()),
                        vals.join(" ")
                    );
                }
                let mut set: Vec<u64> = moves.iter().filter_map(|m| m.grundy).collect();
                set.sort_unstable();
                set.dedup();
                if let Some(g) = grundy {
                    if !moves.is_empty() && moves.iter().all(|m| m.grundy.is_some()) {
                        let shown: Vec<String> = set.iter().take(40).map(u64::to_string).collect();
                        let more = if set.len() > 40 { ", …" } else { "" };
                        let _ = writeln!(
                            text,
                            "The options have values {{{}{more}}}; the value is their mex: {g}",
                            shown.join(", ")
                        );
                    } else {
                        let _ = writeln!(text, "The position's value is {g}.");
                    }
                }
                let wins = moves.iter().filter(|m| m.wins()).count();
                let _ = match (moves.is_empty(), outcome) {
                    (true, _) => writeln!(text, "No move is left."),
                    (false, Outcome::N) => writeln!(
                        text,
                        "{wins} of the {} moves leave a position of value 0 (a P-position): they win.",
                        moves.len()
                    ),
                    (false, Outcome::P | Outcome::D) => writeln!(
                        text,
                        "None of the {} moves leaves a P-position: every move loses.",
                        moves.len()
                    ),
                };
            }
        }
        let listed = 12.min(moves.len());
        if listed > 0 {
            let _ = writeln!(text, "Moves (outcome after the move, value):");
            for m in &moves[..listed] {
                let _ = writeln!(
                    text,
                    "  {} -> {}{}",
                    m.text,
                    m.outcome,
                    m.grundy.map(|g| format!(", value {g}")).unwrap_or_default()
                );
            }
            if moves.len() > listed {
                let _ = writeln!(text, "  … and {} more", moves.len() - listed);
            }
        }
        Why { text, binary }
    }

    /// The legal move from `pos` that the text `typed` names: the position it leaves (in the
    /// game's position text; heaps in any order; Fibonacci Nim the pile alone; a maze the
    /// figure's new `row column`), or `#N` for the N-th listed move (from 1).
    pub fn find_move(&mut self, pos: &Position, typed: &str) -> Result<PlayMove> {
        let moves = self.moves(pos)?;
        if moves.is_empty() {
            return Err(PlayError::GameOver);
        }
        let t = typed.trim();
        if let Some(n) = t.strip_prefix('#') {
            let i: usize = n.trim().parse().map_err(|_| {
                PlayError::Invalid(format!("not a move number: {}", crate::text::quote(t)))
            })?;
            return match i.checked_sub(1).and_then(|i| moves.get(i)) {
                Some(m) => Ok(m.clone()),
                None => Err(PlayError::IllegalMove(format!(
                    "there are {} moves, not {i}",
                    moves.len()
                ))),
            };
        }
        let sorted = |v: &[u64]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        let matches = |m: &PlayMove| -> bool {
            match (&m.to, &self.rules) {
                (Position::Heaps(h), _) => parse_heaps(t).is_ok_and(|x| sorted(&x) == sorted(h)),
                (Position::Pile { pile, limit }, _) => {
                    let nums = numbers(t);
                    nums.as_deref() == Some(&[*pile][..])
                        || nums.as_deref() == Some(&[*pile, *limit][..])
                }
                (Position::Cell([r, c]), _) => {
                    numbers(t).as_deref() == Some(&[*r as u64, *c as u64][..])
                        || parse_maze(t).is_ok_and(|(_, cell)| cell == [*r, *c])
                }
                (Position::Pair([x, y]), _) => numbers(t).as_deref() == Some(&[*x, *y][..]),
                (Position::Rows(r), _) => parse_chomp(t).is_ok_and(|x| &x == r),
                (Position::Script(p), _) => crate::script::parse_position(t).is_ok_and(|x| &x == p),
            }
        };
        moves.iter().find(|m| matches(m)).cloned().ok_or_else(|| {
            PlayError::IllegalMove(format!(
                "no move leads to {} (type the position after your move)",
                crate::text::quote(t)
            ))
        })
    }
}

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The person at the keyboard.
    You,
    /// The engine.
    Engine,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::You => Player::Engine,
            Player::Engine => Player::You,
        }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Player::You => "your",
            Player::Engine => "the engine",
        })
    }
}

/// A game being played: the position, whose move it is, the history for undo.
///
/// Serializes as `{"game", "position", "position_text", "to_move", "moves_played",
/// "winner"}`.
#[derive(Debug)]
pub struct Session {
    game: Game,
    position: Position,
    to_move: Player,
    history: Vec<(Position, Player, String)>,
}

impl Serialize for Session {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut o = s.serialize_struct("Session", 6)?;
        o.serialize_field("game", &self.game.name)?;
        o.serialize_field("position", &self.position)?;
        o.serialize_field("position_text", &self.position_text())?;
        o.serialize_field("to_move", &self.to_move)?;
        o.serialize_field("moves_played", &self.history.len())?;
        o.serialize_field("winner", &self.winner_if_known())?;
        o.end()
    }
}

impl Session {
    /// A new game from the game's start; `first` moves first.
    pub fn new(game: Game, first: Player) -> Session {
        Session {
            position: game.start.clone(),
            game,
            to_move: first,
            history: Vec::new(),
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The current position as text.
    pub fn position_text(&self) -> String {
        self.game.position_text(&self.position)
    }

    /// Who moves now.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The moves played so far: who played and the move in words.
    pub fn log(&self) -> impl Iterator<Item = (Player, &str)> {
        self.history.iter().map(|(_, p, t)| (*p, t.as_str()))
    }

    /// Everything about the current position.
    pub fn turn(&mut self) -> Result<Turn> {
        let pos = self.position.clone();
        self.game.turn(&pos)
    }

    fn apply(&mut self, m: PlayMove) -> PlayMove {
        let old = std::mem::replace(&mut self.position, m.to.clone());
        self.history.push((old, self.to_move, m.text.clone()));
        self.to_move = self.to_move.other();
        m
    }

    /// Plays your move, named as [`Game::find_move`] reads it; it must be your turn and the
    /// move legal.
    pub fn play(&mut self, typed: &str) -> Result<PlayMove> {
        if self.to_move != Player::You {
            return Err(PlayError::NotYourTurn(Player::You));
        }
        let pos = self.position.clone();
        let m = self.game.find_move(&pos, typed)?;
        Ok(self.apply(m))
    }

    /// The engine's move: a winning move if there is one.
    pub fn engine_move(&mut self) -> Result<PlayMove> {
        if self.to_move != Player::Engine {
            return Err(PlayError::NotYourTurn(Player::Engine));
        }
        let turn = self.turn()?;
        let m = turn.reply.ok_or(PlayError::GameOver)?;
        Ok(self.apply(m))
    }

    /// Takes back moves until it is your turn again, at least one of yours (your move and the
    /// engine's reply). False when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        let mut undone = false;
        while let Some((pos, who, _)) = self.history.pop() {
            self.position = pos;
            self.to_move = who;
            undone = true;
            if who == Player::You {
                break;
            }
        }
        undone
    }

    /// The winner, once no move is left (None while the game goes on).
    pub fn winner(&mut self) -> Result<Option<Player>> {
        let pos = self.position.clone();
        if !self.game.moves(&pos)?.is_empty() {
            return Ok(None);
        }
        Ok(Some(if self.game.misere() {
            self.to_move
        } else {
            self.to_move.other()
        }))
    }

    fn winner_if_known(&self) -> Option<Player> {
        let over = self
            .game
            .options(&self.position)
            .map(|m| m.is_empty())
            .unwrap_or(false);
        over.then(|| {
            if self.game.misere() {
                self.to_move
            } else {
                self.to_move.other()
            }
        })
    }
}

/// A script's failure: its limits are limits, anything else the script's or the input's fault.
fn script_error(e: crate::script::ScriptError) -> PlayError {
    use crate::script::ScriptError as E;
    match e {
        E::StepLimit { .. }
        | E::MemoryLimit { .. }
        | E::PositionLimit { .. }
        | E::TimeLimit { .. } => PlayError::TooLarge(e.to_string()),
        _ => PlayError::Invalid(e.to_string()),
    }
}

fn join<T: ToString>(it: impl Iterator<Item = T>) -> String {
    it.map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}

/// The numbers of a text separated by spaces or commas (None if any token is not one).
fn numbers(text: &str) -> Option<Vec<u64>> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().ok())
        .collect()
}

fn parse_heaps(text: &str) -> Result<Vec<u64>> {
    let mut heaps = Vec::new();
    for (i, t) in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        if i >= MAX_HEAPS {
            return Err(PlayError::TooLarge(format!(
                "more than {MAX_HEAPS} heaps: too many to play"
            )));
        }
        let h = crate::input::parse_count(t)
            .map_err(|e| PlayError::Invalid(format!("heap {i}: {e}")))?;
        if h > MAX_HEAP {
            return Err(PlayError::TooLarge(format!(
                "heap {i}: {h} is larger than play allows ({MAX_HEAP})"
            )));
        }
        heaps.push(h);
    }
    if heaps.is_empty() {
        return Err(PlayError::Invalid("no heaps given (e.g. 3 4 5)".into()));
    }
    Ok(heaps)
}

fn parse_pair(text: &str) -> Result<[u64; 2]> {
    let h = parse_heaps(text)?;
    let [x, y] = h[..] else {
        return Err(PlayError::Invalid(format!(
            "Wythoff's game has two heaps, not {} (e.g. 3 5)",
            h.len()
        )));
    };
    if x.max(y) > MAX_WYTHOFF {
        return Err(PlayError::TooLarge(format!(
            "heap {}: larger than play allows ({MAX_WYTHOFF})",
            x.max(y)
        )));
    }
    Ok([x, y])
}

/// A Fibonacci Nim position: `pile` (the opening: take up to pile − 1) or `pile limit`.
fn parse_pile(text: &str, _k: Option<u64>) -> Result<Position> {
    let h = parse_heaps(text)?;
    let (pile, limit) = match h[..] {
        [p] => (p, p.saturating_sub(1)),
        [p, l] => (p, l.min(p)),
        _ => {
            return Err(PlayError::Invalid(
                "Fibonacci Nim's position is a pile, or a pile and a limit (e.g. 20, or 13 5)"
                    .into(),
            ))
        }
    };
    if pile > MAX_PILE {
        return Err(PlayError::TooLarge(format!(
            "pile {pile} is larger than play allows ({MAX_PILE})"
        )));
    }
    Ok(Position::Pile { pile, limit })
}

fn parse_chomp(text: &str) -> Result<Vec<usize>> {
    let t = text.trim();
    let rows: Vec<usize> = if let Some((r, c)) = t.split_once(['x', 'X']) {
        let r = crate::games::parse_bounded(r.trim(), "rows", 1, chomp::MAX_ROWS as u64)? as usize;
        let c =
            crate::games::parse_bounded(c.trim(), "columns", 1, chomp::MAX_COLS as u64)? as usize;
        vec![c; r]
    } else {
        parse_heaps(t)?.into_iter().map(|x| x as usize).collect()
    };
    if rows.len() > chomp::MAX_ROWS || rows[0] > chomp::MAX_COLS {
        return Err(PlayError::TooLarge(format!(
            "board too large (at most {} rows of {})",
            chomp::MAX_ROWS,
            chomp::MAX_COLS
        )));
    }
    if rows.contains(&0) || rows.windows(2).any(|w| w[1] > w[0]) {
        return Err(PlayError::Invalid(format!(
            "Chomp rows must be positive and never longer than the row above: {}",
            crate::text::quote(t)
        )));
    }
    let bound = chomp::positions_bound(rows.len(), rows[0], MAX_CHOMP_POSITIONS);
    if bound > MAX_CHOMP_POSITIONS {
        return Err(PlayError::TooLarge(format!(
            "board {}x{} has more than {MAX_CHOMP_POSITIONS} positions: too large to play",
            rows.len(),
            rows[0]
        )));
    }
    Ok(rows)
}

/// The staircase with these row lengths (non-increasing, positive, within the board limits).
fn staircase(rows: &[usize]) -> Option<chomp::Staircase> {
    let mut s = chomp::Staircase::rectangle(rows.len(), *rows.first()?).ok()?;
    for (r, &len) in rows.iter().enumerate() {
        if len < s.row(r) {
            s = s.bite(r, len)?;
        }
    }
    Some(s)
}

fn parse_maze(text: &str) -> Result<(maze::Maze, [usize; 2])> {
    let mazes = maze::parse_mazes(text)?;
    let [m] = &mazes[..] else {
        return Err(PlayError::Invalid(format!(
            "play takes one maze, not {}",
            mazes.len()
        )));
    };
    if m.rows() * m.cols() > MAX_MAZE_CELLS {
        return Err(PlayError::TooLarge(format!(
            "maze {}x{} has more than {MAX_MAZE_CELLS} cells: too large to play",
            m.rows(),
            m.cols()
        )));
    }
    let Some((r, c)) = m.figure() else {
        return Err(PlayError::Invalid("the maze has no figure '@'".into()));
    };
    Ok((m.clone(), [r, c]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays out a game with the engine on both sides and checks every move against a
    /// straightforward recursion over the options.
    fn outcome_by_search(game: &mut Game, pos: &Position, misere: bool) -> Outcome {
        let moves = game.moves(pos).unwrap();
        if moves.is_empty() {
            return if misere { Outcome::N } else { Outcome::P };
        }
        if moves
            .iter()
            .any(|m| outcome_by_search(game, &m.to, misere) == Outcome::P)
        {
            Outcome::N
        } else {
            Outcome::P
        }
    }

    #[test]
    fn outcomes_agree_with_search_over_moves() {
        for (name, pos) in [
            ("nim", "1 2 3"),
            ("nim", "2 3 4"),
            ("misere-nim", "1 1 2"),
            ("misere-nim", "1 1"),
            ("misere-nim", "2 2 1"),
            ("kayles", "3 4"),
            ("0.137", "5 3"),
            ("sub:1,3,4", "9"),
            ("wythoff", "3 5"),
            ("wythoff", "4 4"),
            ("fib", "9"),
            ("fib", "8"),
            ("chomp", "3x3"),
            ("chomp", "3 2 1"),
            ("maze", "....\n.#..\n...@\n"),
        ] {
            let mut g = Game::new(name, pos).unwrap();
            let start = g.start().clone();
            let t = g.turn(&start).unwrap();
            let misere = g.misere();
            assert_eq!(
                t.outcome,
                outcome_by_search(&mut g, &start, misere),
                "{name} {pos}"
            );
            for m in &t.moves {
                assert_eq!(
                    m.outcome,
                    outcome_by_search(&mut g, &m.to, misere),
                    "{name} {pos} {}",
                    m.text
                );
            }
            // The hint is a winning move exactly in an N-position.
            assert_eq!(
                t.outcome == Outcome::N,
                t.hint != "every move loses",
                "{name}"
            );
        }
    }

    #[test]
    fn a_script_game_plays_like_the_native_one() {
        // Subtraction {1, 2, 5} in Lua against the native subtraction set.
        let src = "function moves(n) local out = {} for _, k in ipairs({1, 2, 5}) do \
                   if k <= n then out[#out + 1] = n - k end end return out end";
        let mut lua = Game::script("s.lua", src, "11", Default::default()).unwrap();
        let mut native = Game::new("sub:1,2,5", "11").unwrap();
        for n in 0..=11u64 {
            let a = lua.turn(&lua.position(&n.to_string()).unwrap()).unwrap();
            let b = native.turn(&Position::Heaps(vec![n])).unwrap();
            assert_eq!((a.outcome, a.grundy), (b.outcome, b.grundy), "{n}");
            assert_eq!(a.moves.len(), b.moves.len(), "{n}");
        }
        let mut s = Session::new(lua, Player::You);
        s.play("10").unwrap();
        assert_eq!(s.position_text(), "10");
        assert!(Game::script(
            "bad.lua",
            "function moves(n) return {n - 1",
            "3",
            Default::default()
        )
        .is_err());
    }

    #[test]
    fn heap_values_are_the_mex_of_the_options() {
        let mut g = Game::new("kayles", "6 2").unwrap();
        let start = g.start().clone();
        let t = g.turn(&start).unwrap();
        // Kayles: G(6) = 3, G(2) = 2 (OEIS A002186).
        assert_eq!(t.grundy, Some(3 ^ 2));
        let opts: std::collections::BTreeSet<u64> =
            t.moves.iter().filter_map(|m| m.grundy).collect();
        let mex = (0..).find(|v| !opts.contains(v)).unwrap();
        assert_eq!(t.grundy, Some(mex));
    }

    #[test]
    fn session_moves_undo_and_winner() {
        let g = Game::new("nim", "1 2").unwrap();
        let mut s = Session::new(g, Player::You);
        assert!(s.engine_move().is_err());
        assert!(matches!(s.play("5 5"), Err(PlayError::IllegalMove(_))));
        s.play("1 1").unwrap();
        assert_eq!(s.to_move(), Player::Engine);
        s.engine_move().unwrap();
        assert!(s.undo());
        assert_eq!(s.position_text(), "1 2");
        assert_eq!(s.to_move(), Player::You);
        assert!(!s.undo());
        // Play to the end following the hints: leaving (1, 1), you win whatever it does.
        s.play("1 1").unwrap();
        while s.winner().unwrap().is_none() {
            if s.to_move() == Player::Engine {
                s.engine_move().unwrap();
            } else {
                let t = s.turn().unwrap();
                s.play(&t.winning_moves[0].position).unwrap();
            }
        }
        assert_eq!(s.winner().unwrap(), Some(Player::You));
        // From a P-position as the first player, the engine wins.
        let mut s = Session::new(Game::new("nim", "2 2").unwrap(), Player::You);
        while s.winner().unwrap().is_none() {
            if s.to_move() == Player::Engine {
                s.engine_move().unwrap();
            } else {
                s.play("#1").unwrap();
            }
        }
        assert_eq!(s.winner().unwrap(), Some(Player::Engine));
    }

    #[test]
    fn bad_input_is_refused_in_words() {
        for (name, pos) in [
            ("nim", ""),
            ("nim", "3 x"),
            ("nim", "99999999999999999999999"),
            ("no-such-game", "3"),
            ("wythoff", "3"),
            ("wythoff", "3000 5"),
            ("chomp", "3 4"),
            ("chomp", "16x255"),
            ("maze", "..\n.."),
            ("fib", "0 1 2"),
            ("fib:0", "10"),
        ] {
            let e = Game::new(name, pos).unwrap_err();
            assert!(!e.to_string().is_empty());
        }
    }
}
