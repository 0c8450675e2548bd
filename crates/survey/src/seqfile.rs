//! Saved sequences (`--save-sequences DIR`): G(0..len) of one game in one file, so that a later
//! survey with a larger limit continues where this one stopped.
//!
//! A file is `GRUNDYSV`, the format version (u32), the rule (u32 length + UTF-8), the count
//! (u64), the value width in bytes (1, 2 or 4), the lz4-compressed little-endian values (u64
//! length + bytes) and a CRC-32 of everything before it. It is written to a temporary name,
//! synced and renamed, so a reader sees either the old file or the new one. A file that is
//! damaged, of another rule or of another version is ignored (the game starts from scratch);
//! the values it holds are checked again by the caller before use.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::family::quote;

const MAGIC: &[u8; 8] = b"GRUNDYSV";
const VERSION: u32 = 1;
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

/// Writes G(0..values.len()) of `rule` into `dir` (created if needed), atomically.
pub fn save(dir: &Path, rule: &str, values: &[u32]) -> Result<()> {
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
/// damaged, another rule or version).
pub fn load(dir: &Path, rule: &str) -> Option<Vec<u32>> {
    let bytes = fs::read(path(dir, rule)).ok()?;
    parse(&bytes, rule)
}

fn parse(bytes: &[u8], rule: &str) -> Option<Vec<u32>> {
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
    if version != VERSION || take(rule_len)? != rule.as_bytes() {
        return None;
    }
    let count = u64::from_le_bytes(take(8)?.try_into().ok()?);
    let width = take(1)?[0] as usize;
    let packed_len = u64::from_le_bytes(take(8)?.try_into().ok()?);
    let packed = take(usize::try_from(packed_len).ok()?)?;
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
    Some(
        raw.chunks_exact(width)
            .map(|c| {
                let mut b = [0u8; 4];
                b[..width].copy_from_slice(c);
                u32::from_le_bytes(b)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage() {
        let dir = std::env::temp_dir().join(format!("grundy-seqfile-{}", std::process::id()));
        for values in [vec![0u32, 1, 2, 3, 1, 4], vec![0, 300, 70000], vec![]] {
            save(&dir, "0.77", &values).unwrap();
            assert_eq!(load(&dir, "0.77"), Some(values));
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
}
