//! The transposition table: what the search knows about components, in a fixed block of memory.
//!
//! Each slot is 24 bytes: the component's canonical key (a 128-bit set and a 16-bit tag), its
//! nim value when known, a 32-bit mask of values it is known NOT to have (the Lemoine–Viennot
//! questions "is G + *n a P-position?" answered no), and a weight (the component's size). Slots
//! come in buckets of four; a key lives in the bucket its hash names. When a bucket is full the
//! lightest entry (smallest component, partial knowledge before exact values) gives way, so the
//! table never grows past its cap and the search goes on, only recomputing what was dropped.
//! A table starts at 384 KiB and doubles, up to its cap, whenever it is half full.
//!
//! The table can be written to a file and read back ([`Table::save`], [`Table::load`]), with a
//! domain string (the game and, where keys depend on it, the graph) that must match.

use std::io::{Read, Write};

/// A canonical component key: equal keys mean isomorphic components (the converse may fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The component's encoding (a shape, an adjacency matrix or a vertex set).
    pub bits: u128,
    /// What kind of encoding `bits` is, and its dimensions; never 0.
    pub tag: u16,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    lo: u64,
    hi: u64,
    tag: u16,
    value: u8,
    weight: u8,
    not: u32,
}

impl Slot {
    fn pack(&self) -> [u64; 3] {
        [
            self.lo,
            self.hi,
            self.tag as u64
                | (self.value as u64) << 16
                | (self.weight as u64) << 24
                | (self.not as u64) << 32,
        ]
    }

    fn unpack(w: &[u64; 3]) -> Slot {
        Slot {
            lo: w[0],
            hi: w[1],
            tag: w[2] as u16,
            value: (w[2] >> 16) as u8,
            weight: (w[2] >> 24) as u8,
            not: (w[2] >> 32) as u32,
        }
    }
}

const NONE: u8 = u8::MAX;
/// Buckets a new table starts with (384 KiB); it doubles, up to its cap, when half
/// full, so small searches stay small.
const START_BUCKETS: usize = 1 << 12;
const BUCKET: usize = 4;
/// The bytes one slot takes.
pub const SLOT_BYTES: usize = std::mem::size_of::<[u64; 3]>();
const MAGIC: &[u8; 8] = b"GRBTT001";

/// What the table knows of one key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Knowledge {
    /// The exact nim value, if known.
    pub value: Option<u32>,
    /// Bit `n` set: the value is known not to be `n` (for `n < 32`).
    pub not: u32,
}

/// A fixed-size, bucketed transposition table of component knowledge.
pub struct Table {
    /// Packed slots (`Slot::pack`): all-zero words are an empty slot, so a new table is
    /// zeroed memory the system hands out lazily, page by page as the search touches it.
    slots: Vec<[u64; 3]>,
    mask: usize,
    max_buckets: usize,
    used: usize,
    replaced: u64,
}

fn hash(k: &Key) -> u64 {
    let lo = k.bits as u64;
    let hi = (k.bits >> 64) as u64;
    let mut h = lo.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= hi
        .wrapping_add(k.tag as u64)
        .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^= h >> 29;
    h = h.wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^ (h >> 32)
}

impl Table {
    /// The number of bytes the smallest table takes (one bucket).
    pub const MIN_BYTES: usize = SLOT_BYTES * BUCKET;

    /// A table of at most `bytes` bytes (rounded down to a power of two of buckets), or `None`
    /// when `bytes` cannot hold one bucket.
    pub fn with_bytes(bytes: usize) -> Option<Table> {
        let buckets = bytes / (SLOT_BYTES * BUCKET);
        if buckets == 0 {
            return None;
        }
        let max_buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let buckets = max_buckets.min(START_BUCKETS);
        Some(Table {
            slots: vec![[0u64; 3]; buckets * BUCKET],
            mask: buckets - 1,
            max_buckets,
            used: 0,
            replaced: 0,
        })
    }

    /// The most bytes the table may grow to.
    pub fn max_bytes(&self) -> usize {
        self.max_buckets * BUCKET * SLOT_BYTES
    }

