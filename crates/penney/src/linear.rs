//! Exact solution of square linear systems with rational coefficients.
//!
//! Each row is scaled to integers; then `det·x` (an integer vector by Cramer's rule) and `det`
//! are found modulo enough 62-bit primes to exceed Hadamard's bound and rebuilt by Chinese
//! remaindering, and the result is verified exactly (`A·y = det·b`). Should anything fail (a
//! prime dividing the determinant, a singular matrix), fraction-free Gaussian elimination
//! (Bareiss) with exact integer divisions answers instead — it is also the reference the
//! modular path is tested against.

use dashu::base::{BitTest, Gcd, UnsignedAbs};
use dashu::integer::{IBig, UBig};
use dashu::rational::RBig;

/// Solves `A X = B` for square `A` (`n×n`) and `B` (`n×r`, given as rows). Returns the rows of
/// `X`, or `None` when `A` is singular.
pub fn solve(a: &[Vec<RBig>], b: &[Vec<RBig>]) -> Option<Vec<Vec<RBig>>> {
    let n = a.len();
    let r = b.first().map_or(0, Vec::len);
    // Small systems (typically with huge entries) are cheaper by direct elimination.
    if n >= MODULAR_MIN_SIZE {
        let rows = integer_rows(a, b);
        if let Some((det, y)) = modular_solve(&rows, n, r) {
            return Some(to_rationals(&det, y, n, r));
        }
    }
    solve_bareiss(a, b)
}

/// Smallest system solved by the multi-modular method.
const MODULAR_MIN_SIZE: usize = 8;

fn integer_rows(a: &[Vec<RBig>], b: &[Vec<RBig>]) -> Vec<Vec<IBig>> {
    let n = a.len();
    assert_eq!(b.len(), n, "right-hand side has the wrong number of rows");
    a.iter()
        .zip(b)
        .map(|(row, rhs)| {
            assert_eq!(row.len(), n, "matrix is not square");
            integer_row(row.iter().chain(rhs.iter()))
        })
        .collect()
}

/// `x[i][c] = y[c][i] / det`, as rows of `X`.
fn to_rationals(det: &IBig, y: Vec<Vec<IBig>>, n: usize, r: usize) -> Vec<Vec<RBig>> {
    let mut out = vec![vec![RBig::ZERO; r]; n];
    for (c, col) in y.into_iter().enumerate() {
        for (i, yi) in col.into_iter().enumerate() {
            out[i][c] = RBig::from_parts_signed(yi, det.clone());
        }
    }
    out
}

fn mulmod(a: u64, b: u64, p: u64) -> u64 {
    ((a as u128 * b as u128) % p as u128) as u64
}

fn powmod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1u64;
    while e > 0 {
        if e & 1 == 1 {
            r = mulmod(r, a, p);
        }
        a = mulmod(a, a, p);
        e >>= 1;
    }
    r
}

/// Deterministic Miller–Rabin for 64-bit integers.
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    for p in BASES {
        if n.checked_rem(p) == Some(0) {
            return n == p;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'base: for a in BASES {
        let mut x = powmod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mulmod(x, x, n);
            if x == n - 1 {
                continue 'base;
            }
        }
        return false;
    }
    true
}

fn residue(x: &IBig, p: u64) -> u64 {
    let r = x % IBig::from(p);
    let r = if r < IBig::ZERO { r + IBig::from(p) } else { r };
    u64::try_from(&r).unwrap_or(0)
}

/// `det` and the columns of `y = det·X` modulo `p`; `None` if `p` divides `det`.
fn solve_mod_p(rows: &[Vec<IBig>], n: usize, r: usize, p: u64) -> Option<(u64, Vec<Vec<u64>>)> {
    let w = n + r;
    let mut m: Vec<Vec<u64>> = rows
        .iter()
        .map(|row| row.iter().map(|x| residue(x, p)).collect())
        .collect();
    let mut det = 1u64;
    for k in 0..n {
        let piv = (k..n).find(|&i| m[i][k] != 0)?;
        if piv != k {
            m.swap(piv, k);
            det = (p - det) % p;
        }
        det = mulmod(det, m[k][k], p);
        let inv = powmod(m[k][k], p - 2, p);
        for x in m[k][k..].iter_mut() {
            *x = mulmod(*x, inv, p);
        }
        let (top, bottom) = m.split_at_mut(k + 1);
        let pr = &top[k];
        for row in bottom.iter_mut() {
            let f = row[k];
            if f == 0 {
                continue;
            }
            for j in k..w {
                row[j] = (row[j] + p - mulmod(f, pr[j], p)) % p;
            }
        }
    }
    // Back substitution on the unit upper-triangular system.
    let mut y = vec![vec![0u64; n]; r];
    for (c, yc) in y.iter_mut().enumerate() {
        for i in (0..n).rev() {
            let mut acc = m[i][n + c];
            for j in i + 1..n {
                acc = (acc + p - mulmod(m[i][j], yc[j], p)) % p;
            }
            yc[i] = acc;
        }
        for v in yc.iter_mut() {
            *v = mulmod(*v, det, p);
        }
    }
    Some((det, y))
}

