//! `grundy script FILE.lua`: games written in Lua. Flags and rendering only; every answer is
//! one call of `grundy::script`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use grundy::script::{parse_position, Limits, Play, Position, Script, ScriptError, Session};
use grundy_cli::common::{
    count, print_out, print_result, progress_bar, stream_out, CliError, CliResult, MaxPositions,
    Output, STOP,
};
use grundy_cli::{read_text, write_plot_of};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "A game script is a Lua file that defines `moves(p)`, the list of every \
option of position p (see examples/games/ and README \"Your own games in Lua\"). Positions are \
Lua literals: 7, {3, 3, 3}, \"abc\", true.

Examples:
  grundy script examples/games/kayles.lua 7 9 12          a sum of three rows: value, winning moves
  grundy script examples/games/chomp.lua '{4,4,4}'        Chomp on a 3 x 4 bar
  grundy script examples/games/kayles.lua 4 5 --misere    the last mover loses
  grundy script examples/games/kayles.lua --upto 200 --period
  grundy script examples/games/pimber.lua --upto 1000 --format bfile
  grundy script examples/games/wythoff.lua --table 10 10  the 2-D table, P-positions marked
  grundy script examples/games/kayles.lua --explain 5     every option of 5 and its value
  grundy script examples/games/take-or-give.lua --explain 4   a loopy game: why 4 is a draw"
)]
pub struct Args {
    /// The game script (a .lua file, or - for stdin).
    #[arg(value_name = "FILE.lua")]
    file: String,
    /// Positions (Lua literals) played side by side: value, outcome, every winning move.
    #[arg(value_name = "POSITION", allow_negative_numbers = true)]
    positions: Vec<String>,
    /// With positions: misère play (the player who makes the last move loses).
    #[arg(long)]
    misere: bool,
    /// Compute G(0..=N) of the integer positions.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    upto: Option<String>,
    /// With --upto: report the period the values show (observed: a script cannot be inspected,
    /// so no theorem proves it).
    #[arg(long)]
    period: bool,
    /// With --upto: draw G(n) against n to FILE (.svg or .png).
    #[arg(long, value_name = "FILE")]
    plot: Option<std::path::PathBuf>,
    /// The values of positions {a, b} for a in 0..A, b in 0..B, with P-positions marked.
    #[arg(long, num_args = 2, value_names = ["A", "B"], allow_negative_numbers = true)]
    table: Vec<String>,
    /// Print the options of POSITION and their values.
    #[arg(long, value_name = "POSITION", allow_negative_numbers = true)]
    explain: Option<String>,
    /// Output format of --upto (table or bfile) and --table (table or csv).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Steps (Luau loop iterations and calls) one call of moves may take (default 10^8).
    #[arg(long, value_name = "N")]
    max_steps: Option<String>,
    /// Megabytes of memory the Lua state may use (default 512).
    #[arg(long, value_name = "MB")]
    max_memory: Option<String>,
    #[command(flatten)]
    max_positions: MaxPositions,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<String>,
    #[command(flatten)]
    output: Output,
}

/// `--format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// Readable text.
    Table,
    /// OEIS b-file lines `n G(n)` (--upto).
    Bfile,
    /// Comma-separated values (--table).
    Csv,
}

/// A script error as the CLI reports it: exit 2 (130 for Ctrl-C).
fn script_error(e: ScriptError) -> CliError {
    CliError::from(grundy::Error::from(e))
}

impl Args {
    fn limits(&self) -> Result<Limits, CliError> {
        let mut l = Limits::default();
        if let Some(t) = &self.max_steps {
            l.steps_per_call = count(t, "--max-steps")?;
            l.setup_steps = l.steps_per_call;
        }
        if let Some(t) = &self.max_memory {
            let mb = count(t, "--max-memory")?;
            if mb == 0 || mb > 1 << 20 {
                return Err(CliError::usage(format!(
                    "--max-memory {mb}: give megabytes from 1 to 1048576"
                )));
            }
            l.memory = (mb as usize) << 20;
        }
        l.budget.max_positions = self.max_positions.or(l.budget.max_positions)?;
        if let Some(t) = &self.time_limit {
            let secs: f64 = t
                .trim()
                .parse()
                .ok()
                .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e9)
                .ok_or_else(|| {
                    CliError::usage(format!(
                        "--time-limit {}: give a number of seconds, e.g. 10 or 0.5",
                        grundy::text::quote(t)
                    ))
                })?;
            l.time_limit = Some(Duration::from_secs_f64(secs));
        }
        Ok(l)
    }

    fn check_flags(&self) -> CliResult {
        let modes = [
            !self.positions.is_empty(),
            self.upto.is_some(),
            !self.table.is_empty(),
            self.explain.is_some(),
        ];
        match modes.iter().filter(|&&m| m).count() {
            0 => {
                return Err(CliError::usage(
                    "give positions, --upto N, --table A B or --explain POSITION",
                ))
            }
            1 => {}
            _ => {
                return Err(CliError::usage(
                    "positions, --upto, --table and --explain go one at a time",
                ))
            }
        }
        if self.misere && self.positions.is_empty() {
            return Err(CliError::usage("--misere applies to positions"));
        }
        if (self.period || self.plot.is_some()) && self.upto.is_none() {
            return Err(CliError::usage("--period and --plot apply to --upto N"));
        }
        match self.format {
            Format::Bfile if self.upto.is_none() => {
                Err(CliError::usage("--format bfile applies to --upto N"))
            }
            Format::Csv if self.table.is_empty() => {
                Err(CliError::usage("--format csv applies to --table A B"))
            }
            _ => Ok(()),
        }
    }
}

