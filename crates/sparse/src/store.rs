//! Durable files: checkpoints (resume a run exactly where it stopped) and saved sequences
//! (`--save DIR`, for later queries). Both are a directory of immutable compressed chunks of
//! [`CHUNK`] values plus one small state file naming the rule, the target, the progress and
//! the values past the last whole chunk.
//!
//! Every file is written to a temporary name, fsynced, renamed over the old one and the
//! directory fsynced, so a crash (kill -9, power loss) leaves either the old or the new file,
//! never a torn one. Every file ends with a CRC-32 of all its bytes and starts with a magic, a
//! format version and the rule; anything that does not match is refused with a message saying
//! why, never used. If the disk fills up, the write fails with a clear error and the previous
//! state file stays in place.
//!
//! A checksum only proves that a file is whole, not that its numbers are honest (a forged file
//! can carry a valid one), so every size, count and value is checked before it is used or
//! memory is set aside for it: files are at most [`MAX_FILE_BYTES`], a payload's size prefix
//! must be exactly the values its header promises (never more than a chunk), the chunk files a
//! state names must exist before room for their values is reserved, and every value must be
//! one the rule can produce (at most the number of options of its heap, at most the smallest
//! power of two above every earlier value, and at most [`MAX_VALUE`]). Anything else is
//! [`Error::BadFile`].

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use grundy_heap::rule::format_code;
use grundy_heap::TakeBreak;

use crate::error::Error;
use crate::plan::Plan;

/// Values per chunk file.
pub const CHUNK: u64 = 1 << 22;
/// The largest value a file may hold: the engine sizes tables by the next power of two above
/// its largest value, which must fit a u32.
pub const MAX_VALUE: u32 = (1 << 31) - 1;
/// The largest chunk or state file: a chunk's values compressed in lz4's worst case, plus room
/// for the header and a long rule. Larger files are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 4 * CHUNK + 4 * CHUNK / 255 + (1 << 20);
/// Below the smallest chunk file (lz4 packs at most about 255 bytes into one, so a chunk's 4·[`CHUNK`]
/// bytes take at least 4·CHUNK/255; half that leaves a margin). A state naming chunks smaller than this is refused before
/// room is reserved for their values.
pub(crate) const MIN_CHUNK_BYTES: u64 = 4 * CHUNK / 512;
/// Version of the file layout; files of another version are refused.
pub const FORMAT_VERSION: u32 = 1;
const CHUNK_MAGIC: &[u8; 8] = b"GRUNDYCH";
const STATE_MAGIC: &[u8; 8] = b"GRUNDYST";
/// Name of the state file inside a checkpoint or save directory.
pub const STATE_FILE: &str = "state.bin";

/// What a state file says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The canonical code (`format_code`).
    pub rule: String,
    /// The run's target: G(0..=target).
    pub target: u64,
    /// Heaps known: G(0..done).
    pub done: u64,
    /// The engine's mask when the state was written (speed only).
    pub mask: u64,
}

/// A checkpoint or save directory for one code and target.
pub struct Store {
    dir: PathBuf,
    rule: String,
    target: u64,
    /// Whole chunks known to be on disk.
    chunks_written: u64,
    /// The moves of the rule, bounding the values its files may hold (None: a code the sparse
    /// engine does not run, whose values are only checked against [`MAX_VALUE`]).
    plan: Option<Plan>,
}

/// True when heap `n` cannot have the value `v`: more than `plan`'s rule can give it (see
/// [`Plan::options_bound`]; any value without a plan) or more than the engine can hold.
pub(crate) fn impossible(plan: Option<&Plan>, n: u64, v: u32) -> bool {
    v > MAX_VALUE || plan.is_some_and(|p| u64::from(v) > p.options_bound(n))
}

/// Checks that `values`, G(first..first + len), are values `plan`'s rule can give those heaps
/// (see [`Plan::options_bound`]) and that the engine can hold.
pub(crate) fn check_values(
    plan: Option<&Plan>,
    first: u64,
    values: &[u32],
    what: &str,
) -> Result<(), Error> {
    for (n, &v) in (first..).zip(values) {
        if impossible(plan, n, v) {
            return Err(Error::BadFile(format!(
                "{what} is corrupt: it gives heap {n} the value {v}, which the rule cannot produce; refusing to use it"
            )));
        }
    }
    Ok(())
}

