//! One-heap games: take-and-break codes (CGSuite's notation), subtraction sets and named
//! games; their sequences with the engine chosen for you, periods with their proof status,
//! sums of heaps with every winning move, and record-scale runs.
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

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

pub use grundy_heap::code::{Constraint, Digit, TakeBreak};
pub use grundy_heap::periodicity::{Periodicity, ProofBound, Status};
pub use grundy_heap::rule::{format_code, parse, Rule, RuleError};
pub use grundy_heap::sum::{heap_move, SumAnalysis};
pub use grundy_heap::{
    code, engine, json_int, named, options, periodicity, reference, rule, subtraction, sum,
};

use crate::{Error, Result};
use grundy_core::Budget;
use grundy_sparse::Plan;

/// The record-scale engine for take-and-break codes that split heaps (rare and common values),
/// with durable checkpoints and saves. [`record`] drives it; these are its own types.
pub mod sparse {
    pub use grundy_sparse::{Engine, Error, Plan, Progress, RunOptions, Saved, Summary};
    pub use grundy_sparse::{PAYS_AFTER, PERIOD_SEARCH_LIMIT};
}

/// `Auto` uses the sparse engine from this many heaps on: below, the reference engine is as
/// fast and starts at once.
pub const AUTO_SPARSE_MIN_HEAPS: u64 = 4096;
/// [`find_period`]: how far to compute for a rule whose period a theorem can prove (stopping
/// as soon as it is proven).
pub const DEFAULT_PROOF_LIMIT: u64 = 1 << 22;
/// [`find_period`]: how far to look for a rule that no theorem covers (the period can then
/// only be observed).
pub const DEFAULT_OBSERVE_UPTO: u64 = 10_000;
/// [`analyze_position`]: heaps up to this size are computed directly; beyond it, a rule that a
/// theorem covers is evaluated through its proven period.
pub const DIRECT_POSITION_LIMIT: u64 = 100_000;
/// [`analyze_position`]: the largest heap whose moves are listed when a move may split (they
/// are about as many as the heap).
pub const LIST_SPLITS_LIMIT: u64 = 2_000_000;
/// [`analyze_position`]: how far to compute while looking for a proven period, with the sparse
/// engine and with the others (the reference engine is quadratic for splitting codes).
const POSITION_PROOF_LIMIT_FAST: u64 = 1 << 20;
const POSITION_PROOF_LIMIT: u64 = 1 << 14;

/// Which engine computes a sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineChoice {
    /// The sparse engine for splitting take-and-break codes from [`AUTO_SPARSE_MIN_HEAPS`]
    /// heaps on, else the fastest plain engine for the rule.
    #[default]
    Auto,
    /// The straightforward engines (mex over every option; the subtraction engines for rules
    /// whose moves leave at most one heap): the yardstick.
    Reference,
    /// The rare/common engine; refused for rules it cannot compute exactly.
    Sparse,
}

impl EngineChoice {
    /// `"auto"`, `"reference"` or `"sparse"`.
    pub fn as_str(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Reference => "reference",
            EngineChoice::Sparse => "sparse",
        }
    }
}

/// How a computation runs: the engine, the threads, progress and stopping.
///
/// Progress is reported as heaps done out of heaps to do (the sparse engine after each block,
/// the others every few thousand heaps). Setting the stop flag ends the computation at the
/// next report with [`Error::Stopped`]; a record run with a checkpoint writes everything it
/// finished first.
#[derive(Default)]
pub struct Compute<'a> {
    /// The engine to use.
    pub engine: EngineChoice,
    /// Threads of the sparse engine (0: one per core).
    pub threads: usize,
    progress: Option<Box<dyn FnMut(Progress) + 'a>>,
    stop: Option<&'a AtomicBool>,
}

/// A progress report: heaps known and heaps to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Heaps known (G(0..done)).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub done: u64,
    /// Heaps the computation will know at the end.
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub total: u64,
    /// Heaps that came from a checkpoint (0 unless a record run resumed).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub resumed_at: u64,
}

impl<'a> Compute<'a> {
    /// The defaults: engine chosen for you, every core, no reports, never stops.
    pub fn new() -> Self {
        Compute::default()
    }

    /// Uses `engine`.
    pub fn engine(mut self, engine: EngineChoice) -> Self {
        self.engine = engine;
        self
    }

    /// Uses `threads` threads in the sparse engine (0: one per core).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Calls `f` with each progress report.
    pub fn on_progress(mut self, f: impl FnMut(Progress) + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Stops the computation soon after `flag` becomes true (a Ctrl-C handler sets it).
    pub fn stop_when(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// True once the stop flag is set.
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Reports progress; false when the computation should stop.
    fn report(&mut self, p: Progress) -> bool {
        if let Some(f) = self.progress.as_mut() {
            f(p);
        }
        !self.stopped()
    }

    /// A heap-engine callback: reports `done` out of `total`; false once the stop flag is set.
    fn ticker<'s>(&'s mut self, total: u64) -> impl FnMut(u64) -> bool + use<'s, 'a> {
        move |done| {
            self.report(Progress {
                done,
                total,
                resumed_at: 0,
            })
        }
    }
}

/// The engine that computed a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineUsed {
    /// The plain engines of `grundy-heap` (mex, or the subtraction engines).
    Reference,
    /// The rare/common engine of `grundy-sparse`.
    Sparse,
}

/// G(0..=upto) of a rule and the period found in it.
///
/// Serialized: `{"rule", "code", "shift", "upto", "values", "period": {"period", "preperiod",
/// "saltus", "status"}, "engine"}`, where `status` is `"proven"`, `"observed"` or `"none"` (then
/// the other three are null).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sequence {
    /// The rule as the user can type it again.
    pub rule: String,
    /// Its take-and-break code, when it has one (CGSuite notation).
    pub code: Option<String>,
    /// Named games count heaps differently from their code: G(n) = G_code(n + shift).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub shift: u64,
    /// The last heap whose value is given: G(0..=upto).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub upto: u64,
    /// The last heap the engine computed, when it is below `upto`: the values past it follow
    /// from the proven period (G(n + period) = G(n) + saltus from the preperiod on), not from
    /// computing each one (see [`PERIOD_SHORTCUT_FROM`]). Serialized only then.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "grundy_heap::json_int::option"
    )]
    pub computed_upto: Option<u64>,
    /// G(0), G(1), …, G(upto). Left out of the JSON when a front end took them elsewhere (the
    /// CLI's `--values FILE`) and left this empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<u32>,
    /// The smallest period, when one was found.
    #[serde(serialize_with = "serialize_period")]
    pub period: Option<Periodicity>,
    /// Which engine computed the values.
    pub engine: EngineUsed,
}

