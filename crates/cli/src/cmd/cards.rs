//! `grundy cards`: the card game: take the leftmost or rightmost card, maximise your total.

use crate::cmd::{read_text, usage};
use crate::common::{print_out, print_result, CliError, CliResult, Output};
use grundy::games::cards::{self, DescribeOptions, MAX_CARDS};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: cards in a row; players alternately take the leftmost or the \
rightmost card, each maximising their own total. Solved exactly in O(N^2) (N up to 20000).

Examples:
  grundy cards 4 7 2 9                first player's best total (16) and an optimal line
  grundy cards 1 2 5 2 --json
  grundy cards --file row.txt         values separated by spaces, commas or newlines"
)]
pub struct Args {
    /// Card values, left to right (integers, may be negative).
    #[arg(value_name = "CARD", allow_negative_numbers = true)]
    cards: Vec<String>,
    /// Read the card values from FILE (`-` for standard input) instead.
    #[arg(long, value_name = "FILE", conflicts_with = "cards")]
    file: Option<String>,
    /// Print the whole optimal line even for long rows.
    #[arg(long)]
    line: bool,
    #[command(flatten)]
    output: Output,
}

fn parse_cards(tokens: &[&str]) -> Result<Vec<i64>, CliError> {
    if tokens.len() > MAX_CARDS {
        return Err(CliError::usage(format!(
            "{} cards (at most {MAX_CARDS})",
            tokens.len()
        )));
    }
    tokens
        .iter()
        .map(|t| {
            t.parse::<i64>().map_err(|_| {
                CliError::usage(format!(
                    "card value is not an integer: {}",
                    grundy::text::quote(t)
                ))
            })
        })
        .collect()
}

pub fn run(args: Args) -> CliResult {
    let text;
    let tokens: Vec<&str> = match &args.file {
        Some(f) => {
            text = read_text(f, "card")?;
            text.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .collect()
        }
        None => args.cards.iter().map(String::as_str).collect(),
    };
    if tokens.is_empty() {
        return Err(CliError::usage("no cards given"));
    }
    let row = parse_cards(&tokens)?;
    let a = cards::analyze(&row).map_err(usage)?;
    if args.output.json {
        return print_result(&a);
    }
    print_out(&a.describe(DescribeOptions {
        full_line: args.line,
    }))
}
