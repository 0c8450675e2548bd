//! `grundy-full`: runs the commands `grundy` hands over ([`grundy_cli::HANDED`]: `script`,
//! `play`, `serve`), which need the Luau runtime, the terminal UI or the web server; any other
//! command runs as in `grundy`. Each command's module parses its flags and calls the library.

#![forbid(unsafe_code)]

mod play;
mod script;
mod serve;

use clap::{Parser, Subcommand};
use grundy_cli::about;

/// The handed commands, under `grundy`'s name (help and errors read as `grundy`'s own).
#[derive(Parser, Debug)]
#[command(name = "grundy", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    #[command(about = about::SCRIPT)]
    Script(script::Args),
    #[command(about = about::PLAY)]
    Play(play::Args),
    #[command(about = about::SERVE)]
    Serve(serve::Args),
    /// `grundy analyze GAME.lua POSITION`: a Lua game through the catalogue.
    #[command(hide = true)]
    Analyze(grundy_cli::AnalyzeArgs),
}

fn main() {
    if grundy_cli::handed_command().is_none() {
        grundy_cli::main();
    }
    let cli: Cli = grundy_cli::parse_args();
    grundy_cli::common::install_stop_handler();
    grundy_cli::exit_with(match cli.command {
        Command::Script(a) => script::run(a),
        Command::Play(a) => play::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Analyze(a) => script::analyze(a),
    })
}
