//! Throughput of the sparse engine against the reference engine, and published checks.
//!
//! ```text
//! cargo run --release -p grundy-sparse --example bench              # 2^20 and 2^24, all games
//! cargo run --release -p grundy-sparse --example bench -- 20        # only 2^20
//! cargo run --release -p grundy-sparse --example bench -- 22 4!.0 noref  # one game, no reference
//! cargo run --release -p grundy-sparse --example bench -- grundy26  # Grundy's game to 2^26
//! cargo run --release -p grundy-sparse --example bench -- period016 # prove 0.16's period
//! cargo run --release -p grundy-sparse --example bench -- 24 0.014 0.034 0.161 0.167 0.172 noref
//! ```
//! Prints heaps per second (wall clock, all cores) of the sparse engine at each N, and of the
//! reference engine (O(n^2) for splitting games) at N = 2^15, where it still finishes quickly.
//! Where Rogalski published value counts for a game at N (2^10 to 2^28, testdata/octal/
//! value_frequencies.txt), the run's histogram is checked against them.
//! Knobs (environment): THREADS (0: all cores), BLOCK (heaps per block), LAG (heaps phase 1
//! stays behind), SPAN (values the tile rows track), PACE=0 (helpers in every block, even where
//! they do not pay), STATS (print counters).

use std::collections::BTreeMap;
use std::time::Instant;

use grundy_heap::rule::parse_code;
use grundy_sparse::Engine;

const GAMES: [&str; 5] = ["4!.0", "0.167", "0.161", "0.014", "0.16"];
const REFERENCE_N: u64 = 1 << 15;

/// Published counts of each value among heaps 1..=N (value_frequencies.txt).
fn published(game: &str, n: u64) -> Option<BTreeMap<u32, u64>> {
    let text = include_str!("../../../testdata/octal/value_frequencies.txt");
    let prefix = format!("{game} {n} |");
    let line = text.lines().find(|l| l.starts_with(&prefix))?;
    let counts = line[prefix.len()..]
        .split_whitespace()
        .map(|p| {
            let (v, c) = p.split_once(':').expect("value:count");
            (v.parse().expect("value"), c.parse().expect("count"))
        })
        .collect();
    Some(counts)
}

fn sparse(game: &str, bits: u32) {
    let code = parse_code(game).expect("code");
    let n = 1u64 << bits;
    let start = Instant::now();
    let threads = std::env::var("THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let mut e = Engine::new(&code).expect("supported").with_threads(threads);
    let mut tuning = grundy_sparse::Tuning::default();
    if let Some(block) = std::env::var("BLOCK").ok().and_then(|t| t.parse().ok()) {
        tuning.block = block;
    }
    if let Some(lag) = std::env::var("LAG").ok().and_then(|t| t.parse().ok()) {
        tuning.lag = Some(lag);
    }
    if let Some(span) = std::env::var("SPAN").ok().and_then(|t| t.parse().ok()) {
        tuning.span = Some(span);
    }
    if std::env::var("PACE").is_ok_and(|p| p == "0") {
        tuning.pace = false;
    }
    e = e.with_tuning(tuning);
    e.advance(n + 1, &mut |_| true);
    let secs = start.elapsed().as_secs_f64();
    if std::env::var("STATS").is_ok() {
        println!("{:?}", e.stats());
    }
    let mut check = String::new();
    if let Some(want) = published(game, n) {
        let h = e.histogram();
        let mut mine: BTreeMap<u32, u64> = BTreeMap::new();
        for (v, &c) in h.iter().enumerate() {
            let c = if v as u32 == e.value(0).unwrap_or(0) {
                c - 1
            } else {
                c
            };
            if c > 0 {
                mine.insert(v as u32, c);
            }
        }
        check = if mine == want {
            "  histogram = published".into()
        } else {
            "  HISTOGRAM DIFFERS".into()
        };
    }
    let (max, first) = e.max_value();
    println!(
        "{game:6} sparse    N=2^{bits}: {secs:8.2} s  {:>12.0} heaps/s  rare {} (last {:?})  max {max} at {first}{check}",
        n as f64 / secs,
        e.rare_count(),
        e.last_rare()
    );
}

fn reference(game: &str) {
    let code = parse_code(game).expect("code");
    let start = Instant::now();
    let v = grundy_heap::reference::sequence(&code, REFERENCE_N);
    let secs = start.elapsed().as_secs_f64();
    std::hint::black_box(v);
    println!(
        "{game:6} reference N=2^15: {secs:8.2} s  {:>12.0} heaps/s  (O(N^2): 2^20 would take ~{:.0} s)",
        REFERENCE_N as f64 / secs,
        secs * 1024.0
    );
}

fn grundy26() {
    let code = parse_code("4!.0").expect("code");
    let n = 1u64 << 26;
    let start = Instant::now();
    let mut e = Engine::new(&code).expect("supported").with_threads(0);
    e.advance(n + 1, &mut |_| true);
    let secs = start.elapsed().as_secs_f64();
    // Flammenkamp's mask: v is rare iff popcount(v >> 1) is even.
    let mut count = 0u64;
    let mut last = 0u64;
    for h in 0..=n {
        let v = e.value(h).expect("computed");
        if (v >> 1).count_ones().is_multiple_of(2) {
            count += 1;
            last = h;
        }
    }
    println!("Grundy's game to 2^26: {secs:.1} s; rare heaps (0 included) under popcount(v>>1) even: {count}, last at {last}");
    println!("  (published: 1287 rare values, the last at heap 48399022)");
}

fn period016() {
    let code = parse_code("0.16").expect("code");
    let start = Instant::now();
    let (values, p) =
        grundy_sparse::until_proven(&code, 1 << 16, 1 << 22, 0, &mut |_| true).expect("runs");
    println!(
        "0.16: {:?} after {} heaps in {:.1} s (published: period 149459, last exception 105350)",
        p,
        values.len(),
        start.elapsed().as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "grundy26") {
        return grundy26();
    }
    if args.iter().any(|a| a == "period016") {
        return period016();
    }
    let mut sizes: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![20, 24];
    }
    let chosen: Vec<&str> = args
        .iter()
        .filter(|a| a.contains('.'))
        .map(|a| a.as_str())
        .collect();
    let games: Vec<&str> = if chosen.is_empty() {
        GAMES.to_vec()
    } else {
        chosen
    };
    let with_reference = !args.iter().any(|a| a == "noref");
    for game in games {
        if with_reference {
            reference(game);
        }
        for &bits in &sizes {
            sparse(game, bits);
        }
    }
}
