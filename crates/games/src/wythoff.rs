//! Wythoff's game: two heaps; take any number from one heap, or the same number from both.
//!
//! The P-positions are (⌊jφ⌋, ⌊jφ²⌋) and their mirror images, j = 0, 1, 2, … (φ the golden
//! ratio). They are computed here with exact integer arithmetic for heaps of any size:
//! ⌊jφ⌋ = ⌊(j + ⌊√(5j²)⌋)/2⌋ by nesting floors, and ⌊jφ²⌋ = ⌊jφ⌋ + j. The two sequences
//! partition the positive integers (Beatty), so every heap size has exactly one partner, which
//! gives every winning move directly. [`GrundyTable`] gives Grundy values of small positions.

use crate::error::{GameError, Result};
use dashu::base::SquareRoot;
use dashu::integer::UBig;
use grundy_core::Outcome;

/// ⌊jφ⌋, the smaller coordinate of the j-th P-position.
pub fn lower(j: &UBig) -> UBig {
    let five_j2 = j * j * 5u32;
    (j + five_j2.sqrt()) >> 1
}

/// ⌊jφ²⌋ = ⌊jφ⌋ + j, the larger coordinate of the j-th P-position.
pub fn upper(j: &UBig) -> UBig {
    lower(j) + j
}

/// The j-th P-position (⌊jφ⌋, ⌊jφ²⌋).
pub fn p_position(j: &UBig) -> (UBig, UBig) {
    let a = lower(j);
    let b = &a + j;
    (a, b)
}

/// The unique heap size that pairs with `v` in a P-position (0 pairs with 0).
pub fn partner(v: &UBig) -> UBig {
    if v.is_zero() {
        return UBig::ZERO;
    }
    // ⌊v/φ⌋ = ⌊(⌊v√5⌋ − v)/2⌋; if v = ⌊jφ⌋ then j = ⌊v/φ⌋ + 1.
    let v_sqrt5 = (v * v * 5u32).sqrt();
    let j = ((&v_sqrt5 - v) >> 1) + UBig::ONE;
    if lower(&j) == *v {
        return v + j;
    }
    // Otherwise v = ⌊jφ²⌋ for j near v/φ² = v − v/φ; search the few candidates exactly.
    let approx = v - &j;
    let lo = if approx > UBig::from(2u32) {
        &approx - UBig::from(2u32)
    } else {
        UBig::ONE
    };
    let mut j = lo;
    loop {
        let b = upper(&j);
        if b == *v {
            return v - j;
        }
        assert!(
            b < v + UBig::from(4u32),
            "Beatty partition: v is in one of the sequences"
        );
        j += UBig::ONE;
    }
}

/// True when (x, y) is a P-position: the player to move loses.
pub fn is_p_position(x: &UBig, y: &UBig) -> bool {
    partner(x) == *y
}

/// One move: how many counters leave each heap, and the position reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Taken from the first heap.
    pub take_first: UBig,
    /// Taken from the second heap.
    pub take_second: UBig,
    /// The position after the move (a P-position when the move wins).
    pub to: (UBig, UBig),
}

/// Every winning move from (x, y): the moves to a P-position (none when (x, y) is one).
pub fn winning_moves(x: &UBig, y: &UBig) -> Vec<Move> {
    let mut moves = Vec::new();
    let mk = |tx: UBig, ty: UBig| Move {
        take_first: x - &tx,
        take_second: y - &ty,
        to: (tx, ty),
    };
    let px = partner(y);
    if px < *x {
        moves.push(mk(px, y.clone()));
    }
    let py = partner(x);
    if py < *y {
        moves.push(mk(x.clone(), py));
    }
    // Same difference: the P-position (a_d, b_d), d = |x − y|.
    let (lo, d) = if x <= y { (x, y - x) } else { (y, x - y) };
    let a = lower(&d);
    if *lo > a {
        let t = lo - &a;
        moves.push(mk(x - &t, y - &t));
    }
    moves.sort_by(|m, n| m.to.cmp(&n.to));
    moves.dedup();
    moves
}

/// The outcome of (x, y).
pub fn outcome(x: &UBig, y: &UBig) -> Outcome {
    if is_p_position(x, y) {
        Outcome::P
    } else {
        Outcome::N
    }
}

/// The largest side of a [`GrundyTable`].
pub const MAX_TABLE_SIDE: usize = 5000;

/// Grundy values G(x, y) for 0 ≤ x, y < side.
///
/// Cells are filled row by row; each row, column and diagonal keeps the set of values seen so
/// far as a bitset, and G(x, y) is the mex of the union of its three sets: O(side³/64).
#[derive(Clone, Debug)]
pub struct GrundyTable {
    side: usize,
    values: Vec<u32>,
}

