//! The expansion of graphs past the engine's 128 vertices (`grundy_board::expand`) against
//! the engine on graphs it values whole: with small leaves forced, every level the expansion
//! adds is checked, on random graphs (proptest) and on the queens graphs of OEIS A344227, by
//! both of the expansion's paths (questions, and full values).

use grundy_board::engine::{Engine, Options, Rules, SearchError};
use grundy_board::expand::{AnyGraph, Expansion, WideGraph};
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

/// The option lists of the positions being expanded count against the memory bound while they
/// are scanned, not only once put back: on Arc Kayles on K40 with leaves of 2 vertices the
/// expansion descends 19 levels of 780, 703, … options before its first leaf, and a quarter of
/// 256 KiB holds only the first two lists, so the search stops at the third, no leaf searched.
#[test]
fn the_lists_under_scan_count_against_the_memory_bound() {
    let opts = Options {
        max_memory: 256 << 10,
        ..Options::default()
    };
    let g = WideGraph::parse("complete:40").unwrap();
    let mut x = Expansion::new(Rules::ArcKayles, g, opts).with_leaf(2);
    let e = x.value().unwrap_err();
    assert!(matches!(e, SearchError::Buffers { .. }), "{e}");
    assert_eq!(x.leaves(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On a lattice the leaves go to the engine component by component, each on the grid of
    /// its bounding box: the values agree with the engine on the whole lattice.
    #[test]
    fn lattice_leaves_by_their_components_agree_with_the_engine(
        rows in 1usize..4,
        cols in 1usize..6,
        keep in any::<u64>(),
        leaf in 0usize..20,
        arc in any::<bool>(),
        full in any::<bool>(),
    ) {
        let rules = if arc { Rules::ArcKayles } else { Rules::NodeKayles };
        let g = Graph::grid(rows, cols).unwrap();
        let pos = g.all() & u128::from(keep);
        let want = Engine::new(rules, g, small()).unwrap().grundy(pos).unwrap();
        let w = WideGraph::parse(&format!("grid:{rows}x{cols}")).unwrap();
        let parts = w.lattice_parts(&wide(pos)).unwrap();
        let cells: u32 = parts.iter().map(|(_, r)| r.count_ones()).sum();
        prop_assert_eq!(cells, pos.count_ones());
        prop_assert_eq!(expanded(rules, w, leaf, full).value_of(&wide(pos)).unwrap(), want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On a cycle the arcs are keyed by their length and a leaf's arcs go to the engine as
    /// paths: the values agree with the engine on the whole cycle.
    #[test]
    fn cycle_arcs_by_their_length_agree_with_the_engine(
        n in 3usize..16,
        keep in any::<u64>(),
        leaf in 0usize..16,
        arc in any::<bool>(),
        full in any::<bool>(),
    ) {
        let rules = if arc { Rules::ArcKayles } else { Rules::NodeKayles };
        let g = Graph::cycle(n).unwrap();
        let pos = g.all() & u128::from(keep);
        let want = Engine::new(rules, g, small()).unwrap().grundy(pos).unwrap();
        let w = WideGraph::parse(&format!("cycle:{n}")).unwrap();
        prop_assert_eq!(expanded(rules, w, leaf, full).value_of(&wide(pos)).unwrap(), want);
    }
}

/// The expansion of a graph of at most 15 vertices with leaves of at most `leaf` (by the full
/// values' path with `full`): every subset fits the memo's quarter of 16 MiB, whatever the
/// leaf.
fn expanded(rules: Rules, w: WideGraph, leaf: usize, full: bool) -> Expansion {
    let roomy = Options {
        max_memory: 16 << 20,
        ..Options::default()
    };
    let x = Expansion::new(rules, w, roomy).with_leaf(leaf);
    if full {
        x.with_full_values()
    } else {
        x
    }
}

/// A vertex set of a small graph as the expansion's words.
fn wide(s: u128) -> Vec<u64> {
    vec![s as u64]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The expansion's moves are the engine's, and the graph each leaves (renumbered, for Arc
    /// Kayles without the vertices no move can delete) has the value of the engine's position.
    #[test]
    fn moves_and_the_graphs_they_leave_agree_with_the_engine(
        n in 1usize..13,
        pairs in proptest::collection::vec((0usize..13, 0usize..13), 0..26),
        keep in any::<u16>(),
        arc in any::<bool>(),
    ) {
        let edges: Vec<(usize, usize)> =
            pairs.into_iter().map(|(a, b)| (a % n, b % n)).collect();
        let rules = if arc { Rules::ArcKayles } else { Rules::NodeKayles };
        let g = Graph::from_edges(n, &edges).unwrap();
        let w = WideGraph::from_edges(n, &edges).unwrap();
        let pos = g.all() & u128::from(keep);
        let narrow = grundy_board::engine::moves(rules, &g, pos);
        let expanded = w.moves(rules, &wide(pos));
        prop_assert_eq!(narrow.len(), expanded.len());
        let mut e = Engine::new(rules, g.clone(), Options::default()).unwrap();
        for ((m, to), (wm, wto)) in narrow.iter().zip(&expanded) {
            prop_assert_eq!(m, wm);
            prop_assert_eq!(&wide(*to), wto);
            let (left, kept) = w.left(rules, wto).unwrap();
            let AnyGraph::Small(h) = left else { panic!("a small graph left") };
            prop_assert!(kept.iter().all(|&v| to >> v & 1 == 1));
            // Every edge of the graph left is an edge of the graph between kept vertices.
            for (a, b) in h.edges() {
                prop_assert!(g.edges().contains(&(kept[a].min(kept[b]), kept[a].max(kept[b]))));
            }
            let hall = h.all();
            let got = Engine::new(rules, h, Options::default()).unwrap().grundy(hall).unwrap();
            prop_assert_eq!(got, e.grundy(*to).unwrap());
        }
    }

    /// The symmetries a board's graph is given are automorphisms of it.
    #[test]
    fn board_symmetries_are_automorphisms(rows in 1usize..14, cols in 1usize..14, which in 0usize..4) {
        let text = match which {
            0 => format!("grid:{rows}x{cols}"),
            1 => format!("queens:{rows}"),
            2 => format!("path:{}", rows * cols),
            _ => format!("ladder:{cols}"),
        };
        let w = WideGraph::parse(&text).unwrap();
        let edges = w.edges();
        for p in w.symmetries() {
            let mut img: Vec<(usize, usize)> = edges
                .iter()
                .map(|&(a, b)| {
                    let (a, b) = (p[a] as usize, p[b] as usize);
                    (a.min(b), a.max(b))
                })
                .collect();
            img.sort();
            prop_assert_eq!(&img, &edges, "{}", text);
        }
    }
}

#[test]
fn one_notation_for_every_size() {
    // A graph of at most 128 vertices is the engine's, a larger one the expansion's; both
    // print back as they were read.
    for (text, small) in [
        ("queens:11", true),
        ("queens:14", false),
        ("path:128", true),
        ("path:200", false),
        ("grid:12x12", false),
        ("petersen:70,2", false),
        ("0-1,127-128", false),
        ("200:0-1", false),
        ("0-1,1-2", true),
    ] {
        let g = AnyGraph::parse(text).unwrap();
        assert_eq!(matches!(g, AnyGraph::Small(_)), small, "{text}");
        assert_eq!(g.to_string(), text);
        assert_eq!(AnyGraph::parse(&g.to_string()).unwrap().edges(), g.edges());
    }
    let q = WideGraph::parse("queens:14").unwrap();
    assert_eq!((q.vertex_count(), q.board_shape()), (196, Some((14, 14))));
    assert_eq!(q.symmetries().len(), 7);
    assert_eq!(
        WideGraph::parse("grid:12x13").unwrap().symmetries().len(),
        3
    );
    // The edges of a graph past 128 vertices make its name: two edge lists never share a memo.
    let e = WideGraph::parse("130:0-1").unwrap();
    assert_eq!(e.name(), "130:0-1");
    for bad in [
        "queens:33",
        "path:1025",
        "2000:0-1",
        "0-1024",
        "grid:0x200",
        "130:0-130",
    ] {
        let err = AnyGraph::parse(bad).unwrap_err().to_string();
        assert!(!err.contains('\n'), "{bad}: {err}");
    }
    assert_eq!(
        AnyGraph::parse("queens:33").unwrap_err().to_string(),
        "1089 vertices: at most 1024 are supported"
    );
}
