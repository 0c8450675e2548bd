//! The one Sprague–Grundy value type of every game: a nimber `*m`, or, in a loopy game,
//! Smith's `∞(K)`.
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
//! `m + n = m ⊕ n`, `∞(K) + n = ∞(K ⊕ n)` and `∞(K) + ∞(L) = ∞(∅)`. Games that cannot loop
//! only ever have finite values, and their engines keep them as plain `u64`s; the catalogue's
//! reports, the loopy solver and the script engine all speak this type.
//!
//! ```
//! use grundy_core::{Grundy, Outcome};
//!
//! let d = Grundy::infinite([1, 3]);
//! assert_eq!(d.to_string(), "∞(1,3)");
//! assert_eq!(d.outcome(), Outcome::D);
//! // Beside a heap of 1 it becomes ∞(0,2): the player to move wins.
//! let s = d.clone() + Grundy::Finite(1);
//! assert_eq!(s, Grundy::infinite([0, 2]));
//! assert_eq!(s.outcome(), Outcome::N);
//! // Two infinite values add to ∞: a draw.
//! assert_eq!((d.clone() + d).to_string(), "∞");
//! assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"infinite":[0,2]}"#);
//! ```

use std::collections::BTreeSet;
use std::fmt;

use crate::text::JsonU64;
use crate::Outcome;

/// A generalized Sprague–Grundy value: finite `m`, or `∞(K)` with `K` the finite values among
/// the position's options (kept sorted).
///
/// Displays as the number, `∞(0,2)`, or `∞` for an empty `K`. Serializes as an integer (a
/// decimal string beyond 2^53, the project's JSON rule) or `{"infinite": [0, 2]}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Grundy {
    /// A finite value: the position is equivalent to a nim heap of this size.
    Finite(u64),
    /// An infinite value `∞(K)`: `K` holds the finite values of the position's options.
    Infinite(BTreeSet<u64>),
}

impl Grundy {
    /// `∞(K)` from any list of finite values (sorted and deduplicated here).
    pub fn infinite(k: impl IntoIterator<Item = u64>) -> Grundy {
        Grundy::Infinite(k.into_iter().collect())
    }

    /// True for a finite value.
    pub fn is_finite(&self) -> bool {
        matches!(self, Grundy::Finite(_))
    }

    /// The finite value, or `None` for `∞(K)`.
    pub fn finite(&self) -> Option<u64> {
        match self {
            Grundy::Finite(m) => Some(*m),
            Grundy::Infinite(_) => None,
        }
    }

    /// Who wins from a position of this value (see the module docs).
    pub fn outcome(&self) -> Outcome {
        match self {
            Grundy::Finite(0) => Outcome::P,
            Grundy::Finite(_) => Outcome::N,
            Grundy::Infinite(k) if k.contains(&0) => Outcome::N,
            Grundy::Infinite(_) => Outcome::D,
        }
    }
}

