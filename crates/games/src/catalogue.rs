//! What the games of this crate share as catalogue entries: a memoised search held to the
//! caller's [`Budget`](grundy_core::catalogue::Budget) (the core's
//! [`Search`]), rows of a grid read from text, moves and
//! reports put together.
//!
//! Each game's module holds its own entry (`fib::FibEntry`, `cram::CramEntry`, …) and rules;
//! [`crate::entries`] lists them.

use grundy_core::catalogue::{Error, Move, Result};
use grundy_core::Outcome;

/// The most legal moves a position may have for [`grundy_core::catalogue::Rules::moves`]
/// to list them all (each is valued).
pub const MAX_MOVES: u64 = 20_000;

pub(crate) use grundy_core::catalogue::Search;

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

/// `RxC` (or `R×C`) as (rows, columns), when the text has that form, each side a count in the
/// one grammar (`2^3x1e1`); with `pair`, `R C` too (two counts, as `grundy cram 5 7` takes
/// them, where no other reading exists).
pub(crate) fn dimensions(text: &str, pair: bool) -> Option<Result<(usize, usize)>> {
    let t = text.trim();
    let (r, c) = t.split_once(['x', 'X', '×']).or_else(|| {
        pair.then(|| t.split_once(|ch: char| ch.is_whitespace() || ch == ','))
            .flatten()
    })?;
    let (r, c) = (r.trim(), c.trim());
    let numeric = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|ch| ch.is_ascii_digit() || ch == '-' || ch == '+')
            && s.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "^*_+-.".contains(ch))
    };
    if !numeric(r) || !numeric(c) {
        return None;
    }
    let side = |s: &str| -> Result<usize> {
        let n = grundy_core::count::parse_u64(s)
            .map_err(|e| Error::input(format!("board size: {e}")))?;
        usize::try_from(n).map_err(|_| Error::limit(format!("board {t} is too large")))
    };
    Some(side(r).and_then(|r| Ok((r, side(c)?))))
}