/// The JSON `period` object: always an object, `status` `"none"` when no period was found.
fn serialize_period<S: serde::Serializer>(
    p: &Option<Periodicity>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut st = s.serialize_struct("Period", 4)?;
    st.serialize_field("period", &p.map(|p| p.period))?;
    st.serialize_field("preperiod", &p.map(|p| p.preperiod))?;
    st.serialize_field("saltus", &p.map(|p| p.saltus))?;
    st.serialize_field("status", p.map_or("none", |p| p.status.as_str()))?;
    st.end()
}

impl Sequence {
    fn new(rule: &Rule, values: Vec<u32>, period: Option<Periodicity>, engine: EngineUsed) -> Self {
        Sequence {
            rule: rule.to_string(),
            code: rule.take_break().map(|c| format_code(&c)),
            shift: rule.base_and_shift().1,
            upto: values.len().saturating_sub(1) as u64,
            computed_upto: None,
            values,
            period,
            engine,
        }
    }

    /// When the values past some heap came from the proven period rather than the engine, a
    /// sentence saying so: `values past heap 4096 follow from the proven period (G(0..=4096)
    /// were computed)`.
    pub fn describe_shortcut(&self) -> Option<String> {
        let c = self.computed_upto?;
        let p = self.period.as_ref()?;
        let saltus = if p.saltus != 0 {
            format!(" + {}", p.saltus)
        } else {
            String::new()
        };
        Some(format!(
            "values past heap {c} follow from the proven period (G(n + {}) = G(n){saltus} for n >= {}); G(0..={c}) were computed",
            p.period, p.preperiod
        ))
    }
}

/// Bytes a sequence G(0..=n) of `rule` needs while it is computed and held, roughly: the
/// engine's own storage plus the returned values (4 bytes a heap).
pub fn memory_estimate(rule: &Rule, n: u64) -> u64 {
    let len = n.saturating_add(rule.base_and_shift().1).saturating_add(1);
    match sparse_code(rule, EngineChoice::Auto, n) {
        // 2 bytes a heap in the engine (u16), 4 in the copy handed back.
        Some(_) => len.saturating_mul(6),
        None => grundy_heap::engine::memory_estimate(rule, n).saturating_add(len.saturating_mul(4)),
    }
}

/// The code the sparse engine should run for `rule` under `choice` at `n` heaps, if any.
fn sparse_code(rule: &Rule, choice: EngineChoice, n: u64) -> Option<TakeBreak> {
    let Rule::Code(code) = rule.base_and_shift().0 else {
        return None;
    };
    match choice {
        EngineChoice::Reference => None,
        EngineChoice::Sparse => Some(code.clone()),
        EngineChoice::Auto => match Plan::new(code) {
            Ok(p) if p.has_splits() && n >= AUTO_SPARSE_MIN_HEAPS => Some(code.clone()),
            _ => None,
        },
    }
}

/// Refuses `EngineChoice::Sparse` for a rule the sparse engine cannot run, naming the rule.
fn check_sparse(rule: &Rule, choice: EngineChoice) -> Result<()> {
    if choice != EngineChoice::Sparse {
        return Ok(());
    }
    match rule.base_and_shift().0 {
        Rule::Code(code) => Plan::new(code)
            .map(|_| ())
            .map_err(|e| Error::Invalid(format!("'{rule}': {e}"))),
        _ => Err(Error::Invalid(format!(
            "'{rule}': the sparse engine runs take-and-break codes only"
        ))),
    }
}

/// G(0..=n) of `rule` in its natural heap sizes, by the engine `c` asks for (or the best one),
/// with the period found in them.
///
/// With the engine chosen for you ([`EngineChoice::Auto`]) and from [`PERIOD_SHORTCUT_FROM`]
/// heaps on, a rule that a theorem covers is first computed until its period is proven (up to
/// a quarter of `n`, at most [`DEFAULT_PROOF_LIMIT`]); once it is, the values past the heaps
/// computed follow from the period ([`Sequence::computed_upto`] says where) instead of being
/// computed one by one. A named engine computes every value.
pub fn sequence(rule: &Rule, n: u64, c: &mut Compute<'_>) -> Result<Sequence> {
    check_sparse(rule, c.engine)?;
    if c.engine == EngineChoice::Auto && n >= PERIOD_SHORTCUT_FROM {
        if let Some(seq) = by_period(rule, n, c)? {
            return Ok(seq);
        }
    }
    crate::limits::check_memory(memory_estimate(rule, n), &format!("G(0..={n})"))?;
    let (values, engine) = values(rule, n, c)?;
    let period = periodicity::analyze(rule, &values);
    Ok(Sequence::new(rule, values, period, engine))
}

/// [`sequence`] answers from a proven period, instead of computing every value, from this
/// many heaps on (below, computing them all takes moments).
pub const PERIOD_SHORTCUT_FROM: u64 = 1 << 16;

/// G(0..=n) of `rule` from a prefix computed until its period is proven, extended by the
/// period; `None` when no theorem covers the rule or no period was proven in the prefix.
///
/// The prefix is computed on the rule's code (a named game's values are the code's from heap
/// `shift` on), so that a splitting code runs on the sparse engine whatever its shift.
fn by_period(rule: &Rule, n: u64, c: &mut Compute<'_>) -> Result<Option<Sequence>> {
    if periodicity::rule_bound(rule).is_none() {
        return Ok(None);
    }
    // The values handed back take 4 bytes a heap: refuse at once what cannot be held.
    crate::limits::check_memory(
        n.saturating_add(1).saturating_mul(4),
        &format!("G(0..={n})"),
    )?;
    let (base, shift) = rule.base_and_shift();
    let base = base.clone();
    let Some(m) = n.checked_add(shift) else {
        return Ok(None);
    };
    let limit = proof_limit(&base, c.engine, (m / 4).min(DEFAULT_PROOF_LIMIT));
    let prefix = until_proven(&base, 1024.min(limit), limit, c)?;
    let Some(p) = prefix.period.filter(|p| p.status == Status::Proven) else {
        return Ok(None);
    };
    let known = prefix.values.len() as u64;
    if known > m || known <= shift || known < p.preperiod.saturating_add(p.period) {
        // The prefix already reaches n, or (never for a proven period) does not hold a whole
        // period past the preperiod: compute every value instead.
        return Ok(None);
    }
    let len = usize::try_from(m + 1)
        .map_err(|_| Error::Invalid(format!("{n} heaps do not fit this machine")))?;
    let mut values = prefix.values;
    values.reserve_exact(len - values.len());
    let period = usize::try_from(p.period).unwrap_or(usize::MAX);
    let saltus = u32::try_from(p.saltus).ok();
    for h in values.len()..len {
        // h >= known >= preperiod + period: G(h) = G(h - period) + saltus.
        let v = saltus.and_then(|s| values[h - period].checked_add(s));
        let Some(v) = v else {
            return Err(Error::Invalid(format!(
                "G({h}) of {rule} is larger than 2^32: too large to list"
            )));
        };
        values.push(v);
    }
    values.drain(..shift as usize);
    let computed = known - 1 - shift;
    // The period in the rule's own heap counting, as `sequence` reports it.
    let found = periodicity::analyze(rule, &values[..=computed as usize]);
    if !found.is_some_and(|f| f.status == Status::Proven) {
        return Ok(None);
    }
    let mut seq = Sequence::new(rule, values, found, prefix.engine);
    seq.computed_upto = Some(computed);
    Ok(Some(seq))
}

