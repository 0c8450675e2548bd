//! Games on a directed graph: a DAG worked out by hand, random DAGs against the recursive
//! definition and the generic solver, and the parser's errors.

use grundy_core::budget::{Budget, Resource};
use grundy_core::graph::{
    analyze_tokens, misere_tokens, DiGraph, GraphError, GraphOptions, Tokens,
};
use grundy_core::nim::Play;
use grundy_core::Move;
use grundy_core::{Outcome, Solver};
use proptest::prelude::*;

const HAND: &str = "\
# a small DAG; values worked out by hand below
a b
a c
b d
c d
c e   # e is a sink
d e
f
g a
g e
";

#[test]
fn hand_worked_dag() {
    let g = DiGraph::parse(HAND).unwrap();
    let v = g.grundy_values().unwrap();
    let value = |name: &str| v[g.vertex(name).unwrap()];
    // e, f: sinks, 0. d -> {e}: mex{0} = 1. b -> {d}: mex{1} = 0. c -> {d, e}: mex{1, 0} = 2.
    // a -> {b, c}: mex{0, 2} = 1. g -> {a, e}: mex{1, 0} = 2.
    for (name, want) in [
        ("a", 1),
        ("b", 0),
        ("c", 2),
        ("d", 1),
        ("e", 0),
        ("f", 0),
        ("g", 2),
    ] {
        assert_eq!(value(name), want, "{name}");
    }
    // Tokens on a and c: 1 ⊕ 2 = 3. Move a -> c (to value 2) or c -> d (to value 1).
    let (a, c, d) = (
        g.vertex("a").unwrap(),
        g.vertex("c").unwrap(),
        g.vertex("d").unwrap(),
    );
    let t = analyze_tokens(&g, &v, &[a, c]);
    assert_eq!((t.grundy, t.outcome), (3, Outcome::N));
    let steps: Vec<_> = t.winning_moves.iter().map(|m| step(&g, m)).collect();
    assert_eq!(steps, vec![(0, a, c), (1, c, d)]);
    let b = g.vertex("b").unwrap();
    let e = g.vertex("e").unwrap();
    let t = analyze_tokens(&g, &v, &[b, e, e]);
    assert_eq!((t.grundy, t.outcome), (0, Outcome::P));
    assert!(t.winning_moves.is_empty());
    // Two tokens on the same vertex cancel.
    assert_eq!(analyze_tokens(&g, &v, &[c, c]).outcome, Outcome::P);
    // Misère: a lone token on d must move to the sink e and hand over a position with no move,
    // which wins for the opponent; a token on the sink e (no move) wins for the mover.
    assert_eq!(misere_tokens(&g, &[d]).unwrap(), (Outcome::P, vec![]));
    assert_eq!(misere_tokens(&g, &[e]).unwrap(), (Outcome::N, vec![]));
    // The moves' `to` is the catalogue's position: sent back, it parses to the same tokens.
    let t = analyze_tokens(&g, &v, &[a, c]);
    assert_eq!(
        t.winning_moves[1].to.text,
        grundy_core::graph::token_position(&g, &[a, d]).text
    );
    // Tokens on d and e: the only move, d -> e, leaves the opponent without a move: P.
    assert_eq!(misere_tokens(&g, &[d, e]).unwrap().0, Outcome::P);
    // Token on b (b -> d -> e): move b -> d, leaving the misère P-position d.
    let (o, moves) = misere_tokens(&g, &[b]).unwrap();
    assert_eq!(o, Outcome::N);
    let steps: Vec<_> = moves.iter().map(|m| step(&g, m)).collect();
    assert_eq!(steps, vec![(0, b, d)]);
}

/// A token move's (token, from, onto) by vertex indices, read from its `at`.
fn step(g: &DiGraph, m: &Move) -> (usize, usize, usize) {
    let name = |k: &str| g.vertex(m.at[k].as_str().unwrap()).unwrap();
    (
        m.at["token"].as_u64().unwrap() as usize,
        name("from"),
        name("onto"),
    )
}

