//! `grundy chomp`: Chomp: outcome and every winning bite.

use crate::common::{print_json, print_out, CliError, CliResult};
use grundy_core::Outcome;
use grundy_games::chomp::{self, Staircase, MAX_COLS, MAX_ROWS};
use grundy_games::parse_bounded;
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: a ROWS x COLS bar with the poisoned square at (0, 0), the \
top-left corner. A bite at (r, c) removes every square at row >= r and column >= c; whoever must \
take the poison loses. Strategy stealing proves every bar but 1x1 a first-player win; the \
winning bite is found by searching all C(ROWS+COLS, ROWS) staircases (at most 3 million: 12x12 fits, 13x13 does not).

Examples:
  grundy chomp 4 7
  grundy chomp 10 10 --json"
)]
pub struct Args {
    /// Rows of the bar (1..=16).
    #[arg(value_name = "ROWS", allow_hyphen_values = true)]
    rows: String,
    /// Columns of the bar (1..=255).
    #[arg(value_name = "COLS", allow_hyphen_values = true)]
    cols: String,
    /// Print one JSON object: rows, cols, outcome, grundy, winning_moves [[row, col], ...]
    /// (bites), positions (searched).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> CliResult {
    let rows = parse_bounded(&args.rows, "rows", 1, MAX_ROWS as u64)
        .map_err(|e| CliError::usage(e.to_string()))? as usize;
    let cols = parse_bounded(&args.cols, "columns", 1, MAX_COLS as u64)
        .map_err(|e| CliError::usage(e.to_string()))? as usize;
    let start = Staircase::rectangle(rows, cols).map_err(|e| CliError::usage(e.to_string()))?;
    let a = chomp::analyse(&start);
    if args.json {
        let bites: Vec<[usize; 2]> = a.winning_bites.iter().map(|&(r, c)| [r, c]).collect();
        return print_json(&serde_json::json!({
            "rows": rows,
            "cols": cols,
            "outcome": a.outcome.as_str(),
            "grundy": a.grundy,
            "winning_moves": bites,
            "positions": a.positions,
        }));
    }
    let mut s = String::new();
    let _ = writeln!(s, "Chomp on a {rows}x{cols} bar, poison at (0, 0)");
    let _ = writeln!(
        s,
        "Grundy value: {} ({} positions searched)",
        a.grundy, a.positions
    );
    match a.outcome {
        Outcome::P => {
            let _ = writeln!(
                s,
                "Outcome: P - the player to move must take the poison and loses."
            );
        }
        Outcome::N => {
            let _ = writeln!(s, "Outcome: N - the player to move wins.");
            for &(r, c) in &a.winning_bites {
                let after = start.bite(r, c).expect("winning bites are legal");
                let lens: Vec<String> = after.rows().iter().map(|l| l.to_string()).collect();
                let _ = writeln!(
                    s,
                    "Winning bite: ({r}, {c}), removing rows >= {r} from column {c} on; it \
                     leaves rows of lengths {}, a position where every bite loses.",
                    lens.join(", ")
                );
            }
        }
    }
    print_out(&s)
}
