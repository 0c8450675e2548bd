//! The solver's compact form of a [`Position`]: its bytes, stored inline when short.
//!
//! The memo compares a key on every lookup. With `Position`'s vectors that meant a pointer
//! chase (a cache miss) per option and an allocation per `sum(a, b)`; a key of up to
//! [`INLINE`] bytes (a pair of integers, a sum of three heaps, Chomp's columns) lives inside the
//! memo entry itself. Encoding (prefix-free):
//! `0x01` zigzag-varint integer · `0x02`/`0x03` false/true · `0x04` varint length, bytes ·
//! `0x05` varint count, elements (a list) · `0x06` varint count, elements (a sum: flat, parts
//! in byte order, at least two).

use crate::position::Position;

/// Bytes stored inline.
pub(crate) const INLINE: usize = 22;

const INT: u8 = 1;
const FALSE: u8 = 2;
const TRUE: u8 = 3;
const STR: u8 = 4;
const LIST: u8 = 5;
const SUM: u8 = 6;
/// The tag that starts a sum's encoding (a count of up to 127 parts is then one byte).
pub(crate) const SUM_TAG: u8 = SUM;

/// A position as bytes (see the module docs). Equal positions have equal bytes, and a key
/// of up to [`INLINE`] bytes is always inline (zero-padded), so the derived equality is the
/// bytes'. The hash reads only the words that hold bytes (a sum of two small integers is 6
/// bytes, one word): the derived hash of the whole padded array cost the memo's lookups more
/// than the rest of the lookup.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Key {
    /// Up to [`INLINE`] bytes: the length and the bytes (zero-padded).
    Inline(u8, [u8; INLINE]),
    /// Longer keys.
    Heap(Box<[u8]>),
}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            // Zero-padded: the words that hold the bytes, with the length (fixed-size reads,
            // one word for a sum of two small integers).
            Key::Inline(n, b) => {
                let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8"));
                let n = *n as usize;
                state.write_u64(word(0) ^ ((n as u64) << 56));
                if n > 8 {
                    state.write_u64(word(8));
                }
                if n > 16 {
                    let mut last = [0u8; 8];
                    last[..INLINE - 16].copy_from_slice(&b[16..]);
                    state.write_u64(u64::from_le_bytes(last));
                }
            }
            Key::Heap(b) => state.write(b),
        }
    }
}

impl Key {
    pub(crate) fn from_bytes(b: &[u8]) -> Key {
        if b.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..b.len()].copy_from_slice(b);
            Key::Inline(b.len() as u8, buf)
        } else {
            Key::Heap(b.into())
        }
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Key::Inline(n, b) => &b[..*n as usize],
            Key::Heap(b) => b,
        }
    }

    pub(crate) fn of(p: &Position) -> Key {
        let mut out = Vec::new();
        encode(p, &mut out);
        Key::from_bytes(&out)
    }

    pub(crate) fn position(&self) -> Position {
        let mut at = 0;
        decode(self.bytes(), &mut at)
    }

    pub(crate) fn is_sum(&self) -> bool {
        self.bytes().first() == Some(&SUM)
    }

    /// The parts of a sum key (empty for any other key).
    pub(crate) fn parts(&self) -> Vec<Key> {
        let b = self.bytes();
        if b.first() != Some(&SUM) {
            return Vec::new();
        }
        let mut at = 1;
        let n = varint(b, &mut at);
        (0..n)
            .map(|_| {
                let start = at;
                skip(b, &mut at);
                Key::from_bytes(&b[start..at])
            })
            .collect()
    }
}

/// Appends the encoding of `n`.
pub(crate) fn push_int(out: &mut Vec<u8>, n: i64) {
    out.push(INT);
    push_varint(out, ((n << 1) ^ (n >> 63)) as u64);
}

/// Encodes `n` into `buf` (at most 11 bytes); the length.
pub(crate) fn encode_int(n: i64, buf: &mut [u8; 11]) -> usize {
    buf[0] = INT;
    let mut x = ((n << 1) ^ (n >> 63)) as u64;
    let mut len = 1;
    while x >= 0x80 {
        buf[len] = (x as u8) | 0x80;
        x >>= 7;
        len += 1;
    }
    buf[len] = x as u8;
    len + 1
}

/// Appends a sum header; `n` (at least 2) parts, sorted, follow.
pub(crate) fn push_sum_header(out: &mut Vec<u8>, n: usize) {
    out.push(SUM);
    push_varint(out, n as u64);
}

/// Appends the parts of a sum key to `out` (nothing for any other key).
pub(crate) fn push_parts(key: &Key, out: &mut Vec<Key>) {
    let b = key.bytes();
    if b.first() != Some(&SUM) {
        return;
    }
    let mut at = 1;
    let n = varint(b, &mut at);
    for _ in 0..n {
        let start = at;
        skip(b, &mut at);
        out.push(Key::from_bytes(&b[start..at]));
    }
}

pub(crate) fn push_bool(out: &mut Vec<u8>, b: bool) {
    out.push(if b { TRUE } else { FALSE });
}

pub(crate) fn push_str(out: &mut Vec<u8>, s: &[u8]) {
    out.push(STR);
    push_varint(out, s.len() as u64);
    out.extend_from_slice(s);
}

