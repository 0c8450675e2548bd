//! Reading the options a script's `moves` returned, straight from the Lua stack.
//!
//! The one unsafe module of the crate. Going through `mlua`'s safe handles costs a registry
//! reference per table (about 300 ns an option, measured: more than the Lua code that built
//! it), so the array of options is walked with the Luau C API inside `Lua::exec_raw`, which
//! runs the walk in a protected call with the array on the stack. The walk only reads (no
//! allocation, no metamethod, nothing that can raise a Lua error) and checks the stack space
//! before every push.
//!
//! **The direct path.** Even so, the C API costs about 15 calls an option (a `sum(a, b)` is a
//! table whose metatable, length and two numbers are each a call), ~1 000 instructions: as
//! much again as the Lua that built it. So the common shapes — an array whose elements are
//! integers and `sum(…)`s of up to [`SMALL_SUM`] integers — are read from the tables'
//! memory, through mirrors of Luau's own `LuaTable` and `TValue` ([`RawTable`], [`RawValue`]).
//! Those layouts are private to Luau, so [`Reader::new`] checks them on a probe table
//! against the C API when each Lua state is made, and reads everything through the C API if
//! they differ (a Luau upgrade that changed them); tests assert that the direct path is on.
//! Any element of another shape (a string, a list, a sum of anything but integers, a number
//! that is not an integer) is read by the C API path, element by element, so the direct path
//! changes no result and no error, only the time (tested against the API path).

use std::ffi::c_void;

use mlua::{ffi, Lua, Table};

use crate::key::{self, Key};
use crate::position::MAX_LITERAL_DEPTH;

/// Largest magnitude of a Lua number taken as an integer position (doubles are exact below).
const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53

/// How options are read from one Lua state: the metatable that the engine's `sum(…)` gives its
/// tables, and whether the direct path (see the module docs) may be used.
pub(crate) struct Reader {
    sum_mt: *const c_void,
    direct: bool,
}

impl Reader {
    /// A reader for `lua`, whose sums have the metatable `sum_mt`. Checks the table layout on
    /// a probe (see the module docs): the direct path is on only when it reads the probe as
    /// the C API does.
    pub(crate) fn new(lua: &Lua, sum_mt: &Table) -> Reader {
        let sum_mt = sum_mt.to_pointer();
        let mut r = Reader {
            sum_mt,
            direct: false,
        };
        r.direct = r.probe(lua).unwrap_or(false);
        r
    }

    /// A reader that never takes the direct path (the reference the tests compare it with).
    #[cfg(test)]
    pub(crate) fn api_only(&self) -> Reader {
        Reader {
            sum_mt: self.sum_mt,
            direct: false,
        }
    }

    /// Whether the direct path is on.
    #[cfg(test)]
    pub(crate) fn direct(&self) -> bool {
        self.direct
    }

