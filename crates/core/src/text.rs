//! Small text helpers shared by error messages and JSON output.
//!
//! Every error names the offending token, and every error is one line: a token typed or read
//! from a file may hold a newline, a tab or a terminal control byte, which would break the line
//! or garble the terminal if echoed raw. [`quote`] writes it escaped the way Rust's
//! `escape_debug` does (`\n`, `\t`, `\u{1b}`, …), between single quotes, shortened if very long.
//!
//! The JSON rule "any integer that may exceed 2^53 is written as a string" is kept by the
//! serde helpers [`json_u64`] and [`json_u64_seq`].

/// Characters of an escaped token kept by [`quote`] before it is cut with `…`.
pub const QUOTE_MAX_CHARS: usize = 200;

/// `token` escaped with Rust's `escape_debug` (so a newline becomes `\n` and a control byte
/// `\u{..}`) and wrapped in single quotes, for a one-line error message. An escaped token
/// longer than [`QUOTE_MAX_CHARS`] characters is cut there and ends with `…`.
///
/// ```
/// use grundy_core::text::quote;
/// assert_eq!(quote("abc"), "'abc'");
/// assert_eq!(quote("a\nb\u{1b}"), "'a\\nb\\u{1b}'");
/// assert_eq!(quote(&"x".repeat(1000)).chars().count(), 2 + 200 + 1);
/// ```
pub fn quote(token: &str) -> String {
    let mut s = String::with_capacity(token.len().min(QUOTE_MAX_CHARS) + 4);
    s.push('\'');
    s.push_str(&escape(token));
    s.push('\'');
    s
}

/// `token` escaped as by [`quote`] (and cut at [`QUOTE_MAX_CHARS`] characters with `…`), but
/// without the quotes: for names listed inside a message, such as the vertices of a cycle.
///
/// ```
/// assert_eq!(grundy_core::text::escape("a\tb"), "a\\tb");
/// ```
pub fn escape(token: &str) -> String {
    let mut s = String::new();
    for (n, c) in token.escape_debug().enumerate() {
        if n == QUOTE_MAX_CHARS {
            s.push('…');
            break;
        }
        s.push(c);
    }
    s
}

/// The largest integer written as a JSON number: 2^53 (every integer up to it is exact in an
/// IEEE double, which is what most JSON readers use).
pub const JSON_MAX_EXACT: u64 = 1 << 53;

/// An integer for JSON: a number up to 2^53, a decimal string above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonU64(pub u64);

impl serde::Serialize for JsonU64 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 <= JSON_MAX_EXACT {
            s.serialize_u64(self.0)
        } else {
            s.collect_str(&self.0)
        }
    }
}

/// `#[serde(serialize_with = "grundy_core::text::json_u64")]` for a `u64` field: a number up
/// to 2^53, a decimal string above.
pub fn json_u64<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&JsonU64(*v), s)
}

/// `#[serde(serialize_with = "grundy_core::text::json_u64_seq")]` for a `Vec<u64>` field: each
/// element written as by [`json_u64`].
pub fn json_u64_seq<S: serde::Serializer>(v: &[u64], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|&x| JsonU64(x)))
}

/// `#[serde(serialize_with = "grundy_core::text::json_u128_str")]` for a `u128` field that is
/// always a decimal string (nimbers reach 2^128; one type per field is simpler to read).
pub fn json_u128_str<S: serde::Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// `#[serde(serialize_with = "grundy_core::text::json_u128_str_seq")]`: a list of decimal
/// strings.
pub fn json_u128_str_seq<S: serde::Serializer>(v: &[u128], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|x| x.to_string()))
}
