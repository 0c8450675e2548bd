//! Fibonacci Nim and its k-multiplier family, solved from the greedy (Zeckendorf) representation.
//!
//! One pile of `n` counters. The first move takes 1..n−1 counters; afterwards a player may take
//! at most `k` times what the opponent just took (`k = 2` is Fibonacci Nim); taking the last
//! counter wins. A position is a pile and the current limit (the most the mover may take).
//!
//! The losing pile sizes are H(0) = 1 and H(j+1) = H(j) + H(m), m = min{i : k·H(i) ≥ H(j)}
//! (the Fibonacci numbers for k = 2, the powers of two for k = 1). Every n ≥ 1 is uniquely a sum
//! of these chosen greedily (the Zeckendorf representation for k = 2), and the position
//! (n, limit) is a first-player win exactly when the limit reaches the smallest term of that
//! representation; taking that term is a winning move. [`MultiplierNim`] answers for piles of
//! any size (exact [`UBig`] arithmetic); [`MoveTable`] lists every winning move for piles up to
//! millions; [`GrundyTable`] gives Grundy values of small positions; [`textbook`] keeps the
//! classic dynamic programs as independent checks.

use crate::error::{GameError, Result};
use dashu::integer::UBig;
use grundy_core::Outcome;

/// The largest multiplier accepted: beyond it the losing sizes grow too slowly to list.
pub const MAX_MULTIPLIER: u64 = 1000;

/// At most this many losing sizes are generated (guards absurd piles with a large `k`).
const MAX_LOSING_SIZES: usize = 5_000_000;

/// The k-multiplier take-away game (Fibonacci Nim for k = 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiplierNim {
    k: u64,
}

/// The solution of one position: who wins, why, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Counters in the pile.
    pub pile: UBig,
    /// The most the player to move may take (already capped at the pile).
    pub limit: UBig,
    /// `N` when the player to move wins.
    pub outcome: Outcome,
    /// The greedy representation of the pile, largest term first (empty for an empty pile).
    pub representation: Vec<UBig>,
    /// The canonical winning move (the smallest term), when the player to move wins.
    pub winning_move: Option<UBig>,
}

impl MultiplierNim {
    /// The game where each move takes at most `k` times the previous one; `1 ≤ k ≤ 1000`.
    pub fn new(k: u64) -> Result<Self> {
        if k == 0 || k > MAX_MULTIPLIER {
            return Err(GameError::Invalid(format!(
                "multiplier {k} out of range 1..={MAX_MULTIPLIER}"
            )));
        }
        Ok(MultiplierNim { k })
    }

    /// Fibonacci Nim (k = 2).
    pub fn fibonacci() -> Self {
        MultiplierNim { k: 2 }
    }

    /// The multiplier k.
    pub fn k(&self) -> u64 {
        self.k
    }

    /// The losing pile sizes H(0) < H(1) < … that are ≤ `n` (at least H(0) = 1), ascending.
    pub fn losing_sizes(&self, n: &UBig) -> Result<Vec<UBig>> {
        let mut h = vec![UBig::ONE];
        let mut m = 0usize;
        loop {
            let last = h.last().expect("h starts non-empty");
            if last > n {
                h.pop();
                if h.is_empty() {
                    h.push(UBig::ONE);
                }
                return Ok(h);
            }
            if h.len() >= MAX_LOSING_SIZES {
                return Err(GameError::TooLarge(format!(
                    "pile too large for multiplier {}: more than {MAX_LOSING_SIZES} losing sizes",
                    self.k
                )));
            }
            // m = min{i : k·H(i) ≥ H(j)} never decreases as j grows.
            while &h[m] * self.k < *last {
                m += 1;
            }
            let next = last + &h[m];
            h.push(next);
        }
    }

    /// The greedy representation of `n`: its terms, largest first (empty for `n = 0`).
    ///
    /// Consecutive terms satisfy k·smaller < larger, which makes the representation unique.
    pub fn representation(&self, n: &UBig) -> Result<Vec<UBig>> {
        if n.is_zero() {
            return Ok(Vec::new());
        }
        let h = self.losing_sizes(n)?;
        let mut rest = n.clone();
        let mut terms = Vec::new();
        for term in h.iter().rev() {
            if rest.is_zero() {
                break;
            }
            if *term <= rest {
                rest -= term;
                terms.push(term.clone());
            }
        }
        debug_assert!(rest.is_zero());
        Ok(terms)
    }

