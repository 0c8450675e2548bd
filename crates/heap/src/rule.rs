//! The rule language: one string names a one-heap game.
//!
//! * Take-and-break codes in CGSuite's `TakeAndBreak` notation: `0.77`, `.07`, `4.7`, `0.3F`,
//!   `0.[3]`, `4!.0`. Digits are `0-9` and `A-V` (10..31, case-insensitive); a digit may be
//!   followed by one modifier that applies to that digit's splits into two or more heaps:
//!   `!` pairwise unequal, `?` not all equal, `=` all equal. A bracketed tail (`0.[12]`)
//!   repeats for ever and must end the code. At most one digit stands before the point, and it
//!   may only split (a multiple of 4): removing nothing and leaving one heap would be a pass.
//! * Subtraction games: `sub:1,3,4`, `sub:odd`, `sub:even`, `sub:fib`, `sub:pow2`,
//!   `sub:squares`, `sub:primes`, and all-but games `allbut:1,2` (remove any positive number
//!   except those listed).
//! * Named games (see [`crate::named`]): `kayles`, `grundys-game`, `crosses`, …
//!
//! ```
//! use grundy_heap::rule::{parse, Rule};
//! let r = parse("4!.0").unwrap();
//! assert!(matches!(r, Rule::Code(_)));
//! assert!(parse("0.7.7").is_err());
//! ```

use std::fmt;

use crate::code::{Constraint, Digit, TakeBreak};
use crate::named::{self, NamedGame};
use grundy_core::text::quote;

/// The most digits a code may have (a guard against absurd input, not a theoretical limit).
pub const MAX_CODE_DIGITS: usize = 4096;
/// The largest element of a finite subtraction or exclusion set (the set becomes a code with
/// one digit per number up to it).
pub const MAX_SET_ELEMENT: u64 = 1_000_000;

/// An infinite subtraction set given by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InfiniteSet {
    /// 1, 3, 5, …
    Odd,
    /// 2, 4, 6, …
    Even,
    /// Fibonacci numbers 1, 2, 3, 5, 8, … (Pimber).
    Fib,
    /// Powers of two 1, 2, 4, 8, …
    Pow2,
    /// Squares 1, 4, 9, 16, …
    Squares,
    /// Primes 2, 3, 5, 7, …
    Primes,
}

impl InfiniteSet {
    /// The name used in `sub:NAME`.
    pub fn name(self) -> &'static str {
        match self {
            InfiniteSet::Odd => "odd",
            InfiniteSet::Even => "even",
            InfiniteSet::Fib => "fib",
            InfiniteSet::Pow2 => "pow2",
            InfiniteSet::Squares => "squares",
            InfiniteSet::Primes => "primes",
        }
    }

    fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "odd" => InfiniteSet::Odd,
            "even" => InfiniteSet::Even,
            "fib" | "fibonacci" => InfiniteSet::Fib,
            "pow2" => InfiniteSet::Pow2,
            "squares" => InfiniteSet::Squares,
            "primes" => InfiniteSet::Primes,
            _ => return None,
        })
    }

    /// True when `s` belongs to the set (`s >= 1`).
    pub fn contains(self, s: u64) -> bool {
        match self {
            InfiniteSet::Odd => s % 2 == 1,
            InfiniteSet::Even => s >= 2 && s.is_multiple_of(2),
            InfiniteSet::Fib => {
                let (mut a, mut b) = (1u64, 2u64);
                while a < s {
                    let c = a.saturating_add(b);
                    a = b;
                    b = c;
                }
                a == s
            }
            InfiniteSet::Pow2 => s.is_power_of_two(),
            InfiniteSet::Squares => {
                let r = isqrt(s);
                s >= 1 && r * r == s
            }
            InfiniteSet::Primes => is_prime(s),
        }
    }

    /// The members `<= n`, ascending.
    pub fn members_upto(self, n: u64) -> Vec<u64> {
        match self {
            InfiniteSet::Odd => (1..=n).step_by(2).collect(),
            InfiniteSet::Even => (2..=n).step_by(2).collect(),
            InfiniteSet::Fib => {
                let (mut a, mut b) = (1u64, 2u64);
                let mut v = Vec::new();
                while a <= n {
                    v.push(a);
                    let c = a.saturating_add(b);
                    a = b;
                    b = c;
                    if a == u64::MAX {
                        break;
                    }
                }
                v
            }
            InfiniteSet::Pow2 => (0..64).map(|k| 1u64 << k).take_while(|&p| p <= n).collect(),
            InfiniteSet::Squares => (1..).map(|k: u64| k * k).take_while(|&q| q <= n).collect(),
            InfiniteSet::Primes => primes_upto(n),
        }
    }
}

