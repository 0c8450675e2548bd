//! `grundy walls`: the wall-making game: who wins, with which cell.

use crate::cmd::read_text;
use crate::common::{print_out, print_result, CliError, CliResult, Output};
use grundy::games::walls::{self, Board};

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
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> CliResult {
    let text = read_text(&args.file, "board")?;
    let board = Board::parse(&text).map_err(|e| CliError::usage(format!("{}: {e}", args.file)))?;
    let a = walls::analyze(&board);
    if args.output.json {
        return print_result(&a);
    }
    print_out(&a.describe())
}
