//! `grundy fib`: Fibonacci Nim and its k-multiplier family.

use crate::common::{print_json, print_out, CliError, CliResult};
use grundy_core::Outcome;
use grundy_games::fib::{GrundyTable, MoveTable, MultiplierNim};
use grundy_games::{parse_bounded, parse_natural, GameError, UBig};
use std::fmt::Write as _;

/// Piles up to this size get every winning move listed (one pass over the pile).
const LIST_ALL_UP_TO: u64 = 1_000_000;

/// Piles up to this size get a Grundy value.
const GRUNDY_UP_TO: u64 = 2000;

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
    /// Counters in the pile (any size).
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
    /// Print one JSON object: pile, limit, k, outcome, representation, winning_move,
    /// winning_moves (every winning take, for piles up to 1000000), grundy (piles up to 2000).
    /// Numbers are decimal strings.
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
    let k = parse_bounded(&args.k, "multiplier", 1, grundy_games::fib::MAX_MULTIPLIER)
        .map_err(usage)?;
    let game = MultiplierNim::new(k).map_err(usage)?;
    let pile = parse_natural(&args.pile, "pile").map_err(usage)?;
    let opening = args.limit.is_none();
    let limit = match &args.limit {
        Some(l) => parse_natural(l, "limit").map_err(usage)?,
        None if pile.is_zero() => UBig::ZERO,
        None => &pile - UBig::ONE,
    };
    let a = game.analyse(&pile, &limit).map_err(usage)?;
    let small = u64::try_from(&pile).ok();
    let all_moves: Option<Vec<u64>> = match small {
        Some(n) if n <= LIST_ALL_UP_TO => {
            let table = MoveTable::new(game, n).map_err(usage)?;
            let l = u64::try_from(&a.limit).unwrap_or(n);
            Some(table.winning_moves(n, l))
        }
        _ => None,
    };
    let grundy = match small {
        Some(n) if n <= GRUNDY_UP_TO => {
            let t = GrundyTable::new(game, n).map_err(usage)?;
            let l = u64::try_from(&a.limit).unwrap_or(n);
            t.value(n, l)
        }
        _ => None,
    };

    if args.json {
        let strings = |v: &[UBig]| v.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let winning_moves: Vec<String> = match &all_moves {
            Some(m) => m.iter().map(|t| t.to_string()).collect(),
            None => a.winning_move.iter().map(|t| t.to_string()).collect(),
        };
        let obj = serde_json::json!({
            "game": if k == 2 { "fibonacci-nim" } else { "multiplier-nim" },
            "k": k,
            "pile": pile.to_string(),
            "limit": a.limit.to_string(),
            "outcome": a.outcome.as_str(),
            "grundy": grundy,
            "representation": strings(&a.representation),
            "winning_move": a.winning_move.as_ref().map(|t| t.to_string()),
            "winning_moves": winning_moves,
            "all_winning_moves_listed": all_moves.is_some(),
        });
        return print_json(&obj);
    }

    let mut s = String::new();
    let name = if k == 2 {
        "Fibonacci Nim (each move at most twice the previous one)".to_string()
    } else {
        format!("{k}-multiplier Nim (each move at most {k} times the previous one)")
    };
    let _ = writeln!(s, "{name}");
    let limit_note = if opening {
        " (the opening move: at most PILE - 1)"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "Pile {pile}, the mover may take up to {}{limit_note}",
        a.limit
    );
    if pile.is_zero() {
        let _ = writeln!(
            s,
            "Outcome: P - the pile is empty; the player to move has lost."
        );
        return print_out(&s);
    }
    let rep_name = if k == 2 {
        "Zeckendorf representation"
    } else {
        "Greedy representation"
    };
    let _ = writeln!(s, "{rep_name}: {pile} = {}", join(&a.representation));
    if let Some(g) = grundy {
        let _ = writeln!(s, "Grundy value: {g}");
    }
    let smallest = a
        .representation
        .last()
        .expect("a non-empty pile has a term");
    match (&a.outcome, &a.winning_move) {
        (Outcome::N, Some(t)) => {
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
                    &pile - t,
                    join(rest),
                    t * k
                );
            }
            match &all_moves {
                Some(m) => {
                    let list: Vec<String> = m.iter().map(|x| x.to_string()).collect();
                    let _ = writeln!(s, "All winning moves: {}", list.join(", "));
                }
                None => {
                    let _ = writeln!(
                        s,
                        "(every winning move is listed for piles up to {LIST_ALL_UP_TO})"
                    );
                }
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
    print_out(&s)
}
