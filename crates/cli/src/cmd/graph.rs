//! `grundy graph`: Games on a directed graph read from a file.

use crate::common::{CliError, CliResult};

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err(CliError::failure("`grundy graph` is not implemented yet"))
}
