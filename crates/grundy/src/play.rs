//! Playing a game against the engine: the one game-session model behind `grundy play` (the
//! terminal) and `grundy serve` (the web playground), for every game of the
//! [catalogue].
//!
//! A [`Game`] is a registered game's [`Rules`] with a starting
//! position, read from text the way a user types it (`Game::new("kayles", "5 7 9")`). At any
//! position, [`Game::turn`] answers everything a player may ask: every legal move (each a
//! catalogue [`Move`] with `to`, `text` and a `short` text), the outcome and value, the winning
//! moves, a *hint* (a winning move, or "every move loses"), *why* (the catalogue's
//! explanation and the values of the options) and the engine's reply (a winning move when
//! there is one, else a move that keeps a draw, else the first move). A [`Session`] adds the
//! players: who moves, your move checked against the legal ones, tutor feedback on a move that
//! throws a win away, the engine's move, undo, and who won. Every answer comes from the
//! catalogue; front ends only render.
//!
//! Positions are kept small enough to list every move; a larger one is refused with
//! [`PlayError::TooLarge`] (the game's own limit).
//!
//! ```
//! use grundy::play::{Game, Player, Session};
//!
//! let game = Game::new("nim", "3 4 5")?;
//! let mut s = Session::new(game, Player::You);
//! let turn = s.turn()?;
//! assert_eq!(turn.outcome, grundy::Outcome::N);
//! assert_eq!(turn.hint, "heap 0: take 2 from the heap of 3, leaving 1");
//! assert_eq!(turn.why.binary.as_ref().unwrap().nim_sum, "010");
//!
//! s.play("1 4 5")?;                      // your move: the position it leaves
//! assert!(s.feedback().is_none());       // it was a winning move
//! s.engine_move()?;                      // the engine answers
//! s.undo();                              // back to your move
//! assert_eq!(s.position_text(), "3 4 5");
//! # Ok::<(), grundy::play::PlayError>(())
//! ```

use std::fmt::Write as _;

use serde::Serialize;

use crate::catalogue::{self, Ask, Budget, Detail, Grundy, Move, Play, Position, Registry, Rules};
use crate::Outcome;

/// Why a game, position or move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game or position text is not understood.
    #[error("{0}")]
    Invalid(String),
    /// The position is larger than play allows.
    #[error("{0}")]
    TooLarge(String),
    /// The move is not one of the legal moves.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// A move was asked of the player who is not to move: "it is not your turn", "it is not
    /// the engine's turn".
    #[error("it is not {} turn", .0.possessive())]
    NotYourTurn(Player),
    /// The game is over: no move is left, or the position came back three times (a draw).
    #[error("the game is over: no move is left to play")]
    GameOver,
}

/// What is said when a game ends drawn by repetition ([`Session::drawn`]).
pub const DRAW_BY_REPETITION: &str = "A draw: the position came back three times. Neither \
    player can force a win: with best play this game never ends.";

impl PlayError {
    /// True when the position is too large for play (a limit), false for bad input.
    pub fn is_limit(&self) -> bool {
        matches!(self, PlayError::TooLarge(_))
    }
}

impl From<catalogue::Error> for PlayError {
    fn from(e: catalogue::Error) -> Self {
        if e.is_input() && !e.is_limit() {
            PlayError::Invalid(e.message)
        } else {
            PlayError::TooLarge(e.message)
        }
    }
}

impl From<crate::Error> for PlayError {
    fn from(e: crate::Error) -> Self {
        if e.is_limit() || !e.is_input() {
            PlayError::TooLarge(e.to_string())
        } else {
            PlayError::Invalid(e.to_string())
        }
    }
}

/// Results of this module.
pub type Result<T> = std::result::Result<T, PlayError>;

/// Nim's explanation in binary: each heap, the nim-sum, aligned in columns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NimBinary {
    /// Each heap in binary, all of one width.
    pub heaps: Vec<String>,
    /// Their XOR in binary, same width.
    pub nim_sum: String,
}

