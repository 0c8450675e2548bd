//! The engine against values nobody here computed.
//!
//! - `testdata/games/cram.txt`: Cram values of empty boards (Beling's igsolve README table; the
//!   boards up to 5 x 6 and 4 x 7 and every even x even one run here, the rest in
//!   `bench/boards.sh`).
//! - `testdata/cgsuite/graph_grid.txt`: CGSuite's tests: Cram `.........|##.######` = *4, Arc
//!   Kayles on paths of 1..50 vertices, and with a loop at every vertex (= Kayles).
//! - `testdata/oeis/A002187.txt`: Dawson's Chess (0.137); Node Kayles on the path P_n is the
//!   heap n, and on the cycle C_n (n >= 4) it is mex{G(P_{n-3})} (the first move leaves P_{n-3}).
//! - OEIS A316632 (Node Kayles on the 3 x n grid, n = 1..16): 2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3,
//!   5, 2, 4, 1, 3, from <https://oeis.org/A316632> (Brown, Daugherty, Fiorini et al., "Nimber
//!   Sequences of Node-Kayles Games", J. Integer Seq. 23 (2020), Article 20.3.5); its comments:
//!   the 2 x n grid gives 1, 0, 1, 0, … and the 4 x n grid 0, 0, ….
//! - OEIS A317367 (Node Kayles on P_n(3), the path with extra edges {i, i+3}; offset 4): the
//!   terms below, from <https://oeis.org/A317367> (data section, Fiorini).
//!
//! - `testdata/oeis/A344227.txt` (Node Kayles on the n x n queens graph, the non-attacking
//!   queens game): n = 1..=11, all the graph notation holds (121 vertices; the harness runs
//!   n ≤ 9 through every door).
//!
//! A316781 could not be found in the reference texts available here; it is not tested.

use grundy_board::cram::Board;
use grundy_board::engine::{Engine, Options, Rules};
use grundy_board::graph::Graph;
use std::path::PathBuf;

mod check;

fn corpus(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn value(rules: Rules, g: &str) -> u32 {
    let g = Graph::parse(g).unwrap();
    let all = g.all();
    Engine::new(rules, g, Options::default())
        .unwrap()
        .grundy(all)
        .unwrap()
}

const A316632: [u32; 16] = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3];

const A317367: [u32; 105] = [
    0, 2, 1, 3, 0, 1, 1, 3, 0, 2, 3, 3, 2, 2, 3, 4, 2, 4, 0, 4, 2, 5, 3, 2, 2, 3, 3, 2, 0, 3, 1, 1,
    0, 3, 1, 2, 0, 3, 1, 2, 0, 1, 1, 4, 0, 4, 5, 4, 7, 2, 6, 4, 7, 5, 0, 4, 1, 1, 0, 2, 1, 3, 0, 2,
    1, 3, 0, 1, 1, 3, 0, 2, 3, 3, 2, 2, 7, 4, 6, 5, 4, 4, 5, 5, 7, 2, 6, 3, 3, 2, 0, 3, 1, 1, 0, 3,
    1, 2, 0, 3, 1, 2, 0, 1, 1,
];

#[path = "../../../testdata/games/cram_table.rs"]
mod cram_table;

#[test]
fn cram_table() {
    let mut checked = 0;
    for (rows, cols, v) in cram_table::reference() {
        // Small enough for a test, or even x even (0 by the mirror strategy, which the
        // engine sees without search): the rest are in bench/boards.sh.
        if rows * cols > 30 && (rows % 2 == 1 || cols % 2 == 1) {
            continue;
        }
        let b = Board::rectangle(rows, cols).unwrap();
        let got = b.analyze(Options::default()).unwrap().grundy;
        assert_eq!(got, v, "Cram {rows}x{cols}");
        let two = Options {
            threads: 2,
            ..Options::default()
        };
        assert_eq!(
            b.analyze(two).unwrap().grundy,
            v,
            "Cram {rows}x{cols}, 2 threads"
        );
        checked += 1;
    }
    assert_eq!(checked, 15); // 4x4..4x7, 5x5, 5x6, and 4x8..4x14, 6x6..6x14 even
}

