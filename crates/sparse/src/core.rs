//! The rare/common engine proper, over one storage type.
//!
//! Heaps are computed in blocks of consecutive heaps. For heap n and a splitting move that leaves
//! `m = n - i` tokens, every common option value is `G(r) ^ G(m - r)` for some rare heap r. In
//! phase 1 (parallel, vectorisable) each rare r whose partner `m - r` lies before the block marks
//! its value for every heap of the block: the partners of consecutive heaps are consecutive, so
//! the loads are contiguous. Phase 2 (sequential, heap by heap) adds the pairs whose partner lies
//! inside the block, the few non-splitting options, picks the smallest unmarked common value c and
//! confirms it by scanning splits `a = 1, 2, …` until every rare value below c has been seen; if
//! the scan runs out, G(n) is the smallest unseen rare value (a new rare heap).

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
    /// Per heap of the block, one byte per value: 1 when some option has that value.
    marks: Vec<u8>,
    need: Vec<u64>,
    /// The non-rare scan positions among 1..=A and their values, marked in phase 1 like rare heaps.
    scan_pos: Vec<u64>,
    scan_val: Vec<u32>,
    /// (A, rare heaps, mask) the scan list was built for.
    scan_key: (u64, usize, u64),
    row_bits: Vec<u64>,
    need_bytes: Vec<u8>,
    /// Per heap of the block: the last scan position phase 1 covered.
    stops: Vec<u64>,
    pub tuning: Tuning,
    /// The deepest position a successful (not full) confirming scan reached.
    pub scan_reach: u64,
}

