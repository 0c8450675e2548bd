//! The games of this crate as catalogue entries: every entry's example works, positions print
//! back to their text, moves agree with the analysis, and each game's values agree with its
//! oracle (a plain search, a brute force, its own tables).

use grundy_core::catalogue::{Budget, Move, Play, Report, Rules};
use grundy_core::{Game, Outcome, Solver};
use grundy_games::{cards, chomp, cram, entries, fib, maze, walls, wythoff, UBig};
use proptest::prelude::*;

fn open(name: &str) -> Box<dyn Rules> {
    let all = entries();
    let entry = all
        .iter()
        .find(|e| e.matches(name))
        .unwrap_or_else(|| panic!("no entry for {name}"));
    entry.open(name).unwrap()
}

fn budget() -> Budget {
    Budget::default()
}

/// The texts of the positions the winning moves leave, and those of the moves with outcome P.
fn agree(rules: &mut dyn Rules, text: &str, play: Play) -> Report {
    let pos = rules.parse(text).unwrap();
    let report = rules
        .analyze(
            &pos,
            &grundy_core::catalogue::Ask::new(play).budget(budget()),
        )
        .unwrap();
    let moves = rules
        .moves(
            &pos,
            &grundy_core::catalogue::Ask::new(play).budget(budget()),
        )
        .unwrap();
    let from_moves: Vec<&str> = moves
        .iter()
        .filter(|m| m.wins())
        .map(|m| m.to.text.as_str())
        .collect();
    let mut listed: Vec<&str> = report
        .winning_moves
        .iter()
        .map(|m| m.to.text.as_str())
        .collect();
    let mut from_moves_sorted = from_moves.clone();
    listed.sort_unstable();
    from_moves_sorted.sort_unstable();
    assert_eq!(
        listed, from_moves_sorted,
        "{} {text} ({play:?}): winning moves differ from the P-moves",
        report.game
    );
    if let Some(n) = report.moves {
        assert_eq!(n, moves.len() as u64, "{} {text}: move count", report.game);
    }
    // A report's winning moves are the listed moves themselves (two moves may leave the
    // same position: a pick anywhere in a one-cell-wide rectangle of the wall game).
    for w in &report.winning_moves {
        let m = moves.iter().find(|m| m.text == w.text).unwrap();
        assert_eq!(
            (&m.text, &m.short, m.outcome),
            (&w.text, &w.short, w.outcome)
        );
        assert_eq!(m.grundy, w.grundy, "{} {text}", report.game);
    }
    if !play.is_misere() && !report.scoring {
        if let Some(g) = report.grundy.as_ref().and_then(|g| g.finite()) {
            assert_eq!(report.outcome, Outcome::from_grundy(g));
            // The value is the mex of the options' values where they are known.
            let vals: Vec<u64> = moves
                .iter()
                .filter_map(|m| m.grundy.as_ref()?.finite())
                .collect();
            if vals.len() == moves.len() {
                let mex = (0..).find(|v| !vals.contains(v)).unwrap();
                assert_eq!(g, mex, "{} {text}: value is not the mex", report.game);
            }
        }
    }
    if !report.scoring {
        let any_p = moves.iter().any(Move::wins);
        let expect = if (play.is_misere() && moves.is_empty()) || any_p {
            Outcome::N
        } else {
            Outcome::P
        };
        assert_eq!(report.outcome, expect, "{} {text} ({play:?})", report.game);
    }
    for m in &moves {
        assert!(m.short.chars().count() <= 30, "short too long: {}", m.short);
        let again = rules.parse(&m.to.text).unwrap();
        assert_eq!(
            again, m.to,
            "{} {text}: a move's position re-parses",
            report.game
        );
    }
    report
}

