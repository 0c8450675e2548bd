//! `grundy fib`: Fibonacci Nim and its k-multiplier family.

use crate::cmd::usage;
use crate::common::{print_out, print_result, CliResult, Output};
use grundy::games::{fib, parse_bounded, parse_count};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: one pile; the first move takes 1..n-1 counters, each later move at \
most K times the previous one (K = 2: Fibonacci Nim); taking the last counter wins.

Examples:
  grundy fib 1000000               who wins the opening of a pile of 1000000, and how
  grundy fib --limit 3 100         100 counters, the mover may take at most 3
  grundy fib --k 3 100             the 3-multiplier game
  grundy fib 1000000000000000000000000000000 --json"
)]
pub struct Args {
    /// Counters in the pile (up to 10000 digits).
    #[arg(value_name = "PILE", allow_negative_numbers = true)]
    pile: String,
    /// The most the player to move may take (default: PILE - 1, the opening move).
    #[arg(long, value_name = "L", allow_negative_numbers = true)]
    limit: Option<String>,
    /// The multiplier: each move takes at most K times the previous one (1..=1000).
    #[arg(
        long,
        value_name = "K",
        default_value = "2",
        allow_negative_numbers = true
    )]
    k: String,
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> CliResult {
    let k = parse_bounded(&args.k, "multiplier", 1, fib::MAX_MULTIPLIER).map_err(usage)?;
    let pile = parse_count(&args.pile, "pile").map_err(usage)?;
    let limit = match &args.limit {
        Some(l) => Some(parse_count(l, "limit").map_err(usage)?),
        None => None,
    };
    let a = fib::analyze(&pile, limit.as_ref(), k).map_err(usage)?;
    if args.output.json {
        return print_result(&a);
    }
    print_out(&a.describe())
}
