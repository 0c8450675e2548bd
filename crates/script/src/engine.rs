//! The Lua side: one sandboxed Luau state per session, and the [`Game`] it plays.
//!
//! [`LuaGame`] implements the core [`Game`] trait, so the generic memoised solver does all the
//! game theory. `Game::options` cannot fail, so the first error of the script (a Lua error, a
//! budget or memory limit, an invalid position) is recorded in the game, every later call
//! returns no options (the solver unwinds at once), and the session turns it into an error —
//! and forgets the memo, whose last values are then wrong — when the solver returns.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use grundy_core::{FxHashMap, Game};
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value, VmState};

use crate::key::{sum_key, Key};
use crate::position::Position;
use crate::{read, Limits, ScriptError};

/// What the engine defines before the script runs: `sum`, and the forbidden libraries as
/// tables whose every field is an error naming it. Returns the metatable of sums.
const PRELUDE: &str = r#"
local SUM = { __metatable = "sum" }
function sum(...) return setmetatable({ ... }, SUM) end
local function forbid(lib)
  return setmetatable({}, {
    __index = function(_, k)
      error(lib .. "." .. tostring(k) .. " is not available: game scripts have no access to files, programs or the network", 2)
    end,
    __metatable = false,
  })
end
io = forbid("io")
os = forbid("os")
debug = forbid("debug")
package = forbid("package")
local function refuse(name)
  return function()
    error(name .. " is not available: a game script is one file with no access to files, programs or the network", 2)
  end
end
require = refuse("require")
dofile = refuse("dofile")
loadfile = refuse("loadfile")
loadstring = refuse("loadstring")
load = refuse("load")
getfenv = refuse("getfenv")
setfenv = refuse("setfenv")
pcall = refuse("pcall")
xpcall = refuse("xpcall")
print = refuse("print")
newproxy = nil
gcinfo = nil
return SUM
"#;

/// The state shared with the interrupt handler.
#[derive(Default)]
struct Meter {
    /// Interrupts left to the current call.
    left: Cell<u64>,
    /// Set when the budget ran out (so that the error names it, whatever Lua made of it).
    exhausted: Cell<bool>,
    deadline: Cell<Option<Instant>>,
    timed_out: Cell<bool>,
    stopped: Cell<bool>,
    stop: RefCell<Option<Arc<AtomicBool>>>,
}

impl Meter {
    /// True when the deadline passed or a stop was asked for (recording which).
    fn check_clock(&self) -> bool {
        if let Some(stop) = self.stop.borrow().as_ref() {
            if stop.load(Ordering::Relaxed) {
                self.stopped.set(true);
                return true;
            }
        }
        if let Some(d) = self.deadline.get() {
            if Instant::now() >= d {
                self.timed_out.set(true);
                return true;
            }
        }
        false
    }
}

/// Counters of one session (for benchmarks and the tests' "one `moves` call per position").
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Calls of the script's `moves`.
    pub moves_calls: u64,
    /// Options those calls returned.
    pub options: u64,
    /// Calls of `split`, `canon` and `show`.
    pub other_calls: u64,
    /// Positions opened by the solver (including sums, which need no Lua).
    pub opened: u64,
    /// Seconds spent inside Lua (calls and reading their results).
    pub lua_seconds: f64,
}

