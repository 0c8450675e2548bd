//! The rare/common engine proper, over one storage type: a pipeline of tiles.
//!
//! Heaps are computed in tiles of [`LANES`] consecutive heaps. For heap n and a splitting move
//! that leaves `m = n - i` tokens, every common option value is `G(r) ^ G(m - r)` for some rare
//! heap r. Each tile has a bound, `lag` heaps below it: its phase 1 reads only partners below
//! the bound, so it may run while the heaps between the bound and the tile are still being
//! finished.
//!
//! Phase 1 (on every thread, tiles in order) waits until the heaps below the bound are known.
//! Each rare r whose partner `m - r` lies below the bound marks its value in every heap's row:
//! partners of consecutive heaps are consecutive, so two loads serve a tile
//! ([`kernel::mark_lanes`]). Each heap then takes the smallest unmarked common value c' and scans
//! splits `a = n - bound + 1, …` (their partners lie below the bound) until every rare value
//! below c' has been seen ([`kernel::scan_pairs`]).
//!
//! Phase 2 (on the calling thread, tiles in order, each as soon as its phase 1 is done) marks
//! the pairs with partners from the bound to the tile a tile at a time, then heap by heap the
//! pairs inside the tile and the few non-splitting options, and takes the smallest unmarked
//! common value c. When every rare value below c is marked, G(n) = c. Otherwise the scan
//! continues: over `a = 1..=n - bound`, then on from where phase 1 stopped (or again from
//! `n - bound + 1` when c > c', since phase 1 looked only for values below c'). If the scan runs
//! out, G(n) is the smallest unseen rare value (a new rare heap). Phase 2 appends each value to
//! the recent run, where the phase 1 of later tiles reads it ([`Shelf`]).
//!
//! A block is a run of tiles with one rare list and mask: heaps that turn rare inside it are
//! paired by phase 2 alone, and the mask, the row width and the memory window change only
//! between blocks.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::crew::Signal;
use crate::kernel::{self, pack_bits, Layout, LANES};
use crate::mask::{best_mask, is_rare, key};
use crate::plan::Plan;
use crate::seq::{Appender, Seq, Shelf, Val, View};

/// Counters that explain where the time goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Split pairs looked at while confirming candidates.
    pub scan_steps: u64,
    /// Heaps whose confirming scan ran through every split (new rare heaps).
    pub full_scans: u64,
    /// How many times the mask changed.
    pub mask_changes: u64,
    /// Split pairs looked at in scans that ran through every split.
    pub full_scan_steps: u64,
    /// Time spent in the parallel phase (nanoseconds).
    pub phase1_ns: u64,
    /// Time spent in the sequential phase (nanoseconds; estimated from every eighth tile).
    pub phase2_ns: u64,
    /// Values fetched from durable chunks because the memory window had dropped them.
    pub gap_fetches: u64,
    /// Heaps that phase 2 scanned again from where phase 1 began (in-block marks raised the
    /// candidate, or the heap was marked again at full width).
    pub rescans: u64,
    /// Heaps whose candidate lay beyond the rows' span, marked again at full width.
    pub wide: u64,
    /// Heaps computed with the helper threads working (the rest the calling thread computed
    /// alone, where helpers did not pay; see [`crate::Engine::with_threads`]).
    pub crew_heaps: u64,
}

/// Engine state over values of type `T`.
#[derive(Clone, Debug)]
pub(crate) struct Core<T> {
    /// The code's moves.
    pub(crate) plan: Plan,
    /// The values computed so far.
    pub(crate) seq: Seq<T>,
    /// Heaps per key (`G << 1 | parity`), length `2 * cap`.
    pub(crate) hist: Vec<u64>,
    pub(crate) mask: u64,
    /// Rare heaps (ascending, heap 0 excluded) and their values.
    pub(crate) rare_pos: Vec<u64>,
    pub(crate) rare_val: Vec<u32>,
    pub(crate) max_val: u32,
    pub(crate) max_first: u64,
    /// Values are below `cap` (a power of two, at least 64).
    pub(crate) cap: u32,
    pub(crate) stats: Stats,
    /// Bitsets over values `0..=cap`: rare values at parity class 0 and 1.
    rarebits: [Vec<u64>; 2],
    /// Tiles between their phase 1 and their phase 2 (a ring).
    slots: Vec<Slot>,
    /// G(K - 1), …, G(0) for the first K heaps (at most [`REVERSED`]): the first sides of
    /// confirming scans, reversed so that the vector scan needs no shuffles to pair them.
    rev: Vec<T>,
    need: Vec<u64>,
    scratch: Vec<u8>,
    /// Phase 2's one-word rows, in place of `scratch` where the span allows (see [`Rows`]).
    scratch_bits: Vec<u64>,
    bits: Vec<u64>,
    /// New rare heaps of the current block (heap, value).
    fresh_rare: Vec<(u64, u32)>,
    pub(crate) tuning: Tuning,
    /// The deepest position a successful (not full) confirming scan reached.
    pub(crate) scan_reach: u64,
    /// The last block stopped before a heap whose value `T` cannot hold (the engine widens the
    /// storage and computes that heap again).
    pub(crate) overflow: bool,
}

/// What an engine needs to know of values it does not hold: their histogram (by key), the
/// largest value and where it first appears, and (when asked) the rare heaps under `mask`.
/// Filled one value at a time, in heap order (a resume reading stored chunks).
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    parity: Option<u64>,
    mask: u64,
    /// Heaps per key (`G << 1 | parity`).
    pub(crate) hist: Vec<u64>,
    pub(crate) max_val: u32,
    pub(crate) max_first: u64,
    /// Rare heaps under `mask` (heap 0 excluded), when [`Tally::add`] is asked to keep them.
    pub(crate) rare: Vec<(u64, u32)>,
}

impl Tally {
    pub(crate) fn new(parity: Option<u64>, mask: u64) -> Tally {
        Tally {
            parity,
            mask,
            hist: vec![0; 128],
            max_val: 0,
            max_first: 0,
            rare: Vec::new(),
        }
    }

