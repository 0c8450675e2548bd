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
        context: String,
        #[source]
        source: std::io::Error,
    },
    /// A requested size does not fit this machine.
    #[error("{0}")]
    TooLarge(String),
}

impl Error {
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let context = context.into();
        move |source| Error::Io { context, source }
    }
}
