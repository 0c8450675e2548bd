//! grundy-misere: misère play of impartial games, beyond searching whole positions.
//!
//! - [`quotient`](mod@quotient): the misère quotient (Plambeck–Siegel) of a heap rule up to a heap bound:
//!   the finite commutative monoid Q of sums of heaps modulo misère indistinguishability, its
//!   P-portion and the pretending function Φ. With it the misère outcome of a sum of any number
//!   of heaps is a product in Q, and the winning moves follow.
//! - [`genus`]: Conway's genus g^{γ0γ1…} of the heaps of a rule, printed as CGSuite prints it.
//! - [`canonical`]: misère canonical forms of games given by their options (CGSuite's entry
//!   notation `*[[2],0]`, output notation `*[2#0]`), with birthday, misère Grundy value,
//!   outcome, mate and the tame / restive / restless classification.
//! - [`search`]: the straightforward memoised misère search over sums of heaps that the fast
//!   methods are checked against and fall back on.
//! - [`heaps`]: the moves of each heap of a rule, tabulated up to a bound.
//! - [`solution`]: the proof that Φ stays periodic (the quotient then covers every heap), and
//!   the checks a quotient read from a file passes before it is used.
//!
//! ```
//! use grundy_misere::quotient::quotient;
//! let q = quotient("0.75", 6).unwrap();
//! assert_eq!((q.order, q.p_size), (8, 2));
//! assert_eq!(q.presentation, "a^2 = 1, b^3 = b, bc = ab, c^2 = b^2");
//! ```

#![forbid(unsafe_code)]

pub mod canonical;
pub mod error;
mod extension;
pub mod genus;
pub mod heaps;
pub mod quotient;
mod representatives;
pub mod search;
pub mod solution;

pub use error::MisereError;
pub use genus::{genus_of_rule, Genus};

pub use quotient::{quotient, Quotient, QuotientEngine};
pub use solution::Solution;
