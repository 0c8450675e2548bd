//! Numbers as users type them: `1000000`, `1_000_000`, `1e6`, `2^30`, `10**6`.
//!
//! ```
//! use grundy::input::parse_count;
//! assert_eq!(parse_count("2^30").unwrap(), 1 << 30);
//! assert_eq!(parse_count("1e6").unwrap(), 1_000_000);
//! assert_eq!(parse_count("1_000_000").unwrap(), 1_000_000);
//! assert!(parse_count("-3").is_err());
//! assert!(parse_count("2^64").is_err());
//! ```

/// Why a count was refused; the message quotes the token (escaped, so a control character
/// cannot break a one-line error).
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

use grundy_core::count::{syntax, Syntax, SyntaxError};
use grundy_core::text::quote;

impl From<SyntaxError> for CountError {
    fn from(e: SyntaxError) -> Self {
        match e {
            SyntaxError::NotANumber(t) => CountError::NotANumber(t),
            SyntaxError::Negative(t) => CountError::Negative(t),
        }
    }
}

/// Parses a non-negative count of at most 2^64 − 1 in the library's one grammar
/// ([`grundy_core::count`]): decimal digits with optional `_` separators, `AeB` (A·10^B, A a
/// whole number), `A^B` or `A**B` (a power). Counts of any size (a Fibonacci pile, a Wythoff
/// coordinate) are read by [`crate::games::parse_count`] in the same grammar.
pub fn parse_count(text: &str) -> Result<u64, CountError> {
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
    fn forms() {
        assert_eq!(parse_count("0"), Ok(0));
        assert_eq!(parse_count(" 42 "), Ok(42));
        assert_eq!(parse_count("10**6"), Ok(1_000_000));
        assert_eq!(parse_count("3e2"), Ok(300));
        assert_eq!(parse_count("2^63"), Ok(1 << 63));
        assert_eq!(parse_count("18446744073709551615"), Ok(u64::MAX));
        for t in [
            "", "ten", "1.5", "1e", "^3", "2^", "1__", "_1", "0x10", "1e-3",
        ] {
            assert!(parse_count(t).is_err(), "{t}");
        }
        assert!(matches!(parse_count("2^64"), Err(CountError::TooLarge(_))));
        assert!(matches!(
            parse_count("99999999999999999999"),
            Err(CountError::TooLarge(_))
        ));
        assert!(matches!(parse_count("-1"), Err(CountError::Negative(_))));
        assert_eq!(
            parse_count("a\nb").unwrap_err().to_string().lines().count(),
            1
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,12}") {
            let _ = parse_count(&s);
        }

        #[test]
        fn decimal_round_trip(n: u64) {
            proptest::prop_assert_eq!(parse_count(&n.to_string()), Ok(n));
        }
    }
}
