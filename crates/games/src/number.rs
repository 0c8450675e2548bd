//! Whole numbers of any size from user text, with one-line errors that name the token.

use crate::error::{GameError, Result};
use dashu::base::BitTest;
use dashu::integer::UBig;
use grundy_core::count::{Syntax, SyntaxError};
use grundy_core::text::quote;

/// The most decimal digits accepted (a 100 000-digit pile is already far past any use).
pub const MAX_DIGITS: usize = 100_000;

/// Parses a count of any size in the library's one grammar ([`grundy_core::count`]): a
/// decimal integer with optional `_` separators (`1_000`), a power `B^E` or `B**E` (`2^100`)
/// or a decimal power `AeE` (`1e30`, `3e5`); `what` names it in errors. A negative number and
/// a fraction (`1.5e1`) are refused. The value may have at most [`MAX_DIGITS`] digits,
/// checked before a power is computed.
pub fn parse_count(text: &str, what: &str) -> Result<UBig> {
    let t = text.trim();
    let syntax = grundy_core::count::syntax(t).map_err(|e| match e {
        SyntaxError::Negative(_) => GameError::Invalid(format!("negative {what} {}", quote(t))),
        SyntaxError::NotANumber(_) => {
            GameError::Invalid(format!("{what} is not a whole number: {}", quote(t)))
        }
    })?;
    let too_large = || {
        GameError::TooLarge(format!(
            "{what} {} has more than {MAX_DIGITS} digits",
            quote(t)
        ))
    };
    let int = |digits: &str| -> Result<UBig> {
        if digits.len() > MAX_DIGITS {
            return Err(too_large());
        }
        Ok(digits
            .parse::<UBig>()
            .expect("the grammar gives decimal digits"))
    };
    let (scale, pow_base, exp) = match syntax {
        Syntax::Decimal(d) => return int(&d),
        Syntax::Power { base, exp } => (UBig::ONE, int(&base)?, int(&exp)?),
        Syntax::Scientific { mantissa, exp } => (int(&mantissa)?, UBig::from(10u8), int(&exp)?),
    };
    if scale.is_zero() || pow_base <= UBig::ONE {
        // 0·10^E, 0^E and 1^E: no digits to count, whatever E's size.
        return Ok(
            if scale.is_zero() || (pow_base.is_zero() && !exp.is_zero()) {
                UBig::ZERO
            } else {
                scale
            },
        );
    }
    let e = usize::try_from(&exp).map_err(|_| too_large())?;
    // Digits of the result, from above: e·log10(base) (+ the digits of A for AeE).
    let log10 = (pow_base.bit_len() as f64) * std::f64::consts::LOG10_2;
    let digits = (e as f64) * log10.max(0.3) + scale.to_string().len() as f64;
    if digits > MAX_DIGITS as f64 + 1.0 {
        return Err(too_large());
    }
    let v = scale * pow_base.pow(e);
    if v.to_string().len() > MAX_DIGITS {
        return Err(too_large());
    }
    Ok(v)
}

/// Parses a count ([`parse_count`]'s grammar) that must fit `u64` and lie in `lo..=hi`.
pub fn parse_bounded(text: &str, what: &str, lo: u64, hi: u64) -> Result<u64> {
    let n = parse_count(text, what)?;
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
        assert!(parse_count("-3", "pile")
            .unwrap_err()
            .to_string()
            .contains("negative pile '-3'"));
        assert!(parse_count("abc", "pile")
            .unwrap_err()
            .to_string()
            .contains("'abc'"));
        assert!(parse_count("", "pile").is_err());
        // Fractions are refused, even where the value would be whole.
        assert!(parse_count("1.5e1", "pile").is_err());
        assert!(parse_count("_1", "pile").is_err());
        assert_eq!(parse_count("2^100", "pile").unwrap(), UBig::ONE << 100);
        assert_eq!(parse_count("10**3", "pile").unwrap(), UBig::from(1000u32));
        assert_eq!(
            parse_count("1^99999999999999999999", "pile").unwrap(),
            UBig::ONE
        );
        assert_eq!(
            parse_count("0e99999999999999999999", "pile").unwrap(),
            UBig::ZERO
        );
        // Every bounded size takes the same forms.
        assert_eq!(parse_bounded("1e1", "rows", 1, 64).unwrap(), 10);
        assert_eq!(parse_bounded("2^6", "rows", 1, 64).unwrap(), 64);
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
