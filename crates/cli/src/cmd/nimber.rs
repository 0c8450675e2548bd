//! `grundy nimber`: nimber arithmetic: nim sums, products, quotients, inverses, square roots.

use crate::common::{print_json, print_out, CliError, CliResult};
use grundy_core::Nimber;

#[derive(clap::Args, Debug)]
#[command(after_help = "Operations (values 0 to 2^128 - 1):
  add A B    nim-sum (XOR)          mul A B    nim product
  div A B    nim quotient A/B       inv A      nim inverse
  sqrt A     nim square root        pow A E    A to the power E (nim products)

Examples:
  grundy nimber mul 21508 42689      prints 35202
  grundy nimber inv 8                prints 10
  grundy nimber sqrt 27670116110564327424
  grundy nimber --json div 11 16")]
pub struct Args {
    /// The operation: add, mul, div, inv, sqrt or pow.
    #[arg(value_name = "OP")]
    op: String,
    /// Its operands, decimal integers below 2^128.
    #[arg(value_name = "VALUE", allow_negative_numbers = true)]
    operands: Vec<String>,
    /// Print one JSON object: op, operands and result (decimal strings: values exceed 2^64).
    #[arg(long)]
    json: bool,
}

/// Parses a decimal value below 2^128, naming the token on failure.
fn parse_value(token: &str) -> Result<u128, CliError> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if digits(token) {
        return token.parse().map_err(|_| {
            CliError::usage(format!(
                "'{token}' is larger than the largest nimber 2^128 - 1"
            ))
        });
    }
    if token.strip_prefix('-').is_some_and(digits) {
        return Err(CliError::usage(format!(
            "negative value '{token}': nimbers are 0 or more"
        )));
    }
    Err(CliError::usage(format!("'{token}' is not a number")))
}

pub fn run(args: Args) -> CliResult {
    let arity = match args.op.as_str() {
        "add" | "mul" | "div" | "pow" => 2,
        "inv" | "sqrt" => 1,
        other => {
            return Err(CliError::usage(format!(
                "unknown operation '{other}' (expected add, mul, div, inv, sqrt or pow)"
            )))
        }
    };
    if args.operands.len() != arity {
        let extra = args
            .operands
            .get(arity)
            .map(|t| format!(": unexpected '{t}'"))
            .unwrap_or_default();
        return Err(CliError::usage(format!(
            "'{}' takes {arity} value{}, got {}{extra}",
            args.op,
            if arity == 1 { "" } else { "s" },
            args.operands.len()
        )));
    }
    let values = args
        .operands
        .iter()
        .map(|t| parse_value(t))
        .collect::<Result<Vec<_>, _>>()?;
    let a = Nimber(values[0]);
    let zero = |token: &str| {
        CliError::usage(format!(
            "'{token}' is 0, which has no nim inverse (division by zero)"
        ))
    };
    let result = match args.op.as_str() {
        "add" => a + Nimber(values[1]),
        "mul" => a * Nimber(values[1]),
        "div" => a
            .checked_div(Nimber(values[1]))
            .ok_or_else(|| zero(&args.operands[1]))?,
        "inv" => a.inv().ok_or_else(|| zero(&args.operands[0]))?,
        "sqrt" => a.sqrt(),
        _ => a.pow(values[1]),
    };
    if args.json {
        print_json(&serde_json::json!({
            "op": args.op,
            "operands": values.iter().map(u128::to_string).collect::<Vec<_>>(),
            "result": result.0.to_string(),
        }))
    } else {
        print_out(&format!("{}\n", result.0))
    }
}
