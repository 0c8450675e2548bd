//! The engine against a plain memoised mex over whole positions, on random small graphs and
//! random positions of small boards; and its limits (stop flag, node cap, memory cap, a
//! table too small to hold the search, save and resume).

use grundy_board::cram::Board;
use grundy_board::engine::{Checkpoint, Engine, Options, Rules, SearchError};
use grundy_board::graph::Graph;
use proptest::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The plain definition: the mex of the options' values, over whole vertex sets.
fn brute(rules: Rules, g: &Graph, pos: u128, memo: &mut HashMap<u128, u32>) -> u32 {
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let mut seen = Vec::new();
    for u in 0..g.vertex_count() {
        if pos >> u & 1 == 0 {
            continue;
        }
        match rules {
            Rules::NodeKayles => {
                seen.push(brute(rules, g, pos & !(g.neighbors(u) | 1 << u), memo));
            }
            Rules::ArcKayles => {
                if g.loops() >> u & 1 != 0 {
                    seen.push(brute(rules, g, pos & !(1u128 << u), memo));
                }
                for v in u + 1..g.vertex_count() {
                    if pos >> v & 1 != 0 && g.neighbors(u) >> v & 1 != 0 {
                        seen.push(brute(rules, g, pos & !(1u128 << u | 1u128 << v), memo));
                    }
                }
            }
        }
    }
    let mut m = 0;
    while seen.contains(&m) {
        m += 1;
    }
    memo.insert(pos, m);
    m
}

