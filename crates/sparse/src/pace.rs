//! Chooses, block by block, whether the helper threads work or the caller runs alone.
//!
//! Two threads pay only when phase 1 (the part helpers can share) is a large part of a block's
//! work and the machine gives the helpers a core: on codes with few rare heaps the work per tile
//! is shorter than the hand-overs between threads, and on a machine shared with other processes
//! a helper may wait for a core. So the engine measures instead of guessing. It starts alone;
//! when a block alone shows enough phase 1 work for helpers to save time, the next blocks are a
//! trial with them, and they stay only if they were faster per heap. Working with helpers, it
//! now and then runs a trial alone and goes back to running alone if that was as fast. A trial
//! that loses makes the next one wait twice as long (up to [`MAX_WAIT`] blocks), so a losing
//! mode costs at most a few percent. Results never depend on the choice.
//!
//! A block lasts a fraction of a millisecond, so one block's time is noisy (an interrupt, the
//! other core taken for a moment, a helper's first wake-up). A trial is [`TRIAL_BLOCKS`] short
//! blocks and counts its best one; it is compared with the median of the current mode's last
//! [`KEPT`] blocks. One unlucky block therefore neither wins a trial nor loses one: on a machine
//! whose speed moves by a third from moment to moment, comparing single blocks switched two
//! threads off for long stretches of runs where they were 1.7 times as fast.
//!
//! The first trial waits [`FIRST_WAIT`] blocks: a trial on a code where helpers lose costs
//! one to three blocks' time, a share that only a run of many blocks can absorb. A short run
//! (under about 200,000 heaps) therefore runs alone, as `--threads 1` would.
//!
//! A trial also has a cost that does not shrink with the blocks: starting or waking a helper,
//! and on a shared machine a helper that waits for a core (measured with one core busy: 2.5 ms
//! more on an 18 ms run, 13%). So no trial starts unless the heaps left in the run would take
//! [`HORIZON_NS`] at the current rate: runs shorter than that stay as they are, and the end of
//! a long run does not pay for a trial it has no time to profit from.

/// Blocks at the start before the first trial.
const FIRST_WAIT: u32 = 48;
/// Blocks after a switch before the next trial.
const MIN_WAIT: u32 = 8;
/// The longest wait between trials, in blocks.
const MAX_WAIT: u32 = 256;
/// Short blocks a trial runs (see the module docs).
const TRIAL_BLOCKS: u32 = 2;
/// Blocks of the current mode whose median a trial is compared with.
const KEPT: usize = 3;
/// The least time the rest of a run must take, at the current rate, for a trial to start.
const HORIZON_NS: f64 = 50e6;
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
    /// Nanoseconds per heap of the current mode's last measured blocks (up to [`KEPT`], the
    /// latest last).
    recent: Vec<f64>,
    /// The best rate of the trial's blocks so far, and how many it has run.
    best: Option<f64>,
    tried: u32,
    /// Share of phase 2 in the last block run alone.
    solo_phase2: f64,
    /// Blocks until the next trial may run.
    wait: u32,
    /// The wait after the next lost trial.
    backoff: u32,
    /// [`HORIZON_NS`] (the tests' simulations of tiny blocks set it lower).
    horizon_ns: f64,
}

