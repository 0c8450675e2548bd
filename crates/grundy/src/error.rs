//! The one error type of the library: every family's error, plus the facade's own.

pub use grundy_core::catalogue::ErrorKind;

/// Anything a library call can refuse or fail with.
///
/// [`Error::kind`] is the one classification front ends map from, never the variants: bad
/// input ([`ErrorKind::Input`]: a malformed rule, a number too large), a limit the caller may
/// raise ([`ErrorKind::Limit`]), a stop the caller asked for ([`ErrorKind::Stopped`]) and a
/// failure while doing valid work ([`ErrorKind::Failure`]: a disk that fills up). The CLI maps
/// them to exit codes 2, 2, 130 and 1; the web server to 400, 422, 422 and 500; Python to
/// `InputError` (a `ValueError`) for the first two, `StoppedError` and `GrundyError`.
/// Messages name the library's parameters, never a command-line flag: a front end adds its
/// own hint from [`Error::parameter`].
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
    /// A nimber expression refused its input (an unknown operation, an operand out of range).
    #[error(transparent)]
    Nimber(#[from] grundy_core::nimber::NimberError),
    /// A game on a directed graph refused its input (a malformed line, a cycle, an unknown
    /// vertex) or passed its position budget.
    #[error(transparent)]
    Graph(#[from] grundy_core::graph::GraphError),
    /// A Nim heap size that does not parse.
    #[error(transparent)]
    Heap(#[from] grundy_core::nim::HeapError),
    /// A misère computation refused its rule, game or bound, did not converge within its size
    /// cap, or reached its budget. A stop becomes [`Error::Stopped`].
    #[error(transparent)]
    Misere(grundy_misere::MisereError),
    /// A game, position or move refused by [`crate::play`].
    #[error(transparent)]
    Play(#[from] crate::play::PlayError),
    /// A search that needed more than its [`grundy_core::Budget`] allows (positions or
    /// memory; the message names which).
    #[error(transparent)]
    Limit(#[from] grundy_core::budget::Limit),
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

// The heap family's errors convert once, in `grundy-heaps` (a stop becomes `Stopped` there);
// the facade lifts that error's variants into its own.
impl From<grundy_heap::reference::EngineError> for Error {
    fn from(e: grundy_heap::reference::EngineError) -> Self {
        grundy_heaps::Error::from(e).into()
    }
}

impl From<grundy_sparse::Error> for Error {
    fn from(e: grundy_sparse::Error) -> Self {
        grundy_heaps::Error::from(e).into()
    }
}

impl From<grundy_misere::MisereError> for Error {
    fn from(e: grundy_misere::MisereError) -> Self {
        grundy_heaps::Error::from(e).into()
    }
}

/// The heap family's error: the same variants, so `kind()` and messages are unchanged.
impl From<grundy_heaps::Error> for Error {
    fn from(e: grundy_heaps::Error) -> Self {
        use grundy_heaps::Error as H;
        match e {
            H::Rule(e) => Error::Rule(e),
            H::Engine(e) => Error::Engine(e),
            H::Sparse(e) => Error::Sparse(e),
            H::Misere(e) => Error::Misere(e),
            H::Limit(l) => Error::Limit(l),
            H::Invalid(m) => Error::Invalid(m),
            H::Stopped { done } => Error::Stopped { done },
            // Every variant of this version is mapped above; a new one reads as bad input.
            e => Error::Invalid(e.to_string()),
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
    /// What kind of error this is: the one classification every front end maps from.
    pub fn kind(&self) -> ErrorKind {
        use grundy_core::graph::GraphError;
        use grundy_games::GameError;
        use grundy_script::ScriptError;
        match self {
            Error::Stopped { .. } => ErrorKind::Stopped,
            Error::Catalogue(e) => e.kind,
            Error::Survey(e) if !e.is_input() => ErrorKind::Failure,
            Error::Sparse(grundy_sparse::Error::Io { .. })
            | Error::Penney(grundy_penney::PenneyError::Internal(_))
            | Error::Script(ScriptError::Internal(_)) => ErrorKind::Failure,
            Error::Engine(grundy_heap::reference::EngineError::TooLarge(_))
            | Error::Game(GameError::TooLarge(_) | GameError::Limit(_))
            | Error::Script(
                ScriptError::StepLimit { .. }
                | ScriptError::MemoryLimit { .. }
                | ScriptError::PositionLimit { .. }
                | ScriptError::ByteLimit { .. }
                | ScriptError::LoopyLimit(_)
                | ScriptError::TimeLimit { .. },
            )
            | Error::Graph(GraphError::Limit(_))
            | Error::Limit(_) => ErrorKind::Limit,
            Error::Play(e) if e.is_limit() => ErrorKind::Limit,
            Error::Misere(
                grundy_misere::MisereError::NotConverged { .. }
                | grundy_misere::MisereError::Limit { .. },
            ) => ErrorKind::Limit,
            _ => ErrorKind::Input,
        }
    }

    /// True for bad input or a limit the caller can change; false for failures while doing
    /// valid work (I/O errors) and for a stop the caller asked for.
    pub fn is_input(&self) -> bool {
        matches!(self.kind(), ErrorKind::Input | ErrorKind::Limit)
    }

    /// True when a budget or size limit stopped the work (the caller may raise it): a search
    /// past its positions, steps or memory, a computation larger than memory.
    pub fn is_limit(&self) -> bool {
        self.kind() == ErrorKind::Limit
    }

    /// The library parameter that raises the limit this error ran into, when one does:
    /// `"max_positions"` or `"max_bytes"` (the caps of a search's [`grundy_core::Budget`]:
    /// `cram::ask`'s `Ask`, `chomp::analyze`, `graph::GraphOptions`, the misère search of
    /// heaps, `script::Limits::budget`), `"steps_per_call"` or `"memory"`
    /// (`script::Limits`). A front end names its own option for it (the CLI's
    /// `--max-positions`, `--max-steps`, `--max-memory`).
    pub fn parameter(&self) -> Option<&'static str> {
        use grundy_script::ScriptError;
        match self {
            Error::Game(grundy_games::GameError::Limit(l))
            | Error::Graph(grundy_core::graph::GraphError::Limit(l))
            | Error::Limit(l) => Some(l.parameter()),
            Error::Catalogue(e) => e.parameter,
            Error::Script(ScriptError::PositionLimit { .. }) => Some("max_positions"),
            Error::Script(ScriptError::StepLimit { .. }) => Some("steps_per_call"),
            Error::Script(ScriptError::MemoryLimit { .. }) => Some("memory"),
            Error::Script(ScriptError::ByteLimit { .. }) => Some("max_bytes"),
            _ => None,
        }
    }

    /// The line of a game script an error is at (a syntax error, or a runtime error whose
    /// message names the script's line), for front ends that point at it.
    pub fn line(&self) -> Option<usize> {
        match self {
            Error::Script(e) => e.line(),
            _ => None,
        }
    }
}

/// `Result` with the library's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
