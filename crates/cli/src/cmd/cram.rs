//! `grundy cram`: Cram: Grundy value of domino placement, outcome and winning placements, on
//! the board search engine (`grundy::board::cram::analyze`), with a table file to resume from.

use crate::cmd::usage;
use crate::common::{
    print_out, print_result, progress_bar, CliError, CliResult, MaxPositions, Output, STOP,
};
use grundy::board::cram::{self, Board, CramOptions};
use grundy::games::parse_bounded;
use grundy::ErrorKind;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: players alternately cover two adjacent empty cells with a domino, \
horizontal or vertical; whoever cannot place one loses. Rows and columns count from 0.

The search stops after 2000000 search nodes (a few seconds); --max-positions raises the limit, \
--force lifts it. With --table FILE the search's table is read from FILE when it exists and \
written there when the search ends, reaches its limit or is stopped by Ctrl-C: run the same \
command again to resume (a table of Cram shapes serves every board).

Examples:
  grundy cram 4 8                  the empty 4x8 board (value 0: even x even boards are P)
  grundy cram 5 6 --json
  grundy cram 6 7 --max-positions 1e9 --table 6x7.table   Ctrl-C, then the same to resume
  grundy cram 5 8 --threads 2       two threads: about twice as fast on an idle machine
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
    /// newlines; at most 128 cells.
    #[arg(long, value_name = "BOARD", conflicts_with_all = ["rows", "cols"])]
    board: Option<String>,
    #[command(flatten)]
    max_positions: MaxPositions,
    /// Search without a node limit (can take hours; the table stays within the memory limit).
    #[arg(long, conflicts_with = "max_positions")]
    force: bool,
    /// Search even where the half-turn mirror strategy already proves the value 0.
    #[arg(long)]
    no_mirror: bool,
    /// The search's table file: read when it exists (refused when it is not a Cram table),
    /// written when the search ends, reaches its limit or is stopped (Ctrl-C).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Threads searching large parts of the board side by side (about twice as fast with 2 on
    /// an idle machine; no faster on a busy one).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> CliResult {
    let board = match (&args.board, &args.rows, &args.cols) {
        (Some(b), _, _) => Board::parse(b).map_err(|e| CliError::usage(format!("board: {e}")))?,
        (None, Some(r), Some(c)) => {
            let r = parse_bounded(r, "rows", 1, 128).map_err(usage)? as usize;
            let c = parse_bounded(c, "columns", 1, 128).map_err(usage)? as usize;
            Board::rectangle(r, c).map_err(|e| CliError::usage(format!("board {r}x{c}: {e}")))?
        }
        _ => return Err(CliError::usage("give ROWS COLS, or --board BOARD")),
    };
    let mut budget = match (args.max_positions.is_set(), args.force) {
        (false, true) => grundy::Budget::UNLIMITED,
        _ => args.max_positions.budget(cram::DEFAULT_BUDGET)?,
    };
    // The table never outgrows the memory this machine can spare.
    budget.max_bytes = budget.max_bytes.min(grundy::limits::memory_budget());
    let stop = Arc::new(AtomicBool::new(false));
    let options = CramOptions {
        mirror: !args.no_mirror,
        budget,
        stop: Some(stop.clone()),
        table: args.table.clone(),
        threads: usize::from(args.threads),
    };
    // Long searches show how far they are from the limit (stderr, terminals only); Ctrl-C
    // (`STOP`) reaches the engine through its stop flag at the next report.
    let bar = progress_bar(budget.max_positions, "search nodes (of the limit)");
    let shown = bar.clone();
    let watch: cram::Watch = Box::new(move |p| {
        shown.set_position(p.nodes);
        if STOP.load(Ordering::Relaxed) {
            stop.store(true, Ordering::Relaxed);
        }
    });
    let result = cram::analyze(&board, &options, Some(watch));
    bar.finish_and_clear();
    let a = match result {
        Ok(a) => a,
        Err(e) if e.kind == ErrorKind::Stopped => {
            let resume = if args.table.is_some() {
                ": run the same command again to resume"
            } else {
                " (--table FILE keeps it for the next run)"
            };
            return Err(CliError {
                code: 130,
                message: format!("{e}{resume}"),
            });
        }
        Err(e) => return Err(grundy::Error::from(e).into()),
    };
    if args.output.json {
        return print_result(&a);
    }
    print_out(&a.describe())
}
