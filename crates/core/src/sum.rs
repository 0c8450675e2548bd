//! The disjunctive sum of two different games, itself a [`Game`].
//!
//! `Sum(a, b)` plays a position of `a` beside a position of `b`: a move is a move in exactly
//! one of them. Its whole positions split into a left-only and a right-only part, so the solver
//! values them as the XOR of the parts (and memoises each part once). Nest `Sum`s to add more
//! games: `Sum(a, Sum(b, c))`.

use crate::game::Game;
use crate::solver::Solver;

/// The disjunctive sum of games `A` and `B`.
#[derive(Clone, Debug)]
pub struct Sum<A, B>(pub A, pub B);

/// A position of [`Sum`]: both parts, or one part alone (a component of a `Both`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SumPos<X, Y> {
    /// A position of the left game beside one of the right game.
    Both(X, Y),
    /// A position of the left game alone.
    Left(X),
    /// A position of the right game alone.
    Right(Y),
}

/// A winning move of a `Both` position: the side moved in and that side's new position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SideMove<X, Y> {
    /// Move in the left game (component 0) to this position.
    Left(X),
    /// Move in the right game (component 1) to this position.
    Right(Y),
}

impl<X, Y> SideMove<X, Y> {
    /// 0 for the left game, 1 for the right.
    pub fn component(&self) -> usize {
        match self {
            SideMove::Left(_) => 0,
            SideMove::Right(_) => 1,
        }
    }
}

impl<A: Game, B: Game> Game for Sum<A, B> {
    type Position = SumPos<A::Position, B::Position>;

    fn options(&self, pos: &Self::Position, out: &mut Vec<Self::Position>) {
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        match pos {
            SumPos::Left(x) => {
                self.0.options(x, &mut xs);
                out.extend(xs.into_iter().map(SumPos::Left));
            }
            SumPos::Right(y) => {
                self.1.options(y, &mut ys);
                out.extend(ys.into_iter().map(SumPos::Right));
            }
            SumPos::Both(x, y) => {
                self.0.options(x, &mut xs);
                self.1.options(y, &mut ys);
                out.extend(xs.into_iter().map(|x2| SumPos::Both(x2, y.clone())));
                out.extend(ys.into_iter().map(|y2| SumPos::Both(x.clone(), y2)));
            }
        }
    }

    fn components(&self, pos: &Self::Position, out: &mut Vec<Self::Position>) -> bool {
        match pos {
            SumPos::Both(x, y) => {
                out.push(SumPos::Left(x.clone()));
                out.push(SumPos::Right(y.clone()));
                true
            }
            SumPos::Left(x) => {
                let mut xs = Vec::new();
                let split = self.0.components(x, &mut xs);
                out.extend(xs.into_iter().map(SumPos::Left));
                split
            }
            SumPos::Right(y) => {
                let mut ys = Vec::new();
                let split = self.1.components(y, &mut ys);
                out.extend(ys.into_iter().map(SumPos::Right));
                split
            }
        }
    }

    /// A pair carries its two sides; a side that splits, as its own game says.
    fn memoise_sum(&self, pos: &Self::Position) -> bool {
        match pos {
            SumPos::Both(..) => false,
            SumPos::Left(x) => self.0.memoise_sum(x),
            SumPos::Right(y) => self.1.memoise_sum(y),
        }
    }
}

impl<A: Game, B: Game> Solver<Sum<A, B>> {
    /// Every winning move (normal play) of `x` beside `y`, as the side moved in and its new
    /// position: in the left game to a position of value `g(y)`, or in the right to `g(x)`.
    pub fn side_winning_moves(
        &mut self,
        x: &A::Position,
        y: &B::Position,
    ) -> Vec<SideMove<A::Position, B::Position>> {
        let gx = self.grundy(&SumPos::Left(x.clone()));
        let gy = self.grundy(&SumPos::Right(y.clone()));
        let mut moves = Vec::new();
        if gx == gy {
            return moves;
        }
        for o in self.moves_to_value(&SumPos::Left(x.clone()), gy) {
            if let SumPos::Left(x2) = o {
                moves.push(SideMove::Left(x2));
            }
        }
        for o in self.moves_to_value(&SumPos::Right(y.clone()), gx) {
            if let SumPos::Right(y2) = o {
                moves.push(SideMove::Right(y2));
            }
        }
        moves
    }
}