    /// Counts G(n) = v (heaps in order, from 0); records heap n in `rare` when `keep_rare` and
    /// it is rare.
    #[inline]
    pub(crate) fn add(&mut self, n: u64, v: u32, keep_rare: bool) {
        if v > self.max_val {
            self.max_val = v;
            self.max_first = n;
        }
        let k = key(v, n, self.parity);
        if k as usize >= self.hist.len() {
            self.hist.resize((k as usize + 1).next_power_of_two(), 0);
        }
        self.hist[k as usize] += 1;
        if keep_rare && n > 0 && is_rare(k, self.mask) {
            self.rare.push((n, v));
        }
    }
}

/// Sizes that trade speed only (never results).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Heaps per block: threads wait for each other only at a block's end, and the mask and
    /// the memory window change only there.
    pub block: usize,
    /// How far behind a tile its phase 1 reads partners (None: two tiles per thread where
    /// helpers work, none for one thread alone). Phase 2 marks the pairs in between; a short
    /// lag makes phase 1 wait for phase 2.
    pub lag: Option<usize>,
    /// Values the tile rows track (None: the smallest power of two that all but one heap in
    /// 65536 stay below). One large value doubles `cap`; narrower rows keep the marking fast,
    /// and a heap whose candidate lies beyond them is marked again at full width.
    pub span: Option<u32>,
    /// Let the engine choose, block by block, whether its helper threads work (true, the
    /// default: they work only while they make blocks faster); false: they work in every
    /// block (tests of the threaded pipeline).
    pub pace: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            block: 4096,
            lag: None,
            span: None,
            pace: true,
        }
    }
}

/// What phase 1 learnt about one heap of the block (row j).
#[derive(Clone, Copy, Debug, Default)]
struct Early {
    /// The smallest common value not marked in phase 1.
    c: u32,
    /// Its scan for the rare values below `c`, over splits `a = from..=scan.stop`.
    scan: Scan,
    /// The first split the scan looked at: `near + 1`, or just past the prescanned splits
    /// (see [`prescan`]); phase 2 looks at the splits below it if it must.
    from: u64,
}

fn words_for(cap: u32) -> usize {
    cap as usize / 64 + 1
}

impl<T: Val> Core<T> {
    /// A fresh engine that knows nothing (G(0) is computed like any other heap).
    pub(crate) fn new(plan: Plan) -> Core<T> {
        let cap = 64;
        let mut core = Core {
            plan,
            seq: Seq::default(),
            hist: vec![0; 2 * cap as usize],
            mask: 2,
            rare_pos: Vec::new(),
            rare_val: Vec::new(),
            max_val: 0,
            max_first: 0,
            cap,
            stats: Stats::default(),
            rarebits: [Vec::new(), Vec::new()],
            slots: Vec::new(),
            rev: Vec::new(),
            need: Vec::new(),
            scratch: Vec::new(),
            scratch_bits: Vec::new(),
            bits: Vec::new(),
            fresh_rare: Vec::new(),
            tuning: Tuning::default(),
            scan_reach: 0,
            overflow: false,
        };
        core.refresh_rarebits();
        core
    }

    /// Rebuilds an engine from stored values (resume): histogram, maximum and rare heaps.
    pub(crate) fn from_values(
        plan: Plan,
        seq: Seq<T>,
        mask: u64,
        values: impl Iterator<Item = u32>,
    ) -> Core<T> {
        let mut tally = Tally::new(plan.split_parity, mask);
        for (n, v) in values.enumerate() {
            tally.add(n as u64, v, false);
        }
        Core::from_tally(plan, seq, tally)
    }

    /// An engine holding `seq` (perhaps only part of the values: a windowed resume) whose
    /// histogram, maximum and mask are those of `tally` (its rare heaps too, if it kept them).
    pub(crate) fn from_tally(plan: Plan, seq: Seq<T>, tally: Tally) -> Core<T> {
        let mut core = Core::new(plan);
        core.seq = seq;
        let Tally {
            mut hist,
            max_val,
            max_first,
            mask,
            rare,
            ..
        } = tally;
        core.max_val = max_val;
        core.max_first = max_first;
        core.cap = (max_val + 1).next_power_of_two().max(64);
        hist.resize(hist.len().max(2 * core.cap as usize), 0);
        core.hist = hist;
        core.mask = mask;
        for (n, v) in rare {
            core.rare_pos.push(n);
            core.rare_val.push(v);
        }
        core.refresh_rarebits();
        core
    }

    /// The same state over another storage type (u16 to u32 when values grow).
    pub(crate) fn convert<U: Val>(&self) -> Core<U> {
        let mut out = Core::<U>::new(self.plan.clone());
        out.seq = self.seq.convert();
        out.hist = self.hist.clone();
        out.mask = self.mask;
        out.rare_pos = self.rare_pos.clone();
        out.rare_val = self.rare_val.clone();
        out.max_val = self.max_val;
        out.max_first = self.max_first;
        out.cap = self.cap;
        out.stats = self.stats.clone();
        out.tuning = self.tuning;
        out.scan_reach = self.scan_reach;
        out.refresh_rarebits();
        out
    }

    /// Recomputes the rare-value bitsets for the current mask and cap.
    fn refresh_rarebits(&mut self) {
        let words = words_for(self.cap);
        for p in 0..2 {
            let mut bits = vec![0u64; words];
            for v in 0..=self.cap {
                if is_rare((u64::from(v) << 1) | p as u64, self.mask) {
                    bits[v as usize / 64] |= 1 << (v % 64);
                }
            }
            self.rarebits[p] = bits;
        }
    }

    /// Rebuilds the rare-heap list from the values (after a mask change or a resume).
    pub(crate) fn rebuild_rare(&mut self, values: impl Iterator<Item = u32>) {
        self.rare_pos.clear();
        self.rare_val.clear();
        for (n, v) in values.enumerate().skip(1) {
            if is_rare(key(v, n as u64, self.plan.split_parity), self.mask) {
                self.rare_pos.push(n as u64);
                self.rare_val.push(v);
            }
        }
    }

