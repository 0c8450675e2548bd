//! One module per `grundy` subcommand; each parses its flags and calls the library.

pub mod cards;
pub mod catalogue;
pub mod graph;
pub mod heap;
pub mod maze;
pub mod misere;
pub mod nim;
pub mod nimber;
pub mod penney;
pub mod survey;
pub mod walls;
pub mod wythoff;

use crate::common::CliError;
use grundy::text::quote;
use std::io::Read;

/// A library's refusal of the user's input as a usage error (exit 2), in the library's words.
pub(crate) fn usage(e: impl std::fmt::Display) -> CliError {
    CliError::usage(e.to_string())
}

/// Reads a text file (or stdin for `-`); a missing or non-UTF-8 file is a usage error naming
/// it, escaped (a file name may hold any byte).
pub fn read_text(file: &str, what: &str) -> Result<String, CliError> {
    let bytes = if file == "-" {
        let mut b = Vec::new();
        std::io::stdin().lock().read_to_end(&mut b)?;
        b
    } else {
        std::fs::read(file)
            .map_err(|e| CliError::usage(format!("cannot read {what} file {}: {e}", quote(file))))?
    };
    String::from_utf8(bytes)
        .map_err(|_| CliError::usage(format!("{what} file {} is not UTF-8 text", quote(file))))
}
