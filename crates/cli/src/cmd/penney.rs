//! `grundy penney`: pattern races (Penney's game) — exact odds, durations, best replies.
//!
//! Flags and text layout only: every answer is one call to `grundy::penney::report`.

use crate::common::{print_json, print_out, progress_bar, CliError, CliResult};
use grundy::penney::report::{
    self, BestFirstReport, BestReplyReport, CycleReport, RaceOptions, RaceReport,
    SimulationRequest, TableReport,
};
use grundy::penney::{Alphabet, PenneyError};
use std::fmt::Display;

/// Longest exact fraction printed in text mode (longer ones: decimal and digit count).
const TEXT_FRACTION_LIMIT: usize = 60;

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
    #[arg(long, value_name = "PATTERN", allow_hyphen_values = true)]
    best_reply: Option<String>,
    /// The first player's best pattern of this length and the chance it guarantees.
    #[arg(long, value_name = "LENGTH", allow_hyphen_values = true)]
    best_first: Option<String>,
    /// Table of P(column pattern appears before row pattern) for all patterns of this length.
    #[arg(long, value_name = "LENGTH", allow_hyphen_values = true)]
    table: Option<String>,
    /// A non-transitive cycle of patterns of this length.
    #[arg(long, value_name = "LENGTH", allow_hyphen_values = true)]
    cycle: Option<String>,
    /// Probability that the race ends exactly at toss n, for n = 1..K.
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    distribution: Option<String>,
    /// Also simulate this many races and show the simulated numbers beside the exact ones.
    #[arg(long, value_name = "TRIALS", allow_hyphen_values = true)]
    simulate: Option<String>,
    /// Seed of the simulation's random generator (default 1; needs --simulate).
    #[arg(long, allow_hyphen_values = true)]
    seed: Option<String>,
    /// Print one JSON object (exact fractions as strings, plus decimals).
    #[arg(long)]
    json: bool,
}

/// A library error: a bug in the exact methods is a failure (exit 1), anything else is the
/// user's input (exit 2).
fn error(e: PenneyError) -> CliError {
    match e {
        PenneyError::Internal(_) => CliError::failure(e.to_string()),
        _ => CliError::usage(e.to_string()),
    }
}

fn parse_count(flag: &str, text: &str, max: u64) -> Result<u64, CliError> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(CliError::usage(format!("{flag}: negative number '{text}'")));
    }
    let n: u64 = t.parse().map_err(|_| {
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            CliError::usage(format!("{flag}: '{text}' is more than the limit {max}"))
        } else {
            CliError::usage(format!("{flag}: not a number '{text}'"))
        }
    })?;
    if n > max {
        return Err(CliError::usage(format!(
            "{flag}: '{text}' is more than the limit {max}"
        )));
    }
    Ok(n)
}

fn parse_length(flag: &str, text: &str) -> Result<usize, CliError> {
    let n = parse_count(flag, text, report::LENGTH_LIMIT as u64)?;
    if n == 0 {
        return Err(CliError::usage(format!(
            "{flag}: length must be at least 1, got '{text}'"
        )));
    }
    Ok(n as usize)
}

/// Exact fraction in text mode, abbreviated when it is very long.
fn frac(x: &impl Display) -> String {
    let s = x.to_string();
    if s.len() <= TEXT_FRACTION_LIMIT {
        s
    } else {
        format!("[{}-character fraction, see --json]", s.len())
    }
}

/// Prints a report as text, or as one JSON object with `--json`.
fn emit<R: serde::Serialize>(json: bool, r: &R, text: impl FnOnce(&R) -> String) -> CliResult {
    if json {
        let v = serde_json::to_value(r).map_err(|e| CliError::failure(e.to_string()))?;
        print_json(&v)
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
                    "--seed '{s}' needs --simulate (the seed only drives the simulation)"
                )));
            }
            seed
        }
        None => 1,
    };
    let al = Alphabet::from_spec(args.alphabet.as_deref(), args.prob.as_deref()).map_err(error)?;
    if let Some(p) = &args.best_reply {
        let r = report::best_reply(&al, p).map_err(error)?;
        return emit(args.json, &r, best_reply_text);
    }
    if let Some(m) = &args.best_first {
        let r = report::best_first(&al, parse_length("--best-first", m)?).map_err(error)?;
        return emit(args.json, &r, best_first_text);
    }
    if let Some(m) = &args.table {
        let r = report::table(&al, parse_length("--table", m)?).map_err(error)?;
        return emit(args.json, &r, table_text);
    }
    if let Some(m) = &args.cycle {
        let r = report::cycle(&al, parse_length("--cycle", m)?).map_err(error)?;
        return emit(args.json, &r, cycle_text);
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
    emit(args.json, &r.map_err(error)?, race_text)
}

