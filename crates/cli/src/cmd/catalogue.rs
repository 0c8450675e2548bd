//! `grundy games`, `grundy analyze` and every game's own command (`grundy cram 5 7`,
//! `grundy fib 100`, `grundy kayles 5 7 9`): the catalogue, listed and asked. All of them
//! iterate the library's registry (`grundy::catalogue::Registry`); no game is named here. A
//! game's command is built at run time from its entry: the position words, the flags every
//! question takes (`--moves`, `--misere`, `--json`, limits) and the game's own options, which
//! its entry declares (`Info::params`); `grundy GAME …` and `grundy analyze GAME …` are the
//! same call, [`grundy::catalogue::Registry::ask`].

use std::ffi::OsString;
use std::io::{IsTerminal, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::{Arg, ArgAction, Command};
use grundy::catalogue::{Ask, Budget, Detail, Info, ParamKind, Play, Registry, Report, Verbosity};

use crate::common::{
    count, print_out, print_result, progress_bar, CliError, CliResult, Output, STOP,
};
use grundy::text::quote;

/// `grundy games`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every game the library knows, with an example start position in its \
own notation. A family of rules (a take-and-break CODE, sub:S, allbut:S) is one line with its \
pattern; its example game is shown beside it. Each game is a command of its own: \
`grundy GAME POSITION` (the same as `grundy analyze GAME POSITION`).

Examples:
  grundy games
  grundy games --json"
)]
pub struct GamesArgs {
    #[command(flatten)]
    output: Output,
}

/// The words of `grundy analyze --help`.
pub const ANALYZE_ABOUT: &str =
    "Analyse a position of any game: value, outcome, winning moves, why";

/// What `grundy analyze --help` adds below the usage.
const ANALYZE_HELP: &str = "GAME is any name `grundy games` lists (or a member of a family: \
0.137, sub:1,3,4), or a Lua script file (game.lua). POSITION is the game's own notation, the \
words joined by spaces; @FILE reads it from a file (a maze, a graph), @- or - from stdin. \
Every game is also a command of its own: `grundy cram 5 7` is `grundy analyze cram 5 7`. \
`grundy analyze GAME --help` lists the game's own options.

Options of every game:
  --moves value|winning|all  how much of the moves to compute: the value and outcome only, the
                             winning moves (the default), or every move with its value (why)
  --misere                   misère play: whoever cannot move wins
  --force                    search without a position limit, even off a terminal
  --max-positions N          stop a search past N positions or search nodes (default: no
                             limit on a terminal, 1e7 elsewhere; the memory limit always
                             holds); Ctrl-C stops it, keeping what a table file (--table)
                             can resume
  --upto N                   the value and outcome of every position 0..=N instead (games
                             whose positions are numbers: heap rules, windup:N:S, fib)
  --verbose, -v              every winning move and the game's own details
  --json                     one JSON object (docs/json.md)

Examples:
  grundy analyze kayles 5 7 9
  grundy analyze nim 3 4 5 --misere
  grundy analyze node-kayles grid:3x5 --moves all
  grundy analyze cram 5x7 --moves value
  grundy analyze wythoff 3 5 --json
  grundy analyze 0.137 10 20 --verbose
  grundy analyze digraph 'a b; b c; @ a'
  grundy analyze windup:8:3,5 --upto 7    every position's value (a loopy game: ∞ and draws)";

/// The raw arguments of `grundy analyze` and of a game's own command, parsed against the
/// game's entry once the game is known.
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
pub struct AnalyzeArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<OsString>,
}

impl AnalyzeArgs {
    /// The game named on the command line (a registry name or a Lua file), if any.
    pub fn game(&self) -> Option<String> {
        self.rest
            .iter()
            .map(|a| a.to_string_lossy())
            .find(|a| !a.starts_with('-'))
            .map(|a| a.into_owned())
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
            "{:width$}  {}\n{:width$}  e.g. grundy {}\n",
            g.name,
            g.summary,
            "",
            example.replace('\n', "|"),
        ));
    }
    s.push_str("\nAnalyse one: grundy GAME POSITION (see grundy analyze --help)\n");
    print_out(&s)
}

/// The names of the games, for `grundy --help`.
pub fn game_names() -> String {
    let names: Vec<String> = Registry::new()
        .list()
        .into_iter()
        .filter(|g| !g.family)
        .map(|g| g.name)
        .collect();
    names.join(", ")
}

/// `grundy analyze …` with the built-in registry.
pub fn analyze(args: AnalyzeArgs) -> CliResult {
    analyze_in(&Registry::new(), args)
}

/// `grundy analyze GAME …` with `registry` (the caller may have registered a script game in
/// it).
pub fn analyze_in(registry: &Registry, args: AnalyzeArgs) -> CliResult {
    let mut rest = args.rest.into_iter();
    let mut before = Vec::new();
    let game = loop {
        match rest.next() {
            None => {
                if before.iter().any(|a: &OsString| a == "--help" || a == "-h") {
                    return print_out(&analyze_help());
                }
                return Err(CliError::usage(
                    "give a GAME and its POSITION (see grundy analyze --help, grundy games)",
                ));
            }
            Some(a) if a.to_string_lossy().starts_with('-') => before.push(a),
            Some(a) => break a.to_string_lossy().into_owned(),
        }
    };
    before.extend(rest);
    run(registry, &game, "analyze", before)
}

