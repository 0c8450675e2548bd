//! Long heap-game runs: the fast (sparse space) engine, checkpoints, saving and summaries.
//! Flag parsing and output only; the work is in `grundy_sparse`.

use std::fmt::Write as _;
use std::time::Duration;

use crate::common::{print_json, print_out, progress_bar, CliError, CliResult};
use grundy_heap::periodicity::Periodicity;
use grundy_heap::rule::{self, Rule};
use grundy_heap::TakeBreak;
use grundy_sparse::{Plan, RunOptions, Summary};
use serde_json::json;

/// `auto` uses the sparse engine from this many heaps on (below, the reference engine is as
/// fast and starts at once).
const AUTO_MIN_HEAPS: u64 = 4096;

/// Flags of `grundy heap` for record-scale runs (flattened into `heap::Args`).
#[derive(clap::Args, Debug, Clone)]
pub struct LongRunArgs {
    /// Engine: `auto` (the fast engine where it pays), `reference` or `sparse`.
    #[arg(long, default_value = "auto")]
    pub engine: String,
    /// Directory for durable checkpoints; rerunning the same command resumes from it.
    #[arg(long, value_name = "DIR")]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Seconds between checkpoints.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub checkpoint_every: u64,
    /// Write the whole sequence to DIR in compressed chunks.
    #[arg(long, value_name = "DIR")]
    pub save: Option<std::path::PathBuf>,
    /// Print only the summary (rare values, largest value, histogram size, period).
    #[arg(long)]
    pub summary: bool,
    /// Experimental, with --summary and --checkpoint/--save: keep in memory only the window
    /// the game needs (the prefix and the most recent values); older values are read back
    /// from the chunks on disk when a lookup needs them.
    #[arg(long)]
    pub window: bool,
    /// Write the value histogram (`value count` lines over G(0..=N)) to FILE.
    #[arg(long, value_name = "FILE")]
    pub histogram: Option<std::path::PathBuf>,
    /// Worker threads of the sparse engine (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

impl LongRunArgs {
    /// True when a flag asks for a long run that this module handles whole.
    pub fn is_long_run(&self) -> bool {
        self.checkpoint.is_some() || self.save.is_some() || self.summary || self.histogram.is_some()
    }

    fn check_engine(&self) -> Result<(), CliError> {
        match self.engine.as_str() {
            "auto" | "reference" | "sparse" => Ok(()),
            other => Err(CliError::usage(format!(
                "unknown --engine '{other}' (use auto, reference or sparse)"
            ))),
        }
    }
}

fn sparse_error(e: grundy_sparse::Error) -> CliError {
    match e {
        grundy_sparse::Error::Io { .. } => CliError::failure(e.to_string()),
        _ => CliError::usage(e.to_string()),
    }
}

/// Runs `grundy heap` when [`LongRunArgs::is_long_run`] holds.
pub fn run(args: &super::heap::Args) -> CliResult {
    let long = &args.long;
    long.check_engine()?;
    let rule = rule::parse(&args.rule).map_err(|e| CliError::usage(e.to_string()))?;
    let n = args.upto.unwrap_or(100);
    let (base, shift) = rule.base_and_shift();
    let code = match base {
        Rule::Code(c) if long.engine != "reference" => Some(c.clone()),
        _ => None,
    };
    let plan = code.as_ref().map(Plan::new);
    let durable = long.checkpoint.is_some() || long.save.is_some();
    if long.window && !(long.summary && durable) {
        return Err(CliError::usage(
            "--window needs --summary and --checkpoint or --save (the values it drops are read back from disk)",
        ));
    }
    let sparse_code = match (code, plan) {
        (Some(c), Some(Ok(_))) => Some(c),
        (_, Some(Err(e))) if durable || long.engine == "sparse" => {
            return Err(CliError::usage(format!("'{}': {e}", args.rule)))
        }
        _ if durable => {
            return Err(CliError::usage(format!(
                "'{}': --checkpoint and --save need the sparse engine (a take-and-break code)",
                args.rule
            )))
        }
        _ => None,
    };
    let (values, summary) = match sparse_code {
        Some(code) => {
            let total = n
                .checked_add(shift)
                .ok_or_else(|| CliError::usage(format!("--upto {n} is too large")))?;
            check_memory(total)?;
            let opts = RunOptions {
                upto: total,
                threads: long.threads,
                checkpoint: long.checkpoint.clone(),
                checkpoint_every: Duration::from_secs(long.checkpoint_every),
                save: long.save.clone(),
                find_period: true,
                window: long.window,
                window_depth: None,
            };
            let bar = progress_bar(total.saturating_add(1), "heap");
            let mut first = true;
            let out = grundy_sparse::run(&code, &opts, &mut |p| {
                if first {
                    bar.set_position(p.resumed_at);
                    bar.reset_eta();
                    first = false;
                }
                bar.set_position(p.done);
            });
            bar.finish_and_clear();
            let out = out.map_err(sparse_error)?;
            let values = if long.summary {
                Vec::new()
            } else {
                out.engine.values_range(shift, out.engine.len())
            };
            (values, out.summary)
        }
        None => {
            let values = super::heap::compute(&rule, n, long)?;
            let summary = summary_of_values(&rule, &values);
            (values, summary)
        }
    };
    if let Some(path) = &long.histogram {
        let mut text = String::new();
        for (v, &c) in summary.histogram.iter().enumerate() {
            if c > 0 {
                let _ = writeln!(text, "{v} {c}");
            }
        }
        std::fs::write(path, text)
            .map_err(|e| CliError::failure(format!("writing {}: {e}", path.display())))?;
    }
    if args.json {
        let mut obj = summary_json(&rule, &summary);
        if !long.summary {
            obj["values"] = json!(values);
        }
        return print_json(&obj);
    }
    let mut out = String::new();
    if !long.summary {
        out = if args.format == "bfile" {
            super::heap::bfile_text(&values)
        } else {
            super::heap::table_text(&rule, &values)
        };
    }
    out.push_str(&summary_text(&rule, &summary));
    print_out(&out)
}

/// Refuses a run whose values (2 bytes per heap while they fit in u16) would not fit in the
/// memory available, before allocating anything.
fn check_memory(upto: u64) -> CliResult {
    let need = upto.saturating_add(1).saturating_mul(2);
    let have = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map(|kb| kb.saturating_mul(1024))
    });
    match have {
        Some(have) if need > have => Err(CliError::usage(format!(
            "--upto {upto} needs about {} MiB for the values, more than the {} MiB available",
            need >> 20,
            have >> 20
        ))),
        _ => Ok(()),
    }
}

