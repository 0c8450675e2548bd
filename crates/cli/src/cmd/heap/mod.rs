//! `grundy heap`: heap games (subtraction games, take-and-break codes, named games):
//! sequences, periods, plots, sums of heaps, record-scale runs. Flags and rendering only; every
//! answer is one call of `grundy::heap`.

mod record;

use crate::cmd::catalogue;
use crate::common::{
    count, print_out, print_result, progress_bar, stream_out, CliError, CliResult, MaxPositions,
    Output, STOP,
};
use grundy::catalogue::Registry;
use grundy::heap::{self, describe_period, describe_rule, Compute, EngineChoice, Rule};
use std::ffi::OsString;

#[derive(clap::Args, Debug)]
#[command(after_help = "Rules:
  0.77  .07  0.137  4!.0  0.3F  0.[3]  0.[12]   take-and-break codes (CGSuite notation;
                                               ! unequal, ? not all equal, = all equal)
  sub:1,3,4  sub:odd|even|fib|pow2|squares|primes  allbut:1,2   subtraction games
  nim kayles dawsons-kayles dawsons-chess treblecross officers grundys-game pimber
  odd-even-nim polygon-chords crosses kings    named games (natural heap sizes)

Numbers: 1000000, 1_000_000, 1e6 and 2^20 are the same kind of count.

Examples:
  grundy heap kayles --period                 period 12, preperiod 71, proven
  grundy heap kayles --upto 100 --period      the sequence and what G(0..100) shows
  grundy heap 0.07 --upto 1000 --format bfile OEIS b-file lines `n G(n)`
  grundy heap sub:1,3,4 --upto 50 --json      one JSON object: rule, values, period
  grundy heap 0.137 --period --prove-upto 1e5 compute until the period is proven
  grundy heap kayles --upto 200 --plot kayles.svg
  grundy heap kayles --position 7 9 12        value, outcome and every winning move
  grundy heap kayles --position 4 5 --misere  the same when the last mover loses
  grundy heap kayles --position 1e12 65 10 --misere
                     any heap: Kayles' misère quotient is proven for every heap (cached)
  grundy heap 4!.0 --upto 2^24 --summary      Grundy's game with the record engine
  grundy heap kayles --upto 1e8 --format bfile
                     past its proven period, the values follow from it (said on stderr)

Record runs a researcher can continue:
  grundy heap 4!.0 --upto 2^24 --summary --save g4   save every value to the directory g4
  grundy heap 4!.0 --upto 2^25 --summary --save g4   extend it: resumes from heap 2^24 + 1
  grundy heap 4!.0 --load g4 --upto 1000             read G(0..=1000) back from g4
  grundy heap 4!.0 --load g4 --summary --json        the saved run's summary, nothing computed
  A directory of another rule, or holding more heaps than --upto, is refused.")]
pub struct Args {
    /// The rule: a take-and-break code, a subtraction set or a game name (see below).
    #[arg(value_name = "RULE", allow_negative_numbers = true)]
    pub rule: String,
    /// Compute G(0..=N) (default 100).
    #[arg(long = "upto", value_name = "N", allow_negative_numbers = true)]
    upto: Option<String>,
    /// Output format of the sequence.
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Report the smallest period, the preperiod and the saltus, and whether it is proven.
    /// Without --upto, keep computing until a theorem proves the period (up to 2^22 heaps;
    /// --prove-upto sets the limit), or look at 10000 heaps where no theorem applies.
    #[arg(long)]
    period: bool,
    /// Keep doubling N (from --upto) until the period is proven or N reaches LIMIT.
    #[arg(long, value_name = "LIMIT", allow_negative_numbers = true)]
    prove_upto: Option<String>,
    /// Draw G(n) against n to FILE (.svg with labels, .png without text); the periodic
    /// part is shaded.
    #[arg(long, value_name = "FILE")]
    plot: Option<std::path::PathBuf>,
    /// Write the values to FILE as an OEIS b-file (`n G(n)` lines) instead of printing them;
    /// stdout keeps the rest (the period, or the JSON object without `values`).
    #[arg(long, value_name = "FILE")]
    values: Option<std::path::PathBuf>,
    /// Analyse the sum of heaps of these sizes: value, outcome, every winning move (the same
    /// as `grundy RULE H1 H2 …`).
    #[arg(long, value_name = "HEAP", num_args = 1.., allow_negative_numbers = true)]
    position: Vec<String>,
    /// With --position: misère play (the player who makes the last move loses): a product in
    /// the rule's misère quotient where one is found (every heap, of any size, once its Φ is
    /// proven periodic), else a search over whole positions.
    #[arg(long)]
    misere: bool,
    /// With --misere: keep proven misère quotients in DIR (default: $GRUNDY_CACHE_DIR, empty
    /// for none, else $XDG_CACHE_HOME/grundy or ~/.cache/grundy). It is only a cache: delete
    /// it (rm -r ~/.cache/grundy) to clear it; a damaged file is rebuilt.
    #[arg(long, value_name = "DIR")]
    pub(crate) cache_dir: Option<std::path::PathBuf>,
    #[command(flatten)]
    max_positions: MaxPositions,
    /// Engine: `auto` (the record engine where it pays), `reference` or `sparse`.
    #[arg(long, value_enum, default_value_t = Engine::Auto)]
    engine: Engine,
    /// Worker threads of the record engine (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
    #[command(flatten)]
    record: record::RecordArgs,
    #[command(flatten)]
    output: Output,
}

