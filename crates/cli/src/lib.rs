//! `grundy`: the command-line face of the grundy library crates.
//!
//! Every subcommand lives in `cmd/<name>.rs`: it parses its flags, calls the library and
//! formats the answer (text, or one JSON object with `--json`). No game logic lives here.
//!
//! Two programs: `grundy` (`src/main.rs`, this library) runs every command whose work is the
//! engines' and links neither the Luau runtime nor the terminal UI nor the web server, so a
//! record run's memory is its values, not those runtimes (Luau's static initialisers and the
//! C++ runtime they load map 2–3 MB at start-up). The three commands that need them, `script`,
//! `play` and `serve` ([`HANDED`]), live in `src/bin/grundy-full/`: `grundy` replaces itself by
//! `grundy-full`, installed beside it, with the same arguments, and `grundy-full` parses and
//! runs them (and any other command, through this library). `grundy --help` lists all of them.

#![forbid(unsafe_code)]

mod cmd;
pub mod common;
mod companion;

/// What `grundy-full`'s commands share with the others.
pub use cmd::catalogue::{analyze_in, AnalyzeArgs};
pub use cmd::{read_text, write_plot_of};

use clap::{Parser, Subcommand};
use std::ffi::OsString;

/// Combinatorial games, solved exactly: Nim, Sprague–Grundy values, heap games, pattern races.
#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    propagate_version = true,
    after_help = "Every command takes --json (one JSON object) and --help (with examples).

Examples:
  grundy games                         every game, with an example position
  grundy analyze node-kayles grid:3x5  any game: value, outcome, winning moves, why
  grundy nim 10 12 5                   nim-sum, outcome, every winning move, explained
  grundy nimber mul 21508 42689        the nim product: 35202
  grundy heap kayles --period          period 12 from heap 71, proven
  grundy heap 4!.0 --upto 1000000 --summary   Grundy's game with the fast engine
  grundy fib 1000000                   Fibonacci Nim: the Zeckendorf move
  grundy wythoff --upto 399 --plot w.png   the grid G(x, y) as a picture
  grundy cram 5 7                      any game is a command: the registry's analysis
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
    /// Every game of the catalogue, with an example position.
    Games(cmd::catalogue::GamesArgs),
    #[command(about = cmd::catalogue::ANALYZE_ABOUT)]
    Analyze(cmd::catalogue::AnalyzeArgs),
    /// Nimber arithmetic: nim products, inverses, quotients, square roots.
    Nimber(cmd::nimber::Args),
    /// A game on a directed graph read from a file: Grundy values and winning moves.
    Graph(cmd::graph::Args),
    /// Heap games: subtraction games and take-and-break codes, sequences, periods, sums.
    Heap(cmd::heap::Args),
    /// Misère theory: quotients of heap rules, genus, canonical forms.
    Misere(cmd::misere::Args),
    /// Pattern races (Penney's game): exact win probabilities and best replies.
    Penney(cmd::penney::Args),
    #[command(about = about::SCRIPT)]
    Script(Handed),
    /// Surveys: every game of a family (octal:3, hex:2, sub:8, …) solved into SQLite.
    Survey(cmd::survey::Args),
    #[command(about = about::PLAY)]
    Play(Handed),
    #[command(about = about::SERVE)]
    Serve(Handed),
    /// `grundy GAME POSITION`: every game of the registry is a command of its own.
    #[command(external_subcommand)]
    Game(Vec<OsString>),
}

/// What `--help` says of each handed command ([`HANDED`]), in both programs' command lists.
pub mod about {
    /// `grundy script`.
    pub const SCRIPT: &str =
        "Your own game written in Lua: values, winning moves, sequences, tables, sums";
    /// `grundy play`.
    pub const PLAY: &str = "Play a game against the engine in the terminal: hint, why, undo";
    /// `grundy serve`.
    pub const SERVE: &str = "The web playground and JSON API on http://127.0.0.1:8080/";
}

/// The arguments of a command `grundy-full` runs ([`HANDED`]): taken whole and parsed there.
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
struct Handed {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<std::ffi::OsString>,
}

