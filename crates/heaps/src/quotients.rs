//! Misère quotients kept between calls: in this process, and in a directory the caller names
//! (the CLI's cache directory) between processes.
//!
//! A quotient is computed as far as a question needs (the largest heap of a sum) and no
//! further, except that the engine stops learning as soon as it proves Φ periodic: that
//! quotient answers every heap, of any size. Whatever was computed is kept, so the next
//! question resumes where the last one stopped, and a proven quotient is never computed again.
//!
//! **In memory**: the last [`MEMORY_ENTRIES`] rules' quotients (at most [`MEMORY_BYTES`]
//! together), shared by every thread. What
//! they hold was verified when computed; they change no answer, only how fast it comes.
//!
//! **On disk** (the one I/O of this crate; ARCHITECTURE.md lists it): one file a rule,
//! `misere-<rule>-<crc>.quotient` in the directory, written to a temporary name, synced and
//! renamed, so a reader sees the old file or the new one. It starts with
//! `grundy-quotient-cache 1` and the CRC-32 of the rest; the rest names the rule and holds
//! the engine's saved state ([`QuotientEngine::save_text`]). A file is used only after
//! [`QuotientEngine::load_verified`] has proven it again (a minimal commutative monoid, the
//! exact check, the period of Φ re-proven): a corrupt file (bad checksum, unreadable), a
//! foreign one (another rule) or a stale one (another format version) is ignored and
//! replaced by the next computation, never trusted. Failing to write the directory loses
//! nothing but time: the answer does not depend on it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use grundy_heap::rule::Rule;
use grundy_misere::quotient::{Limits, Quotient, QuotientEngine};
use grundy_misere::MisereError;

use crate::error::{Error, Result};

/// The first line of a quotient file; another version is stale and refused.
pub const FORMAT: &str = "grundy-quotient-cache 1";

/// Rules whose quotients this process keeps in memory (the most recently used).
pub const MEMORY_ENTRIES: usize = 32;
/// The most bytes those quotients take together, by [`Cached::bytes`]; the least recently
/// used go first.
pub const MEMORY_BYTES: usize = 64 << 20;

/// The largest budget of a quotient computed for a misère sum (the caller's position budget
/// lowers `max_search` and `max_verify`): a quotient of more than `max_order` elements is
/// taken as not converging, and learning that needs more than `max_search` search positions
/// in all or `max_verify` verification states for one heap ends the quotient there (the sum
/// is then searched instead). One heap of Dawson's Kayles near heap 30 takes seconds within
/// it; Kayles' quotient is proven (at heap 94) within it in about 3 s.
pub const LIMITS: Limits = Limits {
    max_order: 512,
    max_search: 300_000,
    max_verify: 300_000,
};

/// [`LIMITS`] lowered for a caller whose budget is `positions` search positions: as many
/// search positions and verification states, and a quotient of at most one element per 50
/// positions (at least 64). A learning step that fails spends most of its time growing
/// candidates to the size cap, so a small budget keeps a hopeless attempt short (about a
/// second at 20 000 positions) before the search takes over.
pub fn limits_for(positions: u64) -> Limits {
    let cap = usize::try_from(positions).unwrap_or(usize::MAX);
    Limits {
        max_order: LIMITS.max_order.min((cap / 50).max(64)),
        max_search: LIMITS.max_search.min(cap),
        max_verify: LIMITS.max_verify.min(cap),
    }
}

/// A quotient kept: what answers, and the engine's state to resume from.
#[derive(Debug)]
pub struct Cached {
    /// The quotient, covering heaps `0..=upto` (every heap once its `solution` is set).
    pub quotient: Quotient,
    /// [`QuotientEngine::save_text`] of the engine that computed it.
    text: String,
    /// Where learning last ran out of its budget (not tried again within as small a one).
    failed_at: Option<Failed>,
}

/// Learning stopped at `heap` for want of budget: with `max_search` positions (and as many
/// verification states). A later call with no larger budget does not try again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failed {
    /// The heap whose learning ran out of budget.
    pub heap: u64,
    /// The search budget it had ([`Limits::max_search`]).
    pub max_search: usize,
}

impl Cached {
    fn of(engine: &QuotientEngine, failed_at: Option<Failed>) -> Cached {
        Cached {
            quotient: engine.quotient(),
            text: engine.save_text(),
            failed_at,
        }
    }

    /// Bytes this entry holds, roughly: its text and the quotient's table and strings.
    pub fn bytes(&self) -> usize {
        let q = &self.quotient;
        let strings: usize = q.elements.iter().chain(&q.phi).map(|s| s.len() + 24).sum();
        self.text.len() + q.order * q.order * 4 + strings + q.presentation.len()
    }

