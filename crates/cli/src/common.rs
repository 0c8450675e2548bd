//! What every command shares: the error type and exit codes, the output flags, number
//! parsing, output that survives a closed pipe, JSON printing, progress bars that appear only
//! on a terminal, and the Ctrl-C flag.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A command's failure: a one-line message and the process exit code.
#[derive(Debug)]
pub struct CliError {
    /// The exit code: 2 for bad input, 1 for a failure of valid work, 130 when stopped.
    pub code: i32,
    /// What went wrong, in one line (printed after `grundy: error: `).
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

/// The library's errors by their kind: bad input and limits exit with 2, a stop with 130, a
/// failure with 1. A limit's message gains the option that raises it (the library names its
/// own parameter, never a flag).
impl From<grundy::Error> for CliError {
    fn from(e: grundy::Error) -> Self {
        use grundy::ErrorKind;
        let code = match e.kind() {
            ErrorKind::Input | ErrorKind::Limit => 2,
            ErrorKind::Stopped => 130,
            ErrorKind::Failure => 1,
        };
        let mut message = e.to_string();
        if let Some(flag) = e.parameter().and_then(flag_for) {
            message.push_str(&format!(" (raise it with {flag} N)"));
        }
        CliError { code, message }
    }
}

/// The command-line option that sets a library parameter named by
/// [`grundy::Error::parameter`].
pub fn flag_for(parameter: &str) -> Option<&'static str> {
    match parameter {
        "max_positions" => Some("--max-positions"),
        "steps_per_call" => Some("--max-steps"),
        "memory" => Some("--max-memory"),
        _ => None,
    }
}

/// What a command returns: done, or the error to report.
pub type CliResult = Result<(), CliError>;

/// The output flags every command shares (flattened into each command's arguments).
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Output {
    /// Print one JSON object (the library's result; schema in docs/json.md) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Parses a count typed by a user: `1000000`, `1_000_000`, `1e6`, `2^30`; the error names
/// `flag` and the token.
pub fn count(text: &str, flag: &str) -> Result<u64, CliError> {
    grundy::input::parse_count(text).map_err(|e| CliError::usage(format!("{flag}: {e}")))
}

/// Writes `text` to stdout in one go. A closed pipe (`grundy … | head`) is not an error.
pub fn print_out(text: &str) -> CliResult {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(CliError::from),
    }
}

/// Streams `write` into a buffered stdout: large outputs are never built in memory. A closed
/// pipe is not an error.
pub fn stream_out(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> CliResult {
    let stdout = io::stdout().lock();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout);
    match write(&mut out).and_then(|_| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(CliError::from),
    }
}

/// Streams a library result's text (its [`std::fmt::Display`], written as it is formatted:
/// a table of a million rows is never held as one string). A closed pipe is not an error.
pub fn print_display(text: &impl std::fmt::Display) -> CliResult {
    stream_out(|out| write!(out, "{text}"))
}

/// Streams one JSON document that the library writes piece by piece (`write` hands each
/// piece to the function it is given, and stops at that function's first error), followed by
/// a newline. A closed pipe is not an error.
pub fn print_json_pieces(
    write: impl FnOnce(&mut dyn FnMut(&str) -> io::Result<()>) -> io::Result<()>,
) -> CliResult {
    stream_out(|out| {
        write(&mut |piece: &str| out.write_all(piece.as_bytes()))?;
        out.write_all(b"\n")
    })
}

/// Prints a library result as one JSON object on one line, streamed (a result with millions of
/// values is never held as text).
pub fn print_result<T: serde::Serialize>(result: &T) -> CliResult {
    stream_out(|out| {
        // serde_json wraps the writer's error: keep its kind, so that a closed pipe
        // (`grundy … --json | head`) ends quietly like any other output.
        serde_json::to_writer(&mut *out, result).map_err(|e| match e.io_error_kind() {
            Some(kind) => io::Error::new(kind, e),
            None => io::Error::other(e),
        })?;
        out.write_all(b"\n")
    })
}

/// A progress bar on stderr for `len` steps; hidden when stderr is not a terminal. The rate is
/// a whole number per second and the ETA appears once there is a second of history.
pub fn progress_bar(len: u64, message: &str) -> indicatif::ProgressBar {
    if !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({rate}, {left})",
        )
        .expect("static template is valid")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let secs = s.elapsed().as_secs_f64();
                let _ = if secs < 1.0 {
                    write!(w, "starting")
                } else {
                    write!(
                        w,
                        "{}/s",
                        indicatif::HumanCount((s.pos() as f64 / secs) as u64)
                    )
                };
            },
        )
        .with_key(
            "left",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = if s.elapsed().as_secs() < 1 || s.pos() == 0 {
                    write!(w, "eta …")
                } else {
                    write!(w, "eta {}", indicatif::HumanDuration(s.eta()))
                };
            },
        ),
    );
    bar.set_message(message.to_string());
    bar
}

/// Set by the first Ctrl-C (or SIGTERM): long computations stop at their next progress report,
/// keep what they finished and exit. A second Ctrl-C exits at once.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// A signal this soon after the first is the same stop delivered twice, not a second Ctrl-C:
/// `timeout -s INT` signals the process and then its whole process group, and a run stopped
/// that way must still write its table. A person's second Ctrl-C comes later than this.
const SAME_STOP: Duration = Duration::from_millis(500);

/// When the first Ctrl-C (or SIGTERM) arrived.
static FIRST_STOP: OnceLock<Instant> = OnceLock::new();

/// Installs the Ctrl-C/SIGTERM handler that sets [`STOP`].
pub fn install_stop_handler() {
    let _ = ctrlc::set_handler(|| {
        let first = *FIRST_STOP.get_or_init(Instant::now);
        if STOP.swap(true, Ordering::SeqCst) {
            if first.elapsed() < SAME_STOP {
                return;
            }
            std::process::exit(130);
        }
        eprintln!("\ngrundy: stopping (Ctrl-C again to quit at once)…");
    });
}

/// `--max-positions N`, declared once for every command whose search has a position budget
/// (flattened into `analyze`, `heap`, `graph`, `cram`, `chomp` and `script`). Each command
/// keeps the default its search was sized for; the help lists them.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MaxPositions {
    /// The most positions the search may visit; past it, it stops with a one-line limit error.
    /// Defaults: 1e7 for analyze, heap --position and script, 1e6 for graph --misere.
    #[arg(
        long = "max-positions",
        value_name = "N",
        allow_negative_numbers = true
    )]
    pub max_positions: Option<String>,
}

impl MaxPositions {
    /// The budget given, or `default` when none was (a count in the one grammar, at least 1).
    pub fn or(&self, default: u64) -> Result<u64, CliError> {
        match &self.max_positions {
            None => Ok(default),
            Some(t) => match count(t, "--max-positions")? {
                0 => Err(CliError::usage("--max-positions: must be at least 1")),
                n => Ok(n),
            },
        }
    }

    /// The command's `default` budget with the position cap given, if one was (its memory cap
    /// stays the default's).
    pub fn budget(&self, default: grundy::Budget) -> Result<grundy::Budget, CliError> {
        Ok(default.with_positions(self.or(default.max_positions)?))
    }
}