/// Multi-modular solve: `(det, y)` with `y[c] = det · (column c of X)`, verified exactly.
fn modular_solve(rows: &[Vec<IBig>], n: usize, r: usize) -> Option<(IBig, Vec<Vec<IBig>>)> {
    // Hadamard: |det| and every |det(A with a column replaced by b)| ≤ Π_i ‖row_i‖.
    let mut bound_bits = 2.0f64;
    for row in rows {
        let maxbits = row
            .iter()
            .map(|x| x.unsigned_abs().bit_len())
            .max()
            .unwrap_or(0);
        bound_bits += maxbits as f64 + 0.5 * ((n + 1) as f64).log2() + 1.0;
    }
    let mut modulus = UBig::ONE;
    let mut det = IBig::ZERO;
    let mut y = vec![vec![IBig::ZERO; n]; r];
    let mut candidate = (1u64 << 62) - 1;
    let mut failures = 0;
    while (modulus.bit_len() as f64) < bound_bits {
        while !is_prime(candidate) {
            candidate -= 2;
        }
        let p = candidate;
        candidate -= 2;
        let Some((dp, yp)) = solve_mod_p(rows, n, r, p) else {
            failures += 1;
            if failures >= 3 {
                return None;
            }
            continue;
        };
        let m_inv = powmod(residue(&IBig::from(modulus.clone()), p), p - 2, p);
        let lift = |v: &mut IBig, rp: u64| {
            let t = mulmod((rp + p - residue(v, p)) % p, m_inv, p);
            *v += IBig::from(&modulus * UBig::from(t));
        };
        lift(&mut det, dp);
        for (yc, ypc) in y.iter_mut().zip(&yp) {
            for (v, &rp) in yc.iter_mut().zip(ypc) {
                lift(v, rp);
            }
        }
        modulus *= UBig::from(p);
    }
    let half = IBig::from(&modulus >> 1);
    let modulus = IBig::from(modulus);
    let centre = |v: &mut IBig| {
        if *v > half {
            *v -= &modulus;
        }
    };
    centre(&mut det);
    if det.is_zero() {
        return None;
    }
    for yc in y.iter_mut() {
        yc.iter_mut().for_each(centre);
    }
    // Exact verification: A·y_c = det·b_c for every column.
    for (c, yc) in y.iter().enumerate() {
        for row in rows {
            let mut acc = IBig::ZERO;
            for (a, v) in row[..n].iter().zip(yc) {
                if !a.is_zero() && !v.is_zero() {
                    acc += a * v;
                }
            }
            if acc != &det * &row[n + c] {
                return None;
            }
        }
    }
    Some((det, y))
}

/// [`solve`] by fraction-free Gaussian elimination only (the reference).
pub fn solve_bareiss(a: &[Vec<RBig>], b: &[Vec<RBig>]) -> Option<Vec<Vec<RBig>>> {
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
    fn modular_matches_bareiss() {
        let mut x = 7u64;
        let mut next = |m: i64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as i64 % m - m / 2
        };
        for n in [1usize, 2, 5, 12, 30] {
            let a: Vec<Vec<RBig>> = (0..n)
                .map(|_| {
                    (0..n)
                        .map(|_| q(next(1 << 20), 1 + (next(6).unsigned_abs())))
                        .collect()
                })
                .collect();
            let b: Vec<Vec<RBig>> = (0..n)
                .map(|_| (0..3).map(|_| q(next(1000), 1)).collect())
                .collect();
            let rows = integer_rows(&a, &b);
            let (det, y) = modular_solve(&rows, n, 3).expect("random matrices are regular");
            assert_eq!(Some(to_rationals(&det, y, n, 3)), solve_bareiss(&a, &b));
        }
        assert!(is_prime((1 << 61) - 1));
        assert!(!is_prime((1 << 62) - 1));
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