    /// [`Core::rebuild_rare`] from the stored values (full mode), without copying them.
    pub(crate) fn rebuild_rare_from_seq(&mut self) {
        let recent = std::mem::take(&mut self.seq.recent);
        self.rebuild_rare(recent.iter().map(|v| v.get()));
        self.seq.recent = recent;
    }

    /// Re-scores every mask; returns true when a clearly better one was adopted (the caller then
    /// rebuilds the rare list from all values).
    pub(crate) fn reconsider_mask(&mut self) -> bool {
        let parity = self.plan.split_parity.is_some();
        let size = self.hist.len() as u64;
        let current = self.mask & (size - 1);
        let (best, best_count) = best_mask(&self.hist, parity, current);
        let cur_count = crate::mask::rare_counts(&self.hist)[current as usize];
        if best != self.mask && best_count.saturating_mul(8) < cur_count.saturating_mul(7) {
            self.mask = best;
            self.stats.mask_changes += 1;
            self.refresh_rarebits();
            return true;
        }
        false
    }

    /// Adjusts `cap` (and the tables sized by it) after the largest value grew.
    fn grow_cap(&mut self) {
        let cap = (self.max_val + 1).next_power_of_two().max(64);
        if cap != self.cap {
            self.cap = cap;
            self.hist.resize((2 * cap as usize).max(self.hist.len()), 0);
            self.refresh_rarebits();
        }
    }

    /// The values the rows of the next block track (see [`Tuning::span`]), at most `cap`.
    fn row_span(&self) -> u32 {
        if let Some(span) = self.tuning.span {
            return span.clamp(1, self.cap);
        }
        let heaps: u64 = self.hist.iter().sum();
        let mut span = 64;
        while span < self.cap {
            let above: u64 = self.hist.iter().skip(2 * span as usize).sum();
            if above << 16 <= heaps {
                break;
            }
            span *= 2;
        }
        span.min(self.cap)
    }

    /// Rebuilds [`Core::rev`] when more of the first [`REVERSED`] heaps are known.
    fn extend_rev(&mut self) {
        let want = self.seq.len().min(REVERSED);
        if (self.rev.len() as u64) < want {
            let view = self.seq.view();
            self.rev = (0..want).map_while(|i| view.get(i)).map(T::put).collect();
            self.rev.reverse();
        }
    }

