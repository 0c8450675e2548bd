//! Impartial Clobber and Cannibal Clobber on the engine against the plain memoised solver
//! over whole boards (`grundy_core::Solver`, no components, no keys), on random small boards
//! and rows; and values from outside the project.

use grundy_board::clobber::{self, Solver, Variant};
use grundy_board::engine::Options;
use grundy_board::stones::{Board, Cell, Paths};
use grundy_core::{Game, Solver as Plain};
use proptest::prelude::*;

/// The game over whole boards: every move, no split.
struct Whole(Variant);

impl Game for Whole {
    type Position = Board;
    fn options(&self, b: &Board, out: &mut Vec<Board>) {
        for m in clobber::captures(self.0, b) {
            out.push(clobber::play(b, m));
        }
    }
}

fn opts() -> Options {
    Options {
        max_memory: 4 << 20,
        ..Options::default()
    }
}

fn board(rows: usize, cols: usize, cells: &[u8]) -> Board {
    Board::from_fn(rows, cols, |r, c| match cells[r * cols + c] % 4 {
        0 => Cell::Empty,
        1 | 3 => Cell::X,
        _ => Cell::O,
    })
    .unwrap()
}

fn check(variant: Variant, b: &Board) -> Result<(), TestCaseError> {
    let mut plain = Plain::new(Whole(variant));
    let want = plain.grundy(b) as u32;
    let mut s = Solver::new(variant, b, opts()).unwrap();
    prop_assert_eq!(s.value(b).unwrap(), want, "{} {}", variant.name(), b);
    // The second path: keys without symmetry.
    let paths = Paths {
        plain_keys: true,
        plane: false,
    };
    let mut t = Solver::with_paths(variant, b, opts(), paths).unwrap();
    prop_assert_eq!(
        t.value(b).unwrap(),
        want,
        "{} {} plain keys",
        variant.name(),
        b
    );
    // Every move's value, and the P-questions.
    for m in clobber::captures(variant, b) {
        let to = clobber::play(b, m);
        let v = plain.grundy(&to) as u32;
        prop_assert_eq!(
            s.value_after(b, m, false).unwrap(),
            v,
            "{} after {:?}",
            b,
            m
        );
        prop_assert_eq!(s.wins(b, m).unwrap(), v == 0);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_boards(rows in 2usize..=4, cols in 2usize..=4,
                     cells in proptest::collection::vec(0u8..4, 16)) {
        let b = board(rows, cols, &cells);
        check(Variant::Clobber, &b)?;
        check(Variant::Cannibal, &b)?;
    }

    #[test]
    fn random_rows(len in 1usize..=14, cells in proptest::collection::vec(0u8..4, 14)) {
        let b = board(1, len, &cells);
        check(Variant::Clobber, &b)?;
        check(Variant::Cannibal, &b)?;
        // A column is the same game as the row.
        let col = b.transposed();
        let mut s = Solver::new(Variant::Clobber, &col, opts()).unwrap();
        let mut plain = Plain::new(Whole(Variant::Clobber));
        prop_assert_eq!(s.value(&col).unwrap() as u64, plain.grundy(&b));
    }

    #[test]
    fn full_rows(len in 2usize..=16, cells in proptest::collection::vec(1u8..3, 16)) {
        // Rows without gaps: the line engine's segments and their modified ends.
        let b = board(1, len, &cells);
        check(Variant::Clobber, &b)?;
    }
}

/// Long rows, where the line engine sweeps from short segments up: the same values as the
/// plane engine where both apply, and the rows' values against a second line engine that is
/// asked about each row alone.
#[test]
fn long_rows_agree() {
    for text in [
        "(xo)^40",
        "(xxo)^30",
        "(xxxo)^25",
        "x(xo)^30o",
        "(xoo)^20x(ox)^10",
    ] {
        let b = Board::parse(text).unwrap();
        let mut s = Solver::new(Variant::Clobber, &b, opts()).unwrap();
        let v = s.value(&b).unwrap();
        // The same row inside a longer one: a segment of another starting row.
        let longer = Board::parse(&format!("{text}.xo")).unwrap();
        let mut t = Solver::new(Variant::Clobber, &longer, opts()).unwrap();
        assert_eq!(t.value(&longer).unwrap(), v ^ 1, "{text}");
    }
}

/// Values published by MCGS's test suite for small cases (the corpus has the full tables).
#[test]
fn small_published_values() {
    // MCGS input/impartial/impartial-easy/impartial_clobber_1xn_xo.test: (xo)^n, n = 1..8.
    let xo = [1, 3, 0, 2, 0, 2, 0, 3];
    for (i, &want) in xo.iter().enumerate() {
        let b = Board::parse(&format!("(xo)^{}", i + 1)).unwrap();
        let mut s = Solver::new(Variant::Clobber, &b, opts()).unwrap();
        assert_eq!(s.value(&b).unwrap(), want, "(xo)^{}", i + 1);
    }
    // impartial_cannibal_clobber_1xn.test: x^n, n = 1..12.
    let xn = [0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0];
    for (i, &want) in xn.iter().enumerate() {
        let b = Board::parse(&format!("x^{}", i + 1)).unwrap();
        let mut s = Solver::new(Variant::Cannibal, &b, opts()).unwrap();
        assert_eq!(s.value(&b).unwrap(), want, "x^{}", i + 1);
    }
    // impartial_clobber.test: 2xn checkerboards n = 2..9, 3xn n = 2..5, 4x3, 4x4.
    let grids = [
        ("XO|OX", 0),
        ("XOX|OXO", 0),
        ("XOXO|OXOX", 0),
        ("XOXOX|OXOXO", 0),
        ("XOXOXO|OXOXOX", 0),
        ("XOXOXOX|OXOXOXO", 1),
        ("XOXOXOXO|OXOXOXOX", 0),
        ("XOXOXOXOX|OXOXOXOXO", 0),
        ("XO|OX|XO", 0),
        ("XOX|OXO|XOX", 1),
        ("XOXO|OXOX|XOXO", 0),
        ("XOXOX|OXOXO|XOXOX", 1),
        ("XOX|OXO|XOX|OXO", 0),
        ("XOXO|OXOX|XOXO|OXOX", 0),
    ];
    for (text, want) in grids {
        let b = Board::parse(text).unwrap();
        let mut s = Solver::new(Variant::Clobber, &b, opts()).unwrap();
        assert_eq!(s.value(&b).unwrap(), want, "{text}");
    }
}
