//! The transposition table: what the search knows about components, in a fixed block of memory.
//!
//! Each slot holds the component's canonical key (a 128-bit set and a 16-bit tag), its nim
//! value when known, a 32-bit mask of values it is known NOT to have (the Lemoine–Viennot
//! questions "is G + *n a P-position?" answered no), and a weight (the component's size). A
//! slot is 24 bytes, or 16 in a *narrow* table ([`Table::narrow`]), which stores only keys
//! whose set fits 64 bits (every key of a lattice of at most 64 cells: a shape's encoding has
//! one bit per cell of its bounding box), so the same memory holds half as many entries again.
//! Slots come in buckets of eight; a key lives in the bucket its hash names. When a bucket is
//! full the lightest entry (smallest component, partial knowledge before exact values) gives
//! way, so the table never grows past its cap and the search goes on, only recomputing what was
//! dropped. A table starts small and doubles, up to its cap, whenever it is three quarters
//! full, and also when a bucket overflows once it is a quarter full (the last step to the cap
//! may be less than a doubling: the cap is all the memory given, not the power of two below
//! it, since a hash names its bucket by multiplying, not masking). Eight-way buckets
//! overflow rarely below three quarters (about one insertion in thirty at half load), but
//! what gives way can be dear to learn again. Node Kayles on the 3 x 21 grid took 9x the nodes
//! when its 50 000 overflows let entries go (5.45 M against 0.61 M nodes, 3.4x the CPU); below
//! a quarter the overflows are too rare to pay for a doubling.
//!
//! The table can be written to a file and read back ([`Table::save`], [`Table::load`]), with a
//! domain string (the game and, where keys depend on it, the graph) that must match.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed, Ordering::Release};
use std::sync::Arc;

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
    /// The slot's last word: tag, value, weight and "not" mask (a zero tag: an empty slot).
    fn meta(&self) -> u64 {
        self.tag as u64
            | (self.value as u64) << 16
            | (self.weight as u64) << 24
            | (self.not as u64) << 32
    }

    /// The key the slot holds.
    fn key(&self) -> Key {
        Key {
            bits: (self.hi as u128) << 64 | self.lo as u128,
            tag: self.tag,
        }
    }

    fn from_words(lo: u64, hi: u64, meta: u64) -> Slot {
        Slot {
            lo,
            hi,
            tag: meta as u16,
            value: (meta >> 16) as u8,
            weight: (meta >> 24) as u8,
            not: (meta >> 32) as u32,
        }
    }
}

const NONE: u8 = u8::MAX;

/// How dear the entry whose last word is `meta` is to learn again: its weight (the
/// component's size), then an exact value before values ruled out; the lowest gives way.
#[inline]
fn prio(meta: u64) -> u32 {
    ((meta >> 24) as u8 as u32) * 2 + ((meta >> 16) as u8 != NONE) as u32
}

/// Buckets a new table starts with (384 KiB wide, 256 KiB narrow); it doubles, up to its cap,
/// when three quarters full (or a quarter full with a bucket overflowing), so small searches
/// stay small.
const START_BUCKETS: usize = 1 << 11;
const BUCKET: usize = 8;
/// The bytes one slot of a wide table takes.
pub const SLOT_BYTES: usize = 24;
/// The bytes one slot of a narrow table takes.
pub const NARROW_SLOT_BYTES: usize = 16;
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
    /// Slots of `width` words each: `[lo, hi, meta]`, or `[lo, meta]` when narrow (`hi` is
    /// 0), `meta` as [`Slot::meta`] packs it. All-zero words are an empty slot, so a new table
    /// is zeroed memory the system hands out lazily, page by page as the search touches it.
    words: Vec<u64>,
    width: usize,
    /// How many buckets the table has now (any number: [`bucket_of`]).
    buckets: usize,
    max_buckets: usize,
    used: usize,
    replaced: u64,
    /// The compact table, when this is one ([`Table::compact`]): every method goes there.
    compact: Option<Arc<Compact>>,
    /// Grow (while below the cap) rather than let an entry give way in a full bucket
    /// ([`Table::keep_entries`]).
    eager: bool,
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

