//! Every analysis of this crate in the one shape, [`grundy_core::Answer`]: outcome, value and
//! the number of winning moves listed.

use grundy_core::{impl_answer, Answer, Grundy, Outcome};

use crate::{cards, chomp, fib, hackenbush, maze, turning, walls, wythoff};

impl_answer!(fib::FibAnalysis, |a| a.grundy.map(Grundy::Finite));
impl_answer!(wythoff::WythoffAnalysis, |a| a.grundy.map(Grundy::Finite));
impl_answer!(chomp::ChompAnalysis, |a| Some(Grundy::Finite(a.grundy)));
impl_answer!(maze::MazeAnalysis, |a| Some(Grundy::Finite(a.grundy)));
impl_answer!(walls::WallsAnalysis, |a| Some(Grundy::Finite(a.grundy)));
impl_answer!(hackenbush::HackenbushAnalysis, |a| Some(Grundy::Finite(
    a.grundy
)));
impl_answer!(turning::TurningAnalysis, |a| Some(Grundy::Finite(a.grundy)));
impl_answer!(turning::MisereAnalysis, |_a| None);

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
