//! The one error type of the crate: every message is one line naming the offending input.

/// Why a pattern race could not be set up or solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PenneyError {
    /// The alphabet has no symbols.
    #[error("empty alphabet")]
    EmptyAlphabet,
    /// A symbol appears twice in the alphabet.
    #[error("symbol {} appears twice in the alphabet", quote(&.0.to_string()))]
    DuplicateSymbol(char),
    /// A probability could not be read as a fraction or decimal.
    #[error(
        "cannot read probability {} (expected a fraction like 2/3 or a decimal like 0.25)",
        quote(.0)
    )]
    BadProbability(String),
    /// A letter probability is zero or negative.
    #[error("probability of {} must be positive, got {got}", quote(&.0.to_string()), got = .1)]
    NonPositiveProbability(char, String),
    /// The letter probabilities do not add up to one.
    #[error("letter probabilities sum to {0}, not 1")]
    ProbabilitiesDoNotSumToOne(String),
    /// A probability entry is malformed (not `symbol=fraction`).
    #[error(
        "malformed probability entry {} (expected symbol=fraction, e.g. H=2/3)",
        quote(.0)
    )]
    BadProbabilityEntry(String),
    /// A pattern is empty.
    #[error("empty pattern")]
    EmptyPattern,
    /// A pattern uses a symbol outside the alphabet.
    #[error(
        "pattern {} uses {}, which is not in the alphabet {}",
        quote(.pattern),
        quote(&.symbol.to_string()),
        quote(.alphabet)
    )]
    UnknownSymbol {
        /// The pattern as given.
        pattern: String,
        /// The first symbol of the pattern outside the alphabet.
        symbol: char,
        /// The alphabet's symbols.
        alphabet: String,
    },
    /// The same pattern was given twice.
    #[error("pattern {} is given twice", quote(.0))]
    DuplicatePattern(String),
    /// No pattern was given.
    #[error("no patterns given")]
    NoPatterns,
    /// A request that would take unreasonably long or too much memory.
    #[error("{0}")]
    TooLarge(String),
    /// The method does not apply to this input (e.g. Conway's formula needs two patterns).
    #[error("{0}")]
    NotApplicable(String),
    /// Independent exact methods disagreed, or a system that theory says is regular was
    /// singular: a bug in this crate, never the user's input.
    #[error("internal error: {0}")]
    Internal(String),
}

/// Characters of a token kept in a message before it is cut with `…`.
const QUOTE_MAX_CHARS: usize = 200;

/// `token` for a one-line message: between single quotes, escaped as by `escape_debug` (a
/// newline or a control byte cannot break the line or reach the terminal) and cut after
/// [`QUOTE_MAX_CHARS`] characters.
pub(crate) fn quote(token: &str) -> String {
    let mut s = String::from("'");
    for (n, c) in token.escape_debug().enumerate() {
        if n == QUOTE_MAX_CHARS {
            s.push('…');
            break;
        }
        s.push(c);
    }
    s.push('\'');
    s
}

/// Result alias for this crate.
pub type Result<T> = std::result::Result<T, PenneyError>;
