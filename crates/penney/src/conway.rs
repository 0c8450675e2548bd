//! Conway's leading numbers for two patterns: the odds that `B` appears before `A` are
//! `(A∘A − A∘B) : (B∘B − B∘A)`, and the expected duration is
//! `(A∘A·B∘B − A∘B·B∘A) / (A∘A − A∘B + B∘B − B∘A)`.
//!
//! Overlaps come from the prefix function (linear time), weighted sums from binary splitting,
//! so two patterns of length 10^5 take milliseconds.

use crate::alphabet::Alphabet;
use crate::correlation::{leading_number_bits, weighted_correlation_with};
use crate::error::{PenneyError, Result};
use crate::strings::{contains, prefix_function};
use dashu::rational::RBig;

/// The four weighted correlations of a pair `(A, B)`.
#[derive(Clone, Debug, PartialEq)]
pub struct LeadingNumbers {
    /// `A∘A`: the expected waiting time for `A` alone.
    pub aa: RBig,
    /// `A∘B`: suffixes of `A` against prefixes of `B`.
    pub ab: RBig,
    /// `B∘B`.
    pub bb: RBig,
    /// `B∘A`.
    pub ba: RBig,
}

/// Conway's answer for a race of `A` (first player) against `B` (second player).
#[derive(Clone, Debug, PartialEq)]
pub struct ConwayResult {
    /// The leading numbers.
    pub leading: LeadingNumbers,
    /// Probability that `B` appears before `A`.
    pub prob_b_first: RBig,
    /// Odds for `B` against `A` as a reduced ratio `(b, a)`, e.g. `(7, 1)` for 7:1.
    pub odds: (dashu::integer::IBig, dashu::integer::UBig),
    /// Expected number of tosses until `A` or `B` appears.
    pub expected: RBig,
}

/// Conway's leading-number computation for two distinct patterns neither of which contains the
/// other (otherwise the race is decided without odds; see [`crate::Race::blocked_by`]).
pub fn conway(alphabet: &Alphabet, a: &[usize], b: &[usize]) -> Result<ConwayResult> {
    if a.is_empty() || b.is_empty() {
        return Err(PenneyError::EmptyPattern);
    }
    if a == b {
        return Err(PenneyError::DuplicatePattern(alphabet.decode(a)));
    }
    if contains(a, b) || contains(b, a) {
        return Err(PenneyError::NotApplicable(format!(
            "one of {} and {} contains the other",
            crate::error::quote(&alphabet.decode(a)),
            crate::error::quote(&alphabet.decode(b))
        )));
    }
    let pa = prefix_function(a);
    let pb = prefix_function(b);
    let leading = LeadingNumbers {
        aa: weighted_correlation_with(alphabet, a, a, &pa),
        ab: weighted_correlation_with(alphabet, a, b, &pb),
        bb: weighted_correlation_with(alphabet, b, b, &pb),
        ba: weighted_correlation_with(alphabet, b, a, &pa),
    };
    let for_b = &leading.aa - &leading.ab;
    let for_a = &leading.bb - &leading.ba;
    let total = &for_b + &for_a;
    let expected = (&leading.aa * &leading.bb - &leading.ab * &leading.ba) / &total;
    let prob_b_first = &for_b / &total;
    let (on, od) = (for_b / for_a).into_parts();
    Ok(ConwayResult {
        leading,
        prob_b_first,
        odds: (on, od),
        expected,
    })
}

/// Leading numbers as bit strings `(AA, AB, BB, BA)`, most significant bit = longest overlap.
pub fn leading_bits(a: &[usize], b: &[usize]) -> [String; 4] {
    [
        leading_number_bits(a, a),
        leading_number_bits(a, b),
        leading_number_bits(b, b),
        leading_number_bits(b, a),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_pairs() {
        let c = Alphabet::coin();
        let r = conway(&c, &c.encode("HHH").unwrap(), &c.encode("THH").unwrap()).unwrap();
        assert_eq!(r.prob_b_first.to_string(), "7/8");
        assert_eq!(r.expected.to_string(), "7");
        assert_eq!(r.odds.0.to_string(), "7");
        assert!(conway(&c, &c.encode("HT").unwrap(), &c.encode("HHT").unwrap()).is_err());
    }
}