/// G(0..=n), and the engine that computed it.
fn values(rule: &Rule, n: u64, c: &mut Compute<'_>) -> Result<(Vec<u32>, EngineUsed)> {
    let shift = rule.base_and_shift().1;
    let m = n
        .checked_add(shift)
        .ok_or_else(|| Error::Invalid(format!("{n} heaps is too many")))?;
    if let Some(code) = sparse_code(rule, c.engine, m) {
        let threads = c.threads;
        let auto = c.engine == EngineChoice::Auto;
        let mut tick = c.ticker(m.saturating_add(1));
        let v = if auto {
            // Where the rare/common split does not pay, the reference engine is as fast.
            grundy_sparse::values_if_it_pays(&code, m, threads, &mut tick)?
        } else {
            Some(grundy_sparse::values_with_progress(
                &code, m, threads, &mut tick,
            )?)
        };
        if let Some(mut v) = v {
            v.drain(..shift as usize);
            return Ok((v, EngineUsed::Sparse));
        }
    }
    let mut tick = c.ticker(n.saturating_add(1));
    let v = grundy_heap::engine::sequence_with_progress(rule, n, &mut tick)?;
    Ok((v, EngineUsed::Reference))
}

/// Computes G(0..=n) for n = `start`, 2·`start`, … up to `limit` until a theorem proves the
/// period (or once, for rules no theorem covers). The sparse engine continues where it
/// stopped, so the doubling costs nothing extra there.
pub fn until_proven(rule: &Rule, start: u64, limit: u64, c: &mut Compute<'_>) -> Result<Sequence> {
    check_sparse(rule, c.engine)?;
    let limit = limit.max(start);
    crate::limits::check_memory(memory_estimate(rule, limit), &format!("G(0..={limit})"))?;
    let shift = rule.base_and_shift().1;
    if let (Some(code), 0) = (sparse_code(rule, c.engine, limit), shift) {
        let splits = Plan::new(&code).is_ok_and(|p| p.has_splits());
        if splits {
            let threads = c.threads;
            let mut tick = c.ticker(limit.saturating_add(1));
            let (v, p) = grundy_sparse::until_proven(&code, start, limit, threads, &mut tick)?;
            return Ok(Sequence::new(rule, v, p, EngineUsed::Sparse));
        }
    }
    let mut tick = c.ticker(limit.saturating_add(1));
    let (v, p) = periodicity::until_proven(rule, start, limit, &mut tick)?;
    Ok(Sequence::new(rule, v, p, EngineUsed::Reference))
}

/// "What is the period of this rule?": computes until a theorem proves it, up to
/// [`DEFAULT_PROOF_LIMIT`] heaps; for a rule no theorem covers, looks at
/// [`DEFAULT_OBSERVE_UPTO`] heaps and reports what they show (an observed period, or none).
/// Either bound shrinks where the plain engines would need more than [`DEFAULT_WORK_BUDGET`]
/// moves to reach it (a rule that splits heaps in three is cubic).
pub fn find_period(rule: &Rule, c: &mut Compute<'_>) -> Result<Sequence> {
    if periodicity::rule_bound(rule).is_some() {
        let limit = proof_limit(rule, c.engine, DEFAULT_PROOF_LIMIT);
        until_proven(rule, DEFAULT_UPTO.min(limit), limit, c)
    } else {
        // No theorem: look as far as the work budget allows (a cubic rule sees fewer heaps).
        sequence(rule, proof_limit(rule, c.engine, DEFAULT_OBSERVE_UPTO), c)
    }
}

/// The work a period search chosen by the library (not asked for by the caller) may take:
/// about this many moves examined by the plain engines, a few seconds.
pub const DEFAULT_WORK_BUDGET: u64 = 1 << 30;

/// How far a period search of `rule` that the caller did not bound goes: `limit`, or less
/// where the plain engines would need more than [`DEFAULT_WORK_BUDGET`] to get there (a code
/// that splits a heap into three is cubic). The sparse engine's rules keep `limit`.
fn proof_limit(rule: &Rule, engine: EngineChoice, limit: u64) -> u64 {
    // As in `until_proven`: the sparse engine takes splitting codes without a shift.
    let sparse = rule.base_and_shift().1 == 0
        && sparse_code(rule, engine, limit)
            .is_some_and(|code| Plan::new(&code).is_ok_and(|p| p.has_splits()));
    let work = |n| grundy_heap::engine::work_estimate(rule, n);
    if sparse || work(limit) <= DEFAULT_WORK_BUDGET {
        return limit;
    }
    // The largest n within the budget, by bisection (the estimate grows with n).
    let (mut lo, mut hi) = (0, limit);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if work(mid) <= DEFAULT_WORK_BUDGET {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo.max(1)
}

/// Heaps computed when the caller gives no count.
pub const DEFAULT_UPTO: u64 = 100;

/// A sum of heaps of one rule: each heap's value, their XOR, the outcome and every winning
/// move.
///
/// Serialized: `{"rule", "heaps", "heap_values", "grundy", "outcome", "winning_moves",
/// "unlisted_heaps", …}` with each move the workspace's one [`crate::Move`], as
/// [`heap_move`] builds it: `{"text", "short", "to", "outcome", "grundy", "at"}`, `at` holding
/// `{"heap", "from", "removed", "leaves"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Position {
    /// The rule.
    pub rule: String,
    /// Value, outcome and winning moves.
    #[serde(flatten)]
    pub analysis: SumAnalysis,
    /// For each winning move, the values of the heaps it leaves (shown to people; the JSON
    /// reader has `heap_values` and can look the rest up).
    #[serde(skip)]
    pub leaves_values: Vec<Vec<u32>>,
}

