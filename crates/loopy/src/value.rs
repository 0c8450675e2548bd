//! Smith's generalized Sprague–Grundy values, their outcomes and their sums are the project's
//! one value type, [`grundy_core::Grundy`] (finite `m` or `∞(K)`, with the sum rule, the text
//! `∞(0,2)` and the JSON `{"infinite": [0, 2]}`), and its one [`grundy_core::Outcome`]
//! (`P`, `N`, `D`); this crate re-exports both.
//!
//! ```
//! use grundy_loopy::{Grundy, Outcome};
//!
//! let d = Grundy::infinite([1, 3]);
//! assert_eq!(d.outcome(), Outcome::D);
//! assert_eq!(d, grundy_core::Grundy::infinite([1, 3]), "one type");
//! ```

pub use grundy_core::{Grundy, Outcome};
