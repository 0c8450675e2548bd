//! JSON integers that stay exact: a `u64` is written as a JSON number when it is at most
//! 2^53 (every such integer is exact in an IEEE double, which is what most JSON readers
//! parse numbers into), and as a decimal string otherwise.
//!
//! The project's JSON rule is "any integer that may exceed 2^53 is serialized as a string";
//! `grundy_core::text` implements it once, and this module names it for heap sizes
//! (`grundy_heap::json_int`, or `grundy::heap::json_int` through the facade). Use it with
//! serde's field attribute:
//!
//! ```
//! #[derive(serde::Serialize)]
//! struct Heap {
//!     #[serde(serialize_with = "grundy_heap::json_int::serialize")]
//!     size: u64,
//!     #[serde(serialize_with = "grundy_heap::json_int::seq")]
//!     parts: Vec<u64>,
//! }
//! let h = Heap { size: 1 << 60, parts: vec![7, 1 << 53, (1 << 53) + 1] };
//! assert_eq!(
//!     serde_json::to_string(&h).unwrap(),
//!     r#"{"size":"1152921504606846976","parts":[7,9007199254740992,"9007199254740993"]}"#
//! );
//! ```

use serde::Serializer;

/// The largest integer written as a JSON number: 2^53 (core's rule, the one place it lives).
pub use grundy_core::text::JSON_MAX_EXACT as MAX_EXACT;

/// A `u64` that serializes as a number up to [`MAX_EXACT`] and as a string beyond; handy
/// inside hand-built values (`Int(h)`) or as a field type. It is core's
/// [`JsonU64`](grundy_core::text::JsonU64) under the name this module's users know.
pub use grundy_core::text::JsonU64 as Int;

/// `#[serde(serialize_with = "json_int::serialize")]` for a `u64` field.
pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    grundy_core::text::json_u64(v, s)
}

/// `#[serde(serialize_with = "json_int::seq")]` for a `Vec<u64>` (or `[u64]`) field: a JSON
/// array whose elements follow [`serialize`].
pub fn seq<S: Serializer>(v: &[u64], s: S) -> Result<S::Ok, S::Error> {
    grundy_core::text::json_u64_seq(v, s)
}

/// `#[serde(serialize_with = "json_int::option")]` for an `Option<u64>` field: `null` or
/// as [`serialize`].
pub fn option<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => s.serialize_some(&Int(*x)),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_then_strings() {
        let j = |x: u64| serde_json::to_string(&Int(x)).unwrap();
        assert_eq!(j(0), "0");
        assert_eq!(j(MAX_EXACT), "9007199254740992");
        assert_eq!(j(MAX_EXACT + 1), "\"9007199254740993\"");
        assert_eq!(j(u64::MAX), "\"18446744073709551615\"");
    }
}
