//! Fibonacci Nim and the k-multiplier family against reference data and the textbook DPs.

use dashu::integer::UBig;
use grundy_core::catalogue::Report;
use grundy_core::Outcome;
use grundy_games::fib::{textbook, GrundyTable, MoveTable, MultiplierNim};

mod common;

use common::{cgsuite_row, data_lines};

/// The counters a move takes, read from its `at`.
fn take(m: &grundy_core::Move) -> UBig {
    m.at["take"].as_str().unwrap().parse().unwrap()
}

/// The report of the k-multiplier game on `pile` (the opening without a limit).
fn fib(pile: &UBig, limit: Option<&UBig>, k: u64) -> Report {
    let position = match limit {
        Some(l) => format!("{pile} {l}"),
        None => pile.to_string(),
    };
    common::report(&format!("fib:{k}"), &position)
}

/// The greedy representation a report's details hold, largest term first.
fn representation(r: &Report) -> Vec<UBig> {
    let terms = r.details["representation"].as_array().unwrap();
    terms
        .iter()
        .map(|t| t.as_str().unwrap().parse().unwrap())
        .collect()
}

/// The canonical winning move's take (the smallest term), checked to be among the report's
/// winning moves; none in a P-position.
fn canonical(r: &Report) -> Option<UBig> {
    if r.outcome != Outcome::N {
        assert!(r.winning_moves.is_empty());
        return None;
    }
    let smallest = representation(r).pop().unwrap();
    assert!(r.winning_moves.iter().any(|m| take(m) == smallest), "{r:?}");
    Some(smallest)
}

/// fibonacci_nim.txt: n, W/L, the Zeckendorf move, every winning first move, the representation.
#[test]
fn reproduces_fibonacci_nim_reference() {
    let text = include_str!("../../../testdata/games/fibonacci_nim.txt");
    let game = MultiplierNim::fibonacci();
    let table = MoveTable::new(game, 200).unwrap();
    let mut count = 0;
    for line in data_lines(text) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let n: u64 = f[0].parse().unwrap();
        let a = fib(&UBig::from(n), None, 2);
        assert_eq!(a.outcome == Outcome::N, f[1] == "W", "n={n}");
        let zeck: Vec<String> = representation(&a).iter().map(|t| t.to_string()).collect();
        assert_eq!(zeck.join("+"), f[4], "n={n}");
        let canonical = canonical(&a).map(|t| t.to_string()).unwrap_or("-".into());
        assert_eq!(canonical, f[2], "n={n}");
        let listed: Vec<String> = a
            .winning_moves
            .iter()
            .map(|m| take(m).to_string())
            .collect();
        let listed = if listed.is_empty() {
            "-".to_string()
        } else {
            listed.join(",")
        };
        assert_eq!(listed, f[3], "n={n}: the report lists every winning move");
        let all: Vec<String> = table
            .winning_moves(n, n - 1)
            .iter()
            .map(|m| m.to_string())
            .collect();
        let all = if all.is_empty() {
            "-".to_string()
        } else {
            all.join(",")
        };
        assert_eq!(all, f[3], "n={n}");
        count += 1;
    }
    assert_eq!(count, 199);
}

/// other_heap_games.txt: CGSuite's FibonacciNim and TakeAway(3) rows at (10, memory 0..20);
/// memory m allows taking up to k·m.
#[test]
fn reproduces_cgsuite_memory_rows() {
    let text = include_str!("../../../testdata/cgsuite/other_heap_games.txt");
    for (name, k) in [("Fibonacci Nim", 2u64), ("TakeAway(3)", 3)] {
        let values: Vec<u32> = cgsuite_row(text, name);
        assert_eq!(values.len(), 21);
        let table = GrundyTable::new(MultiplierNim::new(k).unwrap(), 10).unwrap();
        for (memory, &want) in values.iter().enumerate() {
            assert_eq!(
                table.value(10, k * memory as u64),
                Some(want),
                "{name} memory {memory}"
            );
        }
    }
}