    /// True when the quotient answers sums with heaps up to `max`.
    pub fn covers(&self, max: u64) -> bool {
        self.quotient.covers(max)
    }
}

/// The quotients of this process, most recently used last.
static MEMORY: Mutex<Vec<(String, Arc<Cached>)>> = Mutex::new(Vec::new());

/// The directory used when a [`Compute`](crate::Compute) names none: set once by the front
/// end (the CLI, from its flag or environment), never changed after.
static DEFAULT_DIR: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Sets the quotient directory of every computation of this process that names none
/// ([`Compute::quotient_cache`](crate::Compute::quotient_cache)); `None` keeps quotients in
/// memory only. Only the first call counts (false for a later one): the front end decides it
/// once, at its start.
pub fn set_default_dir(dir: Option<PathBuf>) -> bool {
    DEFAULT_DIR.set(dir).is_ok()
}

/// The directory set by [`set_default_dir`], if any.
pub fn default_dir() -> Option<&'static Path> {
    DEFAULT_DIR.get().and_then(|d| d.as_deref())
}

/// The name a rule's quotient is kept under, and the rule text its engine is made from: the
/// take-and-break code of a code or of a named game counted as its code (`kayles` and `0.77`
/// share one quotient), else the rule as the user can type it again (`sub:1,3,4`).
pub fn key(rule: &Rule) -> String {
    match rule.base_and_shift() {
        (Rule::Code(c), 0) => grundy_heap::rule::format_code(c),
        _ => rule.to_string(),
    }
}

