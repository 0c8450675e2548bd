//! Chooses, block by block, whether the helper threads work or the caller runs alone.
//!
//! Two threads pay only when phase 1 (the part helpers can share) is a large part of a block's
//! work and the machine gives the helpers a core: on codes with few rare heaps the work per tile
//! is shorter than the hand-overs between threads, and on a machine shared with other processes
//! a helper may wait for a core. So the engine measures instead of guessing. It starts alone;
//! when a block alone shows enough phase 1 work for helpers to save time, the next block is a
//! trial with them, and they stay only if that block was faster per heap. Working with helpers,
//! it now and then runs a block alone and goes back to running alone if that was as fast. A
//! trial that loses makes the next one wait twice as long (up to [`MAX_WAIT`] blocks), so a
//! losing mode costs at most a few percent. Results never depend on the choice.
//!
//! The first trial waits [`FIRST_WAIT`] blocks: a trial on a code where helpers lose costs
//! one to three blocks' time, a share that only a run of many blocks can absorb. A short run
//! (under about 200,000 heaps) therefore runs alone, as `--threads 1` would.

/// Blocks at the start before the first trial.
const FIRST_WAIT: u32 = 48;
/// Blocks after a switch before the next trial.
const MIN_WAIT: u32 = 8;
/// The longest wait between trials, in blocks.
const MAX_WAIT: u32 = 256;
/// Blocks with fewer heaps than this (the last of a run, or one cut short when a value
/// outgrows the rows) are not measured.
const MIN_HEAPS: u64 = 512;

/// One block's measurements.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample {
    /// Heaps computed.
    pub heaps: u64,
    /// Wall time of the block (nanoseconds).
    pub ns: u64,
    /// Time the caller spent in phase 2 (nanoseconds): what helpers cannot share.
    pub phase2_ns: u64,
}

/// The controller (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Pace {
    /// Threads a crew would run, the caller's included (1: no crew).
    threads: usize,
    /// Whether the helpers work now (outside trials).
    crew: bool,
    /// The current block is a trial of the other mode.
    trial: bool,
    /// Nanoseconds per heap of the last measured block of the current mode.
    base: Option<f64>,
    /// Share of phase 2 in the last block run alone.
    solo_phase2: f64,
    /// Blocks until the next trial may run.
    wait: u32,
    /// The wait after the next lost trial.
    backoff: u32,
}

impl Pace {
    /// A controller for an engine with `threads` threads (1: it always runs alone).
    pub(crate) fn new(threads: usize) -> Pace {
        Pace {
            threads,
            crew: false,
            trial: false,
            base: None,
            solo_phase2: 1.0,
            wait: FIRST_WAIT,
            backoff: MIN_WAIT,
        }
    }

    /// Threads a crew runs, the caller's included.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// Whether the next block is a trial (the engine runs trials on shorter blocks).
    pub(crate) fn in_trial(&self) -> bool {
        self.trial
    }

    /// Whether the next block runs with the helpers.
    pub(crate) fn use_crew(&mut self) -> bool {
        if self.threads <= 1 {
            return false;
        }
        if !self.trial && self.wait == 0 && self.base.is_some() {
            // Helpers can at best take phase 1 off the caller: skip trials that cannot win.
            let worth = self.crew || {
                let best = self.solo_phase2.max(1.0 / self.threads as f64);
                best < 0.85
            };
            if worth {
                self.trial = true;
            } else {
                self.wait = self.backoff;
            }
        }
        self.crew ^ self.trial
    }

    /// Records the block just run (`crew`: whether the helpers worked in it).
    pub(crate) fn record(&mut self, crew: bool, s: Sample) {
        if s.heaps < MIN_HEAPS || s.ns == 0 {
            return;
        }
        let rate = s.ns as f64 / s.heaps as f64;
        if !crew {
            self.solo_phase2 = (s.phase2_ns as f64 / s.ns as f64).min(1.0);
        }
        if !self.trial {
            self.base = Some(rate);
            self.wait = self.wait.saturating_sub(1);
            return;
        }
        self.trial = false;
        let base = self.base.unwrap_or(f64::INFINITY);
        // Helpers must win clearly; running alone wins ties (it leaves a core to others).
        let better = if crew {
            rate < 0.95 * base
        } else {
            rate < 1.02 * base
        };
        if better {
            self.crew = crew;
            self.base = Some(rate);
            self.backoff = MIN_WAIT;
        } else {
            self.backoff = (self.backoff * 2).min(MAX_WAIT);
        }
        self.wait = self.backoff;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `blocks` blocks of 4096 heaps where a block takes `solo` ns alone (phase 2 a share
    /// `p2` of it) and `crew` ns with helpers; returns (blocks with helpers, total ns).
    fn simulate(threads: usize, blocks: u32, solo: u64, p2: f64, crew: u64) -> (u32, u64) {
        let mut pace = Pace::new(threads);
        let (mut with, mut total) = (0, 0);
        for _ in 0..blocks {
            let c = pace.use_crew();
            let ns = if c { crew } else { solo };
            with += u32::from(c);
            total += ns;
            let phase2_ns = if c { 0 } else { (solo as f64 * p2) as u64 };
            pace.record(
                c,
                Sample {
                    heaps: 4096,
                    ns,
                    phase2_ns,
                },
            );
        }
        (with, total)
    }

    #[test]
    fn one_thread_never_uses_helpers() {
        assert_eq!(simulate(1, 100, 1000, 0.1, 10).0, 0);
    }

    #[test]
    fn helpers_that_pay_are_kept() {
        let (with, total) = simulate(2, 1000, 2000, 0.4, 1100);
        assert!(with > 900, "{with}");
        assert!(total < 1100 * 1000 + 2000 * 80, "{total}");
    }

    #[test]
    fn helpers_that_lose_cost_little() {
        // Ten times slower with helpers (the collapse on cheap codes): a few trials only.
        let (with, total) = simulate(2, 1000, 1000, 0.3, 10_000);
        assert!(with <= 8, "{with}");
        assert!((total as f64) < 1.10 * 1000.0 * 1000.0, "{total}");
        // Not even tried when phase 2 is nearly all the work.
        assert_eq!(simulate(2, 1000, 1000, 0.95, 10_000).0, 0);
    }

    #[test]
    fn short_runs_run_alone() {
        // Helpers ten times slower: a run of FIRST_WAIT blocks never tries them.
        let (with, total) = simulate(2, FIRST_WAIT, 1000, 0.3, 10_000);
        assert_eq!(with, 0);
        assert_eq!(total, 1000 * u64::from(FIRST_WAIT));
    }

    #[test]
    fn short_blocks_are_not_measured() {
        let mut pace = Pace::new(2);
        for _ in 0..100 {
            let c = pace.use_crew();
            assert!(!c, "no trial without a measured block");
            pace.record(
                c,
                Sample {
                    heaps: 10,
                    ns: 1,
                    phase2_ns: 0,
                },
            );
        }
    }
}