    /// Computes up to `count` more heaps (fewer when a block ends early); returns how many.
    /// `gap` fetches values that are in neither the prefix nor the recent run (windowed mode;
    /// while every value is in memory it is never called).
    ///
    /// The block is a pipeline of tiles. Phase 1 of a tile may start once every heap `lag`
    /// before the tile is known; it runs on every thread of `crew`, in tile order. The calling
    /// thread runs phase 2 on each tile as soon as its phase 1 is done (appending the values to
    /// the recent run through a [`Shelf`], where later tiles' phase 1 reads them), and phase 1
    /// of the next tile it may start while it waits. There is no barrier between tiles, only at
    /// the block's end.
    pub(crate) fn block(
        &mut self,
        count: usize,
        crew: Option<&crate::crew::Crew>,
        gap: &mut dyn FnMut(u64) -> u32,
    ) -> usize {
        let n0 = self.seq.len();
        let b = count.min(self.tuning.block).max(1);
        self.extend_rev();
        let span = self.row_span();
        // Rows of one word of bits where the span allows it (see `Rows`), else of bytes.
        let bits_mode = span <= 64;
        let words = if bits_mode { 1 } else { words_for(span) };
        let width = if bits_mode { 0 } else { words * 64 };
        let tiles = b.div_ceil(LANES);
        let threads = crew.map_or(1, |c| c.threads());
        // Tiles in flight on the other threads while the caller is busy need heaps this far
        // behind them to be known already. Alone, the caller runs each tile's phase 1 once the
        // heaps before it are known: with no lag, phase 1 marks every pair whose partner lies
        // below the tile, a whole tile at a time, and phase 2 only those inside it.
        let lag = match threads {
            1 => self.tuning.lag.unwrap_or(0),
            _ => self.tuning.lag.unwrap_or(2 * LANES * threads),
        } as u64;
        let ring = threads + 2 + lag as usize / LANES;
        // Phase 1's first confirming splits, marked whole tiles at a time (see `prescan`), when
        // their values are in memory (a memory window may have dropped them).
        let first = lag + LANES as u64;
        let pre: Option<Vec<(u64, u32)>> = (bits_mode && self.seq.len() > first + PRESCAN)
            .then(|| {
                (first..first + PRESCAN)
                    .map(|a| self.seq.get(a).map(|g| (a, g)))
                    .collect()
            })
            .flatten();
        let (pre_pos, pre_val): (Vec<u64>, Vec<u32>) = pre.unwrap_or_default().into_iter().unzip();
        self.slots.resize_with(ring, Slot::default);
        for slot in &mut self.slots {
            slot.rows.resize(LANES * width, 0);
            slot.early.resize(LANES, Early::default());
            slot.packed.resize(LANES * words, 0);
        }
        let clock = std::time::Instant::now();
        let Core {
            plan,
            seq,
            hist,
            mask,
            rare_pos,
            rare_val,
            max_val,
            max_first,
            cap,
            stats,
            rarebits,
            slots,
            rev,
            need,
            scratch,
            scratch_bits,
            bits,
            scan_reach,
            fresh_rare,
            overflow,
            ..
        } = self;
        *overflow = false;
        let (plan, cap, rarebits, rev) = (&*plan, *cap, &*rarebits, &rev[..]);
        let (rp, rv) = (&rare_pos[..], &rare_val[..]);
        let (prefix, start) = (&seq.prefix[..], seq.start);
        let shelf = Shelf::new(&mut seq.recent, b);
        let slots: Vec<_> = slots.iter_mut().map(std::sync::Mutex::new).collect();
        let ready: Vec<AtomicBool> = (0..tiles).map(|_| AtomicBool::new(false)).collect();
        let cancel = AtomicBool::new(false);
        let poisoned = AtomicBool::new(false);
        // Wakes threads waiting for a tile's phase 1 (the caller) or for values (phase 1).
        let wake = Signal::default();
        // The heap below which tile t's phase 1 reads partners (all known by then).
        let bound = |t: usize| (n0 + (t * LANES) as u64).saturating_sub(lag);
        // Phase 1 of tile t.
        let phase1 = |t: usize| {
            let _done = Done {
                ready: &ready[t],
                poisoned: &poisoned,
                wake: &wake,
            };
            let top = n0 + (t * LANES) as u64;
            let bound = bound(t);
            wake.wait_until(|| {
                start + (shelf.published_len() as u64) >= bound || cancel.load(Ordering::Relaxed)
            });
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            let view = View {
                prefix,
                recent: shelf.published(),
                start,
            };
            let mut slot = slots[t % ring].lock().unwrap_or_else(|e| e.into_inner());
            let Slot {
                rows,
                early,
                packed,
            } = &mut **slot;
            let mut marks = if bits_mode {
                packed.fill(0);
                Rows::Bits(packed)
            } else {
                rows.fill(0);
                Rows::Bytes {
                    rows,
                    width,
                    limit: span,
                }
            };
            mark_rare(&mut marks, &view, plan, rp, rv, top, 0..bound);
            // Splits a in `pre` are already looked at, for every heap of the tile.
            let pre = match &mut marks {
                Rows::Bits(words) => prescan(words, &view, plan, top, &pre_pos, &pre_val)
                    .then(|| pre_pos[0]..=pre_pos[pre_pos.len() - 1]),
                Rows::Bytes { .. } => None,
            };
            let (mut bits, mut need) = (Vec::new(), Vec::new());
            for (k, (out, e)) in packed
                .chunks_exact_mut(words)
                .zip(early.iter_mut())
                .enumerate()
            {
                let n = top + k as u64;
                // Phase 2 reads the marks packed (a few words from the other core's cache
                // instead of a row of bytes), values the scan finds included.
                if !bits_mode {
                    out.copy_from_slice(pack_bits(&rows[k * width..(k + 1) * width], &mut bits));
                }
                let (c, missing) = candidate_bits(out, &rarebits[parity_class(plan, n)], &mut need);
                let near = n - bound;
                let nothing = |done| Scan {
                    done,
                    stop: near,
                    steps: 0,
                };
                let (found, from) = if c >= span {
                    // Beyond the rows: phase 2 marks this heap again at full width.
                    (nothing(false), near + 1)
                } else if !missing {
                    (nothing(true), near + 1)
                } else {
                    // Splits from near + 1 to the prescanned ones are left to phase 2, which
                    // looks at those below `from` when it still misses a value (rarely: most
                    // are found among the prescanned splits and after them).
                    let from = pre.as_ref().map_or(near + 1, |pre| pre.end() + 1);
                    for (o, &w) in out.iter_mut().zip(&need) {
                        *o |= w;
                    }
                    let scan = scan_memory(&view, rev, plan, cap, n, from..=u64::MAX, &mut need);
                    // What the scan did not find is not marked after all.
                    for (o, &w) in out.iter_mut().zip(&need) {
                        *o &= !w;
                    }
                    (scan, from)
                };
                *e = Early {
                    c,
                    scan: found,
                    from,
                };
            }
        };
        fresh_rare.clear();
        scratch.clear();
        scratch.resize(LANES * width, 0);
        scratch_bits.clear();
        scratch_bits.resize(if bits_mode { LANES } else { 0 }, 0);
        let mut phase2_ns = 0;
        // The caller: phase 2 in order, phase 1 of the next tile it may start while waiting.
        let mut main = |claim: &dyn Fn(usize) -> Option<usize>| -> usize {
            let _stop = Cancel(&cancel, &wake);
            let mut p2 = Phase2 {
                plan,
                prefix,
                start,
                out: shelf.appender().expect("the block's one appender"),
                rev,
                cap,
                span,
                rare_pos: rp,
                rare_val: rv,
                rarebits,
                fresh_rare,
                need,
                rows: scratch,
                row_bits: scratch_bits,
                bits_mode,
                bits,
                stats,
                scan_reach,
            };
            let mut j = 0;
            while j < b {
                let t = j / LANES;
                if !ready[t].load(Ordering::Acquire) {
                    // Tile u's partners are known once heaps below bound(u) are.
                    let limit = (j as u64 + lag) as usize / LANES + 1;
                    match claim(limit) {
                        Some(u) => phase1(u),
                        // Another thread has it: sleep (after a short spin) until it is done.
                        None => wake.wait_until(|| ready[t].load(Ordering::Acquire)),
                    }
                    continue;
                }
                assert!(
                    !poisoned.load(Ordering::Relaxed),
                    "phase 1 of a tile panicked"
                );
                // Phase 2's share of the time, from every TIMED-th tile (a clock read costs
                // as much as a few heaps' phase 2).
                let clock = t.is_multiple_of(TIMED).then(std::time::Instant::now);
                let timed = |phase2_ns: &mut u64| {
                    if let Some(clock) = clock {
                        *phase2_ns += TIMED as u64 * clock.elapsed().as_nanos() as u64;
                    }
                };
                let mut slot = slots[t % ring].lock().unwrap_or_else(|e| e.into_inner());
                let Slot { early, packed, .. } = &mut **slot;
                let (top, bound) = (n0 + (t * LANES) as u64, bound(t));
                p2.begin_tile(top, bound);
                while j < b && j / LANES == t {
                    let k = j % LANES;
                    let marks = &mut packed[k * words..(k + 1) * words];
                    let n = n0 + j as u64;
                    let g = p2.finish_heap(n, k, top, bound, marks, early[k], gap);
                    if g > T::MAX {
                        // Not storable: end the block before this heap (see `overflow`).
                        *overflow = true;
                        timed(&mut phase2_ns);
                        return j;
                    }
                    p2.out.push_quiet(T::put(g));
                    let key = key(g, n, plan.split_parity);
                    if key as usize >= hist.len() {
                        hist.resize((key as usize + 1).next_power_of_two(), 0);
                    }
                    hist[key as usize] += 1;
                    if n > 0 && is_rare(key, *mask) {
                        p2.fresh_rare.push((n, g));
                    }
                    j += 1;
                    if g > *max_val {
                        *max_val = g;
                        *max_first = n;
                        if g >= cap {
                            // Rows are too narrow from here on: end the block.
                            timed(&mut phase2_ns);
                            return j;
                        }
                    }
                }
                // Later tiles' phase 1 reads whole tiles: publish once a tile.
                p2.out.publish();
                wake.notify();
                timed(&mut phase2_ns);
            }
            j
        };
        let done = match crew {
            Some(crew) if tiles > 1 => crew.run_with(tiles, &phase1, main),
            _ => {
                let next = std::cell::Cell::new(0);
                main(&|limit| {
                    let t = next.get();
                    (t < tiles.min(limit)).then(|| {
                        next.set(t + 1);
                        t
                    })
                })
            }
        };
        drop(slots);
        drop(shelf);
        let total = clock.elapsed().as_nanos() as u64;
        self.stats.phase2_ns += phase2_ns;
        self.stats.phase1_ns += total.saturating_sub(phase2_ns);
        for &(n, g) in &self.fresh_rare {
            self.rare_pos.push(n);
            self.rare_val.push(g);
        }
        if self.max_val >= self.cap {
            self.grow_cap();
        }
        done
    }
}

