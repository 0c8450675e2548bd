//! `grundy play`: a full-screen game against the engine in the terminal (crate `grundy-play`),
//! for every game of the catalogue (`grundy games`) and Lua scripts.

use grundy::catalogue::Registry;
use grundy::play::Player;
use grundy_cli::common::{CliError, CliResult, STOP};
use grundy_cli::read_text;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "GAME is any game of `grundy games` (nim, misere-nim, kayles, 0.137, sub:1,3,4, \
wythoff, fib, chomp, maze, node-kayles, …), or `script` followed by a Lua file. Without a \
POSITION the game's example is played. A position of several lines (a maze, a board) can be \
read from a file: @FILE (or the file's path alone).

Keys: arrows pick a move, Enter plays it; or type the position after your move (3 4 1) and
Enter; h hint, w why (the values of the options; heaps in binary), u undo, t tutor on/off, q quit.

Examples:
  grundy play nim 3 4 5
  grundy play misere-nim 1 2 3 --first engine
  grundy play kayles 5 7 9
  grundy play node-kayles grid:3x4
  grundy play wythoff 6 9
  grundy play fib 20
  grundy play chomp 4x6
  grundy play maze examples/maze.txt
  grundy play script examples/games/kayles.lua 9     your own game in Lua"
)]
pub struct Args {
    /// The game (see `grundy games`), or `script` (then a Lua file and a position).
    #[arg(value_name = "GAME")]
    game: String,
    /// The starting position, in the game's notation (default: the game's example).
    #[arg(value_name = "POSITION", allow_negative_numbers = true)]
    position: Vec<String>,
    /// Who moves first: `you` or `engine` (default: asked on screen).
    #[arg(long, value_name = "WHO")]
    first: Option<String>,
    /// No tutor: do not point out moves that throw a win away.
    #[arg(long)]
    no_tutor: bool,
}

/// The position the words name: the words, or a file's text (`@FILE`, or a lone existing
/// path).
fn position_text(words: &[String]) -> Result<Option<String>, CliError> {
    match words {
        [] => Ok(None),
        [one] if one.starts_with('@') => read_text(&one[1..], "position").map(Some),
        [one] if std::path::Path::new(one).is_file() => read_text(one, "position").map(Some),
        words => Ok(Some(words.join(" "))),
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
    let tutor = !args.no_tutor;
    let fail = |e: grundy_play::PlayFailure| CliError {
        code: e.code,
        message: e.message,
    };
    if args.game.eq_ignore_ascii_case("script") {
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
        return grundy_play::run_game(g, first, tutor, &STOP).map_err(fail);
    }
    let position = match position_text(&args.position)? {
        Some(p) => p,
        None => {
            let registry = Registry::new();
            let entry = registry.find(&args.game).map_err(CliError::from)?;
            entry.info().example
        }
    };
    grundy_play::run(&args.game, &position, first, tutor, &STOP).map_err(fail)
}