/// Reads a whole chunk or state file, refusing one larger than [`MAX_FILE_BYTES`] before
/// reading it. `Ok(None)` when it does not exist.
fn read_limited(path: &Path) -> Result<Option<Vec<u8>>, Error> {
    use std::io::Read;
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::Io {
                context: format!("reading {}", path.display()),
                source: e,
            })
        }
    };
    let too_large = || {
        Error::BadFile(format!(
            "{} is larger than any grundy checkpoint file; refusing to use it",
            path.display()
        ))
    };
    let size = file
        .metadata()
        .map_err(Error::io(format!("reading {}", path.display())))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(Error::io(format!("reading {}", path.display())))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(Some(bytes))
}

/// A rule read from a file, for a one-line message: control characters escaped, at most 200
/// characters (a forged file may hold anything there).
fn escaped(rule: &str) -> String {
    let mut s: String = rule.escape_debug().take(200).collect();
    if rule.escape_debug().nth(200).is_some() {
        s.push('…');
    }
    s
}

fn chunk_name(index: u64) -> String {
    format!("chunk-{index:08}.bin")
}

/// Bytes of a u32 little-endian sequence, lz4-compressed.
fn pack(values: &[u32]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(values.len() * 4);
    for v in values {
        raw.extend_from_slice(&v.to_le_bytes());
    }
    lz4_flex::compress_prepend_size(&raw)
}

/// The `expect` values packed in `bytes` (at most a chunk). The size prefix is checked
/// against `expect` before anything is allocated.
fn unpack(bytes: &[u8], expect: u64, what: &str) -> Result<Vec<u32>, Error> {
    if expect > CHUNK {
        return Err(Error::BadFile(format!(
            "{what}: claims {expect} values in one piece, more than a chunk"
        )));
    }
    let want = (expect * 4) as usize;
    let Some(prefix) = bytes.get(..4) else {
        return Err(Error::BadFile(format!("{what} is truncated")));
    };
    let stated = u32::from_le_bytes(prefix.try_into().expect("4 bytes")) as usize;
    if stated != want {
        return Err(Error::BadFile(format!(
            "{what}: holds {} bytes of values, expected {want} ({expect} values)",
            stated
        )));
    }
    let raw = lz4_flex::block::decompress(&bytes[4..], want)
        .map_err(|e| Error::BadFile(format!("{what}: compressed data is damaged ({e})")))?;
    if raw.len() != want {
        return Err(Error::BadFile(format!(
            "{what}: holds {} values, expected {expect}",
            raw.len() / 4
        )));
    }
    Ok(raw
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

/// A little reader over a verified byte buffer.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: String,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Error> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let out = &self.bytes[self.at..end];
                self.at = end;
                Ok(out)
            }
            None => Err(Error::BadFile(format!("{} is truncated", self.what))),
        }
    }
    fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

/// Checks magic, checksum and version; returns a reader positioned after the version and the
/// rule stored in the file.
fn open_checked<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    what: &str,
) -> Result<(Reader<'a>, String), Error> {
    if bytes.len() < 16 || &bytes[..8] != magic {
        let kind = if bytes.len() >= 8 && (&bytes[..8] == CHUNK_MAGIC || &bytes[..8] == STATE_MAGIC)
        {
            "a grundy file of another kind"
        } else if bytes.len() < 16 {
            "truncated or empty"
        } else {
            "not a grundy checkpoint file"
        };
        return Err(Error::BadFile(format!(
            "{what} is {kind}; refusing to use it"
        )));
    }
    let body = &bytes[..bytes.len() - 4];
    let stored = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"));
    if crc32fast::hash(body) != stored {
        return Err(Error::BadFile(format!(
            "{what} is corrupt or truncated (checksum mismatch); refusing to use it"
        )));
    }
    let mut r = Reader {
        bytes: body,
        at: 8,
        what: what.to_string(),
    };
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(Error::BadFile(format!(
            "{what} has format version {version}; this grundy reads version {FORMAT_VERSION}"
        )));
    }
    let len = r.u32()? as usize;
    let rule = String::from_utf8(r.take(len)?.to_vec())
        .map_err(|_| Error::BadFile(format!("{what}: the rule is not text")))?;
    Ok((r, rule))
}