impl Pace {
    /// A controller for an engine with `threads` threads (1: it always runs alone).
    pub(crate) fn new(threads: usize) -> Pace {
        Pace {
            threads,
            crew: false,
            trial: false,
            recent: Vec::new(),
            best: None,
            tried: 0,
            solo_phase2: 1.0,
            wait: FIRST_WAIT,
            backoff: MIN_WAIT,
            horizon_ns: HORIZON_NS,
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

    /// Whether the next block runs with the helpers; `heaps_left` is what the run still has to
    /// compute (see [`HORIZON_NS`]).
    pub(crate) fn use_crew(&mut self, heaps_left: u64) -> bool {
        if self.threads <= 1 {
            return false;
        }
        let worth_a_trial = || heaps_left as f64 * self.base() >= self.horizon_ns;
        if !self.trial && self.wait == 0 && !self.recent.is_empty() && worth_a_trial() {
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
            if self.recent.len() == KEPT {
                self.recent.remove(0);
            }
            self.recent.push(rate);
            self.wait = self.wait.saturating_sub(1);
            return;
        }
        let best = self.best.map_or(rate, |b| b.min(rate));
        self.tried += 1;
        if self.tried < TRIAL_BLOCKS {
            self.best = Some(best);
            return;
        }
        self.trial = false;
        self.best = None;
        self.tried = 0;
        let base = self.base();
        // Helpers must win clearly; running alone wins ties (it leaves a core to others).
        let better = if crew {
            best < 0.95 * base
        } else {
            best < 1.02 * base
        };
        if better {
            self.crew = crew;
            self.recent = vec![best];
            self.backoff = MIN_WAIT;
        } else {
            self.backoff = (self.backoff * 2).min(MAX_WAIT);
        }
        self.wait = self.backoff;
    }

    /// The current mode's rate: the median of its last blocks.
    fn base(&self) -> f64 {
        let mut r = self.recent.clone();
        r.sort_by(f64::total_cmp);
        r.get(r.len() / 2).copied().unwrap_or(f64::INFINITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `blocks` blocks' worth of heaps as the engine does (4096 heaps a block, 2048 in a
    /// trial), where a block of 4096 heaps takes `ns(heaps done, crew)` ns and phase 2 is a
    /// share `p2` of a block run alone; returns (blocks' worth of heaps with helpers, total ns).
    fn run(
        threads: usize,
        blocks: u32,
        p2: f64,
        mut ns: impl FnMut(u64, bool) -> u64,
    ) -> (u32, u64) {
        let mut pace = Pace {
            horizon_ns: 0.0,
            ..Pace::new(threads)
        };
        simulate_with(&mut pace, blocks, p2, &mut ns)
    }

    /// [`run`] with a given controller.
    fn simulate_with(
        pace: &mut Pace,
        blocks: u32,
        p2: f64,
        ns: &mut impl FnMut(u64, bool) -> u64,
    ) -> (u32, u64) {
        let (mut heaps, mut with, mut total) = (0, 0, 0);
        let end = u64::from(blocks) * 4096;
        while heaps < end {
            let c = pace.use_crew(end - heaps);
            let size = if pace.in_trial() { 2048 } else { 4096 };
            let t = ns(heaps, c) * size / 4096;
            heaps += size;
            with += if c { size } else { 0 };
            total += t;
            let phase2_ns = if c { 0 } else { (t as f64 * p2) as u64 };
            pace.record(
                c,
                Sample {
                    heaps: size,
                    ns: t,
                    phase2_ns,
                },
            );
        }
        ((with / 4096) as u32, total)
    }

    /// [`run`] with fixed times: `solo` ns a block alone, `crew` with helpers.
    fn simulate(threads: usize, blocks: u32, solo: u64, p2: f64, crew: u64) -> (u32, u64) {
        run(threads, blocks, p2, |_, c| if c { crew } else { solo })
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
    fn one_slow_block_does_not_switch_helpers_off() {
        // Helpers 1.7 times as fast; one block in eight with helpers takes twice as long (the
        // other core taken for a moment): they stay on nearly all the time.
        let (with, _) = run(2, 2000, 0.4, |heaps, c| match c {
            true if (heaps / 4096).is_multiple_of(8) => 1200,
            true => 600,
            false => 1000,
        });
        assert!(with > 1900, "{with}");
    }

    #[test]
    fn helpers_that_stop_paying_are_dropped() {
        // Helpers pay for the first 500 blocks, then the machine takes their core.
        let (with, total) = run(2, 2000, 0.4, |heaps, c| match c {
            true if heaps < 500 * 4096 => 600,
            true => 1500,
            false => 1000,
        });
        assert!(with < 560, "{with}");
        assert!(total < 500 * 600 + 1500 * 1000 + 150 * 1000, "{total}");
    }

    #[test]
    fn short_runs_run_alone() {
        // Helpers ten times slower: a run of FIRST_WAIT blocks never tries them.
        let (with, total) = simulate(2, FIRST_WAIT, 1000, 0.3, 10_000);
        assert_eq!(with, 0);
        assert_eq!(total, 1000 * u64::from(FIRST_WAIT));
    }

    #[test]
    fn runs_shorter_than_the_horizon_run_alone() {
        // Blocks of 0.2 ms (4096 heaps at 50 ns), helpers ten times slower: a run of 200
        // blocks (40 ms) never tries them, not even after FIRST_WAIT blocks.
        let mut slow = |_: u64, c: bool| if c { 2_000_000 } else { 200_000 };
        let (with, total) = simulate_with(&mut Pace::new(2), 200, 0.3, &mut slow);
        assert_eq!(with, 0);
        assert_eq!(total, 200 * 200_000);
        // A long run tries them, and keeps them where they pay.
        let mut fast = |_: u64, c: bool| if c { 120_000 } else { 200_000 };
        let (with, _) = simulate_with(&mut Pace::new(2), 2000, 0.3, &mut fast);
        assert!(with > 1800, "{with}");
        // They are not tried in the last HORIZON_NS of a run, 250 blocks of 0.2 ms: after
        // FIRST_WAIT (48) blocks, a run of 290 blocks has 242 left and runs alone; one of 310
        // has 262 left and tries them.
        let (with, _) = simulate_with(&mut Pace::new(2), 290, 0.3, &mut fast);
        assert_eq!(with, 0);
        let (with, _) = simulate_with(&mut Pace::new(2), 310, 0.3, &mut fast);
        assert!(with > 0, "{with}");
    }

    #[test]
    fn short_blocks_are_not_measured() {
        let mut pace = Pace::new(2);
        for _ in 0..100 {
            let c = pace.use_crew(u64::MAX);
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
