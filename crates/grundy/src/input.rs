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

use grundy_core::text::quote;

/// Parses a non-negative count: decimal digits with optional `_` separators, `AeB`
/// (A·10^B, A a whole number), `A^B` or `A**B` (a power).
pub fn parse_count(text: &str) -> Result<u64, CountError> {
    let s = text.trim();
    let bad = || CountError::NotANumber(quote(text));
    let big = || CountError::TooLarge(quote(text));
    if s.starts_with('-') {
        return Err(CountError::Negative(quote(text)));
    }
    let plain = |t: &str| -> Result<u64, CountError> {
        let t = t.strip_prefix('+').unwrap_or(t);
        if t.is_empty()
            || t.starts_with('_')
            || t.ends_with('_')
            || !t.bytes().all(|b| b.is_ascii_digit() || b == b'_')
        {
            return Err(bad());
        }
        let digits: String = t.chars().filter(|&c| c != '_').collect();
        digits.parse::<u64>().map_err(|_| big())
    };
    let pow = |base: u64, exp: u64| -> Result<u64, CountError> {
        let exp = u32::try_from(exp).map_err(|_| big())?;
        base.checked_pow(exp).ok_or_else(big)
    };
    if let Some((a, b)) = s.split_once("**").or_else(|| s.split_once('^')) {
        return pow(plain(a)?, plain(b)?);
    }
    if let Some((a, b)) = s.split_once(['e', 'E']) {
        return plain(a)?.checked_mul(pow(10, plain(b)?)?).ok_or_else(big);
    }
    plain(s)
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
