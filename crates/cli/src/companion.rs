//! Finding and starting `grundy-full`, the program `grundy` hands its heavy commands to.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::CliError;

/// The companion's file name.
pub const NAME: &str = "grundy-full";

/// How much older than `grundy` the companion may be before a warning says it may be stale:
/// one build links both within this (cargo links the two side by side, the larger one taking a
/// few minutes at most; `cargo install` copies them together), while `cargo run`, which builds
/// only `grundy`, leaves behind a companion from an earlier build.
const STALE_AFTER: Duration = Duration::from_secs(600);

/// The companion beside the running program.
fn path() -> Result<PathBuf, CliError> {
    let me = std::env::current_exe()
        .map_err(|e| CliError::failure(format!("cannot find this program's own path: {e}")))?;
    Ok(me.with_file_name(format!("{NAME}{}", std::env::consts::EXE_SUFFIX)))
}

/// A warning when `companion` was built well before `me` (the stale build `cargo run` leaves).
fn staleness(me: &Path, companion: &Path) -> Option<String> {
    let mtime = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let older = mtime(me)?.duration_since(mtime(companion)?).ok()?;
    (older > STALE_AFTER).then(|| {
        format!(
            "grundy: warning: {} is {} min older than grundy and may be a stale build \
             (`cargo run` builds only grundy; `cargo build -p grundy-cli` builds both)",
            companion.display(),
            older.as_secs().div_ceil(60)
        )
    })
}

/// Replaces this process by the companion with the same arguments (on Unix; elsewhere runs it
/// and exits with its code). Returns only the error that kept it from starting.
pub fn exec() -> Result<(), CliError> {
    let companion = path()?;
    if !companion.is_file() {
        return Err(CliError::failure(format!(
            "this command runs in {NAME}, which should be installed beside grundy but is not at {}; \
             `cargo install --path crates/cli` installs both, `cargo build -p grundy-cli` builds both",
            companion.display()
        )));
    }
    if let Some(warning) = std::env::current_exe()
        .ok()
        .and_then(|me| staleness(&me, &companion))
    {
        eprintln!("{warning}");
    }
    let mut args = std::env::args_os();
    let mut command = std::process::Command::new(&companion);
    let arg0 = args.next();
    command.args(args);
    let fail =
        |e: std::io::Error| CliError::failure(format!("cannot start {}: {e}", companion.display()));
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        if let Some(arg0) = arg0 {
            command.arg0(arg0);
        }
        Err(fail(command.exec()))
    }
    #[cfg(not(unix))]
    {
        let _ = arg0;
        let status = command.status().map_err(fail)?;
        std::process::exit(status.code().unwrap_or(1));
    }
}
