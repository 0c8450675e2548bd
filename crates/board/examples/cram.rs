//! Values one Cram board with the engine, for benchmarks (`bench/boards.sh`).
//!
//! ```text
//! cargo run --release -p grundy-board --example cram -- 5x7 [--max-memory 256M] [--threads N] [--table FILE]
//! ```
//!
//! Prints the board's nim value, the nodes searched, the table's use and the seconds taken.
//! With `--table FILE` the table is loaded from FILE when it exists and saved there every ten
//! minutes of search and at the end, also when the search stops at its node limit
//! (`--max-nodes N`): run again to resume. (This
//! example has no Ctrl-C handler; a front end would raise `Options::stop` from one.)

use grundy_board::cram::Board;
use grundy_board::engine::{Checkpoint, Options};
use std::path::PathBuf;
use std::time::Instant;

mod common;
use common::bytes;

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut board = None;
    let mut opts = Options::default();
    let mut table: Option<PathBuf> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--max-memory" => {
                opts.max_memory = bytes(&args.next().ok_or("--max-memory needs a size")?)?
            }
            "--max-nodes" => {
                let n = args.next().ok_or("--max-nodes needs a number")?;
                opts.max_nodes = Some(n.parse().map_err(|_| format!("bad node count {n:?}"))?);
            }
            "--threads" => {
                let n = args.next().ok_or("--threads needs a number")?;
                opts.threads = n.parse().map_err(|_| format!("bad thread count {n:?}"))?;
            }
            "--table" => table = Some(args.next().ok_or("--table needs a file")?.into()),
            _ if board.is_none() => board = Some(Board::parse(&a).map_err(|e| e.to_string())?),
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    let board = board.ok_or(
        "usage: cram BOARD [--max-memory 256M] [--max-nodes N] [--threads N] [--table FILE]",
    )?;
    opts.checkpoint = table.clone().map(Checkpoint::new);
    let t0 = Instant::now();
    let mut e = board.engine(opts).map_err(|e| e.to_string())?;
    if let Some(t) = &table {
        if t.exists() {
            let n = e.load(t).map_err(|e| e.to_string())?;
            eprintln!("loaded {n} entries from {}", t.display());
        }
    }
    let result = e.grundy(board.empty());
    if let Some(t) = &table {
        e.save(t).map_err(|e| e.to_string())?;
    }
    let v = result.map_err(|e| e.to_string())?;
    let p = e.progress();
    println!(
        "{}x{} {board}: grundy {v}, {} nodes, {} of {} table entries ({} exact, {} replaced, {} MiB), {:.3} s",
        board.rows(),
        board.cols(),
        p.nodes,
        p.entries,
        p.capacity,
        e.table().exact_len(),
        p.replaced,
        e.table().bytes() >> 20,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() {
    common::finish(run());
}