/// Parses the command line; a usage error becomes one line on stderr and exit code 2.
pub fn parse_args<C: Parser>() -> C {
    let mut command = C::command();
    // The list of games goes into the help only when help is asked for: building it opens
    // the registry, which an ordinary run need not pay for.
    let asks_help = std::env::args_os()
        .skip(1)
        .any(|a| a == "--help" || a == "-h" || a == "help");
    if asks_help {
        let games = format!(
            "Games (each a command: grundy GAME POSITION, the same as grundy analyze GAME \
             POSITION; grundy games lists them with examples):\n  {}",
            cmd::catalogue::game_names()
        );
        let help = command
            .get_after_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        command = command.after_help(format!("{help}\n\n{games}"));
    }
    let parsed = command
        .try_get_matches()
        .and_then(|m| C::from_arg_matches(&m));
    match parsed {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(), // --help, --version
        Err(e) => {
            eprintln!("grundy: error: {}", one_line(&e));
            std::process::exit(2);
        }
    }
}

/// clap's error in one line (a game command's parse error too): its first paragraph, or the
/// unknown command named (`grundy help kaylez`).
pub(crate) fn one_line(e: &clap::Error) -> String {
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
    match e.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(w)) if e.kind() == ErrorKind::InvalidSubcommand => format!(
            "unknown command '{}' (see `grundy --help`; a game's own: `grundy GAME --help`)",
            w.escape_debug()
        ),
        _ => format!("{first} (see --help)"),
    }
}

/// The commands `grundy` hands to `grundy-full`: each needs a runtime `grundy` does not link
/// (Luau for `script`; the terminal UI for `play` and the web server for `serve`, which play Lua
/// games too).
pub const HANDED: [&str; 3] = ["script", "play", "serve"];

/// The handed command ([`HANDED`]) this process's command line names (`grundy script …`, or
/// `grundy help script`), if any; `analyze` when the game it names is a Lua file
/// (`grundy analyze game.lua 5`), which needs the Luau runtime.
pub fn handed_command() -> Option<&'static str> {
    let mut args = std::env::args_os().skip(1);
    let first = args.next()?;
    if first == "analyze" {
        let game = args.find(|a| !a.to_string_lossy().starts_with('-'))?;
        return game
            .to_string_lossy()
            .to_ascii_lowercase()
            .ends_with(".lua")
            .then_some("analyze");
    }
    let name = if first == "help" { args.next()? } else { first };
    HANDED.iter().copied().find(|h| name == *h)
}

/// Exits with the command's code: 0, or its error on stderr (one line) and its code.
pub fn exit_with(result: common::CliResult) -> ! {
    if let Err(e) = result {
        eprintln!("grundy: error: {}", e.message);
        std::process::exit(e.code);
    }
    std::process::exit(0);
}

/// `grundy`: hands the [`HANDED`] commands to `grundy-full` and runs every other command here.
/// Nothing it calls reaches the heavy runtimes, so none of them is linked into `grundy`.
pub fn main() -> ! {
    if handed_command().is_some() {
        exit_with(companion::exec());
    }
    let cli: Cli = parse_args();
    common::install_stop_handler();
    // Where proven misère quotients are kept between runs (every command that plays misère
    // heap sums, `analyze` included); `grundy heap --cache-dir` overrides it.
    let flag = match &cli.command {
        Command::Heap(a) => a.cache_dir.as_deref(),
        _ => None,
    };
    grundy::heap::quotients::set_default_dir(cmd::misere::cache_dir(flag));
    let result = match cli.command {
        Command::Games(a) => cmd::catalogue::games(a),
        Command::Analyze(a) => cmd::catalogue::analyze(a),
        Command::Nimber(a) => cmd::nimber::run(a),
        Command::Graph(a) => cmd::graph::run(a),
        Command::Heap(a) => cmd::heap::run(a),
        Command::Misere(a) => cmd::misere::run(a),
        Command::Penney(a) => cmd::penney::run(a),
        Command::Survey(a) => cmd::survey::run(a),
        Command::Game(words) => cmd::catalogue::game_command(words),
        // Caught by `handed_command` above; a spelling it missed goes the same way.
        Command::Script(_) | Command::Play(_) | Command::Serve(_) => companion::exec(),
    };
    exit_with(result)
}