/// A script's game, played by the core solver.
pub(crate) struct LuaGame {
    lua: Lua,
    name: String,
    moves: Function,
    split: Option<Function>,
    canon: Option<Function>,
    show: Option<Function>,
    sum_mt: Table,
    /// Reads `moves`' results (see [`read::Reader`]).
    reader: read::Reader,
    limits: Limits,
    meter: Rc<Meter>,
    error: RefCell<Option<ScriptError>>,
    stats: RefCell<Stats>,
    canon_cache: RefCell<FxHashMap<Key, Key>>,
    /// Positions whose option lists are kept (the roots of a query), and the lists.
    keep: RefCell<HashSet<Key>>,
    kept: RefCell<FxHashMap<Key, Rc<[Key]>>>,
    /// Keep every option list (misère searches revisit the parts of sums).
    keep_all: Cell<bool>,
    /// The option lists `moves` gave during the current normal-play search, while
    /// [`LuaGame::record`] is on: when the search meets a cycle, the loopy exploration that
    /// follows reads them instead of calling `moves` on every position a second time.
    journal: RefCell<FxHashMap<Key, (u32, u32)>>,
    /// The journal's lists, one after another (`journal` holds each one's start and length):
    /// one allocation for all of them.
    journal_options: RefCell<Vec<Key>>,
    /// Record option lists in the journal.
    recording: Cell<bool>,
    /// The next list `moves` gives is the search's first (its root's): not recorded, since
    /// most searches end there (a range of positions asks one new position at a time) and
    /// the exploration asks for that one list again.
    skip_first: Cell<bool>,
    /// Bytes the journal holds (its keys and entries); past a quarter of the budget's
    /// `max_bytes` recording stops and the journal is dropped.
    journal_bytes: Cell<u64>,
    /// Read option lists from the journal (the exploration after a cycle).
    replaying: Cell<bool>,
    /// Positions opened that hold a memo entry (not the sums valued on the spot).
    entries: Cell<u64>,
}

impl LuaGame {
    /// A fresh Lua state running `source`: the sandbox, the limits, `moves` and the optional
    /// functions looked up.
    pub(crate) fn new(name: &str, source: &str, limits: &Limits) -> Result<LuaGame, ScriptError> {
        let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::BIT | StdLib::UTF8;
        let lua = Lua::new_with(libs, LuaOptions::default())
            .map_err(|e| ScriptError::Internal(format!("cannot create a Lua state: {e}")))?;
        let internal = |e: mlua::Error| ScriptError::Internal(e.to_string());
        let sum_mt: Table = lua
            .load(PRELUDE)
            .set_name("=prelude")
            .eval()
            .map_err(internal)?;
        lua.sandbox(true).map_err(internal)?;
        // Before the script runs, so that its own `sum`, if it has one, is not the probe's.
        let reader = read::Reader::new(&lua, &sum_mt);
        let meter = Rc::new(Meter::default());
        meter.left.set(limits.setup_steps);
        {
            let meter = meter.clone();
            lua.set_interrupt(move |_| {
                // Called once every `read::INTERRUPT_BATCH` interrupts (see `fast_interrupt`).
                let left = meter.left.get();
                if left == 0 {
                    meter.exhausted.set(true);
                    return Err(mlua::Error::runtime("instruction budget exhausted"));
                }
                meter
                    .left
                    .set(left.saturating_sub(read::INTERRUPT_BATCH as u64));
                if meter.check_clock() {
                    return Err(mlua::Error::runtime("stopped"));
                }
                Ok(VmState::Continue)
            });
        }
        read::install_fast_interrupt(&lua).map_err(internal)?;
        if limits.memory > 0 {
            lua.set_memory_limit(limits.memory).map_err(internal)?;
        }
        let chunk = lua.load(source).set_name(format!("={name}"));
        let run = chunk.exec();
        if let Err(e) = run {
            return Err(classify_load(name, source, e, &meter, limits));
        }
        let globals = lua.globals();
        let get = |what: &str| -> Result<Option<Function>, ScriptError> {
            match globals.get::<Value>(what).map_err(internal)? {
                Value::Nil => Ok(None),
                Value::Function(f) => Ok(Some(f)),
                v => Err(ScriptError::Input(format!(
                    "{name}: `{what}` must be a function, not a {}",
                    type_name(&v)
                ))),
            }
        };
        let moves = get("moves")?.ok_or_else(|| {
            ScriptError::Input(format!(
                "{name}: the script defines no function `moves` (every game script needs `function moves(p) … end`)"
            ))
        })?;
        let (split, canon, show) = (get("split")?, get("canon")?, get("show")?);
        Ok(LuaGame {
            lua,
            name: name.to_string(),
            moves,
            split,
            canon,
            show,
            sum_mt,
            reader,
            limits: limits.clone(),
            meter,
            error: RefCell::new(None),
            stats: RefCell::new(Stats::default()),
            canon_cache: RefCell::new(FxHashMap::default()),
            keep: RefCell::new(HashSet::new()),
            kept: RefCell::new(FxHashMap::default()),
            keep_all: Cell::new(false),
            journal: RefCell::new(FxHashMap::default()),
            journal_options: RefCell::new(Vec::new()),
            recording: Cell::new(false),
            skip_first: Cell::new(false),
            journal_bytes: Cell::new(0),
            replaying: Cell::new(false),
            entries: Cell::new(0),
        })
    }

