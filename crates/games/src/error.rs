//! The one error type of the game catalogue: bad input described in one line.

/// Why a game could not be set up or solved. Every message is one line naming the culprit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// An argument outside the game's domain (a zero-sized board, a multiplier of 0, …).
    #[error("{0}")]
    Invalid(String),
    /// Malformed text input (ragged grid, unknown character); `line` counts from 1.
    #[error("line {line}: {message}")]
    Parse { line: usize, message: String },
    /// A request beyond what this engine can hold in memory or finish in reasonable time.
    #[error("{0}")]
    TooLarge(String),
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
