//! The vocabulary of the game catalogue: what every registered game is and answers.
//!
//! A catalogue game is one [`Entry`] (its name, a one-line summary, an example start position,
//! the grammar of its positions) that opens [`Rules`] (a game instance with whatever it
//! precomputes). Rules read positions from text and print them back ([`Position`], tagged with
//! its `kind` so that no front end guesses a board from a game's name), list the legal moves
//! for play ([`Move`]: `to`, `text`, a `short` text that fits 30 columns) and analyse a
//! position into one [`Report`] (outcome, value, every winning move, an explanation).
//!
//! The trait lives in the core so that every family crate implements it for its own games;
//! the facade's registry (`grundy::catalogue`) only lists them. A game that is a plain
//! [`Game`] with a text notation gets all of it from [`Solved`] (the memoised solver, normal and
//! misère play, position budget included).
//!
//! ```
//! use grundy_core::catalogue::{Budget, Notation, Play, Rules, Solved};
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
//! let report = rules.analyze(&pos, Play::Normal, &Budget::default())?;
//! assert_eq!(report.outcome, Outcome::N);
//! assert_eq!(report.grundy, Some(1u64.into()));
//! assert_eq!(report.winning_moves[0].to.text, "6");
//! # Ok::<(), grundy_core::catalogue::Error>(())
//! ```

use std::cell::Cell;
use std::fmt::Write as _;

use serde::Serialize;

use crate::game::{Game, Outcome};
pub use crate::grundy::Grundy;
use crate::solver::Solver;

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

/// How much a [`Report::describe`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Verbosity {
    /// One line: outcome, value and the first winning move.
    Brief,
    /// Outcome, value, every winning move and the explanation.
    #[default]
    Normal,
    /// All of it, with every legal move's outcome where the report holds them.
    Full,
}

/// The analysis of one position of any catalogue game: the answer of `grundy analyze`, of
/// `GET /api/analyze` and of Python's `grundy.analyze`, one JSON schema for all.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The game's name, as the registry knows it (`kayles`, `sub:1,3,4`, `node-kayles`).
    pub game: String,
    /// The position analysed.
    pub position: Position,
    /// True under misère play.
    pub misere: bool,
    /// `N` when the player to move wins, `P` when the other player does, `D` when neither can
    /// force a win (only in games that can be drawn).
    pub outcome: Outcome,
    /// The Sprague–Grundy value, where the question has one (not under misère play, not in a
    /// scoring game).
    pub grundy: Option<Grundy>,
    /// Every move that wins (to a P-position); empty in a P-position.
    pub winning_moves: Vec<Move>,
    /// How many legal moves the position has, where they were counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<u64>,
    /// Why, in words: one sentence a line.
    pub explanation: Vec<String>,
    /// True for a scoring game (the winner is who scores more, not who moves last): `outcome`
    /// then says whether the player to move can score at least half.
    pub scoring: bool,
    /// The game's own details (a Wythoff pair's Beatty index, a Fibonacci pile's Zeckendorf
    /// form, a card game's totals); `null` when it has none.
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub details: serde_json::Value,
}

impl Report {
    /// A report with no winning moves, explanation or details yet.
    pub fn new(
        game: impl Into<String>,
        position: Position,
        play: Play,
        outcome: Outcome,
        grundy: Option<Grundy>,
    ) -> Report {
        Report {
            game: game.into(),
            position,
            misere: play.is_misere(),
            outcome,
            grundy,
            winning_moves: Vec::new(),
            moves: None,
            explanation: Vec::new(),
            scoring: false,
            details: serde_json::Value::Null,
        }
    }

