//! `grundy nimber`: nimber arithmetic: nim sums, products, quotients, inverses, square roots.

use crate::cmd::usage;
use crate::common::{print_out, print_result, CliResult, Output};
use grundy::nimber::calculate;

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
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> CliResult {
    let operands: Vec<&str> = args.operands.iter().map(String::as_str).collect();
    let c = calculate(&args.op, &operands).map_err(usage)?;
    if args.output.json {
        print_result(&c)
    } else {
        print_out(&format!("{}\n", c.result))
    }
}
