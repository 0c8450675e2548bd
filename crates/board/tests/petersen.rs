//! Node Kayles on the generalized Petersen graphs P(n, 2) (OEIS A316533) by a second path that
//! shares no search code with the engine: the plain memoised solver of the core
//! (`grundy_core::Solver`) over vertex sets, split into connected components and keyed by the
//! least image under the graph's 2n rotations and reflections (the engine keys an edge list's
//! components by their vertex sets as they are, and searches with its table, Lemoine–Viennot
//! questions and aspiration, none of which this path has).
//!
//! In CI it checks the published terms (`testdata/oeis/A316533.txt`, n = 5..26) both ways to
//! n = 21 (the plain solver with and without the dihedral keys), and the first new term,
//! n = 27. `PETERSEN_CHECK=N` (with `--ignored --nocapture`, `PETERSEN_FROM=M` to start at M)
//! prints `n value positions wall-seconds cpu-seconds` for the odd n ≤ N by the plain solver with dihedral keys,
//! the second path of docs/results.md:
//!
//! ```text
//! PETERSEN_CHECK=29 cargo test --release -p grundy-board --test petersen -- --ignored --nocapture
//! ```

use grundy_board::engine::{Engine, Options, Rules};
use grundy_board::graph::Graph;
use grundy_core::{Game, Solver as Plain};
use proptest::prelude::*;

mod check;

/// The edges of P(n, 2): the outer cycle 0..n, the spokes i – n + i, and the inner star
/// n + i – n + (i + 2 mod n).
fn petersen(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| [(i, (i + 1) % n), (i, n + i), (n + i, n + (i + 2) % n)])
        .collect()
}

/// The graph as the registry's edge list, `2n:a-b,…`.
fn edge_list(n: usize) -> String {
    let e: Vec<String> = petersen(n)
        .iter()
        .map(|(a, b)| format!("{a}-{b}"))
        .collect();
    format!("{}:{}", 2 * n, e.join(","))
}

/// Node Kayles on P(n, 2), n ≤ 64: a position is the set of vertices left (bit i the outer
/// vertex i, bit n + i the inner one); a move takes a vertex and its neighbours. With
/// `dihedral`, every position the solver keeps is first turned into the least of its 2n images
/// under the graph's rotations and reflections (i → i + k, i → −i on both rings), which are
/// automorphisms, so the values are the same and the memo holds about 2n times fewer.
struct NodeKayles {
    n: usize,
    /// `closed[v]`: v and its neighbours.
    closed: Vec<u128>,
    dihedral: bool,
}

impl NodeKayles {
    fn new(n: usize, dihedral: bool) -> NodeKayles {
        assert!(
            (5..=64).contains(&n),
            "P(n, 2) for 5 ≤ n ≤ 64 (2n vertices in 128 bits)"
        );
        let mut closed: Vec<u128> = (0..2 * n).map(|v| 1u128 << v).collect();
        for (a, b) in petersen(n) {
            closed[a] |= 1 << b;
            closed[b] |= 1 << a;
        }
        NodeKayles {
            n,
            closed,
            dihedral,
        }
    }

    /// The least image of `x` under the rotations and reflections (identity without
    /// `dihedral`), as a 128-bit number: the least inner ring's image first (the high bits), and
    /// among the images that give it, the least outer ring's. The inner ring is turned alone
    /// first, so the outer one is turned only for the images that tie (few, unless the inner
    /// ring is symmetric); [`NodeKayles::key_by_every_image`] is the straightforward form it is
    /// tested against.
    fn key(&self, x: u128) -> u128 {
        if !self.dihedral {
            return x;
        }
        let n = self.n;
        let ring = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let rot = |h: u64, k: usize| {
            if k == 0 {
                h
            } else {
                ((h << k) | (h >> (n - k))) & ring
            }
        };
        // The reflection i → (n − i) mod n: the bits reversed (i → n − 1 − i), turned by one.
        let reflect = |h: u64| rot(h.reverse_bits() >> (64 - n), 1);
        let (outer, inner) = ((x as u64) & ring, (x >> n) as u64);
        let (mouter, minner) = (reflect(outer), reflect(inner));
        let mut least = u64::MAX;
        for k in 0..n {
            least = least.min(rot(inner, k)).min(rot(minner, k));
        }
        let mut best = u64::MAX;
        for k in 0..n {
            if rot(inner, k) == least {
                best = best.min(rot(outer, k));
            }
            if rot(minner, k) == least {
                best = best.min(rot(mouter, k));
            }
        }
        (least as u128) << n | best as u128
    }

    /// The least image of `x` computed the straightforward way: every one of the 2n images
    /// built and compared as a whole.
    fn key_by_every_image(&self, x: u128) -> u128 {
        let n = self.n;
        let ring = (1u128 << n) - 1;
        let rot = |h: u128, k: usize| {
            if k == 0 {
                h
            } else {
                ((h << k) | (h >> (n - k))) & ring
            }
        };
        let reflect = |h: u128| {
            (0..n)
                .filter(|i| h >> i & 1 == 1)
                .fold(0, |r, i| r | 1 << ((n - i) % n))
        };
        let (outer, inner) = (x & ring, x >> n);
        let (mouter, minner) = (reflect(outer), reflect(inner));
        (0..n)
            .flat_map(|k| {
                [
                    rot(outer, k) | rot(inner, k) << n,
                    rot(mouter, k) | rot(minner, k) << n,
                ]
            })
            .min()
            .expect("n ≥ 5")
    }
}

