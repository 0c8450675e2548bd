//! The linear system over correlations (Li 1980; Guibas & Odlyzko 1981): for patterns
//! `A_1..A_k` none of which contains another, the win probabilities `p_i` and the expected
//! duration `E[N]` satisfy `Σ_i p_i (A_i∘A_j) = E[N]` for every `j` and `Σ_i p_i = 1`.
//!
//! `k + 1` unknowns instead of one per automaton state; solved exactly by [`crate::linear`].

use crate::correlation::weighted_correlation_with;
use crate::error::{PenneyError, Result};
use crate::race::Race;
use crate::strings::prefix_function;
use dashu::rational::RBig;

/// Win probabilities (one per pattern, 0 for patterns that contain another) and `E[N]`.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemSolution {
    /// Probability that each pattern appears first.
    pub win: Vec<RBig>,
    /// Expected number of tosses until the race ends.
    pub expected: RBig,
}

/// Solves the correlation system of `race`.
pub fn solve(race: &Race) -> Result<SystemSolution> {
    let act = race.active();
    let k = act.len();
    let alphabet = race.alphabet();
    let pis: Vec<Vec<usize>> = act.iter().map(|&i| prefix_function(race.word(i))).collect();
    let mut a = vec![vec![RBig::ZERO; k + 1]; k + 1];
    let mut b = vec![vec![RBig::ZERO]; k + 1];
    for (j, &wj) in act.iter().enumerate() {
        for (i, &wi) in act.iter().enumerate() {
            a[j][i] = weighted_correlation_with(alphabet, race.word(wi), race.word(wj), &pis[j]);
        }
        a[j][k] = RBig::NEG_ONE;
    }
    for x in a[k].iter_mut().take(k) {
        *x = RBig::ONE;
    }
    b[k][0] = RBig::ONE;
    let x = crate::linear::solve(&a, &b)
        .ok_or_else(|| PenneyError::NotApplicable("the correlation system is singular".into()))?;
    let mut win = vec![RBig::ZERO; race.len()];
    for (i, &w) in act.iter().enumerate() {
        win[w] = x[i][0].clone();
    }
    Ok(SystemSolution {
        win,
        expected: x[k][0].clone(),
    })
}
