//! grundy-heap: one-heap games (subtraction games, take-and-break codes) and their sequences.

pub mod code;

pub use code::{Constraint, Digit, TakeBreak};
