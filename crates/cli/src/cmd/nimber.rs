//! `grundy nimber`: Nimber arithmetic: nim products, inverses, square roots.

use crate::common::{CliError, CliResult};

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err(CliError::failure("`grundy nimber` is not implemented yet"))
}