    /// True when the layout mirrors match this Luau: the probe's fields read directly agree
    /// with the C API, then the whole probe reads the same both ways.
    fn probe(&self, lua: &Lua) -> mlua::Result<bool> {
        let probe: Table = lua
            .load("return { sum(3, -5), 7, sum(2, 1, 9), sum(-1.5, 2), 2^60, 'x', {1, sum(4, 4)} }")
            .set_name("=probe")
            .eval()?;
        let mut ok = false;
        {
            let ok = &mut ok;
            let sum_mt = self.sum_mt;
            // SAFETY: `exec_raw` runs the closure in a protected call with the probe on top of
            // the stack. The probe is a table (the API says so before anything is read), so
            // `lua_topointer` gives its `LuaTable`, whose first 48 bytes hold the fields
            // `RawTable` mirrors whatever their layout; they are compared with what the C API
            // says (type tag, metatable, array size) before the array pointer is followed, and
            // the sum's table likewise. `lua_rawgeti` is checked for stack room first.
            unsafe {
                lua.exec_raw::<()>(&probe, |state| {
                    let idx = ffi::lua_gettop(state);
                    if ffi::lua_type(state, idx) != ffi::LUA_TTABLE
                        || ffi::lua_checkstack(state, 2) == 0
                    {
                        return;
                    }
                    let t = &*(ffi::lua_topointer(state, idx) as *const RawTable);
                    if t.header[0] as i32 != ffi::LUA_TTABLE
                        || !t.metatable.is_null()
                        || !(7..=64).contains(&t.sizearray)
                        || t.array.is_null()
                    {
                        return;
                    }
                    ffi::lua_rawgeti_(state, idx, 1);
                    let s = &*(ffi::lua_topointer(state, -1) as *const RawTable);
                    let mt = ffi::lua_getmetatablepointer(state, -1);
                    ffi::lua_settop(state, -2);
                    if mt != sum_mt || s.metatable != sum_mt || s.sizearray != 2 {
                        return;
                    }
                    let first = &*t.array;
                    let second = &*t.array.add(1);
                    *ok = first.tt == ffi::LUA_TTABLE
                        && first.bits == s as *const RawTable as u64
                        && second.tt == ffi::LUA_TNUMBER
                        && f64::from_bits(second.bits) == 7.0;
                })?;
            }
        }
        if !ok {
            return Ok(false);
        }
        let on = Reader {
            sum_mt: self.sum_mt,
            direct: true,
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let ra = on.read_options(lua, &probe, &mut a);
        let rb = self.read_options(lua, &probe, &mut b);
        Ok(ra == rb && a == b && !a.is_empty())
    }

    /// Converts every element of the array `list` into a position [`Key`], appending them to
    /// `out`. The error names the 1-based index of the bad element and what is wrong with it.
    pub(crate) fn read_options(
        &self,
        lua: &Lua,
        list: &Table,
        out: &mut Vec<Key>,
    ) -> Result<(), (usize, String)> {
        let mut result: Result<(), (usize, String)> = Ok(());
        let (sum_mt, direct) = (self.sum_mt, self.direct);
        let outcome = {
            let result = &mut result;
            // SAFETY: `exec_raw` pushes `list` and calls the closure inside a protected call
            // with `list` on top of the stack. The closure only uses read-only API calls
            // (`lua_type`, `lua_objlen`, `lua_rawgeti`, `lua_rawiter`, `lua_to*`,
            // `lua_getmetatablepointer`), none of which raises a Lua error (raw access ignores
            // metamethods) or allocates, after `lua_checkstack` has made room for every value
            // it pushes; it pops what it pushes. The direct path reads the tables only while
            // they are reachable from the stack (so not collected), with no allocation in Lua
            // between (so none moves), and only after `Reader::probe` checked the layout.
            unsafe {
                lua.exec_raw::<()>(list, |state| {
                    let idx = ffi::lua_gettop(state);
                    let before = out.len();
                    *result = match direct {
                        true => match read_array_direct(state, idx, sum_mt, out) {
                            Some(r) => r,
                            None => {
                                out.truncate(before);
                                read_array(state, idx, sum_mt, out)
                            }
                        },
                        false => read_array(state, idx, sum_mt, out),
                    };
                    ffi::lua_settop(state, idx - 1);
                })
            }
        };
        if let Err(e) = outcome {
            return Err((0, format!("cannot read the options: {e}")));
        }
        result
    }
}

/// Mirror of the head of Luau's `LuaTable` (`VM/src/lobject.h`, Luau 0.740): the common
/// header and byte fields, the array size, the array boundary, the metatable, the array part
/// and the hash part. Checked by [`Reader::probe`].
#[repr(C)]
struct RawTable {
    /// `tt`, `marked`, `memcat`, `tmcache`, `readonly`, `safeenv`, `lsizenode`, `nodemask8`.
    header: [u8; 8],
    sizearray: i32,
    aboundary: i32,
    metatable: *const c_void,
    array: *const RawValue,
    node: *const RawNode,
}

/// Mirror of Luau's `TValue`: the value (a number's bits, an integer, or a pointer to the
/// object), one word of vector data, the type tag.
#[repr(C)]
struct RawValue {
    bits: u64,
    extra: i32,
    tt: i32,
}

/// Mirror of Luau's `LuaNode`: the value, then the key (a `TValue`-sized `TKey`).
#[repr(C)]
struct RawNode {
    val: RawValue,
    key: RawValue,
}

/// Whether every slot of `t`'s hash part is empty (Luau points an empty one at a shared dummy
/// node, one empty slot).
///
/// # Safety
/// `t` is a live table and the layout mirrors match ([`Reader::probe`]).
unsafe fn hash_empty(t: &RawTable) -> bool {
    let nodes = 1usize << t.header[6];
    // SAFETY: the caller's contract: `node` points at `1 << lsizenode` nodes.
    (0..nodes).all(|k| unsafe { (*t.node.add(k)).val.tt } == ffi::LUA_TNIL)
}

/// The integer a Lua number slot holds, if it holds one the C API path would accept.
fn slot_int(v: &RawValue) -> Option<i64> {
    match v.tt {
        ffi::LUA_TNUMBER => {
            let x = f64::from_bits(v.bits);
            // NaN and the infinities fail the first test; a fraction the second.
            (x.abs() <= EXACT && (x as i64) as f64 == x).then_some(x as i64)
        }
        ffi::LUA_TINTEGER => Some(v.bits as i64),
        _ => None,
    }
}

/// The direct path over the array at absolute index `idx` (see the module docs): `None` when
/// the table is not a plain array in its array part (the caller then reads it by the API,
/// which finds the same options or the error). Elements of other shapes are read by the API.
///
/// # Safety
/// `state` is a valid Luau state, `idx` an absolute index holding a table, and the layout
/// mirrors match ([`Reader::probe`]).
unsafe fn read_array_direct(
    state: *mut ffi::lua_State,
    idx: i32,
    sum_mt: *const c_void,
    out: &mut Vec<Key>,
) -> Option<Result<(), (usize, String)>> {
    // SAFETY: the caller's contract. `t` and every table reached from it are reachable from
    // the stack while they are read, and nothing here allocates in Lua, so none is collected
    // or moved; `array` holds `sizearray` slots. The API calls (for elements of other shapes)
    // are made after `lua_checkstack` and pop what they push.
    unsafe {
        let t = &*(ffi::lua_topointer(state, idx) as *const RawTable);
        let size = usize::try_from(t.sizearray).ok()?;
        if !hash_empty(t) {
            return None;
        }
        // An empty array part may have no pointer at all.
        let slots: &[RawValue] = match size {
            0 => &[],
            _ => std::slice::from_raw_parts(t.array, size),
        };
        let n = slots
            .iter()
            .position(|v| v.tt == ffi::LUA_TNIL)
            .unwrap_or(size);
        if slots[n..].iter().any(|v| v.tt != ffi::LUA_TNIL) {
            return None; // holes: not an array
        }
        if ffi::lua_checkstack(state, 4) == 0 {
            return Some(Err((0, "the Lua stack is full".into())));
        }
        out.reserve(n);
        let mut buf = Vec::with_capacity(32);
        for (i, v) in slots[..n].iter().enumerate() {
            if let Some(k) = direct_value(v, sum_mt) {
                out.push(k);
                continue;
            }
            ffi::lua_rawgeti_(state, idx, (i + 1) as i32);
            let top = ffi::lua_gettop(state);
            buf.clear();
            let r = read_value(state, top, sum_mt, 0, &mut buf);
            ffi::lua_settop(state, top - 1);
            if let Err(e) = r {
                return Some(Err((i + 1, e)));
            }
            out.push(Key::from_bytes(&buf));
        }
        Some(Ok(()))
    }
}

/// The key of one array slot read directly: an integer, or a `sum(…)` of 1 to [`SMALL_SUM`]
/// integers with no holes; `None` for anything else (read by the API instead).
///
/// # Safety
/// `v` is a live slot and the layout mirrors match ([`Reader::probe`]).
unsafe fn direct_value(v: &RawValue, sum_mt: *const c_void) -> Option<Key> {
    if let Some(x) = slot_int(v) {
        let mut b = [0u8; 11];
        let len = key::encode_int(x, &mut b);
        return Some(Key::from_bytes(&b[..len]));
    }
    if v.tt != ffi::LUA_TTABLE {
        return None;
    }
    // SAFETY: the caller's contract; a table slot's value is a pointer to its `LuaTable`.
    let s = unsafe { &*(v.bits as *const RawTable) };
    let n = usize::try_from(s.sizearray).ok()?;
    // SAFETY: as above; `array` holds `sizearray` slots.
    if s.metatable != sum_mt || n == 0 || n > SMALL_SUM || !unsafe { hash_empty(s) } {
        return None;
    }
    // SAFETY: as above.
    let slots = unsafe { std::slice::from_raw_parts(s.array, n) };
    let mut enc = [([0u8; 11], 0usize); SMALL_SUM];
    for (slot, v) in enc.iter_mut().zip(slots) {
        slot.1 = key::encode_int(slot_int(v)?, &mut slot.0);
    }
    let parts = &mut enc[..n];
    sort_parts(parts);
    if n == 1 {
        return Some(Key::from_bytes(&parts[0].0[..parts[0].1]));
    }
    let mut b = [0u8; 2 + SMALL_SUM * 11];
    b[0] = key::SUM_TAG;
    b[1] = n as u8;
    let mut len = 2;
    for (p, l) in parts.iter() {
        b[len..len + l].copy_from_slice(&p[..*l]);
        len += l;
    }
    Some(Key::from_bytes(&b[..len]))
}

/// Sums of at most this many integer parts are read without allocating.
const SMALL_SUM: usize = 8;

/// Encodes the number at `idx` (an integer) into `buf`; its length.
///
/// # Safety
/// `state` is a valid Luau state and `idx` an index (absolute, or relative to the top)
/// holding a number.
unsafe fn encode_number(
    state: *mut ffi::lua_State,
    idx: i32,
    buf: &mut [u8; 11],
) -> Result<usize, String> {
    // SAFETY: the caller's contract.
    let x = unsafe { ffi::lua_tonumber(state, idx) };
    if x.fract() != 0.0 || !x.is_finite() {
        return Err(format!("the number {x} is not an integer"));
    }
    if x.abs() > EXACT {
        return Err(format!(
            "the number {x:.0} is beyond 2^53, where Lua numbers are not exact"
        ));
    }
    Ok(key::encode_int(x as i64, buf))
}

/// Reads the array at absolute stack index `idx`.
///
/// # Safety
/// `state` is a valid Luau state and `idx` an absolute index holding a table.
unsafe fn read_array(
    state: *mut ffi::lua_State,
    idx: i32,
    sum_mt: *const c_void,
    out: &mut Vec<Key>,
) -> Result<(), (usize, String)> {
    // SAFETY: the caller's contract; every call below is a read of valid indices.
    unsafe {
        if ffi::lua_checkstack(state, 4) == 0 {
            return Err((0, "the Lua stack is full".into()));
        }
        let n = array_len(state, idx).map_err(|e| (0, e))?;
        out.reserve(n);
        let mut buf = Vec::with_capacity(32);
        for i in 1..=n {
            ffi::lua_rawgeti_(state, idx, i as i32);
            let top = ffi::lua_gettop(state);
            buf.clear();
            let r = read_value(state, top, sum_mt, 0, &mut buf);
            ffi::lua_settop(state, top - 1);
            r.map_err(|e| (i, e))?;
            out.push(Key::from_bytes(&buf));
        }
        Ok(())
    }
}

/// The length of the array at `idx`, or an error if the table has keys other than 1..n.
///
/// # Safety
/// `state` is a valid Luau state, `idx` an absolute index holding a table, and the stack has
/// room for two values.
unsafe fn array_len(state: *mut ffi::lua_State, idx: i32) -> Result<usize, String> {
    // SAFETY: the caller's contract. `lua_rawiter` walks the array part, then the hash part,
    // by position (no key lookup per step, unlike `lua_next`), pushing a key and a value.
    unsafe {
        let n = ffi::lua_objlen(state, idx);
        let mut keys = 0usize;
        let mut iter = 0;
        loop {
            iter = ffi::lua_rawiter(state, idx, iter);
            if iter < 0 {
                break;
            }
            ffi::lua_settop(state, -3);
            keys += 1;
            if keys > n {
                return Err("a table with keys other than 1, 2, …, n (not an array)".into());
            }
        }
        if keys != n {
            return Err("a table with keys other than 1, 2, …, n (not an array)".into());
        }
        Ok(n)
    }
}

/// Appends the encoding ([`crate::key`]) of the value at absolute index `idx` to `out`.
///
/// # Safety
/// `state` is a valid Luau state and `idx` an absolute index.
unsafe fn read_value(
    state: *mut ffi::lua_State,
    idx: i32,
    sum_mt: *const c_void,
    depth: usize,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    // SAFETY: the caller's contract; pushes are preceded by `lua_checkstack`.
    unsafe {
        match ffi::lua_type(state, idx) {
            ffi::LUA_TNUMBER => {
                let mut tmp = [0u8; 11];
                let len = encode_number(state, idx, &mut tmp)?;
                out.extend_from_slice(&tmp[..len]);
                Ok(())
            }
            ffi::LUA_TINTEGER => {
                let mut ok = 0;
                let x = ffi::lua_tointeger64(state, idx, &mut ok);
                key::push_int(out, x);
                Ok(())
            }
            ffi::LUA_TBOOLEAN => {
                key::push_bool(out, ffi::lua_toboolean(state, idx) != 0);
                Ok(())
            }
            ffi::LUA_TSTRING => {
                let mut len = 0usize;
                let ptr = ffi::lua_tolstring(state, idx, &mut len);
                let bytes = std::slice::from_raw_parts(ptr as *const u8, len);
                match std::str::from_utf8(bytes) {
                    Ok(_) => {
                        key::push_str(out, bytes);
                        Ok(())
                    }
                    Err(_) => Err("a string that is not UTF-8 text".into()),
                }
            }
            ffi::LUA_TTABLE => {
                if depth >= MAX_LITERAL_DEPTH {
                    return Err(format!("a table nested deeper than {MAX_LITERAL_DEPTH}"));
                }
                let is_sum =
                    !sum_mt.is_null() && ffi::lua_getmetatablepointer(state, idx) == sum_mt;
                if ffi::lua_checkstack(state, 4) == 0 {
                    return Err("the Lua stack is full".into());
                }
                // The engine's `sum(...)` builds its tables from its arguments: an array.
                let n = if is_sum {
                    ffi::lua_objlen(state, idx)
                } else {
                    array_len(state, idx)?
                };
                // The common sum (`sum(a, b)` of integers): encoded on the stack, each part
                // read once; a part that is not a number sends the sum to the general path.
                let mut enc = [([0u8; 11], 0usize); SMALL_SUM];
                let small = is_sum && n <= SMALL_SUM && {
                    let mut all = true;
                    for (i, slot) in enc.iter_mut().enumerate().take(n) {
                        let t = ffi::lua_rawgeti_(state, idx, (i + 1) as i32);
                        if t != ffi::LUA_TNUMBER {
                            ffi::lua_settop(state, -2);
                            all = false;
                            break;
                        }
                        let r = encode_number(state, -1, &mut slot.0);
                        ffi::lua_settop(state, -2);
                        slot.1 = r?;
                    }
                    all
                };
                if small {
                    let parts = &mut enc[..n];
                    sort_parts(parts);
                    if n == 1 {
                        out.extend_from_slice(&parts[0].0[..parts[0].1]);
                    } else {
                        key::push_sum_header(out, n);
                        for (b, l) in parts.iter() {
                            out.extend_from_slice(&b[..*l]);
                        }
                    }
                } else if is_sum {
                    // Parts apart first: a sum is flattened and sorted.
                    let mut parts = Vec::with_capacity(16 * n);
                    let mut ranges = Vec::with_capacity(n);
                    for i in 1..=n {
                        ffi::lua_rawgeti_(state, idx, i as i32);
                        let top = ffi::lua_gettop(state);
                        let s = parts.len();
                        let r = read_value(state, top, sum_mt, depth + 1, &mut parts);
                        ffi::lua_settop(state, top - 1);
                        r?;
                        ranges.push((s, parts.len()));
                    }
                    key::push_sum(out, &parts, &ranges);
                } else {
                    key::push_list(out, n);
                    for i in 1..=n {
                        ffi::lua_rawgeti_(state, idx, i as i32);
                        let top = ffi::lua_gettop(state);
                        let r = read_value(state, top, sum_mt, depth + 1, out);
                        ffi::lua_settop(state, top - 1);
                        r?;
                    }
                }
                Ok(())
            }
            ffi::LUA_TNIL => Err("nil".into()),
            ffi::LUA_TFUNCTION => Err("a function".into()),
            t => {
                let name = std::ffi::CStr::from_ptr(ffi::lua_typename(state, t));
                Err(format!("a value of type {}", name.to_string_lossy()))
            }
        }
    }
}

/// Interrupts that pass between two calls of the metered (slow) interrupt handler.
pub(crate) const INTERRUPT_BATCH: u32 = 1024;

type InterruptFn = unsafe extern "C-unwind" fn(*mut ffi::lua_State, std::ffi::c_int);

/// `mlua`'s interrupt trampoline (one function for every state), saved when first replaced.
static SLOW_INTERRUPT: std::sync::OnceLock<InterruptFn> = std::sync::OnceLock::new();

thread_local! {
    /// Interrupts left before the next call of the slow handler, on this thread.
    static COUNTDOWN: std::cell::Cell<u32> = const { std::cell::Cell::new(INTERRUPT_BATCH) };
}

/// Luau calls the interrupt at every loop iteration and call; `mlua`'s trampoline costs about a
/// microsecond each time (it sets up a protected Rust callback), more than the loop body. This
/// handler counts down on a thread-local integer and calls the trampoline (and so the
/// session's meter) once every [`INTERRUPT_BATCH`] interrupts.
unsafe extern "C-unwind" fn fast_interrupt(state: *mut ffi::lua_State, gc: std::ffi::c_int) {
    if gc >= 0 {
        return; // garbage-collector interrupts: nothing to meter
    }
    let left = COUNTDOWN.with(|c| {
        let v = c.get();
        c.set(v.saturating_sub(1));
        v
    });
    if left > 1 {
        return;
    }
    COUNTDOWN.with(|c| c.set(INTERRUPT_BATCH));
    if let Some(slow) = SLOW_INTERRUPT.get() {
        // SAFETY: `slow` is mlua's own interrupt handler for this VM (installed by
        // `Lua::set_interrupt` before `install_fast_interrupt` replaced it), called with the
        // arguments Luau gave us. It may raise a Lua error, which unwinds through this frame:
        // the ABI is "C-unwind" and this frame owns nothing that needs dropping.
        unsafe { slow(state, gc) }
    }
}

/// Replaces `mlua`'s interrupt trampoline (set by `Lua::set_interrupt`, which must have been
/// called) with [`fast_interrupt`], which calls it once every [`INTERRUPT_BATCH`] interrupts.
pub(crate) fn install_fast_interrupt(lua: &Lua) -> mlua::Result<()> {
    // SAFETY: `exec_raw` gives the VM's current state inside a protected call; `lua_callbacks`
    // returns the VM's callback table, which lives as long as the VM. We only read and
    // replace its `interrupt` field, with a handler of the same signature.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            let cb = ffi::lua_callbacks(state);
            if let Some(slow) = (*cb).interrupt {
                if slow as *const () != fast_interrupt as *const () {
                    let _ = SLOW_INTERRUPT.set(slow);
                }
                (*cb).interrupt = Some(fast_interrupt);
            }
        })
    }
}

/// Sorts a sum's encoded integer parts into key order (a sum's key lists its parts sorted, so
/// that `sum(a, b)` and `sum(b, a)` are one position); two parts by one comparison.
fn sort_parts(parts: &mut [([u8; 11], usize)]) {
    if parts.len() == 2 {
        if parts[1].0[..parts[1].1] < parts[0].0[..parts[0].1] {
            parts.swap(0, 1);
        }
    } else {
        parts.sort_unstable_by(|x, y| x.0[..x.1].cmp(&y.0[..y.1]));
    }
}
