//! The one error type of the game catalogue: bad input described in one line.

/// Why a game could not be set up or solved. Every message is one line naming the culprit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// An argument outside the game's domain (a zero-sized board, a multiplier of 0, …).
    #[error("{0}")]
    Invalid(String),
    /// Malformed text input (ragged grid, unknown character); `line` counts from 1.
    #[error("line {line}: {message}")]
    Parse {
        /// The input line at fault, counted from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A request beyond what this engine can hold in memory or finish in reasonable time.
    #[error("{0}")]
    TooLarge(String),
    /// A search (Cram, Chomp) that needs more than its [`grundy_core::Budget`] allows, in
    /// positions or in memory: the message names the cap reached and what was searched (never
    /// a front end's option). Raise the budget to search further, at the cost of time and
    /// memory.
    #[error(transparent)]
    Limit(#[from] grundy_core::budget::Limit),
}

impl GameError {
    /// Places an `Invalid` error found while building a parsed grid at `line` of the input.
    pub fn at_line(self, line: usize) -> GameError {
        match self {
            GameError::Invalid(message) => GameError::Parse { line, message },
            e => e,
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, GameError>;

/// A game's error in the catalogue's vocabulary: a search past its position limit or a request
/// too large for the engine is a limit (the caller may raise the budget or shrink the input),
/// anything else is bad input.
impl From<GameError> for grundy_core::catalogue::Error {
    fn from(e: GameError) -> Self {
        match e {
            GameError::Limit(l) => l.into(),
            GameError::TooLarge(_) => grundy_core::catalogue::Error::limit(e.to_string()),
            _ => grundy_core::catalogue::Error::input(e.to_string()),
        }
    }
}
