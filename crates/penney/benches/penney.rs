//! Benchmarks: Conway on two patterns of length 10^5, the correlation system on 100 patterns
//! of length 30, the Markov chain (level elimination against the dense reference), and the
//! full length-5 pair table.
//!
//! Run: `cargo bench -p grundy-penney --bench penney`

use criterion::{criterion_group, criterion_main, Criterion};
use grundy_penney::{
    chain, conway, correlation_system, game, simulate::SplitMix64, Alphabet, Race,
};
use std::hint::black_box;
use std::time::Duration;

fn random_word(rng: &mut SplitMix64, len: usize, sigma: u64) -> Vec<usize> {
    (0..len).map(|_| rng.below(sigma) as usize).collect()
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("penney");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    let mut rng = SplitMix64::new(42);

    let coin = Alphabet::coin();
    let a = random_word(&mut rng, 100_000, 2);
    let b = random_word(&mut rng, 100_000, 2);
    g.bench_function("conway_coin_random_1e5", |bch| {
        bch.iter(|| conway::conway(&coin, black_box(&a), black_box(&b)).unwrap())
    });
    // Highly self-overlapping: H^(n-1)T against TH^(n-1) (every shift overlaps).
    let n = 100_000;
    let pa: Vec<usize> = std::iter::repeat_n(0, n - 1).chain([1]).collect();
    let pb: Vec<usize> = [1]
        .into_iter()
        .chain(std::iter::repeat_n(0, n - 1))
        .collect();
    let pc: Vec<usize> = (0..n).map(|i| i % 2).collect();
    let pd: Vec<usize> = (0..n).map(|i| (i + 1) % 2).collect();
    g.bench_function("conway_coin_periodic_1e5", |bch| {
        bch.iter(|| conway::conway(&coin, black_box(&pc), black_box(&pd)).unwrap())
    });
    let biased = Alphabet::parse_probabilities("a=1/2,b=1/3,c=1/6").unwrap();
    let ba: Vec<usize> = (0..n).map(|i| if i % 3 == 2 { 1 } else { 0 }).collect();
    let bb: Vec<usize> = (0..n).map(|i| if i % 3 == 0 { 2 } else { 0 }).collect();
    g.bench_function("conway_biased3_periodic_1e5", |bch| {
        bch.iter(|| conway::conway(&biased, black_box(&ba), black_box(&bb)).unwrap())
    });
    g.bench_function("conway_coin_overlapping_1e5", |bch| {
        bch.iter(|| conway::conway(&coin, black_box(&pa), black_box(&pb)).unwrap())
    });

    let mut words: Vec<Vec<usize>> = Vec::new();
    while words.len() < 100 {
        let w = random_word(&mut rng, 30, 2);
        if !words.contains(&w) {
            words.push(w);
        }
    }
    let race = Race::from_words(coin.clone(), words).unwrap();
    g.bench_function("system_100_patterns_len30", |bch| {
        bch.iter(|| correlation_system::solve(black_box(&race)).unwrap())
    });

    // The reference Markov chain: level elimination, and the dense solve on a small race.
    let words20: Vec<Vec<usize>> = (0..20).map(|_| random_word(&mut rng, 30, 2)).collect();
    let race20 = Race::from_words(coin.clone(), words20).unwrap();
    g.bench_function("chain_20_patterns_len30", |bch| {
        bch.iter(|| chain::solve(black_box(&race20), 100_000).unwrap())
    });
    let words6: Vec<Vec<usize>> = (0..6).map(|_| random_word(&mut rng, 10, 2)).collect();
    let race6 = Race::from_words(coin.clone(), words6).unwrap();
    g.bench_function("chain_level_6_patterns_len10", |bch| {
        bch.iter(|| chain::solve(black_box(&race6), 100_000).unwrap())
    });
    g.bench_function("chain_dense_6_patterns_len10", |bch| {
        bch.iter(|| chain::solve_dense(black_box(&race6), 100_000).unwrap())
    });

    g.bench_function("pair_table_len5", |bch| {
        bch.iter(|| game::pair_table(&coin, black_box(5), 1 << 10).unwrap())
    });
    g.finish();
}

criterion_group!(penney, benches);
criterion_main!(penney);