#[test]
fn every_entry_works_from_its_example() {
    let all = entries();
    // fib, fib:K, wythoff, maze, walls, cram, chomp, cards, hackenbush, turning.
    assert_eq!(all.len(), 10);
    for entry in &all {
        let info = entry.info();
        assert!(entry.matches(info.game()), "{} matches its game", info.name);
        for a in &info.aliases {
            assert!(entry.matches(a));
        }
        // No other entry claims its names.
        for other in &all {
            if other.info().name != info.name {
                assert!(!other.matches(info.game()), "{} claimed twice", info.name);
            }
        }
        let mut rules = entry.open(info.game()).unwrap();
        let pos = rules.parse(&info.example).unwrap();
        assert_eq!(
            pos.text, info.example,
            "{}: the example prints back",
            info.name
        );
        assert_eq!(pos.kind, info.kind, "{}: kind", info.name);
        assert!(!pos.data.is_empty(), "{}: structured data", info.name);
        let report = agree(rules.as_mut(), &info.example, Play::Normal);
        assert_eq!(report.scoring, info.scoring);
        assert!(!report.explanation.is_empty(), "{}: explanation", info.name);
        // Wythoff has details only at a P-position (its index j); every other game always.
        assert!(
            !report.details.is_null() || info.name == "wythoff",
            "{}: details",
            info.name
        );
        for m in &report.winning_moves {
            assert_eq!(rules.parse(&m.to.text).unwrap(), m.to);
        }
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["position"]["kind"], info.kind.as_str());
        if info.misere {
            let r = agree(rules.as_mut(), &info.example, Play::Misere);
            assert!(r.misere);
        } else {
            let e = rules
                .analyze(
                    &pos,
                    &grundy_core::catalogue::Ask::new(Play::Misere).budget(budget()),
                )
                .unwrap_err();
            assert!(e.is_input() && !e.is_limit(), "{e}");
            assert!(e.message.contains("misère"), "{e}");
        }
    }
}

#[test]
fn bad_positions_are_input_errors_naming_the_problem() {
    let cases = [
        ("fib", "abc"),
        ("fib", "1 2 3"),
        ("fib:0", "5"),
        ("wythoff", "3"),
        ("wythoff", "-1 2"),
        ("maze", "..@|.x."),
        ("walls", "..|.#"),
        ("walls", "...|.#.|..."),
        ("cram", "..|.?"),
        ("chomp", "3 5"),
        ("chomp", "0"),
        ("cards", "1 two 3"),
    ];
    for (game, text) in cases {
        let all = entries();
        let result = all
            .iter()
            .find(|e| e.matches(game))
            .unwrap()
            .open(game)
            .and_then(|r| r.parse(text));
        let e = result.unwrap_err();
        assert!(e.is_input() && !e.is_limit(), "{game} {text:?}: {e}");
        assert!(!e.message.contains('\n'), "{e}");
    }
    let limits = [("cram", "12x11"), ("chomp", "17x2"), ("walls", "41x1")];
    for (game, text) in limits {
        let e = open(game).parse(text).unwrap_err();
        assert!(e.is_limit() || e.is_input(), "{game} {text}: {e}");
    }
}

#[test]
fn fib_agrees_with_its_tables_and_the_textbook() {
    let win = fib::textbook::win_table(2, 40);
    let table = fib::GrundyTable::new(fib::MultiplierNim::fibonacci(), 40).unwrap();
    let mut rules = open("fib");
    for n in 0..=40u64 {
        for l in 0..=n {
            let r = agree(rules.as_mut(), &format!("{n} {l}"), Play::Normal);
            let o = if win[n as usize][l as usize] {
                Outcome::N
            } else {
                Outcome::P
            };
            assert_eq!(r.outcome, o, "({n}, {l})");
            assert_eq!(
                r.grundy.and_then(|g| g.finite()),
                table.value(n, l).map(u64::from)
            );
        }
    }
    // The opening prints as the pile alone; "pile limit" in its normal form.
    assert_eq!(rules.parse("20 19").unwrap().text, "20");
    assert_eq!(rules.parse("20 50").unwrap().text, "20 20");
    let p = rules.parse("20").unwrap();
    assert_eq!(p.data["pile"], "20");
    assert_eq!(p.data["limit"], "19");
    // The family: 3-multiplier Nim against its textbook table.
    let mut k3 = open("fib:3");
    assert_eq!(k3.name(), "fib:3");
    let win3 = fib::textbook::win_table(3, 25);
    for n in 1..=25u64 {
        let r = agree(k3.as_mut(), &n.to_string(), Play::Normal);
        let o = if win3[n as usize][n as usize - 1] {
            Outcome::N
        } else {
            Outcome::P
        };
        assert_eq!(r.outcome, o, "fib:3 {n}");
    }
}

