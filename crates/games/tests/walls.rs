//! The wall-making game against the contest samples and the generic solver.

use grundy_core::solver::Solver;
use grundy_core::{Grundy, Outcome};
use grundy_games::walls::{Board, WallGame};
use proptest::prelude::*;

mod common;

/// cp_games_reference.txt: "Wall making (BOJ 11717): Second, First, First". The first two
/// sample boards (2×2 open; 2×2 with a corner X) are checked by hand in the comments; the third
/// board is transcribed from memory of the problem statement.
#[test]
fn reproduces_contest_samples() {
    let text = include_str!("../../../testdata/games/cp_games_reference.txt");
    assert!(text.contains("Wall making (BOJ 11717): Second, First, First"));
    let samples = [
        // Every choice leaves one lone cell (value 1): value mex{1} = 0.
        ("2 2\n..\n..\n", Outcome::P),
        // Choosing the cell opposite the X leaves the X alone (value 0): a win.
        ("2 2\nX.\n..\n", Outcome::N),
        ("4 5\nX....\n...X.\n.....\n.....\n", Outcome::N),
    ];
    for (text, want) in samples {
        let a = common::report("walls", text);
        assert_eq!(a.outcome, want, "{text}");
        assert_eq!(a.winning_moves.is_empty(), want == Outcome::P);
    }
}

#[test]
/// The 20×20 target size solves and its answer is self-consistent; its speed is measured in
/// `cargo bench -p grundy-games --bench games` (walls 20x20), never in a test.
fn twenty_by_twenty_board_solves() {
    let rows: Vec<String> = (0..20)
        .map(|r| {
            (0..20)
                .map(|c| if (r * 7 + c * 3) % 11 == 0 { 'X' } else { '.' })
                .collect()
        })
        .collect();
    let a = common::report("walls", &rows.join("\n"));
    assert_eq!(
        a.outcome,
        Outcome::from_grundy(a.grundy.unwrap().finite().unwrap())
    );
    assert_eq!(a.winning_moves.is_empty(), a.outcome == Outcome::P);
}

#[test]
fn parse_errors() {
    assert!(Board::parse("..\n...\n").is_err());
    assert!(Board::parse("..\n.#\n").is_err());
    assert!(Board::parse("3 3\n..\n..\n").is_err());
    assert!(Board::parse("").is_err());
}

fn random_board() -> impl Strategy<Value = Board> {
    (1usize..=6, 1usize..=6).prop_flat_map(|(r, c)| {
        proptest::collection::vec(proptest::bool::weighted(0.8), r * c)
            .prop_map(move |free| Board::new(r, c, free).unwrap())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// The rectangle table agrees with the generic solver, and the winning cells are exactly
    /// the choices that leave value 0.
    #[test]
    fn agrees_with_generic_solver(board in random_board()) {
        let a = common::report("walls", &common::board_text(&board));
        let mut solver = Solver::new(WallGame::new(board.clone()));
        let start = vec![board.full()];
        prop_assert_eq!(a.grundy.clone(), Some(Grundy::Finite(solver.grundy(&start))));
        // Different cells may leave the same rectangles: compare the positions reached.
        let mut want: Vec<Vec<_>> = solver.winning_moves(&start);
        want.sort();
        want.dedup();
        let full = board.full();
        let mut got: Vec<Vec<_>> = a
            .winning_moves
            .iter()
            .map(|m| {
                let cell = &m.at["cell"];
                let (r, c) = (cell[0].as_u64().unwrap(), cell[1].as_u64().unwrap());
                let mut v: Vec<_> = full.split(r as u8, c as u8).collect();
                v.sort();
                v
            })
            .collect();
        got.sort();
        got.dedup();
        prop_assert_eq!(got, want);
    }
}
