//! The script engine against the native engines: Kayles to n = 2000, Chomp on a square bar,
//! Wythoff's 200 × 200 table. Prints a Markdown table (the one in the README).
//!
//! ```text
//! cargo run --release -p grundy-script --example script_bench
//! ```
//!
//! Each row is the median of 3 runs, each on a fresh session (empty memo), in CPU seconds of
//! the bench thread (`/proc/thread-self/schedstat`: a busy machine stretches the wall clock,
//! not the CPU time), with the wall time beside it. "Lua" is the share of the time spent inside
//! Lua calls (`moves`, and reading the options they return); "engine" is the rest (memo, mex,
//! sums). The first row is the floor: the same Kayles loop that builds the options and reads
//! them, all in Lua, with no engine.

use std::time::{Duration, Instant};

use grundy_core::Solver;
use grundy_games::chomp::{Chomp, Staircase};
use grundy_script::{parse_position, Limits, Play, Script, Stats};

fn source(file: &str) -> String {
    let path = format!("{}/../../examples/games/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// CPU time of this thread so far.
fn cpu() -> Duration {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let ns: u64 = text
        .split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    Duration::from_nanos(ns)
}

/// One run: CPU time, wall time, stats.
type Run = (Duration, Duration, Stats);

/// Runs `f` three times; the run of median CPU time.
fn measure(mut f: impl FnMut() -> Stats) -> Run {
    let mut runs: Vec<Run> = Vec::new();
    for _ in 0..3 {
        let (c, t) = (cpu(), Instant::now());
        let stats = f();
        runs.push((cpu() - c, t.elapsed(), stats));
    }
    runs.sort_by_key(|r| r.0);
    runs[1]
}

fn row(what: &str, (c, wall, s): Run, with_stats: bool) {
    let (secs, wall) = (c.as_secs_f64(), wall.as_secs_f64());
    if with_stats {
        // Lua's share, measured on the wall clock, applied to the CPU time.
        let lua = secs * (s.lua_seconds / wall).min(1.0);
        println!(
            "| {what} | {secs:.3} ({wall:.3}) | {:.0} | {:.0} | {lua:.3} | {:.3} |",
            s.opened as f64 / secs,
            s.options as f64 / secs,
            secs - lua
        );
    } else {
        println!("| {what} | {secs:.3} ({wall:.3}) | | | | |");
    }
}

/// The floor's Lua: `sum` as a plain table, Kayles' own `moves` (the script the engine rows
/// load, so both build the same options), and a loop that builds and reads them.
fn bare(kayles: &str) -> String {
    format!(
        r#"
local SUM = {{}}
function sum(...) return setmetatable({{ ... }}, SUM) end
{kayles}
return function(N)
  local count = 0
  for n = 0, N do
    local o = moves(n)
    for i = 1, #o do local t = o[i]; count = count + t[1] + t[2] end
  end
  return count
end
"#
    )
}

fn main() {
    let n = 2000;
    println!("| run | CPU s (wall s) | positions/s | options/s | in Lua (s) | in the engine (s) |");
    println!("|---|---|---|---|---|---|");

    // The floor: a bare Luau loop building and reading Kayles' options to n = 2000.
    let lua = mlua::Lua::new();
    let f: mlua::Function = lua.load(bare(&source("kayles.lua"))).eval().unwrap();
    let r = measure(|| {
        let _: f64 = f.call(n).unwrap();
        Stats::default()
    });
    row(
        "bare Luau loop, Kayles options to n = 2000 (no engine)",
        r,
        false,
    );

    let kayles = Script::load("kayles.lua", &source("kayles.lua"), Limits::default()).unwrap();
    let r = measure(|| {
        let mut ses = kayles.session().unwrap();
        ses.sequence(n).unwrap();
        ses.stats()
    });
    row("Kayles script, G(0..=2000)", r, true);
    let s = r.2;
    println!(
        "|  ↳ moves calls: {} (one per heap), options: {}, positions opened (with sums): {} | | | | | |",
        s.moves_calls, s.options, s.opened
    );
    let rule = grundy_heap::parse("kayles").unwrap();
    let r = measure(|| {
        grundy_heap::engine::sequence(&rule, n).unwrap();
        Stats::default()
    });
    row("native Kayles (grundy heap kayles --upto 2000)", r, false);

    let side = 8;
    let chomp = Script::load("chomp.lua", &source("chomp.lua"), Limits::default()).unwrap();
    let square =
        parse_position(&format!("{{{}}}", vec![side.to_string(); side].join(","))).unwrap();
    let r = measure(|| {
        let mut ses = chomp.session().unwrap();
        ses.analyze(std::slice::from_ref(&square), Play::Normal)
            .unwrap();
        ses.stats()
    });
    row(
        &format!("Chomp script, {side} × {side} bar (with canon)"),
        r,
        true,
    );
    let r = measure(|| {
        let mut solver = Solver::new(Chomp);
        solver.grundy(&Staircase::rectangle(side, side).unwrap());
        Stats::default()
    });
    row(
        &format!("native Chomp (generic solver), {side} × {side}"),
        r,
        false,
    );

    let wythoff = Script::load("wythoff.lua", &source("wythoff.lua"), Limits::default()).unwrap();
    let r = measure(|| {
        let mut ses = wythoff.session().unwrap();
        ses.table(200, 200).unwrap();
        ses.stats()
    });
    row("Wythoff script, 200 × 200 table", r, true);
    let r = measure(|| {
        grundy_games::wythoff::GrundyTable::new(200).unwrap();
        Stats::default()
    });
    row("native Wythoff table (bitsets), 200 × 200", r, false);
}