#[test]
fn errors_name_the_problem() {
    let err = DiGraph::parse("a b\nb c d\n").unwrap_err();
    assert_eq!(
        err,
        GraphError::Malformed {
            line: 2,
            token: "d".into()
        }
    );
    assert!(err.to_string().contains("'d'"));
    assert_eq!(DiGraph::parse("").unwrap_err(), GraphError::Empty);
    assert_eq!(
        DiGraph::parse("# only a comment\n\n  \n").unwrap_err(),
        GraphError::Empty
    );
    let g = DiGraph::parse("s x\nx y\ny z\nz x\n").unwrap();
    match g.grundy_values().unwrap_err() {
        GraphError::Cycle { path } => assert_eq!(path, ["x", "y", "z"]),
        other => panic!("{other:?}"),
    }
    let text = g.grundy_values().unwrap_err().to_string();
    assert!(text.contains("x -> y -> z -> x"), "{text}");
    let g = DiGraph::parse("loop loop").unwrap();
    assert!(g
        .grundy_values()
        .unwrap_err()
        .to_string()
        .contains("loop -> loop"));
    let g = DiGraph::parse("a b").unwrap();
    assert_eq!(g.vertex("q"), Err(GraphError::UnknownVertex("q".into())));
}

#[test]
fn long_path_needs_no_deep_recursion() {
    let mut text = String::new();
    for i in 0..200_000 {
        text.push_str(&format!("v{} v{}\n", i + 1, i));
    }
    let g = DiGraph::parse(&text).unwrap();
    let v = g.grundy_values().unwrap();
    assert_eq!(v[g.vertex("v200000").unwrap()], 0);
    assert_eq!(v[g.vertex("v199999").unwrap()], 1);
}

/// The definition, by plain recursion (fine on small graphs).
fn naive(succ: &[Vec<usize>], v: usize) -> u64 {
    let vals: Vec<u64> = succ[v].iter().map(|&w| naive(succ, w)).collect();
    (0..).find(|m| !vals.contains(m)).unwrap()
}

/// Misère outcome by plain recursion: no move wins, else win iff some option loses.
fn naive_misere_n(succ: &[Vec<usize>], v: usize) -> bool {
    succ[v].is_empty() || succ[v].iter().any(|&w| !naive_misere_n(succ, w))
}

proptest! {
    /// Random DAG (edges from a higher to a lower index), written as text with scrambled names.
    #[test]
    fn random_dag_matches_definition_and_solver(
        n in 1usize..13,
        edges in proptest::collection::vec((0usize..13, 0usize..13), 0..40),
        tokens in proptest::collection::vec(0usize..13, 1..4),
    ) {
        let mut succ = vec![Vec::new(); n];
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!("n{}\n", (i * 7 + 3) % 101));
        }
        for &(a, b) in &edges {
            let (a, b) = (a % n, b % n);
            if a > b {
                if !succ[a].contains(&b) {
                    succ[a].push(b);
                }
                text.push_str(&format!("n{} n{} # edge\n", (a * 7 + 3) % 101, (b * 7 + 3) % 101));
            }
        }
        let g = DiGraph::parse(&text).unwrap();
        let values = g.grundy_values().unwrap();
        let mut solver = Solver::new(g.clone());
        for i in 0..n {
            let v = g.vertex(&format!("n{}", (i * 7 + 3) % 101)).unwrap();
            prop_assert_eq!(values[v], naive(&succ, i));
            prop_assert_eq!(solver.grundy(&v), values[v]);
            let misere = if naive_misere_n(&succ, i) { Outcome::N } else { Outcome::P };
            prop_assert_eq!(solver.misere_outcome(&v), misere);
        }
        let tokens: Vec<usize> = tokens.iter().map(|&t| t % n).collect();
        let t = analyze_tokens(&g, &values, &tokens);
        prop_assert_eq!(t.outcome, Outcome::from_grundy(t.grundy));
        for m in &t.winning_moves {
            let (token, _, onto) = step(&g, m);
            let mut after = tokens.clone();
            after[token] = onto;
            prop_assert_eq!(analyze_tokens(&g, &values, &after).grundy, 0);
        }
        if t.grundy != 0 {
            prop_assert!(!t.winning_moves.is_empty());
        }
    }
}

