//! Wythoff's game against OEIS A004481, CGSuite's row (10, 0..20) and the definition.

use dashu::integer::UBig;
use grundy_core::Outcome;
use grundy_games::wythoff::{self, GrundyTable};

mod common;

use common::{cgsuite_row, data_lines};

/// The heaps a move leaves and the counters it takes from each, read from the move.
fn read(m: &grundy_core::Move) -> ((UBig, UBig), UBig, UBig) {
    let n = |v: &serde_json::Value| v.as_str().unwrap().parse::<UBig>().unwrap();
    (
        (n(&m.to.data["x"]), n(&m.to.data["y"])),
        n(&m.at["take_first"]),
        n(&m.at["take_second"]),
    )
}

/// A004481: the Grundy table read by antidiagonals.
#[test]
fn reproduces_a004481() {
    let table = GrundyTable::new(20).unwrap();
    let mut n = 0usize;
    let mut count = 0;
    'outer: for d in 0.. {
        for i in 0..=d {
            let want = data_lines(include_str!("../../../testdata/oeis/A004481.txt")).nth(n);
            let Some(line) = want else { break 'outer };
            let f: Vec<u64> = line
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            assert_eq!(f[0], n as u64);
            assert_eq!(
                table.value(i, d - i).unwrap() as u64,
                f[1],
                "n={n} ({i},{})",
                d - i
            );
            n += 1;
            count += 1;
        }
    }
    assert_eq!(count, 91);
}

#[test]
fn reproduces_cgsuite_row() {
    let text = include_str!("../../../testdata/cgsuite/other_heap_games.txt");
    let want: Vec<u32> = cgsuite_row(text, "Wythoff ");
    let table = GrundyTable::new(21).unwrap();
    let got: Vec<u32> = (0..21).map(|y| table.value(10, y).unwrap()).collect();
    assert_eq!(got, want);
}

#[test]
#[allow(clippy::needless_range_loop)]
fn table_matches_definition_and_formula() {
    let side = 120;
    let naive = wythoff::grundy_naive(side);
    let table = GrundyTable::new(side).unwrap();
    for x in 0..side {
        for y in 0..side {
            let g = table.value(x, y).unwrap();
            assert_eq!(g, naive[x][y], "({x},{y})");
            let (ux, uy) = (UBig::from(x), UBig::from(y));
            assert_eq!(wythoff::is_p_position(&ux, &uy), g == 0, "({x},{y})");
            let moves = wythoff::winning_moves(&ux, &uy);
            // Every move to a zero of the table, and no other.
            let mut want = Vec::new();
            for x2 in 0..x {
                if naive[x2][y] == 0 {
                    want.push((x2, y));
                }
            }
            for y2 in 0..y {
                if naive[x][y2] == 0 {
                    want.push((x, y2));
                }
            }
            for t in 1..=x.min(y) {
                if naive[x - t][y - t] == 0 {
                    want.push((x - t, y - t));
                }
            }
            want.sort();
            let got: Vec<(usize, usize)> = moves
                .iter()
                .map(|m| {
                    let (to, _, _) = read(m);
                    (to.0.try_into().unwrap(), to.1.try_into().unwrap())
                })
                .collect();
            assert_eq!(got, want, "({x},{y})");
        }
    }
}

#[test]
fn huge_coordinates() {
    let j = UBig::from(10u32).pow(200) + UBig::from(12345u32);
    let (a, b) = wythoff::p_position(&j);
    assert_eq!(wythoff::outcome(&a, &b), Outcome::P);
    assert_eq!(wythoff::outcome(&b, &a), Outcome::P);
    let a1 = &a + UBig::ONE;
    assert_eq!(wythoff::outcome(&a1, &b), Outcome::N);
    let moves = wythoff::winning_moves(&a1, &(&b + UBig::from(7u32)));
    assert!(!moves.is_empty());
    for m in moves {
        let (to, _, _) = read(&m);
        assert_eq!(wythoff::outcome(&to.0, &to.1), Outcome::P);
    }
    // ⌊618034·φ⌋ = 1000000 and ⌊618034·φ²⌋ = 1618034 (Python: (j + isqrt(5j²)) // 2).
    let x = UBig::from(1_000_000u32);
    let y = UBig::from(1_618_034u32);
    assert_eq!(
        wythoff::p_position(&UBig::from(618_034u32)),
        (x.clone(), y.clone())
    );
    assert_eq!(wythoff::outcome(&x, &y), Outcome::P);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Winning moves reach P-positions; P-positions have none; the floors agree with f64 on
        /// small indices and with the Beatty recurrence a(j) = mex of earlier a, b.
        #[test]
        fn moves_reach_p(x in 0u64..u64::MAX, y in 0u64..u64::MAX) {
            let (x, y) = (UBig::from(x), UBig::from(y));
            let moves = wythoff::winning_moves(&x, &y);
            prop_assert_eq!(moves.is_empty(), wythoff::is_p_position(&x, &y));
            for m in moves {
                let (to, take_first, take_second) = read(&m);
                prop_assert!(wythoff::is_p_position(&to.0, &to.1));
                prop_assert_eq!(&take_first + &to.0, x.clone());
                prop_assert_eq!(&take_second + &to.1, y.clone());
                let diag = take_first == take_second;
                prop_assert!(diag || take_first.is_zero() || take_second.is_zero());
            }
        }
    }
}

#[test]
fn beatty_sequences_partition_naturals() {
    // a(j) = mex{a(i), b(i) : i < j}, b(j) = a(j) + j.
    let mut used = std::collections::HashSet::new();
    for j in 0u64..5000 {
        let mut m = if j == 0 { 0 } else { 1 };
        while used.contains(&m) {
            m += 1;
        }
        let (a, b) = wythoff::p_position(&UBig::from(j));
        assert_eq!(a, UBig::from(m));
        assert_eq!(b, UBig::from(m + j));
        used.insert(m);
        used.insert(m + j);
    }
}

/// other_heap_games.txt: CGSuite's 2-Wythoff row (10, 0..20) and Fraenkel's r-Wythoff
/// P-positions (i = 0..14, r = 1..5), which must be exactly the zeros of the game.
#[test]
fn reproduces_r_wythoff_entries() {
    use grundy_core::Solver;
    use wythoff::RWythoff;
    let text = include_str!("../../../testdata/cgsuite/other_heap_games.txt");
    assert!(text.contains("P_i = (floor(i*alpha), floor(i*beta)), i = 0..14, r = 1..5"));
    let want: Vec<u64> = cgsuite_row(text, "2-Wythoff");
    let mut solver = Solver::new(RWythoff { r: 2 });
    let got: Vec<u64> = (0..21).map(|y| solver.grundy(&(10, y))).collect();
    assert_eq!(got, want);
    for r in 1..=5u64 {
        let mut solver = Solver::new(RWythoff { r });
        let ps: Vec<(u64, u64)> = (0u32..15)
            .map(|i| {
                let (a, b) = wythoff::r_p_position(r, &UBig::from(i));
                (a.try_into().unwrap(), b.try_into().unwrap())
            })
            .collect();
        let bound = ps.last().unwrap().0;
        for x in 0..=bound {
            for y in x..=bound + 5 {
                let zero = solver.grundy(&(x, y)) == 0;
                assert_eq!(zero, ps.contains(&(x, y)), "r={r} ({x},{y})");
            }
        }
        if r == 1 {
            for i in 0u32..15 {
                let i = UBig::from(i);
                assert_eq!(wythoff::r_p_position(1, &i), wythoff::p_position(&i));
            }
        }
    }
}
