//! grundy-heaps: the heap family's one front door. Every question about heap games — a
//! sequence, a period, a sum under normal or misère play, a record-scale run — goes through
//! [`Heaps`], which chooses the engine for the rule and the size, as regex-automata's `meta`
//! engine chooses among its regex engines: each engine sits behind the same contract and no
//! answer depends on which one ran.
//!
//! | question | engines, in the order tried |
//! |---|---|
//! | G(0..=n) ([`Heaps::sequence`]) | the proven period past [`PERIOD_SHORTCUT_FROM`] heaps; the record engine (`grundy-sparse`) for splitting codes from [`AUTO_SPARSE_MIN_HEAPS`] heaps while its rare/common split pays; the plain engines (`grundy-heap`) |
//! | the period ([`Heaps::until_proven`], [`Heaps::find_period`]) | the record engine for splitting codes; the plain engines, within [`DEFAULT_WORK_BUDGET`] |
//! | a sum, normal play ([`Heaps::position`]; the value alone: [`Heaps::position_value`]) | values as above, or from the proven period for heaps past [`DIRECT_POSITION_LIMIT`] |
//! | a sum, misère play ([`Heaps::position_misere`]; the outcome alone: [`Heaps::position_misere_value`]) | the misère quotient (`grundy-misere`), as far as the largest heap or for every heap once Φ is proven periodic, kept in [`quotients`]; the search over whole positions |
//! | a record run ([`Heaps::record`]) | the record engine (checkpoints, saves, the memory window); the plain engines |
//! | a survey's growing sequence ([`Growing`]) | the record engine, then the reference engine once the split stops paying; the reference engine extended in place |
//!
//! [`EngineChoice`] in [`Compute`] lets a caller insist on one (`Reference`: the plain engines
//! and the misère search, the yardstick; `Sparse`: the record engine). This crate reads no
//! system state: the caller gives the memory a computation may take ([`Compute::memory`]) and
//! the directory where quotients are kept ([`Compute::quotient_cache`]); its one I/O is that
//! directory and the record engine's checkpoints (ARCHITECTURE.md lists both).
//!
//! ```
//! use grundy_heaps::{Compute, Heaps};
//! use grundy_core::Outcome;
//!
//! let kayles = grundy_heap::parse("kayles")?;
//! let heaps = Heaps::new(&kayles);
//! let p = heaps.find_period(&mut Compute::default())?.period.unwrap();
//! assert_eq!((p.period, p.preperiod), (12, 71));
//! // Misère play: a product in Kayles' quotient, whose Φ is proven periodic.
//! let m = heaps.position_misere(&[1_000_000, 7], &grundy_heaps::DEFAULT_MISERE_BUDGET, &Compute::default())?;
//! assert_eq!((m.method, m.quotient_order), ("quotient", Some(40)));
//! assert_eq!(m.outcome, Outcome::N);
//! # Ok::<(), grundy_heaps::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod compute;
mod engines;
pub mod error;
pub mod growing;
pub mod misere;
pub mod position;
pub mod quotients;
pub mod record;
pub mod sequence;

pub use compute::{Compute, EngineChoice, EngineUsed, Progress};
pub use engines::{memory_estimate, AUTO_SPARSE_MIN_HEAPS, DEFAULT_WORK_BUDGET};
pub use error::{Error, Result};
pub use growing::{Growing, GrowingState, Resume};
pub use misere::{
    analyze_position_misere, analyze_position_misere_value, misere_position_bytes, MiserePosition,
    QuotientPeriod, DEFAULT_MISERE_BUDGET,
};
pub use position::{
    analyze_position, analyze_position_value, Position, DIRECT_POSITION_LIMIT, LIST_SPLITS_LIMIT,
};
pub use record::{
    inspect, load, record, Record, RecordOptions, SavedRun, AUTO_WINDOW_BYTES, PACK_FROM,
};
pub use sequence::{
    describe_period, describe_rule, find_period, sequence, until_proven, Sequence,
    DEFAULT_OBSERVE_UPTO, DEFAULT_PROOF_LIMIT, DEFAULT_UPTO, PERIOD_SHORTCUT_FROM,
};

use grundy_core::Budget;
use grundy_heap::rule::Rule;

/// One rule's heap games, with the engine for each question chosen for you (see the crate
/// documentation): the family's one front door. Each method is also a free function of the
/// crate taking the rule, which is what the facade re-exports.
#[derive(Clone, Copy, Debug)]
pub struct Heaps<'r> {
    rule: &'r Rule,
}

impl<'r> Heaps<'r> {
    /// The games of `rule`.
    pub fn new(rule: &'r Rule) -> Self {
        Heaps { rule }
    }

    /// The rule.
    pub fn rule(&self) -> &'r Rule {
        self.rule
    }

    /// G(0..=n) with the period found in it ([`sequence()`]).
    pub fn sequence(&self, n: u64, c: &mut Compute<'_>) -> Result<Sequence> {
        sequence(self.rule, n, c)
    }

    /// G(0..=n) for n = `start`, 2·`start`, … up to `limit` until the period is proven
    /// ([`until_proven()`]).
    pub fn until_proven(&self, start: u64, limit: u64, c: &mut Compute<'_>) -> Result<Sequence> {
        until_proven(self.rule, start, limit, c)
    }

    /// The period, proven where a theorem covers the rule ([`find_period()`]).
    pub fn find_period(&self, c: &mut Compute<'_>) -> Result<Sequence> {
        find_period(self.rule, c)
    }

    /// A sum of heaps under normal play ([`analyze_position()`]).
    pub fn position(&self, heaps: &[u64], c: &mut Compute<'_>) -> Result<Position> {
        analyze_position(self.rule, heaps, c)
    }

    /// The value and outcome of a sum of heaps under normal play, no move walked
    /// ([`analyze_position_value()`]).
    pub fn position_value(&self, heaps: &[u64], c: &mut Compute<'_>) -> Result<Position> {
        analyze_position_value(self.rule, heaps, c)
    }

    /// The outcome of a sum of heaps under misère play, no move looked at
    /// ([`analyze_position_misere_value()`]).
    pub fn position_misere_value(
        &self,
        heaps: &[u64],
        budget: &Budget,
        c: &Compute<'_>,
    ) -> Result<MiserePosition> {
        analyze_position_misere_value(self.rule, heaps, budget, c)
    }

    /// A sum of heaps under misère play ([`analyze_position_misere()`]).
    pub fn position_misere(
        &self,
        heaps: &[u64],
        budget: &Budget,
        c: &Compute<'_>,
    ) -> Result<MiserePosition> {
        analyze_position_misere(self.rule, heaps, budget, c)
    }

    /// A record-scale run ([`record()`]).
    pub fn record(&self, opts: &RecordOptions, c: &mut Compute<'_>) -> Result<Record> {
        record(self.rule, opts, c)
    }

    /// A sequence to grow step by step ([`Growing`]).
    pub fn growing(&self, upto: u64, resume: Resume, threads: usize) -> Result<Growing> {
        Growing::new(self.rule, upto, resume, threads)
    }
}
