//! The record-scale flags of `grundy heap` (checkpoints, saves, summaries, the memory window)
//! and their rendering; the run is `grundy::heap::record`.

use std::time::Duration;

use crate::common::{count, print_result, stream_out, CliError, CliResult};
use grundy::heap::{self, RecordOptions, Rule};

/// Flags of `grundy heap` for record-scale runs (flattened into the command's arguments).
#[derive(clap::Args, Debug, Clone)]
pub struct RecordArgs {
    /// Directory for durable checkpoints; rerunning the same command resumes from it, and
    /// Ctrl-C writes a last checkpoint before it stops.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<std::path::PathBuf>,
    /// Seconds between checkpoints.
    #[arg(long, value_name = "SECONDS", default_value = "300")]
    checkpoint_every: String,
    /// Write the whole sequence to DIR in compressed chunks. Running again with a larger
    /// --upto and the same DIR extends the saved run from where it ended.
    #[arg(long, value_name = "DIR")]
    save: Option<std::path::PathBuf>,
    /// Read a --save or --checkpoint directory of RULE back instead of computing: its values
    /// (G(0..=N) with --upto N, else every heap saved), or its summary with --summary.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["checkpoint", "save", "window"])]
    load: Option<std::path::PathBuf>,
    /// Print only the summary (rare values, largest value, histogram size, period).
    #[arg(long)]
    summary: bool,
    /// With --summary and --checkpoint/--save: keep in memory only the window the game needs
    /// (the prefix and the most recent values); older values are read back from the chunks on
    /// disk when a lookup needs them. On by default from 2^29 heaps (1 GiB of values).
    #[arg(long)]
    window: bool,
    /// With --summary: also show the record engine's own terms (the value mask).
    #[arg(long)]
    verbose: bool,
    /// Write the value histogram (`value count` lines over G(0..=N)) to FILE.
    #[arg(long, value_name = "FILE")]
    histogram: Option<std::path::PathBuf>,
}

impl RecordArgs {
    /// True when a flag asks for a record run, which this module handles whole.
    pub fn is_record_run(&self) -> bool {
        self.checkpoint.is_some()
            || self.save.is_some()
            || self.load.is_some()
            || self.summary
            || self.histogram.is_some()
    }
}

/// Runs `grundy heap` when [`RecordArgs::is_record_run`] holds.
pub fn run(args: &super::Args, rule: &Rule, upto: Option<u64>) -> CliResult {
    let r = &args.record;
    if r.window && !(r.summary && (r.checkpoint.is_some() || r.save.is_some())) {
        return Err(CliError::usage(
            "--window needs --summary and --checkpoint or --save (the values it drops are read back from disk)",
        ));
    }
    if let Some(dir) = &r.load {
        let rec = heap::load(rule, dir, upto, !r.summary).map_err(CliError::from)?;
        return render(args, rule, &rec);
    }
    let every = count(&r.checkpoint_every, "--checkpoint-every")?;
    let opts = RecordOptions {
        upto: upto.unwrap_or(heap::DEFAULT_UPTO),
        checkpoint: r.checkpoint.clone(),
        checkpoint_every: Duration::from_secs(every.max(1)),
        save: r.save.clone(),
        window: r.window,
        keep_values: !r.summary,
    };
    // The directory a stopped run resumes from: the checkpoint, else the save.
    let kept = match (&r.checkpoint, &r.save) {
        (Some(d), _) => Some(("checkpoint", d)),
        (None, Some(d)) => Some(("save", d)),
        (None, None) => None,
    };
    let mut c = args.compute();
    let rec = match (heap::record(rule, &opts, &mut c), kept) {
        (Ok(rec), _) => rec,
        (Err(grundy::Error::Stopped { done }), Some((what, dir))) => {
            return Err(CliError {
                code: 130,
                message: format!(
                    "stopped{}; the {what} in {} keeps it: run the same command again to resume",
                    done.map(|d| format!(" at heap {d}")).unwrap_or_default(),
                    dir.display()
                ),
            });
        }
        (Err(e), _) => return Err(super::flag_error("--upto", opts.upto, e)),
    };
    drop(c);
    render(args, rule, &rec)
}

/// Prints a record (run or read back) as the flags ask: the histogram file, the JSON object,
/// or the values and the summary in words.
fn render(args: &super::Args, rule: &Rule, rec: &heap::Record) -> CliResult {
    let r = &args.record;
    if let Some(path) = &r.histogram {
        std::fs::write(path, rec.histogram_text())
            .map_err(|e| CliError::failure(format!("writing {}: {e}", path.display())))?;
    }
    if args.output.json {
        return print_result(rec);
    }
    let values = rec.values.as_deref();
    stream_out(|out| {
        if let Some(v) = values {
            if args.format == super::Format::Bfile {
                super::write_bfile(out, v)?;
            } else {
                super::write_table(out, rule, v)?;
            }
        }
        out.write_all(rec.describe(rule, r.verbose).as_bytes())
    })
}