#[test]
fn fib_answers_huge_piles_and_refuses_what_it_cannot_list() {
    let mut rules = open("fib");
    let pos = rules.parse("2^100").unwrap();
    assert_eq!(pos.text, UBig::from(2u8).pow(100).to_string());
    let r = rules
        .analyze(
            &pos,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(budget()),
        )
        .unwrap();
    // 2^100's Zeckendorf representation: the first term is the largest Fibonacci number
    // below it, and the pile is won (it is no Fibonacci number).
    assert_eq!(r.outcome, Outcome::N);
    assert_eq!(r.winning_moves.len(), 1);
    assert!(r.winning_moves[0].short.chars().count() <= 30);
    let terms: Vec<UBig> = r.details["representation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(
        terms.iter().fold(UBig::ZERO, |a, t| a + t),
        UBig::from(2u8).pow(100)
    );
    assert_eq!(
        r.winning_moves[0].at["take"],
        terms.last().unwrap().to_string()
    );
    let r = rules.analyze(
        &rules.parse("1e30").unwrap(),
        &grundy_core::catalogue::Ask::new(Play::Normal).budget(budget()),
    );
    assert!(r.is_ok());
    // A pile of 339 digits: the words abbreviate it, the position keeps every digit.
    let r = rules
        .analyze(
            &rules.parse("7^400").unwrap(),
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(budget()),
        )
        .unwrap();
    let m = &r.winning_moves[0];
    assert!(
        m.text.contains("digits") && m.text.len() < 200,
        "{}",
        m.text
    );
    assert_eq!(m.to.data["pile"].as_str().unwrap().len(), 339);
    assert!(r.explanation.iter().all(|l| l.len() < 600));
    // A few moves of a huge pile are listed; the opening's are too many.
    let few = rules.parse("1e30 5").unwrap();
    let moves = rules
        .moves(
            &few,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(budget()),
        )
        .unwrap();
    assert_eq!(moves.len(), 5);
    let a = rules
        .analyze(
            &few,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(budget()),
        )
        .unwrap();
    let p: Vec<&str> = moves
        .iter()
        .filter(|m| m.wins())
        .map(|m| m.to.text.as_str())
        .collect();
    assert!(a
        .winning_moves
        .iter()
        .all(|w| p.contains(&w.to.text.as_str())));
    let e = rules
        .moves(
            &pos,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(budget()),
        )
        .unwrap_err();
    assert!(e.is_limit(), "{e}");
    let e = rules
        .analyze(
            &pos,
            &grundy_core::catalogue::Ask::new(Play::Misere).budget(budget()),
        )
        .unwrap_err();
    assert!(e.is_limit(), "{e}");
}

#[test]
fn fib_misere_by_search_matches_a_plain_recursion() {
    fn wins(n: u64, l: u64, k: u64) -> bool {
        // Misère: the player who takes the last counter loses; no move left is a win.
        if n == 0 || l == 0 {
            return true;
        }
        (1..=l.min(n)).any(|t| !wins(n - t, (k * t).min(n - t), k))
    }
    let mut rules = open("fib");
    for n in 0..=14u64 {
        for l in 0..=n {
            let r = agree(rules.as_mut(), &format!("{n} {l}"), Play::Misere);
            let o = if wins(n, l, 2) {
                Outcome::N
            } else {
                Outcome::P
            };
            assert_eq!(r.outcome, o, "misère ({n}, {l})");
        }
    }
}

#[test]
fn wythoff_agrees_with_the_beatty_pairs_and_its_table() {
    let mut rules = open("wythoff");
    let table = wythoff::GrundyTable::new(12).unwrap();
    for x in 0..12u32 {
        for y in 0..12u32 {
            let r = agree(rules.as_mut(), &format!("{x} {y}"), Play::Normal);
            let (bx, by) = (UBig::from(x), UBig::from(y));
            assert_eq!(r.outcome, wythoff::outcome(&bx, &by));
            assert_eq!(
                r.grundy.and_then(|g| g.finite()),
                table.value(x as usize, y as usize).map(u64::from)
            );
            assert_eq!(r.winning_moves, wythoff::winning_moves(&bx, &by));
            let p = wythoff::is_p_position(&bx, &by);
            assert_eq!(r.details.get("p_index").is_some(), p, "({x}, {y})");
        }
    }
    let big = rules.parse("(2^80, 3^50)").unwrap();
    let r = rules
        .analyze(
            &big,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(budget()),
        )
        .unwrap();
    assert_eq!(r.outcome, Outcome::N);
    assert!(!r.winning_moves.is_empty());
    assert!(rules
        .moves(
            &big,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(budget())
        )
        .unwrap_err()
        .is_limit());
    let p = rules.parse("3 5").unwrap();
    assert_eq!(
        (p.data["x"].as_str(), p.data["y"].as_str()),
        (Some("3"), Some("5"))
    );
}

/// Wythoff's game for the generic solver: the straightforward oracle.
struct PlainWythoff;

