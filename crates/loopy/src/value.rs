//! Smith's generalized Sprague–Grundy values, their outcomes and their sums.
//!
//! A position of a loopy game has either a finite value `m` (it behaves like a nim heap of `m`)
//! or the value `∞(K)`, where `K` is the set of finite values among its options: play from it
//! may never end. The outcome follows from the value alone:
//!
//! | value | outcome |
//! |---|---|
//! | `0` | `P`: the player to move loses |
//! | `m > 0` | `N`: the player to move wins (move to a 0) |
//! | `∞(K)`, `0 ∈ K` | `N`: move to the option of value 0 |
//! | `∞(K)`, `0 ∉ K` | `D`: a draw, neither player can force a win |
//!
//! Sums follow Smith's rule (C. A. B. Smith, "Graphs and composite games", JCT 1 (1966)):
//! `m + n = m ⊕ n`, `∞(K) + n = ∞(K ⊕ n)` and `∞(K) + ∞(L) = ∞(∅)`.
//!
//! ```
//! use grundy_loopy::{LoopyOutcome, Value};
//!
//! let d = Value::infinite([1, 3]);
//! assert_eq!(d.to_string(), "∞(1,3)");
//! assert_eq!(d.outcome(), LoopyOutcome::D);
//! // Beside a heap of 1 it becomes ∞(0,2): the player to move wins.
//! let s = d.clone() + Value::Finite(1);
//! assert_eq!(s, Value::infinite([0, 2]));
//! assert_eq!(s.outcome(), LoopyOutcome::N);
//! // Two infinite values add to ∞: a draw.
//! assert_eq!((d.clone() + d).to_string(), "∞");
//! assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"infinite":[0,2]}"#);
//! ```

use std::collections::BTreeSet;
use std::fmt;

use grundy_core::text::JsonU64;
use grundy_core::Outcome;

/// A generalized Sprague–Grundy value: finite `m`, or `∞(K)` with `K` the finite values among
/// the position's options (kept sorted).
///
/// Displays as the number, `∞(0,2)`, or `∞` for an empty `K`. Serializes as an integer (a
/// decimal string beyond 2^53, the project's JSON rule) or `{"infinite": [0, 2]}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// A finite value: the position is equivalent to a nim heap of this size.
    Finite(u64),
    /// An infinite value `∞(K)`: `K` holds the finite values of the position's options.
    Infinite(BTreeSet<u64>),
}

impl Value {
    /// `∞(K)` from any list of finite values (sorted and deduplicated here).
    pub fn infinite(k: impl IntoIterator<Item = u64>) -> Value {
        Value::Infinite(k.into_iter().collect())
    }

    /// True for a finite value.
    pub fn is_finite(&self) -> bool {
        matches!(self, Value::Finite(_))
    }

    /// The finite value, or `None` for `∞(K)`.
    pub fn finite(&self) -> Option<u64> {
        match self {
            Value::Finite(m) => Some(*m),
            Value::Infinite(_) => None,
        }
    }

    /// Who wins from a position of this value (see the module docs).
    pub fn outcome(&self) -> LoopyOutcome {
        match self {
            Value::Finite(0) => LoopyOutcome::P,
            Value::Finite(_) => LoopyOutcome::N,
            Value::Infinite(k) if k.contains(&0) => LoopyOutcome::N,
            Value::Infinite(_) => LoopyOutcome::D,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Finite(m) => write!(f, "{m}"),
            Value::Infinite(k) if k.is_empty() => f.write_str("∞"),
            Value::Infinite(k) => {
                f.write_str("∞(")?;
                for (i, m) in k.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{m}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Smith's sum rule: the value of two games played side by side (nim addition, XOR, of the
/// finite parts: the rule's `+` is the games' sum, not integer addition).
#[allow(clippy::suspicious_arithmetic_impl)]
impl std::ops::Add for Value {
    type Output = Value;
    fn add(self, other: Value) -> Value {
        match (self, other) {
            (Value::Finite(m), Value::Finite(n)) => Value::Finite(m ^ n),
            (Value::Infinite(k), Value::Finite(n)) | (Value::Finite(n), Value::Infinite(k)) => {
                Value::Infinite(k.into_iter().map(|x| x ^ n).collect())
            }
            (Value::Infinite(_), Value::Infinite(_)) => Value::Infinite(BTreeSet::new()),
        }
    }
}

/// Smith's sum rule on borrowed values.
#[allow(clippy::suspicious_arithmetic_impl)]
impl std::ops::Add<&Value> for &Value {
    type Output = Value;
    fn add(self, other: &Value) -> Value {
        match (self, other) {
            (Value::Finite(m), Value::Finite(n)) => Value::Finite(m ^ n),
            (Value::Infinite(k), Value::Finite(n)) | (Value::Finite(n), Value::Infinite(k)) => {
                Value::Infinite(k.iter().map(|x| x ^ n).collect())
            }
            (Value::Infinite(_), Value::Infinite(_)) => Value::Infinite(BTreeSet::new()),
        }
    }
}

/// The value of any number of games side by side (0 for none), by Smith's rule.
impl std::iter::Sum for Value {
    fn sum<I: Iterator<Item = Value>>(iter: I) -> Value {
        iter.fold(Value::Finite(0), |a, b| a + b)
    }
}

impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Value::Finite(m) => JsonU64(*m).serialize(s),
            Value::Infinite(k) => {
                let mut map = s.serialize_map(Some(1))?;
                let k: Vec<JsonU64> = k.iter().map(|&m| JsonU64(m)).collect();
                map.serialize_entry("infinite", &k)?;
                map.end()
            }
        }
    }
}

/// A finite value as JSON: a number or a decimal string.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum JsonNumber {
    Number(u64),
    Text(String),
}

