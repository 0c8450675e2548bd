//! Positions of script games: values compared by value, written as Lua literals.
//!
//! A position is an integer, a string, a boolean, or an array of positions (nested as deep as
//! needed); `{3, 1}` and `{3, 1}` are one position. A move to `sum(p1, p2, …)` is a move to a
//! disjunctive sum ([`Position::Sum`]): its parts are kept sorted and flattened, so that
//! `sum(1, 2)` and `sum(2, 1)` are one position, valued as the XOR of its parts.

use std::fmt;

/// One position of a script game.
///
/// Serialized to JSON as itself: an integer as a number (a string beyond 2^53), a string, a
/// boolean, an array; a sum as `{"sum": [parts]}`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Position {
    /// A boolean.
    Bool(bool),
    /// An integer (Lua numbers without a fraction).
    Int(i64),
    /// A string.
    Str(String),
    /// An array of positions (a Lua table with keys 1..n).
    List(Vec<Position>),
    /// A disjunctive sum of positions (from the engine's `sum(…)`): sorted, flattened, at least
    /// two parts (a sum of one part is that part).
    Sum(Vec<Position>),
}

impl Position {
    /// The sum of `parts`: nested sums flattened, parts sorted; one part is itself.
    pub fn sum(mut parts: Vec<Position>) -> Position {
        if !parts.iter().any(|p| matches!(p, Position::Sum(_))) {
            // The common case (no nested sum): sorted in place, no new vector.
            if parts.len() == 1 {
                return parts.pop().expect("one part");
            }
            parts.sort_unstable();
            return Position::Sum(parts);
        }
        let mut flat = Vec::with_capacity(parts.len());
        for p in parts {
            match p {
                Position::Sum(inner) => flat.extend(inner),
                p => flat.push(p),
            }
        }
        if flat.len() == 1 {
            return flat.pop().expect("one part");
        }
        flat.sort_unstable();
        Position::Sum(flat)
    }

    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Position::Int(n) => Some(*n),
            _ => None,
        }
    }

    /// The position as the catalogue's script entries name it, tagged: kind `"script"`,
    /// `text` the Lua literal, which the entry parses back (a sum as `sum(…)`), and field
    /// `value` the position's JSON.
    pub fn tagged(&self) -> grundy_core::catalogue::Position {
        grundy_core::catalogue::Position::text("script", self.to_string()).with("value", self)
    }

    /// Nesting depth (an integer is 0, `{1}` is 1).
    pub fn depth(&self) -> usize {
        match self {
            Position::List(v) | Position::Sum(v) => {
                1 + v.iter().map(|p| p.depth()).max().unwrap_or(0)
            }
            _ => 0,
        }
    }
}

/// One 64-bit digest of the whole position, well mixed, fed to the hasher at once: the memo's
/// hasher (Fx) multiplies and rotates only, and the plain derived hash of small integers gave
/// its tables long probe chains (a fifth of the time went to comparisons).
impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.digest());
    }
}