/// Why the position is won or lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Why {
    /// The explanation in words, several lines.
    pub text: String,
    /// For a position of heaps: the heaps and their nim-sum in binary (the values' XOR is
    /// what decides a sum).
    pub binary: Option<NimBinary>,
}

/// Everything about one position: what `GET /api/play` returns and what the terminal shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Turn {
    /// The game's name (`nim`, `kayles`, `node-kayles`, …).
    pub game: String,
    /// The position, tagged with its kind.
    pub position: Position,
    /// The position as text (what [`Game::position`] reads).
    pub position_text: String,
    /// `N` if the player to move wins, `P` if not, `D` for a draw.
    pub outcome: Outcome,
    /// The Sprague–Grundy value, where the game has one (not under misère play).
    pub grundy: Option<Grundy>,
    /// Every legal move, in a fixed order.
    pub moves: Vec<Move>,
    /// The moves that win (to a P-position); empty in a P-position.
    pub winning_moves: Vec<Move>,
    /// The hint: the first winning move in words, or "every move loses" (or "no move left").
    pub hint: String,
    /// Why: the explanation and the values of the options.
    pub why: Why,
    /// The engine's move here: a winning move, else one that keeps a draw, else the first
    /// legal move (None when the game is over).
    pub reply: Option<Move>,
    /// True when no move is left: the player to move has lost (normal play) or won (misère).
    pub game_over: bool,
    /// Misère play: the player who cannot move wins.
    pub misere: bool,
    /// Tutor feedback on the move that led here, when the caller named the position before it
    /// ([`Game::turn_after`]) and the move threw a win away.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    /// True when the game has ended drawn by repetition ([`Turn::after_history`]): the
    /// position came back a third time with the same player to move. `hint` then says so in
    /// words ([`DRAW_BY_REPETITION`]) and there is no `reply`.
    pub drawn: bool,
    /// Where the vertices of a graph or digraph position stand, or the points of a board of
    /// stones and what stands on each ([`crate::picture::drawing`]): what every front end
    /// draws from; absent for other kinds, whose fields are the picture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawing: Option<crate::picture::Drawing>,
}

impl Turn {
    /// This turn as reached after the positions `earlier` (oldest first, one a move, the
    /// players alternating, this turn's position not included): marked [`Turn::drawn`] when
    /// [`repeated_thrice`] says so. How a stateless front end (the web page, which sends its
    /// history) gets the same draw rule as a [`Session`].
    pub fn after_history<S: AsRef<str>>(self, earlier: &[S]) -> Turn {
        let repeated = repeated_thrice(earlier, &self.position_text);
        self.drawn_if(repeated)
    }

    /// This turn, ended drawn when `repeated` (and the game is not already over): `drawn`,
    /// the reason as the hint, no reply.
    fn drawn_if(mut self, repeated: bool) -> Turn {
        if repeated && !self.game_over {
            self.drawn = true;
            self.reply = None;
            self.hint = DRAW_BY_REPETITION.to_string();
        }
        self
    }
}

/// The draw rule of play: true when `current`, with the same player to move, already occurs
/// twice among the positions `earlier` (oldest first, one a move, so the player to move
/// alternates along them), so that it now stands for the third time.
pub fn repeated_thrice<S: AsRef<str>>(earlier: &[S], current: &str) -> bool {
    let n = earlier.len();
    let same_mover = earlier
        .iter()
        .enumerate()
        .filter(|(i, p)| (n - i).is_multiple_of(2) && p.as_ref() == current)
        .count();
    same_mover >= 2
}

/// A playable game: its rules, its name and its starting position.
pub struct Game {
    name: String,
    rules: Box<dyn Rules>,
    play: Play,
    budget: Budget,
    start: Position,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("name", &self.name)
            .field("start", &self.start.text)
            .finish()
    }
}

/// The budget of play: each position's moves are listed and each option valued at once.
pub const PLAY_BUDGET: Budget = Budget {
    max_positions: 2_000_000,
    max_bytes: 512 << 20,
};

impl Game {
    /// The game `name` (any name of the built-in catalogue) from `position`.
    pub fn new(name: &str, position: &str) -> Result<Game> {
        Game::from_registry(&Registry::new(), name, position)
    }

