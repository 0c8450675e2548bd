//! The engine's analysis in the one shape, [`grundy_core::Answer`].

use grundy_core::{Answer, Grundy, Outcome};

use crate::engine::Analysis;

impl Answer for Analysis {
    fn outcome(&self) -> Outcome {
        self.outcome
    }
    fn grundy(&self) -> Option<Grundy> {
        Some(Grundy::Finite(self.grundy))
    }
    fn winning_move_count(&self) -> u64 {
        self.winning_moves.len() as u64
    }
}

impl Answer for crate::cram::CramAnalysis {
    fn outcome(&self) -> Outcome {
        self.outcome
    }
    fn grundy(&self) -> Option<Grundy> {
        Some(Grundy::Finite(self.grundy))
    }
    fn winning_move_count(&self) -> u64 {
        self.winning_moves.len() as u64
    }
}
