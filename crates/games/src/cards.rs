//! The card game: cards in a row, players alternately take the leftmost or rightmost card,
//! each maximising their own total.
//!
//! Not impartial: a zero-sum scoring game. Since the grand total is fixed, maximising one's own
//! total is maximising the margin over the opponent, and the best margin D(i, j) of the player
//! to move on cards i..=j satisfies D(i, j) = max(c(i) − D(i+1, j), c(j) − D(i, j−1)). Filling D
//! by interval length takes O(N²) time and O(N) values; one bit per interval records the best
//! end, so an optimal line of play is read back afterwards (N = 5000 needs 1.6 MB of bits).
//!
//! A scoring game has no winning moves in the N/P sense: [`analyze`] reports the totals, a
//! [`Verdict`] (who scores more), the `optimal_moves` (every first move that secures the best
//! margin) and an optimal line, as a serializable [`CardsAnalysis`].
//!
//! ```
//! use grundy_games::cards::{self, End, Verdict};
//!
//! let a = cards::analyze(&[4, 7, 2, 9])?;
//! assert_eq!((a.first_total, a.second_total), (16, 6));
//! assert_eq!(a.outcome, Verdict::N);
//! assert_eq!(a.optimal_moves[0].at["end"], "right");
//! assert_eq!(a.optimal_moves[0].text, "take the right card (9)");
//! # Ok::<(), grundy_games::GameError>(())
//! ```

use crate::error::{GameError, Result};
use grundy_core::{Move, Outcome};
use serde::Serialize;
use std::fmt::Write as _;

/// The most cards accepted (quadratic time).
pub const MAX_CARDS: usize = 20_000;

/// The largest absolute card value accepted (keeps every total far from overflow).
pub const MAX_ABS_VALUE: i64 = 1_000_000_000_000;

/// Which end of the row a card is taken from; "left" or "right" in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// The leftmost card.
    Left,
    /// The rightmost card.
    Right,
}

impl End {
    /// "left" or "right".
    pub fn as_str(self) -> &'static str {
        match self {
            End::Left => "left",
            End::Right => "right",
        }
    }
}

/// One turn of an optimal line.
///
/// JSON: `{"player": 1, "end": "right", "index": 3, "value": 9}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Take {
    /// 1 for the first player, 2 for the second.
    pub player: u8,
    /// The end taken from.
    pub end: End,
    /// Position of the card in the original row (0-based).
    pub index: usize,
    /// Its value.
    pub value: i64,
}

/// Who scores more under optimal play: "N" (the first player, who moves), "P" (the second) or
/// "draw". A scoring game's result, not the normal-play outcome: a draw is possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Verdict {
    /// The first player (the one to move) scores more.
    N,
    /// The second player scores more.
    P,
    /// Equal totals.
    #[serde(rename = "draw")]
    Draw,
}

impl Verdict {
    /// "N", "P" or "draw".
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::N => "N",
            Verdict::P => "P",
            Verdict::Draw => "draw",
        }
    }
}

/// The move that takes the card at `end` of the row `cards` (not empty), leaving a position
/// of that outcome for the player then to move (`P`: the mover scores at least half). The
/// position left is the catalogue's (kind `cards`); [`Move::at`] holds
/// `{"end": "right", "index": 3, "value": 9, "rest": [0, 3]}`: the end, the card's place
/// and value, and the cards left as the half-open index range of the row.
fn take_card(cards: &[i64], end: End, outcome: Outcome) -> Move {
    let n = cards.len();
    let (index, rest) = match end {
        End::Left => (0, [1, n]),
        End::Right => (n - 1, [0, n - 1]),
    };
    let value = cards[index];
    let text = format!("take the {} card ({value})", end.as_str());
    let short = if n == 1 {
        format!("take {value}")
    } else {
        format!("{} ({value})", end.as_str())
    };
    let to = CardsRules::position(&cards[rest[0]..rest[1]]);
    Move::new(text, &short, to, outcome, None)
        .at("end", end)
        .at("index", index)
        .at("value", value)
        .at("rest", rest)
}

/// The game analysed by [`analyze`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardsAnalysis {
    /// Number of cards.
    pub cards: usize,
    /// The first player's total under optimal play.
    pub first_total: i64,
    /// The second player's total.
    pub second_total: i64,
    /// Who scores more.
    pub outcome: Verdict,
    /// Every optimal first move (both ends when they tie; empty for no cards). Its
    /// [`Move::at`] is `{"end": "right", "index": 3, "value": 9, "rest": [0, 3]}`: the end, the
    /// card's place and value, and the cards left as the half-open index range of the row.
    /// Its outcome is `P` when it secures at least half.
    pub optimal_moves: Vec<Move>,
    /// An optimal line of play (the left end when both are optimal).
    pub line: Vec<Take>,
    /// The end and value of each optimal first move, kept typed beside the moves so that
    /// [`describe`](CardsAnalysis::describe) never reads the JSON.
    #[serde(skip)]
    best: Vec<(End, i64)>,
}