/// The three textbook DPs agree with each other and with the greedy representation, n ≤ 2000.
#[test]
#[allow(clippy::needless_range_loop)]
fn textbook_dps_agree_with_representation() {
    for k in 1..=5u64 {
        let n_max = 2000usize;
        let game = MultiplierNim::new(k).unwrap();
        let quadratic = textbook::smallest_winning_take(k, n_max);
        let linear = textbook::smallest_winning_take_stack(k, n_max);
        assert_eq!(quadratic, linear, "k={k}");
        let table = MoveTable::new(game, n_max as u64).unwrap();
        let grundy = GrundyTable::new(game, 300).unwrap();
        for n in 1..=n_max {
            assert_eq!(
                table.smallest_term(n as u64),
                Some(quadratic[n] as u64),
                "k={k} n={n}"
            );
            if n % 97 == 0 || n < 100 {
                let a = fib(&UBig::from(n), Some(&UBig::from(n)), k);
                assert_eq!(canonical(&a), Some(UBig::from(quadratic[n])), "k={k} n={n}");
            }
        }
        let cubic_max = n_max;
        let win = textbook::win_table(k, cubic_max);
        for (n, row) in win.iter().enumerate() {
            for (l, &w) in row.iter().enumerate() {
                assert_eq!(w, !table.is_losing(n as u64, l as u64), "k={k} n={n} l={l}");
                if n <= 300 {
                    assert_eq!(
                        w,
                        grundy.value(n as u64, l as u64) != Some(0),
                        "k={k} n={n} l={l}"
                    );
                }
            }
        }
    }
}

/// Every listed winning move really wins, and every other move loses (checked on the DP).
#[test]
fn winning_moves_match_win_table() {
    for k in 1..=4u64 {
        let n_max = 300usize;
        let win = textbook::win_table(k, n_max);
        let table = MoveTable::new(MultiplierNim::new(k).unwrap(), n_max as u64).unwrap();
        for n in 1..=n_max {
            for l in 1..=n {
                let want: Vec<u64> = (1..=l)
                    .filter(|&a| !win[n - a][(a * k as usize).min(n - a)])
                    .map(|a| a as u64)
                    .collect();
                assert_eq!(
                    table.winning_moves(n as u64, l as u64),
                    want,
                    "k={k} n={n} l={l}"
                );
            }
        }
    }
}

#[test]
fn huge_piles_answer_exactly() {
    let game = MultiplierNim::fibonacci();
    let googol = UBig::from(10u32).pow(100);
    let a = fib(&googol, None, 2);
    let terms = representation(&a);
    let sum = terms.iter().fold(UBig::ZERO, |acc, t| acc + t);
    assert_eq!(sum, googol);
    // Zeckendorf: consecutive terms are non-adjacent Fibonacci numbers (ratio > 2 for k = 2).
    for w in terms.windows(2) {
        assert!(&w[1] * 2u32 < w[0]);
    }
    // A Fibonacci pile is lost at the opening.
    let h = game.losing_sizes(&googol).unwrap();
    let f = h.last().unwrap().clone();
    assert_eq!(fib(&f, None, 2).outcome, Outcome::P);
    let b = fib(&(&f + UBig::ONE), None, 2);
    assert_eq!(canonical(&b), Some(UBig::ONE));
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Arbitrary precision and the linear table agree on every position of random piles.
        #[test]
        fn big_and_table_agree(n in 1u64..200_000, l in 0u64..200_000, k in 1u64..5) {
            let game = MultiplierNim::new(k).unwrap();
            let table = MoveTable::new(game, n).unwrap();
            let a = fib(&UBig::from(n), Some(&UBig::from(l)), k);
            prop_assert_eq!(a.outcome == Outcome::P, table.is_losing(n, l.min(n)));
            prop_assert_eq!(representation(&a).last().cloned(), table.smallest_term(n).map(UBig::from));
            let moves = table.winning_moves(n, l);
            prop_assert_eq!(moves.is_empty(), a.outcome == Outcome::P);
            let listed: Vec<u64> = a.winning_moves.iter().map(|m| u64::try_from(&take(m)).unwrap()).collect();
            prop_assert_eq!(listed, moves);
        }

        /// The canonical move leaves a position where the opponent cannot take the new smallest term.
        #[test]
        fn canonical_move_leaves_a_loss(n in 2u64..1_000_000_000_000, k in 1u64..6) {
            let a = fib(&UBig::from(n), None, k);
            if let Some(t) = canonical(&a) {
                let rest = UBig::from(n) - &t;
                let after = fib(&rest, Some(&(t * k)), k);
                prop_assert_eq!(after.outcome, Outcome::P);
            } else {
                // A losing pile is itself a single term.
                prop_assert_eq!(representation(&a).len(), 1);
            }
        }
    }
}
