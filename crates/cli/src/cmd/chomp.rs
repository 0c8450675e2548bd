//! `grundy chomp`: Chomp: outcome and every winning bite.

use crate::cmd::usage;
use crate::common::{print_out, print_result, CliResult, MaxPositions, Output};
use grundy::games::chomp::{self, MAX_COLS, MAX_ROWS};
use grundy::games::parse_bounded;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: a ROWS x COLS bar with the poisoned square at (0, 0), the \
top-left corner. A bite at (r, c) removes every square at row >= r and column >= c; whoever must \
take the poison loses. Strategy stealing proves every bar but 1x1 a first-player win; the \
winning bite is found by searching all C(ROWS+COLS, ROWS) staircases, at most 1000000 unless \
--max-positions raises it (11x11 fits, 12x11 does not).

Examples:
  grundy chomp 4 7
  grundy chomp 10 10 --json
  grundy chomp 12 11 --max-positions 2000000"
)]
pub struct Args {
    /// Rows of the bar (1..=16).
    #[arg(value_name = "ROWS", allow_negative_numbers = true)]
    rows: String,
    /// Columns of the bar (1..=255).
    #[arg(value_name = "COLS", allow_negative_numbers = true)]
    cols: String,
    #[command(flatten)]
    max_positions: MaxPositions,
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> CliResult {
    let rows = parse_bounded(&args.rows, "rows", 1, MAX_ROWS as u64).map_err(usage)? as usize;
    let cols = parse_bounded(&args.cols, "columns", 1, MAX_COLS as u64).map_err(usage)? as usize;
    let budget = args.max_positions.budget(chomp::DEFAULT_BUDGET)?;
    let a = chomp::analyze(rows, cols, &budget).map_err(grundy::Error::from)?;
    if args.output.json {
        return print_result(&a);
    }
    print_out(&a.describe())
}
