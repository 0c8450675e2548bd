//! `grundy fib`: Fibonacci Nim and its k-multiplier family.

use crate::common::{print_out, print_result, CliError, CliResult};
use grundy::games::fib::{self, FibAnalysis};
use grundy::games::{parse_bounded, parse_natural, GameError, UBig};
use grundy::Outcome;
use std::fmt::Write as _;

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
    #[arg(value_name = "PILE", allow_hyphen_values = true)]
    pile: String,
    /// The most the player to move may take (default: PILE - 1, the opening move).
    #[arg(long, value_name = "L", allow_hyphen_values = true)]
    limit: Option<String>,
    /// The multiplier: each move takes at most K times the previous one (1..=1000).
    #[arg(
        long,
        value_name = "K",
        default_value = "2",
        allow_hyphen_values = true
    )]
    k: String,
    /// Print one JSON object: game, k, pile, limit, opening, outcome, grundy (piles up to
    /// 2000), representation, winning_move and winning_moves (every winning move for piles up
    /// to 1000000) as {take, to, next_limit, text}, all_winning_moves_listed. Big numbers are
    /// decimal strings (docs/json.md).
    #[arg(long)]
    json: bool,
}

fn usage(e: GameError) -> CliError {
    CliError::usage(e.to_string())
}

fn join(terms: &[UBig]) -> String {
    terms
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" + ")
}

pub fn run(args: Args) -> CliResult {
    let k = parse_bounded(&args.k, "multiplier", 1, fib::MAX_MULTIPLIER).map_err(usage)?;
    let pile = parse_natural(&args.pile, "pile").map_err(usage)?;
    let limit = match &args.limit {
        Some(l) => Some(parse_natural(l, "limit").map_err(usage)?),
        None => None,
    };
    let a = fib::analyze(&pile, limit.as_ref(), k).map_err(usage)?;
    if args.json {
        return print_result(&a);
    }
    print_out(&render(&a))
}

/// The text report: the representation, the outcome and why, the winning moves.
fn render(a: &FibAnalysis) -> String {
    let (k, pile) = (a.k, &a.pile);
    let mut s = String::new();
    let name = if k == 2 {
        "Fibonacci Nim (each move at most twice the previous one)".to_string()
    } else {
        format!("{k}-multiplier Nim (each move at most {k} times the previous one)")
    };
    let _ = writeln!(s, "{name}");
    let limit_note = if a.opening {
        " (the opening move: at most PILE - 1)"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "Pile {pile}, the mover may take up to {}{limit_note}",
        a.limit
    );
    let Some(smallest) = a.representation.last() else {
        let _ = writeln!(
            s,
            "Outcome: P - the pile is empty; the player to move has lost."
        );
        return s;
    };
    let rep_name = if k == 2 {
        "Zeckendorf representation"
    } else {
        "Greedy representation"
    };
    let _ = writeln!(s, "{rep_name}: {pile} = {}", join(&a.representation));
    if let Some(g) = a.grundy {
        let _ = writeln!(s, "Grundy value: {g}");
    }
    match (&a.outcome, &a.winning_move) {
        (Outcome::N, Some(m)) => {
            let t = &m.take;
            let _ = writeln!(s, "Outcome: N - the player to move wins.");
            let rest = &a.representation[..a.representation.len() - 1];
            if rest.is_empty() {
                let _ = writeln!(s, "Winning move: take all {t} counters.");
            } else {
                let next = rest.last().expect("non-empty");
                let _ = writeln!(
                    s,
                    "Winning move: take {t}, the smallest term. That leaves {} = {}, whose \
                     smallest term {next} exceeds {k} x {t} = {}, the most the opponent may take.",
                    m.to,
                    join(rest),
                    t * k
                );
            }
            if a.all_winning_moves_listed {
                let list: Vec<String> =
                    a.winning_moves.iter().map(|m| m.take.to_string()).collect();
                let _ = writeln!(s, "All winning moves: {}", list.join(", "));
            } else {
                let _ = writeln!(
                    s,
                    "(every winning move is listed for piles up to {})",
                    fib::LIST_ALL_UP_TO
                );
            }
        }
        _ => {
            let _ = writeln!(s, "Outcome: P - the player to move loses.");
            let why = if a.representation.len() == 1 {
                format!("{pile} is itself a losing size")
            } else {
                format!("the smallest term {smallest} exceeds the limit {}", a.limit)
            };
            let _ = writeln!(
                s,
                "Every move loses: {why}; whatever you take, the opponent can take the smallest \
                 term of what is left and keep that property."
            );
        }
    }
    s
}
