//! The card game against the contest samples and exhaustive minimax.

use grundy_games::cards::{self, End};
use proptest::prelude::*;

/// cp_games_reference.txt: "Card game (BOJ 11062): [4,7,2,9] -> first player max score 16; [1,2,5,2] -> 6".
#[test]
fn reproduces_contest_samples() {
    let text = include_str!("../../../testdata/games/cp_games_reference.txt");
    let line = text.lines().find(|l| l.contains("Card game")).unwrap();
    assert!(line.contains("[4,7,2,9] -> first player max score 16"));
    assert!(line.contains("[1,2,5,2] -> 6"));
    assert_eq!(cards::analyze(&[4, 7, 2, 9]).unwrap().first_total, 16);
    assert_eq!(cards::analyze(&[1, 2, 5, 2]).unwrap().first_total, 6);
}

#[test]
fn large_row_is_quick_and_consistent() {
    let row: Vec<i64> = (0..5000u64)
        .map(|i| ((i * 7919 + 13) % 1000) as i64 - 300)
        .collect();
    let a = cards::analyze(&row).unwrap();
    assert_eq!(a.line.len(), 5000);
    let first: i64 = a
        .line
        .iter()
        .filter(|t| t.player == 1)
        .map(|t| t.value)
        .sum();
    assert_eq!(first, a.first_total);
    assert_eq!(a.first_total + a.second_total, row.iter().sum::<i64>());
}

proptest! {
    /// The DP total equals exhaustive minimax, the line realises it, and each listed best
    /// first move really is optimal.
    #[test]
    fn dp_matches_minimax(row in proptest::collection::vec(-50i64..100, 0..14)) {
        let a = cards::analyze(&row).unwrap();
        let brute = cards::first_total_brute_force(&row);
        prop_assert_eq!(a.first_total, brute);
        let first: i64 = a.line.iter().filter(|t| t.player == 1).map(|t| t.value).sum();
        prop_assert_eq!(first, a.first_total);
        // Every step of the line is optimal for its mover.
        let (mut i, mut j) = (0usize, row.len());
        for t in &a.line {
            let here = cards::first_total_brute_force(&row[i..j]);
            let rest_total: i64 = row[i..j].iter().sum::<i64>() - t.value;
            let (ni, nj) = if t.end == End::Left { (i + 1, j) } else { (i, j - 1) };
            let got = t.value + rest_total - cards::first_total_brute_force(&row[ni..nj]);
            prop_assert_eq!(got, here);
            i = ni;
            j = nj;
        }
        for m in &a.optimal_moves {
            let total: i64 = row.iter().sum();
            let left = m.at["end"] == "left";
            let rest = [m.at["rest"][0].as_u64().unwrap() as usize, m.at["rest"][1].as_u64().unwrap() as usize];
            prop_assert_eq!(&row[rest[0]..rest[1]], if left { &row[1..] } else { &row[..row.len() - 1] });
            let (v, rest) = if left {
                (row[0], &row[1..])
            } else {
                (row[row.len() - 1], &row[..row.len() - 1])
            };
            prop_assert_eq!(m.at["value"].as_i64().unwrap(), v);
            prop_assert_eq!(v + (total - v) - cards::first_total_brute_force(rest), brute);
        }
    }
}
