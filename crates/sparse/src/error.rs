//! Errors of the sparse engine and its files.

/// Why a run could not start or continue.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The code is outside what the sparse method handles; use the reference engine.
    #[error("the sparse engine does not support this code: {0}")]
    Unsupported(String),
    /// A checkpoint or saved chunk that must not be used (corrupt, truncated, foreign).
    #[error("{0}")]
    BadFile(String),
    /// Reading or writing files failed (disk full, permissions).
    #[error("{context}: {source}")]
    Io {
        /// What was being read or written, naming the file.
        context: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A requested size does not fit this machine.
    #[error("{0}")]
    TooLarge(String),
    /// The progress callback asked to stop (Ctrl-C). G(0..done) were computed; a run with a
    /// checkpoint directory wrote them there first, so running it again resumes from `done`.
    #[error("stopped at heap {done}")]
    Stopped {
        /// Heaps known when the run stopped: G(0..done).
        done: u64,
    },
}

impl Error {
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let context = context.into();
        move |source| Error::Io { context, source }
    }
}