#[test]
fn cgsuite_cram_and_arc_kayles() {
    let text = corpus("cgsuite/graph_grid.txt");
    assert!(text.contains("Cram(\".........|##.######\") = *4"));
    let b = Board::parse(".........|##.######").unwrap();
    assert_eq!(b.analyze(Options::default()).unwrap().grundy, 4);
    // The rotated board (a column) is the same game.
    assert_eq!(
        Board::parse(".#|.#|..|.#|.#|.#|.#|.#|.#")
            .unwrap()
            .analyze(Options::default())
            .unwrap()
            .grundy,
        4
    );
    let mut lines = text.lines();
    let mut next_values = |marker: &str| -> Vec<u32> {
        for l in lines.by_ref() {
            if l.contains(marker) {
                break;
            }
        }
        let l = lines
            .by_ref()
            .find(|l| !l.trim().is_empty() && !l.starts_with('['))
            .unwrap();
        l.split(',').map(|t| t.trim().parse().unwrap()).collect()
    };
    let paths = next_values("ArcKayles(Graph.Path(n))");
    let kayles = next_values("self-loop at every vertex");
    assert_eq!(paths.len(), 50);
    assert_eq!(kayles.len(), 50);
    for n in 1..=50usize {
        assert_eq!(
            value(Rules::ArcKayles, &format!("path:{n}")),
            paths[n - 1],
            "path {n}"
        );
        let mut edges: Vec<String> = (0..n).map(|v| format!("{v}-{v}")).collect();
        edges.extend((1..n).map(|v| format!("{}-{v}", v - 1)));
        let g = format!("{n}:{}", edges.join(","));
        assert_eq!(
            value(Rules::ArcKayles, &g),
            kayles[n - 1],
            "looped path {n}"
        );
    }
}

/// Arc Kayles on the path P_n is Dawson's Kayles (0.07), whose value at n is Dawson's Chess's
/// (A002187) at n - 1; past 64 vertices the lattice search runs in 128-bit words.
#[test]
fn arc_kayles_long_paths() {
    let d = dawson();
    for n in (45..=110usize).step_by(5) {
        assert_eq!(
            value(Rules::ArcKayles, &format!("path:{n}")),
            d[n - 1],
            "P_{n}"
        );
    }
}

fn dawson() -> Vec<u32> {
    corpus("oeis/A002187.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn node_kayles_paths_and_cycles() {
    let d = dawson();
    for (n, &want) in d.iter().enumerate().take(81).skip(1) {
        assert_eq!(
            value(Rules::NodeKayles, &format!("path:{n}")),
            want,
            "P_{n}"
        );
    }
    assert_eq!(value(Rules::NodeKayles, "cycle:3"), 1);
    for n in 4..=60usize {
        let want = if d[n - 3] == 0 { 1 } else { 0 };
        assert_eq!(
            value(Rules::NodeKayles, &format!("cycle:{n}")),
            want,
            "C_{n}"
        );
    }
}

#[test]
fn node_kayles_grids() {
    for (i, &v) in A316632.iter().enumerate() {
        let n = i + 1;
        assert_eq!(value(Rules::NodeKayles, &format!("grid:3x{n}")), v, "3x{n}");
    }
    for n in 1..=12 {
        assert_eq!(
            value(Rules::NodeKayles, &format!("ladder:{n}")),
            n as u32 % 2
        );
    }
    for n in 1..=6 {
        assert_eq!(value(Rules::NodeKayles, &format!("grid:4x{n}")), 0, "4x{n}");
    }
}

/// The 3 x n grid as an edge list, numbered row by row or column by column: off the lattice,
/// so its components are keyed by their least translate in the numbering (a shift along a
/// row, or down a column), and the values must still be OEIS A316632's.
#[test]
fn node_kayles_grids_as_edge_lists() {
    for (i, &v) in A316632.iter().enumerate() {
        let n = i + 1;
        for by_rows in [true, false] {
            let at = |r: usize, c: usize| if by_rows { r * n + c } else { c * 3 + r };
            let mut edges = Vec::new();
            for r in 0..3 {
                for c in 0..n {
                    if c + 1 < n {
                        edges.push(format!("{}-{}", at(r, c), at(r, c + 1)));
                    }
                    if r + 1 < 3 {
                        edges.push(format!("{}-{}", at(r, c), at(r + 1, c)));
                    }
                }
            }
            let g = format!("{}:{}", 3 * n, edges.join(","));
            assert_eq!(value(Rules::NodeKayles, &g), v, "3x{n}, by rows: {by_rows}");
        }
    }
}

#[test]
fn node_kayles_queens_graphs() {
    let mut checked = 0;
    for (n, v) in check::terms(&corpus("oeis/A344227.txt")) {
        if (1..=11).contains(&n) {
            assert_eq!(
                value(Rules::NodeKayles, &format!("queens:{n}")),
                v as u32,
                "queens:{n}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 11);
}

#[test]
fn node_kayles_scalloped_paths() {
    for (i, &v) in A317367.iter().enumerate().take(57) {
        let n = i + 4;
        let mut edges: Vec<String> = (1..n).map(|v| format!("{}-{v}", v - 1)).collect();
        edges.extend((3..n).map(|v| format!("{}-{v}", v - 3)));
        let g = format!("{n}:{}", edges.join(","));
        assert_eq!(value(Rules::NodeKayles, &g), v, "P_{n}(3)");
    }
}
