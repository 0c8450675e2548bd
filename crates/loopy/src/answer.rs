//! The loopy analyses in the one shape, [`grundy_core::Answer`]: the outcome may be `D`, the
//! value `∞(K)`.

use grundy_core::{Answer, Grundy, Outcome};

use crate::implicit::PositionAnalysis;
use crate::named::LoopyGraphAnalysis;

impl<P> Answer for PositionAnalysis<P> {
    fn outcome(&self) -> Outcome {
        self.this.outcome
    }
    fn grundy(&self) -> Option<Grundy> {
        Some(self.this.grundy.clone())
    }
    fn winning_move_count(&self) -> u64 {
        self.winning_moves.len() as u64
    }
}

/// The tokens' position; without tokens, the empty position (value 0, P).
impl Answer for LoopyGraphAnalysis {
    fn outcome(&self) -> Outcome {
        self.tokens.as_ref().map_or(Outcome::P, |t| t.outcome)
    }
    fn grundy(&self) -> Option<Grundy> {
        Some(
            self.tokens
                .as_ref()
                .map_or(Grundy::Finite(0), |t| t.grundy.clone()),
        )
    }
    fn winning_move_count(&self) -> u64 {
        self.tokens
            .as_ref()
            .map_or(0, |t| t.winning_moves.len() as u64)
    }
}
