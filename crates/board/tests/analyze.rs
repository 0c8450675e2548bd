//! `cram::ask`, the call behind `grundy cram` and the registry's `cram`: values of
//! `testdata/games/cram.txt` (Beling's igsolve README table) on small boards at every detail,
//! the budget's caps, the stop flag, and a table saved to a file and resumed.

use grundy_board::cram::{self, Board};
use grundy_board::engine::{Engine, Options, Rules, CHECKPOINT_EVERY};
use grundy_board::graph::Graph;
use grundy_core::catalogue::{Ask, Detail, ErrorKind, Play, Report};
use grundy_core::{Budget, Grundy, Outcome};
use std::path::{Path, PathBuf};
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

/// The default question with the table file `table`.
fn with_table(table: &Path) -> Ask {
    Ask::new(Play::Normal).set("table", table.to_string_lossy())
}

fn value(r: &Report) -> u64 {
    match r.grundy {
        Some(Grundy::Finite(g)) => g,
        ref g => panic!("{g:?}"),
    }
}

fn detail_u64(r: &Report, key: &str) -> u64 {
    r.details[key].as_u64().unwrap()
}

#[path = "../../../testdata/games/cram_table.rs"]
mod cram_table;
use cram_table::reference;

#[test]
fn solves_the_reference_boards_up_to_30_cells_at_every_detail() {
    let mut checked = 0;
    for (r, c, v) in reference() {
        if r * c <= 30 {
            let board = Board::rectangle(r, c).unwrap();
            for mirror in [true, false] {
                for detail in [Detail::Value, Detail::Winning, Detail::All] {
                    let mut ask = Ask::new(Play::Normal).detail(detail);
                    if !mirror {
                        ask = ask.set("no-mirror", "true");
                    }
                    let a = cram::ask(&board, &ask).unwrap();
                    assert_eq!(value(&a), v, "{r}x{c} mirror {mirror} {detail}");
                    if detail != Detail::Value {
                        assert_eq!(a.winning_moves.is_empty(), v == 0, "{r}x{c}");
                    } else {
                        assert!(a.winning_moves.is_empty() && a.all_moves.is_empty());
                    }
                    if detail == Detail::All {
                        // Every option valued: the value is their mex, the winning ones are
                        // those of value 0.
                        let values: Vec<u64> = a
                            .all_moves
                            .iter()
                            .map(|m| m.grundy.as_ref().unwrap().finite().unwrap())
                            .collect();
                        let mex = (0..).find(|x| !values.contains(x)).unwrap();
                        assert_eq!(mex, v, "{r}x{c}");
                        let zeros = values.iter().filter(|&&x| x == 0).count();
                        assert_eq!(zeros, a.winning_moves.len(), "{r}x{c}");
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked}");
}

#[test]
fn mirror_boards_and_the_shortcut_switch() {
    for detail in [Detail::Value, Detail::Winning] {
        let ask = Ask::new(Play::Normal).detail(detail);
        let a = cram::ask(&Board::parse("8x8").unwrap(), &ask).unwrap();
        assert_eq!(a.details["mirror_strategy"], true);
        assert_eq!(
            (value(&a), detail_u64(&a, "positions")),
            (0, 0),
            "settled without search"
        );
    }
    // 4x10: the half-turn settles the board at once, at every door's default.
    let a = cram::ask(&Board::parse("4x10").unwrap(), &Ask::new(Play::Normal)).unwrap();
    assert_eq!((value(&a), detail_u64(&a, "positions")), (0, 0));
    let o = Ask::new(Play::Normal).set("no-mirror", "true");
    let a = cram::ask(&Board::parse("4x4").unwrap(), &o).unwrap();
    assert_eq!(a.details["mirror_strategy"], false);
    assert_eq!(value(&a), 0);
    assert!(detail_u64(&a, "positions") > 0, "searched, not recognised");
    // Symmetric, but a domino covers the centre cell and its neighbour: no shortcut.
    assert!(!Board::parse("3x3").unwrap().mirror_zero());
    assert!(Board::parse("..##|##..").unwrap().mirror_zero());
    assert!(!Board::parse("..#|#..").unwrap().mirror_zero());
    assert!(!Board::parse("1x1").unwrap().mirror_zero());
}

#[test]
fn winning_moves_leave_p_positions() {
    let board = Board::parse(".........|##.######").unwrap();
    let a = cram::ask(&board, &Ask::new(Play::Normal)).unwrap();
    assert_eq!(value(&a), 4, "CGSuite's GameGridTest");
    assert!(!a.winning_moves.is_empty());
    for m in &a.winning_moves {
        assert_eq!(m.outcome, Outcome::P);
        let to = Board::parse(&m.to.text).unwrap();
        let b = cram::ask(&to, &Ask::new(Play::Normal).detail(Detail::Value)).unwrap();
        assert_eq!(value(&b), 0, "{}", m.text);
    }
}

#[test]
fn budget_caps_are_limits_naming_the_cap() {
    let board = Board::parse("5x6").unwrap();
    let o = Ask::new(Play::Normal).budget(Budget::positions(1000));
    let e = cram::ask(&board, &o).unwrap_err();
    assert!(e.is_limit());
    assert_eq!(e.parameter, Some("max_positions"));
    assert!(e.to_string().contains("board 5x6"), "{e}");
    assert!(e.to_string().contains("1000 positions"), "{e}");
    let o = Ask::new(Play::Normal).budget(DEFAULT.with_bytes(64 << 10));
    let e = cram::ask(&board, &o).unwrap_err();
    assert!(e.is_limit());
    assert_eq!(e.parameter, Some("max_bytes"));
    assert!(e.to_string().contains("64 KiB"), "{e}");
    assert!(!e.to_string().contains('\n'));
    // The least memory accepted is enough for a small board.
    let enough = Ask::new(Play::Normal).budget(Budget::new(u64::MAX, cram::MIN_MEMORY));
    let a = cram::ask(&Board::parse("3x5").unwrap(), &enough).unwrap();
    assert!(value(&a) <= 4);
}

const DEFAULT: Budget = cram::DEFAULT_BUDGET;

#[test]
fn a_stop_asked_by_the_progress_callback_is_a_clean_stop() {
    let board = Board::parse("5x6").unwrap();
    let seen = Arc::new(AtomicU64::new(0));
    let count = seen.clone();
    let table = scratch("stop");
    let o = with_table(&table).progress(Arc::new(move |p| {
        count.store(p.done, Ordering::Relaxed);
        false
    }));
    let e = cram::ask(&board, &o).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Stopped, "{e}");
    assert!(
        e.to_string().starts_with("board 5x6: stopped after "),
        "{e}"
    );
    assert!(e.to_string().contains("keeps what it learned"), "{e}");
    assert!(seen.load(Ordering::Relaxed) > 0);
    // The table was kept: the next run resumes from it and finishes.
    let a = cram::ask(&board, &with_table(&table)).unwrap();
    assert_eq!(value(&a), 2, "cram.txt: 5x6");
    assert!(detail_u64(&a, "resumed") > 0);
    let _ = std::fs::remove_file(&table);
}

#[test]
fn a_raised_stop_flag_stops_at_once() {
    let stop = Arc::new(AtomicBool::new(true));
    let o = Ask::new(Play::Normal).stop(stop);
    let e = cram::ask(&Board::parse("5x7").unwrap(), &o).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Stopped, "{e}");
}

#[test]
fn a_saved_table_resumes_with_fewer_nodes() {
    let board = Board::parse("5x6").unwrap();
    let table = scratch("resume");
    let o = with_table(&table);
    // Stopped at its node limit, the search keeps its table too.
    let short = o.clone().budget(Budget::positions(20_000));
    assert!(cram::ask(&board, &short).unwrap_err().is_limit());
    assert!(table.exists());
    let _ = std::fs::remove_file(&table);
    let first = cram::ask(&board, &o).unwrap();
    assert_eq!(detail_u64(&first, "resumed"), 0);
    let second = cram::ask(&board, &o).unwrap();
    assert!(detail_u64(&second, "resumed") > 0);
    assert!(
        detail_u64(&second, "positions") < detail_u64(&first, "positions"),
        "{} then {}",
        first.details,
        second.details
    );
    assert_eq!(
        (second.grundy.clone(), &second.winning_moves),
        (first.grundy.clone(), &first.winning_moves)
    );
    // A table of shapes serves every board: 4x5 reads it too.
    let other = cram::ask(&Board::parse("4x5").unwrap(), &o).unwrap();
    assert_eq!(value(&other), 2);
    let _ = std::fs::remove_file(&table);
}

/// The table file is also the search's checkpoint (saved every ten minutes of search), at
/// every door that takes one; without a file nothing is saved.
#[test]
fn the_table_file_is_the_checkpoint() {
    let table = scratch("checkpoint");
    let o = grundy_board::ask::options(&with_table(&table), &cram::PARAMS, "5x6").unwrap();
    let c = o.checkpoint.unwrap();
    assert_eq!((c.path, c.every), (table, CHECKPOINT_EVERY));
    let o = grundy_board::ask::options(&Ask::new(Play::Normal), &cram::PARAMS, "5x6").unwrap();
    assert!(o.checkpoint.is_none());
}

#[test]
fn a_table_of_another_game_or_no_table_is_refused() {
    let board = Board::parse("3x4").unwrap();
    let table = scratch("wrong");
    let g = Graph::grid(3, 4).unwrap();
    let mut nk = Engine::new(Rules::NodeKayles, g.clone(), Options::default()).unwrap();
    nk.grundy(g.all()).unwrap();
    nk.save(&table).unwrap();
    let o = with_table(&table);
    let e = cram::ask(&board, &o).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Input, "{e}");
    assert!(e.to_string().contains("node-kayles"), "{e}");
    for junk in [
        &b""[..],
        b"hello, world",
        b"GRBTT001\x12\0\0\0arc-kayles lattice\x05\0",
    ] {
        std::fs::write(&table, junk).unwrap();
        let e = cram::ask(&board, &o).unwrap_err();
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
