//! `grundy nim`, `grundy nimber` and `grundy graph` run as a user would run them.

mod common;

use common::*;

#[test]
fn nim_explains_the_textbook_example() {
    let text = ok(&["nim", "10", "12", "5"]);
    assert!(text.contains("10 = 1010"), "{text}");
    assert!(text.contains("3 = 0011"), "{text}");
    assert!(text.contains("10 ⊕ 3 = 9"), "{text}");
    assert!(text.contains("N-position"), "{text}");
}

#[test]
fn nim_json_fields() {
    let v = json_stdin(&["nim", "--json", "10", "12", "5"], b"");
    assert_eq!(v["nim_sum"], 3);
    assert_eq!(v["grundy"], 3);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_move_count"], 1);
    assert_eq!(v["all_winning_moves_listed"], true);
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{
            "text": "heap 0: take 1 from the heap of 10, leaving 9",
            "short": "heap 0: 10 → 9",
            "to": {"kind": "heaps", "text": "9 12 5", "heaps": [9, 12, 5]},
            "outcome": "P", "grundy": 0,
            "at": {"heap": 0, "from": 10, "removed": 1, "left": 9}
        }])
    );
    let v = json_stdin(&["nim", "--json", "2", "4", "6"], b"");
    assert_eq!(
        (v["outcome"].as_str(), v["winning_move_count"].as_u64()),
        (Some("P"), Some(0))
    );
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    let v = json_stdin(&["nim", "--misere", "--json", "1", "1", "2"], b"");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["play"], "misere");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{
            "text": "heap 2: take 1 from the heap of 2, leaving 1",
            "short": "heap 2: 2 → 1",
            "to": {"kind": "heaps", "text": "1 1 1", "heaps": [1, 1, 1]},
            "outcome": "P",
            "at": {"heap": 2, "from": 2, "removed": 1, "left": 1}
        }])
    );
    let v = json_stdin(&["nim", "--misere", "--json", "1", "1", "1"], b"");
    assert_eq!(v["outcome"], "P");
    // Integers above 2^53 are strings.
    let v = json_stdin(&["nim", "--json", "18446744073709551615", "1"], b"");
    assert_eq!(v["grundy"], "18446744073709551614");
    assert_eq!(v["winning_moves"][0]["at"]["from"], "18446744073709551615");
    assert_eq!(v["winning_moves"][0]["at"]["left"], 1);
    assert_eq!(
        v["winning_moves"][0]["to"]["heaps"],
        serde_json::json!([1, 1])
    );
    assert_eq!(v["winning_moves"][0]["to"]["text"], "1 1");
}

#[test]
fn nim_reads_heaps_from_stdin() {
    // 1..=100000: the nim-sum of 1..n is n when n ≡ 0 (mod 4).
    let mut input = String::new();
    for h in 1..=100_000u64 {
        input.push_str(&h.to_string());
        input.push(if h % 7 == 0 { '\n' } else { ' ' });
    }
    let v = json_stdin(&["nim", "-", "--json"], input.as_bytes());
    assert_eq!(v["heap_count"], 100_000);
    assert_eq!(v["nim_sum"], 100_000);
    // Each move's `to` would repeat all 100000 heaps: past 2^20 sizes in all, every `to` is
    // abbreviated and every move (up to 2^16) is listed.
    let count = v["winning_move_count"].as_u64().unwrap();
    assert_eq!(count, 100_000 - 65_535);
    assert_eq!(v["all_winning_moves_listed"], true);
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, count);
    for m in moves {
        let (heap, from, left) = (
            m["at"]["heap"].as_u64().unwrap(),
            m["at"]["from"].as_u64().unwrap(),
            m["at"]["left"].as_u64().unwrap(),
        );
        assert_eq!(from, heap + 1);
        assert_eq!(left, from ^ 100_000);
        assert_eq!(
            m["to"],
            serde_json::json!({"kind": "heaps", "text": "", "abbreviated": true})
        );
    }
    let c = json_stdin(&["nim", "-", "--json", "--count-only"], input.as_bytes());
    assert_eq!(c["winning_move_count"], v["winning_move_count"]);
    assert!(c.get("winning_moves").is_none());
    // A thousand heaps: every move listed, each with its whole position.
    let small: String = (1..=1000).map(|h| format!("{h} ")).collect();
    let v = json_stdin(&["nim", "-", "--json"], small.as_bytes());
    assert_eq!(v["all_winning_moves_listed"], true);
    assert_eq!(
        v["winning_moves"].as_array().unwrap().len() as u64,
        v["winning_move_count"].as_u64().unwrap()
    );
    assert_eq!(
        v["winning_moves"][0]["to"]["heaps"]
            .as_array()
            .unwrap()
            .len(),
        1000
    );
}

