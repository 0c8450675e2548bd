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
    assert!(text.contains("nim-sum:  3 = 0011"), "{text}");
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
    let heaps: String = (1..=(1u32 << 17)).map(|h| format!("{h} ")).collect();
    let v = json_stdin(&["nim", "-", "--json"], heaps.as_bytes());
    assert_eq!(v["details"]["heap_count"], 1 << 17);
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert_eq!(
        moves[0]["to"],
        json!({"kind": "heaps", "text": "", "abbreviated": true})
    );
    assert_eq!(v["position"]["heaps"].as_array().unwrap().len(), 1 << 17);
    let text = ok_stdin(&["nim", "-"], heaps.as_bytes());
    assert!(
        text.lines().next().unwrap().len() < 300,
        "the position is not repeated"
    );
}

#[test]
fn fib_opening_limits_and_params() {
    let text = ok(&["fib", "1000000"]);
    assert!(
        text.contains("1000000 = 832040 + 121393 + 46368 + 144 + 55"),
        "{text}"
    );
    assert!(text.contains("take 55 from the pile of 1000000"), "{text}");
    let v = json(&["fib", "100", "--limit", "3", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(v["winning_moves"][0]["at"]["take"], "3");
    assert_eq!(v["winning_moves"][0]["to"]["text"], "97 6");
    assert_eq!(
        v["winning_moves"][0]["text"],
        "take 3 from the pile of 100, leaving 97"
    );
    // The limit is the position `PILE LIMIT` too.
    assert_eq!(
        json(&["fib", "100", "3", "--json"])["winning_moves"],
        v["winning_moves"]
    );
    let v = json(&["fib", "144", "--json"]);
    assert_eq!(
        (v["outcome"].as_str(), v["grundy"].as_u64()),
        (Some("P"), Some(0))
    );
    let v = json(&["fib", "--k", "3", "100", "--json"]);
    assert_eq!(v["details"]["k"], 3);
    assert_eq!(v["details"]["representation"], json!(["76", "21", "3"]));
    assert_eq!(json(&["fib:3", "100", "--json"])["details"], v["details"]);
    let googol = format!("1{}", "0".repeat(100));
    let v = json(&["fib", &googol, "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["position"]["pile"], googol.as_str());
    assert_eq!(v["details"]["all_winning_moves_listed"], false);
    assert!(v["winning_moves"][0]["at"]["take"].is_string());
}

/// A 1000-digit pile: the text abbreviates every long number, `--json` keeps them in full.
#[test]
fn fib_huge_pile_text_is_short_and_json_is_full() {
    let pile = format!("7{}", "3".repeat(999));
    let text = ok(&["fib", &pile]);
    assert!(text.len() < 4000, "{} bytes:\n{text}", text.len());
    assert!(text.contains("(1000 digits)"), "{text}");
    assert!(text.contains(" terms)"), "{text}");
    let v = json(&["fib", &pile, "--json"]);
    assert_eq!(v["position"]["pile"], pile.as_str());
    let m = &v["winning_moves"][0];
    let take: grundy::games::UBig = m["at"]["take"].as_str().unwrap().parse().unwrap();
    let to: grundy::games::UBig = m["to"]["pile"].as_str().unwrap().parse().unwrap();
    assert_eq!(&take + &to, pile.parse().unwrap());
    assert!(m["short"].as_str().unwrap().chars().count() <= 30, "{m}");
    assert_eq!(
        v["details"]["representation"][0].as_str().unwrap().len(),
        1000
    );
}

/// Every count takes the one grammar, in every size.
#[test]
fn counts_take_one_grammar() {
    let v = json(&["fib", "2^100", "--json"]);
    assert_eq!(v["position"]["pile"], "1267650600228229401496703205376");
    let v = json(&["fib", "1e30", "--limit", "1_000", "--json"]);
    assert_eq!(v["details"]["limit"], "1000");
    let v = json(&["chomp", "2^1x1e1", "--max-positions", "1e3", "--json"]);
    assert_eq!(
        (v["details"]["rows"].as_u64(), v["details"]["cols"].as_u64()),
        (Some(2), Some(10))
    );
    assert_eq!(
        json(&["fib", "--k", "3e0", "100", "--json"])["details"]["k"],
        3
    );
    bad(&["fib", "1.5e1"], "'1.5e1'");
    bad(&["chomp", "-2", "3"], "-2");
    bad(&["cram", "2.5", "3"], "2.5");
}

#[test]
fn fib_bad_input() {
    bad(&["fib", "-3"], "'-3'");
    bad(&["fib", "12x"], "'12x'");
    bad(&["fib", "--k", "0", "10"], "0");
    bad(&["fib", "--limit", "-1", "10"], "'-1'");
    let huge = format!("1{}", "0".repeat(10_000));
    bad(&["fib", &huge], "10001 digits");
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
    let big = format!("{}@\n", ".".repeat(399));
    let big = big.repeat(2);
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
    let v = json(&["cram", "4", "5", "--json"]);
    assert_eq!(
        (v["grundy"].as_u64(), v["outcome"].as_str()),
        (Some(2), Some("N"))
    );
    let m = &v["winning_moves"][0];
    assert_eq!(m["at"]["cells"].as_array().unwrap().len(), 2);
    assert_eq!(m["to"]["kind"], "board");
    assert_eq!(m["outcome"], "P");
    assert!(m["text"].as_str().unwrap().starts_with("place a "), "{m}");
    // The old --board B: the board is the position.
    assert_eq!(
        json(&["cram", ".........|##.######", "--json"])["grundy"],
        4
    );
    let v = json(&["cram", "4", "4", "--json"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(
        v["details"]["positions"], 0,
        "settled by the mirror strategy"
    );
    let v = json(&["cram", "4", "4", "--no-mirror", "--json"]);
    assert!(
        v["details"]["positions"].as_u64().unwrap() > 0,
        "searched, not recognised"
    );
    bad(&["cram", "0", "5"], "0");
    bad(&["cram", "12", "11"], "12x11");
    bad(&["cram", "..|..."], "ragged");
    let v = json(&["cram", "8", "8", "--json"]);
    assert_eq!(
        (
            v["outcome"].as_str(),
            v["details"]["mirror_strategy"].as_bool()
        ),
        (Some("P"), Some(true))
    );
    bad(&["cram", "5", "6", "--max-positions", "1000"], "1000");
    bad(&["cram", "4", "4", "--max-positions", "x"], "'x'");
    bad(&["cram", "3", "5", "--threads", "0"], "threads");
}

#[path = "../../../testdata/games/cram_table.rs"]
mod cram_table;

/// `testdata/games/cram.txt` (Beling's igsolve README table): every board of at most 30 cells.
#[test]
fn cram_agrees_with_the_reference_table() {
    let mut checked = 0;
    for (r, c, v) in cram_table::reference() {
        if r * c <= 30 {
            let (r, c) = (r.to_string(), c.to_string());
            let out = json(&["cram", &r, &c, "--json"]);
            assert_eq!(out["grundy"], v, "{r}x{c}");
            let two = json(&["cram", &r, &c, "--threads", "2", "--json"]);
            assert_eq!(two["grundy"], v, "{r}x{c}, 2 threads");
            let value = json(&["cram", &r, &c, "--moves", "value", "--json"]);
            assert_eq!(value["grundy"], v, "{r}x{c}, value only");
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked}");
}

/// `--table FILE`: the second run reads the first one's table back and searches less; a file
/// that is not a table is refused in one line.
#[test]
fn cram_table_resumes_and_refuses_other_files() {
    let t = Temp::new("cram.table", b"");
    let _ = std::fs::remove_file(&t.0);
    let args = [
        "cram",
        "5",
        "6",
        "--table",
        t.path(),
        "--no-mirror",
        "--json",
    ];
    let first = json(&args);
    assert_eq!(first["grundy"], 2, "cram.txt: 5x6");
    assert_eq!(first["details"]["resumed"], 0);
    let second = json(&args);
    assert!(
        second["details"]["resumed"].as_u64().unwrap() > 0,
        "{second}"
    );
    assert_eq!(second["grundy"], first["grundy"]);
    std::fs::write(&t.0, b"not a table at all").unwrap();
    bad(&["cram", "3", "4", "--table", t.path()], "not a saved");
}

#[test]
fn chomp_bars() {
    let v = json(&["chomp", "4x7", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(v["winning_moves"][0]["at"]["cell"], json!([2, 3]));
    assert_eq!(v["winning_moves"][0]["to"]["rows"], json!([7, 7, 3, 3]));
    assert_eq!(
        v["winning_moves"][0]["text"],
        "bite at row 2, column 3, leaving rows of lengths 7, 7, 3, 3"
    );
    assert_eq!(json(&["chomp", "1x1", "--json"])["outcome"], "P");
    let v = json(&["chomp", "5", "5", "3", "--json"]);
    assert_eq!(v["position"]["rows"], json!([5, 5, 3]));
    bad(&["chomp", "0x3"], "0");
    bad(&["chomp", "3xabc"], "abc");
    bad(&["chomp", "16x200"], "--max-positions");
    bad(&["chomp", "4x7", "--max-positions", "329"], "329");
    assert_eq!(
        json(&["chomp", "4x7", "--max-positions", "330", "--json"])["outcome"],
        "N"
    );
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
    let m = &v["winning_moves"][0];
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
