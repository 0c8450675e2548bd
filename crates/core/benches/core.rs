//! Throughput of the core: nim products (u64, u128), the generic solver on a large memoised
//! game, and analysing 10^7 Nim heaps read from a file through the CLI's parsing path.
//!
//! Run: `cargo bench -p grundy-core --bench core`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use grundy_core::nim::{HeapParser, NimStream, Play};
use grundy_core::{Game, NimWord, Solver};
use std::hint::black_box;
use std::io::Read;
use std::time::Duration;

/// A deterministic pseudo-random sequence (splitmix64).
fn randoms(n: usize, mut seed: u64) -> Vec<u64> {
    (0..n)
        .map(|_| {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

fn nim_products(c: &mut Criterion) {
    const N: usize = 4096;
    let a = randoms(N, 1);
    let b = randoms(N, 2);
    let a128: Vec<u128> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| (u128::from(x) << 64) | u128::from(y))
        .collect();
    let b128: Vec<u128> = b
        .iter()
        .zip(&a)
        .map(|(&x, &y)| (u128::from(x) << 64) | u128::from(y))
        .collect();
    let mut g = c.benchmark_group("nimber");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("mul_u64", |bench| {
        bench.iter(|| {
            a.iter()
                .zip(&b)
                .fold(0u64, |acc, (&x, &y)| acc ^ black_box(x).nim_mul(y))
        })
    });
    g.bench_function("mul_u128", |bench| {
        bench.iter(|| {
            a128.iter()
                .zip(&b128)
                .fold(0u128, |acc, (&x, &y)| acc ^ black_box(x).nim_mul(y))
        })
    });
    g.bench_function("inv_u64", |bench| {
        bench.iter(|| {
            a.iter().fold(0u64, |acc, &x| {
                acc ^ black_box(x | 1).nim_inv().unwrap_or(0)
            })
        })
    });
    g.bench_function("sqrt_u128", |bench| {
        bench.iter(|| {
            a128.iter()
                .fold(0u128, |acc, &x| acc ^ black_box(x).nim_sqrt())
        })
    });
    g.finish();
}

/// Moves on a board: from (x, y) go 1–3 steps left, down, or diagonally (10^6 positions).
struct Board;

impl Game for Board {
    type Position = (u32, u32);
    fn options(&self, &(x, y): &(u32, u32), out: &mut Vec<(u32, u32)>) {
        for k in 1..=3 {
            if x >= k {
                out.push((x - k, y));
            }
            if y >= k {
                out.push((x, y - k));
            }
            if x >= k && y >= k {
                out.push((x - k, y - k));
            }
        }
    }
}

fn solver(c: &mut Criterion) {
    const SIDE: u32 = 1000;
    let mut g = c.benchmark_group("solver");
    g.throughput(Throughput::Elements(u64::from(SIDE) * u64::from(SIDE)));
    g.bench_function("board_1000x1000_values", |bench| {
        bench.iter_batched(
            || Solver::new(Board),
            |mut s| {
                // Every position from the far corner is reached: 10^6 memoised values.
                let v = s.grundy(&(SIDE - 1, SIDE - 1));
                assert_eq!(s.memo_len(), (SIDE * SIDE) as usize);
                v
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

fn nim_heaps(c: &mut Criterion) {
    const HEAPS: usize = 10_000_000;
    let path = std::env::temp_dir().join(format!("grundy-bench-heaps-{}.txt", std::process::id()));
    let mut text = Vec::with_capacity(HEAPS * 11);
    for h in randoms(HEAPS, 3) {
        text.extend_from_slice((h >> 32).to_string().as_bytes());
        text.push(b'\n');
    }
    std::fs::write(&path, &text).expect("write the heap file");
    drop(text);
    // The CLI's path: 1 MiB reads fed to the streaming parser, into a NimStream.
    let analyse = |keep: bool| {
        let mut file = std::fs::File::open(&path).expect("open the heap file");
        let mut buf = vec![0u8; 1 << 20];
        let mut stream = if keep {
            NimStream::new(true)
        } else {
            NimStream::counting()
        };
        let mut parser = HeapParser::new();
        let mut sink = |h| stream.push(h);
        loop {
            let n = file.read(&mut buf).expect("read");
            if n == 0 {
                break;
            }
            parser.feed(&buf[..n], &mut sink).expect("valid heaps");
        }
        parser.finish(&mut sink).expect("valid heaps");
        let a = stream.finish(Play::Normal);
        assert_eq!(a.heap_count, HEAPS as u64);
        match stream.heaps() {
            // The moves as the JSON writes them, lazily (at most 2^16 of them).
            Some(h) => {
                let a = grundy_core::nim::NimAnalysis {
                    heaps: Some(h.to_vec()),
                    ..a
                };
                serde_json::to_writer(std::io::sink(), &a).expect("written");
                a.json_listed_moves()
            }
            None => a.winning_move_count,
        }
    };
    let mut g = c.benchmark_group("nim_10M_heaps_from_file");
    g.throughput(Throughput::Elements(HEAPS as u64));
    g.bench_function("keep_heaps_list_moves", |bench| {
        bench.iter(|| analyse(true))
    });
    g.bench_function("count_only", |bench| bench.iter(|| analyse(false)));
    g.finish();
    let _ = std::fs::remove_file(&path);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
    targets = nim_products, solver, nim_heaps
}
criterion_main!(benches);