impl Game for PlainWythoff {
    type Position = (u64, u64);
    fn options(&self, &(x, y): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((0..x).map(|i| (i, y)));
        out.extend((0..y).map(|j| (x, j)));
        out.extend((1..=x.min(y)).map(|t| (x - t, y - t)));
    }
}

#[test]
fn misere_wythoff_p_positions_match_a_search() {
    let mut solver = Solver::new(PlainWythoff);
    let mut rules = open("wythoff");
    for x in 0..40u64 {
        for y in 0..40u64 {
            let want = solver.misere_outcome(&(x, y));
            let fast = wythoff::is_misere_p_position(&UBig::from(x), &UBig::from(y));
            assert_eq!(fast, want == Outcome::P, "misère ({x}, {y})");
            if x < 15 && y < 15 {
                agree(rules.as_mut(), &format!("{x} {y}"), Play::Misere);
            }
        }
    }
    // Beyond what a search reaches: every misère winning move lands on a misère P-position.
    let (x, y) = (UBig::from(10u8).pow(40), UBig::from(7u8).pow(30));
    for m in wythoff::misere_winning_moves(&x, &y) {
        let n = |k: &str| m.to.data[k].as_str().unwrap().parse::<UBig>().unwrap();
        assert!(wythoff::is_misere_p_position(&n("x"), &n("y")));
        assert_eq!(rules.parse(&m.to.text).unwrap(), m.to);
    }
}

#[test]
fn maze_agrees_with_its_values() {
    let mut rules = open("maze");
    let text = "..#.|....|.#..|...@";
    let r = agree(rules.as_mut(), text, Play::Normal);
    let mazes = maze::parse_mazes(&text.replace('|', "\n")).unwrap();
    let values = mazes[0].grundy_values();
    let g = values.get(mazes[0].figure().unwrap()).unwrap();
    assert_eq!(r.grundy.and_then(|g| g.finite()), Some(g));
    assert_eq!(r.details["mazes"][0]["grundy"], g);
    assert_eq!(
        r.details["mazes"][0]["grid"],
        serde_json::to_value(&values).unwrap()
    );
    agree(rules.as_mut(), text, Play::Misere);
    let p = rules.parse("..@\n.#.\n").unwrap();
    assert_eq!(p.text, "..@|.#.");
    assert_eq!(p.data["rows"], serde_json::json!(["...", ".#."]));
    assert_eq!(p.data["figure"], serde_json::json!([0, 2]));
}

