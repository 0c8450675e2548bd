//! `grundy penney`: pattern races (Penney's game) — exact odds, durations, best replies.
//!
//! Flags and text layout only: every answer is one call to `grundy::penney::report`.

use crate::common::{count, print_out, print_result, progress_bar, CliError, CliResult, Output};
use grundy::penney::report::{
    self, BestFirstReport, BestReplyReport, CycleReport, RaceOptions, RaceReport,
    SimulationRequest, TableReport,
};
use grundy::penney::{Alphabet, PenneyError};
use grundy::text::quote;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy penney HTH THH                     who comes first, odds, expected tosses
  grundy penney HHH HTH TTH --distribution 10
  grundy penney --alphabet 123456 666 123   a die
  grundy penney --prob H=2/3,T=1/3 HHH THH  a biased coin (exact fractions)
  grundy penney ABRACADABRA --alphabet ABCDEFGHIJKLMNOPQRSTUVWXYZ
  grundy penney --best-reply HHTH           the second player's best answer
  grundy penney --best-first 4              the first player's best pattern of length 4
  grundy penney --table 3                   P(column beats row) for all pairs of length 3
  grundy penney --cycle 3                   a non-transitive cycle
  grundy penney HTH THH --simulate 1000000 --seed 7 --json")]
pub struct Args {
    /// Patterns racing to appear first (one pattern: its waiting time).
    patterns: Vec<String>,
    /// The symbols tossed, equally likely unless --prob is given (default: the coin HT).
    #[arg(long, allow_hyphen_values = true)]
    alphabet: Option<String>,
    /// Exact letter probabilities, e.g. H=2/3,T=1/3 (fractions or decimals, summing to 1).
    #[arg(long, allow_hyphen_values = true)]
    prob: Option<String>,
    /// Best reply to this pattern among all patterns of the same length.
    #[arg(long, value_name = "PATTERN", allow_negative_numbers = true)]
    best_reply: Option<String>,
    /// The first player's best pattern of this length and the chance it guarantees.
    #[arg(long, value_name = "LENGTH", allow_negative_numbers = true)]
    best_first: Option<String>,
    /// Table of P(column pattern appears before row pattern) for all patterns of this length.
    #[arg(long, value_name = "LENGTH", allow_negative_numbers = true)]
    table: Option<String>,
    /// A non-transitive cycle of patterns of this length.
    #[arg(long, value_name = "LENGTH", allow_negative_numbers = true)]
    cycle: Option<String>,
    /// Probability that the race ends exactly at toss n, for n = 1..K.
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    distribution: Option<String>,
    /// Also simulate this many races and show the simulated numbers beside the exact ones.
    #[arg(long, value_name = "TRIALS", allow_negative_numbers = true)]
    simulate: Option<String>,
    /// Seed of the simulation's random generator (default 1; needs --simulate).
    #[arg(long, allow_negative_numbers = true)]
    seed: Option<String>,
    #[command(flatten)]
    output: Output,
    /// Use the literature's notation (E[N | wins], E[N], Var[N]) and show Conway's leading
    /// numbers.
    #[arg(long)]
    verbose: bool,
}

/// A library error, classified by the library (a bug in the exact methods is a failure, exit
/// 1; anything else the user's input, exit 2).
fn error(e: PenneyError) -> CliError {
    CliError::from(grundy::Error::from(e))
}

/// A count in the library's one grammar (`100`, `1e6`, `2^20`), at most `max`.
fn parse_count(flag: &str, text: &str, max: u64) -> Result<u64, CliError> {
    let n = count(text, flag)?;
    if n > max {
        return Err(CliError::usage(format!(
            "{flag}: {} is more than the limit {max}",
            quote(text)
        )));
    }
    Ok(n)
}

fn parse_length(flag: &str, text: &str) -> Result<usize, CliError> {
    let n = parse_count(flag, text, report::LENGTH_LIMIT as u64)?;
    if n == 0 {
        return Err(CliError::usage(format!(
            "{flag}: length must be at least 1, got {}",
            quote(text)
        )));
    }
    Ok(n as usize)
}

/// Prints a report as text, or as one JSON object with `--json`.
fn emit<R: serde::Serialize>(json: bool, r: &R, text: impl FnOnce(&R) -> String) -> CliResult {
    if json {
        print_result(r)
    } else {
        print_out(&text(r))
    }
}

pub fn run(args: Args) -> CliResult {
    let modes = [
        !args.patterns.is_empty(),
        args.best_reply.is_some(),
        args.best_first.is_some(),
        args.table.is_some(),
        args.cycle.is_some(),
    ];
    match modes.iter().filter(|&&m| m).count() {
        0 => {
            return Err(CliError::usage(
                "give patterns, or one of --best-reply, --best-first, --table, --cycle",
            ))
        }
        1 => {}
        _ => {
            return Err(CliError::usage(
                "use only one of: patterns, --best-reply, --best-first, --table, --cycle",
            ))
        }
    }
    if args.patterns.is_empty() && (args.simulate.is_some() || args.distribution.is_some()) {
        return Err(CliError::usage(
            "--simulate and --distribution need patterns to race",
        ));
    }
    let seed = match &args.seed {
        Some(s) => {
            let seed = parse_count("--seed", s, u64::MAX)?;
            if args.simulate.is_none() {
                return Err(CliError::usage(format!(
                    "--seed {} needs --simulate (the seed only drives the simulation)",
                    quote(s)
                )));
            }
            seed
        }
        None => 1,
    };
    let al = Alphabet::from_spec(args.alphabet.as_deref(), args.prob.as_deref()).map_err(error)?;
    if let Some(p) = &args.best_reply {
        let r = report::best_reply(&al, p).map_err(error)?;
        return emit(args.output.json, &r, BestReplyReport::describe);
    }
    if let Some(m) = &args.best_first {
        let r = report::best_first(&al, parse_length("--best-first", m)?).map_err(error)?;
        return emit(args.output.json, &r, BestFirstReport::describe);
    }
    if let Some(m) = &args.table {
        let r = report::table(&al, parse_length("--table", m)?).map_err(error)?;
        return emit(args.output.json, &r, TableReport::describe);
    }
    if let Some(m) = &args.cycle {
        let r = report::cycle(&al, parse_length("--cycle", m)?).map_err(error)?;
        return emit(args.output.json, &r, CycleReport::describe);
    }
    let distribution = match &args.distribution {
        Some(k) => parse_count("--distribution", k, report::DISTRIBUTION_LIMIT as u64)? as usize,
        None => 0,
    };
    let trials = match &args.simulate {
        Some(t) => Some(parse_count(
            "--simulate",
            t,
            report::SIMULATION_TRIALS_LIMIT,
        )?),
        None => None,
    };
    let options = RaceOptions {
        distribution,
        simulate: trials.map(|trials| SimulationRequest { trials, seed }),
    };
    let mut bar = None;
    let r = report::race(al, &args.patterns, &options, &mut |done| {
        bar.get_or_insert_with(|| progress_bar(trials.unwrap_or(0), "simulating"))
            .set_position(done)
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let verbose = args.verbose;
    emit(args.output.json, &r.map_err(error)?, |r: &RaceReport| {
        r.describe(verbose)
    })
}
