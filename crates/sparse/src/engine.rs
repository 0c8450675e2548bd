//! The public engine: a [`Core`] over u8 values that switches to u16 and then u32 when a value
//! needs it, plus mask management, threads and progress.

use grundy_heap::TakeBreak;

use crate::crew::Crew;
use crate::error::Error;
use crate::pace::{Pace, Sample};
use crate::packed::Packed;
use crate::plan::Plan;
use crate::seq::{Seq, Val};
use crate::tiles::{Core, Stats, Tuning};

/// The engine's state in the narrowest value type that holds every value so far.
enum Inner {
    Byte(Core<u8>),
    Narrow(Core<u16>),
    Wide(Core<u32>),
}

macro_rules! with_core {
    ($self:expr, $c:ident => $body:expr) => {
        match &$self.inner {
            Inner::Byte($c) => $body,
            Inner::Narrow($c) => $body,
            Inner::Wide($c) => $body,
        }
    };
}
macro_rules! with_core_mut {
    ($self:expr, $c:ident => $body:expr) => {
        match &mut $self.inner {
            Inner::Byte($c) => $body,
            Inner::Narrow($c) => $body,
            Inner::Wide($c) => $body,
        }
    };
}

/// The largest `cap` (values are at most `cap`) each narrow type keeps: u8 up to 256, u16 up
/// to 32768. A block may end with one value equal to `cap`: u16 holds 32768, and a block over u8
/// stops before a value of 256 instead (see `Engine::maybe_widen`).
const BYTE_CAP: u32 = 256;
const NARROW_CAP: u32 = 32768;

/// The most threads an engine runs: a hard ceiling (each thread has its own stack and tile
/// rows), also bounded by four per core (see [`max_threads`]).
pub const MAX_THREADS: usize = 64;

/// The threads an engine asked for `requested` threads really runs: one per core for 0, else
/// `min(requested, 4 × cores, MAX_THREADS)` (at least 1). Threads beyond the cores only hand
/// work back and forth; a huge request (`--threads 100000`) would exhaust memory for thread
/// stacks.
///
/// ```
/// assert_eq!(grundy_sparse::max_threads(1), 1);
/// assert!(grundy_sparse::max_threads(100_000) <= grundy_sparse::MAX_THREADS);
/// ```
pub fn max_threads(requested: usize) -> usize {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let wanted = if requested == 0 { cores } else { requested };
    wanted.min(cores.saturating_mul(4)).clamp(1, MAX_THREADS)
}

/// Heaps between the points where the engine may change its mask, from 4096 heaps on.
const MASK_EVERY: u64 = 4096;

/// Whether the engine reconsiders its mask once it holds G(0..len): at 256, 512, 1024, 2048,
/// then every [`MASK_EVERY`] heaps, or every k-th of those for `keys` over 4096 (the key
/// histogram's length; its transform costs `keys · log keys`). Blocks end at these points, so
/// the mask, and with it the rare count a summary reports, depends only on the values: never on
/// threads, block sizes, timing or where a run was resumed. Early points come often, because
/// until the mask fits, heaps turn rare by the hundred and every heap pairs with each of them.
fn mask_point(len: u64, keys: usize) -> bool {
    if len < MASK_EVERY {
        return len >= 256 && len.is_power_of_two();
    }
    let every = (keys as u64 / 4096).max(1);
    len.is_multiple_of(MASK_EVERY) && (len / MASK_EVERY).is_multiple_of(every)
}

/// The next length after `len` at which a block ends: a point of [`mask_point`] for some
/// histogram length (every multiple of [`MASK_EVERY`] is one).
fn next_mask_point(len: u64) -> u64 {
    if len < MASK_EVERY {
        (len + 1).next_power_of_two().max(256)
    } else {
        (len / MASK_EVERY + 1) * MASK_EVERY
    }
}

/// Heaps after which [`Engine::pays`] judges whether the rare/common split pays.
pub const PAYS_AFTER: u64 = 1 << 14;

/// Fetches G(i) for a heap the memory window dropped (from durable chunks).
pub type GapSource = Box<dyn FnMut(u64) -> u32 + Send>;

/// Where the memory window's dropped values are fetched from.
enum Gap {
    /// Durable chunks on disk, read through a source; values are dropped once durable.
    Source(GapSource),
    /// A packed copy in memory of exactly G(0..start), the values below the recent run: the
    /// window packs what it drops (once values take two bytes in the engine, where packing
    /// pays), and a value the window needs again moves back.
    Packed(Packed),
}

/// The memory window: a prefix G(0..P) and a recent run deep enough for every lookup; values
/// in between are dropped (once durable, for chunks on disk) and fetched through `gap` when
/// needed again.
struct Window {
    gap: Gap,
    /// Values below this may be dropped (they are in durable chunks).
    durable: std::cell::Cell<u64>,
    /// Test knob: a fixed (tiny) depth and prefix instead of the automatic ones.
    depth: Option<u64>,
    fetches: u64,
    /// The first heap whose fetched value could not be right (above every value computed).
    impossible: std::cell::Cell<Option<(u64, u32)>>,
}

