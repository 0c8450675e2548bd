//! The public engine: a [`Core`] over u16 values that switches to u32 when a value needs it,
//! plus mask management, threads and progress.

use grundy_heap::TakeBreak;

use crate::core::{Core, Stats};
use crate::error::Error;
use crate::plan::Plan;
use crate::seq::{Seq, Val};

enum Inner {
    Narrow(Core<u16>),
    Wide(Core<u32>),
}

macro_rules! with_core {
    ($self:expr, $c:ident => $body:expr) => {
        match &$self.inner {
            Inner::Narrow($c) => $body,
            Inner::Wide($c) => $body,
        }
    };
}
macro_rules! with_core_mut {
    ($self:expr, $c:ident => $body:expr) => {
        match &mut $self.inner {
            Inner::Narrow($c) => $body,
            Inner::Wide($c) => $body,
        }
    };
}

/// The rare/common engine for one take-and-break code, holding G(0..len()).
pub struct Engine {
    code: TakeBreak,
    inner: Inner,
    pool: Option<rayon::ThreadPool>,
    rare_seen: usize,
    blocks_since_mask: u32,
}

impl Engine {
    /// An engine for `code`, or [`Error::Unsupported`] when the method does not apply.
    pub fn new(code: &TakeBreak) -> Result<Engine, Error> {
        let plan = Plan::new(code)?;
        Ok(Engine {
            code: code.clone(),
            inner: Inner::Narrow(Core::new(plan)),
            pool: None,
            rare_seen: 0,
            blocks_since_mask: 0,
        })
    }

    /// Uses `threads` worker threads for the parallel phase (1: none; 0: one per core).
    pub fn with_threads(mut self, threads: usize) -> Engine {
        let threads = if threads == 0 {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        } else {
            threads
        };
        self.pool = if threads > 1 {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        } else {
            None
        };
        self
    }

    /// Changes block, tile and scan sizes (speed only; results never depend on them).
    pub fn with_tuning(mut self, tuning: crate::core::Tuning) -> Engine {
        with_core_mut!(self, c => c.tuning = tuning);
        self
    }

    /// Rebuilds an engine from stored values G(0..values.len()) and the mask in use (resume).
    pub fn from_values(code: &TakeBreak, values: &[u32], mask: u64) -> Result<Engine, Error> {
        let plan = Plan::new(code)?;
        let max = values.iter().copied().max().unwrap_or(0);
        let inner = if max < 32768 {
            let seq = Seq {
                prefix: Vec::new(),
                recent: values.iter().map(|&v| v as u16).collect(),
                start: 0,
            };
            let mut c = Core::<u16>::from_values(plan, seq, mask, values.iter().copied());
            c.rebuild_rare(values.iter().copied());
            Inner::Narrow(c)
        } else {
            let seq = Seq {
                prefix: Vec::new(),
                recent: values.to_vec(),
                start: 0,
            };
            let mut c = Core::<u32>::from_values(plan, seq, mask, values.iter().copied());
            c.rebuild_rare(values.iter().copied());
            Inner::Wide(c)
        };
        let mut e = Engine {
            code: code.clone(),
            inner,
            pool: None,
            rare_seen: 0,
            blocks_since_mask: 0,
        };
        e.rare_seen = e.rare_count();
        Ok(e)
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

    /// G(n), when computed (and in memory).
    pub fn value(&self, n: u64) -> Option<u32> {
        with_core!(self, c => c.seq.get(n))
    }

    /// The current key mask (see [`crate::mask`]).
    pub fn mask(&self) -> u64 {
        with_core!(self, c => c.mask)
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
        with_core!(self, c => c.stats.clone())
    }

    /// Splitting moves remove tokens of one parity: the heap parity joins the keys.
    pub fn uses_parity(&self) -> bool {
        with_core!(self, c => c.plan.split_parity.is_some())
    }

    /// All values in memory, G(0..len()) (full mode).
    pub fn values(&self) -> Vec<u32> {
        with_core!(self, c => {
            let mut out: Vec<u32> = Vec::with_capacity(c.seq.len() as usize);
            out.extend(c.seq.prefix.iter().map(|v| v.get()));
            out.extend(c.seq.recent.iter().map(|v| v.get()));
            out
        })
    }

    /// G(from..to) as u32 (full mode; the range must be computed).
    pub fn values_range(&self, from: u64, to: u64) -> Vec<u32> {
        with_core!(self, c => {
            assert!(c.seq.prefix.is_empty() && c.seq.start == 0 && to <= c.seq.len());
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
        // Exact capacity: doubling a multi-gigabyte vector would briefly need three times it.
        let more = usize::try_from(target.saturating_sub(self.len())).unwrap_or(0);
        with_core_mut!(self, c => c.seq.recent.reserve_exact(more));
        while self.len() < target {
            self.maybe_widen();
            let left = target - self.len();
            let count = usize::try_from(left).unwrap_or(usize::MAX);
            let pool = self.pool.as_ref();
            let mut no_gap = |i: u64| -> u32 { panic!("heap {i} is not in memory (full mode)") };
            with_core_mut!(self, c => { c.block(count, pool, &mut no_gap); });
            self.after_block();
            if !progress(self) {
                return;
            }
        }
    }

    /// Switches to u32 storage before a value could exceed u16.
    fn maybe_widen(&mut self) {
        if let Inner::Narrow(c) = &self.inner {
            if c.cap > 32768 {
                let wide = c.convert::<u32>();
                self.inner = Inner::Wide(wide);
            }
        }
    }

    /// Reconsiders the mask when rare heaps appeared (or now and then).
    fn after_block(&mut self) {
        self.blocks_since_mask += 1;
        let rare = self.rare_count();
        if rare == self.rare_seen && self.blocks_since_mask < 256 {
            return;
        }
        self.blocks_since_mask = 0;
        let changed = with_core_mut!(self, c => c.reconsider_mask());
        if changed {
            with_core_mut!(self, c => c.rebuild_rare_from_seq());
        }
        self.rare_seen = self.rare_count();
    }
}

/// G(0..=n) of `code` by the sparse engine, using `threads` threads (0: all cores).
pub fn values(code: &TakeBreak, n: u64, threads: usize) -> Result<Vec<u32>, Error> {
    values_with_progress(code, n, threads, &mut |_| {})
}

/// [`values`], calling `progress(heaps_done)` after each block.
pub fn values_with_progress(
    code: &TakeBreak,
    n: u64,
    threads: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<u32>, Error> {
    let target = n
        .checked_add(1)
        .filter(|&t| usize::try_from(t).is_ok())
        .ok_or_else(|| Error::TooLarge(format!("{n} heaps do not fit in memory")))?;
    let mut e = Engine::new(code)?.with_threads(threads);
    e.advance(target, &mut |e| {
        progress(e.len());
        true
    });
    Ok(e.values())
}
