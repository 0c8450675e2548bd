//! The vocabulary of the game catalogue: what every registered game is and answers.
//!
//! A catalogue game is one [`Entry`] (its name, a one-line summary, an example start position,
//! the grammar of its positions) that opens [`Rules`] (a game instance with whatever it
//! precomputes). Rules read positions from text and print them back ([`Position`], tagged with
//! its `kind` so that no front end guesses a board from a game's name), list the legal moves
//! for play ([`Move`]: `to`, `text`, a `short` text that fits 30 columns) and analyse a
//! position into one [`Report`] (outcome, value, every winning move, an explanation).
//! Every question is an [`Ask`]: the play, how much of the moves to compute ([`Detail`]:
//! the value, the winning moves, or every move valued), the budget, the game's own settings
//! (declared by its entry as [`Param`]s) and the controls of long work.
//!
//! The trait lives in the core so that every family crate implements it for its own games;
//! the facade's registry (`grundy::catalogue`) only lists them. A game that is a plain
//! [`Game`] with a text notation gets all of it from [`Solved`] (the memoised solver, normal and
//! misère play, position budget included).
//!
//! ```
//! use grundy_core::catalogue::{Ask, Notation, Play, Rules, Solved};
//! use grundy_core::{Game, Outcome};
//!
//! /// Subtract 1 or 2 from one heap.
//! struct Sub12;
//! impl Game for Sub12 {
//!     type Position = u64;
//!     fn options(&self, &n: &u64, out: &mut Vec<u64>) {
//!         out.extend([1, 2].into_iter().filter(|&s| s <= n).map(|s| n - s));
//!     }
//! }
//! impl Notation for Sub12 {
//!     const KIND: &'static str = "heap";
//!     fn parse(&self, text: &str) -> Result<u64, grundy_core::catalogue::Error> {
//!         text.trim().parse().map_err(|_| grundy_core::catalogue::Error::input("not a heap"))
//!     }
//!     fn print(&self, n: &u64) -> String {
//!         n.to_string()
//!     }
//! }
//!
//! let mut rules = Solved::new("sub:1,2", Sub12);
//! let pos = rules.parse("7")?;
//! let report = rules.analyze(&pos, &Ask::new(Play::Normal))?;
//! assert_eq!(report.outcome, Outcome::N);
//! assert_eq!(report.grundy, Some(1u64.into()));
//! assert_eq!(report.winning_moves[0].to.text, "6");
//! # Ok::<(), grundy_core::catalogue::Error>(())
//! ```

use std::fmt::Write as _;

mod ask;
mod report;
mod solved;

use serde::Serialize;

use crate::game::{Game, Outcome};
pub use crate::grundy::Grundy;

pub use ask::{Ask, Detail, Param, ParamKind, Progress, Settings, Watch};
use report::one_line;
pub use report::{
    explain_by_options, explain_misere, explain_value, explain_winning, Report, Verbosity,
};
pub use solved::{Budgeted, Search, Solved};

pub use crate::game::Play;

/// The one budget of every search, here for the registry's callers (it lives in
/// [`crate::budget`]).
pub use crate::budget::Budget;

/// Why a catalogue call refused: the kind tells front ends how to answer (exit 2 or 1, HTTP
/// 4xx or 5xx), the message says what in the input was wrong, in the library's words (never a
/// front end's flag).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// One line that names the problem.
    pub message: String,
    /// The [`Budget`] field that raises the limit reached (`"max_positions"` or
    /// `"max_bytes"`), for a limit of a budgeted search; front ends name their own option
    /// for it.
    pub parameter: Option<&'static str>,
}

/// The classes of [`Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// The game name, position or move is malformed or not legal.
    Input,
    /// Valid input that needs more than the budget allows.
    Limit,
    /// The caller asked the work to stop.
    Stopped,
    /// Valid work that failed (a script's runtime error, I/O).
    Failure,
}

