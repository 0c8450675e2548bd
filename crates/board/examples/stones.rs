//! Values one board of Clobber, Cannibal Clobber or NoGo with the engine, for benchmarks
//! (`bench/mcgs.sh`) and long runs (docs/results.md).
//!
//! ```text
//! cargo run --release -p grundy-board --example stones -- nogo 2x8 [--max-memory 1G] [--max-nodes N] [--table FILE]
//! cargo run --release -p grundy-board --example stones -- clobber '(xo)^200'
//! cargo run --release -p grundy-board --example stones -- clobber '(xo)^2000' --upto
//! cargo run --release -p grundy-board --example stones -- nogo 1x25 --plane --plain-keys
//! ```
//!
//! `--plain-keys` keys components by their cropped box as it lies (no symmetry), `--plane`
//! searches a NoGo row on the plane engine: the second paths of docs/results.md.
//!
//! Prints the value, the search nodes, the table's use and the seconds taken. With `--table
//! FILE` the table is loaded from FILE when it exists and saved there every ten minutes of
//! search and at the end, also when the search stops at its node limit or on Ctrl-C (SIGINT or
//! SIGTERM, as `timeout -s INT` sends): run again to resume.
//! With `--upto` (rows only) it prints the value of every prefix of the row that ends a
//! repetition of its pattern (`(xo)^1`, `(xo)^2`, …; NoGo: `1x1`, `1x2`, …), one line each, in
//! one engine.

use grundy_board::clobber::{self, Variant};
use grundy_board::engine::{Checkpoint, Options};
use grundy_board::nogo;
use grundy_board::stones::{Board, Cell, Paths};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

mod common;
use common::bytes;

fn run() -> Result<(), String> {
    let usage = "usage: stones clobber|cannibal-clobber|nogo BOARD [--max-memory 256M] [--max-nodes N] [--table FILE] [--upto] [--plain-keys] [--plane]";
    let mut args = std::env::args().skip(1);
    let game = args.next().ok_or(usage)?;
    let text = args.next().ok_or(usage)?;
    let mut opts = Options::default();
    let mut table: Option<PathBuf> = None;
    let mut upto = false;
    let mut paths = Paths::default();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--max-memory" => opts.max_memory = bytes(&args.next().ok_or(usage)?)?,
            "--max-nodes" => {
                let n = args.next().ok_or(usage)?;
                opts.max_nodes = Some(n.parse().map_err(|_| format!("bad node count {n:?}"))?);
            }
            "--table" => table = Some(args.next().ok_or(usage)?.into()),
            "--upto" => upto = true,
            "--plain-keys" => paths.plain_keys = true,
            "--plane" => paths.plane = true,
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    // The table is also saved every ten minutes of search, as at the door.
    opts.checkpoint = table.clone().map(Checkpoint::new);
    // Ctrl-C stops the search cleanly, so the table is saved whole below rather than as of the
    // last checkpoint, up to ten minutes older: a long run is stopped with `timeout -s INT`.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))?;
    opts.stop = Some(stop);
    let parsed = Board::parse_or_size(&text).map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    match game.as_str() {
        "nogo" => {
            let b = match parsed {
                Ok(b) => b,
                Err(s) => {
                    Board::from_fn(s.rows, s.cols, |_, _| Cell::Empty).map_err(|e| e.to_string())?
                }
            };
            let mut s = nogo::Solver::with_paths(&b, opts, paths).map_err(|e| e.to_string())?;
            if upto {
                return nogo_prefixes(&mut s, &b, table.as_deref(), t0);
            }
            if let Some(t) = &table {
                if t.exists() {
                    let n = s.load(t).map_err(|e| e.to_string())?;
                    eprintln!("loaded {n} entries from {}", t.display());
                }
            }
            let r = s.value(&b);
            if let Some(t) = &table {
                s.save(t).map_err(|e| e.to_string())?;
            }
            let v = r.map_err(|e| e.to_string())?;
            let p = s.progress();
            println!(
                "nogo {}x{} {b}: grundy {v}, {} nodes, {} of {} table entries ({} replaced), {:.3} s",
                b.rows(), b.cols(), p.nodes, p.entries, p.capacity, p.replaced,
                t0.elapsed().as_secs_f64()
            );
        }
        "clobber" | "cannibal-clobber" => {
            let variant = if game == "clobber" {
                Variant::Clobber
            } else {
                Variant::Cannibal
            };
            let b = match parsed {
                Ok(b) => b,
                Err(s) => Board::from_fn(s.rows, s.cols, |r, c| {
                    if (r + c) % 2 == 0 {
                        Cell::X
                    } else {
                        Cell::O
                    }
                })
                .map_err(|e| e.to_string())?,
            };
            if upto {
                return prefixes(variant, &b, opts, t0);
            }
            let mut s =
                clobber::Solver::with_paths(variant, &b, opts, paths).map_err(|e| e.to_string())?;
            if let Some(t) = &table {
                if t.exists() {
                    let n = s.load(t).map_err(|e| e.to_string())?;
                    eprintln!("loaded {n} entries from {}", t.display());
                }
            }
            let r = s.value(&b);
            if let Some(t) = &table {
                s.save(t).map_err(|e| e.to_string())?;
            }
            let v = r.map_err(|e| e.to_string())?;
            println!(
                "{game} {}x{} {b}: grundy {v}, {} nodes, {} table entries, {:.3} s",
                b.rows(),
                b.cols(),
                s.nodes(),
                s.entries(),
                t0.elapsed().as_secs_f64()
            );
        }
        _ => return Err(usage.into()),
    }
    Ok(())
}