/// Marks tile's phase 1 as over when dropped, and as failed when dropped by a panic.
struct Done<'a> {
    ready: &'a AtomicBool,
    poisoned: &'a AtomicBool,
    wake: &'a Signal,
}

impl Drop for Done<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.poisoned.store(true, Ordering::Relaxed);
        }
        self.ready.store(true, Ordering::Release);
        self.wake.notify();
    }
}

/// Stops the block's phase 1 work when dropped (the caller returned or panicked).
struct Cancel<'a>(&'a AtomicBool, &'a Signal);

impl Drop for Cancel<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        self.1.notify();
    }
}

/// One tile's phase 1 results, waiting for its phase 2 (a ring of these serves the block).
#[derive(Clone, Debug, Default)]
struct Slot {
    /// One byte row per heap of the tile: 1 where some option has that value.
    rows: Vec<u8>,
    early: Vec<Early>,
    /// The rows packed into bits, for phase 2.
    packed: Vec<u64>,
}

/// What phase 2 reads and writes, borrowed apart from what phase 1 reads.
struct Phase2<'a, 's, T> {
    plan: &'a Plan,
    /// The values before the recent run, and where it starts.
    prefix: &'a [T],
    start: u64,
    /// Appends the block's values to the recent run.
    out: Appender<'s, 'a, T>,
    rev: &'a [T],
    cap: u32,
    /// Values the tile rows track (byte `span` stands for all larger ones).
    span: u32,
    /// Rare heaps before the block, and those found in it so far (heap, value).
    rare_pos: &'a [u64],
    rare_val: &'a [u32],
    fresh_rare: &'a mut Vec<(u64, u32)>,
    rarebits: &'a [Vec<u64>; 2],
    need: &'a mut Vec<u64>,
    /// The tile's byte rows for new marks (then packed into `bits`), or its one-word rows
    /// where `bits_mode` (see [`Rows`]).
    rows: &'a mut Vec<u8>,
    row_bits: &'a mut Vec<u64>,
    bits_mode: bool,
    bits: &'a mut Vec<u64>,
    stats: &'a mut Stats,
    scan_reach: &'a mut u64,
}