/// `grundy GAME …`: a game's own command, when `GAME` is a game of the registry.
pub fn game_command(words: Vec<OsString>) -> CliResult {
    let registry = Registry::new();
    let mut words = words.into_iter();
    let game = words
        .next()
        .map(|g| g.to_string_lossy().into_owned())
        .unwrap_or_default();
    run(&registry, &game, &game, words.collect())
}

fn analyze_help() -> String {
    format!(
        "{ANALYZE_ABOUT}\n\nUsage: grundy analyze GAME [POSITION]... [OPTIONS]\n\n{ANALYZE_HELP}\n"
    )
}

/// The flags every game's command takes, with its own params after them.
fn command_for(info: &Info, command: &str) -> Command {
    let name = if command == "analyze" {
        format!("analyze {}", info.game())
    } else {
        command.to_string()
    };
    let example = format!("grundy {name} {}", info.example.replace('\n', "|"));
    let mut c = Command::new(name.clone())
        .bin_name(format!("grundy {name}"))
        .about(info.summary.clone())
        .no_binary_name(true)
        .disable_version_flag(true)
        .after_help(format!(
            "POSITION: {}. @FILE reads it from a file, @- or - from stdin.\n\nExamples:\n  \
             {example}\n  {example} --moves all     every move with its value (why)\n  \
             {example} --json",
            info.position
        ))
        .arg(
            Arg::new("position")
                .value_name("POSITION")
                .num_args(0..)
                .allow_negative_numbers(true)
                .help("The position, in the game's notation (words joined by spaces)"),
        )
        .arg(
            Arg::new("moves")
                .long("moves")
                .value_name("value|winning|all")
                .help("How much of the moves: the value only, the winning moves (default), or every move valued"),
        )
        .arg(
            Arg::new("misere")
                .long("misere")
                .action(ArgAction::SetTrue)
                .help("Misère play: whoever cannot move wins"),
        )
        .arg(
            Arg::new("max-positions")
                .long("max-positions")
                .value_name("N")
                .allow_negative_numbers(true)
                .help("Stop a search past N positions or search nodes (default: none on a terminal, 1e7 elsewhere)"),
        )
        .arg(
            Arg::new("force")
                .long("force")
                .action(ArgAction::SetTrue)
                .conflicts_with("max-positions")
                .help("Search without a position limit (the memory limit still holds)"),
        )
        .arg(
            Arg::new("upto")
                .long("upto")
                .value_name("N")
                .conflicts_with("position")
                .help("The value of every position 0..=N instead (games whose positions are numbers; a two-heap game's grid)"),
        )
        .arg(
            Arg::new("plot")
                .long("plot")
                .value_name("FILE")
                .requires("upto")
                .help("With --upto: draw the values to FILE (.svg or .png)"),
        )
        .arg(
            Arg::new("verbose")
                .long("verbose")
                .short('v')
                .action(ArgAction::SetTrue)
                .help("Every winning move and the game's own details"),
        )
        .arg(
            Arg::new("json")
                .long("json")
                .action(ArgAction::SetTrue)
                .help("Print one JSON object (docs/json.md)"),
        );
    for p in &info.params {
        let mut a = Arg::new(p.name).long(p.name).help(p.help);
        a = match p.kind {
            ParamKind::Flag => a.action(ArgAction::SetTrue),
            ParamKind::Count { min, max } => a
                .value_name("N")
                .allow_negative_numbers(true)
                .help(format!("{} ({min} to {max})", p.help)),
            ParamKind::Number => a.value_name("N").allow_negative_numbers(true),
            ParamKind::File => a.value_name("FILE"),
        };
        c = c.arg(a);
    }
    c
}

