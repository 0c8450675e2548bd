//! Heaps per second of the engines. Run: `cargo bench -p grundy-heap --bench engines`
//! (criterion reports "thrpt" in elements/s = heaps/s).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use grundy_heap::{engine, reference, rule};
use std::hint::black_box;
use std::time::Duration;

fn kayles_reference(c: &mut Criterion) {
    let kayles = rule::parse_code("0.77").unwrap();
    let mut g = c.benchmark_group("reference_kayles");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    // Kayles to 10^5 takes about a minute per run: see examples/heap_speed.rs.
    for n in [3_000u64, 10_000] {
        g.throughput(Throughput::Elements(n + 1));
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| reference::sequence(black_box(&kayles), n))
        });
    }
    g.finish();
}

fn subtraction(c: &mut Criterion) {
    let n = 10_000_000u64;
    let mut g = c.benchmark_group("subtraction_1e7");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.throughput(Throughput::Elements(n + 1));
    let code = rule::parse("sub:1,3,4").unwrap().take_break().unwrap();
    g.bench_function("reference sub:1,3,4", |b| {
        b.iter(|| reference::sequence(black_box(&code), n))
    });
    for r in ["sub:1,3,4", "allbut:1,2", "sub:odd", "sub:fib"] {
        let rule = rule::parse(r).unwrap();
        g.bench_function(format!("engine {r}"), |b| {
            b.iter(|| engine::sequence(black_box(&rule), n).unwrap())
        });
    }
    g.finish();
    let mut g = c.benchmark_group("subtraction_1e5");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    let n = 100_000u64;
    g.throughput(Throughput::Elements(n + 1));
    for r in ["sub:squares", "sub:primes"] {
        let rule = rule::parse(r).unwrap();
        g.bench_function(format!("engine {r}"), |b| {
            b.iter(|| engine::sequence(black_box(&rule), n).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, kayles_reference, subtraction);
criterion_main!(benches);