#[test]
fn nim_bad_input() {
    bad_stdin(&["nim", "1", "abc"], b"", "'abc'");
    bad_stdin(&["nim", "-3"], b"", "'-3'");
    bad_stdin(
        &["nim", "4", "18446744073709551616"],
        b"",
        "'18446744073709551616'",
    );
    bad_stdin(&["nim", "2.5"], b"", "'2.5'");
    bad_stdin(&["nim"], b"", "no heaps");
    bad_stdin(&["nim", "-"], b"  \n", "no heaps");
    bad_stdin(&["nim", "-"], b"1 2 three 4", "'three'");
    bad_stdin(&["nim", "-"], b"5 -7", "'-7'");
    bad_stdin(
        &["nim", "-"],
        b"99999999999999999999999",
        "'99999999999999999999999'",
    );
    bad_stdin(&["nim", "1", "-"], b"", "'-'");
    // A control byte or a newline in a token is escaped: the error stays on one line.
    bad_stdin(&["nim", "1", "a\u{1b}[2Jb"], b"", "'a\\u{1b}[2Jb'");
    bad_stdin(&["nim", "-"], b"1 x\x07y 2", "'x\\u{7}y'");
}

#[test]
fn nimber_arithmetic() {
    assert_eq!(ok(&["nimber", "mul", "21508", "42689"]), "35202\n");
    assert_eq!(ok(&["nimber", "inv", "8"]), "10\n");
    assert_eq!(ok(&["nimber", "add", "11", "16"]), "27\n");
    assert_eq!(ok(&["nimber", "div", "11", "16"]), "68\n");
    assert_eq!(ok(&["nimber", "sqrt", "6"]), "4\n");
    assert_eq!(ok(&["nimber", "pow", "2", "3"]), "1\n"); // 2⊗2 = 3, 3⊗2 = 1 in GF(4)
    assert_eq!(
        ok(&[
            "nimber",
            "mul",
            "18446744073709551616",
            "18446744073709551616"
        ]),
        "27670116110564327424\n"
    );
    let v = json_stdin(&["nimber", "--json", "mul", "21508", "42689"], b"");
    assert_eq!(v["result"], "35202");
    assert_eq!(v["op"], "mul");
}

#[test]
fn nimber_bad_input() {
    bad_stdin(&["nimber", "mul", "1", "x7"], b"", "'x7'");
    bad_stdin(&["nimber", "mul", "-4", "2"], b"", "'-4'");
    bad_stdin(
        &[
            "nimber",
            "mul",
            "340282366920938463463374607431768211456",
            "1",
        ],
        b"",
        "'340282366920938463463374607431768211456'",
    );
    bad_stdin(&["nimber", "inv", "0"], b"", "'0'");
    bad_stdin(&["nimber", "div", "5", "0"], b"", "'0'");
    bad_stdin(&["nimber", "cube", "3"], b"", "'cube'");
    bad_stdin(&["nimber", "mul", "1", "2", "3"], b"", "'3'");
    bad_stdin(&["nimber", "mul", "1", "2\n3"], b"", "'2\\n3'");
}

const GRAPH: &str = "# hand-worked: e, f sinks\na b\na c\nb d\nc d\nc e\nd e\nf\ng a\ng e\n";

