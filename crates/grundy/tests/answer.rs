//! One shape for every analysis: each family's typed result, read through
//! [`grundy::Answer`], says the same outcome, value and number of winning moves as the
//! catalogue's `Report` for the same game and position (the answer of every front end).

use grundy::catalogue::{self, Play, Report};
use grundy::games::{cards, chomp, fib, hackenbush, maze, turning, walls, wythoff, UBig};
use grundy::{Answer, Budget, Grundy, Outcome};

fn report(game: &str, position: &str, play: Play) -> Report {
    catalogue::analyze(game, position, play, &Budget::default())
        .unwrap_or_else(|e| panic!("{game} {position}: {e}"))
}

/// The family's answer equals the report's: outcome, value, winning moves.
fn agree(what: &str, a: &dyn Answer, r: &Report) {
    assert_eq!(a.outcome(), r.outcome, "{what}: outcome");
    assert_eq!(a.grundy(), r.grundy, "{what}: value");
    assert_eq!(
        a.winning_move_count(),
        r.winning_moves.len() as u64,
        "{what}: winning moves"
    );
}

#[test]
fn nim_and_heap_sums() {
    for heaps in [vec![3u64, 4, 5], vec![1, 2, 3], vec![7], vec![1, 1, 1]] {
        let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
        for play in [Play::Normal, Play::Misere] {
            let a = grundy::nim::analyze(&heaps, play);
            let name = if play.is_misere() {
                "misere-nim"
            } else {
                "nim"
            };
            let r = report(name, &text.join(" "), Play::Normal);
            assert_eq!(a.outcome(), r.outcome, "{name} {heaps:?}");
            assert_eq!(a.winning_move_count(), r.winning_moves.len() as u64);
            if !play.is_misere() {
                agree(&format!("nim {heaps:?}"), &a, &r);
            }
        }
    }
    let kayles = grundy::heap::parse("kayles").unwrap();
    for heaps in [vec![7u64, 9, 12], vec![4, 4], vec![13]] {
        let a = grundy::heap::analyze_position(&kayles, &heaps, &mut Default::default()).unwrap();
        let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
        agree(
            &format!("kayles {heaps:?}"),
            &a.analysis,
            &report("kayles", &text.join(" "), Play::Normal),
        );
    }
}

#[test]
fn the_games_families() {
    for (x, y) in [(3u32, 5u32), (10, 20), (1, 2)] {
        let a = wythoff::analyze(&UBig::from(x), &UBig::from(y)).unwrap();
        agree(
            "wythoff",
            &a,
            &report("wythoff", &format!("{x} {y}"), Play::Normal),
        );
    }
    for n in [100u32, 13, 21] {
        let a = fib::analyze(&UBig::from(n), None, 2).unwrap();
        agree("fib", &a, &report("fib", &n.to_string(), Play::Normal));
    }
    for (r, c) in [(3, 4), (2, 2), (4, 5)] {
        let a = chomp::analyze(r, c, &Budget::default()).unwrap();
        agree(
            "chomp",
            &a,
            &report("chomp", &format!("{r}x{c}"), Play::Normal),
        );
    }
    for text in ["...|.#.|..@", "@..|...", "..@|#..|..."] {
        let a = maze::analyze(&maze::parse_mazes(&text.replace("|", "\n")).unwrap(), false);
        agree(
            &format!("maze {text}"),
            &a,
            &report("maze", text, Play::Normal),
        );
    }
    for text in ["....|.X..|....", "...|...", "..|.."] {
        let a = walls::analyze(&walls::Board::parse(&text.replace("|", "\n")).unwrap());
        agree(
            &format!("walls {text}"),
            &a,
            &report("walls", text, Play::Normal),
        );
    }
    for text in ["0-1,1-2,2-0,2-3,3-4", "0-1,0-1,1-2", "0-1"] {
        let a = hackenbush::analyze(&hackenbush::Graph::parse(text).unwrap()).unwrap();
        agree(
            &format!("hackenbush {text}"),
            &a,
            &report("hackenbush", text, Play::Normal),
        );
    }
    let mock = turning::Rules::parse("1-3").unwrap();
    for row in ["HTTHTHTTH", "THHTH", "TTT"] {
        let opts = turning::TurningOptions::default();
        let a = turning::analyze(&mock, &turning::Row::parse(row).unwrap(), &opts).unwrap();
        let r = report("turning:1-3", row, Play::Normal);
        agree(&format!("mock turtles {row}"), &a, &r);
        let m = turning::analyze_misere(&mock, &turning::Row::parse(row).unwrap(), &opts).unwrap();
        let r = report("turning:1-3", row, Play::Misere);
        agree(&format!("misère mock turtles {row}"), &m, &r);
    }
    // Mock Turtles on HTTHTHTTH is 29 (CGSuite's documentation).
    let a = turning::analyze(
        &mock,
        &turning::Row::parse("HTTHTHTTH").unwrap(),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(a.grundy(), Some(Grundy::Finite(29)));
    for text in ["4 7 2 9", "1 5 1", "3 3"] {
        let cards_: Vec<i64> = text.split(' ').map(|c| c.parse().unwrap()).collect();
        let a = cards::analyze(&cards_).unwrap();
        let r = report("cards", text, Play::Normal);
        assert!(r.scoring);
        assert_eq!(a.outcome(), r.outcome, "cards {text}");
        assert_eq!(a.grundy(), None);
    }
}

#[test]
fn loopy_values_are_the_same_grundy() {
    // windup:8:3,5 from 1 is a draw, ∞ with an empty K: one type from the solver to the report.
    let w = grundy::loopy::Windup::parse("windup:8:3,5").unwrap();
    let a = grundy::loopy::analyze_game(&w, &1, &Budget::default()).unwrap();
    let r = report("windup:8:3,5", "1", Play::Normal);
    assert_eq!(a.outcome(), Outcome::D);
    agree("windup 1", &a, &r);
    assert_eq!(r.grundy, Some(Grundy::infinite([])));
}

#[test]
fn the_board_engine() {
    use grundy::board::cram::Board;
    use grundy::board::engine::{Engine, Options, Rules};
    use grundy::board::graph::Graph;
    for (game, rules, text) in [
        ("node-kayles", Rules::NodeKayles, "grid:3x4"),
        ("node-kayles", Rules::NodeKayles, "path:10"),
        ("arc-kayles", Rules::ArcKayles, "cycle:7"),
        ("arc-kayles", Rules::ArcKayles, "grid:2x5"),
    ] {
        let g = Graph::parse(text).unwrap();
        let all = g.all();
        let mut e = Engine::new(rules, g, Options::default()).unwrap();
        let a = e.analyze(all).unwrap();
        agree(
            &format!("{game} {text}"),
            &a,
            &report(game, text, Play::Normal),
        );
    }
    for (r, c) in [(3, 4), (2, 5), (3, 3)] {
        let board = Board::rectangle(r, c).unwrap();
        let r_ = report("cram", &format!("{r}x{c}"), Play::Normal);
        let a = board.analyze(Options::default()).unwrap();
        agree(&format!("cram {r}x{c} (engine)"), &a, &r_);
    }
}
