//! The registry walked through every front end: for each game `grundy games` lists, its
//! example is analysed by `grundy analyze --json` (equal to the library's report), listed by
//! `grundy games --json`, answered by the web API (`/api/analyze` equal to the CLI's object,
//! `/api/play` a turn) and played in the terminal's session model (each listed move's outcome
//! agrees with `analyze` of the position it leaves). Prints the table game × front end; any
//! game missing from any front end fails. The rows are written to
//! `target/tmp/front-ends.json`, where python/tests/test_catalogue.py adds the Python column
//! and prints the whole table.

mod common;

use common::grundy;
use grundy::catalogue::{Budget, Play, Registry};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn http_get(addr: &str, path: &str) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn cli_json(args: &[&str]) -> Option<Value> {
    let out = grundy(args);
    if !out.status.success() {
        eprintln!("{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

/// Each move's outcome and value against `analyze` of the position it leaves (scoring games
/// excepted: a move's outcome there is the mover's share, not the next player's outcome).
fn play_agrees(name: &str, example: &str, scoring: bool) -> bool {
    let Ok(mut game) = grundy::play::Game::from_registry(&Registry::new(), name, example) else {
        return false;
    };
    let start = game.start().clone();
    let Ok(turn) = game.turn(&start) else {
        return false;
    };
    if turn.winning_moves.iter().any(|m| !turn.moves.contains(m)) {
        return false;
    }
    if scoring {
        return true;
    }
    let registry = Registry::new();
    for m in turn.moves.iter().take(25) {
        let Ok(r) = registry.analyze(name, &m.to.text, Play::Normal, &Budget::default()) else {
            return false;
        };
        if r.outcome != m.outcome || r.grundy != m.grundy {
            eprintln!(
                "{name}: move {} says {} but analyze says {}",
                m.text, m.outcome, r.outcome
            );
            return false;
        }
    }
    true
}

#[test]
fn every_registry_game_is_in_every_front_end() {
    let registry = Registry::new();
    let listed = cli_json(&["games", "--json"]).expect("grundy games --json");
    let listed: Vec<&str> = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();

    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let (status, web_games) = http_get(&addr, "/api/games");
    assert_eq!(status, 200);

    let mut table = String::from("| game | grundy games | analyze | --json | web analyze | web play | terminal play |\n|---|---|---|---|---|---|---|\n");
    let mut missing = Vec::new();
    let mut rows = Vec::new();
    let yes = |b: bool| if b { "yes" } else { "NO" };
    for info in registry.list() {
        let game = info.game().to_string();
        let ex = info.example.clone();
        let in_list = listed.contains(&info.name.as_str())
            && web_games["games"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["name"] == info.name.as_str());
        let lib = registry
            .analyze(&game, &ex, Play::Normal, &Budget::default())
            .map(|r| serde_json::to_value(r).unwrap());
        let text = grundy(&["analyze", &game, &ex]).status.success();
        let json = cli_json(&["analyze", &game, &ex, "--json"]);
        let json_ok = matches!((&lib, &json), (Ok(a), Some(b)) if a == b);
        let q = format!("game={}&position={}", enc(&game), enc(&ex));
        let (s1, web) = http_get(&addr, &format!("/api/analyze?{q}"));
        let web_ok = s1 == 200 && Some(&web) == json.as_ref();
        let (s2, turn) = http_get(&addr, &format!("/api/play?{q}"));
        let play_ok =
            s2 == 200 && turn["moves"].is_array() && turn["position"]["kind"] == info.kind.as_str();
        let term_ok = play_agrees(&game, &ex, info.scoring);
        let row = [in_list, text, json_ok, web_ok, play_ok, term_ok];
        if row.iter().any(|&b| !b) {
            missing.push(info.name.clone());
        }
        rows.push(serde_json::json!({ "game": info.name, "front_ends": row }));
        table.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            info.name,
            yes(row[0]),
            yes(row[1]),
            yes(row[2]),
            yes(row[3]),
            yes(row[4]),
            yes(row[5])
        ));
    }
    let _ = child.kill();
    let _ = child.wait();
    println!("{table}");
    // python/tests/test_catalogue.py adds its column to these rows and prints the whole
    // table (scripts/test runs it after this test).
    let columns = [
        "grundy games",
        "analyze",
        "--json",
        "web analyze",
        "web play",
        "terminal play",
    ];
    let out = serde_json::json!({ "columns": columns, "rows": rows });
    std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("front-ends.json"),
        serde_json::to_string_pretty(&out).unwrap(),
    )
    .unwrap();
    assert!(
        missing.is_empty(),
        "games missing from a front end: {missing:?}\n{table}"
    );
    assert!(registry.list().len() >= 20, "the registry lists every game");
}

