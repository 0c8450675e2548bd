//! Whole numbers of any size from user text, with one-line errors that name the token.

use crate::error::{GameError, Result};
use dashu::base::BitTest;
use dashu::integer::UBig;
use grundy_core::text::quote;

/// The most decimal digits accepted (a 100 000-digit pile is already far past any use).
pub const MAX_DIGITS: usize = 100_000;

/// Parses a non-negative decimal integer of any size; `what` names it in errors
/// ("pile", "heap", …). Accepts surrounding spaces and `_` separators.
pub fn parse_natural(text: &str, what: &str) -> Result<UBig> {
    let t = text.trim();
    let digits: String = t.chars().filter(|&c| c != '_').collect();
    if let Some(rest) = digits.strip_prefix('-') {
        if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
            return Err(GameError::Invalid(format!("negative {what} {}", quote(t))));
        }
    }
    let digits = digits.strip_prefix('+').unwrap_or(&digits);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(GameError::Invalid(format!(
            "{what} is not a whole number: {}",
            quote(t)
        )));
    }
    if digits.len() > MAX_DIGITS {
        return Err(GameError::TooLarge(format!(
            "{what} has {} digits (at most {MAX_DIGITS})",
            digits.len()
        )));
    }
    digits
        .parse::<UBig>()
        .map_err(|_| GameError::Invalid(format!("{what} is not a whole number: {}", quote(t))))
}

/// Parses a count of any size in the catalogue's number grammar: a decimal integer with
/// optional `_` separators (`1_000`), a power `B^E` (`2^100`) or a decimal power `AeE`
/// (`1e30`, `3e5`); `what` names it in errors. The value may have at most [`MAX_DIGITS`]
/// digits, checked before a power is computed.
pub fn parse_count(text: &str, what: &str) -> Result<UBig> {
    let t = text.trim();
    let (base, exp, decimal) = if let Some((b, e)) = t.split_once('^') {
        (b, e, false)
    } else if let Some((a, e)) = t.split_once(['e', 'E']) {
        (a, e, true)
    } else {
        return parse_natural(t, what);
    };
    let bad = || GameError::Invalid(format!("{what} is not a whole number: {}", quote(t)));
    let digits_ok = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '_');
    if !digits_ok(base.trim()) || !digits_ok(exp.trim()) {
        return Err(bad());
    }
    let b = parse_natural(base, what)?;
    let e = parse_natural(exp, what)?;
    let too_large = || {
        GameError::TooLarge(format!(
            "{what} {} has more than {MAX_DIGITS} digits",
            quote(t)
        ))
    };
    let e = usize::try_from(&e).map_err(|_| too_large())?;
    // Digits of the result, from above: e·log10(base) (+ the digits of A for AeE).
    let (scale, pow_base) = if decimal {
        (b.clone(), UBig::from(10u8))
    } else {
        (UBig::ONE, b.clone())
    };
    if pow_base > UBig::ONE && !scale.is_zero() {
        let log10 = (pow_base.bit_len() as f64) * std::f64::consts::LOG10_2;
        let digits = (e as f64) * log10.max(0.3) + scale.to_string().len() as f64;
        if digits > MAX_DIGITS as f64 + 1.0 {
            return Err(too_large());
        }
    }
    let v = scale * pow_base.pow(e);
    if v.to_string().len() > MAX_DIGITS {
        return Err(too_large());
    }
    Ok(v)
}

/// Parses a non-negative integer that must fit `u64` and lie in `lo..=hi`.
pub fn parse_bounded(text: &str, what: &str, lo: u64, hi: u64) -> Result<u64> {
    let n = parse_natural(text, what)?;
    match u64::try_from(&n) {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(GameError::Invalid(format!(
            "{what} {} out of range {lo}..={hi}",
            quote(text.trim())
        ))),
    }
}

/// Serializers for [`UBig`] fields of the result structs: every `UBig` becomes a decimal
/// string (a pile or a heap may be far beyond 2^53, where a JSON number loses digits), so a
/// field has one JSON type whatever its size. Machine integers (`u32`, `u64`, `usize`) stay
/// numbers.
pub mod big_json {
    use dashu::integer::UBig;
    use serde::ser::{SerializeSeq, Serializer};

    /// One `UBig` as a decimal string.
    pub fn one<S: Serializer>(v: &UBig, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    /// An optional `UBig` as a decimal string or `null`.
    pub fn opt<S: Serializer>(v: &Option<UBig>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    /// A list of `UBig`s as a list of decimal strings.
    pub fn seq<S: Serializer>(v: &[UBig], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for x in v {
            seq.serialize_element(&x.to_string())?;
        }
        seq.end()
    }

    /// A pair of `UBig`s as a two-element list of decimal strings.
    pub fn pair<S: Serializer>(v: &(UBig, UBig), s: S) -> Result<S::Ok, S::Error> {
        seq(&[v.0.clone(), v.1.clone()], s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(parse_natural("1_000", "pile").unwrap(), UBig::from(1000u32));
        assert!(parse_natural("-3", "pile")
            .unwrap_err()
            .to_string()
            .contains("negative pile '-3'"));
        assert!(parse_natural("abc", "pile")
            .unwrap_err()
            .to_string()
            .contains("'abc'"));
        assert!(parse_natural("", "pile").is_err());
        assert!(parse_natural("1e5", "pile").is_err());
        assert_eq!(parse_bounded("64", "rows", 1, 64).unwrap(), 64);
        assert!(parse_bounded("70", "rows", 1, 64).is_err());
        assert!(parse_bounded("0", "rows", 1, 64)
            .unwrap_err()
            .to_string()
            .contains("'0'"));
        assert!(parse_bounded("99999999999999999999999", "rows", 1, 64).is_err());
        assert_eq!(parse_count("2^10", "pile").unwrap(), UBig::from(1024u32));
        assert_eq!(parse_count("3e5", "pile").unwrap(), UBig::from(300_000u32));
        assert_eq!(parse_count("1_000", "pile").unwrap(), UBig::from(1000u32));
        assert_eq!(parse_count("1e30", "pile").unwrap().to_string().len(), 31);
        assert!(parse_count("2^-1", "pile").is_err());
        assert!(parse_count("e5", "pile").is_err());
        assert!(matches!(
            parse_count("10^200000", "pile"),
            Err(GameError::TooLarge(_))
        ));
        assert!(matches!(
            parse_count("2^999999999999", "pile"),
            Err(GameError::TooLarge(_))
        ));
    }
}
