//! The labelling against straightforward references on random small graphs (loops and
//! repeated edges allowed): plain win/lose/draw analysis with remoteness, the labelling by
//! repeated scans, the ordinary mex on acyclic graphs, and Smith's sum rule against the value
//! on the product graph.

use std::collections::BTreeSet;

use grundy_loopy::{Digraph, Grundy, LabelledGraph, LoopyGraph, Outcome};
use proptest::prelude::*;

fn successors(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut succ = vec![Vec::new(); n];
    for &(a, b) in edges {
        succ[a].push(b);
    }
    succ
}

/// Win/lose/draw with remoteness by rounds: in round `r` a position is an N-position of
/// remoteness `r` if an option is a P-position of remoteness below `r` (first round found:
/// the fastest win), a P-position if every option is an N-position of remoteness below `r`
/// (first round: the slowest loss). What is never labelled is a draw.
fn plain_retrograde(succ: &[Vec<usize>]) -> Vec<(Outcome, Option<u64>)> {
    let n = succ.len();
    let mut label: Vec<Option<(Outcome, u64)>> = vec![None; n];
    for r in 0u64.. {
        let mut new = Vec::new();
        for u in 0..n {
            if label[u].is_some() {
                continue;
            }
            let wins = succ[u]
                .iter()
                .any(|&w| matches!(label[w], Some((Outcome::P, x)) if x < r));
            let loses = succ[u]
                .iter()
                .all(|&w| matches!(label[w], Some((Outcome::N, x)) if x < r));
            if wins {
                new.push((u, Outcome::N));
            } else if loses {
                new.push((u, Outcome::P));
            }
        }
        if new.is_empty() {
            break;
        }
        for (u, o) in new {
            label[u] = Some((o, r));
        }
    }
    label
        .into_iter()
        .map(|l| match l {
            Some((o, r)) => (o, Some(r)),
            None => (Outcome::D, None),
        })
        .collect()
}

/// The generalized Sprague–Grundy values by repeated scans: at level `m`, label `m` any
/// unlabelled vertex with options of values `0..m`, none of value `m`, and every unlabelled
/// option having an option of value `m`; repeat until nothing changes; stop at a level that
/// labels nothing.
fn naive_values(succ: &[Vec<usize>]) -> Vec<Grundy> {
    let n = succ.len();
    let mut val: Vec<Option<u64>> = vec![None; n];
    for m in 0u64.. {
        let mut any = false;
        loop {
            let mut changed = false;
            for u in 0..n {
                if val[u].is_some() {
                    continue;
                }
                let fin: BTreeSet<u64> = succ[u].iter().filter_map(|&w| val[w]).collect();
                if fin.contains(&m) || !(0..m).all(|j| fin.contains(&j)) {
                    continue;
                }
                let reversible = succ[u]
                    .iter()
                    .all(|&w| val[w].is_some() || succ[w].iter().any(|&x| val[x] == Some(m)));
                if reversible {
                    val[u] = Some(m);
                    changed = true;
                    any = true;
                }
            }
            if !changed {
                break;
            }
        }
        if !any {
            break;
        }
    }
    (0..n)
        .map(|u| match val[u] {
            Some(m) => Grundy::Finite(m),
            None => Grundy::Infinite(succ[u].iter().filter_map(|&w| val[w]).collect()),
        })
        .collect()
}

fn graph_strategy(
    max_n: usize,
    max_edges: usize,
) -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (1..=max_n)
        .prop_flat_map(move |n| (Just(n), prop::collection::vec((0..n, 0..n), 0..=max_edges)))
}

/// The graph with vertex `v` named `v`, every vertex declared in order, as a graph file is.
fn named(n: usize, edges: &[(usize, usize)]) -> LoopyGraph {
    let mut g = grundy_core::graph::DiGraph::new();
    for v in 0..n {
        g.add_vertex(&v.to_string());
    }
    for &(a, b) in edges {
        g.add_edge(a, b);
    }
    LoopyGraph::from_digraph(g).expect("small")
}

/// A move's token and the vertex it moves onto, read from its `at`.
fn token_onto(m: &grundy_core::Move) -> (usize, usize) {
    let token = m.at["token"].as_u64().expect("token") as usize;
    let onto = m.at["onto"]
        .as_str()
        .expect("onto")
        .parse()
        .expect("a number");
    (token, onto)
}

