//! The search engine for any game whose positions fall apart into components ([`Split`]):
//! the sibling of [`crate::engine`] for the games of stones (Clobber, Cannibal Clobber, NoGo).
//!
//! [`crate::engine::Engine`] is specialised to vertex-deletion games on at most 128 vertices
//! (a position is a vertex set, a component a subset of it), and its inner loops (Cram's
//! reductions, the 64-bit flood fills, the key cache by cell set) are tuned to that. The games
//! of stones need other positions (stones of two colours and empty points; rows of thousands of
//! stones), so they get this engine, generic over [`Split`], which shares with the first:
//!
//! - the [`Table`] (keys of 128 bits and a tag, values, "not n" masks, a fixed size with light
//!   entries giving way, saved to and loaded from a file under a domain string);
//! - the questions: a component's value is the least `n` no option has (one Lemoine–Viennot
//!   question "is `A + B + … + *n` a P-position?" per option, every part but the largest
//!   valued in full and the largest asked about), and "is `C`'s value in the set `R`?" is
//!   answered by Beling and Rogalski's value sets where the component's value is bounded
//!   below 127 (`Search::in_set`: candidates `0..=k` for `k` options, a known option
//!   removes its value, the others are asked about the candidates but the largest, a "no"
//!   removes the largest);
//! - the pruning: a question above the component's bound (its longest play) is answered no
//!   at once, values and "not n" answers are kept, equal parts of an option cancel, options
//!   that are symmetric images of each other are asked once;
//! - the move order: options whose parts are all known first, then by the size of their
//!   largest unknown part (smallest first), then by the game's hint (the move's distance from
//!   the component's centre);
//! - the limits: a node cap, a stop flag, progress reports, the table's memory cap, and the
//!   checkpoint (the table saved every so often, [`crate::engine::Checkpoint`]).
//!
//! A [`Split`] game says what its components are, lists each component's options as the
//! components they fall into, and names each component by an exact canonical [`Key`] (equal
//! keys: isomorphic components; never a hash alone).
//!
//! The search recurses once per move made (a question about an option's largest part asks
//! about that part's options), so its depth is bounded by the longest play of the position;
//! the games keep their positions small enough, or value long rows from the short end up
//! ([`crate::stones`]), so that the depth stays small.

use crate::engine::{Options, Progress, SearchError};
use crate::table::{Key, LoadError, Table};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Words of the filter in front of the table (128 KiB).
const FILTER_WORDS: usize = 1 << 14;

/// The bytes a value kept beside the table is counted for (a hash map entry of a key and a
/// value, with the map's slack).
const BIG_ENTRY_BYTES: usize = 48;

/// Entries of the cache of "not" answers ([`Search`]'s `not_cache`, 2 MiB).
const NOT_CACHE: usize = 1 << 16;

/// A game whose positions are sums of components, as the [`Search`] engine sees it.
pub trait Split {
    /// A component: a position that the game does not split further. Cheap to copy.
    type Part: Copy;

    /// The component's canonical key: equal keys only for components whose games are
    /// isomorphic (the converse may fail, costing only a transposition missed).
    fn key(&self, part: &Self::Part) -> Key;

    /// The component's size, for the move order and the table's weights (stones, empty
    /// points).
    fn size(&self, part: &Self::Part) -> u32;

    /// A bound on the component's value: its longest play.
    fn bound(&self, part: &Self::Part) -> u32;

    /// The value when the game knows it without search (no move, one move).
    fn known(&self, _part: &Self::Part) -> Option<u32> {
        None
    }

    /// Lists the options of `part` into `out`: for each option its components
    /// ([`Sink::part`], those of value 0 may be left out), then [`Sink::end`] with the move's
    /// place in the move order (smaller first among options alike otherwise).
    fn options(&self, part: &Self::Part, out: &mut Sink<Self::Part>);

    /// What a saved table is tied to: the game, and whatever its keys depend on.
    fn domain(&self) -> String;

    /// True when every key fits 64 bits (`Key::bits >> 64 == 0`): the table then takes 16
    /// bytes an entry instead of 24.
    fn narrow(&self) -> bool {
        false
    }
}

