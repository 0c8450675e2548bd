//! Test helpers: a tiny straightforward mex engine and code builders.
#![allow(dead_code)]

use grundy_heap::{Constraint, Digit, TakeBreak};
use proptest::prelude::*;

/// A code from its text (`0.167`, `4!.0`).
pub fn code(text: &str) -> TakeBreak {
    grundy_heap::rule::parse_code(text).unwrap()
}

/// An octal code `0.d1d2…` from its digits after the point (d_0 = 0).
pub fn octal(after_point: &[u8]) -> TakeBreak {
    let mut digits = vec![Digit::default()];
    digits.extend(after_point.iter().map(|&m| Digit {
        mask: m,
        constraint: Constraint::Any,
    }));
    TakeBreak {
        digits,
        repeat_from: None,
    }
}

/// Grundy's game `4!.0`.
pub fn grundys_game() -> TakeBreak {
    TakeBreak {
        digits: vec![Digit {
            mask: 0b100,
            constraint: Constraint::Unequal,
        }],
        repeat_from: None,
    }
}

/// G(0..=n) by the heap crate's reference engine (the straightforward mex).
pub fn reference(code: &TakeBreak, n: usize) -> Vec<u32> {
    grundy_heap::reference::sequence(code, n as u64)
}

/// Reads `n value` lines (comments `#` skipped).
pub fn read_pairs(text: &str) -> Vec<(u64, u32)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            (
                it.next().unwrap().parse().unwrap(),
                it.next().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

/// A random digit: any mask of up to 2 heaps left, any constraint.
pub fn digit() -> impl Strategy<Value = Digit> {
    (0u8..8, 0usize..4).prop_map(|(mask, c)| Digit {
        mask,
        constraint: [
            Constraint::Any,
            Constraint::Unequal,
            Constraint::NotAllEqual,
            Constraint::AllEqual,
        ][c],
    })
}

/// A random finite code with splitting moves (digit 0 only splits into two heaps).
pub fn random_code() -> impl Strategy<Value = TakeBreak> {
    (digit(), prop::collection::vec(digit(), 0..5)).prop_map(|(d0, rest)| {
        let mut digits = vec![Digit {
            mask: d0.mask & 0b100,
            constraint: d0.constraint,
        }];
        digits.extend(rest);
        TakeBreak {
            digits,
            repeat_from: None,
        }
    })
}
