//! [`Report`], the one answer of every catalogue question, and its words.

use std::fmt::Write as _;

use serde::Serialize;

use super::{Detail, Grundy, Move, Play, Position};
use crate::game::Outcome;

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
///
/// What it holds of the moves is what was asked ([`Report::detail`]): the JSON leaves out
/// `winning_moves` when only the value was asked for, and has `all_moves` only when every move
/// was.
#[derive(Clone, Debug, PartialEq)]
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
    /// How much of the moves was computed: what the question asked for.
    pub detail: Detail,
    /// Every move that wins (to a P-position); empty in a P-position, and when only the
    /// value was asked for.
    pub winning_moves: Vec<Move>,
    /// Every legal move with the outcome and value of the position it leaves, when
    /// [`Detail::All`] was asked for; empty otherwise.
    pub all_moves: Vec<Move>,
    /// How many legal moves the position has, where they were counted.
    pub moves: Option<u64>,
    /// Why, in words: one sentence a line, from what was computed.
    pub explanation: Vec<String>,
    /// True for a scoring game (the winner is who scores more, not who moves last): `outcome`
    /// then says whether the player to move can score at least half.
    pub scoring: bool,
    /// The game's own details (a Wythoff pair's Beatty index, a Fibonacci pile's Zeckendorf
    /// form, a card game's totals, a search's nodes); `null` when it has none.
    pub details: serde_json::Value,
}

/// The JSON form of a [`Report`]: the moves that were asked for, and no empty list that would
/// read as "none".
#[derive(Serialize)]
struct ReportJson<'a> {
    game: &'a str,
    position: &'a Position,
    misere: bool,
    outcome: Outcome,
    grundy: &'a Option<Grundy>,
    detail: Detail,
    #[serde(skip_serializing_if = "Option::is_none")]
    winning_moves: Option<&'a [Move]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    all_moves: Option<&'a [Move]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<u64>,
    explanation: &'a [String],
    scoring: bool,
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    details: &'a serde_json::Value,
}

impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        ReportJson {
            game: &self.game,
            position: &self.position,
            misere: self.misere,
            outcome: self.outcome,
            grundy: &self.grundy,
            detail: self.detail,
            winning_moves: self
                .detail
                .wants_winning()
                .then_some(self.winning_moves.as_slice()),
            all_moves: self.detail.wants_all().then_some(self.all_moves.as_slice()),
            moves: self.moves,
            explanation: &self.explanation,
            scoring: self.scoring,
            details: &self.details,
        }
        .serialize(s)
    }
}

impl Report {
    /// A report with no moves, explanation or details yet, at the default detail (the
    /// winning moves).
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
            detail: Detail::default(),
            winning_moves: Vec::new(),
            all_moves: Vec::new(),
            moves: None,
            explanation: Vec::new(),
            scoring: false,
            details: serde_json::Value::Null,
        }
    }

    /// The same report at `detail` (what it holds of the moves is the caller's to fill).
    pub fn at(mut self, detail: Detail) -> Report {
        self.detail = detail;
        self
    }

    /// Fills the moves from every legal move, each valued (for games that list and value their
    /// moves anyway): the count, the winning ones, and all of them when asked for. Moves not
    /// asked for are dropped.
    pub fn with_moves(mut self, moves: Vec<Move>) -> Report {
        self.moves = Some(moves.len() as u64);
        match self.detail {
            Detail::Value => {}
            Detail::Winning => self.winning_moves = moves.into_iter().filter(Move::wins).collect(),
            Detail::All => {
                self.winning_moves = moves.iter().filter(|m| m.wins()).cloned().collect();
                self.all_moves = moves;
            }
        }
        self
    }

    /// Sets the detail of a report built with its winning moves (by a closed form that finds
    /// them as cheaply as the value): drops them for [`Detail::Value`], and for
    /// [`Detail::All`] adds every move, listed by `all` (called only then).
    pub fn finish(
        mut self,
        detail: Detail,
        all: impl FnOnce() -> super::Result<Vec<Move>>,
    ) -> super::Result<Report> {
        self.detail = detail;
        match detail {
            Detail::Value => self.winning_moves.clear(),
            Detail::Winning => {}
            Detail::All => {
                let moves = all()?;
                self.moves = Some(moves.len() as u64);
                self.all_moves = moves;
            }
        }
        Ok(self)
    }

    /// Keeps of `winning` only what the detail asks for (nothing for [`Detail::Value`]).
    pub fn with_winning(mut self, winning: Vec<Move>) -> Report {
        if self.detail.wants_winning() {
            self.winning_moves = winning;
        }
        self
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
        } else if self.detail.wants_winning() && self.outcome == Outcome::P && self.moves != Some(0)
        {
            let _ = writeln!(s, "Every move loses.");
        }
        if self.detail.wants_all() && !self.all_moves.is_empty() {
            let _ = writeln!(s, "Every move ({}):", self.all_moves.len());
            for m in &self.all_moves {
                let value = match &m.grundy {
                    Some(g) => format!("value {g}, "),
                    None => String::new(),
                };
                let _ = writeln!(s, "  {} ({value}{})", m.text, m.outcome);
            }
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
pub(crate) fn one_line(text: &str) -> String {
    text.trim_end().replace('\n', "|")
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

/// The explanation of a value found without valuing the options one by one (only the value
/// was asked for, or a search settled it by a shortcut): says how to see the options' values.
pub fn explain_value(grundy: Option<u64>, outcome: Outcome) -> Vec<String> {
    let what = match (grundy, outcome) {
        (Some(0), _) | (None, Outcome::P) => "every move leaves a position the opponent wins",
        (Some(_), _) | (None, _) => "some move leaves a position the opponent loses",
    };
    vec![format!(
        "Only the value was computed: {what} (ask for every move, --moves all, to see each \
         option's value)."
    )]
}

/// The explanation of an outcome found by asking of each option only whether it is a
/// P-position (the winning moves were asked for, not every option's value): `winning` moves of
/// `moves` win.
pub fn explain_winning(outcome: Outcome, winning: usize, moves: usize) -> Vec<String> {
    if moves == 0 {
        return vec!["No move is left: the player to move loses.".to_string()];
    }
    let line = match outcome {
        Outcome::N if winning == 1 => {
            format!("1 of the {moves} moves leaves a P-position: that move wins.")
        }
        Outcome::N => format!("{winning} of the {moves} moves leave a P-position: each wins."),
        _ => format!(
            "None of the {moves} moves leaves a P-position: whatever the player to move does, \
             the opponent has a winning answer."
        ),
    };
    vec![line]
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
