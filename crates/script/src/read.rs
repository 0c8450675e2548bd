//! Reading the options a script's `moves` returned, straight from the Lua stack.
//!
//! The one unsafe module of the crate. Going through `mlua`'s safe handles costs a registry
//! reference per table (about 300 ns an option, measured: more than the Lua code that built
//! it), so the array of options is walked with the Luau C API inside `Lua::exec_raw`, which
//! runs the walk in a protected call with the array on the stack. The walk only reads (no
//! allocation, no metamethod, nothing that can raise a Lua error) and checks the stack space
//! before every push.

use std::ffi::c_void;

use mlua::{ffi, Lua, Table};

use crate::key::{self, Key};
use crate::position::MAX_LITERAL_DEPTH;

/// Largest magnitude of a Lua number taken as an integer position (doubles are exact below).
const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53

/// Converts every element of the array `list` into a position [`Key`], appending them to `out`.
///
/// `sum_mt` is the metatable that the engine's `sum(…)` gives its tables. The error names
/// the 1-based index of the bad element and what is wrong with it.
pub(crate) fn read_options(
    lua: &Lua,
    list: &Table,
    sum_mt: *const c_void,
    out: &mut Vec<Key>,
) -> Result<(), (usize, String)> {
    let mut result: Result<(), (usize, String)> = Ok(());
    let outcome = {
        let result = &mut result;
        // SAFETY: `exec_raw` pushes `list` and calls the closure inside a protected call with
        // `list` on top of the stack. The closure only uses read-only API calls
        // (`lua_type`, `lua_objlen`, `lua_rawgeti`, `lua_rawiter`, `lua_to*`,
        // `lua_getmetatablepointer`),
        // none of which raises a Lua error (raw access ignores metamethods) or allocates, after
        // `lua_checkstack` has made room for every value it pushes; it pops what it pushes.
        unsafe {
            lua.exec_raw::<()>(list, |state| {
                let idx = ffi::lua_gettop(state);
                *result = read_array(state, idx, sum_mt, out);
                ffi::lua_settop(state, idx - 1);
            })
        }
    };
    if let Err(e) = outcome {
        return Err((0, format!("cannot read the options: {e}")));
    }
    result
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
                    if n == 2 {
                        if parts[1].0[..parts[1].1] < parts[0].0[..parts[0].1] {
                            parts.swap(0, 1);
                        }
                    } else {
                        parts.sort_unstable_by(|x, y| x.0[..x.1].cmp(&y.0[..y.1]));
                    }
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
