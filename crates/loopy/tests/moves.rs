//! The moves of `grundy graph` on a loopy graph are the catalogue's one `Move`: each `to`
//! parses back through the `loopy-digraph` entry and has the outcome and value the move
//! claims, every vertex's moves as well as the tokens'; a huge answer abbreviates every `to`.

use grundy_core::catalogue::{Budget, Play, Rules};
use grundy_core::{Move, Outcome};
use grundy_loopy::{analyze, Grundy};

fn loopy_digraph() -> Box<dyn Rules> {
    let entries = grundy_loopy::catalogue::entries();
    let e = entries
        .iter()
        .find(|e| e.matches("loopy-digraph"))
        .expect("registered");
    e.open("loopy-digraph").expect("opens")
}

/// Parses `m.to.text` with the registry's entry and checks the outcome and value it claims.
fn check_back(rules: &mut Box<dyn Rules>, m: &Move) {
    assert_eq!(m.to.kind, "digraph", "{m:?}");
    assert!(!m.to.data.contains_key("abbreviated"), "{m:?}");
    let pos = rules.parse(&m.to.text).expect("to.text parses back");
    assert_eq!(pos.text, m.to.text, "printed as parsed");
    let r = rules
        .analyze(
            &pos,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(Budget::default()),
        )
        .expect("analyses");
    assert_eq!(r.outcome, m.outcome, "{}: {m:?}", m.to.text);
    assert_eq!(r.grundy.as_ref(), m.grundy.as_ref(), "{}", m.to.text);
}

#[test]
fn every_move_of_a_drawn_graph_parses_back_with_its_outcome() {
    // a and c are each won (exits x and y) but together drawn; b and d loop.
    let text = "a b\nb a\na x\nc d\nd c\nc y\nb b\nd d\n";
    let mut rules = loopy_digraph();
    let a = analyze(text, &["a", "c"]).unwrap();
    let t = a.tokens.as_ref().unwrap();
    assert_eq!(t.outcome, Outcome::D);
    assert_eq!(t.grundy, Grundy::infinite([]));
    assert_eq!(t.drawing_moves.len(), 2);
    for m in &t.drawing_moves {
        assert_eq!(m.outcome, Outcome::D);
        assert!(m
            .to
            .text
            .ends_with(if m.at["token"] == 0 { "@ b c" } else { "@ a d" }));
        check_back(&mut rules, m);
    }
    // Every vertex's moves: one token on the vertex, the vertex moved onto in `at` with its
    // remoteness (absent for a draw).
    let mut seen = 0;
    for v in &a.vertices {
        for m in v.winning_moves.iter().chain(&v.drawing_moves) {
            assert_eq!(m.at["from"], v.name.as_str(), "{m:?}");
            assert_eq!(
                m.text,
                format!(
                    "move the token from {} to {}",
                    v.name,
                    m.at["onto"].as_str().unwrap()
                )
            );
            assert_eq!(
                m.at.contains_key("remoteness"),
                m.outcome != Outcome::D,
                "{m:?}"
            );
            check_back(&mut rules, m);
            seen += 1;
        }
    }
    // a -> x and c -> y win; b -> b and d -> d keep the draws of b and d (b -> a and d -> c
    // hand over a won position).
    assert_eq!(seen, 4);
    let a_moves = &a.vertices[0].winning_moves;
    assert_eq!(a_moves[0].at["onto"], "x");
    assert_eq!(a_moves[0].at["remoteness"], 0);
    assert_eq!(
        a_moves[0].to.text,
        "a b; a x; b a; b b; c d; c y; d c; d d; @ x"
    );
    // The JSON of a vertex: its moves are `Move`s.
    let json = serde_json::to_value(&a.vertices[0]).unwrap();
    assert_eq!(json["winning_moves"][0]["short"], "a → x", "{json}");
    assert_eq!(json["winning_moves"][0]["to"]["tokens"][0], "x", "{json}");
}

