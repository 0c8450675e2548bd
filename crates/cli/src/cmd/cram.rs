//! `grundy cram`: Cram: Grundy value of domino placement, outcome and winning placements.

use crate::cmd::usage;
use crate::common::{
    print_out, print_result, progress_bar, CliError, CliResult, MaxPositions, Output,
};
use grundy::games::cram::{self, CramOptions, Shape};
use grundy::games::parse_bounded;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: players alternately cover two adjacent empty cells with a domino, \
horizontal or vertical; whoever cannot place one loses. Rows and columns count from 0.

The search stops after 2000000 positions (a few seconds, a few hundred MB); --max-positions \
raises the limit.

Examples:
  grundy cram 4 8                  the empty 4x8 board (value 0: even x even boards are P)
  grundy cram 5 6 --json
  grundy cram 7 5 --max-positions 50000000
  grundy cram --board '.........|##.######'   blocked cells '#', rows split by '|'"
)]
pub struct Args {
    /// Rows of an empty board.
    #[arg(value_name = "ROWS", allow_negative_numbers = true)]
    rows: Option<String>,
    /// Columns of an empty board.
    #[arg(value_name = "COLS", allow_negative_numbers = true)]
    cols: Option<String>,
    /// A board with blocked cells: rows of '.' (empty) and '#' (blocked) separated by '|' or
    /// newlines; at most 64 cells.
    #[arg(long, value_name = "BOARD", conflicts_with_all = ["rows", "cols"])]
    board: Option<String>,
    #[command(flatten)]
    max_positions: MaxPositions,
    /// Search without a position limit (can take hours and all memory).
    #[arg(long, conflicts_with = "max_positions")]
    force: bool,
    /// Search even where the half-turn mirror strategy already proves the value 0.
    #[arg(long)]
    no_mirror: bool,
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> CliResult {
    let board = match (&args.board, &args.rows, &args.cols) {
        (Some(b), _, _) => Shape::parse(b).map_err(|e| CliError::usage(format!("board: {e}")))?,
        (None, Some(r), Some(c)) => {
            let r = parse_bounded(r, "rows", 1, 64).map_err(usage)? as usize;
            let c = parse_bounded(c, "columns", 1, 64).map_err(usage)? as usize;
            Shape::rectangle(r, c).map_err(usage)?
        }
        _ => return Err(CliError::usage("give ROWS COLS, or --board BOARD")),
    };
    let budget = match (args.max_positions.is_set(), args.force) {
        (false, true) => grundy::Budget::UNLIMITED,
        _ => args.max_positions.budget(cram::DEFAULT_BUDGET)?,
    };
    let options = CramOptions {
        mirror: !args.no_mirror,
        budget,
    };
    // Long searches show how far they are from the limit (stderr, terminals only).
    let bar = progress_bar(budget.max_positions, "positions searched (of the limit)");
    let mut tick = |n: u64| bar.set_position(n);
    let result = cram::analyze_with_progress(&board, &options, Some(&mut tick));
    bar.finish_and_clear();
    let a = result.map_err(grundy::Error::from)?;
    if args.output.json {
        return print_result(&a);
    }
    print_out(&a.describe())
}