    /// Doubles the table (up to its cap) in place: an entry of bucket `b` stays there or moves
    /// to bucket `b + old size`, which only ever receives from `b`, so nothing is lost and the
    /// old and new tables never coexist (the allocator can extend the block where it lies).
    fn grow(&mut self) {
        let old = self.mask + 1;
        self.slots.resize(old * 2 * BUCKET, [0u64; 3]);
        self.mask = old * 2 - 1;
        for b in 0..old {
            let mut free = (b + old) * BUCKET;
            for i in b * BUCKET..(b + 1) * BUCKET {
                let w = self.slots[i];
                if w[2] as u16 == 0 {
                    continue;
                }
                let k = Key {
                    bits: (w[1] as u128) << 64 | w[0] as u128,
                    tag: w[2] as u16,
                };
                if self.bucket(&k) != b * BUCKET {
                    self.slots[free] = w;
                    self.slots[i] = [0u64; 3];
                    free += 1;
                }
            }
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    /// How many slots it has now (it grows, up to [`Table::max_bytes`], as it fills).
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// How many slots are in use.
    pub fn len(&self) -> usize {
        self.used
    }

    /// How many slots in use hold an exact value (the rest hold only values ruled out).
    pub fn exact_len(&self) -> usize {
        self.slots
            .iter()
            .filter(|w| w[2] as u16 != 0 && Slot::unpack(w).value != NONE)
            .count()
    }

    /// The keys that hold an exact value.
    pub(crate) fn exact_keys(&self) -> impl Iterator<Item = Key> + '_ {
        self.slots
            .iter()
            .filter(|w| w[2] as u16 != 0 && Slot::unpack(w).value != NONE)
            .map(|w| Key {
                bits: (w[1] as u128) << 64 | w[0] as u128,
                tag: w[2] as u16,
            })
    }

    /// Whether no slot is in use.
    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// How many entries were evicted to make room.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    fn bucket(&self, k: &Key) -> usize {
        (hash(k) as usize & self.mask) * BUCKET
    }

    fn find(&self, k: &Key) -> Option<usize> {
        let b = self.bucket(k);
        let lo = k.bits as u64;
        let hi = (k.bits >> 64) as u64;
        (b..b + BUCKET).find(|&i| {
            let s = &self.slots[i];
            s[0] == lo && s[1] == hi && s[2] as u16 == k.tag
        })
    }

    /// What is known of `k` (nothing when absent).
    pub fn get(&self, k: &Key) -> Knowledge {
        match self.find(k) {
            Some(i) => {
                let s = Slot::unpack(&self.slots[i]);
                Knowledge {
                    value: (s.value != NONE).then_some(s.value as u32),
                    not: s.not,
                }
            }
            None => Knowledge::default(),
        }
    }

    fn slot_for(&mut self, k: &Key, weight: u8, exact: bool) -> Option<usize> {
        if let Some(i) = self.find(k) {
            return Some(i);
        }
        if (self.used + 1) * 2 > self.slots.len() && self.mask + 1 < self.max_buckets {
            self.grow();
        }
        let b = self.bucket(k);
        let prio = |w: &[u64; 3]| {
            let s = Slot::unpack(w);
            (s.weight as u32) * 2 + (s.value != NONE) as u32
        };
        let mut best = b;
        for i in b..b + BUCKET {
            if self.slots[i][2] as u16 == 0 {
                self.used += 1;
                best = i;
                return Some(self.fill(best, k, weight));
            }
            if prio(&self.slots[i]) < prio(&self.slots[best]) {
                best = i;
            }
        }
        let new_prio = weight as u32 * 2 + exact as u32;
        if new_prio + 8 < prio(&self.slots[best]) {
            // Much less valuable than everything there: keep the bucket as it is.
            return None;
        }
        self.replaced += 1;
        Some(self.fill(best, k, weight))
    }

    fn fill(&mut self, i: usize, k: &Key, weight: u8) -> usize {
        self.slots[i] = Slot {
            lo: k.bits as u64,
            hi: (k.bits >> 64) as u64,
            tag: k.tag,
            value: NONE,
            weight,
            not: 0,
        }
        .pack();
        i
    }

    /// Records that `k` (of size `weight`) has value `v`.
    pub fn set_value(&mut self, k: &Key, weight: u32, v: u32) {
        if v >= NONE as u32 {
            return;
        }
        if let Some(i) = self.slot_for(k, weight.min(254) as u8, true) {
            let mut s = Slot::unpack(&self.slots[i]);
            s.value = v as u8;
            self.slots[i] = s.pack();
        }
    }

    /// Records that `k` (of size `weight`) does not have value `n` (ignored for `n ≥ 32`).
    pub fn set_not(&mut self, k: &Key, weight: u32, n: u32) {
        if n >= 32 {
            return;
        }
        if let Some(i) = self.slot_for(k, weight.min(254) as u8, false) {
            self.slots[i][2] |= 1u64 << (32 + n);
        }
    }

    /// Writes every entry, after a header naming `domain`, to `w`.
    pub fn save(&self, domain: &str, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(MAGIC)?;
        w.write_all(&(domain.len() as u32).to_le_bytes())?;
        w.write_all(domain.as_bytes())?;
        w.write_all(&(self.used as u64).to_le_bytes())?;
        let mut buf = Vec::with_capacity(1 << 16);
        for s in self.slots.iter().map(Slot::unpack).filter(|s| s.tag != 0) {
            buf.extend_from_slice(&s.lo.to_le_bytes());
            buf.extend_from_slice(&s.hi.to_le_bytes());
            buf.extend_from_slice(&s.tag.to_le_bytes());
            buf.push(s.value);
            buf.push(s.weight);
            buf.extend_from_slice(&s.not.to_le_bytes());
            if buf.len() >= 1 << 16 {
                w.write_all(&buf)?;
                buf.clear();
            }
        }
        w.write_all(&buf)
    }

