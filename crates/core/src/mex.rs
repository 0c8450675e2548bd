//! The minimum excludant (mex): the least non-negative integer not in a set.
//!
//! The Grundy value of a position is the mex of its options' values. A set of `n` values has a
//! mex of at most `n`, so values `>= n` are ignored and the rest are marked in a bitset of
//! `n + 1` bits; the mex is then the first zero bit, found one 64-bit word at a time.

/// Reusable mex calculator: keeps its bitset between calls to avoid reallocating.
#[derive(Clone, Debug, Default)]
pub struct Mex {
    words: Vec<u64>,
}

impl Mex {
    /// An empty calculator.
    pub fn new() -> Self {
        Mex { words: Vec::new() }
    }

    /// The mex of `values` (any order, duplicates allowed).
    pub fn of(&mut self, values: &[u64]) -> u64 {
        self.of_iter(values.len(), values.iter().copied())
    }

    /// The mex of at most `len` values given by an iterator; values past `len` are ignored.
    pub fn of_iter(&mut self, len: usize, values: impl IntoIterator<Item = u64>) -> u64 {
        // The mex of `len` values is at most `len`: bits 0..=len suffice.
        let nwords = len / 64 + 1;
        self.words.clear();
        self.words.resize(nwords, 0);
        let limit = len as u64;
        for v in values.into_iter() {
            if v <= limit {
                self.words[(v / 64) as usize] |= 1u64 << (v % 64);
            }
        }
        for (i, &w) in self.words.iter().enumerate() {
            if w != u64::MAX {
                return i as u64 * 64 + u64::from(w.trailing_ones());
            }
        }
        // Unreachable in practice: `len + 1` bits cannot all be set by `len` values.
        nwords as u64 * 64
    }
}

/// The mex of `values`; allocates a small bitset (use [`Mex`] in loops).
pub fn mex(values: &[u64]) -> u64 {
    Mex::new().of(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(values: &[u64]) -> u64 {
        (0..).find(|m| !values.contains(m)).unwrap()
    }

    #[test]
    fn small_cases() {
        assert_eq!(mex(&[]), 0);
        assert_eq!(mex(&[1, 2]), 0);
        assert_eq!(mex(&[0, 1, 3]), 2);
        assert_eq!(mex(&[3, 0, 2, 1]), 4);
        assert_eq!(mex(&[u64::MAX, 0]), 1);
        let all: Vec<u64> = (0..64).collect();
        assert_eq!(mex(&all), 64);
        let all: Vec<u64> = (0..128).rev().collect();
        assert_eq!(mex(&all), 128);
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_naive(values in proptest::collection::vec(0u64..200, 0..300)) {
            proptest::prop_assert_eq!(mex(&values), naive(&values));
        }
    }
}
