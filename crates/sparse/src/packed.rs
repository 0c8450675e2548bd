//! Values packed at as few bits as they need: where a packed memory window
//! ([`crate::Engine::with_packed_window`]) keeps the values it drops, instead of chunks on disk,
//! so that every value stays at hand for the period search while taking less memory than the
//! engine's u16 or u32 storage.
//!
//! Values come in order, G(0), G(1), …, and are packed a block of [`BLOCK`] at a time at the
//! width of that block's largest value: 9 bits where values pass 255 but not 511 (0.014, 0.034,
//! 0.172: 1.125 bytes a heap instead of 2; a block whose values stay below 256 takes 8). The
//! block being filled is held unpacked.

/// Values per packed block (its width is that of its largest value).
pub(crate) const BLOCK: usize = 1 << 14;

/// One packed block: `bits` bits a value, little-endian within u64 words.
#[derive(Debug)]
struct Block {
    bits: u32,
    words: Box<[u64]>,
}

/// G(0..len()) packed ([`BLOCK`] values a block, each at its own width).
#[derive(Debug, Default)]
pub(crate) struct Packed {
    blocks: Vec<Block>,
    /// The values of the block being filled (fewer than [`BLOCK`]).
    open: Vec<u32>,
}

impl Packed {
    /// Values held.
    pub(crate) fn len(&self) -> u64 {
        (self.blocks.len() * BLOCK + self.open.len()) as u64
    }

    /// Appends values (G(len()), G(len() + 1), …).
    pub(crate) fn extend(&mut self, values: impl IntoIterator<Item = u32>) {
        for v in values {
            if self.open.capacity() == 0 {
                self.open.reserve_exact(BLOCK);
            }
            self.open.push(v);
            if self.open.len() == BLOCK {
                let block = pack(&self.open);
                self.blocks.push(block);
                self.open.clear();
            }
        }
    }

    /// Keeps G(0..n) only (nothing when n is not below [`Packed::len`]).
    pub(crate) fn truncate(&mut self, n: u64) {
        if n >= self.len() {
            return;
        }
        let (b, at) = ((n / BLOCK as u64) as usize, (n % BLOCK as u64) as usize);
        if b < self.blocks.len() {
            // Block b's first values become the open block again.
            let head: Vec<u32> = (0..at).map(|k| unpack(&self.blocks[b], k)).collect();
            self.blocks.truncate(b);
            self.open.clear();
            self.open.extend_from_slice(&head);
        } else {
            self.open.truncate(at);
        }
    }

    /// G(i), which must be held.
    pub(crate) fn get(&self, i: u64) -> u32 {
        let (b, at) = ((i / BLOCK as u64) as usize, (i % BLOCK as u64) as usize);
        match self.blocks.get(b) {
            Some(block) => unpack(block, at),
            None => self.open[at + (b - self.blocks.len()) * BLOCK],
        }
    }

    /// Bytes of memory the values take (packed blocks and the open one).
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.blocks.iter().map(|b| b.words.len() * 8).sum::<usize>() + self.open.capacity() * 4
    }
}

/// Packs a whole block at the width of its largest value (at least 1 bit).
fn pack(values: &[u32]) -> Block {
    let max = values.iter().copied().max().unwrap_or(0);
    let bits = (32 - max.leading_zeros()).max(1);
    // One spare word, so that a value's read of the word after its own stays inside.
    let mut words = vec![0u64; (values.len() * bits as usize).div_ceil(64) + 1];
    for (i, &v) in values.iter().enumerate() {
        let at = i * bits as usize;
        let (w, s) = (at / 64, at % 64);
        words[w] |= u64::from(v) << s;
        if s + bits as usize > 64 {
            words[w + 1] |= u64::from(v) >> (64 - s);
        }
    }
    Block {
        bits,
        words: words.into_boxed_slice(),
    }
}

/// Value `i` of a packed block.
fn unpack(block: &Block, i: usize) -> u32 {
    let bits = block.bits as usize;
    let at = i * bits;
    let (w, s) = (at / 64, at % 64);
    // Two words as one u128, so a value that straddles them needs no branch.
    let pair = u128::from(block.words[w]) | (u128::from(block.words[w + 1]) << 64);
    ((pair >> s) as u64 & ((1u64 << bits) - 1)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every value comes back as it went in, whatever the widths of its blocks.
        #[test]
        fn values_come_back(widths in proptest::collection::vec(0u32..=32, 1..5), seed: u64, extra in 0usize..BLOCK) {
            let mut state = seed | 1;
            let mut next = move || { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state };
            let mut values = Vec::new();
            for &w in &widths {
                let mask = if w == 32 { u32::MAX } else { (1u32 << w) - 1 };
                values.extend((0..BLOCK).map(|_| next() as u32 & mask));
            }
            values.extend((0..extra).map(|_| next() as u32 & 0x1ff));
            let mut p = Packed::default();
            for part in values.chunks(1000) {
                p.extend(part.iter().copied());
            }
            prop_assert_eq!(p.len(), values.len() as u64);
            for (i, &v) in values.iter().enumerate() {
                prop_assert_eq!(p.get(i as u64), v, "value {}", i);
            }
            // Cut back anywhere and filled again with other values: the same as packed at once.
            let cut = (seed % (values.len() as u64 + 1)) as usize;
            p.truncate(cut as u64);
            prop_assert_eq!(p.len(), cut as u64);
            let again: Vec<u32> = values[cut..].iter().map(|v| v ^ 1).collect();
            p.extend(again.iter().copied());
            values[cut..].copy_from_slice(&again);
            for (i, &v) in values.iter().enumerate() {
                prop_assert_eq!(p.get(i as u64), v, "value {} after the cut at {}", i, cut);
            }
        }
    }

    /// The period search over packed values finds what it finds over the values themselves:
    /// 0.16's period 149459 (proven) over 2^20 values, most of them 8-bit, one block wider.
    #[test]
    fn the_period_search_reads_packed_values() {
        use grundy_heap::periodicity::{code_bound, find, find_by};
        let code = grundy_heap::rule::parse_code("0.16").unwrap();
        let mut values = crate::values(&code, 1 << 20, 1).unwrap();
        // One value past 255 early on, where the search never looks.
        values[3] = 300;
        let mut p = Packed::default();
        p.extend(values.iter().copied());
        let bound = code_bound(&code);
        let direct = find(&values, bound).unwrap();
        assert_eq!(direct.period, 149459);
        assert_eq!(find_by(p.len(), |i| p.get(i), bound), Some(direct));
    }

    #[test]
    fn nine_bit_values_take_nine_bits() {
        let values: Vec<u32> = (0..4 * BLOCK as u32).map(|i| (i * 7) % 400).collect();
        let mut p = Packed::default();
        p.extend(values.iter().copied());
        // Four blocks of 9-bit values and their spare words, and the open block kept for reuse.
        assert_eq!(p.bytes(), 4 * (BLOCK * 9 / 8 + 8) + 4 * BLOCK);
        assert_eq!(p.get(3 * BLOCK as u64 + 5), values[3 * BLOCK + 5]);
    }
}
