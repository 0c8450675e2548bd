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
            let a = grundy::nim::analyze(heaps, play);
            let moves: Vec<Move> = a.moves().collect();
            assert_eq!(moves.len() as u64, a.winning_move_count);
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
