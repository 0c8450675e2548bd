//! Green Hackenbush against brute force (a memoised mex over edge sets) on random small graphs
//! with loops and multi-edges, against CGSuite's examples, and on big trees and cycles.

use grundy_core::catalogue::{Ask, Error, Play, Report};
use grundy_core::Outcome;
use grundy_games::hackenbush::{self, Graph};
use proptest::prelude::*;

mod common;

/// The report of a graph (the part standing on the ground: the rest is not in the game).
fn analyze(g: &Graph) -> Result<Report, Error> {
    common::ask("hackenbush", &g.to_text(), &Ask::new(Play::Normal))
}

/// A report's value.
fn value(r: &Report) -> u64 {
    r.grundy.as_ref().and_then(|g| g.finite()).unwrap()
}

/// The winning edges a report's details list (places in the grounded graph, from 1).
fn winning_edges(r: &Report) -> Vec<usize> {
    serde_json::from_value(r.details["winning_edges"].clone()).unwrap()
}

/// CGSuite's test expectations (see the header of the file for the source).
const GRAPH_GRID: &str = include_str!("../../../testdata/cgsuite/graph_grid.txt");

/// The value CGSuite gives for `Hackenbush("<string>")`, read from the corpus file.
fn cgsuite_value(string: &str) -> u64 {
    let key = format!("Hackenbush(\"{string}\") = *");
    let line = GRAPH_GRID
        .lines()
        .find(|l| l.starts_with(&key))
        .unwrap_or_else(|| panic!("no line for {string} in graph_grid.txt"));
    let rest = &line[key.len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().unwrap()
}

/// The winning edges (from 0) found by cutting every edge and valuing what is left.
fn winning_edges_by_recomputing(g: &Graph, value: impl Fn(&Graph) -> u64) -> Vec<usize> {
    let in_game = g.in_game();
    (0..g.edges().len())
        .filter(|&e| in_game[e] && value(&g.cut(e).unwrap()) == 0)
        .collect()
}

fn check_against_brute_force(g: &Graph) -> Result<(), TestCaseError> {
    let g = &g.grounded_part();
    let a = analyze(g).unwrap();
    let brute = hackenbush::brute_force(g).unwrap();
    prop_assert_eq!(value(&a), brute, "graph {}", g.to_text());
    prop_assert_eq!(a.outcome, Outcome::from_grundy(brute));
    let want = winning_edges_by_recomputing(g, |h| hackenbush::brute_force(h).unwrap());
    prop_assert_eq!(&winning_edges(&a), &want, "graph {}", g.to_text());
    for m in &a.winning_moves {
        prop_assert_eq!(hackenbush::value(&Graph::parse(&m.to.text).unwrap()), 0);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    /// Up to 8 edges among 5 vertices: loops, multi-edges, cycles through the ground and
    /// floating parts all occur.
    #[test]
    fn small_graphs_match_brute_force(edges in prop::collection::vec((0u32..5, 0u32..5), 0..=8)) {
        check_against_brute_force(&Graph::new(edges).unwrap())?;
    }

    /// Sparser labels: mostly trees with a few extra edges, up to 10 edges.
    #[test]
    fn tree_like_graphs_match_brute_force(
        parents in prop::collection::vec(0u32..100, 1..=8),
        extra in prop::collection::vec((0u32..9, 0u32..9), 0..=2),
    ) {
        let mut edges: Vec<(u32, u32)> = parents
            .iter()
            .enumerate()
            .map(|(i, &p)| (p % (i as u32 + 1), i as u32 + 1))
            .collect();
        edges.extend(extra);
        check_against_brute_force(&Graph::new(edges).unwrap())?;
    }

    /// Bigger random graphs (up to 60 edges): the fast winning moves against cutting each
    /// edge and valuing the rest with the polynomial algorithm.
    #[test]
    fn winning_moves_match_recomputation(
        edges in prop::collection::vec((0u32..25, 0u32..25), 0..=60),
    ) {
        let g = Graph::new(edges).unwrap().grounded_part();
        let a = analyze(&g).unwrap();
        prop_assert_eq!(winning_edges(&a), winning_edges_by_recomputing(&g, hackenbush::value));
    }
}

/// CGSuite's `Hackenbush` strings, translated by hand. In them `e` is an edge from the current
/// vertex to a new vertex (which becomes current), `(A;B;…)` are branches that all start at
/// the current vertex, and `:{name}` names the vertex just reached: a second use of the name
/// means the same vertex, which closes a cycle. The first edge stands on the ground (vertex 0).
#[test]
fn cgsuite_examples() {
    // "eeeeeee": a stalk of 7 edges.
    let stalk = Graph::parse("0-1,1-2,2-3,3-4,4-5,5-6,6-7").unwrap();
    assert_eq!(hackenbush::value(&stalk), cgsuite_value("eeeeeee"));
    assert_eq!(hackenbush::value(&stalk), 7);

    // "e(ee(e;e);e(eee;ee);e(ee;e))": trunk 0-1; at 1 three branches:
    //   ee(e;e)   1-2, 2-3, then at 3 two leaves 3-4 and 3-5;
    //   e(eee;ee) 1-6, then at 6 a path of three 6-7-8-9 and a path of two 6-10-11;
    //   e(ee;e)   1-12, then at 12 a path of two 12-13-14 and a leaf 12-15.
    let tree =
        Graph::parse("0-1, 1-2,2-3,3-4,3-5, 1-6,6-7,7-8,8-9,6-10,10-11, 1-12,12-13,13-14,12-15")
            .unwrap();
    let want = cgsuite_value("e(ee(e;e);e(eee;ee);e(ee;e))");
    assert_eq!(want, 5);
    assert_eq!(hackenbush::value(&tree), want);
    assert_eq!(hackenbush::brute_force(&tree).unwrap(), want);

    // "e(ee:{waist};ee:{waist}e(ee;e(e:{head};e:{head}e)))", the Green Girl of Winning Ways:
    //   0-1 (trunk); at 1 two branches of two edges both ending at `waist` (vertex 3):
    //   1-2, 2-3 and 1-4, 4-3 (a cycle of four); from the waist 3-5; at 5 the branches
    //   ee: 5-6, 6-7, and e(e:{head};e:{head}e): 5-8, then 8-9 to `head` (vertex 9) twice
    //   (two parallel edges) and one more edge 9-10 on top.
    let girl = Graph::parse("0-1,1-2,2-3,1-4,4-3,3-5,5-6,6-7,5-8,8-9,8-9,9-10").unwrap();
    let want = cgsuite_value("e(ee:{waist};ee:{waist}e(ee;e(e:{head};e:{head}e)))");
    assert_eq!(want, 2);
    assert_eq!(hackenbush::value(&girl), want);
    assert_eq!(hackenbush::brute_force(&girl).unwrap(), want);
    let a = analyze(&girl).unwrap();
    assert_eq!(
        winning_edges(&a),
        winning_edges_by_recomputing(&girl, |g| hackenbush::brute_force(g).unwrap())
    );
}

/// A deterministic pseudo-random tree of `n` edges: vertex i hangs below a random earlier one.
fn random_tree(n: u32, seed: u64) -> Graph {
    let mut x = seed;
    let edges = (1..=n)
        .map(|i| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) as u32 % i, i)
        })
        .collect();
    Graph::new(edges).unwrap()
}

