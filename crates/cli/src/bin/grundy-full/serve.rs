//! `grundy serve`: the web playground and its JSON API (crate `grundy-serve`).

use grundy_cli::common::{count, CliError, CliResult, MaxPositions};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "The page plays every game of `grundy play` against the engine, plots \
heap sequences with their period, races patterns, and answers the JSON API (docs/json.md):
  /api/analyze?game=kayles&position=5%207%209   (or POST /api/analyze {\"game\", \"position\"})
  /api/heap?rule=0.137&upto=1000   /api/penney?patterns=HTH,THH   /api/games   /api/health
Every request starts on a cheap pool that is never shed; work that outgrows its first
--cheap-ms moves to the --workers pool, which answers 503 when full.

Examples:
  grundy serve                          http://127.0.0.1:8080/ (loopback only)
  grundy serve --addr 0.0.0.0:8000      every interface (mind who can reach it)
  grundy serve --timeout-ms 600000 --max-positions 1e9   long searches, for yourself"
)]
pub struct Args {
    /// Address and port to listen on.
    #[arg(long, value_name = "ADDR", default_value = grundy_serve::DEFAULT_ADDR)]
    addr: String,
    /// Largest `upto` a request may ask of /api/heap.
    #[arg(long, value_name = "N", default_value = "100000")]
    max_upto: String,
    /// Time budget of one request, in milliseconds.
    #[arg(long, value_name = "MS", default_value = "5000")]
    timeout_ms: String,
    /// Requests computing at once on the expensive pool (default: twice the cores).
    #[arg(long, value_name = "N")]
    workers: Option<String>,
    /// Time of a request's cheap attempt, in milliseconds, before it moves to the expensive
    /// pool.
    #[arg(long, value_name = "MS", default_value = "20")]
    cheap_ms: String,
    // Positions a request's search may visit (default 2e6: a few seconds; raise it with
    // --timeout-ms for a server of your own).
    #[command(flatten)]
    max_positions: MaxPositions,
}

pub fn run(args: Args) -> CliResult {
    let defaults = grundy_serve::Config::default();
    let workers = match &args.workers {
        Some(w) => usize::try_from(count(w, "--workers")?)
            .unwrap_or(usize::MAX)
            .clamp(1, 4096),
        None => defaults.workers,
    };
    let config = grundy_serve::Config {
        max_upto: count(&args.max_upto, "--max-upto")?,
        timeout: std::time::Duration::from_millis(count(&args.timeout_ms, "--timeout-ms")?),
        cheap_time: std::time::Duration::from_millis(count(&args.cheap_ms, "--cheap-ms")?),
        workers,
        budget: args.max_positions.budget(defaults.budget)?,
        ..defaults
    };
    grundy_serve::run(&args.addr, config).map_err(|message| {
        // A bad address is the user's; a busy port or a runtime failure is not.
        let code = if message.starts_with("--addr") { 2 } else { 1 };
        CliError { code, message }
    })
}