/// Parses `args` against `game`'s command and answers it.
pub(crate) fn run(
    registry: &Registry,
    game: &str,
    command: &str,
    args: Vec<OsString>,
) -> CliResult {
    let entry = registry.find(game)?;
    let info = entry.info();
    let matches = match command_for(&info, command).try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return Ok(());
        }
        Err(e) => return Err(CliError::usage(crate::one_line(&e))),
    };
    let json = matches.get_flag("json");
    let play = Play::from_misere(matches.get_flag("misere"));
    let detail = match matches.get_one::<String>("moves") {
        Some(d) => d
            .parse::<Detail>()
            .map_err(|e| CliError::from(grundy::Error::from(e)))?,
        None => Detail::default(),
    };
    let limit = match matches.get_one::<String>("max-positions") {
        Some(t) => match count(t, "--max-positions")? {
            0 => return Err(CliError::usage("--max-positions: must be at least 1")),
            n => Some(n),
        },
        None => None,
    };
    // On a terminal a search runs to the end (a progress bar shows it, Ctrl-C stops it);
    // elsewhere (scripts, pipes, tests) the default position cap of every door holds, and the
    // error names the flag that lifts it. The memory cap always holds.
    let default = if matches.get_flag("force") || std::io::stderr().is_terminal() {
        u64::MAX
    } else {
        Budget::default().max_positions
    };
    let budget = grundy::catalogue::within_memory(Budget {
        max_positions: limit.unwrap_or(default),
        ..Budget::UNLIMITED
    });
    let mut ask = Ask::new(play).detail(detail).budget(budget);
    for p in &info.params {
        match p.kind {
            ParamKind::Flag if matches.get_flag(p.name) => ask.settings.set(p.name, "true"),
            ParamKind::Flag => {}
            _ => {
                if let Some(v) = matches.get_one::<String>(p.name) {
                    ask.settings.set(p.name, v.clone());
                }
            }
        }
    }
    if matches.contains_id("plot") && !matches.contains_id("upto") {
        return Err(CliError::usage(
            "--plot draws a table of values: give --upto N",
        ));
    }
    if let Some(upto) = matches.get_one::<String>("upto") {
        let upto = count(upto, "--upto")?;
        let plot = matches.get_one::<String>("plot");
        let values = with_progress(&mut ask, |ask| registry.values(game, upto, ask))?;
        if let Some(path) = plot {
            let draw = |f| grundy::plot::values(&values, f);
            crate::cmd::write_plot(std::path::Path::new(path), draw)?;
            eprintln!("grundy: wrote the plot to {}", quote(path));
        }
        return if json {
            print_result(&values)
        } else if plot.is_some() {
            Ok(())
        } else {
            print_out(&values.describe())
        };
    }
    let words: Vec<&String> = matches
        .get_many::<String>("position")
        .map(|w| w.collect())
        .unwrap_or_default();
    let file = match words.as_slice() {
        [one] if one.as_str() == "-" => Some("-"),
        [one] if one.starts_with('@') => Some(&one[1..]),
        _ => None,
    };
    let text = words
        .iter()
        .map(|w| w.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let report = with_progress(&mut ask, |ask| match file {
        Some(file) => fed(registry, game, file, ask),
        None => registry.ask(game, &text, ask),
    })
    .map_err(|e| with_hint(e, limit.is_some()))?;
    if json {
        return print_result(&report);
    }
    let v = if matches.get_flag("verbose") {
        Verbosity::Full
    } else {
        Verbosity::Normal
    };
    print_out(&report.describe(v))
}

/// Asks about the position in `file` (`-` for stdin), fed to the registry a megabyte at a time:
/// a game that reads positions as a stream (Nim) never holds the text.
fn fed(registry: &Registry, game: &str, file: &str, ask: &Ask) -> grundy::Result<Report> {
    use grundy::catalogue::Error;
    let mut feed = registry.feed(game, ask)?;
    let cannot =
        |e: std::io::Error| Error::input(format!("cannot read position file {}: {e}", quote(file)));
    let mut input: Box<dyn Read> = if file == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(file).map_err(cannot)?)
    };
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match input.read(&mut buf) {
            Ok(0) => return Ok(feed.finish()?),
            Ok(n) => feed.feed(&buf[..n])?,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::failure(format!("reading {}: {e}", quote(file))).into()),
        }
    }
}

/// Runs `work` with a progress bar on a terminal (search nodes or heaps; hidden elsewhere) and
/// with Ctrl-C (`STOP`) relayed to the question's stop flag.
fn with_progress<T>(ask: &mut Ask, work: impl FnOnce(&Ask) -> T) -> T {
    let stop = Arc::new(AtomicBool::new(false));
    ask.stop = Some(stop.clone());
    let bar = progress_bar(0, "searching");
    let shown = bar.clone();
    ask.progress = Some(Arc::new(move |p: grundy::catalogue::Progress| {
        if p.total > 0 && shown.length() != Some(p.total) {
            shown.set_length(p.total);
        }
        shown.set_message(p.unit);
        shown.set_position(p.done);
        !STOP.load(Ordering::Relaxed)
    }));
    let done = Arc::new(AtomicBool::new(false));
    let relay = {
        let (stop, done) = (stop.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if STOP.load(Ordering::Relaxed) {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        })
    };
    let out = work(ask);
    done.store(true, Ordering::Relaxed);
    let _ = relay.join();
    bar.finish_and_clear();
    out
}

/// A limit's message with the flag that raises it (the library never names a flag). A budget's
/// limit names its cap ([`grundy::Error::parameter`]: the position cap gets its flag from
/// `CliError::from`, the memory cap has none); other limits get `--max-positions`.
fn with_hint(e: grundy::Error, limit_set: bool) -> CliError {
    let hint = e.is_limit() && e.parameter().is_none();
    let mut err = CliError::from(e);
    if hint && !limit_set && !err.message.contains("--max-positions") {
        err.message.push_str(" (raise it with --max-positions)");
    }
    err
}