/// Outcome of a token on each of two graphs, by plain recursion over pairs of vertices.
fn naive_pair_n(s1: &[Vec<usize>], s2: &[Vec<usize>], a: usize, b: usize, misere: bool) -> bool {
    if s1[a].is_empty() && s2[b].is_empty() {
        return misere;
    }
    s1[a].iter().any(|&x| !naive_pair_n(s1, s2, x, b, misere))
        || s2[b].iter().any(|&y| !naive_pair_n(s1, s2, a, y, misere))
}

fn random_dag(n: usize, edges: &[(usize, usize)]) -> (DiGraph, Vec<Vec<usize>>) {
    let mut g = DiGraph::new();
    for i in 0..n {
        g.add_vertex(&i.to_string());
    }
    let mut succ = vec![Vec::new(); n];
    for &(a, b) in edges {
        let (a, b) = (a % n, b % n);
        if a > b && !succ[a].contains(&b) {
            succ[a].push(b);
            g.add_edge(a, b);
        }
    }
    (g, succ)
}

proptest! {
    /// The sum of two different games: normal play by the XOR rule, misère play by direct
    /// search, both against plain recursion over pairs of positions.
    #[test]
    fn sum_of_two_graphs_normal_and_misere(
        n1 in 1usize..8, e1 in proptest::collection::vec((0usize..8, 0usize..8), 0..16),
        n2 in 1usize..8, e2 in proptest::collection::vec((0usize..8, 0usize..8), 0..16),
    ) {
        use grundy_core::{Sum, SumPos};
        let (g1, s1) = random_dag(n1, &e1);
        let (g2, s2) = random_dag(n2, &e2);
        let mut solver = Solver::new(Sum(g1, g2));
        for a in 0..n1 {
            for b in 0..n2 {
                let pos = SumPos::Both(a, b);
                let normal = if naive_pair_n(&s1, &s2, a, b, false) { Outcome::N } else { Outcome::P };
                let misere = if naive_pair_n(&s1, &s2, a, b, true) { Outcome::N } else { Outcome::P };
                prop_assert_eq!(solver.outcome(&pos), normal);
                prop_assert_eq!(solver.misere_outcome(&pos), misere);
                let side = solver.side_winning_moves(&a, &b);
                prop_assert_eq!(side.len(), solver.winning_moves(&pos).len());
                // Two tokens on the disjoint union of the graphs: the same game.
                let (g1, g2) = (&solver.game().0, &solver.game().1);
                let mut union = g1.clone();
                for v in 0..n2 {
                    union.add_vertex(&format!("b{v}"));
                }
                for v in 0..n2 {
                    for &w in g2.successors(v) {
                        union.add_edge(n1 + v, n1 + w);
                    }
                }
                let (m, moves) = misere_tokens(&union, &[a, n1 + b]).unwrap();
                prop_assert_eq!(m, misere);
                prop_assert_eq!(moves.is_empty(), misere == Outcome::P || (s1[a].is_empty() && s2[b].is_empty()));
                let mut tokens = Solver::new(Tokens(&union));
                let mut pos2 = vec![a, n1 + b];
                pos2.sort_unstable();
                prop_assert_eq!(tokens.outcome(&pos2), normal);
            }
        }
    }
}

/// A random DAG on `n` vertices named "0".."n-1" (edges from higher to lower index).
fn dag(n: usize, edges: &[(usize, usize)]) -> DiGraph {
    random_dag(n, edges).0
}

