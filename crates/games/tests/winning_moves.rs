//! Every game's `winning_moves` against brute force on random small positions: the listed
//! moves are exactly the options that lead to a P-position, each found by the generic
//! [`Solver`] searching whole positions (no Sprague–Grundy shortcut of the game's own), or by
//! exhaustive recursion. Also the JSON shape every move shares (`to`, `text`) and the limits
//! that refuse runaway searches. Cram's analysis is the board engine's
//! (`grundy_board::cram::ask`, what `grundy cram` runs), checked here against the plain game.

use grundy_board::cram::{self as cram};
use grundy_core::budget::Budget;
use grundy_core::catalogue::{Ask, Play};
use grundy_core::{Game, Outcome, Solver};
use grundy_games::chomp::{self, Staircase};
use grundy_games::cram::{PlainCram, Shape};
use grundy_games::maze::{Cell, Maze};
use grundy_games::walls::{Board, Rect, WallGame};
use grundy_games::{fib, wythoff, UBig};
use proptest::prelude::*;
use std::collections::BTreeSet;

mod common;

/// The engine's board with the cells of `s`.
fn engine_board(s: &Shape) -> grundy_board::cram::Board {
    grundy_board::cram::Board::parse(&s.to_text()).unwrap()
}

/// A game searched as a whole: the wrapped game's moves, never its split into components.
struct Whole<G>(G);

impl<G: Game> Game for Whole<G> {
    type Position = G::Position;
    fn options(&self, pos: &G::Position, out: &mut Vec<G::Position>) {
        self.0.options(pos, out);
    }
}

/// The k-multiplier game straight from its rules: (pile, limit), the mover takes 1..=limit,
/// the opponent then may take at most k times as many.
struct Multiplier(u64);

impl Game for Multiplier {
    type Position = (u64, u64);
    fn options(&self, &(n, l): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        for a in 1..=l.min(n) {
            out.push((n - a, (self.0 * a).min(n - a)));
        }
    }
}

/// A sum of mazes searched as one game: a position is every figure's cell.
struct MazeSum(Vec<Maze>);

impl Game for MazeSum {
    type Position = Vec<Cell>;
    fn options(&self, pos: &Vec<Cell>, out: &mut Vec<Vec<Cell>>) {
        for (i, m) in self.0.iter().enumerate() {
            for to in m.moves_from(pos[i]) {
                let mut next = pos.clone();
                next[i] = to;
                out.push(next);
            }
        }
    }
}

/// A random maze with its figure on a floor cell.
fn random_maze() -> impl Strategy<Value = Maze> {
    (1usize..=4, 1usize..=5)
        .prop_flat_map(|(r, c)| {
            (
                Just((r, c)),
                proptest::collection::vec(proptest::bool::weighted(0.25), r * c),
                0..r * c,
            )
        })
        .prop_map(|((r, c), mut wall, f)| {
            wall[f] = false;
            Maze::new(r, c, wall, Some((f / c, f % c))).unwrap()
        })
}

