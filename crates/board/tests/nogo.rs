//! Impartial NoGo on the engine against the plain memoised solver over whole boards
//! (`grundy_core::Solver`: every legal placement, no components, no keys), on random small
//! boards; the component rule against the brute force; and values from outside the project.

use grundy_board::engine::{Checkpoint, Options};
use grundy_board::nogo::{self, Solver};
use grundy_board::stones::{Board, Cell, Paths};
use grundy_core::{Game, Solver as Plain};
use proptest::prelude::*;
use std::time::Duration;

/// NoGo over whole boards.
struct Whole;

impl Game for Whole {
    type Position = Board;
    fn options(&self, b: &Board, out: &mut Vec<Board>) {
        for m in nogo::placements(b) {
            out.push(nogo::play(b, m));
        }
    }
}

fn opts() -> Options {
    Options {
        max_memory: 4 << 20,
        ..Options::default()
    }
}

/// The most empty points of a random board.
const MAX_EMPTY: usize = 12;

/// A random board: cells from `cells` (0, 1, 5 empty; 2 x; 3 o; 4 off), the empty points past
/// the first [`MAX_EMPTY`] off the board, then a stone of each group with no liberty emptied
/// (or taken off the board, where that would pass [`MAX_EMPTY`]) until every group has one.
fn board(rows: usize, cols: usize, cells: &[u8]) -> Board {
    let mut b = Board::from_fn(rows, cols, |r, c| match cells[r * cols + c] % 6 {
        0 | 1 | 5 => Cell::Empty,
        2 => Cell::X,
        3 => Cell::O,
        _ => Cell::Off,
    })
    .unwrap();
    // The brute force values whole boards, some 3^k positions for k empty points: past
    // MAX_EMPTY of them a case could run for hours (an all-empty 4 x 5 board is NoGo 4 x 5), so
    // the points past that become off the board.
    let mut empty = 0;
    let capped: Vec<Cell> = b
        .cells()
        .iter()
        .map(|&c| match c {
            Cell::Empty if empty >= MAX_EMPTY => Cell::Off,
            Cell::Empty => {
                empty += 1;
                c
            }
            _ => c,
        })
        .collect();
    b = b.with_cells(capped);
    while let Err(e) = nogo::check(&b) {
        // "the group at (r, c) has no liberty": empty that point (or take it off the board).
        let msg = e.to_string();
        let nums: Vec<usize> = msg
            .split(|ch: char| !ch.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let mut cells = b.cells().to_vec();
        let room = cells.iter().filter(|&&c| c == Cell::Empty).count() < MAX_EMPTY;
        cells[nums[0] * cols + nums[1]] = if room { Cell::Empty } else { Cell::Off };
        b = b.with_cells(cells);
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    #[test]
    fn random_boards(rows in 1usize..=4, cols in 1usize..=5,
                     cells in proptest::collection::vec(0u8..6, 20)) {
        let b = board(rows, cols, &cells);
        let mut plain = Plain::new(Whole);
        let want = plain.grundy(&b) as u32;
        let mut s = Solver::new(&b, opts()).unwrap();
        prop_assert_eq!(s.value(&b).unwrap(), want, "{}", b);
        // The second paths: keys without symmetry, and a row on the plane engine.
        for paths in [
            Paths { plain_keys: true, plane: false },
            Paths { plain_keys: false, plane: true },
            Paths { plain_keys: true, plane: true },
        ] {
            let mut t = Solver::with_paths(&b, opts(), paths).unwrap();
            prop_assert_eq!(t.value(&b).unwrap(), want, "{} {:?}", b, paths);
        }
        for m in nogo::placements(&b) {
            let to = nogo::play(&b, m);
            let v = plain.grundy(&to) as u32;
            prop_assert_eq!(s.value(&to).unwrap(), v, "{} after {:?}", b, m);
            prop_assert_eq!(s.is_p(&to).unwrap(), v == 0);
        }
    }

    /// The component rule: the value of a position is the XOR of its components' values,
    /// each component valued by the brute force as a board of its own (its points, every
    /// other point off the board).
    #[test]
    fn components_are_a_sum(rows in 1usize..=3, cols in 2usize..=5,
                            cells in proptest::collection::vec(0u8..6, 20)) {
        let b = board(rows, cols, &cells);
        let s = Solver::new(&b, opts()).unwrap();
        let mut plain = Plain::new(Whole);
        let mut xor = 0;
        for part in s.component_boards(&b) {
            xor ^= plain.grundy(&part);
        }
        prop_assert_eq!(xor, plain.grundy(&b), "{}", b);
    }
}

/// MCGS's results page (ualberta-mueller-group.github.io/MCGS/MCGS-results.html, computed
/// Nov 2025): impartial linear NoGo 1..=12 and the small boards (the corpus has the rest).
#[test]
fn small_published_values() {
    let line = [0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 3, 1];
    for (i, &want) in line.iter().enumerate() {
        let b = Board::parse(&".".repeat(i + 1)).unwrap();
        let mut s = Solver::new(&b, opts()).unwrap();
        assert_eq!(s.value(&b).unwrap(), want, "1x{}", i + 1);
    }
    for (rows, cols, want) in [(2, 2, 1), (2, 3, 1), (2, 4, 0), (2, 5, 0), (3, 3, 0)] {
        let b = Board::from_fn(rows, cols, |_, _| Cell::Empty).unwrap();
        let mut s = Solver::new(&b, opts()).unwrap();
        assert_eq!(s.value(&b).unwrap(), want, "{rows}x{cols}");
    }
}

/// A checkpoint saves the table while the search runs: a search cut off at its node limit
/// (which saves nothing itself) leaves a table file that a fresh solver reads back and
/// finishes from, with fewer nodes than from nothing.
#[test]
fn a_checkpoint_keeps_the_table_of_a_search_cut_off() {
    let path = std::env::temp_dir().join(format!(
        "grundy-nogo-checkpoint-{}.table",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    let b = Board::parse(&".".repeat(16)).unwrap();
    let mut whole = Solver::new(&b, opts()).unwrap();
    assert_eq!(whole.value(&b).unwrap(), 0, "1x16 (MCGS)");
    let cut = Options {
        max_nodes: Some(whole.nodes() / 2),
        check_every: 64,
        checkpoint: Some(Checkpoint {
            path: path.clone(),
            every: Duration::ZERO,
        }),
        ..opts()
    };
    let mut s = Solver::new(&b, cut).unwrap();
    assert!(s.value(&b).is_err());
    let mut resumed = Solver::new(&b, opts()).unwrap();
    assert!(resumed.load(&path).unwrap() > 0);
    assert_eq!(resumed.value(&b).unwrap(), 0);
    assert!(resumed.nodes() < whole.nodes());
    let _ = std::fs::remove_file(&path);
}
