//! One shape for every answer: the registry's `Report` (the answer of every front end) agrees
//! with each family's oracle — the generic memoised solver over the game's own `Game`, a brute
//! force, or the engine the family's fast method is tested against — on outcome, value and
//! every winning move.

use grundy::catalogue::{self, Ask, Detail, Play, Registry, Report};
use grundy::games::{cards, chomp, fib, hackenbush, maze, walls, wythoff};
use grundy::{Budget, Grundy, Outcome, Solver};

fn ask(game: &str, position: &str, play: Play, detail: Detail) -> Report {
    Registry::new()
        .ask(game, position, &Ask::new(play).detail(detail))
        .unwrap_or_complain(game, position)
}

trait Complain<T> {
    fn unwrap_or_complain(self, game: &str, position: &str) -> T;
}

impl<T> Complain<T> for grundy::Result<T> {
    fn unwrap_or_complain(self, game: &str, position: &str) -> T {
        self.unwrap_or_else(|e| panic!("{game} {position}: {e}"))
    }
}

fn report(game: &str, position: &str) -> Report {
    ask(game, position, Play::Normal, Detail::Winning)
}

/// The report's value is `g`, its outcome follows, and with every move asked for, the winning
/// moves are exactly the moves to value 0 (those the oracle `leaves_zero` says win).
fn agree(game: &str, position: &str, g: u64, leaves_zero: impl Fn(&str) -> bool) {
    let r = ask(game, position, Play::Normal, Detail::All);
    assert_eq!(
        r.grundy,
        Some(Grundy::Finite(g)),
        "{game} {position}: value"
    );
    assert_eq!(r.outcome, Outcome::from_grundy(g), "{game} {position}");
    for m in &r.all_moves {
        assert_eq!(
            m.wins(),
            leaves_zero(&m.to.text),
            "{game} {position}: {}",
            m.text
        );
    }
    let mut winning: Vec<&str> = r.winning_moves.iter().map(|m| m.text.as_str()).collect();
    let mut all: Vec<&str> = r
        .all_moves
        .iter()
        .filter(|m| m.wins())
        .map(|m| m.text.as_str())
        .collect();
    winning.sort_unstable();
    all.sort_unstable();
    assert_eq!(winning, all, "{game} {position}: winning moves");
}

#[test]
fn nim_against_the_solver() {
    let mut solver = Solver::new(grundy::nim::NimGame);
    for heaps in [
        vec![3u64, 4, 5],
        vec![1, 2, 3],
        vec![7],
        vec![1, 1, 1],
        vec![0, 6],
    ] {
        let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let g = solver.grundy(&heaps);
        agree("nim", &text.join(" "), g, |to| {
            let after: Vec<u64> = to.split(' ').map(|h| h.parse().unwrap()).collect();
            Solver::new(grundy::nim::NimGame).grundy(&after) == 0
        });
        let m = ask("misere-nim", &text.join(" "), Play::Normal, Detail::Winning);
        assert_eq!(m.outcome, solver.misere_outcome(&heaps), "misère {heaps:?}");
    }
}

#[test]
fn heap_sums_against_the_engine() {
    let kayles = grundy::heap::parse("kayles").unwrap();
    for heaps in [vec![7u64, 9, 12], vec![4, 4], vec![13]] {
        let a = grundy::heap::analyze_position(&kayles, &heaps, &mut Default::default()).unwrap();
        let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let r = report("kayles", &text.join(" "));
        assert_eq!(r.grundy, Some(Grundy::Finite(a.analysis.grundy as u64)));
        assert_eq!(r.outcome, a.analysis.outcome);
        assert_eq!(r.winning_moves.len(), a.analysis.winning_moves.len());
    }
}

#[test]
fn wythoff_against_the_solver() {
    let mut solver = Solver::new(wythoff::RWythoff { r: 1 });
    for (x, y) in [(3u64, 5u64), (10, 20), (1, 2), (7, 7), (0, 9)] {
        let g = solver.grundy(&(x, y));
        agree("wythoff", &format!("{x} {y}"), g, |to| {
            let (a, b) = to.split_once(' ').unwrap();
            let to = (a.parse().unwrap(), b.parse().unwrap());
            Solver::new(wythoff::RWythoff { r: 1 }).grundy(&to) == 0
        });
    }
    // The j-th P-position, by its index.
    let r = report("wythoff", "p:1000000000000");
    assert_eq!(r.outcome, Outcome::P);
    assert_eq!(r.details["p_index"], "1000000000000");
}

#[test]
fn fib_against_the_solver() {
    let game = fib::FibGame { k: 2 };
    for n in [100u64, 13, 21, 50] {
        let g = Solver::new(game).grundy(&(n, n - 1));
        agree("fib", &n.to_string(), g, |to| {
            let mut w = to.split(' ').map(|t| t.parse::<u64>().unwrap());
            let pile = w.next().unwrap();
            let limit = w.next().unwrap_or(pile.saturating_sub(1));
            Solver::new(game).grundy(&(pile, limit)) == 0
        });
    }
}

#[test]
fn chomp_against_the_brute_force() {
    for (r, c) in [(3usize, 4usize), (2, 2), (4, 5), (1, 1)] {
        let report = report("chomp", &format!("{r}x{c}"));
        assert_eq!(
            report.outcome,
            chomp::outcome_brute_force(&vec![c; r]),
            "{r}x{c}"
        );
        for m in &report.winning_moves {
            let rows: Vec<usize> = serde_json::from_value(m.to.data["rows"].clone()).unwrap();
            assert_eq!(chomp::outcome_brute_force(&rows), Outcome::P, "{}", m.text);
        }
    }
}

