//! Clobber, Cannibal Clobber and NoGo through the registry (`grundy::catalogue::Registry`,
//! the one call of every front end): every detail (value, winning moves, every move) against a
//! brute force written here on small boards (proptest), MCGS's published values
//! (`testdata/mcgs/`), the shorthands of the position grammar, bad boards as one-line input
//! errors, and the memory cap, node cap and stop flag of the search.
//!
//! The brute force shares nothing with the engines: a board is a grid of chars, a move is
//! found by looking at the neighbours, NoGo's liberties by a flood fill, values by the mex of
//! the options, memoised on the board's text.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use grundy::catalogue::{Ask, Detail, ErrorKind, Play, Registry, Report};
use grundy::{Budget, Grundy};
use proptest::prelude::*;

/// A board: rows of `x`, `o`, `.`, `#`.
type Grid = Vec<Vec<u8>>;

fn grid(text: &str) -> Grid {
    text.split('|').map(|r| r.as_bytes().to_vec()).collect()
}

fn text(g: &Grid) -> String {
    g.iter()
        .map(|r| String::from_utf8(r.clone()).unwrap())
        .collect::<Vec<_>>()
        .join("|")
}

fn neighbours(g: &Grid, r: usize, c: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if r > 0 {
        out.push((r - 1, c));
    }
    if r + 1 < g.len() {
        out.push((r + 1, c));
    }
    if c > 0 {
        out.push((r, c - 1));
    }
    if c + 1 < g[r].len() {
        out.push((r, c + 1));
    }
    out
}

fn stone(b: u8) -> bool {
    b == b'x' || b == b'o'
}

/// Whether every group of stones of `g` has a liberty (a flood fill from each stone).
fn all_breathe(g: &Grid) -> bool {
    for (r, row) in g.iter().enumerate() {
        for (c, &colour) in row.iter().enumerate() {
            if !stone(colour) {
                continue;
            }
            let mut seen = vec![(r, c)];
            let mut todo = vec![(r, c)];
            let mut free = false;
            while let Some((a, b)) = todo.pop() {
                for (y, x) in neighbours(g, a, b) {
                    if g[y][x] == b'.' {
                        free = true;
                    } else if g[y][x] == colour && !seen.contains(&(y, x)) {
                        seen.push((y, x));
                        todo.push((y, x));
                    }
                }
            }
            if !free {
                return false;
            }
        }
    }
    true
}

/// The boards one move from `g`.
fn options(game: &str, g: &Grid) -> Vec<Grid> {
    let mut out = Vec::new();
    for (r, row) in g.iter().enumerate() {
        for (c, &here) in row.iter().enumerate() {
            match game {
                "nogo" => {
                    if here != b'.' {
                        continue;
                    }
                    for s in [b'x', b'o'] {
                        let mut h = g.clone();
                        h[r][c] = s;
                        if all_breathe(&h) {
                            out.push(h);
                        }
                    }
                }
                _ => {
                    if !stone(here) {
                        continue;
                    }
                    for (y, x) in neighbours(g, r, c) {
                        let other = g[y][x];
                        let takes = match game {
                            "clobber" => stone(other) && other != here,
                            _ => stone(other),
                        };
                        if takes {
                            let mut h = g.clone();
                            h[y][x] = here;
                            h[r][c] = b'.';
                            out.push(h);
                        }
                    }
                }
            }
        }
    }
    out
}

fn mex(mut v: Vec<u32>) -> u32 {
    v.sort_unstable();
    v.dedup();
    v.iter()
        .enumerate()
        .find(|(i, &x)| *i as u32 != x)
        .map_or(v.len() as u32, |(i, _)| i as u32)
}

/// The value of `g` by the mex of its options (normal play), memoised on its text.
fn brute(game: &str, g: &Grid, memo: &mut HashMap<String, u32>) -> u32 {
    let key = text(g);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = mex(options(game, g)
        .iter()
        .map(|h| brute(game, h, memo))
        .collect());
    memo.insert(key, v);
    v
}

/// The misère outcome of `g` (true: the player to move wins), memoised on its text.
fn brute_misere(game: &str, g: &Grid, memo: &mut HashMap<String, bool>) -> bool {
    let key = text(g);
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let opts = options(game, g);
    let w = opts.is_empty() || opts.iter().any(|h| !brute_misere(game, h, memo));
    memo.insert(key, w);
    w
}

fn ask(game: &str, position: &str, detail: Detail) -> Report {
    Registry::new()
        .ask(game, position, &Ask::new(Play::Normal).detail(detail))
        .unwrap_or_else(|e| panic!("{game} {position}: {e}"))
}

fn value(r: &Report) -> u32 {
    match r.grundy {
        Some(Grundy::Finite(v)) => v as u32,
        ref g => panic!("{}: value {g:?}", r.position.text),
    }
}