#[test]
fn big_trees_and_stalks() {
    let stalk = Graph::stalk(100_000).unwrap();
    let a = analyze(&stalk).unwrap();
    assert_eq!(value(&a), 100_000);
    assert_eq!(winning_edges(&a), vec![0]);
    assert_eq!(a.winning_moves[0].to.text, "");

    // A random tree of 10^5 edges (deep and bushy parts): the listed winning moves leave 0 and
    // a sample of edges agrees with cutting and valuing again.
    let tree = random_tree(100_000, 7);
    let a = analyze(&tree).unwrap();
    assert_eq!(a.details["edges"], 100_000);
    for m in &a.winning_moves {
        assert_eq!(hackenbush::value(&Graph::parse(&m.to.text).unwrap()), 0);
    }
    for e in (0..100_000).step_by(9973) {
        let wins = hackenbush::value(&tree.cut(e).unwrap()) == 0;
        assert_eq!(wins, winning_edges(&a).contains(&e), "edge {e}");
    }

    // A caterpillar deeper than any recursion would survive: a spine of 10^5 with legs.
    let mut edges: Vec<(u32, u32)> = (0..50_000).map(|i| (i, i + 1)).collect();
    edges.extend((1..=50_000).map(|i| (i, 100_000 + i)));
    let g = Graph::new(edges).unwrap();
    assert_eq!(hackenbush::value(&g), hackenbush::value(&g.grounded_part()));
}

