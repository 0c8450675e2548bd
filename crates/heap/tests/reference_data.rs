//! The heap engines against reference data nobody here computed (copied from shared/data into
//! the one corpus folder, testdata/, with their headers): code equivalences (tczajka/octal-games), contest problems
//! and whole-board brute force. The OEIS sequences, CGSuite's heap sequences and the periodic
//! octal games live in the shared corpus (`testdata/`, run by `cargo test -p grundy --test
//! corpus` through every engine).

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use grundy_heap::rule::parse;
use grundy_heap::{engine, sum};

fn data(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(path);
    fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn seq(rule: &str, n: u64) -> Vec<u32> {
    engine::sequence(&parse(rule).unwrap_or_else(|e| panic!("{rule}: {e}")), n).unwrap()
}

/// tczajka's game names: `.77` is 0.77, `4` is 4.0, `4.12` as is.
fn octal_name(name: &str) -> String {
    if name.starts_with('.') {
        format!("0{name}")
    } else if !name.contains('.') {
        format!("{name}.0")
    } else {
        name.to_string()
    }
}

#[test]
fn octal_equivalences_up_to_a_shift() {
    let text = data("octal/equivalences.txt");
    let mut checked = 0;
    let mut cache: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut get = |name: &str| {
        cache
            .entry(name.to_string())
            .or_insert_with(|| seq(&octal_name(name), 300))
            .clone()
    };
    for line in text.lines().filter(|l| l.contains('|')) {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let row = cols[0];
        if !row.ends_with('x') {
            continue;
        }
        for (d, target) in cols[1..].iter().enumerate() {
            if *target == "-" || target.is_empty() {
                continue;
            }
            let game = row.replace('x', &(d + 1).to_string());
            let (a, b) = (get(&game), get(target));
            // "Equivalent" allows renumbering heaps by a constant (see the file's header).
            let found =
                (-4i64..=4).any(|k| (4..250).all(|n: i64| a[n as usize] == b[(n + k) as usize]));
            assert!(found, "{game} ~ {target}");
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked}");
}

fn numbers_after(line: &str, marker: &str) -> Vec<u64> {
    let rest = &line[line.find(marker).unwrap() + marker.len()..];
    rest.split_whitespace()
        .map_while(|t| t.parse().ok())
        .collect()
}

#[test]
fn contest_games() {
    let text = data("games/cp_games_reference.txt");
    let line = |start: &str| text.lines().find(|l| l.starts_with(start)).unwrap();
    let as_u32 = |v: Vec<u64>| v.into_iter().map(|x| x as u32).collect::<Vec<u32>>();

    // The Pimber values are on the line after the heading.
    let mut lines = text.lines();
    lines
        .find(|l| l.starts_with("== Pimber (subtract"))
        .unwrap();
    let pim: Vec<u32> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(pim.len(), 100);
    assert_eq!(seq("pimber", 99), pim);
    let big = seq("pimber", 3_000_000);
    let firsts = [
        0u64, 1, 2, 3, 8, 9, 144, 145, 167, 627, 2677, 2725, 2726, 12071, 48652, 206025,
    ];
    for (k, &first) in firsts.iter().enumerate() {
        assert_eq!(
            big.iter().position(|&g| g == k as u32),
            Some(first as usize),
            "Pimber first {k}"
        );
    }
    assert_eq!(*big.iter().max().unwrap(), 15);
    assert_eq!(big.iter().filter(|&&g| g == 0).count(), 538351);
    assert_eq!(*big[..=100_000].iter().max().unwrap(), 14);

    let oen = as_u32(numbers_after(line("== Odd-even Nim"), "g(0..40): "));
    assert_eq!(seq("odd-even-nim", 40), oen);
    let odd_even = seq("odd-even-nim", 79);
    for p in 1..=79u64 {
        let formula = if p % 2 == 1 { p.div_ceil(2) } else { p / 2 - 1 };
        assert_eq!(odd_even[p as usize] as u64, formula);
    }

    let poly = as_u32(numbers_after(line("== Polygon game"), "g(0..60): "));
    assert_eq!(seq("polygon-chords", 60), poly);
    let losing = numbers_after(line("   losing N in [3,1000]"), "(answer 2): ");
    let p1000 = seq("polygon-chords", 1000);
    let ours: Vec<u64> = (3..=1000).filter(|&n| p1000[n as usize] == 0).collect();
    assert_eq!(ours[..losing.len()], losing[..]);

    let crosses = as_u32(numbers_after(line("== Crosses-and-crosses"), "g(1..60): "));
    assert_eq!(seq("crosses", 60)[1..], crosses[..]);
    let second = numbers_after(line("   N in [1,2000] where 2nd"), "(answer 2): ");
    let c2000 = seq("crosses", 2000);
    let ours: Vec<u64> = (1..=2000).filter(|&n| c2000[n as usize] == 0).collect();
    assert_eq!(ours, second);

    // S-Nim (Kattis snim): L = the player to move loses.
    let snim = line("== S-Nim");
    assert!(snim.contains("S={2,5} positions (5,12),(2,4,7),(2,3,7,12) -> LWW"));
    assert!(snim.contains("S={1,2,3,4,5} -> WWL"));
    for (rule, expect) in [("sub:2,5", "LWW"), ("sub:1,2,3,4,5", "WWL")] {
        let r = parse(rule).unwrap();
        let v = engine::sequence(&r, 12).unwrap();
        let got: String = [vec![5u64, 12], vec![2, 4, 7], vec![2, 3, 7, 12]]
            .iter()
            .map(|pos| match sum::analyze(&r, pos, &v).unwrap().outcome {
                sum::Outcome::P => 'L',
                sum::Outcome::N => 'W',
                sum::Outcome::D => 'D',
            })
            .collect();
        assert_eq!(got, expect, "{rule}");
    }
}

/// Treblecross on the strip itself, against `crosses` (code 0.007 shifted by 2). Marking a
/// cell within two cells of a cross lets the opponent complete three at once, so the safe
/// moves are the cells at distance >= 3 from every cross; whoever has no safe move loses.
/// This brute force works on whole boards (many gaps at once), not on the code.
#[test]
fn crosses_brute_force_on_strips() {
    fn wins(board: &mut Vec<bool>, memo: &mut BTreeMap<Vec<bool>, bool>) -> bool {
        if let Some(&w) = memo.get(board) {
            return w;
        }
        let n = board.len();
        let safe = |b: &Vec<bool>, i: usize| (i.saturating_sub(2)..(i + 3).min(n)).all(|j| !b[j]);
        let mut win = false;
        for i in 0..n {
            if !safe(board, i) {
                continue;
            }
            board[i] = true;
            let w = !wins(board, memo);
            board[i] = false;
            if w {
                win = true;
                break;
            }
        }
        memo.insert(board.clone(), win);
        win
    }
    let g = seq("crosses", 16);
    for (n, &value) in g.iter().enumerate().skip(1) {
        let mut memo = BTreeMap::new();
        assert_eq!(
            wins(&mut vec![false; n], &mut memo),
            value != 0,
            "strip of {n}"
        );
    }
}
