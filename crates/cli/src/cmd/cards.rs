//! `grundy cards`: The take-from-the-ends card game.

use crate::common::{CliError, CliResult};

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err(CliError::failure("`grundy cards` is not implemented yet"))
}
