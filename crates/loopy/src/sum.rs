//! Sums of tokens on one labelled graph: each token is a game, a move slides one token, and
//! the sum's value follows Smith's rule from the tokens' values.
//!
//! Internal: the moves found here are by vertex index; [`crate::LoopyGraph::analyze`] turns
//! them into the catalogue's [`grundy_core::Move`]s, the one public move type.

use crate::label::LabelledGraph;
use crate::value::Grundy;
use grundy_core::Outcome;

/// A move of a sum of tokens, by vertex index: token `token` slides from `from` onto `onto`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TokenMove {
    /// Which token moves (0-based, in the order the tokens were given).
    pub(crate) token: usize,
    /// The vertex it leaves.
    pub(crate) from: usize,
    /// The vertex it moves onto.
    pub(crate) onto: usize,
    /// The value of the whole sum after the move.
    pub(crate) grundy: Grundy,
}

/// The value of a sum of tokens and its good moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SumAnalysis {
    /// The sum's value, by Smith's rule.
    pub(crate) grundy: Grundy,
    /// Its outcome.
    pub(crate) outcome: Outcome,
    /// In an N-position, every move to a sum of value 0.
    pub(crate) winning_moves: Vec<TokenMove>,
    /// In a drawn position, every move after which the sum is still a draw (every other
    /// move hands the opponent a win).
    pub(crate) drawing_moves: Vec<TokenMove>,
}

/// Running totals of token values: how many are infinite and the XOR of the finite ones.
struct Totals<'a> {
    values: &'a [Grundy],
    infinite: Vec<usize>,
    xor: u64,
}

impl<'a> Totals<'a> {
    fn new(values: &'a [Grundy]) -> Self {
        let mut infinite = Vec::new();
        let mut xor = 0;
        for (i, v) in values.iter().enumerate() {
            match v {
                Grundy::Finite(m) => xor ^= m,
                Grundy::Infinite(_) => infinite.push(i),
            }
        }
        Totals {
            values,
            infinite,
            xor,
        }
    }

    /// The sum of every token but `i`, plus `v` in its place.
    fn replaced(&self, i: usize, v: &Grundy) -> Grundy {
        let (others_inf, xor) = match &self.values[i] {
            Grundy::Finite(m) => (self.infinite.len(), self.xor ^ m),
            Grundy::Infinite(_) => (self.infinite.len() - 1, self.xor),
        };
        let others = match others_inf {
            0 => Grundy::Finite(xor),
            1 => {
                let j = *self
                    .infinite
                    .iter()
                    .find(|&&j| j != i)
                    .unwrap_or(&self.infinite[0]);
                &self.values[j] + &Grundy::Finite(xor)
            }
            _ => Grundy::infinite([]),
        };
        &others + v
    }
}

impl LabelledGraph {
    /// The value of tokens on `tokens` (vertices, repeats allowed), by Smith's rule.
    pub fn sum_value(&self, tokens: &[usize]) -> Grundy {
        tokens.iter().map(|&v| self.value(v)).sum()
    }

    /// The value, outcome and good moves of tokens on `tokens` (vertices, repeats allowed):
    /// winning moves in an N-position, drawing moves in a drawn one.
    pub(crate) fn analyze_tokens(&self, tokens: &[usize]) -> SumAnalysis {
        let values: Vec<Grundy> = tokens.iter().map(|&v| self.value(v)).collect();
        let grundy: Grundy = values.iter().cloned().sum();
        let outcome = grundy.outcome();
        let mut winning_moves = Vec::new();
        let mut drawing_moves = Vec::new();
        if outcome != Outcome::P {
            let totals = Totals::new(&values);
            for (token, &from) in tokens.iter().enumerate() {
                for onto in self.option_vertices(from) {
                    let after = totals.replaced(token, &self.value(onto));
                    let keep = match outcome {
                        Outcome::N => after.outcome() == Outcome::P,
                        _ => after.outcome() == Outcome::D,
                    };
                    if keep {
                        let m = TokenMove {
                            token,
                            from,
                            onto,
                            grundy: after,
                        };
                        if outcome == Outcome::N {
                            winning_moves.push(m);
                        } else {
                            drawing_moves.push(m);
                        }
                    }
                }
            }
        }
        SumAnalysis {
            grundy,
            outcome,
            winning_moves,
            drawing_moves,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Digraph, LabelledGraph, Outcome};

    #[test]
    fn two_tokens_on_an_infinite_value_draw() {
        // a -> b, b -> a, b -> b, a -> c: a is ∞(0), an N-position (move to c), b is ∞, a
        // draw; two tokens on a are a draw.
        let l =
            LabelledGraph::new(Digraph::from_edges(3, &[(0, 1), (1, 0), (1, 1), (0, 2)]).unwrap());
        assert_eq!(l.value(0).to_string(), "∞(0)");
        assert_eq!(l.outcome(0), Outcome::N);
        let s = l.analyze_tokens(&[0, 0]);
        assert_eq!(s.outcome, Outcome::D);
        assert_eq!(s.drawing_moves.len(), 2); // either token to b
        assert!(s.drawing_moves.iter().all(|m| m.onto == 1 && m.from == 0));
    }
}