impl Position {
    /// The position in words: the heaps' values, their XOR, who wins and every winning move.
    pub fn describe(&self, rule: &Rule) -> String {
        let a = &self.analysis;
        let join = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(" ");
        let mut out = format!(
            "{}: heaps {} have values {}; their XOR is {}\n",
            describe_rule(rule),
            join(&mut a.heaps.iter().map(|h| h.to_string())),
            join(&mut a.heap_values.iter().map(|h| h.to_string())),
            a.grundy
        );
        match a.outcome {
            crate::Outcome::P | crate::Outcome::D => {
                out.push_str("P: the player to move loses (every move leaves a nonzero XOR)\n")
            }
            crate::Outcome::N => {
                let listed = if a.unlisted_heaps.is_empty() {
                    ""
                } else {
                    " listed"
                };
                let _ = writeln!(
                    out,
                    "N: the player to move wins; winning moves ({}{listed}):",
                    a.winning_moves.len()
                );
                for (m, v) in a.winning_moves.iter().zip(&self.leaves_values) {
                    let m = &m.text;
                    let left = match v.len() {
                        0 => "nothing is left there".to_string(),
                        1 => format!("the heap left has value {}", v[0]),
                        _ => {
                            let vs: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                            format!("the heaps left have values {}", vs.join(" and "))
                        }
                    };
                    let _ = writeln!(out, "  {m} ({left}; the XOR becomes 0)");
                }
                for &i in &a.unlisted_heaps {
                    let _ = writeln!(
                        out,
                        "  (the heap of {} has winning moves too, not listed: it has too many splits)",
                        a.heaps[i]
                    );
                }
                for &i in &a.unchecked_heaps {
                    let _ = writeln!(
                        out,
                        "  (the heap of {} may have winning moves too, not checked: it has too many splits)",
                        a.heaps[i]
                    );
                }
            }
        }
        out
    }
}

/// Value, outcome and every winning move of the sum of heaps `heaps` of `rule`.
///
/// Heaps up to [`DIRECT_POSITION_LIMIT`] are computed directly; larger ones through the
/// rule's proven period (refused when no period can be proven). Winning moves are checked in
/// every heap, since a move in a heap game may raise a heap's value; the heaps whose moves are
/// too many to list (splitting rules above [`LIST_SPLITS_LIMIT`]) are named in the result.
pub fn analyze_position(rule: &Rule, heaps: &[u64], c: &mut Compute<'_>) -> Result<Position> {
    if heaps.is_empty() {
        return Err(Error::Invalid("a position needs at least one heap".into()));
    }
    let max = heaps.iter().copied().max().unwrap_or(0);
    let analysis = match periodicity::rule_bound(rule) {
        Some(b) if max > DIRECT_POSITION_LIMIT => {
            let limit = if sparse_code(rule, c.engine, POSITION_PROOF_LIMIT_FAST).is_some() {
                POSITION_PROOF_LIMIT_FAST
            } else {
                proof_limit(rule, c.engine, POSITION_PROOF_LIMIT)
            };
            let seq = until_proven(rule, 1024.min(limit), limit, c)?;
            let Some(p) = seq.period.filter(|p| p.status == Status::Proven) else {
                return Err(Error::Invalid(format!(
                    "heap {max}: too large to compute directly, and no period of {rule} was proven from G(0..={})",
                    seq.upto
                )));
            };
            let values = seq.values;
            let value = |h: u64| p.value_at(&values, h).unwrap_or(0) as u32;
            let list = |h: u64| b.max_heaps <= 1 || h <= LIST_SPLITS_LIMIT;
            let a = grundy_heap::sum::analyze_with(rule, heaps, value, list)?;
            let leaves = leaves_values(&a, value);
            (a, leaves)
        }
        _ => {
            crate::limits::check_memory(memory_estimate(rule, max), &format!("heap {max}"))?;
            let (values, _) = values(rule, max, c)?;
            let a = grundy_heap::sum::analyze(rule, heaps, &values)?;
            let leaves = leaves_values(&a, |h| values[h as usize]);
            (a, leaves)
        }
    };
    let (analysis, leaves_values) = analysis;
    Ok(Position {
        rule: rule.to_string(),
        analysis,
        leaves_values,
    })
}

/// The values of the heaps each winning move leaves.
fn leaves_values(a: &SumAnalysis, value: impl Fn(u64) -> u32) -> Vec<Vec<u32>> {
    a.winning_leaves
        .iter()
        .map(|leaves| leaves.iter().map(|&h| value(h)).collect())
        .collect()
}

/// A one-line description of a rule: `code 0.137`, `sub:1,3,4 (code 0.3033)`,
/// `kayles (pins in a row; 0.77)`.
pub fn describe_rule(rule: &Rule) -> String {
    let (_, shift) = rule.base_and_shift();
    let code = rule.take_break().map(|c| format_code(&c));
    match (rule, code) {
        (Rule::Code(_), _) => format!("code {rule}"),
        (Rule::Named { game, .. }, _) if shift > 0 => {
            format!(
                "{} ({}; G(n) = G_{}(n + {shift}))",
                game.name, game.size, game.rule
            )
        }
        (Rule::Named { game, .. }, _) => format!("{} ({}; {})", game.name, game.size, game.rule),
        (_, Some(c)) => format!("{rule} (code {c})"),
        (_, None) => rule.to_string(),
    }
}

/// One sentence on a period found in G(0..=n): what it is and how sure.
pub fn describe_period(rule: &Rule, p: Option<&Periodicity>, n: u64) -> String {
    let Some(p) = p else {
        return format!("no period found in G(0..{n})");
    };
    let saltus = if p.saltus != 0 {
        format!(", saltus {}", p.saltus)
    } else {
        String::new()
    };
    let why = match p.status {
        Status::Proven => {
            match periodicity::rule_bound(rule).map(|b| b.bound(p.preperiod, p.period)) {
                Some(b) => format!(
                    "proven: the Guy–Smith check holds for {} <= n < {b}",
                    p.preperiod
                ),
                None => "proven".into(),
            }
        }
        Status::Observed => format!("observed up to {n}, not proven"),
    };
    format!(
        "period {}, preperiod {}{saltus} ({why})",
        p.period, p.preperiod
    )
}