/// Solves the game on `cards` in O(N²): both totals, the verdict, every optimal first move and
/// an optimal line. At most [`MAX_CARDS`] cards, each within ±[`MAX_ABS_VALUE`].
pub fn analyze(cards: &[i64]) -> Result<CardsAnalysis> {
    let n = cards.len();
    if n > MAX_CARDS {
        return Err(GameError::TooLarge(format!(
            "{n} cards (at most {MAX_CARDS})"
        )));
    }
    if let Some(v) = cards
        .iter()
        .find(|v| v.unsigned_abs() > MAX_ABS_VALUE as u64)
    {
        return Err(GameError::Invalid(format!(
            "card value {v} out of range ±{MAX_ABS_VALUE}"
        )));
    }
    if n == 0 {
        return Ok(CardsAnalysis {
            cards: 0,
            first_total: 0,
            second_total: 0,
            outcome: Verdict::Draw,
            optimal_moves: Vec::new(),
            line: Vec::new(),
            best: Vec::new(),
        });
    }
    // diff[i] = D(i, i + len − 1) for the current length; `left` bit per interval.
    let mut diff: Vec<i64> = cards.to_vec();
    let tri = |i: usize, j: usize| j * (j + 1) / 2 + i; // interval (i, j), i ≤ j
    let mut left = vec![0u64; (n * (n + 1) / 2).div_ceil(64)];
    let set = |bits: &mut Vec<u64>, k: usize| bits[k / 64] |= 1 << (k % 64);
    for i in 0..n {
        set(&mut left, tri(i, i));
    }
    let mut tie_at_root = false;
    for len in 2..=n {
        for i in 0..=n - len {
            let j = i + len - 1;
            let take_left = cards[i] - diff[i + 1];
            let take_right = cards[j] - diff[i];
            if take_left >= take_right {
                set(&mut left, tri(i, j));
            }
            if len == n && take_left == take_right {
                tie_at_root = true;
            }
            diff[i] = take_left.max(take_right);
        }
    }
    let total: i64 = cards.iter().sum();
    let first_total = (total + diff[0]) / 2;
    let is_left = |i: usize, j: usize| left[tri(i, j) / 64] >> (tri(i, j) % 64) & 1 == 1;
    let mut line = Vec::with_capacity(n);
    let (mut i, mut j) = (0usize, n - 1);
    for turn in 0..n {
        let player = (turn % 2) as u8 + 1;
        if is_left(i, j) {
            line.push(Take {
                player,
                end: End::Left,
                index: i,
                value: cards[i],
            });
            i += 1;
        } else {
            line.push(Take {
                player,
                end: End::Right,
                index: j,
                value: cards[j],
            });
            j = j.wrapping_sub(1);
        }
    }
    let best_first_moves = if tie_at_root {
        vec![End::Left, End::Right]
    } else if is_left(0, n - 1) {
        vec![End::Left]
    } else {
        vec![End::Right]
    };
    // An optimal move secures the best margin diff[0]: at least half when it is not negative.
    let secures = if diff[0] >= 0 { Outcome::P } else { Outcome::N };
    let best: Vec<(End, i64)> = best_first_moves
        .into_iter()
        .map(|end| match end {
            End::Left => (end, cards[0]),
            End::Right => (end, cards[n - 1]),
        })
        .collect();
    let optimal_moves = best
        .iter()
        .map(|&(end, _)| take_card(cards, end, secures))
        .collect();
    let second_total = total - first_total;
    Ok(CardsAnalysis {
        cards: n,
        first_total,
        second_total,
        outcome: match first_total.cmp(&second_total) {
            std::cmp::Ordering::Greater => Verdict::N,
            std::cmp::Ordering::Less => Verdict::P,
            std::cmp::Ordering::Equal => Verdict::Draw,
        },
        optimal_moves,
        line,
        best,
    })
}