/// Appends a list header; the `n` elements follow.
pub(crate) fn push_list(out: &mut Vec<u8>, n: usize) {
    out.push(LIST);
    push_varint(out, n as u64);
}

/// Appends the sum of the encoded `parts` (each a whole encoding, in `buf[range]`): nested sums
/// flattened, parts sorted; one part is itself, and no part a sum of none.
pub(crate) fn push_sum(out: &mut Vec<u8>, buf: &[u8], parts: &[(usize, usize)]) {
    let mut flat: Vec<&[u8]> = Vec::with_capacity(parts.len());
    for &(s, e) in parts {
        let p = &buf[s..e];
        if p.first() == Some(&SUM) {
            let mut at = 1;
            let n = varint(p, &mut at);
            for _ in 0..n {
                let start = at;
                skip(p, &mut at);
                flat.push(&p[start..at]);
            }
        } else {
            flat.push(p);
        }
    }
    if flat.len() == 1 {
        out.extend_from_slice(flat[0]);
        return;
    }
    flat.sort_unstable();
    out.push(SUM);
    push_varint(out, flat.len() as u64);
    for p in flat {
        out.extend_from_slice(p);
    }
}

/// The key of the sum of `parts`.
pub(crate) fn sum_key(parts: &[Key]) -> Key {
    let mut buf = Vec::new();
    let mut ranges = Vec::with_capacity(parts.len());
    for p in parts {
        let s = buf.len();
        buf.extend_from_slice(p.bytes());
        ranges.push((s, buf.len()));
    }
    let mut out = Vec::with_capacity(buf.len() + 4);
    push_sum(&mut out, &buf, &ranges);
    Key::from_bytes(&out)
}

fn push_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

fn varint(b: &[u8], at: &mut usize) -> u64 {
    let mut x = 0u64;
    let mut shift = 0;
    while let Some(&byte) = b.get(*at) {
        *at += 1;
        x |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            break;
        }
        shift += 7;
    }
    x
}

/// Moves `at` past one encoded value.
fn skip(b: &[u8], at: &mut usize) {
    let tag = b[*at];
    *at += 1;
    match tag {
        INT => {
            varint(b, at);
        }
        STR => {
            let n = varint(b, at) as usize;
            *at += n;
        }
        LIST | SUM => {
            let n = varint(b, at);
            for _ in 0..n {
                skip(b, at);
            }
        }
        _ => {}
    }
}

fn encode(p: &Position, out: &mut Vec<u8>) {
    match p {
        Position::Int(n) => push_int(out, *n),
        Position::Bool(b) => push_bool(out, *b),
        Position::Str(s) => push_str(out, s.as_bytes()),
        Position::List(v) => {
            push_list(out, v.len());
            for x in v {
                encode(x, out);
            }
        }
        Position::Sum(v) => {
            let mut buf = Vec::new();
            let mut ranges = Vec::with_capacity(v.len());
            for x in v {
                let s = buf.len();
                encode(x, &mut buf);
                ranges.push((s, buf.len()));
            }
            if ranges.is_empty() {
                out.push(SUM);
                push_varint(out, 0);
            } else {
                push_sum(out, &buf, &ranges);
            }
        }
    }
}

fn decode(b: &[u8], at: &mut usize) -> Position {
    let tag = b[*at];
    *at += 1;
    match tag {
        INT => {
            let z = varint(b, at);
            Position::Int(((z >> 1) as i64) ^ -((z & 1) as i64))
        }
        FALSE => Position::Bool(false),
        TRUE => Position::Bool(true),
        STR => {
            let n = varint(b, at) as usize;
            let s = String::from_utf8_lossy(&b[*at..*at + n]).into_owned();
            *at += n;
            Position::Str(s)
        }
        LIST => {
            let n = varint(b, at);
            Position::List((0..n).map(|_| decode(b, at)).collect())
        }
        _ => {
            let n = varint(b, at);
            let parts: Vec<Position> = (0..n).map(|_| decode(b, at)).collect();
            if parts.is_empty() {
                Position::Sum(parts)
            } else {
                Position::sum(parts)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::parse_position;

    #[test]
    fn keys_round_trip_and_sums_are_canonical() {
        for t in [
            "0",
            "-1",
            "300",
            "-9007199254740992",
            "{}",
            "{1, {2, 3}, \"ab\", true, false}",
        ] {
            let p = parse_position(t).unwrap();
            assert_eq!(Key::of(&p).position(), p, "{t}");
        }
        let long = parse_position(&format!("{{{}}}", vec!["100000"; 20].join(","))).unwrap();
        assert!(matches!(Key::of(&long), Key::Heap(_)));
        assert_eq!(Key::of(&long).position(), long);
        let a = sum_key(&[Key::of(&Position::Int(200)), Key::of(&Position::Int(3))]);
        let b = sum_key(&[Key::of(&Position::Int(3)), Key::of(&Position::Int(200))]);
        assert_eq!(a, b);
        assert_eq!(a.position().to_string(), "sum(3, 200)");
        let nested = sum_key(&[a.clone(), Key::of(&Position::Int(7))]);
        assert_eq!(nested.parts().len(), 3);
        assert_eq!(
            sum_key(&[Key::of(&Position::Int(5))]),
            Key::of(&Position::Int(5))
        );
    }
}