impl GrundyTable {
    /// Computes the table; `side ≤ 5000`.
    pub fn new(side: usize) -> Result<Self> {
        if side == 0 {
            return Err(GameError::Invalid("table size must be at least 1".into()));
        }
        if side > MAX_TABLE_SIDE {
            return Err(GameError::TooLarge(format!(
                "table size {side} too large (at most {MAX_TABLE_SIDE})"
            )));
        }
        let words = (2 * side) / 64 + 1;
        let mut cols = vec![0u64; side * words];
        let mut diags = vec![0u64; (2 * side) * words];
        let mut row = vec![0u64; words];
        let mut values = vec![0u32; side * side];
        for x in 0..side {
            row.iter_mut().for_each(|w| *w = 0);
            for y in 0..side {
                let c = &cols[y * words..(y + 1) * words];
                let di = y + side - x;
                let d = &diags[di * words..(di + 1) * words];
                let mut g = 0usize;
                for i in 0..words {
                    let union = row[i] | c[i] | d[i];
                    if union != u64::MAX {
                        g = i * 64 + union.trailing_ones() as usize;
                        break;
                    }
                }
                values[x * side + y] = g as u32;
                let (w, bit) = (g / 64, 1u64 << (g % 64));
                row[w] |= bit;
                cols[y * words + w] |= bit;
                diags[di * words + w] |= bit;
            }
        }
        Ok(GrundyTable { side, values })
    }

    /// The side of the table.
    pub fn side(&self) -> usize {
        self.side
    }

    /// G(x, y), or None outside the table.
    pub fn value(&self, x: usize, y: usize) -> Option<u32> {
        if x < self.side && y < self.side {
            Some(self.values[x * self.side + y])
        } else {
            None
        }
    }
}

/// G(x, y) straight from the definition (cubic time): the oracle for [`GrundyTable`].
pub fn grundy_naive(side: usize) -> Vec<Vec<u32>> {
    let mut g = vec![vec![0u32; side]; side];
    for x in 0..side {
        for y in 0..side {
            let mut seen = vec![false; x + y + 2];
            for x2 in 0..x {
                seen[g[x2][y] as usize] = true;
            }
            for y2 in 0..y {
                seen[g[x][y2] as usize] = true;
            }
            for t in 1..=x.min(y) {
                seen[g[x - t][y - t] as usize] = true;
            }
            g[x][y] = seen.iter().position(|s| !s).expect("mex exists") as u32;
        }
    }
    g
}

/// The i-th P-position of r-Wythoff (Fraenkel): (⌊iα⌋, ⌊iα⌋ + r·i) with
/// α = (2 − r + √(r² + 4))/2; r = 1 is Wythoff's game. Exact for any i and r ≥ 1:
/// ⌊iα⌋ = ⌊(⌊√(i²(r²+4))⌋ + 2i − r·i)/2⌋, and the numerator is never negative since
/// √(r² + 4) > r.
pub fn r_p_position(r: u64, i: &UBig) -> (UBig, UBig) {
    let disc = i * i * (UBig::from(r) * r + UBig::from(4u32));
    let a = (disc.sqrt() + i * 2u32 - i * r) >> 1;
    let b = &a + i * r;
    (a, b)
}

/// r-Wythoff (Fraenkel's generalisation): take any number from one heap, or `a` from one and
/// `b` from the other with a, b ≥ 1 and |a − b| < r. Positions are (x, y) heap pairs; the
/// generic solver values them (small heaps only), which checks [`r_p_position`].
#[derive(Clone, Copy, Debug)]
pub struct RWythoff {
    /// The tolerance r ≥ 1 (r = 1: Wythoff's game).
    pub r: u64,
}

impl grundy_core::Game for RWythoff {
    type Position = (u64, u64);

    fn options(&self, &(x, y): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((0..x).map(|x2| (x2, y)));
        out.extend((0..y).map(|y2| (x, y2)));
        for a in 1..=x {
            let lo = a.saturating_sub(self.r - 1).max(1);
            let hi = (a + self.r - 1).min(y);
            out.extend((lo..=hi).map(|b| (x - a, y - b)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_p_positions() {
        let got: Vec<(u32, u32)> = (0u32..8)
            .map(|j| {
                let (a, b) = p_position(&UBig::from(j));
                (a.try_into().unwrap(), b.try_into().unwrap())
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 0),
                (1, 2),
                (3, 5),
                (4, 7),
                (6, 10),
                (8, 13),
                (9, 15),
                (11, 18)
            ]
        );
    }

    #[test]
    fn partners_are_symmetric() {
        for v in 0u32..2000 {
            let v = UBig::from(v);
            assert_eq!(partner(&partner(&v)), v);
        }
    }
}