/// The options of one component, as a [`Split`] game lists them.
pub struct Sink<P> {
    parts: Vec<P>,
    /// For each option: the end of its parts in `parts`, and its order hint.
    ends: Vec<(u32, u32)>,
}

impl<P> Default for Sink<P> {
    fn default() -> Sink<P> {
        Sink {
            parts: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl<P> Sink<P> {
    /// Adds a component of the option being listed.
    #[inline]
    pub fn part(&mut self, p: P) {
        self.parts.push(p);
    }

    /// Ends the option being listed; `hint` orders it among options alike otherwise (the
    /// move's distance from the component's centre: nearest first).
    #[inline]
    pub fn end(&mut self, hint: u32) {
        self.ends.push((self.parts.len() as u32, hint));
    }

    /// How many options were listed.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no option was listed.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The options listed, each as its parts and its hint.
    pub fn iter(&self) -> impl Iterator<Item = (&[P], u32)> + '_ {
        let mut start = 0usize;
        self.ends.iter().map(move |&(end, hint)| {
            let s = &self.parts[start..end as usize];
            start = end as usize;
            (s, hint)
        })
    }

    fn clear(&mut self) {
        self.parts.clear();
        self.ends.clear();
    }
}

/// A component under search: the game's part, its key and its size.
#[derive(Clone, Copy)]
struct Item<P> {
    part: P,
    key: Key,
    size: u32,
}

/// An option of a component: its parts of unknown value (a range of [`Opts::parts`]) and
/// the XOR of the others.
#[derive(Clone, Copy)]
struct Opt {
    /// The search order ([`order_key`]).
    order: u128,
    xor: u32,
    start: u32,
    len: u32,
}

impl Opt {
    fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// The options of one component under search (one flat buffer of parts for all of them).
struct Opts<P> {
    list: Vec<Opt>,
    parts: Vec<Item<P>>,
}

impl<P> Default for Opts<P> {
    fn default() -> Opts<P> {
        Opts {
            list: Vec::new(),
            parts: Vec::new(),
        }
    }
}

type ProgressFn = Box<dyn FnMut(&Progress) + Send>;

/// The engine: a [`Split`] game with its table. Reuse one engine for many positions of the
/// same game: the table carries over.
pub struct Search<G: Split> {
    game: G,
    table: Table,
    /// One bit per hash of every key whose value was ever recorded (see
    /// [`crate::engine::Engine`]): most unknown components skip the table's cache miss.
    filter: Vec<u64>,
    /// Values the table refused (255 and more, or a full bucket of heavier entries).
    big: HashMap<Key, u32>,
    /// The values below 128 that recently asked components are known not to have, by key in
    /// a direct-mapped cache of [`NOT_CACHE`] entries (a later entry overwrites an earlier
    /// one): a question asked again without an answer kept would cost its search again, and
    /// on long rows these repeats grow without bound.
    not_cache: Vec<(Key, u128)>,
    opts: Options,
    nodes: u64,
    next_check: u64,
    start: Instant,
    /// When the table was last saved by the [`Options::checkpoint`] (or the search began).
    saved: Instant,
    progress: Option<ProgressFn>,
    /// Option buffers not in use.
    free: Vec<Opts<G::Part>>,
    /// Raw option lists not in use.
    sinks: Vec<Sink<G::Part>>,
    /// Bytes held by the option buffers (in use and free), checked against the memory cap.
    buffer_bytes: usize,
}

/// Every value (as a set, bit `n` for value `n`).
const ALL: u128 = u128::MAX;

fn low(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The filter's word and bit for `k`.
fn filter_bit(k: &Key, words: usize) -> (usize, u32) {
    let lo = k.bits as u64;
    let hi = (k.bits >> 64) as u64;
    let h = (lo ^ hi.rotate_left(29) ^ (k.tag as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_mul(0xD6E8_FEB8_6659_FD93);
    let h = h ^ h >> 31;
    ((h >> 6) as usize & (words - 1), h as u32 & 63)
}

/// Sets `k`'s bit in `filter`.
#[inline]
fn mark(filter: &mut [u64], k: &Key) {
    let (w, b) = filter_bit(k, filter.len());
    filter[w] |= 1 << b;
}

impl<G: Split> Search<G> {
    /// An engine for `game` with an empty table of `opts.max_memory` bytes
    /// ([`Options::threads`] and [`Options::mirror`] do not apply: one thread, and the games
    /// put their own shortcuts in [`Split::known`]).
    pub fn new(game: G, opts: Options) -> Result<Search<G>, SearchError> {
        // Three quarters of the memory for the table, the rest for the option lists of the
        // components under search.
        let bytes = opts.max_memory / 4 * 3;
        let table = if game.narrow() {
            Table::narrow(bytes)
        } else {
            Table::with_bytes(bytes)
        };
        let mut table = table.ok_or(SearchError::MemoryTooSmall {
            bytes: opts.max_memory,
            min: Table::MIN_BYTES,
        })?;
        table.keep_entries();
        Ok(Search {
            game,
            table,
            filter: vec![0; FILTER_WORDS],
            big: HashMap::new(),
            not_cache: vec![(Key { bits: 0, tag: 0 }, 0,); NOT_CACHE],
            next_check: opts.check_every.max(1),
            opts,
            nodes: 0,
            start: Instant::now(),
            saved: Instant::now(),
            progress: None,
            free: Vec::new(),
            sinks: Vec::new(),
            buffer_bytes: 0,
        })
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The table (for its size and statistics).
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Calls `f` every [`Options::check_every`] nodes with the search's progress.
    pub fn set_progress(&mut self, f: impl FnMut(&Progress) + Send + 'static) {
        self.progress = Some(Box::new(f));
    }

    /// A snapshot of the search's progress.
    pub fn progress(&self) -> Progress {
        Progress {
            nodes: self.nodes,
            entries: self.table.len(),
            capacity: self.table.capacity(),
            replaced: self.table.replaced(),
            elapsed: self.start.elapsed(),
        }
    }

    /// Writes the table to `path` (through a temporary file renamed over it), to resume later
    /// with [`Search::load`].
    pub fn save(&self, path: &Path) -> Result<(), SearchError> {
        let tmp = path.with_extension("tmp");
        let f = std::fs::File::create(&tmp).map_err(LoadError::Io)?;
        let mut w = std::io::BufWriter::new(f);
        self.table
            .save(&self.game.domain(), &mut w)
            .and_then(|_| std::io::Write::flush(&mut w))
            .map_err(LoadError::Io)?;
        drop(w);
        std::fs::rename(&tmp, path).map_err(LoadError::Io)?;
        Ok(())
    }

    /// Reads a table saved by [`Search::save`] for the same domain; returns the entries read.
    pub fn load(&mut self, path: &Path) -> Result<u64, SearchError> {
        let f = std::fs::File::open(path).map_err(LoadError::Io)?;
        let mut r = std::io::BufReader::new(f);
        let n = self.table.load(&self.game.domain(), &mut r)?;
        // The filter is marked straight from the table: a list of the keys first would hold
        // 32 bytes an entry beside the table, past the memory cap (162 M entries of Clobber
        // 2 x 20 peaked at 8.8 GB under a 5G cap that way).
        for k in self.table.exact_keys() {
            mark(&mut self.filter, &k);
        }
        Ok(n)
    }

    /// The value of the sum of `parts` (the XOR of their values).
    pub fn value(&mut self, parts: &[G::Part]) -> Result<u32, SearchError> {
        let mut v = 0;
        for p in parts {
            let it = self.item(*p);
            v ^= self.value_of(&it)?;
        }
        Ok(v)
    }

    /// Whether the sum of `parts` plus `*n` is a P-position (the Lemoine–Viennot question),
    /// without valuing the largest part in full.
    pub fn is_p(&mut self, parts: &[G::Part], n: u32) -> Result<bool, SearchError> {
        let mut r = n;
        let mut items = Vec::with_capacity(parts.len());
        for p in parts {
            let it = self.item(*p);
            match self.known(&it) {
                Some(v) => r ^= v,
                None => items.push(it),
            }
        }
        items.sort_unstable_by_key(|q| (q.size, q.key));
        cancel_pairs(&mut items, 0);
        self.sum_is_p(&mut items, r)
    }

    /// Counts one step of work done outside the questions (a sweep over many components) as
    /// a node, with the node limit, the stop flag and the progress report checked as at any
    /// node.
    pub fn poll(&mut self) -> Result<(), SearchError> {
        self.tick()
    }

    /// The value of one component if the table (or the game) knows it, without search.
    pub fn cached(&self, part: &G::Part) -> Option<u32> {
        let it = self.item(*part);
        self.known(&it)
    }

    #[inline]
    fn item(&self, part: G::Part) -> Item<G::Part> {
        Item {
            key: self.game.key(&part),
            size: self.game.size(&part),
            part,
        }
    }

    fn tick(&mut self) -> Result<(), SearchError> {
        self.nodes += 1;
        if let Some(limit) = self.opts.max_nodes {
            if self.nodes >= limit {
                return Err(SearchError::NodeLimit { limit });
            }
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + self.opts.check_every.max(1);
            if let Some(s) = &self.opts.stop {
                if s.load(Ordering::Relaxed) {
                    return Err(SearchError::Stopped { nodes: self.nodes });
                }
            }
            if self.progress.is_some() {
                let p = self.progress();
                if let Some(f) = self.progress.as_mut() {
                    f(&p);
                }
            }
            if let Some(c) = self.opts.checkpoint.as_ref().filter(|c| c.due(self.saved)) {
                self.save(&c.path)?;
                self.saved = Instant::now();
            }
        }
        Ok(())
    }

    /// The value of `it` if known without search.
    #[inline]
    fn known(&self, it: &Item<G::Part>) -> Option<u32> {
        if let Some(v) = self.game.known(&it.part) {
            return Some(v);
        }
        let (w, b) = filter_bit(&it.key, self.filter.len());
        if self.filter[w] >> b & 1 == 0 {
            return None;
        }
        match self.table.get(&it.key).value {
            Some(v) => Some(v),
            None if !self.big.is_empty() => self.big.get(&it.key).copied(),
            None => None,
        }
    }

    fn mark(&mut self, k: &Key) {
        mark(&mut self.filter, k);
    }

    /// Records `it`'s value in the table and its key in the filter; beside the table when it
    /// refuses it (a value of 255 or more, or a bucket full of heavier entries: the
    /// component is light, but asked again and again without its value it would cost its
    /// search each time; on long rows such repeats grow without bound).
    fn set_value(&mut self, it: &Item<G::Part>, v: u32) {
        self.mark(&it.key);
        if !self.table.try_set_value(&it.key, it.size, v) && self.big.insert(it.key, v).is_none() {
            self.buffer_bytes += BIG_ENTRY_BYTES;
        }
    }

    /// Records that `p` does not have the value `n` (below 32: the table's masks).
    #[inline]
    fn set_not(&mut self, p: &Item<G::Part>, n: u32) {
        self.table.set_not(&p.key, p.size, n);
    }

    fn value_of(&mut self, it: &Item<G::Part>) -> Result<u32, SearchError> {
        if let Some(v) = self.known(it) {
            return Ok(v);
        }
        self.value_lv(it)
    }

    /// [`Search::value_of`] by the Lemoine–Viennot questions, one value after another: the
    /// options are listed once; those whose value is known (every part known) mark their
    /// values, and only the others are asked "is your value `n`?".
    fn value_lv(&mut self, p: &Item<G::Part>) -> Result<u32, SearchError> {
        self.tick()?;
        let not = self.table.get(&p.key).not;
        let Some(mut o) = self.options_until(p, u32::MAX)? else {
            unreachable!("no option has the value u32::MAX");
        };
        let mut seen = vec![0u64; o.list.len() / 64 + 1];
        let mark = |seen: &mut Vec<u64>, v: u32| {
            if let Some(w) = seen.get_mut(v as usize / 64) {
                *w |= 1 << (v % 64);
            }
        };
        for opt in &o.list {
            if opt.len == 0 {
                mark(&mut seen, opt.xor);
            }
        }
        o.list.retain(|opt| opt.len != 0);
        let mut n = 0;
        let found = loop {
            let known = seen
                .get(n as usize / 64)
                .is_some_and(|w| w >> (n % 64) & 1 != 0);
            if !known && !excluded(not, n) {
                match self.has_option_value(p, &mut o, n) {
                    Ok(true) => {}
                    Ok(false) => break Ok(n),
                    Err(e) => break Err(e),
                }
            }
            n += 1;
        };
        self.give_back(o);
        let n = found?;
        self.set_value(p, n);
        Ok(n)
    }

    /// "Is `parts + *n` a P-position?" for parts of unknown value.
    fn sum_is_p(&mut self, parts: &mut [Item<G::Part>], n: u32) -> Result<bool, SearchError> {
        match parts.len() {
            0 => Ok(n == 0),
            1 => self.is_value(&parts[0], n),
            _ => {
                parts.sort_unstable_by_key(|p| p.size);
                let (last, rest) = parts.split_last().expect("two parts");
                let mut r = n;
                for p in rest {
                    r ^= self.value_of(p)?;
                }
                self.is_value(last, r)
            }
        }
    }

    /// Empty option buffers, from the free list when there are some; a memory limit when the
    /// buffers pass a quarter of the memory cap (deep searches of large components).
    fn take_bufs(&mut self) -> Result<Opts<G::Part>, SearchError> {
        if self.buffer_bytes > self.opts.max_memory / 4 {
            return Err(SearchError::Buffers {
                bytes: self.buffer_bytes,
            });
        }
        Ok(self.free.pop().unwrap_or_default())
    }

    fn give_back(&mut self, mut o: Opts<G::Part>) {
        o.list.clear();
        o.parts.clear();
        self.free.push(o);
    }

    /// The buffers' bytes, recounted after a buffer grew.
    fn count_bytes(&mut self, o: &Opts<G::Part>, before: usize) {
        let now = o.list.capacity() * std::mem::size_of::<Opt>()
            + o.parts.capacity() * std::mem::size_of::<Item<G::Part>>();
        self.buffer_bytes = (self.buffer_bytes + now).saturating_sub(before);
    }

    fn bytes_of(o: &Opts<G::Part>) -> usize {
        o.list.capacity() * std::mem::size_of::<Opt>()
            + o.parts.capacity() * std::mem::size_of::<Item<G::Part>>()
    }

    /// The game's options of `p`, listed raw.
    fn raw_options(&mut self, p: &Item<G::Part>) -> Sink<G::Part> {
        let mut s = self.sinks.pop().unwrap_or_default();
        self.game.options(&p.part, &mut s);
        s
    }

    fn give_back_sink(&mut self, mut s: Sink<G::Part>) {
        s.clear();
        self.sinks.push(s);
    }

    /// The options of `p`, each as its parts of unknown value and the XOR of the known ones,
    /// in search order, options with the same parts once. `None` as soon as an option of
    /// known value `n` appears (so `p` is not `n`).
    fn options_until(
        &mut self,
        p: &Item<G::Part>,
        n: u32,
    ) -> Result<Option<Opts<G::Part>>, SearchError> {
        let mut o = self.take_bufs()?;
        let before = Self::bytes_of(&o);
        let raw = self.raw_options(p);
        let mut start_raw = 0usize;
        let mut hit = false;
        for &(end, hint) in &raw.ends {
            let start = o.parts.len();
            for q in &raw.parts[start_raw..end as usize] {
                o.parts.push(self.item(*q));
            }
            start_raw = end as usize;
            let (xor, largest) = self.finish_option(&mut o.parts, start);
            let k = o.parts.len();
            if k == start && xor == n {
                hit = true;
                break;
            }
            o.list.push(Opt {
                order: order_key(k != start, largest, hint, xor, &o.parts[start..k]),
                xor,
                start: start as u32,
                len: (k - start) as u32,
            });
        }
        self.give_back_sink(raw);
        self.count_bytes(&o, before);
        if hit {
            self.give_back(o);
            return Ok(None);
        }
        sort_dedup_options(&mut o);
        Ok(Some(o))
    }

    /// Whether some option of `p` has value `n` (then `p` does not; recorded).
    fn has_option_value(
        &mut self,
        p: &Item<G::Part>,
        o: &mut Opts<G::Part>,
        n: u32,
    ) -> Result<bool, SearchError> {
        // Options whose value is known: no search.
        for opt in o.list.iter_mut() {
            if opt.len == 0 {
                if opt.xor == n {
                    self.set_not(p, n);
                    return Ok(true);
                }
            } else {
                let start = opt.start as usize;
                let (known, k) = self.fold_known(&mut o.parts, start, opt.range().end);
                if k != start + opt.len as usize {
                    opt.xor ^= known;
                    opt.len = (k - start) as u32;
                    if opt.len == 0 && opt.xor == n {
                        self.set_not(p, n);
                        return Ok(true);
                    }
                }
            }
        }
        for i in 0..o.list.len() {
            let opt = o.list[i];
            if opt.len != 0 && self.sum_is_p(&mut o.parts[opt.range()], n ^ opt.xor)? {
                self.set_not(p, n);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The value of `p` if it lies in the set `r` (bit `n`: value `n`), else `None`, by
    /// Beling and Rogalski's pruning (see [`crate::engine`]'s `in_set`, whose argument this
    /// follows). Only for components whose bound is below 127, so that every value met fits
    /// the 128-bit sets.
    fn in_set(&mut self, p: &Item<G::Part>, r: u128) -> Result<Option<u32>, SearchError> {
        if let Some(v) = self.known(p) {
            return Ok(Some(v));
        }
        let top = self.game.bound(&p.part);
        debug_assert!(top < 127);
        let slot = not_slot(&p.key);
        let known_not = match self.not_cache[slot] {
            (k, m) if k == p.key => m,
            _ => 0,
        };
        let r = r & low(top as usize + 1) & !known_not;
        if r == 0 {
            return Ok(None);
        }
        self.tick()?;
        let mut cand = ALL;
        let mut hi = 0;
        let Some(mut o) = self.options_br(p, &mut cand, &mut hi, r)? else {
            return Ok(None);
        };
        let maxr = 127 - r.leading_zeros();
        let upto = low(maxr as usize + 1);
        let mut exact = true;
        let mut i = 0;
        let out = loop {
            if cand & r == 0 {
                break Ok(None);
            }
            if i == o.list.len() {
                let s = cand.trailing_zeros();
                if exact || s <= maxr {
                    self.set_value(p, s);
                    break Ok(Some(s));
                }
                break Ok(None);
            }
            let opt = o.list[i];
            i += 1;
            let start = opt.start as usize;
            let (known, k) = self.fold_known(&mut o.parts, start, opt.range().end);
            let mut xor = opt.xor ^ known;
            if k == start {
                cand &= !bit(xor);
                continue;
            }
            let mut failed = None;
            for j in start..k - 1 {
                let q = o.parts[j];
                match self.value_of(&q) {
                    Ok(v) => xor ^= v,
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            if let Some(e) = failed {
                break Err(e);
            }
            let largest = if hi > 0 {
                0
            } else {
                1u128 << (127 - cand.leading_zeros())
            };
            let ask = cand & !largest & upto;
            let answer = if ask == 0 || xor >= 128 {
                Ok(None)
            } else {
                let last = o.parts[k - 1];
                self.in_set(&last, xor_set(ask, xor))
            };
            match answer {
                Ok(Some(v)) => cand &= !bit(v ^ xor),
                Ok(None) => {
                    if hi > 0 {
                        hi -= 1;
                    } else {
                        cand &= !largest;
                    }
                    exact = false;
                }
                Err(e) => break Err(e),
            }
        };
        self.give_back(o);
        if let Ok(None) = out {
            let e = &mut self.not_cache[slot];
            if e.0 == p.key {
                e.1 |= r;
            } else {
                *e = (p.key, r);
            }
        }
        out
    }

    /// The options of `p` whose value is not known, after removing the values of the known
    /// ones from `cand` (`0..=k` for `k` options, those from 128 on counted in `hi`); `None` as
    /// soon as `cand` and `r` are disjoint.
    fn options_br(
        &mut self,
        p: &Item<G::Part>,
        cand: &mut u128,
        hi: &mut usize,
        r: u128,
    ) -> Result<Option<Opts<G::Part>>, SearchError> {
        let mut o = self.take_bufs()?;
        let before = Self::bytes_of(&o);
        let raw = self.raw_options(p);
        *cand = low(raw.len() + 1);
        *hi = (raw.len() + 1).saturating_sub(128);
        let mut start_raw = 0usize;
        let mut done = false;
        for &(end, hint) in &raw.ends {
            let start = o.parts.len();
            for q in &raw.parts[start_raw..end as usize] {
                o.parts.push(self.item(*q));
            }
            start_raw = end as usize;
            let (xor, largest) = self.finish_option(&mut o.parts, start);
            let k = o.parts.len();
            if k == start {
                *cand &= !bit(xor);
                if *cand & r == 0 {
                    done = true;
                    break;
                }
                continue;
            }
            o.list.push(Opt {
                order: order_key(true, largest, hint, xor, &o.parts[start..k]),
                xor,
                start: start as u32,
                len: (k - start) as u32,
            });
        }
        self.give_back_sink(raw);
        self.count_bytes(&o, before);
        if done {
            self.give_back(o);
            return Ok(None);
        }
        sort_dedup_options(&mut o);
        Ok(Some(o))
    }

    /// Whether the component `p` has value `n`: by the value sets below the bound 127, else
    /// (long rows) by its value in full, which the table keeps: such a component is asked
    /// about many values (rows of thousands of stones have values past 128), and listing its
    /// thousands of options once beats listing them for each question (`(xo)^1300`: 99 s to
    /// 21 s).
    fn is_value(&mut self, p: &Item<G::Part>, n: u32) -> Result<bool, SearchError> {
        if let Some(v) = self.known(p) {
            return Ok(v == n);
        }
        let bound = self.game.bound(&p.part);
        if n > bound {
            return Ok(false);
        }
        if bound < 127 {
            return Ok(self.in_set(p, 1u128 << n)? == Some(n));
        }
        Ok(self.value_of(p)? == n)
    }

    /// Moves the parts of `parts[start..end]` whose value is not known to the front of that
    /// range, in order; returns the XOR of the known parts' values and the end of the unknown
    /// ones.
    #[inline]
    fn fold_known(&self, parts: &mut [Item<G::Part>], start: usize, end: usize) -> (u32, usize) {
        let mut xor = 0;
        let mut k = start;
        for j in start..end {
            let q = parts[j];
            match self.known(&q) {
                Some(v) => xor ^= v,
                None => {
                    parts[k] = q;
                    k += 1;
                }
            }
        }
        (xor, k)
    }

    /// Folds the known parts of `parts[start..]` (one option's) into their XOR, sorts the
    /// others by size and key and cancels equal pairs; returns the XOR and the size of the
    /// largest part left (0 if none).
    #[inline]
    fn finish_option(&self, parts: &mut Vec<Item<G::Part>>, start: usize) -> (u32, u32) {
        let end = parts.len();
        let (xor, k) = self.fold_known(parts, start, end);
        parts.truncate(k);
        parts[start..].sort_unstable_by_key(|q| (q.size, q.key));
        cancel_pairs(parts, start);
        let largest = parts[start..].last().map_or(0, |q| q.size);
        (xor, largest)
    }
}

/// The slot of `k` in the cache of "not" answers.
#[inline]
fn not_slot(k: &Key) -> usize {
    let h = (k.bits as u64 ^ ((k.bits >> 64) as u64).rotate_left(31) ^ u64::from(k.tag) << 48)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - NOT_CACHE.trailing_zeros())) as usize
}

/// `{v}` as a value set (empty for `v ≥ 128`, which no set of this engine holds).
#[inline]
fn bit(v: u32) -> u128 {
    1u128.checked_shl(v).unwrap_or(0)
}

/// Drops the pairs of equal keys from `parts[start..]` (sorted by size and key): `A + A = 0`.
fn cancel_pairs<P: Copy>(parts: &mut Vec<Item<P>>, start: usize) {
    let mut k = start;
    let mut j = start;
    while j < parts.len() {
        if j + 1 < parts.len() && parts[j].key == parts[j + 1].key {
            j += 2;
        } else {
            parts[k] = parts[j];
            k += 1;
            j += 1;
        }
    }
    parts.truncate(k);
}

/// The set `{x ^ v : x in s}`, for values below 128.
fn xor_set(mut s: u128, v: u32) -> u128 {
    const HALVES: [u128; 7] = [
        0x5555_5555_5555_5555_5555_5555_5555_5555,
        0x3333_3333_3333_3333_3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF_0000_0000_FFFF_FFFF,
        0x0000_0000_0000_0000_FFFF_FFFF_FFFF_FFFF,
    ];
    for (i, m) in HALVES.iter().enumerate() {
        if v >> i & 1 != 0 {
            let k = 1 << i;
            s = (s & m) << k | (s >> k) & m;
        }
    }
    s
}

/// Whether the mask of values a component is known not to have includes `n`.
fn excluded(not: u32, n: u32) -> bool {
    n < 32 && not >> n & 1 != 0
}

/// The sort key of an option: whether it has unknown parts (known options first), the size
/// of its largest unknown part (smallest first), the game's hint (nearest the centre first),
/// the XOR of its known parts and a fingerprint of its unknown parts' keys, which puts
/// options with the same parts side by side for [`sort_dedup_options`].
fn order_key<P>(unknown: bool, largest: u32, hint: u32, xor: u32, parts: &[Item<P>]) -> u128 {
    let mut fp = 0u64;
    for q in parts {
        let h =
            (q.key.bits as u64) ^ ((q.key.bits >> 64) as u64).rotate_left(17) ^ q.key.tag as u64;
        fp = (fp.rotate_left(23) ^ h).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    (unknown as u128) << 127
        | (largest.min(0x7FFF) as u128) << 112
        | (hint.min(0xFFFF) as u128) << 96
        | (xor as u128) << 64
        | fp as u128
}

/// Sorts the options by [`Opt::order`] and keeps one of each run with the same parts and the
/// same known XOR (symmetric moves; the fingerprint decides nothing alone: the keys are
/// compared).
fn sort_dedup_options<P>(o: &mut Opts<P>) {
    o.list.sort_unstable_by_key(|a| a.order);
    let parts = &o.parts;
    o.list.dedup_by(|a, b| {
        a.order == b.order
            && a.len == b.len
            && parts[a.range()]
                .iter()
                .zip(&parts[b.range()])
                .all(|(x, y)| x.key == y.key)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kayles heaps as a [`Split`] game: a part is a heap size; a move removes one or two
    /// adjacent pins, leaving up to two heaps.
    struct Kayles;

    impl Split for Kayles {
        type Part = u32;
        fn key(&self, n: &u32) -> Key {
            Key {
                bits: *n as u128,
                tag: 1,
            }
        }
        fn size(&self, n: &u32) -> u32 {
            *n
        }
        fn bound(&self, n: &u32) -> u32 {
            *n
        }
        fn known(&self, n: &u32) -> Option<u32> {
            (*n == 0).then_some(0)
        }
        fn options(&self, &n: &u32, out: &mut Sink<u32>) {
            for take in 1..=2u32.min(n) {
                for a in 0..=(n - take) / 2 {
                    let b = n - take - a;
                    for h in [a, b] {
                        if h > 0 {
                            out.part(h);
                        }
                    }
                    out.end(a.abs_diff(b));
                }
            }
        }
        fn domain(&self) -> String {
            "kayles test".into()
        }
    }

    #[test]
    fn kayles_heaps() {
        // Kayles: period 12 from 71 on; the first values (OEIS A002186).
        let want = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7,
        ];
        let mut s = Search::new(Kayles, Options::default()).unwrap();
        for (n, &w) in want.iter().enumerate() {
            assert_eq!(s.value(&[n as u32]).unwrap(), w, "heap {n}");
        }
        // A fresh engine for each question: the questions alone.
        for (n, &w) in want.iter().enumerate() {
            let mut s = Search::new(Kayles, Options::default()).unwrap();
            for k in 0..8 {
                assert_eq!(s.is_p(&[n as u32], k).unwrap(), w == k, "heap {n} + *{k}");
            }
            assert!(s.is_p(&[n as u32, n as u32], 0).unwrap());
        }
        // Heaps past the 128-bit value sets: the plain questions.
        let mut s = Search::new(Kayles, Options::default()).unwrap();
        for n in 1..=200u32 {
            s.value(&[n]).unwrap();
        }
        // Kayles is periodic (period 12) from heap 72 on.
        for n in 72..=188u32 {
            assert_eq!(s.value(&[n]).unwrap(), s.value(&[n + 12]).unwrap());
        }
    }
}
