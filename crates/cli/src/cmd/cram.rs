//! `grundy cram`: Cram: Grundy value of domino placement, outcome and winning placements.

use crate::common::{print_json, print_out, CliError, CliResult};
use grundy_core::Outcome;
use grundy_games::cram::{self, Cram, Shape};
use grundy_games::parse_bounded;
use std::fmt::Write as _;

/// Boards with more empty cells than this are refused unless --force is given.
const DEFAULT_MAX_CELLS: u32 = 40;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: players alternately cover two adjacent empty cells with a domino, \
horizontal or vertical; whoever cannot place one loses. Rows and columns count from 0.

Examples:
  grundy cram 4 8                  the empty 4x8 board (value 0: even x even boards are P)
  grundy cram 5 6 --json
  grundy cram --board '.........|##.######'   blocked cells '#', rows split by '|'"
)]
pub struct Args {
    /// Rows of an empty board.
    #[arg(value_name = "ROWS", allow_hyphen_values = true)]
    rows: Option<String>,
    /// Columns of an empty board.
    #[arg(value_name = "COLS", allow_hyphen_values = true)]
    cols: Option<String>,
    /// A board with blocked cells: rows of '.' (empty) and '#' (blocked) separated by '|' or
    /// newlines; at most 64 cells.
    #[arg(long, value_name = "BOARD", conflicts_with_all = ["rows", "cols"])]
    board: Option<String>,
    /// Allow boards with more than 40 empty cells (these can take minutes or more).
    #[arg(long)]
    force: bool,
    /// Search even where the half-turn mirror strategy already proves the value 0.
    #[arg(long)]
    no_mirror: bool,
    /// Print one JSON object: rows, cols, grundy, outcome, winning_moves
    /// [[[r, c], [r, c]], ...] (the two cells covered), positions (memoised).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> CliResult {
    let usage = |e: grundy_games::GameError| CliError::usage(e.to_string());
    let board = match (&args.board, &args.rows, &args.cols) {
        (Some(b), _, _) => Shape::parse(b).map_err(|e| CliError::usage(format!("board: {e}")))?,
        (None, Some(r), Some(c)) => {
            let r = parse_bounded(r, "rows", 1, 64).map_err(usage)? as usize;
            let c = parse_bounded(c, "columns", 1, 64).map_err(usage)? as usize;
            Shape::rectangle(r, c).map_err(usage)?
        }
        _ => return Err(CliError::usage("give ROWS COLS, or --board BOARD")),
    };
    if board.cells() > DEFAULT_MAX_CELLS && !args.force {
        return Err(CliError::usage(format!(
            "board has {} empty cells: more than {DEFAULT_MAX_CELLS} can take very long; \
             add --force to try",
            board.cells()
        )));
    }
    let game = Cram {
        mirror: !args.no_mirror,
    };
    let mirrored = game.mirror && board.canonical().is_mirror_zero();
    let a = cram::analyse_with(game, &board);
    if args.json {
        let moves: Vec<_> = a
            .winning_moves
            .iter()
            .map(|&((r1, c1), (r2, c2))| serde_json::json!([[r1, c1], [r2, c2]]))
            .collect();
        return print_json(&serde_json::json!({
            "rows": board.height(),
            "cols": board.width(),
            "grundy": a.grundy,
            "outcome": a.outcome.as_str(),
            "winning_moves": moves,
            "positions": a.positions,
        }));
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Cram on a {}x{} board with {} empty cells",
        board.height(),
        board.width(),
        board.cells()
    );
    let _ = writeln!(
        s,
        "Grundy value: {} ({} positions memoised)",
        a.grundy, a.positions
    );
    match a.outcome {
        Outcome::P if mirrored => {
            let _ = writeln!(
                s,
                "Outcome: P - the player to move loses: the board is symmetric under a half-turn \
                 and no domino covers a cell and its image, so the second player answers each \
                 domino with its rotated image (--no-mirror searches instead)."
            );
        }
        Outcome::P => {
            let _ = writeln!(
                s,
                "Outcome: P - the player to move loses: every placement leaves a non-zero value."
            );
        }
        Outcome::N => {
            let _ = writeln!(s, "Outcome: N - the player to move wins.");
            for ((r1, c1), (r2, c2)) in &a.winning_moves {
                let dir = if r1 == r2 { "horizontal" } else { "vertical" };
                let _ = writeln!(
                    s,
                    "Winning placement: {dir} domino on ({r1}, {c1}) and ({r2}, {c2}); it \
                     leaves value 0."
                );
            }
        }
    }
    print_out(&s)
}
