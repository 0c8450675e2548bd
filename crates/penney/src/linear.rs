//! Exact solution of square linear systems with rational coefficients.
//!
//! Each row is scaled to integers, then fraction-free Gaussian elimination (Bareiss) brings the
//! system to triangular form with exact integer divisions only; back substitution computes
//! `det · x`, which is an integer vector (Cramer's rule), again with exact divisions.

use dashu::base::Gcd;
use dashu::integer::{IBig, UBig};
use dashu::rational::RBig;

/// Solves `A X = B` for square `A` (`n×n`) and `B` (`n×r`, given as rows). Returns the rows of
/// `X`, or `None` when `A` is singular.
pub fn solve(a: &[Vec<RBig>], b: &[Vec<RBig>]) -> Option<Vec<Vec<RBig>>> {
    let n = a.len();
    assert_eq!(b.len(), n, "right-hand side has the wrong number of rows");
    let r = b.first().map_or(0, Vec::len);
    let mut m: Vec<Vec<IBig>> = a
        .iter()
        .zip(b)
        .map(|(row, rhs)| {
            assert_eq!(row.len(), n, "matrix is not square");
            integer_row(row.iter().chain(rhs.iter()))
        })
        .collect();
    let width = n + r;
    let mut prev = IBig::ONE;
    for k in 0..n {
        let p = (k..n).find(|&i| !m[i][k].is_zero())?;
        m.swap(k, p);
        let (top, bottom) = m.split_at_mut(k + 1);
        let pivot_row = &top[k];
        for row in bottom.iter_mut() {
            let f = std::mem::take(&mut row[k]);
            for j in k + 1..width {
                let v = &pivot_row[k] * &row[j] - &f * &pivot_row[j];
                row[j] = v / &prev;
            }
        }
        prev = m[k][k].clone();
    }
    let det = prev;
    // y = det · x, integer; y_i = (det·b_i − Σ_{j>i} m_ij y_j) / m_ii exactly.
    let mut out = vec![vec![RBig::ZERO; r]; n];
    for col in 0..r {
        let mut y = vec![IBig::ZERO; n];
        for i in (0..n).rev() {
            let mut acc = &det * &m[i][n + col];
            for (j, yj) in y.iter().enumerate().skip(i + 1) {
                if !m[i][j].is_zero() && !yj.is_zero() {
                    acc -= &m[i][j] * yj;
                }
            }
            y[i] = acc / &m[i][i];
        }
        for (i, yi) in y.into_iter().enumerate() {
            out[i][col] = RBig::from_parts_signed(yi, det.clone());
        }
    }
    Some(out)
}

/// The entries of a rational row multiplied by the lcm of their denominators.
fn integer_row<'a>(row: impl Iterator<Item = &'a RBig> + Clone) -> Vec<IBig> {
    let mut l = UBig::ONE;
    for x in row.clone() {
        let d = x.denominator();
        if !d.is_one() {
            let g = (&l).gcd(d);
            l = &l / &g * d;
        }
    }
    row.map(|x| x.numerator() * IBig::from(&l / x.denominator()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: u64) -> RBig {
        RBig::from_parts(IBig::from(n), UBig::from(d))
    }

    #[test]
    fn small_system() {
        // x + y/2 = 1, x/3 - y = 2  =>  x = 24/14 … check by substitution
        let a = vec![vec![q(1, 1), q(1, 2)], vec![q(1, 3), q(-1, 1)]];
        let b = vec![vec![q(1, 1), q(0, 1)], vec![q(2, 1), q(1, 1)]];
        let x = solve(&a, &b).unwrap();
        for col in 0..2 {
            for i in 0..2 {
                let lhs = (0..2).fold(RBig::ZERO, |s, j| s + &a[i][j] * &x[j][col]);
                assert_eq!(lhs, b[i][col]);
            }
        }
    }

    #[test]
    fn needs_pivoting_and_detects_singular() {
        let a = vec![vec![q(0, 1), q(1, 1)], vec![q(1, 1), q(0, 1)]];
        let x = solve(&a, &[vec![q(3, 1)], vec![q(5, 1)]]).unwrap();
        assert_eq!(x[0][0], q(5, 1));
        assert_eq!(x[1][0], q(3, 1));
        let s = vec![vec![q(1, 1), q(2, 1)], vec![q(2, 1), q(4, 1)]];
        assert!(solve(&s, &[vec![q(1, 1)], vec![q(1, 1)]]).is_none());
    }
}
