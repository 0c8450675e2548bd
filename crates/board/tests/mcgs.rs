//! MCGS's published impartial values (`testdata/mcgs/`: its results page and its test
//! suite) reproduced by the engine: Clobber, Cannibal Clobber and NoGo, and the page's Cram
//! tables.
//!
//! Every case whose board is small enough for a test runs (`quick`); the rest (NoGo 2x8 and
//! up, Clobber 5x5, Cram past 40 cells) are the long runs of `bench/mcgs.sh` and
//! docs/results.md, run here with `MCGS_ALL=1`.

use grundy_board::clobber::{self, Variant};
use grundy_board::cram;
use grundy_board::engine::Options;
use grundy_board::nogo;
use grundy_board::stones::{Board, Cell};
use std::time::Instant;

struct Case {
    game: String,
    position: String,
    value: u32,
    line: usize,
}

fn load(file: &str) -> Vec<Case> {
    let path = format!("{}/../../testdata/mcgs/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 3, "{file}:{}: {line}", i + 1);
        out.push(Case {
            game: f[0].into(),
            position: f[1].into(),
            value: f[2].parse().unwrap(),
            line: i + 1,
        });
    }
    out
}

/// The board of a case: `RxC` is an empty board for NoGo, a checkerboard for Clobber.
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

/// Whether the case is quick enough for every test run (under a second or so each).
fn quick(c: &Case) -> bool {
    match c.game.as_str() {
        "cram" => {
            let b = cram::Board::parse(&c.position).unwrap();
            b.empty().count_ones()
                <= if std::env::var_os("MCGS_ALL").is_some() {
                    45
                } else {
                    36
                }
        }
        "nogo" => board(&c.game, &c.position).cells().len() <= 15,
        _ => {
            let b = board(&c.game, &c.position);
            b.rows() == 1 || b.cols() == 1 || b.stones() <= 20
        }
    }
}

fn value(c: &Case) -> u32 {
    let opts = Options {
        max_memory: 256 << 20,
        ..Options::default()
    };
    match c.game.as_str() {
        "cram" => {
            let b = cram::Board::parse(&c.position).unwrap();
            b.analyze(opts).unwrap().grundy as u32
        }
        "nogo" => {
            let b = board("nogo", &c.position);
            nogo::Solver::new(&b, opts).unwrap().value(&b).unwrap()
        }
        g => {
            let variant = if g == "clobber" {
                Variant::Clobber
            } else {
                Variant::Cannibal
            };
            let b = board(g, &c.position);
            clobber::Solver::new(variant, &b, opts)
                .unwrap()
                .value(&b)
                .unwrap()
        }
    }
}

/// The rows written `(p)^n` (or `c^n`): the pattern and the count.
fn family(c: &Case) -> Option<(String, usize)> {
    if c.game == "nogo" || c.game == "cram" {
        return None;
    }
    let (base, n) = c.position.rsplit_once('^')?;
    let n: usize = n.parse().ok()?;
    let pat = base.trim_start_matches('(').trim_end_matches(')');
    (pat.chars().all(|ch| "xo".contains(ch)) && (base.len() == 1 || base.starts_with('(')))
        .then(|| (pat.to_string(), n))
}

/// The rows of one family `(p)^n` of `cases`, valued by one line engine on the longest row,
/// segment by segment (its table carries from each row to the next, as MCGS computed them);
/// returns the mismatches.
fn families(file: &str, cases: &[Case]) -> (usize, Vec<String>) {
    let mut groups: std::collections::BTreeMap<(String, String), Vec<(usize, &Case)>> =
        Default::default();
    for c in cases {
        if let Some((pat, n)) = family(c) {
            groups
                .entry((c.game.clone(), pat))
                .or_default()
                .push((n, c));
        }
    }
    let mut failed = Vec::new();
    let mut ran = 0;
    for ((game, pat), mut rows) in groups {
        rows.sort_by_key(|r| r.0);
        let max = rows.last().map_or(0, |r| r.0);
        let variant = if game == "clobber" {
            Variant::Clobber
        } else {
            Variant::Cannibal
        };
        let b = Board::parse(&format!("({pat})^{max}")).unwrap();
        let mut s = clobber::Solver::new(variant, &b, Options::default()).unwrap();
        let clobber::Solver::Line { search, .. } = &mut s else {
            panic!("a row is searched on the line");
        };
        let t = Instant::now();
        for (n, c) in rows {
            let seg = search.game().seg(0, (n * pat.len()) as u32);
            let v = search.value(&[seg]).unwrap();
            if v != c.value {
                failed.push(format!(
                    "{file}:{}: {game} {}: engine {v}, published {}",
                    c.line, c.position, c.value
                ));
            }
            ran += 1;
        }
        eprintln!(
            "{file}: {game} ({pat})^n to n = {max}: {:.2} s",
            t.elapsed().as_secs_f64()
        );
    }
    (ran, failed)
}

fn run(file: &str) {
    let all = std::env::var_os("MCGS_ALL").is_some();
    let cases = load(file);
    let (mut ran, mut failed) = families(file, &cases);
    let mut skipped = 0;
    for c in cases {
        if family(&c).is_some() {
            continue;
        }
        if !all && !quick(&c) {
            skipped += 1;
            continue;
        }
        let t = Instant::now();
        let v = value(&c);
        if all || t.elapsed().as_secs_f64() > 0.5 {
            eprintln!(
                "{file}:{} {} {} = {v} ({:.2} s)",
                c.line,
                c.game,
                c.position,
                t.elapsed().as_secs_f64()
            );
        }
        if v != c.value {
            failed.push(format!(
                "{file}:{}: {} {}: engine {v}, published {}",
                c.line, c.game, c.position, c.value
            ));
        }
        ran += 1;
    }
    eprintln!("{file}: {ran} cases agree, {skipped} skipped as long runs");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn results_page() {
    run("results_page.txt");
}

#[test]
fn test_suite_positions() {
    run("impartial.txt");
}