fn graph_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("grundy-cli-core-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn graph_values_and_token_moves() {
    let file = graph_file("dag.txt", GRAPH);
    let text = ok(&["graph", &file]);
    assert!(text.contains("c       2"), "{text}");
    let v = json_stdin(&["graph", &file, "--token", "a", "c", "--json"], b"");
    let values: Vec<(String, u64)> = v["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["name"].as_str().unwrap().to_string(),
                x["grundy"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("a", 1),
        ("b", 0),
        ("c", 2),
        ("d", 1),
        ("e", 0),
        ("f", 0),
        ("g", 2),
    ];
    assert_eq!(values, want.map(|(n, g)| (n.to_string(), g)).to_vec());
    assert_eq!(v["grundy"], 3);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["tokens"], serde_json::json!(["a", "c"]));
    assert_eq!(v["play"], "normal");
    // Each move is the catalogue's: the token's coordinates under `at`, `to` the tagged
    // position (the graph and the tokens after the move) that `grundy analyze digraph` reads.
    let moves = v["winning_moves"].as_array().unwrap();
    let at: Vec<_> = moves.iter().map(|m| m["at"].clone()).collect();
    assert_eq!(
        at,
        [
            serde_json::json!({"token": 0, "from": "a", "onto": "c"}),
            serde_json::json!({"token": 1, "from": "c", "onto": "d"})
        ]
    );
    assert_eq!(moves[0]["text"], "move token 0 from a to c");
    assert_eq!(moves[1]["to"]["kind"], "digraph");
    assert_eq!(moves[1]["to"]["tokens"], serde_json::json!(["a", "d"]));
    assert_eq!(moves[1]["outcome"], "P");
    let to = moves[1]["to"]["text"].as_str().unwrap();
    let back = json_stdin(&["analyze", "digraph", to, "--json"], b"");
    assert_eq!(back["outcome"], "P", "{back}");
    let text = ok(&["graph", &file, "--token", "a", "c"]);
    assert!(
        text.contains("tokens on a c: value 1 ⊕ 2 = 3, N-position"),
        "{text}"
    );
    assert!(
        text.contains("  token 0: a -> c   (value 1 -> 2)"),
        "{text}"
    );
    let v = json_stdin(&["graph", "-", "--token", "b", "--json"], GRAPH.as_bytes());
    assert_eq!(v["outcome"], "P");
    // Misère: from b the only move b -> d leaves d, whose only move hands over a stuck token.
    let v = json_stdin(&["graph", &file, "--token", "b", "--misere", "--json"], b"");
    assert_eq!(v["outcome"], "N");
    let m = &v["winning_moves"][0];
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(
        m["at"],
        serde_json::json!({"token": 0, "from": "b", "onto": "d"})
    );
    assert_eq!(m["text"], "move the token from b to d");
    assert_eq!(m["to"]["tokens"], serde_json::json!(["d"]));
    assert!(v.get("grundy").is_none());
    assert_eq!(v["play"], "misere");
}

/// The README's example file gives the README's answer.
#[test]
fn graph_example_file() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/game.txt");
    let v = json_stdin(&["graph", file, "--token", "a", "c", "--json"], b"");
    assert_eq!(v["outcome"], "N");
    assert!(!v["winning_moves"].as_array().unwrap().is_empty());
}

/// Regression: a vertex name of 65,536 characters or more panicked (a format width).
#[test]
fn graph_very_long_vertex_name() {
    let long = "v".repeat(70_000);
    let file = graph_file("long.txt", &format!("{long} b\nb c\n"));
    let text = ok(&["graph", &file]);
    assert!(text.starts_with(&format!("vertex{}  grundy\n", " ".repeat(70_000 - 6))));
    assert!(text.contains(&format!("{long}  0\n")));
    let v = json_stdin(&["graph", &file, "--token", &long, "--json"], b"");
    assert_eq!(v["outcome"], "P");
}

/// Regression: loading checked repeated edges in quadratic time (300,000 edges: 9.3 s).
#[test]
fn graph_with_300000_edges_loads() {
    let mut text = String::new();
    for i in 0..300_000 {
        text.push_str(&format!("hub v{i}\n"));
    }
    let v = json_stdin(&["graph", "-", "--token", "hub", "--json"], text.as_bytes());
    assert_eq!(v["vertices"].as_array().unwrap().len(), 300_001);
    assert_eq!(v["grundy"], 1);
}