fn header(magic: &[u8; 8], rule: &str) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(magic);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(rule.len() as u32).to_le_bytes());
    out.extend_from_slice(rule.as_bytes());
    out
}

fn finish(mut bytes: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

/// Writes `bytes` to `dir/name` durably: temporary file, fsync, rename, fsync of the directory.
fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Error> {
    let tmp = dir.join(format!(".{name}.tmp"));
    let path = dir.join(name);
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, &path)?;
        File::open(dir)?.sync_all()
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(Error::Io {
            context: format!(
                "writing {} (the previous file, if any, is intact)",
                path.display()
            ),
            source: e,
        });
    }
    Ok(())
}

impl Store {
    /// Opens (creating if needed) the directory for a run of `code` to `target`.
    pub fn open(dir: &Path, code: &TakeBreak, target: u64) -> Result<Store, Error> {
        // `create_dir_all` on an existing file says only "File exists".
        if fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
            return Err(Error::BadFile(format!(
                "{} is not a directory (checkpoints and saves are directories)",
                dir.display()
            )));
        }
        fs::create_dir_all(dir).map_err(Error::io(format!("creating {}", dir.display())))?;
        Ok(Store {
            dir: dir.to_path_buf(),
            rule: format_code(code),
            target,
            chunks_written: 0,
            plan: Plan::new(code).ok(),
        })
    }

    /// The state file's path.
    pub fn state_path(&self) -> PathBuf {
        self.dir.join(STATE_FILE)
    }

    /// Reads the state file, checking that it belongs to this rule and target.
    /// `Ok(None)` when there is none yet.
    pub fn read_state(&self) -> Result<Option<(State, Vec<u32>)>, Error> {
        let path = self.state_path();
        let Some(bytes) = read_limited(&path)? else {
            return Ok(None);
        };
        let what = path.display().to_string();
        let (mut r, rule) = open_checked(&bytes, STATE_MAGIC, &what)?;
        let target = r.u64()?;
        let done = r.u64()?;
        let mask = r.u64()?;
        let len = r.u64()?;
        let tail_bytes = r.take(usize::try_from(len).unwrap_or(usize::MAX))?;
        if rule != self.rule {
            return Err(Error::BadFile(format!(
                "{what} is a checkpoint of rule {}, not {}; use another directory",
                escaped(&rule),
                self.rule
            )));
        }
        if done > target.saturating_add(1) {
            return Err(Error::BadFile(format!(
                "{what} claims more heaps than its target"
            )));
        }
        // A run to another target continues from here (a finished run extended, an unfinished
        // one retargeted), unless the directory already holds more than the run would keep:
        // writing the run's state would then drop values, and its chunks would outlive it.
        if done > self.target.saturating_add(1) {
            return Err(Error::BadFile(format!(
                "{what} holds G(0..={}) of rule {}, more than a run to {} keeps; run to at least {} or use another directory",
                done - 1,
                self.rule,
                self.target,
                done - 1
            )));
        }
        let tail = unpack(tail_bytes, done % CHUNK, &what)?;
        check_values(self.plan.as_ref(), done - done % CHUNK, &tail, &what)?;
        Ok(Some((
            State {
                rule,
                target,
                done,
                mask,
            },
            tail,
        )))
    }

    /// Reads and checks chunk `index`.
    pub fn read_chunk(&self, index: u64) -> Result<Vec<u32>, Error> {
        let path = self.dir.join(chunk_name(index));
        let what = path.display().to_string();
        let missing = || {
            Error::BadFile(format!(
                "{what} cannot be read (it does not exist); the checkpoint is incomplete"
            ))
        };
        let bytes = read_limited(&path)?.ok_or_else(missing)?;
        let (mut r, rule) = open_checked(&bytes, CHUNK_MAGIC, &what)?;
        if rule != self.rule {
            return Err(Error::BadFile(format!(
                "{what} belongs to rule {}, not {}",
                escaped(&rule),
                self.rule
            )));
        }
        let i = r.u64()?;
        let count = r.u64()?;
        let len = r.u64()?;
        if i != index || count != CHUNK {
            return Err(Error::BadFile(format!(
                "{what} holds chunk {i} of {count} values, expected chunk {index}"
            )));
        }
        let values = unpack(
            r.take(usize::try_from(len).unwrap_or(usize::MAX))?,
            CHUNK,
            &what,
        )?;
        check_values(self.plan.as_ref(), index * CHUNK, &values, &what)?;
        Ok(values)
    }

    /// Loads a whole saved run: the state and every value G(0..done). `Ok(None)` without state.
    pub fn load(&mut self) -> Result<Option<(State, Vec<u32>)>, Error> {
        let mut values = Vec::new();
        let state = self.load_each(&mut |state, chunk| {
            // load_each checked that the chunks this needs are on disk before the first call.
            values.reserve_exact((state.done as usize).saturating_sub(values.len()));
            values.extend_from_slice(chunk);
        })?;
        Ok(state.map(|s| (s, values)))
    }

    /// Reads a saved run a chunk at a time: calls `each(state, chunk)` with G(0..done) in order,
    /// so at most one chunk is held besides what `each` keeps (a resume stores 1 or 2 bytes a
    /// heap, not a u32 copy). `Ok(None)` without state.
    ///
    /// Before the first call every chunk the state names is known to be on disk with a
    /// plausible size (so `each` may reserve room for `state.done` values), and every value
    /// passed is checked against its predecessors (no value exceeds the smallest power of two
    /// above every earlier one: a mex of xors of smaller values cannot); a bad file stops the
    /// load with [`Error::BadFile`] (values already passed must then be discarded).
    pub fn load_each(
        &mut self,
        each: &mut dyn FnMut(&State, &[u32]),
    ) -> Result<Option<State>, Error> {
        let Some((state, tail)) = self.read_state()? else {
            return Ok(None);
        };
        let chunks = state.done / CHUNK;
        for k in 0..chunks {
            let path = self.dir.join(chunk_name(k));
            let size = fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            if !(MIN_CHUNK_BYTES..=MAX_FILE_BYTES).contains(&size) {
                return Err(Error::BadFile(format!(
                    "{} claims {} heaps, but {} is missing or of the wrong size; the checkpoint is incomplete",
                    self.state_path().display(),
                    state.done,
                    path.display()
                )));
            }
        }
        let mut running = RunningBound::default();
        for k in 0..chunks {
            let chunk = self.read_chunk(k)?;
            running.check(k * CHUNK, &chunk, &self.dir.join(chunk_name(k)))?;
            each(&state, &chunk);
        }
        running.check(chunks * CHUNK, &tail, &self.state_path())?;
        each(&state, &tail);
        self.chunks_written = chunks;
        Ok(Some(state))
    }

    /// Writes the chunks completed since the last call, then the state: after it returns, a
    /// reader sees G(0..done). `values(from, to)` supplies G(from..to).
    pub fn write(
        &mut self,
        done: u64,
        mask: u64,
        values: &dyn Fn(u64, u64) -> Vec<u32>,
    ) -> Result<(), Error> {
        let chunks = done / CHUNK;
        self.write_chunks(done, values)?;
        let tail = pack(&values(chunks * CHUNK, done));
        let mut bytes = header(STATE_MAGIC, &self.rule);
        for x in [self.target, done, mask, tail.len() as u64] {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        bytes.extend_from_slice(&tail);
        write_atomic(&self.dir, STATE_FILE, &finish(bytes))
    }

    /// Writes the whole chunks of G(0..done) not yet on disk (no state file); returns how many
    /// values are durable in chunks: G(0..returned).
    pub fn write_chunks(
        &mut self,
        done: u64,
        values: &dyn Fn(u64, u64) -> Vec<u32>,
    ) -> Result<u64, Error> {
        let chunks = done / CHUNK;
        while self.chunks_written < chunks {
            let k = self.chunks_written;
            let payload = pack(&values(k * CHUNK, (k + 1) * CHUNK));
            let mut bytes = header(CHUNK_MAGIC, &self.rule);
            bytes.extend_from_slice(&k.to_le_bytes());
            bytes.extend_from_slice(&CHUNK.to_le_bytes());
            bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
            bytes.extend_from_slice(&payload);
            write_atomic(&self.dir, &chunk_name(k), &finish(bytes))?;
            self.chunks_written += 1;
        }
        Ok(self.chunks_written * CHUNK)
    }

    /// Values durable in whole chunks written or loaded by this store: G(0..returned).
    pub fn durable(&self) -> u64 {
        self.chunks_written * CHUNK
    }
}

