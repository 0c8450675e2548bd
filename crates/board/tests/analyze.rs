//! `cram::analyze`, the call behind `grundy cram`: values of `testdata/games/cram.txt` (Beling's
//! igsolve README table) on small boards, the budget's caps, the stop flag, and a table saved
//! to a file and resumed.

use grundy_board::cram::{self, Board, CramOptions};
use grundy_board::engine::{Engine, Options, Rules};
use grundy_board::graph::Graph;
use grundy_core::catalogue::ErrorKind;
use grundy_core::Budget;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// A fresh path in the temporary directory for this test.
fn scratch(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!(
        "grundy-board-analyze-{}-{name}.table",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&p);
    p
}

#[path = "../../../testdata/games/cram_table.rs"]
mod cram_table;
use cram_table::reference;

#[test]
fn solves_the_reference_boards_up_to_30_cells() {
    let mut checked = 0;
    for (r, c, v) in reference() {
        if r * c <= 30 {
            for mirror in [true, false] {
                let o = CramOptions {
                    mirror,
                    ..CramOptions::default()
                };
                let a = cram::analyze(&Board::rectangle(r, c).unwrap(), &o, None).unwrap();
                assert_eq!(a.grundy, v, "{r}x{c} mirror {mirror}");
                assert_eq!(a.winning_moves.is_empty(), v == 0, "{r}x{c}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked}");
}

#[test]
fn mirror_boards_and_the_shortcut_switch() {
    let a = cram::analyze(&Board::parse("8x8").unwrap(), &CramOptions::default(), None).unwrap();
    assert!(a.mirror_strategy);
    assert_eq!((a.grundy, a.positions), (0, 0), "settled without search");
    let o = CramOptions {
        mirror: false,
        ..CramOptions::default()
    };
    let a = cram::analyze(&Board::parse("4x4").unwrap(), &o, None).unwrap();
    assert!(!a.mirror_strategy);
    assert_eq!(a.grundy, 0);
    assert!(a.positions > 0, "searched, not recognised");
    // Symmetric, but a domino covers the centre cell and its neighbour: no shortcut.
    assert!(!Board::parse("3x3").unwrap().mirror_zero());
    assert!(Board::parse("..##|##..").unwrap().mirror_zero());
    assert!(!Board::parse("..#|#..").unwrap().mirror_zero());
    assert!(!Board::parse("1x1").unwrap().mirror_zero());
}

#[test]
fn winning_moves_leave_p_positions() {
    let board = Board::parse(".........|##.######").unwrap();
    let a = cram::analyze(&board, &CramOptions::default(), None).unwrap();
    assert_eq!(a.grundy, 4, "CGSuite's GameGridTest");
    for m in &a.winning_moves {
        let to = Board::parse(&m.to.text).unwrap();
        let b = cram::analyze(&to, &CramOptions::default(), None).unwrap();
        assert_eq!(b.grundy, 0, "{}", m.text);
    }
}

#[test]
fn budget_caps_are_limits_naming_the_cap() {
    let board = Board::parse("5x6").unwrap();
    let o = CramOptions {
        budget: Budget::positions(1000),
        ..CramOptions::default()
    };
    let e = cram::analyze(&board, &o, None).unwrap_err();
    assert!(e.is_limit());
    assert_eq!(e.parameter, Some("max_positions"));
    assert!(e.to_string().contains("board 5x6"), "{e}");
    assert!(e.to_string().contains("1000 positions"), "{e}");
    let o = CramOptions {
        budget: DEFAULT.with_bytes(64 << 10),
        ..CramOptions::default()
    };
    let e = cram::analyze(&board, &o, None).unwrap_err();
    assert!(e.is_limit());
    assert_eq!(e.parameter, Some("max_bytes"));
    assert!(e.to_string().contains("64 KiB"), "{e}");
    assert!(!e.to_string().contains('\n'));
}

const DEFAULT: Budget = cram::DEFAULT_BUDGET;

#[test]
fn a_raised_stop_flag_is_a_clean_stop() {
    let board = Board::parse("5x6").unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(AtomicU64::new(0));
    let (flag, count) = (stop.clone(), seen.clone());
    let watch: cram::Watch = Box::new(move |p| {
        count.store(p.nodes, Ordering::Relaxed);
        flag.store(true, Ordering::Relaxed);
    });
    let table = scratch("stop");
    let o = CramOptions {
        stop: Some(stop),
        table: Some(table.clone()),
        ..CramOptions::default()
    };
    let e = cram::analyze(&board, &o, Some(watch)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Stopped, "{e}");
    assert!(
        e.to_string().starts_with("board 5x6: stopped after "),
        "{e}"
    );
    assert!(e.to_string().contains("keeps what it learned"), "{e}");
    assert!(seen.load(Ordering::Relaxed) > 0);
    // The table was kept: the next run resumes from it and finishes.
    let o = CramOptions {
        table: Some(table.clone()),
        ..CramOptions::default()
    };
    let a = cram::analyze(&board, &o, None).unwrap();
    assert_eq!(a.grundy, 2, "cram.txt: 5x6");
    assert!(a.resumed > 0);
    let _ = std::fs::remove_file(&table);
}

#[test]
fn a_saved_table_resumes_with_fewer_nodes() {
    let board = Board::parse("5x6").unwrap();
    let table = scratch("resume");
    let o = CramOptions {
        table: Some(table.clone()),
        ..CramOptions::default()
    };
    // Stopped at its node limit, the search keeps its table too.
    let short = CramOptions {
        budget: Budget::positions(20_000),
        ..o.clone()
    };
    assert!(cram::analyze(&board, &short, None).unwrap_err().is_limit());
    assert!(table.exists());
    let _ = std::fs::remove_file(&table);
    let first = cram::analyze(&board, &o, None).unwrap();
    assert_eq!(first.resumed, 0);
    let second = cram::analyze(&board, &o, None).unwrap();
    assert!(second.resumed > 0);
    assert!(
        second.positions < first.positions,
        "{} then {}",
        first.positions,
        second.positions
    );
    assert_eq!(
        (second.grundy, &second.winning_moves),
        (first.grundy, &first.winning_moves)
    );
    assert!(second.describe().contains("entries read back"));
    // A table of shapes serves every board: 5x7 reads it too.
    let other = cram::analyze(&Board::parse("4x5").unwrap(), &o, None).unwrap();
    assert_eq!(other.grundy, 2);
    let _ = std::fs::remove_file(&table);
}

#[test]
fn a_table_of_another_game_or_no_table_is_refused() {
    let board = Board::parse("3x4").unwrap();
    let table = scratch("wrong");
    let g = Graph::grid(3, 4).unwrap();
    let mut nk = Engine::new(Rules::NodeKayles, g.clone(), Options::default()).unwrap();
    nk.grundy(g.all()).unwrap();
    nk.save(&table).unwrap();
    let o = CramOptions {
        table: Some(table.clone()),
        ..CramOptions::default()
    };
    let e = cram::analyze(&board, &o, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Input, "{e}");
    assert!(e.to_string().contains("node-kayles"), "{e}");
    for junk in [
        &b""[..],
        b"hello, world",
        b"GRBTT001\x12\0\0\0arc-kayles lattice\x05\0",
    ] {
        std::fs::write(&table, junk).unwrap();
        let e = cram::analyze(&board, &o, None).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Input, "{e}");
        assert!(e.to_string().contains("not a saved"), "{e}");
        assert!(!e.to_string().contains('\n'));
    }
    let _ = std::fs::remove_file(&table);
}

/// A board's placements are the adjacent pairs of empty cells, and its regions the pieces
/// the empty cells fall into, counted on boards drawn by hand.
#[test]
fn placements_and_regions() {
    let b = Board::parse("..#|.##|#..").unwrap();
    // (0,0)-(0,1), (0,0)-(1,0), (2,1)-(2,2).
    assert_eq!(b.placements(), vec![(0, 1), (0, 3), (7, 8)]);
    assert_eq!(b.regions(), 2);
    assert_eq!(Board::rectangle(1, 128).unwrap().regions(), 1);
    assert_eq!(Board::rectangle(1, 128).unwrap().placements().len(), 127);
    assert_eq!(Board::parse(".#.|#.#|.#.").unwrap().regions(), 5);
    assert_eq!(Board::parse("##|##").unwrap().regions(), 0);
    assert_eq!(
        Board::rectangle(4, 5).unwrap().placements().len(),
        4 * 4 + 3 * 5
    );
}
