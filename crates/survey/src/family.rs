//! Families of games and their expansion into the list a survey solves.
//!
//! * `octal:D` — every code `0.d1…dk`, k ≤ D, digits 0–7, last digit nonzero (8^D − 1 codes: 511
//!   for D = 3);
//! * `hex:D` — the same with digits 0–F (moves may leave three heaps);
//! * `sub:M` — every nonempty subtraction set ⊆ {1..M} (`sub:1,3`);
//! * `allbut:M` — every all-but game excluding a set ⊆ {1..M} (`allbut:` is Nim);
//! * `file:PATH` — one rule per line in any notation `grundy heap` reads (`#` comments).
//!
//! Codes equivalent to one listed before them ([`crate::cousin`]: first cousins and identical
//! move sets) are listed with the code they equal and the shift between the sequences, and
//! are not solved.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;

use grundy_heap::rule::parse;
use serde::Serialize;

use crate::cousin;
use crate::error::{Error, Result};

/// The largest `D` of `octal:D` (8^D codes) and `hex:D` (16^D codes) accepted.
pub const MAX_OCTAL_DIGITS: u32 = 7;
/// The largest `D` of `hex:D`.
pub const MAX_HEX_DIGITS: u32 = 5;
/// The largest `M` of `sub:M` and `allbut:M` (2^M games).
pub const MAX_SET: u32 = 20;
/// The most rules a `file:` family may list.
pub const MAX_FILE_RULES: usize = 1_000_000;

/// A family of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Family {
    /// Octal codes of at most this many digits after the point.
    Octal(u32),
    /// Hexadecimal codes of at most this many digits.
    Hex(u32),
    /// Subtraction sets within {1..M}.
    Sub(u32),
    /// All-but games excluding a set within {1..M}.
    AllBut(u32),
    /// The rules listed in a file.
    File(PathBuf),
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Family::Octal(d) => write!(f, "octal:{d}"),
            Family::Hex(d) => write!(f, "hex:{d}"),
            Family::Sub(m) => write!(f, "sub:{m}"),
            Family::AllBut(m) => write!(f, "allbut:{m}"),
            Family::File(p) => write!(f, "file:{}", p.display()),
        }
    }
}

impl std::str::FromStr for Family {
    type Err = Error;

    fn from_str(text: &str) -> Result<Family> {
        Family::parse(text)
    }
}

/// A quoted token for one-line messages (control characters escaped).
pub(crate) fn quote(s: &str) -> String {
    format!("'{}'", s.escape_debug())
}

impl Family {
    /// Parses `octal:3`, `hex:2`, `sub:6`, `allbut:4`, `file:rules.txt`.
    pub fn parse(text: &str) -> Result<Family> {
        let bad = |why: &str| Error::Input(format!("family {}: {why}", quote(text)));
        let Some((kind, arg)) = text.split_once(':') else {
            return Err(bad("expected octal:D, hex:D, sub:M, allbut:M or file:PATH"));
        };
        let number = |max: u32| -> Result<u32> {
            let n: u32 = arg
                .trim()
                .parse()
                .map_err(|_| bad(&format!("{} is not a whole number", quote(arg))))?;
            if n == 0 || n > max {
                return Err(bad(&format!("the number must be from 1 to {max}")));
            }
            Ok(n)
        };
        match kind {
            "octal" => Ok(Family::Octal(number(MAX_OCTAL_DIGITS)?)),
            "hex" => Ok(Family::Hex(number(MAX_HEX_DIGITS)?)),
            "sub" => Ok(Family::Sub(number(MAX_SET)?)),
            "allbut" => Ok(Family::AllBut(number(MAX_SET)?)),
            "file" if !arg.is_empty() => Ok(Family::File(PathBuf::from(arg))),
            "file" => Err(bad("file: needs a path")),
            _ => Err(bad(&format!(
                "unknown family {} (octal:D, hex:D, sub:M, allbut:M or file:PATH)",
                quote(kind)
            ))),
        }
    }
}

/// One game of a family, in the family's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The rule as `grundy heap` reads it (canonical spelling: `0.137`, `sub:1,3`).
    pub rule: String,
    /// The earlier entry this one is equivalent to, if any: then it is not solved.
    pub equals: Option<String>,
    /// With `equals`: G(n) = G_equals(n + shift), and 0 where n + shift < 0 (the sign of a
    /// named game's shift: G(n) = G_code(n + shift)).
    pub shift: i64,
    /// Why it equals that entry: `"first cousin"` or `"same moves"`.
    pub why: Option<&'static str>,
}

/// Every code `0.d1…dk` with 1 ≤ k ≤ `digits`, digits below `base`, last digit nonzero, by
/// length then digits (as masks, `[0, d1, …, dk]`).
fn codes(digits: u32, base: u8) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for k in 1..=digits {
        for i in 0..u64::from(base).pow(k) {
            let mut m = vec![0u8; k as usize + 1];
            let mut x = i;
            for j in (1..=k as usize).rev() {
                m[j] = (x % u64::from(base)) as u8;
                x /= u64::from(base);
            }
            if m[k as usize] != 0 {
                out.push(m);
            }
        }
    }
    out
}

