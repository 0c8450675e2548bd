//! `grundy maze`: maze games: Grundy value of every cell, sums of mazes, the winning move.

use crate::common::{print_out, print_result, CliError, CliResult};
use grundy::games::maze::{self, Maze, Values};
use grundy::Outcome;
use std::fmt::Write as _;
use std::io::Read;

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
    /// Print one JSON object: mazes [{rows, cols, figure [r, c] or null, grundy, grid (rows of
    /// values, null on walls; mazes up to 40000 cells or --grid)}], grundy (the XOR), outcome,
    /// winning_moves [{maze (0-based), from [r, c], to [r, c], value, text}].
    #[arg(long)]
    json: bool,
}

/// Reads a text file (or stdin for `-`); a missing or non-UTF-8 file is a usage error.
pub(crate) fn read_text(file: &str, what: &str) -> Result<String, CliError> {
    let bytes = if file == "-" {
        let mut b = Vec::new();
        std::io::stdin().lock().read_to_end(&mut b)?;
        b
    } else {
        std::fs::read(file)
            .map_err(|e| CliError::usage(format!("cannot read {what} file '{file}': {e}")))?
    };
    String::from_utf8(bytes)
        .map_err(|_| CliError::usage(format!("{what} file '{file}' is not UTF-8 text")))
}

fn grid_text(s: &mut String, m: &Maze, v: &Values) {
    let width = v.max().map_or(1, |g| g.to_string().len());
    for r in 0..m.rows() {
        let mut line = String::new();
        for c in 0..m.cols() {
            let mark = if m.figure() == Some((r, c)) { '@' } else { ' ' };
            match v.get((r, c)) {
                Some(g) => {
                    let _ = write!(line, "{g:>width$}{mark}");
                }
                None => {
                    let _ = write!(line, "{:>width$} ", "#");
                }
            }
        }
        let _ = writeln!(s, "  {}", line.trim_end());
    }
}

pub fn run(args: Args) -> CliResult {
    let text = read_text(&args.file, "maze")?;
    let mazes =
        maze::parse_mazes(&text).map_err(|e| CliError::usage(format!("{}: {e}", args.file)))?;
    let a = maze::analyze(&mazes, args.grid);
    if args.json {
        return print_result(&a);
    }

    let mut s = String::new();
    for (i, (m, r)) in mazes.iter().zip(&a.mazes).enumerate() {
        let fig = match (r.figure, r.grundy) {
            (Some((row, col)), Some(g)) => format!("figure at ({row}, {col}) with value {g}"),
            _ => "no figure".to_string(),
        };
        let _ = writeln!(s, "Maze {} ({}x{}), {fig}:", i + 1, r.rows, r.cols);
        if r.grid_in_json {
            grid_text(&mut s, m, &r.values);
        } else {
            let _ = writeln!(
                s,
                "  (grid of {} cells not shown; --grid prints it)",
                r.rows * r.cols
            );
        }
    }
    let parts: Vec<String> = a
        .mazes
        .iter()
        .filter_map(|r| r.grundy)
        .map(|g| g.to_string())
        .collect();
    if parts.is_empty() {
        let _ = writeln!(s, "No figure on any maze: values only.");
        return print_out(&s);
    }
    let _ = writeln!(
        s,
        "Sum of the figures' values: {} = {}",
        parts.join(" XOR "),
        a.grundy
    );
    match a.outcome {
        Outcome::P => {
            let _ = writeln!(
                s,
                "Outcome: P - the player to move loses: every move changes one value and makes \
                 the XOR non-zero."
            );
        }
        Outcome::N => {
            let _ = writeln!(s, "Outcome: N - the player to move wins.");
            for w in &a.winning_moves {
                let _ = writeln!(
                    s,
                    "Winning move: {}, value {}; the XOR becomes 0.",
                    w.text, w.value
                );
            }
        }
    }
    print_out(&s)
}
