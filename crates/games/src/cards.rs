//! The card game: cards in a row, players alternately take the leftmost or rightmost card,
//! each maximising their own total.
//!
//! Not impartial: a zero-sum scoring game. Since the grand total is fixed, maximising one's own
//! total is maximising the margin over the opponent, and the best margin D(i, j) of the player
//! to move on cards i..=j satisfies D(i, j) = max(c(i) − D(i+1, j), c(j) − D(i, j−1)). Filling D
//! by interval length takes O(N²) time and O(N) values; one bit per interval records the best
//! end, so an optimal line of play is read back afterwards (N = 5000 needs 1.6 MB of bits).
//!
//! A scoring game has no winning moves in the N/P sense: the catalogue entry ([`CardsEntry`],
//! the one door of every front end) reports N when the player to move scores at least half,
//! the moves that keep at least half as its winning moves, and in its details the totals, a
//! [`Verdict`] (who scores more), the optimal first moves and an optimal line.
//!
//! ```
//! use grundy_games::cards;
//!
//! // The margins of the player to move on 4 7 2 9, on 7 2 9 and on 4 7 2.
//! assert_eq!(cards::margins(&[4, 7, 2, 9]), (10, 4, -1));
//! assert_eq!(cards::first_total_brute_force(&[4, 7, 2, 9]), 16);
//! ```

use crate::error::{GameError, Result};
use grundy_core::{Move, Outcome};
use serde::Serialize;

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

/// What the card game's report adds to outcome and moves (its `details`).
///
/// JSON: `{"cards": 4, "first_total": 16, "second_total": 6, "verdict": "N", "optimal":
/// ["right"], "line": [Take, …]}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Analysis {
    /// Number of cards.
    cards: usize,
    /// The first player's total under optimal play.
    first_total: i64,
    /// The second player's total.
    second_total: i64,
    /// Who scores more.
    verdict: Verdict,
    /// The end of each optimal first move (both when they tie; none for no cards).
    optimal: Vec<End>,
    /// An optimal line of play (the left end when both are optimal).
    line: Vec<Take>,
}

/// Solves the game on `cards` in O(N²): both totals, the verdict, every optimal first move and
/// an optimal line. At most [`MAX_CARDS`] cards, each within ±[`MAX_ABS_VALUE`].
fn analyze(cards: &[i64]) -> Result<Analysis> {
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
        return Ok(Analysis {
            cards: 0,
            first_total: 0,
            second_total: 0,
            verdict: Verdict::Draw,
            optimal: Vec::new(),
            line: Vec::new(),
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
    let second_total = total - first_total;
    Ok(Analysis {
        cards: n,
        first_total,
        second_total,
        verdict: match first_total.cmp(&second_total) {
            std::cmp::Ordering::Greater => Verdict::N,
            std::cmp::Ordering::Less => Verdict::P,
            std::cmp::Ordering::Equal => Verdict::Draw,
        },
        optimal: best_first_moves,
        line,
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

/// Rows of at most this many cards get their optimal line in the explanation unless the
/// whole line is asked for (the param `line`).
pub const SHOW_LINE_UP_TO: usize = 40;

/// The param of `cards`: the whole optimal line, however long the row.
const LINE: grundy_core::catalogue::Param = grundy_core::catalogue::Param::flag(
    "line",
    "the whole optimal line in the explanation, however long the row",
);

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
            params: vec![LINE],
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
        // N when the player to move scores at least half.
        let outcome = if a.first_total >= a.second_total {
            Outcome::N
        } else {
            Outcome::P
        };
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
        let best: Vec<String> = a
            .optimal
            .iter()
            .map(|&end| {
                let card = if end == End::Left {
                    cards[0]
                } else {
                    cards[cards.len() - 1]
                };
                format!("the {} card ({card})", end.as_str())
            })
            .collect();
        if !best.is_empty() {
            r.explanation.push(format!(
                "Best move: take {}: a card is worth its value minus the margin the opponent \
                 then secures on the rest of the row.",
                best.join(" or ")
            ));
        }
        if ask.settings.flag(LINE.name) || cards.len() <= SHOW_LINE_UP_TO {
            if !a.line.is_empty() {
                r.explanation.push("An optimal line:".to_string());
            }
            for t in &a.line {
                let who = if t.player == 1 { "first" } else { "second" };
                r.explanation
                    .push(format!("  {who:>6} takes {} ({})", t.value, t.end.as_str()));
            }
        } else {
            r.explanation.push(format!(
                "(the optimal line has {} turns: the details list it, the param line writes it \
                 out)",
                a.line.len()
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

    #[test]
    fn totals_and_lines_against_the_brute_force() {
        for row in [
            vec![4, 7, 2, 9],
            vec![1, 2, 5, 2],
            vec![3, 3],
            vec![-5, 1],
            vec![1, 5, 1],
        ] {
            let a = analyze(&row).unwrap();
            assert_eq!(a.first_total, first_total_brute_force(&row), "{row:?}");
            // The line is optimal: the first player's cards add up to the first total.
            let first: i64 = a
                .line
                .iter()
                .filter(|t| t.player == 1)
                .map(|t| t.value)
                .sum();
            assert_eq!(first, a.first_total, "{row:?}");
        }
        let a = analyze(&[4, 7, 2, 9]).unwrap();
        assert_eq!(
            (a.first_total, a.second_total, a.verdict),
            (16, 6, Verdict::N)
        );
        assert_eq!(a.optimal, [End::Right]);
        assert_eq!(analyze(&[3, 3]).unwrap().verdict, Verdict::Draw);
    }
}