/// Integer square root (floor).
pub(crate) fn isqrt(n: u64) -> u64 {
    let mut r = (n as f64).sqrt() as u64;
    while r.checked_mul(r).is_none_or(|q| q > n) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|q| q <= n) {
        r += 1;
    }
    r
}

fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    let mut d = 2u64;
    while d.saturating_mul(d) <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

/// Primes `<= n` by a sieve of Eratosthenes.
pub(crate) fn primes_upto(n: u64) -> Vec<u64> {
    let n = n as usize;
    if n < 2 {
        return Vec::new();
    }
    let mut composite = vec![false; n + 1];
    let mut out = Vec::new();
    for i in 2..=n {
        if !composite[i] {
            out.push(i as u64);
            let mut j = i.saturating_mul(i);
            while j <= n {
                composite[j] = true;
                j += i;
            }
        }
    }
    out
}

/// A subtraction game: remove `s` tokens from a heap for some `s` in the set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SubtractionSet {
    /// A finite set, ascending, without duplicates, all elements >= 1.
    Finite(Vec<u64>),
    /// A named infinite set.
    Infinite(InfiniteSet),
}

/// A one-heap game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A take-and-break code.
    Code(TakeBreak),
    /// A subtraction game.
    Subtraction(SubtractionSet),
    /// Remove any positive number of tokens except those listed (ascending, may be empty: Nim).
    AllBut(Vec<u64>),
    /// A named game: the value of a heap of natural size `n` is the value of heap `n + shift`
    /// of `base`.
    Named {
        /// The game's entry in [`named`](mod@crate::named): its name, what n counts, its shift.
        game: &'static NamedGame,
        /// The rule the named game is played as (a code, usually).
        base: Box<Rule>,
    },
}

impl Rule {
    /// The underlying rule and index shift: `G_self(n) = G_base(n + shift)`.
    pub fn base_and_shift(&self) -> (&Rule, u64) {
        match self {
            Rule::Named { game, base } => (base, game.shift),
            other => (other, 0),
        }
    }

    /// The take-and-break code of this rule, when it has one (finite subtraction sets and
    /// all-but games are codes too: `sub:2,3,7` is `0.0330003`). Named games give their
    /// base code; mind [`Rule::base_and_shift`].
    pub fn take_break(&self) -> Option<TakeBreak> {
        match self {
            Rule::Code(c) => Some(c.clone()),
            Rule::Subtraction(SubtractionSet::Finite(s)) => {
                let max = *s.last()? as usize;
                let mut digits = vec![Digit::default(); max + 1];
                for &x in s {
                    digits[x as usize].mask = 3;
                }
                Some(TakeBreak {
                    digits,
                    repeat_from: None,
                })
            }
            Rule::Subtraction(SubtractionSet::Infinite(InfiniteSet::Odd)) => Some(TakeBreak {
                digits: vec![Digit::default(), quaternary(3), quaternary(0)],
                repeat_from: Some(1),
            }),
            Rule::Subtraction(SubtractionSet::Infinite(InfiniteSet::Even)) => Some(TakeBreak {
                digits: vec![Digit::default(), quaternary(0), quaternary(3)],
                repeat_from: Some(1),
            }),
            Rule::Subtraction(SubtractionSet::Infinite(_)) => None,
            Rule::AllBut(s) => {
                let max = s.last().copied().unwrap_or(0) as usize;
                let mut digits = vec![quaternary(3); max + 2];
                digits[0] = Digit::default();
                for &x in s {
                    digits[x as usize].mask = 0;
                }
                Some(TakeBreak {
                    digits,
                    repeat_from: Some(max + 1),
                })
            }
            Rule::Named { base, .. } => base.take_break(),
        }
    }
}

fn quaternary(mask: u8) -> Digit {
    Digit {
        mask,
        constraint: Constraint::Any,
    }
}