fn maze_strategy() -> impl Strategy<Value = (usize, usize, Vec<bool>)> {
    (1usize..7, 1usize..7).prop_flat_map(|(r, c)| {
        (
            Just(r),
            Just(c),
            proptest::collection::vec(proptest::bool::weighted(0.25), r * c),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn maze_misere_outcomes_match_a_search((rows, cols, wall) in maze_strategy()) {
        let m = maze::Maze::new(rows, cols, wall.clone(), None).unwrap();
        let fast = maze::misere_wins(&m);
        let mut solver = Solver::new(m.clone());
        for r in 0..rows {
            for c in 0..cols {
                let got = fast[r * cols + c];
                if wall[r * cols + c] {
                    prop_assert_eq!(got, None);
                } else {
                    let want = solver.misere_outcome(&(r, c)) == Outcome::N;
                    prop_assert_eq!(got, Some(want), "cell ({}, {})", r, c);
                }
            }
        }
    }

    #[test]
    fn chomp_position_counts_match_the_solver(mut rows in proptest::collection::vec(1usize..7, 1..6)) {
        rows.sort_unstable_by(|a, b| b.cmp(a));
        let s = chomp::Staircase::from_rows(&rows).unwrap();
        let mut solver = Solver::new(chomp::Chomp);
        solver.grundy(&s);
        prop_assert_eq!(chomp::positions_within(&s, u64::MAX), solver.memo_len() as u64);
        prop_assert_eq!(chomp::positions_within(&s, 3), (solver.memo_len() as u64).min(4));
    }

    #[test]
    fn card_margins_match_brute_force(cards in proptest::collection::vec(-20i64..40, 0..11)) {
        let (all, without_left, without_right) = cards::margins(&cards);
        let total: i64 = cards.iter().sum();
        prop_assert_eq!(all, 2 * cards::first_total_brute_force(&cards) - total);
        if !cards.is_empty() {
            let n = cards.len();
            let margin = |c: &[i64]| 2 * cards::first_total_brute_force(c) - c.iter().sum::<i64>();
            prop_assert_eq!(without_left, margin(&cards[1..]));
            prop_assert_eq!(without_right, margin(&cards[..n - 1]));
        }
    }
}

#[test]
fn walls_agree_with_the_analysis_and_a_search() {
    let mut rules = open("walls");
    for text in [
        "....|.X..|....",
        "X.|..",
        "...|...|...",
        "3 4\n....\n..X.\n....",
    ] {
        let r = agree(rules.as_mut(), text, Play::Normal);
        let board = walls::Board::parse(&text.replace('|', "\n")).unwrap();
        let g = board.values().get(&board.full());
        assert_eq!(r.grundy.and_then(|g| g.finite()), Some(g));
        let winner = if g == 0 { "Second" } else { "First" };
        assert_eq!(r.details["winner"], winner);
        agree(rules.as_mut(), text, Play::Misere);
        // Every position a move leaves: its value from the table equals the solver's.
        let pos = rules.parse(text).unwrap();
        for m in rules
            .moves(
                &pos,
                &grundy_core::catalogue::Ask::new(Play::Normal).budget(budget()),
            )
            .unwrap()
        {
            let after = agree(rules.as_mut(), &m.to.text, Play::Normal);
            assert_eq!(after.grundy, m.grundy);
        }
    }
    let mut solver = Solver::new(walls::WallGame::new(
        walls::Board::parse("....\n.X..\n....\n").unwrap(),
    ));
    let g = solver.grundy(&vec![walls::Board::parse("....\n.X..\n....\n")
        .unwrap()
        .full()]);
    let r = agree(rules.as_mut(), "....|.X..|....", Play::Normal);
    assert_eq!(r.grundy.and_then(|v| v.finite()), Some(g));
    assert_eq!(rules.parse("4 1\n.\nx\n.\n.").unwrap().text, ".|X|.|.");
    // Misère play is searched on small boards only.
    let big = rules.parse(&"........|".repeat(8)).unwrap();
    let e = rules
        .analyze(
            &big,
            &grundy_core::catalogue::Ask::new(Play::Misere).budget(budget()),
        )
        .unwrap_err();
    assert!(e.is_limit(), "{e}");
}

#[test]
fn cram_agrees_with_its_analysis() {
    let mut rules = open("cram");
    for text in ["3x4", "2x2", "1x3", "3x3", "..#|...|#..", "4x4", "2x5"] {
        let r = agree(rules.as_mut(), text, Play::Normal);
        let shape = match text.split_once('x') {
            Some((a, b)) => cram::Shape::rectangle(a.parse().unwrap(), b.parse().unwrap()),
            None => cram::Shape::parse(text),
        }
        .unwrap();
        // The engine's own analysis (what `grundy cram` prints) and the reduced solver.
        let board = grundy_board::cram::Board::parse(&shape.to_text()).unwrap();
        let old = grundy_board::cram::ask(&board, &grundy_core::catalogue::Ask::new(Play::Normal))
            .unwrap();
        assert_eq!(r.grundy, old.grundy, "{text}");
        assert_eq!(
            Some(Solver::new(cram::Cram::default()).grundy(&shape)),
            old.grundy.as_ref().and_then(|g| g.finite())
        );
        let wins: Vec<&str> = r.winning_moves.iter().map(|m| m.text.as_str()).collect();
        let old_wins: Vec<&str> = old.winning_moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(wins, old_wins, "{text}");
        agree(rules.as_mut(), text, Play::Misere);
    }
    // Misère outcomes against the plain search.
    let mut plain = Solver::new(cram::PlainCram);
    for text in ["2x3", "3x3", "1x5", "..#|...|#.."] {
        let pos = rules.parse(text).unwrap();
        let r = rules
            .analyze(
                &pos,
                &grundy_core::catalogue::Ask::new(Play::Misere).budget(budget()),
            )
            .unwrap();
        let shape = match text.split_once('x') {
            Some((a, b)) => cram::Shape::rectangle(a.parse().unwrap(), b.parse().unwrap()),
            None => cram::Shape::parse(text),
        }
        .unwrap();
        assert_eq!(r.outcome, plain.misere_outcome(&shape), "misère {text}");
    }
    assert_eq!(
        rules.parse("2x3").unwrap().data["rows"],
        serde_json::json!(["...", "..."])
    );
    let tiny = Budget {
        max_positions: 50,
        ..Budget::default()
    };
    // 6x6 is settled by the half-turn at the root: no search, whatever the budget.
    let six = rules.parse("6x6").unwrap();
    let r = rules
        .analyze(
            &six,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(tiny),
        )
        .unwrap();
    assert_eq!(r.grundy, Some(0u64.into()));
    let pos = rules.parse("5x6").unwrap();
    let e = rules
        .analyze(
            &pos,
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(tiny),
        )
        .unwrap_err();
    assert!(e.is_limit(), "{e}");
    let e = rules
        .analyze(
            &pos,
            &grundy_core::catalogue::Ask::new(Play::Misere).budget(tiny),
        )
        .unwrap_err();
    assert!(e.is_limit(), "{e}");
}

#[test]
fn chomp_agrees_with_the_solver_and_brute_force() {
    let mut rules = open("chomp");
    for (r, c) in [(1, 1), (2, 3), (3, 3), (4, 5), (4, 7)] {
        let rep = agree(rules.as_mut(), &format!("{r}x{c}"), Play::Normal);
        let bar = chomp::Staircase::rectangle(r, c).unwrap();
        let g = Solver::new(chomp::Chomp).grundy(&bar);
        assert_eq!(rep.grundy.and_then(|g| g.finite()), Some(g));
        assert_eq!(rep.outcome, chomp::outcome_brute_force(&vec![c; r]));
        agree(rules.as_mut(), &format!("{r}x{c}"), Play::Misere);
    }
    for rows in [vec![3, 2, 1], vec![5, 5, 3], vec![4, 1, 1, 1], vec![2, 2]] {
        let text: Vec<String> = rows.iter().map(usize::to_string).collect();
        let rep = agree(rules.as_mut(), &text.join(" "), Play::Normal);
        assert_eq!(rep.outcome, chomp::outcome_brute_force(&rows), "{rows:?}");
    }
    let p = rules.parse("5,5,3").unwrap();
    assert_eq!(p.text, "5 5 3");
    assert_eq!(p.data["rows"], serde_json::json!([5, 5, 3]));
    assert_eq!(rules.parse("3 3").unwrap().text, "2x3");
    let tiny = Budget {
        max_positions: 100,
        ..Budget::default()
    };
    let e = rules
        .analyze(
            &rules.parse("9x9").unwrap(),
            &grundy_core::catalogue::Ask::new(Play::Normal).budget(tiny),
        )
        .unwrap_err();
    assert!(e.is_limit(), "{e}");
    // The count of reachable staircases is exact: C(R + C, R) for a bar (the empty one, which
    // no game reaches, left out), and what the solver memoises from a staircase.
    let bar = chomp::Staircase::rectangle(4, 7).unwrap();
    assert_eq!(chomp::positions_within(&bar, u64::MAX), 330 - 1);
    for rows in [vec![5usize, 5, 3], vec![4, 1, 1, 1], vec![3, 2, 1], vec![1]] {
        let s = chomp::Staircase::from_rows(&rows).unwrap();
        let mut solver = Solver::new(chomp::Chomp);
        solver.grundy(&s);
        assert_eq!(
            chomp::positions_within(&s, u64::MAX),
            solver.memo_len() as u64,
            "{rows:?}"
        );
    }
    assert_eq!(
        chomp::positions_within(&chomp::Staircase::rectangle(16, 255).unwrap(), 1000),
        1001
    );
}

#[test]
fn cards_report_scores() {
    let mut rules = open("cards");
    for text in ["4 7 2 9", "1 5 2", "3", "-3", "", "2 2", "1, 100, 1, 1"] {
        let r = agree(rules.as_mut(), text, Play::Normal);
        let values: Vec<i64> = text
            .split([' ', ','])
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        let first = cards::first_total_brute_force(&values);
        let second = values.iter().sum::<i64>() - first;
        assert!(r.scoring);
        assert_eq!(r.grundy, None);
        let o = if first >= second {
            Outcome::N
        } else {
            Outcome::P
        };
        assert_eq!(r.outcome, o, "{text}");
        assert_eq!(r.details["first_total"], first, "{text}");
        assert_eq!(r.details["second_total"], second, "{text}");
        // Each optimal first move keeps at least half when the player to move can.
        if o == Outcome::N {
            for end in r.details["optimal"].as_array().unwrap() {
                assert!(
                    r.winning_moves.iter().any(|m| m.at["end"] == *end),
                    "{text}"
                );
            }
        }
    }
    let p = rules.parse("4, 7 2,9").unwrap();
    assert_eq!(p.text, "4 7 2 9");
    assert_eq!(p.data["cards"], serde_json::json!([4, 7, 2, 9]));
}
