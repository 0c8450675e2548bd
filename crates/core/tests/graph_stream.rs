//! The streamed answer of `grundy graph` on a loopfree graph ([`DiGraph::answer`]: rows
//! written as they are made) against the whole answer built in memory ([`DiGraph::analyze`]):
//! the same JSON, byte for byte, and the same text, on random graphs with tokens in normal and
//! misère play and names that JSON must escape. And the fast parser (table read ahead, lists
//! built at the end) against the straightforward one it replaced.

use std::collections::{HashMap, HashSet};

use grundy_core::graph::{
    push_json_str, DiGraph, GraphAnswer, GraphError, GraphOptions, MoveView, TokenMoves,
};
use grundy_core::nim::Play;
use grundy_core::{Grundy, Outcome};
use proptest::prelude::*;

/// The streamed JSON, pieces joined.
fn json_of(a: &GraphAnswer) -> String {
    let mut s = String::new();
    a.write_json(|piece| {
        s.push_str(piece);
        Ok::<(), ()>(())
    })
    .expect("a String takes every piece");
    s
}

/// Streamed and whole answers agree: JSON bytes and text, or the same error.
fn check_same(g: &DiGraph, tokens: &[&str], options: &GraphOptions) {
    match (g.answer(tokens, options), g.analyze(tokens, options)) {
        (Ok(streamed), Ok(whole)) => {
            assert_eq!(json_of(&streamed), serde_json::to_string(&whole).unwrap());
            assert_eq!(streamed.to_string(), whole.describe());
            let rows: Vec<(&str, u64)> = streamed
                .vertices
                .iter()
                .map(|r| (r.name, r.grundy))
                .collect();
            let want: Vec<(&str, u64)> = whole
                .vertices
                .iter()
                .map(|v| (v.name.as_str(), v.grundy))
                .collect();
            assert_eq!(rows, want);
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!("streamed {:?} but whole {:?}", a.err(), b.err()),
    }
}

/// Names a file may hold: plain, longer than 8 bytes with a shared head, and ones JSON escapes.
const NAMES: &[&str] = &[
    "a",
    "b\"q",
    "c\\d",
    "é",
    "x\u{7}y",
    "日本",
    "vertex_long_1",
    "vertex_long_2",
    "z",
    "w}",
];

fn dag_text(edges: &[(usize, usize)], lone: &[usize]) -> String {
    let mut text = String::new();
    for &v in lone {
        text.push_str(NAMES[v]);
        text.push('\n');
    }
    for &(a, b) in edges {
        // Loopfree: edges go up the list of names.
        let (a, b) = (a.min(b), a.max(b));
        if a != b {
            text.push_str(&format!("{} {}\n", NAMES[a], NAMES[b]));
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn streamed_equals_whole_on_random_dags(
        edges in prop::collection::vec((0..NAMES.len(), 0..NAMES.len()), 0..25),
        lone in prop::collection::vec(0..NAMES.len(), 1..3),
        tokens in prop::collection::vec(0..NAMES.len() + 1, 0..4),
        misere in any::<bool>(),
    ) {
        let g = DiGraph::parse(&dag_text(&edges, &lone)).unwrap();
        // Index NAMES.len() names no vertex: an unknown token, the same error both ways.
        let tokens: Vec<&str> = tokens.iter().map(|&t| NAMES.get(t).copied().unwrap_or("nowhere")).collect();
        let options = GraphOptions { play: Play::from_misere(misere), ..GraphOptions::default() };
        check_same(&g, &tokens, &options);
    }
}

#[test]
fn streamed_answer_of_a_cycle_is_the_same_error() {
    let g = DiGraph::parse("a b\nb c\nc a\n").unwrap();
    let options = GraphOptions::default();
    assert!(matches!(
        g.answer(&["a"], &options),
        Err(GraphError::Cycle { .. })
    ));
    check_same(&g, &["a"], &options);
}

#[test]
fn streamed_answer_of_the_readme_graph() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/game.txt"
    ))
    .expect("examples/game.txt");
    let g = DiGraph::parse(&text).unwrap();
    let names: Vec<String> = (0..g.len()).map(|v| g.name(v).to_string()).collect();
    for play in [Play::Normal, Play::Misere] {
        let options = GraphOptions {
            play,
            ..GraphOptions::default()
        };
        check_same(&g, &[] as &[&str], &options);
        for a in &names {
            check_same(&g, &[a.as_str()], &options);
            for b in &names {
                check_same(&g, &[a.as_str(), b.as_str()], &options);
            }
        }
    }
}