impl Window {
    /// The gap source, counting each fetch in `fetches`. A value above `max` (the largest the
    /// engine computed, so above every dropped one) comes from a damaged or forged chunk: it is
    /// recorded (see [`Engine::take_gap_error`]) and replaced by 0, which keeps the tables'
    /// bounds; the run then ends with an error before writing anything computed from it.
    fn counted_gap(&mut self, max: u32) -> impl FnMut(u64) -> u32 + '_ {
        let (fetches, gap, impossible) = (&mut self.fetches, &mut self.gap, &self.impossible);
        move |i| {
            *fetches += 1;
            let v = match gap {
                Gap::Source(source) => source(i),
                Gap::Packed(p) => p.get(i),
            };
            if v > max {
                if impossible.get().is_none() {
                    impossible.set(Some((i, v)));
                }
                return 0;
            }
            v
        }
    }
}

/// The rare/common engine for one take-and-break code, holding G(0..len()).
pub struct Engine {
    code: TakeBreak,
    inner: Inner,
    crew: Option<Crew>,
    /// Chooses block by block whether the crew works (see `pace.rs`).
    pace: Pace,
    window: Option<Window>,
    /// The largest `cap` the u8 and u16 storage keep before widening (a test knob lowers them).
    caps: (u32, u32),
}

impl Engine {
    /// An engine for `code`, or [`Error::Unsupported`] when the method does not apply.
    pub fn new(code: &TakeBreak) -> Result<Engine, Error> {
        let plan = Plan::new(code)?;
        Ok(Engine::assemble(code, Inner::Byte(Core::new(plan))))
    }

    /// Uses up to `threads` threads in all, the caller's included (1: no helpers; 0: one per
    /// core), capped by [`max_threads`]. The helpers work only in blocks where they pay: the
    /// engine measures, block by block, whether the caller alone is as fast (cheap codes, or a
    /// machine busy with other work) and then leaves them parked (see [`Stats::crew_heaps`];
    /// [`Tuning::pace`] turns this off).
    pub fn with_threads(mut self, threads: usize) -> Engine {
        // The helpers start when first needed (many runs never need them).
        self.crew = None;
        self.pace = Pace::new(max_threads(threads));
        self
    }

    /// Turns the memory window on: values that are durable (below [`Engine::set_durable`]) and
    /// not needed soon are dropped, and `gap` fetches them if they are needed again. `depth`
    /// fixes the window depth and prefix length (a test knob; `None`: what the game needs).
    pub fn with_window(self, gap: GapSource, depth: Option<u64>) -> Engine {
        self.windowed(Gap::Source(gap), depth)
    }

    /// Turns the memory window on with the dropped values kept in memory, packed at as many
    /// bits as they need (blocks of 16384 values at the width of each block's largest: 9 bits
    /// where values pass 255 but not 511). The window drops values only once they take two
    /// bytes in the engine (before, packing would save little); every value stays readable
    /// ([`Engine::value`]), and the period search reads them where they are. `depth` as in
    /// [`Engine::with_window`].
    pub fn with_packed_window(self, depth: Option<u64>) -> Engine {
        self.windowed(Gap::Packed(Packed::default()), depth)
    }

    fn windowed(mut self, gap: Gap, depth: Option<u64>) -> Engine {
        self.window = Some(Window {
            gap,
            durable: std::cell::Cell::new(0),
            depth,
            fetches: 0,
            impossible: std::cell::Cell::new(None),
        });
        self
    }

    /// The error for a value the gap source handed back that no computed heap has (a chunk
    /// damaged or replaced after it was written), once; `None` when every fetch was plausible.
    pub(crate) fn take_gap_error(&self) -> Option<Error> {
        let (i, v) = self.window.as_ref()?.impossible.take()?;
        Some(Error::BadFile(format!(
            "memory window: cannot read back heap {i}: the chunk holds {v}, above every value computed"
        )))
    }

    /// Replaces the window's gap source (e.g. by a fresh reader, to free the chunks it cached).
    pub(crate) fn set_gap_source(&mut self, gap: GapSource) {
        if let Some(w) = self.window.as_mut() {
            if let Gap::Source(source) = &mut w.gap {
                *source = gap;
            }
        }
    }

    /// The packed copy of the values below the recent run, for a packed window.
    fn packed(&self) -> Option<&Packed> {
        match self.window.as_ref().map(|w| &w.gap) {
            Some(Gap::Packed(p)) => Some(p),
            _ => None,
        }
    }

