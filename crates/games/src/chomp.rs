//! Chomp: a rectangular bar with a poisoned square at the top-left corner (row 0, column 0).
//! A bite at (r, c) removes every remaining square at row ≥ r and column ≥ c; whoever has to
//! take the poison loses.
//!
//! Equivalently (normal play), biting the poison is not a move and the player facing the lone
//! poison square loses. Every position is a staircase (non-increasing row lengths), so an
//! R × C bar has C(R+C, R) positions. Strategy stealing shows every rectangle larger than 1×1
//! is a first-player win, but says nothing about the move: it is found here by the generic
//! [`Solver`] over staircases.

use crate::error::{GameError, Result};
use grundy_core::{Game, Outcome, Solver};

/// The most rows (row lengths are packed 8 bits each into a `u128`).
pub const MAX_ROWS: usize = 16;

/// The most columns.
pub const MAX_COLS: usize = 255;

/// The most positions a board may have, C(R+C, R).
pub const MAX_POSITIONS: u128 = 3_000_000;

/// A staircase: row lengths, 8 bits each, row 0 in the low byte; lengths never increase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Staircase(u128);

impl Staircase {
    /// The full `rows × cols` bar.
    pub fn rectangle(rows: usize, cols: usize) -> Result<Self> {
        check_size(rows, cols)?;
        Ok(Staircase(
            (0..rows).fold(0u128, |acc, r| acc | (cols as u128) << (8 * r)),
        ))
    }

    /// Length of row `r` (0 beyond the board).
    pub fn row(&self, r: usize) -> usize {
        if r >= MAX_ROWS {
            0
        } else {
            (self.0 >> (8 * r) & 0xff) as usize
        }
    }

    /// All row lengths down to the last non-empty row.
    pub fn rows(&self) -> Vec<usize> {
        (0..MAX_ROWS)
            .map(|r| self.row(r))
            .take_while(|&l| l > 0)
            .collect()
    }

    /// The position after biting at (r, c); None if (r, c) is the poison or already eaten.
    pub fn bite(&self, r: usize, c: usize) -> Option<Staircase> {
        if (r, c) == (0, 0) || c >= self.row(r) {
            return None;
        }
        let mut x = self.0;
        for i in r..MAX_ROWS {
            let l = self.row(i);
            if l <= c {
                break;
            }
            x = (x & !(0xffu128 << (8 * i))) | (c as u128) << (8 * i);
        }
        Some(Staircase(x))
    }

    /// Every legal bite (r, c), row by row.
    pub fn bites(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in 0..MAX_ROWS {
            let l = self.row(r);
            if l == 0 {
                break;
            }
            out.extend((0..l).filter(|&c| (r, c) != (0, 0)).map(|c| (r, c)));
        }
        out
    }
}

/// C(n, k) capped at `cap + 1`.
fn binomial_capped(n: u128, k: u128, cap: u128) -> u128 {
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc * (n - i) / (i + 1);
        if acc > cap {
            return cap + 1;
        }
    }
    acc
}

fn check_size(rows: usize, cols: usize) -> Result<()> {
    if rows == 0 || cols == 0 {
        return Err(GameError::Invalid(format!(
            "board must not be empty ({rows}x{cols})"
        )));
    }
    if rows > MAX_ROWS || cols > MAX_COLS {
        return Err(GameError::TooLarge(format!(
            "board {rows}x{cols} too large (at most {MAX_ROWS} rows and {MAX_COLS} columns)"
        )));
    }
    let (small, n) = (rows.min(cols) as u128, (rows + cols) as u128);
    if binomial_capped(n, small, MAX_POSITIONS) > MAX_POSITIONS {
        return Err(GameError::TooLarge(format!(
            "board {rows}x{cols} too large: more than {MAX_POSITIONS} positions to search"
        )));
    }
    Ok(())
}

/// The rules of Chomp over staircases (the poison is never a move).
#[derive(Clone, Copy, Debug, Default)]
pub struct Chomp;

impl Game for Chomp {
    type Position = Staircase;

    fn options(&self, pos: &Staircase, out: &mut Vec<Staircase>) {
        for (r, c) in pos.bites() {
            out.extend(pos.bite(r, c));
        }
    }
}

/// The solved board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// `N` when the player to move wins.
    pub outcome: Outcome,
    /// Grundy value of the position in the normal-play form.
    pub grundy: u64,
    /// Every winning bite (row, column), 0-based from the poison corner.
    pub winning_bites: Vec<(usize, usize)>,
    /// Positions searched.
    pub positions: usize,
}

/// Solves a staircase.
pub fn analyse(pos: &Staircase) -> Analysis {
    let mut solver = Solver::new(Chomp);
    let grundy = solver.grundy(pos);
    let mut winning_bites = Vec::new();
    if grundy != 0 {
        for (r, c) in pos.bites() {
            let next = pos.bite(r, c).expect("listed bites are legal");
            if solver.grundy(&next) == 0 {
                winning_bites.push((r, c));
            }
        }
    }
    Analysis {
        outcome: Outcome::from_grundy(grundy),
        grundy,
        winning_bites,
        positions: solver.memo_len(),
    }
}

/// Solves the full `rows × cols` bar.
pub fn analyse_rectangle(rows: usize, cols: usize) -> Result<Analysis> {
    Ok(analyse(&Staircase::rectangle(rows, cols)?))
}

/// Outcome by plain recursion over row-length vectors (exponential; tiny boards only): the
/// test oracle for [`analyse`].
pub fn outcome_brute_force(rows: &[usize]) -> Outcome {
    fn wins(rows: &[usize]) -> bool {
        for r in 0..rows.len() {
            for c in 0..rows[r] {
                if (r, c) == (0, 0) {
                    continue;
                }
                let next: Vec<usize> = rows
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| if i >= r { l.min(c) } else { l })
                    .collect();
                if !wins(&next) {
                    return true;
                }
            }
        }
        false
    }
    if wins(rows) {
        Outcome::N
    } else {
        Outcome::P
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_rows_known_strategy() {
        // 2×n: the winning bite leaves rows (n, n−1).
        for n in 2..10 {
            let a = analyse_rectangle(2, n).unwrap();
            assert_eq!(a.outcome, Outcome::N);
            assert_eq!(a.winning_bites, vec![(1, n - 1)]);
        }
    }

    #[test]
    fn square_bite_is_1_1() {
        // n×n: bite (1,1), leaving an L with equal arms.
        for n in 2..7 {
            assert!(analyse_rectangle(n, n)
                .unwrap()
                .winning_bites
                .contains(&(1, 1)));
        }
    }

    #[test]
    fn size_limits() {
        assert!(Staircase::rectangle(0, 3).is_err());
        assert!(Staircase::rectangle(17, 3).is_err());
        assert!(Staircase::rectangle(16, 200).is_err());
        assert!(Staircase::rectangle(1, 255).is_ok());
    }
}