/// The options of `tokens` (sorted) that `solver` finds winning, as sorted token lists.
fn oracle_moves(
    solver: &mut Solver<Tokens<'_>>,
    tokens: &[usize],
    misere: bool,
) -> (Outcome, Vec<Vec<usize>>) {
    let mut pos = tokens.to_vec();
    pos.sort_unstable();
    let outcome = if misere {
        solver.misere_outcome(&pos)
    } else {
        solver.outcome(&pos)
    };
    let mut wins: Vec<Vec<usize>> = solver
        .options(&pos)
        .into_iter()
        .filter(|o| {
            if misere {
                solver.misere_outcome(o) == Outcome::P
            } else {
                solver.grundy(o) == 0
            }
        })
        .collect();
    wins.sort();
    (outcome, wins)
}

proptest! {
    /// Brute force: the winning moves `analyze` lists (normal and misère, several tokens)
    /// lead exactly to the options that the generic solver finds to be P-positions, and every
    /// listed move is a legal move whose `to` is the position after it.
    #[test]
    fn winning_moves_are_exactly_the_moves_to_p_positions(
        n in 1usize..10,
        edges in proptest::collection::vec((0usize..10, 0usize..10), 0..30),
        tokens in proptest::collection::vec(0usize..10, 1..4),
        misere: bool,
    ) {
        let g = dag(n, &edges);
        let tokens: Vec<usize> = tokens.iter().map(|&t| t % n).collect();
        let names: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
        let options = GraphOptions {
            play: if misere { Play::Misere } else { Play::Normal },
            ..GraphOptions::default()
        };
        let a = g.analyze(&names, &options).unwrap();
        let t = a.tokens.unwrap();
        let mut solver = Solver::new(Tokens(&g));
        let (outcome, want) = oracle_moves(&mut solver, &tokens, misere);
        prop_assert_eq!(t.outcome, outcome);
        prop_assert_eq!(t.grundy.is_some(), !misere);
        let mut got = Vec::new();
        for m in &t.winning_moves {
            let (token, from, onto) = step(&g, m);
            prop_assert_eq!(from, tokens[token]);
            prop_assert!(g.successors(from).contains(&onto));
            let mut after = names.clone();
            after[token] = g.name(onto).to_string();
            prop_assert_eq!(&m.to.data["tokens"], &serde_json::json!(after));
            let mut at = tokens.clone();
            at[token] = onto;
            prop_assert_eq!(&m.to, &grundy_core::graph::token_position(&g, &at));
            let mut pos = tokens.clone();
            pos[token] = onto;
            pos.sort_unstable();
            got.push(pos);
        }
        got.sort();
        got.dedup(); // two tokens on one vertex make the same move
        prop_assert_eq!(got, want);
        // The index-level functions agree with the named answer.
        if misere {
            let (o, moves) = misere_tokens(&g, &tokens).unwrap();
            prop_assert_eq!(o, t.outcome);
            prop_assert_eq!(moves.len(), t.winning_moves.len());
        } else {
            let values = g.grundy_values().unwrap();
            let ta = analyze_tokens(&g, &values, &tokens);
            prop_assert_eq!(Some(ta.grundy), t.grundy);
            prop_assert_eq!(ta.winning_moves.len(), t.winning_moves.len());
        }
    }
}