    /// Tells the windowed engine that G(0..upto) is durable (may be dropped from memory); the
    /// progress callback of [`Engine::advance`] may call it.
    pub fn set_durable(&self, upto: u64) {
        if let Some(w) = self.window.as_ref() {
            w.durable.set(w.durable.get().max(upto));
        }
    }

    /// True when the memory window is on.
    pub fn is_windowed(&self) -> bool {
        self.window.is_some()
    }

    /// Values held in memory now (prefix plus recent run).
    pub fn values_in_memory(&self) -> u64 {
        with_core!(self, c => (c.seq.prefix.len() + c.seq.recent.len()) as u64)
    }

    /// Values fetched through the window's gap source so far.
    pub fn gap_fetches(&self) -> u64 {
        self.window.as_ref().map_or(0, |w| w.fetches)
    }

    /// An engine over `inner` (fresh or a resume), with one thread until told otherwise.
    fn assemble(code: &TakeBreak, inner: Inner) -> Engine {
        Engine {
            code: code.clone(),
            inner,
            crew: None,
            pace: Pace::new(1),
            window: None,
            caps: (BYTE_CAP, NARROW_CAP),
        }
    }

    /// Test knob: widens the value storage from u8 to u16 once values may exceed `byte_cap`,
    /// and to u32 past `narrow_cap` (instead of 256 and 32768), so that small runs take both
    /// switches. Results never depend on it.
    #[doc(hidden)]
    pub fn with_storage_caps(mut self, byte_cap: u32, narrow_cap: u32) -> Engine {
        self.caps = (byte_cap.min(BYTE_CAP), narrow_cap.min(NARROW_CAP));
        self
    }

    /// Bytes each value takes in memory now (1, 2 or 4: the narrowest type that holds them).
    pub fn value_bytes(&self) -> usize {
        match self.inner {
            Inner::Byte(_) => 1,
            Inner::Narrow(_) => 2,
            Inner::Wide(_) => 4,
        }
    }

    /// The period search of [`grundy_heap::periodicity::find`] over G(0..len()), on the values
    /// as stored (no copy) when all are in memory, else over `values` given by the caller.
    pub(crate) fn find_period(
        &self,
        bound: Option<grundy_heap::periodicity::ProofBound>,
        values: Option<&dyn Fn(u64) -> u32>,
    ) -> Option<grundy_heap::periodicity::Periodicity> {
        use grundy_heap::periodicity::{find, find_by};
        if let Some(at) = values {
            return find_by(self.len(), at, bound);
        }
        with_core!(self, c => {
            if c.seq.start == 0 && c.seq.prefix.is_empty() {
                find(&c.seq.recent, bound)
            } else if self.packed().is_some() {
                let at = |i| self.value(i).expect("a packed window holds every value");
                find_by(self.len(), at, bound)
            } else {
                find(&self.values(), bound)
            }
        })
    }

    /// Changes block, tile and scan sizes (speed only; results never depend on them).
    pub fn with_tuning(mut self, tuning: Tuning) -> Engine {
        with_core_mut!(self, c => c.tuning = tuning);
        self
    }

    /// Rebuilds an engine from stored values G(0..values.len()) and the mask in use (resume).
    pub fn from_values(code: &TakeBreak, values: &[u32], mask: u64) -> Result<Engine, Error> {
        let mut loader = Loader::default();
        loader.push(values);
        loader.finish(code, mask)
    }

    /// The code this engine computes.
    pub fn code(&self) -> &TakeBreak {
        &self.code
    }

    /// Number of heaps computed: G(0..len()) are known.
    pub fn len(&self) -> u64 {
        with_core!(self, c => c.seq.len())
    }

    /// True before G(0) is computed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// G(n), when computed and in memory: in the engine's storage or a packed window's copy
    /// (`None` for a heap not computed yet or dropped to disk by a window).
    pub fn value(&self, n: u64) -> Option<u32> {
        with_core!(self, c => c.seq.get(n))
            .or_else(|| self.packed().filter(|p| n < p.len()).map(|p| p.get(n)))
    }

    /// The current key mask: bit 0 is the heap-parity bit, bit k+1 is value bit k; a heap is
    /// rare when its key (`G << 1 | parity`) has an even number of bits in common with it.
    pub fn mask(&self) -> u64 {
        with_core!(self, c => c.mask)
    }

    /// False when the rare/common split does not pay for this code: past [`PAYS_AFTER`] heaps,
    /// more than a quarter of them are rare. Each heap then pairs with a rare list about as
    /// long as the plain engine's scan of every split, and the plain (reference) engine, which
    /// does less per pair, is as fast or faster (0.7267: half its heaps are rare).
    pub fn pays(&self) -> bool {
        self.len() < PAYS_AFTER || (self.rare_count() as u64).saturating_mul(4) <= self.len()
    }

