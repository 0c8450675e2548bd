//! Cram against the published table (beling/impartial-games), CGSuite's test, and the
//! unreduced game on random small boards: the board search engine (`grundy_board::cram`, what
//! `grundy cram` and the registry's `cram` run) and this crate's reduced solver ([`Cram`], the
//! misère search and the engine's independent oracle). Chomp against exhaustive recursion.

use grundy_board::cram::{self as engine, Board};
use grundy_core::catalogue::{Ask, Detail, Play, Report};
use grundy_core::{Outcome, Solver};
use grundy_games::chomp::{self, Chomp, Staircase};
use grundy_games::cram::{Cram, PlainCram, Shape};
use proptest::prelude::*;

#[path = "../../../testdata/games/cram_table.rs"]
mod cram_table;
use cram_table::reference;

/// Searches without a node limit, with or without the mirror shortcut.
fn unlimited(mirror: bool) -> Ask {
    let ask = Ask::new(Play::Normal).budget(grundy_core::Budget::UNLIMITED.with_bytes(1 << 28));
    if mirror {
        ask
    } else {
        ask.set("no-mirror", "true")
    }
}

/// A report's value.
fn value(r: &Report) -> u64 {
    r.grundy.as_ref().and_then(|g| g.finite()).unwrap()
}

/// The engine's board for a shape.
fn board(s: &Shape) -> Board {
    Board::parse(&s.to_text()).unwrap()
}

/// Every board's analysis by the engine, with the mirror shortcut and no node limit.
fn analyze(s: &Shape) -> Report {
    engine::ask(&board(s), &unlimited(true)).unwrap()
}

fn solve(r: usize, c: usize) -> u64 {
    let ask = unlimited(true).detail(Detail::Value);
    value(&engine::ask(&Board::rectangle(r, c).unwrap(), &ask).unwrap())
}

/// Without the mirror shortcut: even × even boards are searched, not recognised.
fn solve_plain(r: usize, c: usize) -> u64 {
    let ask = unlimited(false).detail(Detail::Value);
    value(&engine::ask(&Board::rectangle(r, c).unwrap(), &ask).unwrap())
}

/// Every entry of cram.txt with at most 24 cells (4×4 … 4×6, 5×5 is not in range): fast.
#[test]
fn reproduces_reference_small() {
    let mut checked = 0;
    for (r, c, v) in reference() {
        if r * c <= 24 {
            assert_eq!(solve(r, c), v, "{r}x{c}");
            assert_eq!(solve_plain(r, c), v, "{r}x{c} without the mirror shortcut");
            let shape = Shape::rectangle(r, c).unwrap();
            assert_eq!(
                Solver::new(Cram::default()).grundy(&shape),
                v,
                "{r}x{c} oracle"
            );
            checked += 1;
        }
    }
    assert!(checked >= 3);
}

/// The entries up to 4×8 and 5×6 with the mirror shortcut (a few seconds).
#[test]
fn reproduces_reference_up_to_4x8_and_5x6() {
    let mut checked = 0;
    for (r, c, v) in reference() {
        if (r == 4 && c <= 8) || (r == 5 && c <= 6) {
            assert_eq!(solve(r, c), v, "{r}x{c}");
            checked += 1;
        }
    }
    assert_eq!(checked, 7);
}

/// The same by plain search (no mirror shortcut). Run with
/// `cargo test -p grundy-games --release --test cram -- --ignored` (about 30 s).
#[test]
#[ignore]
fn reproduces_reference_up_to_4x8_and_5x6_plain() {
    for (r, c, v) in reference() {
        if (r == 4 && c <= 8) || (r == 5 && c <= 6) {
            assert_eq!(solve_plain(r, c), v, "{r}x{c}");
        }
    }
}