impl Error {
    /// Bad input: `message` names the problem.
    pub fn input(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Input,
            message: message.into(),
            parameter: None,
        }
    }

    /// A limit of the budget was reached.
    pub fn limit(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Limit,
            message: message.into(),
            parameter: None,
        }
    }

    /// A failure while doing valid work.
    pub fn failure(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Failure,
            message: message.into(),
            parameter: None,
        }
    }

    /// True when the budget stopped the work (the caller may raise it).
    pub fn is_limit(&self) -> bool {
        self.kind == ErrorKind::Limit
    }

    /// True for bad input or a limit: the caller's to change.
    pub fn is_input(&self) -> bool {
        matches!(self.kind, ErrorKind::Input | ErrorKind::Limit)
    }
}

/// Results of the catalogue.
pub type Result<T> = std::result::Result<T, Error>;

/// A position of a catalogue game, as every front end carries it: the game's text notation
/// (what a user types, and what a front end sends back) and, for front ends that draw the
/// position, its structure under a `kind` tag (`"heaps"`, `"graph"`, `"board"`, …).
///
/// JSON: `{"kind": "heaps", "text": "3 4 5", "heaps": [3, 4, 5]}` — the fields besides
/// `kind` and `text` are the kind's own, documented in `docs/json.md`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Position {
    /// What the position is a structure of; fixes the fields of `data`.
    pub kind: &'static str,
    /// The position in the game's notation: parsing it gives this position again.
    pub text: String,
    /// The kind's own fields (heap sizes, board rows, edges, …).
    #[serde(flatten)]
    pub data: serde_json::Map<String, serde_json::Value>,
}

impl Position {
    /// A position with no structured fields.
    pub fn text(kind: &'static str, text: impl Into<String>) -> Position {
        Position {
            kind,
            text: text.into(),
            data: serde_json::Map::new(),
        }
    }

    /// A sum of heaps, as every heap game of the catalogue writes it (Nim, misère Nim, every
    /// heap rule): kind `"heaps"`, `text` the sizes joined by spaces (`"0"` when no heap is
    /// left, a text the entries read back), field `heaps` the sizes (numbers up to 2^53,
    /// decimal strings above).
    pub fn heaps(heaps: &[u64]) -> Position {
        let text = if heaps.is_empty() {
            "0".to_string()
        } else {
            let mut t = String::with_capacity(heaps.len() * 4);
            for (i, h) in heaps.iter().enumerate() {
                if i > 0 {
                    t.push(' ');
                }
                let _ = write!(t, "{h}");
            }
            t
        };
        let sizes: Vec<crate::text::JsonU64> =
            heaps.iter().map(|&h| crate::text::JsonU64(h)).collect();
        Position::text("heaps", text).with("heaps", sizes)
    }

    /// Adds a structured field.
    pub fn with(mut self, key: &str, value: impl Serialize) -> Position {
        let v = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
        self.data.insert(key.to_string(), v);
        self
    }
}

/// One legal move: the position it leaves and the move in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Move {
    /// The move in words ("take 2 from the heap of 3, leaving 1").
    pub text: String,
    /// The move in at most 30 columns, for lists on narrow screens.
    pub short: String,
    /// The position after the move (its `text` is what to send back).
    pub to: Position,
    /// The outcome of the position the move leaves, for the player then to move: `P` means
    /// the move wins.
    pub outcome: Outcome,
    /// The value of the position the move leaves, where the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grundy: Option<Grundy>,
    /// Where on the drawn position the move is made, for front ends that draw boards and
    /// take clicks: `{"edge": 3}` (Hackenbush, an index into the position's `edges`),
    /// `{"cell": [1, 2]}` (a Chomp bite). Empty (absent from JSON) for games drawn as text.
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub at: serde_json::Map<String, serde_json::Value>,
}

impl Move {
    /// A move with its texts (the short one cut to 30 columns by [`shorten`]), the position
    /// it leaves and that position's outcome and value; [`Move::at`] adds the family's
    /// coordinates.
    pub fn new(
        text: impl Into<String>,
        short: &str,
        to: Position,
        outcome: Outcome,
        grundy: Option<u64>,
    ) -> Move {
        Move {
            text: text.into(),
            short: shorten(short, 30),
            to,
            outcome,
            grundy: grundy.map(Grundy::Finite),
            at: serde_json::Map::new(),
        }
    }

