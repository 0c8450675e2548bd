//! Values a random sparse digraph: 10^6 vertices, 3·10^6 edges (uniform random heads and
//! tails, loops and repeats allowed), one core. Prints the time to build the graph, to label
//! it, and to write out every value with its set K, with the value census. Then two more
//! rows: the loopy family `windup:1000000:3,5,7` (10^6 positions, 3·10^6 moves), and an
//! implicit game explored from a start against the core's ordinary solver on the same,
//! loopfree, game (subtraction {1, 3, 4} from a heap of 10^6).
//!
//! `cargo run --release -p grundy-loopy --example loopy_bench [VERTICES [EDGES [SEED]]]`

use std::collections::BTreeMap;
use std::time::Instant;

use grundy_core::catalogue::Budget;
use grundy_core::{Game, Solver};
use grundy_loopy::{explore, Digraph, LabelledGraph, Outcome, Windup};

/// Subtraction {1, 3, 4}, loopfree: the same rules for both solvers.
struct Subtract134;

impl Game for Subtract134 {
    type Position = u64;
    fn options(&self, &n: &u64, out: &mut Vec<u64>) {
        out.extend([1, 3, 4].into_iter().filter(|&s| s <= n).map(|s| n - s));
    }
}

/// SplitMix64: a small, fast generator (no dependency).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("arguments: VERTICES EDGES SEED"))
        .collect();
    let n = args.first().copied().unwrap_or(1_000_000);
    let m = args.get(1).copied().unwrap_or(3 * n);
    let seed = args.get(2).copied().unwrap_or(1) as u64;
    let mut rng = SplitMix(seed);
    let edges: Vec<(usize, usize)> = (0..m).map(|_| (rng.below(n), rng.below(n))).collect();

    let t = Instant::now();
    let graph = Digraph::from_edges(n, &edges).expect("valid edges");
    let build = t.elapsed();
    drop(edges);

    let t = Instant::now();
    let labelled = LabelledGraph::new(graph);
    let label = t.elapsed();

    let t = Instant::now();
    let values = labelled.values();
    let materialise = t.elapsed();

    let mut census: BTreeMap<String, usize> = BTreeMap::new();
    let mut outcomes = [0usize; 3];
    for (v, value) in values.iter().enumerate() {
        let key = match value.finite() {
            Some(m) => m.to_string(),
            None => "∞".to_string(),
        };
        *census.entry(key).or_default() += 1;
        outcomes[match labelled.outcome(v) {
            Outcome::P => 0,
            Outcome::N => 1,
            Outcome::D => 2,
        }] += 1;
    }
    let max_remoteness = (0..n).filter_map(|v| labelled.remoteness(v)).max();
    println!("random digraph: {n} vertices, {m} edges, seed {seed}");
    println!("build (CSR + reverse): {:.3} s", build.as_secs_f64());
    println!(
        "label (values, outcomes, remoteness): {:.3} s over {} levels",
        label.as_secs_f64(),
        labelled.levels()
    );
    println!(
        "values with K written out: {:.3} s",
        materialise.as_secs_f64()
    );
    println!(
        "total: {:.3} s",
        (build + label + materialise).as_secs_f64()
    );
    println!(
        "outcomes: P {} N {} D {}; largest remoteness {:?}",
        outcomes[0], outcomes[1], outcomes[2], max_remoteness
    );
    println!("values: {census:?}");

    let w = Windup::new(1_000_000, &[3, 5, 7]).expect("within limits");
    let t = Instant::now();
    let graph = w.graph();
    let build = t.elapsed();
    let t = Instant::now();
    let labelled = LabelledGraph::new(graph);
    let label = t.elapsed();
    let draws = (0..labelled.len())
        .filter(|&v| labelled.outcome(v) == Outcome::D)
        .count();
    println!(
        "{w}: build {:.3} s, label {:.3} s over {} levels, {draws} draws",
        build.as_secs_f64(),
        label.as_secs_f64(),
        labelled.levels()
    );

    let heap = 1_000_000u64;
    let t = Instant::now();
    let mut solver = Solver::new(Subtract134);
    let ordinary = solver.grundy(&heap);
    let core_time = t.elapsed();
    let t = Instant::now();
    let e = explore(&Subtract134, &heap, &Budget::default()).expect("within budget");
    let loopy_time = t.elapsed();
    assert_eq!(e.labelled().finite(0), Some(ordinary));
    println!(
        "subtraction {{1,3,4}} from {heap}: core solver {:.3} s, loopy explore + label {:.3} s ({:.2}x)",
        core_time.as_secs_f64(),
        loopy_time.as_secs_f64(),
        loopy_time.as_secs_f64() / core_time.as_secs_f64()
    );
}