fn small_opts() -> Options {
    Options {
        max_memory: 1 << 20,
        ..Options::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_graphs(n in 1usize..=12, edges in proptest::collection::vec((0usize..12, 0usize..12), 0..30),
                     pos_bits in any::<u16>()) {
        let edges: Vec<(usize, usize)> = edges.into_iter().map(|(u, v)| (u % n, v % n)).collect();
        let g = Graph::from_edges(n, &edges).unwrap();
        prop_assert_eq!(Graph::parse(g.notation()).unwrap(), g.clone());
        let pos = pos_bits as u128 & g.all();
        for rules in [Rules::NodeKayles, Rules::ArcKayles] {
            let mut memo = HashMap::new();
            let want = brute(rules, &g, pos, &mut memo);
            let mut e = Engine::new(rules, g.clone(), small_opts()).unwrap();
            prop_assert_eq!(e.grundy(pos).unwrap(), want);
            prop_assert_eq!(e.grundy(g.all()).unwrap(), brute(rules, &g, g.all(), &mut memo));
            for k in 0..4 {
                prop_assert_eq!(e.is_p(pos, k).unwrap(), want == k);
            }
            // Winning moves are exactly the moves to P-positions.
            let a = e.analyze(pos).unwrap();
            let mut wins = Vec::new();
            for (m, to) in e.moves(pos) {
                if brute(rules, &g, to, &mut memo) == 0 {
                    wins.push(m);
                }
            }
            prop_assert_eq!(a.winning_moves, wins);
        }
    }

    #[test]
    fn parsers_never_panic(text in "[0-9a-z:,x|.#\\- \n]{0,24}") {
        if let Err(e) = Graph::parse(&text) {
            prop_assert!(!e.to_string().contains('\n'));
        }
        if let Err(e) = Board::parse(&text) {
            prop_assert!(!e.to_string().contains('\n'));
        }
    }

    /// Boards that are their own image under the half turn: the engine values some of their
    /// components 0 by the mirror strategy without search.
    #[test]
    fn half_turn_symmetric_boards(rows in 1usize..=4, cols in 1usize..=6, cells in any::<u32>()) {
        let n = rows * cols;
        let half = cells as u128 & ((1u128 << n) - 1);
        let mut sym = half;
        for v in 0..n {
            if half >> v & 1 != 0 {
                sym |= 1u128 << (n - 1 - v);
            }
        }
        let b = Board::rectangle(rows, cols).unwrap().with_empty(sym);
        let g = b.graph();
        let mut memo = HashMap::new();
        let want = brute(Rules::ArcKayles, &g, sym, &mut memo);
        prop_assert_eq!(b.analyze(small_opts()).unwrap().grundy, u64::from(want));
        let mut memo = HashMap::new();
        let nk = brute(Rules::NodeKayles, &g, sym, &mut memo);
        let mut e = Engine::new(Rules::NodeKayles, g, small_opts()).unwrap();
        prop_assert_eq!(e.grundy(sym).unwrap(), nk);
    }

    #[test]
    fn random_boards(rows in 1usize..=4, cols in 1usize..=5, cells in any::<u32>()) {
        let b = Board::rectangle(rows, cols).unwrap();
        let b = b.with_empty(cells as u128);
        let g = b.graph();
        let mut memo = HashMap::new();
        let want = brute(Rules::ArcKayles, &g, b.empty(), &mut memo);
        prop_assert_eq!(b.analyze(small_opts()).unwrap().grundy, u64::from(want));
        let mut memo = HashMap::new();
        let nk = brute(Rules::NodeKayles, &g, b.empty(), &mut memo);
        let mut e = Engine::new(Rules::NodeKayles, g, small_opts()).unwrap();
        prop_assert_eq!(e.grundy(b.empty()).unwrap(), nk);
    }

    /// Sparse boards up to 5 x 6: many cells with one neighbour, so the engine's Cram
    /// reductions (pendants dropped, cells between pendant centres dropped, equal components
    /// cancelled) are at work; the brute force sees the board as it is.
    #[test]
    fn sparse_boards_and_the_reductions(rows in 2usize..=5, cols in 2usize..=6,
                                        a in any::<u32>(), c in any::<u32>()) {
        let b = Board::rectangle(rows, cols).unwrap();
        let b = b.with_empty((a | c) as u128 & !((a & c) as u128 & 0x1555_5555));
        let g = b.graph();
        let mut memo = HashMap::new();
        let want = brute(Rules::ArcKayles, &g, b.empty(), &mut memo);
        let a = b.analyze(small_opts()).unwrap();
        prop_assert_eq!(a.grundy, u64::from(want));
        let threaded = Options { threads: 2, ..small_opts() };
        prop_assert_eq!(b.analyze(threaded).unwrap().grundy, u64::from(want));
        // Every winning move found leads to a P-position, by the brute force too.
        for m in a.winning_moves {
            let grundy_board::Move::Edge(u, v) = m else { panic!("{m:?}") };
            let to = b.empty() & !(1u128 << u | 1u128 << v);
            prop_assert_eq!(brute(Rules::ArcKayles, &g, to, &mut memo), 0);
        }
    }
}

proptest! {
    // Each case asks one engine some 400 positions: fewer cases than above.
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Graphs of 16 to 20 vertices made by repeating a random pattern every `p` vertices,
    /// with a few edges and loops added at random, so that components of more than 15
    /// vertices are keyed by their least translate: some shifts map a component onto another
    /// edge for edge and loop for loop, and the extra edges and loops make others fail part
    /// way. One engine is asked every position with one or two vertices gone, so that
    /// translates of one vertex set meet in its table, isomorphic or not.
    #[test]
    fn periodic_graphs(n in 16usize..=20, p in 1usize..=4,
                       pattern in proptest::collection::vec((0usize..4, 1usize..=6), 1..5),
                       extra in proptest::collection::vec((0usize..20, 0usize..20), 0..3),
                       loops in proptest::collection::vec(0usize..20, 0..3)) {
        let mut edges = Vec::new();
        for base in (0..n).step_by(p) {
            for &(a, off) in &pattern {
                let (u, v) = (base + a % p, base + a % p + off);
                if v < n {
                    edges.push((u, v));
                }
            }
        }
        edges.extend(extra.into_iter().map(|(u, v)| (u % n, v % n)));
        edges.extend(loops.into_iter().map(|v| (v % n, v % n)));
        let g = Graph::from_edges(n, &edges).unwrap();
        for rules in [Rules::NodeKayles, Rules::ArcKayles] {
            let mut memo = HashMap::new();
            let mut e = Engine::new(rules, g.clone(), small_opts()).unwrap();
            for i in 0..n {
                for j in i..n {
                    let pos = g.all() & !(1u128 << i | 1u128 << j);
                    let want = brute(rules, &g, pos, &mut memo);
                    prop_assert_eq!(e.grundy(pos).unwrap(), want, "{} less {} and {}", g.notation(), i, j);
                }
            }
        }
    }
}

#[test]
fn threads_agree_with_one_thread() {
    // Dense boards (components of 20 cells and more search their options on two threads)
    // with a few cells filled at random: the same values, winning moves included.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for (rows, cols) in [(4, 5), (5, 5), (4, 6), (5, 6), (4, 7)] {
        for _ in 0..3 {
            let mut filled = 0u128;
            for _ in 0..3 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                filled |= 1u128 << (x % (rows * cols) as u64);
            }
            let b = Board::rectangle(rows, cols).unwrap();
            let b = b.with_empty(b.empty() & !filled);
            let one = b.analyze(Options::default()).unwrap();
            for threads in [2, 3] {
                let many = b
                    .analyze(Options {
                        threads,
                        ..Options::default()
                    })
                    .unwrap();
                assert_eq!(many.grundy, one.grundy, "{b} on {threads} threads");
                assert_eq!(many.winning_moves, one.winning_moves, "{b}");
            }
        }
    }
}