    /// Solves the position (pile, limit): the mover may take 1..=min(limit, pile) counters.
    pub fn analyse(&self, pile: &UBig, limit: &UBig) -> Result<Analysis> {
        let limit = if limit > pile {
            pile.clone()
        } else {
            limit.clone()
        };
        let representation = self.representation(pile)?;
        let winning_move = match representation.last() {
            Some(smallest) if *smallest <= limit => Some(smallest.clone()),
            _ => None,
        };
        let outcome = if winning_move.is_some() {
            Outcome::N
        } else {
            Outcome::P
        };
        Ok(Analysis {
            pile: pile.clone(),
            limit,
            outcome,
            representation,
            winning_move,
        })
    }

    /// Solves the opening position of a pile of `n`: the first move takes 1..n−1.
    pub fn analyse_opening(&self, pile: &UBig) -> Result<Analysis> {
        let limit = if pile.is_zero() {
            UBig::ZERO
        } else {
            pile - UBig::ONE
        };
        self.analyse(pile, &limit)
    }
}

/// The smallest representation term of every pile up to a bound: every winning move at once.
///
/// A move taking `a` from (n, limit) wins iff `a ≤ limit` and either it empties the pile or
/// k·a is smaller than the smallest term of n − a (the opponent then cannot take it).
#[derive(Clone, Debug)]
pub struct MoveTable {
    k: u64,
    /// `smallest[m]` = smallest greedy term of m; `smallest[0]` = u64::MAX (no term).
    smallest: Vec<u64>,
}

/// The largest pile a [`MoveTable`] may cover (8 bytes per pile).
pub const MAX_TABLE_PILE: u64 = 10_000_000;

impl MoveTable {
    /// Tabulates piles `0..=n_max` for the multiplier of `game`, in O(n_max).
    pub fn new(game: MultiplierNim, n_max: u64) -> Result<Self> {
        if n_max > MAX_TABLE_PILE {
            return Err(GameError::TooLarge(format!(
                "pile {n_max} too large to list every move (at most {MAX_TABLE_PILE})"
            )));
        }
        let k = game.k;
        let len = usize::try_from(n_max + 1)
            .map_err(|_| GameError::TooLarge(format!("pile {n_max} too large")))?;
        let mut h: Vec<u64> = vec![1];
        let mut m = 0usize;
        let mut smallest = vec![u64::MAX; len];
        let mut top = 0usize; // index of the largest H ≤ current pile
        for pile in 1..=n_max {
            // Extend H past `pile` if needed.
            while *h.last().expect("non-empty") <= pile {
                let last = *h.last().expect("non-empty");
                while h[m].saturating_mul(k) < last {
                    m += 1;
                }
                h.push(last.saturating_add(h[m]));
            }
            while top + 1 < h.len() && h[top + 1] <= pile {
                top += 1;
            }
            let rest = pile - h[top];
            smallest[pile as usize] = if rest == 0 {
                pile
            } else {
                smallest[rest as usize]
            };
        }
        Ok(MoveTable { k, smallest })
    }

    /// The largest pile covered.
    pub fn max_pile(&self) -> u64 {
        (self.smallest.len() - 1) as u64
    }

    /// The smallest term of the greedy representation of `pile` (None for 0 or out of range).
    pub fn smallest_term(&self, pile: u64) -> Option<u64> {
        match self.smallest.get(usize::try_from(pile).ok()?) {
            Some(&s) if s != u64::MAX => Some(s),
            _ => None,
        }
    }

    /// True when the player to move from (pile, limit) loses. `pile` must be ≤ [`Self::max_pile`].
    pub fn is_losing(&self, pile: u64, limit: u64) -> bool {
        match self.smallest_term(pile) {
            None => true,
            Some(s) => s > limit,
        }
    }

    /// Every winning move (counters to take) from (pile, limit), ascending.
    pub fn winning_moves(&self, pile: u64, limit: u64) -> Vec<u64> {
        let top = limit.min(pile).min(self.max_pile());
        (1..=top)
            .filter(|&a| {
                let rest = pile - a;
                rest == 0 || self.smallest[rest as usize] > a.saturating_mul(self.k)
            })
            .collect()
    }
}

/// Grundy values of positions (pile, limit) for piles up to a small bound.
#[derive(Clone, Debug)]
pub struct GrundyTable {
    n_max: u64,
    /// Triangular: row `n` holds limits 0..=n at offset n(n+1)/2.
    values: Vec<u32>,
}

/// The largest pile a [`GrundyTable`] may cover (quadratic memory).
pub const MAX_GRUNDY_PILE: u64 = 5000;