#[test]
fn analysis_json_shape() {
    let a = grundy_core::graph::analyze(HAND, &["a", "c"], &GraphOptions::default()).unwrap();
    let v = serde_json::to_value(&a).unwrap();
    assert_eq!(
        v["vertices"][2],
        serde_json::json!({"name": "c", "grundy": 2})
    );
    assert_eq!(v["tokens"], serde_json::json!(["a", "c"]));
    assert_eq!(v["play"], "normal");
    assert_eq!(v["grundy"], 3);
    assert_eq!(v["outcome"], "N");
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(
        moves[0]["at"],
        serde_json::json!({"token": 0, "from": "a", "onto": "c"})
    );
    assert_eq!(moves[0]["text"], "move token 0 from a to c");
    assert_eq!(moves[0]["short"], "a → c");
    assert_eq!(moves[0]["outcome"], "P");
    assert_eq!(moves[0]["grundy"], 0);
    assert_eq!(moves[0]["to"]["kind"], "digraph");
    assert_eq!(moves[0]["to"]["tokens"], serde_json::json!(["c", "c"]));
    assert!(moves[0]["to"]["text"]
        .as_str()
        .unwrap()
        .ends_with("; @ c c"));
    assert_eq!(
        moves[1]["at"],
        serde_json::json!({"token": 1, "from": "c", "onto": "d"})
    );
    assert_eq!(moves[1]["to"]["tokens"], serde_json::json!(["a", "d"]));
    let misere = GraphOptions {
        play: Play::Misere,
        ..GraphOptions::default()
    };
    let v =
        serde_json::to_value(grundy_core::graph::analyze(HAND, &["b"], &misere).unwrap()).unwrap();
    assert_eq!(v["play"], "misere");
    assert!(v.get("grundy").is_none());
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(
        moves[0]["at"],
        serde_json::json!({"token": 0, "from": "b", "onto": "d"})
    );
    assert_eq!(moves[0]["text"], "move the token from b to d");
    assert_eq!(moves[0]["to"]["tokens"], serde_json::json!(["d"]));
    assert!(moves[0].get("grundy").is_none(), "misère: no value");
    // No tokens: only the vertices.
    let v = serde_json::to_value(
        grundy_core::graph::analyze(HAND, &[] as &[&str], &GraphOptions::default()).unwrap(),
    )
    .unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1, "{v}");
}

/// Regression: loading checked repeated edges by scanning the successor list, quadratic in
/// a vertex's degree (300,000 edges out of one vertex took 9.3 s). Now a hash set: this
/// loads in well under a second (no timing assert; a quadratic loader would take minutes in
/// a debug build).
#[test]
fn three_hundred_thousand_edges_out_of_one_vertex_load() {
    let mut text = String::with_capacity(5_000_000);
    for i in 0..300_000 {
        text.push_str(&format!("hub v{i}\n"));
    }
    text.push_str("hub v7\nhub v299999\n"); // repeats count once
    let g = DiGraph::parse(&text).unwrap();
    assert_eq!(g.edge_count(), 300_000);
    let hub = g.vertex("hub").unwrap();
    assert_eq!(g.successors(hub).len(), 300_000);
    assert_eq!(g.grundy_values().unwrap()[hub], 1);
}

/// Regression: misère search of four tokens on a 1000-leaf star grew past 1 GB. It now stops
/// at the budget with an error naming the cap reached (positions or memory); a higher cap lets
/// a smaller search finish.
#[test]
fn misere_search_stops_at_the_position_cap() {
    let mut text = String::new();
    for i in 0..1000 {
        text.push_str(&format!("hub leaf{i}\n"));
    }
    let capped = GraphOptions {
        play: Play::Misere,
        budget: Budget::positions(20_000),
    };
    let tokens = ["hub"; 4];
    let err = grundy_core::graph::analyze(&text, &tokens, &capped).unwrap_err();
    let GraphError::Limit(limit) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(limit.resource, Resource::Positions);
    assert!(grundy_core::catalogue::Error::from(limit.clone()).is_limit());
    let msg = err.to_string();
    assert!(
        msg.contains("20000 positions") && !msg.contains('\n'),
        "{msg}"
    );
    let g = DiGraph::parse(&text).unwrap();
    let hub = g.vertex("hub").unwrap();
    assert_eq!(
        grundy_core::graph::misere_tokens_capped(&g, &[hub; 4], &Budget::positions(20_000)),
        Err(err)
    );
    // One token: 1001 placements at most; the hub's every move leaves a stuck token (N for
    // the opponent under misère play), so the hub is P.
    let one = grundy_core::graph::analyze(&text, &["hub"], &capped).unwrap();
    assert_eq!(one.tokens.unwrap().outcome, Outcome::P);
    // Two tokens on a 30-leaf star: within a cap of 1000.
    let small: String = (0..30).map(|i| format!("hub l{i}\n")).collect();
    let two = GraphOptions {
        play: Play::Misere,
        budget: Budget::positions(1000),
    };
    assert!(grundy_core::graph::analyze(&small, &["hub", "hub"], &two).is_ok());
    let tiny = GraphOptions {
        play: Play::Misere,
        budget: Budget::positions(10),
    };
    let err = grundy_core::graph::analyze(&small, &["hub", "hub"], &tiny).unwrap_err();
    assert!(
        matches!(&err, GraphError::Limit(l) if l.resource == Resource::Positions),
        "{err:?}"
    );
}

