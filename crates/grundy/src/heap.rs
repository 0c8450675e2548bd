//! One-heap games: take-and-break codes (CGSuite's notation), subtraction sets and named
//! games; their sequences with the engine chosen for you, periods with their proof status,
//! sums of heaps with every winning move (normal and misère play), and record-scale runs.
//!
//! The engines and their choice are the heap family's (`grundy-heaps`, whose [`Heaps`] is the
//! one front door over `grundy-heap`, `grundy-sparse` and `grundy-misere`); this module
//! re-exports them and adds only what the facade owns: the memory this machine can give a
//! computation ([`crate::limits`]) and the library's one [`Error`](crate::Error).
//!
//! Every call takes a [`Compute`]: which engine ([`EngineChoice`]), how many threads, a
//! progress callback and a stop flag. The defaults choose the engine, use every core, report
//! nothing and never stop.
//!
//! ```
//! use grundy::heap::{self, Compute, Status};
//!
//! // Dawson's chess (0.137): compute until the Guy–Smith theorem proves the period.
//! let rule = heap::parse("0.137")?;
//! let seq = heap::find_period(&rule, &mut Compute::default())?;
//! let p = seq.period.unwrap();
//! assert_eq!((p.period, p.preperiod, p.status), (34, 52, Status::Proven));
//!
//! // The first values of a subtraction game, from the engine chosen for it.
//! let s = heap::sequence(&heap::parse("sub:1,3,4")?, 9, &mut Compute::default())?;
//! assert_eq!(s.values, [0, 1, 0, 1, 2, 3, 2, 0, 1, 0]);
//! # Ok::<(), grundy::Error>(())
//! ```

pub use grundy_heap::code::{Constraint, Digit, TakeBreak};
pub use grundy_heap::periodicity::{Periodicity, ProofBound, Status};
pub use grundy_heap::rule::{format_code, parse, Rule, RuleError};
pub use grundy_heap::sum::{heap_move, SumAnalysis};
pub use grundy_heap::{
    code, engine, json_int, named, options, periodicity, reference, rule, subtraction, sum,
};
pub use grundy_heaps::quotients;
pub use grundy_heaps::{
    describe_period, describe_rule, memory_estimate, misere_position_bytes, Compute, EngineChoice,
    EngineUsed, Growing, GrowingState, Heaps, MiserePosition, Position, Progress, QuotientPeriod,
    Record, RecordOptions, Resume, SavedRun, Sequence, AUTO_SPARSE_MIN_HEAPS, AUTO_WINDOW_BYTES,
    DEFAULT_MISERE_BUDGET, DEFAULT_OBSERVE_UPTO, DEFAULT_PROOF_LIMIT, DEFAULT_UPTO,
    DEFAULT_WORK_BUDGET, DIRECT_POSITION_LIMIT, LIST_SPLITS_LIMIT, PACK_FROM, PERIOD_SHORTCUT_FROM,
};

use crate::Result;
use grundy_core::Budget;

/// The record-scale engine for take-and-break codes that split heaps (rare and common values),
/// with durable checkpoints and saves. [`record`] drives it; these are its own types.
pub mod sparse {
    pub use grundy_sparse::{Engine, Error, Plan, Progress, RunOptions, Saved, Summary};
    pub use grundy_sparse::{PAYS_AFTER, PERIOD_SEARCH_LIMIT};
}

/// `c` with this machine's memory budget ([`crate::limits::memory_budget`]).
fn with_memory<'c, 'a>(c: &'c mut Compute<'a>) -> &'c mut Compute<'a> {
    c.set_memory(crate::limits::memory_budget());
    c
}

/// G(0..=n) of `rule` in its natural heap sizes, by the engine `c` asks for (or the best one),
/// with the period found in them: [`grundy_heaps::sequence()`] within this machine's memory.
///
/// With the engine chosen for you ([`EngineChoice::Auto`]) and from [`PERIOD_SHORTCUT_FROM`]
/// heaps on, a rule that a theorem covers is first computed until its period is proven (up to
/// a quarter of `n`, at most [`DEFAULT_PROOF_LIMIT`]); once it is, the values past the heaps
/// computed follow from the period ([`Sequence::computed_upto`] says where) instead of being
/// computed one by one. A named engine computes every value.
pub fn sequence(rule: &Rule, n: u64, c: &mut Compute<'_>) -> Result<Sequence> {
    Ok(grundy_heaps::sequence(rule, n, with_memory(c))?)
}

/// Computes G(0..=n) for n = `start`, 2·`start`, … up to `limit` until a theorem proves the
/// period (or once, for rules no theorem covers): [`grundy_heaps::until_proven`] within this
/// machine's memory.
pub fn until_proven(rule: &Rule, start: u64, limit: u64, c: &mut Compute<'_>) -> Result<Sequence> {
    Ok(grundy_heaps::until_proven(
        rule,
        start,
        limit,
        with_memory(c),
    )?)
}