impl Position {
    fn digest(&self) -> u64 {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mix = |h: u64, x: u64| (h ^ x).wrapping_mul(K).rotate_left(29);
        let h = match self {
            Position::Bool(b) => mix(1, *b as u64),
            Position::Int(n) => mix(2, *n as u64),
            Position::Str(s) => s
                .bytes()
                .fold(mix(3, s.len() as u64), |h, b| mix(h, b as u64)),
            Position::List(v) => v
                .iter()
                .fold(mix(4, v.len() as u64), |h, p| mix(h, p.digest())),
            Position::Sum(v) => v
                .iter()
                .fold(mix(5, v.len() as u64), |h, p| mix(h, p.digest())),
        };
        // splitmix64's finalizer: every input bit reaches every output bit.
        let mut z = h;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl From<i64> for Position {
    fn from(n: i64) -> Self {
        Position::Int(n)
    }
}

/// The position as a Lua literal (`{3, 1}`, `"abc"`, `true`; a sum as `sum(1, 2)`).
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, v: &[Position]| -> fmt::Result {
            for (i, p) in v.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{p}")?;
            }
            Ok(())
        };
        match self {
            Position::Bool(b) => write!(f, "{b}"),
            Position::Int(n) => write!(f, "{n}"),
            Position::Str(s) => {
                f.write_str("\"")?;
                for c in s.chars() {
                    match c {
                        '"' => f.write_str("\\\"")?,
                        '\\' => f.write_str("\\\\")?,
                        '\n' => f.write_str("\\n")?,
                        '\t' => f.write_str("\\t")?,
                        '\r' => f.write_str("\\r")?,
                        c if (c as u32) < 32 || c as u32 == 127 => write!(f, "\\{}", c as u32)?,
                        c => write!(f, "{c}")?,
                    }
                }
                f.write_str("\"")
            }
            Position::List(v) => {
                f.write_str("{")?;
                list(f, v)?;
                f.write_str("}")
            }
            Position::Sum(v) => {
                f.write_str("sum(")?;
                list(f, v)?;
                f.write_str(")")
            }
        }
    }
}

impl serde::Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        const EXACT: i64 = 1 << 53;
        match self {
            Position::Bool(b) => s.serialize_bool(*b),
            Position::Int(n) if (-EXACT..=EXACT).contains(n) => s.serialize_i64(*n),
            Position::Int(n) => s.serialize_str(&n.to_string()),
            Position::Str(t) => s.serialize_str(t),
            Position::List(v) => s.collect_seq(v),
            Position::Sum(v) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("sum", v)?;
                m.end()
            }
        }
    }
}

impl Position {
    /// A position read back from its JSON form (what [`Position`]'s `Serialize` writes, as in a
    /// move's `at.from` and `at.leaves`): the inverse of that form, except that an integer past
    /// ±2^53, written as a string, is read back as a string. `None` for JSON that no position
    /// writes (`null`, a fraction, an object other than `{"sum": [...]}`), or nested deeper
    /// than [`MAX_LITERAL_DEPTH`].
    ///
    /// ```
    /// use grundy_script::{parse_position, Position};
    /// let p = parse_position("sum(3, {1, 'x'})").unwrap();
    /// let json = serde_json::to_value(&p).unwrap();
    /// assert_eq!(Position::from_json(&json), Some(p));
    /// assert_eq!(Position::from_json(&serde_json::json!(null)), None);
    /// ```
    pub fn from_json(v: &serde_json::Value) -> Option<Position> {
        fn read(v: &serde_json::Value, depth: usize) -> Option<Position> {
            use serde_json::Value;
            if depth > MAX_LITERAL_DEPTH {
                return None;
            }
            let all = |a: &Vec<Value>| {
                a.iter()
                    .map(|x| read(x, depth + 1))
                    .collect::<Option<Vec<_>>>()
            };
            Some(match v {
                Value::Bool(b) => Position::Bool(*b),
                Value::Number(n) => Position::Int(n.as_i64()?),
                Value::String(s) => Position::Str(s.clone()),
                Value::Array(a) => Position::List(all(a)?),
                Value::Object(o) if o.len() == 1 => {
                    Position::sum(all(o.get("sum")?.as_array()?)?)
                }
                _ => return None,
            })
        }
        read(v, 0)
    }
}

/// Deepest nesting a position literal may have.
pub const MAX_LITERAL_DEPTH: usize = 200;

/// Why a position literal did not parse: the message and the 1-based column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("position {text}: {message} at column {column}")]
pub struct LiteralError {
    /// The literal, quoted for the message.
    pub text: String,
    /// What is wrong.
    pub message: String,
    /// Where (1-based, in characters).
    pub column: usize,
}

