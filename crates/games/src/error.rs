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
    /// A search (Cram, Chomp) that would visit more positions than its limit allows. The
    /// limit is a parameter of the call (`max_positions`): raise it to search further, at the
    /// cost of time and memory. The message names that parameter, never a front end's option.
    #[error(
        "{what}: the search needs more than {limit} positions (the limit); raise the position \
         budget (max_positions) to go on"
    )]
    PositionLimit {
        /// What was being solved, e.g. "board 7x5".
        what: String,
        /// The limit that was reached.
        limit: u64,
    },
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
            GameError::PositionLimit { .. } | GameError::TooLarge(_) => {
                grundy_core::catalogue::Error::limit(e.to_string())
            }
            _ => grundy_core::catalogue::Error::input(e.to_string()),
        }
    }
}
