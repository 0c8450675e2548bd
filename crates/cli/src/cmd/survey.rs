//! `grundy survey`: solve every game of a family into a SQLite database, or report on one.
//! The work is `grundy::survey::run` and `grundy::survey::report`.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use crate::common::{
    count, print_out, print_result, progress_bar, CliError, CliResult, Output, STOP,
};
use grundy::survey::{self, Event, Family, RunOptions};

/// Arguments of `grundy survey`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Families: octal:D (codes 0.d1..dk, k <= D), hex:D (digits 0-F), sub:M \
(subtraction sets within 1..M), allbut:M, file:PATH (one rule per line).

Examples:
  grundy survey octal:2 --db s.sqlite --upto 2^16      every 2-digit octal game
  grundy survey octal:3 --db s.sqlite --upto 2^20 --budget 60 --save-sequences seqs/
  grundy survey octal:2 --db s.sqlite --misere 16       and each game's misère quotient to heap 16
  grundy survey --db s.sqlite --report                 the summary again (--json, --csv)
Kill it at any time: rerunning the same command skips the finished games."
)]
pub struct Args {
    /// The family to survey (octal:3, hex:2, sub:8, allbut:4, file:rules.txt); omit with --report.
    family: Option<String>,
    /// The SQLite database (created if needed; finished games in it are skipped).
    #[arg(long, value_name = "FILE")]
    db: PathBuf,
    /// Compute each game at most to G(0..=N) (2^20, 1e6, …).
    #[arg(long, value_name = "N", default_value = "2^16")]
    upto: String,
    /// Seconds per game; a game still unsolved then is recorded as unknown up to where it got.
    #[arg(long, value_name = "SECONDS")]
    budget: Option<String>,
    /// Games at once (default: one per core).
    #[arg(long, value_name = "J")]
    jobs: Option<String>,
    /// Save the sequence of each unknown game in DIR; a later survey with a larger --upto
    /// continues from it instead of starting again.
    #[arg(long, value_name = "DIR")]
    save_sequences: Option<PathBuf>,
    /// Also each game's misère quotient for heaps up to N (default 16): |Q|, |P|, tame, or
    /// "not converged" (more than 400 elements) / "budget" (search or verification budget).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "16")]
    misere: Option<String>,
    /// Print the database's summary instead of surveying.
    #[arg(long)]
    report: bool,
    /// With --report: every row as CSV.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    #[command(flatten)]
    out: Output,
}

/// Runs `grundy survey`.
pub fn run(args: Args) -> CliResult {
    if args.report || args.csv {
        if args.family.is_some() {
            return Err(CliError::usage(
                "--report takes no family (it reports the whole database)",
            ));
        }
        let report = survey::report(&args.db)?;
        return render(&report, args.out.json, args.csv);
    }
    let Some(family) = &args.family else {
        return Err(CliError::usage(
            "a family is needed (octal:D, hex:D, sub:M, allbut:M, file:PATH), or --report",
        ));
    };
    let family = Family::parse(family).map_err(grundy::Error::from)?;
    let upto = count(&args.upto, "--upto")?;
    let budget = match &args.budget {
        Some(b) => {
            let s: f64 = b
                .parse()
                .ok()
                .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e9)
                .ok_or_else(|| {
                    CliError::usage(format!(
                        "--budget: {} is not a positive number of seconds",
                        grundy::text::quote(b)
                    ))
                })?;
            Some(Duration::from_secs_f64(s))
        }
        None => None,
    };
    let jobs = match &args.jobs {
        Some(j) => {
            let j = count(j, "--jobs")?;
            if j == 0 || j > 256 {
                return Err(CliError::usage("--jobs: from 1 to 256"));
            }
            j as usize
        }
        None => 0,
    };
    let opts = RunOptions {
        upto,
        budget,
        jobs,
        save: args.save_sequences.clone(),
        misere: match &args.misere {
            Some(m) => {
                let m = count(m, "--misere")?;
                if m > 64 {
                    return Err(CliError::usage("--misere: a heap bound of at most 64"));
                }
                Some(m)
            }
            None => None,
        },
    };
    let bar = progress_bar(0, "games");
    let mut current: BTreeSet<String> = BTreeSet::new();
    let mut summary_line = String::new();
    let show = |bar: &indicatif::ProgressBar, current: &BTreeSet<String>| {
        let list: Vec<&str> = current.iter().map(String::as_str).take(4).collect();
        let more = current.len().saturating_sub(4);
        let extra = if more > 0 {
            format!(" +{more}")
        } else {
            String::new()
        };
        bar.set_message(format!("games (now: {}{extra})", list.join(" ")));
    };
    let result = survey::run(&family, &args.db, &opts, Some(&STOP), &mut |e| match e {
        Event::Planned {
            total,
            todo,
            finished,
            equivalent,
        } => {
            bar.set_length(todo);
            summary_line = format!(
                "{family}: {total} games, {equivalent} equivalent to an earlier one, {finished} finished before, {todo} to solve"
            );
            bar.println(&summary_line);
        }
        Event::Started { rule } => {
            current.insert(rule);
            show(&bar, &current);
        }
        Event::Finished { row, done, .. } => {
            current.remove(&row.rule);
            bar.set_position(done);
            show(&bar, &current);
        }
    });
    bar.finish_and_clear();
    let report = match result {
        Ok(r) => r,
        Err(grundy::Error::Stopped { done }) => {
            return Err(CliError {
                code: 130,
                message: format!(
                    "stopped after {} games of this run; every finished game is in {}: run the same command again to continue",
                    done.unwrap_or(0),
                    args.db.display()
                ),
            })
        }
        Err(e) => return Err(e.into()),
    };
    if !args.out.json && !summary_line.is_empty() {
        print_out(&format!("{summary_line}\n"))?;
    }
    render(&report, args.out.json, false)
}

fn render(report: &survey::Report, json: bool, csv: bool) -> CliResult {
    if csv {
        print_out(&report.csv())
    } else if json {
        print_result(report)
    } else {
        print_out(&report.describe())
    }
}
