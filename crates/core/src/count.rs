//! The one grammar of the counts users type, read by every count parser of the library.
//!
//! A count is a whole number written in one of these forms:
//! - decimal digits with `_` between them: `1000`, `1_000_000`, an optional leading `+`;
//! - a power `B^E` or `B**E`: `2^30`, `2^100`, `10**6`;
//! - a decimal power `AeE` (or `AEE`), A·10^E with A a whole number: `1e6`, `3e5`, `1e30`.
//!
//! A minus sign is refused as a negative number; a fraction is refused even where its value
//! would be whole (`1.5`, `1.5e1`, `1e-3`): the mantissa and every exponent are whole numbers.
//! This module reads the form only ([`syntax`]); the value is computed by the caller in the
//! width it needs (`u64` in the facade's `grundy::input::parse_count`, any size in
//! `grundy_games::parse_count`), which also says when it is too large.
//!
//! ```
//! use grundy_core::count::{syntax, Syntax};
//!
//! assert_eq!(syntax("1_000").unwrap(), Syntax::Decimal("1000".into()));
//! assert_eq!(
//!     syntax("2^100").unwrap(),
//!     Syntax::Power { base: "2".into(), exp: "100".into() }
//! );
//! assert_eq!(
//!     syntax("1e30").unwrap(),
//!     Syntax::Scientific { mantissa: "1".into(), exp: "30".into() }
//! );
//! assert!(syntax("-3").is_err());
//! assert!(syntax("1.5e1").is_err());
//! ```

use crate::text::quote;

/// A count's form, its digit strings without `_` or `+`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Decimal digits.
    Decimal(String),
    /// `base^exp` (or `base**exp`).
    Power {
        /// The base's digits.
        base: String,
        /// The exponent's digits.
        exp: String,
    },
    /// `mantissa·10^exp`, written `mantissa` `e` `exp`.
    Scientific {
        /// The mantissa's digits.
        mantissa: String,
        /// The exponent's digits.
        exp: String,
    },
}

/// Why a text is not a count; the message quotes the token (escaped: one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// Not a whole number in any accepted form (a fraction among them).
    #[error("{0} is not a whole number (write e.g. 1000000, 1_000_000, 1e6 or 2^20)")]
    NotANumber(String),
    /// A minus sign.
    #[error("negative number {0}")]
    Negative(String),
}

/// Reads the form of the count `text` (surrounding spaces allowed).
pub fn syntax(text: &str) -> Result<Syntax, SyntaxError> {
    let s = text.trim();
    if s.starts_with('-') {
        return Err(SyntaxError::Negative(quote(text)));
    }
    let bad = || SyntaxError::NotANumber(quote(text));
    let digits = |t: &str| -> Result<String, SyntaxError> {
        let t = t.strip_prefix('+').unwrap_or(t);
        if t.is_empty()
            || t.starts_with('_')
            || t.ends_with('_')
            || !t.bytes().all(|b| b.is_ascii_digit() || b == b'_')
        {
            return Err(bad());
        }
        Ok(t.chars().filter(|&c| c != '_').collect())
    };
    if let Some((b, e)) = s.split_once("**").or_else(|| s.split_once('^')) {
        if e.starts_with('-') {
            return Err(bad());
        }
        return Ok(Syntax::Power {
            base: digits(b)?,
            exp: digits(e)?,
        });
    }
    if let Some((a, e)) = s.split_once(['e', 'E']) {
        return Ok(Syntax::Scientific {
            mantissa: digits(a)?,
            exp: digits(e)?,
        });
    }
    Ok(Syntax::Decimal(digits(s)?))
}

/// Why a count was refused as a `u64`; the message quotes the token (escaped, so a control
/// character cannot break a one-line error).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// Not a whole number in any accepted form.
    #[error("{0} is not a whole number (write e.g. 1000000, 1_000_000, 1e6 or 2^20)")]
    NotANumber(String),
    /// A minus sign.
    #[error("negative number {0}")]
    Negative(String),
    /// Larger than 2^64 − 1.
    #[error("{0} is too large")]
    TooLarge(String),
}

impl From<SyntaxError> for CountError {
    fn from(e: SyntaxError) -> Self {
        match e {
            SyntaxError::NotANumber(t) => CountError::NotANumber(t),
            SyntaxError::Negative(t) => CountError::Negative(t),
        }
    }
}

/// Reads a count of at most 2^64 − 1 in this grammar: the one `u64` count parser of the
/// library (re-exported as `grundy::input::parse_count`).
pub fn parse_u64(text: &str) -> Result<u64, CountError> {
    let big = || CountError::TooLarge(quote(text));
    let int = |digits: &str| digits.parse::<u64>().map_err(|_| big());
    let pow = |base: u64, exp: &str| -> Result<u64, CountError> {
        // A base of 0 or 1 has a value whatever the exponent's size.
        match base {
            0 | 1 if exp.bytes().any(|b| b != b'0') => Ok(base),
            _ => {
                let exp = u32::try_from(int(exp)?).map_err(|_| big())?;
                base.checked_pow(exp).ok_or_else(big)
            }
        }
    };
    match syntax(text)? {
        Syntax::Decimal(d) => int(&d),
        Syntax::Power { base, exp } => pow(int(&base)?, &exp),
        Syntax::Scientific { mantissa, exp } => {
            let m = int(&mantissa)?;
            if m == 0 {
                return Ok(0);
            }
            m.checked_mul(pow(10, &exp)?).ok_or_else(big)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_refusals() {
        assert_eq!(syntax(" +42 ").unwrap(), Syntax::Decimal("42".into()));
        assert_eq!(
            syntax("10**6").unwrap(),
            Syntax::Power {
                base: "10".into(),
                exp: "6".into()
            }
        );
        assert_eq!(
            syntax("3E5").unwrap(),
            Syntax::Scientific {
                mantissa: "3".into(),
                exp: "5".into()
            }
        );
        for t in [
            "", "ten", "1.5", "1.5e1", "1e", "^3", "2^", "1__", "_1", "0x10", "1e-3", "2^-1", "1e+",
        ] {
            assert!(matches!(syntax(t), Err(SyntaxError::NotANumber(_))), "{t}");
        }
        assert!(matches!(syntax("-1"), Err(SyntaxError::Negative(_))));
        assert!(matches!(syntax(" -1e6"), Err(SyntaxError::Negative(_))));
        assert_eq!(syntax("a\nb").unwrap_err().to_string().lines().count(), 1);
    }
}