    /// The game `name` of `registry` (which may hold games registered at run time) from
    /// `position`. `misere-nim` and any game opened with [`Game::misere_play`] play misère.
    pub fn from_registry(registry: &Registry, name: &str, position: &str) -> Result<Game> {
        let rules = registry.open(name)?;
        let lower = name.trim().to_ascii_lowercase();
        let play = Play::from_misere(lower == "misere-nim" || lower == "misère-nim");
        Game::with_rules(rules, play, position)
    }

    /// A game written in Lua (see [`crate::script`]): `name` names the script in messages,
    /// `position` is a Lua literal (`7`, `{3, 3, 3}`). The script runs under `limits`.
    pub fn script(
        name: &str,
        source: &str,
        position: &str,
        limits: crate::script::Limits,
    ) -> Result<Game> {
        let entry = catalogue::script::ScriptEntry::new(name, source, limits)?;
        let rules = catalogue::Entry::open(&entry, name)?;
        Game::with_rules(rules, Play::Normal, position)
    }

    fn with_rules(mut rules: Box<dyn Rules>, play: Play, position: &str) -> Result<Game> {
        let start = rules.parse(position)?;
        // Listing the start's moves checks that the position is small enough to play.
        rules.moves(&start, &Ask::new(play).budget(PLAY_BUDGET))?;
        Ok(Game {
            name: rules.name(),
            rules,
            play,
            budget: PLAY_BUDGET,
            start,
        })
    }

    /// This game under misère play (whoever cannot move wins).
    pub fn misere_play(mut self) -> Result<Game> {
        self.play = Play::Misere;
        let start = self.start.clone();
        let ask = self.ask(Detail::All);
        self.rules.moves(&start, &ask)?;
        Ok(self)
    }

