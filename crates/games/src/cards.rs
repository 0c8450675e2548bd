//! The card game: cards in a row, players alternately take the leftmost or rightmost card,
//! each maximising their own total.
//!
//! Not impartial: a zero-sum scoring game. Since the grand total is fixed, maximising one's own
//! total is maximising the margin over the opponent, and the best margin D(i, j) of the player
//! to move on cards i..=j satisfies D(i, j) = max(c(i) − D(i+1, j), c(j) − D(i, j−1)). Filling D
//! by interval length takes O(N²) time and O(N) values; one bit per interval records the best
//! end, so an optimal line of play is read back afterwards (N = 5000 needs 1.6 MB of bits).

use crate::error::{GameError, Result};

/// The most cards accepted (quadratic time).
pub const MAX_CARDS: usize = 20_000;

/// The largest absolute card value accepted (keeps every total far from overflow).
pub const MAX_ABS_VALUE: i64 = 1_000_000_000_000;

/// Which end of the row a card is taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    /// 0 for the first player, 1 for the second.
    pub player: u8,
    /// The end taken from.
    pub end: End,
    /// Position of the card in the original row (0-based).
    pub index: usize,
    /// Its value.
    pub value: i64,
}

/// The solved game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The first player's total under optimal play.
    pub first_total: i64,
    /// The second player's total.
    pub second_total: i64,
    /// Every optimal first move (both ends when they tie; empty for no cards).
    pub best_first_moves: Vec<End>,
    /// An optimal line of play (the left end when both are optimal).
    pub line: Vec<Take>,
}

/// Solves the game on `cards` in O(N²).
pub fn solve(cards: &[i64]) -> Result<Analysis> {
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
            first_total: 0,
            second_total: 0,
            best_first_moves: Vec::new(),
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
        let player = (turn % 2) as u8;
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
    Ok(Analysis {
        first_total,
        second_total: total - first_total,
        best_first_moves,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_card_and_empty() {
        let a = solve(&[5]).unwrap();
        assert_eq!((a.first_total, a.second_total), (5, 0));
        assert_eq!(solve(&[]).unwrap().first_total, 0);
        assert!(solve(&[MAX_ABS_VALUE + 1]).is_err());
    }
}