/// The bound every value of a sequence read in order obeys: G(n) is at most the smallest power
/// of two above G(0..n) (the options' values are xors of smaller values, or 0).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RunningBound {
    max: u32,
}

impl RunningBound {
    /// The first heap of G(first..) = `values` that breaks the bound, with its value.
    pub(crate) fn first_bad(&mut self, first: u64, values: &[u32]) -> Option<(u64, u32)> {
        for (n, &v) in (first..).zip(values) {
            let cap = (u64::from(self.max) + 1).next_power_of_two();
            if u64::from(v) > cap {
                return Some((n, v));
            }
            self.max = self.max.max(v);
        }
        None
    }

    fn check(&mut self, first: u64, values: &[u32], path: &Path) -> Result<(), Error> {
        match self.first_bad(first, values) {
            None => Ok(()),
            Some((n, v)) => Err(Error::BadFile(format!(
                "{} is corrupt: it gives heap {n} the value {v}, more than its smaller heaps allow; refusing to use it",
                path.display()
            ))),
        }
    }
}

/// Reads single values from the whole chunks of a checkpoint or save directory (the memory
/// window's gap source), caching the two chunks read last.
pub(crate) struct ChunkReader {
    store: Store,
    cache: [Option<(u64, Vec<u32>)>; 2],
    next: usize,
}

