//! Weighted correlations: `a∘b = Σ 1/P(b[..k])` over the overlaps `k` (suffix of `a` of length
//! `k` equals prefix of `b` of length `k`). For a fair coin this is Conway's leading number
//! read in binary and doubled; `a∘a` is the expected waiting time for `a`.
//!
//! Long patterns make these numbers huge (10^5 overlaps of a die pattern have ~2.6·10^5-bit
//! denominators), so the sum is evaluated as the product of 2×2 integer matrices by binary
//! splitting (`O(M(n) log n)`), never as a running sum of big fractions.

use crate::alphabet::Alphabet;
use crate::strings::overlaps_with;
use dashu::integer::{IBig, UBig};
use dashu::rational::RBig;

/// `a∘b` as an exact fraction, with `pi_b = prefix_function(b)`.
pub fn weighted_correlation_with(
    alphabet: &Alphabet,
    a: &[usize],
    b: &[usize],
    pi_b: &[usize],
) -> RBig {
    let ks = overlaps_with(a, b, pi_b);
    weighted_sum(alphabet, b, &ks)
}

/// `a∘b` as an exact fraction.
pub fn weighted_correlation(alphabet: &Alphabet, a: &[usize], b: &[usize]) -> RBig {
    weighted_correlation_with(alphabet, a, b, &crate::strings::prefix_function(b))
}

/// Expected number of tosses until `word` first appears: `word∘word`.
pub fn waiting_time(alphabet: &Alphabet, word: &[usize]) -> RBig {
    weighted_correlation(alphabet, word, word)
}

/// `Σ_{k ∈ ks} 1/P(b[..k])` (the `ks` are distinct lengths `1..=|b|`).
///
/// Horner form: `V = f_0(f_1(…f_{L-1}(0)))` with `f_j(x) = (d/n_j)(s_{j+1} + x)`, where
/// `p_c = n_c/d` and `s_k = [k ∈ ks]`; each `f_j` is the matrix `[[d, d·s],[0, n_j]]` acting on
/// `(numerator, denominator)`, and the product is formed by binary splitting.
pub fn weighted_sum(alphabet: &Alphabet, b: &[usize], ks: &[usize]) -> RBig {
    let Some(&len) = ks.iter().max() else {
        return RBig::ZERO;
    };
    let mut coef = vec![0u64; len + 1];
    for &k in ks {
        coef[k] = 1;
    }
    coefficient_sum(alphabet, b, &coef)
}

/// `Σ_k coef[k] / P(b[..k])` for `k = 1..coef.len()` (`coef[0]` is ignored).
pub fn coefficient_sum(alphabet: &Alphabet, b: &[usize], coef: &[u64]) -> RBig {
    let len = coef.len().saturating_sub(1);
    assert!(len <= b.len(), "coefficients beyond the word");
    let d = alphabet.denominator();
    if alphabet.is_uniform() {
        // p = 1/σ: the sum is the integer Σ coef[k] σ^k.
        let sigma = d / alphabet.weight(0);
        return RBig::from(int_power_sum(&sigma, coef));
    }
    if len == 0 {
        return RBig::ZERO;
    }
    let m = product(alphabet, b, coef, 0, len);
    RBig::from_parts(IBig::from(m.b), m.c)
}

/// Variance of the waiting time for `word`:
/// `Var = E² + E − 2 Σ_{k overlap} k / P(word[..k])` with `E = word∘word`
/// (from the generating function `P z^m / (P z^m + (1 − z) c(z))`, `c` the correlation
/// polynomial). An independent check on the Markov chain's variance.
pub fn waiting_time_variance(alphabet: &Alphabet, word: &[usize]) -> RBig {
    let ks = crate::strings::overlaps(word, word);
    let mut coef = vec![0u64; word.len() + 1];
    for &k in &ks {
        coef[k] = k as u64;
    }
    let e = weighted_sum(alphabet, word, &ks);
    let s = coefficient_sum(alphabet, word, &coef);
    &e * &e + &e - RBig::from(2) * s
}

/// Upper-triangular integer matrix `[[a, b], [0, c]]`.
struct Tri {
    a: UBig,
    b: UBig,
    c: UBig,
}

const LEAF: usize = 64;

/// Product of the Horner matrices for positions `lo..hi` (recursion depth is `log2(len)`).
fn product(alphabet: &Alphabet, b: &[usize], coef: &[u64], lo: usize, hi: usize) -> Tri {
    let d = alphabet.denominator();
    if hi - lo <= LEAF {
        let mut m = Tri {
            a: UBig::ONE,
            b: UBig::ZERO,
            c: UBig::ONE,
        };
        for j in lo..hi {
            let n = alphabet.weight(b[j]);
            // m · [[d, d·s], [0, n]]
            let nb = match coef[j + 1] {
                0 => &m.b * n,
                1 => &m.a * d + &m.b * n,
                s => &m.a * d * UBig::from(s) + &m.b * n,
            };
            m.a *= d;
            m.c *= n;
            m.b = nb;
        }
        return m;
    }
    let mid = lo + (hi - lo) / 2;
    let l = product(alphabet, b, coef, lo, mid);
    let r = product(alphabet, b, coef, mid, hi);
    Tri {
        b: &l.a * &r.b + &l.b * &r.c,
        a: l.a * r.a,
        c: l.c * r.c,
    }
}