    /// Number of rare heaps under the current mask (heap 0 excluded).
    pub fn rare_count(&self) -> usize {
        with_core!(self, c => c.rare_pos.len())
    }

    /// The largest rare heap under the current mask.
    pub fn last_rare(&self) -> Option<u64> {
        with_core!(self, c => c.rare_pos.last().copied())
    }

    /// The largest value so far and the first heap where it occurs.
    pub fn max_value(&self) -> (u32, u64) {
        with_core!(self, c => (c.max_val, c.max_first))
    }

    /// Work counters.
    pub fn stats(&self) -> Stats {
        let mut s = with_core!(self, c => c.stats.clone());
        s.gap_fetches = self.gap_fetches();
        s
    }

    /// Splitting moves remove tokens of one parity: the heap parity joins the keys.
    pub fn uses_parity(&self) -> bool {
        with_core!(self, c => c.plan.split_parity.is_some())
    }

    /// All values in memory, G(0..len()) (full mode; panics when the window dropped some).
    pub fn values(&self) -> Vec<u32> {
        if self.window.is_some() {
            return self.values_range(0, self.len());
        }
        with_core!(self, c => {
            let mut out: Vec<u32> = Vec::with_capacity(c.seq.len() as usize);
            out.extend(c.seq.prefix.iter().map(|v| v.get()));
            out.extend(c.seq.recent.iter().map(|v| v.get()));
            out
        })
    }

    /// G(from..to) as u32 (the range must be computed and in memory).
    pub fn values_range(&self, from: u64, to: u64) -> Vec<u32> {
        with_core!(self, c => {
            assert!(to <= c.seq.len());
            if c.seq.start > 0 || !c.seq.prefix.is_empty() {
                return (from..to)
                    .map(|i| c.seq.get(i).unwrap_or_else(|| panic!("heap {i} is not in memory")))
                    .collect();
            }
            c.seq.recent[from as usize..to as usize].iter().map(|v| v.get()).collect()
        })
    }

    /// How many heaps have each value: `hist[v]` over G(0..len()).
    pub fn histogram(&self) -> Vec<u64> {
        with_core!(self, c => {
            let mut h = vec![0u64; (c.max_val as usize) + 1];
            for (k, &count) in c.hist.iter().enumerate() {
                if count > 0 {
                    h[k >> 1] += count;
                }
            }
            h
        })
    }

    /// Computes heaps until `target` of them are known (G(0..target)), calling `progress(len)`
    /// after each block; `progress` returning false stops early (for checkpoints and Ctrl-C).
    pub fn advance(&mut self, target: u64, progress: &mut dyn FnMut(&Engine) -> bool) {
        if self.window.is_none() {
            // Exact capacity: doubling a multi-gigabyte vector would briefly need three times it.
            let more = usize::try_from(target.saturating_sub(self.len())).unwrap_or(0);
            with_core_mut!(self, c => c.seq.recent.reserve_exact(more));
        }
        while self.len() < target {
            let bytes = self.value_bytes();
            self.maybe_widen();
            if self.window.is_none() && self.value_bytes() != bytes {
                // The wider copy holds only what was computed: reserve the rest again, exactly.
                let more = usize::try_from(target - self.len()).unwrap_or(0);
                with_core_mut!(self, c => c.seq.recent.reserve_exact(more));
            }
            let left = target - self.len();
            // Blocks end at the mask's next point (see `mask_point`).
            let to_point = next_mask_point(self.len()) - self.len();
            let mut count = usize::try_from(left.min(to_point)).unwrap_or(usize::MAX);
            let max = self.max_value().0;
            let paced = with_core!(self, c => c.tuning.pace);
            let use_crew = if paced {
                let on = self.pace.use_crew(left);
                if self.pace.in_trial() {
                    // A trial that loses should cost little: half a block.
                    let block = with_core!(self, c => c.tuning.block);
                    count = count.min((block / 2).max(1));
                }
                on
            } else {
                true
            };
            if use_crew && self.crew.is_none() && self.pace.threads() > 1 {
                self.crew = Crew::new(self.pace.threads() - 1);
                if self.crew.is_none() {
                    // Threads cannot be started: run alone.
                    self.pace = Pace::new(1);
                }
            }
            let crew = self.crew.as_ref().filter(|_| use_crew);
            let (len0, p2_0) = (self.len(), with_core!(self, c => c.stats.phase2_ns));
            let clock = std::time::Instant::now();
            match self.window.as_mut() {
                None => {
                    let mut no_gap =
                        |i: u64| -> u32 { panic!("heap {i} is not in memory (full mode)") };
                    with_core_mut!(self, c => { c.block(count, crew, &mut no_gap); });
                }
                Some(w) => {
                    let mut gap = w.counted_gap(max);
                    let start = with_core_mut!(self, c => {
                        ensure_window(c, &mut gap);
                        c.seq.start
                    });
                    drop(gap);
                    if let Gap::Packed(p) = &mut w.gap {
                        // Values the window took back live in the engine again.
                        p.truncate(start);
                    }
                    let mut gap = w.counted_gap(max);
                    with_core_mut!(self, c => c.block(count, crew, &mut gap));
                }
            }
            let sample = Sample {
                heaps: self.len() - len0,
                ns: clock.elapsed().as_nanos() as u64,
                phase2_ns: with_core!(self, c => c.stats.phase2_ns) - p2_0,
            };
            if crew.is_some() {
                with_core_mut!(self, c => c.stats.crew_heaps += sample.heaps);
            }
            if paced {
                self.pace.record(crew.is_some(), sample);
            }
            self.after_block();
            self.drain();
            if !progress(self) {
                return;
            }
        }
    }