/// A session that stops on Ctrl-C.
fn session(script: &Script) -> Result<Session, CliError> {
    let mut s = script.session().map_err(script_error)?;
    let flag = Arc::new(AtomicBool::new(false));
    s.stop_when(flag.clone());
    // Ranges (`--upto`, `--table`) show a bar on a terminal.
    let bar = progress_bar(0, "script");
    s.on_progress(move |done, total| {
        if bar.length() != Some(total) {
            bar.set_length(total);
        }
        bar.set_position(done);
        if done >= total {
            bar.finish_and_clear();
        }
    });
    // The Ctrl-C handler sets the process-wide STOP; pass it on to the session.
    std::thread::spawn(move || loop {
        if STOP.load(Ordering::Relaxed) {
            flag.store(true, Ordering::Relaxed);
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    });
    Ok(s)
}

fn position(text: &str) -> Result<Position, CliError> {
    parse_position(text).map_err(|e| CliError::usage(e.to_string()))
}

pub fn run(args: Args) -> CliResult {
    args.check_flags()?;
    let limits = args.limits()?;
    let source = read_text(&args.file, "script")?;
    let name = if args.file == "-" {
        "stdin".to_string()
    } else {
        std::path::Path::new(&args.file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| args.file.clone())
    };
    // Positions are checked before any Lua runs.
    let positions = args
        .positions
        .iter()
        .map(|t| position(t))
        .collect::<Result<Vec<_>, _>>()?;
    let explain = args.explain.as_deref().map(position).transpose()?;
    let upto = args
        .upto
        .as_deref()
        .map(|t| count(t, "--upto"))
        .transpose()?;
    let table = match args.table.as_slice() {
        [a, b] => Some((count(a, "--table")?, count(b, "--table")?)),
        _ => None,
    };
    let script = Script::load(&name, &source, limits).map_err(script_error)?;
    let mut s = session(&script)?;
    if let Some(p) = explain {
        let e = s.explain(&p).map_err(script_error)?;
        return if args.output.json {
            print_result(&e)
        } else {
            print_out(&e.describe())
        };
    }
    if let Some(n) = upto {
        return run_sequence(&args, &mut s, n);
    }
    if let Some((a, b)) = table {
        let t = s.table(a, b).map_err(script_error)?;
        return if args.output.json {
            print_result(&t)
        } else if args.format == Format::Csv {
            print_out(&t.csv())
        } else {
            print_out(&t.describe())
        };
    }
    let a = s
        .analyze(&positions, Play::from_misere(args.misere))
        .map_err(script_error)?;
    if args.output.json {
        return print_result(&a);
    }
    print_out(&a.describe())
}

fn run_sequence(args: &Args, s: &mut Session, n: u64) -> CliResult {
    let seq = s.sequence(n).map_err(script_error)?;
    let game = seq.game.clone();
    if let Some(path) = &args.plot {
        let values: Vec<u32> = seq
            .values
            .iter()
            .map(|v| {
                v.finite()
                    .and_then(|v| u32::try_from(v).ok())
                    .unwrap_or(u32::MAX)
            })
            .collect();
        let p = seq.period.map(|p| grundy::heap::Periodicity {
            period: p.period,
            preperiod: p.preperiod,
            saltus: p.saltus,
            status: grundy::heap::Status::Observed,
        });
        write_plot_of(path, &game, &values, p.as_ref())?;
        eprintln!("grundy: wrote the plot of G(0..={n}) to {}", path.display());
    }
    if args.output.json {
        return print_result(&seq);
    }
    let period_line = args.period.then(|| match &seq.period {
        Some(p) => p.describe(n),
        None => format!("no period seen in G(0..={n})"),
    });
    if args.format == Format::Bfile {
        if let Some(line) = &period_line {
            eprintln!("{line}");
        }
        return stream_out(|out| {
            for (i, v) in seq.values.iter().enumerate() {
                writeln!(out, "{i} {v}")?;
            }
            Ok(())
        });
    }
    stream_out(|out| {
        writeln!(out, "G(n) of {game}, n = 0..{n}")?;
        let width = seq
            .values
            .iter()
            .map(|m| m.to_string().chars().count())
            .max()
            .unwrap_or(1);
        let label = n.to_string().len();
        for (row, chunk) in seq.values.chunks(10).enumerate() {
            write!(out, "{:>label$}:", row * 10)?;
            for v in chunk {
                let v = v.to_string();
                write!(out, " {v:>width$}")?;
            }
            writeln!(out)?;
        }
        if let Some(line) = &period_line {
            writeln!(out, "{line}")?;
        }
        Ok(())
    })
}

/// `grundy analyze GAME.lua POSITION`: the script registered in the catalogue under its file
/// name, then analysed as every registry game is (`grundy_cli::analyze_in`): a loopy script
/// gets ∞ values and draws like `windup`.
pub fn analyze(args: grundy_cli::AnalyzeArgs) -> CliResult {
    let file = args.game().unwrap_or_default();
    let source = read_text(&file, "script")?;
    let entry = grundy::catalogue::script::ScriptEntry::new(&file, &source, Default::default())
        .map_err(|e| CliError::from(grundy::Error::from(e)))?;
    let mut registry = grundy::catalogue::Registry::new();
    registry.register(Box::new(entry));
    grundy_cli::analyze_in(&registry, args)
}
