//! Heap moves are the workspace's one `Move` (issue 27 item 2): the `to.text` of every move
//! that Nim, a heap sum (normal and misère, searched or by the misère quotient) and the
//! catalogue's heap entries give is read back by the registry's entry of the same game, and
//! the position it names has the outcome (and value) the move claims.

use grundy::catalogue::{self, Play};
use grundy::heap::{self, analyze_position, analyze_position_misere, Compute};
use grundy::{Budget, Grundy, Move, Outcome};

/// The registry's answer for the position a move leaves, checked against the move's claim.
fn check(game: &str, m: &Move, play: Play) {
    let r = catalogue::analyze(game, &m.to.text, play, &Budget::default())
        .unwrap_or_else(|e| panic!("{game} {:?} ({}): {e}", m.to.text, m.text));
    assert_eq!(m.to.kind, "heaps");
    assert_eq!(r.position.text, m.to.text, "{game}: {}", m.text);
    assert_eq!(r.outcome, m.outcome, "{game} {:?}: {}", m.to.text, m.text);
    if let Some(g) = &m.grundy {
        assert_eq!(r.grundy.as_ref(), Some(g), "{game} {:?}", m.to.text);
    }
    assert!(m.short.chars().count() <= 30, "{}", m.short);
}

fn text(heaps: &[u64]) -> String {
    heaps
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

const POSITIONS: &[&[u64]] = &[
    &[3, 4, 5],
    &[1, 2, 3],
    &[7],
    &[1, 1, 2],
    &[1, 1],
    &[10, 12, 5],
    &[2, 6, 9],
];

#[test]
fn nim_moves_name_positions_the_registry_reads_back() {
    for heaps in POSITIONS {
        for (game, play) in [("nim", Play::Normal), ("misere-nim", Play::Misere)] {
            let moves = grundy::nim::winning_moves(heaps, play);
            for m in &moves {
                assert_eq!(m.outcome, Outcome::P);
                assert_eq!(m.grundy.is_some(), !play.is_misere());
                check(game, m, Play::Normal);
            }
            // Every legal move, as the catalogue lists them for play.
            let mut rules = catalogue::Registry::new().open(game).unwrap();
            let pos = rules.parse(&text(heaps)).unwrap();
            let all = rules
                .moves(
                    &pos,
                    &grundy::catalogue::Ask::new(Play::Normal).budget(Budget::default()),
                )
                .unwrap();
            assert_eq!(all.iter().filter(|m| m.wins()).count(), moves.len());
            for m in &all {
                check(game, m, Play::Normal);
            }
            // The report lists the library's own moves.
            let r = rules
                .analyze(
                    &pos,
                    &grundy::catalogue::Ask::new(Play::Normal).budget(Budget::default()),
                )
                .unwrap();
            assert_eq!(r.winning_moves, moves, "{game} {heaps:?}");
        }
    }
}

#[test]
fn heap_sum_moves_name_positions_the_registry_reads_back() {
    for rule in [
        "kayles",
        "0.137",
        "sub:1,3,4",
        "4!.0",
        "crosses",
        "dawsons-kayles",
    ] {
        let r = heap::parse(rule).unwrap();
        for heaps in POSITIONS {
            let a = analyze_position(&r, heaps, &mut Compute::default()).unwrap();
            for m in &a.analysis.winning_moves {
                assert_eq!(
                    (m.outcome, &m.grundy),
                    (Outcome::P, &Some(Grundy::Finite(0)))
                );
                check(rule, m, Play::Normal);
            }
            let b = &Budget::default();
            let mis = analyze_position_misere(&r, heaps, b, &Compute::default()).unwrap();
            for m in &mis.winning_moves {
                assert_eq!((m.outcome, &m.grundy), (Outcome::P, &None));
                check(rule, m, Play::Misere);
            }
            for play in [Play::Normal, Play::Misere] {
                let mut rules = catalogue::Registry::new().open(rule).unwrap();
                let pos = rules.parse(&text(heaps)).unwrap();
                for m in rules
                    .moves(&pos, &grundy::catalogue::Ask::new(play).budget(*b))
                    .unwrap()
                {
                    check(rule, &m, play);
                }
            }
        }
    }
}

#[test]
fn misere_quotient_moves_name_positions_the_registry_reads_back() {
    let q = grundy::misere::quotient::quotient("0.75", 12).unwrap();
    for heaps in POSITIONS {
        for m in q.winning_moves(heaps).unwrap() {
            assert_eq!((m.outcome, &m.grundy), (Outcome::P, &None));
            check("0.75", &m, Play::Misere);
        }
    }
}

#[test]
fn huge_heaps_are_strings_in_at_and_text_in_to() {
    // Through sub:1,3,4's proven period: a heap of 10^18 + 5.
    let big = 1_000_000_000_000_000_005u64;
    let r = heap::parse("sub:1,3,4").unwrap();
    let a = analyze_position(&r, &[big, 2], &mut Compute::default()).unwrap();
    let m = a
        .analysis
        .winning_moves
        .iter()
        .find(|m| m.at["heap"] == 0)
        .expect("a winning move in the big heap");
    assert_eq!(m.at["from"], big.to_string());
    assert!(m.to.text.ends_with(" 2") && m.to.data["heaps"][1] == 2);
    check("sub:1,3,4", m, Play::Normal);
}

/// The heap entries answer each detail level with no more than it asks (issue 39): the value
/// alone has the outcome and value of the winning-moves answer and no move; every move
/// valued (`all`) agrees with the winning moves on which moves win; normal and misère play
/// (the misère quotient, and the search past it).
#[test]
fn heap_entries_answer_each_detail_level() {
    use grundy::catalogue::{Ask, Detail, Registry};
    let reg = Registry::new();
    let wins = |r: &grundy::catalogue::Report, all: bool| -> Vec<String> {
        let moves = if all { &r.all_moves } else { &r.winning_moves };
        let mut t: Vec<String> = moves
            .iter()
            .filter(|m| m.outcome == Outcome::P)
            .map(|m| m.to.text.clone())
            .collect();
        t.sort();
        t
    };
    for game in ["kayles", "0.07", "4!.0", "sub:1,3,4"] {
        for heaps in POSITIONS {
            for play in [Play::Normal, Play::Misere] {
                let pos = text(heaps);
                let ask = |d| Ask::new(play).detail(d).budget(Budget::default());
                let value = reg.ask(game, &pos, &ask(Detail::Value)).unwrap();
                let winning = reg.ask(game, &pos, &ask(Detail::Winning)).unwrap();
                let all = reg.ask(game, &pos, &ask(Detail::All)).unwrap();
                let what = format!("{game} {pos} {play:?}");
                assert_eq!(value.outcome, winning.outcome, "{what}");
                assert_eq!(value.grundy, winning.grundy, "{what}");
                assert!(value.winning_moves.is_empty(), "{what}");
                assert!(value.details.get("winning_moves").is_none(), "{what}");
                assert_eq!(value.details["heaps"], winning.details["heaps"], "{what}");
                assert_eq!(all.outcome, winning.outcome, "{what}");
                assert_eq!(wins(&all, true), wins(&winning, false), "{what}");
            }
        }
    }
}

/// Misère Kayles past the heap a search reaches: every detail level is the quotient's.
#[test]
fn misere_kayles_value_comes_from_the_quotient() {
    use grundy::catalogue::{Ask, Detail, Registry};
    let reg = Registry::new();
    for detail in [Detail::Value, Detail::Winning] {
        let r = reg
            .ask("kayles", "65 10", &Ask::new(Play::Misere).detail(detail))
            .unwrap();
        assert_eq!(r.details["method"], "quotient", "{detail}");
        assert_eq!(r.details["positions_searched"], 0);
        assert!(r.explanation[0].contains("quotient"), "{:?}", r.explanation);
    }
}