/// The bucket, of `buckets`, that hash `h` names: the high word of `h × buckets` (Lemire's
/// multiply-shift reduction), so a table of any number of buckets uses all of them, and the
/// buckets keep the order of the hashes: growing from `n` to `m > n` buckets moves an entry of
/// bucket `b` to a bucket from `b·m/n` to `(b+1)·m/n`, never below `b` ([`Table::grow`]).
#[inline]
fn bucket_of(h: u64, buckets: usize) -> usize {
    ((h as u128 * buckets as u128) >> 64) as usize
}

impl Table {
    /// The number of bytes the smallest table takes (one bucket).
    pub const MIN_BYTES: usize = SLOT_BYTES * BUCKET;

    /// A table of at most `bytes` bytes (rounded down to whole buckets), or `None` when
    /// `bytes` cannot hold one bucket.
    pub fn with_bytes(bytes: usize) -> Option<Table> {
        Table::make(bytes, 3)
    }

    /// A narrow table of at most `bytes` bytes: 16-byte slots that store only keys whose
    /// set fits 64 bits (others are neither stored nor found), or `None` when `bytes` cannot
    /// hold one bucket of [`Table::MIN_BYTES`].
    pub fn narrow(bytes: usize) -> Option<Table> {
        if bytes < Table::MIN_BYTES {
            return None;
        }
        Table::make(bytes, 2)
    }

    fn make(bytes: usize, width: usize) -> Option<Table> {
        let max_buckets = bytes / (8 * width * BUCKET);
        if max_buckets == 0 {
            return None;
        }
        let buckets = max_buckets.min(START_BUCKETS);
        Some(Table {
            words: vec![0u64; buckets * BUCKET * width],
            width,
            buckets,
            max_buckets,
            used: 0,
            replaced: 0,
            compact: None,
            eager: false,
        })
    }

    /// A compact table of at most `bytes` bytes: 8-byte slots that hold a lattice key whose
    /// shape fits 48 bits and its exact value in one word (no "not" masks: [`Table::set_not`]
    /// is ignored), so a table can be shared by threads ([`Table::share`]) with no lock and no
    /// torn entry. Its memory is reserved at once but untouched (zeroed by the system, page by
    /// page as the table grows into it). `None` when `bytes` cannot hold one bucket of
    /// [`Table::MIN_BYTES`].
    pub fn compact(bytes: usize) -> Option<Table> {
        if bytes < Table::MIN_BYTES {
            return None;
        }
        Some(Table::on_compact(Arc::new(Compact::with_bytes(bytes))))
    }

    /// Another handle on the same compact table, for another thread (`None` unless compact).
    pub fn share(&self) -> Option<Table> {
        Some(Table::on_compact(self.compact.as_ref()?.clone()))
    }

    /// A handle on the compact table `c`.
    fn on_compact(c: Arc<Compact>) -> Table {
        Table {
            words: Vec::new(),
            width: 1,
            buckets: 0,
            max_buckets: c.max_buckets,
            used: 0,
            replaced: 0,
            compact: Some(c),
            eager: false,
        }
    }

    /// Makes a full bucket double the table (while it is below its cap) instead of letting
    /// its lightest entry give way even below a quarter full (a full bucket doubles it from a
    /// quarter on in any table): for searches whose light entries are dear to compute again
    /// (the long rows of [`crate::search::Search`]), at the price of growing sooner.
    pub fn keep_entries(&mut self) {
        self.eager = true;
    }

    /// Whether this is a compact table ([`Table::compact`]).
    pub fn is_compact(&self) -> bool {
        self.compact.is_some()
    }

    /// Whether this is a narrow table ([`Table::narrow`]).
    pub fn is_narrow(&self) -> bool {
        self.width == 2
    }

    /// The slot `i`.
    #[inline]
    fn slot(&self, i: usize) -> Slot {
        let w = &self.words[i * self.width..(i + 1) * self.width];
        match *w {
            [lo, meta] => Slot::from_words(lo, 0, meta),
            [lo, hi, meta] => Slot::from_words(lo, hi, meta),
            _ => unreachable!("slots are 2 or 3 words"),
        }
    }

    /// The last word of slot `i` (tag, value, weight, "not" mask).
    #[inline]
    fn meta(&self, i: usize) -> u64 {
        self.words[(i + 1) * self.width - 1]
    }

    #[inline]
    fn set_meta(&mut self, i: usize, meta: u64) {
        self.words[(i + 1) * self.width - 1] = meta;
    }