#[test]
fn mazes_against_the_solver() {
    for text in ["...|.#.|..@", "@..|...", "..@|#..|..."] {
        let mazes = maze::parse_mazes(&text.replace('|', "\n")).unwrap();
        let m = &mazes[0];
        let g = Solver::new(m.clone()).grundy(&m.figure().unwrap());
        agree("maze", text, g, |to| {
            let after = maze::parse_mazes(&to.replace('|', "\n")).unwrap();
            let f = after[0].figure().unwrap();
            Solver::new(after[0].clone()).grundy(&f) == 0
        });
    }
    // A sum of mazes: the XOR of the figures' values.
    let r = report("maze", "....|.#..|...@||@..|...");
    assert_eq!(r.grundy, Some(Grundy::Finite(4)));
    assert_eq!(r.details["mazes"][1]["grundy"], 0);
}

#[test]
fn walls_against_the_solver() {
    for text in ["....|.X..|....", "...|...", "..|.."] {
        let board = walls::Board::parse(&text.replace('|', "\n")).unwrap();
        let g = Solver::new(walls::WallGame::new(board.clone())).grundy(&vec![board.full()]);
        let r = report("walls", text);
        assert_eq!(r.grundy, Some(Grundy::Finite(g)), "walls {text}");
        assert_eq!(
            r.details["winner"],
            if g == 0 { "Second" } else { "First" },
            "{text}"
        );
    }
    // The contest's format: the size first.
    assert_eq!(report("walls", "2 2\nX.\n..").winning_moves.len(), 1);
}

#[test]
fn hackenbush_against_the_brute_force() {
    for text in ["0-1,1-2,2-0,2-3,3-4", "0-1,0-1,1-2", "0-1"] {
        let g = hackenbush::brute_force(&hackenbush::Graph::parse(text).unwrap()).unwrap();
        agree("hackenbush", text, g, |to| {
            hackenbush::brute_force(&hackenbush::Graph::parse(to).unwrap()).unwrap() == 0
        });
    }
}

#[test]
fn turning_against_the_heap_representation() {
    // Mock Turtles on HTTHTHTTH is 29 (CGSuite's documentation).
    let r = report("turning:1-3", "HTTHTHTTH");
    assert_eq!(r.grundy, Some(Grundy::Finite(29)));
    for m in &r.winning_moves {
        assert_eq!(
            report("turning:1-3", &m.to.text).grundy,
            Some(Grundy::Finite(0))
        );
    }
    let m = ask("turning:1-3", "THHTH", Play::Misere, Detail::All);
    for mv in &m.all_moves {
        let after = ask("turning:1-3", &mv.to.text, Play::Misere, Detail::Value);
        assert_eq!(mv.outcome, after.outcome, "{}", mv.text);
    }
}

#[test]
fn cards_against_the_brute_force() {
    for text in ["4 7 2 9", "1 5 1", "3 3", "-5 1"] {
        let row: Vec<i64> = text.split(' ').map(|c| c.parse().unwrap()).collect();
        let r = report("cards", text);
        assert!(r.scoring);
        assert_eq!(r.grundy, None);
        let first = cards::first_total_brute_force(&row);
        assert_eq!(r.details["first_total"], first, "cards {text}");
        let total: i64 = row.iter().sum();
        let half = if 2 * first >= total {
            Outcome::N
        } else {
            Outcome::P
        };
        assert_eq!(r.outcome, half, "cards {text}");
    }
}

#[test]
fn loopy_values_are_the_same_grundy() {
    // windup:8:3,5 from 1 is a draw, ∞ with an empty K: one type from the solver to the report.
    let w = grundy::loopy::Windup::parse("windup:8:3,5").unwrap();
    let a = grundy::loopy::analyze_game(&w, &1, &Budget::default()).unwrap();
    let r = report("windup:8:3,5", "1");
    assert_eq!(r.outcome, Outcome::D);
    assert_eq!(r.outcome, a.this.outcome);
    assert_eq!(r.grundy, Some(a.this.grundy.clone()));
    assert_eq!(r.grundy, Some(Grundy::infinite([])));
    assert_eq!(r.winning_moves.len(), a.winning_moves.len());
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
        let r = report(game, text);
        assert_eq!(r.grundy, Some(Grundy::Finite(a.grundy)), "{game} {text}");
        assert_eq!(r.outcome, a.outcome, "{game} {text}");
        assert_eq!(
            r.winning_moves.len(),
            a.winning_moves.len(),
            "{game} {text}"
        );
    }
    for (r, c) in [(3, 4), (2, 5), (3, 3)] {
        let board = Board::rectangle(r, c).unwrap();
        let rep = report("cram", &format!("{r}x{c}"));
        let a = board.analyze(Options::default()).unwrap();
        assert_eq!(rep.grundy, Some(Grundy::Finite(a.grundy)), "cram {r}x{c}");
        assert_eq!(rep.outcome, a.outcome, "cram {r}x{c}");
    }
}

/// The catalogue's free functions are the registry's.
#[test]
fn free_functions_are_the_registry() {
    let r = catalogue::analyze("nim", "3 4 5", Play::Normal, &Budget::default()).unwrap();
    assert_eq!(r, report("nim", "3 4 5"));
}
