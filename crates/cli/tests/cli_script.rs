//! `grundy script FILE.lua` run as a user would run it: sums, misère play, sequences, tables,
//! explanations, and every failure of a script as exit 2 with one line naming it.

mod common;

use common::*;

fn game(file: &str) -> String {
    format!("{}/../../examples/games/{file}", env!("CARGO_MANIFEST_DIR"))
}

/// A script written to a temporary file (removed when dropped).
struct Temp(std::path::PathBuf);

impl Temp {
    fn new(name: &str, src: &str) -> Temp {
        let dir = std::env::temp_dir().join(format!("grundy-cli-script-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, src).unwrap();
        Temp(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_sum_of_positions_agrees_with_grundy_heap() {
    let kayles = game("kayles.lua");
    let v = json(&["script", &kayles, "7", "9", "12", "--json"]);
    let h = json(&["heap", "kayles", "--position", "7", "9", "12", "--json"]);
    assert_eq!(v["grundy"], h["grundy"]);
    assert_eq!(v["outcome"], h["outcome"]);
    assert_eq!(
        v["winning_moves"].as_array().unwrap().len(),
        h["winning_moves"].as_array().unwrap().len()
    );
    assert_eq!(v["game"], "Kayles");
    assert_eq!(v["values"], serde_json::json!([2, 4, 4]));
    let m = &v["winning_moves"][0];
    assert!(m["text"].is_string(), "{m}");
    // The one move: `to` the whole sum after it, as the script's catalogue entry reads it.
    assert_eq!(m["to"]["kind"], "script", "{m}");
    assert!(m["to"]["text"].as_str().unwrap().starts_with("sum("), "{m}");
    assert_eq!(m["outcome"], "P", "{m}");
    assert!(
        m["at"]["component"].is_u64() && m["at"].get("leaves").is_some(),
        "{m}"
    );
    // The text output names every winning move.
    let text = ok(&["script", &kayles, "7", "9", "12"]);
    assert!(
        text.starts_with("Kayles: 7 + 9 + 12\nvalues 2 4 4; their XOR is 2\n"),
        "{text}"
    );
    assert!(text.contains("in part 3: 12 → 0 + 11"), "{text}");
}

#[test]
fn misere_agrees_with_grundy_heap() {
    let kayles = game("kayles.lua");
    for heaps in [["4", "5"], ["1", "1"], ["3", "7"]] {
        let mut args = vec!["script", kayles.as_str()];
        args.extend(heaps);
        args.extend(["--misere", "--json"]);
        let v = json(&args);
        let mut hargs = vec!["heap", "kayles", "--position"];
        hargs.extend(heaps);
        hargs.extend(["--misere", "--json"]);
        let h = json(&hargs);
        assert_eq!(v["outcome"], h["outcome"], "{heaps:?}");
        assert_eq!(v["play"], "misere");
        assert!(v.get("grundy").is_none());
        assert_eq!(
            v["winning_moves"].as_array().unwrap().len(),
            h["winning_moves"].as_array().unwrap().len(),
            "{heaps:?}"
        );
    }
}

#[test]
fn sequence_period_and_bfile() {
    let kayles = game("kayles.lua");
    let v = json(&["script", &kayles, "--upto", "400", "--json"]);
    let h = json(&["heap", "kayles", "--upto", "400", "--json"]);
    assert_eq!(v["values"], h["values"]);
    assert_eq!(v["period"]["period"], 12);
    assert_eq!(v["period"]["preperiod"], 71);
    assert_eq!(v["period"]["status"], "observed");
    assert_eq!(v["period"]["repeats"], (401 - 71) / 12);
    let text = ok(&["script", &kayles, "--upto", "400", "--period"]);
    assert!(
        text.contains("period 12, preperiod 71 (observed: it repeats 27 times in G(0..=400)"),
        "{text}"
    );
    let b = ok(&[
        "script",
        &game("pimber.lua"),
        "--upto",
        "50",
        "--format",
        "bfile",
    ]);
    let hb = ok(&["heap", "pimber", "--upto", "50", "--format", "bfile"]);
    assert_eq!(b, hb);
}

#[test]
fn plot_of_a_script_sequence() {
    let out = Temp::new("kayles-plot.svg", "");
    let text = ok(&[
        "script",
        &game("kayles.lua"),
        "--upto",
        "200",
        "--period",
        "--plot",
        out.path(),
    ]);
    assert!(text.contains("period 12"));
    let svg = std::fs::read_to_string(out.path()).unwrap();
    assert!(
        svg.contains("G(n) of Kayles: period 12, preperiod 71 (observed)"),
        "{svg:.300}"
    );
}

#[test]
fn table_text_csv_and_json() {
    let wythoff = game("wythoff.lua");
    let v = json(&["script", &wythoff, "--table", "12", "12", "--json"]);
    // The registry's grid of Wythoff values (the old `grundy wythoff --table 12`).
    let w = json(&["wythoff", "--upto", "11", "--json"]);
    assert_eq!(w["side"], 12);
    let grid: Vec<serde_json::Value> = w["values"]
        .as_array()
        .unwrap()
        .chunks(12)
        .map(|row| row.iter().map(|c| c["grundy"].clone()).collect())
        .collect();
    assert_eq!(v["values"], serde_json::Value::Array(grid));
    let p = v["p_positions"].as_array().unwrap();
    assert!(p.contains(&serde_json::json!([3, 5])) && p.contains(&serde_json::json!([5, 3])));
    // (0,0), (1,2), (2,1), (3,5), (5,3), (4,7), (7,4), (6,10), (10,6)
    assert_eq!(p.len(), 9);
    let csv = ok(&["script", &wythoff, "--table", "3", "4", "--format", "csv"]);
    assert_eq!(csv, "a\\b,0,1,2,3\n0,0,1,2,3\n1,1,2,0,4\n2,2,0,1,5\n");
    let text = ok(&["script", &wythoff, "--table", "3", "3"]);
    assert!(text.contains("* marks P-positions"), "{text}");
    assert!(text.contains("  1 |  1  2 0*"), "{text}");
}

#[test]
fn explain_lists_every_option() {
    let v = json(&["script", &game("kayles.lua"), "--explain", "5", "--json"]);
    assert_eq!(v["grundy"], 4);
    assert_eq!(v["options"].as_array().unwrap().len(), 5);
    assert_eq!(
        v["winning_moves"][0]["to"],
        serde_json::json!({"sum": [2, 2]})
    );
    let text = ok(&["script", &game("chomp.lua"), "--explain", "{2,2}"]);
    assert!(text.contains("the smallest value missing is"), "{text}");
}

#[test]
fn every_failure_is_one_line_and_exit_2() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "loop.lua",
            "function moves(n) while true do end end",
            &["--max-steps", "1e6"],
        ),
        (
            "recurse.lua",
            "local function f(n) return f(n + 1) + 1 end\nfunction moves(n) return {f(n)} end",
            &[],
        ),
        (
            "bomb.lua",
            "function moves(n) local t = {} for i = 1, 1e9 do t[i] = {i} end return t end",
            &["--max-memory", "64"],
        ),
        (
            "string.lua",
            "function moves(n) local s = 'x' for i = 1, 40 do s = s .. s end return {s} end",
            &["--max-memory", "64"],
        ),
        (
            "os.lua",
            "function moves(n) os.execute('true') return {} end",
            &[],
        ),
        (
            "io.lua",
            "function moves(n) io.open('/etc/passwd') return {} end",
            &[],
        ),
        (
            "require.lua",
            "function moves(n) require('x') return {} end",
            &[],
        ),
        (
            "syntax.lua",
            "function moves(n)\n  return { n - }\nend",
            &[],
        ),
        (
            "runtime.lua",
            "function moves(n)\n  return { n.x }\nend",
            &[],
        ),
        ("invalid.lua", "function moves(n) return { n / 2 } end", &[]),
        (
            "cycle.lua",
            "function moves(n) return { (n + 1) % 4 } end",
            &["--misere"],
        ),
        (
            "many.lua",
            "function moves(n) return { n + 1 } end",
            &["--max-positions", "1000"],
        ),
    ];
    let expected = [
        "moves(3) did not finish within 1000000 steps",
        "error in moves(3): recurse.lua:1: stack overflow",
        "moves(3) needed more than 64 MiB of Lua memory",
        "moves(3) needed more than 64 MiB of Lua memory",
        "error in moves(3): os.lua:1: os.execute is not available",
        "error in moves(3): io.lua:1: io.open is not available",
        "error in moves(3): require.lua:1: require is not available",
        "syntax.lua:2:16: syntax error: Expected identifier when parsing expression, got '}'",
        "error in moves(3): runtime.lua:2: attempt to index number with 'x'",
        "moves(3) returned an invalid position (option 1): the number 1.5 is not an integer",
        "the game has a cycle: 3 → 0 → 1 → 2 → 3 (misère play of a loopy game is not supported)",
        "more than 1000 positions to solve",
    ];
    for ((name, src, flags), want) in cases.iter().zip(expected) {
        let t = Temp::new(name, src);
        let mut args = vec!["script", t.path(), "3"];
        args.extend(flags.iter());
        let start = std::time::Instant::now();
        bad(&args, want);
        // A limit names the option that raises it: the library names its parameter, the
        // command line adds its flag.
        if let Some(flag) = flags.first().filter(|f| f.starts_with("--max-")) {
            bad(&args, &format!("(raise it with {flag} N)"));
        }
        assert!(start.elapsed().as_secs() < 20, "{name}");
    }
}

#[test]
fn time_limit_and_bad_flags() {
    let t = Temp::new(
        "slow.lua",
        "function moves(n) local x = 0 for i = 1, 1e5 do x = x + i end if n == 0 then return {} end return {n - 1} end",
    );
    bad(
        &["script", t.path(), "--upto", "1e6", "--time-limit", "0.3"],
        "stopped after the time limit of 0.3 s",
    );
    let k = game("kayles.lua");
    bad(
        &["script", &k, "--time-limit", "soon", "3"],
        "--time-limit 'soon'",
    );
    bad(&["script", &k, "{1, 2"], "'}' is missing at column 6");
    bad(
        &["script", &k],
        "give positions, --upto N, --table A B or --explain POSITION",
    );
    bad(&["script", &k, "3", "--upto", "5"], "one at a time");
    bad(
        &["script", &k, "--upto", "5", "--misere"],
        "--misere applies to positions",
    );
    bad(
        &["script", &k, "--upto", "5", "--format", "csv"],
        "--format csv applies to --table",
    );
    bad(&["script", &k, "--upto", "1e20"], "--upto");
    bad(
        &["script", "/nonexistent/game.lua", "3"],
        "cannot read script file",
    );
    let nomoves = Temp::new("nomoves.lua", "name = 'nothing'");
    bad(
        &["script", nomoves.path(), "3"],
        "defines no function `moves`",
    );
}

#[test]
fn a_script_from_stdin() {
    let src = std::fs::read(game("subtraction.lua")).unwrap();
    let v = json_stdin(&["script", "-", "--upto", "20", "--json"], &src);
    let h = json(&["heap", "sub:1,3,4", "--upto", "20", "--json"]);
    assert_eq!(v["values"], h["values"]);
}

/// A loopy script: values from the header of examples/games/clock.lua (Smith's values,
/// worked by hand; the same game as windup:12:2,5), draws and their moves, remoteness, and
/// why a position is a draw, in text and JSON.
#[test]
fn loopy_scripts_get_smiths_values() {
    let clock = game("clock.lua");
    let v = json(&["script", &clock, "--upto", "11", "--json"]);
    let inf = serde_json::json!({ "infinite": [] });
    let inf0 = serde_json::json!({ "infinite": [0] });
    let want: Vec<serde_json::Value> = (0..12)
        .map(|h| match h {
            0 | 7 => serde_json::json!(0),
            2 | 5 | 9 => inf0.clone(),
            _ => inf.clone(),
        })
        .collect();
    assert_eq!(v["values"], serde_json::Value::from(want), "{v}");
    let d = json(&["script", &clock, "1", "--json"]);
    assert_eq!(d["outcome"], "D", "{d}");
    assert_eq!(d["grundy"], inf, "{d}");
    assert_eq!(d["drawing_moves"].as_array().unwrap().len(), 2, "{d}");
    let n = json(&["script", &clock, "9", "--json"]);
    assert_eq!(
        (&n["outcome"], &n["remoteness"]),
        (&"N".into(), &3.into()),
        "{n}"
    );
    assert_eq!(n["winning_moves"][0]["at"]["leaves"], 7, "{n}");
    assert_eq!(n["winning_moves"][0]["to"]["text"], "7", "{n}");
    let text = ok(&["script", &clock, "1"]);
    assert!(text.contains("D: neither player can force a win"), "{text}");
    assert!(text.contains("moves that keep the draw"), "{text}");
    let text = ok(&["script", &game("take-or-give.lua"), "--explain", "4"]);
    assert!(text.contains("4 is a draw"), "{text}");
    assert!(text.contains("4 -> 3 keeps the draw"), "{text}");
    assert!(
        text.contains("4 -> 2 loses: the opponent answers 2 -> 0"),
        "{text}"
    );
    let e = json(&[
        "script",
        &game("take-or-give.lua"),
        "--explain",
        "4",
        "--json",
    ]);
    assert_eq!(e["outcome"], "D", "{e}");
    assert!(e["why"].as_str().unwrap().contains("keeps the draw"), "{e}");
    let text = ok(&["script", &game("take-or-give.lua"), "--upto", "6"]);
    assert!(text.contains("∞(0)"), "{text}");
}
