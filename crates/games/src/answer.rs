//! Every analysis of this crate in the one shape, [`grundy_core::Answer`]: outcome, value and
//! the number of winning moves listed.

use grundy_core::{Answer, Grundy, Outcome};

use crate::{cards, chomp, fib, hackenbush, maze, turning, walls, wythoff};

/// Implements [`Answer`] for analyses whose fields `outcome` and `winning_moves` have the
/// one vocabulary's meaning; `$grundy` turns the analysis into its value.
macro_rules! answer {
    ($t:ty, |$a:ident| $grundy:expr) => {
        impl Answer for $t {
            fn outcome(&self) -> Outcome {
                self.outcome
            }
            fn grundy(&self) -> Option<Grundy> {
                let $a = self;
                $grundy
            }
            fn winning_move_count(&self) -> u64 {
                self.winning_moves.len() as u64
            }
        }
    };
}

answer!(fib::FibAnalysis, |a| a.grundy.map(Grundy::Finite));
answer!(wythoff::WythoffAnalysis, |a| a.grundy.map(Grundy::Finite));
answer!(chomp::ChompAnalysis, |a| Some(Grundy::Finite(a.grundy)));
answer!(maze::MazeAnalysis, |a| Some(Grundy::Finite(a.grundy)));
answer!(walls::WallsAnalysis, |a| Some(Grundy::Finite(a.grundy)));
answer!(hackenbush::HackenbushAnalysis, |a| Some(Grundy::Finite(
    a.grundy
)));
answer!(turning::TurningAnalysis, |a| Some(Grundy::Finite(a.grundy)));
answer!(turning::MisereAnalysis, |_a| None);

/// A scoring game: `N` when the player to move scores at least half (a tie included), as
/// the catalogue's report says; no Grundy value; the optimal first moves.
impl Answer for cards::CardsAnalysis {
    fn outcome(&self) -> Outcome {
        match self.outcome {
            cards::Verdict::P => Outcome::P,
            cards::Verdict::N | cards::Verdict::Draw => Outcome::N,
        }
    }
    fn grundy(&self) -> Option<Grundy> {
        None
    }
    fn winning_move_count(&self) -> u64 {
        self.optimal_moves.len() as u64
    }
}
