//! `grundy penney`: Pattern races (Penney's game).

use crate::common::{CliError, CliResult};

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err(CliError::failure("`grundy penney` is not implemented yet"))
}
