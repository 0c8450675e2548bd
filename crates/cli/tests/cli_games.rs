//! The games' own commands, as a user types them: `grundy nim|fib|wythoff|maze|walls|cram|chomp|
//! cards …`, each the registry's entry (`grundy GAME …` = `grundy analyze GAME …`), with the
//! entry's params as flags, positions read from files (`@FILE`) and standard input (`-`).

mod common;

use common::*;
use serde_json::json;

/// A file under the system's temporary directory, removed when dropped.
struct Temp(std::path::PathBuf);

impl Temp {
    fn new(name: &str, text: &[u8]) -> Temp {
        let p =
            std::env::temp_dir().join(format!("grundy-cli-games-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        Temp(p)
    }

    fn at(&self) -> String {
        format!("@{}", self.0.display())
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
fn nim_takes_the_one_number_grammar_and_streams_stdin() {
    let v = json(&["nim", "2^10", "3", "--json"]);
    assert_eq!(v["position"]["heaps"], json!([1024, 3]));
    assert_eq!(v["grundy"], 1027);
    assert_eq!(v["winning_moves"][0]["to"]["text"], "3 3");
    assert_eq!(
        v["winning_moves"][0]["at"],
        json!({"from": 1024, "heap": 0, "left": 3, "removed": 1021})
    );
    assert_eq!(json(&["nim", "1e3,1_000", "--json"])["grundy"], 0);
    let text = ok(&["nim", "10", "12", "5"]);
    assert!(text.contains("nim-sum:   3 = 0011"), "{text}");
    assert!(
        text.contains("heap 0: take 1 from the heap of 10, leaving 9"),
        "{text}"
    );
    // Misère play: with one heap above 1, leave an odd number of 1s.
    let v = json(&["nim", "1", "1", "2", "--misere", "--json"]);
    assert_eq!(
        (v["misere"].as_bool(), v["grundy"].is_null()),
        (Some(true), true)
    );
    assert_eq!(v["winning_moves"][0]["at"]["left"], 1);
    // Heaps from standard input, the same report as on the command line.
    let heaps: String = (1..=1000).map(|h| format!("{h}\n")).collect();
    let piped = json_stdin(&["nim", "-", "--json"], heaps.as_bytes());
    let words: Vec<String> = (1..=1000).map(|h| h.to_string()).collect();
    let mut args = vec!["nim"];
    args.extend(words.iter().map(String::as_str));
    args.push("--json");
    assert_eq!(piped, json(&args));
    assert_eq!(piped["details"]["heap_count"], 1000);
    // The value only (the old --count-only): nothing listed, the count in the details.
    let v = json_stdin(
        &["nim", "@-", "--moves", "value", "--json"],
        heaps.as_bytes(),
    );
    assert!(v.get("winning_moves").is_none(), "{v}");
    assert_eq!(
        v["details"]["winning_move_count"],
        piped["details"]["winning_move_count"]
    );
    assert_eq!(v["details"]["all_winning_moves_listed"], false);
    // --show: how many heaps the explanation writes out.
    let text = ok_stdin(&["nim", "-", "--show", "3"], heaps.as_bytes());
    assert!(
        text.contains("heap   2:") && !text.contains("heap   3:"),
        "{text}"
    );
    bad(&["nim", "3", "x"], "'x'");
    bad(&["nim", "3", "-4"], "'-4'");
    bad(&["nim", "2^64"], "2^64");
    bad_stdin(&["nim", "-"], b"", "at least one heap");
    bad(&["nim", "3", "--show", "-1"], "-1");
}

/// Past 2^20 heaps the position is abbreviated and so is each listed move's `to`: the answer
/// stays linear in the input.
#[test]
fn nim_abbreviates_long_answers() {
    // 1..=2^17+1: nim-sum 1, every odd heap a winning move (2^16+1 of them, times 2^17+1
    // heaps: past 2^20, so each move's `to` is abbreviated).
    let n = (1u32 << 17) + 1;
    let heaps: String = (1..=n).map(|h| format!("{h} ")).collect();
    let v = json_stdin(&["nim", "-", "--json"], heaps.as_bytes());
    assert_eq!(v["details"]["heap_count"], n);
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert_eq!(
        moves[0]["to"],
        json!({"kind": "heaps", "text": "", "abbreviated": true})
    );
    assert_eq!(v["position"]["heaps"].as_array().unwrap().len(), n as usize);
    let text = ok_stdin(&["nim", "-"], heaps.as_bytes());
    assert!(
        text.lines().next().unwrap().len() < 300,
        "the position is not repeated"
    );
}

#[test]
fn fib_opening_and_limits() {
    let text = ok_stdin(&["fib", "1000000"], b"");
    assert!(
        text.contains("1000000 = 832040 + 121393 + 46368 + 144 + 55"),
        "{text}"
    );
    assert!(text.contains("take 55"), "{text}");
    let v = json_stdin(&["fib", "--limit", "3", "100", "--json"], b"");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["position"]["text"], "100 3");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(v["winning_moves"][0]["at"]["take"], "3");
    assert_eq!(v["winning_moves"][0]["to"]["text"], "97 6");
    assert_eq!(v["winning_moves"][0]["to"]["pile"], "97");
    assert_eq!(v["winning_moves"][0]["to"]["limit"], "6");
    assert_eq!(
        v["winning_moves"][0]["text"],
        "take 3 from the pile of 100, leaving 97"
    );
    // The position 'PILE LIMIT' is the same question.
    assert_eq!(json_stdin(&["fib", "100", "3", "--json"], b""), v);
    let v = json_stdin(&["fib", "144", "--json"], b"");
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["grundy"], 0);
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    let v = json_stdin(&["fib", "--k", "3", "100", "--json"], b"");
    assert_eq!(v["game"], "fib:3");
    assert_eq!(v["details"]["k"], 3);
    assert_eq!(
        v["details"]["representation"],
        serde_json::json!(["76", "21", "3"])
    );
    assert_eq!(json_stdin(&["fib:3", "100", "--json"], b""), v);
    // A pile of 10^100 answers at once.
    let googol = format!("1{}", "0".repeat(100));
    let v = json_stdin(&["fib", &googol, "--json"], b"");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["details"]["pile"], googol.as_str());
    assert_eq!(v["details"]["all_winning_moves_listed"], false);
    assert!(v["winning_moves"][0]["at"]["take"].is_string());
    // Only the value: no move is listed.
    let v = json_stdin(&["fib", &googol, "--moves", "value", "--json"], b"");
    assert_eq!(
        (v["outcome"].as_str(), v["detail"].as_str()),
        (Some("N"), Some("value"))
    );
    assert!(v.get("winning_moves").is_none(), "{v}");
}

/// A 1000-digit pile: the text abbreviates every long number (a few lines, not the 1.4 MB of
/// writing the representation out), while `--json` keeps every number in full (the move's
/// words abbreviate them as the text does; its `to` and `at` have them in full).
#[test]
fn fib_huge_pile_text_is_short_and_json_is_full() {
    let pile = format!("7{}", "3".repeat(999));
    let text = ok_stdin(&["fib", &pile], b"");
    assert!(text.len() < 4000, "{} bytes:\n{text}", text.len());
    assert!(text.contains("(1000 digits)"), "{text}");
    assert!(text.contains(" terms)"), "{text}");
    assert!(text.contains("take "), "{text}");
    let v = json_stdin(&["fib", &pile, "--json"], b"");
    assert_eq!(v["details"]["pile"], pile.as_str());
    let m = &v["winning_moves"][0];
    let take: grundy::games::UBig = m["at"]["take"].as_str().unwrap().parse().unwrap();
    let to: grundy::games::UBig = m["to"]["pile"].as_str().unwrap().parse().unwrap();
    assert_eq!(&take + &to, pile.parse().unwrap());
    assert!(m["text"].as_str().unwrap().contains("(1000 digits)"), "{m}");
    assert!(m["short"].as_str().unwrap().chars().count() <= 30, "{m}");
    let terms = v["details"]["representation"].as_array().unwrap();
    assert!(terms.len() > 12, "{}", terms.len());
    assert_eq!(terms[0].as_str().unwrap().len(), 1000);
}

/// Every count takes the one grammar, in every size: piles beyond u64, bounded sizes and flags.
#[test]
fn counts_take_one_grammar() {
    let v = json_stdin(&["fib", "2^100", "--json"], b"");
    assert_eq!(v["details"]["pile"], "1267650600228229401496703205376");
    let v = json_stdin(&["fib", "1e30", "--limit", "1_000", "--json"], b"");
    assert_eq!(
        v["details"]["pile"],
        format!("1{}", "0".repeat(30)).as_str()
    );
    assert_eq!(v["details"]["limit"], "1000");
    let v = json_stdin(
        &["chomp", "2^1x1e1", "--max-positions", "1e3", "--json"],
        b"",
    );
    assert_eq!(v["position"]["text"], "2x10");
    let v = json_stdin(&["fib", "--k", "3e0", "100", "--json"], b"");
    assert_eq!(v["details"]["k"], 3);
    // Negatives and fractions are refused in one line naming the token.
    bad_stdin(&["fib", "1.5e1"], b"", "'1.5e1'");
    bad_stdin(&["chomp", "-2x3"], b"", "'-2'");
    bad_stdin(&["cram", "2.5", "3"], b"", "'2.5'");
}

#[test]
fn fib_bad_input() {
    bad_stdin(&["fib", "-3"], b"", "'-3'");
    bad_stdin(&["fib", "12x"], b"", "'12x'");
    bad_stdin(&["fib", "--k", "0", "10"], b"", "k 0");
    bad_stdin(&["fib", "--limit", "-1", "10"], b"", "'-1'");
    // Past 10000 digits the representation would need gigabytes: refused at once.
    let huge = format!("1{}", "0".repeat(10_000));
    bad_stdin(&["fib", &huge], b"", "10001 digits");
}

#[test]
fn wythoff_positions_p_positions_and_the_grid() {
    let v = json(&["wythoff", "1000000", "1618034", "--json"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["winning_moves"], json!([]));
    let v = json(&["wythoff", "10", "20", "--json"]);
    assert_eq!(
        (v["outcome"].as_str(), v["grundy"].as_u64()),
        (Some("N"), Some(28))
    );
    assert_eq!(v["winning_moves"][0]["to"]["text"], "10 6");
    assert_eq!(v["winning_moves"][0]["at"]["take_second"], "14");
    assert_eq!(
        v["winning_moves"][0]["text"],
        "take 14 from the second heap: (10, 20) -> (10, 6)"
    );
    // The old --nth J: the position p:J.
    let v = json(&["wythoff", "p:2", "--json"]);
    assert_eq!(v["position"]["text"], "3 5");
    assert_eq!(
        (v["outcome"].as_str(), v["details"]["p_index"].as_str()),
        (Some("P"), Some("2"))
    );
    let v = json(&["wythoff", "p:1e12", "--moves", "value", "--json"]);
    assert_eq!(v["position"]["x"], "1618033988749");
    // The old --table N: the grid of values, --upto N-1.
    let t = ok(&["wythoff", "--upto", "2"]);
    assert!(t.contains("0 1 2\n1 2 0\n2 0 1"), "{t}");
    let g = json(&["wythoff", "--upto", "3", "--json"]);
    assert_eq!(g["side"], 4);
    assert_eq!(
        g["values"][5],
        json!({"position": "1 1", "outcome": "N", "grundy": 2})
    );
    bad(&["wythoff", "3", "x"], "'x'");
    bad(&["wythoff", "-1", "4"], "'-1'");
    bad(&["wythoff", "--upto", "-1"], "-1");
    bad(&["wythoff", "--upto", "99999"], "at most");
}

#[test]
fn plots_are_written_by_the_library() {
    let svg = Temp::new("w.svg", b"");
    let out = grundy(&["wythoff", "--upto", "19", "--plot", svg.path()]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrote the plot"));
    assert!(std::fs::read_to_string(&svg.0).unwrap().contains("<svg"));
    let png = Temp::new("k.png", b"");
    ok(&["kayles", "--upto", "100", "--plot", png.path()]);
    assert_eq!(&std::fs::read(&png.0).unwrap()[1..4], b"PNG");
    bad(&["wythoff", "--upto", "5", "--plot", "x.gif"], "x.gif");
    bad(&["wythoff", "3", "5", "--plot", "x.svg"], "--upto");
    let out = grundy(&["wythoff", "--upto", "5", "--plot", "/nonexistent-dir/w.png"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim().lines().count(),
        1
    );
}

#[test]
fn maze_sums_from_files_and_stdin() {
    let input = b"....\n.#..\n...@\n\n@..\n...\n";
    let v = json_stdin(&["maze", "-", "--json"], input);
    assert_eq!(v["details"]["mazes"][0]["grundy"], 4);
    assert_eq!(v["details"]["mazes"][1]["grundy"], 0);
    assert_eq!(
        (v["grundy"].as_u64(), v["outcome"].as_str()),
        (Some(4), Some("N"))
    );
    assert_eq!(
        v["details"]["mazes"][0]["grid"][1][1],
        serde_json::Value::Null
    );
    assert_eq!(v["position"]["kind"], "mazes");
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        assert_eq!(m["at"]["maze"], 0);
        assert_eq!(m["at"]["from"], json!([2, 3]));
        assert_eq!(m["to"]["kind"], "mazes");
    }
    // The same sum from a file, and on one line (`||` between mazes).
    let file = Temp::new("mazes.txt", input);
    assert_eq!(json(&["maze", &file.at(), "--json"]), v);
    assert_eq!(json(&["maze", "....|.#..|...@||@..|...", "--json"]), v);
    let text = ok(&["maze", &file.at()]);
    assert!(text.contains("in maze 1, move the figure"), "{text}");
    assert!(text.contains("  0 1 2 3"), "{text}");
    // --grid: every cell's value, however large the maze.
    let big = format!("{}@\n{}\n", ".".repeat(399), ".".repeat(400));
    assert!(!ok_stdin(&["maze", "-"], big.as_bytes()).contains("398"));
    let text = ok_stdin(&["maze", "-", "--grid"], big.as_bytes());
    assert!(text.contains("398"), "the grid is written out");
    bad_stdin(&["maze", "-"], b"...\n..\n", "ragged");
    bad_stdin(&["maze", "-"], b"..\n.x\n", "'x'");
    bad_stdin(&["maze", "-"], b"\n\n", "no maze");
    bad(&["maze", "@/nonexistent/maze.txt"], "/nonexistent/maze.txt");
    bad_stdin(&["maze", "-", "--misere"], input, "one maze");
}

#[test]
fn walls_contest_samples() {
    let v = json_stdin(&["walls", "-", "--json"], b"2 2\n..\n..\n");
    assert_eq!(
        (v["details"]["winner"].as_str(), v["outcome"].as_str()),
        (Some("Second"), Some("P"))
    );
    let board = Temp::new("board.txt", b"2 2\nX.\n..\n");
    let v = json(&["walls", &board.at(), "--json"]);
    assert_eq!(v["details"]["winner"], "First");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(v["winning_moves"][0]["at"]["cell"], json!([1, 1]));
    assert_eq!(
        v["winning_moves"][0]["at"]["pieces"],
        json!([{"row": 0, "col": 0, "rows": 1, "cols": 1, "grundy": 0}])
    );
    assert_eq!(v["winning_moves"][0]["to"]["text"], "X#|##");
    assert_eq!(
        v["winning_moves"][0]["text"],
        "pick (1, 1); the walls leave 1x1 (value 0)"
    );
    bad_stdin(&["walls", "-"], b"..\n...\n", "ragged");
    bad_stdin(&["walls", "-"], b"..\n.?\n", "'?'");
    bad_stdin(&["walls", "-"], b"3 3\n..\n..\n", "2x2");
}

#[test]
fn cram_boards() {
    let v = json_stdin(&["cram", "4", "5", "--json"], b"");
    assert_eq!(v["grundy"], 2);
    assert_eq!(v["outcome"], "N");
    let m = &v["winning_moves"][0];
    assert_eq!(m["at"]["cells"].as_array().unwrap().len(), 2);
    assert_eq!(m["to"]["kind"], "board");
    assert_eq!(
        m["to"]["text"].as_str().unwrap().matches('#').count(),
        2,
        "{m}"
    );
    assert_eq!(m["outcome"], "P");
    assert!(m["text"].as_str().unwrap().starts_with("place a "), "{m}");
    // `grundy cram R C` is `grundy analyze cram RxC`.
    assert_eq!(json_stdin(&["analyze", "cram", "4x5", "--json"], b""), v);
    let v = json_stdin(&["cram", ".........|##.######", "--json"], b"");
    assert_eq!(v["grundy"], 4);
    let v = json_stdin(&["cram", "4", "4", "--json"], b"");
    assert_eq!(v["outcome"], "P");
    assert_eq!(
        v["details"]["positions"], 0,
        "settled by the mirror strategy"
    );
    // `positions` counts the engine's search nodes (its reductions leave 4x4 few of them).
    let v = json_stdin(&["cram", "4", "4", "--no-mirror", "--json"], b"");
    assert_eq!(v["outcome"], "P");
    assert!(
        v["details"]["positions"].as_u64().unwrap() > 0,
        "searched, not recognised"
    );
    assert!(ok_stdin(&["cram", "4", "6"], b"").contains("rotated image"));
    bad_stdin(&["cram", "0", "5"], b"", "0x5");
    bad_stdin(&["cram", "5", "-2"], b"", "'-2'");
    // Boards of up to 128 cells (the engine's limit; 8x9 is searched now).
    bad_stdin(&["cram", "12", "11"], b"", "132 cells");
    bad_stdin(&["cram", "129", "1"], b"", "129 cells");
    bad_stdin(&["cram", "..|..."], b"", "ragged");
    // Even x even boards are settled by the mirror strategy, however large, whether the value
    // or the winning moves are asked for (every move's value needs a search per move).
    for moves in ["value", "winning"] {
        let v = json_stdin(&["cram", "8", "8", "--moves", moves, "--json"], b"");
        assert_eq!(v["outcome"], "P");
        assert_eq!(v["details"]["mirror_strategy"], true);
    }
    // Searches past the position limit are refused, naming the board and the flag (7x5, once
    // past the default limit, takes the engine about half a million nodes).
    bad_stdin(
        &["cram", "7", "5", "--max-positions", "100000"],
        b"",
        "board 7x5",
    );
    bad_stdin(
        &["cram", "5", "6", "--max-positions", "1000"],
        b"",
        "--max-positions",
    );
    bad_stdin(&["cram", "5", "6", "--max-positions", "1000"], b"", "1000");
    bad_stdin(&["cram", "4", "4", "--max-positions", "x"], b"", "'x'");
    let v = json_stdin(
        &["cram", "3", "5", "--max-positions", "1000000", "--json"],
        b"",
    );
    assert_eq!(v["outcome"], "N");
}

#[path = "../../../testdata/games/cram_table.rs"]
mod cram_table;

/// `testdata/games/cram.txt` (Beling's igsolve README table): every board of at most 30 cells,
/// at every detail: the value alone, the winning moves, every move valued.
#[test]
fn cram_agrees_with_the_reference_table() {
    let mut checked = 0;
    for (r, c, v) in cram_table::reference() {
        if r * c <= 30 {
            let (rs, cs) = (r.to_string(), c.to_string());
            let out = json_stdin(&["cram", &rs, &cs, "--json"], b"");
            assert_eq!(out["grundy"], v, "{r}x{c}");
            let value = json_stdin(&["cram", &rs, &cs, "--moves", "value", "--json"], b"");
            assert_eq!(value["grundy"], v, "{r}x{c} value");
            assert!(value.get("winning_moves").is_none());
            let all = json_stdin(&["cram", &rs, &cs, "--moves", "all", "--json"], b"");
            let zeros: Vec<&serde_json::Value> = all["all_moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["grundy"] == 0)
                .collect();
            assert_eq!(zeros.len(), out["winning_moves"].as_array().unwrap().len());
            // Two threads share the table on boards of 20 cells and more: same answer.
            let args = ["cram", &rs, &cs, "--threads", "2", "--json"];
            let two = json_stdin(&args, b"");
            assert_eq!(two["grundy"], v, "{r}x{c}, 2 threads");
            assert_eq!(
                two["winning_moves"], out["winning_moves"],
                "{r}x{c}, 2 threads"
            );
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked}");
}

/// `--table FILE`: the second run reads the first one's table back and searches less, for the
/// same answer; a file that is not a table is refused in one line.
#[test]
fn cram_table_resumes_and_refuses_other_files() {
    let t = std::env::temp_dir().join(format!("grundy-cli-cram-{}.table", std::process::id()));
    let _ = std::fs::remove_file(&t);
    let path = t.to_str().unwrap();
    let args = ["cram", "5", "6", "--table", path, "--json"];
    let first = json_stdin(&args, b"");
    assert_eq!(first["grundy"], 2, "cram.txt: 5x6");
    assert_eq!(first["details"]["resumed"], 0);
    assert!(t.exists());
    let second = json_stdin(&args, b"");
    let (d1, d2) = (&first["details"], &second["details"]);
    assert!(d2["resumed"].as_u64().unwrap() > 0, "{second}");
    assert!(
        d2["positions"].as_u64().unwrap() < d1["positions"].as_u64().unwrap(),
        "{first} then {second}"
    );
    assert_eq!(second["grundy"], first["grundy"]);
    assert_eq!(second["winning_moves"], first["winning_moves"]);
    // A search stopped at its limit keeps its table too.
    let _ = std::fs::remove_file(&t);
    bad_stdin(
        &["cram", "5", "6", "--max-positions", "1000", "--table", path],
        b"",
        "1000",
    );
    assert!(t.exists());
    std::fs::write(&t, b"not a table at all").unwrap();
    bad_stdin(&["cram", "3", "4", "--table", path], b"", "not a saved");
    std::fs::write(&t, b"GRBTT001").unwrap();
    bad_stdin(&["cram", "3", "4", "--table", path], b"", "not a saved");
    let _ = std::fs::remove_file(&t);
}

#[test]
fn chomp_bars() {
    let v = json_stdin(&["chomp", "4x7", "--json"], b"");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["winning_moves"][0]["at"]["cell"],
        serde_json::json!([2, 3])
    );
    assert_eq!(
        v["winning_moves"][0]["to"]["rows"],
        serde_json::json!([7, 7, 3, 3])
    );
    assert_eq!(v["winning_moves"][0]["to"]["text"], "7 7 3 3");
    assert_eq!(
        v["winning_moves"][0]["text"],
        "bite at row 2, column 3, leaving rows of lengths 7, 7, 3, 3"
    );
    let v = json_stdin(&["chomp", "1x1", "--json"], b"");
    assert_eq!(v["outcome"], "P");
    let v = json_stdin(&["chomp", "5x5", "--json"], b"");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["winning_moves"][0]["at"]["cell"],
        serde_json::json!([1, 1])
    );
    bad_stdin(&["chomp", "3xabc"], b"", "'3xabc'");
    bad_stdin(&["chomp", "17x2"], b"", "17");
    bad_stdin(
        &["chomp", "12x11", "--max-positions", "1e5"],
        b"",
        "--max-positions",
    );
    bad_stdin(
        &["chomp", "4x7", "--max-positions", "10"],
        b"",
        "10 positions",
    );
    let v = json_stdin(&["chomp", "4x7", "--max-positions", "1000", "--json"], b"");
    assert_eq!(v["outcome"], "N");
}

#[test]
fn cards_totals_and_lines() {
    let v = json(&["cards", "4", "7", "2", "9", "--json"]);
    assert_eq!(v["details"]["first_total"], 16);
    assert_eq!(v["details"]["second_total"], 6);
    assert_eq!(v["details"]["verdict"], "N");
    assert_eq!(v["details"]["optimal"], json!(["right"]));
    assert_eq!(
        (v["outcome"].as_str(), v["scoring"].as_bool()),
        (Some("N"), Some(true))
    );
    // Both ends keep at least half (11 of 22 on the left); the optimal one is on the right.
    let wins = v["winning_moves"].as_array().unwrap();
    assert_eq!(wins.len(), 2, "{v}");
    let m = wins.iter().find(|m| m["at"]["end"] == "right").unwrap();
    assert_eq!(
        m["at"],
        json!({"end": "right", "index": 3, "value": 9, "rest": [0, 3]})
    );
    assert_eq!(m["to"]["text"], "4 7 2");
    assert_eq!(v["details"]["line"][0]["player"], 1);
    assert_eq!(
        json(&["cards", "3", "3", "--json"])["details"]["verdict"],
        "draw"
    );
    assert_eq!(
        json(&["cards", "-5", "1", "--json"])["details"]["first_total"],
        1
    );
    // The old --file F: the row from a file or standard input.
    let row = Temp::new("row.txt", b"4, 7, 2\n9\n");
    assert_eq!(
        json(&["cards", &row.at(), "--json"])["details"]["first_total"],
        16
    );
    assert_eq!(
        json_stdin(&["cards", "-", "--json"], b"4 7 2 9")["details"]["first_total"],
        16
    );
    let text = ok(&["cards", "4", "7", "2", "9"]);
    assert!(text.contains("take the right card (9)"), "{text}");
    assert!(text.contains("first takes 9 (right)"), "{text}");
    // --line: the whole optimal line, however long the row.
    let long: Vec<String> = (1..=50).map(|c| c.to_string()).collect();
    let mut args = vec!["cards"];
    args.extend(long.iter().map(String::as_str));
    assert!(!ok(&args).contains("takes 50"));
    args.push("--line");
    assert!(ok(&args).contains("takes 50"));
    bad(&["cards", "1", "x"], "'x'");
    bad(
        &["cards", "1", "99999999999999999999"],
        "99999999999999999999",
    );
    bad(&["cards", "1", "2000000000000"], "2000000000000");
}
