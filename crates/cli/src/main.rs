//! `grundy`: the command-line face of the grundy library crates.
//!
//! Every subcommand lives in `cmd/<name>.rs`: it parses its flags, calls the library and
//! formats the answer (text, or one JSON object with `--json`). No game logic lives here.

#![forbid(unsafe_code)]

mod cmd;
mod common;

use clap::{Parser, Subcommand};

/// Combinatorial games, solved exactly: Nim, Sprague–Grundy values, heap games, pattern races.
#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    propagate_version = true,
    after_help = "Every command takes --json (one JSON object) and --help (with examples).

Examples:
  grundy nim 10 12 5                   nim-sum, outcome, every winning move, explained
  grundy nimber mul 21508 42689        the nim product: 35202
  grundy heap kayles --period          period 12 from heap 71, proven
  grundy heap 4!.0 --upto 1000000 --summary   Grundy's game with the fast engine
  grundy fib 1000000                   Fibonacci Nim: the Zeckendorf move
  grundy penney HTH THH                exact odds of a pattern race
  grundy script examples/games/kayles.lua 7 9 12   your own game, written in Lua
  grundy play kayles 5 7 9             play against the engine in the terminal
  grundy serve                         the web playground on http://127.0.0.1:8080/"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Nim and misère Nim: nim-sum, outcome and every winning move, explained.
    Nim(cmd::nim::Args),
    /// Nimber arithmetic: nim products, inverses, quotients, square roots.
    Nimber(cmd::nimber::Args),
    /// A game on a directed graph read from a file: Grundy values and winning moves.
    Graph(cmd::graph::Args),
    /// Heap games: subtraction games and take-and-break codes, sequences, periods, sums.
    Heap(cmd::heap::Args),
    /// Fibonacci Nim and its k-multiplier family.
    Fib(cmd::fib::Args),
    /// Wythoff's game: P-positions, winning moves, Grundy values.
    Wythoff(cmd::wythoff::Args),
    /// Maze games: Grundy value of every cell, sums of mazes.
    Maze(cmd::maze::Args),
    /// The wall-making game.
    Walls(cmd::walls::Args),
    /// Cram: Grundy values of domino placement on a board.
    Cram(cmd::cram::Args),
    /// Chomp: outcome and a winning bite.
    Chomp(cmd::chomp::Args),
    /// The card game: take the leftmost or rightmost card, maximise your total.
    Cards(cmd::cards::Args),
    /// Pattern races (Penney's game): exact win probabilities and best replies.
    Penney(cmd::penney::Args),
    /// Your own game written in Lua: values, winning moves, sequences, tables, sums.
    Script(cmd::script::Args),
    /// Surveys: every game of a family (octal:3, hex:2, sub:8, …) solved into SQLite.
    Survey(cmd::survey::Args),
    /// Play a game against the engine in the terminal: hint, why, undo.
    Play(cmd::play::Args),
    /// The web playground and JSON API on http://127.0.0.1:8080/.
    Serve(cmd::serve::Args),
}

/// Parses the command line; a usage error becomes one line on stderr and exit code 2.
fn parse_args() -> Cli {
    match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(), // --help, --version
        Err(e) => {
            eprintln!("grundy: error: {}", one_line(&e));
            std::process::exit(2);
        }
    }
}

/// clap's error in one line: its first line, plus a hint where one helps (`grundy kayles` →
/// "did you mean `grundy heap kayles`?").
fn one_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let rendered = e.render().to_string();
    // The first paragraph, its lines joined ("…were not provided:" is followed by the missing
    // arguments on lines of their own), with any control character of a token escaped.
    let paragraph: Vec<&str> = rendered
        .trim_start()
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let joined = paragraph.join(" ");
    let first: String = joined
        .trim_start_matches("error: ")
        .chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_debug().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect();
    let first = if first.is_empty() {
        "invalid arguments".to_string()
    } else {
        first
    };
    let word = match e.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(w)) => Some(w.clone()),
        _ => None,
    };
    match (e.kind(), word) {
        (ErrorKind::InvalidSubcommand, Some(w)) if grundy::heap::parse(&w).is_ok() => {
            format!(
                "unknown command '{}': did you mean `grundy heap {w}`?",
                w.escape_debug()
            )
        }
        (ErrorKind::InvalidSubcommand, Some(w)) => format!(
            "unknown command '{}' (see `grundy --help` for the list)",
            w.escape_debug()
        ),
        _ => format!("{first} (see --help)"),
    }
}

fn main() {
    let cli = parse_args();
    common::install_stop_handler();
    let result = match cli.command {
        Command::Nim(a) => cmd::nim::run(a),
        Command::Nimber(a) => cmd::nimber::run(a),
        Command::Graph(a) => cmd::graph::run(a),
        Command::Heap(a) => cmd::heap::run(a),
        Command::Fib(a) => cmd::fib::run(a),
        Command::Wythoff(a) => cmd::wythoff::run(a),
        Command::Maze(a) => cmd::maze::run(a),
        Command::Walls(a) => cmd::walls::run(a),
        Command::Cram(a) => cmd::cram::run(a),
        Command::Chomp(a) => cmd::chomp::run(a),
        Command::Cards(a) => cmd::cards::run(a),
        Command::Penney(a) => cmd::penney::run(a),
        Command::Script(a) => cmd::script::run(a),
        Command::Survey(a) => cmd::survey::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Serve(a) => cmd::serve::run(a),
    };
    if let Err(e) = result {
        eprintln!("grundy: error: {}", e.message);
        std::process::exit(e.code);
    }
}
