//! The example scripts of `examples/games/` against the native engines: heap games against
//! `grundy_heap`'s engines, Wythoff, Fibonacci Nim, Chomp and the maze against `grundy_games`,
//! Mock Turtles against its published values (the odious numbers, Winning Ways ch. 14).

use grundy_core::Solver;
use grundy_games::chomp::{Chomp, Staircase};
use grundy_script::{parse_position, Grundy, Limits, Play, Position, Script};

fn source(file: &str) -> String {
    let path = format!("{}/../../examples/games/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn load(file: &str) -> Script {
    Script::load(file, &source(file), Limits::default()).unwrap()
}

fn native(rule: &str, n: u64) -> Vec<u64> {
    let rule = grundy_heap::parse(rule).unwrap();
    grundy_heap::engine::sequence(&rule, n)
        .unwrap()
        .into_iter()
        .map(u64::from)
        .collect()
}

/// A part of a move's `at` (`from`, `leaves`) as a position again.
fn at_position(m: &grundy_core::Move, key: &str) -> Position {
    Position::from_json(&m.at[key]).expect("a position")
}

fn pair(a: u64, b: u64) -> Position {
    Position::List(vec![Position::Int(a as i64), Position::Int(b as i64)])
}

/// Every heap script: G(0..=n) equal to the native engine's, one `moves` call per heap.
#[test]
fn heap_scripts_agree_with_the_native_engines() {
    for (file, rule, n) in [
        ("kayles.lua", "kayles", 300),
        ("dawsons-kayles.lua", "dawsons-kayles", 300),
        ("subtraction.lua", "sub:1,3,4", 300),
        ("grundys-game.lua", "grundys-game", 300),
        ("pimber.lua", "pimber", 300),
        ("odd-even-nim.lua", "odd-even-nim", 300),
        ("polygon-chords.lua", "polygon-chords", 300),
        ("kings.lua", "kings", 200),
    ] {
        let mut s = load(file).session().unwrap();
        let seq = s.sequence(n).unwrap();
        assert_eq!(
            seq.finite_values().unwrap(),
            native(rule, n),
            "{file} against {rule}"
        );
        assert_eq!(
            s.stats().moves_calls,
            n + 1,
            "{file}: one moves call per heap"
        );
    }
}

#[test]
fn kayles_period_is_observed_with_its_repeats() {
    let seq = load("kayles.lua").sequence(1000).unwrap();
    let p = seq.period.unwrap();
    assert_eq!((p.period, p.preperiod, p.status), (12, 71, "observed"));
    assert_eq!(p.repeats, (1001 - 71) / 12);
}

#[test]
fn wythoff_table_agrees_with_the_native_table() {
    let side = 40;
    let mut s = load("wythoff.lua").session().unwrap();
    let t = s.table(side, side).unwrap();
    let native = grundy_games::wythoff::GrundyTable::new(side as usize).unwrap();
    for a in 0..side as usize {
        for b in 0..side as usize {
            assert_eq!(
                t.values[a][b].finite().unwrap(),
                native.value(a, b).unwrap() as u64,
                "G({a}, {b})"
            );
            assert_eq!(
                t.p_positions.contains(&[a as u64, b as u64]),
                t.values[a][b] == Grundy::Finite(0)
            );
        }
    }
    // Every position {a, b} inside the table is reached, and expanded once.
    assert_eq!(s.stats().moves_calls, side * side);
}

#[test]
fn fibonacci_nim_agrees_with_the_native_table() {
    let n = 60;
    let game = grundy_games::fib::MultiplierNim::new(2).unwrap();
    let native = grundy_games::fib::GrundyTable::new(game, n).unwrap();
    let mut s = load("fibonacci-nim.lua").session().unwrap();
    for pile in 0..=n {
        for limit in 0..=pile {
            let a = s.analyze(&[pair(pile, limit)], Play::Normal).unwrap();
            assert_eq!(
                a.grundy.and_then(|v| v.finite()),
                Some(native.value(pile, limit).unwrap() as u64),
                "({pile}, {limit})"
            );
        }
    }
    // The first move from 21 = F(8) tokens never wins: Fibonacci numbers are P-positions.
    let a = s.analyze(&[pair(21, 20)], Play::Normal).unwrap();
    assert!(a.winning_moves.is_empty());
    let a = s.analyze(&[pair(20, 19)], Play::Normal).unwrap();
    // Zeckendorf: 20 = 13 + 5 + 2, take 2.
    assert_eq!(a.winning_moves.len(), 1);
    assert_eq!(at_position(&a.winning_moves[0], "leaves"), pair(18, 4));
    assert_eq!(
        a.winning_moves[0].text,
        "20 tokens, take 1 to 19 → 18 tokens, take 1 to 4"
    );
}

/// A staircase from column heights (never increasing).
fn staircase(cols: &[usize]) -> Staircase {
    let rows = cols[0];
    let mut s = Staircase::rectangle(rows, cols.len()).unwrap();
    for r in 0..rows {
        let len = cols.iter().filter(|&&h| h > r).count();
        if let Some(t) = s.bite(r, len) {
            s = t;
        }
    }
    s
}

fn columns(p: &Position) -> Vec<usize> {
    match p {
        Position::List(v) => v.iter().map(|x| x.as_int().unwrap() as usize).collect(),
        p => panic!("not a list: {p}"),
    }
}

#[test]
fn chomp_agrees_with_the_native_solver_and_canon_saves_work() {
    let script = load("chomp.lua");
    let plain = Script::load(
        "chomp.lua",
        &format!("{}\ncanon = nil\n", source("chomp.lua")),
        Limits::default(),
    )
    .unwrap();
    let mut native = Solver::new(Chomp);
    let (mut s, mut p) = (script.session().unwrap(), plain.session().unwrap());
    let mut shapes = vec![];
    for r in 1..=5usize {
        for c in 1..=5usize {
            shapes.push(vec![r; c]);
        }
    }
    shapes.push(vec![5, 4, 4, 2, 1]);
    shapes.push(vec![3, 1, 1, 1, 1, 1]);
    for cols in &shapes {
        let text = format!(
            "{{{}}}",
            cols.iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        let pos = parse_position(&text).unwrap();
        let g = native.grundy(&staircase(cols));
        let a = s.analyze(std::slice::from_ref(&pos), Play::Normal).unwrap();
        assert_eq!(a.grundy.and_then(|v| v.finite()), Some(g), "{text}");
        assert_eq!(
            p.analyze(&[pos], Play::Normal)
                .unwrap()
                .grundy
                .and_then(|v| v.finite()),
            Some(g),
            "{text} without canon"
        );
        // Every winning bite leads to a native P-position.
        for m in &a.winning_moves {
            assert_eq!(
                native.grundy(&staircase(&columns(&at_position(m, "leaves")))),
                0,
                "{text} → {}",
                m.to.text
            );
        }
        // Rectangles (but the 1 × 1 bar) are first-player wins (strategy stealing).
        if cols.iter().all(|&h| h == cols[0]) && cols.len() * cols[0] > 1 {
            assert!(!a.winning_moves.is_empty(), "{text}");
        }
    }
    let (with, without) = (s.stats().moves_calls, p.stats().moves_calls);
    assert!(
        with < without,
        "canon: {with} moves calls, without: {without}"
    );
}

fn maze_text() -> String {
    let src = source("maze.lua");
    let start = src.find("[[\n").unwrap() + 3;
    let end = src.find("]]").unwrap();
    src[start..end].to_string()
}

#[test]
fn maze_agrees_with_the_native_maze() {
    let text = maze_text();
    let maze = &grundy_games::maze::parse_mazes(&text).unwrap()[0];
    let values = maze.grundy_values();
    let mut s = load("maze.lua").session().unwrap();
    let mut checked = 0;
    for r in 0..maze.rows() {
        for c in 0..maze.cols() {
            if maze.is_wall((r, c)) {
                continue;
            }
            let a = s
                .analyze(&[pair(r as u64, c as u64)], Play::Normal)
                .unwrap();
            assert_eq!(
                a.grundy.and_then(|v| v.finite()),
                Some(values.get((r, c)).unwrap() as u64),
                "({r}, {c})"
            );
            // The winning moves are exactly the native moves to value 0.
            let mut native: Vec<(usize, usize)> = maze
                .moves_from((r, c))
                .into_iter()
                .filter(|&m| values.get(m) == Some(0))
                .collect();
            let mut ours: Vec<(usize, usize)> = a
                .winning_moves
                .iter()
                .map(|m| {
                    let v = columns(&at_position(m, "leaves"));
                    (v[0], v[1])
                })
                .collect();
            native.sort_unstable();
            ours.sort_unstable();
            assert_eq!(ours, native, "({r}, {c})");
            checked += 1;
        }
    }
    assert!(checked > 30);
}

/// The n-th odious number (odd number of 1 bits): the value of a lone heads coin at n.
fn odious(n: u64) -> u64 {
    2 * n + u64::from(n.count_ones().is_multiple_of(2))
}

fn heads(xs: &[u64]) -> Position {
    Position::List(xs.iter().map(|&x| Position::Int(x as i64)).collect())
}

#[test]
fn mock_turtles_values_are_the_odious_numbers() {
    let mut s = load("mock-turtles.lua").session().unwrap();
    for x in 0..40 {
        let a = s.analyze(&[heads(&[x])], Play::Normal).unwrap();
        assert_eq!(
            a.grundy.and_then(|v| v.finite()),
            Some(odious(x)),
            "coin {x}"
        );
    }
    let a = s.analyze(&[heads(&[3, 8, 20])], Play::Normal).unwrap();
    assert_eq!(
        a.grundy.and_then(|v| v.finite()),
        Some(odious(3) ^ odious(8) ^ odious(20))
    );
    // Without `split`, a brute force over every set of heads below coin 8 agrees with the
    // theorem that made `split` valid.
    let brute = Script::load(
        "mock-turtles.lua",
        &format!("{}\nsplit = nil\n", source("mock-turtles.lua")),
        Limits::default(),
    )
    .unwrap();
    let mut b = brute.session().unwrap();
    for set in 0u64..256 {
        let xs: Vec<u64> = (0..8).filter(|i| set >> i & 1 == 1).collect();
        let want = xs.iter().fold(0, |acc, &x| acc ^ odious(x));
        let a = b.analyze(&[heads(&xs)], Play::Normal).unwrap();
        assert_eq!(a.grundy.and_then(|v| v.finite()), Some(want), "{xs:?}");
    }
    assert_eq!(
        s.analyze(&[heads(&[0, 2])], Play::Normal).unwrap().texts,
        ["HTH"]
    );
}

/// A sum of positions of different sizes: value = XOR, winning moves exactly the options that
/// leave XOR 0, in normal play; misère play against a direct search written here.
#[test]
fn sums_and_misere_agree_with_direct_searches() {
    let script = load("subtraction.lua");
    let values = native("sub:1,3,4", 40);
    let mut s = script.session().unwrap();
    for (a, b, c) in [(5u64, 6u64, 7u64), (10, 3, 0), (4, 4, 9), (0, 0, 0)] {
        let parts = [a, b, c].map(|x| Position::Int(x as i64));
        let r = s.analyze(&parts, Play::Normal).unwrap();
        let x = values[a as usize] ^ values[b as usize] ^ values[c as usize];
        assert_eq!(r.grundy.and_then(|v| v.finite()), Some(x));
        let mut want = 0;
        for (i, h) in [a, b, c].into_iter().enumerate() {
            for d in [1, 3, 4] {
                if d <= h {
                    let mut hs = [a, b, c];
                    hs[i] = h - d;
                    want += usize::from(hs.iter().fold(0, |acc, &y| acc ^ values[y as usize]) == 0);
                }
            }
        }
        assert_eq!(r.winning_moves.len(), want, "{a} {b} {c}");
    }
    // Misère: a plain recursive search over sorted heap triples.
    fn misere_wins(hs: [u64; 3], memo: &mut std::collections::HashMap<[u64; 3], bool>) -> bool {
        let mut key = hs;
        key.sort_unstable();
        if let Some(&w) = memo.get(&key) {
            return w;
        }
        let mut any_move = false;
        let mut win = false;
        for i in 0..3 {
            for d in [1, 3, 4] {
                if d <= hs[i] {
                    any_move = true;
                    let mut next = hs;
                    next[i] -= d;
                    if !misere_wins(next, memo) {
                        win = true;
                    }
                }
            }
        }
        let w = win || !any_move;
        memo.insert(key, w);
        w
    }
    let mut memo = std::collections::HashMap::new();
    for hs in [[1u64, 1, 1], [2, 3, 5], [7, 0, 0], [6, 6, 1], [0, 0, 0]] {
        let parts = hs.map(|x| Position::Int(x as i64));
        let r = s.analyze(&parts, Play::Misere).unwrap();
        assert_eq!(
            r.outcome == grundy_core::Outcome::N,
            misere_wins(hs, &mut memo),
            "{hs:?}"
        );
        assert!(r.grundy.is_none());
        for m in &r.winning_moves {
            let mut next = hs;
            let part = m.at["component"].as_u64().unwrap() as usize;
            next[part] = at_position(m, "leaves").as_int().unwrap() as u64;
            // The whole position after the move, as the script's catalogue entry reads it.
            let parts: Vec<Position> = next.iter().map(|&x| Position::Int(x as i64)).collect();
            assert_eq!(m.to.text, Position::sum(parts).to_string());
            assert!(
                !misere_wins([next[0], next[1], next[2]], &mut memo),
                "{hs:?} → {next:?}"
            );
        }
    }
}

/// `explain` lists every option with its value; the value is their mex.
#[test]
fn explain_lists_options_and_values() {
    let mut s = load("kayles.lua").session().unwrap();
    let e = s.explain(&Position::Int(5)).unwrap();
    let values = native("kayles", 5);
    assert_eq!(e.grundy, Grundy::Finite(values[5]));
    // From a row of 5: knock 1 (a + b = 4, a ≤ b: 3 ways) or 2 (a + b = 3: 2 ways).
    assert_eq!(e.options.len(), 5);
    let vs: Vec<u64> = e
        .options
        .iter()
        .map(|o| o.grundy.finite().unwrap())
        .collect();
    assert_eq!(Grundy::Finite(grundy_core::mex(&vs)), e.grundy);
    assert!(e.describe().contains("smallest value missing"));
}

/// Ranges report their progress, position by position, ending at the whole range; the sums a
/// script's moves make are valued without memo entries, so the memo holds the heaps alone.
#[test]
fn ranges_report_progress() {
    use std::sync::{Arc, Mutex};
    let kayles = load("kayles.lua");
    let mut s = kayles.session().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    s.on_progress(move |done, total| log.lock().unwrap().push((done, total)));
    s.sequence(99).unwrap();
    let got = seen.lock().unwrap().clone();
    assert_eq!(got.len(), 100);
    assert_eq!(got.first(), Some(&(1, 100)));
    assert_eq!(got.last(), Some(&(100, 100)));
    assert_eq!(s.memo_len(), 100, "one entry per heap, none per sum(a, b)");

    let wythoff = load("wythoff.lua");
    let mut s = wythoff.session().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    s.on_progress(move |done, total| log.lock().unwrap().push((done, total)));
    s.table(3, 4).unwrap();
    assert_eq!(seen.lock().unwrap().last(), Some(&(12, 12)));
}
