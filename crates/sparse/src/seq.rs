//! Storage of the computed values G(0..n): u8 while every value fits, then u16, then u32.
//!
//! The engine reads three kinds of positions: partners of rare heaps and small removals (recent
//! heaps), and the first parts of a confirming scan (small heaps). [`Seq`] keeps a prefix and a
//! recent run in memory. In full mode the prefix is empty and the recent run holds everything;
//! with the engine's memory window the middle is dropped once durable and fetched on demand
//! (the core's `gap` hook).

/// A stored value type.
pub(crate) trait Val: Copy + Default + Send + Sync + Into<u32> + 'static {
    /// The largest value the type holds.
    const MAX: u32;
    fn get(self) -> u32;
    fn put(v: u32) -> Self;
    /// The same slice as u16 values, when that is what it holds (for the vector kernels).
    fn as_u16(s: &[Self]) -> Option<&[u16]>;
    /// The same slice as u8 values, when that is what it holds (for the vector kernels).
    fn as_u8(_: &[Self]) -> Option<&[u8]> {
        None
    }
}

impl Val for u8 {
    const MAX: u32 = 255;
    #[inline(always)]
    fn get(self) -> u32 {
        u32::from(self)
    }
    #[inline(always)]
    fn put(v: u32) -> Self {
        v as u8
    }
    fn as_u16(_: &[Self]) -> Option<&[u16]> {
        None
    }
    fn as_u8(s: &[Self]) -> Option<&[u8]> {
        Some(s)
    }
}

impl Val for u16 {
    const MAX: u32 = 65535;
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
    const MAX: u32 = u32::MAX;
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
pub(crate) struct Seq<T> {
    pub(crate) prefix: Vec<T>,
    pub(crate) recent: Vec<T>,
    pub(crate) start: u64,
}

impl<T: Val> Seq<T> {
    /// Number of values known.
    #[inline]
    pub(crate) fn len(&self) -> u64 {
        self.view().len()
    }

    /// G(i) when it is in memory.
    #[inline]
    pub(crate) fn get(&self, i: u64) -> Option<u32> {
        self.view().get(i)
    }

    /// The values as a read-only view.
    #[inline]
    pub(crate) fn view(&self) -> View<'_, T> {
        View {
            prefix: &self.prefix,
            recent: &self.recent,
            start: self.start,
        }
    }

    /// Converts every stored value to another type.
    pub(crate) fn convert<U: Val>(&self) -> Seq<U> {
        Seq {
            prefix: self.prefix.iter().map(|v| U::put(v.get())).collect(),
            recent: self.recent.iter().map(|v| U::put(v.get())).collect(),
            start: self.start,
        }
    }
}

/// Values G(0..len) as [`Seq`] lays them out, borrowed: what phase 1 and phase 2 read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View<'a, T> {
    pub(crate) prefix: &'a [T],
    pub(crate) recent: &'a [T],
    pub(crate) start: u64,
}

impl<'a, T: Val> View<'a, T> {
    /// Number of values seen.
    #[inline]
    pub(crate) fn len(&self) -> u64 {
        self.start + self.recent.len() as u64
    }

    /// G(i) when it is in memory.
    #[inline]
    pub(crate) fn get(&self, i: u64) -> Option<u32> {
        if i >= self.start {
            self.recent.get((i - self.start) as usize).map(|v| v.get())
        } else {
            self.prefix.get(i as usize).map(|v| v.get())
        }
    }

    /// G(from..from+len) as one in-memory slice (of the prefix or the recent run), if it is one.
    #[inline]
    pub(crate) fn slice(&self, from: u64, len: usize) -> Option<&'a [T]> {
        if from >= self.start {
            let at = usize::try_from(from - self.start).ok()?;
            self.recent.get(at..at.checked_add(len)?)
        } else {
            let at = usize::try_from(from).ok()?;
            self.prefix.get(at..at.checked_add(len)?)
        }
    }
}

/// A vector that one thread appends to while others read what it has published: the recent run
/// during a block, whose values phase 2 writes while phase 1 of later tiles reads earlier ones.
///
/// Invariant: elements `0..published` are initialised and never written again; the one
/// [`Appender`] writes only at `published..cap`, inside the capacity reserved up front, so the
/// buffer never moves while the shelf lives. Dropping the shelf sets the vector's length to what
/// was published.
pub(crate) struct Shelf<'a, T> {
    vec: *mut Vec<T>,
    base: *mut T,
    cap: usize,
    published: std::sync::atomic::AtomicUsize,
    taken: std::sync::atomic::AtomicBool,
    _vec: std::marker::PhantomData<&'a mut Vec<T>>,
}

// SAFETY: shared access reads only the published prefix `0..published`, which is initialised and
// never written again (the invariant); the single appender (`taken` hands out one) writes only
// past it and publishes with a Release store that readers load with Acquire, so no element is
// read while written. Values are plain `Copy + Send + Sync` data.
unsafe impl<T: Val> Sync for Shelf<'_, T> {}
// SAFETY: the shelf holds the vector's exclusive borrow (`PhantomData<&mut Vec<T>>`, which is
// `Send` for `T: Send`), and its raw pointers point into that vector only, so moving the shelf
// to another thread moves nothing that another thread still uses.
unsafe impl<T: Val> Send for Shelf<'_, T> {}

