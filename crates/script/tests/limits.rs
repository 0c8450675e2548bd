//! Every way a script can go wrong ends in one clear line, within the limits: an endless
//! loop, endless recursion, a memory bomb, a huge string, the forbidden libraries, a syntax
//! error, a runtime error, an invalid position, a cycle, too many positions, the time limit.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use grundy_script::{parse_position, Budget, Limits, Play, Position, Script, ScriptError};

/// Small limits, so that each failure is found fast.
fn limits() -> Limits {
    Limits {
        steps_per_call: 2_000_000,
        setup_steps: 2_000_000,
        memory: 64 << 20,
        budget: Budget {
            max_positions: 100_000,
            ..Budget::DEFAULT
        },
        time_limit: Some(Duration::from_secs(20)),
    }
}

/// The error of running `src` on position 3 (loading, then its value), checked to be one line.
fn fails(src: &str) -> ScriptError {
    let t = Instant::now();
    let r = Script::load("bad.lua", src, limits())
        .and_then(|s| s.analyze(&[Position::Int(3)], Play::Normal));
    let e = r.expect_err("the script should fail");
    let text = e.to_string();
    assert!(!text.contains('\n'), "one line: {text}");
    assert!(
        t.elapsed() < Duration::from_secs(15),
        "{text} took {:?}",
        t.elapsed()
    );
    e
}