/// Subsets of {1..m} in binary order (bit i-1 for element i), `empty` first if asked.
fn subsets(m: u32, empty: bool) -> Vec<Vec<u64>> {
    let first = if empty { 0u64 } else { 1 };
    (first..1u64 << m)
        .map(|bits| {
            (1..=u64::from(m))
                .filter(|i| bits >> (i - 1) & 1 == 1)
                .collect()
        })
        .collect()
}

fn join(set: &[u64]) -> String {
    set.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

/// The rules of `family` in its order, before equivalences (reads the file of `file:`).
pub fn rules(family: &Family) -> Result<Vec<String>> {
    Ok(match family {
        Family::Octal(d) => codes(*d, 8)
            .iter()
            .map(|m| cousin::format_masks(m))
            .collect(),
        Family::Hex(d) => codes(*d, 16)
            .iter()
            .map(|m| cousin::format_masks(m))
            .collect(),
        Family::Sub(m) => subsets(*m, false)
            .iter()
            .map(|s| format!("sub:{}", join(s)))
            .collect(),
        Family::AllBut(m) => subsets(*m, true)
            .iter()
            .map(|s| format!("allbut:{}", join(s)))
            .collect(),
        Family::File(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                Error::Input(format!(
                    "family file {}: {e}",
                    quote(&path.display().to_string())
                ))
            })?;
            let mut out = Vec::new();
            for (i, line) in text.lines().enumerate() {
                let line = line.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                let rule = parse(line).map_err(|e| {
                    Error::Input(format!(
                        "family file {} line {}: {e}",
                        quote(&path.display().to_string()),
                        i + 1
                    ))
                })?;
                out.push(rule.to_string());
                if out.len() > MAX_FILE_RULES {
                    return Err(Error::Input(format!(
                        "family file {}: more than {MAX_FILE_RULES} rules",
                        quote(&path.display().to_string())
                    )));
                }
            }
            out
        }
    })
}

/// The games of `family` in order, each marked with the earlier game it is equivalent to
/// (first cousins, identical moves), if any.
pub fn expand(family: &Family) -> Result<Vec<Entry>> {
    let list = rules(family)?;
    // Representatives: the key (normalised code, shift) and the root of the cousin map.
    let mut by_key: HashMap<String, (usize, i64)> = HashMap::new();
    let mut by_root: HashMap<Vec<u8>, (usize, i64)> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<Entry> = Vec::with_capacity(list.len());
    for text in list {
        if !seen.insert(text.clone()) {
            continue; // the same rule twice in a file
        }
        let rule = parse(&text)?;
        let (key, shift) = cousin::key(&rule);
        // G_rule(n) = G_key(n + shift): the key's sequence is this one's shifted by -shift.
        // Below, `own` and `other` are minus the offsets into the common sequence, so
        // `own - other` is G_rule(n) = G_other(n - (own - other)); the entry keeps its negative.
        let own = -(shift as i64);
        let mut entry = Entry {
            rule: text,
            equals: None,
            shift: 0,
            why: None,
        };
        if let Some(&(i, other)) = by_key.get(&key) {
            entry.equals = Some(out[i].rule.clone());
            entry.shift = other - own;
            entry.why = Some("same moves");
        } else {
            by_key.insert(key, (out.len(), own));
            let root = rule
                .base_and_shift()
                .0
                .take_break()
                .and_then(|c| cousin::masks(&c));
            if let Some(m) = root {
                let (r, steps) = cousin::root(&m);
                let offset = own + steps as i64;
                if let Some(&(i, other)) = by_root.get(&r) {
                    entry.equals = Some(out[i].rule.clone());
                    entry.shift = other - offset;
                    entry.why = Some("first cousin");
                } else {
                    by_root.insert(r, (out.len(), offset));
                }
            }
        }
        out.push(entry);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(rules(&Family::Octal(1)).unwrap().len(), 7);
        assert_eq!(rules(&Family::Octal(3)).unwrap().len(), 511);
        assert_eq!(rules(&Family::Hex(2)).unwrap().len(), 15 + 16 * 15);
        assert_eq!(rules(&Family::Sub(3)).unwrap().len(), 7);
        assert_eq!(rules(&Family::AllBut(3)).unwrap().len(), 8);
        assert_eq!(
            rules(&Family::Octal(2)).unwrap()[..3],
            ["0.1", "0.2", "0.3"]
        );
        assert_eq!(
            rules(&Family::Sub(2)).unwrap(),
            ["sub:1", "sub:2", "sub:1,2"]
        );
        assert_eq!(rules(&Family::AllBut(1)).unwrap(), ["allbut:", "allbut:1"]);
        assert_eq!(
            Family::parse("octal:3").unwrap().to_string(),
            "octal:3".to_string()
        );
        for bad in ["octal", "octal:0", "octal:x", "fib:3", "hex:99", "file:"] {
            assert!(Family::parse(bad).is_err(), "{bad}");
        }
    }
}
