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

pub use grundy_core::count::CountError;

/// Parses a non-negative count of at most 2^64 − 1 in the library's one grammar
/// ([`grundy_core::count`]): decimal digits with optional `_` separators, `AeB` (A·10^B, A a
/// whole number), `A^B` or `A**B` (a power). Counts of any size (a Fibonacci pile, a Wythoff
/// coordinate) are read by [`crate::games::parse_count`] in the same grammar.
pub use grundy_core::count::parse_u64 as parse_count;

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
