//! The one error type of the heap family's front door: each engine's own error, passed
//! through unchanged, and the door's own refusals. These conversions (a stop of any engine
//! becomes [`Error::Stopped`]) are the family's only ones: the facade's `grundy::Error` converts
//! an engine's error by way of this type.

/// Why a question about heap games was not answered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A heap rule that does not parse.
    #[error(transparent)]
    Rule(#[from] grundy_heap::RuleError),
    /// A plain engine refused the run (too large for memory). A stop becomes
    /// [`Error::Stopped`].
    #[error(transparent)]
    Engine(grundy_heap::reference::EngineError),
    /// The record engine refused or failed (unsupported code, bad checkpoint, I/O). A stop
    /// becomes [`Error::Stopped`].
    #[error(transparent)]
    Sparse(grundy_sparse::Error),
    /// A misère quotient refused its rule or bound, did not converge within its size cap, or
    /// reached its budget. A stop becomes [`Error::Stopped`].
    #[error(transparent)]
    Misere(grundy_misere::MisereError),
    /// A misère search that needed more than its [`grundy_core::Budget`] allows (positions or
    /// memory; the message names which).
    #[error(transparent)]
    Limit(#[from] grundy_core::budget::Limit),
    /// Input that is well-formed but not acceptable: a value out of range, an option that does
    /// not apply, a computation larger than its memory.
    #[error("{0}")]
    Invalid(String),
    /// The caller asked the computation to stop (the stop flag, a progress callback).
    #[error("stopped{}", .done.map(|d| format!(" at heap {d}")).unwrap_or_default())]
    Stopped {
        /// Heaps finished when it stopped, where that is known.
        done: Option<u64>,
    },
}

impl From<grundy_heap::reference::EngineError> for Error {
    fn from(e: grundy_heap::reference::EngineError) -> Self {
        match e {
            grundy_heap::reference::EngineError::Stopped(done) => {
                Error::Stopped { done: Some(done) }
            }
            e => Error::Engine(e),
        }
    }
}

impl From<grundy_sparse::Error> for Error {
    fn from(e: grundy_sparse::Error) -> Self {
        match e {
            grundy_sparse::Error::Stopped { done } => Error::Stopped { done: Some(done) },
            e => Error::Sparse(e),
        }
    }
}

impl From<grundy_misere::MisereError> for Error {
    fn from(e: grundy_misere::MisereError) -> Self {
        match e {
            grundy_misere::MisereError::Stopped { .. } => Error::Stopped { done: None },
            e => Error::Misere(e),
        }
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