/// `Σ_k coef[k] σ^k` as an integer; 0/1 coefficients with σ a power of two are bit sets,
/// otherwise binary splitting.
fn int_power_sum(sigma: &UBig, coef: &[u64]) -> UBig {
    let shift = sigma.trailing_zeros().unwrap_or(0);
    if shift > 0 && *sigma == UBig::ONE << shift && coef.iter().all(|&c| c <= 1) {
        let hit = coef;
        let mut bytes = vec![0u8; (hit.len() * shift) / 8 + 1];
        for (k, _) in hit.iter().enumerate().filter(|(_, &h)| h == 1) {
            bytes[k * shift / 8] |= 1 << ((k * shift) % 8);
        }
        return UBig::from_le_bytes(&bytes);
    }
    // Σ_{k in lo..hi} hit[k] σ^(k-lo), returned with σ^(hi-lo).
    fn rec(sigma: &UBig, coef: &[u64], lo: usize, hi: usize) -> (UBig, UBig) {
        if hi - lo <= LEAF {
            let mut acc = UBig::ZERO;
            for k in (lo..hi).rev() {
                acc *= sigma;
                acc += UBig::from(coef[k]);
            }
            return (acc, sigma.pow(hi - lo));
        }
        let mid = lo + (hi - lo) / 2;
        let (s1, p1) = rec(sigma, coef, lo, mid);
        let (s2, p2) = rec(sigma, coef, mid, hi);
        (s1 + &p1 * s2, p1 * p2)
    }
    rec(sigma, coef, 0, coef.len()).0
}

/// Conway's leading number of `a` on `b` as a bit string, most significant bit = the full
/// overlap of length `min(|a|,|b|)`, least = overlap of length 1.
pub fn leading_number_bits(a: &[usize], b: &[usize]) -> String {
    let bits = crate::strings::correlation_bits(a, b);
    bits.iter()
        .rev()
        .map(|&x| if x { '1' } else { '0' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(alphabet: &Alphabet, a: &[usize], b: &[usize]) -> RBig {
        let mut s = RBig::ZERO;
        for k in 1..=a.len().min(b.len()) {
            if a[a.len() - k..] == b[..k] {
                s += RBig::ONE / alphabet.word_probability(&b[..k]);
            }
        }
        s
    }

    #[test]
    fn small_cases() {
        let coin = Alphabet::coin();
        let hth = coin.encode("HTH").unwrap();
        assert_eq!(waiting_time(&coin, &hth), RBig::from(10));
        let abc = Alphabet::uniform("ABCDEFGHIJKLMNOPQRSTUVWXYZ").unwrap();
        let w = abc.encode("ABRACADABRA").unwrap();
        let n = UBig::from(26u8);
        assert_eq!(waiting_time(&abc, &w), RBig::from(n.pow(11) + n.pow(4) + n));
        let biased = Alphabet::parse_probabilities("H=2/3,T=1/3").unwrap();
        let hhh = biased.encode("HHH").unwrap();
        // 3/2 + 9/4 + 27/8
        assert_eq!(waiting_time(&biased, &hhh).to_string(), "57/8");
        assert_eq!(
            leading_number_bits(&hth, &coin.encode("THH").unwrap()),
            "010"
        );
    }

    #[test]
    fn long_matches_naive() {
        for spec in ["H=2/3,T=1/3", "a=1/2,b=1/3,c=1/6"] {
            let al = Alphabet::parse_probabilities(spec).unwrap();
            let mut x = 12345u64;
            let mut word = || {
                (0..300)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        if (x >> 60) < 13 {
                            0
                        } else {
                            ((x >> 33) as usize) % al.len()
                        }
                    })
                    .collect::<Vec<_>>()
            };
            let a = word();
            let b = word();
            for (p, q) in [(&a, &b), (&a, &a), (&b, &a), (&b, &b)] {
                assert_eq!(weighted_correlation(&al, p, q), naive(&al, p, q));
            }
        }
        let die = Alphabet::uniform("123456").unwrap();
        let w: Vec<usize> = (0..500).map(|i| if i % 7 == 3 { 1 } else { 0 }).collect();
        assert_eq!(weighted_correlation(&die, &w, &w), naive(&die, &w, &w));
    }
}