/// Why a rule string was rejected. Every message is one line and names the offending token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The rule string is empty.
    #[error(
        "empty rule: give a code such as 0.77, a set such as sub:1,3,4, or a name such as kayles"
    )]
    Empty,
    /// Not a code, a set or a known name: the text, and the list of names.
    #[error(
        "unknown rule {}: not a code (like 0.77), a set (sub:…, allbut:…) or a known game name ({names})",
        quote(.0),
        names = .1
    )]
    UnknownName(String, String),
    /// A character that is no code digit.
    #[error(
        "bad code {}: {} at position {pos} is not a code digit (0-9, A-V = 10-31)",
        quote(.code), quote(&.found.to_string())
    )]
    BadDigit {
        /// The code as typed.
        code: String,
        /// The offending character.
        found: char,
        /// Its position in the code (0-based, in characters).
        pos: usize,
    },
    /// A second `.` in a code.
    #[error(
        "bad code {}: second '.' at position {pos}",
        quote(.code)
    )]
    SecondPoint {
        /// The code as typed.
        code: String,
        /// Its position in the code (0-based, in characters).
        pos: usize,
    },
    /// A code without its `.`.
    #[error(
        "bad code {}: no '.' (write e.g. 0.77 or 4.0)",
        quote(.code)
    )]
    NoPoint {
        /// The code as typed.
        code: String,
    },
    /// A code with nothing after the `.`.
    #[error(
        "bad code {}: no digit after the '.' (write e.g. 4!.0)",
        quote(.code)
    )]
    NoDigitAfterPoint {
        /// The code as typed.
        code: String,
    },
    /// More than one digit before the `.` (additive codes).
    #[error(
        "bad code {}: at most one digit may stand before the '.' (additive codes are not supported)",
        quote(.code)
    )]
    AdditiveDigits {
        /// The code as typed.
        code: String,
    },
    /// A digit before the `.` that does not only split (it would allow loops).
    #[error(
        "bad code {}: the digit before the '.' may only split (a multiple of 4), found {digit}",
        quote(.code)
    )]
    LoopyDigit {
        /// The code as typed.
        code: String,
        /// The digit found.
        digit: u8,
    },
    /// A modifier (`!`, `?`, `=`) that follows no digit.
    #[error(
        "bad code {}: modifier {} at position {pos} does not follow a digit",
        quote(.code), quote(&.found.to_string())
    )]
    StrayModifier {
        /// The code as typed.
        code: String,
        /// The offending character.
        found: char,
        /// Its position in the code (0-based, in characters).
        pos: usize,
    },
    /// A `[` without its `]`.
    #[error(
        "bad code {}: '[' is never closed",
        quote(.code)
    )]
    UnclosedBracket {
        /// The code as typed.
        code: String,
    },
    /// A bracket out of place (the repeat must follow the `.` and end the code).
    #[error(
        "bad code {}: {} at position {pos} is misplaced (the repeating '[…]' must come after the '.' and end the code)",
        quote(.code), quote(&.found.to_string())
    )]
    MisplacedBracket {
        /// The code as typed.
        code: String,
        /// The offending character.
        found: char,
        /// Its position in the code (0-based, in characters).
        pos: usize,
    },
    /// An empty repeating part `[]`.
    #[error(
        "bad code {}: empty repeating part '[]'",
        quote(.code)
    )]
    EmptyRepeat {
        /// The code as typed.
        code: String,
    },
    /// A code with too many digits.
    #[error(
        "bad code {}: more than {MAX_CODE_DIGITS} digits",
        quote(.code)
    )]
    TooLong {
        /// The code as typed.
        code: String,
    },
    /// A subtraction set with no elements.
    #[error(
        "bad set {}: no elements (write e.g. sub:1,3,4)",
        quote(.rule)
    )]
    EmptySet {
        /// The rule as typed.
        rule: String,
    },
    /// A set element that is no positive whole number.
    #[error(
        "bad set {}: element {} is not a positive whole number",
        quote(.rule), quote(.token)
    )]
    BadElement {
        /// The rule as typed.
        rule: String,
        /// The offending element.
        token: String,
    },
    /// A set element 0.
    #[error(
        "bad set {}: element 0 is not allowed (a move must remove tokens)",
        quote(.rule)
    )]
    ZeroElement {
        /// The rule as typed.
        rule: String,
    },
    /// A set element above the largest allowed.
    #[error(
        "bad set {}: element {} is larger than {MAX_SET_ELEMENT}",
        quote(.rule), quote(.token)
    )]
    ElementTooLarge {
        /// The rule as typed.
        rule: String,
        /// The offending element.
        token: String,
    },
    /// A word in a set that is no set name.
    #[error(
        "bad set {}: {} is not a set name (odd, even, fib, pow2, squares, primes) and not a number",
        quote(.rule), quote(.token)
    )]
    UnknownSet {
        /// The rule as typed.
        rule: String,
        /// The offending element.
        token: String,
    },
}