    fn put(&mut self, i: usize, s: &Slot) {
        let w = self.width;
        let at = &mut self.words[i * w..(i + 1) * w];
        at[0] = s.lo;
        if w == 3 {
            at[1] = s.hi;
        }
        at[w - 1] = s.meta();
    }

    fn slots(&self) -> usize {
        self.words.len() / self.width
    }

    /// The most bytes the table may grow to.
    pub fn max_bytes(&self) -> usize {
        if self.compact.is_some() {
            return self.max_buckets * COMPACT_BUCKET * 8;
        }
        self.max_buckets * BUCKET * 8 * self.width
    }

    /// Doubles the table, or grows it to its cap when that is less, in place. The buckets keep
    /// the order of the hashes ([`bucket_of`]), so the entries of bucket `b` move to buckets at
    /// or above `b`, and only the lowest of them can also receive from bucket `b + 1`. Going
    /// down from the last bucket, each bucket's entries are taken out, the new buckets only
    /// it reaches are cleared (what they held has moved already, or is the bucket itself), and
    /// the entries are put back where they now belong: nothing is lost but what overflows a
    /// bucket shared with the bucket above (the lightest gives way, as in [`Table::slot_for`]),
    /// and the old and new tables never coexist (the allocator can extend the block where it
    /// lies).
    fn grow(&mut self) {
        let old = self.buckets;
        let new = (old * 2).min(self.max_buckets);
        if new <= old {
            return;
        }
        // Exactly: `resize` alone may reserve twice the old size, past the cap.
        let len = new * BUCKET * self.width;
        self.words.reserve_exact(len - self.words.len());
        self.words.resize(len, 0);
        self.buckets = new;
        // Buckets from `done` on hold the grown table.
        let mut done = new;
        let mut moving = [Slot::default(); BUCKET];
        for b in (0..old).rev() {
            let mut n = 0;
            for i in b * BUCKET..(b + 1) * BUCKET {
                let s = self.slot(i);
                if s.tag != 0 {
                    moving[n] = s;
                    n += 1;
                }
            }
            let low = (b as u128 * new as u128 / old as u128) as usize;
            for i in low * BUCKET..done * BUCKET {
                self.put(i, &Slot::default());
            }
            for s in &moving[..n] {
                let at = self.bucket(&s.key());
                debug_assert!(at >= low * BUCKET && at <= done.min(new - 1) * BUCKET);
                match self.free_slot(at) {
                    Some(i) => self.put(i, s),
                    None => {
                        // A bucket shared with the one above is full: the lightest entry,
                        // this one or one there, gives way.
                        let lightest = self.lightest(at);
                        if prio(s.meta()) > prio(self.meta(lightest)) {
                            self.put(lightest, s);
                        }
                        self.used -= 1;
                        self.replaced += 1;
                    }
                }
            }
            done = low;
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        if let Some(c) = &self.compact {
            return c.slots() * 8;
        }
        self.words.len() * 8
    }

    /// How many slots it has now (it grows, up to [`Table::max_bytes`], as it fills).
    pub fn capacity(&self) -> usize {
        if let Some(c) = &self.compact {
            return c.slots();
        }
        self.slots()
    }

    /// How many slots are in use.
    pub fn len(&self) -> usize {
        if let Some(c) = &self.compact {
            return c.used.load(Relaxed);
        }
        self.used
    }

    /// The slots in use.
    fn entries(&self) -> Box<dyn Iterator<Item = Slot> + '_> {
        if let Some(c) = &self.compact {
            return Box::new(c.words[..c.slots()].iter().filter_map(|w| {
                let w = w.load(Relaxed);
                (w != 0).then(|| {
                    let k = Compact::key_of(w);
                    Slot {
                        lo: k.bits as u64,
                        hi: 0,
                        tag: k.tag,
                        value: (w >> 57) as u8 - 1,
                        weight: k.bits.count_ones() as u8,
                        not: 0,
                    }
                })
            }));
        }
        Box::new(
            (0..self.slots())
                .map(|i| self.slot(i))
                .filter(|s| s.tag != 0),
        )
    }

    /// How many slots in use hold an exact value (the rest hold only values ruled out).
    pub fn exact_len(&self) -> usize {
        self.entries().filter(|s| s.value != NONE).count()
    }

