//! The rare/common engine proper, over one storage type.
//!
//! Heaps are computed in blocks of consecutive heaps. For heap n and a splitting move that leaves
//! `m = n - i` tokens, every common option value is `G(r) ^ G(m - r)` for some rare heap r.
//!
//! Phase 1 (parallel over tiles of [`LANES`] heaps) reads only values before the block. Each rare
//! r whose partner `m - r` lies before the block marks its value in every heap's row: partners of
//! consecutive heaps are consecutive, so two loads serve a tile ([`kernel::mark_lanes`]). Each heap
//! then takes the smallest unmarked common value c' and scans splits `a = j + 1, …` (j: its row;
//! their partners lie before the block) until every rare value below c' has been seen
//! ([`kernel::scan_pairs`]).
//!
//! Phase 2 (sequential, heap by heap) adds the pairs whose partner lies inside the block and the
//! few non-splitting options, and takes the smallest unmarked common value c. When every rare
//! value below c is marked, G(n) = c. Otherwise the scan continues: over `a = 1..=j`, then on from
//! where phase 1 stopped (or again from `j + 1` when c > c', since phase 1 looked only for values
//! below c'). If the scan runs out, G(n) is the smallest unseen rare value (a new rare heap).

use crate::kernel::{self, pack_bits, LANES};
use crate::mask::{best_mask, is_rare, key};
use crate::plan::Plan;
use crate::seq::{Seq, Val};

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
    /// Time spent in the parallel phase and the sequential phase (nanoseconds).
    pub phase1_ns: u64,
    pub phase2_ns: u64,
    /// Values fetched from durable chunks because the memory window had dropped them.
    pub gap_fetches: u64,
    /// Heaps whose in-block marks raised the candidate, so phase 2 scanned again.
    pub rescans: u64,
}

/// Engine state over values of type `T`.
#[derive(Clone, Debug)]
pub struct Core<T> {
    pub plan: Plan,
    pub seq: Seq<T>,
    /// Heaps per key (`G << 1 | parity`), length `2 * cap`.
    pub hist: Vec<u64>,
    pub mask: u64,
    /// Rare heaps (ascending, heap 0 excluded) and their values.
    pub rare_pos: Vec<u64>,
    pub rare_val: Vec<u32>,
    pub max_val: u32,
    pub max_first: u64,
    /// Values are below `cap` (a power of two, at least 64).
    pub cap: u32,
    pub stats: Stats,
    /// Bitsets over values `0..=cap`: rare values at parity class 0 and 1.
    rarebits: [Vec<u64>; 2],
    /// Per heap of the block (rows padded to a multiple of LANES), one byte per value: 1 when
    /// some option has that value.
    marks: Vec<u8>,
    /// Per heap of the block, what phase 1 found.
    early: Vec<Early>,
    need: Vec<u64>,
    row_bits: Vec<u64>,
    pub tuning: Tuning,
    /// The deepest position a successful (not full) confirming scan reached.
    pub scan_reach: u64,
}

/// Sizes that trade speed only (never results).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Heaps per block.
    pub block: usize,
    /// Heaps per parallel work item of phase 1 (rounded up to a multiple of [`LANES`]).
    pub tile: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            block: 256,
            tile: 64,
        }
    }
}

/// What phase 1 learnt about one heap of the block (row j).
#[derive(Clone, Copy, Debug, Default)]
struct Early {
    /// The smallest common value not marked in phase 1.
    c: u32,
    /// Splits `a = j + 1..=stop` were looked at for the rare values below `c`.
    stop: u64,
    /// Whether every rare value below `c` was seen by then.
    done: bool,
    /// Pairs looked at.
    steps: u64,
}

fn words_for(cap: u32) -> usize {
    cap as usize / 64 + 1
}

