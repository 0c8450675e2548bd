//! `grundy walls`: the wall-making game: who wins, with which cell.

use crate::cmd::maze::read_text;
use crate::common::{print_json, print_out, CliError, CliResult};
use grundy_core::Outcome;
use grundy_games::walls::Board;
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: a move picks an empty cell; walls grow from it in the four \
directions until they meet a wall or the border, splitting the board into up to four \
rectangles. Cells marked X cannot be picked (walls pass through them). Whoever cannot move loses.

File format: rows of '.' and 'X', optionally preceded by a line 'H W' (the contest format);
at most 40x40. Rows and columns count from 0 at the top-left.

Examples:
  grundy walls board.txt           First or Second, and every winning first cell
  grundy walls board.txt --json
  printf '2 2\\nX.\\n..\\n' | grundy walls -"
)]
pub struct Args {
    /// The board file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// Print one JSON object: rows, cols, grundy, outcome, winner ("First"/"Second"),
    /// winning_moves [[row, col], ...].
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> CliResult {
    let text = read_text(&args.file, "board")?;
    let board = Board::parse(&text).map_err(|e| CliError::usage(format!("{}: {e}", args.file)))?;
    let a = board.analyse();
    let winner = if a.outcome == Outcome::N {
        "First"
    } else {
        "Second"
    };
    if args.json {
        let moves: Vec<[usize; 2]> = a.winning_cells.iter().map(|&(r, c)| [r, c]).collect();
        return print_json(&serde_json::json!({
            "rows": board.rows(),
            "cols": board.cols(),
            "grundy": a.grundy,
            "outcome": a.outcome.as_str(),
            "winner": winner,
            "winning_moves": moves,
        }));
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Wall-making game on a {}x{} board",
        board.rows(),
        board.cols()
    );
    let _ = writeln!(s, "Grundy value: {}", a.grundy);
    let _ = writeln!(s, "Winner: {winner} (outcome {})", a.outcome);
    let values = board.values();
    let full = board.full();
    for &(r, c) in a.winning_cells.iter().take(10) {
        let pieces: Vec<String> = full
            .split(r as u8, c as u8)
            .map(|q| format!("{}x{} (value {})", q.r1 - q.r0, q.c1 - q.c0, values.get(&q)))
            .collect();
        let parts = if pieces.is_empty() {
            "nothing".to_string()
        } else {
            pieces.join(", ")
        };
        let _ = writeln!(
            s,
            "Winning move: pick ({r}, {c}); the walls leave {parts}, whose values XOR to 0."
        );
    }
    if a.winning_cells.len() > 10 {
        let _ = writeln!(
            s,
            "... {} winning cells in all (--json lists them)",
            a.winning_cells.len()
        );
    }
    if a.outcome == Outcome::P {
        let _ = writeln!(
            s,
            "Every pick leaves rectangles whose values XOR to a non-zero number: the second \
             player answers each move and wins."
        );
    }
    print_out(&s)
}