impl ChunkReader {
    /// A reader over the chunks in `dir` of `code`.
    pub(crate) fn new(dir: &Path, code: &TakeBreak) -> ChunkReader {
        ChunkReader {
            store: Store {
                dir: dir.to_path_buf(),
                rule: format_code(code),
                target: 0,
                chunks_written: 0,
                plan: Plan::new(code).ok(),
            },
            cache: [None, None],
            next: 0,
        }
    }

    /// G(n) from its chunk (read and checked on first use).
    pub fn get(&mut self, n: u64) -> Result<u32, Error> {
        let k = n / CHUNK;
        let at = (n % CHUNK) as usize;
        for c in self.cache.iter().flatten() {
            if c.0 == k {
                return Ok(c.1[at]);
            }
        }
        let values = self.store.read_chunk(k)?;
        let v = values[at];
        self.cache[self.next] = Some((k, values));
        self.next ^= 1;
        Ok(v)
    }
}

/// Reads the state file of a checkpoint or save directory, whatever its rule: the rule, the
/// run's target and the heaps it holds (G(0..done)), checked (magic, version, checksum, a
/// canonical rule, no more heaps than the target) but without reading any chunk. Nothing is
/// created: a directory without a state file is [`Error::BadFile`] saying so.
///
/// ```
/// let code = grundy_heap::rule::parse_code("0.07").unwrap();
/// let dir = std::env::temp_dir().join(format!("grundy-inspect-doc-{}", std::process::id()));
/// let mut opts = grundy_sparse::RunOptions {
///     upto: 500,
///     threads: 1,
///     checkpoint: None,
///     checkpoint_every: std::time::Duration::from_secs(300),
///     save: Some(dir.clone()),
///     find_period: false,
///     window: false,
///     window_depth: None,
/// };
/// grundy_sparse::run(&code, &opts, &mut |_| true).unwrap();
/// let state = grundy_sparse::inspect(&dir).unwrap();
/// assert_eq!((state.rule.as_str(), state.target, state.done), ("0.07", 500, 501));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn inspect(dir: &Path) -> Result<State, Error> {
    let path = dir.join(STATE_FILE);
    let what = path.display().to_string();
    let bytes = read_limited(&path)?.ok_or_else(|| {
        Error::BadFile(format!(
            "{} holds no grundy checkpoint or save (no {STATE_FILE} in it)",
            dir.display()
        ))
    })?;
    let (mut r, rule) = open_checked(&bytes, STATE_MAGIC, &what)?;
    let target = r.u64()?;
    let done = r.u64()?;
    let mask = r.u64()?;
    let canonical = grundy_heap::rule::parse_code(&rule)
        .ok()
        .is_some_and(|c| format_code(&c) == rule);
    if !canonical {
        return Err(Error::BadFile(format!(
            "{what} names the rule {}, which is not a take-and-break code; refusing to use it",
            escaped(&rule)
        )));
    }
    if done > target.saturating_add(1) {
        return Err(Error::BadFile(format!(
            "{what} claims more heaps than its target"
        )));
    }
    Ok(State {
        rule,
        target,
        done,
        mask,
    })
}