impl JsonNumber {
    fn get<E: serde::de::Error>(self) -> Result<u64, E> {
        match self {
            JsonNumber::Number(m) => Ok(m),
            JsonNumber::Text(t) => t
                .parse()
                .map_err(|_| E::custom(format!("not a value: {}", grundy_core::text::quote(&t)))),
        }
    }
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum JsonValue {
    Finite(JsonNumber),
    Infinite { infinite: Vec<JsonNumber> },
}

/// Reads what [`Value`]'s `Serialize` writes: an integer (or decimal string), or
/// `{"infinite": [...]}`.
impl<'de> serde::Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        match JsonValue::deserialize(d)? {
            JsonValue::Finite(m) => Ok(Value::Finite(m.get()?)),
            JsonValue::Infinite { infinite } => infinite
                .into_iter()
                .map(JsonNumber::get)
                .collect::<Result<BTreeSet<u64>, D::Error>>()
                .map(Value::Infinite),
        }
    }
}

/// The outcome of a position of a game that may be drawn: `P`, `N` or `D`.
///
/// Serializes as `"P"`, `"N"` or `"D"`, the project's JSON vocabulary (`"D"` only arises in
/// games that can be drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum LoopyOutcome {
    /// The previous player wins: the player to move loses, however long play lasts.
    P,
    /// The next player (the one to move) wins.
    N,
    /// A draw: neither player can force a win, and with best play the game never ends.
    D,
}

impl LoopyOutcome {
    /// "P", "N" or "D".
    pub fn as_str(self) -> &'static str {
        match self {
            LoopyOutcome::P => "P",
            LoopyOutcome::N => "N",
            LoopyOutcome::D => "D",
        }
    }

    /// The outcome of a game that cannot be drawn, or `None` for `D`.
    pub fn decided(self) -> Option<Outcome> {
        match self {
            LoopyOutcome::P => Some(Outcome::P),
            LoopyOutcome::N => Some(Outcome::N),
            LoopyOutcome::D => None,
        }
    }
}

impl From<Outcome> for LoopyOutcome {
    fn from(o: Outcome) -> LoopyOutcome {
        match o {
            Outcome::P => LoopyOutcome::P,
            Outcome::N => LoopyOutcome::N,
            Outcome::D => LoopyOutcome::D,
        }
    }
}

impl fmt::Display for LoopyOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_json() {
        assert_eq!(Value::Finite(3).to_string(), "3");
        assert_eq!(Value::infinite([]).to_string(), "∞");
        assert_eq!(Value::infinite([2, 0]).to_string(), "∞(0,2)");
        let json = serde_json::to_string(&Value::Finite(1 << 60)).unwrap();
        assert_eq!(json, "\"1152921504606846976\"");
        for v in [
            Value::Finite(0),
            Value::Finite(7),
            Value::Finite(1 << 60),
            Value::infinite([]),
            Value::infinite([0, 5, 9]),
        ] {
            let text = serde_json::to_string(&v).unwrap();
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v, "{text}");
        }
        assert!(serde_json::from_str::<Value>("\"x\"").is_err());
        assert!(serde_json::from_str::<Value>("{\"finite\": 2}").is_err());
    }

    #[test]
    fn outcomes_and_sums() {
        assert_eq!(Value::Finite(0).outcome(), LoopyOutcome::P);
        assert_eq!(Value::Finite(4).outcome(), LoopyOutcome::N);
        assert_eq!(Value::infinite([0]).outcome(), LoopyOutcome::N);
        assert_eq!(Value::infinite([1]).outcome(), LoopyOutcome::D);
        assert_eq!(Value::Finite(5) + Value::Finite(3), Value::Finite(6));
        assert_eq!(
            Value::infinite([1, 2]) + Value::Finite(3),
            Value::infinite([2, 1])
        );
        assert_eq!(
            &Value::infinite([0]) + &Value::infinite([0]),
            Value::infinite([])
        );
        let total: Value = [1, 2, 3].into_iter().map(Value::Finite).sum();
        assert_eq!(total, Value::Finite(0));
        assert_eq!(serde_json::to_string(&LoopyOutcome::D).unwrap(), "\"D\"");
    }
}