/// A summary-only [`record`] run with a checkpoint or save directory whose values would take
/// more than this in memory (2 bytes a heap: from 2^29 heaps on) keeps only the memory window
/// the game needs, as if [`RecordOptions::window`] were set, and its note says so. Below it the
/// window costs time (chunks written early, lookups read back) for memory nobody is short of.
pub const AUTO_WINDOW_BYTES: u64 = 1 << 30;

/// A summary-only [`record`] run of the sparse engine without a checkpoint or save directory,
/// of at least this many heaps, keeps the values its memory window drops packed in memory, at
/// as many bits as they need (9 where they pass 255 but not 511, instead of 16; see
/// `grundy_sparse::RunOptions::window`; values below 256 stay one byte a heap, unpacked): the
/// same summary in less memory. Below it the values take at most a few MB anyway.
pub const PACK_FROM: u64 = 1 << 20;

/// What a record-scale run should do besides computing: see [`record`].
#[derive(Clone, Debug, Default)]
pub struct RecordOptions {
    /// Compute G(0..=upto) in natural heap sizes.
    pub upto: u64,
    /// Directory for durable checkpoints; a run with the same directory resumes from it.
    pub checkpoint: Option<std::path::PathBuf>,
    /// Time between checkpoints (default 300 s when zero).
    pub checkpoint_every: std::time::Duration,
    /// Directory to save the whole sequence to, in compressed chunks.
    pub save: Option<std::path::PathBuf>,
    /// Keep in memory only the window the game needs (needs `checkpoint` or `save`, and
    /// `keep_values` false): older values are read back from the chunks. On by default past
    /// [`AUTO_WINDOW_BYTES`].
    pub window: bool,
    /// Return every value (else only the summary).
    pub keep_values: bool,
}

/// The summary of a record-scale run: rare heaps, the largest value, the value histogram and
/// the period.
///
/// Serialized: `{"rule", "code", "upto", "rare_count", "last_rare", "value_mask",
/// "parity_bit", "max_value", "max_first", "histogram": [[value, count], …], "period",
/// "engine"}`, plus `"values"` when they were kept. `rare_count` and `value_mask`
/// are null when the engine did not split values into rare and common; `period` is null when
/// the run was too long for the period search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    /// The rule.
    pub rule: String,
    /// Its take-and-break code.
    pub code: Option<String>,
    /// The last heap computed.
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub upto: u64,
    /// Rare heaps (heap 0 excluded) under the final mask.
    #[serde(serialize_with = "grundy_heap::json_int::option")]
    pub rare_count: Option<u64>,
    /// The last rare heap.
    #[serde(serialize_with = "grundy_heap::json_int::option")]
    pub last_rare: Option<u64>,
    /// The value bits that make a heap rare (the mask without its parity bit).
    pub value_mask: Option<u64>,
    /// True when the heap's parity is part of the rare/common key.
    pub parity_bit: bool,
    /// The largest value.
    pub max_value: u32,
    /// The first heap with the largest value.
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub max_first: u64,
    /// `[value, count]` for every value that occurs.
    #[serde(serialize_with = "serialize_histogram")]
    pub histogram: Vec<u64>,
    /// The period; `None` inside `Some` when none was found, outer `None` when not searched.
    #[serde(serialize_with = "serialize_searched_period")]
    pub period: Option<Option<Periodicity>>,
    /// Which engine ran: `sparse` for codes it runs, unless the rare/common split does not pay
    /// for the code (more than a quarter of its first heaps are rare; with the `Auto` choice
    /// and no checkpoint or save directory), then `reference`.
    pub engine: EngineUsed,
    /// The threads that computed most heaps: the record engine's helpers work only in blocks
    /// where they make it faster (cheap codes and busy machines run on one).
    pub threads: usize,
    /// A remark on how the values were obtained, when there is one (serialized only then): why
    /// the engine was not the one asked for, the memory window turned on by default, or the
    /// directory [`load`] read them from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Heaps that came from a checkpoint (not serialized: a resumed run's result is the same
    /// as an uninterrupted one's).
    #[serde(skip)]
    pub resumed_at: u64,
    /// G(0..=upto) when [`RecordOptions::keep_values`] asked for them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<u32>>,
}

fn serialize_histogram<S: serde::Serializer>(
    h: &[u64],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(
        h.iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(v, &c)| [json_int::Int(v as u64), json_int::Int(c)]),
    )
}

fn serialize_searched_period<S: serde::Serializer>(
    p: &Option<Option<Periodicity>>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match p {
        Some(p) => serialize_period(p, s),
        None => s.serialize_none(),
    }
}

impl Record {
    /// The summary in words, one fact a line, for a person; `verbose` adds the record engine's
    /// own terms (the value mask of the rare/common split).
    pub fn describe(&self, rule: &Rule, verbose: bool) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}: G(0..={})", describe_rule(rule), self.upto);
        if let (Some(count), Some(mask)) = (self.rare_count, self.value_mask) {
            let last = self
                .last_rare
                .map_or("none".into(), |r| format!("the last at heap {r}"));
            let _ = writeln!(
                out,
                "rare heaps (values outside the common pattern, computed apart): {count}, {last}"
            );
            if verbose {
                let parity = if self.parity_bit {
                    " and the heap's parity"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "  (rare/common key: value mask {mask:#b}{parity}; a heap is rare when its value bits under the mask have even parity)"
                );
            }
        }
        let _ = writeln!(
            out,
            "largest value: {}, first at heap {}",
            self.max_value, self.max_first
        );
        if let Some(note) = &self.note {
            let _ = writeln!(out, "{note}");
        }
        if verbose {
            let engine = match self.engine {
                EngineUsed::Sparse => "the record engine (rare/common)",
                EngineUsed::Reference => "the reference engine",
            };
            let threads = if self.threads == 1 {
                "thread"
            } else {
                "threads"
            };
            let _ = writeln!(out, "engine: {engine}, {} {threads}", self.threads);
        }
        let distinct = self.histogram.iter().filter(|&&c| c > 0).count();
        let _ = writeln!(out, "distinct values: {distinct}");
        match &self.period {
            Some(p) => {
                let _ = writeln!(out, "{}", describe_period(rule, p.as_ref(), self.upto));
            }
            None => {
                let _ = writeln!(
                    out,
                    "period: not searched (more than {} heaps)",
                    grundy_sparse::PERIOD_SEARCH_LIMIT
                );
            }
        }
        out
    }

    /// `value count` lines for every value that occurs.
    pub fn histogram_text(&self) -> String {
        let mut text = String::new();
        for (v, &c) in self.histogram.iter().enumerate() {
            if c > 0 {
                let _ = writeln!(text, "{v} {c}");
            }
        }
        text
    }
}

