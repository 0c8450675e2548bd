//! The game commands `grundy fib|wythoff|maze|walls|cram|chomp|cards` run as a user would run
//! them (each the registry's, `grundy analyze GAME`, with the game's own options).

mod common;

use common::*;

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
fn wythoff_positions_and_tables() {
    let v = json_stdin(&["wythoff", "1000000", "1618034", "--json"], b"");
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    let v = json_stdin(&["wythoff", "10", "20", "--json"], b"");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 28);
    assert_eq!(v["winning_moves"][0]["to"]["text"], "10 6");
    assert_eq!(v["winning_moves"][0]["at"]["take_second"], "14");
    assert_eq!(
        v["winning_moves"][0]["text"],
        "take 14 from the second heap: (10, 20) -> (10, 6)"
    );
    let v = json_stdin(&["wythoff", "--nth", "2", "--json"], b"");
    assert_eq!(v["position"], serde_json::json!(["3", "5"]));
    let t = ok_stdin(&["wythoff", "--table", "3"], b"");
    assert!(t.contains("0 1 2\n1 2 0\n2 0 1"), "{t}");
    bad_stdin(&["wythoff", "3", "x"], b"", "'x'");
    bad_stdin(&["wythoff", "-1", "4"], b"", "'-1'");
    bad_stdin(&["wythoff", "--table", "0"], b"", "'0'");
    bad_stdin(&["wythoff", "--table", "99999"], b"", "'99999'");
}

#[test]
fn wythoff_plot_writes_an_image() {
    let dir = std::env::temp_dir().join(format!("grundy-wythoff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.svg");
    ok_stdin(
        &["wythoff", "--table", "20", "--plot", path.to_str().unwrap()],
        b"",
    );
    assert!(std::fs::read_to_string(&path).unwrap().contains("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
    bad_stdin(
        &["wythoff", "--table", "5", "--plot", "x.gif"],
        b"",
        "x.gif",
    );
}

#[test]
fn maze_sum_and_errors() {
    let input = b"....\n.#..\n...@\n\n@..\n...\n";
    let v = json_stdin(&["maze", "-", "--json"], input);
    assert_eq!(v["mazes"][0]["grundy"], 4);
    assert_eq!(v["mazes"][1]["grundy"], 0);
    assert_eq!(v["grundy"], 4);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["mazes"][0]["grid"][1][1], serde_json::Value::Null);
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        assert_eq!(m["at"]["maze"], 0);
        assert_eq!(m["at"]["from"], serde_json::json!([2, 3]));
        assert_eq!(m["to"]["kind"], "mazes");
        assert!(m["to"]["text"].is_string() && m["text"].is_string(), "{m}");
    }
    let text = ok_stdin(&["maze", "-"], input);
    assert!(text.contains("Winning move: in maze 1"), "{text}");
    bad_stdin(&["maze", "-"], b"...\n..\n", "ragged");
    bad_stdin(&["maze", "-"], b"..\n.x\n", "'x'");
    bad_stdin(&["maze", "-"], b"\n\n", "no maze");
    bad_stdin(
        &["maze", "/nonexistent/maze.txt"],
        b"",
        "/nonexistent/maze.txt",
    );
}

#[test]
fn walls_contest_samples() {
    let v = json_stdin(&["walls", "-", "--json"], b"2 2\n..\n..\n");
    assert_eq!(v["winner"], "Second");
    assert_eq!(v["outcome"], "P");
    let v = json_stdin(&["walls", "-", "--json"], b"2 2\nX.\n..\n");
    assert_eq!(v["winner"], "First");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["winning_moves"][0]["at"]["cell"],
        serde_json::json!([1, 1])
    );
    assert_eq!(
        v["winning_moves"][0]["at"]["pieces"],
        serde_json::json!([{"row": 0, "col": 0, "rows": 1, "cols": 1, "grundy": 0}])
    );
    assert_eq!(v["winning_moves"][0]["to"]["text"], "X#|##");
    assert_eq!(
        v["winning_moves"][0]["text"],
        "pick (1, 1); the walls leave 1x1 (value 0)"
    );
    bad_stdin(&["walls", "-"], b"..\n...\n", "ragged");
    bad_stdin(&["walls", "-"], b"..\n.#\n", "'#'");
    bad_stdin(&["walls", "-"], b"3 3\n..\n..\n", "3x3");
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
    let v = json_stdin(&["cards", "4", "7", "2", "9", "--json"], b"");
    assert_eq!(v["first_total"], 16);
    assert_eq!(v["second_total"], 6);
    assert_eq!(v["outcome"], "N");
    // A scoring game: optimal moves, not winning ones.
    assert!(v.get("winning_moves").is_none(), "{v}");
    assert_eq!(v["optimal_moves"].as_array().unwrap().len(), 1);
    assert_eq!(v["optimal_moves"][0]["at"]["end"], "right");
    assert_eq!(v["optimal_moves"][0]["at"]["value"], 9);
    assert_eq!(
        v["optimal_moves"][0]["at"]["rest"],
        serde_json::json!([0, 3])
    );
    assert_eq!(v["optimal_moves"][0]["to"]["text"], "4 7 2");
    assert_eq!(v["optimal_moves"][0]["text"], "take the right card (9)");
    assert_eq!(v["line"][0]["player"], 1);
    let v = json_stdin(&["cards", "1", "2", "5", "2", "--json"], b"");
    assert_eq!(v["first_total"], 6);
    let v = json_stdin(&["cards", "3", "3", "--json"], b"");
    assert_eq!(v["outcome"], "draw");
    let v = json_stdin(&["cards", "-5", "1", "--json"], b"");
    assert_eq!(v["first_total"], 1);
    let v = json_stdin(&["cards", "--file", "-", "--json"], b"4, 7, 2\n9\n");
    assert_eq!(v["first_total"], 16);
    let text = ok_stdin(&["cards", "4", "7", "2", "9"], b"");
    assert!(text.contains("take the right card (9)"), "{text}");
    bad_stdin(&["cards", "1", "x"], b"", "'x'");
    bad_stdin(
        &["cards", "1", "99999999999999999999"],
        b"",
        "99999999999999999999",
    );
    bad_stdin(&["cards", "1", "2000000000000"], b"", "2000000000000");
    bad_stdin(&["cards"], b"", "no cards");
}