    /// Windowed mode: drops durable values no lookup needs soon, in chunks (when the recent run
    /// passes the depth the game needs by an eighth of it, at least 65536 values), after making
    /// sure the prefix is long enough.
    fn drain(&mut self) {
        let Some(w) = self.window.as_mut() else {
            return;
        };
        let (durable, fixed) = (w.durable.get(), w.depth);
        // A packed window drops only two-byte values (and needs no chunk on disk).
        let packs = matches!(w.gap, Gap::Packed(_));
        if packs && self.value_bytes() < 2 {
            return;
        }
        let durable = if packs { u64::MAX } else { durable };
        let max = with_core!(self, c => c.max_val);
        let Some(w) = self.window.as_mut() else {
            return;
        };
        let mut gap = w.counted_gap(max);
        with_core_mut!(self, c => {
            // The recent run grows by `slack` past `depth` before it is cut back to `depth`: each
            // cut moves `depth` values down, so a slack of an eighth of the depth costs about 8
            // moves a value (a few ms for 2^22 heaps) and keeps the run's peak an eighth above
            // what the game needs, not twice it.
            let (depth, slack, prefix) = match fixed {
                Some(d) => (d.max(1), d.max(1), d),
                None => {
                    let need = window_need(c).max(1 << 16);
                    (need, (need / 8).max(1 << 16), c.scan_reach.max(8192) + 256)
                }
            };
            let len = c.seq.len();
            if (c.seq.recent.len() as u64) < depth + slack {
                return;
            }
            let new_start = len.saturating_sub(depth).min(durable);
            if new_start <= c.seq.start {
                return;
            }
            // Grow the prefix first, while its values are still in memory where possible.
            let have = c.seq.prefix.len() as u64;
            let want = prefix.min(len);
            if want > have {
                for i in have..want {
                    let v = c.seq.get(i).unwrap_or_else(|| gap(i));
                    c.seq.prefix.push(Val::put(v));
                }
            }
            let cut = (new_start - c.seq.start) as usize;
            drop(gap);
            if let Gap::Packed(p) = &mut w.gap {
                // The copy holds G(0..start); the dropped values follow on.
                debug_assert_eq!(p.len(), c.seq.start);
                p.extend(c.seq.recent[..cut].iter().map(|v| v.get()));
            }
            c.seq.recent.drain(..cut);
            c.seq.recent.shrink_to((depth + slack) as usize + 1024);
            c.seq.start = new_start;
        });
    }

    /// Switches to a wider storage type before a value could exceed the current one. A block
    /// ends as soon as a value reaches `cap` (the values of options are xors of smaller values,
    /// so a new value is at most `cap`), which the type still holds; `cap` then doubles. The one
    /// value a type cannot hold at its largest `cap` (256 in u8) ends the block before its heap
    /// (`Core::overflow`), which the wider type then computes again.
    fn maybe_widen(&mut self) {
        let (byte_cap, narrow_cap) = self.caps;
        if let Inner::Byte(c) = &self.inner {
            if c.cap > byte_cap || c.overflow {
                self.inner = Inner::Narrow(c.convert::<u16>());
            }
        }
        if let Inner::Narrow(c) = &self.inner {
            if c.cap > narrow_cap {
                self.inner = Inner::Wide(c.convert::<u32>());
            }
        }
    }

    /// Reconsiders the mask at its points (see [`mask_point`]), where blocks end.
    fn after_block(&mut self) {
        // The histogram's length as the values alone decide it (two keys per value below the
        // power of two past the largest).
        let keys = 2
            * (self.max_value().0 as usize + 1)
                .next_power_of_two()
                .max(64);
        if !mask_point(self.len(), keys) {
            return;
        }
        let changed = with_core_mut!(self, c => c.reconsider_mask());
        if changed {
            let max = self.max_value().0;
            match self.window.as_mut() {
                None => with_core_mut!(self, c => c.rebuild_rare_from_seq()),
                Some(w) => {
                    let mut gap = w.counted_gap(max);
                    with_core_mut!(self, c => {
                        let seq = std::mem::take(&mut c.seq);
                        let len = seq.len();
                        c.rebuild_rare((0..len).map(|i| seq.get(i).unwrap_or_else(|| gap(i))));
                        c.seq = seq;
                    });
                }
            }
        }
    }
}