    /// The keys that hold an exact value.
    pub(crate) fn exact_keys(&self) -> impl Iterator<Item = Key> + '_ {
        self.entries().filter(|s| s.value != NONE).map(|s| s.key())
    }

    /// Whether no slot is in use.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many entries were evicted to make room.
    pub fn replaced(&self) -> u64 {
        if let Some(c) = &self.compact {
            return c.replaced.load(Relaxed);
        }
        self.replaced
    }

    fn bucket(&self, k: &Key) -> usize {
        bucket_of(hash(k), self.buckets) * BUCKET
    }

    /// The first empty slot of the bucket starting at slot `b`, if any.
    #[inline]
    fn free_slot(&self, b: usize) -> Option<usize> {
        (b..b + BUCKET).find(|&i| self.meta(i) as u16 == 0)
    }

    /// The slot of the bucket starting at slot `b` whose entry gives way first ([`prio`]; the
    /// first of equals).
    #[inline]
    fn lightest(&self, b: usize) -> usize {
        (b..b + BUCKET)
            .min_by_key(|&i| prio(self.meta(i)))
            .expect("a bucket has slots")
    }

    /// Grows the table, up to its cap, until `n` entries leave it at most three quarters full
    /// (the load at which it grows).
    #[inline]
    fn reserve(&mut self, n: usize) {
        while n.saturating_mul(4) > self.slots() * 3 && self.buckets < self.max_buckets {
            self.grow();
        }
    }

    /// Whether `k` can be stored: a narrow table takes only keys whose set fits 64 bits.
    #[inline]
    fn fits(&self, k: &Key) -> bool {
        self.width == 3 || k.bits >> 64 == 0
    }

    #[inline]
    fn find(&self, k: &Key) -> Option<usize> {
        let b = self.bucket(k);
        let lo = k.bits as u64;
        let hi = (k.bits >> 64) as u64;
        if self.width == 2 {
            if hi != 0 {
                return None;
            }
            let w = &self.words[b * 2..(b + BUCKET) * 2];
            (0..BUCKET)
                .find(|&j| w[2 * j] == lo && w[2 * j + 1] as u16 == k.tag)
                .map(|j| b + j)
        } else {
            let w = &self.words[b * 3..(b + BUCKET) * 3];
            (0..BUCKET)
                .find(|&j| w[3 * j] == lo && w[3 * j + 1] == hi && w[3 * j + 2] as u16 == k.tag)
                .map(|j| b + j)
        }
    }

    /// What is known of `k` (nothing when absent).
    #[inline]
    pub fn get(&self, k: &Key) -> Knowledge {
        if let Some(c) = &self.compact {
            return Knowledge {
                value: c.get(k),
                not: 0,
            };
        }
        match self.find(k) {
            Some(i) => {
                let m = self.meta(i);
                let value = (m >> 16) as u8;
                Knowledge {
                    value: (value != NONE).then_some(value as u32),
                    not: (m >> 32) as u32,
                }
            }
            None => Knowledge::default(),
        }
    }

    fn slot_for(&mut self, k: &Key, weight: u8, exact: bool) -> Option<usize> {
        if !self.fits(k) {
            return None;
        }
        if let Some(i) = self.find(k) {
            return Some(i);
        }
        self.reserve(self.used + 1);
        while (self.eager || self.used * 4 >= self.slots())
            && self.buckets < self.max_buckets
            && (0..BUCKET).all(|j| self.meta(self.bucket(k) + j) as u16 != 0)
        {
            self.grow();
        }
        let b = self.bucket(k);
        if let Some(i) = self.free_slot(b) {
            self.used += 1;
            return Some(self.fill(i, k, weight));
        }
        let best = self.lightest(b);
        let new_prio = weight as u32 * 2 + exact as u32;
        if new_prio + 8 < prio(self.meta(best)) {
            // Much less valuable than everything there: keep the bucket as it is.
            return None;
        }
        self.replaced += 1;
        Some(self.fill(best, k, weight))
    }

    fn fill(&mut self, i: usize, k: &Key, weight: u8) -> usize {
        self.put(
            i,
            &Slot {
                lo: k.bits as u64,
                hi: (k.bits >> 64) as u64,
                tag: k.tag,
                value: NONE,
                weight,
                not: 0,
            },
        );
        i
    }

    /// Records that `k` (of size `weight`) has value `v`.
    pub fn set_value(&mut self, k: &Key, weight: u32, v: u32) {
        if let Some(c) = &self.compact {
            c.set_value(k, v);
            return;
        }
        self.try_set_value(k, weight, v);
    }

    /// [`Table::set_value`] on a table that is not compact, saying whether the value was
    /// stored: a full bucket of heavier entries keeps them and refuses it, and so does a
    /// value of 255 or more.
    pub fn try_set_value(&mut self, k: &Key, weight: u32, v: u32) -> bool {
        if v >= NONE as u32 || self.compact.is_some() {
            return false;
        }
        match self.slot_for(k, weight.min(254) as u8, true) {
            Some(i) => {
                let m = self.meta(i) & !(0xFF << 16) | (v as u64) << 16;
                self.set_meta(i, m);
                true
            }
            None => false,
        }
    }

    /// Records that `k` (of size `weight`) does not have value `n` (ignored for `n ≥ 32`).
    pub fn set_not(&mut self, k: &Key, weight: u32, n: u32) {
        if n >= 32 || self.compact.is_some() {
            return;
        }
        if let Some(i) = self.slot_for(k, weight.min(254) as u8, false) {
            let m = self.meta(i) | 1u64 << (32 + n);
            self.set_meta(i, m);
        }
    }

    /// Writes every entry, after a header naming `domain`, to `w`.
    pub fn save(&self, domain: &str, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(MAGIC)?;
        w.write_all(&(domain.len() as u32).to_le_bytes())?;
        w.write_all(domain.as_bytes())?;
        w.write_all(&(self.entries().count() as u64).to_le_bytes())?;
        let mut buf = Vec::with_capacity(1 << 16);
        for s in self.entries() {
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

    /// Reads entries written by [`Table::save`] into this table (which grows for them up to its
    /// own cap); fails when the header is not a table's or its domain is not `domain`.
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
        // A file holds its entries in the buckets' order, which is the hashes' order
        // ([`bucket_of`]): fed to a table still small, they would crowd its first buckets while
        // it is under a quarter full, and most would give way. So it grows for all of them first.
        if self.compact.is_none() {
            self.reserve(
                self.used
                    .saturating_add(usize::try_from(count).unwrap_or(usize::MAX)),
            );
        }
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
            if let Some(c) = &self.compact {
                if value != NONE {
                    c.set_value(&k, value as u32);
                }
                continue;
            }
            if let Some(i) = self.slot_for(&k, weight, value != NONE) {
                let mut m = self.meta(i) | (not as u64) << 32;
                if value != NONE {
                    m = m & !(0xFF << 16) | (value as u64) << 16;
                }
                self.set_meta(i, m);
            }
        }
        Ok(count)
    }
}