impl<T: Val> Phase2<'_, '_, T> {
    /// Every value known so far.
    fn view(&self) -> View<'_, T> {
        View {
            prefix: self.prefix,
            recent: self.out.all(),
            start: self.start,
        }
    }

    /// G(i) for any heap known so far.
    fn get(&self, i: u64, gap: &mut dyn FnMut(u64) -> u32) -> u32 {
        self.view().get(i).unwrap_or_else(|| gap(i))
    }

    /// Starts phase 2 of the tile at heap `top`, whose phase 1 read partners below `bound`:
    /// the marks of rare heaps with partners from `bound` to the tile, a tile at a time.
    fn begin_tile(&mut self, top: u64, bound: u64) {
        let mut rows = std::mem::take(self.rows);
        let mut words = std::mem::take(self.row_bits);
        let mut marks = if self.bits_mode {
            words.fill(0);
            Rows::Bits(&mut words)
        } else {
            rows.fill(0);
            let width = rows.len() / LANES;
            Rows::Bytes {
                rows: &mut rows,
                width,
                limit: self.span,
            }
        };
        let view = self.view();
        // Phase 1 marked the pairs with partners below `bound`: marking some of them again
        // lets rare heaps whose partners straddle `bound` take the vector kernel.
        mark_rare(
            &mut marks,
            &view,
            self.plan,
            self.rare_pos,
            self.rare_val,
            top,
            bound..top,
        );
        *self.rows = rows;
        *self.row_bits = words;
    }

    /// Phase 2 for heap `n` (row k of the tile at `top`; [`Phase2::begin_tile`] came first;
    /// phase 1 marks packed in `marks`): completes its marks and finds G(n).
    #[allow(clippy::too_many_arguments)]
    fn finish_heap(
        &mut self,
        n: u64,
        k: usize,
        top: u64,
        bound: u64,
        marks: &mut [u64],
        early: Early,
        gap: &mut dyn FnMut(u64) -> u32,
    ) -> u32 {
        let plan = self.plan;
        self.stats.scan_steps += early.scan.steps;
        let span = self.span;
        if self.bits_mode {
            // One word, in a register (branch-free: values of 64 and more set nothing).
            let mut word = self.row_bits[k];
            self.mark_in_tile(n, top, gap, |v| word |= 1u64.checked_shl(v).unwrap_or(0));
            marks[0] |= word;
        } else {
            let mut rows = std::mem::take(self.rows);
            let width = rows.len() / LANES;
            let row = &mut rows[k * width..(k + 1) * width];
            self.mark_in_tile(n, top, gap, |v| row[v.min(span) as usize] = 1);
            for (m, b) in marks.iter_mut().zip(pack_bits(row, self.bits)) {
                *m |= b;
            }
            *self.rows = rows;
        }
        let pc = parity_class(plan, n);
        let (c, missing) = candidate_bits(marks, &self.rarebits[pc], self.need);
        if c >= span {
            self.wide(n, n - bound, gap)
        } else if !missing {
            if early.scan.done {
                *self.scan_reach = (*self.scan_reach).max(early.scan.stop);
            }
            c
        } else {
            self.confirm(n, n - bound, c, early, gap)
        }
    }

    /// Marks, through `set`, the values of heap `n`'s options that phase 1 and
    /// [`Phase2::begin_tile`] could not: the options that are not splits, the pairs with the
    /// partner in this tile (at `top`; rare heaps r <= m - top), and the pairs with heaps that
    /// became rare in this block.
    fn mark_in_tile(
        &self,
        n: u64,
        top: u64,
        gap: &mut dyn FnMut(u64) -> u32,
        mut set: impl FnMut(u32),
    ) {
        self.mark_non_splits(n, gap, &mut set);
        for s in &self.plan.splits {
            if n < s.remove + 2 {
                continue;
            }
            let m = n - s.remove;
            let limit = m.saturating_sub(top);
            // Partners m - r >= top, in the recent run.
            let (recent, base) = (self.out.all(), m.wrapping_sub(self.start));
            for (&r, &gr) in self.rare_pos.iter().zip(self.rare_val) {
                if r > limit {
                    break;
                }
                if s.unequal && 2 * r == m {
                    continue;
                }
                set(gr ^ recent[(base - r) as usize].get());
            }
            for &(r, gr) in self.fresh_rare.iter() {
                if r >= m || (s.unequal && 2 * r == m) {
                    continue;
                }
                set(gr ^ self.get(m - r, gap));
            }
        }
    }

    /// Marks, through `set`, the values of heap `n`'s options that are not splits: taking it
    /// all, leaving one heap, and splitting into two equal heaps (G = 0).
    fn mark_non_splits(&self, n: u64, gap: &mut dyn FnMut(u64) -> u32, mut set: impl FnMut(u32)) {
        let plan = self.plan;
        for &i in &plan.leave_none {
            if n == i {
                set(0);
            }
        }
        for &i in &plan.leave_one {
            if n > i {
                set(self.get(n - i, gap));
            }
        }
        for &i in &plan.equal_split {
            if n >= i + 2 && (n - i).is_multiple_of(2) {
                set(0);
            }
        }
    }

    /// G(n) for a heap whose candidate lies beyond the rows' span: every pair with a rare part
    /// marked again over all values, then the confirming scan from the start.
    fn wide(&mut self, n: u64, near: u64, gap: &mut dyn FnMut(u64) -> u32) -> u32 {
        self.stats.wide += 1;
        let plan = self.plan;
        let mut marks = vec![0u64; words_for(self.cap)];
        let mut set = |v: u32| marks[v as usize / 64] |= 1 << (v % 64);
        self.mark_non_splits(n, gap, &mut set);
        for s in &plan.splits {
            if n < s.remove + 2 {
                continue;
            }
            let m = n - s.remove;
            let before = self
                .rare_pos
                .iter()
                .copied()
                .zip(self.rare_val.iter().copied());
            for (r, gr) in before.chain(self.fresh_rare.iter().copied()) {
                if r < m && !(s.unequal && 2 * r == m) {
                    set(gr ^ self.get(m - r, gap));
                }
            }
        }
        let pc = parity_class(plan, n);
        let (c, missing) = candidate_bits(&marks, &self.rarebits[pc], self.need);
        if !missing {
            return c;
        }
        // Phase 1 looked for nothing: scan every split.
        let early = Early {
            c: u32::MAX,
            scan: Scan {
                done: false,
                stop: near,
                steps: 0,
            },
            from: near + 1,
        };
        self.confirm(n, near, c, early, gap)
    }

    /// The confirming scan of phase 2: every rare value in `need` must be an option for G(n) to
    /// be c; otherwise G(n) is the smallest missing one. Phase 1 scanned from `near + 1`.
    fn confirm(
        &mut self,
        n: u64,
        near: u64,
        c: u32,
        early: Early,
        gap: &mut dyn FnMut(u64) -> u32,
    ) -> u32 {
        let plan = self.plan;
        // Confirm c: splits a = 1..early.from (those phase 1 did not look at), then on from
        // where phase 1 stopped; or, when phase 1 looked for fewer values (c' < c), splits
        // 1..=near and on from near + 1 again.
        let below = if c == early.c { early.from - 1 } else { near };
        // `self.view()` would borrow all of self, and `need` is borrowed mutably below.
        let view = View {
            prefix: self.prefix,
            recent: self.out.all(),
            start: self.start,
        };
        let mut scan = scan_memory(&view, self.rev, plan, self.cap, n, 1..=below, self.need);
        let mut steps = scan.steps;
        if !scan.done && scan.stop < below.min(plan.max_split_part(n)) {
            // A windowed run may have dropped some first sides.
            scan = self.scan_get(n, scan.stop + 1, below, gap);
            steps += scan.steps;
        }
        if !scan.done {
            let from = if c == early.c {
                early.scan.stop + 1
            } else {
                self.stats.rescans += 1;
                near + 1
            };
            let view = View {
                prefix: self.prefix,
                recent: self.out.all(),
                start: self.start,
            };
            scan = scan_memory(
                &view,
                self.rev,
                plan,
                self.cap,
                n,
                from..=u64::MAX,
                self.need,
            );
            steps += scan.steps;
            if !scan.done {
                let amax = plan.max_split_part(n);
                let rest = self.scan_get(n, scan.stop + 1, amax, gap);
                steps += rest.steps;
                scan = rest;
            }
        }
        self.stats.scan_steps += steps;
        if scan.done {
            *self.scan_reach = (*self.scan_reach).max(scan.stop);
            return c;
        }
        self.stats.full_scans += 1;
        self.stats.full_scan_steps += steps;
        for (w, &x) in self.need.iter().enumerate() {
            if x != 0 {
                return w as u32 * 64 + x.trailing_zeros();
            }
        }
        unreachable!("missing > 0 means a bit is set")
    }

    /// The confirming scan over splits `a = from..=to`, one value at a time (any heap known,
    /// dropped ones through `gap`).
    fn scan_get(&mut self, n: u64, from: u64, to: u64, gap: &mut dyn FnMut(u64) -> u32) -> Scan {
        let mut missing: u32 = self.need.iter().map(|w| w.count_ones()).sum();
        let mut steps = 0;
        let to = to.min(self.plan.max_split_part(n));
        for a in from..=to {
            if missing == 0 {
                break;
            }
            let ga = self.get(a, gap);
            for s in &self.plan.splits {
                let Some((m, hi)) = split_range(s, n) else {
                    continue;
                };
                if a > hi {
                    continue;
                }
                steps += 1;
                let v = (ga ^ self.get(m - a, gap)) as usize;
                let Some(word) = self.need.get_mut(v / 64) else {
                    continue;
                };
                if *word >> (v % 64) & 1 == 1 {
                    *word &= !(1u64 << (v % 64));
                    missing -= 1;
                    if missing == 0 {
                        return Scan {
                            done: true,
                            stop: a,
                            steps,
                        };
                    }
                }
            }
        }
        Scan {
            done: missing == 0,
            stop: to.max(from.saturating_sub(1)),
            steps,
        }
    }
}

