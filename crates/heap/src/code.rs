//! Take-and-break codes as data (Winning Ways ch. 4; CGSuite's `TakeAndBreak` notation).
//!
//! `0.d1d2d3…`: bit k of digit d_i allows a move that removes i tokens from one heap and leaves
//! exactly k non-empty heaps in its place. A digit before the point (d_0) allows splitting
//! without removing. Digits go up to 31 (`V`), so a move may leave up to 4 heaps.
//! Parsing from text lives in the `rule` module; this module is the shared representation that
//! every engine (reference and fast) consumes.
//!
//! ```
//! use grundy_heap::rule::parse_code;
//! let kayles = parse_code("0.77").unwrap();
//! // removing 2 tokens may leave 0, 1 or 2 heaps (7 = 0b111)
//! assert_eq!(kayles.digit(2).mask, 0b111);
//! assert_eq!(kayles.max_removal(), Some(2));
//! ```

/// A restriction on the sizes of the heaps a move leaves (CGSuite's modifiers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Constraint {
    /// No restriction.
    #[default]
    Any,
    /// `!`: the heaps left are pairwise unequal (Grundy's game is `4!.0`).
    Unequal,
    /// `?`: the heaps left are not all equal.
    NotAllEqual,
    /// `=`: the heaps left are all equal.
    AllEqual,
}

/// One digit of a code: which heap counts may be left when removing a given number of tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Digit {
    /// Bit k set: the move may leave exactly k non-empty heaps (k = 0..=4).
    pub mask: u8,
    /// Applies to the heaps this digit's moves leave.
    pub constraint: Constraint,
}

/// A take-and-break game.
///
/// `digits[i]` governs moves that remove `i` tokens; `digits[0]` is the digit before the point.
/// When `repeat_from` is `Some(r)`, the digits `digits[r..]` repeat for ever (`0.[3]` is Nim:
/// `digits = [0, 3]`, `repeat_from = Some(1)`); otherwise digits past the end are 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakeBreak {
    /// The digits, `digits[i]` for removing `i` tokens (`digits[0]`: before the point).
    pub digits: Vec<Digit>,
    /// Where the repeating part `[…]` starts, if the code has one.
    pub repeat_from: Option<usize>,
}

impl TakeBreak {
    /// The digit for removing `i` tokens (0 when none is allowed).
    pub fn digit(&self, i: u64) -> Digit {
        let len = self.digits.len() as u64;
        if i < len {
            return self.digits[i as usize];
        }
        match self.repeat_from {
            Some(r) if (r as u64) < len => {
                let r = r as u64;
                self.digits[(r + (i - r) % (len - r)) as usize]
            }
            _ => Digit::default(),
        }
    }

    /// True when the code is finite (no repeating tail): the Guy–Smith theorem applies.
    pub fn is_finite(&self) -> bool {
        self.repeat_from.is_none()
    }

    /// The largest number of tokens a move removes, for finite codes.
    pub fn max_removal(&self) -> Option<u64> {
        if !self.is_finite() {
            return None;
        }
        self.digits
            .iter()
            .rposition(|d| d.mask != 0)
            .map(|i| i as u64)
    }

    /// True when every digit is unconstrained (plain octal/hexadecimal code).
    pub fn is_unconstrained(&self) -> bool {
        self.digits.iter().all(|d| d.constraint == Constraint::Any)
    }
}