#[test]
fn big_cycles() {
    // A cycle through the ground fuses to a point (even) or a loop (odd).
    let cycle = |n: u32| Graph::new((0..n).map(|i| (i, (i + 1) % n)).collect()).unwrap();
    assert_eq!(hackenbush::value(&cycle(100_000)), 0);
    assert_eq!(hackenbush::value(&cycle(99_999)), 1);
    // Its winning moves would cut each edge of a 10^5-cycle: refused as a limit.
    let e = analyze(&cycle(99_999)).unwrap_err();
    assert!(e.is_limit(), "{e}");
    assert!(e.to_string().contains("limit"), "{e}");
    // A smaller odd cycle: the winning cuts leave two stalks of equal length.
    let a = analyze(&cycle(301)).unwrap();
    assert_eq!(value(&a), 1);
    assert_eq!(winning_edges(&a), vec![150]);
}

#[test]
fn floating_edges_and_errors() {
    // Edges not connected to the ground are not in the game: the position drops them.
    let g = Graph::parse("0-1 5-6,6-7").unwrap();
    assert_eq!(g.in_game(), vec![true, false, false]);
    let a = analyze(&g).unwrap();
    assert_eq!((value(&a), &a.details["edges"]), (1, &serde_json::json!(1)));
    assert_eq!(a.position.text, "0-1");
    assert_eq!(a.winning_moves[0].to.text, "");
    for (bad, needle) in [
        ("0-1,1", "edge 1: '1' is not of the form U-V"),
        ("0-1,x-2", "edge 1"),
        ("0-1,1-2-3", "edge 1"),
        ("0-4000000000", "too large"),
    ] {
        let e = Graph::parse(bad).unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
        assert!(!e.contains('\n'));
    }
    assert!(hackenbush::brute_force(&Graph::stalk(30).unwrap()).is_err());
    assert!(Graph::stalk(3).unwrap().cut(3).is_err());
}

#[test]
fn json_shape() {
    let a = analyze(&Graph::parse("0-1,1-2,2-0").unwrap()).unwrap();
    let j = serde_json::to_value(&a).unwrap();
    assert_eq!(j["outcome"], "N");
    assert_eq!(j["grundy"], 1);
    assert_eq!(j["winning_moves"][0]["to"]["text"], "0-1,2-0");
    assert_eq!(j["winning_moves"][0]["at"]["edge"], 1);
    assert_eq!(
        j["winning_moves"][0]["at"]["ends"],
        serde_json::json!([1, 2])
    );
    assert!(j["winning_moves"][0]["text"].is_string());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Arbitrary text as an edge list: never a panic; errors are one line without control
    /// characters; what parses can be analysed.
    #[test]
    fn parser_never_panics(text in prop_oneof![r"[0-9\-, ]{0,24}", any::<String>()]) {
        match Graph::parse(&text) {
            Ok(g) => {
                let _ = analyze(&g);
            }
            Err(e) => {
                let m = e.to_string();
                prop_assert!(!m.chars().any(char::is_control), "{m:?}");
                prop_assert!(m.len() < 1000);
            }
        }
    }
}

/// The levels the front ends draw: each vertex one row above its nearest neighbour towards
/// the ground, in breadth-first order, and the catalogue's position carries them.
#[test]
fn levels_are_distances_from_the_ground() {
    let g = Graph::parse("0-1,1-2,2-0,1-3,3-4,4-4,0-5").unwrap();
    assert_eq!(g.levels(), vec![vec![0], vec![1, 2, 5], vec![3], vec![4]]);
    assert_eq!(Graph::parse("0-0").unwrap().levels(), vec![vec![0]]);
    let entries = grundy_games::entries();
    let rules = entries
        .iter()
        .find(|e| e.matches("hackenbush"))
        .unwrap()
        .open("hackenbush")
        .unwrap();
    let pos = rules.parse("0-1,1-2,2-0").unwrap();
    assert_eq!(pos.data["levels"], serde_json::json!([[0], [1, 2]]));
}
