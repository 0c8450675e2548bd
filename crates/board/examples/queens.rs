//! Values Node Kayles on the `n × n` queens graph (the non-attacking queens game, OEIS
//! A344227) by the expansion of `grundy_board::expand`, which reaches past the engine's 128
//! vertices (n ≥ 12), for docs/results.md.
//!
//! ```text
//! cargo run --release -p grundy-board --example queens -- 13 [--max-memory 256M] [--leaf 128] [--full] [--table FILE]
//! ```
//!
//! `--full` values every position in full (`Expansion::with_full_values`), the second path of
//! docs/results.md (with another `--leaf`, so that the engine is handed other graphs).
//!
//! Prints the value, the leaves searched (positions of at most `--leaf` vertices, each a fresh
//! engine search), their engine nodes, the positions memoised and the seconds taken. With
//! `--table FILE` the memo is read from FILE when it exists and saved there every ten minutes
//! (between leaves) and at the end, also when the search stops at its node limit
//! (`--max-nodes N`): run again to resume.

use grundy_board::engine::{Checkpoint, Options, Rules};
use grundy_board::expand::{Expansion, WideGraph};
use std::path::PathBuf;
use std::time::Instant;

mod common;
use common::bytes;

fn number(flag: &str, s: Option<String>) -> Result<usize, String> {
    let s = s.ok_or(format!("{flag} needs a number"))?;
    s.parse()
        .map_err(|_| format!("bad number {s:?} for {flag}"))
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (mut n, mut leaf, mut table, mut full) = (None, 128, None::<PathBuf>, false);
    let mut opts = Options::default();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--max-memory" => {
                opts.max_memory = bytes(&args.next().ok_or("--max-memory needs a size")?)?
            }
            "--max-nodes" => opts.max_nodes = Some(number(&a, args.next())? as u64),
            "--leaf" => leaf = number(&a, args.next())?,
            "--full" => full = true,
            "--table" => table = Some(args.next().ok_or("--table needs a file")?.into()),
            _ if n.is_none() => n = Some(number("the board size", Some(a))?),
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    let n =
        n.ok_or("usage: queens N [--max-memory 256M] [--max-nodes N] [--leaf 128] [--table FILE]")?;
    opts.checkpoint = table.clone().map(Checkpoint::new);
    let t0 = Instant::now();
    let g = WideGraph::queens(n).map_err(|e| e.to_string())?;
    let mut x = Expansion::new(Rules::NodeKayles, g, opts).with_leaf(leaf);
    if full {
        x = x.with_full_values();
    }
    if let Some(t) = &table {
        if t.exists() {
            let k = x.load(t).map_err(|e| e.to_string())?;
            eprintln!("loaded {k} positions from {}", t.display());
        }
    }
    let result = x.value();
    if let Some(t) = &table {
        x.save(t).map_err(|e| e.to_string())?;
    }
    let v = result.map_err(|e| e.to_string())?;
    println!(
        "queens:{n} (leaf {}{}): grundy {v}, {} leaves, {} nodes, {} positions memoised, {:.3} s",
        x.leaf(),
        if full { ", full values" } else { "" },
        x.leaves(),
        x.nodes(),
        x.memo_len(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() {
    common::finish(run());
}