/// A record-scale run of `rule`: the sparse engine where it applies (durable checkpoints and
/// saves, the memory window), else the plain engines; returns the summary and, if asked, the
/// values.
///
/// With a checkpoint directory, stopping (the stop flag of `c`) writes a final checkpoint of
/// everything finished before returning [`Error::Stopped`]; running again with the same
/// directory resumes from it ([`Progress::resumed_at`]).
pub fn record(rule: &Rule, opts: &RecordOptions, c: &mut Compute<'_>) -> Result<Record> {
    let durable = opts.checkpoint.is_some() || opts.save.is_some();
    if opts.window && (opts.keep_values || !durable) {
        return Err(Error::Invalid(
            "the memory window needs a summary-only run with a checkpoint or save directory (the values it drops are read back from disk)".into(),
        ));
    }
    check_sparse(rule, c.engine)?;
    let (base, shift) = rule.base_and_shift();
    let code = match base {
        Rule::Code(code) if c.engine != EngineChoice::Reference => match Plan::new(code) {
            Ok(_) => Some(code.clone()),
            Err(e) if durable => return Err(Error::Invalid(format!("'{rule}': {e}"))),
            Err(_) => None,
        },
        _ => None,
    };
    // Without checkpoints or saves, a code for which the rare/common split does not pay (judged
    // on its first heaps) runs on the reference engine, which is as fast there.
    let unpaying = |code: &TakeBreak| {
        c.engine == EngineChoice::Auto
            && !durable
            && !grundy_sparse::pays(code, opts.upto, c.threads).unwrap_or(true)
    };
    let fallback = code.as_ref().is_some_and(unpaying);
    let code = code.filter(|_| !fallback);
    let Some(code) = code else {
        if durable {
            return Err(Error::Invalid(format!(
                "'{rule}': checkpoints and saves need the sparse engine (a take-and-break code)"
            )));
        }
        let choice = std::mem::replace(&mut c.engine, EngineChoice::Reference);
        let seq = sequence(rule, opts.upto, c);
        c.engine = choice;
        let mut rec = record_of_values(seq?, opts.keep_values);
        if fallback {
            rec.note = Some(format!(
                "engine: reference, as the rare/common split does not pay for this code (more than a quarter of its first {} heaps are rare)",
                grundy_sparse::PAYS_AFTER
            ));
        }
        return Ok(rec);
    };
    let total = opts
        .upto
        .checked_add(shift)
        .ok_or_else(|| Error::Invalid(format!("{} heaps is too many", opts.upto)))?;
    // 2 bytes a heap in the engine; the values handed back take 4 more.
    let per_heap = if opts.keep_values { 6 } else { 2 };
    let full = total.saturating_add(1).saturating_mul(per_heap);
    let auto_window = !opts.window && window_by_default(opts, full);
    let packs = !durable && !opts.keep_values && total >= PACK_FROM;
    let window = opts.window || auto_window || packs;
    // A windowed run holds a bounded part of the values, after a resume too; not when it
    // also writes a save directory, as resuming then reads every saved value back, nor when
    // it packs the values it drops in memory (then they all stay in memory, in fewer bytes).
    if !window || opts.save.is_some() || packs {
        crate::limits::check_memory(full, &format!("G(0..={})", opts.upto))?;
    }
    let run_opts = grundy_sparse::RunOptions {
        upto: total,
        threads: c.threads,
        checkpoint: opts.checkpoint.clone(),
        checkpoint_every: if opts.checkpoint_every.is_zero() {
            std::time::Duration::from_secs(300)
        } else {
            opts.checkpoint_every
        },
        save: opts.save.clone(),
        find_period: true,
        window,
        window_depth: None,
    };
    let out = grundy_sparse::run(&code, &run_opts, &mut |p| {
        c.report(Progress {
            done: p.done,
            total: p.total,
            resumed_at: p.resumed_at,
        })
    })?;
    let stats = out.engine.stats();
    let computed = out
        .summary
        .n
        .saturating_add(1)
        .saturating_sub(out.resumed_at);
    // The threads that computed most heaps: the helpers work only in blocks where they pay.
    let threads = if stats.crew_heaps.saturating_mul(2) >= computed.max(1) {
        grundy_sparse::max_threads(c.threads)
    } else {
        1
    };
    let mut rec = sparse_record(rule, &code, out.summary, &out.engine, opts.keep_values);
    rec.threads = threads;
    rec.resumed_at = out.resumed_at;
    rec.note = auto_window.then(|| {
        format!(
            "memory window: on, as G(0..={}) would take {} MiB in memory; values outside it were read back from the chunks on disk",
            opts.upto,
            full >> 20
        )
    });
    Ok(rec)
}

/// The [`Record`] of a summary of the sparse engine's run of `code`, the base code of `rule`
/// (values G(0..=upto + shift)); `keep_values` hands back G(0..=upto) in natural heap sizes.
fn sparse_record(
    rule: &Rule,
    code: &TakeBreak,
    s: grundy_sparse::Summary,
    engine: &grundy_sparse::Engine,
    keep_values: bool,
) -> Record {
    let shift = rule.base_and_shift().1;
    let values = keep_values.then(|| engine.values_range(shift, engine.len()));
    let has_mask = s.mask != 0;
    Record {
        rule: rule.to_string(),
        code: Some(format_code(code)),
        upto: s.n.saturating_sub(shift),
        rare_count: has_mask.then_some(s.rare_count),
        last_rare: s.last_rare,
        value_mask: has_mask.then_some(s.mask >> 1),
        parity_bit: s.mask & 1 == 1,
        max_value: s.max_value,
        max_first: s.max_first,
        histogram: s.histogram,
        period: s.period_searched.then_some(s.period),
        engine: EngineUsed::Sparse,
        threads: 1,
        note: None,
        resumed_at: 0,
        values,
    }
}

/// What a checkpoint or save directory holds, read from its state file alone (no chunk is
/// read): see [`inspect`].
///
/// Serialized: `{"code", "target", "saved", "finished"}` (integers above 2^53 as strings).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SavedRun {
    /// The take-and-break code whose values the directory holds (a named game's run holds
    /// its code's values, counted from the code's heap 0).
    pub code: String,
    /// The run's target: the code's G(0..=target).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub target: u64,
    /// Heaps saved: the code's G(0..saved).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub saved: u64,
    /// True when the run reached its target (else it was stopped and can be resumed).
    pub finished: bool,
}