/// The file of `rule`'s quotient in `dir`: `misere-<rule>-<crc>.quotient`, the rule's
/// characters outside `[A-Za-z0-9.,_-]` replaced by `_` (and long rules cut) and the CRC-32 of
/// the whole rule keeping names apart.
pub fn cache_path(dir: &Path, rule: &Rule) -> PathBuf {
    let k = key(rule);
    let safe: String = k
        .chars()
        .take(48)
        .map(|ch| {
            if ch.is_ascii_alphanumeric() || ".,_-".contains(ch) {
                ch
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!(
        "misere-{safe}-{:08x}.quotient",
        crc32fast::hash(k.as_bytes())
    ))
}

/// The file's text for an engine's state.
fn file_text(rule: &Rule, engine: &QuotientEngine, failed_at: Option<Failed>) -> String {
    let mut payload = format!("rule {}\n", key(rule));
    if let Some(f) = failed_at {
        payload.push_str(&format!("failed {} {}\n", f.heap, f.max_search));
    }
    payload.push_str(&engine.save_text());
    format!(
        "{FORMAT}\ncrc32 {:08x}\n{payload}",
        crc32fast::hash(payload.as_bytes())
    )
}

/// Reads `rule`'s quotient file in `dir` and proves it again: the engine and the heap where
/// learning last failed, or why the file is not used ("no file", a corrupt, foreign or stale
/// file, or a quotient that does not verify).
pub fn read(
    dir: &Path,
    rule: &Rule,
) -> std::result::Result<(QuotientEngine, Option<Failed>), String> {
    let path = cache_path(dir, rule);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("no file: {e}"))?;
    let (first, rest) = text.split_once('\n').ok_or("corrupt: no header")?;
    if first != FORMAT {
        return Err(if first.starts_with("grundy-quotient-cache ") {
            format!("stale: written as {first:?}, this program reads {FORMAT:?}")
        } else {
            "corrupt: not a quotient file".into()
        });
    }
    let (crc_line, payload) = rest.split_once('\n').ok_or("corrupt: no checksum")?;
    let crc = crc_line
        .strip_prefix("crc32 ")
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .ok_or("corrupt: no checksum")?;
    if crc != crc32fast::hash(payload.as_bytes()) {
        return Err("corrupt: the checksum does not match".into());
    }
    let (rule_line, mut body) = payload.split_once('\n').ok_or("corrupt: no rule")?;
    if rule_line.strip_prefix("rule ") != Some(key(rule).as_str()) {
        return Err(format!("foreign: {rule_line:?}, not rule {}", key(rule)));
    }
    let mut failed_at = None;
    if let Some(rest) = body.strip_prefix("failed ") {
        let bad = "corrupt: a bad failed line";
        let (line, after) = rest.split_once('\n').ok_or(bad)?;
        let (heap, max_search) = line.split_once(' ').ok_or(bad)?;
        failed_at = Some(Failed {
            heap: heap.parse().map_err(|_| bad)?,
            max_search: max_search.parse().map_err(|_| bad)?,
        });
        body = after;
    }
    // Proven again within the engine's default budgets (larger than a sum's): a quotient that
    // took a large budget to learn still loads.
    let engine = QuotientEngine::load_verified(body, Limits::default())
        .map_err(|e| format!("invalid: {e}"))?;
    if engine.quotient().rule != key(rule) {
        return Err("foreign: the saved engine is another rule's".into());
    }
    Ok((engine, failed_at))
}

/// Writes `rule`'s quotient file in `dir` durably (temporary file, sync, rename, sync of the
/// directory). An error leaves the previous file, if any, as it was.
pub fn write(
    dir: &Path,
    rule: &Rule,
    engine: &QuotientEngine,
    failed_at: Option<Failed>,
) -> std::io::Result<()> {
    use std::io::Write as _;
    std::fs::create_dir_all(dir)?;
    let path = cache_path(dir, rule);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(file_text(rule, engine, failed_at).as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &path)?;
        std::fs::File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn memory_get(k: &str) -> Option<Arc<Cached>> {
    let mut m = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    let i = m.iter().position(|(key, _)| key == k)?;
    let entry = m.remove(i);
    let c = entry.1.clone();
    m.push(entry);
    Some(c)
}

fn memory_put(k: String, c: Arc<Cached>) {
    let mut m = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    m.retain(|(key, _)| *key != k);
    m.push((k, c));
    let mut total: usize = m.iter().map(|(_, c)| c.bytes()).sum();
    while m.len() > 1 && (m.len() > MEMORY_ENTRIES || total > MEMORY_BYTES) {
        total -= m.remove(0).1.bytes();
    }
}

/// Forgets every quotient this process keeps in memory (a test starts from the directory).
pub fn clear_memory() {
    MEMORY.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// The quotient of `rule` that answers sums whose largest heap is `max`: from memory, from
/// `dir` (proven again first), else computed from the furthest state either holds, up to heap
/// `max` or until Φ is proven periodic, within `limits`, and kept in both. `Ok(None)` when the
/// rule has no quotient here (a named game counted with a shift), when learning runs out of
/// `limits` before heap `max` (now, or in an earlier call with no larger budget), or when `max`
/// passes the largest heap a quotient is learnt to and no period was proven. `go(n)` is asked
/// before each heap learnt: false stops with [`Error::Stopped`], keeping what was finished.
pub fn quotient_for(
    rule: &Rule,
    max: u64,
    limits: Limits,
    dir: Option<&Path>,
    go: &mut dyn FnMut(u64) -> bool,
) -> Result<Option<Arc<Cached>>> {
    let k = key(rule);
    let mem = memory_get(&k);
    if let Some(c) = mem.as_ref().filter(|c| c.covers(max)) {
        return Ok(Some(c.clone()));
    }
    let disk = dir.and_then(|d| read(d, rule).ok());
    if let Some((engine, failed)) = &disk {
        if engine.quotient().covers(max) {
            let c = Arc::new(Cached::of(engine, *failed));
            memory_put(k, c.clone());
            return Ok(Some(c));
        }
    }
    // Resume from the furthest state kept.
    let mem_upto = mem.as_ref().map_or(0, |c| c.quotient.upto);
    let (mut engine, failed_at) = match disk {
        Some((e, f)) if e.upto() >= mem_upto => (e, f),
        _ => match &mem {
            Some(c) => match QuotientEngine::load_text(&c.text, limits) {
                Ok(e) => (e, c.failed_at),
                Err(_) => (QuotientEngine::new(&k, limits)?, None),
            },
            None => match QuotientEngine::new(&k, limits) {
                Ok(e) => (e, None),
                Err(MisereError::UnsupportedRule(_) | MisereError::Rule(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            },
        },
    };
    if failed_at.is_some_and(|f| f.heap <= max && f.max_search >= limits.max_search) {
        return Ok(None);
    }
    engine.set_limits(limits);
    let target = max.min(grundy_misere::heaps::MAX_BOUND);
    let before = engine.upto();
    let result = engine.extend_with(target, go);
    let failed = match &result {
        Ok(()) | Err(MisereError::Stopped { .. }) => failed_at,
        Err(_) => Some(Failed {
            heap: engine.upto() + 1,
            max_search: limits.max_search,
        }),
    };
    let cached = Arc::new(Cached::of(&engine, failed));
    if engine.upto() > before || failed != failed_at || engine.solution().is_some() {
        memory_put(k, cached.clone());
        if let Some(d) = dir {
            // The answer does not depend on the directory: a failed write costs time only.
            let _ = write(d, rule, &engine, failed);
        }
    }
    match result {
        Ok(()) => Ok(cached.covers(max).then_some(cached)),
        Err(MisereError::Stopped { .. }) => Err(Error::Stopped { done: None }),
        Err(_) => Ok(None),
    }
}
