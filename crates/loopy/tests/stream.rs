//! The streamed answer of `grundy graph` on a graph with cycles ([`LoopyGraph::answer`]: rows
//! written as they are made, moves counted only up to the 2^20 rule's bound) against the whole
//! answer built in memory ([`LoopyGraph::analyze`]): the same JSON, byte for byte, and the same
//! text, on every file of `examples/graphs`, on random graphs, and on graphs either side of
//! the rule that abbreviates every move's `to`.

use grundy_core::graph::DiGraph;
use grundy_loopy::{Digraph, LabelledGraph, LoopyAnswer, LoopyGraph};
use proptest::prelude::*;

/// The streamed JSON, pieces joined.
fn json_of(a: &LoopyAnswer) -> String {
    let mut s = String::new();
    a.write_json(|piece| {
        s.push_str(piece);
        Ok::<(), ()>(())
    })
    .expect("a String takes every piece");
    s
}

/// Streamed and whole answers agree (JSON bytes and text), or fail alike. Returns whether the
/// moves' `to`s were abbreviated.
fn check_same(g: &LoopyGraph, tokens: &[&str]) -> Option<bool> {
    match (g.answer(tokens), g.analyze(tokens)) {
        (Ok(streamed), Ok(whole)) => {
            assert_eq!(
                json_of(&streamed),
                serde_json::to_string(&whole).unwrap(),
                "{tokens:?}"
            );
            assert_eq!(streamed.to_string(), whole.describe(), "{tokens:?}");
            for (row, v) in streamed.vertices.iter().zip(&whole.vertices) {
                assert_eq!(row.name(), v.name);
                assert_eq!(row.grundy(), v.grundy);
                assert_eq!((row.outcome(), row.remoteness()), (v.outcome, v.remoteness));
                let (wins, draws) = row.steps();
                assert_eq!(
                    (wins.len(), draws.len()),
                    (v.winning_moves.len(), v.drawing_moves.len())
                );
            }
            Some(streamed.vertices.abbreviated())
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            None
        }
        (a, b) => panic!("streamed {:?} but whole {:?}", a.err(), b.err()),
    }
}

#[test]
fn example_files_stream_as_they_are_analysed() {
    let dir = format!("{}/../../examples/graphs", env!("CARGO_MANIFEST_DIR"));
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("examples/graphs exists") {
        let path = entry.expect("readable entry").path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable file");
        let g = LoopyGraph::parse(&text).expect("a graph");
        let names: Vec<String> = (0..g.names().len())
            .map(|v| g.names().name(v).to_string())
            .collect();
        check_same(&g, &[]);
        for a in &names {
            check_same(&g, &[a.as_str()]);
            for b in &names {
                check_same(&g, &[a.as_str(), b.as_str()]);
            }
        }
        check_same(&g, &["nowhere"]);
        files += 1;
    }
    assert!(files >= 3);
}

/// Vertex names, some of which JSON escapes, some longer than 8 bytes.
const NAMES: &[&str] = &[
    "a",
    "b\"",
    "c\\",
    "é",
    "x\u{1}",
    "日本",
    "vertex_long_1",
    "vertex_long_2",
    "z",
];

fn named(n: usize, edges: &[(usize, usize)], name: impl Fn(usize) -> String) -> LoopyGraph {
    let mut g = DiGraph::new();
    for v in 0..n {
        g.add_vertex(&name(v));
    }
    for &(a, b) in edges {
        g.add_edge(a, b);
    }
    LoopyGraph::from_digraph(g).expect("small")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn streamed_equals_whole_on_random_graphs(
        (n, edges) in (1..=NAMES.len()).prop_flat_map(|n| {
            (Just(n), prop::collection::vec((0..n, 0..n), 0..=22))
        }),
        tokens in prop::collection::vec(0..NAMES.len() + 1, 0..4),
    ) {
        let g = named(n, &edges, |v| NAMES[v].to_string());
        // An index past the graph names no vertex: the same error both ways.
        let tokens: Vec<&str> = tokens
            .iter()
            .map(|&t| if t < n { NAMES[t] } else { "nowhere" })
            .collect();
        check_same(&g, &tokens);
    }
}

/// A small generator for the larger graphs below (no dependency).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Graphs on both sides of the 2^20 rule: the streamed answer counts the moves only until
/// they pass the rule's bound, and must abbreviate exactly when the whole answer does.
#[test]
fn the_full_to_rule_is_kept() {
    let mut rng = Lcg(7);
    let (mut full, mut abbreviated) = (0, 0);
    for n in [20, 60, 150, 300, 500, 700, 1000, 1500] {
        for density in [1, 2, 3] {
            let edges: Vec<(usize, usize)> = (0..density * n)
                .map(|_| (rng.below(n), rng.below(n)))
                .collect();
            let g = named(n, &edges, |v| format!("v{v}"));
            for tokens in [vec![], vec!["v0".to_string(), "v1".to_string()]] {
                let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
                match check_same(&g, &tokens) {
                    Some(true) => abbreviated += 1,
                    Some(false) => full += 1,
                    None => {}
                }
            }
        }
    }
    assert!(
        full > 0 && abbreviated > 0,
        "full {full}, abbreviated {abbreviated}"
    );
}

/// The table of `K` masks (values up to 30; a larger value read from the options) writes
/// the values the labelling gives.
#[test]
fn value_table_writes_every_value() {
    // Nim heaps h0..h40 (h_i moves to every h_j, j < i: value i), and loopy vertices with
    // loops and options of small and large values.
    let heaps = 41;
    let mut edges = Vec::new();
    for i in 0..heaps {
        for j in 0..i {
            edges.push((i, j));
        }
    }
    let (x, y, z) = (heaps, heaps + 1, heaps + 2);
    edges.extend([
        (x, x),
        (x, 3),
        (x, 35),
        (y, y),
        (y, 30),
        (y, 31),
        (z, x),
        (z, z),
    ]);
    let l = LabelledGraph::new(Digraph::from_edges(heaps + 3, &edges).unwrap());
    let table = l.value_table();
    let mut json = String::new();
    for v in 0..heaps + 3 {
        assert_eq!(table.value_of(v).to_string(), l.value(v).to_string(), "{v}");
        assert_eq!(l.value_of(v).to_string(), l.value(v).to_string(), "{v}");
        json.clear();
        grundy_core::graph::PushJson::push_json(&table.value_of(v), &mut json);
        assert_eq!(json, serde_json::to_string(&l.value(v)).unwrap(), "{v}");
    }
    assert_eq!(l.value(x).to_string(), "∞(3,35)");
    assert_eq!(l.value(y).to_string(), "∞(30,31)");
}
