//! The one error type of the library: every family's error, plus the facade's own.

/// Anything a library call can refuse or fail with.
///
/// [`Error::is_input`] tells bad input (a malformed rule, a number too large, a limit the
/// caller may raise) from a failure while doing valid work (a disk that fills up): front ends
/// map the first to exit code 2, HTTP 4xx or `ValueError`, the second to exit code 1 or 5xx.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A heap rule that does not parse.
    #[error(transparent)]
    Rule(#[from] grundy_heap::RuleError),
    /// A heap engine refused the run (too large for memory). A stop becomes
    /// [`Error::Stopped`].
    #[error(transparent)]
    Engine(grundy_heap::reference::EngineError),
    /// The record engine refused or failed (unsupported code, bad checkpoint, I/O). A stop
    /// becomes [`Error::Stopped`].
    #[error(transparent)]
    Sparse(grundy_sparse::Error),
    /// A catalogue game refused its input.
    #[error(transparent)]
    Game(#[from] grundy_games::GameError),
    /// A pattern race refused its input.
    #[error(transparent)]
    Penney(#[from] grundy_penney::PenneyError),
    /// A game that can reach a position from itself (the solver needs finite, acyclic games).
    #[error(transparent)]
    Cycle(#[from] grundy_core::CycleError),
    /// A game script refused or failed (its error names the call and the position). A stop
    /// becomes [`Error::Stopped`].
    #[error(transparent)]
    Script(grundy_script::ScriptError),
    /// A catalogue game refused its name, position or move, or reached its budget.
    #[error(transparent)]
    Catalogue(#[from] grundy_core::catalogue::Error),
    /// A count that does not parse.
    #[error(transparent)]
    Count(#[from] crate::input::CountError),
    /// A survey refused its input (a family, a database file) or could not write.
    #[error(transparent)]
    Survey(#[from] grundy_survey::Error),
    /// Input that is well-formed but not acceptable: a value out of range, an option that does
    /// not apply, a computation larger than its limit.
    #[error("{0}")]
    Invalid(String),
    /// The caller asked the computation to stop (a cancel flag, Ctrl-C).
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

impl From<grundy_script::ScriptError> for Error {
    fn from(e: grundy_script::ScriptError) -> Self {
        match e {
            grundy_script::ScriptError::Stopped => Error::Stopped { done: None },
            e => Error::Script(e),
        }
    }
}

impl Error {
    /// True for bad input or a limit the caller can change; false for failures while doing
    /// valid work (I/O errors) and for a stop the caller asked for.
    pub fn is_input(&self) -> bool {
        match self {
            Error::Survey(e) => e.is_input(),
            Error::Catalogue(e) => e.is_input(),
            _ => !matches!(
                self,
                Error::Sparse(grundy_sparse::Error::Io { .. }) | Error::Stopped { .. }
            ),
        }
    }
}

impl Error {
    /// True when a budget or size limit stopped the work (the caller may raise it): a
    /// catalogue search past its positions or memory, a computation larger than memory.
    pub fn is_limit(&self) -> bool {
        match self {
            Error::Catalogue(e) => e.is_limit(),
            Error::Game(e) => matches!(
                e,
                grundy_games::GameError::TooLarge(_)
                    | grundy_games::GameError::PositionLimit { .. }
            ),
            _ => false,
        }
    }
}

/// `Result` with the library's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