/// A saved sequence (`--save DIR`) opened for queries.
pub struct Saved {
    store: Store,
    state: State,
    tail: Vec<u32>,
    cache: Option<(u64, Vec<u32>)>,
}

impl Saved {
    /// Opens a save directory of `code` (any target); checks the state file.
    pub fn open(dir: &Path, code: &TakeBreak) -> Result<Saved, Error> {
        let path = dir.join(STATE_FILE);
        let bytes = read_limited(&path)?.ok_or_else(|| Error::Io {
            context: format!("reading {}", path.display()),
            source: std::io::ErrorKind::NotFound.into(),
        })?;
        let (mut r, _) = open_checked(&bytes, STATE_MAGIC, &path.display().to_string())?;
        let target = r.u64()?;
        let mut store = Store::open(dir, code, target)?;
        let (state, tail) = store
            .read_state()?
            .ok_or_else(|| Error::BadFile(format!("{} vanished", path.display())))?;
        store.chunks_written = state.done / CHUNK;
        Ok(Saved {
            store,
            state,
            tail,
            cache: None,
        })
    }

    /// What the state file says: the rule, the run's target, the heaps saved.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// G(from..to) from the saved chunks, `to` at most [`Saved::len`] (else
    /// [`Error::TooLarge`] naming what the directory holds).
    pub fn values(&mut self, from: u64, to: u64) -> Result<Vec<u32>, Error> {
        if to > self.state.done || from > to {
            return Err(Error::TooLarge(format!(
                "{} holds G(0..{}), not G({from}..{to})",
                self.store.dir.display(),
                self.state.done
            )));
        }
        let mut out = Vec::with_capacity(usize::try_from(to - from).unwrap_or(0));
        let mut n = from;
        while n < to {
            let k = n / CHUNK;
            let end = ((k + 1) * CHUNK).min(to);
            let (a, b) = ((n - k * CHUNK) as usize, (end - k * CHUNK) as usize);
            if k == self.state.done / CHUNK {
                out.extend_from_slice(&self.tail[a..b]);
            } else {
                if self.cache.as_ref().map(|c| c.0) != Some(k) {
                    self.cache = Some((k, self.store.read_chunk(k)?));
                }
                let chunk = self.cache.as_ref().map_or(&[][..], |c| &c.1[..]);
                out.extend_from_slice(&chunk[a..b]);
            }
            n = end;
        }
        Ok(out)
    }

    /// Heaps saved: G(0..len()).
    pub fn len(&self) -> u64 {
        self.state.done
    }

    /// True when nothing was saved.
    pub fn is_empty(&self) -> bool {
        self.state.done == 0
    }

    /// G(n) from the saved chunks (reads and checks one chunk at a time).
    pub fn get(&mut self, n: u64) -> Result<Option<u32>, Error> {
        if n >= self.state.done {
            return Ok(None);
        }
        let k = n / CHUNK;
        if k == self.state.done / CHUNK {
            return Ok(Some(self.tail[(n % CHUNK) as usize]));
        }
        if self.cache.as_ref().map(|c| c.0) != Some(k) {
            self.cache = Some((k, self.store.read_chunk(k)?));
        }
        Ok(self.cache.as_ref().map(|c| c.1[(n % CHUNK) as usize]))
    }
}