/// "What is the period of this rule?": computes until a theorem proves it, up to
/// [`DEFAULT_PROOF_LIMIT`] heaps; for a rule no theorem covers, looks at
/// [`DEFAULT_OBSERVE_UPTO`] heaps and reports what they show ([`grundy_heaps::find_period`]).
pub fn find_period(rule: &Rule, c: &mut Compute<'_>) -> Result<Sequence> {
    Ok(grundy_heaps::find_period(rule, with_memory(c))?)
}

/// Value, outcome and every winning move of the sum of heaps `heaps` of `rule`
/// ([`grundy_heaps::analyze_position`]): heaps up to [`DIRECT_POSITION_LIMIT`] computed
/// directly, larger ones through the rule's proven period; heaps whose moves are too many to
/// list are named in the result.
pub fn analyze_position(rule: &Rule, heaps: &[u64], c: &mut Compute<'_>) -> Result<Position> {
    Ok(grundy_heaps::analyze_position(rule, heaps, with_memory(c))?)
}

/// The value and outcome of the sum of heaps `heaps` of `rule`, no move walked
/// ([`grundy_heaps::analyze_position_value`]): what [`analyze_position`] computes before it
/// looks for winning moves.
pub fn analyze_position_value(rule: &Rule, heaps: &[u64], c: &mut Compute<'_>) -> Result<Position> {
    Ok(grundy_heaps::analyze_position_value(
        rule,
        heaps,
        with_memory(c),
    )?)
}

/// The misère outcome of the sum of heaps `heaps` of `rule`, no move looked at
/// ([`grundy_heaps::analyze_position_misere_value`]): the quotient's product alone, or the
/// search from the root alone.
pub fn analyze_position_misere_value(
    rule: &Rule,
    heaps: &[u64],
    budget: &Budget,
    c: &Compute<'_>,
) -> Result<MiserePosition> {
    Ok(grundy_heaps::analyze_position_misere_value(
        rule, heaps, budget, c,
    )?)
}

/// The misère outcome and every winning move of the sum of heaps `heaps` of `rule`
/// ([`grundy_heaps::analyze_position_misere`]): a product in the rule's misère quotient where
/// one is found (for every heap once Φ is proven periodic; kept in this process and in the
/// quotient directory, [`Compute::quotient_cache`] or [`quotients::set_default_dir`]), else a
/// search over whole positions within `budget` ([`crate::Error::Limit`] past it, naming the
/// cap). The stop flag of `c` ends either with [`crate::Error::Stopped`].
pub fn analyze_position_misere(
    rule: &Rule,
    heaps: &[u64],
    budget: &Budget,
    c: &Compute<'_>,
) -> Result<MiserePosition> {
    Ok(grundy_heaps::analyze_position_misere(
        rule, heaps, budget, c,
    )?)
}

/// A record-scale run of `rule` ([`grundy_heaps::record()`] within this machine's memory): the
/// sparse engine where it applies (durable checkpoints and saves, the memory window), else
/// the plain engines; returns the summary and, if asked, the values.
///
/// With a checkpoint directory, stopping (the stop flag of `c`) writes a final checkpoint of
/// everything finished before returning [`crate::Error::Stopped`]; running again with the same
/// directory resumes from it ([`Progress::resumed_at`]).
pub fn record(rule: &Rule, opts: &RecordOptions, c: &mut Compute<'_>) -> Result<Record> {
    Ok(grundy_heaps::record(rule, opts, with_memory(c))?)
}

/// What the checkpoint or save directory `dir` of a record run holds (its code, its target,
/// the heaps saved), from its state file alone ([`grundy_heaps::inspect`]).
pub fn inspect(dir: &std::path::Path) -> Result<SavedRun> {
    Ok(grundy_heaps::inspect(dir)?)
}

/// Reads back the checkpoint or save directory `dir` of a [`record`] run of `rule`, writing
/// nothing ([`grundy_heaps::load`], within this machine's memory): the same [`Record`] the
/// run gave, over G(0..=upto) or every heap saved without `upto`, with the values when
/// `keep_values`.
///
/// ```
/// use grundy::heap::{self, Compute, RecordOptions};
/// let dir = std::env::temp_dir().join(format!("grundy-heap-load-doc-{}", std::process::id()));
/// let rule = heap::parse("0.07")?;
/// let opts = RecordOptions { upto: 1000, save: Some(dir.clone()), ..RecordOptions::default() };
/// let run = heap::record(&rule, &opts, &mut Compute::default())?;
/// let back = heap::load(&rule, &dir, None, false)?;
/// assert_eq!((back.upto, back.histogram.clone()), (1000, run.histogram));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn load(
    rule: &Rule,
    dir: &std::path::Path,
    upto: Option<u64>,
    keep_values: bool,
) -> Result<Record> {
    Ok(grundy_heaps::load(
        rule,
        dir,
        upto,
        keep_values,
        Some(crate::limits::memory_budget()),
    )?)
}