    /// The report for people, at the given verbosity.
    pub fn describe(&self, verbosity: Verbosity) -> String {
        let mut s = String::new();
        let play = if self.misere { " (misère play)" } else { "" };
        let who = match self.outcome {
            Outcome::N => "N: the player to move wins",
            Outcome::P => "P: the player to move loses",
            Outcome::D => "D: neither player can force a win (a draw)",
        };
        if verbosity == Verbosity::Brief {
            let value = self
                .grundy
                .as_ref()
                .map(|g| format!(", value {g}"))
                .unwrap_or_default();
            let mv = self
                .winning_moves
                .first()
                .map(|m| format!("; {}", m.text))
                .unwrap_or_default();
            let _ = writeln!(s, "{}{value}{mv}", self.outcome);
            return s;
        }
        let _ = writeln!(s, "{} {}{play}", self.game, one_line(&self.position.text));
        if let Some(g) = &self.grundy {
            let _ = writeln!(s, "Grundy value: {g}");
        }
        let _ = writeln!(s, "Outcome: {who}");
        if !self.winning_moves.is_empty() {
            let _ = writeln!(s, "Winning moves ({}):", self.winning_moves.len());
            let shown = if verbosity == Verbosity::Full {
                self.winning_moves.len()
            } else {
                self.winning_moves.len().min(20)
            };
            for m in &self.winning_moves[..shown] {
                let _ = writeln!(s, "  {}", m.text);
            }
            if shown < self.winning_moves.len() {
                let _ = writeln!(
                    s,
                    "  … and {} more (the JSON report lists them all)",
                    self.winning_moves.len() - shown
                );
            }
        } else if self.outcome == Outcome::P && self.moves != Some(0) {
            let _ = writeln!(s, "Every move loses.");
        }
        for line in &self.explanation {
            let _ = writeln!(s, "{line}");
        }
        if verbosity == Verbosity::Full && !self.details.is_null() {
            if let Ok(d) = serde_json::to_string_pretty(&self.details) {
                let _ = writeln!(s, "Details: {d}");
            }
        }
        s
    }
}