/// NoGo on the empty rows `1x1`, `1x2`, … up to the board's row, in one engine (its table
/// carries from each row to the next), saved to `table` after each row.
fn nogo_prefixes(
    s: &mut nogo::Solver,
    b: &Board,
    table: Option<&std::path::Path>,
    t0: Instant,
) -> Result<(), String> {
    if b.rows() != 1 || b.cells().iter().any(|&c| c != Cell::Empty) {
        return Err("--upto takes an empty row (1xN)".into());
    }
    if let Some(t) = table {
        if t.exists() {
            let n = s.load(t).map_err(|e| e.to_string())?;
            eprintln!("loaded {n} entries from {}", t.display());
        }
    }
    for n in 1..=b.cols() {
        let row = Board::from_fn(1, n, |_, _| Cell::Empty).map_err(|e| e.to_string())?;
        let r = s.value(&row);
        if let Some(t) = table {
            s.save(t).map_err(|e| e.to_string())?;
        }
        let v = r.map_err(|e| e.to_string())?;
        let p = s.progress();
        println!(
            "1x{n} {v} {} nodes {} entries {:.3} s",
            p.nodes,
            p.entries,
            t0.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// The values of the row's prefixes that end a repetition of its shortest period.
fn prefixes(variant: Variant, b: &Board, opts: Options, t0: Instant) -> Result<(), String> {
    if b.rows() != 1 {
        return Err("--upto takes a row".into());
    }
    let row = b.cells();
    let p = (1..=row.len())
        .find(|&p| row.len().is_multiple_of(p) && (p..row.len()).all(|i| row[i] == row[i - p]))
        .unwrap_or(row.len());
    let mut s = clobber::Solver::new(variant, b, opts).map_err(|e| e.to_string())?;
    let clobber::Solver::Line { search, .. } = &mut s else {
        return Err("--upto takes a row".into());
    };
    if std::env::var_os("STONES_PROGRESS").is_some() {
        search.set_progress(|p| eprintln!("{} nodes, {} entries", p.nodes, p.entries));
    }
    for k in 1..=row.len() / p {
        let seg = search.game().seg(0, (k * p) as u32);
        let v = search.value(&[seg]).map_err(|e| e.to_string())?;
        println!(
            "{k} {v} {} {:.3}",
            search.nodes(),
            t0.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn main() {
    common::finish(run());
}