/// Slots in a bucket of the compact table (one cache line).
const COMPACT_BUCKET: usize = 8;
/// The shape bits of a compact slot.
const SHAPE: u64 = (1 << 48) - 1;
/// The key bits of a compact slot (shape, height - 1, width - 1); the value + 1 lies above.
const KEY_BITS: u64 = (1 << 57) - 1;

/// The storage of [`Table::compact`]: one `u64` a slot, `shape | (h - 1) << 48 | (w - 1) << 51
/// | (value + 1) << 57` (0: empty); it doubles when half full. Every store writes a whole entry in one atomic word, so a
/// reader on any thread sees an entry that was written whole, never a mix of two; the worst a
/// race does is lose an entry (a search recomputes it). The table doubles by raising its mask
/// within memory reserved at the start, so no thread ever sees it move; so, unlike the other
/// tables, its cap is a power of two of buckets (the largest within the bytes given): its
/// boards are small (at most 48 cells), and a split by mask is what lets readers on other
/// threads go on while it grows.
struct Compact {
    words: Box<[AtomicU64]>,
    /// Buckets in use, less one.
    mask: AtomicUsize,
    max_buckets: usize,
    used: AtomicUsize,
    replaced: AtomicU64,
    growing: AtomicBool,
}

impl Compact {
    fn with_bytes(bytes: usize) -> Compact {
        let buckets = (bytes / (8 * COMPACT_BUCKET)).max(1);
        let max_buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Compact {
            words: bytemuck::allocation::zeroed_slice_box(max_buckets * COMPACT_BUCKET),
            mask: AtomicUsize::new(max_buckets.min(START_BUCKETS) - 1),
            max_buckets,
            used: AtomicUsize::new(0),
            replaced: AtomicU64::new(0),
            growing: AtomicBool::new(false),
        }
    }

