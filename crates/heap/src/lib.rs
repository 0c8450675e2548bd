//! grundy-heap: one-heap games (subtraction games, take-and-break codes) and their sequences.
//!
//! * [`rule`]: the rule language (`0.77`, `4!.0`, `sub:1,3,4`, `allbut:2`, `kayles`) → [`Rule`].
//! * [`code`]: the take-and-break code every engine consumes ([`TakeBreak`]).
//! * [`options`]: the moves from one heap.
//! * [`mod@reference`]: the plain mex engine, G(0..=n) of a code (the yardstick).
//! * [`subtraction`]: faster engines for moves that leave at most one heap.
//! * [`engine`]: G(0..=n) of any rule by the best engine, named games' shift applied.
//! * [`periodicity`]: smallest period, preperiod, saltus; proven (Guy–Smith) or observed.
//! * [`sum`]: sums of heaps: value, outcome, every winning move.
//! * [`named`]: famous and contest games by name, with their heap-size shift.
//! * [`json_int`]: serde helpers writing integers above 2^53 as strings (the JSON rule).
//!
//! Long computations report progress through callbacks `&mut dyn FnMut(u64) -> bool`: the
//! argument is how far the run has got (heaps done), and returning `false` stops the run,
//! which then returns [`reference::EngineError::Stopped`] (how a front end handles Ctrl-C).

#![forbid(unsafe_code)]

pub mod code;
pub mod engine;
pub mod json_int;
pub mod named;
pub mod options;
pub mod periodicity;
pub mod reference;
pub mod rule;
pub mod subtraction;
pub mod sum;

pub use code::{Constraint, Digit, TakeBreak};
pub use rule::{parse, Rule, RuleError};
