//! Node Kayles on the n × n queens graphs (the non-attacking queens game, OEIS A344227) by a
//! second path that shares no search code with the engine or its expansion past 128 vertices
//! (`grundy_board::expand`): the plain memoised solver of the core (`grundy_core::Solver`)
//! over 256-bit square sets, split into connected components and keyed by the least image
//! under the square's eight symmetries (the expansion asks Lemoine–Viennot questions of fresh
//! engines on renumbered subgraphs; this path values every component in full, with no table,
//! question or pruning in common).
//!
//! In CI it checks A344227 for n ≤ 9 both ways, and a(12) (144 vertices) by the expansion. `QUEENS_CHECK=N` (with `--ignored
//! --nocapture`, `QUEENS_FROM=M` to start at M) prints `n value positions wall-seconds
//! cpu-seconds` for M ≤ n ≤ N by the plain solver, the second path of docs/results.md:
//!
//! ```text
//! QUEENS_CHECK=12 QUEENS_FROM=12 cargo test --release -p grundy-board --test queens -- --ignored --nocapture
//! ```

use grundy_board::engine::{Options, Rules};
use grundy_board::expand::{Expansion, WideGraph};
use grundy_core::{Game, Solver as Plain};

mod check;

/// A set of squares of a board of at most 16 × 16: bit `s % 64` of word `s / 64` is square
/// `s = r * n + c`.
type Squares = [u64; 4];

/// Node Kayles on the n × n queens graph, n ≤ 16: a position is the set of squares where a
/// queen may still be placed; a move places one, which takes its square and every square it
/// attacks.
struct Queens {
    n: usize,
    /// `closed[s]`: square `s` and every square a queen on it attacks.
    closed: Vec<Squares>,
    /// The square's eight symmetries as square permutations (the identity first).
    maps: Vec<Vec<usize>>,
}

fn has(s: &Squares, v: usize) -> bool {
    s[v / 64] >> (v % 64) & 1 != 0
}

fn put(s: &mut Squares, v: usize) {
    s[v / 64] |= 1 << (v % 64);
}

fn squares(s: &Squares) -> Vec<usize> {
    (0..256).filter(|&v| has(s, v)).collect()
}

impl Queens {
    fn new(n: usize) -> Queens {
        assert!((1..=16).contains(&n), "n ≤ 16 (256 squares)");
        let attacks = |a: usize, b: usize| {
            let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
            r1 == r2 || c1 == c2 || r1.abs_diff(r2) == c1.abs_diff(c2)
        };
        let closed = (0..n * n)
            .map(|a| {
                let mut s = [0; 4];
                for b in (0..n * n).filter(|&b| attacks(a, b)) {
                    put(&mut s, b);
                }
                s
            })
            .collect();
        let m = n - 1;
        let image = |k: usize, r: usize, c: usize| {
            let (r, c) = if k & 4 != 0 { (c, r) } else { (r, c) };
            let r = if k & 1 != 0 { m - r } else { r };
            let c = if k & 2 != 0 { m - c } else { c };
            r * n + c
        };
        let maps = (0..8)
            .map(|k| (0..n * n).map(|v| image(k, v / n, v % n)).collect())
            .collect();
        Queens { n, closed, maps }
    }

    fn all(&self) -> Squares {
        let mut s = [0; 4];
        for v in 0..self.n * self.n {
            put(&mut s, v);
        }
        s
    }

    /// The least image of `x` under the symmetries (compared from the highest word).
    fn key(&self, x: Squares) -> Squares {
        let sq = squares(&x);
        let mut best = x;
        for map in &self.maps[1..] {
            let mut img = [0; 4];
            for &v in &sq {
                put(&mut img, map[v]);
            }
            if img.iter().rev().lt(best.iter().rev()) {
                best = img;
            }
        }
        best
    }
}

impl Game for Queens {
    type Position = Squares;

    fn options(&self, pos: &Squares, out: &mut Vec<Squares>) {
        for v in squares(pos) {
            let c = &self.closed[v];
            out.push(self.key([
                pos[0] & !c[0],
                pos[1] & !c[1],
                pos[2] & !c[2],
                pos[3] & !c[3],
            ]));
        }
    }

    fn components(&self, pos: &Squares, out: &mut Vec<Squares>) -> bool {
        let mut parts = Vec::new();
        let mut rest = *pos;
        while rest != [0; 4] {
            let seed = squares(&rest)[0];
            let mut part = [0; 4];
            put(&mut part, seed);
            let mut frontier = vec![seed];
            while let Some(v) = frontier.pop() {
                for w in squares(&self.closed[v]) {
                    if has(pos, w) && !has(&part, w) {
                        put(&mut part, w);
                        frontier.push(w);
                    }
                }
            }
            for i in 0..4 {
                rest[i] &= !part[i];
            }
            parts.push(part);
        }
        if parts.len() < 2 {
            return false;
        }
        out.extend(parts.into_iter().map(|p| self.key(p)));
        true
    }

    fn memoise_sum(&self, _pos: &Squares) -> bool {
        false
    }
}

/// The value of the n × n board by the plain solver, and the positions it memoised.
fn plain(n: usize) -> (u64, usize) {
    let q = Queens::new(n);
    let all = q.all();
    let mut solver = Plain::new(q);
    let v = solver.grundy(&all);
    (v, solver.memo_len())
}

/// The value by the expansion (the engine at its leaves), with leaves of at most `leaf`
/// vertices.
fn expanded(n: usize, leaf: usize) -> u64 {
    let mut x = Expansion::new(
        Rules::NodeKayles,
        WideGraph::queens(n).unwrap(),
        Options::default(),
    )
    .with_leaf(leaf);
    u64::from(x.value().unwrap())
}

/// A344227: `n a(n)` pairs.
fn published() -> Vec<(usize, u64)> {
    check::terms(include_str!("../../../testdata/oeis/A344227.txt"))
}

#[test]
fn both_paths_give_the_published_terms() {
    let terms = published();
    assert!(terms.len() >= 14, "the file has n = 0..13");
    for (n, v) in terms.into_iter().filter(|t| (1..=9).contains(&t.0)) {
        assert_eq!(plain(n).0, v, "queens:{n} by the plain solver");
        assert_eq!(
            expanded(n, 40),
            v,
            "queens:{n} by the expansion, leaves of 40"
        );
    }
}

#[test]
fn the_expansion_reaches_past_the_engines_128_vertices() {
    // a(12): the 12 x 12 board has 144 vertices; each first move leaves at most 110, a leaf.
    let (n, v) = published().into_iter().find(|t| t.0 == 12).unwrap();
    assert_eq!(expanded(n, 128), v, "queens:12 by the expansion");
}

#[test]
#[ignore = "a long run for docs/results.md: QUEENS_CHECK=N"]
fn queens_check() {
    let Some((from, upto)) = check::env_range("QUEENS_CHECK", "QUEENS_FROM", 1) else {
        return;
    };
    check::print_runs(from..=upto, plain);
}
