//! The new values of docs/results.md reproduced: every line of a data file in
//! `docs/results/` whose engine run took at most [`QUICK_CPU`] seconds of CPU (the file's
//! third column) is valued again by the engine and must agree. The longer ones are the
//! checkpointed runs the page names (`RESULTS_ALL=1` runs them all here).
//!
//! A data file is b-file style: `#` lines (the game, the command, the build, the date, the
//! cost), then one line per value: `POSITION VALUE ENGINE_CPU_S SECOND_CPU_S NODES`. A file
//! of the values of a row family (`(xo)^n`) is `n VALUE` per line instead, with the pattern
//! named in its header (`# row: xo`); of those the first line (the first new row) is
//! reproduced in every test run, the rest with `RESULTS_ALL=1`.

use grundy_board::clobber::{self, Variant};
use grundy_board::engine::{Engine, Options, Rules};
use grundy_board::expand::{Expansion, WideGraph};
use grundy_board::graph::Graph;
use grundy_board::nogo;
use grundy_board::stones::{Board, Cell};

/// The most CPU seconds (release build) of a value reproduced in every test run.
const QUICK_CPU: f64 = 2.0;
fn board(game: &str, text: &str) -> Board {
    match Board::parse_or_size(text).unwrap() {
        Ok(b) => b,
        Err(s) => Board::from_fn(s.rows, s.cols, |r, c| match game {
            "nogo" => Cell::Empty,
            _ if (r + c) % 2 == 0 => Cell::X,
            _ => Cell::O,
        })
        .unwrap(),
    }
}

fn value(game: &str, text: &str) -> u32 {
    let opts = Options {
        max_memory: 512 << 20,
        ..Options::default()
    };
    if game == "node-kayles" {
        // The queens graphs past 11 x 11 have more than 128 vertices: the expansion.
        if let Some(n) = text.strip_prefix("queens:") {
            let q = WideGraph::queens(n.parse().unwrap()).unwrap();
            return Expansion::new(Rules::NodeKayles, q, opts).value().unwrap();
        }
        let g = Graph::parse(text).unwrap();
        let all = g.all();
        return Engine::new(Rules::NodeKayles, g, opts)
            .unwrap()
            .grundy(all)
            .unwrap();
    }
    let b = &board(game, text);
    match game {
        "nogo" => nogo::Solver::new(b, opts).unwrap().value(b).unwrap(),
        "clobber" | "cannibal-clobber" => {
            let v = if game == "clobber" {
                Variant::Clobber
            } else {
                Variant::Cannibal
            };
            clobber::Solver::new(v, b, opts).unwrap().value(b).unwrap()
        }
        _ => panic!("no engine for {game}"),
    }
}

fn header<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    text.lines()
        .filter_map(|l| l.strip_prefix('#'))
        .find_map(|l| l.trim().strip_prefix(name))
        .map(str::trim)
}

#[test]
fn every_quick_value_of_the_results_page() {
    let dir = format!("{}/../../docs/results", env!("CARGO_MANIFEST_DIR"));
    let all = std::env::var_os("RESULTS_ALL").is_some();
    let mut checked = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let game = header(&text, "game:").unwrap_or_else(|| panic!("{name}: no '# game:'"));
        let row = header(&text, "row:");
        for (i, line) in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .enumerate()
        {
            let f: Vec<&str> = line.split_whitespace().collect();
            let want: u32 = f[1].parse().unwrap();
            let position = match row {
                Some(pattern) => {
                    let n: u64 = f[0].parse().unwrap();
                    if i > 0 && !all {
                        continue;
                    }
                    format!("({pattern})^{n}")
                }
                None => {
                    let cpu: f64 = f[2].parse().unwrap();
                    if cpu > QUICK_CPU && !all {
                        continue;
                    }
                    f[0].to_string()
                }
            };
            assert_eq!(value(game, &position), want, "{name}: {line}");
            checked += 1;
        }
    }
    assert!(checked > 0, "no value checked");
}
