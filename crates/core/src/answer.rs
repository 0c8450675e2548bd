//! The one shape of every analysis: who wins, the value, how many moves win.
//!
//! Each family answers a position with its own typed result (a Fibonacci pile's Zeckendorf
//! form, a maze's value grid, a heap sum's per-heap values), but every one of them says the
//! same three things first, under the same types: the [`Outcome`], the value as a [`Grundy`]
//! (where the question has one) and the winning moves. [`Answer`] is that common part; the
//! catalogue's `Report` is the same three answers with texts, and a test of the `grundy` crate
//! checks that the two agree for every family.

use crate::{Grundy, Outcome};

/// What every family's analysis of a position answers, whatever else it carries.
pub trait Answer {
    /// `N` when the player to move wins, `P` when the other player does, `D` when neither can
    /// force a win (games that can be drawn only).
    fn outcome(&self) -> Outcome;

    /// The Sprague–Grundy value of the position, where the analysis has one: `None` under
    /// misère play, in a scoring game, or where the value is beyond what the family computes.
    fn grundy(&self) -> Option<Grundy>;

    /// How many winning moves the analysis found (moves to a P-position; for a scoring game,
    /// the optimal moves). 0 in a P-position.
    fn winning_move_count(&self) -> u64;
}

/// Implements [`Answer`] for an analysis whose fields `outcome` (an [`Outcome`]) and
/// `winning_moves` (a `Vec`) have the vocabulary's meaning; the closure-like `|a| value` turns
/// the analysis `a` into its `Option<Grundy>`.
///
/// ```ignore
/// grundy_core::impl_answer!(FibAnalysis, |a| a.grundy.map(Grundy::Finite));
/// grundy_core::impl_answer!(impl<P> Analysis<P>, |a| Some(Grundy::Finite(a.grundy)));
/// ```
#[macro_export]
macro_rules! impl_answer {
    (impl<$($g:ident),*> $t:ty, |$a:ident| $grundy:expr) => {
        impl<$($g),*> $crate::Answer for $t {
            fn outcome(&self) -> $crate::Outcome {
                self.outcome
            }
            fn grundy(&self) -> Option<$crate::Grundy> {
                let $a = self;
                $grundy
            }
            fn winning_move_count(&self) -> u64 {
                self.winning_moves.len() as u64
            }
        }
    };
    ($t:ty, |$a:ident| $grundy:expr) => {
        $crate::impl_answer!(impl<> $t, |$a| $grundy);
    };
}

impl_answer!(impl<P> crate::solver::Analysis<P>, |a| Some(Grundy::Finite(a.grundy)));

impl Answer for crate::nim::NimAnalysis {
    fn outcome(&self) -> Outcome {
        self.outcome
    }
    /// The nim-sum under normal play; `None` under misère play, where it does not decide.
    fn grundy(&self) -> Option<Grundy> {
        (!self.play.is_misere()).then_some(Grundy::Finite(self.nim_sum))
    }
    fn winning_move_count(&self) -> u64 {
        self.winning_move_count
    }
}

impl_answer!(crate::graph::TokenAnalysis, |a| Some(Grundy::Finite(
    a.grundy
)));

impl Answer for crate::graph::GraphAnalysis {
    /// The outcome of the tokens' position; without tokens, of an empty position (P).
    fn outcome(&self) -> Outcome {
        self.tokens.as_ref().map_or(Outcome::P, |t| t.outcome)
    }
    /// The tokens' value under normal play (`None` under misère play).
    fn grundy(&self) -> Option<Grundy> {
        match &self.tokens {
            Some(t) => t.grundy.map(Grundy::Finite),
            None => Some(Grundy::Finite(0)),
        }
    }
    fn winning_move_count(&self) -> u64 {
        self.tokens
            .as_ref()
            .map_or(0, |t| t.winning_moves.len() as u64)
    }
}