fn label(n: usize, edges: &[(usize, usize)]) -> LabelledGraph {
    LabelledGraph::new(Digraph::from_edges(n, edges).expect("edges in range"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Outcomes and remoteness equal plain win/lose/draw analysis; values equal the labelling
    /// by repeated scans; each finite value satisfies Smith's three conditions.
    #[test]
    fn labelling_matches_references((n, edges) in graph_strategy(9, 22)) {
        let l = label(n, &edges);
        let succ = successors(n, &edges);
        let plain = plain_retrograde(&succ);
        let naive = naive_values(&succ);
        for v in 0..n {
            let value = l.value(v);
            prop_assert_eq!(&value, &naive[v], "vertex {} of {:?}", v, edges);
            prop_assert_eq!(l.outcome(v), plain[v].0, "vertex {} of {:?}", v, edges);
            prop_assert_eq!(value.outcome(), plain[v].0);
            prop_assert_eq!(l.remoteness(v), plain[v].1, "vertex {} of {:?}", v, edges);
            if let Grundy::Finite(m) = value {
                let fin: BTreeSet<u64> = succ[v].iter().filter_map(|&w| l.finite(w)).collect();
                prop_assert!(!fin.contains(&m));
                prop_assert!((0..m).all(|j| fin.contains(&j)));
                for &w in &succ[v] {
                    if l.finite(w).is_none_or(|x| x > m) {
                        prop_assert!(succ[w].iter().any(|&x| l.finite(x) == Some(m)));
                    }
                }
            }
            // Drawing moves: exactly the drawn options of a drawn vertex.
            let draws: BTreeSet<usize> = l.drawing_moves(v).into_iter().collect();
            let expected: BTreeSet<usize> = if plain[v].0 == Outcome::D {
                succ[v].iter().copied().filter(|&w| plain[w].0 == Outcome::D).collect()
            } else {
                BTreeSet::new()
            };
            prop_assert_eq!(draws, expected);
            // The engine's move: one step down the remoteness (win fast, lose slow), or a draw.
            match (plain[v], l.best_move(v)) {
                ((_, Some(0)), m) => prop_assert_eq!(m, None),
                ((Outcome::D, None), Some(w)) => prop_assert_eq!(plain[w].0, Outcome::D),
                ((o, Some(r)), Some(w)) => {
                    prop_assert_ne!(plain[w].0, o);
                    prop_assert_eq!(plain[w].1, Some(r - 1));
                }
                (p, m) => prop_assert!(false, "{:?} {:?}", p, m),
            }
            // Winning moves: the P-options, each with its remoteness; the fastest is R(v) - 1.
            let wins = l.winning_moves(v);
            if plain[v].0 == Outcome::N {
                let fastest = wins.iter().map(|&(_, r)| r).min();
                prop_assert_eq!(fastest.map(|r| r + 1), plain[v].1);
            } else {
                prop_assert!(wins.is_empty());
            }
        }
    }

    /// Larger graphs, mostly descending edges with a few going back up: deeper values, more
    /// levels, and the closure by mex mixed with the levels.
    #[test]
    fn medium_graphs_match_references(
        (n, raw) in graph_strategy(40, 160),
        back in prop::collection::vec((0usize..40, 0usize..40), 0..6),
    ) {
        let mut edges: Vec<(usize, usize)> = raw
            .into_iter()
            .filter(|&(a, b)| a != b)
            .map(|(a, b)| (a.max(b), a.min(b)))
            .collect();
        edges.extend(back.into_iter().map(|(a, b)| (a % n, b % n)));
        let l = label(n, &edges);
        let succ = successors(n, &edges);
        let plain = plain_retrograde(&succ);
        let naive = naive_values(&succ);
        for v in 0..n {
            prop_assert_eq!(&l.value(v), &naive[v], "vertex {} of {:?}", v, edges);
            prop_assert_eq!((l.outcome(v), l.remoteness(v)), plain[v]);
        }
    }

    /// On acyclic graphs every value is finite and equals the ordinary mex.
    #[test]
    fn acyclic_values_are_ordinary((n, raw) in graph_strategy(30, 80)) {
        let edges: Vec<(usize, usize)> = raw
            .into_iter()
            .filter(|&(a, b)| a != b)
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        let l = label(n, &edges);
        let mut core = grundy_core::graph::DiGraph::new();
        for v in 0..n {
            core.add_vertex(&v.to_string());
        }
        for &(a, b) in &edges {
            core.add_edge(a, b);
        }
        let ordinary = core.grundy_values().expect("acyclic");
        for (v, &g) in ordinary.iter().enumerate() {
            prop_assert_eq!(l.value(v), Grundy::Finite(g));
            prop_assert!(l.remoteness(v).is_some());
        }
    }

    /// Smith's sum rule: the value of tokens on a and b equals the value of (a, b) on the
    /// product graph, and the moves of the sum are the product's winning or drawing moves.
    #[test]
    fn sum_rule_matches_product(
        (ng, eg) in graph_strategy(5, 9),
        (nh, eh) in graph_strategy(5, 9),
    ) {
        let g = label(ng, &eg);
        let h = label(nh, &eh);
        let (sg, sh) = (successors(ng, &eg), successors(nh, &eh));
        let id = |a: usize, b: usize| a * nh + b;
        let mut prod = Vec::new();
        for (a, ga) in sg.iter().enumerate() {
            for (b, hb) in sh.iter().enumerate() {
                prod.extend(ga.iter().map(|&x| (id(a, b), id(x, b))));
                prod.extend(hb.iter().map(|&y| (id(a, b), id(a, y))));
            }
        }
        let p = label(ng * nh, &prod);
        // Both games as one graph, for token sums.
        let mut union = eg.clone();
        union.extend(eh.iter().map(|&(x, y)| (x + ng, y + ng)));
        let u = named(ng + nh, &union);
        for a in 0..ng {
            for b in 0..nh {
                let rule = g.value(a) + h.value(b);
                prop_assert_eq!(&p.value(id(a, b)), &rule, "a {} b {} g {:?} h {:?}", a, b, eg, eh);
                let s = u.analyze(&[a.to_string(), (ng + b).to_string()]).expect("tokens");
                let s = s.tokens.expect("tokens");
                prop_assert_eq!(&s.grundy, &rule);
                let after = |m: &grundy_core::Move| match token_onto(m) {
                    (0, onto) => id(onto, b),
                    (_, onto) => id(a, onto - ng),
                };
                let moves: BTreeSet<usize> = s
                    .winning_moves
                    .iter()
                    .chain(&s.drawing_moves)
                    .map(after)
                    .collect();
                // N: the moves to P-positions; D: the moves to draws; P: none listed.
                let want = match p.outcome(id(a, b)) {
                    Outcome::N => Some(Outcome::P),
                    Outcome::D => Some(Outcome::D),
                    Outcome::P => None,
                };
                let expected: BTreeSet<usize> = p
                    .graph()
                    .successors(id(a, b))
                    .iter()
                    .map(|&w| w as usize)
                    .filter(|&w| Some(p.outcome(w)) == want)
                    .collect();
                prop_assert_eq!(moves, expected);
                for m in s.winning_moves.iter().chain(&s.drawing_moves) {
                    prop_assert_eq!(m.grundy.as_ref(), Some(&p.value(after(m))));
                    prop_assert_eq!(m.outcome, p.outcome(after(m)));
                }
            }
        }
    }

    /// Three tokens on one graph: the rule again, against the graph of sorted triples.
    #[test]
    fn three_tokens_match_product((n, edges) in graph_strategy(4, 8)) {
        let l = label(n, &edges);
        let succ = successors(n, &edges);
        let id = |a: usize, b: usize, c: usize| (a * n + b) * n + c;
        let mut prod = Vec::new();
        for a in 0..n {
            for b in 0..n {
                for c in 0..n {
                    prod.extend(succ[a].iter().map(|&x| (id(a, b, c), id(x, b, c))));
                    prod.extend(succ[b].iter().map(|&x| (id(a, b, c), id(a, x, c))));
                    prod.extend(succ[c].iter().map(|&x| (id(a, b, c), id(a, b, x))));
                }
            }
        }
        let p = label(n * n * n, &prod);
        for a in 0..n {
            for b in 0..n {
                for c in 0..n {
                    prop_assert_eq!(p.value(id(a, b, c)), l.sum_value(&[a, b, c]));
                }
            }
        }
    }
}

#[test]
fn nim_heaps_need_no_levels_beyond_the_closure() {
    // Heap n moves to every smaller heap: values 0..n, all found by the closure.
    let n = 300;
    let edges: Vec<(usize, usize)> = (0..n).flat_map(|a| (0..a).map(move |b| (a, b))).collect();
    let l = label(n, &edges);
    assert!((0..n).all(|v| l.value(v) == Grundy::Finite(v as u64)));
    assert_eq!(l.levels(), 1);
    // The same with a loop at the top: heap n - 1 may also stay put, and is ∞(0..n-2).
    let mut edges = edges;
    edges.push((n - 1, n - 1));
    let l = label(n, &edges);
    assert_eq!(l.value(n - 1), Grundy::infinite(0..(n as u64 - 1)));
    assert_eq!(l.outcome(n - 1), Outcome::N);
}

#[test]
fn empty_and_single_vertices() {
    let l = label(1, &[]);
    assert_eq!(l.value(0), Grundy::Finite(0));
    assert_eq!(l.remoteness(0), Some(0));
    let l = label(1, &[(0, 0)]);
    assert_eq!(l.value(0), Grundy::infinite([]));
    assert_eq!(l.outcome(0), Outcome::D);
    assert_eq!(l.drawing_moves(0), [0]);
    let l = LabelledGraph::new(Digraph::from_edges(0, &[]).unwrap());
    assert!(l.is_empty());
}