/// `--format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// Ten values a row, each row labelled with its first n.
    Table,
    /// OEIS b-file lines `n G(n)`.
    Bfile,
}

/// `--engine`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// The record engine for splitting codes from 4096 heaps on, else the plain engines.
    Auto,
    /// The plain engines (mex over every option): the yardstick.
    Reference,
    /// The record (rare/common) engine.
    Sparse,
}

impl Args {
    /// The library's computation settings: engine, threads, a progress bar, Ctrl-C.
    fn compute(&self) -> Compute<'static> {
        let engine = match self.engine {
            Engine::Auto => EngineChoice::Auto,
            Engine::Reference => EngineChoice::Reference,
            Engine::Sparse => EngineChoice::Sparse,
        };
        let bar = progress_bar(0, "heap");
        let mut first = true;
        Compute::new()
            .engine(engine)
            .threads(self.threads)
            .stop_when(&STOP)
            .on_progress(move |p| {
                if first {
                    if p.resumed_at > 0 {
                        eprintln!("grundy: resuming from heap {}", p.resumed_at);
                    }
                    bar.set_length(p.total);
                    bar.set_position(p.resumed_at);
                    bar.reset_eta();
                    first = false;
                }
                bar.set_position(p.done);
                if p.done >= p.total {
                    bar.finish_and_clear();
                }
            })
    }

    fn upto(&self) -> Result<Option<u64>, CliError> {
        self.upto.as_deref().map(|t| count(t, "--upto")).transpose()
    }
}

pub fn run(args: Args) -> CliResult {
    let rule = heap::parse(&args.rule).map_err(|e| CliError::usage(e.to_string()))?;
    let upto = args.upto()?;
    if args.record.is_record_run() {
        return record::run(&args, &rule, upto);
    }
    if !args.position.is_empty() {
        return run_position(&args);
    }
    if args.misere || args.max_positions.max_positions.is_some() || args.cache_dir.is_some() {
        return Err(CliError::usage(
            "--misere, --max-positions and --cache-dir apply to a position (--position H1 H2 …)",
        ));
    }
    // `--period` alone means "find the period": keep computing until it is proven.
    let period_only = args.period && upto.is_none();
    let mut c = args.compute();
    let mut seq = match (&args.prove_upto, upto) {
        (Some(t), n) => {
            let n = n.unwrap_or(heap::DEFAULT_UPTO);
            let limit = count(t, "--prove-upto")?.max(n);
            heap::until_proven(&rule, n, limit, &mut c)
                .map_err(|e| flag_error("--prove-upto", limit, e))?
        }
        (None, None) if period_only => heap::find_period(&rule, &mut c)?,
        (None, n) => {
            let n = n.unwrap_or(heap::DEFAULT_UPTO);
            heap::sequence(&rule, n, &mut c).map_err(|e| flag_error("--upto", n, e))?
        }
    };
    drop(c);
    let shortcut = seq.describe_shortcut();
    if let Some(path) = &args.values {
        write_values_file(path, &seq.values)?;
        eprintln!("grundy: wrote G(0..={}) to {}", seq.upto, path.display());
        seq.values = Vec::new();
    }
    if let Some(path) = &args.plot {
        if seq.values.is_empty() {
            return Err(CliError::usage("--plot and --values go separately"));
        }
        let name = describe_rule(&rule);
        crate::cmd::write_plot_of(path, &name, &seq.values, seq.period.as_ref())?;
        eprintln!(
            "grundy: wrote the plot of G(0..={}) to {}",
            seq.upto,
            path.display()
        );
    }
    if args.output.json {
        return print_result(&seq);
    }
    let period_line = (args.period || args.prove_upto.is_some())
        .then(|| describe_period(&rule, seq.period.as_ref(), seq.upto));
    if args.values.is_some() || (period_only && args.format != Format::Bfile) {
        // The values went to a file, or the user asked for the period, not the (possibly
        // long) list of values.
        let line =
            period_line.unwrap_or_else(|| describe_period(&rule, seq.period.as_ref(), seq.upto));
        let shortcut = shortcut.map(|s| format!("{s}\n")).unwrap_or_default();
        return print_out(&format!("{}: {line}\n{shortcut}", describe_rule(&rule)));
    }
    if args.format == Format::Bfile {
        // Keep the b-file clean: the period goes to stderr.
        for line in [&period_line, &shortcut].into_iter().flatten() {
            eprintln!("{line}");
        }
        return stream_out(|out| write_bfile(out, &seq.values));
    }
    stream_out(|out| {
        write_table(out, &rule, &seq.values)?;
        for line in [&period_line, &shortcut].into_iter().flatten() {
            writeln!(out, "{line}")?;
        }
        Ok(())
    })
}