impl fmt::Display for Grundy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Grundy::Finite(m) => write!(f, "{m}"),
            Grundy::Infinite(k) if k.is_empty() => f.write_str("∞"),
            Grundy::Infinite(k) => {
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
impl std::ops::Add for Grundy {
    type Output = Grundy;
    fn add(self, other: Grundy) -> Grundy {
        match (self, other) {
            (Grundy::Finite(m), Grundy::Finite(n)) => Grundy::Finite(m ^ n),
            (Grundy::Infinite(k), Grundy::Finite(n)) | (Grundy::Finite(n), Grundy::Infinite(k)) => {
                Grundy::Infinite(k.into_iter().map(|x| x ^ n).collect())
            }
            (Grundy::Infinite(_), Grundy::Infinite(_)) => Grundy::Infinite(BTreeSet::new()),
        }
    }
}

/// Smith's sum rule on borrowed values.
#[allow(clippy::suspicious_arithmetic_impl)]
impl std::ops::Add<&Grundy> for &Grundy {
    type Output = Grundy;
    fn add(self, other: &Grundy) -> Grundy {
        match (self, other) {
            (Grundy::Finite(m), Grundy::Finite(n)) => Grundy::Finite(m ^ n),
            (Grundy::Infinite(k), Grundy::Finite(n)) | (Grundy::Finite(n), Grundy::Infinite(k)) => {
                Grundy::Infinite(k.iter().map(|x| x ^ n).collect())
            }
            (Grundy::Infinite(_), Grundy::Infinite(_)) => Grundy::Infinite(BTreeSet::new()),
        }
    }
}

/// The value of any number of games side by side (0 for none), by Smith's rule.
impl std::iter::Sum for Grundy {
    fn sum<I: Iterator<Item = Grundy>>(iter: I) -> Grundy {
        iter.fold(Grundy::Finite(0), |a, b| a + b)
    }
}

impl serde::Serialize for Grundy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Grundy::Finite(m) => JsonU64(*m).serialize(s),
            Grundy::Infinite(k) => {
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
                .map_err(|_| E::custom(format!("not a value: {}", crate::text::quote(&t)))),
        }
    }
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum JsonGrundy {
    Finite(JsonNumber),
    Infinite { infinite: Vec<JsonNumber> },
}

/// Reads what [`Grundy`]'s `Serialize` writes: an integer (or decimal string), or
/// `{"infinite": [...]}`.
impl<'de> serde::Deserialize<'de> for Grundy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Grundy, D::Error> {
        match JsonGrundy::deserialize(d)? {
            JsonGrundy::Finite(m) => Ok(Grundy::Finite(m.get()?)),
            JsonGrundy::Infinite { infinite } => infinite
                .into_iter()
                .map(JsonNumber::get)
                .collect::<Result<BTreeSet<u64>, D::Error>>()
                .map(Grundy::Infinite),
        }
    }
}

impl From<u64> for Grundy {
    fn from(m: u64) -> Grundy {
        Grundy::Finite(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_json() {
        assert_eq!(Grundy::Finite(3).to_string(), "3");
        assert_eq!(Grundy::infinite([]).to_string(), "∞");
        assert_eq!(Grundy::infinite([2, 0]).to_string(), "∞(0,2)");
        let json = serde_json::to_string(&Grundy::Finite(1 << 60)).unwrap();
        assert_eq!(json, "\"1152921504606846976\"");
        for v in [
            Grundy::Finite(0),
            Grundy::Finite(7),
            Grundy::Finite(1 << 60),
            Grundy::infinite([]),
            Grundy::infinite([0, 5, 9]),
        ] {
            let text = serde_json::to_string(&v).unwrap();
            assert_eq!(serde_json::from_str::<Grundy>(&text).unwrap(), v, "{text}");
        }
        assert!(serde_json::from_str::<Grundy>("\"x\"").is_err());
        assert!(serde_json::from_str::<Grundy>("{\"finite\": 2}").is_err());
    }

    #[test]
    fn outcomes_and_sums() {
        assert_eq!(Grundy::Finite(0).outcome(), Outcome::P);
        assert_eq!(Grundy::Finite(4).outcome(), Outcome::N);
        assert_eq!(Grundy::infinite([0]).outcome(), Outcome::N);
        assert_eq!(Grundy::infinite([1]).outcome(), Outcome::D);
        assert_eq!(Grundy::Finite(5) + Grundy::Finite(3), Grundy::Finite(6));
        assert_eq!(
            Grundy::infinite([1, 2]) + Grundy::Finite(3),
            Grundy::infinite([2, 1])
        );
        assert_eq!(
            &Grundy::infinite([0]) + &Grundy::infinite([0]),
            Grundy::infinite([])
        );
        let total: Grundy = [1, 2, 3].into_iter().map(Grundy::Finite).sum();
        assert_eq!(total, Grundy::Finite(0));
        assert_eq!(serde_json::to_string(&Outcome::D).unwrap(), "\"D\"");
    }
}