/// A move written by hand (`MoveView::push_json`) is the serde JSON of the `Move` that
/// `TokenMoves::moves` builds, for names built by hand too (spaces, empty, trailing
/// whitespace: the `@` line is trimmed as a whole), full `to`s and abbreviated ones.
#[test]
fn move_views_are_the_moves_json() {
    let mut g = DiGraph::new();
    let names = [
        "a",
        "b c",
        "",
        "d ",
        "e\u{3000}",
        "\"q\"",
        "long name of more than thirty characters",
    ];
    let vs: Vec<usize> = names.iter().map(|n| g.add_vertex(n)).collect();
    for &a in &vs {
        for &b in &vs {
            g.add_edge(a, b);
        }
    }
    for moves in [1, 1 << 30] {
        let builder = TokenMoves::new(&g, moves);
        assert_eq!(builder.abbreviated(), moves > 1);
        for tokens in [vec![vs[0]], vec![vs[1], vs[2]], vec![vs[6], vs[3], vs[4]]] {
            for token in 0..tokens.len() {
                for &onto in &vs {
                    for grundy in [
                        None,
                        Some(Grundy::Finite(0)),
                        Some(Grundy::infinite([1, 5])),
                    ] {
                        for extra in [
                            None,
                            Some(("aaa", 3)),
                            Some(("remoteness", 1 << 60)),
                            Some(("zz", 0)),
                        ] {
                            let step = [(token, onto, Outcome::D, grundy.clone())];
                            let mut m = builder.moves(&tokens, &step).remove(0);
                            let mut view: MoveView<Grundy> =
                                builder.view(&tokens, token, onto, Outcome::D, grundy.clone());
                            if let Some((key, value)) = extra {
                                m = m.at(key, grundy_core::text::JsonU64(value));
                                view = view.at(key, value);
                            }
                            let mut json = String::new();
                            view.push_json(&mut json);
                            assert_eq!(json, serde_json::to_string(&m).unwrap());
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn json_strings_are_escaped_as_serde_does() {
    for s in [
        "",
        "plain",
        "q\"uote",
        "back\\slash",
        "\u{0}\u{1f}\u{7f}",
        "é日本\u{2028}",
        "/",
    ] {
        let mut out = String::new();
        push_json_str(&mut out, s);
        assert_eq!(out, serde_json::to_string(s).unwrap());
    }
}

/// The parser before issue 39: lines, `#` comments and `split_whitespace`, names in a hash map
/// of strings, each edge once where it first appears.
fn reference_parse(text: &str) -> Result<(Vec<String>, Vec<Vec<usize>>), GraphError> {
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut succ: Vec<Vec<usize>> = Vec::new();
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    let mut add = |name: &str, names: &mut Vec<String>, succ: &mut Vec<Vec<usize>>| {
        *index.entry(name.to_string()).or_insert_with(|| {
            names.push(name.to_string());
            succ.push(Vec::new());
            names.len() - 1
        })
    };
    for (i, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("");
        let mut words = content.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (None, _, _) => {}
            (Some(v), None, _) => {
                add(v, &mut names, &mut succ);
            }
            (Some(a), Some(b), None) => {
                let a = add(a, &mut names, &mut succ);
                let b = add(b, &mut names, &mut succ);
                if seen.insert((a, b)) {
                    succ[a].push(b);
                }
            }
            (Some(_), Some(_), Some(extra)) => {
                return Err(GraphError::Malformed {
                    line: i + 1,
                    token: extra.to_string(),
                })
            }
        }
    }
    if names.is_empty() {
        return Err(GraphError::Empty);
    }
    Ok((names, succ))
}

fn check_parse(text: &str) {
    match (DiGraph::parse(text), reference_parse(text)) {
        (Ok(g), Ok((names, succ))) => {
            assert_eq!(g.len(), names.len(), "{text:?}");
            for (v, name) in names.iter().enumerate() {
                assert_eq!(g.name(v), name, "{text:?}");
                assert_eq!(g.vertex(name), Ok(v), "{text:?}");
                assert_eq!(g.successors(v), succ[v].as_slice(), "{text:?}");
            }
            assert_eq!(g.edge_count(), succ.iter().map(Vec::len).sum::<usize>());
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{text:?}"),
        (a, b) => panic!("{text:?}: fast {:?}, reference {:?}", a.err(), b.err()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every whitespace `split_whitespace` knows (ASCII and not), comments, carriage returns.
    #[test]
    fn parser_equals_the_straightforward_one(
        chars in prop::collection::vec(prop::sample::select(vec![
            'a', 'b', 'c', 'é', '#', ' ', ' ', '\t', '\u{b}', '\u{c}', '\r', '\n', '\n', '\n',
            '\u{a0}', '\u{2003}', '\u{85}', '\u{1c}', '\u{0}', 'x', 'y', '"',
        ]), 0..80),
    ) {
        let text: String = chars.into_iter().collect();
        check_parse(&text);
    }
}

#[test]
fn parser_keeps_first_edges_of_hubs_and_many_names() {
    // A hub of 200 successors, each edge written three times in a shuffled order, and
    // thousands of names (the table grows many times), long ones sharing their first 8 bytes.
    let mut text = String::new();
    for round in 0..3 {
        for i in 0..200 {
            let j = (i * 37 + round * 11) % 200;
            text.push_str(&format!("hub leaf_with_a_long_name_{j}\n"));
        }
    }
    for i in 0..5000 {
        text.push_str(&format!("n{i} vertex_number_{}\n", i / 2));
    }
    check_parse(&text);
    // An edge added after parsing (the compact lists become one list per vertex).
    let mut g = DiGraph::parse(&text).unwrap();
    let (hub, n0) = (g.vertex("hub").unwrap(), g.vertex("n0").unwrap());
    let before = g.edge_count();
    g.add_edge(hub, n0);
    g.add_edge(hub, n0);
    g.add_edge(hub, g.vertex("leaf_with_a_long_name_0").unwrap());
    assert_eq!(g.edge_count(), before + 1);
    assert_eq!(g.successors(hub).last(), Some(&n0));
    assert_eq!(g.successors(hub).len(), 201);
    let x = g.add_vertex("x");
    g.add_edge(x, hub);
    assert_eq!(g.successors(x), [hub]);
}
