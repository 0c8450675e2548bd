//! grundy-heap: one-heap games (subtraction games, take-and-break codes) and their sequences.
//!
//! * [`rule`]: the rule language (`0.77`, `4!.0`, `sub:1,3,4`, `allbut:2`, `kayles`) → [`Rule`].
//! * [`code`]: the take-and-break code every engine consumes ([`TakeBreak`]).
//! * [`options`]: the moves from one heap.
//! * [`reference`]: the plain mex engine, G(0..=n) of a code (the yardstick).
//! * [`named`]: famous and contest games by name, with their heap-size shift.

pub mod code;
pub mod named;
pub mod options;
pub mod reference;
pub mod rule;

pub use code::{Constraint, Digit, TakeBreak};
pub use rule::{parse, Rule, RuleError};
