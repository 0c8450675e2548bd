//! The loopy graph files of `examples/graphs/` give the outcomes their comments state: each
//! `# expect VERTEX VALUE OUTCOME [REMOTENESS]` and `# expect-tokens A B …: VALUE OUTCOME`
//! line is checked (Ferguson's drawn cycle, a cycle with one exit, a drawn sum of two won
//! positions).

use grundy_loopy::{LoopyGraph, Outcome};

fn examples() -> Vec<(String, String)> {
    let dir = format!("{}/../../examples/graphs", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("examples/graphs exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable file");
            (p.display().to_string(), text)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn graph_examples_give_their_stated_outcomes() {
    let files = examples();
    assert!(files.len() >= 3, "{files:?}");
    let mut checked = 0;
    for (path, text) in &files {
        let g = LoopyGraph::parse(text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let report = g.analyze(&[] as &[&str]).expect("no tokens");
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# expect ") {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let v = g.names().vertex(w[0]).expect("vertex of the file");
                let r = &report.vertices[v];
                assert_eq!(r.grundy.to_string(), w[1], "{path}: {line}");
                assert_eq!(r.outcome.as_str(), w[2], "{path}: {line}");
                let rem = w.get(3).map(|x| x.parse::<u64>().expect("remoteness"));
                if r.outcome == Outcome::D {
                    assert_eq!(r.remoteness, None);
                } else if rem.is_some() {
                    assert_eq!(r.remoteness, rem, "{path}: {line}");
                }
                checked += 1;
            } else if let Some(rest) = line.strip_prefix("# expect-tokens ") {
                let (tokens, want) = rest.split_once(':').expect("tokens: VALUE OUTCOME");
                let tokens: Vec<&str> = tokens.split_whitespace().collect();
                let want: Vec<&str> = want.split_whitespace().collect();
                let t = g.analyze(&tokens).expect("tokens").tokens.expect("given");
                assert_eq!(t.grundy.to_string(), want[0], "{path}: {line}");
                assert_eq!(t.outcome.as_str(), want[1], "{path}: {line}");
                match t.outcome {
                    Outcome::N => assert!(!t.winning_moves.is_empty()),
                    Outcome::D => assert!(!t.drawing_moves.is_empty()),
                    Outcome::P => {}
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 15, "{checked} expectations");
}

#[test]
fn ferguson_cycle_explained() {
    let text = std::fs::read_to_string(format!(
        "{}/../../examples/graphs/ferguson-cycle.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example");
    let g = LoopyGraph::parse(&text).expect("valid");
    let c = g.explain("c").expect("vertex");
    assert!(c.starts_with("c is a draw (value ∞(1))"), "{c}");
    assert!(c.contains("c -> a keeps the draw"), "{c}");
    assert!(
        c.contains("c -> d loses: the opponent answers d -> e (a P-position) and wins; the game ends 1 move after c -> d"),
        "{c}"
    );
    let d = g.explain("d").expect("vertex");
    assert!(d.starts_with("d is an N-position (value 1)"), "{d}");
    let e = g.explain("e").expect("vertex");
    assert!(e.contains("there is no move"), "{e}");
    assert!(g.explain("zz").is_err());
    let table = g.analyze(&["a", "d"]).expect("tokens").describe();
    assert!(table.contains("c       ∞(1)    D"), "{table}");
    assert!(
        table.contains("tokens on a d: value ∞ + 1 = ∞, a draw"),
        "{table}"
    );
    println!("{table}");
    let why = g.explain_tokens(&["a", "d"]).expect("tokens");
    println!("{why}\n{c}");
    assert!(
        why.contains("one token stands on an infinite value"),
        "{why}"
    );
    let json = serde_json::to_value(g.analyze(&["a", "d"]).expect("tokens")).expect("json");
    assert_eq!(json["vertices"][2]["grundy"]["infinite"][0], 1);
    assert_eq!(json["outcome"], "D");
    assert_eq!(json["grundy"]["infinite"].as_array().map(Vec::len), Some(0));
    assert!(json["vertices"][0].get("remoteness").is_none());
    assert_eq!(json["vertices"][3]["remoteness"], 1);
}

#[test]
fn malformed_graphs_are_one_line_errors() {
    for (text, needle) in [
        ("a b c\n", "line 1"),
        ("# nothing\n", "no vertices"),
        ("", "no vertices"),
    ] {
        let e = LoopyGraph::parse(text).expect_err(text).to_string();
        assert!(e.contains(needle), "{e}");
        assert!(!e.contains('\n'));
    }
    let g = LoopyGraph::parse("a b\nb a\n").expect("cycles are fine");
    let e = g.analyze(&["q\nq"]).expect_err("unknown").to_string();
    assert_eq!(e, "unknown vertex 'q\\nq'");
}