#[test]
fn tiny_table_still_right() {
    // A table of one bucket forces replacement at every turn; answers stay right.
    let opts = Options {
        max_memory: grundy_board::table::Table::MIN_BYTES,
        ..Options::default()
    };
    let b = Board::rectangle(4, 5).unwrap();
    assert_eq!(b.analyze(opts).unwrap().grundy, 2);
}

#[test]
fn limits() {
    let b = Board::rectangle(5, 6).unwrap();
    let opts = Options {
        max_nodes: Some(100),
        check_every: 10,
        ..Options::default()
    };
    assert!(matches!(
        b.analyze(opts),
        Err(SearchError::NodeLimit { limit: 100 })
    ));
    let stop = Arc::new(AtomicBool::new(true));
    let opts = Options {
        stop: Some(stop),
        check_every: 10,
        ..Options::default()
    };
    assert!(matches!(b.analyze(opts), Err(SearchError::Stopped { .. })));
    let opts = Options {
        max_memory: 10,
        ..Options::default()
    };
    let e = b.analyze(opts).unwrap_err();
    assert!(matches!(e, SearchError::MemoryTooSmall { .. }));
    assert!(!e.to_string().contains('\n'));
    let g = Graph::parse("path:3").unwrap();
    let mut e = Engine::new(Rules::NodeKayles, g, Options::default()).unwrap();
    assert!(matches!(
        e.grundy(1 << 5),
        Err(SearchError::BadPosition { count: 3 })
    ));
}

/// A fresh engine that loads the table `file` (not empty) values `b` as one without it does,
/// with fewer nodes.
fn resumes_from(b: &Board, file: &std::path::Path) {
    let mut fresh = b.engine(Options::default()).unwrap();
    let full = fresh.grundy(b.empty()).unwrap();
    let mut resumed = b.engine(Options::default()).unwrap();
    assert!(resumed.load(file).unwrap() > 0);
    assert_eq!(resumed.grundy(b.empty()).unwrap(), full);
    assert!(resumed.nodes() < fresh.nodes());
}

#[test]
fn save_and_resume() {
    let dir = std::env::temp_dir().join(format!("grundy-board-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cram.tt");
    // (Not an even x even board: those are 0 by symmetry, without search.)
    let b = Board::rectangle(5, 5).unwrap();
    // Stopped part way, saved...
    let mut e = b
        .engine(Options {
            max_nodes: Some(500),
            check_every: 50,
            ..Options::default()
        })
        .unwrap();
    assert!(e.grundy(b.empty()).is_err());
    e.save(&file).unwrap();
    // ... and resumed: the loaded table answers part of the search.
    resumes_from(&b, &file);
    // A table of another game is refused.
    let g = Graph::parse("cycle:5").unwrap();
    let mut other = Engine::new(Rules::NodeKayles, g, Options::default()).unwrap();
    let e = other.load(&file).unwrap_err();
    assert!(e.to_string().contains("not"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The engine's checkpoint saves the table while it searches: a search cut off at its node
/// limit, never saved by the caller, leaves a table that a fresh engine resumes from.
#[test]
fn a_checkpoint_saves_the_table_while_searching() {
    let file =
        std::env::temp_dir().join(format!("grundy-board-checkpoint-{}.tt", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let b = Board::rectangle(5, 5).unwrap();
    let mut e = b
        .engine(Options {
            max_nodes: Some(500),
            check_every: 50,
            checkpoint: Some(Checkpoint {
                path: file.clone(),
                every: std::time::Duration::ZERO,
            }),
            ..Options::default()
        })
        .unwrap();
    assert!(e.grundy(b.empty()).is_err());
    resumes_from(&b, &file);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn analysis_json() {
    let a = Board::parse("...")
        .unwrap()
        .analyze(Options::default())
        .unwrap();
    let j = serde_json::to_value(&a).unwrap();
    assert_eq!(j["outcome"], "N");
    assert_eq!(j["grundy"], 1);
    assert_eq!(j["game"], "arc-kayles");
}