    /// Reads entries written by [`Table::save`] into this table (which keeps its own size);
    /// fails when the header is not a table's or its domain is not `domain`.
    pub fn load(&mut self, domain: &str, r: &mut impl Read) -> Result<u64, LoadError> {
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic)?;
        if &magic != MAGIC {
            return Err(LoadError::NotATable);
        }
        let mut n4 = [0u8; 4];
        r.read_exact(&mut n4)?;
        let len = u32::from_le_bytes(n4) as usize;
        if len > 4096 {
            return Err(LoadError::NotATable);
        }
        let mut d = vec![0u8; len];
        r.read_exact(&mut d)?;
        let found = String::from_utf8_lossy(&d).into_owned();
        if found != domain {
            return Err(LoadError::Mismatch {
                expected: domain.to_string(),
                found,
            });
        }
        let mut n8 = [0u8; 8];
        r.read_exact(&mut n8)?;
        let count = u64::from_le_bytes(n8);
        let mut rec = [0u8; 24];
        for _ in 0..count {
            r.read_exact(&mut rec)?;
            let lo = u64::from_le_bytes(rec[0..8].try_into().expect("8 bytes"));
            let hi = u64::from_le_bytes(rec[8..16].try_into().expect("8 bytes"));
            let tag = u16::from_le_bytes([rec[16], rec[17]]);
            let (value, weight) = (rec[18], rec[19]);
            let not = u32::from_le_bytes(rec[20..24].try_into().expect("4 bytes"));
            if tag == 0 {
                return Err(LoadError::NotATable);
            }
            let k = Key {
                bits: (hi as u128) << 64 | lo as u128,
                tag,
            };
            if let Some(i) = self.slot_for(&k, weight, value != NONE) {
                let mut s = Slot::unpack(&self.slots[i]);
                if value != NONE {
                    s.value = value;
                }
                s.not |= not;
                self.slots[i] = s.pack();
            }
        }
        Ok(count)
    }
}

/// Why a saved table could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read (or ended early).
    #[error("reading the table: {0}")]
    Io(#[from] std::io::Error),
    /// The file is not a saved table.
    #[error("not a saved grundy-board table")]
    NotATable,
    /// The table is for another game or graph.
    #[error("the table is for {found:?}, not {expected:?}")]
    Mismatch {
        /// The domain asked for.
        expected: String,
        /// The domain in the file.
        found: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_is_24_bytes() {
        assert_eq!(SLOT_BYTES, 24);
    }

    #[test]
    fn grows_to_its_cap_and_keeps_entries() {
        let mut t = Table::with_bytes(64 << 20).unwrap();
        let start = t.capacity();
        let n = start as u32; // more than half the first size
        for i in 0..n {
            let k = Key {
                bits: i as u128,
                tag: 1,
            };
            t.set_value(&k, 10, i % 7);
        }
        assert!(t.capacity() > start);
        assert!(t.bytes() <= t.max_bytes());
        let kept = (0..n)
            .filter(|&i| {
                t.get(&Key {
                    bits: i as u128,
                    tag: 1,
                })
                .value
                    == Some(i % 7)
            })
            .count();
        assert_eq!(kept as u64 + t.replaced(), n as u64);
        assert_eq!(t.len() as u64 + t.replaced(), n as u64);
    }

    #[test]
    fn store_replace_save_load() {
        let mut t = Table::with_bytes(Table::MIN_BYTES * 2).unwrap();
        for i in 0..100u32 {
            let k = Key {
                bits: i as u128 * 7919,
                tag: 3,
            };
            t.set_value(&k, i % 50, i % 5);
            t.set_not(&k, i % 50, 7);
        }
        assert!(t.len() <= t.capacity());
        assert!(t.replaced() > 0);
        let mut buf = Vec::new();
        t.save("x", &mut buf).unwrap();
        let mut u = Table::with_bytes(1 << 12).unwrap();
        assert_eq!(u.load("x", &mut buf.as_slice()).unwrap(), t.len() as u64);
        assert!(u.load("y", &mut buf.as_slice()).is_err());
        for s in t.slots.iter().map(Slot::unpack).filter(|s| s.tag != 0) {
            let k = Key {
                bits: (s.hi as u128) << 64 | s.lo as u128,
                tag: s.tag,
            };
            assert_eq!(t.get(&k), u.get(&k));
        }
    }
}