/// The rows of a move's position, as the brute force writes them.
fn rows_of(m: &grundy::catalogue::Move) -> String {
    m.to.data["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("|")
}

/// Every detail of `position` agrees with the brute force.
fn check(game: &str, position: &str) {
    let g = grid(position);
    let mut memo = HashMap::new();
    let want = brute(game, &g, &mut memo);
    // The options with their values, counted (two moves may leave the same board).
    let mut opts: BTreeMap<(String, u32), usize> = BTreeMap::new();
    for h in options(game, &g) {
        let v = brute(game, &h, &mut memo);
        *opts.entry((text(&h), v)).or_default() += 1;
    }
    let zeros: usize = opts
        .iter()
        .filter(|((_, v), _)| *v == 0)
        .map(|(_, n)| n)
        .sum();
    let moves: usize = opts.values().sum();

    let r = ask(game, position, Detail::Value);
    assert_eq!(value(&r), want, "{game} {position}: value");
    assert!(r.winning_moves.is_empty() && r.all_moves.is_empty());

    let r = ask(game, position, Detail::Winning);
    assert_eq!(value(&r), want, "{game} {position}: value (winning)");
    assert_eq!(
        r.winning_moves.len(),
        if want == 0 { 0 } else { zeros },
        "{game} {position}: winning moves"
    );
    for m in &r.winning_moves {
        assert!(
            opts.contains_key(&(rows_of(m), 0)),
            "{game} {position}: {} is not a winning move",
            m.text
        );
    }
    assert_eq!(r.moves, Some(moves as u64), "{game} {position}: moves");

    let r = ask(game, position, Detail::All);
    assert_eq!(value(&r), want, "{game} {position}: value (all)");
    let mut got: BTreeMap<(String, u32), usize> = BTreeMap::new();
    for m in &r.all_moves {
        *got.entry((rows_of(m), value_of_move(m))).or_default() += 1;
    }
    assert_eq!(got, opts, "{game} {position}: every move");

    let m = Registry::new()
        .ask(game, position, &Ask::new(Play::Misere))
        .unwrap_or_else(|e| panic!("{game} {position} misère: {e}"));
    assert_eq!(
        m.outcome.to_string() == "N",
        brute_misere(game, &g, &mut HashMap::new()),
        "{game} {position}: misère outcome {}",
        m.outcome
    );
}

fn value_of_move(m: &grundy::catalogue::Move) -> u32 {
    match m.grundy {
        Some(Grundy::Finite(v)) => v as u32,
        ref g => panic!("{}: value {g:?}", m.text),
    }
}

/// A small board of the game: up to 3 × 3, or one row of up to 9 cells.
fn board(game: &'static str) -> impl Strategy<Value = String> {
    let cells: &'static [u8] = if game == "nogo" {
        b"....xo#"
    } else {
        b"xxxooo..#"
    };
    (1usize..=3, 1usize..=3)
        .prop_flat_map(move |(rows, cols)| {
            let cols = if rows == 1 { cols * 3 } else { cols };
            prop::collection::vec(prop::collection::vec(0..cells.len(), cols), rows)
        })
        .prop_map(move |rows| {
            let g: Grid = rows
                .iter()
                .map(|r| r.iter().map(|&i| cells[i]).collect())
                .collect();
            text(&g)
        })
        .prop_filter("every group breathes", move |t| {
            game != "nogo" || all_breathe(&grid(t))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn clobber_against_the_brute_force(b in board("clobber")) {
        check("clobber", &b);
    }

    #[test]
    fn cannibal_clobber_against_the_brute_force(b in board("cannibal-clobber")) {
        check("cannibal-clobber", &b);
    }

    #[test]
    fn nogo_against_the_brute_force(b in board("nogo")) {
        check("nogo", &b);
    }
}

#[test]
fn named_boards_against_the_brute_force() {
    for (game, b) in [
        ("clobber", "xoxo"),
        ("clobber", "xo.|ox."),
        ("clobber", "xox|oxo|xox"),
        ("clobber", "xo#x|oxox"),
        ("cannibal-clobber", "xxxxxx"),
        ("cannibal-clobber", "xxo|x.x"),
        ("nogo", "...|..."),
        ("nogo", ".x..|...."),
        ("nogo", "....#...."),
        ("nogo", "..o|.#.|x.."),
    ] {
        check(game, b);
    }
}

#[test]
fn shorthands_read_as_the_boards_they_name() {
    let same = |game: &str, short: &str, long: &str| {
        let a = ask(game, short, Detail::Value);
        let b = ask(game, long, Detail::Value);
        assert_eq!(value(&a), value(&b), "{game} {short} = {long}");
        assert_eq!(a.position.data["rows"], b.position.data["rows"]);
    };
    same("clobber", "(xo)^4", "xoxoxoxo");
    same("clobber", "2x3", "xox|oxo");
    same("cannibal-clobber", "x^5", "xxxxx");
    same("nogo", "1x6", "......");
    same("nogo", "2x2", "..|..");
    // The game's own board of a size prints back as RxC.
    assert_eq!(ask("nogo", "...|...", Detail::Value).position.text, "2x3");
    assert_eq!(
        ask("clobber", "xox|oxo", Detail::Value).position.text,
        "2x3"
    );
}

/// MCGS's published values (its results page and test suite), through the registry: every
/// case small enough for a test run (the engine's own test, crates/board/tests/mcgs.rs, runs
/// the larger ones).
#[test]
fn mcgs_published_values() {
    let dir = format!("{}/../../testdata/mcgs", env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for file in ["results_page.txt", "impartial.txt"] {
        let body = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        for line in body.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if line.starts_with('#') || f.len() != 3 || f[0] == "cram" {
                continue;
            }
            let (game, pos, want) = (f[0], f[1], f[2].parse::<u32>().unwrap());
            let small = match game {
                "nogo" => {
                    let cells = match pos.split_once('x') {
                        Some((r, c)) if r.parse::<usize>().is_ok() => {
                            r.parse::<usize>().unwrap() * c.parse::<usize>().unwrap()
                        }
                        _ => pos.len(),
                    };
                    cells <= 12
                }
                _ => {
                    (pos.len() <= 20 && !pos.contains('|'))
                        || pos.len() <= 11
                        || pos
                            .split_once('^')
                            .is_some_and(|(_, n)| n.parse::<u32>().is_ok_and(|n| n <= 40))
                }
            };
            if !small {
                continue;
            }
            let r = ask(game, pos, Detail::Value);
            assert_eq!(value(&r), want, "{file}: {game} {pos}");
            count += 1;
        }
    }
    assert!(count > 200, "{count} cases");
}

#[test]
fn bad_boards_are_one_line_input_errors() {
    let reg = Registry::new();
    for (game, pos) in [
        ("clobber", "xoz"),
        ("clobber", ""),
        ("clobber", "xo|x"),
        ("clobber", "9x9"),
        ("clobber", "(xo)^"),
        ("cannibal-clobber", "0x3"),
        ("nogo", "x|o"),
        ("nogo", "xo"),
        ("nogo", "9x9"),
        ("nogo", "1x"),
        ("nogo", "abc"),
    ] {
        let e = reg
            .ask(game, pos, &Ask::new(Play::Normal))
            .expect_err(&format!("{game} {pos:?} accepted"));
        assert_eq!(e.kind(), ErrorKind::Input, "{game} {pos:?}: {e}");
        let text = e.to_string();
        assert!(
            !text.contains('\n') && !text.is_empty(),
            "{game} {pos:?}: {text}"
        );
    }
}

#[test]
fn limits_and_the_stop_flag_hold() {
    let reg = Registry::new();
    // A node cap.
    let tight = Ask::new(Play::Normal).budget(Budget {
        max_positions: 50,
        max_bytes: 64 << 20,
    });
    for (game, pos) in [("nogo", "3x4"), ("clobber", "4x4"), ("clobber", "(xo)^300")] {
        let e = reg.ask(game, pos, &tight).expect_err(game);
        assert_eq!(e.kind(), ErrorKind::Limit, "{game} {pos}: {e}");
    }
    // A memory cap too small for any table.
    let small = Ask::new(Play::Normal).budget(Budget {
        max_positions: u64::MAX,
        max_bytes: 1000,
    });
    let e = reg.ask("nogo", "2x4", &small).expect_err("memory");
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    // A row too long for its rank tables in the cap.
    let row = Ask::new(Play::Normal).budget(Budget {
        max_positions: u64::MAX,
        max_bytes: 2 << 20,
    });
    let e = reg.ask("clobber", "(xo)^100000", &row).expect_err("row");
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    // The stop flag, raised before the search starts (seen at the first check, after
    // `check_every` nodes: boards that take more).
    let stop = Arc::new(AtomicBool::new(true));
    let e = reg
        .ask("nogo", "3x5", &Ask::new(Play::Normal).stop(stop))
        .expect_err("stopped");
    assert_eq!(e.kind(), ErrorKind::Stopped, "{e}");
    // Progress that answers false stops it too.
    let e = reg
        .ask(
            "clobber",
            "3x7",
            &Ask::new(Play::Normal).progress(Arc::new(|_| false)),
        )
        .expect_err("progress");
    assert_eq!(e.kind(), ErrorKind::Stopped, "{e}");
}