fn race_text(r: &RaceReport) -> String {
    let mut t = String::new();
    let probs: Vec<String> = r
        .letter_probabilities
        .iter()
        .map(|(c, p)| format!("{c}={p}"))
        .collect();
    t.push_str(&format!(
        "{} over {} ({})\n",
        if r.patterns.len() == 1 {
            "Waiting time".to_string()
        } else {
            format!("Race of {} patterns", r.patterns.len())
        },
        r.alphabet,
        if r.is_uniform() {
            format!("each {}", r.letter_probabilities[0].1)
        } else {
            probs.join(", ")
        }
    ));
    let width = r
        .patterns
        .iter()
        .map(|p| p.pattern.chars().count())
        .max()
        .unwrap_or(1)
        .clamp(7, 40);
    t.push_str(&format!(
        "{:<width$}  {:<16} {:<12}",
        "pattern", "P(first)", "decimal"
    ));
    if !r.chain_skipped() {
        t.push_str("  E[N | wins]");
    }
    if r.simulation.is_some() {
        t.push_str("  simulated");
    }
    t.push('\n');
    for p in &r.patterns {
        t.push_str(&format!(
            "{:<width$}  {:<16} {:<12}",
            p.pattern,
            frac(&p.win),
            p.win.decimal()
        ));
        if let Some(e) = &p.expected_given_win {
            let e = e.as_ref().map_or("-".to_string(), |e| {
                format!("{} ({})", frac(e), e.decimal())
            });
            t.push_str(&format!("  {e}"));
        }
        if let Some(f) = p.simulated_win_decimal {
            t.push_str(&format!("  {f:.6}"));
        }
        if let Some(j) = &p.contains {
            t.push_str(&format!("  (contains {j}, can never win)"));
        }
        t.push('\n');
    }
    t.push_str(&format!(
        "E[N] = {} ({})",
        frac(&r.expected_tosses),
        r.expected_tosses.decimal()
    ));
    if let Some(v) = &r.variance {
        t.push_str(&format!("   Var[N] = {} ({})", frac(v), v.decimal()));
    }
    if let Some(s) = &r.simulation {
        t.push_str(&format!(
            "\nsimulated: {} races, seed {}: mean {:.6}, variance {:.6}",
            s.trials, s.seed, s.mean_length, s.variance
        ));
    }
    t.push('\n');
    if let Some(c) = &r.conway {
        let bits = &c.leading_numbers;
        let short = |b: &str| {
            if b.len() > 40 {
                format!("{}… ({} bits)", &b[..40], b.len())
            } else {
                b.to_string()
            }
        };
        t.push_str(&format!(
            "Conway (A = {}, B = {}): AA={} AB={} BB={} BA={}; odds B:A = {}:{}\n",
            c.a,
            c.b,
            short(&bits.aa),
            short(&bits.ab),
            short(&bits.bb),
            short(&bits.ba),
            frac(&c.odds_b_to_a.b),
            frac(&c.odds_b_to_a.a)
        ));
    }
    let methods: Vec<&str> = r.methods_agreeing.iter().map(|m| m.name()).collect();
    t.push_str(&format!("Exact methods agreeing: {}", methods.join(", ")));
    if r.chain_skipped() {
        t.push_str(&format!(
            " (Markov chain skipped: {} states, {} unknowns per state, too slow)",
            r.chain_states,
            r.unknowns_per_state()
        ));
    }
    t.push('\n');
    if !r.distribution.is_empty() {
        t.push_str("n  P(race ends at toss n)\n");
        for d in &r.distribution {
            t.push_str(&format!(
                "{} {} ({})\n",
                d.n,
                frac(&d.prob),
                d.prob.decimal()
            ));
        }
    }
    t
}

fn best_reply_text(r: &BestReplyReport) -> String {
    let ties = &r.ties[1.min(r.ties.len())..];
    format!(
        "Best reply to {}: {} appears first with probability {} ({}){}\nsearch: {}\n",
        r.pattern,
        r.best_reply,
        frac(&r.win),
        r.win.decimal(),
        if ties.is_empty() {
            String::new()
        } else {
            format!("; equally good: {}", ties.join(" "))
        },
        r.search_description()
    )
}

fn best_first_text(r: &BestFirstReport) -> String {
    format!(
        "First player's best pattern of length {}: {} wins with probability at least {} ({}); the best reply is {}\n",
        r.length,
        r.pattern,
        r.guaranteed,
        r.guaranteed.decimal(),
        r.best_reply
    )
}

fn table_text(r: &TableReport) -> String {
    let cell = r
        .table
        .iter()
        .flatten()
        .flatten()
        .map(|p| p.to_string().len())
        .chain(r.patterns.iter().map(|n| n.chars().count()))
        .max()
        .unwrap_or(1);
    let mut t = format!(
        "P(column appears before row), patterns of length {}\n{:<cell$}",
        r.length, ""
    );
    for n in &r.patterns {
        t.push_str(&format!(" {n:>cell$}"));
    }
    t.push('\n');
    for (name, row) in r.patterns.iter().zip(&r.table) {
        t.push_str(&format!("{name:<cell$}"));
        for x in row {
            let s = x.as_ref().map_or("-".to_string(), |p| p.to_string());
            t.push_str(&format!(" {s:>cell$}"));
        }
        t.push('\n');
    }
    t
}

fn cycle_text(r: &CycleReport) -> String {
    let Some(c) = &r.cycle else {
        return format!(
            "No non-transitive cycle of best replies for length {}\n",
            r.length
        );
    };
    let mut t = format!(
        "Non-transitive cycle of length-{} patterns (each beats the one before it):\n",
        r.length
    );
    for (k, step) in c.iter().enumerate() {
        let prev = &c[(k + c.len() - 1) % c.len()].pattern;
        t.push_str(&format!(
            "  {} beats {} with probability {} ({})\n",
            step.pattern,
            prev,
            step.beats_previous,
            step.beats_previous.decimal()
        ));
    }
    t
}