/// Regression: misère play of four tokens on a 1000-leaf star grew past 1 GB. The search
/// stops at a position cap (default 1000000, `--max-positions` raises it) with one line
/// naming the limit.
#[test]
fn graph_misere_position_cap() {
    let star: String = (0..1000).map(|i| format!("hub leaf{i}\n")).collect();
    let file = graph_file("star.txt", &star);
    let four = [
        "graph", &file, "--token", "hub", "hub", "hub", "hub", "--misere",
    ];
    bad_stdin(
        &four,
        b"",
        "more than 1000000 positions (the position limit)",
    );
    let mut capped = four.to_vec();
    capped.extend(["--max-positions", "5000"]);
    bad_stdin(
        &capped,
        b"",
        "more than 5000 positions (the position limit)",
    );
    bad_stdin(&capped, b"", "--max-positions");
    bad_stdin(
        &[
            "graph",
            &file,
            "--token",
            "hub",
            "--misere",
            "--max-positions",
            "lots",
        ],
        b"",
        "'lots'",
    );
    // Within the cap: two tokens on a smaller star.
    let small: String = (0..40).map(|i| format!("hub l{i}\n")).collect();
    let small = graph_file("small_star.txt", &small);
    let v = json_stdin(
        &[
            "graph",
            &small,
            "--token",
            "hub",
            "hub",
            "--misere",
            "--max-positions",
            "2000",
            "--json",
        ],
        b"",
    );
    assert!(v["outcome"] == "N" || v["outcome"] == "P");
}

#[test]
fn graphs_with_cycles_get_smiths_values() {
    // Two won games (each can leave its loop for an exit) that together are a draw.
    let file = graph_file("draw.txt", "a b\nb a\na x\nc d\nd c\nc y\nb b\nd d\n");
    let v = json_stdin(&["graph", &file, "--token", "a", "c", "--json"], b"");
    // The token report is flattened into the object, as in `grundy graph` of a DAG.
    assert_eq!(v["outcome"], "D", "{v}");
    assert_eq!(v["grundy"], serde_json::json!({ "infinite": [] }), "{v}");
    assert_eq!(v["drawing_moves"].as_array().unwrap().len(), 2, "{v}");
    // The moves are the catalogue's, as for a DAG: `at` holds the token, `to` the position.
    let d = &v["drawing_moves"][0];
    assert_eq!(d["outcome"], "D", "{d}");
    assert_eq!(d["at"]["token"], 0, "{d}");
    assert_eq!(d["to"]["kind"], "digraph", "{d}");
    assert_eq!(d["grundy"], serde_json::json!({ "infinite": [] }), "{d}");
    let text = ok_stdin(&["graph", &file, "--token", "a"], b"");
    assert!(text.contains('N'), "{text}");
    // --explain: why, in words.
    let text = ok_stdin(&["graph", &file, "--token", "a", "c", "--explain"], b"");
    assert!(text.contains("a draw"), "{text}");
    assert!(text.contains("keeps the draw"), "{text}");
    let text = ok_stdin(&["graph", &file, "--token", "b", "--explain"], b"");
    assert!(text.starts_with("b is a draw"), "{text}");
    let v = json_stdin(
        &["graph", &file, "--token", "a", "--explain", "--json"],
        b"",
    );
    assert!(
        v["explanation"].as_str().unwrap().contains("a -> x wins"),
        "{v}"
    );
    bad_stdin(&["graph", &file, "--explain"], b"", "--token");
}

#[test]
fn graph_bad_input() {
    let file = graph_file("dag2.txt", GRAPH);
    bad_stdin(&["graph", &file, "--token", "nowhere"], b"", "'nowhere'");
    // A cycle is valued (Smith's values), but misère play of a loopy graph is refused with
    // the cycle named.
    bad_stdin(
        &[
            "graph",
            &graph_file("cycle.txt", "s x\nx y\ny x\n"),
            "--token",
            "s",
            "--misere",
        ],
        b"",
        "x -> y -> x",
    );
    bad_stdin(&["graph", &graph_file("empty.txt", "")], b"", "no vertices");
    bad_stdin(
        &["graph", &graph_file("bad.txt", "a b\nb c d\n")],
        b"",
        "'d'",
    );
    bad_stdin(
        &["graph", "/nonexistent/graph.txt"],
        b"",
        "'/nonexistent/graph.txt'",
    );
    // Names with a newline or a control byte are escaped: one line, naming the token.
    bad_stdin(
        &["graph", &file, "--token", "no\nwhere"],
        b"",
        "'no\\nwhere'",
    );
    bad_stdin(
        &["graph", &file, "--token", "x\u{1b}[31m"],
        b"",
        "'x\\u{1b}[31m'",
    );
    bad_stdin(
        &["graph", &graph_file("ctl.txt", "a b c\u{7}\n")],
        b"",
        "'c\\u{7}'",
    );
    bad_stdin(&["graph", "/nonexistent/a\nb"], b"", "'/nonexistent/a\\nb'");
}