/// Parses one rule string (surrounding whitespace ignored; names are case-insensitive).
pub fn parse(text: &str) -> Result<Rule, RuleError> {
    let s = text.trim();
    if s.is_empty() {
        return Err(RuleError::Empty);
    }
    let lower = s.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("sub:") {
        return parse_subtraction(s, rest);
    }
    if let Some(rest) = lower.strip_prefix("allbut:") {
        let set = if rest.trim().is_empty() {
            Vec::new()
        } else {
            parse_finite_set(s, rest)?
        };
        return Ok(Rule::AllBut(set));
    }
    if let Some(game) = named::find(&lower) {
        let base = parse(game.rule).expect("named games have valid rules");
        return Ok(Rule::Named {
            game,
            base: Box::new(base),
        });
    }
    if s.contains('.') || s.starts_with(|c: char| c.is_ascii_digit()) {
        return parse_code(s).map(Rule::Code);
    }
    Err(RuleError::UnknownName(
        s.to_string(),
        named::names().join(", "),
    ))
}

fn parse_subtraction(rule: &str, rest: &str) -> Result<Rule, RuleError> {
    let r = rest.trim();
    if let Some(set) = InfiniteSet::from_name(r) {
        return Ok(Rule::Subtraction(SubtractionSet::Infinite(set)));
    }
    if r.is_empty() {
        return Err(RuleError::EmptySet {
            rule: rule.to_string(),
        });
    }
    Ok(Rule::Subtraction(SubtractionSet::Finite(parse_finite_set(
        rule, r,
    )?)))
}