/// How far a confirming scan got.
#[derive(Clone, Copy, Debug, Default)]
struct Scan {
    /// Every needed value was seen.
    done: bool,
    /// The last split position looked at (for every splitting move).
    stop: u64,
    /// Pairs looked at.
    steps: u64,
}

/// From a row of marks packed into bits: the smallest value that is neither marked nor rare
/// (c; `u32::MAX` when the row has none), and in `need` the rare values below c not marked;
/// returns (c, whether there are any).
fn candidate_bits(marked: &[u64], rare: &[u64], need: &mut Vec<u64>) -> (u32, bool) {
    let mut c = u32::MAX;
    for (w, (&mk, &r)) in marked.iter().zip(rare).enumerate() {
        let free = !(mk | r);
        if free != 0 {
            c = w as u32 * 64 + free.trailing_zeros();
            break;
        }
    }
    need.clear();
    let mut missing = 0;
    for (w, (&mk, &r)) in marked.iter().zip(rare).enumerate() {
        let lo = w as u32 * 64;
        let below = if c >= lo + 64 {
            !0u64
        } else if c <= lo {
            0
        } else {
            (1u64 << (c - lo)) - 1
        };
        let x = r & !mk & below;
        missing |= x;
        need.push(x);
    }
    (c, missing != 0)
}

/// Phase 2 is timed on every TIMED-th tile of a block (see [`Stats::phase2_ns`]).
const TIMED: usize = 8;

/// Heaps whose values [`Core::rev`] keeps reversed (the first sides of almost every scan).
const REVERSED: u64 = 1 << 16;

/// Positions scanned per splitting move before the next move takes its turn.
const SCAN_CHUNK: u64 = 4096;

/// The confirming scan of heap `n` over the splits `a` in `span` (up to the largest smaller
/// part) as far as the values are in memory (all of them in full mode): clears seen values
/// from `need`.
#[allow(clippy::too_many_arguments)]
fn scan_memory<T: Val>(
    seq: &View<'_, T>,
    rev: &[T],
    plan: &Plan,
    cap: u32,
    n: u64,
    span: std::ops::RangeInclusive<u64>,
    need: &mut [u64],
) -> Scan {
    let (from, to) = span.into_inner();
    let amax = plan.max_split_part(n).min(to);
    let mut a = from;
    let mut steps = 0;
    while a <= amax {
        let end = (a + SCAN_CHUNK - 1).min(amax);
        for s in &plan.splits {
            let Some((m, hi)) = split_range(s, n) else {
                continue;
            };
            let hi = hi.min(end);
            if hi < a {
                continue;
            }
            let count = (hi - a + 1) as usize;
            let k = rev.len() as u64;
            // G(a..=hi) reversed is rev[k - 1 - hi..k - a].
            let (firsts, layout) = if hi < k {
                let at = (k - 1 - hi) as usize;
                (Some(&rev[at..at + count]), Layout::Aligned)
            } else {
                (seq.slice(a, count), Layout::Mirrored)
            };
            let (Some(firsts), Some(seconds)) = (firsts, seq.slice(m - hi, count)) else {
                return Scan {
                    done: false,
                    stop: a - 1,
                    steps,
                };
            };
            match kernel::scan_pairs(firsts, seconds, layout, cap, need) {
                Some(k) => {
                    return Scan {
                        done: true,
                        stop: a + k as u64,
                        steps: steps + k as u64 + 1,
                    }
                }
                None => steps += count as u64,
            }
        }
        a = end + 1;
    }
    Scan {
        done: false,
        stop: amax.max(from - 1),
        steps,
    }
}

/// For heap `n` and a splitting move: `m = n - i` and the largest smaller part a (None when the
/// move cannot split n).
fn split_range(s: &crate::plan::Split, n: u64) -> Option<(u64, u64)> {
    if n < s.remove + 2 {
        return None;
    }
    let m = n - s.remove;
    let mut hi = m / 2;
    if s.unequal && m.is_multiple_of(2) {
        hi -= 1;
    }
    (hi >= 1).then_some((m, hi))
}

/// A tile's marks, one row per heap: bytes (one per value below `limit`, byte `limit` for all
/// the others) or, where the rows track values below 64 only, a word of bits per heap (values
/// of 64 and more are left out: a heap whose candidate reaches past the span is marked again
/// at full width, whatever its row says above it).
pub(crate) enum Rows<'a> {
    Bytes {
        rows: &'a mut [u8],
        width: usize,
        limit: u32,
    },
    Bits(&'a mut [u64]),
}