/// A random board of free cells and blocked ones.
fn random_mask(max_r: usize, max_c: usize) -> impl Strategy<Value = (usize, usize, Vec<bool>)> {
    (1..=max_r, 1..=max_c).prop_flat_map(|(r, c)| {
        (
            Just(r),
            Just(c),
            proptest::collection::vec(proptest::bool::weighted(0.8), r * c),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Fibonacci Nim and its family: the listed takes are exactly those leaving a P-position.
    #[test]
    fn fib_winning_moves_are_the_moves_to_p(k in 1u64..=4, n in 0u64..150, l in 0u64..160, opening in any::<bool>()) {
        let position = if opening { n.to_string() } else { format!("{n} {l}") };
        let a = common::report(&format!("fib:{k}"), &position);
        let l = if opening { n.saturating_sub(1) } else { l.min(n) };
        let mut solver = Solver::new(Multiplier(k));
        let want: Vec<u64> = (1..=l)
            .filter(|&t| solver.grundy(&(n - t, (k * t).min(n - t))) == 0)
            .collect();
        prop_assert_eq!(&a.details["all_winning_moves_listed"], true);
        let take = |m: &grundy_core::Move| m.at["take"].as_str().unwrap().parse::<u64>().unwrap();
        let got: Vec<u64> = a.winning_moves.iter().map(take).collect();
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(a.outcome, if want.is_empty() { Outcome::P } else { Outcome::N });
        prop_assert_eq!(a.grundy.clone(), Some(grundy_core::Grundy::Finite(solver.grundy(&(n, l)))));
        for m in &a.winning_moves {
            let t = take(m);
            let field = |k: &str| m.to.data[k].as_str().unwrap().parse::<u64>().unwrap();
            prop_assert_eq!(field("pile"), n - t);
            prop_assert_eq!(field("limit"), (k * t).min(n - t));
        }
    }

    /// Wythoff: the destinations of the listed moves are exactly the options of value 0.
    #[test]
    fn wythoff_winning_moves_are_the_moves_to_p(x in 0u64..40, y in 0u64..40) {
        let a = common::report("wythoff", &format!("{x} {y}"));
        let mut solver = Solver::new(wythoff::RWythoff { r: 1 });
        let want: BTreeSet<(u64, u64)> = solver
            .options(&(x, y))
            .into_iter()
            .filter(|o| solver.grundy(o) == 0)
            .collect();
        let got: BTreeSet<(u64, u64)> = a
            .winning_moves
            .iter()
            .map(|m| (m.to.data["x"].as_str().unwrap().parse().unwrap(), m.to.data["y"].as_str().unwrap().parse().unwrap()))
            .collect();
        prop_assert_eq!(got.len(), a.winning_moves.len(), "no move listed twice");
        prop_assert_eq!(got, want);
        prop_assert_eq!(a.grundy.clone(), Some(grundy_core::Grundy::Finite(solver.grundy(&(x, y)))));
        prop_assert_eq!(a.outcome, solver.outcome(&(x, y)));
        for m in &a.winning_moves {
            let n = |v: &serde_json::Value| v.as_str().unwrap().parse::<u64>().unwrap();
            prop_assert_eq!(n(&m.at["take_first"]) + n(&m.to.data["x"]), x);
            prop_assert_eq!(n(&m.at["take_second"]) + n(&m.to.data["y"]), y);
        }
    }

    /// Sums of mazes: the listed moves are exactly the moves after which the whole sum,
    /// searched position by position, is lost for the opponent.
    #[test]
    fn maze_winning_moves_are_the_moves_to_p(mazes in proptest::collection::vec(random_maze(), 1..=3)) {
        let a = common::report("maze", &common::maze_text(&mazes));
        let start: Vec<Cell> = mazes.iter().map(|m| m.figure().unwrap()).collect();
        let mut solver = Solver::new(MazeSum(mazes.clone()));
        let mut want = Vec::new();
        for (i, m) in mazes.iter().enumerate() {
            for to in m.moves_from(start[i]) {
                let mut next = start.clone();
                next[i] = to;
                if solver.grundy(&next) == 0 {
                    want.push((i, to));
                }
            }
        }
        let cell = |v: &serde_json::Value| -> Cell { (v[0].as_u64().unwrap() as usize, v[1].as_u64().unwrap() as usize) };
        let got: Vec<(usize, Cell)> = a
            .winning_moves
            .iter()
            .map(|m| (m.at["maze"].as_u64().unwrap() as usize, cell(&m.at["cell"])))
            .collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(a.outcome, solver.outcome(&start));
        for m in &a.winning_moves {
            prop_assert_eq!(cell(&m.at["from"]), start[m.at["maze"].as_u64().unwrap() as usize]);
        }
    }

    /// The wall-making game: the listed cells are exactly those whose rectangles, searched as
    /// one position, form a P-position; `to` lists those rectangles.
    #[test]
    fn walls_winning_moves_are_the_moves_to_p((r, c, free) in random_mask(3, 4)) {
        let board = Board::new(r, c, free).unwrap();
        let a = common::report("walls", &common::board_text(&board));
        let mut solver = Solver::new(Whole(WallGame::new(board.clone())));
        let full = board.full();
        let mut want = Vec::new();
        for i in 0..r {
            for j in 0..c {
                if !board.is_free(i, j) {
                    continue;
                }
                let mut next: Vec<Rect> = full.split(i as u8, j as u8).collect();
                next.sort();
                if solver.grundy(&next) == 0 {
                    want.push((i, j));
                }
            }
        }
        let cell = |m: &grundy_core::Move| (m.at["cell"][0].as_u64().unwrap() as usize, m.at["cell"][1].as_u64().unwrap() as usize);
        let got: Vec<(usize, usize)> = a.winning_moves.iter().map(cell).collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(a.outcome, solver.outcome(&vec![full]));
        for m in &a.winning_moves {
            let (i, j) = cell(m);
            let pieces: Vec<(usize, usize, usize, usize)> = full
                .split(i as u8, j as u8)
                .map(|q| (q.r0 as usize, q.c0 as usize, (q.r1 - q.r0) as usize, (q.c1 - q.c0) as usize))
                .collect();
            let n = |p: &serde_json::Value, k: &str| p[k].as_u64().unwrap() as usize;
            let left = m.at["pieces"].as_array().unwrap();
            let to: Vec<(usize, usize, usize, usize)> = left.iter().map(|p| (n(p, "row"), n(p, "col"), n(p, "rows"), n(p, "cols"))).collect();
            prop_assert_eq!(to, pieces);
            prop_assert_eq!(left.iter().fold(0, |x, p| x ^ n(p, "grundy")), 0);
        }
    }

    /// Cram: the listed placements are exactly those leaving a plain (unreduced) position of
    /// value 0, and `to` is that position in `--board` notation.
    #[test]
    fn cram_winning_moves_are_the_moves_to_p((r, c, free) in random_mask(4, 4)) {
        let bits = free.iter().enumerate().fold(0u64, |b, (i, &f)| b | (f as u64) << i);
        let board = Shape::new(r, c, bits).unwrap();
        let a = cram::ask(&engine_board(&board), &Ask::new(Play::Normal)).unwrap();
        let mut plain = Solver::new(PlainCram);
        let want: Vec<Shape> = board
            .placements()
            .into_iter()
            .map(|(x, y)| board.place(x, y))
            .filter(|s| plain.grundy(s) == 0)
            .collect();
        let got: Vec<Shape> = a.winning_moves.iter().map(|m| Shape::parse(&m.to.text).unwrap()).collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(a.grundy, Some(grundy_core::Grundy::Finite(plain.grundy(&board))));
        prop_assert_eq!(engine_board(&board).mirror_zero(), board.canonical() != Shape::EMPTY && board.canonical().is_mirror_zero());
        for m in &a.winning_moves {
            let [(r1, c1), (r2, c2)]: [(usize, usize); 2] = serde_json::from_value(m.at["cells"].clone()).unwrap();
            prop_assert_eq!(board.place(r1 * c + c1, r2 * c + c2), Shape::parse(&m.to.text).unwrap());
            prop_assert_eq!((m.outcome, m.grundy.clone()), (Outcome::P, Some(grundy_core::Grundy::Finite(0))));
        }
    }

    /// Chomp: the listed bites are exactly those leaving a lost staircase (exhaustive
    /// recursion), and `to` is that staircase's row lengths.
    #[test]
    fn chomp_winning_moves_are_the_moves_to_p(r in 1usize..=4, c in 1usize..=5) {
        let a = common::report("chomp", &format!("{r}x{c}"));
        let start = Staircase::rectangle(r, c).unwrap();
        let want: Vec<((usize, usize), Vec<usize>)> = start
            .bites()
            .into_iter()
            .map(|(i, j)| ((i, j), start.bite(i, j).unwrap().rows()))
            .filter(|(_, rows)| chomp::outcome_brute_force(rows) == Outcome::P)
            .collect();
        let got: Vec<((usize, usize), Vec<usize>)> = a
            .winning_moves
            .iter()
            .map(|m| serde_json::from_value(serde_json::json!([m.at["cell"], m.to.data["rows"]])).unwrap())
            .collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(a.outcome, chomp::outcome_brute_force(&start.rows()));
    }
}

/// Every move of every report has `to` and `text`; UBig numbers are strings, small ones numbers.
#[test]
fn moves_share_to_and_text() {
    let check = |game: &str, position: &str| {
        let v = serde_json::to_value(common::report(game, position)).unwrap();
        let moves = v["winning_moves"]
            .as_array()
            .unwrap_or_else(|| panic!("winning_moves in {v}"));
        assert!(!moves.is_empty(), "{v}");
        for m in moves {
            assert!(!m["to"].is_null(), "{m}");
            assert!(m["text"].as_str().is_some_and(|t| !t.is_empty()), "{m}");
        }
        v
    };
    let v = check("fib", "100");
    assert_eq!(v["position"]["pile"], "100");
    assert_eq!(v["details"]["k"], 2);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"][0]["at"]["take"], "3");
    assert_eq!(v["winning_moves"][0]["to"]["text"], "97 6");
    let v = check("wythoff", "10 20");
    assert_eq!(v["winning_moves"][0]["to"]["text"], "10 6");
    assert_eq!(v["winning_moves"][0]["at"]["take_second"], "14");
    let v = check("maze", "...\n.#.\n..@\n");
    assert_eq!(
        v["winning_moves"][0]["at"]["cell"],
        serde_json::json!([2, 1])
    );
    assert_eq!(v["winning_moves"][0]["to"]["text"], "...|.#.|.@.");
    assert_eq!(
        v["details"]["mazes"][0]["grid"][1][1],
        serde_json::Value::Null
    );
    let v = check("walls", "X.\n..\n");
    assert_eq!(
        v["winning_moves"][0]["at"]["cell"],
        serde_json::json!([1, 1])
    );
    let v = serde_json::to_value(
        cram::ask(
            &grundy_board::cram::Board::parse("...").unwrap(),
            &Ask::new(Play::Normal),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(v["winning_moves"][0]["to"]["text"], "##.");
    assert_eq!(v["winning_moves"][1]["to"]["text"], ".##");
    assert_eq!(
        v["winning_moves"][0]["at"],
        serde_json::json!({"cells": [[0, 0], [0, 1]], "direction": "horizontal"})
    );
    let v = check("chomp", "4x7");
    assert_eq!(
        v["winning_moves"][0]["to"]["rows"],
        serde_json::json!([7, 7, 3, 3])
    );
    assert_eq!(
        v["winning_moves"][0]["at"]["cell"],
        serde_json::json!([2, 3])
    );
    let v = check("cards", "4 7 2 9");
    // Both ends keep at least half; taking the 9 on the right is the optimal one.
    let right = v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["at"]["end"] == "right")
        .expect("taking the right card keeps at least half");
    assert_eq!(right["at"]["rest"], serde_json::json!([0, 3]));
    assert_eq!(right["to"]["text"], "4 7 2");
    assert_eq!(v["details"]["line"][0]["player"], 1);
}

/// A pile past the digit cap is refused with a one-line error, before any work.
#[test]
fn fib_refuses_huge_piles() {
    let ok: UBig = format!("7{}", "3".repeat(fib::MAX_PILE_DIGITS - 1))
        .parse()
        .unwrap();
    let normal = Ask::new(Play::Normal);
    assert!(common::ask("fib", &ok.to_string(), &normal).is_ok());
    let big: UBig = format!("1{}", "0".repeat(fib::MAX_PILE_DIGITS))
        .parse()
        .unwrap();
    let e = common::ask("fib", &big.to_string(), &normal).unwrap_err();
    assert!(e.is_limit(), "{e}");
    let text = e.to_string();
    assert!(text.contains("pile 100000000000..."), "{text}");
    assert!(text.contains("10001 digits"), "{text}");
    assert!(!text.contains('\n'));
    // A large multiplier has many more losing sizes: refused by their memory, not run.
    let mid: UBig = format!("1{}", "0".repeat(3000)).parse().unwrap();
    let e = common::ask("fib:1000", &mid.to_string(), &normal).unwrap_err();
    assert!(e.is_limit(), "{e}");
}

/// Cram and Chomp stop at their budget's position cap and say which cap they reached.
#[test]
fn searches_stop_at_the_position_limit() {
    let small = Ask::new(Play::Normal).budget(Budget::positions(1000));
    // Cram's positions are the engine's search nodes.
    let board = grundy_board::cram::Board::rectangle(5, 6).unwrap();
    let e = cram::ask(&board, &small).unwrap_err();
    assert_eq!(
        e.to_string(),
        "board 5x6: the search needs more than 1000 positions (the position limit)"
    );
    assert!(e.is_limit());
    assert_eq!(e.parameter, Some("max_positions"));
    // The library names the cap reached, never a command-line flag.
    assert!(!e.to_string().contains("--"), "{e}");
    // Progress is reported while a long search runs (every 16384 search nodes).
    let last = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = last.clone();
    let watch = Ask::new(Play::Normal)
        .detail(grundy_core::catalogue::Detail::Value)
        .progress(std::sync::Arc::new(move |p| {
            seen.store(p.done, std::sync::atomic::Ordering::Relaxed);
            true
        }));
    let a = cram::ask(&board, &watch).unwrap();
    assert_eq!(a.grundy, Some(2u64.into()), "cram.txt: 5x6 has value 2");
    let positions = a.details["positions"].as_u64().unwrap();
    assert!(positions >= 16384, "{positions}");
    let last = last.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(last, positions / 16384 * 16384);
    // Chomp: a 5x5 bar reaches 251 staircases (the empty one, which no game reaches, aside).
    let chomp_in = |b: Budget| common::ask("chomp", "5x5", &Ask::new(Play::Normal).budget(b));
    let e = common::ask(
        "chomp",
        "12x12",
        &Ask::new(Play::Normal).budget(chomp::DEFAULT_BUDGET),
    );
    assert!(e.unwrap_err().is_limit());
    assert!(chomp_in(Budget::positions(251)).is_ok());
    let e = chomp_in(Budget::positions(250)).unwrap_err();
    assert_eq!(e.parameter, Some("max_positions"), "{e:?}");
    assert!(e.is_limit());
}

/// Cram and Chomp stop at their budget's memory cap too, and the error names memory.
#[test]
fn searches_stop_at_the_memory_limit() {
    // 5×5 Chomp: 251 staircases of 64 estimated bytes; 16 KiB holds 256 of them, 15 KiB 240.
    let entry = Budget::entry_bytes::<chomp::Staircase>() as u64;
    assert_eq!(entry, 64);
    let chomp_in = |b: Budget| common::ask("chomp", "5x5", &Ask::new(Play::Normal).budget(b));
    assert!(chomp_in(Budget::new(1000, 16 << 10)).is_ok());
    let e = chomp_in(Budget::new(1000, 15 << 10)).unwrap_err();
    assert_eq!(e.parameter, Some("max_bytes"), "{e:?}");
    assert!(e.to_string().contains("of memory (the memory limit"), "{e}");
    assert!(e.is_limit());
    // Cram: the engine's table replaces entries when full, so memory never stops its search;
    // a cap below the least table it accepts (1 MiB) is refused, naming memory.
    let small = Ask::new(Play::Normal).budget(Budget::new(u64::MAX, 64 << 10));
    let board = grundy_board::cram::Board::rectangle(5, 6).unwrap();
    let e = cram::ask(&board, &small).unwrap_err();
    assert_eq!(e.parameter, Some("max_bytes"), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("board 5x6: the search needs more than 64 KiB of memory"),
        "{e}"
    );
    assert!(e.is_limit());
    let enough = Ask::new(Play::Normal).budget(Budget::new(u64::MAX, cram::MIN_MEMORY));
    assert_eq!(
        cram::ask(&board, &enough).unwrap().grundy,
        Some(2u64.into())
    );
}
