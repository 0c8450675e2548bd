//! `grundy play`: a full-screen game against the engine in the terminal (crate `grundy-play`).

use grundy::play::Player;
use grundy_cli::common::{CliError, CliResult, STOP};
use grundy_cli::read_text;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Games: nim, misere-nim, any heap rule (kayles, 0.137, sub:1,3,4, …), \
wythoff, fib (fib:K), chomp (RxC or row lengths), maze (a maze file with '@').

Keys: arrows pick a move, Enter plays it; or type the position after your move (3 4 1) and
Enter; h hint, w why (the values of the options; Nim in binary), u undo, q quit.

Examples:
  grundy play nim 3 4 5
  grundy play misere-nim 1 2 3 --first engine
  grundy play kayles 5 7 9
  grundy play wythoff 6 9
  grundy play fib 20
  grundy play chomp 4x6
  grundy play maze examples/maze.txt
  grundy play script examples/games/kayles.lua 9     your own game in Lua"
)]
pub struct Args {
    /// The game: nim, misere-nim, a heap rule, wythoff, fib, chomp, maze, or script (then a
    /// Lua file and a position).
    #[arg(value_name = "GAME")]
    game: String,
    /// The starting position (heap sizes; for a maze, the maze file).
    #[arg(value_name = "POSITION", allow_negative_numbers = true)]
    position: Vec<String>,
    /// Who moves first: `you` or `engine` (default: asked on screen).
    #[arg(long, value_name = "WHO")]
    first: Option<String>,
}

/// A starting position when none is given.
fn default_position(game: &str) -> &'static str {
    match game {
        "wythoff" => "6 9",
        "chomp" => "4x6",
        g if g.starts_with("fib") => "20",
        _ => "3 4 5",
    }
}

pub fn run(args: Args) -> CliResult {
    let first = match args.first.as_deref() {
        None => None,
        Some("you") => Some(Player::You),
        Some("engine") => Some(Player::Engine),
        Some(w) => {
            return Err(CliError::usage(format!(
                "--first {}: say `you` or `engine`",
                grundy::text::quote(w)
            )))
        }
    };
    let game = args.game.to_ascii_lowercase();
    if game == "script" {
        let Some((file, rest)) = args.position.split_first() else {
            return Err(CliError::usage(
                "grundy play script takes a script file and a position (a Lua literal)",
            ));
        };
        let source = read_text(file, "script")?;
        let position = if rest.is_empty() {
            "0".to_string()
        } else {
            rest.join(" ")
        };
        if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            return Err(CliError::usage(
                "grundy play needs a terminal (stdin and stdout)",
            ));
        }
        let g = grundy::play::Game::script(file, &source, &position, Default::default())
            .map_err(|e| CliError::usage(e.to_string()))?;
        return grundy_play::run_game(g, first, &STOP).map_err(|e| CliError {
            code: e.code,
            message: e.message,
        });
    }
    let position = if game == "maze" {
        let [file] = &args.position[..] else {
            return Err(CliError::usage("grundy play maze takes one maze file"));
        };
        read_text(file, "maze")?
    } else if args.position.is_empty() {
        default_position(&game).to_string()
    } else {
        args.position.join(" ")
    };
    grundy_play::run(&args.game, &position, first, &STOP).map_err(|e| CliError {
        code: e.code,
        message: e.message,
    })
}
