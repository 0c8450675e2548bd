//! Storage of the computed values G(0..n): u16 while every value fits, u32 after.
//!
//! The engine reads three kinds of positions: partners of rare heaps and small removals (recent
//! heaps), and the first parts of a confirming scan (small heaps). [`Seq`] keeps a prefix and a
//! recent run in memory. In full mode the prefix is empty and the recent run holds everything;
//! with the engine's memory window the middle is dropped once durable and fetched on demand
//! (the core's `gap` hook).

/// A stored value type.
pub trait Val: Copy + Default + Send + Sync + 'static {
    /// The largest value this type holds.
    const LIMIT: u32;
    fn get(self) -> u32;
    fn put(v: u32) -> Self;
    /// The same slice as u16 values, when that is what it holds (for the vector kernels).
    fn as_u16(s: &[Self]) -> Option<&[u16]>;
}

impl Val for u16 {
    const LIMIT: u32 = u16::MAX as u32;
    #[inline(always)]
    fn get(self) -> u32 {
        u32::from(self)
    }
    #[inline(always)]
    fn put(v: u32) -> Self {
        v as u16
    }
    fn as_u16(s: &[Self]) -> Option<&[u16]> {
        Some(s)
    }
}

impl Val for u32 {
    const LIMIT: u32 = u32::MAX;
    #[inline(always)]
    fn get(self) -> u32 {
        self
    }
    #[inline(always)]
    fn put(v: u32) -> Self {
        v
    }
    fn as_u16(_: &[Self]) -> Option<&[u16]> {
        None
    }
}

/// Values G(0..len): `prefix` holds G(0..prefix.len()), `recent` holds G(start..len).
/// In full mode `prefix` is empty and `start` is 0; windowed, G(prefix.len()..start) may be absent.
#[derive(Clone, Debug, Default)]
pub struct Seq<T> {
    pub prefix: Vec<T>,
    pub recent: Vec<T>,
    pub start: u64,
}

impl<T: Val> Seq<T> {
    /// Number of values known.
    #[inline]
    pub fn len(&self) -> u64 {
        self.start + self.recent.len() as u64
    }

    /// True before any value is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// G(i) when it is in memory.
    #[inline]
    pub fn get(&self, i: u64) -> Option<u32> {
        if i >= self.start {
            self.recent.get((i - self.start) as usize).map(|v| v.get())
        } else {
            self.prefix.get(i as usize).map(|v| v.get())
        }
    }

    /// G(from..from+len) as one slice of the recent run (the caller guarantees it is there).
    #[inline]
    pub fn recent_slice(&self, from: u64, len: usize) -> &[T] {
        let at = (from - self.start) as usize;
        &self.recent[at..at + len]
    }

    pub fn push(&mut self, v: u32) {
        self.recent.push(T::put(v));
    }

    /// Converts every stored value to another type.
    pub fn convert<U: Val>(&self) -> Seq<U> {
        Seq {
            prefix: self.prefix.iter().map(|v| U::put(v.get())).collect(),
            recent: self.recent.iter().map(|v| U::put(v.get())).collect(),
            start: self.start,
        }
    }
}
