//! The rare/common split (Flammenkamp's "sparse space").
//!
//! Each heap n gets a key `G(n) << 1 | p(n)`, where `p(n)` is the heap's parity (shifted by the
//! parity of the splitting removals) when every split removes tokens of one parity, else 0. For a
//! key mask `m`, a key is *rare* when `popcount(key & m)` is even. If every split option is
//! `G(a) ^ G(b)` with `a + b = n - i`, then the keys of the two parts add (mod 2) to the key of
//! the option at heap n, so common ⊕ common is never common: a common option value needs a rare
//! part. The choice of `m` only changes the speed; the [`best_mask`] minimises the number of rare
//! heaps, scoring every mask at once by a Walsh–Hadamard transform of the key histogram.

/// True when `key` is rare under `mask`.
#[inline]
pub(crate) fn is_rare(key: u64, mask: u64) -> bool {
    (key & mask).count_ones().is_multiple_of(2)
}

/// The key of value `v` at heap `n`; `parity` is the plan's split parity (None: unused).
#[inline]
pub(crate) fn key(v: u32, n: u64, parity: Option<u64>) -> u64 {
    let p = match parity {
        Some(q) => (n + q) & 1,
        None => 0,
    };
    (u64::from(v) << 1) | p
}

/// In-place Walsh–Hadamard transform (length a power of two).
fn walsh_hadamard(a: &mut [i64]) {
    let mut h = 1;
    while h < a.len() {
        for block in a.chunks_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (s, d) = (*x + *y, *x - *y);
                *x = s;
                *y = d;
            }
        }
        h *= 2;
    }
}

/// Number of heaps rare under every mask: `counts[m]` for `m < hist.len()` (a power of two),
/// where `hist[key]` counts heaps with that key.
pub(crate) fn rare_counts(hist: &[u64]) -> Vec<u64> {
    let mut w: Vec<i64> = hist.iter().map(|&c| c as i64).collect();
    walsh_hadamard(&mut w);
    let total = w[0];
    // rare - common = W(m); rare + common = total.
    w.iter().map(|&x| ((total + x) / 2) as u64).collect()
}

/// The mask with the fewest rare heaps; bit 0 (the parity bit) only when `parity_allowed`.
/// Mask 0 (everything rare) is never chosen. Ties keep `current`, then the smallest mask.
/// Returns the mask and its rare count.
pub(crate) fn best_mask(hist: &[u64], parity_allowed: bool, current: u64) -> (u64, u64) {
    let counts = rare_counts(hist);
    let ok = |m: usize| m != 0 && (parity_allowed || m & 1 == 0);
    let size = counts.len() as u64;
    let cur_count = counts[(current & (size - 1)) as usize];
    let mut best = (current, cur_count);
    for (m, &c) in counts.iter().enumerate() {
        if ok(m) && c < best.1 {
            best = (m as u64, c);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_counts_match_direct_counting() {
        let hist: Vec<u64> = (0..32u64).map(|k| (k * 7 + 3) % 11).collect();
        let counts = rare_counts(&hist);
        for m in 0..32u64 {
            let direct: u64 = (0..32u64)
                .filter(|&k| is_rare(k, m))
                .map(|k| hist[k as usize])
                .sum();
            assert_eq!(counts[m as usize], direct, "mask {m}");
        }
    }

    #[test]
    fn best_mask_avoids_parity_bit_when_not_allowed() {
        let mut hist = vec![0u64; 16];
        hist[1] = 100; // key 1: value 0 at odd parity
        hist[2] = 100;
        let (m, _) = best_mask(&hist, false, 2);
        assert_eq!(m & 1, 0);
    }
}