/// How deep the recent run must reach for the next block: partners of rare heaps and of the
/// deepest confirming scans so far, plus the removals and the block.
fn window_need<T: Val>(c: &Core<T>) -> u64 {
    let last = c.rare_pos.last().copied().unwrap_or(0);
    let a = c.scan_reach.max(8192);
    last.max(a) + c.plan.max_removal() + c.tuning.block as u64 + 64
}

/// Before a windowed block: puts back into the recent run any value phase 1 will read that the
/// window dropped (after a new far rare heap or a mask change), fetching it through `gap`.
fn ensure_window<T: Val>(c: &mut Core<T>, gap: &mut dyn FnMut(u64) -> u32) {
    let len = c.seq.len();
    let from = len.saturating_sub(window_need(c));
    if from >= c.seq.start {
        return;
    }
    // In place: the run grows at its front, without a second copy of it (a far rare heap can
    // make the window most of the values).
    let add = (c.seq.start - from) as usize;
    let old = c.seq.recent.len();
    c.seq.recent.reserve_exact(add);
    c.seq.recent.resize(old + add, T::put(0));
    c.seq.recent.copy_within(0..old, add);
    for (k, i) in (from..c.seq.start).enumerate() {
        let v = match c.seq.prefix.get(i as usize) {
            Some(v) => v.get(),
            None => gap(i),
        };
        c.seq.recent[k] = T::put(v);
    }
    c.seq.start = from;
}

/// Stored values given a chunk at a time (a resume), kept in the narrowest type that holds
/// them (u8, u16, then u32, as the engine stores them), then turned into an [`Engine`] by
/// [`Loader::finish`], which refuses values the code cannot produce.
///
/// A windowed loader ([`Loader::windowed`]) keeps only what a memory window starts from: the
/// first heaps, and the last ones from the last whole chunk on (those only the state file
/// holds); it counts the rest as they go by, and the window fetches any dropped value it needs
/// again from the chunks.
#[derive(Default)]
pub struct Loader {
    values: Loaded,
    /// Values pushed so far.
    len: u64,
    /// Checks each value against the largest before it.
    running: crate::store::RunningBound,
    /// The first value pushed that no sequence can have (heap, value).
    bad: Option<(u64, u32)>,
    window: Option<Box<Kept>>,
}

/// What a windowed [`Loader`] keeps.
struct Kept {
    plan: Plan,
    /// G(0..head.len()), at most [`Kept::HEAD`] values.
    head: Vec<u32>,
    /// G(from..), pushed from heap `from` on.
    tail: Vec<u32>,
    from: u64,
    tally: crate::tiles::Tally,
}

impl Kept {
    /// Heaps a windowed resume keeps from the start: the first sides of almost every
    /// confirming scan (more than the shortest prefix a window keeps).
    const HEAD: u64 = 1 << 16;
}

/// The values a [`Loader`] holds, in the narrowest type so far.
enum Loaded {
    Byte(Vec<u8>),
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Default for Loaded {
    fn default() -> Self {
        Loaded::Byte(Vec::new())
    }
}

/// `from` moved into a vector of a wider type with the same capacity.
fn widened<T: Val, U: Val>(from: &mut Vec<T>) -> Vec<U> {
    let mut out = Vec::with_capacity(from.capacity());
    out.extend(from.drain(..).map(|v| U::put(v.get())));
    *from = Vec::new();
    out
}

impl Loader {
    /// Makes room for `total` values in all (exactly: doubling a multi-gigabyte vector would
    /// briefly need three times it).
    pub fn reserve(&mut self, total: u64) {
        let total = usize::try_from(total).unwrap_or(usize::MAX);
        match &mut self.values {
            Loaded::Byte(v) => v.reserve_exact(total.saturating_sub(v.len())),
            Loaded::Narrow(v) => v.reserve_exact(total.saturating_sub(v.len())),
            Loaded::Wide(v) => v.reserve_exact(total.saturating_sub(v.len())),
        }
    }

    /// A loader for a resume of `done` heaps of `code` that a memory window will continue,
    /// stored with `mask`: it holds G(0..2^16) and the values from `min(done - 2^16, the start
    /// of the last whole chunk of `chunk` heaps)` on, not those in between (a plain loader
    /// where that leaves out nothing). Its engine must get its window ([`Engine::with_window`],
    /// whose gap source reads the dropped values) before it computes or reads values.
    pub fn windowed(code: &TakeBreak, mask: u64, done: u64, chunk: u64) -> Result<Loader, Error> {
        let plan = Plan::new(code)?;
        let from = (done - done % chunk.max(1)).min(done.saturating_sub(1 << 16));
        if from <= Kept::HEAD {
            return Ok(Loader::default());
        }
        let tally = crate::tiles::Tally::new(plan.split_parity, mask);
        Ok(Loader {
            window: Some(Box::new(Kept {
                plan,
                head: Vec::new(),
                tail: Vec::with_capacity((done - from) as usize),
                from,
                tally,
            })),
            ..Loader::default()
        })
    }