/// Sizes that trade speed only (never results).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Heaps per block.
    pub block: usize,
    /// Heaps per parallel tile of phase 1.
    pub tile: usize,
    /// Scan positions marked in bulk in phase 1 (A).
    pub scan_prefix: usize,
    /// Let the engine move A between 256 and 8192 after each block, from how far the scans
    /// had to go (speed only: every heap's scan is complete whatever A is).
    pub adaptive: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            block: 128,
            tile: 64,
            scan_prefix: 2048,
            adaptive: true,
        }
    }
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
            need: Vec::new(),
            scan_pos: Vec::new(),
            scan_val: Vec::new(),
            scan_key: (u64::MAX, 0, 0),
            row_bits: Vec::new(),
            need_bytes: Vec::new(),
            stops: Vec::new(),
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
    /// `gap` fetches values that are in neither the prefix nor the recent run (a future windowed
    /// mode; while every value is in memory it is never called).
    pub fn block(
        &mut self,
        count: usize,
        pool: Option<&rayon::ThreadPool>,
        gap: &mut dyn FnMut(u64) -> u32,
    ) -> usize {
        let n0 = self.seq.len();
        let b = count.min(self.tuning.block);
        let words = words_for(self.cap);
        let width = words * 64;
        self.marks.clear();
        self.marks.resize(b * width, 0);
        let hi0 = self.rare_pos.partition_point(|&r| r < n0);
        // Scan positions 1..=A (partners of the first confirming steps), known before the block.
        // Rare ones are left out: the rare list marks them already.
        let a_len = (self.tuning.scan_prefix as u64).min(n0.saturating_sub(1));
        let wanted = (a_len, self.rare_pos.len(), self.mask);
        if self.scan_key != wanted {
            self.scan_key = wanted;
            self.scan_pos.clear();
            self.scan_val.clear();
            let mut rare = self.rare_pos.iter().peekable();
            for a in 1..=a_len {
                while rare.next_if(|&&r| r < a).is_some() {}
                if rare.peek() == Some(&&a) {
                    continue;
                }
                self.scan_pos.push(a);
                self.scan_val
                    .push(self.seq.get(a).unwrap_or_else(|| gap(a)));
            }
        }
        let scan_len = self.scan_pos.len();
        let a_len = a_len as usize;

        // Phase 1: rare heaps and the first scan positions whose partner lies before the block.
        let clock = std::time::Instant::now();
        {
            let marks = &mut self.marks;
            let seq = &self.seq;
            let plan = &self.plan;
            let lists = [
                (&self.rare_pos[..hi0], &self.rare_val[..hi0]),
                (&self.scan_pos[..scan_len], &self.scan_val[..scan_len]),
            ];
            let tile_rows = self.tuning.tile;
            let cap = self.cap;
            let rarebits = &self.rarebits;
            // Partners of positions past A lie before the block; windowed, tail_scan stops where
            // a value is not in memory and phase 2 continues from there.
            let tail_ok = a_len as u64 >= b as u64 + plan.max_removal();
            let work = |(t, (tile, stops)): (usize, (&mut [u8], &mut [u64]))| {
                let t0 = t * tile_rows;
                let rows = tile.len() / width;
                for (rp, rv) in lists {
                    mark_tile(tile, width, cap, seq, plan, rp, rv, n0, t0, rows);
                }
                let mut bits = Vec::new();
                for (r, (row, stop)) in tile
                    .chunks_exact_mut(width)
                    .zip(stops.iter_mut())
                    .enumerate()
                {
                    *stop = a_len as u64;
                    if tail_ok {
                        let n = n0 + (t0 + r) as u64;
                        let pc = parity_class(plan, n);
                        *stop =
                            tail_scan(row, &mut bits, &rarebits[pc], seq, plan, n, a_len as u64);
                    }
                }
            };
            let stops = &mut self.stops;
            stops.clear();
            stops.resize(b, 0);
            match pool {
                Some(pool) if b >= 2 * tile_rows => pool.install(|| {
                    use rayon::prelude::*;
                    marks
                        .par_chunks_mut(tile_rows * width)
                        .zip(stops.par_chunks_mut(tile_rows))
                        .enumerate()
                        .for_each(work);
                }),
                _ => marks
                    .chunks_mut(tile_rows * width)
                    .zip(stops.chunks_mut(tile_rows))
                    .enumerate()
                    .for_each(work),
            }
        }

        // Phase 2: heap by heap.
        let steps_before = self.stats.scan_steps;
        let clock2 = std::time::Instant::now();
        self.stats.phase1_ns += (clock2 - clock).as_nanos() as u64;
        let mut done = 0;
        while done < b {
            let n = n0 + done as u64;
            let stop = self.stops[done];
            let g = self.finish_heap(n, done, words, hi0, a_len as u64, stop, gap);
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
        if self.tuning.adaptive && done >= 64 {
            let heaps = done as u64;
            let sequential = self.stats.scan_steps - steps_before;
            let unused = self.stops[..done]
                .iter()
                .filter(|&&s| s == a_len as u64)
                .count();
            let a = &mut self.tuning.scan_prefix;
            if sequential > heaps * 128 && *a < 8192 {
                *a *= 2;
            } else if unused * 10 > done * 9 && sequential < heaps * 8 && *a > 256 {
                *a /= 2;
            }
        }
        done
    }

    /// Phase 2 for heap `n` (row `j` of the block): completes its marks and finds G(n).
    /// Phase 1 covered scan positions `1..=a_len` and rare heaps below the block whose partner
    /// lies before the block.
    #[allow(clippy::too_many_arguments)]
    fn finish_heap(
        &mut self,
        n: u64,
        j: usize,
        words: usize,
        hi0: usize,
        a_len: u64,
        scanned: u64,
        gap: &mut dyn FnMut(u64) -> u32,
    ) -> u32 {
        let width = words * 64;
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
        // Pairs whose partner is inside the block: rare heaps r <= j - i (and heaps that became
        // rare inside the block), scan positions a <= j - i.
        for s in &self.plan.splits {
            if n < s.remove + 2 {
                continue;
            }
            let m = n - s.remove;
            let limit = (j as u64).saturating_sub(s.remove);
            let small = self.rare_pos[..hi0].partition_point(|&r| r <= limit);
            for idx in (0..small).chain(hi0..self.rare_pos.len()) {
                let r = self.rare_pos[idx];
                if r >= m || (s.unequal && 2 * r == m) {
                    continue;
                }
                set(self.rare_val[idx] ^ get(m - r, gap));
            }
            let k = limit.min(a_len).min(m - 1);
            let upto = self.scan_pos.partition_point(|&a| a <= k);
            for (&a, &ga) in self.scan_pos[..upto].iter().zip(&self.scan_val[..upto]) {
                if s.unequal && 2 * a == m {
                    continue;
                }
                set(ga ^ get(m - a, gap));
            }
        }
        let pc = self.parity_class(n);
        let row = pack_bits(&self.marks[j * width..(j + 1) * width], &mut self.row_bits);
        let rb = &self.rarebits[pc];
        // c: smallest value neither marked nor rare.
        let mut c = u32::MAX;
        for (w, (&mk, &r)) in row.iter().zip(rb.iter()).enumerate() {
            let free = !(mk | r);
            if free != 0 {
                c = w as u32 * 64 + free.trailing_zeros();
                break;
            }
        }
        debug_assert!(
            c <= self.cap + 1,
            "bits above `cap` are neither marked nor rare"
        );
        // Rare values below c not yet seen.
        let need = &mut self.need;
        need.clear();
        let mut missing = 0u32;
        for (w, (&mk, &r)) in row.iter().zip(rb.iter()).enumerate() {
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
        if missing == 0 {
            return c;
        }
        // Confirm c: continue the scan of splits past the positions phase 1 covered.
        let amax = self.plan.max_split_part(n);
        let mut steps = 0u64;
        if let ([sp], true) = (&self.plan.splits[..], seq_is_full(&self.seq)) {
            // One splitting move, every value in memory: a tight loop over two slices.
            let m = n.saturating_sub(sp.remove);
            let mut hi = m / 2;
            if sp.unequal && m.is_multiple_of(2) && hi > 0 {
                hi -= 1;
            }
            let need_bytes = &mut self.need_bytes;
            need_bytes.clear();
            need_bytes.resize(width, 0);
            for (w, &x) in need.iter().enumerate() {
                let mut x = x;
                while x != 0 {
                    need_bytes[w * 64 + x.trailing_zeros() as usize] = 1;
                    x &= x - 1;
                }
            }
            if hi > scanned {
                let g = &self.seq.recent;
                let firsts = &g[scanned as usize + 1..=hi as usize];
                let seconds = &g[(m - hi) as usize..(m - scanned) as usize];
                for (&x, &y) in firsts.iter().zip(seconds.iter().rev()) {
                    steps += 1;
                    let v = (x.get() ^ y.get()) as usize;
                    // v < cap <= width: values and their xor stay below cap.
                    if need_bytes[v] != 0 {
                        need_bytes[v] = 0;
                        missing -= 1;
                        if missing == 0 {
                            break;
                        }
                    }
                }
            }
            self.stats.scan_steps += steps;
            if missing == 0 {
                self.scan_reach = self.scan_reach.max(scanned + steps);
                return c;
            }
            self.stats.full_scans += 1;
            self.stats.full_scan_steps += steps;
            let first = need_bytes
                .iter()
                .position(|&b| b != 0)
                .expect("missing > 0");
            return first as u32;
        }
        'scan: for a in scanned + 1..=amax {
            let ga = get(a, gap);
            for s in &self.plan.splits {
                if n < s.remove + 2 * a {
                    continue;
                }
                let m = n - s.remove;
                if s.unequal && 2 * a == m {
                    continue;
                }
                steps += 1;
                let v = ga ^ get(m - a, gap);
                if v < c {
                    let bit = 1u64 << (v % 64);
                    let word = &mut need[v as usize / 64];
                    if *word & bit != 0 {
                        *word &= !bit;
                        missing -= 1;
                        if missing == 0 {
                            self.scan_reach = self.scan_reach.max(a);
                            break 'scan;
                        }
                    }
                }
            }
        }
        self.stats.scan_steps += steps;
        if missing == 0 {
            return c;
        }
        self.stats.full_scans += 1;
        self.stats.full_scan_steps += steps;
        for (w, &x) in need.iter().enumerate() {
            if x != 0 {
                return w as u32 * 64 + x.trailing_zeros();
            }
        }
        unreachable!("missing > 0 means a bit is set")
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

/// Phase 1's share of the confirming scan for heap `n` (full mode, partners before the block):
/// from the marks so far, takes the smallest unmarked common value c and scans splits
/// `a = from + 1, …`, marking every value seen, until every rare value below c is marked.
/// Phase 2 recomputes c with the marks of in-block partners and continues if needed.
/// Returns the last position scanned.
fn tail_scan<T: Val>(
    row: &mut [u8],
    bits: &mut Vec<u64>,
    rare: &[u64],
    seq: &Seq<T>,
    plan: &Plan,
    n: u64,
    from: u64,
) -> u64 {
    let marked = pack_bits(row, bits);
    let mut c = u32::MAX;
    for (w, (&mk, &r)) in marked.iter().zip(rare).enumerate() {
        let free = !(mk | r);
        if free != 0 {
            c = w as u32 * 64 + free.trailing_zeros();
            break;
        }
    }
    let mut missing = 0u32;
    for (w, (&mk, &r)) in marked.iter().zip(rare).enumerate() {
        let lo = w as u32 * 64;
        if c <= lo {
            break;
        }
        let below = if c >= lo + 64 {
            !0u64
        } else {
            (1u64 << (c - lo)) - 1
        };
        missing += (r & !mk & below).count_ones();
    }
    if missing == 0 {
        return from;
    }
    let is_needed =
        |v: usize, row: &[u8]| v < c as usize && row[v] == 0 && rare[v / 64] >> (v % 64) & 1 == 1;
    if let [sp] = plan.splits[..] {
        let m = n - sp.remove;
        let mut hi = m / 2;
        if sp.unequal && m.is_multiple_of(2) && hi > 0 {
            hi -= 1;
        }
        if hi <= from {
            return from;
        }
        // Windowed: scan only as far as both runs are in memory (the prefix holds the firsts).
        if !seq_is_full(seq) {
            let both = |hi: u64| {
                let count = (hi - from) as usize;
                mem_slice(seq, from + 1, count).is_some() && mem_slice(seq, m - hi, count).is_some()
            };
            if !both(hi) {
                hi = hi.min((seq.prefix.len() as u64).saturating_sub(1));
                if hi <= from || !both(hi) {
                    return from;
                }
            }
        }
        // Pairs (a, m - a) for a = from+1..=hi: G(a) ascending, G(m - a) descending.
        let count = (hi - from) as usize;
        let firsts = mem_slice(seq, from + 1, count).expect("checked above");
        let seconds = mem_slice(seq, m - hi, count).expect("checked above");
        let width = row.len();
        for k in 0..count {
            let x = firsts[k].get();
            let y = seconds[count - 1 - k].get();
            let v = (x ^ y) as usize;
            debug_assert!(v < width);
            // SAFETY: values are below cap and cap < width = row.len().
            let seen = unsafe { *row.get_unchecked(v) };
            if seen == 0 {
                if is_needed(v, row) {
                    missing -= 1;
                }
                row[v] = 1;
                if missing == 0 {
                    return from + 1 + k as u64;
                }
            }
        }
        return hi;
    }
    let amax = plan.max_split_part(n);
    for a in from + 1..=amax {
        let Some(ga) = seq.get(a) else {
            return a - 1;
        };
        for s in &plan.splits {
            if n < s.remove + 2 * a {
                continue;
            }
            let m = n - s.remove;
            if s.unequal && 2 * a == m {
                continue;
            }
            // Windowed: a partner not in memory ends phase 1's share (extra marks are options).
            let Some(gb) = seq.get(m - a) else {
                return a - 1;
            };
            let v = (ga ^ gb) as usize;
            if row[v] == 0 {
                if is_needed(v, row) {
                    missing -= 1;
                }
                row[v] = 1;
            }
        }
        if missing == 0 {
            return a;
        }
    }
    amax.max(from)
}

/// How many positions ahead phase 1 prefetches partners.
const PREFETCH_AHEAD: usize = 8;

/// Hints the processor to load the cache lines at `p` (a no-op off x86-64).
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(p as *const i8, _MM_HINT_T0);
        _mm_prefetch(p.wrapping_add(64) as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// True when every value is in the recent run (full mode).
fn seq_is_full<T: Val>(seq: &Seq<T>) -> bool {
    seq.start == 0 && seq.prefix.is_empty()
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

/// Packs a row of 0/1 bytes (length a multiple of 64) into bits.
fn pack_bits<'a>(bytes: &[u8], out: &'a mut Vec<u64>) -> &'a [u64] {
    out.clear();
    for chunk in bytes.chunks_exact(64) {
        let mut word = 0u64;
        for (k, eight) in chunk.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
            // Each byte is 0 or 1: gather bit 0 of every byte into the top byte.
            let packed = (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) & 0xff;
            word |= packed << (8 * k);
        }
        out.push(word);
    }
    out
}

/// Phase 1 for rows `t0..t0+rows` of the block starting at heap `n0`: marks `G(r) ^ G(m - r)` for
/// every position r (of `rp`, values `rv`) whose partner `m - r` lies before the block.
/// `tile` holds `width` bytes per row; every value and every `rv` is below `cap <= width`.
#[allow(clippy::too_many_arguments)]
fn mark_tile<T: Val>(
    tile: &mut [u8],
    width: usize,
    cap: u32,
    seq: &Seq<T>,
    plan: &Plan,
    rp: &[u64],
    rv: &[u32],
    n0: u64,
    t0: usize,
    rows: usize,
) {
    assert!(cap as usize <= width && tile.len() >= rows * width);
    let t0u = t0 as u64;
    for s in &plan.splits {
        let i = s.remove;
        for (idx, (&r, &gr)) in rp.iter().zip(rv).enumerate() {
            // Fetch the partners of a rare heap a few iterations ahead (they are scattered).
            if let Some(&ahead) = rp.get(idx + PREFETCH_AHEAD) {
                let at = (n0 + t0u).saturating_sub(i + ahead);
                if at >= seq.start && at < seq.len() {
                    prefetch(seq.recent_slice(at, 1).as_ptr() as *const u8);
                }
            }
            // Row j (block index) has partner n0 + j - i - r: need 1 <= partner < n0.
            let lo = (r + 1 + i).saturating_sub(n0).max(t0u);
            let hi = (r + i).min(t0u + rows as u64);
            if lo >= hi {
                continue;
            }
            debug_assert!(gr < cap);
            let skip = if s.unequal && 2 * r + i >= n0 {
                Some(2 * r + i - n0)
            } else {
                None
            };
            let mut run = |from: u64, to: u64| {
                if from >= to {
                    return;
                }
                let vals = seq.recent_slice(n0 + from - i - r, (to - from) as usize);
                let first = (from - t0u) as usize * width;
                let rows_out = &mut tile[first..first + vals.len() * width];
                let ptr = rows_out.as_mut_ptr();
                for (k, &x) in vals.iter().enumerate() {
                    let v = (x.get() ^ gr) as usize;
                    debug_assert!(v < width);
                    // SAFETY: k < vals.len() and v < cap <= width (values and gr are below cap,
                    // a power of two, so their xor is too), so the byte is inside `rows_out`.
                    unsafe { *ptr.add(k * width + v) = 1 };
                }
            };
            match skip {
                Some(e) if e >= lo && e < hi => {
                    run(lo, e);
                    run(e + 1, hi);
                }
                _ => run(lo, hi),
            }
        }
    }
}