/// What the checkpoint or save directory `dir` of a record run holds (its code, its target,
/// the heaps saved), from its state file alone, whatever its rule. A directory without a
/// state file, or a damaged one, is an error saying so.
pub fn inspect(dir: &std::path::Path) -> Result<SavedRun> {
    let state = grundy_sparse::inspect(dir)?;
    Ok(SavedRun {
        code: state.rule,
        target: state.target,
        saved: state.done,
        finished: state.done > state.target,
    })
}

/// Reads back the checkpoint or save directory `dir` of a [`record`] run of `rule`, writing
/// nothing: the same [`Record`] the run gave (summary, histogram, the period searched in the
/// values read), over G(0..=upto) or every heap saved without `upto`, with the values when
/// `keep_values`. Every value read is checked as a resume checks it.
///
/// A directory of another rule, an `upto` past the heaps saved or a damaged directory is an
/// error in one line naming what the directory holds. The note says where the values came
/// from, and that the run was unfinished when it was.
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
    let (base, shift) = rule.base_and_shift();
    let code = match base {
        Rule::Code(code) if Plan::new(code).is_ok() => code.clone(),
        _ => {
            return Err(Error::Invalid(format!(
                "'{rule}': saved runs hold take-and-break codes that the record engine runs"
            )))
        }
    };
    let code_upto = match upto {
        Some(u) => Some(
            u.checked_add(shift)
                .ok_or_else(|| Error::Invalid(format!("{u} heaps is too many")))?,
        ),
        None => None,
    };
    let state = grundy_sparse::inspect(dir)?;
    let len = code_upto.map_or(state.done, |u| u.saturating_add(1).min(state.done));
    let per_heap = if keep_values { 6 } else { 2 };
    crate::limits::check_memory(
        len.saturating_mul(per_heap),
        &format!("reading {}", dir.display()),
    )?;
    let (state, engine) = grundy_sparse::load(dir, &code, code_upto)?;
    if engine.len() <= shift {
        return Err(Error::Invalid(format!(
            "{} holds no heap of {rule} (G_{}(0..{}) only)",
            dir.display(),
            state.rule,
            state.done
        )));
    }
    let summary = grundy_sparse::summarize(&code, &engine, true);
    let mut rec = sparse_record(rule, &code, summary, &engine, keep_values);
    let unfinished = if state.done > state.target {
        String::new()
    } else {
        format!(
            "; an unfinished run to {} (run it again to resume)",
            state.target.saturating_sub(shift)
        )
    };
    rec.note = Some(format!(
        "read from {}: G(0..={}) saved{unfinished}",
        dir.display(),
        state.done.saturating_sub(1).saturating_sub(shift)
    ));
    Ok(rec)
}

/// Whether a record run whose values take `bytes` in full memory keeps only the window by
/// default: a summary-only run with a directory to read values back from, past
/// [`AUTO_WINDOW_BYTES`].
fn window_by_default(opts: &RecordOptions, bytes: u64) -> bool {
    let durable = opts.checkpoint.is_some() || opts.save.is_some();
    durable && !opts.keep_values && bytes > AUTO_WINDOW_BYTES
}

/// A record from values alone (rules the sparse engine does not run): no rare heaps.
fn record_of_values(seq: Sequence, keep: bool) -> Record {
    let max = seq.values.iter().copied().max().unwrap_or(0);
    let mut histogram = vec![0u64; max as usize + 1];
    for &v in &seq.values {
        histogram[v as usize] += 1;
    }
    Record {
        rule: seq.rule,
        code: seq.code,
        upto: seq.upto,
        rare_count: None,
        last_rare: None,
        value_mask: None,
        parity_bit: false,
        max_value: max,
        max_first: seq.values.iter().position(|&v| v == max).unwrap_or(0) as u64,
        histogram,
        period: Some(seq.period),
        engine: seq.engine,
        threads: 1,
        note: None,
        resumed_at: 0,
        values: keep.then_some(seq.values),
    }
}

/// [`analyze_position_misere`]'s budget unless the caller says otherwise: a million positions
/// (about a second and a few hundred MB) and 1 GiB, each position estimated at
/// [`misere_position_bytes`].
pub const DEFAULT_MISERE_BUDGET: Budget = Budget::new(1_000_000, 1 << 30);

/// The estimated bytes the misère search holds for a position of `heaps` heaps: the sorted
/// heap list (its `Vec` and 8 bytes a heap) and the memo's
/// [`grundy_core::budget::ENTRY_OVERHEAD`].
pub fn misere_position_bytes(heaps: usize) -> usize {
    Budget::entry_bytes::<Vec<u64>>() + 8 * heaps
}

/// A sum of heaps of one rule as one game over whole positions (a sorted list of heaps), for
/// the misère search, where values do not add.
struct HeapSum<'r> {
    rule: &'r Rule,
    /// Set by the caller to stop: every position then offers no move and the search ends.
    stop: Option<&'r AtomicBool>,
    /// G_base(0..=shift) for named games (see `grundy_heap::sum::for_each_move`).
    base_small: Vec<u32>,
}

impl HeapSum<'_> {
    /// The position after replacing heap `i` of `pos` by `leaves`, in `pos`'s order.
    fn after(pos: &[u64], i: usize, leaves: &[u64]) -> Vec<u64> {
        let mut next = Vec::with_capacity(pos.len() + leaves.len());
        next.extend_from_slice(&pos[..i]);
        next.extend_from_slice(leaves);
        next.extend_from_slice(&pos[i + 1..]);
        next
    }
}

impl crate::Game for HeapSum<'_> {
    type Position = Vec<u64>;

    fn options(&self, pos: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if self.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return;
        }
        for (i, &h) in pos.iter().enumerate() {
            if i > 0 && pos[i - 1] == h {
                continue; // equal heaps have the same moves
            }
            grundy_heap::sum::for_each_move(self.rule, h, &self.base_small, |_, leaves| {
                let mut next = HeapSum::after(pos, i, leaves);
                next.sort_unstable();
                out.push(next);
            });
        }
    }
}

