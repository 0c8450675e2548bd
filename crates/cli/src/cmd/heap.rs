//! `grundy heap`: Heap games: subtraction games and take-and-break codes.

use crate::common::{CliError, CliResult};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub long: super::heap_long::LongRunArgs,
}

pub fn run(args: Args) -> CliResult {
    if args.long.is_long_run() {
        return super::heap_long::run(&args);
    }
    Err(CliError::failure("`grundy heap` is not implemented yet"))
}