impl Rows<'_> {
    /// Marks value `v` in row `k`.
    #[inline]
    fn set(&mut self, k: usize, v: u32) {
        match self {
            Rows::Bytes { rows, width, limit } => rows[k * *width + v.min(*limit) as usize] = 1,
            Rows::Bits(words) => {
                if v < 64 {
                    words[k] |= 1 << v;
                }
            }
        }
    }

    /// Marks `rv[x] ^ vals[base - rp[x] + k]` in every row k for every x (see
    /// [`kernel::mark_lanes`]).
    fn lanes<T: Val>(&mut self, vals: &[T], base: u64, rp: &[u64], rv: &[u32]) {
        match self {
            Rows::Bytes { rows, width, limit } => {
                kernel::mark_lanes(rows, *width, *limit, vals, base, rp, rv)
            }
            Rows::Bits(words) => kernel::mark_bits(words, vals, base, rp, rv),
        }
    }
}

/// The marks of the rows of heaps `top..top + LANES` by every rare heap r (of `rp`, values `rv`)
/// whose partner `m - r` lies in `partners`: phase 1 marks those below a bound, phase 2 those
/// from the bound to the tile. A rare heap whose 32 partners straddle `partners.start` takes the
/// vector kernel for all of them, marking again the pairs below the range: every mark is the
/// value of a real option, so that is harmless, and cheaper than going row by row.
#[allow(clippy::too_many_arguments)]
fn mark_rare<T: Val>(
    lanes: &mut Rows<'_>,
    seq: &View<'_, T>,
    plan: &Plan,
    rp: &[u64],
    rv: &[u32],
    top: u64,
    partners: std::ops::Range<u64>,
) {
    let lanes_u = LANES as u64;
    let (lo, hi) = (partners.start, partners.end);
    for s in &plan.splits {
        let i = s.remove;
        // Rows k all have their partner m0 + k - r in [max(1, start), hi) when r is in
        // [first, last]; unequal moves also leave out r with 2r in [m0, m0 + LANES).
        let (mut fast_lo, mut fast_hi) = (0, 0); // index range in rp
        let mut twin = (0, 0);
        if top > i {
            let m0 = top - i;
            let first = (m0 + lanes_u).saturating_sub(hi).max(1);
            let floor = seq.start.max(1);
            if m0 >= floor + first {
                // Not those whose partners all lie below `lo` (m0 + 31 - r < lo).
                let last = (m0 - floor).min((m0 + lanes_u - 1).saturating_sub(lo));
                fast_lo = rp.partition_point(|&r| r < first);
                fast_hi = rp.partition_point(|&r| r <= last);
                if s.unequal {
                    let (t0, t1) = (m0.div_ceil(2), (m0 + lanes_u - 1) / 2);
                    let lo = rp.partition_point(|&r| r < t0).clamp(fast_lo, fast_hi);
                    let hi = rp.partition_point(|&r| r <= t1).clamp(fast_lo, fast_hi);
                    twin = (lo, hi);
                }
                if twin.0 >= twin.1 {
                    twin = (fast_hi, fast_hi);
                }
                let base = m0 - seq.start;
                for part in [fast_lo..twin.0, twin.1..fast_hi] {
                    let (r, v) = (&rp[part.clone()], &rv[part]);
                    lanes.lanes(seq.recent, base, r, v);
                }
            }
        }
        // The rest row by row: r with some partner in range (m0 - r < hi, m0 + 31 - r >= lo).
        let skip = rp.partition_point(|&r| r + i + hi <= top);
        let end = rp.partition_point(|&r| r + i + lo < top + lanes_u);
        let slow = (skip..fast_lo.min(end))
            .chain(twin.0..twin.1)
            .chain(fast_hi.max(skip)..end);
        for idx in slow {
            let (r, gr) = (rp[idx], rv[idx]);
            // Row k's partner top + k - i - r lies in [max(lo, 1), hi) for k in [k_lo, k_hi).
            let k_lo = (lo.max(1) + i + r).saturating_sub(top);
            let k_hi = (hi + i + r).saturating_sub(top).min(lanes_u);
            if k_lo >= k_hi {
                continue;
            }
            let first = top + k_lo - i - r;
            let count = (k_hi - k_lo) as usize;
            let mut mark = |k: u64, g: u32| {
                if !(s.unequal && top + k - i - r == r) {
                    lanes.set(k as usize, g ^ gr);
                }
            };
            match seq.slice(first, count) {
                Some(vals) => {
                    for (k, g) in (k_lo..).zip(vals) {
                        mark(k, g.get());
                    }
                }
                None => {
                    for k in k_lo..k_hi {
                        let g = seq
                            .get(top + k - i - r)
                            .expect("the window keeps the partners of rare heaps in memory");
                        mark(k, g);
                    }
                }
            }
        }
    }
}

/// Splits phase 1 marks whole tiles at a time before its confirming scans (see [`prescan`]).
const PRESCAN: u64 = 64;

/// Phase 1's first confirming splits, for rows of bits: for every splitting move, the pairs
/// (a, m - a) of every heap of the tile for each a of `firsts` (consecutive, values `vals`),
/// marked like the pairs of rare heaps, whole tiles at a time (their xors are the rare values a
/// scan looks for, and marks of real options). Returns false, marking nothing, unless every
/// move allows it: each a a smaller part (2a < m) and each partner in memory (below the tile's
/// bound, which the caller's choice of `firsts` ensures, and from the recent run's start on).
fn prescan<T: Val>(
    words: &mut [u64],
    seq: &View<'_, T>,
    plan: &Plan,
    top: u64,
    firsts: &[u64],
    vals: &[u32],
) -> bool {
    let Some(&hi) = firsts.last() else {
        return false;
    };
    let fits = |i: u64| {
        top.checked_sub(i)
            .is_some_and(|m0| m0 > 2 * hi + 1 && m0 >= seq.start + hi)
    };
    if !plan.splits.iter().all(|s| fits(s.remove)) {
        return false;
    }
    for s in &plan.splits {
        let m0 = top - s.remove;
        kernel::mark_bits(words, seq.recent, m0 - seq.start, firsts, vals);
    }
    true
}

/// The parity class of heap `n` (0 when parity is not used).
#[inline]
fn parity_class(plan: &Plan, n: u64) -> usize {
    match plan.split_parity {
        Some(q) => ((n + q) & 1) as usize,
        None => 0,
    }
}
