//! `grundy fib`: Fibonacci Nim and its k-multiplier family.

use crate::common::{CliError, CliResult};

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err(CliError::failure("`grundy fib` is not implemented yet"))
}