impl<T: Val> Core<T> {
    /// A fresh engine that knows nothing (G(0) is computed like any other heap).
    pub fn new(plan: Plan) -> Core<T> {
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
            marks: Vec::new(),
            early: Vec::new(),
            need: Vec::new(),
            row_bits: Vec::new(),
            tuning: Tuning::default(),
            scan_reach: 0,
        };
        core.refresh_rarebits();
        core
    }

    /// Rebuilds an engine from stored values (resume): histogram, maximum and rare heaps.
    pub fn from_values(
        plan: Plan,
        seq: Seq<T>,
        mask: u64,
        values: impl Iterator<Item = u32>,
    ) -> Core<T> {
        let mut core = Core::new(plan);
        core.seq = seq;
        let mut max_val = 0;
        let mut max_first = 0;
        let mut hist: Vec<u64> = vec![0; 128];
        for (n, v) in values.enumerate() {
            if v > max_val {
                max_val = v;
                max_first = n as u64;
            }
            let k = key(v, n as u64, core.plan.split_parity) as usize;
            if k >= hist.len() {
                hist.resize((k + 1).next_power_of_two(), 0);
            }
            hist[k] += 1;
        }
        core.max_val = max_val;
        core.max_first = max_first;
        core.cap = (max_val + 1).next_power_of_two().max(64);
        hist.resize(hist.len().max(2 * core.cap as usize), 0);
        core.hist = hist;
        core.mask = mask;
        core.refresh_rarebits();
        core
    }

    /// The same state over another storage type (u16 to u32 when values grow).
    pub fn convert<U: Val>(&self) -> Core<U> {
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
    pub fn rebuild_rare(&mut self, values: impl Iterator<Item = u32>) {
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
    pub fn rebuild_rare_from_seq(&mut self) {
        let recent = std::mem::take(&mut self.seq.recent);
        self.rebuild_rare(recent.iter().map(|v| v.get()));
        self.seq.recent = recent;
    }

    #[inline]
    fn parity_class(&self, n: u64) -> usize {
        parity_class(&self.plan, n)
    }

    /// Re-scores every mask; returns true when a clearly better one was adopted (the caller then
    /// rebuilds the rare list from all values).
    pub fn reconsider_mask(&mut self) -> bool {
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

    /// Computes up to `count` more heaps (fewer when a block ends early); returns how many.
    /// `gap` fetches values that are in neither the prefix nor the recent run (windowed mode;
    /// while every value is in memory it is never called).
    pub fn block(
        &mut self,
        count: usize,
        crew: Option<&crate::crew::Crew>,
        gap: &mut dyn FnMut(u64) -> u32,
    ) -> usize {
        let n0 = self.seq.len();
        let b = count.min(self.tuning.block).max(1);
        let words = words_for(self.cap);
        let width = words * 64;
        let padded = b.div_ceil(LANES) * LANES;
        self.marks.clear();
        self.marks.resize(padded * width, 0);
        self.early.clear();
        self.early.resize(b, Early::default());
        let hi0 = self.rare_pos.len();

        // Phase 1: only values before the block are read.
        let clock = std::time::Instant::now();
        {
            let seq = &self.seq;
            let plan = &self.plan;
            let (rp, rv) = (&self.rare_pos[..hi0], &self.rare_val[..hi0]);
            let cap = self.cap;
            let rarebits = &self.rarebits;
            let tile_rows = self.tuning.tile.div_ceil(LANES).max(1) * LANES;
            let work = |(t, (tile, early)): (usize, (&mut [u8], &mut [Early]))| {
                let mut bits = Vec::new();
                let mut need = Vec::new();
                let tiles = tile.chunks_mut(LANES * width).zip(early.chunks_mut(LANES));
                for (s, (lanes, early)) in tiles.enumerate() {
                    let j0 = (t * tile_rows + s * LANES) as u64;
                    mark_rare(lanes, width, cap, seq, plan, rp, rv, n0, j0);
                    for (k, (row, e)) in lanes.chunks_exact_mut(width).zip(early).enumerate() {
                        let j = j0 + k as u64;
                        let pc = parity_class(plan, n0 + j);
                        let (c, missing) = candidate(row, &mut bits, &rarebits[pc], &mut need);
                        let mut found = Scan {
                            done: missing == 0,
                            stop: j,
                            steps: 0,
                        };
                        if missing > 0 {
                            found = scan_memory(seq, plan, cap, n0 + j, j + 1, &mut need, row);
                        }
                        *e = Early {
                            c,
                            stop: found.stop,
                            done: found.done,
                            steps: found.steps,
                        };
                    }
                }
            };
            let items = self
                .marks
                .chunks_mut(tile_rows * width)
                .zip(self.early.chunks_mut(tile_rows));
            match crew {
                Some(crew) if b > tile_rows => {
                    let items: Vec<_> = items.map(std::sync::Mutex::new).collect();
                    crew.run(items.len(), &|t| {
                        let mut item = items[t].lock().unwrap_or_else(|e| e.into_inner());
                        let (tile, early) = &mut *item;
                        work((t, (&mut **tile, &mut **early)));
                    });
                }
                _ => items.enumerate().for_each(work),
            }
        }

        // Phase 2: heap by heap.
        let clock2 = std::time::Instant::now();
        self.stats.phase1_ns += (clock2 - clock).as_nanos() as u64;
        let mut done = 0;
        while done < b {
            let n = n0 + done as u64;
            let g = self.finish_heap(n, done, words, hi0, gap);
            self.seq.push(g);
            let k = key(g, n, self.plan.split_parity);
            if k as usize >= self.hist.len() {
                self.hist.resize((k as usize + 1).next_power_of_two(), 0);
            }
            self.hist[k as usize] += 1;
            if n > 0 && is_rare(k, self.mask) {
                self.rare_pos.push(n);
                self.rare_val.push(g);
            }
            done += 1;
            if g > self.max_val {
                self.max_val = g;
                self.max_first = n;
                if g >= self.cap {
                    self.grow_cap();
                    break;
                }
            }
        }
        self.stats.phase2_ns += clock2.elapsed().as_nanos() as u64;
        done
    }

    /// Phase 2 for heap `n` (row `j` of the block): completes its marks and finds G(n).
    fn finish_heap(
        &mut self,
        n: u64,
        j: usize,
        words: usize,
        hi0: usize,
        gap: &mut dyn FnMut(u64) -> u32,
    ) -> u32 {
        let width = words * 64;
        let early = self.early[j];
        let pc = self.parity_class(n);
        self.stats.scan_steps += early.steps;
        let row = &mut self.marks[j * width..(j + 1) * width];
        let seq = &self.seq;
        let get = |i: u64, gap: &mut dyn FnMut(u64) -> u32| seq.get(i).unwrap_or_else(|| gap(i));
        let mut set = |v: u32| row[v as usize] = 1;
        for &i in &self.plan.leave_none {
            if n == i {
                set(0);
            }
        }
        for &i in &self.plan.leave_one {
            if n > i {
                set(get(n - i, gap));
            }
        }
        for &i in &self.plan.equal_split {
            if n >= i + 2 && (n - i).is_multiple_of(2) {
                set(0);
            }
        }
        // Pairs whose partner is inside the block: rare heaps r <= j - i, and heaps that became
        // rare inside the block.
        for s in &self.plan.splits {
            if n < s.remove + 2 {
                continue;
            }
            let m = n - s.remove;
            let limit = (j as u64).saturating_sub(s.remove);
            // Rare heaps are sparse: a short walk from the start beats a binary search.
            let small = self.rare_pos[..hi0]
                .iter()
                .position(|&r| r > limit)
                .unwrap_or(hi0);
            // Partners m - r >= n0 are in the recent run (the block is).
            let recent = &seq.recent[..];
            let base = m - seq.start;
            for (&r, &gr) in self.rare_pos[..small].iter().zip(&self.rare_val[..small]) {
                if s.unequal && 2 * r == m {
                    continue;
                }
                set(gr ^ recent[(base - r) as usize].get());
            }
            for idx in hi0..self.rare_pos.len() {
                let r = self.rare_pos[idx];
                if r >= m || (s.unequal && 2 * r == m) {
                    continue;
                }
                set(self.rare_val[idx] ^ get(m - r, gap));
            }
        }
        let (c, missing) = candidate(row, &mut self.row_bits, &self.rarebits[pc], &mut self.need);
        if missing == 0 {
            if early.done {
                self.scan_reach = self.scan_reach.max(early.stop);
            }
            return c;
        }
        // Confirm c: splits a = 1..=j (partners in the block), then on from where phase 1
        // stopped, or from j + 1 again when phase 1 looked for fewer values (c' < c).
        let j = j as u64;
        let mut steps = 0;
        let mut scan = scan_get(seq, &self.plan, n, 1, j, &mut self.need, row, gap);
        steps += scan.steps;
        if !scan.done {
            let from = if c == early.c {
                early.stop + 1
            } else {
                self.stats.rescans += 1;
                j + 1
            };
            scan = scan_memory(seq, &self.plan, self.cap, n, from, &mut self.need, row);
            steps += scan.steps;
            if !scan.done {
                let amax = self.plan.max_split_part(n);
                let rest = scan_get(
                    seq,
                    &self.plan,
                    n,
                    scan.stop + 1,
                    amax,
                    &mut self.need,
                    row,
                    gap,
                );
                steps += rest.steps;
                scan = rest;
            }
        }
        self.stats.scan_steps += steps;
        if scan.done {
            self.scan_reach = self.scan_reach.max(scan.stop);
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
}

/// How far a confirming scan got.
#[derive(Clone, Copy, Debug)]
struct Scan {
    /// Every needed value was seen.
    done: bool,
    /// The last split position looked at (for every splitting move).
    stop: u64,
    /// Pairs looked at.
    steps: u64,
}

/// From a row of marks: the smallest value that is neither marked nor rare (c), and in `need`
/// the rare values below c not marked; returns (c, how many those are).
fn candidate(row: &[u8], bits: &mut Vec<u64>, rare: &[u64], need: &mut Vec<u64>) -> (u32, u32) {
    let marked = pack_bits(row, bits);
    let mut c = u32::MAX;
    for (w, (&mk, &r)) in marked.iter().zip(rare).enumerate() {
        let free = !(mk | r);
        if free != 0 {
            c = w as u32 * 64 + free.trailing_zeros();
            break;
        }
    }
    debug_assert!(
        c != u32::MAX,
        "bits above `cap` are neither marked nor rare"
    );
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
        missing += x.count_ones();
        need.push(x);
    }
    (c, missing)
}

/// Positions scanned per splitting move before the next move takes its turn.
const SCAN_CHUNK: u64 = 4096;

/// The confirming scan of heap `n` over splits `a = from..` as far as the values are in memory
/// (all of them in full mode): clears seen values from `need` and marks them in `row`.
fn scan_memory<T: Val>(
    seq: &Seq<T>,
    plan: &Plan,
    cap: u32,
    n: u64,
    from: u64,
    need: &mut [u64],
    row: &mut [u8],
) -> Scan {
    let amax = plan.max_split_part(n);
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
            let (Some(firsts), Some(seconds)) =
                (mem_slice(seq, a, count), mem_slice(seq, m - hi, count))
            else {
                return Scan {
                    done: false,
                    stop: a - 1,
                    steps,
                };
            };
            match kernel::scan_pairs(firsts, seconds, cap, need, row) {
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

/// The confirming scan over splits `a = from..=to`, one value at a time, fetching dropped
/// values through `gap`.
#[allow(clippy::too_many_arguments)]
fn scan_get<T: Val>(
    seq: &Seq<T>,
    plan: &Plan,
    n: u64,
    from: u64,
    to: u64,
    need: &mut [u64],
    row: &mut [u8],
    gap: &mut dyn FnMut(u64) -> u32,
) -> Scan {
    let get = |i: u64, gap: &mut dyn FnMut(u64) -> u32| seq.get(i).unwrap_or_else(|| gap(i));
    let mut missing: u32 = need.iter().map(|w| w.count_ones()).sum();
    let mut steps = 0;
    let to = to.min(plan.max_split_part(n));
    for a in from..=to {
        if missing == 0 {
            break;
        }
        let ga = get(a, gap);
        for s in &plan.splits {
            let Some((m, hi)) = split_range(s, n) else {
                continue;
            };
            if a > hi {
                continue;
            }
            steps += 1;
            let v = (ga ^ get(m - a, gap)) as usize;
            let Some(word) = need.get_mut(v / 64) else {
                continue;
            };
            if *word >> (v % 64) & 1 == 1 {
                *word &= !(1u64 << (v % 64));
                row[v] = 1;
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

/// Phase 1's marks for rows `j0..j0 + LANES` of the block starting at heap `n0`: every rare heap
/// r (of `rp`, values `rv`) whose partner `m - r` lies before the block.
#[allow(clippy::too_many_arguments)]
fn mark_rare<T: Val>(
    lanes: &mut [u8],
    width: usize,
    cap: u32,
    seq: &Seq<T>,
    plan: &Plan,
    rp: &[u64],
    rv: &[u32],
    n0: u64,
    j0: u64,
) {
    let lanes_u = LANES as u64;
    for s in &plan.splits {
        let i = s.remove;
        let top = n0 + j0; // heap of row 0
                           // Rows k all have their partner m0 + k - r in [max(1, start), n0) when r is in
                           // [first, last]; unequal moves also leave out r with 2r in [m0, m0 + LANES).
        let (mut fast_lo, mut fast_hi) = (0, 0); // index range in rp
        let mut twin = (0, 0);
        if top > i {
            let m0 = top - i;
            let first = (j0 + lanes_u).saturating_sub(i).max(1);
            let floor = seq.start.max(1);
            if m0 >= floor + first {
                let last = m0 - floor;
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
                kernel::mark_lanes(
                    lanes,
                    width,
                    cap,
                    &seq.recent,
                    base,
                    &rp[fast_lo..twin.0],
                    &rv[fast_lo..twin.0],
                );
                kernel::mark_lanes(
                    lanes,
                    width,
                    cap,
                    &seq.recent,
                    base,
                    &rp[twin.1..fast_hi],
                    &rv[twin.1..fast_hi],
                );
            }
        }
        // The rest row by row, leaving out r <= j0 - i (every partner inside the block).
        let skip = rp.partition_point(|&r| r + i <= j0);
        let slow = (skip..fast_lo)
            .chain(twin.0..twin.1)
            .chain(fast_hi.max(skip)..rp.len());
        for idx in slow {
            let (r, gr) = (rp[idx], rv[idx]);
            for k in 0..lanes_u {
                let n = n0 + j0 + k;
                if n < i + 2 {
                    continue;
                }
                let m = n - i;
                if r >= m || m - r >= n0 || (s.unequal && 2 * r == m) {
                    continue;
                }
                let g = seq
                    .get(m - r)
                    .expect("the window keeps the partners of rare heaps in memory");
                lanes[k as usize * width + (g ^ gr) as usize] = 1;
            }
        }
    }
}

/// The parity class of heap `n` (0 when parity is not used).
#[inline]
fn parity_class(plan: &Plan, n: u64) -> usize {
    match plan.split_parity {
        Some(q) => ((n + q) & 1) as usize,
        None => 0,
    }
}

/// G(from..from+len) as one in-memory slice (of the prefix or the recent run), if it is one.
#[inline]
fn mem_slice<T: Val>(seq: &Seq<T>, from: u64, len: usize) -> Option<&[T]> {
    if from >= seq.start {
        let at = usize::try_from(from - seq.start).ok()?;
        seq.recent.get(at..at.checked_add(len)?)
    } else {
        let at = from as usize;
        seq.prefix.get(at..at.checked_add(len)?)
    }
}