    /// Values held so far (a windowed loader holds only part of those pushed).
    pub fn held(&self) -> u64 {
        match (&self.window, &self.values) {
            (Some(k), _) => (k.head.len() + k.tail.len()) as u64,
            (None, Loaded::Byte(v)) => v.len() as u64,
            (None, Loaded::Narrow(v)) => v.len() as u64,
            (None, Loaded::Wide(v)) => v.len() as u64,
        }
    }

    /// Appends the next values.
    pub fn push(&mut self, chunk: &[u32]) {
        if self.bad.is_none() {
            self.bad = self.running.first_bad(self.len, chunk);
        }
        let first = self.len;
        self.len += chunk.len() as u64;
        if self.bad.is_some() {
            return;
        }
        if let Some(k) = self.window.as_deref_mut() {
            for (n, &v) in (first..).zip(chunk) {
                if crate::store::impossible(Some(&k.plan), n, v) {
                    self.bad = Some((n, v));
                    return;
                }
                k.tally.add(n, v, true);
                if n < Kept::HEAD {
                    k.head.push(v);
                } else if n >= k.from {
                    k.tail.push(v);
                }
            }
            return;
        }
        let max = chunk.iter().copied().max().unwrap_or(0);
        if max > u8::MAX.into() {
            if let Loaded::Byte(v) = &mut self.values {
                self.values = Loaded::Narrow(widened(v));
            }
        }
        // As the engine does: u16 up to values below 32768 (its largest `cap` there).
        if max >= NARROW_CAP {
            if let Loaded::Narrow(v) = &mut self.values {
                self.values = Loaded::Wide(widened(v));
            }
        }
        match &mut self.values {
            Loaded::Byte(v) => v.extend(chunk.iter().map(|&x| x as u8)),
            Loaded::Narrow(v) => v.extend(chunk.iter().map(|&x| x as u16)),
            Loaded::Wide(v) => v.extend_from_slice(chunk),
        }
    }

    /// Bytes each value takes in the loader now (1, 2 or 4).
    pub fn value_bytes(&self) -> usize {
        match self.values {
            Loaded::Byte(_) => 1,
            Loaded::Narrow(_) => 2,
            Loaded::Wide(_) => 4,
        }
    }