    fn slots(&self) -> usize {
        (self.mask.load(Relaxed) + 1) * COMPACT_BUCKET
    }

    /// `k`'s slot word without its value, or `None` when `k` is no lattice shape of at most
    /// 48 bits.
    #[inline]
    fn encode(k: &Key) -> Option<u64> {
        let (h, w) = ((k.tag >> 8) as u64, (k.tag & 0xFF) as u64);
        if k.bits >> 48 != 0 || !(1..=8).contains(&h) || !(1..=64).contains(&w) {
            return None;
        }
        Some(k.bits as u64 | (h - 1) << 48 | (w - 1) << 51)
    }

    fn key_of(w: u64) -> Key {
        let (h, wd) = ((w >> 48 & 7) + 1, (w >> 51 & 63) + 1);
        Key {
            bits: (w & SHAPE) as u128,
            tag: (h << 8 | wd) as u16,
        }
    }

    #[inline]
    fn bucket(&self, k: &Key, mask: usize) -> usize {
        (hash(k) as usize & mask) * COMPACT_BUCKET
    }

    #[inline]
    fn get(&self, k: &Key) -> Option<u32> {
        let e = Compact::encode(k)?;
        let b = self.bucket(k, self.mask.load(Relaxed));
        self.words[b..b + COMPACT_BUCKET].iter().find_map(|s| {
            let w = s.load(Relaxed);
            (w & KEY_BITS == e).then(|| (w >> 57) as u32 - 1)
        })
    }

    fn set_value(&self, k: &Key, v: u32) {
        let Some(e) = Compact::encode(k) else { return };
        if v >= 127 {
            return;
        }
        let entry = e | (v as u64 + 1) << 57;
        if self.used.load(Relaxed) * 2 > self.slots() {
            self.grow();
        }
        let b = self.bucket(k, self.mask.load(Relaxed));
        let weight = |w: u64| (w & SHAPE).count_ones();
        let mut victim = b;
        for (i, s) in self.words[b..b + COMPACT_BUCKET].iter().enumerate() {
            let w = s.load(Relaxed);
            if w & KEY_BITS == e {
                return;
            }
            if w == 0 && s.compare_exchange(0, entry, Relaxed, Relaxed).is_ok() {
                self.used.fetch_add(1, Relaxed);
                return;
            }
            if weight(w) < weight(self.words[victim].load(Relaxed)) {
                victim = b + i;
            }
        }
        // Full: the lightest entry gives way, unless it is much heavier than this one.
        if weight(entry) + 4 < weight(self.words[victim].load(Relaxed)) {
            return;
        }
        self.words[victim].store(entry, Relaxed);
        self.replaced.fetch_add(1, Relaxed);
    }

