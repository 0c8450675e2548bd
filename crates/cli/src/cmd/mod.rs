//! One module per `grundy` subcommand; each parses its flags and calls the library.

pub mod catalogue;
pub mod graph;
pub mod heap;
pub mod misere;
pub mod nimber;
pub mod penney;
pub mod survey;

use crate::common::{CliError, CliResult};
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

/// Writes the picture `draw` makes (`grundy::plot`, in the format of `path`'s extension) to
/// `path`; a name that is not `.svg` or `.png` is a usage error, a write that fails a failure.
pub fn write_plot(
    path: &std::path::Path,
    draw: impl FnOnce(grundy::plot::Format) -> grundy::Result<Vec<u8>>,
) -> CliResult {
    let name = path.to_string_lossy();
    let bytes = draw(grundy::plot::Format::of_path(&name)?)?;
    std::fs::write(path, bytes)
        .map_err(|e| CliError::failure(format!("cannot write plot {}: {e}", quote(&name))))
}

/// Draws G(n) against n to `path` (SVG or PNG by its extension), the periodic part shaded;
/// `name` is what the title says it is G(n) of (a heap rule, `grundy script --plot`'s game).
pub fn write_plot_of(
    path: &std::path::Path,
    name: &str,
    values: &[u32],
    p: Option<&grundy::heap::Periodicity>,
) -> CliResult {
    write_plot(path, |f| grundy::plot::sequence(name, values, p, f))
}
