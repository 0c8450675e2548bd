//! Games on a directed graph: a DAG worked out by hand, random DAGs against the recursive
//! definition and the generic solver, and the parser's errors.

use grundy_core::graph::{analyze_tokens, misere_tokens, DiGraph, GraphError, TokenMove, Tokens};
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
    assert_eq!(
        t.winning_moves,
        vec![
            TokenMove {
                token: 0,
                from: a,
                to: c
            },
            TokenMove {
                token: 1,
                from: c,
                to: d
            }
        ]
    );
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
    // Tokens on d and e: the only move, d -> e, leaves the opponent without a move: P.
    assert_eq!(misere_tokens(&g, &[d, e]).unwrap().0, Outcome::P);
    // Token on b (b -> d -> e): move b -> d, leaving the misère P-position d.
    assert_eq!(
        misere_tokens(&g, &[b]).unwrap(),
        (
            Outcome::N,
            vec![TokenMove {
                token: 0,
                from: b,
                to: d
            }]
        )
    );
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
            let mut after = tokens.clone();
            after[m.token] = m.to;
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