/// A sum of heaps under misère play (the player who makes the last move loses): the outcome
/// and every winning move.
///
/// Serialized: `{"rule", "heaps", "play": "misere", "outcome", "winning_moves",
/// "positions_searched"}`, each move as in [`Position`] (outcome `P`, no `grundy`). There is
/// no `grundy`: misère play has no Sprague–Grundy value that adds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MiserePosition {
    /// The rule.
    pub rule: String,
    /// The heap sizes, in the order given.
    #[serde(serialize_with = "grundy_heap::json_int::seq")]
    pub heaps: Vec<u64>,
    /// Always `"misere"`.
    pub play: &'static str,
    /// `N` when the player to move wins under misère play.
    pub outcome: crate::Outcome,
    /// Every move to a misère P-position, built by [`heap_move`].
    pub winning_moves: Vec<crate::Move>,
    /// Whole positions the search opened (0 when the quotient answered).
    pub positions_searched: u64,
    /// How it was answered: `"quotient"` (a product in the rule's misère quotient up to the
    /// largest heap, computed and verified first) or `"search"` (over whole positions).
    pub method: &'static str,
    /// The order of the quotient that answered (absent for a search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quotient_order: Option<usize>,
}

impl MiserePosition {
    /// The position in words: who wins under misère play and every winning move.
    pub fn describe(&self, rule: &Rule) -> String {
        let heaps: Vec<String> = self.heaps.iter().map(|h| h.to_string()).collect();
        let mut out = format!(
            "{}, misère play (the last mover loses): heaps {}\n",
            describe_rule(rule),
            heaps.join(" ")
        );
        match self.outcome {
            crate::Outcome::P | crate::Outcome::D => {
                out.push_str("P: the player to move loses (every move leaves a winning position)\n")
            }
            crate::Outcome::N if self.winning_moves.is_empty() => out
                .push_str("N: no move is possible, so under misère play the player to move wins\n"),
            crate::Outcome::N => {
                let _ = writeln!(
                    out,
                    "N: the player to move wins; winning moves ({}):",
                    self.winning_moves.len()
                );
                for m in &self.winning_moves {
                    let _ = writeln!(out, "  {}", m.text);
                }
            }
        }
        if let Some(order) = self.quotient_order {
            let _ = writeln!(
                out,
                "(answered in the rule's misère quotient, of order {order}: a product, no search)"
            );
        } else {
            let _ = writeln!(
                out,
                "(searched {} whole positions: misère values do not add)",
                self.positions_searched
            );
        }
        out
    }
}

/// The misère outcome and every winning move of the sum of heaps `heaps` of `rule`, by a search
/// over whole positions within `budget` (positions, and memory at [`misere_position_bytes`] a
/// position; [`Error::Limit`] past either, naming the cap reached). The stop flag of `c` ends
/// the search with [`Error::Stopped`].
pub fn analyze_position_misere(
    rule: &Rule,
    heaps: &[u64],
    budget: &Budget,
    c: &Compute<'_>,
) -> Result<MiserePosition> {
    if heaps.is_empty() {
        return Err(Error::Invalid("a position needs at least one heap".into()));
    }
    if !c.stopped() {
        if let Some(answer) = misere_by_quotient(rule, heaps) {
            return Ok(answer);
        }
    }
    let (base, shift) = rule.base_and_shift();
    let base_small = if shift > 0 {
        grundy_heap::engine::sequence(base, shift)?
    } else {
        Vec::new()
    };
    let game = HeapSum {
        rule,
        stop: c.stop,
        base_small,
    };
    let mut solver = crate::Solver::new(grundy_core::budget::MisereBudget::with_entry_bytes(
        game,
        budget,
        misere_position_bytes(heaps.len()),
    ));
    let mut start = heaps.to_vec();
    start.sort_unstable();
    let outcome = solver.misere_outcome(&start);
    let mut winning_moves = Vec::new();
    if outcome == crate::Outcome::N {
        let mut moves = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            let g = solver.game().inner();
            grundy_heap::sum::for_each_move(rule, h, &g.base_small, |removed, leaves| {
                moves.push((i, removed, leaves.to_vec()));
            });
        }
        for (i, removed, leaves) in moves {
            let mut key = HeapSum::after(heaps, i, &leaves);
            key.sort_unstable();
            if solver.misere_outcome(&key) == crate::Outcome::P {
                winning_moves.push(heap_move(
                    heaps,
                    i,
                    removed,
                    &leaves,
                    crate::Outcome::P,
                    None,
                ));
            }
        }
    }
    let budget = solver.game();
    if c.stopped() {
        return Err(Error::Stopped { done: None });
    }
    budget.check("the misère search of this sum of heaps")?;
    Ok(MiserePosition {
        rule: rule.to_string(),
        heaps: heaps.to_vec(),
        play: "misere",
        outcome,
        winning_moves,
        positions_searched: budget.opened(),
        method: "search",
        quotient_order: None,
    })
}

/// The largest heap for which a misère sum tries the quotient first.
pub const QUOTIENT_HEAP_LIMIT: u64 = 64;

/// The misère answer from the rule's quotient up to the largest heap, when one is found within
/// a small budget (a second or so); `None` sends the caller to the search. The quotient is
/// verified exactly before it answers, so its outcome and moves are those of the search.
fn misere_by_quotient(rule: &Rule, heaps: &[u64]) -> Option<MiserePosition> {
    let max = heaps.iter().copied().max()?;
    if max > QUOTIENT_HEAP_LIMIT {
        return None;
    }
    let limits = grundy_misere::quotient::Limits {
        max_order: 512,
        max_search: 300_000,
        max_verify: 300_000,
    };
    let mut engine = grundy_misere::QuotientEngine::new(&rule.to_string(), limits).ok()?;
    engine.extend_to(max.max(1)).ok()?;
    let q = engine.quotient();
    let outcome = q.outcome(heaps).ok()?;
    let winning_moves = q.winning_moves(heaps).ok()?;
    Some(MiserePosition {
        rule: rule.to_string(),
        heaps: heaps.to_vec(),
        play: "misere",
        outcome,
        winning_moves,
        positions_searched: 0,
        method: "quotient",
        quotient_order: Some(q.order),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_on_by_default_only_for_long_summary_runs_with_a_directory() {
        let dir = RecordOptions {
            checkpoint: Some("ck".into()),
            ..RecordOptions::default()
        };
        let big = AUTO_WINDOW_BYTES + 1;
        assert!(window_by_default(&dir, big));
        assert!(!window_by_default(&dir, AUTO_WINDOW_BYTES));
        let saved = RecordOptions {
            save: Some("s".into()),
            ..RecordOptions::default()
        };
        assert!(window_by_default(&saved, big));
        // Nothing to read dropped values back from, or every value asked for: full memory.
        assert!(!window_by_default(&RecordOptions::default(), big));
        let keep = RecordOptions {
            keep_values: true,
            ..dir.clone()
        };
        assert!(!window_by_default(&keep, big));
    }
}