impl GrundyTable {
    /// Computes G(n, limit) for all n ≤ n_max in O(n_max²): along a row the option set only
    /// grows with the limit, so one running mex per row suffices.
    pub fn new(game: MultiplierNim, n_max: u64) -> Result<Self> {
        if n_max > MAX_GRUNDY_PILE {
            return Err(GameError::TooLarge(format!(
                "pile {n_max} too large for a Grundy table (at most {MAX_GRUNDY_PILE})"
            )));
        }
        let n = n_max as usize;
        let mut values = vec![0u32; (n + 1) * (n + 2) / 2];
        let mut seen = vec![false; n + 2];
        let k = game.k as usize;
        for pile in 1..=n {
            seen[..pile + 2].iter_mut().for_each(|s| *s = false);
            let row = pile * (pile + 1) / 2;
            let mut mex = 0usize;
            for take in 1..=pile {
                let rest = pile - take;
                let next_limit = take.saturating_mul(k).min(rest);
                let v = values[rest * (rest + 1) / 2 + next_limit] as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
                while seen[mex] {
                    mex += 1;
                }
                values[row + take] = mex as u32;
            }
        }
        Ok(GrundyTable { n_max, values })
    }

    /// G(pile, limit); the limit is capped at the pile. None beyond the table.
    pub fn value(&self, pile: u64, limit: u64) -> Option<u32> {
        if pile > self.n_max {
            return None;
        }
        let n = pile as usize;
        let l = limit.min(pile) as usize;
        Some(self.values[n * (n + 1) / 2 + l])
    }
}

/// The three textbook dynamic programs, kept as independent checks of the fast answers.
///
/// All three describe positions by (pile, limit) with the move rule of [`MultiplierNim`].
pub mod textbook {
    /// The O(N³) win table: `win[n][l]` for 0 ≤ l ≤ n ≤ n_max, straight from the definition.
    pub fn win_table(k: u64, n_max: usize) -> Vec<Vec<bool>> {
        let k = k as usize;
        let mut win: Vec<Vec<bool>> = Vec::with_capacity(n_max + 1);
        for n in 0..=n_max {
            let mut row = vec![false; n + 1];
            for (l, cell) in row.iter_mut().enumerate() {
                *cell = (1..=l).any(|a| {
                    let rest = n - a;
                    !win[rest][a.saturating_mul(k).min(rest)]
                });
            }
            win.push(row);
        }
        win
    }

    /// The O(N²) table of the smallest winning take `s[n]` from a pile with no limit
    /// (`usize::MAX` for n = 0): (n, l) is a win iff s(n) ≤ l.
    pub fn smallest_winning_take(k: u64, n_max: usize) -> Vec<usize> {
        let k = k as usize;
        let mut s = vec![usize::MAX; n_max + 1];
        for n in 1..=n_max {
            s[n] = (1..=n)
                .find(|&a| s[n - a] > a.saturating_mul(k))
                .expect("taking everything always wins");
        }
        s
    }

    /// The same table in O(N) with a monotonic stack.
    ///
    /// s(n) = n − j for the largest j < n with k·j + s(j) > k·n. The stack keeps indices with
    /// strictly decreasing keys k·j + s(j); the threshold k·n only grows, so entries that fail
    /// it once are discarded for good.
    pub fn smallest_winning_take_stack(k: u64, n_max: usize) -> Vec<usize> {
        let k = k as u128;
        let mut s = vec![usize::MAX; n_max + 1];
        let key = |j: usize, s: &[usize]| -> u128 {
            if j == 0 {
                u128::MAX
            } else {
                k * j as u128 + s[j] as u128
            }
        };
        let mut stack: Vec<usize> = vec![0];
        for n in 1..=n_max {
            let threshold = k * n as u128;
            while key(*stack.last().expect("index 0 never leaves"), &s) <= threshold {
                stack.pop();
            }
            let j = *stack.last().expect("index 0 never leaves");
            s[n] = n - j;
            let kn = key(n, &s);
            while key(*stack.last().expect("index 0 never leaves"), &s) <= kn {
                stack.pop();
            }
            stack.push(n);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fibonacci_losing_sizes_are_fibonacci_numbers() {
        let h = MultiplierNim::fibonacci()
            .losing_sizes(&UBig::from(100u32))
            .unwrap();
        let want: Vec<UBig> = [1u32, 2, 3, 5, 8, 13, 21, 34, 55, 89]
            .map(UBig::from)
            .to_vec();
        assert_eq!(h, want);
    }

    #[test]
    fn k1_losing_sizes_are_powers_of_two() {
        let h = MultiplierNim::new(1)
            .unwrap()
            .losing_sizes(&UBig::from(100u32))
            .unwrap();
        let want: Vec<UBig> = [1u32, 2, 4, 8, 16, 32, 64].map(UBig::from).to_vec();
        assert_eq!(h, want);
    }

    #[test]
    fn rejects_bad_multiplier() {
        assert!(MultiplierNim::new(0).is_err());
        assert!(MultiplierNim::new(MAX_MULTIPLIER + 1).is_err());
    }
}
