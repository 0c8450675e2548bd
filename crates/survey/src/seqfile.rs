//! Saved sequences (`--save-sequences DIR`): G(0..len) of one game in one file, so that a later
//! survey with a larger limit continues where this one stopped.
//!
//! A file is `GRUNDYSV`, the format version (u32), the rule (u32 length + UTF-8), the count
//! (u64), the value width in bytes (1, 2 or 4), the lz4-compressed little-endian values (u64
//! length + bytes), then (version 2) how the values were computed — the record engine's key
//! mask while it ran (a u8 flag + u64) and whether it had been dropped (u8) — and a CRC-32 of
//! everything before it. It is written to a temporary name, synced and renamed, so a reader
//! sees either the old file or the new one. A file that is damaged, of another rule or of an
//! unknown version is ignored (the game starts from scratch); a version-1 file gives its
//! values without their provenance. The values are checked again by the caller before use.
//!
//! The provenance is kept so that a resumed game records the row an uninterrupted survey
//! records: it continues on the engine and mask the saving run stood at, and a game resumed
//! with every value it needs (a survey killed after the file was written but before the
//! game's row was committed) reports that engine and its rare heaps, not a run that computed
//! nothing.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::family::quote;

const MAGIC: &[u8; 8] = b"GRUNDYSV";
const VERSION: u32 = 2;
/// The most values a file may claim (2^34: far beyond what fits in memory here).
const MAX_VALUES: u64 = 1 << 34;

/// The file holding the saved sequence of `rule` in `dir`: the rule with characters outside
/// `[A-Za-z0-9.,_-]` replaced, and a checksum of the rule to keep names apart.
pub fn path(dir: &Path, rule: &str) -> PathBuf {
    let safe: String = rule
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".,_-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    dir.join(format!(
        "{safe}-{:08x}.seq",
        crc32fast::hash(rule.as_bytes())
    ))
}

/// How saved values were computed (the heap family's `GrowingState`, which this crate does
/// not depend on): enough to continue the run, and to report its engine and rare heaps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The record engine's key mask, while it ran.
    pub mask: Option<u64>,
    /// The record engine had stopped paying and the reference engine had taken over.
    pub sparse_dropped: bool,
}

/// A saved sequence: G(0..values.len()) and, for a version-2 file, how it was computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The values.
    pub values: Vec<u32>,
    /// How they were computed (`None` for a version-1 file, which did not say).
    pub provenance: Option<Provenance>,
}

/// Writes G(0..values.len()) of `rule`, computed as `provenance` says, into `dir` (created if
/// needed), atomically.
pub fn save(dir: &Path, rule: &str, values: &[u32], provenance: &Provenance) -> Result<()> {
    let d = quote(&dir.display().to_string());
    fs::create_dir_all(dir)
        .map_err(|e| Error::Io(format!("cannot create the sequence directory {d}: {e}")))?;
    let max = values.iter().copied().max().unwrap_or(0);
    let width: u8 = if max < 256 {
        1
    } else if max < 65536 {
        2
    } else {
        4
    };
    let mut raw = Vec::with_capacity(values.len() * width as usize);
    for &v in values {
        raw.extend_from_slice(&v.to_le_bytes()[..width as usize]);
    }
    let packed = lz4_flex::compress_prepend_size(&raw);
    let mut bytes = Vec::with_capacity(packed.len() + 64 + rule.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(rule.len() as u32).to_le_bytes());
    bytes.extend_from_slice(rule.as_bytes());
    bytes.extend_from_slice(&(values.len() as u64).to_le_bytes());
    bytes.push(width);
    bytes.extend_from_slice(&(packed.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&packed);
    bytes.push(u8::from(provenance.mask.is_some()));
    bytes.extend_from_slice(&provenance.mask.unwrap_or(0).to_le_bytes());
    bytes.push(u8::from(provenance.sparse_dropped));
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    let target = path(dir, rule);
    let tmp = target.with_extension("seq.tmp");
    let write = || -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, &target)?;
        // The rename itself is durable once the directory is synced.
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&tmp);
        Error::Io(format!(
            "cannot write {}: {e}",
            quote(&target.display().to_string())
        ))
    })
}

/// The saved G(0..len) of `rule` in `dir`, or `None` when there is no usable file (missing,
/// damaged, another rule or an unknown version).
pub fn load(dir: &Path, rule: &str) -> Option<Saved> {
    let bytes = fs::read(path(dir, rule)).ok()?;
    parse(&bytes, rule)
}

