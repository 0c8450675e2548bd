//! The expansion of graphs past the engine's 128 vertices (`grundy_board::expand`) against
//! the engine on graphs it values whole: with small leaves forced, every level the expansion
//! adds is checked, on random graphs (proptest) and on the queens graphs of OEIS A344227, by
//! both of the expansion's paths (questions, and full values).

use grundy_board::engine::{Engine, Options, Rules};
use grundy_board::expand::{Expansion, WideGraph};
use grundy_board::graph::Graph;
use proptest::prelude::*;

mod check;

fn engine_value(rules: Rules, n: usize, edges: &[(usize, usize)]) -> u32 {
    let g = Graph::from_edges(n, edges).unwrap();
    let all = g.all();
    Engine::new(rules, g, Options::default())
        .unwrap()
        .grundy(all)
        .unwrap()
}

fn small() -> Options {
    Options {
        max_memory: 4 << 20,
        ..Options::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_expansion_values_random_graphs_as_the_engine_does(
        n in 1usize..14,
        pairs in proptest::collection::vec((0usize..14, 0usize..14), 0..30),
        leaf in 0usize..14,
        arc in any::<bool>(),
        full in any::<bool>(),
    ) {
        let edges: Vec<(usize, usize)> =
            pairs.into_iter().map(|(a, b)| (a % n, b % n)).collect();
        let rules = if arc { Rules::ArcKayles } else { Rules::NodeKayles };
        let want = engine_value(rules, n, &edges);
        let g = WideGraph::from_edges(n, &edges).unwrap();
        let mut x = Expansion::new(rules, g, small()).with_leaf(leaf);
        if full {
            x = x.with_full_values();
        }
        prop_assert_eq!(x.value().unwrap(), want);
    }
}

fn a344227() -> Vec<(usize, u32)> {
    let terms = check::terms(include_str!("../../../testdata/oeis/A344227.txt"));
    terms.into_iter().map(|(n, v)| (n, v as u32)).collect()
}

#[test]
fn queens_graphs_expanded_to_small_leaves_give_a344227() {
    // Leaves of at most 30 vertices: the 8 x 8 board is expanded two levels deep.
    for (n, v) in a344227().into_iter().filter(|&(n, _)| (1..=8).contains(&n)) {
        let mut x =
            Expansion::new(Rules::NodeKayles, WideGraph::queens(n).unwrap(), small()).with_leaf(30);
        assert_eq!(x.value().unwrap(), v, "queens:{n}");
        let mut x = Expansion::new(Rules::NodeKayles, WideGraph::queens(n).unwrap(), small())
            .with_leaf(24)
            .with_full_values();
        assert_eq!(
            x.value().unwrap(),
            v,
            "queens:{n}, full values, leaves of 24"
        );
    }
}

#[test]
fn a_saved_memo_is_read_back_and_searches_nothing_again() {
    let dir = std::env::temp_dir().join(format!("grundy-expand-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("memo.txt");
    let q = || WideGraph::queens(6).unwrap();
    let mut x = Expansion::new(Rules::NodeKayles, q(), small()).with_leaf(20);
    let v = x.value().unwrap();
    assert!(x.leaves() > 0);
    x.save(&path).unwrap();
    let mut y = Expansion::new(Rules::NodeKayles, q(), small()).with_leaf(20);
    assert_eq!(y.load(&path).unwrap(), x.memo_len() as u64);
    assert_eq!(y.value().unwrap(), v);
    assert_eq!(y.leaves(), 0);
    // Another leaf size, graph, rule or path is refused, as is a file that is not a memo.
    let mut z = Expansion::new(Rules::NodeKayles, q(), small())
        .with_leaf(20)
        .with_full_values();
    assert!(z.load(&path).is_err());
    let mut z = Expansion::new(Rules::NodeKayles, q(), small()).with_leaf(21);
    assert!(z.load(&path).is_err());
    let mut z = Expansion::new(Rules::ArcKayles, q(), small()).with_leaf(20);
    assert!(z.load(&path).is_err());
    std::fs::write(&path, "hello\n").unwrap();
    assert!(y.load(&path).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn limits_hold_across_the_leaves() {
    let opts = Options {
        max_nodes: Some(50),
        ..small()
    };
    let mut x =
        Expansion::new(Rules::NodeKayles, WideGraph::queens(7).unwrap(), opts).with_leaf(25);
    let e = x.value().unwrap_err().to_string();
    assert!(e.contains("limit of 50"), "{e}");
    assert!(x.nodes() <= 50 + 1);
    // A position naming vertices the graph does not have.
    let mut x = Expansion::new(Rules::NodeKayles, WideGraph::queens(3).unwrap(), small());
    assert!(x.value_of(&[1 << 9]).is_err());
    assert!(x.value_of(&[0, 0]).is_err());
}
