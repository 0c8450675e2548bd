//! `grundy serve`: the web playground and its JSON API (crate `grundy-serve`).

use grundy_cli::common::{count, CliError, CliResult};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "The page plays every game of `grundy play` against the engine, plots \
heap sequences with their period, races patterns, and answers the JSON API (docs/json.md):
  /api/nim?heaps=3,4,5   /api/heap?rule=0.137&upto=1000   /api/heap/analyze?rule=kayles&heaps=7,9,12
  /api/wythoff?a=3&b=5   /api/fib?n=1000   /api/penney?patterns=HTH,THH   /api/health

Examples:
  grundy serve                          http://127.0.0.1:8080/ (loopback only)
  grundy serve --addr 0.0.0.0:8000      every interface (mind who can reach it)"
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
}

pub fn run(args: Args) -> CliResult {
    let config = grundy_serve::Config {
        max_upto: count(&args.max_upto, "--max-upto")?,
        timeout: std::time::Duration::from_millis(count(&args.timeout_ms, "--timeout-ms")?),
        ..grundy_serve::Config::default()
    };
    grundy_serve::run(&args.addr, config).map_err(|message| {
        // A bad address is the user's; a busy port or a runtime failure is not.
        let code = if message.starts_with("--addr") { 2 } else { 1 };
        CliError { code, message }
    })
}
