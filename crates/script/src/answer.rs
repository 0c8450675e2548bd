//! A script's analysis in the one shape, [`grundy_core::Answer`].

use grundy_core::{Answer, Grundy, Outcome};

use crate::ScriptAnalysis;

impl Answer for ScriptAnalysis {
    fn outcome(&self) -> Outcome {
        self.outcome
    }
    fn grundy(&self) -> Option<Grundy> {
        self.grundy.clone()
    }
    fn winning_move_count(&self) -> u64 {
        self.winning_moves.len() as u64
    }
}
