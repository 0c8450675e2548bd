//! Modular subtraction, `windup:N:S`: a loopy family.
//!
//! Positions are `0..N`; from `x ≠ 0` a move goes to `(x − s) mod N` for each `s` in `S`
//! (winding past 0 wraps around to the top); position 0 has no move. Play can go round and
//! round, so positions can be drawn: in `windup:8:3,5` (moves of −3 and −5 mod 8) every
//! position is either P, N or a draw, depending on whether 0 can be forced.

use grundy_core::text::quote;
use grundy_core::Game;

use crate::digraph::Digraph;
use crate::label::LabelledGraph;
use crate::value::Grundy;

/// The largest `N` accepted: 2^24 positions.
pub const WINDUP_MAX_N: u64 = 1 << 24;
/// The most moves a windup graph may have (`(N − 1) · |S|`): 2^26, 512 MiB of graph.
pub const WINDUP_MAX_MOVES: u64 = 1 << 26;

/// Why a `windup:N:S` code was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WindupError {
    /// The code does not have the form `windup:N:S`.
    #[error("expected windup:N:S (e.g. windup:8:3,5), found {}", quote(.0))]
    Form(String),
    /// `N` is not a positive integer.
    #[error("windup: N must be a positive integer, found {}", quote(.0))]
    BadN(String),
    /// An entry of `S` is not a non-negative integer.
    #[error("windup: S must be integers separated by commas, found {}", quote(.0))]
    BadS(String),
    /// `N` too large.
    #[error("windup: N = {0} is above the limit of {WINDUP_MAX_N}")]
    TooLarge(u64),
    /// A position outside `0..N`.
    #[error("windup: position {position} is not one of 0..{n}")]
    Position {
        /// The position asked for.
        position: u64,
        /// `N`.
        n: u64,
    },
    /// Too many moves in all.
    #[error("windup: {0} moves in all, above the limit of {WINDUP_MAX_MOVES}")]
    TooManyMoves(u64),
}

/// The game `windup:N:S` (see the module docs).
///
/// ```
/// use grundy_loopy::{Outcome, Windup};
///
/// let w = Windup::parse("windup:8:3,5")?;
/// let l = w.labelled();
/// let outcomes: String = (0..8).map(|x| l.outcome(x).as_str()).collect();
/// assert_eq!(outcomes, "PDDNDNDD"); // 3 and 5 reach 0; the rest go round
/// # Ok::<(), grundy_loopy::WindupError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Windup {
    n: u64,
    subtractions: Vec<u64>,
}

impl Windup {
    /// `windup:n:s` for `n` in `1..=`[`WINDUP_MAX_N`]; `s` is reduced mod `n`, sorted and
    /// deduplicated (an `s` of 0 mod `n` is a move that stays put).
    pub fn new(n: u64, s: &[u64]) -> Result<Windup, WindupError> {
        if n == 0 {
            return Err(WindupError::BadN("0".into()));
        }
        if n > WINDUP_MAX_N {
            return Err(WindupError::TooLarge(n));
        }
        let mut subtractions: Vec<u64> = s.iter().map(|&x| x % n).collect();
        subtractions.sort_unstable();
        subtractions.dedup();
        let moves = (n - 1).saturating_mul(subtractions.len() as u64);
        if moves > WINDUP_MAX_MOVES {
            return Err(WindupError::TooManyMoves(moves));
        }
        Ok(Windup { n, subtractions })
    }

    /// Parses `windup:N:S`, `S` a comma-separated list (possibly empty: no moves at all).
    pub fn parse(code: &str) -> Result<Windup, WindupError> {
        let mut parts = code.trim().split(':');
        let (Some(name), Some(n), Some(s), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(WindupError::Form(code.to_string()));
        };
        if !name.eq_ignore_ascii_case("windup") {
            return Err(WindupError::Form(code.to_string()));
        }
        let n: u64 = match n.trim().parse() {
            Ok(n) if n > 0 => n,
            _ => return Err(WindupError::BadN(n.to_string())),
        };
        let mut subs = Vec::new();
        if !s.trim().is_empty() {
            for part in s.split(',') {
                subs.push(
                    part.trim()
                        .parse::<u64>()
                        .map_err(|_| WindupError::BadS(part.to_string()))?,
                );
            }
        }
        Windup::new(n, &subs)
    }

    /// `x` itself when it is a position (`0..N`), else [`WindupError::Position`]: for a front
    /// end checking the positions it is asked about.
    pub fn position(&self, x: u64) -> Result<u64, WindupError> {
        if x < self.n {
            Ok(x)
        } else {
            Err(WindupError::Position {
                position: x,
                n: self.n,
            })
        }
    }

    /// `N`, the number of positions.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// `S`, reduced mod `N`, sorted, without repeats.
    pub fn subtractions(&self) -> &[u64] {
        &self.subtractions
    }

    /// The canonical code, `windup:N:S`.
    pub fn code(&self) -> String {
        let s: Vec<String> = self.subtractions.iter().map(u64::to_string).collect();
        format!("windup:{}:{}", self.n, s.join(","))
    }

    /// The move graph: vertex `x` is position `x`.
    pub fn graph(&self) -> Digraph {
        let n = self.n as usize;
        let k = self.subtractions.len();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(n.saturating_sub(1) * k);
        offsets.push(0u32);
        offsets.push(0u32); // position 0: no move
        for x in 1..self.n {
            targets.extend(
                self.subtractions
                    .iter()
                    .map(|&s| ((x + self.n - s) % self.n) as u32),
            );
            offsets.push(targets.len() as u32);
        }
        // Well formed by construction, and within u32 by the limits of `new`.
        Digraph::with_reverse(offsets, targets)
    }

    /// The labelled move graph: every position's value, outcome and remoteness.
    pub fn labelled(&self) -> LabelledGraph {
        LabelledGraph::new(self.graph())
    }

    /// The value of every position `0..N`.
    pub fn values(&self) -> Vec<Grundy> {
        self.labelled().values()
    }
}

impl std::fmt::Display for Windup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.code())
    }
}

/// `windup:N:S` as a game on positions `0..N` (for [`crate::explore`] from one start); a
/// number outside `0..N` has no move (check it with [`Windup::position`]).
impl Game for Windup {
    type Position = u64;
    fn options(&self, &x: &u64, out: &mut Vec<u64>) {
        if x == 0 || x >= self.n {
            return;
        }
        out.extend(self.subtractions.iter().map(|&s| (x + self.n - s) % self.n));
    }
}
