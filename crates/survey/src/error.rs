//! The survey's errors: bad input (a family, a rule, a file that is not a survey database)
//! and failures while doing valid work (a database or a directory that cannot be written).

/// What a survey call can refuse or fail with. Every message is one line.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: an unknown family, a rule that does not parse, a database path that cannot
    /// be opened, a file that is not a survey database.
    #[error("{0}")]
    Input(String),
    /// A rule in a family that does not parse.
    #[error(transparent)]
    Rule(#[from] grundy_heap::RuleError),
    /// A failure while writing or reading the database or saved sequences.
    #[error("{0}")]
    Io(String),
}

impl Error {
    /// True for bad input (front ends: exit code 2), false for failures (exit code 1).
    pub fn is_input(&self) -> bool {
        !matches!(self, Error::Io(_))
    }
}

/// `Result` with the survey's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
