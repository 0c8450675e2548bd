//! The impartial game model: a game is a set of rules over hashable positions.
//!
//! A [`Game`] value holds the rules (a subtraction set, a board size, a graph); positions are
//! plain values that the solver can memoise by exact key (never by hash alone, so no hash
//! collision can ever produce a wrong value).

use std::hash::Hash;

/// Who wins under optimal play: `N` if the player to move wins, `P` if the previous player does,
/// `D` if neither can force a win (only in loopy games, where play can go on for ever).
///
/// Serializes as the string `"N"`, `"P"` or `"D"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Outcome {
    /// The Next player (the one to move) wins.
    N,
    /// The Previous player wins: every move loses.
    P,
    /// A draw: with best play the game never ends (loopy games only).
    D,
}

impl Outcome {
    /// The outcome of a position with this Grundy value under normal play.
    pub fn from_grundy(g: u64) -> Outcome {
        if g == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// "N", "P" or "D", the notation of the literature and of `--json` output.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::N => "N",
            Outcome::P => "P",
            Outcome::D => "D",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Normal play (the player who cannot move loses) or misère play (that player wins).
///
/// Serializes as `"normal"` or `"misere"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Play {
    /// The player who cannot move loses.
    #[default]
    Normal,
    /// The player who cannot move wins.
    Misere,
}

impl Play {
    /// `Misere` when `misere` is true.
    pub fn from_misere(misere: bool) -> Play {
        if misere {
            Play::Misere
        } else {
            Play::Normal
        }
    }

    /// True under misère play.
    pub fn is_misere(self) -> bool {
        self == Play::Misere
    }
}

/// The rules of a finite impartial game.
///
/// Every play must end: the solver assumes the move graph is acyclic.
pub trait Game {
    /// A position; its `Eq + Hash` must identify positions exactly (memo keys).
    type Position: Clone + Eq + Hash;

    /// Appends every position reachable in one move from `pos` to `out`.
    ///
    /// Only append: `out` may already hold other positions (the solver keeps its whole search
    /// stack in one buffer).
    ///
    /// These are the moves of the whole position, even one that [`Game::components`] splits:
    /// misère search and winning-move lists use them directly.
    fn options(&self, pos: &Self::Position, out: &mut Vec<Self::Position>);

    /// Splits `pos` into independent components whose disjunctive sum it is.
    ///
    /// Returns `false` (and leaves `out` untouched) when `pos` does not split; the default.
    /// A position that splits is valued as the XOR of its components' values, so each
    /// component must itself be a valid position of the same game.
    fn components(&self, _pos: &Self::Position, _out: &mut Vec<Self::Position>) -> bool {
        false
    }

    /// Whether the solver memoises `pos`, a position that [`Game::components`] split into
    /// parts whose values are all known already. The default, `true`, suits components that
    /// cost work to find (pieces of a board, a script's `split`). A game whose sums carry their
    /// parts in the position itself answers `false` for them: reading the parts again and
    /// XOR-ing their values costs less than a memo entry per sum (the million `sum(a, b)`
    /// options of a Kayles script).
    fn memoise_sum(&self, _pos: &Self::Position) -> bool {
        true
    }
}