fn parse_finite_set(rule: &str, rest: &str) -> Result<Vec<u64>, RuleError> {
    let mut out = Vec::new();
    for token in rest.split(',') {
        let t = token.trim();
        if t.is_empty() {
            return Err(RuleError::BadElement {
                rule: rule.to_string(),
                token: t.to_string(),
            });
        }
        if !t.bytes().all(|b| b.is_ascii_digit()) {
            if t.bytes().all(|b| b.is_ascii_alphabetic()) {
                return Err(RuleError::UnknownSet {
                    rule: rule.to_string(),
                    token: t.to_string(),
                });
            }
            return Err(RuleError::BadElement {
                rule: rule.to_string(),
                token: t.to_string(),
            });
        }
        let v: u64 = match t.parse() {
            Ok(v) if v <= MAX_SET_ELEMENT => v,
            _ => {
                return Err(RuleError::ElementTooLarge {
                    rule: rule.to_string(),
                    token: t.to_string(),
                })
            }
        };
        if v == 0 {
            return Err(RuleError::ZeroElement {
                rule: rule.to_string(),
            });
        }
        out.push(v);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

fn digit_value(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        'a'..='v' => Some(c as u8 - b'a' + 10),
        'A'..='V' => Some(c as u8 - b'A' + 10),
        _ => None,
    }
}

/// Parses a take-and-break code (see the module documentation for the notation).
///
/// Trailing zero digits of a finite code are dropped; `digits` always has at least two
/// entries (the digit before the point and one after).
pub fn parse_code(text: &str) -> Result<TakeBreak, RuleError> {
    let code = text.trim().to_string();
    let mut before: Vec<Digit> = Vec::new();
    let mut after: Vec<Digit> = Vec::new();
    let mut seen_point = false;
    let mut repeat_start: Option<usize> = None;
    let mut repeat_closed = false;
    for (pos, ch) in code.chars().enumerate() {
        let pos1 = pos + 1;
        if repeat_closed {
            return Err(RuleError::MisplacedBracket {
                code,
                found: ch,
                pos: pos1,
            });
        }
        match ch {
            '.' => {
                if seen_point {
                    return Err(RuleError::SecondPoint { code, pos: pos1 });
                }
                if repeat_start.is_some() {
                    return Err(RuleError::MisplacedBracket {
                        code,
                        found: '[',
                        pos: pos1,
                    });
                }
                seen_point = true;
            }
            '[' => {
                if !seen_point || repeat_start.is_some() {
                    return Err(RuleError::MisplacedBracket {
                        code,
                        found: ch,
                        pos: pos1,
                    });
                }
                repeat_start = Some(after.len());
            }
            ']' => match repeat_start {
                Some(start) if !repeat_closed => {
                    if after.len() == start {
                        return Err(RuleError::EmptyRepeat { code });
                    }
                    repeat_closed = true;
                }
                _ => {
                    return Err(RuleError::MisplacedBracket {
                        code,
                        found: ch,
                        pos: pos1,
                    })
                }
            },
            '!' | '?' | '=' => {
                let list = if seen_point { &mut after } else { &mut before };
                let in_bracket_start = repeat_start == Some(list.len()) && seen_point;
                match list.last_mut() {
                    Some(d) if d.constraint == Constraint::Any && !in_bracket_start => {
                        d.constraint = match ch {
                            '!' => Constraint::Unequal,
                            '?' => Constraint::NotAllEqual,
                            _ => Constraint::AllEqual,
                        };
                    }
                    _ => {
                        return Err(RuleError::StrayModifier {
                            code,
                            found: ch,
                            pos: pos1,
                        })
                    }
                }
            }
            _ => {
                let Some(v) = digit_value(ch) else {
                    return Err(RuleError::BadDigit {
                        code,
                        found: ch,
                        pos: pos1,
                    });
                };
                let d = Digit {
                    mask: v,
                    constraint: Constraint::Any,
                };
                if seen_point {
                    after.push(d);
                } else {
                    before.push(d);
                }
                if before.len() + after.len() > MAX_CODE_DIGITS {
                    return Err(RuleError::TooLong { code });
                }
            }
        }
    }
    if !seen_point {
        return Err(RuleError::NoPoint { code });
    }
    if repeat_start.is_some() && !repeat_closed {
        return Err(RuleError::UnclosedBracket { code });
    }
    if after.is_empty() {
        return Err(RuleError::NoDigitAfterPoint { code });
    }
    if before.len() > 1 {
        return Err(RuleError::AdditiveDigits { code });
    }
    let d0 = before.first().copied().unwrap_or_default();
    if d0.mask & 3 != 0 {
        return Err(RuleError::LoopyDigit {
            code,
            digit: d0.mask,
        });
    }
    let mut digits = Vec::with_capacity(after.len() + 1);
    digits.push(d0);
    digits.extend(after);
    let repeat_from = repeat_start.map(|r| r + 1);
    if repeat_from.is_none() {
        while digits.len() > 2 && digits.last().is_some_and(|d| d.mask == 0) {
            digits.pop();
        }
    }
    // A constraint on a digit that never splits into two or more heaps means nothing.
    for d in &mut digits {
        if d.mask < 4 {
            d.constraint = Constraint::Any;
        }
    }
    Ok(TakeBreak {
        digits,
        repeat_from,
    })
}

fn digit_char(v: u8) -> char {
    if v < 10 {
        (b'0' + v) as char
    } else {
        (b'A' + v - 10) as char
    }
}

fn write_digit(f: &mut fmt::Formatter<'_>, d: Digit) -> fmt::Result {
    write!(f, "{}", digit_char(d.mask))?;
    match d.constraint {
        Constraint::Any => Ok(()),
        Constraint::Unequal => write!(f, "!"),
        Constraint::NotAllEqual => write!(f, "?"),
        Constraint::AllEqual => write!(f, "="),
    }
}

/// Writes a code in the notation [`parse_code`] reads (`4!.0`, `0.[12]`).
pub fn format_code(code: &TakeBreak) -> String {
    struct W<'a>(&'a TakeBreak);
    impl fmt::Display for W<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let c = self.0;
            write_digit(f, c.digits.first().copied().unwrap_or_default())?;
            write!(f, ".")?;
            if c.digits.len() < 2 {
                return write!(f, "0");
            }
            for (i, d) in c.digits.iter().enumerate().skip(1) {
                if c.repeat_from == Some(i) {
                    write!(f, "[")?;
                }
                write_digit(f, *d)?;
            }
            if c.repeat_from.is_some() {
                write!(f, "]")?;
            }
            Ok(())
        }
    }
    W(code).to_string()
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |s: &[u64]| {
            s.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        match self {
            Rule::Code(c) => write!(f, "{}", format_code(c)),
            Rule::Subtraction(SubtractionSet::Finite(s)) => write!(f, "sub:{}", join(s)),
            Rule::Subtraction(SubtractionSet::Infinite(i)) => write!(f, "sub:{}", i.name()),
            Rule::AllBut(s) => write!(f, "allbut:{}", join(s)),
            Rule::Named { game, .. } => write!(f, "{}", game.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask_list(c: &TakeBreak) -> Vec<u8> {
        c.digits.iter().map(|d| d.mask).collect()
    }

    #[test]
    fn codes() {
        let k = parse_code("0.77").unwrap();
        assert_eq!(mask_list(&k), vec![0, 7, 7]);
        assert_eq!(parse_code(".07").unwrap(), parse_code("0.07").unwrap());
        let g = parse_code("4!.0").unwrap();
        assert_eq!(g.digits[0].constraint, Constraint::Unequal);
        assert_eq!(mask_list(&g), vec![4, 0]);
        let n = parse_code("0.[3]").unwrap();
        assert_eq!(n.repeat_from, Some(1));
        assert_eq!(n.digit(1000).mask, 3);
        let h = parse_code("0.3F").unwrap();
        assert_eq!(mask_list(&h), vec![0, 3, 15]);
        assert_eq!(parse_code("0.V").unwrap().digits[1].mask, 31);
        assert_eq!(
            parse_code("0.4!0").unwrap().digits[1].constraint,
            Constraint::Unequal
        );
        assert_eq!(parse_code("0.770").unwrap(), parse_code("0.77").unwrap());
        for s in ["0.77", "4!.0", "0.[12]", "0.3F", "4.3", "0.4=7", "0.1[37]"] {
            assert_eq!(format_code(&parse_code(s).unwrap()), s);
        }
    }

    #[test]
    fn malformed() {
        for bad in [
            "0.W", "0.7.7", "4!.", "0.[", "0.[]", "0.[3]7", "!0.7", "44.7", "1.7", "77", "0.[3!]]",
            "0.!7",
        ] {
            let e = parse(bad);
            assert!(e.is_err(), "{bad} accepted: {e:?}");
            assert!(!e.unwrap_err().to_string().contains('\n'));
        }
        for bad in [
            "sub:",
            "sub:0",
            "sub:1,,2",
            "sub:-1",
            "sub:foo",
            "allbut:0",
            "nosuchgame",
            "",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert!(matches!(
            parse("0.W"),
            Err(RuleError::BadDigit {
                found: 'W',
                pos: 3,
                ..
            })
        ));
    }

    #[test]
    fn sets() {
        assert_eq!(
            parse("sub:4,1,3,1").unwrap(),
            Rule::Subtraction(SubtractionSet::Finite(vec![1, 3, 4]))
        );
        assert_eq!(
            parse("SUB:Primes").unwrap(),
            Rule::Subtraction(SubtractionSet::Infinite(InfiniteSet::Primes))
        );
        assert_eq!(parse("allbut:2,1").unwrap(), Rule::AllBut(vec![1, 2]));
        let c = parse("sub:2,3,7").unwrap().take_break().unwrap();
        assert_eq!(format_code(&c), "0.0330003");
        let a = parse("allbut:2,3,7").unwrap().take_break().unwrap();
        assert_eq!(format_code(&a), "0.3003330[3]");
        assert_eq!(InfiniteSet::Fib.members_upto(13), vec![1, 2, 3, 5, 8, 13]);
        assert_eq!(InfiniteSet::Primes.members_upto(12), vec![2, 3, 5, 7, 11]);
        for s in 1..200 {
            assert_eq!(
                InfiniteSet::Squares.contains(s),
                InfiniteSet::Squares.members_upto(200).contains(&s)
            );
            assert_eq!(
                InfiniteSet::Fib.contains(s),
                InfiniteSet::Fib.members_upto(200).contains(&s)
            );
            assert_eq!(
                InfiniteSet::Primes.contains(s),
                InfiniteSet::Primes.members_upto(200).contains(&s)
            );
        }
    }
}