/// A multi-line position (a maze, a board) on one line, rows joined by `|`.
fn one_line(text: &str) -> String {
    text.trim_end().replace('\n', "|")
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

    /// Every legal move from `pos`, in a fixed order, each with the outcome and value of the
    /// position it leaves under `play`.
    fn moves(&mut self, pos: &Position, play: Play, budget: &Budget) -> Result<Vec<Move>>;

    /// The analysis of `pos` under `play`.
    fn analyze(&mut self, pos: &Position, play: Play, budget: &Budget) -> Result<Report>;
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

/// A game with a position cap: past the limit a newly opened position has no move, and
/// [`Search::run`] voids the answer (as [`crate::budget::MisereBudget`], with the split into
/// components kept; a split position counts as one, since it is memoised too).
pub struct Budgeted<G> {
    inner: G,
    limit: Cell<u64>,
    opened: Cell<u64>,
}

impl<G: Game> Game for Budgeted<G> {
    type Position = G::Position;

    fn options(&self, pos: &G::Position, out: &mut Vec<G::Position>) {
        let n = self.opened.get() + 1;
        self.opened.set(n);
        if n <= self.limit.get() {
            self.inner.options(pos, out);
        }
    }

    fn components(&self, pos: &G::Position, out: &mut Vec<G::Position>) -> bool {
        let split = self.inner.components(pos, out);
        if split {
            self.opened.set(self.opened.get() + 1);
        }
        split
    }

    fn memoise_sum(&self, pos: &G::Position) -> bool {
        self.inner.memoise_sum(pos)
    }
}

/// The generic [`Solver`] over a game, each query held to a [`Budget`] (positions opened, and
/// the memo's estimated bytes). The memo is kept between the queries of one rules object.
pub struct Search<G: Game> {
    solver: Solver<Budgeted<G>>,
}

impl<G: Game> Search<G> {
    /// A search over `game` with an empty memo.
    pub fn new(game: G) -> Self {
        Search {
            solver: Solver::new(Budgeted {
                inner: game,
                limit: Cell::new(u64::MAX),
                opened: Cell::new(0),
            }),
        }
    }

    /// The game searched.
    pub fn game(&self) -> &G {
        &self.solver.game().inner
    }

    /// Positions memoised so far (normal and misère play).
    pub fn memo_len(&self) -> usize {
        self.solver.memo_len() + self.solver.misere_memo_len()
    }

    /// Runs `f` under `budget`: the memo holds at most what the budget allows, and an answer
    /// that needed more is refused as a limit naming `what` (the memo is then cleared, since
    /// its entries may be void).
    pub fn run<T>(
        &mut self,
        budget: &Budget,
        what: &str,
        f: impl FnOnce(&mut Solver<Budgeted<G>>) -> T,
    ) -> Result<T> {
        let entry = Budget::entry_bytes::<G::Position>();
        let cap = budget.max_entries(entry);
        if self.memo_len() as u64 > cap {
            self.solver.clear();
        }
        let game = self.solver.game();
        game.opened.set(0);
        game.limit.set(cap);
        let out = f(&mut self.solver);
        let game = self.solver.game();
        let opened = game.opened.get();
        game.limit.set(u64::MAX);
        if opened > cap {
            self.solver.clear();
            return Err(budget.limit(what, entry).into());
        }
        Ok(out)
    }
}

/// Any [`Game`] with a [`Notation`] as catalogue [`Rules`], by the memoised [`Solver`]:
/// values, outcomes and winning moves in normal play, outcomes and winning moves by search in
/// misère play, under the caller's [`Budget`] (positions opened, and the memo's bytes).
pub struct Solved<G: Notation> {
    name: String,
    search: Search<G>,
}

impl<G: Notation> Solved<G> {
    /// The rules `game`, registered as `name`.
    pub fn new(name: impl Into<String>, game: G) -> Solved<G> {
        Solved {
            name: name.into(),
            search: Search::new(game),
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        self.search.game()
    }

    fn position(&self, p: &G::Position) -> Position {
        Position {
            kind: G::KIND,
            text: self.game().print(p),
            data: self.game().data(p),
        }
    }

    fn read(&self, pos: &Position) -> Result<G::Position> {
        self.game().parse(&pos.text)
    }

    fn value(
        solver: &mut Solver<Budgeted<G>>,
        p: &G::Position,
        play: Play,
    ) -> (Outcome, Option<u64>) {
        match play {
            Play::Normal => {
                let g = solver.grundy(p);
                (Outcome::from_grundy(g), Some(g))
            }
            Play::Misere => (solver.misere_outcome(p), None),
        }
    }
}

impl<G: Notation> Rules for Solved<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let p = self.game().parse(text)?;
        Ok(self.position(&p))
    }

    fn moves(&mut self, pos: &Position, play: Play, budget: &Budget) -> Result<Vec<Move>> {
        let p = self.read(pos)?;
        let name = self.name.clone();
        let (options, values) = self.search.run(budget, &name, |s| {
            let options = s.options(&p);
            let values: Vec<_> = options.iter().map(|o| Self::value(s, o, play)).collect();
            (options, values)
        })?;
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(options.len());
        for (o, (outcome, g)) in options.iter().zip(values) {
            let to = self.position(o);
            if !seen.insert(to.text.clone()) {
                continue;
            }
            let (text, short) = self.game().move_text(&p, o);
            out.push(Move {
                text,
                short,
                to,
                outcome,
                grundy: g.map(Grundy::Finite),
                at: Default::default(),
            });
        }
        Ok(out)
    }

    fn analyze(&mut self, pos: &Position, play: Play, budget: &Budget) -> Result<Report> {
        let p = self.read(pos)?;
        let name = self.name.clone();
        let (outcome, grundy) = self
            .search
            .run(budget, &name, |s| Self::value(s, &p, play))?;
        let moves = self.moves(pos, play, budget)?;
        let mut report = Report::new(
            self.name.clone(),
            self.position(&p),
            play,
            outcome,
            grundy.map(Grundy::Finite),
        );
        report.moves = Some(moves.len() as u64);
        if let Some(g) = grundy {
            report.explanation = self.game().explain(&p, g);
            if report.explanation.is_empty() {
                report.explanation = explain_by_options(g, &moves);
            }
        } else {
            report.explanation = explain_misere(outcome, &moves);
        }
        report.winning_moves = moves.into_iter().filter(Move::wins).collect();
        Ok(report)
    }
}

/// The textbook explanation of a normal-play value from the values of the options: the mex.
pub fn explain_by_options(grundy: u64, moves: &[Move]) -> Vec<String> {
    if moves.is_empty() {
        return vec!["No move is left: the player to move loses (value 0).".to_string()];
    }
    let mut values: Vec<u64> = moves
        .iter()
        .filter_map(|m| m.grundy.as_ref()?.finite())
        .collect();
    values.sort_unstable();
    values.dedup();
    let list: Vec<String> = values.iter().take(24).map(u64::to_string).collect();
    let more = if values.len() > 24 { ", …" } else { "" };
    vec![format!(
        "The options have values {{{}{more}}}; the smallest value missing is {grundy} (the mex).",
        list.join(", ")
    )]
}

/// The explanation of a misère outcome from the outcomes of the options.
pub fn explain_misere(outcome: Outcome, moves: &[Move]) -> Vec<String> {
    if moves.is_empty() {
        return vec!["No move is left: under misère play the player to move wins.".to_string()];
    }
    match outcome {
        Outcome::N => vec!["Some move leaves a misère P-position.".to_string()],
        _ => vec!["Every move leaves a misère N-position.".to_string()],
    }
}