#[test]
fn analyze_refuses_bad_input_in_one_line() {
    for args in [
        vec!["analyze", "no-such-game", "1"],
        vec!["analyze", "kayles", "x y"],
        vec!["analyze", "node-kayles", "grid:3"],
        vec!["analyze", "windup:0:1", "1"],
        vec!["analyze", "digraph", "a b; b a; @ a"],
    ] {
        let out = grundy(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
    // A limit is a one-line refusal; without the flag, the message names it.
    let out = grundy(&[
        "analyze",
        "node-kayles",
        "grid:7x8",
        "--max-positions",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    let out = grundy(&["analyze", "chomp", "16x16"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-positions"));
}

#[test]
fn loopy_games_are_drawn_in_words_and_json() {
    let r = cli_json(&["analyze", "windup:8:3,5", "2", "--json"]).unwrap();
    assert!(r["outcome"].is_string());
    let d = cli_json(&["analyze", "loopy-digraph", "a b; b a; @ a", "--json"]).unwrap();
    assert_eq!(d["outcome"], "D");
    assert_eq!(d["grundy"], serde_json::json!({ "infinite": [] }));
    let text =
        String::from_utf8(grundy(&["analyze", "loopy-digraph", "a b; b a; @ a"]).stdout).unwrap();
    assert!(text.contains("∞"), "{text}");
    assert!(text.contains("D: neither player"), "{text}");
}

#[test]
fn upto_values_every_position_of_a_numbered_game() {
    // windup:8:3,5 by hand: 3 and 5 move to 0 (∞(0), N; their other option is drawn), 0 has
    // no move (P), every other position only reaches drawn ones (∞, D).
    let v = cli_json(&["analyze", "windup:8:3,5", "--upto", "7", "--json"]).unwrap();
    let rows = v["values"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    let outcomes: String = rows
        .iter()
        .map(|r| r["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, "PDDNDNDD");
    assert_eq!(rows[3]["grundy"], serde_json::json!({ "infinite": [0] }));
    assert_eq!(rows[1]["grundy"], serde_json::json!({ "infinite": [] }));
    // A heap rule: Kayles' values (A002186: 0 1 2 3 1 4 3 2 1 4 2 6).
    let v = cli_json(&["analyze", "kayles", "--upto", "11", "--json"]).unwrap();
    let values: Vec<u64> = v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["grundy"].as_u64().unwrap())
        .collect();
    assert_eq!(values, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    let text =
        String::from_utf8(grundy(&["analyze", "windup:8:3,5", "--upto", "7"]).stdout).unwrap();
    assert!(text.contains("∞(0)"), "{text}");
    // Past the family's last position, too many, or with a position: one line, exit 2.
    for args in [
        vec!["analyze", "windup:8:3,5", "--upto", "8"],
        vec!["analyze", "kayles", "--upto", "1e9"],
        vec!["analyze", "kayles", "3", "--upto", "3"],
    ] {
        let out = grundy(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).lines().count(),
            1,
            "{args:?}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn analyze_takes_a_lua_game_loopy_or_not() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/games/");
    // take-or-give.lua documents its values: 2 is ∞(0) (N), 3 a draw.
    let two = format!("{root}take-or-give.lua");
    let r = cli_json(&["analyze", &two, "2", "--json"]).unwrap();
    assert_eq!(r["outcome"], "N");
    assert_eq!(r["grundy"], serde_json::json!({ "infinite": [0] }));
    let r = cli_json(&["analyze", &two, "3", "--json"]).unwrap();
    assert_eq!(r["outcome"], "D");
    let kayles = format!("{root}kayles.lua");
    let r = cli_json(&["analyze", &kayles, "5", "--json"]).unwrap();
    assert_eq!(r["grundy"], 4, "Kayles G(5) = 4 (A002186)");
    let out = grundy(&["analyze", "no-such-file.lua", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}
