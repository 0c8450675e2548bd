//! Forged and corrupt checkpoints (fuzz findings): files whose checksum is valid but whose
//! sizes, counts or values are not honest are refused with `Error::BadFile`, without a panic
//! and without allocating what the forged numbers claim.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{code, grundys_game};
use grundy_heap::rule::format_code;
use grundy_heap::TakeBreak;
use grundy_sparse::{Error, RunOptions, Saved, Store, CHUNK, FORMAT_VERSION, STATE_FILE};

/// Forges checkpoint files in the documented layout (see `store.rs`): magic, format version,
/// rule, the kind's fields, the payload, and a CRC-32 of everything before it, always correct.
struct Forge {
    rule: String,
}

impl Forge {
    fn new(code: &TakeBreak) -> Forge {
        Forge {
            rule: format_code(code),
        }
    }

    fn header(&self, magic: &[u8; 8]) -> Vec<u8> {
        let mut out = magic.to_vec();
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.rule.len() as u32).to_le_bytes());
        out.extend_from_slice(self.rule.as_bytes());
        out
    }

    fn seal(mut bytes: Vec<u8>) -> Vec<u8> {
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// Values as the store packs them: u32 little-endian, lz4 with a size prefix.
    fn pack(values: &[u32]) -> Vec<u8> {
        let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        lz4_flex::compress_prepend_size(&raw)
    }

    /// A packed payload whose size prefix says `stated` bytes.
    fn pack_claiming(values: &[u32], stated: u32) -> Vec<u8> {
        let mut p = Forge::pack(values);
        p[..4].copy_from_slice(&stated.to_le_bytes());
        p
    }

    fn state(&self, target: u64, done: u64, mask: u64, payload: &[u8]) -> Vec<u8> {
        let mut b = self.header(b"GRUNDYST");
        for x in [target, done, mask, payload.len() as u64] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(payload);
        Forge::seal(b)
    }

    fn chunk(&self, index: u64, count: u64, payload: &[u8]) -> Vec<u8> {
        let mut b = self.header(b"GRUNDYCH");
        for x in [index, count, payload.len() as u64] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(payload);
        Forge::seal(b)
    }
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-forged-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn opts(upto: u64, dir: &Path) -> RunOptions {
    RunOptions {
        upto,
        threads: 2,
        checkpoint: Some(dir.to_path_buf()),
        checkpoint_every: Duration::from_secs(3600),
        save: None,
        find_period: false,
        window: false,
        window_depth: None,
    }
}

/// Resuming from `dir` must fail with BadFile (and never panic); returns the message.
fn refused(code: &TakeBreak, upto: u64, dir: &Path) -> String {
    let out =
        std::panic::catch_unwind(|| grundy_sparse::run(code, &opts(upto, dir), &mut |_| true));
    match out {
        Ok(Err(Error::BadFile(msg))) => msg,
        Ok(Err(e)) => panic!("expected BadFile, got {e:?}"),
        Ok(Ok(_)) => panic!("the forged checkpoint was accepted"),
        Err(_) => panic!("the forged checkpoint panicked"),
    }
}

/// A genuine sequence with one value replaced.
fn genuine_with(code: &TakeBreak, n: u64, at: usize, value: u32) -> Vec<u32> {
    let mut v = grundy_sparse::values(code, n - 1, 1).unwrap();
    v[at] = value;
    v
}

/// The helper itself writes what the store writes: an honest forged checkpoint resumes.
#[test]
fn honest_forgery_is_accepted() {
    let g = grundys_game();
    let dir = fresh_dir("honest");
    let values = grundy_sparse::values(&g, 999, 1).unwrap();
    let f = Forge::new(&g);
    std::fs::write(
        dir.join(STATE_FILE),
        f.state(3000, 1000, 2, &Forge::pack(&values)),
    )
    .unwrap();
    let out = grundy_sparse::run(&g, &opts(3000, &dir), &mut |_| true).unwrap();
    assert_eq!(out.resumed_at, 1000);
    assert_eq!(
        out.engine.values(),
        grundy_sparse::values(&g, 3000, 1).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The fuzz finding: a value >= 32768 with a valid checksum reached the engine and hit an
/// assertion in the marking kernel.
#[test]
fn value_beyond_the_rule_is_refused() {
    let g = grundys_game();
    let f = Forge::new(&g);
    for (at, value) in [(5, 40_000), (500, 32_768), (999, u32::MAX), (0, 1), (3, 2)] {
        let dir = fresh_dir("value");
        let values = genuine_with(&g, 1000, at, value);
        std::fs::write(
            dir.join(STATE_FILE),
            f.state(3000, 1000, 2, &Forge::pack(&values)),
        )
        .unwrap();
        let msg = refused(&g, 3000, &dir);
        assert!(msg.contains(&format!("heap {at}")), "{msg}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A value within the options of its heap but more than twice every earlier value: no mex of
/// xors of smaller values can give it.
#[test]
fn value_jumping_over_its_predecessors_is_refused() {
    let c = code("0.16");
    let f = Forge::new(&c);
    let dir = fresh_dir("jump");
    let mut values = vec![0u32; 100];
    values[60] = 9;
    std::fs::write(
        dir.join(STATE_FILE),
        f.state(500, 100, 2, &Forge::pack(&values)),
    )
    .unwrap();
    let msg = refused(&c, 500, &dir);
    assert!(msg.contains("heap 60"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Values no file check can tell from honest ones (within every bound) but past u16 still run:
/// the engine computes on (wrong values in, wrong values out) without a panic.
#[test]
fn plausible_large_values_do_not_panic() {
    let g = grundys_game();
    let f = Forge::new(&g);
    let dir = fresh_dir("plausible");
    // G(n) = (n - 1) / 2 for n >= 1: at most the options, at most twice the values before.
    let done = 70_000u64;
    let values: Vec<u32> = (0..done)
        .map(|n| (n.saturating_sub(1) / 2) as u32)
        .collect();
    std::fs::write(
        dir.join(STATE_FILE),
        f.state(done + 99, done, 2, &Forge::pack(&values)),
    )
    .unwrap();
    let out =
        std::panic::catch_unwind(|| grundy_sparse::run(&g, &opts(done + 99, &dir), &mut |_| true));
    let out = out.expect("no panic").expect("runs");
    assert_eq!(out.engine.len(), done + 100);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A size prefix claiming about 4 GB (lz4_flex would allocate it before decompressing).
#[test]
fn forged_size_prefix_is_refused() {
    let g = grundys_game();
    let f = Forge::new(&g);
    let values = grundy_sparse::values(&g, 999, 1).unwrap();
    for stated in [u32::MAX, 0xFFFF_FFF0, 3999, 4004, 0] {
        let dir = fresh_dir("prefix");
        let payload = Forge::pack_claiming(&values, stated);
        std::fs::write(dir.join(STATE_FILE), f.state(3000, 1000, 2, &payload)).unwrap();
        refused(&g, 3000, &dir);
        let _ = std::fs::remove_dir_all(&dir);
    }
    // A payload shorter than its prefix, and one with no prefix at all.
    for payload in [vec![0u8, 1], Vec::new()] {
        let dir = fresh_dir("prefix-short");
        std::fs::write(dir.join(STATE_FILE), f.state(3000, 1000, 2, &payload)).unwrap();
        refused(&g, 3000, &dir);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A state claiming 2^34 heaps done (a 64 GB load) with no chunks on disk is refused before
/// room for them is reserved, by every reader.
#[test]
fn forged_heap_count_is_refused_before_allocating() {
    let g = grundys_game();
    let f = Forge::new(&g);
    let dir = fresh_dir("count");
    let huge = 1u64 << 34;
    std::fs::write(
        dir.join(STATE_FILE),
        f.state(huge, huge, 2, &Forge::pack(&[])),
    )
    .unwrap();
    refused(&g, huge, &dir);
    let load = Store::open(&dir, &g, huge).unwrap().load();
    assert!(
        matches!(load, Err(Error::BadFile(_))),
        "{:?}",
        load.map(|_| ())
    );
    // Saved holds only the state; a value from a missing chunk is an error, not a panic.
    let mut saved = Saved::open(&dir, &g).unwrap();
    assert_eq!(saved.len(), huge);
    assert!(matches!(saved.get(123), Err(Error::BadFile(_))));
    // A count beyond the target, and a tail claiming more values than a chunk.
    std::fs::write(
        dir.join(STATE_FILE),
        f.state(100, 1000, 2, &Forge::pack(&[])),
    )
    .unwrap();
    refused(&g, 100, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Chunks whose index, count, size or values are forged (valid checksums) are refused.
#[test]
fn forged_chunks_are_refused() {
    let g = code("0.16");
    let f = Forge::new(&g);
    let done = CHUNK + 10;
    let tail = grundy_sparse::values(&g, done - 1, 1).unwrap()[CHUNK as usize..].to_vec();
    let state = f.state(done + 100, done, 2, &Forge::pack(&tail));
    let zeros = vec![0u32; CHUNK as usize];
    let mut high = zeros.clone();
    high[1000] = 1 << 20;
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("index", f.chunk(1, CHUNK, &Forge::pack(&zeros))),
        ("count", f.chunk(0, 1 << 40, &Forge::pack(&zeros))),
        ("short", f.chunk(0, CHUNK, &Forge::pack(&zeros[..1000]))),
        (
            "prefix",
            f.chunk(0, CHUNK, &Forge::pack_claiming(&zeros, u32::MAX)),
        ),
        ("value", f.chunk(0, CHUNK, &Forge::pack(&high))),
    ];
    for (what, chunk) in cases {
        let dir = fresh_dir(&format!("chunk-{what}"));
        std::fs::write(dir.join(STATE_FILE), &state).unwrap();
        std::fs::write(dir.join("chunk-00000000.bin"), chunk).unwrap();
        let msg = refused(&g, done + 100, &dir);
        assert!(msg.contains("chunk-00000000"), "{what}: {msg}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A state file larger than any the store writes is refused before it is read.
#[test]
fn oversized_file_is_refused_unread() {
    let g = grundys_game();
    let dir = fresh_dir("big");
    let file = std::fs::File::create(dir.join(STATE_FILE)).unwrap();
    file.set_len(grundy_sparse::MAX_FILE_BYTES + 1).unwrap();
    let msg = refused(&g, 1000, &dir);
    assert!(msg.contains("larger than"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Values handed to the engine directly are checked the same way.
#[test]
fn engine_from_impossible_values_is_refused() {
    let g = grundys_game();
    let mut v = grundy_sparse::values(&g, 999, 1).unwrap();
    v[700] = 60_000;
    assert!(matches!(
        grundy_sparse::Engine::from_values(&g, &v, 2),
        Err(Error::BadFile(_))
    ));
}
