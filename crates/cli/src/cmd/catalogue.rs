//! `grundy games` and `grundy analyze`: the catalogue, listed and asked. Both iterate the
//! library's registry (`grundy::catalogue::Registry`); no game is named here.

use crate::cmd::read_text;
use crate::common::{count, print_out, print_result, CliError, CliResult, MaxPositions, Output};
use grundy::catalogue::{Budget, Play, Registry, Verbosity};

/// `grundy games`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every game the library knows, with an example start position in its \
own notation. A family of rules (a take-and-break CODE, sub:S, allbut:S) is one line with its \
pattern; its example game is shown beside it.

Examples:
  grundy games
  grundy games --json"
)]
pub struct GamesArgs {
    #[command(flatten)]
    output: Output,
}

/// `grundy analyze`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "GAME is any name `grundy games` lists (or a member of a family: \
0.137, sub:1,3,4), or a Lua script file (game.lua). POSITION is the game's own notation, the \
words joined by spaces; @FILE reads it from a file (a maze, a graph), @- from stdin.

Examples:
  grundy analyze kayles 5 7 9
  grundy analyze nim 3 4 5 --misere
  grundy analyze node-kayles grid:3x5
  grundy analyze wythoff 3 5 --json
  grundy analyze 0.137 10 20 --verbose
  grundy analyze digraph 'a b; b c; @ a'
  grundy analyze windup:8:3,5 --upto 7    every position's value (a loopy game: ∞ and draws)"
)]
pub struct AnalyzeArgs {
    /// The game (see `grundy games`).
    #[arg(value_name = "GAME")]
    game: String,
    /// The position, in the game's notation.
    #[arg(value_name = "POSITION", num_args = 0..)]
    position: Vec<String>,
    /// The value and outcome of every position 0..=N instead (games whose positions are
    /// numbers: heap rules, windup:N:S, fib).
    #[arg(long, value_name = "N", conflicts_with = "position")]
    upto: Option<String>,
    /// Misère play: whoever cannot move wins.
    #[arg(long)]
    misere: bool,
    #[command(flatten)]
    max_positions: MaxPositions,
    /// Every winning move and the game's own details.
    #[arg(long, short)]
    verbose: bool,
    #[command(flatten)]
    output: Output,
}

impl AnalyzeArgs {
    /// The game named on the command line (a registry name or a Lua file).
    pub fn game(&self) -> &str {
        &self.game
    }
}

/// Lists the registry.
pub fn games(args: GamesArgs) -> CliResult {
    games_of(&Registry::new(), args)
}

/// Lists `registry`.
pub fn games_of(registry: &Registry, args: GamesArgs) -> CliResult {
    let list = registry.list();
    if args.output.json {
        return print_result(&serde_json::json!({ "games": list }));
    }
    let width = list.iter().map(|g| g.name.len()).max().unwrap_or(4).min(20);
    let mut s = String::new();
    for g in &list {
        let example = match &g.example_game {
            Some(game) => format!("{game} {}", g.example),
            None => format!("{} {}", g.name, g.example),
        };
        s.push_str(&format!(
            "{:width$}  {}\n{:width$}  e.g. grundy analyze {}\n",
            g.name,
            g.summary,
            "",
            example.replace('\n', "|"),
        ));
    }
    s.push_str("\nAnalyse one: grundy analyze GAME POSITION (see grundy analyze --help)\n");
    print_out(&s)
}

/// Analyses with the built-in registry.
pub fn analyze(args: AnalyzeArgs) -> CliResult {
    analyze_in(&Registry::new(), args)
}

/// Analyses with `registry` (the caller may have registered a script game in it).
pub fn analyze_in(registry: &Registry, args: AnalyzeArgs) -> CliResult {
    let text = match args.position.as_slice() {
        [one] if one.starts_with('@') => read_text(&one[1..], "position")?,
        words => words.join(" "),
    };
    let budget = args
        .max_positions
        .budget(grundy::catalogue::within_memory(Budget::default()))?;
    let play = Play::from_misere(args.misere);
    if let Some(upto) = &args.upto {
        let upto = count(upto, "--upto")?;
        let values = registry
            .values(&args.game, upto, play, &budget)
            .map_err(|e| with_hint(e, &args))?;
        return if args.output.json {
            print_result(&values)
        } else {
            print_out(&values.describe())
        };
    }
    let report = registry
        .analyze(&args.game, &text, play, &budget)
        .map_err(|e| with_hint(e, &args))?;
    if args.output.json {
        return print_result(&report);
    }
    let v = if args.verbose {
        Verbosity::Full
    } else {
        Verbosity::Normal
    };
    print_out(&report.describe(v))
}

/// A limit's message with the flag that raises it (the library never names a flag). A budget's
/// limit names its cap ([`grundy::Error::parameter`]: the position cap gets its flag from
/// `CliError::from`, the memory cap has none); other limits get `--max-positions`.
fn with_hint(e: grundy::Error, args: &AnalyzeArgs) -> CliError {
    let hint = e.is_limit() && e.parameter().is_none();
    let mut err = CliError::from(e);
    if hint && !args.max_positions.is_set() && !err.message.contains("--max-positions") {
        err.message.push_str(" (raise it with --max-positions)");
    }
    err
}