#[test]
fn a_won_sum_lists_winning_moves_that_parse_back() {
    // A cycle a -> b -> c -> a with one exit c -> x.
    let text = "a b\nb c\nc a\nc x\n";
    let mut rules = loopy_digraph();
    let a = analyze(text, &["a", "c"]).unwrap();
    let t = a.tokens.as_ref().unwrap();
    assert_eq!(t.outcome, Outcome::N);
    assert!(!t.winning_moves.is_empty());
    for m in &t.winning_moves {
        assert_eq!(m.outcome, Outcome::P);
        check_back(&mut rules, m);
    }
}

#[test]
fn a_huge_answer_abbreviates_every_to() {
    // A hub with 1000 spokes, each with a loop and a way back, and one exit: each spoke is a
    // draw kept by its loop (1000 moves listed), the hub is won by its exit (as a vertex and
    // as the token's move); 1002 moves times a graph of 4003 edges and vertices passes 2^20.
    let n = 1000;
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("hub v{i}\nv{i} hub\nv{i} v{i}\n"));
    }
    text.push_str("hub out\n");
    let a = analyze(&text, &["hub"]).unwrap();
    let t = a.tokens.as_ref().unwrap();
    let mut moves: Vec<&Move> = t.winning_moves.iter().chain(&t.drawing_moves).collect();
    for v in &a.vertices {
        moves.extend(v.winning_moves.iter().chain(&v.drawing_moves));
    }
    assert!(moves.len() > 1000, "{}", moves.len());
    for m in &moves {
        assert_eq!(m.to.data["abbreviated"], true, "{m:?}");
        assert!(m.to.text.starts_with("@ "), "{m:?}");
        assert!(!m.to.data.contains_key("edges"), "{m:?}");
    }
    // Linear, not quadratic: a few hundred bytes per move at most.
    let json = serde_json::to_string(&a).unwrap();
    assert!(
        json.len() < 400 * (moves.len() + a.vertices.len()),
        "{}",
        json.len()
    );
    // The graph's own lines before an abbreviated `to` give the position back.
    let m = &t.winning_moves[0];
    let mut rules = loopy_digraph();
    let full = format!("{}; {}", text.trim_end().replace('\n', "; "), m.to.text);
    let pos = rules.parse(&full).unwrap();
    let r = rules
        .analyze(
            &pos,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(Budget::default()),
        )
        .unwrap();
    assert_eq!(r.outcome, m.outcome);
}

#[test]
fn a_small_graph_keeps_every_to_full() {
    // b loops (a draw), so a wins only by a -> c.
    let a = analyze("a b\nb a\nb b\na c\n", &["a"]).unwrap();
    let t = a.tokens.unwrap();
    assert_eq!(t.winning_moves.len(), 1);
    assert!(t.winning_moves[0].to.data.contains_key("edges"));
    assert_eq!(t.winning_moves[0].to.text, "a b; a c; b a; b b; @ c");
}

#[test]
fn every_move_of_the_example_graph_files_parses_back() {
    // examples/graphs: Ferguson's drawn cycle, a cycle with one exit, a drawn sum of two won
    // positions; every vertex's moves, and the moves of each `# expect-tokens` line's tokens.
    let dir = format!("{}/../../examples/graphs", env!("CARGO_MANIFEST_DIR"));
    let mut rules = loopy_digraph();
    let (mut moves, mut draws) = (0, 0);
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(g) = grundy_loopy::LoopyGraph::parse(&text) else {
            continue;
        };
        let mut answers = vec![g.analyze(&[] as &[&str]).unwrap()];
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# expect-tokens ") {
                let tokens: Vec<&str> =
                    rest.split(':').next().unwrap().split_whitespace().collect();
                answers.push(g.analyze(&tokens).unwrap());
            }
        }
        for a in &answers {
            let mut all: Vec<&Move> = a
                .vertices
                .iter()
                .flat_map(|v| v.winning_moves.iter().chain(&v.drawing_moves))
                .collect();
            if let Some(t) = &a.tokens {
                all.extend(t.winning_moves.iter().chain(&t.drawing_moves));
            }
            for m in all {
                check_back(&mut rules, m);
                moves += 1;
                draws += usize::from(m.outcome == Outcome::D);
            }
        }
    }
    assert!(
        moves >= 5 && draws >= 2,
        "{moves} moves, {draws} keep a draw"
    );
}