    /// Adds a field to [`Move::at`].
    pub fn at(mut self, key: &str, value: impl Serialize) -> Move {
        let v = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
        self.at.insert(key.to_string(), v);
        self
    }

    /// True when the move wins (it leaves a P-position).
    pub fn wins(&self) -> bool {
        self.outcome == Outcome::P
    }
}

/// Cuts `text` to at most `width` characters, ending in "…" when cut.
pub fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// What the registry tells of a game without opening it: `grundy games`, `GET /api/games`,
/// Python's `grundy.games()`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Info {
    /// The name to type (`kayles`, `node-kayles`), or for a family its pattern (`sub:S`).
    pub name: String,
    /// Other accepted names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// What the game is, in one line.
    pub summary: String,
    /// A start position in the game's own notation (works in every front end).
    pub example: String,
    /// For a family: a member to pair with `example` (`sub:1,3,4`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example_game: Option<String>,
    /// The grammar of positions, in words.
    pub position: String,
    /// The `kind` tag of its positions.
    pub kind: String,
    /// True for a parametric family of rules (`sub:…`, `0.…`): `name` is its pattern.
    pub family: bool,
    /// True when misère play is answered too.
    pub misere: bool,
    /// True when a position can be drawn (a loopy game).
    pub loopy: bool,
    /// True for a scoring game.
    pub scoring: bool,
    /// The game's own options, offered by every front end from this declaration
    /// (`--threads 2`, `threads=2`, `&threads=2`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
}

impl Info {
    /// The name to open a game by: the name, or for a family its example member.
    pub fn game(&self) -> &str {
        self.example_game.as_deref().unwrap_or(&self.name)
    }
}

/// One entry of the registry: a named game, or a parametric family of rules.
pub trait Entry: Send + Sync {
    /// What the registry lists.
    fn info(&self) -> Info;

    /// True when `name` (lower case, trimmed) names this game or a member of this family.
    fn matches(&self, name: &str) -> bool;

    /// Opens the game `name` (one that [`Entry::matches`]): its rules, ready to read
    /// positions.
    fn open(&self, name: &str) -> Result<Box<dyn Rules>>;
}

/// A game instance: reads positions, lists moves, analyses.
pub trait Rules {
    /// The game's name as the registry knows it.
    fn name(&self) -> String;

    /// Reads a position from text (the notation of the game's [`Info::position`]); the
    /// position's `text` is the normal form of the notation.
    fn parse(&self, text: &str) -> Result<Position>;

    /// Every legal move from `pos`, in a fixed order, each with the outcome (and, where the
    /// game has one, the value) of the position it leaves under `ask.play`: what a player
    /// picks from. `ask.detail` is not consulted (every move is listed).
    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<Move>>;

    /// The analysis of `pos`: outcome and value, then as much of the moves as `ask.detail`
    /// asks for, and no more (a search engine values the root alone for
    /// [`Detail::Value`] and asks only P-questions of the options for [`Detail::Winning`]).
    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report>;
}

/// The text notation of a [`Game`]'s positions: what [`Solved`] needs besides the rules.
pub trait Notation: Game {
    /// The `kind` tag of the positions.
    const KIND: &'static str;

    /// Reads a position; a one-line [`Error::input`] when the text is malformed.
    fn parse(&self, text: &str) -> Result<Self::Position>;

    /// Prints a position in the notation [`Notation::parse`] reads.
    fn print(&self, pos: &Self::Position) -> String;

    /// The kind's structured fields of a position (none by default).
    fn data(&self, _pos: &Self::Position) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }

    /// A move from `from` to `to` in words: `(text, short)`. The default names the position
    /// it leaves.
    fn move_text(&self, _from: &Self::Position, to: &Self::Position) -> (String, String) {
        let t = one_line(&self.print(to));
        (format!("move to {t}"), shorten(&format!("to {t}"), 30))
    }

    /// Explanation lines for a position with value `grundy` (none by default).
    fn explain(&self, _pos: &Self::Position, _grundy: u64) -> Vec<String> {
        Vec::new()
    }
}