/// The first player's optimal total by exhaustive minimax (exponential): the test oracle.
pub fn first_total_brute_force(cards: &[i64]) -> i64 {
    fn best(cards: &[i64]) -> i64 {
        // Returns the mover's best total.
        match cards.len() {
            0 => 0,
            _ => {
                let total: i64 = cards.iter().sum();
                let rest_left = total - cards[0];
                let rest_right = total - cards[cards.len() - 1];
                let l = cards[0] + rest_left - best(&cards[1..]);
                let r = cards[cards.len() - 1] + rest_right - best(&cards[..cards.len() - 1]);
                l.max(r)
            }
        }
    }
    best(cards)
}

/// Rows of at most this many cards get their optimal line in the text by default.
pub const SHOW_LINE_UP_TO: usize = 40;

/// How [`CardsAnalysis::describe`] writes the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DescribeOptions {
    /// Write the whole optimal line even for rows longer than [`SHOW_LINE_UP_TO`].
    pub full_line: bool,
}

impl CardsAnalysis {
    /// The analysis as text for a reader, the words every front end shows (`grundy cards`):
    /// both totals, the verdict, the best first move and why, and the optimal line (for rows
    /// up to [`SHOW_LINE_UP_TO`] cards, or always with `options.full_line`).
    ///
    /// ```
    /// use grundy_games::cards::{self, DescribeOptions};
    ///
    /// let text = cards::analyze(&[4, 7, 2, 9])?.describe(DescribeOptions::default());
    /// assert_eq!(text.lines().nth(1), Some("First player's total: 16"));
    /// # Ok::<(), grundy_games::GameError>(())
    /// ```
    pub fn describe(&self, options: DescribeOptions) -> String {
        let verdict = match self.outcome {
            Verdict::N => "N - the first player scores more",
            Verdict::P => "P - the second player scores more",
            Verdict::Draw => "draw - equal totals",
        };
        let mut s = format!(
            "Card game with {} cards\nFirst player's total: {}\nSecond player's total: {}\n\
             Outcome: {verdict}\n",
            self.cards, self.first_total, self.second_total
        );
        let best: Vec<String> = self
            .best
            .iter()
            .map(|(end, value)| format!("the {} card ({value})", end.as_str()))
            .collect();
        let _ = writeln!(
            s,
            "Best first move: take {}: it maximises the card's value minus the margin the \
             opponent can then secure on the remaining row.",
            best.join(" or ")
        );
        if options.full_line || self.cards <= SHOW_LINE_UP_TO {
            s.push_str("Optimal line:\n");
            for t in &self.line {
                let who = if t.player == 1 { "first" } else { "second" };
                let _ = writeln!(s, "  {who:>6} takes {} ({})", t.value, t.end.as_str());
            }
        } else {
            let _ = writeln!(s, "(the optimal line has {} turns)", self.line.len());
        }
        s
    }
}

/// The best margins of the player to move on `cards`, on `cards` without its left card and
/// without its right card: (D(all), D(1..), D(..n−1)), in O(N²) time and O(N) memory (0 for
/// an empty row).
pub fn margins(cards: &[i64]) -> (i64, i64, i64) {
    let n = cards.len();
    if n == 0 {
        return (0, 0, 0);
    }
    let mut diff: Vec<i64> = cards.to_vec();
    let (mut without_left, mut without_right) = (0, 0);
    for len in 2..=n {
        if len == n {
            (without_left, without_right) = (diff[1], diff[0]);
        }
        for i in 0..=n - len {
            let j = i + len - 1;
            diff[i] = (cards[i] - diff[i + 1]).max(cards[j] - diff[i]);
        }
    }
    (diff[0], without_left, without_right)
}

/// The card game in the catalogue: `cards` (alias `card-game`), a scoring game. A position is
/// the row of card values, left to right, separated by spaces or commas (`4 7 2 9`; integers
/// within ±10^12, at most 20 000 cards; an empty text is the empty row). Kind `cards`:
/// `{"cards": [4, 7, 2, 9]}`.
///
/// Its reports are scoring reports: `outcome` is N when the player to move can score at least
/// half of the row's total, `grundy` is null, `details` holds both totals and an optimal line.
/// A move's `outcome` is P when the move keeps at least half of the row (the card taken
/// counted) for the player who makes it: such moves are the report's winning moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct CardsEntry;

impl grundy_core::catalogue::Entry for CardsEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "cards".into(),
            aliases: vec!["card-game".into()],
            summary: "The card game: take the leftmost or rightmost card of a row; the higher \
                      total wins (a scoring game)"
                .into(),
            example: "4 7 2 9".into(),
            example_game: None,
            position: format!(
                "the card values left to right, separated by spaces or commas (integers within \
                 ±{MAX_ABS_VALUE}, at most {MAX_CARDS} cards)"
            ),
            kind: "cards".into(),
            family: false,
            misere: false,
            loopy: false,
            scoring: true,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        matches!(name, "cards" | "card-game")
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(CardsRules))
    }
}