    /// Doubles the buckets in use (one thread at a time; the others go on meanwhile): the new
    /// mask is published first, then each entry of bucket `b` whose bucket is now `b + old` is
    /// moved there. A lookup in between may miss an entry not yet moved; none sees a wrong one.
    fn grow(&self) {
        let old = self.mask.load(Relaxed) + 1;
        if old >= self.max_buckets || self.growing.swap(true, Relaxed) {
            return;
        }
        if self.mask.load(Relaxed) + 1 != old {
            self.growing.store(false, Release);
            return;
        }
        let mask = old * 2 - 1;
        self.mask.store(mask, Release);
        for b in 0..old {
            let mut free = (b + old) * COMPACT_BUCKET;
            let end = free + COMPACT_BUCKET;
            for i in b * COMPACT_BUCKET..(b + 1) * COMPACT_BUCKET {
                let w = self.words[i].load(Relaxed);
                if w == 0 || self.bucket(&Compact::key_of(w), mask) == b * COMPACT_BUCKET {
                    continue;
                }
                while free < end
                    && self.words[free]
                        .compare_exchange(0, w, Relaxed, Relaxed)
                        .is_err()
                {
                    free += 1;
                }
                if free < end {
                    free += 1;
                } else {
                    self.used.fetch_sub(1, Relaxed);
                }
                let _ = self.words[i].compare_exchange(w, 0, Relaxed, Relaxed);
            }
        }
        self.growing.store(false, Release);
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
    fn slot_sizes() {
        let wide = Table::with_bytes(1 << 20).unwrap();
        let narrow = Table::narrow(1 << 20).unwrap();
        assert_eq!(wide.bytes(), wide.capacity() * SLOT_BYTES);
        assert_eq!(narrow.bytes(), narrow.capacity() * NARROW_SLOT_BYTES);
        assert!(narrow.is_narrow() && !wide.is_narrow());
    }

    #[test]
    fn compact_table_grows_shares_and_saves() {
        let mut t = Table::compact(1 << 20).unwrap();
        let shape = |i: u64| Key {
            bits: (i * 2 + 1) as u128,
            tag: 0x0410,
        };
        let start = t.capacity();
        let n = start as u64;
        for i in 0..n {
            t.set_value(&shape(i), 10, (i % 5) as u32);
        }
        assert!(t.capacity() > start && t.bytes() <= t.max_bytes());
        let kept = (0..n)
            .filter(|&i| t.get(&shape(i)).value == Some((i % 5) as u32))
            .count();
        assert!(kept as u64 + t.replaced() >= n, "{kept} kept");
        // No wrong value, no "not" masks, no keys past 48 bits.
        for i in 0..n {
            assert_eq!(t.get(&shape(i)).value.unwrap_or(i as u32 % 5), i as u32 % 5);
        }
        t.set_not(&shape(0), 10, 3);
        assert_eq!(t.get(&shape(0)).not, 0);
        let wide = Key {
            bits: 1 << 50,
            tag: 0x0808,
        };
        t.set_value(&wide, 40, 2);
        assert_eq!(t.get(&wide).value, None);
        // A shared handle sees the same entries.
        let u = t.share().unwrap();
        assert_eq!(u.get(&shape(1)), t.get(&shape(1)));
        // Saved and loaded into a wide table.
        let mut buf = Vec::new();
        t.save("x", &mut buf).unwrap();
        let mut w = Table::with_bytes(4 << 20).unwrap();
        assert_eq!(w.load("x", &mut buf.as_slice()).unwrap(), t.len() as u64);
        assert_eq!(w.get(&shape(3)).value, t.get(&shape(3)).value);
    }

    #[test]
    fn narrow_table_keeps_64_bit_keys_only() {
        let mut t = Table::narrow(1 << 16).unwrap();
        let small = Key {
            bits: u64::MAX as u128,
            tag: 0x0808,
        };
        let big = Key {
            bits: 1u128 << 64 | 5,
            tag: 0x0909,
        };
        t.set_value(&small, 30, 4);
        t.set_not(&small, 30, 2);
        t.set_value(&big, 40, 3);
        assert_eq!(
            t.get(&small),
            Knowledge {
                value: Some(4),
                not: 1 << 2
            }
        );
        assert_eq!(t.get(&big), Knowledge::default());
        assert_eq!(t.len(), 1);
        // Save and load through a wide table and back.
        let mut buf = Vec::new();
        t.save("x", &mut buf).unwrap();
        let mut u = Table::with_bytes(1 << 16).unwrap();
        assert_eq!(u.load("x", &mut buf.as_slice()).unwrap(), 1);
        assert_eq!(u.get(&small).value, Some(4));
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
    fn a_cap_between_powers_of_two_is_used_whole() {
        // 3 × 2^11 buckets: the last growth is from 2^12 to 3 × 2^11 buckets, not a doubling.
        // Two thirds full, it lets a few entries go; a table of the power of two below its cap
        // (2^12 buckets: every slot full) would let go far more.
        for width in [2, 3] {
            let bytes = 3 * START_BUCKETS * BUCKET * 8 * width;
            let mut t = Table::make(bytes, width).unwrap();
            let mut below = Table::make(2 * START_BUCKETS * BUCKET * 8 * width, width).unwrap();
            assert_eq!(t.max_bytes(), bytes);
            let key = |i: u32| Key {
                bits: (i as u128).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)
                    & u64::MAX as u128,
                tag: 2,
            };
            let n = (t.max_bytes() / (8 * width)) as u32 * 2 / 3;
            for i in 0..n {
                t.set_value(&key(i), 10, i % 7);
                t.set_not(&key(i), 10, 9);
                below.set_value(&key(i), 10, i % 7);
            }
            assert_eq!(t.bytes(), bytes, "grown to the cap itself");
            assert_eq!(t.words.capacity() * 8, bytes, "and no more memory held");
            assert_eq!(t.len() as u64 + t.replaced(), n as u64);
            assert!(
                t.replaced() * 4 < below.replaced(),
                "{} replaced, {} in the smaller table",
                t.replaced(),
                below.replaced()
            );
            let kept = (0..n)
                .filter(|&i| {
                    t.get(&key(i))
                        == Knowledge {
                            value: Some(i % 7),
                            not: 1 << 9,
                        }
                })
                .count();
            assert_eq!(kept, t.len());
        }
    }

    #[test]
    fn growing_in_place_keeps_every_entry_at_any_size() {
        // From n to m buckets, m not a multiple of n: every entry is found again, or was
        // counted as given way in a bucket shared by two old ones.
        for (start, cap) in [(1usize, 3usize), (2, 3), (3, 5), (5, 8), (7, 13), (64, 127)] {
            let mut t = Table::make(cap * BUCKET * 24, 3).unwrap();
            t.words = vec![0; start * BUCKET * 3];
            t.buckets = start;
            let key = |i: u32| Key {
                bits: (i as u128) << 70 | (i as u128).wrapping_mul(0x2545_F491_4F6C_DD1D),
                tag: 5,
            };
            let n = (start * BUCKET / 2) as u32;
            for i in 0..n {
                t.set_value(&key(i), i % 40, i % 9);
            }
            let before = t.len();
            while t.buckets < cap {
                t.grow();
            }
            assert_eq!(t.capacity(), cap * BUCKET);
            assert_eq!(t.len() as u64 + t.replaced(), n as u64);
            let found = (0..n)
                .filter(|&i| t.get(&key(i)).value == Some(i % 9))
                .count();
            assert_eq!(found, t.len(), "{start} -> {cap}: {before} before");
            let stored = (0..t.capacity()).filter(|&i| t.slot(i).tag != 0).count();
            assert_eq!(stored, t.len(), "no stale copies left behind");
        }
    }

    #[test]
    fn a_full_bucket_doubles_the_table_rather_than_drop_an_entry() {
        // Spread keys fill the table to three quarters again and again. Once it is a quarter
        // full an overflowing bucket doubles it, so only the rare overflows of the emptier
        // table may drop an entry: 47 of these 200 000 (some 18 600 when every overflow below
        // three quarters dropped one).
        let mut t = Table::with_bytes(64 << 20).unwrap();
        let n = 200_000u32;
        let key = |i: u32| Key {
            bits: (i as u128).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835),
            tag: 1,
        };
        for i in 0..n {
            t.set_value(&key(i), 10, i % 7);
        }
        assert!(t.replaced() < 100, "{} replaced", t.replaced());
        assert_eq!(t.len() as u64 + t.replaced(), n as u64);
        let kept = (0..n)
            .filter(|&i| t.get(&key(i)).value == Some(i % 7))
            .count();
        assert_eq!(kept, t.len());
        assert!(t.len() * 4 <= t.capacity() * 3);
    }

    #[test]
    fn a_saved_table_loads_whole_into_a_new_one() {
        // The file is in hash order; loaded into a table that starts small, the entries must
        // still find their places (fed to it without growing it first, about half gave way).
        let mut t = Table::with_bytes(64 << 20).unwrap();
        for i in 0..200_000u32 {
            let k = Key {
                bits: i as u128 * 7919,
                tag: 1,
            };
            t.set_value(&k, 10, i % 7);
        }
        let mut buf = Vec::new();
        t.save("x", &mut buf).unwrap();
        let mut u = Table::with_bytes(64 << 20).unwrap();
        assert_eq!(u.load("x", &mut buf.as_slice()).unwrap(), t.len() as u64);
        // A full bucket may let one go, as in any table; not more than one in a hundred.
        assert!(u.len() * 100 >= t.len() * 99, "{} of {}", u.len(), t.len());
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
        for s in t.entries() {
            let k = s.key();
            assert_eq!(t.get(&k), u.get(&k));
        }
    }
}
