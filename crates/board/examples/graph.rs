//! Values Node Kayles or Arc Kayles on one graph, for long runs and notes.
//!
//! ```text
//! cargo run --release -p grundy-board --example graph -- node-kayles grid:3x17 [--max-memory 1G]
//! ```
//!
//! Prints the value, the nodes searched, the table's use and the seconds taken. A graph past
//! the engine's 128 vertices (`path:1000`, `queens:12`) goes to the expansion
//! (`grundy_board::expand`), which prints its leaves and memo instead of the table.

use grundy_board::engine::{Engine, Options, Rules};
use grundy_board::expand::{AnyGraph, Expansion};
use std::time::Instant;

mod common;
use common::bytes;

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: graph node-kayles|arc-kayles GRAPH [--max-memory 256M]";
    let rules = match args.first().map(String::as_str) {
        Some("node-kayles") => Rules::NodeKayles,
        Some("arc-kayles") => Rules::ArcKayles,
        _ => return Err(usage.into()),
    };
    let g = AnyGraph::parse(args.get(1).ok_or(usage)?).map_err(|e| e.to_string())?;
    let mut opts = Options::default();
    match args.get(2).map(String::as_str) {
        Some("--max-memory") => opts.max_memory = bytes(args.get(3).ok_or(usage)?)?,
        Some(a) => return Err(format!("unexpected argument {a:?}")),
        None => {}
    }
    let t0 = Instant::now();
    let name = g.notation().to_string();
    let g = match g {
        AnyGraph::Small(g) => g,
        AnyGraph::Wide(w) => {
            let mut x = Expansion::new(rules, w, opts);
            let v = x.value().map_err(|e| e.to_string())?;
            println!(
                "{} {name}: grundy {v}, {} leaves, {} nodes, {} positions memoised, {:.3} s",
                rules.name(),
                x.leaves(),
                x.nodes(),
                x.memo_len(),
                t0.elapsed().as_secs_f64()
            );
            return Ok(());
        }
    };
    let all = g.all();
    let mut e = Engine::new(rules, g, opts).map_err(|e| e.to_string())?;
    let v = e.grundy(all).map_err(|e| e.to_string())?;
    let p = e.progress();
    println!(
        "{} {name}: grundy {v}, {} nodes, {} of {} table entries ({} replaced), {:.3} s",
        rules.name(),
        p.nodes,
        p.entries,
        p.capacity,
        p.replaced,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() {
    common::finish(run());
}
