//! What every command shares: the error type and exit codes, output that survives a closed
//! pipe, JSON printing, and progress bars that appear only on a terminal.

use std::io::{self, IsTerminal, Write};

/// A command's failure: a one-line message and the process exit code.
#[derive(Debug)]
pub struct CliError {
    pub code: i32,
    pub message: String,
}

impl CliError {
    /// Bad input from the user (exit code 2).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            code: 2,
            message: message.into(),
        }
    }

    /// A failure while doing valid work: I/O, disk full (exit code 1).
    pub fn failure(message: impl Into<String>) -> Self {
        CliError {
            code: 1,
            message: message.into(),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::failure(e.to_string())
    }
}

pub type CliResult = Result<(), CliError>;

/// Writes `text` to stdout in one go. A closed pipe (`grundy … | head`) is not an error.
pub fn print_out(text: &str) -> CliResult {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(CliError::from),
    }
}

/// Prints one JSON object on one line, followed by a newline.
pub fn print_json(value: &serde_json::Value) -> CliResult {
    let mut text = value.to_string();
    text.push('\n');
    print_out(&text)
}

/// A progress bar on stderr for `len` steps; hidden when stderr is not a terminal.
pub fn progress_bar(len: u64, message: &str) -> indicatif::ProgressBar {
    if !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta})",
        )
        .expect("static template is valid"),
    );
    bar.set_message(message.to_string());
    bar
}
