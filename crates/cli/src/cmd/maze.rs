//! `grundy maze`: maze games: Grundy value of every cell, sums of mazes, the winning move.

use crate::cmd::read_text;
use crate::common::{print_out, print_result, CliError, CliResult, Output};
use grundy::games::maze;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "File format: '.' floor, '#' wall, '@' the figure (on floor); several \
mazes are separated by blank lines and played as a sum (one figure each; a maze without '@' \
only shows its values). A move slides one figure any number of cells left or up without \
crossing a wall; whoever cannot move loses. Rows and columns count from 0 at the top-left.

Examples:
  grundy maze mazes.txt            every cell's value, the sum, the winning move
  grundy maze mazes.txt --json
  grundy maze - < mazes.txt        read standard input"
)]
pub struct Args {
    /// The maze file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// Print the value grids even for large mazes (text), or include them in JSON.
    #[arg(long)]
    grid: bool,
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> CliResult {
    let text = read_text(&args.file, "maze")?;
    let mazes =
        maze::parse_mazes(&text).map_err(|e| CliError::usage(format!("{}: {e}", args.file)))?;
    let a = maze::analyze(&mazes, args.grid);
    if args.output.json {
        return print_result(&a);
    }
    print_out(&a.describe())
}
