//! Prints Cram values of empty boards, smallest first, with the time each took, by the reduced
//! solver of `grundy_games::cram` (misère play's search and the board engine's oracle; the
//! engine's own is grundy-board's `cram` example).
//!
//! `cargo run --release -p grundy-games --example cram_table -- [MAX_ROWS] [MAX_COLS] [SECONDS] [plain]`
//! (defaults 7 15 60): stops starting new boards once SECONDS have passed in total; `plain`
//! turns the mirror shortcut off (every board searched).

use grundy_core::Solver;
use grundy_games::cram::{Cram, Shape};
use std::time::Instant;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let max_rows = args.first().copied().unwrap_or(7);
    let max_cols = args.get(1).copied().unwrap_or(15);
    let budget = args.get(2).copied().unwrap_or(60) as f64;
    let game = Cram {
        mirror: !std::env::args().any(|a| a == "plain"),
    };
    let start = Instant::now();
    let mut boards: Vec<(usize, usize)> = (1..=max_rows)
        .flat_map(|r| (r..=max_cols).map(move |c| (r, c)))
        .filter(|&(r, c)| r * c <= 64)
        .collect();
    boards.sort_by_key(|&(r, c)| (r * c, r));
    for (r, c) in boards {
        if start.elapsed().as_secs_f64() > budget {
            println!("# time budget of {budget} s spent");
            break;
        }
        let t = Instant::now();
        let board = Shape::rectangle(r, c).expect("fits 64 cells");
        let mut solver = Solver::new(game);
        let v = solver.grundy(&board);
        println!(
            "{r}x{c}: {v} ({} positions, {:.3} s)",
            solver.memo_len(),
            t.elapsed().as_secs_f64()
        );
    }
}
