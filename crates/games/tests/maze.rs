//! The maze engine against the generic solver and the open-board formula G = x XOR y.

use grundy_core::solver::Solver;
use grundy_core::{Grundy, Outcome};
use grundy_games::maze::{self, Maze};
use proptest::prelude::*;

mod common;

fn random_maze() -> impl Strategy<Value = Maze> {
    (1usize..=12, 1usize..=12, 0u32..60).prop_flat_map(|(r, c, density)| {
        proptest::collection::vec(0u32..100, r * c).prop_map(move |cells| {
            let wall: Vec<bool> = cells.iter().map(|&x| x < density).collect();
            Maze::new(r, c, wall, None).unwrap()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every floor cell's value equals the generic solver's, on random mazes up to 12×12.
    #[test]
    fn agrees_with_generic_solver(m in random_maze()) {
        let values = m.grundy_values();
        let mut solver = Solver::new(m.clone());
        for r in 0..m.rows() {
            for c in 0..m.cols() {
                if m.is_wall((r, c)) {
                    prop_assert_eq!(values.get((r, c)), None);
                } else {
                    prop_assert_eq!(values.get((r, c)), Some(solver.grundy(&(r, c))));
                }
            }
        }
    }

    /// A sum's winning moves are exactly those that leave a zero nim-sum.
    #[test]
    fn sum_moves_are_winning(ms in proptest::collection::vec((random_maze(), 0usize..144), 1..4)) {
        let mut mazes = Vec::new();
        for (m, k) in ms {
            let floor: Vec<(usize, usize)> = (0..m.rows())
                .flat_map(|r| (0..m.cols()).map(move |c| (r, c)))
                .filter(|&p| !m.is_wall(p))
                .collect();
            let fig = if floor.is_empty() { None } else { Some(floor[k % floor.len()]) };
            let wall = (0..m.rows() * m.cols()).map(|i| m.is_wall((i / m.cols(), i % m.cols()))).collect();
            mazes.push(Maze::new(m.rows(), m.cols(), wall, fig).unwrap());
        }
        let a = common::report("maze", &common::maze_text(&mazes));
        let values: Vec<maze::Values> = mazes.iter().map(Maze::grundy_values).collect();
        let fig = |i: usize| mazes[i].figure().and_then(|f| values[i].get(f));
        let g = (0..mazes.len()).filter_map(fig).fold(0, |x, v| x ^ v);
        prop_assert_eq!(a.grundy.clone(), Some(Grundy::Finite(g)));
        let mut solver_count = 0usize;
        for (i, m) in mazes.iter().enumerate() {
            let Some(from) = m.figure() else { continue };
            for to in m.moves_from(from) {
                let after = g ^ fig(i).unwrap() ^ values[i].get(to).unwrap();
                if after == 0 {
                    solver_count += 1;
                    prop_assert!(a.winning_moves.iter().any(|w| w.at["maze"] == i && w.at["cell"] == serde_json::json!([to.0, to.1])));
                }
            }
        }
        prop_assert_eq!(solver_count, a.winning_moves.len());
        prop_assert_eq!(a.outcome == Outcome::P, g == 0);
    }
}

#[test]
fn open_maze_is_xor() {
    let m = Maze::open(130, 97).unwrap();
    let v = m.grundy_values();
    for r in 0..130 {
        for c in 0..97 {
            assert_eq!(v.get((r, c)), Some((r ^ c) as u64));
        }
    }
}

#[test]
fn text_sum_with_winning_move() {
    let file = "....\n.#..\n...@\n\n@..\n...\n";
    let mazes = maze::parse_mazes(file).unwrap();
    assert_eq!(mazes.len(), 2);
    let a = common::report("maze", file);
    assert_eq!(a.details["mazes"][1]["grundy"], 0);
    let g0 = a.details["mazes"][0]["grundy"].as_u64().unwrap();
    assert_eq!(a.grundy, Some(Grundy::Finite(g0)));
    assert_eq!(a.outcome, Outcome::from_grundy(g0));
    assert!(!a.winning_moves.is_empty());
    let values = mazes[0].grundy_values();
    for w in &a.winning_moves {
        assert_eq!(w.at["maze"], 0);
        assert_eq!(
            values.get((
                w.at["cell"][0].as_u64().unwrap() as usize,
                w.at["cell"][1].as_u64().unwrap() as usize
            )),
            Some(0)
        );
        assert!(
            w.text.starts_with("in maze 1, move the figure"),
            "{}",
            w.text
        );
        // The position left, read back, is the sum with the figure moved: a P-position.
        assert_eq!(w.to.kind, "mazes");
        assert_eq!(common::report("maze", &w.to.text).outcome, Outcome::P);
    }
}
