//! The catalogue's headline sizes: Fibonacci Nim on a 1000-digit pile, a 2000×2000 maze,
//! 20×20 wall-making, Cram 4×6 and 4×8, the card game with 5000 cards, a 2000² Wythoff table.
//!
//! `cargo bench -p grundy-games --bench games` (Cram 4×8 alone takes several seconds per run).

use criterion::{criterion_group, criterion_main, Criterion};
use grundy_core::catalogue::{Ask, Play, Report};
use grundy_core::Solver;
use grundy_games::{cram, fib, maze, wythoff};
use std::hint::black_box;
use std::time::Duration;

/// The report of `position` of `game` through its catalogue entry, the one door of a game.
fn report(game: &str, position: &str) -> Report {
    let entry = grundy_games::entries()
        .into_iter()
        .find(|e| e.matches(game))
        .expect("a game of grundy-games");
    let mut rules = entry.open(game).unwrap();
    let pos = rules.parse(position).unwrap();
    rules.analyze(&pos, &Ask::new(Play::Normal)).unwrap()
}

fn bench_fib(c: &mut Criterion) {
    let pile = format!("7{}", "3".repeat(999));
    let game = fib::MultiplierNim::fibonacci();
    c.bench_function("fib_opening_1000_digits", |b| {
        b.iter(|| report("fib", black_box(&pile)))
    });
    c.bench_function("fib_all_moves_1e6", |b| {
        b.iter(|| {
            let t = fib::MoveTable::new(game, 1_000_000).unwrap();
            t.winning_moves(black_box(1_000_000), 999_999)
        })
    });
}

fn bench_maze(c: &mut Criterion) {
    let n = 2000;
    // Walls on a pseudo-random 10% of cells.
    let mut x: u64 = 0x9e3779b97f4a7c15;
    let wall: Vec<bool> = (0..n * n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % 10 < 1
        })
        .collect();
    let m = maze::Maze::new(n, n, wall, None).unwrap();
    let open = maze::Maze::open(n, n).unwrap();
    c.bench_function("maze_2000x2000_walls", |b| {
        b.iter(|| black_box(&m).grundy_values())
    });
    c.bench_function("maze_2000x2000_open", |b| {
        b.iter(|| black_box(&open).grundy_values())
    });
}

fn bench_walls(c: &mut Criterion) {
    let rows: Vec<String> = (0..20)
        .map(|r| {
            (0..20)
                .map(|c| {
                    if (r * 143 + c * 7) % 11 == 0 {
                        'X'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let board = rows.join("|");
    c.bench_function("walls_20x20", |b| {
        b.iter(|| report("walls", black_box(&board)))
    });
}

fn bench_cram(c: &mut Criterion) {
    // The reduced solver (misère play's search and the board engine's oracle; `grundy cram`
    // runs the engine, benchmarked by grundy-board's `cram` example). Plain search: the
    // mirror shortcut would settle even × even boards at once.
    let plain = cram::Cram { mirror: false };
    let mirror = cram::Cram { mirror: true };
    let b46 = cram::Shape::rectangle(4, 6).unwrap();
    c.bench_function("cram_4x6", |b| {
        b.iter(|| Solver::new(plain).grundy(black_box(&b46)))
    });
    let b56 = cram::Shape::rectangle(5, 6).unwrap();
    c.bench_function("cram_5x6", |b| {
        b.iter(|| Solver::new(mirror).grundy(black_box(&b56)))
    });
    let b48 = cram::Shape::rectangle(4, 8).unwrap();
    c.bench_function("cram_4x8", |b| {
        b.iter(|| Solver::new(plain).grundy(black_box(&b48)))
    });
}

fn bench_cards_wythoff(c: &mut Criterion) {
    let row: Vec<String> = (0..5000i64)
        .map(|i| ((i * 7919 + 13) % 1000).to_string())
        .collect();
    let row = row.join(" ");
    c.bench_function("cards_5000", |b| {
        b.iter(|| report("cards", black_box(&row)))
    });
    c.bench_function("wythoff_table_2000", |b| {
        b.iter(|| wythoff::GrundyTable::new(black_box(2000)).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    targets = bench_fib, bench_maze, bench_walls, bench_cards_wythoff, bench_cram
}
criterion_main!(benches);
