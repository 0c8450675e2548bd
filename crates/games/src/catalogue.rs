//! What the games of this crate share as catalogue entries: a memoised search held to the
//! caller's [`Budget`], rows of a grid read from text, moves and reports put together.
//!
//! Each game's module holds its own entry (`fib::FibEntry`, `cram::CramEntry`, …) and rules;
//! [`crate::entries`] lists them.

use std::cell::Cell;

use grundy_core::catalogue::{Budget, Error, Grundy, Move, Position, Result};
use grundy_core::{Game, Outcome, Solver};

/// The most legal moves a position may have for [`grundy_core::catalogue::Rules::moves`]
/// to list them all (each is valued).
pub const MAX_MOVES: u64 = 20_000;

/// A game whose search stops opening positions past a limit: past it a position has no
/// options, and [`Search::run`] voids the answer.
pub(crate) struct Budgeted<G> {
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
            // A sum is memoised too: it counts as a position.
            self.opened.set(self.opened.get() + 1);
        }
        split
    }

    fn memoise_sum(&self, pos: &G::Position) -> bool {
        self.inner.memoise_sum(pos)
    }
}

/// The generic [`Solver`] over a game, each query held to a [`Budget`] (positions opened, and
/// the memo's estimated bytes). The memo is kept between queries of one rules object.
pub(crate) struct Search<G: Game> {
    solver: Solver<Budgeted<G>>,
}

impl<G: Game> Search<G> {
    /// A search over `game` with an empty memo.
    pub(crate) fn new(game: G) -> Self {
        Search {
            solver: Solver::new(Budgeted {
                inner: game,
                limit: Cell::new(u64::MAX),
                opened: Cell::new(0),
            }),
        }
    }

    /// The game searched.
    pub(crate) fn game(&self) -> &G {
        &self.solver.game().inner
    }

    /// Runs `f` under `budget`: the memo holds at most what the budget allows, and an answer
    /// that needed more is refused as a limit naming `what` (the memo is then cleared, since
    /// its entries may be void).
    pub(crate) fn run<T>(
        &mut self,
        budget: &Budget,
        what: &str,
        f: impl FnOnce(&mut Solver<Budgeted<G>>) -> T,
    ) -> Result<T> {
        let entry = std::mem::size_of::<G::Position>() + 48;
        let cap = budget.max_entries(entry);
        if (self.solver.memo_len() + self.solver.misere_memo_len()) as u64 > cap {
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
            return Err(Error::limit(format!(
                "{what}: the search needs more than {cap} positions (the budget: {} positions, \
                 {} MiB)",
                budget.max_positions,
                budget.max_bytes >> 20
            )));
        }
        Ok(out)
    }

    /// Positions memoised so far (normal and misère play).
    pub(crate) fn memo_len(&self) -> usize {
        self.solver.memo_len() + self.solver.misere_memo_len()
    }
}

/// A number for a move's words: in full up to 40 digits, else its first 12 digits and its
/// length (the position, `to`, always has it in full).
pub(crate) fn shown(n: &dashu::integer::UBig) -> String {
    let s = n.to_string();
    if s.len() <= 40 {
        s
    } else {
        format!("{}… ({} digits)", &s[..12], s.len())
    }
}

/// Refuses a position with more than [`MAX_MOVES`] moves: `count` moves, `what` names it.
pub(crate) fn check_moves(count: u64, what: &str) -> Result<()> {
    if count > MAX_MOVES {
        return Err(Error::limit(format!(
            "{what} has {count} moves: too many to list (at most {MAX_MOVES})"
        )));
    }
    Ok(())
}

/// A move with its texts (the short one cut to 30 columns) and the value it leaves.
pub(crate) fn make_move(
    text: String,
    short: &str,
    to: Position,
    outcome: Outcome,
    grundy: Option<u64>,
) -> Move {
    Move {
        text,
        short: grundy_core::catalogue::shorten(short, 30),
        to,
        outcome,
        grundy: grundy.map(Grundy::Finite),
    }
}

/// The outcome of a position with no move under misère play is N; otherwise N iff some option
/// is a misère P-position.
pub(crate) fn misere_from_options(moves: &[Move]) -> Outcome {
    if moves.is_empty() || moves.iter().any(Move::wins) {
        Outcome::N
    } else {
        Outcome::P
    }
}

/// The rows of a grid written as lines or `|`-separated: each row trimmed, blank rows at the
/// ends dropped. A blank row between rows is refused (one grid per position), as is an
/// empty text.
pub(crate) fn grid_rows<'a>(text: &'a str, what: &str) -> Result<Vec<&'a str>> {
    let rows: Vec<&str> = text.split(['\n', '|']).map(str::trim).collect();
    let first = rows.iter().position(|r| !r.is_empty());
    let last = rows.iter().rposition(|r| !r.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return Err(Error::input(format!("no {what} in the position")));
    };
    let rows = rows[first..=last].to_vec();
    if let Some(i) = rows.iter().position(|r| r.is_empty()) {
        return Err(Error::input(format!(
            "row {} of the {what} is blank (a position is one {what})",
            i + 1
        )));
    }
    Ok(rows)
}

/// `RxC` (or `R×C`, `R*C`) as (rows, columns), when the text has that form.
pub(crate) fn dimensions(text: &str) -> Option<Result<(usize, usize)>> {
    let t = text.trim();
    let (r, c) = t.split_once(['x', 'X', '×', '*'])?;
    let (r, c) = (r.trim(), c.trim());
    if r.is_empty() || c.is_empty() || !(r.chars().chain(c.chars()).all(|ch| ch.is_ascii_digit())) {
        return None;
    }
    Some(match (r.parse(), c.parse()) {
        (Ok(r), Ok(c)) => Ok((r, c)),
        _ => Err(Error::limit(format!("board {t} is too large"))),
    })
}