    /// The game's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// True under misère play.
    pub fn misere(&self) -> bool {
        self.play.is_misere()
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Reads a position of this game from text (the form of [`Turn::position_text`]).
    pub fn position(&self, text: &str) -> Result<Position> {
        Ok(self.rules.parse(text)?)
    }

    /// The position as text, in the form [`Game::position`] reads.
    pub fn position_text(&self, pos: &Position) -> String {
        pos.text.clone()
    }

    /// Every legal move from `pos`, each with the outcome and value of what it leaves.
    pub fn moves(&mut self, pos: &Position) -> Result<Vec<Move>> {
        let ask = self.ask(Detail::All);
        Ok(self.rules.moves(pos, &ask)?)
    }

    /// The question play asks of a position: under this game's play, within its budget.
    fn ask(&self, detail: Detail) -> Ask {
        Ask::new(self.play).budget(self.budget).detail(detail)
    }

    /// Everything about `pos`: moves, outcome, hint, why and the engine's reply.
    pub fn turn(&mut self, pos: &Position) -> Result<Turn> {
        // Every move valued: what a player picks from, and the "why".
        let mut report = self.rules.analyze(pos, &self.ask(Detail::All))?;
        let moves = std::mem::take(&mut report.all_moves);
        let winning_moves: Vec<Move> = moves.iter().filter(|m| m.wins()).cloned().collect();
        let game_over = moves.is_empty();
        let hint = match (winning_moves.first(), game_over) {
            (_, true) => "no move left: the game is over".to_string(),
            (Some(m), _) => m.text.clone(),
            (None, _) if report.outcome == Outcome::D => {
                let keep = moves.iter().find(|m| m.outcome == Outcome::D);
                match keep {
                    Some(m) => format!("no move wins; {} keeps the draw", m.text),
                    None => "no move wins or keeps the draw".to_string(),
                }
            }
            (None, _) => "every move loses".to_string(),
        };
        let reply = winning_moves
            .first()
            .or_else(|| moves.iter().find(|m| m.outcome == Outcome::D))
            .or_else(|| moves.first())
            .cloned();
        let why = why(&report, &moves);
        let drawing = crate::picture::drawing(&report.position);
        Ok(Turn {
            game: self.name.clone(),
            position_text: pos.text.clone(),
            position: report.position,
            outcome: report.outcome,
            grundy: report.grundy,
            moves,
            winning_moves,
            hint,
            why,
            reply,
            game_over,
            misere: self.misere(),
            feedback: None,
            drawn: false,
            drawing,
        })
    }

    /// The turn at `pos`, reached by a move from `previous`: with tutor feedback on that move
    /// ([`mistake`]). A `pos` that no move of `previous` leads to is refused.
    pub fn turn_after(&mut self, previous: &Position, pos: &Position) -> Result<Turn> {
        let before = self.turn(previous)?;
        let played = before
            .moves
            .iter()
            .find(|m| m.to.text == pos.text)
            .cloned()
            .ok_or_else(|| {
                PlayError::IllegalMove(format!(
                    "no move leads from {} to {}",
                    crate::text::quote(&previous.text),
                    crate::text::quote(&pos.text)
                ))
            })?;
        let mut turn = self.turn(pos)?;
        turn.feedback = mistake(&before, &played);
        Ok(turn)
    }

    /// What the points `cells` clicked on the drawn board of `pos` amount to (with `stone`,
    /// the colour to place where a move places one): a legal move, the points that complete
    /// a move begun, or [`PlayError::IllegalMove`] with the reason in one line
    /// ([`crate::picture::pick`]).
    pub fn pick(
        &mut self,
        pos: &Position,
        cells: &[[u64; 2]],
        stone: Option<&str>,
    ) -> Result<crate::picture::Pick> {
        let moves = self.moves(pos)?;
        crate::picture::pick(pos, &moves, cells, stone).map_err(PlayError::IllegalMove)
    }

    /// The legal move from `pos` that `typed` names: the position it leaves (in the game's
    /// notation; heaps in any order), the move's text or short text, or `#N` for the N-th
    /// listed move (from 1).
    pub fn find_move(&mut self, pos: &Position, typed: &str) -> Result<Move> {
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
        let parsed = self.rules.parse(t).ok();
        let sorted = |p: &Position| {
            let mut v: Vec<&str> = p.text.split_whitespace().collect();
            v.sort_unstable();
            v.join(" ")
        };
        let found = moves.iter().find(|m| {
            m.text == t
                || m.short == t
                || parsed.as_ref().is_some_and(|p| {
                    m.to.text == p.text || (p.kind == "heaps" && sorted(&m.to) == sorted(p))
                })
        });
        found.cloned().ok_or_else(|| {
            PlayError::IllegalMove(format!(
                "no move leads to {} (type the position after your move)",
                crate::text::quote(t)
            ))
        })
    }
}

/// The explanation of a turn: the catalogue's, then the options' outcomes and values.
fn why(report: &catalogue::Report, moves: &[Move]) -> Why {
    let mut text = String::new();
    for line in &report.explanation {
        let _ = writeln!(text, "{line}");
    }
    let binary = binary(&report.position);
    let listed = 12.min(moves.len());
    if listed > 0 {
        let _ = writeln!(text, "Moves (outcome after the move, value):");
        for m in &moves[..listed] {
            let _ = writeln!(
                text,
                "  {} -> {}{}",
                m.short,
                m.outcome,
                m.grundy
                    .as_ref()
                    .map(|g| format!(", value {}", value_text(g)))
                    .unwrap_or_default()
            );
        }
        if moves.len() > listed {
            let _ = writeln!(text, "  … and {} more", moves.len() - listed);
        }
    }
    Why { text, binary }
}

/// The heaps of a position of heaps and their XOR in binary (None for other kinds, or heaps
/// too many to show).
fn binary(pos: &Position) -> Option<NimBinary> {
    if pos.kind != "heaps" {
        return None;
    }
    let heaps: Vec<u64> = pos
        .text
        .split_whitespace()
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    if heaps.len() > 32 {
        return None;
    }
    let sum = heaps.iter().fold(0, |a, &h| a ^ h);
    let width = heaps
        .iter()
        .chain([&sum])
        .map(|&x| 64 - x.leading_zeros() as usize)
        .max()
        .unwrap_or(1)
        .max(1);
    let bin = |x: u64| format!("{x:0width$b}");
    Some(NimBinary {
        heaps: heaps.iter().map(|&x| bin(x)).collect(),
        nim_sum: bin(sum),
    })
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

impl Player {
    /// Whose, in words: "your", "the engine's".
    pub fn possessive(self) -> &'static str {
        match self {
            Player::You => "your",
            Player::Engine => "the engine's",
        }
    }
}

/// "you" or "the engine".
impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Player::You => "you",
            Player::Engine => "the engine",
        })
    }
}