/// graph_grid.txt: Cram(".........|##.######") = *4.
#[test]
fn reproduces_cgsuite_grid() {
    let text = include_str!("../../../testdata/cgsuite/graph_grid.txt");
    assert!(text.contains(r#"Cram(".........|##.######") = *4"#));
    let board = Shape::parse(".........|##.######").unwrap();
    assert_eq!(value(&analyze(&board)), 4);
}

/// Small rectangles against known values: 1×n is Dawson's Kayles-like 0.07 (n cells → value of
/// 0.07 heap n), 2×2 = 0, 3×3 = 0 … checked via the unreduced game instead of literature.
#[test]
fn small_rectangles_match_unreduced_game() {
    for r in 1..=3 {
        for c in r..=5 {
            let board = Shape::rectangle(r, c).unwrap();
            let plain = Solver::new(PlainCram).grundy(&board);
            assert_eq!(value(&analyze(&board)), plain, "{r}x{c}");
        }
    }
}

fn random_board() -> impl Strategy<Value = Shape> {
    (1usize..=4, 1usize..=4).prop_flat_map(|(r, c)| {
        any::<u64>().prop_map(move |bits| Shape::new(r, c, bits | bits >> 7).unwrap())
    })
}

/// Boards symmetric under the half-turn (the mirror shortcut's domain), up to 4×5.
fn symmetric_board() -> impl Strategy<Value = Shape> {
    (1usize..=4, 1usize..=5).prop_flat_map(|(r, c)| {
        any::<u64>().prop_map(move |bits| {
            let n = r * c;
            let x = bits & (u64::MAX >> (64 - n));
            let rot = x.reverse_bits() >> (64 - n);
            Shape::new(r, c, x | rot).unwrap()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The mirror shortcut never changes a value (checked where it applies most: on
    /// symmetric boards), and its condition implies value 0.
    #[test]
    fn mirror_shortcut_is_sound(board in symmetric_board()) {
        let plain = Solver::new(PlainCram).grundy(&board);
        prop_assert_eq!(value(&analyze(&board)), plain);
        prop_assert_eq!(Solver::new(Cram::default()).grundy(&board), plain);
        if board.is_mirror_zero() {
            prop_assert_eq!(plain, 0);
        }
    }

    /// Reductions (dead cells, cropping, symmetry, splitting) never change a value, and the
    /// winning placements are exactly those leaving value 0.
    #[test]
    fn reductions_preserve_values(board in random_board()) {
        let mut plain = Solver::new(PlainCram);
        let a = analyze(&board);
        let g = value(&a);
        prop_assert_eq!(g, plain.grundy(&board));
        prop_assert_eq!(Solver::new(Cram { mirror: false }).grundy(&board), g);
        let w = board.width();
        let mut want = Vec::new();
        for (x, y) in board.placements() {
            if plain.grundy(&board.place(x, y)) == 0 && g != 0 {
                want.push(((x / w, x % w), (y / w, y % w)));
            }
        }
        let got: Vec<_> = a
            .winning_moves
            .iter()
            .map(|m| serde_json::from_value::<[(usize, usize); 2]>(m.at["cells"].clone()).unwrap())
            .map(|[a, b]| (a, b))
            .collect();
        prop_assert_eq!(got, want);
    }

    /// Chomp: the solver's outcome equals exhaustive recursion on staircases up to 4×4, and
    /// every winning bite leaves a lost position.
    #[test]
    fn chomp_matches_recursion(rows in 1usize..=4, cols in 1usize..=4, cuts in proptest::collection::vec((0usize..4, 1usize..4), 0..3)) {
        let mut pos = Staircase::rectangle(rows, cols).unwrap();
        for (r, c) in cuts {
            if let Some(p) = pos.bite(r, c) { pos = p; }
        }
        let mut solver = Solver::new(Chomp);
        prop_assert_eq!(solver.outcome(&pos), chomp::outcome_brute_force(&pos.rows()));
        for next in solver.winning_moves(&pos) {
            prop_assert_eq!(chomp::outcome_brute_force(&next.rows()), Outcome::P);
        }
    }
}

#[test]
fn chomp_rectangles_are_first_player_wins() {
    for r in 1..=6 {
        for c in 1..=7 {
            let a = chomp::analyze(r, c, &chomp::DEFAULT_BUDGET).unwrap();
            let want = if (r, c) == (1, 1) {
                Outcome::P
            } else {
                Outcome::N
            };
            assert_eq!(a.outcome, want, "{r}x{c}");
            assert_eq!(a.winning_moves.is_empty(), want == Outcome::P);
            // Exhaustive recursion is exponential: small bars only.
            if r <= 4 && c <= 4 {
                for m in &a.winning_moves {
                    let rows: Vec<usize> =
                        serde_json::from_value(m.to.data["rows"].clone()).unwrap();
                    assert_eq!(chomp::outcome_brute_force(&rows), Outcome::P, "{r}x{c}");
                }
            }
        }
    }
}

/// The registry's `cram` takes the engine's boards of up to 128 cells: a 1 × n strip is
/// Dawson's Kayles (octal 0.07) on n, whose value is OEIS A002187(n − 1) (the file in
/// `testdata/oeis`), and the strip's winning moves are those the analysis lists.
#[test]
fn registry_cram_takes_128_cells() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/oeis/A002187.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let a: Vec<u64> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    let entries = grundy_games::entries();
    let entry = entries.iter().find(|e| e.matches("cram")).unwrap();
    let mut rules = entry.open("cram").unwrap();
    let budget = grundy_core::Budget::default();
    for n in [65usize, 100, 127, 128] {
        let pos = rules.parse(&format!("1x{n}")).unwrap();
        assert_eq!(pos.text, format!("1x{n}"));
        let r = rules
            .analyze(
                &pos,
                &grundy_core::catalogue::Ask::new(grundy_core::catalogue::Play::Normal)
                    .budget(budget),
            )
            .unwrap();
        assert_eq!(
            r.grundy,
            Some(grundy_core::Grundy::Finite(a[n - 1])),
            "1x{n}"
        );
        for m in &r.winning_moves {
            let after = rules.parse(&m.to.text).unwrap();
            let v = rules
                .analyze(
                    &after,
                    &grundy_core::catalogue::Ask::new(grundy_core::catalogue::Play::Normal)
                        .budget(budget),
                )
                .unwrap();
            assert_eq!(v.grundy, Some(grundy_core::Grundy::Finite(0)), "{}", m.text);
        }
    }
    // A 10 × 13 board has 130 cells: one line naming the limit.
    let e = rules.parse("10x13").unwrap_err().to_string();
    assert!(e.contains("130 cells") && e.contains("128"), "{e}");
    // Misère play searches boards of at most 64 cells.
    let pos = rules.parse("5x13").unwrap();
    let e = rules
        .analyze(
            &pos,
            &grundy_core::catalogue::Ask::new(grundy_core::catalogue::Play::Misere).budget(budget),
        )
        .unwrap_err();
    assert!(e.to_string().contains("misère"), "{e}");
}
