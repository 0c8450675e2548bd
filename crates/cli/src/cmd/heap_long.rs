//! Long heap-game runs: the fast (sparse space) engine, checkpoints, saving and summaries.

use crate::common::{CliError, CliResult};

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
    /// Write the value histogram (`value count` lines) to FILE.
    #[arg(long, value_name = "FILE")]
    pub histogram: Option<std::path::PathBuf>,
}

impl LongRunArgs {
    /// True when a flag asks for a long run that this module handles whole.
    pub fn is_long_run(&self) -> bool {
        self.checkpoint.is_some() || self.save.is_some() || self.summary || self.histogram.is_some()
    }
}

/// Runs `grundy heap` when [`LongRunArgs::is_long_run`] holds.
pub fn run(_args: &super::heap::Args) -> CliResult {
    Err(CliError::failure("long runs are not implemented yet"))
}

/// G(0..=n) of a take-and-break code from the fast engine, when `long.engine` and the code call
/// for it; `None` means "use the reference engine".
pub fn fast_values(
    _code: &grundy_heap::TakeBreak,
    _n: u64,
    _long: &LongRunArgs,
) -> Result<Option<Vec<u32>>, CliError> {
    Ok(None)
}