/// `grundy graph` streams its answer: on every file of `examples/graphs` (cycles) and the
/// README's graph (none), its text and JSON are the whole answer the library builds in memory
/// (`grundy::loopy::analyze`, `grundy::graph::analyze`), with and without tokens.
#[test]
fn graph_streamed_output_is_the_whole_answer() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut files: Vec<String> = std::fs::read_dir(format!("{root}/examples/graphs"))
        .expect("examples/graphs")
        .map(|e| e.expect("entry").path().display().to_string())
        .filter(|p| p.ends_with(".txt"))
        .collect();
    files.push(format!("{root}/examples/game.txt"));
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let names: Vec<String> = grundy::graph::DiGraph::parse(&text)
            .map(|g| (0..g.len()).map(|v| g.name(v).to_string()).collect())
            .expect("a graph");
        let mut token_sets = vec![vec![]];
        token_sets.extend(names.iter().map(|a| vec![a.clone()]));
        token_sets.push(vec![names[0].clone(), names[names.len() - 1].clone()]);
        for tokens in &token_sets {
            let (json, words) = match grundy::graph::analyze(&text, tokens, &Default::default()) {
                Ok(a) => (serde_json::to_string(&a).unwrap(), a.describe()),
                Err(_) => {
                    let a = grundy::loopy::analyze(&text, tokens).expect("a loopy answer");
                    (serde_json::to_string(&a).unwrap(), a.describe())
                }
            };
            let mut args = vec!["graph", file.as_str()];
            if !tokens.is_empty() {
                args.push("--token");
                args.extend(tokens.iter().map(String::as_str));
            }
            assert_eq!(ok(&args), words, "{args:?}");
            args.push("--json");
            assert_eq!(ok(&args), json + "\n", "{args:?}");
        }
    }
}

/// A random graph with cycles of `n` vertices (`v0 …`, each declared) and `3n` edges.
fn random_loopy_graph(n: usize, seed: u64) -> String {
    let mut state = seed;
    let mut below = |k: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % k as u64) as usize
    };
    let mut text: String = (0..n).map(|v| format!("v{v}\n")).collect();
    for _ in 0..3 * n {
        let (a, b) = (below(n), below(n));
        text.push_str(&format!("v{a} v{b}\n"));
    }
    text
}

/// A large graph's JSON is one valid document whose size grows linearly (every move's `to`
/// abbreviated to the tokens: the graph is not repeated in each move).
#[test]
fn graph_large_json_is_valid_and_linear() {
    let mut sizes = Vec::new();
    for n in [20_000, 40_000] {
        let file = graph_file(&format!("random{n}.txt"), &random_loopy_graph(n, 1));
        let text = ok(&["graph", &file, "--json"]);
        sizes.push(text.len());
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let vertices = v["vertices"].as_array().expect("vertices");
        assert_eq!(vertices.len(), n);
        let mut moves = 0;
        for x in vertices {
            for m in x["winning_moves"]
                .as_array()
                .unwrap()
                .iter()
                .chain(x["drawing_moves"].as_array().unwrap())
            {
                assert_eq!(m["to"]["abbreviated"], true, "{m}");
                assert!(m.get("at").is_some(), "{m}");
                moves += 1;
            }
        }
        assert!(moves > n / 2, "{moves} moves");
        assert!(vertices.iter().any(|x| x["outcome"] == "D"));
        assert!(vertices
            .iter()
            .any(|x| x["grundy"].get("infinite").is_some()));
    }
    let ratio = sizes[1] as f64 / sizes[0] as f64;
    assert!((1.8..2.2).contains(&ratio), "{sizes:?}");
}

/// Output to a pipe closed early (`grundy graph FILE | head`) ends quietly: no error, exit 0,
/// for the text and the JSON of a graph whose answer is far larger than the pipe.
#[test]
fn graph_output_to_a_closed_pipe_ends_quietly() {
    use std::io::Read;
    let file = graph_file("closed_pipe.txt", &random_loopy_graph(30_000, 2));
    for json in [false, true] {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"));
        cmd.args(["graph", &file]);
        if json {
            cmd.arg("--json");
        }
        let mut child = cmd
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("grundy runs");
        let mut stdout = child.stdout.take().expect("piped");
        let mut head = [0u8; 100];
        stdout.read_exact(&mut head).expect("the answer starts");
        drop(stdout);
        let out = child.wait_with_output().expect("grundy ends");
        assert!(out.status.success(), "{:?}", out.status);
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
