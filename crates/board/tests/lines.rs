//! Rows of Clobber and Cannibal Clobber by a second path that shares no search code with the
//! engine: the plain memoised solver of the core (`grundy_core::Solver`) over the segments of
//! a periodic row, each segment named by its phase in the period, its length and its two end
//! colours (no canonical keys, no symmetry, no table, no Lemoine–Viennot questions).
//!
//! In CI it checks `(xo)^n`, `(xxo)^n`, `(xxxo)^n` to modest lengths and `x^n` against the
//! octal game 0.6 by a plain mex; `LINE_CHECK=PATTERN:N` (with `--ignored --nocapture`) prints
//! `n value` for every `n ≤ N` of the family, the second path of docs/results.md:
//!
//! ```text
//! LINE_CHECK=xo:2100 cargo test --release -p grundy-board --test lines -- --ignored --nocapture
//! ```

use grundy_board::clobber::{Solver, Variant};
use grundy_board::engine::Options;
use grundy_board::stones::Board;
use grundy_core::{Game, Solver as Plain};

/// A segment of the infinite row `pattern^∞`: cells `a .. a + len` (`a` taken modulo the
/// period), the first and last with the colours given (1 `x`, 2 `o`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Seg {
    phase: u32,
    len: u32,
    first: u8,
    last: u8,
}

/// A position: a sum of segments.
type Pos = Vec<Seg>;

struct Rows {
    pattern: Vec<u8>,
    cannibal: bool,
}

impl Rows {
    fn colour(&self, i: u64) -> u8 {
        self.pattern[(i % self.pattern.len() as u64) as usize]
    }

    /// The segment of cells `a..b` (absolute indices of the row) with end colours given.
    fn seg(&self, a: u64, b: u64, first: u8, last: u8) -> Option<Seg> {
        (b > a + 1).then(|| Seg {
            phase: (a % self.pattern.len() as u64) as u32,
            len: (b - a) as u32,
            first,
            last,
        })
    }
}

impl Game for Rows {
    type Position = Pos;

    fn options(&self, pos: &Pos, out: &mut Vec<Pos>) {
        for (k, s) in pos.iter().enumerate() {
            let rest: Vec<Seg> = pos
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, t)| t.clone())
                .collect();
            // The cells of `s`, written out.
            let a = s.phase as u64;
            let b = a + s.len as u64;
            let col = |i: u64| -> u8 {
                if i == a {
                    s.first
                } else if i == b - 1 {
                    s.last
                } else {
                    self.colour(i)
                }
            };
            for i in a..b - 1 {
                let (ci, cj) = (col(i), col(i + 1));
                if !self.cannibal && ci == cj {
                    continue;
                }
                // i moves onto i + 1: cells a..i and i+1..b (i+1 now ci).
                let left = (i > a).then(|| col(i - 1));
                let mut p = rest.clone();
                if let Some(l) = left {
                    p.extend(self.seg(a, i, s.first, l));
                }
                p.extend(self.seg(i + 1, b, ci, if i + 1 == b - 1 { ci } else { s.last }));
                p.sort();
                out.push(p);
                // i + 1 moves onto i: cells a..i+1 (i now cj) and i+2..b.
                let mut q = rest.clone();
                q.extend(self.seg(a, i + 1, if i == a { cj } else { s.first }, cj));
                if i + 2 < b {
                    q.extend(self.seg(i + 2, b, col(i + 2), s.last));
                }
                q.sort();
                out.push(q);
            }
        }
    }

    fn components(&self, pos: &Pos, out: &mut Vec<Pos>) -> bool {
        if pos.len() < 2 {
            return false;
        }
        out.extend(pos.iter().map(|s| vec![s.clone()]));
        true
    }

    /// A sum carries its parts: XOR-ing their values again is cheaper than a memo entry for
    /// each of the many sums of two segments.
    fn memoise_sum(&self, _pos: &Pos) -> bool {
        false
    }
}

/// The values of `pattern^n` for `n = 1..=max` by the plain solver.
fn plain_values(pattern: &str, max: usize, cannibal: bool) -> Vec<u64> {
    let colours: Vec<u8> = pattern
        .bytes()
        .map(|c| if c == b'x' { 1 } else { 2 })
        .collect();
    let p = colours.len() as u64;
    let rows = Rows {
        pattern: colours,
        cannibal,
    };
    let mut solver = Plain::new(rows);
    (1..=max as u64)
        .map(|n| {
            let len = n * p;
            let first = solver.game().colour(0);
            let last = solver.game().colour(len - 1);
            let pos: Pos = solver.game().seg(0, len, first, last).into_iter().collect();
            solver.grundy(&pos)
        })
        .collect()
}

/// The values of `pattern^n` for `n = 1..=max` by the engine (one line engine on the longest
/// row, segment by segment).
fn engine_values(pattern: &str, max: usize, variant: Variant) -> Vec<u64> {
    let b = Board::parse(&format!("({pattern})^{max}")).unwrap();
    let mut s = Solver::new(variant, &b, Options::default()).unwrap();
    let Solver::Line { search, .. } = &mut s else {
        panic!("a row is searched on the line")
    };
    (1..=max)
        .map(|n| {
            let seg = search.game().seg(0, (n * pattern.len()) as u32);
            u64::from(search.value(&[seg]).unwrap())
        })
        .collect()
}

#[test]
fn periodic_rows_two_ways() {
    for (pattern, max) in [
        ("xo", 70),
        ("xxo", 40),
        ("xxxo", 30),
        ("xoo", 40),
        ("xxoo", 25),
    ] {
        assert_eq!(
            engine_values(pattern, max, Variant::Clobber),
            plain_values(pattern, max, false),
            "({pattern})^n"
        );
    }
    assert_eq!(
        engine_values("xo", 60, Variant::Cannibal),
        plain_values("xo", 60, true)
    );
}

/// Impartial Cannibal Clobber on a row of `n` stones is the octal game 0.6 (Officers) on a
/// heap of `n`: a move takes one token from a heap of at least two, leaving one heap or two.
/// Its values by a plain mex over heaps, against the engine.
#[test]
fn cannibal_rows_are_officers() {
    let n = 3000;
    let mut g = vec![0u32; n + 1];
    let mut seen = vec![0u32; n + 2];
    for h in 2..=n {
        // Remove one token: heaps a and b with a + b = h - 1 (a heap of 0 is none).
        for a in 0..=(h - 1) / 2 {
            let b = h - 1 - a;
            seen[(g[a] ^ g[b]) as usize] = h as u32;
        }
        g[h] = (0..).find(|&v| seen[v as usize] != h as u32).unwrap();
    }
    let engine = engine_values("x", n, Variant::Cannibal);
    for h in 1..=n {
        assert_eq!(engine[h - 1], u64::from(g[h]), "x^{h}");
    }
}

/// `LINE_CHECK=PATTERN:N`: the second path's values of `PATTERN^n`, `n = 1..=N`, one line
/// each (`c` before the pattern for Cannibal Clobber: `cx:1000`).
#[test]
#[ignore]
fn line_check() {
    let Ok(spec) = std::env::var("LINE_CHECK") else {
        eprintln!("set LINE_CHECK=PATTERN:N (xo:2100)");
        return;
    };
    let (pattern, n) = spec.split_once(':').expect("PATTERN:N");
    let (pattern, cannibal) = match pattern.strip_prefix('c') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let t = std::time::Instant::now();
    for (i, v) in plain_values(pattern, n.parse().unwrap(), cannibal)
        .iter()
        .enumerate()
    {
        println!("{} {v}", i + 1);
    }
    eprintln!("{:.1} s", t.elapsed().as_secs_f64());
}