/// The rules of the card game for the catalogue: the O(N²) margin DP.
#[derive(Clone, Copy, Debug, Default)]
pub struct CardsRules;

impl CardsRules {
    fn read(text: &str) -> grundy_core::catalogue::Result<Vec<i64>> {
        let cards = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                let digits: String = t.chars().filter(|&c| c != '_').collect();
                digits.parse::<i64>().map_err(|_| {
                    grundy_core::catalogue::Error::input(format!(
                        "card value {} is not an integer",
                        grundy_core::text::quote(t)
                    ))
                })
            })
            .collect::<grundy_core::catalogue::Result<Vec<i64>>>()?;
        if cards.len() > MAX_CARDS {
            return Err(GameError::TooLarge(format!(
                "{} cards (at most {MAX_CARDS})",
                cards.len()
            ))
            .into());
        }
        if let Some(v) = cards
            .iter()
            .find(|v| v.unsigned_abs() > MAX_ABS_VALUE as u64)
        {
            return Err(GameError::Invalid(format!(
                "card value {v} out of range ±{MAX_ABS_VALUE}"
            ))
            .into());
        }
        Ok(cards)
    }

    fn position(cards: &[i64]) -> grundy_core::catalogue::Position {
        let text = cards
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        grundy_core::catalogue::Position::text("cards", text).with("cards", cards)
    }

    fn list(cards: &[i64]) -> Vec<grundy_core::catalogue::Move> {
        let n = cards.len();
        if n == 0 {
            return Vec::new();
        }
        let (_, without_left, without_right) = margins(cards);
        let keeps = |card: i64, rest_margin: i64| {
            if card - rest_margin >= 0 {
                Outcome::P
            } else {
                Outcome::N
            }
        };
        if n == 1 {
            return vec![take_card(cards, End::Left, keeps(cards[0], 0))];
        }
        let left = take_card(cards, End::Left, keeps(cards[0], without_left));
        let right = take_card(cards, End::Right, keeps(cards[n - 1], without_right));
        vec![left, right]
    }
}

impl grundy_core::catalogue::Rules for CardsRules {
    fn name(&self) -> String {
        "cards".into()
    }

    fn parse(
        &self,
        text: &str,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Position> {
        Ok(Self::position(&Self::read(text)?))
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let play = ask.play;
        refuse_misere(play)?;
        Ok(Self::list(&Self::read(&pos.text)?))
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        let play = ask.play;
        let budget = &ask.budget;
        refuse_misere(play)?;
        let cards = Self::read(&pos.text)?;
        let n = cards.len() as u64;
        let bytes = n * (n + 1) / 16;
        if bytes > budget.max_bytes {
            return Err(grundy_core::catalogue::Error::limit(format!(
                "{n} cards need {} MiB for the optimal line (the budget: {} MiB)",
                bytes >> 20,
                budget.max_bytes >> 20
            )));
        }
        let a = analyze(&cards)?;
        let moves = Self::list(&cards);
        // N when the player to move scores at least half: the one rule of [`Answer`].
        let outcome = grundy_core::Answer::outcome(&a);
        let mut r = grundy_core::catalogue::Report::new(
            "cards",
            Self::position(&cards),
            play,
            outcome,
            None,
        );
        r.scoring = true;
        r.moves = Some(moves.len() as u64);
        let total = a.first_total + a.second_total;
        r.explanation = vec![format!(
            "With best play the player to move scores {} of the {total} points, the other \
             player {}.",
            a.first_total, a.second_total
        )];
        if let Some(best) = a.optimal_moves.first() {
            r.explanation.push(format!(
                "Best move: {}: a card is worth its value minus the margin the opponent then \
                 secures on the rest of the row.",
                best.text
            ));
        }
        r.details = serde_json::to_value(&a).unwrap_or_default();
        r.detail = ask.detail;
        Ok(r.with_moves(moves))
    }
}

/// The card game is a scoring game: misère play has no meaning for it.
fn refuse_misere(play: grundy_core::catalogue::Play) -> grundy_core::catalogue::Result<()> {
    if play.is_misere() {
        return Err(grundy_core::catalogue::Error::input(
            "the card game is a scoring game: misère play is not supported",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_card_and_empty() {
        let a = analyze(&[5]).unwrap();
        assert_eq!((a.first_total, a.second_total), (5, 0));
        assert_eq!(analyze(&[]).unwrap().first_total, 0);
        assert!(analyze(&[MAX_ABS_VALUE + 1]).is_err());
    }
}