impl<'a, T: Val> Shelf<'a, T> {
    /// Opens `vec` for appending up to `more` values.
    pub(crate) fn new(vec: &'a mut Vec<T>, more: usize) -> Shelf<'a, T> {
        vec.reserve(more);
        let len = vec.len();
        let base = vec.as_mut_ptr();
        Shelf {
            vec,
            base,
            cap: len + more,
            published: std::sync::atomic::AtomicUsize::new(len),
            taken: std::sync::atomic::AtomicBool::new(false),
            _vec: std::marker::PhantomData,
        }
    }

    /// The values published so far.
    #[inline]
    pub(crate) fn published(&self) -> &[T] {
        let len = self.published.load(std::sync::atomic::Ordering::Acquire);
        // SAFETY: the Acquire load pairs with the appender's Release store, so `0..len` is
        // initialised, and it is never written again (the invariant); `len <= cap` lies inside
        // the allocation, which does not move while the shelf lives.
        unsafe { std::slice::from_raw_parts(self.base, len) }
    }

    /// How many values are published (without reading them).
    #[inline]
    pub(crate) fn published_len(&self) -> usize {
        self.published.load(std::sync::atomic::Ordering::Acquire)
    }

    /// The shelf's one appender (None if it was already taken).
    pub(crate) fn appender(&self) -> Option<Appender<'_, 'a, T>> {
        let taken = self.taken.swap(true, std::sync::atomic::Ordering::AcqRel);
        (!taken).then(|| Appender {
            shelf: self,
            written: self.published_len(),
        })
    }
}

impl<T> Drop for Shelf<'_, T> {
    fn drop(&mut self) {
        let len = *self.published.get_mut();
        // SAFETY: `vec` is the exclusively borrowed vector (PhantomData keeps the borrow) and
        // its first `len <= capacity` elements are initialised.
        unsafe { (*self.vec).set_len(len) };
    }
}

/// The writer of a [`Shelf`]: appends values and publishes each one at once.
pub(crate) struct Appender<'s, 'a, T> {
    shelf: &'s Shelf<'a, T>,
    written: usize,
}

impl<T: Val> Appender<'_, '_, T> {
    /// Appends `v` and publishes it. Panics when the reserved capacity is full.
    #[cfg(test)]
    pub(crate) fn push(&mut self, v: T) {
        assert!(self.written < self.shelf.cap, "shelf capacity exceeded");
        // SAFETY: `written < cap` lies in the reserved allocation, past everything published,
        // and no other appender exists, so nothing else reads or writes this element.
        unsafe { self.shelf.base.add(self.written).write(v) };
        self.written += 1;
        self.shelf
            .published
            .store(self.written, std::sync::atomic::Ordering::Release);
    }

    /// Appends `v` without publishing it yet (see [`Appender::publish`]; dropping the appender
    /// publishes too). Panics when the reserved capacity is full.
    #[inline]
    pub(crate) fn push_quiet(&mut self, v: T) {
        assert!(self.written < self.shelf.cap, "shelf capacity exceeded");
        // SAFETY: as in `push`: `written < cap` lies in the reserved allocation, past everything
        // published, and no other appender exists.
        unsafe { self.shelf.base.add(self.written).write(v) };
        self.written += 1;
    }

    /// Publishes every value appended so far (one store for many `push_quiet`s, so readers'
    /// caches are disturbed once).
    #[inline]
    pub(crate) fn publish(&self) {
        self.shelf
            .published
            .store(self.written, std::sync::atomic::Ordering::Release);
    }

    /// Every value so far (the appender's own included).
    #[inline]
    pub(crate) fn all(&self) -> &[T] {
        // SAFETY: as for `Shelf::published`: `0..written` is initialised and, being published,
        // never written again.
        unsafe { std::slice::from_raw_parts(self.shelf.base, self.written) }
    }
}

impl<T> Drop for Appender<'_, '_, T> {
    fn drop(&mut self) {
        // What was appended quietly is published, so the shelf keeps it.
        self.shelf
            .published
            .store(self.written, std::sync::atomic::Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shelf_publishes_appended_values_and_sets_the_length() {
        let mut v: Vec<u16> = vec![1, 2, 3];
        {
            let shelf = Shelf::new(&mut v, 4);
            let mut w = shelf.appender().expect("first appender");
            assert!(shelf.appender().is_none(), "one appender only");
            std::thread::scope(|s| {
                s.spawn(|| {
                    while shelf.published_len() < 5 {
                        std::hint::spin_loop();
                    }
                    assert_eq!(&shelf.published()[..5], &[1, 2, 3, 7, 8]);
                });
                w.push(7);
                w.push(8);
            });
            assert_eq!(w.all(), &[1, 2, 3, 7, 8]);
        }
        assert_eq!(v, vec![1, 2, 3, 7, 8]);
    }

    #[test]
    fn quiet_values_are_published_by_publish_or_by_drop() {
        let mut v: Vec<u16> = vec![1];
        {
            let shelf = Shelf::new(&mut v, 3);
            let mut w = shelf.appender().expect("appender");
            w.push_quiet(2);
            assert_eq!(shelf.published_len(), 1);
            assert_eq!(w.all(), &[1, 2]);
            w.publish();
            assert_eq!(shelf.published(), &[1, 2]);
            w.push_quiet(3);
        }
        assert_eq!(v, vec![1, 2, 3]);
    }

    #[test]
    #[should_panic(expected = "capacity")]
    fn shelf_refuses_to_write_past_its_reserve() {
        let mut v: Vec<u16> = Vec::new();
        let shelf = Shelf::new(&mut v, 1);
        let mut w = shelf.appender().expect("appender");
        w.push(1);
        w.push(2);
    }
}