fn parse(bytes: &[u8], rule: &str) -> Option<Saved> {
    let (body, crc) = bytes.split_at_checked(bytes.len().checked_sub(4)?)?;
    if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().ok()?) {
        return None;
    }
    let mut r = body;
    let mut take = |n: usize| -> Option<&[u8]> {
        let (a, b) = r.split_at_checked(n)?;
        r = b;
        Some(a)
    };
    if take(8)? != MAGIC {
        return None;
    }
    let version = u32::from_le_bytes(take(4)?.try_into().ok()?);
    let rule_len = u32::from_le_bytes(take(4)?.try_into().ok()?) as usize;
    if !(1..=VERSION).contains(&version) || take(rule_len)? != rule.as_bytes() {
        return None;
    }
    let count = u64::from_le_bytes(take(8)?.try_into().ok()?);
    let width = take(1)?[0] as usize;
    let packed_len = u64::from_le_bytes(take(8)?.try_into().ok()?);
    let packed = take(usize::try_from(packed_len).ok()?)?;
    let provenance = if version >= 2 {
        let has_mask = take(1)?[0];
        let mask = u64::from_le_bytes(take(8)?.try_into().ok()?);
        let mask = match has_mask {
            0 => None,
            1 => Some(mask),
            _ => return None,
        };
        let sparse_dropped = match take(1)?[0] {
            0 => false,
            1 => true,
            _ => return None,
        };
        Some(Provenance {
            mask,
            sparse_dropped,
        })
    } else {
        None
    };
    if !r.is_empty() {
        return None;
    }
    if count > MAX_VALUES || ![1, 2, 4].contains(&width) {
        return None;
    }
    let raw_len = usize::try_from(count).ok()?.checked_mul(width)?;
    // The size lz4 records must be the size the header claims before anything is allocated.
    let claimed = u32::from_le_bytes(packed.get(..4)?.try_into().ok()?) as usize;
    if claimed != raw_len {
        return None;
    }
    let raw = lz4_flex::decompress_size_prepended(packed).ok()?;
    if raw.len() != raw_len {
        return None;
    }
    let values = raw
        .chunks_exact(width)
        .map(|c| {
            let mut b = [0u8; 4];
            b[..width].copy_from_slice(c);
            u32::from_le_bytes(b)
        })
        .collect();
    Some(Saved { values, provenance })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sparse(mask: u64) -> Provenance {
        Provenance {
            mask: Some(mask),
            sparse_dropped: false,
        }
    }

    #[test]
    fn round_trip_and_damage() {
        let dir = std::env::temp_dir().join(format!("grundy-seqfile-{}", std::process::id()));
        for (values, how) in [
            (vec![0u32, 1, 2, 3, 1, 4], sparse(0b1011)),
            (vec![0, 300, 70000], sparse(0)),
            (vec![], Provenance::default()),
            (
                vec![7; 5000],
                Provenance {
                    mask: None,
                    sparse_dropped: true,
                },
            ),
        ] {
            save(&dir, "0.77", &values, &how).unwrap();
            let saved = load(&dir, "0.77").unwrap();
            assert_eq!((saved.values, saved.provenance), (values, Some(how)));
        }
        assert_eq!(load(&dir, "0.137"), None);
        let p = path(&dir, "0.77");
        let mut bytes = fs::read(&p).unwrap();
        let n = bytes.len();
        bytes[n / 2] ^= 1;
        fs::write(&p, &bytes).unwrap();
        assert_eq!(load(&dir, "0.77"), None);
        assert_ne!(path(&dir, "4!.0"), path(&dir, "4?.0"));
        let _ = fs::remove_dir_all(&dir);
    }

    /// A file of the first format (no provenance) still gives its values; an unknown version
    /// or bytes past the end are refused.
    #[test]
    fn version_1_files_give_their_values() {
        let file = |version: u32, tail: &[u8]| {
            let values = [0u8, 1, 2, 3, 1, 4];
            let packed = lz4_flex::compress_prepend_size(&values);
            let mut b = MAGIC.to_vec();
            b.extend_from_slice(&version.to_le_bytes());
            b.extend_from_slice(&4u32.to_le_bytes());
            b.extend_from_slice(b"0.77");
            b.extend_from_slice(&(values.len() as u64).to_le_bytes());
            b.push(1);
            b.extend_from_slice(&(packed.len() as u64).to_le_bytes());
            b.extend_from_slice(&packed);
            b.extend_from_slice(tail);
            let crc = crc32fast::hash(&b);
            b.extend_from_slice(&crc.to_le_bytes());
            b
        };
        let v1 = parse(&file(1, &[]), "0.77").unwrap();
        assert_eq!(v1.values, vec![0, 1, 2, 3, 1, 4]);
        assert_eq!(v1.provenance, None);
        assert_eq!(parse(&file(1, &[0]), "0.77"), None);
        assert_eq!(parse(&file(3, &[]), "0.77"), None);
        // Version 2 needs its provenance, with a flag of 0 or 1.
        assert_eq!(parse(&file(2, &[]), "0.77"), None);
        let mut tail = vec![2];
        tail.extend_from_slice(&0b1011u64.to_le_bytes());
        tail.push(0);
        assert_eq!(parse(&file(2, &tail), "0.77"), None);
        tail[0] = 1;
        assert_eq!(
            parse(&file(2, &tail), "0.77").unwrap().provenance,
            Some(sparse(0b1011))
        );
        let n = tail.len();
        tail[n - 1] = 2;
        assert_eq!(parse(&file(2, &tail), "0.77"), None);
    }
}