/// The memory cap stops a misère search too: 1000 placements would fit in positions, not in
/// 4 KiB, and the error names memory.
#[test]
fn misere_search_stops_at_the_memory_cap() {
    let small: String = (0..30).map(|i| format!("hub l{i}\n")).collect();
    let options = GraphOptions {
        play: Play::Misere,
        budget: Budget::new(1000, 4 << 10),
    };
    let err = grundy_core::graph::analyze(&small, &["hub", "hub"], &options).unwrap_err();
    let GraphError::Limit(limit) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(limit.resource, Resource::Memory);
    assert!(grundy_core::catalogue::Error::from(limit.clone()).is_limit());
    assert!(err.to_string().contains("4 KiB of memory"), "{err}");
}

/// Regression: names with a newline or a control byte were echoed raw, breaking the
/// one-line error. Every name in a message is escaped.
#[test]
fn names_in_errors_are_escaped() {
    let g = DiGraph::parse("a b").unwrap();
    let msg = g.vertex("x\ny\u{1b}[31m").unwrap_err().to_string();
    assert_eq!(msg, "unknown vertex 'x\\ny\\u{1b}[31m'");
    let msg = DiGraph::parse("a b c\u{7}\n").unwrap_err().to_string();
    assert!(msg.ends_with("extra token 'c\\u{7}'"), "{msg}");
    let g = DiGraph::parse("p\u{1}q r\nr p\u{1}q\n").unwrap();
    let msg = g.grundy_values().unwrap_err().to_string();
    assert!(msg.contains("p\\u{1}q -> r -> p\\u{1}q"), "{msg}");
    // A very long name is cut in the message.
    let long = "n".repeat(100_000);
    let msg = g.vertex(&long).unwrap_err().to_string();
    assert!(msg.len() < 300, "{}", msg.len());
}

/// A vertex name longer than a format width allows (65,536 characters) is an ordinary name.
#[test]
fn very_long_vertex_names() {
    let long = "v".repeat(70_000);
    let text = format!("{long} b\nb c\n");
    let a = grundy_core::graph::analyze(&text, &[long.as_str()], &GraphOptions::default()).unwrap();
    assert_eq!(a.vertices[0].name.len(), 70_000);
    assert_eq!(a.vertices[0].grundy, 0);
}

/// A hub with many successors: listing every winning move with the whole graph in each `to`
/// would be quadratic, so past `FULL_TO_UP_TO` each `to` keeps only the tokens.
#[test]
fn many_moves_on_a_large_graph_abbreviate_their_positions() {
    let mut text = String::new();
    for i in 0..2000 {
        text.push_str(&format!("hub leaf{i}\n"));
    }
    let a = grundy_core::graph::analyze(&text, &["hub"], &GraphOptions::default()).unwrap();
    let t = a.tokens.unwrap();
    assert_eq!(t.winning_moves.len(), 2000);
    let m = &t.winning_moves[5];
    assert_eq!(m.to.text, "@ leaf5");
    assert_eq!(m.to.data["tokens"], serde_json::json!(["leaf5"]));
    assert_eq!(m.to.data["abbreviated"], true);
    assert!(!m.to.data.contains_key("edges"));
    // A small list on the same graph keeps the whole graph.
    let a = grundy_core::graph::analyze("a b\nb c\n", &["a"], &GraphOptions::default()).unwrap();
    let m = &a.tokens.unwrap().winning_moves;
    assert!(m.is_empty());
    let a = grundy_core::graph::analyze("a b\nb c\n", &["b"], &GraphOptions::default()).unwrap();
    let m = &a.tokens.unwrap().winning_moves[0];
    assert_eq!(m.to.text, "a b; b c; @ c");
    assert!(!m.to.data.contains_key("abbreviated"));
}
