//! Node Kayles against published values and a brute force.
//!
//! - Paths: Node Kayles on the path P_n is Dawson's Chess (0.137), OEIS A002187
//!   (`testdata/oeis/A002187.txt`, the shared corpus).
//! - 3 × n grids: OEIS A316632 (Brown, Daugherty, Fiorini et al., "Nimber Sequences of
//!   Node-Kayles Games", J. Int. Seq. 23 (2020), Article 20.3.5), n = 1..16:
//!   2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3. Its comments: the 2 × n ladder gives
//!   1, 0, 1, 0, … (A000035) and the 4 × n grid 0, 0, 0, … (A000004).
//! - Cycles, stars and complete graphs by the first move's symmetry (derived in each test).
//! - Random graphs: the catalogue's rules against a plain mex over vertex subsets.

use grundy_core::catalogue::{Budget, Play, Rules};
use grundy_games::node_kayles::{self, parse_graph, print_graph};
use proptest::prelude::*;

fn value(rules: &mut impl Rules, text: &str) -> u64 {
    let p = rules.parse(text).unwrap();
    let r = rules
        .analyze(
            &p,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(Budget::default()),
        )
        .unwrap();
    r.grundy.unwrap().finite().unwrap()
}

fn dawsons_chess() -> Vec<u64> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/oeis/A002187.txt"
    ))
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn paths_are_dawsons_chess() {
    let a = dawsons_chess();
    let mut rules = node_kayles::rules();
    for (n, &want) in a.iter().enumerate().take(61).skip(1) {
        assert_eq!(value(&mut rules, &format!("path:{n}")), want, "path:{n}");
    }
}

#[test]
fn three_by_n_grids_match_a316632() {
    let published = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3];
    let mut rules = node_kayles::rules();
    for (i, &want) in published.iter().enumerate().take(9) {
        let n = i + 1;
        assert_eq!(
            value(&mut rules, &format!("grid:3x{n}")),
            want,
            "grid:3x{n}"
        );
    }
}

#[test]
fn ladders_alternate_and_four_rows_are_zero() {
    let mut rules = node_kayles::rules();
    for n in 1..=12 {
        assert_eq!(
            value(&mut rules, &format!("ladder:{n}")),
            (n % 2) as u64,
            "ladder:{n}"
        );
    }
    for n in 1..=5 {
        assert_eq!(value(&mut rules, &format!("grid:4x{n}")), 0, "grid:4x{n}");
    }
}

#[test]
fn cycles_stars_and_complete_graphs() {
    let a = dawsons_chess();
    let mut rules = node_kayles::rules();
    // Every first move on C_n deletes three consecutive vertices and leaves P_{n-3}.
    for n in 3..=40 {
        let want = if a[n - 3] == 0 { 1 } else { 0 };
        assert_eq!(value(&mut rules, &format!("cycle:{n}")), want, "cycle:{n}");
    }
    // The centre empties the star; a leaf leaves k - 1 isolated vertices, of value (k-1) mod 2.
    for k in 1..=20u64 {
        let want = if (k - 1) % 2 == 0 { 1 } else { 2 };
        assert_eq!(value(&mut rules, &format!("star:{k}")), want, "star:{k}");
    }
    for n in 1..=10 {
        assert_eq!(
            value(&mut rules, &format!("complete:{n}")),
            1,
            "complete:{n}"
        );
    }
    // K_{m,n}: a vertex of one side deletes the whole other side and leaves the rest of its
    // own side as isolated vertices: K_{2,3} has options of value 1 (one left) and 0 (two
    // left), so value 2; every option of K_{3,3} leaves two isolated vertices, so value 1.
    assert_eq!(value(&mut rules, "complete:2,3"), 2);
    assert_eq!(value(&mut rules, "complete:3,3"), 1);
}

#[test]
fn edge_lists_round_trip_and_bad_graphs_are_refused() {
    let mut rules = node_kayles::rules();
    let p = rules.parse("0-1, 1-2 ,2-0,5").unwrap();
    assert_eq!(p.text, "0-1,0-2,1-2,3,4,5");
    assert_eq!(rules.parse(&p.text).unwrap(), p);
    assert_eq!(rules.parse("path:3").unwrap().text, "0-1,1-2");
    for bad in [
        "path:x", "grid:3", "cycle:2", "0-", "tree:3", "path:200", "0-300",
    ] {
        let e = rules.parse(bad).unwrap_err();
        assert!(!e.message.contains('\n'), "{bad}: {e}");
    }
    assert!(rules.parse("path:129").unwrap_err().is_limit());
    // Every winning move leaves value 0 and its position reads back.
    let r = rules
        .analyze(
            &rules.parse("path:9").unwrap(),
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(Budget::default()),
        )
        .unwrap();
    assert!(!r.winning_moves.is_empty());
    for m in &r.winning_moves {
        assert_eq!(value(&mut rules, &m.to.text), 0);
        assert!(m.short.chars().count() <= 30);
    }
}

/// Plain mex over vertex subsets of a graph, no components, no memo sharing.
fn brute(adj: &[u128], left: u128, memo: &mut std::collections::HashMap<u128, u64>) -> u64 {
    if let Some(&v) = memo.get(&left) {
        return v;
    }
    let mut seen = Vec::new();
    for v in 0..adj.len() {
        if left >> v & 1 == 1 {
            seen.push(brute(adj, left & !(adj[v] | 1 << v), memo));
        }
    }
    let g = (0..).find(|x| !seen.contains(x)).unwrap();
    memo.insert(left, g);
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn the_catalogue_agrees_with_a_brute_force(n in 1usize..11, edges in proptest::collection::vec((0usize..11, 0usize..11), 0..20)) {
        let edges: Vec<(usize, usize)> = edges.into_iter().filter(|&(a, b)| a < n && b < n).collect();
        let g = node_kayles::Graph::from_edges(n, &edges);
        let mut rules = node_kayles::rules();
        let text = print_graph(&g);
        prop_assert_eq!(&parse_graph(&text).unwrap(), &g);
        let got = value(&mut rules, &text);
        let want = brute(&g.adj, g.all(), &mut Default::default());
        prop_assert_eq!(got, want);
        // Misère: the outcome by the solver's search agrees with a misère brute force.
        let p = rules.parse(&text).unwrap();
        let r = rules.analyze(&p, &grundy_core::catalogue::Ask::new(Play::Misere).budget(Budget::default())).unwrap();
        fn mis(adj: &[u128], left: u128) -> bool {
            // true: the player to move wins under misère play
            if left == 0 { return true; }
            (0..adj.len()).filter(|&v| left >> v & 1 == 1).any(|v| !mis(adj, left & !(adj[v] | 1 << v)))
        }
        let wins = mis(&g.adj, g.all());
        prop_assert_eq!(r.outcome == grundy_core::Outcome::N, wins);
    }
}
