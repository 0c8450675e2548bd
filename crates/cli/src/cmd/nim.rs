//! `grundy nim`: Nim and misère Nim: nim-sum, outcome, every winning move, explained.

use crate::common::{CliError, CliResult};

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err(CliError::failure("`grundy nim` is not implemented yet"))
}
