//! `grundy walls`: the wall-making game: who wins, with which cell.

use crate::cmd::maze::read_text;
use crate::common::{print_out, print_result, CliError, CliResult};
use grundy::games::walls::{self, Board};
use grundy::Outcome;
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
    /// winning_moves [{cell [row, col], to [{row, col, rows, cols, grundy}], text}].
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> CliResult {
    let text = read_text(&args.file, "board")?;
    let board = Board::parse(&text).map_err(|e| CliError::usage(format!("{}: {e}", args.file)))?;
    let a = walls::analyze(&board);
    if args.json {
        return print_result(&a);
    }
    let mut s = String::new();
    let _ = writeln!(s, "Wall-making game on a {}x{} board", a.rows, a.cols);
    let _ = writeln!(s, "Grundy value: {}", a.grundy);
    let _ = writeln!(s, "Winner: {} (outcome {})", a.winner, a.outcome);
    for m in a.winning_moves.iter().take(10) {
        let _ = writeln!(s, "Winning move: {}, whose values XOR to 0.", m.text);
    }
    if a.winning_moves.len() > 10 {
        let _ = writeln!(
            s,
            "... {} winning cells in all (--json lists them)",
            a.winning_moves.len()
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
