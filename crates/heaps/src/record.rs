//! Record-scale runs: the record engine where it applies (durable checkpoints and saves, the
//! memory window), else the plain engines; the summary (rare heaps, the largest value, the
//! histogram, the period) and, if asked, the values; and saved runs read back.

use std::fmt::Write as _;

use serde::Serialize;

use grundy_heap::json_int;
use grundy_heap::periodicity::Periodicity;
use grundy_heap::rule::{format_code, Rule};
use grundy_heap::TakeBreak;
use grundy_sparse::Plan;

use crate::compute::{Compute, EngineChoice, EngineUsed, Progress};
use crate::error::{Error, Result};
use crate::sequence::{describe_period, describe_rule, sequence, serialize_period, Sequence};

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
    crate::engines::check_sparse(rule, c.engine)?;
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
        c.check_memory(full, &format!("G(0..={})", opts.upto))?;
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
/// `memory` caps the bytes the values read take (none: no cap).
///
/// ```
/// use grundy_heaps::{Compute, RecordOptions};
/// let dir = std::env::temp_dir().join(format!("grundy-heaps-load-doc-{}", std::process::id()));
/// let rule = grundy_heap::parse("0.07")?;
/// let opts = RecordOptions { upto: 1000, save: Some(dir.clone()), ..RecordOptions::default() };
/// let run = grundy_heaps::record(&rule, &opts, &mut Compute::default())?;
/// let back = grundy_heaps::load(&rule, &dir, None, false, None)?;
/// assert_eq!((back.upto, back.histogram.clone()), (1000, run.histogram));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), grundy_heaps::Error>(())
/// ```
pub fn load(
    rule: &Rule,
    dir: &std::path::Path,
    upto: Option<u64>,
    keep_values: bool,
    memory: Option<u64>,
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
    if let Some(budget) = memory {
        let c = Compute::new().memory(budget);
        c.check_memory(
            len.saturating_mul(per_heap),
            &format!("reading {}", dir.display()),
        )?;
    }
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
