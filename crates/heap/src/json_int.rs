//! JSON integers that stay exact: a `u64` is written as a JSON number when it is at most
//! 2^53 (every such integer is exact in an IEEE double, which is what most JSON readers
//! parse numbers into), and as a decimal string otherwise.
//!
//! The project's JSON rule is "any integer that may exceed 2^53 is serialized as a string";
//! this module is the one place that implements it for heap sizes, reusable by any crate
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

use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;

/// The largest integer written as a JSON number: 2^53.
pub const MAX_EXACT: u64 = 1 << 53;

/// A `u64` that serializes as a number up to [`MAX_EXACT`] and as a string beyond; handy
/// inside hand-built values (`Int(h)`) or as a field type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Int(pub u64);

impl Serialize for Int {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 <= MAX_EXACT {
            s.serialize_u64(self.0)
        } else {
            s.collect_str(&self.0)
        }
    }
}

/// `#[serde(serialize_with = "json_int::serialize")]` for a `u64` field.
pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    Int(*v).serialize(s)
}

/// `#[serde(serialize_with = "json_int::seq")]` for a `Vec<u64>` (or `[u64]`) field: a JSON
/// array whose elements follow [`serialize`].
pub fn seq<S: Serializer>(v: &[u64], s: S) -> Result<S::Ok, S::Error> {
    let mut out = s.serialize_seq(Some(v.len()))?;
    for &x in v {
        out.serialize_element(&Int(x))?;
    }
    out.end()
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