    /// The script's `name = "…"`, if it set one.
    pub(crate) fn title(&self) -> Option<String> {
        match self.lua.globals().get::<Value>("name") {
            Ok(Value::String(s)) => Some(s.to_string_lossy()),
            _ => None,
        }
    }

    pub(crate) fn stats(&self) -> Stats {
        *self.stats.borrow()
    }

    /// Takes the recorded error, if any.
    pub(crate) fn take_error(&self) -> Option<ScriptError> {
        self.error.borrow_mut().take()
    }

    pub(crate) fn failed(&self) -> bool {
        self.error.borrow().is_some()
    }

    fn fail(&self, e: ScriptError) {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    pub(crate) fn set_deadline(&self, d: Option<Instant>) {
        self.meter.deadline.set(d);
        self.meter.timed_out.set(false);
    }

    pub(crate) fn set_stop(&self, stop: Option<Arc<AtomicBool>>) {
        *self.meter.stop.borrow_mut() = stop;
    }

    /// Keeps the option lists of `p` (a root: its moves are listed after it is valued).
    pub(crate) fn keep(&self, p: &Key) {
        self.keep.borrow_mut().insert(p.clone());
    }

    pub(crate) fn keep_all(&self, on: bool) {
        self.keep_all.set(on);
        if !on {
            self.kept
                .borrow_mut()
                .retain(|p, _| self.keep.borrow().contains(p));
        }
    }

    /// Records (or stops recording) the option lists `moves` gives in the journal; turning it
    /// on forgets what the journal held.
    pub(crate) fn record(&self, on: bool) {
        self.recording.set(on);
        if on {
            self.skip_first.set(true);
            self.journal_bytes.set(0);
            self.journal.borrow_mut().clear();
            self.journal_options.borrow_mut().clear();
        }
    }

    /// Reads option lists from the journal (or stops), for the exploration after a cycle;
    /// turning it off forgets the journal.
    pub(crate) fn replay(&self, on: bool) {
        self.replaying.set(on);
        if !on {
            let mut j = self.journal.borrow_mut();
            let mut o = self.journal_options.borrow_mut();
            // A large journal's memory is given back rather than kept for the next search.
            if j.capacity() > 1 << 12 {
                *j = FxHashMap::default();
                *o = Vec::new();
            } else {
                j.clear();
                o.clear();
            }
        }
    }

    /// The solver's memo was cleared: its entries no longer count against the byte budget.
    pub(crate) fn cleared(&self) {
        self.entries.set(0);
    }

    /// Records `p`'s options in the journal, or stops recording when the journal would pass
    /// its share of the byte budget (the exploration then calls `moves` again).
    fn journal_add(&self, p: &Key, list: &[Key]) {
        const ENTRY: u64 = 48; // the key, the list's start and length, the table's slack
        let key = std::mem::size_of::<Key>() as u64;
        let bytes = self.journal_bytes.get() + ENTRY + key * list.len() as u64;
        self.journal_bytes.set(bytes);
        let mut o = self.journal_options.borrow_mut();
        if bytes > self.limits.budget.max_bytes / 4 || o.len() + list.len() > u32::MAX as usize {
            self.recording.set(false);
            *self.journal.borrow_mut() = FxHashMap::default();
            *o = Vec::new();
            return;
        }
        let start = o.len() as u32;
        o.extend_from_slice(list);
        self.journal
            .borrow_mut()
            .insert(p.clone(), (start, list.len() as u32));
    }

    /// Checks the clock and stop flag between positions.
    fn check_clock(&self) -> bool {
        if self.meter.check_clock() {
            self.fail(self.clock_error());
            return true;
        }
        false
    }

    fn clock_error(&self) -> ScriptError {
        if self.meter.stopped.get() {
            ScriptError::Stopped
        } else {
            ScriptError::TimeLimit {
                seconds: self.limits.time_limit.map_or(0.0, |d| d.as_secs_f64()),
            }
        }
    }

    /// Converts a position into a Lua value.
    pub(crate) fn to_lua(&self, p: &Position) -> mlua::Result<Value> {
        Ok(match p {
            Position::Bool(b) => Value::Boolean(*b),
            Position::Int(n) => Value::Number(*n as f64),
            Position::Str(s) => Value::String(self.lua.create_string(s)?),
            Position::List(v) | Position::Sum(v) => {
                let t = self.lua.create_table_with_capacity(v.len(), 0)?;
                for (i, x) in v.iter().enumerate() {
                    t.raw_set(i + 1, self.to_lua(x)?)?;
                }
                if matches!(p, Position::Sum(_)) {
                    t.set_metatable(Some(self.sum_mt.clone()))?;
                }
                Value::Table(t)
            }
        })
    }

    /// Calls `f(p)` under the step budget; the error names `what` (e.g. `moves({3, 1})`).
    fn call(&self, f: &Function, fname: &str, p: &Position) -> Result<Value, ScriptError> {
        self.meter.left.set(self.limits.steps_per_call);
        self.meter.exhausted.set(false);
        let arg = self.to_lua(p).map_err(|e| self.lua_error(fname, p, e))?;
        f.call::<Value>(arg)
            .map_err(|e| self.lua_error(fname, p, e))
    }

    /// Classifies an error raised while running `fname(p)`.
    fn lua_error(&self, fname: &str, p: &Position, e: mlua::Error) -> ScriptError {
        let what = format!("{fname}({})", short(p));
        if self.meter.exhausted.get() {
            return ScriptError::StepLimit {
                call: what,
                steps: self.limits.steps_per_call,
            };
        }
        if self.meter.timed_out.get() || self.meter.stopped.get() {
            return self.clock_error();
        }
        if is_memory_error(&e) {
            return ScriptError::MemoryLimit {
                call: what,
                bytes: self.limits.memory,
            };
        }
        let message = runtime_message(&self.name, &e);
        ScriptError::Runtime {
            call: what,
            line: script_line(&self.name, &message),
            message,
        }
    }

    /// `moves(p)` as positions, canonical when the script has `canon`.
    fn call_moves(&self, key: &Key, out: &mut Vec<Key>) {
        let start = Instant::now();
        let pos = key.position();
        let p = &pos;
        let r = self.call(&self.moves, "moves", p);
        let result = r.and_then(|v| match v {
            Value::Table(t) => {
                let before = out.len();
                self.reader
                    .read_options(&self.lua, &t, out)
                    .map_err(|(i, m)| ScriptError::InvalidPosition {
                        call: format!("moves({})", short(p)),
                        index: i,
                        message: m,
                    })?;
                let mut st = self.stats.borrow_mut();
                st.moves_calls += 1;
                st.options += (out.len() - before) as u64;
                Ok(before)
            }
            Value::Nil => Err(ScriptError::Runtime {
                call: format!("moves({})", short(p)),
                message: "returned nothing (nil); a position with no move returns {}".into(),
                line: None,
            }),
            v => Err(ScriptError::Runtime {
                call: format!("moves({})", short(p)),
                message: format!("returned a {}, not a table of positions", type_name(&v)),
                line: None,
            }),
        });
        let lua_time = start.elapsed();
        match result {
            Ok(before) => {
                if self.canon.is_some() {
                    for slot in &mut out[before..] {
                        match self.canonical(slot.clone()) {
                            Some(c) => *slot = c,
                            None => return,
                        }
                    }
                }
            }
            Err(e) => self.fail(e),
        }
        self.stats.borrow_mut().lua_seconds += lua_time.as_secs_f64();
    }

    /// The canonical form of `p` (by the script's `canon`, memoised); `None` after an error.
    pub(crate) fn canonical(&self, p: Key) -> Option<Key> {
        let Some(canon) = &self.canon else {
            return Some(p);
        };
        if p.is_sum() {
            let mut out = Vec::new();
            for q in p.parts() {
                out.push(self.canonical(q)?);
            }
            return Some(sum_key(&out));
        }
        if let Some(c) = self.canon_cache.borrow().get(&p) {
            return Some(c.clone());
        }
        let start = Instant::now();
        self.stats.borrow_mut().other_calls += 1;
        let pos = p.position();
        let r = self
            .call(canon, "canon", &pos)
            .and_then(|v| self.one_position("canon", &pos, v));
        self.stats.borrow_mut().lua_seconds += start.elapsed().as_secs_f64();
        match r {
            Ok(c) => {
                self.canon_cache.borrow_mut().insert(p, c.clone());
                Some(c)
            }
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    /// Converts a value returned by `fname(p)` that must be one position.
    fn one_position(&self, fname: &str, p: &Position, v: Value) -> Result<Key, ScriptError> {
        let t = self
            .lua
            .create_table_from([(1, v)])
            .map_err(|e| self.lua_error(fname, p, e))?;
        let mut out = Vec::with_capacity(1);
        self.reader
            .read_options(&self.lua, &t, &mut out)
            .map_err(|(_, m)| ScriptError::InvalidPosition {
                call: format!("{fname}({})", short(p)),
                index: 0,
                message: m,
            })?;
        Ok(out.pop().expect("one value read"))
    }

    /// `show(p)`, or the Lua literal of `p`.
    pub(crate) fn show(&self, p: &Position) -> Result<String, ScriptError> {
        match (&self.show, p) {
            (_, Position::Sum(parts)) => {
                let texts: Result<Vec<String>, _> = parts.iter().map(|q| self.show(q)).collect();
                Ok(texts?.join(" + "))
            }
            (Some(f), _) => {
                self.stats.borrow_mut().other_calls += 1;
                match self.call(f, "show", p)? {
                    Value::String(s) => Ok(s.to_string_lossy()),
                    Value::Number(x) => Ok(x.to_string()),
                    Value::Integer(x) => Ok(x.to_string()),
                    v => Err(ScriptError::Runtime {
                        call: format!("show({})", short(p)),
                        message: format!("returned a {}, not a string", type_name(&v)),
                        line: None,
                    }),
                }
            }
            (None, _) => Ok(p.to_string()),
        }
    }

    /// The options of a position that is not a sum, from the kept lists or from Lua.
    fn base_options(&self, p: &Key, out: &mut Vec<Key>) {
        if let Some(list) = self.kept.borrow().get(p) {
            out.extend(list.iter().cloned());
            return;
        }
        if self.replaying.get() {
            if let Some(&(start, len)) = self.journal.borrow().get(p) {
                let (start, len) = (start as usize, len as usize);
                out.extend_from_slice(&self.journal_options.borrow()[start..start + len]);
                return;
            }
        }
        let keep = self.keep_all.get() || self.keep.borrow().contains(p);
        let before = out.len();
        self.call_moves(p, out);
        if self.failed() {
            return;
        }
        if self.recording.get() && !self.skip_first.replace(false) {
            self.journal_add(p, &out[before..]);
        }
        if keep {
            self.kept
                .borrow_mut()
                .insert(p.clone(), out[before..].to_vec().into());
        }
    }

    /// Counts an opened position against the budget (a sum valued on the spot holds no memo
    /// entry: `entry` false); false (with the error recorded) past it.
    fn open(&self, entry: bool) -> bool {
        let mut st = self.stats.borrow_mut();
        st.opened += 1;
        let opened = st.opened;
        let entries = self.entries.get() + u64::from(entry);
        self.entries.set(entries);
        drop(st);
        let budget = &self.limits.budget;
        if opened > budget.max_positions {
            self.fail(ScriptError::PositionLimit {
                limit: budget.max_positions,
            });
            return false;
        }
        if entries.saturating_mul(crate::MEMO_ENTRY_BYTES) > budget.max_bytes {
            self.fail(ScriptError::ByteLimit {
                bytes: budget.max_bytes,
                positions: entries,
            });
            return false;
        }
        !(opened.is_multiple_of(256) && self.check_clock())
    }
}

impl Game for LuaGame {
    type Position = Key;

    fn options(&self, p: &Key, out: &mut Vec<Key>) {
        if self.failed() {
            return;
        }
        if p.is_sum() {
            // A move in one part (misère searches and winning-move lists use whole sums).
            let parts = p.parts();
            let mut opts = Vec::new();
            for (i, part) in parts.iter().enumerate() {
                opts.clear();
                self.base_options(part, &mut opts);
                if self.failed() {
                    return;
                }
                for o in &opts {
                    let mut next = parts.clone();
                    next[i] = o.clone();
                    out.push(sum_key(&next));
                }
            }
        } else if self.open(true) {
            self.base_options(p, out);
        }
    }

    /// A `sum(...)` carries its parts in its key: valued again from them rather than
    /// memoised (a Kayles script makes a million of them). What `split` returns is memoised:
    /// finding it again would call Lua.
    fn memoise_sum(&self, key: &Key) -> bool {
        !key.is_sum()
    }

    fn components(&self, key: &Key, out: &mut Vec<Key>) -> bool {
        if self.failed() {
            return false;
        }
        match key.is_sum() {
            true => {
                if !self.open(false) {
                    return false;
                }
                crate::key::push_parts(key, out);
                true
            }
            false => {
                let pos = key.position();
                let p = &pos;
                let Some(split) = &self.split else {
                    return false;
                };
                let start = Instant::now();
                self.stats.borrow_mut().other_calls += 1;
                let r = self.call(split, "split", p);
                let r = r.and_then(|v| match v {
                    Value::Nil | Value::Boolean(false) => Ok(Vec::new()),
                    Value::Table(t) => {
                        let mut parts = Vec::new();
                        self.reader
                            .read_options(&self.lua, &t, &mut parts)
                            .map_err(|(i, m)| ScriptError::InvalidPosition {
                                call: format!("split({})", short(p)),
                                index: i,
                                message: m,
                            })?;
                        Ok(parts)
                    }
                    v => Err(ScriptError::Runtime {
                        call: format!("split({})", short(p)),
                        message: format!("returned a {}, not a table of positions", type_name(&v)),
                        line: None,
                    }),
                });
                self.stats.borrow_mut().lua_seconds += start.elapsed().as_secs_f64();
                match r {
                    Ok(parts) if parts.len() >= 2 => {
                        for q in parts {
                            match self.canonical(q) {
                                Some(c) => out.push(c),
                                None => return false,
                            }
                        }
                        true
                    }
                    Ok(_) => false,
                    Err(e) => {
                        self.fail(e);
                        false
                    }
                }
            }
        }
    }
}

/// A position for messages: its literal, cut at 80 characters.
pub(crate) fn short(p: &Position) -> String {
    let s = p.to_string();
    if s.chars().count() > 80 {
        let cut: String = s.chars().take(77).collect();
        format!("{cut}…")
    } else {
        s
    }
}

fn is_memory_error(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } => is_memory_error(cause),
        mlua::Error::RuntimeError(m) => m.contains("not enough memory"),
        _ => false,
    }
}

/// A Lua runtime error in one line: the message with its `file:line:` and, when the error was
/// raised inside a function the script called, the script's traceback line.
fn runtime_message(name: &str, e: &mlua::Error) -> String {
    let mine = format!("{name}:");
    let text = match e {
        mlua::Error::RuntimeError(m) => m.clone(),
        mlua::Error::CallbackError { cause, traceback } => {
            let inner = runtime_message(name, cause);
            let line = traceback
                .lines()
                .map(str::trim)
                .rfind(|l| l.starts_with(&mine));
            match line {
                Some(l) if !inner.contains(location(l)) => format!("{inner} (at {l})"),
                _ => inner,
            }
        }
        e => e.to_string(),
    };
    // Keep the message and the first line of the Lua traceback that names the script.
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").trim().to_string();
    // The last frame in the script: the call the engine made (`moves`, …).
    let at = lines.map(str::trim).rfind(|l| l.starts_with(&mine));
    match at {
        Some(l) if !first.contains(location(l)) => format!("{first} (traceback: {l})"),
        _ => first,
    }
}

/// The line of the script named `name` that `message` names first (`name:LINE:`).
fn script_line(name: &str, message: &str) -> Option<usize> {
    let key = format!("{name}:");
    let rest = &message[message.find(&key)? + key.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// `file:line:` of a traceback line `file:line: in function 'f'`.
fn location(line: &str) -> &str {
    line.split(" in ").next().unwrap_or(line)
}

/// A load-time error: syntax (with `file:line:col`), a runtime error in the top-level code, or a
/// limit.
fn classify_load(
    name: &str,
    source: &str,
    e: mlua::Error,
    meter: &Meter,
    limits: &Limits,
) -> ScriptError {
    if let mlua::Error::SyntaxError { message, .. } = &e {
        return syntax_error(name, source, message);
    }
    if meter.exhausted.get() {
        return ScriptError::StepLimit {
            call: format!("{name} (its top-level code)"),
            steps: limits.setup_steps,
        };
    }
    if is_memory_error(&e) {
        return ScriptError::MemoryLimit {
            call: format!("{name} (its top-level code)"),
            bytes: limits.memory,
        };
    }
    let message = runtime_message(name, &e);
    ScriptError::Runtime {
        call: format!("{name} (its top-level code)"),
        line: script_line(name, &message),
        message,
    }
}

/// Luau reports `name:line: message`; the column is found from the token the message quotes
/// (`got 'x'`, `near 'x'`: its last occurrence on the line), or the end of the line for
/// `<eof>`, else 1.
fn syntax_error(name: &str, source: &str, message: &str) -> ScriptError {
    let first = message.lines().next().unwrap_or(message);
    let prefix = format!("{name}:");
    let rest = first.strip_prefix(&prefix).unwrap_or(first);
    let (line, msg) = match rest.split_once(':') {
        Some((l, m)) if l.trim().parse::<usize>().is_ok() => {
            (l.trim().parse::<usize>().unwrap_or(1), m.trim().to_string())
        }
        _ => (1, rest.trim().to_string()),
    };
    let text = source.lines().nth(line.saturating_sub(1)).unwrap_or("");
    let token = ["got '", "near '", "got "].iter().find_map(|k| {
        let i = msg.find(k)? + k.len();
        let t: String = msg[i..].chars().take_while(|&c| c != '\'').collect();
        (!t.is_empty()).then_some(t)
    });
    let column = match token.as_deref() {
        Some("<eof>") | None if msg.contains("<eof>") => text.chars().count() + 1,
        Some(t) => text
            .rfind(t)
            .map(|b| text[..b].chars().count() + 1)
            .unwrap_or(1),
        None => 1,
    };
    ScriptError::Syntax {
        file: name.to_string(),
        line,
        column,
        message: msg,
    }
}

/// Lua's name of a value's type (`number` for integers too).
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Integer(_) | Value::Number(_) => "number",
        v => v.type_name(),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Reads the list the Lua expression `expr` evaluates to, by the reader's direct path
    /// and by the C API alone: (result, keys) each.
    type Read = (Result<(), (usize, String)>, Vec<Key>);

    fn read_both(game: &LuaGame, expr: &str) -> (Read, Read) {
        let t: Table = game.lua.load(expr).eval().expect("a table");
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let ra = game.reader.read_options(&game.lua, &t, &mut a);
        let rb = game.reader.api_only().read_options(&game.lua, &t, &mut b);
        ((ra, a), (rb, b))
    }

    fn game() -> LuaGame {
        LuaGame::new(
            "t.lua",
            "function moves(p) return {} end",
            &Limits::default(),
        )
        .unwrap()
    }

    #[test]
    fn the_direct_path_is_on() {
        // Off only if Luau's table layout changed (see `read`'s module docs): then this
        // fails, and the mirrors in `read.rs` need updating.
        assert!(game().reader.direct());
    }

    #[test]
    fn direct_and_api_reads_agree_on_every_shape() {
        let g = game();
        for expr in [
            "return { sum(3, 5), sum(5, 3), 7, -2, sum(1, 2, 3), sum(9) }",
            "return { sum(1, nil, 2) }",
            "return { sum(1.5, 2) }",
            "return { sum(2^53, -2^53), 2^53 + 2 }",
            "return { 0/0 }",
            "return { math.huge }",
            "return { sum() }",
            "return { sum(1, 2, 3, 4, 5, 6, 7, 8, 9, 10) }",
            "return { sum('a', 1), sum({1}, 2), sum(sum(1, 2), 3) }",
            "return { 'x', true, false, {1, 2}, {} }",
            "return { 1, nil, 3 }",
            "local t = { 1, 2 }; t.x = 3; return t",
            "local t = { 1, 2 }; t[4] = 3; return t",
            "local s = sum(1, 2); s.x = 1; return { s }",
            "local t = {}; t[1] = sum(1, 2); t[2] = 5; return t",
            "return {}",
        ] {
            let ((ra, a), (rb, b)) = read_both(&g, expr);
            assert_eq!(ra, rb, "{expr}");
            assert_eq!(a, b, "{expr}");
        }
    }

    /// One option, as Lua source: integers (some past 2^53, some not integers), sums of them
    /// (some with holes or other parts), strings, lists.
    fn option() -> impl Strategy<Value = String> {
        let int = prop_oneof![
            (-300i64..300).prop_map(|x| x.to_string()),
            Just("2^53".to_string()),
            Just("2^53 + 2".to_string()),
            Just("-2^60".to_string()),
            Just("1.5".to_string()),
            Just("0/0".to_string()),
            Just("nil".to_string()),
        ];
        let part = prop_oneof![
            8 => int.clone(),
            1 => Just("'s'".to_string()),
            1 => Just("{1, 2}".to_string()),
            1 => Just("sum(4, 5)".to_string()),
        ];
        prop_oneof![
            3 => int,
            6 => prop::collection::vec(part, 0..11).prop_map(|v| format!("sum({})", v.join(", "))),
            1 => Just("'abc'".to_string()),
            1 => Just("{3, {4}}".to_string()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn direct_path_reads_as_the_api(opts in prop::collection::vec(option(), 0..20), extra in 0..3u8) {
            let g = game();
            let tail = match extra {
                0 => "",
                1 => "t.k = 1;",
                _ => "t[#t + 2] = 1;",
            };
            let expr = format!("local t = {{ {} }}; {tail} return t", opts.join(", "));
            let ((ra, a), (rb, b)) = read_both(&g, &expr);
            prop_assert_eq!(ra, rb, "{}", expr);
            prop_assert_eq!(a, b, "{}", expr);
        }
    }
}
