//! The card game against the contest samples and exhaustive minimax.

use grundy_core::catalogue::Report;
use grundy_games::cards;
use proptest::prelude::*;

mod common;

/// The report of a row of cards.
fn report(row: &[i64]) -> Report {
    let text: Vec<String> = row.iter().map(i64::to_string).collect();
    common::report("cards", &text.join(" "))
}

/// A detail of a card game's report, as a whole number.
fn total(r: &Report, key: &str) -> i64 {
    r.details[key].as_i64().unwrap()
}

/// The optimal line of a report: (player, end is left, value) each turn.
fn line(r: &Report) -> Vec<(u64, bool, i64)> {
    let turns = r.details["line"].as_array().unwrap();
    turns
        .iter()
        .map(|t| {
            let player = t["player"].as_u64().unwrap();
            (player, t["end"] == "left", t["value"].as_i64().unwrap())
        })
        .collect()
}

/// cp_games_reference.txt: "Card game (BOJ 11062): [4,7,2,9] -> first player max score 16; [1,2,5,2] -> 6".
#[test]
fn reproduces_contest_samples() {
    let text = include_str!("../../../testdata/games/cp_games_reference.txt");
    let line = text.lines().find(|l| l.contains("Card game")).unwrap();
    assert!(line.contains("[4,7,2,9] -> first player max score 16"));
    assert!(line.contains("[1,2,5,2] -> 6"));
    assert_eq!(total(&report(&[4, 7, 2, 9]), "first_total"), 16);
    assert_eq!(total(&report(&[1, 2, 5, 2]), "first_total"), 6);
}

#[test]
fn large_row_is_quick_and_consistent() {
    let row: Vec<i64> = (0..5000u64)
        .map(|i| ((i * 7919 + 13) % 1000) as i64 - 300)
        .collect();
    let a = report(&row);
    let line = line(&a);
    assert_eq!(line.len(), 5000);
    let first: i64 = line.iter().filter(|t| t.0 == 1).map(|t| t.2).sum();
    assert_eq!(first, total(&a, "first_total"));
    let both = total(&a, "first_total") + total(&a, "second_total");
    assert_eq!(both, row.iter().sum::<i64>());
}

proptest! {
    /// The DP total equals exhaustive minimax, the line realises it, and each listed best
    /// first move really is optimal.
    #[test]
    fn dp_matches_minimax(row in proptest::collection::vec(-50i64..100, 0..14)) {
        let a = report(&row);
        let brute = cards::first_total_brute_force(&row);
        prop_assert_eq!(total(&a, "first_total"), brute);
        let turns = line(&a);
        let first: i64 = turns.iter().filter(|t| t.0 == 1).map(|t| t.2).sum();
        prop_assert_eq!(first, brute);
        // Every step of the line is optimal for its mover.
        let (mut i, mut j) = (0usize, row.len());
        for &(_, left, value) in &turns {
            let here = cards::first_total_brute_force(&row[i..j]);
            let rest_total: i64 = row[i..j].iter().sum::<i64>() - value;
            let (ni, nj) = if left { (i + 1, j) } else { (i, j - 1) };
            let got = value + rest_total - cards::first_total_brute_force(&row[ni..nj]);
            prop_assert_eq!(got, here);
            i = ni;
            j = nj;
        }
        // A winning move keeps at least half of the row for its player.
        let sum: i64 = row.iter().sum();
        for m in &a.winning_moves {
            let left = m.at["end"] == "left";
            let (v, rest) = if left {
                (row[0], &row[1..])
            } else {
                (row[row.len() - 1], &row[..row.len() - 1])
            };
            prop_assert_eq!(m.at["value"].as_i64().unwrap(), v);
            prop_assert!(2 * (v + (sum - v) - cards::first_total_brute_force(rest)) >= sum);
        }
        // The optimal first moves secure the best total.
        for end in a.details["optimal"].as_array().unwrap() {
            let left = end == "left";
            let (v, rest) = if left {
                (row[0], &row[1..])
            } else {
                (row[row.len() - 1], &row[..row.len() - 1])
            };
            prop_assert_eq!(v + (sum - v) - cards::first_total_brute_force(rest), brute);
        }
    }
}