impl Game for NodeKayles {
    type Position = u128;

    fn options(&self, pos: &u128, out: &mut Vec<u128>) {
        let mut rest = *pos;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out.push(self.key(pos & !self.closed[v]));
        }
    }

    fn components(&self, pos: &u128, out: &mut Vec<u128>) -> bool {
        let mut parts = Vec::new();
        let mut rest = *pos;
        while rest != 0 {
            // The component of the lowest vertex left: each vertex's neighbours added once.
            let mut part = rest & rest.wrapping_neg();
            let mut frontier = part;
            while frontier != 0 {
                let v = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                let new = self.closed[v] & pos & !part;
                part |= new;
                frontier |= new;
            }
            parts.push(part);
            rest &= !part;
        }
        if parts.len() < 2 {
            return false;
        }
        out.extend(parts.into_iter().map(|p| self.key(p)));
        true
    }

    fn memoise_sum(&self, _pos: &u128) -> bool {
        false
    }
}

/// The value of P(n, 2) by the plain solver, and the positions it memoised.
fn plain(n: usize, dihedral: bool) -> (u64, usize) {
    let mut solver = Plain::new(NodeKayles::new(n, dihedral));
    let all = if n == 64 {
        u128::MAX
    } else {
        (1u128 << (2 * n)) - 1
    };
    let v = solver.grundy(&all);
    (v, solver.memo_len())
}

/// The value of P(n, 2) by the board engine, as the registry's `node-kayles` entry asks it
/// (`petersen:N,2`, the same graph as the edge list of [`petersen`]).
fn engine(n: usize) -> u64 {
    let g = Graph::parse(&format!("petersen:{n},2")).unwrap();
    let listed = Graph::parse(&edge_list(n)).unwrap();
    assert_eq!(g.vertex_count(), listed.vertex_count(), "petersen:{n},2");
    assert_eq!(g.edges(), listed.edges(), "petersen:{n},2");
    let all = g.all();
    let mut e = Engine::new(Rules::NodeKayles, g, Options::default()).unwrap();
    e.grundy(all).unwrap() as u64
}

/// The published terms: `n a(n)` pairs.
fn published() -> Vec<(usize, u64)> {
    check::terms(include_str!("../../../testdata/oeis/A316533.txt"))
}

proptest! {
    /// The key that turns the inner ring first is the least of all 2n images, as when every
    /// image is built whole.
    #[test]
    fn the_fast_key_is_the_least_image(n in 5usize..=64, bits: u128, sparse: u128, symmetric: bool) {
        let kayles = NodeKayles::new(n, true);
        let all = if n == 64 { u128::MAX } else { (1u128 << (2 * n)) - 1 };
        // Half the cases with a symmetric inner ring (empty or full), where many images tie.
        let x = if symmetric {
            let inner = if sparse & 1 == 1 { (1u128 << n) - 1 } else { 0 };
            (bits & ((1u128 << n) - 1)) | inner << n
        } else {
            bits & sparse.rotate_left(7) & all
        };
        prop_assert_eq!(kayles.key(x), kayles.key_by_every_image(x), "n = {}, x = {:#x}", n, x);
    }
}

#[test]
fn both_paths_give_the_published_terms() {
    let terms = published();
    assert_eq!(terms.first().map(|t| t.0), Some(5));
    assert!(terms.len() >= 22, "the file has n = 5..26");
    for (n, v) in terms.into_iter().filter(|t| t.0 <= 21) {
        assert_eq!(plain(n, false).0, v, "P({n}, 2) by the plain solver");
        assert_eq!(
            plain(n, true).0,
            v,
            "P({n}, 2) by the plain solver, dihedral keys"
        );
        assert_eq!(engine(n), v, "P({n}, 2) by the engine");
    }
}

#[test]
fn the_first_new_term_both_ways() {
    // P(27, 2), the first term past the published ones (docs/results.md,
    // docs/results/node-kayles-petersen.txt): *1 by both paths.
    assert_eq!(plain(27, true).0, 1);
    assert_eq!(engine(27), 1);
}

#[test]
fn even_petersen_graphs_are_zero_by_the_half_turn() {
    // For even n the map i → i + n/2 (on both rings) is an automorphism that moves every
    // vertex to one neither equal nor adjacent to it (n ≥ 6), so the second player answers
    // each move with its image: the value is 0. Both paths must agree with that.
    for n in (6..=16).step_by(2) {
        assert_eq!(plain(n, false).0, 0, "P({n}, 2)");
        assert_eq!(plain(n, true).0, 0, "P({n}, 2), dihedral keys");
        assert_eq!(engine(n), 0, "P({n}, 2)");
    }
}

#[test]
#[ignore = "a long run for docs/results.md: PETERSEN_CHECK=N"]
fn petersen_check() {
    let Some((from, upto)) = check::env_range("PETERSEN_CHECK", "PETERSEN_FROM", 5) else {
        return;
    };
    check::print_runs((from..=upto).filter(|n| n % 2 == 1), |n| plain(n, true));
}