/// Parses a position written as a Lua literal: `7`, `-3`, `"abc"`, `'abc'`, `true`, `{3, 3, 3}`,
/// `{{1, 2}, "x"}` (commas or semicolons between elements, a trailing one allowed). A bare
/// word that is not `true`/`false` is taken as a string (`abc` is `"abc"`), so that a shell
/// user need not quote twice. A whole position may be a sum, `sum(3, {1, 2})`, as the engine's
/// `sum` makes it and [`Position`]'s `Display` writes it (parts sorted, one part is itself).
///
/// ```
/// use grundy_script::{parse_position, Position};
/// let p = parse_position("{3, {1, 2}, 'x'}").unwrap();
/// assert_eq!(p, Position::List(vec![
///     Position::Int(3),
///     Position::List(vec![Position::Int(1), Position::Int(2)]),
///     Position::Str("x".into()),
/// ]));
/// assert_eq!(p.to_string(), r#"{3, {1, 2}, "x"}"#);
/// assert!(parse_position("{1, 2").is_err());
/// ```
pub fn parse_position(text: &str) -> Result<Position, LiteralError> {
    let chars: Vec<char> = text.chars().collect();
    let mut p = Parser {
        chars: &chars,
        at: 0,
        text,
    };
    p.skip_ws();
    if p.at == chars.len() {
        return Err(p.error("empty position"));
    }
    let pos = p.value(0)?;
    p.skip_ws();
    if p.at < chars.len() {
        return Err(p.error(&format!("unexpected {:?} after the position", chars[p.at])));
    }
    Ok(pos)
}