/// Names the flag and its value in front of a library error.
fn flag_error(flag: &str, n: u64, e: grundy::Error) -> CliError {
    let mut err = CliError::from(e);
    if err.code == 2 {
        err.message = format!("{flag} {n}: {}", err.message);
    }
    err
}

/// The readable table: ten values per row, each row labelled with its first n.
fn write_table(out: &mut dyn std::io::Write, rule: &Rule, values: &[u32]) -> std::io::Result<()> {
    writeln!(
        out,
        "G(n) of {}, n = 0..{}",
        describe_rule(rule),
        values.len().saturating_sub(1)
    )?;
    let width = values.iter().max().map_or(1, |m| m.to_string().len());
    let label = (values.len().saturating_sub(1)).to_string().len();
    for (row, chunk) in values.chunks(10).enumerate() {
        write!(out, "{:>label$}:", row * 10)?;
        for v in chunk {
            write!(out, " {v:>width$}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Writes the b-file of `values` to `path`, streamed.
fn write_values_file(path: &std::path::Path, values: &[u32]) -> CliResult {
    let fail =
        |e: std::io::Error| CliError::failure(format!("cannot write {}: {e}", path.display()));
    let file = std::fs::File::create(path).map_err(fail)?;
    let mut out = std::io::BufWriter::new(file);
    write_bfile(&mut out, values).map_err(fail)?;
    std::io::Write::flush(&mut out).map_err(fail)
}

/// OEIS b-file lines `n G(n)`.
fn write_bfile(out: &mut dyn std::io::Write, values: &[u32]) -> std::io::Result<()> {
    for (n, v) in values.iter().enumerate() {
        writeln!(out, "{n} {v}")?;
    }
    Ok(())
}

/// `--position H1 H2 …`: the registry's question about the sum, `grundy RULE H1 H2 …` (one
/// door for every game): its flags passed on, its answer the same report. `--cache-dir` was
/// handed to the library at the start (`crate::main`).
fn run_position(args: &Args) -> CliResult {
    if args.engine != Engine::Auto {
        return Err(CliError::usage(
            "--engine chooses a sequence's engine; a position's is the library's choice",
        ));
    }
    let mut words: Vec<OsString> = args.position.iter().map(OsString::from).collect();
    for (flag, on) in [("--misere", args.misere), ("--json", args.output.json)] {
        words.extend(on.then(|| flag.into()));
    }
    if let Some(n) = &args.max_positions.max_positions {
        words.extend(["--max-positions".into(), n.into()]);
    }
    if args.threads > 0 {
        words.extend(["--threads".into(), args.threads.to_string().into()]);
    }
    catalogue::run(&Registry::new(), &args.rule, &args.rule, words)
}