    /// The engine holding the values pushed, G(0..len), with the mask in use when they were
    /// stored (speed only). [`Error::BadFile`] when some value is one no heap of `code` can
    /// have (more than its options, or than twice every earlier value, or beyond
    /// [`crate::MAX_VALUE`]): the values are not a sequence of this code.
    pub fn finish(self, code: &TakeBreak, mask: u64) -> Result<Engine, Error> {
        fn core<T: Val>(plan: Plan, values: Vec<T>, mask: u64) -> Core<T> {
            let each = || values.iter().map(|v| v.get());
            let mut c = Core::<T>::from_values(plan, Seq::default(), mask, each());
            c.rebuild_rare(each());
            c.seq = Seq {
                prefix: Vec::new(),
                recent: values,
                start: 0,
            };
            c
        }
        fn first_bad<T: Val>(values: &[T], plan: &Plan) -> Option<(u64, u32)> {
            values
                .iter()
                .enumerate()
                .map(|(i, &v)| (i as u64, v.get()))
                .find(|&(n, v)| crate::store::impossible(Some(plan), n, v))
        }
        let plan = Plan::new(code)?;
        let bad = self.bad.or_else(|| match &self.values {
            Loaded::Byte(v) => first_bad(v, &plan),
            Loaded::Narrow(v) => first_bad(v, &plan),
            Loaded::Wide(v) => first_bad(v, &plan),
        });
        if let Some((n, v)) = bad {
            return Err(Error::BadFile(format!(
                "stored values are not a sequence of this code: heap {n} cannot have the value {v}"
            )));
        }
        if let Some(k) = self.window {
            return Ok(Engine::assemble(code, kept_core(*k)));
        }
        let inner = match self.values {
            Loaded::Byte(v) => Inner::Byte(core(plan, v, mask)),
            Loaded::Narrow(v) => Inner::Narrow(core(plan, v, mask)),
            Loaded::Wide(v) => Inner::Wide(core(plan, v, mask)),
        };
        Ok(Engine::assemble(code, inner))
    }
}

/// The state of a windowed resume in the narrowest type that holds its largest value: the head
/// as the window's prefix, the tail as its recent run, the heaps between them dropped.
fn kept_core(k: Kept) -> Inner {
    fn core<T: Val>(k: Kept) -> Core<T> {
        let Kept {
            plan,
            head,
            tail,
            from,
            tally,
        } = k;
        let seq = Seq {
            prefix: head.into_iter().map(T::put).collect(),
            recent: tail.into_iter().map(T::put).collect(),
            start: from,
        };
        Core::from_tally(plan, seq, tally)
    }
    let max = k.tally.max_val;
    if max <= u8::MAX.into() {
        Inner::Byte(core(k))
    } else if max < NARROW_CAP {
        Inner::Narrow(core(k))
    } else {
        Inner::Wide(core(k))
    }
}

/// G(0..=n) of `code` by the sparse engine, using `threads` threads (0: one per core; see
/// [`max_threads`]).
///
/// ```
/// let code = grundy_heap::rule::parse_code("0.16").unwrap();
/// let g = grundy_sparse::values(&code, 2000, 0).unwrap();
/// assert_eq!(&g[..9], [0, 1, 0, 0, 1, 2, 2, 1, 4]);
/// assert_eq!(g, grundy_heap::reference::sequence(&code, 2000));
/// ```
pub fn values(code: &TakeBreak, n: u64, threads: usize) -> Result<Vec<u32>, Error> {
    values_with_progress(code, n, threads, &mut |_| true)
}

/// [`values_with_progress`], or `None` when the rare/common split does not pay for `code`
/// (see [`Engine::pays`], judged after [`PAYS_AFTER`] heaps): the caller then runs the
/// reference engine, which is as fast there.
pub fn values_if_it_pays(
    code: &TakeBreak,
    n: u64,
    threads: usize,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Option<Vec<u32>>, Error> {
    Ok(advanced(code, n, threads, true, progress)?.map(|e| e.values()))
}

/// G(h) of `code` for each heap h of `at` (each at most `n`), computed by the engine as
/// [`values_with_progress`] (with `only_if_it_pays`, as [`values_if_it_pays`]) but read from
/// the engine's own table: no copy of G(0..=n) is made, so a question about a few heaps holds
/// 2 bytes a heap, not 6.
pub fn values_at(
    code: &TakeBreak,
    n: u64,
    at: &[u64],
    threads: usize,
    only_if_it_pays: bool,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Option<Vec<u32>>, Error> {
    if let Some(&h) = at.iter().find(|&&h| h > n) {
        return Err(Error::TooLarge(format!("heap {h} is past G(0..={n})")));
    }
    let Some(e) = advanced(code, n, threads, only_if_it_pays, progress)? else {
        return Ok(None);
    };
    Ok(Some(
        at.iter().map(|&h| e.value(h).unwrap_or_default()).collect(),
    ))
}

/// The engine of `code` advanced to G(0..=n), or `None` when `only_if_it_pays` and the split
/// does not pay ([`Engine::pays`] after [`PAYS_AFTER`] heaps); [`Error::Stopped`] when
/// `progress` stopped it first.
fn advanced(
    code: &TakeBreak,
    n: u64,
    threads: usize,
    only_if_it_pays: bool,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Option<Engine>, Error> {
    let target = n
        .checked_add(1)
        .filter(|&t| usize::try_from(t).is_ok())
        .ok_or_else(|| Error::TooLarge(format!("{n} heaps do not fit in memory")))?;
    let mut e = Engine::new(code)?.with_threads(threads);
    if only_if_it_pays {
        e.advance(target.min(PAYS_AFTER), &mut |e| progress(e.len()));
        if !e.pays() {
            return Ok(None);
        }
    }
    e.advance(target, &mut |e| progress(e.len()));
    if e.len() < target {
        return Err(Error::Stopped { done: e.len() });
    }
    Ok(Some(e))
}

/// Whether the rare/common split pays for `code` (see [`Engine::pays`]), judged by computing
/// its first [`PAYS_AFTER`] heaps (or `n + 1`, if fewer) with `threads` threads.
pub fn pays(code: &TakeBreak, n: u64, threads: usize) -> Result<bool, Error> {
    let mut e = Engine::new(code)?.with_threads(threads);
    e.advance(n.saturating_add(1).min(PAYS_AFTER), &mut |_| true);
    Ok(e.pays())
}

/// [`values`], calling `progress(heaps_done)` after each block. When `progress` returns false
/// the computation stops at that block boundary with [`Error::Stopped`] (unless every value
/// was already known: then the values are returned).
pub fn values_with_progress(
    code: &TakeBreak,
    n: u64,
    threads: usize,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Vec<u32>, Error> {
    Ok(advanced(code, n, threads, false, progress)?
        .map(|e| e.values())
        .unwrap_or_default())
}