/// A value as people read it, in every front end: `0`, a nimber `*3`, Smith's loopy values
/// `∞` and `∞(0,2)` (the web page's `valueText` writes the same).
///
/// ```
/// use grundy::catalogue::Grundy;
/// assert_eq!(grundy::play::value_text(&Grundy::Finite(3)), "*3");
/// assert_eq!(grundy::play::value_text(&Grundy::Finite(0)), "0");
/// assert_eq!(grundy::play::value_text(&Grundy::infinite([1])), "∞(1)");
/// assert_eq!(grundy::play::value_text(&Grundy::infinite([])), "∞");
/// ```
pub fn value_text(g: &Grundy) -> String {
    match g {
        Grundy::Finite(0) => "0".into(),
        Grundy::Finite(m) => format!("*{m}"),
        infinite => infinite.to_string(),
    }
}

/// Tutor feedback on a move that threw a win (or a draw) away, with the move that would have
/// kept it. Front ends show it unless the player turned it off.
pub fn mistake(before: &Turn, played: &Move) -> Option<String> {
    let winning = before.winning_moves.first();
    match (winning, played.outcome) {
        (Some(w), o) if o != Outcome::P => Some(format!(
            "that move lets your opponent win; the winning move was {}",
            w.text
        )),
        (None, Outcome::N) if before.outcome == Outcome::D => {
            let keep = before.moves.iter().find(|m| m.outcome == Outcome::D)?;
            Some(format!(
                "that move lets your opponent win; {} would have kept the draw",
                keep.text
            ))
        }
        _ => None,
    }
}

/// A game being played: the position, whose move it is, the history for undo.
///
/// Serializes as `{"game", "position", "position_text", "to_move", "moves_played",
/// "winner", "drawn"}`.
#[derive(Debug)]
pub struct Session {
    game: Game,
    position: Position,
    to_move: Player,
    history: Vec<(Position, Player, String)>,
    feedback: Option<String>,
    winner: Option<Player>,
}