/// A summary from values alone (codes the sparse engine does not run): no rare heaps.
fn summary_of_values(rule: &Rule, values: &[u32]) -> Summary {
    let max = values.iter().copied().max().unwrap_or(0);
    let mut histogram = vec![0u64; max as usize + 1];
    for &v in values {
        histogram[v as usize] += 1;
    }
    Summary {
        rule: rule.to_string(),
        n: values.len().saturating_sub(1) as u64,
        rare_count: 0,
        last_rare: None,
        mask: 0,
        max_value: max,
        max_first: values.iter().position(|&v| v == max).unwrap_or(0) as u64,
        histogram,
        period: grundy_heap::periodicity::analyze(rule, values),
        period_searched: true,
    }
}

fn summary_text(rule: &Rule, s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: G(0..={})", super::heap::rule_title(rule), s.n);
    if s.mask != 0 {
        let parity = if s.mask & 1 == 1 {
            " and the heap's parity"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "rare heaps: {} (value mask {:#b}{parity}), last rare heap: {}",
            s.rare_count,
            s.mask >> 1,
            s.last_rare.map_or("none".into(), |r| r.to_string())
        );
    }
    let _ = writeln!(
        out,
        "largest value: {}, first at heap {}",
        s.max_value, s.max_first
    );
    let distinct = s.histogram.iter().filter(|&&c| c > 0).count();
    let _ = writeln!(
        out,
        "distinct values: {distinct} (write them with --histogram FILE)"
    );
    if s.period_searched {
        let _ = writeln!(
            out,
            "{}",
            super::heap::period_text(rule, s.period.as_ref(), s.n)
        );
    } else {
        let _ = writeln!(
            out,
            "period: not searched (more than {} heaps)",
            grundy_sparse::run::PERIOD_SEARCH_LIMIT
        );
    }
    out
}

fn summary_json(rule: &Rule, s: &Summary) -> serde_json::Value {
    let histogram: Vec<[u64; 2]> = s
        .histogram
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(v, &c)| [v as u64, c])
        .collect();
    json!({
        "rule": rule.to_string(),
        "code": rule.take_break().map(|c| rule::format_code(&c)),
        "upto": s.n,
        "rare_count": if s.mask != 0 { json!(s.rare_count) } else { json!(null) },
        "last_rare": s.last_rare,
        "value_mask": if s.mask != 0 { json!(s.mask >> 1) } else { json!(null) },
        "parity_bit": s.mask & 1 == 1,
        "max_value": s.max_value,
        "max_first": s.max_first,
        "histogram": histogram,
        "period": if s.period_searched { super::heap::period_json(s.period.as_ref()) } else { json!(null) },
    })
}

/// G(0..=n) of a take-and-break code from the fast engine, when `long.engine` and the code call
/// for it; `None` means "use the reference engine".
pub fn fast_values(
    code: &TakeBreak,
    n: u64,
    long: &LongRunArgs,
) -> Result<Option<Vec<u32>>, CliError> {
    long.check_engine()?;
    match long.engine.as_str() {
        "reference" => return Ok(None),
        "sparse" => {
            Plan::new(code)
                .map_err(|e| CliError::usage(format!("'{}': {e}", rule::format_code(code))))?;
        }
        _ => match Plan::new(code) {
            Ok(p) if p.has_splits() && n >= AUTO_MIN_HEAPS => {}
            _ => return Ok(None),
        },
    }
    let bar = progress_bar(n.saturating_add(1), "heap");
    let values =
        grundy_sparse::values_with_progress(code, n, long.threads, &mut |d| bar.set_position(d));
    bar.finish_and_clear();
    values.map(Some).map_err(sparse_error)
}

/// Values G(0..=n) and the period found in them.
pub type Proof = (Vec<u32>, Option<Periodicity>);

/// Computes G(0..=n) for n = `start`, 2·`start`, … up to `limit` with the fast engine until a
/// period is proven; `None` when the fast engine does not apply (use
/// `grundy_heap::periodicity::until_proven`). Used by `--period` and `--prove-upto`.
pub fn until_proven(
    rule: &Rule,
    start: u64,
    limit: u64,
    long: &LongRunArgs,
) -> Result<Option<Proof>, CliError> {
    long.check_engine()?;
    let (base, shift) = rule.base_and_shift();
    let Rule::Code(code) = base else {
        return Ok(None);
    };
    if shift != 0 || long.engine == "reference" {
        return Ok(None);
    }
    match Plan::new(code) {
        Ok(p) if p.has_splits() => {}
        _ => return Ok(None),
    }
    let bar = progress_bar(limit.saturating_add(1), "heap");
    let r = grundy_sparse::until_proven(code, start, limit, long.threads, &mut |d| {
        bar.set_position(d)
    });
    bar.finish_and_clear();
    r.map(Some).map_err(sparse_error)
}