struct Parser<'a> {
    chars: &'a [char],
    at: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> LiteralError {
        LiteralError {
            text: grundy_core::text::quote(self.text),
            message: message.to_string(),
            column: self.at + 1,
        }
    }

    fn skip_ws(&mut self) {
        while self.at < self.chars.len() && self.chars[self.at].is_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn value(&mut self, depth: usize) -> Result<Position, LiteralError> {
        if depth > MAX_LITERAL_DEPTH {
            return Err(self.error(&format!("nested deeper than {MAX_LITERAL_DEPTH}")));
        }
        self.skip_ws();
        match self.peek() {
            None => Err(self.error("a position is missing")),
            Some('{') => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    if self.peek() == Some('}') {
                        self.at += 1;
                        return Ok(Position::List(items));
                    }
                    items.push(self.value(depth + 1)?);
                    self.skip_ws();
                    match self.peek() {
                        Some(',') | Some(';') => self.at += 1,
                        Some('}') => {}
                        None => return Err(self.error("'}' is missing")),
                        Some(c) => {
                            return Err(self.error(&format!("expected ',' or '}}', found {c:?}")))
                        }
                    }
                }
            }
            Some(q @ ('"' | '\'')) => {
                self.at += 1;
                let mut s = String::new();
                loop {
                    match self.peek() {
                        None => return Err(self.error("the string is not closed")),
                        Some(c) if c == q => {
                            self.at += 1;
                            return Ok(Position::Str(s));
                        }
                        Some('\\') => {
                            self.at += 1;
                            let c = self
                                .peek()
                                .ok_or_else(|| self.error("the string is not closed"))?;
                            self.at += 1;
                            s.push(match c {
                                'n' => '\n',
                                't' => '\t',
                                'r' => '\r',
                                c => c,
                            });
                        }
                        Some(c) => {
                            self.at += 1;
                            s.push(c);
                        }
                    }
                }
            }
            Some(c) if c == '-' || c == '+' || c.is_ascii_digit() => {
                let start = self.at;
                self.at += 1;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                {
                    self.at += 1;
                }
                let word: String = self.chars[start..self.at]
                    .iter()
                    .filter(|&&c| c != '_')
                    .collect();
                let word = word.strip_prefix('+').unwrap_or(&word);
                word.parse::<i64>().map(Position::Int).map_err(|_| {
                    self.at = start;
                    self.error(&format!(
                        "{} is not an integer in -2^63..2^63",
                        grundy_core::text::quote(word)
                    ))
                })
            }
            Some(c) if c.is_alphabetic() || c == '_' => {
                let start = self.at;
                while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    self.at += 1;
                }
                let word: String = self.chars[start..self.at].iter().collect();
                // `sum(…)`, the sum the engine's `sum` makes, at the top only.
                if word == "sum" && depth == 0 {
                    let after = self.at;
                    self.skip_ws();
                    if self.peek() == Some('(') {
                        self.at += 1;
                        return self.sum(depth);
                    }
                    self.at = after;
                }
                Ok(match word.as_str() {
                    "true" => Position::Bool(true),
                    "false" => Position::Bool(false),
                    _ => Position::Str(word),
                })
            }
            Some(c) => Err(self.error(&format!("unexpected {c:?}"))),
        }
    }

    /// The parts of `sum(…)` after its `(`, up to its `)`: the sum of them.
    fn sum(&mut self, depth: usize) -> Result<Position, LiteralError> {
        let mut parts = Vec::new();
        loop {
            self.skip_ws();
            if self.peek() == Some(')') {
                if parts.is_empty() {
                    return Err(self.error("a sum needs at least one part"));
                }
                self.at += 1;
                return Ok(Position::sum(parts));
            }
            parts.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.peek() {
                Some(',') | Some(';') => self.at += 1,
                Some(')') => {}
                None => return Err(self.error("')' is missing")),
                Some(c) => return Err(self.error(&format!("expected ',' or ')', found {c:?}"))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_trip() {
        for text in [
            "7",
            "-3",
            "{}",
            "{3, 3, 3}",
            "{{1, 2}, \"a\\\"b\", true, false}",
        ] {
            let p = parse_position(text).unwrap();
            assert_eq!(parse_position(&p.to_string()).unwrap(), p, "{text}");
        }
        assert_eq!(
            parse_position("{1;2,}").unwrap(),
            parse_position("{1, 2}").unwrap()
        );
        assert_eq!(parse_position("abc").unwrap(), Position::Str("abc".into()));
        assert_eq!(parse_position("sum").unwrap(), Position::Str("sum".into()));
    }

    #[test]
    fn sums_read_back_as_written() {
        let p = parse_position("sum(12, {1, 2}, 3)").unwrap();
        assert_eq!(
            p,
            Position::sum(vec![
                Position::Int(12),
                Position::List(vec![Position::Int(1), Position::Int(2)]),
                Position::Int(3),
            ])
        );
        assert_eq!(p.to_string(), "sum(3, 12, {1, 2})");
        assert_eq!(parse_position(&p.to_string()).unwrap(), p);
        // A sum of one part is that part; a sum is a whole position, never inside one.
        assert_eq!(parse_position("sum (7)").unwrap(), Position::Int(7));
        assert!(parse_position("sum()").is_err());
        assert!(parse_position("sum(1, 2").is_err());
        assert!(parse_position("{sum(1, 2)}").is_err());
        assert!(parse_position("sum(sum(1, 2), 3)").is_err());
    }

    #[test]
    fn bad_literals_name_the_column() {
        let e = parse_position("{1, 2 x}").unwrap_err();
        assert_eq!(e.column, 7);
        assert!(parse_position("1.5").is_err());
        assert!(parse_position("99999999999999999999").is_err());
        assert!(parse_position(&"{".repeat(500)).is_err());
        assert!(parse_position("").is_err());
    }

    #[test]
    fn sums_are_sorted_and_flat() {
        let a = Position::sum(vec![
            Position::Int(2),
            Position::sum(vec![3.into(), 1.into()]),
        ]);
        assert_eq!(a, Position::Sum(vec![1.into(), 2.into(), 3.into()]));
        assert_eq!(Position::sum(vec![5.into()]), Position::Int(5));
        assert_eq!(a.to_string(), "sum(1, 2, 3)");
    }
}