impl Serialize for Session {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut o = s.serialize_struct("Session", 7)?;
        o.serialize_field("game", &self.game.name)?;
        o.serialize_field("position", &self.position)?;
        o.serialize_field("position_text", &self.position_text())?;
        o.serialize_field("to_move", &self.to_move)?;
        o.serialize_field("moves_played", &self.history.len())?;
        o.serialize_field("winner", &self.winner)?;
        o.serialize_field("drawn", &self.drawn())?;
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
            feedback: None,
            winner: None,
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
        self.position.text.clone()
    }

    /// Who moves now.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The moves played so far: who played and the move in words.
    pub fn log(&self) -> impl Iterator<Item = (Player, &str)> {
        self.history.iter().map(|(_, p, t)| (*p, t.as_str()))
    }

    /// Tutor feedback on your last move: what it threw away and what would have won (None
    /// when it was a good move).
    pub fn feedback(&self) -> Option<&str> {
        self.feedback.as_deref()
    }

    /// Everything about the current position, [`Turn::drawn`] when it stands for the third
    /// time.
    pub fn turn(&mut self) -> Result<Turn> {
        let pos = self.position.clone();
        let repeated = self.drawn();
        Ok(self.game.turn(&pos)?.drawn_if(repeated))
    }

    fn apply(&mut self, m: Move) -> Move {
        let old = std::mem::replace(&mut self.position, m.to.clone());
        self.history.push((old, self.to_move, m.text.clone()));
        self.to_move = self.to_move.other();
        self.update_winner();
        m
    }

    fn update_winner(&mut self) {
        let pos = self.position.clone();
        let over = self.game.moves(&pos).map(|m| m.is_empty()).unwrap_or(false);
        self.winner = over.then(|| {
            if self.game.misere() {
                self.to_move
            } else {
                self.to_move.other()
            }
        });
    }

    /// Whether the game has ended in a draw: the current position, with the same player to
    /// move, has come back for the third time (the game is loopy, or the players chose to
    /// repeat). No move is played after that; [`DRAW_BY_REPETITION`] says why in words.
    pub fn drawn(&self) -> bool {
        // The history alternates players (every move passes the turn), as the rule assumes.
        let earlier: Vec<&str> = self
            .history
            .iter()
            .map(|(p, _, _)| p.text.as_str())
            .collect();
        repeated_thrice(&earlier, &self.position.text)
    }

    /// Plays your move, named as [`Game::find_move`] reads it; it must be your turn and the
    /// move legal. Sets [`Session::feedback`].
    pub fn play(&mut self, typed: &str) -> Result<Move> {
        if self.to_move != Player::You {
            return Err(PlayError::NotYourTurn(Player::You));
        }
        if self.drawn() {
            return Err(PlayError::GameOver);
        }
        let before = self.turn()?;
        let pos = self.position.clone();
        let m = self.game.find_move(&pos, typed)?;
        self.feedback = mistake(&before, &m);
        Ok(self.apply(m))
    }

    /// The engine's move: a winning move if there is one, else one that keeps a draw.
    pub fn engine_move(&mut self) -> Result<Move> {
        if self.to_move != Player::Engine {
            return Err(PlayError::NotYourTurn(Player::Engine));
        }
        if self.drawn() {
            return Err(PlayError::GameOver);
        }
        let turn = self.turn()?;
        let m = turn.reply.ok_or(PlayError::GameOver)?;
        Ok(self.apply(m))
    }

    /// Takes back moves until it is your turn again, your last move included (your move and
    /// the engine's reply). False, with nothing changed, when you have made no move yet (the
    /// engine's opening move alone is never taken back: it would leave the engine to move with
    /// nobody to make it).
    pub fn undo(&mut self) -> bool {
        if !self.history.iter().any(|(_, who, _)| *who == Player::You) {
            return false;
        }
        while let Some((pos, who, _)) = self.history.pop() {
            self.position = pos;
            self.to_move = who;
            if who == Player::You {
                break;
            }
        }
        self.feedback = None;
        self.update_winner();
        true
    }

    /// The winner, once no move is left (None while the game goes on).
    pub fn winner(&mut self) -> Result<Option<Player>> {
        self.update_winner();
        Ok(self.winner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(
            PlayError::NotYourTurn(Player::You).to_string(),
            "it is not your turn"
        );
        assert_eq!(
            PlayError::NotYourTurn(Player::Engine).to_string(),
            "it is not the engine's turn"
        );
        let mut g = Game::new("nim", "1 2").unwrap();
        let start = g.start().clone();
        let t = g.turn(&start).unwrap();
        let texts: Vec<&str> = t.moves.iter().map(|m| m.text.as_str()).collect();
        assert!(
            texts.contains(&"heap 0: take the last counter"),
            "{texts:?}"
        );
        assert!(texts.contains(&"heap 1: take all 2 counters"), "{texts:?}");
        // The options' values as people read them: 0 and nimbers *n.
        assert!(t.why.text.contains("value *2"), "{}", t.why.text);
        assert!(t.why.text.contains("value 0"), "{}", t.why.text);
        // Node Kayles names the vertex it takes, as the move's `at` does, and keeps the rest.
        let mut g = Game::new("node-kayles", "path:3").unwrap();
        let start = g.start().clone();
        let t = g.turn(&start).unwrap();
        let m = &t.moves[0];
        assert_eq!(m.text, "take vertex 0, deleting it and its neighbours");
        assert_eq!(m.at["vertex"], 0);
        assert_eq!(m.at["kept"], serde_json::json!([2]));
        assert_eq!(
            t.position.data["layout"],
            serde_json::json!({"grid": [1, 3]})
        );
    }
}
