//! The one error type of this crate: bad input and exhausted budgets, each a one-line message.

use grundy_heap::RuleError;

/// Why a misère computation did not produce its answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MisereError {
    /// The rule string did not parse.
    #[error("bad rule: {0}")]
    Rule(#[from] RuleError),
    /// The rule is one this crate cannot tabulate (an infinite subtraction set the heap crate
    /// gives no code for, or a named game whose heaps are counted with a shift).
    #[error("unsupported rule {0}: misère analysis needs a take-and-break code or subtraction set without index shift")]
    UnsupportedRule(String),
    /// A heap bound beyond what the tables are built for.
    #[error("heap bound {bound} too large (at most {max})")]
    BoundTooLarge {
        /// The bound asked for.
        bound: u64,
        /// The largest bound accepted.
        max: u64,
    },
    /// A heap of a sum is larger than the quotient's bound.
    #[error("heap {heap} is beyond the quotient's bound {bound}")]
    HeapBeyondBound {
        /// The heap.
        heap: u64,
        /// The bound the quotient was computed to.
        bound: u64,
    },
    /// The quotient did not converge within the size cap: it grew past `cap` elements while
    /// heap `heap` was added (some quotients are infinite, e.g. misère 0.3122 up to heap 7).
    #[error("misère quotient did not converge: more than {cap} elements while adding heap {heap} (it may be infinite; raise the cap to look further)")]
    NotConverged {
        /// The heap being added.
        heap: u64,
        /// The size cap that was exceeded.
        cap: usize,
    },
    /// A search or verification reached its budget: a limit, not an answer.
    #[error("limit reached: {what} exceeded {limit}")]
    Limit {
        /// What was counted (search positions, verification states, …).
        what: &'static str,
        /// The budget.
        limit: usize,
    },
    /// The caller asked the computation to stop (it keeps what it finished: the quotient of
    /// heaps `0..=upto`).
    #[error("stopped (the quotient is complete up to heap {upto})")]
    Stopped {
        /// The last heap whose quotient is complete.
        upto: u64,
    },
    /// A saved quotient or game text did not parse.
    #[error("parse error: {0}")]
    Parse(String),
}