#[test]
fn endless_loop_stops_at_the_step_budget() {
    let e = fails("function moves(n) while true do end end");
    assert!(matches!(e, ScriptError::StepLimit { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "moves(3) did not finish within 2000000 steps (an endless loop? the limit is Limits::steps_per_call)"
    );
    // At load time too.
    let e = fails("repeat until false\nfunction moves(n) return {} end");
    assert!(
        e.to_string()
            .contains("bad.lua (its top-level code) did not finish"),
        "{e}"
    );
}

#[test]
fn endless_loop_in_a_callee_stops_too() {
    let e = fails(
        "local function f() local x = 0 while true do x = x + 1 end end\nfunction moves(n) f() end",
    );
    assert!(matches!(e, ScriptError::StepLimit { .. }), "{e}");
}

#[test]
fn deep_recursion_is_a_stack_overflow_error() {
    let e =
        fails("local function f(n) return f(n + 1) + 1 end\nfunction moves(n) return {f(0)} end");
    let text = e.to_string();
    assert!(
        text.starts_with("error in moves(3): bad.lua:1: stack overflow"),
        "{text}"
    );
}

#[test]
fn memory_bomb_stops_at_the_memory_cap() {
    let e = fails("function moves(n) local t = {} for i = 1, 1e9 do t[i] = {i} end return t end");
    assert_eq!(
        e.to_string(),
        "moves(3) needed more than 64 MiB of Lua memory (the limit is Limits::memory)"
    );
}

#[test]
fn huge_string_stops_at_the_memory_cap() {
    let e = fails("function moves(n) local s = 'x' for i = 1, 40 do s = s .. s end return {s} end");
    assert!(matches!(e, ScriptError::MemoryLimit { .. }), "{e}");
    let e = fails("function moves(n) return {string.rep('ab', 1e9)} end");
    assert!(
        matches!(
            e,
            ScriptError::MemoryLimit { .. } | ScriptError::Runtime { .. }
        ),
        "{e}"
    );
}

#[test]
fn the_operating_system_is_out_of_reach() {
    for (call, name) in [
        ("os.execute('touch /tmp/grundy-script-pwned')", "os.execute"),
        ("io.open('/etc/passwd')", "io.open"),
        ("require('socket')", "require"),
        ("loadstring('return 1')", "loadstring"),
        ("load('return 1')", "load"),
        ("dofile('/etc/passwd')", "dofile"),
        ("debug.getinfo(1)", "debug.getinfo"),
        ("print('hi')", "print"),
    ] {
        let e = fails(&format!("function moves(n) {call} return {{}} end"));
        let text = e.to_string();
        assert!(text.starts_with("error in moves(3): bad.lua:1: "), "{text}");
        assert!(text.contains(&format!("{name} is not available")), "{text}");
    }
    assert!(!std::path::Path::new("/tmp/grundy-script-pwned").exists());
    // The sandbox's libraries cannot be patched either.
    let e = fails("string.rep = nil\nfunction moves(n) return {} end");
    assert!(e.to_string().contains("readonly"), "{e}");
}

#[test]
fn syntax_errors_name_file_line_and_column() {
    let e = fails("function moves(n)\n  local out = {}\n  out[1] = = n\nend");
    assert_eq!(
        e.to_string(),
        "bad.lua:3:12: syntax error: Expected identifier when parsing expression, got '='"
    );
    let e = fails("function moves(n)\n  return {}\n");
    let text = e.to_string();
    assert!(
        text.starts_with("bad.lua:3:1: syntax error: Expected 'end'"),
        "{text}"
    );
}

#[test]
fn runtime_errors_name_the_line_and_the_position() {
    let e = fails("function moves(p)\n  return { p.x + 1 }\nend");
    assert_eq!(
        e.to_string(),
        "error in moves(3): bad.lua:2: attempt to index number with 'x'"
    );
    let e = fails(
        "local function g(n) error('no moves from ' .. n) end\nfunction moves(n) return g(n) end",
    );
    assert_eq!(
        e.to_string(),
        "error in moves(3): bad.lua:1: no moves from 3 (traceback: bad.lua:2: in function 'moves')"
    );
    let e = fails("function moves(n) return 5 end");
    assert_eq!(
        e.to_string(),
        "error in moves(3): returned a number, not a table of positions"
    );
    let e = fails("function moves(n) end");
    assert!(e.to_string().contains("returned nothing (nil)"), "{e}");
    let e = fails("function mvoes(n) return {} end");
    assert!(e.to_string().contains("defines no function `moves`"), "{e}");
}

#[test]
fn invalid_positions_name_the_move() {
    for (ret, what) in [
        ("{n - 0.5}", "option 1): the number 2.5 is not an integer"),
        (
            "{0, {a = 1}}",
            "option 2): a table with keys other than 1, 2, …, n",
        ),
        ("{0, print}", "option 2): a function"),
        (
            "{{1, {2, nil, 3}}}",
            "option 1): a table with keys other than",
        ),
        (
            "{2^60}",
            "option 1): the number 1152921504606846976 is beyond 2^53",
        ),
    ] {
        let e = fails(&format!("function moves(n) return {ret} end"));
        let text = e.to_string();
        assert!(
            text.starts_with("moves(3) returned an invalid position ("),
            "{text}"
        );
        assert!(text.contains(what), "{text}");
    }
}

#[test]
fn cycles_switch_to_the_loopy_solver_and_misere_cycles_are_reported() {
    // Normal play: a cycle of five positions with no way out is a draw everywhere.
    let s = Script::load(
        "ring.lua",
        "function moves(n) return { (n + 1) % 5 } end",
        limits(),
    )
    .unwrap();
    let a = s.analyze(&[Position::Int(3)], Play::Normal).unwrap();
    assert_eq!(a.grundy, Some(grundy_script::Grundy::infinite([])));
    assert_eq!(a.outcome, grundy_core::Outcome::D);
    assert_eq!(a.drawing_moves.len(), 1);
    assert_eq!(a.remoteness, None);
    // A position that is its own option: misère play of a loopy game is refused, naming the
    // cycle.
    let s = Script::load("bad.lua", "function moves(p) return {p} end", limits()).unwrap();
    let e = s
        .analyze(&[parse_position("{1, 2}").unwrap()], Play::Misere)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the game has a cycle: {1, 2} → {1, 2} (misère play of a loopy game is not supported)"
    );
}

#[test]
fn position_cap_and_time_limit() {
    let s = Script::load(
        "kayles.lua",
        include_str!("../../../examples/games/kayles.lua"),
        limits(),
    )
    .unwrap();
    // 1000 rows open half a million sums.
    let e = s.sequence(1000).unwrap_err();
    assert_eq!(
        e.to_string(),
        "more than 100000 positions to solve (the limit is Limits::budget.max_positions)"
    );
    let slow = Limits {
        time_limit: Some(Duration::from_millis(200)),
        budget: Budget {
            max_positions: u64::MAX,
            max_bytes: u64::MAX,
        },
        steps_per_call: u64::MAX,
        ..limits()
    };
    let s = Script::load(
        "slow.lua",
        "function moves(n) local x = 0 for i = 1, 1e5 do x = x + i end if n == 0 then return {} end return {n - 1} end",
        slow,
    )
    .unwrap();
    let t = Instant::now();
    let e = s.sequence(1_000_000).unwrap_err();
    assert_eq!(e.to_string(), "stopped after the time limit of 0.2 s");
    assert!(t.elapsed() < Duration::from_secs(5));
    // A stop flag ends the query as well.
    let mut ses = s.session().unwrap();
    let flag = Arc::new(AtomicBool::new(true));
    ses.stop_when(flag);
    assert_eq!(ses.sequence(100).unwrap_err(), ScriptError::Stopped);
}

#[test]
fn a_session_recovers_after_an_error() {
    let src = "function moves(n) if n == 7 then error('seven') end local o = {} for k = 1, n do o[k] = n - k end return o end";
    let s = Script::load("seven.lua", src, limits()).unwrap();
    let mut ses = s.session().unwrap();
    assert!(ses.sequence(10).is_err());
    // Positions below 7 are fine and their values right (Nim), nothing wrong was memoised.
    let seq = ses.sequence(6).unwrap();
    assert_eq!(seq.finite_values().unwrap(), [0, 1, 2, 3, 4, 5, 6]);
}

#[test]
fn a_chain_of_a_million_positions_needs_no_deep_stack() {
    let s = Script::load(
        "chain.lua",
        "function moves(n) if n == 0 then return {} end return {n - 1} end",
        Limits::default(),
    )
    .unwrap();
    let a = s
        .analyze(&[Position::Int(1_000_000)], Play::Normal)
        .unwrap();
    assert_eq!(a.grundy.and_then(|v| v.finite()), Some(0));
}

#[test]
fn scripts_run_on_many_threads() {
    let s = Script::load(
        "kayles.lua",
        include_str!("../../../examples/games/kayles.lua"),
        Limits::default(),
    )
    .unwrap();
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let s = s.clone();
            std::thread::spawn(move || s.sequence(100 + i).unwrap().finite_values().unwrap())
        })
        .collect();
    let all: Vec<Vec<u64>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    for (i, v) in all.iter().enumerate() {
        assert_eq!(v[..101], all[0][..101], "thread {i}");
    }
}

#[test]
fn literals_refused_with_their_column() {
    let e = parse_position("{1, 2").unwrap_err();
    assert_eq!(
        e.to_string(),
        "position '{1, 2': '}' is missing at column 6"
    );
}
